"""One timeline per animated page: Play/Pause, the slider, Step/Back, the counter,
the equations' live numbers and the URL's ``j`` are one state.

Playing stays in the browser: the figure's own frames animate with no server
round trip. A small custom component (Streamlit components v2, a few lines
of JavaScript and no iframe) listens to the figure's animation events: while
frames play it updates the step counter and the per-step numbers of the
equations, which it holds for every step, so they never lag the figure; when
the animation is paused, ends, or the slider is moved, it reports the step
once, and the page stores it in its state (and so in the URL). Step ▶ then
continues from the paused step, and ▶ Play continues from the current frame
(``fromcurrent``).

Step ▶, ◀ Back, ⟲ Reset and Last ▶▶ (and their keys) are answered in the browser
too: the component catches their clicks, moves the counter, the numbers and the
figure to the target step at once, and sends the page the target itself with a
sequence number (not "one more", which clicks faster than the page's runs would
add up differently). The page stores the step and returns the number of the last
one it stored, so a run that has not seen the latest click leaves the browser's
step alone (its figure is moved to that step before it is shown). Without the
component (AppTest, no JavaScript) the buttons' own callbacks move the step.

The per-step numbers are passed as plain text (the page escapes nothing into
HTML: the component sets ``textContent``).
"""

from __future__ import annotations

import streamlit as st

from .charts import draw_number
from .state import Schema
from .widgets import current, update

_JS = r"""
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
      if (t && t.closest && t.closest(
          "input, textarea, select, button, [role=slider], [role=combobox], [contenteditable]")) {
        return;
      }
      const click = (suffix) => {
        const b = document.querySelector(`.st-key-${tl.data.page}-${suffix} button`);
        if (b && !b.disabled) { b.click(); e.preventDefault(); }
      };
      if (e.key === " ") { tl.press(tl.playing ? "Pause" : "Play"); e.preventDefault(); }
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
"""

_CSS = """
.tl { font-family: inherit; color: var(--st-text-color, #262730); }
.tl-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin: 0 0 0.3rem 0; }
.tl-count { font-size: 1.6rem; font-weight: 700; line-height: 1.3; margin-right: 0.5rem; }
.tl-bar button { font: inherit; font-size: 1rem; padding: 0.3rem 0.8rem; border-radius: 0.5rem;
  border: 1px solid rgba(49, 51, 63, 0.35); background: #fff; color: #262730; cursor: pointer; }
.tl-bar button:hover { border-color: #c0392b; color: #c0392b; }
.tl-lines { font-size: 1.05rem; line-height: 1.5; font-variant-numeric: tabular-nums; }
.tl-line { overflow-wrap: anywhere; }
.tl.present .tl-count { font-size: 2.1rem; }
.tl.present .tl-lines { font-size: 1.3rem; }
.tl.present .tl-bar button { font-size: 1.2rem; }
"""

_HTML = ('<div class="tl" data-step="1"><div class="tl-bar"><span class="tl-count"></span>'
         '<button class="tl-play" type="button" title="Play in the browser (space)">▶ Play</button>'
         '<button class="tl-pause" type="button" title="Pause (space)">❚❚ Pause</button></div>'
         '<div class="tl-lines"></div></div>')

_COMPONENT = st.components.v2.component("mp_timeline", html=_HTML, css=_CSS, js=_JS)


def chart_key(schema: Schema) -> str:
    """Key of the container holding the animated figure (its CSS class is ``st-key-<key>``)."""
    return f"{schema.page}-figure"


