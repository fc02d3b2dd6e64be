"""Where a figure's parts go when its size changes, without a browser (mpcore.plots and the
app's layout adapters, pages/common/resize.py and pages/common/phone_panels.py).

- :func:`pages.common.resize.resized` (presentation mode fits an animation to the window): the
  Play/Pause buttons, the step slider and a colour bar under the plot area keep their
  distance in pixels from it; parts inside the plot area keep their place.
- A legend on top (``base_layout``) is placed in the figure's own coordinates, under the
  title, so a relayout to another width cannot leave it over the data.
- A phone's panel (:func:`pages.common.phone_panels.one_panel`, ``narrow_layout``):
  colour bars lie flat under the plot area, then the buttons, then the slider, all inside
  the bottom margin, so the plot area keeps the whole width.
- The KMP decision surface: built for a column of any width (the legend in rows on top,
  the slider's "step j = ..." at its right end, away from the buttons), and laid out again
  for presentation mode (:func:`mpcore.plots.kmp_present_layout`): the plot area takes the
  height, the colour bar stands under the legend at the right, the buttons beside the slider.

tests/browser/test_browser_layout.py and tests/browser/test_browser_present.py check the same in a browser.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_moons

import views.kcca as kcca_views
from mpcore.curves import bound_curves
from mpcore.kmp import KMPClassifier, staged_values
from mpcore.plots import (
    bound_curves_figure,
    kcca_animation,
    kmp_present_layout,
    kmp_surface_animation,
    kmp_values_animation,
    scree_figure,
)
from mpcore.plots._kmp_surface import (
    PRESENT_AXIS_PX,
    PRESENT_CONTROLS_PX,
    PRESENT_FLAT_BAR_PX,
    PRESENT_LEGEND_ROW_PX,
)
from mpcore.plots._kmp_parts import SURFACE
from mpcore.plots.geometry import grid_2d
from pages.common.phone_panels import narrow_layout, one_panel
from pages.common.resize import resized

GRID = 15


@pytest.fixture(scope="module")
def surface() -> dict:
    X, y = make_moons(60, noise=0.2, random_state=0)
    model = KMPClassifier(5, gamma=2.0).fit(X, y)
    xs, ys, pts = grid_2d(X, GRID)
    Z = staged_values(model, pts).reshape(-1, GRID, GRID)
    fig = kmp_surface_animation(X, y, Z, xs, ys, model.basis_indices_, model.basis_kernels_,
                                classes=model.classes_, height=820)
    return fig.to_plotly_json()


def _plot_px(layout) -> float:
    return layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]


def _surface(fig):
    """The decision surface's trace (a heatmap; its colour bar is the one under the plot)."""
    return next(t for t in fig["data"] if t.get("name") == SURFACE)


def _offsets(fig) -> dict:
    """Pixels below the plot area of the buttons', the slider's and the colour bar's tops."""
    lay, px = fig["layout"], _plot_px(fig["layout"])
    return {"buttons": -lay["updatemenus"][0]["y"] * px, "slider": -lay["sliders"][0]["y"] * px,
            "colour bar": -_surface(fig)["colorbar"]["y"] * px}


@pytest.mark.parametrize("height", [480, 560, 1000])
def test_resized_keeps_what_is_under_the_plot_at_its_pixel_distance(surface, height):
    before = _offsets(surface)
    assert all(v > 0 for v in before.values()), before  # all under the plot area
    out = resized(surface, height)
    assert out["layout"]["height"] == height
    after = _offsets(out)
    for part, px in before.items():
        assert after[part] == pytest.approx(px), (part, before, after)
    # order under the plot: colour bar, then the buttons and the slider
    assert after["colour bar"] < after["buttons"] == pytest.approx(after["slider"])
    # inside the plot area (the legend at its top right) a fraction stays the same
    assert out["layout"]["legend"]["y"] == surface["layout"]["legend"]["y"]
    # the frames are shared, not copied; the input is unchanged
    assert all(a is b for a, b in zip(out["frames"], surface["frames"]))
    assert _offsets(surface) == before


