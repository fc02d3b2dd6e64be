"""Replay a hall session file (the lecturer's "Session as JSON") on the Learn page: the
lecturer's moves one at a time, and each poll's answers (heat map or histogram) and reveal.

The file may come from anywhere: hall.export.read_session checks it, and a bad file is an
st.error, never a traceback. Its texts are shown literally.
"""

from __future__ import annotations

from collections import Counter
from urllib.parse import urlencode

import streamlit as st

from hall.export import read_session

from .charts import plotly_chart
from .hall_figures import HEAT_CAPTION, HIST_CAPTION, heat_figure, histogram_figure, points_2d
from .learn_ui import all_lessons, scene_of
from .text import literal

__all__ = ["replay_box"]


def replay_box():
    st.subheader("Open a hall session file")
    st.caption("The file a lecturer downloads from a hall session (Session as JSON): step "
               "through the lecture's moves and see each poll's answers and reveal.")
    up = st.file_uploader("Hall session file (.json)", type=["json"], key="hall.replay.file")
    if up is None:
        return
    try:
        session = read_session(up.getvalue())
    except ValueError as exc:
        st.error(literal(exc))
        return
    moves, polls = session["moves"], session["polls"]
    st.success(literal(f"{up.name}: {len(moves)} moves of the lecturer, {len(polls)} polls."))
    if moves:
        _moves(moves)
    for i, poll in enumerate(polls, 1):
        _poll(i, poll)


def _moves(moves):
    n = len(moves)
    i = st.slider("The lecturer's move", 1, n, 1, key="hall.replay.move") if n > 1 else 1
    move = moves[i - 1]
    page, query = move["page"], move["query"]
    where = page
    lesson = all_lessons().get(query.get("lesson", "")) if page == "learn" else None
    if lesson is not None:
        where = f"{lesson.title}, beat {query.get('beat', '1')}"
    st.markdown(literal(f"Move {i} of {n}: {where}"))
    path = "" if page == "home" else page
    st.markdown(f"[Open this view ↗](/{path}?{urlencode(query)})")


def _poll(i, poll):
    spec = poll["spec"]
    tally = Counter(v for _, v in poll["answers"])
    rev = poll["reveal"] if isinstance(poll["reveal"], dict) else None
    with st.expander(literal(f"Poll {i}: {spec.prompt}"[:120]), expanded=False):
        st.markdown(f"Answers: {sum(tally.values())}")
        right = [str(v) for v in (rev or {}).get("right", []) if isinstance(v, (str, int))]
        if spec.kind == "point":
            pts = _points(spec)
            if pts is not None:
                counts = {int(v): n for v, n in tally.items() if v.isdigit()}
                plotly_chart(heat_figure(pts[0], counts, right=[int(v) for v in right
                                                                  if v.isdigit()],
                                         axis_labels=pts[1]), key=f"hall.replay.chart.{i}")
                st.caption(HEAT_CAPTION)
            else:
                top = ", ".join(f"point {v}: {n}" for v, n in tally.most_common(10))
                st.markdown(literal(f"Most tapped: {top or 'none'}"))
        else:
            plotly_chart(histogram_figure(spec.values(), tally, right=right,
                                          xlabel="k" if spec.kind == "k" else "option"),
                         key=f"hall.replay.chart.{i}")
            st.caption(HIST_CAPTION)
        if rev:
            st.markdown(literal(f"The answer: {str(rev.get('answer', ''))[:200]}"))
            n_right, n = rev.get("n_right"), rev.get("n")
            if isinstance(n_right, int) and isinstance(n, int) and n:
                st.markdown(literal(f"{n_right} of {n} right ({round(100 * n_right / n)} %)"))
        else:
            st.caption("Not revealed.")


def _points(spec):
    """The data panel's points of the poll's beat, if this app has its lesson."""
    lesson = all_lessons().get(spec.lesson)
    if lesson is None or not 1 <= spec.beat <= len(lesson.beats):
        return None
    try:
        pts, labels = points_2d(scene_of(lesson.beats[spec.beat - 1]))
    except (ValueError, AttributeError):
        return None
    return (pts, labels) if len(pts) == spec.n else None
