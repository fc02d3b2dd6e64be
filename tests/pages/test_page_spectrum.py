"""The "Approximate vs exact eigenvalues" page with Streamlit's AppTest (no browser).

Every data set the page offers and every PSD kernel render without an error; k, q and n at
their extremes (k = 1, k = k_max, q = 1, q = m, n = 1, n = max) render; the scree plot draws
exactly ``mpcore.spectrum`` on the data rebuilt here from ``datasets`` and scikit-learn (exact
eigenvalues, the three Nystroem subset rules, the two EKM sketches, seeded with the page's
seed); the error panel's stars are the timing table's errors and Eq. 3 is never below the
observed error; the timing table's ratios are against dense eigh in the same run; the URL and
hidden controls round-trip; and the exported snippet reproduces the scree numbers.

Reference data: ``datasets.load`` -> ``StandardScaler`` (when ticked); the page uses every
point (no train/test split).
"""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from apptest_util import (REPO_ROOT, assert_cell_shows, assert_clean, chart_elements, chart_spec,
                          code_of, data_settings, kernel_params, markdown_tables, open_app_page,
                          reference_data, record_spinners, widget)
from chart_util import decode

import datasets
from conftest import RTOL_EXACT
from mpcore.kernels import kernel_matrix
from mpcore.plots._spectrum import (
    BOUND_SUFFIX,
    EKM_SERIES,
    ERROR_FLOOR,
    EXACT,
    NYSTROM_SERIES,
    OBSERVED_SUFFIX,
    SCREE_FLOOR,
    STAR_PATH,
)
from mpcore.spectrum import (
    ekm_eigenvalues,
    exact_eigenvalues,
    nystrom_eigenvalues,
    nystrom_indices,
)
from pages.common.text import literal

#: Every test here drives the page through AppTest (about a second each): the slow tier.
pytestmark = pytest.mark.slow

#: How closely two dense eigensolvers agree on an eigenvalue, relative to the largest: each is
#: backward stable, so each eigenvalue is exact to a few rounding units of ||K||_2 (Weyl),
#: not to a few rounding units of itself. The page's reference reduces K once for its
#: eigenvalues and eigenvectors (mpcore.spectrum.tridiagonal_form); this module's reference
#: is exact_eigenvalues: on a drawn eigenvalue 1e-10 of the largest they differed by
#: 1.6e-16 absolute, 5e-7 of it.
EIGENVALUE_ROUNDING = 1e-12

PAGE = "pages/spectrum.py"
RUN_TIMEOUT = 180
PSD_KERNELS = ("rbf", "laplacian", "polynomial", "linear", "cosine")
SMALL_N = 60
#: Defaults stated on the page: Boston, rbf with the data set's width, k = 50, q = 100, top 10.
DEFAULTS = dict(dataset="boston", kernel="rbf", k=50, q=100, n_eig=10, seed=0)
#: The page's Nystroem slider stops here (pages/spectrum.K_MAX).
K_MAX = 300


# ---------------------------------------------------------------- helpers


#: A fresh session on this page, opened with URL ``params`` and session ``state``:
#: ``open_page(params, state)``.
open_page = functools.partial(open_app_page, PAGE, timeout=RUN_TIMEOUT)


def settings(at) -> dict:
    return dict(
        data_settings(at),
        k=widget(at, "slider", "k"), q=widget(at, "slider", "spectrum.q"),
        n_eig=widget(at, "slider", "spectrum.n_eig"),
    )


def reference_kernel(s):
    """K of the page's settings, rebuilt independently (once per settings here: read only)."""
    return _reference_kernel(tuple(sorted(s.items())))


@functools.lru_cache(maxsize=64)
def _reference_kernel(items):
    s = dict(items)
    _, X = reference_data(s)
    K = kernel_matrix(X, **kernel_params(s))
    K.setflags(write=False)
    return K


def reference_scree(s, L):
    """Every method's L leading eigenvalues by mpcore, seeded with the page's seed."""
    K = reference_kernel(s)
    out = {EXACT: exact_eigenvalues(K, L, method="eigh")}
    for rule, name in NYSTROM_SERIES.items():
        idx = nystrom_indices(K, s["k"], rule=rule, random_state=s["seed"])
        out[name] = nystrom_eigenvalues(K, idx, L)
    for sketch, name in EKM_SERIES.items():
        out[name] = ekm_eigenvalues(K, s["q"], L, sketch=sketch, random_state=s["seed"])
    return out


