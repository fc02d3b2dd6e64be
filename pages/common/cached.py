"""Every st.cache_data wrapper around mpcore and datasets.

Keys are small frozen dataclasses (DataChoice, KernelChoice) and ints, never
large arrays. Every cache has ``max_entries`` (and a ttl) so memory stays
bounded with many users; cached arrays are returned read-only so no caller
can mutate a value another session will see.
"""

from __future__ import annotations

import numpy as np
import streamlit as st
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

import datasets
from mpcore.kernels import kernel_matrix
from mpcore.skpca import SparseKPCA, greedy_steps, greedy_steps_from_data

from .widgets import CSV, MAX_APP_SAMPLES, DataChoice, KernelChoice

ENTRIES = 32
TTL = 3600


def freeze_tree(obj):
    """Make every ndarray inside ``obj`` (dicts, lists, tuples, objects) read-only."""
    if isinstance(obj, np.ndarray):
        obj.setflags(write=False)
    elif isinstance(obj, dict):
        for v in obj.values():
            freeze_tree(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            freeze_tree(v)
    elif hasattr(obj, "__dict__"):
        for v in vars(obj).values():
            freeze_tree(v)
    return obj


def _frozen(*arrays):
    out = []
    for a in arrays:
        if isinstance(a, np.ndarray):
            a = a.copy() if a.flags.writeable else a
            a.setflags(write=False)
        out.append(a)
    return out if len(out) > 1 else out[0]


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Loading data...")
def load_data(choice: DataChoice) -> datasets.Dataset:
    """The data set, standardised if asked, with clicked points appended."""
    if choice.name == CSV:
        raw = st.session_state.get("csv.bytes", b"")
        d = datasets.from_csv(raw, target=choice.csv_target, max_rows=MAX_APP_SAMPLES)
    else:
        d = datasets.load(choice.name, **choice.load_kwargs())
    X, y = np.array(d.X), None if d.y is None else np.array(d.y)
    if choice.added and X.shape[1] == 2 and y is not None:
        extra = np.array(choice.added, dtype=float)
        X = np.vstack([X, extra[:, :2]])
        y = np.concatenate([y, extra[:, 2].astype(y.dtype)])
    if choice.standardize:
        X = StandardScaler().fit_transform(X)
    X, y = _frozen(X, y) if y is not None else (_frozen(X), None)
    return datasets.Dataset(X=X, y=y, task=d.task, name=d.name, description=d.description,
                            source=d.source, feature_names=d.feature_names,
                            target_name=d.target_name, warnings=d.warnings)


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def split(choice: DataChoice, test_fraction: float):
    """Seeded train/test split (stratified for classification)."""
    d = load_data(choice)
    idx = np.arange(d.n_samples)
    strat = d.y if stratified(choice, test_fraction) else None
    tr, te = train_test_split(idx, test_size=test_fraction, random_state=choice.seed, stratify=strat)
    return _frozen(tr, te)  # train_test_split order, so X[tr] is the snippet's X_tr


def stratified(choice: DataChoice, test_fraction: float) -> bool:
    """Whether :func:`split` stratifies (so a code snippet can do the same)."""
    d = load_data(choice)
    return d.task == "classification" and _can_stratify(d.y, test_fraction)


def _can_stratify(y, frac):
    _, counts = np.unique(y, return_counts=True)
    return counts.min() >= 2 and int(frac * len(y)) >= len(counts)


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Computing the kernel matrix...")
def train_kernel(choice: DataChoice, kern: KernelChoice, test_fraction: float):
    d = load_data(choice)
    tr, _ = split(choice, test_fraction)
    return _frozen(kernel_matrix(d.X[tr], **kern.params()))


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Running greedy selection...")
def skpca_steps(choice: DataChoice, kern: KernelChoice, test_fraction: float, k: int,
                n_candidates: int | None = None):
    """list(greedy_steps(...)) on the training kernel: the page indexes this list."""
    d = load_data(choice)
    tr, _ = split(choice, test_fraction)
    if n_candidates is None:
        steps = greedy_steps(train_kernel(choice, kern, test_fraction), k)
    else:
        steps = greedy_steps_from_data(d.X[tr], k, n_candidates=n_candidates,
                                       random_state=choice.seed, **kern.params())
    return freeze_tree(list(steps))


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Fitting sparse kernel PCA...")
def skpca_model(choice: DataChoice, kern: KernelChoice, test_fraction: float, k: int,
                n_candidates: int | None = None) -> SparseKPCA:
    d = load_data(choice)
    tr, _ = split(choice, test_fraction)
    return freeze_tree(SparseKPCA(k, n_candidates=n_candidates, random_state=choice.seed,
                                  **kern.params()).fit(d.X[tr]))


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Exact eigenvalues...")
def train_eigenvalues(choice: DataChoice, kern: KernelChoice, test_fraction: float):
    """All eigenvalues of the training kernel, descending (for exact KPCA curves)."""
    K = train_kernel(choice, kern, test_fraction)
    return _frozen(np.clip(np.linalg.eigvalsh(K)[::-1], 0.0, None))


# ---------------------------------------------------------------- sparse KPCA page

HEATMAP_MAX_POINTS = 40  # points shown in the deflated-kernel heatmap
HEATMAP_MAX_M = 1000  # above this the heatmap is hidden


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Preparing the animation...")
def skpca_view(choice: DataChoice, kern: KernelChoice, test_fraction: float, k: int,
               n_candidates: int | None = None) -> dict:
    """Everything the sparse-KPCA page draws, computed once per setting."""
    from mpcore.plots import project_2d
    from mpcore.spectrum import incomplete_cholesky

    d = load_data(choice)
    tr, _ = split(choice, test_fraction)
    X = d.X[tr]
    steps = skpca_steps(choice, kern, test_fraction, k, n_candidates)
    X2, axis_labels = project_2d(X)
    m = len(tr)
    heat, heat_note = None, None
    if n_candidates is not None or m > HEATMAP_MAX_M:
        heat_note = (f"Heatmap hidden: m = {m} training points would mean {m}² numbers per frame"
                     + (" and the 59-trick never forms K." if n_candidates is not None else "."))
    else:
        K = train_kernel(choice, kern, test_fraction)
        model = skpca_model(choice, kern, test_fraction, k, None)
        if m > HEATMAP_MAX_POINTS:
            sub = np.linspace(0, m - 1, HEATMAP_MAX_POINTS).astype(int)
            heat_note = f"Heatmap shows {HEATMAP_MAX_POINTS} evenly spaced of the m = {m} points."
        else:
            sub = np.arange(m)
        # order the displayed points by class, then along the first axis: blocks show
        if d.task == "classification":
            sub = sub[np.lexsort((X2[sub, 0], d.y[tr][sub]))]
        else:
            sub = sub[np.argsort(X2[sub, 0])]
        F = model.transform(X[sub])
        K_sub = K[np.ix_(sub, sub)]
        cum = np.zeros_like(K_sub)
        heat = np.empty((len(steps), len(sub), len(sub)), dtype=np.float32)
        for j in range(len(steps)):
            cum += np.outer(F[:, j], F[:, j])
            heat[j] = K_sub - cum
    curves = {}
    trace0 = float(steps[0].trace_residual + steps[0].quotients[steps[0].index]) if steps else 0.0
    if n_candidates is None:
        lam = train_eigenvalues(choice, kern, test_fraction)
        tail = np.concatenate([[lam.sum()], lam.sum() - np.cumsum(lam)])[: len(steps) + 1]
        curves["exact KPCA (optimum)"] = np.maximum(tail, 0.0)
        K = train_kernel(choice, kern, test_fraction)
        R, _ = incomplete_cholesky(K, rank=len(steps))
        chol = trace0 - np.concatenate([[0.0], np.cumsum(np.sum(R**2, axis=1))])
        curves["incomplete Cholesky"] = np.maximum(chol, 0.0)
    labels = d.y[tr] if d.y is not None and d.task == "classification" else None
    return freeze_tree(dict(steps=steps, X2=X2, axis_labels=axis_labels, heat=heat,
                            heat_note=heat_note, curves=curves, trace0=trace0, m=m, labels=labels))


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Drawing the animation...")
def skpca_figure(choice: DataChoice, kern: KernelChoice, test_fraction: float, k: int,
                 n_candidates: int | None) -> dict:
    """The animated figure as a plotly dict for ``k`` steps.

    The page asks for the largest k it offers and cuts the figure to the k on
    the slider (mpcore.plots.cut_animation): moving the slider is then a cache hit.
    """
    from mpcore.plots import skpca_animation_dict

    v = skpca_view(choice, kern, test_fraction, k, n_candidates)
    return freeze_tree(skpca_animation_dict(v["X2"], v["steps"], axis_labels=v["axis_labels"],
                                            trace0=v["trace0"], curves=v["curves"],
                                            heatmaps=v["heat"]))


# ---------------------------------------------------------------- bounds page


@st.cache_data(max_entries=ENTRIES, ttl=TTL,
               show_spinner="Fitting sparse kernel PCA and computing both bounds...")
def bound_curves(choice: DataChoice, kern: KernelChoice, test_fraction: float, k_max: int,
                 delta: float):
    """mpcore.curves.bound_curves on the seeded train/test split (arrays read-only)."""
    from dataclasses import fields

    from mpcore.curves import bound_curves as _bound_curves

    d = load_data(choice)
    tr, te = split(choice, test_fraction)
    curves = _bound_curves(d.X[tr], d.X[te], k_max=k_max, delta=delta, **kern.params())
    for f in fields(curves):
        value = getattr(curves, f.name)
        if isinstance(value, np.ndarray):
            value.setflags(write=False)
    return curves


# ---------------------------------------------------------------- kernel matching pursuit page

from dataclasses import dataclass as _dataclass  # noqa: E402

#: Decision-surface grid: points per axis (60 x 60 values per animation frame).
KMP_GRID = 60
#: Points of the 1-D regression curve.
KMP_CURVE_POINTS = 240


@_dataclass(frozen=True)
class KMPSettings:
    """Everything the KMP page passes to the estimator besides the data and kernel."""

    n_basis: int
    fitting: str = "prefit"
    loss: str = "squared"
    backfit_every: int = 1
    mix: str = "single"
    feature: str | None = None  # regression: fit on this one feature only


def _one_blas():
    """One BLAS thread: KMP's many small products lose badly to thread contention on a
    shared machine (and the per-step timings then mean something)."""
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="blas")


