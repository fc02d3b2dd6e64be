"""Hall polls on the Learn page (AppTest, a lecturer and students sharing the process's
hall): open, answer, change, close, reveal (computed by the lesson's own question), the
running scores, and the export."""

from __future__ import annotations

import json

from apptest_util import address
from hall.config import process_hall
from hall.export import read_session, to_csv
from hall_apptest import (  # noqa: F401
    K_BEAT,
    OPTION_BEAT,
    lecturer,
    memory_hall,
    page_text,
    student,
    texts,
)
from pages.common.lesson_file import load_lessons
from views import lesson_questions
from views.lesson_scenes import page_scene

ACK = "Answer sent (you can change it until the poll closes)"


def scene(beat_number, lesson="greedy-selection"):
    from pages.common.learn_ui import _k_max

    beat = load_lessons()[lesson].beats[beat_number - 1]
    return beat, page_scene(beat.page, beat.state, _k_max(beat.state))


def count(at) -> int:
    got = [t for t in texts(at) if t.startswith("Answers: ")]
    assert len(got) == 1, got
    return int(got[0].split()[1])


def send(at, kind, value):
    w = {"point": at.number_input, "k": at.slider, "option": at.radio}[kind]
    w(key=f"hall.answer.{kind}").set_value(value)
    at.button(key="hall.answer.send").click().run()
    assert not at.exception
    assert ACK in [s.value for s in at.success], page_text(at)


def test_a_point_poll_from_open_to_reveal_and_score():
    beat, sc = scene(2)
    q = lesson_questions.get("skpca.next_pick")
    right, wrong = int(q.right(sc)), int(q.wrong(sc))
    lec, room = lecturer()
    a, b, c = student(room), student(room), student(room)
    # no poll yet: students see the beat's own task, the lecturer the Open button
    assert not any(w.key == "hall.answer.send" for w in a.button)
    lec.button(key="hall.poll.open").click().run()
    assert count(lec) == 0
    for s in (a, b, c):
        s.run()
        assert any(w.key == "hall.answer.point" for w in s.number_input)
    send(a, "point", right)
    send(b, "point", wrong)
    send(b, "point", right)  # changed: one answer per device, the last kept
    assert f"Your answer: point {right}" in texts(b)
    lec.run()
    assert count(lec) == 2
    assert "Red circles" in page_text(lec)  # the heat map's legend
    lec.button(key="hall.poll.close").click().run()
    send_refused = c
    send_refused.run()
    assert "The poll is closed." in page_text(send_refused)
    lec.button(key="hall.poll.reveal").click().run()
    text = page_text(lec)
    assert f"**The answer: point {right}**" in texts(lec)
    assert "**2 of 2 right (100 %)**" in texts(lec)
    assert "Hall score: 2 of 2 answers right over 1 polls" in text
    for s, mine in ((a, "right"), (b, "right")):
        s.run()
        assert f"**The answer: point {right}**" in texts(s)
        assert any(w.value.startswith("Yours was right.") for w in s.success)
        assert "**Your score: 1 of 1**" in texts(s)
    c.run()
    assert "You did not answer this poll." in page_text(c)
    assert "**Your score: 0 of 1**" in texts(c)


def test_the_heat_map_sizes_the_tapped_points_by_their_counts():
    import numpy as np

    from pages.common.hall_figures import heat_figure, histogram_figure

    pts = np.arange(20, dtype=float).reshape(10, 2)
    fig = heat_figure(pts, {3: 4, 5: 1}, right=[3])
    data, taps, ring = fig.data
    assert len(data.x) == 10 and list(taps.customdata) == [3, 5]
    assert list(taps.text) == ["4", "1"] and taps.marker.size[0] > taps.marker.size[1]
    assert list(ring.x) == [pts[3, 0]]
    bars = histogram_figure(["2", "3", "4"], {"3": 2}, right=["3"]).data[0]
    assert list(bars.y) == [0, 2, 0] and bars.marker.color[1] != bars.marker.color[0]


def test_an_option_poll_scores_with_the_question_check():
    beat, sc = scene(OPTION_BEAT)
    q = lesson_questions.get(beat.task.question)
    assert q.answer == "option"
    right, wrong = q.right(sc), q.wrong(sc)
    lec, room = lecturer(beat=OPTION_BEAT)
    a, b = student(room), student(room)
    lec.button(key="hall.poll.open").click().run()
    a.run()
    b.run()
    send(a, "option", right)
    send(b, "option", wrong)
    lec.run()
    assert count(lec) == 2
    assert "Bars: how many" in page_text(lec)
    lec.button(key="hall.poll.reveal").click().run()
    assert "**1 of 2 right (50 %)**" in texts(lec)
    a.run()
    b.run()
    assert any(w.value.startswith("Yours was right.") for w in a.success)
    assert any(w.value.startswith("Yours was not right.") for w in b.warning)


def test_a_k_poll_refuses_nothing_valid_and_counts_once():
    lec, room = lecturer(beat=K_BEAT)
    a = student(room)
    lec.button(key="hall.poll.open").click().run()
    a.run()
    lo = a.slider(key="hall.answer.k").min
    send(a, "k", lo + 1)
    send(a, "k", lo + 2)
    lec.run()
    assert count(lec) == 1


def test_the_export_holds_the_answers_and_no_key():
    beat, sc = scene(2)
    right = int(lesson_questions.get("skpca.next_pick").right(sc))
    lec, room = lecturer()
    key = address(lec)["hall_key"]
    a = student(room)
    me = address(a)["me"]
    lec.button(key="hall.poll.open").click().run()
    a.run()
    send(a, "point", right)
    lec.button(key="hall.poll.reveal").click().run()
    assert {"hall.export.csv", "hall.export.json"} <= {w.key for w in lec.get("download_button")}
    export = process_hall().export(room, key)
    raw = json.dumps(export)
    assert key not in raw
    session = read_session(raw.encode())
    assert session["polls"][0]["answers"] == [(me, str(right))]
    assert f"{me},{right},true" in to_csv(export)
