r"""Cholesky append and solve for greedily grown Gram matrices, and the small
protocols every module shares: a Cholesky factor with jitter, the top eigenpairs of a
symmetric matrix (and Lanczos within a budget of products, a deterministic eigenvector
sign, zero padding of a short spectrum), and Pearson's correlation.

The update is the one of ``_gram_omp`` in scikit-learn's ``sklearn/linear_model/_omp.py``:
to add column :math:`d` to a basis :math:`B` with :math:`B'B = LL'`, solve
:math:`L\,l = B'd`, set the pivot :math:`L_{kk} = \|d\|^2 - \|l\|^2` and refuse
the column when the pivot is not clearly positive (it lies, numerically, in
the span of :math:`B`). No inverse is ever formed.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import cho_solve, eigh, solve_triangular
from scipy.sparse.linalg import ArpackNoConvergence, LinearOperator, eigsh

__all__ = ["cholesky_append", "cholesky_solve", "cholesky_with_jitter", "pearson",
           "top_eigh", "budgeted_eigsh", "LanczosBudgetExceeded", "sign_flip", "pad_zeros",
           "JITTER_STEPS", "SUBSET_VALUES_FRACTION", "LANCZOS_BUDGET_PER_NCV"]

#: Relative jitters tried, in order, by :func:`cholesky_with_jitter` (times the largest
#: diagonal entry): none first, then 1e-12 growing a hundredfold up to 1.
JITTER_STEPS = (0.0, 1e-12, 1e-10, 1e-8, 1e-6, 1e-4, 1e-2, 1.0)

#: :func:`top_eigh` computes only the n largest eigenvalues (LAPACK's subset solver) when
#: ``n * SUBSET_VALUES_FRACTION < size``, and every eigenvalue otherwise: both reduce the
#: matrix to tridiagonal form first, then the subset solver pays per value asked for while
#: the all-values path (``dsterf``) is one quick sweep, so asking for a large share of the
#: eigenvalues costs less by the sweep.
SUBSET_VALUES_FRACTION = 20


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


def cholesky_with_jitter(A, *, what="K[i,i]", fix="lower the number of basis vectors"):
    """Lower Cholesky factor of a symmetric PSD matrix, with the smallest jitter that works.

    The greedy methods keep the chosen block well conditioned relative to their
    tolerance, so the jitter only guards against rounding: ``A + j * max(diag A) * I``
    for the first ``j`` of :data:`JITTER_STEPS` that factors. Sparse KPCA, sparse
    KCCA and the KCCA view all factor their basis blocks here.

    Parameters
    ----------
    A : ndarray of shape (k, k)
    what : str
        Name of the matrix in the error message.
    fix : str
        What a person can change, in the error message.

    Raises
    ------
    ValueError
        When no jitter of :data:`JITTER_STEPS` makes ``A`` positive definite.
    """
    A = np.asarray(A, dtype=float)
    scale = max(float(np.max(np.diag(A))), np.finfo(float).tiny) if A.size else 1.0
    eye = np.eye(A.shape[0])
    for jitter in JITTER_STEPS:
        try:
            return np.linalg.cholesky(A + jitter * scale * eye)
        except np.linalg.LinAlgError:
            continue
    raise ValueError(f"{what} is not positive definite even with jitter; {fix}.")


def pearson(u, v) -> float:
    """Pearson's correlation of two vectors (0 when either is constant)."""
    u = np.asarray(u, dtype=float) - np.mean(u)
    v = np.asarray(v, dtype=float) - np.mean(v)
    denom = float(np.sqrt((u @ u) * (v @ v)))
    return float(u @ v / denom) if denom > 0 else 0.0


def top_eigh(A, n, *, eigvals_only):
    """The n largest eigenvalues (and unit eigenvectors) of a symmetric matrix, descending.

    Eigenvalues only: the subset solver for a few of many, every eigenvalue and the top n
    kept otherwise (:data:`SUBSET_VALUES_FRACTION`). Eigenpairs: the subset solver.
    """
    size = A.shape[0]
    n_eff = min(n, size)
    if eigvals_only and n_eff * SUBSET_VALUES_FRACTION >= size:
        return eigh(A, eigvals_only=True, check_finite=False)[::-1][:n_eff]
    out = eigh(A, eigvals_only=eigvals_only, subset_by_index=[size - n_eff, size - 1],
               check_finite=False)
    if eigvals_only:
        return out[::-1]
    w, V = out
    return w[::-1], V[:, ::-1]


#: Lanczos (``eigsh``) gets at most ``max(m, LANCZOS_BUDGET_PER_NCV * ncv)`` products with
#: the matrix (ncv: ARPACK's basis size, ``max(2k + 1, 20)``), about twice the cost of a
#: dense ``eigh`` of it. The bundled data sets need at most 220 products at m >= 442 for the
#: top 1 to 49 eigenvalues; clustered ones (an rbf width far below the data's scale makes K
#: nearly the identity) need up to 10^5 under ARPACK's own limit, many times a dense ``eigh``.
LANCZOS_BUDGET_PER_NCV = 4


def sign_flip(V):
    """Make each column's largest-magnitude entry positive (a deterministic sign)."""
    if V.size == 0:
        return V
    rows = np.argmax(np.abs(V), axis=0)
    signs = np.sign(V[rows, np.arange(V.shape[1])])
    signs[signs == 0] = 1.0
    return V * signs


def pad_zeros(values, n):
    """Pad with zeros up to length n (a rank-r matrix has m - r zero eigenvalues)."""
    if values.shape[0] >= n:
        return values[:n]
    return np.concatenate([values, np.zeros(n - values.shape[0])])


class LanczosBudgetExceeded(ArpackNoConvergence):
    """Lanczos (``eigsh``) did not converge within its budget of products with the matrix."""

    def __init__(self, products: int, k: int, m: int):
        self.message = (
            f"Lanczos did not converge within {products} products with the {m} x {m} matrix "
            f"(about twice the work of a dense eigh); the {k} eigenvalues wanted lie too "
            "close to the rest of the spectrum")
        super().__init__(self.message, np.zeros(0), np.zeros((m, 0)))
        self.products = products

    def __str__(self):
        return self.message


def budgeted_eigsh(A, k, which, v0, return_eigenvectors, ncv=None):
    """``eigsh`` stopped (:class:`LanczosBudgetExceeded`) after the budget of products with
    A described at :data:`LANCZOS_BUDGET_PER_NCV` (``ncv``: ARPACK's basis size, its default
    when None)."""
    m = A.shape[0]
    budget = max(m, LANCZOS_BUDGET_PER_NCV * (ncv or min(m, max(2 * k + 1, 20))))
    used = 0

    def product(x):
        nonlocal used
        used += 1
        if used > budget:
            raise LanczosBudgetExceeded(budget, k, m)
        return A @ x

    op = LinearOperator(A.shape, matvec=product, matmat=lambda X: A @ X, dtype=A.dtype)
    return eigsh(op, k=k, which=which, v0=v0, ncv=ncv,
                 return_eigenvectors=return_eigenvectors)
