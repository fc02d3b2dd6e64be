"""A hall session after the lecture: its answers as CSV, and the session file the app
replays (the JSON of :meth:`hall.session.Hall.export`).

The export holds anonymous device ids, the polls, their reveals and the lecturer's moves;
never the lecturer's key or its hash. :func:`read_session` checks a session file from
anywhere (a student, a colleague, a broken download) before the app replays it.
"""

from __future__ import annotations

import csv
import io
import json

from hall.polls import PollSpec
from hall.session import _check_position

__all__ = ["MAX_BYTES", "read_session", "to_csv"]

MAX_BYTES = 5_000_000
CSV_FIELDS = ("poll", "kind", "lesson", "beat", "question", "prompt", "device", "answer",
              "right")


def to_csv(export: dict) -> str:
    """One row per answer: the poll, what it asked, the device and its answer. A text cell
    that a spreadsheet would run as a formula starts with ``'`` (a device id may start with
    "-": a page sends any id of its alphabet)."""
    out = io.StringIO()
    w = csv.DictWriter(out, CSV_FIELDS, lineterminator="\n")
    w.writeheader()
    for poll in export["polls"]:
        spec = poll["spec"]
        for a in poll["answers"]:
            w.writerow(dict(poll=poll["poll"], kind=spec["kind"], lesson=_cell(spec["lesson"]),
                            beat=spec["beat"], question=_cell(spec["question"]),
                            prompt=_cell(spec["prompt"]), device=_cell(a["device"]),
                            answer=_cell(a["answer"]),
                            right="" if a["right"] is None else str(a["right"]).lower()))
    return out.getvalue()


def _cell(text: str) -> str:
    """A cell a spreadsheet shows as text, never runs as a formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _fail(msg):
    raise ValueError(f"not a hall session file: {msg}")


def read_session(raw: bytes) -> dict:
    """A session file's polls and moves, checked; ValueError says what is wrong."""
    if not isinstance(raw, (bytes, bytearray)):
        _fail("expected the file's bytes")
    if len(raw) > MAX_BYTES:
        _fail(f"{len(raw):,} bytes, more than the {MAX_BYTES:,} a session file can hold")
    try:
        text = bytes(raw).decode("utf-8-sig")
        depth = 0
        for ch in text:  # refuse deep nesting before the parser recurses into it
            depth += ch in "[{"
            depth -= ch in "]}"
            if depth > 32:
                _fail("nested more than 32 levels deep")
        d = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        _fail(f"not UTF-8 JSON ({str(e)[:80]})")
    if not isinstance(d, dict) or d.get("format") != "mp-hall-session":
        _fail('its "format" is not "mp-hall-session" (export one from a hall session)')
    if d.get("version") != 1:
        _fail(f'version {str(d.get("version"))[:20]!r}; this app reads version 1')
    polls, events = d.get("polls"), d.get("events")
    if not isinstance(polls, list) or not isinstance(events, list):
        _fail('"polls" and "events" must be lists')
    out_polls = []
    for i, p in enumerate(polls, 1):
        try:
            spec = PollSpec.from_json(json.dumps(p["spec"]))
            answers = [(str(a["device"])[:64], str(a["answer"])[:500]) for a in p["answers"]]
            rev = p.get("reveal")
            if rev is not None and not isinstance(rev, dict):
                raise TypeError("reveal")
        except (KeyError, TypeError, ValueError) as e:
            _fail(f"poll {i} is malformed ({str(e)[:80]})")
        out_polls.append(dict(poll=str(p.get("poll", i))[:10], spec=spec, answers=answers,
                              reveal=rev))
    moves = []
    for e in events:
        if isinstance(e, dict) and e.get("kind") == "move":
            try:
                moves.append(dict(page=e["page"], query=_check_position(e["page"],
                                                                         e["query"])))
            except (KeyError, ValueError) as err:
                _fail(f"a move is malformed ({str(err)[:80]})")
    return dict(polls=out_polls, moves=moves)
