"""The page benchmark's measures in the browser (bench_pages.py reports them): a visit
timed to every chart drawn with its bytes, repeat visits, Step clicks and slider notches timed
to the redrawn view, the eigenvalue page per data set, and page-to-page navigation.

Every time is taken inside the page, with its own clock, by the probes of _page_probes.py.
"""

from __future__ import annotations

import json
import sys

from browser_util import PHONE_USER_AGENT, wait_for_app, wait_for_charts
from _progress import progress
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from _page_probes import (
    ARM_KEY_JS,
    ARM_STEP_JS,
    DRAWN_JS,
    FIGURES_JS,
    MARK_CHARTS_JS,
    NAVIGATED_JS,
    RUNS_JS,
    SIDEBAR_SLIDERS,
    SLIDER_ANSWERED_JS,
    STUCK_JS,
    TIMELINE_JS,
)

#: The browser window and User-Agent of every context: a projector (1280x720), or with
#: ``--phone`` a phone held upright (390x844) that says so in its User-Agent, as a
#: student's phone does (the app then lays the page out for a phone from the first run).
WINDOW = {"viewport": {"width": 1280, "height": 720}}
PHONE = {"viewport": {"width": 390, "height": 844}, "user_agent": PHONE_USER_AGENT}

#: The controls changed: Step, and the sidebar's first slider moved one notch from the
#: keyboard (Streamlit's sliders are <input type="range">, ARIA role slider).
_CONTROLS = ("step", "slider")


def _control(pg, control: str):
    if control == "step":
        return pg.get_by_role("button", name="Step ▶").first
    return pg.locator('[data-testid="stSidebar"]').get_by_role("slider").first


#: How long the benchmark waits for a page drawn or a control answered before it gives up.
WAIT_TIMEOUT_MS = 120_000


def _drawn_after(pg, answered: str, arg=None) -> float:
    """performance.now() [ms] of the first animation frame, once ``answered`` (a function
    evaluated in the page) holds, at which every chart is drawn."""
    pg.wait_for_function(answered, arg=arg, polling="raf", timeout=WAIT_TIMEOUT_MS)
    pg.evaluate("() => { window.__mpDrawn = null; }")
    pg.wait_for_function(DRAWN_JS, polling="raf", timeout=WAIT_TIMEOUT_MS)
    return pg.evaluate("() => window.__mpDrawn")


def visits(browser, url: str, repeats: int, tick) -> tuple[list[dict], list[float]]:
    """One warm-up load (the server's caches, not the browser's), ``repeats`` fresh-context
    loads, then ``repeats`` repeat visits in one browser; ``tick()`` after each load."""
    load_once(browser, url)
    tick()
    runs = []
    for _ in range(repeats):
        runs.append(load_once(browser, url))
        tick()
    return runs, repeat_visits(browser, url, repeats)


def sidebar_sliders(pg) -> list[tuple[str, object]]:
    """(label, thumb) of every slider in the sidebar, in the page's order."""
    out = []
    boxes = pg.locator(SIDEBAR_SLIDERS)
    for i in range(boxes.count()):
        box = boxes.nth(i)
        label = box.locator('[data-testid="stWidgetLabel"]').first.inner_text().strip()
        out.append((label, box.get_by_role("slider").first))
    return out


def interact_slider(pg, n: int, loc=None) -> list[float]:
    """Seconds from the key press of a notch of slider ``loc`` (default the sidebar's first)
    to the redrawn view (run over, every chart drawn)."""
    out = []
    loc = _control(pg, "slider") if loc is None else loc
    # one way for every notch, so each value is one not seen before and the run computes
    # it, as when a student explores (turning back at the maximum would ask for the values
    # already computed, cached from then on)
    # (a slider with fewer than n notches to either end, such as a select slider of six
    # speeds, is moved as far as it goes the roomier way)
    room_up, room_down = slider_room(loc)
    key = "ArrowRight" if room_up >= n or room_up >= room_down else "ArrowLeft"
    for _ in range(min(n, max(room_up, room_down))):
        out.append(press_notch(pg, loc, key))
        wait_for_app(pg, content=None)  # nothing else arrives before the next change
    return out


def slider_room(loc) -> tuple[int, int]:
    """Notches from slider ``loc``'s value to its maximum and to its minimum."""
    return tuple(loc.evaluate(
        "(e) => [Number(e.max) - Number(e.value), Number(e.value) - Number(e.min)]"
        ".map(d => Math.round(d / Number(e.step || 1)))"))


