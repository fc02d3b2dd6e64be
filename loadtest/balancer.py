"""A lecture hall through the load balancer: students load the page, change controls, step,
upload a CSV; every answer checked.

``python loadtest/run.py --balancer`` runs this: it starts ``deploy/serve.py``'s
stack (``--processes`` Streamlit processes behind HAProxy with cookie affinity)
and drives ``--clients`` simulated students **through the balancer's one
address**, as browsers behind one NAT address would arrive. Each student:

1. **loads the page** like a browser: ``GET /skpca`` (HAProxy answers with its
   affinity cookie), ``GET /_stcore/health`` (Streamlit's XSRF cookie), then the
   websocket ``/_stcore/stream`` carrying both cookies, and the first script run;
   timed from the first request to ``script_finished``;
2. then, every ``--think`` seconds on average (uniform in 0.5 to 1.5 times it,
   first pause random so that the hall does not act in step), **moves the k
   slider** to a random value or **presses Step**; after a move the page must say
   ``Step j of k`` with this student's own k, after Step the counter must have
   moved on by one (a run that stops early, because the kernel matrix of a small
   upload has numerical rank n < k, counts to n, and the page must then warn
   ``Stopped early after n of k = <this student's k> steps``);
3. a share of the students (``--upload-share``) opened the CSV link instead and
   **upload a CSV** first: the file-URL request on the websocket, a multipart
   ``PUT /_stcore/upload_file/<session>/<file>`` through the balancer with the
   XSRF header (Streamlit answers 400 if the upload reaches a process that does not
   hold the session, so stickiness is checked by every upload), the rerun with the
   file, and the page must then name this student's own file and its row count.

Errors: an exception or st.error element, a wrong or missing counter, another
student's file name or row count, an HTTP status other than success, a timeout,
a dropped connection. Reported: p50/p95 of interactions, first page loads and
uploads, throughput, errors, how the students spread over the processes, peak
memory of every Streamlit process and of HAProxy.
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import random
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field

from checks import early_stop, expected_steps
from checks import pct as _pct  # one percentile rule for both load tests
from stclient import STEP_RE, ProtocolError, StreamlitClient

PAGE = "skpca"
K_KEY = "k"
STEP_KEY = "skpca.next"
UPLOAD_KEY = "csv.file"
CSV_QUERY = "dataset=csv+upload"


@dataclass
class HallStats:
    interactions: list = field(default_factory=list)
    loads: list = field(default_factory=list)
    uploads: list = field(default_factory=list)
    errors: list = field(default_factory=list)
    server: str = ""


class Browser:
    """The HTTP side of one student's browser: a cookie jar and the balancer's address."""

    def __init__(self, base: str, timeout: float):
        self.base = base.rstrip("/")
        self.timeout = timeout
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str | None:
        return next((c.value for c in self.jar if c.name == name), None)

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)

    def get(self, path: str) -> int:
        with self.opener.open(self.base + path, timeout=self.timeout) as r:
            r.read()
            return r.status

    def put_file(self, path: str, name: str, data: bytes) -> int:
        boundary = uuid.uuid4().hex
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"UploadedFile\"; "
                f"filename=\"{name}\"\r\nContent-Type: text/csv\r\n\r\n").encode() + data + (
                    f"\r\n--{boundary}--\r\n").encode()
        req = urllib.request.Request(
            self.base + path, data=body, method="PUT",
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}",
                     "X-Xsrftoken": self.cookie("_streamlit_xsrf") or ""})
        try:
            with self.opener.open(req, timeout=self.timeout) as r:
                r.read()
                return r.status
        except urllib.error.HTTPError as exc:
            return exc.code


def student_csv(rng: random.Random, i: int) -> tuple[str, bytes, int]:
    """A small numeric CSV of this student's own (its name and row count identify it)."""
    rows = rng.randint(40, 120)
    lines = ["x1,x2"] + [f"{rng.gauss(0, 1):.4f},{rng.gauss(0, 1):.4f}" for _ in range(rows)]
    return f"student{i:03d}.csv", ("\n".join(lines) + "\n").encode(), rows


