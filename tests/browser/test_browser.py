"""Real-browser tests: Debian's chromium (through playwright) against ``streamlit run app.py``.

Every animated page is opened; its plotly "▶ Play" button is pressed (and
paused), its Streamlit "Step ▶" button is pressed; no ``[data-testid="stException"]``
and no JavaScript page error may appear (every page, animated or not, is opened at
three sizes by test_browser_layout.py); with ``SCREENSHOTS_WHOLE=1`` a screenshot of
each whole page goes to screenshots/<page>.png (git-ignored) for a person to look at.

On every page with a plotly Play button (KMP and KCCA at their default speed,
sparse KPCA at its fastest) Play advances the figure through every
frame to the last one without sending any message to the server while it
plays (playback is client-side, no rerun per frame), and Pause stops it where
it is. These tests assert only the order of events, never how fast they come:
the frame rate is measured by benchmarks/bench_play.py.

Locally these tests skip when /usr/bin/chromium is absent; with ``CI`` set
they fail instead (see browser_util.require_chromium).
"""

from __future__ import annotations

import csv
import io
import json
import re
from urllib.parse import parse_qsl, urlsplit

import pytest

from browser_util import (
    PAGE_TIMEOUT_MS,
    SCREENSHOTS,
    VIEWPORT,
    REPO_ROOT,
    app_pages,
    exceptions_on,
    log_websocket_sends,
    wait_for_app,
    wait_for_charts,
    wait_for_stable_layout,
    websocket_sends,
)
from browser_play import (
    animated_graphs,
    animation_log,
    animation_state,
    drop_interrupted_animation_errors,
    page_now,
    pause_after,
    play_button,
    record_animation,
    wait_for_painted_frames,
    wait_for_stop,
)
from browser_views import choose_option
from layout_check import WHOLE

from pages.common.schemas import ALL_SCHEMAS

pytestmark = pytest.mark.browser

#: Tallest screenshot (px): long pages are captured whole up to this height.
MAX_SHOT_HEIGHT = 7000
PAGES = app_pages()
#: Pages whose figure animates with a plotly Play button (the others are checked to have none).
ANIMATED = {"skpca", "kmp", "kcca"}
#: After Pause, the figure must stay put for this many Play intervals (and painted frames).
PAUSE_WATCH_INTERVALS = 3
PAUSE_WATCH_PAINTS = 10
STEP_RE = re.compile(r"Step (\d+) of (\d+)")


def expect(locator):
    """playwright's retrying assertions (imported lazily: the module must import without it)."""
    from playwright.sync_api import expect as _expect

    return _expect(locator)


def open_app_page(page, base, app_page, query=""):
    page.goto(app_page.url(base, query))
    wait_for_app(page)
    wait_for_charts(page)


def assert_no_errors(page, where):
    exc = exceptions_on(page)
    assert not exc, f"{where}: st.exception on the page:\n" + "\n".join(exc)
    assert not page.page_errors, f"{where}: JavaScript errors: {page.page_errors}"


def step_counter(page):
    """(j, n) of the page's "Step j of n" counter, or None: the innermost element showing
    it in the main block, inside a component's shadow root or not, outside the figures."""
    found = page.evaluate(
        """(pattern) => { const re = new RegExp(pattern);
             const main = document.querySelector('[data-testid="stMain"]') || document.body;
             const all = (root) => [...root.querySelectorAll('*')].flatMap(e =>
               e.shadowRoot ? [e, ...all(e.shadowRoot)] : [e]);
             const el = all(main).find(e => !e.closest('.js-plotly-plot')
               && re.test(e.textContent) && ![...e.children].some(c => re.test(c.textContent)));
             const m = el && re.exec(el.textContent);
             return m ? [+m[1], +m[2]] : null; }""", STEP_RE.pattern)
    return tuple(found) if found else None


def full_screenshot(page, path):
    """The whole page: Streamlit scrolls inside its main block, so grow the viewport to fit."""
    height = page.evaluate(
        """() => Math.max(...['[data-testid="stMain"]', '[data-testid="stAppViewContainer"]',
                              'section.main', 'body']
             .map(s => document.querySelector(s)).filter(Boolean).map(e => e.scrollHeight))""")
    page.set_viewport_size(dict(width=VIEWPORT["width"],
                                height=int(min(max(height, VIEWPORT["height"]), MAX_SHOT_HEIGHT))))
    wait_for_stable_layout(page)  # plotly relayouts after the resize
    wait_for_charts(page)
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(VIEWPORT)


