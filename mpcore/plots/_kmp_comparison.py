"""Side-by-side KMP fits: the layout of Vincent & Bengio's Figures 6 and 7.

- :func:`kmp_comparison_figure`: decision surfaces (KMP fittings or losses
  against an SVM);
- :func:`kmp_fit_comparison_figure`: the same for 1-D regression fits.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ._common import FONT_SIZE, OKABE_ITO, PALETTE, base_layout, plain_text
from ._kmp_parts import (
    SURFACE,
    SYMBOLS,
    ZERO,
    _class_colour,
    _limit,
    _surface_scale,
)


#: From this many panels in a row, a panel title ("basic: 100 steps, 21 points") is broken
#: after its name: four one-line titles at a projector's width run into each other.
TITLE_BREAK_COLS = 3


def _titles(panels, cols) -> list[str]:
    """Panel titles, each on two lines (name, then numbers) when ``cols`` panels share a row."""
    titles = [str(p["title"]) for p in panels]
    if cols < TITLE_BREAK_COLS:
        return titles
    return [t.replace(": ", ":<br>", 1) for t in titles]


def _top_margin(cols) -> int:
    """Room above the panels for one title line, or two (:func:`_titles`)."""
    return 60 if cols < TITLE_BREAK_COLS else 85


def kmp_comparison_figure(X, y, xs, ys, panels, *, classes=None, positive=1, height=None,
                          cols=None):
    r"""Decision surfaces side by side, as in Vincent & Bengio's Figures 6 and 7.

    Parameters
    ----------
    X, y : arrays (m, 2), (m,)
        Training points and labels.
    xs, ys : arrays
        Grid coordinates.
    panels : list of dict
        Each with ``title`` (str), ``Z`` (array (len(ys), len(xs)): the decision
        function on the grid), ``support`` (training indices to circle: basis
        points or support vectors) and optionally ``boundary`` ((x, y) of the zero level).
        Colours are scaled per panel (only the sign and the level lines are comparable).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    classes = np.unique(y) if classes is None else np.asarray(classes)
    n = len(panels)
    if n == 0:
        raise ValueError("No panels to draw.")
    cols = cols or (2 if n == 4 else n)
    rows = int(np.ceil(n / cols))
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=_titles(panels, cols),
                        horizontal_spacing=0.06, vertical_spacing=0.1)
    neg_colour = _class_colour(0) if classes.size == 2 else "#777777"
    scale = _surface_scale(neg_colour, _class_colour(positive))
    for p_i, panel in enumerate(panels):
        r, c = p_i // cols + 1, p_i % cols + 1
        Z = np.asarray(panel["Z"], dtype=float)
        lim = _limit(Z[None])
        fig.add_trace(go.Contour(x=xs, y=ys, z=np.clip(Z / lim, -1, 1).astype(np.float32),
                                 zmin=-1, zmax=1, zauto=False, colorscale=scale, showscale=False,
                                 contours=dict(start=-1, end=1, size=0.25, coloring="heatmap"),
                                 line=dict(width=0.5, color="rgba(80,80,80,0.3)"),
                                 name=SURFACE, showlegend=False, hoverinfo="skip"), row=r, col=c)
        if panel.get("boundary") is not None:
            bx, by = panel["boundary"]
            fig.add_trace(go.Scatter(x=bx, y=by, mode="lines", name=ZERO, showlegend=p_i == 0,
                                     line=dict(color="black", width=3), hoverinfo="skip",
                                     legendgroup="zero"), row=r, col=c)
        for ci, label in enumerate(classes):
            sel = y == label
            fig.add_trace(go.Scatter(x=X[sel, 0], y=X[sel, 1], mode="markers", name=f"class {label}",
                                     marker=dict(size=7, color=_class_colour(ci),
                                                 symbol=SYMBOLS[ci % len(SYMBOLS)],
                                                 line=dict(width=0.7, color="#222")),
                                     legendgroup=f"class {label}", showlegend=p_i == 0,
                                     hoverinfo="skip"), row=r, col=c)
        sup = np.unique(np.asarray(panel.get("support", []), dtype=int))
        sup = sup[sup >= 0]
        fig.add_trace(go.Scatter(x=X[sup, 0], y=X[sup, 1], mode="markers",
                                 name="basis points / support vectors (circled)",
                                 marker=dict(size=17, color="rgba(0,0,0,0)",
                                             line=dict(color=OKABE_ITO["vermillion"], width=3)),
                                 legendgroup="sv", showlegend=p_i == 0,
                                 hovertemplate="i = %{customdata}<extra></extra>", customdata=sup),
                      row=r, col=c)
        fig.update_xaxes(range=[float(xs[0]), float(xs[-1])], showticklabels=False, row=r, col=c)
        # one unit as long on both axes (a circle of data is drawn round); the panel narrows
        # to the surface's shape
        x_id = "x" if p_i == 0 else f"x{p_i + 1}"
        fig.update_yaxes(range=[float(ys[0]), float(ys[-1])], showticklabels=False,
                         scaleanchor=x_id, scaleratio=1, constrain="domain", row=r, col=c)
        fig.update_xaxes(constrain="domain", row=r, col=c)
    base_layout(fig, height=height or (430 * rows + 120), legend_top=False)
    fig.update_layout(margin=dict(t=_top_margin(cols), b=90),
                      legend=dict(orientation="h", y=-0.04, x=0, yanchor="top"))
    fig.update_annotations(font_size=FONT_SIZE)
    return fig


