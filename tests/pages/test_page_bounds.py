"""The bounds page with Streamlit's AppTest (no browser).

It renders for every data set the page offers and every PSD kernel, the k* and
bound values it shows equal ``mpcore.curves.bound_curves`` on the same data
rebuilt here from ``datasets`` and scikit-learn, its defaults are the paper's
Boston setting, the presets apply, the URL round-trips, and the exported
snippet reproduces the numbers.

Reference data: ``datasets.load`` -> ``StandardScaler`` (when ticked) -> a
seeded ``train_test_split`` of the row indices (stratified for classification
when every class has two members and the test part can hold one of each), in
train_test_split's order.
"""

from __future__ import annotations

import functools
import html
import json
import re
from urllib.parse import parse_qsl

import numpy as np
import pytest

from apptest_util import (chart_elements, chart_spec, 
    assert_clean,
    code_of,
    data_settings,
    kernel_params,
    open_app_page,
    reference_data,
    reference_split,
    widget,
)

import datasets
from mpcore.curves import bound_curves

PAGE = "pages/bounds.py"
RUN_TIMEOUT = 120
PSD_KERNELS = ("rbf", "laplacian", "polynomial", "linear", "cosine")
SMALL_N = 60
SMALL_KMAX = 6
#: Defaults stated on the page: the paper's Figure 1 (left) with sigma = 2 and a 455/51 split.
DEFAULTS = dict(dataset="boston", kernel="rbf", sigma=2.0, test=0.1, kmax=100, delta=0.05,
                std=True, seed=0)
#: Metrics are printed with 4 significant digits.
PRINTED_RTOL = 5e-4


# ---------------------------------------------------------------- helpers


#: A fresh session on this page, opened with URL ``params`` and session ``state``:
#: ``open_page(params, state)``.
open_page = functools.partial(open_app_page, PAGE, timeout=RUN_TIMEOUT)


def settings(at) -> dict:
    return dict(
        data_settings(at),
        test=widget(at, "slider", "test"), kmax=widget(at, "slider", "bounds.kmax"),
        delta=widget(at, "select_slider", "bounds.delta"),
        terms=widget(at, "toggle", "bounds.terms"),
    )


def reference(s):
    """mpcore.curves.bound_curves on the page's data, rebuilt independently."""
    d, X = reference_data(s)
    tr, te = reference_split(d, len(X), s)
    return bound_curves(X[tr], X[te], k_max=s["kmax"], delta=s["delta"], **kernel_params(s))


def metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def assert_matches(at, ref):
    """k* of both bounds, their values and the test residual at k* equal the reference."""
    shown = metrics(at)
    assert int(shown["Compression k*"]) == ref.k_star_compression
    assert int(shown["KPCA k*"]) == ref.k_star_kpca
    np.testing.assert_allclose(float(shown["Compression bound"]), ref.min_compression,
                               rtol=PRINTED_RTOL)
    np.testing.assert_allclose(float(shown["KPCA bound"]), ref.min_kpca, rtol=PRINTED_RTOL)
    np.testing.assert_allclose(float(shown["Test residual"]),
                               ref.test_residual[ref.k_star_compression - 1], rtol=PRINTED_RTOL)


def figure(at) -> dict:
    charts = chart_elements(at)
    assert len(charts) == 1, "expected exactly one plotly chart"
    return chart_spec(charts[0])


def trace_names(at) -> set:
    return {t.get("name", "") for t in figure(at)["data"]}


def snippet(at) -> str:
    blocks = [code_of(at, "import mpdatasets as datasets")]
    assert len(blocks) == 1
    return blocks[0]


# ---------------------------------------------------------------- defaults


