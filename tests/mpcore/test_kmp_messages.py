"""mpcore's messages name the argument at fault and say what to change (issue 66, item 14)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mpcore.kmp import KMPClassifier, KMPRegressor, normalize_kernel_specs

RNG = np.random.default_rng(0)
X = RNG.normal(size=(20, 2))


@pytest.mark.parametrize("est", [KMPRegressor(n_basis=3), KMPClassifier(n_basis=3)])
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_a_nan_or_inf_in_y_is_reported_as_y(est, bad):
    y = np.r_[np.zeros(10), np.ones(10)]
    y[4] = bad
    with pytest.raises(ValueError) as info:
        est.fit(X, y)
    msg = str(info.value)
    assert msg.startswith("y: "), msg
    assert "X" not in msg.split(":")[0]
    assert "Remove or impute" in msg


def test_a_nan_in_x_is_still_reported_as_x():
    Xn = X.copy()
    Xn[0, 0] = np.nan
    with pytest.raises(ValueError, match=r"X contains NaN"):
        KMPRegressor(n_basis=3).fit(Xn, np.arange(20.0))


@pytest.mark.parametrize("kernel, message", [
    ([{"kernel": "rbf", "gama": 1}], r"Unknown key\(s\) 'gama'.*Did you mean 'gamma'"),
    ([], r"kernel is an empty list: give at least one"),
    (["rbf", "rbf"], r"listed twice: rbf"),
    ([{"kernel": "rbf", "gamma": 2}, {"kernel": "rbf", "gamma": 2.0}], r"listed twice"),
    ({"rbf", "linear"}, r"kernel is a set .*Pass a list instead"),
    (frozenset({"rbf"}), r"kernel is a set"),
    (3, r"kernel must be a kernel name, a dict"),
    ([["rbf"]], r"Each kernel specification must be a kernel name or a dict"),
    ([{"gamma": 1}], r"has no 'kernel' key"),
])
@pytest.mark.parametrize("cls", [KMPRegressor, KMPClassifier])
def test_mixed_kernel_specifications_get_mpcore_messages(cls, kernel, message):
    y = np.r_[np.zeros(10), np.ones(10)]
    with pytest.raises((TypeError, ValueError), match=message) as info:
        cls(n_basis=3, kernel=kernel).fit(X, y)
    # mpcore's own message, not scikit-learn's constraint table's
    assert "documentation" not in str(info.value)
    assert "sklearn" not in info.traceback[-1].path.as_posix()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(
    st.sampled_from(["rbf", "linear", "laplacian", "polynomial", "nope"]),
    st.dictionaries(st.sampled_from(["kernel", "gamma", "degree", "coef0", "gama", 1]),
                    st.one_of(st.sampled_from(["rbf", "linear"]), st.floats(0.1, 3))),
    st.sets(st.sampled_from(["rbf", "linear"])),
), max_size=4))
def test_any_kernel_list_is_accepted_or_refused_by_mpcore(kernel):
    try:
        specs = normalize_kernel_specs(kernel, n_features=2)
    except (TypeError, ValueError) as exc:
        assert "kernel" in str(exc) or "gamma" in str(exc) or "degree" in str(exc) \
            or "coef0" in str(exc), str(exc)
    else:
        assert len(specs) == len(kernel) == len(set(specs))