def test_resized_at_the_same_height_changes_nothing(surface):
    out = resized(surface, surface["layout"]["height"])
    assert out["layout"] == surface["layout"] and out["data"] == surface["data"]


def test_a_legend_on_top_is_placed_from_the_top_edge_of_the_figure():
    exact = np.geomspace(1, 1e-6, 20)
    scree = scree_figure(exact, {"Nyström, random indices": exact * 0.9}, n_compared=5).layout
    assert scree.legend.yref == "container" and scree.legend.yanchor == "top"
    assert scree.legend.orientation == "h" and 0.9 < scree.legend.y < 1
    X = np.random.default_rng(7).normal(size=(90, 3))
    bounds = bound_curves_figure(bound_curves(X[:70], X[70:], gamma=0.3, k_max=10),
                                 title="Bounds")
    lay = bounds.layout
    assert lay.legend.yref == "container" and lay.legend.yanchor == "top"
    # under the title, which is pinned to the top edge too (not the middle of the margin)
    assert lay.title.yref == "container" and lay.title.y > lay.legend.y


@pytest.fixture(scope="module")
def kcca_fig() -> dict:
    d = kcca_views.kcca_data(60, 0.1, 0, 0.25)
    v = kcca_views.kcca_view(d, 1.0, 1.0, 0.1, 4)
    return kcca_animation(d["X"], d["Y"], d["z"], v["steps"], train=v["train"], test=v["test"],
                          rho=v["rho"]).to_plotly_json()


def _colour_bars(fig):
    bars = [t["colorbar"] for t in fig["data"]
            if t.get("visible", True) is True and isinstance(t.get("colorbar"), dict)]
    bars += [t["marker"]["colorbar"] for t in fig["data"]
             if t.get("visible", True) is True and isinstance(t.get("marker"), dict)
             and isinstance(t["marker"].get("colorbar"), dict)]
    bars += [v["colorbar"] for k, v in fig["layout"].items()
             if k.startswith("coloraxis") and v.get("showscale", True) is not False
             and isinstance(v.get("colorbar"), dict)]
    return bars


def _stacked_under_the_plot(fig):
    """Colour bars flat under the plot, then the buttons, then the slider across the width,
    each lower than the last and all inside the bottom margin (pixels from the plot's bottom)."""
    lay = fig["layout"]
    px = _plot_px(lay)
    bars = _colour_bars(fig)
    assert bars, "a colour bar is drawn"
    tops = []
    for cb in bars:
        assert cb["orientation"] == "h" and cb["y"] < 0 and cb["yanchor"] == "top", cb
        assert cb["title"]["side"] == "top"  # above the bar, which keeps its length
        tops.append(-cb["y"] * px)
    buttons = -lay["updatemenus"][0]["y"] * px
    slider = -lay["sliders"][0]["y"] * px
    assert max(tops) + 60 <= buttons < slider < lay["margin"]["b"], (tops, buttons, slider, lay["margin"])
    assert lay["sliders"][0]["x"] == 0.0 and lay["sliders"][0]["len"] == 1.0
    # nothing beside the plot area: the right margin is small
    assert lay["margin"]["r"] <= 20


@pytest.mark.parametrize("height", [560, 900])
def test_one_panel_lays_the_colour_bar_under_a_full_width_panel(kcca_fig, height):
    for sfx in ("", "2"):  # View X and View Y: coloured by the latent z
        _stacked_under_the_plot(one_panel(kcca_fig, sfx, height=height))


def test_narrow_layout_lays_the_colour_bar_under_the_plot(surface):
    out = narrow_layout(surface, height=820)
    _stacked_under_the_plot(out)
    # the legend below the slider, in the figure's own coordinates
    assert out["layout"]["legend"]["yref"] == "container" and out["layout"]["legend"]["y"] == 0.0


# ---------------------------------------------------------------- the KMP decision surface


