r"""Approximate versus exact eigenvalues of a kernel matrix.

Three ways to get the leading eigenvalues of an m x m kernel matrix K:

* exactly, with a dense (``scipy.linalg.eigh``) or an iterative Lanczos
  (``scipy.sparse.linalg.eigsh``) solver;
* from a subset of k columns, through the Nystroem approximation
  :math:`\tilde K = K[:,i]K[i,i]^{-1}K[i,:]` (Hussain & Shawe-Taylor [1]_, Eq. 5),
  with the subset chosen by sparse kernel PCA, uniformly at random, or by the
  pivots of an incomplete Cholesky decomposition ([2]_, Code Fragment 5.4);
* from a sketch of the empirical kernel map (Marukatat [3]_, Algorithm 1):
  the columns of K are the EKM vectors, their covariance :math:`KK' = U\Lambda^2U'`
  shares K's eigenvectors and squares its eigenvalues, and a dot-product
  preserving sketch to q dimensions makes its eigen-decomposition q x q.

Every function takes a precomputed kernel matrix (see
:func:`mpcore.kernels.kernel_matrix`); all randomness is seeded through
``random_state``.

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
import scipy.sparse
from scipy.linalg import eigh, eigh_tridiagonal, lapack, solve_triangular, subspace_angles
from scipy.sparse.linalg import ArpackError, ArpackNoConvergence, LinearOperator, eigsh
from sklearn.random_projection import GaussianRandomProjection

from ._validation import (
    ValidatedKernel,
    DIAG_TOL,
    _as_float_array,
    check_array_data,
    check_bool,
    check_positive_float,
    check_positive_int,
    check_psd_matrix,
    check_random_state_arg,
    check_seed,
    check_square_kernel,
)
from ._linalg import top_eigh
from .skpca import _greedy_checked

__all__ = [
    "exact_eigenvalues",
    "exact_eigenpairs",
    "tridiagonal_form",
    "Tridiagonal",
    "nystrom_eigenvalues",
    "nystrom_nested_eigenvalues",
    "nystrom_eigenpairs",
    "nystrom_indices",
    "random_indices",
    "random_order",
    "ekm_eigenvalues",
    "ekm_eigenpairs",
    "ekm_sketch",
    "ekm_perturbation_bound",
    "EKMPerturbation",
    "LanczosBudgetExceeded",
    "incomplete_cholesky",
    "subspace_distance",
    "relative_error",
    "SKETCHES",
    "SUBSET_RULES",
]

#: Sketches accepted by the EKM functions (None: no sketch).
SKETCHES = ("gaussian", "countsketch")
#: Subset rules accepted by :func:`nystrom_indices`.
SUBSET_RULES = ("skpca", "random", "cholesky")
#: Exact solvers accepted by :func:`exact_eigenvalues`.
EXACT_METHODS = ("auto", "eigh", "eigsh")

#: ``method="auto"`` uses Lanczos (eigsh) when m is at least this large and
#: n is at most m / AUTO_EIGSH_FRACTION; dense eigh otherwise.
AUTO_EIGSH_MIN_M = 500
AUTO_EIGSH_FRACTION = 20
#: :func:`ekm_perturbation_bound` finds ||E||_2 by Lanczos (one eigenvalue) from this many
#: rows on: faster than a dense ``eigh`` there (measured with one BLAS thread: 0.75 against
#: 1.4 ms at m = 200, 2.9 against 9.7 ms at m = 499) and equal to it to rounding.
SPECTRAL_NORM_EIGSH_MIN_M = 150
#: Lanczos (``eigsh``) gets at most ``max(m, LANCZOS_BUDGET_PER_NCV * ncv)`` products with
#: the matrix (ncv: ARPACK's basis size, ``max(2k + 1, 20)``), about twice the cost of a
#: dense ``eigh`` of it. The bundled data sets need at most 220 products at m >= 442 for the
#: top 1 to 49 eigenvalues; clustered ones (an rbf width far below the data's scale makes K
#: nearly the identity) needed 10^5 under ARPACK's own limit: 22 s for the eigenvalue page's
#: two calls at m = 486.
LANCZOS_BUDGET_PER_NCV = 4

#: Largest population size m accepted by :func:`random_indices` (a permutation of m
#: indices is drawn, 8 bytes each).
MAX_POPULATION = 10_000_000

#: How the PSD refusals of this module name the methods.
WHERE = "the Nystroem approximation"


def _check_psd(K, where=WHERE):
    """Validate a square kernel matrix and refuse it unless it is PSD (cached check)."""
    K = check_square_kernel(K)
    return check_psd_matrix(K, "K", where)


# ----------------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------------


def _check_n(n, m, name="n"):
    return check_positive_int(n, name, maximum=m)


def _sign_flip(V):
    """Make each column's largest-magnitude entry positive (a deterministic sign)."""
    if V.size == 0:
        return V
    rows = np.argmax(np.abs(V), axis=0)
    signs = np.sign(V[rows, np.arange(V.shape[1])])
    signs[signs == 0] = 1.0
    return V * signs


