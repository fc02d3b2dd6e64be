"""Every chart of the app goes through :func:`plotly_chart`: one plotly.js graph per key.

The charts are drawn by a small component of the app's own (Streamlit components v2:
JavaScript on the page itself, no iframe) with a plotly.js bundle of the app's own
(``static/plotly-app.min.js``, 1.1 MB: plotly.js's core with the four trace types this app
draws, scatter, bar, heatmap and contour; built by ``tools/plotly-bundle``), served by
Streamlit's static file serving,
instead of ``st.plotly_chart``, whose plotly.js is the full bundle (4.7 MB, every trace type
and map): starting that bundle was the largest single item of a first visit (about 0.6 s of
the browser's main thread). The bundle is requested by :mod:`pages.common.fit`'s component,
the first element of every run (Home included), so it loads while the page computes or while
Home is read.

A chart keeps its graph for as long as its key is on the page: a new figure of the same
shape (a slider notch, a new data set) is drawn into it with ``Plotly.react``, which updates
the graph in place, where ``st.plotly_chart`` mounted a new element and drew it from scratch;
a figure of another shape (a phone's layout after the wide one) gets a new graph. The graph
is computed again only when its data changed (:func:`data_key`): a new Play speed redraws
the Play button, not the panels.
``tests/browser/test_browser_charts.py`` checks that the bundle is the plotly.js of the installed
plotly package, that it has every trace type the app's figures use and draws them as the
full bundle does, and that a chart page loads no other plotly.js.

:func:`mpcore.plots.react_ready` flattens each figure's template into its layout (plotly.js
then has no template to apply). The charts that used Streamlit's theme keep its look:
:data:`STREAMLIT_LOOK` is laid over their template, as Streamlit does in the browser.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

import numpy as np
import streamlit as st
from plotly.io.json import to_json_plotly

from mpcore.plots import react_ready

#: What Streamlit (1.67) lays over a chart's ``layout.template`` for ``theme="streamlit"``,
#: under this app's ``.streamlit/config.toml`` (light, base font 17 px, text #12110F), as
#: read from the browser. ``tests/browser/test_browser_charts.py`` reads it again from the running
#: Streamlit and fails if it has changed.
STREAMLIT_LOOK = {
    "font": {
        "color": "#808495",
        "family": "\"Source Sans\", sans-serif, \"Source Sans\", sans-serif",
        "size": 12.75,
        "weight": 400
    },
    "title": {
        "color": "#12110F",
        "subtitleColor": "#12110F",
        "font": {
            "family": "\"Source Sans\", sans-serif, \"Source Sans\", sans-serif",
            "size": 17,
            "color": "#12110F"
        },
        "pad": {
            "l": 4.25
        },
        "xanchor": "left",
        "x": 0
    },
    "legend": {
        "title": {
            "font": {
                "size": 12.75,
                "color": "#808495"
            },
            "side": "top"
        },
        "valign": "top",
        "bordercolor": "transparent",
        "borderwidth": 0,
        "font": {
            "size": 12.75,
            "color": "#262730"
        }
    },
    "paper_bgcolor": "#FFFFFF",
    "plot_bgcolor": "#FFFFFF",
    "yaxis": {
        "ticklabelposition": "outside",
        "zerolinecolor": "#e6eaf1",
        "title": {
            "font": {
                "color": "#808495",
                "size": 14.875
            },
            "standoff": 25.5
        },
        "tickcolor": "#e6eaf1",
        "tickfont": {
            "color": "#808495",
            "size": 12.75
        },
        "gridcolor": "#e6eaf1",
        "minor": {
            "gridcolor": "#e6eaf1"
        },
        "automargin": True
    },
    "xaxis": {
        "zerolinecolor": "#e6eaf1",
        "gridcolor": "#e6eaf1",
        "showgrid": False,
        "tickfont": {
            "color": "#808495",
            "size": 12.75
        },
        "tickcolor": "#e6eaf1",
        "title": {
            "font": {
                "color": "#808495",
                "size": 14.875
            },
            "standoff": 21.25
        },
        "minor": {
            "gridcolor": "#e6eaf1"
        },
        "zeroline": False,
        "automargin": True,
        "rangeselector": {
            "bgcolor": "#FFFFFF",
            "bordercolor": "#e6eaf1",
            "borderwidth": 1,
            "x": 0
        }
    },
    "margin": {
        "pad": 8.5,
        "r": 0,
        "l": 0
    },
    "hoverlabel": {
        "bgcolor": "#FFFFFF",
        "bordercolor": "#DCD8D4",
        "font": {
            "color": "#808495",
            "family": "\"Source Sans\", sans-serif, \"Source Sans\", sans-serif",
            "size": 12.75
        }
    },
    "coloraxis": {
        "colorbar": {
            "thickness": 16,
            "xpad": 25.5,
            "ticklabelposition": "outside",
            "outlinecolor": "transparent",
            "outlinewidth": 8,
            "len": 0.75,
            "y": 0.5745,
            "title": {
                "font": {
                    "color": "#808495",
                    "size": 14.875
                }
            },
            "tickfont": {
                "color": "#808495",
                "size": 12.75
            }
        }
    },
    "ternary": {
        "gridcolor": "#808495",
        "bgcolor": "#FFFFFF",
        "title": {
            "font": {
                "family": "\"Source Sans\", sans-serif, \"Source Sans\", sans-serif",
                "size": 14.875
            }
        },
        "color": "#808495",
        "aaxis": {
            "gridcolor": "#808495",
            "linecolor": "#808495",
            "tickfont": {
                "family": "\"Source Sans\", sans-serif, \"Source Sans\", sans-serif",
                "size": 12.75
            }
        },
        "baxis": {
            "linecolor": "#808495",
            "gridcolor": "#808495",
            "tickfont": {
                "family": "\"Source Sans\", sans-serif, \"Source Sans\", sans-serif",
                "size": 12.75
            }
        },
        "caxis": {
            "linecolor": "#808495",
            "gridcolor": "#808495",
            "tickfont": {
                "family": "\"Source Sans\", sans-serif, \"Source Sans\", sans-serif",
                "size": 12.75
            }
        }
    }
}


def _bold_title(fig: dict) -> dict:
    """Streamlit's theme draws a layout's title in bold (``<b>``), an empty one too."""
    layout = fig.get("layout") or {}
    title = layout.get("title")
    if title is None:
        return fig
    title = {"text": title} if isinstance(title, str) else dict(title)
    text = title.get("text") if isinstance(title.get("text"), str) else ""
    return dict(fig, layout=dict(layout, title=dict(title, text=f"<b>{text}</b>")))



#: The app's plotly.js bundle, in the app's static folder (served at ``/app/static/``).
PLOTLY_BUNDLE = Path(__file__).resolve().parents[2] / "static" / "plotly-app.min.js"

#: Name of the chart component (each chart's element: ``.mp-chart``, its graph inside).
CHART_COMPONENT = "mp_plotly_chart"

#: JavaScript that defines ``window.__mpLoadPlotly(src)``: loads plotly.js once per page
#: (a promise of ``window.Plotly``); used by this module's component and by pages.common.fit.
LOAD_PLOTLY_JS = r"""
if (!window.__mpLoadPlotly) {
  window.__mpLoadPlotly = (src) => {
    if (!window.__mpPlotly) {
      window.__mpPlotly = new Promise((resolve, reject) => {
        if (window.Plotly) { resolve(window.Plotly); return; }
        const s = document.createElement("script");
        s.src = src;
        s.async = true;
        s.onload = () => resolve(window.Plotly);
        s.onerror = () => { window.__mpPlotly = null; reject(new Error(`plotly.js did not load from ${src}`)); };
        document.head.appendChild(s);
      });
    }
    return window.__mpPlotly;
  };
}
"""

#: A chart's element: its box (``.mp-chart``) and the graph plotly.js draws in (``.mp-graph``).
_BOX_HTML = '<div class="mp-chart" style="width: 100%"><div class="mp-graph"></div></div>'

_CHART_JS = LOAD_PLOTLY_JS + f"const BOX = {json.dumps(_BOX_HTML)};\n" + r"""
const DECODER = new TextDecoder();
// Streamlit's selection event for a point (as st.plotly_chart's on_select gives it)
const selected = (ev) => ({ points: ((ev && ev.points) || []).map((p) => {
  const out = { curve_number: p.curveNumber, point_number: p.pointNumber,
                point_index: p.pointIndex, x: p.x, y: p.y };
  if (p.z !== undefined) out.z = p.z;
  if (p.customdata !== undefined) out.customdata = p.customdata;
  if (p.data && p.data.legendgroup !== undefined) out.legendgroup = p.data.legendgroup;
  return out;
}) });

