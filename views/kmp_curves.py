"""Curves against the number of basis functions, read off a fitted KMP estimator.

:func:`kmp_curves` fits a copy of the estimator with every step run and
returns, per step, the training and test errors (from its staged
predictions), the Theorem 3 bound of Hussain & Shawe-Taylor and t, the
training loss and the wall time of each step (recorded by ``fit``): what the
KMP page's curves and timing tabs plot.

References
----------
.. [1] P. Vincent, Y. Bengio. Kernel matching pursuit. Machine Learning 48,
   165-187, 2002.
.. [2] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.base import clone

from mpcore._arguments import _short, check_array_data
from mpcore.kmp import KMPClassifier, KMPRegressor, pursuit, staged_values

__all__ = ["PathCurves", "KMPCurves", "kmp_curves"]


@dataclass(frozen=True)
class PathCurves:
    """One pursuit (one target; one class of a one-vs-rest fit), every step run.

    Attributes
    ----------
    basis : ndarray of int, shape (n,)
        Training index chosen at each step (-1: the constant function).
    kernels : ndarray of int, shape (n,)
        Index of the kernel specification of each step (-1: the constant).
    train_loss, bound : ndarray of float, shape (n,)
        ``KMPStep.train_loss`` and ``KMPStep.bound`` (Theorem 3 of [2]; +inf
        where m - k - t <= 0).
    n_errors : ndarray of int, shape (n,)
        Theorem 3's t after each step.
    seconds : ndarray of float, shape (n,)
        Wall time of each step (the first includes the pursuit's set-up).
    test_exceed : ndarray of float, shape (n,), or None
        The test error this pursuit's bound is about: the fraction of test points
        with :math:`|f(x) - y| > \\alpha` (regression, or classification with an
        alpha), else misclassified by the sign of f against this pursuit's +-1
        target (for one-vs-rest: its class against the rest). None without test data.
    """

    basis: np.ndarray
    kernels: np.ndarray
    train_loss: np.ndarray
    bound: np.ndarray
    n_errors: np.ndarray
    seconds: np.ndarray
    test_exceed: np.ndarray | None = None

    @property
    def n_steps(self) -> int:
        return int(self.basis.size)


@dataclass(frozen=True)
class KMPCurves:
    """Errors, bound and timings after every step of :func:`kmp_curves`.

    Attributes
    ----------
    task : {"classification", "regression"}
    classes : ndarray or None
        Class labels (classification); one path per class with more than two.
    paths : tuple of PathCurves
    train_error, test_error : ndarray of shape (n_steps,)
        Misclassification rate (classification) or mean squared error
        (regression) of the whole model after step j = 1..n_steps; a
        one-vs-rest class whose pursuit stopped earlier keeps its last function
        (as ``staged_predict`` does). ``test_error`` is None without test data.
    test_exceed : ndarray of shape (n_steps,) or None
        The test error Theorem 3 bounds: the misclassification rate, or for
        regression the fraction of test points with :math:`|f(x) - y| > \\alpha`.
    alpha : float or None
        Theorem 3's regression threshold (None: misclassifications are counted).
    m : int
        Number of training points (the m of Theorem 3).
    spec_labels : tuple of str
        Names of the kernel specifications (``KernelSpec.label``).
    dictionary_seconds : float
        Time to evaluate the dictionary on the training points.
    """

    task: str
    classes: np.ndarray | None
    paths: tuple
    train_error: np.ndarray
    test_error: np.ndarray | None
    test_exceed: np.ndarray | None
    alpha: float | None
    m: int
    spec_labels: tuple
    dictionary_seconds: float

    @property
    def n_steps(self) -> int:
        return int(self.train_error.size)

    @property
    def seconds(self) -> np.ndarray:
        """Wall time of step j summed over the one-vs-rest pursuits, shape (n_steps,)."""
        out = np.zeros(self.n_steps)
        for p in self.paths:
            out[: p.n_steps] += p.seconds
        return out


def kmp_curves(estimator, X, y, X_test=None, y_test=None):
    r"""Run every step of an estimator's pursuit(s) once, timed, and score each step.

    The curves are read off one fit of a copy of ``estimator`` with
    ``early_stopping=None`` (every step run, so that a stopping rule can be
    judged against them): its per-step training loss, Theorem 3 bound and t,
    per-step wall times (``step_seconds_``), and its staged predictions on the
    training and test points. ``paths[c]`` is pursuit c of that fit
    (:func:`mpcore.kmp.pursuit`).

    Parameters
    ----------
    estimator : KMPClassifier or KMPRegressor
        Only its parameters are read (a copy is fitted).
    X, y : arrays
        Training data.
    X_test, y_test : arrays, optional
        Test data for ``test_error`` and ``test_exceed``.

    Returns
    -------
    KMPCurves

    Notes
    -----
    The bound of Hussain & Shawe-Taylor, Theorem 3, holds with probability
    :math:`1-\delta` for the error of the k-term function on new points:

    .. math:: \epsilon(m,k,t) = \frac{2}{m-k-t}\Big[(k+1)\log_2\tfrac{4e(m-k-t)}{k+1}
              + k\log_2\tfrac{em}{k} + t\log_2\tfrac{e(m-k)}{t} + \log_2\tfrac{2m^2}{\delta}\Big]

    (see :func:`mpcore.bounds.kmp_bound`); ``test_exceed`` is the test estimate
    of that error.
    """
    if not isinstance(estimator, (KMPClassifier, KMPRegressor)):
        raise TypeError(f"estimator must be a KMPClassifier or KMPRegressor, got {estimator!r}.")
    p = estimator.get_params()
    X = check_array_data(X, "X", min_rows=2)
    if y is None or isinstance(y, (str, bytes)):
        raise TypeError(f"y must be an array of targets, got {_short(y)}.")
    y = np.asarray(y)
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have shape ({X.shape[0]},), got {y.shape}.")
    if not isinstance(estimator, KMPClassifier) or y.dtype.kind in "fc":
        y_num = check_array_data(y, "y", ndim=1)
        if not isinstance(estimator, KMPClassifier):
            y = y_num
    if (X_test is None) != (y_test is None):
        raise ValueError("Pass both X_test and y_test, or neither.")
    if X_test is not None:
        X_test = check_array_data(X_test, "X_test")
        if X_test.shape[1] != X.shape[1]:
            raise ValueError(f"X_test has {X_test.shape[1]} features but X has {X.shape[1]}.")
        if isinstance(y_test, (str, bytes)):
            raise TypeError(f"y_test must be an array of targets, got {_short(y_test)}.")
        y_test = np.asarray(y_test)
        if y_test.shape != (X_test.shape[0],):
            raise ValueError(f"y_test must have shape ({X_test.shape[0]},), got {y_test.shape}.")
        if not isinstance(estimator, KMPClassifier):
            y_test = check_array_data(y_test, "y_test", ndim=1)
    is_clf = isinstance(estimator, KMPClassifier)
    model = clone(estimator).set_params(early_stopping=None).fit(X, y)
    n_paths = len(model.estimators_) if is_clf else 1
    classes = model.classes_ if is_clf else None
    alpha = model.alpha_
    paths = []
    for c in range(n_paths):
        path = c if n_paths > 1 else None
        p = pursuit(model, path)
        exceed = None
        if X_test is not None:
            f_te = staged_values(model, X_test, path)
            if is_clf and alpha is None:  # predict's rule: f > 0 means the +1 target
                positive = classes[c] if n_paths > 1 else classes[1]
                exceed = [np.mean((f > 0) != (y_test == positive)) for f in f_te]
            else:
                target = (np.where(y_test == (classes[c] if n_paths > 1 else classes[1]), 1.0, -1.0)
                          if is_clf else y_test)
                exceed = [np.mean(np.abs(f - target) > alpha) if alpha else np.nan for f in f_te]
            exceed = np.asarray(exceed, dtype=float)
        paths.append(PathCurves(
            basis=np.asarray(p.basis_indices_, dtype=int),
            kernels=np.asarray(p.basis_kernels_, dtype=int),
            train_loss=np.asarray(p.train_loss_, dtype=float),
            bound=np.asarray(p.bound_, dtype=float),
            n_errors=np.asarray(p.n_errors_, dtype=int),
            seconds=np.asarray(p.step_seconds_, dtype=float),
            test_exceed=exceed,
        ))
    if max(pth.n_steps for pth in paths) == 0:
        raise ValueError("Kernel matching pursuit took no step: y is already fitted (e.g. all "
                         "zero) or every kernel column is zero (check the kernel parameters).")
    if is_clf:
        train_err = [np.mean(lab != y) for lab in model.staged_predict(X)]
    else:
        train_err = [np.mean((f - y) ** 2) for f in model.staged_predict(X)]
    test_err = exceed_all = None
    if X_test is not None:
        staged = list(model.staged_predict(X_test))
        if is_clf:
            test_err = exceed_all = [np.mean(lab != y_test) for lab in staged]
        else:
            test_err = [np.mean((f - y_test) ** 2) for f in staged]
            exceed_all = [np.mean(np.abs(f - y_test) > alpha) if alpha else np.nan for f in staged]
    return KMPCurves(
        task="classification" if is_clf else "regression", classes=classes, paths=tuple(paths),
        train_error=np.asarray(train_err, dtype=float),
        test_error=None if test_err is None else np.asarray(test_err, dtype=float),
        test_exceed=None if exceed_all is None else np.asarray(exceed_all, dtype=float),
        alpha=alpha, m=int(X.shape[0]), spec_labels=tuple(s.label for s in model.kernel_specs_),
        dictionary_seconds=float(model.dictionary_seconds_),
    )
