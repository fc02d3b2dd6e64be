"""Where a hall session lives: one interface, two backends.

A hall is served by every Streamlit process behind the balancer, and Streamlit keeps no
state shared between sessions of different processes, so the session lives in a store:
:class:`MemoryStore` (the embedded default: ``streamlit run app.py`` alone serves a hall
from one process) or :class:`hall.redis_store.RedisStore` (several processes, one
redis-server). :class:`hall.session.Hall` holds the rules (keys, validation, rate limits)
and calls only the methods below, so both backends behave alike and one test suite runs
on both.

Values are strings (JSON where structured). A session's data expires ``ttl`` seconds after
its last write.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict

__all__ = ["HallUnavailable", "MemoryStore", "Store"]


class HallUnavailable(RuntimeError):
    """The store cannot be reached (Redis down): the hall is unavailable, the app is not."""


class Store:
    """The operations a hall needs; each is atomic."""

    def ping(self) -> None:
        """Raise :class:`HallUnavailable` when the store cannot be reached."""
        raise NotImplementedError

    def create(self, room: str, meta: dict[str, str], ttl: float) -> bool:
        """Create a session; False if ``room`` exists already."""
        raise NotImplementedError

    def meta(self, room: str) -> dict[str, str] | None:
        raise NotImplementedError

    def update(self, room: str, fields: dict[str, str], ttl: float) -> int:
        """Merge ``fields`` into the session's state and return its new version."""
        raise NotImplementedError

    def update_unless(self, room: str, fields: dict[str, str], ttl: float,
                      guard: str) -> int | None:
        """:meth:`update`, unless the state's field ``guard`` is set (not empty) already:
        then nothing changes and the result is None. One step, so of two writers racing
        with the same guard exactly one writes."""
        raise NotImplementedError

    def version(self, room: str) -> int | None:
        """The state's version (a cheap read for a page's timer); None without a session."""
        raise NotImplementedError

    def state(self, room: str) -> tuple[int, dict[str, str]] | None:
        raise NotImplementedError

    def put_answer(self, room: str, poll: str, device: str, value: str, ttl: float) -> bool:
        """Record a device's answer to ``poll`` if ``poll`` is still the open poll (one
        answer per device, the last one kept); False if the poll is not open."""
        raise NotImplementedError

    def answers(self, room: str, poll: str) -> dict[str, str]:
        raise NotImplementedError

    def answer(self, room: str, poll: str, device: str) -> str | None:
        """One device's answer to ``poll`` (a student's page reads its own, not the hall's)."""
        return self.answers(room, poll).get(device)

    def add_score(self, room: str, devices: list[str], ttl: float) -> None:
        """One more right answer for each of ``devices``."""
        raise NotImplementedError

    def score(self, room: str, device: str) -> int:
        raise NotImplementedError

    def log(self, room: str, event: str, ttl: float) -> None:
        """Append an event (JSON) to the session's log."""
        raise NotImplementedError

    def events(self, room: str) -> list[str]:
        raise NotImplementedError

    def seen(self, room: str, device: str, following: bool, now: float, ttl: float) -> None:
        """A device's page is open (and follows the lecturer or not) at ``now``."""
        raise NotImplementedError

    def refresh(self, room: str, device: str, following: bool, now: float, ttl: float) -> bool:
        """:meth:`seen`, but only for a device this room has seen before (a page that ran in
        it): whether it had. A request that names a device is not trusted to add one."""
        raise NotImplementedError

    def presence(self, room: str, since: float) -> tuple[int, int]:
        """How many devices were seen since ``since``, and how many of them follow."""
        raise NotImplementedError

    def hit(self, room: str, device: str, window: int, ttl: float) -> int:
        """Count one request of ``device`` in time window ``window``; the count so far."""
        raise NotImplementedError

    def delete(self, room: str) -> None:
        raise NotImplementedError


