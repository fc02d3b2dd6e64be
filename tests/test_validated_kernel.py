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


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**16), m=st.sampled_from([0, 1, 150, 500, 640]),
       scale=st.floats(1e-3, 1e3))
def test_lanczos_spectral_norm_is_the_dense_one(seed, m, scale):
    """Eq. 3's ||E||_2 from Lanczos (large m) equals the dense eigh value to 1e-9 relative.
    ``m`` counts rows past the size where Lanczos takes over."""
    from scipy.linalg import eigvalsh

    from mpcore.spectrum import SPECTRAL_NORM_EIGSH_MIN_M, _spectral_norm

    m += SPECTRAL_NORM_EIGSH_MIN_M

    A = np.random.default_rng(seed).normal(size=(m, m)) * scale
    E = A + A.T
    dense = float(np.max(np.abs(eigvalsh(E))))
    assert abs(_spectral_norm(E) - dense) <= 1e-9 * dense
