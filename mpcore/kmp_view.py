r"""Step-by-step views of kernel matching pursuit, for teaching and for notebooks.

Everything here is plain NumPy / scikit-learn on top of :mod:`mpcore.kmp`:

- :func:`mixed_dictionary`: the kernel specifications of a mixed dictionary
  (Vincent & Bengio [1]_, Section 4.1: several Gaussian widths, or several
  kernel types, at every training point);
- :func:`kmp_curves`: one timed run of every step, the training and test error
  after each step, the Theorem 3 bound of Hussain & Shawe-Taylor [2]_ and the
  wall time of every step;
- :func:`basis_functions` and :func:`staged_values`: the value of every chosen
  basis function, and of the model after each step, at new points (Eq. 14);
- :func:`grid_2d` and :func:`zero_level`: a grid over 2-D data and the zero
  level set of a function sampled on it (the decision boundary);
- :func:`svm_reference`: scikit-learn's SVM with the same kernel, the
  comparison of [1]_, Figures 6 and 7;
- :func:`scores`: accuracy and confusion matrix, or RMSE and :math:`R^2`.

References
----------
.. [1] P. Vincent, Y. Bengio. Kernel matching pursuit. Machine Learning 48,
   165-187, 2002.
.. [2] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from sklearn.metrics import confusion_matrix, mean_squared_error, r2_score
from sklearn.svm import SVC, SVR

from ._validation import (
    MAX_ABS_VALUE,
    _as_float_array,
    _short,
    check_array_data,
    check_finite_float,
    check_kernel_name,
    check_positive_float,
    check_positive_int,
    check_random_state_arg,
)
from .kernels import _check_params, kernel_matrix
from .kmp import (
    ALPHA_STD_FACTOR,
    KMPClassifier,
    KMPRegressor,
    kmp_dictionary,
    kmp_steps,
    normalize_kernel_specs,
    pursuit,
)

__all__ = [
    "MIX_MODES", "WIDTH_FACTORS", "has_width", "spec_label", "mixed_dictionary", "PathCurves",
    "KMPCurves",
    "kmp_curves", "basis_functions", "staged_values", "grid_2d", "zero_level", "SVMReference",
    "svm_reference", "scores", "SVR_EPSILON_STD",
]

#: Dictionary choices: one kernel, several widths of it, several kernel types.
MIX_MODES = ("single", "widths", "types")
#: Width multipliers of a "widths" dictionary: sigma/2, sigma, 2 sigma.
WIDTH_FACTORS = (0.5, 1.0, 2.0)
#: Kernels whose shape has a width (a gamma) to vary.
_WIDTH_KERNELS = ("rbf", "laplacian", "polynomial", "sigmoid")
#: Epsilon of the SVR reference, in standard deviations of the training targets.
SVR_EPSILON_STD = 0.1


def spec_label(spec) -> str:
    """A kernel specification named for people: widths as sigma where the page uses sigma.

    Gaussian :math:`e^{-\\gamma\\|x-z\\|^2}` has :math:`\\sigma = 1/\\sqrt{2\\gamma}`
    (Shawe-Taylor & Cristianini's convention), Laplacian :math:`\\sigma = 1/\\gamma`;
    other kernels keep ``KernelSpec.label``.

    Examples
    --------
    >>> from mpcore.kmp import KernelSpec
    >>> spec_label(KernelSpec("rbf", gamma=0.5))
    'Gaussian σ = 1'
    """
    from .kmp import KernelSpec

    if not isinstance(spec, KernelSpec):
        raise TypeError(f"spec must be a KernelSpec (see normalize_kernel_specs), got {_short(spec)}.")
    if spec.kernel == "rbf" and spec.gamma:
        return f"Gaussian σ = {1.0 / np.sqrt(2.0 * spec.gamma):.3g}"
    if spec.kernel == "laplacian" and spec.gamma:
        return f"Laplacian σ = {1.0 / spec.gamma:.3g}"
    return spec.label


def has_width(kernel: str) -> bool:
    """Whether ``kernel`` has a width parameter that a "widths" dictionary can vary."""
    return kernel in _WIDTH_KERNELS


def mixed_dictionary(kernel="rbf", *, gamma=None, degree=3, coef0=1.0, mode="single",
                     sigma=None, factors=WIDTH_FACTORS):
    r"""Kernel specifications of a (mixed) KMP dictionary, Vincent & Bengio Section 4.1.

    Parameters
    ----------
    kernel, gamma, degree, coef0 :
        The base kernel (as for :func:`mpcore.kernels.kernel_matrix`).
    mode : {"single", "widths", "types"}
        "single": the base kernel only. "widths": the base kernel at every width
        ``factor * sigma`` (Gaussian: :math:`\gamma/f^2`; Laplacian:
        :math:`\gamma/f`; polynomial and sigmoid: :math:`\gamma/f^2`, the scale of
        :math:`x'z`). "types": a Gaussian and a Laplacian of width ``sigma`` and a
        degree-2 polynomial (:math:`\gamma = 1/d`, :math:`c_0 = 1`), so that each
        training point offers three shapes.
    sigma : float, optional
        Width for "types" (default: derived from ``gamma`` of a Gaussian
        (:math:`\sigma = 1/\sqrt{2\gamma}`) or Laplacian (:math:`1/\gamma`) base
        kernel, else 1).
    factors : tuple of float
        Width multipliers for "widths".

    Returns
    -------
    list of dict
        Specifications for :class:`mpcore.kmp.KMPClassifier` ``kernel=``.

    Examples
    --------
    >>> mixed_dictionary("rbf", gamma=2.0, mode="widths")
    [{'kernel': 'rbf', 'gamma': 8.0}, {'kernel': 'rbf', 'gamma': 2.0}, {'kernel': 'rbf', 'gamma': 0.5}]
    """
    if not isinstance(mode, str) or mode not in MIX_MODES:
        raise ValueError(f"Unknown dictionary mode {_short(mode)}. Choose one of: "
                         f"{', '.join(MIX_MODES)}.")
    check_kernel_name(kernel)
    gamma, degree, coef0 = _check_params(gamma, degree, coef0)
    base = {"kernel": kernel}
    if gamma is not None:
        base["gamma"] = float(gamma)
    if kernel == "polynomial":
        base["degree"] = int(degree)
    if kernel in ("polynomial", "sigmoid"):
        base["coef0"] = float(coef0)
    if mode == "single":
        return [base]
    if mode == "widths":
        if not has_width(kernel):
            raise ValueError(
                f"The {kernel!r} kernel has no width to vary: choose a Gaussian, Laplacian, "
                "polynomial or sigmoid kernel, or the 'types' dictionary."
            )
        if gamma is None:
            raise ValueError("A 'widths' dictionary needs an explicit gamma for the base kernel.")
        if isinstance(factors, (str, bytes)) or not hasattr(factors, "__iter__"):
            raise TypeError(f"factors must be a sequence of positive numbers, got {_short(factors)}.")
        out = []
        for f in factors:
            f = check_positive_float(f, "width factor", maximum=1e6)
            if f < 1e-6:
                raise ValueError(f"width factor must be >= 1e-6, got {f!r}.")
            g = gamma / f if kernel == "laplacian" else gamma / f**2
            if not 0 < g <= MAX_ABS_VALUE:
                raise ValueError(f"width factor {f!r} gives gamma = {g!r}, outside (0, "
                                 f"{MAX_ABS_VALUE:.0e}]; choose factors nearer 1.")
            out.append(dict(base, gamma=float(g)))
        if not out:
            raise ValueError("factors is empty: give at least one width factor.")
        return out
    if sigma is None:
        if kernel == "rbf" and gamma:
            sigma = 1.0 / np.sqrt(2.0 * gamma)
        elif kernel == "laplacian" and gamma:
            sigma = 1.0 / gamma
        else:
            sigma = 1.0
    from .kernels import _check_sigma

    sigma = _check_sigma(sigma)
    return [
        {"kernel": "rbf", "gamma": float(1.0 / (2.0 * sigma**2))},
        {"kernel": "laplacian", "gamma": float(1.0 / sigma)},
        {"kernel": "polynomial", "degree": 2, "coef0": 1.0},
    ]


# --------------------------------------------------------------------------------------
# One timed run: curves against the number of basis functions
# --------------------------------------------------------------------------------------


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


def _encode(estimator, y):
    """Targets of :meth:`KMPClassifier.fit` / :meth:`KMPRegressor.fit` (one per pursuit)."""
    if isinstance(estimator, KMPClassifier):
        classes, y_enc = np.unique(y, return_inverse=True)
        if classes.size < 2:
            raise ValueError(f"KMP classification needs two classes, y has one ({classes[0]!r}).")
        if classes.size == 2:
            return classes, y_enc, [np.where(y_enc == 1, 1.0, -1.0)]
        return classes, y_enc, [np.where(y_enc == c, 1.0, -1.0) for c in range(classes.size)]
    return None, None, [np.asarray(y, dtype=float)]


def _labels(classes, decisions):
    """Labels from a list of decision vectors (one per pursuit), as ``predict`` does."""
    if len(decisions) == 1:
        return classes[(decisions[0] > 0).astype(int)]
    return classes[np.argmax(np.column_stack(decisions), axis=1)]


def kmp_curves(estimator, X, y, X_test=None, y_test=None):
    r"""Run every step of an estimator's pursuit(s) once, timed, and score each step.

    The run is the one ``estimator.fit(X, y)`` performs with
    ``early_stopping=None`` (same dictionary, targets, loss, fitting and
    Theorem 3 threshold), so ``paths[c].basis`` equals that fit's
    ``basis_indices_`` (per class). Early stopping is ignored: the curves run to
    ``n_basis`` so that a stopping rule can be judged against them.

    Parameters
    ----------
    estimator : KMPClassifier or KMPRegressor
        Unfitted (only its parameters are read).
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
    estimator._check_params(X.shape[1])
    n_basis = check_positive_int(p["n_basis"], "n_basis")
    if n_basis > X.shape[0]:
        raise ValueError(
            f"n_basis={n_basis} exceeds the number of training points (n_samples={X.shape[0]}): "
            "lower n_basis or give more data."
        )
    is_clf = isinstance(estimator, KMPClassifier)
    classes, _, targets = _encode(estimator, y)
    test_targets = None
    if X_test is not None:
        if is_clf:
            y_test_arr = np.asarray(y_test)
            test_targets = ([np.where(y_test_arr == classes[1], 1.0, -1.0)] if classes.size == 2 else
                            [np.where(y_test_arr == c, 1.0, -1.0) for c in classes])
        else:
            test_targets = [np.asarray(y_test, dtype=float)]
    specs = normalize_kernel_specs(p["kernel"], gamma=p["gamma"], degree=p["degree"],
                                   coef0=p["coef0"], n_features=X.shape[1])
    alpha = p["alpha"]
    if is_clf:
        error = "margin" if alpha is None else "absolute"
    else:
        if p["loss"] != "squared":
            raise ValueError(f"loss={p['loss']!r} needs labels: KMP regression uses loss='squared'.")
        error = "absolute"
        if alpha is None:
            alpha = ALPHA_STD_FACTOR * float(np.std(targets[0])) or None
    t0 = time.perf_counter()
    dictionary = kmp_dictionary(
        X, kernel=specs, fit_intercept=p["fit_intercept"], n_candidates=p["n_candidates"],
        random_state=check_random_state_arg(p["random_state"]),
    )
    D = dictionary.evaluate(X)
    dict_seconds = time.perf_counter() - t0
    D_test = dictionary.evaluate(X_test) if X_test is not None else None

    paths, train_f, test_f = [], [], []
    for n_path, t in enumerate(targets):
        steps = kmp_steps(
            D, t, n_basis, fitting=p["fitting"], loss=p["loss"], backfit_every=p["backfit_every"],
            train_index=dictionary.train_index, kernel_index=dictionary.kernel_index,
            alpha=alpha, delta=p["delta"], error=error,
        )
        rec = dict(basis=[], kernels=[], train_loss=[], bound=[], n_errors=[], seconds=[])
        f_tr, f_te = [], []
        for s, sec in _timed(steps):
            rec["basis"].append(s.train_index)
            rec["kernels"].append(s.kernel_index)
            rec["train_loss"].append(s.train_loss)
            rec["bound"].append(s.bound)
            rec["n_errors"].append(s.n_errors)
            rec["seconds"].append(sec)
            f_tr.append(s.predictions)
            if D_test is not None:
                f_te.append(D_test[:, s.basis] @ s.coef)  # Eq. (14) at the test points
        exceed = None
        if D_test is not None:
            tt = test_targets[n_path]
            if error == "absolute":
                exceed = [np.mean(np.abs(f - tt) > alpha) if alpha else np.nan for f in f_te]
            else:  # predict's rule: f > 0 means the +1 target
                exceed = [np.mean((f > 0) != (tt > 0)) for f in f_te]
            exceed = np.asarray(exceed, dtype=float)
        paths.append(PathCurves(
            basis=np.asarray(rec["basis"], dtype=int), kernels=np.asarray(rec["kernels"], dtype=int),
            train_loss=np.asarray(rec["train_loss"], dtype=float),
            bound=np.asarray(rec["bound"], dtype=float),
            n_errors=np.asarray(rec["n_errors"], dtype=int),
            seconds=np.asarray(rec["seconds"], dtype=float),
            test_exceed=exceed,
        ))
        train_f.append(f_tr)
        test_f.append(f_te)
    n_steps = max(pth.n_steps for pth in paths)
    if n_steps == 0:
        raise ValueError("Kernel matching pursuit took no step: y is already fitted (e.g. all "
                         "zero) or every kernel column is zero (check the kernel parameters).")

    def at(fs, j, n):
        # a pursuit that stopped earlier keeps its last function (staged_predict's rule)
        return fs[min(j, len(fs) - 1)] if fs else np.zeros(n)

    train_err, test_err, exceed = [], [], []
    for j in range(n_steps):
        ftr = [at(fs, j, X.shape[0]) for fs in train_f]
        if is_clf:
            train_err.append(np.mean(_labels(classes, ftr) != y))
        else:
            train_err.append(np.mean((ftr[0] - targets[0]) ** 2))
        if D_test is not None:
            fte = [at(fs, j, D_test.shape[0]) for fs in test_f]
            if is_clf:
                e = np.mean(_labels(classes, fte) != np.asarray(y_test))
                test_err.append(e)
                exceed.append(e)
            else:
                resid = fte[0] - np.asarray(y_test, dtype=float)
                test_err.append(np.mean(resid**2))
                exceed.append(np.mean(np.abs(resid) > alpha) if alpha else np.nan)
    return KMPCurves(
        task="classification" if is_clf else "regression", classes=classes, paths=tuple(paths),
        train_error=np.asarray(train_err, dtype=float),
        test_error=np.asarray(test_err, dtype=float) if D_test is not None else None,
        test_exceed=np.asarray(exceed, dtype=float) if D_test is not None else None,
        alpha=alpha, m=int(X.shape[0]), spec_labels=tuple(s.label for s in specs),
        dictionary_seconds=float(dict_seconds),
    )


# --------------------------------------------------------------------------------------
# A fitted model, step by step, at new points
# --------------------------------------------------------------------------------------


def basis_functions(model, X, path=None):
    r"""Value at X of the function each kept step added: shape (n, n_basis_).

    Column i is :math:`K_{s_i}(x, x_{\gamma_i})` for the kernel specification
    :math:`s_i` and training point :math:`x_{\gamma_i}` of step i, or 1 for the
    constant function, so that the model after step j is
    ``basis_functions(model, X)[:, :j] @ model.coef_path_[j - 1, :j]`` (Eq. 14).

    Parameters
    ----------
    model : fitted KMPClassifier or KMPRegressor
    X : array of shape (n, n_features)
    path : int, optional
        Class index for a one-vs-rest classifier (more than two classes).
    """
    p = pursuit(model, path)
    X = check_array_data(X, "X")
    if X.shape[1] != model.n_features_in_:
        raise ValueError(f"X has {X.shape[1]} features, but the model was fitted with "
                         f"{model.n_features_in_}.")
    # the estimator's own design matrix, so the page draws exactly what predict uses
    return model._design(X, p)


def staged_values(model, X, path=None):
    """The model's function after each kept step at X: shape (n_basis_, n).

    For a regressor these are ``staged_predict(X)``; for a binary classifier
    ``staged_decision_function(X)``; for a one-vs-rest classifier the decision
    values of class ``path`` along its own pursuit.
    """
    B = basis_functions(model, X, path)
    cp = pursuit(model, path).coef_path_
    k = cp.shape[0]
    return np.stack([B[:, : j + 1] @ cp[j, : j + 1] for j in range(k)]) if k else np.zeros((0, len(B)))


# --------------------------------------------------------------------------------------
# 2-D pictures
# --------------------------------------------------------------------------------------

#: Points per axis of the decision-surface grid.
GRID_SIZE = 60
#: Margin around the data, as a fraction of its range.
GRID_PAD = 0.1
#: Largest number of points per axis of :func:`grid_2d` (MAX_GRID**2 grid points).
MAX_GRID = 1000


def grid_2d(X, n=GRID_SIZE, pad=GRID_PAD):
    """Regular n x n grid covering 2-D data with a margin.

    Returns
    -------
    xs, ys : ndarray of shape (n,)
    points : ndarray of shape (n * n, 2)
        Row-major: ``points[i * n + j] == (xs[j], ys[i])``, so values reshape to (n, n)
        with y along the first axis, as plotly's contour ``z`` expects.
    """
    X = check_array_data(X, "X")
    if X.shape[1] != 2:
        raise ValueError(f"grid_2d needs 2-D data of shape (n, 2), got {X.shape}.")
    n = check_positive_int(n, "n", minimum=2, maximum=MAX_GRID)
    pad = check_finite_float(pad, "pad")
    if not 0 <= pad <= 10:
        raise ValueError(f"pad must lie in [0, 10] (a fraction of the data range), got {pad!r}.")
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    xs = np.linspace(lo[0] - pad * span[0], hi[0] + pad * span[0], n)
    ys = np.linspace(lo[1] - pad * span[1], hi[1] + pad * span[1], n)
    gx, gy = np.meshgrid(xs, ys)
    return xs, ys, np.column_stack([gx.ravel(), gy.ravel()])


def zero_level(xs, ys, Z, level=0.0):
    """Line segments where a gridded function crosses ``level`` (marching squares).

    Every grid cell whose corners change sign contributes one segment (two for
    a saddle cell), with the crossing on each edge found by linear
    interpolation. Segments are separated by NaN, ready for a line plot.

    Parameters
    ----------
    xs, ys : ndarray of shape (nx,), (ny,)
    Z : ndarray of shape (ny, nx)
        ``Z[i, j]`` is the value at ``(xs[j], ys[i])``.

    Returns
    -------
    x, y : ndarray
        Segment end points, a NaN after every segment (empty when nothing crosses).
    """
    xs = check_array_data(xs, "xs", ndim=1)
    ys = check_array_data(ys, "ys", ndim=1)
    Z = _as_float_array(Z, "Z")
    if np.isnan(Z).any():
        raise ValueError("Z contains NaN: evaluate the function at every grid point.")
    level = check_finite_float(level, "level")
    with np.errstate(invalid="ignore", over="ignore"):
        Z = Z - level
    if Z.shape != (ys.size, xs.size):
        raise ValueError(f"Z must have shape (len(ys), len(xs)) = {(ys.size, xs.size)}, got {Z.shape}.")
    pos = Z > 0
    # corners of every cell: a = (i, j), b = (i, j+1), c = (i+1, j+1), d = (i+1, j)
    a, b, c, d = Z[:-1, :-1], Z[:-1, 1:], Z[1:, 1:], Z[1:, :-1]
    pa, pb, pc, pd = pos[:-1, :-1], pos[:-1, 1:], pos[1:, 1:], pos[1:, :-1]
    X0, X1 = (np.broadcast_to(v, a.shape) for v in (xs[None, :-1], xs[None, 1:]))
    Y0, Y1 = (np.broadcast_to(v, a.shape) for v in (ys[:-1, None], ys[1:, None]))

    def frac(u, v):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.clip(u / (u - v), 0.0, 1.0)

    # crossing point on each edge (only used where that edge crosses)
    edges = {
        "bottom": (pa != pb, X0 + frac(a, b) * (X1 - X0), Y0),
        "right": (pb != pc, X1, Y0 + frac(b, c) * (Y1 - Y0)),
        "top": (pd != pc, X0 + frac(d, c) * (X1 - X0), Y1),
        "left": (pa != pd, X0, Y0 + frac(a, d) * (Y1 - Y0)),
    }
    names = ("bottom", "right", "top", "left")
    cross = np.stack([edges[e][0] for e in names])  # (4, ny-1, nx-1)
    ex = np.stack([np.broadcast_to(edges[e][1], a.shape) for e in names])
    ey = np.stack([np.broadcast_to(edges[e][2], a.shape) for e in names])
    count = cross.sum(axis=0)
    out_x, out_y = [], []
    # two crossings: one segment joining them
    ii, jj = np.nonzero(count == 2)
    if ii.size:
        which = cross[:, ii, jj].T  # (n, 4): which two edges cross
        first = np.argmax(which, axis=1)
        second = 3 - np.argmax(which[:, ::-1], axis=1)
        out_x.append(np.column_stack([ex[first, ii, jj], ex[second, ii, jj], np.full(ii.size, np.nan)]))
        out_y.append(np.column_stack([ey[first, ii, jj], ey[second, ii, jj], np.full(ii.size, np.nan)]))
    # saddle cells (four crossings): pair bottom-left / top-right or bottom-right / top-left
    # according to the sign of the cell centre (mean of the corners)
    ii, jj = np.nonzero(count == 4)
    if ii.size:
        same = ((a + b + c + d)[ii, jj] > 0) == pa[ii, jj]
        # centre of a's sign: a joins c, so the segments cut off b (bottom-right) and
        # d (top-left); otherwise they cut off a (bottom-left) and c (right-top)
        zero, two = np.zeros(ii.size, dtype=int), np.full(ii.size, 2)
        for p, q in ((zero, np.where(same, 1, 3)), (two, np.where(same, 3, 1))):
            out_x.append(np.column_stack([ex[p, ii, jj], ex[q, ii, jj], np.full(ii.size, np.nan)]))
            out_y.append(np.column_stack([ey[p, ii, jj], ey[q, ii, jj], np.full(ii.size, np.nan)]))
    if not out_x:
        return np.zeros(0), np.zeros(0)
    return np.concatenate(out_x).ravel(), np.concatenate(out_y).ravel()


# --------------------------------------------------------------------------------------
# The SVM of Figures 6 and 7, and scores
# --------------------------------------------------------------------------------------


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
        return dict(accuracy=float(np.mean(y_true == y_pred)),
                    confusion=confusion_matrix(y_true, y_pred, labels=labels))
    rmse = float(np.sqrt(mean_squared_error(y_true, y_pred)))
    r2 = float(r2_score(y_true, y_pred)) if y_true.size > 1 and np.ptp(y_true) > 0 else float("nan")
    return dict(rmse=rmse, r2=r2)
