"""One beat of a lesson on the Learn page: the prose, the live figure, the task, Next/Back.

PhET's guided inquiry: a predict task holds the figure back (at the step before the one
asked about, or hidden) until the student answered; then the app runs the step or shows
the figure and explains, with the numbers of the algorithm, why the answer is right or
wrong. An observe task runs the step when asked. Answers live in the session, per beat.
"""

from __future__ import annotations

from contextlib import nullcontext

import streamlit as st

from views import lesson_questions
from views.lesson_question import Feedback

from .charts import draw_payload
from .learn_figures import show_page_figures
from .learn_ui import (
    PANELS_OF,
    _KEYS,
    all_lessons,
    beat_number,
    asked,
    beat_key,
    feedback,
    go,
    presentation,
    scene_of,
)
from .hall_follow import TICK, adopt, follow_tick, follows_lecturer, in_fragment_run
from .hall_state import UNAVAILABLE
from .hall_watch import hall_watch, watching
from .hall_poll import hall_poll_prepare, hall_task, pollable
from .hall_state import hall_context
from .lesson_file import DRAWN, Beat, Lesson
from .share import query_string
from .text import literal
from .learn_chart import beat_panels, beat_payload
from .phone import is_narrow, phone_pick
from .point_input import point_input
from .presentation import window_height


#: A task's kind as its box names it.
KIND = {"predict": "Predict", "observe": "Observe", "explain": "Explain"}


def answer_key(lesson: Lesson, beat: Beat, name: str) -> str:
    return f"learn.answer.{lesson.id}.{beat.number}.{name}"


def answered(lesson: Lesson, beat: Beat, name: str):
    return st.session_state.get(answer_key(lesson, beat, name))


def _clicked(event) -> int | None:
    """The training index of a clicked point (data panel, or the quotient panel's x)."""
    points = event.selection.points if event and event.selection else []
    for p in points:
        if p.get("curve_number") == 0 and isinstance(p.get("point_index"), int):
            return p["point_index"]
        if p.get("curve_number") in (2, 3) and isinstance(p.get("x"), (int, float)):
            return int(p["x"])
    return None


def figure_plan(lesson: Lesson, beat: Beat) -> tuple[str, int | None, int | None]:
    """What the figure shows: ("hidden" | "before" | "full", k, j) for this beat now.

    "before": the first j steps only (the next one is what the task asks about).
    """
    task = beat.task
    if "j" not in beat.state:  # a page without steps: shown whole, or hidden until predicted
        hidden = (task is not None and task.kind == "predict"
                  and answered(lesson, beat, task.question) is None)
        return ("hidden" if hidden else "full"), None, None
    j, k = int(beat.state["j"]), int(beat.state["k"])
    if task is None:
        return "full", k, j
    q = lesson_questions.get(task.question)
    done = answered(lesson, beat, task.question) is not None
    if task.kind == "observe" or (task.kind == "predict" and q.reveals):
        return ("full", k, j + 1) if done else ("before", j, j)
    if task.kind == "predict" and not done:
        return "hidden", None, None
    return "full", k, j


def show_figure(lesson: Lesson, beat: Beat, *, present: bool, select: bool):
    """The page's figure in the beat's state (or held back, see :func:`figure_plan`)."""
    mode, k, j = figure_plan(lesson, beat)
    st.session_state["learn.figure"] = dict(lesson=lesson.id, beat=beat.number, mode=mode, k=k,
                                            j=j, query=beat.state.query())
    if beat.page not in DRAWN:
        st.info(f"This beat's figure is on the {beat.page} page: open it with the link below.")
        return None
    if mode == "hidden":
        st.info("Predict first: the figure appears when you answer.")
        return None
    scene = scene_of(beat)
    if hasattr(scene, "figures"):  # a page without steps (bounds, eigenvalues): drawn whole
        return show_page_figures(scene)
    # the figure cut at the step shown; a projector's shorter, the top row's axis titles
    # dropped (the page's own rule); a phone's one panel: made once for every session
    shown = (*beat_key(beat), *scene.shown(k, j))
    pick = phone_pick(beat.state.schema, beat_panels(*shown), PANELS_OF[beat.page])
    payload = beat_payload(*shown, window_height(present), pick, is_narrow(), select)
    caption = getattr(scene, "caption", None)  # what the colours, axes and markers mean
    with st.container(key="learn-figure"):
        if select:
            event = draw_payload(payload, key="learn.fig", select=True)
            if caption:
                st.caption(literal(caption(k, j)))
            return _clicked(event)
        draw_payload(payload, key="learn.fig")
        if caption:
            st.caption(literal(caption(k, j)))
    return None


