r"""Kernel matching pursuit (Vincent & Bengio, 2002).

Greedy sparse approximation with a dictionary of functions evaluated at the
training points: the kernel centred on each training point,
:math:`d_i = K(\cdot, x_i)`, optionally the constant function (the bias, Section
4.1), a random subset of candidate points, and several kernel shapes at once
(a *mixed* dictionary, Section 4.1 and the conclusion). One module per idea:

- :mod:`~mpcore.kmp.specs`: kernel specifications and mixed dictionaries (Section 4.1);
- :mod:`~mpcore.kmp.dictionary`: the dictionary of kernel columns (Section 4.1);
- :mod:`~mpcore.kmp.steps`: the step engine, :func:`kmp_steps` (Figs. 1, 3, 4;
  Eqs. 3-11), one frozen :class:`KMPStep` per step;
- :mod:`~mpcore.kmp._base`, :mod:`~mpcore.kmp.regressor`, :mod:`~mpcore.kmp.classifier`:
  the scikit-learn estimators :class:`KMPRegressor` and :class:`KMPClassifier`, which
  consume :func:`kmp_steps`, so an animation of the steps shows exactly what ``fit``
  computed; early stopping on a validation set (Section 5.3) or at the minimum of
  Hussain & Shawe-Taylor's Theorem 3 bound;
- :mod:`~mpcore.kmp.replay`: a fitted model step by step (:func:`pursuit`,
  :func:`replay_steps`, :func:`basis_functions`, :func:`staged_values`).

Every public name is importable from ``mpcore.kmp`` itself.

References
----------
.. [1] P. Vincent, Y. Bengio. Kernel matching pursuit. Machine Learning 48,
   165-187, 2002.
.. [2] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008.
.. [3] Y. Pati, R. Rezaiifar, P. Krishnaprasad. Orthogonal matching pursuit.
   Asilomar Conference on Signals, Systems and Computers, 1993.
"""

from ._base import ALPHA_STD_FACTOR, EARLY_STOPPING, PURSUIT_ATTRIBUTES, KMPPursuit
from .classifier import KMPClassifier
from .dictionary import KMPDictionary, kmp_dictionary
from .regressor import KMPRegressor
from .replay import basis_functions, pursuit, replay_steps, staged_values
from .specs import (
    MIX_MODES,
    PRECOMPUTED,
    WIDTH_FACTORS,
    KernelSpec,
    has_width,
    mixed_dictionary,
    normalize_kernel_specs,
    spec_label,
)
from .steps import FITTINGS, KMPStep, kmp_steps, kmp_steps_from_data

__all__ = [
    "KernelSpec", "normalize_kernel_specs", "KMPDictionary", "kmp_dictionary",
    "KMPStep", "kmp_steps", "kmp_steps_from_data", "KMPRegressor", "KMPClassifier",
    "KMPPursuit", "PURSUIT_ATTRIBUTES", "pursuit", "replay_steps", "basis_functions", "staged_values",
    "MIX_MODES", "WIDTH_FACTORS", "has_width", "spec_label", "mixed_dictionary",
    "FITTINGS", "EARLY_STOPPING", "ALPHA_STD_FACTOR", "PRECOMPUTED",
]
