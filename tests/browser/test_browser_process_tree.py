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

import pytest

from browser_util import (
    StreamlitServer,
    app_pages,
    wait_for_app,
    wait_for_charts,
)
from proc_util import alive, command, tree

pytestmark = pytest.mark.browser

#: How long after the SIGKILL every process of the server's tree must be gone.
GRACE_S = 5.0


def test_the_tree_walk_sees_a_child():
    """The walk finds a process this test starts (so an empty tree below proves something)."""
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert child.pid in tree(os.getpid())
    finally:
        child.kill()
        child.wait()
    assert child.pid not in tree(os.getpid())


def test_no_process_outlives_a_server_killed_with_sigkill(browser):
    """The session's browser (one playwright per test process) opens every page of a server
    of this test's own, which is then killed with SIGKILL."""
    pages = app_pages()
    assert len(pages) >= 5
    server = StreamlitServer().start()
    procs: dict[int, int] = {}
    try:
        context = browser.new_context()
        try:
            pg = context.new_page()
            for p in pages:
                pg.goto(p.url(server.base))
                wait_for_app(pg, content="h1")
                wait_for_charts(pg)
                assert pg.locator('[data-testid="stException"]').count() == 0, p.name
            procs = tree(server.proc.pid)
            assert server.proc.pid in procs
            os.kill(server.proc.pid, signal.SIGKILL)
            server.proc.wait(timeout=30)  # reaped: the server itself is gone
            deadline = time.monotonic() + GRACE_S
            left = dict(procs)
            while left and time.monotonic() < deadline:
                left = {p: s for p, s in left.items() if alive(p, s)}
                time.sleep(0.1)
            left = {p: s for p, s in left.items() if alive(p, s)}
            assert not left, (
                f"{len(left)} of the server's {len(procs)} processes alive "
                f"{GRACE_S:.0f} s after its SIGKILL: "
                + "; ".join(command(p) for p in left))
        finally:
            context.close()
    finally:
        # what this test started and the assertion found alive: end it, by its own pid
        for pid, start in procs.items():
            if alive(pid, start):
                os.kill(pid, signal.SIGKILL)
        server.stop()
