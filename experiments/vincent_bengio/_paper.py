"""The paper every result of this package cites: Vincent & Bengio [1]_.

References
----------
.. [1] P. Vincent, Y. Bengio. Kernel matching pursuit. Machine Learning 48,
   165-187, 2002.
"""

VB = "Vincent & Bengio (2002)"
