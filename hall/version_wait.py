"""A request held until the hall's version changes: one reader per room and process.

A student's watcher (``pages/common/hall_watch.js``) sends the version its page acted on
(``since``); the version route holds the request until the session's version is another, or
:data:`HOLD` seconds pass. Every request held on a room in this process waits on the same
reader, which reads the version every :data:`READ_EVERY` seconds while anyone waits: a move
reaches every follower within that, where a watcher asking each second learned of it up to a
second later; and 200 students cost the store a few reads a second, not 200.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from starlette.concurrency import run_in_threadpool

from .config import process_hall
from .store import HallUnavailable

__all__ = ["HOLD", "READ_EVERY", "changed"]

#: Seconds a request is held at most; shorter than the balancer's server timeout, and than
#: ``hall.session.PRESENT_FOR``, since each request keeps its device present.
HOLD = 5.0
#: Seconds between two reads of a room's version while requests wait on it.
READ_EVERY = 0.1

_DOWN = object()  # what a reader gives its waiters when the store does not answer
_NOTHING = object()  # a reader's last reading before its first


@dataclass(eq=False)
class _Room:
    room: str
    waiters: int = 0
    read: asyncio.Future = field(default_factory=lambda: asyncio.get_running_loop().create_future())


_rooms: dict[tuple[int, str], _Room] = {}


async def changed(room: str, since: int, hold: float | None = None) -> int | None:
    """The room's version once it is not ``since``, or ``since`` after ``hold`` seconds
    (:data:`HOLD`). Raises :class:`HallUnavailable` when the store stops answering meanwhile."""
    hold = HOLD if hold is None else hold
    loop = asyncio.get_running_loop()
    key = (id(loop), room)
    r = _rooms.get(key)
    if r is None:
        r = _rooms[key] = _Room(room)
        loop.create_task(_reader(key, r))
    r.waiters += 1
    deadline = loop.time() + hold
    try:
        while (left := deadline - loop.time()) > 0:
            try:
                v = await asyncio.wait_for(asyncio.shield(r.read), left)
            except asyncio.TimeoutError:
                break
            if v is _DOWN:
                raise HallUnavailable("the hall's store does not answer")
            if v != since:
                return v
        return since
    finally:
        r.waiters -= 1


async def _reader(key, r: _Room):
    """Reads the room's version while anyone waits on it; a reading that is not the last
    one wakes the waiters (a waiter asked with the version it read itself, so no change
    after that reading is missed: the versions only grow)."""
    last = _NOTHING
    try:
        while r.waiters > 0:
            try:
                v = await run_in_threadpool(process_hall().version, r.room)
            except HallUnavailable:
                v = _DOWN
            if v != last:
                last = v
                done, r.read = r.read, asyncio.get_running_loop().create_future()
                done.set_result(v)
            await asyncio.sleep(READ_EVERY)
    finally:
        if _rooms.get(key) is r:
            del _rooms[key]
