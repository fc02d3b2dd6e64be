"""Kernel matching pursuit (Vincent & Bengio; Hussain & Shawe-Taylor Theorem 3): invariants.

Every expected value is computed independently here: scikit-learn's orthogonal
matching pursuit, brute-force least squares over Eq. (7), Eq. (5)'s residual
identity, finite differences, and Theorem 3 recomputed from staged predictions.
"""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy.optimize import approx_fprime
from sklearn.datasets import make_blobs
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import OrthogonalMatchingPursuit, orthogonal_mp
from sklearn.model_selection import train_test_split

import datasets
from conftest import ATOL_EXACT, RTOL_EXACT
from mpcore._losses import LOSSES, backfit, line_minimize, loss_functions
from mpcore.bounds import kmp_bound
from mpcore.kernels import kernel_matrix
from mpcore.kmp import (
    PURSUIT_ATTRIBUTES,
    KernelSpec,
    KMPClassifier,
    KMPPursuit,
    KMPRegressor,
    kmp_dictionary,
    pursuit,
    kmp_steps,
    kmp_steps_from_data,
    normalize_kernel_specs,
)

#: The generic path of Fig. 4 finds weights with scipy.optimize (bounded Brent line
#: search, L-BFGS-B back-fit), accurate to about 1e-7 relative, not to rounding.
ATOL_OPTIM = 1e-6
#: Finite-difference gradients (central differences would be tighter; forward
#: differences with step 1e-7 are accurate to about 1e-6).
RTOL_FD = 1e-4


def _toy(rng, l=40, d=3):
    X = rng.normal(size=(l, d))
    y = np.sin(2 * X[:, 0]) + 0.5 * X[:, 1] + 0.1 * rng.normal(size=l)
    return X, y


def _with_constant(K):
    return np.hstack([K, np.ones((K.shape[0], 1))])


def _omp_order(path):
    """Atoms in order of selection from orthogonal_mp(return_path=True)."""
    order, seen = [], set()
    for s in range(path.shape[1]):
        new = set(np.flatnonzero(path[:, s])) - seen
        assert len(new) == 1
        order += list(new)
        seen |= new
    return order


# --------------------------------------------------------------------------------------
# Back-fitting = orthogonal matching pursuit (Eq. 6)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("fit_intercept", [False, True])
def test_backfit_equals_sklearn_omp_on_normalised_dictionary(rng, fit_intercept):
    X, y = _toy(rng)
    K = kernel_matrix(X, gamma=0.5)
    D = _with_constant(K) if fit_intercept else K
    train_index = np.append(np.arange(40), -1) if fit_intercept else None
    norms = np.linalg.norm(D, axis=0)
    Dn = D / norms
    k = 12
    steps = list(kmp_steps(D, y, k, fitting="backfit", train_index=train_index))
    path = orthogonal_mp(Dn, y, n_nonzero_coefs=k, return_path=True)
    assert [s.index for s in steps] == _omp_order(path)
    for s in steps:
        assert_allclose(s.predictions, Dn @ path[:, s.step - 1], atol=ATOL_EXACT)
    omp = OrthogonalMatchingPursuit(n_nonzero_coefs=k, fit_intercept=False).fit(Dn, y)
    weights = np.zeros(D.shape[1])
    weights[steps[-1].basis] = steps[-1].coef * norms[steps[-1].basis]
    assert_allclose(weights, omp.coef_, rtol=RTOL_EXACT, atol=ATOL_EXACT)


def test_backfit_regressor_equals_sklearn_omp(rng):
    X, y = _toy(rng)
    model = KMPRegressor(n_basis=10, gamma=0.5, fitting="backfit").fit(X, y)
    D = _with_constant(kernel_matrix(X, gamma=0.5))
    Dn = D / np.linalg.norm(D, axis=0)
    omp = OrthogonalMatchingPursuit(n_nonzero_coefs=10, fit_intercept=False).fit(Dn, y)
    chosen = np.where(model.basis_indices_ < 0, D.shape[1] - 1, model.basis_indices_)
    assert set(chosen) == set(np.flatnonzero(omp.coef_))
    assert_allclose(model.predict(X), omp.predict(Dn), atol=ATOL_EXACT)


