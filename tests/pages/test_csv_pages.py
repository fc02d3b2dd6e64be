"""Every CSV that ``datasets.from_csv`` accepts gives a working page, or a clear message.

Small and odd shapes (two rows, one column, a class with one member, a class
that lands only in the test split, constant columns, duplicate rows) are
generated with hypothesis and uploaded through AppTest's file uploader on
every page that takes a CSV; names with Markdown in them are shown literally.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import datasets
from apptest_util import open_app_page

pytestmark = pytest.mark.slow

CSV_PAGES = ["skpca", "kmp", "spectrum", "bounds"]
HOSTILE = "![x](http://127.0.0.1:9/a.png)"


@st.composite
def csv_files(draw):
    rows = draw(st.integers(1, 14))
    cols = draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    X = rng.normal(size=(rows, cols)).round(3)
    if draw(st.booleans()):
        X[:, 0] = 1.0  # a constant column
    if rows > 2 and draw(st.booleans()):
        X[1] = X[0]  # a duplicate row
    kind = draw(st.sampled_from(["none", "classes", "rare", "real"]))
    header = [f"f{j}" for j in range(cols)]
    if draw(st.booleans()):
        header[0] = HOSTILE
    table = X
    if kind != "none":
        if kind == "classes":
            y = rng.integers(0, draw(st.integers(1, 3)), size=rows)
        elif kind == "rare":
            y = np.zeros(rows, dtype=int)
            y[-1] = 2  # one member: it lands in one split only
        else:
            y = rng.normal(size=rows).round(3)
        table = np.column_stack([X, y])
        header.append("label")
    lines = [",".join(header)] + [",".join(f"{v:g}" for v in r) for r in table]
    return ("\n".join(lines) + "\n").encode(), kind != "none"


@pytest.mark.parametrize("page", CSV_PAGES)
@settings(max_examples=5, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(case=csv_files())
@example(case=(b"a,b,label\n0.1,0.2,0\n0.3,0.1,1\n", True))  # two rows
@example(case=(b"a,label\n0.5,1\n", True))  # one row
@example(case=(b"a,b,label\n" + b"".join(b"%d,%d,0\n" % (i, i % 3) for i in range(9))
               + b"5,7,2\n", True))  # a class with one member: in one split only
@example(case=(b"x\n1\n2\n3\n", False))  # one feature, no target
@example(case=(b"a,b,label\n" + b"".join(b"%d,%d,%d\n" % (i, (i * 7) % 5, i % 2) for i in range(10))
               + b"4,9,2\n", True))  # three classes, one of them in a single split: one-vs-rest
def test_any_accepted_csv_gives_a_clean_page(page, case):
    raw, has_label = case
    try:
        datasets.from_csv(raw)
    except ValueError:
        return  # refused by the reader with its own message (tested in test_datasets.py)
    at = open_app_page(f"pages/{page}.py", params={"dataset": "csv upload"})
    at.file_uploader(key="csv.file").set_value((f"{HOSTILE}.csv", raw, "text/csv")).run()
    assert not at.exception, [(e.value, e.stack_trace) for e in at.exception]
    targets = [w for w in at.selectbox if w.key == "csv.target"]
    if has_label and targets and "label" in targets[0].options:  # a constant label is dropped
        targets[0].set_value("label").run()
        assert not at.exception, [(e.value, e.stack_trace) for e in at.exception]
    # a hostile name is shown as text, never as an image or a link
    for el in [*at.caption, *at.error, *at.warning, *at.info, *at.markdown]:
        assert "![x](http" not in el.value, el.value