def test_the_surface_fits_a_narrow_column(surface):
    """A 1280 px window with the sidebar open gives the figure about 590 px: the legend is in
    rows above the plot (not beside it), the colour bar flat under it with few ticks, and the
    slider's current value at its right end (its left end is under the Pause button there)."""
    lay = surface["layout"]
    assert lay["legend"]["orientation"] == "h" and lay["legend"]["yref"] == "container"
    assert lay["title"]["yref"] == "container" and lay["title"]["y"] > lay["legend"]["y"]
    assert lay["margin"]["r"] <= 20  # nothing beside the plot area
    cb = _surface(surface)["colorbar"]
    assert cb["orientation"] == "h" and cb["nticks"] <= 5
    slider = lay["sliders"][0]
    assert slider["currentvalue"]["xanchor"] == "right"
    assert lay["updatemenus"][0]["x"] == 0.0 and slider["x"] > 0.3


#: The 64-bit extremes, which the CSV reader accepts as class labels: 20 characters each.
LONG_LABELS = np.array([-2**63, 0, 2**63 - 1], dtype=np.int64)


def _labelled_surface(labels, height=820) -> dict:
    """The page's surface (test points shown in the legend) on three classes named
    ``labels``: the same points and fit whatever the names."""
    X, y3 = make_moons(90, noise=0.2, random_state=0)
    y3[::3] = 2
    y = np.asarray(labels)[y3]
    model = KMPClassifier(4, gamma=2.0).fit(X[:60], y[:60])
    xs, ys, pts = grid_2d(X, GRID)
    Z = staged_values(model, pts, path=1).reshape(-1, GRID, GRID)  # class 1 against the rest
    basis = model.estimators_[1].basis_indices_
    return kmp_surface_animation(X[:60], y[:60], Z, xs, ys, basis, np.zeros_like(basis),
                                 classes=model.classes_, X_test=X[60:], y_test=y[60:],
                                 height=height).to_plotly_json()


def test_long_class_names_take_a_legend_row_each_and_the_plot_keeps_its_size():
    """Two legend entries a row at half the plot's width each: "class -9223372036854775808
    (f > 0 side)" ran into its neighbour (seen at 1280 x 720). With a name too long for
    half, the legend has one column, the figure grows by the rows it adds, and the plot
    area and what lies under it keep their pixels."""
    short, long_ = _labelled_surface([0, 1, 2]), _labelled_surface(LONG_LABELS)
    names = [t["name"] for t in long_["data"] if t.get("showlegend") is not False]
    assert any(str(-2**63) in n for n in names) and len(names) == 9
    assert short["layout"]["legend"]["entrywidth"] == 1 / 2
    assert long_["layout"]["legend"]["entrywidth"] == 1.0
    assert long_["layout"]["height"] - short["layout"]["height"] == 26 * (9 - 5)
    assert _plot_px(long_["layout"]) == _plot_px(short["layout"])
    assert _offsets(long_) == pytest.approx(_offsets(short))
    # and on a phone (narrow_layout): short names two a row; long ones a row each, the
    # figure taller by the rows that adds, the plot area as with short names
    phone_s, phone_l = (narrow_layout(f, height=820) for f in (short, long_))
    assert (phone_s["layout"]["legend"]["entrywidth"], phone_s["layout"]["legend"]
            ["entrywidthmode"]) == (0.5, "fraction")  # two a row, as before
    assert phone_l["layout"]["legend"]["entrywidthmode"] == "pixels"
    assert phone_l["layout"]["legend"]["entrywidth"] >= 250
    assert phone_l["layout"]["height"] - phone_s["layout"]["height"] == 22 * (9 - 5)
    assert _plot_px(phone_l["layout"]) == _plot_px(phone_s["layout"])