def _show_feedback(right: bool, text: str):
    """The check's feedback: its first words (``Feedback.shown``) and an icon say right or
    not, not only the alert's colour."""
    shown = literal(Feedback(right, text).shown)
    if right:
        st.success(shown, icon=":material/check_circle:")
    else:
        st.warning(shown, icon=":material/cancel:")


def _answer_widget(lesson, beat, name, q, a, *, clicked, key_prefix):
    """The widget of one question's answer type and its Check button; stores the answer."""
    akey = answer_key(lesson, beat, name)
    wkey = f"{key_prefix}.input"
    if q.answer == "point":
        wkey = point_input("Click a point in the data panel, or type its index i", wkey,
                           clicked, min_value=0, max_value=scene_of(beat).m - 1,
                           help="Hover over a point to see its index.")
    elif q.answer == "k":
        # a slider always has a value: only a k the student moved to counts as an answer
        st.slider("k", min_value=a.lo, max_value=max(a.hi, a.lo + 1), value=a.lo, key=wkey,
                  on_change=lambda: st.session_state.__setitem__(f"{wkey}.moved", True))
    elif q.answer == "option":
        st.radio("Your answer", a.options, index=None, key=wkey)
    elif q.answer == "number":
        st.number_input("Your answer", value=None, format="%.4g", key=wkey)

    def _check():
        value = st.session_state.get(wkey)
        if q.answer == "k" and not st.session_state.get(f"{wkey}.moved"):
            value = None
        if q.answer != "none" and value is None:
            st.session_state[f"{akey}.missing"] = True
            return
        st.session_state.pop(f"{akey}.missing", None)
        st.session_state[akey] = True if q.answer == "none" else value

    label = ("Run step " + str(int(beat.state["j"]) + 1)) if q.answer == "none" else "Check"
    st.button(label, key=f"{key_prefix}.check", on_click=_check, type="primary")
    if st.session_state.get(f"{akey}.missing"):
        st.info("Give an answer first: nothing is scored that you did not choose.")


def show_question(lesson, beat, name, prompt, *, clicked, number=None):
    with st.container(key=f"learn-q-{number or 1}"):
        _question(lesson, beat, name, prompt, clicked=clicked, number=number)


def _question(lesson, beat, name, prompt, *, clicked, number=None):
    q = lesson_questions.get(name)
    a = asked(beat, name)
    head = f"{number}. " if number else ""
    st.markdown(f"**{head}{literal(prompt)}**" if prompt else f"**{head}{literal(a.text)}**")
    if prompt and a.text:
        st.caption(literal(a.text))
    given = answered(lesson, beat, name)
    if given is None:
        _answer_widget(lesson, beat, name, q, a, clicked=clicked,
                       key_prefix=f"learn.{lesson.id}.{beat.number}.{name}")
        return
    if q.answer != "none":
        st.caption(literal(f"Your answer: {given:g}" if isinstance(given, float)
                           else f"Your answer: {given}"))
    _show_feedback(*feedback(beat, name, None if q.answer == "none" else given))
    j = int(beat.state["j"]) if "j" in beat.state else 0
    if q.reveals and number is None:
        st.caption(f"The figure above now shows step {j + 1}.")

    def _again():
        st.session_state.pop(answer_key(lesson, beat, name), None)

    label = f"Back to step {j}" if q.answer == "none" else "Try again"
    st.button(label, key=f"learn.{lesson.id}.{beat.number}.{name}.again", on_click=_again)


