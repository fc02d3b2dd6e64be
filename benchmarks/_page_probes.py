"""What the page benchmark (bench_pages.py) evaluates inside the page: JavaScript
functions, as strings for playwright's ``page.evaluate`` and ``wait_for_function``, that tell
when a page is drawn, count script runs, stamp a click or a key press and read the timeline.

They read the app's own marks (``__mpDraw``/``__mpDone`` of pages/common/charts.py's chart
box, ``window.__mpTimeline`` of the timeline component) and Streamlit's ``data-test*``
attributes; _page_visits.py drives the browser with them.
"""

#: Size of each plotly figure the page holds (data + layout + frames, typed arrays counted
#: by their bytes), largest first.
FIGURES_JS = """() => {
  const size = (v) => {
    if (v === null || v === undefined) return 4;
    if (ArrayBuffer.isView(v)) return v.byteLength;
    if (Array.isArray(v)) return v.reduce((s, x) => s + size(x) + 1, 2);
    if (typeof v === 'object') return Object.entries(v).reduce(
        (s, [k, x]) => (k.startsWith('_') ? s : s + k.length + 3 + size(x)), 2);
    return String(v).length;
  };
  return [...document.querySelectorAll(
      '.mp-chart .js-plotly-plot, [data-testid="stPlotlyChart"] .js-plotly-plot')]
    .map(gd => size(gd.data) + size(gd.layout) +
               size((gd._transitionData && gd._transitionData._frames) || []))
    .sort((a, b) => b - a);
}"""


