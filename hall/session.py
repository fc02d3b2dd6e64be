"""A hall session: the lecturer drives, students follow and answer polls.

:class:`Hall` holds the rules over a :class:`hall.store.Store`:

- **Keys.** ``start()`` returns a short room code (what students type or scan) and a
  lecturer key. Only a hash of the key is stored; every lecturer action (move, open, close,
  reveal, end, export) checks it, so a student's page or link, which never holds it, cannot
  act as the lecturer.
- **Position.** The lecturer's page and its address (the view and step, as a link
  reproduces them); followers' pages read :meth:`Hall.version` on a timer and move when it
  changes.
- **Polls.** One poll open at a time; one answer per device, changeable until the poll
  closes; answers validated against the poll (:mod:`hall.polls`); a per-device rate limit.
- **Reveal.** The lecturer's page computes which answers are right from the lesson's own
  question and passes that here; the hall keeps the share that had it and a running score.
- **Expiry.** A session ends :data:`TTL` seconds after its last write.

Devices are anonymous: a random id per browser, no names.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from hall.polls import PollSpec, canonical
from hall.store import Store

__all__ = ["ROOM_ALPHABET", "TTL", "Forbidden", "Hall", "HallView", "Started", "new_device"]

#: A session is forgotten this many seconds after its last write.
TTL = 4 * 3600
#: Room codes: no 0/O, 1/I/L, easy to read off a projector and type on a phone.
ROOM_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
ROOM_LEN = 6
_ROOM = re.compile(f"[{ROOM_ALPHABET}]{{{ROOM_LEN}}}")
_DEVICE = re.compile(r"[A-Za-z0-9_-]{16,64}")
#: A device may send this many answers per :data:`RATE_WINDOW` seconds.
RATE_LIMIT = 20
RATE_WINDOW = 10
#: A page that reported itself within this many seconds counts as present.
PRESENT_FOR = 10.0
MAX_PAGE = 40
MAX_QUERY = 40
MAX_QUERY_TEXT = 400


class Forbidden(PermissionError):
    """Not the lecturer's key, or the wrong room: the action is refused."""


@dataclass(frozen=True)
class Started:
    room: str
    key: str


@dataclass(frozen=True)
class HallView:
    """What every page of the hall reads: where the lecturer is and the poll's state."""

    version: int
    page: str
    query: dict
    poll_id: str | None
    poll: PollSpec | None
    open: bool
    reveal: dict | None
    polls_done: int
    hall_right: int
    hall_answers: int
    ended: bool


def new_device() -> str:
    """A random, anonymous device id."""
    return secrets.token_urlsafe(16)


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def valid_room(room) -> bool:
    return isinstance(room, str) and _ROOM.fullmatch(room) is not None


def valid_device(device) -> bool:
    return isinstance(device, str) and _DEVICE.fullmatch(device) is not None


def _check_position(page, query):
    if not isinstance(page, str) or not re.fullmatch(r"[a-z_]{1,%d}" % MAX_PAGE, page):
        raise ValueError(f"a page name is lower-case letters, not {str(page)[:40]!r}")
    if not isinstance(query, Mapping) or len(query) > MAX_QUERY:
        raise ValueError(f"a position's address has at most {MAX_QUERY} fields")
    for k, v in query.items():
        if not (isinstance(k, str) and isinstance(v, str) and len(k) <= 40
                and len(v) <= MAX_QUERY_TEXT):
            raise ValueError("a position's address fields are short text")
    return dict(query)


