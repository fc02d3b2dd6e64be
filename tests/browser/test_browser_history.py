"""In a real browser: Back and Forward step through views the person saw settle.

Streamlit adds a history entry for every address a run writes; the page keeps one only for
a view that stayed on screen (pages/common/history.py): slider notches passed in a row, a
burst of Steps and a page's bare address during a page switch add no entry of their own,
while every view that was left on screen for a while does, and Back shows it.
"""

from __future__ import annotations

import pytest
from browser_util import exceptions_on
from browser_views import PAGES, query_of, settle

pytestmark = pytest.mark.browser

#: Longer than pages.common.history.SETTLE_MS: a view left this long has settled.
DWELL_MS = 2200


def _length(pg) -> int:
    return pg.evaluate("history.length")


def _dwell(pg):
    settle(pg)
    pg.wait_for_timeout(DWELL_MS)


def _k_index(pg) -> int:
    labels = pg.locator('[data-testid="stSidebar"] [data-testid="stSlider"]').all_inner_texts()
    return next(i for i, t in enumerate(labels) if t.startswith("Sparsity k"))


def test_slider_notches_and_page_switches_leave_one_entry_per_settled_view(
        streamlit_server, page):
    pg = page
    pg.goto(PAGES["skpca"].url(streamlit_server.base, "dataset=moons&n=120&k=8"))
    _dwell(pg)
    first = query_of(pg.url)
    start = _length(pg)
    slider = pg.locator('[data-testid="stSidebar"] [data-testid="stSlider"]').nth(
        _k_index(pg)).get_by_role("slider")
    for _ in range(4):  # four notches in a row, each a run of its own
        slider.press("ArrowRight")
        pg.wait_for_timeout(150)
    _dwell(pg)
    moved = query_of(pg.url)
    assert moved["k"] == "12", moved
    assert _length(pg) == start + 1, f"{_length(pg) - start} entries for one settled view"

    # a page switch: the other page's view is one entry; Back shows the view left here
    pg.locator('[data-testid="stSidebarNav"]').get_by_text(PAGES["kmp"].title,
                                                          exact=True).first.click()
    _dwell(pg)
    assert "/kmp" in pg.url and query_of(pg.url)
    kmp = query_of(pg.url)
    assert _length(pg) == start + 2
    pg.go_back()
    _dwell(pg)
    assert "/skpca" in pg.url and query_of(pg.url) == moved, pg.url
    pg.go_back()
    _dwell(pg)
    assert query_of(pg.url).get("k") == first["k"] == "8", pg.url
    pg.go_forward()
    _dwell(pg)
    assert query_of(pg.url) == moved
    pg.go_forward()
    _dwell(pg)
    assert "/kmp" in pg.url and query_of(pg.url) == kmp
    assert not exceptions_on(pg)


def test_a_change_right_after_back_keeps_the_view_back_showed(streamlit_server, page):
    pg = page
    pg.goto(PAGES["skpca"].url(streamlit_server.base, "dataset=moons&n=120&k=8"))
    _dwell(pg)
    slider = pg.locator('[data-testid="stSidebar"] [data-testid="stSlider"]').nth(
        _k_index(pg)).get_by_role("slider")
    slider.press("ArrowRight")
    _dwell(pg)
    slider.press("ArrowRight")
    _dwell(pg)
    assert query_of(pg.url)["k"] == "10"
    pg.go_back()
    settle(pg)
    assert query_of(pg.url)["k"] == "9"
    slider = pg.locator('[data-testid="stSidebar"] [data-testid="stSlider"]').nth(
        _k_index(pg)).get_by_role("slider")
    slider.press("ArrowLeft")  # at once: the view Back showed keeps its entry
    _dwell(pg)
    assert query_of(pg.url)["k"] == "8"
    pg.go_back()
    settle(pg)
    assert query_of(pg.url)["k"] == "9", pg.url
    assert not exceptions_on(pg)



