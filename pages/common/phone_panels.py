"""One panel of a subplot figure, full size: what a phone shows of a 2 x 2 animation.

:func:`one_panel` works on the plotly dict of any figure built with
``make_subplots`` (animated or not): the chosen subplot's axes take the whole
plotting area, every other subplot's traces, axes, titles and shapes are hidden,
and the frames keep animating the panel that is left (frames address traces by
index, and a hidden trace stays hidden). Nothing is recomputed. :func:`narrow_layout`
keeps every panel and lays the controls, colour bars and legend out for a phone's width.
Streamlit-free: the page decides when a window is a phone's (:mod:`pages.common.phone`).
"""

from __future__ import annotations

import re

from mpcore.plots import FONT_SIZE, title_top_y
from mpcore.plots.text_size import (LEGEND_HALF, LEGEND_SYMBOL, PHONE_FIGURE_PX, axis_domain,
                                    axis_suffix, finite_number, frames_retitled, halved,
                                    legend_names, phone_legend, text_lines, text_px, wrapped)

__all__ = ["panels", "one_panel", "narrow_layout", "PHONE_MIN_PLOT_PX"]

_AXIS = re.compile(r"^([xy])axis(\d*)$")

# A phone's figure, from its plot area down, in pixels: the x axis (tick labels and title),
# a horizontal colour bar (an upright one at the right would take a third of the width),
# the Play/Pause buttons, then the step slider across the whole width.
_AXIS_PX = 62
_BAR_PX = 78
_BUTTONS_PX = 46
_SLIDER_PX = 92
#: Room (px) for one row of a legend at a phone's font size.
_LEGEND_ROW_PX = 22
#: From the top edge of a phone's figure (px): a legend on top; a figure's title, and a
#: legend under that title.
_LEGEND_TOP_PX = 8
_TITLE_TOP_PX = 12
#: Height (px) of a line of a figure's title (20 px font) and of a panel's title (17 px), and
#: the font size of a phone panel's legend.
_TITLE_LINE_PX = 26
_PANEL_LINE_PX = 22
_PHONE_LEGEND_FONT = 12
_NARROW_MARGIN = dict(l=55, r=10)

#: Least height (px) of a phone panel's plot area: a figure whose title, legend and controls
#: leave it less (a mixed dictionary's 1-D fit: 112 px of 560) is made taller.
PHONE_MIN_PLOT_PX = 200


def _title_y(title: dict, height: int, lines: int) -> float:
    """A phone figure's title ``title.y``: its first line :data:`_TITLE_TOP_PX` under the top
    edge, whether it (or a frame's title) takes one line or several (see
    :func:`mpcore.plots.title_top_y`)."""
    size = (title.get("font") or {}).get("size") or FONT_SIZE + 3
    return title_top_y(height, _TITLE_TOP_PX, multiline=lines > 1, font_size=size)


def _colour_bar_shown(t: dict) -> bool:
    """Whether a trace draws a colour bar (a scatter's marker bar shows when it has one)."""
    if t.get("visible", True) is not True:
        return False
    if isinstance(t.get("colorbar"), dict) and t.get("showscale", True) is not False:
        return True
    m = t.get("marker")
    return (isinstance(m, dict) and isinstance(m.get("colorbar"), dict)
            and m.get("showscale", True) is not False)


def _bar_below(cb: dict, y: float) -> dict:
    """A colour bar laid flat under the plot area (its top ``y`` in paper units)."""
    title = dict(cb.get("title") or {}, side="top")  # above the bar, which keeps its length
    return dict(cb, orientation="h", x=0.0, xanchor="left", xref="paper", y=y, yanchor="top",
                yref="paper", len=0.9, lenmode="fraction", thickness=12, nticks=5, tickangle=0,
                title=title)


def _slider_shown(layout: dict) -> bool:
    """Whether plotly.js draws a step slider: it hides one with fewer than two visible steps
    (a figure cut at its first step), and no room is kept for it then."""
    return any(isinstance(sl, dict) and sl.get("visible", True) is not False
               and sum(isinstance(step, dict) and step.get("visible", True) is not False
                       for step in sl.get("steps") or []) >= 2
               for sl in layout.get("sliders") or [])


