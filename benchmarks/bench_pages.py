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
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO_ROOT), str(REPO_ROOT / "tests")]

from browser_util import (  # noqa: E402
    PHONE_USER_AGENT,
    StreamlitServer,
    app_pages,
    consecutive_free_ports,
    free_port,
    launch_browser,
    wait_for_app,
    wait_for_charts,
)
from _progress import progress  # noqa: E402  (benchmarks/, this script's folder)
from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402

TARGET_S = 2.5

#: The browser window and User-Agent of every context: a projector (1280x720), or with
#: ``--phone`` a phone held upright (390x844) that says so in its User-Agent, as a
#: student's phone does (the app then lays the page out for a phone from the first run).
WINDOW = {"viewport": {"width": 1280, "height": 720}}
PHONE = {"viewport": {"width": 390, "height": 844}, "user_agent": PHONE_USER_AGENT}

#: Size of each plotly figure the page holds (data + layout + frames, typed arrays counted
#: by their bytes), largest first.
_FIGURES_JS = """() => {
  const size = (v) => {
    if (v === null || v === undefined) return 4;
    if (ArrayBuffer.isView(v)) return v.byteLength;
    if (Array.isArray(v)) return v.reduce((s, x) => s + size(x) + 1, 2);
    if (typeof v === 'object') return Object.entries(v).reduce(
        (s, [k, x]) => (k.startsWith('_') ? s : s + k.length + 3 + size(x)), 2);
    return String(v).length;
  };
  return [...document.querySelectorAll(
      '.mp-chart .js-plotly-plot, [data-testid="stPlotlyChart"] .js-plotly-plot')]
    .map(gd => size(gd.data) + size(gd.layout) +
               size((gd._transitionData && gd._transitionData._frames) || []))
    .sort((a, b) => b - a);
}"""


