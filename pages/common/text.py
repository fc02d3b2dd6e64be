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


def markdown_table(frame) -> str:
    """A small table (a pandas DataFrame) as a Markdown table, its labels shown literally.

    Streamlit draws it with the page's Markdown, so a page needs no table code (``st.table``
    and ``st.dataframe`` load Streamlit's Arrow code, about 0.75 MB of JavaScript, on a first
    visit). The index is the first column, headed by the index's name; every label and value
    is escaped with :func:`literal` (class labels from a CSV are user text)."""
    header = [frame.index.name or ""] + [str(c) for c in frame.columns]
    lines = ["| " + " | ".join(literal(h) for h in header) + " |",
             "|---|" + "---:|" * len(frame.columns)]
    for label, row in zip(frame.index, frame.itertuples(index=False)):
        lines.append("| " + " | ".join([literal(label)] + [literal(v) for v in row]) + " |")
    return "\n".join(lines)
