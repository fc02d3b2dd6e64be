"""KMP for the page: curves (views.kmp_curves), staged values and mixed dictionaries
(mpcore.kmp), grid and zero level (mpcore.plots.geometry), SVM reference and scores
(views.reference).

Every expectation is computed independently: the estimators' own fitted
attributes and staged outputs (the contract the helpers must agree with),
scikit-learn (SVC/SVR with built-in kernels, metrics), and closed-form level
sets (lines and circles) for the marching squares.
"""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst
from hypothesis.extra import numpy as hnp
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.datasets import make_blobs, make_moons
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import accuracy_score, confusion_matrix, mean_squared_error, r2_score
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC, SVR

from conftest import ATOL_EXACT, RTOL_EXACT
from mpcore.kmp import (
    FITTINGS,
    KernelSpec,
    KMPClassifier,
    KMPRegressor,
    basis_functions,
    has_width,
    mixed_dictionary,
    spec_label,
    staged_values,
)
from mpcore.plots.geometry import GRID_SIZE, grid_2d, zero_level
from views.kmp_curves import kmp_curves
from views.reference import confusion_by_class, scores, step_score, svm_reference

#: The losses a classifier accepts (Vincent & Bengio, Section 3.2).
CLF_LOSSES = ("squared", "tanh", "logistic", "exponential", "margin_tanh")


@pytest.fixture(scope="module")
def moons():
    X, y = make_moons(120, noise=0.25, random_state=0)
    return train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)


@pytest.fixture(scope="module")
def blobs():
    X, y = make_blobs(150, centers=3, cluster_std=1.5, random_state=1)
    return train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)


@pytest.fixture(scope="module")
def wave():
    rng = np.random.default_rng(3)
    X = rng.uniform(-3, 3, size=(90, 1))
    y = np.sin(X[:, 0]) + 0.1 * rng.normal(size=90)
    return train_test_split(X, y, test_size=0.3, random_state=0)


