"""A lesson task as the hall's poll, on the Learn page.

The lecturer opens a beat's task (answer type point, k or option) to the hall: a
:class:`hall.polls.PollSpec` from the question's own ``ask`` in the beat's scene. Students
answer on their phones (tap a point or type its number, a k slider, options) with Send,
changeable until the poll closes. The lecturer's page shows the count and a heat map or a
histogram live (a fragment reading the tally every second); Close, then Reveal: the answer
and which answers were right come from the question's ``check`` on the lecturer's scene,
exactly as a student's answer is scored in a lesson.
"""

from __future__ import annotations

import streamlit as st

from hall.polls import PollSpec
from hall.session import Forbidden
from hall.store import HallUnavailable
from views import lesson_questions

from .cached.shared import shared_cache
from .charts import draw_payload, figure_payload
from .hall_figures import HEAT_CAPTION, HIST_CAPTION, heat_figure, histogram_figure, points_2d
from .hall_state import VERSION, hall, hall_context, unavailable
from .point_input import clear_point, point_input
from .learn_ui import asked, beat_key, feedback, scene_of
from .lesson_file import Beat, Lesson
from .phone import is_narrow
from .text import literal

__all__ = ["POLLABLE", "hall_poll_prepare", "hall_task", "poll_spec", "pollable"]

#: The answer types a poll takes (a typed number or an observe task is not polled).
POLLABLE = ("point", "k", "option")
LIVE_TICK = 1.0
SENT = "hall.sent"
#: This device's answer and score as last read: {"poll", "version", "mine", "score"}. A
#: student's timer redraws the poll's box every second; only a new version of the hall (a
#: poll opened, closed, revealed) or this page's own Send changes them, so a tick reads
#: neither from the store.
MINE = "hall.mine"
CHART_CONFIG = {"displaylogo": False, "displayModeBar": False}


def _questions(beat: Beat) -> list[str]:
    names = [beat.task.question] if beat.task is not None else list(beat.check)
    return [n for n in names if lesson_questions.get(n).answer in POLLABLE]


def pollable(beat: Beat) -> bool:
    """Whether the hall can poll one of this beat's questions."""
    return bool(_questions(beat))


def poll_spec(lesson: Lesson, beat: Beat, name: str) -> PollSpec:
    """The poll of question ``name`` in this beat (its range from the question's ask)."""
    q = lesson_questions.get(name)
    a = asked(beat, name)
    prompt = (beat.task.prompt if beat.task is not None and beat.task.question == name
              and beat.task.prompt else a.text) or q.summary
    common = dict(kind=q.answer, prompt=str(prompt)[:500], lesson=lesson.id,
                  beat=beat.number, question=name)
    if q.answer == "point":
        return PollSpec(n=int(scene_of(beat).m), **common)
    if q.answer == "k":
        return PollSpec(lo=int(a.lo), hi=int(max(a.hi, a.lo + 1)), **common)
    return PollSpec(options=tuple(str(o)[:500] for o in a.options), **common)


def _typed(beat: Beat, name: str, value: str):
    """A stored answer (text) as the question's check takes it."""
    q = lesson_questions.get(name)
    if q.answer in ("point", "k"):
        return int(value)
    for o in asked(beat, name).options:
        if str(o) == value:
            return o
    return value


def _right_value(beat: Beat, name: str):
    return lesson_questions.get(name).right(scene_of(beat))


def _shown(spec: PollSpec, value) -> str:
    return f"point {value}" if spec.kind == "point" else (
        f"k = {value}" if spec.kind == "k" else str(value))


def _this_poll(lesson: Lesson, beat: Beat, view):
    """The hall's current poll if it is one of this beat's questions, else None."""
    if view is None or view.poll is None or view.ended:
        return None
    p = view.poll
    if p.lesson == lesson.id and p.beat == beat.number and p.question in _questions(beat):
        return p
    return None


def hall_poll_prepare(lesson: Lesson, beat: Beat, answer_key):
    """After a reveal, the beat's figure and feedback show the answer: the question counts as
    answered (a student's own answer, else the algorithm's)."""
    ctx = hall_context()
    if ctx is None:
        return
    view = ctx["view"]
    spec = _this_poll(lesson, beat, view)
    if spec is None or not view.reveal:
        return
    key = answer_key(lesson, beat, spec.question)
    mark = f"hall.revealed.{view.poll_id}"
    if st.session_state.get(mark):
        return
    st.session_state[mark] = True
    value = None
    if not ctx["lecturer"]:
        try:
            mine = hall().mine(ctx["room"], ctx["me"], view.poll_id)
        except HallUnavailable:
            mine = None
        value = _typed(beat, spec.question, mine) if mine is not None else None
    st.session_state[key] = value if value is not None else _right_value(beat, spec.question)