def _check(run, stats: HallStats, what: str):
    for e in run.exceptions:
        stats.errors.append(f"{what}: exception {e[:200]}")
    for e in run.errors:
        stats.errors.append(f"{what}: st.error {e[:200]}")
    if run.step_text is None:
        stats.errors.append(f"{what}: no 'Step j of k' text in the answer")
        return None
    j, n = STEP_RE.search(run.step_text).groups()
    return int(j), int(n)


def slider_error(run, shown: tuple[int, int], k: int) -> str | None:
    """What is wrong with the page's ``Step j of n`` after this student moved the slider to k."""
    if shown[1] != expected_steps(run, k):
        return f"slider: sent k = {k}, page shows {run.step_text}"
    return None


def step_error(run, shown: tuple[int, int], j: int, k: int) -> str | None:
    """What is wrong with the page's counter after Step from step j with this student's k."""
    n = expected_steps(run, k)
    if shown != (min(j + 1, n), n):
        return f"step: expected Step {min(j + 1, n)} of {n}, page shows {run.step_text}"
    return None


async def hall_student(base: str, port: int, i: int, deadline: float, args, rng: random.Random,
                       stats: HallStats, counter: list, upload: bool) -> None:
    browser = Browser(base, args.timeout)
    c = None
    try:
        t0 = time.perf_counter()
        path = f"/{PAGE}" + (f"?{CSV_QUERY}" if upload else "")
        for p in (path, "/_stcore/health"):
            status = await asyncio.to_thread(browser.get, p)
            if status != 200:
                stats.errors.append(f"load: GET {p} answered {status}")
                return
        stats.server = browser.cookie("mp_server") or "?"
        c = StreamlitClient("127.0.0.1", port, PAGE, timeout=args.timeout,
                            headers={"Cookie": browser.cookie_header()})
        if upload:
            c.query_string = urllib.parse.urlsplit(path).query
        await c.connect()
        first = await c.rerun()
        stats.loads.append(time.perf_counter() - t0)
        if upload:
            for e in first.exceptions + first.errors:
                stats.errors.append(f"load (CSV link): {e[:200]}")
            if UPLOAD_KEY not in c.widget_ids:
                stats.errors.append("load (CSV link): no file uploader on the page")
                return
            name, data, rows = student_csv(rng, i)
            t1 = time.perf_counter()
            urls = await c.upload_urls(name)
            status = await asyncio.to_thread(browser.put_file, urls.upload_url, name, data)
            if status not in (200, 204):
                stats.errors.append(f"upload: PUT answered {status} (server {stats.server})")
                return
            run = await c.rerun_with_file(UPLOAD_KEY, urls, name, len(data))
            stats.uploads.append(time.perf_counter() - t1)
            counter[0] += 1
            shown = _check(run, stats, "upload")
            first = run  # the run the student's page now shows
            mine = f"Using {name}: {rows} rows"
            texts = [t.replace("\\", "") for t in run.texts]  # shown literally (escaped)
            if not any(mine in t for t in texts):
                stats.errors.append(f"upload: the page does not say {mine!r}")
            elif sum("Using student" in t for t in texts) != 1:
                stats.errors.append("upload: another student's file is named on the page")
        else:
            shown = _check(first, stats, "load")
        if shown is None or K_KEY not in c.widget_ids or STEP_KEY not in c.widget_ids:
            stats.errors.append("load: the page did not show the k slider and Step button")
            return
        j, n = shown
        stop = early_stop(first)
        k = stop[1] if stop else n  # the page's k (a run that stopped early names it)
        k_hi = int(c.slider_max(K_KEY))
        await asyncio.sleep(args.think * rng.random())
        done = 0
        while time.perf_counter() < deadline or done < getattr(args, "min_actions", 0):
            done += 1
            if rng.random() < 0.5:
                k = rng.randint(1, k_hi)
                run = await c.rerun({K_KEY: k})
                shown = _check(run, stats, "slider")
                k_hi = int(c.slider_max(K_KEY))
                k = min(k, k_hi)  # the page keeps k within the slider's range
                error = shown and slider_error(run, shown, k)
            else:
                run = await c.rerun({K_KEY: k}, trigger=STEP_KEY)
                shown = _check(run, stats, "step")
                error = shown and step_error(run, shown, j, k)
            if error:
                stats.errors.append(error)
            stats.interactions.append(run.seconds)
            counter[0] += 1
            if shown is not None:
                j = shown[0]
            await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))
    except asyncio.TimeoutError:
        stats.errors.append(f"timeout: no answer within {args.timeout} s")
    except (ProtocolError, OSError) as exc:
        stats.errors.append(f"disconnect: {type(exc).__name__}: {exc}")
    finally:
        if c is not None:
            await c.close()


