"""A hall poll: what the lecturer opened, and which answers it accepts.

A poll is a lesson task opened to the hall (views.lesson_question's answer types "point",
"k" and "option"). Its spec says what a valid answer is, so a student's phone cannot send
a point that is not in the view, a k outside the slider or an option that was not offered.
Answers travel and are stored as canonical strings.
"""

from __future__ import annotations

import json
import math
import numbers
import re
from dataclasses import asdict, dataclass

__all__ = ["KINDS", "PollSpec", "canonical"]

KINDS = ("point", "k", "option")
#: Longest prompt or option text kept (a lesson's own text, shown literally).
MAX_TEXT = 500
MAX_OPTIONS = 12
#: Most points a point poll may offer (the app's data cap).
MAX_POINTS = 5000


@dataclass(frozen=True)
class PollSpec:
    """``kind`` "point": an index 0..n-1 of the view's training points; "k": an integer in
    lo..hi; "option": one of ``options``. ``lesson``, ``beat`` and ``question`` name the
    lesson task (the reveal computes its answer from the question)."""

    kind: str
    prompt: str
    lesson: str = ""
    beat: int = 0
    question: str = ""
    n: int = 0
    lo: int = 1
    hi: int = 1
    options: tuple[str, ...] = ()

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"a poll's kind is one of {', '.join(KINDS)}, not {self.kind!r}")
        for name in ("prompt", "lesson", "question"):
            v = getattr(self, name)
            if not isinstance(v, str) or len(v) > MAX_TEXT:
                raise ValueError(f"a poll's {name} is text of at most {MAX_TEXT} characters")
        for name in ("beat", "n", "lo", "hi"):
            if type(getattr(self, name)) is not int:
                raise ValueError(f"a poll's {name} is an integer, not {getattr(self, name)!r}")
        if self.kind == "point" and not 1 <= self.n <= MAX_POINTS:
            raise ValueError(f"a point poll needs 1 to {MAX_POINTS} points (n = {self.n})")
        if self.kind == "k" and not 0 <= self.lo <= self.hi <= 10_000:
            raise ValueError(f"a k poll needs 0 <= lo <= hi <= 10000 (lo = {self.lo}, "
                             f"hi = {self.hi})")
        opts = self.options
        # every kind: a spec is a value (hashable, compared, cached), so its options are text
        if (not isinstance(opts, tuple) or len(opts) > MAX_OPTIONS
                or not all(isinstance(o, str) and 0 < len(o) <= MAX_TEXT for o in opts)):
            raise ValueError(f"a poll's options are at most {MAX_OPTIONS} texts of 1 to "
                             f"{MAX_TEXT} characters")
        if self.kind == "option" and (len(opts) < 2 or len(set(opts)) < len(opts)):
            # each option is one bin of the hall's histogram and one answer a phone sends
            raise ValueError(f"an option poll offers 2 to {MAX_OPTIONS} different options")

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> PollSpec:
        d = json.loads(text)
        if not isinstance(d, dict):
            raise ValueError("a poll is a JSON object")
        known = set(cls.__dataclass_fields__)
        if not set(d) <= known:
            raise ValueError(f"unknown poll field(s): {sorted(set(d) - known)}")
        missing = [f for f in ("kind", "prompt") if f not in d]
        if missing:
            raise ValueError(f"a poll needs its {' and '.join(missing)}")
        if "options" in d:
            if not isinstance(d["options"], list):
                raise ValueError("a poll's options are a list")
            d["options"] = tuple(d["options"])
        return cls(**d)

    def values(self) -> list[str]:
        """Every valid answer, in order (the histogram's bins)."""
        if self.kind == "point":
            return [str(i) for i in range(self.n)]
        if self.kind == "k":
            return [str(k) for k in range(self.lo, self.hi + 1)]
        return list(self.options)


def canonical(spec: PollSpec, value) -> str:
    """``value`` as the poll stores it, or ValueError saying what the poll accepts."""
    if spec.kind in ("point", "k"):
        if isinstance(value, bool):
            raise ValueError("an answer is a whole number, not true or false")
        if isinstance(value, float) and math.isfinite(value) and value == int(value):
            value = int(value)
        # a typed number: an optional minus and decimal digits (any script's, as int()
        # reads them; not "²" or "--5", which isdigit() would let through to int())
        if (isinstance(value, str) and len(value.strip()) <= 6
                and re.fullmatch(r"-?\d+", value.strip())):
            value = int(value.strip())
        if isinstance(value, numbers.Integral):  # numpy's integers too (a chart's click)
            value = int(value)
        if not isinstance(value, int):
            raise ValueError(f"this poll takes a whole number, not {str(value)[:40]!r}")
        lo, hi = (0, spec.n - 1) if spec.kind == "point" else (spec.lo, spec.hi)
        if not lo <= value <= hi:
            what = "a point of the view" if spec.kind == "point" else "k"
            raise ValueError(f"{what} is {lo} to {hi}, not {value}")
        return str(value)
    if not isinstance(value, str) or value not in spec.options:
        raise ValueError(f"choose one of the {len(spec.options)} options offered")
    return value