def _with_warnings(fn, *args, **kwargs):
    """Call ``fn`` and return (result, tuple of warning messages it raised)."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn(*args, **kwargs)
    seen = []
    for w in caught:
        msg = str(w.message)
        if msg not in seen:
            seen.append(msg)
    return out, tuple(seen)


def kmp_data(choice: DataChoice, test_fraction: float, feature: str | None = None):
    """(X_tr, y_tr, X_te, y_te, feature_names): the split, one feature kept if asked."""
    d = load_data(choice)
    tr, te = split(choice, test_fraction)
    X, names = d.X, tuple(d.feature_names) or tuple(f"x{i + 1}" for i in range(d.n_features))
    if feature is not None:
        if feature not in names:
            raise ValueError(f"Unknown feature {feature!r}: choose one of {', '.join(names)}.")
        col = names.index(feature)
        X, names = X[:, [col]], (feature,)
    return X[tr], d.y[tr], X[te], d.y[te], names


def kmp_kernel(kern: KernelChoice, mix: str):
    """The estimator's ``kernel=`` keywords: the sidebar kernel, or a mixed dictionary."""
    from mpcore.kmp_view import mixed_dictionary

    if mix == "single":
        return kern.params()
    return dict(kernel=mixed_dictionary(kern.kernel, gamma=kern.gamma, degree=kern.degree,
                                        coef0=kern.coef0, mode=mix, sigma=kern.sigma))


