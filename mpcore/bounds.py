r"""Generalisation bounds for sparse kernel PCA and kernel matching pursuit.

- :func:`compression_bound`: Hussain & Shawe-Taylor (2008), Theorem 2 / Corollary 1
  (sample compression), the running minimum of :func:`compression_terms`.
- :func:`kpca_bound`: Shawe-Taylor & Cristianini (2004), Theorem 6.14, the running
  minimum of :func:`kpca_terms`.

Each formula is written once, here; :mod:`mpcore.curves` draws them.
- :func:`kmp_bound`: Hussain & Shawe-Taylor (2008), Theorem 3 (VC bound for KMP).

References
----------
.. [1] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008.
.. [2] J. Shawe-Taylor, N. Cristianini. Kernel Methods for Pattern Analysis. 2004.
"""

from __future__ import annotations

import math

import numpy as np

from ._arguments import (
    MAX_ABS_VALUE,
    check_array_data,
    check_positive_float,
    check_positive_int,
    check_probability,
)
from ._validation import PSD_NEG_RATIO

__all__ = ["compression_bound", "compression_terms", "kpca_bound", "kpca_terms", "kmp_bound",
           "NEGATIVE_TOL"]

#: Values of a non-negative quantity (a mean squared residual, an eigenvalue of a PSD
#: matrix) down to ``-NEGATIVE_TOL`` times the largest magnitude count as rounding and
#: are clipped to 0; anything more negative is outside the domain and refused.
NEGATIVE_TOL = PSD_NEG_RATIO


def _check_vector(v, name):
    v = np.asarray(v) if isinstance(v, (list, tuple)) and len(v) == 0 else v
    return check_array_data(v, name, ndim=1)


def _check_nonnegative(v, name, what):
    """Clip rounding-level negatives of a non-negative quantity; refuse real ones."""
    scale = max(float(np.max(np.abs(v))), 1.0)
    if v.min() < -NEGATIVE_TOL * scale:
        i = int(np.argmin(v))
        raise ValueError(
            f"{name} must be >= 0 ({what}), but entry {i} is {v[i]:.4g}. A negative value "
            "is outside the domain of the bound and would make it meaningless."
        )
    return np.maximum(v, 0.0)


def _log(m):
    """Natural log of a positive int or float of any size (Python ints beyond 1e308 too)."""
    return math.log(m)


def _scaled(value_log):
    """exp(value_log), underflowing to 0 rather than raising."""
    return math.exp(value_log) if value_log > -745.0 else 0.0


def compression_terms(out_residual, m, *, delta=0.05, R=1.0):
    r"""The Corollary 1 expression of [1]_ at each compression-set size t (not minimised).

    .. math:: \bar r_t + R\sqrt{\frac{t\ln(em/t) + \ln(2m/\delta)}{2(m-t)}}

    Its running minimum is :func:`compression_bound`; its argmin is the number
    of basis vectors the bound recommends.

    Parameters
    ----------
    out_residual : array of shape (k,)
        Entry ``t-1`` is the mean residual of the ``m - t`` training points
        outside the first-``t`` compression set (:func:`mpcore.curves.out_residual_means`).
    m : int
        Training-set size; needs ``k < m``.
    delta : float in (0, 1)
    R : float > 0
        Bound on the residuals (1 for a normalised kernel such as the Gaussian).

    Returns
    -------
    terms : ndarray of shape (k,)
    """
    return _compression_terms(out_residual, m, delta, R, "out_residual")


def _compression_terms(out_residual, m, delta, R, name):
    """:func:`compression_terms`, naming the residuals ``name`` in its refusals."""
    r = _check_vector(out_residual, name)
    r = _check_nonnegative(r, name, "mean squared feature-space residuals")
    m = check_positive_int(m, "m", minimum=2)
    delta = check_probability(delta, "delta")
    R = check_positive_float(R, "R", maximum=MAX_ABS_VALUE)
    k = r.size
    if k >= m:
        raise ValueError(f"need fewer compression sizes than points: len = {k}, m = {m}.")
    return r + R * _compression_penalty(k, m, delta)


def compression_bound(out_residual_means, m, *, delta=0.05, R=1.0):
    r"""Sample-compression bound on the expected residual of sparse KPCA.

    Corollary 1 of [1]_: with probability :math:`1-\delta`, for a compression
    set of size :math:`t`,

    .. math:: \mathbb{E}[\|P^\perp\phi(x)\|^2] \le \bar r_t
              + R\sqrt{\frac{t\ln(em/t) + \ln(2m/\delta)}{2(m-t)}}

    and the returned curve is the running minimum over :math:`t \le k` of
    :func:`compression_terms`.

    Parameters
    ----------
    out_residual_means : array of shape (k,)
        Entry ``t-1`` is the mean residual of the ``m - t`` training points
        outside the first-``t`` compression set.
    m : int
        Training-set size; needs ``k < m``.
    delta : float in (0, 1)
    R : float > 0
        Bound on the residuals (1 for a normalised kernel such as the Gaussian).

    Returns
    -------
    B : ndarray of shape (k,)
    """
    return np.minimum.accumulate(_compression_terms(out_residual_means, m, delta, R,
                                                    "out_residual_means"))