class Hall:
    """The hall's rules over ``store`` (``clock`` in seconds, replaceable in tests)."""

    def __init__(self, store: Store, clock=time.time):
        self.store = store
        self.clock = clock

    # ------------------------------------------------------------------ the lecturer

    def start(self) -> Started:
        """A new session: its room code and the lecturer's key (shown once, kept only in
        the lecturer's browser)."""
        key = secrets.token_urlsafe(24)
        for _ in range(50):
            room = "".join(secrets.choice(ROOM_ALPHABET) for _ in range(ROOM_LEN))
            if self.store.create(room, {"key": _hash(key), "created": repr(self.clock())},
                                 TTL):
                self.store.update(room, {"page": json.dumps("learn"),
                                         "query": json.dumps({}), "polls": "0",
                                         "right": "0", "answered": "0"}, TTL)
                self._log(room, "start")
                return Started(room, key)
        raise RuntimeError("no free room code after 50 draws")

    def is_lecturer(self, room, key) -> bool:
        if not valid_room(room) or not isinstance(key, str) or not key:
            return False
        meta = self.store.meta(room)
        return meta is not None and hmac.compare_digest(meta["key"], _hash(key))

    def _lecturer(self, room, key):
        if not self.is_lecturer(room, key):
            raise Forbidden("only the lecturer's key can do this")

    def _log(self, room, kind, **data):
        self.store.log(room, json.dumps(dict(t=round(self.clock(), 3), kind=kind, **data)),
                       TTL)

    def move(self, room, key, page: str, query: Mapping) -> int:
        """The lecturer is now on ``page`` at address ``query``; returns the version."""
        self._lecturer(room, key)
        query = _check_position(page, query)
        now = self.view(room)
        if now is not None and now.page == page and now.query == query:
            return now.version
        v = self.store.update(room, {"page": json.dumps(page), "query": json.dumps(query)},
                              TTL)
        self._log(room, "move", page=page, query=query)
        return v

    def open_poll(self, room, key, spec: PollSpec) -> str:
        """Open ``spec`` to the hall (closing any open poll); returns the poll's id."""
        self._lecturer(room, key)
        if not isinstance(spec, PollSpec):
            raise ValueError("a poll is a PollSpec")
        view = self.view(room)
        poll_id = str(int(view.poll_id or 0) + 1)
        self.store.update(room, {"open": poll_id, "poll_id": poll_id,
                                 "poll": spec.to_json(), "reveal": "",
                                 f"spec:{poll_id}": spec.to_json()}, TTL)
        self._log(room, "open", poll=poll_id, spec=json.loads(spec.to_json()))
        return poll_id

    def close_poll(self, room, key) -> None:
        """No more answers to the open poll."""
        self._lecturer(room, key)
        view = self.view(room)
        if view.open:
            self.store.update(room, {"open": ""}, TTL)
            self._log(room, "close", poll=view.poll_id)

    def reveal(self, room, key, answer: str, is_right: Callable[[str], bool]) -> dict:
        """Close the poll, show the algorithm's ``answer`` (text) and score the poll:
        ``is_right(value)`` says whether a stored answer is right (the lecturer's page asks
        the lesson's own question). Returns the reveal: poll, answer, right (the right values
        given), n, n_right, share."""
        self._lecturer(room, key)
        self.close_poll(room, key)
        view = self.view(room)
        if view.poll_id is None:
            raise ValueError("there is no poll to reveal")
        if view.reveal:
            return view.reveal
        given = self.store.answers(room, view.poll_id)
        right = {v: bool(is_right(v)) for v in set(given.values())}
        good = [d for d, v in given.items() if right[v]]
        n = len(given)
        rev = dict(poll=view.poll_id, answer=str(answer)[:500],
                   right=sorted(v for v, ok in right.items() if ok)[:50], n=n,
                   n_right=len(good), share=(len(good) / n) if n else 0.0)
        # the reveal is written once (two lecturer pages may reveal at once), and only the
        # page that wrote it scores the poll
        done = self.store.update_unless(
            room, {"reveal": json.dumps(rev), "polls": str(view.polls_done + 1),
                   "right": str(view.hall_right + len(good)),
                   "answered": str(view.hall_answers + n),
                   f"reveal:{view.poll_id}": json.dumps(rev)}, TTL,
            guard=f"reveal:{view.poll_id}")
        if done is None:
            return json.loads(self.store.state(room)[1][f"reveal:{view.poll_id}"])
        self.store.add_score(room, good, TTL)
        self._log(room, "reveal", **rev)
        return rev

    def end(self, room, key) -> None:
        self._lecturer(room, key)
        self.store.update(room, {"ended": "1", "open": ""}, TTL)
        self._log(room, "end")

    # ------------------------------------------------------------------ every page

    def version(self, room) -> int | None:
        """The session's version (None: no such session): a page's cheap timer read."""
        if not valid_room(room):
            return None
        return self.store.version(room)

    def view(self, room) -> HallView | None:
        if not valid_room(room):
            return None
        got = self.store.state(room)
        if got is None:
            return None
        version, s = got
        poll_id = s.get("poll_id") or None
        return HallView(
            version=version, page=json.loads(s.get("page", '"learn"')),
            query=json.loads(s.get("query", "{}")), poll_id=poll_id,
            poll=PollSpec.from_json(s["poll"]) if s.get("poll") else None,
            open=bool(s.get("open")), reveal=json.loads(s["reveal"]) if s.get("reveal") else None,
            polls_done=int(s.get("polls", 0)), hall_right=int(s.get("right", 0)),
            hall_answers=int(s.get("answered", 0)), ended=s.get("ended") == "1")

    # ------------------------------------------------------------------ a student

    def answer(self, room, device, poll_id, value) -> str:
        """Record ``device``'s answer to the open poll; returns it as stored. ValueError
        says why an answer is refused (closed poll, invalid value, too many requests)."""
        if not valid_device(device):
            raise ValueError("this page has no valid device id: reload it")
        view = self.view(room)
        if view is None or view.ended:
            raise ValueError("this hall session has ended")
        window = int(self.clock() // RATE_WINDOW)
        if self.store.hit(room, device, window, RATE_WINDOW * 2) > RATE_LIMIT:
            raise ValueError(f"too many answers: at most {RATE_LIMIT} in {RATE_WINDOW} s")
        if not view.open or view.poll_id != poll_id:
            raise ValueError("this poll is closed")
        value = canonical(view.poll, value)
        if not self.store.put_answer(room, poll_id, device, value, TTL):
            raise ValueError("this poll is closed")
        return value

    def mine(self, room, device, poll_id) -> str | None:
        if not valid_room(room) or poll_id is None:
            return None
        return self.store.answer(room, poll_id, device)

    def my_score(self, room, device) -> int:
        return self.store.score(room, device) if valid_room(room) else 0

    def tally(self, room, poll_id) -> Counter:
        """How many devices gave each answer."""
        if not valid_room(room) or poll_id is None:
            return Counter()
        return Counter(self.store.answers(room, poll_id).values())

    def seen(self, room, device, following: bool) -> None:
        if valid_room(room) and valid_device(device):
            self.store.seen(room, device, bool(following), self.clock(), TTL)

    def refresh(self, room, device, following: bool) -> bool:
        """:meth:`seen` from a request outside a page (the version route's poll): only a
        device whose page has run in this room is kept present; whether it was."""
        if not (valid_room(room) and valid_device(device)):
            return False
        return self.store.refresh(room, device, bool(following), self.clock(), TTL)

    def presence(self, room) -> tuple[int, int]:
        """(devices present, of which following the lecturer)."""
        if not valid_room(room):
            return 0, 0
        return self.store.presence(room, self.clock() - PRESENT_FOR)

    # ------------------------------------------------------------------ after

    def export(self, room, key) -> dict:
        """The session's polls, answers and the lecturer's moves (no key, no hash)."""
        self._lecturer(room, key)
        got = self.store.state(room)
        s = got[1]
        polls = []
        n = int(s.get("poll_id") or 0)
        for i in range(1, n + 1):
            pid = str(i)
            if f"spec:{pid}" not in s:
                continue
            spec = json.loads(s[f"spec:{pid}"])
            rev = json.loads(s[f"reveal:{pid}"]) if s.get(f"reveal:{pid}") else None
            right = set(rev["right"]) if rev else set()
            answers = [dict(device=d, answer=v, right=(v in right) if rev else None)
                       for d, v in sorted(self.store.answers(room, pid).items())]
            polls.append(dict(poll=pid, spec=spec, reveal=rev, answers=answers))
        events = [json.loads(e) for e in self.store.events(room)]
        return dict(format="mp-hall-session", version=1, room=room, polls=polls,
                    events=events)