@pytest.mark.parametrize("fitting", ["backfit", "prefit"])
def test_full_basis_reaches_kernel_least_squares(rng, fitting):
    """With every training point in the basis, the fit interpolates: K a = y."""
    X = rng.uniform(-2, 2, size=(25, 2))
    y = rng.normal(size=25)
    K = kernel_matrix(X, gamma=1.0)
    steps = list(kmp_steps(K, y, 25, fitting=fitting))
    assert len(steps) == 25
    last = steps[-1]
    assert_allclose(last.predictions, y, atol=1e-6)  # cond(K) ~ 1e3 amplifies rounding
    a = np.zeros(25)
    a[last.basis] = last.coef
    assert_allclose(a, np.linalg.solve(K, y), rtol=1e-6, atol=1e-6)


# --------------------------------------------------------------------------------------
# Pre-fitting (Fig. 3, Eq. 7) against brute force
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("fit_intercept", [False, True])
def test_prefit_choice_is_brute_force_eq7(rng, fit_intercept):
    X, y = _toy(rng, l=30)
    K = kernel_matrix(X, kernel="laplacian", gamma=0.3)
    D = _with_constant(K) if fit_intercept else K
    train_index = np.append(np.arange(30), -1) if fit_intercept else None
    steps = list(kmp_steps(D, y, 10, fitting="prefit", train_index=train_index))
    basis = []
    for s in steps:
        # Eq. (7): the column that, with every weight refitted, leaves the smallest residue
        errors = np.full(D.shape[1], np.inf)
        for j in set(range(D.shape[1])) - set(basis):
            cols = D[:, basis + [j]]
            coef = np.linalg.lstsq(cols, y, rcond=None)[0]
            errors[j] = np.sum((y - cols @ coef) ** 2)
        assert s.index == int(np.argmin(errors))
        basis.append(s.index)
        coef = np.linalg.lstsq(D[:, basis], y, rcond=None)[0]
        assert_allclose(s.coef, coef, rtol=1e-7, atol=ATOL_EXACT)
        assert_allclose(np.sum(s.residual**2), errors[s.index], rtol=1e-7)


def test_prefit_scores_are_orthogonal_components(rng):
    """Fig. 3's score: |<P_perp d, R>| / ||P_perp d|| with P_perp the projection off the span."""
    X, y = _toy(rng, l=30)
    K = kernel_matrix(X, gamma=0.4)
    steps = list(kmp_steps(K, y, 6, fitting="prefit"))
    R = y.copy()
    basis = []
    for s in steps:
        if basis:
            Q = np.linalg.qr(K[:, basis])[0]
            P = K - Q @ (Q.T @ K)
        else:
            P = K
        alive = ~np.isnan(s.scores)
        expected = np.abs(P.T @ R) / np.linalg.norm(P, axis=0)
        assert_allclose(s.scores[alive], expected[alive], rtol=1e-6)
        assert not alive[basis].any()
        basis.append(s.index)
        R = s.residual


# --------------------------------------------------------------------------------------
# Basic matching pursuit (Fig. 1)
# --------------------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # low-rank kernels
@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    kernel=st.sampled_from(["rbf", "laplacian", "sigmoid", "polynomial", "cosine"]),
    gamma=st.floats(0.05, 3.0),
)
def test_basic_residual_norm_never_increases(seed, kernel, gamma):
    rng = np.random.default_rng(seed)
    X, y = _toy(rng, l=20)
    K = kernel_matrix(X, kernel=kernel, gamma=gamma, coef0=0.5)
    previous = np.sum(y**2)
    for s in kmp_steps(K, y, 30, fitting="basic"):
        now = np.sum(s.residual**2)
        assert now <= previous * (1 + 1e-12)
        # Eq. (5): the squared residue falls by exactly the squared best score
        assert_allclose(previous - now, s.scores[s.index] ** 2, rtol=1e-8, atol=ATOL_EXACT * previous)
        previous = now