def press_notch(pg, loc, key: str, before_press=None) -> float:
    """Seconds from pressing ``key`` on slider ``loc`` to the redrawn view (run over, every
    chart drawn); ``before_press()`` (optional) runs just before the key press."""
    before = pg.evaluate("() => window.__mpRuns")
    pg.evaluate(MARK_CHARTS_JS)
    pg.evaluate(ARM_KEY_JS)
    loc.focus()
    if before_press is not None:
        before_press()
    loc.press(key)
    drawn = _drawn_after(pg, SLIDER_ANSWERED_JS, [before])
    return (drawn - pg.evaluate("() => window.__mpKeyAt")) / 1000


def interact_step(pg, n: int) -> dict[str, list[float]]:
    """Seconds from a Step click to the view on the new step (counter and figure, drawn in
    the browser) and to the server's answer (its run over, every chart drawn)."""
    out = {"view": [], "server": []}
    loc = _control(pg, "step")
    if pg.evaluate(TIMELINE_JS) is None:
        raise RuntimeError(f"{pg.url}: a Step button without the timeline's counter")
    for _ in range(n):
        j, n_steps = pg.evaluate(TIMELINE_JS)
        if j >= n_steps:  # at the last step: back to the first (not timed), then Step
            # Reset is answered in the browser, like Step: wait for the counter, then for
            # the page's answer (the timeline has its number back), every chart drawn
            pg.get_by_role("button", name="⟲ Reset").first.click()
            at_first = f"() => {{ const t = ({TIMELINE_JS})(); return !!t && t[0] === 1; }}"
            pg.wait_for_function(at_first, polling="raf", timeout=WAIT_TIMEOUT_MS)
            _drawn_after(pg, "() => window.__mpTimeline.ack >= window.__mpTimeline.seq")
            wait_for_app(pg, content=None)
            j, n_steps = pg.evaluate(TIMELINE_JS)
        pg.evaluate(ARM_STEP_JS, [j + 1, n_steps])
        loc.click()
        pg.wait_for_function("() => window.__mpView !== null", polling="raf",
                             timeout=WAIT_TIMEOUT_MS)
        out["view"].append(pg.evaluate("() => window.__mpView") / 1000)
        # the run's answer: the timeline has the number of the click's step back (a run
        # that only confirms the step the browser shows may be over before the app's
        # "running" state is ever drawn, so runs are not counted here), every chart drawn
        drawn = _drawn_after(pg, "() => window.__mpTimeline.ack >= window.__mpTimeline.seq")
        out["server"].append((drawn - pg.evaluate("() => window.__mpClickAt")) / 1000)
        wait_for_app(pg, content=None)  # nothing else arrives before the next change
    return out


def interactions(browser, url: str, n: int, every_slider: bool = False) -> dict:
    """(control, until) -> seconds: ("step", "view"), ("step", "server"), ("slider", "server")
    for the controls the page shows; with ``every_slider``, ("slider: <label>", "server")
    for each slider of the sidebar in turn, from the state the one before left."""
    context = browser.new_context(**WINDOW)
    try:
        pg = context.new_page()
        errors = []  # the page's uncaught exceptions and console errors, for a notch lost
        pg.on("pageerror", lambda exc: errors.append(str(exc)[:300]))
        pg.on("console", lambda msg: errors.append(msg.text[:300]) if msg.type == "error" else None)
        pg.add_init_script(f"({RUNS_JS})()")
        pg.goto(url)
        wait_for_app(pg, content="h1")
        wait_for_charts(pg)
        res = {}
        for control in _CONTROLS:
            loc = _control(pg, control)
            if not (loc.count() and loc.is_visible()):
                continue
            if control == "step":
                for until, times in interact_step(pg, n).items():
                    res[(control, until)] = times
            elif every_slider:
                for label, thumb in sidebar_sliders(pg):
                    try:
                        times = interact_slider(pg, n, thumb)
                    except PlaywrightTimeout:
                        print(f"\n{url}: slider {label!r}: a notch not answered within "
                              f"{WAIT_TIMEOUT_MS / 1000:.0f} s; left out. The page then: "
                              f"{json.dumps(pg.evaluate(STUCK_JS), ensure_ascii=False)}; "
                              f"its errors: {errors or 'none'}", file=sys.stderr)
                        wait_for_app(pg, content=None)
                        continue
                    if times:  # none for a slider without a notch to move
                        res[(f"slider: {label}", "server")] = times
            else:
                res[(control, "server")] = interact_slider(pg, n)
        return res
    finally:
        context.close()


