"""Names, colours and layout pieces shared by the kernel matching pursuit figures."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ._common import (
    FONT_SIZE,
    OKABE_ITO,
    PALETTE,
    base_layout,
    inked_colorbar,
    legend_on_top,
    play_controls_layout,
    styled_once,
)
from .text_size import LEGEND_SYMBOL, text_px

SURFACE = "decision value f(x)"
ZERO = "boundary f(x) = 0"
NEWEST = "newest basis point"
FIT = "KMP fit"
PARTS = "α K(x, xᵢ)"
CONSTANT = "constant (bias)"
TRAIN_ERR = "training error"
TEST_ERR = "test error"
VAL_ERR = "validation error"
BOUND = "Theorem 3 bound"
EXCEED = "test error (what the bound bounds)"
T_FRACTION = "training errors outside the basis, t/m"
TRIVIAL = "trivial level (bound = 1)"
#: Early-stopping markers of :func:`kmp_curves_figure`, coloured like the curve they come from.
VAL_STOP = "validation stop"
BOUND_STOP = "bound stop"
TEST_MIN = "lowest test error"
MARKER_COLOURS = {VAL_STOP: OKABE_ITO["green"], BOUND_STOP: OKABE_ITO["vermillion"],
                  TEST_MIN: OKABE_ITO["blue"]}

#: Colours of the rings, one per kernel specification of a mixed dictionary.
RING_COLOURS = [OKABE_ITO["vermillion"], OKABE_ITO["black"], OKABE_ITO["purple"], OKABE_ITO["green"]]
#: Marker symbols per class (filled for training points; "-open" for test points).
SYMBOLS = ("circle", "diamond", "square", "triangle-up", "cross", "star", "pentagon", "hexagon",
           "triangle-down", "x")
#: Most recent basis functions drawn under a 1-D fit (older ones are summed in the fit only).
MAX_PARTS = 40
#: Width of the highlighted loss in Figure 5.
HIGHLIGHT_WIDTH = 6


def _tint(hex_colour, amount):
    """Mix a colour with white: amount 0 -> white, 1 -> the colour."""
    h = hex_colour.lstrip("#")
    rgb = [int(h[i: i + 2], 16) for i in (0, 2, 4)]
    mixed = [round(255 - amount * (255 - c)) for c in rgb]
    return f"rgb({mixed[0]},{mixed[1]},{mixed[2]})"


def _class_colour(i):
    return PALETTE[i % len(PALETTE)]


def _surface_scale(neg, pos):
    """Diverging scale: the negative class' tint, white at 0, the positive class' tint."""
    return [[0.0, _tint(neg, 0.55)], [0.5, "rgb(255,255,255)"], [1.0, _tint(pos, 0.55)]]


def _limit(Z):
    """Colour limit shared by every frame: the 98th percentile of |f| at the last step."""
    a = np.abs(np.asarray(Z[-1], dtype=float))
    a = a[np.isfinite(a)]
    lim = float(np.quantile(a, 0.98)) if a.size else 1.0
    return lim if lim > 0 else 1.0


def _rings(X2, basis, kernels, j, n_specs):
    """Per kernel specification: x, y, labels and training indices of the points chosen
    at steps 1..j+1 (the indices become the rings' customdata, so a click on a ring
    names its point).

    A point chosen several times (basic matching pursuit) is ringed once and
    labelled "first step ×count".
    """
    out = []
    for s in range(n_specs):
        first, count = {}, {}
        for n in range(j + 1):
            i = int(basis[n])
            if i < 0 or int(kernels[n]) != s:
                continue
            first.setdefault(i, n + 1)
            count[i] = count.get(i, 0) + 1
        idx = np.array(list(first), dtype=int)
        labels = [str(first[i]) + (f"×{count[i]}" if count[i] > 1 else "") for i in first]
        out.append((X2[idx, 0] if idx.size else [None], X2[idx, 1] if idx.size else [None],
                    labels, idx if idx.size else [None]))
    return out


def _ring_trace(name, colour, size=24):
    return go.Scatter(_ring_dict(name, colour, size))


def _ring_dict(name, colour, size=24) -> dict:
    # the numbers in black: what mpcore.plots.ink leaves them (readable on white)
    return dict(
        type="scatter", x=[None], y=[None], mode="markers+text", name=name,
        marker=dict(size=size, color="rgba(0,0,0,0)", line=dict(color=colour, width=3.5)),
        textposition="top right", textfont=dict(size=FONT_SIZE, color="black", weight="bold"),
        hovertemplate="basis function #%{text}<extra>" + name + "</extra>",
        cliponaxis=False,
    )


#: Widest step title (px, at the title's font) the decision surface keeps on one line: the
#: figure in the narrowest column a desktop draws it in, less the title's offset from its
#: left edge; and the height (px) of a further line of it.
SURFACE_TITLE_PX = 540
SURFACE_TITLE_LINE_PX = 26


def _fitted_titles(titles, width=SURFACE_TITLE_PX) -> tuple[list, int]:
    """The step titles and their number of lines: as they are when each fits ``width``,
    else every one broken before its kernel ("... added x₅₁" / "with polynomial(gamma=0.5,
    degree=2, coef0=1)", a mixed dictionary's long kernel names), which plotly.js would
    otherwise cut at the figure's right edge."""
    if all(text_px(t, FONT_SIZE + 3) <= width for t in titles):
        return list(titles), 1
    broken = [t.replace(" with ", "<br>with ", 1) for t in titles]
    # one line still when no title names a kernel ("added the constant function (bias)")
    return broken, 2 if any("<br>" in t for t in broken) else 1


