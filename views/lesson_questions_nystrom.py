r"""Lesson questions of sparse kernel PCA as a Nystroem approximation, on the sparse-KPCA page.

Hussain & Shawe-Taylor (2008), Eqs. 4-5: the chosen points' feature vectors span the
subspace; a point's coordinates on it are :math:`F = K_{:,I} L^{-T}` with :math:`LL' =
K_{I,I}`, so :math:`FF' = K_{:,I}K_{I,I}^{-1}K_{I,:} = \tilde K` (the Nystroem
approximation) and :math:`K_{ii} = \|f_i\|^2 + \hat K_{ii}` (projection and residual). A new
point x has coordinates :math:`L^{-1}k_I(x)` and residual :math:`k(x,x) - \|f(x)\|^2`.
Smola & Schoelkopf (2000), Section 4.2: the best of 59 random candidates lies in the top 5%
of all candidates with probability :math:`1 - 0.95^{59} > 0.95` (the 59-trick).

Its questions join :data:`views.lesson_questions.QUESTIONS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

import numpy as np

from mpcore.kernels import kernel_diag, kernel_matrix

from . import data as _data
from . import skpca as _skpca
from .lesson_question import Asked, Feedback, Question
from .lesson_scene import SKPCAScene, data_choice, kernel_choice

__all__ = ["NYSTROM_QUESTIONS", "coordinates", "test_residuals", "trick_rank", "trick_gap"]

#: The 59-trick's promise: the best of 59 uniform draws is in the top 5% with this probability.
TRICK_PROBABILITY = 1 - 0.95**59


def _g(x: float) -> str:
    return f"{x:.4g}"


def _number(answer) -> float | None:
    try:
        x = float(answer)
    except (TypeError, ValueError, OverflowError):
        return None
    return x if np.isfinite(x) else None


def _other(options, right):
    return lambda s: next(o for o in options if o != right(s))


@lru_cache(maxsize=4)  # a scene is hashed by identity; its questions ask several times
def _full_kernel(scene: SKPCAScene) -> np.ndarray:
    return scene.K if scene.K is not None else kernel_matrix(
        scene.X, **kernel_choice(scene.values).params())


def coordinates(scene: SKPCAScene, t: int, rows=None) -> np.ndarray:
    """F: the coordinates of ``rows`` (default all training points) on the directions of the
    first t chosen points (Eq. 4), so that F F' is the Nystroem approximation (Eq. 5)."""
    K = _full_kernel(scene)
    rows = np.arange(scene.m) if rows is None else rows
    return _skpca.chosen_coordinates(K, scene.chosen(t), rows)


# ---------------------------------------------------------------- a point's coordinates


