r"""What the kernel-matching-pursuit page draws, and the comparison of Figures 6 and 7.

Vincent & Bengio (2002): basic matching pursuit, back-fitting and pre-fitting
(Eqs. 6, 7) against the SVM (Figure 6), and the squared against the tanh
loss of the margin (Figure 7). :func:`compare` fits those estimators on
one split and scores them; the KMP page and the experiments
(``experiments.vincent_bengio``) both call it, so the comparison exists once.

References
----------
.. [1] P. Vincent, Y. Bengio. Kernel matching pursuit. Machine Learning 48,
   165-187, 2002.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace

import numpy as np

from mpcore.kmp import basis_functions, mixed_dictionary, spec_label, staged_values
from mpcore.plots.geometry import grid_2d, zero_level
from mpcore.kmp import KMPClassifier, KMPRegressor, pursuit

from .data import KernelChoice
from .kmp_curves import kmp_curves as curves_of
from .reference import scores, svm_reference

__all__ = ["KMP_GRID", "KMP_CURVE_POINTS", "COMPARISON_MODES", "KMPSettings", "feature_split",
           "kmp_kernel", "kmp_estimator", "with_warnings", "fit_kmp", "kmp_curves", "svm_scores",
           "path_of", "staged", "step_scores", "animation", "comparison_runs", "compare",
           "comparison_figure"]

#: Decision-surface grid: points per axis (60 x 60 values per animation frame).
KMP_GRID = 60
#: Points of the 1-D regression curve.
KMP_CURVE_POINTS = 240
#: "fittings": Figure 6 (basic, back-fitting, pre-fitting, SVM); "losses": Figure 7
#: (SVM, KMP-mse with pre-fitting, KMP-tanh with back-fitting).
COMPARISON_MODES = ("fittings", "losses")


@dataclass(frozen=True)
class KMPSettings:
    """Everything the KMP page passes to the estimator besides the data and kernel."""

    n_basis: int
    fitting: str = "prefit"
    loss: str = "squared"
    backfit_every: int = 1
    mix: str = "single"
    feature: str | None = None  # regression: fit on this one feature only


def feature_split(d, train, test, feature: str | None = None):
    """(X_tr, y_tr, X_te, y_te, feature_names) of data set ``d``, one feature kept if asked."""
    X = d.X
    names = tuple(d.feature_names) or tuple(f"x{i + 1}" for i in range(d.n_features))
    if feature is not None:
        if feature not in names:
            raise ValueError(f"Unknown feature {feature!r}: choose one of {', '.join(names)}.")
        col = names.index(feature)
        X, names = X[:, [col]], (feature,)
    return X[train], d.y[train], X[test], d.y[test], names


def kmp_kernel(kern: KernelChoice, mix: str) -> dict:
    """The estimator's ``kernel=`` keywords: the chosen kernel, or a mixed dictionary."""
    if mix == "single":
        return kern.params()
    return dict(kernel=mixed_dictionary(kern.kernel, gamma=kern.gamma, degree=kern.degree,
                                                 coef0=kern.coef0, mode=mix, sigma=kern.sigma))


def kmp_estimator(task: str, kern: KernelChoice, s: KMPSettings, early_stopping, seed: int):
    """The unfitted KMPClassifier / KMPRegressor the page (and its snippet) uses."""
    common = dict(fitting=s.fitting, backfit_every=s.backfit_every,
                  early_stopping=early_stopping, random_state=seed, **kmp_kernel(kern, s.mix))
    if task == "classification":
        return KMPClassifier(s.n_basis, loss=s.loss, **common)
    return KMPRegressor(s.n_basis, **common)


