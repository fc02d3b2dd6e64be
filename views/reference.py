"""The SVM reference of Vincent & Bengio's Figures 6 and 7, and the scores shown beside a fit.

Written once for the KMP page (:mod:`views.kmp`) and the reproductions
(:mod:`experiments`): scikit-learn's SVC/SVR on the same kernel matrix, and
accuracy and confusion matrix (classification) or RMSE and R^2 (regression).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.metrics import confusion_matrix, r2_score
from sklearn.svm import SVC, SVR

from mpcore._arguments import _short, check_array_data, check_positive_float
from mpcore.kernels import kernel_matrix

__all__ = ["SVR_EPSILON_STD", "SVMReference", "svm_reference", "scores", "confusion_by_class"]

#: Epsilon of the SVR reference, in standard deviations of the training targets.
SVR_EPSILON_STD = 0.1


@dataclass(frozen=True, eq=False)
class SVMReference:
    """A scikit-learn SVM fitted on the same kernel (precomputed Gram matrix).

    Attributes
    ----------
    model : SVC or SVR
    X_train : ndarray
        The training points (needed to evaluate the kernel at new points).
    kernel : dict
        Keyword arguments of :func:`mpcore.kernels.kernel_matrix`.
    """

    model: object
    X_train: np.ndarray
    kernel: dict

    @property
    def support(self) -> np.ndarray:
        """Training indices of the support vectors."""
        return np.asarray(self.model.support_, dtype=int)

    @property
    def n_support(self) -> int:
        return int(self.support.size)

    def decision_function(self, X) -> np.ndarray:
        """SVC decision values (binary: shape (n,); one-vs-rest: (n, n_classes)) or SVR predictions."""
        K = kernel_matrix(np.asarray(X, dtype=float), self.X_train, **self.kernel)
        if isinstance(self.model, SVR):
            return self.model.predict(K)
        return self.model.decision_function(K)

    def predict(self, X) -> np.ndarray:
        K = kernel_matrix(np.asarray(X, dtype=float), self.X_train, **self.kernel)
        return self.model.predict(K)


def svm_reference(X, y, *, task, kernel="rbf", gamma=None, degree=3, coef0=1.0, C=100.0,
                  epsilon=None):
    """Fit scikit-learn's SVM on the kernel matrix of X (Vincent & Bengio, Figs. 6 and 7).

    The kernel goes through :func:`mpcore.kernels.kernel_matrix` and SVC/SVR get
    it precomputed, so every mpcore kernel (Laplacian, cosine, sigmoid) is
    available. A large C approximates the paper's hard-margin SVM.

    Parameters
    ----------
    task : {"classification", "regression"}
    C : float
        Box constraint.
    epsilon : float, optional
        SVR tube width; default ``SVR_EPSILON_STD * std(y)``.

    Returns
    -------
    SVMReference
    """
    X = check_array_data(X, "X")
    C = check_positive_float(C, "C", maximum=1e10)
    if not isinstance(task, str) or task not in ("classification", "regression"):
        raise ValueError(f"task must be 'classification' or 'regression', got {_short(task)}.")
    if y is None or isinstance(y, (str, bytes)):
        raise TypeError(f"y must be an array of targets, got {_short(y)}.")
    if np.shape(y) != (X.shape[0],):
        raise ValueError(f"y must have shape ({X.shape[0]},) to match X, got {np.shape(y)}.")
    params = dict(kernel=kernel, gamma=gamma, degree=degree, coef0=coef0)
    K = kernel_matrix(X, **params)
    if task == "classification":
        if np.unique(np.asarray(y)).size < 2:
            raise ValueError("y has only one class: the SVM needs two.")
        model = SVC(kernel="precomputed", C=C, decision_function_shape="ovr").fit(K, y)
    else:
        y = check_array_data(y, "y", ndim=1)
        eps = (SVR_EPSILON_STD * float(np.std(y)) if epsilon is None
               else check_positive_float(epsilon, "epsilon", strict=False))
        model = SVR(kernel="precomputed", C=C, epsilon=eps).fit(K, y)
    return SVMReference(model=model, X_train=X, kernel=params)


def step_score(task, y_true, y_pred) -> float:
    """Accuracy (classification) or RMSE (regression) of ``y_pred``: the one number the
    live view shows per step. For arrays :func:`scores` has checked, or the page's own
    predictions; plain NumPy (scikit-learn's metrics validate their arguments on every call,
    which for 2 x 100 steps costs more than the arithmetic)."""
    if task == "classification":
        return float(np.mean(np.asarray(y_true) == np.asarray(y_pred)))
    err = np.asarray(y_true, dtype=float) - np.asarray(y_pred, dtype=float)
    return float(np.sqrt(np.mean(err * err)))


def scores(task, y_true, y_pred, classes=None):
    """What a student expects beside a fit.

    Classification: ``{"accuracy", "confusion"}`` (rows: true class, columns:
    predicted, in the order of ``classes``, followed by any other label that occurs in
    ``y_true`` or ``y_pred``, e.g. a class present only in a test split).
    Regression: ``{"rmse", "r2"}``.
    """
    if not isinstance(task, str) or task not in ("classification", "regression"):
        raise ValueError(f"task must be 'classification' or 'regression', got {_short(task)}.")
    for v, name in ((y_true, "y_true"), (y_pred, "y_pred")):
        if v is None or isinstance(v, (str, bytes)):
            raise TypeError(f"{name} must be an array, got {_short(v)}.")
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if y_true.ndim != 1 or y_true.shape != y_pred.shape or y_true.size == 0:
        raise ValueError(f"y_true and y_pred must be non-empty 1-D arrays of the same length, "
                         f"got shapes {y_true.shape} and {y_pred.shape}.")
    if task == "regression":
        y_true = check_array_data(y_true, "y_true", ndim=1)
        y_pred = check_array_data(y_pred, "y_pred", ndim=1)
    if task == "classification":
        # every label that occurs is a row/column: a class seen only in y_true (e.g. only in
        # the test split) or only in y_pred is kept, after the given classes in their order
        seen = np.unique(np.concatenate([y_true, y_pred]))
        if classes is None:
            labels = seen
        else:
            labels = np.asarray(classes)
            extra = seen[~np.isin(seen, labels)]
            labels = np.concatenate([labels, extra]) if extra.size else labels
        return dict(accuracy=step_score(task, y_true, y_pred),
                    confusion=confusion_matrix(y_true, y_pred, labels=labels))
    rmse = step_score(task, y_true, y_pred)
    r2 = float(r2_score(y_true, y_pred)) if y_true.size > 1 and np.ptp(y_true) > 0 else float("nan")
    return dict(rmse=rmse, r2=r2)


def confusion_by_class(confusion, labels) -> list[dict]:
    """A confusion matrix's rows in short, for one too wide to show (many classes): per true
    class, its test points, how many of them are predicted right, and the class most often
    predicted instead, with its count (the first such class on a tie; ``None`` when every
    point is right).

    ``confusion`` as :func:`scores` gives it (rows true, columns predicted, in the order of
    ``labels``). Returns one dict a class: ``true class``, ``test points``, ``predicted
    right``, ``instead`` (a label or None) and ``instead, points``.
    """
    C = np.asarray(confusion)
    if C.ndim != 2 or C.shape[0] != C.shape[1] or C.shape[0] != len(labels):
        raise ValueError(f"confusion must be a square matrix with one row per label, got shape "
                         f"{C.shape} for {len(labels)} labels.")
    rows = []
    for i, label in enumerate(labels):
        off = C[i].copy()
        off[i] = 0
        worst = int(np.argmax(off))
        rows.append({"true class": label, "test points": int(C[i].sum()),
                     "predicted right": int(C[i, i]),
                     "instead": labels[worst] if off[worst] else None,
                     "instead, points": int(off[worst])})
    return rows
