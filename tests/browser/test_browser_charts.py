"""In a real browser: every chart is computed once per new figure and looks as before.

The app draws its charts with its own component and its own plotly.js bundle
(pages.common.charts.plotly_chart; static/plotly-app.min.js, built by tools/plotly-bundle),
each figure with its template and its displayed arrays as plain lists
(pages.common.charts.chart_figure). Four things are checked:

- in the app, each chart's computed data (``gd.calcdata``) is one object per new figure:
  on opening each chart page, and after a slider notch (the same graph, drawn once again);
  a new Play speed, which changes no data, redraws the figure and keeps its computed data;
  each chart says its figure is drawn (``__mpDone``, what the benchmarks wait for) only
  once ``Plotly.react`` has resolved, on opening and after a notch;
- the bundle served by the app is the plotly.js of the installed plotly package, and it has
  every trace type of every chart the app draws in a set of page states;
- the sent figures resolve in plotly.js (the plotly package's own build, no
  download) exactly as the figures the pages built (with Streamlit's look laid over their
  template as Streamlit does, for the charts drawn with it): the full layout and the full
  traces, on opening and after animating to the first and the last frame, for every chart
  the app draws in a set of page states (captured through AppTest);
- ``STREAMLIT_LOOK`` is still what the running Streamlit lays over a chart for
  ``theme="streamlit"`` (read from a chart in a tiny app with the project's theme).
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import plotly
import pytest

from apptest_util import chart_elements, open_app_page
from mpcore.plots import EKM_SERIES, NYSTROM_SERIES
from mpcore.plots._spectrum import SCREE_MARKERS
from pages.common.charts import PLOTLY_BUNDLE
from browser_util import (
    REPO_ROOT,
    StreamlitServer,
    app_pages,
    exceptions_on,
    new_page,
    wait_for_app,
    wait_for_charts,
)

pytestmark = pytest.mark.browser

PAGES = {p.name: p for p in app_pages()}
PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"

# ---------------------------------------------------------------- computed once, in the app

#: For every graph: its drawings and the distinct calcdata objects they had (since a reset).
_HOOK_JS = """() => {
  window.__mpCalc = [];
  const seen = new WeakSet();
  const watch = (gd) => {
    if (seen.has(gd) || !gd.on) return;
    seen.add(gd);
    const rec = {draws: 0, calcs: []};
    window.__mpCalc.push(rec);
    gd.on('plotly_afterplot', () => {
      rec.draws += 1;
      if (!rec.calcs.includes(gd.calcdata)) rec.calcs.push(gd.calcdata);
    });
  };
  new MutationObserver(() => document.querySelectorAll('.js-plotly-plot').forEach(watch))
    .observe(document, {subtree: true, childList: true, attributes: true,
                        attributeFilter: ['class']});
}"""

_CALC_JS = "() => window.__mpCalc.map((r) => ({draws: r.draws, computed: r.calcs.length}))"
_RESET_JS = "() => window.__mpCalc.forEach((r) => { r.draws = 0; r.calcs = []; })"


def _settle(page):
    wait_for_app(page)
    wait_for_charts(page)
    page.wait_for_timeout(1500)  # a second computation would come after the first drawing


@pytest.mark.parametrize("name", ["kcca", "skpca", "kmp", "bounds", "spectrum"])
def test_new_charts_are_computed_once(streamlit_server, page, name):
    page.add_init_script(f"({_HOOK_JS})()")
    page.goto(PAGES[name].url(streamlit_server.base))
    _settle(page)
    opened = page.evaluate(_CALC_JS)
    assert opened and all(r["draws"] >= 1 for r in opened), opened
    assert all(r["computed"] == 1 for r in opened), (
        f"{name}: a chart was computed again on opening: {opened}")

    page.evaluate(_RESET_JS)
    slider = page.locator('[data-testid="stSidebar"]').get_by_role("slider").first
    slider.focus()
    at_max = slider.evaluate("(e) => Number(e.getAttribute('aria-valuenow')) >= "
                             "Number(e.getAttribute('aria-valuemax'))")
    slider.press("ArrowLeft" if at_max else "ArrowRight")
    _settle(page)
    notched = [r for r in page.evaluate(_CALC_JS) if r["draws"]]
    assert notched, f"{name}: no chart was drawn again after a slider notch"
    assert all(r["computed"] == 1 for r in notched), f"{name}: a chart was computed twice: {notched}"
    # the notch redrew the graphs in place: no new graph element
    assert len(page.evaluate(_CALC_JS)) == len(opened), f"{name}: a notch made a new graph"
    assert not exceptions_on(page)


#: Each chart box's ``__mpDone`` (the draw number whose figure is on screen, what the
#: benchmarks wait for) recorded as it is set, with the number of ``Plotly.react`` calls on
#: the box's graph not yet resolved at that moment.
_DONE_HOOK_JS = """() => {
  window.__mpDoneSets = [];
  let P;
  Object.defineProperty(window, 'Plotly', {configurable: true, get: () => P, set: (v) => {
    P = v;
    const react = v.react;
    v.react = function (gd, ...rest) {
      const box = gd.closest && gd.closest('.mp-chart');
      if (box) box.__pending = (box.__pending || 0) + 1;
      const drawn = react.call(this, gd, ...rest);
      const settle = () => { if (box) box.__pending -= 1; };
      drawn.then(settle, settle);
      return drawn;
    };
  }});
  const hook = (box) => {
    if (box.__hooked) return;
    box.__hooked = true;
    let value;
    Object.defineProperty(box, '__mpDone', {get: () => value, set: (v) => {
      value = v;
      const holder = box.closest('[class*="st-key-"]');
      const key = holder && [...holder.classList].find((c) => c.startsWith('st-key-'));
      window.__mpDoneSets.push({key, draw: v,
                                latest: box.__mpDraw, pending: box.__pending || 0,
                                svg: !!box.querySelector('.main-svg')});
    }});
  };
  new MutationObserver(() => document.querySelectorAll('.mp-chart').forEach(hook))
    .observe(document, {subtree: true, childList: true});
}"""

#: Every visible chart box says its last figure is drawn.
_ALL_DONE_JS = """() => {
  const boxes = [...document.querySelectorAll('.mp-chart')].filter(b => b.offsetParent !== null);
  return boxes.length > 0 && boxes.every(b => b.__mpDraw && b.__mpDone === b.__mpDraw);
}"""


@pytest.mark.parametrize("name", ["bounds", "spectrum"])
def test_a_chart_says_its_figure_is_drawn_only_once_plotly_has_drawn_it(streamlit_server, page,
                                                                         name):
    """``__mpDone`` (pages.common.charts) is set after ``Plotly.react`` has resolved, to the
    number of the figure the box was sent last: on opening and after a slider notch."""
    page.add_init_script(f"({_DONE_HOOK_JS})()")
    page.goto(PAGES[name].url(streamlit_server.base))
    _settle(page)
    page.wait_for_function(_ALL_DONE_JS, timeout=30_000)
    opened = page.evaluate("() => window.__mpDoneSets")
    charts = page.locator(".mp-chart").count()
    assert len({s["key"] for s in opened}) == charts, opened

    page.evaluate("() => { window.__mpDoneSets = []; }")
    _notch(page, "Width sigma", "sigma")
    page.wait_for_function(_ALL_DONE_JS, timeout=30_000)
    notched = page.evaluate("() => window.__mpDoneSets")
    assert notched, f"{name}: no chart said its new figure was drawn after a notch"
    for sets in (opened, notched):
        for s in sets:
            assert s["pending"] == 0, f"{name}: drawn said before plotly.js had drawn: {s}"
            assert s["draw"] == s["latest"] and s["svg"], s
    assert not exceptions_on(page)


#: Per trace of the eigenvalue page's scree: its points, the markers drawn, and whether its
#: line was drawn (a path with a shape).
_SCREE_MARKS_JS = """() => {
  const gd = document.querySelector('.st-key-spectrum-scree .js-plotly-plot');
  return [...gd.querySelectorAll('.scatterlayer .trace')].map((t) => {
    const d = t.__data__[0].trace;
    const line = t.querySelector('path.js-line');
    return {name: d.name, points: d.x.length, markers: t.querySelectorAll('path.point').length,
            line: !!line && (line.getAttribute('d') || '').length > 10};
  });
}"""


def test_the_scree_draws_a_few_markers_on_each_whole_line(streamlit_server, page):
    """The default scree (110 points a series) draws each series' line and at most
    SCREE_MARKERS of its markers, on opening and after a notch of k (the lines move)."""
    page.goto(PAGES["spectrum"].url(streamlit_server.base))
    _settle(page)
    for moment in ("opened", "k notched"):
        traces = page.evaluate(_SCREE_MARKS_JS)
        # exact, every Nyström rule and both sketches
        assert len(traces) == 1 + len(NYSTROM_SERIES) + len(EKM_SERIES), traces
        assert all(t["line"] for t in traces), (moment, traces)
        assert all(1 <= t["markers"] <= SCREE_MARKERS for t in traces), (moment, traces)
        assert max(t["points"] for t in traces) > 2 * SCREE_MARKERS, traces  # the cap at work
        if moment == "opened":
            _notch(page, "Nyström: k columns of K", "k")
    assert not exceptions_on(page)


#: The page's animated figure: the frame duration its drawn Play button plays at (the
#: arguments plotly.js bound to the button when it drew it, which its click runs), and
#: whether its computed data is still the object remembered by the last call (the first
#: call remembers it).
_PLAY_JS = """() => {
  const gd = document.querySelector('.mp-chart .js-plotly-plot');
  const same = window.__mpCd !== undefined && gd.calcdata === window.__mpCd;
  window.__mpCd = gd.calcdata;
  const play = [...gd.querySelectorAll('.updatemenu-button')]
    .find((b) => b.textContent.includes('Play'));
  return [play.__data__.args[1].frame.duration, same];
}"""


def _notch(page, label, key):
    """One notch left of the sidebar slider ``label``; settled once the URL has the new
    value of ``key`` (the page writes every control into it)."""
    url = page.url
    slider = page.locator('[data-testid="stSidebar"] [data-testid="stSlider"]',
                          has_text=label).get_by_role("slider")
    slider.focus()
    slider.press("ArrowLeft")
    page.wait_for_url(lambda u: u != url and f"{key}=" in u)
    _settle(page)


@pytest.mark.parametrize("name", ["skpca", "kcca"])
def test_a_new_play_speed_redraws_the_figure_without_computing_it_again(streamlit_server, page,
                                                                      name):
    """A new Play speed changes only the Play button's arguments: the chart component keeps
    plotly.js's data revision (pages.common.charts.data_key), so the graph is redrawn with
    the new speed and its computed data kept. A new noise is new data: computed again."""
    page.goto(PAGES[name].url(streamlit_server.base))
    _settle(page)
    assert page.evaluate(_PLAY_JS) == [500, False]  # 2 frames/s, the default
    _notch(page, "Play speed", f"{name}.speed")
    duration, kept = page.evaluate(_PLAY_JS)
    assert duration == 1000 and kept, (duration, kept)  # 1 frame/s
    _notch(page, "Noise", "noise" if name == "skpca" else "kcca.noise")
    assert page.evaluate(_PLAY_JS) == [1000, False]
    assert not exceptions_on(page)


# ---------------------------------------------------------------- the same figure in plotly.js

#: Page states whose charts are compared: every page, presentation mode, a phone-free set of
#: KMP tabs and data sets, and the click-to-add chart.
STATES = [
    ("pages/skpca.py", {}, {}),
    ("pages/skpca.py", {"present": "true"}, {}),
    ("pages/skpca.py", {}, {"skpca.add.on": True}),
    ("pages/kcca.py", {}, {}),
    ("pages/kcca.py", {"present": "true"}, {}),
    ("pages/spectrum.py", {}, {}),
    ("pages/bounds.py", {}, {}),
    ("pages/reproduce.py", {"reproduce.show": "all"}, {}),
    ("pages/kmp.py", {}, {}),
    ("pages/kmp.py", {"kmp.tab": "Compare with SVM (Fig. 6, 7)"}, {}),
    ("pages/kmp.py", {"kmp.tab": "Error and bound curves"}, {}),
    ("pages/kmp.py", {"kmp.tab": "Losses (Fig. 5)"}, {}),
    ("pages/kmp.py", {"dataset": "iris"}, {}),
]

#: Newly plot two figures, compare plotly.js's full layout and traces (private keys, the
#: template itself and datarevision aside), then after animating both to the first and the
#: last frame. Returns the differing paths.
_SAME_JS = r"""async ([a, b]) => {
  const clean = (o, seen) => {
    if (o === null || typeof o !== 'object') return typeof o === 'function' ? undefined : o;
    if (ArrayBuffer.isView(o)) return Array.from(o);
    if (o instanceof Element) return undefined;
    if (seen.has(o)) return '<cycle>';
    seen.add(o);
    if (Array.isArray(o)) return o.map((v) => clean(v, seen));
    const out = {};
    for (const k of Object.keys(o).sort()) {
      if (k[0] === '_' || k === 'template' || k === 'datarevision' || k === 'uid') continue;
      const v = clean(o[k], seen);
      if (v !== undefined) out[k] = v;
    }
    return out;
  };
  const diff = (x, y, path, acc) => {
    if (acc.length > 20) return;
    const leaf = (v) => v === null || typeof v !== 'object';
    if (leaf(x) || leaf(y) || Array.isArray(x) !== Array.isArray(y)) {
      // NaN sent as null (JSON) and as NaN (a typed array) are the same gap
      const norm = (v) => JSON.stringify(v, (k, w) => (typeof w === 'number' && isNaN(w)) ? null : w);
      if (norm(x) !== norm(y)) acc.push(`${path}: ${norm(x)?.slice(0, 60)} | ${norm(y)?.slice(0, 60)}`);
      return;
    }
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) diff(x[k], y[k], `${path}.${k}`, acc);
  };
  const box = () => { const d = document.createElement('div'); d.style.width = '900px';
                      document.body.appendChild(d); return d; };
  const ga = box(), gb = box(), acc = [];
  const compare = (tag) => {
    for (const part of ['_fullLayout', '_fullData'])
      diff(clean(ga[part], new WeakSet()), clean(gb[part], new WeakSet()), tag + part, acc);
  };
  await Plotly.newPlot(ga, a.data, a.layout);
  await Plotly.newPlot(gb, b.data, b.layout);
  compare('');
  if (a.frames && a.frames.length) {
    await Plotly.addFrames(ga, a.frames);
    await Plotly.addFrames(gb, b.frames);
    const opts = {mode: 'immediate', frame: {duration: 0, redraw: true}, transition: {duration: 0}};
    for (const f of [a.frames[0], a.frames[a.frames.length - 1]]) {
      await Plotly.animate(ga, [f.name], opts);
      await Plotly.animate(gb, [f.name], opts);
      compare(`frame ${f.name} `);
    }
  }
  Plotly.purge(ga); Plotly.purge(gb); ga.remove(); gb.remove();
  return acc;
}"""


def _blank_page_with(browser, script: Path):
    """An empty page of its own context with one plotly.js build loaded (closed after)."""
    ctx = browser.new_context()
    pg = ctx.new_page()
    pg.set_content("<!doctype html><html><body></body></html>")
    pg.add_script_tag(path=str(script))
    try:
        yield pg
    finally:
        ctx.close()


@pytest.fixture(scope="module")
def plotly_page(browser):
    """plotly.js's full bundle, as the plotly package ships it."""
    yield from _blank_page_with(browser, PLOTLY_JS)