def _compression_penalty(k, m, delta):
    r"""sqrt((t ln(em/t) + ln(2m/delta)) / (2(m-t))) for t = 1..k, in logs (any m)."""
    t = np.arange(1, k + 1, dtype=float)
    log_m = _log(m)
    if m < 2**53:  # exact float arithmetic, as the formula reads
        mf = float(m)
        num = t * np.log(np.e * mf / t) + (np.log(2 * mf) - np.log(delta))
        return np.sqrt(num / (2 * (mf - t)))
    # ln(m - t) = ln m + log1p(-t/m); t/m is computed exactly enough as a float
    num = t * (1.0 + log_m - np.log(t)) + math.log(2.0) + log_m - math.log(delta)
    log_den = math.log(2.0) + log_m + np.log1p(-t * _scaled(-log_m))
    return np.sqrt(np.exp(np.log(num) - log_den))


def _check_kpca_args(m, kappa_sq_sum, delta, R):
    m = check_positive_int(m, "m", minimum=2)
    delta = check_probability(delta, "delta")
    R = check_positive_float(R, "R", maximum=1e150)
    if kappa_sq_sum is None:
        kappa_sq_sum = float(m) if m < 1e300 else None
    else:
        kappa_sq_sum = check_positive_float(kappa_sq_sum, "kappa_sq_sum", strict=False)
    return m, kappa_sq_sum, delta, R


def _kpca_terms(tails, m, kappa_sq_sum, delta, R):
    r"""Theorem 6.14's expression for t = 1..len(tails), tails[t-1] = sum_{i>t} lambda_i.

    ``kappa_sq_sum`` None stands for m itself (Gaussian kernel) when m is beyond the
    float range; then everything is computed in logs so that no factor overflows.
    """
    t = np.arange(1, tails.size + 1, dtype=float)
    log_m = _log(m)
    if m < 2**53 and kappa_sq_sum is not None:  # the formula as it reads
        mf = float(m)
        inner = tails / mf + (8.0 / mf) * np.sqrt(t + 1) * math.sqrt(kappa_sq_sum)
        const = 3 * R**2 * np.sqrt((np.log(2 * mf) - np.log(delta)) / (2 * mf))
    else:
        log_kappa = log_m if kappa_sq_sum is None else (math.log(kappa_sq_sum)
                                                        if kappa_sq_sum > 0 else -np.inf)
        inv_m = _scaled(-log_m)
        inner = tails * inv_m + 8.0 * np.exp(0.5 * (np.log(t + 1) + log_kappa) - log_m)
        const = 3 * R**2 * math.sqrt((math.log(2.0) + log_m - math.log(delta))
                                     * _scaled(-math.log(2.0) - log_m))
    return inner + const


def kpca_terms(top_eigenvalues, trace, m, *, kappa_sq_sum=None, delta=0.05, R=1.0):
    r"""The Theorem 6.14 expression of [2]_ at each t (not minimised), from the top eigenvalues.

    .. math:: \frac1m\sum_{i>t}\lambda_i + \frac8m\sqrt{(t+1)\sum_i\kappa(x_i,x_i)^2}
              + 3R^2\sqrt{\frac{\ln(2m/\delta)}{2m}}

    with :math:`\sum_{i>t}\lambda_i = \operatorname{tr}K - \sum_{i\le t}\lambda_i`,
    so only the k largest eigenvalues are needed for t = 1..k. Its running
    minimum is :func:`kpca_bound`.

    Parameters
    ----------
    top_eigenvalues : array of shape (k,)
        The k largest eigenvalues of the (uncentred) kernel matrix, not divided
        by m, in any order.
    trace : float
        :math:`\operatorname{tr}K`, the sum of all its eigenvalues.
    m : int
        Training-set size.
    kappa_sq_sum : float, optional
        :math:`\sum_i \kappa(x_i,x_i)^2`; ``m`` (Gaussian kernel) when None.

    Returns
    -------
    terms : ndarray of shape (k,), for t = 1..k.
    """
    lam = _check_vector(top_eigenvalues, "top_eigenvalues")
    lam = np.sort(_check_nonnegative(lam, "top_eigenvalues", "eigenvalues of a positive "
                                     "semi-definite kernel matrix"))[::-1]
    trace = check_positive_float(trace, "trace", strict=False, maximum=MAX_ABS_VALUE)
    m, kappa_sq_sum, delta, R = _check_kpca_args(m, kappa_sq_sum, delta, R)
    return _kpca_terms(np.maximum(trace - np.cumsum(lam), 0.0), m, kappa_sq_sum, delta, R)


