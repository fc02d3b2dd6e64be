"""Shared helpers of the hall's AppTest tests: two sessions (a lecturer and a student) that
share this process's in-memory hall, and the text a page shows."""

from __future__ import annotations

import pytest

from apptest_util import address, open_app_page

LESSON = "greedy-selection"
#: Beats of that lesson whose task is a point, an option and a k question.
POINT_BEAT, OPTION_BEAT, K_BEAT = 2, 5, 7
TEXT_ELEMENTS = ("markdown", "caption", "code", "text", "info", "success", "warning", "error",
                 "title", "header", "subheader", "latex", "toast")


@pytest.fixture(autouse=True)
def memory_hall(monkeypatch):
    """The in-process hall (no Redis from the environment)."""
    monkeypatch.delenv("MP_HALL_REDIS", raising=False)


def page_text(at) -> str:
    """Every text the page shows, its widgets' labels and its address."""
    parts = []
    for kind in TEXT_ELEMENTS:
        parts += [str(e.value) for e in getattr(at, kind, ())]
    for kind in ("button", "text_input", "number_input", "slider", "radio", "selectbox",
                 "checkbox", "toggle"):
        for w in getattr(at, kind, ()):
            parts.append(str(getattr(w, "label", "")))
            parts.append(str(getattr(w, "help", "") or ""))
    parts.append(repr(address(at)))
    return "\n".join(parts)


def texts(at, kind="markdown") -> list[str]:
    return [str(e.value) for e in getattr(at, kind)]


def lecturer(lesson=LESSON, beat=POINT_BEAT):
    """A lecturer who started a hall on the Learn page and went to ``lesson``'s ``beat``."""
    at = open_app_page("pages/learn.py")
    at.button(key="hall.start").click().run()
    room = address(at)["hall"]
    if lesson is not None:
        at.query_params["lesson"] = lesson
        at.query_params["beat"] = str(beat)
        at.run()
    assert not at.exception
    return at, room


def student(room, page="pages/learn.py", **params):
    return open_app_page(page, params={"hall": room, **params})


def keys(at, kind="button") -> set:
    return {w.key for w in getattr(at, kind)}
