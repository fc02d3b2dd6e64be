"""This browser in a hall: its session keys, the process's hall, start and leave.

Shared by pages/common/hall_follow.py (the timer and status line), hall_join.py (the join
code, export, end) and hall_poll.py (the Learn page's polls).
"""

from __future__ import annotations

import streamlit as st

from hall.config import process_hall
from hall.store import HallUnavailable

from .state import HALL_FIELDS

__all__ = ["hall", "hall_context", "leave_hall", "reset_hall", "start_hall", "unavailable"]

# session keys
CTX = "hall.ctx"            # dict(room, key, me): this browser in its hall
CLAIM = "claim"             # in CTX: a lecturer key not checked yet (the store was down)
FOLLOWING = "hall.following"
VERSION = "hall.version"    # the version this page last acted on
VIEW = "hall.view"          # the HallView read at that version
PUBLISHED = "hall.published"
POLL_STATE = "hall.poll_state"
ERROR = "hall.error"
SHOW_JOIN = "hall.show_join"
SEEN = "hall.seen"          # (time, room, following) of this page's last presence mark
#: Whether a student's page was last drawn as following (its full run, hall_follow): its
#: watcher, whose requests tell the hall, and the Learn page's Back / Next and task box
DRAWN_FOLLOWING = "hall.watch_following"


def hall():
    return process_hall()


def hall_context() -> dict | None:
    """This browser in its hall: ``dict(room, key, me, lecturer, view)``, or None."""
    ctx = st.session_state.get(CTX)
    if not ctx or ctx.get(CLAIM):  # an unchecked key: the page works as without a hall
        return None
    return {**ctx, "lecturer": bool(ctx.get("key")), "view": st.session_state.get(VIEW)}


#: Set while this session's page shows "The hall is unavailable": the follow timer redraws
#: the whole page once the store answers again (the answer box comes back).
UNAVAILABLE = "hall.unavailable"


def unavailable():
    st.session_state[UNAVAILABLE] = True
    st.warning("The hall is unavailable (its store cannot be reached). This page works as "
               "without a hall; try again in a minute.", icon=":material/cloud_off:")


def start_hall(page: str):
    """A new session with this browser as its lecturer (a button's callback)."""
    ss = st.session_state
    try:
        started = hall().start()
    except HallUnavailable:
        ss[ERROR] = "unavailable"
        return
    reset_hall()
    ss[CTX] = dict(room=started.room, key=started.key, me=None)
    ss[SHOW_JOIN] = True
    st.query_params["hall"] = started.room
    st.query_params["hall_key"] = started.key
    st.query_params.pop("me", None)


def leave_hall():
    """Forget the hall in this browser (its address and session)."""
    reset_hall()
    for k in HALL_FIELDS:
        st.query_params.pop(k, None)


def reset_hall():
    ss = st.session_state
    for k in (CTX, FOLLOWING, VERSION, VIEW, PUBLISHED, POLL_STATE, ERROR, SHOW_JOIN, SEEN):
        ss.pop(k, None)


