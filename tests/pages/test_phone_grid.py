"""The papers' figures laid out for a phone (pages/common/phone_grid.narrow_grid): the panels
of a row in a grid of at most ``columns`` columns, each wide, titles wrapped and clear of each
other; and the title wrapping they use (mpcore.plots.text_size.wrap)."""

from __future__ import annotations

import itertools

import numpy as np
import plotly.graph_objects as go
import pytest
from test_plot_ink import _texts

from mpcore._losses import loss_functions
from mpcore.plots import (
    argmin_distribution_figure,
    digit_errors_figure,
    kmp_comparison_figure,
    margin_loss_figure,
    mark_published,
    published_vs_ours_figure,
    sketch_errors_figure,
    sweep_heatmap_figure,
)
from mpcore.plots.text_size import PHONE_FIGURE_PX, legend_names
from mpcore.plots.text_size import wrap as _wrap
from pages.common.phone_grid import narrow_grid


def _surfaces(n=4):
    """Vincent & Bengio's Figure 6 as the report draws it: ``n`` decision surfaces in a row."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    y = (X[:, 0] > 0).astype(int)
    xs = ys = np.linspace(-3, 3, 25)
    Z = np.add.outer(ys, xs)
    names = ["basic", "back-fitting", "pre-fitting", "SVM (C = 1e+06)"]
    panels = [dict(title=f"{names[i % 4]}: {9 + i} steps, {9 + i} support vectors", Z=Z,
                   support=[0, 1, 2]) for i in range(n)]
    return kmp_comparison_figure(X, y, xs, ys, panels, cols=n, height=560)


REPORT_FIGURES = {
    "surfaces": _surfaces,
    "three surfaces": lambda: _surfaces(3),
    "argmins": lambda: argmin_distribution_figure(
        {"Theorem 3 bound: lowest at": [17, 18], "test error (mean squared): lowest at": [30],
         "test error (share |f − y| > α): lowest at": [20, 39]}, 17, x_max=40,
        title="Where the curves are lowest over 8 random 450/56 splits"),
    "sweep": lambda: sweep_heatmap_figure(
        [10, 30, 100, 200, 300, 500, 1000], [0.5, 1, 2],
        [dict(title=t, z=np.arange(21.0).reshape(3, 7)) for t in (
            "compression bound: k* (published 46)", "its minimum (published 0.7984)",
            "KPCA bound: k* (published 30)", "its minimum (published 1.84)")],
        x_title="variance ratio", y_title="width / median distance", height=520),
    "bars": lambda: published_vs_ours_figure(
        ["SVM", "KMP-mse", "KMP-tanh"],
        [dict(title="test error (%)", ours=[2.6, 2.5, 2.6], published=[3.4, 3.4, 3.5]),
         dict(title="support vectors / basis functions", ours=[90, 4.7, 2],
              published=[42, 7, 21])]),
    "digits": lambda: digit_errors_figure(
        range(10), {"SVM": np.arange(10)}, {"SVM": np.arange(10), "KMP (same #sv)": np.ones(10)},
        published_title="published: USPS, 2007 test patterns",
        ours_title="ours: 8 × 8 digits, 150 test points"),
    "sketch": lambda: sketch_errors_figure(
        [10, 20, 40], {"gaussian": [0.3, 0.2, 0.1], "countsketch": [0.2, 0.1, 0.05]},
        {"gaussian": [70, 40, 20], "countsketch": [50, 30, 10]}, n_eig=5),
    "losses": lambda: margin_loss_figure(loss_functions()),
}


def _panel_boxes(layout):
    """{x axis suffix: ((x0, x1), (y0, y1))} of every visible panel."""
    out = {}
    for key, ax in layout.items():
        if key.startswith("xaxis") and ax.get("visible", True) is not False:
            s = key[5:]
            ya = layout.get("yaxis" + (ax.get("anchor", "y")[1:] or ""), {})
            out[s] = (tuple(ax.get("domain", (0, 1))), tuple(ya.get("domain", (0, 1))))
    return out


def _title_boxes(layout, width=PHONE_FIGURE_PX):
    """Each panel title's box in paper coordinates of the plot area (estimated text size)."""
    m = layout["margin"]
    plot_w, plot_h = width - m["l"] - m["r"], layout["height"] - m["t"] - m["b"]
    boxes = []
    for a in layout.get("annotations", []):
        if a.get("xref") != "paper" or a.get("yref") != "paper":
            continue
        lines = a["text"].split("<br>")
        size = a["font"]["size"]
        w = max(len(line) for line in lines) * size * 0.56 / plot_w
        h = len(lines) * size * 1.3 / plot_h
        assert a.get("yanchor") == "bottom" and a.get("xanchor") == "center"
        boxes.append((a["text"], (a["x"] - w / 2, a["x"] + w / 2), (a["y"], a["y"] + h)))
    return boxes


def _overlap(a, b):
    return a[0] < b[1] - 1e-9 and b[0] < a[1] - 1e-9