def show_task(lesson: Lesson, beat: Beat, clicked):
    """The beat's task box; a student's in a hall, on a beat it can poll, is redrawn alone
    when a poll opens, closes or reveals: the fragment of the page's timer (see
    pages/common/hall_follow.py: follow_tick), or the beat's fragment that the watcher reruns.

    The lecturer's is part of the page: its live count is a fragment with a timer
    (hall_poll: _live), and a timed fragment inside another fragment can leave that
    fragment's last run half drawn in the browser (its buttons gone, the old task still
    shown) when its own run follows at once.

    A watched student's is part of the beat's fragment (``followed_beat``), which every
    change of the hall reruns (a poll's open, close and reveal change its version too): a
    fragment of its own inside it would only make an answer's run shorter, and it would
    cost every follower's run on each of the lecturer's moves, when a process runs a
    hundred of them at once."""
    ctx = hall_context()
    if ctx is None or not pollable(beat) or ctx["lecturer"]:
        _task(lesson, beat, clicked)
    elif watching():  # a student's watcher reruns the beat on a move
        _task_part(lesson, beat, clicked)
    else:
        _task_timer(lesson, beat, clicked)


@st.fragment(run_every=TICK)
def _task_timer(lesson: Lesson, beat: Beat, clicked):
    _task_part(lesson, beat, clicked)


def _task_part(lesson: Lesson, beat: Beat, clicked):
    if in_fragment_run() and watching():
        # the beat's fragment: this run took the hall's view (adopt) and drew the figure; an
        # explorer's follow_tick reruns the page when a poll opens, for its status line
        if not follows_lecturer():
            follow_tick("learn")
    elif in_fragment_run():  # the task box's own timer
        follow_tick("learn")
        hall_poll_prepare(lesson, beat, answer_key)
        shown = st.session_state.get("learn.figure") or {}
        mode, k, j = figure_plan(lesson, beat)
        if (shown.get("mode"), shown.get("k"), shown.get("j")) != (mode, k, j):
            st.rerun(scope="app")  # an answer (a reveal, a Check) changes the figure
    _task(lesson, beat, clicked)


def _task(lesson: Lesson, beat: Beat, clicked):
    if hall_task(lesson, beat, clicked):  # the hall's poll of this task replaces it
        return
    if beat.task is not None and pollable(beat) and follows_lecturer():
        # a hall answers it together: an answer alone first would show this student the
        # step the poll asks about
        with st.container(border=True, key="learn-task"):
            prompt = literal(beat.task.prompt or asked(beat, beat.task.question).text)
            st.markdown(f":gray[:small[{KIND[beat.task.kind]}]]  \n**{prompt}**")
            st.info(WAIT_FOR_POLL, icon=":material/how_to_vote:")
        return
    with st.container(border=True, key="learn-task"):
        if beat.task is not None:
            st.caption(KIND[beat.task.kind])
            show_question(lesson, beat, beat.task.question, beat.task.prompt, clicked=clicked)
        else:
            st.caption("Closing check: three questions")
            if beat.check_prompt:
                st.markdown(literal(beat.check_prompt))
            for n, name in enumerate(beat.check, 1):
                show_question(lesson, beat, name, "", clicked=clicked, number=n)
            done = [answered(lesson, beat, n) is not None for n in beat.check]
            if all(done):
                right = sum(feedback(beat, n, answered(lesson, beat, n))[0] for n in beat.check)
                st.markdown(f"**{right} of {len(beat.check)} right.**")


#: A following student's task box on a beat the hall can poll, until the lecturer opens it.
WAIT_FOR_POLL = ("Think of your answer: the lecturer opens this question to the hall, and you "
                 "answer it here. To answer it alone now, choose Explore on my own.")
#: A following student's page in place of Back / Next.
TURNS = "The lecturer turns the beats while you follow."