def _stack_below(data: list, layout: dict, *, height: int, top: int, extra: int = 0):
    """Colour bars, Play/Pause buttons and the step slider under the plot area, each at a
    fixed pixel distance from it (see the constants above), whatever the figure's height.

    ``top``: the top margin; ``extra``: pixels kept free at the bottom (a legend). Returns
    the traces and the layout, with the bottom margin they need.
    """
    bar = any(_colour_bar_shown(t) for t in data) or any(
        re.fullmatch(r"coloraxis\d*", k) and isinstance(v, dict) and v.get("showscale", True)
        is not False and isinstance(v.get("colorbar"), dict) for k, v in layout.items())
    slider = _slider_shown(layout)
    controls = bool(layout.get("updatemenus")) + slider
    bottom = (_AXIS_PX + _BAR_PX * bar + _BUTTONS_PX * bool(layout.get("updatemenus"))
              + _SLIDER_PX * slider + extra + 8 * bool(controls))
    plot = max(height - top - bottom, 120)

    def frac(px):
        return -px / plot

    y_bar = frac(_AXIS_PX)
    y_buttons = frac(_AXIS_PX + _BAR_PX * bar)
    y_slider = frac(_AXIS_PX + _BAR_PX * bar + _BUTTONS_PX * bool(layout.get("updatemenus")))
    out = []
    for t in data:
        if isinstance(t.get("colorbar"), dict):
            t = dict(t, colorbar=_bar_below(t["colorbar"], y_bar))
        m = t.get("marker")
        if isinstance(m, dict) and isinstance(m.get("colorbar"), dict):
            t = dict(t, marker=dict(m, colorbar=_bar_below(m["colorbar"], y_bar)))
        out.append(t)
    layout = dict(layout)
    for key, val in list(layout.items()):
        if re.fullmatch(r"coloraxis\d*", key) and isinstance(val, dict) and isinstance(
                val.get("colorbar"), dict):
            layout[key] = dict(val, colorbar=_bar_below(val["colorbar"], y_bar))
    if layout.get("updatemenus"):
        layout["updatemenus"] = [dict(um, x=0.0, xanchor="left", y=y_buttons, yanchor="top",
                                      yref="paper") for um in layout["updatemenus"]]
    if layout.get("sliders"):
        layout["sliders"] = [dict(sl, x=0.0, len=1.0, y=y_slider, yanchor="top", yref="paper")
                             for sl in layout["sliders"]]
    layout["margin"] = dict(layout.get("margin") or {}, **_NARROW_MARGIN, t=top, b=bottom)
    return out, layout


def panels(fig: dict) -> list[str]:
    """Axis suffixes ('', '2', ...) of the subplots that hold at least one visible trace,
    in plotly's order (row by row)."""
    seen = []
    for t in fig.get("data", []):
        if t.get("visible", True) is False:
            continue
        sx, sy = axis_suffix(t.get("xaxis")), axis_suffix(t.get("yaxis"))
        if (sx, sy) not in seen:
            seen.append((sx, sy))
    return [sx for sx, _ in sorted(seen, key=lambda s: int(s[0] or 1))]


def _in_box(a: dict, box) -> bool:
    (x0, x1), (y0, y1) = box
    x, y = a.get("x", 0.5), a.get("y", 0.5)
    if not isinstance(x, (int, float)) or not isinstance(y, (int, float)):
        return False
    return x0 - 0.02 <= x <= x1 + 0.02 and y0 - 0.02 <= y <= y1 + 0.12


def _annotations(items, sfx: str, box) -> list:
    """The panel's own annotations: axis-referenced ones on it, paper ones inside its box
    (moved to the same place of the full area; its title, above the box, on two lines when
    one would be wider than a phone)."""
    (x0, x1), (y0, y1) = box
    keep = []
    for a in items or []:
        xref, yref = a.get("xref", "paper"), a.get("yref", "paper")
        if xref == "paper" and yref == "paper":
            if _in_box(a, box):
                moved = dict(a, x=(a.get("x", 0.5) - x0) / ((x1 - x0) or 1.0),
                             y=(a.get("y", 0.5) - y0) / ((y1 - y0) or 1.0))
                if moved["y"] >= 1.0 and "text" in moved:
                    moved["text"] = wrapped(moved["text"])
                keep.append(moved)
        elif axis_suffix(xref) == sfx or axis_suffix(yref) == sfx:
            keep.append(a)
    return keep


#: What a trace of another panel keeps on a phone: its kind and its place (a selection and the
#: frames name a trace by its index), none of its data, which the phone never draws (a
#: hall's followers are sent a beat's chart at once after each move).
_STUB = ("type", "xaxis", "yaxis", "uid", "name", "legendgroup")


def _stub(t: dict) -> dict:
    return {**{k: t[k] for k in _STUB if k in t}, "visible": False}


def _frame_data(f: dict, hidden: set) -> dict:
    """Frame ``f`` without the data of the traces in ``hidden`` (their indices)."""
    data = f.get("data")
    if not hidden or not isinstance(data, list):
        return f
    idx = f.get("traces")
    idx = list(idx) if isinstance(idx, (list, tuple)) else list(range(len(data)))
    return dict(f, data=[{"visible": False} if i in hidden else d for i, d in zip(idx, data)])


