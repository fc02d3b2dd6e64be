"""The hall on every page: who this browser is in it, the status line, and the follow timer.

Every page calls :func:`hall_follow` with its name (after ``sync`` on a data page, so the
address it reads is the complete view). When the address or the session names a hall:

- the lecturer's browser (its address holds ``hall_key``, checked by the store) publishes
  its page and address with ``Hall.move`` whenever they change;
- a student's browser gets an anonymous device id (``me`` in the address, kept across
  reloads and processes) and, while following, is sent to the lecturer's page and address;
- a fragment that reruns every :data:`TICK` seconds reads ``Hall.version`` (one cheap store
  read) and reads the rest (``Hall.view``) only when it changed. Where the app is served
  with the hall's version route (``deploy/hall_app.py``), a student's page has no timer:
  its watcher (``hall_watch.py``) asks the route and reruns the page only when the hall moved.

Without a hall, the sidebar offers "Start a hall session". The hall unavailable (its store
down) is a warning; the page works as without a hall. The texts a load test reads are in
the notes' HALL_UI_CONTRACT.md and tests/pages/test_hall_*.py.
"""

from __future__ import annotations

import time

import streamlit as st

from hall.session import Forbidden, new_device, valid_device, valid_room
from hall.store import HallUnavailable

from .assets import asset
from .hall_join import lecturer_box, lecturer_join_panel
from .hall_watch import SEEN_EVERY, TICK, hall_watch, watching
from .hall_state import (
    CLAIM,
    CTX,
    DRAWN_FOLLOWING,
    ERROR,
    FOLLOWING,
    POLL_STATE,
    PUBLISHED,
    SEEN,
    SHOW_JOIN,
    UNAVAILABLE,
    VERSION,
    VIEW,
    hall,
    hall_context,
    leave_hall,
    reset_hall,
    start_hall,
    unavailable,
)
from .state import HALL_FIELDS
from .text import literal

__all__ = ["PAGES", "TICK", "adopt", "follow_tick", "follows_lecturer", "hall_follow",
           "in_fragment_run", "watched"]

#: The hall's page names and the scripts app.py routes them to.
PAGES = {"learn": "pages/learn.py", "home": "pages/overview.py", "skpca": "pages/skpca.py",
         "kmp": "pages/kmp.py", "spectrum": "pages/spectrum.py", "kcca": "pages/kcca.py",
         "bounds": "pages/bounds.py", "reproduce": "pages/reproduce.py"}
#: Address fields of a lecturer's page that followers do not take (the projector's style).
PRIVATE = frozenset(HALL_FIELDS) | {"present"}
FORGED = "hall.forged"
HALL_STYLE = f"<style>\n{asset('hall.css')}</style>"

def _position(page: str) -> tuple[str, dict]:
    """This page and its address, without the hall's and the projector's own fields."""
    q = {k: st.query_params.get_all(k)[-1] for k in st.query_params.keys()
         if k not in PRIVATE}
    return page, q


def _identify() -> dict | None:
    """Who this browser is in the hall its address (or session) names; the address is
    completed (room, and the device id or the lecturer's key)."""
    ss = st.session_state
    qp = st.query_params
    ctx = ss.get(CTX)
    room = qp.get("hall")
    if room is None:
        if not ctx:
            return None
        room = ctx["room"]  # a sidebar link drops the address's query: the session keeps it
    elif not valid_room(room):
        st.error(literal(f"{room[:20]!r} is not a room code (six letters and digits, as the "
                         "lecturer shows them). Type it again on the Learn page."))
        return None
    if ctx is None or ctx["room"] != room:
        reset_hall()
        ctx = dict(room=room, key=None, me=None)
    key = qp.get("hall_key") or ctx.get("key")
    ctx.pop(CLAIM, None)
    if key and key != ctx.get("key"):
        try:
            ok = hall().is_lecturer(room, key)
        except HallUnavailable:
            ok = None
        if ok:
            ctx["key"] = key
        elif ok is None:
            # a key the store cannot check now (a reload while it is down): the page keeps
            # the key in its address and a timer (hall_follow: _tick), which reruns the page
            # once the store answers, and the key is checked then
            ctx[CLAIM] = key
            ss[CTX] = ctx
            return ctx
        else:
            ss[FORGED] = (f"This lecturer key is not valid for hall {room}: this page "
                          "follows the hall as a student's.")
            qp.pop("hall_key", None)
            key = None
    if ctx.get("key"):
        ctx["me"] = None
        qp.pop("me", None)
        if qp.get("hall_key") != ctx["key"]:
            qp["hall_key"] = ctx["key"]
    else:
        me = qp.get("me")
        if not valid_device(me):
            me = ctx.get("me") if valid_device(ctx.get("me")) else new_device()
        ctx["me"] = me
        if qp.get("me") != me:
            qp["me"] = me
    if qp.get("hall") != room:
        qp["hall"] = room
    ss[CTX] = ctx
    ss.setdefault(FOLLOWING, True)
    return ctx


