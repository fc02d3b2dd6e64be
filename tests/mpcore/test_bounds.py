"""Bounds: hand-computed values from the formulas of API.md, edge cases, monotonicity."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from conftest import RTOL_EXACT
from mpcore.bounds import compression_bound, compression_terms, kmp_bound, kpca_bound, kpca_terms


def test_compression_bound_hand_computed():
    m, delta = 100, 0.05
    r = np.array([0.5, 0.3, 0.35])
    pen = [math.sqrt((t * math.log(math.e * m / t) + math.log(2 * m / delta)) / (2 * (m - t)))
           for t in (1, 2, 3)]
    raw = [0.5 + pen[0], 0.3 + pen[1], 0.35 + pen[2]]
    expected = [raw[0], min(raw[:2]), min(raw)]
    assert_allclose(compression_bound(r, m, delta=delta), expected, rtol=RTOL_EXACT)
    assert_allclose(compression_bound(r, m, delta=delta, R=2.0)[0], 0.5 + 2 * pen[0])


def test_kpca_bound_hand_computed():
    lam = np.array([5.0, 1.0, 3.0, 0.5])  # unsorted on purpose
    m, delta = 4, 0.1
    s = sorted(lam, reverse=True)
    const = 3 * math.sqrt(math.log(2 * m / delta) / (2 * m))
    raw = [sum(s[t:]) / m + 8 / m * math.sqrt((t + 1) * m) for t in (1, 2, 3)]
    expected = np.minimum.accumulate(raw) + const
    assert_allclose(kpca_bound(lam, m, delta=delta), expected, rtol=RTOL_EXACT)
    assert_allclose(kpca_bound(lam, m, delta=delta, kappa_sq_sum=9.0)[0],
                    sum(s[1:]) / m + 8 / m * math.sqrt(2 * 9.0) + const)


def test_kmp_bound_hand_computed():
    m, k, t, delta = 450, 17, 30, 0.05
    n = m - k - t
    expected = 2 / n * ((k + 1) * math.log2(4 * math.e * n / (k + 1)) + k * math.log2(math.e * m / k)
                        + t * math.log2(math.e * (m - k) / t) + math.log2(2 * m * m / delta))
    assert kmp_bound(m, k, t, delta=delta) == pytest.approx(expected, rel=RTOL_EXACT)


def test_kmp_bound_edge_cases():
    m = 50
    n = m
    no_k_no_t = 2 / n * (math.log2(4 * math.e * n) + math.log2(2 * m * m / 0.05))
    assert kmp_bound(m, 0, 0) == pytest.approx(no_k_no_t, rel=RTOL_EXACT)
    assert kmp_bound(m, 30, 20) == math.inf
    assert kmp_bound(m, 50, 0) == math.inf


@pytest.mark.parametrize("call", [
    lambda: compression_bound([0.1, np.nan], 10),
    lambda: compression_bound([0.1] * 10, 10),
    lambda: compression_bound([0.1], 10, delta=1.5),
    lambda: kpca_bound([1.0], 10),
    lambda: kmp_bound(10, -1, 0),
    lambda: kmp_bound(10, 11, 0),
    lambda: kmp_bound(10, 1, 0, delta=0),
])
def test_bad_input_raises(call):
    with pytest.raises((ValueError, TypeError)):
        call()


@settings(max_examples=50, deadline=None)
@given(r=st.lists(st.floats(0, 2), min_size=1, max_size=30), extra=st.integers(1, 500))
def test_compression_bound_is_running_minimum(r, extra):
    m = len(r) + extra
    B = compression_bound(r, m)
    assert np.all(np.diff(B) <= 0)
    assert np.all(B >= np.minimum.accumulate(np.asarray(r)) - 1e-12)


@settings(max_examples=50, deadline=None)
@given(lam=st.lists(st.floats(0, 100), min_size=2, max_size=30), m=st.integers(2, 1000))
def test_kpca_bound_non_increasing(lam, m):
    B = kpca_bound(lam, m)
    assert B.shape == (len(lam) - 1,) and np.all(np.diff(B) <= 0) and np.isfinite(B).all()


@settings(max_examples=50, deadline=None)
@given(lam=st.lists(st.floats(0, 100), min_size=3, max_size=30), k=st.integers(1, 29),
       m=st.integers(2, 10**20), kappa=st.one_of(st.none(), st.floats(0, 1e6)))
def test_kpca_bound_from_top_eigenvalues_and_trace(lam, k, m, kappa):
    """The k largest eigenvalues and tr K give the same bound as every eigenvalue,
    for k = 1..n-1 (each tail is the trace minus the top t)."""
    k = min(k, len(lam) - 1)
    top = np.sort(lam)[::-1][:k]
    full = kpca_bound(lam, m, kappa_sq_sum=kappa)[:k]
    scale = max(sum(lam), 1.0) / min(m, 2**53)  # the tails' rounding, relative to m
    assert_allclose(kpca_bound(top, m, trace=float(sum(lam)), kappa_sq_sum=kappa), full,
                    rtol=RTOL_EXACT, atol=RTOL_EXACT * scale)
    terms = kpca_terms(top, float(sum(lam)), m, kappa_sq_sum=kappa)
    assert_allclose(np.minimum.accumulate(terms), kpca_bound(top, m, trace=float(sum(lam)),
                                                             kappa_sq_sum=kappa))


@settings(max_examples=50, deadline=None)
@given(r=st.lists(st.floats(0, 2), min_size=1, max_size=30), extra=st.integers(1, 500))
def test_compression_bound_is_the_running_minimum_of_its_terms(r, extra):
    m = len(r) + extra
    assert_allclose(compression_bound(r, m), np.minimum.accumulate(compression_terms(r, m)))