def one_panel(fig: dict, sfx: str, *, height: int | None = None) -> dict:
    """Only the subplot whose x axis is ``'x' + sfx``, on the whole plotting area.

    Parameters
    ----------
    fig : dict
        A plotly figure dict (``data``, ``layout``, optional ``frames``).
    sfx : str
        The panel's axis suffix, as :func:`panels` lists them.
    height : int, optional
        New figure height in pixels; taller when what lies above and under the plot area
        would leave it less than :data:`PHONE_MIN_PLOT_PX`.
    """
    layout = dict(fig.get("layout", {}))
    xa, ya = "xaxis" + sfx, "yaxis" + sfx
    data = []
    ysfx = sfx
    for t in fig.get("data", []):
        if axis_suffix(t.get("xaxis")) == sfx:
            ysfx = axis_suffix(t.get("yaxis"))
            break
    ya = "yaxis" + ysfx
    box = (axis_domain(layout, xa), axis_domain(layout, ya))
    shown_legend = False
    hidden = set()
    for i, t in enumerate(fig.get("data", [])):
        mine = axis_suffix(t.get("xaxis")) == sfx and axis_suffix(t.get("yaxis")) == ysfx
        if not mine:
            data.append(_stub(t))
            hidden.add(i)
            continue
        shown_legend |= t.get("showlegend", True) is not False and t.get("visible", True) is True
        data.append(dict(t))
    used = {(t.get("marker") or {}).get("coloraxis") for t in data if t.get("visible", True) is True}
    used |= {t.get("coloraxis") for t in data if t.get("visible", True) is True}
    for key in list(layout):
        if re.fullmatch(r"coloraxis\d*", key) and isinstance(layout[key], dict):
            if key in used:
                layout[key] = dict(layout[key], colorbar=dict(layout[key].get("colorbar") or {}))
            else:
                layout[key] = dict(layout[key], showscale=False)
    for key in list(layout):
        m = _AXIS.match(key)
        if not m:
            continue
        if key in (xa, ya):
            # alone, a panel has its y tick labels on its left, where they are looked for (a
            # grid may put them on the right, to leave its colour bars room between columns)
            side = {"side": "left"} if key == ya and layout[key].get("side") == "right" else {}
            layout[key] = dict(layout[key], domain=[0.0, 1.0], **side)
        else:
            layout[key] = dict(layout[key], visible=False, domain=[0.0, 0.01])
    layout["annotations"] = _annotations(layout.get("annotations"), sfx, box)
    layout["shapes"] = [s for s in layout.get("shapes") or []
                        if axis_suffix(s.get("xref")) == sfx or axis_suffix(s.get("yref")) == sfx]
    layout["images"] = [s for s in layout.get("images") or []
                        if axis_suffix(s.get("xref")) == sfx]
    if height is not None:
        layout["height"] = int(height)
    frames, frame_titles = [], []
    for f in fig.get("frames", []) or []:
        f = _frame_data(f, hidden)
        fl = f.get("layout")
        if isinstance(fl, dict) and "annotations" in fl:
            fl = dict(fl, annotations=_annotations(fl["annotations"], sfx, box))
        if isinstance(fl, dict) and isinstance(fl.get("title"), dict) and "text" in fl["title"]:
            fl = dict(fl, title=dict(fl["title"], text=wrapped(fl["title"]["text"])))
            frame_titles.append(fl["title"]["text"])
        if fl is not f.get("layout"):
            f = dict(f, layout=fl)
        frames.append(f)
    h = int(layout.get("height") or 450)
    # above the plot area, from the top edge down: the figure's title (the KMP fit's "Step 1
    # of 5: added x₃₇", on two lines when wider than a phone), the legend (two short names a
    # row, else one), then the panel's own title; each below the one before
    title = layout.get("title")
    titled = bool(title.get("text") if isinstance(title, dict) else title)
    title_lines = 0
    if titled:
        title = dict(title if isinstance(title, dict) else dict(text=title))
        title["text"] = wrapped(title["text"])
        title_lines = max(len(text_lines(t)) for t in [title["text"], *frame_titles])
        layout["title"] = dict(title, yref="container", yanchor="top",
                               y=_title_y(title, h, title_lines))
    below_title = _TITLE_TOP_PX + title_lines * _TITLE_LINE_PX + 8 if titled else 0
    panel_title_px = max([len(text_lines(a.get("text"))) * _PANEL_LINE_PX + 6
                          for a in layout["annotations"]
                          if a.get("yref", "paper") == "paper" and finite_number(a.get("y"))
                          and a["y"] >= 1.0 and a.get("text")], default=0)
    top = max(60, below_title + panel_title_px + 16)
    if shown_legend:  # on top, in the figure's own coordinates (see _common.legend_on_top)
        legend_top = below_title or _LEGEND_TOP_PX
        names = legend_names(data, layout)
        per_row, entry_px = phone_legend(names, _PHONE_LEGEND_FONT)
        # a name longer than a whole row ("α K(x, xᵢ): polynomial(gamma=1, degree=2,
        # coef0=1)") on two lines, at the space nearest its middle: a row more each
        long = {n for n in names if text_px(n, _PHONE_LEGEND_FONT) > entry_px}
        if long:
            data = [dict(t, name=halved(t["name"])) if t.get("name") in long else t
                    for t in data]
        layout["legend"] = dict(layout.get("legend") or {}, orientation="h", x=0.0,
                                xanchor="left", xref="paper", yref="container",
                                y=1 - legend_top / h, yanchor="top",
                                entrywidth=entry_px, entrywidthmode="pixels",
                                font=dict((layout.get("legend") or {}).get("font") or {},
                                          size=_PHONE_LEGEND_FONT))
        rows = -(-len(names) // per_row) + len(long)
        top = max(110, legend_top + _LEGEND_ROW_PX * rows + 10 + panel_title_px)
    else:
        layout["showlegend"] = False
    # the colour bar flat under the plot area, then the buttons and the slider: the panel
    # keeps the whole width of the screen
    data, layout = _stack_below(data, layout, height=h, top=top)
    short = PHONE_MIN_PLOT_PX - (h - top - layout["margin"]["b"])
    if short > 0:  # a long title and legend above it: the figure taller, not the plot lower
        return one_panel(fig, sfx, height=h + short)
    out = dict(fig, data=data, layout=layout)
    if "frames" in fig:
        out["frames"] = frames
    return out


def narrow_layout(fig: dict, *, height: int | None = None) -> dict:
    """A figure for a phone's width: colour bars flat under the plot area, then the Play
    buttons, the step slider across the whole width and the legend in rows at the bottom;
    the plot area keeps the whole width of the screen."""
    layout = dict(fig.get("layout", {}))
    data = [dict(t) for t in fig.get("data", [])]
    if height is not None:
        layout["height"] = int(height)
    h = int(layout.get("height") or 450)
    legend = 0
    if layout.get("showlegend", True) is not False:  # at the bottom, under the slider
        # two names a row, half the plot's width each; a name longer than that (a class of
        # a 20-digit label) gets a row of its own, as wide as the figure, and the figure
        # grows by the rows that adds
        names = legend_names(data, layout)
        long_name = any(text_px(n, _PHONE_LEGEND_FONT) > LEGEND_HALF * PHONE_FIGURE_PX
                        for n in names)
        per_row, width = (1, dict(entrywidth=round(2 * PHONE_FIGURE_PX * LEGEND_HALF)
                                  - LEGEND_SYMBOL, entrywidthmode="pixels")) if long_name \
            else (2, dict(entrywidth=0.5, entrywidthmode="fraction"))
        h += _LEGEND_ROW_PX * (-(-len(names) // per_row) - -(-len(names) // 2))
        layout["height"] = h
        layout["legend"] = dict(layout.get("legend") or {}, orientation="h", x=0.0,
                                xanchor="left", y=0.0, yanchor="bottom", yref="container",
                                **width, font=dict((layout.get("legend") or {}).get("font")
                                                   or {}, size=_PHONE_LEGEND_FONT))
        legend = _LEGEND_ROW_PX * -(-len(names) // per_row) + 12
    # the figure's title (a step's, in every frame too) in lines a phone holds, from the top
    # edge, the plot area under it: the figure taller by what its lines take beyond 70 px
    frames = fig.get("frames")
    title = layout.get("title")
    titled = isinstance(title, dict) and isinstance(title.get("text"), str)
    if titled:
        layout["title"] = dict(title, text=wrapped(title["text"]), yref="container",
                               yanchor="top")
        if frames:
            frames = frames_retitled(frames, wrapped)
        lines = max(len(text_lines(t)) for t in [layout["title"]["text"]] + [
            ((f.get("layout") or {}).get("title") or {}).get("text") or "" for f in frames or []])
        top = max(70, _TITLE_TOP_PX + lines * _TITLE_LINE_PX + 8)
    else:
        top = 70
    if top > 70:
        h += top - 70
        layout["height"] = h
    if titled:
        layout["title"]["y"] = _title_y(layout["title"], h, lines)
    data, layout = _stack_below(data, layout, height=h, top=top, extra=legend)
    out = dict(fig, data=data, layout=layout)
    if frames is not None:
        out["frames"] = frames
    return out
