"""Property-based fuzzing of the datasets package: load, two_view, info and from_csv.

from_csv gets generated CSV text (any line endings, empty cells, quoted fields, huge
integers and floats, odd headers) and odd arguments. A clean outcome is a Dataset that
reproduces the numbers in the file, or a ValueError/TypeError whose message names the
parameter, the row or the column to fix.
"""

import csv
import io
import pathlib
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import datasets
from datasets import DataWarning, from_csv, load, two_view
from fuzz_util import N_EXAMPLES, ODD_SCALARS, assert_finite, mentions, refused_or

FUZZ = settings(max_examples=N_EXAMPLES, deadline=None)


@FUZZ
@given(name=st.one_of(st.sampled_from(datasets.names()), st.sampled_from(["nope", None, 3, ["moons"]])),
       n_samples=st.one_of(st.none(), st.integers(-5, 400), ODD_SCALARS),
       noise=st.one_of(st.none(), st.floats(0, 1), ODD_SCALARS),
       random_state=st.one_of(st.integers(0, 3), ODD_SCALARS))
def test_load(name, n_samples, noise, random_state):
    d = refused_or(load, ("name", "n_samples", "noise", "random_state", "data set"), name,
                   n_samples=n_samples, noise=noise, random_state=random_state)
    if d is None:
        return
    assert_finite(d.X)
    assert d.X.ndim == 2 and d.X.shape[0] >= 1
    if d.y is not None:
        assert d.y.shape == (d.X.shape[0],)
        assert_finite(d.y)
    if n_samples is not None:
        assert d.X.shape[0] == n_samples


@FUZZ
@given(options=st.fixed_dictionaries({
    # always given: the default (450 features) draws a 450 x 450 orthogonal matrix
    "n_features": st.one_of(st.integers(1, 60), ODD_SCALARS, st.just(10**6)),
}, optional={
    "variance_ratio": st.one_of(st.floats(0.5, 50), ODD_SCALARS),
    "n_dominant": st.one_of(st.integers(-60, 60), ODD_SCALARS),
}))
def test_gaussian_toy_options(options):
    d = refused_or(load, ("variance_ratio", "n_features", "n_dominant"), "gaussian_toy",
                   n_samples=50, **options)
    if d is None:
        return
    n_features = options.get("n_features", 450)
    n_dominant = options.get("n_dominant", 50)
    assert d.X.shape == (50, n_features)
    assert 0 <= n_dominant <= n_features  # a negative count is refused, never sliced


@FUZZ
@given(n_samples=st.one_of(st.integers(2, 200), ODD_SCALARS, st.just(10**9)),
       noise=st.one_of(st.floats(0, 1), ODD_SCALARS),
       random_state=st.one_of(st.none(), st.integers(0, 10), ODD_SCALARS))
def test_two_view(n_samples, noise, random_state):
    out = refused_or(two_view, ("n_samples", "noise", "random_state"), n_samples, noise,
                     random_state)
    if out is None:
        return
    X, Y, z = out
    assert X.shape == Y.shape == (n_samples, 2) and z.shape == (n_samples,)
    assert_finite(X, Y, z)


# ------------------------------------------------------------------------------- CSV

CELL = st.one_of(
    st.integers(-1000, 1000).map(str),
    st.integers(-3, 3).map(str),
    st.floats(-1e6, 1e6, allow_nan=False).map(repr),
    st.floats(-1e6, 1e6, allow_nan=False).map(repr),
    st.sampled_from(["", " ", "nan", "inf", "-inf", "1e300", "-1e-300", "1e151", "abc", "=1+1",
                     "12345678901234567890", "9007199254740993", "1.0e20", '"3"', "0x10", "1_000"]),
)
NEWLINES = st.sampled_from(["\n", "\r\n", "\r"])


@st.composite
def csv_text(draw):
    n_cols = draw(st.integers(1, 4))
    names = st.sampled_from(["a", "b", "c", "y", " x ", "label", "ünï", "[md](http://x)"])
    header = draw(st.one_of(
        st.lists(names, min_size=n_cols, max_size=n_cols, unique=True),
        st.lists(st.sampled_from(["a", "", " a"]), min_size=n_cols, max_size=n_cols)))
    rows = draw(st.lists(st.lists(CELL, min_size=n_cols, max_size=n_cols), max_size=6))
    if draw(st.integers(0, 5)) == 0:  # one ragged row
        rows.append(rows[-1][:-1] if rows else [])
    nl = draw(NEWLINES)
    buf = io.StringIO()
    csv.writer(buf, lineterminator=nl, quoting=csv.QUOTE_MINIMAL).writerows([header] + rows)
    return buf.getvalue(), header


#: What a CSV refusal may name: a parameter, or the row, column, cell or header to fix.
CSV_NAMES = ("file", "File", "target", "Target", "task", "max_rows", "max_cols", "max_bytes",
             "Row", "row", "rows", "column", "columns", "Column", "header", "cell", "CSV")