def test_basic_may_choose_a_column_again(rng):
    X, y = _toy(rng, l=10)
    K = kernel_matrix(X, gamma=0.5)
    steps = list(kmp_steps(K, y, 30, fitting="basic"))
    last = steps[-1]
    assert len(steps) == 30
    assert len(set(last.basis)) < len(last.basis)  # 30 steps over 10 columns
    assert_allclose(last.predictions, K[:, last.basis] @ last.coef, atol=ATOL_EXACT)
    # basic MP never revises a weight: step n's coefficients extend step n-1's
    for a, b in zip(steps, steps[1:]):
        assert_array_equal(b.coef[:-1], a.coef)


# --------------------------------------------------------------------------------------
# Non-squared losses (Section 3, Fig. 4)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("fitting", ["basic", "backfit", "prefit"])
def test_gradient_path_with_squared_loss_reproduces_closed_form(rng, fitting):
    X, y = _toy(rng, l=35)
    D = _with_constant(kernel_matrix(X, gamma=0.5))
    train_index = np.append(np.arange(35), -1)
    exact = list(kmp_steps(D, y, 8, fitting=fitting, train_index=train_index))
    generic = list(kmp_steps(D, y, 8, fitting=fitting, train_index=train_index, solver="gradient"))
    assert [s.index for s in generic] == [s.index for s in exact]
    for a, b in zip(exact, generic):
        assert_allclose(b.predictions, a.predictions, atol=ATOL_OPTIM)
        assert_allclose(b.train_loss, a.train_loss, rtol=ATOL_OPTIM)
        # the generic residue is the negative gradient of (y - f)^2: 2 (y - f)
        assert_allclose(b.residual, 2 * (y - b.predictions), atol=ATOL_EXACT)


@pytest.mark.parametrize("name", list(LOSSES))
def test_loss_gradients_and_margin_forms(name):
    loss = LOSSES[name]
    f = np.linspace(-2.5, 2.5, 11)
    for label in (-1.0, 1.0):
        y = np.full_like(f, label)
        numeric = [approx_fprime([v], lambda z: float(loss.value(label, z[0])), 1e-7)[0] for v in f]
        assert_allclose(loss.gradient(y, f), numeric, rtol=RTOL_FD, atol=RTOL_FD)
        # Section 3.2: with labels +-1 every loss is a function of the margin m = y f
        assert_allclose(loss.value(y, f), loss.margin(y * f), rtol=RTOL_EXACT)
    curves = loss_functions()
    assert set(curves) == set(LOSSES) | {"hinge"}
    assert_allclose(curves[name](f), loss.margin(f), rtol=RTOL_EXACT)


def test_margin_curves_of_fig5():
    m = np.linspace(-2, 3, 26)
    curves = loss_functions()
    assert_allclose(curves["squared"](m), (1 - m) ** 2)
    assert_allclose(curves["tanh"](m), (0.65 - np.tanh(m)) ** 2)
    assert_allclose(curves["logistic"](m), np.log2(1 + np.exp(-2 * m)))
    assert_allclose(curves["exponential"](m), np.exp(-m))
    assert_allclose(curves["margin_tanh"](m), 1 - np.tanh(m))
    assert_allclose(curves["hinge"](m), np.maximum(0, 1 - m))


def test_line_search_and_backfit_reach_least_squares(rng):
    X, y = _toy(rng, l=30)
    K = kernel_matrix(X, gamma=0.5)
    f = 0.3 * K[:, 3]
    d = K[:, 7]
    assert_allclose(line_minimize("squared", y, f, d), d @ (y - f) / (d @ d), rtol=ATOL_OPTIM)
    B = K[:, [1, 5, 9, 13]]
    assert_allclose(
        backfit("squared", y, B, np.zeros(4)), np.linalg.lstsq(B, y, rcond=None)[0],
        rtol=1e-5, atol=ATOL_OPTIM,
    )


