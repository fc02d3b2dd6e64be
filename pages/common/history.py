"""One browser-history entry per view a person saw settle.

Streamlit adds an entry for every address a run writes (``st.query_params``): every slider
notch passed while dragging, every Step of a play, the bare address of a page switch before
the page writes its view. This component (JavaScript on the page, no iframe) keeps an entry
only for a view that stayed on screen for :data:`SETTLE_MS` before the person left it (a
click, a tap or a key, or the next full run): a newer address replaces the entry of a view
shown for less, however late a slow server writes that address. Back and Forward then step
through views that were seen, and the view Back lands on keeps its entry when the person
changes something there.

:func:`history_start` goes before the page runs (it installs the rule as early as the page
allows, and marks the start of each full run); :func:`history_end` after it (the view is
drawn: its time on screen starts).
"""

from __future__ import annotations

import streamlit as st

from .assets import asset

#: How long a view stays on screen before it gets an entry of its own.
SETTLE_MS = 1500

_COMPONENT = st.components.v2.component("mp_history", html="<span></span>",
                                        js=asset("history.js"))

#: Session key of the count of full runs (the start's and the end's data change with it).
_RUNS = "_history.runs"


def history_start():
    """Before the page: the run's number tells the browser a full run started (the person,
    or a play, left the view on screen)."""
    runs = st.session_state.get(_RUNS, 0) + 1
    st.session_state[_RUNS] = runs
    _COMPONENT(key="mp_history_start", data=dict(settle=SETTLE_MS, started=runs))


def history_end():
    """After the page: the run's view is drawn; its time on screen starts."""
    _COMPONENT(key="mp_history_end",
               data=dict(settle=SETTLE_MS, ended=st.session_state.get(_RUNS, 0)))
