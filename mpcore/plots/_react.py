"""Figure dicts that ``Plotly.react`` redraws without recomputing them.

A host that hands plotly.js a fresh copy of a figure it has just drawn (Streamlit does,
once per new chart: it mounts the chart, then applies its theme to a JSON copy) makes
plotly.js compare the two. plotly.js keeps the computed plot only when nothing it
compares by identity has changed. Three things in a copied figure always have:

- ``layout.template``, an object compared by identity: any copy of it is a "change"
  that recomputes the whole figure;
- typed arrays (``{"dtype", "bdata"}``, :func:`mpcore.plots.typed_arrays`), which
  plotly.js also compares by identity;
- plain arrays, unless ``layout.datarevision`` is set: it then trusts the revision
  and not the array's identity.

:func:`react_ready` removes all three: the template is applied to the figure itself
(:func:`flat_template`, the figure looks the same), the displayed traces' arrays and the
layout's (tick values) become plain lists and ``datarevision`` is set. The frames keep their typed arrays: plotly.js
only adds them, it does not compare them.
"""

from __future__ import annotations

import base64
import re

import numpy as np

from ._frames import _containers_copy

__all__ = ["flat_template", "react_ready"]

#: Layout keys a template entry applies to every container of: ``xaxis`` to ``xaxis``,
#: ``xaxis2``, ... (plotly.js: template.layout.xaxis serves every x axis).
_SUBPLOTS = ("xaxis", "yaxis", "coloraxis", "polar", "ternary", "scene", "geo", "mapbox",
             "map", "smith")
#: ``<item>defaults`` in a template serves every item of the layout's ``<item>s`` array.
_ITEMS = {"annotationdefaults": "annotations", "shapedefaults": "shapes",
          "imagedefaults": "images", "sliderdefaults": "sliders",
          "updatemenudefaults": "updatemenus", "selectiondefaults": "selections"}
#: Trace types drawn on cartesian axes (``xaxis``/``yaxis`` references, default x and y).
_CARTESIAN = frozenset({
    "scatter", "scattergl", "bar", "heatmap", "contour", "histogram", "histogram2d",
    "histogram2dcontour", "box", "violin", "ohlc", "candlestick", "waterfall", "funnel",
    "image", "carpet", "contourcarpet", "scattercarpet", "splom"})
#: Trace types plotly.js draws along a position axis without its grid ("oriented"), and
#: those that give their axes outside ticks ("2dMap").
_ORIENTED = frozenset({"bar", "histogram", "box", "violin", "waterfall", "funnel"})
_MAPS = frozenset({"heatmap", "contour", "histogram2d", "histogram2dcontour"})
#: Axis attributes plotly.js switches on when they are *given* (in the figure, not by a
#: template): (attributes, switch). A template's value does not count, the same value in
#: the figure does, so a flattened template pins the switch to its value without them.
_SWITCHES = ((("gridcolor", "gridwidth", "griddash"), "showgrid"),
             (("zerolinecolor", "zerolinewidth"), "zeroline"),
             (("linecolor", "linewidth"), "showline"),
             (("ticklen", "tickwidth", "tickcolor"), "ticks"),
             (("minor.gridcolor", "minor.gridwidth", "minor.griddash"), "minor.showgrid"))


def _under(default, value):
    """``value`` with ``default`` underneath: what plotly.js does with a template value.

    Dicts merge key by key (``value`` wins); any other value, arrays included, wins whole.
    ``None`` counts as unset. Neither input is changed."""
    if value is None:
        return _containers_copy(default)
    if isinstance(default, dict) and isinstance(value, dict) and not _is_typed(value):
        out = {k: _containers_copy(v) for k, v in default.items()}
        for k, v in value.items():
            out[k] = _under(out.get(k), v)
        return out
    return value


def _over(base, top):
    """``base`` deep-updated by ``top`` (``top`` wins, arrays whole): a host theme laid
    over a template's layout. Neither input is changed."""
    if isinstance(base, dict) and isinstance(top, dict):
        out = dict(base)
        for k, v in top.items():
            out[k] = _over(base.get(k), v)
        return out
    return _containers_copy(top)


def _is_typed(obj) -> bool:
    return isinstance(obj, dict) and "bdata" in obj and "dtype" in obj


def _axis_name(ref: str, letter: str) -> str:
    """'x2' -> 'xaxis2', 'x' -> 'xaxis'."""
    return f"{letter}axis{ref[1:]}"


def _subplot_keys(kind: str, layout: dict, data: list) -> list[str]:
    """The layout keys of every ``kind`` container the figure has: those the layout names
    and, for cartesian axes, those the traces refer to."""
    pattern = re.compile(rf"{kind}\d*$")
    keys = [k for k in layout if pattern.fullmatch(k)]
    if kind in ("xaxis", "yaxis"):
        letter = kind[0]
        for trace in data:
            if trace.get("type", "scatter") in _CARTESIAN:
                key = _axis_name(str(trace.get(kind) or letter), letter)
                if key not in keys:
                    keys.append(key)
    return keys


