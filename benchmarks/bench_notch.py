"""Where a slider notch's time goes in the browser, per notch, in headless chromium.

For one slider of one page, moved one notch at a time, each notch timed as ``bench_pages.py``
times it (from the key press to the redrawn view: the run over, every chart drawn), and with it:

- **busy**: how long the page's main thread ran tasks between the key press and the drawn
  view (a devtools trace of the notch: the union of the renderer main thread's tasks);
- **last message**: when the page handled the run's last websocket message, after the key
  press (the time its ``message`` event ran, not when the bytes arrived: a busy main thread
  handles them late);
- **charts**: each of the app's charts, from its ``Plotly.react`` call to the promise it
  returns (in the order drawn).

The same for the peer in the same run: Streamlit alone with a slider and one small plotly
chart (``bench_pages.py``'s), and each median's ratio to the peer's.

``--cached`` moves the slider back and forth between two values, so that every value is
computed before the notches timed and what is left is the browser's part and Streamlit's
round trip; without it the slider moves one way, each value new, as a student explores.
Tracing adds work to the browser: compare a notch here with the peer's here, not with
``bench_pages.py``'s medians. On the eigenvalue page, n and the width, stepped one way, are
computed one notch ahead (the server has one visitor); ``MP_PREFETCH=0`` in the environment
measures them computed on request.

Usage::

    python benchmarks/bench_notch.py --page spectrum --slider "Top n" --cached
    python benchmarks/bench_notch.py --page kmp --slider "Number of points" --notches 8
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO_ROOT), str(REPO_ROOT / "tests"), str(Path(__file__).resolve().parent)]

from _progress import progress  # noqa: E402
from bench_pages import (  # noqa: E402
    _RUNS_JS,
    FLOOR_SLIDER,
    WINDOW,
    floor_server,
    press_notch,
    sidebar_sliders,
    slider_room,
)
from browser_util import (  # noqa: E402
    StreamlitServer,
    app_pages,
    launch_browser,
    wait_for_app,
    wait_for_charts,
)

#: Installed before the page loads: the time each websocket message was handled, and each
#: call of ``Plotly.react`` (the app's plotly.js, once it has loaded) to its promise, by chart.
_WATCH_JS = """() => {
  window.__mpWs = [];
  window.__mpReact = [];
  const Native = window.WebSocket;
  window.WebSocket = function (...args) {
    const ws = new Native(...args);
    ws.addEventListener('message', () => window.__mpWs.push(performance.now()));
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, Native);
  const hook = () => {
    if (!window.Plotly || !window.Plotly.react) { setTimeout(hook, 50); return; }
    const react = window.Plotly.react;
    window.Plotly.react = function (gd, ...rest) {
      const t0 = performance.now();
      const box = gd.closest && gd.closest('[class*="st-key-"]');
      const key = (box && (box.className.match(/st-key-([^ ]+)/) || [])[1]) || 'chart';
      const done = react.call(this, gd, ...rest);
      Promise.resolve(done).then(() => window.__mpReact.push([key, t0, performance.now()]));
      return done;
    };
  };
  hook();
}"""

_TRACE_CATEGORIES = ["devtools.timeline", "toplevel", "blink.user_timing"]


def _busy_ms(events: list[dict]) -> float:
    """Milliseconds the renderer's main thread ran tasks between the marks ``mp-key`` and
    ``mp-drawn`` (the union of its tasks' intervals: nested tasks counted once)."""
    marks = {e["name"]: e["ts"] for e in events if e.get("name") in ("mp-key", "mp-drawn")}
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    main = {k for k, v in names.items() if v == "CrRendererMain"}
    spans = sorted((e["ts"], e["ts"] + e.get("dur", 0)) for e in events
                   if (e["pid"], e["tid"]) in main and e.get("ph") == "X"
                   and e.get("name") in ("RunTask", "ThreadControllerImpl::RunTask")
                   and marks["mp-key"] <= e["ts"] <= marks["mp-drawn"])
    busy, end = 0.0, 0.0
    for a, b in spans:
        if b > end:
            busy += b - max(a, end)
            end = b
    return busy / 1000


def notches(browser, url: str, label: str | None, n: int, cached: bool, tick) -> list[dict]:
    """``n`` notches of the sidebar slider whose label starts with ``label`` (default: the
    first), each traced. Per notch: seconds to the redrawn view, busy [ms], the run's last
    message handled [ms after the key], and [(chart key, Plotly.react [ms])]."""
    context = browser.new_context(**WINDOW)
    try:
        pg = context.new_page()
        pg.add_init_script(f"({_RUNS_JS})()")
        pg.add_init_script(f"({_WATCH_JS})()")
        pg.goto(url)
        wait_for_app(pg, content="h1")
        wait_for_charts(pg)
        sliders = sidebar_sliders(pg)
        found = [t for lab, t in sliders if label is None or lab.startswith(label)]
        if not found:
            raise SystemExit(f"{url}: no sidebar slider whose label starts with {label!r}; "
                             f"the sliders: {[lab for lab, _ in sliders]}")
        thumb = found[0]
        room_up, room_down = slider_room(thumb)
        way, back = (("ArrowRight", "ArrowLeft") if room_up >= room_down
                     else ("ArrowLeft", "ArrowRight"))
        if not cached and max(room_up, room_down) < n + 2:
            raise SystemExit(f"{url}: the slider has {max(room_up, room_down)} notches to "
                             f"one end; ask for fewer than that less two, or --cached")
        out = []
        for i in range(n + 2):  # two notches first, untimed: the values, the code warm
            key = (way if i % 2 == 0 else back) if cached else way
            pg.evaluate("() => { window.__mpWs = []; window.__mpReact = []; }")
            timed = i >= 2

            def traced(timed=timed):
                if timed:
                    browser.start_tracing(page=pg, categories=_TRACE_CATEGORIES)
                pg.evaluate("() => performance.mark('mp-key')")

            seconds = press_notch(pg, thumb, key, traced)
            pg.evaluate("() => performance.mark('mp-drawn')")
            if timed:
                raw = browser.stop_tracing()
                trace = json.loads(raw)
                events = trace["traceEvents"] if isinstance(trace, dict) else trace
                key_at = pg.evaluate("() => window.__mpKeyAt")
                ws = pg.evaluate("() => window.__mpWs")
                react = pg.evaluate("() => window.__mpReact")
                out.append({"seconds": seconds, "busy": _busy_ms(events),
                            "last message": (max(ws) - key_at) if ws else float("nan"),
                            "charts": [(k, b - a) for k, a, b in sorted(react, key=lambda r: r[1])]})
                tick()
            wait_for_app(pg, content=None)
            time.sleep(0.3)  # the page settled before the next notch
        return out
    finally:
        context.close()


def _median(values) -> float:
    values = [v for v in values if v == v]
    return statistics.median(values) if values else float("nan")


def row(title: str, control: str, runs: list[dict], peer: float | None) -> str:
    """One line of the table (``peer``: the peer's median seconds, for the ratio)."""
    med = _median(r["seconds"] for r in runs)
    charts: dict[str, list[float]] = {}
    for r in runs:
        for k, ms in r["charts"]:
            charts.setdefault(k, []).append(ms)
    drawn = "; ".join(f"{k} {_median(v):.0f}" for k, v in charts.items()) or "-"
    ratio = f"{med / peer:.2f}" if peer else "1.00"
    return (f"| {title} | {control} | {len(runs)} | {med:.3f} | "
            f"{min(r['seconds'] for r in runs):.3f} to {max(r['seconds'] for r in runs):.3f} | "
            f"{_median(r['busy'] for r in runs):.0f} | "
            f"{_median(r['last message'] for r in runs):.0f} | {drawn} | {ratio} |")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--page", required=True, help="the page's url path (e.g. spectrum, kmp)")
    parser.add_argument("--slider", default=None,
                        help="the start of the slider's label (default: the sidebar's first)")
    parser.add_argument("--notches", type=int, default=8, help="notches timed (default 8)")
    parser.add_argument("--cached", action="store_true",
                        help="back and forth between two values (every value cached)")
    parser.add_argument("--root", type=Path, default=REPO_ROOT,
                        help="checkout to serve (default: this one)")
    args = parser.parse_args(argv)
    if args.notches < 1:
        parser.error("--notches must be at least 1")
    root = args.root.resolve()
    page = [p for p in app_pages(root / "app.py") if p.url_path == args.page]
    if not page:
        parser.error(f"no page at {args.page!r}; the pages: "
                     f"{[p.url_path for p in app_pages(root / 'app.py')]}")

    from playwright.sync_api import sync_playwright

    done = [0]
    total = 2 * args.notches

    def tick():
        done[0] += 1
        progress(done[0], total, "notches")

    with tempfile.TemporaryDirectory() as tmp:
        server, floor = StreamlitServer(cwd=root).start(), floor_server(Path(tmp), root)
        try:
            with sync_playwright() as pw:
                browser = launch_browser(pw)
                peer = notches(browser, FLOOR_SLIDER[1](floor.base), None, args.notches,
                               args.cached, tick)
                ours = notches(browser, f"{server.base}/{args.page}", args.slider,
                               args.notches, args.cached, tick)
                browser.close()
        finally:
            server.stop()
            floor.stop()
    mode = ("back and forth between two values, every value cached" if args.cached
            else "one way, each value new")
    peer_med = _median(r["seconds"] for r in peer)
    lines = [f"Slider notches, {mode}; each traced (devtools), 1280x720; "
             f"{time.strftime('%Y-%m-%d %H:%M')}, 1-min load average "
             f"{os.getloadavg()[0]:.1f} at the end.", "",
             "| page | slider | notches | to the redrawn view: median [s] | min to max [s] "
             "| main thread busy: median [ms] | last message handled: median [ms after the "
             "key] | each chart's Plotly.react to its promise: median [ms] | median / the "
             "peer's |",
             "|---|---|---:|---:|---:|---:|---:|---|---:|",
             row(FLOOR_SLIDER[0], "slider", peer, None),
             row(page[0].title, args.slider or "the first", ours, peer_med)]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
