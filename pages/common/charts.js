const BOX = __BOX_HTML__;

const DECODER = new TextDecoder();
// a screen that cannot hover (a phone, a tablet): plotly.js would show its toolbar for good
const NO_HOVER = window.matchMedia("(hover: none)").matches;
// Streamlit's selection event for a point (as st.plotly_chart's on_select gives it)
const selected = (ev) => ({ points: ((ev && ev.points) || []).map((p) => {
  const out = { curve_number: p.curveNumber, point_number: p.pointNumber,
                point_index: p.pointIndex, x: p.x, y: p.y };
  if (p.z !== undefined) out.z = p.z;
  if (p.customdata !== undefined) out.customdata = p.customdata;
  if (p.data && p.data.legendgroup !== undefined) out.legendgroup = p.data.legendgroup;
  return out;
}) });

// what decides between redrawing a graph in place and drawing a new one: the page's layout
// (a phone's or a wide one), the figure's layout keys (its subplots, colour axes, menus),
// size, margins, legend and colour bars, and each trace's type and axes
const shape = (src) => {
  const fig = src.figure, layout = fig.layout || {};
  const bar = (c) => c && [c.orientation, c.x, c.y, c.len];
  return JSON.stringify([src.narrow, Object.keys(layout).sort(), layout.height, layout.width,
    layout.margin, layout.legend && layout.legend.orientation,
    (fig.data || []).map((t) => [t.type, t.mode, t.xaxis, t.yaxis, t.coloraxis,
                                  bar(t.colorbar), bar(t.marker && t.marker.colorbar)]),
    Object.keys(layout).filter((k) => k.startsWith("coloraxis"))
      .map((k) => bar(layout[k] && layout[k].colorbar)),
    (layout.sliders || []).length, (layout.updatemenus || []).length,
    (fig.frames || []).length > 0]);
};

export default function (component) {
  const { data, parentElement, setStateValue } = component;
  if (!data) return;
  const sent = typeof data === "string" ? data : DECODER.decode(data);
  // the figure's text without its draw number (pages.common.charts.draw_number, the last
  // field): data of an older run that arrives after a newer one's is not drawn
  const cut = sent.lastIndexOf(',"draw":');
  const text = cut < 0 ? sent : sent.slice(0, cut) + "}";
  const draw = cut < 0 ? 0 : parseInt(sent.slice(cut + 8), 10) || 0;
  // the box is the component's html (on the page from the element's mount, before this
  // runs: a chart not yet drawn is seen as one); the graph inside it
  if (!parentElement.querySelector(".mp-chart")) parentElement.insertAdjacentHTML("beforeend", BOX);
  const box = parentElement.querySelector(".mp-chart");
  if (!box.__mpSized) {
    box.__mpSized = true;
    // the graph follows its column's width (a sidebar opened or closed, a window resized)
    let width = 0, queued = false;
    new ResizeObserver(() => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        const w = Math.round(box.clientWidth), g = box.firstElementChild;
        if (w && w !== width && g && g._fullLayout && window.Plotly) window.Plotly.Plots.resize(g);
        width = w;
      });
    }).observe(box);
  }
  const first = box.firstElementChild;
  if (draw < (box.__mpDraw || 0)) return;
  box.__mpDraw = draw;
  first.__mpSet = setStateValue;
  // box.__mpDone: the draw number whose figure is on screen (drawn, or the same figure as
  // the one drawn before it): what the benchmarks wait for
  const done = (p) => Promise.resolve(p).then(() => {
    if (box.__mpDraw === draw) box.__mpDone = draw;
  }, () => {});
  if (first.__mpText === text) {  // the same figure again: nothing to draw
    done(box.__mpDrawing);
    return;
  }
  first.__mpText = text;
  const src = JSON.parse(text);
  box.__mpDrawing = window.__mpLoadPlotly(src.plotly).then((Plotly) => {
    let gd = box.firstElementChild;
    if (gd.__mpText !== text) return;  // a newer figure arrived while plotly.js loaded
    const fig = src.figure;
    const layout = fig.layout || {};
    // Plotly.react redraws a figure of the same shape in place (a slider notch, a new data
    // set); one of another shape (the phone's single panel after the wide row of panels)
    // gets a new graph, drawn from scratch: react leaves parts of the old layout behind
    const sig = shape(src);
    if (gd._fullLayout && gd.__mpShape !== sig) {
      const fresh = document.createElement("div");
      fresh.className = "mp-graph";
      fresh.__mpText = gd.__mpText;
      fresh.__mpSet = gd.__mpSet;
      Plotly.purge(gd);
      box.replaceChild(fresh, gd);
      gd = fresh;
    }
    gd.__mpShape = sig;
    // a new revision for new data only: with the same revision plotly.js takes the data as
    // drawn and redraws the rest (a new Play speed) without recomputing the graph
    const kept = !!gd.__mpRev && gd.__mpDataKey === src.data_key;
    if (!kept) {
      gd.__mpRev = (gd.__mpRev || 0) + 1;
      gd.__mpDataKey = src.data_key;
    }
    layout.datarevision = gd.__mpRev;
    // plotly.js compares the template by identity: a copy equal to the one drawn last would
    // recompute the graph, so that one is given again
    const template = JSON.stringify(layout.template || null);
    if (gd.__mpTemplate === template && gd.layout) layout.template = gd.layout.template;
    gd.__mpTemplate = template;
    if (src.select) layout.clickmode = layout.clickmode || "event+select";
    const config = Object.assign({ responsive: true }, src.config || {});
    // on a touch screen plotly.js shows its toolbar for good (it cannot wait for a hover),
    // over the figure's title and legend: there the figure is for reading, without it
    if (NO_HOVER && config.displayModeBar === undefined) config.displayModeBar = false;
    // plotly.js compares the arguments of menu buttons and slider steps as String(args)
    // ("[object Object]"), so react alone redraws neither for a new Play speed (only a
    // recomputed graph redraws them): a changed menu or slider is given again, which draws it
    const menus = {};
    for (const name of ["updatemenus", "sliders"]) {
      const now = JSON.stringify(layout[name] || null);
      if (kept && layout[name] && gd.__mpMenus && gd.__mpMenus[name] !== now) menus[name] = layout[name];
      (gd.__mpMenus || (gd.__mpMenus = {}))[name] = now;
    }
    let drawn = Plotly.react(gd, { data: fig.data || [], layout, frames: fig.frames || [], config });
    if (Object.keys(menus).length) drawn = drawn.then(() => Plotly.relayout(gd, menus));
    if (src.select && !gd.__mpSelect) {
      gd.__mpSelect = true;
      drawn.then(() => {
        gd.on("plotly_selected", (ev) => gd.__mpSet && gd.__mpSet("selection", selected(ev)));
        gd.on("plotly_deselect", () => gd.__mpSet && gd.__mpSet("selection", { points: [] }));
      });
    }
    drawn.catch((err) => console.error("chart not drawn", err));
    return drawn;
  }, (err) => {
    box.firstElementChild.textContent = "This chart could not be drawn: plotly.js did not load. Reload the page.";
    console.error(err);
    throw err;
  });
  done(box.__mpDrawing);
}
