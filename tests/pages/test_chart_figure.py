"""What the chart component is sent for a figure (pages.common.charts.chart_figure).

The component redraws a chart from new JSON with ``Plotly.react``; plotly.js keeps the
computed plot only if nothing it compares by identity changed. The component gives plotly.js
the template it drew last when the new one is equal; what the app sends must have plain
lists for the displayed traces' and the layout's arrays (typed arrays are compared by
identity), keep every value the figure had and its template (with Streamlit's look laid over
its layout for ``streamlit_look``), and its input must not change. That the sent figure
resolves in plotly.js exactly as the templated one is checked in a real browser
(tests/test_browser_charts.py); here, the dict's own properties.
"""

from __future__ import annotations


import json

import numpy as np
import plotly.io as pio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from chart_util import decode
from fuzz_util import N_EXAMPLES
from mpcore.plots import deep_merge
from pages.common.charts import STREAMLIT_LOOK, chart_figure
from pages.common.figure_frames import open_at, typed_arrays
from test_figure_frames import FIGURES, _figures


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
    out = chart_figure(app_figure)
    assert pio.to_json(app_figure, validate=False) == frozen  # the cached figure is untouched
    assert out["layout"]["template"] is app_figure["layout"]["template"]  # as plotly wrote it
    assert not _arrays_in(out["data"]) and not _arrays_in(
        {k: v for k, v in out["layout"].items() if k != "template"})
    # the frames are the same objects: plotly.js adds them, it does not compare them
    assert all(a is b for a, b in zip(out["frames"], app_figure["frames"]))
    assert _arrays_in(out["frames"])


def test_plain_arrays_hold_exactly_the_typed_values(app_figure):
    out = chart_figure(app_figure)
    checked = 0
    for ours, theirs in zip(out["data"], app_figure["data"]):
        for path, value in _leaves(theirs):
            if isinstance(value, dict) and "bdata" in value:
                # float32 values become the float64 numbers equal to them, no rounding
                np.testing.assert_array_equal(np.asarray(_at(ours, path), dtype=float),
                                              decode(value, dtype=None).astype(float), err_msg=str(path))
                checked += 1
    assert checked >= 5


def test_every_value_the_figure_gives_is_kept(app_figure):
    out = chart_figure(app_figure)
    for path, value in _leaves(app_figure["layout"]):
        if isinstance(value, (str, int, float, bool)):
            assert _at(out["layout"], path) == value, path


def test_sent_json_has_no_typed_arrays_outside_the_frames(app_figure):
    sent = json.loads(pio.to_json(chart_figure(app_figure), validate=False))
    layout = {k: v for k, v in sent["layout"].items() if k != "template"}
    assert '"bdata"' not in json.dumps(sent["data"]) + json.dumps(layout)
    assert '"bdata"' in json.dumps(sent["frames"])


def test_streamlit_look_lies_over_the_templates_layout(app_figure):
    """As Streamlit's theme="streamlit" does in the browser: the look's values win over the
    template's layout, the template's other values and its trace defaults stay, and the
    figure's own layout is not touched; a figure without a template gets the look as one."""
    template = app_figure["layout"]["template"]
    frozen = json.dumps(template, sort_keys=True)
    out = chart_figure(app_figure, look=STREAMLIT_LOOK)
    assert json.dumps(template, sort_keys=True) == frozen
    got = out["layout"]["template"]
    assert got["data"] == template["data"]
    assert got["layout"] == deep_merge(template["layout"], STREAMLIT_LOOK)
    for path, value in _leaves(STREAMLIT_LOOK):
        assert _at(got["layout"], path) == value, path
    for path, value in _leaves({k: v for k, v in app_figure["layout"].items() if k != "template"}):
        if isinstance(value, (str, int, float, bool)):
            assert _at(out["layout"], path) == value, path
    bare = {"data": [{"type": "scatter", "x": [1]}], "layout": {"title": {"text": "T"}}}
    assert chart_figure(bare, look=STREAMLIT_LOOK)["layout"]["template"] == {"layout": STREAMLIT_LOOK}
    assert "template" not in chart_figure(bare)["layout"]


# ---------------------------------------------------------------- any figure, fuzzed

@hst.composite
def _templated(draw):
    """A figure of any shape (test_figure_frames._figures) with a template, maybe a look."""
    fig = draw(_figures())
    layout = dict(fig["layout"], template={
        "layout": {"xaxis": {"gridcolor": "#eee"}, "font": {"color": "#2a3f5f"}},
        "data": {"scatter": [{"mode": "markers"}]}})
    look = draw(hst.one_of(hst.none(), hst.just({"xaxis": {"gridcolor": "#e6eaf1"},
                                                 "font": {"size": 9}})))
    return dict(fig, layout=layout), look


@settings(max_examples=N_EXAMPLES, deadline=None)
@given(case=_templated())
def test_chart_figure_leaves_no_array_plotly_would_compare_by_identity(case):
    fig, look = case
    out = chart_figure(typed_arrays(fig), look=look)
    assert not _arrays_in(out["data"]) and not _arrays_in(
        {k: v for k, v in out["layout"].items() if k != "template"})
    assert "template" in out["layout"]
    json.dumps(out["data"], allow_nan=True)  # plain Python values only
