"""Matching-pursuit sparse KCCA (Hussain & Shawe-Taylor, Section 4): invariants.

References: a direct transcription of the greedy choice with explicit
deflation; CCA facts (unit-variance, uncorrelated variates whose pairwise
correlations are the canonical correlations); and the book's kernel CCA
(Code Fragment 6.3) when the basis spans everything.
"""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import clone

from conftest import ATOL_EXACT, RTOL_EXACT
from datasets._two_view import two_view
from mpcore.kcca import SparseKCCA, canonical_correlations, kcca_steps
from mpcore.kernels import center_kernel, kernel_matrix

#: What "correlation near 1" means on the default two-view data (noise 0.1):
#: the noise alone keeps the best achievable correlation around 0.97.
NEAR_ONE = 0.9
#: Linear CCA on the raw two views stays far below (about 0.2).
LINEAR_CEILING = 0.5


def direct_quotients(Kx, Ky):
    with np.errstate(divide="ignore", invalid="ignore"):  # spanned points: masked by callers
        return np.diag(Kx @ Ky) / np.sqrt(np.diag(Kx @ Kx) * np.diag(Ky @ Ky))


def direct_sparse_kcca(Kx, Ky, k, tol=1e-10):
    """Section 4 transcribed: argmax of the quotient, deflate both kernels."""
    Hx, Hy = Kx.copy(), Ky.copy()
    tx, ty = tol * np.max(np.diag(Kx)), tol * np.max(np.diag(Ky))
    idx, quots = [], []
    for _ in range(k):
        alive = (np.diag(Hx) > tx) & (np.diag(Hy) > ty)
        if not alive.any():
            break
        q = np.full(len(alive), np.nan)
        q[alive] = direct_quotients(Hx, Hy)[alive]
        i = int(np.nanargmax(q))
        idx.append(i)
        quots.append(q)
        Hx = Hx - np.outer(Hx[:, i], Hx[i, :]) / Hx[i, i]
        Hy = Hy - np.outer(Hy[:, i], Hy[i, :]) / Hy[i, i]
    return idx, quots


def book_kcca(Kx, Ky, tau):
    """Code Fragment 6.3 on centred kernels, features from an eigendecomposition."""

    def features(K):
        w, U = np.linalg.eigh(center_kernel(K))
        keep = w > 1e-10 * w.max()
        return U[:, keep] * np.sqrt(w[keep])  # R' with R'R = centred K

    Ra, Rb = features(Kx).T, features(Ky).T
    Sa = (1 - tau) * Ra @ Ra.T + tau * np.eye(Ra.shape[0])
    Sb = (1 - tau) * Rb @ Rb.T + tau * np.eye(Rb.shape[0])
    Rchol = np.linalg.cholesky(Sb).T  # R'R = Sb
    Rinv = np.linalg.inv(Rchol)
    M = Rinv.T @ Rb @ Ra.T @ np.linalg.solve(Sa, Ra @ Rb.T) @ Rinv
    lam2 = np.sort(np.linalg.eigvalsh(0.5 * (M + M.T)))[::-1]
    return np.sqrt(np.clip(lam2, 0, None))


@pytest.fixture(scope="module")
def views():
    return two_view(n_samples=200, noise=0.1, random_state=0)


@pytest.fixture(scope="module")
def kernels(views):
    X, Y, _ = views
    return kernel_matrix(X, gamma=1.0), kernel_matrix(Y, gamma=1.0)


def test_first_index_is_argmax_of_quotient(views, kernels):
    X, Y, _ = views
    Kx, Ky = kernels
    step = next(kcca_steps(Kx, Ky, 1))
    rho = direct_quotients(Kx, Ky)
    assert step.index == int(np.argmax(rho))
    assert_allclose(step.quotients, rho, rtol=RTOL_EXACT)
    model = SparseKCCA(3, gamma_x=1.0, gamma_y=1.0).fit(X, Y)
    assert model.indices_[0] == int(np.argmax(rho))
    assert model.quotients_[0] == pytest.approx(rho.max(), rel=RTOL_EXACT)


def test_steps_match_direct_transcription(kernels):
    Kx, Ky = kernels
    steps = list(kcca_steps(Kx, Ky, 12))
    idx, quots = direct_sparse_kcca(Kx, Ky, 12)
    assert [s.index for s in steps] == idx
    for s, q in zip(steps, quots):
        assert_allclose(s.quotients, q, rtol=1e-7, atol=ATOL_EXACT)


