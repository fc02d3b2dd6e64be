"""Bound curves of sparse KPCA: invariants from Corollary 1 and Theorem 6.14.

Every expected value is computed independently of mpcore.curves: residuals
from the Nystroem formula with a dense solve, eigenvalues from
``numpy.linalg.eigvalsh`` of the whole kernel matrix, bounds from
``mpcore.bounds`` on those.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from conftest import ATOL_EXACT, RTOL_EXACT
from mpcore.bounds import compression_bound, kpca_bound
from mpcore.curves import (
    BoundCurves,
    bound_curves,
    compression_terms,
    kpca_terms,
    out_residual_means,
)
from mpcore.kernels import kernel_matrix
from mpcore.skpca import SparseKPCA

GAMMA = 0.3
K_MAX = 12
NORMALISED = ("rbf", "laplacian", "cosine")  # kappa(x, x) = 1 for every x != 0


@pytest.fixture
def split(rng):
    X = rng.normal(size=(70, 3))
    return X[:55], X[55:]


@pytest.fixture
def curves(split):
    X_tr, X_te = split
    return bound_curves(X_tr, X_te, gamma=GAMMA, k_max=K_MAX)


def nystroem_residuals(X, X_basis, **params):
    """kappa(x,x) - K[x,i] K[i,i]^-1 K[i,x] with a dense solve (Eq. 5)."""
    Kxi = kernel_matrix(X, X_basis, **params)
    Kii = kernel_matrix(X_basis, **params)
    diag = np.diag(kernel_matrix(X, **params))
    return diag - np.einsum("ij,ji->i", Kxi, np.linalg.solve(Kii, Kxi.T))


# ---------------------------------------------------------------- residual curves


def test_out_of_sample_means_exclude_the_compression_set(split, curves):
    X_tr, _ = split
    m = len(X_tr)
    for t in range(1, curves.n_steps + 1):
        chosen = curves.indices[:t]
        outside = np.setdiff1d(np.arange(m), chosen)
        direct = nystroem_residuals(X_tr[outside], X_tr[chosen], gamma=GAMMA)
        assert_allclose(curves.out_residual[t - 1], direct.mean(), atol=ATOL_EXACT)


def test_chosen_points_have_zero_residual_so_means_rescale(split, curves):
    m = curves.m
    t = curves.k
    # sum over the m - t outside points == sum over all m points
    assert_allclose(curves.out_residual * (m - t), curves.train_residual * m, atol=ATOL_EXACT)


def test_train_residual_is_the_deflated_trace_over_m(split, curves):
    X_tr, _ = split
    model = SparseKPCA(K_MAX, gamma=GAMMA).fit(X_tr)
    assert_array_equal(curves.indices, model.indices_)
    assert_allclose(curves.train_residual * curves.m, model.trace_residuals_[1:], atol=ATOL_EXACT)


def test_test_residual_is_the_mean_residual_curve_of_the_test_points(split, curves):
    X_tr, X_te = split
    model = SparseKPCA(K_MAX, gamma=GAMMA).fit(X_tr)
    assert_allclose(curves.test_residual, model.residual_curve(X_te).mean(axis=0),
                    atol=ATOL_EXACT)
    direct = nystroem_residuals(X_te, X_tr[curves.indices[:5]], gamma=GAMMA).mean()
    assert_allclose(curves.test_residual[4], direct, atol=ATOL_EXACT)
    assert curves.n_test == len(X_te)


def test_out_residual_means_by_hand():
    r = np.array([[0.0, 0.0], [0.5, 0.0], [0.9, 0.4], [0.3, 0.2]])
    # chosen 0 then 1: t=1 averages rows 1..3, t=2 rows 2..3
    assert_allclose(out_residual_means(r, [0, 1]), [(0.5 + 0.9 + 0.3) / 3, (0.4 + 0.2) / 2],
                    rtol=RTOL_EXACT)


@pytest.mark.parametrize("bad", [np.array([0, 0]), np.array([0, 9]), np.array([0])])
def test_out_residual_means_rejects_bad_indices(bad):
    with pytest.raises(ValueError, match="indices"):
        out_residual_means(np.zeros((4, 2)), bad)


# ---------------------------------------------------------------- the bounds


def test_bounds_are_non_increasing_running_minima(curves):
    for bound, terms in ((curves.compression, curves.compression_terms),
                         (curves.kpca, curves.kpca_terms)):
        assert np.all(np.diff(bound) <= 0)
        assert_allclose(bound, np.minimum.accumulate(terms), rtol=RTOL_EXACT)
        assert np.all(bound <= terms + ATOL_EXACT)


def test_compression_bound_matches_corollary_1(curves):
    assert curves.trivial == pytest.approx(1.0)  # Gaussian kernel: R = 1
    expected = compression_bound(curves.out_residual, curves.m, delta=curves.delta, R=1.0)
    assert_allclose(curves.compression, expected, rtol=RTOL_EXACT)


def test_compression_bound_is_at_least_the_out_of_sample_residual(curves):
    assert np.all(curves.compression_terms > curves.out_residual)
    assert np.all(curves.compression >= np.minimum.accumulate(curves.out_residual))


@pytest.mark.parametrize("kernel", ["rbf", "polynomial", "linear"])
def test_kpca_bound_from_top_eigenvalues_equals_all_eigenvalues(split, kernel):
    """Only the k_max largest eigenvalues are computed; the bound is unchanged."""
    X_tr, X_te = split
    params = dict(kernel=kernel, gamma=GAMMA)
    c = bound_curves(X_tr, X_te, k_max=K_MAX, **params)
    K = kernel_matrix(X_tr, **params)
    diag = np.diag(K)
    R = diag.max()
    full = kpca_bound(np.linalg.eigvalsh(K), len(X_tr), kappa_sq_sum=np.sum(diag**2),
                      delta=c.delta, R=np.sqrt(R))
    assert_allclose(c.kpca, full[: c.n_steps], rtol=RTOL_EXACT, atol=ATOL_EXACT)
    assert c.trivial == pytest.approx(R, rel=RTOL_EXACT)
    assert c.kappa_sq_sum == pytest.approx(np.sum(diag**2), rel=RTOL_EXACT)


def test_kpca_bound_over_every_k_equals_kpca_bound(rng):
    X = rng.normal(size=(25, 2))
    c = bound_curves(X, None, gamma=GAMMA, k_max=24)
    assert c.test_residual is None and c.n_test == 0
    K = kernel_matrix(X, gamma=GAMMA)
    assert_allclose(c.kpca, kpca_bound(np.linalg.eigvalsh(K), 25, delta=c.delta)[: c.n_steps],
                    rtol=RTOL_EXACT, atol=ATOL_EXACT)


def test_kpca_terms_by_hand():
    lam, trace, m = np.array([4.0, 2.0]), 7.0, 5
    const = 3 * 4.0 * np.sqrt(np.log(2 * m / 0.1) / (2 * m))
    expected = [(7 - 4) / m + 8 / m * np.sqrt(2 * 3.0) + const,
                (7 - 6) / m + 8 / m * np.sqrt(3 * 3.0) + const]
    assert_allclose(kpca_terms(lam, trace, m, kappa_sq_sum=3.0, delta=0.1, R=2.0), expected,
                    rtol=RTOL_EXACT)


def test_compression_terms_running_minimum_is_compression_bound():
    r = np.array([0.8, 0.5, 0.49, 0.6, 0.2])
    assert_allclose(np.minimum.accumulate(compression_terms(r, 40, delta=0.1, R=1.5)),
                    compression_bound(r, 40, delta=0.1, R=1.5), rtol=RTOL_EXACT)


def test_k_star_is_the_argmin_of_the_terms(curves):
    for k_star, value, terms in (
        (curves.k_star_compression, curves.min_compression, curves.compression_terms),
        (curves.k_star_kpca, curves.min_kpca, curves.kpca_terms),
    ):
        assert k_star == int(np.argmin(terms)) + 1
        assert value == pytest.approx(terms.min(), rel=RTOL_EXACT)


def test_smaller_delta_gives_larger_bounds(split):
    X_tr, X_te = split
    loose = bound_curves(X_tr, X_te, gamma=GAMMA, k_max=K_MAX, delta=0.2)
    tight = bound_curves(X_tr, X_te, gamma=GAMMA, k_max=K_MAX, delta=0.001)
    assert np.all(tight.compression_terms > loose.compression_terms)
    assert np.all(tight.kpca_terms > loose.kpca_terms)
    assert_allclose(tight.test_residual, loose.test_residual, atol=ATOL_EXACT)


@pytest.mark.parametrize("kernel", NORMALISED)
def test_normalised_kernels_have_trivial_level_one(split, kernel):
    X_tr, X_te = split
    c = bound_curves(X_tr, X_te, kernel=kernel, gamma=GAMMA, k_max=K_MAX)
    assert c.trivial == pytest.approx(1.0, rel=RTOL_EXACT)
    for curve in (c.train_residual, c.out_residual, c.test_residual):
        assert np.all((curve >= 0) & (curve <= 1 + ATOL_EXACT))


def test_residuals_never_exceed_the_trivial_level_on_training_points(split):
    X_tr, X_te = split
    c = bound_curves(X_tr, X_te, kernel="polynomial", gamma=GAMMA, degree=2, k_max=K_MAX)
    assert c.trivial == pytest.approx(np.max((GAMMA * np.sum(X_tr**2, 1) + 1.0) ** 2))
    assert np.all(c.out_residual <= c.trivial)


def test_early_stop_on_a_rank_deficient_kernel(rng):
    """Three distinct points repeated: K has rank 3, so only 3 basis vectors exist."""
    X = np.repeat(rng.normal(size=(3, 2)), 8, axis=0)
    c = bound_curves(X, X[:5], gamma=GAMMA, k_max=10)
    assert c.n_steps == 3 and c.stopped_early and c.k_max == 10
    assert_allclose(c.train_residual[-1], 0.0, atol=ATOL_EXACT)
    for col in c.columns().values():
        assert len(col) == 3 and np.all(np.isfinite(col))


def test_columns_table(curves):
    cols = curves.columns()
    assert list(cols)[:4] == ["k", "train_residual", "out_of_compression_set_residual",
                              "test_residual"]
    assert {len(v) for v in cols.values()} == {curves.n_steps}
    assert_array_equal(cols["k"], np.arange(1, K_MAX + 1))
    assert isinstance(curves, BoundCurves)


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("kwargs, match", [
    (dict(k_max=55), "k_max must be smaller"),
    (dict(k_max=0), "k_max"),
    (dict(delta=1.0), "delta"),
    (dict(delta=0.0), "delta"),
    (dict(kernel="sigmoid"), "not positive semi-definite"),
    (dict(kernel="nope"), "Unknown kernel"),
])
def test_bad_arguments_raise_actionable_errors(split, kwargs, match):
    X_tr, X_te = split
    with pytest.raises(ValueError, match=match):
        bound_curves(X_tr, X_te, **{"k_max": 5, **kwargs})


def test_bad_arrays_raise(split):
    X_tr, X_te = split
    with pytest.raises(ValueError, match="columns"):
        bound_curves(X_tr, X_te[:, :2], k_max=5)
    bad = X_tr.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        bound_curves(bad, X_te, k_max=5)
    with pytest.raises(ValueError, match="at least 2 rows"):
        bound_curves(X_tr[:1], X_te, k_max=1)
    with pytest.raises(TypeError, match="k_max"):
        bound_curves(X_tr, X_te, k_max=2.5)


# ---------------------------------------------------------------- properties


@settings(max_examples=25, deadline=None)
@given(m=st.integers(4, 30), d=st.integers(1, 4), seed=st.integers(0, 10**6),
       log_gamma=st.floats(-3, 2), delta=st.floats(0.001, 0.5),
       kernel=st.sampled_from(["rbf", "laplacian", "polynomial", "linear", "cosine"]))
def test_every_output_is_finite_and_the_bounds_are_minima(m, d, seed, log_gamma, delta, kernel):
    gen = np.random.default_rng(seed)
    X = gen.normal(size=(m + 3, d))
    k_max = int(gen.integers(1, m))
    c = bound_curves(X[:m], X[m:], kernel=kernel, gamma=10.0**log_gamma, degree=2,
                     k_max=k_max, delta=delta)
    assert 1 <= c.n_steps <= k_max
    for name, col in c.columns().items():
        assert np.all(np.isfinite(col)), name
    assert np.all(np.diff(c.compression) <= 0) and np.all(np.diff(c.kpca) <= 0)
    assert np.all(c.train_residual >= 0) and np.all(c.test_residual >= 0)
    assert c.compression[c.k_star_compression - 1] == c.min_compression
    assert c.kpca[c.k_star_kpca - 1] == c.min_kpca
