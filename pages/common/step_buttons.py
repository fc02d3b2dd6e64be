"""⟲ Reset, ◀ Back, Step ▶ and Last ▶▶: the step buttons of an animated page's timeline.

Without JavaScript (AppTest) their callbacks move the page's step; in a browser the
timeline component (:mod:`pages.common.timeline`) answers their clicks first.
"""

from __future__ import annotations

import streamlit as st

from .phone import is_narrow
from .state import Schema
from .widgets import current, update

def step_buttons(schema: Schema, n_steps: int, *, wrap: bool = False):
    """⟲ Reset, ◀ Back, Step ▶ and ⏭ Last on the page's one timeline.

    ``wrap`` (and always on a phone): buttons as wide as their labels, in a row that wraps
    (for a narrow column); otherwise four equal columns."""
    def go(j):
        update(schema, j=min(max(j, 1), n_steps))

    def move(delta):
        go(current(schema)["j"] + delta)

    if wrap or is_narrow():  # as wide as their labels (a phone's columns would stack)
        row = st.container(horizontal=True, gap="small", key=f"{schema.page}-step-row")
        c0 = c1 = c2 = c3 = row
        width = "content"
    else:
        c0, c1, c2, c3 = st.columns(4)
        width = "stretch"
    c0.button("⟲ Reset", on_click=go, args=(1,), key=f"{schema.page}.reset_step",
              width=width, help="Back to step 1 (Home)")
    c1.button("◀ Back", on_click=move, args=(-1,), key=f"{schema.page}.back", width=width,
              help="One step back (←)")
    c2.button("Step ▶", on_click=move, args=(1,), key=f"{schema.page}.next", width=width,
              help="One step forward (→)")
    c3.button("Last ▶▶", on_click=go, args=(n_steps,), key=f"{schema.page}.last",
              width=width, help="The last step (End)")
