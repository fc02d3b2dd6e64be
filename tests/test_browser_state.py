"""In a real browser: a copied link reproduces the view exactly, and Play/Pause/Step share one timeline.

For every page with a view state, a seeded random sequence of what a lecturer
does (switch data set, pick first or other options, move sliders, flip
toggles, press Step, open a preset, hide controls with a classroom link and
keep changing the visible ones) is applied; the address is then opened in a
fresh browser context, which must show the same state object (parsed by the
page's schema) and the same figure and chosen indices.
"""

from __future__ import annotations

import json
import random
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest

from browser_util import (  # noqa: F401  (fixtures)
    app_pages,
    browser,
    exceptions_on,
    page,
    streamlit_server,
    wait_for_app,
    wait_for_charts,
)
from browser_util import SCREENSHOTS as SHOTS
from pages.common.schemas import ALL_SCHEMAS

pytestmark = pytest.mark.browser

PAGES = {p.name: p for p in app_pages()}
#: Data sets the random walk may switch to (the large tables are covered by the AppTest suite).
QUICK_DATA = ("moons", "circles", "blobs", "xor", "spirals", "sine", "far_cluster", "boston",
              "diabetes")
#: Small starting sizes so that every step of the walk draws in a second or two.
START = {"skpca": {"n": "120"}, "kmp": {"n": "120", "k": "10"}, "spectrum": {"dataset": "moons",
         "n": "120"}, "kcca": {"kcca.n": "120"}, "bounds": {"dataset": "moons", "n": "120"}}
SEEDS = (1, 2)


def query_of(url: str) -> dict:
    return dict(parse_qsl(urlsplit(url).query, keep_blank_values=True))


def settle(pg, content="h1"):
    wait_for_app(pg, content=content)
    wait_for_charts(pg)


_FINGERPRINT_JS = """() => {
  const round = (v) => typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v;
  const plain = (v) => (ArrayBuffer.isView(v) ? Array.from(v, round)
                        : Array.isArray(v) ? v.map(plain) : round(v));
  const gd = document.querySelector('[data-testid="stPlotlyChart"] .js-plotly-plot');
  const traces = gd && gd.data ? gd.data.map(t => [t.name || '', plain(t.x || null),
                                                   plain(t.y || null)]) : null;
  let tl = null;
  for (const host of [document, ...[...document.querySelectorAll('*')].map(e => e.shadowRoot)
                      .filter(Boolean)]) {
    const el = host.querySelector('.tl');
    if (el) { tl = [el.dataset.step, el.innerText]; break; }
  }
  const active = gd && gd.layout && gd.layout.sliders && gd.layout.sliders[0]
                 ? gd.layout.sliders[0].active : null;
  return JSON.stringify({traces, tl, active});
}"""


def fingerprint(pg) -> dict:
    return json.loads(pg.evaluate(_FINGERPRINT_JS))


def sidebar(pg):
    return pg.locator('[data-testid="stSidebar"]')


def _visible(loc) -> list:
    return [loc.nth(i) for i in range(loc.count()) if loc.nth(i).is_visible()]


