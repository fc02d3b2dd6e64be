"""Named tolerances and argument checks shared by every mpcore module.

Tolerances are relative, in the spirit of scikit-learn's
``_check_psd_eigenvalues``: a threshold is a ratio scaled by the largest
diagonal (or eigenvalue) of the matrix at hand, never an absolute number.
"""

from __future__ import annotations

import numbers

import numpy as np

#: A residual diagonal at or below ``DIAG_TOL * max(diag K)`` counts as spanned:
#: sparse KPCA masks it (no division by ~0) and stops once every diagonal is there.
DIAG_TOL = 1e-10

#: Sparse KPCA updates the squared column norms (K_hat^2)_ii incrementally; once
#: they have all fallen below this fraction of their size at the last refresh, the
#: rounding of the update is no longer negligible and they are recomputed exactly.
SQ_REFRESH_RATIO = 1e-6

#: Relative size below which a kernel matrix's negative eigenvalues are rounding,
#: not a sign of an indefinite kernel (used by the PSD refusal).
PSD_NEG_RATIO = 1e-8

#: Kernels that are positive semi-definite for every parameter value.
PSD_KERNELS = ("rbf", "laplacian", "polynomial", "linear", "cosine")
#: Every kernel name mpcore accepts.
KERNELS = PSD_KERNELS + ("sigmoid",)


def check_kernel_name(kernel, *, allow_non_psd=True, where="this method"):
    """Return ``kernel`` if it is a known kernel name, else raise ValueError."""
    if not isinstance(kernel, str) or kernel not in KERNELS:
        raise ValueError(
            f"Unknown kernel {kernel!r}. Choose one of: {', '.join(KERNELS)}."
        )
    if not allow_non_psd and kernel not in PSD_KERNELS:
        raise ValueError(
            f"The {kernel!r} kernel is not positive semi-definite, but {where} needs a "
            "PSD kernel matrix (its Rayleigh quotients and deflation assume K = Phi Phi'). "
            f"Choose one of: {', '.join(PSD_KERNELS)}. (Kernel matching pursuit accepts "
            "'sigmoid': it does not need Mercer's condition.)"
        )
    return kernel


def check_positive_int(value, name, *, minimum=1, maximum=None):
    """Return ``value`` as int if it is an integer in [minimum, maximum]."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r}.")
    value = int(value)
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}.")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {value}.")
    return value


def check_positive_float(value, name, *, allow_none=False, strict=True):
    """Return ``value`` as float if it is a finite number > 0 (>= 0 if not strict)."""
    if value is None and allow_none:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {value!r}.")
    value = float(value)
    if not np.isfinite(value) or value < 0 or (strict and value == 0):
        sign = "> 0" if strict else ">= 0"
        raise ValueError(f"{name} must be a finite number {sign}, got {value!r}.")
    return value


def check_probability(value, name):
    """Return ``value`` if it lies in the open interval (0, 1)."""
    value = check_positive_float(value, name)
    if not value < 1:
        raise ValueError(f"{name} must lie strictly between 0 and 1, got {value!r}.")
    return value


def check_square_kernel(K, name="K"):
    """Return K as a finite, symmetric, square float array (copy only if needed)."""
    K = np.asarray(K, dtype=float)
    if K.ndim != 2 or K.shape[0] != K.shape[1]:
        raise ValueError(f"{name} must be a square matrix, got shape {K.shape}.")
    if K.shape[0] == 0:
        raise ValueError(f"{name} is empty: it needs at least one row.")
    if not np.all(np.isfinite(K)):
        raise ValueError(
            f"{name} contains NaN or inf: check the data and kernel parameters "
            "(a huge gamma or degree can overflow)."
        )
    scale = max(float(np.max(np.abs(K))), np.finfo(float).tiny)
    if np.max(np.abs(K - K.T)) > 1e-8 * scale:
        raise ValueError(f"{name} must be symmetric (a kernel matrix K(X, X)).")
    return K


def check_psd_diag(K, name="K"):
    """Refuse a kernel matrix whose diagonal has a clearly negative entry."""
    d = np.diag(K)
    scale = max(float(np.max(np.abs(d))), np.finfo(float).tiny)
    if np.any(d < -PSD_NEG_RATIO * scale):
        raise ValueError(
            f"{name} has negative diagonal entries, so it is not a PSD kernel matrix "
            "(is it a sigmoid kernel?). This method needs a PSD kernel."
        )
    return K