def timeline(schema: Schema, *, n_steps: int, lines: list[list[str]]):
    """The live step counter and per-step numbers, bound to the page's ``j``.

    ``lines[j - 1]`` are the text lines shown at step j. Draw the figure in
    ``st.container(key=chart_key(schema))`` so the component can follow it.
    """
    state = current(schema)
    j = min(max(int(state["j"]), 1), n_steps)

    seq_key = f"_{schema.page}.timeline.seq"

    def _on_step():
        value = st.session_state.get(f"{schema.page}.timeline", {}).get("step")
        if isinstance(value, dict):  # {"j": step, "seq": its number}: the number is returned
            seq = value.get("seq")
            if isinstance(seq, int) and not isinstance(seq, bool) and 0 <= seq < 2**31:
                st.session_state[seq_key] = seq
            value = value.get("j")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            update(schema, j=min(max(int(value), 1), n_steps))
            st.session_state[_browser_key(schema)] = True  # the browser shows it already

    def _on_vh():
        value = st.session_state.get(f"{schema.page}.timeline", {}).get("vh")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            st.session_state["_window_height"] = int(min(max(value, 300), 4000))

    def _on_vw():
        remember_width(st.session_state.get(f"{schema.page}.timeline", {}).get("vw"))

    key = f"{schema.page}.timeline"
    data = dict(j=j, seq=int(st.session_state.get(seq_key, 0)), n=int(n_steps),
                chart=chart_key(schema), lines=lines, page=schema.page,
                present=bool(state.get("present", False)),
                vh=st.session_state.get("_window_height", 0), narrow=is_narrow(),
                narrowBelow=NARROW)
    _COMPONENT(key=key, data=dict(data, draw=draw_number(key, data)),
               on_step_change=_on_step, on_vh_change=_on_vh, on_vw_change=_on_vw)


def _browser_key(schema: Schema) -> str:
    return f"_{schema.page}.timeline.browser"


def figure_step(schema: Schema, j: int, *, keep: bool = True) -> int:
    """The step to open the page's animated figure at in this run (call it once per run).

    A run that answers a step the browser has already drawn (Step, Back, Reset, Last,
    or a pause, through the timeline component) opens the figure at the same step as the
    run before. The figure's JSON is then unchanged, so Streamlit keeps the chart the
    browser has moved to the step itself: a new JSON would make it mount a new chart
    element and draw every trace and frame again. Any other run (a control changed, a
    page opened from a link, a step button without JavaScript), or ``keep=False`` (a
    figure that is also a widget, whose clicks must not outlive the step), opens it at
    ``j``. The timeline component moves a figure opened at another step to its own step
    before showing it.
    """
    opened = f"_{schema.page}.timeline.opened"
    from_browser = st.session_state.pop(_browser_key(schema), False)
    if from_browser and keep and isinstance(st.session_state.get(opened), int):
        return st.session_state[opened]
    st.session_state[opened] = int(j)
    return int(j)


#: Below this window width (px) the animated pages show one panel at a time (a phone;
#: Streamlit stacks columns below 640 px too).
NARROW = 640


