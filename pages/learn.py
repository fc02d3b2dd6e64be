"""Learn: guided lessons through the app's live figures (lessons/*.toml).

The address holds where the student is (?lesson=<id>&beat=<n>, and present=1 for a
projector), so a reload resumes and a lecturer can share a beat.
"""

import streamlit as st

import pages.common  # noqa: F401  (first, for its legacy-mode guard)
from pages.common.hall_follow import adopt, hall_follow, watched
from pages.common.hall_poll import pollable
from pages.common.hall_replay import replay_box
from pages.common.learn_beat import followed_page, show_beat
from pages.common.learn_ui import all_lessons, beat_number, lesson_list
from pages.common.text import literal

adopt("learn")  # a following student takes the lecturer's beat before reading the address
lesson_id = st.query_params.get("lesson")
beat_raw = st.query_params.get("beat", "1")
lesson = None if lesson_id is None else all_lessons().get(lesson_id)
n = beat_number(beat_raw)
shown = lesson is not None and 1 <= n <= len(lesson.beats)
# a student's timer is then the task box's (a poll's changes redraw it alone), and a student's
# watcher the beat's (a lecturer's move within the lesson reruns the beat alone)
hall_follow("learn", timer_below=shown and pollable(lesson.beats[n - 1]), watcher_below=shown)
if lesson_id is None:
    lesson_list()
    replay_box()
    st.stop()
if lesson is None:
    st.error(literal(f"There is no lesson {lesson_id[:60]!r} here (a lesson opened from your own "
                     "file lives only in the session that opened it). Choose one below."))
    lesson_list()
    st.stop()
if not shown:
    st.error(literal(f"{lesson.title} has beats 1 to {len(lesson.beats)}, not "
                     f"{beat_raw[:20]!r}. Start it again below."))
    lesson_list()
    st.stop()
if watched():
    followed_page(lesson, n)
else:
    show_beat(lesson, n)
