"""deploy/serve.py starts the hall's redis-server beside HAProxy, and nothing outlives it.

- ``Hall(redis_port=...)`` starts Debian's redis-server first (append-only file on, its files
  in the hall's log folder), hands its address to every Streamlit process as
  ``MP_HALL_REDIS`` (read from each process's environment), and stops it last.
- The fault drills the hall load test uses: a session written through the store survives
  :meth:`Hall.restart_redis` (a SIGKILL, then its append-only file), and a Streamlit process
  killed with :meth:`Hall.kill_process` is started again by :meth:`Hall.restart_process`
  with the same ``MP_HALL_REDIS``.
- A bad Redis port is refused with a message naming the option: out of range (argparse,
  exit code 2), one of the hall's other ports, already in use (before anything starts);
  ``--no-redis`` with several processes is refused (they would not share the hall).
- The students' version polls (``GET /hall/version``) reach the version route's own process
  (``hall/version_app.py``, which gets ``MP_HALL_REDIS`` too): they are answered while every
  Streamlit process is stopped (SIGSTOP), and by the Streamlit processes once that process
  is killed.
- ``python deploy/serve.py`` killed with SIGKILL (the OOM killer) leaves no process behind:
  its Streamlit processes, the version process, HAProxy and redis-server end with it.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "deploy"))

import serve  # noqa: E402
from browser_util import consecutive_free_ports, skip_or_fail  # noqa: E402
from proc_util import alive, command, tree  # noqa: E402

from hall.config import REDIS_ENV  # noqa: E402
from hall.redis_server import redis_binary  # noqa: E402

#: How long after serve.py's SIGKILL every process it started must be gone.
GRACE_S = 15.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _require_tools():
    hall = serve.Hall(1, port=8080, first_port=8501)
    shutil.rmtree(hall.log_dir)
    if not Path(hall.haproxy).exists():
        skip_or_fail("haproxy is not installed (apt-get install haproxy)", "Deploy tests")
    if redis_binary() is None:
        skip_or_fail("redis-server is not installed (apt-get install redis-server)",
                     "Deploy tests")


def _environ(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    return dict(item.split("=", 1) for item in raw.decode(errors="replace").split("\0")
                if "=" in item)


def _version(hall, room: str, timeout: float = 5.0) -> int | None:
    """The hall's version as a student's watcher asks it, through the balancer."""
    url = f"{hall.url}/hall/version?room={room}&following=1"
    with urllib.request.urlopen(url, timeout=timeout) as r:
        assert r.status == 200
        return json.loads(r.read())["version"]


# ---------------------------------------------------------------- a bad Redis port


@pytest.mark.parametrize("value", ["70000", "0", "-1", "redis"])
def test_an_out_of_range_redis_port_is_refused(value, capsys):
    with pytest.raises(SystemExit) as info:
        serve.main(["--redis-port", value, "--config-only"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "--redis-port" in err and "Traceback" not in err


def test_a_redis_port_that_is_another_port_of_the_hall_is_refused():
    for kwargs, option in ((dict(port=7000), "--port"), (dict(first_port=7000), "--first-port"),
                           (dict(stats_port=7000), "--stats-port")):
        with pytest.raises(ValueError, match=rf"Redis port 7000 .*--redis-port or {option}"):
            serve.Hall(2, **{"port": 8080, "first_port": 8501, **kwargs}, redis_port=7000)
    with pytest.raises(ValueError, match="between 1 and 65535"):
        serve.Hall(1, port=8080, first_port=8501, redis_port=70000)


def test_no_redis_with_several_processes_is_refused(capsys):
    with pytest.raises(SystemExit) as info:
        serve.main(["--no-redis", "--processes", "2", "--config-only"])
    assert info.value.code == 2
    assert "--processes 1" in capsys.readouterr().err


def test_a_redis_port_in_use_is_named_before_anything_starts():
    _require_tools()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    port = sock.getsockname()[1]
    hall = serve.Hall(1, port=_free_port(), first_port=consecutive_free_ports(1),
                      bind="127.0.0.1", redis_port=port)
    try:
        with pytest.raises(RuntimeError, match=rf"port {port} \(for the hall's redis-server\)"
                                               r".*--redis-port"):
            hall.__enter__()
        assert hall.procs == [] and hall.redis is None and hall.balancer is None
    finally:
        sock.close()


# ---------------------------------------------------------------- the hall with Redis


@pytest.mark.slow
def test_serve_starts_redis_and_every_process_gets_its_address():
    _require_tools()
    import redis

    from hall.redis_store import RedisStore
    from hall.session import Hall as Session

    hall = serve.Hall(2, port=_free_port(), first_port=consecutive_free_ports(2),
                      bind="127.0.0.1", redis_port=_free_port())
    with hall:
        url = hall.redis_url
        assert url == f"redis://127.0.0.1:{hall.redis_port}/0"
        client = redis.Redis.from_url(url, decode_responses=True)
        assert client.ping()
        assert client.config_get("appendonly")["appendonly"] == "yes"
        assert client.config_get("appendfsync")["appendfsync"] == "always"
        assert Path(client.config_get("dir")["dir"]).resolve() == (hall.log_dir / "redis").resolve()
        for pid in hall.pids():
            assert _environ(pid).get(REDIS_ENV) == url, pid

        # a session written through the store survives a crash of the server
        session = Session(RedisStore(url))
        started = session.start()
        session.move(started.room, started.key, "kmp", {"step": "3"})
        redis_pid = hall.redis.proc.pid
        hall.restart_redis()
        assert hall.redis.proc.pid != redis_pid
        view = session.view(started.room)
        assert view is not None and view.page == "kmp" and view.query == {"step": "3"}

        # a killed process starts again with the same store
        old = hall.pids()[0]
        hall.kill_process(1)
        assert hall.procs[0].poll() is not None
        hall.restart_process(1)
        assert hall.pids()[0] != old and hall.procs[0].poll() is None
        assert _environ(hall.pids()[0]).get(REDIS_ENV) == url
        server = hall.redis.proc
    assert server.poll() is not None  # stopped with the hall
    assert all(p.poll() is not None for p in hall.procs)
    assert hall.version.poll() is not None and not hall.version_socket.exists()


@pytest.mark.slow
def test_version_polls_reach_their_own_process_and_fall_back_to_streamlit():
    _require_tools()
    from hall.redis_store import RedisStore
    from hall.session import Hall as Session

    hall = serve.Hall(2, port=_free_port(), first_port=consecutive_free_ports(2),
                      bind="127.0.0.1", redis_port=_free_port())
    with hall:
        assert hall.version is not None and hall.version.poll() is None
        assert _environ(hall.version.pid).get(REDIS_ENV) == hall.redis_url
        session = Session(RedisStore(hall.redis_url))
        started = session.start()
        first = _version(hall, started.room)
        assert first == session.version(started.room)
        # every Streamlit process frozen: the polls are answered all the same, so by the
        # version process alone, with the lecturer's move in them
        for pid in hall.pids():
            os.kill(pid, signal.SIGSTOP)
        try:
            session.move(started.room, started.key, "kmp", {"step": "3"})
            assert _version(hall, started.room) == session.version(started.room) > first
        finally:
            for pid in hall.pids():
                os.kill(pid, signal.SIGCONT)
        # the version process gone: the Streamlit processes answer the same route
        hall.version.kill()
        hall.version.wait(10)
        session.move(started.room, started.key, "kmp", {"step": "4"})
        deadline = time.monotonic() + 20  # HAProxy's checks take it out (2 s, twice)
        got = None
        while time.monotonic() < deadline:
            try:
                got = _version(hall, started.room)
                break
            except OSError:
                time.sleep(0.5)
        assert got == session.version(started.room), got


@pytest.mark.slow
def test_nothing_outlives_serve_killed_with_sigkill():
    _require_tools()
    port, first, redis_port = _free_port(), consecutive_free_ports(2), _free_port()
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "deploy" / "serve.py"), "--processes", "2", "--no-warm",
         "--bind", "127.0.0.1", "--port", str(port), "--first-port", str(first),
         "--redis-port", str(redis_port)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    procs: dict[int, int] = {}
    try:
        out = []
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            out.append(line)
            if line.startswith("Ready"):
                break
        assert out and out[-1].startswith("Ready"), "".join(out)
        assert f"redis-server on 127.0.0.1:{redis_port}" in "".join(out)
        procs = tree(proc.pid)
        commands = " | ".join(command(p) for p in procs)
        assert "redis-server" in commands and "haproxy" in commands, commands
        assert sum("streamlit" in command(p) for p in procs) >= 2, commands
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        left = {p: s for p, s in procs.items() if p != proc.pid}
        deadline = time.monotonic() + GRACE_S
        while left and time.monotonic() < deadline:
            left = {p: s for p, s in left.items() if alive(p, s)}
            time.sleep(0.1)
        assert not left, (f"{len(left)} of serve.py's {len(procs) - 1} processes alive "
                          f"{GRACE_S:.0f} s after its SIGKILL: "
                          + "; ".join(command(p) for p in left))
    finally:
        # what this test started and found alive: end it, by its own pid
        for pid, start in procs.items():
            if alive(pid, start):
                os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
