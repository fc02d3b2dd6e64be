"""Lesson files: one TOML file per lesson under ``lessons/``, read and validated here.

No Streamlit here. Every beat's view goes through its page's own
:class:`~pages.common.state.Schema` (the one validator of the URL), but strictly: where a
link's bad value becomes the default with a note, a lesson's becomes a
:class:`LessonError` naming the lesson, the beat and the line. Tasks name questions of
:mod:`views.lesson_questions`; the answers are computed there, never written here. The
format is described in ``docs/lessons.md``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from views import lesson_questions

from .schemas import BOUNDS, KCCA, KMP, SKPCA, SPECTRUM
from .state import State

#: Pages a beat may show, by their schema's name.
SCHEMAS = {s.page: s for s in (SKPCA, KMP, SPECTRUM, BOUNDS, KCCA)}
#: Pages whose live figure the Learn page draws (the others: a link to the page).
DRAWN = ("skpca", "kmp", "bounds", "spectrum")
LESSONS_DIR = Path(__file__).resolve().parents[2] / "lessons"
MIN_BEATS, MAX_BEATS = 6, 12
#: Prose: about 80 words (this is the hard limit).
MAX_WORDS = 90
MAX_BYTES = 200_000
KINDS = ("predict", "observe", "explain")
CHECK_QUESTIONS = 3
_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,59}$")
_BEAT_HEADER = re.compile(r"^\s*\[\[\s*beats\s*\]\]\s*(#.*)?$")
_UNSAFE = re.compile(r"!\[|<\s*[a-zA-Z/!?]")

_LESSON_KEYS = {"id", "title", "minutes", "summary", "outcomes", "sources", "beats"}
_BEAT_KEYS = {"title", "prose", "page", "view", "task", "check"}
_TASK_KEYS = {"kind", "question", "answer", "prompt"}
_CHECK_KEYS = {"questions", "prompt"}


class LessonError(ValueError):
    """A lesson file that cannot be used, with where and why (shown as it is, in st.error)."""


@dataclass(frozen=True)
class Task:
    kind: str
    question: str | None
    answer: str
    prompt: str


@dataclass(frozen=True)
class Beat:
    number: int
    line: int
    title: str
    prose: str
    page: str
    state: State
    task: Task | None
    check: tuple[str, ...]
    check_prompt: str

    def url_query(self) -> dict[str, str]:
        """The page's own URL query of this beat's view."""
        return self.state.query()


@dataclass(frozen=True)
class Source:
    paper: str
    sections: str


@dataclass(frozen=True)
class Lesson:
    id: str
    title: str
    minutes: int
    summary: str
    outcomes: tuple[str, ...]
    sources: tuple[Source, ...]
    beats: tuple[Beat, ...]
    file: str


def _lines_of_beats(text: str) -> list[int]:
    return [n for n, line in enumerate(text.splitlines(), 1) if _BEAT_HEADER.match(line)]


def _line_of_key(text: str, key: str, start: int, end: int | None) -> int:
    """The line of ``key = ...`` between lines ``start`` and ``end`` (else ``start``)."""
    pattern = re.compile(r'^\s*("?)' + re.escape(key) + r'\1\s*=')
    for n, line in enumerate(text.splitlines()[start - 1:end], start):
        if pattern.match(line):
            return n
    return start


class _Reader:
    def __init__(self, name: str, text: str):
        self.name = name
        self.text = text
        self.beat_lines = _lines_of_beats(text)

    def fail(self, why: str, *, beat: int | None = None, key: str | None = None,
             line: int | None = None):
        where = f"lesson {self.name}"
        if beat is not None:
            where += f", beat {beat}"
            if line is None and beat - 1 < len(self.beat_lines):
                start = self.beat_lines[beat - 1]
                end = self.beat_lines[beat] - 1 if beat < len(self.beat_lines) else None
                line = _line_of_key(self.text, key, start, end) if key else start
        elif key is not None and line is None:
            end = self.beat_lines[0] - 1 if self.beat_lines else None
            line = _line_of_key(self.text, key, 1, end)
        if line is not None:
            where += f" (line {line})"
        raise LessonError(f"{where}: {why}")


def _text(r: _Reader, value, what: str, *, beat=None, key=None, empty_ok=False) -> str:
    if not isinstance(value, str) or (not value.strip() and not empty_ok):
        r.fail(f"{what} must be a non-empty string", beat=beat, key=key)
    return value.strip()


def _prose(r: _Reader, value, beat: int) -> str:
    text = _text(r, value, "prose", beat=beat, key="prose")
    words = len(text.split())
    if words > MAX_WORDS:
        r.fail(f"prose has {words} words; a beat's prose is at most about 80 (limit {MAX_WORDS}): "
               "split the beat", beat=beat, key="prose")
    if _UNSAFE.search(text):
        r.fail("prose may not contain images or HTML tags (Markdown text and $maths$ only)",
               beat=beat, key="prose")
    return text


def _unknown(r: _Reader, table: Mapping, allowed: set, what: str, *, beat=None):
    extra = sorted(str(k) for k in table if k not in allowed)
    if extra:
        r.fail(f"unknown {what} key {extra[0]!r} (allowed: {', '.join(sorted(allowed))})",
               beat=beat, key=extra[0])


def _view(r: _Reader, page: str, view, beat: int) -> State:
    schema = SCHEMAS[page]
    if not isinstance(view, Mapping):
        r.fail("view must be a table of the page's fields ([beats.view])", beat=beat, key="view")
    for key in view:
        if key not in schema:
            r.fail(f"{key!r} is not a field of the {page} page (fields: "
                   f"{', '.join(schema.keys)})", beat=beat, key=key)
    if schema["dataset"].key in view and view.get("dataset") == "csv upload":
        r.fail("a lesson shows bundled data only, not an upload", beat=beat, key="dataset")
    state, notes = schema.build(dict(view))
    if notes:
        r.fail(notes[0], beat=beat, key=_key_in(notes[0], schema, view))
    for key in view:
        if key not in state:
            r.fail(f"{key!r} does not apply in this view (for example sigma with a kernel that "
                   "has no width)", beat=beat, key=key)
    return state


def _key_in(note: str, schema, view) -> str | None:
    for key in view:
        if note.startswith(schema[key].label + ":"):
            return key
    return None


def _task(r: _Reader, task, page: str, state: State, beat: int) -> Task:
    if not isinstance(task, Mapping):
        r.fail("task must be a table ([beats.task])", beat=beat, key="task")
    _unknown(r, task, _TASK_KEYS, "task", beat=beat)
    kind = task.get("kind")
    if kind not in KINDS:
        r.fail(f"task kind must be one of {', '.join(KINDS)}, not {kind!r}", beat=beat, key="kind")
    name = task.get("question")
    if not isinstance(name, str) or name not in lesson_questions.QUESTIONS:
        r.fail(f"unknown question {name!r} (see docs/lessons.md for the registry)", beat=beat,
               key="question")
    q = _question(r, name, page, state, beat)
    if kind == "observe" and q.answer != "none":
        r.fail(f"an observe task takes a question that needs no answer; {name} takes a "
               f"{q.answer}", beat=beat, key="question")
    if kind != "observe" and q.answer == "none":
        r.fail(f"a {kind} task needs a question with an answer; {name} takes none (use observe)",
               beat=beat, key="question")
    answer = task.get("answer", q.answer)
    if answer != q.answer:
        r.fail(f"{name} takes a {q.answer} answer, not {answer!r}", beat=beat, key="answer")
    prompt = _text(r, task.get("prompt", ""), "task prompt", beat=beat, key="prompt",
                   empty_ok=True)
    if _UNSAFE.search(prompt):
        r.fail("the prompt may not contain images or HTML tags", beat=beat, key="prompt")
    return Task(kind=kind, question=name, answer=q.answer, prompt=prompt)


def _question(r: _Reader, name, page, state, beat) -> lesson_questions.Question:
    if not isinstance(name, str) or name not in lesson_questions.QUESTIONS:
        r.fail(f"unknown question {name!r} (see docs/lessons.md for the registry)", beat=beat,
               key="question" if not isinstance(name, str) else None)
    q = lesson_questions.get(name)
    if q.page != page:
        r.fail(f"{name} asks about the {q.page} page, but this beat shows {page}", beat=beat,
               key="page")
    why = q.needs(state)
    if why:
        r.fail(f"{name} cannot be asked in this view: {why}", beat=beat, key="view")
    return q


def _check(r: _Reader, check, page, state, beat) -> tuple[tuple[str, ...], str]:
    if not isinstance(check, Mapping):
        r.fail("check must be a table ([beats.check])", beat=beat, key="check")
    _unknown(r, check, _CHECK_KEYS, "check", beat=beat)
    names = check.get("questions")
    if not isinstance(names, list) or len(names) != CHECK_QUESTIONS:
        r.fail(f"a closing check has exactly {CHECK_QUESTIONS} questions", beat=beat,
               key="questions")
    for name in names:
        q = _question(r, name, page, state, beat)
        if q.answer in ("none",):
            r.fail(f"{name} takes no answer: a check question needs one", beat=beat,
                   key="questions")
    prompt = _text(r, check.get("prompt", ""), "check prompt", beat=beat, key="prompt",
                   empty_ok=True)
    return tuple(names), prompt


def _beat(r: _Reader, raw, n: int) -> Beat:
    if not isinstance(raw, Mapping):
        r.fail("a beat must be a table", beat=n)
    _unknown(r, raw, _BEAT_KEYS, "beat", beat=n)
    title = _text(r, raw.get("title"), "title", beat=n, key="title")
    prose = _prose(r, raw.get("prose"), n)
    page = raw.get("page")
    if page not in SCHEMAS:
        r.fail(f"unknown page {page!r} (pages: {', '.join(SCHEMAS)})", beat=n, key="page")
    state = _view(r, page, raw.get("view", {}), n)
    if "task" in raw and "check" in raw:
        r.fail("a beat has a task or a closing check, not both", beat=n, key="check")
    task = _task(r, raw["task"], page, state, n) if "task" in raw else None
    check, check_prompt = (_check(r, raw["check"], page, state, n) if "check" in raw
                           else ((), ""))
    line = r.beat_lines[n - 1] if n - 1 < len(r.beat_lines) else 0
    return Beat(number=n, line=line, title=title, prose=prose, page=page, state=state, task=task,
                check=check, check_prompt=check_prompt)


def parse_lesson(text, name: str = "<lesson>") -> Lesson:
    """Validate a lesson file's text; a :class:`LessonError` says what and where."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LessonError(f"lesson {name}: not UTF-8 text (byte {exc.start})") from None
    if not isinstance(text, str):
        raise LessonError(f"lesson {name}: not text")
    if len(text) > MAX_BYTES:
        raise LessonError(f"lesson {name}: longer than {MAX_BYTES} characters")
    r = _Reader(name, text)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"line (\d+)", str(exc))
        r.fail(f"not valid TOML: {exc}", line=int(match.group(1)) if match else None)
    except (ValueError, RecursionError) as exc:  # e.g. a number too long for int()
        r.fail(f"not valid TOML: {exc}")
    _unknown(r, raw, _LESSON_KEYS, "lesson")
    lesson_id = raw.get("id")
    if not isinstance(lesson_id, str) or not _ID.match(lesson_id):
        r.fail("id must be lower-case letters, digits and hyphens (e.g. \"kernel-matrix\")",
               key="id")
    r.name = lesson_id if name == "<lesson>" else name
    title = _text(r, raw.get("title"), "title", key="title")
    minutes = raw.get("minutes")
    if not isinstance(minutes, int) or isinstance(minutes, bool) or not 1 <= minutes <= 60:
        r.fail("minutes must be a whole number from 1 to 60", key="minutes")
    summary = _text(r, raw.get("summary", title), "summary", key="summary")
    outcomes = raw.get("outcomes", [])
    if not isinstance(outcomes, list) or not all(isinstance(o, str) and o.strip() for o in outcomes):
        r.fail("outcomes must be a list of strings", key="outcomes")
    sources = raw.get("sources")
    if not isinstance(sources, list) or not sources:
        r.fail("sources must name at least one paper and its sections ([[sources]])", key="sources")
    srcs = []
    for s in sources:
        if not isinstance(s, Mapping) or set(s) - {"paper", "sections"}:
            r.fail("each source is a table with paper and sections", key="sources")
        srcs.append(Source(_text(r, s.get("paper"), "source paper", key="paper"),
                           _text(r, s.get("sections"), "source sections", key="sections")))
    beats = raw.get("beats")
    if not isinstance(beats, list):
        r.fail("a lesson has beats ([[beats]] tables)")
    if not MIN_BEATS <= len(beats) <= MAX_BEATS:
        r.fail(f"a lesson has {MIN_BEATS} to {MAX_BEATS} beats, this one {len(beats)}")
    parsed = tuple(_beat(r, b, n) for n, b in enumerate(beats, 1))
    for text_ in (title, summary, *outcomes, *(s.paper + s.sections for s in srcs)):
        if _UNSAFE.search(text_):
            r.fail("titles, summary, outcomes and sources may not contain images or HTML tags")
    return Lesson(id=lesson_id, title=title, minutes=minutes, summary=summary,
                  outcomes=tuple(o.strip() for o in outcomes), sources=tuple(srcs), beats=parsed,
                  file=name)


def load_lesson(path: Path) -> Lesson:
    return parse_lesson(Path(path).read_bytes(), Path(path).name)


def lesson_files(folder: Path = LESSONS_DIR) -> list[Path]:
    """The lesson files of the app, in their order (file names start with a number)."""
    return sorted(folder.glob("*.toml"))


def load_lessons(folder: Path = LESSONS_DIR) -> dict[str, Lesson]:
    """Every lesson of ``folder`` by id (a bad file raises its LessonError)."""
    out: dict[str, Lesson] = {}
    for path in lesson_files(folder):
        lesson = load_lesson(path)
        if lesson.id in out:
            raise LessonError(f"lesson {path.name}: id {lesson.id!r} is used by "
                              f"{out[lesson.id].file} too")
        out[lesson.id] = lesson
    return out