def test_a_long_kernel_name_puts_the_step_title_on_two_lines_above_the_legend():
    """A mixed dictionary's polynomial ("Step 1 of 4: added x₅₁ with polynomial(gamma=0.5,
    degree=2, coef0=1)") ran past the figure's right edge in a 1280 px window, cut there.
    The titles, the frames' too, break before "with"; the legend and the plot area move
    down one line, the figure grows by it, and what lies under the plot keeps its pixels.
    Presentation mode, as wide as the screen, puts them on one line again."""
    from mpcore.plots._kmp_parts import _fitted_titles

    names = ("Gaussian σ = 1", "Laplacian σ = 1", "polynomial(gamma=0.5, degree=2, coef0=1)")
    short = _fitted_titles([f"Step 1 of 4: added x<sub>51</sub> with {names[0]}"])
    assert short == ([f"Step 1 of 4: added x<sub>51</sub> with {names[0]}"], 1)
    # a long title without a kernel stays on one line, and the figure as it was (KMP on
    # moons at n = 199: the constant function at step 20 gave every figure a line more,
    # and a slider notch a new graph, tests/browser/test_browser_charts.py)
    bias = ["Step 20 of 20: added the constant function (bias)",
            "Step 1 of 20: added x<sub>9</sub>"]
    assert _fitted_titles(bias) == (bias, 1)
    X, y = make_moons(60, noise=0.2, random_state=0)
    xs, ys, _ = grid_2d(X, GRID)
    Z = np.zeros((4, GRID, GRID))
    basis, kernels = np.array([5, 9, 17, 30]), np.array([2, 0, 1, 2])
    one = kmp_surface_animation(X, y, Z, xs, ys, basis, kernels, spec_labels=names[:2] + ("p",),
                                height=820).to_plotly_json()
    two = kmp_surface_animation(X, y, Z, xs, ys, basis, kernels, spec_labels=names,
                                height=820).to_plotly_json()
    titles = [two["layout"]["title"]["text"]] + [f["layout"]["title"]["text"]
                                                 for f in two["frames"]]
    assert all(t.count("<br>") == 1 and "<br>with " in t for t in titles), titles
    assert "<br>" not in one["layout"]["title"]["text"]
    lay1, lay2 = one["layout"], two["layout"]
    # a line of title, and the legend's 7 entries in one column (the long name) for 4 rows
    assert lay2["legend"]["entrywidth"] == 1.0 and lay1["legend"]["entrywidth"] == 0.5
    assert lay2["height"] - lay1["height"] == 26 + 26 * (7 - 4)
    assert lay2["margin"]["t"] - lay1["margin"]["t"] == 26 + 26 * (7 - 4)
    assert (1 - lay2["legend"]["y"]) * lay2["height"] == pytest.approx(
        (1 - lay1["legend"]["y"]) * lay1["height"] + 26)
    assert _plot_px(lay2) == _plot_px(lay1) and _offsets(two) == pytest.approx(_offsets(one))
    present = kmp_present_layout(two)
    assert all("<br>" not in t for t in [present["layout"]["title"]["text"]]
               + [f["layout"]["title"]["text"] for f in present["frames"]])
    assert "<br>" in two["frames"][0]["layout"]["title"]["text"]  # the input is not changed
    # a phone (narrow_layout): each line of every title within a phone's line, the top
    # margin below the last, and the plot area as with a one-line title
    from mpcore.plots.text_size import PHONE_TITLE_CHARS
    from mpcore.plots.text_size import text_lines as _lines

    phone1, phone2 = narrow_layout(one, height=1080), narrow_layout(two, height=1080)
    titles = [phone2["layout"]["title"]["text"]] + [f["layout"]["title"]["text"]
                                                    for f in phone2["frames"]]
    lines = [_lines(t) for t in titles]
    assert all(len(line) <= PHONE_TITLE_CHARS for ls in lines for line in ls), lines
    n = max(len(ls) for ls in lines)
    assert n == 3 and phone2["layout"]["margin"]["t"] >= 12 + 26 * n
    assert _plot_px(phone2["layout"]) == _plot_px(phone1["layout"])


