"""Interaction latency of the sparse-KPCA page at the default data size.

Reports the median time of a rerun after

(a) changing k to a value not seen before (the cached view must be recomputed:
    greedy steps, heatmaps, the animated figure),
(a') changing k back to a value already seen (served from st.cache_data),
(b) one "Step ▶" click (the view is cached; only the start frame changes),

measured two ways:

- server side: ``AppTest.run()`` wall time, which is the script run itself plus
  AppTest's small parsing overhead (no network, no browser);
- in the browser (when Debian's chromium is present): from the click in
  chromium to the new "Step j of k" text on screen, through a live
  ``streamlit run app.py`` on a free loopback port (network, protobuf,
  React and plotly rendering included).

Target: under 150 ms server side. Run from the repository root::

    python benchmarks/bench_latency.py [--repeats 15] [--no-browser]

Writes the table to benchmarks/results_latency.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO_ROOT), str(REPO_ROOT / "tests")]

TARGET_MS = 150.0
PAGE = "pages/skpca.py"
STEP_RE = re.compile(r"Step (\d+) of (\d+)")
RESULTS = REPO_ROOT / "benchmarks" / "results_latency.md"


def progress(label, i, n):
    sys.stderr.write(f"\r{label}: {i}/{n} ")
    if i == n:
        sys.stderr.write("\n")
    sys.stderr.flush()


CPU = {}  # interaction -> process CPU ms per rerun (less sensitive to a loaded machine)


def _timed(fn, label=None):
    c0, t0 = time.process_time(), time.perf_counter()
    fn()
    wall = (time.perf_counter() - t0) * 1e3
    if label:
        CPU.setdefault(label, []).append((time.process_time() - c0) * 1e3)
    return wall


def _counter(at):
    for m in at.markdown:
        found = STEP_RE.search(m.value)
        if found:
            return int(found.group(1)), int(found.group(2))
    raise RuntimeError("no 'Step j of k' on the page: " + str([e.value for e in at.exception]))


# ---------------------------------------------------------------- server side (AppTest)


def bench_apptest(repeats):
    from streamlit.testing.v1 import AppTest

    os.chdir(REPO_ROOT)  # AppTest reads .streamlit/config.toml from the cwd
    at = AppTest.from_file(str(REPO_ROOT / "app.py"), default_timeout=300)
    at.run()
    at.switch_page(PAGE)
    at.run()
    if at.exception:
        raise RuntimeError([e.value for e in at.exception])
    k0 = int(at.slider(key="k").value)
    k_max = int(at.slider(key="k").max)
    settings = dict(dataset=at.selectbox(key="dataset").value, n=at.slider(key="n").value, k=k0)

    # (a) new k each time: walk away from the default through unseen values
    new_k = [k for k in range(k0 + 1, k_max + 1)][:repeats]
    new_k += [k for k in range(k0 - 1, 1, -1)][: repeats - len(new_k)]
    t_new = []
    for i, k in enumerate(new_k, 1):
        t_new.append(_timed(lambda: at.slider(key="k").set_value(k).run(), "change k (new value)"))
        assert _counter(at)[1] <= k
        progress("AppTest: change k (new value)", i, len(new_k))

    # (a') k back and forth between two values already computed
    seen = (new_k[0], new_k[1])
    t_seen = []
    for i in range(repeats):
        k = seen[i % 2]
        t_seen.append(_timed(lambda: at.slider(key="k").set_value(k).run(),
                             "change k (cached value)"))
        progress("AppTest: change k (cached value)", i + 1, repeats)

    # (b) one Step click at the default k
    at.slider(key="k").set_value(k0).run()
    t_step = []
    for i in range(repeats):
        j, n_steps = _counter(at)
        if j == n_steps:
            at.button(key="skpca.reset_step").click().run()
        t_step.append(_timed(lambda: at.button(key="skpca.next").click().run(), "Step ▶ click"))
        assert _counter(at)[0] == min(j + 1, n_steps) or j == n_steps
        progress("AppTest: Step click", i + 1, repeats)
    return settings, {"change k (new value)": t_new, "change k (cached value)": t_seen,
                      "Step ▶ click": t_step}


# ---------------------------------------------------------------- browser (live server)


def bench_browser(repeats):
    from browser_util import CHROMIUM, VIEWPORT, StreamlitServer, launch_browser, wait_for_app

    if not Path(CHROMIUM).exists():
        return None
    from playwright.sync_api import sync_playwright

    out = {"change k (new value)": [], "Step ▶ click": []}
    with StreamlitServer() as server, sync_playwright() as p:
        browser = launch_browser(p)
        page = browser.new_page(viewport=VIEWPORT)
        page.set_default_timeout(120_000)
        page.goto(server.base + "/skpca")
        wait_for_app(page)
        text = page.get_by_text(STEP_RE)

        def shown():
            found = STEP_RE.search(text.first.inner_text())
            return int(found.group(1)), int(found.group(2))

        def wait_for(expected):
            page.wait_for_function(
                """([re, want]) => [...document.querySelectorAll('h3')]
                     .some(h => h.innerText.trim() === want)""",
                arg=[STEP_RE.pattern, f"Step {expected[0]} of {expected[1]}"], polling="raf")

        slider = page.get_by_role("slider", name=re.compile("Sparsity k"))
        for i in range(repeats):
            j, k = shown()
            slider.focus()
            t0 = time.perf_counter()
            slider.press("ArrowRight")
            wait_for((1, k + 1))
            out["change k (new value)"].append((time.perf_counter() - t0) * 1e3)
            wait_for_app(page)
            progress("browser: change k (new value)", i + 1, repeats)
        step = page.get_by_role("button", name=re.compile(r"^\s*Step\s*▶\s*$"))
        for i in range(repeats):
            j, k = shown()
            if j == k:
                page.get_by_role("button", name=re.compile("Reset$")).first.click()
                wait_for((1, k))
                wait_for_app(page)
                j = 1
            t0 = time.perf_counter()
            step.click()
            wait_for((j + 1, k))
            out["Step ▶ click"].append((time.perf_counter() - t0) * 1e3)
            wait_for_app(page)
            progress("browser: Step click", i + 1, repeats)
        browser.close()
    return out


# ---------------------------------------------------------------- report


def table(server, browser):
    rows = [f"| interaction | server side: AppTest rerun, median (ms) | min–max (ms) | "
            f"under {TARGET_MS:.0f} ms | CPU per rerun, median (ms) | "
            f"browser click → new view, median (ms) |",
            "| --- | ---: | ---: | :---: | ---: | ---: |"]
    for name, times in server.items():
        med = statistics.median(times)
        b = (browser or {}).get(name)
        rows.append(f"| {name} | {med:.0f} | {min(times):.0f}–{max(times):.0f} | "
                    f"{'yes' if med < TARGET_MS else 'NO'} | "
                    f"{statistics.median(CPU[name]):.0f} | "
                    f"{f'{statistics.median(b):.0f}' if b else 'n/a'} |")
    return "\n".join(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--no-browser", action="store_true")
    args = ap.parse_args()
    if args.repeats < 15:
        ap.error("use at least 15 repeats (medians on a shared 2-core machine)")

    import numpy
    import plotly
    import streamlit

    load_before = os.getloadavg()[0]
    settings, server = bench_apptest(args.repeats)
    browser = None if args.no_browser else bench_browser(args.repeats)
    head = (f"Sparse-KPCA page, default view ({settings['dataset']}, n = {settings['n']}, "
            f"k = {settings['k']}), {args.repeats} reruns each; "
            f"{platform.python_version()}, streamlit {streamlit.__version__}, "
            f"plotly {plotly.__version__}, numpy {numpy.__version__}, {os.cpu_count()} cores, "
            f"1-min load average {load_before:.1f} before / {os.getloadavg()[0]:.1f} after.")
    body = table(server, browser)
    note = ("Server side = AppTest.run() wall time (script run + AppTest parsing); CPU = "
            "process CPU time during that rerun (all threads; it barely changes when other "
            "jobs share the cores, unlike wall time). Browser = "
            "chromium click until the new 'Step j of k' heading is on screen, live server on "
            "loopback. 'new value' changes k to a value not computed before (cache miss); "
            "'cached value' toggles between two computed values.")
    if browser is None and not args.no_browser:
        note += " Browser column: /usr/bin/chromium not found."
    text = f"# Interaction latency\n\n{head}\n\n{body}\n\n{note}\n"
    print(text)
    RESULTS.write_text(text, encoding="utf-8")
    print(f"written to {RESULTS.relative_to(REPO_ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
