"""Parameter validation declared once per estimator, as data.

Each estimator's ``_parameter_constraints`` (scikit-learn's constraint objects)
covers exactly its constructor parameters, and :func:`mpcore._validation.check_parameters`
refuses what the declaration refuses, with a message naming the parameter: for
every parameter, scikit-learn's own generator of an invalid value (the one its
``check_param_validation`` uses) makes ``fit`` raise InvalidParameterError
(a ValueError and a TypeError) before any work, and a valid value passes.
"""

import numpy as np
import pytest
from sklearn.utils._param_validation import (
    InvalidParameterError,
    generate_invalid_param_val,
    generate_valid_param,
    make_constraint,
)

from mpcore._arguments import check_parameters
from mpcore.kcca import SparseKCCA
from mpcore.kmp import KMPClassifier, KMPRegressor
from mpcore.skpca import SparseKPCA

ESTIMATORS = [SparseKPCA, KMPRegressor, KMPClassifier, SparseKCCA]
X = np.random.default_rng(0).normal(size=(30, 2))
Y = (X[:, 0] > 0).astype(int)


def _case_list():
    out = []
    for cls in ESTIMATORS:
        for name, options in cls._parameter_constraints.items():
            if options == "no_validation":  # scikit-learn's word for "checked in fit": SparseKPCA's
                continue  # dtype, whose refusals tests/mpcore/test_skpca_scale.py checks
            out.append(pytest.param(cls, name, options, id=f"{cls.__name__}-{name}"))
    return out


@pytest.mark.parametrize("cls", ESTIMATORS, ids=lambda c: c.__name__)
def test_constraints_cover_exactly_the_parameters(cls):
    assert set(cls._parameter_constraints) == set(cls().get_params())
    check_parameters(cls())  # the defaults are valid


@pytest.mark.parametrize("cls, name, options", _case_list())
def test_invalid_values_are_refused_naming_the_parameter(cls, name, options):
    constraints = [make_constraint(o) for o in options]
    for constraint in constraints:
        try:
            bad = generate_invalid_param_val(constraint)
        except NotImplementedError:
            continue
        if any(c.is_satisfied_by(bad) for c in constraints):
            continue
        est = cls(**{name: bad})
        with pytest.raises(InvalidParameterError, match=name):
            est.fit(X, X if cls is SparseKCCA else Y)  # SparseKCCA: two views


@pytest.mark.parametrize("cls, name, options", _case_list())
def test_valid_values_pass_the_declaration(cls, name, options):
    for constraint in map(make_constraint, options):
        try:
            good = generate_valid_param(constraint)
        except (NotImplementedError, TypeError):  # a type with required arguments
            continue
        if name == "kernel" and not isinstance(good, str):
            continue  # a placeholder dict / list: the specification itself is checked in fit
        check_parameters(cls(**{name: good}))


@pytest.mark.parametrize("bad, message", [
    (dict(n_basis=0), "n_basis must be >= 1, got 0."),
    (dict(fitting="greedy"), "Unknown fitting 'greedy'. Choose one of: backfit, basic, prefit."),
    (dict(early_stopping="patience"),
     "Unknown early_stopping 'patience'. Choose one of: None, bound, validation."),
    (dict(fit_intercept=1), "fit_intercept must be True or False, got 1."),
    (dict(delta=1.0), "delta must lie strictly between 0 and 1, got 1.0."),
    (dict(gamma=float("inf")), "gamma must be a finite number > 0, got inf."),
])
def test_messages_say_what_to_change(bad, message):
    with pytest.raises(InvalidParameterError) as info:
        KMPRegressor(**bad).fit(X, Y.astype(float))
    assert str(info.value) == message


@pytest.mark.parametrize("value", [np.float32(3.0), np.float16(0.5), np.int8(2)])
def test_numpy_scalars_are_checked_as_the_numbers_they_hold(value):
    """A NumPy scalar is compared with the bounds (1e300-like) without a narrowing cast:
    found by tests/mpcore/test_fuzz_estimators.py (np.float32 gamma overflowed a float32 cast)."""
    import warnings

    rng = np.random.default_rng(0)
    X, Y = rng.normal(size=(12, 2)), rng.normal(size=(12, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = SparseKCCA(2, gamma_x=value, gamma_y=value).fit(X, Y)
    assert model.gamma_x == value
    with pytest.raises(ValueError, match="gamma_x"):
        SparseKCCA(2, gamma_x=np.float32(-1.0)).fit(X, Y)
