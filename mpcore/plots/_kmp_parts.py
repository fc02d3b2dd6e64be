"""Names, colours and layout pieces shared by the kernel matching pursuit figures."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ._common import FONT_SIZE, OKABE_ITO, PALETTE, base_layout, play_controls

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
    return go.Scatter(
        x=[None], y=[None], mode="markers+text", name=name,
        marker=dict(size=size, color="rgba(0,0,0,0)", line=dict(color=colour, width=3.5)),
        textposition="top right", textfont=dict(size=FONT_SIZE, color="black", weight="bold"),
        hovertemplate="basis function #%{text}<extra>" + name + "</extra>",
        cliponaxis=False,
    )


def _step_title(j, k, basis, kernels, spec_labels, prefix=""):
    i, s = int(basis[j]), int(kernels[j])
    what = "the constant function (bias)" if i < 0 else f"x<sub>{i}</sub>"
    if i >= 0 and len(spec_labels) > 1:
        what += f" with {spec_labels[s]}"
    return f"{prefix}Step {j + 1} of {k}: added {what}"


def _play_controls(fig, k, start, frame_ms, *, y=-0.08, prefix="step j = "):
    """Play/Pause buttons and a step slider under the plot (client-side playback)."""
    play_controls(fig, k, start, frame_ms, y=y, slider_x=0.4, prefix=prefix)


def _animated_layout(fig, *, height, title, legend=True, colorbar=False):
    """Title on top, legend at the right, Play/Pause and the step slider at the bottom
    (under a horizontal colour bar when there is one)."""
    base_layout(fig, height=height, title=title, legend_top=False)
    bottom = 200 if colorbar else 140
    plot_px = height - 70 - bottom
    fig.update_layout(margin=dict(b=bottom, t=70, r=20),
                      legend=dict(orientation="v", x=1.02, xanchor="left", y=1.0, yanchor="top",
                                  itemsizing="constant"),
                      showlegend=legend)
    fig.layout.updatemenus[0].y = -(bottom - 65) / plot_px
    fig.layout.sliders[0].y = -(bottom - 65) / plot_px
    if colorbar:
        fig.update_traces(colorbar=dict(orientation="h", x=0.5, xanchor="center",
                                        y=-62 / plot_px, yanchor="top", len=0.7, thickness=14,
                                        nticks=7, tickformat=".2~g", tickangle=0,
                                        title=dict(text="f(x)", side="right")),
                          selector=dict(type="contour"))
    return fig


def _check_steps(k):
    if k == 0:
        raise ValueError("No steps to draw: the pursuit chose no basis function.")


# --------------------------------------------------------------------------------------
# 2-D decision surface, animated
# --------------------------------------------------------------------------------------
