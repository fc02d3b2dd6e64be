"""Shared fixtures and the named tolerances every test uses.

ATOL_EXACT : identities that hold up to floating-point rounding on small,
    well-scaled problems (trace identities, Nystroem identities, equal fits).
RTOL_EXACT : the same, relative, for quantities that scale with m.
RTOL_APPROX : approximations that are close but not exact (59-trick against
    exact greedy, sketched eigenvalues at generous q).
"""

import numpy as np
import pytest

ATOL_EXACT = 1e-8
RTOL_EXACT = 1e-8
RTOL_APPROX = 0.05


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


@pytest.fixture
def small_X(rng):
    """60 points in 3-D: small enough for O(m^3) reference computations."""
    return rng.normal(size=(60, 3))
