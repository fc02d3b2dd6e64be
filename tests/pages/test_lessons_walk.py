"""AppTest walks every beat of every lesson on the Learn page: no exception, the figure in
the beat's declared state, each task's computed right answer accepted and a wrong one
answered with feedback that says why; the address holds lesson and beat."""

from __future__ import annotations

import base64

import numpy as np
import pytest

from apptest_util import address, assert_clean, chart_elements, chart_spec, open_app_page
from pages.common.lesson_file import SCHEMAS, load_lessons
from pages.common.share import query_string
from pages.common.text import literal
from views import lesson_questions as lq
from views.lesson_scenes import page_scene

LESSONS = load_lessons()


def _array(v):
    if isinstance(v, dict) and "bdata" in v:
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"])
    return np.asarray(v, dtype=float)


def _answer(at, prefix, q, value):
    key = f"{prefix}.input"
    if q.answer == "option":
        at.radio(key=key).set_value(value)
    elif q.answer == "k":
        at.slider(key=key).set_value(int(value))
    elif q.answer in ("point", "number"):
        at.number_input(key=key).set_value(value)
    at.button(key=f"{prefix}.check").click().run()


def _feedback_texts(at):
    return [e.value for e in at.success], [e.value for e in at.warning]


def _scene(beat):
    k_max = SCHEMAS["skpca"]["k"].at("hi", beat.state) if beat.page == "skpca" else 0
    return page_scene(beat.page, beat.state, k_max)


def _check_kmp_figure(at, beat, shown, fig):
    """The KMP figure is the page's figure of the beat's tab, opened at the beat's step, and
    its caption quotes this state's numbers."""
    s = _scene(beat)
    want = s.figure()
    assert len(fig["data"]) == len(want["data"])
    assert [t.get("type") for t in fig["data"]] == [t.get("type") for t in want["data"]]
    frames = fig.get("frames") or []
    if want.get("frames"):
        assert len(frames) == s.shown(shown["k"], shown["j"])[0]
    assert literal(s.caption(shown["k"], shown["j"])) in [c.value for c in at.caption]


def _check_figure(at, beat):
    shown = at.session_state["learn.figure"]
    assert shown["query"] == beat.state.query()
    links = [m.value for m in at.markdown if "Open this view in the full page" in m.value]
    assert links == [f"[Open this view in the full page ↗]({beat.page}?{query_string(beat.state)})"]
    charts = chart_elements(at)
    if shown["mode"] == "hidden":
        assert not charts
        return
    s = _scene(beat)
    if hasattr(s, "figures"):  # a page without steps: its figures, in the declared state
        figures = s.figures()
        assert len(charts) == len(figures)
        for chart, (_, fig) in zip(charts, figures):
            assert [t.get("name") for t in chart_spec(chart)["data"]] == [
                t.get("name") for t in fig["data"]]
        assert any(literal(s.caption()) == c.value for c in at.caption)
        return
    assert len(charts) == 1
    fig = chart_spec(charts[0])
    if beat.page == "kmp":
        return _check_kmp_figure(at, beat, shown, fig)
    s = _scene(beat)
    colours = _array(fig["data"][0]["marker"]["color"])
    assert colours == pytest.approx(s.residual_diag(shown["j"]), rel=1e-5, abs=1e-6)
    frames = fig.get("frames") or []
    assert len(frames) == shown["k"]


def _ask(at, lesson, beat, name):
    q = lq.get(name)
    s = _scene(beat)
    prefix = f"learn.{lesson.id}.{beat.number}.{name}"
    if q.answer not in ("none", "k"):  # nothing is scored before an answer is given
        at.button(key=f"{prefix}.check").click().run()
        assert any("Give an answer first" in i.value for i in at.info)
        assert_clean(at)
    _answer(at, prefix, q, q.right(s))
    assert_clean(at)
    ok, bad = _feedback_texts(at)
    assert literal(q.check(s, q.right(s)).text) in ok, f"{name}: the right answer was not accepted"
    if q.answer == "none":
        return
    at.button(key=f"{prefix}.again").click().run()
    _answer(at, prefix, q, q.wrong(s))
    assert_clean(at)
    ok2, bad2 = _feedback_texts(at)
    assert len(bad2) == len(bad) + 1 and len(ok2) == len(ok) - 1, (name, ok2, bad2)
    assert any(ch.isdigit() for ch in bad2[-1])
    # the page says it in words, not only by the alert's colour
    assert literal(q.check(s, q.wrong(s)).shown) in bad2, (name, bad2)


@pytest.mark.parametrize("lesson_id", sorted(LESSONS))
def test_walk_every_beat(lesson_id):
    lesson = LESSONS[lesson_id]
    at = open_app_page("pages/learn.py", params={"lesson": lesson_id, "beat": "1"})
    for beat in lesson.beats:
        assert_clean(at)
        assert address(at) == {"lesson": lesson_id, "beat": str(beat.number)}
        assert any(f"Beat {beat.number} of {len(lesson.beats)}" in (p.proto.text or "")
                   for p in at.get("progress"))
        _check_figure(at, beat)
        names = [beat.task.question] if beat.task else list(beat.check)
        for name in names:
            _ask(at, lesson, beat, name)
        if beat.task is not None:
            _check_figure(at, beat)  # after the answer: revealed, still the declared state
        if beat.check:
            assert any("of 3 right" in m.value for m in at.markdown)
        at.button(key="learn-next").click().run()
    assert_clean(at)
    assert "lesson" not in address(at)  # Finish: back to the list
    assert any(s.value == "Open your own lesson file" for s in at.subheader)


def test_back_and_reload_resume_the_beat():
    at = open_app_page("pages/learn.py", params={"lesson": "greedy-selection", "beat": "3"})
    assert_clean(at)
    at.button(key="learn-back").click().run()
    assert address(at)["beat"] == "2"
    again = open_app_page("pages/learn.py", params=address(at))
    assert again.session_state["learn.figure"]["beat"] == 2


@pytest.mark.parametrize("params,says", [
    ({"lesson": "nope"}, "There is no lesson"),
    ({"lesson": "kernel-matrix", "beat": "99"}, "has beats 1 to"),
    ({"lesson": "kernel-matrix", "beat": "x<b>"}, "has beats 1 to"),
])
def test_a_bad_address_shows_an_error_and_the_list(params, says):
    at = open_app_page("pages/learn.py", params=params)
    assert not at.exception
    assert len(at.error) == 1 and says in at.error[0].value
    assert any(s.value == "Open your own lesson file" for s in at.subheader)


def test_presentation_mode_from_the_address_survives_next():
    at = open_app_page("pages/learn.py", params={"lesson": "kernel-matrix", "beat": "1",
                                                 "present": "1"})
    assert_clean(at)
    assert at.toggle(key="learn.present").value is True
    at.button(key="learn-next").click().run()
    assert address(at) == {"lesson": "kernel-matrix", "beat": "2", "present": "1"}


def test_an_unmoved_k_slider_is_not_an_answer():
    """A slider always has a value: Check before the student moved it scores nothing."""
    lesson = LESSONS["greedy-selection"]
    beat = next(b for b in lesson.beats
                if b.task is not None and lq.get(b.task.question).answer == "k")
    at = open_app_page("pages/learn.py", params={"lesson": lesson.id, "beat": str(beat.number)})
    prefix = f"learn.{lesson.id}.{beat.number}.{beat.task.question}"
    at.button(key=f"{prefix}.check").click().run()
    assert_clean(at)
    assert any("Give an answer first" in i.value for i in at.info)
    assert _feedback_texts(at) == ([], [])
