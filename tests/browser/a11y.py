"""Accessibility checks: WCAG 2.1 A and AA with axe-core, and the contrast of plot text.

:func:`check_accessibility` runs on a page opened in a real browser (by
tests/browser/test_browser_layout.py, on every page registered in app.py, at 1280 px wide,
with the viewport grown to the page's full height so that every element is on
screen and axe can compute its colours): axe-core (the npm package, installed
into ``.axe/`` on first use, see :func:`axe_script`) is injected, and
``axe.run(document, {runOnly: ['wcag2a', 'wcag2aa']})`` must find no violation of
impact serious or critical in the app's own content.

The app's own content
    Everything the app writes and styles: titles, text, captions, notes, tables,
    equations' text, widget labels, the theme's colours (``.streamlit/config.toml``:
    every text colour Streamlit uses, captions included, derives from it), the
    timeline component's HTML, and the plotly figures. axe does not measure the
    contrast of SVG text, so :func:`plot_text_below_contrast` does it for every text
    of every plotly figure (ticks, axis and colour-bar titles, legends, annotations,
    slider and buttons, point labels) against what lies behind it: at least 4.5:1,
    3:1 for large text (24 px, or 18.66 px bold), as WCAG 1.4.3 asks.

What remains inside Streamlit's own chrome (:data:`STREAMLIT_CHROME`, each a
violation of Streamlit's markup that the app cannot change; anything else fails):
    - ``list`` / ``listitem`` on the sidebar's page navigation
      (``ul[data-testid="stSidebarNavItems"]`` has ``div`` children between the list
      and its items);
    - ``scrollable-region-focusable`` on the ``pre`` of ``st.code`` (a code snippet
      wider than its box scrolls, and Streamlit gives the ``pre`` no ``tabindex``);
    - ``scrollable-region-focusable`` on ``.katex-display`` (``st.latex`` renders into
      a scrolling box without ``tabindex``; it fires only where an equation is wider
      than its column, which the page layout should avoid);
    - ``color-contrast`` on the syntax-highlighted tokens of ``st.code`` (keywords
      #1c83e1, strings #09ab3b, numbers #29b09d, comments #808495 on #f7f7f6: 2.2 to
      3.6:1): fixed colours of Streamlit's highlighter that no theme option reaches (the
      code's plain text is the theme's text colour and passes).
"""

from __future__ import annotations

import shutil
import subprocess

from browser_util import REPO_ROOT, skip_or_fail, wait_for_charts, wait_for_stable_layout

AXE_DIR = REPO_ROOT / ".axe"
AXE_JS = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
AXE_PACKAGE = "axe-core@4"
#: Tallest viewport (px) used to put a whole page on screen.
MAX_HEIGHT = 9000
SEVERE = ("serious", "critical")
#: Violations in Streamlit's own markup: (rule id, CSS selector the node matches).
STREAMLIT_CHROME = (
    ("list", '[data-testid="stSidebarNavItems"]'),
    ("listitem", '[data-testid="stSidebarNavItems"] *'),
    ("scrollable-region-focusable", '[data-testid="stCode"] pre, .stCode pre'),
    ("scrollable-region-focusable", ".katex-display"),
    ("color-contrast", '[data-testid="stCode"] .token, .stCode .token'),
)


def _install_axe():
    npm = shutil.which("npm")
    if npm is None:
        skip_or_fail("npm is missing (Debian: apt-get install -y npm); it installs axe-core",
                     "Accessibility tests")
    subprocess.run([npm, "install", "--prefix", str(AXE_DIR), "--no-save", "--no-package-lock",
                    "--no-audit", "--no-fund", "--loglevel=error", AXE_PACKAGE],
                   check=True, cwd=REPO_ROOT, timeout=300)


def axe_script() -> str:
    """Path of axe.min.js, installed with npm into ``.axe/`` (git-ignored) when missing."""
    if not AXE_JS.exists():
        _install_axe()
    assert AXE_JS.exists(), f"npm did not install {AXE_JS}"
    return str(AXE_JS)


def _whole_page_on_screen(page):
    """Grow the viewport to the page's height: Streamlit scrolls inside its main block, and
    axe leaves off-screen text out of its contrast check."""
    height = page.evaluate(
        """() => Math.max(...['[data-testid="stMain"]', '[data-testid="stAppViewContainer"]',
                              '[data-testid="stSidebarContent"]', 'body']
             .map(s => document.querySelector(s)).filter(Boolean).map(e => e.scrollHeight))""")
    page.set_viewport_size(dict(width=page.viewport_size["width"],
                                height=int(min(max(height, 720), MAX_HEIGHT))))
    wait_for_stable_layout(page)
    wait_for_charts(page)


_AXE_RUN = """async ([chrome, severe]) => {
  const r = await axe.run(document, {runOnly: ['wcag2a', 'wcag2aa'], resultTypes: ['violations']});
  const inChrome = (id, el) => chrome.some(([rule, sel]) => rule === id && el && el.matches(sel));
  return r.violations.flatMap(v => v.nodes.map(n => {
    const el = n.target.length === 1 ? document.querySelector(n.target[0]) : null;
    return {id: v.id, impact: n.impact || v.impact, help: v.help, target: n.target.join(' '),
            html: n.html.slice(0, 160), summary: (n.failureSummary || '').slice(0, 300),
            chrome: inChrome(v.id, el), inMain: !!(el && el.closest('[data-testid="stMain"]'))};
  })).filter(n => severe.includes(n.impact));
}"""


