"""Every chart of the app goes through :func:`plotly_chart`: one plotly.js graph per key.

The charts are drawn by a small component of the app's own (Streamlit components v2:
JavaScript on the page itself, no iframe) with a plotly.js bundle of the app's own
(``static/plotly-app.min.js``, 1.1 MB: plotly.js's core with the four trace types this app
draws, scatter, bar, heatmap and contour; built by ``tools/plotly-bundle``), served by
Streamlit's static file serving,
instead of ``st.plotly_chart``, whose plotly.js is the full bundle (4.7 MB, every trace type
and map): starting that bundle was the largest single item of a first visit's work on the
browser's main thread. The bundle is requested by :mod:`pages.common.fit`'s component,
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

Each figure is sent with its template, as plotly writes it (:func:`chart_figure`); the
charts that used Streamlit's theme keep its look: :data:`STREAMLIT_LOOK` is laid over their
template's layout, as Streamlit does in the browser. plotly.js compares a figure's template
and typed arrays by identity, so a redraw from new JSON would recompute the graph: the
component gives plotly.js the template it drew last when the new one is equal, and the
displayed traces' arrays are sent as plain lists (trusted under ``layout.datarevision``).
The JavaScript is ``load_plotly.js`` and ``charts.js``, beside this module.
"""

from __future__ import annotations

import base64
import hashlib
import json
import time
from pathlib import Path

import numpy as np
import streamlit as st
from plotly.io.json import to_json_plotly

from mpcore.plots import deep_merge

from .assets import asset
from .phone import is_narrow

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


def _plain(obj):
    """Typed arrays and numpy arrays as (nested) lists, everything else as it is."""
    if isinstance(obj, dict) and "bdata" in obj and "dtype" in obj:
        a = np.frombuffer(base64.b64decode(obj["bdata"]), dtype=np.dtype(obj["dtype"]))
        if "shape" in obj:
            a = a.reshape([int(n) for n in str(obj["shape"]).split(",")])
        return a.tolist()
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_plain(v) for v in obj]
    return obj


def chart_figure(fig: dict, *, look: dict | None = None) -> dict:
    """Copy of a figure dict as the chart component is sent it: its template as plotly wrote
    it, with ``look`` (optional, a host theme's layout: :data:`STREAMLIT_LOOK`) laid over the
    template's layout as Streamlit's ``theme="streamlit"`` does (a figure without a template
    gets ``look`` as its template's layout), and the displayed traces' and the layout's
    arrays as plain lists. The frames are shared with the input (plotly.js adds them, it does
    not compare them); the input is not changed."""
    layout = dict(fig.get("layout") or {})
    if look:
        template = dict(layout.get("template") or {})
        template["layout"] = deep_merge(template.get("layout") or {}, look)
        layout["template"] = template
    template = layout.pop("template", None)
    out = dict(fig, data=[_plain(t) for t in fig.get("data") or []], layout=_plain(layout))
    if template is not None:
        out["layout"]["template"] = template
    return out


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
LOAD_PLOTLY_JS = asset("load_plotly.js")

#: A chart's element (chart_box.html): its box (``.mp-chart``) and the graph plotly.js draws
#: in (``.mp-graph``).
_BOX_HTML = asset("chart_box.html").strip()

_CHART_JS = LOAD_PLOTLY_JS + asset("charts.js").replace("__BOX_HTML__", json.dumps(_BOX_HTML))

_CHART = st.components.v2.component(
    CHART_COMPONENT, js=_CHART_JS, isolate_styles=False,
    html=_BOX_HTML)


#: A preload hint for the bundle, in a hidden box (``preload.css``): Markdown is drawn with
#: the run's first elements (its code is Streamlit's own, loaded with the page), while a
#: component's script runs only once React shows the page's elements, later on a first
#: visit: the browser fetches, and compiles off the main thread, the bundle in that time.
#: Relative, so that it holds under ``server.baseUrlPath`` as on the root (every page's
#: address is one segment deep).
PRELOAD_HTML = (f"<style>{asset('preload.css').strip()}</style>"
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
    chromium may resolve the two imports in either order. Each component keeps the data
    with the largest number it has seen, so the older run's data, arriving last, does not
    replace the newer. Unchanged data keeps its number because Streamlit runs a component's
    JavaScript again only for a changed JSON: a number new on every run would make the
    timeline and fit components run on every run. A number is the clock's time in microseconds
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
    new argument of its Play button) is then redrawn without being recomputed, a fraction of
    the browser's time a recomputation takes (benchmarks/results_pages.md)."""
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
    select = on_select == "rerun"
    payload = figure_payload(fig, streamlit_look=streamlit_look, config=config, select=select,
                             narrow=is_narrow())
    return draw_payload(payload, key=key, select=select)


def figure_payload(fig, *, streamlit_look: bool = False, config: dict | None = None,
                   select: bool = False, narrow: bool = False) -> bytes:
    """What :func:`plotly_chart` sends for ``fig`` (before the draw number): the same bytes
    for the same figure and arguments, so a cache may keep them for every session."""
    d = fig if isinstance(fig, dict) else fig.to_dict()
    if streamlit_look:
        d = chart_figure(_bold_title(d), look=STREAMLIT_LOOK)
    else:
        d = chart_figure(d)
    return chart_payload(d, config=config, select=select, narrow=narrow)


def draw_payload(payload: bytes, *, key: str, select: bool = False):
    """Draw a :func:`figure_payload` in the chart of ``key`` (``select`` as it was made
    with); returns the selection as :func:`plotly_chart` does."""
    # the draw number goes last, outside what the browser compares to skip an unchanged figure
    payload = payload[:-1] + b',"draw":%d}' % draw_number(key, payload)
    if not select:
        _CHART(data=payload, key=key)
        return None
    result = _CHART(data=payload, key=key, default={"selection": {"points": []}},
                    on_selection_change=lambda: None)
    selection = (result or {}).get("selection") or {"points": []}
    return ChartEvent(selection={"points": list(selection.get("points") or [])})
