"""The layout checks of the browser tests, read from a page's geometry, not its pixels:
what ``check_layout`` asserts is listed in test_browser_layout.py's docstring. Used there, in
presentation mode (test_browser_present.py) and in the quiz (test_browser_quiz.py)."""

from __future__ import annotations

import os

from browser_util import SCREENSHOTS, exceptions_on, new_page, wait_for_fit, wait_for_stable_layout


_GEOMETRY_JS = r"""() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const doc = document.documentElement;
  const vis = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0
                       && getComputedStyle(e).visibility !== 'hidden'; };
  const name = (e) => (e.getAttribute('data-testid') || e.className || e.tagName).toString()
                      .slice(0, 60) + ': ' + (e.innerText || '').trim().slice(0, 60);
  const overflowing = [];
  // an equation: its drawn parts lie inside its box (KaTeX's hidden MathML copy and the clipped
  // SVG of stretchy signs overflow by design)
  for (const d of main.querySelectorAll('.katex-display')) {
    if (!vis(d)) continue;
    const box = d.getBoundingClientRect();
    for (const b of d.querySelectorAll('.katex-html > .base, .katex-html > .tag')) {
      const r = b.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1) {
        overflowing.push(`equation ${name(d).slice(0, 80)} (${r.right - box.left} > ${box.width})`);
        break;
      }
    }
  }
  const TEXT = ['[data-testid="stMetricLabel"]',
                '[data-testid="stMetricValue"]', '[data-testid="stMetricDelta"]',
                '[data-testid="stCaptionContainer"]', '[data-testid="stWidgetLabel"]',
                '[data-testid="stMarkdownContainer"]', '[data-testid="stHeading"]',
                '[data-testid="stPageLink"]'];
  for (const sel of TEXT) {
    for (const box of main.querySelectorAll(sel)) {
      if (!vis(box)) continue;
      for (const e of [box, ...box.querySelectorAll('*')]) {
        if (!vis(e) || e.closest('[data-testid="stCode"], .katex, .katex-display')) continue;
        if (e.clientWidth <= 1) continue;  // visually hidden (screen-reader text)
        const st = getComputedStyle(e);
        // only boxes that clip or scroll can hide text (an ellipsis, a scroll bar)
        if (st.overflowX === 'visible' && st.textOverflow !== 'ellipsis') continue;
        if (e.scrollWidth > e.clientWidth + 1) {
          overflowing.push(`${sel} ${name(e)} (${e.scrollWidth} > ${e.clientWidth})`);
          break;
        }
      }
    }
  }
  // a table (st.table's or Markdown's): every column inside its box (a table scrolls
  // sideways when it is wider, which on a phone hides the last columns behind a swipe no
  // one sees)
  for (const table of main.querySelectorAll('table')) {
    const t = table.closest('[data-testid="stTable"], [data-testid="stMarkdownContainer"]');
    if (!t || !vis(t)) continue;
    const [wide, box] = [table, t].map(e => e.getBoundingClientRect().width);
    if (wide > box + 1) overflowing.push(`table ${name(table).slice(0, 60)} (${wide} > ${box})`);
  }
  const outside = [];
  const controls = [...main.querySelectorAll('button, input, [role="slider"], [role="radio"], '
                                             + '[role="tab"], [data-baseweb="select"]')];
  for (const host of [...document.querySelectorAll('*')].map(e => e.shadowRoot).filter(Boolean)) {
    controls.push(...host.querySelectorAll('button'));
  }
  for (const c of document.querySelectorAll('.tl button')) controls.push(c);
  for (const c of controls) {
    if (!vis(c)) continue;
    if (c.closest('[data-testid="stExpanderDetails"]') && !vis(c.closest('details'))) continue;
    if (c.closest('.modebar, .js-plotly-plot')) continue;
    // a control in a strip that scrolls sideways (Streamlit's tab bar) is reached by scrolling it
    let a = c.parentElement, scrolls = false;
    for (; a && a !== main; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if ((ox === 'auto' || ox === 'scroll') && a.scrollWidth > a.clientWidth) {
        const ra = a.getBoundingClientRect();
        scrolls = ra.left >= -1 && ra.right <= innerWidth + 1;
        break;
      }
    }
    if (scrolls) continue;
    const r = c.getBoundingClientRect();
    if (r.left < -1 || r.right > innerWidth + 1) outside.push(`${name(c)} [${r.left}, ${r.right}]`);
  }
  const covers = [];
  const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  for (const gd of document.querySelectorAll('.mp-chart .js-plotly-plot')) {
    if (!vis(gd)) continue;
    const boxes = [...gd.querySelectorAll('.legend .bg, .colorbar .cbbg')]
      .filter(vis).map(e => [e.closest('.legend') ? 'legend' : 'colour bar',
                             e.getBoundingClientRect()]);
    const points = [...gd.querySelectorAll('.scatterlayer .point')].filter(vis)
      .map(p => p.getBoundingClientRect())
      .map(r => ({left: r.left + r.width / 2 - 1, right: r.left + r.width / 2 + 1,
                  top: r.top + r.height / 2 - 1, bottom: r.top + r.height / 2 + 1}));
    const plots = [...gd.querySelectorAll('.nsewdrag')].filter(vis).map(e => e.getBoundingClientRect());
    for (const [kind, b] of boxes) {
      const n = points.filter(p => hit(p, b)).length;
      if (n) covers.push(`${kind} covers ${n} data points`);
      if (kind === 'colour bar') {
        const k = plots.filter(p => hit(p, b)).length;
        if (k) covers.push(`colour bar reaches into ${k} plot areas`);
      }
    }
  }
  // the parts plotly places outside a plot area, each at its own place: a colour bar, the
  // Play/Pause buttons, the step slider, the axis titles and tick labels
  const parts = [];
  const at = (r) => `[${Math.round(r.left)}, ${Math.round(r.top)}, ${Math.round(r.right)}, `
                    + `${Math.round(r.bottom)}]`;
  for (const gd of document.querySelectorAll('.mp-chart .js-plotly-plot')) {
    if (!vis(gd)) continue;
    const boxes = (sel, kind) => [...gd.querySelectorAll(sel)].filter(vis)
      .map(e => [kind, e.getBoundingClientRect()]);
    const titles = [...gd.querySelectorAll('g')]
      .filter(g => /^g-[xy]\d*title$/.test(g.getAttribute('class') || '')).filter(vis)
      .map(g => [`axis title "${g.textContent.trim().slice(0, 30)}"`, g.getBoundingClientRect()]);
    const ticks = boxes('.xaxislayer-above .xtick text, .yaxislayer-above .ytick text',
                        'tick label');
    const bars = boxes('.colorbar', 'colour bar');
    const controls = [...boxes('.updatemenu-container', 'Play/Pause buttons'),
                      ...boxes('.slider-container', 'step slider')];
    const fig = gd.getBoundingClientRect();
    for (const [kind, b] of [...bars, ...controls]) {
      if (b.top < fig.top - 1 || b.bottom > fig.bottom + 1 || b.left < fig.left - 1
          || b.right > fig.right + 1) parts.push(`${kind} ${at(b)} outside its figure ${at(fig)}`);
    }
    for (const [kind, b] of bars) {
      for (const [other, o] of [...titles, ...ticks, ...controls]) {
        if (hit(b, o)) parts.push(`${kind} ${at(b)} covers ${other} ${at(o)}`);
      }
    }
    for (const [kind, b] of controls) {
      for (const [other, o] of [...titles, ...ticks]) {
        if (hit(b, o)) parts.push(`${kind} ${at(b)} covers ${other} ${at(o)}`);
      }
    }
    // a colour bar's title apart from the column of its own tick labels (not between two)
    for (const cb of [...gd.querySelectorAll('.colorbar')].filter(vis)) {
      const title = cb.querySelector('.cbtitle');
      const labels = [...cb.querySelectorAll('.cbaxis text')].filter(vis)
        .map(e => e.getBoundingClientRect());
      if (!title || !vis(title) || !labels.length) continue;
      const t = title.getBoundingClientRect();
      const column = {left: Math.min(...labels.map(r => r.left)),
                      right: Math.max(...labels.map(r => r.right)),
                      top: Math.min(...labels.map(r => r.top)),
                      bottom: Math.max(...labels.map(r => r.bottom))};
      // by more than a pixel, as the texts of a figure (_overlapping_texts)
      const near = {left: column.left + 1, right: column.right - 1, top: column.top + 1,
                    bottom: column.bottom - 1};
      if (hit(t, near)) parts.push(`colour bar title ${at(t)} among its tick labels ${at(column)}`);
    }
  }
  const graphs = [...document.querySelectorAll('.mp-chart .js-plotly-plot')]
    .filter(vis).map(gd => gd.getBoundingClientRect().width);
  const plots = [...document.querySelectorAll('.mp-chart .js-plotly-plot')]
    .filter(vis).flatMap(gd => [...gd.querySelectorAll('.nsewdrag')].filter(vis)
                                 .map(e => e.getBoundingClientRect().width));
  // the texts plotly writes over a figure (panel titles, labels), per figure
  const texts = [...document.querySelectorAll('.mp-chart .js-plotly-plot')]
    .filter(vis).map(gd => [...gd.querySelectorAll('.infolayer .annotation-text-g')].filter(vis)
      .map(e => { const r = e.getBoundingClientRect();
                  return [e.textContent.trim().slice(0, 40), r.left, r.top, r.right, r.bottom]; }));
  return {overflow: doc.scrollWidth - doc.clientWidth, overflowing, outside, covers, parts,
          graphs, plots, texts, width: innerWidth};
}"""