def kmp_estimator(task: str, kern: KernelChoice, s: KMPSettings, early_stopping, seed: int):
    """The unfitted KMPClassifier / KMPRegressor the page (and its snippet) uses."""
    from mpcore.kmp import KMPClassifier, KMPRegressor

    common = dict(fitting=s.fitting, backfit_every=s.backfit_every,
                  early_stopping=early_stopping, random_state=seed, **kmp_kernel(kern, s.mix))
    if task == "classification":
        return KMPClassifier(s.n_basis, loss=s.loss, **common)
    return KMPRegressor(s.n_basis, **common)


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Running kernel matching pursuit...")
def kmp_model(choice: DataChoice, kern: KernelChoice, test_fraction: float, s: KMPSettings,
              early_stopping: str | None = None):
    """(fitted estimator, warnings) on the training rows X[tr]."""
    X, y, _, _, _ = kmp_data(choice, test_fraction, s.feature)
    est = kmp_estimator(load_data(choice).task, kern, s, early_stopping, choice.seed)
    with _one_blas():
        return _with_warnings(est.fit, X, y)


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Timing every step...")
def kmp_curves(choice: DataChoice, kern: KernelChoice, test_fraction: float, s: KMPSettings):
    """(mpcore.kmp_view.KMPCurves, warnings): all n_basis steps, timed and scored."""
    from mpcore.kmp_view import kmp_curves as _curves

    X, y, Xt, yt, _ = kmp_data(choice, test_fraction, s.feature)
    est = kmp_estimator(load_data(choice).task, kern, s, None, choice.seed)
    with _one_blas():
        return _with_warnings(_curves, est, X, y, Xt, yt)


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Fitting the SVM...")
def kmp_svm(choice: DataChoice, kern: KernelChoice, test_fraction: float, C: float,
            feature: str | None = None, cls: int | None = None):
    """dict(n_support, support, train_score, test_score, svm) of scikit-learn's SVM, same kernel.

    ``cls`` (more than two classes): the binary SVM of that class against the rest,
    the problem whose decision surface a one-vs-rest KMP panel draws.
    """
    from mpcore.kmp_view import svm_reference

    X, y, Xt, yt, _ = kmp_data(choice, test_fraction, feature)
    task = load_data(choice).task
    if cls is not None and task == "classification":
        positive = np.unique(y)[cls]
        y, yt = (y == positive).astype(int), (yt == positive).astype(int)
    with _one_blas():
        svm = svm_reference(X, y, task=task, C=C, **kern.params())
    if task == "classification":
        tr, te = float(np.mean(svm.predict(X) == y)), float(np.mean(svm.predict(Xt) == yt))
    else:
        tr = float(np.sqrt(np.mean((svm.predict(X) - y) ** 2)))
        te = float(np.sqrt(np.mean((svm.predict(Xt) - yt) ** 2)))
    return dict(n_support=svm.n_support, support=_frozen(svm.support), train_score=tr,
                test_score=te, svm=svm)