def kpca_bound(eigenvalues, m, *, trace=None, kappa_sq_sum=None, delta=0.05, R=1.0):
    r"""Kernel-PCA bound of Theorem 6.14 in [2]_ on the expected residual.

    .. math:: B_k = \min_{1\le t\le k}\Big[\tfrac1m\sum_{i>t}\lambda_i
              + \tfrac{8}{m}\sqrt{(t+1)\textstyle\sum_i\kappa(x_i,x_i)^2}\Big]
              + 3R^2\sqrt{\frac{\ln(2m/\delta)}{2m}}

    the running minimum of :func:`kpca_terms`.

    Parameters
    ----------
    eigenvalues : array of shape (n,)
        Eigenvalues of the (uncentred) kernel matrix, not divided by m, in any
        order: all of them (``trace`` None), or only the n largest with
        ``trace`` given.
    m : int
        Training-set size.
    trace : float, optional
        :math:`\operatorname{tr}K` when ``eigenvalues`` holds only the largest
        ones (every tail sum :math:`\sum_{i>t}\lambda_i` for t <= n is then
        ``trace`` minus the top t).
    kappa_sq_sum : float, optional
        :math:`\sum_i \kappa(x_i,x_i)^2`; ``m`` (Gaussian kernel) when None.

    Returns
    -------
    B : ndarray of shape (n - 1,) for k = 1..n-1 with all eigenvalues, or
        (n,) for k = 1..n with ``trace``.
    """
    if trace is not None:
        return np.minimum.accumulate(kpca_terms(eigenvalues, trace, m, kappa_sq_sum=kappa_sq_sum,
                                                delta=delta, R=R))
    lam = _check_vector(eigenvalues, "eigenvalues")
    m, kappa_sq_sum, delta, R = _check_kpca_args(m, kappa_sq_sum, delta, R)
    if lam.size < 2:
        raise ValueError("kpca_bound needs at least two eigenvalues.")
    lam = _check_nonnegative(lam, "eigenvalues",
                             "eigenvalues of a positive semi-definite kernel matrix")
    lam = np.sort(lam)[::-1]
    tails = np.cumsum(lam[::-1])[::-1]  # tails[t] = sum_{i >= t} (0-based) = sum_{i > t} 1-based
    return np.minimum.accumulate(_kpca_terms(tails[1:], m, kappa_sq_sum, delta, R))


def kmp_bound(m, k, t, *, delta=0.05):
    r"""Theorem 3 of [1]_: VC bound on the error of kernel matching pursuit.

    .. math:: \frac{2}{m-k-t}\Big[(k+1)\log_2\frac{4e(m-k-t)}{k+1}
              + k\log_2\frac{em}{k} + t\log_2\frac{e(m-k)}{t}
              + \log_2\frac{2m^2}{\delta}\Big]

    The ``t`` term is 0 when ``t = 0`` and the ``k`` term 0 when ``k = 0``;
    the bound is ``+inf`` where ``m - k - t <= 0``.

    Parameters
    ----------
    m : int
        Training-set size.
    k : int >= 0
        Number of basis vectors.
    t : int >= 0
        Training points outside the basis whose absolute error exceeds alpha.
    delta : float in (0, 1)
    """
    m = check_positive_int(m, "m", minimum=1)
    k = check_positive_int(k, "k", minimum=0)
    t = check_positive_int(t, "t", minimum=0)
    delta = check_probability(delta, "delta")
    if k > m or t > m:
        raise ValueError(f"k and t must not exceed m: got m={m}, k={k}, t={t}.")
    n = m - k - t
    if n <= 0:
        return float("inf")
    if m < 2**53:  # the formula as it reads (every count exact as a float)
        e = np.e
        # log2(2 m^2 / delta), written so that a tiny delta cannot overflow
        value = (k + 1) * np.log2(4 * e * n / (k + 1)) + (1.0 + 2.0 * np.log2(m) - np.log2(delta))
        if k > 0:
            value += k * np.log2(e * m / k)
        if t > 0:
            value += t * np.log2(e * (m - k) / t)
        return float(2.0 / n * value)
    # the same in logs (math.log2 takes Python ints of any size): no overflow for huge m
    log2e = math.log2(math.e)
    value = ((k + 1) * (2.0 + log2e + math.log2(n) - math.log2(k + 1))
             + 1.0 + 2.0 * math.log2(m) - math.log2(delta))
    if k > 0:
        value += k * (log2e + math.log2(m) - math.log2(k))
    if t > 0:
        value += t * (log2e + math.log2(m - k) - math.log2(t))
    return float(value * 2.0 ** (1.0 - math.log2(n)))
