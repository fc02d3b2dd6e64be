r"""Marukatat's sketched empirical kernel map: approximate eigenvalues of a kernel matrix.

The empirical kernel map (EKM) of training point t is the column :math:`K[:,t]`;
the covariance of the EKM vectors, :math:`KK' = U\Lambda^2U'`, shares K's
eigenvectors and squares its eigenvalues, and a dot-product preserving sketch to q
dimensions (:func:`ekm_sketch`: Gaussian, Eq. 7, or count sketch) makes its
eigen-decomposition q x q (Marukatat [1]_, Algorithm 1: :func:`ekm_eigenvalues`,
:func:`ekm_eigenpairs`). :func:`ekm_perturbation_bound` computes Eq. 3 (Weyl's
inequality on the sketch's error matrix) next to the observed error;
:func:`ekm_perturbation_bounds` computes it over a grid of sketch sizes.

Every function takes a precomputed kernel matrix, indefinite ones included (see
:func:`mpcore.kernels.kernel_matrix`); all randomness is seeded through ``random_state``.

References
----------
.. [1] S. Marukatat. Kernel matrix decomposition via empirical kernel map.
   Pattern Recognition Letters 77, 2016.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse
from scipy.linalg import eigh
from scipy.sparse.linalg import ArpackError, ArpackNoConvergence

from ._linalg import budgeted_eigsh, pad_zeros, sign_flip, top_eigh
from ._arguments import check_positive_int, check_random_state_arg, check_seed
from ._validation import check_square_kernel, ValidatedKernel

__all__ = [
    "ekm_eigenvalues",
    "ekm_eigenpairs",
    "ekm_sketch",
    "ekm_perturbation_bound",
    "ekm_perturbation_bounds",
    "EKMPerturbation",
    "SKETCHES",
]

#: Sketches accepted by the EKM functions (None: no sketch).
SKETCHES = ("gaussian", "countsketch")


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

    * ``"gaussian"``: Eq. (7), :math:`S = A/\sqrt q` with standard normal A, the matrix
      scikit-learn's :class:`~sklearn.random_projection.GaussianRandomProjection` draws
      (:func:`gaussian_sketch_matrix`).
    * ``"countsketch"``: :math:`S_{h(j),j} = s(j)`, hash :math:`h:[m]\to[q]` and
      signs :math:`s(j)=\pm1` drawn uniformly; costs O(m^2) (one pass over K).
    * ``None``: :math:`S = I` (q ignored), returns K itself.

    Both sketches satisfy :math:`E[S'S] = I`, so :math:`E[Z'Z] = K^2`.

    Returns
    -------
    Zt : ndarray of shape (m, q) (or (m, m) with ``sketch=None``)
    """
    return _sketch(check_square_kernel(K), q, _check_sketch(sketch), random_state)


def gaussian_sketch_matrix(rng, q, m):
    r"""S = A / sqrt(q) of Eq. (7), (q, m), drawn from the RandomState ``rng`` exactly as
    scikit-learn's :class:`~sklearn.random_projection.GaussianRandomProjection` with
    ``n_components=q`` draws its ``components_`` (``rng.normal(0, 1/sqrt(q), (q, m))``).

    The draw fills S row by row from one stream, so for one seed the first q' rows of the
    draw at q are those at q' <= q times :math:`\sqrt{q/q'}`: :func:`ekm_perturbation_bounds`
    draws the largest q of a grid once and scales its rows (bit for bit the same S)."""
    return rng.normal(loc=0.0, scale=1.0 / np.sqrt(q), size=(q, m))


def _sketch(K, q, sketch, random_state):
    """:func:`ekm_sketch` on a validated K."""
    m = K.shape[0]
    if sketch is None:
        return K
    q = check_positive_int(q, "q", maximum=m)
    rng = check_random_state_arg(random_state)
    if sketch == "gaussian":
        # K S' (K symmetric: its rows are the EKM vectors), as GaussianRandomProjection's
        # fit_transform(K) computes it, without its per-call input checks
        return np.asarray(K) @ gaussian_sketch_matrix(rng, q, m).T
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
    n = check_positive_int(n, "n", maximum=m)
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
    return pad_zeros(np.sqrt(lam), n)


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
    n = check_positive_int(n, "n", maximum=m)
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
    return np.sqrt(lam), sign_flip(U)


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