def _path_of(model, cls: int | None):
    """Per-step basis / kernels / coef path of the displayed pursuit."""
    multi = getattr(model, "classes_", np.zeros(2)).size > 2
    pick = (lambda v: v[cls]) if multi else (lambda v: v)
    return pick(model.basis_indices_), pick(model.basis_kernels_), pick(model.coef_path_)


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def kmp_staged(choice: DataChoice, kern: KernelChoice, test_fraction: float, s: KMPSettings,
               early_stopping: str | None, cls: int | None = None):
    """Per kept step: predictions on the training and test rows, and the displayed path."""
    from mpcore.kmp_view import spec_label

    X, y, Xt, yt, _ = kmp_data(choice, test_fraction, s.feature)
    model, _ = kmp_model(choice, kern, test_fraction, s, early_stopping)
    basis, kernels, coef_path = _path_of(model, cls)
    return dict(train=_frozen(np.array(list(model.staged_predict(X)))),
                test=_frozen(np.array(list(model.staged_predict(Xt)))),
                basis=_frozen(np.asarray(basis)), kernels=_frozen(np.asarray(kernels)),
                coef_path=_frozen(np.asarray(coef_path)),
                spec_labels=tuple(spec_label(sp) for sp in model.kernel_specs_),
                classes=None if not hasattr(model, "classes_") else _frozen(model.classes_))


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Preparing the animation...")
def kmp_animation(choice: DataChoice, kern: KernelChoice, test_fraction: float, s: KMPSettings,
                  early_stopping: str | None, cls: int | None, frame_ms: int) -> dict:
    """The page's animated figure (plotly dict) for the data at hand:

    2-D classification: the decision surface; 1-D regression: the fit with its
    basis functions; otherwise predictions (regression) or decision values of
    the test points (classification) after each step.
    """
    from mpcore import kmp_view
    from mpcore.plots._kmp import (kmp_fit_animation, kmp_prediction_animation,
                                   kmp_surface_animation, kmp_values_animation)

    X, y, Xt, yt, names = kmp_data(choice, test_fraction, s.feature)
    model, _ = kmp_model(choice, kern, test_fraction, s, early_stopping)
    v = kmp_staged(choice, kern, test_fraction, s, early_stopping, cls)
    task = load_data(choice).task
    path = cls if task == "classification" and model.classes_.size > 2 else None
    if task == "classification" and X.shape[1] == 2:
        xs, ys, pts = kmp_view.grid_2d(np.vstack([X, Xt]), KMP_GRID)
        Z = kmp_view.staged_values(model, pts, path).reshape(-1, ys.size, xs.size)
        boundary = [kmp_view.zero_level(xs, ys, z) for z in Z]
        fig = kmp_surface_animation(
            X, y, Z, xs, ys, v["basis"], v["kernels"], classes=model.classes_,
            positive=1 if path is None else path, spec_labels=v["spec_labels"], X_test=Xt,
            y_test=yt, boundary=boundary, frame_ms=frame_ms)
    elif task == "classification":
        values = kmp_view.staged_values(model, Xt, path)
        fig = kmp_values_animation(values, yt, classes=model.classes_,
                                   positive=1 if path is None else path, frame_ms=frame_ms)
    elif X.shape[1] == 1:
        lo, hi = min(X.min(), Xt.min()), max(X.max(), Xt.max())
        pad = 0.03 * (hi - lo + 1e-12)
        xs = np.linspace(lo - pad, hi + pad, KMP_CURVE_POINTS)
        B = kmp_view.basis_functions(model, xs[:, None])
        F = kmp_view.staged_values(model, xs[:, None])
        d = load_data(choice)
        fig = kmp_fit_animation(X[:, 0], y, xs, F, B, v["coef_path"], v["basis"], v["kernels"],
                                spec_labels=v["spec_labels"], x_test=Xt[:, 0], y_test=yt,
                                frame_ms=frame_ms, x_label=names[0],
                                y_label=d.target_name or "y")
    else:
        fig = kmp_prediction_animation(y, v["train"], yt, v["test"], basis=v["basis"],
                                       frame_ms=frame_ms,
                                       target_label=load_data(choice).target_name or "y")
    return fig.to_plotly_json()


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Fitting the models to compare...")
def kmp_comparison(choice: DataChoice, kern: KernelChoice, test_fraction: float, s: KMPSettings,
                   C: float, mode: str, n_basis: int | None, basic_n: int, cls: int | None = None):
    """Figure 6 (mode "fittings": basic, back-fitting, pre-fitting, SVM) or Figure 7
    (mode "losses": SVM, KMP-mse with pre-fitting, KMP-tanh with back-fitting).

    ``n_basis`` None uses the SVM's number of support vectors. Returns
    dict(figure=plotly dict or None (not 2-D classification or 1-D regression), rows=table rows,
    warnings=tuple, n_basis=N used).
    """
    from dataclasses import replace

    from mpcore import kmp_view
    from mpcore.plots._kmp import kmp_comparison_figure

    X, y, Xt, yt, _ = kmp_data(choice, test_fraction, s.feature)
    task = load_data(choice).task
    multi = task == "classification" and np.unique(y).size > 2
    path = cls if multi else None
    sv = kmp_svm(choice, kern, test_fraction, C, s.feature, path)
    m = len(X)
    N = int(min(max(sv["n_support"], 1), m) if n_basis is None else min(n_basis, m))
    if mode == "fittings" or task != "classification":
        runs = [("basic", replace(s, fitting="basic", n_basis=min(basic_n, m))),
                ("back-fitting", replace(s, fitting="backfit", n_basis=N)),
                ("pre-fitting", replace(s, fitting="prefit", n_basis=N))]
    else:
        runs = [("KMP-mse (pre-fitting)", replace(s, fitting="prefit", loss="squared", n_basis=N)),
                ("KMP-tanh (back-fitting, Fig. 4)",
                 replace(s, fitting="backfit", loss="tanh", n_basis=N))]
    two_d = task == "classification" and X.shape[1] == 2
    one_d = task == "regression" and X.shape[1] == 1
    if two_d:
        xs, ys, pts = kmp_view.grid_2d(np.vstack([X, Xt]), KMP_GRID)
    if one_d:
        lo, hi = min(X.min(), Xt.min()), max(X.max(), Xt.max())
        xs = np.linspace(lo, hi, KMP_CURVE_POINTS)
    panels, rows, notes = [], [], []

    def score(pred_tr, pred_te):
        if task == "classification":
            return float(np.mean(pred_tr == y)), float(np.mean(pred_te == yt))
        return (float(np.sqrt(np.mean((pred_tr - y) ** 2))),
                float(np.sqrt(np.mean((pred_te - yt) ** 2))))

    for title, settings in runs:
        model, warns = kmp_model(choice, kern, test_fraction, settings, None)
        notes += [f"{title}: {w}" for w in warns]
        basis = _path_of(model, path)[0]
        if path is None:
            tr, te = score(model.predict(X), model.predict(Xt))
        else:  # the displayed class against the rest, the problem its panel and the SVM solve
            c = model.classes_[path]
            tr = float(np.mean((model.decision_function(X)[:, path] > 0) == (y == c)))
            te = float(np.mean((model.decision_function(Xt)[:, path] > 0) == (yt == c)))
        distinct = int(np.unique(basis[basis >= 0]).size)
        rows.append(dict(method=title, steps=int(len(basis)), distinct_basis_points=distinct,
                         train=tr, test=te))
        if two_d:
            Z = kmp_view.staged_values(model, pts, path)[-1].reshape(ys.size, xs.size)
            panels.append(dict(title=f"{title}: {len(basis)} steps, {distinct} points",
                               Z=Z, support=basis, boundary=kmp_view.zero_level(xs, ys, Z)))
        if one_d:
            panels.append(dict(title=f"{title}: {len(basis)} steps, {distinct} points",
                               F=model.predict(xs[:, None]), support=basis))
    svm = sv["svm"]
    svm_name = f"SVM (C = {C:g})" if path is None else f"SVM (C = {C:g}), class vs rest"
    if task == "regression":
        svm_name = f"SVR (C = {C:g})"
    rows.append(dict(method=svm_name, steps=None, distinct_basis_points=sv["n_support"],
                     train=sv["train_score"], test=sv["test_score"]))
    figure = None
    if two_d:
        Z = svm.decision_function(pts).reshape(ys.size, xs.size)
        svm_panel = dict(title=f"SVM (C = {C:g}): {sv['n_support']} support vectors", Z=Z,
                         support=sv["support"], boundary=kmp_view.zero_level(xs, ys, Z))
        panels = panels + [svm_panel] if mode == "fittings" else [svm_panel] + panels
        fig = kmp_comparison_figure(X, y, xs, ys, panels, classes=np.unique(y),
                                    positive=1 if path is None else path)
        figure = fig.to_plotly_json()
    if one_d:
        from mpcore.plots._kmp import kmp_fit_comparison_figure

        panels.append(dict(title=f"{svm_name}: {sv['n_support']} support vectors",
                           F=svm.decision_function(xs[:, None]), support=sv["support"]))
        d = load_data(choice)
        fig = kmp_fit_comparison_figure(X[:, 0], y, xs, panels,
                                        x_label=s.feature or (d.feature_names or ("x",))[0],
                                        y_label=d.target_name or "y")
        figure = fig.to_plotly_json()
    return dict(figure=figure, rows=rows, warnings=tuple(dict.fromkeys(notes)), n_basis=N)


