"""``basis_indices_`` names rows of the X given to ``fit``, also with a held-out validation part.

With ``early_stopping="validation"`` the pursuit runs on a subset of the rows;
the indices it reports must still point into the caller's X (a page rings
``X[basis_indices_]``, a notebook user does the same).
"""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.datasets import make_moons

from conftest import ATOL_EXACT
from mpcore.kernels import kernel_matrix
from mpcore.kmp import KMPClassifier, KMPRegressor


@pytest.mark.parametrize("estimator", [KMPClassifier, KMPRegressor])
@pytest.mark.parametrize("early_stopping", [None, "bound", "validation"])
def test_basis_indices_point_into_the_fitted_X(estimator, early_stopping):
    X, y = make_moons(120, noise=0.2, random_state=0)
    target = y if estimator is KMPClassifier else np.sin(3 * X[:, 0]) + y
    model = estimator(n_basis=12, gamma=2.0, early_stopping=early_stopping,
                      validation_fraction=0.3, random_state=0).fit(X, target)
    idx = model.basis_indices_
    keep = idx >= 0
    assert_array_equal(X[idx[keep]], model.support_vectors_)


def test_model_rebuilt_from_the_indexed_rows_predicts_the_same():
    """Eq. (14), f(x) = b + sum_j c_j K(x, x_{gamma_j}), with x_{gamma_j} = X[basis_indices_]."""
    X, y = make_moons(120, noise=0.2, random_state=1)
    model = KMPClassifier(n_basis=15, gamma=2.0, early_stopping="validation",
                          validation_fraction=0.5, random_state=3).fit(X, y)
    idx = model.basis_indices_
    K = kernel_matrix(X, X[idx[idx >= 0]], gamma=2.0)
    assert_allclose(K @ model.coef_ + model.intercept_, model.decision_function(X), atol=ATOL_EXACT)
