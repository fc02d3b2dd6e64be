"""One panel of a subplot figure, full size: what a phone shows of a 2 x 2 animation.

:func:`one_panel` works on the plotly dict of any figure built with
``make_subplots`` (animated or not): the chosen subplot's axes take the whole
plotting area, every other subplot's traces, axes, titles and shapes are hidden,
and the frames keep animating the panel that is left (frames address traces by
index, and a hidden trace stays hidden). Nothing is recomputed.
"""

from __future__ import annotations

import re

__all__ = ["panels", "one_panel", "narrow_layout"]

_AXIS = re.compile(r"^([xy])axis(\d*)$")


def _suffix(ref: str | None) -> str:
    """'x3' -> '3', 'x' / None -> '' (plotly's axis numbering)."""
    return "" if not ref else ref[1:].split(" ")[0]


def _domain(layout: dict, axis: str) -> tuple[float, float]:
    d = (layout.get(axis) or {}).get("domain") or (0.0, 1.0)
    return float(d[0]), float(d[1])


def panels(fig: dict) -> list[str]:
    """Axis suffixes ('', '2', ...) of the subplots that hold at least one visible trace,
    in plotly's order (row by row)."""
    seen = []
    for t in fig.get("data", []):
        if t.get("visible", True) is False:
            continue
        sx, sy = _suffix(t.get("xaxis")), _suffix(t.get("yaxis"))
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
    (moved to the same place of the full area)."""
    (x0, x1), (y0, y1) = box
    keep = []
    for a in items or []:
        xref, yref = a.get("xref", "paper"), a.get("yref", "paper")
        if xref == "paper" and yref == "paper":
            if _in_box(a, box):
                keep.append(dict(a, x=(a.get("x", 0.5) - x0) / ((x1 - x0) or 1.0),
                                 y=(a.get("y", 0.5) - y0) / ((y1 - y0) or 1.0)))
        elif _suffix(xref) == sfx or _suffix(yref) == sfx:
            keep.append(a)
    return keep


def one_panel(fig: dict, sfx: str, *, height: int | None = None) -> dict:
    """Only the subplot whose x axis is ``'x' + sfx``, on the whole plotting area.

    Parameters
    ----------
    fig : dict
        A plotly figure dict (``data``, ``layout``, optional ``frames``).
    sfx : str
        The panel's axis suffix, as :func:`panels` lists them.
    height : int, optional
        New figure height in pixels.
    """
    layout = dict(fig.get("layout", {}))
    xa, ya = "xaxis" + sfx, "yaxis" + sfx
    data = []
    ysfx = sfx
    for t in fig.get("data", []):
        if _suffix(t.get("xaxis")) == sfx:
            ysfx = _suffix(t.get("yaxis"))
            break
    ya = "yaxis" + ysfx
    box = (_domain(layout, xa), _domain(layout, ya))
    shown_legend = False
    bar = dict(x=1.1, xanchor="left", y=0.5, yanchor="middle", len=0.9)
    for t in fig.get("data", []):
        mine = _suffix(t.get("xaxis")) == sfx and _suffix(t.get("yaxis")) == ysfx
        if not mine:
            data.append(dict(t, visible=False))
            continue
        t = dict(t)
        if isinstance(t.get("colorbar"), dict):
            t["colorbar"] = dict(t["colorbar"], **bar)
        if isinstance(t.get("marker"), dict) and isinstance(t["marker"].get("colorbar"), dict):
            t["marker"] = dict(t["marker"], colorbar=dict(t["marker"]["colorbar"], **bar))
        shown_legend |= t.get("showlegend", True) is not False and t.get("visible", True) is True
        data.append(t)
    used = {(t.get("marker") or {}).get("coloraxis") for t in data if t.get("visible", True) is True}
    used |= {t.get("coloraxis") for t in data if t.get("visible", True) is True}
    for key in list(layout):
        if re.fullmatch(r"coloraxis\d*", key) and isinstance(layout[key], dict):
            if key in used:
                layout[key] = dict(layout[key], colorbar=dict(layout[key].get("colorbar") or {},
                                                              **bar))
            else:
                layout[key] = dict(layout[key], showscale=False)
    for key in list(layout):
        m = _AXIS.match(key)
        if not m:
            continue
        if key in (xa, ya):
            layout[key] = dict(layout[key], domain=[0.0, 1.0])
        else:
            layout[key] = dict(layout[key], visible=False, domain=[0.0, 0.01])
    layout["annotations"] = _annotations(layout.get("annotations"), sfx, box)
    layout["shapes"] = [s for s in layout.get("shapes") or []
                        if _suffix(s.get("xref")) == sfx or _suffix(s.get("yref")) == sfx]
    layout["images"] = [s for s in layout.get("images") or []
                        if _suffix(s.get("xref")) == sfx]
    if shown_legend:
        layout["legend"] = dict(layout.get("legend") or {}, orientation="h", x=0.0, xanchor="left",
                                y=1.02 + 0.06 * bool(layout["annotations"]), yanchor="bottom")
    else:
        layout["showlegend"] = False
    layout["margin"] = dict(layout.get("margin") or {}, l=55, r=20,
                            t=110 if shown_legend else 60)
    if height is not None:
        layout["height"] = int(height)
    frames = []
    for f in fig.get("frames", []) or []:
        fl = f.get("layout")
        if isinstance(fl, dict) and "annotations" in fl:
            f = dict(f, layout=dict(fl, annotations=_annotations(fl["annotations"], sfx, box)))
        frames.append(f)
    out = dict(fig, data=data, layout=layout)
    if "frames" in fig:
        out["frames"] = frames
    return out


def narrow_layout(fig: dict, *, height: int | None = None) -> dict:
    """A figure for a phone's width: legend in rows at the bottom, colour bars upright at the
    right, the step slider under the Play buttons across the whole width."""
    layout = dict(fig.get("layout", {}))
    bar = dict(orientation="v", x=1.02, xanchor="left", y=0.5, yanchor="middle", len=0.9,
               thickness=12)
    data = []
    for t in fig.get("data", []):
        t = dict(t)
        if isinstance(t.get("colorbar"), dict):
            t["colorbar"] = dict(t["colorbar"], **bar)
        if isinstance(t.get("marker"), dict) and isinstance(t["marker"].get("colorbar"), dict):
            t["marker"] = dict(t["marker"], colorbar=dict(t["marker"]["colorbar"], **bar))
        data.append(t)
    if layout.get("showlegend", True) is not False:  # at the bottom, under the slider
        layout["legend"] = dict(layout.get("legend") or {}, orientation="h", x=0.0,
                                xanchor="left", y=0.0, yanchor="bottom", yref="container",
                                entrywidth=0.5, entrywidthmode="fraction",
                                font=dict((layout.get("legend") or {}).get("font") or {}, size=12))
    layout["margin"] = dict(layout.get("margin") or {}, l=50, r=20, t=70, b=360)
    # under the axis title: the Play buttons, then the slider, then the legend
    if layout.get("updatemenus"):
        layout["updatemenus"] = [dict(um, y=-0.2, yanchor="top") for um in layout["updatemenus"]]
    if layout.get("sliders"):
        layout["sliders"] = [dict(sl, x=0.0, len=1.0, y=-0.36, yanchor="top")
                             for sl in layout["sliders"]]
    if height is not None:
        layout["height"] = int(height)
    return dict(fig, data=data, layout=layout)