def test_defaults_are_the_paper_boston_setting_and_match_mpcore():
    at = open_page()
    assert_clean(at)
    s = settings(at)
    assert s["dataset"] == DEFAULTS["dataset"] and s["kernel"] == DEFAULTS["kernel"]
    assert s["sigma"] == pytest.approx(DEFAULTS["sigma"]) and s["test"] == pytest.approx(0.1)
    assert s["kmax"] == DEFAULTS["kmax"] and s["delta"] == pytest.approx(DEFAULTS["delta"])
    assert s["n"] == 506 and s["std"] and s["seed"] == 0
    assert_matches(at, reference(s))
    names = trace_names(at)
    assert {"test residual", "training residual", "compression bound (Cor. 1)",
            "KPCA bound (Thm 6.14)", "compression bound minimum", "KPCA bound minimum"} <= names
    assert any(n.startswith("trivial level R") for n in names)
    captions = " ".join(c.value for c in at.caption)
    assert "43" in captions and "m = 455 training and 51 test points" in captions
    assert any("What the minima say" in h.value for h in at.subheader)
    assert [b.label for b in at.get("download_button")][:1] == ["Table as CSV"]


def test_sigmoid_is_not_offered():
    at = open_page()
    assert "sigmoid" not in at.selectbox(key="kernel").options
    assert not any("sigmoid" in o.lower() for o in at.selectbox(key="kernel").options)


# ---------------------------------------------------------------- every data set x kernel


OFFERED = [n for n in datasets.names()]


@pytest.mark.parametrize("name", OFFERED)
def test_every_dataset_and_psd_kernel_renders_and_matches_mpcore(name):
    at = open_page(params={"dataset": name, "n": SMALL_N, "bounds.kmax": SMALL_KMAX})
    assert_clean(at)
    assert at.selectbox(key="dataset").value == name
    for kernel in PSD_KERNELS:
        at.selectbox(key="kernel").set_value(kernel).run()
        assert_clean(at)
        s = settings(at)
        assert (s["dataset"], s["n"], s["kernel"], s["kmax"]) == (name, SMALL_N, kernel, SMALL_KMAX)
        assert_matches(at, reference(s))
        assert "compression bound (Cor. 1)" in trace_names(at)
        published = any("Published" in c.value for c in at.caption)
        assert published == (name in ("boston", "gaussian_toy"))


def test_delta_moves_both_bounds():
    at = open_page(params={"dataset": "moons", "n": 80, "bounds.kmax": 10})
    loose = metrics(at)
    at.select_slider(key="bounds.delta").set_value(0.001).run()
    assert_clean(at)
    tight = metrics(at)
    for label in ("Compression bound", "KPCA bound"):
        assert float(tight[label]) > float(loose[label])
    assert_matches(at, reference(settings(at)))


def test_early_stop_is_explained():
    """A linear kernel on 2-D data has rank 2: only two basis vectors exist."""
    at = open_page(params={"dataset": "moons", "n": SMALL_N, "kernel": "linear",
                          "bounds.kmax": 10})
    assert_clean(at)
    assert any("stopped after 2 of K_max = 10" in i.value for i in at.info)
    assert_matches(at, reference(settings(at)))


def test_terms_toggle_hides_the_dotted_terms():
    at = open_page(params={"dataset": "moons", "n": SMALL_N, "bounds.kmax": SMALL_KMAX})
    assert "Cor. 1 term at t = k" in trace_names(at)
    at.toggle(key="bounds.terms").set_value(False).run()
    assert_clean(at)
    assert "Cor. 1 term at t = k" not in trace_names(at)


# ---------------------------------------------------------------- presets


def preset_links(at) -> dict:
    """Preset name -> its URL parameters, read from the links in the sidebar."""
    links = {}
    for md in at.sidebar.markdown:
        for href, name in re.findall(r'<a href="\?([^"]*)"[^>]*>([^<]+)</a>', md.value):
            links[html.unescape(name)] = dict(parse_qsl(html.unescape(href)))
    return links


