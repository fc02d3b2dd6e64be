"""kernel="precomputed": the estimators fitted on a kernel matrix equal the same
estimators fitted on the data the matrix was computed from.

The training kernel K(X, X) goes to ``fit`` and K(X_new, X) to ``transform`` /
``predict``, as for scikit-learn's KernelPCA and SVC, so the app can reuse a
cached kernel matrix. The chosen basis is the same (same columns, same random
candidates) and the outputs agree to rounding (ATOL_EXACT), or to
LINE_SEARCH_RTOL for the non-squared losses, whose weights come from an
iterative line minimisation that rounding can stop one iteration apart. The
classifier test uses the tanh loss, whose targets 0.65 y keep the weights
bounded: on separable data the logistic and exponential weights grow without
bound, and two fits then differ by whatever the last line search left. The tanh
loss is not convex, so its test gives both paths the same kernel values (see
the test): a rounding-level difference can lead back-fitting to another minimum.
"""

import warnings
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal

from conftest import ATOL_EXACT, RTOL_EXACT
from mpcore.kernels import kernel_diag, kernel_matrix
from mpcore.kmp import KMPClassifier, KMPRegressor
from mpcore.skpca import SparseKPCA

#: Non-squared losses: weights from an iterative line search (see module docstring).
LINE_SEARCH_RTOL = 1e-5

RNG = np.random.default_rng(7)
X = RNG.normal(size=(50, 3))
X_NEW = RNG.normal(size=(11, 3))
Y = np.sin(2 * X[:, 0]) + X[:, 1]
LABELS = np.digitize(Y, [-0.5, 0.5])  # three classes
PSD_KERNELS = ["rbf", "laplacian", "linear", "cosine", "polynomial"]

kernels = st.sampled_from(PSD_KERNELS)
gammas = st.floats(0.05, 2.0)
candidates = st.one_of(st.none(), st.integers(3, 60))
seeds = st.integers(0, 2**16)


def _params(kernel, gamma):
    return dict(kernel=kernel, gamma=gamma, degree=2, coef0=1.0)


def _matrices(kernel, gamma):
    p = _params(kernel, gamma)
    return kernel_matrix(X, **p), kernel_matrix(X_NEW, X, **p), kernel_diag(X_NEW, **p)


@settings(max_examples=20, deadline=None)
@given(kernel=kernels, gamma=gammas, n_candidates=candidates, seed=seeds)
def test_sparse_kpca_precomputed_equals_its_kernel(kernel, gamma, n_candidates, seed):
    K, K_new, diag_new = _matrices(kernel, gamma)
    common = dict(n_candidates=n_candidates, random_state=seed)
    with _quiet():
        data = SparseKPCA(5, **_params(kernel, gamma), **common).fit(X)
        pre = SparseKPCA(5, kernel="precomputed", **common).fit(K)
    assert_array_equal(pre.indices_, data.indices_)
    assert_allclose(pre.trace_residuals_, data.trace_residuals_, atol=ATOL_EXACT * K.shape[0])
    assert_allclose(pre.transform(K_new), data.transform(X_NEW), atol=ATOL_EXACT)
    assert_allclose(pre.residual_curve(K_new, diag=diag_new), data.residual_curve(X_NEW),
                    atol=ATOL_EXACT)
    assert pre.basis_ is None and pre.gamma_ is None


def test_sparse_kpca_precomputed_residuals_need_the_diagonal():
    K, K_new, _ = _matrices("rbf", 0.5)
    pre = SparseKPCA(4, kernel="precomputed").fit(K)
    with pytest.raises(ValueError, match="diag="):
        pre.residual_curve(K_new)
    assert_allclose(pre.residuals(K, diag=np.diag(K)), SparseKPCA(4, gamma=0.5).fit(X).residuals(X),
                    atol=ATOL_EXACT)


