"""The kernel matching pursuit page with Streamlit's AppTest (no browser).

Every control path renders without an exception or st.error: the three
fittings, the five losses, every kernel (sigmoid included, with its note on
Mercer's condition), every data set the page offers, the extremes of N,
early stopping, mixed dictionaries, one-vs-rest classes, the regression
feature, the four tabs and the paper presets. Wherever the page shows chosen
basis points they equal ``basis_indices_`` of mpcore's estimator fitted here
on data rebuilt independently, the exported snippet reproduces them when
executed, and the downloaded CSV holds the plotted curves. A user's own CSV on this
page: tests/pages/test_kmp_upload.py.

Reference data: ``datasets.load`` -> ``StandardScaler`` -> a seeded
``train_test_split`` of the row indices (stratified for classification when
every class has two members and the test part can hold one of each), in
train_test_split's order: the ``X_tr`` of the snippet.
"""

from __future__ import annotations

import functools
import io
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import confusion_matrix
from sklearn.svm import SVC
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

from apptest_util import (assert_clean, code_of, kernel_params, markdown_tables, markdown_cells,
                          reference_data, widget)
from apptest_util import reference_split as reference_split_indices
from chart_util import decode
from csv_util import csv_bytes
from kmp_apptest import chosen, counter, figures, open_page, set_widget, settings, to_last

import datasets
from mpcore.kernels import kernel_matrix
from mpcore.kmp import KMPClassifier, KMPRegressor
from mpcore.kmp import mixed_dictionary, spec_label
from views.kmp import path_of
from views.kmp_curves import kmp_curves

#: Every test here drives the page through AppTest (about a second each): the slow tier.
pytestmark = pytest.mark.slow

#: Small runs keep the loops over every setting fast.
SMALL = dict(n=60, k=6)
TABS = ("Decision surface / fit", "Compare with SVM (Fig. 6, 7)", "Error and bound curves",
        "Losses (Fig. 5)")
STEP = re.compile(r"Step (\d+) of (\d+)")
#: Offered: every classification and regression data set (the page's data_controls tasks).
OFFERED = [n for n in datasets.names() if datasets.info(n).task in ("classification", "regression")]


# ---------------------------------------------------------------- helpers


def reference_split(s):
    d, X = reference_data(s)
    if s["feature"] not in (None, "all features"):
        X = X[:, [list(d.feature_names).index(s["feature"])]]
    tr, te = reference_split_indices(d, len(X), s)
    return X[tr], d.y[tr], X[te], d.y[te], d.task


def reference_model(s, early_stopping="default"):
    """mpcore's estimator with the page's settings, fitted on the independently rebuilt data.

    Fitted once per settings in this module (several tests check the same view): read only.
    """
    return _reference_model(tuple(sorted(s.items())), early_stopping)


@functools.lru_cache(maxsize=128)
def _reference_model(items, early_stopping):
    s = dict(items)
    X, y, _, _, task = reference_split(s)
    kern = kernel_params(s)
    if s["mix"] != "single":
        kern = dict(kernel=mixed_dictionary(kern["kernel"], gamma=kern.get("gamma"),
                                            degree=kern.get("degree", 3),
                                            coef0=kern.get("coef0", 1.0), mode=s["mix"],
                                            sigma=s["sigma"]))
    stop = s["stop"] if early_stopping == "default" else early_stopping
    common = dict(fitting=s["fitting"], backfit_every=s["backfit_every"],
                  early_stopping=None if stop == "none" else stop, random_state=s["seed"], **kern)
    est = (KMPClassifier(s["k"], loss=s["loss"], **common) if task == "classification"
           else KMPRegressor(s["k"], **common))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return est.fit(X, y)


def expected_basis(model, cls=0):
    return list(path_of(model, cls).basis_indices_)


