"""Text that fits its box on every screen: equations scale down, labels wrap.

One small component (Streamlit components v2: JavaScript on the page itself, no
iframe), drawn once per run by app.py:

- every display equation (``st.latex``, ``$$...$$``) wider than its column is
  scaled down until it fits (never below 35% of its size), again whenever the
  window or the page changes, so nothing is cut off or needs a scroll bar;
- widget, metric and button labels wrap onto a second line instead of ending in "…"
  (Streamlit cuts them to one line), and a number in a Markdown table stays on one line;
- a figure left from the previous run while the page recomputes (Streamlit marks it
  ``data-stale``) carries a "Recomputing" label once the wait exceeds 0.8 s;
- plotly.js (:mod:`pages.common.charts`) starts loading at once: this is the first element of
  every run, Home's included, so the bundle loads while a page computes its figures or while
  Home is read;
- the window's width is reported to the page when it crosses
  :data:`pages.common.timeline.NARROW` (on load, and after a resize), so every page, not
  only the animated ones, can lay its figures out for a phone (``is_narrow()``). Only a
  width on the other side of the limit than the one the page last drew for is reported
  (no rerun loop); the timeline component, which reports it too, and this one send one
  report between them.
"""

from __future__ import annotations

import streamlit as st

from .charts import LOAD_PLOTLY_JS, draw_number, plotly_src

#: Key (or start of the keys) of containers whose Markdown table holds labels a person or a
#: file chose (KMP's classes, from a CSV up to 20 digits, twice a row; a mixed dictionary's
#: kernel names): their text cells may break anywhere, so that the table fits a phone or a
#: narrow column; numbers (cells aligned right) and every other table break only at spaces.
LABEL_TABLE_KEY = "mp-label-table"

