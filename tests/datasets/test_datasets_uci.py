"""The four UCI tables of Vincent & Bengio's Table 3: each shipped file matches the data
set's published description (rows, features, class balance, value ranges, missing values),
and they are kept for the experiments, out of the pages' lists."""

from importlib import resources

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import datasets
from datasets import load, names

UCI = ("wisconsin_original", "sonar", "pima", "ionosphere")
#: name -> (rows as loaded, features, (class 0, class 1) counts), from the UCI descriptions.
KNOWN = {"wisconsin_original": (683, 9, (444, 239)), "sonar": (208, 60, (97, 111)),
         "pima": (768, 8, (500, 268)), "ionosphere": (351, 34, (126, 225))}


def _raw(name):
    path = resources.files("datasets").joinpath("data", datasets.info(name).file)
    with path.open("r", encoding="utf-8") as fh:
        header = fh.readline().strip().split(",")
        return header, np.genfromtxt(fh, delimiter=",", dtype=float)


@pytest.mark.parametrize("name", UCI)
def test_table_matches_the_description(name):
    d = load(name)
    rows, feats, counts = KNOWN[name]
    assert d.X.shape == (rows, feats) and len(d.feature_names) == feats
    assert tuple(np.bincount(d.y)) == counts
    assert d.task == "classification" and np.isfinite(d.X).all()
    assert "CC BY 4.0" in d.source


def test_wisconsin_original_is_the_699_row_set_with_16_missing_bare_nuclei():
    header, t = _raw("wisconsin_original")
    assert t.shape == (699, 11) and header[0] == "sample_id" and header[-1] == "malignant"
    missing = np.isnan(t)
    assert missing.sum() == 16 and missing[:, header.index("bare_nuclei")].sum() == 16
    X = t[:, 1:-1]
    assert np.all(X[~np.isnan(X)] == np.round(X[~np.isnan(X)]))  # integer scores
    assert np.nanmin(X) == 1 and np.nanmax(X) == 10
    assert tuple(np.bincount(t[:, -1].astype(int))) == (458, 241)


def test_sonar_pima_ionosphere_ranges():
    sonar, pima, iono = load("sonar"), load("pima"), load("ionosphere")
    assert sonar.X.min() >= 0 and sonar.X.max() <= 1
    assert np.all(iono.X[:, 1] == 0)  # the second ionosphere feature is constant 0
    assert iono.X.min() >= -1 and iono.X.max() <= 1
    # Pima: the UCI description's column means
    np.testing.assert_allclose(pima.X.mean(axis=0), [3.845052, 120.894531, 69.105469, 20.536458,
                                                    79.799479, 31.992578, 0.471876, 33.240885],
                               atol=5e-6)


def test_uci_tables_are_for_the_experiments_not_the_pages():
    assert not set(UCI) & set(names())
    assert set(UCI) <= set(names(experiments=True))
    assert names(experiments=True)[: len(names())] == names()


FULL = {}


@settings(max_examples=20, deadline=None)
@given(name=st.sampled_from(UCI), n=st.integers(10, 200), seed=st.integers(0, 2**32 - 1))
def test_uci_subsets_are_seeded_rows_of_the_table(name, n, seed):
    if name not in FULL:
        full = load(name)
        FULL[name] = (full, {tuple(r) for r in np.column_stack([full.X, full.y])})
    full, rows = FULL[name]
    sub = load(name, n_samples=n, random_state=seed)
    assert sub.X.shape == (n, full.n_features)
    assert np.array_equal(sub.X, load(name, n_samples=n, random_state=seed).X)
    assert all(tuple(r) in rows for r in np.column_stack([sub.X, sub.y]))
