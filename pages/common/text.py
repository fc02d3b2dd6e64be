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