def step_buttons(page):
    return page.get_by_role("button", name=re.compile(r"^\s*Step\s*▶\s*$"))


# ---------------------------------------------------------------- client-side playback


def frame_names(log, since=float("-inf")):
    return [name for t, name in log["frames"] if t > since]


def assert_plays_client_side_and_pauses(page, g, where):
    """Play on figure ``g`` draws every frame, in order, to the last, with no message to the
    server while it plays; Pause half-way through a second Play stops it, and the figure
    stays on the paused frame; no error appears. Only the order of events is checked."""
    play_button(page, g).wait_for()  # updatemenus are drawn after the plot area
    frames = animation_state(page, g)["frames"]
    assert len(frames) >= 2 and frames == [str(j) for j in range(1, len(frames) + 1)], frames

    record_animation(page, g)
    clicked = page_now(page)
    play_button(page, g).click()
    wait_for_stop(page)
    log = animation_log(page)
    assert frame_names(log) == frames, f"{where}: Play drew {frame_names(log)}, not {frames}"
    assert [kind for _, kind in log["stops"]] == ["end"], log["stops"]
    during = [t for t in websocket_sends(page) if clicked <= t <= log["frames"][-1][0]]
    assert not during, (f"{where}: Play sent {len(during)} messages to the server while it "
                        "played: it must not rerun the script per frame")
    wait_for_app(page, content=None)
    assert_no_errors(page, f"{where} after Play")
    assert animation_state(page, g)["shown"] == len(frames), "the figure left the last frame"

    middle = str(len(frames) // 2)
    record_animation(page, g)
    pause_after(page, middle)  # the page presses Pause as soon as this frame is drawn
    errors_before = len(page.page_errors)
    clicked = page_now(page)
    play_button(page, g).click()
    wait_for_stop(page)
    drop_interrupted_animation_errors(page, errors_before)
    log = animation_log(page)
    names = frame_names(log)
    assert names == frames[: int(middle)], f"{where}: Play then Pause drew {names}"
    assert log["stops"][0][1] == "interrupted", log["stops"]
    during = [t for t in websocket_sends(page) if clicked <= t <= log["frames"][-1][0]]
    assert not during, f"{where}: Play sent {len(during)} messages to the server while it played"
    paused = log["stops"][0][0]
    wait_for_app(page, content=None)
    # a window in which a running animation would certainly have moved on
    wait_for_painted_frames(page, PAUSE_WATCH_PAINTS,
                            PAUSE_WATCH_INTERVALS * animation_state(page, g)["frame_ms"])
    assert not frame_names(animation_log(page), since=paused), f"{where}: moved on after Pause"
    state = animation_state(page, g)
    assert not state["playing"] and state["shown"] == int(middle), state
    assert_no_errors(page, f"{where} after Pause")


# ---------------------------------------------------------------- every page


def test_only_the_animated_pages_have_play_buttons():
    """The pages with an animation are the ones tested below (a new one is not left out);
    every page, animated or not, is opened at three sizes by test_browser_layout.py."""
    assert {p.url_path for p in PAGES} >= ANIMATED
    source = {p.url_path: (REPO_ROOT / p.file).read_text(encoding="utf-8") for p in PAGES}
    assert {name for name, text in source.items() if "timeline(" in text} == ANIMATED


#: Play speed (the URL's <page>.speed, frames/s) each animated page is opened at: sparse
#: KPCA at the fastest setting of its control, the others at their default (what a
#: lecturer gets); the figure must play at the speed asked for, to the last frame.
SPEED = {"skpca": max(ALL_SCHEMAS["skpca"]["skpca.speed"].options)}


def _speed(url_path):
    return SPEED.get(url_path, ALL_SCHEMAS[url_path][f"{url_path}.speed"].default)


@pytest.mark.parametrize("app_page", [p for p in PAGES if p.url_path in ANIMATED],
                         ids=[p.name for p in PAGES if p.url_path in ANIMATED])
def test_page_plays_steps_without_errors(streamlit_server, page, app_page):
    """An animated page opens without an error; at the speed it is opened at (the default,
    or the fastest setting for sparse KPCA), Play runs client-side to the end and Pause
    stops it; Step advances."""
    name = app_page.url_path
    log_websocket_sends(page)
    query = f"{name}.speed={SPEED[name]}" if name in SPEED else ""
    open_app_page(page, streamlit_server.base, app_page, query)
    assert_no_errors(page, f"{app_page.name} on load")
    assert page.locator("h1").count() >= 1, f"{app_page.name} has no title"
    graphs = animated_graphs(page, wait_ms=PAGE_TIMEOUT_MS)
    # a page without an animation must not grow one untested (and an animated one keeps it)
    assert bool(graphs) == (name in ANIMATED), (
        f"{app_page.name}: Play buttons on figures {graphs}; ANIMATED = {sorted(ANIMATED)}")
    # the speed control reaches the figure
    assert animation_state(page, graphs[0])["frame_ms"] == int(1000 / _speed(name))
    if name == "skpca":
        assert len(animation_state(page, graphs[0])["frames"]) >= 10, "too few frames to play"
    for g in graphs:
        assert_plays_client_side_and_pauses(page, g, f"{app_page.name}, figure {g} at "
                                                     f"{_speed(name)} frames/s")

    n_step = step_buttons(page).count()
    for i in range(n_step):
        before = step_counter(page)
        assert before is not None, f"{app_page.name} has a Step button but no step counter"
        step_buttons(page).nth(i).click()
        wait_for_app(page)
        wait_for_charts(page)
        assert_no_errors(page, f"{app_page.name} after Step")
        after = step_counter(page)
        assert after == (min(before[0] + 1, before[1]), before[1]), (before, after)

    if WHOLE:
        full_screenshot(page, SCREENSHOTS / f"{app_page.name}.png")
    assert_no_errors(page, f"{app_page.name} at the end")


def test_every_page_asks_only_its_own_server(streamlit_server, page):
    """Nothing is fetched from anywhere but the app's server while every page opens and
    draws (plotly.js, fonts, icons, the tab's icon included): a lecture hall may be offline,
    and a student's browser has no reason to call a third party."""
    own = urlsplit(streamlit_server.base)
    elsewhere = []

    def check(request):
        url = urlsplit(request.url)
        if url.scheme in ("data", "blob", "about"):
            return
        if (url.scheme, url.hostname, url.port) != (own.scheme, own.hostname, own.port):
            elsewhere.append(request.url)

    page.on("request", check)
    for app_page in PAGES:
        open_app_page(page, streamlit_server.base, app_page)
        assert_no_errors(page, app_page.name)
    assert not elsewhere, f"requests to other servers: {sorted(set(elsewhere))}"


def _page(url_path):
    return next(p for p in PAGES if p.url_path == url_path)


def _skpca():
    return _page("skpca")


# ---------------------------------------------------------------- URL, link, downloads


def choose(page, label, option):
    """Pick ``option`` (its name, any case) in the sidebar selectbox labelled ``label``."""
    box = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]', has_text=label)
    choose_option(page, box.get_by_role("combobox"),
                  lambda texts: [t.strip().lower() for t in texts].index(option.lower()))


