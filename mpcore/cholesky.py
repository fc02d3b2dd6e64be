r"""Incomplete Cholesky decomposition, or dual partial Gram-Schmidt (Shawe-Taylor &
Cristianini (2004), Code Fragment 5.4).

Pivoting on the largest residual diagonal, T steps give R (T x m) with
:math:`R'R = K[:,I]K[I,I]^{-1}K[I,:]`: the Nystroem approximation on the pivots I
(:mod:`mpcore.nystrom` uses them as one of its subset rules, and this factorisation to
drop dependent points from a subset).

References
----------
.. [1] J. Shawe-Taylor, N. Cristianini. Kernel Methods for Pattern Analysis.
   Cambridge University Press, 2004.
"""

from __future__ import annotations

import numpy as np

from ._arguments import check_positive_float, check_positive_int
from ._validation import DIAG_TOL, check_psd_matrix, check_square_kernel

__all__ = ["incomplete_cholesky"]


def incomplete_cholesky(K, *, rank=None, eta=DIAG_TOL):
    r"""Incomplete Cholesky decomposition, or dual partial Gram-Schmidt.

    Shawe-Taylor & Cristianini (2004), Code Fragment 5.4: at step j pivot on the
    largest residual diagonal :math:`a = \max_i d_i`, set :math:`\nu_j = \sqrt a`
    and

    .. math:: R_{j,i} = \bigl(K_{I_j,i} - R_{:,i}' R_{:,I_j}\bigr) / \nu_j,
              \qquad d_i \leftarrow d_i - R_{j,i}^2,

    stopping after ``rank`` steps or once :math:`a \le \eta \max_i K_{ii}`.
    The columns of R are the coordinates of the training points in the
    orthonormal basis built by Gram-Schmidt on the pivots, so
    :math:`R'R = K[:,I]K[I,I]^{-1}K[I,:]`, the Nystroem approximation on the pivots.

    Parameters
    ----------
    K : array of shape (m, m)
        Symmetric kernel matrix (diagonal >= 0).
    rank : int, optional
        Maximum number of steps T (default m).
    eta : float > 0
        Residual cutoff, relative to ``max(diag K)``. The book's eta is
        absolute; scaling it makes the pivots invariant to rescaling K, and the
        two agree for unit-diagonal kernels (rbf, laplacian, cosine).

    Returns
    -------
    R : ndarray of shape (T, m)
        New features; :math:`R'R \approx K`.
    pivots : ndarray of shape (T,)
        The indices I in the order chosen (ties go to the lowest index).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(20, 3))
    >>> R, piv = incomplete_cholesky(X @ X.T)
    >>> R.shape, np.allclose(R.T @ R, X @ X.T)
    ((3, 20), True)
    """
    K = check_square_kernel(K)
    m = K.shape[0]
    rank = m if rank is None else check_positive_int(rank, "rank", maximum=m)
    eta = check_positive_float(eta, "eta", maximum=1.0)
    check_psd_matrix(K, "K", "the incomplete Cholesky decomposition")
    return _incomplete_cholesky(K, rank, eta)


def _incomplete_cholesky(K, rank, eta):
    """Code Fragment 5.4 on a validated K (see :func:`incomplete_cholesky`)."""
    m = K.shape[0]
    d = np.diag(K).copy()
    cutoff = eta * max(float(np.max(d)), 0.0)
    R = np.zeros((rank, m))
    pivots = []
    for j in range(rank):
        p = int(np.argmax(d))
        a = d[p]
        if not a > cutoff or a <= 0:
            break
        nu = np.sqrt(a)
        # Code Fragment 5.4: R(j,i) = (K(I(j),i) - R(:,i)'R(:,I(j))) / nu(j)
        R[j] = (K[p] - R[:j, p] @ R[:j]) / nu
        R[j, p] = nu  # exact pivot entry: the pivot is fully spanned
        d -= R[j] ** 2
        d[p] = 0.0
        pivots.append(p)
    T = len(pivots)
    return R[:T].copy(), np.asarray(pivots, dtype=int)