# ---------------------------------------------------------------- the page's part


def hall_follow(page: str, *, timer_below: bool = False, watcher_below: bool = False
                ) -> dict | None:
    """The hall on this page (see the module's docstring); returns :func:`hall_context`.

    ``timer_below``: a student's timer is a fragment lower on the page (the Learn page's
    task box on a beat the hall can poll, which calls :func:`follow_tick`), so that one run
    a second redraws the box a poll's open, close and reveal change; the status line is then
    redrawn on the page's full runs and by its own buttons. ``watcher_below``: where this
    run makes the page a watched student's (:func:`watched`), the page draws the watcher
    lower down, in the fragment a move reruns (the Learn page's beat,
    ``learn_beat.followed_beat``), not here."""
    if page not in PAGES:
        raise ValueError(f"unknown page {page!r} (pages/common/hall_follow.py: PAGES)")
    ss = st.session_state
    if ss.pop(ERROR, None) == "unavailable":
        unavailable()
    ctx = _identify()
    if ss.get(FORGED):  # shown until a run of the page that did not move (following) ends
        st.error(literal(ss[FORGED]), icon=":material/key_off:")
    if ctx is None:
        with st.sidebar:
            st.button("Start a hall session", key="hall.start", on_click=start_hall,
                      args=(page,), icon=":material/groups:",
                      help="Teach the whole hall at once: students join with a room code or "
                           "a QR code, follow your page and answer the lesson's tasks on "
                           "their phones.")
        return None
    st.markdown(HALL_STYLE, unsafe_allow_html=True)  # only a hall's page has its parts
    student = _student(ctx)
    if student:  # what this run draws for the student's choice (see _student_tick)
        ss[DRAWN_FOLLOWING] = bool(ss.get(FOLLOWING, True))
    if student and watching():
        _status(page)
        if not watcher_below:
            hall_watch()  # outside any fragment: the hall's move reruns the whole page
    elif timer_below and student:
        _status(page)
    else:
        _tick(page)
    ss.pop(FORGED, None)
    ctx = hall_context()
    if ctx is not None and ctx["lecturer"]:
        lecturer_box(page)
        if ss.get(SHOW_JOIN):
            lecturer_join_panel(page)
    return ctx


@st.fragment(run_every=TICK)
def _tick(page: str):
    _follow(page)


@st.fragment
def _status(page: str):
    """The status line without a timer (the page's timer is lower down: follow_tick)."""
    _follow(page)


def _student(ctx: dict | None) -> bool:
    """Whether this browser is a student in its hall (not the lecturer, no key unchecked)."""
    return bool(ctx and not ctx.get("key") and not ctx.get(CLAIM))


def watched() -> bool:
    """Whether this page is a student's with a watcher (see :func:`hall_follow`)."""
    ctx = st.session_state.get(CTX)
    return _student(ctx) and watching()


def follows_lecturer() -> bool:
    """Whether this page is a student's that follows the lecturer in a hall going on (not
    ended, gone or unavailable): the lecturer turns its beats and opens its tasks to the hall
    (the Learn page draws no Back / Next for it)."""
    ss = st.session_state
    ctx, view = ss.get(CTX), ss.get(VIEW)
    return (_student(ctx) and bool(ss.get(FOLLOWING, True)) and view is not None
            and not view.ended and not ss.get(UNAVAILABLE))