def _clean_csv(raw, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        return refused_or(from_csv, CSV_NAMES, raw, **kwargs)


@FUZZ
@given(doc=csv_text(), use_target=st.booleans(),
       task=st.sampled_from([None, None, "classification", "regression", "clustering"]))
def test_from_csv_reproduces_the_numbers(doc, use_target, task):
    text, header = doc
    target = next((h.strip() for h in header if h.strip()), None) if use_target else None
    d = _clean_csv(text.encode(), target=target, task=task)
    if d is None:
        return
    assert_finite(d.X)
    assert np.abs(d.X).max() <= 1e150
    # every kept value is the float of its cell, in file order
    rows = [r for r in csv.reader(io.StringIO(text.replace("\r\n", "\n").replace("\r", "\n")))
            if any(c.strip() for c in r)]
    head = [h.strip() for h in rows[0]]
    cols = [head.index(f) for f in d.feature_names]
    expected = np.array([[float(r[c]) for c in cols] for r in rows[1:]])
    np.testing.assert_array_equal(d.X, expected)
    assert len(d.notes) == len(d.warnings)
    if d.y is not None:
        t = head.index(target)
        cells = [r[t].strip() for r in rows[1:]]
        if d.task == "classification":
            # exact labels: no detour through float
            assert [int(c) if c.lstrip("+-").isdigit() else int(float(c)) for c in cells] == list(d.y)
        else:
            np.testing.assert_array_equal(d.y, [float(c) for c in cells])


@FUZZ
@given(raw=st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode)),
       target=st.one_of(st.none(), st.sampled_from(["a", "", 3, b"a"])))
def test_from_csv_arbitrary_bytes(raw, target):
    d = _clean_csv(raw, target=target)
    if d is not None:
        assert_finite(d.X)


@FUZZ
@given(file=st.one_of(ODD_SCALARS, st.sampled_from([pathlib.Path("/nonexistent.csv"), "/", "",
                                                      object(), io.StringIO("a,b\n1,2\n3,4\n")])),
       max_rows=st.one_of(st.integers(1, 10), ODD_SCALARS),
       max_cols=st.one_of(st.integers(1, 10), ODD_SCALARS),
       max_bytes=st.one_of(st.integers(1, 10**6), ODD_SCALARS))
def test_from_csv_odd_arguments(file, max_rows, max_cols, max_bytes):
    d = _clean_csv(file, max_rows=max_rows, max_cols=max_cols, max_bytes=max_bytes)
    if d is not None:
        assert_finite(d.X)


# ------------------------------------------------------------------ targeted (class 4)


def test_csv_old_mac_line_endings_and_path(tmp_path):
    p = tmp_path / "mac.csv"
    p.write_bytes(b"a,b,label\r1,2,0\r3,4,1\r5,7,1\r")
    d = from_csv(p, target="label")
    assert d.X.shape == (3, 2) and list(d.y) == [0, 1, 1] and d.name == "mac.csv"
    assert from_csv(str(p), target="label").X.shape == (3, 2)


@pytest.mark.parametrize("raw", [b",,\n,,\n", b" , \r\n , \r\n", b",\n", b"\n\n\n"])
def test_csv_sheet_of_empty_cells(raw):
    with pytest.raises(ValueError, match="empty"):
        from_csv(raw)


def test_csv_empty_cell_names_row_and_column():
    with pytest.raises(ValueError, match=r"Row 3, column 'b' is empty"):
        from_csv(b"a,b\n1,2\n3,\n4,5\n")


def test_csv_large_integer_labels_stay_distinct():
    d = from_csv(b"a,b,c\n1,2,9007199254740993\n3,4,9007199254740992\n5,6,9007199254740993\n",
                 target="c")
    assert d.task == "classification"
    assert list(d.y) == [9007199254740993, 9007199254740992, 9007199254740993]
    with pytest.raises(ValueError, match="64-bit"):
        from_csv(b"a,b,c\n1,2,92233720368547758070\n3,4,1\n", target="c")
    with pytest.raises(ValueError, match="2\\*\\*53"):
        from_csv(b"a,b,c\n1,2,1e20\n3,4,1\n", target="c", task="classification")
    # as a regression target the same huge integers are plain floats
    r = from_csv(b"a,b,c\n1,2,92233720368547758070\n3,4,1\n", target="c", task="regression")
    assert r.y[0] == pytest.approx(9.223372036854776e19)


def test_csv_notes_are_structured_and_warned():
    with pytest.warns(DataWarning) as caught:
        d = from_csv(b"a,b,c\n1,5,2\n1,6,2\n1,6,2\n")
    kinds = {n.kind: n for n in d.notes}
    assert kinds["dropped_constant_columns"].columns == ("a", "c")
    assert kinds["duplicate_rows"].count == 1
    assert d.warnings == tuple(n.message for n in d.notes)
    assert {str(w.message) for w in caught} == set(d.warnings)


def test_csv_values_beyond_the_kernel_range_are_refused():
    with pytest.raises(ValueError, match="Row 2, column 'b'.*Rescale"):
        from_csv(b"a,b\n1,1e300\n2,3\n")


def test_csv_semicolon_files_are_read_with_a_note():
    with pytest.warns(DataWarning, match="not commas"):
        d = from_csv(b"a;b\n1;2\n3;4\n")
    assert d.X.tolist() == [[1.0, 2.0], [3.0, 4.0]]


def test_gaussian_toy_negative_count_is_refused():
    with pytest.raises(ValueError, match="n_dominant"):
        load("gaussian_toy", n_samples=50, n_dominant=-10)
    with pytest.raises(ValueError, match="n_features"):
        load("gaussian_toy", n_samples=50, n_features=10**6)


def test_two_view_size_limit():
    with pytest.raises(ValueError, match="n_samples"):
        two_view(10**9)
    with pytest.raises(TypeError, match="random_state"):
        two_view(10, 0.1, "seed")


def test_mentions_helper():
    assert mentions("Row 2, column 'a' is empty", ("Row",))
    assert not mentions("rows are bad", ("Row",))