def act(pg, rng: random.Random, name: str) -> str:
    """One random lecturer action; returns what it did (for the failure message)."""
    side = sidebar(pg)
    kinds = ["select", "slider", "slider", "toggle"]
    if name in ("skpca", "kmp", "kcca"):
        kinds += ["step", "step"]
    if _visible(side.locator('a[target="_self"]')) and name != "bounds":
        kinds.append("preset")
    kind = rng.choice(kinds)
    if kind == "select":
        boxes = _visible(side.locator('[data-testid="stSelectbox"]'))
        if not boxes:
            return "no selectbox"
        box = rng.choice(boxes)
        label = box.locator('[data-testid="stWidgetLabel"]').inner_text().strip()
        combo = box.locator('[role="combobox"]')
        combo.click()
        listbox = pg.locator('[role="listbox"]:visible')
        if combo.get_attribute("aria-expanded") != "true":
            combo.press("ArrowDown")  # react-aria opens its list from the keyboard too
        listbox.first.wait_for(state="visible")
        options = listbox.first.locator('[role="option"]')
        texts = [options.nth(i).inner_text() for i in range(options.count())]
        allowed = [i for i, t in enumerate(texts)
                   if label != "Data set" or t in QUICK_DATA]
        pick = 0 if rng.random() < 0.3 and 0 in allowed else rng.choice(allowed)
        options.nth(pick).click()
        done = f"{label} = {texts[pick]}"
    elif kind == "slider":
        sliders = _visible(side.locator('[role="slider"]'))
        if not sliders:
            return "no slider"
        slider = rng.choice(sliders)
        slider.focus()
        key = rng.choice(["ArrowRight", "ArrowLeft", "Home"])
        times = 1 if key == "Home" else rng.randint(1, 3)
        for _ in range(times):
            slider.press(key)
        done = f"slider {slider.get_attribute('aria-valuetext') or ''} {key} x{times}"
    elif kind == "toggle":
        toggles = _visible(side.locator('[data-testid="stCheckbox"] label'))
        if not toggles:
            return "no toggle"
        toggle = rng.choice(toggles)
        toggle.click()
        done = f"toggle {toggle.inner_text()}"
    elif kind == "step":
        for _ in range(rng.randint(1, 3)):
            pg.get_by_role("button", name="Step ▶").click()
            settle(pg)
        done = "step"
    else:
        links = _visible(side.locator('a[target="_self"]'))
        link = rng.choice(links)
        done = f"preset {link.inner_text()}"
        link.click()
        pg.wait_for_load_state()
    settle(pg)
    return done


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", list(START))
def test_random_changes_then_link_reproduces_the_view(streamlit_server, browser, page, name,
                                                      seed):
    schema = ALL_SCHEMAS[name]
    rng = random.Random(f"{name}-{seed}")
    page.goto(PAGES[name].url(streamlit_server.base, urlencode(START[name])))
    settle(page)
    done = [act(page, rng, name) for _ in range(5)]
    # a classroom link: hide two controls that apply, keep their values, continue on the rest
    now = query_of(page.url)
    state, _ = schema.from_query(now)
    hide = rng.sample([k for k in schema.controls() if k in state and k != "dataset"], 2)
    page.goto(PAGES[name].url(streamlit_server.base, urlencode({**now, "hide": ",".join(hide)},
                                                               safe=",:;")))
    settle(page)
    done += [f"hide {hide}"] + [act(page, rng, name) for _ in range(3)]
    assert not exceptions_on(page), (done, exceptions_on(page))

    link = page.url
    state, notes = schema.from_query(query_of(link))
    assert notes == [], (done, notes)  # the page writes a canonical, complete link
    assert set(hide) <= state.hidden
    seen = fingerprint(page)

    fresh = browser.new_context(viewport=dict(width=1280, height=900))
    try:
        other = fresh.new_page()
        other.goto(link)
        settle(other)
        assert not exceptions_on(other)
        again, _ = schema.from_query(query_of(other.url))
        assert again == state, (done, state, again)
        assert fingerprint(other) == seen, done
    finally:
        fresh.close()


# ---------------------------------------------------------------- one timeline

