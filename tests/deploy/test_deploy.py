"""The lecture-hall deployment cannot rot: HAProxy in front of two Streamlit processes.

- The generated HAProxy configuration is accepted by ``haproxy -c`` and has what the
  hall needs (cookie affinity, health checks, the websocket tunnel timeout, the
  upload size), for any number of processes and ports (hypothesis).
- A smoke run: ``deploy/serve.py``'s stack with two processes and a handful of
  students through the balancer for a few seconds (page loads, k moves, Steps and
  CSV uploads, every answer checked by ``loadtest/balancer.py``): no errors, the
  students spread over both processes, and an upload sent with another process's
  cookie is refused by Streamlit (so affinity is what makes uploads work); the page,
  Streamlit's JavaScript and the plotly.js bundle come gzipped through the balancer and
  unpack to the same bytes.
- The warm-up (``deploy/serve.py`` draws every page, wide and on a phone, and the eigenvalue
  page on every bundled data set in each process before the balancer opens): it covers
  every page of app.py and every data set, and what it drew a new student then gets from
  the process's caches (Streamlit's cache counters: no miss), while a view it did not draw
  is computed (misses: the counters do see a cold view).
- One client of the load test's protocol against AppTest: the same clicks show the
  same counter (``loadtest/run.py --validate``).
- The load test's checks on an upload whose run stops early (a kernel matrix of rank
  below the training rows): the slider's maximum is the training rows, the counter
  ends at the rank with the page's warning naming the student's k, and that answer is
  accepted while a counter that does not match the k sent is still an error.

HAProxy comes from Debian's package (``.ci/run`` installs it, like chromium); without
it these tests skip locally and fail in CI.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import os
import random
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "deploy"), str(ROOT / "loadtest")]

from serve import COOKIE, WARM_EVERY_DATASET, Hall, haproxy_config, warm_targets  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from browser_util import consecutive_free_ports, skip_or_fail  # noqa: E402

from pages.common.charts import PLOTLY_BUNDLE  # noqa: E402

pytestmark = pytest.mark.slow


def run_async(coro):
    """``asyncio.run`` in a thread of its own: the browser tests' playwright (sync API) may
    hold this thread's event loop for the whole test session."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


def require_haproxy() -> str:
    path = shutil.which("haproxy") or ("/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists()
                                       else None)
    if path:
        return path
    skip_or_fail("haproxy is missing (apt-get install haproxy)", "The deployment tests")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(1, 8), first=st.integers(1024, 60000), port=st.integers(1024, 65000))
def test_the_configuration_is_valid_for_any_number_of_processes(tmp_path_factory, n, first,
                                                                port):
    haproxy = require_haproxy()
    ports = [first + i for i in range(n)]
    cfg = haproxy_config(ports, bind="127.0.0.1", port=port)
    path = tmp_path_factory.mktemp("cfg") / "haproxy.cfg"
    path.write_text(cfg)
    check = subprocess.run([haproxy, "-c", "-q", "-f", str(path)], capture_output=True,
                           text=True)
    assert check.returncode == 0, check.stderr
    for p in ports:  # every process, with its own affinity cookie value and a health check
        assert f"127.0.0.1:{p} cookie app" in cfg and "check" in cfg
    assert f"cookie {COOKIE} insert" in cfg
    assert "option httpchk GET /_stcore/health" in cfg
    assert "timeout tunnel" in cfg  # websockets stay open for the lecture
    # text gzipped by the balancer, the processes asked for plain text
    assert "compression algo gzip" in cfg and "compression offload" in cfg


def test_no_processes_is_refused_with_a_message():
    with pytest.raises(ValueError, match="at least one"):
        haproxy_config([])
    with pytest.raises(ValueError, match="at least 1"):
        Hall(0)
    with pytest.raises(ValueError, match="balancer port"):
        Hall(2, port=8501, first_port=8501)


def _free_ports(n):
    import socket

    socks, ports = [], []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        socks.append(s)
        ports.append(s.getsockname()[1])
    for s in socks:
        s.close()
    return ports


