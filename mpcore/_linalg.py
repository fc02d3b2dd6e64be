r"""Cholesky append and solve for greedily grown Gram matrices.

The update is the one of ``_gram_omp`` in scikit-learn's ``sklearn/linear_model/_omp.py``:
to add column :math:`d` to a basis :math:`B` with :math:`B'B = LL'`, solve
:math:`L\,l = B'd`, set the pivot :math:`L_{kk} = \|d\|^2 - \|l\|^2` and refuse
the column when the pivot is not clearly positive (it lies, numerically, in
the span of :math:`B`). No inverse is ever formed.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import cho_solve, solve_triangular

__all__ = ["cholesky_append", "cholesky_solve"]


def cholesky_append(L, n, cross, diag, *, tol):
    r"""Grow the lower Cholesky factor ``L[:n, :n]`` of a Gram matrix by one row.

    Parameters
    ----------
    L : ndarray of shape (N, N), N > n
        Preallocated buffer; ``L[:n, :n]`` holds the current factor and row ``n``
        is written in place when the column is accepted.
    n : int
        Current size of the factor.
    cross : ndarray of shape (n,)
        Inner products :math:`B'd` of the current basis with the new column.
    diag : float
        :math:`\|d\|^2`.
    tol : float
        Relative threshold: the column is refused when
        :math:`L_{kk}^2 \le \mathrm{tol}\cdot\|d\|^2`.

    Returns
    -------
    accepted : bool
        False when the new column is (numerically) in the span of the basis;
        ``L`` is then left unchanged.
    """
    if n == 0:
        if diag <= 0:
            return False
        L[0, 0] = np.sqrt(diag)
        return True
    row = solve_triangular(L[:n, :n], cross, lower=True, check_finite=False)
    pivot = diag - float(row @ row)
    if pivot <= tol * diag:
        return False
    L[n, :n] = row
    L[n, n] = np.sqrt(pivot)
    return True


def cholesky_solve(L, n, rhs):
    """Solve :math:`(LL')x = \\mathrm{rhs}` with the factor ``L[:n, :n]`` (two triangular solves)."""
    return cho_solve((L[:n, :n], True), rhs, check_finite=False)