def assert_matches_mpcore(at):
    """Step to the end: the chosen points are mpcore's, in order, and N is its n_basis_."""
    to_last(at)
    s = settings(at)
    model = reference_model(s)
    assert chosen(at) == expected_basis(model, s["cls"])
    n = path_of(model, s["cls"]).n_basis_
    assert counter(at)[1] == n
    return model


@pytest.fixture
def downloads(monkeypatch):
    """Bytes of every st.download_button, by file id (AppTest keeps media in memory), and
    the function behind every deferred one (its file is built when the button is pressed)."""
    store = {}
    original = MemoryMediaFileStorage.load_and_get_id
    original_deferred = MediaFileManager.add_deferred

    def record(self, path_or_data, mimetype, kind, filename=None):
        file_id = original(self, path_or_data, mimetype, kind, filename)
        store[file_id] = path_or_data
        return file_id

    def record_deferred(self, data_callable, *args, **kwargs):
        file_id = original_deferred(self, data_callable, *args, **kwargs)
        store[file_id] = data_callable
        return file_id

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", record)
    monkeypatch.setattr(MediaFileManager, "add_deferred", record_deferred)
    return store


def download(at, store, label) -> bytes:
    """The file a download button gives: built as a press would, if it is deferred."""
    buttons = [b for b in at.get("download_button") if b.proto.label == label]
    assert buttons, [b.proto.label for b in at.get("download_button")]
    proto = buttons[0].proto
    if proto.deferred_file_id:
        data = store[proto.deferred_file_id]()
        return data.encode() if isinstance(data, str) else data
    return store[Path(proto.url).stem]


# ---------------------------------------------------------------- default view and steps


def test_default_view_is_mpcore_step_by_step():
    at = open_page()
    assert_clean(at)
    assert counter(at) == (1, 20)
    at.button(key="kmp.back").click().run()
    assert counter(at) == (1, 20)  # Back at step 1 stays there
    at.button(key="kmp.next").click().run()
    assert counter(at) == (2, 20)
    s = settings(at)
    model = reference_model(s)
    assert chosen(at) == expected_basis(model)[:2]
    fig = figures(at)[0]
    assert len(fig["frames"]) == 20
    assert fig["layout"]["title"]["text"].startswith("Step 2 of 20")
    model = assert_matches_mpcore(at)
    _, _, Xt, yt, _ = reference_split(s)
    accuracy = [m.value for m in at.metric if m.label == "Test accuracy"]
    assert accuracy == [f"{model.score(Xt, yt):.1%}"]
    # the confusion matrix, a Markdown table: scikit-learn's on the test rows
    tables = [markdown_cells(m.value) for m in at.markdown if m.value.startswith("| true |")]
    assert len(tables) == 1
    labels = model.classes_
    assert tables[0][0] == ["true", *map(str, labels)]
    shown = [[int(v) for v in row[1:]] for row in tables[0][1:]]
    assert shown == confusion_matrix(yt, model.predict(Xt), labels=labels).tolist()


def test_many_classes_are_summed_up_by_class_under_the_figure():
    """Digits' ten classes: their confusion matrix (11 columns, 477 px) is wider than the
    column beside the figure (189 px at 1280) and than a phone (356 px), so the page sums up
    each class's row under the figure instead: scikit-learn's matrix of the test rows, row by
    row."""
    at = open_page(dict(dataset="digits", k=6))
    assert_clean(at)
    model = assert_matches_mpcore(at)
    _, _, Xt, yt, _ = reference_split(settings(at))
    labels = model.classes_
    C = confusion_matrix(yt, model.predict(Xt), labels=labels)
    assert not [m for m in at.markdown if m.value.startswith("| true |")]  # no 10 x 10 table
    tables = [markdown_cells(m.value) for m in at.markdown if m.value.startswith("| true class |")]
    assert len(tables) == 1
    assert tables[0][0] == ["true class", "test points", "predicted right",
                            "most often predicted instead (points)"]
    assert len(tables[0]) == 1 + len(labels)
    for i, (row, label) in enumerate(zip(tables[0][1:], labels)):
        off = C[i].copy()
        off[i] = 0
        instead = f"{labels[int(np.argmax(off))]} ({off.max()})" if off.max() else "–"
        assert row == [str(label), str(C[i].sum()), str(C[i, i]), instead], (label, C[i])
    assert [c for c in at.caption if c.value.startswith(f"{len(labels)} classes:")]


