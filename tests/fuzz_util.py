"""Shared hypothesis strategies and the "clean outcome" check of the fuzz tests.

A clean outcome is either a finite, correct result (each test checks its invariants)
or a ValueError/TypeError whose message names one of the parameters (so a person knows
what to change). Anything else (another exception type, a NaN or inf in the result, a
numpy RuntimeWarning about overflow or invalid values on the way) fails the test.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterator

import numpy as np
import scipy.sparse
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

#: Examples per fuzz test: enough to reach every odd-input branch, small enough that
#: each file runs in seconds. Set MPCORE_FUZZ_EXAMPLES for a deeper local run.
N_EXAMPLES = int(os.environ.get("MPCORE_FUZZ_EXAMPLES", "40"))


class Refused(Exception):
    """Raised by :func:`clean_call` when the call was cleanly refused."""


def mentions(message, names):
    """Whether ``message`` names one of ``names`` as a word."""
    return any(re.search(rf"(?<![A-Za-z0-9_]){re.escape(n)}(?![A-Za-z0-9_])", message)
               for n in names)


def clean_call(fn, names, *args, **kwargs):
    """Call fn; return its result (generators are consumed into a list).

    A ValueError/TypeError must name one of ``names``; then :class:`Refused` is raised
    so the caller can stop (``hypothesis.assume``-style). numpy RuntimeWarnings (overflow,
    invalid value, divide by zero) are errors: a clean result does not pass through them.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        try:
            out = fn(*args, **kwargs)
            if isinstance(out, Iterator):
                out = list(out)
        except (ValueError, TypeError) as exc:
            msg = str(exc)
            assert mentions(msg, names), (
                f"{type(exc).__name__} does not name a parameter ({', '.join(names)}): {msg!r}")
            raise Refused(msg) from None
    return out


def refused_or(fn, names, *args, **kwargs):
    """:func:`clean_call`, returning None when the call was cleanly refused."""
    try:
        return clean_call(fn, names, *args, **kwargs)
    except Refused:
        return None


def assert_finite(*values):
    for v in values:
        a = np.asarray(v, dtype=float)
        assert np.all(np.isfinite(a)), f"non-finite result: {a}"


# ---------------------------------------------------------------------------- strategies

#: Values that are not arrays of real numbers, or arrays of a wrong kind.
ODD_ARRAYS = st.sampled_from([
    None,
    "abc",
    b"\x00\x01",
    [["a", "b"], ["c", "d"]],
    np.array([["1.5", "2"], ["3", "4"]]),
    np.array([[1 + 2j, 0], [0, 1 - 2j]]),
    np.array([[1.0, 2.0], [2.0, 1.0]], dtype=complex),
    scipy.sparse.csr_matrix(np.eye(3)),
    np.array([[1, None], [2, 3]], dtype=object),
    np.array([[1, "x"], [2, 3]], dtype=object),
    np.array([[1, {"a": 1}], [2, 3]], dtype=object),
    [[1.0, 2.0], [3.0]],
    np.zeros((0, 2)),
    np.zeros((2, 0)),
    np.zeros(3),
    np.zeros((2, 2, 2)),
    5.0,
    np.array(["2020-01-01", "2021-01-01"], dtype="datetime64[D]").reshape(2, 1),
    np.full((3, 2), np.nan),
    np.array([[1.0, np.inf], [2.0, 3.0], [0.0, 1.0]]),
    np.array([[1e300, 0.0], [0.0, -1e300], [1.0, 1.0]]),
    np.array([[1e200, 1.0], [2.0, 3.0]]),
    np.array([[True, False], [False, True], [True, True]]),
    np.array([[2**62, 1], [3, 4], [5, 6]], dtype=np.int64),
    np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float16),
    np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.longdouble),
])

#: Values that are not sensible scalars (or are extreme ones).
ODD_SCALARS = st.sampled_from([
    None, "1", "abc", b"1", True, False, float("nan"), float("inf"), -float("inf"), -1, 0, -0.0,
    1e-320, 1e-300, 1e300, 1.7e308, 10**30, 2**70, -(10**30), 1 + 1j, [1], (2,), {"a": 1},
    np.float64(np.nan), np.int64(-5), np.float32(3.0), 2.5,
])


def small_data(min_rows=2, max_rows=12, min_cols=1, max_cols=3, lo=-3.0, hi=3.0):
    """Well-scaled small float data, duplicates and constant columns possible."""
    return arrays(np.float64,
                  st.tuples(st.integers(min_rows, max_rows), st.integers(min_cols, max_cols)),
                  elements=st.floats(lo, hi, allow_nan=False, allow_infinity=False, width=32))


#: Data values of very different scales, within the accepted magnitude.
EXTREME_ELEMENTS = st.one_of(
    st.floats(-3, 3, allow_nan=False, width=32),
    st.sampled_from([0.0, 1e-300, -1e-300, 1e-150, 1e6, -1e6, 1e100, 1e149]),
)


def extreme_data(min_rows=2, max_rows=10, min_cols=1, max_cols=3):
    return arrays(np.float64,
                  st.tuples(st.integers(min_rows, max_rows), st.integers(min_cols, max_cols)),
                  elements=EXTREME_ELEMENTS)


def array_or_odd(valid):
    """A valid array strategy most of the time, an odd value otherwise."""
    return st.one_of(valid, valid, ODD_ARRAYS)


def scalar_or_odd(valid):
    return st.one_of(valid, valid, ODD_SCALARS)


KERNELS = ("rbf", "laplacian", "polynomial", "linear", "cosine", "sigmoid")
PSD_KERNEL_NAMES = ("rbf", "laplacian", "linear", "cosine")


def kernel_kwargs(kernels=KERNELS):
    """Kernel parameters, mostly valid, sometimes odd (names: kernel, gamma, degree, coef0)."""
    return st.fixed_dictionaries({
        "kernel": st.one_of(st.sampled_from(kernels), st.sampled_from(kernels),
                            st.sampled_from(["gauss", "", None, 3, ["rbf"]])),
        "gamma": st.one_of(st.none(), st.floats(1e-4, 1e3), ODD_SCALARS),
        "degree": st.one_of(st.integers(1, 4), st.integers(1, 4), ODD_SCALARS),
        "coef0": st.one_of(st.floats(-2, 2, allow_nan=False), st.floats(0, 2), ODD_SCALARS),
    })