def test_a_burst_of_steps_leaves_one_entry(streamlit_server, page):
    pg = page
    pg.goto(PAGES["skpca"].url(streamlit_server.base, "dataset=moons&n=120&k=8"))
    _dwell(pg)
    start = _length(pg)
    step = pg.get_by_role("button", name="Step ▶").first
    for j in (2, 3, 4):
        step.click()
        pg.wait_for_function("(j) => new URL(location.href).searchParams.get('j') === j",
                             arg=str(j))
    _dwell(pg)
    assert query_of(pg.url)["j"] == "4"
    assert _length(pg) == start + 1, f"{_length(pg) - start} entries for one settled view"
    pg.go_back()
    settle(pg)
    assert query_of(pg.url)["j"] == "1", pg.url
    assert not exceptions_on(pg)


#: The rule's settle time in the tests of the rule alone below (short: they wait it out).
RULE_SETTLE = 300
#: Longer than RULE_SETTLE, with room for a slow browser.
LONG = 700


def _rule(pg, streamlit_server):
    """pages/common/history.js on a plain page of the server's origin (no Streamlit page
    around it), with its component call as ``window.call(data)``."""
    from pages.common.assets import asset

    pg.goto(f"{streamlit_server.base}/_stcore/health")
    script = asset("history.js").replace("export default function",
                                         "window.call = function (data) { return f({ data }); }"
                                         "; function f", 1)
    pg.add_script_tag(content=script)
    pg.evaluate("call({ settle: %d, started: 1 })" % RULE_SETTLE)


def _push(pg, j) -> None:
    pg.evaluate("(j) => history.pushState(null, '', '?j=' + j)", j)


def _counts(pg) -> tuple[int, int]:
    return tuple(pg.evaluate("[__mpHistory.pushes, __mpHistory.replaced]"))


def test_a_view_left_at_once_gets_no_entry_however_late_the_next_address(
        streamlit_server, page):
    """The rule alone: what counts is when the person left a view (an input, or the next
    full run's start), not when a slow server wrote the next address."""
    pg = page
    _rule(pg, streamlit_server)
    start = pg.evaluate("history.length")
    _push(pg, 1)  # the first view
    pg.evaluate("call({ settle: %d, ended: 1 })" % RULE_SETTLE)
    pg.wait_for_timeout(LONG)
    assert _counts(pg) == (1, 0)
    # seen for longer than the settle time, then a key: the next address is an entry
    pg.keyboard.press("ArrowRight")
    _push(pg, 2)
    assert _counts(pg) == (2, 0)
    pg.evaluate("call({ settle: %d, started: 2, ended: 2 })" % RULE_SETTLE)
    # the next full run starts at once (notches queued); its address comes late
    pg.evaluate("call({ settle: %d, started: 3 })" % RULE_SETTLE)
    pg.wait_for_timeout(LONG)
    _push(pg, 3)
    assert _counts(pg) == (2, 1), "a view the next run left at once got an entry"
    # a tap right after the view's push (a Step on a fragment), its answer late
    pg.mouse.click(5, 5)
    pg.wait_for_timeout(LONG)
    _push(pg, 4)
    assert _counts(pg) == (2, 2), "a view tapped away at once got an entry"
    # no input and no full run (a slow play): a view on screen long enough keeps its entry
    pg.wait_for_timeout(LONG)
    _push(pg, 5)
    assert _counts(pg) == (3, 2)
    # a full run that wrote no address does not make the view look left early
    pg.evaluate("call({ settle: %d, started: 4 })" % RULE_SETTLE)
    pg.evaluate("call({ settle: %d, ended: 4 })" % RULE_SETTLE)
    pg.wait_for_timeout(LONG)
    pg.keyboard.press("ArrowLeft")
    _push(pg, 6)
    assert _counts(pg) == (4, 2)
    assert pg.evaluate("history.length") == start + 4
