"""The papers' figures laid out for a phone's width: their panels in a grid.

:func:`narrow_grid` works on any figure built with ``make_subplots`` (or a single plot),
as a ``go.Figure`` or a dict: the reproduce page's figures, KMP's comparison. Streamlit-free:
the page decides when a window is a phone's (:func:`pages.common.phone.phone_grid`).
"""

from __future__ import annotations

import math
import re

import numpy as np
import plotly.graph_objects as go

from mpcore.plots.text_size import (CHAR, LINE, PHONE_FIGURE_PX, axis_domain, axis_suffix,
                                    finite_number, legend_names, phone_legend, text_lines,
                                    text_px, wrap)

__all__ = ["narrow_grid"]

#: Font sizes (px) on a phone.
_PHONE_FONT = dict(panel=15, title=16, axis=14, tick=13, legend=13, label=13, cell=12)
#: Room (px) of one legend row.
_LEGEND_ROW = 24


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
    if rng and len(rng) == 2 and all(finite_number(v) for v in rng) and rng[0] != rng[1]:
        return float(rng[0]), float(rng[1])
    xs = []
    for t in data:
        if axis_suffix(t.get("xaxis")) == sfx and t.get("x") is not None:
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
        sx = axis_suffix(ref) if ref.startswith("x") else None
        if sx is None or ref.endswith("domain") or sx not in box_px or not finite_number(a.get("x")):
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
        w = text_px(a.get("text"), size) + pad
        a = dict(a)
        if a.get("showarrow", True) is not False and (a.get("axref") in (None, "pixel")):
            ax = float(a.get("ax", -10) if finite_number(a.get("ax", -10)) else -10)
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
        h = len(text_lines(a.get("text"))) * size * LINE + pad - 4
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
        key = (axis_suffix(t.get("xaxis")), axis_suffix(t.get("yaxis")))
        if key not in pairs:
            pairs.append(key)
    pairs = pairs or [("", "")]
    old = {p: (axis_domain(layout, "xaxis" + p[0]), axis_domain(layout, "yaxis" + p[1])) for p in pairs}
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
        if not (finite_number(x) and finite_number(y)):
            continue
        for p in order:
            (x0, x1), (y0, y1) = old[p]
            if x0 - 0.01 <= x <= x1 + 0.01 and y1 - 0.005 <= y <= y1 + 0.2 and p not in titles:
                titles[p] = i
                break
    title_chars = col_w / (font["panel"] * CHAR)
    axis_chars = col_w / (font["axis"] * CHAR)
    annotations = [dict(a) for a in layout.get("annotations") or []]
    above, below = {}, {}
    for p in order:
        if p in titles:
            a = annotations[titles[p]]
            a["text"] = wrap(a.get("text"), title_chars)
            a["font"] = dict(a.get("font") or {}, size=font["panel"])
            above[p] = len(text_lines(a["text"])) * font["panel"] * LINE + 10
        else:
            above[p] = 10
        xa = axis("xaxis" + p[0])
        if _title_of(xa):
            xa = _with_title(xa, wrap(_title_of(xa), axis_chars), font["axis"])
        layout["xaxis" + p[0]] = xa
        below[p] = ((font["tick"] * LINE + 12 if shows(xa) else 4)
                    + (len(text_lines(_title_of(xa))) * font["axis"] * LINE + 10
                       if _title_of(xa) and xa.get("visible", True) is not False else 0))

    # the figure's title, then the legend, in rows
    top_px = 0.0
    title = _title_of(layout)
    if title:
        title = wrap(title, (width - 20) / (font["title"] * CHAR))
        top_px = len(text_lines(title)) * font["title"] * LINE + 14
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
            if all(finite_number(u) and finite_number(v) for u, v in pts):
                px = box_of(*pts[0])
        elif xref == "paper" and str(yref).startswith("y"):
            px = by_y.get(axis_suffix(yref))
        elif yref == "paper" and str(xref).startswith("x"):
            px = by_x.get(axis_suffix(xref))
        if px is None:
            return obj
        obj = dict(obj)
        if xref == "paper":
            for k in xs:
                if finite_number(obj.get(k)):
                    obj[k] = move(obj[k], old[px][0], new[px][0])
        if yref == "paper":
            for k in ys:
                if finite_number(obj.get(k)):
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
