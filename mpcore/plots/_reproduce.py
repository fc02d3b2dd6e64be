r"""Figures of the "reproduce the papers" report (:mod:`experiments`).

The curves of each paper's figures come from the topic modules
(:mod:`mpcore.plots._bounds`, :mod:`mpcore.plots._kmp`); this module adds what
a side-by-side comparison with the published numbers needs:

- :func:`mark_published`: a labelled vertical line at a published value of k;
- :func:`published_vs_ours_figure`: grouped bars, ours next to the paper's, one
  panel per quantity (Vincent & Bengio, Table 3);
- :func:`digit_errors_figure`: errors per digit, the paper's USPS rows next to
  ours (Vincent & Bengio, Table 1);
- :func:`sketch_errors_figure`: eigenvalue error and principal-subspace
  distance against the sketch size q (Marukatat, Algorithm 1);
- :func:`argmin_distribution_figure`: where curves are lowest over many random
  splits, with the published k (Hussain & Shawe-Taylor, Figure 2);
- :func:`sweep_heatmap_figure`: values over a grid of two unstated settings
  (Hussain & Shawe-Taylor, Figure 1 right);

A phone's layout of these figures is the app's (``pages/common/phone_grid.py``).
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ._common import FONT_SIZE, OKABE_ITO, PALETTE, base_layout, readable, title_top_y
from .text_size import text_lines, wrap

#: Bar colours: ours solid blue, the paper's hatched orange (Okabe-Ito).
OURS_COLOUR = OKABE_ITO["blue"]
PUBLISHED_COLOUR = OKABE_ITO["orange"]
#: Trace names (tests refer to them).
OURS = "ours"
PUBLISHED = "published"
SKETCH_STYLE = {"gaussian": (OKABE_ITO["blue"], "circle", "solid"),
                "countsketch": (OKABE_ITO["vermillion"], "diamond", "dash")}
SKETCH_LABEL = {"gaussian": "Gaussian random projection", "countsketch": "count sketch"}


def mark_published(fig, x, label, *, colour=OKABE_ITO["black"], position="top right",
                   row=None, col=None):
    """Draw a dotted vertical line at ``x`` with ``label`` (a published value of k).

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
    x : float
        Position on the x axis.
    label : str
        Text next to the line, e.g. ``"published k* = 43"``.
    colour : str
    position : str
        Where the label sits ("top right", "bottom left", ...), as in
        ``fig.add_vline(annotation_position=...)``.
    row, col : int, optional
        Subplot to draw in (all subplots when None).

    Returns
    -------
    fig : the same figure
    """
    kw = {} if row is None else dict(row=row, col=col)
    fig.add_vline(x=float(x), line=dict(color=colour, width=2.5, dash="dot"),
                  annotation_text=label, annotation_position=position,
                  annotation=dict(font=dict(size=FONT_SIZE - 1, color=readable(colour)),
                                  bgcolor="rgba(255,255,255,0.85)", bordercolor=colour,
                                  borderwidth=1), **kw)
    return fig


def published_vs_ours_figure(labels, panels, *, height=520, title=None):
    """Grouped bars: our value next to the published one, one panel per quantity.

    Parameters
    ----------
    labels : list of str
        The methods (x axis of every panel).
    panels : list of dict
        Each with ``title`` (str), ``ours`` (array, one value per label),
        optional ``ours_std`` (error bars), ``published`` (array; NaN where the
        paper gives nothing) and optional ``fmt`` (number format of the bar
        labels, default ``".3g"``).
    height : int
    title : str, optional

    Returns
    -------
    plotly.graph_objects.Figure
        Traces named ``OURS`` and ``PUBLISHED`` in every panel.
    """
    if not panels:
        raise ValueError("No panels to draw.")
    labels = [str(s) for s in labels]
    fig = make_subplots(rows=1, cols=len(panels), subplot_titles=[p["title"] for p in panels],
                        horizontal_spacing=0.1)
    for c, p in enumerate(panels, start=1):
        fmt = p.get("fmt", ".3g")
        ours = np.asarray(p["ours"], dtype=float)
        pub = np.asarray(p["published"], dtype=float)
        std = p.get("ours_std")
        fig.add_trace(go.Bar(
            x=labels, y=ours, name=OURS, marker_color=OURS_COLOUR, legendgroup=OURS,
            showlegend=c == 1, text=[format(v, fmt) for v in ours], textposition="inside",
            insidetextanchor="start", textfont=dict(size=FONT_SIZE - 1, color="white"),
            cliponaxis=False,
            error_y=None if std is None else dict(type="data", array=np.asarray(std, float),
                                                   color="#333", thickness=1.5),
            hovertemplate="%{x}<br>ours: %{y:" + fmt + "}<extra></extra>"), row=1, col=c)
        fig.add_trace(go.Bar(
            x=labels, y=np.where(np.isfinite(pub), pub, 0.0), name=PUBLISHED,
            marker=dict(color=PUBLISHED_COLOUR, pattern=dict(shape="/", fgcolor="#7a5200")),
            legendgroup=PUBLISHED, showlegend=c == 1,
            text=[format(v, fmt) if np.isfinite(v) else "n/a" for v in pub],
            textposition="inside", insidetextanchor="start",
            textfont=dict(size=FONT_SIZE - 1, color="black"), cliponaxis=False,
            hovertemplate="%{x}<br>published: %{y:" + fmt + "}<extra></extra>"), row=1, col=c)
        top = np.nanmax(np.concatenate([ours + (0 if std is None else np.asarray(std, float)),
                                        pub]))
        fig.update_yaxes(range=[0, 1.1 * float(top) if top > 0 else 1.0], row=1, col=c)
    base_layout(fig, height=height, title=title, legend_top=False)
    fig.update_layout(barmode="group", bargap=0.25)
    return _finish(fig)


def digit_errors_figure(classes, published, ours, *, published_title, ours_title, height=480):
    """Errors per class, the paper's rows (left panel) next to ours (right panel).

    Parameters
    ----------
    classes : sequence
        Class labels (x axis).
    published, ours : dict name -> array
        One series per method (e.g. "SVM", "KMP (same #sv)", "KMP (half #sv)"),
        one value per class. Series with the same name get the same colour.
    published_title, ours_title : str
        Panel titles (say which test set the counts are on).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    x = [str(c) for c in classes]
    names = list(dict.fromkeys(list(published) + list(ours)))
    colour = {n: PALETTE[i % len(PALETTE)] for i, n in enumerate(names)}
    fig = make_subplots(rows=1, cols=2, subplot_titles=(published_title, ours_title),
                        horizontal_spacing=0.08)
    for c, series in ((1, published), (2, ours)):
        for name, values in series.items():
            fig.add_trace(go.Bar(
                x=x, y=np.asarray(values, dtype=float), name=name, marker_color=colour[name],
                legendgroup=name, showlegend=c == 2 or name not in ours,
                hovertemplate="class %{x}<br>" + name + ": %{y:.0f} errors<extra></extra>"),
                row=1, col=c)
        fig.update_xaxes(title="class (one against the rest)", type="category", row=1, col=c)
    fig.update_yaxes(title="test errors", row=1, col=1)
    base_layout(fig, height=height, legend_top=False)
    fig.update_layout(barmode="group", bargap=0.2)
    return _finish(fig)


