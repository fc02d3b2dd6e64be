"""Limits and argument checks shared by every mpcore module: scalars, seeds, data
arrays, kernel names and estimator parameters.

Every refusal is a TypeError (not the right kind of value) or a ValueError (the right
kind, out of range) whose message names the parameter and says what to pass instead.
The checks of a kernel matrix itself (square, symmetric, positive semi-definite) and
:func:`~mpcore.validated_kernel` live in :mod:`mpcore._validation`.
"""

from __future__ import annotations

import math
import numbers
import re

import numpy as np
import scipy.sparse
from sklearn.utils._param_validation import (
    Interval,
    InvalidParameterError,
    StrOptions,
    validate_parameter_constraints,
)

#: Largest absolute value accepted in data and kernel matrices. Kernels square their
#: inputs (||x - y||^2, (x'y)^d, K^2), so larger values overflow to inf.
MAX_ABS_VALUE = 1e150

#: Largest absolute value accepted in a kernel matrix (or KMP dictionary): the methods
#: form K^2, ||K e_i||^2 and products of three kernel values, which overflow beyond it.
MAX_KERNEL_VALUE = 1e100

#: Smallest largest-magnitude of a non-zero kernel matrix: below it K^2 underflows to 0
#: (subnormal numbers) and the Rayleigh quotients lose every digit.
MIN_KERNEL_VALUE = 1e-100

#: Largest number of entries of a kernel matrix formed in memory (8 bytes each: 3.2 GB,
#: a 20,000 x 20,000 matrix). Larger requests are refused instead of raising MemoryError.
MAX_KERNEL_ENTRIES = 400_000_000

#: Largest number of greedy steps any pursuit accepts (basic matching pursuit may repeat
#: columns, so its step count is not bounded by the number of points).
MAX_STEPS = 100_000

#: Largest integer seed: numpy's RandomState takes seeds in [0, 2**32 - 1].
MAX_SEED = 2**32 - 1

#: Kernels that are positive semi-definite for every admissible parameter value
#: (the polynomial kernel only for coef0 >= 0: see :func:`mpcore.kernels.psd_status`).
PSD_KERNELS = ("rbf", "laplacian", "polynomial", "linear", "cosine")
#: Every kernel name mpcore accepts.
KERNELS = PSD_KERNELS + ("sigmoid",)


def sigmoid_message(where="this method", name="kernel"):
    """Why the sigmoid kernel is refused where a PSD kernel is needed."""
    return (
        f"{name}='sigmoid': the sigmoid kernel tanh(gamma x'y + coef0) is not positive "
        "semi-definite in general (it fails Mercer's condition for most gamma and coef0), "
        f"but {where} needs a PSD kernel matrix (its Rayleigh quotients and deflation "
        "assume K = Phi Phi'). Choose rbf, laplacian, linear, cosine, or polynomial with coef0 >= 0. (Kernel "
        "matching pursuit accepts 'sigmoid': it does not need Mercer's condition.)"
    )


def check_kernel_name(kernel, *, allow_non_psd=True, where="this method", name="kernel"):
    """Return ``kernel`` if it is a known kernel name, else raise ValueError naming ``name``."""
    if not isinstance(kernel, str) or kernel not in KERNELS:
        which = "" if name == "kernel" else f" for {name}"
        raise ValueError(
            f"Unknown kernel {_short(kernel)}{which}. Choose one of: {', '.join(KERNELS)}."
        )
    if not allow_non_psd and kernel not in PSD_KERNELS:
        raise ValueError(sigmoid_message(where, name))
    return kernel


def _short(value, limit=60):
    """repr of a value, cut to ``limit`` characters (for error messages)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_positive_int(value, name, *, minimum=1, maximum=None):
    """Return ``value`` as int if it is an integer in [minimum, maximum]."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {_short(value)}.")
    value = int(value)
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}.")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {value}.")
    return value


def check_positive_float(value, name, *, allow_none=False, strict=True, maximum=None):
    """Return ``value`` as float if it is a finite number > 0 (>= 0 if not strict), <= maximum."""
    if value is None and allow_none:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {_short(value)}.")
    try:
        value = float(value)
    except OverflowError:  # a Python int beyond the float range
        raise ValueError(f"{name} is too large to be a float, got {_short(value)}.") from None
    if not np.isfinite(value) or value < 0 or (strict and value == 0):
        sign = "> 0" if strict else ">= 0"
        raise ValueError(f"{name} must be a finite number {sign}, got {value!r}.")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be <= {maximum:g}, got {value!r}.")
    return value


