"""Pages drawn while the hall's Redis is down get the hall back by themselves once it returns.

A real Streamlit process with the hall in a real redis-server (``deploy/serve.py``'s
``Hall``: ``deploy/hall_app.py``, with the hall's version route), driven over its websocket
as browsers do (``loadtest/stclient.py``): the lecturer's page runs each
``st.fragment(run_every=...)`` timer the server announces, a phone's page does what its
watcher's script does (``loadtest/version_poll.py``: wait on the route, report a change). While redis-server is stopped (SIGKILL, as a crash): a phone's watcher asks (the
route answers 503), a phone reconnects (a new session, as after its process died) and the
lecturer reloads. Each of these pages must still have its timer or its watcher. Once
redis-server is back from its append-only file, with no reload: the lecturer's page shows its
controls again, and when it opens the beat's task to the hall every phone shows the answer
box. A page without a timer or a watcher would never ask the server again.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "deploy"), str(ROOT / "loadtest")]

from browser_util import consecutive_free_ports, skip_or_fail  # noqa: E402
from hall.redis_server import redis_binary  # noqa: E402

pytestmark = pytest.mark.slow

LESSON, POINT_BEAT = "greedy-selection", 2
UNAVAILABLE = "The hall is unavailable"
SEND, OPEN, START = "hall.answer.send", "hall.poll.open", "hall.start"
#: Timer runs a page may take to show what the store says once it is back.
TICKS = 8


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _page(port: int, query: str, phone: bool):
    from stclient import StreamlitClient
    from warmup import PHONE_AGENT

    c = StreamlitClient("127.0.0.1", port, "learn", timeout=60.0,
                        headers={"User-Agent": PHONE_AGENT} if phone else None)
    c.query_string = query
    await c.connect()
    run = await c.rerun()
    assert not run.exceptions, run.exceptions
    return c, run


async def _until(client, keys: set, what: str, watcher=None):
    """Run the page's timer, or its watcher (once a second, as a browser), until a run draws
    ``keys``."""
    deadline = time.monotonic() + TICKS
    while time.monotonic() < deadline:
        if watcher is not None:
            assert watcher.drawn, f"{what}: the page has no watcher any more"
            run = await watcher.step(1.0)
            if run is None:  # nothing to report this second
                continue
        else:
            await asyncio.sleep(1.0)
            run = await client.tick()
            assert run is not None, f"{what}: the page has no timer any more"
        assert not run.exceptions, run.exceptions
        if keys <= run.keys and not any(UNAVAILABLE in w for w in run.warnings):
            return run
    raise AssertionError(f"{what}: not shown within {TICKS} seconds")


async def _lecture(hall):
    from version_poll import VersionPoller, Watcher

    port = hall.ports[0]
    lec, _ = await _page(port, f"lesson={LESSON}&beat={POINT_BEAT}", phone=False)
    await lec.rerun(trigger=START)
    room, key = lec.query["hall"], lec.query["hall_key"]
    stu, run = await _page(port, f"hall={room}", phone=True)
    assert stu.query.get("beat") == str(POINT_BEAT) and stu.query.get("me")
    poller = VersionPoller("127.0.0.1", port)
    watch = Watcher(stu, poller)
    assert watch.drawn and not stu.auto_reruns, "a phone's page watches the route, no timer"

    hall.redis.stop(kill=True)
    # the route answers 503 at once (it holds no request it cannot read): asked again later
    assert await watch.step(10.0) is None
    assert watch.pending is None and watch.retry_at > 0, "the route held a request for nothing"
    # a phone reconnecting (a new session) and the lecturer reloading, while it is down
    stu2, run = await _page(port, stu.query_string, phone=True)
    assert any(UNAVAILABLE in w for w in run.warnings), run.texts
    poller2 = VersionPoller("127.0.0.1", port)  # a browser of its own: its own connection
    watch2 = Watcher(stu2, poller2)
    assert watch2.drawn and stu2.component_data("hall.watch")["stale"] is True, \
        "a phone's page drawn while the store was down has no watcher to bring it back"
    lec2, run = await _page(port, lec.query_string, phone=False)
    assert any(UNAVAILABLE in w for w in run.warnings), run.texts
    assert lec2.auto_reruns, "the lecturer's page drawn while the store was down has no timer"
    assert START not in run.keys, "the lecturer's reloaded page forgot its hall"
    assert lec2.query.get("hall_key") == key

    hall.redis.start()
    await _until(lec2, {OPEN}, "the lecturer's controls once the store is back")
    run = await lec2.rerun(trigger=OPEN)
    assert "hall.poll.close" in run.keys, run.texts
    for phone, w, what in ((stu, watch, "a phone that asked while it was down"),
                           (stu2, watch2, "a phone that reconnected")):
        await _until(phone, {SEND}, f"{what}: the poll's answer box", watcher=w)
    for w in (watch, watch2):
        await w.close()
    for p in (poller, poller2):
        await p.close()
    for c in (lec, stu, stu2, lec2):
        await c.close()


def test_pages_drawn_while_redis_is_down_get_the_hall_back_by_themselves():
    import serve

    probe = serve.Hall(1, port=8080, first_port=8501)
    probe.__exit__()
    if not Path(probe.haproxy).exists() or redis_binary() is None:
        skip_or_fail("haproxy or redis-server is not installed", "The hall's store-down test")
    with serve.Hall(1, port=_free_port(), first_port=consecutive_free_ports(1),
                    bind="127.0.0.1", redis_port=_free_port(), warm=False) as hall:
        t0 = time.monotonic()
        # a thread of its own: the browser tests' playwright may hold this thread's event loop
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
            pool.submit(asyncio.run, _lecture(hall)).result(timeout=600)
        print(f"{time.monotonic() - t0:.1f} s")
        assert "Traceback" not in hall.logs()
