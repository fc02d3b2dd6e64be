r"""Kernel matching pursuit regression (Vincent & Bengio, 2002, Sections 2 and 4.1).

:class:`KMPRegressor`: the squared loss, the three fittings of Section 2, and early
stopping on a validation set (Section 5.3) or at the minimum of Hussain &
Shawe-Taylor's Theorem 3 bound.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import RegressorMixin

from .._losses import LOSSES
from .._arguments import check_array_data
from ._base import PURSUIT_ATTRIBUTES, KMPPursuit, _BaseKMP

__all__ = ["KMPRegressor"]


class KMPRegressor(RegressorMixin, _BaseKMP):
    r"""Kernel matching pursuit regression (Vincent & Bengio, 2002).

    The model is :math:`f(x) = b + \sum_n \alpha_n K(x, x_{\gamma_n})` (Eq. 14),
    built greedily by :func:`kmp_steps`.

    Parameters
    ----------
    n_basis : int, default=10
        Number of steps N (basis functions; at most the number of training points).
    kernel : str, dict or list, default="rbf"
        "rbf", "laplacian", "polynomial", "linear", "cosine" or "sigmoid" (KMP
        does not need a PSD kernel), or a list of specifications for a mixed
        dictionary, e.g. ``[{"kernel": "rbf", "gamma": 0.5}, {"kernel": "rbf",
        "gamma": 5}]`` (Section 4.1): every training point offers one column per
        specification. See :func:`normalize_kernel_specs`. "precomputed" (as
        in scikit-learn's SVC): ``fit`` takes the training kernel matrix
        K(X_train, X_train) of shape (n, n), ``predict`` takes K(X, X_train)
        of shape (n_new, n); the fit is that of the kernel K came from
        (``support_vectors_`` then holds rows of K).
    gamma, degree, coef0 :
        Kernel parameters (defaults for keys a specification leaves out); gamma
        None means ``1 / n_features``.
    fitting : {"basic", "backfit", "prefit"}, default="prefit"
        Fig. 1, Eq. (6) (orthogonal MP) or Fig. 3 / Eq. (7).
    loss : {"squared"}, default="squared"
        The margin losses need labels: use KMPClassifier.
    backfit_every : int, default=1
        Non-squared losses: full back-fit (Eq. 11) every p steps.
    fit_intercept : bool, default=True
        Put the constant function in the dictionary (Section 4.1). It is chosen
        greedily like the others; its weight is ``intercept_``.
    n_candidates : int or None, default=None
        Centre the kernels on this many random training points only.
    random_state : int, RandomState or None
        Seeds the candidates and the validation split.
    early_stopping : {None, "validation", "bound"}, default=None
        "validation": hold out ``validation_fraction`` of the data, run
        ``n_basis`` steps on the rest and keep the number of basis functions
        with the lowest held-out error (Vincent & Bengio, Section 5.3).
        "bound": keep the number that minimises the Theorem 3 bound of Hussain
        & Shawe-Taylor (the automated procedure proposed after their Fig. 2).
    validation_fraction : float in (0, 1), default=0.2
    alpha : float or None
        Theorem 3 threshold: t counts training points outside the basis whose
        absolute error exceeds alpha. None uses ``ALPHA_STD_FACTOR * std(y)``
        (a quarter of a standard deviation of the training targets).
    delta : float in (0, 1), default=0.05
        Confidence of the bound.

    Attributes
    ----------
    basis_indices_ : ndarray of shape (n_basis_,)
        Row of the X given to ``fit`` chosen at each kept step, -1 for the
        constant function (basic MP may repeat an index); with
        ``early_stopping="validation"`` too, so ``X[basis_indices_[basis_indices_ >= 0]]``
        equals ``support_vectors_``.
    basis_kernels_ : ndarray of shape (n_basis_,)
        Index into ``kernel_specs_`` of each step's kernel, -1 for the constant.
    kernel_specs_ : tuple of KernelSpec
        ``kernel_specs_[j].label`` names specification j.
    support_vectors_ : ndarray of shape (n_sv, n_features)
        The rows of X of the steps with ``basis_indices_ >= 0``, in order.
    coef_ : ndarray of shape (n_sv,)
        Final weights, aligned with ``support_vectors_``.
    intercept_ : float
        Weight of the constant function (0.0 if never chosen).
    coef_path_ : ndarray of shape (n_basis_, n_basis_)
        Row i: the weight of each step's function after step i+1 (zero right
        of the diagonal), constant included; what ``staged_predict`` uses.
    n_basis_ : int
        Number of kept steps (fewer than ``n_basis`` after early stopping).
    train_loss_ : ndarray of shape (n_steps,)
        Mean training loss after every step run (all ``n_basis`` steps, also
        with early stopping, so the curve can be plotted past the stop).
    bound_ : ndarray of shape (n_steps,)
        :func:`mpcore.bounds.kmp_bound` after every step run (m = training
        points used for fitting, k = distinct basis functions, the constant
        included, which only loosens the bound).
    n_errors_ : ndarray of shape (n_steps,)
        Theorem 3's t after every step run.
    validation_error_ : ndarray of shape (n_steps,) or None
        Held-out error after every step with ``early_stopping="validation"``.
    step_seconds_ : ndarray of shape (n_steps,)
        Wall time of every step run (the first includes the pursuit's set-up).
    alpha_ : float or None
        The threshold the bound used.
    dictionary_seconds_ : float
        Wall time of evaluating the dictionary on the training points.

    See Also
    --------
    kmp_steps : the generator ``fit`` consumes.
    KMPClassifier

    References
    ----------
    .. [1] P. Vincent, Y. Bengio. Kernel matching pursuit. Machine Learning 48, 2002.
    .. [2] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.linspace(0, 6, 80).reshape(-1, 1)
    >>> model = KMPRegressor(n_basis=8, gamma=2.0).fit(X, np.sin(X[:, 0]))
    >>> model.n_basis_
    8
    """

    def _check_loss(self):
        if self.loss != "squared":
            if isinstance(self.loss, str) and self.loss in LOSSES:
                raise ValueError(
                    f"loss={self.loss!r} is a classification (margin) loss; KMPRegressor "
                    "supports loss='squared'. Use KMPClassifier for margin losses."
                )
            raise ValueError(f"Unknown loss {self.loss!r}. KMPRegressor supports loss='squared'.")

    def fit(self, X, y):
        """Fit by kernel matching pursuit.

        Parameters
        ----------
        X : array of shape (n_samples, n_features)
        y : array of shape (n_samples,)

        Returns
        -------
        self
        """
        X, y = self._validate_fit(X, y, y_numeric=True)
        y = check_array_data(y, "y", ndim=1)
        fit_idx, dictionary, (path,) = self._fit_paths(X, [np.asarray(y, dtype=float)], margin=False)
        fitted = self._path_attributes(X, fit_idx, dictionary, path)
        for name in PURSUIT_ATTRIBUTES:
            setattr(self, name, getattr(fitted, name))
        return self

    def _pursuits(self):
        return [KMPPursuit(**{name: getattr(self, name) for name in PURSUIT_ATTRIBUTES})]

    def predict(self, X):
        """Predict :math:`f(x) = b + \\sum_j c_j K(x, s_j)`.

        Returns
        -------
        y : ndarray of shape (n_samples,)
        """
        X = self._validate_new(X)
        return self._final(X, self._pursuits()[0])

    def staged_predict(self, X):
        """Predictions after each step, as in ``GradientBoostingRegressor.staged_predict``.

        Parameters
        ----------
        X : array of shape (n_samples, n_features)

        Yields
        ------
        y : ndarray of shape (n_samples,)
            The prediction of the model with the first i basis functions (and
            the weights they had after step i), i = 1..n_basis_; the last equals
            :meth:`predict`.
        """
        X = self._validate_new(X)
        yield from self._staged(X, self._pursuits()[0])
