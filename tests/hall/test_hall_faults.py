"""Redis faults: a killed server resumes every acknowledged answer from its append-only
file; a stopped server makes every Hall method raise HallUnavailable (never a redis
exception) and the hall works again once it is back; a server ends with its parent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hall_util import free_port, start_redis

from hall.polls import PollSpec
from hall.redis_server import RedisServer
from hall.session import Hall, new_device
from hall.store import HallUnavailable

ROOT = Path(__file__).resolve().parents[2]
SPEC = PollSpec(kind="point", prompt="Next pick?", n=50)


@pytest.fixture
def server(tmp_path):
    srv = start_redis(tmp_path / "redis")
    yield srv
    srv.stop()


@pytest.fixture
def redis_hall(server):
    from hall.redis_store import RedisStore

    store = RedisStore(server.url)
    yield Hall(store)
    store.close()


def test_a_killed_server_resumes_every_acknowledged_answer(server, redis_hall):
    hall = redis_hall
    s = hall.start()
    hall.move(s.room, s.key, "kmp", {"k": "5"})
    pid = hall.open_poll(s.room, s.key, SPEC)
    acked = {}
    for i in range(40):
        d = new_device()
        acked[d] = hall.answer(s.room, d, pid, i)
    view = hall.view(s.room)
    server.stop(kill=True)  # as a crash: no shutdown, nothing written after the acknowledgements
    server.start()
    assert hall.view(s.room) == view
    assert hall.is_lecturer(s.room, s.key)
    assert dict(hall.store.answers(s.room, pid)) == acked
    d = new_device()  # and the session goes on
    assert hall.answer(s.room, d, pid, 49) == "49"
    rev = hall.reveal(s.room, s.key, "0", lambda v: v == "0")
    assert (rev["n"], rev["n_right"]) == (41, 1)


def _every_method(hall, room, key, pid, device):
    # in an order in which each call succeeds once the store is back
    return {
        "ping": lambda: hall.store.ping(),
        "version": lambda: hall.version(room),
        "view": lambda: hall.view(room),
        "is_lecturer": lambda: hall.is_lecturer(room, key),
        "answer": lambda: hall.answer(room, device, pid, 2),
        "mine": lambda: hall.mine(room, device, pid),
        "my_score": lambda: hall.my_score(room, device),
        "tally": lambda: hall.tally(room, pid),
        "seen": lambda: hall.seen(room, device, True),
        "refresh": lambda: hall.refresh(room, device, True),
        "presence": lambda: hall.presence(room),
        "move": lambda: hall.move(room, key, "kmp", {"k": "6"}),
        "open_poll": lambda: hall.open_poll(room, key, SPEC),
        "close_poll": lambda: hall.close_poll(room, key),
        "reveal": lambda: hall.reveal(room, key, "1", lambda v: v == "1"),
        "export": lambda: hall.export(room, key),
        "start": lambda: hall.start(),
        "end": lambda: hall.end(room, key),
    }


@pytest.mark.timeout(120)  # a hang guard: each call is bounded by the store's TIMEOUT
def test_redis_down_every_method_says_unavailable_then_recovers(server, redis_hall):
    hall = redis_hall
    s = hall.start()
    pid = hall.open_poll(s.room, s.key, SPEC)
    d = new_device()
    hall.answer(s.room, d, pid, 1)
    calls = _every_method(hall, s.room, s.key, pid, d)
    server.stop()
    for name, call in calls.items():
        with pytest.raises(HallUnavailable, match="does not answer") as info:
            call()
        assert type(info.value) is HallUnavailable, name
    server.start()
    assert hall.mine(s.room, d, pid) == "1"
    for name, call in calls.items():
        call()  # every method works again on the same Hall and store
    assert hall.mine(s.room, d, pid) == "2" and hall.view(s.room).ended


def test_a_server_started_from_a_thread_outlives_the_thread(tmp_path):
    """The parent-death signal follows the thread that forked: a server (re)started from a
    helper thread must not stop when that thread returns."""
    box = {}
    t = threading.Thread(target=lambda: box.setdefault("srv", start_redis(tmp_path / "r")))
    t.start()
    t.join(60)
    srv = box["srv"]
    try:
        t = threading.Thread(target=srv.restart)
        t.start()
        t.join(60)
        time.sleep(0.2)  # time for a parent-death signal to arrive, were one sent
        assert srv.proc.poll() is None and srv._answers()
    finally:
        srv.stop()


def _gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")  # ended, not yet reaped by whoever adopted it


@pytest.mark.parametrize("started_from", ["main thread", "helper thread"])
def test_the_server_ends_with_its_parent(tmp_path, started_from):
    if RedisServer(0, tmp_path).binary is None:
        pytest.skip("redis-server is not installed")
    port = free_port()
    start = f"RedisServer({port}, {str(tmp_path / 'redis')!r}).start()"
    if started_from == "helper thread":
        start = f"concurrent.futures.ThreadPoolExecutor(1).submit(lambda: {start}).result()"
    code = ("import concurrent.futures, sys, time\n"
            "from hall.redis_server import RedisServer\n"
            f"s = {start}\n"
            "print(s.proc.pid, flush=True)\n"
            "time.sleep(600)\n")
    child = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE,
                             text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        line = child.stdout.readline()
        assert line.strip().isdigit(), f"the child did not start a server: {line!r}"
        redis_pid = int(line)
        assert not _gone(redis_pid)
        child.send_signal(signal.SIGKILL)
        child.wait(10)
        deadline = time.monotonic() + 15
        while not _gone(redis_pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _gone(redis_pid), "redis-server outlived its parent"
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(5)
        if "redis_pid" in locals() and not _gone(redis_pid):
            os.kill(redis_pid, signal.SIGKILL)


@pytest.mark.slow
@pytest.mark.timeout(120)  # a hang guard: each call waits at most the store's TIMEOUT
def test_a_hung_server_is_unavailable_not_a_hang(server, redis_hall):
    hall = redis_hall
    s = hall.start()
    pid = hall.open_poll(s.room, s.key, SPEC)
    d = new_device()
    version = hall.version(s.room)
    os.kill(server.proc.pid, signal.SIGSTOP)  # a server that accepts but never answers
    try:
        with pytest.raises(HallUnavailable):
            hall.version(s.room)
        with pytest.raises(HallUnavailable):
            hall.answer(s.room, d, pid, 3)
    finally:
        os.kill(server.proc.pid, signal.SIGCONT)
    assert hall.answer(s.room, d, pid, 4) == "4"  # no stale reply is read as this one's
    assert hall.mine(s.room, d, pid) == "4" and hall.version(s.room) == version


@pytest.mark.timeout(120)
def test_more_pages_at_once_than_connections_is_not_unavailable(server, redis_hall):
    """A lecturer's move runs every follower's page at once, each in a thread of its own (a
    killed process's students all on one process): more threads than the store's connections
    wait for one, and none is told the hall is unavailable while the server is well."""
    from hall.redis_store import POOL

    hall = redis_hall
    s = hall.start()
    pid = hall.open_poll(s.room, s.key, SPEC)
    n = max(2 * POOL, 200)
    start = threading.Barrier(n)
    failed = []

    def page(i):
        d = f"device{i:020d}"
        start.wait()
        for round_ in range(3):
            sum(range(20_000))  # the page's own work, holding the interpreter between calls
            try:
                hall.version(s.room)
                hall.view(s.room)
                hall.seen(s.room, d, True)
                hall.mine(s.room, d, pid)
            except HallUnavailable as e:
                failed.append(str(e))

    threads = [threading.Thread(target=page, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not failed, f"{len(failed)} of {3 * n} page runs: {failed[:1]}"
    assert hall.presence(s.room) == (n, n)