@pytest.mark.parametrize("fitting", ["basic", "backfit", "prefit"])
def test_every_fitting_and_loss_matches_mpcore(fitting):
    at = open_page(SMALL)
    set_widget(at, "selectbox", "kmp.fitting", fitting)
    for loss in ("squared", "tanh", "logistic", "exponential", "margin_tanh"):
        set_widget(at, "selectbox", "kmp.loss", loss)
        if loss != "squared" and fitting != "basic":
            set_widget(at, "slider", "kmp.backfit_every", 2)
        assert_matches_mpcore(at)


@pytest.mark.parametrize("stop", ["none", "validation", "bound"])
def test_early_stopping_keeps_mpcores_basis(stop):
    at = open_page(dict(n=80, k=15))
    set_widget(at, "selectbox", "kmp.stop", stop)
    model = assert_matches_mpcore(at)
    if stop != "none":
        kept = model.n_basis_
        assert any(f"kept {kept} of N = 15" in i.value for i in at.info) or kept == 15


@pytest.mark.parametrize("kernel", ["rbf", "laplacian", "polynomial", "linear", "cosine", "sigmoid"])
def test_every_kernel(kernel):
    at = open_page(SMALL)
    set_widget(at, "selectbox", "kernel", kernel)
    mercer = [i.value for i in at.info if "Mercer" in i.value]
    assert bool(mercer) == (kernel == "sigmoid")
    assert_matches_mpcore(at)


def test_n_extremes():
    at = open_page(dict(n=60, k=1))
    assert_clean(at)
    assert counter(at) == (1, 1)
    assert_matches_mpcore(at)
    k_max = at.slider(key="k").max
    assert k_max == 60 - int(0.3 * 60 + 0.5) - int(np.ceil(0.2 * 42))  # fits the validation split
    set_widget(at, "slider", "k", k_max)
    assert_matches_mpcore(at)
    for tab in TABS[1:]:  # the other views at the largest N too
        at.query_params["kmp.tab"] = tab
        at.run()
        assert_clean(at)


# ---------------------------------------------------------------- data sets and views


@pytest.mark.parametrize("name", OFFERED)
def test_every_dataset_in_every_tab(name):
    entry = datasets.info(name)
    at = open_page(dict(n=max(entry.min_n, 60), k=5))
    set_widget(at, "selectbox", "dataset", name)
    if at.slider(key="n").value > 120:
        set_widget(at, "slider", "n", 120)
    assert_matches_mpcore(at)
    two_d = entry.task == "classification" and datasets.load(name, n_samples=60).X.shape[1] == 2
    fig = figures(at)[0]
    trace_names = {t.get("name") for t in fig["data"]}
    if two_d:
        assert "boundary f(x) = 0" in trace_names
    elif entry.task == "classification":
        assert any("needs 2-D data" in c.value for c in at.caption)
    for tab in TABS[1:]:
        at.query_params["kmp.tab"] = tab
        at.run()
        assert_clean(at)
        one_d = entry.task == "regression" and widget(at, "selectbox", "kmp.feature") is None
        if tab == TABS[1] and not (two_d or one_d):
            # side by side needs 2-D classification or 1-D regression: the table stays
            assert at.info and any("method" in t.value.columns for t in at.dataframe)
        else:
            assert figures(at), f"{tab} draws nothing for {name}"


