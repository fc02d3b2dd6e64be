r"""Lesson questions of the bounds page: each computes its answer from the beat's curves.

Hussain & Shawe-Taylor (2008), Theorem 2 and Corollary 1: the chosen points of sparse
kernel PCA are a compression set, so with probability :math:`1-\delta` the expected
residual is at most the mean residual of the :math:`m-t` points outside the set plus
:math:`R\sqrt{(t\ln(em/t)+\ln(2m/\delta))/(2(m-t))}`, the price of choosing t of m points;
the bound's lowest point k* is the subspace size it recommends (their Figure 1).
Shawe-Taylor & Cristianini (2004), Theorem 6.14: the kernel-PCA bound (eigenvalue tail
plus a Rademacher penalty growing like :math:`\sqrt{t+1}`).

Its questions join :data:`views.lesson_questions.QUESTIONS`.
"""

from __future__ import annotations

import numpy as np

from .lesson_question import Asked, Feedback, Question
from .lesson_scene_bounds import BoundsScene

__all__ = ["BOUNDS_QUESTIONS"]


def _g(x: float) -> str:
    return f"{x:.4g}"


def _k(scene: BoundsScene, answer) -> int | None:
    try:
        k = int(answer)
    except (TypeError, ValueError, OverflowError):
        return None
    return k if 1 <= k <= scene.n_steps else None


def _farthest(curve, best: int) -> int:
    """A k (1-based) whose value is farthest above the minimum (a clearly wrong answer)."""
    return int(np.argmax(curve)) + 1 if int(np.argmax(curve)) + 1 != best else 1


# ---------------------------------------------------------------- where the bound is lowest


def _best_k(scene):
    return scene.curves.k_star_compression


def _best_ask(scene):
    return Asked(f"Move the slider to the k at which the compression bound (Corollary 1) is "
                 f"lowest, k from 1 to {scene.n_steps}.", lo=1, hi=scene.n_steps)


def _best_check(scene, answer):
    c, k = scene.curves, _k(scene, answer)
    best = _best_k(scene)
    if k is None:
        return Feedback(False, f"Choose a k from 1 to {scene.n_steps}.")
    terms, out, pen = c.compression_terms, c.out_residual, scene.penalty
    at = (lambda t: f"at k = {t} the term is {_g(terms[t - 1])} = residual outside the set "
                    f"{_g(out[t - 1])} + price of the set {_g(pen[t - 1])}")
    text = (f"{at(best).capitalize()}: the lowest of all k, so k* = {best} and the bound is "
            f"{_g(c.min_compression)}.")
    # a k whose term equals the minimum to the figure's 4 digits is the same point on it
    if k == best or np.isclose(terms[k - 1], terms[best - 1], rtol=1e-4, atol=0):
        return Feedback(True, "Right. " + text + " Before k* each point explains more residual "
                              "than it costs; after it, less.")
    side = ("the residual outside the set is still falling faster than the price rises: go "
            "further right" if k < best else
            "each extra point lowers the residual by less than it raises the price: go back left")
    return Feedback(False, f"Not the lowest: {at(k)}. Here {side}. {text}")


# ---------------------------------------------------------------- the price of the set


def _price_pct(scene):
    k = _best_k(scene)
    return 100 * float(scene.penalty[k - 1] / scene.curves.compression_terms[k - 1])


def _price_ask(scene):
    k = _best_k(scene)
    return Asked(f"At k* = {k} the compression bound is {_g(scene.curves.min_compression)}. What "
                 "percentage of it is the price of the compression set (the square-root term), "
                 "not the residual of the points outside it?")


def _price_check(scene, answer):
    try:
        x = float(answer)
    except (TypeError, ValueError, OverflowError):
        x = None
    k, c = _best_k(scene), scene.curves
    pct = _price_pct(scene)
    text = (f"At k* = {k}: residual outside the set {_g(c.out_residual[k - 1])} + price "
            f"{_g(scene.penalty[k - 1])} = {_g(c.compression_terms[k - 1])}, so the price is "
            f"{pct:.0f}%. The price R·√((t ln(em/t) + ln(2m/δ))/(2(m − t))) with m = {scene.m}, "
            f"δ = {scene.delta:g}, R = {_g(scene.R)} counts the ways to choose t of m points: it "
            "is what a guarantee for a data-chosen basis costs.")
    if x is not None and np.isfinite(x) and abs(x - pct) <= 10:
        return Feedback(True, "Right. " + text)
    return Feedback(False, f"You typed {answer!s:.20}%. " + text)


# ---------------------------------------------------------------- more basis vectors


MORE_OPTIONS = ("Yes: the bound keeps falling, so take all K_max vectors",
                "No: past k* the bound rises, though the residuals still fall")


def _more_right(scene):
    c = scene.curves
    rises = c.compression_terms[-1] > c.compression_terms[_best_k(scene) - 1] * (1 + 1e-9)
    return MORE_OPTIONS[1] if rises else MORE_OPTIONS[0]


