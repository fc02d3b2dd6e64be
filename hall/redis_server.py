"""Debian's redis-server for the hall, started by the project and ended with its parent.

``RedisServer(port, folder)`` runs ``redis-server`` on loopback with the append-only file
on and ``appendfsync always``: a write is acknowledged only after it is on disk, so a
restarted server (same folder) resumes every session with no acknowledged answer lost.
The child gets SIGTERM when the process that started it dies (Linux's parent-death
signal), so no server outlives a test, a page or ``deploy/serve.py``. Linux sends that
signal when the *thread* that forked the child ends, so :func:`popen_with_parent` forks from
the main thread or from one thread that lasts as long as the process: a server started or
restarted from a short-lived thread (a fault injector, a test's helper) keeps running.
"""

from __future__ import annotations

import ctypes
import shutil
import signal
import socket
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

__all__ = ["RedisServer", "popen_with_parent", "redis_binary"]

START_TIMEOUT = 20.0
_PR_SET_PDEATHSIG = 1


def redis_binary() -> str | None:
    return shutil.which("redis-server") or shutil.which("redis-server", path="/usr/bin:/usr/sbin")


def _die_with_parent():
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except OSError:
        pass


_spawner: ThreadPoolExecutor | None = None
_spawner_lock = threading.Lock()


def popen_with_parent(cmd, **kwargs) -> subprocess.Popen:
    """``subprocess.Popen(cmd, **kwargs)`` for a child that ends when this process ends,
    whichever thread asks."""
    global _spawner
    if threading.current_thread() is threading.main_thread():
        return subprocess.Popen(cmd, preexec_fn=_die_with_parent, **kwargs)
    with _spawner_lock:
        if _spawner is None:
            _spawner = ThreadPoolExecutor(1, thread_name_prefix="hall-spawner")
    return _spawner.submit(subprocess.Popen, cmd, preexec_fn=_die_with_parent,
                           **kwargs).result()


class RedisServer:
    """A redis-server on ``127.0.0.1:port`` keeping its files in ``folder``."""

    def __init__(self, port: int, folder: Path, *, binary: str | None = None):
        self.port, self.folder = int(port), Path(folder)
        self.binary = binary or redis_binary()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        if self.binary is None:
            raise RuntimeError("redis-server is not installed: apt-get install redis-server "
                               "(Debian/Ubuntu), or run the hall from one process without it.")
        self.folder.mkdir(parents=True, exist_ok=True)
        cmd = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1",
               "--dir", str(self.folder), "--appendonly", "yes", "--appendfsync", "always",
               "--save", "", "--protected-mode", "yes", "--daemonize", "no",
               "--logfile", str(self.folder / "redis.log")]
        self.proc = popen_with_parent(cmd, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT
        while not self._answers():
            if self.proc.poll() is not None:
                log = self.folder / "redis.log"
                tail = log.read_text(errors="replace")[-800:] if log.exists() else ""
                raise RuntimeError(f"redis-server on port {self.port} exited (code "
                                   f"{self.proc.returncode}): {tail}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"redis-server did not answer on port {self.port}")
            time.sleep(0.05)
        return self

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self, *, kill: bool = False) -> None:
        """Stop the server: SIGTERM (it finishes writing its file) or, with ``kill``,
        SIGKILL (as a crash would)."""
        if self.proc is None or self.proc.poll() is not None:
            return
        (self.proc.kill if kill else self.proc.terminate)()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)

    def restart(self, *, kill: bool = False) -> None:
        self.stop(kill=kill)
        self.start()

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc):
        self.stop()