@pytest.mark.parametrize("name", list(REPORT_FIGURES))
@pytest.mark.parametrize("columns", [1, 2])
def test_narrow_grid_lays_panels_out_for_a_phone(name, columns):
    fig = REPORT_FIGURES[name]()
    wide = fig.to_dict()
    narrow = narrow_grid(fig, columns=columns).to_dict()
    assert fig.to_dict() == wide  # the wide figure is left as it is
    layout = narrow["layout"]
    boxes = _panel_boxes(layout)
    assert len(boxes) == len(_panel_boxes(wide["layout"]))
    # at most ``columns`` panels side by side, each a fair share of the width
    assert len({round(x[0], 6) for x, _ in boxes.values()}) <= columns
    for (x0, x1), (y0, y1) in boxes.values():
        assert 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1
        # (two columns leave each a third or more: y tick labels and titles take room)
        assert x1 - x0 >= (0.8 if columns == 1 else 0.33)
        # and tall enough to read: at least 250 px of the figure's height
        assert (y1 - y0) * (layout["height"] - layout["margin"]["t"]
                            - layout["margin"]["b"]) >= 250
    for (s, a), (t, b) in itertools.combinations(boxes.items(), 2):
        assert not (_overlap(a[0], b[0]) and _overlap(a[1], b[1])), (s, t)
    # the panel titles cover neither each other nor a panel, and fit their column
    titles = _title_boxes(layout)
    assert len(titles) == len(boxes)
    for (s, a), (t, b) in itertools.combinations([(t, (x, y)) for t, x, y in titles], 2):
        assert not (_overlap(a[0], b[0]) and _overlap(a[1], b[1])), (s, t)
    for text, x, y in titles:
        assert -0.05 <= x[0] and x[1] <= 1.05, text
        for px, py in boxes.values():
            assert not (_overlap(x, px) and _overlap(y, py)), text
    # the figure grows with its rows; the legend lies in rows under the plot
    assert layout["height"] >= len(boxes) // columns * 250
    if legend_names(narrow["data"], layout):
        legend = layout["legend"]
        assert (legend["orientation"], legend["yref"], legend["y"], legend["yanchor"]) == (
            "h", "container", 0.0, "bottom")
    # every text keeps an explicit, readable colour
    texts = _texts(narrow)
    assert not [w for w, c in texts if c is None]


def test_narrow_grid_shows_shared_ticks_and_the_rows_y_title_in_every_row():
    fig = REPORT_FIGURES["argmins"]()
    assert fig.layout.yaxis2.showticklabels is False and not fig.layout.yaxis2.title.text
    layout = narrow_grid(fig, columns=1).to_dict()["layout"]
    for s in ("", "2", "3"):
        assert layout["yaxis" + s].get("showticklabels", True) is not False
        assert layout["yaxis" + s]["title"]["text"] == "splits"
    # two columns: the second column keeps the shared axis's labels hidden
    layout = narrow_grid(fig, columns=2).to_dict()["layout"]
    assert layout["yaxis2"]["showticklabels"] is False
    assert layout["yaxis3"].get("showticklabels", True) is not False
    # the figure's title is wrapped to the phone's width, at its top
    assert "<br>" in layout["title"]["text"] and layout["title"]["yref"] == "container"


def test_narrow_grid_wraps_the_four_surface_titles_to_one_line_each_when_they_fit():
    narrow = narrow_grid(_surfaces(), columns=1).to_dict()["layout"]
    texts = [a["text"] for a in narrow["annotations"]]
    # "name:<br>numbers" in a row of four; one line on a phone's full width when it fits
    assert texts[0] == "basic: 9 steps, 9 support vectors"
    assert all(len(line) <= 40 for t in texts for line in t.split("<br>"))


def test_narrow_grid_keeps_labels_on_screen():
    fig = go.Figure(go.Scatter(x=np.arange(1, 61), y=np.linspace(1, 0, 60)))
    fig.update_xaxes(range=[0.5, 60.5])
    mark_published(fig, 50, "published compression k* = 50", position="bottom right")
    mark_published(fig, 45, "published KPCA k* = 45", position="bottom left")
    fig.add_annotation(x=55, y=0.1, text="<b>k* = 55</b>, 0.1234", showarrow=True, ax=90, ay=40)
    layout = narrow_grid(fig).to_dict()["layout"]
    marks = [a for a in layout["annotations"] if a["text"].startswith("published")]
    # the label right of a line near the right edge moves to its left
    assert marks[0]["xanchor"] == "right"
    # two labels on the same edge, one above the other
    assert marks[0].get("yshift", 0) != marks[1].get("yshift", 0)
    arrow = next(a for a in layout["annotations"] if a["text"].startswith("<b>"))
    assert arrow["ax"] < 0  # its text left of the point
    assert layout["annotations"][0]["font"]["size"] <= 13


def test_narrow_grid_takes_a_dict_and_refuses_no_columns():
    d = REPORT_FIGURES["bars"]().to_dict()
    out = narrow_grid(d, columns=1)
    assert isinstance(out, dict) and out["layout"]["height"] > d["layout"]["height"]
    assert d["layout"]["xaxis2"]["domain"][0] > 0.3  # the given dict is left as it is
    with pytest.raises(ValueError):
        narrow_grid(d, columns=0)


@pytest.mark.parametrize("text, chars, expected", [
    ("short", 30, "short"),
    ("basic:<br>100 steps, 21 points", 40, "basic: 100 steps, 21 points"),
    ("k = number of basis vectors<br>(the size of the compression set)", 32,
     "k = number of basis vectors<br>(the size of the compression set)"),
    ("test error (mean squared): lowest at", 30, "test error (mean squared):<br>lowest at"),
    ("support vectors / basis functions", 20, "support vectors /<br>basis functions"),
    ("‖P<sub>k</sub>‖ of a long title", 10, "‖P<sub>k</sub>‖ of a long title"),  # markup
])
def test_wrap(text, chars, expected):
    assert _wrap(text, chars) == expected
