r"""What the sparse-KPCA page draws: the greedy steps, the deflated kernel, the trace curves.

After j steps of Algorithm 1 the deflated kernel is :math:`K - \tilde K_j` with
:math:`\tilde K_j = K_{:,I} K_{I,I}^{-1} K_{I,:}` the rank-j Nystroem
approximation on the first j chosen points :math:`I`; its trace falls at best
as the tail of the eigenvalues (exact KPCA), and incomplete Cholesky with
largest-pivot choice is the other greedy baseline (Shawe-Taylor & Cristianini
(2004), Code Fragment 5.4); randomly pivoted Cholesky (Chen, Epperly, Tropp & Webber,
arXiv:2207.06503) and uniform sampling are the random ones.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import solve_triangular

from mpcore._linalg import cholesky_with_jitter
from mpcore.kernels import kernel_matrix
from mpcore.plots import project_2d
from mpcore.skpca import greedy_steps, greedy_steps_from_data
from mpcore._validation import validated_kernel
from mpcore.nystrom import random_order
from mpcore.rpcholesky import partial_cholesky, rpcholesky
from mpcore.spectrum import incomplete_cholesky

from .data import KernelChoice

__all__ = ["HEATMAP_MAX_POINTS", "HEATMAP_MAX_M", "skpca_steps", "eigenvalues",
           "heatmap_points", "chosen_coordinates", "deflated_heatmaps", "exact_tail",
           "cholesky_curve", "rpcholesky_curve", "uniform_curve", "skpca_view", "CURVE_SEED",
           "added_rows", "animation_dict"]

#: Points shown in the deflated-kernel heatmap.
HEATMAP_MAX_POINTS = 40
#: Above this many training points the heatmap is hidden.
HEATMAP_MAX_M = 1000
EXACT_CURVE = "exact KPCA (optimum)"
CHOLESKY_CURVE = "incomplete Cholesky"
RPCHOLESKY_CURVE = "randomly pivoted Cholesky"
UNIFORM_CURVE = "uniform sampling"
#: Seed of the two random curves (one fixed draw each: the page's data seed is not needed to
#: show how a random rule compares).
CURVE_SEED = 0


def skpca_steps(X, kern: KernelChoice, k: int, *, K=None, n_candidates=None, seed=0) -> list:
    """``list(greedy_steps(K, k))`` on the training kernel ``K``, or the 59-trick on ``X``
    (``n_candidates`` random candidates per step, never forming K)."""
    if n_candidates is None:
        return list(greedy_steps(kernel_matrix(X, **kern.params()) if K is None else K, k))
    return list(greedy_steps_from_data(X, k, n_candidates=n_candidates, random_state=seed,
                                       **kern.params()))


def eigenvalues(K) -> np.ndarray:
    """All eigenvalues of ``K``, descending, rounding-level negatives set to 0."""
    return np.clip(np.linalg.eigvalsh(K)[::-1], 0.0, None)


def heatmap_points(X2, labels, m: int, max_points: int = HEATMAP_MAX_POINTS, chosen=()):
    """Which training points the heatmap shows, in display order, and a note (or None).

    At most ``max_points``: the first ``chosen`` indices (up to half of them, so that
    the chosen point's row and column can be marked), then evenly spaced others, ordered
    by class (``labels``) and then along the first axis of ``X2`` so that the blocks of
    the kernel show.
    """
    if m > max_points:
        keep = list(dict.fromkeys(int(i) for i in chosen))[: max_points // 2]
        rest = np.setdiff1d(np.arange(m), keep)
        fill = rest[np.linspace(0, len(rest) - 1, max_points - len(keep)).astype(int)]
        sub = np.concatenate([np.array(keep, dtype=int), fill]).astype(int)
        note = (f"Heatmap: {max_points} of the m = {m} training points"
                + (f" (the first {len(keep)} chosen and {len(fill)} evenly spaced others)"
                   if keep else " (evenly spaced)") + ", ordered by "
                + ("class, then " if labels is not None else "") + "the first plotted axis; "
                "tick labels are training indices.")
    else:
        sub, note = np.arange(m), None
    if labels is not None:
        sub = sub[np.lexsort((X2[sub, 0], labels[sub]))]
    else:
        sub = sub[np.argsort(X2[sub, 0])]
    return sub, note


def chosen_coordinates(K, chosen, rows) -> np.ndarray:
    r"""Coordinates of the points ``rows`` on the directions of the ``chosen`` points, in
    the order they were chosen: :math:`F = K[\mathrm{rows}, I]\, L^{-T}` with :math:`LL' =
    K[I, I]` (Cholesky, in choice order), so that :math:`F_{:, :j} F_{:, :j}'` is the rank-j
    Nystroem approximation on the first j chosen points for every j.

    What ``SparseKPCA.transform`` gives on those points, read from the kernel matrix the
    page already holds, without running the greedy selection a second time.
    """
    chosen = np.asarray(chosen, dtype=int)
    L = cholesky_with_jitter(K[np.ix_(chosen, chosen)], what="K[i,i]",
                             fix="lower the number of basis vectors k")
    return solve_triangular(L, K[np.ix_(chosen, rows)], lower=True, check_finite=False).T


def deflated_heatmaps(K_sub, F) -> np.ndarray:
    r"""Deflated kernel on the shown points after each step: ``heat[j] = K - \tilde K_{j+1}``.

    ``F`` holds the shown points' coordinates on the chosen directions
    (:func:`chosen_coordinates`), so :math:`\tilde K_{j} = F_{:, :j} F_{:, :j}'`.
    Stored as float32 (half the payload of each animation frame).
    """
    n_steps = F.shape[1]
    cum = np.zeros_like(K_sub, dtype=float)
    heat = np.empty((n_steps, len(K_sub), len(K_sub)), dtype=np.float32)
    for j in range(n_steps):
        cum += np.outer(F[:, j], F[:, j])
        heat[j] = K_sub - cum
    return heat


def exact_tail(lam, n_steps: int) -> np.ndarray:
    """Trace left by exact KPCA with t = 0..n_steps components: the eigenvalue tail."""
    lam = np.asarray(lam, dtype=float)
    tail = np.concatenate([[lam.sum()], lam.sum() - np.cumsum(lam)])[: n_steps + 1]
    return np.maximum(tail, 0.0)


def cholesky_curve(K, n_steps: int, trace0: float) -> np.ndarray:
    """Trace left by incomplete Cholesky after t = 0..n_steps pivots (largest-pivot rule)."""
    R, _ = incomplete_cholesky(K, rank=n_steps)
    chol = trace0 - np.concatenate([[0.0], np.cumsum(np.sum(R**2, axis=1))])
    return np.maximum(chol, 0.0)


def _padded(trace, n_steps: int) -> np.ndarray:
    """A residual trace over t = 0..T, held at its last value up to n_steps (spanned)."""
    trace = np.maximum(np.asarray(trace, dtype=float), 0.0)
    return np.concatenate([trace, np.full(n_steps + 1 - trace.size, trace[-1])])[: n_steps + 1]


def rpcholesky_curve(K, n_steps: int, seed: int = CURVE_SEED) -> np.ndarray:
    """Trace left by randomly pivoted Cholesky after t = 0..n_steps pivots (Chen, Epperly,
    Tropp & Webber: each pivot drawn in proportion to the residual diagonal)."""
    return _padded(rpcholesky(K, n_steps, random_state=seed).residual_trace, n_steps)


def uniform_curve(K, n_steps: int, seed: int = CURVE_SEED) -> np.ndarray:
    """Trace left by the Nystroem approximation on t = 0..n_steps points drawn uniformly
    without replacement (the nested prefixes of one seeded order)."""
    order = random_order(K.shape[0], n_steps, random_state=seed)
    return _padded(partial_cholesky(K, order).residual_trace, n_steps)


def skpca_view(X, labels, kern: KernelChoice, steps, *, K=None, lam=None,
               n_candidates=None) -> dict:
    """Everything the sparse-KPCA page draws, from the training rows ``X``.

    Parameters
    ----------
    X : ndarray of shape (m, d)
        Training rows.
    labels : ndarray of shape (m,) or None
        Class labels (classification) to order the heatmap and colour the points.
    kern : KernelChoice
    steps : list of SKPCAStep
        :func:`skpca_steps` for the same setting.
    K : ndarray of shape (m, m), optional
        Training kernel (computed when needed and not given).
    lam : ndarray, optional
        :func:`eigenvalues` of ``K`` (computed when needed and not given).
    n_candidates : int, optional
        The 59-trick: no heatmap and no exact curves (K is never formed).

    Returns
    -------
    dict
        ``steps``, ``X2`` and ``axis_labels`` (2-D picture), ``heat`` (or None),
        ``heat_index`` (the training indices of its rows and columns, or None) and
        ``heat_note``, ``curves`` (exact tail, incomplete Cholesky, randomly pivoted Cholesky and
        uniform sampling), ``trace0``,
        ``m``, ``labels``.
    """
    X2, axis_labels = project_2d(X)
    m = len(X)
    exact = n_candidates is None
    if exact and K is None:
        K = kernel_matrix(X, **kern.params())
    heat, heat_note, sub = None, None, None
    if not exact or m > HEATMAP_MAX_M:
        heat_note = (f"Heatmap hidden: m = {m} training points would mean {m}² numbers per frame"
                     + (" and the 59-trick never forms K." if not exact else "."))
    else:
        chosen = [s.index for s in steps]
        sub, heat_note = heatmap_points(X2, labels, m, chosen=chosen)
        heat = deflated_heatmaps(K[np.ix_(sub, sub)], chosen_coordinates(K, chosen, sub))
    curves = {}
    trace0 = float(steps[0].trace_residual + steps[0].quotients[steps[0].index]) if steps else 0.0
    if exact:
        K = validated_kernel(K)  # checked once for the three factorisations below
        curves[EXACT_CURVE] = exact_tail(eigenvalues(K) if lam is None else lam, len(steps))
        curves[CHOLESKY_CURVE] = cholesky_curve(K, len(steps), trace0)
        if steps:
            curves[RPCHOLESKY_CURVE] = rpcholesky_curve(K, len(steps))
            curves[UNIFORM_CURVE] = uniform_curve(K, len(steps))
    return dict(steps=steps, X2=X2, axis_labels=axis_labels, heat=heat, heat_note=heat_note,
                heat_index=sub, curves=curves, trace0=trace0, m=m, labels=labels)


def added_rows(train, n_samples: int, n_added: int) -> np.ndarray:
    """Training rows (positions in ``X[train]``) of the ``n_added`` points added by clicking,
    which the data set holds as its last ``n_added`` of ``n_samples`` rows."""
    if not n_added:
        return np.zeros(0, dtype=int)
    return np.flatnonzero(np.asarray(train) >= n_samples - n_added)


def animation_dict(view: dict, added) -> dict:
    """The animated sparse-KPCA figure of a :func:`skpca_view` as a plotly dict, the points
    added by clicking (:func:`added_rows`) marked."""
    from mpcore.plots import skpca_animation_dict

    return skpca_animation_dict(
        view["X2"], view["steps"], axis_labels=view["axis_labels"], trace0=view["trace0"],
        curves=view["curves"], heatmaps=view["heat"], heat_index=view["heat_index"],
        added=added)