# ---------------------------------------------------------------- spectrum page

#: Points of the error-against-k and error-against-q grids (log-spaced).
SPECTRUM_GRID = 8
#: Above this m, Marukatat's Eq. 3 (an O(m^3) diagnostic per point) is drawn at the chosen q only.
SPECTRUM_BOUND_GRID_MAX_M = 1000
#: Exact eigenvalues at or below this fraction of the largest count as zero and are not
#: compared (a relative error against a rounding-level eigenvalue means nothing).
SPECTRUM_ZERO_RATIO = 1e-10
#: BLAS threads while the spectrum and KCCA pages compute: on a shared 2-core server,
#: threaded LAPACK loses badly to contention, and the timing table compares methods on
#: equal terms.
SPECTRUM_BLAS_THREADS = 1


def spectrum_scree_length(m: int, n_eig: int, k: int, q: int) -> int:
    """How many leading eigenvalues the scree plot shows (past k and q, so their edge shows)."""
    return int(min(m, max(50, 2 * n_eig, k + 10, q + 10)))


def spectrum_grid(top: int) -> np.ndarray:
    """Log-spaced integer grid from 1 to ``top`` (both included)."""
    return np.unique(np.round(np.geomspace(1, max(int(top), 1), SPECTRUM_GRID)).astype(int))


def _n_compared(exact_top):
    """Leading eigenvalues that are not zero to rounding (at least one)."""
    lam = np.asarray(exact_top, dtype=float)
    return max(1, int(np.count_nonzero(lam > SPECTRUM_ZERO_RATIO * max(float(lam[0]), 0.0))))