def test_regression_on_one_feature_draws_the_fit():
    at = open_page(dict(n=120, k=8))
    set_widget(at, "selectbox", "dataset", "boston")
    set_widget(at, "selectbox", "kmp.feature", "LSTAT")
    model = assert_matches_mpcore(at)
    assert model.n_features_in_ == 1
    names = {t.get("name") for t in figures(at)[0]["data"]}
    assert {"KMP fit", "α K(x, xᵢ)", "training points"} <= names
    assert {m.label for m in at.metric} >= {"Training RMSE", "Test RMSE", "Test R²"}


def test_one_vs_rest_shows_the_chosen_class():
    at = open_page(dict(n=90, k=6))
    set_widget(at, "selectbox", "dataset", "blobs")
    for cls in ("0", "2"):
        set_widget(at, "selectbox", "kmp.class", cls)
        assert_matches_mpcore(at)


@pytest.mark.parametrize("mix", ["widths", "types"])
def test_mixed_dictionary_says_which_kernel_supplied_each_function(mix):
    at = open_page(dict(n=80, k=10))
    set_widget(at, "selectbox", "kmp.dict", mix)
    model = assert_matches_mpcore(at)
    # a Markdown table (an st.table scrolled its counts out of the narrow column)
    tables = [t for t in markdown_tables(at) if list(t.columns) == ["kernel", "steps"]]
    assert len(tables) == 1 and not at.table, "no table of kernels"
    counts = dict(zip(tables[0]["kernel"], tables[0]["steps"].astype(int)))
    assert len(model.kernel_specs_) == 3
    labels = [spec_label(sp) for sp in model.kernel_specs_]
    used = np.asarray(model.basis_kernels_)
    assert counts == {labels[i]: int((used == i).sum()) for i in np.unique(used)}
    assert sum(counts.values()) == model.n_basis_


def test_widths_of_a_kernel_without_width_fall_back_to_one_kernel():
    at = open_page(SMALL)
    set_widget(at, "selectbox", "kernel", "linear")
    set_widget(at, "selectbox", "kmp.dict", "widths")
    assert any("no width" in w.value for w in at.warning)
    to_last(at)
    s = dict(settings(at), mix="single")
    assert chosen(at) == expected_basis(reference_model(s))


def test_compare_tab_uses_the_svms_number_of_support_vectors():
    at = open_page(dict(n=100, **{"kmp.tab": TABS[1]}))
    assert_clean(at)
    s = settings(at)
    X, y, _, _, _ = reference_split(s)
    svc = SVC(kernel="precomputed", C=widget(at, "select_slider", "kmp.C")).fit(
        kernel_matrix(X, **kernel_params(s)), y)
    rows = next(t.value for t in at.dataframe if "method" in t.value.columns)
    kmp_rows = rows[rows["method"].isin(["back-fitting", "pre-fitting"])]
    assert list(kmp_rows["steps"].astype(int)) == [svc.n_support_.sum()] * 2
    svm_row = rows[rows["method"].str.startswith("SVM")]
    assert int(svm_row["distinct_basis_points"].iloc[0]) == svc.n_support_.sum()
    contours = [t for t in figures(at)[0]["data"] if t.get("type") == "contour"]
    assert len(contours) == 4
    set_widget(at, "radio", "kmp.compare", "losses")
    assert len([t for t in figures(at)[0]["data"] if t.get("type") == "contour"]) == 3
    set_widget(at, "toggle", "kmp.svm_n", False)
    rows = next(t.value for t in at.dataframe if "method" in t.value.columns)
    assert set(rows["steps"][rows["method"].str.startswith("KMP")].astype(int)) == {s["k"]}


def test_curves_tab_marks_mpcores_early_stopping_choices():
    at = open_page(dict(n=100, k=15, **{"kmp.tab": TABS[2]}))
    assert_clean(at)
    set_widget(at, "select_slider", "kmp.scale", 5.0)
    s = settings(at)
    fig = figures(at)[0]
    texts = [a.get("text", "") for a in fig["layout"]["annotations"]]
    by_bound = reference_model(s, "bound")
    by_val = reference_model(s, "validation")
    assert f"bound stop: k = {by_bound.n_basis_}" in texts
    assert f"validation stop: k = {by_val.n_basis_}" in texts
    full = reference_model(s, "none")
    bound = next(t for t in fig["data"] if t.get("name") == "Theorem 3 bound ÷ 5")
    y = decode(bound["y"])
    finite = np.isfinite(full.bound_)
    assert_allclose(y[finite], full.bound_[finite] / 5, rtol=1e-9)


