"""Palette, fonts and small helpers shared by every figure."""

from __future__ import annotations

import functools
import json

import numpy as np
import plotly.graph_objects as go

#: Okabe & Ito's colour-blind-safe palette.
OKABE_ITO = {
    "black": "#000000", "orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73",
    "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#CC79A7",
}
#: Order in which series take colours.
PALETTE = [OKABE_ITO[c] for c in ("blue", "orange", "green", "vermillion", "purple", "sky",
                                  "yellow", "black")]
#: Sequential colour scale for magnitudes (perceptually uniform, colour-blind safe).
SEQUENTIAL = "Cividis"
#: Diverging scale for signed values (decision functions).
DIVERGING = "RdBu"

FONT_SIZE = 17
#: Colour of every text of a figure (ticks, titles, legend, slider, buttons): 16:1 on white.
#: Set explicitly, so a host's theme (Streamlit's greys #808495, 3.7:1) never applies.
INK = "#222222"
#: Smallest contrast of text with its background (WCAG 2.1 AA, 1.4.3), kept with a margin.
MIN_CONTRAST = 4.5
_CONTRAST_MARGIN = 0.1
_NAMED = {"black": (0, 0, 0), "white": (255, 255, 255)}


#: Longest label (a data column's name) a figure shows in full: longer ones are cut with "…"
#: (a 120-character column name as an axis title ran the height of the figure, over its title).
LABEL_CHARS = 24


def plain_text(text, max_chars: int | None = LABEL_CHARS) -> str:
    """``text`` (a column name from a user's CSV, say) as plotly.js shows it character for
    character: plotly reads ``<br>``, ``<b>``, ``<a href=...>`` and entities such as ``&lt;``
    in every title and label, so ``&``, ``<`` and ``>`` are written as entities (which it
    shows as the characters); runs of white space (a line break in a quoted CSV header)
    become one space; and text longer than ``max_chars`` is cut to ``max_chars`` characters,
    the last one "…" (None: never cut).

    >>> plain_text("<b>price</b> & tax")
    '&lt;b&gt;price&lt;/b&gt; &amp; tax'
    >>> plain_text("a very long column name indeed", 12)
    'a very long…'
    """
    if max_chars is not None and (isinstance(max_chars, bool) or not isinstance(max_chars, int)
                                  or max_chars < 2):
        raise ValueError(f"max_chars must be an integer of at least 2 or None, got {max_chars!r}.")
    shown = " ".join(str(text).split())
    if max_chars is not None and len(shown) > max_chars:
        shown = shown[:max_chars - 1].rstrip() + "…"
    return shown.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def parse_colour(colour) -> tuple[float, float, float, float] | None:
    """(r, g, b, alpha) of ``#rgb``, ``#rrggbb``, ``rgb(...)``, ``rgba(...)``, black or white;
    None for anything else (a colour scale, a named colour, None)."""
    if not isinstance(colour, str):
        return None
    c = colour.strip().lower()
    if c in _NAMED:
        return (*_NAMED[c], 1.0)
    if c.startswith("#") and len(c) in (4, 7):
        h = c[1:] if len(c) == 7 else "".join(ch * 2 for ch in c[1:])
        try:
            return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16), 1.0)
        except ValueError:
            return None
    if c.startswith(("rgb(", "rgba(")) and c.endswith(")"):
        try:
            parts = [float(v) for v in c[c.index("(") + 1:-1].split(",")]
        except ValueError:
            return None
        if len(parts) in (3, 4):
            return (parts[0], parts[1], parts[2], parts[3] if len(parts) == 4 else 1.0)
    return None


def _luminance(rgb) -> float:
    def channel(v):
        v = v / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a, b="#ffffff") -> float:
    """WCAG 2.1 contrast ratio of two opaque colours (strings as :func:`parse_colour`)."""
    la, lb = (_luminance(parse_colour(c) if isinstance(c, str) else c) for c in (a, b))
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


