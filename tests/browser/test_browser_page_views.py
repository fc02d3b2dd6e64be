"""In a real browser: each page keeps its own view when the person comes back to it by the
sidebar, and the "reset to the new defaults" note appears only after a change of data set made
on that page."""

from __future__ import annotations

import pytest
from browser_util import exceptions_on
from browser_views import PAGES, query_of, settle

pytestmark = pytest.mark.browser


def _go(pg, title: str):
    pg.locator('[data-testid="stSidebarNav"]').get_by_text(title, exact=True).first.click()
    pg.wait_for_timeout(300)
    settle(pg)


TITLES = {p.name: p.title for p in PAGES.values()}


@pytest.mark.parametrize("first,query,other", [
    ("skpca", "dataset=circles&n=120&j=4", "kmp"),
    ("skpca", "dataset=moons&n=120&sigma=1.5", "bounds"),
    ("kmp", "dataset=circles&n=120&k=10&j=3", "skpca"),
])
def test_a_page_keeps_its_view_across_page_switches(streamlit_server, page, first, query, other):
    pg = page
    pg.goto(PAGES[first].url(streamlit_server.base, query))
    settle(pg)
    before = query_of(pg.url)
    for key, value in (kv.split("=") for kv in query.split("&")):
        assert before[key] == value, (key, before)
    _go(pg, TITLES[other])
    assert f"/{PAGES[other].url_path}" in pg.url
    _go(pg, TITLES[first])
    after = query_of(pg.url)
    assert after == before, f"{first} came back as {after}, left as {before}"
    assert pg.get_by_text("Reset to the new defaults").count() == 0
    assert not exceptions_on(pg)
