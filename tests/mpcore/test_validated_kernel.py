"""validated_kernel: check a kernel matrix once; every function then gives the same answers.

The checks it lets functions skip are the ones that would have passed: results are
bit-for-bit those of the plain matrix, a matrix that is not PSD is still refused by
the methods that need PSD (with their own message), and nothing derived from it
(slices, products, copies) carries the mark.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mpcore import (
    ValidatedKernel,
    ekm_eigenvalues,
    ekm_perturbation_bound,
    exact_eigenvalues,
    kernel_matrix,
    nystrom_eigenvalues,
    nystrom_indices,
    validated_kernel,
)


def _gram(seed, m, kernel="rbf"):
    X = np.random.default_rng(seed).normal(size=(m, 3))
    params = {"gamma": 0.5} if kernel == "rbf" else {"gamma": 1.0, "coef0": -1.0}
    return kernel_matrix(X, kernel=kernel, **params)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**16), m=st.integers(3, 40), k=st.integers(1, 3))
def test_same_results_as_the_plain_matrix(seed, m, k):
    K = _gram(seed, m)
    V = validated_kernel(K)
    assert isinstance(V, ValidatedKernel) and not V.flags.writeable
    idx = nystrom_indices(K, k)
    np.testing.assert_array_equal(nystrom_indices(V, k), idx)
    np.testing.assert_array_equal(nystrom_eigenvalues(V, idx, k), nystrom_eigenvalues(K, idx, k))
    np.testing.assert_array_equal(exact_eigenvalues(V, k), exact_eigenvalues(K, k))
    np.testing.assert_array_equal(ekm_eigenvalues(V, k, k, random_state=seed),
                                  ekm_eigenvalues(K, k, k, random_state=seed))
    # Eq. 3 reuses K @ K and the eigenvalues of K across calls on the checked matrix
    for q in (k, min(k + 1, m), k):
        plain, marked = (ekm_perturbation_bound(A, q, k, random_state=seed) for A in (K, V))
        for field in ("exact", "approx", "observed", "eigenvalue_bound"):
            np.testing.assert_allclose(getattr(marked, field), getattr(plain, field),
                                       rtol=1e-12, atol=1e-12)
        assert marked.spectral_bound == pytest.approx(plain.spectral_bound, rel=1e-12)


def test_a_matrix_that_is_not_psd_is_still_refused_where_psd_is_needed():
    K = _gram(0, 30, kernel="sigmoid")
    V = validated_kernel(K)  # square and symmetric: accepted, marked not PSD
    with pytest.raises(ValueError, match="not a PSD kernel|not positive semi-definite") as plain:
        nystrom_eigenvalues(K, [0, 1], 2)
    with pytest.raises(ValueError, match="not a PSD kernel|not positive semi-definite") as marked:
        nystrom_eigenvalues(V, [0, 1], 2)
    assert str(marked.value) == str(plain.value)
    ekm_eigenvalues(V, 5, 2, random_state=0)  # the sketch needs no PSD matrix


@pytest.mark.parametrize("bad", [np.ones((2, 3)), np.array([[1.0, 2.0], [0.0, 1.0]]),
                                 np.array([[np.nan, 0.0], [0.0, 1.0]])])
def test_it_refuses_what_every_function_refuses(bad):
    with pytest.raises(ValueError):
        validated_kernel(bad)


def test_derived_arrays_are_plain_and_the_values_cannot_change():
    K = _gram(1, 10)
    V = validated_kernel(K)
    K[0, 0] = 99.0  # the caller's array: the checked copy does not see it
    assert V[0, 0] == 1.0
    with pytest.raises(ValueError):
        V[0, 0] = 2.0
    for derived in (V[:5, :5], V @ np.ones(10), V * 2, V - V.T, np.asarray(V).copy()):
        assert type(derived) is np.ndarray
    # a view that is not a checked matrix (a transpose, a diagonal) carries no mark
    for view in (V.T, np.diag(V), V.copy()):
        assert not getattr(view, "_mp_checked", False)
    assert validated_kernel(V) is V


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**16), m=st.integers(1, 40),
       kernel=st.sampled_from(["rbf", "sigmoid"]))
def test_a_pickled_matrix_keeps_its_checks_and_none_of_its_memos(seed, m, kernel):
    """What goes to another process (the eigenvalue page's curves) arrives checked: the same
    values, read-only, PSD or not as checked, not checked again there; the memos (K @ K, the
    eigenvalues) stay behind, and the answers are those of the plain matrix."""
    import pickle

    import mpcore._validation as validation

    K = _gram(seed, m, kernel)
    V = validated_kernel(K)
    ekm_perturbation_bound(V, 1, 1, random_state=seed)  # fills its memos
    assert V._mp_memo
    W = pickle.loads(pickle.dumps(V))
    assert type(W) is ValidatedKernel and not W.flags.writeable
    assert (W._mp_checked, W._mp_psd) == (True, V._mp_psd)
    assert W._mp_memo == {} and not W._mp_recent
    np.testing.assert_array_equal(W, K)
    calls = []
    real = validation.check_psd_matrix
    validation.check_psd_matrix = lambda *a, **k: calls.append(a) or real(*a, **k)
    try:
        assert validated_kernel(W) is W
    finally:
        validation.check_psd_matrix = real
    assert calls == []
    if V._mp_psd:
        np.testing.assert_array_equal(exact_eigenvalues(W, 1), exact_eigenvalues(K, 1))
    else:
        with pytest.raises(ValueError, match="not a PSD kernel|not positive semi-definite"):
            nystrom_eigenvalues(W, [0], 1)


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("m", [1, 7, 120])
def test_eq3s_square_of_k_is_exactly_symmetric_and_is_k_times_k(order, m):
    """K @ K for Eq. 3 comes from one symmetric product (K @ K.T): exactly symmetric, and
    K @ K to rounding, whichever memory order K has (a Fortran-ordered K also works)."""
    from mpcore.ekm import _symmetric_square

    K = np.asarray(_gram(m, m), order=order)
    KK = _symmetric_square(validated_kernel(K))
    np.testing.assert_array_equal(KK, KK.T)
    np.testing.assert_allclose(KK, K @ K, rtol=1e-12, atol=1e-12 * np.max(np.abs(K @ K)))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**16), m=st.sampled_from([0, 1, 150, 500, 640]),
       scale=st.floats(1e-3, 1e3))
def test_lanczos_spectral_norm_is_the_dense_one(seed, m, scale):
    """Eq. 3's ||E||_2 from Lanczos (large m) equals the dense eigh value to 1e-9 relative.
    ``m`` counts rows past the size where Lanczos takes over."""
    from scipy.linalg import eigvalsh

    from mpcore.ekm import SPECTRAL_NORM_EIGSH_MIN_M, _spectral_norm

    m += SPECTRAL_NORM_EIGSH_MIN_M

    A = np.random.default_rng(seed).normal(size=(m, m)) * scale
    E = A + A.T
    dense = float(np.max(np.abs(eigvalsh(E))))
    assert abs(_spectral_norm(E) - dense) <= 1e-9 * dense


def _counting_sketch(monkeypatch):
    """Count mpcore.ekm._sketch's calls (each draws and multiplies one sketch)."""
    import mpcore.ekm as ekm

    calls = []
    real = ekm._sketch

    def counted(K, q, sketch, random_state):
        calls.append((sketch, q))
        return real(K, q, sketch, random_state)

    monkeypatch.setattr(ekm, "_sketch", counted)
    return calls


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), m=st.integers(4, 40), q=st.integers(1, 40),
       sketch=st.sampled_from(["gaussian", "countsketch"]))
