"""The step record of sparse kernel PCA and the checks every path of it shares.

Hussain & Shawe-Taylor (2008), Algorithm 1: one :class:`SKPCAStep` per greedy choice.
Exact greedy (:mod:`mpcore.skpca`), the 59-trick in blocks (:mod:`mpcore.skpca_large`) and
its dask form (:mod:`mpcore.dask_skpca`) all yield these, so the three import them from here
rather than from one another.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: How the PSD refusals of this module name the method.
WHERE = "sparse kernel PCA"
#: ``kernel=PRECOMPUTED``: fit takes the training kernel matrix, transform K(X, X_train).
PRECOMPUTED = "precomputed"



@dataclass(frozen=True)
class SKPCAStep:
    """One step of sparse kernel PCA (Algorithm 1).

    Attributes
    ----------
    step : int
        1-based step number j.
    index : int
        The chosen training index i_j.
    quotients : ndarray of shape (m,) or None
        Rayleigh quotients of the deflated K *before* this step's deflation;
        NaN where a point is not a candidate or already spanned. None in the light
        records of the 59-trick (``arrays=False``), which keep only ``quotient``.
    residual_diag : ndarray of shape (m,) or None
        diag of the deflated K *after* this step (None in light records).
    trace_residual : float
        Trace of the deflated K after this step.
    quotient : float or None
        The chosen point's quotient, ``quotients[index]`` (set by the 59-trick).
    """

    step: int
    index: int
    quotients: np.ndarray | None
    residual_diag: np.ndarray | None
    trace_residual: float
    quotient: float | None = None


def effective_tol(tol: float, m: int) -> float:
    """The relative threshold sparse kernel PCA applies for ``tol`` on m points:
    ``max(tol, m * eps)``, so that rounding left by deflation never counts as unspanned."""
    return max(float(tol), m * float(np.finfo(float).eps))


def raise_not_psd(value, worst, j):
    """The refusal when step ``j + 1`` left the residual diagonal ``value`` < 0 at point
    ``worst``."""
    # Cauchy-Schwarz on the deflated PSD matrix makes every residual diagonal >= 0
    raise ValueError(
        f"The kernel matrix K is not positive semi-definite: after step {j + 1} the "
        f"residual diagonal of point {worst} is {value:.3g} < 0, impossible for "
        f"K = Phi Phi'. Sparse kernel PCA needs a PSD kernel: rbf, laplacian, linear, "
        "cosine, or polynomial with coef0 >= 0."
    )