def _fit(est, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return est.fit(X, y)


def _curves(est, *data):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return kmp_curves(est, *data)


# ---------------------------------------------------------------- kmp_curves = fit


@pytest.mark.parametrize("fitting", FITTINGS)
@pytest.mark.parametrize("loss", CLF_LOSSES)
def test_curves_run_the_estimators_pursuit(moons, fitting, loss):
    """Same choices, bound and training loss as fit(); test error = 1 - score after the last step."""
    X, Xt, y, yt = moons
    est = KMPClassifier(8, gamma=2.0, fitting=fitting, loss=loss)
    c = _curves(est, X, y, Xt, yt)
    model = _fit(est, X, y)
    assert_array_equal(c.paths[0].basis, model.basis_indices_)
    assert_array_equal(c.paths[0].kernels, model.basis_kernels_)
    assert_allclose(c.paths[0].bound, model.bound_, rtol=RTOL_EXACT)
    assert_allclose(c.paths[0].train_loss, model.train_loss_, rtol=RTOL_EXACT)
    assert_array_equal(c.paths[0].n_errors, model.n_errors_)
    assert c.test_error[-1] == pytest.approx(1 - model.score(Xt, yt), abs=ATOL_EXACT)
    assert c.train_error[-1] == pytest.approx(1 - model.score(X, y), abs=ATOL_EXACT)
    # binary: the bound's test error is the misclassification rate
    assert_allclose(c.test_exceed, c.test_error, atol=ATOL_EXACT)
    assert_allclose(c.paths[0].test_exceed, c.test_error, atol=ATOL_EXACT)
    assert np.all(c.paths[0].seconds >= 0) and c.seconds.shape == (c.n_steps,)


def test_curves_match_staged_errors_at_every_step(moons):
    X, Xt, y, yt = moons
    est = KMPClassifier(12, gamma=2.0, fitting="prefit")
    c = _curves(est, X, y, Xt, yt)
    model = _fit(est, X, y)
    staged_test = [np.mean(p != yt) for p in model.staged_predict(Xt)]
    staged_train = [np.mean(p != y) for p in model.staged_predict(X)]
    assert_allclose(c.test_error, staged_test, atol=ATOL_EXACT)
    assert_allclose(c.train_error, staged_train, atol=ATOL_EXACT)


def test_curves_one_vs_rest_paths(blobs):
    """One pursuit per class, each equal to the estimator's; errors from the argmax rule."""
    X, Xt, y, yt = blobs
    est = KMPClassifier(6, gamma=0.5, fitting="backfit")
    c = _curves(est, X, y, Xt, yt)
    model = _fit(est, X, y)
    assert len(c.paths) == 3
    for k in range(3):
        assert_array_equal(c.paths[k].basis, model.estimators_[k].basis_indices_)
        assert_allclose(c.paths[k].bound, model.estimators_[k].bound_, rtol=RTOL_EXACT)
        # class k against the rest, by the sign of its own decision function
        dec = model.decision_function(Xt)[:, k]
        rest = np.mean((dec > 0) != (yt == model.classes_[k]))
        assert c.paths[k].test_exceed[-1] == pytest.approx(rest)
    staged = [np.mean(p != yt) for p in model.staged_predict(Xt)]
    assert_allclose(c.test_error, staged, atol=ATOL_EXACT)


def test_curves_regression(wave):
    """MSE after each step equals staged_predict's; the bound's error counts |f - y| > alpha."""
    X, Xt, y, yt = wave
    est = KMPRegressor(10, gamma=1.0, fitting="backfit")
    c = _curves(est, X, y, Xt, yt)
    model = _fit(est, X, y)
    assert c.alpha == pytest.approx(model.alpha_)
    assert_allclose(c.paths[0].bound, model.bound_, rtol=RTOL_EXACT)
    preds = list(model.staged_predict(Xt))
    assert_allclose(c.test_error, [mean_squared_error(yt, p) for p in preds], rtol=RTOL_EXACT)
    assert_allclose(c.test_exceed, [np.mean(np.abs(p - yt) > c.alpha) for p in preds], atol=ATOL_EXACT)
    assert c.task == "regression" and c.classes is None and c.m == len(X)


def test_curves_ignore_early_stopping(moons):
    """The curves run to n_basis; the estimator with early stopping keeps a prefix of them."""
    X, Xt, y, yt = moons
    est = KMPClassifier(15, gamma=2.0, early_stopping="bound")
    c = _curves(est, X, y, Xt, yt)
    stopped = _fit(est, X, y)
    assert c.n_steps == 15
    assert_array_equal(c.paths[0].basis[: stopped.n_basis_], stopped.basis_indices_)
    assert stopped.n_basis_ == int(np.argmin(c.paths[0].bound)) + 1


def test_curves_mixed_dictionary(moons):
    X, Xt, y, yt = moons
    specs = mixed_dictionary("rbf", gamma=2.0, mode="widths")
    est = KMPClassifier(10, kernel=specs)
    c = _curves(est, X, y, Xt, yt)
    model = _fit(est, X, y)
    assert_array_equal(c.paths[0].kernels, model.basis_kernels_)
    assert c.spec_labels == tuple(s.label for s in model.kernel_specs_)


@pytest.mark.parametrize("bad, match", [
    (dict(estimator="not an estimator"), "KMPClassifier or KMPRegressor"),
    (dict(n_basis=500), "exceeds the number of training points"),
])
def test_curves_refuse_bad_input(moons, bad, match):
    X, Xt, y, yt = moons
    est = bad.get("estimator", KMPClassifier(bad.get("n_basis", 5)))
    with pytest.raises((ValueError, TypeError), match=match):
        kmp_curves(est, X, y, Xt, yt)


# ---------------------------------------------------------------- staged values, basis functions


def test_staged_values_equal_the_estimators_staged_outputs(moons, wave):
    X, Xt, y, _ = moons
    clf = _fit(KMPClassifier(9, gamma=2.0, fitting="basic"), X, y)
    assert_allclose(staged_values(clf, Xt), np.array(list(clf.staged_decision_function(Xt))),
                    atol=ATOL_EXACT)
    Xr, Xrt, yr, _ = wave
    reg = _fit(KMPRegressor(7, gamma=1.0), Xr, yr)
    assert_allclose(staged_values(reg, Xrt), np.array(list(reg.staged_predict(Xrt))), atol=ATOL_EXACT)
    assert_allclose(staged_values(reg, Xrt)[-1], reg.predict(Xrt), atol=ATOL_EXACT)


def test_basis_functions_rebuild_eq14(moons):
    """f(x) = b + sum_j c_j K_s(x, x_j): each column is one chosen function, the constant is 1."""
    X, Xt, y, _ = moons
    specs = mixed_dictionary("rbf", gamma=2.0, mode="types")
    clf = _fit(KMPClassifier(12, kernel=specs), X, y)
    B = basis_functions(clf, Xt)
    assert B.shape == (len(Xt), clf.n_basis_)
    assert_allclose(B[:, clf.basis_indices_ < 0], 1.0)
    last = clf.coef_path_[-1]
    assert_allclose(B @ last, clf.decision_function(Xt), atol=ATOL_EXACT)


def test_staged_values_one_vs_rest_needs_a_class(blobs):
    X, Xt, y, _ = blobs
    clf = _fit(KMPClassifier(5, gamma=0.5), X, y)
    with pytest.raises(ValueError, match="path"):
        staged_values(clf, Xt)
    for k in range(3):
        assert_allclose(staged_values(clf, Xt, k)[-1], clf.decision_function(Xt)[:, k], atol=ATOL_EXACT)


# ---------------------------------------------------------------- mixed dictionaries


def test_mixed_dictionary_widths_and_types():
    widths = mixed_dictionary("rbf", gamma=2.0, mode="widths")
    # sigma' = f sigma with gamma = 1/(2 sigma^2): gamma' = gamma / f^2
    assert [w["gamma"] for w in widths] == pytest.approx([8.0, 2.0, 0.5])
    lap = mixed_dictionary("laplacian", gamma=2.0, mode="widths")
    assert [w["gamma"] for w in lap] == pytest.approx([4.0, 2.0, 1.0])
    types = mixed_dictionary("rbf", gamma=0.5, mode="types")
    assert [t["kernel"] for t in types] == ["rbf", "laplacian", "polynomial"]
    assert types[0]["gamma"] == pytest.approx(0.5)  # sigma = 1 from gamma = 1/2
    assert types[1]["gamma"] == pytest.approx(1.0)
    assert mixed_dictionary("linear") == [{"kernel": "linear"}]
    assert not has_width("linear") and has_width("sigmoid")


@pytest.mark.parametrize("kwargs, match", [
    (dict(kernel="linear", mode="widths"), "no width"),
    (dict(kernel="rbf", mode="widths"), "explicit gamma"),
    (dict(kernel="rbf", mode="nonsense"), "Unknown dictionary mode"),
])
def test_mixed_dictionary_refuses(kwargs, match):
    with pytest.raises(ValueError, match=match):
        mixed_dictionary(**kwargs)


def test_spec_label_uses_sigma():
    assert spec_label(KernelSpec("rbf", gamma=0.5)) == "Gaussian σ = 1"
    assert spec_label(KernelSpec("laplacian", gamma=4.0)) == "Laplacian σ = 0.25"
    assert spec_label(KernelSpec("linear")) == "linear"


# ---------------------------------------------------------------- grid and zero level


def test_grid_is_row_major_and_covers_the_data(rng):
    X = rng.normal(size=(40, 2))
    xs, ys, pts = grid_2d(X)
    assert xs.size == ys.size == GRID_SIZE and pts.shape == (GRID_SIZE**2, 2)
    i, j = 7, 11
    assert_array_equal(pts[i * GRID_SIZE + j], [xs[j], ys[i]])
    assert xs[0] < X[:, 0].min() and xs[-1] > X[:, 0].max()
    assert ys[0] < X[:, 1].min() and ys[-1] > X[:, 1].max()
    with pytest.raises(ValueError, match="shape"):
        grid_2d(rng.normal(size=(5, 3)))


@settings(max_examples=40, deadline=None)
@given(a=hst.floats(-3, 3), b=hst.floats(-3, 3), c=hst.floats(-1, 1))
def test_zero_level_of_a_plane_lies_on_its_line(a, b, c):
    """Linear interpolation is exact for a linear function: every end point satisfies it."""
    if abs(a) + abs(b) < 1e-3:
        return
    xs, ys = np.linspace(-2, 2, 23), np.linspace(-1.5, 1.5, 17)
    gx, gy = np.meshgrid(xs, ys)
    x, y = zero_level(xs, ys, a * gx + b * gy + c)
    ok = ~np.isnan(x)
    assert_allclose(a * x[ok] + b * y[ok] + c, 0.0, atol=1e-9)
    assert np.all(np.isnan(x[2::3])) and np.all(np.isnan(y[2::3]))  # a NaN after every segment


def test_zero_level_of_a_circle_is_near_the_circle():
    xs, ys = np.linspace(-2, 2, 81), np.linspace(-2, 2, 81)
    gx, gy = np.meshgrid(xs, ys)
    x, y = zero_level(xs, ys, gx**2 + gy**2 - 1.0)
    r = np.hypot(x, y)[~np.isnan(x)]
    h = xs[1] - xs[0]
    assert np.all(np.abs(r - 1.0) < h**2)  # interpolation error of a smooth curve: O(h^2)
    # every cell the circle crosses contributes a segment: about 2 pi / h of them
    assert r.size / 2 > 0.8 * 2 * np.pi / h


def test_zero_level_empty_and_saddle():
    xs = ys = np.linspace(-1, 1, 5)
    gx, gy = np.meshgrid(xs, ys)
    x, _ = zero_level(xs, ys, gx**2 + 1.0)
    assert x.size == 0
    # a saddle cell gives two segments whose end points are all zeros of the bilinear function
    xs2 = ys2 = np.array([-1.0, 1.0])
    Z = np.array([[1.0, -1.0], [-1.0, 1.0]]) + 0.2
    x, y = zero_level(xs2, ys2, Z)
    assert np.count_nonzero(np.isnan(x)) == 2
    ok = ~np.isnan(x)
    u, v = (x[ok] + 1) / 2, (y[ok] + 1) / 2  # bilinear interpolation of the four corners
    f = (Z[0, 0] * (1 - u) * (1 - v) + Z[0, 1] * u * (1 - v) + Z[1, 0] * (1 - u) * v
         + Z[1, 1] * u * v)
    assert_allclose(f, 0.0, atol=ATOL_EXACT)
    with pytest.raises(ValueError, match="shape"):
        zero_level(xs, ys, np.zeros((3, 3)))


# ---------------------------------------------------------------- SVM reference and scores


def test_svm_reference_equals_sklearns_builtin_kernel(moons):
    X, Xt, y, yt = moons
    ref = svm_reference(X, y, task="classification", kernel="rbf", gamma=2.0, C=10.0)
    sk = SVC(kernel="rbf", gamma=2.0, C=10.0).fit(X, y)
    assert ref.n_support == sk.n_support_.sum()
    assert_array_equal(np.sort(ref.support), np.sort(sk.support_))
    assert_allclose(ref.decision_function(Xt), sk.decision_function(Xt), atol=1e-6)
    assert_array_equal(ref.predict(Xt), sk.predict(Xt))


def test_svm_reference_regression_and_errors(wave):
    X, Xt, y, _ = wave
    ref = svm_reference(X, y, task="regression", kernel="rbf", gamma=1.0, C=10.0)
    sk = SVR(kernel="rbf", gamma=1.0, C=10.0, epsilon=0.1 * np.std(y)).fit(X, y)
    assert_allclose(ref.decision_function(Xt), sk.predict(Xt), atol=1e-6)
    with pytest.raises(ValueError, match="task"):
        svm_reference(X, y, task="clustering")
    with pytest.raises(ValueError, match="C"):
        svm_reference(X, y, task="regression", C=0.0)


def test_svm_reference_accepts_the_sigmoid_kernel(moons):
    """Not PSD, but libsvm still runs on the precomputed matrix (the KMP page compares with it)."""
    X, Xt, y, _ = moons
    ref = svm_reference(X, y, task="classification", kernel="sigmoid", gamma=0.5, coef0=0.0)
    assert np.all(np.isfinite(ref.decision_function(Xt)))


@settings(max_examples=150, deadline=None)
@given(data=hst.data(), n=hst.integers(1, 12))
def test_confusion_by_class_sums_up_each_row(data, n):
    """Each true class's row of scikit-learn's confusion matrix: its points, the diagonal, and
    the predicted class with the most of the rest (the first on a tie), or none when the row
    is all on the diagonal."""
    y = np.asarray(data.draw(hst.lists(hst.integers(0, n - 1), min_size=1, max_size=80)))
    p = np.asarray(data.draw(hst.lists(hst.integers(0, n - 1), min_size=y.size,
                                       max_size=y.size)))
    labels = [f"c{i}" for i in range(n)]
    C = confusion_matrix(y, p, labels=range(n))
    rows = confusion_by_class(C, labels)
    assert [r["true class"] for r in rows] == labels
    for i, r in enumerate(rows):
        wrong = p[(y == i) & (p != i)]
        assert r["test points"] == np.sum(y == i)
        assert r["predicted right"] == np.sum((y == i) & (p == i))
        if wrong.size == 0:
            assert r["instead"] is None and r["instead, points"] == 0
        else:
            counts = np.bincount(wrong, minlength=n)
            assert r["instead"] == labels[int(np.flatnonzero(counts == counts.max())[0])]
            assert r["instead, points"] == counts.max()


@pytest.mark.parametrize("shape, labels", [((2, 3), 2), ((3, 3), 2), ((3,), 3)])
def test_confusion_by_class_refuses_a_matrix_that_is_not_one_row_a_label(shape, labels):
    with pytest.raises(ValueError, match="square matrix with one row per label"):
        confusion_by_class(np.zeros(shape, dtype=int), [str(i) for i in range(labels)])


def test_scores_match_sklearn(rng):
    y = rng.integers(0, 3, 50)
    p = rng.integers(0, 3, 50)
    s = scores("classification", y, p, classes=[0, 1, 2])
    assert s["accuracy"] == pytest.approx(accuracy_score(y, p))
    assert_array_equal(s["confusion"], confusion_matrix(y, p, labels=[0, 1, 2]))
    yr, pr = rng.normal(size=30), rng.normal(size=30)
    s = scores("regression", yr, pr)
    assert s["rmse"] == pytest.approx(np.sqrt(mean_squared_error(yr, pr)))
    assert s["r2"] == pytest.approx(r2_score(yr, pr))


@settings(max_examples=60, deadline=None)
@given(labels=hst.lists(hst.tuples(hst.sampled_from(["a", "b", "|c*"]),
                                   hst.sampled_from(["a", "b", "|c*"])), min_size=1, max_size=40),
       values=hnp.arrays(float, hnp.array_shapes(min_dims=1, max_dims=1, max_side=40)
                         .map(lambda sh: (sh[0], 2)),
                         elements=hst.floats(-1e6, 1e6, allow_nan=False)))
def test_step_score_is_sklearns_accuracy_and_rmse(labels, values):
    """The live view's per-step number (plain NumPy) is scikit-learn's accuracy / RMSE."""
    y, p = (np.array(c, dtype=object) for c in zip(*labels))
    assert step_score("classification", y, p) == pytest.approx(accuracy_score(y, p),
                                                               rel=RTOL_EXACT)
    yr, pr = values[:, 0], values[:, 1]
    assert step_score("regression", yr, pr) == pytest.approx(
        np.sqrt(mean_squared_error(yr, pr)), rel=1e-9, abs=1e-9)