def hall_task(lesson: Lesson, beat: Beat, clicked) -> bool:
    """The hall's part of a beat's task; True when it replaces the beat's own task box."""
    ctx = hall_context()
    if ctx is None or ctx["view"] is None or ctx["view"].ended:
        return False
    names = _questions(beat)
    if not names:
        return False
    spec = _this_poll(lesson, beat, ctx["view"])
    try:
        if ctx["lecturer"]:
            return _lecturer(lesson, beat, ctx, spec, names)
        if spec is None:
            return False
        return _student(beat, ctx, spec, clicked)
    except HallUnavailable:
        unavailable()
        return False


# ---------------------------------------------------------------- the lecturer


def _act(fn, *args):
    """A lecturer's button: the hall's action, then a fresh read of the hall."""
    try:
        fn(*args)
    except (HallUnavailable, Forbidden, ValueError) as exc:
        st.session_state["hall.poll.error"] = str(exc)[:200]
    st.session_state[VERSION] = None


def _open(lesson, beat, name):
    ctx = hall_context()
    st.session_state.pop(f"hall.revealed.{(ctx['view'].poll_id or '')}", None)
    _act(hall().open_poll, ctx["room"], ctx["key"], poll_spec(lesson, beat, name))


def _close():
    ctx = hall_context()
    _act(hall().close_poll, ctx["room"], ctx["key"])


def _reveal(beat, name, spec):
    ctx = hall_context()
    right = _right_value(beat, name)
    _act(hall().reveal, ctx["room"], ctx["key"], _shown(spec, right),
         lambda v: feedback(beat, name, _typed(beat, name, v))[0])


def _lecturer(lesson, beat, ctx, spec, names) -> bool:
    err = st.session_state.pop("hall.poll.error", None)
    if err:
        st.error(literal(f"The hall refused: {err}"))
    view = ctx["view"]
    if spec is None:
        with st.container(border=True, key="hall-poll-open"):
            for name in names:
                key = "hall.poll.open" if len(names) == 1 else f"hall.poll.open.{name}"
                label = "Open this task to the hall" if len(names) == 1 else \
                    f"Open question {list(beat.check).index(name) + 1} to the hall"
                st.button(label, key=key, on_click=_open, args=(lesson, beat, name),
                          type="primary", icon=":material/how_to_vote:",
                          help="Students answer on their phones; you see the answers live "
                               "and reveal when you are ready.")
            if view.poll is not None and view.open:
                st.caption("Opening it closes the poll open on another beat.")
        return False
    name = spec.question
    with st.container(border=True, key="hall-poll"):
        st.markdown(f"**Hall poll:** {literal(spec.prompt)}")
        if view.open:
            _live(beat, spec, view.poll_id)
            c1, c2 = st.columns(2)
            c1.button("Close the poll", key="hall.poll.close", on_click=_close,
                      icon=":material/lock:", use_container_width=True)
            c2.button("Reveal the answer", key="hall.poll.reveal", on_click=_reveal,
                      args=(beat, name, spec), type="primary", icon=":material/visibility:",
                      use_container_width=True)
        elif not view.reveal:
            _results(beat, spec, view.poll_id, None)
            st.caption("The poll is closed.")
            st.button("Reveal the answer", key="hall.poll.reveal", on_click=_reveal,
                      args=(beat, name, spec), type="primary", icon=":material/visibility:")
        else:
            rev = view.reveal
            with st.container(key="hall-reveal"):
                st.markdown(f"**The answer: {literal(rev['answer'])}**")
                st.markdown(f"**{rev['n_right']} of {rev['n']} right "
                            f"({round(100 * rev['share'])} %)**")
                st.markdown(f"Hall score: {view.hall_right} of {view.hall_answers} answers "
                            f"right over {view.polls_done} polls")
            fb = feedback(beat, name, _right_value(beat, name))
            st.success(literal(fb[1]))
            _results(beat, spec, view.poll_id, rev)
            st.button("Open this task again", key="hall.poll.again", on_click=_open,
                      args=(lesson, beat, name), icon=":material/replay:")
    return beat.task is not None


@st.fragment(run_every=LIVE_TICK)
def _live(beat, spec, poll_id):
    """The count and the picture, read from the hall every second while the poll is open."""
    ctx = hall_context()
    if ctx is None:
        return
    try:
        tally = hall().tally(ctx["room"], poll_id)
        present, _ = hall().presence(ctx["room"])
    except HallUnavailable:
        unavailable()
        return
    with st.container(key="hall-count"):
        st.markdown(f"Answers: {sum(tally.values())}")
    st.caption(f"{present} in the hall now; answers can change until you close the poll.")
    _picture(beat, spec, tally, ())


def _results(beat, spec, poll_id, rev):
    ctx = hall_context()
    tally = hall().tally(ctx["room"], poll_id)
    with st.container(key="hall-count"):
        st.markdown(f"Answers: {sum(tally.values())}")
    _picture(beat, spec, tally, rev["right"] if rev else ())


def _picture(beat, spec, tally, right, key="hall.chart"):
    counts = tuple(sorted((str(v), int(n)) for v, n in tally.items()))
    right = tuple(sorted(str(v) for v in right))
    if spec.kind == "point":
        draw_payload(_heat_payload(beat_key(beat), counts, right, is_narrow()), key=key)
        st.caption(HEAT_CAPTION)
    else:
        draw_payload(_histogram_payload(tuple(spec.values()), counts, right,
                                        "k" if spec.kind == "k" else "option", is_narrow()),
                     key=key)
        st.caption(HIST_CAPTION)


