"""The Learn page's figures of a page without steps (bounds, eigenvalues): the page's own
figures in the beat's state, each followed by what its colours, axes and markers mean."""

from __future__ import annotations

import streamlit as st

from .charts import plotly_chart
from .text import literal
from .phone import is_narrow


def show_page_figures(scene) -> None:
    """Draw a scene's figures (views.lesson_scene_bounds / _spectrum) and its caption."""
    with st.container(key="learn-figure"):
        for name, fig in scene.figures(narrow=is_narrow()):  # a phone: as the page lays out
            plotly_chart(fig, key=f"learn.fig.{name}", config={"displaylogo": False},
                         streamlit_look=True)
        st.caption(literal(scene.caption()))
    return None