def readable(colour, background="#ffffff", ratio=MIN_CONTRAST) -> str:
    """``colour`` as text on ``background``: unchanged when it already has ``ratio`` contrast,
    else darkened towards black in the same hue just enough (the Okabe-Ito vermillion
    #D55E00, 3.9:1 on white, becomes #C05500). A colour it cannot parse is returned as is."""
    rgb, bg = parse_colour(colour), parse_colour(background)
    if rgb is None or bg is None:
        return colour
    if rgb[3] < 1:  # translucent text: what shows is its blend with the background
        rgb = tuple(rgb[i] * rgb[3] + bg[i] * (1 - rgb[3]) for i in range(3)) + (1.0,)
    target = ratio + _CONTRAST_MARGIN
    if contrast_ratio(rgb, bg) >= target or _luminance(bg) < 0.5:
        return colour
    lo, hi = 0.0, 1.0  # scale factor of the channels: lo always reads, hi does not
    for _ in range(30):
        mid = (lo + hi) / 2
        if contrast_ratio(tuple(v * mid for v in rgb[:3]), bg) >= target:
            lo = mid
        else:
            hi = mid
    return "#{:02X}{:02X}{:02X}".format(*(int(v * lo) for v in rgb[:3]))


def _background_of(bgcolor) -> str:
    """An annotation's box over the white paper (white when it has none)."""
    rgba = parse_colour(bgcolor)
    if rgba is None:
        return "#ffffff"
    a = rgba[3]
    return "rgb({:.0f},{:.0f},{:.0f})".format(*(rgba[i] * a + 255 * (1 - a) for i in range(3)))


def _colorbar_ink(cb):
    if cb is not None:
        cb.update(tickfont_color=INK, title_font_color=INK)


def ink(fig):
    """Every text of ``fig`` readable on its white paper, whatever theme hosts the figure.

    - The layout's font, titles, axis ticks and titles, legend, colour bars, slider and
      buttons get :data:`INK` explicitly (Streamlit's chart theme would otherwise make
      ticks and axis titles grey #808495, 3.7:1 on white).
    - Annotations without a colour get :data:`INK`; those with a colour, and the text of
      scatter traces (labels drawn on the plot), keep their hue darkened by
      :func:`readable` to at least 4.5:1 with what lies behind them, in the figure and
      in the frames already attached to it.

    Call it last (:func:`base_layout` does): text added afterwards is not seen.
    """
    fig.update_layout(font_color=INK, legend_font_color=INK)
    if fig.layout.title.text:
        fig.update_layout(title_font_color=INK)
    fig.update_xaxes(tickfont_color=INK, title_font_color=INK)
    fig.update_yaxes(tickfont_color=INK, title_font_color=INK)
    for a in fig.layout.annotations:
        a.font.color = (INK if a.font.color is None
                        else readable(a.font.color, _background_of(a.bgcolor)))
    for menu in fig.layout.updatemenus:
        menu.font.color = INK
    for slider in fig.layout.sliders:
        slider.font.color = INK
        slider.currentvalue.font.color = INK
    for name in fig.layout.to_plotly_json():
        if name.startswith("coloraxis"):
            _colorbar_ink(fig.layout[name].colorbar)
    for trace in fig.data:
        if "colorbar" in trace:
            _colorbar_ink(trace.colorbar)
        marker = trace["marker"] if "marker" in trace else None
        if marker is not None and "colorbar" in marker and (
                marker.showscale or marker.colorbar.to_plotly_json()):
            _colorbar_ink(marker.colorbar)
        _readable_text(trace)
    for frame in fig.frames:  # frames already attached (go.Frame): what Play draws
        for trace in frame.data or ():
            _readable_text(trace)
        for a in (frame.layout.annotations if frame.layout else ()):
            if a.font.color is not None:
                a.font.color = readable(a.font.color, _background_of(a.bgcolor))
    return fig


def _readable_text(trace):
    """Text drawn by a scatter trace on the white plot, in its own hue at 4.5:1 or more."""
    if trace.type in ("scatter", "scattergl") and isinstance(trace.textfont.color, str):
        trace.textfont.color = readable(trace.textfont.color)