def test_step_fields_are_consistent(kernels):
    Kx, Ky = kernels
    prev_x, prev_y = np.trace(Kx), np.trace(Ky)
    chosen = []
    for s in kcca_steps(Kx, Ky, 10):
        chosen.append(s.index)
        q = s.quotients[np.isfinite(s.quotients)]
        assert np.all(np.abs(q) <= 1 + ATOL_EXACT)  # a cosine (Cauchy-Schwarz)
        assert np.all(np.isnan(s.quotients[chosen[:-1]]))  # chosen points are spanned
        assert_array_equal(s.residual_diag_x[chosen], 0.0)
        assert_array_equal(s.residual_diag_y[chosen], 0.0)
        assert s.trace_residual_x <= prev_x and s.trace_residual_y <= prev_y
        prev_x, prev_y = s.trace_residual_x, s.trace_residual_y
        # variates: centred, unit variance, correlated as reported (up to tau)
        assert abs(s.variate_x.mean()) < ATOL_EXACT and abs(s.variate_x.std() - 1) < ATOL_EXACT
        assert np.corrcoef(s.variate_x, s.variate_y)[0, 1] == pytest.approx(s.correlation, abs=0.01)


def test_finds_correlation_near_one_on_two_view_data(views):
    X, Y, _ = views
    model = SparseKCCA(20, gamma_x=1.0, gamma_y=1.0).fit(X, Y)
    assert model.correlations_[0] > NEAR_ONE
    Xt, Yt, _ = two_view(n_samples=200, noise=0.1, random_state=1)
    assert model.score(Xt, Yt) > NEAR_ONE  # held out: not an overfitting artefact
    linear, *_ = canonical_correlations(X, Y)
    assert linear[0] < LINEAR_CEILING


def test_correlation_path_is_monotone_and_ends_at_final(views):
    """Nested Gram-Schmidt subspaces: adding a basis pair never lowers the
    (regularised) top correlation; the last staged value is the fitted one."""
    X, Y, _ = views
    model = SparseKCCA(15, gamma_x=1.0, gamma_y=1.0).fit(X, Y)
    path = model.correlation_path_
    assert len(path) == model.n_basis_
    assert np.all(np.diff(path) >= -ATOL_EXACT)
    assert_allclose(path[-1], model.correlations_[0], rtol=1e-9)


def test_training_variates_solve_cca(views):
    """With tau = 0: unit-variance, mutually uncorrelated variates in each view,
    and corr(U_j, V_j) equals the j-th canonical correlation (Section 6.5)."""
    X, Y, _ = views
    model = SparseKCCA(6, gamma_x=1.0, gamma_y=1.0, reg=0.0).fit(X, Y)
    U, V = model.transform(X, Y)
    m = X.shape[0]
    assert_allclose(U.mean(axis=0), 0.0, atol=ATOL_EXACT)
    assert_allclose(U.T @ U / m, np.eye(U.shape[1]), atol=1e-7)
    assert_allclose(V.T @ V / m, np.eye(V.shape[1]), atol=1e-7)
    assert_allclose(np.diag(U.T @ V / m), model.correlations_, atol=1e-7)
    assert_allclose(U.T @ V / m, np.diag(model.correlations_), atol=1e-7)


def test_full_basis_equals_book_kernel_cca():
    """When the basis spans both feature spaces, CCA in it is the book's
    kernel CCA (Code Fragment 6.3) on the centred kernels."""
    X, Y, _ = two_view(n_samples=30, noise=0.1, random_state=2)
    Kx, Ky = kernel_matrix(X, gamma=20.0), kernel_matrix(Y, gamma=20.0)
    tau = 0.05
    model = SparseKCCA(30, gamma_x=20.0, gamma_y=20.0, reg=tau).fit(X, Y)
    assert model.n_basis_ == 30
    ref = book_kcca(Kx, Ky, tau)
    assert_allclose(model.regularised_quotients_[:5], ref[:5], rtol=1e-6)
    # the book's regularised quotients exceed 1 here (by up to 1/(1 - tau)); the
    # reported correlations are clipped to [0, 1]
    assert_allclose(model.correlations_[:5], np.minimum(ref[:5], 1.0), rtol=1e-6)


def test_transform_on_training_equals_step_variates(views):
    X, Y, _ = views
    model = SparseKCCA(8, gamma_x=1.0, gamma_y=1.0).fit(X, Y)
    last = list(kcca_steps(kernel_matrix(X, gamma=1.0), kernel_matrix(Y, gamma=1.0), 8))[-1]
    U, V = model.transform(X, Y)
    sign = np.sign(U[:, 0] @ last.variate_x)
    assert_allclose(sign * U[:, 0], last.variate_x, atol=1e-6)
    assert_allclose(sign * V[:, 0], last.variate_y, atol=1e-6)


def test_fit_is_deterministic_and_clonable(views):
    X, Y, _ = views
    a = SparseKCCA(5, gamma_x=1.0, gamma_y=2.0).fit(X, Y)
    b = clone(a).fit(X, Y)
    assert_array_equal(a.indices_, b.indices_)
    assert_array_equal(a.correlations_, b.correlations_)
    assert b.get_params()["gamma_y"] == 2.0


