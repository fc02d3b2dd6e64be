"""Every chart of the app goes through :func:`plotly_chart`: drawn once per new figure.

Streamlit mounts a new chart, draws it, then hands plotly.js a JSON copy of the figure
with its chart theme applied, which plotly.js drew a second time from scratch: about
half of the time between a slider notch and the redrawn view on the animated pages.
:func:`mpcore.plots.react_ready` makes the copy one that plotly.js recognises as
unchanged; that needs ``theme=None``, because Streamlit's theme adds a template to every
copy. The charts that used Streamlit's theme keep its look: :data:`STREAMLIT_LOOK` is
laid over their template, as Streamlit does in the browser.
"""

from __future__ import annotations

import streamlit as st

from mpcore.plots import prevalidated, react_ready

#: What Streamlit (1.67) lays over a chart's ``layout.template`` for ``theme="streamlit"``,
#: under this app's ``.streamlit/config.toml`` (light, base font 17 px, text #12110F), as
#: read from the browser. ``tests/test_browser_charts.py`` reads it again from the running
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


def plotly_chart(fig, *, key: str, streamlit_look: bool = False, **kwargs):
    """``st.plotly_chart(fig, key=key, theme=None, **kwargs)`` for a figure of this app,
    made :func:`mpcore.plots.react_ready` (drawn once, not twice, when it is new).

    ``fig``: a figure dict whose arrays are typed arrays (the app's cached figures), or a
    ``go.Figure`` (also :func:`mpcore.plots.prevalidated`). ``streamlit_look``: look as
    ``theme="streamlit"`` made it (:data:`STREAMLIT_LOOK`, bold title); otherwise as
    ``theme=None``. Returns what ``st.plotly_chart`` returns (the selection event).
    """
    d = fig if isinstance(fig, dict) else fig.to_dict()
    if streamlit_look:
        d = react_ready(_bold_title(d), overlay=STREAMLIT_LOOK)
    else:
        d = react_ready(d)
    # a whole number of pixels wide: plotly.js measures the first drawing's width itself
    # (CSS rounds it to 3 decimals), Streamlit gives the exact one to the second; a chart
    # 556.671875 px wide was drawn twice for the 0.000125 px between them
    st.html("<style>[data-testid=stElementContainer]:has([data-testid=stPlotlyChart]) "
            "{ width: round(down, 100%, 1px) !important; }</style>")
    return st.plotly_chart(prevalidated(d, typed=True), key=key, theme=None, **kwargs)


#: Key of the hidden container of :func:`load_plotly_early` (its CSS class: st-key-<key>).
EARLY_KEY = "mp-plotly-early"


def load_plotly_early():
    """Have the browser fetch and start plotly.js at the start of a session's first run.

    Streamlit loads plotly.js (4.7 MB; about 0.6 s of the browser's main thread to start)
    only when a page's first chart arrives, after the page has computed it. An empty chart
    sent first, in a container that is never displayed, starts that load at once, while the
    server computes. Returns the chart's slot: on a chart page :func:`end_plotly_early` empties
    it at the end of the run, before plotly.js is ready, so it is normally never drawn; Home
    (app.py) keeps it, hidden, so that plotly.js loads while the student reads Home and the
    first page opened from there finds it ready. Later runs of the session (plotly.js loaded)
    send nothing and return ``None``.
    """
    if st.session_state.get(EARLY_KEY):
        return None
    st.session_state[EARLY_KEY] = True
    st.html(f"<style>.st-key-{EARLY_KEY} {{ display: none !important; }}</style>")
    with st.container(key=EARLY_KEY):
        slot = st.empty()
    slot.plotly_chart({"data": [{"type": "scatter", "x": [], "y": []}], "layout": {}},
                      theme=None, key=f"{EARLY_KEY}-chart")
    return slot


def end_plotly_early(slot) -> None:
    """Remove the empty chart :func:`load_plotly_early` sent (``None``: nothing to do)."""
    if slot is not None:
        slot.empty()
