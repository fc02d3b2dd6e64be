"""Approximate vs exact eigenvalues: identities and inequalities from the sources.

Exact references are numpy.linalg.eigvalsh / eigh on small matrices. Nystroem
facts (Hussain & Shawe-Taylor Eq. 5): with all indices it is exact, and
K - K~ is a PSD Schur complement, so its eigenvalues never exceed K's.
Marukatat's EKM method: unsketched it is exact; the Eq. (3) perturbation bound
holds for every sketch (Weyl's inequality).
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy.sparse.linalg import ArpackNoConvergence

from conftest import ATOL_EXACT, RTOL_EXACT
from mpcore import spectrum as sp
from mpcore import validated_kernel
from mpcore.kernels import kernel_matrix
from mpcore.skpca import SparseKPCA, greedy_steps

# Averaging over this many seeds makes "the error shrinks as q grows" a
# statement about the expected error, not about one draw.
N_SEEDS = 20


@pytest.fixture
def X(small_X):
    return small_X


@pytest.fixture
def K(X):
    return kernel_matrix(X, kernel="rbf", gamma=0.3)


@pytest.fixture(scope="module")
def K_mid():
    """200 points in 3-D, rbf: a spectrum with a clear gap after the 4th eigenvalue."""
    X = np.random.default_rng(1).normal(size=(200, 3))
    return kernel_matrix(X, kernel="rbf", gamma=0.5)


@pytest.fixture
def K_lowrank(X):
    """A rank-3 linear kernel on 60 points: m - 3 exactly zero eigenvalues."""
    return kernel_matrix(X, kernel="linear")


def eig_desc(K):
    return np.sort(np.linalg.eigvalsh(K))[::-1]


# --------------------------------------------------------------------------- exact


@pytest.mark.parametrize("method", ["eigh", "eigsh", "auto"])
def test_exact_eigenvalues_match_numpy(K, method):
    assert_allclose(sp.exact_eigenvalues(K, 8, method=method), eig_desc(K)[:8],
                    rtol=RTOL_EXACT, atol=ATOL_EXACT)


def test_exact_eigenpairs_are_eigenpairs(K):
    for method in ("eigh", "eigsh"):
        w, V = sp.exact_eigenpairs(K, 5, method=method)
        assert_allclose(K @ V, V * w, atol=ATOL_EXACT * w[0])
        assert_allclose(V.T @ V, np.eye(5), atol=ATOL_EXACT)
        idx = np.argmax(np.abs(V), axis=0)
        assert np.all(V[idx, np.arange(5)] > 0)  # deterministic sign


@given(m=st.integers(1, 40), n_frac=st.floats(0.0, 1.0), seed=st.integers(0, 2**31 - 1),
       gamma=st.floats(0.01, 5.0), shift=st.sampled_from([0.0, -0.5]))
@settings(max_examples=40, deadline=None)
def test_one_tridiagonal_reduction_gives_what_two_dense_solves_give(m, n_frac, seed, gamma,
                                                                   shift):
    """tridiagonal_form(K): every eigenvalue and the top n eigenpairs from one reduction are
    eigh's, to rounding: the same values, true eigenpairs (K u = lambda u, orthonormal, the
    sign convention), and on every leading block set apart by a gap the same subspace as
    exact_eigenpairs' (an eigenvector inside a cluster is any basis of it). ``shift`` makes
    K indefinite: the reduction asks for symmetry only."""
    X = np.random.default_rng(seed).normal(size=(m, 3))
    K = kernel_matrix(X, kernel="rbf", gamma=gamma) + shift * np.eye(m)
    n = max(1, round(n_frac * m))
    reduced = sp.tridiagonal_form(K)
    scale = max(float(np.max(np.abs(eig_desc(K)))), 1.0)
    assert_allclose(reduced.eigenvalues(), sp.exact_eigenvalues(K, m, method="eigh"),
                    rtol=0, atol=ATOL_EXACT * scale)
    w, U = reduced.eigenpairs(n)
    w_ref, U_ref = sp.exact_eigenpairs(K, n, method="eigh")
    assert w.shape == (n,) and U.shape == (m, n)
    assert_allclose(w, w_ref, rtol=0, atol=ATOL_EXACT * scale)
    assert_allclose(K @ U, U * w, rtol=0, atol=ATOL_EXACT * scale)
    assert_allclose(U.T @ U, np.eye(n), rtol=0, atol=ATOL_EXACT)
    rows = np.argmax(np.abs(U), axis=0)
    assert np.all(U[rows, np.arange(n)] > 0)
    lam = eig_desc(K)
    for j in range(1, n + 1):
        gap = lam[j - 1] - lam[j] if j < m else np.inf
        if gap > 1e-6 * scale:  # the top j set apart from the rest
            angle = sp.subspace_distance(U[:, :j], U_ref[:, :j])
            assert angle < 1e-6, (j, angle)


def test_tridiagonal_form_refuses_what_the_solvers_refuse(K):
    m = K.shape[0]
    reduced = sp.tridiagonal_form(K)
    for n, error in ((0, ValueError), (m + 1, ValueError), (2.5, TypeError), ("3", TypeError)):
        for solve in (reduced.eigenpairs, lambda n: sp.exact_eigenpairs(K, n, method="eigh")):
            with pytest.raises(error, match="n must"):
                solve(n)
    for bad in (K[:, :-1], np.full((3, 3), np.nan), np.triu(K) + 1.0):
        with pytest.raises(ValueError):
            sp.tridiagonal_form(bad)
    w, U = sp.tridiagonal_form(np.zeros((4, 4))).eigenpairs(2)  # as exact_eigenpairs answers
    assert_array_equal(w, 0.0)
    assert_array_equal(U, np.eye(4, 2))


def test_eigsh_needs_n_below_m(K):
    with pytest.raises(ValueError, match="eigsh"):
        sp.exact_eigenvalues(K, K.shape[0], method="eigsh")


# --------------------------------------------------------------------------- incomplete Cholesky


def test_incomplete_cholesky_full_rank_reconstructs_K(K):
    R, piv = sp.incomplete_cholesky(K, eta=1e-14)
    assert_allclose(R.T @ R, K, atol=ATOL_EXACT)
    assert len(set(piv.tolist())) == len(piv)


def test_incomplete_cholesky_pivots_are_largest_residual_diagonals(K):
    """Code Fragment 5.4: each pivot is the argmax of the deflated diagonal."""
    R, piv = sp.incomplete_cholesky(K, rank=25)
    K_hat = K.copy()
    for p in piv:
        d = np.diag(K_hat)
        assert d[p] >= d.max() - ATOL_EXACT
        K_hat = K_hat - np.outer(K_hat[:, p], K_hat[p, :]) / K_hat[p, p]
    # R'R is the Nystroem approximation on the pivots, K - R'R the deflated K
    assert_allclose(K - R.T @ R, K_hat, atol=ATOL_EXACT)


def test_incomplete_cholesky_stops_at_rank_of_low_rank_K(K_lowrank):
    R, piv = sp.incomplete_cholesky(K_lowrank)
    assert R.shape == (3, K_lowrank.shape[0])
    assert_allclose(R.T @ R, K_lowrank, atol=ATOL_EXACT * np.max(K_lowrank))
    assert np.all(np.isfinite(R))


@given(eta=st.floats(1e-8, 0.5), rank=st.integers(1, 30))
@settings(max_examples=25, deadline=None)
def test_incomplete_cholesky_residual_below_eta_when_not_rank_limited(eta, rank):
    X = np.random.default_rng(3).normal(size=(30, 2))
    K = kernel_matrix(X, gamma=2.0)
    R, piv = sp.incomplete_cholesky(K, rank=rank, eta=eta)
    resid = np.diag(K - R.T @ R)
    assert R.shape[0] <= rank
    if R.shape[0] < rank:  # stopped by eta: every residual is at or below it
        assert resid.max() <= eta * np.max(np.diag(K)) + ATOL_EXACT
    # PSD residual: off-diagonal entries bounded by the diagonal (Cauchy-Schwarz)
    assert np.max(np.abs(K - R.T @ R)) <= resid.max() + ATOL_EXACT


# --------------------------------------------------------------------------- Nystroem


def test_nystrom_with_all_indices_is_exact(K):
    m = K.shape[0]
    assert_allclose(sp.nystrom_eigenvalues(K, np.arange(m), 10), eig_desc(K)[:10],
                    rtol=RTOL_EXACT, atol=ATOL_EXACT)
    # order and duplicates do not change the span
    perm = np.random.default_rng(0).permutation(m)
    assert_allclose(sp.nystrom_eigenvalues(K, np.concatenate([perm, perm[:5]]), 10),
                    eig_desc(K)[:10], rtol=RTOL_EXACT, atol=ATOL_EXACT)


def test_nystrom_matches_direct_formula(K):
    idx = np.array([3, 17, 8, 40, 22, 51])
    Ki = K[:, idx]
    K_tilde = Ki @ np.linalg.solve(K[np.ix_(idx, idx)], Ki.T)  # Eq. (5)
    assert_allclose(sp.nystrom_eigenvalues(K, idx, 9), eig_desc(K_tilde)[:9], atol=ATOL_EXACT)
    w, U = sp.nystrom_eigenpairs(K, idx, 6)
    assert_allclose(K_tilde @ U, U * w, atol=ATOL_EXACT)
    assert_allclose(U.T @ U, np.eye(6), atol=ATOL_EXACT)


def test_nystrom_eigenvalues_beyond_subset_are_zero(K):
    w = sp.nystrom_eigenvalues(K, [0, 1, 2], 6)
    assert_array_equal(w[3:], 0.0)
    assert np.all(w[:3] > 0)


@pytest.mark.parametrize("rule", sp.SUBSET_RULES)
@given(k=st.integers(1, 40), seed=st.integers(0, 1000))
@settings(max_examples=15, deadline=None)
def test_nystrom_never_exceeds_exact_and_grows_with_the_subset(rule, k, seed):
    """K - K~ is a PSD Schur complement, so lambda_i(K~) <= lambda_i(K);
    nested subsets give nested projections, so the eigenvalues grow with k."""
    X = np.random.default_rng(seed).normal(size=(60, 3))
    K = kernel_matrix(X, gamma=0.3)
    exact = eig_desc(K)[:10]
    idx = sp.nystrom_indices(K, k, rule=rule, random_state=seed)
    small = sp.nystrom_eigenvalues(K, idx[: max(1, len(idx) // 2)], 10)
    full = sp.nystrom_eigenvalues(K, idx, 10)
    slack = ATOL_EXACT * exact[0]
    assert np.all(full <= exact + slack)
    assert np.all(small <= full + slack)


@pytest.mark.parametrize("rule", sp.SUBSET_RULES)
@given(k=st.integers(1, 40), n=st.integers(1, 12), seed=st.integers(0, 1000),
       gamma=st.sampled_from([0.05, 0.3, 3.0]), repeat=st.booleans())
@settings(max_examples=15, deadline=None)
def test_nested_nystrom_equals_nystrom_on_each_prefix(rule, k, n, seed, gamma, repeat):
    """One Gram-Schmidt pass in the given order gives, on every prefix, the eigenvalues of
    the Nystroem approximation on that prefix (Eq. 5), with points already spanned (here
    repeated ones) dropped as nystrom_eigenvalues drops them."""
    rng = np.random.default_rng(seed)
    K = kernel_matrix(rng.normal(size=(60, 3)), gamma=gamma)
    idx = sp.nystrom_indices(K, k, rule=rule, random_state=seed)
    if repeat:  # every point chosen twice in a row: the span never changes at the second
        idx = np.repeat(idx, 2)
    sizes = np.unique(rng.integers(1, idx.size + 1, size=5))
    nested = sp.nystrom_nested_eigenvalues(K, idx, sizes, n)
    assert nested.shape == (sizes.size, n)
    for row, s in zip(nested, sizes):
        assert_allclose(row, sp.nystrom_eigenvalues(K, idx[:s], n), rtol=RTOL_EXACT,
                        atol=ATOL_EXACT * eig_desc(K)[0], err_msg=f"prefix {s}")


@pytest.mark.parametrize("rule", ["cholesky", "rpcholesky"])
@given(k=st.integers(1, 40), n=st.integers(1, 12), seed=st.integers(0, 1000),
       gamma=st.sampled_from([0.05, 0.3, 3.0]))
@settings(max_examples=15, deadline=None)
def test_nystrom_from_a_cholesky_factor_equals_nystrom_on_each_prefix(rule, k, n, seed, gamma):
    """The rows of a pivoted partial Cholesky factor give, on every prefix of its pivots,
    the eigenvalues of the Nystroem approximation on those columns (Eq. 5), with no second
    pass over the points: what the error curves take for the two Cholesky rules."""
    from mpcore.nystrom import nystrom_factor_eigenvalues
    from mpcore.rpcholesky import rpcholesky

    rng = np.random.default_rng(seed)
    K = kernel_matrix(rng.normal(size=(60, 3)), gamma=gamma)
    R, piv = (sp.incomplete_cholesky(K, rank=k) if rule == "cholesky" else
              (lambda f: (f.factor.T, f.pivots))(rpcholesky(K, k, random_state=seed)))
    assert_array_equal(piv, sp.nystrom_indices(K, k, rule=rule, random_state=seed))
    sizes = np.unique(rng.integers(1, piv.size + 1, size=5))
    out = nystrom_factor_eigenvalues(R, sizes, n)
    assert out.shape == (sizes.size, n)
    for row, s in zip(out, sizes):
        assert_allclose(row, sp.nystrom_eigenvalues(K, piv[:s], n), rtol=RTOL_EXACT,
                        atol=ATOL_EXACT * eig_desc(K)[0], err_msg=f"prefix {s}")


def test_nystrom_from_a_factor_refuses_bad_arguments():
    from mpcore.nystrom import nystrom_factor_eigenvalues

    R = np.eye(3, 5)
    for bad in (np.zeros((0, 5)), np.ones(5), np.full((2, 5), np.nan)):
        with pytest.raises(ValueError, match="factor"):
            nystrom_factor_eigenvalues(bad, [1], 1)
    with pytest.raises(ValueError, match="sizes"):
        nystrom_factor_eigenvalues(R, [4], 1)
    with pytest.raises(ValueError, match="n"):
        nystrom_factor_eigenvalues(R, [1], 6)
    assert_allclose(nystrom_factor_eigenvalues(R, [1, 3], 5), [[1, 0, 0, 0, 0], [1, 1, 1, 0, 0]])


def test_nested_nystrom_of_spanned_points_only_is_zero():
    """A prefix whose points all have zero feature vectors approximates K by 0."""
    K = np.diag([0.0, 0.0, 1.0, 2.0])
    out = sp.nystrom_nested_eigenvalues(K, [0, 1, 3], [1, 2, 3], 2)
    assert_array_equal(out[:2], 0.0)
    assert_allclose(out[2], [2.0, 0.0])


def test_nystrom_on_cholesky_pivots_equals_R_Rt(K):
    R, piv = sp.incomplete_cholesky(K, rank=12)
    assert_allclose(sp.nystrom_eigenvalues(K, piv, 12), eig_desc(R @ R.T), atol=ATOL_EXACT)


def test_nystrom_on_sparse_kpca_indices_equals_transform_spectrum(X, K):
    """The sparse-KPCA features F of Eq. (4)/(5) satisfy FF' = K~, so eig(F'F) = eig(K~)."""
    model = SparseKPCA(n_components=10, kernel="rbf", gamma=0.3).fit(X)
    F = model.transform(X)
    assert_allclose(sp.nystrom_eigenvalues(K, model.indices_, 10), eig_desc(F.T @ F),
                    atol=ATOL_EXACT)


def test_subset_rules(K):
    assert_array_equal(sp.nystrom_indices(K, 7, rule="skpca"),
                       [s.index for s in greedy_steps(K, 7)])
    assert_array_equal(sp.nystrom_indices(K, 7, rule="cholesky"), sp.incomplete_cholesky(K, rank=7)[1])
    r1 = sp.nystrom_indices(K, 7, rule="random", random_state=4)
    assert_array_equal(r1, sp.random_indices(K.shape[0], 7, random_state=4))


def test_random_indices_are_distinct_seeded_and_in_range():
    a = sp.random_indices(50, 20, random_state=1)
    assert len(np.unique(a)) == 20 and a.min() >= 0 and a.max() < 50
    assert_array_equal(a, sp.random_indices(50, 20, random_state=1))
    assert not np.array_equal(a, sp.random_indices(50, 20, random_state=2))




@settings(max_examples=60, deadline=None)
@given(m=st.integers(1, 400), data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_subsets_of_one_seed_are_the_sorted_prefixes_of_random_order(m, data, seed):
    """The random rule's subsets are nested: for every j <= k the subset drawn at j is the
    first j of random_order, sorted, and still what RandomState.choice draws (the subsets
    of earlier releases), so the error curve takes every k of its grid from one pass."""
    k = data.draw(st.integers(1, m), label="k")
    order = sp.random_order(m, k, random_state=seed)
    assert order.size == k and np.unique(order).size == k and 0 <= order.min() <= order.max() < m
    for j in sorted({1, k, data.draw(st.integers(1, k), label="j")}):
        drawn = sp.random_indices(m, j, random_state=seed)
        assert_array_equal(drawn, np.sort(order[:j]))
        legacy = np.random.RandomState(seed).choice(m, size=j, replace=False)
        assert_array_equal(drawn, np.sort(legacy))


def test_the_random_curve_from_one_pass_is_each_subsets_own_nystrom(K):
    """nystrom_nested_eigenvalues over random_order gives, at each size, the eigenvalues
    nystrom_eigenvalues gives on random_indices of that size (the page's timed row)."""
    m = K.shape[0]
    sizes = [1, 3, 8, 20, m]
    order = sp.random_order(m, m, random_state=7)
    nested = sp.nystrom_nested_eigenvalues(K, order, sizes, 6)
    for row, s in zip(nested, sizes):
        own = sp.nystrom_eigenvalues(K, sp.random_indices(m, s, random_state=7), 6)
        assert_allclose(row, own, rtol=RTOL_EXACT, atol=ATOL_EXACT * max(1.0, own[0]))
# --------------------------------------------------------------------------- EKM (Marukatat)


def test_ekm_without_sketch_equals_exact(K):
    m = K.shape[0]
    assert_allclose(sp.ekm_eigenvalues(K, m, 10, sketch=None), eig_desc(K)[:10], rtol=RTOL_EXACT)
    w, U = sp.ekm_eigenpairs(K, m, 5, sketch=None)
    we, Ue = sp.exact_eigenpairs(K, 5)
    assert_allclose(w, we, rtol=RTOL_EXACT)
    assert_allclose(U, Ue, atol=1e-6)  # eigenvectors of K^2: rounding amplified by 1/gap


@pytest.mark.parametrize("sketch", sp.SKETCHES)
def test_ekm_error_shrinks_as_q_grows(K_mid, sketch):
    exact = eig_desc(K_mid)[:5]
    mean_err = []
    for q in (10, 40, 160):
        errs = [sp.relative_error(sp.ekm_eigenvalues(K_mid, q, 5, sketch=sketch, random_state=s),
                                  exact).max() for s in range(N_SEEDS)]
        mean_err.append(np.mean(errs))
    assert mean_err[0] > mean_err[1] > mean_err[2]


@pytest.mark.parametrize("sketch", sp.SKETCHES)
def test_ekm_subspace_improves_with_q_and_with_step_6(K_mid, sketch):
    """Top-4 eigenspace (well separated from the 5th). Step 6 (one more
    multiplication by K) lands closer to it than step 5, on average."""
    _, U = sp.exact_eigenpairs(K_mid, 4)
    dist = {}
    for q in (20, 160):
        for back in ("covariance", "dot"):
            dist[q, back] = np.mean([
                sp.subspace_distance(
                    sp.ekm_eigenpairs(K_mid, q, 4, sketch=sketch, random_state=s, map_back=back)[1], U)
                for s in range(N_SEEDS)])
    assert dist[160, "covariance"] < dist[20, "covariance"]
    assert dist[20, "covariance"] < dist[20, "dot"]
    assert dist[160, "covariance"] < dist[160, "dot"]


def test_ekm_dot_map_back_gives_eigenvectors_of_sketched_dot_matrix(K):
    """Step 5: v_hat = Z'v is an exact eigenvector of Z'Z = K S'S K."""
    Zt = sp.ekm_sketch(K, 20, sketch="gaussian", random_state=0)
    w, V = sp.ekm_eigenpairs(K, 20, 4, sketch="gaussian", random_state=0, map_back="dot")
    G = Zt @ Zt.T
    assert_allclose(G @ V, V * w**2, atol=ATOL_EXACT * w[0] ** 2)


@pytest.mark.parametrize("sketch", sp.SKETCHES)
@given(q=st.integers(1, 40), seed=st.integers(0, 2**31 - 1), gamma=st.floats(0.01, 5.0))
@settings(max_examples=30, deadline=None)
def test_eq3_bound_holds(sketch, q, seed, gamma):
    """|lambda_i^2 - lambda~_i| <= ||E||_2 <= m max|eps_ij| for every i (Eq. 3)."""
    X = np.random.default_rng(seed % 1000).normal(size=(40, 2))
    K = kernel_matrix(X, gamma=gamma)
    b = sp.ekm_perturbation_bound(K, q, sketch=sketch, random_state=seed)
    slack = RTOL_EXACT * b.exact[0] ** 2  # rounding in the computed eigenvalues
    assert np.all(b.observed <= b.spectral_bound + slack)
    assert b.spectral_bound <= b.entrywise_bound + slack
    assert np.all(b.eigenvalue_error <= b.eigenvalue_bound + np.sqrt(slack))
    # the same sketch as ekm_eigenvalues for the same seed
    assert_allclose(b.approx[:5], sp.ekm_eigenvalues(K, q, 5, sketch=sketch, random_state=seed),
                    rtol=RTOL_EXACT, atol=ATOL_EXACT)


@pytest.mark.parametrize("sketch", sp.SKETCHES)
@given(m=st.integers(3, 60), q=st.integers(1, 60), seed=st.integers(0, 2**31 - 1),
       gamma=st.floats(0.01, 5.0))
@settings(max_examples=25, deadline=None)
def test_eq3_norms_are_those_of_the_error_matrix(sketch, m, q, seed, gamma):
    """||E||_2 and m max|E_ij| are those of E = K^2 - Z'Z formed from the sketch itself
    (Z = S K, mpcore.ekm_sketch), on a checked K whose K @ K is shared between calls."""
    q = min(q, m)
    X = np.random.default_rng(seed % 1000).normal(size=(m, 3))
    K = kernel_matrix(X, gamma=gamma)
    Zt = sp.ekm_sketch(K, q, sketch=sketch, random_state=seed)
    E = K @ K - Zt @ Zt.T
    scale = np.abs(K @ K).max()
    checked = validated_kernel(K)
    for _ in range(2):  # the second call takes K @ K from the memo
        b = sp.ekm_perturbation_bound(checked, q, sketch=sketch, random_state=seed)
        assert_allclose(b.spectral_bound, np.linalg.norm(E, 2), rtol=1e-9,
                        atol=ATOL_EXACT * scale)
        assert_allclose(b.entrywise_bound, m * np.abs(E).max(), rtol=1e-9,
                        atol=ATOL_EXACT * scale)


def test_ekm_unsketched_bound_is_zero(K):
    b = sp.ekm_perturbation_bound(K, None, sketch=None)
    assert b.spectral_bound <= ATOL_EXACT * b.exact[0] ** 2


def test_ekm_sketches_are_unbiased_for_dot_products(K):
    """E[S'S] = I for both sketches, so the mean of Z'Z over seeds approaches K^2."""
    K2 = K @ K
    for sketch in sp.SKETCHES:
        mean = np.mean([(lambda Z: Z @ Z.T)(sp.ekm_sketch(K, 30, sketch=sketch, random_state=s))
                        for s in range(200)], axis=0)
        one = (lambda Z: Z @ Z.T)(sp.ekm_sketch(K, 30, sketch=sketch, random_state=0))
        assert np.linalg.norm(mean - K2) < 0.3 * np.linalg.norm(one - K2)


def test_countsketch_structure_and_determinism(K):
    """With K = I the sketch returns S' itself: one +-1 per coordinate."""
    S = sp.ekm_sketch(np.eye(50), 7, sketch="countsketch", random_state=5).T  # (q, m)
    assert S.shape == (7, 50)
    assert np.all(np.count_nonzero(S, axis=0) == 1)  # each coordinate hashed to one bucket
    assert set(np.unique(S[S != 0])) <= {-1.0, 1.0}
    # the sketch is linear: K S' for any K
    assert_allclose(sp.ekm_sketch(K[:50, :50], 7, sketch="countsketch", random_state=5),
                    K[:50, :50] @ S.T, atol=ATOL_EXACT)
    assert_array_equal(S, sp.ekm_sketch(np.eye(50), 7, sketch="countsketch", random_state=5).T)


def test_gaussian_sketch_scale():
    """Eq. (7): entries of S = A / sqrt(q) have variance 1/q."""
    q = 40
    S = sp.ekm_sketch(np.eye(500), q, sketch="gaussian", random_state=0).T
    assert S.var() == pytest.approx(1.0 / q, rel=0.05)


@pytest.mark.parametrize("sketch", [None, *sp.SKETCHES])
def test_seeded_randomness(K, sketch):
    a = sp.ekm_eigenvalues(K, 15, 5, sketch=sketch, random_state=11)
    assert_array_equal(a, sp.ekm_eigenvalues(K, 15, 5, sketch=sketch, random_state=11))


def test_ekm_eigenvalues_beyond_q_are_zero(K):
    w = sp.ekm_eigenvalues(K, 4, 8, sketch="gaussian", random_state=0)
    assert_array_equal(w[4:], 0.0)


# --------------------------------------------------------------------------- rank deficiency


def test_no_nan_for_rank_deficient_K(K_lowrank):
    m = K_lowrank.shape[0]
    outputs = [
        sp.exact_eigenvalues(K_lowrank, 10),
        sp.nystrom_eigenvalues(K_lowrank, np.arange(m), 10),
        sp.nystrom_eigenvalues(K_lowrank, [0, 0, 1], 5),
        *sp.nystrom_eigenpairs(K_lowrank, np.arange(m), 3),
        sp.ekm_eigenvalues(K_lowrank, 20, 10, random_state=0),
        sp.ekm_eigenvalues(K_lowrank, 20, 10, sketch="countsketch", random_state=0),
        sp.ekm_eigenvalues(K_lowrank, None, 10, sketch=None),
        *sp.ekm_eigenpairs(K_lowrank, 20, 10, random_state=0),
        *sp.ekm_eigenpairs(K_lowrank, None, 10, sketch=None),
    ]
    for out in outputs:
        assert np.all(np.isfinite(out))
    w = sp.nystrom_eigenvalues(K_lowrank, np.arange(m), 10)
    assert_allclose(w[:3], eig_desc(K_lowrank)[:3], rtol=RTOL_EXACT)
    assert_array_equal(w[3:], 0.0)
    with pytest.raises(ValueError, match="rank 3"):
        sp.nystrom_eigenpairs(K_lowrank, np.arange(m), 4)
    b = sp.ekm_perturbation_bound(K_lowrank, 10, random_state=0)
    assert np.all(np.isfinite(b.observed)) and np.all(np.isfinite(b.eigenvalue_bound))


def test_zero_kernel_is_refused_not_nan():
    with pytest.raises(ValueError, match="zero"):
        sp.nystrom_eigenvalues(np.zeros((5, 5)), [0, 1], 2)
    R, piv = sp.incomplete_cholesky(np.zeros((5, 5)))
    assert R.shape == (0, 5) and piv.size == 0


# --------------------------------------------------------------------------- subspaces


def test_subspace_distance():
    rng = np.random.default_rng(0)
    U = rng.normal(size=(10, 3))
    Q = rng.normal(size=(3, 3))
    assert sp.subspace_distance(U, U @ Q) == pytest.approx(0.0, abs=1e-7)
    assert sp.subspace_distance(np.eye(4)[:, :2], np.eye(4)[:, 2:]) == pytest.approx(np.pi / 2)
    theta = 0.3
    assert sp.subspace_distance([1.0, 0.0], [np.cos(theta), np.sin(theta)]) == pytest.approx(theta)


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "call, exc",
    [
        (lambda K: sp.exact_eigenvalues(K, 0), ValueError),
        (lambda K: sp.exact_eigenvalues(K, 61), ValueError),
        (lambda K: sp.exact_eigenvalues(K, 2.0), TypeError),
        (lambda K: sp.exact_eigenvalues(K, 2, method="lapack"), ValueError),
        (lambda K: sp.exact_eigenvalues(K[:5], 2), ValueError),
        (lambda K: sp.exact_eigenvalues(K + np.triu(np.ones_like(K)), 2), ValueError),
        (lambda K: sp.exact_eigenvalues(np.where(K > 0.9, np.nan, K), 2), ValueError),
        (lambda K: sp.nystrom_eigenvalues(K, [0, 60], 2), ValueError),
        (lambda K: sp.nystrom_eigenvalues(K, [-1, 3], 2), ValueError),
        (lambda K: sp.nystrom_eigenvalues(K, [0.0, 1.0], 2), TypeError),
        (lambda K: sp.nystrom_eigenvalues(K, [], 2), ValueError),
        (lambda K: sp.nystrom_eigenvalues(-K, [0, 1], 2), ValueError),
        (lambda K: sp.nystrom_indices(K, 5, rule="kmeans"), ValueError),
        (lambda K: sp.nystrom_nested_eigenvalues(K, [0, 1], [3], 2), ValueError),
        (lambda K: sp.nystrom_nested_eigenvalues(K, [0, 1], [0], 2), ValueError),
        (lambda K: sp.nystrom_nested_eigenvalues(K, [0, 1], [], 2), ValueError),
        (lambda K: sp.nystrom_nested_eigenvalues(K, [0, 1], [1.0], 2), TypeError),
        (lambda K: sp.nystrom_nested_eigenvalues(K, [0, 1], None, 2), TypeError),
        (lambda K: sp.nystrom_nested_eigenvalues(K, [0, 60], [1], 2), ValueError),
        (lambda K: sp.nystrom_nested_eigenvalues(K, [0, 1], [1], 61), ValueError),
        (lambda K: sp.nystrom_nested_eigenvalues(-K, [0, 1], [1], 2), ValueError),
        (lambda K: sp.ekm_eigenvalues(K, 61, 2), ValueError),
        (lambda K: sp.ekm_eigenvalues(K, 0, 2), ValueError),
        (lambda K: sp.ekm_eigenvalues(K, 10, 2, sketch="srht"), ValueError),
        (lambda K: sp.ekm_eigenpairs(K, 5, 6), ValueError),
        (lambda K: sp.ekm_eigenpairs(K, 5, 2, map_back="both"), ValueError),
        (lambda K: sp.incomplete_cholesky(K, eta=0.0), ValueError),
        (lambda K: sp.incomplete_cholesky(K, rank=0), ValueError),
        (lambda K: sp.random_indices(5, 6), ValueError),
        (lambda K: sp.subspace_distance(K[:, :2], K[:10, :2]), ValueError),
        (lambda K: sp.subspace_distance(np.zeros((5, 1)), np.ones((5, 1))), ValueError),
    ],
)
def test_bad_input_raises(K, call, exc):
    with pytest.raises(exc):
        call(K)


