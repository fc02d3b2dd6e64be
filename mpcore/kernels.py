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

import math
from dataclasses import dataclass

import numpy as np
from sklearn.metrics.pairwise import pairwise_kernels

from ._arguments import (
    KERNELS,
    MAX_ABS_VALUE,
    MAX_KERNEL_VALUE,
    MIN_KERNEL_VALUE,
    check_array_data,
    check_finite_float,
    check_kernel_name,
    check_kernel_size,
    check_positive_float,
    check_positive_int,
    sigmoid_message,
)
from ._validation import (
    PSD_CHECK_MAX_M,
    PSD_NEG_RATIO,
    check_square_kernel,
    eigen_report,
    matrix_psd,
)

__all__ = ["kernel_matrix", "kernel_diag", "sigma_to_gamma", "gamma_to_sigma", "center_kernel",
           "center_test_kernel", "KERNELS", "PSDStatus", "psd_status", "check_psd_kernel",
           "SIGMA_MIN", "SIGMA_MAX", "CONVENTIONS"]

#: Gaussian widths accepted by :func:`sigma_to_gamma`: outside this range gamma = 1/(2 sigma^2)
#: overflows or underflows (and every kernel value would be 0 or 1 anyway).
SIGMA_MIN = 1e-150
SIGMA_MAX = 1e150


def _check_data(X, name):
    return check_array_data(X, name)


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
    gamma, degree, coef0 = _check_params(gamma, degree, coef0)
    check_kernel_size(X.shape[0], X.shape[0] if Y is None else Y.shape[0])
    with np.errstate(over="ignore", invalid="ignore", under="ignore", divide="ignore"):
        K = pairwise_kernels(
            X, Y, metric=kernel, filter_params=True, gamma=gamma, degree=degree, coef0=coef0
        )
    K = np.asarray(K, dtype=float)
    amax = float(np.max(np.abs(K))) if K.size else 0.0
    if not np.isfinite(amax):
        raise ValueError(
            f"The {kernel!r} kernel overflowed (inf or NaN entries): lower the degree or "
            "gamma, or standardise the features."
        )
    if Y is None and 0 < amax < MIN_KERNEL_VALUE:  # a test block may be ~0 legitimately
        raise ValueError(
            f"The {kernel!r} kernel has no value larger than {amax:.3g}: its squares underflow "
            "and the methods would lose every digit. Standardise the features (X), or change "
            "gamma or coef0."
        )
    if amax > MAX_KERNEL_VALUE:
        raise ValueError(
            f"The {kernel!r} kernel has values as large as {amax:.3g}, beyond "
            f"{MAX_KERNEL_VALUE:.0e}: the methods square and multiply kernel values and would "
            "overflow. Standardise the features (X), or lower gamma or the degree."
        )
    return K


#: Width conventions of :func:`sigma_to_gamma` and :func:`gamma_to_sigma`.
CONVENTIONS = ("book", "kmp", "laplacian")


def sigma_to_gamma(sigma, convention="book"):
    r"""Convert a Gaussian width :math:`\sigma` to scikit-learn's ``gamma``.

    ``"book"``: :math:`\exp(-\|x-y\|^2 / (2\sigma^2))`, so :math:`\gamma = 1/(2\sigma^2)`
    (Shawe-Taylor & Cristianini; Hussain & Shawe-Taylor).
    ``"kmp"``: :math:`\exp(-\|x-y\|^2 / \sigma^2)`, so :math:`\gamma = 1/\sigma^2`
    (Vincent & Bengio).
    ``"laplacian"``: the Laplacian kernel :math:`\exp(-\|x-y\|_1 / \sigma)`, so
    :math:`\gamma = 1/\sigma`.

    The one place a width becomes a gamma (and :func:`gamma_to_sigma` the way back):
    the pages, the mixed KMP dictionaries and the experiments all call these.

    The width must lie in [``SIGMA_MIN``, ``SIGMA_MAX``] = [1e-150, 1e150], where gamma
    is a finite positive float.
    """
    sigma = _check_sigma(sigma)
    if convention == "book":
        return 1.0 / (2.0 * sigma * sigma)
    if convention == "kmp":
        return 1.0 / (sigma * sigma)
    if convention == "laplacian":
        return 1.0 / sigma
    raise ValueError(f"convention must be one of {CONVENTIONS}, got {convention!r}.")


def _check_sigma(sigma, name="sigma"):
    sigma = check_positive_float(sigma, name)
    if not SIGMA_MIN <= sigma <= SIGMA_MAX:
        raise ValueError(
            f"{name} = {sigma!r} is outside [{SIGMA_MIN:g}, {SIGMA_MAX:g}]: gamma = "
            f"1/(2 {name}^2) would overflow or vanish. Choose a width on the scale of the "
            "distances between your points (standardised data: about 0.1 to 10)."
        )
    return sigma