#: True once the page has drawn for the window's side of the phone limit: the fit component
#: (pages/common/fit.py, on every page) holds what the page last drew for, and reports the
#: width (a rerun) when the window is on the other side.
_WIDTH_KNOWN_JS = """() => { const w = window.__mpWidth;
  return !!w && (innerWidth < w.below) === w.narrow; }"""


def open_fitted(shared_context, url, size, content="h1"):
    """A new page (own Streamlit session) of the shared context at ``size``, once
    it has adapted to the window and drawn."""
    pg = new_page(shared_context, size)
    pg.goto(url)
    wait_for_fit(pg, content=content)
    pg.wait_for_function(_WIDTH_KNOWN_JS, polling=100)
    wait_for_fit(pg, content=content)
    wait_for_stable_layout(pg)
    return pg


def _screenshots(pg, label, whole: bool):
    """What the window shows, and (``whole``) the whole page: Streamlit scrolls inside its
    main block, so the window is grown to the block's height for that picture."""
    SCREENSHOTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(SCREENSHOTS / f"layout_{label}.png"))
    if whole:
        size = pg.viewport_size
        tall = pg.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
        pg.set_viewport_size(dict(width=size["width"], height=min(max(tall, size["height"]), 8000)))
        wait_for_stable_layout(pg)
        pg.screenshot(path=str(SCREENSHOTS / f"layout_{label}_whole.png"))
        pg.set_viewport_size(size)


