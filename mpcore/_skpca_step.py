"""The step record of sparse kernel PCA and the checks every path of it shares.

Hussain & Shawe-Taylor (2008), Algorithm 1: one :class:`SKPCAStep` per greedy choice.
Exact greedy (:mod:`mpcore.skpca`), the 59-trick in blocks (:mod:`mpcore.skpca_large`) and
its dask form (:mod:`mpcore.dask_skpca`) all yield these, so the three import them from here
rather than from one another; :class:`FitProgress` reports the steps of any of them.
"""

from __future__ import annotations

import time
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


class FitProgress:
    """What ``SparseKPCA(verbose=...)`` prints while it fits: nothing at 0; at 1 a line at
    about every tenth of the steps and at the last; at 2 or more a line every step. Each
    line gives the step, the trace left (as a share of tr K) and the seconds so far, so a
    fit of a million points shows how far it is and how fast it goes."""

    def __init__(self, verbose, n_steps, trace0, name="SparseKPCA"):
        self.verbose = int(verbose)
        self.n_steps = int(n_steps)
        self.trace0 = float(trace0)
        self.name = name
        self.every = 1 if self.verbose >= 2 else max(1, -(-self.n_steps // 10))
        self.start = time.perf_counter()
        self._shown = 0  # the last step reported

    def step(self, j, trace, last=False):
        """Reports step j (1-based) whose deflated trace is ``trace``; ``last``: the fit's
        final step (reported whatever ``every`` says, once)."""
        if self.verbose <= 0 or j == self._shown or not (last or j % self.every == 0):
            return
        self._shown = j
        left = trace / self.trace0 if self.trace0 > 0 else 0.0
        print(f"[{self.name}] step {j} of {self.n_steps}: trace left {left:.4%} of tr K, "
              f"{time.perf_counter() - self.start:.1f} s", flush=True)
