"""The chart component's Python side (pages.common.charts): what it sends and returns.

- the payload is the figure's JSON exactly as ``st.plotly_chart`` wrote it (typed arrays
  included), with the plotly.js config, the selection flag, the page's layout and the
  bundle's address beside it, for any config a page can pass;
- the payload's ``data_key`` (what makes the component give plotly.js a new
  ``datarevision``, so that it recomputes the graph) changes with the traces, the frames and
  the layout's data arrays, and with nothing else (a new Play speed keeps it);
- a selection comes back as ``st.plotly_chart`` gave it (``event.selection.points``);
- no page draws with ``st.plotly_chart`` (which loads plotly.js's full bundle).
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import numpy as np
import plotly.io as pio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mpcore.plots._common import play_controls_layout
from pages.common.figure_frames import open_at, typed_arrays
from pages.common.charts import (CHART_COMPONENT, PLOTLY_BUNDLE, ChartEvent, chart_payload,
                                 plotly_src)

ROOT = Path(__file__).resolve().parents[2]

_json = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6)
                     | st.text(max_size=12),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 40), config=st.dictionaries(st.text(max_size=10), _json, max_size=4),
       select=st.booleans(), narrow=st.booleans(), title=st.text(max_size=20))
def test_the_payload_is_the_figure_as_st_plotly_chart_wrote_it(n, config, select, narrow, title):
    rng = np.random.default_rng(n)
    fig = typed_arrays({"data": [{"type": "scatter", "x": rng.random(n), "y": rng.random(n),
                                  "name": title}],
                        "layout": {"title": {"text": title}, "height": 300 + n}})
    sent = json.loads(chart_payload(fig, config=config, select=select, narrow=narrow))
    assert sent["figure"] == json.loads(pio.to_json(fig, validate=False))
    assert sent["config"] == config and sent["select"] is select and sent["narrow"] is narrow
    assert sent["plotly"] == plotly_src() == f"/app/static/{PLOTLY_BUNDLE.name}"
    x = sent["figure"]["data"][0]["x"]
    if n:  # numbers travel as plotly.js typed arrays, not as lists of decimals
        assert set(x) >= {"dtype", "bdata"}, x


def _animated(y, ticks, frames_y, title):
    """A small animated figure as the app sends it: a trace, frames, a Play button, ticks."""
    fig = {"data": [{"type": "scatter", "x": np.arange(len(y)), "y": np.asarray(y)}],
           "layout": {"title": {"text": title}, "xaxis": {"tickvals": list(ticks)},
                      **play_controls_layout(len(frames_y), 0, 125)},
           "frames": [{"name": str(j + 1), "data": [{"y": np.asarray(f)}]}
                      for j, f in enumerate(frames_y)]}
    return typed_arrays(fig)


def _key(fig, **kw) -> str:
    return json.loads(chart_payload(fig, **kw))["data_key"]


_values = st.lists(st.floats(-1e3, 1e3, allow_nan=False), min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(y=_values, ticks=st.lists(st.integers(-5, 5), max_size=4),
       frames=st.lists(_values, min_size=1, max_size=3), title=st.text(max_size=10),
       speed=st.sampled_from([1, 2, 4, 6, 8, 12]), data=st.data())
def test_the_data_key_follows_the_data_and_not_the_rest(y, ticks, frames, title, speed, data):
    fig = _animated(y, ticks, frames, title)
    key = _key(fig)
    # the same figure, however it is sent: the same key
    assert _key(fig, config={"displaylogo": False}, select=True, narrow=True) == key
    # what is not data keeps the key: the title, the Play speed, the step opened on
    assert _key(_animated(y, ticks, frames, title + "!")) == key
    assert _key(open_at(fig, 1, frame_ms=int(1000 / speed))) == key
    # a change in the traces, the frames or the layout's data arrays is new data
    i = data.draw(st.integers(0, len(y) - 1))
    assert _key(_animated([*y[:i], y[i] + 1, *y[i + 1:]], ticks, frames, title)) != key
    assert _key(_animated(y, [*ticks, 6], frames, title)) != key
    assert _key(_animated(y, ticks, [*frames, y], title)) != key
    f = data.draw(st.integers(0, len(frames) - 1))
    moved = [list(v) for v in frames]
    moved[f][0] += 1
    assert _key(_animated(y, ticks, moved, title)) != key


def test_the_bundle_address_follows_the_servers_base_path(monkeypatch):
    import streamlit as st_

    monkeypatch.setattr(st_, "get_option", lambda name: "/course/mp/")
    assert plotly_src() == f"/course/mp/app/static/{PLOTLY_BUNDLE.name}"


@pytest.mark.parametrize("base", ["", "course", "/course/mp/"])
@pytest.mark.parametrize("page", ["", "skpca", "kmp?dataset=moons&k=3"])
def test_the_preload_hint_names_the_bundle_the_charts_load(monkeypatch, base, page):
    """The sidebar's preload hint is relative: from any page's address, under any base
    path, it resolves to the address the charts load the bundle from (a preload that
    missed would fetch the 1.1 MB bundle twice)."""
    import re
    from urllib.parse import urljoin

    import streamlit as st_

    from pages.common.charts import PRELOAD_HTML

    monkeypatch.setattr(st_, "get_option", lambda name: base)
    href = re.search(r'<link rel="preload" href="([^"]+)" as="script">', PRELOAD_HTML).group(1)
    root = "/" + base.strip("/") + "/" if base.strip("/") else "/"
    assert urljoin(f"http://hall{root}{page}", href) == f"http://hall{plotly_src()}"


def test_a_selection_reads_as_st_plotly_charts():
    point = {"curve_number": 0, "point_index": 3, "x": 1.5, "y": -2.0, "customdata": [7]}
    event = ChartEvent(selection={"points": [point]})
    assert event.selection.points == [point] == event["selection"]["points"]
    with pytest.raises(AttributeError):
        event.box  # noqa: B018


def test_no_page_draws_with_st_plotly_chart():
    """Every chart goes through pages.common.charts.plotly_chart (the app's plotly.js bundle)."""
    found = []
    for path in [ROOT / "app.py", *(ROOT / "pages").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "plotly_chart":
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, f"st.plotly_chart loads plotly.js's full bundle: {found}"


def _draws(at) -> dict[tuple, tuple]:
    """Every component of a run (fit, timeline, charts; by name and order) -> its data
    without the draw number, and the draw number."""
    from apptest_util import _elements

    out, seen = {}, {}
    for el in (e for e in _elements(at._tree) if getattr(e, "type", None) == "bidi_component"):
        name = el.proto.component_name
        data = json.loads(el.proto.bytes if name == CHART_COMPONENT else el.proto.json)
        if "draw" not in data:  # a component that never redraws (the address history's)
            continue
        draw = data.pop("draw")
        seen[name] = seen.get(name, -1) + 1
        out[(name, seen[name])] = (data, draw)
    return out


def test_a_component_gets_a_larger_draw_number_for_new_data_only():
    """pages.common.charts.draw_number: a component whose data changed gets a number larger
    than any the session has drawn (the browser keeps a component's data with the largest
    one); unchanged data keeps its number, so that Streamlit does not run the component's
    JavaScript again. Runs: Home, a page, the same page again, a control changed, another
    page."""
    from streamlit.testing.v1 import AppTest

    from apptest_util import APP

    at = AppTest.from_file(str(APP), default_timeout=180)
    runs = [_draws(at.run())]  # Home: the fit component only
    at.switch_page("pages/kcca.py")
    runs.append(_draws(at.run()))
    runs.append(_draws(at.run()))
    at.slider(key="kcca.n").set_value(40).run()
    runs.append(_draws(at))
    at.switch_page("pages/kmp.py")
    runs.append(_draws(at.run()))
    assert not at.exception, [e.value for e in at.exception]
    assert ("mp_fit", 0) in runs[0], runs[0].keys()
    assert all({("mp_timeline", 0), (CHART_COMPONENT, 0)} <= set(run) for run in runs[1:])
    assert runs[2] == runs[1], "a run with nothing changed sent new draw numbers"
    changed = 0
    for i, run in enumerate(runs[1:], 1):
        before = max(draw for r in runs[:i] for _, draw in r.values())
        for key, (data, draw) in run.items():
            last = runs[i - 1].get(key)
            if last is not None and last[0] == data:
                assert draw == last[1], (key, i)
            else:
                changed += 1
                assert draw > before, (key, i, draw, before)
        news = [draw for key, (data, draw) in run.items() if draw > before]
        assert len(set(news)) == len(news), (i, news)
    assert changed >= 5, changed  # the page's timeline and chart, twice, and KMP's
    # a new session (a browser reconnected to a restarted server) draws with numbers larger
    # than the old session's
    again = AppTest.from_file(str(APP), default_timeout=180)
    again.run()
    again.switch_page("pages/kcca.py")
    new = _draws(again.run())
    assert min(d for _, d in new.values()) > max(d for r in runs for _, d in r.values())
