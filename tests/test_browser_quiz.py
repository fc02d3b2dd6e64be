"""In a real browser: the quiz takes a guess from a click on a data point and reveals the step."""

from __future__ import annotations

import re

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

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAGES = {p.name: p for p in app_pages()}

#: Centre (page coordinates) of point ``i`` of the figure's first trace (the training points).
_POINT_JS = """(i) => {
  const gd = document.querySelector('[data-testid="stPlotlyChart"] .js-plotly-plot');
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
    assert guess_box.input_value() == "0"
    # the first chosen point is ringed; click another one, well inside the panel
    chosen = page.evaluate("""() => {
      const gd = document.querySelector('[data-testid="stPlotlyChart"] .js-plotly-plot');
      const [pts, ring] = [gd._fullData[0], gd._fullData[1]];
      return [...pts.x].findIndex((x, i) => x === ring.x[0] && pts.y[i] === ring.y[0]); }""")
    target = 7 if chosen != 7 else 8
    page.locator('[data-testid="stPlotlyChart"] .js-plotly-plot').first.scroll_into_view_if_needed()
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
