"""The sparse-KCCA page with Streamlit's AppTest (no browser).

The step counter, the chosen pairs and the quotient shown equal ``mpcore.kcca.kcca_steps`` on
``datasets.two_view`` rebuilt here (seeded split as in the snippet); Step / Back / Reset walk
through the run and the figure opens on the current frame; every control renders at its
extremes (n, noise, held-out fraction, both widths, tau, k = 1 and k = max) with no error; the
URL and hidden controls round-trip; the exported snippet reproduces the chosen pairs, the
correlation path and the held-out score; and the page's train/test curves equal
``SparseKCCA(n_basis=t)`` refitted for every t.
"""

from __future__ import annotations

import functools
import json
import re

import numpy as np
import pytest
from sklearn.model_selection import train_test_split

from apptest_util import (chart_elements, chart_spec, assert_clean, chosen_so_far, code_of, open_app_page, step_counter, timeline,
                          widget)
from chart_util import decode

import datasets
from conftest import ATOL_EXACT
from mpcore.kcca import SparseKCCA, kcca_steps
from mpcore.kernels import kernel_matrix
from mpcore.plots._kcca import CHOSEN_X, PROJECTION_TITLE, QUOTIENTS
from pages.common.widgets import SIGMAS

PAGE = "pages/kcca.py"
STEP_RE = re.compile(r"Step (\d+) of (\d+)")
#: Defaults stated on the page.
DEFAULTS = dict(n=300, noise=0.1, seed=0, test=0.3, sigma_x=0.5, sigma_y=0.5, reg=1e-3, k=15)
#: Printed with 4 significant digits (quotient) or 3 decimals (correlations).
PRINTED_RTOL = 5e-4
PRINTED_ATOL = 5e-4


# ---------------------------------------------------------------- helpers


#: A fresh session on this page, opened with URL ``params`` and session ``state``:
#: ``open_page(params, state)``.
open_page = functools.partial(open_app_page, PAGE)


def settings(at) -> dict:
    return dict(n=widget(at, "slider", "kcca.n"), noise=widget(at, "slider", "kcca.noise"),
                seed=widget(at, "number_input", "seed"), test=widget(at, "slider", "test"),
                sigma_x=widget(at, "select_slider", "kcca.sigma_x"),
                sigma_y=widget(at, "select_slider", "kcca.sigma_y"),
                reg=widget(at, "select_slider", "kcca.reg"), k=widget(at, "slider", "kcca.k"))


def split(s):
    """The seeded two-view split, as the snippet does it."""
    X, Y, z = datasets.two_view(s["n"], s["noise"], s["seed"])
    tr, te = train_test_split(np.arange(s["n"]), test_size=s["test"], random_state=s["seed"])
    return X[tr], Y[tr], z[tr], X[te], Y[te]


def gammas(s):
    """Gaussian exp(-||a-b||^2 / (2 sigma^2)): gamma = 1 / (2 sigma^2) in each view."""
    return 1.0 / (2.0 * s["sigma_x"] ** 2), 1.0 / (2.0 * s["sigma_y"] ** 2)


def reference_steps(s):
    X, Y, *_ = split(s)
    gx, gy = gammas(s)
    return list(kcca_steps(kernel_matrix(X, kernel="rbf", gamma=gx),
                           kernel_matrix(Y, kernel="rbf", gamma=gy), s["k"], reg=s["reg"]))


def counter(at):
    return step_counter(at)


def chosen(at):
    return chosen_so_far(at)


def figure(at):
    return chart_spec(chart_elements(at)[0])


def assert_matches(at, ref):
    """Counter, chosen pairs, the quotient of step j and the rings drawn equal the reference."""
    j, n_steps = counter(at)
    assert n_steps == len(ref)
    assert chosen(at) == [s.index for s in ref[:j]]
    line = timeline(at)["lines"][j - 1][0]
    s = ref[j - 1]
    assert f"pair {s.index}," in line, line
    rho = re.search(r"quotient ρ = ([-+0-9.e]+)", line)
    np.testing.assert_allclose(float(rho.group(1)), s.quotients[s.index], rtol=PRINTED_RTOL)
    fig = figure(at)
    ring = next(t for t in fig["data"] if t.get("name") == CHOSEN_X)
    assert len(decode(ring["x"])) == j
    assert fig["layout"]["sliders"][0]["active"] == j - 1
    quotients = next(t for t in fig["data"] if t.get("name") == QUOTIENTS)
    z = decode(quotients["x"])
    lo, hi = fig["layout"]["xaxis4"].get("range", (-np.inf, np.inf))
    assert lo <= z.min() and z.max() <= hi  # every candidate is on screen
    assert len(fig["frames"]) == len(ref)


# ---------------------------------------------------------------- defaults and stepping


def test_defaults_step_through_the_mpcore_run():
    at = open_page()
    assert_clean(at)
    s = settings(at)
    assert s == pytest.approx(DEFAULTS)
    ref = reference_steps(s)
    for j in range(1, len(ref) + 1):
        assert counter(at) == (j, len(ref))
        assert_matches(at, ref)
        at.button(key="kcca.next").click().run()
    assert counter(at) == (len(ref), len(ref))  # clamped at the last step
    at.button(key="kcca.back").click().run()
    assert counter(at) == (len(ref) - 1, len(ref))
    assert_matches(at, ref)
    at.button(key="kcca.reset_step").click().run()
    assert counter(at) == (1, len(ref))


