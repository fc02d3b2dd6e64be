"""Figures made ready for Streamlit's second ``Plotly.react`` (mpcore.plots.react_ready).

Streamlit hands plotly.js a JSON copy of every new chart right after drawing it; plotly.js
keeps the computed plot only if nothing it compares by identity changed. So what the app
sends must have no ``layout.template`` (applied to the figure instead), plain lists for the
displayed traces' and the layout's arrays, and ``layout.datarevision``; the figure must
keep every value it had, gain the template's where it had none, and its input must not
change. That the flattened figure resolves in plotly.js exactly as the templated one is
checked in a real browser (tests/browser/test_browser_charts.py); here, the dict's own properties.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import plotly.io as pio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from chart_util import decode
from fuzz_util import N_EXAMPLES
from mpcore.plots import flat_template, open_at, react_ready, typed_arrays
from test_prevalidated import FIGURES, _figures


def _arrays_in(obj) -> list:
    """Every typed array spec and numpy array in ``obj``."""
    if isinstance(obj, np.ndarray) or (isinstance(obj, dict) and "bdata" in obj):
        return [obj]
    if isinstance(obj, dict):
        return [a for v in obj.values() for a in _arrays_in(v)]
    if isinstance(obj, (list, tuple)):
        return [a for v in obj for a in _arrays_in(v)]
    return []


def _leaves(obj, path=()):
    """(path, value) of every non-container value (a typed array is one value)."""
    if isinstance(obj, dict) and "bdata" not in obj:
        for k, v in obj.items():
            yield from _leaves(v, path + (k,))
    else:
        yield path, obj


def _at(obj, path):
    for p in path:
        obj = obj[p]
    return obj


@pytest.fixture(scope="module", params=sorted(FIGURES))
def app_figure(request):
    """An animated figure of the app as the pages cache it (typed arrays), opened on a step."""
    fig = typed_arrays(FIGURES[request.param]())
    return open_at(fig, 1)


def test_app_figure_loses_what_plotly_compares_by_identity(app_figure):
    frozen = pio.to_json(app_figure, validate=False)
    out = react_ready(app_figure)
    assert pio.to_json(app_figure, validate=False) == frozen  # the cached figure is untouched
    assert "template" in app_figure["layout"] and "template" not in out["layout"]
    assert out["layout"]["datarevision"] == 1
    assert not _arrays_in(out["data"]) and not _arrays_in(out["layout"])
    # the frames are the same objects: plotly.js adds them, it does not compare them
    assert all(a is b for a, b in zip(out["frames"], app_figure["frames"]))
    assert _arrays_in(out["frames"])


def test_plain_arrays_hold_exactly_the_typed_values(app_figure):
    out = react_ready(app_figure)
    checked = 0
    for ours, theirs in zip(out["data"], app_figure["data"]):
        for path, value in _leaves(theirs):
            if isinstance(value, dict) and "bdata" in value:
                # float32 values become the float64 numbers equal to them, no rounding
                np.testing.assert_array_equal(np.asarray(_at(ours, path), dtype=float),
                                              decode(value), err_msg=str(path))
                checked += 1
    assert checked >= 5


def test_every_value_the_figure_gives_is_kept(app_figure):
    out = react_ready(app_figure)
    for path, value in _leaves({k: v for k, v in app_figure["layout"].items() if k != "template"}):
        if isinstance(value, (str, int, float, bool)):
            assert _at(out["layout"], path) == value, path


def test_sent_json_has_no_typed_arrays_outside_the_frames(app_figure):
    sent = json.loads(pio.to_json(react_ready(app_figure), validate=False))
    assert '"bdata"' not in json.dumps(sent["data"]) + json.dumps(sent["layout"])
    assert '"bdata"' in json.dumps(sent["frames"])


# ---------------------------------------------------------------- flat_template, fuzzed

_COLOR = hst.sampled_from(["#123456", "red", "rgb(1,2,3)"])
_AXIS = hst.fixed_dictionaries({}, optional={
    "gridcolor": _COLOR, "linecolor": _COLOR, "zerolinecolor": _COLOR, "tickcolor": _COLOR,
    "showgrid": hst.booleans(), "ticks": hst.sampled_from(["", "outside"]),
    "title": hst.fixed_dictionaries({"standoff": hst.integers(0, 30)}),
    "minor": hst.fixed_dictionaries({"gridcolor": _COLOR})})


@hst.composite
def _templated(draw):
    """A figure of any shape (test_prevalidated._figures) given a template with axis,
    annotation and trace defaults, and maybe axes, annotations and a host overlay."""
    fig = draw(_figures())
    layout = dict(fig["layout"])
    for name in draw(hst.lists(hst.sampled_from(["xaxis", "yaxis2", "xaxis3"]), max_size=2)):
        layout[name] = dict(layout.get(name) or {}, **draw(_AXIS))
    if draw(hst.booleans()):
        layout["annotations"] = [{"text": "a", "x": 0, "y": 0, "showarrow": draw(hst.booleans())}
                                 for _ in range(draw(hst.integers(1, 3)))]
    for trace in fig["data"]:
        trace["type"] = draw(hst.sampled_from(["scatter", "bar", "heatmap"]))
        if draw(hst.booleans()):
            trace["xaxis"] = draw(hst.sampled_from(["x", "x2"]))
    layout["template"] = {
        "layout": {"xaxis": draw(_AXIS), "yaxis": draw(_AXIS), "font": {"color": "#2a3f5f"},
                   "annotationdefaults": {"arrowcolor": "#2a3f5f", "arrowhead": 0},
                   "colorway": ["#636efa", "#EF553B"]},
        "data": {"scatter": [{"mode": "markers"}, {"mode": "lines"}],
                 "bar": [{"marker": {"line": {"width": 0.5}}}]}}
    overlay = draw(hst.one_of(hst.none(), hst.fixed_dictionaries({"xaxis": _AXIS,
                                                                  "font": hst.just({"size": 9})})))
    return dict(fig, layout=layout), overlay


@settings(max_examples=N_EXAMPLES, deadline=None)
@given(case=_templated())
def test_flat_template_keeps_the_figures_values_and_adds_the_templates(case):
    fig, overlay = case
    frozen = pio.to_json(fig, validate=False)
    out = flat_template(fig, overlay=overlay)
    assert pio.to_json(fig, validate=False) == frozen
    assert "template" not in out["layout"]
    # every value the figure gives is there, as it was
    own = {k: v for k, v in fig["layout"].items() if k != "template"}
    for path, value in _leaves(own):
        if path[0] != "annotations":
            assert _at(out["layout"], path) is value or _at(out["layout"], path) == value, path
    for i, note in enumerate(own.get("annotations") or []):
        assert out["layout"]["annotations"][i] == {"arrowcolor": "#2a3f5f", "arrowhead": 0, **note}
    # the template's top-level values fill what the figure left out
    assert out["layout"]["font"]["color"] == fig["layout"].get("font", {}).get("color", "#2a3f5f")
    # every x axis a trace draws on exists and has the template's (or overlay's) values
    tx = copy.deepcopy(fig["layout"]["template"]["layout"]["xaxis"])
    if overlay:
        tx.update(overlay["xaxis"])
    for trace in fig["data"]:
        name = "xaxis" + str(trace.get("xaxis", "x"))[1:]
        for path, value in _leaves(tx):
            if not _has(fig["layout"].get(name) or {}, path):
                assert _at(out["layout"][name], path) == value, (name, path)
    # trace entries cycle per type, under the trace's own values
    seen = {}
    for ours, theirs in zip(out["data"], fig["data"]):
        n = seen[theirs["type"]] = seen.get(theirs["type"], -1) + 1
        if theirs["type"] == "scatter":
            assert ours["mode"] == ("markers", "lines")[n % 2]
        if theirs["type"] == "bar":
            assert ours["marker"]["line"] == {"width": 0.5}
            assert ours["marker"]["color"] is theirs["marker"]["color"]


def _has(d, path) -> bool:
    for p in path:
        if not isinstance(d, dict) or p not in d:
            return False
        d = d[p]
    return True


@settings(max_examples=N_EXAMPLES, deadline=None)
@given(case=_templated())
def test_react_ready_leaves_no_array_plotly_would_compare_by_identity(case):
    fig, overlay = case
    out = react_ready(typed_arrays(fig), overlay=overlay)
    assert not _arrays_in(out["data"]) and not _arrays_in(out["layout"])
    assert "datarevision" in out["layout"] and "template" not in out["layout"]
    json.dumps(out["data"], allow_nan=True)  # plain Python values only


# ---------------------------------------------------------------- axis switches

def _flat_axis(trace: dict, template_axis: dict, own: dict | None = None) -> dict:
    fig = {"data": [trace], "layout": {"template": {"layout": {"xaxis": template_axis}}}}
    if own is not None:
        fig["layout"]["xaxis"] = own
    return flat_template(fig)["layout"]["xaxis"]


def test_a_templates_grid_colour_does_not_switch_on_a_grid_plotly_leaves_off():
    """plotly.js draws no grid along a bar chart's position axis unless a grid attribute is
    given in the figure; a template's does not count. Flattened, the colour would count."""
    axis = _flat_axis({"type": "bar", "x": [1, 2], "y": [3, 4]}, {"gridcolor": "#eee"})
    assert axis["gridcolor"] == "#eee" and axis["showgrid"] is False and "zeroline" not in axis
    axis = _flat_axis({"type": "bar", "x": [1, 2], "y": [3, 4]}, {"zerolinecolor": "#eee"})
    assert axis["zeroline"] is False and "showgrid" not in axis
    axis = _flat_axis({"type": "scatter", "x": [1], "y": [1]},
                      {"gridcolor": "#eee", "zerolinewidth": 2})
    assert axis["showgrid"] is True and axis["zeroline"] is True
    # a horizontal bar chart's position axis is y: x keeps its grid
    axis = _flat_axis({"type": "bar", "x": [1, 2], "orientation": "h"}, {"gridcolor": "#eee"})
    assert axis["showgrid"] is True


def test_switches_the_figure_or_template_sets_are_left_alone():
    axis = _flat_axis({"type": "bar", "x": [1], "y": [1]}, {"gridcolor": "#eee", "showgrid": True})
    assert axis["showgrid"] is True
    axis = _flat_axis({"type": "bar", "x": [1], "y": [1]}, {"gridcolor": "#eee"}, {"showgrid": True})
    assert axis["showgrid"] is True
    # the figure gives a line colour itself: plotly.js switches the line on either way
    axis = _flat_axis({"type": "scatter"}, {"linecolor": "#eee"}, {"linecolor": "#444"})
    assert "showline" not in axis


def test_template_tick_and_minor_colours_pin_their_switches():
    axis = _flat_axis({"type": "heatmap", "z": [[1]]}, {"tickcolor": "#eee", "linecolor": "#eee"})
    assert axis["ticks"] == "outside" and axis["showline"] is False
    axis = _flat_axis({"type": "scatter"}, {"tickcolor": "#eee", "minor": {"gridcolor": "#eee"}})
    assert axis["ticks"] == "" and axis["minor"] == {"gridcolor": "#eee", "showgrid": False}
