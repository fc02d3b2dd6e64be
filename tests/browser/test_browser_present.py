"""In a real browser: presentation mode fits the animation on one screen at projector sizes."""

from __future__ import annotations

import pytest
from browser_util import SCREENSHOTS as SHOTS
from browser_util import (
    exceptions_on,
    new_page,
    wait_for_fit,
    wait_for_stable_layout,
)
from browser_play import (
    drop_interrupted_animation_errors,
)
from browser_views import PAGES
from layout_check import check_layout, figure_parts, overlapping

pytestmark = pytest.mark.browser

# ---------------------------------------------------------------- presentation mode

_GEOMETRY_JS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
                        return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const gd = document.querySelector('.mp-chart .js-plotly-plot');
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
def test_presentation_mode_fits_the_animation_on_one_screen(streamlit_server, shared_context,
                                                            name, size):
    w, h = size
    pg = new_page(shared_context, size)
    try:
        pg.goto(PAGES[name].url(streamlit_server.base, "present=true"))
        # the window's height is reported once, then the figure is sized to it
        wait_for_fit(pg, content='.mp-chart .main-svg')
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
        # and nothing truncated or overlapping, as test_browser_layout checks every page: the
        # figure is resized to the window, and its colour bar, buttons and slider keep their
        # places (no colour bar over an axis title, a tick label, the buttons or the slider)
        wait_for_stable_layout(pg)
        check_layout(pg, f"{name}_{w}x{h}_present", whole=False)
        if name == "kmp":
            _check_kmp_surface(pg, w, h)
        # the keyboard drives the same timeline: → steps, Home goes back to the start
        pg.evaluate("() => document.activeElement && document.activeElement.blur()")
        pg.keyboard.press("ArrowRight")
        pg.wait_for_function("() => new URL(location.href).searchParams.get('j') === '2'",
                             timeout=60_000)
        pg.keyboard.press("Home")
        pg.wait_for_function("() => new URL(location.href).searchParams.get('j') === '1'",
                             timeout=60_000)
    finally:
        pg.close()


#: Least height (px) of the KMP decision surface's plot area in presentation mode, per window.
KMP_PLOT_HEIGHT = {(1280, 720): 300, (1920, 1080): 650}


def _check_kmp_surface(pg, w, h):
    """The decision surface takes the screen's height: its plot area is tall, and its legend,
    upright colour bar, buttons and slider are all on the screen, apart from each other."""
    parts = figure_parts(pg)
    plot = parts["plot"]
    assert plot["bottom"] - plot["top"] >= KMP_PLOT_HEIGHT[(w, h)], parts
    for part in ("figure", "plot", "legend", "colour bar", "buttons", "slider"):
        r = parts[part]
        assert r is not None, (part, parts)
        assert 0 <= r["top"] and r["bottom"] <= h and 0 <= r["left"] and r["right"] <= w, (
            part, r)
    # the colour bar stands under the legend, beside the plot area
    assert parts["colour bar"]["top"] >= parts["legend"]["bottom"], parts
    assert parts["colour bar"]["left"] >= plot["right"], parts
    # no "step j = ..." over the slider: the counter beside the figure shows the step
    assert parts["slider label"] is None, parts
    assert not overlapping(parts), overlapping(parts)


# ---------------------------------------------------------------- a lecture at 1280x720