def _probe(scene) -> int:
    """The point asked about: the unchosen point whose residual share is the median."""
    t = scene.j
    share = scene.residual_diag(t) / np.maximum(scene.diag, 1e-300)
    free = np.setdiff1d(np.arange(scene.m), scene.chosen(t))
    order = free[np.argsort(share[free], kind="stable")]
    return int(order[len(order) // 2])


def _length_right(scene) -> float:
    i = _probe(scene)
    return float(np.sum(coordinates(scene, scene.j, [i])[0] ** 2))


def _length_ask(scene):
    i, t = _probe(scene), scene.j
    return Asked(f"After {t} step{'s' if t > 1 else ''}, point i = {i} has K_ii = "
                 f"{_g(scene.diag[i])} and residual K̂_ii = {_g(scene.residual_diag(t)[i])}. "
                 f"What is ‖f_i‖², the squared length of its {t} coordinates on the chosen "
                 "points?")


def _length_check(scene, answer):
    x, i, t = _number(answer), _probe(scene), scene.j
    f = coordinates(scene, t, [i])[0]
    length = float(np.sum(f**2))
    d, r = float(scene.diag[i]), float(scene.residual_diag(t)[i])
    text = (f"f_i = ({', '.join(_g(v) for v in f)}), so ‖f_i‖² = {_g(length)} = K_ii − K̂_ii = "
            f"{_g(d)} − {_g(r)}: φ(x_i) splits into its projection on the span of the chosen "
            "points (length² ‖f_i‖²) and the residual at right angles (K̂_ii), and Pythagoras "
            "adds them up. Stacking every f_i as a row of F gives F F' = K[:,I] K[I,I]⁻¹ K[I,:], "
            "the Nyström approximation.")
    if x is not None and abs(x - length) <= 0.02 * max(d, 1e-12):
        return Feedback(True, "Right: " + text)
    return Feedback(False, f"You typed {answer!s:.20}. " + text)


# ---------------------------------------------------------------- a new point


@lru_cache(maxsize=8)
def test_residuals(scene: SKPCAScene, t: int) -> tuple[np.ndarray, np.ndarray]:
    """(k(x,x), residual) of the held-out points of the view's split after t steps:
    k(x,x) − ‖L⁻¹ k_I(x)‖², the same projection as a training point's."""
    v = scene.values
    choice, kern = data_choice(v), kernel_choice(v)
    d = _data.load(choice)
    tr, te = _data.split(d, v["test"], choice.seed)
    X_te = np.asarray(d.X[te])
    chosen = np.asarray(scene.chosen(t), dtype=int)
    K_ii = kernel_matrix(scene.X[chosen], **kern.params())
    L = np.linalg.cholesky(K_ii + 1e-12 * np.trace(K_ii) / len(chosen) * np.eye(len(chosen)))
    F = np.linalg.solve(L, kernel_matrix(scene.X[chosen], X_te, **kern.params())).T
    diag = kernel_diag(X_te, **kern.params())
    return diag, np.maximum(diag - np.sum(F**2, axis=1), 0.0)


NEW_OPTIONS = ("New points are left with clearly more residual (over 10% more)",
               "About the same (within 10%)",
               "New points are left with clearly less residual (over 10% less)")


def _new_facts(scene):
    t = scene.j
    diag, res = test_residuals(scene, t)
    free = np.setdiff1d(np.arange(scene.m), scene.chosen(t))
    train = float(np.mean(scene.residual_diag(t)[free]))
    return float(np.mean(res)), train, len(res)


def _new_right(scene):
    test, train, _ = _new_facts(scene)
    ratio = test / train if train > 0 else 1.0
    return NEW_OPTIONS[0 if ratio > 1.1 else 2 if ratio < 0.9 else 1]


def _new_check(scene, answer):
    test, train, n = _new_facts(scene)
    right = _new_right(scene)
    t = scene.j
    text = (f"After {t} steps the {n} held-out points keep a mean residual of {_g(test)}; the "
            f"training points outside the chosen set keep {_g(train)}"
            + (f" (new points {test / train - 1:+.0%})" if train > 0 else "") + ". A new point "
            "is projected exactly like a training point: its coordinates are L⁻¹ k_I(x), its "
            "kernel values with the chosen points, so no new point changes the basis. The "
            "chosen points were picked to explain the training points, so new points can be "
            "explained a little worse: that gap is what the bounds of lesson 4 control.")
    return Feedback(answer == right, ("Right. " if answer == right else "Not here. ") + text)


def _needs_test(values: Mapping) -> str | None:
    return None if float(values["test"]) > 0 else "it uses held-out points: test > 0"


# ---------------------------------------------------------------- the 59-trick


@lru_cache(maxsize=8)
def trick_rank(scene: SKPCAScene, t: int) -> tuple[int, float, int]:
    """(the trick's pick at step t + 1, the share of all points whose exact quotient on the
    same deflated kernel is larger, how many points have a quotient)."""
    K = _full_kernel(scene)
    chosen = scene.chosen(t)
    F = _skpca.chosen_coordinates(K, chosen, np.arange(scene.m))
    Kh = K - F @ F.T
    d = np.diag(Kh)
    ok = d > 1e-9 * float(np.max(np.diag(K)))
    q = np.where(ok, np.sum(Kh**2, axis=1) / np.where(ok, d, 1.0), -np.inf)
    pick = int(scene.all_steps[t].index)
    return pick, float(np.sum(q > q[pick] * (1 + 1e-9))) / int(ok.sum()), int(ok.sum())


TOP_OPTIONS = ("In the top 5% of all points' quotients", "Outside the top 5%")


def _top_right(scene):
    _, above, _ = trick_rank(scene, scene.j)
    return TOP_OPTIONS[0] if above < 0.05 else TOP_OPTIONS[1]


def _top_check(scene, answer):
    pick, above, n = trick_rank(scene, scene.j)
    right = _top_right(scene)
    text = (f"Step {scene.j + 1} scored 59 random candidates and took i = {pick}. Scored "
            f"against all {n} points, {above:.1%} of them have a larger quotient, so its pick is "
            f"{'in' if above < 0.05 else 'outside'} the top 5%. Each random candidate misses "
            "the top 5% with probability 0.95, all 59 miss it with 0.95⁵⁹ = "
            f"{1 - TRICK_PROBABILITY:.3f}: the best of 59 is in the top 5% with probability "
            f"{TRICK_PROBABILITY:.3f}, whatever m is.")
    return Feedback(answer == right, ("Right. " if answer == right else "Not this time. ") + text)


@lru_cache(maxsize=8)
def trick_gap(scene: SKPCAScene) -> tuple[float, float]:
    """(trace left by the 59-trick after k steps, trace left by exact greedy after k steps)."""
    K = _full_kernel(scene)
    steps = _skpca.skpca_steps(scene.X, kernel_choice(scene.values), scene.k, K=K)
    return scene.trace_after(scene.k), float(steps[-1].trace_residual)


GAP_OPTIONS = ("It leaves less trace than exact greedy",
               "At most 10% more trace than exact greedy",
               "More than 10% more trace than exact greedy")


def _gap_right(scene):
    trick, exact = trick_gap(scene)
    return GAP_OPTIONS[0 if trick < exact else 1 if trick <= 1.1 * exact else 2]


def _gap_check(scene, answer):
    trick, exact = trick_gap(scene)
    right = _gap_right(scene)
    m, k = scene.m, scene.k
    text = (f"After k = {k} steps on m = {m} points: the 59-trick leaves tr K̂ = {_g(trick)}, "
            f"exact greedy {_g(exact)} ({trick / exact - 1:+.1%}), of tr K = {_g(scene.trace0)}. "
            f"Exact greedy scores all {m} points at every step and needs all of K ({m * m:,} "
            f"kernel values); the trick scores 59 and needs the 59 candidates' columns "
            f"({59 * m:,} values a step), so its cost does not grow with m². Near-best at every "
            "step is almost as good as best: the quotients of the top few percent are close.")
    return Feedback(answer == right, ("Right. " if answer == right else "No. ") + text)


def _needs_trick(values: Mapping) -> str | None:
    if not values.get("skpca.trick"):
        return "it is about the 59-trick: turn skpca.trick on"
    return None


def _needs_trick_next(values: Mapping) -> str | None:
    why = _needs_trick(values)
    if why:
        return why
    if int(values["j"]) >= int(values["k"]):
        return f"it asks about step j + 1, so j ({values['j']}) must be below k ({values['k']})"
    return None


NYSTROM_QUESTIONS = {q.name: q for q in (
    Question("nystrom.coordinate_length", "skpca", "number",
             "‖f_i‖² of a point's coordinates on the chosen points after j steps (the unchosen "
             "point of median residual share), = K_ii − K̂_ii; right within 2% of K_ii.",
             _length_ask, _length_check, _length_right,
             lambda s: float(s.residual_diag(s.j)[_probe(s)]) + 0.3 * float(s.diag[_probe(s)])),
    Question("nystrom.new_points", "skpca", "option",
             "Mean residual of the held-out points after j steps against that of the unchosen "
             "training points: more, about the same (within 10%) or less.",
             lambda s: Asked(f"After {s.j} steps, how well are the held-out points (never seen "
                             "by the selection) explained, against the unchosen training "
                             "points?", options=NEW_OPTIONS),
             _new_check, _new_right, _other(NEW_OPTIONS, _new_right), _needs_test),
    Question("nystrom.trick_top5", "skpca", "option",
             "Is the 59-trick's pick at step j + 1 in the top 5% of all points' quotients on "
             "the same deflated kernel?",
             lambda s: Asked(f"Step {s.j + 1} scores 59 random candidates. Is its pick in the "
                             "top 5% of all points' quotients?", options=TOP_OPTIONS),
             _top_check, _top_right, _other(TOP_OPTIONS, _top_right), _needs_trick_next),
    Question("nystrom.trick_gap", "skpca", "option",
             "Trace left by the 59-trick after k steps against exact greedy after k steps: "
             "less, at most 10% more, or more than 10% more.",
             lambda s: Asked(f"After k = {s.k} steps, how much trace does the 59-trick leave "
                             "compared with exact greedy?", options=GAP_OPTIONS),
             _gap_check, _gap_right, _other(GAP_OPTIONS, _gap_right), _needs_trick),
)}