@pytest.mark.parametrize("loss", ["tanh", "logistic", "exponential", "margin_tanh"])
@pytest.mark.parametrize("fitting", ["basic", "backfit", "prefit"])
def test_non_squared_training_loss_never_increases(loss, fitting):
    ds = datasets.load("moons", n_samples=120, noise=0.25, random_state=1)
    y = np.where(ds.y == 1, 1.0, -1.0)
    D = _with_constant(kernel_matrix(ds.X, gamma=2.0))
    train_index = np.append(np.arange(120), -1)
    steps = list(kmp_steps(D, y, 12, fitting=fitting, loss=loss, backfit_every=3,
                           train_index=train_index))
    losses = [np.mean(LOSSES[loss].value(y, np.zeros(120)))] + [s.train_loss for s in steps]
    assert np.all(np.diff(losses) <= 1e-12)
    for s in steps:
        assert s.backfitted == (fitting != "basic" and s.step % 3 == 0)
        assert_allclose(s.predictions, D[:, s.basis] @ s.coef, atol=ATOL_EXACT)
        assert_allclose(s.residual, -LOSSES[loss].gradient(y, s.predictions), atol=ATOL_EXACT)
        if fitting != "basic":
            assert len(set(s.basis)) == s.step


def test_backfit_is_stationary_after_full_backfit():
    """After Eq. (11) the gradient of the loss is orthogonal to every chosen column."""
    ds = datasets.load("moons", n_samples=100, noise=0.3, random_state=2)
    y = np.where(ds.y == 1, 1.0, -1.0)
    K = kernel_matrix(ds.X, gamma=1.0)
    s = list(kmp_steps(K, y, 6, fitting="backfit", loss="logistic", backfit_every=6))[-1]
    assert s.backfitted
    assert np.max(np.abs(K[:, s.basis].T @ s.residual)) < 1e-5 * np.linalg.norm(s.residual)


# --------------------------------------------------------------------------------------
# Estimators
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def moons():
    ds = datasets.load("moons", n_samples=400, noise=0.2, random_state=0)
    return train_test_split(ds.X, ds.y, test_size=0.5, random_state=0, stratify=ds.y)


@pytest.mark.parametrize(
    "params",
    [dict(fitting="prefit"), dict(fitting="backfit"), dict(fitting="prefit", loss="tanh"),
     dict(fitting="backfit", loss="logistic", backfit_every=5)],
)
def test_moons_accuracy_with_20_basis_functions(moons, params):
    X_train, X_test, y_train, y_test = moons
    clf = KMPClassifier(n_basis=20, gamma=2.0, **params).fit(X_train, y_train)
    assert clf.n_basis_ == 20
    assert clf.score(X_test, y_test) >= 0.9


def test_regressor_staged_predict_matches_the_steps(rng):
    """fit consumes kmp_steps: staged predictions on the training set are the steps'."""
    X, y = _toy(rng, l=50)
    params = dict(gamma=0.7, fitting="prefit", n_candidates=30, random_state=3)
    model = KMPRegressor(n_basis=9, **params).fit(X, y)
    dictionary, steps = kmp_steps_from_data(X, y, 9, **params)
    steps = list(steps)
    staged = list(model.staged_predict(X))
    assert len(staged) == model.n_basis_ == len(steps)
    for s, pred in zip(steps, staged):
        assert_allclose(pred, s.predictions, atol=ATOL_EXACT)
    assert_array_equal(model.basis_indices_, [s.train_index for s in steps])
    assert_allclose(staged[-1], model.predict(X), rtol=0, atol=ATOL_EXACT)
    assert_allclose(model.train_loss_, [s.train_loss for s in steps], rtol=RTOL_EXACT)
    # the candidates of Section 4.1 are the only centres
    assert set(model.basis_indices_[model.basis_indices_ >= 0]) <= set(dictionary.candidates)
    assert dictionary.candidates.size == 30


def test_classifier_staged_outputs(moons):
    X_train, X_test, y_train, _ = moons
    clf = KMPClassifier(n_basis=8, gamma=2.0).fit(X_train, y_train)
    dec = list(clf.staged_decision_function(X_test))
    labels = list(clf.staged_predict(X_test))
    assert len(dec) == len(labels) == 8
    assert_allclose(dec[-1], clf.decision_function(X_test), atol=ATOL_EXACT)
    assert_array_equal(labels[-1], clf.predict(X_test))
    assert_array_equal(labels[0], clf.classes_[(dec[0] > 0).astype(int)])