def test_defaults_and_n_components(views):
    X, Y, _ = views
    model = SparseKCCA(n_components=2).fit(X, Y)
    assert model.n_basis_ == 10 and model.gamma_x_ == 0.5
    U, V = model.transform(X[:7], Y[:7])
    assert U.shape == (7, 2) and V.shape == (7, 2)
    assert np.all(np.diff(model.correlations_) <= 0)


def test_early_stop_when_spanned():
    X = np.repeat(np.arange(3.0)[:, None], 4, axis=0)  # 3 distinct points, 12 rows
    model = SparseKCCA(10, kernel_x="linear", kernel_y="rbf").fit(X, X ** 2)
    assert model.n_basis_ == 1  # linear kernel of 1-D data has rank 1
    assert np.all(np.isfinite(model.correlations_))


def test_refuses_non_psd_kernels(views):
    X, Y, _ = views
    with pytest.raises(ValueError, match="positive semi-definite"):
        SparseKCCA(kernel_x="sigmoid").fit(X, Y)
    with pytest.raises(ValueError, match="positive semi-definite"):
        SparseKCCA(kernel_y="sigmoid").fit(X, Y)
    S = kernel_matrix(X, kernel="sigmoid", gamma=1.0, coef0=0.0)
    with pytest.raises(ValueError, match="positive semi-definite"):
        list(kcca_steps(S, np.eye(len(S)), 5))
    # passes Cauchy-Schwarz but is indefinite: caught while deflating
    A = np.array([[1.0, 0.9, 0.9], [0.9, 1.0, -0.9], [0.9, -0.9, 1.0]])
    assert np.linalg.eigvalsh(A).min() < 0
    with pytest.raises(ValueError, match="positive semi-definite"):
        list(kcca_steps(A, np.eye(3) + 0.5, 3))


@pytest.mark.parametrize(
    "make, exc",
    [
        (lambda X, Y: SparseKCCA(0).fit(X, Y), ValueError),
        (lambda X, Y: SparseKCCA(2.5).fit(X, Y), TypeError),
        (lambda X, Y: SparseKCCA(reg=1.0).fit(X, Y), ValueError),
        (lambda X, Y: SparseKCCA(reg=-0.1).fit(X, Y), ValueError),
        (lambda X, Y: SparseKCCA(gamma_x=0.0).fit(X, Y), ValueError),
        (lambda X, Y: SparseKCCA(kernel_x="gauss").fit(X, Y), ValueError),
        (lambda X, Y: SparseKCCA().fit(X, Y[:-1]), ValueError),
        (lambda X, Y: SparseKCCA().fit(X[:, 0], Y), ValueError),
        (lambda X, Y: SparseKCCA().fit(np.where(X > 0.9, np.nan, X), Y), ValueError),
        (lambda X, Y: SparseKCCA(3).fit(X, Y).transform(X[:, :1], Y), ValueError),
        (lambda X, Y: SparseKCCA().transform(X, Y), Exception),  # NotFittedError
        (lambda X, Y: list(kcca_steps(np.eye(3), np.eye(4), 2)), ValueError),
        (lambda X, Y: list(kcca_steps(np.eye(3), np.eye(3), 2, reg=2.0)), ValueError),
        (lambda X, Y: canonical_correlations(X, Y[:5]), ValueError),
    ],
)
def test_bad_input_raises(views, make, exc):
    X, Y, _ = views
    with pytest.raises(exc):
        make(X, Y)


def test_not_fitted_error_type(views):
    from sklearn.exceptions import NotFittedError

    X, Y, _ = views
    with pytest.raises(NotFittedError):
        SparseKCCA().transform(X, Y)


# --------------------------------------------------------------------------- the generator


def test_two_view_generator_shapes_seed_and_validation():
    X, Y, z = two_view(n_samples=50, noise=0.0, random_state=3)
    assert X.shape == (50, 2) and Y.shape == (50, 2) and z.shape == (50,)
    assert np.all(np.abs(z) <= 1)
    assert_allclose(np.linalg.norm(X, axis=1), 1.0)  # noise-free: on the unit circle
    assert_allclose(np.linalg.norm(Y, axis=1), 1.0)
    X2, Y2, z2 = two_view(n_samples=50, noise=0.0, random_state=3)
    assert_array_equal(X, X2) and assert_array_equal(z, z2)
    assert not np.array_equal(two_view(50, 0.1, 3)[0], two_view(50, 0.1, 4)[0])
    for bad, exc in [(dict(n_samples=1), ValueError), (dict(n_samples=2.0), TypeError),
                     (dict(noise=-1.0), ValueError), (dict(noise=np.inf), ValueError),
                     (dict(noise="a"), TypeError)]:
        with pytest.raises(exc):
            two_view(**bad)