#: True when the run is over and every visible chart has mounted and, for the app's charts,
#: drawn the last figure it was sent (``__mpDone``, set by the chart component once
#: ``Plotly.react`` has resolved); remembers since when it has been true (reset when it
#: stops being true: a second run, a late element). A notch's figure reaches its chart about
#: 20 ms after the frame at which the run is over (the component's script runs after React
#: shows the element): :func:`_drawn_after` checks this after a round trip to the script.
_DRAWN_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  const charts = [...document.querySelectorAll('.mp-chart, [data-testid="stPlotlyChart"]')]
    .filter(c => c.offsetParent !== null);
  const ok = !!app && app.getAttribute('data-test-script-state') === 'notRunning'
    && app.getAttribute('data-test-connection-state') === 'CONNECTED'
    && !document.querySelector('[data-testid="stStatusWidgetRunningIcon"]')
    && !document.querySelector('[data-testid="stSkeleton"]')
    && !!document.querySelector('h1')
    && charts.every(c => c.querySelector('.main-svg')
                         && (!c.classList.contains('mp-chart') || c.__mpDone === c.__mpDraw));
  if (!ok) { window.__mpDrawn = null; return false; }
  window.__mpDrawn = window.__mpDrawn || performance.now();
  return true;
}"""


#: Counts finished script runs (transitions of stApp to notRunning); installed before goto.
_RUNS_JS = """() => {
  window.__mpRuns = 0;
  const watch = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app) { requestAnimationFrame(watch); return; }
    new MutationObserver(() => {
      if (app.getAttribute('data-test-script-state') === 'notRunning') window.__mpRuns += 1;
    }).observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', watch);
  else watch();
}"""

#: The controls changed: Step, and the sidebar's first slider moved one notch from the
#: keyboard (Streamlit's sliders are <input type="range">, ARIA role slider).
_CONTROLS = ("step", "slider")


def _control(pg, control: str):
    if control == "step":
        return pg.get_by_role("button", name="Step ▶").first
    return pg.locator('[data-testid="stSidebar"]').get_by_role("slider").first


#: The timeline's step j and count n (its element may sit in a component's shadow root).
_TIMELINE_JS = """() => {
  for (const host of [document, ...[...document.querySelectorAll('*')].map(e => e.shadowRoot)
                      .filter(Boolean)]) {
    const el = host.querySelector('.tl');
    const m = el && /Step (\\d+) of (\\d+)/.exec(el.querySelector('.tl-count').textContent);
    if (m) return [Number(m[1]), Number(m[2])];
  }
  return null;
}"""

#: Armed before a Step click: the click event (seen first, in the window's capture phase)
#: stamps the time, then every animation frame checks whether the counter says
#: "Step <target> of <n>" and the timeline's figure has drawn frame <target> (slider and
#: current frame on it, no animation under way, not hidden); the first frame at which both
#: hold gives ``window.__mpView`` (ms since the click).
_ARM_STEP_JS = """([target, n]) => {
  window.__mpView = null;
  window.__mpClickAt = null;
  window.__mpDrawn = null;
  const want = `Step ${target} of ${n}`;
  const counter = () => {
    for (const host of [document, ...[...document.querySelectorAll('*')]
                        .map(e => e.shadowRoot).filter(Boolean)]) {
      const el = host.querySelector('.tl .tl-count');
      if (el) return el.textContent;
    }
    return null;
  };
  const figure = () => {
    const tl = window.__mpTimeline;
    return tl && document.querySelector(`.st-key-${tl.data.chart} .js-plotly-plot`);
  };
  const shown = () => {
    if (counter() !== want) return false;
    const gd = figure();
    const sl = gd && gd.layout && gd.layout.sliders && gd.layout.sliders[0];
    return !!sl && sl.active === target - 1 && gd.style.visibility !== 'hidden'
      && !!gd._fullLayout && gd._fullLayout._currentFrame === String(target)
      && !(gd._transitionData && gd._transitionData._animationRaf);
  };
  const onClick = () => {
    window.removeEventListener('click', onClick, true);
    const t0 = window.__mpClickAt = performance.now();
    const check = () => {
      if (shown()) window.__mpView = performance.now() - t0;
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  };
  window.addEventListener('click', onClick, true);
}"""


#: How long the benchmark waits for a page drawn or a control answered before it gives up.
WAIT_TIMEOUT_MS = 120_000


def _drawn_after(pg, answered: str, arg=None) -> float:
    """performance.now() [ms] of the first animation frame, once ``answered`` (a function
    evaluated in the page) holds, at which every chart is drawn."""
    pg.wait_for_function(answered, arg=arg, polling="raf", timeout=WAIT_TIMEOUT_MS)
    pg.evaluate("() => { window.__mpDrawn = null; }")
    pg.wait_for_function(_DRAWN_JS, polling="raf", timeout=WAIT_TIMEOUT_MS)
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


#: Before a notch: every chart on the page is marked as seen, and each app chart's box keeps
#: the draw number of the figure it shows (pages.common.charts.draw_number).
_MARK_CHARTS_JS = """() => document.querySelectorAll('.js-plotly-plot').forEach(g => {
  g.__mpOld = true;
  const box = g.closest('.mp-chart');
  if (box) box.__mpMarkedDraw = box.__mpDraw;
})"""
#: The notch's run is over: a run was counted (:data:`_RUNS_JS`), or the app is not running
#: and every chart shows a new figure: a chart Streamlit mounted anew (``st.plotly_chart``
#: mounts a new chart for new JSON), or an app chart that was sent a new draw number (the app's
#: charts redraw in place). A run short enough may leave the app's "running" state undrawn
#: (React renders both changes at once), so the run counter alone can miss it.
_SLIDER_ANSWERED_JS = """([b]) => {
  if (window.__mpRuns > b) return true;
  const app = document.querySelector('[data-testid="stApp"]');
  const charts = [...document.querySelectorAll('.js-plotly-plot')];
  const fresh = (g) => {
    if (!g.__mpOld) return true;
    const box = g.closest('.mp-chart');
    return !!box && box.__mpDraw !== box.__mpMarkedDraw;
  };
  return !!app && app.getAttribute('data-test-script-state') === 'notRunning'
    && charts.length > 0 && charts.every(fresh);
}"""


#: Armed before a notch: the key press (its keydown, seen first, in the window's capture
#: phase) stamps ``window.__mpKeyAt``, from which the notch is timed, as Step is from its
#: click (the harness's own calls before the key, such as focusing the slider, are not the
#: student's wait).
_ARM_KEY_JS = """() => {
  window.__mpKeyAt = null;
  const onKey = () => {
    window.removeEventListener('keydown', onKey, true);
    window.__mpKeyAt = performance.now();
  };
  window.addEventListener('keydown', onKey, true);
}"""

#: What a page shows when a notch was not answered: runs counted, the script's and the
#: connection's state, the focused element, each chart (new since the notch? its svg? its
#: last figure drawn?), and the text of any error or alert box.
_STUCK_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  const active = document.activeElement;
  return {
    runs: window.__mpRuns, keyAt: window.__mpKeyAt,
    script: app && app.getAttribute('data-test-script-state'),
    connection: app && app.getAttribute('data-test-connection-state'),
    focused: active ? `${active.tagName} ${active.type || ''} ${active.getAttribute('aria-label') || ''} ${active.value || ''}`.trim() : null,
    charts: [...document.querySelectorAll('.mp-chart, [data-testid="stPlotlyChart"]')].map(c => {
      const g = c.querySelector('.js-plotly-plot');
      return {visible: c.offsetParent !== null, old: !!(g && g.__mpOld),
              newDraw: c.__mpDraw !== c.__mpMarkedDraw, svg: !!c.querySelector('.main-svg'),
              figureDrawn: c.__mpDone === c.__mpDraw};
    }),
    alerts: [...document.querySelectorAll('[data-testid="stException"], [data-testid="stAlert"]')]
      .map(e => e.innerText.slice(0, 300)),
  };
}"""

#: The sidebar's sliders (Streamlit's ``stSlider`` elements, in the page's order).
_SIDEBAR_SLIDERS = '[data-testid="stSidebar"] [data-testid="stSlider"]'


def sidebar_sliders(pg) -> list[tuple[str, object]]:
    """(label, thumb) of every slider in the sidebar, in the page's order."""
    out = []
    boxes = pg.locator(_SIDEBAR_SLIDERS)
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
    pg.evaluate(_MARK_CHARTS_JS)
    pg.evaluate(_ARM_KEY_JS)
    loc.focus()
    if before_press is not None:
        before_press()
    loc.press(key)
    drawn = _drawn_after(pg, _SLIDER_ANSWERED_JS, [before])
    return (drawn - pg.evaluate("() => window.__mpKeyAt")) / 1000


def interact_step(pg, n: int) -> dict[str, list[float]]:
    """Seconds from a Step click to the view on the new step (counter and figure, drawn in
    the browser) and to the server's answer (its run over, every chart drawn)."""
    out = {"view": [], "server": []}
    loc = _control(pg, "step")
    if pg.evaluate(_TIMELINE_JS) is None:
        raise RuntimeError(f"{pg.url}: a Step button without the timeline's counter")
    for _ in range(n):
        j, n_steps = pg.evaluate(_TIMELINE_JS)
        if j >= n_steps:  # at the last step: back to the first (not timed), then Step
            # Reset is answered in the browser, like Step: wait for the counter, then for
            # the page's answer (the timeline has its number back), every chart drawn
            pg.get_by_role("button", name="⟲ Reset").first.click()
            at_first = f"() => {{ const t = ({_TIMELINE_JS})(); return !!t && t[0] === 1; }}"
            pg.wait_for_function(at_first, polling="raf", timeout=WAIT_TIMEOUT_MS)
            _drawn_after(pg, "() => window.__mpTimeline.ack >= window.__mpTimeline.seq")
            wait_for_app(pg, content=None)
            j, n_steps = pg.evaluate(_TIMELINE_JS)
        pg.evaluate(_ARM_STEP_JS, [j + 1, n_steps])
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
        pg.add_init_script(f"({_RUNS_JS})()")
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
                              f"{json.dumps(pg.evaluate(_STUCK_JS), ensure_ascii=False)}; "
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
        pg.wait_for_function(_DRAWN_JS, polling="raf", timeout=WAIT_TIMEOUT_MS)
        # then stable (nothing else arrives), checked by the tests' own condition
        wait_for_app(pg, content="h1")
        wait_for_charts(pg)
        pg.wait_for_function(_DRAWN_JS, polling="raf", timeout=WAIT_TIMEOUT_MS)
        drawn_ms = pg.evaluate("() => window.__mpDrawn")
        figures = pg.evaluate(_FIGURES_JS)
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


#: The peer: Streamlit alone, served the same way (this repository's .streamlit/config.toml),
#: a title and nothing else, or a title and one small plotly chart. What no page of the app
#: can beat, whatever it draws. The chart is drawn once at the app's root address and once at
#: a page's own address (``/chart``), as every page of the app but Home is reached: there
#: Streamlit's front end first looks for the server under the page's path
#: (``/chart/_stcore/health``), is refused, and tries the root after a 100 ms pause.
FLOOR_APP = """
import plotly.graph_objects as go
import streamlit as st

st.set_page_config(page_title="Streamlit alone", layout="wide")


def chart(n=50):
    x = list(range(n))
    st.plotly_chart(go.Figure(go.Scatter(x=x, y=[v * v for v in x])), theme=None)


def home():
    st.title("Streamlit alone")
    if st.query_params.get("slider") == "1":
        chart(st.sidebar.slider("Points", 10, 500, 50))
    elif st.query_params.get("chart") == "1":
        chart()


def chart_page():
    st.title("Streamlit alone")
    chart()


st.navigation([st.Page(home, title="Streamlit alone", default=True),
               st.Page(chart_page, title="Streamlit alone: chart", url_path="chart")],
              position="hidden").run()
"""


class FloorPage:
    """A page of :data:`FLOOR_APP` (same interface as browser_util.AppPage for the table):
    a title, with one chart if ``chart``; at the root address, or at ``/chart``."""

    def __init__(self, title: str, chart: bool, at_path: bool = False):
        self.title, self._chart, self._at_path = title, chart, at_path
        self.name = "floor-chart-path" if at_path else "floor-chart" if chart else "floor"

    def url(self, base: str) -> str:
        return f"{base}/chart" if self._at_path else f"{base}/?chart={int(self._chart)}"


#: The peer of a control change: Streamlit alone with a slider in the sidebar and one small
#: plotly chart of as many points; a notch is one script run and one new figure drawn.
FLOOR_SLIDER = ("Streamlit alone: a slider and one plotly chart (the peer)",
                lambda base: f"{base}/?slider=1")

FLOORS = (FloorPage("Streamlit alone: a title", False),
          FloorPage("Streamlit alone: a title and one plotly chart", True),
          FloorPage("Streamlit alone: a title and one plotly chart, at a page's address "
                    "(/chart)", True, at_path=True))


class _PeerBeside(NamedTuple):
    """The peer's slider notch measured just before a page's controls: the 1-min load
    average as it started and its median [s]."""

    load: float
    notch: float


def floor_server(tmp: Path, root: Path) -> StreamlitServer:
    """Streamlit serving :data:`FLOOR_APP` from ``tmp`` with ``root``'s config."""
    import shutil

    (tmp / ".streamlit").mkdir(parents=True, exist_ok=True)
    shutil.copy(root / ".streamlit" / "config.toml", tmp / ".streamlit" / "config.toml")
    (tmp / "app.py").write_text(FLOOR_APP, encoding="utf-8")
    return StreamlitServer(cwd=tmp).start()


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


#: The new page's run is over (a run was counted since the click) and the address is the
#: page's own.
_NAVIGATED_JS = "([b, path]) => window.__mpRuns > b && location.pathname.endsWith('/' + path)"


def navigate(browser, base: str, pages, repeats: int) -> dict[str, list[float]]:
    """Seconds from a click on a page's sidebar link to that page drawn, per page, over
    ``repeats`` tabs that each start at Home and visit every page in ``pages`` in order."""
    out = {p.name: [] for p in pages}
    for r in range(repeats):
        context = browser.new_context(**WINDOW)
        try:
            pg = context.new_page()
            pg.add_init_script(f"({_RUNS_JS})()")
            pg.goto(base + "/")
            wait_for_app(pg, content="h1")
            nav = pg.locator('[data-testid="stSidebarNav"]')
            for p in pages:
                before = pg.evaluate("() => window.__mpRuns")
                link = nav.get_by_role("link", name=p.title, exact=True)
                t0 = pg.evaluate("() => performance.now()")
                link.click()
                drawn = _drawn_after(pg, _NAVIGATED_JS, [before, p.url_path])
                out[p.name].append((drawn - t0) / 1000)
                wait_for_app(pg, content="h1")  # nothing else arrives before the next click
                progress(r * len(pages) + pages.index(p) + 1, repeats * len(pages),
                         f"navigate: {p.name}")
        finally:
            context.close()
    return out


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
                            beside = _PeerBeside(
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
        first = _PeerBeside(load_before, peer_notch)
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