def test_multiclass_one_vs_rest():
    ds = datasets.load("blobs", n_samples=150, random_state=0)
    clf = KMPClassifier(n_basis=6, gamma=1.0).fit(ds.X, ds.y)
    n_classes = clf.classes_.size
    assert n_classes >= 3
    dec = clf.decision_function(ds.X)
    assert dec.shape == (150, n_classes)
    assert_array_equal(clf.predict(ds.X), clf.classes_[np.argmax(dec, axis=1)])
    assert len(clf.estimators_) == n_classes
    for c in range(n_classes):
        # each class is a binary pursuit on +-1 targets
        y_c = np.where(ds.y == clf.classes_[c], 1.0, -1.0)
        binary = KMPRegressor(n_basis=6, gamma=1.0).fit(ds.X, y_c)
        for name in PURSUIT_ATTRIBUTES:  # the same attributes, with the same types
            mine, theirs = getattr(clf.estimators_[c], name), getattr(binary, name)
            assert type(mine) is type(theirs)
            # the same squared-loss pursuit; t and the bound count errors differently
            # (margin for a classifier, |f - y| > alpha for a regressor)
            if name not in ("n_errors_", "bound_", "validation_error_", "step_seconds_"):
                assert_allclose(np.asarray(mine, dtype=float), np.asarray(theirs, dtype=float),
                                atol=ATOL_EXACT)
        assert pursuit(clf, c) is clf.estimators_[c]
        assert_allclose(dec[:, c], binary.predict(ds.X), atol=ATOL_EXACT)
    staged = list(clf.staged_decision_function(ds.X))
    assert_allclose(staged[-1], dec, atol=ATOL_EXACT)
    assert clf.score(ds.X, ds.y) > 0.9
    with pytest.raises(AttributeError, match=r"estimators_\[c\]\.coef_"):
        clf.coef_


def test_fitted_attribute_types_do_not_depend_on_the_number_of_classes():
    """estimators_ is always a list of KMPPursuit; a two-class fit also reads them directly."""
    X, y = make_blobs(90, centers=3, random_state=0)
    two = KMPClassifier(n_basis=4, gamma=0.5).fit(X, y == 0)
    three = KMPClassifier(n_basis=4, gamma=0.5).fit(X, y)
    assert [len(two.estimators_), len(three.estimators_)] == [1, 3]
    for p in two.estimators_ + three.estimators_:
        assert isinstance(p, KMPPursuit)
        assert isinstance(p.n_basis_, int) and isinstance(p.intercept_, float)
        assert p.coef_path_.shape == (p.n_basis_, p.n_basis_)
    for name in PURSUIT_ATTRIBUTES:
        assert getattr(two, name) is getattr(two.estimators_[0], name)
    assert pursuit(two) is pursuit(two, 0) is two.estimators_[0]
    with pytest.raises(ValueError, match="path"):
        pursuit(three)


def test_intercept_is_a_dictionary_element(rng):
    X = rng.normal(size=(30, 2))
    model = KMPRegressor(n_basis=5, gamma=1.0).fit(X, np.full(30, 3.7))
    assert model.n_basis_ == 1  # the constant fits exactly: the pursuit stops
    assert_array_equal(model.basis_indices_, [-1])
    assert_array_equal(model.basis_kernels_, [-1])
    assert model.coef_.size == 0 and model.support_vectors_.shape == (0, 2)
    assert_allclose(model.intercept_, 3.7, rtol=RTOL_EXACT)
    assert_allclose(model.predict(rng.normal(size=(4, 2))), 3.7, rtol=RTOL_EXACT)
    no_bias = KMPRegressor(n_basis=5, gamma=1.0, fit_intercept=False).fit(X, np.full(30, 3.7))
    assert np.all(no_bias.basis_indices_ >= 0) and no_bias.intercept_ == 0.0