# the projector's live picture, redrawn every second while a poll is open: made again only
# when the tally changed (a figure and its JSON cost more than the rest of the count's run)
@shared_cache(64)
def _heat_payload(key: tuple, counts: tuple, right: tuple, narrow: bool) -> bytes:
    from .learn_chart import beat_scene

    pts, labels = points_2d(beat_scene(*key))
    fig = heat_figure(pts, {int(v): n for v, n in counts}, right=[int(v) for v in right],
                      axis_labels=labels)
    return figure_payload(fig, config=CHART_CONFIG, narrow=narrow)


@shared_cache(64)
def _histogram_payload(values: tuple, counts: tuple, right: tuple, xlabel: str,
                       narrow: bool) -> bytes:
    fig = histogram_figure(list(values), dict(counts), right=right, xlabel=xlabel)
    return figure_payload(fig, config=CHART_CONFIG, narrow=narrow)


# ---------------------------------------------------------------- a student


def _send(spec, poll_id, wkey):
    ctx = hall_context()
    value = st.session_state.get(wkey)
    if value is None:
        st.session_state[SENT] = dict(poll=poll_id, error="Choose an answer first.")
        return
    try:
        stored = hall().answer(ctx["room"], ctx["me"], poll_id, value)
        st.session_state[SENT] = dict(poll=poll_id, value=stored)
        mine = st.session_state.get(MINE)
        if mine and mine["poll"] == poll_id:
            st.session_state[MINE] = {**mine, "mine": stored}
    except HallUnavailable:
        st.session_state[SENT] = dict(poll=poll_id, error="The hall is unavailable: send "
                                      "again in a moment.")
    except ValueError as exc:
        st.session_state[SENT] = dict(poll=poll_id, error=str(exc)[:200])


def _mine(h, room, me, view) -> dict:
    """This device's answer to the hall's poll and its score (see :data:`MINE`)."""
    ss = st.session_state
    got, version = ss.get(MINE), ss.get(VERSION)
    if got is None or version is None or (got["poll"], got["version"]) != (view.poll_id,
                                                                        version):
        got = dict(poll=view.poll_id, version=version, mine=h.mine(room, me, view.poll_id),
                   score=h.my_score(room, me) if view.reveal else None)
        ss[MINE] = got
    return got


def _student(beat, ctx, spec, clicked) -> bool:
    view = ctx["view"]
    h, room, me, pid = hall(), ctx["room"], ctx["me"], view.poll_id
    ss = st.session_state
    got = _mine(h, room, me, view)
    mine = got["mine"]
    with st.container(border=True, key="hall-answer"):
        st.caption("Hall poll")
        st.markdown(f"**{literal(spec.prompt)}**")
        if view.open:
            if ss.get("hall.answer.poll") != pid:  # a new poll: no answer carried over
                for k in ("hall.answer.k", "hall.answer.option", SENT):
                    ss.pop(k, None)
                clear_point("hall.answer.point")
                ss["hall.answer.poll"] = pid
            wkey = f"hall.answer.{spec.kind}"
            if spec.kind == "point":
                wkey = point_input("Tap a point in the figure, or type its number", wkey,
                                   clicked, min_value=0, max_value=spec.n - 1)
            elif spec.kind == "k":
                st.slider("k", min_value=spec.lo, max_value=spec.hi, value=spec.lo, key=wkey)
            else:
                st.radio("Your answer", spec.options, index=None, key=wkey, format_func=literal)
            st.button("Send", key="hall.answer.send", on_click=_send, args=(spec, pid, wkey),
                      type="primary", icon=":material/send:", use_container_width=True)
            sent = ss.get(SENT)
            if sent and sent.get("poll") == pid and sent.get("error"):
                st.error(literal(sent["error"]))
            if mine is not None:
                st.success("Answer sent (you can change it until the poll closes)")
                st.markdown(f"Your answer: {literal(_shown(spec, mine))}")
        elif not view.reveal:
            st.info("The poll is closed.")
            st.markdown(f"Your answer: {literal(_shown(spec, mine))}" if mine is not None
                        else "You did not answer this poll.")
        else:
            rev = view.reveal
            st.markdown(f"**The answer: {literal(rev['answer'])}**")
            if mine is None:
                st.info("You did not answer this poll.")
            else:
                right = mine in rev["right"]
                (st.success if right else st.warning)(
                    ("Yours was right." if right else "Yours was not right.")
                    + f" Your answer: {literal(_shown(spec, mine))}")
                fb = feedback(beat, spec.question, _typed(beat, spec.question, mine))
                st.caption(literal(fb[1]))
            st.markdown(f"{rev['n_right']} of {rev['n']} in the hall had it "
                        f"({round(100 * rev['share'])} %).")
            st.markdown(f"**Your score: {got['score']} of {view.polls_done}**")
    return beat.task is not None