def with_warnings(fn, *args, **kwargs):
    """Call ``fn`` and return (result, tuple of the distinct warning messages it raised)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn(*args, **kwargs)
    return out, tuple(dict.fromkeys(str(w.message) for w in caught))


def fit_kmp(X, y, task: str, kern: KernelChoice, s: KMPSettings, early_stopping=None, seed=0):
    """(fitted estimator, warnings) of :func:`kmp_estimator` on ``X, y``."""
    return with_warnings(kmp_estimator(task, kern, s, early_stopping, seed).fit, X, y)


def kmp_curves(X, y, X_test, y_test, task: str, kern: KernelChoice, s: KMPSettings, seed=0):
    """(views.kmp_curves.KMPCurves, warnings): all ``s.n_basis`` steps, timed and scored."""
    est = kmp_estimator(task, kern, s, None, seed)
    return with_warnings(curves_of, est, X, y, X_test, y_test)


def _score(task, y_true, pred) -> float:
    """Accuracy (classification) or root mean squared error (regression), from
    :func:`views.reference.scores` (the scores shown beside a fit)."""
    out = scores(task, y_true, pred)
    return out["accuracy"] if task == "classification" else out["rmse"]


def svm_scores(X, y, X_test, y_test, task: str, kern: KernelChoice, C: float,
               cls: int | None = None) -> dict:
    """scikit-learn's SVM with the same kernel: dict(n_support, support, train_score,
    test_score, svm).

    ``cls`` (more than two classes): the binary SVM of that class against the rest,
    the problem whose decision surface a one-vs-rest KMP panel draws.
    """
    if cls is not None and task == "classification":
        positive = np.unique(y)[cls]
        y, y_test = (y == positive).astype(int), (y_test == positive).astype(int)
    svm = svm_reference(X, y, task=task, C=C, **kern.params())
    return dict(n_support=svm.n_support, support=svm.support,
                train_score=_score(task, y, svm.predict(X)),
                test_score=_score(task, y_test, svm.predict(X_test)), svm=svm)


def path_of(model, cls: int | None):
    """The displayed pursuit (:func:`mpcore.kmp.pursuit`): class ``cls`` of a
    one-vs-rest classifier, the only one otherwise."""
    multi = isinstance(model, KMPClassifier) and len(model.estimators_) > 1
    return pursuit(model, cls if multi else None)


def staged(model, X, X_test, cls: int | None = None) -> dict:
    """Per kept step: predictions on the training and test rows, and the displayed path."""
    p = path_of(model, cls)
    return dict(train=np.array(list(model.staged_predict(X))),
                test=np.array(list(model.staged_predict(X_test))),
                basis=p.basis_indices_, kernels=p.basis_kernels_, coef_path=p.coef_path_,
                spec_labels=tuple(spec_label(sp) for sp in model.kernel_specs_),
                classes=None if not hasattr(model, "classes_") else model.classes_)


def step_scores(task: str, y, y_test, v: dict) -> tuple:
    """Per kept step of :func:`staged` ``v``, (training, test) accuracy for classification
    or RMSE for regression (views.reference.step_score)."""
    from .reference import step_score

    return tuple((step_score(task, y, P), step_score(task, y_test, Q))
                 for P, Q in zip(v["train"], v["test"]))


def _display_path(model, task, cls):
    """The class index whose pursuit is drawn (one-vs-rest), or None."""
    return cls if task == "classification" and model.classes_.size > 2 else None


def animation(model, v: dict, X, y, X_test, y_test, *, task: str, names, target_name=None,
              cls: int | None = None, frame_ms: int = 500):
    """The page's animated figure for the data at hand, as a plotly dict.

    2-D classification: the decision surface; 1-D regression: the fit with its
    basis functions; otherwise predictions (regression) or decision values of
    the test points (classification) after each step. ``v`` is :func:`staged`.
    """
    from mpcore.plots import (
        kmp_fit_animation,
        kmp_prediction_animation,
        kmp_surface_animation_dict,
        kmp_values_animation,
    )

    path = _display_path(model, task, cls)
    positive = 1 if path is None else path
    if task == "classification" and X.shape[1] == 2:
        xs, ys, pts = grid_2d(np.vstack([X, X_test]), KMP_GRID)
        Z = staged_values(model, pts, path).reshape(-1, ys.size, xs.size)
        boundary = [zero_level(xs, ys, z) for z in Z]
        # its 20 frames as plain dicts: plotly validating them one by one cost more than
        # drawing them
        return kmp_surface_animation_dict(
            X, y, Z, xs, ys, v["basis"], v["kernels"], classes=model.classes_, positive=positive,
            spec_labels=v["spec_labels"], X_test=X_test, y_test=y_test, boundary=boundary,
            frame_ms=frame_ms)
    if task == "classification":
        values = staged_values(model, X_test, path)
        return kmp_values_animation(values, y_test, classes=model.classes_, positive=positive,
                                    frame_ms=frame_ms).to_plotly_json()
    if X.shape[1] == 1:
        lo, hi = min(X.min(), X_test.min()), max(X.max(), X_test.max())
        pad = 0.03 * (hi - lo + 1e-12)
        xs = np.linspace(lo - pad, hi + pad, KMP_CURVE_POINTS)
        B = basis_functions(model, xs[:, None])
        F = staged_values(model, xs[:, None])
        return kmp_fit_animation(X[:, 0], y, xs, F, B, v["coef_path"], v["basis"], v["kernels"],
                                 spec_labels=v["spec_labels"], x_test=X_test[:, 0], y_test=y_test,
                                 frame_ms=frame_ms, x_label=names[0],
                                 y_label=target_name or "y").to_plotly_json()
    return kmp_prediction_animation(y, v["train"], y_test, v["test"], basis=v["basis"],
                                    frame_ms=frame_ms,
                                    target_label=target_name or "y").to_plotly_json()


# --------------------------------------------------------------------------------------
# Figures 6 and 7: one comparison for the page and the experiments
# --------------------------------------------------------------------------------------


def comparison_runs(task: str, s: KMPSettings, *, mode: str, n_basis: int, basic_n: int, m: int):
    """[(title, KMPSettings)] of the KMP fits compared (the SVM is added by :func:`compare`).

    "fittings" (Figure 6, and every regression): basic KMP with ``basic_n`` steps,
    back-fitting and pre-fitting with ``n_basis``; "losses" (Figure 7): KMP-mse
    with pre-fitting and KMP-tanh with back-fitting (Fig. 4), ``n_basis`` each.
    """
    if mode not in COMPARISON_MODES:
        raise ValueError(f"mode must be one of {', '.join(COMPARISON_MODES)}, got {mode!r}.")
    if mode == "fittings" or task != "classification":
        return [("basic", replace(s, fitting="basic", n_basis=min(basic_n, m))),
                ("back-fitting", replace(s, fitting="backfit", n_basis=n_basis)),
                ("pre-fitting", replace(s, fitting="prefit", n_basis=n_basis))]
    return [("KMP-mse (pre-fitting)",
             replace(s, fitting="prefit", loss="squared", n_basis=n_basis)),
            ("KMP-tanh (back-fitting, Fig. 4)",
             replace(s, fitting="backfit", loss="tanh", n_basis=n_basis))]


def compare(X, y, X_test, y_test, *, task: str, kern: KernelChoice, s: KMPSettings, C: float,
            mode: str = "fittings", n_basis: int | None = None, basic_n: int = 100,
            cls: int | None = None, seed: int = 0, grid: int = KMP_GRID, fit=None,
            svm=None) -> dict:
    """Fit and score the estimators of Vincent & Bengio's Figure 6 or 7 on one split.

    Parameters
    ----------
    X, y, X_test, y_test : arrays
        Training and test rows.
    task : {"classification", "regression"}
    kern : KernelChoice
        The kernel of every KMP fit and of the SVM.
    s : KMPSettings
        Loss, back-fitting period and dictionary of the KMP fits; their fitting
        and number of steps come from :func:`comparison_runs`.
    C : float
        The SVM's box constraint (a large C is the paper's hard margin).
    mode : {"fittings", "losses"}
    n_basis : int, optional
        Steps of the back-/pre-fitting fits (None: the SVM's number of support
        vectors, as in the paper).
    basic_n : int
        Steps of basic KMP (100 in Figure 6).
    cls : int, optional
        More than two classes: the class whose one-vs-rest problem is compared.
    seed : int
    grid : int
        Points per axis of the decision surfaces (2-D classification).
    fit : callable (KMPSettings) -> (fitted estimator, warnings), optional
        How to fit (default :func:`fit_kmp`; the app passes its cached fit).
    svm : callable (path) -> dict, optional
        How to fit the SVM (default :func:`svm_scores`; the app passes its cached one).

    Returns
    -------
    dict
        ``rows`` (method, steps, distinct_basis_points, train, test: accuracy or
        RMSE), ``models`` (title -> fitted estimator), ``svm`` (:func:`svm_scores`),
        ``svm_name``, ``panels`` (title, Z or F, support, boundary), ``xs`` and
        ``ys`` (the grid, or the 1-D evaluation points), ``two_d``, ``one_d``,
        ``path``, ``warnings`` and ``n_basis`` (the N used).
    """
    multi = task == "classification" and np.unique(y).size > 2
    path = cls if multi else None
    if fit is None:
        def fit(settings):
            return fit_kmp(X, y, task, kern, settings, None, seed)
    sv = (svm or (lambda p: svm_scores(X, y, X_test, y_test, task, kern, C, p)))(path)
    m = len(X)
    N = int(min(max(sv["n_support"], 1), m) if n_basis is None else min(n_basis, m))
    runs = comparison_runs(task, s, mode=mode, n_basis=N, basic_n=basic_n, m=m)
    two_d = task == "classification" and X.shape[1] == 2
    one_d = task == "regression" and X.shape[1] == 1
    xs = ys = pts = None
    if two_d:
        xs, ys, pts = grid_2d(np.vstack([X, X_test]), grid)
    if one_d:
        lo, hi = min(X.min(), X_test.min()), max(X.max(), X_test.max())
        xs = np.linspace(lo, hi, KMP_CURVE_POINTS)
    panels, rows, notes, models = [], [], [], {}
    for title, settings in runs:
        model, warns = fit(settings)
        models[title] = model
        notes += [f"{title}: {w}" for w in warns]
        basis = path_of(model, path).basis_indices_
        if path is None:
            tr = _score(task, y, model.predict(X))
            te = _score(task, y_test, model.predict(X_test))
        else:  # the displayed class against the rest, the problem its panel and the SVM solve
            c = model.classes_[path]
            tr = float(np.mean((model.decision_function(X)[:, path] > 0) == (y == c)))
            te = float(np.mean((model.decision_function(X_test)[:, path] > 0) == (y_test == c)))
        distinct = int(np.unique(basis[basis >= 0]).size)
        rows.append(dict(method=title, steps=int(len(basis)), distinct_basis_points=distinct,
                         train=tr, test=te))
        label = f"{title}: {len(basis)} steps, {distinct} points"
        if two_d:
            Z = staged_values(model, pts, path)[-1].reshape(ys.size, xs.size)
            panels.append(dict(title=label, Z=Z, support=basis,
                               boundary=zero_level(xs, ys, Z)))
        if one_d:
            panels.append(dict(title=label, F=model.predict(xs[:, None]), support=basis))
    if task == "regression":
        svm_name = f"SVR (C = {C:g})"
    else:
        svm_name = f"SVM (C = {C:g})" + ("" if path is None else ", class vs rest")
    rows.append(dict(method=svm_name, steps=None, distinct_basis_points=sv["n_support"],
                     train=sv["train_score"], test=sv["test_score"]))
    if two_d:
        Z = sv["svm"].decision_function(pts).reshape(ys.size, xs.size)
        svm_panel = dict(title=f"SVM (C = {C:g}): {sv['n_support']} support vectors", Z=Z,
                         support=sv["support"], boundary=zero_level(xs, ys, Z))
        panels = panels + [svm_panel] if mode == "fittings" else [svm_panel] + panels
    if one_d:
        panels.append(dict(title=f"{svm_name}: {sv['n_support']} support vectors",
                           F=sv["svm"].decision_function(xs[:, None]), support=sv["support"]))
    return dict(rows=rows, models=models, svm=sv, svm_name=svm_name, panels=panels, xs=xs, ys=ys,
                two_d=two_d, one_d=one_d, path=path, warnings=tuple(dict.fromkeys(notes)),
                n_basis=N)


def comparison_figure(cmp: dict, X, y, *, x_label="x", y_label="y", **layout):
    """The panels of :func:`compare` side by side (None unless 2-D classification or
    1-D regression). ``layout`` goes to the figure builder (``cols``, ``height``)."""
    from mpcore.plots import kmp_comparison_figure, kmp_fit_comparison_figure

    if cmp["two_d"]:
        return kmp_comparison_figure(X, y, cmp["xs"], cmp["ys"], cmp["panels"],
                                     classes=np.unique(y),
                                     positive=1 if cmp["path"] is None else cmp["path"], **layout)
    if cmp["one_d"]:
        return kmp_fit_comparison_figure(X[:, 0], y, cmp["xs"], cmp["panels"], x_label=x_label,
                                         y_label=y_label, **layout)
    return None