#: Every equation and live number of the page, the Play speed, and how many units of the
#: data panel's x and y axes one pixel is.
_LECTURE_JS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; };
  let lines = [];
  for (const host of [document, ...[...document.querySelectorAll('*')].map(e => e.shadowRoot)
                      .filter(Boolean)]) lines = lines.concat([...host.querySelectorAll('.tl-line')]);
  const eqs = [...document.querySelectorAll('[data-testid="stMain"] .katex-display')]
    .filter(e => !e.closest('details'));
  const speed = [...document.querySelectorAll('[data-testid="stSlider"]')]
    .find(e => e.innerText.includes('Play speed'));
  const gd = document.querySelector('.mp-chart .js-plotly-plot'), fl = gd._fullLayout;
  return {lines: lines.map(box), equations: eqs.map(box), speed: speed ? box(speed) : null,
          px: [Math.abs(fl.xaxis._m), Math.abs(fl.yaxis._m)], height: innerHeight};
}"""

_PLAYING_JS = "() => !!(window.__mpTimeline && window.__mpTimeline.playing)"


@pytest.mark.parametrize("name", ["skpca", "kmp"])
def test_a_lecture_at_1280x720_shows_every_equation_the_speed_and_round_data(
        streamlit_server, shared_context, name):
    pg = new_page(shared_context, (1280, 720))
    try:
        pg.goto(PAGES[name].url(streamlit_server.base, "present=true"))
        wait_for_fit(pg, content='.mp-chart .main-svg')
        geo = pg.evaluate(_LECTURE_JS)
        # every equation with its live numbers on the screen, and the Play speed with them
        assert geo["lines"] and all(0 <= r["top"] and r["bottom"] <= geo["height"]
                                    for r in geo["lines"] + geo["equations"]), geo
        speed = geo["speed"]
        assert speed and 0 <= speed["top"] < speed["bottom"] <= geo["height"], geo
        # one unit of the data is as long across as up
        assert geo["px"][0] == pytest.approx(geo["px"][1], rel=1e-3), geo
        SHOTS.mkdir(exist_ok=True)
        pg.screenshot(path=str(SHOTS / f"lecture_{name}_1280x720.png"))
        # after a click on Step the focus is on it: space still plays (not Step again)
        pg.get_by_role("button", name="Step ▶", exact=True).click()
        pg.wait_for_function("() => new URL(location.href).searchParams.get('j') === '2'",
                             timeout=60_000)
        wait_for_fit(pg, content='.mp-chart .main-svg')
        pg.keyboard.press(" ")
        pg.wait_for_function(_PLAYING_JS, timeout=60_000)
        pg.wait_for_function("() => window.__mpTimeline.j >= 3", timeout=60_000)
        start = len(pg.page_errors)
        pg.keyboard.press(" ")  # and pauses
        pg.wait_for_function(f"() => !({_PLAYING_JS})()", timeout=60_000)
        drop_interrupted_animation_errors(pg, start)  # plotly's own, on a pause
        # → still steps with the focus on the timeline's buttons
        pg.wait_for_function("() => new URL(location.href).searchParams.get('j') !== '2'",
                             timeout=60_000)
        wait_for_fit(pg, content='.mp-chart .main-svg')
        at = int(pg.evaluate("() => new URL(location.href).searchParams.get('j')"))
        pg.get_by_role("button", name="◀ Back", exact=True).focus()
        pg.keyboard.press("ArrowRight")
        pg.wait_for_function(f"() => new URL(location.href).searchParams.get('j') === '{at + 1}'",
                             timeout=60_000)
        assert not exceptions_on(pg)
        assert not pg.page_errors
    finally:
        pg.close()


# ---------------------------------------------------------------- every equation on the screen

#: Every equation of the page's first tab: its box, whether an expander holds it, and the
#: font size KaTeX draws it at (pages/common/fit.js shrinks an equation wider than its column).
_EQUATIONS_JS = """() => [...document.querySelectorAll('[data-testid="stMain"] .katex-display')]
  .map(d => { const r = d.getBoundingClientRect(), k = d.querySelector(':scope > .katex');
              return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                      folded: !!d.closest('details'),
                      px: k ? parseFloat(getComputedStyle(k).fontSize) : 0}; })"""

#: How many equation blocks each page draws in presentation mode: KCCA's three groups
#: (greedy choice, deflation, regularised CCA), KMP's one (its fitting's rule).
EQUATION_BLOCKS = {"kcca": 3, "kmp": 1}
#: Smallest font size (px) of an equation a room reads from a projector: the page's body
#: text (16 px); an equation shrunk below it to fit a narrow column is unreadable there.
READABLE_PX = 16


@pytest.mark.parametrize("name", sorted(EQUATION_BLOCKS))
def test_every_equation_is_on_a_1280x720_screen_at_a_readable_size(streamlit_server,
                                                                  shared_context, name):
    """Presentation mode at 1280x720 (issue 66, item 4): every equation of KCCA (the CCA pair
    once fell below the fold, in a column too narrow to read) and of KMP (once in a folded
    expander) is on the screen, none in an expander, none shrunk below the body text."""
    w, h = 1280, 720
    pg = new_page(shared_context, (w, h))
    try:
        pg.goto(PAGES[name].url(streamlit_server.base, "present=true"))
        wait_for_fit(pg, content='.mp-chart .main-svg')
        wait_for_stable_layout(pg)
        eqs = pg.evaluate(_EQUATIONS_JS)
        assert len(eqs) == EQUATION_BLOCKS[name], eqs
        for r in eqs:
            assert not r["folded"], r
            assert 0 <= r["top"] and r["bottom"] <= h and 0 <= r["left"] and r["right"] <= w, r
            assert r["px"] >= READABLE_PX, r
        SHOTS.mkdir(exist_ok=True)
        pg.screenshot(path=str(SHOTS / f"present_equations_{name}_{w}x{h}.png"))
        assert not exceptions_on(pg)
    finally:
        pg.close()