def chosen_text(page):
    return page.get_by_text(re.compile(r"^Chosen so far:")).inner_text()


def test_skpca_classroom_link_shows_students_the_same_view(streamlit_server, page):
    """The lecturer changes the kernel, hides it, copies the link: students see the same run."""
    open_app_page(page, streamlit_server.base, _skpca(), "seed=2&k=9")
    choose(page, "Kernel", "laplacian")
    step_buttons(page).first.click()
    wait_for_app(page)
    lecturer = chosen_text(page)
    page.get_by_text("Classroom link").click()
    box = page.locator('[data-testid="stExpander"]', has_text="Classroom link")
    box.get_by_text("Kernel", exact=True).click()
    # the link is written by the run the click starts: wait for it (read at once, it can be
    # the link before the click, when that run has not begun yet)
    expect(box.locator("code").last).to_contain_text(re.compile(r"[?&]hide=[^&]*kernel"))
    wait_for_app(page)
    link = box.locator("code").last.inner_text().strip()
    assert link.startswith(streamlit_server.base + "/skpca?"), link
    params = dict(parse_qsl(urlsplit(link).query))
    assert "kernel" in params.get("hide", "").split(","), params
    assert params.get("seed") == "2" and params.get("k") == "9", params

    student = page.context.new_page()
    student.goto(link)
    wait_for_app(student)
    wait_for_charts(student)
    assert not exceptions_on(student)
    sidebar = student.locator('[data-testid="stSidebar"]')
    expect(sidebar.locator('[data-testid="stSelectbox"]', has_text="Data set")).to_have_count(1)
    expect(sidebar.locator('[data-testid="stSelectbox"]', has_text="Kernel")).to_have_count(0)
    assert step_counter(student) == step_counter(page) == (2, 9)  # the step is in the link too
    assert chosen_text(student) == lecturer
    student.close()


