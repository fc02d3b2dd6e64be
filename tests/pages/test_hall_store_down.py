"""A page of a hall keeps its timer while the hall's store is down, so it sees the store back.

The browser, not the server, runs an ``st.fragment(run_every=...)``: the server announces each
timer (``auto_rerun``) on every full run of the page, and a page drawn without one never runs
again by itself. So every full run of a page in a hall, with the store down, must announce a
timer: a student's on any page and beat (fresh session or not: a reconnect after a process
died), and the lecturer's (a reload while the store is down). Once the store answers again,
the next full run (what the timer's run asks for) shows the hall again: a student sees an
open poll's answer box, the lecturer its controls.

AppTest runs no timer; the test records the timers each run announces.
"""

from __future__ import annotations

import pytest

import hall.config
from apptest_util import address, open_app_page
from hall.session import Hall
from hall.store import HallUnavailable, MemoryStore
from hall_apptest import LESSON, OPTION_BEAT, POINT_BEAT, memory_hall  # noqa: F401

UNAVAILABLE = "The hall is unavailable"
#: A lesson beat without a task the hall can poll (the status line holds the timer).
PLAIN_BEAT = 1


class SwitchStore(MemoryStore):
    """The in-process store, which a test can take down (every call: HallUnavailable)."""

    down = False

    def __getattribute__(self, name):
        attr = object.__getattribute__(self, name)
        if name.startswith("_") or not callable(attr) or not object.__getattribute__(self,
                                                                                    "down"):
            return attr

        def refused(*a, **k):
            raise HallUnavailable("down")
        return refused


@pytest.fixture
def store(monkeypatch):
    s = SwitchStore()
    monkeypatch.setitem(hall.config._halls, "", Hall(s))
    return s


@pytest.fixture
def timers(monkeypatch):
    """The fragment ids of the ``run_every`` timers announced (cleared before each run)."""
    from streamlit.runtime.scriptrunner_utils.script_run_context import ScriptRunContext

    got: list[str] = []
    enqueue = ScriptRunContext.enqueue

    def recording(self, msg):
        if msg.WhichOneof("type") == "auto_rerun":
            got.append(msg.auto_rerun.fragment_id)
        return enqueue(self, msg)

    monkeypatch.setattr(ScriptRunContext, "enqueue", recording)
    return got


def run(at, timers):
    timers.clear()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return list(timers)


def warned(at) -> bool:
    return any(UNAVAILABLE in w.value for w in at.warning)


def lecture(beat):
    at = open_app_page("pages/learn.py")
    at.button(key="hall.start").click().run()
    at.query_params["lesson"] = LESSON
    at.query_params["beat"] = str(beat)
    at.run()
    assert not at.exception
    return at, address(at)["hall"], address(at)["hall_key"]


def fresh(page, params, timers):
    """A new session on ``page`` (a reload, or a reconnect to another process)."""
    timers.clear()
    at = open_app_page(page, params=params)
    assert not at.exception, [e.value for e in at.exception]
    return at, list(timers)


@pytest.mark.parametrize("beat", [POINT_BEAT, OPTION_BEAT, PLAIN_BEAT])
def test_a_students_page_keeps_its_timer_while_the_store_is_down(store, timers, beat):
    lec, room, key = lecture(beat)
    stu, _ = fresh("pages/learn.py", {"hall": room}, timers)
    me = address(stu)["me"]
    assert address(stu)["beat"] == str(beat)
    store.down = True
    assert run(stu, timers), "no timer on a student's page drawn with the store down"
    assert warned(stu)
    # a reconnect to another process (a new session) while the store is down
    again, announced = fresh("pages/learn.py",
                             {"hall": room, "me": me, "lesson": LESSON, "beat": str(beat)},
                             timers)
    assert announced, "no timer on a student's page reloaded with the store down"
    assert warned(again)
    store.down = False
    if beat != PLAIN_BEAT:
        lec.button(key="hall.poll.open").click().run()
        assert not lec.exception
    for at in (stu, again):
        assert run(at, timers)  # the timer's run once the store answers: the whole page
        assert not warned(at)
        if beat != PLAIN_BEAT:
            assert any(b.key == "hall.answer.send" for b in at.button), \
                "no answer box once the store is back"


def test_a_students_data_page_keeps_its_timer_while_the_store_is_down(store, timers):
    lec, room, key = lecture(PLAIN_BEAT)
    store.down = True
    stu, announced = fresh("pages/skpca.py", {"hall": room}, timers)
    assert announced and warned(stu)
    assert run(stu, timers)


@pytest.mark.parametrize("beat", [POINT_BEAT, PLAIN_BEAT])
def test_the_lecturers_page_keeps_its_timer_and_its_hall_while_the_store_is_down(
        store, timers, beat):
    lec, room, key = lecture(beat)
    store.down = True
    assert run(lec, timers), "no timer on the lecturer's page drawn with the store down"
    assert warned(lec)
    # the lecturer reloads (or its process died) while the store is down
    again, announced = fresh("pages/learn.py", {"hall": room, "hall_key": key,
                                                "lesson": LESSON, "beat": str(beat)}, timers)
    assert announced, "no timer on the lecturer's page reloaded with the store down"
    assert warned(again)
    assert address(again).get("hall_key") == key, "the reload lost the lecturer's key"
    assert not any(b.key == "hall.start" for b in again.button)
    store.down = False
    for at in (lec, again):
        assert run(at, timers)
        assert not warned(at)
        if beat == POINT_BEAT:
            assert any(b.key == "hall.poll.open" for b in at.button)
        assert any(m.value.startswith(f"**Hall {room}: you are the lecturer**")
                   for m in at.markdown)


def test_a_forged_key_with_the_store_down_is_not_taken(store, timers):
    lec, room, key = lecture(PLAIN_BEAT)
    store.down = True
    at, announced = fresh("pages/learn.py", {"hall": room, "hall_key": "forged-key-123"},
                          timers)
    assert announced and warned(at)
    store.down = False
    run(at, timers)
    assert "hall_key" not in address(at)
    assert any("This lecturer key is not valid" in e.value for e in at.error)
    assert not any(b.key == "hall.poll.open" for b in at.button)
