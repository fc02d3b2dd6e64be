"""Shared pieces for tests that drive the real app: its pages, a server, a browser.

- :func:`app_pages` reads the pages registered with ``st.Page`` in app.py (so a
  new page is visited by the browser tests without editing them).
- :class:`StreamlitServer` runs ``streamlit run app.py`` on a free loopback
  port and stops exactly that process.
- Fixtures, all of session scope but ``page`` (one server and one browser per test
  process, so the server's caches and the browser's script cache stay warm from one
  module to the next), made available to every test module by tests/conftest.py:
  ``streamlit_server``; ``shared_context``, the one context of a single-process
  chromium; ``page``, a new page of it per test (a new Streamlit session);
  ``browser``, the default multi-process chromium, for a context of one's own.

- :func:`require_chromium` skips when Debian's chromium is absent locally, and
  fails with an actionable message when ``CI`` is set (CI must run them).
- Waiting is always for a condition (the app settled, a chart mounted), never a fixed
  sleep; websocket messages are logged inside the page with its own clock. The Play
  helpers (frames drawn, stops) are in tests/browser_play.py.
- :func:`click_learn_point` clicks a point of a Learn beat's figure where a student
  would: scrolled to the middle of the screen, never under the page's fixed header, and
  clicked again when plotly.js did not see the click (a busy browser), as a student taps again.

Debian's ``/usr/bin/chromium`` is driven through playwright's Python package
with ``executable_path``; ``playwright install`` (a browser download) is never
needed.
"""

from __future__ import annotations

import ast
import contextlib
import fcntl
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
APP = REPO_ROOT / "app.py"
SCREENSHOTS = REPO_ROOT / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
LAUNCH_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               "--no-first-run"]
#: A projector-like window (1080p) so screenshots show what a lecture hall sees.
VIEWPORT = dict(width=1600, height=1000)
#: An iPhone's Safari User-Agent ("Mobi" in it): a student's phone, for the tests and the
#: page benchmark's ``--phone``.
PHONE_USER_AGENT = ("Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 "
                    "(KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1")
SERVER_START_TIMEOUT = 60.0
#: Longest a page may take to finish its script run and draw.
PAGE_TIMEOUT_MS = 90_000


# ---------------------------------------------------------------- pages of app.py


@dataclass(frozen=True)
class AppPage:
    """One ``st.Page`` of app.py: its file, URL path ("" for the default page) and title."""

    file: str
    url_path: str
    title: str
    default: bool = False

    @property
    def name(self) -> str:
        return Path(self.file).stem

    def url(self, base: str, query: str = "") -> str:
        path = "" if self.default else self.url_path
        return f"{base}/{path}" + (f"?{query}" if query else "")


def app_pages(app: Path = APP) -> list[AppPage]:
    """Every ``st.Page(...)`` call in app.py, in order of appearance."""
    tree = ast.parse(app.read_text(encoding="utf-8"))
    pages = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "Page"):
            continue
        if not node.args or not isinstance(node.args[0], ast.Constant):
            continue
        kw = {k.arg: k.value.value for k in node.keywords if isinstance(k.value, ast.Constant)}
        file = node.args[0].value
        # Streamlit's rule: url_path defaults to the file name without extension
        url_path = kw.get("url_path") or Path(file).stem
        pages.append(((node.lineno, node.col_offset),
                      AppPage(file=file, url_path=url_path, title=kw.get("title", url_path),
                              default=bool(kw.get("default", False)))))
    if not pages:
        raise RuntimeError(f"No st.Page(...) found in {app}")
    return [p for _, p in sorted(pages, key=lambda t: t[0])]


# ---------------------------------------------------------------- the server


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def consecutive_free_ports(n: int) -> int:
    """The first of ``n`` consecutive free ports, below the kernel's ephemeral range (where
    the other tests' servers and clients get theirs, port 0): a block found free there is
    not taken by another test between this check and the processes binding it."""
    rng = random.Random()
    for _ in range(200):
        first = rng.randrange(20000, 30000 - n)
        socks = []
        try:
            for p in range(first, first + n):
                s = socket.socket()
                socks.append(s)
                s.bind(("127.0.0.1", p))
            return first
        except OSError:
            continue
        finally:
            for s in socks:
                s.close()
    raise RuntimeError(f"no {n} consecutive free ports between 20000 and 30000")