def _pad(values, n):
    """Pad with zeros up to length n (a rank-r matrix has m - r zero eigenvalues)."""
    if values.shape[0] >= n:
        return values[:n]
    return np.concatenate([values, np.zeros(n - values.shape[0])])


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


# ----------------------------------------------------------------------------
# exact
# ----------------------------------------------------------------------------


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


def _budgeted_eigsh(A, k, which, v0, return_eigenvectors):
    """``eigsh`` stopped (:class:`LanczosBudgetExceeded`) after the budget of products with
    A described at :data:`LANCZOS_BUDGET_PER_NCV`."""
    m = A.shape[0]
    budget = max(m, LANCZOS_BUDGET_PER_NCV * min(m, max(2 * k + 1, 20)))
    used = 0

    def product(x):
        nonlocal used
        used += 1
        if used > budget:
            raise LanczosBudgetExceeded(budget, k, m)
        return A @ x

    op = LinearOperator(A.shape, matvec=product, matmat=lambda X: A @ X, dtype=A.dtype)
    return eigsh(op, k=k, which=which, v0=v0, return_eigenvectors=return_eigenvectors)


def _exact(K, n, method, want_vectors, strict=False):
    strict = check_bool(strict, "strict")
    K = check_square_kernel(K)
    m = K.shape[0]
    n = _check_n(n, m)
    method = _resolve_method(method, m, n)
    if not np.any(K):
        # the zero matrix: every eigenvalue is 0 (ARPACK cannot start on it); the
        # eigenvectors are the first n unit vectors
        return np.zeros(n), (np.eye(m, n) if want_vectors else None)
    if method == "eigh":
        if want_vectors:
            w, V = top_eigh(K, n, eigvals_only=False)
            return w, _sign_flip(V)
        return top_eigh(K, n, eigvals_only=True), None
    # Lanczos with a seeded start vector, so repeated calls agree bit for bit.
    v0 = np.random.default_rng(0).uniform(-1.0, 1.0, m)
    try:
        w, V = _budgeted_eigsh(np.asarray(K), n, "LA", v0, True)
    except (ArpackError, ArpackNoConvergence):
        if strict:
            raise
        # fall back to the dense solver rather than fail
        w, V = top_eigh(K, n, eigvals_only=False)
        return w, (_sign_flip(V) if want_vectors else None)
    order = np.argsort(w)[::-1]
    w, V = w[order], V[:, order]
    return w, (_sign_flip(V) if want_vectors else None)


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
        n = _check_n(n, m)
        if not (np.any(self.d) or np.any(self.e)):  # the zero matrix, as _exact answers it
            return np.zeros(n), np.eye(m, n)
        if m == 1:  # no reflector to apply (LAPACK's dormqr refuses an empty one)
            return self.d.copy(), np.ones((1, 1))
        w, Z = eigh_tridiagonal(self.d, self.e, select="i", select_range=(m - n, m - 1),
                                lapack_driver="stemr", check_finite=False)
        # V = QZ: Q = H(1)...H(m-1) acts on rows 2..m (LAPACK's dormtr for the lower triangle)
        rows = np.array(Z[1:], order="F")
        a = self.reflectors[1:, :-1]
        _, work, info = lapack.dormqr("L", "N", a, self.tau, rows, lwork=-1)
        rows, _, info = lapack.dormqr("L", "N", a, self.tau, rows, lwork=int(work[0]),
                                      overwrite_c=1)
        if info != 0:  # pragma: no cover - LAPACK's argument check; the shapes are fixed here
            raise ValueError(f"LAPACK dormqr failed (info={info}).")
        V = np.vstack([Z[:1], rows])
        return w[::-1].copy(), _sign_flip(V[:, ::-1])


