"""The data loaders of ``datasets/`` under their installed name, in a clone of the repository.

``pip install .`` installs the folder ``datasets/`` as the package ``mpdatasets``
(pyproject.toml), so that it cannot collide with Hugging Face's ``datasets``.
In a clone, without installing, this module makes ``import mpdatasets`` give the
same package, so the app's "Show the code" snippets run unchanged in both.
It is not installed itself.
"""

import sys

import datasets

sys.modules[__name__] = datasets
