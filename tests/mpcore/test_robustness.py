"""Targeted tests of the refusals and guarantees of issue 15 in mpcore.

1. PSD: decided from the kernel's parameters where theory does, else from the matrix;
   methods that need a PSD kernel refuse in words a student learns from; KMP does not.
2. Inputs: strings, complex, sparse and object arrays, None, 1e300, huge sizes and
   extreme widths are refused with the parameter named; a zero matrix gives zeros.
3. Mathematical domain: bounds refuse negative residuals and eigenvalues and stay finite
   for huge m; canonical correlations never exceed 1.
8. SparseKPCA with n_components > m warns.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse
from sklearn.datasets import make_moons
from sklearn.exceptions import ConvergenceWarning

import mpcore.spectrum as sp
from mpcore._validation import PSD_NEG_RATIO, matrix_psd
from mpcore.bounds import compression_bound, kmp_bound, kpca_bound
from mpcore.curves import bound_curves
from mpcore.kcca import SparseKCCA, canonical_correlations, kcca_steps
from mpcore.kernels import check_psd_kernel, kernel_matrix, psd_status, sigma_to_gamma
from mpcore.kmp import KMPClassifier, KMPRegressor, kmp_steps
from mpcore.skpca import SparseKPCA, greedy_steps, greedy_steps_from_data

INDEFINITE = dict(kernel="polynomial", degree=2, gamma=0.3, coef0=-1.0)


@pytest.fixture(scope="module")
def moons():
    X, y = make_moons(200, noise=0.1, random_state=0)
    return X, y


# ------------------------------------------------------------------------ 1. PSD


def _assert_teaches(msg):
    assert "coef0" in msg and "positive semi-definite" in msg
    assert "smallest eigenvalue" in msg and "times the largest" in msg
    assert "coef0 >= 0" in msg  # what to change


@pytest.mark.parametrize("n_candidates", [None, 59])
def test_sparse_kpca_refuses_negative_coef0_on_moons(moons, n_candidates):
    with pytest.raises(ValueError) as info:
        SparseKPCA(5, n_candidates=n_candidates, random_state=0, **INDEFINITE).fit(moons[0])
    _assert_teaches(str(info.value))
    assert "Sparse kernel PCA" in str(info.value)


def test_every_psd_method_refuses_the_indefinite_kernel(moons):
    X = moons[0]
    K = kernel_matrix(X, **INDEFINITE)
    assert np.linalg.eigvalsh(K).min() < -0.1 * np.linalg.eigvalsh(K).max()  # truly indefinite
    calls = [
        lambda: list(greedy_steps(K, 3)),
        lambda: list(greedy_steps_from_data(X, 3, n_candidates=None, **INDEFINITE)),
        lambda: bound_curves(X[:150], X[150:], k_max=5, **INDEFINITE),
        lambda: sp.nystrom_eigenvalues(K, [0, 1, 2], 3),
        lambda: sp.nystrom_eigenpairs(K, [0, 1, 2], 2),
        lambda: sp.nystrom_indices(K, 3),
        lambda: sp.incomplete_cholesky(K),
        lambda: list(kcca_steps(K, kernel_matrix(X, gamma=1.0), 3)),
        lambda: SparseKCCA(3, kernel_x="polynomial", degree_x=2, gamma_x=0.3,
                           coef0_x=-1.0).fit(X, X ** 2),
    ]
    for call in calls:
        with pytest.raises(ValueError, match="positive semi-definite") as info:
            call()
        assert "smallest eigenvalue" in str(info.value), str(info.value)


def test_indefinite_matrix_with_a_valid_diagonal_is_refused_before_any_step():
    """Unit diagonal and |K_ij| <= 1 (Cauchy-Schwarz holds), yet indefinite: the diagonal
    alone cannot tell; the matrix check does."""
    A = np.array([[1.0, 0.9, 0.9], [0.9, 1.0, -0.9], [0.9, -0.9, 1.0]])
    assert np.linalg.eigvalsh(A).min() < 0
    with pytest.raises(ValueError, match="smallest eigenvalue of its kernel matrix is -0.8"):
        greedy_steps(A, 1)  # refused on the call, not while iterating


def test_psd_status_by_parameters_and_by_matrix(moons):
    X = moons[0]
    for kernel in ("rbf", "laplacian", "linear", "cosine"):
        s = psd_status(kernel, gamma=0.5)
        assert s.psd is True and s.decided_by == "parameters"
    s = psd_status("polynomial", degree=3, gamma=0.5, coef0=0.0)
    assert s.psd is True and s.decided_by == "parameters"
    s = psd_status("sigmoid", gamma=0.5, coef0=0.0)
    assert s.psd is False and "Mercer" in s.message
    s = psd_status(**INDEFINITE)
    assert s.psd is None and s.decided_by == "data needed" and "coef0 must be >= 0" in s.message
    s = psd_status(**INDEFINITE, X=X)
    assert s.psd is False and s.decided_by == "matrix"
    lam = np.linalg.eigvalsh(kernel_matrix(X, **INDEFINITE))
    assert s.min_eigenvalue == pytest.approx(lam.min(), rel=1e-8)
    assert s.min_ratio == pytest.approx(lam.min() / lam.max(), rel=1e-8)
    # a polynomial kernel with coef0 < 0 whose matrix happens to be PSD on this data
    s = psd_status(**INDEFINITE, X=np.array([[1.0]]))
    assert s.psd is True and s.decided_by == "matrix"
    assert check_psd_kernel(**INDEFINITE, X=np.array([[1.0]])).psd is True


def test_psd_matrix_check_is_tolerant():
    X = np.random.default_rng(0).normal(size=(80, 3))
    K = kernel_matrix(X, kernel="linear")  # rank 3: 77 eigenvalues at rounding level
    first = matrix_psd(K)
    assert first[0] is True
    assert matrix_psd(K.copy()) == first  # a verdict on content, not on identity
    lam = np.linalg.eigvalsh(K)
    assert lam.min() > -PSD_NEG_RATIO * lam.max()  # rounding negatives are not refused


def test_kmp_accepts_non_psd_kernels(moons):
    X, y = moons
    for kw in (dict(kernel="sigmoid", gamma=0.5, coef0=-1.0), INDEFINITE):
        clf = KMPClassifier(10, **kw).fit(X, y)
        assert np.isfinite(clf.decision_function(X)).all()
        reg = KMPRegressor(5, **kw).fit(X, X[:, 0])
        assert np.isfinite(reg.predict(X)).all()


def test_sigmoid_message_teaches(moons):
    with pytest.raises(ValueError) as info:
        SparseKPCA(3, kernel="sigmoid").fit(moons[0])
    msg = str(info.value)
    assert "kernel='sigmoid'" in msg and "Mercer" in msg and "rbf" in msg


# ---------------------------------------------------------------------- 2. inputs


@pytest.mark.parametrize("bad, exc, match", [
    (np.array([["1", "2"], ["3", "4"]]), TypeError, "X holds strings"),
    (np.array([[1 + 1j, 0], [0, 1]]), ValueError, "Complex data not supported: X"),
    (scipy.sparse.csr_matrix(np.eye(3)), TypeError, "X is a scipy sparse matrix"),
    (np.array([[1, None], [2, 3]], dtype=object), TypeError, "X must be an array of numbers"),
    (None, TypeError, "X must be an array of numbers, got None"),
    ([[1.0, 2.0], [3.0]], ValueError, "X could not be read"),
    (np.full((3, 2), 1e300), ValueError, "X has values as large as 1e\\+300"),
])
def test_odd_data_is_refused_naming_x(bad, exc, match):
    with pytest.raises(exc, match=match):
        kernel_matrix(bad)
    with pytest.raises((TypeError, ValueError), match="X"):
        SparseKPCA(2).fit(bad)
    with pytest.raises((TypeError, ValueError), match="X"):
        KMPRegressor(2).fit(bad, np.arange(3.0))


def test_complex_hermitian_matrix_is_refused():
    H = np.array([[2.0, 1j], [-1j, 2.0]])
    for call in (lambda: sp.exact_eigenvalues(H, 1), lambda: list(greedy_steps(H, 1)),
                 lambda: sp.ekm_eigenvalues(H, 1, 1)):
        with pytest.raises(ValueError, match="Complex data not supported: K"):
            call()


@pytest.mark.parametrize("kwargs, name", [
    (dict(coef0=None), "coef0"), (dict(gamma="0.5"), "gamma"), (dict(degree=2.5), "degree"),
    (dict(gamma=float("nan")), "gamma"), (dict(coef0=1e300), "coef0"), (dict(degree=10**6), "degree"),
])
def test_odd_kernel_parameters_are_named(kwargs, name):
    with pytest.raises((TypeError, ValueError), match=name):
        kernel_matrix(np.eye(3), kernel="polynomial", **kwargs)


def test_huge_targets_are_refused_instead_of_an_all_zero_model():
    X = np.linspace(0, 1, 20)[:, None]
    with pytest.raises(ValueError, match="y has values as large as"):
        KMPRegressor(3).fit(X, np.full(20, 1e300))


@pytest.mark.parametrize("sigma", [1e-200, 1e200, 0.0, -1.0, float("inf")])
def test_extreme_sigma_is_refused(sigma):
    with pytest.raises(ValueError, match="sigma"):
        sigma_to_gamma(sigma)
    with pytest.raises(ValueError, match="sigma"):
        sigma_to_gamma(sigma, "kmp")


def test_sizes_that_would_exhaust_memory_are_refused():
    D = np.eye(4)
    with pytest.raises(ValueError, match="n_steps must be <="):
        list(kmp_steps(D, np.ones(4), 10**12, fitting="basic"))
    with pytest.raises(ValueError, match="m must be <="):
        sp.random_indices(10**12, 3)
    with pytest.raises(ValueError, match="entries"):
        kernel_matrix(np.zeros((30_000, 1)))


def test_zero_kernel_gives_zero_eigenvalues():
    Z = np.zeros((600, 600))
    np.testing.assert_array_equal(sp.exact_eigenvalues(Z, 5, method="eigsh"), 0.0)
    w, V = sp.exact_eigenpairs(Z, 3, method="eigsh")
    np.testing.assert_array_equal(w, 0.0)
    assert np.isfinite(V).all()


def test_random_state_is_named():
    with pytest.raises(TypeError, match="random_state"):
        SparseKPCA(2, n_candidates=3, random_state="seed").fit(np.eye(4))
    with pytest.raises(ValueError, match="random_state"):
        sp.random_indices(10, 3, random_state=-1)


# ----------------------------------------------------------------------- 3. domain


def test_negative_residuals_and_eigenvalues_are_refused():
    with pytest.raises(ValueError, match="out_residual_means must be >= 0"):
        compression_bound([0.2, -0.1], 10)
    with pytest.raises(ValueError, match="eigenvalues must be >= 0"):
        kpca_bound([3.0, 1.0, -2.0], 10)
    # rounding-level negatives are clipped, not refused
    np.testing.assert_allclose(kpca_bound([3.0, 1.0, -1e-15], 10), kpca_bound([3.0, 1.0, 0.0], 10))


@pytest.mark.parametrize("m", [10**15, 10**300, 10**400])
def test_bounds_stay_finite_for_huge_m(m):
    assert np.isfinite(kmp_bound(m, 10, 5)) and kmp_bound(m, 10, 5) >= 0
    B = compression_bound([0.1, 0.05], m)
    assert np.isfinite(B).all() and np.all(B >= 0.05)
    assert np.isfinite(kpca_bound([3.0, 2.0, 1.0], m)).all()


def test_huge_m_agrees_with_the_direct_formula_where_both_work():
    m = 2**53 - 1  # the float formula still works here; one more and the log form takes over
    np.testing.assert_allclose(kmp_bound(m + 2, 10, 5), kmp_bound(m, 10, 5), rtol=1e-9)
    np.testing.assert_allclose(compression_bound([0.1], m + 2), compression_bound([0.1], m),
                               rtol=1e-9)


def test_tiny_delta_does_not_overflow():
    assert np.isfinite(kmp_bound(1000, 5, 3, delta=1e-300))
    assert np.isfinite(compression_bound([0.1], 10**10, delta=1e-300)).all()


def test_canonical_correlations_never_exceed_one():
    rng = np.random.default_rng(0)
    Fx = rng.normal(size=(20, 3))
    Fy = Fx @ rng.normal(size=(3, 3)) + 1e-9 * rng.normal(size=(20, 3))  # almost perfectly related
    rho, *_ = canonical_correlations(Fx, Fy, reg=0.0)
    assert np.all(rho <= 1.0) and rho[0] == pytest.approx(1.0, abs=1e-6)
    # a constant coordinate makes the reg = 0 covariance singular: refused, not > 1
    Fx_const = np.column_stack([Fx, np.ones(20)])
    with pytest.raises(ValueError, match="reg > 0"):
        canonical_correlations(Fx_const, Fy, reg=0.0)
    rho, *_ = canonical_correlations(Fx_const, Fy, reg=1e-3)
    assert np.all((0 <= rho) & (rho <= 1))


def test_regularised_quotients_above_one_are_clipped_and_kept():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 2))
    model = SparseKCCA(30, gamma_x=20.0, gamma_y=20.0, reg=0.05).fit(X, X[:, ::-1] ** 3)
    assert np.all(model.correlations_ <= 1.0)
    assert model.regularised_quotients_.max() > 1.0  # the book's quotient, by up to 1/(1 - tau)
    assert model.regularised_quotients_.max() <= 1 / (1 - 0.05) + 1e-9


# ------------------------------------------------------------------------------ 8.


def test_sparse_kpca_warns_when_it_chooses_fewer_components():
    X = np.random.default_rng(0).normal(size=(6, 2))
    with pytest.warns(ConvergenceWarning, match="n_components = 9.*only m = 6 points"):
        model = SparseKPCA(9, gamma=0.5).fit(X)
    assert model.n_components_ == 6
    with pytest.warns(ConvergenceWarning, match="numerical rank 2"):
        SparseKPCA(5, kernel="linear").fit(np.repeat(np.eye(2), 4, axis=0))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        SparseKPCA(4, gamma=0.5).fit(X)  # no warning when every component is found
        bound_curves(np.repeat(np.eye(2), 4, axis=0), k_max=5, kernel="linear")  # reported, not warned


def test_scores_keep_a_class_seen_only_in_the_test_split():
    from views.reference import scores

    s = scores("classification", np.array([0, 1, 2, 2]), np.array([0, 1, 1, 0]),
               classes=np.array([0, 1]))
    assert s["confusion"].shape == (3, 3) and s["confusion"].sum() == 4
