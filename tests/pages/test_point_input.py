"""The number box a click in a beat's figure fills (pages/common/point_input.py): a click
survives a request the browser sent before it saw the click's run (a page timer's, queued
behind the click's), a later run with the same standing selection does not overwrite what
the student typed, and a cleared box stays empty."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _script():
    import streamlit as st

    from pages.common.point_input import clear_point, point_input

    if st.session_state.pop("clear", False):
        clear_point("box")
    # the figure's selection: it stands across runs until another click
    key = point_input("Tap a point", "box", st.session_state.get("click"), min_value=0,
                      max_value=99)
    st.session_state["read"] = st.session_state.get(key)


def _box(at):
    (box,) = at.number_input
    return box


def test_a_click_survives_a_request_sent_before_the_browser_saw_it():
    at = AppTest.from_function(_script).run()
    assert _box(at).value is None
    before = at._tree.get_widget_states()  # the timer's request, sent before the click's run
    at.session_state["click"] = 69
    at.run()
    assert _box(at).value == 69 and at.session_state["read"] == 69
    at._run(before)
    assert not at.exception
    assert _box(at).value == 69 and at.session_state["read"] == 69


def test_what_the_student_types_after_a_click_stays():
    at = AppTest.from_function(_script).run()
    at.session_state["click"] = 69
    at.run()
    _box(at).set_value(12).run()
    at.run()  # the selection still stands on 69
    assert _box(at).value == 12 and at.session_state["read"] == 12
    at.session_state["click"] = 5  # another point clicked
    at.run()
    assert _box(at).value == 5 and at.session_state["read"] == 5


def test_a_cleared_box_stays_empty_under_a_standing_selection():
    at = AppTest.from_function(_script).run()
    _box(at).set_value(7).run()
    at.session_state["clear"] = True  # no click yet: the box's own key is emptied
    at.run()
    assert _box(at).value is None
    at.session_state["click"] = 69
    at.run()
    at.session_state["clear"] = True
    at.run()
    assert _box(at).value is None and at.session_state["read"] is None
    at.session_state["click"] = 3
    at.run()
    assert _box(at).value == 3
