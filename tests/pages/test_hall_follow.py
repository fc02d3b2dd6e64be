"""The hall on every page (AppTest, two sessions sharing the process's hall): a lecturer
starts a hall, students join by link or room code and follow the lecturer's page, view and
step; "Explore on my own" breaks away, "Follow the lecturer" comes back; the lecturer sees
how many follow. (The timer's ticks, or the watcher's reports, are the browser's; each
AppTest run is one.)"""

from __future__ import annotations

import re

import pytest
from apptest_util import address, open_app_page
from hall_apptest import (  # noqa: F401
    LESSON,
    POINT_BEAT,
    keys,
    lecturer,
    memory_hall,
    page_text,
    student,
    texts,
)

from pages.common.learn_beat import TURNS, WAIT_FOR_POLL

from hall.version_route import PATH, WATCH_ENV


def status(at) -> str:
    got = [t for t in texts(at) if t.startswith("**Hall ")]
    assert len(got) == 1, got
    return got[0]


def test_a_lecturer_starts_a_hall_and_gets_the_join_code():
    at, room = lecturer(lesson=None)
    assert re.fullmatch(r"[A-Z2-9]{6}", room)
    assert address(at)["hall_key"]
    assert "me" not in address(at)
    assert status(at) == f"**Hall {room}: you are the lecturer** · 0 of 0 following"
    text = page_text(at)
    assert "### Join the hall: room code" in text and room in texts(at)
    links = [c.value for c in at.code if "hall=" in c.value]
    assert links and all(link.endswith(f"/learn?hall={room}") for link in links)
    assert all("hall_key" not in link and address(at)["hall_key"] not in link
               for link in links)


@pytest.fixture(params=["timer", "watcher"])
def follow_mode(request, monkeypatch):
    """A student's page follows by its timer (``streamlit run app.py``) or by its watcher of
    the version route (``deploy/hall_app.py``): the same moves either way."""
    if request.param == "watcher":
        monkeypatch.setenv(WATCH_ENV, PATH)
    else:
        monkeypatch.delenv(WATCH_ENV, raising=False)
    return request.param


def test_a_student_follows_the_lecturer_to_a_beat_and_a_page(follow_mode):
    lec, room = lecturer()
    stu = student(room)
    me = address(stu)["me"]
    assert len(me) >= 16
    assert status(stu) == f"**Hall {room}: following the lecturer**"
    # the join link's page (the lesson list) is left for the lecturer's beat
    assert address(stu) == {"lesson": LESSON, "beat": "2", "hall": room, "me": me}
    lec.run()
    assert status(lec).endswith("· 1 of 1 following")
    # the lecturer moves to the next beat: the student follows, keeping the device id
    lec.button(key="learn-next").click().run()
    stu.run()
    assert address(stu) == {"lesson": LESSON, "beat": "3", "hall": room, "me": me}
    # the lecturer opens a data page: the student gets the page and its complete view
    lec.switch_page("pages/skpca.py").run()
    lec.run()  # the page wrote its complete view; the tick publishes it
    lec_view = {k: v for k, v in address(lec).items() if k not in ("hall", "hall_key")}
    assert "k" in lec_view and "dataset" in lec_view
    stu.run()
    assert {k: v for k, v in address(stu).items() if k not in ("hall", "me")} == lec_view
    assert address(stu)["me"] == me
    # AppTest's next run is of the page it was given, where a browser keeps the page the
    # follow moved to: give it that page
    stu.switch_page("pages/skpca.py").run()
    assert address(stu)["me"] == me and address(stu)["j"] == lec_view["j"]
    assert not [i.value for i in stu.info if "Ignored unknown" in i.value]
    assert not [i.value for i in lec.info if "Ignored unknown" in i.value]
    # the lecturer's step moves the student's step
    j = int(lec_view["j"])
    lec.button(key="skpca.next").click().run()
    lec.run()
    assert int(address(lec)["j"]) == j + 1
    stu.run()
    assert address(stu)["j"] == str(j + 1)


def test_explore_on_my_own_and_follow_again(follow_mode):
    lec, room = lecturer()
    stu = student(room)
    stu.button(key="hall.explore").click().run()
    assert status(stu) == f"**Hall {room}: exploring on your own**"
    lec.button(key="learn-next").click().run()
    stu.run()
    assert address(stu)["beat"] == "2"  # stays where it was
    lec.run()
    assert status(lec).endswith("· 0 of 1 following")
    stu.button(key="hall.follow").click().run()
    stu.run()
    assert status(stu) == f"**Hall {room}: following the lecturer**"
    assert address(stu)["beat"] == "3"
    lec.run()
    assert status(lec).endswith("· 1 of 1 following")


def own_task(at) -> list[str]:
    """The keys of the beat's own answer widgets (the task a student answers alone)."""
    return [w.key for w in at.number_input if str(w.key).startswith(f"learn.{LESSON}.")]


