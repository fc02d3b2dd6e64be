r"""Losses, gradients and line search for kernel matching pursuit.

Vincent & Bengio (2002), Section 3: with a loss :math:`L(y, f)` other than the
squared error, matching pursuit chooses the dictionary column most collinear
with the negative gradient (Eq. 8, 9), finds its weight by a line minimisation
(Eq. 10) and re-optimises every weight from time to time (Eq. 11, Fig. 4).

Every loss is also a function of the margin :math:`m = yf` for labels
:math:`y \in \{-1, +1\}` (Section 3.2, Fig. 5):

=============  ==============================  ===============================
name           :math:`L(y, f)`                 as a function of the margin
=============  ==============================  ===============================
squared        :math:`(y - f)^2`               :math:`(1 - m)^2`
tanh           :math:`(\tanh f - 0.65y)^2`     :math:`(0.65 - \tanh m)^2`
logistic       :math:`\log_2(1 + e^{-2yf})`    :math:`\log_2(1 + e^{-2m})`
exponential    :math:`e^{-yf}`                 :math:`e^{-m}`
margin_tanh    :math:`1 - \tanh(yf)`           :math:`1 - \tanh m`
=============  ==============================  ===============================

The 0.65 target of the tanh loss is footnote 4 of the paper (the point of
largest second derivative of tanh). :func:`loss_functions` also returns the
SVM's hinge :math:`[1 - m]_+` so that Fig. 5 can be drawn whole; it is not a
KMP loss (it is not differentiable).

References
----------
.. [1] P. Vincent, Y. Bengio. Kernel matching pursuit. Machine Learning 48,
   165-187, 2002.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy.optimize import minimize, minimize_scalar
from scipy.special import expit

__all__ = ["Loss", "LOSSES", "get_loss", "loss_functions", "line_minimize", "backfit"]

#: Target of the tanh loss (Vincent & Bengio, footnote 4).
TANH_TARGET = 0.65

#: Margins below ``-EXP_MARGIN_CLIP`` are clipped in the exponential loss, so that
#: e^{-m} stays finite (e^300 ~ 1e130; a sum over 1e6 points is still finite).
EXP_MARGIN_CLIP = 300.0

#: The line search looks for the weight alpha in [-A, A] with
#: A = LINE_SEARCH_SPAN * (1 + max|y| + max|f|) / max|d|: a change of f larger than
#: LINE_SEARCH_SPAN times the scale of the targets saturates every margin loss.
LINE_SEARCH_SPAN = 100.0

#: Relative precision of the line search (fraction of the search interval).
LINE_SEARCH_XTOL = 1e-13

#: Iteration cap and gradient tolerance (max-norm) of the full back-fit (Eq. 11).
#: Margin losses on separable data have no finite minimiser, so the cap matters.
BACKFIT_MAXITER = 1000
BACKFIT_GTOL = 1e-10

_LN2 = np.log(2.0)


@dataclass(frozen=True)
class Loss:
    """A differentiable KMP loss.

    Attributes
    ----------
    name : str
    value : callable (y, f) -> ndarray
        The loss of each point.
    gradient : callable (y, f) -> ndarray
        Its derivative with respect to f, point by point.
    margin : callable (m) -> ndarray
        The loss as a function of the margin m = y f, for y in {-1, +1} (Fig. 5).
    formula : str
        The margin form, for labels (e.g. ``"(1 - m)^2"``).
    """

    name: str
    value: Callable[[np.ndarray, np.ndarray], np.ndarray]
    gradient: Callable[[np.ndarray, np.ndarray], np.ndarray]
    margin: Callable[[np.ndarray], np.ndarray]
    formula: str


def _exp_margin(m):
    return np.exp(-np.maximum(m, -EXP_MARGIN_CLIP))


LOSSES = {
    "squared": Loss(
        "squared",
        value=lambda y, f: (y - f) ** 2,
        gradient=lambda y, f: -2.0 * (y - f),
        margin=lambda m: (1.0 - np.asarray(m, dtype=float)) ** 2,
        formula="(1 - m)^2",
    ),
    "tanh": Loss(
        "tanh",
        value=lambda y, f: (np.tanh(f) - TANH_TARGET * y) ** 2,
        gradient=lambda y, f: 2.0 * (np.tanh(f) - TANH_TARGET * y) * (1.0 - np.tanh(f) ** 2),
        margin=lambda m: (TANH_TARGET - np.tanh(m)) ** 2,
        formula="(0.65 - tanh m)^2",
    ),
    "logistic": Loss(
        "logistic",
        value=lambda y, f: np.logaddexp(0.0, -2.0 * y * f) / _LN2,
        gradient=lambda y, f: -2.0 * y * expit(-2.0 * y * f) / _LN2,
        margin=lambda m: np.logaddexp(0.0, -2.0 * np.asarray(m, dtype=float)) / _LN2,
        formula="log2(1 + exp(-2m))",
    ),
    "exponential": Loss(
        "exponential",
        value=lambda y, f: _exp_margin(y * f),
        gradient=lambda y, f: np.where(y * f > -EXP_MARGIN_CLIP, -y * _exp_margin(y * f), 0.0),
        margin=lambda m: _exp_margin(np.asarray(m, dtype=float)),
        formula="exp(-m)",
    ),
    "margin_tanh": Loss(
        "margin_tanh",
        value=lambda y, f: 1.0 - np.tanh(y * f),
        gradient=lambda y, f: -y * (1.0 - np.tanh(y * f) ** 2),
        margin=lambda m: 1.0 - np.tanh(m),
        formula="1 - tanh(m)",
    ),
}


def get_loss(name):
    """Return the :class:`Loss` called ``name``, or raise ValueError listing the choices."""
    if isinstance(name, Loss):
        return name
    if not isinstance(name, str) or name not in LOSSES:
        raise ValueError(f"Unknown loss {name!r}. Choose one of: {', '.join(LOSSES)}.")
    return LOSSES[name]


def loss_functions(*, include_hinge=True):
    r"""Losses as functions of the margin :math:`m = yf`, for Fig. 5 of [1]_.

    Parameters
    ----------
    include_hinge : bool
        Add the soft-margin SVM loss :math:`[1 - m]_+` (Eq. 13) for comparison.

    Returns
    -------
    dict
        name -> callable of m (array in, array out).

    References
    ----------
    .. [1] P. Vincent, Y. Bengio. Kernel matching pursuit. Machine Learning 48, 2002.

    Examples
    --------
    >>> import numpy as np
    >>> curves = loss_functions()
    >>> float(curves["exponential"](np.array(0.0)))
    1.0
    """
    out = {name: loss.margin for name, loss in LOSSES.items()}
    if include_hinge:
        out["hinge"] = lambda m: np.maximum(0.0, 1.0 - np.asarray(m, dtype=float))
    return out


def _mean_loss(loss, y, f):
    return float(np.mean(loss.value(y, f)))


def line_minimize(loss, y, f, direction):
    r"""Weight of a new basis function by line minimisation, Eq. (10).

    .. math:: \alpha = \arg\min_\alpha \sum_i L(y_i, f_i + \alpha d_i)

    Bounded Brent search (:func:`scipy.optimize.minimize_scalar`) over
    :math:`[-A, A]`, see ``LINE_SEARCH_SPAN``. For the non-convex tanh losses a
    point worse than :math:`\alpha = 0` is never returned, so the training loss
    never increases.

    Returns
    -------
    alpha : float
    """
    loss = get_loss(loss)
    scale = float(np.max(np.abs(direction)))
    if scale == 0:
        return 0.0
    span = LINE_SEARCH_SPAN * (1.0 + float(np.max(np.abs(y))) + float(np.max(np.abs(f)))) / scale
    res = minimize_scalar(
        lambda a: _mean_loss(loss, y, f + a * direction),
        bounds=(-span, span),
        method="bounded",
        options={"xatol": LINE_SEARCH_XTOL * span, "maxiter": 500},
    )
    alpha = float(res.x)
    if not np.isfinite(alpha) or _mean_loss(loss, y, f + alpha * direction) > _mean_loss(loss, y, f):
        return 0.0
    return alpha


def backfit(loss, y, B, coef):
    r"""Re-optimise every weight of the expansion, Eq. (11).

    .. math:: \alpha_{1..n} = \arg\min_{\alpha} \sum_i L\big(y_i, \textstyle\sum_k \alpha_k g_k(x_i)\big)

    Quasi-Newton BFGS (:func:`scipy.optimize.minimize`) started from the
    current weights, with the analytic gradient :math:`B'\,\partial L/\partial f`;
    the paper used conjugate gradient, which converges far more slowly on the
    ill-conditioned columns of a Gaussian kernel. (Dense BFGS costs O(n^2) per
    iteration for n basis functions; L-BFGS-B was slower here because its many
    tiny BLAS calls suffer from thread contention.) The result is kept only if
    it does not raise the loss.

    Parameters
    ----------
    loss : str or Loss
    y : ndarray of shape (l,)
    B : ndarray of shape (l, n)
        The chosen dictionary columns, evaluated at the training points.
    coef : ndarray of shape (n,)
        Starting weights.

    Returns
    -------
    coef : ndarray of shape (n,)
    """
    loss = get_loss(loss)
    m = y.shape[0]

    def fun(a):
        f = B @ a
        return float(np.sum(loss.value(y, f))) / m, (B.T @ loss.gradient(y, f)) / m

    start = fun(coef)[0]
    res = minimize(
        fun, np.asarray(coef, dtype=float), jac=True, method="BFGS",
        options={"maxiter": BACKFIT_MAXITER, "gtol": BACKFIT_GTOL},
    )
    if np.all(np.isfinite(res.x)) and res.fun <= start:
        return np.asarray(res.x, dtype=float)
    return np.asarray(coef, dtype=float)
