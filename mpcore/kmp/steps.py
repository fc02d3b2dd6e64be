r"""The step engine of kernel matching pursuit (Vincent & Bengio, Sections 2 and 3).

:func:`kmp_steps` yields one frozen :class:`KMPStep` per greedy step on a dictionary
matrix D. Three fittings:

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

The estimators (:mod:`mpcore.kmp.regressor`, :mod:`mpcore.kmp.classifier`) consume
this generator, so an animation of the steps shows exactly what ``fit`` computed.

References
----------
.. [1] P. Vincent, Y. Bengio. Kernel matching pursuit. Machine Learning 48,
   165-187, 2002.
.. [2] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008.
.. [3] Y. Pati, R. Rezaiifar, P. Krishnaprasad. Orthogonal matching pursuit.
   Asilomar Conference on Signals, Systems and Computers, 1993.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Iterator

import numpy as np
from scipy.linalg.blas import dger
from sklearn.exceptions import ConvergenceWarning

from .._linalg import cholesky_append, cholesky_solve
from .._losses import backfit, get_loss, line_minimize
from .._arguments import (
    MAX_KERNEL_VALUE,
    MAX_STEPS,
    _short,
    check_array_data,
    check_kernel_size,
    check_positive_float,
    check_positive_int,
    check_probability,
)
from ..bounds import kmp_bound
from .dictionary import kmp_dictionary

__all__ = ["KMPStep", "kmp_steps", "kmp_steps_from_data", "FITTINGS"]

#: The three fittings of Vincent & Bengio, Section 2.
FITTINGS = ("basic", "backfit", "prefit")

#: A dictionary column whose squared norm is at most ``SPAN_TOL`` times the largest
#: one is dropped (a zero column); a column whose component orthogonal to the
#: current span has squared norm at most ``SPAN_TOL`` times its own counts as
#: spanned (the Cholesky pivot test of scikit-learn's ``_gram_omp``, made relative).
SPAN_TOL = 1e-10

#: The pursuit stops when the best score |<d, R>| / ||d|| is at most
#: ``EXACT_FIT_TOL`` times the norm of the first residue: the fit is exact
#: (squared loss) or the loss is stationary (other losses).
EXACT_FIT_TOL = 1e-12

PREMATURE = (
    "Kernel matching pursuit stopped after {n} of {N} steps: every remaining "
    "dictionary column is (numerically) in the span of the chosen ones, or "
    "orthogonal to the residue. "
    "Lower n_basis, or use a narrower kernel (larger gamma)."
)


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
