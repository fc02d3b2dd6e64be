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
- :func:`narrow_grid`: any of these figures (or another one built with
  ``make_subplots``) laid out for a phone: its panels in a grid of ``columns`` columns,
  their titles wrapped, the legend in rows under the plot, labels kept on screen.
"""

from __future__ import annotations

import math
import re
import textwrap

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ._common import FONT_SIZE, OKABE_ITO, PALETTE, base_layout, readable, title_top_y
from ._panels import (_BREAK, _CHAR, _LINE, _TAG, PHONE_FIGURE_PX, _domain, _lines, _num,
                      _suffix, _text_px, legend_names, phone_legend)

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
    titles = [_wrap(n, ARGMIN_TITLE_CHARS // len(names)) for n in names]
    lines = max(len(_lines(t)) for t in titles)
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


# --------------------------------------------------------------------------------------
# A phone's layout of any of these figures
# --------------------------------------------------------------------------------------

#: Font sizes (px) on a phone.
_PHONE_FONT = dict(panel=15, title=16, axis=14, tick=13, legend=13, label=13, cell=12)
#: Room (px) of one legend row.
_LEGEND_ROW = 24


def _wrap(text, chars):
    """``text`` on lines of at most ``chars`` characters: on one line when it fits, else on
    the lines it has when they fit, else after its first ': ' when that gives two such
    lines (a name, then numbers), else at spaces. Text with other markup keeps its lines."""
    if not isinstance(text, str) or not text:
        return text
    flat = _BREAK.sub(" ", text)
    if _TAG.search(flat):
        return text
    chars = max(int(chars), 8)
    if len(flat) <= chars:
        return flat
    if flat != text and all(len(line) <= 1.1 * chars for line in _lines(text)):
        return text  # its own lines fit (the estimate errs wide)
    head, sep, tail = flat.partition(": ")
    if sep and len(head) < chars + 2 and len(tail) <= chars:  # the estimate errs wide
        return f"{head}:<br>{tail}"
    return "<br>".join(textwrap.wrap(flat, chars, break_long_words=False)) or flat


def _title_of(obj) -> str | None:
    t = (obj or {}).get("title")
    return t.get("text") if isinstance(t, dict) else t


def _with_title(obj: dict, text, size) -> dict:
    t = obj.get("title")
    t = dict(t) if isinstance(t, dict) else {}
    if text is not None:
        t["text"] = text
    t["font"] = dict(t.get("font") or {}, size=size)
    return dict(obj, title=t)


def _axis_range(layout, data, sfx):
    """(low, high) of the x axis ``'x' + sfx`` in its own units (log10 on a log axis), or
    None when it is not numeric."""
    axis = layout.get("xaxis" + sfx) or {}
    kind = axis.get("type")
    if kind in ("category", "multicategory", "date"):
        return None
    rng = axis.get("range")
    if rng and len(rng) == 2 and all(_num(v) for v in rng) and rng[0] != rng[1]:
        return float(rng[0]), float(rng[1])
    xs = []
    for t in data:
        if _suffix(t.get("xaxis")) == sfx and t.get("x") is not None:
            try:
                x = np.asarray(t["x"], dtype=float).ravel()
            except (TypeError, ValueError):
                return None
            xs.append(x[np.isfinite(x)])
    x = np.concatenate(xs) if xs else np.empty(0)
    if kind == "log":
        x = np.log10(x[x > 0])
    if x.size == 0 or x.min() == x.max():
        return None
    return float(x.min()), float(x.max())


def _keep_on_screen(layout, data, box_px, width):
    """Labels placed at a data x (a marked value, an arrow's text) that would run off the
    figure's edge are moved to the other side of their place (or pulled in), and labels
    side by side on one panel's edge that would cover each other are stacked."""
    placed = {}
    out = []
    for a in layout.get("annotations") or []:
        ref = str(a.get("xref", "x"))  # plotly's default: the first x axis
        sx = _suffix(ref) if ref.startswith("x") else None
        if sx is None or ref.endswith("domain") or sx not in box_px or not _num(a.get("x")):
            out.append(a)
            continue
        rng = _axis_range(layout, data, sx)
        if rng is None:
            out.append(a)
            continue
        x = float(a["x"])
        if (layout.get("xaxis" + sx) or {}).get("type") == "log":
            if x <= 0:
                out.append(a)
                continue
            x = math.log10(x)
        left, right = box_px[sx]
        px = left + (x - rng[0]) / (rng[1] - rng[0]) * (right - left)
        size = (a.get("font") or {}).get("size") or _PHONE_FONT["label"]
        pad = 2 * (a.get("borderpad", 1) + a.get("borderwidth", 1)) + 6
        w = _text_px(a.get("text"), size) + pad
        a = dict(a)
        if a.get("showarrow", True) is not False and (a.get("axref") in (None, "pixel")):
            ax = float(a.get("ax", -10) if _num(a.get("ax", -10)) else -10)
            if px + ax + w / 2 > width - 2 and px - ax - w / 2 >= 2:
                ax = -ax
            elif px + ax - w / 2 < 2 and px - ax + w / 2 <= width - 2:
                ax = -ax
            ax = min(max(ax, 2 + w / 2 - px), width - 2 - w / 2 - px)
            a["ax"] = ax
            out.append(a)
            continue
        anchor = a.get("xanchor", "auto")
        span = {"left": (px, px + w), "right": (px - w, px)}.get(anchor, (px - w / 2, px + w / 2))
        if span[1] > width - 2 and anchor == "left" and px - w >= 2:
            a["xanchor"], span = "right", (px - w, px)
        elif span[0] < 2 and anchor == "right" and px + w <= width - 2:
            a["xanchor"], span = "left", (px, px + w)
        shift = min(0.0, width - 2 - span[1]) or max(0.0, 2 - span[0])
        if shift:
            a["xshift"] = a.get("xshift", 0) + shift
            span = (span[0] + shift, span[1] + shift)
        # labels on the same edge of one panel: one above (or under) the other
        h = len(_lines(a.get("text"))) * size * _LINE + pad - 4
        key = (sx, a.get("yref"), a.get("y"), a.get("yanchor"))
        down = a.get("yanchor") == "top"
        shift_y = 0.0
        for lo, hi, y0, y1 in placed.get(key, []):
            if span[0] < hi and lo < span[1] and shift_y < y1 and y0 < shift_y + h:
                shift_y = y1 + 2
        placed.setdefault(key, []).append((span[0], span[1], shift_y, shift_y + h))
        if shift_y:
            a["yshift"] = a.get("yshift", 0) + (-shift_y if down else shift_y)
        out.append(a)
    layout["annotations"] = out


def narrow_grid(fig, *, columns=1, panel_height=300, width=PHONE_FIGURE_PX):
    """A figure laid out for a phone's width: its panels in a grid of ``columns`` columns.

    Works on any figure of this module (and on one built with ``make_subplots``, or a
    single plot): panels keep their order (row by row), each panel's title is wrapped
    to its column and sits above it, axis titles and tick labels follow their panel (a
    panel in the first column shows the shared y tick labels and the y title the first
    panel had for its row), the legend lies in rows under the plot (two entries a row when
    their names are short, else one), labels placed at a data value are kept on screen,
    and the figure grows to hold it all. Nothing is recomputed.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure or dict
    columns : int
        Panels side by side (1: one panel per row, as wide as the screen).
    panel_height : int
        Height (px) of each panel's plot area.
    width : int
        The figure's width on the phone (px) that text is measured against.

    Returns
    -------
    The same kind as ``fig`` (a new figure or dict).
    """
    if int(columns) < 1:
        raise ValueError("columns must be at least 1.")
    as_dict = isinstance(fig, dict)
    src = fig if as_dict else fig.to_dict()
    layout = dict(src.get("layout") or {})
    data = [dict(t) for t in src.get("data") or []]
    font = _PHONE_FONT

    pairs = []
    for t in data:
        key = (_suffix(t.get("xaxis")), _suffix(t.get("yaxis")))
        if key not in pairs:
            pairs.append(key)
    pairs = pairs or [("", "")]
    old = {p: (_domain(layout, "xaxis" + p[0]), _domain(layout, "yaxis" + p[1])) for p in pairs}
    order = sorted(pairs, key=lambda p: (-round(old[p][1][1], 3), round(old[p][0][0], 3)))
    cols = min(int(columns), len(order))
    grid = [order[i: i + cols] for i in range(0, len(order), cols)]
    first_col = {r[0] for r in grid}

    def axis(name):
        return dict(layout.get(name) or {})

    # the y tick labels a shared axis hid, and a row's one y title, in the new first column
    y_titled = [p for p in order if _title_of(layout.get("yaxis" + p[1]))]
    row_title = (layout.get("yaxis" + order[0][1]) or {}).get("title") \
        if y_titled == [order[0]] and len(order) > 1 else None
    for p in order:
        ya = axis("yaxis" + p[1])
        if p in first_col:
            if ya.get("matches") and ya.get("showticklabels") is False:
                ya["showticklabels"] = True
            if row_title is not None and not _title_of(ya):
                ya["title"] = dict(row_title) if isinstance(row_title, dict) else row_title
            ya["automargin"] = True
        layout["yaxis" + p[1]] = ya

    def shows(ax, what="showticklabels"):
        return ax.get(what, True) is not False and ax.get("visible", True) is not False

    def y_room(ps):
        ys = [layout["yaxis" + p[1]] for p in ps]
        ticks = any(shows(a) for a in ys)
        titled = any(_title_of(a) for a in ys)
        return (50 if ticks else 6) + (24 if titled else 0)

    left = max(y_room(first_col), 14)
    right = 14
    others = [p for p in order if p not in first_col]
    gap = max(y_room(others), 18) if others else 0
    plot_w = width - left - right
    col_w = (plot_w - (cols - 1) * gap) / cols

    # panel titles: the paper-referenced texts just above a panel
    titles = {}
    for i, a in enumerate(layout.get("annotations") or []):
        if a.get("xref", "x") != "paper" or a.get("yref", "y") != "paper" \
                or a.get("showarrow") is not False:
            continue
        x, y = a.get("x", 0.5), a.get("y", 0.5)
        if not (_num(x) and _num(y)):
            continue
        for p in order:
            (x0, x1), (y0, y1) = old[p]
            if x0 - 0.01 <= x <= x1 + 0.01 and y1 - 0.005 <= y <= y1 + 0.2 and p not in titles:
                titles[p] = i
                break
    title_chars = col_w / (font["panel"] * _CHAR)
    axis_chars = col_w / (font["axis"] * _CHAR)
    annotations = [dict(a) for a in layout.get("annotations") or []]
    above, below = {}, {}
    for p in order:
        if p in titles:
            a = annotations[titles[p]]
            a["text"] = _wrap(a.get("text"), title_chars)
            a["font"] = dict(a.get("font") or {}, size=font["panel"])
            above[p] = len(_lines(a["text"])) * font["panel"] * _LINE + 10
        else:
            above[p] = 10
        xa = axis("xaxis" + p[0])
        if _title_of(xa):
            xa = _with_title(xa, _wrap(_title_of(xa), axis_chars), font["axis"])
        layout["xaxis" + p[0]] = xa
        below[p] = ((font["tick"] * _LINE + 12 if shows(xa) else 4)
                    + (len(_lines(_title_of(xa))) * font["axis"] * _LINE + 10
                       if _title_of(xa) and xa.get("visible", True) is not False else 0))

    # the figure's title, then the legend, in rows
    top_px = 0.0
    title = _title_of(layout)
    if title:
        title = _wrap(title, (width - 20) / (font["title"] * _CHAR))
        top_px = len(_lines(title)) * font["title"] * _LINE + 14
    names = legend_names(data, layout)
    per_row, entry_px = phone_legend(names, font["legend"], width)
    legend_px = (math.ceil(len(names) / per_row) * _LEGEND_ROW + 10) if names else 0

    rows_above = [max(above[p] for p in r) for r in grid]
    rows_below = [max(below[p] for p in r) for r in grid]
    gaps = [rows_below[i] + rows_above[i + 1] for i in range(len(grid) - 1)]
    top = math.ceil(top_px + rows_above[0])
    bottom = math.ceil(rows_below[-1] + legend_px + 6)
    plot_h = len(grid) * panel_height + sum(gaps)
    height = int(top + plot_h + bottom)

    new = {}
    y = 0.0
    for i, r in enumerate(grid):
        y1, y0 = 1 - y / plot_h, 1 - (y + panel_height) / plot_h
        for j, p in enumerate(r):
            x0 = j * (col_w + gap) / plot_w
            new[p] = ((max(x0, 0.0), min(x0 + col_w / plot_w, 1.0)),
                      (max(y0, 0.0), min(y1, 1.0)))
        y += panel_height + (gaps[i] if i < len(gaps) else 0)
    used = {"xaxis" + p[0] for p in order} | {"yaxis" + p[1] for p in order}
    for key in list(layout):
        if re.fullmatch(r"[xy]axis\d*", key) and key not in used:
            layout[key] = dict(layout[key] or {}, visible=False)
    for p in order:
        (x0, x1), (y0, y1) = new[p]
        for name, dom in (("xaxis" + p[0], [x0, x1]), ("yaxis" + p[1], [y0, y1])):
            ax = _with_title(axis(name), None, font["axis"])
            ax["domain"] = dom
            ax["tickfont"] = dict(ax.get("tickfont") or {}, size=font["tick"])
            layout[name] = ax

    def box_of(x, y):
        for p in order:
            (x0, x1), (y0, y1) = old[p]
            if x0 - 0.02 <= x <= x1 + 0.02 and y0 - 0.02 <= y <= y1 + 0.02:
                return p
        return None

    def move(v, a, b):
        return b[0] + (v - a[0]) / ((a[1] - a[0]) or 1.0) * (b[1] - b[0])

    by_x = {p[0]: p for p in order}
    by_y = {p[1]: p for p in order}

    def moved(obj, xs, ys):
        """A paper-referenced annotation or shape, moved with its panel."""
        xref, yref = obj.get("xref", "x"), obj.get("yref", "y")  # plotly's defaults
        px = None
        if xref == "paper" and yref == "paper":
            pts = [(obj.get(kx), obj.get(ky)) for kx, ky in zip(xs, ys)]
            if all(_num(u) and _num(v) for u, v in pts):
                px = box_of(*pts[0])
        elif xref == "paper" and str(yref).startswith("y"):
            px = by_y.get(_suffix(yref))
        elif yref == "paper" and str(xref).startswith("x"):
            px = by_x.get(_suffix(xref))
        if px is None:
            return obj
        obj = dict(obj)
        if xref == "paper":
            for k in xs:
                if _num(obj.get(k)):
                    obj[k] = move(obj[k], old[px][0], new[px][0])
        if yref == "paper":
            for k in ys:
                if _num(obj.get(k)):
                    obj[k] = move(obj[k], old[px][1], new[px][1])
        return obj

    for i, a in enumerate(annotations):
        a = moved(a, ("x",), ("y",))
        if i not in titles.values():
            a["font"] = dict(a.get("font") or {},
                             size=min((a.get("font") or {}).get("size") or 99, font["label"]))
        annotations[i] = a
    layout["annotations"] = annotations
    if layout.get("shapes"):
        layout["shapes"] = [moved(dict(s), ("x0", "x1"), ("y0", "y1")) for s in layout["shapes"]]

    for t in data:
        if t.get("type") in ("heatmap", "bar") and isinstance(t.get("textfont"), dict):
            t["textfont"] = dict(t["textfont"], size=min(t["textfont"].get("size") or 99,
                                                         font["cell"]))

    if title:
        t = layout.get("title")
        t = dict(t) if isinstance(t, dict) else {}
        layout["title"] = dict(t, text=title, font=dict(t.get("font") or {}, size=font["title"]),
                               x=0.02, xanchor="left", xref="container",
                               # plotly places a title's first line at y (the others under
                               # it, whatever the anchor): its bottom, about 12 px down
                               y=1 - (10 + font["title"]) / height, yanchor="bottom",
                               yref="container")
    if names:
        old_legend = layout.get("legend") or {}
        layout["legend"] = dict(old_legend, orientation="h", x=0.0, xanchor="left",
                                xref="container", y=0.0, yanchor="bottom", yref="container",
                                entrywidth=entry_px, entrywidthmode="pixels",
                                font=dict(old_legend.get("font") or {}, size=font["legend"]))
    layout["height"] = height
    layout["margin"] = dict(layout.get("margin") or {}, l=left, r=right, t=top, b=bottom)
    box_px = {p[0]: (left + new[p][0][0] * plot_w, left + new[p][0][1] * plot_w) for p in order}
    _keep_on_screen(layout, data, box_px, width)
    out = dict(src, data=data, layout=layout)
    return out if as_dict else go.Figure(out)