def gamma_to_sigma(gamma, convention="book"):
    r"""Inverse of :func:`sigma_to_gamma`: "book" :math:`\sigma = 1/\sqrt{2\gamma}`,
    "kmp" :math:`\sigma = 1/\sqrt{\gamma}`, "laplacian" :math:`\sigma = 1/\gamma`."""
    gamma = check_positive_float(gamma, "gamma")
    if convention == "book":
        return 1.0 / math.sqrt(2.0 * gamma)
    if convention == "kmp":
        return 1.0 / math.sqrt(gamma)
    if convention == "laplacian":
        return 1.0 / gamma
    raise ValueError(f"convention must be one of {CONVENTIONS}, got {convention!r}.")


def center_kernel(K):
    r"""Centre a training kernel matrix in feature space (Code Fragment 5.2).

    .. math:: \hat K = K - \tfrac1m \mathbf{1}\mathbf{1}'K - \tfrac1m K\mathbf{1}\mathbf{1}'
              + \tfrac1{m^2}(\mathbf{1}'K\mathbf{1})\mathbf{1}\mathbf{1}'
    """
    K = check_square_kernel(K)
    col = K.mean(axis=0)
    row = K.mean(axis=1)
    return K - col[None, :] - row[:, None] + K.mean()


def center_test_kernel(K_test, K):
    r"""Centre test-versus-training kernel values with the training mean.

    ``K_test`` has shape (n, m): rows are test points, columns training points;
    ``K`` is the (m, m) uncentred training kernel.
    """
    K = check_square_kernel(K)
    K_test = check_array_data(K_test, "K_test")
    if K_test.shape[1] != K.shape[0]:
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
    _check_params(gamma, degree, coef0)
    chunk = check_positive_int(chunk, "chunk", maximum=10_000)
    if kernel in ("rbf", "laplacian"):
        return np.ones(X.shape[0])
    out = np.empty(X.shape[0])
    for start in range(0, X.shape[0], chunk):
        block = X[start : start + chunk]
        out[start : start + block.shape[0]] = np.diag(
            kernel_matrix(block, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0)
        )
    return out


#: Largest polynomial degree accepted (x'y to a higher power overflows for any data
#: that is not tiny).
MAX_DEGREE = 100


def _check_params(gamma, degree, coef0, suffix=""):
    """Validate gamma, degree, coef0 (named with ``suffix``, e.g. "_x")."""
    gamma = check_positive_float(gamma, f"gamma{suffix}", allow_none=True, maximum=MAX_ABS_VALUE)
    degree = check_positive_int(degree, f"degree{suffix}", maximum=MAX_DEGREE)
    coef0 = check_finite_float(coef0, f"coef0{suffix}")
    if abs(coef0) > MAX_ABS_VALUE:
        raise ValueError(f"coef0{suffix} must lie within +-{MAX_ABS_VALUE:.0e}, got {coef0!r}.")
    return gamma, degree, coef0


# --------------------------------------------------------------------------------------
# Positive semi-definiteness, from the parameters where theory decides, else the matrix
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PSDStatus:
    """Whether a kernel choice is positive semi-definite, and why (see :func:`psd_status`).

    Attributes
    ----------
    psd : bool or None
        True: PSD (by theory, or its kernel matrix on the data passed is PSD up to the
        relative tolerance ``PSD_NEG_RATIO``). False: not PSD. None: it depends on the
        data and no data were given (polynomial kernel with coef0 < 0).
    message : str
        One or two sentences a student can act on; for a refusal it names the kernel,
        the parameter and what to change.
    decided_by : {"parameters", "matrix", "data needed"}
    min_eigenvalue, max_eigenvalue : float or None
        Extreme eigenvalues of the kernel matrix when they were computed.
    """

    psd: bool | None
    message: str
    decided_by: str
    min_eigenvalue: float | None = None
    max_eigenvalue: float | None = None

    @property
    def min_ratio(self) -> float | None:
        """min_eigenvalue / max_eigenvalue when both are known and the largest is > 0."""
        if self.min_eigenvalue is None or not self.max_eigenvalue:
            return None
        return self.min_eigenvalue / self.max_eigenvalue


def _fmt_gamma(gamma):
    return "1/n_features" if gamma is None else f"{gamma:g}"


