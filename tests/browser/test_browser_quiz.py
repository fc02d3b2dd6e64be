"""In a real browser: the quiz takes a guess from a click on a data point and reveals the step."""

from __future__ import annotations

import re

import pytest

from browser_util import (
    PHONE_USER_AGENT,
    app_pages,
    exceptions_on,
    wait_for_app,
    wait_for_charts,
)
from layout_check import check_layout, figure_parts, overlapping

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAGES = {p.name: p for p in app_pages()}

#: Centre (page coordinates) of point ``i`` of the figure's first trace (the training points).
_POINT_JS = """(i) => {
  const gd = document.querySelector('.mp-chart .js-plotly-plot');
  const pt = gd.querySelectorAll('.scatterlayer .trace')[0].querySelectorAll('.point')[i];
  const r = pt.getBoundingClientRect();
  return {x: r.left + r.width / 2, y: r.top + r.height / 2};
}"""


def _settle(pg):
    wait_for_app(pg)
    wait_for_charts(pg)


def test_click_a_point_then_reveal_the_greedy_choice(streamlit_server, page):
    page.goto(PAGES["skpca"].url(streamlit_server.base, "n=60&k=6&skpca.quiz=true"))
    _settle(page)
    guess_box = page.locator(".st-key-skpca-quiz-box input[type=number]")
    assert guess_box.input_value() == ""  # no guess until the student chooses one
    # the first chosen point is ringed; click another one, well inside the panel
    chosen = page.evaluate("""() => {
      const gd = document.querySelector('.mp-chart .js-plotly-plot');
      const [pts, ring] = [gd._fullData[0], gd._fullData[1]];
      return [...pts.x].findIndex((x, i) => x === ring.x[0] && pts.y[i] === ring.y[0]); }""")
    target = 7 if chosen != 7 else 8
    page.locator('.mp-chart .js-plotly-plot').first.scroll_into_view_if_needed()
    xy = page.evaluate(_POINT_JS, target)
    page.mouse.click(xy["x"], xy["y"])
    page.wait_for_function(
        "(v) => { const e = document.querySelector('.st-key-skpca-quiz-box input[type=number]');"
        " return e && e.value === v; }", arg=str(target), timeout=60_000)
    _settle(page)
    page.locator(".st-key-skpca-quiz-box button", has_text="Reveal step 2").click()
    page.wait_for_function("() => new URL(location.href).searchParams.get('j') === '2'",
                           timeout=60_000)
    _settle(page)
    box = page.locator(".st-key-skpca-quiz-box").inner_text()
    assert f"you guessed i = {target}" in box
    assert re.search(r"score: [01] of 1 right", box)
    assert not exceptions_on(page)
    assert not page.page_errors


#: Page coordinates of the training point farthest (in pixels) from every other drawn point,
#: with its training index (customdata) — a click there cannot land on a neighbour.
_KMP_TARGET_JS = """() => {
  const gd = document.querySelector('.mp-chart .js-plotly-plot');
  const fl = gd._fullLayout, box = gd.getBoundingClientRect();
  const px = (x, y) => [box.left + fl.xaxis._offset + fl.xaxis.l2p(x),
                        box.top + fl.yaxis._offset + fl.yaxis.l2p(y)];
  const train = [], others = [];
  gd._fullData.forEach((t) => {
    if (t.type !== 'scatter' || t.visible !== true || !t.x) return;
    const isTrain = /^class /.test(t.name) && !/test/.test(t.name);
    for (let i = 0; i < t.x.length; i++) {
      if (t.x[i] === null) continue;
      const p = px(t.x[i], t.y[i]);
      (isTrain ? train : others).push({p, i: isTrain ? t.customdata[i] : -1});
    }
  });
  const all = train.concat(others);
  let best = null;
  for (const a of train) {
    const [w, h] = [fl.xaxis._length, fl.yaxis._length];
    const [u, v] = [a.p[0] - box.left - fl.xaxis._offset, a.p[1] - box.top - fl.yaxis._offset];
    if (u < 20 || v < 20 || u > w - 20 || v > h - 20) continue;
    let near = Infinity;
    for (const b of all) if (b !== a) near = Math.min(near, Math.hypot(a.p[0] - b.p[0], a.p[1] - b.p[1]));
    if (!best || near > best.near) best = {x: a.p[0], y: a.p[1], i: a.i, near};
  }
  return best;
}"""