def _more_check(scene, answer):
    c, k, K = scene.curves, _best_k(scene), scene.n_steps
    right = _more_right(scene)
    text = (f"From k* = {k} to k = {K}: the training residual falls from "
            f"{_g(c.train_residual[k - 1])} to {_g(c.train_residual[-1])}"
            + (f", the test residual from {_g(c.test_residual[k - 1])} to "
               f"{_g(c.test_residual[-1])}" if c.test_residual is not None else "")
            + f", but the price of the compression set rises from {_g(scene.penalty[k - 1])} to "
              f"{_g(scene.penalty[-1])}, so the bound's term goes from "
              f"{_g(c.compression_terms[k - 1])} to {_g(c.compression_terms[-1])}.")
    r = c.test_residual if c.test_residual is not None else c.train_residual
    before = (r[0] - r[k - 1]) / max(k - 1, 1)
    after = (r[k - 1] - r[-1]) / max(K - k, 1)
    text += (f" Per basis vector, the {'test' if c.test_residual is not None else 'training'} "
             f"residual fell by {_g(before)} up to k* and by {_g(after)} after it.")
    if right == MORE_OPTIONS[1]:
        text += (" A larger subspace always fits every point at least as well, so the residuals "
                 "never rise; what stops improving is what can be guaranteed: past k* each "
                 "point lowers the residual by less than the price of choosing it. The paper "
                 "reads k* as where the real directions end and the rest fall at a steady, "
                 "noise-like rate.")
    return Feedback(answer == right, ("Right. " if answer == right else "No. ") + text)


# ---------------------------------------------------------------- which bound says something


WHICH_OPTIONS = ("Only the compression bound is below R", "Only the KPCA bound is below R",
                 "Both are below R", "Neither is below R")


def _which_right(scene):
    c, R = scene.curves, scene.R
    comp, kpca = c.min_compression < R, c.min_kpca < R
    return WHICH_OPTIONS[0 if comp and not kpca else 1 if kpca and not comp else
                         2 if comp else 3]


def _which_check(scene, answer):
    c, R = scene.curves, scene.R
    right = _which_right(scene)
    m, t = scene.m, c.k_star_kpca
    rademacher = 8 / m * np.sqrt((t + 1) * c.kappa_sq_sum)
    confidence = 3 * R**2 * np.sqrt(np.log(2 * m / scene.delta) / (2 * m))
    text = (f"The compression bound's lowest value is {_g(c.min_compression)} (at k = "
            f"{c.k_star_compression}), the KPCA bound's {_g(c.min_kpca)} (at k = {t}); "
            f"R = {_g(R)}, and no residual can exceed R, so a bound at or above it says nothing. "
            f"With m = {m}, at k = {t} the KPCA bound's penalties alone are "
            f"(8/m)·√((t+1)·Σκ(xᵢ,xᵢ)²) = {_g(rademacher)} and 3R²·√(ln(2m/δ)/2m) = "
            f"{_g(confidence)}: they pay for every possible k-dimensional projection and shrink "
            "only like 1/√m. The compression bound pays only for choosing t of the m points.")
    return Feedback(answer == right, ("Right. " if answer == right else "Not here. ") + text)


# ---------------------------------------------------------------- the test residual


TEST_OPTIONS = ("Below the bound", "Above the bound")


def _test_right(scene):
    c = scene.curves
    return TEST_OPTIONS[0] if c.test_residual[_best_k(scene) - 1] <= c.min_compression else \
        TEST_OPTIONS[1]


def _test_check(scene, answer):
    c, k = scene.curves, _best_k(scene)
    right = _test_right(scene)
    t = float(c.test_residual[k - 1])
    text = (f"At k* = {k} the {c.n_test} test points have mean residual {_g(t)}, the bound says "
            f"at most {_g(c.min_compression)} ({t / c.min_compression:.0%} of it). Corollary 1 "
            f"holds with probability at least {1 - scene.delta:.0%} over the training sample: "
            "the test points were never seen, so this is the promise checked.")
    return Feedback(answer == right, ("Right. " if answer == right else "No. ") + text)


def _needs_test(values):
    return None if float(values["test"]) > 0 else "it compares with test points: test > 0"


def _other(options, right):
    return lambda s: next(o for o in options if o != right(s))


BOUNDS_QUESTIONS = {q.name: q for q in (
    Question("bounds.best_k", "bounds", "k",
             "The k at which the compression bound (Corollary 1) is lowest: the argmin of its "
             "term over t (right if its term equals the minimum to 4 digits).",
             _best_ask, _best_check, _best_k,
             lambda s: _farthest(s.curves.compression_terms, _best_k(s))),
    Question("bounds.price_share", "bounds", "number",
             "Percentage of the compression bound at k* that is the price of the compression "
             "set (the square-root term); right within 10 points.",
             _price_ask, _price_check, _price_pct,
             lambda s: _price_pct(s) + (40 if _price_pct(s) < 50 else -40)),
    Question("bounds.more_vectors", "bounds", "option",
             "Does the compression bound keep falling past k* (computed: its term at K_max "
             "against its minimum), with the residuals quoted?",
             lambda s: Asked(f"The bound is lowest at some k*. Going on to k = {s.n_steps}: does "
                             "the bound keep falling?", options=MORE_OPTIONS),
             _more_check, _more_right, _other(MORE_OPTIONS, _more_right)),
    Question("bounds.which_informative", "bounds", "option",
             "Which bound's minimum is below the trivial level R (compression, KPCA, both, "
             "neither).",
             lambda s: Asked(f"Here R = {_g(s.R)}. Which bound says something, i.e. drops "
                             "below R somewhere?", options=WHICH_OPTIONS),
             _which_check, _which_right, _other(WHICH_OPTIONS, _which_right)),
    Question("bounds.test_below", "bounds", "option",
             "Is the test residual at k* below the compression bound's value?",
             lambda s: Asked("At k*, is the mean residual of the held-out test points below or "
                             "above the compression bound?", options=TEST_OPTIONS),
             _test_check, _test_right, _other(TEST_OPTIONS, _test_right), _needs_test),
)}

