r"""Residual curves and generalisation bounds of sparse kernel PCA over k.

:func:`bound_curves` computes, for k = 1..K_max basis vectors chosen by sparse
kernel PCA (Hussain & Shawe-Taylor [1]_, Algorithm 1), everything the
comparison of their Figure 1 draws:

- the training and test residuals :math:`\|P^\perp_{i_k}\phi(x)\|^2` averaged
  over the points;
- the sample-compression bound of [1]_, Corollary 1 (residual of the points
  outside the compression set plus a penalty growing with its size);
- the kernel-PCA bound of Shawe-Taylor & Cristianini (2004), Theorem 6.14 [2]_
  (eigenvalue tail plus a Rademacher penalty);

and where each bound is lowest, the number k* of dimensions it recommends.

References
----------
.. [1] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008.
.. [2] J. Shawe-Taylor, N. Cristianini. Kernel Methods for Pattern Analysis.
   Cambridge University Press, 2004.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._linalg import top_eigh
from ._arguments import check_array_data, check_positive_int, check_probability
from .bounds import (  # compression_terms, kpca_terms: re-exported (their home is bounds)
    _check_nonnegative,
    compression_bound,
    compression_terms,
    kpca_bound,
    kpca_terms,
)
from .kernels import kernel_diag, kernel_matrix
from .skpca import SparseKPCA

__all__ = ["BoundCurves", "bound_curves", "compression_terms", "kpca_terms", "out_residual_means"]


@dataclass(frozen=True)
class BoundCurves:
    """Curves over k = 1..n_steps returned by :func:`bound_curves`.

    Every curve is an array of shape ``(n_steps,)``; entry ``k-1`` belongs to
    k basis vectors. Residuals are squared feature-space distances (in [0, 1]
    for a Gaussian kernel).

    Attributes
    ----------
    k : ndarray of int
        1, 2, ..., n_steps.
    train_residual : ndarray
        Mean residual of all m training points (chosen points count as 0),
        i.e. the trace of the deflated kernel divided by m.
    out_residual : ndarray
        Mean residual of the m - k training points outside the first-k
        compression set (the empirical term of Corollary 1).
    test_residual : ndarray or None
        Mean residual of the test points (None without test points).
    compression : ndarray
        Corollary 1 of [1]: the running minimum over t <= k of
        ``compression_terms``; equals :func:`mpcore.bounds.compression_bound`.
    compression_terms : ndarray
        The term inside that minimum at t = k (not minimised).
    kpca : ndarray
        Theorem 6.14 of [2]: running minimum of ``kpca_terms``; equals
        :func:`mpcore.bounds.kpca_bound` on all eigenvalues of K.
    kpca_terms : ndarray
        The Theorem 6.14 expression at t = k (not minimised).
    trivial : float
        The level at or above which a bound says nothing: the largest
        training kappa(x_i, x_i), which bounds every residual of a training
        point (1 for Gaussian, Laplacian and cosine kernels).
    indices : ndarray of int
        The chosen training indices, in order of choice.
    m, n_test : int
        Training and test set sizes.
    k_max : int
        The number of steps asked for (n_steps is smaller after an early stop).
    delta : float
        Confidence parameter: each bound holds with probability 1 - delta.
    kappa_sq_sum : float
        :math:`\\sum_i \\kappa(x_i, x_i)^2` used by Theorem 6.14.
    """

    k: np.ndarray
    train_residual: np.ndarray
    out_residual: np.ndarray
    test_residual: np.ndarray | None
    compression: np.ndarray
    compression_terms: np.ndarray
    kpca: np.ndarray
    kpca_terms: np.ndarray
    trivial: float
    indices: np.ndarray
    m: int
    n_test: int
    k_max: int
    delta: float
    kappa_sq_sum: float

    @property
    def n_steps(self) -> int:
        """Number of basis vectors actually chosen (< k_max after an early stop)."""
        return int(self.k.size)

    @property
    def stopped_early(self) -> bool:
        return self.n_steps < self.k_max

    @property
    def k_star_compression(self) -> int:
        """Smallest k at which the compression bound reaches its minimum."""
        return _first_min(self.compression)

    @property
    def min_compression(self) -> float:
        return float(self.compression[-1])

    @property
    def k_star_kpca(self) -> int:
        """Smallest k at which the kernel-PCA bound reaches its minimum."""
        return _first_min(self.kpca)

    @property
    def min_kpca(self) -> float:
        return float(self.kpca[-1])

    def columns(self) -> dict:
        """The curves as named columns (for a table or a CSV file)."""
        cols = {"k": self.k, "train_residual": self.train_residual,
                "out_of_compression_set_residual": self.out_residual}
        if self.test_residual is not None:
            cols["test_residual"] = self.test_residual
        cols.update({"compression_bound": self.compression,
                     "compression_term_at_k": self.compression_terms,
                     "kpca_bound": self.kpca, "kpca_term_at_k": self.kpca_terms,
                     "trivial_level": np.full(self.n_steps, self.trivial)})
        return cols


def _first_min(curve):
    # a running minimum copies its value exactly, so equality finds where it is reached
    curve = np.asarray(curve)
    return int(np.flatnonzero(curve <= curve[-1])[0]) + 1


def out_residual_means(residual_curve, indices):
    r"""Mean residual of the training points outside each compression set.

    Parameters
    ----------
    residual_curve : array of shape (m, k)
        Column t-1 holds the residuals of the m training points with the first
        t chosen indices (:meth:`mpcore.skpca.SparseKPCA.residual_curve`).
    indices : array of int, shape (k,)
        The chosen training indices, in order of choice.

    Returns
    -------
    means : ndarray of shape (k,)
        Entry t-1 is :math:`\frac{1}{m-t}\sum_{i\notin\{i_1..i_t\}}
        \|P^\perp_{i_{1:t}}\phi(x_i)\|^2`, the empirical term of Corollary 1
        of Hussain & Shawe-Taylor (2008).
    """
    r = check_array_data(residual_curve, "residual_curve")
    r = _check_nonnegative(r.ravel(), "residual_curve", "squared feature-space residuals"
                           ).reshape(r.shape)
    m, k = r.shape
    if indices is None or isinstance(indices, (str, bytes)):
        raise TypeError(f"indices must be an array of integer training indices, got {indices!r}.")
    idx = np.asarray(indices)
    if idx.shape != (k,):
        raise ValueError(f"indices must have shape ({k},) to match residual_curve, "
                         f"got {idx.shape}.")
    if idx.dtype == bool or not np.issubdtype(idx.dtype, np.integer):
        raise TypeError(f"indices must be integers, got dtype {idx.dtype}.")
    if k >= m:
        raise ValueError(f"residual_curve has k = {k} columns for m = {m} rows: it needs fewer "
                         "chosen points than training points (the bound averages over the "
                         "points outside the compression set).")
    if np.unique(idx).size != k or idx.min() < 0 or idx.max() >= m:
        raise ValueError("indices must be distinct training indices in [0, m).")
    t = np.arange(1, k + 1)
    position = np.full(m, k)
    position[idx] = np.arange(k)
    outside = position[:, None] >= t[None, :]  # point i is not among the first t chosen
    return np.einsum("ij,ij->j", r, outside) / (m - t)


def bound_curves(X_train, X_test=None, *, kernel="rbf", gamma=None, degree=3, coef0=1.0,
                 k_max=50, delta=0.05):
    r"""Residual curves of sparse kernel PCA and its two bounds, for k = 1..k_max.

    Fits :class:`mpcore.skpca.SparseKPCA` with ``k_max`` components on
    ``X_train`` (exact greedy, Algorithm 1 of [1]_) and returns, for every k,
    the mean training and test residuals, the sample-compression bound of [1]_
    (Corollary 1) and the kernel-PCA bound of [2]_ (Theorem 6.14), both at
    confidence :math:`1-\delta`:

    .. math:: B^{\mathrm{sc}}_k = \min_{1\le t\le k}\Big[\frac{1}{m-t}
              \sum_{i\notin i_{1:t}}\|P^\perp_{i_{1:t}}\phi(x_i)\|^2
              + R\sqrt{\frac{t\ln(em/t)+\ln(2m/\delta)}{2(m-t)}}\Big]

    .. math:: B^{\mathrm{pca}}_k = \min_{1\le t\le k}\Big[\frac1m\sum_{i>t}\lambda_i
              + \frac8m\sqrt{(t+1)\textstyle\sum_i\kappa(x_i,x_i)^2}\Big]
              + 3R_\phi^2\sqrt{\frac{\ln(2m/\delta)}{2m}}

    Parameters
    ----------
    X_train : array of shape (m, d)
        Training points: the basis is chosen among them and both bounds use
        only them.
    X_test : array of shape (n, d), optional
        Held-out points for the test residual curve (None: no test curve).
    kernel, gamma, degree, coef0 :
        A positive semi-definite kernel, as in
        :func:`mpcore.kernels.kernel_matrix` ("sigmoid" is refused).
    k_max : int
        Largest number of basis vectors, ``1 <= k_max < m``.
    delta : float in (0, 1)
        Each bound holds with probability at least ``1 - delta``.

    Returns
    -------
    curves : BoundCurves
        Curves of length ``n_steps`` (``k_max``, or fewer if every training
        point is spanned earlier), the minima ``k_star_compression`` /
        ``min_compression`` and ``k_star_kpca`` / ``min_kpca``, and the
        trivial level.

    Notes
    -----
    Both bounds use the uncentred training kernel matrix K, as the sparse
    method does. The loss bound of Corollary 1 and the radius of Theorem 6.14
    come from the training diagonal: :math:`R = \max_i\kappa(x_i,x_i)` bounds
    every squared residual (it is 1 for Gaussian, Laplacian and cosine
    kernels, as in [1]_), and :math:`R_\phi^2 = R` is the squared radius of
    the ball holding the training points in feature space. For kernels whose
    diagonal is not constant (linear, polynomial) this is the training
    estimate of the supremum the theorems assume. R is also the trivial
    level: a bound at or above it says nothing, since no residual exceeds it.

    Theorem 6.14 needs only the tails :math:`\sum_{i>t}\lambda_i = \operatorname{tr}K
    - \sum_{i\le t}\lambda_i` for t <= k_max, so only the k_max largest
    eigenvalues are kept (:func:`mpcore._linalg.top_eigh`).

    See Also
    --------
    mpcore.bounds.compression_bound, mpcore.bounds.kpca_bound

    References
    ----------
    .. [1] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008,
       Section 2, Theorem 2, Corollary 1 and Figure 1.
    .. [2] J. Shawe-Taylor, N. Cristianini. Kernel Methods for Pattern
       Analysis. 2004, Theorem 6.14 and Remark 6.15.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(120, 3))
    >>> c = bound_curves(X[:100], X[100:], gamma=0.5, k_max=20)
    >>> c.n_steps, bool(np.all(np.diff(c.compression) <= 0))
    (20, True)
    """
    X_train = check_array_data(X_train, "X_train", min_rows=2)
    m = X_train.shape[0]
    k_max = check_positive_int(k_max, "k_max")
    if k_max >= m:
        raise ValueError(f"k_max must be smaller than the number of training points m = {m} "
                         f"(the compression bound needs points outside the basis); got {k_max}.")
    delta = check_probability(delta, "delta")
    if X_test is not None:
        X_test = check_array_data(X_test, "X_test")
        if X_test.shape[1] != X_train.shape[1]:
            raise ValueError(f"X_test must be a non-empty 2-D array with {X_train.shape[1]} "
                             f"columns like X_train, got shape {X_test.shape}.")

    # an early stop is reported by BoundCurves.stopped_early, not by a warning
    model = SparseKPCA(k_max, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0)
    model._fit(X_train)
    params = dict(kernel=kernel, gamma=model.gamma_, degree=degree, coef0=coef0)
    indices = model.indices_
    n = model.n_components_
    train_curve = model.residual_curve(X_train)  # (m, n); chosen points have residual 0
    train_residual = train_curve.mean(axis=0)
    out = out_residual_means(train_curve, indices)
    test_residual = None if X_test is None else model.residual_curve(X_test).mean(axis=0)

    diag = kernel_diag(X_train, **params)
    R = float(np.max(diag))
    kappa_sq_sum = float(np.sum(diag**2))
    if not R > 0:
        raise ValueError("Every kappa(x, x) is 0 on the training data: choose other kernel "
                         "parameters.")

    # Corollary 1: running minimum of the per-t expression (R bounds the loss)
    comp_terms = compression_terms(out, m, delta=delta, R=R)
    comp = compression_bound(out, m, delta=delta, R=R)

    # Theorem 6.14: the n largest eigenvalues and tr K give every tail for t <= n
    K = kernel_matrix(X_train, **params)
    top = top_eigh(K, n, eigvals_only=True)
    trace = float(np.trace(K))
    kpca = kpca_bound(top, m, trace=trace, kappa_sq_sum=kappa_sq_sum, delta=delta, R=np.sqrt(R))
    kp_terms = kpca_terms(top, trace, m, kappa_sq_sum=kappa_sq_sum, delta=delta, R=np.sqrt(R))

    return BoundCurves(
        k=np.arange(1, n + 1), train_residual=train_residual, out_residual=out,
        test_residual=test_residual, compression=comp, compression_terms=comp_terms,
        kpca=kpca, kpca_terms=kp_terms, trivial=R, indices=indices.copy(), m=m,
        n_test=0 if X_test is None else X_test.shape[0], k_max=k_max, delta=delta,
        kappa_sq_sum=kappa_sq_sum,
    )
