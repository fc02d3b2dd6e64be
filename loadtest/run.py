"""Load test: many simulated students on the sparse-KPCA page of one Streamlit server.

For each N in ``--clients`` the script starts a fresh server on 127.0.0.1 (from
the repository root, so ``.streamlit/config.toml`` applies), opens N websocket
clients speaking Streamlit's own protocol (``loadtest/stclient.py``; no
browser, so the 2 cores measure the server, not N renderers), and lets every
client, for ``--duration`` seconds:

1. move the ``k`` slider to a random value in ``[1, k_max]`` (a student
   dragging to the extremes; ``--k-range`` narrows it), then
2. press ``Step ▶`` (button key ``skpca.next``),

waiting ``--think`` seconds between interactions. Each interaction is timed
from sending the ``rerun_script`` message to receiving ``script_finished``.
Every answer is also checked for what the page must show *to that client*:
after moving k the page says ``Step j of k`` with this client's own k, and
after Step the counter moved by one (capped at k). A run that ends before k
steps (the kernel matrix has numerical rank n < k) shows ``Step j of n``; that
is right only when the page also warns ``Stopped early after n of k = <this
client's k> steps`` (:func:`expected_steps`). A mismatch is an error
(it would mean state leaking between sessions or a lost click), as are an
exception element, an ``st.error`` box, a timeout and a dropped connection.

Reported per N: interactions, throughput, p50/p95/max latency (all
interactions, and slider vs Step separately), first-page-load p50/p95,
errors, server peak RSS (``VmHWM`` of the server process), and CPU use of the
server, of this load generator and of every other process on the machine
(100% = one core; on a shared machine the last column says how much the
figures were disturbed).

``--replicas R`` starts R server processes and keeps client i on replica
i mod R (a load balancer with sticky sessions); ``--root`` serves a patched
copy of the app to measure a proposed change; ``--server-opt`` passes a
Streamlit option; ``--py-spy`` records a sampling profile of the server
(summarise it with ``loadtest/profile.py``).

Bounded: every run stops after ``--duration`` s (plus at most ``--timeout``
s for the last answer), every client after ``--max-interactions``; only
loopback addresses are used; the servers are the script's own children and
are terminated by their handles.

Usage::

    python loadtest/run.py                       # N = 10, 30, 60; 60 s each
    python loadtest/run.py --clients 30 --duration 20 --think 1
    python loadtest/run.py --think 2 --replicas 2
    python loadtest/run.py --validate            # one client vs AppTest, same clicks

Not part of the unit tests.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from checks import early_stop, expected_steps, pct  # noqa: E402,F401  (early_stop: the tests)
from stclient import STEP_RE, ProtocolError, StreamlitClient  # noqa: E402

HOST = "127.0.0.1"
PAGE = "skpca"
K_KEY = "k"
STEP_KEY = "skpca.next"



def progress(msg: str) -> None:
    print(f"\r\033[K  ... {msg}", end="", file=sys.stderr, flush=True)


def progress_done() -> None:
    print(file=sys.stderr, flush=True)


# ---------------------------------------------------------------- the server


class Server:
    """``streamlit run app.py`` on loopback, as this script's own child process."""

    def __init__(self, port: int, log_path: Path, options=(), root: Path = ROOT):
        self.root = Path(root)
        self.port = port
        self.log_path = log_path
        self.options = list(options)
        self.proc: subprocess.Popen | None = None

    def __enter__(self):
        self.log = open(self.log_path, "wb")
        cmd = [sys.executable, "-m", "streamlit", "run", "app.py",
               "--server.port", str(self.port), "--server.address", HOST,
               "--server.headless", "true", "--browser.gatherUsageStats", "false"]
        for opt in self.options:
            key, _, value = opt.partition("=")
            cmd += [f"--{key}", value]
        self.proc = subprocess.Popen(cmd, cwd=self.root, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        url = f"http://{HOST}:{self.port}/_stcore/health"
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited early; see {self.log_path}")
            try:
                with urllib.request.urlopen(url, timeout=1) as r:
                    if r.read().strip() == b"ok":
                        return self
            except OSError:
                time.sleep(0.2)
        self.__exit__()
        raise RuntimeError(f"server did not answer {url} within 30 s")

    def __exit__(self, *exc):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.log.close()

    def status_kb(self, field_name: str) -> int:
        """A ``kB`` field of /proc/<pid>/status (VmRSS, VmHWM), summed over the server and
        the processes it started (the eigenvalue page's process for its error curves, and
        multiprocessing's resource tracker): for VmHWM an upper bound of their joint peak."""
        return sum(next((int(line.split()[1]) for line in text.splitlines()
                         if line.startswith(field_name + ":")), 0)
                   for text in _tree_files(self.proc.pid, "status"))

    def cpu_seconds(self) -> float:
        """CPU seconds of the server and the processes it started (as :meth:`status_kb`)."""
        ticks = 0
        for text in _tree_files(self.proc.pid, "stat"):
            fields = text.rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
        return ticks / os.sysconf("SC_CLK_TCK")

    def log_errors(self) -> list[str]:
        self.log.flush()
        text = self.log_path.read_text(errors="replace")
        return [ln for ln in text.splitlines()
                if "Traceback" in ln or " ERROR " in ln or "Exception" in ln]


def _process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants (/proc/<pid>/task/<tid>/children)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    todo.extend(int(c) for c in fh.read().split())
        except (FileNotFoundError, ProcessLookupError):
            pass
    return out


def _tree_files(pid: int, name: str):
    """The text of /proc/<p>/<name> for ``pid`` and each of its descendants still running."""
    for p in _process_tree(pid):
        try:
            with open(f"/proc/{p}/{name}") as fh:
                yield fh.read()
        except (FileNotFoundError, ProcessLookupError):  # it ended meanwhile
            pass


def machine_busy_seconds() -> float:
    """CPU seconds all processes on the machine have used (from /proc/stat)."""
    with open("/proc/stat") as fh:
        f = [int(x) for x in fh.readline().split()[1:]]
    idle = f[3] + (f[4] if len(f) > 4 else 0)
    return (sum(f[:8]) - idle) / os.sysconf("SC_CLK_TCK")


# ---------------------------------------------------------------- one student


@dataclass
class Stats:
    slider: list = field(default_factory=list)
    step: list = field(default_factory=list)
    load: list = field(default_factory=list)
    errors: list = field(default_factory=list)
    bytes: int = 0


def _check(run, stats: Stats, what: str) -> tuple[int, int] | None:
    """Record app errors of one run; return (j, n) from 'Step j of n' if shown."""
    for e in run.exceptions:
        stats.errors.append(f"{what}: exception {e[:200]}")
    for e in run.errors:
        stats.errors.append(f"{what}: st.error {e[:200]}")
    stats.bytes += run.n_bytes
    if run.step_text is None:
        stats.errors.append(f"{what}: no 'Step j of k' text in the answer")
        return None
    j, n = STEP_RE.search(run.step_text).groups()
    return int(j), int(n)


async def student(port: int, deadline: float, args, rng: random.Random, stats: Stats,
                  counter: list) -> None:
    c = StreamlitClient(HOST, port, PAGE, timeout=args.timeout)
    try:
        t0 = time.perf_counter()
        await c.connect()
        first = await c.rerun()
        stats.load.append(time.perf_counter() - t0)
        shown = _check(first, stats, "load")
        if shown is None or K_KEY not in c.widget_ids or STEP_KEY not in c.widget_ids:
            stats.errors.append("load: the page did not show the k slider and Step button")
            return
        j, _ = shown
        k_lo, k_hi = args.k_range or (1, int(c.slider_max(K_KEY)))
        k_hi = min(k_hi, int(c.slider_max(K_KEY)))
        for _ in range(args.max_interactions // 2):
            if time.perf_counter() >= deadline:
                break
            k = rng.randint(k_lo, k_hi)
            run = await c.rerun({K_KEY: k})
            stats.slider.append(run.seconds)
            counter[0] += 1
            shown = _check(run, stats, "slider")
            if shown is not None:
                j, n = shown
                if n != expected_steps(run, k):
                    stats.errors.append(f"slider: sent k = {k}, page shows {run.step_text}")
            await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))
            if time.perf_counter() >= deadline:
                break
            run = await c.rerun({K_KEY: k}, trigger=STEP_KEY)
            stats.step.append(run.seconds)
            counter[0] += 1
            shown = _check(run, stats, "step")
            if shown is not None:
                j_new, n = shown
                n_want = expected_steps(run, k)
                if (j_new, n) != (min(j + 1, n_want), n_want):
                    stats.errors.append(f"step: expected Step {min(j + 1, n_want)} of {n_want}, "
                                        f"page shows {run.step_text}")
                j = j_new
            await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))
    except asyncio.TimeoutError:
        stats.errors.append(f"timeout: no script_finished within {args.timeout} s")
    except (ProtocolError, OSError) as exc:
        stats.errors.append(f"disconnect: {exc}")
    finally:
        await c.close()