def sketch_errors_figure(q, eigenvalue_error, angle_degrees, *, n_eig, height=480):
    """Marukatat's EKM with a sketch: accuracy against the sketch size q.

    Parameters
    ----------
    q : array of int
        Sketch sizes.
    eigenvalue_error : dict sketch -> array
        Largest relative error over the top ``n_eig`` eigenvalues, per q
        (median over repeats).
    angle_degrees : dict sketch -> array
        Largest principal angle (degrees) between the approximate and exact
        top-``n_eig`` eigenvector spaces, per q.
    n_eig : int

    Returns
    -------
    plotly.graph_objects.Figure
        Two panels; traces named after ``SKETCH_LABEL``.
    """
    q = np.asarray(q, dtype=float)
    fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.1, subplot_titles=(
        f"max relative error, top {n_eig} eigenvalues",
        f"principal subspace distance, top {n_eig}"))
    for c, data, unit in ((1, eigenvalue_error, ""), (2, angle_degrees, "°")):
        for sketch, values in data.items():
            colour, symbol, dash = SKETCH_STYLE.get(sketch, ("#444", "circle", "solid"))
            fig.add_trace(go.Scatter(
                x=q, y=np.asarray(values, dtype=float), mode="lines+markers",
                name=SKETCH_LABEL.get(sketch, sketch), legendgroup=sketch, showlegend=c == 1,
                line=dict(color=colour, width=3.5, dash=dash),
                marker=dict(symbol=symbol, size=11, color=colour),
                hovertemplate="q = %{x}<br>%{y:.3g}" + unit + "<extra>" + sketch + "</extra>"),
                row=1, col=c)
        fig.update_xaxes(type="log", title="q (sketch size)", tickvals=q,
                         ticktext=[f"{v:g}" for v in q], row=1, col=c)
    fig.update_yaxes(type="log", title="relative error", row=1, col=1)
    fig.update_yaxes(title="largest principal angle (degrees)", rangemode="tozero", row=1, col=2)
    base_layout(fig, height=height, legend_top=False)
    return _finish(fig)


def _finish(fig):
    """Legend under the panels (clear of the subplot titles) and explicit font sizes."""
    fig.update_layout(legend=dict(orientation="h", x=0, y=-0.2, yanchor="top",
                                  font=dict(size=FONT_SIZE)),
                      margin=dict(t=60, b=130))
    fig.update_annotations(font_size=FONT_SIZE + 1)
    # explicit sizes: a host theme (Streamlit's) would otherwise shrink the axis text
    fig.update_xaxes(tickfont=dict(size=FONT_SIZE - 1), title_font=dict(size=FONT_SIZE))
    fig.update_yaxes(tickfont=dict(size=FONT_SIZE - 1), title_font=dict(size=FONT_SIZE))
    return fig


