r"""Generalisation bounds for sparse kernel PCA and kernel matching pursuit.

- :func:`compression_bound`: Hussain & Shawe-Taylor (2008), Theorem 2 / Corollary 1
  (sample compression).
- :func:`kpca_bound`: Shawe-Taylor & Cristianini (2004), Theorem 6.14.
- :func:`kmp_bound`: Hussain & Shawe-Taylor (2008), Theorem 3 (VC bound for KMP).

References
----------
.. [1] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008.
.. [2] J. Shawe-Taylor, N. Cristianini. Kernel Methods for Pattern Analysis. 2004.
"""

from __future__ import annotations

import numbers

import numpy as np

from ._validation import check_positive_float, check_positive_int, check_probability

__all__ = ["compression_bound", "kpca_bound", "kmp_bound"]


def _check_vector(v, name):
    v = np.asarray(v, dtype=float)
    if v.ndim != 1 or v.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array, got shape {v.shape}.")
    if not np.all(np.isfinite(v)):
        raise ValueError(f"{name} contains NaN or inf.")
    return v


def compression_bound(out_residual_means, m, *, delta=0.05, R=1.0):
    r"""Sample-compression bound on the expected residual of sparse KPCA.

    Corollary 1 of [1]_: with probability :math:`1-\delta`, for a compression
    set of size :math:`t`,

    .. math:: \mathbb{E}[\|P^\perp\phi(x)\|^2] \le \bar r_t
              + R\sqrt{\frac{t\ln(em/t) + \ln(2m/\delta)}{2(m-t)}}

    and the returned curve is the running minimum over :math:`t \le k`.

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
    r = _check_vector(out_residual_means, "out_residual_means")
    m = check_positive_int(m, "m", minimum=2)
    delta = check_probability(delta, "delta")
    R = check_positive_float(R, "R")
    k = r.size
    if k >= m:
        raise ValueError(f"need fewer compression sizes than points: len = {k}, m = {m}.")
    t = np.arange(1, k + 1, dtype=float)
    penalty = R * np.sqrt((t * np.log(np.e * m / t) + np.log(2 * m / delta)) / (2 * (m - t)))
    return np.minimum.accumulate(r + penalty)


def kpca_bound(eigenvalues, m, *, kappa_sq_sum=None, delta=0.05, R=1.0):
    r"""Kernel-PCA bound of Theorem 6.14 in [2]_ on the expected residual.

    .. math:: B_k = \min_{1\le t\le k}\Big[\tfrac1m\sum_{i>t}\lambda_i
              + \tfrac{8}{m}\sqrt{(t+1)\textstyle\sum_i\kappa(x_i,x_i)^2}\Big]
              + 3R^2\sqrt{\frac{\ln(2m/\delta)}{2m}}

    Parameters
    ----------
    eigenvalues : array of shape (n,)
        All eigenvalues of the (uncentred) kernel matrix, not divided by m,
        in any order (they are sorted descending here).
    m : int
        Training-set size.
    kappa_sq_sum : float, optional
        :math:`\sum_i \kappa(x_i,x_i)^2`; ``m`` (Gaussian kernel) when None.

    Returns
    -------
    B : ndarray of shape (n - 1,), for k = 1..n-1.
    """
    lam = _check_vector(eigenvalues, "eigenvalues")
    m = check_positive_int(m, "m", minimum=2)
    delta = check_probability(delta, "delta")
    R = check_positive_float(R, "R")
    if lam.size < 2:
        raise ValueError("kpca_bound needs at least two eigenvalues.")
    kappa_sq_sum = float(m) if kappa_sq_sum is None else check_positive_float(
        kappa_sq_sum, "kappa_sq_sum", strict=False
    )
    lam = np.sort(np.clip(lam, 0.0, None))[::-1]
    tails = np.cumsum(lam[::-1])[::-1]  # tails[t] = sum_{i >= t} (0-based) = sum_{i > t} 1-based
    t = np.arange(1, lam.size, dtype=float)
    inner = tails[1:] / m + (8.0 / m) * np.sqrt((t + 1) * kappa_sq_sum)
    return np.minimum.accumulate(inner) + 3 * R**2 * np.sqrt(np.log(2 * m / delta) / (2 * m))


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
    e = np.e
    value = (k + 1) * np.log2(4 * e * n / (k + 1)) + np.log2(2 * m**2 / delta)
    if k > 0:
        value += k * np.log2(e * m / k)
    if t > 0:
        value += t * np.log2(e * (m - k) / t)
    return float(2.0 / n * value)
