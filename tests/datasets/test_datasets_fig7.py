"""The "far_cluster" data set: Vincent & Bengio's Figure 7 situation.

The claim of the figure, checked on every seed: the data are linearly
separable (a linear SVM makes no training error), yet the linear
least-squares classifier, computed here by numpy's lstsq with an intercept,
misclassifies points; KMP with the squared loss and a linear kernel is that
least-squares fit, and KMP with the tanh loss separates the data.
"""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

import datasets
from mpcore.kmp import KMPClassifier

SEEDS = range(8)
#: Misclassified training points of the least-squares fit, at least (the effect is visible).
MIN_LSQ_ERRORS = 3


def _lstsq_errors(X, y):
    A = np.column_stack([X, np.ones(len(X))])
    w = np.linalg.lstsq(A, np.where(y == 1, 1.0, -1.0), rcond=None)[0]
    return int(np.sum((A @ w > 0) != (y == 1)))


def test_registered_as_2d_classification():
    assert "far_cluster" in datasets.names()
    entry = datasets.info("far_cluster")
    assert entry.task == "classification" and entry.kind == "synthetic"
    d = datasets.load("far_cluster")
    assert d.X.shape == (entry.default_n, 2) and set(np.unique(d.y)) == {0, 1}
    # a quarter of the points form the far cluster around (6, -4), all of class 1
    far = np.hypot(d.X[:, 0] - 6.0, d.X[:, 1] + 4.0) < 2.0
    assert far.sum() == entry.default_n // 4 and np.all(d.y[far] == 1)


def test_seeded_and_sized():
    a = datasets.load("far_cluster", n_samples=40, noise=0.2, random_state=5)
    b = datasets.load("far_cluster", n_samples=40, noise=0.2, random_state=5)
    assert_array_equal(a.X, b.X)
    assert_array_equal(a.y, b.y)
    assert not np.array_equal(a.X, datasets.load("far_cluster", n_samples=40, random_state=6).X)
    small = datasets.load("far_cluster", n_samples=datasets.info("far_cluster").min_n)
    assert np.unique(small.y).size == 2


@pytest.mark.parametrize("standardize", [False, True], ids=["raw", "standardised"])
@pytest.mark.parametrize("seed", SEEDS)
def test_least_squares_misclassifies_separable_data(seed, standardize):
    d = datasets.load("far_cluster", random_state=seed)
    X = StandardScaler().fit_transform(d.X) if standardize else np.asarray(d.X)
    svm = SVC(kernel="linear", C=1e4).fit(X, d.y)
    assert np.all(svm.predict(X) == d.y), "the data should be linearly separable"
    errors = _lstsq_errors(X, d.y)
    assert errors >= MIN_LSQ_ERRORS
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        # a linear kernel in 2-D spans 3 functions with the constant: 3 steps reach least squares
        mse = KMPClassifier(3, kernel="linear", fitting="prefit").fit(X, d.y)
        tanh = KMPClassifier(3, kernel="linear", fitting="backfit", loss="tanh").fit(X, d.y)
    assert np.sum(mse.predict(X) != d.y) == errors
    assert np.all(tanh.predict(X) == d.y)
