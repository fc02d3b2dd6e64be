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

:func:`animation_html` needs no Streamlit; :func:`offline_download`, the page's button,
imports it when called. The file's CSS and JavaScript are ``offline.css`` and ``offline.js``,
beside this module.
"""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING, Any

from .assets import asset

if TYPE_CHECKING:
    from .state import Schema

__all__ = ["animation_html", "offline_download"]

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


#: The file's style sheet and script (``offline.css``, ``offline.js`` beside this module).
#: The script reads the figure and the lines from JSON script elements (data, never code),
#: draws the figure, then follows it.
_CSS = asset("offline.css")
_JS = asset("offline.js")


def animation_html(fig: dict, *, title: str, lines: list[list[str]], caption: str = "") -> str:
    """One standalone HTML page that plays ``fig`` with no network.

    Parameters
    ----------
    fig : dict
        An animated plotly figure dict (``data``, ``layout``, ``frames`` named
        "1".."k", with the Play / Pause buttons and slider of
        :func:`mpcore.plots._common.play_controls`), e.g. ``cached.skpca_figure(...)``
        cut with :func:`pages.common.figure_frames.cut_animation`. A ``go.Figure`` is accepted too.
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


def offline_download(schema: Schema, fig: dict, lines: list[list[str]], *, title: str,
                     caption: str = ""):
    """"Download animation": one standalone HTML file (plotly.js inside, no network needed)
    with the animation, its controls and the per-step numbers, for a hall without network.

    The file (several MB, plotly.js embedded) is built only when the button is pressed.
    """
    import streamlit as st

    def build() -> bytes:
        return animation_html(fig, title=title, lines=lines, caption=caption).encode("utf-8")

    st.download_button("⬇ Download animation (offline HTML)", data=build,
                       file_name=f"{schema.page}_animation.html", mime="text/html",
                       key=f"{schema.page}.offline", on_click="ignore",
                       help="One file that plays in any browser without a network: the "
                            "animation, Play/Pause, the step slider, keys and the numbers.")
