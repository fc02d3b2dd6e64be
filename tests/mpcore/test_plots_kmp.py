"""Figures of the kernel matching pursuit page (mpcore.plots), without a browser.

Frames: one per step, each moving the same traces; the decision surface of
frame j is the model after step j; rings follow the chosen points; axes stay
fixed; the bound is drawn divided by the stated factor; Figure 5 highlights
the loss in use.
"""

import json
import warnings

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.datasets import make_moons
from sklearn.exceptions import ConvergenceWarning

from chart_util import decode
from conftest import ATOL_EXACT
from test_figure_frames import _pruned
from mpcore._losses import loss_functions
from mpcore.kmp import KMPClassifier, KMPRegressor
from mpcore.kmp import basis_functions, staged_values
from mpcore.plots.geometry import grid_2d, zero_level
from views.kmp_curves import kmp_curves
from mpcore.plots import (
    BOUND_STOP,
    TEST_ERR,
    TRAIN_ERR,
    VAL_STOP,
    kmp_comparison_figure,
    kmp_curves_figure,
    kmp_fit_animation,
    kmp_prediction_animation,
    kmp_surface_animation,
    kmp_surface_animation_dict,
    kmp_values_animation,
    margin_loss_figure,
    step_time_figure,
)
from pages.common.figure_frames import open_at
from mpcore.plots._kmp_parts import (  # the trace names these tests look up
    BOUND,
    CONSTANT,
    EXCEED,
    FIT,
    HIGHLIGHT_WIDTH,
    NEWEST,
    SURFACE,
    TRIVIAL,
    ZERO,
)

GRID = 25  # a coarse grid keeps the figures small


@pytest.fixture(scope="module")
def surface():
    X, y = make_moons(80, noise=0.2, random_state=0)
    model = KMPClassifier(6, gamma=2.0, kernel=[{"kernel": "rbf", "gamma": 2.0},
                                                 {"kernel": "rbf", "gamma": 8.0}]).fit(X, y)
    xs, ys, pts = grid_2d(X, GRID)
    Z = staged_values(model, pts).reshape(-1, GRID, GRID)
    boundary = [zero_level(xs, ys, z) for z in Z]
    fig = kmp_surface_animation(X, y, Z, xs, ys, model.basis_indices_, model.basis_kernels_,
                                classes=model.classes_, spec_labels=("narrow", "wide"),
                                boundary=boundary)
    return dict(X=X, y=y, model=model, xs=xs, ys=ys, Z=Z, fig=fig)


@pytest.mark.parametrize("start", [0, 3])
def test_surface_dict_frames_are_what_plotly_validates_them_to(surface, start):
    """The app's dict (frames never validated one by one) is the notebook's go.Figure:
    validated by plotly, it gives the same JSON, every frame included (test points, two
    kernel specifications and the zero level too)."""
    X, y, model = surface["X"], surface["y"], surface["model"]
    Xt, yt = make_moons(40, noise=0.2, random_state=1)
    Z = surface["Z"]
    kw = dict(classes=model.classes_, spec_labels=("narrow", "wide"), X_test=Xt, y_test=yt,
              boundary=[zero_level(surface["xs"], surface["ys"], z) for z in Z], start=start,
              frame_ms=200)
    args = (X, y, Z, surface["xs"], surface["ys"], model.basis_indices_, model.basis_kernels_)
    fast = kmp_surface_animation_dict(*args, **kw)
    assert len(fast["frames"]) == model.n_basis_
    assert not any(isinstance(f, go.Frame) for f in fast["frames"])
    assert (_pruned(json.loads(pio.to_json(go.Figure(fast))))
            == _pruned(json.loads(pio.to_json(kmp_surface_animation(*args, **kw)))))


def test_surface_has_a_frame_per_step_moving_the_same_traces(surface):
    fig, model = surface["fig"], surface["model"]
    k = model.n_basis_
    assert len(fig.frames) == k
    assert [f.name for f in fig.frames] == [str(j + 1) for j in range(k)]
    traces = {tuple(f.traces) for f in fig.frames}
    assert len(traces) == 1
    moving = next(iter(traces))
    names = [fig.data[i].name for i in moving]
    assert names[:2] == [SURFACE, ZERO] and names[-1] == NEWEST
    assert {"narrow", "wide"} <= set(names)  # one ring trace per kernel specification


def test_surface_frames_hold_the_staged_decision_function(surface):
    fig, Z = surface["fig"], surface["Z"]
    for j, frame in enumerate(fig.frames):
        assert_allclose(np.asarray(frame.data[0].z, dtype=float), Z[j], rtol=1e-6, atol=1e-6)
    # fixed colour scale and axes across frames
    assert fig.data[0].zauto is False
    assert tuple(fig.layout.xaxis.range) == (surface["xs"][0], surface["xs"][-1])


