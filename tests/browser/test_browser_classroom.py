"""In a real browser: the classroom-link builder and a student's link.

- Opened at a loopback address (the lecturer's own machine), the builder warns that no phone
  can open its link, and the address students open, typed in, becomes the link's and the QR
  code's address.
- A link too long for a QR code says so instead of failing.
- Screenshots at 1280x720 and 390x844 (under screenshots/classroom/, git-ignored) to look at.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_util import exceptions_on, new_page
from browser_views import PAGES, settle

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "screenshots" / "classroom"
SMALL = "dataset=moons&n=120&k=8"


def _open_builder(pg):
    pg.get_by_text("Classroom link: choose what students can change").click()
    settle(pg)
    pg.get_by_label("Address students open", exact=True).and_(pg.get_by_role("textbox")).wait_for()


def _link(pg) -> str:
    box = pg.locator('[data-testid="stCode"]').filter(has_text="?dataset=")
    return box.first.inner_text().strip()


@pytest.mark.parametrize("size", [(1280, 720), (390, 844)])
def test_a_loopback_link_is_warned_about_and_the_hall_address_replaces_it(
        streamlit_server, shared_context, size):
    pg = new_page(shared_context, size)
    try:
        pg.goto(PAGES["skpca"].url(streamlit_server.base, SMALL))
        settle(pg)
        _open_builder(pg)
        assert _link(pg).startswith("http://127.0.0.1:")
        warning = pg.get_by_text("this computer's own address")
        assert warning.count() == 1
        field = pg.get_by_label("Address students open", exact=True).and_(pg.get_by_role("textbox"))
        field.fill("192.168.1.20:8080")
        field.press("Enter")
        pg.wait_for_timeout(300)
        settle(pg)
        link = _link(pg)
        assert link.startswith("http://192.168.1.20:8080/skpca?"), link
        assert pg.get_by_text("this computer's own address").count() == 0
        qr = pg.locator('[data-testid="stImage"] img')
        qr.first.wait_for()
        # the whole code, quiet zone included, inside its expander (a camera needs all of it)
        img = qr.first.bounding_box()
        panel = pg.locator('[data-testid="stExpander"]', has_text="Classroom link").first
        box = panel.bounding_box()
        assert img["x"] >= box["x"] and img["x"] + img["width"] <= box["x"] + box["width"] + 1
        SHOTS.mkdir(parents=True, exist_ok=True)
        pg.locator('[data-testid="stCode"]').filter(has_text="?dataset=").first \
            .scroll_into_view_if_needed()
        pg.screenshot(path=str(SHOTS / f"builder-{size[0]}x{size[1]}.png"))
        assert not exceptions_on(pg)
    finally:
        pg.close()


def test_a_link_too_long_for_a_qr_code_says_so(streamlit_server, page):
    pts = ";".join(f"{0.1 + i / 997:.3f}:{-0.4 - i / 991:.3f}:{i % 2}" for i in range(200))
    page.goto(PAGES["skpca"].url(streamlit_server.base, f"{SMALL}&pts={pts}"))
    settle(page)
    _open_builder(page)
    assert page.get_by_text("too long for a QR code").count() == 1
    assert not exceptions_on(page)


STUDENT = "dataset=circles&n=120&k=8&sigma=1.5&seed=4&hide=dataset,kernel,sigma,noise,n,seed,std"


@pytest.mark.parametrize("size", [(1280, 720), (390, 844)])
def test_a_student_link_keeps_what_the_lecturer_hid(streamlit_server, shared_context, size):
    pg = new_page(shared_context, size)
    try:
        pg.goto(PAGES["skpca"].url(streamlit_server.base, STUDENT))
        settle(pg)
        side = pg.locator('[data-testid="stSidebar"]')
        if size[0] < 600:
            pg.locator('[data-testid="stExpandSidebarButton"], '
                       '[data-testid="stSidebarCollapsedControl"] button').first.click()
            pg.wait_for_timeout(500)
        # no preset that changes the data set or the kernel, no empty "Data" heading (the
        # "Kernel" heading stays: the test fraction and k under it are shown)
        assert side.get_by_text("Width too small").count() == 0
        assert side.get_by_text("Duplicate points").count() == 0
        headings = side.locator("h3").all_inner_texts()
        assert "Data" not in headings, headings
        SHOTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SHOTS / f"student-{size[0]}x{size[1]}.png"))
        reset = pg.get_by_text("Reset all controls to the classroom link")
        href = reset.get_attribute("href")
        assert all(part in href for part in STUDENT.split("&")), href
        assert not exceptions_on(pg)
    finally:
        pg.close()


def test_a_hidden_upload_asks_for_the_file_by_name(streamlit_server, page):
    page.goto(PAGES["skpca"].url(streamlit_server.base,
                                 "dataset=csv+upload&hide=dataset&file=wine.csv&target=target"))
    settle(page, content='[data-testid="stFileUploader"]')
    side = page.locator('[data-testid="stSidebar"]')
    assert side.get_by_text("upload wine.csv").count() >= 1
    assert not exceptions_on(page)
