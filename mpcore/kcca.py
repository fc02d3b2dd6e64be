r"""Sparse kernel canonical correlation analysis by matching pursuit.

Hussain & Shawe-Taylor [1]_, Section 4: choose the basis greedily, one paired
training point at a time, maximising

.. math:: \rho_i = \frac{e_i'K_xK_ye_i}{\sqrt{e_i'K_x^2e_i\; e_i'K_y^2e_i}},

the cosine between column i of the (deflated) :math:`K_x` and of
:math:`K_y`; after each choice deflate *both* kernels as in their Algorithm 1,

.. math:: K_x \leftarrow K_x - \frac{K_xe_ie_i'K_x}{e_i'K_xe_i},\qquad
          K_y \leftarrow K_y - \frac{K_ye_ie_i'K_y}{e_i'K_ye_i}.

The chosen indices span a sparse subspace in each feature space; the
training points' coordinates there are the Gram-Schmidt (incomplete Cholesky)
features :math:`F_x = K_x[:,i]L_x^{-T}`, :math:`L_xL_x' = K_x[i,i]`. Regularised
CCA (Shawe-Taylor & Cristianini [2]_, Computation 6.34, Section 6.5) is then
solved in those k-dimensional coordinates, centred on the training mean, as
the 2k x 2k generalised eigenproblem

.. math:: \begin{pmatrix}0 & C_{xy}\\ C_{yx} & 0\end{pmatrix}
          \begin{pmatrix}w_x\\ w_y\end{pmatrix}
          = \rho \begin{pmatrix}(1-\tau)C_{xx}+\tau I & 0\\ 0 & (1-\tau)C_{yy}+\tau I\end{pmatrix}
          \begin{pmatrix}w_x\\ w_y\end{pmatrix}

with ``scipy.linalg.eigh``. A new pair (x, y) needs only its kernel values
against the k chosen points.

Two choices the paper leaves open. The greedy step maximises the signed
quotient, as written in Section 4 (a deflated pair with a large negative
cosine is not preferred). The kernels are *not* centred before the greedy
choice, which keeps the solution sparse at test time (centring would make
every basis vector depend on all training points); CCA itself is run on the
subspace coordinates centred with the training mean, so the reported
correlations are ordinary (Pearson-type) canonical correlations.

References
----------
.. [1] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008.
.. [2] J. Shawe-Taylor, N. Cristianini. Kernel Methods for Pattern Analysis.
   Cambridge University Press, 2004.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral, Real
from typing import Iterator

import numpy as np
from scipy.linalg import solve_triangular
from sklearn.base import BaseEstimator
from sklearn.utils._param_validation import Interval, InvalidParameterError, StrOptions
from sklearn.utils.validation import check_array, check_is_fitted

import warnings

from sklearn.exceptions import ConvergenceWarning

from ._arguments import (
    KERNELS,
    MAX_ABS_VALUE,
    check_array_data,
    check_kernel_name,
    check_parameters,
    check_positive_float,
    check_positive_int,
    named_validation,
    precheck_estimator_input,
)
from ._validation import (
    DIAG_TOL,
    PSD_NEG_RATIO,
    check_psd_diag,
    check_psd_matrix,
    check_square_kernel,
)
from ._linalg import cholesky_with_jitter, pearson
from .cca import DEFAULT_REG, _cca, _check_reg, canonical_correlations
from .kernels import MAX_DEGREE, check_psd_kernel, kernel_matrix

__all__ = ["KCCAStep", "kcca_steps", "canonical_correlations", "SparseKCCA", "DEFAULT_REG"]

#: How the PSD refusals of this module name the method.
WHERE = "sparse KCCA"


@dataclass(frozen=True)
class KCCAStep:
    """One step of matching-pursuit sparse KCCA (Hussain & Shawe-Taylor, Section 4).

    Attributes
    ----------
    step : int
        1-based step number j.
    index : int
        The chosen training index i_j.
    quotients : ndarray of shape (m,)
        :math:`\\rho_i` of the deflated kernels *before* this step's deflation;
        NaN where i is already spanned in either view (residual diagonal
        <= tol * max diag of the original kernel).
    numerators : ndarray of shape (m,)
        :math:`e_i'K_xK_ye_i` (deflated, before this step), NaN where masked.
    residual_diag_x, residual_diag_y : ndarray of shape (m,)
        Diagonals of the deflated kernels *after* this step.
    trace_residual_x, trace_residual_y : float
        Their traces.
    correlation : float
        Leading regularised canonical correlation with the first ``step``
        basis vectors.
    variate_x, variate_y : ndarray of shape (m,)
        The training points' projections on that leading canonical pair
        (centred, unit variance), e.g. to plot one against the other.
    """

    step: int
    index: int
    quotients: np.ndarray
    numerators: np.ndarray
    residual_diag_x: np.ndarray
    residual_diag_y: np.ndarray
    trace_residual_x: float
    trace_residual_y: float
    correlation: float
    variate_x: np.ndarray
    variate_y: np.ndarray



def _check_pair(Kx, Ky):
    Kx = check_psd_diag(check_square_kernel(Kx, "Kx"), "Kx")
    Ky = check_psd_diag(check_square_kernel(Ky, "Ky"), "Ky")
    if Kx.shape != Ky.shape:
        raise ValueError(
            f"Kx {Kx.shape} and Ky {Ky.shape} must have the same size: the two views are "
            "paired, one row per training pair."
        )
    for K, name in ((Kx, "Kx"), (Ky, "Ky")):
        check_psd_matrix(K, name, WHERE)
    return Kx, Ky



def kcca_steps(Kx, Ky, n_basis, *, reg=DEFAULT_REG, tol=DIAG_TOL) -> Iterator[KCCAStep]:
    r"""Yield the steps of matching-pursuit sparse KCCA (Section 4 of [1]_).

    At each step choose

    .. math:: i = \arg\max_i \frac{e_i'\hat K_x\hat K_ye_i}
                                  {\sqrt{e_i'\hat K_x^2e_i\; e_i'\hat K_y^2e_i}}

    (ties to the lowest index, as ``numpy.nanargmax``), then deflate
    :math:`\hat K_x` and :math:`\hat K_y` by the projection onto
    :math:`\phi_x(x_i)` and :math:`\phi_y(y_i)` respectively, and solve the
    regularised CCA with the basis so far (for the ``correlation`` field).
    The deflated matrices are rewritten each step: O(m^2) time per step and
    2 m^2 memory.

    Parameters
    ----------
    Kx, Ky : arrays of shape (m, m)
        PSD kernel matrices of the two paired views.
    n_basis : int
        Maximum number of basis pairs k.
    reg : float in [0, 1)
        tau of Computation 6.34 for the per-step correlation.
    tol : float
        A residual diagonal at or below ``tol * max(diag K)`` counts as spanned.

    Yields
    ------
    step : KCCAStep
        One per step; fewer than ``n_basis`` once every point is spanned in a view.

    Raises
    ------
    ValueError
        If a kernel matrix is not PSD (negative diagonal, an entry breaking
        Cauchy-Schwarz, or a residual diagonal turning negative while deflating).

    References
    ----------
    .. [1] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008.
    """
    n_basis = check_positive_int(n_basis, "n_basis")
    reg = _check_reg(reg)
    tol = check_positive_float(tol, "tol", maximum=1.0)
    Kx, Ky = _check_pair(Kx, Ky)
    return _kcca_core(Kx, Ky, n_basis, reg, tol)


def _kcca_core(Kx, Ky, n_basis, reg, tol):
    m = Kx.shape[0]
    thr_x = tol * float(np.max(np.diag(Kx)))
    thr_y = tol * float(np.max(np.diag(Ky)))
    neg_x = -PSD_NEG_RATIO * float(np.max(np.diag(Kx)))
    neg_y = -PSD_NEG_RATIO * float(np.max(np.diag(Ky)))
    Hx, Hy = Kx.copy(), Ky.copy()  # deflated kernels
    k_max = min(n_basis, m)
    Gx, Gy = np.zeros((m, k_max)), np.zeros((m, k_max))  # Gram-Schmidt features
    for j in range(k_max):
        dx, dy = np.diag(Hx).copy(), np.diag(Hy).copy()
        if thr_x <= 0 or thr_y <= 0:
            return
        alive = np.flatnonzero((dx > thr_x) & (dy > thr_y))
        if alive.size == 0:
            return
        num = np.full(m, np.nan)
        quotients = np.full(m, np.nan)
        Hxa, Hya = Hx[:, alive], Hy[:, alive]
        # e_i' Kx Ky e_i = <Kx e_i, Ky e_i>;  e_i' K^2 e_i = ||K e_i||^2
        num[alive] = np.einsum("ij,ij->j", Hxa, Hya)
        sx = np.einsum("ij,ij->j", Hxa, Hxa)
        sy = np.einsum("ij,ij->j", Hya, Hya)
        quotients[alive] = num[alive] / np.sqrt(sx * sy)
        i = int(np.nanargmax(quotients))
        # deflation of both kernels (Hussain & Shawe-Taylor, Eq. 3, in each view)
        gx = Hx[:, i] / np.sqrt(dx[i])
        gy = Hy[:, i] / np.sqrt(dy[i])
        Hx -= np.outer(gx, gx)
        Hy -= np.outer(gy, gy)
        Hx[i, :] = Hx[:, i] = 0.0
        Hy[i, :] = Hy[:, i] = 0.0
        Gx[:, j], Gy[:, j] = gx, gy
        rx, ry = np.diag(Hx).copy(), np.diag(Hy).copy()
        if rx.min() < neg_x or ry.min() < neg_y:
            view = "Kx" if rx.min() < neg_x else "Ky"
            raise ValueError(
                f"{view} is not positive semi-definite: a residual diagonal became negative "
                "while deflating. Sparse KCCA needs a PSD kernel (rbf, laplacian, "
                "polynomial, linear or cosine)."
            )
        np.maximum(rx, 0.0, out=rx)
        np.maximum(ry, 0.0, out=ry)
        rho, Wx, Wy, mx, my = canonical_correlations(Gx[:, : j + 1], Gy[:, : j + 1], reg, 1)
        yield KCCAStep(
            step=j + 1,
            index=i,
            quotients=quotients,
            numerators=num,
            residual_diag_x=rx,
            residual_diag_y=ry,
            trace_residual_x=float(rx.sum()),
            trace_residual_y=float(ry.sum()),
            correlation=float(rho[0]),
            variate_x=(Gx[:, : j + 1] - mx) @ Wx[:, 0],
            variate_y=(Gy[:, : j + 1] - my) @ Wy[:, 0],
        )


class SparseKCCA(BaseEstimator):
    r"""Matching-pursuit sparse kernel CCA (Hussain & Shawe-Taylor, Section 4).

    Parameters
    ----------
    n_basis : int, default=10
        Number of basis pairs k chosen greedily.
    kernel_x, kernel_y : {"rbf", "laplacian", "polynomial", "linear", "cosine"}
        PSD kernels of the two views ("sigmoid" is refused).
    gamma_x, gamma_y : float or None
        Kernel widths (None: 1 / n_features of that view).
    reg : float in [0, 1), default=1e-3
        Regularisation tau of Computation 6.34 (Shawe-Taylor & Cristianini):
        each view's covariance is replaced by (1 - tau) C + tau I.
    n_components : int or None
        Number of canonical pairs kept (default: all, min over views of k).
    degree_x, degree_y, coef0_x, coef0_y
        Polynomial kernel parameters.
    tol : float
        Relative threshold below which a residual diagonal counts as spanned.

    Attributes
    ----------
    indices_ : ndarray of shape (n_basis_,)
        Chosen training indices, in order.
    quotients_ : ndarray of shape (n_basis_,)
        The quotient rho_i of each chosen index when it was chosen.
    correlations_ : ndarray of shape (n_components_,)
        Regularised canonical correlations in the sparse subspace, descending,
        clipped to [0, 1].
    regularised_quotients_ : ndarray of shape (n_components_,)
        The same before clipping: the eigenvalues of Computation 6.34, which can
        exceed 1 by up to a factor 1/(1 - reg) (the regularised denominator
        (1 - tau) w'Cw + tau w'w is smaller than w'Cw where C has eigenvalues > 1).
    correlation_path_ : ndarray of shape (n_basis_,)
        Leading canonical correlation with the first t basis pairs, t = 1..k.
    n_basis_ : int
        Number of basis pairs chosen (fewer than n_basis after an early stop).
    n_components_ : int
    basis_x_, basis_y_ : ndarrays
        The chosen training points of each view.
    weights_x_, weights_y_ : ndarrays of shape (n_basis_, n_components_)
        Canonical directions in the Gram-Schmidt coordinates.

    Notes
    -----
    ``transform(X, Y)`` maps each view with the kernel against the k chosen
    points only: :math:`F = K(X, x_i)L_x^{-T}`, centred with the training mean,
    times the canonical directions. The projections of the training data have
    zero mean and unit variance, and their pairwise Pearson correlations are
    close to ``correlations_`` for small ``reg``.
    """

    _parameter_constraints: dict = {
        "n_basis": [Interval(Integral, 1, None, closed="left")],
        # sigmoid is a kernel name, refused in fit with its own message (not PSD)
        "kernel_x": [StrOptions(set(KERNELS))],
        "kernel_y": [StrOptions(set(KERNELS))],
        "gamma_x": [Interval(Real, 0, MAX_ABS_VALUE, closed="right"), None],
        "gamma_y": [Interval(Real, 0, MAX_ABS_VALUE, closed="right"), None],
        "reg": [Interval(Real, 0, 1, closed="left")],
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        "degree_x": [Interval(Integral, 1, MAX_DEGREE, closed="both")],
        "degree_y": [Interval(Integral, 1, MAX_DEGREE, closed="both")],
        "coef0_x": [Interval(Real, -MAX_ABS_VALUE, MAX_ABS_VALUE, closed="both")],
        "coef0_y": [Interval(Real, -MAX_ABS_VALUE, MAX_ABS_VALUE, closed="both")],
        "tol": [Interval(Real, 0, 1, closed="right")],
    }

    def __init__(
        self, n_basis=10, *, kernel_x="rbf", kernel_y="rbf", gamma_x=None, gamma_y=None,
        reg=DEFAULT_REG, n_components=None, degree_x=3, degree_y=3, coef0_x=1.0, coef0_y=1.0,
        tol=DIAG_TOL,
    ):
        self.n_basis = n_basis
        self.kernel_x = kernel_x
        self.kernel_y = kernel_y
        self.gamma_x = gamma_x
        self.gamma_y = gamma_y
        self.reg = reg
        self.n_components = n_components
        self.degree_x = degree_x
        self.degree_y = degree_y
        self.coef0_x = coef0_x
        self.coef0_y = coef0_y
        self.tol = tol

    def _params(self, view):
        if view == "x":
            return dict(kernel=self.kernel_x, gamma=self.gamma_x_, degree=self.degree_x,
                        coef0=self.coef0_x)
        return dict(kernel=self.kernel_y, gamma=self.gamma_y_, degree=self.degree_y,
                    coef0=self.coef0_y)

    @staticmethod
    def _check_view(A, name, n_features=None, min_samples=2):
        precheck_estimator_input(A, name)
        A = named_validation(name, check_array, A, dtype=float, ensure_min_samples=min_samples,
                             input_name=name)
        A = check_array_data(A, name)
        if n_features is not None and A.shape[1] != n_features:
            raise ValueError(
                f"{name} has {A.shape[1]} features, but SparseKCCA was fitted with {n_features}."
            )
        return A

    def fit(self, X, Y):
        """Choose the basis greedily and solve regularised CCA in its span.

        Parameters
        ----------
        X : array of shape (m, d_x)
            First view.
        Y : array of shape (m, d_y)
            Second view, paired row by row with X.
        """
        try:  # first: its message says what tau mixes
            reg = _check_reg(self.reg)
        except (TypeError, ValueError) as exc:
            raise InvalidParameterError(str(exc)) from None
        check_parameters(self)
        for kernel, name in ((self.kernel_x, "kernel_x"), (self.kernel_y, "kernel_y")):
            check_kernel_name(kernel, allow_non_psd=False, where=WHERE, name=name)
        n_basis, tol = int(self.n_basis), float(self.tol)
        X = self._check_view(X, "X")
        Y = self._check_view(Y, "Y")
        if X.shape[0] != Y.shape[0]:
            raise ValueError(
                f"X has {X.shape[0]} rows and Y has {Y.shape[0]}: the views must be paired "
                "(one row per sample in each)."
            )
        self.gamma_x_ = check_positive_float(self.gamma_x, "gamma_x", allow_none=True)
        self.gamma_y_ = check_positive_float(self.gamma_y, "gamma_y", allow_none=True)
        if self.gamma_x_ is None:
            self.gamma_x_ = 1.0 / X.shape[1]
        if self.gamma_y_ is None:
            self.gamma_y_ = 1.0 / Y.shape[1]
        Kx = kernel_matrix(X, **self._params("x"))
        Ky = kernel_matrix(Y, **self._params("y"))
        for K, view in ((Kx, "x"), (Ky, "y")):
            check_psd_kernel(**self._params(view), K=K, where=f"sparse KCCA (view {view.upper()}, "
                             f"kernel_{view})")
        indices, quotients, path = [], [], []
        for s in _kcca_core(Kx, Ky, n_basis, reg, tol):
            indices.append(s.index)
            quotients.append(s.quotients[s.index])
            path.append(s.correlation)
        if not indices:
            zero = [f"{v} (kernel_{v.lower()}={k!r})" for v, K, k in
                    (("X", Kx, self.kernel_x), ("Y", Ky, self.kernel_y))
                    if not np.max(np.diag(K)) > 0]
            if not zero:
                raise ValueError(
                    "No pair has a non-zero feature vector in both views X and Y, so no point "
                    "can be chosen. Check the data and the kernel parameters (kernel_x, "
                    "kernel_y)."
                )
            raise ValueError(
                f"The kernel matrix of {' and '.join(zero)} is (numerically) zero, "
                "so no point can be chosen: every point has a zero feature vector (e.g. a "
                "linear or polynomial kernel of all-zero data). Check the data and the kernel "
                "parameters."
            )
        k = len(indices)
        n_components = k if self.n_components is None else check_positive_int(
            self.n_components, "n_components")
        self.indices_ = np.asarray(indices, dtype=int)
        self.quotients_ = np.asarray(quotients)
        self.correlation_path_ = np.asarray(path)
        self.n_basis_ = k
        self.n_components_ = min(n_components, k)
        if k < n_basis:
            m = X.shape[0]
            why = (f"the training set has only m = {m} pairs" if n_basis > m and k == m else
                   f"after {k} steps every remaining pair is spanned (residual diagonal at most "
                   f"tol = {tol:g} times the largest) in one view: its kernel matrix has "
                   f"numerical rank {k}")
            warnings.warn(f"SparseKCCA chose {k} of n_basis = {n_basis} basis pairs: {why}. "
                          f"n_basis_ = {k}; set n_basis <= {k} to silence this warning.",
                          ConvergenceWarning, stacklevel=2)
        self.n_features_in_ = X.shape[1]
        self.n_features_y_ = Y.shape[1]
        self.basis_x_ = X[self.indices_].copy()
        self.basis_y_ = Y[self.indices_].copy()
        # Cholesky factors of K[i,i] in choice order: the Gram-Schmidt features
        self._chol_x = cholesky_with_jitter(Kx[np.ix_(self.indices_, self.indices_)],
                                            what="Kx[i,i]", fix="lower n_basis")
        self._chol_y = cholesky_with_jitter(Ky[np.ix_(self.indices_, self.indices_)],
                                            what="Ky[i,i]", fix="lower n_basis")
        Fx = self._features(Kx[:, self.indices_], self._chol_x)
        Fy = self._features(Ky[:, self.indices_], self._chol_y)
        rho, Wx, Wy, mx, my = _cca(Fx, Fy, reg, self.n_components_)
        self.regularised_quotients_ = rho
        self.correlations_ = np.minimum(rho, 1.0)
        self.weights_x_, self.weights_y_ = Wx, Wy
        self.mean_x_, self.mean_y_ = mx, my
        return self

    @staticmethod
    def _features(K_cols, chol):
        return solve_triangular(chol, K_cols.T, lower=True, check_finite=False).T

    def transform(self, X, Y):
        """Canonical variates of each view.

        Parameters
        ----------
        X : array of shape (n, d_x)
        Y : array of shape (n, d_y)
            The two views of the same n pairs (Y may have different n: the
            views are mapped separately).

        Returns
        -------
        U : ndarray of shape (n, n_components_)
        V : ndarray of shape (n, n_components_)
        """
        check_is_fitted(self)
        X = self._check_view(X, "X", min_samples=1)
        Y = self._check_view(Y, "Y", min_samples=1)
        for A, name, d in ((X, "X", self.n_features_in_), (Y, "Y", self.n_features_y_)):
            if A.shape[1] != d:
                raise ValueError(f"{name} has {A.shape[1]} features, but SparseKCCA was fitted with {d}.")
        Fx = self._features(kernel_matrix(X, self.basis_x_, **self._params("x")), self._chol_x)
        Fy = self._features(kernel_matrix(Y, self.basis_y_, **self._params("y")), self._chol_y)
        return (Fx - self.mean_x_) @ self.weights_x_, (Fy - self.mean_y_) @ self.weights_y_

    def fit_transform(self, X, Y):
        """``fit(X, Y).transform(X, Y)``."""
        return self.fit(X, Y).transform(X, Y)

    def score(self, X, Y):
        """Pearson correlation of the leading canonical pair on (X, Y).

        X and Y are paired row by row (unlike :meth:`transform`, which maps each
        view alone): they must hold the same number of rows.
        """
        U, V = self.transform(X, Y)
        if U.shape[0] != V.shape[0]:
            raise ValueError(
                f"score(X, Y): X has {U.shape[0]} rows and Y has {V.shape[0]}: the views must "
                "be paired (one row per sample in each) to be correlated."
            )
        return pearson(U[:, 0], V[:, 0])
