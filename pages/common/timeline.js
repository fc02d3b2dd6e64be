export default function (component) {
  const { parentElement, data, setTriggerValue } = component;
  const root = parentElement.querySelector(".tl");
  if (!root) return;
  const s = root.__tl || (root.__tl = { seq: data.seq || 0 });
  // an older run's data that arrives after a newer one's is left out (see draw_number)
  if (s.data && (data.draw || 0) < (s.data.draw || 0)) return;
  s.data = data;
  root.classList.toggle("present", !!data.present);
  const count = root.querySelector(".tl-count");
  const lines = root.querySelector(".tl-lines");
  const show = (j) => {
    j = Math.max(1, Math.min(s.data.n, j));
    s.j = j;
    root.dataset.step = String(j);
    count.textContent = `Step ${j} of ${s.data.n}`;
    const rows = s.data.lines[j - 1] || [];
    lines.replaceChildren(...rows.map((t) => {
      const p = document.createElement("div");
      p.className = "tl-line";
      p.textContent = t;
      return p;
    }));
  };
  // Every step sent to the page carries a number; the page returns the number of the
  // last one it stored. A run that has not seen the latest step yet (one interrupted by
  // a second click, or a run under way when Step was pressed) leaves the browser's step.
  const current = (data.seq || 0) >= s.seq;
  if (current) s.seq = s.ack = data.seq || 0;
  if (!s.playing && (current || s.j === undefined)) show(data.j);
  s.reported = current ? data.j : s.j;
  const send = (j) => {
    s.seq += 1;
    s.reported = j;
    setTriggerValue("step", { j, seq: s.seq });
  };
  const sliderAt = (gd) => {
    const sl = gd.layout && gd.layout.sliders && gd.layout.sliders[0];
    return sl && typeof sl.active === "number" ? sl.active + 1 : null;
  };
  const reveal = (gd = s.gd) => { if (gd && gd.style.visibility === "hidden") gd.style.visibility = ""; };
  const hide = (gd) => {
    if (gd.style.visibility === "hidden") return;
    gd.style.visibility = "hidden";
    setTimeout(() => reveal(gd), 1000);  // never left hidden
  };
  const settle = () => {
    if (s.gd && sliderAt(s.gd) === s.j) reveal();
    s.playing = false;
    root.dataset.playing = "false";
    if (s.stepTo !== null && s.stepTo !== undefined) { s.stepTo = null; return; }
    if (s.j !== s.reported) send(s.j);
  };
  const frameOf = (name) => {
    const j = parseInt(name, 10);
    return Number.isFinite(j) ? j : null;
  };
  // the figure on frame j at once (frames are named "1".."n"; the slider follows them)
  const toFrame = (j) => {
    const gd = s.gd, P = window.Plotly;
    if (!gd || !P || !gd._fullLayout || !gd._transitionData) return false;
    if (!(gd._transitionData._frameHash || {})[String(j)]) return false;
    if (sliderAt(gd) === j && gd._fullLayout._currentFrame === String(j)) return true;
    s.stepTo = String(j);
    gd.__mpAt = j;
    P.animate(gd, [String(j)], { mode: "immediate", frame: { duration: 0, redraw: true },
                                 transition: { duration: 0 } }).then(() => {
      // a figure redrawn by the page may not move its slider with the frame: set it
      if (gd.__mpAt === j && sliderAt(gd) !== j) P.relayout(gd, { "sliders[0].active": j - 1 });
    }, () => {});
    return true;
  };
  // a figure drawn by the page: while a step the page has not stored yet is pending, a
  // run that had not seen it draws an older step, so a new figure element is hidden until
  // it is on the browser's step. Play continues from the step shown.
  const follow = () => {
    const gd = s.gd;
    if (!gd || !gd._fullLayout || s.playing) return;
    const at = sliderAt(gd);
    if (at === null) return;
    if (at !== s.j && (s.seq > (s.ack || 0) || s.sync)) {
      s.sync = false;
      if (gd.__mpAt === s.j) return;  // on its way there: shown when the frame is drawn
      if (toFrame(s.j)) hide(gd); else reveal(gd);
    } else {
      reveal(gd);
      if (!gd._fullLayout._currentFrame) gd._fullLayout._currentFrame = String(at);
    }
  };
  const attach = () => {
    const gd = document.querySelector(`.st-key-${s.data.chart} .js-plotly-plot`);
    if (!gd || gd === s.gd) return;
    if (!gd.__mpSeen) {
      gd.__mpSeen = true;
      if (s.seq > (s.ack || 0)) hide(gd);
    }
    if (typeof gd.on !== "function") return;
    s.gd = gd;
    if (!gd.__mpTap) {
      // a tap selects the point under it at once: plotly.js clicks the point the pointer
      // hovers, and a touch screen has no pointer before the tap (the first tap would only
      // show the tooltip, the second select); the hover is given first, where the finger is
      gd.__mpTap = true;
      gd.addEventListener("touchstart", (e) => {
        const t = e.touches && e.touches[0];
        if (!t || e.touches.length !== 1) return;
        const el = document.elementFromPoint(t.clientX, t.clientY);
        if (el && gd.contains(el)) {
          el.dispatchEvent(new MouseEvent("mousemove", { bubbles: true, cancelable: true,
            clientX: t.clientX, clientY: t.clientY, view: window }));
        }
      }, { capture: true, passive: true });
    }
    gd.on("plotly_animatingframe", (ev) => {
      const j = frameOf(ev && ev.name);
      if (j === null || String(j) === s.stepTo) return;
      s.playing = true;
      root.dataset.playing = "true";
      show(j);
    });
    gd.on("plotly_animated", settle);
    gd.on("plotly_animationinterrupted", settle);
    gd.on("plotly_sliderchange", (ev) => {
      // the slider also follows a playing animation: only a person's move counts
      if (!ev || ev.interaction !== true || s.playing) return;
      const args = ev.step && ev.step.args;
      const j = frameOf(args && args[0] && args[0][0]);
      if (j !== null) { show(j); settle(); }
    });
    gd.on("plotly_afterplot", follow);
    gd.on("plotly_react", () => { gd.__mpAt = null; follow(); });  // the page's figure again
    follow();
  };
  // the page's answer to the latest step: the figure shows that step too
  if (current && s.gd && !s.playing) { s.sync = true; follow(); s.sync = false; }
  // Step / Back / Reset / Last: the counter, the numbers and the figure move at once in
  // the browser; the page is sent the step itself (not "one more"), so clicks faster
  // than its runs never add up to a different step than the one shown
  s.step = (suffix) => {
    const n = s.data.n;
    const from = s.j || s.data.j;
    const j = Math.max(1, Math.min(n, suffix === "next" ? from + 1 : suffix === "back"
      ? from - 1 : suffix === "reset_step" ? 1 : n));
    show(j);
    toFrame(j);
    send(j);
  };
  // Play / Pause drive the figure's own (client-side) animation buttons
  s.press = (label) => {
    const b = s.gd && [...s.gd.querySelectorAll(".updatemenu-button")]
      .find((el) => el.textContent.includes(label));
    if (b) b.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  };
  root.querySelector(".tl-play").onclick = () => s.press("Play");
  root.querySelector(".tl-pause").onclick = () => s.press("Pause");
  window.__mpTimeline = s;
  // presentation mode sizes the figure to the window: report the window's height
  if (data.present && Math.abs((data.vh || 0) - window.innerHeight) > 40) {
    setTriggerValue("vh", window.innerHeight);
  }
  // a phone shows one panel at a time: report the width when it crosses the limit (unless
  // the page's fit component, pages/common/fit.py, has just sent the same answer)
  const sendWidth = (report) => {
    const narrow = window.innerWidth < s.data.narrowBelow;
    const sent = window.__mpWidthSent, now = performance.now();
    if (sent && sent.narrow === narrow && now - sent.t < 5000) return;
    window.__mpWidthSent = { narrow, t: now };
    report("vw", window.innerWidth);
    if (window.__mpRecheckWidth) window.__mpRecheckWidth();  // pages/common/fit.py
  };
  if ((window.innerWidth < data.narrowBelow) !== !!data.narrow) sendWidth(setTriggerValue);
  if (!window.__mpResize) {
    window.__mpResize = true;
    let t = null;
    window.addEventListener("resize", () => {
      clearTimeout(t);
      t = setTimeout(() => {
        const tl = window.__mpTimeline;
        if (tl && tl.data.present && Math.abs((tl.data.vh || 0) - window.innerHeight) > 40) {
          tl.report("vh", window.innerHeight);
        } else if (tl && (window.innerWidth < tl.data.narrowBelow) !== !!tl.data.narrow) {
          tl.sendWidth(tl.report);
        }
      }, 400);
    });
  }
  s.report = setTriggerValue;
  s.sendWidth = sendWidth;
  if (!window.__mpStepClicks) {
    // the step buttons (clicked, or pressed from the keyboard below) are answered here,
    // in the capture phase, before Streamlit's own handler would start a server run
    window.__mpStepClicks = true;
    document.addEventListener("click", (e) => {
      const tl = window.__mpTimeline;
      const b = tl && e.target && e.target.closest && e.target.closest("button");
      if (!b || b.disabled || !tl.root || !tl.root.isConnected) return;
      for (const suffix of ["next", "back", "reset_step", "last"]) {
        if (b.closest(`.st-key-${tl.data.page}-${suffix}`)) {
          e.stopPropagation();
          e.preventDefault();
          tl.step(suffix);
          return;
        }
      }
    }, true);
  }
  s.root = root;
  if (!window.__mpKeys) {
    // keyboard shortcuts, once per page: space play/pause, arrows step, Home/End
    window.__mpKeys = true;
    document.addEventListener("keydown", (e) => {
      const tl = window.__mpTimeline;
      const t = e.target;
      if (!tl || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      if (![" ", "ArrowRight", "ArrowLeft", "Home", "End"].includes(e.key)) return;
      // the timeline's own buttons (the step buttons, and Play / Pause, whose shadow root
      // retargets the event to the component's element) answer the keys as the caption
      // says: a focused button would otherwise take space as a press of itself
      const shadow = tl.root && tl.root.getRootNode();
      const host = shadow && shadow.host;
      const ours = t && t.closest && (!!t.closest(
        ["next", "back", "reset_step", "last"].map((x) => `.st-key-${tl.data.page}-${x}`)
          .join(", ")) || (host ? t === host || t.contains(host) : tl.root.contains(t)));
      if (!ours && t && t.closest && t.closest(
          "input, textarea, select, button, [role=slider], [role=combobox], [contenteditable]")) {
        return;
      }
      // keydown is prevented and the focus let go, so the keyup of space clicks nothing
      if (ours && t.blur) t.blur();
      const inner = shadow && shadow.activeElement;
      if (inner && inner.blur) inner.blur();
      const click = (suffix) => {
        const b = document.querySelector(`.st-key-${tl.data.page}-${suffix} button`);
        if (b && !b.disabled) b.click();
      };
      e.preventDefault();
      if (e.key === " ") tl.press(tl.playing ? "Pause" : "Play");
      else if (e.key === "ArrowRight") click("next");
      else if (e.key === "ArrowLeft") click("back");
      else if (e.key === "Home") click("reset_step");
      else if (e.key === "End") click("last");
    });
  }
  // a run of the page draws a new figure element: follow it as soon as it is there
  if (s.watch) s.watch.disconnect();
  s.watch = new MutationObserver(() => { attach(); follow(); });
  s.watch.observe(document.querySelector('[data-testid="stMain"]') || document.body,
                  { childList: true, subtree: true });
  clearInterval(s.timer);
  s.timer = setInterval(attach, 250);
  attach();
  return () => { clearInterval(s.timer); s.watch.disconnect(); };
}