def _axis_defaults(data: list) -> tuple[set, set]:
    """(axes drawn without grid by default, axes with outside ticks by default), as
    plotly.js decides from the traces on them."""
    no_grid, outer = set(), set()
    for trace in data:
        kind = trace.get("type", "scatter")
        x = _axis_name(str(trace.get("xaxis") or "x"), "x")
        y = _axis_name(str(trace.get("yaxis") or "y"), "y")
        if kind in _ORIENTED:
            flat = trace.get("orientation") or ("h" if "x" in trace and "y" not in trace else "v")
            no_grid.add(y if flat == "h" else x)
        if kind in _MAPS:
            outer.update((x, y))
    return no_grid, outer


def _given(d: dict, path: str) -> bool:
    for part in path.split("."):
        if not isinstance(d, dict) or d.get(part) is None:
            return False
        d = d[part]
    return True


def _pin_switches(axis: dict, own: dict, template: dict, *, grid: bool, outer: bool):
    """Set in ``axis`` (a flattened axis) each switch that only a template's attribute
    would otherwise turn on: to the value plotly.js gives it without that attribute."""
    values = {"showgrid": grid, "zeroline": grid, "showline": False,
              "ticks": "outside" if outer else "", "minor.showgrid": False}
    for attrs, switch in _SWITCHES:
        if _given(own, switch) or _given(template, switch) or any(_given(own, a) for a in attrs):
            continue
        if any(_given(template, a) for a in attrs):
            head, _, tail = switch.rpartition(".")
            box = axis.setdefault(head, {}) if head else axis
            box[tail] = values[switch]


def flat_template(fig: dict, *, overlay: dict | None = None) -> dict:
    """Copy of a figure dict with its ``layout.template`` applied to it and removed.

    The template's layout values go under the layout's own (per axis for ``xaxis``,
    ``yaxis`` and the other subplot kinds, per item for ``annotationdefaults`` and the
    other item defaults, in the layout and in the frames' layout patches); its trace
    entries go under the displayed traces of their type, cycling as plotly.js does.
    Frames' trace patches are left as they are: plotly.js merges them into the traces,
    which keep the template's values. ``overlay`` (optional) is laid over the template's
    layout first, as a host theme does (Streamlit's ``theme="streamlit"``).

    Non-cartesian subplots (polar, geo, ...) take the template only when the layout
    names them. The input is not changed; arrays are shared, not copied.
    """
    layout = dict(fig.get("layout") or {})
    template = layout.pop("template", None) or {}
    t_layout = template.get("layout") or {}
    if overlay:
        t_layout = _over(t_layout, overlay)
    data = [dict(t) for t in fig.get("data") or []]
    no_grid, outer_ticks = _axis_defaults(data)
    for key, default in t_layout.items():
        if key in _SUBPLOTS:
            for name in _subplot_keys(key, layout, data):
                axis = _under(default, layout.get(name))
                if key in ("xaxis", "yaxis"):
                    _pin_switches(axis, layout.get(name) or {}, default,
                                  grid=name not in no_grid, outer=name in outer_ticks)
                layout[name] = axis
        elif key in _ITEMS:
            items = layout.get(_ITEMS[key])
            if items:
                layout[_ITEMS[key]] = [_under(default, item) for item in items]
        else:
            layout[key] = _under(default, layout.get(key))
    t_data = template.get("data") or {}
    seen: dict[str, int] = {}
    for i, trace in enumerate(data):
        kind = trace.get("type", "scatter")
        entries = t_data.get(kind)
        n = seen[kind] = seen.get(kind, -1) + 1
        if entries:
            entry = {k: v for k, v in entries[n % len(entries)].items() if k != "type"}
            data[i] = _under(entry, trace)
    out = dict(fig, data=data, layout=layout)
    if fig.get("frames") and any(k in t_layout for k in _ITEMS):
        out["frames"] = [_frame_items(f, t_layout, layout) for f in fig["frames"]]
    return out


def _frame_items(frame: dict, t_layout: dict, layout: dict) -> dict:
    """A frame whose layout patch brings array items (annotations, ...) the figure's layout
    does not have at that index: those get the template's item defaults. plotly.js merges
    a patch's items into the layout's own by index, which already carry them."""
    patch = frame.get("layout")
    if not patch:
        return frame
    new = {}
    for key, items_key in _ITEMS.items():
        items = patch.get(items_key)
        have = len(layout.get(items_key) or ())
        if key in t_layout and items and len(items) > have:
            new[items_key] = items[:have] + [_under(t_layout[key], item) for item in items[have:]]
    return dict(frame, layout=dict(patch, **new)) if new else frame


def _plain(obj):
    """Typed arrays and numpy arrays as (nested) lists, everything else as it is."""
    if _is_typed(obj):
        a = np.frombuffer(base64.b64decode(obj["bdata"]), dtype=np.dtype(obj["dtype"]))
        if "shape" in obj:
            a = a.reshape([int(s) for s in str(obj["shape"]).split(",")])
        return a.tolist()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    return obj


def react_ready(fig: dict, *, overlay: dict | None = None) -> dict:
    """Copy of a figure dict that ``Plotly.react`` redraws from a copy of itself without
    recomputing it (see the module's docstring): template applied (:func:`flat_template`,
    with ``overlay``), the displayed traces' arrays as lists, ``layout.datarevision`` set
    (kept if the figure has one). Frames are shared with the input, not copied.
    """
    out = flat_template(fig, overlay=overlay)
    out["data"] = [_plain(t) for t in out["data"]]
    out["layout"] = _plain(out["layout"])  # tick values are compared by identity too
    out["layout"].setdefault("datarevision", 1)
    return out