_JS = LOAD_PLOTLY_JS + r"""
export default function (component) {
  const { data, setTriggerValue } = component || {};
  // plotly.js for the page's charts, at the start of the session's first run
  if (data && data.plotly) window.__mpLoadPlotly(data.plotly).catch(() => {});
  // the page learns the window's width when it crosses the phone limit: what it last drew
  // for (data.narrow) against the window now; a report the timeline (or this component)
  // sent for the same answer a moment ago is not sent again (one rerun, not two)
  if (!window.__mpReportWidth) {
    window.__mpReportWidth = () => {
      const w = window.__mpWidth;
      if (!w || !w.below) return;
      const narrow = window.innerWidth < w.below;
      if (narrow === w.narrow) return;
      const sent = window.__mpWidthSent, now = performance.now();
      if (sent && sent.narrow === narrow && now - sent.t < 5000) return;
      window.__mpWidthSent = { narrow, t: now };
      w.report("vw", window.innerWidth);
      window.__mpRecheckWidth();
    };
    // a report can be lost (a CI run once waited 90 s for a phone layout): if the page
    // still draws for the other side once the repeat window above is over, say it again
    // (three times at most per window size)
    window.__mpRecheckWidth = () => {
      const key = `${window.innerWidth}x${window.innerHeight}`;
      const r = window.__mpRecheck || (window.__mpRecheck = { key, left: 3, t: null });
      if (r.key !== key) { r.key = key; r.left = 3; }
      clearTimeout(r.t);
      if (r.left-- > 0) r.t = setTimeout(window.__mpReportWidth, 5500);
    };
    let t = null;
    window.addEventListener("resize", () => {
      clearTimeout(t);
      t = setTimeout(window.__mpReportWidth, 400);
    });
  }
  // an older run's data that arrives after a newer one's is left out (see draw_number)
  if (data && setTriggerValue && (data.draw || 0) >= ((window.__mpWidth || {}).draw || 0)) {
    window.__mpWidth = { narrow: !!data.narrow, below: data.narrowBelow, report: setTriggerValue,
                         draw: data.draw || 0 };
    window.__mpReportWidth();
  }
  if (window.__mpFit) { window.__mpFit(); return; }
  const style = document.createElement("style");
  style.textContent = `
    [data-testid="stWidgetLabel"] .stMarkdownEllipsis,
    [data-testid="stWidgetLabel"] .stMarkdownEllipsis p,
    [data-testid="stMetricLabel"] .stMarkdownEllipsis,
    [data-testid="stMetricLabel"] .stMarkdownEllipsis p,
    button .stMarkdownEllipsis, button .stMarkdownEllipsis p,
    [data-testid="stMetricDelta"] div, [data-testid="stMetricDelta"] p {
      white-space: normal !important; overflow: visible !important;
      text-overflow: clip !important; overflow-wrap: anywhere; }
    [data-testid="stMetricLabel"] > div { overflow: visible !important; }
    /* a page's name in the sidebar's navigation wraps too ("Approximate vs exact eigenvalues"
       missed its 214 px by less than a pixel at 1280 and 1920, and lost "ues" to an ellipsis) */
    [data-testid="stSidebarNavLink"] span:has(> .stMarkdownEllipsis),
    [data-testid="stSidebarNavLink"] .stMarkdownEllipsis,
    [data-testid="stSidebarNavLink"] .stMarkdownEllipsis p {
      white-space: normal !important; overflow: visible !important;
      text-overflow: clip !important; line-height: 1.35; }
    [data-testid="stSidebarNavLink"] { height: auto !important; min-height: 2rem; }
    .katex-display > .katex { max-width: 100%; }
    /* a number in a Markdown table (a column aligned right) never breaks at its minus sign */
    [data-testid="stMarkdownContainer"] td[style*="right"] { white-space: nowrap; }
    /* a table of class labels (LABEL_TABLE_KEY): a long label breaks where it must */
    [class*="st-key-LABEL_TABLE_KEY"] td:not([style*="right"]) { overflow-wrap: anywhere; }
    /* a figure that waits for a recomputation says so (after 0.8 s: not on every Step) */
    [data-testid="stElementContainer"][data-stale="true"]:has(.js-plotly-plot) {
      position: relative; }
    [data-testid="stElementContainer"][data-stale="true"]:has(.js-plotly-plot)::after {
      content: "⟳ Recomputing: this figure shows the previous settings";
      position: absolute; top: 0.5rem; left: 50%; transform: translateX(-50%); z-index: 5;
      background: #fff4d6; color: #12110F; border: 1px solid #8a6d00; border-radius: 0.4rem;
      padding: 0.25rem 0.9rem; font-size: 1rem; pointer-events: none;
      animation: mp-stale 0s linear 0.8s both; }
    @keyframes mp-stale { from { visibility: hidden; } to { visibility: visible; } }`;
  document.head.appendChild(style);
  const MIN = 0.35;
  // the drawn width of an equation (its hidden MathML copy and clipped SVG stretch marks aside)
  const drawn = (k) => {
    const parts = [...k.querySelectorAll(".katex-html > .base, .katex-html > .tag")];
    if (!parts.length) return k.scrollWidth;
    const r = parts.map((e) => e.getBoundingClientRect());
    return Math.max(...r.map((b) => b.right)) - Math.min(...r.map((b) => b.left));
  };
  // an equation is measured again only when its column's width or its text changed (each
  // measure forces a layout: on every page change this would cost tens of ms)
  let seen = new WeakMap();
  const fit = () => {
    for (const d of document.querySelectorAll(".katex-display")) {
      const k = d.querySelector(":scope > .katex");
      if (!k || !d.clientWidth) continue;
      const sig = `${d.clientWidth}|${k.textContent}`;
      if (seen.get(k) === sig) continue;
      seen.set(k, sig);
      k.style.fontSize = "";
      const room = d.clientWidth - 2;
      const base = parseFloat(getComputedStyle(k).fontSize);
      let size = base;
      // widths do not scale exactly with the font size (rounding): shrink until it fits
      for (let n = 0; n < 4 && drawn(k) > room && size > MIN * base; n++) {
        size = Math.max(MIN * base, size * (room / drawn(k)) * 0.98);
        k.style.fontSize = `${size}px`;
      }
    }
  };
  let queued = false;
  window.__mpFit = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; fit(); });
  };
  new MutationObserver((records) => {
    // not the equations' own changes (our style writes) nor a playing figure's frames
    if (records.some((r) => !(r.target.closest && r.target.closest(".katex, .js-plotly-plot")))) {
      window.__mpFit();
    }
  }).observe(document.body, { childList: true, subtree: true });
  window.addEventListener("resize", window.__mpFit);
  // a web font that arrives late changes widths without changing columns or text
  document.fonts.addEventListener("loadingdone", () => { seen = new WeakMap(); window.__mpFit(); });
  window.__mpFit();
}
""".replace("LABEL_TABLE_KEY", LABEL_TABLE_KEY)

_COMPONENT = st.components.v2.component("mp_fit", html="<span></span>", js=_JS)


def fit_text():
    """Scale equations to their column and wrap labels, and learn whether the window is a
    phone's (call once per run, from app.py)."""
    from .timeline import NARROW, is_narrow, remember_width

    def _on_vw():
        remember_width((st.session_state.get("mp_fit") or {}).get("vw"))

    data = dict(narrow=is_narrow(), narrowBelow=NARROW, plotly=plotly_src())
    _COMPONENT(key="mp_fit", data=dict(data, draw=draw_number("mp_fit", data)),
               on_vw_change=_on_vw)