def test_surface_rings_follow_the_chosen_points(surface):
    fig, model, X = surface["fig"], surface["model"], surface["X"]
    moving = fig.frames[0].traces
    ring_ids = [i for i, ti in enumerate(moving) if fig.data[ti].name in ("narrow", "wide")]
    last = fig.frames[-1]
    xs = np.concatenate([np.asarray(last.data[i].x, dtype=float) for i in ring_ids])
    chosen = np.unique(model.basis_indices_[model.basis_indices_ >= 0])
    assert_allclose(np.sort(xs[np.isfinite(xs)]), np.sort(X[chosen, 0]))
    # the newest point of frame j is the point chosen at step j
    for j, frame in enumerate(fig.frames):
        i = model.basis_indices_[j]
        if i >= 0:
            assert frame.data[-1].x[0] == pytest.approx(X[i, 0])


def test_open_at_opens_on_a_frame_with_its_title(surface):
    fig = surface["fig"].to_plotly_json()
    j = 3
    opened = open_at(fig, j)
    assert opened["layout"]["title"]["text"] == fig["frames"][j]["layout"]["title"]["text"]
    assert f"Step {j + 1} of" in opened["layout"]["title"]["text"]
    assert opened["layout"]["sliders"][0]["active"] == j
    assert_allclose(decode(opened["data"][0]["z"]), surface["Z"][j], rtol=1e-6, atol=1e-6)
    json.dumps(go.Figure(opened).to_plotly_json(), default=str)  # still a valid figure


def test_open_at_keeps_the_first_k_frames_and_sets_the_play_speed(surface):
    """open_at is the one helper: cut to k steps, speed set."""
    fig = surface["fig"].to_plotly_json()
    cut = open_at(fig, 10, k=2, frame_ms=123)
    assert len(cut["frames"]) == 2 and len(cut["layout"]["sliders"][0]["steps"]) == 2
    assert cut["layout"]["sliders"][0]["active"] == 1  # j clipped to the k frames kept
    play = cut["layout"]["updatemenus"][0]["buttons"][0]
    assert play["args"][1]["frame"]["duration"] == 123


def test_fit_animation_draws_each_weighted_kernel():
    rng = np.random.default_rng(0)
    x = np.sort(rng.uniform(-3, 3, 60))
    y = np.sin(x) + 0.1 * rng.normal(size=60)
    model = KMPRegressor(5, gamma=1.0, fitting="backfit").fit(x[:, None], y)
    xs = np.linspace(-3, 3, 50)
    B = basis_functions(model, xs[:, None])
    F = staged_values(model, xs[:, None])
    fig = kmp_fit_animation(x, y, xs, F, B, model.coef_path_, model.basis_indices_,
                            model.basis_kernels_)
    assert len(fig.frames) == model.n_basis_
    names = [t.name for t in fig.data]
    assert FIT in names and CONSTANT in names
    fit_pos = fig.frames[0].traces.index(names.index(FIT))
    for j, frame in enumerate(fig.frames):
        assert_allclose(np.asarray(frame.data[fit_pos].y, dtype=float), F[j], rtol=1e-6, atol=1e-6)
    # the kernel terms of the last frame (plus the constant) add up to the fit
    parts_pos = [fig.frames[0].traces.index(i) for i, n in enumerate(names) if n.startswith("α K")]
    last = fig.frames[-1]
    terms = np.asarray(last.data[parts_pos[0]].y, dtype=float).reshape(-1, xs.size + 1)[:, :-1]
    const = [np.asarray(last.data[fig.frames[0].traces.index(names.index(CONSTANT))].y, dtype=float)]
    b = const[0][0] if np.isfinite(const[0][0]) else 0.0
    assert_allclose(terms.sum(axis=0) + b, F[-1], rtol=1e-5, atol=1e-5)
    # the lower panel's range follows the terms of each frame
    lim = abs(float(last.layout.yaxis2.range[1]))
    assert lim >= np.abs(terms).max()


def test_prediction_and_values_animations():
    rng = np.random.default_rng(1)
    P = rng.normal(size=(4, 30))
    fig = kmp_prediction_animation(rng.normal(size=30), P, rng.normal(size=10),
                                   rng.normal(size=(4, 10)), basis=np.array([3, -1, 5, 7]))
    assert len(fig.frames) == 4
    assert_allclose(np.asarray(fig.frames[2].data[0].y, dtype=float), P[2], rtol=1e-6)
    V = rng.normal(size=(5, 40))
    labels = rng.integers(0, 3, 40)
    fig = kmp_values_animation(V, labels, classes=np.array([0, 1, 2]), positive=1)
    assert len(fig.frames) == 5 and len(fig.frames[0].data) == 3