def test_mixed_dictionary(rng):
    X, y = _toy(rng, l=60)
    specs = [{"kernel": "rbf", "gamma": 0.2}, {"kernel": "rbf", "gamma": 5.0},
             {"kernel": "polynomial", "degree": 2}]
    model = KMPRegressor(n_basis=12, kernel=specs).fit(X, y)
    labels = [s.label for s in model.kernel_specs_]
    assert labels == ["rbf(gamma=0.2)", "rbf(gamma=5)", "polynomial(gamma=0.333333, degree=2, coef0=1)"]
    assert set(model.basis_kernels_) <= {-1, 0, 1, 2}
    # predictions are the expansion the attributes describe
    X_new = rng.normal(size=(7, 3))
    keep = model.basis_indices_ >= 0
    manual = np.full(7, model.intercept_)
    for sv, c, j in zip(model.support_vectors_, model.coef_, model.basis_kernels_[keep]):
        manual += c * kernel_matrix(X_new, sv[None, :], **model.kernel_specs_[j].params)[:, 0]
    assert_allclose(model.predict(X_new), manual, atol=ATOL_EXACT)
    # a larger dictionary can only improve the first (greedy, exact) step
    singles = [KMPRegressor(n_basis=1, kernel=[s]).fit(X, y).train_loss_[0] for s in specs]
    assert model.train_loss_[0] <= min(singles) * (1 + RTOL_EXACT)


def test_sigmoid_kernel_is_accepted(moons):
    X_train, X_test, y_train, y_test = moons
    clf = KMPClassifier(n_basis=10, kernel="sigmoid", gamma=0.5, coef0=0.0).fit(X_train, y_train)
    assert np.all(np.isfinite(clf.decision_function(X_test)))
    assert clf.score(X_test, y_test) > 0.5


def test_kernel_specs_normaliser():
    a, b = normalize_kernel_specs([{"kernel": "rbf", "gamma": 2, "degree": 7}, "linear"])
    assert a == KernelSpec("rbf", 2.0) and a.label == "rbf(gamma=2)"
    assert b.label == "linear"
    (c,) = normalize_kernel_specs("rbf", n_features=4)
    assert c.gamma == 0.25
    (s,) = normalize_kernel_specs({"kernel": "sigmoid"}, gamma=0.1, coef0=-1)
    assert s.label == "sigmoid(gamma=0.1, coef0=-1)"
    d = kmp_dictionary(np.zeros((5, 2)), kernel=["rbf", "cosine"], fit_intercept=True)
    assert d.n_columns == 11 and d.label(10) == "constant"
    assert d.label(7) == "cosine at x_2"


# --------------------------------------------------------------------------------------
# Early stopping and the Theorem 3 bound
# --------------------------------------------------------------------------------------


def _bound_from_staged(model, X, y, margin):
    """Theorem 3 recomputed from staged predictions (independent of the fit loop)."""
    m = len(y)
    out = []
    staged = model.staged_decision_function(X) if margin else model.staged_predict(X)
    for i, pred in enumerate(staged):
        chosen = model.basis_indices_[: i + 1]
        outside = np.ones(m, dtype=bool)
        outside[chosen[chosen >= 0]] = False
        wrong = (y * pred <= 0) if margin else (np.abs(pred - y) > model.alpha_)
        k = len(set(zip(chosen, model.basis_kernels_[: i + 1])))
        out.append(kmp_bound(m, k, int(np.sum(wrong & outside)), delta=model.delta))
    return np.array(out)


def test_bound_is_theorem3_of_the_staged_fit():
    ds = datasets.load("boston")
    X = (ds.X - ds.X.mean(0)) / ds.X.std(0)
    model = KMPRegressor(n_basis=25, gamma=0.1).fit(X, ds.y)
    assert model.alpha_ == pytest.approx(0.25 * np.std(ds.y))
    assert_allclose(model.bound_, _bound_from_staged(model, X, ds.y, margin=False), rtol=RTOL_EXACT)
    assert np.all(np.isfinite(model.bound_))


def test_bound_early_stopping_picks_the_argmin():
    ds = datasets.load("boston")
    X = (ds.X - ds.X.mean(0)) / ds.X.std(0)
    full = KMPRegressor(n_basis=40, gamma=0.1).fit(X, ds.y)
    stopped = KMPRegressor(n_basis=40, gamma=0.1, early_stopping="bound").fit(X, ds.y)
    k = int(np.argmin(stopped.bound_)) + 1
    assert stopped.n_basis_ == k < 40
    assert_allclose(stopped.bound_, full.bound_, rtol=RTOL_EXACT)
    assert_array_equal(stopped.basis_indices_, full.basis_indices_[:k])
    assert_allclose(stopped.coef_path_, full.coef_path_[:k, :k], atol=ATOL_EXACT)
    assert len(list(stopped.staged_predict(X))) == k


