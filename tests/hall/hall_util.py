"""The hall's test fixtures and helpers: every store and session test runs on both backends.

``store`` is a :class:`hall.store.MemoryStore` or a :class:`hall.redis_store.RedisStore`
against a real redis-server (Debian's, started by :class:`hall.redis_server.RedisServer` on
a free port in a temporary folder, once per test module). Each test starts its own hall
session, so it has a fresh room on the shared server. A test module imports the fixtures it
uses from here (a conftest.py in this folder would take the name ``conftest`` from the one
at tests/ root, whose tolerances other folders import).
"""

from __future__ import annotations

import socket

import pytest

from hall.redis_server import RedisServer, redis_binary
from hall.session import Hall
from hall.store import MemoryStore


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_redis(folder) -> RedisServer:
    if redis_binary() is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    return RedisServer(free_port(), folder).start()


class Clock:
    """A clock a test moves by hand (seconds)."""

    def __init__(self, t: float = 1_000_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, dt: float) -> None:
        self.t += dt


BACKENDS = ("memory", "redis")


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory):
    server = start_redis(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


def make_store(request, backend):
    if backend == "memory":
        return MemoryStore()
    from hall.redis_store import RedisStore

    store = RedisStore(request.getfixturevalue("redis_server").url)
    request.addfinalizer(store.close)
    return store


@pytest.fixture(params=BACKENDS)
def store(request):
    return make_store(request, request.param)


@pytest.fixture
def hall(store):
    return Hall(store)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def timed_hall(store, clock):
    """A hall whose own clock (rate windows, presence) is ``clock``."""
    return Hall(store, clock=clock)
