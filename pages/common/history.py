"""One browser-history entry per view a person saw settle.

Streamlit adds an entry for every address a run writes (``st.query_params``): every slider
notch passed while dragging, every Step of a play, the bare address of a page switch before
the page writes its view. This component (JavaScript on the page, no iframe) keeps an entry
only for a view that stayed on screen for :data:`SETTLE_MS`: a newer address replaces the
entry of a view shown for less. Back and Forward then step through views that were seen,
and the view Back lands on keeps its entry when the person changes something there.

:func:`history_start` goes before the page runs (it installs the rule as early as the page
allows); :func:`history_end` after it (the view is drawn: its time on screen starts).
"""

from __future__ import annotations

import streamlit as st

from .assets import asset

#: How long a view stays on screen before it gets an entry of its own.
SETTLE_MS = 1500

_COMPONENT = st.components.v2.component("mp_history", html="<span></span>",
                                        js=asset("history.js"))

#: Session key of the count of full runs (the end-of-run data changes with it).
_RUNS = "_history.runs"


def history_start():
    _COMPONENT(key="mp_history_start", data=dict(settle=SETTLE_MS))


def history_end():
    runs = st.session_state.get(_RUNS, 0) + 1
    st.session_state[_RUNS] = runs
    _COMPONENT(key="mp_history_end", data=dict(settle=SETTLE_MS, ended=runs))
