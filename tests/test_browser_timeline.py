"""In a real browser: Play/Pause/Step share one timeline; saved runs and offline copies hold the view."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from browser_views import PAGES, START, fingerprint, query_of, settle

from pages.common.schemas import ALL_SCHEMAS

pytestmark = pytest.mark.browser

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