def test_projection_title_matches_the_correlation_of_the_step():
    at = open_page(params={"kcca.k": 6})
    ref = reference_steps(settings(at))
    for _ in range(3):
        at.button(key="kcca.next").click().run()
    j, _ = counter(at)
    title = figure(at)["layout"]["annotations"][PROJECTION_TITLE]["text"]
    corr = abs(np.corrcoef(ref[j - 1].variate_x, ref[j - 1].variate_y)[0, 1])
    assert title.endswith(f"corr = {corr:.3f}")


# ---------------------------------------------------------------- every control, extremes


EXTREMES = [
    {"kcca.n": 20, "test": 0.5},  # m = 10 training pairs
    {"kcca.n": 1000, "kcca.k": 60},
    {"kcca.noise": 0.0}, {"kcca.noise": 0.5},
    {"kcca.sigma_x": SIGMAS[0], "kcca.sigma_y": SIGMAS[0]},
    {"kcca.sigma_x": SIGMAS[-1], "kcca.sigma_y": SIGMAS[-1]},
    {"kcca.sigma_x": SIGMAS[0], "kcca.sigma_y": SIGMAS[-1]},
    {"kcca.reg": 1e-4}, {"kcca.reg": 0.5},
    {"kcca.k": 1}, {"test": 0.1, "seed": 7},
]


@pytest.mark.parametrize("params", EXTREMES, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()))
def test_every_control_at_its_extremes(params):
    at = open_page(params=params)
    assert_clean(at)
    s = settings(at)
    for key, val in params.items():
        assert s[key.split(".")[-1]] == pytest.approx(val)
    ref = reference_steps(s)
    assert_matches(at, ref)
    if len(ref) < s["k"]:
        assert any("Stopped after" in w.value for w in at.warning)


def test_k_is_clamped_when_the_training_set_shrinks():
    at = open_page(params={"kcca.k": 40})
    assert settings(at)["k"] == 40
    at.slider(key="kcca.n").set_value(40).run()  # 28 training pairs
    assert_clean(at)
    s = settings(at)
    assert s["k"] == at.slider(key="kcca.k").max == 28
    assert_matches(at, reference_steps(s))


# ---------------------------------------------------------------- URL and hiding


URL = {"kcca.n": "150", "kcca.noise": "0.2", "seed": "4", "test": "0.25", "kcca.sigma_x": "0.3",
       "kcca.sigma_y": "0.7", "kcca.reg": "0.01", "kcca.k": "9"}


def test_url_sets_every_control_and_survives_the_run():
    at = open_page(params=URL)
    assert_clean(at)
    s = settings(at)
    assert s == pytest.approx(dict(n=150, noise=0.2, seed=4, test=0.25, sigma_x=0.3, sigma_y=0.7,
                                   reg=0.01, k=9))
    assert_matches(at, reference_steps(s))
    for key, val in URL.items():
        assert at.query_params[key] in (val, [val])


def test_hidden_controls_keep_their_url_values():
    at = open_page(params=dict(URL, hide="kcca.sigma_x,kcca.k"))
    assert_clean(at)
    assert "kcca.sigma_x" not in {w.key for w in at.select_slider}
    assert "kcca.k" not in {w.key for w in at.slider}
    s = dict(settings(at), sigma_x=0.3, k=9)
    assert_matches(at, reference_steps(s))


# ---------------------------------------------------------------- snippet and curves


def test_snippet_reproduces_the_chosen_pairs_and_scores():
    at = open_page(params=URL)
    for _ in range(8):
        at.button(key="kcca.next").click().run()
    j, n_steps = counter(at)
    assert j == n_steps == 9
    code = code_of(at, "import mpdatasets as datasets")
    ns: dict = {}
    exec(compile(code.replace("print(", "(lambda *a: None)("), "<snippet>", "exec"), ns)  # noqa: S102
    model, X, Y, te = ns["model"], ns["X"], ns["Y"], ns["te"]
    assert list(model.indices_) == chosen(at)
    line = timeline(at)["lines"][j - 1][1]
    shown = re.search(r"ρ = ([0-9.]+);  correlation: train ([-0-9.]+), held out ([-0-9.]+)", line)
    assert shown, line
    np.testing.assert_allclose(float(shown.group(1)), model.correlation_path_[-1], atol=PRINTED_ATOL)
    np.testing.assert_allclose(float(shown.group(3)), model.score(X[te], Y[te]), atol=PRINTED_ATOL)


def test_train_and_test_curves_equal_refitted_estimators():
    """kcca_view's prefix trick (column t of K[:, i]L^-T uses the first t pairs only) equals
    fitting SparseKCCA(n_basis=t) from scratch, for every t."""
    from pages.common.cached import kcca as cached

    s = dict(DEFAULTS, n=120, k=8, reg=1e-2)
    view = cached.kcca_view(s["n"], s["noise"], s["seed"], s["test"], s["sigma_x"], s["sigma_y"],
                            s["reg"], s["k"])
    X, Y, _, X_te, Y_te = split(s)
    gx, gy = gammas(s)
    for t in range(1, len(view["steps"]) + 1):
        model = SparseKCCA(t, gamma_x=gx, gamma_y=gy, reg=s["reg"]).fit(X, Y)
        assert list(model.indices_) == [st.index for st in view["steps"][:t]]
        np.testing.assert_allclose(view["rho"][t - 1], model.correlations_[0], atol=ATOL_EXACT)
        np.testing.assert_allclose(view["train"][t - 1], model.score(X, Y), atol=1e-6)
        np.testing.assert_allclose(view["test"][t - 1], model.score(X_te, Y_te), atol=1e-6)


def test_download_buttons_are_offered():
    at = open_page()
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels == ["⬇ Download animation (offline HTML)", "Table as CSV", "Run as JSON"]