// what decides between redrawing a graph in place and drawing a new one: the page's layout
// (a phone's or a wide one), the figure's layout keys (its subplots, colour axes, menus),
// size, margins, legend and colour bars, and each trace's type and axes
const shape = (src) => {
  const fig = src.figure, layout = fig.layout || {};
  const bar = (c) => c && [c.orientation, c.x, c.y, c.len];
  return JSON.stringify([src.narrow, Object.keys(layout).sort(), layout.height, layout.width,
    layout.margin, layout.legend && layout.legend.orientation,
    (fig.data || []).map((t) => [t.type, t.mode, t.xaxis, t.yaxis, t.coloraxis,
                                  bar(t.colorbar), bar(t.marker && t.marker.colorbar)]),
    Object.keys(layout).filter((k) => k.startsWith("coloraxis"))
      .map((k) => bar(layout[k] && layout[k].colorbar)),
    (layout.sliders || []).length, (layout.updatemenus || []).length,
    (fig.frames || []).length > 0]);
};

export default function (component) {
  const { data, parentElement, setStateValue } = component;
  if (!data) return;
  const sent = typeof data === "string" ? data : DECODER.decode(data);
  // the figure's text without its draw number (pages.common.charts.draw_number, the last
  // field): data of an older run that arrives after a newer one's is not drawn
  const cut = sent.lastIndexOf(',"draw":');
  const text = cut < 0 ? sent : sent.slice(0, cut) + "}";
  const draw = cut < 0 ? 0 : parseInt(sent.slice(cut + 8), 10) || 0;
  // the box is the component's html (on the page from the element's mount, before this
  // runs: a chart not yet drawn is seen as one); the graph inside it
  if (!parentElement.querySelector(".mp-chart")) parentElement.insertAdjacentHTML("beforeend", BOX);
  const box = parentElement.querySelector(".mp-chart");
  if (!box.__mpSized) {
    box.__mpSized = true;
    // the graph follows its column's width (a sidebar opened or closed, a window resized)
    let width = 0, queued = false;
    new ResizeObserver(() => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        const w = Math.round(box.clientWidth), g = box.firstElementChild;
        if (w && w !== width && g && g._fullLayout && window.Plotly) window.Plotly.Plots.resize(g);
        width = w;
      });
    }).observe(box);
  }
  const first = box.firstElementChild;
  if (draw < (box.__mpDraw || 0)) return;
  box.__mpDraw = draw;
  first.__mpSet = setStateValue;
  // box.__mpDone: the draw number whose figure is on screen (drawn, or the same figure as
  // the one drawn before it): what the benchmarks wait for
  const done = (p) => Promise.resolve(p).then(() => {
    if (box.__mpDraw === draw) box.__mpDone = draw;
  }, () => {});
  if (first.__mpText === text) {  // the same figure again: nothing to draw
    done(box.__mpDrawing);
    return;
  }
  first.__mpText = text;
  const src = JSON.parse(text);
  box.__mpDrawing = window.__mpLoadPlotly(src.plotly).then((Plotly) => {
    let gd = box.firstElementChild;
    if (gd.__mpText !== text) return;  // a newer figure arrived while plotly.js loaded
    const fig = src.figure;
    const layout = fig.layout || {};
    // Plotly.react redraws a figure of the same shape in place (a slider notch, a new data
    // set); one of another shape (the phone's single panel after the wide row of panels)
    // gets a new graph, drawn from scratch: react leaves parts of the old layout behind
    const sig = shape(src);
    if (gd._fullLayout && gd.__mpShape !== sig) {
      const fresh = document.createElement("div");
      fresh.className = "mp-graph";
      fresh.__mpText = gd.__mpText;
      fresh.__mpSet = gd.__mpSet;
      Plotly.purge(gd);
      box.replaceChild(fresh, gd);
      gd = fresh;
    }
    gd.__mpShape = sig;
    // a new revision for new data only (react_ready's datarevision is 1): with the same
    // revision plotly.js takes the data as drawn and redraws the rest (a new Play speed)
    // without recomputing the graph
    const kept = !!gd.__mpRev && gd.__mpDataKey === src.data_key;
    if (!kept) {
      gd.__mpRev = (gd.__mpRev || 0) + 1;
      gd.__mpDataKey = src.data_key;
    }
    layout.datarevision = gd.__mpRev;
    if (src.select) layout.clickmode = layout.clickmode || "event+select";
    const config = Object.assign({ responsive: true }, src.config || {});
    // plotly.js compares the arguments of menu buttons and slider steps as String(args)
    // ("[object Object]"), so react alone redraws neither for a new Play speed (only a
    // recomputed graph redraws them): a changed menu or slider is given again, which draws it
    const menus = {};
    for (const name of ["updatemenus", "sliders"]) {
      const now = JSON.stringify(layout[name] || null);
      if (kept && layout[name] && gd.__mpMenus && gd.__mpMenus[name] !== now) menus[name] = layout[name];
      (gd.__mpMenus || (gd.__mpMenus = {}))[name] = now;
    }
    let drawn = Plotly.react(gd, { data: fig.data || [], layout, frames: fig.frames || [], config });
    if (Object.keys(menus).length) drawn = drawn.then(() => Plotly.relayout(gd, menus));
    if (src.select && !gd.__mpSelect) {
      gd.__mpSelect = true;
      drawn.then(() => {
        gd.on("plotly_selected", (ev) => gd.__mpSet && gd.__mpSet("selection", selected(ev)));
        gd.on("plotly_deselect", () => gd.__mpSet && gd.__mpSet("selection", { points: [] }));
      });
    }
    drawn.catch((err) => console.error("chart not drawn", err));
    return drawn;
  }, (err) => {
    box.firstElementChild.textContent = "This chart could not be drawn: plotly.js did not load. Reload the page.";
    console.error(err);
    throw err;
  });
  done(box.__mpDrawing);
}
"""

_CHART = st.components.v2.component(
    CHART_COMPONENT, js=_CHART_JS, isolate_styles=False,
    html=_BOX_HTML)


#: A preload hint for the bundle, in a hidden box: Markdown is drawn with the run's first
#: elements (its code is Streamlit's own, loaded with the page), while a component's script
#: runs only once React shows the page's elements, 0.5 s or more later on a first visit
#: (README, "Where a first visit's time goes"): the browser fetches, and compiles off the
#: main thread, the bundle in that time. Relative, so that it holds under
#: ``server.baseUrlPath`` as on the root (every page's address is one segment deep).
PRELOAD_HTML = ("<style>.st-key-mp_preload, :has(> .st-key-mp_preload) { display: none; }</style>"
                f'<link rel="preload" href="app/static/{PLOTLY_BUNDLE.name}" as="script">')


def preload_plotly() -> None:
    """Ask the browser for plotly.js's bundle as soon as the run's first elements are drawn
    (call first in the sidebar, from app.py; hidden, it takes no room)."""
    with st.container(key="mp_preload"):
        st.markdown(PRELOAD_HTML, unsafe_allow_html=True)


def plotly_src() -> str:
    """The address of plotly.js's bundle on this server (under ``server.baseUrlPath``)."""
    base = (st.get_option("server.baseUrlPath") or "").strip("/")
    return f"{'/' + base if base else ''}/app/static/{PLOTLY_BUNDLE.name}"


