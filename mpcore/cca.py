r"""Regularised canonical correlation analysis of two paired feature matrices.

Shawe-Taylor & Cristianini [1]_, Computation 6.34 (Section 6.5): centred on the
training mean, the paired coordinates F_x (m, a) and F_y (m, b) give the
(a + b) x (a + b) generalised eigenproblem

.. math:: \begin{pmatrix}0 & C_{xy}\\ C_{yx} & 0\end{pmatrix}
          \begin{pmatrix}w_x\\ w_y\end{pmatrix}
          = \rho \begin{pmatrix}(1-\tau)C_{xx}+\tau I & 0\\ 0 & (1-\tau)C_{yy}+\tau I\end{pmatrix}
          \begin{pmatrix}w_x\\ w_y\end{pmatrix}

solved with ``scipy.linalg.eigh``. Sparse KCCA (:mod:`mpcore.kcca`) runs it on the
coordinates of its greedily chosen subspaces.

References
----------
.. [1] J. Shawe-Taylor, N. Cristianini. Kernel Methods for Pattern Analysis.
   Cambridge University Press, 2004.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import LinAlgError, eigh

from ._arguments import check_array_data, check_positive_float, check_positive_int

__all__ = ["canonical_correlations", "DEFAULT_REG"]

#: Default regularisation tau of Computation 6.34. The covariances are sums
#: over the m training points (Code Fragment 6.3), of order m for a kernel with
#: unit diagonal, so 1e-3 barely moves the correlations while keeping the k x k
#: matrices positive definite after centring (centring can make them singular).
DEFAULT_REG = 1e-3

#: With reg = 0 the canonical correlations are only bounded by 1 when each view's
#: covariance is positive definite; a smallest eigenvalue at or below this fraction of
#: the largest counts as singular (the correlations are then undefined) and is refused.
COV_SINGULAR_RATIO = 1e-12


def _check_reg(reg):
    reg = check_positive_float(reg, "reg", strict=False)
    if not reg < 1:
        raise ValueError(
            f"reg (tau of Computation 6.34) must lie in [0, 1): it mixes the covariance "
            f"(1 - tau) C with the identity tau I; got {reg!r}."
        )
    return reg


def canonical_correlations(Fx, Fy, reg=DEFAULT_REG, n_components=None):
    r"""Regularised CCA of paired feature matrices (Computation 6.34).

    Centres Fx (m, a) and Fy (m, b) on their column means and solves the
    generalised eigenproblem of the module docstring with ``scipy.linalg.eigh``.
    The covariances are the unnormalised sums :math:`C_{xx} = F_x'F_x` (centred)
    of Code Fragment 6.3, for which Computation 6.34 is exactly the primal of
    the dual kernel CCA of Computation 6.35: the same tau gives the same
    correlations as the book's kernel CCA on the centred kernels.

    Parameters
    ----------
    Fx : array of shape (m, a)
    Fy : array of shape (m, b)
    reg : float in [0, 1)
        tau of Computation 6.34 (the same for both views).
    n_components : int, optional
        Number of canonical pairs (default min(a, b)).

    Returns
    -------
    correlations : ndarray of shape (n_components,)
        Descending regularised canonical correlations, clipped to [0, 1]. With
        reg = 0 they are ordinary canonical correlations, at most 1 when both
        covariances are positive definite; a singular covariance (a constant or
        linearly dependent coordinate after centring) makes them undefined and is
        refused. With reg > 0 the regularised quotient can exceed the true
        correlation by up to a factor 1/(1 - reg) when a covariance eigenvalue
        exceeds 1, hence the clip at 1.
    Wx : ndarray of shape (a, n_components)
    Wy : ndarray of shape (b, n_components)
        Directions scaled so the centred training projections ``(Fx - mean) @ Wx``
        have unit variance (divisor m).
    mean_x, mean_y : ndarrays of shape (a,), (b,)
    """
    w, Wx, Wy, mean_x, mean_y = _cca(Fx, Fy, reg, n_components)
    return np.minimum(w, 1.0), Wx, Wy, mean_x, mean_y


def _cca(Fx, Fy, reg=DEFAULT_REG, n_components=None):
    """Computation 6.34 without the clip at 1 (see :func:`canonical_correlations`)."""
    reg = _check_reg(reg)
    Fx = check_array_data(Fx, "Fx")
    Fy = check_array_data(Fy, "Fy")
    if Fx.shape[0] != Fy.shape[0]:
        raise ValueError(f"Fx {Fx.shape} and Fy {Fy.shape} must be 2-D with the same rows.")
    m, a = Fx.shape
    b = Fy.shape[1]
    if m < 2:
        raise ValueError("CCA needs at least 2 paired samples.")
    n_max = min(a, b)
    n_components = n_max if n_components is None else check_positive_int(
        n_components, "n_components", maximum=n_max)
    mean_x, mean_y = Fx.mean(axis=0), Fy.mean(axis=0)
    Xc, Yc = Fx - mean_x, Fy - mean_y
    # unnormalised sums, as in Code Fragment 6.3 ((1 - tau) R R' + tau I) and the
    # dual Computation 6.35, so tau means the same as in the book's kernel CCA
    Cxx, Cyy, Cxy = Xc.T @ Xc, Yc.T @ Yc, Xc.T @ Yc
    A = np.zeros((a + b, a + b))
    A[:a, a:] = Cxy
    A[a:, :a] = Cxy.T
    B = np.zeros((a + b, a + b))
    # Computation 6.34: (1 - tau) C + tau I in each view
    B[:a, :a] = (1 - reg) * Cxx + reg * np.eye(a)
    B[a:, a:] = (1 - reg) * Cyy + reg * np.eye(b)
    for block, view in ((B[:a, :a], "Fx"), (B[a:, a:], "Fy")):
        ev = np.linalg.eigvalsh(block)
        if not ev[0] > COV_SINGULAR_RATIO * max(ev[-1], np.finfo(float).tiny):
            raise ValueError(
                f"The covariance of {view} is singular at reg = {reg:g}: its smallest "
                f"eigenvalue is {ev[0]:.3g}, {ev[0] / ev[-1] if ev[-1] > 0 else 0:.2g} times the "
                "largest (a coordinate is constant, or coordinates are linearly dependent, "
                "after centring). Canonical correlations are then unbounded or undefined: "
                "set reg > 0 (e.g. reg = 1e-3) to regularise."
            )
    try:
        w, V = eigh(A, B, subset_by_index=[a + b - n_components, a + b - 1], check_finite=False)
    except LinAlgError as exc:
        raise ValueError(
            "The regularised covariance is singular (a feature is constant over the "
            "training set after centring); increase reg above 0."
        ) from exc
    w, V = w[::-1], V[:, ::-1]
    Wx, Wy = V[:a].copy(), V[a:].copy()
    # scale each direction to unit variance of its training projection
    for W, C in ((Wx, Cxx), (Wy, Cyy)):
        var = np.einsum("ij,ij->j", W, C @ W) / m
        W /= np.sqrt(np.where(var > 0, var, 1.0))
    return np.maximum(w, 0.0), Wx, Wy, mean_x, mean_y