def _sent_charts(page, params, state) -> list[dict]:
    """Every chart_figure call of one page run: its input figure, look and output."""
    import pages.common.charts as charts

    calls = []
    real = charts.chart_figure

    def spy(fig, *, look=None):
        out = real(fig, look=look)
        calls.append({"fig": fig, "look": look, "sent": out})
        return out

    charts.chart_figure = spy
    try:
        at = open_app_page(page, params, state)
    finally:
        charts.chart_figure = real
    assert not at.exception, [e.value for e in at.exception]
    assert len(calls) == len(chart_elements(at)), "a chart was drawn without chart_figure"
    return calls


def _over(base, top):
    """``base`` deep-updated by ``top`` (``top`` wins, arrays whole): Streamlit's theme laid
    over a template's layout."""
    if isinstance(base, dict) and isinstance(top, dict):
        out = dict(base)
        for k, v in top.items():
            out[k] = _over(base.get(k), v)
        return out
    return copy.deepcopy(top)


def _jsonable(obj):
    return json.loads(json.dumps(obj, default=lambda o: o.tolist()))


@pytest.mark.parametrize("page_path, params, state", STATES,
                         ids=[f"{p.split('/')[-1][:-3]}-{i}" for i, (p, _, _) in enumerate(STATES)])
def test_sent_charts_resolve_as_the_templated_ones(plotly_page, page_path, params, state):
    calls = _sent_charts(page_path, params, state)
    assert calls
    for n, call in enumerate(calls):
        fig = call["fig"]
        template = copy.deepcopy(fig["layout"].get("template") or {})
        assert template.get("layout"), "every chart of the app has a template"
        if call["look"]:  # what Streamlit's theme="streamlit" built in the browser
            template["layout"] = _over(template["layout"], call["look"])
        templated = dict(fig, layout=dict(fig["layout"], template=template))
        differ = plotly_page.evaluate(_SAME_JS, [_jsonable(templated), _jsonable(call["sent"])])
        assert not differ, f"chart {n} of {page_path} {params}: " + "\n".join(differ)