def remember_width(value) -> None:
    """Keep a window width (px) a component reported, clamped, for :func:`is_narrow`; a
    value that is not a number is ignored."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        st.session_state["_window_width"] = int(min(max(value, 200), 10000))


def mobile_agent(user_agent) -> bool:
    """Whether a User-Agent header is a phone's: it holds "Mobi", the token browsers on
    phones send (and tablets, wide enough for the full layout, do not)."""
    return isinstance(user_agent, str) and "Mobi" in user_agent


def is_narrow() -> bool:
    """Whether the window is narrower than :data:`NARROW` (a phone): as the browser reported
    it, or, on a session's first run, before any report, as its User-Agent says
    (:func:`mobile_agent`). A phone then gets its layout from the first run; the fit
    component (``pages/common/fit.py``) reports the width only when the guess was wrong
    (a phone held sideways), and that report reruns the page for the window."""
    width = st.session_state.get("_window_width")
    if width is None:
        return mobile_agent(st.context.headers.get("User-Agent"))
    return int(width) < NARROW


def phone_grid(fig):
    """``fig`` as it is, or on a phone its panels one under the other, as wide as the screen,
    titles wrapped and the legend in rows under them (:func:`mpcore.plots.narrow_grid`).
    For a figure of panels side by side that does not animate (KMP's comparison, the
    papers' figures)."""
    if fig is None or not is_narrow():
        return fig
    from mpcore.plots import narrow_grid

    return narrow_grid(fig.to_dict() if hasattr(fig, "to_dict") else fig, columns=1)


def phone_panel(schema: Schema, fig: dict, names: dict[str, str], *, height: int = 560) -> dict:
    """On a phone, a 'Panel' selector and only that panel of ``fig``, full width.

    ``names`` maps a panel's axis suffix ('' for the first, '2', ...) to its name; panels
    not listed (or hidden in this figure) are not offered. On a wider window ``fig`` is
    returned as it is. The choice is the device's, not the view's: it is not in the link.
    """
    if not is_narrow():
        return fig
    from mpcore.plots import narrow_layout, one_panel, panels

    offered = [s for s in panels(fig) if s in names]
    if len(offered) < 2:
        return narrow_layout(fig, height=height + 260)
    pick = st.radio("Panel", offered, format_func=names.get, key=f"{schema.page}.panel",
                    horizontal=True, help="A narrow screen shows one panel of the animation at "
                    "a time; every panel follows the same step.")
    return one_panel(fig, pick, height=height)


def step_buttons(schema: Schema, n_steps: int, *, wrap: bool = False):
    """⟲ Reset, ◀ Back, Step ▶ and ⏭ Last on the page's one timeline.

    ``wrap`` (and always on a phone): buttons as wide as their labels, in a row that wraps
    (for a narrow column); otherwise four equal columns."""
    def go(j):
        update(schema, j=min(max(j, 1), n_steps))

    def move(delta):
        go(current(schema)["j"] + delta)

    if wrap or is_narrow():  # as wide as their labels (a phone's columns would stack)
        row = st.container(horizontal=True, gap="small", key=f"{schema.page}-step-row")
        c0 = c1 = c2 = c3 = row
        width = "content"
    else:
        c0, c1, c2, c3 = st.columns(4)
        width = "stretch"
    c0.button("⟲ Reset", on_click=go, args=(1,), key=f"{schema.page}.reset_step",
              width=width, help="Back to step 1 (Home)")
    c1.button("◀ Back", on_click=move, args=(-1,), key=f"{schema.page}.back", width=width,
              help="One step back (←)")
    c2.button("Step ▶", on_click=move, args=(1,), key=f"{schema.page}.next", width=width,
              help="One step forward (→)")
    c3.button("Last ▶▶", on_click=go, args=(n_steps,), key=f"{schema.page}.last",
              width=width, help="The last step (End)")


# ---------------------------------------------------------------- presentation mode

_PRESENT_CSS = """
<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
[data-testid="stExpandSidebarButton"], header[data-testid="stHeader"] { display: none !important; }
[data-testid="stMainBlockContainer"] { padding: 0.75rem 1.5rem 1rem 1.5rem !important;
  max-width: 100% !important; }
</style>
"""


def presentation_toggle(schema: Schema) -> bool:
    """The presentation-mode switch (a URL field, ``present``), top of the page."""
    state = current(schema)
    if "present" in state.hidden:  # a classroom link fixed it: not drawn, used as given
        on = bool(state["present"])
    else:
        on = st.toggle("Presentation mode", key="present",
                       help="Hides the sidebar, title and captions, and fits the animation and "
                            "its controls on one screen for a projector. Keys: space play/pause, "
                            "← → step, Home / End.")
    if on:
        st.markdown(_PRESENT_CSS, unsafe_allow_html=True)
    return bool(on)


def fit_to_window(fig: dict, present: bool, *, reserve: int = 150,
                  compact_axes: tuple = ()) -> dict:
    """In presentation mode the figure is as tall as the window allows (the timeline
    component reports the window's height; 720 px, a projector, until it has).

    ``compact_axes``: axes whose titles are dropped when the figure gets short (the
    top row's, which would otherwise run into the panel titles below them).
    """
    if not present:
        return fig
    height = max(int(st.session_state.get("_window_height", 720)) - reserve, 360)
    from mpcore.plots import resized  # controls and colour bars keep their pixel offsets
    fig = resized(fig, height)
    layout = dict(fig.get("layout", {}), height=height)
    if height < 640:
        for axis in compact_axes:
            if axis in layout:
                layout[axis] = {k: v for k, v in layout[axis].items() if k != "title"}
    return dict(fig, layout=layout)


def offline_download(schema: Schema, fig: dict, lines: list[list[str]], *, title: str,
                     caption: str = ""):
    """"Download animation": one standalone HTML file (plotly.js inside, no network needed)
    with the animation, its controls and the per-step numbers, for a hall without network.

    The file (several MB, plotly.js embedded) is built only when the button is pressed.
    """
    from .offline import animation_html

    def build() -> bytes:
        return animation_html(fig, title=title, lines=lines, caption=caption).encode("utf-8")

    st.download_button("⬇ Download animation (offline HTML)", data=build,
                       file_name=f"{schema.page}_animation.html", mime="text/html",
                       key=f"{schema.page}.offline", on_click="ignore",
                       help="One file that plays in any browser without a network: the "
                            "animation, Play/Pause, the step slider, keys and the numbers.")