def load_once(browser, url: str, context=None) -> dict:
    """One visit; in a fresh context (first visit: empty cache, new session) unless
    ``context`` is given (a repeat visit: the browser's cache and compiled code warm)."""
    own = context is None
    context = context or browser.new_context(**WINDOW)
    try:
        pg = context.new_page()
        ws_bytes = [0]
        http_bytes = [0]
        pg.on("websocket", lambda ws: ws.on(
            "framereceived", lambda payload: ws_bytes.__setitem__(
                0, ws_bytes[0] + len(payload))))

        def on_response(response):
            try:
                http_bytes[0] += len(response.body())
            except Exception:  # redirects, aborted requests
                pass

        pg.on("requestfinished", lambda request: on_response(request.response()))
        pg.goto(url)
        pg.wait_for_function(DRAWN_JS, polling="raf", timeout=WAIT_TIMEOUT_MS)
        # then stable (nothing else arrives), checked by the tests' own condition
        wait_for_app(pg, content="h1")
        wait_for_charts(pg)
        pg.wait_for_function(DRAWN_JS, polling="raf", timeout=WAIT_TIMEOUT_MS)
        drawn_ms = pg.evaluate("() => window.__mpDrawn")
        figures = pg.evaluate(FIGURES_JS)
        errors = pg.locator('[data-testid="stException"]').count()
        return {"drawn": drawn_ms / 1000, "app_bytes": ws_bytes[0],
                "total_bytes": ws_bytes[0] + http_bytes[0], "figures": figures,
                "errors": errors}
    finally:
        if own:
            context.close()
        else:
            pg.close()


def repeat_visits(browser, url: str, n: int) -> list[float]:
    """Seconds to draw on ``n`` repeat visits in one browser (after one first visit)."""
    context = browser.new_context(**WINDOW)
    try:
        load_once(browser, url, context)
        return [load_once(browser, url, context)["drawn"] for _ in range(n)]
    finally:
        context.close()


def spectrum_datasets(browser, base: str, repeats: int,
                      warm: bool = False) -> tuple[list[tuple[str, float, list[float]]], bool]:
    """The eigenvalue page on every bundled data set, default settings otherwise: the first
    visit that asks for a data set (its kernel matrix, exact spectrum and approximations
    computed, then shared by every session; on a ``warm`` server, computed by its warm-up)
    and ``repeats`` fresh-context visits after it. Returns the rows and ``warm``, as
    :func:`spectrum_table` takes them."""
    import datasets

    names = datasets.names()
    rows = []
    for i, name in enumerate(names):
        url = f"{base}/spectrum?dataset={name}"
        first = load_once(browser, url)["drawn"]
        rows.append((name, first, [load_once(browser, url)["drawn"] for _ in range(repeats)]))
        progress(i + 1, len(names), f"spectrum: {name}")
    return rows, warm


def navigate(browser, base: str, pages, repeats: int) -> dict[str, list[float]]:
    """Seconds from a click on a page's sidebar link to that page drawn, per page, over
    ``repeats`` tabs that each start at Home and visit every page in ``pages`` in order."""
    out = {p.name: [] for p in pages}
    for r in range(repeats):
        context = browser.new_context(**WINDOW)
        try:
            pg = context.new_page()
            pg.add_init_script(f"({RUNS_JS})()")
            pg.goto(base + "/")
            wait_for_app(pg, content="h1")
            nav = pg.locator('[data-testid="stSidebarNav"]')
            for p in pages:
                before = pg.evaluate("() => window.__mpRuns")
                link = nav.get_by_role("link", name=p.title, exact=True)
                t0 = pg.evaluate("() => performance.now()")
                link.click()
                drawn = _drawn_after(pg, NAVIGATED_JS, [before, p.url_path])
                out[p.name].append((drawn - t0) / 1000)
                wait_for_app(pg, content="h1")  # nothing else arrives before the next click
                progress(r * len(pages) + pages.index(p) + 1, repeats * len(pages),
                         f"navigate: {p.name}")
        finally:
            context.close()
    return out