def _relative_bound(bound, exact):
    """Eq. 3 carried to the eigenvalue scale, relative like mpcore.spectrum.relative_error."""
    exact = np.asarray(exact, dtype=float)
    return np.where(exact > 0, bound / np.where(exact > 0, exact, 1.0), bound)


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Computing the kernel matrix...")
def full_kernel(choice: DataChoice, kern: KernelChoice):
    """K on every point of the data set (the spectrum page does not split)."""
    d = load_data(choice)
    return _frozen(kernel_matrix(d.X, **kern.params()))


@st.cache_data(max_entries=ENTRIES, ttl=TTL,
               show_spinner="Timing every eigen-solver on the same K (one run each)...")
def spectrum_run(choice: DataChoice, kern: KernelChoice, k: int, q: int, n_eig: int) -> dict:
    """One timed run of every method at (k, q): eigenvalues, errors, angles, Eq. 3.

    Every method computes the top ``n_eig`` eigenvalues and is timed once;
    dense ``eigh`` of all m is the reference. Scree values, eigenvectors and
    Eq. 3 are computed afterwards, untimed, with the same indices and seeds.
    """
    from threadpoolctl import threadpool_limits

    K = full_kernel(choice, kern)
    with threadpool_limits(limits=SPECTRUM_BLAS_THREADS, user_api="blas"):
        return _spectrum_run(K, choice.seed, k, q, n_eig)


def _spectrum_run(K, seed, k, q, n_eig):
    import time

    from scipy.sparse.linalg import ArpackError

    from mpcore.plots._spectrum import EKM_SERIES, EXACT, NYSTROM_SERIES
    from mpcore.spectrum import (
        ekm_eigenpairs,
        ekm_eigenvalues,
        ekm_perturbation_bound,
        exact_eigenpairs,
        exact_eigenvalues,
        nystrom_eigenpairs,
        nystrom_eigenvalues,
        nystrom_indices,
        relative_error,
        subspace_distance,
    )

    m = K.shape[0]
    L = spectrum_scree_length(m, n_eig, k, q)

    def timed(fn):
        t0 = time.perf_counter()
        out = fn()
        return out, time.perf_counter() - t0

    exact_all, t_dense = timed(lambda: exact_eigenvalues(K, m, method="eigh"))
    exact = exact_all[:n_eig]
    n_cmp = _n_compared(exact)
    _, U = exact_eigenpairs(K, n_eig, method="eigh")
    rows, top, scree, angles, indices, ekm = [], {}, {EXACT: exact_all[:L]}, {}, {}, {}

    def row(name, what, seconds, values, angle=np.nan, used=None):
        top[name] = values
        err = relative_error(values[:n_cmp], exact[:n_cmp])
        rows.append({"method": name, "computes": what, "time (s)": seconds,
                     "time / dense eigh": seconds / t_dense if t_dense > 0 else np.nan,
                     f"max rel. error, top {n_cmp}": float(err.max()),
                     "rel. error λ₁": float(err[0]),
                     "largest angle (°)": angle, "vectors compared": used})

    # the reference vectors come from the same LAPACK routine: angle 0 by construction
    row("dense eigh (all m)", f"all {m} eigenvalues", t_dense, exact, 0.0, n_cmp)
    vals, sec = timed(lambda: exact_eigenvalues(K, n_eig, method="eigh"))
    row("eigh, top n only", f"top {n_eig}, exact", sec, vals, 0.0, n_cmp)
    eigsh_note = None
    try:
        vals, sec = timed(lambda: exact_eigenvalues(K, n_eig, method="eigsh"))
        _, V = exact_eigenpairs(K, n_cmp, method="eigsh")  # untimed; n_cmp <= n_eig < m
        angle = np.degrees(subspace_distance(U[:, :n_cmp], V))
        row("eigsh (Lanczos), top n", f"top {n_eig}, exact", sec, vals, angle, n_cmp)
    except ArpackError as exc:  # includes ArpackNoConvergence
        eigsh_note = f"eigsh did not converge here ({exc}); it is left out of the table."

    for rule, name in NYSTROM_SERIES.items():
        def nystrom(rule=rule):
            idx = nystrom_indices(K, k, rule=rule, random_state=seed)
            return idx, nystrom_eigenvalues(K, idx, n_eig)

        (idx, vals), sec = timed(nystrom)
        indices[name] = _frozen(np.asarray(idx))
        scree[name] = nystrom_eigenvalues(K, idx, L)
        r = int(np.count_nonzero(vals[:n_cmp] > 0))
        angle = np.nan
        if r:
            _, V = nystrom_eigenpairs(K, idx, r)
            angle = np.degrees(subspace_distance(U[:, :r], V))
        angles[name] = (angle, r)
        row(name, f"top {n_eig} from {len(idx)} columns", sec, vals, angle, r)

    for sketch, name in EKM_SERIES.items():
        vals, sec = timed(lambda sketch=sketch: ekm_eigenvalues(K, q, n_eig, sketch=sketch,
                                                                 random_state=seed))
        scree[name] = ekm_eigenvalues(K, q, L, sketch=sketch, random_state=seed)
        _, V = ekm_eigenpairs(K, q, min(n_cmp, q), sketch=sketch, random_state=seed)
        keep = np.any(V != 0, axis=0)
        r = int(keep.sum())
        angle = np.degrees(subspace_distance(U[:, :r], V[:, keep])) if r else np.nan
        angles[name] = (angle, r)
        row(name, f"top {n_eig} from a {q}-dim sketch", sec, vals, angle, r)
        p = ekm_perturbation_bound(K, q, n_cmp, sketch=sketch, random_state=seed)
        ekm[name] = dict(observed=float(p.observed.max()), spectral=p.spectral_bound,
                         entrywise=p.entrywise_bound,
                         relative_bound=float(_relative_bound(p.eigenvalue_bound, p.exact).max()))
    for d in (top, scree):
        for key in d:
            d[key] = _frozen(np.asarray(d[key], dtype=float))
    gap = np.nan
    if n_eig < m and exact_all[0] > 0:
        gap = (exact_all[n_eig - 1] - exact_all[n_eig]) / exact_all[0]
    return dict(m=m, n_eig=n_eig, n_compared=n_cmp, scree_length=L, rows=rows, top=top,
                scree=scree, angles=angles, indices=indices, ekm=ekm, eigsh_note=eigsh_note,
                relative_gap=float(gap))