#: Whole-page screenshots (the window grown to the page's height, then restored) cost a
#: relayout of every chart: taken when this variable is set, for a person to look at.
WHOLE = os.environ.get("SCREENSHOTS_WHOLE", "").lower() not in ("", "0", "false", "no")


#: Inside every figure: no axis title lies in a plot area (its own or a neighbour's, as when
#: the gap between two panels is narrower than a title beside its tick labels) or runs off the
#: figure (a title wider than a narrow column's plot area), no two legend
#: entries cover each other (an entry wider than the width a horizontal legend gives it), no
#: legend entry covers the figure's title or runs past the legend's box (plotly.js cuts it
#: there), and no two panel titles or other annotations cover each other.
_FIGURE_TEXTS_JS = r"""() => {
  const vis = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0
                       && getComputedStyle(e).visibility !== 'hidden'; };
  const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1
                        && b.top < a.bottom - 1;
  const at = (r) => `[${Math.round(r.left)}, ${Math.round(r.top)}, ${Math.round(r.right)}, `
                    + `${Math.round(r.bottom)}]`;
  const union = (els) => {
    const rs = els.filter(vis).map(e => e.getBoundingClientRect());
    return rs.length ? {left: Math.min(...rs.map(r => r.left)), top: Math.min(...rs.map(r => r.top)),
                        right: Math.max(...rs.map(r => r.right)),
                        bottom: Math.max(...rs.map(r => r.bottom))} : null;
  };
  const found = [];
  for (const gd of document.querySelectorAll('.mp-chart .js-plotly-plot')) {
    if (!vis(gd)) continue;
    // every subplot's plot area, and every axis title: a title lies in no plot area
    const areas = [...gd.querySelectorAll('.nsewdrag')].filter(vis)
      .map(e => [e.getAttribute('data-subplot') || 'xy', e.getBoundingClientRect()]);
    const titles = [...gd.querySelectorAll('g')]
      .filter(g => /^g-[xy]\d*title$/.test(g.getAttribute('class') || '')).filter(vis)
      .map(g => [g.textContent.trim().slice(0, 30), g.getBoundingClientRect()]);
    // ... and lies inside its figure (plotly draws a title wider than the figure cut off)
    const fig = gd.getBoundingClientRect();
    for (const [t, b] of titles) {
      if (b.left < fig.left - 1 || b.right > fig.right + 1) {
        found.push(`axis title "${t}" ${at(b)} runs off its figure ${at(fig)}`);
      }
      for (const [s, a] of areas) {
        if (hit(a, b)) found.push(`axis title "${t}" ${at(b)} lies in plot area ${s} ${at(a)}`);
      }
    }
    // the texts of a legend: no two entries cover each other
    const entries = [...gd.querySelectorAll('.legend .traces')].filter(vis)
      .map(g => [g.textContent.trim().slice(0, 30), union([...g.querySelectorAll(
        '.legendtext, .legendpoints path, .legendlines path, .legendsymbols path')])])
      .filter(([, b]) => b);
    for (let i = 0; i < entries.length; i++) {
      for (let j = i + 1; j < entries.length; j++) {
        if (hit(entries[i][1], entries[j][1])) {
          found.push(`legend entries "${entries[i][0]}" and "${entries[j][0]}" overlap`);
        }
      }
    }
    // every legend entry's name inside the legend's box: plotly.js cuts what runs past it
    const bg = gd.querySelector('.legend rect.bg');
    if (bg && vis(bg)) {
      const box = bg.getBoundingClientRect();
      for (const t of [...gd.querySelectorAll('.legend .legendtext')].filter(vis)) {
        const r = t.getBoundingClientRect();
        if (r.right > box.right + 1) {
          found.push(`legend entry "${t.textContent.trim().slice(0, 30)}" ${at(r)} cut by its box ${at(box)}`);
        }
      }
    }
    // the figure's title (a step's "Step 1 of 5: added x37") inside its figure, apart from
    // the legend's entries; its top too: plotly.js raises a title of two or more lines
    // anchored at its top by 0.7 em, which cut its first line at the figure's top edge
    const title = union([...gd.querySelectorAll('.gtitle')]);
    if (title && (title.left < fig.left - 1 || title.right > fig.right + 1
                  || title.top < fig.top - 1 || title.bottom > fig.bottom + 1)) {
      found.push(`the figure's title ${at(title)} runs off its figure ${at(fig)}`);
    }
    if (title) {
      for (const [t, b] of entries) {
        if (hit(title, b)) found.push(`legend entry "${t}" ${at(b)} covers the title ${at(title)}`);
      }
    }
    // ... nor an axis title (a legend placed under the plot areas at a fraction of their
    // height came up onto the last x axis's title when the figure had fewer panels)
    for (const [t, b] of entries) {
      for (const [s, a] of titles) {
        if (hit(a, b)) found.push(`legend entry "${t}" ${at(b)} covers axis title "${s}" ${at(a)}`);
      }
    }
    // panel titles (the annotations above subplots): apart from each other and from axis titles
    const notes = [...gd.querySelectorAll('.annotation-text-g')].filter(vis)
      .map(g => [g.textContent.trim().slice(0, 30), g.getBoundingClientRect()]);
    // ... and every annotation inside its figure (plotly.js cuts what runs past its edges)
    for (const [t, b] of notes) {
      if (b.left < fig.left - 1 || b.right > fig.right + 1 || b.top < fig.top - 1
          || b.bottom > fig.bottom + 1) {
        found.push(`text "${t}" ${at(b)} runs off its figure ${at(fig)}`);
      }
    }
    // a panel's title or note placed in the figure's own coordinates (not a label on the
    // data) lies in no plot area: a title of several lines grows up out of its gap
    const full = (gd._fullLayout && gd._fullLayout.annotations) || [];
    for (const g of gd.querySelectorAll('.annotation')) {
      const a = full[+g.getAttribute('data-index')];
      const t = g.querySelector('.annotation-text-g');
      if (!a || !t || !vis(t) || a.xref !== 'paper' || a.yref !== 'paper') continue;
      const b = t.getBoundingClientRect();
      for (const [s, r] of areas) {
        if (hit(r, b)) found.push(`text "${t.textContent.trim().slice(0, 30)}" ${at(b)} lies in plot area ${s} ${at(r)}`);
      }
    }
    for (let i = 0; i < notes.length; i++) {
      for (let j = i + 1; j < notes.length; j++) {
        if (hit(notes[i][1], notes[j][1])) found.push(`texts "${notes[i][0]}" and "${notes[j][0]}" overlap`);
      }
    }
  }
  return found;
}"""