@contextlib.contextmanager
def _port_lock():
    """One process at a time picks a free port and binds it (parallel test workers, or two
    test runs on one machine): a port found free is taken before another process looks."""
    with open(Path(tempfile.gettempdir()) / "mp-streamlit-port.lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


class StreamlitServer:
    """``streamlit run app.py`` on a free loopback port; :meth:`stop` ends that process only.

    Without ``port``, the port is picked under a lock shared by every process on the
    machine and held until the server answers, so parallel workers never collide.
    """

    def __init__(self, port: int | None = None, cwd: Path = REPO_ROOT, script: str = "app.py"):
        self.script = script  # app.py, or deploy/hall_app.py (app.py with the hall's route)
        self._pick_port = port is None
        self.port = port or free_port()
        self.cwd = cwd
        self.proc: subprocess.Popen | None = None
        self._log = tempfile.NamedTemporaryFile(prefix="streamlit-", suffix=".log", delete=False)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = SERVER_START_TIMEOUT) -> StreamlitServer:
        with _port_lock():
            if self._pick_port:
                self.port = free_port()
            return self._start(timeout)

    def _start(self, timeout):
        cmd = [sys.executable, "-m", "streamlit", "run", self.script,
               "--server.headless", "true", "--server.port", str(self.port),
               "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"]
        self.proc = subprocess.Popen(cmd, cwd=self.cwd, stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                log = self.log()
                self.stop()
                raise RuntimeError(f"streamlit exited with code {self.proc.returncode}:\n{log}")
            try:
                with urllib.request.urlopen(f"{self.base}/_stcore/health", timeout=2) as r:
                    if r.read().decode().strip() == "ok" and self.proc.poll() is None:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            time.sleep(0.2)
        log = self.log()
        self.stop()
        raise RuntimeError(f"streamlit did not answer /_stcore/health within {timeout} s:\n{log}")

    def log(self, tail: int = 4000) -> str:
        try:
            return Path(self._log.name).read_text(errors="replace")[-tail:]
        except OSError:
            return ""

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self._log.close()
        Path(self._log.name).unlink(missing_ok=True)  # nothing of the server is left behind

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


# ---------------------------------------------------------------- the browser


def in_ci() -> bool:
    """Whether the tests run in CI (``CI`` set, as `bash .ci/run` sets it): a missing browser,
    npm or HAProxy then fails instead of skipping, and property tests replay fixed examples."""
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def skip_or_fail(problem: str, tests: str):
    """A tool the tests need is missing: skip them locally; in CI (``CI`` set) fail, so that
    a missing install step cannot turn CI green. ``tests`` names them ("Browser tests")."""
    if in_ci():
        pytest.fail(f"{tests} must run in CI but {problem}", pytrace=False)
    pytest.skip(problem)


def require_chromium():
    """Skip without chromium locally; in CI (``CI`` set) fail with what to install."""
    problem = None
    if not Path(CHROMIUM).exists():
        problem = (f"{CHROMIUM} not found: install Debian's browser with "
                   "`apt-get install -y chromium` (.ci/run does this).")
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            problem = "the playwright Python package is missing: pip install -r requirements-dev.txt"
    if problem:
        skip_or_fail(problem, "Browser tests")


#: The pages most tests open run in one browser process (renderer, compositor and network in
#: the browser process). Measured on the 2-core machine, a warm page load of the app then
#: costs about half the CPU time it costs in the default multi-process browser (no renderer
#: process per page, no inter-process rendering), and page loads are most of what the
#: browser tests spend; the page, its scripts and its layout are the same. Such a browser
#: holds one context: tests that need a context of their own (a link opened where nothing is
#: shared, a blocked network) use the default browser (``browser``), as benchmarks do.
SINGLE_PROCESS_ARGS = ["--single-process"]


def launch_browser(playwright, *, single_process: bool = False):
    """Debian's chromium through playwright (``single_process``: see SINGLE_PROCESS_ARGS)."""
    args = LAUNCH_ARGS + (SINGLE_PROCESS_ARGS if single_process else [])
    return playwright.chromium.launch(executable_path=CHROMIUM, args=args)


#: True once the script run is over and the page has drawn: the script is not running, the
#: app is connected, no running icon, no skeleton, and the element count and the size of
#: the main block are unchanged over ``need`` further polls (state kept in the page).
_SETTLED_JS = """([need, steps]) => {
  const app = document.querySelector('[data-testid="stApp"]');
  const main = document.querySelector('[data-testid="stMain"]');
  const snap = app && [app.getAttribute('data-test-script-state'),
                       app.getAttribute('data-test-connection-state'),
                       !!document.querySelector('[data-testid="stStatusWidgetRunningIcon"]'),
                       document.querySelectorAll('[data-testid="stSkeleton"]').length,
                       document.querySelectorAll('[data-testid="stElementContainer"]').length,
                       main ? main.innerHTML.length : 0];
  // a Step answered in the browser: its run may end before Streamlit draws "running",
  // so also wait until the page has stored the timeline's latest step
  const tl = window.__mpTimeline;
  const stepped = !steps || !tl || !tl.root || !tl.root.isConnected || (tl.ack || 0) >= tl.seq;
  const done = !!snap && snap[0] === 'notRunning' && snap[1] === 'CONNECTED' && !snap[2]
               && snap[3] === 0 && stepped;
  const key = JSON.stringify(snap);
  const st = window.__mpSettled || (window.__mpSettled = {key: null, same: 0});
  st.same = done && key === st.key ? st.same + 1 : 0;
  st.key = key;
  if (st.same >= need) { window.__mpSettled = null; return true; }
  return false;
}"""


def wait_for_app(page, *, content: str | None = "h1", timeout_ms: int = PAGE_TIMEOUT_MS,
                 settle_ms: int = 150, stable_polls: int = 3, steps: bool = True):
    """Wait until the script run is over and what it drew has mounted.

    Streamlit marks ``stApp`` with ``data-test-script-state="notRunning"`` when a
    run ends, but lazily loaded elements (plotly charts above all) show an
    ``stSkeleton`` placeholder for up to a second or two after that, and the
    "running" icon may appear late. So: wait for ``content``, then until the
    script is not running, connected, no running icon, no skeleton, and the
    element count and the size of the main block are unchanged over
    ``stable_polls`` polls ``settle_ms`` apart (a condition the page evaluates), and the
    page has stored the step the timeline last sent it (``steps=False``: a test that holds
    that step back on purpose).
    """
    page.locator('[data-testid="stApp"]').wait_for(state="attached", timeout=timeout_ms)
    if content:
        page.locator(content).first.wait_for(state="visible", timeout=timeout_ms)
    page.wait_for_function(_SETTLED_JS, arg=[stable_polls - 1, steps], polling=settle_ms,
                           timeout=timeout_ms)


#: A chart of the app (pages.common.charts: the chart component's box, its graph inside).
CHART = ".mp-chart"
#: A chart of the app, or one drawn by ``st.plotly_chart`` (the small apps of some tests).
CHART_OR_STREAMLITS = '.mp-chart, [data-testid="stPlotlyChart"]'


#: Whether every chart the page renders has drawn its SVG. A chart in a closed expander or a
#: hidden panel is not rendered (``checkVisibility``) and is skipped; a chart whose box is on
#: the page but not drawn yet is waited for: its box has no height until plotly.js draws, so
#: a test of its size (playwright's ``is_visible``) would skip it.
_CHARTS_DRAWN_JS = """([sel]) => [...document.querySelectorAll(sel)].every(
  (c) => !c.checkVisibility() || [...c.querySelectorAll('.main-svg')].some((s) => s.checkVisibility()))"""


def wait_for_charts(page, timeout_ms: int = PAGE_TIMEOUT_MS):
    """Every chart the page renders has mounted its SVG (charts in closed expanders are skipped)."""
    page.wait_for_function(_CHARTS_DRAWN_JS, arg=[CHART_OR_STREAMLITS], polling=100,
                           timeout=timeout_ms)


def wait_for_stable_layout(page, frames: int = 5, timeout_ms: int = PAGE_TIMEOUT_MS):
    """Wait until the page's layout (main block height, every chart's box) is unchanged over
    ``frames`` consecutive painted frames: e.g. after a viewport resize, when plotly relayouts."""
    page.wait_for_function(
        """([sel, need]) => {
             const main = document.querySelector('[data-testid="stMain"]') || document.body;
             const sig = [main.scrollHeight, ...[...document.querySelectorAll(sel)].map(e => {
               const r = e.getBoundingClientRect(); return `${r.width}x${r.height}`; })].join();
             const st = window.__mpLayout || (window.__mpLayout = {sig: null, same: 0});
             st.same = sig === st.sig ? st.same + 1 : 0;
             st.sig = sig;
             if (st.same >= need) { window.__mpLayout = null; return true; }
             return false; }""",
        arg=[CHART, frames], polling="raf", timeout=timeout_ms)


def exceptions_on(page) -> list[str]:
    # one call: reading them one by one waits for an element that a rerun may have removed
    return page.locator('[data-testid="stException"]').all_inner_texts()


# ---------------------------------------------------------------- plotly animations
# Every animated figure of the app has plotly Play / Pause buttons and a step slider
# (mpcore.plots._common.play_controls); its frames are named "1".."k". Playback is
# watched from inside the page: frame events, the end of an animation and every
# websocket message the page sends are logged with performance.now() time stamps, so
# the order of events is known exactly whatever the speed of the machine.

#: Every plotly graph of the page, in document order (index ``g`` below).
GRAPH_JS = '.mp-chart .js-plotly-plot'

#: Logs every message the page sends over a websocket (install before ``goto``).
_WS_LOG_JS = """(() => {
  if (window.__mpSends) return;
  window.__mpSends = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    window.__mpSends.push(performance.now());
    return send.call(this, data);
  };
})();"""

def log_websocket_sends(page):
    """From the next navigation on, log (in the page) every message sent to the server."""
    page.add_init_script(_WS_LOG_JS)


def websocket_sends(page) -> list[float]:
    """performance.now() of every message the page sent (needs :func:`log_websocket_sends`)."""
    sends = page.evaluate("() => window.__mpSends || null")
    assert sends is not None, "log_websocket_sends(page) must be called before page.goto"
    return sends


# ---------------------------------------------------------------- fixtures


@pytest.fixture(scope="session")
def streamlit_server():
    require_chromium()
    server = StreamlitServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def _playwright():
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(_playwright):
    """The default (multi-process) chromium, for tests that make contexts of their own."""
    b = launch_browser(_playwright)
    try:
        yield b
    finally:
        b.close()


@pytest.fixture(scope="session")
def shared_context(_playwright):
    """The one context of a single-process chromium (see SINGLE_PROCESS_ARGS), shared by the
    pages the tests open: they also share its HTTP and compiled-script caches, while each
    page is still its own Streamlit session."""
    b = launch_browser(_playwright, single_process=True)
    try:
        yield b.new_context(viewport=VIEWPORT, device_scale_factor=1, accept_downloads=True)
    finally:
        b.close()


def new_page(context, size=None):
    """A page of ``context`` (a new Streamlit session) at ``size`` = (width, height), with
    its JavaScript errors collected in ``page.page_errors``."""
    pg = context.new_page()
    if size is not None:
        pg.set_viewport_size(dict(width=size[0], height=size[1]))
    pg.set_default_timeout(PAGE_TIMEOUT_MS)
    pg.page_errors = []
    pg.on("pageerror", lambda exc: pg.page_errors.append(str(exc)))
    return pg


#: True when the page has nothing left to adapt to its window: no timeline, or the
#: timeline's last data agree with the window (phone or not; in presentation mode, the
#: height the figure was sized for), so no report to the server (and rerun) is pending.
_FITTED_JS = """() => {
  let tl = null;
  for (const host of [document, ...[...document.querySelectorAll('*')].map(e => e.shadowRoot)
                      .filter(Boolean)]) { tl = tl || host.querySelector('.tl'); }
  if (!tl) return true;
  const d = tl.__tl && tl.__tl.data;
  if (!d) return false;
  const narrow = innerWidth < d.narrowBelow;
  return narrow === !!d.narrow && (!d.present || Math.abs((d.vh || 0) - innerHeight) <= 40);
}"""


#: What the page knows of its window, for a failure's message: the window, every timeline's
#: last data, what the fit component (pages/common/fit.py) last drew for, sent and will
#: resend, and whether a run is going on.
_FIT_STATE_JS = """() => {
  const tls = [document, ...[...document.querySelectorAll('*')].map(e => e.shadowRoot)
               .filter(Boolean)].flatMap(h => [...h.querySelectorAll('.tl')]);
  const w = window.__mpWidth, r = window.__mpRecheck;
  return {window: [innerWidth, innerHeight],
          timelines: tls.map(t => t.__tl ? JSON.stringify({narrow: t.__tl.data.narrow,
            below: t.__tl.data.narrowBelow, present: t.__tl.data.present, vh: t.__tl.data.vh,
            connected: t.isConnected}) : 'no data'),
          fit: w ? {narrow: w.narrow, below: w.below} : null,
          sent: window.__mpWidthSent || null, now: performance.now(),
          recheck: r ? {key: r.key, left: r.left} : null,
          running: !!document.querySelector('[data-testid="stStatusWidget"]'),
          stale: document.querySelectorAll('[data-stale="true"]').length};
}"""


def wait_for_fit(page, content: str | None = "h1", timeout_ms: int = PAGE_TIMEOUT_MS):
    """After a load or a resize: wait until the page has adapted to the window (the timeline
    reports a phone width or a presentation height once, and the page reruns), then until
    that run has drawn. A condition, not a fixed sleep."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    wait_for_app(page, content=content, timeout_ms=timeout_ms)
    try:
        page.wait_for_function(_FITTED_JS, polling=100, timeout=timeout_ms)
    except PlaywrightTimeoutError:
        raise AssertionError("the page did not adapt to its window: "
                             f"{page.evaluate(_FIT_STATE_JS)}") from None
    wait_for_app(page, content=content, timeout_ms=timeout_ms)
    wait_for_charts(page, timeout_ms=timeout_ms)


@pytest.fixture
def page(shared_context):
    """A new page (its own Streamlit session) in the shared context; page errors collected."""
    pg = new_page(shared_context)
    try:
        yield pg
    finally:
        pg.close()


#: Training point i of the data panel of the beat's figure, scrolled to the middle of the
#: screen (where a student taps it: not under the page's fixed header), its position there,
#: and whether a tap there reaches the figure.
LEARN_POINT_JS = """(i) => {
  const gd = document.querySelector('.st-key-learn-figure .js-plotly-plot');
  const pt = gd.querySelectorAll('.scatterlayer .trace')[0].querySelectorAll('.point')[i];
  pt.scrollIntoView({block: 'center', inline: 'center'});
  const r = pt.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const top = document.elementFromPoint(x, y);
  window.__mpLearnClick = null;  // what plotly.js reports for the click that follows
  if (!gd.__mpLearnHooked) {
    gd.__mpLearnHooked = true;
    gd.on('plotly_click', (e) => {
      window.__mpLearnClick = e.points.map((p) => [p.curveNumber, p.pointIndex]);
    });
  }
  return {x, y, hit: !!top && gd.contains(top), on: top ? top.outerHTML.slice(0, 80) : null};
}"""
#: Clicks a busy browser may drop before plotly.js sees them (see :func:`click_learn_point`).
LEARN_CLICK_TRIES = 3
LEARN_CLICK_WAIT_MS = 10_000  # long enough that a slow click is not taken for a dropped one


def wait_for_point_box(page, box: str, value: int, timeout_ms: int = PAGE_TIMEOUT_MS):
    """Wait until the number box inside ``box`` (a CSS selector) is the only one there and
    holds ``value``: a click fills a new box (pages/common/point_input.py), and the old one
    stays on the page until the run that replaced it ends."""
    page.wait_for_function(
        """([sel, v]) => {
             const els = [...document.querySelectorAll(sel)];
             return els.length === 1 && els[0].value === v; }""",
        arg=[f'{box} [data-testid="stNumberInput"] input', str(value)], timeout=timeout_ms)


def click_learn_point(page, i: int):
    """Click training point ``i`` in the data panel of a Learn beat's figure (plotly.js
    selects a point on a click, not on a tap), after scrolling it to the middle of the
    screen; fails, naming what covers it, when the click would not reach the figure.

    plotly.js finds the clicked point from its hover computation, which a browser busy
    drawing can leave unfinished when the click arrives: the click then reports no point,
    the app is never told, and a student would tap again. So does this helper, up to
    :data:`LEARN_CLICK_TRIES` times, and only while plotly.js reports nothing; a click that
    plotly.js reports on another point fails at once, and what the app does with the
    reported click is the caller's to check."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    for _ in range(LEARN_CLICK_TRIES):
        xy = page.evaluate(LEARN_POINT_JS, i)
        assert xy["hit"], f"point {i} is covered by {xy['on']}"
        page.mouse.click(xy["x"], xy["y"])
        try:
            page.wait_for_function("() => window.__mpLearnClick !== null",
                                   timeout=LEARN_CLICK_WAIT_MS)
        except PlaywrightTimeoutError:
            continue
        got = page.evaluate("() => window.__mpLearnClick")
        assert [0, i] in got, f"a click on point {i} reached plotly.js as {got}"
        return
    raise AssertionError(f"plotly.js reported none of {LEARN_CLICK_TRIES} clicks on point {i}")