def test_a_few_students_through_the_balancer():
    require_haproxy()
    from balancer import Browser, run_hall, student_csv
    from stclient import StreamlitClient

    # the Streamlit processes' ports are consecutive: a free block of them
    args = argparse.Namespace(processes=2, balancer_port=_free_ports(1)[0],
                              port=consecutive_free_ports(2), seed=3,
                              ramp=1.0, duration=2.0, think=0.5, timeout=90.0,
                              upload_share=0.34, min_actions=3)
    result = run_async(run_hall(6, args))
    assert result["errors"] == 0, result["error_samples"]
    assert result["uploads"] == 2
    assert result["interactions"] >= 6 * 3  # every student acted, whatever the machine's speed
    assert set(result["spread"]) == {"app1", "app2"}, result["spread"]  # both processes used

    async def upload_with_the_wrong_cookie(hall):
        b = Browser(hall.url, 60)
        b.get("/skpca?dataset=csv+upload")
        b.get("/_stcore/health")
        c = StreamlitClient("127.0.0.1", hall.port, "skpca", timeout=60,
                            headers={"Cookie": b.cookie_header()})
        c.query_string = "dataset=csv+upload"
        await c.connect()
        try:
            await c.rerun()
            name, data, _ = student_csv(random.Random(0), 0)
            urls = await c.upload_urls(name)
            mine = b.cookie(COOKIE)
            other = "app2" if mine == "app1" else "app1"
            for cookie in b.jar:
                if cookie.name == COOKIE:
                    cookie.value = other
            return await asyncio.to_thread(b.put_file, urls.upload_url, name, data)
        finally:
            await c.close()

    with Hall(2, port=_free_ports(1)[0], first_port=consecutive_free_ports(2),
              bind="127.0.0.1") as hall:
        status = run_async(upload_with_the_wrong_cookie(hall))
        check_compression(hall)
    assert status == 400  # Streamlit: "Invalid session_id ... without sticky sessions"


def _fetch(url: str, gzip_ok: bool) -> tuple[str | None, bytes]:
    req = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"} if gzip_ok else {})
    with urllib.request.urlopen(req, timeout=60) as r:
        return r.headers.get("Content-Encoding"), r.read()


def check_compression(hall):
    """The balancer gzips the page, Streamlit's JavaScript and the plotly.js bundle for a
    browser that accepts it, and the text is the same once unpacked; a client that does not
    accept gzip gets the same bytes plain; the processes themselves are asked for plain text
    (HAProxy's ``compression offload``: no Python process spends its event loop on gzip)."""
    import gzip

    base = hall.url.rstrip("/")
    _, html = _fetch(base + "/", gzip_ok=False)
    script = re.search(rb'src="\./(static/js/index[^"]+\.js)"', html)
    assert script, html[:500]
    bundle = PLOTLY_BUNDLE.read_bytes()
    for path in ("/", "/kmp", "/" + script.group(1).decode(), f"/app/static/{PLOTLY_BUNDLE.name}"):
        enc, packed = _fetch(base + path, gzip_ok=True)
        plain_enc, plain = _fetch(base + path, gzip_ok=False)
        assert enc == "gzip", (path, enc)
        assert plain_enc is None, (path, plain_enc)
        assert gzip.decompress(packed) == plain, path
        assert len(packed) < 0.6 * len(plain), (path, len(packed), len(plain))
        if path.startswith("/app/static/"):
            assert plain == bundle


def test_the_warm_up_covers_every_page_and_every_data_set():
    import datasets
    from browser_util import app_pages

    pages = ["" if p.default else p.url_path for p in app_pages()]
    targets = warm_targets(pages)
    for page in pages:
        assert (page, "", False) in targets and (page, "", True) in targets
    assert set(WARM_EVERY_DATASET) <= set(pages)  # a renamed page would warm nothing
    for page in WARM_EVERY_DATASET:
        for name in datasets.names():
            assert (page, f"dataset={name}", False) in targets
    assert len(set(targets)) == len(targets)