@st.cache_data(max_entries=ENTRIES, ttl=TTL,
               show_spinner="Errors over a grid of k and q (with Eq. 3 at every q)...")
def spectrum_curves(choice: DataChoice, kern: KernelChoice, n_eig: int, k_max: int) -> dict:
    """Max relative error over the top n against k (three rules) and q (two sketches).

    The sparse-KPCA and Cholesky subsets are nested, so one run to ``k_max``
    gives every k on the grid as a prefix; random subsets and sketches use
    the page's seed, so a grid point equal to the page's k or q reproduces
    :func:`spectrum_run` exactly.
    """
    from threadpoolctl import threadpool_limits

    K = full_kernel(choice, kern)
    with threadpool_limits(limits=SPECTRUM_BLAS_THREADS, user_api="blas"):
        return _spectrum_curves(K, choice.seed, n_eig, k_max)


def _spectrum_curves(K, seed, n_eig, k_max):
    from mpcore.plots._spectrum import EKM_SERIES, NYSTROM_SERIES
    from mpcore.spectrum import (
        ekm_eigenvalues,
        ekm_perturbation_bound,
        exact_eigenvalues,
        nystrom_eigenvalues,
        nystrom_indices,
        relative_error,
    )

    m = K.shape[0]
    exact = exact_eigenvalues(K, n_eig, method="eigh")
    n_cmp = _n_compared(exact)
    k_grid, q_grid = spectrum_grid(min(k_max, m)), spectrum_grid(m)
    nested = {rule: nystrom_indices(K, int(k_grid[-1]), rule=rule) for rule in ("skpca", "cholesky")}
    nystrom = {}
    for rule, name in NYSTROM_SERIES.items():
        errs = []
        for kk in k_grid:
            idx = nested[rule][:kk] if rule in nested else nystrom_indices(
                K, int(kk), rule=rule, random_state=seed)
            vals = nystrom_eigenvalues(K, idx, n_cmp)
            errs.append(relative_error(vals, exact[:n_cmp]).max())
        nystrom[name] = _frozen(np.asarray(errs))
    with_bound = m <= SPECTRUM_BOUND_GRID_MAX_M
    errors, bounds, eq3 = {}, {}, {}
    for sketch, name in EKM_SERIES.items():
        errs, rel_b, obs, spec, entry = [], [], [], [], []
        for qq in q_grid:
            if with_bound:
                p = ekm_perturbation_bound(K, int(qq), n_cmp, sketch=sketch, random_state=seed)
                vals = p.approx
                rel_b.append(_relative_bound(p.eigenvalue_bound, p.exact).max())
                obs.append(p.observed.max())
                spec.append(p.spectral_bound)
                entry.append(p.entrywise_bound)
            else:
                vals = ekm_eigenvalues(K, int(qq), n_cmp, sketch=sketch, random_state=seed)
            errs.append(relative_error(vals, exact[:n_cmp]).max())
        errors[name] = _frozen(np.asarray(errs))
        if with_bound:
            bounds[name] = _frozen(np.asarray(rel_b))
            eq3[name] = tuple(_frozen(np.asarray(a)) for a in (obs, spec, entry))
    return dict(k_grid=_frozen(k_grid), q_grid=_frozen(q_grid), nystrom=nystrom, ekm=errors,
                ekm_bounds=bounds, eq3=eq3, with_bound=with_bound, n_compared=n_cmp)


# ---------------------------------------------------------------- sparse KCCA page

#: Relative jitter tried when a Cholesky factor of K[i,i] fails (ill-conditioned basis).
KCCA_JITTER = (0.0, 1e-12, 1e-10, 1e-8)


def _pearson(u, v) -> float:
    u = np.asarray(u, dtype=float) - np.mean(u)
    v = np.asarray(v, dtype=float) - np.mean(v)
    denom = float(np.sqrt((u @ u) * (v @ v)))
    return float(u @ v / denom) if denom > 0 else 0.0