_PAUSE_AT_JS = """([target]) => {
  const gd = document.querySelector('[data-testid="stPlotlyChart"] .js-plotly-plot');
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


def counter_text(pg) -> str:
    return fingerprint(pg)["tl"][1].splitlines()[0]


@pytest.mark.parametrize("name", ["skpca", "kmp", "kcca"])
def test_play_pause_step_and_link_share_one_timeline(streamlit_server, browser, page, name):
    page.goto(PAGES[name].url(streamlit_server.base, urlencode({**START[name], "j": "1"})))
    settle(page)
    n = int(counter_text(page).rsplit(" ", 1)[1])
    target = min(5, n - 1)
    page.evaluate(_PAUSE_AT_JS, [str(target)])
    # the pause is reported once; the page stores the step in its state and the URL
    page.wait_for_function("([t]) => new URL(location.href).searchParams.get('j') === t",
                           arg=[str(target)], timeout=60_000)
    settle(page)
    assert counter_text(page) == f"Step {target} of {n}"
    fp = fingerprint(page)
    assert fp["active"] == target - 1  # the figure's own slider is on the same step
    lines = fp["tl"][1]
    page.get_by_role("button", name="Step ▶").click()
    page.wait_for_function("([t]) => new URL(location.href).searchParams.get('j') === t",
                           arg=[str(target + 1)], timeout=60_000)
    settle(page)
    assert counter_text(page) == f"Step {target + 1} of {n}"
    assert fingerprint(page)["tl"][1] != lines  # the equations' numbers moved on too
    assert fingerprint(page)["active"] == target

    fresh = browser.new_context(viewport=dict(width=1280, height=900))
    try:
        other = fresh.new_page()
        other.goto(page.url)
        settle(other)
        assert counter_text(other) == f"Step {target + 1} of {n}"
        assert fingerprint(other) == fingerprint(page)
    finally:
        fresh.close()


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


# ---------------------------------------------------------------- presentation mode

_GEOMETRY_JS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
                        return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const gd = document.querySelector('[data-testid="stPlotlyChart"] .js-plotly-plot');
  let tl = null;
  for (const host of [document, ...[...document.querySelectorAll('*')].map(e => e.shadowRoot)
                      .filter(Boolean)]) {
    tl = tl || host.querySelector('.tl-play');
  }
  const step = [...document.querySelectorAll('button')].find(b => b.innerText.trim() === 'Step ▶');
  const sidebar = document.querySelector('[data-testid="stSidebar"]');
  return {figure: gd && box(gd), play: tl && box(tl), step: step && box(step),
          plotlyPlay: gd && box(gd.querySelector('.updatemenu-button')),
          sidebar: sidebar ? sidebar.getBoundingClientRect().width : 0,
          width: innerWidth, height: innerHeight,
          overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth};
}"""


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["projector", "full-hd"])
@pytest.mark.parametrize("name", ["skpca", "kmp", "kcca"])
def test_presentation_mode_fits_the_animation_on_one_screen(streamlit_server, browser, name,
                                                            size):
    w, h = size
    context = browser.new_context(viewport=dict(width=w, height=h))
    try:
        pg = context.new_page()
        pg.goto(PAGES[name].url(streamlit_server.base, "present=true"))
        chart = '[data-testid="stPlotlyChart"] .main-svg'
        settle(pg, chart)
        pg.wait_for_timeout(500)  # the window's height is reported once, then the figure fits
        settle(pg, chart)
        geo = pg.evaluate(_GEOMETRY_JS)
        assert geo["sidebar"] == 0, geo  # hidden
        assert geo["overflow"] <= 0, geo
        for part in ("figure", "play", "step", "plotlyPlay"):
            r = geo[part]
            assert r is not None, (part, geo)
            assert 0 <= r["top"] and r["bottom"] <= h and 0 <= r["left"] and r["right"] <= w, (
                part, r, geo)
        assert not exceptions_on(pg)
        SHOTS.mkdir(exist_ok=True)
        pg.screenshot(path=str(SHOTS / f"present_{name}_{w}x{h}.png"))
        # the keyboard drives the same timeline: → steps, Home goes back to the start
        pg.evaluate("() => document.activeElement && document.activeElement.blur()")
        pg.keyboard.press("ArrowRight")
        pg.wait_for_function("() => new URL(location.href).searchParams.get('j') === '2'",
                             timeout=60_000)
        pg.keyboard.press("Home")
        pg.wait_for_function("() => new URL(location.href).searchParams.get('j') === '1'",
                             timeout=60_000)
    finally:
        context.close()


# ---------------------------------------------------------------- offline copy and QR code


@pytest.mark.parametrize("name", ["skpca", "kmp", "kcca"])
def test_download_animation_is_a_standalone_file_of_this_view(streamlit_server, page, name,
                                                              tmp_path):
    page.goto(PAGES[name].url(streamlit_server.base, urlencode({**START[name], "j": "3"})))
    settle(page)
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