def test_click_a_kmp_point_then_reveal_the_pursuit_choice(streamlit_server, page):
    # a projector's window: the quiz box is a narrow column beside the figure
    page.set_viewport_size(dict(width=1280, height=720))
    page.goto(PAGES["kmp"].url(streamlit_server.base, "n=60&k=5&kmp.quiz=true"))
    _settle(page)
    box = ".st-key-kmp-quiz-box"
    assert page.locator(f"{box} input[type=number]").input_value() == ""
    # the figure in the column beside the quiz (about 590 px): the legend in rows above the
    # plot, which keeps most of the width; the slider's "step j = 1", the buttons, the colour
    # bar and the legend apart from each other and from the tick labels
    parts = figure_parts(page)
    plot, fig = parts["plot"], parts["figure"]
    assert fig["right"] - fig["left"] < 700, parts  # the narrow column this checks
    # the plot keeps most of the width, or, with one unit as long across as up, the whole
    # height its domain gives it (the height is what limits it then)
    fills_height = page.evaluate("""() => {
      const fl = document.querySelector('.mp-chart .js-plotly-plot')._fullLayout;
      const d = fl.yaxis.domain;
      return Math.abs(fl.yaxis._length - fl._size.h * (d[1] - d[0])) < 1
        && Math.abs(Math.abs(fl.xaxis._m) - Math.abs(fl.yaxis._m)) < 1e-3 * Math.abs(fl.xaxis._m);
    }""")
    assert fills_height or plot["right"] - plot["left"] >= 0.75 * (fig["right"] - fig["left"]), (
        parts)
    assert parts["legend"]["bottom"] <= plot["top"], parts
    for part in ("legend", "colour bar", "buttons", "slider", "slider label"):
        assert parts[part] is not None, (part, parts)
    assert not overlapping(parts), overlapping(parts)
    page.locator('.mp-chart .js-plotly-plot').first.scroll_into_view_if_needed()
    target = page.evaluate(_KMP_TARGET_JS)
    assert target
    page.mouse.click(target["x"], target["y"])
    page.wait_for_function(
        "([sel, v]) => { const e = document.querySelector(sel + ' input[type=number]');"
        " return e && e.value === v; }", arg=[box, str(target["i"])], timeout=60_000)
    _settle(page)
    page.locator(f"{box} button", has_text="Reveal step 2").click()
    page.wait_for_function("() => new URL(location.href).searchParams.get('j') === '2'",
                           timeout=60_000)
    _settle(page)
    text = page.locator(box).inner_text()
    assert f"you guessed i = {target['i']}, the pursuit added" in text
    assert "Collinearity with the residue" in text and "chosen " in text
    assert re.search(r"score: [01] of 1 right", text)
    assert not exceptions_on(page)
    assert not page.page_errors
    # the reveal in that column: no text overflows its box, nothing overlaps (as every page)
    check_layout(page, "kmp_quiz_revealed", whole=False)


#: Page coordinates of training point ``i`` of the data panel (the first trace).
_DATA_POINT_JS = """(i) => {
  const gd = document.querySelector('.mp-chart .js-plotly-plot');
  const fl = gd._fullLayout, box = gd.getBoundingClientRect(), t = gd._fullData[0];
  return {x: box.left + fl.xaxis._offset + fl.xaxis.l2p(t.x[i]),
          y: box.top + fl.yaxis._offset + fl.yaxis.l2p(t.y[i])};
}"""

#: The quiz box's and the data panel's plot area's places in the window.
_PLACES_JS = """() => {
  const q = document.querySelector('.st-key-skpca-quiz-box').getBoundingClientRect();
  const gd = document.querySelector('.mp-chart .js-plotly-plot');
  const fl = gd._fullLayout, g = gd.getBoundingClientRect();
  return {quiz: {top: q.top, bottom: q.bottom, left: q.left, right: q.right},
          plot: {top: g.top + fl.yaxis._offset, bottom: g.top + fl.yaxis._offset + fl.yaxis._length,
                 left: g.left + fl.xaxis._offset, right: g.left + fl.xaxis._offset + fl.xaxis._length},
          height: innerHeight};
}"""


def test_the_quiz_on_a_phone_one_tap_selects_and_the_box_is_in_view(streamlit_server, browser):
    from browser_util import SCREENSHOTS, wait_for_fit

    ctx = browser.new_context(viewport=dict(width=390, height=844), device_scale_factor=1,
                              has_touch=True, is_mobile=True, user_agent=PHONE_USER_AGENT)
    page = ctx.new_page()
    page.page_errors = []
    page.on("pageerror", lambda exc: page.page_errors.append(str(exc)))
    try:
        page.goto(PAGES["skpca"].url(streamlit_server.base, "n=60&k=6&skpca.quiz=true"))
        wait_for_fit(page, content=".mp-chart .main-svg")
        box = ".st-key-skpca-quiz-box"
        assert page.locator(f"{box} input[type=number]").input_value() == ""
        assert page.get_by_role("button", name="Reveal step 2").is_disabled()
        # the box and the data panel on the screen together
        page.evaluate(f"() => document.querySelector('{box}').scrollIntoView({{block: 'start'}})")
        places = page.evaluate(_PLACES_JS)
        assert -1 <= places["quiz"]["top"] and places["plot"]["bottom"] <= places["height"], places
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "quiz_phone_390x844.png"))
        # one tap on a point makes it the guess
        xy = page.evaluate(_DATA_POINT_JS, 7)
        page.touchscreen.tap(xy["x"], xy["y"])
        page.wait_for_function(
            "(sel) => { const e = document.querySelector(sel + ' input[type=number]');"
            " return e && e.value === '7'; }", arg=box, timeout=60_000)
        _settle(page)
        page.get_by_role("button", name="Reveal step 2").tap()
        page.wait_for_function("() => new URL(location.href).searchParams.get('j') === '2'",
                               timeout=60_000)
        _settle(page)
        assert "you guessed i = 7" in page.locator(box).inner_text()
        assert not exceptions_on(page)
        assert not page.page_errors
    finally:
        ctx.close()


def test_the_quiz_sits_beside_the_figure_on_a_desktop(streamlit_server, page):
    page.set_viewport_size(dict(width=1280, height=720))
    page.goto(PAGES["skpca"].url(streamlit_server.base, "n=60&k=6&skpca.quiz=true"))
    _settle(page)
    places = page.evaluate(_PLACES_JS)
    quiz, plot = places["quiz"], places["plot"]
    assert quiz["left"] >= plot["right"], places  # beside, not under
    assert quiz["top"] < places["height"] and quiz["bottom"] > plot["top"], places
