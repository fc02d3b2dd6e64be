"""pages.common.text: user text shown literally, in running text and in a Markdown table.

The table is parsed back with markdown-it (CommonMark with GitHub's tables, as Streamlit's
Markdown renders them): every label a person can give (a CSV's class names) must come back as
the same text, in its own cell, whatever Markdown, HTML or LaTeX characters it holds.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as hst
from markdown_it import MarkdownIt

from pages.common.text import markdown_table

_PARSER = MarkdownIt("commonmark").enable("table")

#: Labels: any printable text, Markdown's and HTML's special characters included.
_label = hst.text(hst.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp")),
                  min_size=1, max_size=12).filter(lambda t: t.strip() == t and t.strip())


def _cells(markdown: str) -> list[list[str]]:
    """The table's rows of cell texts, as a Markdown renderer reads them."""
    rows, row, cell = [], None, None
    for tok in _PARSER.parse(markdown):
        if tok.type == "tr_open":
            row = []
        elif tok.type in ("th_open", "td_open"):
            cell = []
        elif tok.type == "inline" and cell is not None:
            cell.append("".join(c.content for c in tok.children or () if c.type == "text"))
        elif tok.type in ("th_close", "td_close"):
            row.append("".join(cell))
            cell = None
        elif tok.type == "tr_close":
            rows.append(row)
    return rows


@settings(max_examples=150, deadline=None)
@given(labels=hst.lists(_label, min_size=1, max_size=4, unique=True),
       name=_label, data=hst.data())
def test_markdown_table_shows_every_label_literally(labels, name, data):
    counts = np.array(data.draw(hst.lists(hst.lists(hst.integers(0, 10**6), min_size=len(labels),
                                                    max_size=len(labels)),
                                          min_size=len(labels), max_size=len(labels))))
    frame = pd.DataFrame(counts, index=pd.Index(labels, name=name), columns=labels)
    rows = _cells(markdown_table(frame))
    assert rows[0] == [name, *labels]
    assert [r[0] for r in rows[1:]] == labels
    assert [[int(v) for v in r[1:]] for r in rows[1:]] == counts.tolist()