def draw_number(key: str, data) -> int:
    """The number a component (of ``key``) sends with its ``data`` (the chart, timeline and
    fit components do): larger than any this session has drawn, unless ``data`` is what this
    component was sent last, which keeps its number.

    Streamlit runs a component's JavaScript once per new data, each time after importing its
    module. While the module first loads, two runs' data can arrive (a phone's first visit:
    the run that guessed a wide window, then the one the window's width started), and
    chromium may resolve the two imports in either order (measured: 19 of 200 pairs came
    back reversed). Each component keeps the data with the largest number it has seen, so
    the older run's data, arriving last, does not replace the newer. Unchanged data keeps its
    number because Streamlit runs a component's JavaScript again only for a changed JSON: a
    number new on every run made the timeline and fit components run on every run (KMP's
    lighter sliders took 20 to 60 ms longer). A number is the clock's time in microseconds
    (or one more than the last), so numbers never go back, even from one session to the
    next: a browser that reconnects to a restarted server gets a new session, and no
    component it still shows may refuse that session's data as older.
    """
    sig = hash(data if isinstance(data, bytes) else json.dumps(data, sort_keys=True, default=str))
    sent = st.session_state.setdefault("_mp_drawn", {})
    last = sent.get(key)
    if last is not None and last[0] == sig:
        return last[1]
    # the clock's microseconds, not a count from 1: a new session's numbers (a browser that
    # reconnected to a restarted server) are larger than its old session's
    n = max(int(st.session_state.get("_mp_draw", 0)) + 1, time.time_ns() // 1000)
    st.session_state["_mp_draw"] = n
    sent[key] = (sig, n)
    return n


class ChartEvent(dict):
    """A chart's selection, as ``st.plotly_chart(on_select="rerun")`` gives it:
    ``event.selection.points`` (or ``event["selection"]["points"]``)."""

    def __getattr__(self, name):
        try:
            value = self[name]
        except KeyError:
            raise AttributeError(name) from None
        return ChartEvent(value) if isinstance(value, dict) else value


def _layout_arrays(node):
    """The arrays in a layout that plotly.js takes as data (``tickvals``, ``ticktext``, a
    range, a typed array): lists of plain values and ``{"dtype", "bdata"}`` dicts, in the
    layout's order. Lists of objects (annotations, menus, slider steps) are walked, not
    taken: plotly.js compares those item by item (the arguments of menu buttons and slider
    steps excepted, which the component draws again when they change)."""
    if isinstance(node, np.ndarray):
        yield node
    elif isinstance(node, dict):
        if "bdata" in node:
            yield node
            return
        for value in node.values():
            yield from _layout_arrays(value)
    elif isinstance(node, (list, tuple)):
        if all(not isinstance(v, (dict, list, tuple, np.ndarray)) for v in node):
            yield node
        else:
            for value in node:
                yield from _layout_arrays(value)


def data_key(parts: dict[str, str], layout) -> str:
    """What tells the chart component that a figure's data changed: a digest of its traces'
    and frames' JSON (``parts``, as sent) and of its layout's data arrays.

    plotly.js recomputes a graph (``gd.calcdata``) when ``layout.datarevision`` changes, and
    with the same revision takes every data array as unchanged; the component gives a new
    revision only to a new key. A figure whose data did not change (a new Play speed is a
    new argument of its Play button) is then redrawn without being recomputed: 11 to 18 ms
    of the browser's main thread against 46 to 102 ms (benchmarks/results_pages.md)."""
    digest = hashlib.blake2b(digest_size=16)
    for name in ("data", "frames"):
        digest.update(parts.get(name, "null").encode())
        digest.update(b"\0")
    digest.update(to_json_plotly(list(_layout_arrays(layout))).encode())
    return digest.hexdigest()


def chart_payload(fig: dict, *, config: dict | None = None, select: bool = False,
                  narrow: bool = False) -> bytes:
    """What the chart component is sent: the figure's JSON (as ``st.plotly_chart`` writes
    it, typed arrays and all), its plotly.js config, whether clicks select, whether the page
    is laid out for a phone, where plotly.js is, and the figure's :func:`data_key`."""
    figure = fig if isinstance(fig, dict) else fig.to_dict()
    # as plotly.io.to_json writes a figure (the same bytes: its traces without a uid), each
    # part written once; the app's figures have no uid, so their traces are not copied
    if any("uid" in t for t in figure.get("data") or ()):
        figure = dict(figure, data=[{k: v for k, v in t.items() if k != "uid"}
                                    for t in figure["data"]])
    parts = {name: to_json_plotly(value) for name, value in figure.items()}
    body = "{" + ",".join(f"{json.dumps(name)}:{text}" for name, text in parts.items()) + "}"
    head = json.dumps({"config": config or {}, "select": bool(select), "narrow": bool(narrow),
                       "plotly": plotly_src(), "data_key": data_key(parts, figure.get("layout"))})
    return ('{"figure":' + body + "," + head[1:]).encode()


def plotly_chart(fig, *, key: str, streamlit_look: bool = False, config: dict | None = None,
                 on_select: str = "ignore", selection_mode=None):
    """Draw a figure of this app in the chart of ``key`` (see the module's docstring).

    ``fig``: a figure dict whose arrays are typed arrays (the app's cached figures), or a
    ``go.Figure``. ``streamlit_look``: look as ``theme="streamlit"`` made it
    (:data:`STREAMLIT_LOOK`, bold title); otherwise as ``theme=None``. ``config``: plotly.js's
    config. ``on_select="rerun"``: a click on a point selects it and reruns the page; the
    selection is returned (``event.selection.points``, as ``st.plotly_chart`` gives it;
    ``selection_mode`` is accepted for that signature: points are what is selected).
    Returns ``None`` otherwise.
    """
    if on_select not in ("ignore", "rerun"):
        raise ValueError(f"on_select must be 'ignore' or 'rerun', not {on_select!r}")
    d = fig if isinstance(fig, dict) else fig.to_dict()
    if streamlit_look:
        d = react_ready(_bold_title(d), overlay=STREAMLIT_LOOK)
    else:
        d = react_ready(d)
    select = on_select == "rerun"
    from .timeline import is_narrow  # (timeline's own imports reach this module)

    # the draw number goes last, outside what the browser compares to skip an unchanged figure
    payload = chart_payload(d, config=config, select=select, narrow=is_narrow())
    payload = payload[:-1] + b',"draw":%d}' % draw_number(key, payload)
    if not select:
        _CHART(data=payload, key=key)
        return None
    result = _CHART(data=payload, key=key, default={"selection": {"points": []}},
                    on_selection_change=lambda: None)
    selection = (result or {}).get("selection") or {"points": []}
    return ChartEvent(selection={"points": list(selection.get("points") or [])})
