"""Frame rate of client-side playback (▶ Play) on every animated page, in a real browser.

Starts ``streamlit run app.py`` on a free loopback port and drives Debian's chromium
through playwright (no browser download). For each animated page (sparse KPCA, kernel
matching pursuit, KCCA) at its default play speed and at its fastest, it presses Play
on the page's figure several times, each time from the first frame, and counts the
distinct frames the figure draws in a fixed wall-clock window:

    frames/s = (distinct frames drawn in (t0, t0 + W]) / W

where t0 is when the first frame is drawn and the window W is fixed before playing:
0.9 x (frames - 1) / (the speed setting): plotly waits at least one frame interval
between frames, so the animation cannot end inside the window (W > 0 always; no division
by a measured span). Frames are logged inside the page with its own clock
(``performance.now()``), so the time playwright takes to ask does not count. The median
over the windows at the default speed is compared with the target: Play keeps it (at
least 0.9 of the setting). The fastest setting is measured for the record, with no target:
how fast the browser can draw the frames depends on the machine.

Run from the repository root (needs ``apt-get install chromium`` and requirements-dev.txt)::

    python benchmarks/bench_play.py [--windows 5] [--pages skpca,kmp,kcca] [--out F]

Prints one progress line per measured window and a Markdown table at the end. The
frame rate depends on the machine and on whatever else runs on it (the load average
is printed with the table); the tests only check that playback is client-side.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO_ROOT), str(REPO_ROOT / "tests")]

from browser_play import (  # noqa: E402  (after the path set-up)
    animated_graphs,
    animation_log,
    animation_state,
    play_button,
    record_animation,
    wait_for_stop,
)
from browser_util import (  # noqa: E402
    CHROMIUM,
    VIEWPORT,
    StreamlitServer,
    app_pages,
    launch_browser,
    wait_for_app,
    wait_for_charts,
)

#: Share of the default speed setting Play must keep: the default is slow enough for a
#: student to pause on a step, so drawing it slower than set is what would show.
KEEP_SHARE = 0.9
#: Animated pages and the fastest setting of their "Play speed (frames/s)" control.
FASTEST = {"skpca": 12, "kmp": 12, "kcca": 12}
#: Share of the shortest possible playing time that the counting window covers.
WINDOW_SHARE = 0.9


def frames_per_second(frames, window_ms):
    """Distinct frames drawn after the first one within ``window_ms`` of it, per second.

    ``frames`` is the page's log: [time in ms, frame name] of every frame drawn.
    """
    if window_ms <= 0:
        raise ValueError("the counting window must be positive")
    if not frames:
        return 0.0, 0
    t0 = frames[0][0]
    counted = {name for t, name in frames[1:] if t0 < t <= t0 + window_ms}
    return len(counted) / (window_ms / 1000.0), len(counted)


def target(which, setting):
    """The frames/s a row must reach: ``KEEP_SHARE`` of the setting at the default speed;
    None (no target, a record) at the fastest."""
    if which == "default":
        return KEEP_SHARE * setting
    if which == "fastest":
        return None
    raise ValueError(f"which must be 'default' or 'fastest', got {which!r}")


def measure(page, base, url_path, speed, windows, label):
    """Open the page at ``speed`` (None: its default) and time ``windows`` plays."""
    page_obj = next(p for p in app_pages() if p.url_path == url_path)
    query = "" if speed is None else f"{url_path}.speed={speed}"
    page.goto(page_obj.url(base, query))
    wait_for_app(page)
    wait_for_charts(page)
    graphs = animated_graphs(page)
    if not graphs:
        raise RuntimeError(f"{url_path}: no figure with a Play button")
    g = graphs[0]
    play_button(page, g).wait_for()
    state = animation_state(page, g)
    names, setting = state["frames"], 1000.0 / state["frame_ms"]
    if len(names) < 3:
        raise RuntimeError(f"{url_path}: {len(names)} frames are too few to measure")
    window_ms = WINDOW_SHARE * (len(names) - 1) * state["frame_ms"]
    rates = []
    for w in range(windows):
        record_animation(page, g)
        play_button(page, g).click()
        wait_for_stop(page)
        log = animation_log(page)
        fps, counted = frames_per_second(log["frames"], window_ms)
        drawn = [name for _, name in log["frames"]]
        if drawn != names:
            raise RuntimeError(f"{url_path}: Play drew {drawn}, expected {names}")
        rates.append(fps)
        print(f"{label}: window {w + 1}/{windows}: {fps:.2f} frames/s "
              f"({counted} frames in {window_ms / 1000:.2f} s)", file=sys.stderr, flush=True)
        wait_for_app(page, content=None)  # the page may store the last step (a rerun)
    return dict(frames=len(names), setting=setting, window_s=window_ms / 1000, rates=rates)


def table(results):
    rows = ["| page | speed setting (frames/s) | frames | window (s) | median frames/s | "
            "min–max | target | met |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | :---: |"]
    for (url_path, which), r in results.items():
        med, goal = statistics.median(r["rates"]), target(which, r["setting"])
        rows.append(f"| {url_path} | {r['setting']:.0f} ({which}) | {r['frames']} | "
                    f"{r['window_s']:.2f} | {med:.2f} | {min(r['rates']):.2f}–"
                    f"{max(r['rates']):.2f} | "
                    + ("none | |" if goal is None else
                       f"{goal:.2f} | {'yes' if med >= goal else 'NO'} |"))
    return "\n".join(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--windows", type=int, default=5, help="plays measured per page and setting")
    ap.add_argument("--pages", default=",".join(FASTEST),
                    help="comma-separated animated pages (default: %(default)s)")
    ap.add_argument("--out", type=Path, default=None, help="also write the table here")
    args = ap.parse_args()
    pages = [p.strip() for p in args.pages.split(",") if p.strip()]
    unknown = [p for p in pages if p not in FASTEST]
    if unknown:
        ap.error(f"not an animated page: {', '.join(unknown)} (choose from {', '.join(FASTEST)})")
    if args.windows < 1:
        ap.error("--windows must be at least 1")
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} not found: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    os.chdir(REPO_ROOT)
    load_before = os.getloadavg()
    results = {}
    with StreamlitServer() as server, sync_playwright() as p:
        browser = launch_browser(p)
        try:
            for url_path in pages:
                for which, speed in (("default", None), ("fastest", FASTEST[url_path])):
                    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
                    page = context.new_page()
                    page.set_default_timeout(120_000)
                    try:
                        results[url_path, which] = measure(
                            page, server.base, url_path, speed, args.windows,
                            f"{url_path}, {which} speed")
                    finally:
                        context.close()
        finally:
            browser.close()
    load_after = os.getloadavg()
    report = (f"Play frame rate in chromium, median of {args.windows} windows per row; "
              f"target: {KEEP_SHARE:g} of the default speed (the fastest setting for the "
              f"record). {os.cpu_count()} cores, Python {platform.python_version()}, load "
              f"average {load_before[0]:.2f} before and {load_after[0]:.2f} after "
              f"({time.strftime('%Y-%m-%d %H:%M')}).\n\n{table(results)}\n")
    print("\n" + report)
    if args.out is not None:
        args.out.write_text("# ▶ Play frame rate\n\nThe latest run of `python "
                            "benchmarks/bench_play.py`. Earlier runs are in git history.\n\n"
                            + report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