def test_losses_tab_highlights_the_loss_in_use():
    at = open_page(dict(**SMALL, **{"kmp.tab": TABS[3]}))
    set_widget(at, "selectbox", "kmp.loss", "exponential")
    fig = figures(at)[0]
    selected = [t["name"] for t in fig["data"] if "selected" in t.get("name", "")]
    assert len(selected) == 1 and "AdaBoost" in selected[0]


# ---------------------------------------------------------------- sharing


def test_snippet_reproduces_the_pages_basis(downloads):
    at = open_page(dict(n=120, k=8))
    set_widget(at, "selectbox", "dataset", "boston")
    set_widget(at, "selectbox", "kmp.feature", "RM")
    set_widget(at, "selectbox", "kmp.stop", "validation")
    for view in (at,):
        to_last(view)
        code = code_of(view, "import mpdatasets as datasets")
        ns: dict = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            exec(compile(code, "snippet", "exec"), ns)  # noqa: S102 - our own generated code
        assert list(ns["model"].basis_indices_) == chosen(view)


@pytest.mark.parametrize("setting", [dict(), {"kmp.dict": "types"}, {"kmp.fitting": "basic"}])
def test_snippet_runs_for_classification(setting):
    at = open_page(SMALL)
    for key, value in setting.items():
        set_widget(at, "selectbox", key, value)
    to_last(at)
    code = code_of(at, "import mpdatasets as datasets")
    ns: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        exec(compile(code, "snippet", "exec"), ns)  # noqa: S102 - our own generated code
    assert list(ns["model"].basis_indices_) == chosen(at)


def test_csv_holds_the_plotted_curves(downloads):
    at = open_page(dict(n=80, k=10))
    to_last(at)
    table = pd.read_csv(io.BytesIO(download(at, downloads, "Table as CSV")))
    s = settings(at)
    X, y, Xt, yt, _ = reference_split(s)
    est = KMPClassifier(s["k"], fitting=s["fitting"], loss=s["loss"], **kernel_params(s))
    c = kmp_curves(est, X, y, Xt, yt)
    assert_array_equal(table["basis_index"], c.paths[0].basis)
    assert_array_equal(table["model_basis_index"], chosen(at))
    assert_allclose(table["test_error"], c.test_error, atol=1e-12)
    assert_allclose(table["bound"], c.paths[0].bound, rtol=1e-12)
    at.query_params["kmp.tab"] = TABS[3]
    at.run()
    losses = pd.read_csv(io.BytesIO(download(at, downloads, "Loss curves as CSV")))
    assert_allclose(losses["exponential"], np.exp(-losses["margin"]), rtol=1e-12)


def test_url_opens_the_same_view():
    params = dict(dataset="circles", n=80, seed=3, sigma=0.3, k=7,
                  **{"kmp.fitting": "backfit"})
    at = open_page(params)
    assert_clean(at)
    s = settings(at)
    assert (s["dataset"], s["n"], s["seed"], s["sigma"], s["k"], s["fitting"]) == (
        "circles", 80, 3, 0.3, 7, "backfit")
    assert_matches_mpcore(at)


def test_hidden_controls_take_their_url_value():
    """A classroom link hides a control; its value (as the URL shows it) still applies."""
    at = open_page(dict(n=60, k=5, hide="kmp.fitting,kmp.loss",
                        **{"kmp.fitting": "basic", "kmp.loss": "tanh"}))
    assert_clean(at)
    assert widget(at, "selectbox", "kmp.fitting") is None
    to_last(at)
    s = dict(settings(at), fitting="basic", loss="tanh")
    assert chosen(at) == expected_basis(reference_model(s))


