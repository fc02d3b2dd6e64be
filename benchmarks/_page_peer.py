"""The page benchmark's peer: Streamlit alone, served the same way as the app, drawing a
title, a title and one small plotly chart, or a slider and one chart (bench_pages.py gives
every page's times also as a ratio to it)."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from browser_util import StreamlitServer

#: The peer: Streamlit alone, served the same way (this repository's .streamlit/config.toml),
#: a title and nothing else, or a title and one small plotly chart. What no page of the app
#: can beat, whatever it draws. The chart is drawn once at the app's root address and once at
#: a page's own address (``/chart``), as every page of the app but Home is reached: there
#: Streamlit's front end first looks for the server under the page's path
#: (``/chart/_stcore/health``), is refused, and tries the root after a short pause.
FLOOR_APP = """
import plotly.graph_objects as go
import streamlit as st

st.set_page_config(page_title="Streamlit alone", layout="wide")


def chart(n=50):
    x = list(range(n))
    st.plotly_chart(go.Figure(go.Scatter(x=x, y=[v * v for v in x])), theme=None)


def home():
    st.title("Streamlit alone")
    if st.query_params.get("slider") == "1":
        chart(st.sidebar.slider("Points", 10, 500, 50))
    elif st.query_params.get("chart") == "1":
        chart()


def chart_page():
    st.title("Streamlit alone")
    chart()


st.navigation([st.Page(home, title="Streamlit alone", default=True),
               st.Page(chart_page, title="Streamlit alone: chart", url_path="chart")],
              position="hidden").run()
"""


class FloorPage:
    """A page of :data:`FLOOR_APP` (same interface as browser_util.AppPage for the table):
    a title, with one chart if ``chart``; at the root address, or at ``/chart``."""

    def __init__(self, title: str, chart: bool, at_path: bool = False):
        self.title, self._chart, self._at_path = title, chart, at_path
        self.name = "floor-chart-path" if at_path else "floor-chart" if chart else "floor"

    def url(self, base: str) -> str:
        return f"{base}/chart" if self._at_path else f"{base}/?chart={int(self._chart)}"


#: The peer of a control change: Streamlit alone with a slider in the sidebar and one small
#: plotly chart of as many points; a notch is one script run and one new figure drawn.
FLOOR_SLIDER = ("Streamlit alone: a slider and one plotly chart (the peer)",
                lambda base: f"{base}/?slider=1")

FLOORS = (FloorPage("Streamlit alone: a title", False),
          FloorPage("Streamlit alone: a title and one plotly chart", True),
          FloorPage("Streamlit alone: a title and one plotly chart, at a page's address "
                    "(/chart)", True, at_path=True))


class PeerBeside(NamedTuple):
    """The peer's slider notch measured just before a page's controls: the 1-min load
    average as it started and its median [s]."""

    load: float
    notch: float


def floor_server(tmp: Path, root: Path) -> StreamlitServer:
    """Streamlit serving :data:`FLOOR_APP` from ``tmp`` with ``root``'s config."""
    import shutil

    (tmp / ".streamlit").mkdir(parents=True, exist_ok=True)
    shutil.copy(root / ".streamlit" / "config.toml", tmp / ".streamlit" / "config.toml")
    (tmp / "app.py").write_text(FLOOR_APP, encoding="utf-8")
    return StreamlitServer(cwd=tmp).start()

