"""Server-side tests of the app with Streamlit's AppTest (no browser).

Every page registered in app.py renders, for every data set and kernel it
offers; the sparse-KPCA page renders for every data set and every positive
semi-definite kernel, its step counter and chosen indices equal
``mpcore.skpca.greedy_steps`` on the same data rebuilt independently
(tests/skpca_apptest.py); the URL round-trips (step included) and the exported code
snippet reproduces the view; hidden controls are not drawn; the reset link
opens the defaults; CSV upload errors show as ``st.error`` (through AppTest's
file_uploader support); and two sessions never see each other's results. The
"Break it" presets are tests/pages/test_skpca_presets.py.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import numpy as np
import pytest
from sklearn.preprocessing import StandardScaler

import datasets
from apptest_util import (assert_clean, chart_elements, chart_spec, open_app_page, open_footer,
                          record_spinners, widget)
from chart_util import decode
from csv_util import csv_bytes
from browser_util import app_pages
from mpcore.kernels import kernel_matrix
from mpcore.skpca import SparseKPCA, greedy_steps
from skpca_apptest import (DEFAULTS, PSD_KERNELS, RUN_TIMEOUT, SKPCA, SMALL_K, SMALL_N,
                           assert_matches_mpcore, chosen, counter, exception_texts, kernel_params,
                           open_page, page_settings, reference_steps, split_train, training_data)


def figure(at) -> dict:
    charts = chart_elements(at)
    assert charts, "no plotly chart on the page"
    return chart_spec(charts[0])


def code_blocks(at) -> list[str]:
    return [c.value for c in open_footer(at).code]


def snippet(at) -> str:
    blocks = [c for c in code_blocks(at) if "import mpdatasets as datasets" in c]
    assert len(blocks) == 1, code_blocks(at)
    return blocks[0]


def classroom_link(at) -> str:
    """The link shown by the classroom-link builder (the code block that is not Python)."""
    blocks = [c for c in code_blocks(at) if "import " not in c]
    assert len(blocks) == 1, code_blocks(at)
    return blocks[0]


def link_params(link: str) -> dict:
    from urllib.parse import parse_qsl, urlsplit

    return dict(parse_qsl(urlsplit(link).query))


# ---------------------------------------------------------------- every page


def test_home_renders():
    at = open_app_page(None, timeout=RUN_TIMEOUT)
    assert_clean(at)
    assert [t.value for t in at.title] == ["Matching pursuit in kernel methods"]


@pytest.mark.parametrize("page", [
    pytest.param(p.file, marks=pytest.mark.slow) if p.url_path == "reproduce" else p.file
    for p in app_pages()], ids=lambda f: Path(f).stem)  # reproduce: every quick experiment
def test_every_registered_page_renders(page):
    at = open_app_page(page, timeout=RUN_TIMEOUT)
    assert_clean(at)
    assert at.title, f"{page} draws no title"


OTHER_PAGES = [p.file for p in app_pages() if p.file != SKPCA]

#: A setting no other test in the process draws, per page whose first run of a new data set
#: computes (the papers' algorithms on it): so nothing of it is cached yet.
FRESH_SETTINGS = {
    "pages/skpca.py": dict(dataset="moons", n=83),
    "pages/kmp.py": dict(dataset="moons", n=83),
    "pages/bounds.py": dict(dataset="moons", n=83),
    "pages/spectrum.py": dict(dataset="moons", n=83),
    "pages/kcca.py": {"kcca.n": 830},
}


@pytest.mark.parametrize("page", sorted(FRESH_SETTINGS), ids=lambda f: Path(f).stem)
def test_a_new_setting_shows_a_spinner(page, monkeypatch):
    """The first run of a setting not computed before shows a spinner (after half a second,
    Streamlit's delay) for what it computes. Streamlit shows none for a cached function
    called inside another, so a page whose only call held the spinners inside it showed no
    progress at all."""
    assert {p.file for p in app_pages()} >= set(FRESH_SETTINGS)
    # the page's default first, so its imports are not in the count
    open_app_page(page, timeout=RUN_TIMEOUT)
    shown = record_spinners(monkeypatch)
    at = open_app_page(page, FRESH_SETTINGS[page], timeout=RUN_TIMEOUT)
    assert_clean(at)
    assert [t for t in shown if t.strip() and "Loading data" not in t], shown


def _options(at, key):
    found = [w for w in at.selectbox if w.key == key]
    return list(found[0].options) if found else []


@pytest.mark.slow
@pytest.mark.parametrize("page", OTHER_PAGES, ids=lambda f: Path(f).stem)
def test_every_page_renders_for_every_dataset_and_every_kernel(page):
    """Every data set and every kernel a page offers: no exception, no st.error.

    Each data set opens in a fresh session from a link with n = SMALL_N (so no page
    computes at its default size here) and a kernel taken in turn from the page's list,
    so every kernel is drawn on several data sets; on the first data set every kernel
    is also chosen with the sidebar widget. The full data set x kernel product of the
    computations behind these pages is tests/pages/test_page_compute.py's (no figures, no
    Streamlit), and the sparse-KPCA page has its own, stricter loop below.
    """
    # (the page at its default size is test_every_registered_page_renders's)
    at = open_app_page(page, dict(n=SMALL_N), timeout=RUN_TIMEOUT)
    assert_clean(at)
    names = [o for o in _options(at, "dataset") if o != "csv upload"]
    from pages.common.schemas import ALL_SCHEMAS

    uses_shared_data = "dataset" in ALL_SCHEMAS.get(Path(page).stem, ())
    assert bool(names) == uses_shared_data, f"{page}: data-set control present = {bool(names)}"
    if not names:
        return  # the page has its own data (two-view generator, paper settings, or none)
    schema = ALL_SCHEMAS[Path(page).stem]
    kernels = list(schema["kernel"].at("options", schema.from_query({})[0]))
    assert len(kernels) == len(_options(at, "kernel")) > 1, f"{page}: kernel control"
    drawn = set()
    for i, name in enumerate(names):
        kernel = kernels[i % len(kernels)]
        at = open_app_page(page, dict(dataset=name, n=SMALL_N, kernel=kernel),
                           timeout=RUN_TIMEOUT)
        assert not at.exception, (page, name, kernel, exception_texts(at))
        assert not at.error, (page, name, kernel, [e.value for e in at.error])
        assert widget(at, "selectbox", "dataset") == name
        assert widget(at, "selectbox", "kernel") == kernel
        drawn.add(kernel)
        if i == 0:  # the widget path: every kernel chosen in the sidebar on one data set
            for other in kernels:
                at.selectbox(key="kernel").set_value(other).run()
                assert not at.exception, (page, name, other, exception_texts(at))
                assert not at.error, (page, name, other, [e.value for e in at.error])
                assert widget(at, "selectbox", "kernel") == other
    assert drawn == set(kernels) or len(names) < len(kernels)


# ---------------------------------------------------------------- sparse KPCA: data x kernel


def test_skpca_data_set_chosen_with_the_widgets_matches_mpcore():
    """The data set, n and k chosen with the sidebar widgets: the run is greedy_steps'.

    (The loop over every data set below opens each one from a link at a small n:
    chosen with the widget, a data set first runs at its own default size.)
    """
    at = open_page()
    at.selectbox(key="dataset").set_value("circles").run()
    assert not at.exception, exception_texts(at)
    at.slider(key="n").set_value(SMALL_N).run()
    at.slider(key="k").set_value(SMALL_K).run()
    assert_clean(at)
    s = page_settings(at)
    assert (s["dataset"], s["n"], s["k"]) == ("circles", SMALL_N, SMALL_K)
    assert_matches_mpcore(at, reference_steps(s))


@pytest.mark.slow
@pytest.mark.parametrize("name", datasets.names())
def test_skpca_every_kernel_matches_mpcore(name):
    """Every PSD kernel on ``name``: no error, counter and choices equal greedy_steps.

    The data set is opened from a link at n = SMALL_N, k = SMALL_K (so it never runs
    at its default size here); the kernel is chosen with the sidebar widget.
    """
    at = open_page(params=dict(dataset=name, n=SMALL_N, k=SMALL_K))
    assert_clean(at)
    offered = at.selectbox(key="kernel").options
    assert len(offered) == len(PSD_KERNELS) and not any("sigmoid" in o.lower() for o in offered)
    for kernel in PSD_KERNELS:
        at.selectbox(key="kernel").set_value(kernel).run()
        assert_clean(at)
        s = page_settings(at)
        assert (s["dataset"], s["n"], s["kernel"], s["k"]) == (name, SMALL_N, kernel, SMALL_K)
        ref = reference_steps(s)
        assert counter(at) == (1, len(ref))
        assert_matches_mpcore(at, ref)
        if len(ref) > 1:
            at.button(key="skpca.next").click().run()
            assert_clean(at)
            assert counter(at) == (2, len(ref))
            assert_matches_mpcore(at, ref)
            at.button(key="skpca.reset_step").click().run()
            assert counter(at)[0] == 1


@pytest.mark.slow
def test_default_view_steps_through_mpcore_run():
    """Defaults: Step walks through every greedy choice, clamps at k, Back and Reset work."""
    at = open_page()
    assert_clean(at)
    s = page_settings(at)
    assert (s["dataset"], s["seed"], s["kernel"], s["k"]) == (
        DEFAULTS["dataset"], DEFAULTS["seed"], DEFAULTS["kernel"], DEFAULTS["k"])
    ref = reference_steps(s)
    n_steps = len(ref)
    assert len(figure(at)["frames"]) == n_steps  # one plotly frame per step: Play is client-side
    for j in range(1, n_steps + 1):
        assert counter(at) == (j, n_steps)
        assert_matches_mpcore(at, ref)
        assert figure(at)["layout"]["sliders"][0]["active"] == j - 1
        at.button(key="skpca.next").click().run()
    assert counter(at) == (n_steps, n_steps)  # clamped at the last step
    at.button(key="skpca.back").click().run()
    assert counter(at) == (n_steps - 1, n_steps)
    at.button(key="skpca.reset_step").click().run()
    assert counter(at) == (1, n_steps)


def test_figure_start_frame_rings_the_chosen_points():
    """The figure drawn at step j rings exactly the j chosen points (panel 1)."""
    at = open_page(params=dict(n=80, k=5))
    ref = reference_steps(page_settings(at))
    for _ in range(2):
        at.button(key="skpca.next").click().run()
    j, _ = counter(at)
    fig = figure(at)
    data0 = fig["data"][0]
    x_all = decode(data0["x"])
    ring = next(t for t in fig["data"] if t.get("name") == "chosen basis points")
    x_ring = decode(ring["x"])
    np.testing.assert_array_equal(x_ring, x_all[[s.index for s in ref[:j]]])


# ---------------------------------------------------------------- URL state


URL = dict(dataset="circles", n="80", noise="0.15", seed="3", kernel="laplacian", sigma="0.3",
           k="7", test="0.25")


def test_url_sets_every_widget_and_the_result():
    at = open_page(params=URL)
    assert_clean(at)
    s = page_settings(at)
    assert s["dataset"] == "circles" and s["n"] == 80 and s["seed"] == 3 and s["k"] == 7
    assert s["kernel"] == "laplacian" and s["sigma"] == pytest.approx(0.3)
    assert s["noise"] == pytest.approx(0.15) and s["test"] == pytest.approx(0.25)
    assert_matches_mpcore(at, reference_steps(s))
    for key, val in URL.items():  # the URL still carries the view after the run
        assert at.query_params[key] == val


def test_url_opens_at_the_step_shown():
    at = open_page(params=dict(URL, j="3"))
    assert_clean(at)
    assert counter(at) == (3, 7)
    assert_matches_mpcore(at, reference_steps(page_settings(at)))


def test_show_the_code_snippet_reproduces_the_view():
    """Executing the exported snippet picks the same training points as the page."""
    at = open_page(params=URL)
    code = snippet(at)
    for needle in ("datasets.load('circles'", "random_state=3", "SparseKPCA(7", "'laplacian'"):
        assert needle in code, code
    ns: dict = {}
    exec(compile(code.replace("print(", "(lambda *a: None)("), "<snippet>", "exec"), ns)  # noqa: S102
    model = ns["model"]
    assert isinstance(model, SparseKPCA)
    s = page_settings(at)
    X_page = training_data(s["dataset"], s["n"], s["noise"], s["seed"], s["test"])
    np.testing.assert_allclose(np.asarray(ns["X_tr"]), X_page, rtol=0, atol=1e-12)
    assert list(model.indices_) == chosen_all(at)  # same numbers as the page shows


def chosen_all(at) -> list[int]:
    """Step to the last frame and read every chosen index."""
    j, n = counter(at)
    for _ in range(n - j):
        at.button(key="skpca.next").click().run()
    return chosen(at)


def test_classroom_link_round_trip_hides_unticked_controls():
    """Untick kernel and sigma: the link carries their values and hides them."""
    at = open_footer(open_page(params=URL))
    at.checkbox(key="share.show.kernel").uncheck().run()
    at.checkbox(key="share.show.sigma").uncheck().run()
    assert_clean(at)
    params = link_params(classroom_link(at))
    assert set(params["hide"].split(",")) == {"kernel", "sigma"}
    for key in ("dataset", "n", "seed", "kernel", "sigma", "k"):
        assert key in params, params
        assert params[key] == URL[key] or float(params[key]) == float(URL[key])
    student = open_page(params=params)
    assert_clean(student)
    assert "kernel" not in [w.key for w in student.selectbox]
    assert "sigma" not in [w.key for w in student.select_slider]
    assert counter(student) == counter(open_page(params=URL))
    assert chosen(student) == chosen(at)


def test_hidden_controls_are_not_drawn_and_keep_url_values():
    params = dict(URL, hide="kernel,sigma,k")
    at = open_page(params=params)
    assert_clean(at)
    keys = {w.key for kind in ("selectbox", "select_slider", "slider") for w in getattr(at, kind)}
    assert not keys & {"kernel", "sigma", "k"}
    assert {"dataset", "n"} <= keys
    s = dict(page_settings(at), kernel="laplacian", sigma=0.3, k=7)
    assert_matches_mpcore(at, reference_steps(s))


def test_hidden_controls_without_values_take_defaults():
    at = open_page(params=dict(hide="kernel,k"))
    assert_clean(at)
    s = dict(page_settings(at), kernel=DEFAULTS["kernel"], k=DEFAULTS["k"])
    assert_matches_mpcore(at, reference_steps(s))


def reset_link(at) -> str:
    """The href of the "Reset all controls" link (a reload of the page's clean address)."""
    links = [re.search(r'href="([^"]*)"', m.value) for m in at.markdown if "Reset all controls" in m.value]
    assert len(links) == 1 and links[0], [m.value for m in at.markdown]
    return html.unescape(links[0].group(1))


@pytest.mark.slow
def test_reset_returns_to_defaults():
    """Reset is a link to the page without parameters: opening it gives the defaults."""
    at = open_page()
    defaults = page_settings(at)
    at.slider(key="k").set_value(5).run()
    at.number_input(key="seed").set_value(4).run()
    at.selectbox(key="kernel").set_value("polynomial").run()
    at.button(key="skpca.next").click().run()
    assert page_settings(at) != defaults
    assert link_params(reset_link(at)) == {}
    fresh = open_page(params=link_params(reset_link(at)))
    assert_clean(fresh)
    assert page_settings(fresh) == defaults
    assert counter(fresh)[0] == 1


def test_reset_from_a_classroom_link_returns_to_that_link_and_keeps_hiding():
    """In a classroom link, Reset goes back to the lecturer's values, not the defaults."""
    at = open_page(params=dict(URL, hide="test"))
    at.slider(key="k").set_value(5).run()
    assert link_params(reset_link(at)) == dict(URL, hide="test")
    fresh = open_page(params=link_params(reset_link(at)))
    assert_clean(fresh)
    s = page_settings(fresh)
    assert (s["dataset"], s["seed"], s["kernel"], s["k"]) == (
        URL["dataset"], int(URL["seed"]), URL["kernel"], int(URL["k"]))
    assert "test" not in [w.key for w in fresh.slider]


def test_k_survives_changing_n():
    at = open_page()
    at.slider(key="k").set_value(12).run()
    for n in (50, 100):
        at.slider(key="n").set_value(n).run()
        assert_clean(at)
        assert at.slider(key="k").value == 12
        assert counter(at) == (1, 12)


def test_k_is_clamped_to_the_training_size():
    at = open_page(params=dict(n=20, k=50))
    assert_clean(at)
    m_train = 20 - int(round(0.3 * 20))
    assert page_settings(at)["k"] <= m_train


# ---------------------------------------------------------------- CSV upload


BAD_CSV = {
    "non_numeric.csv": b"a,b\n1,x\n2,3\n3,4\n",
    "binary.csv": b"\x00\x01\x02\x03",
    "duplicate_header.csv": b"a,a\n1,2\n3,4\n",
    "empty.csv": b"",
    "header_only.csv": b"a,b\n",
    "latin1.csv": "a,b\n1,\xe9\n".encode("latin-1"),
    "too_wide.csv": csv_bytes(np.zeros((3, 101))),
}


def test_csv_upload_errors_show_st_error_then_a_valid_file_runs():
    """Uploads go through the page's real st.file_uploader (AppTest supports it)."""
    at = open_page(params=dict(dataset="csv upload"))
    assert_clean(at)
    assert at.info, "the page should say how to upload"
    for fname, raw in BAD_CSV.items():
        at.file_uploader(key="csv.file").set_value((fname, raw, "text/csv")).run()
        assert not at.exception, (fname, exception_texts(at))
        # what the reader sees: the message is Markdown-escaped so user text stays literal
        errors = [re.sub(r"\\(.)", r"\1", e.value) for e in at.error]
        assert len(errors) == 1 and errors[0].startswith(fname), (fname, errors)
        with pytest.raises(ValueError) as info:  # the very message of datasets.from_csv
            datasets.from_csv(raw)
        assert str(info.value) in errors[0]
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    at.file_uploader(key="csv.file").set_value(("good.csv", csv_bytes(X), "text/csv")).run()
    assert_clean(at)
    s = page_settings(at)
    k = s["k"]
    assert k == min(DEFAULTS["k"], 60 - int(round(0.3 * 60)))
    Xs = StandardScaler().fit_transform(np.asarray(datasets.from_csv(csv_bytes(X)).X))
    tr = split_train(None, "unsupervised", 60, s["test"], 0)
    ref = list(greedy_steps(kernel_matrix(Xs[tr], **kernel_params("rbf", s["sigma"])), k))
    assert_matches_mpcore(at, ref)
    # a bad file afterwards shows its error and keeps the valid data
    at.file_uploader(key="csv.file").set_value(("broken.csv", BAD_CSV["non_numeric.csv"],
                                                "text/csv")).run()
    assert not at.exception
    assert len(at.error) == 1
    assert_matches_mpcore(at, ref)


# ---------------------------------------------------------------- sessions


@pytest.mark.slow
def test_interleaved_sessions_never_see_each_other():
    a = open_page(params=dict(dataset="moons", n=120, k=5, seed=1))
    b = open_page(params=dict(dataset="blobs", n=90, k=9, seed=2, kernel="laplacian"))
    ref_a, ref_b = reference_steps(page_settings(a)), reference_steps(page_settings(b))
    assert [s.index for s in ref_a] != [s.index for s in ref_b][: len(ref_a)]
    for _ in range(3):
        a.button(key="skpca.next").click().run()
        b.run()
        b.button(key="skpca.next").click().run()
        b.button(key="skpca.next").click().run()
        a.run()
    assert counter(a) == (4, 5) and counter(b) == (7, 9)
    assert_matches_mpcore(a, ref_a)
    assert_matches_mpcore(b, ref_b)
    b.slider(key="k").set_value(4).run()
    a.run()
    assert counter(a) == (4, 5) and page_settings(a)["k"] == 5
    assert counter(b)[1] == 4
    assert_matches_mpcore(a, ref_a)


def test_footer_draws_its_code_and_link_when_opened_and_keeps_the_ticks_when_closed():
    """The footer's code boxes are drawn only in an open expander (they load the browser's
    syntax highlighter); a closed and reopened classroom builder keeps its ticks."""
    from pages.common.share import LINK_OPEN

    at = open_page(params=URL)
    assert_clean(at)
    assert not at.code  # nothing to highlight on the first draw
    open_footer(at)
    assert "import mpdatasets as datasets" in snippet(at)
    at.checkbox(key="share.show.kernel").uncheck().run()
    at.session_state[LINK_OPEN] = False
    at.run()
    assert [c.value for c in at.code if "import " not in c.value] == []
    at.session_state[LINK_OPEN] = True
    at.run()
    assert at.checkbox(key="share.show.kernel").value is False
    assert link_params(classroom_link(at))["hide"] == "kernel"
