"""What the browser tests of view state share: small starting views, settling, fingerprints."""

from __future__ import annotations

import json
from urllib.parse import parse_qsl, urlsplit

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from browser_util import app_pages, wait_for_app, wait_for_charts

PAGES = {p.name: p for p in app_pages()}
#: Data sets the random walk may switch to (the large tables are covered by the AppTest suite).
QUICK_DATA = ("moons", "circles", "blobs", "xor", "spirals", "sine", "far_cluster", "boston",
              "diabetes")
#: Small starting sizes so that every step of the walk draws in a second or two.
START = {"skpca": {"n": "120"}, "kmp": {"n": "120", "k": "10"}, "spectrum": {"dataset": "moons",
         "n": "120"}, "kcca": {"kcca.n": "120"}, "bounds": {"dataset": "moons", "n": "120"}}


def query_of(url: str) -> dict:
    return dict(parse_qsl(urlsplit(url).query, keep_blank_values=True))


def settle(pg, content="h1"):
    wait_for_app(pg, content=content)
    wait_for_charts(pg)


def open_list(pg, combo, attempts=4):
    """Open a selectbox's list and return it. Under a full parallel test run the list once
    stayed closed for 90 s after the click (the page settled, nothing raised): a click that
    opens nothing is tried again (Escape, settle, click) before failing as playwright does."""
    listbox = pg.locator('[role="listbox"]:visible')
    for _ in range(attempts):
        combo.click()
        if combo.get_attribute("aria-expanded") != "true":
            combo.press("ArrowDown")  # react-aria opens its list from the keyboard too
        try:
            listbox.first.wait_for(state="visible", timeout=10_000)
            return listbox
        except PlaywrightTimeout:
            pg.keyboard.press("Escape")
            settle(pg)
    listbox.first.wait_for(state="visible")
    return listbox


def choose_option(pg, combo, pick, attempts=3) -> str:
    """Open a selectbox's list, click the option ``pick(texts)`` names (its index) and settle;
    returns the option's text.

    The options are read in one call, and the list is opened again if it closed between
    reading and clicking: under a full parallel run (CI, 2 cores) a list once closed after its
    options were counted, and reading the third one waited 90 s for nothing. ``pick`` is
    called once, so a seeded draw always picks the same option."""
    texts: list[str] = []
    index = None
    for attempt in range(attempts):
        options = open_list(pg, combo).first.locator('[role="option"]')
        texts = texts or options.all_inner_texts()
        if index is None and texts:
            index = pick(texts)
        if index is not None:
            try:
                options.nth(index).click(timeout=10_000)
                settle(pg)
                return texts[index]
            except PlaywrightTimeout:
                if attempt == attempts - 1:
                    raise
        pg.keyboard.press("Escape")
        settle(pg)
    raise AssertionError(f"the selectbox's list stayed empty after {attempts} tries")


_FINGERPRINT_JS = """() => {
  const round = (v) => typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v;
  const plain = (v) => (ArrayBuffer.isView(v) ? Array.from(v, round)
                        : Array.isArray(v) ? v.map(plain) : round(v));
  const gd = document.querySelector('.mp-chart .js-plotly-plot');
  // the traces as plotly.js resolved them (what is drawn): the figure the server sends has
  // plain arrays, and a step taken in the browser merges a frame's typed array into them
  const src = gd && (gd._fullData || gd.data);
  const traces = src ? src.map((t, i) => [(gd.data[i] && gd.data[i].name) || '',
                                          plain(t.x || null), plain(t.y || null)]) : null;
  let tl = null;
  for (const host of [document, ...[...document.querySelectorAll('*')].map(e => e.shadowRoot)
                      .filter(Boolean)]) {
    const el = host.querySelector('.tl');
    if (el) { tl = [el.dataset.step, el.innerText]; break; }
  }
  const active = gd && gd.layout && gd.layout.sliders && gd.layout.sliders[0]
                 ? gd.layout.sliders[0].active : null;
  return JSON.stringify({traces, tl, active});
}"""


def fingerprint(pg) -> dict:
    return json.loads(pg.evaluate(_FINGERPRINT_JS))