def _psd_status(kernel, gamma, degree, coef0, X=None, K=None, where="this method"):
    """:func:`psd_status` on validated parameters; ``K`` may pass the training matrix."""
    if kernel in ("rbf", "laplacian"):
        name = "Gaussian (rbf)" if kernel == "rbf" else "Laplacian"
        return PSDStatus(True, f"The {name} kernel is positive semi-definite for every "
                         f"gamma > 0 (here gamma = {_fmt_gamma(gamma)}).", "parameters")
    if kernel == "linear":
        return PSDStatus(True, "The linear kernel x'y is positive semi-definite: K = X X'.",
                         "parameters")
    if kernel == "cosine":
        return PSDStatus(True, "The cosine kernel is positive semi-definite: it is the linear "
                         "kernel of the normalised points.", "parameters")
    if kernel == "sigmoid":
        return PSDStatus(False, sigmoid_message(where), "parameters")
    # polynomial (gamma x'y + coef0)^degree, gamma > 0 and integer degree >= 1 validated
    desc = f"polynomial kernel (gamma = {_fmt_gamma(gamma)}, degree = {degree}, coef0 = {coef0:g})"
    if coef0 >= 0:
        return PSDStatus(True, f"The {desc} is positive semi-definite: with gamma > 0, an "
                         "integer degree >= 1 and coef0 >= 0 it is a sum of powers of the "
                         "linear kernel with non-negative weights (Schur product theorem).",
                         "parameters")
    advice = ("coef0 must be >= 0 for the polynomial kernel to be positive semi-definite: set "
              "coef0 >= 0 (e.g. 1), or choose rbf, laplacian, linear or cosine.")
    if K is None and X is None:
        return PSDStatus(None, f"The {desc} is not guaranteed to be positive semi-definite: "
                         "with coef0 < 0 it depends on the data (pass X to check its kernel "
                         f"matrix). {advice}", "data needed")
    if K is None:
        X = _check_data(X, "X")
        if X.shape[0] > PSD_CHECK_MAX_M:
            idx = np.sort(np.random.default_rng(0).choice(X.shape[0], PSD_CHECK_MAX_M,
                                                          replace=False))
            m_full, X = X.shape[0], X[idx]
        else:
            m_full = X.shape[0]
        K = kernel_matrix(X, kernel="polynomial", gamma=gamma, degree=degree, coef0=coef0)
    else:
        m_full = K.shape[0]
    ok, low, top, checked, _ = matrix_psd(K)
    checked = checked if m_full == K.shape[0] else K.shape[0]
    if ok:
        return PSDStatus(True, f"The {desc} is not positive semi-definite in general "
                         f"(coef0 < 0), but on this data its kernel matrix is: no eigenvalue "
                         f"below -{PSD_NEG_RATIO:g} times the largest.", "matrix", low, top)
    report = eigen_report(low, top, m_full, checked)
    return PSDStatus(False, f"The {desc} is not positive semi-definite on this data: "
                     f"{report}. {where[0].upper() + where[1:]} needs a PSD kernel "
                     f"(K = Phi Phi'); with a negative eigenvalue its Rayleigh quotients, "
                     f"deflation and bounds are meaningless. {advice}", "matrix", low, top)


def psd_status(kernel, *, gamma=None, degree=3, coef0=1.0, X=None, where="this method"):
    r"""Is this kernel choice positive semi-definite? Decide before running a method.

    Theory decides where it can: "rbf" and "laplacian" (gamma > 0), "linear", "cosine",
    and "polynomial" with gamma > 0, integer degree >= 1 and coef0 >= 0 are PSD;
    "sigmoid" is not PSD in general (refused by name). A polynomial kernel with
    coef0 < 0 is not guaranteed PSD: with ``X`` its kernel matrix is checked (a
    Cholesky factorisation of :math:`K + sI`, :math:`s = 10^{-8}\|K\|_F/\sqrt m`, and
    the extreme eigenvalues only if that fails; above ``PSD_CHECK_MAX_M`` points a
    seeded random subset of that many points is checked), without ``X`` the answer is
    None ("depends on the data").

    Parameters
    ----------
    kernel, gamma, degree, coef0 :
        As for :func:`kernel_matrix` (invalid values raise as there).
    X : array of shape (m, d), optional
        Training data, to check the matrix where theory does not decide.
    where : str
        The method the message speaks of, e.g. "sparse kernel PCA".

    Returns
    -------
    PSDStatus
        ``status.psd`` (True / False / None) and ``status.message``.

    Examples
    --------
    >>> psd_status("rbf", gamma=0.5).psd
    True
    >>> psd_status("polynomial", degree=2, gamma=0.3, coef0=-1.0).psd is None
    True
    """
    check_kernel_name(kernel)
    gamma, degree, coef0 = _check_params(gamma, degree, coef0)
    return _psd_status(kernel, gamma, degree, coef0, X=X, where=where)


def check_psd_kernel(kernel, *, gamma=None, degree=3, coef0=1.0, X=None, K=None,
                     where="this method"):
    """Raise ValueError (with :attr:`PSDStatus.message`) unless the kernel choice is PSD.

    ``K`` may pass the already computed training kernel matrix of ``X``.
    """
    check_kernel_name(kernel)
    gamma, degree, coef0 = _check_params(gamma, degree, coef0)
    status = _psd_status(kernel, gamma, degree, coef0, X=X, K=K, where=where)
    if status.psd is not True:
        raise ValueError(status.message)
    return status