#: Distance (px) from the top edge of a figure to its title, and to a legend on top (under
#: the title when there is one).
TITLE_TOP_PX = 12
LEGEND_TOP_PX = {True: 50, False: 8}
#: plotly.js draws a title of two or more lines (``<br>``) anchored at its top 0.7 em higher
#: than a title of one line, whatever its number of lines: placed 12 px under the figure's
#: top edge, a 20 px title's first line began 6 px above it, cut there, against 8 px under
#: it for one line (measured in chromium).
MULTILINE_TITLE_RAISE_EM = 0.7


def title_top_y(height, top_px=TITLE_TOP_PX, *, multiline=False, font_size=FONT_SIZE + 3):
    """``title.y`` (``yref="container"``, ``yanchor="top"``) that puts a title's first line
    ``top_px`` under the top edge of a figure ``height`` px tall, as for one line when
    ``multiline`` (the title, or the title of any of its frames, has several lines)."""
    raise_px = MULTILINE_TITLE_RAISE_EM * font_size if multiline else 0.0
    return 1 - (top_px + raise_px) / height


def legend_on_top(fig, *, height, titled=False):
    """A horizontal legend at the top of the figure, above the plot area (under the title).

    It is placed in the figure's own coordinates (``yref="container"``), a fixed number of
    pixels from the top edge; plotly keeps the plot area below it at every width (the top
    margin grows when the legend wraps onto more rows). A legend placed in plot
    coordinates instead (``y=1.02``, anchored at its bottom) pushes the top margin when it
    wraps; when the figure then widens (a window made larger, a sidebar closed), plotly.js
    redraws it at the height computed for the old, larger margin: over the data.
    A title, if any, is pinned at the top edge too (its automatic place is the middle of the
    top margin, which the legend moves).
    """
    fig.update_layout(legend=dict(orientation="h", yref="container", yanchor="top",
                                  y=1 - LEGEND_TOP_PX[bool(titled)] / height, x=0))
    if titled:
        text = fig.layout.title.text or ""
        fig.update_layout(title=dict(yref="container", yanchor="top",
                                     y=title_top_y(height, multiline="<br>" in text)))
    return fig


def base_layout(fig, *, height=520, title=None, legend_top=True):
    """Projector-friendly defaults: large fonts, white background, light grid, and text of
    at least 4.5:1 contrast in any host theme (:func:`ink`). ``legend_top``: a horizontal
    legend on top (:func:`legend_on_top`)."""
    fig.update_layout(
        template="plotly_white", height=height, font=dict(size=FONT_SIZE, color=INK),
        margin=dict(l=70, r=30, t=80 if title else 50, b=60),
        title=dict(text=title, font=dict(size=FONT_SIZE + 3, color=INK)) if title else None,
        hoverlabel=dict(font_size=FONT_SIZE - 1),
    )
    if legend_top:
        legend_on_top(fig, height=height, titled=bool(title))
    fig.update_xaxes(showline=True, linecolor="#444", mirror=True, title_standoff=8)
    fig.update_yaxes(showline=True, linecolor="#444", mirror=True, title_standoff=8)
    return ink(fig)


def project_2d(X):
    """X itself when 2-D; (x, 0) when 1-D; else its first two principal components."""
    X = np.asarray(X, dtype=float)
    if X.shape[1] == 2:
        return X, ("x<sub>1</sub>", "x<sub>2</sub>")
    if X.shape[1] == 1:
        return np.column_stack([X[:, 0], np.zeros(len(X))]), ("x", "")
    Xc = X - X.mean(0)
    _, _, Vt = np.linalg.svd(Xc, full_matrices=False)
    return Xc @ Vt[:2].T, ("PC 1", "PC 2")


def finite(a, fill=np.nan):
    """Replace inf by ``fill`` so that JSON encoding never sees inf."""
    a = np.asarray(a, dtype=float).copy()
    a[~np.isfinite(a)] = fill
    return a


