r"""The Nystroem approximation of a kernel matrix from a subset of its columns.

From k chosen columns i of an m x m kernel matrix K,
:math:`\tilde K = K[:,i]K[i,i]^{-1}K[i,:]` (Hussain & Shawe-Taylor [1]_, Eq. 5);
its eigenvalues come from a k x k matrix in O(m k^2). The subset is chosen
(:func:`nystrom_indices`) by sparse kernel PCA (Hussain & Shawe-Taylor, Algorithm 1),
uniformly at random (:func:`random_indices`, :func:`random_order`), by the pivots
of an incomplete Cholesky decomposition ([2]_, Code Fragment 5.4, :mod:`mpcore.cholesky`),
or by randomly pivoted Cholesky ([3]_, :mod:`mpcore.rpcholesky`).
A greedy rule's subsets are nested, so :func:`nystrom_nested_eigenvalues` gives the
eigenvalues on every prefix from one pass.

Every function takes a precomputed PSD kernel matrix (see
:func:`mpcore.kernels.kernel_matrix`); all randomness is seeded through ``random_state``.

References
----------
.. [1] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008.
.. [2] J. Shawe-Taylor, N. Cristianini. Kernel Methods for Pattern Analysis.
   Cambridge University Press, 2004.
.. [3] Y. Chen, E. N. Epperly, J. A. Tropp, R. J. Webber. Randomly pivoted Cholesky:
   practical approximation of a kernel matrix with few entry evaluations.
   arXiv:2207.06503.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import solve_triangular

from ._linalg import pad_zeros, sign_flip, top_eigh
from ._arguments import check_positive_int, check_random_state_arg, check_seed
from ._validation import DIAG_TOL, check_psd_matrix, check_square_kernel
from .cholesky import _incomplete_cholesky
from .rpcholesky import rpcholesky
from .skpca import _greedy_checked

__all__ = [
    "nystrom_eigenvalues",
    "nystrom_nested_eigenvalues",
    "nystrom_factor_eigenvalues",
    "nystrom_eigenpairs",
    "nystrom_indices",
    "random_indices",
    "random_order",
    "SUBSET_RULES",
]

#: Subset rules accepted by :func:`nystrom_indices` ("uniform" is another name of "random":
#: uniform sampling without replacement, the name randomly pivoted Cholesky's paper uses).
SUBSET_RULES = ("skpca", "random", "uniform", "cholesky", "rpcholesky")

#: Largest population size m accepted by :func:`random_indices` (a permutation of m
#: indices is drawn, 8 bytes each).
MAX_POPULATION = 10_000_000

#: How the PSD refusals of this module name the methods.
WHERE = "the Nystroem approximation"


def _check_psd(K, where=WHERE):
    """Validate a square kernel matrix and refuse it unless it is PSD (cached check)."""
    K = check_square_kernel(K)
    return check_psd_matrix(K, "K", where)


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
    r"""k column indices for the Nystroem approximation, by one of four rules.

    Parameters
    ----------
    K : array of shape (m, m)
    k : int
        Subset size (fewer may be returned by "skpca" or "cholesky" once K is
        fully spanned, i.e. at its numerical rank).
    rule : {"skpca", "random", "uniform", "cholesky", "rpcholesky"}
        "skpca": the greedy sparse-KPCA choice (Hussain & Shawe-Taylor,
        Algorithm 1; :func:`mpcore.skpca.greedy_steps`), maximising
        :math:`(\hat K^2)_{ii}/\hat K_{ii}`; "random" (or its other name
        "uniform"): uniform without replacement, sorted; "cholesky":
        incomplete-Cholesky pivots (largest residual diagonal, Code Fragment 5.4);
        "rpcholesky": randomly pivoted Cholesky (Chen, Epperly, Tropp & Webber,
        Algorithm 1; :func:`mpcore.rpcholesky.rpcholesky`), each pivot drawn with
        probability proportional to the residual diagonal, in the order drawn.
    random_state : int, RandomState or None
        Used by "random"/"uniform" and "rpcholesky" only.

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
    # one branch per name in SUBSET_RULES: a new rule adds its name there, a branch
    # here and a line under ``rule`` in the docstring
    if rule in ("random", "uniform"):
        return random_indices(m, k, random_state)
    if rule == "rpcholesky":
        return rpcholesky(K, k, random_state=random_state).pivots
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
    nystrom_indices : the subset rules.
    """
    K = _check_psd(K)
    n = check_positive_int(n, "n", maximum=K.shape[0])
    F, _ = _nystrom_features(K, indices)
    w = top_eigh(F.T @ F, n, eigvals_only=True)
    return pad_zeros(np.maximum(w, 0.0), n)


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
    n = check_positive_int(n, "n", maximum=m)
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
    return _prefix_eigenvalues(R, kept[sizes - 1], n)


def _prefix_eigenvalues(R, ranks, n):
    """Row j: the n largest eigenvalues of :math:`R_{:r}'R_{:r}`, r = ``ranks[j]`` (those of
    the r x r matrix :math:`R_{:r}R_{:r}'`), descending, >= 0, zero-padded."""
    out = np.zeros((len(ranks), n))
    for row, r in enumerate(ranks):
        if r == 0:
            continue  # every chosen point has a zero feature vector: K~ = 0
        Rs = R[:r]
        w = top_eigh(Rs @ Rs.T, n, eigvals_only=True)
        out[row] = pad_zeros(np.maximum(w, 0.0), n)
    return out


def nystrom_factor_eigenvalues(factor, sizes, n):
    r"""The n largest Nystroem eigenvalues on every prefix of a partial Cholesky factor.

    A pivoted partial Cholesky decomposition on pivots :math:`i_1, i_2, \dots` (incomplete
    Cholesky, :func:`mpcore.cholesky.incomplete_cholesky`; randomly pivoted Cholesky,
    :func:`mpcore.rpcholesky.rpcholesky`) gives, in its first t rows, :math:`R_{:t}` with
    :math:`R_{:t}'R_{:t} = K[:,\mathbf i_t]K[\mathbf i_t,\mathbf i_t]^{-1}K[\mathbf i_t,:]`,
    the Nystroem approximation on the first t pivots. So a rule that factorises K as it
    chooses its columns has every prefix's eigenvalues without a second pass over the points
    (:func:`nystrom_nested_eigenvalues` makes that pass for indices given alone): those of
    the t x t matrix :math:`R_{:t}R_{:t}'`.

    Parameters
    ----------
    factor : array of shape (T, m)
        The factor's rows, one per pivot in the order chosen (``incomplete_cholesky``'s R;
        ``rpcholesky``'s ``factor.T``).
    sizes : array of int
        Prefix lengths, each in 1..T.
    n : int
        Eigenvalues per prefix, 1 <= n <= m.

    Returns
    -------
    eigenvalues : ndarray of shape (len(sizes), n)
        As :func:`nystrom_nested_eigenvalues` on the pivots.

    Examples
    --------
    >>> import numpy as np
    >>> from mpcore.cholesky import incomplete_cholesky
    >>> X = np.random.default_rng(0).normal(size=(30, 2))
    >>> K = np.exp(-((X[:, None] - X[None]) ** 2).sum(-1))
    >>> R, piv = incomplete_cholesky(K, rank=8)
    >>> bool(np.allclose(nystrom_factor_eigenvalues(R, [3, 8], 2),
    ...                  nystrom_nested_eigenvalues(K, piv, [3, 8], 2)))
    True
    """
    R = np.asarray(factor, dtype=float)
    if R.ndim != 2 or R.shape[0] == 0 or not np.all(np.isfinite(R)):
        raise ValueError("factor must be a finite 2-D array with one row per pivot, "
                         f"got shape {np.shape(factor)}.")
    n = check_positive_int(n, "n", maximum=R.shape[1])
    sizes = _check_sizes(sizes, R.shape[0])
    return _prefix_eigenvalues(R, sizes, n)


def nystrom_eigenpairs(K, indices, n):
    r"""Nystroem eigenvalues and unit eigenvectors :math:`FV\Lambda^{-1/2}` of :math:`\tilde K`.

    n may not exceed the number of independent indices (the rank of :math:`\tilde K`).
    """
    K = _check_psd(K)
    n = check_positive_int(n, "n", maximum=K.shape[0])
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
    return w, sign_flip(U)