# ---------------------------------------------------------------- Streamlit's chart look

_LOOK_APP = """
import sys
sys.path.insert(0, {root!r})
import plotly.io as pio
import streamlit as st
pio.templates.default = None  # a chart without a template
st.plotly_chart({{"data": [{{"type": "scatter", "x": [1, 2], "y": [1, 2]}}],
                 "layout": {{"title": {{"text": "T"}}}}}}, key="a")
"""


def test_streamlit_look_is_what_streamlit_lays_over_a_chart(tmp_path, page):
    """A chart without a template, drawn with theme="streamlit" under the project's theme:
    its template's layout is Streamlit's look itself, and its title is bold."""
    from pages.common.charts import STREAMLIT_LOOK

    (tmp_path / ".streamlit").mkdir()
    shutil.copy(REPO_ROOT / ".streamlit" / "config.toml", tmp_path / ".streamlit" / "config.toml")
    (tmp_path / "app.py").write_text(_LOOK_APP.format(root=str(REPO_ROOT)))
    with StreamlitServer(cwd=tmp_path) as server:
        page.goto(server.base)
        wait_for_app(page, content=None)
        wait_for_charts(page)
        page.wait_for_timeout(1000)
        got = page.evaluate("() => { const gd = document.querySelector('.js-plotly-plot');"
                            " return [gd.layout.template, gd.layout.title]; }")
    template, title = got
    assert template["layout"] == STREAMLIT_LOOK, (
        "Streamlit's chart theme changed: set STREAMLIT_LOOK in pages/common/charts.py to "
        + json.dumps(template["layout"]))
    assert "data" not in template or not template["data"]
    assert title["text"].replace("<b>", "").replace("</b>", "") == "T" and "<b>" in title["text"]