def adopt(page: str) -> bool:
    """A following student's page takes the lecturer's address before it reads its own,
    when the lecturer moved on this same page: the run the move started draws the new view
    itself, with no second run through ``st.switch_page``; and when nothing moved but the
    run's address is older than the view the page took (a browser's request sent before
    it saw the move), so that the page never falls back a beat until the next move. Call
    it first on the page (the Learn page does, where a lecture moves beat by beat); a move
    to another page is left to :func:`hall_follow`. Returns whether the hall changed in a
    way this left to the page's full run (the lecturer on another page, the hall ended,
    gone or unavailable): the Learn page's beat fragment then reruns the page."""
    ss = st.session_state
    ctx = ss.get(CTX)
    if not _student(ctx) or not ss.get(FOLLOWING, True) \
            or st.query_params.get("hall", ctx["room"]) != ctx["room"]:
        return False
    room = ctx["room"]
    try:
        view = hall().view(room)  # one read: a move's runs are a hundred at once
    except HallUnavailable:
        return True  # hall_follow says so
    if view is None:
        return ss.get(VERSION) is not None
    if view.version == ss.get(VERSION):
        # nothing moved since this page took the lecturer's view, but this run's address
        # may be older than that view: a request the browser sent before it saw the move
        # (its timer's, a widget's) runs after the follow. The page shows the view still.
        if not view.ended and view.page == page:
            _go(view, room, ctx["me"], page)
        return False
    if view.ended or view.page != page:
        return True
    ss[VERSION], ss[VIEW] = view.version, view
    _go(view, room, ctx["me"], page)
    return False


def _go(view, room: str, me: str, page: str) -> None:
    """This page's address is the lecturer's view (``view`` on this same page)."""
    if (view.page, view.query) != _position(page):
        st.query_params.from_dict({**view.query, "hall": room, "me": me})


def follow_tick(page: str) -> None:
    """The follow timer's work in a fragment lower on the page (``timer_below``), on that
    fragment's own runs: one version read; when it changed, the view; a student's presence;
    a following student is sent where the lecturer moved. What the fragment cannot redraw
    (the status line: the hall ended, an explorer's note of an open poll, the store back
    after a failure) reruns the page."""
    ss = st.session_state
    ctx = ss.get(CTX)
    if not _student(ctx) or not in_fragment_run():  # only a student's task box has the timer
        return
    h, room = hall(), ctx["room"]
    try:
        version = h.version(room)
        if ss.pop(UNAVAILABLE, False) or version is None:
            st.rerun(scope="app")
        fresh = version != ss.get(VERSION) or ss.get(VIEW) is None
        if fresh:
            ss[VIEW] = h.view(room)
            ss[VERSION] = version
        view = ss[VIEW]
        if view.ended:
            st.rerun(scope="app")
        state, old = _poll_state(view), ss.get(POLL_STATE)
        ss[POLL_STATE] = state
        following = bool(ss.get(FOLLOWING, True))
        _mark_seen(h, room, ctx["me"], following)
        if following and fresh and (view.page, view.query) != _position(page) \
                and view.page in PAGES:
            st.switch_page(PAGES[view.page],
                           query_params={**view.query, "hall": room, "me": ctx["me"]})
        if not following and old is not None and old != state:
            st.rerun(scope="app")
    except HallUnavailable:
        unavailable()


def _follow(page: str):
    ss = st.session_state
    ctx = ss.get(CTX)
    if not ctx:
        return
    h, room = hall(), ctx["room"]
    try:
        version = h.version(room)
        if st.session_state.pop(UNAVAILABLE, False) and in_fragment_run():
            st.rerun(scope="app")  # the store is back: the page's hall parts too
        if ctx.get(CLAIM):  # the store failed on this run's key check: a later run checks
            unavailable()
            return
        if version is None:
            ss[VIEW] = ss[VERSION] = None  # a watcher then sees nothing new to report
            _gone(room)
            return
        fresh = version != ss.get(VERSION) or ss.get(VIEW) is None
        if fresh:
            ss[VIEW] = h.view(room)
            ss[VERSION] = version
        view = ss[VIEW]
        if ctx.get("key"):
            _lecturer_tick(h, ctx, page, view)
        else:
            _student_tick(h, ctx, page, view, fresh)
    except HallUnavailable:
        unavailable()


def _mark_seen(h, room: str, me: str, following: bool):
    """``Hall.seen`` at most every :data:`SEEN_EVERY` seconds, unless following changed.
    Where the page has a watcher, its requests keep the device present once a run marked
    it (``Hall.refresh``): a run then marks it only when it joined or changed whether it
    follows, not on each of the runs a lecture's moves start (a write to the store each)."""
    ss = st.session_state
    now = time.monotonic()
    last = ss.get(SEEN)
    if last and last[1:] == (room, following) and (
            watching() or 0 <= now - last[0] < SEEN_EVERY):
        return
    h.seen(room, me, following)
    ss[SEEN] = (now, room, following)


