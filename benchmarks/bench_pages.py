"""Time from navigation to every chart drawn, per page, in headless chromium; bytes per load.

Starts ``streamlit run app.py`` on a free loopback port, visits every page once
to warm the server's caches, then opens each page ``--repeats`` times in a fresh
browser context (a new student: new session, empty browser cache) and records

- **drawn**: from the start of navigation (``performance.timeOrigin``) until
  the script run is over and every visible plotly chart has mounted its SVG,
  checked on every animation frame, and still so after the page is stable
  (the browser tests' ``wait_for_app`` condition);
- **app bytes**: bytes of the websocket messages the server sent (the page's
  elements and figures: what the Python side costs per student);
- **total bytes**: every HTTP response body plus the websocket bytes
  (JavaScript and fonts included: a first visit on an empty cache);
- **figures**: number of plotly charts and the size of the largest one's
  JSON (data, layout and animation frames) as the browser holds it.

Then ``--repeats`` repeat visits in one browser (after its first visit: cache and
compiled code warm, as for a student opening the next page), and, in one more
context per page, the time from a control change to what it changes:

- **Step ▶** is answered in the browser (the timeline component of
  ``pages/common/timeline.py`` moves the counter and the figure at once, then
  tells the server), so a click gives two times, both from the click event:
  **view**, until the counter says ``Step j of n`` for the new step *and* the
  figure has drawn that frame (its slider and current frame on step j, no
  animation under way, not hidden), taken at the first animation frame at which
  both hold (the frame that paints it); and **server**, until the page's answer
  has arrived (the timeline has the click's step number back) and every chart is
  drawn;
- **slider**: the sidebar's first slider moved one notch from the keyboard, every notch
  the same way (up, or down when there is no room above for every notch: a slider that
  starts at its maximum), so every value is new and the run computes it, timed from the
  key press (its keydown event in the page) until the next script run is
  over and every chart is drawn (a run is over when the app's "running" state ends, or,
  for a run so short that state is never drawn, when the app is not running and every
  chart is a new one).

The peer, measured first in the same run and browser: Streamlit alone, with this
repository's config, drawing a title, and a title and one small plotly chart, at the root
address and at a page's own address (as every page here but Home is reached); each page's
first-visit median is also given as a ratio to the chart at the root address. For control
changes the peer is Streamlit alone with a slider in its sidebar and one small plotly chart of
that many points: a notch is one script run and one new figure, timed as the pages' sliders
are; every control change is also given as a ratio to its median. On a shared machine the
hour changes within a run (a page's notches slower in one run than the next), so the
peer's notch is measured again just before each page's controls, and each control change is
also given as a ratio to that one, with the load average as it started.

Targets: median drawn < 2.5 s; control change median < 0.3 s, p95 < 1 s.
Medians over the repeats; run on a quiet machine::

    python benchmarks/bench_pages.py [--repeats 5] [--pages skpca,kmp] [--out FILE]
    python benchmarks/bench_pages.py --every-slider --pages spectrum [--repeats 1]
    python benchmarks/bench_pages.py --phone [--pages kmp]
    python benchmarks/bench_pages.py --spectrum-datasets [--repeats 3]

``--every-slider`` moves each slider of a page's sidebar in turn (``--interactions``
notches each, from where the one before left the page), not only the first.

``--phone`` opens every page as a phone held upright (390x844, a phone's User-Agent).

``--navigate`` times what a student does between pages instead: in one browser tab, Home
first, then each page in the sidebar's order by a click on its link (Streamlit switches
pages in the same document: no new page load), from the click until the new page's run is
over and every chart is drawn; ``--repeats`` tabs, each a fresh context. The first chart
page of a tab also loads plotly.js; the ones after it find it loaded.

``--spectrum-datasets`` times the eigenvalue page on every bundled data set instead
(target: under 3 s, the first visit of a data set included). With ``--hall`` it does so
through the lecture deployment (``deploy/serve.py``: HAProxy in front of two Streamlit
processes, each warmed up before the balancer opens), as a student in the hall meets it::

    python benchmarks/bench_pages.py --spectrum-datasets --hall
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO_ROOT), str(REPO_ROOT / "tests")]

from browser_util import (  # noqa: E402
    StreamlitServer,
    app_pages,
    consecutive_free_ports,
    free_port,
    launch_browser,
)
# this script's folder (benchmarks/): its progress line, the page measures and the peer
from _progress import progress  # noqa: E402
from _page_peer import FLOOR_SLIDER, FLOORS, PeerBeside, floor_server  # noqa: E402
from _page_visits import (  # noqa: E402
    PHONE,
    WINDOW,
    interactions,
    load_once,
    navigate,
    spectrum_datasets,
    visits,
)

TARGET_S = 2.5


def spectrum_table(result) -> str:
    rows, warm = result
    first = ("first visit (computed by the warm-up) [s]" if warm
             else "first visit, data set not yet computed [s]")
    lines = [f"| data set | {first} | later visits: median [s] "
             "| under 3 s (first / later) |", "|---|---:|---:|:---:|"]
    for name, first, later in rows:
        med = statistics.median(later)
        lines.append(f"| {name} | {first:.2f} | {med:.2f} | {'yes' if first < 3 else 'no'} / "
                     f"{'yes' if med < 3 else 'no'} |")
    return "\n".join(lines)


#: Control changes per control by default: enough that p95 is not simply the slowest one
#: (the second slowest of 20).
P95_SAMPLES = 20


def _p95_rank(n: int) -> int:
    """Which slowest of ``n`` times is their p95 (1: the slowest): the nearest rank."""
    return max(1, n - round(0.95 * (n - 1)))


def _ordinal(k: int) -> str:
    return {2: "second", 3: "third"}.get(k, f"{k}th")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--pages", default="", help="comma-separated page names (default: all)")
    parser.add_argument("--interactions", type=int, default=P95_SAMPLES,
                        help="control changes per page and control (0: page loads only; "
                             f"under {P95_SAMPLES} the p95 column is the slowest change)")
    parser.add_argument("--root", type=Path, default=REPO_ROOT,
                        help="checkout to serve (default: this one); e.g. an older commit's "
                             "`git worktree` for a before/after comparison")
    parser.add_argument("--out", type=Path, default=None, help="also write the table here")
    parser.add_argument("--every-slider", action="store_true",
                        help="move every slider of each page's sidebar in turn, not only "
                             "the first (the page loads are timed as usual)")
    parser.add_argument("--phone", action="store_true",
                        help="a phone held upright (390x844, a phone's User-Agent) instead "
                             "of a 1280x720 window; page loads only (a phone's sidebar, "
                             "with the slider, is closed)")
    parser.add_argument("--spectrum-datasets", action="store_true",
                        help="only the eigenvalue page, once per bundled data set (a fresh "
                             "server: the first visit of each data set computes it)")
    parser.add_argument("--navigate", action="store_true",
                        help="instead: from Home, each page in turn by a click on its sidebar "
                             "link, in one tab (--repeats tabs)")
    parser.add_argument("--hall", action="store_true",
                        help="with --spectrum-datasets: through deploy/serve.py's hall (two "
                             "warmed-up processes behind HAProxy) instead of a fresh server")
    args = parser.parse_args(argv)
    if args.phone:
        WINDOW.clear()
        WINDOW.update(PHONE)
        args.interactions = 0
    size = "{width}x{height}".format(**WINDOW["viewport"])
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    pages = app_pages(args.root.resolve() / "app.py")
    if args.pages:
        wanted = set(args.pages.split(","))
        unknown = wanted - {p.name for p in pages}
        if unknown:
            parser.error(f"unknown page(s) {sorted(unknown)}; choose from "
                         f"{[p.name for p in pages]}")
        pages = [p for p in pages if p.name in wanted]

    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()[0]
    if args.navigate:
        chart_pages = [p for p in pages if not p.default]
        server = StreamlitServer(cwd=args.root.resolve()).start()
        try:
            with sync_playwright() as pw:
                browser = launch_browser(pw)
                navigate(browser, server.base, chart_pages, 1)  # the server's caches warm
                times = navigate(browser, server.base, chart_pages, args.repeats)
                browser.close()
        finally:
            server.stop()
        lines = [f"From Home, each page in turn by its sidebar link, in one tab; {size}, "
                 f"{args.repeats} tabs; {os.cpu_count()} cores, 1-min load average "
                 f"{load_before:.1f} before / {os.getloadavg()[0]:.1f} after; "
                 f"{time.strftime('%Y-%m-%d %H:%M')}.", "",
                 "| page (in the order visited) | click to drawn: median [s] | min to max [s] "
                 "| under 2.5 s |", "|---|---:|---:|:---:|"]
        for p in chart_pages:
            t = times[p.name]
            med = statistics.median(t)
            lines.append(f"| {p.title} | {med:.2f} | {min(t):.2f} to {max(t):.2f} | "
                         f"{'yes' if med < TARGET_S else 'no'} |")
        table = "\n".join(lines)
        print(table)
        if args.out:
            args.out.write_text("# Page to page\n\n" + table + "\n", encoding="utf-8")
        return 0
    if args.spectrum_datasets:
        with contextlib.ExitStack() as stack:
            if args.hall:
                sys.path.insert(0, str(args.root.resolve() / "deploy"))
                from serve import Hall

                hall = stack.enter_context(Hall(
                    2, port=free_port(), first_port=consecutive_free_ports(2), bind="127.0.0.1",
                    warm=True, progress=progress))
                base, where = hall.url, ("through deploy/serve.py's hall (2 processes behind "
                                         f"HAProxy, warmed up in {hall.warm_seconds:.0f} s)")
            else:
                server = StreamlitServer(cwd=args.root.resolve()).start()
                stack.callback(server.stop)
                base, where = server.base, "a fresh server"
            with sync_playwright() as pw:
                browser = launch_browser(pw)
                load_once(browser, base + "/")  # the server's start, not a data set
                rows = spectrum_datasets(browser, base, args.repeats, warm=args.hall)
                browser.close()
        table = (f"Eigenvalue page per data set, {where}, {size}, {args.repeats} later visits each; "
                 f"{os.cpu_count()} cores, 1-min load average {load_before:.1f} before / "
                 f"{os.getloadavg()[0]:.1f} after; {time.strftime('%Y-%m-%d %H:%M')}.\n\n"
                 + spectrum_table(rows))
        print(table)
        if args.out:
            args.out.write_text("# Eigenvalue page per data set\n\n" + table + "\n",
                                encoding="utf-8")
        return 0
    rows, floors, floor_inter = [], [], {}
    server = StreamlitServer(cwd=args.root.resolve()).start()
    try:
        with sync_playwright() as pw:
            browser = launch_browser(pw)
            total = (len(pages) + len(FLOORS)) * (args.repeats + 1)  # loads; interactions follow
            done = 0

            def tick(name: str):
                nonlocal done
                done += 1
                progress(done, total, name)

            # the peer first: Streamlit alone (a title; a title and one chart), same browser
            with tempfile.TemporaryDirectory() as tmp:
                floor = floor_server(Path(tmp), args.root.resolve())
                try:
                    for p in FLOORS:
                        # a fresh server: one more warm-up load (its script compiled)
                        load_once(browser, p.url(floor.base))
                        runs, again = visits(browser, p.url(floor.base), args.repeats,
                                             lambda: tick(p.name))
                        floors.append((p, runs, again, {}))
                    if args.interactions:  # the peer of a slider notch
                        floor_inter = interactions(browser, FLOOR_SLIDER[1](floor.base),
                                                   args.interactions)
                    for p in pages:
                        url = p.url(server.base)
                        runs, again = visits(browser, url, args.repeats, lambda: tick(p.name))
                        inter, beside = {}, None
                        if args.interactions:
                            # the peer's notch again, just before this page's: on a shared
                            # machine the hour changes within a run, and a page's ratio is
                            # to the peer measured beside it
                            beside = PeerBeside(
                                os.getloadavg()[0], statistics.median(interactions(
                                    browser, FLOOR_SLIDER[1](floor.base),
                                    args.interactions)[("slider", "server")]))
                            inter = interactions(browser, url, args.interactions,
                                                 args.every_slider)
                        rows.append((p, runs, again, inter, beside))
                finally:
                    floor.stop()
            browser.close()
    finally:
        server.stop()
    load_after = os.getloadavg()[0]

    import plotly
    import streamlit

    lines = [
        "| page | first visit: drawn, median [s] | min to max [s] | repeat visit: median [s] "
        "| first visit / Streamlit alone with one chart "
        "| under 2.5 s (first / repeat) | app bytes (websocket) "
        "| total bytes, empty cache | charts | largest figure [kB] | errors |",
        "|---|---:|---:|---:|---:|:---:|---:|---:|---:|---:|---:|",
    ]
    peer = statistics.median(r["drawn"] for p, runs, _, _ in floors
                             if p.name == "floor-chart" for r in runs)
    for p, runs, again, *_ in floors + rows:
        drawn = [r["drawn"] for r in runs]
        med = statistics.median(drawn)
        med2 = statistics.median(again)
        figs = runs[-1]["figures"]
        lines.append(
            f"| {p.title} | {med:.2f} | {min(drawn):.2f} to {max(drawn):.2f} | {med2:.2f} | "
            f"{med / peer:.2f} | "
            f"{'yes' if med < TARGET_S else 'no'} / {'yes' if med2 < TARGET_S else 'no'} | "
            f"{statistics.median(r['app_bytes'] for r in runs) / 1e3:,.0f} kB | "
            f"{statistics.median(r['total_bytes'] for r in runs) / 1e6:,.1f} MB | "
            f"{len(figs)} | {(figs[0] / 1e3 if figs else 0):,.0f} | "
            f"{sum(r['errors'] for r in runs)} |")
    header = (f"{args.root.resolve().name}: "
              f"{args.repeats} fresh-context loads per page after one warm-up, {size}"
              f"{' (a phone: its User-Agent)' if args.phone else ''}; "
              f"Python {platform.python_version()}, streamlit {streamlit.__version__}, "
              f"plotly {plotly.__version__}, {os.cpu_count()} cores, 1-min load average "
              f"{load_before:.1f} before / {load_after:.1f} after; "
              f"{time.strftime('%Y-%m-%d %H:%M')}.")
    if args.interactions:
        rank = _p95_rank(args.interactions)
        p95_is = f"the {_ordinal(rank)} slowest of them" if rank > 1 else "the slowest of them"
        lines += ["", f"Control changes ({args.interactions} per control, after the page "
                  f"settled; p95 is {p95_is}; "
                  + ("each slider of the sidebar in turn" if args.every_slider
                     else "the slider is the sidebar's first")
                  + ", moved one notch, timed from the key press). Step ▶ is "
                  "answered in the browser: *view* is the click to the counter and the figure "
                  "on the new step (drawn), *server* the click to the page's answer, with every "
                  "chart drawn:", "",
                  "| page | control | until | median [s] | p95 [s] "
                  "| median / Streamlit alone's notch | median / the peer's notch just "
                  "before the page's | under 0.3 s / 1 s |",
                  "|---|---|---|---:|---:|---:|---:|:---:|"]
        peer_notch = statistics.median(floor_inter[("slider", "server")])
        first = PeerBeside(load_before, peer_notch)
        for title, inter, beside in [(FLOOR_SLIDER[0], floor_inter, first)] + [
                (p.title, inter, beside) for p, _, _, inter, beside in rows]:
            for (control, until), times in inter.items():
                med = statistics.median(times)
                p95 = sorted(times)[len(times) - _p95_rank(len(times))]
                label = {"step": "Step ▶"}.get(control, control)
                what = {"view": "view: counter and figure",
                        "server": "server: run over, charts drawn"}[until]
                lines.append(f"| {title} | {label} | {what} | {med:.3f} | {p95:.3f} | "
                             f"{med / peer_notch:.2f} | {med / beside.notch:.2f} | "
                             f"{'yes' if med < 0.3 else 'no'} / {'yes' if p95 < 1 else 'no'} |")
        lines += ["", "The peer's notch just before each page's controls (median of "
                  f"{args.interactions}), and the 1-min load average then: "
                  + "; ".join(f"{p.title} {b.notch:.3f} s (load {b.load:.1f})"
                              for p, _, _, _, b in rows) + "."]
    table = header + "\n\n" + "\n".join(lines)
    print(table)
    if args.out:
        args.out.write_text("# Page draw times\n\n" + table + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
