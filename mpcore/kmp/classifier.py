r"""Kernel matching pursuit classification (Vincent & Bengio, 2002, Sections 3 and 5).

:class:`KMPClassifier`: labels mapped to -1/+1 (one pursuit per class one-vs-rest
beyond two classes), the squared loss (KMP-mse) or a margin loss of Section 3
(KMP-tanh and the others of Fig. 5).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from .._arguments import named_validation
from ._base import _BaseKMP

__all__ = ["KMPClassifier"]


class KMPClassifier(ClassifierMixin, _BaseKMP):
    r"""Kernel matching pursuit classification (Vincent & Bengio, 2002).

    Binary labels map to -1 (``classes_[0]``) and +1 (``classes_[1]``) and the
    sign of :math:`f` decides; more classes are fitted one-vs-rest, one pursuit
    per class, and the largest decision value wins. With the squared loss this
    is KMP-mse of the paper; ``loss="tanh"`` is KMP-tanh. With
    ``early_stopping="validation"`` the held-out error is the misclassification rate.

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
    loss : {"squared", "tanh", "logistic", "exponential", "margin_tanh"}
        See :mod:`mpcore._losses`.
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
        absolute error exceeds alpha. None: t counts the misclassified training points
        outside the basis (margin y f <= 0); a number: ``|f - y| > alpha`` on
        the +-1 targets.
    delta : float in (0, 1), default=0.05
        Confidence of the bound.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
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

    estimators_ : list of KMPPursuit
        The fitted pursuits, always a list: one entry for two classes (the
        pursuit of ``classes_[1]`` against ``classes_[0]``), one per class
        otherwise (class c against the rest). Each entry has every per-pursuit
        attribute above, with the shapes described.

    The per-pursuit attributes above (``basis_indices_`` ... ``validation_error_``)
    are also read on the classifier itself when there is one pursuit (two
    classes); with more classes they raise AttributeError naming
    ``estimators_[c]``: their shapes never depend on the number of classes.
    :func:`pursuit` picks a pursuit of either estimator.

    See Also
    --------
    kmp_steps : the generator ``fit`` consumes.
    KMPRegressor

    References
    ----------
    .. [1] P. Vincent, Y. Bengio. Kernel matching pursuit. Machine Learning 48, 2002.
    .. [2] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008.

    Examples
    --------
    >>> from sklearn.datasets import make_moons
    >>> X, y = make_moons(200, noise=0.1, random_state=0)
    >>> clf = KMPClassifier(n_basis=20, gamma=2.0).fit(X, y)
    >>> clf.score(X, y) > 0.95
    True
    """

    def fit(self, X, y):
        """Fit one pursuit (binary) or one per class (one-vs-rest).

        Parameters
        ----------
        X : array of shape (n_samples, n_features)
        y : array of shape (n_samples,)
            Class labels.

        Returns
        -------
        self
        """
        X, y = self._validate_fit(X, y)
        named_validation("y", check_classification_targets, y)
        self.classes_, y_enc = np.unique(y, return_inverse=True)
        n_classes = self.classes_.size
        if n_classes < 2:
            raise ValueError(
                f"KMPClassifier needs at least two classes, but y has only one class "
                f"({self.classes_[0]!r})."
            )
        if n_classes == 2:
            targets = [np.where(y_enc == 1, 1.0, -1.0)]
        else:
            targets = [np.where(y_enc == c, 1.0, -1.0) for c in range(n_classes)]
        fit_idx, dictionary, paths = self._fit_paths(X, targets, margin=True, labels=y_enc)
        self.estimators_ = [self._path_attributes(X, fit_idx, dictionary, p) for p in paths]
        return self

    def _pursuits(self):
        return self.estimators_

    def _single(self, name):
        check_is_fitted(self)
        if len(self.estimators_) > 1:
            raise AttributeError(
                f"{name} belongs to one pursuit, and this one-vs-rest fit has one per class: "
                f"read estimators_[c].{name} (or mpcore.kmp.pursuit(model, c).{name})."
            )
        return getattr(self.estimators_[0], name)

    # The pursuit's attributes, for a two-class fit (one pursuit).
    basis_indices_ = property(lambda self: self._single("basis_indices_"))
    basis_kernels_ = property(lambda self: self._single("basis_kernels_"))
    support_vectors_ = property(lambda self: self._single("support_vectors_"))
    coef_ = property(lambda self: self._single("coef_"))
    intercept_ = property(lambda self: self._single("intercept_"))
    coef_path_ = property(lambda self: self._single("coef_path_"))
    n_basis_ = property(lambda self: self._single("n_basis_"))
    train_loss_ = property(lambda self: self._single("train_loss_"))
    n_errors_ = property(lambda self: self._single("n_errors_"))
    bound_ = property(lambda self: self._single("bound_"))
    validation_error_ = property(lambda self: self._single("validation_error_"))
    step_seconds_ = property(lambda self: self._single("step_seconds_"))

    def decision_function(self, X):
        """Decision values f(x): shape (n_samples,) for two classes (positive means
        ``classes_[1]``), (n_samples, n_classes) one-vs-rest otherwise."""
        X = self._validate_new(X)
        values = [self._final(X, p) for p in self.estimators_]
        return values[0] if len(values) == 1 else np.column_stack(values)

    def _labels(self, dec):
        if dec.ndim == 1:
            return self.classes_[(dec > 0).astype(int)]
        return self.classes_[np.argmax(dec, axis=1)]

    def predict(self, X):
        """Class labels: the sign of f (two classes) or the largest f (one-vs-rest)."""
        return self._labels(self.decision_function(X))

    def staged_decision_function(self, X):
        """Decision values after each step.

        Yields
        ------
        dec : ndarray of shape (n_samples,) or (n_samples, n_classes)
            After step i = 1..max(n_basis_); with one-vs-rest, a class whose
            path is shorter keeps its final function. The last equals
            :meth:`decision_function`.
        """
        X = self._validate_new(X)
        gens = [self._staged(X, p) for p in self.estimators_]
        lengths = [p.n_basis_ for p in self.estimators_]
        current = [np.zeros(X.shape[0]) for _ in gens]
        for i in range(max(lengths)):
            for c, gen in enumerate(gens):
                if i < lengths[c]:
                    current[c] = next(gen)
            yield current[0].copy() if len(gens) == 1 else np.column_stack(current)

    def staged_predict(self, X):
        """Class labels after each step (see :meth:`staged_decision_function`).

        Yields
        ------
        y : ndarray of shape (n_samples,)
        """
        for dec in self.staged_decision_function(X):
            yield self._labels(dec)
