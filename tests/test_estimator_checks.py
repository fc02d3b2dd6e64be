"""scikit-learn's estimator checks for the mpcore estimators.

``SparseKCCA`` is two-view (``transform(X, Y)``) and is left out on purpose.
Besides the defaults, a few non-default configurations exercise the other code
paths (non-squared loss with periodic back-fitting, basic matching pursuit
with a mixed dictionary and random candidates, both early-stopping rules); they
use ``n_basis=5`` because some checks fit on 10 samples and validation
holds out a fifth of them.

scikit-learn itself skips ``check_array_api_input`` (8 reported skips) unless
``SCIPY_ARRAY_API=1`` is set and an array-API library is installed: mpcore is
NumPy-only by design (the pages and notebooks pass NumPy arrays), so that
check does not apply; every other check runs and passes.
"""

from sklearn.utils.estimator_checks import parametrize_with_checks

from mpcore.kmp import KMPClassifier, KMPRegressor
from mpcore.skpca import SparseKPCA

ESTIMATORS = [
    SparseKPCA(),
    KMPRegressor(),
    KMPClassifier(),
    KMPClassifier(n_basis=5, loss="tanh", fitting="backfit", backfit_every=2),
    KMPClassifier(n_basis=5, loss="logistic", fitting="prefit", early_stopping="bound"),
    KMPRegressor(n_basis=5, fitting="basic", n_candidates=8,
                 kernel=[{"kernel": "rbf", "gamma": 0.5}, "linear"]),
    KMPRegressor(n_basis=5, early_stopping="validation", random_state=0),
    KMPClassifier(n_basis=5, early_stopping="validation", random_state=0),
]

#: Checks expected to fail, with the reason. None at present: every check passes.
EXPECTED_FAILED_CHECKS = {}


def _expected_failed_checks(estimator):
    return EXPECTED_FAILED_CHECKS.get(type(estimator).__name__, {})


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=_expected_failed_checks)
def test_sklearn_compatible(estimator, check):
    check(estimator)