def test_a_shared_sketch_gives_the_plain_matrix_answers_bit_for_bit(seed, m, q, sketch):
    """Algorithm 1's eigenvalues and eigenpairs and Eq. 3 at one (q, sketch, integer seed)
    share one sketch on a checked matrix, and give what each computes from its own sketch
    of the plain matrix."""
    from mpcore import ekm_eigenpairs

    q = min(q, m)
    K = _gram(seed % 2**16, m)
    V = validated_kernel(K)
    n = min(3, q)
    for A in (V, V):  # the second round reads the kept sketch
        np.testing.assert_array_equal(ekm_eigenvalues(A, q, n, sketch=sketch, random_state=seed),
                                      ekm_eigenvalues(K, q, n, sketch=sketch, random_state=seed))
        for got, want in zip(ekm_eigenpairs(A, q, n, sketch=sketch, random_state=seed),
                             ekm_eigenpairs(K, q, n, sketch=sketch, random_state=seed)):
            np.testing.assert_array_equal(got, want)
        marked = ekm_perturbation_bound(A, q, n, sketch=sketch, random_state=seed)
        plain = ekm_perturbation_bound(K, q, n, sketch=sketch, random_state=seed)
        np.testing.assert_array_equal(marked.approx, plain.approx)
        assert marked.entrywise_bound == pytest.approx(plain.entrywise_bound, rel=1e-12)


