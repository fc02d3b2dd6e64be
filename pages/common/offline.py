"""An offline copy of an animated figure: one standalone HTML file that plays with no network.

:func:`animation_html` writes the figure (its frames, ▶ Play / ❚❚ Pause buttons and
step slider as built by :mod:`mpcore.plots`), the installed plotly package's own
plotly.js (embedded, never a CDN), a step counter and the per-step text lines
(the equations' numbers) into one HTML string. A lecturer saves it before the
lecture and opens it from a disk when the hall's network fails.

- Nothing is fetched: no script, style sheet, font, image or MathJax is linked;
  the fonts are the system's (plotly's own font stack).
- The counter and the lines follow the figure on every ``plotly_animatingframe``
  (Play), slider move and keyboard step.
- The figure is sized to the window's height (never below 3/4 of its own height
  nor 480 px), with the title, counter and lines in a column beside it: on a
  projector its Play button and slider show without scrolling.
- Keys: space plays or pauses, ← / → step back / forward one frame (with
  ``Plotly.animate``), Home / End go to the first / last frame.
- Title, caption and lines are plain text: they are escaped where written into
  the HTML, and set with ``textContent`` (never ``innerHTML``) by the script.

No Streamlit import: a page offers the result with ``st.download_button``.
"""

from __future__ import annotations

import html
import json
from typing import Any

__all__ = ["animation_html"]

#: Keys of the figure's config in the file (no logo, no link to an online editor).
_CONFIG = {"displaylogo": False, "responsive": True, "showLink": False,
           "showSendToCloud": False, "showEditInChartStudio": False, "typesetMath": False}


def _script_json(obj: Any) -> str:
    """JSON safe to place inside ``<script>``: ``<``, ``>``, ``&`` and the JavaScript
    line separators are written as ``\\uXXXX`` escapes (they only occur inside JSON strings)."""
    from plotly.io.json import to_json_plotly

    text = to_json_plotly(obj) if not isinstance(obj, str) else obj
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _figure_dict(fig) -> dict:
    if hasattr(fig, "to_plotly_json"):
        fig = fig.to_plotly_json()
    if not isinstance(fig, dict) or "data" not in fig:
        raise TypeError("fig must be a plotly figure dict (with 'data', 'layout' and 'frames')")
    return fig


def _start_step(fig: dict, k: int) -> int:
    """1-based step the figure opens on (its slider's ``active``)."""
    sliders = (fig.get("layout") or {}).get("sliders") or []
    active = sliders[0].get("active", 0) if sliders and isinstance(sliders[0], dict) else 0
    try:
        active = int(active)
    except (TypeError, ValueError):
        active = 0
    return min(max(active + 1, 1), max(k, 1))


_CSS = """
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; padding: 8px 16px 16px; background: #ffffff; color: #1f2230;
       font-family: "Source Sans Pro", "Open Sans", "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
       font-size: 18px; line-height: 1.45; }
/* the figure on the left, everything else in a column beside it (one screen on a projector);
   a narrow window stacks the column above the figure */
.view { display: grid; grid-template-columns: minmax(0, 1fr) minmax(16rem, 24rem); gap: 0 1.25rem;
        align-items: start; }
.side { grid-column: 2; grid-row: 1; position: sticky; top: 8px; }
.plot { grid-column: 1; grid-row: 1; min-width: 0; }
@media (max-width: 900px) {
  .view { grid-template-columns: minmax(0, 1fr); }
  .side { grid-column: 1; grid-row: 1; position: static; }
  .plot { grid-row: 2; }
}
h1 { font-size: 1.35rem; line-height: 1.25; margin: 0.3rem 0 0.3rem 0; }
.caption { color: #31333f; margin: 0 0 0.5rem 0; font-size: 1rem; }
.counter { display: block; font-size: 1.7rem; font-weight: 700; font-variant-numeric: tabular-nums;
           margin: 0.4rem 0 0.3rem 0; }
.keys { color: #31333f; font-size: 0.95rem; margin: 0 0 0.6rem 0; }
kbd { border: 1px solid #8a8d99; border-radius: 4px; padding: 0 0.3em; font-family: inherit;
      background: #f5f5f7; color: #1f2230; }
.lines { font-size: 1.15rem; font-variant-numeric: tabular-nums; }
.line { overflow-wrap: anywhere; margin: 0 0 0.5rem 0; }
.plot:focus { outline: none; }
"""

# The script: reads the figure and the lines from JSON script elements (data, never
# code), draws the figure, then follows it. ``cur`` is the step shown (1-based).
_JS = r"""
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
"""


def animation_html(fig: dict, *, title: str, lines: list[list[str]], caption: str = "") -> str:
    """One standalone HTML page that plays ``fig`` with no network.

    Parameters
    ----------
    fig : dict
        An animated plotly figure dict (``data``, ``layout``, ``frames`` named
        "1".."k", with the Play / Pause buttons and slider of
        :func:`mpcore.plots._common.play_controls`), e.g. ``cached.skpca_figure(...)``
        cut with :func:`mpcore.plots.cut_animation`. A ``go.Figure`` is accepted too.
    title : str
        Heading and window title (plain text).
    lines : list of list of str
        ``lines[j - 1]`` are the text lines shown at step j (plain text, escaped);
        missing steps show no lines.
    caption : str
        A sentence under the title (plain text), e.g. the data set and kernel.

    Returns
    -------
    str
        The HTML document (UTF-8 text, about 5 MB: plotly.js is embedded).
    """
    from plotly.offline import get_plotlyjs

    fig = _figure_dict(fig)
    frames = fig.get("frames") or []
    k = max(len(frames), 1)
    rows = [[str(t) for t in (step or [])] for step in (lines or [])]
    start = _start_step(fig, k)
    first = rows[start - 1] if start - 1 < len(rows) else []
    esc = html.escape
    plotly_js = get_plotlyjs()
    if "</script" in plotly_js.lower():  # never true for plotly's own bundle
        raise ValueError("the plotly.js bundle cannot be embedded in a <script> element")
    keys = ("<kbd>Space</kbd> play / pause · <kbd>←</kbd> <kbd>→</kbd> step · "
            "<kbd>Home</kbd> <kbd>End</kbd> first / last")
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        # no network at all, whatever a figure asks for
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "script-src 'unsafe-inline' 'unsafe-eval'; style-src 'unsafe-inline'; "
        "img-src data: blob:; font-src data:; worker-src blob:\">",
        f"<title>{esc(title)}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        f'<body data-step="{start}" data-playing="false">',
        "<main>",
        '<div class="view">',
        '<div class="plot" id="mp-plot" tabindex="-1"></div>',
        '<div class="side">',
        f"<h1>{esc(title)}</h1>",
        f'<p class="caption">{esc(caption)}</p>' if caption else "",
        f'<span class="counter" id="mp-counter" aria-live="polite">Step {start} of {k}</span>',
        f'<p class="keys">{keys}</p>',
        '<div class="lines" id="mp-lines-box" aria-live="polite">'
        + "".join(f'<p class="line">{esc(t)}</p>' for t in first) + "</div>",
        "</div>",
        "</div>",
        "</main>",
        f'<script type="application/json" id="mp-figure">{_script_json(fig)}</script>',
        f'<script type="application/json" id="mp-lines">{_script_json(json.dumps(rows))}</script>',
        f'<script type="application/json" id="mp-config">{_script_json(json.dumps(_CONFIG))}</script>',
        f'<script type="text/javascript">{plotly_js}</script>',
        f"<script>{_JS}</script>",
        "</body>",
        "</html>",
        "",
    ])
