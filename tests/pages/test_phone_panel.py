"""A phone shows one panel of an animated figure at a time (pages/common/phone.phone_panel,
pages/common/phone_panels.py)."""

from __future__ import annotations

import json

import datasets
import pytest
from apptest_util import assert_clean, chart_elements, chart_spec, open_app_page

from mpcore.plots import skpca_animation_dict
from pages.common.figure_frames import cut_animation
from pages.common.phone_panels import PHONE_MIN_PLOT_PX, narrow_layout, one_panel, panels
from views.data import KernelChoice
from views.skpca import skpca_steps, skpca_view


@pytest.fixture(scope="module")
def skpca_fig():
    d = datasets.load("moons", n_samples=60)
    kern = KernelChoice("rbf", sigma=1.0)
    steps = skpca_steps(d.X, kern, 6)
    v = skpca_view(d.X, d.y, kern, steps)
    return skpca_animation_dict(v["X2"], v["steps"], axis_labels=v["axis_labels"],
                                trace0=v["trace0"], curves=v["curves"], heatmaps=v["heat"],
                                heat_index=v["heat_index"])


def _axes(t):
    return (t.get("xaxis") or "x", t.get("yaxis") or "y")


def test_one_panel_keeps_only_that_panels_traces_on_the_whole_area(skpca_fig):
    assert panels(skpca_fig) == ["", "2", "3", "4"]
    for sfx in panels(skpca_fig):
        out = one_panel(skpca_fig, sfx, height=500)
        shown = [t for t in out["data"] if t.get("visible", True) is True]
        assert shown and all(_axes(t) == ("x" + sfx, "y" + sfx) for t in shown)
        assert out["layout"]["xaxis" + sfx]["domain"] == [0.0, 1.0]
        assert out["layout"]["yaxis" + sfx]["domain"] == [0.0, 1.0]
        # alone, its y tick labels on its left (the grid puts the right-hand panels' on
        # their right)
        assert out["layout"]["yaxis" + sfx].get("side", "left") == "left"
        assert len(out["layout"]["annotations"]) == 1  # its own title only
        assert 0.9 <= out["layout"]["annotations"][0]["y"] <= 1.1
        # the height asked for, or taller when it would leave the plot area less than
        # PHONE_MIN_PLOT_PX (500 px leaves a panel with a colour bar 154 px)
        margin = out["layout"]["margin"]
        assert out["layout"]["height"] == max(500, margin["t"] + margin["b"] + PHONE_MIN_PLOT_PX)
        # frames still address the same traces, so the panel keeps animating
        assert [f["traces"] for f in out["frames"]] == [f["traces"] for f in skpca_fig["frames"]]
        cut_animation(out, 6, 3)  # opens on any step


def test_narrow_layout_puts_the_legend_in_rows_and_the_slider_across(skpca_fig):
    out = narrow_layout(skpca_fig, height=600)
    assert out["layout"]["legend"]["orientation"] == "h"
    assert out["layout"]["sliders"][0]["x"] == 0.0 and out["layout"]["sliders"][0]["len"] == 1.0


@pytest.mark.slow
@pytest.mark.parametrize("page, panel, sfx", [("pages/skpca.py", "Quotients ρ", "2"),
                                              ("pages/kcca.py", "Correlation", "5")])
def test_a_phone_chooses_one_panel(page, panel, sfx):
    at = open_app_page(page, params={"n": 60, "kcca.n": 60}, state={"_window_width": 390})
    assert_clean(at)
    picker = next(r for r in at.segmented_control if r.label == "Panel")
    assert panel in list(picker.options)  # the labels shown
    picker.set_value(sfx).run()
    assert_clean(at)
    spec = chart_spec(chart_elements(at)[0])
    shown = {_axes(t) for t in spec["data"] if t.get("visible", True) is True}
    assert shown == {("x" + sfx, "y" + sfx)}


@pytest.mark.slow
def test_a_wide_window_has_no_panel_selector():
    at = open_app_page("pages/skpca.py", params={"n": 60})
    assert_clean(at)
    assert not [r for r in at.segmented_control if r.label == "Panel"]