def charts(at) -> dict:
    """Plotly specs by chart key suffix (scree, errors, angles)."""
    return charts_of(chart_elements(at))


def traces(spec) -> dict:
    return {t.get("name"): t for t in spec["data"] if t.get("name")}


#: The timed runs the page took from its cache in the current test, in order (``_runs``).
_RUNS: list = []


@pytest.fixture(autouse=True)
def _runs(monkeypatch):
    """Record every timed run the page gets (its table shows the numbers rounded)."""
    from pages.common.cached import spectrum as cached

    _RUNS.clear()
    original = cached.spectrum_run

    def recorded(*args, **kwargs):
        run = original(*args, **kwargs)
        _RUNS.append(run)
        return run

    monkeypatch.setattr(cached, "spectrum_run", recorded)


def timing(at):
    """The timing table's rows, one per method, at full precision: the page's last timed run,
    once every cell of the table the page shows has been read back against it."""
    (shown,) = markdown_tables(at)
    rows = pd.DataFrame(_RUNS[-1]["rows"])
    assert list(shown.columns) == list(rows.columns) and len(shown) == len(rows)
    for (_, cells), (_, values) in zip(shown.iterrows(), rows.iterrows()):
        for column in rows.columns:
            assert_cell_shows(cells[column], values[column])
    return rows


def assert_scree_matches(at, s):
    spec = charts(at)["scree"]
    tr = traces(spec)
    L = len(decode(tr[EXACT]["y"]))
    ref = reference_scree(s, L)
    floor = SCREE_FLOOR * ref[EXACT][0]
    for name, values in ref.items():
        y = decode(tr[name]["y"])
        drawn = values > floor
        np.testing.assert_allclose(y[drawn], values[drawn], rtol=1e-7,
                                   atol=EIGENVALUE_ROUNDING * ref[EXACT][0], err_msg=name)
        assert np.all(np.isnan(y[~drawn])), name


def reading_order(at) -> list[str]:
    """Subheaders and charts (by kind) in the order the page shows them (depth first through
    its blocks), whatever order the script filled them in."""
    from pages.common.charts import CHART_COMPONENT

    out = []

    def walk(node):
        kind = getattr(node, "type", None)
        if kind == "subheader":
            out.append(node.value)
        elif kind == "bidi_component" and node.proto.component_name == CHART_COMPONENT:
            out.append(next(iter(charts_of([node]))))
        for _, child in sorted(getattr(node, "children", {}).items()):
            walk(child)

    walk(at.main)
    return out


def charts_of(elements) -> dict:
    out = {}
    for c in elements:
        spec = chart_spec(c)
        titles = " ".join(str(a.get("text", "")) for a in spec["layout"].get("annotations", []))
        kind = ("errors" if "rel. error" in titles else
                "scree" if any(t.get("name") == EXACT for t in spec["data"]) else "angles")
        out[kind] = spec
    return out


# ---------------------------------------------------------------- defaults and data sets


def test_defaults_render_and_draw_mpcore():
    at = open_page()
    assert_clean(at)
    s = settings(at)
    assert (s["dataset"], s["kernel"], s["k"], s["q"], s["n_eig"], s["seed"]) == (
        DEFAULTS["dataset"], DEFAULTS["kernel"], DEFAULTS["k"], DEFAULTS["q"], DEFAULTS["n_eig"],
        DEFAULTS["seed"])
    assert set(charts(at)) == {"scree", "errors", "angles"}
    # the error curves are computed and drawn last, in their own section
    assert reading_order(at)[:6] == ["Scree plot: the leading eigenvalues", "scree",
                                     "Error against k and q, with Marukatat's bound", "errors",
                                     "Eigenvectors and time, from the same run", "angles"]
    assert_scree_matches(at, s)
    table = timing(at)
    assert len(table) == 3 + len(NYSTROM_SERIES) + len(EKM_SERIES)
    # exact solvers: eigsh's eigenvectors span the same top-n subspace as eigh's
    assert (table["largest angle (°)"].iloc[:3] < 1e-3).all()
    assert table["largest angle (°)"].between(0, 90).all()
    assert any("eigsh" in m.value for m in at.markdown)  # the verdict on the exact Lanczos solver


@pytest.mark.parametrize("name", datasets.names())
def test_every_data_set_renders(name):
    # opened from a link at a small n (the full digits or toy set would only slow the test)
    at = open_page(params=dict(dataset=name, n=max(SMALL_N, datasets.info(name).min_n)))
    assert_clean(at)
    s = settings(at)
    assert s["dataset"] == name
    assert set(charts(at)) == {"scree", "errors", "angles"}
    assert_scree_matches(at, s)