def _boston_rbf(sigma):
    """The eigenvalue page's default data (boston, standardised) with an rbf of width sigma."""
    import datasets
    from sklearn.preprocessing import StandardScaler

    X = StandardScaler().fit_transform(datasets.load("boston").X)
    return kernel_matrix(X, kernel="rbf", gamma=1.0 / (2.0 * sigma**2))


def test_lanczos_stops_within_its_budget_on_clustered_eigenvalues():
    """sigma = 0.05 on standardised boston makes K nearly the identity (hundreds of
    eigenvalues equal to 1). Lanczos for the top 29 then needs some 10^5 products with K
    under ARPACK's own limit (20 s); it stops after its budget (m products here) and the
    dense solver answers, or, with strict=True, it raises for a comparison to report."""
    K = _boston_rbf(0.05)
    m = K.shape[0]
    exact = np.sort(np.linalg.eigvalsh(K))[::-1]
    assert np.sum(np.abs(exact - 1.0) < 1e-9) > 100  # the cluster
    budget = max(m, sp.LANCZOS_BUDGET_PER_NCV * min(m, 2 * 29 + 1))
    for fn in (sp.exact_eigenvalues, sp.exact_eigenpairs):
        with pytest.raises(sp.LanczosBudgetExceeded, match=f"within {budget} products") as info:
            fn(K, 29, method="eigsh", strict=True)
        assert isinstance(info.value, ArpackNoConvergence) and info.value.products == budget
    w = sp.exact_eigenvalues(K, 29, method="eigsh")
    assert_allclose(w, exact[:29], rtol=RTOL_EXACT, atol=ATOL_EXACT)
    w, V = sp.exact_eigenpairs(K, 29, method="eigsh")
    assert_allclose(K @ V, V * w, atol=1e-8)


