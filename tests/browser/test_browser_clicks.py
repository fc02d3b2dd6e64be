"""In a real browser: points added by clicking stop at the cap, and a click on a point says so."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
from browser_util import app_pages, exceptions_on, wait_for_app, wait_for_charts

from pages.common.state import MAX_POINTS

pytestmark = pytest.mark.browser

PAGES = {p.name: p for p in app_pages()}

#: Page coordinates of a point of the click-to-add chart: ``[trace, i]`` (trace 0 is the grid).
_AT_JS = """([trace, i]) => {
  const gd = [...document.querySelectorAll('.js-plotly-plot')]
    .find(g => g.data && g.data[0] && g.data[0].name === 'click here');
  const fl = gd._fullLayout, box = gd.getBoundingClientRect(), t = gd._fullData[trace];
  return {x: box.left + fl.xaxis._offset + fl.xaxis.l2p(t.x[i]),
          y: box.top + fl.yaxis._offset + fl.yaxis.l2p(t.y[i])};
}"""


def _points(url):
    raw = parse_qs(urlparse(url).query).get("pts", [""])[0]
    return [p for p in raw.split(";") if p]


def _open_clicker(page, base, pts):
    page.goto(PAGES["skpca"].url(base, f"dataset=moons&n=60&k=4&pts={pts}"))
    wait_for_app(page)
    wait_for_charts(page)
    page.get_by_text("Add points by clicking").click()
    page.wait_for_function("() => [...document.querySelectorAll('.js-plotly-plot')]"
                           ".some(g => g.data && g.data[0] && g.data[0].name === 'click here')",
                           timeout=90_000)
    wait_for_app(page)
    chart = page.locator(".js-plotly-plot").last
    chart.scroll_into_view_if_needed()


def test_a_click_past_the_cap_adds_nothing_and_the_link_keeps_the_view(streamlit_server, page):
    full = ";".join(f"{0.005 * i:.3f}:2.5:{i % 2}" for i in range(MAX_POINTS))
    _open_clicker(page, streamlit_server.base, full)
    assert len(_points(page.url)) == MAX_POINTS
    xy = page.evaluate(_AT_JS, [0, 0])  # the grid's corner: no point there
    page.mouse.click(xy["x"], xy["y"])
    page.get_by_text(f"{MAX_POINTS} points have been added").wait_for(timeout=90_000)
    wait_for_app(page)
    assert len(_points(page.url)) == MAX_POINTS
    assert "201 added" not in page.inner_text("body")
    assert not exceptions_on(page)


def test_a_click_on_a_data_point_adds_nothing_and_says_so(streamlit_server, page):
    _open_clicker(page, streamlit_server.base, "")
    xy = page.evaluate(_AT_JS, [1, 0])  # a point of the data (class 0's first)
    page.mouse.click(xy["x"], xy["y"])
    page.get_by_text("There is a point there already").wait_for(timeout=90_000)
    wait_for_app(page)
    assert _points(page.url) == []
    assert not exceptions_on(page)
