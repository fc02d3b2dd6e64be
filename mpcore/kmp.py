r"""Kernel matching pursuit (Vincent & Bengio, 2002).

Greedy sparse approximation with a dictionary of functions evaluated at the
training points: the kernel centred on each training point,
:math:`d_i = K(\cdot, x_i)`, optionally the constant function (the bias, Section
4.1), a random subset of candidate points, and several kernel shapes at once
(a *mixed* dictionary, Section 4.1 and the conclusion). Three fittings:

- ``"basic"`` (Fig. 1, Eqs. 3-5): choose the column most collinear with the
  residue and set only its weight; a column may be chosen again.
- ``"backfit"`` (Eq. 6, orthogonal matching pursuit): the same choice, then
  every weight is refitted by least squares, with a Cholesky factor of the
  basis' Gram matrix grown by one row per step.
- ``"prefit"`` (Fig. 3, Eq. 7): choose the column whose component orthogonal
  to the current span is most collinear with the residue, keeping the
  paper's two representations :math:`D_{\mathcal B}` and :math:`D_{\mathcal B^\perp}`.

With a loss other than the squared error (Section 3, Fig. 4) the residue is the
negative gradient of the loss (Eq. 8), the new weight comes from a line
minimisation (Eq. 10), and every ``backfit_every`` steps all weights are
re-optimised (Eq. 11), see :mod:`mpcore._losses`.

At every step the generalisation bound of Hussain & Shawe-Taylor, Theorem 3
(:func:`mpcore.bounds.kmp_bound`), can be recorded; stopping at its minimum is
the automated training procedure proposed after their Figure 2.

:func:`kmp_steps` yields one frozen :class:`KMPStep` per step; the estimators
:class:`KMPRegressor` and :class:`KMPClassifier` consume it, so an animation
of the steps shows exactly what ``fit`` computed.

References
----------
.. [1] P. Vincent, Y. Bengio. Kernel matching pursuit. Machine Learning 48,
   165-187, 2002.
.. [2] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008.
.. [3] Y. Pati, R. Rezaiifar, P. Krishnaprasad. Orthogonal matching pursuit.
   Asilomar Conference on Signals, Systems and Computers, 1993.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Iterator

import numpy as np
from scipy.linalg.blas import dger
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin, clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import train_test_split
from sklearn.utils._param_validation import Interval, InvalidParameterError, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ._linalg import cholesky_append, cholesky_solve
from ._losses import LOSSES, Loss, backfit, get_loss, line_minimize
from ._validation import (
    KERNELS,
    MAX_ABS_VALUE,
    MAX_KERNEL_VALUE,
    MAX_STEPS,
    _short,
    check_array_data,
    check_bool,
    check_kernel_name,
    check_kernel_size,
    check_parameters,
    check_positive_float,
    check_positive_int,
    check_probability,
    check_random_state_arg,
    check_seed,
    named_validation,
    precheck_estimator_input,
)
from .bounds import kmp_bound
from .kernels import (
    MAX_DEGREE,
    _check_params,
    _check_sigma,
    gamma_to_sigma,
    kernel_matrix,
    sigma_to_gamma,
)

__all__ = [
    "KernelSpec", "normalize_kernel_specs", "KMPDictionary", "kmp_dictionary",
    "KMPStep", "kmp_steps", "kmp_steps_from_data", "KMPRegressor", "KMPClassifier",
    "KMPPursuit", "PURSUIT_ATTRIBUTES", "pursuit", "replay_steps", "basis_functions", "staged_values",
    "MIX_MODES", "WIDTH_FACTORS", "has_width", "spec_label", "mixed_dictionary",
    "FITTINGS", "EARLY_STOPPING", "ALPHA_STD_FACTOR", "PRECOMPUTED",
]

#: The three fittings of Vincent & Bengio, Section 2.
FITTINGS = ("basic", "backfit", "prefit")
#: Early-stopping rules.
EARLY_STOPPING = (None, "validation", "bound")
#: ``kernel=PRECOMPUTED``: fit takes the training kernel matrix, predict K(X, X_train).
PRECOMPUTED = "precomputed"

#: A dictionary column whose squared norm is at most ``SPAN_TOL`` times the largest
#: one is dropped (a zero column); a column whose component orthogonal to the
#: current span has squared norm at most ``SPAN_TOL`` times its own counts as
#: spanned (the Cholesky pivot test of scikit-learn's ``_gram_omp``, made relative).
SPAN_TOL = 1e-10

#: The pursuit stops when the best score |<d, R>| / ||d|| is at most
#: ``EXACT_FIT_TOL`` times the norm of the first residue: the fit is exact
#: (squared loss) or the loss is stationary (other losses).
EXACT_FIT_TOL = 1e-12

#: Default regression threshold of the Theorem 3 bound: alpha = ALPHA_STD_FACTOR * std(y).
#: A training point "errs" when its prediction misses by more than a quarter of a
#: standard deviation of the targets. On Boston housing (450 training points,
#: standardised features, gamma = 0.1, prefit) the bound's minimum then falls at
#: 14-21 basis functions over four splits, in the range of the 17 of Hussain &
#: Shawe-Taylor's Figure 2; a larger factor stops earlier, a smaller one later.
ALPHA_STD_FACTOR = 0.25

PREMATURE = (
    "Kernel matching pursuit stopped after {n} of {N} steps: every remaining "
    "dictionary column is (numerically) in the span of the chosen ones, or "
    "orthogonal to the residue. "
    "Lower n_basis, or use a narrower kernel (larger gamma)."
)

# --------------------------------------------------------------------------------------
# Kernel specifications and the dictionary (Section 4.1)
# --------------------------------------------------------------------------------------

_GAMMA_KERNELS = ("rbf", "laplacian", "polynomial", "sigmoid")
_SPEC_KEYS = ("kernel", "gamma", "degree", "coef0")


@dataclass(frozen=True)
class KernelSpec:
    """One kernel shape of a (mixed) KMP dictionary.

    Parameters that the kernel does not use are stored as None, so two
    specifications are equal exactly when they define the same function.

    Attributes
    ----------
    kernel : str
    gamma : float or None
        None means scikit-learn's default ``1 / n_features`` (resolved by
        :func:`normalize_kernel_specs` when it is given ``n_features``).
    degree : int or None
        Polynomial kernels only.
    coef0 : float or None
        Polynomial and sigmoid kernels only.
    """

    kernel: str
    gamma: float | None = None
    degree: int | None = None
    coef0: float | None = None

    @property
    def params(self) -> dict:
        """Keyword arguments for :func:`mpcore.kernels.kernel_matrix`."""
        return dict(
            kernel=self.kernel,
            gamma=self.gamma,
            degree=3 if self.degree is None else self.degree,
            coef0=1.0 if self.coef0 is None else self.coef0,
        )

    @property
    def label(self) -> str:
        """Short name such as ``"rbf(gamma=0.5)"`` for legends and tables."""
        parts = []
        if self.kernel in _GAMMA_KERNELS:
            parts.append("gamma=1/n_features" if self.gamma is None else f"gamma={self.gamma:g}")
        if self.degree is not None:
            parts.append(f"degree={self.degree}")
        if self.coef0 is not None:
            parts.append(f"coef0={self.coef0:g}")
        return f"{self.kernel}({', '.join(parts)})" if parts else self.kernel


def _one_spec(item, gamma, degree, coef0, n_features):
    if isinstance(item, KernelSpec):
        item = {k: v for k, v in vars(item).items() if v is not None}
    if isinstance(item, str):
        item = {"kernel": item}
    if not isinstance(item, dict):
        raise TypeError(
            "Each kernel specification must be a kernel name or a dict such as "
            f"{{'kernel': 'rbf', 'gamma': 0.5}}, got {_short(item)}."
        )
    unknown = sorted(map(repr, set(item) - set(_SPEC_KEYS)))
    if unknown:
        raise ValueError(
            f"Unknown key(s) {unknown} in kernel specification {item!r}; "
            f"allowed keys: {', '.join(_SPEC_KEYS)}."
        )
    if "kernel" not in item:
        raise ValueError(f"Kernel specification {item!r} has no 'kernel' key.")
    name = check_kernel_name(item["kernel"])
    g, d, c = _check_params(item.get("gamma", gamma), item.get("degree", degree),
                            item.get("coef0", coef0))
    if name in _GAMMA_KERNELS:
        if g is None and n_features is not None:
            g = 1.0 / n_features
    else:
        g = None
    d = d if name == "polynomial" else None
    c = c if name in ("polynomial", "sigmoid") else None
    return KernelSpec(name, g, d, c)


def normalize_kernel_specs(kernel="rbf", *, gamma=None, degree=3, coef0=1.0, n_features=None):
    """Normalise a kernel argument to a tuple of :class:`KernelSpec`.

    Parameters
    ----------
    kernel : str, dict, KernelSpec, or list of them
        One kernel, or several for a mixed dictionary (Vincent & Bengio,
        Section 4.1), e.g. ``[{"kernel": "rbf", "gamma": 0.5},
        {"kernel": "rbf", "gamma": 5}, "polynomial"]``.
    gamma, degree, coef0 :
        Defaults for the keys a dict leaves out.
    n_features : int, optional
        Resolves ``gamma=None`` to ``1 / n_features`` (scikit-learn's default).

    Returns
    -------
    specs : tuple of KernelSpec
        Use ``spec.label`` to name a basis function's kernel.

    Examples
    --------
    >>> [s.label for s in normalize_kernel_specs([{"kernel": "rbf", "gamma": 0.5}, "linear"])]
    ['rbf(gamma=0.5)', 'linear']
    """
    items = list(kernel) if isinstance(kernel, (list, tuple)) else [kernel]
    if n_features is not None:
        n_features = check_positive_int(n_features, "n_features")
    if not items:
        raise ValueError("kernel is an empty list: give at least one kernel specification.")
    specs = tuple(_one_spec(item, gamma, degree, coef0, n_features) for item in items)
    if len(set(specs)) != len(specs):
        dup = sorted({s.label for s in specs if specs.count(s) > 1})
        raise ValueError(f"kernel has specification(s) listed twice: {', '.join(dup)}. "
                         "Remove the duplicates (linear and cosine take no gamma, so "
                         "different gammas do not make them different).")
    return specs


@dataclass(frozen=True, eq=False)
class KMPDictionary:
    """A KMP dictionary: kernel columns centred on candidate training points.

    Column ``j < n_specs * n_candidates`` is kernel ``specs[j // c]`` centred on
    training point ``candidates[j % c]`` (c candidates); with ``fit_intercept``
    the last column is the constant function 1 (Vincent & Bengio, Eq. 14).

    Attributes
    ----------
    centres : ndarray of shape (c, n_features)
        The candidate training points.
    candidates : ndarray of shape (c,)
        Their training indices.
    specs : tuple of KernelSpec
    fit_intercept : bool
    columns : ndarray of shape (c,) or None
        With ``KernelSpec("precomputed")``: the columns of a precomputed kernel
        matrix K(., X_train) that the candidates read (their rows in the X given
        to ``fit``), and ``evaluate`` takes kernel rows instead of points.
    """

    centres: np.ndarray
    candidates: np.ndarray
    specs: tuple
    fit_intercept: bool
    columns: np.ndarray | None = None

    @property
    def n_columns(self) -> int:
        return len(self.specs) * self.candidates.size + int(self.fit_intercept)

    @property
    def train_index(self) -> np.ndarray:
        """Training index of each column, -1 for the constant function."""
        idx = np.tile(self.candidates, len(self.specs))
        return np.append(idx, -1) if self.fit_intercept else idx

    @property
    def kernel_index(self) -> np.ndarray:
        """Index into ``specs`` of each column, -1 for the constant function."""
        idx = np.repeat(np.arange(len(self.specs)), self.candidates.size)
        return np.append(idx, -1) if self.fit_intercept else idx

    def evaluate(self, X) -> np.ndarray:
        """Dictionary values at the rows of X: shape (n, n_columns)."""
        blocks = [np.asarray(X, dtype=float)[:, self.columns] if s.kernel == PRECOMPUTED
                  else kernel_matrix(X, self.centres, **s.params) for s in self.specs]
        if self.fit_intercept:
            blocks.append(np.ones((np.shape(X)[0], 1)))
        return np.ascontiguousarray(np.hstack(blocks))

    def label(self, column) -> str:
        """Human-readable name of a column, e.g. ``"rbf(gamma=0.5) at x_12"``."""
        column = int(column)
        if self.fit_intercept and column == self.n_columns - 1:
            return "constant"
        c = self.candidates.size
        return f"{self.specs[column // c].label} at x_{int(self.candidates[column % c])}"


def kmp_dictionary(
    X, *, kernel="rbf", gamma=None, degree=3, coef0=1.0, fit_intercept=True,
    n_candidates=None, random_state=None,
):
    """Build the KMP dictionary of Vincent & Bengio, Section 4.1.

    Parameters
    ----------
    X : array of shape (l, n_features)
        Training points.
    kernel, gamma, degree, coef0 :
        One kernel or a list of specifications, see :func:`normalize_kernel_specs`.
    fit_intercept : bool
        Add the constant function (the bias b of Eq. 14).
    n_candidates : int, optional
        Centre the kernels on this many random training points only (M < l);
        None (or >= l) uses every point.
    random_state : int, RandomState or None
        Seeds the candidate draw.

    Returns
    -------
    KMPDictionary
    """
    X = check_array_data(X, "X")
    specs = normalize_kernel_specs(kernel, gamma=gamma, degree=degree, coef0=coef0,
                                   n_features=X.shape[1])
    fit_intercept = check_bool(fit_intercept, "fit_intercept")
    check_seed(random_state)
    candidates = _draw_candidates(X.shape[0], n_candidates, random_state)
    return KMPDictionary(X[candidates].copy(), candidates, specs, bool(fit_intercept))


def _draw_candidates(l, n_candidates, random_state):
    """Sorted training indices the dictionary centres on: all l, or n_candidates random."""
    if n_candidates is None or check_positive_int(n_candidates, "n_candidates") >= l:
        return np.arange(l)
    rng = check_random_state_arg(random_state)
    return np.sort(rng.choice(l, size=int(n_candidates), replace=False))


# --------------------------------------------------------------------------------------
# The pursuit
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class KMPStep:
    """One step of kernel matching pursuit.

    Attributes
    ----------
    step : int
        1-based step number n.
    index : int
        Dictionary column :math:`\\gamma_n` chosen at this step.
    train_index : int
        Training point the chosen column is centred on, -1 for the constant function.
    kernel_index : int
        Kernel specification of the chosen column, -1 for the constant function.
    basis : ndarray of shape (step,)
        Dictionary columns chosen at steps 1..n (basic MP may repeat one).
    coef : ndarray of shape (step,)
        Weight of each of those columns after this step; the model on the
        training points is ``D[:, basis] @ coef``.
    predictions : ndarray of shape (l,)
        Training predictions :math:`f_n(x_i)` after this step.
    residual : ndarray of shape (l,)
        The residue driving the next choice: :math:`y - f_n` for the squared
        loss (Figs. 1, 3), the negative gradient :math:`-\\partial L/\\partial f`
        (Eq. 8) for other losses or ``solver="gradient"``.
    scores : ndarray of shape (M,)
        Selection criterion of every column at this step (Fig. 1 / Eq. 9:
        :math:`|\\langle d, R\\rangle|/\\|d\\|`; prefit: the same with the
        component of d orthogonal to the span); NaN where a column could not be
        chosen. ``index`` is its argmax.
    train_loss : float
        Mean training loss after this step (mean squared error for "squared").
    backfitted : bool
        True when a full back-fit (Eq. 11) ran at this step (non-squared losses).
    n_errors : int
        Theorem 3's t: training points outside the basis whose absolute error
        exceeds alpha (or whose margin is <= 0); -1 when no bound is computed.
    bound : float
        :func:`mpcore.bounds.kmp_bound` (m = l, k = distinct basis functions,
        t = n_errors); NaN when not computed, +inf when m - k - t <= 0.
    """

    step: int
    index: int
    train_index: int
    kernel_index: int
    basis: np.ndarray
    coef: np.ndarray
    predictions: np.ndarray
    residual: np.ndarray
    scores: np.ndarray
    train_loss: float
    backfitted: bool
    n_errors: int
    bound: float


def _check_fitting(fitting):
    if not isinstance(fitting, str) or fitting not in FITTINGS:
        raise ValueError(f"Unknown fitting {fitting!r}. Choose one of: {', '.join(FITTINGS)}.")
    return fitting


def kmp_steps(
    D, y, n_steps, *, fitting="prefit", loss="squared", backfit_every=1,
    train_index=None, kernel_index=None, alpha=None, delta=0.05, error="absolute",
    solver="auto", tol=SPAN_TOL,
):
    r"""Yield the steps of kernel matching pursuit on a dictionary matrix.

    Basic matching pursuit (Fig. 1 of [1]_) picks

    .. math:: \gamma_n = \arg\max_k \frac{|\langle D_{\cdot k}, R\rangle|}{\|D_{\cdot k}\|},
              \qquad \alpha_n = \frac{\langle D_{\cdot\gamma_n}, R\rangle}{\|D_{\cdot\gamma_n}\|^2};

    back-fitting refits all weights (Eq. 6); pre-fitting scores the components
    orthogonal to the current span (Fig. 3, Eq. 7). A non-squared loss follows
    Fig. 4 (Eqs. 8-11).

    Parameters
    ----------
    D : array of shape (l, M)
        Dictionary columns evaluated at the l training points (e.g. a kernel
        matrix, or :meth:`KMPDictionary.evaluate`). Need not be PSD or square.
    y : array of shape (l,)
        Targets (labels in {-1, +1} for the margin losses).
    n_steps : int
        Number of steps N (basis functions; basic MP may repeat one).
    fitting : {"basic", "backfit", "prefit"}
    loss : {"squared", "tanh", "logistic", "exponential", "margin_tanh"}
        See :mod:`mpcore._losses`.
    backfit_every : int
        Non-squared losses: re-optimise all weights (Eq. 11) every p steps
        ("backfit" and "prefit"; "basic" never back-fits). Ignored by the
        closed-form squared-loss path, which is exact at every step.
    train_index : array of shape (M,), optional
        Training point each column is centred on (-1: not a training point, e.g.
        the constant). Default: column j is centred on point j (needs M == l).
    kernel_index : array of shape (M,), optional
        Kernel specification of each column (reported in the steps only).
    alpha : float, optional
        Threshold of Theorem 3 for ``error="absolute"``; no bound when None.
    delta : float in (0, 1)
        Confidence of the bound.
    error : {"absolute", "margin"}
        What Theorem 3's t counts outside the basis: ``|f - y| > alpha``, or
        ``y f <= 0`` (misclassified, for labels).
    solver : {"auto", "gradient"}
        "auto": closed form for the squared loss (Figs. 1, 3; Eq. 6 by
        Cholesky updates). "gradient": the generic path of Fig. 4 whatever the
        loss (with the squared loss it reproduces the closed form).
    tol : float
        ``SPAN_TOL``: relative threshold below which a column counts as spanned.

    Yields
    ------
    step : KMPStep
        One per step; fewer than ``n_steps`` when the fit is exact, the loss is
        stationary, or every column is spanned (then a ConvergenceWarning).

    See Also
    --------
    kmp_steps_from_data : builds the kernel dictionary from data first.
    KMPRegressor, KMPClassifier : estimators fitted by this generator.

    References
    ----------
    .. [1] P. Vincent, Y. Bengio. Kernel matching pursuit. Machine Learning 48, 2002.
    .. [2] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008.

    Examples
    --------
    >>> import numpy as np
    >>> from mpcore.kernels import kernel_matrix
    >>> X = np.random.default_rng(0).normal(size=(40, 2))
    >>> K = kernel_matrix(X, gamma=0.5)
    >>> steps = list(kmp_steps(K, np.sin(X[:, 0]), 5, fitting="backfit"))
    >>> [s.step for s in steps]
    [1, 2, 3, 4, 5]
    """
    D = check_array_data(D, "D", max_abs=MAX_KERNEL_VALUE)
    y = check_array_data(y, "y", ndim=1)
    l, M = D.shape
    if y.shape != (l,):
        raise ValueError(f"y must have shape ({l},) to match D, got {y.shape}.")
    n_steps = check_positive_int(n_steps, "n_steps", maximum=MAX_STEPS)
    _check_fitting(fitting)
    loss = get_loss(loss)
    if loss.name != "squared" and not np.all(np.isin(y, (-1.0, 1.0))):
        raise ValueError(
            f"loss={loss.name!r} is a margin loss: y must hold the labels -1 and +1 "
            "(KMPClassifier maps two classes to them). Use loss='squared' for real-valued "
            "targets."
        )
    backfit_every = check_positive_int(backfit_every, "backfit_every")
    if not isinstance(solver, str) or solver not in ("auto", "gradient"):
        raise ValueError(f"solver must be 'auto' or 'gradient', got {_short(solver)}.")
    if not isinstance(error, str) or error not in ("absolute", "margin"):
        raise ValueError(f"error must be 'absolute' or 'margin', got {_short(error)}.")
    alpha = check_positive_float(alpha, "alpha", allow_none=True)
    delta = check_probability(delta, "delta")
    tol = check_positive_float(tol, "tol", maximum=1.0)
    if train_index is None:
        if M != l:
            raise ValueError(
                f"D has {M} columns for {l} training points: pass train_index "
                "(the training point of each column, -1 for the constant)."
            )
        train_index = np.arange(l)
    train_index = np.asarray(train_index)
    if (train_index.shape != (M,) or train_index.dtype == bool
            or not np.issubdtype(train_index.dtype, np.integer)):
        raise ValueError(f"train_index must be an integer array of shape ({M},).")
    if np.any(train_index < -1) or np.any(train_index >= l):
        raise ValueError(f"train_index entries must lie in [-1, {l - 1}].")
    if kernel_index is None:
        kernel_index = np.where(train_index >= 0, 0, -1)
    kernel_index = np.asarray(kernel_index)
    if (kernel_index.shape != (M,) or kernel_index.dtype == bool
            or not np.issubdtype(kernel_index.dtype, np.integer)):
        raise ValueError(f"kernel_index must be an integer array of shape ({M},).")
    sq = np.einsum("ij,ij->j", D, D)
    if not np.max(sq) > 0:
        raise ValueError("Every column of D (the dictionary) is zero: check the kernel "
                         "parameters.")
    closed_form = solver == "auto" and loss.name == "squared"
    with_bound = error == "margin" or alpha is not None
    return _kmp_core(
        D, y, n_steps, sq, fitting=fitting, loss=loss, backfit_every=backfit_every,
        closed_form=closed_form, train_index=train_index, kernel_index=kernel_index,
        alpha=alpha, delta=delta, error=error if with_bound else None, tol=tol,
    )


def _kmp_core(
    D, y, n_steps, sq, *, fitting, loss, backfit_every, closed_form, train_index,
    kernel_index, alpha, delta, error, tol,
) -> Iterator[KMPStep]:
    l, M = D.shape
    usable = sq > tol * np.max(sq)  # zero columns can never be chosen
    norms = np.sqrt(sq)
    N = n_steps if fitting == "basic" else min(n_steps, int(usable.sum()))
    selectable = usable.copy()
    basis = np.empty(N, dtype=int)
    coef = np.zeros(0)
    f = np.zeros(l)
    B = np.empty((l, N), order="F") if fitting != "basic" else None  # chosen columns
    if closed_form:
        R = y.copy()
    else:
        R = -loss.gradient(y, f)
    r0 = float(np.linalg.norm(R))
    if fitting == "backfit" and closed_form:
        L = np.zeros((N, N))  # Cholesky factor of B'B
        Bty = np.empty(N)
    if fitting == "prefit":
        Dp = np.array(D, order="F", copy=True)  # D_B-perp: components orthogonal to span
        DB = np.zeros((N, M))  # D_B: coordinates of the in-span components on the basis
        perp_sq = sq.copy()  # squared norms of the columns of D_B-perp
        c = Dp.T @ R  # correlations of D_B-perp with the residue (kept up to date below)
    in_basis = np.zeros(l, dtype=bool)
    distinct = set()
    for n in range(N):
        # ---- choose gamma_n -------------------------------------------------------
        if fitting == "prefit":
            alive = selectable & (perp_sq > tol * sq)
            denom = np.sqrt(np.where(alive, perp_sq, 1.0))
        else:
            c = D.T @ R
            alive = selectable
            denom = norms
        if not alive.any():
            warnings.warn(PREMATURE.format(n=n, N=n_steps), ConvergenceWarning, stacklevel=3)
            return
        scores = np.full(M, np.nan)
        scores[alive] = np.abs(c[alive]) / denom[alive]  # Fig. 1 / Eq. (9)
        g = int(np.nanargmax(scores))
        if not scores[g] > EXACT_FIT_TOL * r0:
            # No column correlates with the residue. If the residue itself is ~0 the fit
            # is exact (or the loss stationary): stop quietly; otherwise the dictionary
            # has nothing left to offer (its span is exhausted): say so.
            if np.linalg.norm(R) > np.sqrt(EXACT_FIT_TOL) * r0:
                warnings.warn(PREMATURE.format(n=n, N=n_steps), ConvergenceWarning, stacklevel=3)
            return
        backfitted = False
        d = D[:, g]
        # ---- weights ---------------------------------------------------------------
        if fitting == "prefit":
            dp = Dp[:, g].copy()
            sp = float(dp @ dp)
        if closed_form:
            if fitting == "basic":
                a = c[g] / sq[g]  # Eq. (4)
                R -= a * d
                f += a * d
                coef = np.append(coef, a)
            elif fitting == "backfit":
                cross = B[:, :n].T @ d
                if not cholesky_append(L, n, cross, sq[g], tol=tol):
                    warnings.warn(PREMATURE.format(n=n, N=n_steps), ConvergenceWarning, stacklevel=3)
                    return
                B[:, n] = d
                Bty[n] = d @ y
                coef = cholesky_solve(L, n + 1, Bty[: n + 1])  # Eq. (6): back-fit all weights
                f = B[:, : n + 1] @ coef
                R = y - f
            else:
                a = c[g] / sp  # Fig. 3: the B-perp component reduces the residue
                R -= a * dp
                coef = np.append(coef - a * DB[:n, g], a)  # compensate the B component
                B[:, n] = d
                f = B[:, : n + 1] @ coef
        else:
            direction = dp if fitting == "prefit" else d
            a = line_minimize(loss, y, f, direction)  # Eq. (10)
            if fitting == "prefit":
                coef = np.append(coef - a * DB[:n, g], a)
            else:
                coef = np.append(coef, a)
            if fitting == "basic":
                f = f + a * d
            else:
                B[:, n] = d
                if (n + 1) % backfit_every == 0:
                    coef = backfit(loss, y, B[:, : n + 1], coef)  # Eq. (11)
                    backfitted = True
                f = B[:, : n + 1] @ coef
            R = -loss.gradient(y, f)  # Eq. (8)
        # ---- prefit: update D_B-perp and D_B (Fig. 3) -----------------------------
        if fitting == "prefit":
            # One pass over D_perp gives beta = D_perp' dp / ||dp||^2 and the next
            # correlations (D_perp - dp beta')' R = D_perp' R - beta (dp' R).
            G = Dp.T @ np.column_stack([dp, R])
            beta = G[:, 0] / sp
            c = G[:, 1] - beta * float(dp @ R)
            dger(-1.0, dp, beta, a=Dp, overwrite_a=True)  # D_perp -= dp beta'
            if n:
                DB[:n] -= np.outer(DB[:n, g], beta)
            DB[n] = beta
            perp_sq -= beta**2 * sp
            np.maximum(perp_sq, 0.0, out=perp_sq)
            Dp[:, g] = 0.0
            perp_sq[g] = 0.0
            c[g] = 0.0
            DB[:n, g] = 0.0
            DB[n, g] = 1.0
        if fitting != "basic":
            selectable[g] = False
        basis[n] = g
        # ---- Theorem 3 bound ---------------------------------------------------------
        if train_index[g] >= 0:
            in_basis[train_index[g]] = True
        distinct.add(g)
        n_errors, bound = -1, float("nan")
        if error is not None:
            wrong = (y * f <= 0) if error == "margin" else (np.abs(f - y) > alpha)
            n_errors = int(np.count_nonzero(wrong & ~in_basis))
            k = len(distinct)
            bound = float("inf") if k > l else kmp_bound(l, k, n_errors, delta=delta)
        yield KMPStep(
            step=n + 1,
            index=g,
            train_index=int(train_index[g]),
            kernel_index=int(kernel_index[g]),
            basis=basis[: n + 1].copy(),
            coef=np.array(coef, dtype=float),
            predictions=f.copy(),
            residual=R.copy(),
            scores=scores,
            train_loss=float(np.mean(loss.value(y, f))),
            backfitted=backfitted,
            n_errors=n_errors,
            bound=bound,
        )


def kmp_steps_from_data(
    X, y, n_steps, *, kernel="rbf", gamma=None, degree=3, coef0=1.0, fit_intercept=True,
    n_candidates=None, random_state=None, **kwargs,
):
    """Build the kernel dictionary of X (Section 4.1), then run :func:`kmp_steps`.

    With the parameters of a :class:`KMPRegressor` (and no early stopping) it
    yields exactly the steps that ``fit`` consumed.

    Returns
    -------
    dictionary : KMPDictionary
        Use ``dictionary.label(step.index)`` to name a chosen column.
    steps : iterator of KMPStep
    """
    dictionary = kmp_dictionary(
        X, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0,
        fit_intercept=fit_intercept, n_candidates=n_candidates, random_state=random_state,
    )
    check_kernel_size(dictionary.centres.shape[0], dictionary.n_columns, "KMP dictionary")
    D = dictionary.evaluate(check_array_data(X, "X"))
    steps = kmp_steps(
        D, y, n_steps, train_index=dictionary.train_index,
        kernel_index=dictionary.kernel_index, **kwargs,
    )
    return dictionary, steps


# --------------------------------------------------------------------------------------
# Estimators
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Path:
    """What an estimator keeps of one run of :func:`kmp_steps` (one target)."""

    columns: np.ndarray  # dictionary column per kept step
    coef_path: np.ndarray  # (k, k) weights after each kept step
    train_loss: np.ndarray  # per step run
    n_errors: np.ndarray
    bound: np.ndarray
    validation_error: np.ndarray | None
    seconds: np.ndarray  # wall time of each step run


def _timed(steps):
    """Yield (step, seconds spent producing it) from a step generator."""
    it = iter(steps)
    while True:
        t0 = time.perf_counter()
        try:
            s = next(it)
        except StopIteration:
            return
        yield s, time.perf_counter() - t0


def _argmin_first(curve):
    return int(np.argmin(curve)) + 1


@dataclass(frozen=True, eq=False)
class KMPPursuit:
    """One fitted pursuit: what :class:`KMPRegressor` holds as its own attributes,
    and each entry of :attr:`KMPClassifier.estimators_` holds for one class.

    The attribute names and shapes are those of the estimators (see
    :class:`KMPRegressor`); the trailing underscores keep them the same.

    Attributes
    ----------
    basis_indices_ : ndarray of shape (n_basis_,)
        Row of the X given to ``fit`` chosen at each kept step, -1 for the constant.
    basis_kernels_ : ndarray of shape (n_basis_,)
        Index into ``kernel_specs_`` of each step's kernel, -1 for the constant.
    support_vectors_ : ndarray of shape (n_sv, n_features)
        The rows of X of the steps with ``basis_indices_ >= 0``, in order.
    coef_ : ndarray of shape (n_sv,)
        Final weights, aligned with ``support_vectors_``.
    intercept_ : float
        Weight of the constant function (0.0 if never chosen).
    coef_path_ : ndarray of shape (n_basis_, n_basis_)
        Row i: the weight of each step's function after step i+1.
    n_basis_ : int
        Number of kept steps.
    train_loss_, n_errors_, bound_ : ndarrays of shape (n_steps,)
        Training loss, Theorem 3's t and the Theorem 3 bound after every step run.
    validation_error_ : ndarray of shape (n_steps,) or None
        Held-out error after every step with ``early_stopping="validation"``.
    step_seconds_ : ndarray of shape (n_steps,)
        Wall time of every step run (the first includes the pursuit's set-up).
    """

    basis_indices_: np.ndarray
    basis_kernels_: np.ndarray
    support_vectors_: np.ndarray
    coef_: np.ndarray
    intercept_: float
    coef_path_: np.ndarray
    n_basis_: int
    train_loss_: np.ndarray
    n_errors_: np.ndarray
    bound_: np.ndarray
    validation_error_: np.ndarray | None
    step_seconds_: np.ndarray


#: The per-pursuit fitted attributes (the fields of :class:`KMPPursuit`).
PURSUIT_ATTRIBUTES = tuple(KMPPursuit.__dataclass_fields__)


def pursuit(model, path=None) -> KMPPursuit:
    """The fitted pursuit ``path`` of a KMP estimator.

    The one place that picks a class's pursuit. A :class:`KMPRegressor` and a
    two-class :class:`KMPClassifier` have one pursuit (``path`` None or 0); a
    classifier with more classes has one per class (one-vs-rest), and ``path``
    is the class index into ``classes_``.

    Parameters
    ----------
    model : fitted KMPRegressor or KMPClassifier
    path : int or None
        Index of the pursuit; required with more than one.

    Returns
    -------
    KMPPursuit
    """
    if not isinstance(model, _BaseKMP):
        raise TypeError(f"model must be a fitted KMPClassifier or KMPRegressor, got {_short(model)}.")
    check_is_fitted(model)
    pursuits = model._pursuits()
    if len(pursuits) > 1 and path is None:
        raise ValueError("This one-vs-rest model has one pursuit per class: pass path=class index.")
    if path is None:
        return pursuits[0]
    path = check_positive_int(path, "path", minimum=0, maximum=len(pursuits) - 1)
    return pursuits[path]


def replay_steps(model, X, y, path=None):
    """Run the pursuit ``path`` of a fitted KMP estimator again and return its steps.

    The estimator keeps only what it predicts with; this gives back every
    :class:`KMPStep` of the kept steps, with ``KMPStep.scores``: the criterion
    the pursuit maximised at each step (Vincent & Bengio, Fig. 1 / Eq. 9 on the
    residue, or on the negative gradient of the loss, Eq. 8, for the other
    losses; pre-fitting scores the parts orthogonal to the chosen columns, Eq. 7).
    ``steps[n].scores`` chose ``steps[n].index``: the step n + 1 pick.

    Parameters
    ----------
    model : fitted KMPRegressor or KMPClassifier
    X, y : the data given to ``fit``
    path : int or None
        The pursuit (class index of a one-vs-rest classifier), as in :func:`pursuit`.

    Returns
    -------
    dictionary : KMPDictionary
        The dictionary of the run; ``dictionary.train_index`` indexes ``rows``.
    rows : ndarray of int
        Row of X of each point the pursuit ran on (all rows, or the part kept
        from the validation split with ``early_stopping="validation"``).
    steps : list of KMPStep
        The ``n_basis_`` kept steps of that pursuit.

    Raises
    ------
    ValueError
        When the run cannot be repeated (a random split or candidate draw without
        an integer ``random_state``), or X, y are not the data of the fit (the
        replayed choices differ from ``basis_indices_``).
    """
    p = pursuit(model, path)
    draws = model.early_stopping == "validation" or model.n_candidates is not None
    if draws and not isinstance(model.random_state, Integral):
        raise ValueError(
            "This fit drew a validation split or candidates at random: replaying it needs "
            "an integer random_state."
        )
    est = clone(model)
    if isinstance(model, KMPClassifier):
        X, y = est._validate_fit(X, y)
        classes, y_enc = np.unique(y, return_inverse=True)
        if not np.array_equal(classes, model.classes_):
            raise ValueError("y does not have the classes this model was fitted on.")
        c = 1 if classes.size == 2 else (path or 0)
        target, labels, margin = np.where(y_enc == c, 1.0, -1.0), y_enc, True
    else:
        X, y = est._validate_fit(X, y, y_numeric=True)
        target = np.asarray(check_array_data(y, "y", ndim=1), dtype=float)
        labels, margin = None, False
    su = est._setup(X, target, margin=margin, labels=labels)
    rows, dictionary = su["fit_idx"], su["dictionary"]
    steps = []
    for s in est._steps(su["D"], target[rows], dictionary, su["alpha"], su["error"]):
        if len(steps) == p.n_basis_:
            break
        steps.append(s)
    picked = np.array([rows[s.train_index] if s.train_index >= 0 else -1 for s in steps],
                      dtype=int)
    if not np.array_equal(picked, p.basis_indices_):
        raise ValueError("X and y are not the data this model was fitted on: the replayed "
                         "pursuit chose other points.")
    return dictionary, rows, steps


class _BaseKMP(BaseEstimator):
    """Parameters, validation and prediction shared by the two estimators."""

    _parameter_constraints: dict = {
        "n_basis": [Interval(Integral, 1, MAX_STEPS, closed="both")],
        # a name, one specification or a list of them (normalize_kernel_specs checks inside)
        "kernel": [StrOptions(set(KERNELS) | {PRECOMPUTED}), dict, list, tuple, KernelSpec],
        "gamma": [Interval(Real, 0, MAX_ABS_VALUE, closed="right"), None],
        "degree": [Interval(Integral, 1, MAX_DEGREE, closed="both")],
        "coef0": [Interval(Real, -MAX_ABS_VALUE, MAX_ABS_VALUE, closed="both")],
        "fitting": [StrOptions(set(FITTINGS))],
        # every loss name; KMPRegressor refuses the margin losses in fit, naming KMPClassifier
        "loss": [StrOptions(set(LOSSES)), Loss],
        "backfit_every": [Interval(Integral, 1, None, closed="left")],
        "fit_intercept": ["boolean"],
        "n_candidates": [Interval(Integral, 1, None, closed="left"), None],
        "random_state": ["random_state", np.random.Generator],
        "early_stopping": [StrOptions({"validation", "bound"}), None],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "alpha": [Interval(Real, 0, None, closed="neither"), None],
        "delta": [Interval(Real, 0, 1, closed="neither")],
    }

    def __init__(
        self, n_basis=10, *, kernel="rbf", gamma=None, degree=3, coef0=1.0, fitting="prefit",
        loss="squared", backfit_every=1, fit_intercept=True, n_candidates=None,
        random_state=None, early_stopping=None, validation_fraction=0.2, alpha=None,
        delta=0.05,
    ):
        self.n_basis = n_basis
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.fitting = fitting
        self.loss = loss
        self.backfit_every = backfit_every
        self.fit_intercept = fit_intercept
        self.n_candidates = n_candidates
        self.random_state = random_state
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.alpha = alpha
        self.delta = delta

    # ---- validation ----------------------------------------------------------------
    def _validate_fit(self, X, y, **kwargs):
        precheck_estimator_input(X, "X")
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the target y "
                             "is None: pass the targets (one per row of X).")
        if isinstance(y, (str, bytes)):
            raise TypeError(f"y must be an array of targets, got the string {_short(y)}.")
        if kwargs.get("y_numeric"):
            precheck_estimator_input(y, "y")
        X, y = named_validation("X", validate_data, self, X, y, dtype=float, **kwargs)
        return check_array_data(X, "X"), y

    def _validate_new(self, X):
        check_is_fitted(self)
        precheck_estimator_input(X, "X")
        X = named_validation("X", validate_data, self, X, dtype=float, reset=False)
        return check_array_data(X, "X")

    def _check_params(self, n_features):
        try:  # first: KMPRegressor's message names KMPClassifier
            self._check_loss()
        except ValueError as exc:
            raise InvalidParameterError(str(exc)) from None
        check_parameters(self)
        if isinstance(self.kernel, str) and self.kernel == PRECOMPUTED:
            return (KernelSpec(PRECOMPUTED),)
        return normalize_kernel_specs(
            self.kernel, gamma=self.gamma, degree=self.degree, coef0=self.coef0,
            n_features=n_features,
        )

    def _check_loss(self):
        get_loss(self.loss)

    def _check_n_basis(self, l):
        if self.n_basis > l:
            raise ValueError(
                f"n_basis={self.n_basis} exceeds the number of training points "
                f"(n_samples={l}"
                + (" after holding out the validation set"
                   if self.early_stopping == "validation" else "")
                + "): lower n_basis or give more data."
            )

    # ---- fitting -------------------------------------------------------------------
    def _split(self, n, rng, labels):
        """Training and validation indices (stratified by ``labels`` when possible)."""
        if self.early_stopping != "validation":
            return np.arange(n), None
        n_val = int(np.ceil(self.validation_fraction * n))
        if n_val < 1 or n - n_val < 1:
            raise ValueError(
                f"validation_fraction={self.validation_fraction} leaves no point on one side "
                f"of the split of n_samples={n}; change it or give more data."
            )
        stratify = None
        if labels is not None:
            n_classes = np.unique(labels).size
            if np.bincount(labels).min() >= 2 and min(n_val, n - n_val) >= n_classes:
                stratify = labels
        fit_idx, val_idx = train_test_split(
            np.arange(n), test_size=n_val, random_state=rng, stratify=stratify
        )
        return np.sort(fit_idx), np.sort(val_idx)

    def _setup(self, X, first_target, *, margin, labels=None):
        """Split, dictionary and Theorem 3 settings of a fit (no attribute is set).

        Returns dict(specs, fit_idx, val_idx, dictionary, D, V, alpha, error, seconds).
        """
        specs = self._check_params(X.shape[1])
        n = X.shape[0]
        if n < 2:
            raise ValueError(f"KMP needs at least 2 training points, got n_samples={n}.")
        rng = check_random_state_arg(self.random_state)
        fit_idx, val_idx = self._split(n, rng, labels)
        self._check_n_basis(fit_idx.size)
        X_fit = X[fit_idx]
        n_dict = len(specs) * (fit_idx.size if self.n_candidates is None
                               else min(self.n_candidates, fit_idx.size))
        check_kernel_size(fit_idx.size, n_dict, "KMP dictionary")
        if self._precomputed():
            if X.shape[0] != X.shape[1]:
                raise ValueError(
                    f"With kernel='precomputed', X must be the square training kernel matrix "
                    f"K(X_train, X_train), got shape {X.shape}."
                )
            candidates = _draw_candidates(fit_idx.size, self.n_candidates, rng)
            dictionary = KMPDictionary(X_fit[candidates].copy(), candidates, specs,
                                       bool(self.fit_intercept), columns=fit_idx[candidates])
        else:
            dictionary = kmp_dictionary(
                X_fit, kernel=specs, fit_intercept=self.fit_intercept,
                n_candidates=self.n_candidates, random_state=rng,
            )
        t0 = time.perf_counter()
        D = dictionary.evaluate(X_fit)
        seconds = time.perf_counter() - t0
        V = dictionary.evaluate(X[val_idx]) if val_idx is not None else None
        error = "margin" if margin and self.alpha is None else "absolute"
        alpha = self.alpha
        if alpha is None and not margin:
            # Default regression threshold of Theorem 3 (see ALPHA_STD_FACTOR).
            alpha = ALPHA_STD_FACTOR * float(np.std(first_target[fit_idx])) or None
        return dict(specs=specs, fit_idx=fit_idx, val_idx=val_idx, dictionary=dictionary, D=D,
                    V=V, alpha=alpha, error=error, seconds=seconds)

    def _fit_paths(self, X, targets, *, margin, labels=None):
        """Run :func:`kmp_steps` once per target; return the fit rows of X, dictionary, paths."""
        su = self._setup(X, targets[0], margin=margin, labels=labels)
        fit_idx, val_idx, dictionary = su["fit_idx"], su["val_idx"], su["dictionary"]
        self.dictionary_seconds_ = su["seconds"]
        paths = []
        for t in targets:
            y_fit = t[fit_idx]
            if margin and np.unique(y_fit).size < 2:
                raise ValueError(
                    "After holding out the validation set the training part has only one "
                    "class for a target; lower validation_fraction or give more data."
                )
            y_val = t[val_idx] if val_idx is not None else None
            paths.append(self._run(su["D"], y_fit, dictionary, su["alpha"], su["error"], su["V"],
                                   y_val, margin))
        self.kernel_specs_ = su["specs"]
        self.alpha_ = su["alpha"]
        return fit_idx, dictionary, paths

    def _steps(self, D, y, dictionary, alpha, error):
        """The :func:`kmp_steps` generator of one target, as ``fit`` runs it."""
        return kmp_steps(
            D, y, self.n_basis, fitting=self.fitting, loss=self.loss,
            backfit_every=self.backfit_every, train_index=dictionary.train_index,
            kernel_index=dictionary.kernel_index, alpha=alpha, delta=self.delta, error=error,
        )

    def _run(self, D, y, dictionary, alpha, error, V, y_val, margin):
        steps = self._steps(D, y, dictionary, alpha, error)
        columns, coefs, losses, n_errors, bounds, val, seconds = [], [], [], [], [], [], []
        for s, sec in _timed(steps):
            seconds.append(sec)
            columns.append(s.index)
            coefs.append(s.coef)
            losses.append(s.train_loss)
            n_errors.append(s.n_errors)
            bounds.append(s.bound)
            if V is not None:
                pred = V[:, s.basis] @ s.coef
                if margin:  # misclassification rate, with predict's rule: f > 0 means +1
                    val.append(np.mean(np.where(pred > 0, 1.0, -1.0) != y_val))
                else:
                    val.append(np.mean((pred - y_val) ** 2))
        k = len(columns)
        if k and self.early_stopping == "validation":
            k = _argmin_first(val)  # the paper's early stopping: lowest held-out error
        elif k and self.early_stopping == "bound":
            if np.all(np.isinf(bounds)) or np.all(np.isnan(bounds)):
                warnings.warn(
                    "The Theorem 3 bound is infinite at every step (m - k - t <= 0): "
                    "keeping every step. Raise alpha or give more data.",
                    UserWarning, stacklevel=4,
                )
            else:
                k = _argmin_first(bounds)  # Hussain & Shawe-Taylor: stop at the bound's minimum
        path = np.zeros((k, k))
        for i in range(k):
            path[i, : i + 1] = coefs[i]
        return _Path(
            columns=np.asarray(columns[:k], dtype=int),
            coef_path=path,
            train_loss=np.asarray(losses),
            n_errors=np.asarray(n_errors, dtype=int),
            bound=np.asarray(bounds, dtype=float),
            validation_error=np.asarray(val, dtype=float) if V is not None else None,
            seconds=np.asarray(seconds, dtype=float),
        )

    @staticmethod
    def _path_attributes(X, fit_idx, dictionary, path):
        cols = path.columns
        # indices into the X given to fit (not into its fit part, which differs with validation)
        local = dictionary.train_index[cols]
        basis_indices = np.where(local >= 0, fit_idx[np.maximum(local, 0)], -1)
        k = cols.size
        last = path.coef_path[-1] if k else np.zeros(0)
        keep = basis_indices >= 0
        return KMPPursuit(
            basis_indices_=basis_indices,
            basis_kernels_=dictionary.kernel_index[cols],
            support_vectors_=X[basis_indices[keep]],
            coef_=last[keep].copy(),
            intercept_=float(last[~keep].sum()),
            coef_path_=path.coef_path,
            n_basis_=int(k),
            train_loss_=path.train_loss,
            n_errors_=path.n_errors,
            bound_=path.bound,
            validation_error_=path.validation_error,
            step_seconds_=path.seconds,
        )

    # ---- prediction ----------------------------------------------------------------
    def _design(self, X, p):
        """Values at X of each kept step's basis function of pursuit ``p``: shape (n, n_basis)."""
        basis_indices, basis_kernels = p.basis_indices_, p.basis_kernels_
        support_vectors = p.support_vectors_
        out = np.ones((X.shape[0], basis_indices.size))
        keep = np.flatnonzero(basis_indices >= 0)
        for s, spec in enumerate(self.kernel_specs_):
            sel = np.flatnonzero(basis_kernels[keep] == s)
            if sel.size and spec.kernel == PRECOMPUTED:
                out[:, keep[sel]] = X[:, basis_indices[keep[sel]]]
            elif sel.size:
                out[:, keep[sel]] = kernel_matrix(X, support_vectors[sel], **spec.params)
        return out

    def _staged(self, X, p):
        """Yield the decision values after each kept step of pursuit ``p``."""
        design = self._design(X, p)
        path = p.coef_path_
        for i in range(path.shape[0]):
            yield design[:, : i + 1] @ path[i, : i + 1]

    def _final(self, X, p):
        design = self._design(X, p)
        path = p.coef_path_
        k = path.shape[0]
        if k == 0:
            return np.zeros(X.shape[0])
        return design[:, :k] @ path[k - 1, :k]  # the same product as the last staged value

    def _precomputed(self):
        return isinstance(self.kernel, str) and self.kernel == PRECOMPUTED

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self._precomputed()
        return tags


class KMPRegressor(RegressorMixin, _BaseKMP):
    r"""Kernel matching pursuit regression (Vincent & Bengio, 2002).

    The model is :math:`f(x) = b + \sum_n \alpha_n K(x, x_{\gamma_n})` (Eq. 14),
    built greedily by :func:`kmp_steps`.

    Parameters
    ----------
    n_basis : int, default=10
        Number of steps N (basis functions; at most the number of training points).
    kernel : str, dict or list, default="rbf"
        "rbf", "laplacian", "polynomial", "linear", "cosine" or "sigmoid" (KMP
        does not need a PSD kernel), or a list of specifications for a mixed
        dictionary, e.g. ``[{"kernel": "rbf", "gamma": 0.5}, {"kernel": "rbf",
        "gamma": 5}]`` (Section 4.1): every training point offers one column per
        specification. See :func:`normalize_kernel_specs`. "precomputed" (as
        in scikit-learn's SVC): ``fit`` takes the training kernel matrix
        K(X_train, X_train) of shape (n, n), ``predict`` takes K(X, X_train)
        of shape (n_new, n); the fit is that of the kernel K came from
        (``support_vectors_`` then holds rows of K).
    gamma, degree, coef0 :
        Kernel parameters (defaults for keys a specification leaves out); gamma
        None means ``1 / n_features``.
    fitting : {"basic", "backfit", "prefit"}, default="prefit"
        Fig. 1, Eq. (6) (orthogonal MP) or Fig. 3 / Eq. (7).
    loss : {"squared"}, default="squared"
        The margin losses need labels: use KMPClassifier.
    backfit_every : int, default=1
        Non-squared losses: full back-fit (Eq. 11) every p steps.
    fit_intercept : bool, default=True
        Put the constant function in the dictionary (Section 4.1). It is chosen
        greedily like the others; its weight is ``intercept_``.
    n_candidates : int or None, default=None
        Centre the kernels on this many random training points only.
    random_state : int, RandomState or None
        Seeds the candidates and the validation split.
    early_stopping : {None, "validation", "bound"}, default=None
        "validation": hold out ``validation_fraction`` of the data, run
        ``n_basis`` steps on the rest and keep the number of basis functions
        with the lowest held-out error (Vincent & Bengio, Section 5.3).
        "bound": keep the number that minimises the Theorem 3 bound of Hussain
        & Shawe-Taylor (the automated procedure proposed after their Fig. 2).
    validation_fraction : float in (0, 1), default=0.2
    alpha : float or None
        Theorem 3 threshold: t counts training points outside the basis whose
        absolute error exceeds alpha. None uses ``ALPHA_STD_FACTOR * std(y)``
        (a quarter of a standard deviation of the training targets).
    delta : float in (0, 1), default=0.05
        Confidence of the bound.

    Attributes
    ----------
    basis_indices_ : ndarray of shape (n_basis_,)
        Row of the X given to ``fit`` chosen at each kept step, -1 for the
        constant function (basic MP may repeat an index); with
        ``early_stopping="validation"`` too, so ``X[basis_indices_[basis_indices_ >= 0]]``
        equals ``support_vectors_``.
    basis_kernels_ : ndarray of shape (n_basis_,)
        Index into ``kernel_specs_`` of each step's kernel, -1 for the constant.
    kernel_specs_ : tuple of KernelSpec
        ``kernel_specs_[j].label`` names specification j.
    support_vectors_ : ndarray of shape (n_sv, n_features)
        The rows of X of the steps with ``basis_indices_ >= 0``, in order.
    coef_ : ndarray of shape (n_sv,)
        Final weights, aligned with ``support_vectors_``.
    intercept_ : float
        Weight of the constant function (0.0 if never chosen).
    coef_path_ : ndarray of shape (n_basis_, n_basis_)
        Row i: the weight of each step's function after step i+1 (zero right
        of the diagonal), constant included; what ``staged_predict`` uses.
    n_basis_ : int
        Number of kept steps (fewer than ``n_basis`` after early stopping).
    train_loss_ : ndarray of shape (n_steps,)
        Mean training loss after every step run (all ``n_basis`` steps, also
        with early stopping, so the curve can be plotted past the stop).
    bound_ : ndarray of shape (n_steps,)
        :func:`mpcore.bounds.kmp_bound` after every step run (m = training
        points used for fitting, k = distinct basis functions, the constant
        included, which only loosens the bound).
    n_errors_ : ndarray of shape (n_steps,)
        Theorem 3's t after every step run.
    validation_error_ : ndarray of shape (n_steps,) or None
        Held-out error after every step with ``early_stopping="validation"``.
    step_seconds_ : ndarray of shape (n_steps,)
        Wall time of every step run (the first includes the pursuit's set-up).
    alpha_ : float or None
        The threshold the bound used.
    dictionary_seconds_ : float
        Wall time of evaluating the dictionary on the training points.

    See Also
    --------
    kmp_steps : the generator ``fit`` consumes.
    KMPClassifier

    References
    ----------
    .. [1] P. Vincent, Y. Bengio. Kernel matching pursuit. Machine Learning 48, 2002.
    .. [2] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.linspace(0, 6, 80).reshape(-1, 1)
    >>> model = KMPRegressor(n_basis=8, gamma=2.0).fit(X, np.sin(X[:, 0]))
    >>> model.n_basis_
    8
    """

    def _check_loss(self):
        if self.loss != "squared":
            if isinstance(self.loss, str) and self.loss in LOSSES:
                raise ValueError(
                    f"loss={self.loss!r} is a classification (margin) loss; KMPRegressor "
                    "supports loss='squared'. Use KMPClassifier for margin losses."
                )
            raise ValueError(f"Unknown loss {self.loss!r}. KMPRegressor supports loss='squared'.")

    def fit(self, X, y):
        """Fit by kernel matching pursuit.

        Parameters
        ----------
        X : array of shape (n_samples, n_features)
        y : array of shape (n_samples,)

        Returns
        -------
        self
        """
        X, y = self._validate_fit(X, y, y_numeric=True)
        y = check_array_data(y, "y", ndim=1)
        fit_idx, dictionary, (path,) = self._fit_paths(X, [np.asarray(y, dtype=float)], margin=False)
        fitted = self._path_attributes(X, fit_idx, dictionary, path)
        for name in PURSUIT_ATTRIBUTES:
            setattr(self, name, getattr(fitted, name))
        return self

    def _pursuits(self):
        return [KMPPursuit(**{name: getattr(self, name) for name in PURSUIT_ATTRIBUTES})]

    def predict(self, X):
        """Predict :math:`f(x) = b + \\sum_j c_j K(x, s_j)`.

        Returns
        -------
        y : ndarray of shape (n_samples,)
        """
        X = self._validate_new(X)
        return self._final(X, self._pursuits()[0])

    def staged_predict(self, X):
        """Predictions after each step, as in ``GradientBoostingRegressor.staged_predict``.

        Parameters
        ----------
        X : array of shape (n_samples, n_features)

        Yields
        ------
        y : ndarray of shape (n_samples,)
            The prediction of the model with the first i basis functions (and
            the weights they had after step i), i = 1..n_basis_; the last equals
            :meth:`predict`.
        """
        X = self._validate_new(X)
        yield from self._staged(X, self._pursuits()[0])


class KMPClassifier(ClassifierMixin, _BaseKMP):
    r"""Kernel matching pursuit classification (Vincent & Bengio, 2002).

    Binary labels map to -1 (``classes_[0]``) and +1 (``classes_[1]``) and the
    sign of :math:`f` decides; more classes are fitted one-vs-rest, one pursuit
    per class, and the largest decision value wins. With the squared loss this
    is KMP-mse of the paper; ``loss="tanh"`` is KMP-tanh. With
    ``early_stopping="validation"`` the held-out error is the misclassification rate.

    Parameters
    ----------
    n_basis : int, default=10
        Number of steps N (basis functions; at most the number of training points).
    kernel : str, dict or list, default="rbf"
        "rbf", "laplacian", "polynomial", "linear", "cosine" or "sigmoid" (KMP
        does not need a PSD kernel), or a list of specifications for a mixed
        dictionary, e.g. ``[{"kernel": "rbf", "gamma": 0.5}, {"kernel": "rbf",
        "gamma": 5}]`` (Section 4.1): every training point offers one column per
        specification. See :func:`normalize_kernel_specs`. "precomputed" (as
        in scikit-learn's SVC): ``fit`` takes the training kernel matrix
        K(X_train, X_train) of shape (n, n), ``predict`` takes K(X, X_train)
        of shape (n_new, n); the fit is that of the kernel K came from
        (``support_vectors_`` then holds rows of K).
    gamma, degree, coef0 :
        Kernel parameters (defaults for keys a specification leaves out); gamma
        None means ``1 / n_features``.
    fitting : {"basic", "backfit", "prefit"}, default="prefit"
        Fig. 1, Eq. (6) (orthogonal MP) or Fig. 3 / Eq. (7).
    loss : {"squared", "tanh", "logistic", "exponential", "margin_tanh"}
        See :mod:`mpcore._losses`.
    backfit_every : int, default=1
        Non-squared losses: full back-fit (Eq. 11) every p steps.
    fit_intercept : bool, default=True
        Put the constant function in the dictionary (Section 4.1). It is chosen
        greedily like the others; its weight is ``intercept_``.
    n_candidates : int or None, default=None
        Centre the kernels on this many random training points only.
    random_state : int, RandomState or None
        Seeds the candidates and the validation split.
    early_stopping : {None, "validation", "bound"}, default=None
        "validation": hold out ``validation_fraction`` of the data, run
        ``n_basis`` steps on the rest and keep the number of basis functions
        with the lowest held-out error (Vincent & Bengio, Section 5.3).
        "bound": keep the number that minimises the Theorem 3 bound of Hussain
        & Shawe-Taylor (the automated procedure proposed after their Fig. 2).
    validation_fraction : float in (0, 1), default=0.2
    alpha : float or None
        Theorem 3 threshold: t counts training points outside the basis whose
        absolute error exceeds alpha. None: t counts the misclassified training points
        outside the basis (margin y f <= 0); a number: ``|f - y| > alpha`` on
        the +-1 targets.
    delta : float in (0, 1), default=0.05
        Confidence of the bound.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    basis_indices_ : ndarray of shape (n_basis_,)
        Row of the X given to ``fit`` chosen at each kept step, -1 for the
        constant function (basic MP may repeat an index); with
        ``early_stopping="validation"`` too, so ``X[basis_indices_[basis_indices_ >= 0]]``
        equals ``support_vectors_``.
    basis_kernels_ : ndarray of shape (n_basis_,)
        Index into ``kernel_specs_`` of each step's kernel, -1 for the constant.
    kernel_specs_ : tuple of KernelSpec
        ``kernel_specs_[j].label`` names specification j.
    support_vectors_ : ndarray of shape (n_sv, n_features)
        The rows of X of the steps with ``basis_indices_ >= 0``, in order.
    coef_ : ndarray of shape (n_sv,)
        Final weights, aligned with ``support_vectors_``.
    intercept_ : float
        Weight of the constant function (0.0 if never chosen).
    coef_path_ : ndarray of shape (n_basis_, n_basis_)
        Row i: the weight of each step's function after step i+1 (zero right
        of the diagonal), constant included; what ``staged_predict`` uses.
    n_basis_ : int
        Number of kept steps (fewer than ``n_basis`` after early stopping).
    train_loss_ : ndarray of shape (n_steps,)
        Mean training loss after every step run (all ``n_basis`` steps, also
        with early stopping, so the curve can be plotted past the stop).
    bound_ : ndarray of shape (n_steps,)
        :func:`mpcore.bounds.kmp_bound` after every step run (m = training
        points used for fitting, k = distinct basis functions, the constant
        included, which only loosens the bound).
    n_errors_ : ndarray of shape (n_steps,)
        Theorem 3's t after every step run.
    validation_error_ : ndarray of shape (n_steps,) or None
        Held-out error after every step with ``early_stopping="validation"``.
    step_seconds_ : ndarray of shape (n_steps,)
        Wall time of every step run (the first includes the pursuit's set-up).
    alpha_ : float or None
        The threshold the bound used.
    dictionary_seconds_ : float
        Wall time of evaluating the dictionary on the training points.

    estimators_ : list of KMPPursuit
        The fitted pursuits, always a list: one entry for two classes (the
        pursuit of ``classes_[1]`` against ``classes_[0]``), one per class
        otherwise (class c against the rest). Each entry has every per-pursuit
        attribute above, with the shapes described.

    The per-pursuit attributes above (``basis_indices_`` ... ``validation_error_``)
    are also read on the classifier itself when there is one pursuit (two
    classes); with more classes they raise AttributeError naming
    ``estimators_[c]``: their shapes never depend on the number of classes.
    :func:`pursuit` picks a pursuit of either estimator.

    See Also
    --------
    kmp_steps : the generator ``fit`` consumes.
    KMPRegressor

    References
    ----------
    .. [1] P. Vincent, Y. Bengio. Kernel matching pursuit. Machine Learning 48, 2002.
    .. [2] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008.

    Examples
    --------
    >>> from sklearn.datasets import make_moons
    >>> X, y = make_moons(200, noise=0.1, random_state=0)
    >>> clf = KMPClassifier(n_basis=20, gamma=2.0).fit(X, y)
    >>> clf.score(X, y) > 0.95
    True
    """

    def fit(self, X, y):
        """Fit one pursuit (binary) or one per class (one-vs-rest).

        Parameters
        ----------
        X : array of shape (n_samples, n_features)
        y : array of shape (n_samples,)
            Class labels.

        Returns
        -------
        self
        """
        X, y = self._validate_fit(X, y)
        named_validation("y", check_classification_targets, y)
        self.classes_, y_enc = np.unique(y, return_inverse=True)
        n_classes = self.classes_.size
        if n_classes < 2:
            raise ValueError(
                f"KMPClassifier needs at least two classes, but y has only one class "
                f"({self.classes_[0]!r})."
            )
        if n_classes == 2:
            targets = [np.where(y_enc == 1, 1.0, -1.0)]
        else:
            targets = [np.where(y_enc == c, 1.0, -1.0) for c in range(n_classes)]
        fit_idx, dictionary, paths = self._fit_paths(X, targets, margin=True, labels=y_enc)
        self.estimators_ = [self._path_attributes(X, fit_idx, dictionary, p) for p in paths]
        return self

    def _pursuits(self):
        return self.estimators_

    def _single(self, name):
        check_is_fitted(self)
        if len(self.estimators_) > 1:
            raise AttributeError(
                f"{name} belongs to one pursuit, and this one-vs-rest fit has one per class: "
                f"read estimators_[c].{name} (or mpcore.kmp.pursuit(model, c).{name})."
            )
        return getattr(self.estimators_[0], name)

    # The pursuit's attributes, for a two-class fit (one pursuit).
    basis_indices_ = property(lambda self: self._single("basis_indices_"))
    basis_kernels_ = property(lambda self: self._single("basis_kernels_"))
    support_vectors_ = property(lambda self: self._single("support_vectors_"))
    coef_ = property(lambda self: self._single("coef_"))
    intercept_ = property(lambda self: self._single("intercept_"))
    coef_path_ = property(lambda self: self._single("coef_path_"))
    n_basis_ = property(lambda self: self._single("n_basis_"))
    train_loss_ = property(lambda self: self._single("train_loss_"))
    n_errors_ = property(lambda self: self._single("n_errors_"))
    bound_ = property(lambda self: self._single("bound_"))
    validation_error_ = property(lambda self: self._single("validation_error_"))
    step_seconds_ = property(lambda self: self._single("step_seconds_"))

    def decision_function(self, X):
        """Decision values f(x): shape (n_samples,) for two classes (positive means
        ``classes_[1]``), (n_samples, n_classes) one-vs-rest otherwise."""
        X = self._validate_new(X)
        values = [self._final(X, p) for p in self.estimators_]
        return values[0] if len(values) == 1 else np.column_stack(values)

    def _labels(self, dec):
        if dec.ndim == 1:
            return self.classes_[(dec > 0).astype(int)]
        return self.classes_[np.argmax(dec, axis=1)]

    def predict(self, X):
        """Class labels: the sign of f (two classes) or the largest f (one-vs-rest)."""
        return self._labels(self.decision_function(X))

    def staged_decision_function(self, X):
        """Decision values after each step.

        Yields
        ------
        dec : ndarray of shape (n_samples,) or (n_samples, n_classes)
            After step i = 1..max(n_basis_); with one-vs-rest, a class whose
            path is shorter keeps its final function. The last equals
            :meth:`decision_function`.
        """
        X = self._validate_new(X)
        gens = [self._staged(X, p) for p in self.estimators_]
        lengths = [p.n_basis_ for p in self.estimators_]
        current = [np.zeros(X.shape[0]) for _ in gens]
        for i in range(max(lengths)):
            for c, gen in enumerate(gens):
                if i < lengths[c]:
                    current[c] = next(gen)
            yield current[0].copy() if len(gens) == 1 else np.column_stack(current)

    def staged_predict(self, X):
        """Class labels after each step (see :meth:`staged_decision_function`).

        Yields
        ------
        y : ndarray of shape (n_samples,)
        """
        for dec in self.staged_decision_function(X):
            yield self._labels(dec)


# --------------------------------------------------------------------------------------
# A fitted model, step by step, at new points
# --------------------------------------------------------------------------------------


def basis_functions(model, X, path=None):
    r"""Value at X of the function each kept step added: shape (n, n_basis_).

    Column i is :math:`K_{s_i}(x, x_{\gamma_i})` for the kernel specification
    :math:`s_i` and training point :math:`x_{\gamma_i}` of step i, or 1 for the
    constant function, so that the model after step j is
    ``basis_functions(model, X)[:, :j] @ model.coef_path_[j - 1, :j]`` (Eq. 14).

    Parameters
    ----------
    model : fitted KMPClassifier or KMPRegressor
    X : array of shape (n, n_features)
    path : int, optional
        Class index for a one-vs-rest classifier (more than two classes).
    """
    p = pursuit(model, path)
    X = check_array_data(X, "X")
    if X.shape[1] != model.n_features_in_:
        raise ValueError(f"X has {X.shape[1]} features, but the model was fitted with "
                         f"{model.n_features_in_}.")
    # the estimator's own design matrix, so the page draws exactly what predict uses
    return model._design(X, p)


def staged_values(model, X, path=None):
    """The model's function after each kept step at X: shape (n_basis_, n).

    For a regressor these are ``staged_predict(X)``; for a binary classifier
    ``staged_decision_function(X)``; for a one-vs-rest classifier the decision
    values of class ``path`` along its own pursuit.
    """
    B = basis_functions(model, X, path)
    cp = pursuit(model, path).coef_path_
    k = cp.shape[0]
    return np.stack([B[:, : j + 1] @ cp[j, : j + 1] for j in range(k)]) if k else np.zeros((0, len(B)))


# --------------------------------------------------------------------------------------
# Kernel specifications for people: labels and mixed dictionaries (Section 4.1)
# --------------------------------------------------------------------------------------

#: Dictionary choices: one kernel, several widths of it, several kernel types.
MIX_MODES = ("single", "widths", "types")
#: Width multipliers of a "widths" dictionary: sigma/2, sigma, 2 sigma.
WIDTH_FACTORS = (0.5, 1.0, 2.0)
#: Kernels whose shape has a width (a gamma) to vary.
_WIDTH_KERNELS = ("rbf", "laplacian", "polynomial", "sigmoid")
def spec_label(spec) -> str:
    """A kernel specification named for people: widths as sigma where the page uses sigma.

    Gaussian :math:`e^{-\\gamma\\|x-z\\|^2}` has :math:`\\sigma = 1/\\sqrt{2\\gamma}`
    (Shawe-Taylor & Cristianini's convention), Laplacian :math:`\\sigma = 1/\\gamma`;
    other kernels keep ``KernelSpec.label``.

    Examples
    --------
    >>> from mpcore.kmp import KernelSpec
    >>> spec_label(KernelSpec("rbf", gamma=0.5))
    'Gaussian σ = 1'
    """
    if not isinstance(spec, KernelSpec):
        raise TypeError(f"spec must be a KernelSpec (see normalize_kernel_specs), got {_short(spec)}.")
    if spec.kernel == "rbf" and spec.gamma:
        return f"Gaussian σ = {gamma_to_sigma(spec.gamma, 'book'):.3g}"
    if spec.kernel == "laplacian" and spec.gamma:
        return f"Laplacian σ = {gamma_to_sigma(spec.gamma, 'laplacian'):.3g}"
    return spec.label


def has_width(kernel: str) -> bool:
    """Whether ``kernel`` has a width parameter that a "widths" dictionary can vary."""
    return kernel in _WIDTH_KERNELS


def mixed_dictionary(kernel="rbf", *, gamma=None, degree=3, coef0=1.0, mode="single",
                     sigma=None, factors=WIDTH_FACTORS):
    r"""Kernel specifications of a (mixed) KMP dictionary, Vincent & Bengio Section 4.1.

    Parameters
    ----------
    kernel, gamma, degree, coef0 :
        The base kernel (as for :func:`mpcore.kernels.kernel_matrix`).
    mode : {"single", "widths", "types"}
        "single": the base kernel only. "widths": the base kernel at every width
        ``factor * sigma`` (Gaussian: :math:`\gamma/f^2`; Laplacian:
        :math:`\gamma/f`; polynomial and sigmoid: :math:`\gamma/f^2`, the scale of
        :math:`x'z`). "types": a Gaussian and a Laplacian of width ``sigma`` and a
        degree-2 polynomial (:math:`\gamma = 1/d`, :math:`c_0 = 1`), so that each
        training point offers three shapes.
    sigma : float, optional
        Width for "types" (default: derived from ``gamma`` of a Gaussian
        (:math:`\sigma = 1/\sqrt{2\gamma}`) or Laplacian (:math:`1/\gamma`) base
        kernel, else 1).
    factors : tuple of float
        Width multipliers for "widths".

    Returns
    -------
    list of dict
        Specifications for :class:`mpcore.kmp.KMPClassifier` ``kernel=``.

    Examples
    --------
    >>> mixed_dictionary("rbf", gamma=2.0, mode="widths")
    [{'kernel': 'rbf', 'gamma': 8.0}, {'kernel': 'rbf', 'gamma': 2.0}, {'kernel': 'rbf', 'gamma': 0.5}]
    """
    if not isinstance(mode, str) or mode not in MIX_MODES:
        raise ValueError(f"Unknown dictionary mode {_short(mode)}. Choose one of: "
                         f"{', '.join(MIX_MODES)}.")
    check_kernel_name(kernel)
    gamma, degree, coef0 = _check_params(gamma, degree, coef0)
    base = {"kernel": kernel}
    if gamma is not None:
        base["gamma"] = float(gamma)
    if kernel == "polynomial":
        base["degree"] = int(degree)
    if kernel in ("polynomial", "sigmoid"):
        base["coef0"] = float(coef0)
    if mode == "single":
        return [base]
    if mode == "widths":
        if not has_width(kernel):
            raise ValueError(
                f"The {kernel!r} kernel has no width to vary: choose a Gaussian, Laplacian, "
                "polynomial or sigmoid kernel, or the 'types' dictionary."
            )
        if gamma is None:
            raise ValueError("A 'widths' dictionary needs an explicit gamma for the base kernel.")
        if isinstance(factors, (str, bytes)) or not hasattr(factors, "__iter__"):
            raise TypeError(f"factors must be a sequence of positive numbers, got {_short(factors)}.")
        out = []
        for f in factors:
            f = check_positive_float(f, "width factor", maximum=1e6)
            if f < 1e-6:
                raise ValueError(f"width factor must be >= 1e-6, got {f!r}.")
            g = gamma / f if kernel == "laplacian" else gamma / f**2
            if not 0 < g <= MAX_ABS_VALUE:
                raise ValueError(f"width factor {f!r} gives gamma = {g!r}, outside (0, "
                                 f"{MAX_ABS_VALUE:.0e}]; choose factors nearer 1.")
            out.append(dict(base, gamma=float(g)))
        if not out:
            raise ValueError("factors is empty: give at least one width factor.")
        return out
    if sigma is None:
        if kernel == "rbf" and gamma:
            sigma = gamma_to_sigma(gamma, "book")
        elif kernel == "laplacian" and gamma:
            sigma = gamma_to_sigma(gamma, "laplacian")
        else:
            sigma = 1.0
    sigma = _check_sigma(sigma)
    return [
        {"kernel": "rbf", "gamma": float(sigma_to_gamma(sigma, "book"))},
        {"kernel": "laplacian", "gamma": float(sigma_to_gamma(sigma, "laplacian"))},
        {"kernel": "polynomial", "degree": 2, "coef0": 1.0},
    ]