@pytest.mark.parametrize("kernel", PSD_KERNELS)
def test_every_psd_kernel_renders_and_matches(kernel):
    at = open_page(params=dict(dataset="moons", n=SMALL_N, k=8, **{"spectrum.q": 12}))
    at.selectbox(key="kernel").set_value(kernel).run()
    assert not at.exception, [e.value for e in at.exception]
    offered = at.selectbox(key="kernel").options
    assert not any("sigmoid" in o.lower() for o in offered)
    s = settings(at)
    assert s["kernel"] == kernel
    assert_scree_matches(at, s)
    if kernel == "linear":  # rank 2 on 2-D data: the page says it compares only 2
        assert any("only 2 eigenvalues" in w.value for w in at.warning)
    for row in timing(at).to_dict(orient="records"):
        errs = [v for c, v in row.items() if c.startswith("max rel. error")]
        assert np.all(np.isfinite(errs))


# ---------------------------------------------------------------- extremes


@pytest.mark.parametrize("k,q,n_eig", [(1, 1, 1), ("max", "max", "max"), (1, "max", 1),
                                       ("max", 1, "max")], ids=["all-1", "all-max", "k1-qm", "km-q1"])
def test_k_q_and_n_at_their_extremes(k, q, n_eig):
    at = open_page(params=dict(dataset="moons", n=SMALL_N))
    m = SMALL_N
    values = {"k": min(m, K_MAX) if k == "max" else k, "spectrum.q": m if q == "max" else q,
              "spectrum.n_eig": min(50, m - 1) if n_eig == "max" else n_eig}
    for key, val in values.items():
        assert at.slider(key=key).max == {"k": min(m, K_MAX), "spectrum.q": m,
                                          "spectrum.n_eig": min(50, m - 1)}[key]
        at.slider(key=key).set_value(val).run()
        assert_clean(at)
    s = settings(at)
    assert (s["k"], s["q"], s["n_eig"]) == tuple(values.values())
    assert_scree_matches(at, s)
    table = timing(at).set_index("method")
    err_col = next(c for c in table.columns if c.startswith("max rel. error"))
    if s["k"] == m:  # full-rank Nystroem reproduces K: exact up to rounding
        for name in NYSTROM_SERIES.values():
            assert table.loc[name, err_col] < 1e-6
    if s["q"] == 1:  # a 1-D sketch has rank 1: one eigenvalue on the scree
        tr = traces(charts(at)["scree"])
        for name in EKM_SERIES.values():
            assert np.count_nonzero(np.isfinite(decode(tr[name]["y"]))) == 1


def test_a_smaller_data_set_clamps_k_and_q():
    """k and q set high, then n lowered below them: clamped to m, no widget error."""
    at = open_page(params=dict(dataset="moons", n=200, k=150, **{"spectrum.q": 180}))
    assert_clean(at)
    at.slider(key="n").set_value(40).run()
    assert_clean(at)
    s = settings(at)
    assert s["k"] == 40 and s["q"] == 40
    assert_scree_matches(at, s)


# ---------------------------------------------------------------- the figures and the table


def test_stars_are_the_tables_errors_and_eq3_bounds_the_observed_error():
    at = open_page(params=dict(dataset="circles", n=90, k=10, **{"spectrum.q": 20}))
    assert_clean(at)
    spec = charts(at)["errors"]
    table = timing(at).set_index("method")
    err_col = next(c for c in table.columns if c.startswith("max rel. error"))
    stars = [s for s in spec["layout"]["shapes"] if s.get("path") == STAR_PATH]
    assert len(stars) == len(NYSTROM_SERIES) + len(EKM_SERIES)
    assert sorted(s["xanchor"] for s in stars) == [10] * len(NYSTROM_SERIES) + [20] * len(EKM_SERIES)
    star_y = sorted(s["yanchor"] for s in stars)
    np.testing.assert_allclose(star_y, sorted(table[err_col].iloc[3:]), rtol=RTOL_EXACT)
    tr = traces(spec)
    for name in EKM_SERIES.values():
        observed, bound = decode(tr[name + OBSERVED_SUFFIX]["y"]), decode(tr[name + BOUND_SUFFIX]["y"])
        assert np.all(bound >= observed * (1 - RTOL_EXACT)), name


