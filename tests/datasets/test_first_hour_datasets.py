"""What a researcher meets in the first hour with their own data (datasets).

- ``split`` pairs X and y row by row: a y of another length is refused by name (it used to
  index past the end, or silently drop labels); NaN or infinity in X is refused;
  ``can_stratify(None, ...)`` is False (nothing to stratify by), not a TypeError.
- ``from_csv`` reads what spreadsheets write: UTF-16 and UTF-32 text (with a byte-order
  mark, or UTF-16 without one) gives the same data set as UTF-8; ';', tab or '|' separated
  files give the same numbers as the comma version (with a note saying so); a decimal
  comma and a ragged file get a hint about the separator; a blank header row never turns
  the first data row into column names silently.
- The uploader's help states the row cap the app enforces.
"""

from __future__ import annotations

import csv
import io
import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import datasets
from datasets import DataWarning, can_stratify, from_csv, split, split_indices
from fuzz_util import N_EXAMPLES

FUZZ = settings(max_examples=N_EXAMPLES, deadline=None)


def _quiet_csv(raw, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        return from_csv(raw, **kwargs)


# ----------------------------------------------------------------------------- split


@pytest.mark.parametrize("n_y", [9, 11, 1])
def test_split_refuses_a_y_of_another_length(n_y):
    X = np.arange(20.0).reshape(10, 2)
    with pytest.raises(ValueError, match=rf"X has 10, y has {n_y}"):
        split(X, np.arange(n_y), test_size=0.3)
    with pytest.raises(ValueError, match=rf"X has 10, y has {n_y}"):
        split_indices(10, np.arange(n_y) % 2, test_size=0.3, stratify=True)


def test_split_refuses_a_scalar_y():
    with pytest.raises(ValueError, match="one label per row"):
        split(np.zeros((4, 2)), 3, test_size=0.5)


@FUZZ
@given(n_x=st.integers(2, 40), n_y=st.integers(1, 40), stratify=st.booleans(),
       test_size=st.sampled_from([0.25, 0.5, 1, 2]))
def test_split_pairs_rows_or_refuses(n_x, n_y, stratify, test_size):
    X = np.column_stack([np.arange(n_x, dtype=float), np.ones(n_x)])
    y = np.arange(n_y) % 3
    if n_x != n_y:
        with pytest.raises(ValueError, match=rf"X has {n_x}, y has {n_y}"):
            split(X, y, test_size=test_size, stratify=stratify)
        return
    if isinstance(test_size, int) and test_size >= n_x:
        return  # scikit-learn's own refusal of the test size
    X_tr, X_te, y_tr, y_te = split(X, y, test_size=test_size, stratify=stratify)
    # every row keeps its own label, and every row is in exactly one part
    assert list(y_tr) == [int(i) % 3 for i in X_tr[:, 0]]
    assert list(y_te) == [int(i) % 3 for i in X_te[:, 0]]
    assert sorted(np.concatenate([X_tr[:, 0], X_te[:, 0]])) == list(range(n_x))


@FUZZ
@given(n=st.integers(3, 20), data=st.data(),
       bad=st.sampled_from([np.nan, np.inf, -np.inf]),
       standardize=st.sampled_from([None, "all", "train"]))
def test_split_refuses_nan_or_infinity_in_X(n, data, bad, standardize):
    X = np.arange(2.0 * n).reshape(n, 2)
    row, col = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, 1))
    X[row, col] = bad
    with pytest.raises(ValueError, match=rf"NaN or infinite.*row {row}"):
        split(X, np.arange(n) % 2, test_size=0.5, standardize=standardize)


def test_can_stratify_without_labels_is_false():
    assert can_stratify(None, 0.3) is False
    assert can_stratify([], 0.3) is False
    assert can_stratify([0, 0, 1, 1], 2) is True
    tr, te = split_indices(10, None, test_size=0.3, stratify=True)
    assert sorted(np.concatenate([tr, te])) == list(range(10))


# -------------------------------------------------------------------------- from_csv

_ROWS = st.lists(st.tuples(st.integers(-999, 999), st.floats(-1e3, 1e3, allow_nan=False),
                           st.integers(0, 2)), min_size=2, max_size=8)


def _table(rows, sep=",", nl="\n"):
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=sep, lineterminator=nl)
    w.writerow(["a", "b ü", "label"])
    w.writerows([(a, repr(b), c) for a, b, c in rows])
    return buf.getvalue()


def _same(d, ref):
    np.testing.assert_array_equal(d.X, ref.X)
    np.testing.assert_array_equal(d.y, ref.y)
    assert d.feature_names == ref.feature_names and d.task == ref.task