class MemoryStore(Store):
    """The store in this process's memory (one Streamlit process serves the hall)."""

    def __init__(self, clock=time.monotonic):
        self._lock = threading.Lock()
        self._clock = clock
        self._rooms: dict[str, dict] = {}

    def _room(self, room: str) -> dict | None:
        r = self._rooms.get(room)
        if r is not None and r["expires"] <= self._clock():
            del self._rooms[room]
            return None
        return r

    def _touch(self, r: dict, ttl: float):
        r["expires"] = self._clock() + ttl

    def ping(self) -> None:
        return None

    def create(self, room, meta, ttl):
        with self._lock:
            if self._room(room) is not None:
                return False
            self._rooms[room] = dict(meta=dict(meta), state={}, version=0,
                                     answers=defaultdict(dict), score=defaultdict(int),
                                     events=[], seen={}, follow={}, hits={},
                                     expires=self._clock() + ttl)
            return True

    def meta(self, room):
        with self._lock:
            r = self._room(room)
            return None if r is None else dict(r["meta"])

    def update(self, room, fields, ttl):
        with self._lock:
            r = self._room(room)
            if r is None:
                raise KeyError(room)
            r["state"].update(fields)
            r["version"] += 1
            self._touch(r, ttl)
            return r["version"]

    def update_unless(self, room, fields, ttl, guard):
        with self._lock:
            r = self._room(room)
            if r is None:
                raise KeyError(room)
            if r["state"].get(guard):
                return None
            r["state"].update(fields)
            r["version"] += 1
            self._touch(r, ttl)
            return r["version"]

    def version(self, room):
        with self._lock:
            r = self._room(room)
            return None if r is None else r["version"]

    def state(self, room):
        with self._lock:
            r = self._room(room)
            return None if r is None else (r["version"], dict(r["state"]))

    def put_answer(self, room, poll, device, value, ttl):
        with self._lock:
            r = self._room(room)
            if r is None or r["state"].get("open") != poll:
                return False
            r["answers"][poll][device] = value
            self._touch(r, ttl)
            return True

    def answers(self, room, poll):
        with self._lock:
            r = self._room(room)
            return {} if r is None else dict(r["answers"].get(poll, {}))

    def add_score(self, room, devices, ttl):
        with self._lock:
            r = self._room(room)
            if r is None:
                return
            for d in devices:
                r["score"][d] += 1
            self._touch(r, ttl)

    def score(self, room, device):
        with self._lock:
            r = self._room(room)
            return 0 if r is None else r["score"].get(device, 0)

    def log(self, room, event, ttl):
        with self._lock:
            r = self._room(room)
            if r is not None:
                r["events"].append(event)
                self._touch(r, ttl)

    def events(self, room):
        with self._lock:
            r = self._room(room)
            return [] if r is None else list(r["events"])

    def seen(self, room, device, following, now, ttl):
        with self._lock:
            r = self._room(room)
            if r is not None:
                self._mark(r, device, following, now)

    def refresh(self, room, device, following, now, ttl):
        with self._lock:
            r = self._room(room)
            if r is None or device not in r["seen"]:
                return False
            self._mark(r, device, following, now)
            return True

    @staticmethod
    def _mark(r: dict, device, following, now):
        r["seen"][device] = now
        if following:
            r["follow"][device] = now
        else:
            r["follow"].pop(device, None)

    def presence(self, room, since):
        with self._lock:
            r = self._room(room)
            if r is None:
                return 0, 0
            return (sum(t >= since for t in r["seen"].values()),
                    sum(t >= since for t in r["follow"].values()))

    def hit(self, room, device, window, ttl):
        with self._lock:
            r = self._room(room)
            if r is None:
                return 0
            hits = r["hits"]
            for key in [k for k in hits if k[1] < window]:
                del hits[key]
            hits[device, window] = hits.get((device, window), 0) + 1
            return hits[device, window]

    def delete(self, room):
        with self._lock:
            self._rooms.pop(room, None)