def test_timing_ratios_are_against_dense_eigh_of_the_same_run():
    at = open_page(params=dict(dataset="moons", n=120))
    table = timing(at)
    dense = table.loc[table["method"] == "dense eigh (all m)", "time (s)"].iloc[0]
    np.testing.assert_allclose(table["time / dense eigh"], table["time (s)"] / dense, rtol=1e-9)
    assert (table["time (s)"] > 0).all()
    exact_rows = table.iloc[:3]
    err_col = next(c for c in table.columns if c.startswith("max rel. error"))
    assert (exact_rows[err_col] < 1e-8).all()  # the two partial exact solvers agree with dense
    verdict = " ".join(m.value for m in at.markdown if "eigsh" in m.value)
    eigsh = table.loc[table["method"] == "eigsh (Lanczos), top n", "time (s)"].iloc[0]
    approx = table.iloc[3:]
    faster = approx.loc[approx["time (s)"] < eigsh, "method"].tolist()
    if faster:
        assert all(name in verdict for name in faster)
    else:
        assert "wins here" in verdict


# ---------------------------------------------------------------- URL, hiding, snippet


URL = {"dataset": "circles", "n": "80", "noise": "0.15", "seed": "3", "kernel": "laplacian",
       "sigma": "0.3", "k": "7", "spectrum.q": "9", "spectrum.n_eig": "4"}


def test_url_sets_every_control_and_survives_the_run():
    at = open_page(params=URL)
    assert_clean(at)
    s = settings(at)
    assert (s["dataset"], s["n"], s["seed"], s["kernel"], s["k"], s["q"], s["n_eig"]) == (
        "circles", 80, 3, "laplacian", 7, 9, 4)
    assert s["sigma"] == pytest.approx(0.3) and s["noise"] == pytest.approx(0.15)
    assert_scree_matches(at, s)
    for key, val in URL.items():
        assert at.query_params[key] in (val, [val])


def test_hidden_controls_are_not_drawn_and_keep_their_url_values():
    at = open_page(params=dict(URL, hide="spectrum.q,k"))
    assert_clean(at)
    keys = {w.key for w in at.slider}
    assert "spectrum.q" not in keys and "k" not in keys and "spectrum.n_eig" in keys
    s = dict(settings(at), k=7, q=9)
    assert_scree_matches(at, s)


def test_snippet_reproduces_the_scree_numbers():
    at = open_page(params=URL)
    code = code_of(at, "import mpdatasets as datasets")
    for needle in ("datasets.load('circles'", "random_state=3", "nystrom_indices(K, 7",
                   "ekm_eigenvalues(K, 9", "'laplacian'"):
        assert needle in code, code
    ns: dict = {}
    exec(compile(code.replace("print(", "(lambda *a: None)("), "<snippet>", "exec"), ns)  # noqa: S102
    tr = traces(charts(at)["scree"])
    lam = ns["lam"]
    floor = SCREE_FLOOR * lam[0]
    series = {EXACT: lam, **{NYSTROM_SERIES[r]: v for r, v in ns["nystrom"].items()},
              **{EKM_SERIES[s]: v for s, v in ns["ekm"].items()}}
    for name, values in series.items():
        y = decode(tr[name]["y"])
        drawn = values > floor
        np.testing.assert_allclose(y[drawn], values[drawn], rtol=1e-7,
                                   atol=EIGENVALUE_ROUNDING * lam[0], err_msg=name)


def test_csv_choice_without_a_file_asks_for_one():
    at = open_page()
    at.selectbox(key="dataset").set_value("csv upload").run()
    assert_clean(at)
    assert any("Upload a CSV" in i.value for i in at.info)


def test_download_buttons_offer_the_plotted_numbers():
    at = open_page(params=dict(dataset="moons", n=SMALL_N))
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels == ["Table as CSV", "Run as JSON"]
    assert re.search(r"top \d+ compared", json.dumps(charts(at)["scree"]["layout"]))


