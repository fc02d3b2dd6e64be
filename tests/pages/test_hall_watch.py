"""A student's watcher of the hall's version route (pages/common/hall_watch.py), AppTest:
drawn on a student's page, outside any fragment, only where the route is served; it carries
what its JavaScript asks with and compares (room, device, the version the page acted on,
following) and never the lecturer's key; the lecturer's page keeps its timer. With a watcher,
the page's runs mark the device present only when it joins or changes whether it follows
(the watcher's requests keep it present); a timer's page marks it again every few seconds."""

from __future__ import annotations

import json

import pytest
from apptest_util import address
from hall_apptest import lecturer, memory_hall, student  # noqa: F401

from hall.config import process_hall
from hall.version_route import PATH, WATCH_ENV


def watcher(at) -> dict | None:
    found = [e for e in at.get("bidi_component") if e.proto.component_name == "mp_hall_watch"]
    assert len(found) <= 1
    return json.loads(found[0].proto.json) if found else None


@pytest.fixture
def route(monkeypatch):
    monkeypatch.setenv(WATCH_ENV, PATH)


def test_a_students_page_watches_the_route_with_what_it_acted_on(route):
    lec, room = lecturer(beat=1)
    stu = student(room)
    data = watcher(stu)
    assert data is not None and watcher(lec) is None  # the lecturer's page keeps its timer
    me = address(stu)["me"]
    hall = process_hall()
    assert (data["url"], data["room"], data["me"]) == (PATH, room, me)
    assert data["version"] == hall.version(room) and data["following"] is True
    assert data["stale"] is False and data["everyMs"] > 0
    assert data["retryMs"] > data["everyMs"]  # a report's run is awaited longer than a tick
    # the lecturer moves: the version the route answers is newer than the page's; the page's
    # run (what the watcher's report starts) draws the lecturer's beat and the new version
    lec.button(key="learn-next").click().run()
    assert hall.version(room) > data["version"]
    stu.run()
    assert address(stu)["beat"] == "2"
    moved = watcher(stu)
    assert moved["version"] == hall.version(room) and moved["draw"] > data["draw"]
    # exploring on its own: the requests say so (the lecturer's count drops)
    stu.button(key="hall.explore").click().run()
    assert watcher(stu)["following"] is False
    key = address(lec)["hall_key"]
    assert key not in json.dumps(watcher(stu)) and key not in json.dumps(moved)


def test_without_the_route_no_watcher(monkeypatch):
    monkeypatch.delenv(WATCH_ENV, raising=False)
    lec, room = lecturer(beat=1)
    assert watcher(student(room)) is None and watcher(lec) is None


def test_a_room_that_is_gone_gives_the_watcher_nothing_to_report(route):
    """No such session (ended long ago, or mistyped): the route answers null, and the page's
    watcher holds null too, so it reports nothing and the page is not rerun every second."""
    room = next(r for r in ("ABCDEF", "GHJKMN", "PQRSTU") if process_hall().version(r) is None)
    stu = student(room)
    assert any("No hall with the room code" in str(m.value) for m in stu.markdown)
    assert watcher(stu)["version"] is None


@pytest.mark.parametrize("with_route", [True, False])
def test_a_watched_page_marks_presence_only_when_it_joins_or_changes(with_route, monkeypatch):
    from pages.common.hall_state import SEEN

    if with_route:
        monkeypatch.setenv(WATCH_ENV, PATH)
    else:
        monkeypatch.delenv(WATCH_ENV, raising=False)
    lec, room = lecturer(beat=1)
    hall = process_hall()
    marks = []
    real = hall.seen
    monkeypatch.setattr(hall, "seen", lambda *a: (marks.append(a[1:]), real(*a))[1])
    stu = student(room)
    me = address(stu)["me"]
    assert marks == [(me, True)]  # joined: marked present, following
    assert hall.presence(room) == (1, 1)
    # the lecturer moves and the page follows, long after its mark
    stamp = stu.session_state[SEEN]
    stu.session_state[SEEN] = (stamp[0] - 100.0, *stamp[1:])
    lec.button(key="learn-next").click().run()
    stu.run()
    assert address(stu)["beat"] == "2"
    # with the route, its requests keep the device present: no second mark from the run;
    # a timer's page marks it again
    assert marks == ([(me, True)] if with_route else [(me, True), (me, True)])
    stu.button(key="hall.explore").click().run()
    assert marks[-1] == (me, False)  # whether it follows changed: marked at once
    assert hall.presence(room) == (1, 0)


def test_a_beat_opened_with_its_address_draws_one_watcher(route):
    """A reload, or a reconnect to another process after one was killed: the page's first run
    knows the student from its address and draws the watcher once, in the beat."""
    lec, room = lecturer(beat=1)
    first = student(room)
    again = student(room, lesson=address(first)["lesson"], beat=address(first)["beat"],
                    me=address(first)["me"])
    assert not again.exception, [e.value for e in again.exception]
    data = watcher(again)
    assert data is not None and data["me"] == address(first)["me"]