def _poll_state(view) -> tuple:
    return (view.poll_id, view.open, view.reveal is not None, view.ended)


def _lecturer_tick(h, ctx, page, view):
    ss = st.session_state
    room, key = ctx["room"], ctx["key"]
    if view.ended:
        _ended(room)
        return
    pos = _position(page)
    if ss.get(PUBLISHED) != pos and (view.page, view.query) != pos:
        try:
            h.move(room, key, *pos)
        except ValueError:
            pass  # an address the hall cannot carry (too long): followers stay where they are
        except Forbidden:
            ss[CTX] = {**ctx, "key": None}
            st.rerun(scope="app")
    ss[PUBLISHED] = pos
    present, following = h.presence(room)
    with st.container(key="hall-status", horizontal=True, vertical_alignment="center"):
        st.markdown(f"**Hall {room}: you are the lecturer** · {following} of {present} following")
        if not ss.get(SHOW_JOIN):
            st.button("Show the join code", key="hall.show", on_click=_show_join, args=(True,),
                      icon=":material/qr_code_2:")
    _track_poll(view)


def _track_poll(view):
    """The lecturer's page drawn again when the poll changed elsewhere (another tab)."""
    ss = st.session_state
    state = _poll_state(view)
    old = ss.get(POLL_STATE)
    ss[POLL_STATE] = state
    if old is not None and old != state and in_fragment_run():
        st.rerun(scope="app")


def in_fragment_run() -> bool:
    """Whether this run is the fragment's own (not the page's full run)."""
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    ctx = get_script_run_ctx()
    return bool(ctx and getattr(ctx, "fragment_ids_this_run", None))


def _show_join(on: bool):
    st.session_state[SHOW_JOIN] = on


def _student_tick(h, ctx, page, view, fresh):
    ss = st.session_state
    room, me = ctx["room"], ctx["me"]
    following = bool(ss.get(FOLLOWING, True))
    if view.ended:
        _ended(room)
        return
    _mark_seen(h, room, me, following)
    if following and fresh and (view.page, view.query) != _position(page) \
            and view.page in PAGES:
        st.switch_page(PAGES[view.page],
                       query_params={**view.query, "hall": room, "me": me})
    if in_fragment_run() and ss.get(DRAWN_FOLLOWING, following) != following:
        # "Explore on my own" or "Follow the lecturer" reran this status line alone: what
        # the page drew for the other choice stays wrong until the page runs (the watcher
        # would keep telling the hall the old choice; the Learn page's Back / Next)
        st.rerun(scope="app")
    with st.container(key="hall-status", horizontal=True, vertical_alignment="center"):
        if following:
            st.markdown(f"**Hall {room}: following the lecturer**")
            st.button("Explore on my own", key="hall.explore", on_click=_set_following,
                      args=(False,), icon=":material/explore:")
        else:
            st.markdown(f"**Hall {room}: exploring on your own**")
            st.button("Follow the lecturer", key="hall.follow", on_click=_set_following,
                      args=(True,), type="primary", icon=":material/directions_walk:")
    if not following and view.open:
        st.caption("A poll is open: follow the lecturer to answer it.")
    # a student's poll box is in the fragment of the page's timer (follow_tick): a poll's
    # change redraws nothing else of a student's page
    st.session_state[POLL_STATE] = _poll_state(view)


def _set_following(on: bool):
    ss = st.session_state
    ss[FOLLOWING] = on
    if on:
        ss[VERSION] = None  # read the lecturer's position again and go there


def _ended(room: str):
    with st.container(key="hall-status", horizontal=True, vertical_alignment="center"):
        st.markdown(f"**Hall {room}:** This hall session has ended.")
        st.button("Leave the hall", key="hall.leave", on_click=leave_hall)


def _gone(room: str):
    with st.container(key="hall-status", horizontal=True, vertical_alignment="center"):
        st.markdown(f"**No hall with the room code {room}** (it ended or expired).")
        st.button("Leave the hall", key="hall.leave", on_click=leave_hall)