def test_above_the_grid_limit_eq3_is_given_at_the_chosen_q_only(monkeypatch):
    """Eq. 3 costs O(m^3) per q: above SPECTRUM_BOUND_GRID_MAX_M the page says so and draws two panels."""
    from pages.common.cached import spectrum as cached

    monkeypatch.setattr(cached, "SPECTRUM_BOUND_GRID_MAX_M", SMALL_N - 1)
    at = open_page(params=dict(dataset="moons", n=SMALL_N, seed=11))  # a seed no other test caches
    assert_clean(at)
    spec = charts(at)["errors"]
    assert not any(BOUND_SUFFIX in str(t.get("name")) for t in spec["data"])
    assert len(spec["layout"]["annotations"]) == 2
    assert any("chosen q only" in i.value for i in at.info)
    assert any("‖E‖₂" in c.value and "m·max" in c.value for c in at.caption)  # still at q
    # ... and the caption names no dashed bound and no third panel, which are not drawn
    assert not any("Dashed: the bound" in c.value or "Eq. 3 as stated" in c.value
                   for c in at.caption)


def test_a_phone_gets_the_error_panels_stacked():
    """When the browser reported a phone's width (pages/common/fit.py), the error figure
    has its panels one under the other, each the full width; otherwise side by side."""
    def error_axes(width):
        at = open_app_page("pages/spectrum.py", state={"_window_width": width})
        assert_clean(at)
        spec = chart_spec(chart_elements(at)[1])
        assert "Nyström: max rel. error" in spec["layout"]["annotations"][0]["text"]
        # the caption names the panels where they are: one under the other, or side by side
        places = ("Second panel:", "Third:") if width < 600 else ("Middle:", "Right:")
        assert any(all(p in c.value for p in places) for c in at.caption), places
        return [spec["layout"][k]["domain"] for k in sorted(spec["layout"])
                if re.fullmatch(r"xaxis\d*", k)]

    assert all(d == [0, 1] for d in error_axes(390))
    wide = error_axes(1280)
    assert len(wide) >= 2 and all(d[1] < 1 for d in wide[:-1])


def test_a_phone_gets_the_timing_table_in_three_parts_that_make_the_whole():
    """A phone's width (390 px) cannot hold the table's eight columns: it gets three tables
    (time, eigenvalues, eigenvectors), each led by the methods' names, the same rows and cells
    as the one table a wide window gets."""
    def tables(width):
        at = open_app_page("pages/spectrum.py", params=dict(dataset="moons", n=80),
                           state={"_window_width": width})
        assert_clean(at)
        return markdown_tables(at)

    (wide,) = tables(1280)
    parts = tables(390)
    assert [list(p.columns[:2]) for p in parts] == [["method", "computes"],
                                                  ["method", "max rel. error, top 10"],
                                                  ["method", "largest angle (°)"]]
    for part in parts:
        assert list(part["method"]) == list(wide["method"])
    # the timings are one run's (cached), so the parts show the very numbers of the table
    whole = pd.concat([parts[0]] + [p.iloc[:, 1:] for p in parts[1:]], axis=1)
    pd.testing.assert_frame_equal(whole, wide)


def test_a_new_data_set_shows_a_spinner_for_each_computation(monkeypatch):
    """A data set not computed before: the kernel matrix, the exact spectrum, the timed run
    and the error curves each show their spinner. Streamlit shows none for a cached function
    called inside another, so each message must sit on a function the page calls itself."""
    shown = record_spinners(monkeypatch)
    # a size no other test draws, so nothing of it is cached in this process
    at = open_app_page(PAGE, params=dict(dataset="moons", n="77", kernel="laplacian"))
    assert_clean(at)
    for words in ("Computing K (once", "Exact eigenvalues of K", "Timing every eigen-solver",
                  "Errors over a grid of k and q"):
        assert any(words in t for t in shown), (words, shown)
    # a new n of the same data set: the curves are sliced, the run is new
    shown.clear()
    at.slider(key="spectrum.n_eig").set_value(12)
    at.run(timeout=RUN_TIMEOUT)
    assert_clean(at)
    assert any("Timing every eigen-solver" in t for t in shown), shown


def test_clustered_eigenvalues_leave_lanczos_out_with_a_note_not_a_wait():
    """The smallest width on boston makes K nearly the identity: Lanczos for the top 29
    would take some 10^5 products with K (20 s a notch in a browser). It stops within its
    budget, the page says why it is left out of the timing table, and every other method is
    there, compared with the exact spectrum."""
    at = open_page(params={"dataset": "boston", "sigma": "0.05", "spectrum.n_eig": "29"})
    assert_clean(at)
    assert any("eigsh (Lanczos) is left out of the table" in w.value
               and "products with the 506 x 506 matrix" in w.value for w in at.warning), \
        [w.value for w in at.warning]
    methods = list(timing(at)["method"])
    assert not any("eigsh" in name for name in methods), methods
    assert {"dense eigh (all m)", "eigh, top n only", *NYSTROM_SERIES.values(),
            *EKM_SERIES.values()} <= set(methods)


