r"""Sparse kernel PCA by matching pursuit.

Algorithm 1 of Hussain & Shawe-Taylor [1]_: at every step choose the training
point whose feature vector best explains the (deflated) kernel matrix, in the
sense of the Rayleigh quotient

.. math:: \rho_i = \frac{e_i'\hat K^2 e_i}{e_i'\hat K e_i}
          = \frac{(\hat K^2)_{ii}}{\hat K_{ii}},

then deflate :math:`\hat K \leftarrow \hat K - \hat K e_i e_i' \hat K / \hat K_{ii}`
(Eq. 3). The trace of :math:`\hat K` falls by exactly :math:`\rho_i` (Theorem 1:
this is Smola & Schoelkopf's sparse greedy matrix approximation [2]_), and the
chosen indices span the Nystroem approximation
:math:`\tilde K = K[:,i]K[i,i]^{-1}K[i,:]` (Eqs. 4-5).

The implementation never rewrites the m x m matrix: it keeps the partial
Cholesky factor :math:`G` with :math:`\hat K = K - GG'`, the residual diagonal
and the squared column norms :math:`(\hat K^2)_{ii}`, updated with one kernel
matrix-vector product per step. With ``n_candidates=c`` only c random
candidates are scored per step ("59-trick"), and only their kernel columns are
ever computed, so memory is O(m k).

References
----------
.. [1] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008.
.. [2] A. J. Smola, B. Schoelkopf. Sparse greedy matrix approximation for
   machine learning. ICML 2000.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real
from typing import Iterator

import numpy as np
from scipy.linalg import solve_triangular
from scipy.linalg.blas import dsymv
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from ._validation import (
    DIAG_TOL,
    KERNELS,
    MAX_ABS_VALUE,
    PSD_NEG_RATIO,
    SQ_REFRESH_RATIO,
    check_array_data,
    check_kernel_name,
    check_parameters,
    check_positive_float,
    check_positive_int,
    check_psd_matrix,
    check_seed,
    check_square_kernel,
    named_validation,
    precheck_estimator_input,
)
from ._linalg import cholesky_with_jitter
from .kernels import MAX_DEGREE, _check_params, check_psd_kernel, kernel_diag, kernel_matrix

from ._skpca_step import (PRECOMPUTED, WHERE, FitProgress, SKPCAStep, effective_tol,
                          raise_not_psd)

__all__ = ["SKPCAStep", "greedy_steps", "greedy_steps_from_data", "SparseKPCA"]


def _symmetric_product(K: np.ndarray):
    """v -> K v for the symmetric K, reading one triangle of it (BLAS symv): half the memory
    traffic of ``K @ v``, and that product is most of an exact greedy step once K is larger
    than the cache. K is symmetric (checked on entry, to 1e-8 of its largest entry), so
    either triangle will do."""
    if K.dtype == np.float64 and K.flags.c_contiguous:
        Kf = K.T  # Fortran order, no copy: its lower triangle is K's upper one
        return lambda v: dsymv(1.0, Kf, v, lower=1)
    return lambda v: K @ v


def _greedy_core(K: np.ndarray, n_steps: int, *, tol: float) -> Iterator[SKPCAStep]:
    """Exact greedy on the kernel matrix K (the 59-trick: :mod:`mpcore.skpca_large`).

    The squared column norms of the deflated matrix are kept up to date with one
    product ``K @ g`` per step.
    """
    K = np.asarray(K).view(np.ndarray)  # plain products (no subclass dispatch per step)
    product = _symmetric_product(K)
    diag = np.diag(K).copy()
    m = diag.shape[0]
    # never below rounding: a residual under m * eps of the largest diagonal (the floor
    # numpy.linalg.matrix_rank uses) is cancellation noise, and its quotient is noise too (a
    # tol of 1e-320 once let a rank-1 K report quotients of 0.17 for a trace drop of 1e-32)
    diag_max = max(float(np.max(diag)), 0.0)
    threshold = effective_tol(tol, m) * diag_max
    # how far rounding may have moved the residuals so far (a bound, for the PSD check
    # between steps only: every entry point checks K first): m eps max(diag K) at the start;
    # a pivot p known only to within it scales every g_k^2 (<= d_k) by up to 1 + err/p, so
    # each step adds err/p * max(d). Small pivots make it grow: a rank-3 polynomial K left
    # -1.8e-8 after a pivot of 2.6e-10, a rank-6 one on 28 points -4e-8 after two small ones
    err = m * np.finfo(float).eps * diag_max
    negative = -PSD_NEG_RATIO * max(float(np.max(np.abs(diag))), np.finfo(float).tiny)
    d = diag.astype(float).copy()  # residual diagonal of K_hat
    # K_hat = K - G G', G stored transposed: row j is step j's g, so the first j rows are
    # one contiguous block for the products below
    Gt = np.zeros((min(n_steps, m), m))
    sq = np.einsum("ij,ij->j", K, K)  # (K_hat^2)_ii = ||K_hat[:, i]||^2
    sq_ref = float(np.max(sq))
    alive = np.flatnonzero(d > threshold)
    for j in range(min(n_steps, m)):
        if alive.size == 0 or threshold <= 0:
            return
        Gj = Gt[:j]
        quotients = np.full(m, np.nan)
        rho = np.maximum(sq[alive], 0.0) / d[alive]
        quotients[alive] = rho
        i = int(alive[np.argmax(rho)])  # the first largest, as nanargmax over quotients
        tau = K[:, i] - Gj[:, i] @ Gj
        pivot = d[i]
        g = tau / np.sqrt(pivot)
        g[i] = np.sqrt(pivot)  # exact pivot entry: the chosen point is spanned
        # Eq. (3) on the squared column norms: (K_hat - g g')^2_ii
        # = (K_hat^2)_ii - 2 g_i (K_hat g)_i + g_i^2 ||g||^2, K_hat g = K g - G (G' g)
        Khg = product(g) - (Gj @ g) @ Gj
        sq = sq - 2.0 * g * Khg + g**2 * (g @ g)
        Gt[j] = g
        err += err / pivot * float(np.max(d))
        d = d - g**2
        d[i] = 0.0
        if d.min() < min(negative, -err):
            raise_not_psd(d.min(), int(np.argmin(d)), j)
        np.maximum(d, 0.0, out=d)
        alive = np.flatnonzero(d > threshold)  # the next step's candidates
        if alive.size and np.max(sq[alive]) < SQ_REFRESH_RATIO * sq_ref:
            # The update above loses digits once the norms have fallen by many
            # orders of magnitude (near-spanned data): then recompute them from
            # K_hat = K - G G' for the remaining points, and restart the clock.
            Gn = Gt[: j + 1]
            cols = K[:, alive] - Gn.T @ Gn[:, alive]
            sq[alive] = np.einsum("ij,ij->j", cols, cols)
            sq_ref = float(np.max(sq[alive]))
        yield SKPCAStep(
            step=j + 1,
            index=i,
            quotients=quotients,
            residual_diag=d.copy(),
            trace_residual=float(d.sum()),
        )


def _check_steps_args(n_steps, n_candidates, tol, random_state=None):
    n_steps = check_positive_int(n_steps, "n_steps")
    if n_candidates is not None:
        n_candidates = check_positive_int(n_candidates, "n_candidates")
    tol = check_positive_float(tol, "tol", maximum=1.0)
    check_seed(random_state)
    return n_steps, n_candidates, tol


def greedy_steps(K, n_steps, *, n_candidates=None, random_state=None, tol=DIAG_TOL):
    r"""Yield the steps of sparse kernel PCA by matching pursuit.

    Algorithm 1 of [1]_: pick i maximising the Rayleigh quotient of the
    deflated kernel, then deflate K by the projection onto phi(x_i) (Eq. 3).

    .. math:: \rho_i = (\hat K^2)_{ii} / \hat K_{ii}, \qquad
              \hat K \leftarrow \hat K - \frac{\hat K e_i e_i' \hat K}{\hat K_{ii}}

    Parameters
    ----------
    K : array of shape (m, m)
        Positive semi-definite kernel matrix.
    n_steps : int
        Maximum number of basis vectors k.
    n_candidates : int, optional
        Score only this many random not-yet-spanned candidates per step
        (59 gives Smola & Schoelkopf's "59-trick" [2]_). None: exact greedy.
    random_state : int, RandomState or None
        Seeds the candidate draws.
    tol : float
        A residual diagonal at or below ``tol * max(diag K)`` counts as spanned (and
        always one at or below ``m * eps * max(diag K)``: rounding, see
        :func:`effective_tol`).

    Yields
    ------
    step : SKPCAStep
        One per step; fewer than ``n_steps`` once every point is spanned.

    References
    ----------
    .. [1] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008.
    .. [2] A. J. Smola, B. Schoelkopf. Sparse greedy matrix approximation
       for machine learning. ICML 2000.

    Examples
    --------
    >>> import numpy as np
    >>> from mpcore.kernels import kernel_matrix
    >>> K = kernel_matrix(np.random.default_rng(0).normal(size=(50, 2)), gamma=0.5)
    >>> steps = list(greedy_steps(K, 5))
    >>> [s.step for s in steps]
    [1, 2, 3, 4, 5]
    """
    K = check_square_kernel(K)
    n_steps, n_candidates, tol = _check_steps_args(n_steps, n_candidates, tol, random_state)
    check_psd_matrix(K, "K", WHERE)
    return _greedy_checked(K, n_steps, n_candidates=n_candidates, random_state=random_state,
                           tol=tol)


def _greedy_checked(K, n_steps, *, n_candidates=None, random_state=None, tol=DIAG_TOL,
                    dtype=np.float64):
    """:func:`greedy_steps` on a K already validated (square, finite, PSD)."""
    if n_candidates is None:
        return _greedy_core(K, n_steps, tol=tol)
    from .skpca_large import MatrixBlocks, candidate_steps

    return candidate_steps(MatrixBlocks(K, dtype), np.diag(K).copy(), n_steps,
                           n_candidates=n_candidates, random_state=random_state, tol=tol)


def greedy_steps_from_data(
    X, n_steps, *, kernel="rbf", gamma=None, degree=3, coef0=1.0,
    n_candidates=59, random_state=None, tol=DIAG_TOL, diag=None, dtype=np.float64,
    arrays=True,
):
    """Like :func:`greedy_steps`, computing kernel columns from ``X`` on demand.

    With ``n_candidates`` set, only the candidates' kernel blocks are ever
    computed, chunk by chunk (:mod:`mpcore.skpca_large`), so memory is the k x m
    basis: m = 1,000,000 points fit in about 1 GB. ``dtype=np.float32`` halves it
    (picks equal up to float32 rounding). With ``n_candidates=None`` the full
    kernel matrix is formed (exact greedy; ``dtype`` is then ignored).
    ``diag`` may pass the kernel diagonal if the caller already has it.
    ``arrays=False`` (with ``n_candidates``) yields light records: ``quotients`` and
    ``residual_diag`` None, the chosen point's quotient in ``quotient``.

    The kernel must be positive semi-definite (see :func:`mpcore.kernels.psd_status`);
    a polynomial kernel with coef0 < 0 is checked on the data and refused where its
    matrix has a negative eigenvalue.
    """
    check_kernel_name(kernel, allow_non_psd=False, where=WHERE)
    X = check_array_data(X, "X")
    gamma, degree, coef0 = _check_params(gamma, degree, coef0)
    n_steps, n_candidates, tol = _check_steps_args(n_steps, n_candidates, tol, random_state)
    params = dict(kernel=kernel, gamma=gamma, degree=degree, coef0=coef0)
    if n_candidates is None:
        K = kernel_matrix(X, **params)
        check_psd_kernel(**params, K=K, where=WHERE)
        return _greedy_checked(K, n_steps, tol=tol)
    check_psd_kernel(**params, X=X, where=WHERE)
    if diag is None:
        diag = kernel_diag(X, **params)
    else:
        diag = check_array_data(diag, "diag", ndim=1)
        if diag.shape != (X.shape[0],):
            raise ValueError(f"diag must have shape ({X.shape[0]},) to match X, got {diag.shape}.")
    from .skpca_large import DataBlocks, candidate_steps, check_basis_size, check_dtype

    dtype = check_dtype(dtype)
    check_basis_size(X.shape[0], n_steps)
    return candidate_steps(DataBlocks(X, params, dtype), diag, n_steps,
                           n_candidates=n_candidates, random_state=random_state, tol=tol,
                           arrays=arrays)


def _is_dask_array(X):
    """Whether X is a dask array (told without importing dask)."""
    return type(X).__module__.split(".")[0] == "dask" and hasattr(X, "chunks")


class SparseKPCA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    r"""Sparse kernel PCA by matching pursuit (Hussain & Shawe-Taylor, Algorithm 1).

    Parameters
    ----------
    n_components : int, default=10
        Number of basis vectors k (training points kept).
    kernel : {"rbf", "laplacian", "polynomial", "linear", "cosine", "precomputed"}
        Positive semi-definite kernels only; "sigmoid" is refused.
        "precomputed" (as in scikit-learn's KernelPCA): ``fit`` takes the
        training kernel matrix K (m, m), which must be PSD, and ``transform``
        takes K(X, X_train) of shape (n, m); gamma, degree and coef0 are then
        ignored. The result is that of the kernel K was computed with.
    gamma, degree, coef0 : kernel parameters, see :func:`mpcore.kernels.kernel_matrix`.
    n_candidates : int or None
        None: exact greedy; an int c: best of c random candidates per step
        (59-trick), never forming the full kernel matrix. With the 59-trick, ``fit``
        also takes X as a dask array and runs on the dask.distributed cluster of the
        current client (``pip install "mp-kernels[dask]"``; docs/scale.md).
    random_state : int, RandomState or None
    tol : float
        Relative threshold below which a residual diagonal counts as spanned (never
        below ``m * eps``, the rounding floor: :func:`effective_tol`).
    dtype : {np.float64, np.float32}
        Precision of the 59-trick's basis and kernel blocks: float32 halves the memory
        (picks equal up to float32 rounding). Exact greedy always runs in float64.
    verbose : int, default=0
        0: ``fit`` prints nothing. 1: a line at about every tenth of the steps and at the
        last (the step, the trace left as a share of tr K, the seconds so far). 2 or more:
        a line every step.

    Attributes
    ----------
    indices_ : ndarray of shape (n_components_,)
        Chosen training indices, in order of choice.
    rayleigh_quotients_ : ndarray of shape (n_components_,)
        The quotient of each chosen index when it was chosen.
    trace_residuals_ : ndarray of shape (n_components_ + 1,)
        tr K followed by the trace of the deflated K after each step.
    n_components_ : int
        Number of steps taken (fewer than n_components after an early stop).
    basis_ : ndarray of shape (n_components_, n_features) or None
        The chosen training points (None with kernel="precomputed": no points).
    gamma_ : float or None
        The gamma used (None with kernel="precomputed").

    Notes
    -----
    ``transform`` returns Nystroem coordinates :math:`F = K[X,i]L^{-T}` with
    :math:`LL' = K[i,i]`, so :math:`FF' = K[X,i]K[i,i]^{-1}K[i,X]` (Eqs. 4-5).
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        # sigmoid is a kernel name, refused in fit with its own message (not PSD)
        "kernel": [StrOptions(set(KERNELS) | {PRECOMPUTED})],
        "gamma": [Interval(Real, 0, MAX_ABS_VALUE, closed="right"), None],
        "degree": [Interval(Integral, 1, MAX_DEGREE, closed="both")],
        "coef0": [Interval(Real, -MAX_ABS_VALUE, MAX_ABS_VALUE, closed="both")],
        "n_candidates": [Interval(Integral, 1, None, closed="left"), None],
        "random_state": ["random_state", np.random.Generator],
        "tol": [Interval(Real, 0, 1, closed="right")],
        # float64 or float32, checked in fit with its own message
        "dtype": "no_validation",
        "verbose": ["verbose"],
    }

    def __init__(
        self, n_components=10, *, kernel="rbf", gamma=None, degree=3, coef0=1.0,
        n_candidates=None, random_state=None, tol=DIAG_TOL, dtype=np.float64, verbose=0,
    ):
        self.n_components = n_components
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.n_candidates = n_candidates
        self.random_state = random_state
        self.tol = tol
        self.dtype = dtype
        self.verbose = verbose

    def _kernel_params(self):
        return dict(kernel=self.kernel, gamma=self.gamma_, degree=self.degree, coef0=self.coef0)

    def fit(self, X, y=None):
        """Choose the basis by greedy matching pursuit on the training kernel.

        Warns (ConvergenceWarning) when fewer than ``n_components`` basis vectors are
        chosen: ``n_components`` exceeds the number of training points, or the kernel
        matrix has lower numerical rank (duplicate points, a low-rank kernel). The fit
        is then complete with ``n_components_`` vectors, as scikit-learn's orthogonal
        matching pursuit warns when it stops early.
        """
        self._fit(X)
        if self.n_components_ < self.n_components:
            warnings.warn(self._early_stop_message(), ConvergenceWarning, stacklevel=2)
        return self

    def _early_stop_message(self):
        m, k, n = self._n_fit, self.n_components_, self.n_components
        if n > m and k == m:
            why = f"the training set has only m = {m} points"
        else:
            why = (f"after {k} steps every residual diagonal is at most "
                   f"{effective_tol(self.tol, m):g} (tol = {self.tol:g}, never below m * eps) "
                   f"times the largest diagonal of K: the kernel matrix has numerical rank "
                   f"{k} (duplicate points or a low-rank kernel), so the {k} chosen points "
                   "already span every training point in feature space")
            if n > m:
                why += f" (and the training set has only m = {m} points)"
        return (f"SparseKPCA chose {k} of n_components = {n} basis vectors: {why}. "
                f"n_components_ = {k}; set n_components <= {k} to silence this warning.")

    def _fit(self, X):
        """:meth:`fit` without the early-stop warning (for callers that report it)."""
        if _is_dask_array(X):  # dask is imported only here, for a dask array
            from .dask_skpca import fit_dask

            return fit_dask(self, X)
        precheck_estimator_input(X, "X")
        X = named_validation("X", validate_data, self, X, dtype=float, ensure_min_samples=1)
        check_parameters(self)
        from .skpca_large import check_dtype

        check_dtype(self.dtype)
        if self.kernel != PRECOMPUTED:
            check_kernel_name(self.kernel, allow_non_psd=False, where=WHERE)
        n_candidates, tol = self.n_candidates, float(self.tol)
        gamma = None if self.gamma is None else float(self.gamma)
        if self.kernel == PRECOMPUTED:
            return self._fit_precomputed(X, n_candidates, tol)
        self.gamma_ = gamma
        if self.gamma_ is None:
            self.gamma_ = 1.0 / X.shape[1]
        X = check_array_data(X, "X")  # magnitudes: kernels square the values
        params = self._kernel_params()
        if n_candidates is None:
            K = kernel_matrix(X, **params)
            check_psd_kernel(**params, K=K, where=WHERE)
            diag = np.diag(K).copy()
            steps = _greedy_checked(K, self.n_components, tol=tol)
        else:
            diag = kernel_diag(X, **params)
            steps = greedy_steps_from_data(
                X, self.n_components, n_candidates=n_candidates,
                random_state=self.random_state, tol=tol, diag=diag, dtype=self.dtype,
                arrays=False, **params,
            )
        self._keep_steps(steps, diag, X.shape[0])
        self.basis_ = X[self.indices_].copy()
        # Cholesky factor of K[i,i] in choice order (pivoted by construction)
        self._set_chol(kernel_matrix(self.basis_, **params))
        return self

    def _fit_precomputed(self, K, n_candidates, tol):
        """:meth:`fit` on a kernel matrix K = k(X_train, X_train)."""
        K = check_square_kernel(K, "X")
        check_psd_matrix(K, "K", WHERE)
        diag = np.diag(K).copy()
        if n_candidates is None:
            steps = _greedy_checked(K, self.n_components, tol=tol)
        else:  # the candidate draws of greedy_steps_from_data, columns read from K
            steps = _greedy_checked(K, self.n_components, n_candidates=n_candidates,
                                    random_state=self.random_state, tol=tol, dtype=self.dtype)
        self.gamma_ = None
        self._keep_steps(steps, diag, K.shape[0])
        self.basis_ = None
        self._set_chol(K[np.ix_(self.indices_, self.indices_)])
        return self

    def _keep_steps(self, steps, diag, m):
        indices, quotients, traces = [], [], [float(diag.sum())]
        progress = FitProgress(self.verbose, min(self.n_components, m), traces[0])
        for s in steps:
            indices.append(s.index)
            quotients.append(s.quotients[s.index] if s.quotients is not None else s.quotient)
            traces.append(s.trace_residual)
            progress.step(len(indices), s.trace_residual)
        if indices:
            progress.step(len(indices), traces[-1], last=True)
        self._keep(indices, quotients, traces, m)

    def _keep(self, indices, quotients, traces, m):
        """The fitted attributes from the chosen indices, their quotients and the traces
        (tr K first)."""
        if not indices:
            raise ValueError(
                f"The kernel matrix of X (kernel={self.kernel!r}) is (numerically) zero, so no "
                "point can be chosen: every point has a zero feature vector (e.g. a linear or "
                "polynomial kernel of all-zero data). Check the data and the kernel parameters."
            )
        self.indices_ = np.asarray(indices, dtype=int)
        self.rayleigh_quotients_ = np.asarray(quotients)
        self.trace_residuals_ = np.asarray(traces)
        self.n_components_ = len(indices)
        # get_feature_names_out() and set_output(transform="pandas") name the
        # n_components_ output columns sparsekpca0, sparsekpca1, ...
        self._n_features_out = self.n_components_
        self._n_fit = m

    def _set_chol(self, Kii):
        self._chol = cholesky_with_jitter(Kii, what="K[i,i]", fix="lower n_components")

    def _coordinates(self, X):
        if self.kernel == PRECOMPUTED:
            Kxi = X[:, self.indices_]
        else:
            Kxi = kernel_matrix(X, self.basis_, **self._kernel_params())
        return solve_triangular(self._chol, Kxi.T, lower=True, check_finite=False).T

    def _check_new(self, X):
        check_is_fitted(self)
        precheck_estimator_input(X, "X")
        X = named_validation("X", validate_data, self, X, dtype=float, reset=False)
        return check_array_data(X, "X")

    def transform(self, X):
        """Nystroem coordinates F, shape (n, n_components_), Eqs. (4)-(5)."""
        return self._coordinates(self._check_new(X))

    def residual_curve(self, X, *, diag=None):
        r"""Squared residuals with the first t basis vectors, t = 1..k, in one pass.

        Column t-1 holds :math:`\kappa(x,x) - K[x,i_{1:t}]K[i_{1:t},i_{1:t}]^{-1}K[i_{1:t},x]`.
        Because the Cholesky factor is triangular in choice order, these are
        :math:`\kappa(x,x)` minus the running sums of squared coordinates.

        Parameters
        ----------
        X : array of shape (n, n_features), or (n, m_train) with kernel="precomputed"
            The points, or their kernel values against the training points.
        diag : array of shape (n,), optional
            :math:`\kappa(x,x)` of each row. Required with ``kernel="precomputed"``
            (a row of K against the training points does not hold it; for the
            training kernel itself pass ``np.diag(K)``); ignored otherwise.
        """
        X = self._check_new(X)
        F = self._coordinates(X)
        if self.kernel == PRECOMPUTED:
            if diag is None:
                raise ValueError(
                    "With kernel='precomputed' the residuals need k(x, x) of each row, which "
                    "K(X, X_train) does not hold: pass diag= (np.diag(K) for the training K)."
                )
            diag = check_array_data(diag, "diag", ndim=1)
            if diag.shape != (X.shape[0],):
                raise ValueError(f"diag must have shape ({X.shape[0]},) to match X, "
                                 f"got {diag.shape}.")
        else:
            diag = kernel_diag(X, **self._kernel_params())
        return np.maximum(diag[:, None] - np.cumsum(F**2, axis=1), 0.0)

    def residuals(self, X, n_basis=None, *, diag=None):
        """Squared feature-space residuals using the first ``n_basis`` chosen indices.

        ``diag`` as in :meth:`residual_curve` (required with kernel="precomputed").
        """
        check_is_fitted(self)
        if n_basis is None:
            n_basis = self.n_components_
        n_basis = check_positive_int(n_basis, "n_basis", maximum=self.n_components_)
        return self.residual_curve(X, diag=diag)[:, n_basis - 1]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.kernel == PRECOMPUTED
        return tags