def play_controls(fig, k, start, frame_ms, *, y=-0.07, slider_x=0.26, prefix="step j = ",
                  button_font=FONT_SIZE - 1):
    """Play/Pause buttons and a step slider under an animated figure (client-side playback).

    One frame per step, named "1".."k"; the slider opens on ``start`` (0-based).
    """
    return fig.update_layout(play_controls_layout(k, start, frame_ms, y=y, slider_x=slider_x,
                                                  prefix=prefix, button_font=button_font))


def play_controls_layout(k, start, frame_ms, *, y=-0.07, slider_x=0.26, prefix="step j = ",
                         button_font=FONT_SIZE - 1) -> dict:
    """The layout keys :func:`play_controls` sets (``updatemenus`` and ``sliders``), as a
    dict to merge into a figure dict."""
    slider_steps = [dict(method="animate", label=str(j + 1),
                         args=[[str(j + 1)], dict(mode="immediate", frame=dict(duration=0, redraw=True),
                                                  transition=dict(duration=0))])
                    for j in range(k)]
    play = dict(frame=dict(duration=int(frame_ms), redraw=True), fromcurrent=True,
                transition=dict(duration=0), mode="immediate")
    pause = dict(mode="immediate", frame=dict(duration=0, redraw=False), transition=dict(duration=0))
    return dict(
        updatemenus=[dict(type="buttons", direction="left", x=0.0, y=y, xanchor="left",
                          yanchor="top", pad=dict(r=10, t=10), showactive=False,
                          font=dict(size=button_font, color=INK),
                          buttons=[dict(label="▶ Play", method="animate", args=[None, play]),
                                   dict(label="❚❚ Pause", method="animate", args=[[None], pause])])],
        sliders=[dict(active=start, steps=slider_steps, x=slider_x, y=y, len=1 - slider_x,
                      xanchor="left", yanchor="top", pad=dict(t=10), font=dict(color=INK),
                      # at the slider's right end: at its left it ran under the Pause button
                      # whenever the figure was narrow (a 1280 px projector's column)
                      currentvalue=dict(prefix=prefix, xanchor="right",
                                        font=dict(size=FONT_SIZE, color=INK)))],
    )


def deep_merge(base: dict, patch: dict) -> dict:
    """``base`` updated by ``patch`` recursively, as plotly applies a frame (inputs untouched)."""
    out = dict(base)
    for key, val in patch.items():
        # a plotly.js typed array ({"dtype", "bdata"}) is one value
        if isinstance(val, dict) and isinstance(out.get(key), dict) and "bdata" not in val:
            out[key] = deep_merge(out[key], val)
        else:
            out[key] = val
    return out


def subplot_axes(n: int) -> dict:
    """The axis references of the n-th subplot (1-based, ``make_subplots``' order) for a
    trace dict: what ``add_trace(row=..., col=...)`` sets."""
    return dict(xaxis=f"x{n if n > 1 else ''}", yaxis=f"y{n if n > 1 else ''}")


def styled_once(build):
    """Cache a function that builds a figure's layout through plotly (``make_subplots``,
    :func:`base_layout`, :func:`ink`) and returns it as a dict: it runs once per argument
    tuple, and every call gets its own copy to merge the data's ranges and labels into.

    For the animated figures rebuilt on every slider move: their styling depends on the
    figure's shape alone, and plotly's validated updates were most of a rebuild's time.
    """
    cached = functools.lru_cache(maxsize=16)(lambda *args: json.dumps(build(*args)))

    @functools.wraps(build)
    def copy(*args):
        return json.loads(cached(*args))

    return copy


@functools.lru_cache(maxsize=None)
def _scale_json(name: str) -> str:
    return json.dumps(go.scatter.Marker(colorscale=name).to_plotly_json()["colorscale"])


def scale_stops(name: str) -> list:
    """A named colour scale as the list of stops plotly's validation turns it into (a figure
    dict built without validation carries what a validated one would)."""
    return json.loads(_scale_json(name))


def inked_colorbar(**kw) -> dict:
    """A colour bar dict with the ink :func:`ink` gives every colour bar."""
    return dict(kw, tickfont=dict(kw.get("tickfont") or {}, color=INK),
                title=dict(kw.get("title") or {}, font=dict(color=INK)))