# ---------------------------------------------------------------- the bundle the app serves

def test_the_served_bundle_is_the_plotly_js_of_the_plotly_package():
    """Figures are written by the installed plotly package for its own plotly.js: the
    bundle in static/ must be that version (upgrade both together)."""
    from plotly.offline import get_plotlyjs_version

    head = PLOTLY_BUNDLE.read_text(encoding="utf-8")[:300]
    assert "plotly.js (app: scatter, bar, heatmap, contour - minified)" in head, head
    assert f" v{get_plotlyjs_version()}\n" in head, (
        f"static/{PLOTLY_BUNDLE.name} is not plotly.js {get_plotlyjs_version()}: " + head)


@pytest.fixture(scope="module")
def bundle_page(browser):
    """The plotly.js bundle the app serves."""
    yield from _blank_page_with(browser, PLOTLY_BUNDLE)


def test_the_bundle_has_every_trace_type_the_app_draws(bundle_page):
    """Every trace of every chart (and of each chart's animation frames) in STATES is of a
    type the app's bundle registers; a missing one would be drawn as nothing."""
    have = set(bundle_page.evaluate("() => Object.keys(Plotly.PlotSchema.get().traces)"))
    used = {}
    for page_path, params, state in STATES:
        for call in _sent_charts(page_path, params, state):
            fig = call["sent"]
            traces = list(fig["data"]) + [t for f in fig.get("frames") or [] for t in f.get("data", [])]
            for t in traces:
                used.setdefault(t.get("type", "scatter"), f"{page_path} {params}")
    assert {"scatter", "heatmap"} <= set(used), used  # the app's figures were read
    missing = {k: v for k, v in used.items() if k not in have}
    assert not missing, f"trace types not in static/{PLOTLY_BUNDLE.name}: {missing}"


