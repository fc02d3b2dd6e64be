"""Open a hall session file on the Learn page: a lecture's moves and polls replayed; a bad
file is an error message, never a traceback."""

from __future__ import annotations

import json

from apptest_util import address, open_app_page
from hall.config import process_hall
from hall_apptest import lecturer, memory_hall, page_text, student  # noqa: F401


def plain(at) -> str:
    """The page's text without the escapes that show user text literally."""
    return page_text(at).replace("\\", "")


def upload(raw: bytes, name="hall.json"):
    at = open_app_page("pages/learn.py")
    at.file_uploader(key="hall.replay.file").set_value((name, raw, "application/json")).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def session_file() -> bytes:
    lec, room = lecturer()
    a = student(room)
    lec.button(key="hall.poll.open").click().run()
    a.run()
    a.number_input(key="hall.answer.point").set_value(3)
    a.button(key="hall.answer.send").click().run()
    lec.button(key="hall.poll.reveal").click().run()
    lec.button(key="learn-next").click().run()
    lec.run()
    return json.dumps(process_hall().export(room, address(lec)["hall_key"])).encode()


def test_a_session_file_replays_its_moves_and_polls():
    at = upload(session_file())
    text = plain(at)
    assert "2 moves of the lecturer, 1 polls" in text
    assert any("Poll 1: Click the point" in e.label.replace("\\", "") for e in at.expander)
    assert "Answers: 1" in text
    assert "The answer: point" in text
    at.slider(key="hall.replay.move").set_value(2).run()
    assert "Move 2 of 2: Greedy selection: which point to keep next, beat 3" in plain(at)


def test_bad_session_files_are_errors_not_tracebacks():
    for raw in (b"", b"not json", b"[" * 100, json.dumps({"format": "x"}).encode(),
                json.dumps({"format": "mp-hall-session", "version": 1, "polls": [{"spec": 1}],
                            "events": []}).encode(), "\ufeff{}".encode(), b"\xff\xfe"):
        at = upload(raw)
        assert [e.value for e in at.error if "not a hall session file" in e.value], raw


def test_a_session_files_texts_are_shown_as_text():
    from pages.common.hall_figures import histogram_figure

    evil = '<a href="http://x">click</a>'
    raw = json.dumps({"format": "mp-hall-session", "version": 1, "events": [], "polls": [
        {"poll": "1", "spec": {"kind": "option", "prompt": "![x](http://x/a.png) **p**",
                               "options": [evil, "b"]},
         "answers": [{"device": "d" * 16, "answer": evil}], "reveal": None}]}).encode()
    at = upload(raw)
    assert not at.error
    label = [e.label for e in at.expander][0]
    assert "\\!\\[x\\]\\(http" in label  # escaped: no image fetched
    bars = histogram_figure([evil, "b"], {evil: 1}).data[0]
    assert "<a" not in bars.x[0]
