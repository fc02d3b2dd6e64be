"""datasets: every name loads offline, generators are seeded, every bad input is refused."""

import io

import numpy as np
import pytest

import datasets
from datasets import from_csv, load, names


@pytest.mark.parametrize("name", names())
def test_every_name_loads(name):
    d = load(name)
    assert d.X.ndim == 2 and d.X.shape[0] > 0 and np.isfinite(d.X).all()
    assert d.task in ("classification", "regression", "unsupervised")
    assert (d.y is None) == (d.task == "unsupervised")
    if d.y is not None:
        assert d.y.shape == (d.X.shape[0],)
    assert d.description and d.source
    with pytest.raises(ValueError):
        d.X[0, 0] = 1.0  # read-only: a cached copy cannot be mutated


def test_boston_shape_and_provenance():
    d = load("boston")
    assert d.X.shape == (506, 13) and d.target_name == "MEDV"
    assert "Harrison" in d.source and "StatLib" in d.source
    assert "B" in d.description and "Caveat" in d.description
    assert d.y.max() == 50.0  # MEDV is censored at 50


def test_gaussian_toy_dominant_directions():
    d = load("gaussian_toy", variance_ratio=25.0, random_state=3)
    assert d.X.shape == (1000, 450)
    ev = np.linalg.eigvalsh(np.cov(d.X.T))[::-1]
    # 50 directions with 25x the variance: a clear gap after the 50th eigenvalue
    assert ev[49] / ev[50] > 5
    assert abs(d.X.mean()) < 0.05


@pytest.mark.parametrize("name", ["moons", "circles", "blobs", "xor", "spirals", "sine"])
def test_generators_seeded(name):
    a, b, c = load(name, random_state=1), load(name, random_state=1), load(name, random_state=2)
    np.testing.assert_array_equal(a.X, b.X)
    assert not np.array_equal(a.X, c.X)
    assert load(name, n_samples=37).X.shape[0] == 37


def test_fixed_tables_subsample():
    d = load("breast_cancer", n_samples=100, random_state=0)
    assert d.X.shape == (100, 30) and set(np.unique(d.y)) == {0, 1}


@pytest.mark.parametrize("kwargs", [
    {"name": "nope"}, {"name": "moons", "n_samples": 1}, {"name": "moons", "n_samples": 10**7},
    {"name": "moons", "noise": -1.0}, {"name": "moons", "n_samples": 3.5},
    {"name": "moons", "random_state": "x"}, {"name": "moons", "bogus": 1},
    {"name": "gaussian_toy", "variance_ratio": -2}, {"name": "boston", "n_samples": 600},
])
def test_load_bad_input(kwargs):
    with pytest.raises(ValueError):
        load(**kwargs)


def test_csv_roundtrip_and_task_inference():
    d = from_csv(b"a,b,label\n1,2,0\n3,4,1\n5,7,1\n", target="label")
    assert d.task == "classification" and d.X.shape == (3, 2) and list(d.y) == [0, 1, 1]
    r = from_csv(io.BytesIO(b"a,b,t\n1,2,0.5\n3,4,1.5\n"), target="t")
    assert r.task == "regression"
    u = from_csv(b"a,b\n1,2\n3,5\n")
    assert u.y is None and u.task == "unsupervised"


def test_csv_cleans_constant_and_reports_duplicates():
    d = from_csv(b"a,b,c\n1,5,2\n1,6,2\n1,6,2\n")
    assert d.feature_names == ("b",)
    assert any("constant" in w for w in d.warnings) and any("duplicate" in w for w in d.warnings)


BAD_CSV = {
    "empty": (b"", "empty"),
    "header only": (b"a,b\n", "no data rows"),
    "text column": (b"a,b\n1,x\n2,y\n", "numeric"),
    "mixed types": (b"a,b\n1,2\n2,oops\n", "numeric"),
    "nan": (b"a,b\n1,nan\n2,3\n", "NaN"),
    "inf": (b"a,b\n1,inf\n2,3\n", "NaN or infinite"),
    "one row": (b"a,b\n1,2\n", "one data row"),
    "all constant": (b"a,b\n1,2\n1,2\n", "constant"),
    "binary junk": (bytes(range(256)) * 4, "binary"),
    "not utf8": ("a,b\n1,2\n\u00e9,3\n".encode("latin-1"), "UTF-8"),
    "formula": (b"a,b\n1,2\n=cmd|' /C calc'!A0,3\n", "formula"),
    "ragged": (b"a,b\n1,2\n3\n", "fields"),
    "duplicate header": (b"a,a\n1,2\n3,4\n", "unique"),
}


@pytest.mark.parametrize("case", list(BAD_CSV))
def test_csv_bad_input(case):
    raw, match = BAD_CSV[case]
    with pytest.raises(ValueError, match=match):
        from_csv(raw)


def test_csv_limits():
    with pytest.raises(ValueError, match="limit"):
        from_csv(b"a,b\n" + b"1,2\n" * 20, max_rows=10)
    with pytest.raises(ValueError, match="columns"):
        from_csv(b",".join(b"c%d" % i for i in range(5)) + b"\n" + b"1,2,3,4,5\n" * 3, max_cols=4)
    with pytest.raises(ValueError, match="KB limit"):
        from_csv(b"a,b\n" + b"1,2\n" * 1000, max_bytes=1024)
    assert datasets.MAX_ROWS > 0 and datasets.MAX_COLS > 0 and datasets.MAX_BYTES > 0


def test_csv_bad_target():
    with pytest.raises(ValueError, match="not in the header"):
        from_csv(b"a,b\n1,2\n3,4\n", target="z")
    with pytest.raises(ValueError, match="numeric"):
        from_csv(b"a,b\n1,x\n3,y\n", target="b")
    with pytest.raises(ValueError, match="one class"):
        from_csv(b"a,b\n1,1\n3,1\n", target="b", task="classification")
