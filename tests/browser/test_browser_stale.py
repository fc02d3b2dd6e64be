"""In a real browser: while a control change recomputes, the old figure says it is stale.

Streamlit marks an element left from the previous run ``data-stale="true"`` until the new
run sends it again; the app's style (pages/common/fit.py) draws "⟳ Recomputing" over
such a figure. A MutationObserver records every moment a figure was marked stale, with
the label's text and the script's state at that moment, so the check does not depend on
how long the recomputation takes (the label shows only after 0.8 s; its text is set from
the first moment). One page load, one control change.
"""

from __future__ import annotations

import pytest

from browser_util import (
    app_pages,
    exceptions_on,
    wait_for_app,
    wait_for_charts,
)

pytestmark = pytest.mark.browser

PAGES = {p.name: p for p in app_pages()}

#: Every figure container and its label: (stale, label text, the script's state).
_FIGURES_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return [...document.querySelectorAll('[data-testid="stElementContainer"]')]
    .filter((e) => e.querySelector('.js-plotly-plot'))
    .map((e) => ({stale: e.dataset.stale === 'true',
                  label: getComputedStyle(e, '::after').content,
                  state: app.dataset.testScriptState}));
}"""

_OBSERVE_JS = """(figures) => {
  window.__staleSeen = [];
  const look = () => {
    for (const f of figures()) if (f.stale) window.__staleSeen.push(f);
  };
  window.__staleObserver = new MutationObserver(look);
  window.__staleObserver.observe(document.body, {subtree: true, childList: true,
                                                 attributes: true,
                                                 attributeFilter: ['data-stale',
                                                                   'data-test-script-state']});
}"""


def test_recomputing_label_marks_the_old_figure_during_the_rerun(streamlit_server, page):
    page.goto(PAGES["kmp"].url(streamlit_server.base, "n=80&k=8"))
    wait_for_app(page)
    wait_for_charts(page)
    before = page.evaluate(_FIGURES_JS)
    assert before and not any(f["stale"] for f in before)
    assert all(f["label"] in ("none", "normal") for f in before)

    page.evaluate(f"() => ({_OBSERVE_JS})({_FIGURES_JS})")
    # a new fitting: the pursuit is fitted again and the figure rebuilt before it is sent
    box = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]',
                       has_text="Fitting").locator("input")
    box.click()
    page.keyboard.type("back-fitting")
    page.keyboard.press("Enter")
    page.wait_for_function("() => new URL(location.href).searchParams.get('kmp.fitting')"
                           " === 'backfit'", timeout=60_000)
    wait_for_app(page)
    wait_for_charts(page)
    seen = page.evaluate("() => { window.__staleObserver.disconnect(); return window.__staleSeen; }")

    assert seen, "the figure was never marked stale while the page recomputed"
    assert all("Recomputing" in f["label"] for f in seen)
    assert any(f["state"] == "running" for f in seen)
    after = page.evaluate(_FIGURES_JS)
    assert after and not any(f["stale"] for f in after)
    assert not any("Recomputing" in f["label"] for f in after)
    assert not exceptions_on(page)
    assert not page.page_errors