def test_a_long_panel_title_takes_two_lines_on_a_phone():
    """A title wider than a phone's plot area (the KCCA quotient panel's) is broken after its
    name, in the figure and in every frame; a short one stays on one line."""
    from plotly.subplots import make_subplots

    long = "Quotient ρ<sub>i</sub> of every candidate at step 1: argmax i = 24"
    fig = make_subplots(rows=1, cols=2, subplot_titles=("View X", long))
    fig.add_scatter(x=[0, 1], y=[0, 1], row=1, col=1)
    fig.add_scatter(x=[0, 1], y=[1, 0], row=1, col=2)
    d = fig.to_plotly_json()
    d["frames"] = [dict(name="1", layout=dict(annotations=d["layout"]["annotations"]))]
    short = one_panel(d, "", height=500)
    assert [a["text"] for a in short["layout"]["annotations"]] == ["View X"]
    out = one_panel(d, "2", height=500)
    want = "Quotient ρ<sub>i</sub> of every candidate at step 1:<br>argmax i = 24"
    assert [a["text"] for a in out["layout"]["annotations"]] == [want]
    assert [a["text"] for a in out["frames"][0]["layout"]["annotations"]] == [want]
    assert [a["text"] for a in d["layout"]["annotations"]] == ["View X", long]  # input kept


def test_a_titled_panel_has_its_legend_under_the_title():
    """The KMP fit (1-D regression) has a figure title, "Step j of k: added x_i", and a
    legend on top: on a phone the legend sat at the top edge, over the title. The title is
    pinned at the top edge (on two lines when longer than a phone's line), the legend starts
    under its last line, and the top margin holds the legend's rows and the panel's own
    title (tests/browser/test_browser_layout.py checks the drawn boxes)."""
    from kmp_figures import fit_animation, regression_1d

    from pages.common.phone_panels import (_LEGEND_ROW_PX, _PANEL_LINE_PX, _TITLE_LINE_PX,
                                           _TITLE_TOP_PX)

    fig = fit_animation(*regression_1d()).to_plotly_json()
    for sfx, panel_lines in (("", 0), ("2", 2)):  # the lower panel's title takes two lines
        h = 560
        out = one_panel(fig, sfx, height=h)
        lay = out["layout"]
        title_px = (1 - lay["title"]["y"]) * h
        legend_px = (1 - lay["legend"]["y"]) * h
        assert (lay["title"]["yref"], lay["legend"]["yref"]) == ("container", "container")
        assert round(title_px) == _TITLE_TOP_PX
        lines = max(len(t.split("<br>")) for t in
                    [lay["title"]["text"]] + [f["layout"]["title"]["text"] for f in out["frames"]])
        assert legend_px >= title_px + lines * _TITLE_LINE_PX
        shown = [t for t in out["data"] if t.get("visible", True) is True
                 and t.get("showlegend", True) is not False]
        per_row = 2 if lay["legend"]["entrywidth"] < 150 else 1
        rows = -(-len(shown) // per_row)
        assert lay["margin"]["t"] >= legend_px + rows * _LEGEND_ROW_PX + panel_lines * _PANEL_LINE_PX
        notes = [a for a in lay["annotations"] if a.get("y", 0) >= 1 and a.get("text")]
        assert max((len(a["text"].split("<br>")) for a in notes), default=0) == panel_lines


def test_the_first_panel_picked_is_one_panel_not_the_whole_figure(skpca_fig):
    """The first panel's axis suffix is "": picking it shows that panel alone (the whole
    figure laid out narrow is a pick of its own)."""
    from pages.common.phone import WHOLE, phone_figure

    first = phone_figure(skpca_fig, "")
    assert first == one_panel(skpca_fig, "", height=560)
    assert first != narrow_layout(skpca_fig, height=560 + 260)
    assert phone_figure(skpca_fig, WHOLE) == narrow_layout(skpca_fig, height=560 + 260)
    assert phone_figure(skpca_fig, None) is skpca_fig


def test_a_figure_cut_at_its_first_step_keeps_no_room_for_the_hidden_slider(skpca_fig):
    """plotly.js draws no slider of fewer than two steps (a lesson's beat at its first step):
    the phone's panel then ends under its Play buttons, with no empty band where the slider
    would be; with two steps or more the slider has its room under the buttons."""
    no_slider = dict(skpca_fig, layout={k: v for k, v in skpca_fig["layout"].items()
                                        if k != "sliders"})
    bottom = {k: one_panel(cut_animation(skpca_fig, k, 1), "", height=560)["layout"]["margin"]["b"]
              for k in (1, 2, 6)}
    assert bottom[1] == one_panel(no_slider, "", height=560)["layout"]["margin"]["b"]
    assert bottom[2] == bottom[6] > bottom[1]
    hidden = dict(skpca_fig, layout=dict(skpca_fig["layout"], sliders=[
        dict(skpca_fig["layout"]["sliders"][0], visible=False)]))
    assert one_panel(hidden, "", height=560)["layout"]["margin"]["b"] == bottom[1]