def test_skpca_downloads_hold_the_shown_run(streamlit_server, page):
    open_app_page(page, streamlit_server.base, _skpca(), "k=5")
    for _ in range(4):
        step_buttons(page).first.click()
        wait_for_app(page)
    assert step_counter(page) == (5, 5)
    shown = page.get_by_text(re.compile(r"^Chosen so far:")).inner_text().split(":", 1)[1]
    shown = [int(t) for t in shown.split(",")]

    with page.expect_download() as info:
        page.get_by_role("button", name="Table as CSV").click()
    rows = list(csv.DictReader(io.StringIO(info.value.path().read_text())))
    assert [int(r["index"]) for r in rows] == shown

    with page.expect_download() as info:
        page.get_by_role("button", name="Run as JSON").click()
    payload = json.loads(info.value.path().read_text())
    assert payload["table"]["index"] == shown
    assert payload["settings"].get("k") == 5


def _reset_to_defaults(page, address):
    """Click "Reset all controls" on a sparse-KPCA page opened with k=7 and seed=4; once the
    page at ``address`` (a regex) has drawn, it is on step 1 of the default k, seed 0.
    Returns the sidebar."""
    page.get_by_role("link", name=re.compile("Reset all controls")).click()
    page.wait_for_url(re.compile(address))
    wait_for_app(page)
    wait_for_charts(page)
    assert_no_errors(page, "skpca after reset")
    j, default_steps = step_counter(page)
    assert j == 1 and default_steps != 7
    sidebar = page.locator('[data-testid="stSidebar"]')
    seed = sidebar.locator('[data-testid="stNumberInput"]', has_text="Seed").locator("input")
    assert seed.input_value() == "0"
    return sidebar


def test_skpca_reset_link_of_a_classroom_link_returns_to_that_link(streamlit_server, page):
    """In a classroom link, Reset goes back to the lecturer's values (not the defaults), with
    the same controls hidden."""
    open_app_page(page, streamlit_server.base, _skpca(), "seed=4&k=7&hide=test")
    step_buttons(page).first.click()
    wait_for_app(page)
    assert step_counter(page) == (2, 7)
    page.get_by_role("link", name=re.compile("Reset all controls")).click()
    page.wait_for_url(re.compile(r"/skpca\?(?=.*seed=4)(?=.*k=7)(?=.*hide=test)"))
    wait_for_app(page)
    wait_for_charts(page)
    assert_no_errors(page, "skpca after reset")
    assert step_counter(page) == (1, 7)
    sidebar = page.locator('[data-testid="stSidebar"]')
    seed = sidebar.locator('[data-testid="stNumberInput"]', has_text="Seed").locator("input")
    assert seed.input_value() == "4"
    expect(sidebar.locator('[data-testid="stSlider"]', has_text="Sparsity k")).to_have_count(1)
    expect(sidebar.locator('[data-testid="stSlider"]', has_text="Test fraction")).to_have_count(0)


def test_skpca_reset_link_without_hiding_restores_defaults(streamlit_server, page):
    """The reset link without hidden controls is the page's bare address, which within a
    session keeps the view (navigation); the link reloads the page, a new session, so it
    still resets every control."""
    open_app_page(page, streamlit_server.base, _skpca(), "seed=4&k=7")
    _reset_to_defaults(page, r"/skpca\?(?!.*seed=4)(?=.*seed=0)")


def test_skpca_break_it_link_explains_and_warns(streamlit_server, page):
    open_app_page(page, streamlit_server.base, _skpca())
    page.locator('[data-testid="stSidebar"]').get_by_role(
        "link", name="Rank-deficient kernel").click()
    page.wait_for_url(re.compile(r"[?&]kernel=linear(&|$)"))  # the preset's complete state
    wait_for_app(page)
    wait_for_charts(page)
    assert_no_errors(page, "skpca after a Break it link")
    expect(page.locator('[data-testid="stAlert"]', has_text="Stopped early")).to_have_count(1)
    j, n_steps = step_counter(page)
    assert n_steps == 2  # a linear kernel on 2-D data has rank 2