def _gram_schmidt_features(W):
    """Map K[:, i] to K[:, i] L^-T, L L' = K[i,i]: column t uses the first t chosen points only."""
    from scipy.linalg import cholesky, solve_triangular

    scale = max(float(np.max(np.diag(W))), np.finfo(float).tiny)
    for jitter in KCCA_JITTER:
        try:
            L = cholesky(W + jitter * scale * np.eye(len(W)), lower=True, check_finite=False)
            break
        except np.linalg.LinAlgError:
            continue
    else:
        raise ValueError("The chosen basis is numerically dependent (K[i,i] is not positive "
                         "definite); lower the basis size k or widen sigma.")
    return lambda cols: solve_triangular(L, np.asarray(cols).T, lower=True, check_finite=False).T


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def kcca_data(n: int, noise: float, seed: int, test: float) -> dict:
    """datasets.two_view, split with a seeded train_test_split (train_test_split order)."""
    X, Y, z = datasets.two_view(n, noise, seed)
    tr, te = train_test_split(np.arange(n), test_size=test, random_state=seed)
    out = dict(X=X[tr], Y=Y[tr], z=z[tr], X_te=X[te], Y_te=Y[te], z_te=z[te])
    return {key: _frozen(val) for key, val in out.items()}


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Choosing the basis pairs greedily...")
def kcca_view(n: int, noise: float, seed: int, test: float, sigma_x: float, sigma_y: float,
              reg: float, k: int) -> dict:
    """list(kcca_steps(...)) on the training views, and the correlations after each step.

    For t = 1..k: the regularised canonical correlation rho_t (the step's
    ``correlation``), and the Pearson correlations of the first canonical
    projections on the training and the held-out pairs, in the span of the
    first t chosen points (what ``SparseKCCA(n_basis=t).fit(...).score`` gives).
    """
    from threadpoolctl import threadpool_limits

    d = kcca_data(n, noise, seed, test)
    with threadpool_limits(limits=SPECTRUM_BLAS_THREADS, user_api="blas"):
        return _kcca_view(d, sigma_x, sigma_y, reg, k)


def _kcca_view(d, sigma_x, sigma_y, reg, k):
    from dataclasses import fields

    from mpcore.kcca import canonical_correlations, kcca_steps
    from mpcore.kernels import sigma_to_gamma

    px = dict(kernel="rbf", gamma=sigma_to_gamma(sigma_x, "book"))
    py = dict(kernel="rbf", gamma=sigma_to_gamma(sigma_y, "book"))
    Kx, Ky = kernel_matrix(d["X"], **px), kernel_matrix(d["Y"], **py)
    steps = list(kcca_steps(Kx, Ky, k, reg=reg))
    if not steps:
        raise ValueError("A kernel matrix is numerically zero: no basis point can be chosen.")
    for s in steps:  # the steps' arrays are handed to every session: make them read-only
        for f in fields(s):
            value = getattr(s, f.name)
            if isinstance(value, np.ndarray):
                value.setflags(write=False)
    idx = np.array([s.index for s in steps])
    fx = _gram_schmidt_features(Kx[np.ix_(idx, idx)])
    fy = _gram_schmidt_features(Ky[np.ix_(idx, idx)])
    Fx, Fy = fx(Kx[:, idx]), fy(Ky[:, idx])
    Fx_te = fx(kernel_matrix(d["X_te"], d["X"][idx], **px))
    Fy_te = fy(kernel_matrix(d["Y_te"], d["Y"][idx], **py))
    train, held_out = [], []
    for t in range(1, len(idx) + 1):
        _, Wx, Wy, mx, my = canonical_correlations(Fx[:, :t], Fy[:, :t], reg, 1)
        train.append(_pearson((Fx[:, :t] - mx) @ Wx[:, 0], (Fy[:, :t] - my) @ Wy[:, 0]))
        held_out.append(_pearson((Fx_te[:, :t] - mx) @ Wx[:, 0], (Fy_te[:, :t] - my) @ Wy[:, 0]))
    return dict(steps=steps, indices=_frozen(idx),
                rho=_frozen(np.array([s.correlation for s in steps])),
                train=_frozen(np.array(train)), test=_frozen(np.array(held_out)))


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def kcca_figure(n: int, noise: float, seed: int, test: float, sigma_x: float, sigma_y: float,
                reg: float, k: int, frame_ms: int) -> dict:
    """The animated sparse-KCCA figure as a plotly dict (the page sets the start frame)."""
    from mpcore.plots._kcca import kcca_animation

    d = kcca_data(n, noise, seed, test)
    v = kcca_view(n, noise, seed, test, sigma_x, sigma_y, reg, k)
    fig = kcca_animation(d["X"], d["Y"], d["z"], v["steps"], train=v["train"], test=v["test"],
                         rho=v["rho"], frame_ms=frame_ms)
    return fig.to_plotly_json()


# ---------------------------------------------------------------- reproduce page


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def reproduce_result(key: str, settings):
    """mpcore.reproduce.run_experiment(key, settings), with a progress bar while it runs.

    ``settings`` is the experiment's frozen settings dataclass (the cache key), so
    the page shows exactly what ``python -m mpcore.reproduce`` writes for the same
    settings. The progress bar is created and cleared inside the cached call, so a
    cache hit replays nothing visible. The figure comes back as a plotly dict.
    """
    from dataclasses import replace

    from mpcore.reproduce import EXPERIMENTS, run_experiment

    title = EXPERIMENTS[key].title
    bar = st.progress(0.0, text=f"{title}: starting...")
    result = run_experiment(key, settings, progress=lambda f, msg: bar.progress(
        f, text=f"{title}: {msg}"))
    bar.empty()
    return replace(result, figure=result.figure.to_plotly_json())
