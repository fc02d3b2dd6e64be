"""The types of a lesson's question registry (views.lesson_questions holds the questions).

A lesson file names a question; the question computes its answer in the beat's scene (one
of the views.lesson_scene* classes) and scores only what the student chose.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ANSWERS", "Asked", "Feedback", "Question"]

#: Answer types: a tapped point (a training index), a k on a slider, one option of a list,
#: a typed number, or none (an observe task: the app runs the step and explains it).
ANSWERS = ("point", "k", "option", "number", "none")


@dataclass(frozen=True)
class Asked:
    """What a question shows before the answer: computed text, options or a k range."""

    text: str = ""
    options: tuple = ()
    lo: int = 1
    hi: int = 1


#: The words a wrong answer's feedback may begin with. Feedback that begins otherwise is shown
#: after :data:`WRONG_LEAD`: the words, not only the alert's colour, say it was not right.
WRONG_LEADS = re.compile(r"(No|Not)\b")
WRONG_LEAD = "Not quite."


@dataclass(frozen=True)
class Feedback:
    right: bool
    text: str

    @property
    def shown(self) -> str:
        """The text as the student reads it: a wrong answer's says so in its first words."""
        if self.right or WRONG_LEADS.match(self.text):
            return self.text
        return f"{WRONG_LEAD} {self.text}"


@dataclass(frozen=True)
class Question:
    """One question of the registry.

    ``needs(values)`` returns why a view cannot ask it (or None): the loader reports it with
    the beat's line. ``right(scene)`` and ``wrong(scene)`` give one right and one wrong
    answer (the tests feed both). ``reveals`` says a predict task moves the figure to the
    next step once answered.
    """

    name: str
    page: str
    answer: str
    summary: str
    ask: Callable[[Any], Asked]
    check: Callable[[Any, object], Feedback]
    right: Callable[[Any], object]
    wrong: Callable[[Any], object]
    needs: Callable[[Mapping], str | None] = field(default=lambda values: None)
    reveals: bool = False