def test_comparison_figure_has_one_surface_per_panel(surface):
    X, y, xs, ys, Z = (surface[k] for k in ("X", "y", "xs", "ys", "Z"))
    panels = [dict(title=f"model {i}", Z=Z[i], support=[0, 1, 2], boundary=zero_level(xs, ys, Z[i]))
              for i in range(4)]
    fig = kmp_comparison_figure(X, y, xs, ys, panels)
    contours = [t for t in fig.data if t.type == "contour"]
    assert len(contours) == 4
    for c in contours:  # scaled per panel into [-1, 1]
        z = np.asarray(c.z, dtype=float)
        assert z.min() >= -1 and z.max() <= 1
    assert [a.text for a in fig.layout.annotations][:4] == [p["title"] for p in panels]
    # four in a row (the reproduce page's Figure 6): each title on two lines, name first,
    # so that neighbours do not run into each other at a projector's width
    named = [dict(p, title=f"model {i}: {i + 5} steps, {i + 3} points")
             for i, p in enumerate(panels)]
    row = kmp_comparison_figure(X, y, xs, ys, named, cols=4)
    assert [a.text for a in row.layout.annotations][:4] == [
        f"model {i}:<br>{i + 5} steps, {i + 3} points" for i in range(4)]
    assert row.layout.margin.t > fig.layout.margin.t
    with pytest.raises(ValueError, match="No panels"):
        kmp_comparison_figure(X, y, xs, ys, [])


def test_curves_figure_scales_the_bound_and_marks_the_stops():
    X, y = make_moons(100, noise=0.3, random_state=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        c = kmp_curves(KMPClassifier(12, gamma=2.0), X[:70], y[:70], X[70:], y[70:])
    path = c.paths[0]
    fig = kmp_curves_figure({TRAIN_ERR: c.train_error, TEST_ERR: c.test_error},
                            bound=path.bound, bound_scale=5.0, exceed=path.test_exceed,
                            markers={VAL_STOP: 4, BOUND_STOP: 6})
    by_name = {t.name: t for t in fig.data}
    assert f"{BOUND} ÷ 5" in by_name  # the scale is stated in the legend
    b = np.asarray(by_name[f"{BOUND} ÷ 5"].y, dtype=float)
    finite = np.isfinite(path.bound)
    assert_allclose(b[finite], path.bound[finite] / 5.0, rtol=1e-12)
    assert np.all(np.isnan(b[~finite]))  # +inf (m - k - t <= 0) is left out, not drawn
    assert {TRAIN_ERR, TEST_ERR, EXCEED, TRIVIAL} <= set(by_name)
    texts = [a.text for a in fig.layout.annotations]
    assert f"{VAL_STOP}: k = 4" in texts and f"{BOUND_STOP}: k = 6" in texts
    unscaled = kmp_curves_figure({TRAIN_ERR: c.train_error}, bound=path.bound)
    assert BOUND in {t.name for t in unscaled.data}
    with pytest.raises(ValueError, match="No curves"):
        kmp_curves_figure({})


def test_margin_loss_figure_highlights_the_selected_loss():
    fig = margin_loss_figure(loss_functions(), selected="tanh")
    widths = {t.name: t.line.width for t in fig.data}
    selected = [n for n in widths if "selected" in n]
    assert len(selected) == 1 and "tanh" in selected[0]
    assert widths[selected[0]] == HIGHLIGHT_WIDTH
    assert all(w < HIGHLIGHT_WIDTH for n, w in widths.items() if n not in selected)
    # the curves are the losses of mpcore._losses (clipped for display only above the axis)
    m = np.asarray(fig.data[0].x, dtype=float)
    curves = loss_functions()
    exp = next(t for t in fig.data if t.name.startswith("AdaBoost"))
    ok = curves["exponential"](m) < 6
    assert_allclose(np.asarray(exp.y, dtype=float)[ok], curves["exponential"](m)[ok], atol=ATOL_EXACT)


def test_step_time_figure_in_milliseconds():
    fig = step_time_figure(np.array([0.001, 0.002]))
    assert_array_equal(np.asarray(fig.data[0].y, dtype=float), [1.0, 2.0])
    with pytest.raises(ValueError, match="No steps"):
        step_time_figure(np.zeros(0))


def _equal_scales(layout, x="xaxis", y="yaxis"):
    """The y axis is tied to its x axis one unit for one (a circle of data is drawn round)."""
    ya = layout[y]
    return ya.get("scaleanchor") == ("x" + x[5:]) and ya.get("scaleratio") == 1


def test_decision_surfaces_draw_the_data_with_equal_axis_scales(surface):
    fig = surface["fig"]
    layout = fig.to_plotly_json()["layout"] if hasattr(fig, "to_plotly_json") else fig["layout"]
    assert _equal_scales(layout)
    s = surface
    panels = [dict(Z=s["Z"][-1], support=s["model"].basis_indices_, title=t) for t in "ab"]
    comp = kmp_comparison_figure(s["X"], s["y"], s["xs"], s["ys"], panels).to_plotly_json()
    assert _equal_scales(comp["layout"]) and _equal_scales(comp["layout"], "xaxis2", "yaxis2")
