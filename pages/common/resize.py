"""A figure at another height, its controls and colour bars where they were drawn for.

Plotly places the Play/Pause buttons, the step slider, a colour bar or a legend
outside the plot area in fractions of the plot area's height (paper coordinates).
The builders of :mod:`mpcore.plots` compute those fractions from pixel offsets for the
height they build the figure at; :func:`resized` gives a figure another height
(presentation mode fits it to the window) and recomputes the fractions, so each of
those parts keeps its distance in pixels from the plot area: a colour bar stays
under the x axis title, the buttons and the slider under the colour bar. Streamlit-free.
"""

from __future__ import annotations

__all__ = ["resized"]

#: Plotly's default margins (px) when a figure sets none.
_DEFAULT_MARGIN = {"t": 100, "b": 80}


def _plot_height(layout: dict, height: float) -> float:
    margin = layout.get("margin") or {}
    t = margin.get("t", _DEFAULT_MARGIN["t"])
    b = margin.get("b", _DEFAULT_MARGIN["b"])
    return max(float(height) - float(t) - float(b), 1.0)


def _moved(item: dict, old: float, new: float) -> dict:
    """``item`` with a paper ``y`` outside [0, 1] moved to the same pixel distance from the
    plot area (inside it, a fraction of the plot area stays one)."""
    y = item.get("y")
    if (not isinstance(y, (int, float)) or isinstance(y, bool) or 0.0 <= y <= 1.0
            or item.get("yref", "paper") != "paper"):
        return item
    px = (y - 1.0 if y > 1.0 else y) * old
    return dict(item, y=(1.0 if y > 1.0 else 0.0) + px / new)


def _trace(t: dict, old: float, new: float) -> dict:
    out = t
    if isinstance(t.get("colorbar"), dict):
        out = dict(out, colorbar=_moved(t["colorbar"], old, new))
    marker = t.get("marker")
    if isinstance(marker, dict) and isinstance(marker.get("colorbar"), dict):
        out = dict(out, marker=dict(marker, colorbar=_moved(marker["colorbar"], old, new)))
    return out


def _layout(layout: dict, old: float, new: float) -> dict:
    """``layout`` with its parts outside the plot area moved (itself when none is)."""
    changes = {}
    for key in ("updatemenus", "sliders", "annotations"):
        items = layout.get(key)
        if isinstance(items, (list, tuple)):
            moved = [_moved(i, old, new) if isinstance(i, dict) else i for i in items]
            if any(a is not b for a, b in zip(moved, items)):
                changes[key] = moved
    if isinstance(layout.get("legend"), dict):
        legend = _moved(layout["legend"], old, new)
        if legend is not layout["legend"]:
            changes["legend"] = legend
    for key, val in layout.items():
        if key.startswith("coloraxis") and isinstance(val, dict) and isinstance(
                val.get("colorbar"), dict):
            bar = _moved(val["colorbar"], old, new)
            if bar is not val["colorbar"]:
                changes[key] = dict(val, colorbar=bar)
    return dict(layout, **changes) if changes else layout


def resized(fig: dict, height: int) -> dict:
    """Copy of a figure dict at ``height`` px, with every part placed outside its plot area
    (buttons, slider, colour bars, legend, paper annotations) at the same pixel distance
    from the plot area as at the height the figure had.

    Parameters
    ----------
    fig : dict
        A plotly figure dict (``data``, ``layout``, optional ``frames``) whose
        ``layout.height`` is the height it was built for.
    height : int
        The new height in pixels (the margins keep their size: the plot area takes the
        difference).

    Returns
    -------
    dict
        The figure with ``layout.height = height``; parts inside the plot area, and parts
        placed relative to the whole figure (``yref="container"``), are unchanged. Only
        what moves is copied (frames' traces are shared with ``fig``).
    """
    layout = fig.get("layout") or {}
    height = int(height)
    before = layout.get("height")
    if not isinstance(before, (int, float)) or int(before) == height:
        return dict(fig, layout=dict(layout, height=height))
    old, new = _plot_height(layout, before), _plot_height(layout, height)
    out = dict(fig, data=[_trace(t, old, new) if isinstance(t, dict) else t
                          for t in fig.get("data", [])],
               layout=dict(_layout(layout, old, new), height=height))
    if fig.get("frames"):
        frames = []
        for f in fig["frames"]:
            fl = f.get("layout") if isinstance(f, dict) else None
            moved = _layout(fl, old, new) if isinstance(fl, dict) else fl
            frames.append(f if moved is fl else dict(f, layout=moved))
        out["frames"] = frames
    return out