def _step_title(j, k, basis, kernels, spec_labels, prefix=""):
    i, s = int(basis[j]), int(kernels[j])
    what = "the constant function (bias)" if i < 0 else f"x<sub>{i}</sub>"
    if i >= 0 and len(spec_labels) > 1:
        what += f" with {spec_labels[s]}"
    return f"{prefix}Step {j + 1} of {k}: added {what}"


#: Decision surface (a colour bar): the legend on top in this many columns, each a fixed
#: fraction of the plot's width, so it takes the same number of rows at every width (the
#: top margin is reserved for them: a legend that wrapped onto more rows would make plotly
#: grow the margin, shrink the plot area, and move what lies under it, placed in fractions
#: of its height, up onto the x axis).
SURFACE_LEGEND_COLUMNS = 2
#: Width (px) of the decision surface's plot area in the narrowest column a desktop draws
#: it in (a 1280 px window with the sidebar open): a legend name wider than its share of it
#: (:func:`surface_legend_columns`) puts the legend in one column.
SURFACE_LEGEND_PLOT_PX = 500
#: Decision surface, in pixels: the legend's distance from the top edge (under the title),
#: the height of one of its rows, and the room left under it; from the plot area's bottom,
#: the x axis (tick labels and title) above the flat colour bar, then the colour bar (its
#: ticks under it) above the controls.
SURFACE_LEGEND_TOP_PX = 50
SURFACE_LEGEND_ROW_PX = 26
SURFACE_LEGEND_GAP_PX = 24
SURFACE_AXIS_PX = 62
SURFACE_BAR_PX = 70
#: Most legend rows the decision surface puts on top; a longer legend (many classes, each
#: with its test points) goes to the right of the plot area, one entry a row, where plotly
#: scrolls it, so the plot keeps its height whatever the number of classes.
SURFACE_MAX_TOP_ROWS = 8
#: Smallest plot area (px) of an animated KMP figure, between its margins.
MIN_PLOT_PX = 120


def _geometry(height, *, legend, colorbar, rows):
    """(top, bottom, plot area, controls' offset under it) in pixels."""
    # the slider (its current value, rail and step labels: 90 px) inside the bottom margin,
    # which plotly would otherwise grow (drawing the figure twice), moving up what lies
    # under the plot area
    bottom = SURFACE_AXIS_PX + SURFACE_BAR_PX + 104 if colorbar else 140
    top = 70
    if colorbar and legend:
        top = SURFACE_LEGEND_TOP_PX + SURFACE_LEGEND_ROW_PX * rows + SURFACE_LEGEND_GAP_PX
    controls = SURFACE_AXIS_PX + SURFACE_BAR_PX if colorbar else bottom - 65
    if height - top - bottom < MIN_PLOT_PX:
        raise ValueError(f"height={height} px leaves {height - top - bottom} px for the plot "
                         f"once the title, legend, colour bar and controls have their room: "
                         f"use height >= {top + bottom + MIN_PLOT_PX}.")
    return top, bottom, height - top - bottom, controls