def test_a_figure_draws_the_same_in_the_bundle_as_in_the_full_plotly_js(bundle_page, plotly_page):
    """The app's figures resolve to the same full layout and traces in the app's bundle
    as in plotly.js's full bundle (what st.plotly_chart drew them with)."""
    resolve = r"""async (fig) => {
      const d = document.createElement('div'); d.style.width = '900px'; document.body.appendChild(d);
      await Plotly.newPlot(d, fig.data, fig.layout);
      const keep = (o) => {
        const seen = new WeakSet();
        return JSON.parse(JSON.stringify(o, (k, v) => {
          if ((k && k[0] === '_') || k === 'uid' || v instanceof Element || typeof v === 'function') return undefined;
          if (ArrayBuffer.isView(v)) return Array.from(v);
          if (v && typeof v === 'object') { if (seen.has(v)) return '<seen>'; seen.add(v); }
          return v;
        }));
      };
      const out = {layout: keep(d._fullLayout), data: keep(d._fullData)};
      Plotly.purge(d); d.remove();
      return out;
    }"""
    for page_path, params, state in STATES:
        for n, call in enumerate(_sent_charts(page_path, params, state)):
            fig = _jsonable({"data": call["sent"]["data"], "layout": call["sent"]["layout"]})
            got = bundle_page.evaluate(resolve, fig)
            want = _without_gregorian_calendars(plotly_page.evaluate(resolve, fig))
            assert got == want, f"chart {n} of {page_path} {params} resolves differently"
            axes = [v for k, v in got["layout"].items() if k[1:5] == "axis"]
            assert axes and not [a for a in axes if a.get("type") == "date"], axes


