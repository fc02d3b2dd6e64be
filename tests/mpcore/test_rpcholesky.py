"""Randomly pivoted Cholesky (Chen, Epperly, Tropp & Webber, arXiv:2207.06503, Algorithm 1),
the partial Cholesky of a given order, and the two rules they add to ``nystrom_indices``."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy.stats import chi2

from mpcore.nystrom import SUBSET_RULES
from mpcore import (nystrom_indices, partial_cholesky, random_indices,
                    random_order, rpcholesky)
from mpcore._validation import DIAG_TOL
from mpcore.kernels import kernel_matrix

#: Significance of the chi-square test of the first pivot's distribution: the test fails
#: wrongly once in a million runs (the seeds are fixed, so it passes or fails for good).
SAMPLING_ALPHA = 1e-6


def _rbf(m=40, seed=0, gamma=1.0):
    X = np.random.default_rng(seed).normal(size=(m, 2))
    return kernel_matrix(X, kernel="rbf", gamma=gamma)


def _low_rank(m=30, r=4, seed=0):
    X = np.random.default_rng(seed).normal(size=(m, r))
    return X @ X.T


def test_invariants_of_every_step():
    K = _rbf()
    res = rpcholesky(K, 15, random_state=3)
    F, piv, d, trace = res
    assert piv.size == 15 == F.shape[1] and trace.shape == (16,)
    assert np.unique(piv).size == piv.size  # distinct pivots
    assert np.all(d >= 0)
    assert_allclose(d, np.diag(K - F @ F.T), atol=1e-10)
    assert np.all(np.diff(trace) <= 1e-12)  # non-increasing
    assert trace[0] == pytest.approx(np.trace(K))
    assert trace[-1] == pytest.approx(d.sum())
    # each prefix's trace is that of its own residual
    for t in (1, 5, 15):
        assert trace[t] == pytest.approx(np.trace(K - F[:, :t] @ F[:, :t].T), abs=1e-9)
    assert_allclose(d[piv], 0.0)
    # F F' is the Nystroem approximation on the pivots
    W = K[np.ix_(piv, piv)]
    assert_allclose(F @ F.T, K[:, piv] @ np.linalg.solve(W, K[piv]), atol=1e-8)


def test_exact_at_the_rank():
    K = _low_rank(r=4)
    res = rpcholesky(K, 4, random_state=0)
    assert res.pivots.size == 4
    assert_allclose(res.factor @ res.factor.T, K, atol=1e-8 * np.abs(K).max())
    # asked for more: stops at the numerical rank, still exact
    more = rpcholesky(K, 20, random_state=0)
    assert more.pivots.size == 4
    assert more.residual_trace[-1] <= DIAG_TOL * K.shape[0] * np.diag(K).max()


def test_same_seed_same_pivots_and_prefixes_nest():
    K = _rbf(seed=2)
    a = rpcholesky(K, 12, random_state=7).pivots
    assert_array_equal(a, rpcholesky(K, 12, random_state=7).pivots)
    # one draw per step: a shorter run with the seed is a prefix
    assert_array_equal(rpcholesky(K, 5, random_state=7).pivots, a[:5])
    assert not np.array_equal(a, rpcholesky(K, 12, random_state=8).pivots)


def test_first_pivot_is_drawn_in_proportion_to_the_diagonal():
    """Over many seeds the first pivot's frequency matches diag(K) / tr(K) (chi-square)."""
    X = np.diag([1.0, np.sqrt(2.0), np.sqrt(3.0), 2.0])  # K = diag(1, 2, 3, 4)
    K = X @ X.T
    p = np.diag(K) / np.trace(K)
    n = 4000
    counts = np.bincount([rpcholesky(K, 1, random_state=s).pivots[0] for s in range(n)],
                         minlength=4)
    stat = float(np.sum((counts - n * p) ** 2 / (n * p)))
    assert stat < chi2.ppf(1 - SAMPLING_ALPHA, df=len(p) - 1), (counts, n * p)


@settings(max_examples=40, deadline=None)
@given(m=st.integers(3, 12), zero=st.lists(st.booleans(), min_size=12, max_size=12),
       seed=st.integers(0, 2**32 - 1), r=st.integers(1, 3))
def test_a_zero_residual_is_never_drawn(m, zero, seed, r):
    """Points with a zero feature vector (residual 0 from the start) and pivots already
    taken (residual 0 after their step) have probability 0."""
    X = np.random.default_rng(seed % 1000).normal(size=(m, r))
    dead = np.asarray(zero[:m])
    if dead.all():
        dead[0] = False
    X[dead] = 0.0
    K = X @ X.T
    res = rpcholesky(K, m, random_state=seed)
    assert not np.any(dead[res.pivots])
    assert np.unique(res.pivots).size == res.pivots.size
    assert 1 <= res.pivots.size <= min(r, int((~dead).sum()))
    assert_allclose(res.factor @ res.factor.T, K, atol=1e-8 * max(np.abs(K).max(), 1.0))


def test_partial_cholesky_of_the_uniform_order():
    K = _rbf(seed=4)
    order = random_order(K.shape[0], 10, random_state=1)
    res = partial_cholesky(K, order)
    assert_array_equal(res.pivots, order)
    assert np.all(np.diff(res.residual_trace) <= 1e-12)
    assert_allclose(res.residual_diagonal, np.diag(K - res.factor @ res.factor.T), atol=1e-10)
    # a repeated pivot is skipped: the span is unchanged
    again = partial_cholesky(K, np.concatenate([order[:3], order[:1], order[3:5]]))
    assert_array_equal(again.pivots, order[:5])


def test_the_new_rules_of_nystrom_indices():
    K = _rbf(seed=5)
    assert {"uniform", "rpcholesky"} <= set(SUBSET_RULES)
    assert_array_equal(nystrom_indices(K, 8, rule="uniform", random_state=3),
                       nystrom_indices(K, 8, rule="random", random_state=3))
    assert_array_equal(nystrom_indices(K, 8, rule="uniform", random_state=3),
                       random_indices(K.shape[0], 8, 3))
    assert_array_equal(nystrom_indices(K, 8, rule="rpcholesky", random_state=3),
                       rpcholesky(K, 8, random_state=3).pivots)


@pytest.mark.parametrize("bad, error", [
    (dict(k=0), ValueError), (dict(k=41), ValueError), (dict(random_state=-1), ValueError),
    (dict(random_state="a"), TypeError)])
def test_bad_arguments_are_refused(bad, error):
    args = dict(k=3, random_state=0) | bad
    with pytest.raises(error):
        rpcholesky(_rbf(), args["k"], random_state=args["random_state"])


def test_partial_cholesky_refuses_bad_pivots():
    K = _rbf()
    for bad in ([], [0, 40], [-1], [0.5]):
        with pytest.raises(ValueError, match="pivots"):
            partial_cholesky(K, np.asarray(bad))
    with pytest.raises(ValueError):
        rpcholesky(-np.eye(3), 2, random_state=0)  # not PSD
