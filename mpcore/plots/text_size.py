"""How much room a figure's text takes, and its lines for a narrow figure.

plotly.js sizes nothing from the text it is given: a title too long for its figure runs
past the edge, a legend entry past its box. The figures of this package estimate a text's
width from its characters (plotly's sans-serif glyphs are about :data:`CHAR` of the font
size wide) and break long titles into lines; the app's phone layouts use the same
estimates. Only plain text and ``<br>`` line breaks count; other markup counts for nothing.
"""

from __future__ import annotations

import math
import re
import textwrap

__all__ = ["BREAK", "CHAR", "LEGEND_HALF", "LEGEND_SYMBOL", "LINE", "PHONE_FIGURE_PX",
           "PHONE_TITLE_CHARS", "TAG", "axis_domain", "axis_suffix", "finite_number",
           "frames_retitled", "halved", "legend_names", "phone_legend", "text_lines", "text_px",
           "wrap", "wrapped"]

#: Width (px) a phone gives a figure: a 390 px window less the page's padding, and a little
#: less again, so that text placed for it also stays on a 360 px phone's screen.
PHONE_FIGURE_PX = 340
#: Characters of a panel title that fit one line of a phone's plot area (about 290 px).
PHONE_TITLE_CHARS = 34
#: Average glyph width and line height, as fractions of the font size (plotly's sans-serif).
CHAR = 0.56
LINE = 1.3
#: Room (px) of a legend entry's symbol beside its name.
LEGEND_SYMBOL = 44
#: Width of a legend entry, two a row, as a fraction of the figure's width (with the gaps
#: between entries, two of them fit one row).
LEGEND_HALF = 0.45
BREAK = re.compile(r"\s*<br\s*/?>\s*", re.IGNORECASE)
TAG = re.compile(r"<[^>]+>")
#: Trace types plotly leaves out of the legend unless ``showlegend`` is set.
_NO_LEGEND = {"heatmap", "contour", "histogram2d", "histogram2dcontour", "surface"}


def text_lines(text) -> list[str]:
    """The lines of a plotly text (split at ``<br>``), without their markup."""
    return [TAG.sub("", part) for part in BREAK.split(text)] if isinstance(text, str) else []


def text_px(text, size) -> float:
    """Estimated width (px) of ``text`` at font ``size``: its longest line."""
    return max((len(line) for line in text_lines(text)), default=0) * size * CHAR


def phone_legend(names, size, width=PHONE_FIGURE_PX) -> tuple[int, int]:
    """(entries a row, each entry's width in px) of a horizontal legend of ``names`` at font
    ``size`` in a phone's figure ``width`` px wide: two a row when every name fits half the
    width, else one. The width is in pixels (``entrywidthmode="pixels"``): a fraction is of
    the plot area's width for plotly.js, which a wide y axis narrows, and a long name was cut
    at the end of its box."""
    two = bool(names) and max(text_px(n, size) for n in names) + LEGEND_SYMBOL \
        <= LEGEND_HALF * width
    return (2, round(width * LEGEND_HALF) - LEGEND_SYMBOL) if two \
        else (1, round(2 * width * LEGEND_HALF) - LEGEND_SYMBOL)


def legend_names(data: list, layout: dict | None = None) -> list[str]:
    """The names a figure's legend shows, in order (none when ``layout`` hides the legend)."""
    if (layout or {}).get("showlegend") is False:
        return []
    names = []
    for t in data:
        shown = t.get("showlegend")
        if shown is False or t.get("visible", True) is False or not t.get("name"):
            continue
        if t.get("type") in _NO_LEGEND and shown is not True:
            continue
        names.append(str(t["name"]))
    return names


def axis_suffix(ref: str | None) -> str:
    """'x3' -> '3', 'x' / None -> '' (plotly's axis numbering)."""
    return "" if not ref else ref[1:].split(" ")[0]


def finite_number(v) -> bool:
    """Whether ``v`` is a finite int or float (not a bool)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def axis_domain(layout: dict, axis: str) -> tuple[float, float]:
    """The paper domain of a layout's axis (the whole width or height when it has none)."""
    d = (layout.get(axis) or {}).get("domain") or (0.0, 1.0)
    return float(d[0]), float(d[1])


def wrapped(text):
    """A title too long for a phone's line on two lines: after its first ': ' (name, then
    numbers), else at the space nearest its middle; a title already on several lines, each
    line so. Markup counts for nothing."""
    if not isinstance(text, str):
        return text
    if BREAK.search(text):
        return "<br>".join(wrapped(line) for line in BREAK.split(text))
    plain = re.sub(r"<[^>]+>", "", text)
    if len(plain) <= PHONE_TITLE_CHARS:
        return text
    if ": " in text:
        return text.replace(": ", ":<br>", 1)
    return halved(text)


def halved(text: str) -> str:
    """``text`` on two lines, broken at the space nearest its middle (as it is without one)."""
    spaces = [m.start() for m in re.finditer(" ", text)]
    if not spaces:
        return text
    cut = min(spaces, key=lambda i: abs(i - len(text) / 2))
    return text[:cut] + "<br>" + text[cut + 1:]


def wrap(text, chars):
    """``text`` on lines of at most ``chars`` characters: on one line when it fits, else on
    the lines it has when they fit, else after its first ': ' when that gives two such
    lines (a name, then numbers), else at spaces. Text with other markup keeps its lines."""
    if not isinstance(text, str) or not text:
        return text
    flat = BREAK.sub(" ", text)
    if TAG.search(flat):
        return text
    chars = max(int(chars), 8)
    if len(flat) <= chars:
        return flat
    if flat != text and all(len(line) <= 1.1 * chars for line in text_lines(text)):
        return text  # its own lines fit (the estimate errs wide)
    head, sep, tail = flat.partition(": ")
    if sep and len(head) < chars + 2 and len(tail) <= chars:  # the estimate errs wide
        return f"{head}:<br>{tail}"
    return "<br>".join(textwrap.wrap(flat, chars, break_long_words=False)) or flat


def frames_retitled(frames, fn):
    """``frames`` with ``fn`` applied to each frame's title text (a frame whose title
    ``fn`` leaves as it is, or that has none, is kept as it is, not copied)."""
    out = []
    for f in frames or []:
        title = (f.get("layout") or {}).get("title")
        text = title.get("text") if isinstance(title, dict) else None
        new = fn(text) if isinstance(text, str) else text
        out.append(f if new == text else dict(f, layout=dict(f["layout"],
                                                              title=dict(title, text=new))))
    return out