def surface_legend_columns(names) -> int:
    """Columns of the decision surface's legend: :data:`SURFACE_LEGEND_COLUMNS`, or one when
    a name (a class of a 20-digit label from a CSV, "class -9223372036854775808, test") is
    wider than a column's share of :data:`SURFACE_LEGEND_PLOT_PX`: two such entries a row
    ran over each other, their ends cut by the legend's box."""
    share = SURFACE_LEGEND_PLOT_PX / SURFACE_LEGEND_COLUMNS - LEGEND_SYMBOL
    return SURFACE_LEGEND_COLUMNS if all(text_px(n, FONT_SIZE) <= share for n in names) else 1


def _animated_style(fig, *, height, title, legend=True, colorbar=False, rows=0,
                    columns=SURFACE_LEGEND_COLUMNS):
    """The styling of :func:`_animated_layout` without the controls (``rows``: legend rows
    above the plot, with a colour bar, in ``columns``; none: the legend at the right)."""
    base_layout(fig, height=height, title=title, legend_top=False)
    top, bottom, _, _ = _geometry(height, legend=legend, colorbar=colorbar, rows=rows)
    fig.update_layout(margin=dict(b=bottom, t=top, r=20), showlegend=legend,
                      legend=dict(itemsizing="constant"))
    if colorbar and rows:
        legend_on_top(fig, height=height, titled=True)
        fig.update_layout(legend=dict(entrywidth=1 / columns, entrywidthmode="fraction"))
    else:
        fig.update_layout(legend=dict(orientation="v", x=1.02, xanchor="left", y=1.0,
                                      yanchor="top"))
    return fig


def _animated_layout(fig, k, start, frame_ms, *, height, title, legend=True):
    """Title on top, Play/Pause and the step slider (``k`` steps, opened on ``start``,
    0-based) at the bottom, the legend at the right. (The decision surface, with its
    colour bar, is laid out by :func:`_surface_style` and :func:`_controls`.)"""
    _animated_style(fig, height=height, title=title, legend=legend)
    # the controls last, placed at once: plotly walks every step of the slider on each later
    # change of the layout, so setting the slider's y afterwards would cost a walk more
    return fig.update_layout(_controls(k, start, frame_ms, height=height, legend=legend))


def _controls(k, start, frame_ms, *, height, legend=True, colorbar=False, rows=0) -> dict:
    """Play/Pause and the step slider under the plot area, as layout keys. The slider's
    current value ("step j = 3") is at its right end, away from the buttons."""
    _, _, plot_px, controls = _geometry(height, legend=legend, colorbar=colorbar, rows=rows)
    return play_controls_layout(k, start, frame_ms, y=-controls / plot_px, slider_x=0.4)


@styled_once
def _surface_style(height: int, rows: int, columns: int = SURFACE_LEGEND_COLUMNS) -> dict:
    """The decision surface's layout before its data, styled once per height and number
    of legend rows and columns: the legend in rows on top (under the title, a placeholder here), the
    colour bar's room under the x axis. So the plot keeps the width of a narrow column (a
    1280 px window with the sidebar open: about 590 px for the figure). Presentation mode
    lays it out for a wide, short screen (:func:`mpcore.plots.kmp_present_layout`)."""
    fig = _animated_style(go.Figure(), height=height, title="step", colorbar=True, rows=rows,
                          columns=columns)
    return fig.layout.to_plotly_json()


def _surface_colorbar(height: int, rows: int) -> dict:
    """The surface's colour bar, flat under the x axis (inked as :func:`ink` does)."""
    _, _, plot_px, _ = _geometry(height, legend=True, colorbar=True, rows=rows)
    return inked_colorbar(orientation="h", x=0.5, xanchor="center", y=-SURFACE_AXIS_PX / plot_px,
                          yanchor="top", len=0.8, thickness=14, nticks=5, tickformat=".2~g",
                          tickangle=0, title=dict(text="f(x)", side="right"))


def _check_steps(k):
    if k == 0:
        raise ValueError("No steps to draw: the pursuit chose no basis function.")


# --------------------------------------------------------------------------------------
# 2-D decision surface, animated
# --------------------------------------------------------------------------------------
