"""Kernel wrapper, width conventions and centring."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from conftest import ATOL_EXACT, RTOL_EXACT
from mpcore.kernels import (
    CONVENTIONS,
    center_kernel,
    center_test_kernel,
    gamma_to_sigma,
    kernel_diag,
    kernel_matrix,
    sigma_to_gamma,
)


@pytest.mark.parametrize("convention, factor", [("book", 2.0), ("kmp", 1.0)])
def test_sigma_conventions(small_X, convention, factor):
    sigma = 1.7
    K = kernel_matrix(small_X, gamma=sigma_to_gamma(sigma, convention))
    d2 = ((small_X[:, None] - small_X[None]) ** 2).sum(-1)
    assert_allclose(K, np.exp(-d2 / (factor * sigma**2)), atol=ATOL_EXACT)


@pytest.mark.parametrize("kernel", ["rbf", "laplacian", "polynomial", "linear", "cosine", "sigmoid"])
def test_kernel_diag_matches_matrix(small_X, kernel):
    K = kernel_matrix(small_X, kernel=kernel, gamma=0.2)
    assert_allclose(kernel_diag(small_X, kernel=kernel, gamma=0.2, chunk=7), np.diag(K), atol=ATOL_EXACT)


def test_centering_matches_feature_space_centering(small_X, rng):
    """Linear kernel: centring K equals the kernel of centred features (Code Fragment 5.2)."""
    Xc_mean = small_X.mean(0)
    K = kernel_matrix(small_X, kernel="linear")
    assert_allclose(center_kernel(K), (small_X - Xc_mean) @ (small_X - Xc_mean).T, atol=ATOL_EXACT)
    Z = rng.normal(size=(7, 3))
    Kt = kernel_matrix(Z, small_X, kernel="linear")
    assert_allclose(center_test_kernel(Kt, K), (Z - Xc_mean) @ (small_X - Xc_mean).T, atol=ATOL_EXACT)


@pytest.mark.parametrize("kwargs", [
    {"kernel": "bogus"}, {"gamma": -1.0}, {"gamma": 0.0}, {"degree": 0}, {"coef0": np.inf},
])
def test_bad_kernel_parameters(small_X, kwargs):
    with pytest.raises(ValueError):
        kernel_matrix(small_X, **kwargs)


def test_bad_data():
    with pytest.raises(ValueError, match="NaN"):
        kernel_matrix(np.array([[1.0, np.nan]]))
    with pytest.raises(ValueError, match="2-D"):
        kernel_matrix(np.arange(3.0))
    with pytest.raises(ValueError, match="features"):
        kernel_matrix(np.ones((2, 2)), np.ones((2, 3)))
    with pytest.raises(ValueError, match="overflow"):
        kernel_matrix(np.full((2, 2), 1e30), kernel="polynomial", degree=10, gamma=1e3)
    with pytest.raises(ValueError, match="sigma"):
        sigma_to_gamma(0.0)


@settings(max_examples=60, deadline=None)
@given(sigma=st.floats(1e-6, 1e6), convention=st.sampled_from(CONVENTIONS))
def test_sigma_and_gamma_convert_both_ways(sigma, convention):
    """One conversion per convention, and its inverse (the pages and the KMP
    dictionaries use these, never their own formula)."""
    gamma = sigma_to_gamma(sigma, convention)
    assert gamma_to_sigma(gamma, convention) == pytest.approx(sigma, rel=RTOL_EXACT)


def test_laplacian_width_is_the_distance_scale(small_X):
    """exp(-||x - y||_1 / sigma): gamma = 1/sigma for the Laplacian kernel."""
    sigma, d = 1.7, np.abs(small_X[:, None, :] - small_X[None, :, :]).sum(axis=2)
    K = kernel_matrix(small_X, kernel="laplacian", gamma=sigma_to_gamma(sigma, "laplacian"))
    assert_allclose(K, np.exp(-d / sigma), atol=ATOL_EXACT)