def nav(lesson: Lesson, n: int):
    total = len(lesson.beats)
    back, lessons, nxt = st.columns(3)
    with back:
        st.button("◀ Back", key="learn-back", disabled=n <= 1, on_click=go, args=(lesson.id, n - 1),
                  use_container_width=True)
    with lessons:
        st.button("All lessons", key="learn-list", on_click=go, args=(None,),
                  use_container_width=True)
    with nxt:
        if n < total:
            st.button("Next ▶", key="learn-next", on_click=go, args=(lesson.id, n + 1),
                      type="primary", use_container_width=True)
        else:
            st.button("Finish ✓", key="learn-next", on_click=go, args=(None,), type="primary",
                      use_container_width=True)


def show_beat(lesson: Lesson, n: int):
    """A beat of ``lesson`` (1-based ``n``), drawn whole."""
    present, lead = presentation(), not follows_lecturer()
    _head(lesson, n, present, lead)
    _body(lesson, n, present)
    _foot(lesson, n, present, lead)


def _head(lesson: Lesson, n: int, present: bool, lead: bool):
    if lead:  # the keys, and a new beat opened at its top (learn_keys.js)
        _KEYS(key="learn-keys", data={"beat": f"{lesson.id}/{n}"})
    if not present:
        st.caption(literal(lesson.title))


def _body(lesson: Lesson, n: int, present: bool):
    """What changes from beat to beat: where the lecture is, the prose, the figure, the task."""
    beat = lesson.beats[n - 1]
    st.progress(n / len(lesson.beats), text=f"Beat {n} of {len(lesson.beats)}")
    # the lesson's Markdown (the loader refused HTML and images); in a container on a
    # projector, whose style makes it larger
    with st.container(key="learn-prose") if present else nullcontext():
        st.markdown(f"### {literal(beat.title)}\n\n{beat.prose}")
    point_task = any(lesson_questions.get(q).answer == "point" for q in
                     ([beat.task.question] if beat.task else list(beat.check)))
    hall_poll_prepare(lesson, beat, answer_key)
    clicked = show_figure(lesson, beat, present=present, select=point_task)
    if beat.task is not None or beat.check:
        show_task(lesson, beat, clicked)
    st.markdown(f"[Open this view in the full page ↗]({beat.page}?{query_string(beat.state)})")


def _foot(lesson: Lesson, n: int, present: bool, lead: bool):
    if lead:
        nav(lesson, n)
    else:
        st.caption(TURNS)
    if not present:
        st.caption(literal("Sources: " + "; ".join(f"{s.paper}, {s.sections}"
                                                   for s in lesson.sources)))


def followed_page(lesson: Lesson, n: int):
    """A watched student's beat (:func:`followed_beat`) between the parts a lecturer's move
    within the lesson does not change: the lesson's title and sources, Back / Next or the
    note that the lecturer turns the beats (whether the student follows changes with a run
    of the page: ``hall_follow._student_tick``). A move reruns the beat alone; the fewer
    elements it draws, the sooner a process has drawn a hall's hundred followers."""
    present, lead = presentation(), not follows_lecturer()
    _head(lesson, n, present, lead)
    followed_beat(present, lesson.id)
    _foot(lesson, n, present, lead)


@st.fragment
def followed_beat(present: bool, drawn_lesson: str):
    """A watched student's beat with its watcher (``hall_watch``) inside: the watcher's
    report on a lecturer's move reruns this fragment alone, which takes the lecturer's beat
    (``adopt``) and draws it, not the whole page. What the beat cannot draw (the lecturer on
    another page, or on another lesson than ``drawn_lesson``, whose title the page's run
    drew; the hall ended or unavailable) reruns the page."""
    ss = st.session_state
    if in_fragment_run() and (ss.get(UNAVAILABLE) or adopt("learn")):
        st.rerun(scope="app")
    lesson = all_lessons().get(st.query_params.get("lesson"))
    n = beat_number(st.query_params.get("beat", "1"))
    if lesson is None or lesson.id != drawn_lesson or not 1 <= n <= len(lesson.beats):
        st.rerun(scope="app")
    _body(lesson, n, present)
    hall_watch()
