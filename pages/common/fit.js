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
    // a report can be lost: if the page still draws for the other side once the repeat
    // window above is over, say it again (three times at most per window size)
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
  style.textContent = __FIT_CSS__;
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