#: :func:`ekm_perturbation_bound` finds ||E||_2 by Lanczos (one eigenvalue) from this many
#: rows on: faster than a dense ``eigh`` there (O(m^2) per iteration against O(m^3)) and
#: equal to it to rounding.
SPECTRAL_NORM_EIGSH_MIN_M = 150

#: ARPACK's basis size for that one eigenvalue: its default (20) spends 20 products on the
#: first basis alone, where 10 find the same eigenvalue, to rounding, in about half of them.
SPECTRAL_NORM_NCV = 10


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
            w = budgeted_eigsh(E, 1, "LM", np.random.default_rng(0).uniform(-1.0, 1.0, m),
                               False, ncv=min(SPECTRAL_NORM_NCV, m - 1))
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
    n = m if n is None else check_positive_int(n, "n", maximum=m)
    return _perturbation(K, _shared_sketch(K, q, _check_sketch(sketch), random_state), n)


def ekm_perturbation_bounds(K, qs, n=None, *, sketch="gaussian", random_state=None):
    r""":func:`ekm_perturbation_bound` at every sketch size in ``qs``, sharing what does not
    depend on q: :math:`K^2`, the eigenvalues of K and, for the Gaussian sketch with an
    integer seed, one draw of S at the largest q (:func:`gaussian_sketch_matrix`: the rows
    of a smaller q are its first rows, rescaled, so every S is the one
    :func:`ekm_perturbation_bound` draws at that q and the numbers are the same).

    Parameters
    ----------
    K, n, sketch, random_state
        As in :func:`ekm_perturbation_bound` (``sketch`` not None).
    qs : sequence of int
        Sketch sizes, each in 1..m.

    Returns
    -------
    list of EKMPerturbation, one per entry of ``qs``, in that order.
    """
    K = check_square_kernel(K)
    m = K.shape[0]
    n = m if n is None else check_positive_int(n, "n", maximum=m)
    sketch = _check_sketch(sketch)
    if sketch is None:
        raise ValueError("ekm_perturbation_bounds compares sketch sizes: give sketch="
                         f"{' or '.join(map(repr, SKETCHES))}.")
    if isinstance(qs, (str, bytes)) or np.ndim(qs) != 1 or len(qs) == 0:
        raise ValueError(f"qs must be a non-empty 1-D sequence of sketch sizes, got {qs!r}.")
    qs = [check_positive_int(q, "q", maximum=m) for q in qs]
    seed = check_seed(random_state)
    if sketch != "gaussian" or not isinstance(seed, int):
        # a count sketch draws its hash afresh for each q; a RandomState or Generator is
        # consumed by each draw: one sketch per q, as ekm_perturbation_bound draws it
        return [_perturbation(K, _shared_sketch(K, q, sketch, seed), n) for q in qs]
    # one RandomState(seed) stream: row-major, so its first q * m normals are the draw at q
    A = np.random.RandomState(seed).normal(loc=0.0, scale=1.0, size=(max(qs), m))
    Kp = np.asarray(K)
    return [_perturbation(K, Kp @ (A[:q] * (1.0 / np.sqrt(q))).T, n) for q in qs]


def _perturbation(K, Zt, n):
    """Eq. (3) for the sketch ``Zt`` = K S' of a validated K, on its top n eigenvalues."""
    m = K.shape[0]
    # K @ K and the eigenvalues of K do not depend on the sketch: once per matrix checked by
    # validated_kernel (e.g. for both sketches and every q of a grid)
    memo = K.memo if isinstance(K, ValidatedKernel) else (lambda _name, compute: compute())
    # Eq. (2) with X = K, Z = S K:  X'X = Z'Z + E. K @ K is made symmetric once; Zt @ Zt.T
    # is one symmetric product (numpy calls BLAS syrk for a matrix times its own transpose),
    # so E is symmetric with no pass of its own over m^2 entries
    E = Zt @ Zt.T
    np.subtract(memo(SYMMETRIC_SQUARE_MEMO, lambda: _symmetric_square(K)), E, out=E)
    spectral = _spectral_norm(E)
    entrywise = float(m * max(E.max(), -E.min()))  # max|E_ij| without an m x m |E|
    exact = memo(ABS_EIGENVALUES_MEMO, lambda: np.sort(
        np.abs(eigh(K, eigvals_only=True, check_finite=False)))[::-1])[:n]
    # eigenvalues of Z'Z = those of ZZ' padded with zeros
    lam_tilde = pad_zeros(np.maximum(top_eigh(Zt.T @ Zt, n, eigvals_only=True), 0.0), n)
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
