"""The hall load test in small: a lecture with faults, every acknowledged answer in the export.

``loadtest/hall_polls.py`` with 20 students, 2 polls and its faults: ``deploy/serve.py``'s
stack (HAProxy, two Streamlit processes, redis-server), a lecturer who moves through lesson 2
and opens two polls, students who follow and answer through the balancer; while the first
poll is open the Streamlit process without the lecturer is killed (SIGKILL) and its students
reconnect to the other, keeping their device id; while the second is open redis-server is
killed and started again from its append-only file. Asserted: every acknowledged answer is in
the lecturer's export with the value last acknowledged (none lost), no answer in the export
that no student sent, no student with two device ids, both faults happened (students
reconnected, Redis restarted), and no error. Durations are reported, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "deploy"), str(ROOT / "loadtest")]

from browser_util import consecutive_free_ports, skip_or_fail  # noqa: E402
from hall.redis_server import redis_binary  # noqa: E402

pytestmark = pytest.mark.slow


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_small_lecture_with_faults_loses_no_acknowledged_answer():
    import serve
    from hall_polls import run_lecture

    hall = serve.Hall(1, port=8080, first_port=8501)
    hall.__exit__()
    if not Path(hall.haproxy).exists() or redis_binary() is None:
        skip_or_fail("haproxy or redis-server is not installed", "The hall load test")
    args = argparse.Namespace(
        students=20, moves=5, polls=2, faults=True, ramp=5.0, pause=1.0, answer_within=4.0,
        change_share=0.2, processes=2, port=consecutive_free_ports(2),
        balancer_port=_free_port(), redis_port=_free_port(), timeout=60.0, seed=1, warm=False)
    # a thread of its own: the browser tests' playwright may hold this thread's event loop
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        r = pool.submit(asyncio.run, run_lecture(args)).result()
    print(r)
    assert r["polls"] == 2 and r["moves"] == 5
    assert r["lost"] == 0, r["error_samples"]
    assert r["extra"] == 0, r["error_samples"]
    # every student answered both polls; the export holds one answer per student and poll
    # (an answer stored but never acknowledged, its process killed first, is the only other)
    assert r["export_answers"] == 2 * 20, r
    assert r["acknowledged"] >= 2 * 20
    assert r["reconnects"] > 0 and r["killed"] in ("app1", "app2")
    assert r["redis_restarts"] == 1
    assert r["errors"] == 0, r["error_samples"]
