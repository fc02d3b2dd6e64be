"""A server killed hard leaves no process behind.

The kernel's OOM killer ends a process with SIGKILL: it has no chance to stop what it
started. So a process the server starts (a pool, a worker) would keep running, holding
its memory, once the server is gone. The test starts ``streamlit run app.py``, opens every
page of app.py in Debian's chromium (each page computes what it shows), reads the server's
process tree from ``/proc/<pid>/task/*/children`` just before the kill, sends SIGKILL to the
server alone, and checks that no process of that tree is still alive 5 s later.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from browser_util import (
    StreamlitServer,
    app_pages,
    wait_for_app,
    wait_for_charts,
)

pytestmark = pytest.mark.browser

#: How long after the SIGKILL every process of the server's tree must be gone.
GRACE_S = 5.0


def _start_time(pid: int) -> int | None:
    """The process's start time (clock ticks since boot; with the pid, it names one process
    even if the pid is reused), or None when there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # the command name (field 2) is in parentheses and may hold spaces: split after it
    return int(stat[stat.rindex(")") + 2:].split()[19])


def _alive(pid: int, start: int) -> bool:
    """Whether that process still runs (a zombie, dead and not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    fields = stat[stat.rindex(")") + 2:].split()
    return fields[0] != "Z" and int(fields[19]) == start


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")[:200]
    except OSError:
        return f"pid {pid} (ended)"


def _tree(pid: int) -> dict[int, int]:
    """pid -> start time of ``pid`` and every process below it (children of every thread)."""
    found, todo = {}, [pid]
    while todo:
        p = todo.pop()
        start = _start_time(p)
        if start is None or p in found:
            continue
        found[p] = start
        for task in Path(f"/proc/{p}/task").glob("*"):
            try:
                todo += [int(c) for c in (task / "children").read_text().split()]
            except OSError:  # the thread ended meanwhile
                pass
    return found


def test_the_tree_walk_sees_a_child():
    """The walk finds a process this test starts (so an empty tree below proves something)."""
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert child.pid in _tree(os.getpid())
    finally:
        child.kill()
        child.wait()
    assert child.pid not in _tree(os.getpid())


def test_no_process_outlives_a_server_killed_with_sigkill(browser):
    """The session's browser (one playwright per test process) opens every page of a server
    of this test's own, which is then killed with SIGKILL."""
    pages = app_pages()
    assert len(pages) >= 5
    server = StreamlitServer().start()
    tree: dict[int, int] = {}
    try:
        context = browser.new_context()
        try:
            pg = context.new_page()
            for p in pages:
                pg.goto(p.url(server.base))
                wait_for_app(pg, content="h1")
                wait_for_charts(pg)
                assert pg.locator('[data-testid="stException"]').count() == 0, p.name
            tree = _tree(server.proc.pid)
            assert server.proc.pid in tree
            os.kill(server.proc.pid, signal.SIGKILL)
            server.proc.wait(timeout=30)  # reaped: the server itself is gone
            deadline = time.monotonic() + GRACE_S
            left = dict(tree)
            while left and time.monotonic() < deadline:
                left = {p: s for p, s in left.items() if _alive(p, s)}
                time.sleep(0.1)
            left = {p: s for p, s in left.items() if _alive(p, s)}
            assert not left, (
                f"{len(left)} of the server's {len(tree)} processes alive "
                f"{GRACE_S:.0f} s after its SIGKILL: "
                + "; ".join(_command(p) for p in left))
        finally:
            context.close()
    finally:
        # what this test started and the assertion found alive: end it, by its own pid
        for pid, start in tree.items():
            if _alive(pid, start):
                os.kill(pid, signal.SIGKILL)
        server.stop()
