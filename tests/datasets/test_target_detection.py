"""datasets.detect_target and width_scale: one rule for every page (issue 66, item 8)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import datasets
from datasets import detect_target, width_scale


@settings(max_examples=80, deadline=None)
@given(n_feat=st.integers(1, 6), rows=st.integers(2, 30), n_classes=st.integers(2, 20),
       name=st.sampled_from(["target", " Label ", "CLASS", "y", "species"]),
       where=st.integers(0, 6), seed=st.integers(0, 1000))
def test_a_named_target_is_found_wherever_it_stands(n_feat, rows, n_classes, name, where, seed):
    cols = [f"f{i}" for i in range(n_feat)]
    cols.insert(min(where, n_feat), name)
    table = np.random.default_rng(seed).normal(size=(rows, len(cols)))
    assert detect_target(cols, table) == name


@settings(max_examples=80, deadline=None)
@given(n_feat=st.integers(1, 6), rows=st.integers(4, 40), n_classes=st.integers(2, 20),
       seed=st.integers(0, 1000))
def test_an_integer_last_column_after_real_features_is_the_target(n_feat, rows, n_classes, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(rows, n_feat))
    y = np.arange(rows) % n_classes
    cols = [f"f{i}" for i in range(n_feat)] + ["last"]
    got = detect_target(cols, np.column_stack([X, y]))
    assert got == ("last" if np.unique(y).size >= 2 else None)
    # integer features everywhere (digits' pixels): no guess
    assert detect_target(cols, np.column_stack([np.round(X * 10), y])) is None
    # a real-valued last column: regression or no target, never guessed
    assert detect_target(cols, np.column_stack([X, X[:, 0] + 0.5])) is None


def test_from_csv_and_detect_agree_on_a_saved_sklearn_frame():
    from sklearn.datasets import load_iris, load_wine

    for loader in (load_wine, load_iris):
        raw = loader(as_frame=True).frame.to_csv(index=False).encode()
        d = datasets.from_csv(raw)
        assert detect_target(list(d.feature_names), d.X) == "target"


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(2, 900), cols=st.integers(1, 5), scale=st.floats(1e-3, 1e3),
       seed=st.integers(0, 100))
def test_width_scale_follows_the_data(rows, cols, scale, seed):
    X = np.random.default_rng(seed).normal(size=(rows, cols))
    s = width_scale(X)
    assert s > 0
    assert np.isclose(width_scale(X * scale), s * scale, rtol=1e-6)
    assert width_scale(np.ones((rows, cols))) == 1.0