async def run_level(n_clients: int, args) -> dict:
    with contextlib.ExitStack() as stack:
        servers = [stack.enter_context(Server(
            args.port + r, Path(args.log_dir) / f"server_N{n_clients}_r{r}.log",
            args.server_opt, args.root)) for r in range(args.replicas)]
        client_cpu0 = time.process_time()
        busy0 = machine_busy_seconds()
        rss0 = sum(sv.status_kb("VmRSS") for sv in servers)
        cpu0 = sum(sv.cpu_seconds() for sv in servers)
        spies = []
        for r, sv in enumerate(servers if args.py_spy else []):
            # sampling profile of the server threads (idle frames dropped), collapsed stacks
            out = Path(args.log_dir) / f"profile_N{n_clients}_r{r}.txt"
            spies.append(subprocess.Popen(
                [args.py_spy, "record", "--pid", str(sv.proc.pid), "--format", "raw",
                 "--rate", "50", "--nonblocking", "--output", str(out),
                 "--duration", str(int(args.ramp + args.duration))],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        stats = [Stats() for _ in range(n_clients)]
        counter = [0]
        start = time.perf_counter()
        deadline = start + args.ramp + args.duration
        rng = random.Random(args.seed)
        tasks = []
        for i in range(n_clients):
            # a lecture hall opens the link over a few seconds, not in one instant; with
            # several replicas each client stays on one (sticky sessions)
            delay = args.ramp * i / max(1, n_clients)
            port = servers[i % len(servers)].port
            tasks.append(asyncio.create_task(_delayed(
                delay, student(port, deadline, args, random.Random(rng.random()), stats[i],
                               counter))))
        rss_peak_sampled = rss0
        while not all(t.done() for t in tasks):
            await asyncio.sleep(0.5)
            rss_peak_sampled = max(rss_peak_sampled, sum(sv.status_kb("VmRSS") for sv in servers))
            n_err = sum(len(s.errors) for s in stats)
            progress(f"N = {n_clients}: {time.perf_counter() - start:5.1f}/"
                     f"{args.ramp + args.duration:.0f} s, {counter[0]} interactions, "
                     f"{n_err} errors, server RSS {rss_peak_sampled / 1024:.0f} MB")
        await asyncio.gather(*tasks)
        for spy in spies:
            spy.wait(30)
        elapsed = time.perf_counter() - start
        cpu = sum(sv.cpu_seconds() for sv in servers) - cpu0
        client_cpu = time.process_time() - client_cpu0
        others = machine_busy_seconds() - busy0 - cpu - client_cpu
        hwm = sum(sv.status_kb("VmHWM") for sv in servers)
        rss_end = sum(sv.status_kb("VmRSS") for sv in servers)
        log_errors = [e for sv in servers for e in sv.log_errors()]
    progress_done()
    slider = [x for s in stats for x in s.slider]
    step = [x for s in stats for x in s.step]
    both = slider + step
    errors = [e for s in stats for e in s.errors] + [f"server log: {e}" for e in log_errors]
    return dict(
        clients=n_clients, replicas=args.replicas, duration=args.duration, think=args.think,
        ramp=args.ramp, k_range=args.k_range,
        interactions=len(both), per_second=len(both) / max(elapsed, 1e-9),
        p50=pct(both, 50), p95=pct(both, 95), max=max(both, default=float("nan")),
        slider_p50=pct(slider, 50), slider_p95=pct(slider, 95),
        step_p50=pct(step, 50), step_p95=pct(step, 95),
        load_p50=pct([x for s in stats for x in s.load], 50),
        load_p95=pct([x for s in stats for x in s.load], 95),
        mb_per_interaction=sum(s.bytes for s in stats) / max(1, len(both)) / 1e6,
        errors=len(errors), error_samples=errors[:10],
        # with several replicas: sums over the processes (the peak is an upper bound)
        rss_start_mb=rss0 / 1024, rss_peak_mb=hwm / 1024, rss_end_mb=rss_end / 1024,
        server_cpu_share=cpu / max(elapsed, 1e-9),
        client_cpu_share=client_cpu / max(elapsed, 1e-9),
        other_cpu_share=max(0.0, others) / max(elapsed, 1e-9),
        server_options=list(args.server_opt),
    )


async def _delayed(delay, coro):
    await asyncio.sleep(delay)
    return await coro


# ---------------------------------------------------------------- validation


async def _ws_sequence(port: int, actions) -> list[str]:
    c = StreamlitClient(HOST, port, PAGE, timeout=60)
    await c.connect()
    try:
        shown = [(await c.rerun()).step_text]
        k = None
        for act, value in actions:
            if act == "k":
                k = value
                shown.append((await c.rerun({K_KEY: k})).step_text)
            else:
                vals = {K_KEY: k} if k is not None else {}
                shown.append((await c.rerun(vals, trigger=STEP_KEY)).step_text)
        return shown
    finally:
        await c.close()


def _walk(node):
    for child in getattr(node, "children", {}).values():
        yield child
        yield from _walk(child)


def _apptest_sequence(actions, root: Path) -> list[str]:
    os.chdir(root)
    sys.path.insert(0, str(root))
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(Path(root) / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/skpca.py")
    at.run()

    def text():
        # the page's timeline bar (a components-v2 element) holds the step j of n
        for node in _walk(at._tree):
            proto = getattr(node, "proto", None)
            if getattr(node, "type", None) == "bidi_component" and \
                    proto.component_name == "mp_timeline":
                data = json.loads(proto.json)
                return f"Step {int(data['j'])} of {int(data['n'])}"
        return None

    shown = [text()]
    for act, value in actions:
        if act == "k":
            at.slider(key=K_KEY).set_value(value).run()
        else:
            at.button(key=STEP_KEY).click().run()
        shown.append(text())
    return shown


def validate(args) -> int:
    actions = [("step", None), ("step", None), ("k", 7), ("step", None), ("k", 3),
               ("step", None), ("k", 50), ("step", None), ("step", None), ("k", 1),
               ("step", None)]
    with Server(args.port, Path(args.log_dir) / "server_validate.log", args.server_opt, args.root):
        ws = asyncio.run(_ws_sequence(args.port, actions))
    app = _apptest_sequence(actions, args.root)
    ok = ws == app and None not in ws
    print("| action | websocket client | AppTest |\n|---|---|---|")
    for (act, val), a, b in zip([("load", None)] + actions, ws, app):
        print(f"| {act}{'' if val is None else ' = %s' % val} | {a} | {b} |")
    print("same text after every action:", ok)
    return 0 if ok else 1


# ---------------------------------------------------------------- report


def table(results: list[dict]) -> str:
    head = ("| N | interactions | per s | p50 [s] | p95 [s] | max [s] | slider p95 [s] | "
            "Step p95 [s] | page load p95 [s] | errors | server peak RSS [MB] | server CPU | "
            "load generator CPU | other processes CPU |")
    rows = [head, "|" + "---:|" * 14]
    for r in results:
        rows.append(
            f"| {r['clients']} | {r['interactions']} | {r['per_second']:.1f} | {r['p50']:.2f} | "
            f"{r['p95']:.2f} | {r['max']:.2f} | {r['slider_p95']:.2f} | {r['step_p95']:.2f} | "
            f"{r['load_p95']:.2f} | {r['errors']} | {r['rss_peak_mb']:.0f} | "
            f"{100 * r['server_cpu_share']:.0f}% | {100 * r['client_cpu_share']:.0f}% | "
            f"{100 * r['other_cpu_share']:.0f}% |")
    return "\n".join(rows)


def balancer_main(args) -> int:
    from balancer import hall_table, run_hall

    if not 1 <= args.processes <= 8 or not 0 <= args.upload_share <= 1:
        raise SystemExit("bounded run: 1 <= --processes <= 8, 0 <= --upload-share <= 1")
    results = []
    for n in args.clients:
        results.append(asyncio.run(run_hall(n, args, progress)))
        progress_done()
        for e in results[-1]["error_samples"][:3]:
            print(f"  N = {n} error: {e}", file=sys.stderr)
    print(f"Page /{PAGE} through HAProxy (cookie affinity) in front of {args.processes} "
          f"Streamlit processes, think time {args.think:g} s, {args.duration:g} s per N after a "
          f"{args.ramp:g} s ramp, {round(100 * args.upload_share)}% of students upload a CSV, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end")
    print(hall_table(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 1 if any(r["errors"] for r in results) else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, nargs="+", default=[10, 30, 60])
    ap.add_argument("--duration", type=float, default=60.0, help="seconds of interaction per N")
    ap.add_argument("--ramp", type=float, default=5.0, help="seconds over which clients connect")
    ap.add_argument("--think", type=float, default=0.0,
                    help="mean pause between interactions (uniform in [0.5, 1.5] x think)")
    ap.add_argument("--k-range", type=int, nargs=2, metavar=("LO", "HI"), default=None,
                    help="k values the clients pick from (default: the slider's whole range)")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for one answer")
    ap.add_argument("--max-interactions", type=int, default=2000, help="per client")
    ap.add_argument("--port", type=int, default=8620, help="first server port (loopback)")
    ap.add_argument("--replicas", type=int, default=1,
                    help="server processes on consecutive ports; client i always talks to "
                         "replica i mod R (what a load balancer with sticky sessions does)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, default=None, help="also write the results here")
    ap.add_argument("--log-dir", default=None, help="server logs (default: a temp dir)")
    ap.add_argument("--root", type=Path, default=ROOT,
                    help="app directory to serve (default: this repository; a patched copy "
                         "measures a proposed change)")
    ap.add_argument("--server-opt", action="append", default=[], metavar="KEY=VALUE",
                    help="extra streamlit option for the server, e.g. runner.postScriptGC=false "
                         "(to measure a configuration change; repeatable)")
    ap.add_argument("--py-spy", default=None, metavar="PATH",
                    help="py-spy executable: also record a sampling profile of the server "
                         "(collapsed stacks in the log dir; summarise with loadtest/profile.py)")
    ap.add_argument("--balancer", action="store_true",
                    help="a lecture hall through HAProxy (deploy/serve.py): page loads, k moves, "
                         "Steps and CSV uploads through one address (loadtest/balancer.py)")
    ap.add_argument("--processes", type=int, default=2,
                    help="with --balancer: Streamlit processes behind it (default 2)")
    ap.add_argument("--balancer-port", type=int, default=8680,
                    help="with --balancer: the balancer's loopback port")
    ap.add_argument("--upload-share", type=float, default=0.1,
                    help="with --balancer: share of students who open the CSV link and upload")
    ap.add_argument("--no-warm", dest="warm", action="store_false",
                    help="with --balancer: open the hall without deploy/serve.py's warm-up "
                         "(every page and data set drawn once in each process first)")
    ap.add_argument("--validate", action="store_true",
                    help="one client against AppTest with the same clicks, then exit")
    args = ap.parse_args(argv)
    if args.duration > 600 or max(args.clients) > 200 or not 1 <= args.replicas <= 8:
        ap.error("bounded run: --duration <= 600 s, N <= 200, 1 <= --replicas <= 8")
    if args.log_dir is None:
        import tempfile

        args.log_dir = tempfile.mkdtemp(prefix="loadtest_")
    if args.validate:
        return validate(args)
    if args.balancer:
        return balancer_main(args)
    results = []
    for n in args.clients:
        results.append(asyncio.run(run_level(n, args)))
        for e in results[-1]["error_samples"][:3]:
            print(f"  N = {n} error: {e}", file=sys.stderr)
    print(f"Page /{PAGE}, think time {args.think:g} s, {args.duration:g} s per N "
          f"(after a {args.ramp:g} s ramp), {os.cpu_count()} cores, "
          f"{args.replicas} server process{'es' if args.replicas > 1 else ''}"
          + (f", k in [{args.k_range[0]}, {args.k_range[1]}]" if args.k_range else "")
          + (f", server options {' '.join(args.server_opt)}" if args.server_opt else "")
          + f"; server logs in {args.log_dir}")
    print(table(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
