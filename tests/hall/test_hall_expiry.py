"""A session expires TTL seconds after its last write: MemoryStore with a fake clock,
Redis by the time to live of every key of the room."""

from __future__ import annotations

import time

import pytest
import redis
from hall_util import clock, redis_server  # noqa: F401 - fixtures

from hall import session as hs
from hall.polls import PollSpec
from hall.session import Forbidden, Hall, new_device
from hall.store import MemoryStore

SPEC = PollSpec(kind="k", prompt="k?", lo=1, hi=10)


@pytest.fixture
def memory_hall(clock):
    return Hall(MemoryStore(clock=clock), clock=clock)


def test_memory_session_expires_after_inactivity(memory_hall, clock):
    hall = memory_hall
    s = hall.start()
    pid = hall.open_poll(s.room, s.key, SPEC)
    d = new_device()
    clock.advance(hs.TTL - 1)
    hall.answer(s.room, d, pid, 3)  # a write renews the session
    clock.advance(hs.TTL - 1)
    assert hall.mine(s.room, d, pid) == "3" and hall.is_lecturer(s.room, s.key)
    hall.move(s.room, s.key, "kmp", {})
    clock.advance(hs.TTL - 1)
    hall.seen(s.room, d, True)  # reads and presence do not keep a session alive
    assert hall.version(s.room) is not None
    clock.advance(2)
    assert hall.version(s.room) is None and hall.view(s.room) is None
    assert hall.mine(s.room, d, pid) is None and hall.presence(s.room) == (0, 0)
    assert not hall.is_lecturer(s.room, s.key)
    with pytest.raises(Forbidden):
        hall.move(s.room, s.key, "kmp", {"k": "2"})
    with pytest.raises(Forbidden):
        hall.export(s.room, s.key)
    with pytest.raises(ValueError, match="ended"):
        hall.answer(s.room, d, pid, 3)
    # the room code is free again, for a new session with a new key
    assert hall.store.create(s.room, {"key": "other"}, hs.TTL)


def _keys(r, room):
    return sorted(r.scan_iter(match=f"hall:{room}:*"))


@pytest.fixture
def redis_hall(redis_server):
    from hall.redis_store import RedisStore

    store = RedisStore(redis_server.url)
    yield Hall(store), redis.Redis.from_url(redis_server.url, decode_responses=True)
    store.close()


def _session(hall):
    s = hall.start()
    p1 = hall.open_poll(s.room, s.key, SPEC)
    d = new_device()
    hall.answer(s.room, d, p1, 3)
    hall.reveal(s.room, s.key, "3", lambda v: v == "3")
    hall.seen(s.room, d, True)
    hall.seen(s.room, new_device(), False)
    p2 = hall.open_poll(s.room, s.key, SPEC)
    hall.answer(s.room, d, p2, 4)
    return s


def test_redis_every_key_of_a_session_has_a_time_to_live(redis_hall):
    hall, r = redis_hall
    s = _session(hall)
    keys = _keys(r, s.room)
    parts = {k.split(":")[2] for k in keys}
    assert {"meta", "state", "ans", "score", "events", "seen", "follow", "hit"} <= parts
    for k in keys:
        assert 0 < r.ttl(k) <= hs.TTL, k


def test_redis_a_write_renews_every_key_of_the_session(redis_hall):
    hall, r = redis_hall
    s = _session(hall)
    aged = 100
    for k in _keys(r, s.room):
        if ":hit:" not in k:  # a rate window's counter lives for its window only
            r.expire(k, aged)
    hall.move(s.room, s.key, "spectrum", {"q": "2"})
    for k in _keys(r, s.room):
        if ":hit:" not in k:
            assert aged < r.ttl(k) <= hs.TTL, k
    for k in _keys(r, s.room):
        if ":hit:" not in k:
            r.expire(k, aged)
    hall.answer(s.room, new_device(), "2", 5)  # a student's answer renews the session too
    for k in _keys(r, s.room):
        if ":hit:" not in k:
            assert aged < r.ttl(k) <= hs.TTL, k


def test_redis_session_is_gone_when_its_keys_expire(redis_hall):
    hall, r = redis_hall
    s = _session(hall)
    for k in _keys(r, s.room):
        r.pexpire(k, 1)
    time.sleep(0.01)
    assert hall.version(s.room) is None and hall.view(s.room) is None
    assert not hall.is_lecturer(s.room, s.key)
