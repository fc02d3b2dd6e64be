r"""Randomly pivoted Cholesky, and the partial Cholesky of pivots given in advance.

Randomly pivoted Cholesky (RPCholesky; Chen, Epperly, Tropp & Webber [1]_, Algorithm 1)
builds a rank-k Nystroem approximation :math:`\hat K = FF'` of a PSD matrix K one
column at a time. With the residual :math:`R = K - FF'` (zero at the start, F empty):

1. draw the pivot :math:`s` with probability :math:`R_{ss} / \operatorname{tr} R`
   (proportional to the residual diagonal);
2. :math:`g = R_{:,s} = K_{:,s} - F F_{s,:}'`, then :math:`F \leftarrow [F,\ g/\sqrt{g_s}]`
   (one partial Cholesky step: the residual is the Schur complement of the pivots);
3. the residual diagonal becomes :math:`d \leftarrow d - F_{:,j}^2`.

It sits between the two greedy rules of :mod:`mpcore.nystrom`: pivoting on the largest
residual diagonal (incomplete Cholesky, [2]_ Code Fragment 5.4) is fooled by outliers,
whose diagonal stays large because nothing else explains them; sampling uniformly ignores
the diagonal and wastes pivots on points already explained. Drawing in proportion to the
diagonal does neither: a point whose residual is 0 (already spanned) is never drawn, and
the expected trace error is within a factor of the best rank-r one after
:math:`k \approx r/\varepsilon + r \log(1/(\varepsilon\eta))` steps ([1]_, Theorem 3.1).

:func:`partial_cholesky` runs the same steps on pivots chosen in advance (the uniform
rule's :func:`mpcore.nystrom.random_order`), so both rules' residuals are computed alike.

References
----------
.. [1] Y. Chen, E. N. Epperly, J. A. Tropp, R. J. Webber. Randomly pivoted Cholesky:
   practical approximation of a kernel matrix with few entry evaluations.
   arXiv:2207.06503 (Comm. Pure Appl. Math., 2024).
.. [2] J. Shawe-Taylor, N. Cristianini. Kernel Methods for Pattern Analysis.
   Cambridge University Press, 2004.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._arguments import check_positive_int, check_random_state_arg
from ._validation import DIAG_TOL, check_psd_matrix, check_square_kernel

__all__ = ["PartialCholesky", "rpcholesky", "partial_cholesky"]


class PartialCholesky(NamedTuple):
    r"""A partial Cholesky decomposition :math:`K \approx FF'` on T pivots.

    Attributes
    ----------
    factor : ndarray of shape (m, T)
        F; :math:`FF' = K[:,I]K[I,I]^{-1}K[I,:]`, the Nystroem approximation on the pivots.
    pivots : ndarray of int, shape (T,)
        The pivots I, in the order chosen (distinct).
    residual_diagonal : ndarray of shape (m,)
        :math:`\operatorname{diag}(K - FF')` after the last step, >= 0 (exactly 0 at the
        pivots).
    residual_trace : ndarray of shape (T + 1,)
        :math:`\operatorname{tr}(K - F_{:,:t}F_{:,:t}')` for t = 0..T: tr K first, then after
        each step; non-increasing.
    """

    factor: np.ndarray
    pivots: np.ndarray
    residual_diagonal: np.ndarray
    residual_trace: np.ndarray


def _checked(K, k, what):
    K = check_square_kernel(K)
    k = check_positive_int(k, "k", maximum=K.shape[0])
    check_psd_matrix(K, "K", what)
    return K.view(np.ndarray), k


def _steps(K, k, choose) -> PartialCholesky:
    """Partial Cholesky steps on a validated K; ``choose(j, d)`` gives step j's pivot from
    the residual diagonal d, or None to stop."""
    m = K.shape[0]
    d = np.clip(np.diag(K).astype(float), 0.0, None)
    # a residual at or below this is rounding (the pivot is spanned already): set to 0, so
    # that it is never drawn and never divided by
    cutoff = DIAG_TOL * max(float(d.max()), 0.0)
    d[d <= cutoff] = 0.0
    F = np.zeros((m, k))
    pivots, traces = [], [float(d.sum())]
    for j in range(k):
        if not d.max() > cutoff:
            break
        s = choose(j, d)
        if s is None:
            break
        if not d[s] > cutoff:
            continue  # a dependent pivot given in advance: the span is unchanged
        g = K[:, s] - F[:, :len(pivots)] @ F[s, :len(pivots)]
        col = g / np.sqrt(g[s])
        col[s] = np.sqrt(g[s])  # exact pivot entry, as in incomplete Cholesky
        F[:, len(pivots)] = col
        d = d - col ** 2
        d[s] = 0.0
        d[d <= cutoff] = 0.0  # rounding-level (or negative) residuals: spanned
        pivots.append(int(s))
        traces.append(float(d.sum()))
    T = len(pivots)
    return PartialCholesky(F[:, :T].copy(), np.asarray(pivots, dtype=int), d,
                           np.asarray(traces))


def rpcholesky(K, k, *, random_state=None) -> PartialCholesky:
    r"""Randomly pivoted Cholesky: k pivots, each drawn in proportion to the residual diagonal.

    Chen, Epperly, Tropp & Webber (arXiv:2207.06503), Algorithm 1. At step j the pivot s
    is drawn with probability :math:`d_s / \sum_i d_i`, d the residual diagonal
    :math:`\operatorname{diag}(K - FF')`; then :math:`F` gains the column
    :math:`(K_{:,s} - FF_{s,:}')/\sqrt{d_s}` and d loses its square. A point whose residual
    is 0 (a pivot already, or spanned by the pivots) is never drawn. One uniform draw per
    step: the first j pivots of a run of k are those of a run of j with the same seed.

    Parameters
    ----------
    K : array of shape (m, m)
        PSD kernel matrix.
    k : int
        Number of steps, 1 <= k <= m. Fewer are taken once every residual is at or below
        ``DIAG_TOL`` times the largest diagonal (K is spanned: its numerical rank).
    random_state : int, RandomState, Generator or None
        Seed of the draws.

    Returns
    -------
    PartialCholesky
        ``factor`` F (m, T), ``pivots`` (T,), ``residual_diagonal`` (m,) and
        ``residual_trace`` (T + 1,).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(20, 3))
    >>> F, piv, d, trace = rpcholesky(X @ X.T, 5, random_state=0)
    >>> piv.size, bool(np.allclose(F @ F.T, X @ X.T))  # rank 3: spanned after 3 steps
    (3, True)
    """
    K, k = _checked(K, k, "randomly pivoted Cholesky")
    rng = check_random_state_arg(random_state)

    def draw(j, d):
        c = np.cumsum(d)
        # u in [0, total): searchsorted(..., "right") lands on an index with d > 0 (a zero
        # residual adds an empty interval); the clip guards u rounding up to the total
        s = int(np.searchsorted(c, rng.random_sample() * c[-1], side="right"))
        return min(s, int(np.flatnonzero(d > 0)[-1]))

    return _steps(K, k, draw)


def partial_cholesky(K, pivots) -> PartialCholesky:
    r"""Partial Cholesky steps on pivots given in advance, in their order.

    What :func:`rpcholesky` computes after its draws, for any order: a pivot whose residual
    is already 0 (a repeat, or spanned by those before it) is skipped. On the uniform
    rule's order (:func:`mpcore.nystrom.random_order`) it gives the uniform-sampling
    Nystroem approximation and its residual trace after each step.

    Parameters
    ----------
    K : array of shape (m, m)
        PSD kernel matrix.
    pivots : array of int
        Training indices in [0, m), in the order to take them.

    Returns
    -------
    PartialCholesky
        As :func:`rpcholesky`; ``pivots`` holds the ones kept.
    """
    order = np.asarray(pivots)
    if order.ndim != 1 or order.size == 0 or not np.issubdtype(order.dtype, np.integer):
        raise ValueError("pivots must be a non-empty 1-D array of integer training indices.")
    K, _ = _checked(K, 1, "the partial Cholesky decomposition")
    m = K.shape[0]
    if order.min() < 0 or order.max() >= m:
        raise ValueError(f"pivots must lie in [0, {m - 1}] for a {m} x {m} kernel matrix.")
    return _steps(K, order.size, lambda j, d: int(order[j]))
