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
HTML: the component sets ``textContent``). The component's JavaScript and CSS are
``timeline.js`` and ``timeline.css``, beside this module. The rest of an animated page's
furniture: :mod:`pages.common.step_buttons`, :mod:`pages.common.presentation`,
:mod:`pages.common.phone` and :func:`pages.common.offline.offline_download`.
"""

from __future__ import annotations

import streamlit as st

from .assets import asset
from .charts import draw_number
from .phone import NARROW, is_narrow, remember_width
from .state import Schema
from .widgets import current, update

#: The component's script and style sheet, beside this module.
_JS = asset("timeline.js")
_CSS = asset("timeline.css")

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
