"""datasets.standardize / datasets.split: the one path from a data set to its
standardised training and test parts (the app, its snippets, the experiments),
equal to scikit-learn's StandardScaler and train_test_split."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

import datasets
from conftest import ATOL_EXACT


@settings(max_examples=40, deadline=None)
@given(n=st.integers(12, 80), seed=st.integers(0, 2**16), test_size=st.sampled_from([0.2, 0.3, 5]),
       n_classes=st.integers(2, 4), standardize=st.sampled_from(datasets.STANDARDIZE))
def test_split_equals_scikit_learn(n, seed, test_size, n_classes, standardize):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3)) * [1.0, 10.0, 0.1] + 5.0
    y = np.arange(n) % n_classes
    strat = y if datasets.can_stratify(y, test_size) else None
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=test_size, random_state=seed,
                                              stratify=strat)
    if standardize == "all":
        Xs = StandardScaler().fit_transform(X)
        X_tr, X_te = train_test_split(Xs, test_size=test_size, random_state=seed, stratify=strat)
    elif standardize == "train":
        scaler = StandardScaler().fit(X_tr)
        X_tr, X_te = scaler.transform(X_tr), scaler.transform(X_te)
    got = datasets.split(X, y, test_size=test_size, random_state=seed, stratify=True,
                         standardize=standardize)
    for a, b in zip(got, (X_tr, X_te, y_tr, y_te)):
        assert_allclose(a, b, atol=ATOL_EXACT)
    tr, te = datasets.split_indices(n, y, test_size=test_size, random_state=seed, stratify=True)
    assert_array_equal(y[tr], y_tr)
    assert_array_equal(y[te], y_te)


def test_split_without_targets_and_bad_standardize():
    X = np.arange(20.0).reshape(10, 2)
    X_tr, X_te = datasets.split(X, test_size=0.3, random_state=1)
    ref_tr, ref_te = train_test_split(X, test_size=0.3, random_state=1)
    assert_array_equal(X_tr, ref_tr)
    assert_array_equal(X_te, ref_te)
    with pytest.raises(ValueError, match="standardize"):
        datasets.split(X, test_size=0.3, standardize="yes")
