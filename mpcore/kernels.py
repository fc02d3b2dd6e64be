r"""Kernel matrices, width conventions and centring.

Every kernel goes through scikit-learn's :func:`~sklearn.metrics.pairwise.pairwise_kernels`
(no hand-written formulas). Centring follows Shawe-Taylor & Cristianini (2004),
Code Fragment 5.2.

References
----------
.. [1] J. Shawe-Taylor, N. Cristianini. Kernel Methods for Pattern Analysis.
   Cambridge University Press, 2004.
"""

from __future__ import annotations

import numpy as np
from sklearn.metrics.pairwise import pairwise_kernels

from ._validation import KERNELS, check_kernel_name, check_positive_float, check_positive_int

__all__ = ["kernel_matrix", "kernel_diag", "sigma_to_gamma", "center_kernel", "center_test_kernel", "KERNELS"]


def _check_data(X, name):
    X = np.asarray(X, dtype=float)
    if X.ndim == 1:
        raise ValueError(
            f"{name} must be 2-D (n_samples, n_features); reshape a single feature "
            "with X.reshape(-1, 1)."
        )
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty 2-D array, got shape {X.shape}.")
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{name} contains NaN or inf; remove or impute those values first.")
    return X


def kernel_matrix(X, Y=None, *, kernel="rbf", gamma=None, degree=3, coef0=1.0):
    r"""Kernel matrix :math:`K_{ij} = \kappa(x_i, y_j)`.

    Parameters
    ----------
    X : array of shape (n, d)
    Y : array of shape (p, d), optional
        Defaults to ``X`` (the square training kernel).
    kernel : {"rbf", "laplacian", "polynomial", "linear", "cosine", "sigmoid"}
        "rbf" is the Gaussian :math:`\exp(-\gamma\|x-y\|^2)`; "sigmoid"
        (:math:`\tanh(\gamma x'y + c_0)`) is not positive semi-definite.
    gamma : float > 0 or None
        None uses scikit-learn's default ``1 / n_features``.
    degree : int >= 1
        Polynomial degree.
    coef0 : float
        Polynomial and sigmoid offset.

    Returns
    -------
    K : ndarray of shape (n, p)
    """
    check_kernel_name(kernel)
    X = _check_data(X, "X")
    if Y is not None:
        Y = _check_data(Y, "Y")
        if Y.shape[1] != X.shape[1]:
            raise ValueError(
                f"X has {X.shape[1]} features but Y has {Y.shape[1]}; they must match."
            )
    gamma = check_positive_float(gamma, "gamma", allow_none=True)
    degree = check_positive_int(degree, "degree")
    coef0 = float(coef0)
    if not np.isfinite(coef0):
        raise ValueError(f"coef0 must be finite, got {coef0!r}.")
    with np.errstate(over="ignore", invalid="ignore"):
        K = pairwise_kernels(
            X, Y, metric=kernel, filter_params=True, gamma=gamma, degree=degree, coef0=coef0
        )
    K = np.asarray(K, dtype=float)
    if not np.all(np.isfinite(K)):
        raise ValueError(
            f"The {kernel!r} kernel overflowed (inf or NaN entries): lower the degree or "
            "gamma, or standardise the features."
        )
    return K


def sigma_to_gamma(sigma, convention="book"):
    r"""Convert a Gaussian width :math:`\sigma` to scikit-learn's ``gamma``.

    ``"book"``: :math:`\exp(-\|x-y\|^2 / (2\sigma^2))`, so :math:`\gamma = 1/(2\sigma^2)`
    (Shawe-Taylor & Cristianini; Hussain & Shawe-Taylor).
    ``"kmp"``: :math:`\exp(-\|x-y\|^2 / \sigma^2)`, so :math:`\gamma = 1/\sigma^2`
    (Vincent & Bengio).
    """
    sigma = check_positive_float(sigma, "sigma")
    if convention == "book":
        return 1.0 / (2.0 * sigma**2)
    if convention == "kmp":
        return 1.0 / sigma**2
    raise ValueError(f"convention must be 'book' or 'kmp', got {convention!r}.")


def center_kernel(K):
    r"""Centre a training kernel matrix in feature space (Code Fragment 5.2).

    .. math:: \hat K = K - \tfrac1m \mathbf{1}\mathbf{1}'K - \tfrac1m K\mathbf{1}\mathbf{1}'
              + \tfrac1{m^2}(\mathbf{1}'K\mathbf{1})\mathbf{1}\mathbf{1}'
    """
    K = np.asarray(K, dtype=float)
    if K.ndim != 2 or K.shape[0] != K.shape[1] or K.shape[0] == 0:
        raise ValueError(f"K must be a non-empty square matrix, got shape {K.shape}.")
    col = K.mean(axis=0)
    row = K.mean(axis=1)
    return K - col[None, :] - row[:, None] + K.mean()


def center_test_kernel(K_test, K):
    r"""Centre test-versus-training kernel values with the training mean.

    ``K_test`` has shape (n, m): rows are test points, columns training points;
    ``K`` is the (m, m) uncentred training kernel.
    """
    K = np.asarray(K, dtype=float)
    K_test = np.asarray(K_test, dtype=float)
    if K.ndim != 2 or K.shape[0] != K.shape[1] or K.shape[0] == 0:
        raise ValueError(f"K must be a non-empty square matrix, got shape {K.shape}.")
    if K_test.ndim != 2 or K_test.shape[1] != K.shape[0]:
        raise ValueError(
            f"K_test must have shape (n, {K.shape[0]}) to match K, got {K_test.shape}."
        )
    col = K.mean(axis=0)
    return K_test - col[None, :] - K_test.mean(axis=1)[:, None] + K.mean()


def kernel_diag(X, *, kernel="rbf", gamma=None, degree=3, coef0=1.0, chunk=128):
    r"""Diagonal :math:`\kappa(x_i, x_i)` without forming the n x n matrix.

    Translation-invariant kernels ("rbf", "laplacian") have
    :math:`\kappa(x,x) = e^0 = 1`; every other kernel is computed block by
    block through :func:`kernel_matrix`, so it is evaluated exactly as there.
    """
    X = _check_data(X, "X")
    check_kernel_name(kernel)
    if kernel in ("rbf", "laplacian"):
        check_positive_float(gamma, "gamma", allow_none=True)
        return np.ones(X.shape[0])
    out = np.empty(X.shape[0])
    for start in range(0, X.shape[0], chunk):
        block = X[start : start + chunk]
        out[start : start + block.shape[0]] = np.diag(
            kernel_matrix(block, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0)
        )
    return out