def test_precomputed_refuses_a_non_square_or_non_psd_training_matrix():
    with pytest.raises(ValueError, match="square"):
        SparseKPCA(3, kernel="precomputed").fit(X)
    with pytest.raises(ValueError, match="square"):
        KMPRegressor(3, kernel="precomputed").fit(X, Y[:50])
    with pytest.raises(ValueError, match="not a PSD kernel matrix"):
        SparseKPCA(3, kernel="precomputed").fit(-np.eye(5))


@settings(max_examples=20, deadline=None)
@given(kernel=kernels, gamma=gammas, n_candidates=candidates, seed=seeds,
       fitting=st.sampled_from(["basic", "backfit", "prefit"]),
       early_stopping=st.sampled_from([None, "validation", "bound"]))
def test_kmp_regressor_precomputed_equals_its_kernel(kernel, gamma, n_candidates, seed, fitting,
                                                     early_stopping):
    K, K_new, _ = _matrices(kernel, gamma)
    common = dict(n_candidates=n_candidates, random_state=seed, fitting=fitting,
                  early_stopping=early_stopping)
    with _quiet():
        data = KMPRegressor(6, **_params(kernel, gamma), **common).fit(X, Y)
        pre = KMPRegressor(6, kernel="precomputed", **common).fit(K, Y)
    assert_array_equal(pre.basis_indices_, data.basis_indices_)
    assert_allclose(pre.predict(K_new), data.predict(X_NEW), atol=ATOL_EXACT)
    for a, b in zip(pre.staged_predict(K_new), data.staged_predict(X_NEW)):
        assert_allclose(a, b, atol=ATOL_EXACT)


@settings(max_examples=8, deadline=None)
@given(gamma=gammas, seed=seeds, loss=st.sampled_from(["squared", "tanh"]),
       n_classes=st.sampled_from([2, 3]))
@example(gamma=1.546875, seed=0, loss="tanh", n_classes=3)
def test_kmp_classifier_precomputed_equals_its_kernel(gamma, seed, loss, n_classes):
    """The squared loss is convex: K from ``kernel_matrix(X)`` gives the data path's model to
    rounding. The tanh loss is not: ``kernel_matrix(X)`` has exact zero distances on its
    diagonal (scikit-learn sets them when Y is X) and the data path's kernel of X against
    the chosen centres has rounding there (6e-16), and back-fitting can then settle in
    another local minimum (the example: training losses 0.2228 and 0.2260, both stationary,
    one weight 19.5 against 1.35). Given the numbers the data path computes (Y passed, as
    its dictionary does), the precomputed model is the same, to the line search's
    tolerance."""
    K, K_new, _ = _matrices("rbf", gamma)
    if loss != "squared":
        K = kernel_matrix(X, X.copy(), **_params("rbf", gamma))
    y = LABELS if n_classes == 3 else (LABELS > 0).astype(int)
    common = dict(loss=loss, fitting="backfit", random_state=seed)
    with _quiet():
        data = KMPClassifier(6, gamma=gamma, **common).fit(X, y)
        pre = KMPClassifier(6, kernel="precomputed", **common).fit(K, y)
    for p, d in zip(pre.estimators_, data.estimators_):
        assert_array_equal(p.basis_indices_, d.basis_indices_)
    rtol = RTOL_EXACT if loss == "squared" else LINE_SEARCH_RTOL
    assert_allclose(pre.decision_function(K_new), data.decision_function(X_NEW), rtol=rtol,
                    atol=ATOL_EXACT)


def test_precomputed_is_a_pairwise_estimator():
    for est in (SparseKPCA(kernel="precomputed"), KMPRegressor(kernel="precomputed"),
                KMPClassifier(kernel="precomputed")):
        assert est.__sklearn_tags__().input_tags.pairwise
    assert not SparseKPCA().__sklearn_tags__().input_tags.pairwise


@contextmanager
def _quiet():
    """Early-stop warnings are the same for both fits and not what is tested here."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield
