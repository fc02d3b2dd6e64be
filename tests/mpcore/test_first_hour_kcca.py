"""SparseKCCA.score correlates paired views: views of different lengths are refused by name.

``transform`` maps each view alone (lengths may differ); ``score`` pairs them row by
row, so X and Y of different lengths get a ValueError naming X and Y and their row
counts, not NumPy's gufunc message from deep inside.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datasets import two_view
from fuzz_util import N_EXAMPLES
from mpcore.kcca import SparseKCCA


@pytest.fixture(scope="module")
def fitted():
    X, Y, _ = two_view(60, 0.1, 0)
    return SparseKCCA(5).fit(X, Y), X, Y


@settings(max_examples=N_EXAMPLES, deadline=None)
@given(n_x=st.integers(1, 60), n_y=st.integers(1, 60))
def test_score_pairs_rows_or_names_the_views(fitted, n_x, n_y):
    model, X, Y = fitted
    if n_x != n_y:
        with pytest.raises(ValueError, match=rf"X has {n_x} rows and Y has {n_y}"):
            model.score(X[:n_x], Y[:n_y])
        return
    r = model.score(X[:n_x], Y[:n_y])
    assert -1 - 1e-9 <= r <= 1 + 1e-9
    # transform still maps views of different lengths alone
    U, V = model.transform(X[:n_x], Y[: max(1, n_y - 1)])
    assert U.shape[0] == n_x and V.shape[0] == max(1, n_y - 1)


def test_score_message_says_what_to_fix(fitted):
    model, X, Y = fitted
    with pytest.raises(ValueError, match="paired") as info:
        model.score(X, Y[:-1])
    assert "signature" not in str(info.value) and "gufunc" not in str(info.value)
    assert np.isfinite(model.score(X, Y))
