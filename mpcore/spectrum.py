r"""Exact eigenvalues of a kernel matrix, the reference the approximations are measured by.

The leading eigenvalues of an m x m kernel matrix K, exactly, with a dense
(``scipy.linalg.eigh``) or an iterative Lanczos (``scipy.sparse.linalg.eigsh``, within a
budget of products) solver, or every eigenvalue and the top eigenvectors from one
reduction to tridiagonal form; and the two measures of an approximation:
:func:`relative_error` (eigenvalues) and :func:`subspace_distance` (eigenvectors).

The approximations live beside it, one module each: the Nystroem approximation from a
subset of columns (:mod:`mpcore.nystrom`, Hussain & Shawe-Taylor Eq. 5), Marukatat's
sketched empirical kernel map (:mod:`mpcore.ekm`) and the incomplete Cholesky
decomposition (:mod:`mpcore.cholesky`, Shawe-Taylor & Cristianini Code Fragment 5.4).
Their public names are importable from here too (``mpcore.spectrum.nystrom_eigenvalues``).

References
----------
.. [1] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008.
.. [2] J. Shawe-Taylor, N. Cristianini. Kernel Methods for Pattern Analysis.
   Cambridge University Press, 2004.
.. [3] S. Marukatat. Kernel matrix decomposition via empirical kernel map.
   Pattern Recognition Letters 77, 2016.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.linalg import eigh_tridiagonal, lapack, subspace_angles
from scipy.sparse.linalg import ArpackError, ArpackNoConvergence

from ._linalg import (
    LANCZOS_BUDGET_PER_NCV,
    LanczosBudgetExceeded,
    budgeted_eigsh,
    sign_flip,
    top_eigh,
)
from ._arguments import _as_float_array, check_array_data, check_bool, check_positive_int
from ._validation import check_square_kernel
from .cholesky import incomplete_cholesky
from .ekm import (
    SKETCHES,
    EKMPerturbation,
    ekm_eigenpairs,
    ekm_eigenvalues,
    ekm_perturbation_bound,
    ekm_perturbation_bounds,
    ekm_sketch,
)
from .nystrom import (
    SUBSET_RULES,
    nystrom_eigenpairs,
    nystrom_eigenvalues,
    nystrom_indices,
    nystrom_nested_eigenvalues,
    random_indices,
    random_order,
)

__all__ = [
    "exact_eigenvalues",
    "exact_eigenpairs",
    "tridiagonal_form",
    "Tridiagonal",
    "LanczosBudgetExceeded",
    "LANCZOS_BUDGET_PER_NCV",
    "subspace_distance",
    "relative_error",
    # the approximations, from their own modules
    "nystrom_eigenvalues",
    "nystrom_nested_eigenvalues",
    "nystrom_eigenpairs",
    "nystrom_indices",
    "random_indices",
    "random_order",
    "SUBSET_RULES",
    "ekm_eigenvalues",
    "ekm_eigenpairs",
    "ekm_sketch",
    "ekm_perturbation_bound",
    "ekm_perturbation_bounds",
    "EKMPerturbation",
    "SKETCHES",
    "incomplete_cholesky",
]

#: Exact solvers accepted by :func:`exact_eigenvalues`.
EXACT_METHODS = ("auto", "eigh", "eigsh")

#: ``method="auto"`` uses Lanczos (eigsh) when m is at least this large and
#: n is at most m / AUTO_EIGSH_FRACTION; dense eigh otherwise.
AUTO_EIGSH_MIN_M = 500
AUTO_EIGSH_FRACTION = 20


def relative_error(approx, exact):
    r"""Elementwise relative error :math:`|\hat\lambda_i - \lambda_i| / |\lambda_i|`.

    Where :math:`\lambda_i = 0` the absolute error is returned instead (no inf).
    """
    approx = _as_float_array(approx, "approx")
    exact = _as_float_array(exact, "exact")
    for a, name in ((approx, "approx"), (exact, "exact")):
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{name} contains NaN or inf.")
    if approx.shape != exact.shape:
        raise ValueError(f"approx {approx.shape} and exact {exact.shape} must have the same shape.")
    err = np.abs(approx - exact)
    scale = np.abs(exact)
    return np.where(scale > 0, err / np.where(scale > 0, scale, 1.0), err)


def _resolve_method(method, m, n):
    if not isinstance(method, str) or method not in EXACT_METHODS:
        raise ValueError(f"method must be one of {', '.join(map(repr, EXACT_METHODS))}, got {method!r}.")
    if method == "auto":
        use_lanczos = m >= AUTO_EIGSH_MIN_M and n * AUTO_EIGSH_FRACTION <= m
        return "eigsh" if use_lanczos else "eigh"
    if method == "eigsh" and n >= m:
        raise ValueError(
            f"eigsh computes fewer than m eigenvalues: n={n} must be < m={m}; use method='eigh'."
        )
    return method


def _exact(K, n, method, want_vectors, strict=False):
    strict = check_bool(strict, "strict")
    K = check_square_kernel(K)
    m = K.shape[0]
    n = check_positive_int(n, "n", maximum=m)
    method = _resolve_method(method, m, n)
    if not np.any(K):
        # the zero matrix: every eigenvalue is 0 (ARPACK cannot start on it); the
        # eigenvectors are the first n unit vectors
        return np.zeros(n), (np.eye(m, n) if want_vectors else None)
    if method == "eigh":
        if want_vectors:
            w, V = top_eigh(K, n, eigvals_only=False)
            return w, sign_flip(V)
        return top_eigh(K, n, eigvals_only=True), None
    # Lanczos with a seeded start vector, so repeated calls agree bit for bit.
    v0 = np.random.default_rng(0).uniform(-1.0, 1.0, m)
    try:
        w, V = budgeted_eigsh(np.asarray(K), n, "LA", v0, True)
    except (ArpackError, ArpackNoConvergence):
        if strict:
            raise
        # fall back to the dense solver rather than fail
        w, V = top_eigh(K, n, eigvals_only=False)
        return w, (sign_flip(V) if want_vectors else None)
    order = np.argsort(w)[::-1]
    w, V = w[order], V[:, order]
    return w, (sign_flip(V) if want_vectors else None)


def exact_eigenvalues(K, n, *, method="auto", strict=False):
    r"""The n largest eigenvalues of K, descending.

    Parameters
    ----------
    K : array of shape (m, m)
        Symmetric kernel matrix.
    n : int
        Number of eigenvalues, 1 <= n <= m.
    method : {"auto", "eigh", "eigsh"}
        "eigh": dense LAPACK solver (``scipy.linalg.eigh``: its subset solver for the top
        n, or every eigenvalue when n is a large share of m), O(m^3).
        "eigsh": implicitly restarted Lanczos (ARPACK, ``which="LA"``),
        O(m^2) per iteration, n < m. "auto": eigsh when m >= 500 and
        n <= m/20, eigh otherwise. Lanczos stops after about twice the work of a dense
        eigh (:data:`LANCZOS_BUDGET_PER_NCV`: clustered eigenvalues converge slowly) and
        the dense solver answers instead.
    strict : bool
        When Lanczos runs ("eigsh", or "auto" choosing it), raise its error instead of
        falling back to the dense solver, as a comparison of the solvers wants:
        :class:`LanczosBudgetExceeded` (an ARPACK ``ArpackNoConvergence``) when the budget
        runs out.

    Returns
    -------
    eigenvalues : ndarray of shape (n,)
        Descending. Not clipped: an indefinite K keeps its negative eigenvalues.
    """
    return _exact(K, n, method, want_vectors=False, strict=strict)[0]


def exact_eigenpairs(K, n, *, method="auto", strict=False):
    """Like :func:`exact_eigenvalues`, also returning unit eigenvectors (m, n).

    Each eigenvector's largest-magnitude entry is positive.
    """
    return _exact(K, n, method, want_vectors=True, strict=strict)


@dataclass(frozen=True)
class Tridiagonal:
    r"""A symmetric matrix reduced once, :math:`K = QTQ'` with T tridiagonal: every
    eigenvalue and the top eigenvectors from the one reduction (:func:`tridiagonal_form`).

    The dense solvers start with this reduction (LAPACK's ``dsytrd``, about
    :math:`\tfrac43 m^3` flops, most of their time): ``eigh(K, eigvals_only=True)`` then
    sweeps T for every eigenvalue (``dsterf``) and ``eigh(K, subset_by_index=...)`` finds
    the top eigenvectors of T (``dstemr``) and maps them back by Q (``dormtr``). Asking for
    both from here reduces K once instead of twice.

    Attributes
    ----------
    d, e : ndarray
        T's diagonal (m,) and off-diagonal (m - 1,).
    reflectors, tau : ndarray
        Q as LAPACK stores it (``dsytrd`` with the lower triangle): the Householder vectors
        below the subdiagonal of ``reflectors`` (m, m), and their scalars (m - 1,).
    """

    d: np.ndarray
    e: np.ndarray
    reflectors: np.ndarray
    tau: np.ndarray

    @property
    def m(self) -> int:
        return int(self.d.shape[0])

    def eigenvalues(self):
        """Every eigenvalue of K, descending (as ``exact_eigenvalues(K, m, method="eigh")``)."""
        w = eigh_tridiagonal(self.d, self.e, eigvals_only=True, lapack_driver="sterf",
                             check_finite=False)
        return w[::-1].copy()

    def eigenpairs(self, n):
        """The n largest eigenvalues, descending, and unit eigenvectors (m, n) of K, each
        eigenvector's largest-magnitude entry positive (as ``exact_eigenpairs(K, n,
        method="eigh")``)."""
        m = self.m
        n = check_positive_int(n, "n", maximum=m)
        if not (np.any(self.d) or np.any(self.e)):  # the zero matrix, as _exact answers it
            return np.zeros(n), np.eye(m, n)
        if m == 1:  # no reflector to apply (LAPACK's dormqr refuses an empty one)
            return self.d.copy(), np.ones((1, 1))
        try:
            w, Z = eigh_tridiagonal(self.d, self.e, select="i", select_range=(m - n, m - 1),
                                    lapack_driver="stemr", check_finite=False)
        except np.linalg.LinAlgError:  # MRRR can fail on clustered eigenvalues: bisection
            w, Z = eigh_tridiagonal(self.d, self.e, select="i", select_range=(m - n, m - 1),
                                    lapack_driver="stebz", check_finite=False)
        # V = QZ: Q = H(1)...H(m-1) acts on rows 2..m (LAPACK's dormtr for the lower triangle)
        rows = np.array(Z[1:], order="F")
        a = self.reflectors[1:, :-1]
        _, work, info = lapack.dormqr("L", "N", a, self.tau, rows, lwork=-1)
        rows, _, info = lapack.dormqr("L", "N", a, self.tau, rows, lwork=int(work[0]),
                                      overwrite_c=1)
        if info != 0:  # pragma: no cover - LAPACK's argument check; the shapes are fixed here
            raise ValueError(f"LAPACK dormqr failed (info={info}).")
        V = np.vstack([Z[:1], rows])
        return w[::-1].copy(), sign_flip(V[:, ::-1])


def tridiagonal_form(K):
    r"""Reduce a symmetric K to tridiagonal form once (LAPACK ``dsytrd``), to take every
    eigenvalue and the top eigenvectors from the one reduction.

    ``exact_eigenvalues(K, m, method="eigh")`` and ``exact_eigenpairs(K, n, method="eigh")``
    each reduce K; :class:`Tridiagonal`'s two methods give the same answers (to rounding)
    from one, for little more than the cost of the first (the reduction is most of a dense
    solver's work; ``benchmarks/bench_server.py`` measures it).

    Parameters
    ----------
    K : array of shape (m, m)
        Symmetric matrix (its lower triangle is read, as ``eigh`` reads it).

    Returns
    -------
    Tridiagonal

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(30, 2))
    >>> K = np.exp(-((X[:, None] - X[None]) ** 2).sum(-1))
    >>> T = tridiagonal_form(K)
    >>> bool(np.allclose(T.eigenvalues(), exact_eigenvalues(K, 30, method="eigh")))
    True
    >>> w, U = T.eigenpairs(3)
    >>> bool(np.allclose(K @ U, U * w))
    True
    """
    K = np.asarray(check_square_kernel(K), dtype=float)
    m = K.shape[0]
    work, info = lapack.dsytrd_lwork(m, lower=1)
    c, d, e, tau, info = lapack.dsytrd(K, lower=1, lwork=int(work), overwrite_a=0)
    if info != 0:  # pragma: no cover - LAPACK's argument check; the shapes are fixed here
        raise ValueError(f"LAPACK dsytrd failed (info={info}).")
    for a in (c, d, e, tau):
        a.setflags(write=False)
    return Tridiagonal(d=d, e=e, reflectors=c, tau=tau)


def subspace_distance(U, V):
    r"""Largest principal angle (radians) between the column spaces of U and V.

    ``scipy.linalg.subspace_angles``; 0 for the same subspace, pi/2 when some
    direction of one is orthogonal to the other. Sign and order of the columns
    do not matter, nor their scale.

    Parameters
    ----------
    U : array of shape (m, a)
    V : array of shape (m, b)

    Returns
    -------
    angle : float in [0, pi/2]
    """
    U, V = _as_float_array(U, "U"), _as_float_array(V, "V")
    U = check_array_data(U, "U", ndim=1 if U.ndim == 1 else 2, min_rows=0, min_cols=0)
    V = check_array_data(V, "V", ndim=1 if V.ndim == 1 else 2, min_rows=0, min_cols=0)
    if U.ndim == 1:
        U = U[:, None]
    if V.ndim == 1:
        V = V[:, None]
    if U.ndim != 2 or V.ndim != 2:
        raise ValueError(f"U and V must be 2-D (m, k), got shapes {U.shape} and {V.shape}.")
    if U.shape[0] != V.shape[0]:
        raise ValueError(
            f"U and V must have the same number of rows (both are m-vectors), got {U.shape[0]} "
            f"and {V.shape[0]}."
        )
    if U.size == 0 or V.size == 0:
        raise ValueError("U and V must have at least one column.")
    if not (np.all(np.isfinite(U)) and np.all(np.isfinite(V))):
        raise ValueError("U and V must be finite (no NaN or inf).")
    if not (np.any(U) and np.any(V)):
        raise ValueError("U and V must each have a non-zero column (a subspace of dimension >= 1).")
    angles = subspace_angles(U, V)
    return float(np.clip(np.max(angles), 0.0, np.pi / 2))