def _cache_lookups(port: int) -> dict[str, int]:
    """Lookups of every st.cache_data function of the process at ``port``, by result
    ("hit", "miss"): Streamlit's own counters (``/_stcore/metrics``)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/metrics", timeout=30) as r:
        text = r.read().decode()
    out = {"hit": 0, "miss": 0}
    for line in text.splitlines():
        if line.startswith("cache_lookups_total{"):
            labels, value = line.rsplit(" ", 1)
            result = re.search(r'result="(\w+)"', labels).group(1)
            out[result] = out.get(result, 0) + int(float(value))
    return out


def test_a_warmed_process_answers_a_new_student_from_its_caches():
    require_haproxy()
    from stclient import StreamlitClient

    from serve import PHONE_AGENT

    views = [("spectrum", "dataset=sine", False), ("bounds", "", False), ("bounds", "", True)]

    async def visit(port, page, query, phone):
        c = StreamlitClient("127.0.0.1", port, page, timeout=120,
                            headers={"User-Agent": PHONE_AGENT} if phone else None)
        c.query_string = query
        await c.connect()
        try:
            return await c.rerun()
        finally:
            await c.close()

    with Hall(2, port=_free_ports(1)[0], first_port=consecutive_free_ports(2),
              bind="127.0.0.1", warm=views) as hall:
        assert hall.warm_problems == []
        for port in hall.ports:  # each process was warmed, not only the first
            before = _cache_lookups(port)
            assert before["miss"] > 0  # the warm-up computed the views
            for view in views:
                run = run_async(visit(port, *view))
                assert run.exceptions == [] and run.errors == [], view
            after = _cache_lookups(port)
            assert after["miss"] == before["miss"], (port, before, after)
            assert after["hit"] > before["hit"]
        # a view the warm-up did not draw is computed: the counters see a cold view
        port = hall.ports[0]
        before = _cache_lookups(port)
        run = run_async(visit(port, "spectrum", "dataset=moons", False))
        assert run.exceptions == [] and run.errors == []
        assert _cache_lookups(port)["miss"] > before["miss"]


def test_the_protocol_client_sees_what_apptest_sees():
    from run import main

    argv = ["--validate", "--port", str(_free_ports(1)[0])]
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:  # see run_async
        assert pool.submit(main, argv).result() == 0


def test_the_protocol_client_checks_a_run_that_stops_early(tmp_path):
    """A small upload whose kernel matrix has numerical rank below its training rows: with k at
    the slider's maximum (the training rows) the page counts to the rank and warns that it
    stopped early. The load test's checks accept exactly that answer for this student's k, and
    still refuse a counter that does not match the k the student sent."""
    from balancer import Browser, HallStats, _check, slider_error, step_error
    from checks import early_stop
    from run import Server
    from stclient import RunResult, StreamlitClient

    # 10 distinct points, each 4 times: 40 rows, 28 training rows (test 0.3), rank <= 10
    points = [(0.1 * i, (0.37 * i * i) % 1.3) for i in range(10)]
    data = ("x1,x2\n" + "".join(f"{x:.3f},{y:.3f}\n" for x, y in points * 4)).encode()
    n_train = 40 - 12

    async def student(port):
        b = Browser(f"http://127.0.0.1:{port}", 60)
        b.get("/skpca?dataset=csv+upload")
        b.get("/_stcore/health")
        c = StreamlitClient("127.0.0.1", port, "skpca", timeout=90,
                            headers={"Cookie": b.cookie_header()})
        c.query_string = "dataset=csv+upload"
        await c.connect()
        try:
            await c.rerun()
            urls = await c.upload_urls("repeated.csv")
            assert await asyncio.to_thread(b.put_file, urls.upload_url, "repeated.csv",
                                           data) in (200, 204)
            upload = await c.rerun_with_file("csv.file", urls, "repeated.csv", len(data))
            k_hi = int(c.slider_max("k"))
            moved = await c.rerun({"k": k_hi})
            stepped = await c.rerun({"k": k_hi}, trigger="skpca.next")
            return upload, k_hi, moved, stepped
        finally:
            await c.close()

    port = _free_ports(1)[0]
    with Server(port, tmp_path / "server.log"):
        upload, k_hi, moved, stepped = run_async(student(port))
    stats = HallStats()
    shown = [_check(run, stats, what) for run, what in
             ((upload, "upload"), (moved, "slider"), (stepped, "step"))]
    assert stats.errors == [] and None not in shown
    assert k_hi == n_train  # the slider's maximum is the new file's training rows
    j, n = shown[1]
    assert 1 <= n <= 10 < k_hi  # the run stopped at the kernel matrix's rank
    assert early_stop(moved) == (n, k_hi)
    assert slider_error(moved, shown[1], k_hi) is None
    assert step_error(stepped, shown[2], j, k_hi) is None and shown[2] == (min(j + 1, n), n)
    # the same counter for another k, or without the page's warning, is still an error
    assert slider_error(moved, shown[1], k_hi - 1) is not None
    silent = RunResult(seconds=0.0, status=0, n_messages=0, n_bytes=0,
                       step_text=moved.step_text)
    assert slider_error(silent, shown[1], k_hi) is not None
    assert step_error(stepped, (j, n), j, k_hi) is not None  # a lost click


def test_the_load_test_counts_the_processes_a_server_started():
    """loadtest/run.py's memory and CPU figures sum a server's process tree (the eigenvalue
    page's curves run in a process of the server's own): a child and a grandchild of a
    process are found, and gone once they end."""
    from run import _process_tree

    parent = subprocess.Popen(
        [sys.executable, "-c",
         "import subprocess, sys, time\n"
         "c = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
         "print(c.pid, flush=True)\n"
         "time.sleep(60)\n"], stdout=subprocess.PIPE, text=True)
    try:
        child = int(parent.stdout.readline())
        tree = _process_tree(parent.pid)
        assert tree[0] == parent.pid and child in tree, (parent.pid, child, tree)
        assert _process_tree(os.getpid()).count(parent.pid) == 1
    finally:
        os.kill(child, 9)
        parent.kill()
        parent.wait(10)
    assert parent.pid not in _process_tree(os.getpid())