def test_the_eigenvalue_page_draws_each_sketch_once(monkeypatch):
    """views.spectrum.ekm_methods times Algorithm 1 and computes its scree, eigenvectors and
    Eq. 3 at the same (q, sketch, seed): one sketch per kind, not one per use."""
    from mpcore.plots import EKM_SERIES
    from views.spectrum import ekm_methods, n_compared

    V = validated_kernel(_gram(5, 60))
    calls = _counting_sketch(monkeypatch)
    run = ekm_methods(V, 0, 12, 4)
    assert sorted(calls) == [("countsketch", 12), ("gaussian", 12)]
    # and the numbers are those of the plain matrix, from which every call draws its own
    K = np.asarray(V).copy()
    n_cmp = n_compared(exact_eigenvalues(K, 4))
    for sketch, name in EKM_SERIES.items():
        np.testing.assert_array_equal(
            run["scree"][name], ekm_eigenvalues(K, 12, 12, sketch=sketch, random_state=0))
        p = ekm_perturbation_bound(K, 12, n_cmp, sketch=sketch, random_state=0)
        assert run["ekm"][name]["observed"] == pytest.approx(float(p.observed.max()), rel=1e-12)
        assert run["ekm"][name]["spectral"] == pytest.approx(p.spectral_bound, rel=1e-12)
    assert len(calls) == 2 + 2 * 2


def test_sketches_without_an_integer_seed_are_never_shared(monkeypatch):
    """A RandomState or None draws a new sketch each call: nothing is kept for them."""
    V = validated_kernel(_gram(2, 30))
    calls = _counting_sketch(monkeypatch)
    for seed in (None, np.random.RandomState(0), None):
        ekm_eigenvalues(V, 10, 3, random_state=seed)
    assert len(calls) == 3 and not V._mp_recent
    a, b = (ekm_eigenvalues(V, 10, 10, random_state=None) for _ in range(2))
    assert not np.array_equal(a, b)


@settings(max_examples=15, deadline=None)
@given(qs=st.lists(st.integers(1, 30), min_size=1, max_size=12),
       sketch=st.sampled_from(["gaussian", "countsketch"]))
def test_kept_sketches_stay_within_their_budget(qs, sketch):
    """The most recent sketches are kept, least recent dropped first, within the budget (a
    fraction of the matrix's own bytes); each is read-only, and a fresh one from ekm_sketch
    can be written."""
    from mpcore import ekm_sketch
    from mpcore._validation import RECENT_BYTES_FRACTION
    from mpcore.ekm import SKETCH_MEMO

    V = validated_kernel(_gram(3, 30))
    for q in qs:
        ekm_eigenvalues(V, q, 1, sketch=sketch, random_state=7)
        kept = V._mp_recent
        assert sum(v.nbytes for v in kept.values()) <= RECENT_BYTES_FRACTION * V.nbytes
        if 30 * q * 8 <= RECENT_BYTES_FRACTION * V.nbytes:
            assert list(kept)[-1][1:] == (sketch, q, 7)  # the latest is kept
        else:  # one sketch above the budget is not kept at all
            assert (SKETCH_MEMO, sketch, q, 7) not in kept
        assert all(not v.flags.writeable for v in kept.values())
    fresh = ekm_sketch(V, qs[-1], sketch=sketch, random_state=7)
    kept = V._mp_recent.get((SKETCH_MEMO, sketch, qs[-1], 7))
    if kept is not None:
        np.testing.assert_array_equal(fresh, kept)
    fresh[0, 0] += 1.0  # the caller's own copy


def test_threads_sharing_one_matrix_get_the_same_sketches():
    """Several threads (the app's sessions and its worker share one K) asking for sketches of
    the same matrix at once each get exactly the plain matrix's answer."""
    from concurrent.futures import ThreadPoolExecutor

    K = _gram(9, 50)
    V = validated_kernel(K)
    jobs = [(q, s) for q in (5, 9, 17, 33, 5, 9) for s in ("gaussian", "countsketch")] * 3
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda j: ekm_eigenvalues(V, j[0], 3, sketch=j[1], random_state=1),
                            jobs))
    for (q, s), values in zip(jobs, got):
        np.testing.assert_array_equal(values, ekm_eigenvalues(K, q, 3, sketch=s, random_state=1))
    from mpcore._validation import RECENT_BYTES_FRACTION

    assert sum(v.nbytes for v in V._mp_recent.values()) <= RECENT_BYTES_FRACTION * V.nbytes