def _without_gregorian_calendars(resolved: dict) -> dict:
    """A figure resolved by the full plotly.js without what its world-calendars component
    adds, which the app's bundle leaves out: ``calendar`` in the layout and ``xcalendar``,
    ``ycalendar`` in each trace, each the default "gregorian" (they matter on date axes
    only; the test checks that the app's figures have none)."""
    layout = dict(resolved["layout"])
    assert layout.pop("calendar", "gregorian") == "gregorian"
    data = []
    for trace in resolved["data"]:
        trace = dict(trace)
        for key in ("xcalendar", "ycalendar"):
            assert trace.pop(key, "gregorian") == "gregorian", trace
        data.append(trace)
    return {"layout": layout, "data": data}


def test_a_chart_page_loads_the_apps_bundle_and_not_streamlits_plotly(streamlit_server, page):
    """Opening a chart page fetches static/'s bundle once and never Streamlit's own chart
    code, whose plotly.js is the full 4.7 MB bundle (a chart drawn with st.plotly_chart
    would bring it back)."""
    scripts = []
    page.on("request", lambda r: scripts.append(r.url) if r.resource_type == "script" else None)
    page.goto(PAGES["kmp"].url(streamlit_server.base))
    _settle(page)
    ours = [u for u in scripts if u.endswith(f"/app/static/{PLOTLY_BUNDLE.name}")]
    assert len(ours) == 1, scripts
    assert not [u for u in scripts if "plotly" in u.lower() and u not in ours], scripts
    assert page.evaluate("() => document.querySelectorAll('.mp-chart .js-plotly-plot').length") >= 1
    assert not exceptions_on(page)


#: Each chart's plotly.js toolbar, and whether it waits for a hover to show.
_TOOLBARS_JS = """() => [...document.querySelectorAll('.mp-chart .modebar')]
  .map(m => m.classList.contains('modebar--hover'))"""


def test_a_touch_screen_draws_no_toolbar_over_a_figure(streamlit_server, browser):
    # plotly.js shows its toolbar for good on a screen that cannot hover, over the figure's
    # title and legend: a phone gets none; a mouse gets the toolbar when it hovers
    for touch, size in ((True, (390, 844)), (False, (1280, 720))):
        ctx = browser.new_context(viewport=dict(width=size[0], height=size[1]),
                                  has_touch=touch, is_mobile=touch)
        pg = new_page(ctx)
        try:
            pg.goto(f"{streamlit_server.base}/spectrum")
            wait_for_app(pg)
            wait_for_charts(pg)
            assert pg.evaluate("() => matchMedia('(hover: none)').matches") is touch
            toolbars = pg.evaluate(_TOOLBARS_JS)
            assert toolbars == [] if touch else (toolbars and all(toolbars)), toolbars
            assert not exceptions_on(pg) and not pg.page_errors
        finally:
            ctx.close()
