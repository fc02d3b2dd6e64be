r"""What the two KMP estimators share: parameters, validation, fitting and prediction
(Vincent & Bengio, Sections 2-5; Hussain & Shawe-Taylor, Theorem 3).

``fit`` splits off a validation set when asked (Vincent & Bengio, Section 5.3), builds
the dictionary (:mod:`mpcore.kmp.dictionary`), runs :func:`mpcore.kmp.kmp_steps` once per
target and keeps, per target, a :class:`KMPPursuit`: the kept steps' basis and weights,
and the curves of every step run (training loss, Theorem 3's bound, held-out error).
Early stopping keeps the steps up to the lowest held-out error or the bound's minimum
(the automated training procedure Hussain & Shawe-Taylor propose after their Figure 2).
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.model_selection import train_test_split
from sklearn.utils._param_validation import Interval, InvalidParameterError, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from .._losses import LOSSES, Loss, get_loss
from .._arguments import (
    KERNELS,
    MAX_ABS_VALUE,
    MAX_STEPS,
    _short,
    check_array_data,
    check_kernel_size,
    check_parameters,
    check_random_state_arg,
    named_validation,
    precheck_estimator_input,
)
from ..kernels import MAX_DEGREE, kernel_matrix
from .dictionary import KMPDictionary, _draw_candidates, kmp_dictionary
from .specs import PRECOMPUTED, KernelSpec, check_kernel_argument, normalize_kernel_specs
from .steps import FITTINGS, kmp_steps

__all__ = ["KMPPursuit", "PURSUIT_ATTRIBUTES", "EARLY_STOPPING", "ALPHA_STD_FACTOR"]

#: Early-stopping rules.
EARLY_STOPPING = (None, "validation", "bound")

#: Default regression threshold of the Theorem 3 bound: alpha = ALPHA_STD_FACTOR * std(y).
#: A training point "errs" when its prediction misses by more than a quarter of a
#: standard deviation of the targets. On Boston housing (450 training points,
#: standardised features, gamma = 0.1, prefit) the bound's minimum then falls at
#: 14-21 basis functions over four splits, in the range of the 17 of Hussain &
#: Shawe-Taylor's Figure 2; a larger factor stops earlier, a smaller one later.
ALPHA_STD_FACTOR = 0.25


@dataclass(frozen=True)
class _Path:
    """What an estimator keeps of one run of :func:`kmp_steps` (one target)."""

    columns: np.ndarray  # dictionary column per kept step
    coef_path: np.ndarray  # (k, k) weights after each kept step
    train_loss: np.ndarray  # per step run
    n_errors: np.ndarray
    bound: np.ndarray
    validation_error: np.ndarray | None
    seconds: np.ndarray  # wall time of each step run


def _timed(steps):
    """Yield (step, seconds spent producing it) from a step generator."""
    it = iter(steps)
    while True:
        t0 = time.perf_counter()
        try:
            s = next(it)
        except StopIteration:
            return
        yield s, time.perf_counter() - t0


def _argmin_first(curve):
    return int(np.argmin(curve)) + 1


@dataclass(frozen=True, eq=False)
class KMPPursuit:
    """One fitted pursuit: what :class:`KMPRegressor` holds as its own attributes,
    and each entry of :attr:`KMPClassifier.estimators_` holds for one class.

    The attribute names and shapes are those of the estimators (see
    :class:`KMPRegressor`); the trailing underscores keep them the same.

    Attributes
    ----------
    basis_indices_ : ndarray of shape (n_basis_,)
        Row of the X given to ``fit`` chosen at each kept step, -1 for the constant.
    basis_kernels_ : ndarray of shape (n_basis_,)
        Index into ``kernel_specs_`` of each step's kernel, -1 for the constant.
    support_vectors_ : ndarray of shape (n_sv, n_features)
        The rows of X of the steps with ``basis_indices_ >= 0``, in order.
    coef_ : ndarray of shape (n_sv,)
        Final weights, aligned with ``support_vectors_``.
    intercept_ : float
        Weight of the constant function (0.0 if never chosen).
    coef_path_ : ndarray of shape (n_basis_, n_basis_)
        Row i: the weight of each step's function after step i+1.
    n_basis_ : int
        Number of kept steps.
    train_loss_, n_errors_, bound_ : ndarrays of shape (n_steps,)
        Training loss, Theorem 3's t and the Theorem 3 bound after every step run.
    validation_error_ : ndarray of shape (n_steps,) or None
        Held-out error after every step with ``early_stopping="validation"``.
    step_seconds_ : ndarray of shape (n_steps,)
        Wall time of every step run (the first includes the pursuit's set-up).
    """

    basis_indices_: np.ndarray
    basis_kernels_: np.ndarray
    support_vectors_: np.ndarray
    coef_: np.ndarray
    intercept_: float
    coef_path_: np.ndarray
    n_basis_: int
    train_loss_: np.ndarray
    n_errors_: np.ndarray
    bound_: np.ndarray
    validation_error_: np.ndarray | None
    step_seconds_: np.ndarray


#: The per-pursuit fitted attributes (the fields of :class:`KMPPursuit`).
PURSUIT_ATTRIBUTES = tuple(KMPPursuit.__dataclass_fields__)


class _BaseKMP(BaseEstimator):
    """Parameters, validation and prediction shared by the two estimators."""

    _parameter_constraints: dict = {
        "n_basis": [Interval(Integral, 1, MAX_STEPS, closed="both")],
        # a name, one specification or a list of them (normalize_kernel_specs checks inside)
        "kernel": [StrOptions(set(KERNELS) | {PRECOMPUTED}), dict, list, tuple, KernelSpec],
        "gamma": [Interval(Real, 0, MAX_ABS_VALUE, closed="right"), None],
        "degree": [Interval(Integral, 1, MAX_DEGREE, closed="both")],
        "coef0": [Interval(Real, -MAX_ABS_VALUE, MAX_ABS_VALUE, closed="both")],
        "fitting": [StrOptions(set(FITTINGS))],
        # every loss name; KMPRegressor refuses the margin losses in fit, naming KMPClassifier
        "loss": [StrOptions(set(LOSSES)), Loss],
        "backfit_every": [Interval(Integral, 1, None, closed="left")],
        "fit_intercept": ["boolean"],
        "n_candidates": [Interval(Integral, 1, None, closed="left"), None],
        "random_state": ["random_state", np.random.Generator],
        "early_stopping": [StrOptions({"validation", "bound"}), None],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "alpha": [Interval(Real, 0, None, closed="neither"), None],
        "delta": [Interval(Real, 0, 1, closed="neither")],
    }

    def __init__(
        self, n_basis=10, *, kernel="rbf", gamma=None, degree=3, coef0=1.0, fitting="prefit",
        loss="squared", backfit_every=1, fit_intercept=True, n_candidates=None,
        random_state=None, early_stopping=None, validation_fraction=0.2, alpha=None,
        delta=0.05,
    ):
        self.n_basis = n_basis
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.fitting = fitting
        self.loss = loss
        self.backfit_every = backfit_every
        self.fit_intercept = fit_intercept
        self.n_candidates = n_candidates
        self.random_state = random_state
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.alpha = alpha
        self.delta = delta

    # ---- validation ----------------------------------------------------------------
    def _validate_fit(self, X, y, **kwargs):
        precheck_estimator_input(X, "X")
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the target y "
                             "is None: pass the targets (one per row of X).")
        if isinstance(y, (str, bytes)):
            raise TypeError(f"y must be an array of targets, got the string {_short(y)}.")
        if kwargs.get("y_numeric"):
            precheck_estimator_input(y, "y")
        X, y = named_validation("X", validate_data, self, X, y, others=("y",), dtype=float,
                                **kwargs)
        return check_array_data(X, "X"), y

    def _validate_new(self, X):
        check_is_fitted(self)
        precheck_estimator_input(X, "X")
        X = named_validation("X", validate_data, self, X, dtype=float, reset=False)
        return check_array_data(X, "X")

    def _check_params(self, n_features):
        try:  # first: KMPRegressor's message names KMPClassifier
            self._check_loss()
        except ValueError as exc:
            raise InvalidParameterError(str(exc)) from None
        try:  # before the constraint table, whose message for a set names no fix
            check_kernel_argument(self.kernel)
        except (TypeError, ValueError) as exc:
            raise InvalidParameterError(str(exc)) from None
        check_parameters(self)
        if isinstance(self.kernel, str) and self.kernel == PRECOMPUTED:
            return (KernelSpec(PRECOMPUTED),)
        return normalize_kernel_specs(
            self.kernel, gamma=self.gamma, degree=self.degree, coef0=self.coef0,
            n_features=n_features,
        )

    def _check_loss(self):
        get_loss(self.loss)

    def _check_n_basis(self, l):
        if self.n_basis > l:
            raise ValueError(
                f"n_basis={self.n_basis} exceeds the number of training points "
                f"(n_samples={l}"
                + (" after holding out the validation set"
                   if self.early_stopping == "validation" else "")
                + "): lower n_basis or give more data."
            )

    # ---- fitting -------------------------------------------------------------------
    def _split(self, n, rng, labels):
        """Training and validation indices (stratified by ``labels`` when possible)."""
        if self.early_stopping != "validation":
            return np.arange(n), None
        n_val = int(np.ceil(self.validation_fraction * n))
        if n_val < 1 or n - n_val < 1:
            raise ValueError(
                f"validation_fraction={self.validation_fraction} leaves no point on one side "
                f"of the split of n_samples={n}; change it or give more data."
            )
        stratify = None
        if labels is not None:
            n_classes = np.unique(labels).size
            if np.bincount(labels).min() >= 2 and min(n_val, n - n_val) >= n_classes:
                stratify = labels
        fit_idx, val_idx = train_test_split(
            np.arange(n), test_size=n_val, random_state=rng, stratify=stratify
        )
        return np.sort(fit_idx), np.sort(val_idx)

    def _setup(self, X, first_target, *, margin, labels=None):
        """Split, dictionary and Theorem 3 settings of a fit (no attribute is set).

        Returns dict(specs, fit_idx, val_idx, dictionary, D, V, alpha, error, seconds).
        """
        specs = self._check_params(X.shape[1])
        n = X.shape[0]
        if n < 2:
            raise ValueError(f"KMP needs at least 2 training points, got n_samples={n}.")
        rng = check_random_state_arg(self.random_state)
        fit_idx, val_idx = self._split(n, rng, labels)
        self._check_n_basis(fit_idx.size)
        X_fit = X[fit_idx]
        n_dict = len(specs) * (fit_idx.size if self.n_candidates is None
                               else min(self.n_candidates, fit_idx.size))
        check_kernel_size(fit_idx.size, n_dict, "KMP dictionary")
        if self._precomputed():
            if X.shape[0] != X.shape[1]:
                raise ValueError(
                    f"With kernel='precomputed', X must be the square training kernel matrix "
                    f"K(X_train, X_train), got shape {X.shape}."
                )
            candidates = _draw_candidates(fit_idx.size, self.n_candidates, rng)
            dictionary = KMPDictionary(X_fit[candidates].copy(), candidates, specs,
                                       bool(self.fit_intercept), columns=fit_idx[candidates])
        else:
            dictionary = kmp_dictionary(
                X_fit, kernel=specs, fit_intercept=self.fit_intercept,
                n_candidates=self.n_candidates, random_state=rng,
            )
        t0 = time.perf_counter()
        D = dictionary.evaluate(X_fit)
        seconds = time.perf_counter() - t0
        V = dictionary.evaluate(X[val_idx]) if val_idx is not None else None
        error = "margin" if margin and self.alpha is None else "absolute"
        alpha = self.alpha
        if alpha is None and not margin:
            # Default regression threshold of Theorem 3 (see ALPHA_STD_FACTOR).
            alpha = ALPHA_STD_FACTOR * float(np.std(first_target[fit_idx])) or None
        return dict(specs=specs, fit_idx=fit_idx, val_idx=val_idx, dictionary=dictionary, D=D,
                    V=V, alpha=alpha, error=error, seconds=seconds)

    def _fit_paths(self, X, targets, *, margin, labels=None):
        """Run :func:`kmp_steps` once per target; return the fit rows of X, dictionary, paths."""
        su = self._setup(X, targets[0], margin=margin, labels=labels)
        fit_idx, val_idx, dictionary = su["fit_idx"], su["val_idx"], su["dictionary"]
        self.dictionary_seconds_ = su["seconds"]
        paths = []
        for t in targets:
            y_fit = t[fit_idx]
            if margin and np.unique(y_fit).size < 2:
                raise ValueError(
                    "After holding out the validation set the training part has only one "
                    "class for a target; lower validation_fraction or give more data."
                )
            y_val = t[val_idx] if val_idx is not None else None
            paths.append(self._run(su["D"], y_fit, dictionary, su["alpha"], su["error"], su["V"],
                                   y_val, margin))
        self.kernel_specs_ = su["specs"]
        self.alpha_ = su["alpha"]
        return fit_idx, dictionary, paths

    def _steps(self, D, y, dictionary, alpha, error):
        """The :func:`kmp_steps` generator of one target, as ``fit`` runs it."""
        return kmp_steps(
            D, y, self.n_basis, fitting=self.fitting, loss=self.loss,
            backfit_every=self.backfit_every, train_index=dictionary.train_index,
            kernel_index=dictionary.kernel_index, alpha=alpha, delta=self.delta, error=error,
        )

    def _run(self, D, y, dictionary, alpha, error, V, y_val, margin):
        steps = self._steps(D, y, dictionary, alpha, error)
        columns, coefs, losses, n_errors, bounds, val, seconds = [], [], [], [], [], [], []
        for s, sec in _timed(steps):
            seconds.append(sec)
            columns.append(s.index)
            coefs.append(s.coef)
            losses.append(s.train_loss)
            n_errors.append(s.n_errors)
            bounds.append(s.bound)
            if V is not None:
                pred = V[:, s.basis] @ s.coef
                if margin:  # misclassification rate, with predict's rule: f > 0 means +1
                    val.append(np.mean(np.where(pred > 0, 1.0, -1.0) != y_val))
                else:
                    val.append(np.mean((pred - y_val) ** 2))
        k = len(columns)
        if k and self.early_stopping == "validation":
            k = _argmin_first(val)  # the paper's early stopping: lowest held-out error
        elif k and self.early_stopping == "bound":
            if np.all(np.isinf(bounds)) or np.all(np.isnan(bounds)):
                warnings.warn(
                    "The Theorem 3 bound is infinite at every step (m - k - t <= 0): "
                    "keeping every step. Raise alpha or give more data.",
                    UserWarning, stacklevel=4,
                )
            else:
                k = _argmin_first(bounds)  # Hussain & Shawe-Taylor: stop at the bound's minimum
        path = np.zeros((k, k))
        for i in range(k):
            path[i, : i + 1] = coefs[i]
        return _Path(
            columns=np.asarray(columns[:k], dtype=int),
            coef_path=path,
            train_loss=np.asarray(losses),
            n_errors=np.asarray(n_errors, dtype=int),
            bound=np.asarray(bounds, dtype=float),
            validation_error=np.asarray(val, dtype=float) if V is not None else None,
            seconds=np.asarray(seconds, dtype=float),
        )

    @staticmethod
    def _path_attributes(X, fit_idx, dictionary, path):
        cols = path.columns
        # indices into the X given to fit (not into its fit part, which differs with validation)
        local = dictionary.train_index[cols]
        basis_indices = np.where(local >= 0, fit_idx[np.maximum(local, 0)], -1)
        k = cols.size
        last = path.coef_path[-1] if k else np.zeros(0)
        keep = basis_indices >= 0
        return KMPPursuit(
            basis_indices_=basis_indices,
            basis_kernels_=dictionary.kernel_index[cols],
            support_vectors_=X[basis_indices[keep]],
            coef_=last[keep].copy(),
            intercept_=float(last[~keep].sum()),
            coef_path_=path.coef_path,
            n_basis_=int(k),
            train_loss_=path.train_loss,
            n_errors_=path.n_errors,
            bound_=path.bound,
            validation_error_=path.validation_error,
            step_seconds_=path.seconds,
        )

    # ---- prediction ----------------------------------------------------------------
    def _design(self, X, p):
        """Values at X of each kept step's basis function of pursuit ``p``: shape (n, n_basis)."""
        basis_indices, basis_kernels = p.basis_indices_, p.basis_kernels_
        support_vectors = p.support_vectors_
        out = np.ones((X.shape[0], basis_indices.size))
        keep = np.flatnonzero(basis_indices >= 0)
        for s, spec in enumerate(self.kernel_specs_):
            sel = np.flatnonzero(basis_kernels[keep] == s)
            if sel.size and spec.kernel == PRECOMPUTED:
                out[:, keep[sel]] = X[:, basis_indices[keep[sel]]]
            elif sel.size:
                out[:, keep[sel]] = kernel_matrix(X, support_vectors[sel], **spec.params)
        return out

    def _staged(self, X, p):
        """Yield the decision values after each kept step of pursuit ``p``."""
        design = self._design(X, p)
        path = p.coef_path_
        for i in range(path.shape[0]):
            yield design[:, : i + 1] @ path[i, : i + 1]

    def _final(self, X, p):
        design = self._design(X, p)
        path = p.coef_path_
        k = path.shape[0]
        if k == 0:
            return np.zeros(X.shape[0])
        return design[:, :k] @ path[k - 1, :k]  # the same product as the last staged value

    def _precomputed(self):
        return isinstance(self.kernel, str) and self.kernel == PRECOMPUTED

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self._precomputed()
        return tags
