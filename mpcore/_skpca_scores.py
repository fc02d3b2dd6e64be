r"""The 59-trick's candidates scored in float32, the pick still that of float64.

Scoring the c candidates of a step (their kernel block, its deflation by the basis,
the squared norms) is nearly all of the work; in float32 it is about twice as fast.
The pick must stay the float64 one, so the float32 norms are only estimates with a
bound on their error, and every candidate whose quotient could, within its bound, be
the largest (or tie with it, :data:`TIE_RTOL`) is a contender. One contender is the
float64 pick. Two or more (rare: their quotients agree to a few parts in 10^4) are
scored again in float64, in an extra pass with only those rows, and the float64 rule
picks among them.

The bound (for the Gaussian kernel, whose entries and basis rows have norm at most 1).
With u the float32 unit, each entry of a deflated block is off by at most

.. math:: \delta = 1.01\,(d + 5)\,u\,4\gamma R^2 + (j + 9)\,u

(the exponent -gamma ||x - c||^2, a sum of d + 2 rounded products of size up to
:math:`2\gamma R^2`, R the largest norm of a point; the exponential; j products with
the basis, rounded; the subtraction), so over m entries the error vector has norm at
most :math:`\sqrt m \delta`, and the computed sum of n squares per chunk is off by at
most (n + 1) u relative. A squared norm S is then off by at most

.. math:: 1.01 (n + 1) u S + 2 \sqrt{1.01 S}\,\sqrt m \delta + 3 m \delta^2 ,

taken twice for safety.
"""

from __future__ import annotations

import numpy as np

#: The float32 unit of rounding (an upper bound of it).
U32 = float(np.finfo(np.float32).eps)
#: The bound is taken this many times.
SAFETY = 2.0
#: Above this exponent error (relative), float32 scores would rarely decide a pick alone.
MAX_EXPONENT_ERROR = 1e-4


def exponent_error(d, gamma_r2):
    """The bound on the rounding of a block's exponent in float32 (see the module)."""
    return (d + 5) * U32 * 4.0 * gamma_r2


def usable(blocks, dtype, arrays):
    """Whether float32 scores serve this fit: the Gaussian kernel computed from data, a
    float64 basis, light records (``arrays=False``: no quotient of every candidate is
    kept) and data whose norms keep the exponent's rounding small."""
    return (not arrays and getattr(blocks, "rbf", False) and np.dtype(dtype) == np.float64
            and exponent_error(blocks.X.shape[1], blocks.gamma_r2) < MAX_EXPONENT_ERROR)


def bounds(col_sq, m, j, rows, d, gamma_r2):
    """Bounds on the error of float32 squared norms ``col_sq`` (float64 sums of float32
    chunk sums) of deflated Gaussian kernel columns over m points, after j basis rows,
    in chunks of at most ``rows`` points."""
    delta = 1.01 * exponent_error(d, gamma_r2) + (j + 9) * U32
    s = np.maximum(col_sq, 0.0)
    spread = np.sqrt(m) * delta
    return SAFETY * (1.01 * (rows + 1) * U32 * s + 2.0 * np.sqrt(1.01 * s) * spread
                     + 3.0 * spread ** 2)


def contenders(col_sq, bound, d_cand, tie_rtol):
    """The candidates (positions, increasing) whose quotient may be the largest or tie
    with it: their upper bound reaches the largest lower bound, less the tie margin."""
    high = (col_sq + bound) / d_cand
    low = (col_sq - bound) / d_cand
    return np.flatnonzero(high >= low.max() * (1.0 - tie_rtol))
