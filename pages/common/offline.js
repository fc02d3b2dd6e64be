(function () {
  "use strict";
  const fig = JSON.parse(document.getElementById("mp-figure").textContent);
  const lines = JSON.parse(document.getElementById("mp-lines").textContent);
  const config = JSON.parse(document.getElementById("mp-config").textContent);
  const gd = document.getElementById("mp-plot");
  const counter = document.getElementById("mp-counter");
  const box = document.getElementById("mp-lines-box");
  const frames = (fig.frames || []).map((f) => String(f.name));
  const k = Math.max(frames.length, 1);
  const menu = ((fig.layout || {}).updatemenus || [])[0] || {};
  const button = (paused) => (menu.buttons || []).find((b) => b.method === "animate" &&
      Array.isArray(b.args) && (paused ? Array.isArray(b.args[0]) && b.args[0][0] === null
                                       : b.args[0] === null));
  const playOpts = ((button(false) || {}).args || [])[1] ||
      {frame: {duration: 300, redraw: true}, fromcurrent: true, transition: {duration: 0},
       mode: "immediate"};
  const stepOpts = {mode: "immediate", frame: {duration: 0, redraw: true},
                    transition: {duration: 0}};
  let cur = parseInt(document.body.dataset.step, 10) || 1;
  let playing = false;

  const show = (j) => {
    cur = Math.max(1, Math.min(k, j));
    document.body.dataset.step = String(cur);
    counter.textContent = "Step " + cur + " of " + k;
    const rows = lines[cur - 1] || [];
    box.replaceChildren(...rows.map((t) => {
      const p = document.createElement("p");
      p.className = "line";
      p.textContent = String(t);
      return p;
    }));
  };
  const stepOf = (name) => {
    const i = frames.indexOf(String(name));
    return i < 0 ? null : i + 1;
  };
  const setPlaying = (on) => {
    playing = on;
    document.body.dataset.playing = on ? "true" : "false";
  };
  // Pausing makes plotly.js reject the running animation's promise with no value.
  window.addEventListener("unhandledrejection", (ev) => {
    if (ev.reason === undefined) ev.preventDefault();
  });
  const quiet = (p) => (p && typeof p.catch === "function" ? p.catch(() => {}) : p);

  const goTo = (j) => {
    j = Math.max(1, Math.min(k, j));
    setPlaying(false);
    if (!frames.length) return;
    quiet(Plotly.animate(gd, [frames[j - 1]], stepOpts));
    show(j);
  };
  const play = () => {
    if (!frames.length) return;
    setPlaying(true);
    quiet(Plotly.animate(gd, null, playOpts));
  };
  const pause = () => {
    setPlaying(false);
    quiet(Plotly.animate(gd, [null], stepOpts));
  };

  // Fit the figure to the window (a projector at 1280x720 shows it with its controls
  // and no scrolling); never below MIN_HEIGHT, and a narrow window keeps the figure's own.
  const MIN_HEIGHT = Math.max(480, Math.round(0.75 * ((fig.layout || {}).height || 600)));
  const ownHeight = (fig.layout || {}).height || 600;
  const fitHeight = () => {
    if (window.innerWidth < 900) return ownHeight;
    const top = gd.getBoundingClientRect().top + window.scrollY;
    return Math.max(MIN_HEIGHT, Math.floor(window.innerHeight - top - 8));
  };
  fig.layout = Object.assign({}, fig.layout, {height: fitHeight()});
  let resizing = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => {
      const h = fitHeight();
      if (gd._fullLayout && Math.abs(gd._fullLayout.height - h) > 2) Plotly.relayout(gd, {height: h});
    }, 150);
  });

  Plotly.newPlot(gd, fig.data, fig.layout, config).then(() => {
    if (frames.length) return Plotly.addFrames(gd, fig.frames);
  }).then(() => {
    gd.on("plotly_animatingframe", (ev) => {
      const j = stepOf(ev && ev.name);
      if (j !== null) show(j);
    });
    gd.on("plotly_animated", () => setPlaying(false));
    gd.on("plotly_animationinterrupted", () => setPlaying(false));
    gd.on("plotly_sliderchange", (ev) => {
      const args = ev && ev.step && ev.step.args;
      const j = stepOf(args && args[0] && args[0][0]);
      if (j !== null) show(j);
    });
    gd.on("plotly_buttonclicked", (ev) => {
      const args = ev && ev.button && ev.button.args;
      if (!args || ev.button.method !== "animate") return;
      setPlaying(args[0] === null);
    });
    show(cur);
    document.body.dataset.ready = "true";
  });

  document.addEventListener("keydown", (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || !document.body.dataset.ready) return;
    const key = ev.key;
    if (key === " " || key === "Spacebar") { playing ? pause() : play(); }
    else if (key === "ArrowRight") { goTo(cur + 1); }
    else if (key === "ArrowLeft") { goTo(cur - 1); }
    else if (key === "Home") { goTo(1); }
    else if (key === "End") { goTo(k); }
    else return;
    ev.preventDefault();
  });
})();