@pytest.mark.parametrize("n", [1, 10, 30, 49])
def test_lanczos_converges_within_its_budget_at_the_default_width(n):
    """At the page's default width (sigma = 3) the budget leaves Lanczos room: it finds the
    top n itself (strict) and agrees with the dense solver."""
    K = _boston_rbf(3.0)
    exact = np.sort(np.linalg.eigvalsh(K))[::-1][:n]
    assert_allclose(sp.exact_eigenvalues(K, n, method="eigsh", strict=True), exact,
                    rtol=1e-9, atol=ATOL_EXACT * exact[0])


@pytest.mark.parametrize("sketch", ["gaussian", "countsketch"])
@pytest.mark.parametrize("checked", [False, True])
def test_eq3_over_a_q_grid_is_eq3_at_each_q(sketch, checked):
    """ekm_perturbation_bounds gives, at every q of a grid, what ekm_perturbation_bound gives
    at that q alone: the same sketch (the Gaussian ones drawn once at the largest q), so the
    same numbers to the last bit."""
    X = np.random.default_rng(4).normal(size=(70, 3))
    K = kernel_matrix(X, kernel="rbf", gamma=0.5)
    if checked:
        K = validated_kernel(K)
    qs = [70, 1, 9, 2, 33]  # any order
    points = sp.ekm_perturbation_bounds(K, qs, 6, sketch=sketch, random_state=11)
    assert len(points) == len(qs)
    for q, p in zip(qs, points):
        alone = sp.ekm_perturbation_bound(K, q, 6, sketch=sketch, random_state=11)
        for field in ("exact", "approx", "observed", "spectral_bound", "entrywise_bound",
                      "eigenvalue_error", "eigenvalue_bound"):
            assert_array_equal(getattr(p, field), getattr(alone, field), err_msg=f"{q} {field}")


def test_eq3_over_a_q_grid_refuses_no_sketch_and_an_empty_grid():
    K = kernel_matrix(np.random.default_rng(4).normal(size=(20, 2)), kernel="rbf", gamma=0.5)
    with pytest.raises(ValueError, match="sketch"):
        sp.ekm_perturbation_bounds(K, [2, 4], sketch=None)
    with pytest.raises(ValueError, match="qs"):
        sp.ekm_perturbation_bounds(K, [], sketch="gaussian")
    with pytest.raises(ValueError, match="q"):
        sp.ekm_perturbation_bounds(K, [2, 21], sketch="gaussian")
