"""Text that fits its box on every screen: equations scale down, labels wrap.

One small component (Streamlit components v2: JavaScript on the page itself, no
iframe), drawn once per run by app.py:

- every display equation (``st.latex``, ``$$...$$``) wider than its column is
  scaled down until it fits (never below 35% of its size), again whenever the
  window or the page changes, so nothing is cut off or needs a scroll bar;
- widget, metric and button labels wrap onto a second line instead of ending in "…"
  (Streamlit cuts them to one line), and a number in a Markdown table stays on one line;
- a figure left from the previous run while the page recomputes (Streamlit marks it
  ``data-stale``) carries a "Recomputing" label once the wait exceeds 0.8 s;
- plotly.js (:mod:`pages.common.charts`) starts loading at once: this is the first element of
  every run, Home's included, so the bundle loads while a page computes its figures or while
  Home is read;
- the window's width is reported to the page when it crosses
  :data:`pages.common.phone.NARROW` (on load, and after a resize), so every page, not
  only the animated ones, can lay its figures out for a phone (``is_narrow()``). Only a
  width on the other side of the limit than the one the page last drew for is reported
  (no rerun loop); the timeline component, which reports it too, and this one send one
  report between them.
"""

from __future__ import annotations

import json

import streamlit as st

from .assets import asset
from .charts import LOAD_PLOTLY_JS, draw_number, plotly_src
from .phone import NARROW, is_narrow, remember_width

#: Key (or start of the keys) of containers whose Markdown table holds labels a person or a
#: file chose (KMP's classes, from a CSV up to 20 digits, twice a row; a mixed dictionary's
#: kernel names): their text cells may break anywhere, so that the table fits a phone or a
#: narrow column; numbers (cells aligned right) and every other table break only at spaces.
LABEL_TABLE_KEY = "mp-label-table"

#: The component's script (``fit.js``) with its style sheet (``fit.css``) inside, which it
#: adds to the page's head (a component's own styles would stay in its shadow root).
_JS = LOAD_PLOTLY_JS + asset("fit.js").replace(
    "__FIT_CSS__", json.dumps(asset("fit.css"))).replace("LABEL_TABLE_KEY", LABEL_TABLE_KEY)

_COMPONENT = st.components.v2.component("mp_fit", html="<span></span>", js=_JS)


def fit_text():
    """Scale equations to their column and wrap labels, and learn whether the window is a
    phone's (call once per run, from app.py)."""
    def _on_vw():
        remember_width((st.session_state.get("mp_fit") or {}).get("vw"))

    data = dict(narrow=is_narrow(), narrowBelow=NARROW, plotly=plotly_src())
    _COMPONENT(key="mp_fit", data=dict(data, draw=draw_number("mp_fit", data)),
               on_vw_change=_on_vw)