def test_a_new_k_runs_the_nystrom_rules_only_and_a_new_q_the_sketches_only(monkeypatch):
    """The timed run is cached in three parts: the exact solvers (keyed by n), the Nyström
    rules (k and n) and the sketches (q and n). A k notch computes the Nyström rows again and
    nothing else, a q notch the sketches, a new n all three (the Nyström columns chosen at k
    kept); and what the page draws after each is what mpcore computes for the new setting
    from scratch."""
    from views import spectrum as views_spectrum

    calls = []
    for name in ("exact_methods", "nystrom_columns", "nystrom_methods", "ekm_methods"):
        def counted(*args, _real=getattr(views_spectrum, name), _name=name, **kwargs):
            calls.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(views_spectrum, name, counted)
    # a size no other test draws, so nothing of it is cached in this process
    at = open_page(params=dict(dataset="moons", n="89", k="20", **{"spectrum.q": "30"}))
    assert_clean(at)
    assert sorted(calls) == ["ekm_methods", "exact_methods", "nystrom_columns",
                             "nystrom_methods"], calls
    # a new n keeps the columns chosen at k and times only the top-n eigenproblem on them
    for key, value, computed in (("k", 21, ["nystrom_columns", "nystrom_methods"]),
                                 ("spectrum.q", 31, ["ekm_methods"]),
                                 ("spectrum.n_eig", 11,
                                  ["ekm_methods", "exact_methods", "nystrom_methods"])):
        calls.clear()
        at.slider(key=key).set_value(value)
        at.run(timeout=RUN_TIMEOUT)
        assert_clean(at)
        assert sorted(calls) == computed, (key, calls)
        s = settings(at)
        assert s[{"spectrum.q": "q", "spectrum.n_eig": "n_eig"}.get(key, key)] == value
        assert_scree_matches(at, s)
        assert len(timing(at)) == 3 + len(NYSTROM_SERIES) + len(EKM_SERIES)


def test_curves_that_fail_give_an_error_box_and_are_tried_again(monkeypatch):
    """The curves' failure reaches the page as its message in an error box, not a
    traceback; the failed computation is not kept, so the next run computes the curves."""
    from views import spectrum as views_spectrum

    def fails(*args, **kwargs):
        raise ValueError("The curves could not be computed <b>here</b>.")

    monkeypatch.setattr(views_spectrum, "error_curves_by_eigenvalue", fails)
    # a size no other test draws, so nothing of it is cached in this process
    at = open_page(params=dict(dataset="moons", n="79"))
    assert not at.exception
    assert [e.value for e in at.error] == [
        literal("The curves could not be computed <b>here</b>.")]
    assert "errors" not in charts(at)
    monkeypatch.undo()
    at.run(timeout=RUN_TIMEOUT)
    assert_clean(at)
    assert set(charts(at)) == {"scree", "errors", "angles"}


#: What the server imports before a page computes: the cache package (which sets the
#: limit) and then the views of each page it runs.
_SERVER_IMPORTS = ("import json\n"
                   "import pages.common.cached\n"
                   "from pages.common.blas import BLAS_THREADS\n"
                   "import views.bounds, views.kcca, views.kmp, views.skpca, views.spectrum\n"
                   "import sklearn.svm\n"
                   "from threadpoolctl import threadpool_info\n"
                   "print(json.dumps([BLAS_THREADS, threadpool_info()]))\n")


def _blas(info) -> list:
    """(library file, threads) of each BLAS library in threadpoolctl's ``info``."""
    return [(i["filepath"], i["num_threads"]) for i in info if i["user_api"] == "blas"]


def test_every_blas_library_runs_one_thread_in_the_server():
    """The cache package limits every BLAS library the app loads (NumPy's and SciPy's
    OpenBLAS are two libraries) to BLAS_THREADS threads, in the server's process once the
    pages' computations are imported. threadpoolctl acts only on the libraries loaded when
    it is called: a library loaded after it keeps one thread per core, which spin against
    each other."""
    out = subprocess.run([sys.executable, "-c", _SERVER_IMPORTS], cwd=REPO_ROOT,
                         capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert out.returncode == 0, out.stderr[-2000:]
    threads, info = json.loads(out.stdout.strip().splitlines()[-1])
    server = _blas(info)
    assert server, "threadpoolctl found no BLAS library in the server's process"
    assert all(n == threads for _, n in server), server
