"""The Learn page's parts: the lesson list, a beat (prose, live figure, task), Next/Back.

A beat's figure is the sparse-KPCA page's own (views.lesson_scene: the page's computation
and mpcore.plots figure), in the beat's declared state. A task's answer is scored by its
question (views.lesson_questions) and only once the student gave one. Prose is the lesson's
Markdown (no HTML: the loader refuses tags and images, and unsafe_allow_html stays off);
every other text of a lesson file (titles, prompts) and all feedback is shown literally.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from views import lesson_questions
from views.lesson_scene_kmp import KMP_PANELS

from .assets import asset
from .cached import learn as cached
from .cached.shared import shared_cache
from .hall_join import join_box
from .learn_chart import beat_scene
from .lesson_file import SCHEMAS, Beat, Lesson, LessonError, load_lessons, parse_lesson
from .state import State
from .text import literal
from .widgets import hall_part

_KEYS = st.components.v2.component("mp_learn_keys", html="<span></span>",
                                   js=asset("learn_keys.js"))
PANELS = {"": "Data", "2": "Quotients ρ", "3": "Deflated kernel", "4": "Trace"}
#: The panels a phone offers of each drawn page's figure (its scene: views.lesson_scenes).
PANELS_OF = {"skpca": PANELS, "kmp": KMP_PANELS}
OWN = "learn.own"
#: The projector style of a lesson (the app's own file, no user text).
LEARN_PRESENT_STYLE = f"<style>\n{asset('learn_present.css')}</style>"


# ---------------------------------------------------------------- lessons and scenes


def all_lessons() -> dict[str, Lesson]:
    return {**cached.app_lessons(), **st.session_state.get(OWN, {})}


def _k_max(state: State) -> int:
    """The most steps the page runs (its k slider's maximum; 0 for a page without steps)."""
    schema = SCHEMAS[state.schema.page]
    return int(schema["k"].at("hi", state)) if state.schema.page == "skpca" else 0


def beat_key(beat: Beat) -> tuple[tuple, int, str]:
    """What a beat's scene is computed from: its address, its k maximum and its page."""
    return tuple(beat.state.query().items()), _k_max(beat.state), beat.page


def scene_of(beat: Beat):
    """The beat's page computed in its state (views.lesson_scenes: one scene per page)."""
    return beat_scene(*beat_key(beat))


@shared_cache(cached.ANSWERS_ENTRIES)
def _feedback(name: str, query: tuple, k_max: int, typed: tuple, page: str
              ) -> tuple[bool, str]:
    return cached.feedback(name, query, k_max, typed[1], page)


@shared_cache(cached.ANSWERS_ENTRIES)
def _asked(name: str, query: tuple, k_max: int, page: str) -> lesson_questions.Asked:
    return cached.asked(name, query, k_max, page)


def feedback(beat: Beat, name: str, answer) -> tuple[bool, str]:
    query, k_max, page = beat_key(beat)
    try:
        hash(answer)
    except TypeError:
        return cached.feedback(name, query, k_max, answer, page)
    # 1, 1.0 and True are one key of a dict: the answer's type keeps them apart
    return _feedback(name, query, k_max, (type(answer).__name__, answer), page)


def asked(beat: Beat, name: str) -> lesson_questions.Asked:
    query, k_max, page = beat_key(beat)
    return _asked(name, query, k_max, page)


# ---------------------------------------------------------------- the address


def beat_number(raw: str) -> int:
    """The beat an address's ``beat`` field names (0 for one that is not a number)."""
    try:
        return int(raw)
    except ValueError:
        return 0


def go(lesson: str | None, beat: int | None = None):
    """Move to a lesson's beat (or the list): the address holds where the student is,
    written in one piece (the browser never shows a half-written address)."""
    present = st.session_state.get("learn.present", st.query_params.get("present") == "1")
    query = {} if lesson is None else {"lesson": lesson, "beat": str(beat or 1)}
    if present:
        query["present"] = "1"
    st.query_params.from_dict({**query, **hall_part()})


def presentation() -> bool:
    """The presentation toggle, in the address as present=1."""
    key = "learn.present"
    if key not in st.session_state:
        st.session_state[key] = st.query_params.get("present") == "1"

    def _sync():
        if st.session_state[key]:
            st.query_params["present"] = "1"
        elif "present" in st.query_params:
            del st.query_params["present"]

    on = st.toggle("Presentation mode", key=key, on_change=_sync,
                   help="Hides the menus and makes the text large for a projector. Keys: → or "
                        "PageDown next beat, ← or PageUp back.")
    if on:
        st.markdown(LEARN_PRESENT_STYLE, unsafe_allow_html=True)
    return bool(on)


# ---------------------------------------------------------------- the list


def lesson_list():
    st.title("Learn")
    st.markdown("Short lessons with the app's live figures. Each beat asks you to **predict** "
                "before it shows, and the app checks your answer with the algorithm's own "
                "numbers. A lecturer can teach from a lesson: turn on *Presentation mode* and "
                "use the arrow keys; the address of a beat can be shared.")
    join_box()
    for lesson in all_lessons().values():
        with st.container(border=True, key=f"learn-card-{lesson.id}"):
            st.subheader(literal(lesson.title))
            st.caption(literal(f"{lesson.minutes} minutes · {len(lesson.beats)} beats · "
                               + "; ".join(f"{s.paper}: {s.sections}" for s in lesson.sources)))
            st.markdown(literal(lesson.summary))
            if lesson.outcomes:
                st.markdown("You will be able to explain:\n" + "\n".join(
                    f"- {literal(o)}" for o in lesson.outcomes))
            st.button("Start", key=f"learn-start-{lesson.id}", on_click=go, args=(lesson.id, 1),
                      type="primary")
    own_lesson_upload()


def own_lesson_upload():
    st.subheader("Open your own lesson file")
    st.caption("A .toml file written as docs/lessons.md describes; it is checked exactly as the "
               "app's lessons are, and shown in this session only.")
    up = st.file_uploader("Lesson file (.toml)", type=["toml"], key="learn.upload")
    if up is None:
        return
    try:
        lesson = parse_lesson(up.getvalue(), up.name)
    except LessonError as exc:
        st.error(literal(exc))
        return
    if lesson.id in cached.app_lessons():
        st.error(literal(f"lesson {up.name}: id {lesson.id!r} is a lesson of the app; "
                         "choose another id."))
        return
    st.session_state.setdefault(OWN, {})[lesson.id] = lesson
    st.success(literal(f"{lesson.title}: {len(lesson.beats)} beats, all valid."))
    st.button(f"Open {lesson.title}", key="learn-open-own", on_click=go, args=(lesson.id, 1))
