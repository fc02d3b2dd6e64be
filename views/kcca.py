r"""What the sparse-KCCA page draws: the greedy basis pairs and the correlations after each.

Hussain & Shawe-Taylor, Section 4: after t chosen pairs, the features of a
point are :math:`K[:, i_{1:t}] L^{-T}` with :math:`LL' = K[i, i]` in choice
order (Gram-Schmidt), so column t uses the first t chosen points only and
one Cholesky factor of the k chosen points gives every prefix t = 1..k; the
canonical projections of the span of the first t pairs are exactly what
``SparseKCCA(n_basis=t).fit(...)`` finds.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import solve_triangular

import datasets
from mpcore._linalg import cholesky_with_jitter, pearson
from mpcore.kcca import canonical_correlations, kcca_steps
from mpcore.kernels import kernel_matrix, sigma_to_gamma

__all__ = ["kcca_data", "kcca_view", "animation_dict"]


def kcca_data(n: int, noise: float, seed: int, test: float) -> dict:
    """``datasets.two_view``, split by the seeded ``datasets.split_indices``:
    dict(X, Y, z, X_te, Y_te, z_te)."""
    X, Y, z = datasets.two_view(n, noise, seed)
    tr, te = datasets.split_indices(n, test_size=test, random_state=seed)
    return dict(X=X[tr], Y=Y[tr], z=z[tr], X_te=X[te], Y_te=Y[te], z_te=z[te])


def _prefix_features(W):
    """Map K[:, i] to K[:, i] L^-T, L L' = K[i,i]: column t uses the first t chosen points only."""
    L = cholesky_with_jitter(W, what="K[i,i] of the chosen basis",
                             fix="lower the basis size k or widen sigma")
    return lambda cols: solve_triangular(L, np.asarray(cols).T, lower=True, check_finite=False).T


def kcca_view(d: dict, sigma_x: float, sigma_y: float, reg: float, k: int) -> dict:
    """``list(kcca_steps(...))`` on the training views, and the correlations after each step.

    For t = 1..k: the regularised canonical correlation rho_t (the step's
    ``correlation``), and the Pearson correlations of the first canonical
    projections on the training and the held-out pairs, in the span of the
    first t chosen points (what ``SparseKCCA(n_basis=t).fit(...).score`` gives).

    Parameters
    ----------
    d : dict
        :func:`kcca_data`.
    sigma_x, sigma_y : float
        Gaussian widths of the two views, exp(-||x - z||^2 / (2 sigma^2)).
    reg : float
        Regularisation of the canonical correlations.
    k : int
        Basis pairs to choose.

    Returns
    -------
    dict
        ``steps``, ``indices``, ``rho``, ``train``, ``test``.
    """
    px = dict(kernel="rbf", gamma=sigma_to_gamma(sigma_x, "book"))
    py = dict(kernel="rbf", gamma=sigma_to_gamma(sigma_y, "book"))
    Kx, Ky = kernel_matrix(d["X"], **px), kernel_matrix(d["Y"], **py)
    steps = list(kcca_steps(Kx, Ky, k, reg=reg))
    if not steps:
        raise ValueError("A kernel matrix is numerically zero: no basis point can be chosen.")
    idx = np.array([s.index for s in steps])
    fx = _prefix_features(Kx[np.ix_(idx, idx)])
    fy = _prefix_features(Ky[np.ix_(idx, idx)])
    Fx, Fy = fx(Kx[:, idx]), fy(Ky[:, idx])
    Fx_te = fx(kernel_matrix(d["X_te"], d["X"][idx], **px))
    Fy_te = fy(kernel_matrix(d["Y_te"], d["Y"][idx], **py))
    train, held_out = [], []
    for t in range(1, len(idx) + 1):
        _, Wx, Wy, mx, my = canonical_correlations(Fx[:, :t], Fy[:, :t], reg, 1)
        train.append(pearson((Fx[:, :t] - mx) @ Wx[:, 0], (Fy[:, :t] - my) @ Wy[:, 0]))
        held_out.append(pearson((Fx_te[:, :t] - mx) @ Wx[:, 0], (Fy_te[:, :t] - my) @ Wy[:, 0]))
    return dict(steps=steps, indices=idx, rho=np.array([s.correlation for s in steps]),
                train=np.array(train), test=np.array(held_out))


def animation_dict(d: dict, view: dict, frame_ms: int) -> dict:
    """The animated sparse-KCCA figure of :func:`kcca_data` ``d`` and :func:`kcca_view`
    ``view`` as a plotly dict (the page sets the start frame)."""
    from mpcore.plots import kcca_animation_dict

    return kcca_animation_dict(d["X"], d["Y"], d["z"], view["steps"], train=view["train"],
                               test=view["test"], rho=view["rho"], frame_ms=frame_ms)
