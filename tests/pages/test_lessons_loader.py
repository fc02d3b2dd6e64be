"""Lesson files: every lesson validates; a bad file gives one clear LessonError naming the
lesson, the beat and the line, never another exception (property tests included)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pages.common.lesson_file import (
    MAX_BEATS,
    LessonError,
    lesson_files,
    load_lesson,
    load_lessons,
    parse_lesson,
)
from pages.common.schemas import SKPCA

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "lessons" / "examples" / "example.toml"
LESSON1 = (ROOT / "lessons" / "01-kernel-matrix.toml").read_text(encoding="utf-8")


def test_every_lesson_file_validates():
    lessons = load_lessons()
    assert len(lesson_files()) == len(lessons) >= 2
    for lesson in lessons.values():
        assert 6 <= len(lesson.beats) <= 12
        kinds = [b.task.kind for b in lesson.beats if b.task]
        assert kinds.count("predict") >= 2, lesson.id
        assert sum(bool(b.check) for b in lesson.beats) == 1, lesson.id
        assert lesson.beats[-1].check, "the closing check comes last"


def test_the_docs_example_loads_and_is_the_one_in_the_docs():
    lesson = load_lesson(EXAMPLE)
    assert lesson.id == "example-width" and len(lesson.beats) == 6
    docs = (ROOT / "docs" / "lessons.md").read_text(encoding="utf-8")
    block = re.search(r"```toml\n(.*?)```", docs, re.S).group(1)
    assert block.strip() == EXAMPLE.read_text(encoding="utf-8").strip()


def test_beat_lines_point_at_the_beats_tables():
    lesson = parse_lesson(LESSON1, "01.toml")
    lines = LESSON1.splitlines()
    for beat in lesson.beats:
        assert lines[beat.line - 1].strip() == "[[beats]]"


def test_a_beats_view_is_the_pages_own_state():
    beat = parse_lesson(LESSON1, "01.toml").beats[0]
    state, notes = SKPCA.from_query(beat.url_query())
    assert not notes and state == beat.state


def _error(text) -> str:
    with pytest.raises(LessonError) as info:
        parse_lesson(text, "bad.toml")
    return str(info.value)


def _beat_line(text: str, n: int) -> int:
    return [i for i, line in enumerate(text.splitlines(), 1) if line.strip() == "[[beats]]"][n - 1]


def _line(text: str, needle: str, after: int = 0) -> int:
    for i, line in enumerate(text.splitlines(), 1):
        if i > after and needle in line:
            return i
    raise AssertionError(needle)


@pytest.mark.parametrize("old,new,says", [
    ('page = "skpca"\n[beats.view]\ndataset = "blobs"', 'page = "nope"\n[beats.view]\ndataset = "blobs"',
     "unknown page 'nope'"),
    ('dataset = "blobs"\nsigma = 1.0', 'dataset = "blobs"\nsigmaa = 1.0', "'sigmaa' is not a field"),
    ('dataset = "blobs"\nsigma = 1.0', 'dataset = "blobs"\nsigma = 0.77', "sigma"),
    ('k = 10\nj = 2\n[beats.check]', 'k = 1000\nj = 2\n[beats.check]', "outside"),
    ('"skpca.explained_point", "skpca.trace_left"]', '"skpca.explained_point"]', "exactly 3"),
    ('"skpca.trace_left"]', '"skpca.nope"]', "unknown question 'skpca.nope'"),
])
def test_bad_values_in_the_last_beat_name_the_lesson_the_beat_and_the_line(old, new, says):
    assert LESSON1.count(old) == 1, old
    text = LESSON1.replace(old, new)
    msg = _error(text)
    assert msg.startswith("lesson bad.toml, beat 9 (line "), msg
    assert says in msg
    line = int(re.search(r"line (\d+)", msg).group(1))
    assert line >= _beat_line(text, 9)


def test_a_malformed_task_names_its_line():
    text = LESSON1.replace('question = "kernel.self_similarity"\nanswer = "number"',
                           'question = "kernel.self_similarity"\nanswer = "option"')
    msg = _error(text)
    assert "beat 2" in msg and "takes a number answer, not 'option'" in msg
    assert "line %d" % _line(text, 'answer = "option"') in msg
    text = LESSON1.replace('kind = "observe"', 'kind = "guess"', 1)
    assert "task kind must be one of predict, observe, explain" in _error(text)
    text = LESSON1.replace('[beats.task]\nkind = "observe"\nquestion = "skpca.step_story"',
                           '[beats.task]\nkind = "predict"\nquestion = "skpca.step_story"', 1)
    assert "a predict task needs a question with an answer" in _error(text)


def test_a_question_that_cannot_be_asked_in_the_view():
    text = LESSON1.replace('j = 3\n[beats.task]\nkind = "observe"', 'j = 10\n[beats.task]\nkind = "observe"')
    assert "j (10) must be below k (10)" in _error(text)


def test_prose_too_long_and_html_are_refused():
    long = " ".join(["word"] * 120)
    text = LESSON1.replace("Three questions on new data", long + " Three questions on new data")
    assert "prose has" in _error(text) and "beat 9" in _error(text)
    text = LESSON1.replace("Three questions on new data", "<img src=x onerror=alert(1)> Three")
    assert "HTML" in _error(text)
    text = LESSON1.replace("Three questions on new data", "![x](http://host/a.png) Three")
    assert "images" in _error(text)


def test_too_few_and_too_many_beats():
    head, *beats = re.split(r"(?m)^(?=\[\[beats\]\])", LESSON1)
    assert "6 to 12 beats, this one 5" in _error(head + "".join(beats[:5]))
    assert f"this one {MAX_BEATS + 1}" in _error(head + "".join((beats * 2)[:MAX_BEATS + 1]))


def test_a_toml_syntax_error_gives_the_line():
    text = LESSON1.replace('sigma = 0.05\nk = 10\nj = 10\n[beats.task]\nkind = "predict"',
                           'sigma = 0.05\nk = 10 10\nj = 10\n[beats.task]\nkind = "predict"')
    msg = _error(text)
    assert msg.startswith(f"lesson bad.toml (line {_line(text, 'k = 10 10')}): not valid TOML")


def test_top_level_mistakes():
    assert "unknown lesson key 'titel'" in _error(LESSON1.replace("title = \"The kernel", "titel = \"The kernel", 1))
    assert "id must be" in _error(LESSON1.replace('id = "kernel-matrix"', 'id = "Kernel Matrix"'))
    assert "minutes must be" in _error(LESSON1.replace("minutes = 10", "minutes = 0"))
    assert "not UTF-8" in _error(b"\xff\xfe" + LESSON1.encode())


# ---------------------------------------------------------------- properties

ANY_ERROR = (LessonError,)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=400))
def test_fuzzed_text_gives_a_lesson_error(text):
    with pytest.raises(ANY_ERROR):
        parse_lesson(text, "fuzz.toml")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cut=st.integers(0, len(LESSON1)), junk=st.text(max_size=20))
def test_a_cut_or_spliced_lesson_is_a_lesson_or_a_lesson_error(cut, junk):
    text = LESSON1[:cut] + junk + LESSON1[cut:]
    try:
        parse_lesson(text, "fuzz.toml")
    except LessonError as exc:
        assert str(exc).startswith("lesson ")


VALUES = st.one_of(st.integers(-10**30, 10**30), st.floats(allow_nan=False, allow_infinity=False),
                   st.text(max_size=12), st.booleans(), st.lists(st.integers(), max_size=3))


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    return json.dumps(v)  # strings and lists of integers are valid TOML this way


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(["dataset", "n", "noise", "sigma", "k", "j", "test", "seed", "std",
                            "kernel", "gamma", "skpca.trick", "zzz", "present"]), value=VALUES)
def test_any_value_of_any_field_is_valid_or_a_lesson_error(key, value):
    key_text = f'"{key}"' if "." in key else key
    text = LESSON1.replace("dataset = \"blobs\"\nsigma = 1.0",
                           f"dataset = \"blobs\"\n{key_text} = {_toml_value(value)}\nsigma = 1.0")
    try:
        lesson = parse_lesson(text, "fuzz.toml")
    except LessonError as exc:
        assert str(exc).startswith("lesson fuzz.toml")
    else:
        assert lesson.beats[-1].state.schema is SKPCA
