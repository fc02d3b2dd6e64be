"""In a real browser: a copied link reproduces the view exactly, and Play/Pause/Step share one timeline.

For every page with a view state, a seeded random sequence of what a lecturer
does (switch data set, pick first or other options, move sliders, flip
toggles, press Step, open a preset, hide controls with a classroom link and
keep changing the visible ones) is applied; the address is then opened in a
fresh browser context, which must show the same state object (parsed by the
page's schema) and the same figure and chosen indices.
"""

from __future__ import annotations

import random
from urllib.parse import urlencode

import pytest
from browser_util import (
    exceptions_on,
)
from browser_views import (PAGES, QUICK_DATA, START, choose_option, fingerprint, query_of,
                           settle)

from pages.common.schemas import ALL_SCHEMAS

pytestmark = pytest.mark.browser

#: One seeded walk per page (each walk is 6 actions, a classroom link and a fresh browser).
SEEDS = (1,)


def sidebar(pg):
    return pg.locator('[data-testid="stSidebar"]')


def _visible(loc) -> list:
    return [loc.nth(i) for i in range(loc.count()) if loc.nth(i).is_visible()]


def act(pg, rng: random.Random, name: str) -> str:
    """One random lecturer action; returns what it did (for the failure message)."""
    side = sidebar(pg)
    kinds = ["select", "slider", "slider", "toggle"]
    step_button = pg.get_by_role("button", name="Step ▶")
    if name in ("skpca", "kmp", "kcca") and step_button.count() and step_button.first.is_visible():
        kinds += ["step", "step"]  # (a comparison view, e.g. a Figure 6 preset, has no Step)
    if _visible(side.locator('a[target="_self"]')) and name != "bounds":
        kinds.append("preset")
    kind = rng.choice(kinds)
    if kind == "select":
        boxes = _visible(side.locator('[data-testid="stSelectbox"]'))
        if not boxes:
            return "no selectbox"
        box = rng.choice(boxes)
        label = box.locator('[data-testid="stWidgetLabel"]').inner_text().strip()

        def draw(texts):
            ok = [i for i, t in enumerate(texts) if label != "Data set" or t in QUICK_DATA]
            return 0 if rng.random() < 0.3 and 0 in ok else rng.choice(ok)

        chosen = choose_option(pg, box.locator('[role="combobox"]'), draw)
        done = f"{label} = {chosen}"
    elif kind == "slider":
        # Streamlit's sliders are <input type="range"> (implicit ARIA role slider)
        sliders = _visible(side.get_by_role("slider"))
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
    done = [act(page, rng, name) for _ in range(4)]
    # a classroom link: hide two controls that apply, keep their values, continue on the rest
    now = query_of(page.url)
    state, _ = schema.from_query(now)
    hide = rng.sample([k for k in schema.controls() if k in state and k != "dataset"], 2)
    page.goto(PAGES[name].url(streamlit_server.base, urlencode({**now, "hide": ",".join(hide)},
                                                               safe=",:;")))
    settle(page)
    done += [f"hide {hide}"] + [act(page, rng, name) for _ in range(2)]
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


def _numbers(pg) -> str:
    """The timeline's per-step text (the numbers of the step shown)."""
    return fingerprint(pg)["tl"][1]


def test_quick_changes_all_count_and_back_and_forward_move_through_the_views(
        streamlit_server, browser, page):
    """τ moved twice faster than a run: both moves count, and the view, the slider and the
    address agree (the second move is sent with the address from before the first
    one's run). The browser's Back and Forward then step through the views it showed."""
    schema = ALL_SCHEMAS["kcca"]
    page.goto(PAGES["kcca"].url(streamlit_server.base, urlencode(START["kcca"])))
    settle(page)
    sliders = sidebar(page).get_by_role("slider")
    tau = next(sliders.nth(i) for i in range(sliders.count())
               if sliders.nth(i).get_attribute("aria-valuetext") == "0.001")
    seen = {}
    seen[1e-3] = _numbers(page)
    tau.focus()
    tau.press("ArrowRight")
    tau.press("ArrowRight")  # before the first move's run has answered
    settle(page)
    assert schema.from_query(query_of(page.url))[0]["kcca.reg"] == 0.1
    assert tau.get_attribute("aria-valuetext") == "0.1"
    seen[0.1] = _numbers(page)
    other = page.context.new_page()
    other.goto(page.url)
    settle(other)
    assert _numbers(other) == seen[0.1]
    other.close()

    tau.focus()
    tau.press("ArrowLeft")
    settle(page)
    seen[0.01] = _numbers(page)
    assert len(set(seen.values())) == 3  # three τ, three sets of numbers
    for move, reg in ((page.go_back, 0.1), (page.go_forward, 0.01), (page.go_back, 0.1),
                      (page.go_back, None)):
        move()
        settle(page)
        at = schema.from_query(query_of(page.url))[0]["kcca.reg"]
        # one Back before 0.1: 0.01, or 0.001 if the first quick move's run was cut short
        # by the second before it wrote its address
        assert at == reg if reg is not None else at in (1e-3, 0.01), (move, reg, at)
        assert tau.get_attribute("aria-valuetext") == f"{at:g}"
        assert _numbers(page) == seen[at]


@pytest.mark.parametrize("name", ["kmp", "spectrum"])
def test_leaving_a_page_by_the_sidebar_and_coming_back_keeps_its_view(streamlit_server, page,
                                                                     name):
    """Streamlit's navigation opens a page at its bare address (no query): within a session
    the page shows the view it was left in, not its defaults, and writes it back to the
    address; the figure is the same."""
    schema = ALL_SCHEMAS[name]
    changed = {"kmp": {"dataset": "circles", "k": "7"},
               "spectrum": {"dataset": "circles", "k": "30"}}[name]
    page.goto(PAGES[name].url(streamlit_server.base, urlencode({**START[name], **changed})))
    settle(page)
    left, _ = schema.from_query(query_of(page.url))
    for key, value in changed.items():
        assert str(left[key]) == value, (key, left[key])
    seen = fingerprint(page)
    nav = page.locator('[data-testid="stSidebarNav"]')
    nav.get_by_role("link", name="Home").click()
    settle(page)
    assert query_of(page.url) == {}
    nav.get_by_role("link", name=PAGES[name].title).click()
    settle(page)
    back, _ = schema.from_query(query_of(page.url))
    assert back == left, (left, back)
    assert fingerprint(page) == seen
    assert not exceptions_on(page)
