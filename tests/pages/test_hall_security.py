"""The hall's security on the pages: a student's page, link or forged key cannot act as the
lecturer, no key appears in a student's page or link or in the lecturer's share links, and
any address fields (fuzzed) give a page, never a traceback. The hall unavailable is a
warning and the page works."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hall.config
from apptest_util import address, open_app_page, open_footer
from hall.session import Hall
from hall.store import HallUnavailable, MemoryStore
from hall_apptest import lecturer, memory_hall, page_text, student  # noqa: F401

LECTURER_KEYS = {"hall.poll.open", "hall.poll.close", "hall.poll.reveal", "hall.end",
                 "hall.export.csv", "hall.export.json", "hall.show", "hall.show.sidebar"}


def widget_keys(at) -> set:
    return {w.key for kind in ("button", "download_button") for w in at.get(kind)}


def test_a_student_page_has_no_lecturer_control_and_no_key():
    lec, room = lecturer()
    key = address(lec)["hall_key"]
    lec.button(key="hall.poll.open").click().run()
    stu = student(room)
    assert not widget_keys(stu) & LECTURER_KEYS
    assert key not in page_text(stu)
    assert "hall_key" not in address(stu)
    # the lecturer's own share links (classroom link, saved run) carry neither key nor me
    lec.switch_page("pages/skpca.py").run()
    open_footer(lec)
    for code in lec.code:
        assert key not in code.value and "hall_key" not in code.value
        assert "me=" not in code.value
    # a student's own links (followed to the page) carry neither its device id nor the hall
    stu.run()
    assert address(stu).get("dataset")
    me = address(stu)["me"]
    # AppTest's next run is of the page it was given, where a browser keeps the page the
    # follow moved to: give it that page
    stu.switch_page("pages/skpca.py").run()
    assert address(stu)["me"] == me
    open_footer(stu)
    assert stu.code and all(me not in c.value and "hall=" not in c.value for c in stu.code)
    # the saved run ("Run as JSON") is built from the view state, which has no hall field
    import pandas as pd

    from pages.common.saved_run import run_json

    state = lec.session_state["_view.skpca"]
    saved = run_json(state, pd.DataFrame({"a": [1]}))
    assert key not in saved and "hall" not in saved and room not in saved


def test_a_forged_key_is_refused():
    lec, room = lecturer()
    forged = open_app_page("pages/learn.py",
                           params={"hall": room, "hall_key": "x" * 32, "lesson": "greedy-selection",
                                   "beat": "2"})
    assert not forged.exception
    assert [e.value for e in forged.error if "This lecturer key is not valid" in e.value]
    assert not widget_keys(forged) & LECTURER_KEYS
    assert "hall_key" not in address(forged)
    assert address(forged).get("me")  # it follows as a student
    # a student's link with the key of another hall is refused as well
    other, _ = lecturer(lesson=None)
    stolen = open_app_page("pages/learn.py",
                           params={"hall": room, "hall_key": address(other)["hall_key"]})
    assert [e.value for e in stolen.error if "This lecturer key is not valid" in e.value]
    assert not widget_keys(stolen) & LECTURER_KEYS


def test_a_student_cannot_move_the_hall():
    lec, room = lecturer()
    stu = student(room)
    stu.button(key="hall.explore").click().run()
    stu.button(key="learn-next").click().run()
    lec.run()
    assert address(lec)["beat"] == "2"
    view = hall.config.process_hall().view(room)
    assert view.query == {"lesson": "greedy-selection", "beat": "2"}


FIELD = st.one_of(st.text(max_size=80), st.sampled_from(["", "ABCDEF", "abcdef", "A" * 6,
                                                          "%00", "<b>x</b>", "[a](b)"]))


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(hall_=FIELD, me=FIELD, key=FIELD, page=st.sampled_from(["pages/learn.py",
                                                                 "pages/skpca.py"]))
def test_any_address_fields_give_a_page_never_a_traceback(hall_, me, key, page):
    params = {k: v for k, v in (("hall", hall_), ("me", me), ("hall_key", key)) if v}
    at = open_app_page(page, params=params)
    assert not at.exception, [e.value for e in at.exception]
    assert not [i.value for i in at.info if "Ignored unknown" in i.value]
    assert not widget_keys(at) & LECTURER_KEYS


class DownStore(MemoryStore):
    """A store that cannot be reached (Redis down)."""

    def __getattribute__(self, name):
        if name.startswith("_"):
            return object.__getattribute__(self, name)

        def down(*a, **k):
            raise HallUnavailable("down")
        return down


@pytest.fixture
def hall_down(monkeypatch):
    monkeypatch.setitem(hall.config._halls, "", Hall(DownStore()))


def test_the_hall_unavailable_is_a_warning_and_the_page_works(hall_down):
    at = open_app_page("pages/learn.py", params={"hall": "ABCDEF"})
    assert not at.exception
    assert [w.value for w in at.warning if "The hall is unavailable" in w.value]
    assert any(w.key == "learn-start-greedy-selection" for w in at.button)
    # a lesson's beat works as without a hall: its own Back / Next
    at = open_app_page("pages/learn.py", params={"hall": "ABCDEF", "lesson": "greedy-selection",
                                                 "beat": "2"})
    assert [w.value for w in at.warning if "The hall is unavailable" in w.value]
    assert {"learn-back", "learn-next"} <= {w.key for w in at.button}
    at = open_app_page("pages/skpca.py")
    at.button(key="hall.start").click().run()
    assert not at.exception
    assert [w.value for w in at.warning if "The hall is unavailable" in w.value]
    assert "hall" not in address(at)