def axe_violations(page, axe_js):
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=axe_js)
    return page.evaluate(_AXE_RUN, [list(STREAMLIT_CHROME), list(SEVERE)])


def _describe(nodes):
    return "\n".join(f"- {n['id']} ({n['impact']}): {n['target']}\n    {n['html']}\n    {n['summary']}"
                     for n in nodes)


# ---------------------------------------------------------------- plotly's SVG text

#: Every visible text of every plotly figure: its colour, size, weight and the colour
#: behind it (annotation box, legend box, button, a bar it sits inside, else the plot's
#: paper), each composited over the page's white.
_PLOT_TEXT = """() => {
  const parse = (c) => {
    const m = /rgba?\\(([^)]+)\\)/.exec(c || '');
    if (!m) return null;
    const p = m[1].split(',').map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => {
    if (!top) return under;
    const a = top[3];
    return [0, 1, 2].map(i => top[i] * a + under[i] * (1 - a)).concat(1);
  };
  const fillOf = (el) => {
    if (!el) return null;
    const cs = getComputedStyle(el);
    const c = parse(cs.fill);
    if (!c) return null;
    c[3] *= parseFloat(cs.fillOpacity || '1') * parseFloat(cs.opacity || '1');
    return c[3] > 0 ? c : null;
  };
  const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1
                           && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
  const white = [255, 255, 255, 1];
  const out = [];
  document.querySelectorAll('.mp-chart .js-plotly-plot').forEach((gd, g) => {
    const paperRect = gd.querySelector('.main-svg rect.bg');
    const paper = over(fillOf(paperRect), white);
    gd.querySelectorAll('.main-svg text').forEach(t => {
      const text = t.textContent.trim();
      const box = t.getBoundingClientRect();
      const cs = getComputedStyle(t);
      if (!text || box.width === 0 || cs.visibility === 'hidden' || cs.display === 'none') return;
      if (t.closest('.hoverlayer')) return;  // hover labels: shown on demand, own box
      let bg = paper;
      const plotBg = (gd._fullLayout || {}).plot_bgcolor;
      const holder = t.closest('g.annotation, g.legend, g.updatemenu-button, g.point, g.colorbar');
      let behind = null;
      if (holder && holder.matches('g.annotation')) behind = holder.querySelector('rect.bg');
      else if (holder && holder.matches('g.legend')) behind = holder.querySelector('rect.bg');
      else if (holder && holder.matches('g.updatemenu-button')) behind = holder.querySelector('rect');
      else if (holder && holder.matches('g.point')) {
        const shape = holder.querySelector('path');
        if (shape && inside(box, shape.getBoundingClientRect())) behind = shape;
      }
      if (behind) bg = over(fillOf(behind), paper);
      else if (plotBg && !holder) {
        const area = gd.querySelector('.main-svg .bglayer rect.bg');
        if (area && inside(box, area.getBoundingClientRect())) bg = over(fillOf(area), paper);
      }
      const fill = over(fillOf(t), bg);
      out.push({graph: g, text: text.slice(0, 40), cls: (t.getAttribute('class') || '') + ' < '
                + ((t.parentNode.getAttribute && t.parentNode.getAttribute('class')) || ''),
                fill, bg, size: parseFloat(cs.fontSize), weight: parseInt(cs.fontWeight, 10) || 400});
    });
  });
  return out;
}"""


def _luminance(rgb) -> float:
    def channel(c):
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    """WCAG 2.1 contrast ratio of two sRGB colours (0..255)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def needed(size_px: float, weight: int) -> float:
    """4.5:1, or 3:1 for large text: at least 24 px, or 18.66 px (14 pt) and bold."""
    return 3.0 if size_px >= 24 or (size_px >= 18.66 and weight >= 700) else 4.5


def plot_text_below_contrast(page) -> list[dict]:
    """Every plot text of the page whose contrast is below WCAG AA."""
    texts = page.evaluate(_PLOT_TEXT)
    return [t for t in texts if contrast(t["fill"], t["bg"]) < needed(t["size"], t["weight"])]


def check_accessibility(page, name: str):
    """axe-core finds no serious or critical violation in the app's own content, and every
    plot text has AA contrast, with the whole page on screen at its current width."""
    _whole_page_on_screen(page)
    own = [n for n in axe_violations(page, axe_script()) if not n["chrome"]]
    assert not own, (f"{name}: axe-core found serious or critical WCAG 2 A/AA "
                     f"violations in the app's content:\n{_describe(own)}")
    bad = plot_text_below_contrast(page)
    assert not bad, f"{name}: plot text below WCAG AA contrast:\n" + "\n".join(
        f"- figure {t['graph']} {t['text']!r} ({t['cls']}): "
        f"{contrast(t['fill'], t['bg']):.2f}:1, text rgb{tuple(round(v) for v in t['fill'][:3])} "
        f"on rgb{tuple(round(v) for v in t['bg'][:3])}, {t['size']:g} px" for t in bad)