PRESETS = ("Figure 6: fittings vs SVM", "Figure 7: squared vs tanh loss",
           "Figure 2: bound on Boston", "1-D: Boston MEDV against LSTAT",
           "Sigmoid kernel (not PSD)", "Mixed dictionary: three widths")


def preset_links(at) -> dict:
    """Sidebar "Paper settings" links: name -> query parameters of the link."""
    import html
    from urllib.parse import parse_qsl

    out = {}
    for m in at.markdown:
        for href, name in re.findall(r'<a href="\?([^"]*)"[^>]*>([^<]*)</a>', m.value):
            out[html.unescape(name)] = dict(parse_qsl(html.unescape(href), keep_blank_values=True))
    return out


@pytest.mark.parametrize("preset", PRESETS)
def test_presets_apply(preset):
    """A preset is a complete link: open it as a click does, in a fresh session."""
    from pages.common.schemas import KMP as SCHEMA

    links = preset_links(open_page(SMALL))
    assert sorted(links) == sorted(PRESETS)
    params = links[preset]
    state, notes = SCHEMA.from_query(params)
    assert notes == [] and set(params) == set(state)  # every field is in the link
    at = open_page(params)
    assert_clean(at)
    assert any(preset in i.value for i in at.info)  # the view says which setting it is
    url = {k: at.query_params[k] for k in at.query_params}
    assert {k: v[-1] if isinstance(v, list) else v for k, v in url.items()} == params
    if preset.startswith("Figure 7"):
        assert widget(at, "selectbox", "dataset") == "far_cluster"
        rows = next(t.value for t in at.dataframe if "method" in t.value.columns)
        acc = dict(zip(rows["method"], rows["train"]))
        # the paper's point: least squares misclassifies, tanh and the SVM do not
        assert acc["KMP-mse (pre-fitting)"] < 1.0
        assert acc["KMP-tanh (back-fitting, Fig. 4)"] == 1.0
        assert next(v for k, v in acc.items() if k.startswith("SVM")) == 1.0
    if preset.startswith("Figure 2"):
        assert widget(at, "select_slider", "kmp.scale") == 5.0
        names = {t.get("name") for t in figures(at)[0]["data"]}
        assert "Theorem 3 bound ÷ 5" in names
    if preset.startswith("1-D"):
        assert widget(at, "selectbox", "kmp.feature") == "LSTAT"


@pytest.mark.parametrize("labels, whole", [((-1, 1), True), ((0, 1, 2), True),
                                           ((2019, 2020, 2021), False)])
def test_a_confusion_matrix_wider_than_its_column_is_summed_up(labels, whole):
    """A CSV's classes are integers of any length: "-1" and "1", or "0" to "2", make a matrix
    that fits beside the figure; 2019 to 2021 make one of 16 characters a row, wider than
    that column, summed up by class under the figure."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(90, 2))
    y = rng.permutation(np.repeat(labels, 90 // len(labels)))
    at = open_page(dict(dataset="csv upload", k=4))
    raw = csv_bytes(np.column_stack([X, y]), ["a", "b", "label"])
    at.file_uploader(key="csv.file").set_value(("mine.csv", raw, "text/csv")).run()
    set_widget(at, "selectbox", "csv.target", "label")
    matrices = [markdown_cells(m.value) for m in at.markdown if m.value.startswith("| true |")]
    by_class = [markdown_cells(m.value) for m in at.markdown
                if m.value.startswith("| true class |")]
    assert (len(matrices), len(by_class)) == ((1, 0) if whole else (0, 1))
    shown = (matrices or by_class)[0]
    names = [str(c) for c in labels]
    assert [r[0] for r in shown[1:]] == names
    if whole:
        assert shown[0] == ["true", *names]
