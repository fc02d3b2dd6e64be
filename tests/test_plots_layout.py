"""Where a figure's parts go when its size changes, without a browser (mpcore.plots).

- :func:`mpcore.plots.resized` (presentation mode fits an animation to the window): the
  Play/Pause buttons, the step slider and a colour bar under the plot area keep their
  distance in pixels from it; parts inside the plot area keep their place.
- A legend on top (``base_layout``) is placed in the figure's own coordinates, under the
  title, so a relayout to another width cannot leave it over the data.
- A phone's panel (:func:`mpcore.plots.one_panel`, :func:`mpcore.plots.narrow_layout`):
  colour bars lie flat under the plot area, then the buttons, then the slider, all inside
  the bottom margin, so the plot area keeps the whole width.

tests/test_browser_layout.py and tests/test_browser_present.py check the same in a browser.
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
    kmp_surface_animation,
    narrow_layout,
    one_panel,
    resized,
    scree_figure,
)
from mpcore.plots.geometry import grid_2d

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


def _contour(fig):
    return next(t for t in fig["data"] if t["type"] == "contour")


def _offsets(fig) -> dict:
    """Pixels below the plot area of the buttons', the slider's and the colour bar's tops."""
    lay, px = fig["layout"], _plot_px(fig["layout"])
    return {"buttons": -lay["updatemenus"][0]["y"] * px, "slider": -lay["sliders"][0]["y"] * px,
            "colour bar": -_contour(fig)["colorbar"]["y"] * px}


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
