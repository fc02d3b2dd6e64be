"""A student's page waits on the hall's version over HTTP instead of running a timer.

Where the app is served with the hall's version route (``deploy/hall_app.py``, which
``deploy/serve.py`` runs; it sets ``MP_HALL_WATCH``), a student's page draws this small
component in its body, outside any fragment (``pages/common/hall_follow.py``), or on a
lesson's beat inside the beat's fragment (``learn_beat.followed_beat``). It asks
``GET /hall/version`` with the version the page acted on; the route answers when the
lecturer moves (``hall/version_wait.py``), and the watcher reports it: only then does
Streamlit run the page (or the beat) again, which follows the lecturer: on the Learn page
that one run draws the new beat (``hall_follow.adopt``). Between two moves the server runs
nothing for the student, where a timer ran a fragment every second: 200 phones' timers kept
about a core busy. Each request keeps the device present. After a report the watcher asks
nothing until the page's run draws it again (as the load test's students do,
``loadtest/version_poll.py``).
Without the route (``streamlit run app.py``) the pages keep their
``st.fragment(run_every=...)`` timers.
"""

from __future__ import annotations

import os

import streamlit as st

from hall.version_route import WATCH_ENV

from .assets import asset
from .hall_state import CTX, FOLLOWING, UNAVAILABLE, VERSION

__all__ = ["SEEN_EVERY", "TICK", "hall_watch", "watching"]

#: Seconds between two reads of the hall's version by a page's timer (a follower moves
#: within two), and before a watcher asks again after a failed request.
TICK = 1.0
#: Seconds between two presence marks of a student's page with a timer: the hall counts a
#: page present for ``hall.session.PRESENT_FOR`` seconds after its mark.
SEEN_EVERY = 3.0

#: Seconds after which a watcher reports a move again when the page did not run meanwhile
#: (its report lost with a dropped connection); until then it asks nothing.
RETRY_AFTER = 10.0

_COMPONENT = st.components.v2.component("mp_hall_watch", html="<span></span>",
                                        js=asset("hall_watch.js"))
_DRAWS = "hall.watch_draws"


def watching() -> bool:
    """Whether this process serves the version route (students' pages watch it)."""
    return bool(os.environ.get(WATCH_ENV))


def hall_watch() -> None:
    """The watcher of this student's page (none for a lecturer or without the route); call
    it outside any fragment, so that its report reruns the page, or in the one fragment
    whose run follows every move it reports (the Learn page's beat)."""
    ss = st.session_state
    ctx = ss.get(CTX) or {}
    if not watching() or not ctx.get("room") or ctx.get("key"):
        return
    draws = ss.get(_DRAWS, 0) + 1
    ss[_DRAWS] = draws
    following = bool(ss.get(FOLLOWING, True))
    _COMPONENT(key="hall.watch", on_moved_change=lambda: None, data=dict(
        url=os.environ[WATCH_ENV], room=ctx["room"], me=ctx.get("me") or "",
        following=following, version=ss.get(VERSION),
        stale=bool(ss.get(UNAVAILABLE)), everyMs=int(TICK * 1000),
        retryMs=int(RETRY_AFTER * 1000),
        draw=draws))