#: True when the run is over and every visible chart has mounted and, for the app's charts,
#: drawn the last figure it was sent (``__mpDone``, set by the chart component once
#: ``Plotly.react`` has resolved); remembers since when it has been true (reset when it
#: stops being true: a second run, a late element). A notch's figure reaches its chart a little
#: after the frame at which the run is over (the component's script runs after React
#: shows the element): :func:`_drawn_after` checks this after a round trip to the script.
DRAWN_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  const charts = [...document.querySelectorAll('.mp-chart, [data-testid="stPlotlyChart"]')]
    .filter(c => c.offsetParent !== null);
  const ok = !!app && app.getAttribute('data-test-script-state') === 'notRunning'
    && app.getAttribute('data-test-connection-state') === 'CONNECTED'
    && !document.querySelector('[data-testid="stStatusWidgetRunningIcon"]')
    && !document.querySelector('[data-testid="stSkeleton"]')
    && !!document.querySelector('h1')
    && charts.every(c => c.querySelector('.main-svg')
                         && (!c.classList.contains('mp-chart') || c.__mpDone === c.__mpDraw));
  if (!ok) { window.__mpDrawn = null; return false; }
  window.__mpDrawn = window.__mpDrawn || performance.now();
  return true;
}"""


#: Counts finished script runs (transitions of stApp to notRunning); installed before goto.
RUNS_JS = """() => {
  window.__mpRuns = 0;
  const watch = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app) { requestAnimationFrame(watch); return; }
    new MutationObserver(() => {
      if (app.getAttribute('data-test-script-state') === 'notRunning') window.__mpRuns += 1;
    }).observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', watch);
  else watch();
}"""

#: The timeline's step j and count n (its element may sit in a component's shadow root).
TIMELINE_JS = """() => {
  for (const host of [document, ...[...document.querySelectorAll('*')].map(e => e.shadowRoot)
                      .filter(Boolean)]) {
    const el = host.querySelector('.tl');
    const m = el && /Step (\\d+) of (\\d+)/.exec(el.querySelector('.tl-count').textContent);
    if (m) return [Number(m[1]), Number(m[2])];
  }
  return null;
}"""

#: Armed before a Step click: the click event (seen first, in the window's capture phase)
#: stamps the time, then every animation frame checks whether the counter says
#: "Step <target> of <n>" and the timeline's figure has drawn frame <target> (slider and
#: current frame on it, no animation under way, not hidden); the first frame at which both
#: hold gives ``window.__mpView`` (ms since the click).
ARM_STEP_JS = """([target, n]) => {
  window.__mpView = null;
  window.__mpClickAt = null;
  window.__mpDrawn = null;
  const want = `Step ${target} of ${n}`;
  const counter = () => {
    for (const host of [document, ...[...document.querySelectorAll('*')]
                        .map(e => e.shadowRoot).filter(Boolean)]) {
      const el = host.querySelector('.tl .tl-count');
      if (el) return el.textContent;
    }
    return null;
  };
  const figure = () => {
    const tl = window.__mpTimeline;
    return tl && document.querySelector(`.st-key-${tl.data.chart} .js-plotly-plot`);
  };
  const shown = () => {
    if (counter() !== want) return false;
    const gd = figure();
    const sl = gd && gd.layout && gd.layout.sliders && gd.layout.sliders[0];
    return !!sl && sl.active === target - 1 && gd.style.visibility !== 'hidden'
      && !!gd._fullLayout && gd._fullLayout._currentFrame === String(target)
      && !(gd._transitionData && gd._transitionData._animationRaf);
  };
  const onClick = () => {
    window.removeEventListener('click', onClick, true);
    const t0 = window.__mpClickAt = performance.now();
    const check = () => {
      if (shown()) window.__mpView = performance.now() - t0;
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  };
  window.addEventListener('click', onClick, true);
}"""

#: Before a notch: every chart on the page is marked as seen, and each app chart's box keeps
#: the draw number of the figure it shows (pages.common.charts.draw_number).
MARK_CHARTS_JS = """() => document.querySelectorAll('.js-plotly-plot').forEach(g => {
  g.__mpOld = true;
  const box = g.closest('.mp-chart');
  if (box) box.__mpMarkedDraw = box.__mpDraw;
})"""
#: The notch's run is over: a run was counted (:data:`RUNS_JS`), or the app is not running
#: and every chart shows a new figure: a chart Streamlit mounted anew (``st.plotly_chart``
#: mounts a new chart for new JSON), or an app chart that was sent a new draw number (the app's
#: charts redraw in place). A run short enough may leave the app's "running" state undrawn
#: (React renders both changes at once), so the run counter alone can miss it.
SLIDER_ANSWERED_JS = """([b]) => {
  if (window.__mpRuns > b) return true;
  const app = document.querySelector('[data-testid="stApp"]');
  const charts = [...document.querySelectorAll('.js-plotly-plot')];
  const fresh = (g) => {
    if (!g.__mpOld) return true;
    const box = g.closest('.mp-chart');
    return !!box && box.__mpDraw !== box.__mpMarkedDraw;
  };
  return !!app && app.getAttribute('data-test-script-state') === 'notRunning'
    && charts.length > 0 && charts.every(fresh);
}"""


#: Armed before a notch: the key press (its keydown, seen first, in the window's capture
#: phase) stamps ``window.__mpKeyAt``, from which the notch is timed, as Step is from its
#: click (the harness's own calls before the key, such as focusing the slider, are not the
#: student's wait).
ARM_KEY_JS = """() => {
  window.__mpKeyAt = null;
  const onKey = () => {
    window.removeEventListener('keydown', onKey, true);
    window.__mpKeyAt = performance.now();
  };
  window.addEventListener('keydown', onKey, true);
}"""

#: What a page shows when a notch was not answered: runs counted, the script's and the
#: connection's state, the focused element, each chart (new since the notch? its svg? its
#: last figure drawn?), and the text of any error or alert box.
STUCK_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  const active = document.activeElement;
  return {
    runs: window.__mpRuns, keyAt: window.__mpKeyAt,
    script: app && app.getAttribute('data-test-script-state'),
    connection: app && app.getAttribute('data-test-connection-state'),
    focused: active ? `${active.tagName} ${active.type || ''} ${active.getAttribute('aria-label') || ''} ${active.value || ''}`.trim() : null,
    charts: [...document.querySelectorAll('.mp-chart, [data-testid="stPlotlyChart"]')].map(c => {
      const g = c.querySelector('.js-plotly-plot');
      return {visible: c.offsetParent !== null, old: !!(g && g.__mpOld),
              newDraw: c.__mpDraw !== c.__mpMarkedDraw, svg: !!c.querySelector('.main-svg'),
              figureDrawn: c.__mpDone === c.__mpDraw};
    }),
    alerts: [...document.querySelectorAll('[data-testid="stException"], [data-testid="stAlert"]')]
      .map(e => e.innerText.slice(0, 300)),
  };
}"""

#: The sidebar's sliders (Streamlit's ``stSlider`` elements, in the page's order).
SIDEBAR_SLIDERS = '[data-testid="stSidebar"] [data-testid="stSlider"]'

#: The new page's run is over (a run was counted since the click) and the address is the
#: page's own.
NAVIGATED_JS = "([b, path]) => window.__mpRuns > b && location.pathname.endsWith('/' + path)"