def check_finite_float(value, name, *, allow_none=False):
    """Return ``value`` as a finite float (any sign), else a TypeError/ValueError naming it."""
    if value is None and allow_none:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {_short(value)}.")
    try:
        value = float(value)
    except OverflowError:
        raise ValueError(f"{name} is too large to be a float, got {_short(value)}.") from None
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}.")
    return value


def check_bool(value, name):
    """Return ``value`` if it is True or False (numpy booleans included)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {_short(value)}.")
    return bool(value)


def check_seed(random_state, name="random_state"):
    """Validate a seed: None, an int in [0, 2**32 - 1], a RandomState or a Generator.

    Returns it unchanged, so it can be passed to ``check_random_state``.
    """
    if random_state is None or isinstance(random_state, (np.random.RandomState,
                                                         np.random.Generator)):
        return random_state
    if isinstance(random_state, (bool, np.bool_)) or not isinstance(random_state,
                                                                    numbers.Integral):
        raise TypeError(
            f"{name} must be an integer seed (0 to {MAX_SEED}), None or a "
            f"numpy RandomState, got {_short(random_state)}."
        )
    if not 0 <= random_state <= MAX_SEED:
        raise ValueError(f"{name} must lie between 0 and {MAX_SEED}, got {random_state}.")
    return int(random_state)


def check_random_state_arg(random_state, name="random_state"):
    """``sklearn.utils.check_random_state`` after :func:`check_seed` (a RandomState)."""
    from sklearn.utils import check_random_state

    random_state = check_seed(random_state, name)
    if isinstance(random_state, np.random.Generator):
        # scikit-learn's helpers take a RandomState; derive one from the Generator
        return np.random.RandomState(random_state.integers(0, MAX_SEED, endpoint=True))
    return check_random_state(random_state)


def check_probability(value, name):
    """Return ``value`` if it lies in the open interval (0, 1)."""
    value = check_positive_float(value, name)
    if not value < 1:
        raise ValueError(f"{name} must lie strictly between 0 and 1, got {value!r}.")
    return value


def _as_float_array(A, name):
    """``A`` as a float ndarray, or a TypeError/ValueError that names ``name``.

    Refuses None, strings, scipy sparse matrices, complex values, ragged nested lists and
    objects that are not numbers, with a message saying what to pass instead.
    """
    if A is None:
        raise TypeError(f"{name} must be an array of numbers, got None.")
    if scipy.sparse.issparse(A):
        raise TypeError(
            f"{name} is a scipy sparse matrix; sparse input is not supported here. Pass a "
            f"dense array, e.g. {name}.toarray()."
        )
    if isinstance(A, (str, bytes)):
        raise TypeError(f"{name} must be an array of numbers, got the string {_short(A)}.")
    try:
        arr = np.asarray(A)
    except (ValueError, TypeError) as exc:
        raise ValueError(
            f"{name} could not be read as a rectangular array of numbers ({exc})."
        ) from None
    kind = arr.dtype.kind
    if kind in "US":
        raise TypeError(
            f"{name} holds strings (dtype {arr.dtype}); it must hold numbers. Convert text "
            "to numbers first."
        )
    if kind == "c":
        raise ValueError(
            f"Complex data not supported: {name} has complex values. Kernels here are real; "
            f"pass {name}.real if the imaginary part is zero."
        )
    if kind in "MmV":
        raise TypeError(f"{name} must hold numbers, got dtype {arr.dtype}.")
    if kind == "O":
        for v in arr.flat:
            if v is None:
                raise TypeError(
                    f"{name} must be an array of numbers, but it contains None (a missing "
                    "value). Remove or impute the missing values first."
                )
            if isinstance(v, complex) or (isinstance(v, numbers.Complex)
                                          and not isinstance(v, numbers.Real)):
                raise ValueError(
                    f"Complex data not supported: {name} has complex values. Kernels here "
                    f"are real; pass the real part if the imaginary part is zero."
                )
        try:
            arr = arr.astype(float)
        except (TypeError, ValueError) as exc:
            raise type(exc)(
                f"{name} must be an array of numbers only, but an entry could not be "
                f"converted: {exc}. Remove or encode the non-numeric entries."
            ) from None
        return arr
    if kind == "f" and arr.dtype.itemsize > 8:  # longdouble beyond float64
        with np.errstate(over="ignore"):
            return arr.astype(float)
    return arr.astype(float, copy=False)


def check_array_data(A, name, *, ndim=2, min_rows=1, min_cols=1, finite=True,
                     max_abs=MAX_ABS_VALUE):
    """Validate and return data ``A`` as a float ndarray of the given ``ndim`` (1 or 2).

    Every refusal is a TypeError (not an array of numbers) or a ValueError (shape, NaN/inf,
    magnitude) whose message names ``name`` and what to do.
    """
    arr = _as_float_array(A, name)
    if arr.ndim != ndim:
        if ndim == 2 and arr.ndim == 1:
            raise ValueError(
                f"{name} must be 2-D (n_samples, n_features), got a 1-D array of shape "
                f"{arr.shape}; reshape a single feature with {name}.reshape(-1, 1)."
            )
        what = "a scalar" if arr.ndim == 0 else f"a {arr.ndim}-D array of shape {arr.shape}"
        raise ValueError(f"{name} must be a {ndim}-D array, got {what}.")
    if arr.shape[0] < min_rows:
        raise ValueError(
            f"{name} needs at least {min_rows} {'row' if min_rows == 1 else 'rows'} "
            f"(samples), got shape {arr.shape}."
        )
    if ndim == 2 and arr.shape[1] < min_cols:
        raise ValueError(
            f"{name} needs at least {min_cols} {'column' if min_cols == 1 else 'columns'} "
            f"(features), got shape {arr.shape}."
        )
    if finite and not np.all(np.isfinite(arr)):
        raise ValueError(
            f"{name} contains NaN or inf; remove or impute those values first."
        )
    if max_abs is not None and arr.size:
        big = float(np.max(np.abs(arr))) if finite else float(np.nanmax(np.abs(arr)))
        if big > max_abs:
            raise ValueError(
                f"{name} has values as large as {big:.3g} in magnitude; kernels and squared "
                f"errors square them and overflow beyond {max_abs:.0e}. Rescale {name} (e.g. "
                "standardise each feature, or divide by its largest value)."
            )
    return arr


def precheck_estimator_input(A, name):
    """Refuse None, strings, sparse and complex input before scikit-learn's ``validate_data``.

    Does not convert (so pandas column names still reach ``validate_data``).
    """
    if A is None:
        raise TypeError(f"{name} must be an array of numbers, got None.")
    if scipy.sparse.issparse(A):
        raise TypeError(
            f"{name} is a scipy sparse matrix; sparse input is not supported here. Pass a "
            f"dense array, e.g. {name}.toarray()."
        )
    if isinstance(A, (str, bytes)):
        raise TypeError(f"{name} must be an array of numbers, got the string {_short(A)}.")
    dtype = getattr(A, "dtype", None)
    if dtype is not None and getattr(dtype, "kind", "") in "US":
        raise TypeError(f"{name} holds strings (dtype {dtype}); it must hold numbers.")
    if dtype is not None and getattr(dtype, "kind", "") == "c":
        raise ValueError(
            f"Complex data not supported: {name} has complex values. Kernels here are real."
        )


def named_validation(name, func, *args, others=(), **kwargs):
    """Call a scikit-learn validator; prefix its TypeError/ValueError with the argument's name.

    The original message is kept (so scikit-learn's own checks still match it) and the
    argument at fault is named in front of it: ``name``, or the first of ``others`` (the
    other arguments the validator checks, e.g. ``("y",)`` for ``validate_data(X, y)``) that
    the message names, so a NaN in y is reported as "y: ...", not "X: ...". A message about
    NaN or inf gets what to do about it.
    """
    try:
        return func(*args, **kwargs)
    except (TypeError, ValueError) as exc:
        msg = str(exc)
        culprit = name
        for other in others:
            if re.search(rf"\b{re.escape(other)}\b", msg) and not re.search(
                    rf"\b{re.escape(name)}\b", msg):
                culprit = other
                break
        if re.search(r"contains (NaN|infinity)", msg) and "impute" not in msg:
            msg = f"{msg} Remove or impute those values in {culprit} first."
        elif re.search(rf"\b{re.escape(culprit)}\b", msg):
            raise
        if not msg.startswith(f"{culprit}:"):
            msg = f"{culprit}: {msg}"
        raise type(exc)(msg) from None


def check_magnitude(arr, name, max_abs=MAX_ABS_VALUE):
    """Refuse values beyond ``max_abs`` (they overflow once squared)."""
    if arr.size:
        big = float(np.max(np.abs(arr)))
        if big > max_abs:
            raise ValueError(
                f"{name} has values as large as {big:.3g} in magnitude; the computation "
                f"squares and multiplies them and would overflow beyond {max_abs:.0e}. "
                f"Rescale {name} (e.g. standardise the features, or lower gamma or the "
                "polynomial degree)."
            )
    return arr


def check_tiny(amax, name):
    """Refuse a non-zero matrix whose largest entry is below ``MIN_KERNEL_VALUE``."""
    if 0 < amax < MIN_KERNEL_VALUE:
        raise ValueError(
            f"{name} has no entry larger than {amax:.3g} in magnitude: its squares underflow "
            f"below {MIN_KERNEL_VALUE:.0e}^2 and the computation would lose every digit. "
            "Rescale the data (e.g. standardise the features) or raise gamma."
        )


def check_kernel_size(n_rows, n_cols, what="kernel matrix"):
    """Refuse a kernel matrix with more than ``MAX_KERNEL_ENTRIES`` entries."""
    if n_rows * n_cols > MAX_KERNEL_ENTRIES:
        raise ValueError(
            f"The {what} would have {n_rows} x {n_cols} = {n_rows * n_cols:,} entries "
            f"({n_rows * n_cols * 8 / 1e9:.1f} GB), above the limit of "
            f"{MAX_KERNEL_ENTRIES:,}. Use fewer points (a random subset), or the 59-trick "
            "(n_candidates) where it is offered."
        )


# --------------------------------------------------------------------------------------
# Estimator parameters, declared as data
# --------------------------------------------------------------------------------------


def check_parameters(estimator):
    """Validate an estimator's parameters against its ``_parameter_constraints``.

    The constraints are scikit-learn's (``Interval``, ``StrOptions``, ``"boolean"``,
    ``"random_state"``, ``None``, types), declared once per estimator as a class
    attribute. Each value is checked here with the message a person can act on
    ("n_basis must be >= 1, got 0.", "Unknown fitting 'greedy'. Choose one of: ...");
    then scikit-learn's ``validate_parameter_constraints`` checks the same
    declaration, so a constraint this function does not interpret still holds.
    Errors are ``InvalidParameterError`` (both a ValueError and a TypeError, as
    scikit-learn raises) whose message names the parameter.
    """
    constraints = type(estimator)._parameter_constraints
    # a NumPy scalar (np.float32(3.0)) is compared as the Python number it holds: comparing
    # it with a bound such as MAX_ABS_VALUE would cast the bound to its narrow type
    params = {k: v.item() if isinstance(v, np.generic) else v
              for k, v in estimator.get_params(deep=False).items()}
    for name, options in constraints.items():
        try:
            _check_constrained(params[name], name, options)
        except (TypeError, ValueError) as exc:
            raise InvalidParameterError(str(exc)) from None
    validate_parameter_constraints(constraints, params, caller_name=type(estimator).__name__)


def _check_constrained(value, name, options):
    """Check one value against a list of scikit-learn constraints, with mpcore's messages."""
    if value is None and None in options:
        return
    if isinstance(value, str):
        strs = [o for o in options if isinstance(o, StrOptions)]
        if strs:
            choices = sorted(set().union(*(o.options for o in strs)))
            if value not in choices:
                none = "None, " if None in options else ""
                raise ValueError(f"Unknown {name} {_short(value)}. Choose one of: "
                                 f"{none}{', '.join(choices)}.")
            return
    for o in options:
        if isinstance(o, type) and isinstance(value, o):
            return
    for o in options:
        if o == "boolean":
            check_bool(value, name)
            return
        if o == "random_state":
            check_seed(value, name)
            return
        if isinstance(o, Interval):
            _check_interval(value, name, o)
            return
    if any(isinstance(o, StrOptions) for o in options):
        raise TypeError(f"{name} must be one of the names listed in the documentation, "
                        f"got {_short(value)}.")


def _check_interval(value, name, interval):
    lo, hi, closed = interval.left, interval.right, interval.closed
    if interval.type is numbers.Integral:
        minimum = lo + (closed in ("right", "neither")) if lo is not None else -MAX_SEED
        maximum = hi - (closed in ("left", "neither")) if hi is not None else None
        check_positive_int(value, name, minimum=minimum, maximum=maximum)
        return
    if lo == 0:
        strict = closed in ("right", "neither")
        if hi == 1 and closed == "neither":
            check_probability(value, name)
            return
        value = check_positive_float(value, name, strict=strict, maximum=hi)
        if hi is not None and closed in ("left", "neither") and value >= hi:
            raise ValueError(f"{name} must be < {hi:g}, got {value!r}.")
        return
    value = check_finite_float(value, name)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise ValueError(f"{name} must lie within [{lo:g}, {hi:g}], got {value!r}.")