@pytest.mark.parametrize("labels, on_top", [
    (("kernel",), False),  # one kernel: the legend at the right, as it was
    (("Gaussian σ = 0.5", "Laplacian σ = 0.5", "polynomial(gamma=1, degree=2, coef0=1)"), True),
])
def test_the_1d_fits_legend_goes_on_top_when_its_names_are_long(labels, on_top):
    """The 1-D fit of a mixed dictionary: "α K(x, xᵢ): polynomial(gamma=1, degree=2,
    coef0=1)" in a legend at the right left its plots 64 px of a 590 px figure (1280 x 720).
    A long name puts the legend in rows above the plots (the step title on two lines), the
    figure taller by them; the plots and what lies under them keep their pixels."""
    from kmp_figures import regression_1d

    from mpcore.kmp import basis_functions, staged_values
    from mpcore.plots import kmp_fit_animation

    x, y, model, xs = regression_1d()
    kernels = np.arange(4) % len(labels)

    def fit(names):
        return kmp_fit_animation(x, y, xs, staged_values(model, xs[:, None]),
                                 basis_functions(model, xs[:, None]), model.coef_path_,
                                 model.basis_indices_, kernels, spec_labels=names,
                                 height=880).to_plotly_json()

    plain = fit(("a", "b", "c")[:len(labels)])  # short names: the legend at the right
    fig = fit(labels)
    lay, ref = fig["layout"], plain["layout"]
    assert ref["legend"].get("orientation", "v") == "v"
    assert _plot_px(lay) == _plot_px(ref)
    for key in ("updatemenus", "sliders"):
        assert lay[key][0]["y"] == pytest.approx(ref[key][0]["y"])
    # a phone's panel of it: the plot area at least PHONE_MIN_PLOT_PX (the mixed dictionary's
    # title and legend above it left 112 px of 560), the figure taller for it
    from pages.common.phone_panels import PHONE_MIN_PLOT_PX

    panel, plain_panel = one_panel(fig, "", height=560), one_panel(plain, "", height=560)
    assert plain_panel["layout"]["height"] == 560  # short names: as it was
    assert _plot_px(panel["layout"]) >= PHONE_MIN_PLOT_PX
    assert panel["layout"]["height"] == max(560, panel["layout"]["margin"]["t"]
                                            + panel["layout"]["margin"]["b"] + PHONE_MIN_PLOT_PX)
    if not on_top:
        assert lay["legend"].get("orientation", "v") == "v" and lay["height"] == 880
        return
    assert panel["layout"]["height"] > 560
    # its basis functions' panel: a name longer than a phone's row on two lines, each
    # within the legend entry's width (it ran past the legend's box, cut at the screen)
    from mpcore.plots.text_size import text_lines as _lines
    from mpcore.plots.text_size import text_px as _text_px

    parts = one_panel(fig, "2", height=560)
    entry = parts["layout"]["legend"]["entrywidth"]
    shown = [t["name"] for t in parts["data"] if t.get("name") and t.get("visible", True)
             is True and t.get("showlegend") is not False]
    assert any("<br>" in n for n in shown), shown
    assert all(_text_px(line, 12) <= entry for n in shown for line in _lines(n)), shown
    n = sum(1 for t in fig["data"] if t.get("showlegend") is not False and t.get("name"))
    assert lay["legend"]["orientation"] == "h" and lay["legend"]["yref"] == "container"
    assert lay["legend"]["entrywidth"] == 1.0  # a row per entry: the names are long
    titles = [f["layout"]["title"]["text"] for f in fig["frames"]]
    assert any("<br>with polynomial" in t for t in titles)
    legend_top = (1 - lay["legend"]["y"]) * lay["height"]
    assert legend_top == pytest.approx(50 + 26)  # under the title's two lines
    assert lay["margin"]["t"] == pytest.approx(legend_top + 26 * n + 24)
    assert lay["height"] - 880 == lay["margin"]["t"] - ref["margin"]["t"]


@pytest.mark.parametrize("names, columns", [
    (["class 0 (f > 0 side)", "class 9, test", "newest basis point"], 2),
    (["class 1", "class 9223372036854775807, test"], 1), ([], 2)])
def test_surface_legend_columns(names, columns):
    from mpcore.plots._kmp_parts import surface_legend_columns
    assert surface_legend_columns(names) == columns