def test_classifier_bound_counts_misclassified_points_outside_basis(moons):
    X_train, _, y_train, _ = moons
    clf = KMPClassifier(n_basis=15, gamma=2.0, early_stopping="bound").fit(X_train, y_train)
    y_pm = np.where(y_train == clf.classes_[1], 1.0, -1.0)
    assert clf.alpha_ is None
    full = KMPClassifier(n_basis=15, gamma=2.0).fit(X_train, y_train)
    assert_allclose(full.bound_, _bound_from_staged(full, X_train, y_pm, margin=True), rtol=RTOL_EXACT)
    assert clf.n_basis_ == int(np.argmin(clf.bound_)) + 1


@pytest.mark.parametrize("estimator", [KMPRegressor, KMPClassifier])
def test_validation_early_stopping_picks_the_argmin(moons, estimator):
    X_train, _, y_train, _ = moons
    y = y_train.astype(float) if estimator is KMPRegressor else y_train
    model = estimator(n_basis=30, gamma=2.0, early_stopping="validation", validation_fraction=0.3,
                      random_state=0).fit(X_train, y)
    curve = model.validation_error_
    assert curve.shape == (30,) and model.train_loss_.shape == (30,)
    assert model.n_basis_ == int(np.argmin(curve)) + 1
    assert curve[model.n_basis_ - 1] == np.min(curve)
    assert len(list(model.staged_predict(X_train))) == model.n_basis_
    if estimator is KMPClassifier:
        assert np.all((curve >= 0) & (curve <= 1))
    # the support vectors come from the training part only (n_samples - held-out points)
    n_fit = len(y) - int(np.ceil(0.3 * len(y)))
    assert model.n_errors_.max() <= n_fit


def test_random_state_reproducible(moons):
    X_train, _, y_train, _ = moons
    params = dict(n_basis=10, gamma=2.0, n_candidates=50, early_stopping="validation", random_state=7)
    a = KMPClassifier(**params).fit(X_train, y_train)
    b = KMPClassifier(**params).fit(X_train, y_train)
    assert_array_equal(a.basis_indices_, b.basis_indices_)
    assert_array_equal(a.validation_error_, b.validation_error_)


def test_linearly_dependent_dictionary_stops_with_warning(rng):
    X = np.repeat(rng.normal(size=(8, 2)), 3, axis=0)  # 24 rows, 8 distinct points
    y = rng.normal(size=24)
    with pytest.warns(ConvergenceWarning, match="span"):
        model = KMPRegressor(n_basis=20, gamma=1.0, fitting="backfit").fit(X, y)
    assert model.n_basis_ <= 9
    assert np.all(np.isfinite(model.predict(X)))


# --------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "estimator, params, match",
    [
        (KMPRegressor, dict(n_basis=61), "n_basis=61 exceeds the number of training points"),
        (KMPRegressor, dict(gamma=-1.0), "gamma must be a finite number > 0"),
        (KMPRegressor, dict(fitting="greedy"), "Unknown fitting"),
        (KMPRegressor, dict(loss="logistic"), "classification"),
        (KMPClassifier, dict(loss="hinge"), "Unknown loss"),
        (KMPRegressor, dict(kernel="gaussian"), "Unknown kernel"),
        (KMPRegressor, dict(kernel=[]), "empty"),
        (KMPRegressor, dict(kernel=[{"kernel": "rbf", "width": 2}]), "Unknown key"),
        (KMPRegressor, dict(kernel=["rbf", {"kernel": "rbf"}]), "listed twice"),
        (KMPRegressor, dict(backfit_every=0), "backfit_every must be >= 1"),
        (KMPRegressor, dict(early_stopping="patience"), "early_stopping"),
        (KMPRegressor, dict(validation_fraction=1.5), "validation_fraction"),
        (KMPRegressor, dict(alpha=-0.1), "alpha"),
        (KMPRegressor, dict(delta=0.0), "delta"),
        (KMPRegressor, dict(n_candidates=0), "n_candidates"),
        (KMPRegressor, dict(n_basis=50, early_stopping="validation"), "after holding out"),
    ],
)
def test_bad_parameters_raise_value_error(rng, estimator, params, match):
    X = rng.normal(size=(60, 2))
    y = (X[:, 0] > 0).astype(int)
    with pytest.raises(ValueError, match=match):
        estimator(**params).fit(X, y)


