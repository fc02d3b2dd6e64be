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

The per-step numbers are passed as plain text (the page escapes nothing into
HTML: the component sets ``textContent``).
"""

from __future__ import annotations

import streamlit as st

from .state import Schema
from .widgets import current, update

_JS = r"""
export default function (component) {
  const { parentElement, data, setTriggerValue } = component;
  const root = parentElement.querySelector(".tl");
  if (!root) return;
  const s = root.__tl || (root.__tl = {});
  s.data = data;
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
  if (!s.playing) show(data.j);
  s.reported = data.j;
  const settle = () => {
    s.playing = false;
    root.dataset.playing = "false";
    if (s.j !== s.reported) {
      s.reported = s.j;
      setTriggerValue("step", s.j);
    }
  };
  const frameOf = (name) => {
    const j = parseInt(name, 10);
    return Number.isFinite(j) ? j : null;
  };
  const attach = () => {
    const gd = document.querySelector(`.st-key-${s.data.chart} .js-plotly-plot`);
    if (!gd || gd === s.gd || typeof gd.on !== "function") return;
    s.gd = gd;
    gd.on("plotly_animatingframe", (ev) => {
      const j = frameOf(ev && ev.name);
      if (j === null) return;
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
  };
  clearInterval(s.timer);
  s.timer = setInterval(attach, 250);
  attach();
  return () => clearInterval(s.timer);
}
"""

_CSS = """
.tl { font-family: inherit; color: var(--st-text-color, #262730); }
.tl-count { font-size: 1.6rem; font-weight: 700; line-height: 1.3; margin: 0 0 0.25rem 0; }
.tl-lines { font-size: 1.05rem; line-height: 1.5; font-variant-numeric: tabular-nums; }
.tl-line { overflow-wrap: anywhere; }
"""

_COMPONENT = st.components.v2.component(
    "mp_timeline",
    html='<div class="tl" data-step="1"><div class="tl-count"></div><div class="tl-lines"></div></div>',
    css=_CSS, js=_JS)


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

    def _on_step():
        value = st.session_state.get(f"{schema.page}.timeline", {}).get("step")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            update(schema, j=min(max(int(value), 1), n_steps))

    _COMPONENT(key=f"{schema.page}.timeline",
               data=dict(j=j, n=int(n_steps), chart=chart_key(schema), lines=lines),
               on_step_change=_on_step)


def step_buttons(schema: Schema, n_steps: int):
    """⟲ Reset, ◀ Back, Step ▶ and ⏭ Last on the page's one timeline."""
    def go(j):
        update(schema, j=min(max(j, 1), n_steps))

    def move(delta):
        go(current(schema)["j"] + delta)

    c0, c1, c2, c3 = st.columns(4)
    c0.button("⟲ Reset", on_click=go, args=(1,), key=f"{schema.page}.reset_step",
              width="stretch", help="Back to step 1 (Home)")
    c1.button("◀ Back", on_click=move, args=(-1,), key=f"{schema.page}.back", width="stretch",
              help="One step back (←)")
    c2.button("Step ▶", on_click=move, args=(1,), key=f"{schema.page}.next", width="stretch",
              help="One step forward (→)")
    c3.button("⏭ Last", on_click=go, args=(n_steps,), key=f"{schema.page}.last",
              width="stretch", help="The last step (End)")