def _kb(pid: int, name: str) -> int:
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith(name + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


async def run_hall(n_clients: int, args, progress=None) -> dict:
    """One hall of ``n_clients`` students through a fresh balancer and its processes."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "deploy"))
    from serve import Hall

    with Hall(args.processes, port=args.balancer_port, first_port=args.port,
              bind="127.0.0.1", log_dir=None, warm=getattr(args, "warm", False)) as hall:
        pids = hall.pids() + [hall.balancer.pid]
        rng = random.Random(args.seed)
        stats = [HallStats() for _ in range(n_clients)]
        counter = [0]
        start = time.perf_counter()
        deadline = start + args.ramp + args.duration
        n_upload = round(args.upload_share * n_clients)
        uploaders = set(rng.sample(range(n_clients), n_upload))
        tasks = [asyncio.create_task(_delayed(
            args.ramp * i / max(1, n_clients),
            hall_student(hall.url, hall.port, i, deadline, args, random.Random(rng.random()),
                         stats[i], counter, i in uploaders)))
            for i in range(n_clients)]
        rss_peak = 0
        while not all(t.done() for t in tasks):
            await asyncio.sleep(0.5)
            rss_peak = max(rss_peak, sum(_kb(p, "VmRSS") for p in pids))
            if progress:
                progress(f"N = {n_clients} via HAProxy: {time.perf_counter() - start:5.1f}/"
                         f"{args.ramp + args.duration:.0f} s, {counter[0]} interactions, "
                         f"{sum(len(s.errors) for s in stats)} errors, "
                         f"RSS {rss_peak / 1024:.0f} MB")
        await asyncio.gather(*tasks)
        elapsed = time.perf_counter() - start
        per_process = [_kb(p, "VmHWM") / 1024 for p in hall.pids()]
        balancer_mb = _kb(hall.balancer.pid, "VmHWM") / 1024
        logs = hall.logs()
    inter = [x for s in stats for x in s.interactions]
    errors = [e for s in stats for e in s.errors]
    if "Traceback" in logs:
        errors.append("a server log holds a traceback")
    spread = {}
    for s in stats:
        spread[s.server] = spread.get(s.server, 0) + 1
    return dict(
        clients=n_clients, processes=args.processes, think=args.think, duration=args.duration,
        interactions=len(inter), per_second=len(inter) / max(elapsed, 1e-9),
        p50=_pct(inter, 50), p95=_pct(inter, 95), max=max(inter, default=float("nan")),
        load_p50=_pct([x for s in stats for x in s.loads], 50),
        load_p95=_pct([x for s in stats for x in s.loads], 95),
        uploads=sum(len(s.uploads) for s in stats),
        upload_p95=_pct([x for s in stats for x in s.uploads], 95),
        errors=len(errors), error_samples=errors[:10], spread=dict(sorted(spread.items())),
        peak_mb_per_process=[round(x) for x in per_process], balancer_mb=round(balancer_mb, 1))


async def _delayed(delay, coro):
    await asyncio.sleep(delay)
    return await coro


def hall_table(results: list[dict]) -> str:
    rows = ["| students | processes | think [s] | interactions / s | p50 [s] | p95 [s] | "
            "page load p50 / p95 [s] | uploads (p95 [s]) | errors | students per process | "
            "peak RSS per process [MB] | HAProxy [MB] |",
            "|" + "---:|" * 12]
    for r in results:
        rows.append(
            f"| {r['clients']} | {r['processes']} | {r['think']:g} | {r['per_second']:.1f} | "
            f"{r['p50']:.2f} | {r['p95']:.2f} | {r['load_p50']:.2f} / {r['load_p95']:.2f} | "
            f"{r['uploads']} ({r['upload_p95']:.2f}) | {r['errors']} | "
            f"{' / '.join(str(v) for v in r['spread'].values())} | "
            f"{' / '.join(str(v) for v in r['peak_mb_per_process'])} | {r['balancer_mb']:g} |")
    return "\n".join(rows)