@FUZZ
@given(rows=_ROWS, encoding=st.sampled_from(["utf-16", "utf-16-le", "utf-16-be", "utf-32"]),
       nl=st.sampled_from(["\n", "\r\n"]))
def test_unicode_text_is_decoded_like_utf8(rows, encoding, nl):
    text = _table(rows, nl=nl)
    try:
        ref = _quiet_csv(text.encode("utf-8"), target="label")
    except ValueError as exc:  # e.g. one class only: the same refusal in any encoding
        with pytest.raises(ValueError, match=re.escape(str(exc))):
            _quiet_csv(text.encode(encoding), target="label")
        return
    _same(_quiet_csv(text.encode(encoding), target="label"), ref)


def test_utf16_from_a_spreadsheet_is_not_called_binary():
    raw = "\ufeffx,y\r\n1,2\r\n3,5\r\n".encode("utf-16-le")  # Excel's "Unicode text"
    d = from_csv(raw)
    assert d.X.tolist() == [[1.0, 2.0], [3.0, 5.0]]


def test_binary_is_still_refused():
    with pytest.raises(ValueError, match="binary"):
        from_csv(b"PK\x03\x04\x00\x00\x01\x02zip")


@FUZZ
@given(rows=_ROWS, sep=st.sampled_from([";", "\t", "|"]))
def test_other_separators_give_the_numbers_of_the_comma_file(rows, sep):
    text = _table(rows, sep=sep)
    try:
        ref = _quiet_csv(_table(rows).encode(), target="label")
    except ValueError:
        return
    d = _quiet_csv(text.encode(), target="label")
    _same(d, ref)
    assert any(n.kind == "separator" for n in d.notes), d.notes


def test_semicolon_file_is_read_and_says_so():
    with pytest.warns(DataWarning, match="';'"):
        d = from_csv(b"x;y\n1;2\n3;5\n")
    assert d.X.tolist() == [[1.0, 2.0], [3.0, 5.0]]


def test_decimal_comma_gets_a_hint():
    with pytest.raises(ValueError, match="decimal comma"):
        from_csv(b"x;y\n1,5;2\n3;4,25\n")


def test_field_count_message_names_the_separator():
    # a ';' file whose rows do not all have the same number of fields
    with pytest.raises(ValueError, match=r"Row 2 has 2 fields.*';'"):
        from_csv(b"x;y;z\n1,5;2\n3;4;5\n")


@pytest.mark.parametrize("blank", [b"\n", b",,\n", b" , ,\n", b"\r\n\r\n"])
def test_blank_header_row_never_drops_a_data_row(blank):
    with pytest.raises(ValueError, match=r"header row \(line 1\) is blank"):
        from_csv(blank + b"1,2,3\n4,5,6\n7,8,9\n")


@FUZZ
@given(rows=_ROWS, blanks=st.integers(1, 3), header=st.booleans())
def test_blank_lines_before_the_table_lose_no_row(rows, blanks, header):
    text = _table(rows)
    if not header:
        text = text.split("\n", 1)[1]
    raw = ("\n" * blanks + text).encode()
    if not header:
        with pytest.raises(ValueError, match=r"header row \(line 1\) is blank"):
            _quiet_csv(raw)
        return
    try:
        ref = _quiet_csv(text.encode())
    except ValueError as exc:  # e.g. every feature constant: the same refusal
        with pytest.raises(ValueError, match=re.escape(str(exc))):
            _quiet_csv(raw)
        return
    _same(_quiet_csv(raw), ref)


def test_a_header_of_numbers_is_noted():
    with pytest.warns(DataWarning, match="header row holds only numbers"):
        d = from_csv(b"1,2\n3,4\n5,6\n")
    assert [n.kind for n in d.notes] == ["numeric_header"]


# ---------------------------------------------------------------------------- the app


def test_uploader_help_states_the_row_cap_the_app_enforces():
    from apptest_util import open_app_page
    from pages.common.widgets import MAX_APP_SAMPLES

    at = open_app_page("pages/skpca.py")
    at.selectbox(key="dataset").set_value("csv upload").run()
    help_text = at.file_uploader(key="csv.file").help
    stated = int(re.search(r"At most ([\d,]+) rows", help_text).group(1).replace(",", ""))
    assert stated == MAX_APP_SAMPLES, help_text
    rng = np.random.default_rng(0)
    raw = "a,b\n" + "".join(f"{x:.4f},{y:.4f}\n" for x, y in rng.normal(size=(stated + 1, 2)))
    at.file_uploader(key="csv.file").set_value(("big.csv", raw.encode(), "text/csv")).run()
    assert not at.exception, [e.value for e in at.exception]
    shown = " ".join(e.value for e in at.error)
    assert f"the limit is {stated}" in shown, shown
    assert datasets.MAX_ROWS >= MAX_APP_SAMPLES
