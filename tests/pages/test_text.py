"""pages.common.text: user text shown literally, in running text and in a Markdown table.

The table is parsed back with markdown-it (CommonMark with GitHub's tables, as Streamlit's
Markdown renders them): every label a person can give (a CSV's class names) must come back as
the same text, in its own cell, whatever Markdown, HTML or LaTeX characters it holds.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst
from apptest_util import assert_cell_shows, markdown_tokens
from apptest_util import markdown_cells as _cells

from pages.common.text import fitted_number, formatted, markdown_table

#: Labels: any printable text, Markdown's and HTML's special characters included.
_label = hst.text(hst.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp")),
                  min_size=1, max_size=12).filter(lambda t: t.strip() == t and t.strip())


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


def _alignments(markdown: str) -> list[str]:
    """The header row's alignment per column ("left" where the table sets none)."""
    out = []
    for tok in markdown_tokens(markdown):
        if tok.type == "th_open":
            style = dict(tok.attrs or {}).get("style", "")
            out.append(style.split(":")[1] if style else "left")
        elif tok.type == "thead_close":
            break
    return out


@settings(max_examples=60, deadline=None)
@given(columns=hst.lists(_label, min_size=1, max_size=5, unique=True), data=hst.data())
def test_markdown_table_aligns_text_columns_left_and_the_rest_right(columns, data):
    left = data.draw(hst.sets(hst.sampled_from(columns)))
    frame = pd.DataFrame([[1] * len(columns)], columns=columns, index=pd.Index(["a"], name="i"))
    assert _alignments(markdown_table(frame, left=left)) == (
        ["left"] + ["left" if c in left else "right" for c in columns])


@settings(max_examples=100, deadline=None)
@given(values=hst.lists(hst.one_of(hst.none(), hst.floats(-1e300, 1e300), hst.just(np.nan)),
                        min_size=1, max_size=6),
       text=_label)
def test_formatted_cells_read_back_as_their_values(values, text):
    """What a table of formatted cells shows: each number to its format's precision, a missing
    one (None, NaN) as a dash, text as it is."""
    frame = pd.DataFrame({"x": pd.Series(values, dtype=object), "t": [text] * len(values)},
                         index=pd.Index(range(len(values)), name="row"))
    rows = _cells(markdown_table(formatted(frame, {"x": "{:.3g}"}), left=("t",)))
    assert rows[0] == ["row", "x", "t"]
    for value, (_, x, t) in zip(values, rows[1:]):
        if value is None or value != value:
            assert x == "–"
        else:  # three significant digits: within half a unit of the third
            assert abs(float(x) - value) <= 5e-3 * abs(value)
        assert t == text


@settings(max_examples=300, deadline=None)
@given(value=hst.floats(-1e9, 1e9), places=hst.integers(0, 6))
def test_fitted_number_keeps_a_columns_width_and_its_value(value, places):
    """A number below 10 keeps every decimal; a larger one gives up one a digit, so that none
    is wider than a number below 10 (``places + 2`` characters and its sign) until its whole
    part alone is; and what it shows is the value to its last shown digit."""
    text = fitted_number(value, places)
    digits = text.lstrip("-")
    assert len(digits) <= max(places + 2, len(f"{abs(value):.0f}")), (value, places, text)
    assert_cell_shows(text, value)
    if abs(value) < 9.5 and places:  # no digit gained in rounding: every decimal kept
        assert len(text.partition(".")[2]) == places, (value, places, text)


@pytest.mark.parametrize("value, places, shown", [
    (123.456, 3, "123.5"),  # the ratio that pushed the eigenvalue page's table off a phone
    (11.357, 3, "11.36"), (6.216, 3, "6.216"), (1234.5678, 3, "1235"), (0.00042, 3, "0.000"),
    (99.996, 3, "100.0"), (12.3456, 4, "12.346"), (-123.456, 3, "-123.5")])
def test_fitted_number_examples(value, places, shown):
    assert fitted_number(value, places) == shown


@settings(max_examples=60, deadline=None)
@given(values=hst.lists(hst.one_of(hst.none(), hst.floats(0, 1e6)), min_size=1, max_size=6),
       places=hst.integers(0, 5))
def test_formatted_takes_a_function_as_a_format(values, places):
    """A column's format may be a function of the value: each number is its text, a missing
    one still a dash."""
    frame = pd.DataFrame({"x": pd.Series(values, dtype=object)},
                         index=pd.Index(range(len(values)), name="row"))
    shown = formatted(frame, {"x": lambda v: fitted_number(v, places)})["x"].tolist()
    assert shown == ["–" if v is None else fitted_number(v, places) for v in values]