@pytest.fixture(scope="module")
def page_surface() -> dict:
    """The surface as the KMP page builds it: with test points, so 7 legend entries."""
    X, y = make_moons(80, noise=0.2, random_state=0)
    model = KMPClassifier(5, gamma=2.0).fit(X[:60], y[:60])
    xs, ys, pts = grid_2d(X, GRID)
    Z = staged_values(model, pts).reshape(-1, GRID, GRID)
    return kmp_surface_animation(X[:60], y[:60], Z, xs, ys, model.basis_indices_,
                                 model.basis_kernels_, classes=model.classes_, X_test=X[60:],
                                 y_test=y[60:]).to_plotly_json()


def _present_parts(fig):
    """Pixels: the plot area's height, the legend's rows, and where the colour bar, the
    buttons and the slider are (from the plot area's bottom, downwards positive)."""
    lay = fig["layout"]
    plot = _plot_px(lay)
    return dict(plot=plot, buttons=-lay["updatemenus"][0]["y"] * plot,
                slider=-lay["sliders"][0]["y"] * plot, bar=_surface(fig)["colorbar"])


#: Presentation heights: 1280 x 720 and 1920 x 1080 less what the page shows above the figure.
@pytest.mark.parametrize("height, least", [(505, 300), (865, 650)])
def test_presentation_gives_the_surface_the_height(page_surface, height, least):
    surface = page_surface
    out = kmp_present_layout(resized(surface, height))
    lay = out["layout"]
    parts = _present_parts(out)
    assert lay["height"] == height and parts["plot"] >= least, parts
    # the legend at the right of the plot area, the colour bar upright under it
    assert lay["legend"]["orientation"] == "v" and lay["legend"]["x"] > 1
    assert lay["legend"]["yref"] == "paper" and lay["legend"]["y"] == 1.0
    bar = parts["bar"]
    assert bar["orientation"] == "v" and bar["x"] == lay["legend"]["x"]
    assert bar["y"] == 0.0 and bar["yanchor"] == "bottom" and bar["lenmode"] == "pixels"
    rows = sum(1 for t in out["data"] if t.get("showlegend", True) is not False and t.get("name"))
    assert rows == 7
    assert rows * PRESENT_LEGEND_ROW_PX + bar["len"] <= parts["plot"]  # under it, not over it
    # Play/Pause beside the slider under the x axis, inside the bottom margin; no current
    # value over the slider (the page's counter shows the step)
    assert parts["buttons"] == pytest.approx(parts["slider"]) == pytest.approx(PRESENT_AXIS_PX)
    assert parts["slider"] + PRESENT_CONTROLS_PX <= lay["margin"]["b"]
    assert lay["sliders"][0]["currentvalue"]["visible"] is False
    assert lay["sliders"][0]["x"] >= 0.3 and lay["updatemenus"][0]["x"] == 0.0
    # the title pinned near the top edge; the frames (their titles) shared, the input unchanged
    assert lay["title"]["yref"] == "container" and lay["title"]["y"] > 0.95
    assert all(a is b for a, b in zip(out["frames"], surface["frames"]))
    assert surface["layout"]["legend"]["orientation"] == "h"
    assert _surface(surface)["colorbar"]["orientation"] == "h"


def test_presentation_on_a_short_screen_lays_the_colour_bar_flat(page_surface):
    """No room for the colour bar under the legend: flat under the x axis, then the controls."""
    out = kmp_present_layout(resized(page_surface, 400))
    parts = _present_parts(out)
    bar = parts["bar"]
    assert bar["orientation"] == "h" and bar["lenmode"] == "fraction"
    assert -bar["y"] * parts["plot"] == pytest.approx(PRESENT_AXIS_PX)
    assert parts["buttons"] == pytest.approx(PRESENT_AXIS_PX + PRESENT_FLAT_BAR_PX)
    assert parts["slider"] == pytest.approx(parts["buttons"])
    assert parts["slider"] + PRESENT_CONTROLS_PX <= out["layout"]["margin"]["b"]


def test_presentation_leaves_other_kmp_animations_alone():
    values = kmp_values_animation(np.random.default_rng(0).normal(size=(3, 12)),
                                  np.repeat([0, 1, 2], 4), classes=np.array([0, 1, 2]))
    fig = values.to_plotly_json()
    assert kmp_present_layout(fig) is fig