def kmp_fit_comparison_figure(x, y, xs, panels, *, height=None, cols=None, x_label="x",
                              y_label="y"):
    r"""1-D regression fits side by side (the layout of Figure 6 for a regression problem).

    Parameters
    ----------
    x, y : arrays (m,)
        Training inputs (one feature) and targets.
    xs : array (g,)
        Evaluation points.
    panels : list of dict
        Each with ``title``, ``F`` (the fit at ``xs``) and ``support`` (training
        indices to circle: basis points or support vectors).
    x_label, y_label : str
        Axis titles (a data set's column names), shown literally and cut at
        ``LABEL_CHARS`` characters (:func:`plain_text`).
    """
    x, y, xs = (np.asarray(a, dtype=float) for a in (x, y, xs))
    n = len(panels)
    if n == 0:
        raise ValueError("No panels to draw.")
    cols = cols or (2 if n == 4 else n)
    rows = int(np.ceil(n / cols))
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=_titles(panels, cols),
                        horizontal_spacing=0.06, vertical_spacing=0.12, shared_yaxes=True)
    lo, hi = float(np.min(y)), float(np.max(y))
    pad = 0.15 * (hi - lo + 1e-12)
    for p_i, panel in enumerate(panels):
        r, c = p_i // cols + 1, p_i % cols + 1
        fig.add_trace(go.Scatter(x=x, y=y, mode="markers", name="training points",
                                 marker=dict(size=6, color=PALETTE[0]), legendgroup="data",
                                 showlegend=p_i == 0, hoverinfo="skip"), row=r, col=c)
        fig.add_trace(go.Scatter(x=xs, y=np.asarray(panel["F"], dtype=float), mode="lines",
                                 name="fit", line=dict(width=4, color=OKABE_ITO["orange"]),
                                 legendgroup="fit", showlegend=p_i == 0), row=r, col=c)
        sup = np.unique(np.asarray(panel.get("support", []), dtype=int))
        sup = sup[sup >= 0]
        fig.add_trace(go.Scatter(x=x[sup], y=y[sup], mode="markers",
                                 name="basis points / support vectors (circled)",
                                 marker=dict(size=14, color="rgba(0,0,0,0)",
                                             line=dict(color=OKABE_ITO["vermillion"], width=2.5)),
                                 legendgroup="sv", showlegend=p_i == 0, hoverinfo="skip"),
                      row=r, col=c)
        fig.update_yaxes(range=[lo - pad, hi + pad], row=r, col=c)
        fig.update_xaxes(range=[float(xs[0]), float(xs[-1])], row=r, col=c)
        if r == rows:
            fig.update_xaxes(title=plain_text(x_label), row=r, col=c)
        if c == 1:
            fig.update_yaxes(title=plain_text(y_label), row=r, col=c)
    base_layout(fig, height=height or (400 * rows + 140), legend_top=False)
    fig.update_layout(margin=dict(t=_top_margin(cols), b=110),
                      legend=dict(orientation="h", y=-0.1, x=0, yanchor="top"))
    fig.update_annotations(font_size=FONT_SIZE)
    return fig


# --------------------------------------------------------------------------------------
# Curves against the number of basis functions (Hussain & Shawe-Taylor, Figure 2)
# --------------------------------------------------------------------------------------