#: Characters of the argmin figure's panel titles, shared among its panels: three panels
#: take lines of 24 (at 1280 px a panel, with its share of the gaps, holds about 250 px of
#: an 18 px title).
ARGMIN_TITLE_CHARS = 72
#: Height (px) of a line of a panel's title.
_PANEL_TITLE_LINE_PX = 24


def argmin_distribution_figure(argmins, published, *, x_max=None, height=480, title=None):
    """Where each curve is lowest, over many random splits: one histogram per curve.

    Parameters
    ----------
    argmins : dict name -> array of int
        The k at which each curve is lowest, one value per split.
    published : int
        The paper's k, drawn as a dotted line in every panel.
    x_max : int, optional
        Right end of the x axes (default: the largest k).

    Returns
    -------
    plotly.graph_objects.Figure
        One bar trace per curve, named after it.
    """
    if not argmins:
        raise ValueError("No argmins to draw.")
    names = list(argmins)
    ks = {n: np.asarray(argmins[n], dtype=int) for n in names}
    top = int(x_max or max(int(v.max()) for v in ks.values() if v.size) or 1)
    # each panel's title in lines its panel holds at 1280 px (three titles of one line ran
    # into each other there), under the figure's title
    titles = [wrap(n, ARGMIN_TITLE_CHARS // len(names)) for n in names]
    lines = max(len(text_lines(t)) for t in titles)
    fig = make_subplots(rows=1, cols=len(names), subplot_titles=titles, horizontal_spacing=0.08,
                        shared_yaxes=True)
    for c, n in enumerate(names, start=1):
        counts = np.bincount(ks[n], minlength=top + 1)[1: top + 1]
        fig.add_trace(go.Bar(x=np.arange(1, top + 1), y=counts, name=n, showlegend=False,
                             marker_color=PALETTE[(c - 1) % len(PALETTE)],
                             hovertemplate="k = %{x}: %{y} splits<extra></extra>"),
                      row=1, col=c)
        fig.update_xaxes(title_text="k at the lowest point", range=[0.5, top + 0.5],
                         row=1, col=c)
        mark_published(fig, published, f"published {published}", row=1, col=c)
    fig.update_yaxes(title_text="splits", row=1, col=1)
    base_layout(fig, height=height, title=title, legend_top=False)
    fig.update_layout(bargap=0.1)
    # counts: whole numbers of splits on the axis, about six ticks (not "0.5 splits")
    most = max((int(np.bincount(v).max()) for v in ks.values() if v.size), default=1)
    fig.update_yaxes(rangemode="tozero", tick0=0, dtick=max(1, math.ceil(most / 6)))
    _finish(fig)
    if lines > 1:  # the panels' titles grow up from the plot areas: room above them
        top_px = 60 + _PANEL_TITLE_LINE_PX * (lines - 1) + (30 if title else 0)
        fig.update_layout(margin=dict(t=top_px))
        if title:
            fig.update_layout(title=dict(yref="container", yanchor="top",
                                         y=title_top_y(fig.layout.height)))
    return fig


def sweep_heatmap_figure(x, y, panels, *, x_title, y_title, height=480, title=None):
    """Heat maps over a two-setting grid, one panel per quantity, values written in.

    Parameters
    ----------
    x, y : sequences
        Grid values (columns and rows).
    panels : list of dict
        Each with ``title``, ``z`` (len(y) x len(x) array) and optional ``fmt``.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    if not panels:
        raise ValueError("No panels to draw.")
    xs, ys = [format(v, "g") for v in x], [format(v, "g") for v in y]
    fig = make_subplots(rows=1, cols=len(panels), subplot_titles=[p["title"] for p in panels],
                        horizontal_spacing=0.12)
    for c, p in enumerate(panels, start=1):
        z = np.asarray(p["z"], dtype=float)
        fmt = p.get("fmt", ".3g")
        text = [[format(v, fmt) if np.isfinite(v) else "" for v in row] for row in z]
        fig.add_trace(go.Heatmap(x=xs, y=ys, z=z, text=text, texttemplate="%{text}",
                                 colorscale="Cividis", showscale=False,
                                 textfont=dict(size=FONT_SIZE - 2),
                                 hovertemplate=f"{x_title} %{{x}}<br>{y_title} %{{y}}<br>"
                                               "%{text}<extra></extra>"), row=1, col=c)
        fig.update_xaxes(title_text=x_title, type="category", row=1, col=c)
        fig.update_yaxes(title_text=y_title if c == 1 else None, type="category", row=1, col=c)
    base_layout(fig, height=height, title=title, legend_top=False)
    return _finish(fig)
