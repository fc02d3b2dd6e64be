"""User text shown literally: never as Markdown, HTML or LaTeX.

Streamlit renders Markdown in st.error / st.info / st.caption and in widget
labels; a CSV column or file name such as ``![x](http://host/a.png)`` would
otherwise become an image the browser fetches. :func:`literal` escapes every
Markdown, HTML and LaTeX control character so the text appears exactly as typed.
"""

from __future__ import annotations

import re

_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~$&:=\"'])")


def literal(text) -> str:
    """``text`` escaped so that Markdown shows it character for character."""
    out = _SPECIAL.sub(r"\\\1", str(text))
    return out.replace("\n", " ").replace("\r", " ")


def markdown_table(frame, *, left=()) -> str:
    """A small table (a pandas DataFrame) as a Markdown table, its labels shown literally.

    Streamlit draws it with the page's Markdown, so a page needs no table code (``st.table``
    and ``st.dataframe`` load Streamlit's Arrow code, about 0.75 MB of JavaScript, on a first
    visit). The index is the first column, headed by the index's name; every label and value
    is escaped with :func:`literal` (class labels from a CSV are user text). Columns are
    aligned right (numbers), those named in ``left`` and the index left (text)."""
    header = [frame.index.name or ""] + [str(c) for c in frame.columns]
    lines = ["| " + " | ".join(literal(h) for h in header) + " |",
             "|---|" + "".join("---|" if c in left else "---:|" for c in frame.columns)]
    for label, row in zip(frame.index, frame.itertuples(index=False)):
        lines.append("| " + " | ".join([literal(label)] + [literal(v) for v in row]) + " |")
    return "\n".join(lines)


def fitted_number(value: float, places: int) -> str:
    """``value`` with ``places`` decimals, and one fewer for each further digit before the
    point: never more characters than a number below 10 has (``places + 2``, and its sign)
    until its whole part alone is longer. For three places: 0.820, 6.216, 11.36, 123.5, 1235.

    A column of them keeps its width whatever the numbers' size, where ``{:.3f}`` grows a
    character a digit (a phone's table has none to spare: 123.456 pushed the eigenvalue
    page's timing table 8 px past a 390 px screen)."""
    for decimals in range(places, -1, -1):
        text = f"{value:.{decimals}f}"
        if len(text.lstrip("-")) <= places + 2:
            break
    return text


def formatted(frame, formats: dict, na_rep: str = "–"):
    """``frame`` with every cell as the text a table shows: ``formats[column]`` (a
    ``str.format`` pattern, or a function of the value returning its text) for the columns
    it names, ``str`` for the others, and ``na_rep`` for a missing value (None or NaN)."""
    def cell(value, pattern):
        if value is None or (isinstance(value, float) and value != value):
            return na_rep
        if callable(pattern):
            return pattern(value)
        return pattern.format(value) if pattern else str(value)

    return frame.apply(lambda col: col.map(lambda v: cell(v, formats.get(col.name)))).astype(str)