def check_layout(pg, label, whole=True):
    """The geometry checks above on an opened page (and its screenshots)."""
    geo = pg.evaluate(_GEOMETRY_JS)
    texts = pg.evaluate(_FIGURE_TEXTS_JS)
    _screenshots(pg, label, whole and WHOLE)
    assert not exceptions_on(pg), label
    errors = vars(pg).get("page_errors", [])  # collected by _open (not playwright's method)
    assert not errors, (label, errors)
    assert geo["overflow"] <= 0, (label, geo)
    assert not geo["overflowing"], (label, geo["overflowing"])
    assert not geo["outside"], (label, geo["outside"])
    assert not geo["covers"], (label, geo["covers"])
    assert not geo["parts"], (label, geo["parts"])
    assert not texts, (label, texts)
    return geo


#: The parts of the page's animated figure (the first with Play/Pause), each one box in page
#: coordinates (null when not drawn): the figure, its plot area, legend, colour bar, Play/Pause
#: buttons, step slider (rail, grip and step labels) and the slider's current value
#: ("step j = 3"); and a box per tick label and per title (the figure's and its axes').
_FIGURE_PARTS_JS = r"""() => {
  const gd = [...document.querySelectorAll('.mp-chart .js-plotly-plot')]
    .find(g => g.querySelector('.updatemenu-container'));
  if (!gd) return null;
  const vis = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0
                       && getComputedStyle(e).visibility !== 'hidden'; };
  const box = (els) => {
    const rs = els.filter(vis).map(e => e.getBoundingClientRect());
    return rs.length ? {left: Math.min(...rs.map(r => r.left)), top: Math.min(...rs.map(r => r.top)),
                        right: Math.max(...rs.map(r => r.right)),
                        bottom: Math.max(...rs.map(r => r.bottom))} : null;
  };
  const q = (sel) => [...gd.querySelectorAll(sel)];
  return {
    figure: box([gd]), plot: box(q('.nsewdrag')), legend: box(q('.legend .bg')),
    'colour bar': box(q('.colorbar')), buttons: box(q('.updatemenu-button')),
    slider: box(q('.slider-rail-rect, .slider-grip-rect, .slider-labels')),
    'slider label': box(q('.slider-group > .slider-label').filter(e => e.textContent.trim())),
    ticks: q('.xaxislayer-above .xtick text, .yaxislayer-above .ytick text').filter(vis)
      .map(e => box([e])),
    titles: q('g').filter(g => /^g-(g|[xy]\d*)title$/.test(g.getAttribute('class') || ''))
      .filter(vis).map(g => box([g])),
  };
}"""