def tridiagonal_form(K):
    r"""Reduce a symmetric K to tridiagonal form once (LAPACK ``dsytrd``), to take every
    eigenvalue and the top eigenvectors from the one reduction.

    ``exact_eigenvalues(K, m, method="eigh")`` and ``exact_eigenpairs(K, n, method="eigh")``
    each reduce K; :class:`Tridiagonal`'s two methods give the same answers (to rounding)
    from one, for little more than the cost of the first: with one BLAS thread, every
    eigenvalue and the top 50 eigenvectors took 13 against 25 ms at m = 506 and 0.37 against
    0.59 s at m = 1797 (``benchmarks/bench_server.py``).

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


# ----------------------------------------------------------------------------
# incomplete Cholesky (Code Fragment 5.4)
# ----------------------------------------------------------------------------


def incomplete_cholesky(K, *, rank=None, eta=DIAG_TOL):
    r"""Incomplete Cholesky decomposition, or dual partial Gram-Schmidt.

    Shawe-Taylor & Cristianini (2004), Code Fragment 5.4: at step j pivot on the
    largest residual diagonal :math:`a = \max_i d_i`, set :math:`\nu_j = \sqrt a`
    and

    .. math:: R_{j,i} = \bigl(K_{I_j,i} - R_{:,i}' R_{:,I_j}\bigr) / \nu_j,
              \qquad d_i \leftarrow d_i - R_{j,i}^2,

    stopping after ``rank`` steps or once :math:`a \le \eta \max_i K_{ii}`.
    The columns of R are the coordinates of the training points in the
    orthonormal basis built by Gram-Schmidt on the pivots, so
    :math:`R'R = K[:,I]K[I,I]^{-1}K[I,:]`, the Nystroem approximation on the pivots.

    Parameters
    ----------
    K : array of shape (m, m)
        Symmetric kernel matrix (diagonal >= 0).
    rank : int, optional
        Maximum number of steps T (default m).
    eta : float > 0
        Residual cutoff, relative to ``max(diag K)``. The book's eta is
        absolute; scaling it makes the pivots invariant to rescaling K, and the
        two agree for unit-diagonal kernels (rbf, laplacian, cosine).

    Returns
    -------
    R : ndarray of shape (T, m)
        New features; :math:`R'R \approx K`.
    pivots : ndarray of shape (T,)
        The indices I in the order chosen (ties go to the lowest index).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(20, 3))
    >>> R, piv = incomplete_cholesky(X @ X.T)
    >>> R.shape, np.allclose(R.T @ R, X @ X.T)
    ((3, 20), True)
    """
    K = check_square_kernel(K)
    m = K.shape[0]
    rank = m if rank is None else check_positive_int(rank, "rank", maximum=m)
    eta = check_positive_float(eta, "eta", maximum=1.0)
    check_psd_matrix(K, "K", "the incomplete Cholesky decomposition")
    return _incomplete_cholesky(K, rank, eta)


def _incomplete_cholesky(K, rank, eta):
    """Code Fragment 5.4 on a validated K (see :func:`incomplete_cholesky`)."""
    m = K.shape[0]
    d = np.diag(K).copy()
    cutoff = eta * max(float(np.max(d)), 0.0)
    R = np.zeros((rank, m))
    pivots = []
    for j in range(rank):
        p = int(np.argmax(d))
        a = d[p]
        if not a > cutoff or a <= 0:
            break
        nu = np.sqrt(a)
        # Code Fragment 5.4: R(j,i) = (K(I(j),i) - R(:,i)'R(:,I(j))) / nu(j)
        R[j] = (K[p] - R[:j, p] @ R[:j]) / nu
        R[j, p] = nu  # exact pivot entry: the pivot is fully spanned
        d -= R[j] ** 2
        d[p] = 0.0
        pivots.append(p)
    T = len(pivots)
    return R[:T].copy(), np.asarray(pivots, dtype=int)


# ----------------------------------------------------------------------------
# Nystroem
# ----------------------------------------------------------------------------


def random_order(m, k, random_state=None):
    """The first k entries of a seeded uniform random permutation of range(m).

    :func:`random_indices` with the same seed is the first j of them, sorted, for every
    j <= k: the random rule's subsets of one seed are nested, so the Nystroem eigenvalues of
    all of them come from one pass (:func:`nystrom_nested_eigenvalues`) over this order.

    Examples
    --------
    >>> order = random_order(10, 6, random_state=0)
    >>> [int(i) for i in np.sort(order[:4])] == [int(i) for i in random_indices(10, 4, 0)]
    True
    """
    m = check_positive_int(m, "m", maximum=MAX_POPULATION)
    k = check_positive_int(k, "k", maximum=m)
    rng = check_random_state_arg(random_state)
    # what RandomState.choice(m, k, replace=False) draws: its first k (NumPy's legacy
    # stream, which NEP 19 keeps fixed), so random_indices' subsets stay those of earlier
    # releases
    return rng.permutation(m)[:k]


def random_indices(m, k, random_state=None):
    """k distinct indices drawn uniformly from range(m), sorted (seeded): the first k of
    :func:`random_order`."""
    return np.sort(random_order(m, k, random_state))


def nystrom_indices(K, k, *, rule="skpca", random_state=None):
    r"""k column indices for the Nystroem approximation, by one of three rules.

    Parameters
    ----------
    K : array of shape (m, m)
    k : int
        Subset size (fewer may be returned by "skpca" or "cholesky" once K is
        fully spanned, i.e. at its numerical rank).
    rule : {"skpca", "random", "cholesky"}
        "skpca": the greedy sparse-KPCA choice (Hussain & Shawe-Taylor,
        Algorithm 1; :func:`mpcore.skpca.greedy_steps`), maximising
        :math:`(\hat K^2)_{ii}/\hat K_{ii}`; "random": uniform without
        replacement; "cholesky": incomplete-Cholesky pivots (largest residual
        diagonal, Code Fragment 5.4).
    random_state : int, RandomState or None
        Used by "random" only.

    Returns
    -------
    indices : ndarray of int
    """
    K = check_square_kernel(K)
    m = K.shape[0]
    k = check_positive_int(k, "k", maximum=m)
    if not isinstance(rule, str) or rule not in SUBSET_RULES:
        raise ValueError(f"rule must be one of {', '.join(map(repr, SUBSET_RULES))}, got {rule!r}.")
    check_seed(random_state)
    check_psd_matrix(K, "K", WHERE)
    if rule == "random":
        return random_indices(m, k, random_state)
    if rule == "cholesky":
        return _incomplete_cholesky(K, k, DIAG_TOL)[1]
    return np.asarray([s.index for s in _greedy_checked(K, k)], dtype=int)


def _nystrom_features(K, indices):
    r"""Features F (m, r) with :math:`FF' = K[:,i]K[i,i]^{+}K[i,:]`.

    Dependent indices (duplicates, or points already in the span of others) are
    dropped by a pivoted incomplete Cholesky of K[i,i] at the relative tolerance
    ``DIAG_TOL``, which leaves the span, hence :math:`\tilde K`, unchanged.
    K must already be validated.
    """
    m = K.shape[0]
    idx = _check_indices(indices, m)
    W = K[np.ix_(idx, idx)]
    if not np.max(np.diag(W)) > 0:
        raise ValueError("K[i,i] is zero: the chosen points have zero feature vectors.")
    # R_W' R_W = W; on its pivots P, R_W[:, P] is upper triangular with
    # R_W[:, P]' R_W[:, P] = W[P, P], i.e. the Cholesky factor L = R_W[:, P]'.
    R_W, P = _incomplete_cholesky(W, W.shape[0], DIAG_TOL)
    L = R_W[:, P].T
    # F = K[:, i_P] L^{-T}, so F F' = K[:, i_P] W[P,P]^{-1} K[i_P, :] (Eq. 5)
    F = solve_triangular(L, K[:, idx[P]].T, lower=True, check_finite=False).T
    return F, idx[P]


def _int_vector(value, name, what, lo, hi, where=""):
    """A non-empty 1-D integer array with every entry in [lo, hi], or a TypeError/ValueError
    naming ``name`` (``what`` says what its entries are)."""
    if value is None or isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be a 1-D array of {what}, got {value!r}.")
    try:
        v = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a 1-D array of {what} ({exc}).") from None
    if v.ndim != 1 or v.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array of {what}.")
    if v.dtype == bool or not np.issubdtype(v.dtype, np.integer):
        raise TypeError(f"{name} must be integers, got dtype {v.dtype}.")
    if v.min() < lo or v.max() > hi:
        raise ValueError(f"{name} must lie in [{lo}, {hi}]{where}.")
    return v.astype(int)


def _check_indices(indices, m):
    return _int_vector(indices, "indices", "integer training indices", 0, m - 1,
                       f" for a {m} x {m} kernel matrix")


def _check_sizes(sizes, k):
    return _int_vector(sizes, "sizes", "prefix lengths", 1, k, ", the number of indices given")


def nystrom_eigenvalues(K, indices, n):
    r"""The n largest eigenvalues of the Nystroem approximation, in O(m k^2).

    .. math:: \tilde K = K[:,i]K[i,i]^{-1}K[i,:] = FF', \quad F = K[:,i]L^{-T},
              \quad LL' = K[i,i],

    so the non-zero eigenvalues of :math:`\tilde K` are those of the k x k
    matrix :math:`F'F = L^{-1}K[:,i]'K[:,i]L^{-T}` (Hussain & Shawe-Taylor,
    Eq. 5). Forming :math:`F'F` costs O(m k^2), its eigenvalues O(k^3).

    Parameters
    ----------
    K : array of shape (m, m)
        PSD kernel matrix.
    indices : array of int, shape (k,)
        Chosen columns; order does not matter, duplicates and dependent
        points are dropped (the span is unchanged).
    n : int
        Number of eigenvalues, 1 <= n <= m.

    Returns
    -------
    eigenvalues : ndarray of shape (n,)
        Descending and >= 0; beyond the rank r of :math:`\tilde K` (r <= k)
        they are exactly 0.

    See Also
    --------
    nystrom_indices : the three subset rules.
    """
    K = _check_psd(K)
    n = _check_n(n, K.shape[0])
    F, _ = _nystrom_features(K, indices)
    w = top_eigh(F.T @ F, n, eigvals_only=True)
    return _pad(np.maximum(w, 0.0), n)


def nystrom_nested_eigenvalues(K, indices, sizes, n):
    r"""The n largest Nystroem eigenvalues on every prefix ``indices[:s]``, s in ``sizes``.

    A greedy rule's subsets are nested (sparse KPCA's choice, incomplete-Cholesky pivots:
    the first k of k + 1), so one Gram-Schmidt pass over the points in their given order
    (Code Fragment 5.4 with the pivots fixed) gives R with
    :math:`R_{:t}'R_{:t} = \tilde K` on the first t points, for every t at once; the
    eigenvalues on a prefix are those of the t x t matrix :math:`R_{:t}R_{:t}'`. One pass
    costs O(m k^2) instead of one factorisation of :math:`K[\mathbf i,\mathbf i]` per
    prefix, and gives what :func:`nystrom_eigenvalues` gives on each prefix.

    Parameters
    ----------
    K : array of shape (m, m)
        PSD kernel matrix.
    indices : array of int, shape (k,)
        The points in the order they were chosen. A point already spanned by the ones before
        it (a duplicate, or a residual diagonal at or below ``DIAG_TOL`` times the largest
        diagonal of the prefix) is skipped: the span, hence :math:`\tilde K`, is unchanged.
    sizes : array of int
        Prefix lengths, each in 1..k.
    n : int
        Eigenvalues per prefix, 1 <= n <= m.

    Returns
    -------
    eigenvalues : ndarray of shape (len(sizes), n)
        Row j: descending, >= 0, exactly 0 beyond the rank of the prefix's approximation.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(30, 2))
    >>> K = np.exp(-((X[:, None] - X[None]) ** 2).sum(-1))
    >>> idx = nystrom_indices(K, 8, rule="cholesky")
    >>> nested = nystrom_nested_eigenvalues(K, idx, [3, 8], 2)
    >>> bool(np.allclose(nested[1], nystrom_eigenvalues(K, idx[:8], 2)))
    True
    """
    K = _check_psd(K)
    m = K.shape[0]
    n = _check_n(n, m)
    idx = _check_indices(indices, m)
    sizes = _check_sizes(sizes, idx.size)
    top = int(sizes.max())
    Kp = K.view(np.ndarray)
    diag = np.diag(Kp)[idx[:top]]
    R = np.zeros((top, m))  # row t: the t-th kept point's new coordinates
    kept = np.zeros(top, dtype=int)  # kept[j]: rows of R from the first j + 1 points
    t, largest = 0, 0.0
    for j, p in enumerate(idx[:top]):
        largest = max(largest, float(diag[j]))
        # Code Fragment 5.4: R(t,i) = (K(p,i) - R(:,i)'R(:,p)) / nu, nu^2 the residual at p
        r = Kp[p] - R[:t, p] @ R[:t]
        a = r[p]
        if largest > 0 and a > DIAG_TOL * largest:
            R[t] = r / np.sqrt(a)
            R[t, p] = np.sqrt(a)  # exact pivot entry, as in incomplete_cholesky
            t += 1
        kept[j] = t
    out = np.zeros((sizes.size, n))
    for row, s in enumerate(sizes):
        r_s = kept[s - 1]
        if r_s == 0:
            continue  # every chosen point has a zero feature vector: K~ = 0
        Rs = R[:r_s]
        w = top_eigh(Rs @ Rs.T, n, eigvals_only=True)
        out[row] = _pad(np.maximum(w, 0.0), n)
    return out


def nystrom_eigenpairs(K, indices, n):
    r"""Nystroem eigenvalues and unit eigenvectors :math:`FV\Lambda^{-1/2}` of :math:`\tilde K`.

    n may not exceed the number of independent indices (the rank of :math:`\tilde K`).
    """
    K = _check_psd(K)
    n = _check_n(n, K.shape[0])
    F, kept = _nystrom_features(K, indices)
    if n > kept.size:
        raise ValueError(
            f"The Nystroem approximation has rank {kept.size} here, so it has only "
            f"{kept.size} eigenvectors with non-zero eigenvalue; lower n to <= {kept.size} "
            "or use more indices."
        )
    w, V = top_eigh(F.T @ F, n, eigvals_only=False)
    w = np.maximum(w, 0.0)
    U = F @ V
    norms = np.linalg.norm(U, axis=0)
    U = U / np.where(norms > 0, norms, 1.0)
    return w, _sign_flip(U)


# ----------------------------------------------------------------------------
# Marukatat: EKM covariance + sketch
# ----------------------------------------------------------------------------


def _check_sketch(sketch):
    if sketch is not None and (not isinstance(sketch, str) or sketch not in SKETCHES):
        raise ValueError(
            f"sketch must be None or one of {', '.join(map(repr, SKETCHES))}, got {sketch!r}."
        )
    return sketch


def ekm_sketch(K, q, *, sketch="gaussian", random_state=None):
    r"""The sketched empirical-kernel-map data matrix, transposed: :math:`Z' = KS'`.

    The EKM vector of training point t is the column :math:`k_t = K[:,t] \in R^m`
    (Marukatat's :math:`x_t`, with d = n = m). The sketch
    :math:`f(x) = Sx` maps :math:`R^m \to R^q`, so :math:`Z = SK` (q x m) and
    row t of the returned matrix is :math:`f(k_t)'`.

    * ``"gaussian"``: Eq. (7), :math:`S = A/\sqrt q` with standard normal A,
      drawn by scikit-learn's :class:`~sklearn.random_projection.GaussianRandomProjection`.
    * ``"countsketch"``: :math:`S_{h(j),j} = s(j)`, hash :math:`h:[m]\to[q]` and
      signs :math:`s(j)=\pm1` drawn uniformly; costs O(m^2) (one pass over K).
    * ``None``: :math:`S = I` (q ignored), returns K itself.

    Both sketches satisfy :math:`E[S'S] = I`, so :math:`E[Z'Z] = K^2`.

    Returns
    -------
    Zt : ndarray of shape (m, q) (or (m, m) with ``sketch=None``)
    """
    return _sketch(check_square_kernel(K), q, _check_sketch(sketch), random_state)


def _sketch(K, q, sketch, random_state):
    """:func:`ekm_sketch` on a validated K."""
    m = K.shape[0]
    if sketch is None:
        return K
    q = check_positive_int(q, "q", maximum=m)
    rng = check_random_state_arg(random_state)
    if sketch == "gaussian":
        proj = GaussianRandomProjection(n_components=q, random_state=rng)
        # transform(K) = K @ components_.T = K S' (K symmetric: rows are the EKM vectors)
        return np.asarray(proj.fit_transform(K), dtype=float)
    h = rng.randint(0, q, size=m)
    s = rng.choice(np.array([-1.0, 1.0]), size=m)
    S = scipy.sparse.csr_matrix((s, (h, np.arange(m))), shape=(q, m))
    return np.asarray((S @ K).T)


#: The key under which :func:`_shared_sketch` keeps a sketch on a matrix checked by
#: :func:`~mpcore.validated_kernel` (with the sketch's kind, q and integer seed).
SKETCH_MEMO = "EKM sketch K S'"


def _shared_sketch(K, q, sketch, random_state):
    """:func:`_sketch`, kept on a matrix checked by :func:`~mpcore.validated_kernel` when the
    seed is an integer (the same seed draws the same S): Algorithm 1's eigenvalues, its
    eigenvectors and Eq. 3 at the same (q, sketch, seed) then share one sketch, among the
    most recent ones (:meth:`~mpcore._validation.ValidatedKernel.memo_recent`). Read-only;
    :func:`ekm_sketch` gives a fresh array."""
    if sketch is None or not isinstance(K, ValidatedKernel):
        return _sketch(K, q, sketch, random_state)
    q = check_positive_int(q, "q", maximum=K.shape[0])
    seed = check_seed(random_state)
    if not isinstance(seed, int):  # a RandomState, a Generator or None: a new S each call
        return _sketch(K, q, sketch, seed)
    return K.memo_recent((SKETCH_MEMO, sketch, q, seed), lambda: _sketch(K, q, sketch, seed))


def _ekm_core(K, q, n, sketch, random_state, map_back):
    """Steps 2-4 of Algorithm 1 on a validated K."""
    m = K.shape[0]
    n = _check_n(n, m)
    Zt = _shared_sketch(K, q, _check_sketch(sketch), random_state)  # (m, q) = K S'
    # Algorithm 1, step 3: covariance Z Z' of the sketched EKM vectors (q x q)
    C = Zt.T @ Zt
    # step 4: its n largest eigenpairs
    if map_back is None:
        lam = top_eigh(C, n, eigvals_only=True)
        V = None
    else:
        lam, V = top_eigh(C, n, eigvals_only=False)
    lam = np.maximum(lam, 0.0)  # rounding can make a zero eigenvalue slightly negative
    return K, Zt, lam, V


def ekm_eigenvalues(K, q, n, *, sketch="gaussian", random_state=None):
    r"""Approximate eigenvalues of K by Marukatat's EKM method (Algorithm 1).

    The EKM vectors are the columns of K, so their covariance is
    :math:`KK' = U\Lambda^2U'`. Sketching each column to q dimensions
    (:math:`Z = SK`, see :func:`ekm_sketch`) and eigen-decomposing the
    q x q covariance

    .. math:: ZZ' = SKK'S', \qquad ZZ'v_i = \tilde\lambda_i v_i,

    gives :math:`\tilde\lambda_i \approx \lambda_i^2`, since the non-zero
    eigenvalues of :math:`ZZ'` are those of :math:`Z'Z = KS'SK \approx K^2`
    (Eqs. 1-2). The estimate of :math:`\lambda_i` is :math:`\sqrt{\tilde\lambda_i}`.
    Cost: O(q m^2) for the Gaussian sketch (O(m^2) count sketch),
    O(q^2 m) for the covariance, O(q^3) for its eigenvalues.

    Parameters
    ----------
    K : array of shape (m, m)
        Symmetric kernel matrix.
    q : int
        Sketch dimension, 1 <= q <= m; ignored when ``sketch=None``.
    n : int
        Number of eigenvalues, 1 <= n <= m; beyond q they are 0 (ZZ' has rank <= q).
    sketch : {"gaussian", "countsketch"} or None
        None: no sketch, :math:`Z = K`: exact up to rounding, except that
        squaring loses eigenvalues below about :math:`\sqrt{\epsilon}\lambda_1`.
    random_state : int, RandomState or None

    Returns
    -------
    eigenvalues : ndarray of shape (n,)
        Descending, >= 0. For an indefinite K these estimate the absolute
        eigenvalues (singular values), sorted by magnitude.

    See Also
    --------
    ekm_eigenpairs, ekm_perturbation_bound
    """
    K, _, lam, _ = _ekm_core(check_square_kernel(K), q, n, sketch, random_state, map_back=None)
    return _pad(np.sqrt(lam), n)


def ekm_eigenpairs(K, q, n, *, sketch="gaussian", random_state=None, map_back="covariance"):
    r"""Approximate eigenvalues and eigenvectors of K by Algorithm 1 of Marukatat.

    After step 4 (see :func:`ekm_eigenvalues`), the q-vectors :math:`v_i` are
    mapped back to m-vectors:

    * step 5: :math:`\hat v_i = Z'v_i = KS'v_i`, an exact eigenvector of
      :math:`Z'Z = KS'SK` (the sketched dot matrix), so an approximate
      eigenvector of :math:`K^2`, hence of K;
    * step 6: :math:`\hat u_i = X\hat v_i = K\hat v_i`, the approximate
      eigenvector of the covariance :math:`XX' = KK'` (X = K is the EKM data
      matrix). For the EKM both steps land in :math:`R^m`; step 6 is one more
      multiplication by K, i.e. one power-iteration step, which damps the
      components outside the leading eigenspace.

    Parameters
    ----------
    K, q, n, sketch, random_state
        As in :func:`ekm_eigenvalues`; n <= q when sketching.
    map_back : {"covariance", "dot"}
        "covariance": step 6 (default, as Algorithm 1 returns);
        "dot": stop at step 5.

    Returns
    -------
    eigenvalues : ndarray of shape (n,)
    vectors : ndarray of shape (m, n)
        Unit columns (not exactly orthogonal when sketched), largest-magnitude
        entry positive; a column is zero where its eigenvalue is zero to
        rounding (no direction to report).
    """
    if not isinstance(map_back, str) or map_back not in ("covariance", "dot"):
        raise ValueError(f"map_back must be 'covariance' or 'dot', got {map_back!r}.")
    K = check_square_kernel(K)
    sketch = _check_sketch(sketch)
    m = K.shape[0]
    n = _check_n(n, m)
    if sketch is not None:
        q = check_positive_int(q, "q", maximum=m)
        if n > q:
            raise ValueError(
                f"The sketched covariance is q x q = {q} x {q}, so it has at most {q} "
                f"eigenvectors; lower n (got {n}) or raise q."
            )
    K, Zt, lam, V = _ekm_core(K, q, n, sketch, random_state, map_back=map_back)
    U = Zt @ V  # step 5: v_hat = Z' v
    if map_back == "covariance":
        U = K @ U  # step 6: u_hat = X v_hat with X = K
    norms = np.linalg.norm(U, axis=0)
    tiny = np.finfo(float).eps * max(float(np.max(norms, initial=0.0)), np.finfo(float).tiny) * m
    keep = (norms > tiny) & (lam > 0)
    U = np.where(keep, U / np.where(keep, norms, 1.0), 0.0)
    return np.sqrt(lam), _sign_flip(U)


@dataclass(frozen=True)
class EKMPerturbation:
    r"""Marukatat's Eq. (3) for the EKM, next to the observed error.

    With X = K (EKM data matrix) and Z = SK, Eq. (2) reads
    :math:`K^2 = Z'Z + E`, and Eq. (3) (Weyl's inequality) gives, for every i,

    .. math:: |\lambda_i^2 - \tilde\lambda_i| \le \|E\|_2 \le m\max_{ij}|\varepsilon_{ij}|.

    Attributes
    ----------
    exact : ndarray (n,)
        :math:`\lambda_i`, the n largest absolute eigenvalues of K.
    approx : ndarray (n,)
        :math:`\sqrt{\tilde\lambda_i}`, as returned by :func:`ekm_eigenvalues`.
    observed : ndarray (n,)
        :math:`|\lambda_i^2 - \tilde\lambda_i|`, what Eq. (3) bounds.
    spectral_bound : float
        :math:`\|E\|_2`.
    entrywise_bound : float
        :math:`m\max_{ij}|\varepsilon_{ij}|`.
    eigenvalue_error : ndarray (n,)
        :math:`|\lambda_i - \sqrt{\tilde\lambda_i}|`, on the scale of K.
    eigenvalue_bound : ndarray (n,)
        The bound carried over to that scale:
        :math:`\min\bigl(\sqrt{\|E\|_2},\ \|E\|_2/(\lambda_i + \sqrt{\tilde\lambda_i})\bigr)`,
        from :math:`|\sqrt a-\sqrt b| = |a-b|/(\sqrt a+\sqrt b) \le \sqrt{|a-b|}`.
    """

    exact: np.ndarray
    approx: np.ndarray
    observed: np.ndarray
    spectral_bound: float
    entrywise_bound: float
    eigenvalue_error: np.ndarray
    eigenvalue_bound: np.ndarray


def _spectral_norm(E):
    """||E||_2 of a symmetric E: its largest |eigenvalue|.

    Lanczos (``eigsh``, one eigenvalue of largest magnitude, seeded start) from
    ``SPECTRAL_NORM_EIGSH_MIN_M`` rows on, where it converges to machine precision in
    O(m^2) per iteration instead of a dense O(m^3) ``eigh``; dense below that or if ARPACK
    does not converge.
    """
    m = E.shape[0]
    if m >= SPECTRAL_NORM_EIGSH_MIN_M and np.any(E):
        try:
            w = _budgeted_eigsh(E, 1, "LM", np.random.default_rng(0).uniform(-1.0, 1.0, m),
                                False)
            return float(np.abs(w[0]))
        except (ArpackError, ArpackNoConvergence):
            pass
    return float(np.max(np.abs(eigh(E, eigvals_only=True, check_finite=False))))


#: The name under which :func:`ekm_perturbation_bound` remembers K @ K (symmetric) on a
#: matrix checked by :func:`~mpcore.validated_kernel`.
SYMMETRIC_SQUARE_MEMO = "K @ K, symmetric"


def _symmetric_square(K):
    """K @ K of a symmetric K, exactly symmetric. Computed as K @ K.T: NumPy multiplies a
    matrix by its own transpose with one BLAS ``syrk`` (half the products of K @ K) and
    copies one triangle into the other. Averaged with its transpose should another path
    leave it symmetric only to rounding."""
    A = np.asarray(K)
    KK = A @ A.T
    if not np.array_equal(KK, KK.T):
        KK += KK.T  # numpy buffers the overlapping transpose
        KK *= 0.5
    return KK


#: The name under which :func:`ekm_perturbation_bound` remembers, on a matrix checked by
#: :func:`~mpcore.validated_kernel`, the magnitudes of all its eigenvalues, descending (one
#: dense ``eigh``): a caller that has computed that spectrum already can store it first.
ABS_EIGENVALUES_MEMO = "|eigenvalues| descending"


def ekm_perturbation_bound(K, q, n=None, *, sketch="gaussian", random_state=None):
    r"""Eq. (3) of Marukatat computed from the actual error matrix E, with the observed error.

    Uses the same sketch as :func:`ekm_eigenvalues` for the same ``random_state``.
    Forms :math:`K^2` and E (m x m) and their eigenvalues: O(m^3), a diagnostic
    for pages and tests, not a fast path.

    Parameters
    ----------
    K, q, sketch, random_state
        As in :func:`ekm_eigenvalues`.
    n : int, optional
        How many eigenvalues to compare (default all m; the bound holds for each).

    Returns
    -------
    EKMPerturbation
    """
    K = check_square_kernel(K)
    m = K.shape[0]
    n = m if n is None else _check_n(n, m)
    Zt = _shared_sketch(K, q, _check_sketch(sketch), random_state)
    # K @ K and the eigenvalues of K do not depend on the sketch: once per matrix checked by
    # validated_kernel (e.g. for both sketches and every q of a grid)
    memo = K.memo if isinstance(K, ValidatedKernel) else (lambda _name, compute: compute())
    # Eq. (2) with X = K, Z = S K:  X'X = Z'Z + E. K @ K is made symmetric once; Zt @ Zt.T
    # is one symmetric product (numpy calls BLAS syrk for a matrix times its own transpose),
    # so E is symmetric with no pass of its own over m^2 entries
    E = Zt @ Zt.T
    np.subtract(memo(SYMMETRIC_SQUARE_MEMO, lambda: _symmetric_square(K)), E, out=E)
    spectral = _spectral_norm(E)
    entrywise = float(m * np.max(np.abs(E)))
    exact = memo(ABS_EIGENVALUES_MEMO, lambda: np.sort(
        np.abs(eigh(K, eigvals_only=True, check_finite=False)))[::-1])[:n]
    # eigenvalues of Z'Z = those of ZZ' padded with zeros
    lam_tilde = _pad(np.maximum(top_eigh(Zt.T @ Zt, n, eigvals_only=True), 0.0), n)
    approx = np.sqrt(lam_tilde)
    observed = np.abs(exact**2 - lam_tilde)
    denom = exact + approx
    tight = np.where(denom > 0, spectral / np.where(denom > 0, denom, 1.0), np.inf)
    return EKMPerturbation(
        exact=exact,
        approx=approx,
        observed=observed,
        spectral_bound=spectral,
        entrywise_bound=entrywise,
        eigenvalue_error=np.abs(exact - approx),
        eigenvalue_bound=np.minimum(np.sqrt(spectral), tight),
    )


# ----------------------------------------------------------------------------
# subspaces
# ----------------------------------------------------------------------------


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