@pytest.mark.parametrize("preset, expected", [
    ("Figure 1, left: Boston", dict(dataset="boston", n=506, std=True, kernel="rbf", sigma=2.0,
                                    test=0.1, kmax=100)),
    ("Figure 1, right: Gaussian toy", dict(dataset="gaussian_toy", n=1250, ratio=10.0, std=False,
                                           kernel="rbf", sigma=30.0, test=0.2, kmax=100)),
    ("Toy, linear kernel", dict(dataset="gaussian_toy", n=1250, ratio=100.0, std=False,
                                kernel="linear", test=0.2, kmax=100)),
])
def test_preset_links_open_the_paper_setting(preset, expected):
    at = open_page(params={"n": SMALL_N, "bounds.kmax": SMALL_KMAX, "hide": "seed"})
    link = preset_links(at)[preset]
    assert link["hide"] == "seed"  # a classroom link keeps its hidden controls
    at = open_page(params=link)
    assert_clean(at)
    s = settings(at)
    for key, val in expected.items():
        assert s[key] == pytest.approx(val) if isinstance(val, float) else s[key] == val, key
    ref = reference(dict(s, seed=0))
    assert ref.m == (455 if expected["dataset"] == "boston" else 1000)  # toy: m = 1000 as published
    assert_matches(at, ref)
    assert any("Published" in c.value for c in at.caption)
    assert widget(at, "number_input", "seed") is None  # still hidden


# ---------------------------------------------------------------- URL state


#: A complete link as the page writes it (every field of the view, raw option values).
URL = {"dataset": "circles", "n": "80", "noise": "0.15", "seed": "3", "std": "true", "pts": "",
       "kernel": "laplacian", "sigma": "0.3", "test": "0.25", "bounds.kmax": "12",
       "bounds.delta": "0.01", "bounds.terms": "false"}


def test_url_round_trips():
    """A link sets every widget, survives the run, and reproduces the view in a new session."""
    at = open_page(params=URL)
    assert_clean(at)
    s = settings(at)
    assert (s["dataset"], s["n"], s["seed"], s["kernel"], s["kmax"], s["terms"]) == (
        "circles", 80, 3, "laplacian", 12, False)
    assert s["sigma"] == pytest.approx(0.3) and s["test"] == pytest.approx(0.25)
    assert s["noise"] == pytest.approx(0.15) and s["delta"] == pytest.approx(0.01)
    assert_matches(at, reference(s))
    url = {k: at.query_params[k] for k in at.query_params}
    url = {k: v[-1] if isinstance(v, list) else v for k, v in url.items()}
    assert url == URL  # the URL still carries the whole view after the run

    again = open_page(params=url)
    assert_clean(again)
    assert settings(again) == s
    assert metrics(again) == metrics(at)


def test_hand_written_url_sets_the_numeric_controls():
    url = {"n": "120", "seed": "4", "test": "0.3", "bounds.kmax": "9", "bounds.delta": "0.2",
           "bounds.terms": "False"}
    at = open_page(params=url)
    assert_clean(at)
    s = settings(at)
    assert (s["n"], s["seed"], s["kmax"], s["terms"]) == (120, 4, 9, False)
    assert s["test"] == pytest.approx(0.3) and s["delta"] == pytest.approx(0.2)
    assert_matches(at, reference(s))
    for key, val in url.items():  # the URL still carries the view after the run (canonical)
        val = val.lower() if val in ("True", "False") else val
        assert at.query_params[key] in (val, [val])


# ---------------------------------------------------------------- show the code


def test_snippet_reproduces_the_numbers():
    at = open_page(params={"dataset": "moons", "n": 90, "bounds.kmax": 12})
    code = snippet(at)
    assert "bound_curves(\n    X_tr, X_te" in code and "k_max=12" in code
    ns: dict = {}
    quiet = code.replace("print(", "(lambda *a: None)(")
    exec(compile(quiet, "<snippet>", "exec"), ns)  # noqa: S102
    c = ns["c"]
    assert_matches(at, c)