def test_a_following_student_leaves_the_beats_and_the_task_to_the_lecturer(follow_mode):
    lec, room = lecturer(beat=POINT_BEAT)  # a point task, which the hall can poll
    stu = student(room)
    assert address(stu)["beat"] == str(POINT_BEAT)
    # following: no Back / Next, and the task waits for the hall's poll
    assert not keys(stu) & {"learn-back", "learn-next", "learn-list"}
    assert TURNS in texts(stu, "caption")
    assert [i.value for i in stu.info if i.value == WAIT_FOR_POLL]
    assert not own_task(stu)
    # the lecturer's projector keeps them
    assert {"learn-back", "learn-next"} <= keys(lec)
    assert not [i.value for i in lec.info if i.value == WAIT_FOR_POLL]
    # exploring: the student's own Back / Next and task
    stu.button(key="hall.explore").click().run()
    assert {"learn-back", "learn-next", "learn-list"} <= keys(stu)
    assert own_task(stu) and TURNS not in texts(stu, "caption")
    assert not [i.value for i in stu.info if i.value == WAIT_FOR_POLL]
    # following again; the lecturer opens the task: the hall's answer box, not the note
    stu.button(key="hall.follow").click().run()
    assert not keys(stu) & {"learn-back", "learn-next"}
    lec.button(key="hall.poll.open").click().run()
    stu.run()
    assert "hall.answer.send" in keys(stu)
    assert not [i.value for i in stu.info if i.value == WAIT_FOR_POLL]


def test_a_student_joins_by_typing_the_room_code():
    lec, room = lecturer()
    stu = open_app_page("pages/learn.py")
    stu.text_input(key="hall.join.code").input(room.lower())
    stu.button(key="hall.join.go").click().run()
    stu.run()
    assert address(stu).get("hall") == room
    assert address(stu).get("lesson") == LESSON
    bad = open_app_page("pages/learn.py")
    bad.text_input(key="hall.join.code").input("ZZZZZZ")
    bad.button(key="hall.join.go").click().run()
    assert [e.value for e in bad.error if "No hall with the room code" in e.value]
    assert "hall" not in address(bad)


def test_the_hall_fields_survive_a_page_writing_its_view():
    lec, room = lecturer(lesson=None)
    stu = student(room, page="pages/kmp.py")
    assert not stu.exception
    me = address(stu)["me"]
    assert address(stu)["hall"] == room  # followed to the lecturer's Learn page
    stu.button(key="hall.explore").click().run()
    stu.switch_page("pages/kmp.py").run()
    stu.run()
    # a sidebar link drops the query: the session puts the hall back beside the view
    assert address(stu)["hall"] == room and address(stu)["me"] == me
    assert "dataset" in address(stu)


def test_ending_the_session():
    lec, room = lecturer()
    stu = student(room)
    lec.button(key="hall.end").click().run()
    lec.run()
    assert "This hall session has ended." in page_text(lec)
    stu.run()
    assert "This hall session has ended." in page_text(stu)
    # the lecturer no longer turns the beats: the student's own Back / Next and task
    assert {"learn-back", "learn-next"} <= keys(stu) and own_task(stu)
    stu.button(key="hall.leave").click().run()
    assert "hall" not in address(stu) and "me" not in address(stu)


def test_presentation_mode_keeps_the_lecturers_hall_box_on_the_page():
    lec, room = lecturer()
    lec.toggle(key="learn.present").set_value(True).run()
    assert address(lec)["present"] == "1"
    assert any(e.label == f"Hall {room}: join code, export, end" for e in lec.main.expander)
    assert any(b.key == "hall.end" for b in lec.button)
    stu = student(room)
    assert "present" not in address(stu)  # the projector's style is not followed


def test_a_run_from_the_address_before_a_move_still_shows_the_lecturers_beat(follow_mode):
    """A browser's request sent before it saw a move (its timer's, a widget's) carries the
    address before the move; the run it starts comes after the follow. A following page
    then still shows the lecturer's beat, not the one its old address names, and does not
    wait for the next move to come back."""
    lec, room = lecturer()
    stu = student(room)
    lec.button(key="learn-next").click().run()
    stu.run()
    assert address(stu)["beat"] == "3"
    stale = {**address(stu), "beat": "2"}
    for k, v in stale.items():
        stu.query_params[k] = v
    stu.run()
    assert address(stu)["beat"] == "3"
    assert any("Beat 3 of" in (p.proto.text or "") for p in stu.get("progress")), \
        [p.proto.text for p in stu.get("progress")]
    # exploring on its own, the same address is the student's to keep
    stu.button(key="hall.explore").click().run()
    for k, v in stale.items():
        stu.query_params[k] = v
    stu.run()
    assert address(stu)["beat"] == "2"