def test_bad_data_raise_value_error(rng):
    X = rng.normal(size=(20, 2))
    y = rng.normal(size=20)
    X_nan = X.copy()
    X_nan[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        KMPRegressor(n_basis=3).fit(X_nan, y)
    with pytest.raises(ValueError, match="only one class"):
        KMPClassifier(n_basis=3).fit(X, np.zeros(20, dtype=int))
    with pytest.raises(ValueError, match="Unknown label type"):
        KMPClassifier(n_basis=3).fit(X, y)
    with pytest.raises(TypeError, match="fit_intercept"):
        KMPRegressor(n_basis=3, fit_intercept="yes").fit(X, y)
    with pytest.raises(ValueError, match="train_index"):
        kmp_steps(np.ones((20, 5)), y, 2)
    with pytest.raises(ValueError, match="NaN"):
        kmp_steps(np.full((20, 20), np.nan), y, 2)
    with pytest.raises(ValueError, match="solver"):
        kmp_steps(np.eye(20), y, 2, solver="newton")
    model = KMPRegressor(n_basis=3).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        model.predict(np.ones((2, 3)))


def test_no_warnings_on_a_regular_fit(moons):
    X_train, _, y_train, _ = moons
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        KMPClassifier(n_basis=20, gamma=2.0, fitting="backfit", loss="tanh").fit(X_train, y_train)


# ---- replay_steps: the fitted pursuit's steps, with every column's score ---------------

@pytest.mark.parametrize("loss", ["squared", "logistic", "tanh"])
@pytest.mark.parametrize("fitting", ["basic", "backfit", "prefit"])
@pytest.mark.parametrize("early_stopping", [None, "validation"])
def test_replay_steps_repeats_the_fit_and_its_argmax(loss, fitting, early_stopping):
    from mpcore.kmp import replay_steps

    ds = datasets.load("moons", n_samples=60, noise=0.2, random_state=0)
    X, y = ds.X, ds.y
    model = KMPClassifier(6, loss=loss, fitting=fitting, early_stopping=early_stopping,
                          random_state=0).fit(X, y)
    dictionary, rows, steps = replay_steps(model, X, y)
    assert len(steps) == model.n_basis_
    for s, picked in zip(steps, model.basis_indices_):
        assert s.index == int(np.nanargmax(s.scores))  # the criterion chose it
        assert (rows[s.train_index] if s.train_index >= 0 else -1) == picked
    assert rows.size == (X.shape[0] if early_stopping is None else X.shape[0] - 12)


def test_replay_steps_one_vs_rest_and_regression():
    from mpcore.kmp import replay_steps

    X, y = make_blobs(90, centers=3, random_state=1)
    model = KMPClassifier(5, random_state=0).fit(X, y)
    for c in range(3):
        _, _, steps = replay_steps(model, X, y, c)
        assert [s.train_index for s in steps] == list(model.estimators_[c].basis_indices_)
    t = X[:, 0] - X[:, 1] ** 2
    reg = KMPRegressor(5, kernel=[{"kernel": "rbf", "gamma": g} for g in (0.1, 1.0)]).fit(X, t)
    d, _, steps = replay_steps(reg, X, t)
    assert steps[0].scores.size == d.n_columns
    assert [s.train_index for s in steps] == list(reg.basis_indices_)


def test_replay_steps_refuses_other_data_and_unrepeatable_draws():
    from mpcore.kmp import replay_steps

    X, y = make_blobs(60, centers=2, random_state=2)
    t = X[:, 0].copy()
    reg = KMPRegressor(5).fit(X, t)
    with pytest.raises(ValueError, match="not the data"):
        replay_steps(reg, X, -t + np.sin(3 * X[:, 1]))
    drawn = KMPRegressor(5, early_stopping="validation").fit(X, t)
    with pytest.raises(ValueError, match="integer random_state"):
        replay_steps(drawn, X, t)