#: The parts of an animated figure that lie outside its plot area, each in a place of its own.
APART = ("legend", "colour bar", "buttons", "slider", "slider label")


def figure_parts(pg) -> dict:
    """Boxes of the parts of the page's animated figure (see _FIGURE_PARTS_JS)."""
    parts = pg.evaluate(_FIGURE_PARTS_JS)
    assert parts and parts["plot"], "an animated figure is drawn"
    return parts


def _hit(a, b) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] \
        and b["top"] < a["bottom"]


def overlapping(parts: dict) -> list[str]:
    """What overlaps among an animated figure's legend, colour bar, Play/Pause buttons, step
    slider and the slider's current value: each other, the plot area, a tick label or a title
    (the slider and its own label are one control, the label above the rail)."""
    shown = {k: parts[k] for k in APART if parts.get(k)}
    found = []
    names = list(shown)
    for i, a in enumerate(names):
        others = [(b, shown[b]) for b in names[i + 1:] if {a, b} != {"slider", "slider label"}]
        others += [("plot area", parts["plot"])]
        others += [("tick label", t) for t in parts["ticks"]]
        others += [("title", t) for t in parts["titles"]]
        found += [f"{a} {shown[a]} overlaps {b} {box}" for b, box in others if _hit(shown[a], box)]
    return found


def overlapping_texts(texts):
    """Pairs of a figure's texts whose boxes cover each other (by more than a pixel)."""
    return [(a[0], b[0]) for i, a in enumerate(texts) for b in texts[i + 1:]
            if a[1] < b[3] - 1 and b[1] < a[3] - 1 and a[2] < b[4] - 1 and b[2] < a[4] - 1]
