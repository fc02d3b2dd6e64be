"""In a real browser: Play/Pause/Step share one timeline; saved runs and offline copies hold the view."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from browser_util import wait_for_app, wait_for_charts
from browser_views import _FINGERPRINT_JS, PAGES, START, fingerprint, query_of, settle

from pages.common.schemas import ALL_SCHEMAS

pytestmark = pytest.mark.browser

# ---------------------------------------------------------------- one timeline

_PAUSE_AT_JS = """([target]) => {
  const gd = document.querySelector('.mp-chart .js-plotly-plot');
  gd.on('plotly_animatingframe', (e) => {
    if (String(e && e.name) !== target || window.__mpPaused) return;
    window.__mpPaused = true;
    const pause = [...gd.querySelectorAll('.updatemenu-button')]
      .find(b => b.textContent.includes('Pause'));
    setTimeout(() => pause.dispatchEvent(new MouseEvent('click', {bubbles: true})), 0);
  });
  const play = [...gd.querySelectorAll('.updatemenu-button')]
    .find(b => b.textContent.includes('Play'));
  play.dispatchEvent(new MouseEvent('click', {bubbles: true}));
}"""


#: Mark the page's chart element, and whether the chart element is still the one marked.
_MARK_CHART_JS = """([page]) => {
  document.querySelector(`.st-key-${page}-figure .js-plotly-plot`).__mpMarked = true;
}"""
_SAME_CHART_JS = """([page]) => {
  const gd = document.querySelector(`.st-key-${page}-figure .js-plotly-plot`);
  return !!gd && gd.__mpMarked === true;
}"""


def counter_text(pg) -> str:
    return fingerprint(pg)["tl"][1].splitlines()[0]


@pytest.mark.parametrize("name", ["skpca", "kmp", "kcca"])
def test_play_pause_step_and_link_share_one_timeline(streamlit_server, browser, page, name):
    page.goto(PAGES[name].url(streamlit_server.base, urlencode({**START[name], "j": "1"})))
    settle(page)
    n = int(counter_text(page).rsplit(" ", 1)[1])
    target = min(5, n - 1)
    page.evaluate(_MARK_CHART_JS, [name])
    page.evaluate(_PAUSE_AT_JS, [str(target)])
    # the pause is reported once; the page stores the step in its state and the URL
    page.wait_for_function("([t]) => new URL(location.href).searchParams.get('j') === t",
                           arg=[str(target)], timeout=60_000)
    settle(page)
    assert counter_text(page) == f"Step {target} of {n}"
    fp = fingerprint(page)
    assert fp["active"] == target - 1  # the figure's own slider is on the same step
    lines = fp["tl"][1]
    # Step ▶ moves the counter and the figure in the task of the click itself (in the
    # browser; the whole sequence of steps, keys and late answers is the skpca test below)
    now = step_now(page, name)
    assert counter_text_of(now) == f"Step {target + 1} of {n}"
    assert now["frame"] == str(target + 1) and now["fp"]["active"] == target
    page.wait_for_function("([t]) => new URL(location.href).searchParams.get('j') === t",
                           arg=[str(target + 1)], timeout=60_000)
    settle(page)
    # the page's answers to the pause and to the step keep the chart element the browser
    # moved itself: Streamlit mounts a new one, drawn from scratch, when the figure's JSON
    # changes (pages.common.timeline.figure_step)
    assert page.evaluate(_SAME_CHART_JS, [name])
    assert counter_text(page) == f"Step {target + 1} of {n}"
    assert fingerprint(page)["tl"][1] != lines  # the equations' numbers moved on too
    assert fingerprint(page)["active"] == target
    _download_holds_this_view(page)

    fresh = browser.new_context(viewport=dict(width=1280, height=900))
    try:
        other = fresh.new_page()
        other.goto(page.url)
        settle(other)
        assert counter_text(other) == f"Step {target + 1} of {n}"
        assert fingerprint(other) == fingerprint(page)
    finally:
        fresh.close()


#: In one task (no message from the server can be handled before it returns): press the
#: page's step button ``suffix`` (or, with ``key``, the keyboard shortcut) ``times`` times,
#: then read the counter, the figure's current frame and the slider.
_STEP_NOW_JS = """([page, suffix, times, key]) => {
  const gd = document.querySelector(`.st-key-${page}-figure .js-plotly-plot`);
  const fingerprint = %s;
  for (let i = 0; i < times; i++) {
    if (key) document.body.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true}));
    else document.querySelector(`.st-key-${page}-${suffix} button`).click();
  }
  return {fp: JSON.parse(fingerprint()), frame: gd._fullLayout._currentFrame};
}""" % _FINGERPRINT_JS

#: Hold every message the page sends to the server (the server learns nothing), or send
#: the held ones in order and stop holding.
_HOLD_JS = """() => {
  const send = WebSocket.prototype.send;
  const held = [];
  WebSocket.prototype.send = function (data) { held.push([this, data]); };
  window.__mpRelease = () => {
    WebSocket.prototype.send = send;
    for (const [ws, data] of held) send.call(ws, data);
    return held.length;
  };
}"""

#: Logs, at every animation frame from now on, the step the counter and the figure's
#: slider show (a figure element not drawn yet, or hidden, is not seen).
_WATCH_JS = """([page]) => {
  if (window.__mpSteps) window.__mpSteps.stop = true;
  const log = window.__mpSteps = {counter: [], slider: [], stop: false};
  let tl = null;
  for (const host of [document, ...[...document.querySelectorAll('*')].map(e => e.shadowRoot)
                      .filter(Boolean)]) { tl = tl || host.querySelector('.tl'); }
  const push = (list, v) => { if (list[list.length - 1] !== v) list.push(v); };
  const sample = () => {
    if (log.stop) return;
    push(log.counter, Number(tl.dataset.step));
    const gd = document.querySelector(`.st-key-${page}-figure .js-plotly-plot`);
    const sl = gd && gd.layout && gd.layout.sliders && gd.layout.sliders[0];
    if (sl && gd._fullLayout && gd.querySelector('.main-svg') && gd.style.visibility !== 'hidden') {
      push(log.slider, sl.active + 1);
    }
    requestAnimationFrame(sample);
  };
  sample();
}"""


def step_now(pg, name: str, suffix: str = "next", times: int = 1, key: str = "") -> dict:
    return pg.evaluate(_STEP_NOW_JS, [name, suffix, times, key])


_DRAWN_JS = """([page, j]) => {
  const gd = document.querySelector(`.st-key-${page}-figure .js-plotly-plot`);
  const sl = gd && gd.layout && gd.layout.sliders && gd.layout.sliders[0];
  const ok = !!sl && sl.active === j - 1 && gd.style.visibility !== 'hidden'
    && gd._fullLayout && gd._fullLayout._currentFrame === String(j)
    && !gd._transitionData._animationRaf;
  return ok && (%s)();
}""" % _FINGERPRINT_JS


def drawn_step(pg, name: str, j: int) -> dict:
    """The fingerprint of the view once the figure has drawn step ``j`` (an animation already
    running when a step was pressed draws it at its next frame)."""
    handle = pg.wait_for_function(_DRAWN_JS, arg=[name, j], polling="raf", timeout=60_000)
    return json.loads(handle.json_value())


def wait_for_j(pg, j: int):
    """The page has stored step ``j`` (a later step may be held back on purpose)."""
    pg.wait_for_function("([t]) => new URL(location.href).searchParams.get('j') === t",
                         arg=[str(j)], timeout=60_000)
    wait_for_app(pg, steps=False)
    wait_for_charts(pg)


def _monotone(seq: list, up: bool) -> bool:
    return all((b >= a) if up else (b <= a) for a, b in zip(seq, seq[1:]))


#: The timeline's JavaScript is one component shared by the three animated pages (the
#: play/pause test above checks a Step at once on each); its whole step sequence runs here.
@pytest.mark.parametrize("name", ["skpca"])
def test_step_buttons_move_the_view_in_the_browser_before_the_server_answers(
        streamlit_server, page, name):
    page.goto(PAGES[name].url(streamlit_server.base, urlencode({**START[name], "j": "1"})))
    settle(page)
    n = int(counter_text(page).rsplit(" ", 1)[1])
    assert n >= 6
    # Step ▶: counter, numbers and figure show step 2 in the task of the click itself, and
    # the figure draws it while the server has not even been told of the click
    page.evaluate(_HOLD_JS)
    now = step_now(page, name)
    assert counter_text_of(now) == f"Step 2 of {n}"
    assert now["fp"]["tl"][0] == "2"
    assert now["frame"] == "2" and now["fp"]["active"] == 1
    drawn = drawn_step(page, name, 2)
    assert page.evaluate("() => window.__mpRelease()") >= 1  # the click's message, held
    # the server stores the same step (URL), and its redrawn view is the one already shown
    wait_for_j(page, 2)
    assert fingerprint(page) == drawn

    # three fast clicks: the counter moves one step a click at once (the figure at its next
    # frame); then one more click the server is told of only after it has answered the
    # three: its answer (step 5) leaves the view on step 6, which the server then stores
    page.evaluate(_WATCH_JS, [name])
    now = step_now(page, name, times=3)
    assert counter_text_of(now) == f"Step 5 of {n}"
    page.evaluate(_HOLD_JS)
    now = step_now(page, name)
    assert counter_text_of(now) == f"Step 6 of {n}"
    wait_for_j(page, 5)
    assert counter_text(page) == f"Step 6 of {n}"
    assert drawn_step(page, name, 6)["tl"] == now["fp"]["tl"]
    assert page.evaluate("() => window.__mpRelease()") >= 1
    wait_for_j(page, 6)
    log = page.evaluate("() => window.__mpSteps")
    assert _monotone(log["counter"], up=True), log  # never back to an older step
    assert counter_text(page) == f"Step 6 of {n}" and fingerprint(page)["active"] == 5

    # ◀ Back from the keyboard, then Last ▶▶ and ⟲ Reset, each at once in the browser
    now = step_now(page, name, key="ArrowLeft")
    assert counter_text_of(now) == f"Step 5 of {n}" and now["frame"] == "5"
    assert drawn_step(page, name, 5)["active"] == 4
    now = step_now(page, name, "last")
    assert counter_text_of(now) == f"Step {n} of {n}"
    assert drawn_step(page, name, n)["active"] == n - 1
    page.evaluate(_WATCH_JS, [name])
    now = step_now(page, name, "reset_step")
    assert counter_text_of(now) == f"Step 1 of {n}"
    assert drawn_step(page, name, 1)["active"] == 0
    wait_for_j(page, 1)
    log = page.evaluate("() => window.__mpSteps")
    # from the frame after the click on, only step 1 is counted
    assert log["counter"][1:] in ([], [1]) and log["slider"][-1] == 1, log
    assert fingerprint(page)["active"] == 0

    # ▶ Play after a Step continues from the step shown: its first frame is the next one
    step_now(page, name, times=2)
    wait_for_j(page, 3)
    page.evaluate("""() => {
      const gd = document.querySelector('.mp-chart .js-plotly-plot');
      window.__mpPlayed = [];
      gd.on('plotly_animatingframe', (e) => window.__mpPlayed.push(e.name));
    }""")
    page.evaluate(_PAUSE_AT_JS, ["4"])
    wait_for_j(page, 4)
    assert page.evaluate("() => window.__mpPlayed")[0] == "4"
    assert counter_text(page) == f"Step 4 of {n}"


def counter_text_of(now: dict) -> str:
    return now["fp"]["tl"][1].splitlines()[0]


# ---------------------------------------------------------------- saved runs


@pytest.mark.parametrize("name", ["skpca", "bounds"])
def test_json_download_holds_the_state_and_reopens_the_view(streamlit_server, browser, page,
                                                            tmp_path, name):
    schema = ALL_SCHEMAS[name]
    start = {**START[name], "dataset": "circles", "seed": "4"}
    page.goto(PAGES[name].url(streamlit_server.base, urlencode(start)))
    settle(page)
    if name == "skpca":
        page.get_by_role("button", name="Step ▶").click()
        settle(page)
    state, _ = schema.from_query(query_of(page.url))
    with page.expect_download() as info:
        page.get_by_role("button", name="Run as JSON").click()
    payload = json.loads(info.value.path().read_text())
    assert payload["page"] == name
    assert schema.from_settings(payload["settings"])[0] == state  # the complete state
    assert schema.from_query(query_of(payload["link"]))[0] == state
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps(payload))
    seen = fingerprint(page)

    fresh = browser.new_context(viewport=dict(width=1280, height=900))
    try:
        other = fresh.new_page()
        other.goto(PAGES[name].url(streamlit_server.base, urlencode(START[name])))
        settle(other)
        assert schema.from_query(query_of(other.url))[0] != state
        uploader = other.locator('[data-testid="stFileUploader"]').filter(
            has_text="Open a saved run")
        uploader.locator('input[type="file"]').set_input_files(str(saved))
        other.wait_for_function("([ds]) => new URL(location.href).searchParams.get('seed') === ds",
                                arg=["4"], timeout=60_000)
        settle(other)
        assert schema.from_query(query_of(other.url))[0] == state
        assert fingerprint(other) == seen
    finally:
        fresh.close()


# ---------------------------------------------------------------- offline copy and QR code


def _download_holds_this_view(page):
    """"Download animation" (checked on the play/pause test's page, at the step it shows):
    one standalone file with the frames and this step's numbers as plain text."""
    lines = fingerprint(page)["tl"][1].splitlines()
    with page.expect_download() as info:
        page.get_by_role("button", name="Download animation (offline HTML)").click()
    html = info.value.path().read_text(encoding="utf-8")
    assert "<script src=" not in html.replace("<script src=\"data:", "")  # nothing fetched
    assert html.count('"name":"1"') + html.count('"name": "1"') >= 1  # the frames
    # the numbers of the page's current step are in the file, as plain text
    assert lines[-1] in html, lines[-1]


def test_classroom_link_has_a_qr_code(streamlit_server, page):
    page.goto(PAGES["skpca"].url(streamlit_server.base, urlencode(START["skpca"])))
    settle(page)
    page.get_by_text("Classroom link: choose what students can change").click()
    img = page.locator('[data-testid="stImage"] img').first
    img.wait_for(state="visible")
    assert img.bounding_box()["width"] >= 300  # large enough to project
