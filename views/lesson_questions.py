r"""The questions a lesson may ask: each computes its answer from the beat's state.

A lesson file names a question (``"skpca.next_pick"``); it never holds the answer. Each
:class:`Question` here declares the answer it takes (:data:`ANSWERS`), computes what it
asks and its right answer with mpcore in the beat's :class:`~views.lesson_scene.SKPCAScene`,
and scores only what the student chose, with feedback that quotes the algorithm's numbers
(Hussain & Shawe-Taylor (2008), Algorithm 1 and Theorem 1; Shawe-Taylor & Cristianini
(2004), Code Fragment 5.4 for the largest-diagonal pivots).

No Streamlit here: the Learn page draws the widget, the tests call :func:`get` directly.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .lesson_scene import UNIFORM_DRAWS, SKPCAScene

__all__ = ["ANSWERS", "Asked", "Feedback", "Question", "QUESTIONS", "get"]

from .lesson_question import ANSWERS, Asked, Feedback, Question  # noqa: F401 (the registry's types)


def _g(x: float) -> str:
    return f"{x:.3g}"


def _pct(x: float) -> str:
    return f"{x:.0%}"


def _needs_next(values: Mapping) -> str | None:
    if int(values["j"]) >= int(values["k"]):
        return (f"it reveals step j + 1, so j ({values['j']}) must be below k ({values['k']})")
    return None


def _needs_exact(values: Mapping) -> str | None:
    if values.get("skpca.trick"):
        return "it compares with the whole kernel matrix: turn the 59-trick off"
    return None


def _both(*checks):
    def needs(values):
        for c in checks:
            why = c(values)
            if why:
                return why
        return None
    return needs


def _point(scene: SKPCAScene, answer) -> int | None:
    try:
        i = int(answer)
    except (TypeError, ValueError, OverflowError):
        return None
    return i if 0 <= i < scene.m else None


def _no_point(scene: SKPCAScene, answer) -> Feedback:
    return Feedback(False, f"There is no training point {answer!s:.20}: the indices run from 0 "
                           f"to {scene.m - 1}.")


def _number(answer) -> float | None:
    try:
        x = float(answer)
    except (TypeError, ValueError, OverflowError):
        return None
    return x if np.isfinite(x) else None


# ---------------------------------------------------------------- the kernel matrix


def _self_ask(scene):
    return Asked("Type K_ii = k(x_i, x_i) for a point of your choice, before any step.")


def _self_check(scene, answer):
    x, d = _number(answer), scene.diag
    lo, hi = float(d.min()), float(d.max())
    same = np.isclose(lo, hi, rtol=1e-9, atol=1e-12)
    if scene.values["kernel"] == "rbf":
        why = ("the Gaussian kernel gives k(x, x) = exp(−‖x − x‖²/2σ²) = exp(0) = 1: every "
               "point's feature vector φ(x_i) has length 1, whatever σ is")
    else:
        why = "K_ii = ‖φ(x_i)‖² is the squared length of the point's feature vector"
    here = f"K_ii = {_g(lo)} for every point" if same else f"K_ii runs from {_g(lo)} to {_g(hi)}"
    if x is not None and lo * 0.95 - 1e-9 <= x <= hi * 1.05 + 1e-9:
        return Feedback(True, f"Right: {here}; {why}.")
    return Feedback(False, f"Not quite: you typed {answer!s:.20}, but {here}; {why}.")


def _nn_and_typical(scene):
    K = scene.K.copy()
    np.fill_diagonal(K, -np.inf)
    nn = float(np.median(K.max(axis=1)))
    np.fill_diagonal(K, np.nan)
    typical = float(np.nanmedian(K))
    return nn, typical


WIDTH_OPTIONS = ("K is nearly the identity: every point is alone in feature space",
                 "Neighbours are alike, far points unlike: K has blocks",
                 "K is nearly all ones: every point looks the same")


def _width_right(scene):
    nn, typical = _nn_and_typical(scene)
    if nn < 0.5:
        return WIDTH_OPTIONS[0]
    if typical > 0.8:
        return WIDTH_OPTIONS[2]
    return WIDTH_OPTIONS[1]


def _width_check(scene, answer):
    nn, typical = _nn_and_typical(scene)
    right = _width_right(scene)
    sigma = scene.values.get("sigma")
    first = scene.all_steps[0]
    numbers = (f"With σ = {_g(sigma)}, a point's nearest neighbour has K_ij = {nn:.4g} (median "
               f"over the points) and a typical pair has K_ij = {typical:.4g}; the first basis "
               f"point removes {_pct(first.quotients[first.index] / scene.trace0)} of the trace")
    if answer == right:
        return Feedback(True, f"Right. {numbers}. {right}.")
    return Feedback(False, f"{numbers}. So: {right}. Your choice would "
                           "need " + ("neighbours far below 0.5." if answer == WIDTH_OPTIONS[0]
                                      else "even distant pairs near 1." if answer == WIDTH_OPTIONS[2]
                                      else "neighbours near 1 and distant pairs near 0."))


def _explained_ok(scene, i):
    t = scene.j
    return i not in scene.chosen(t) and scene.residual_diag(t)[i] <= 0.2 * scene.diag[i]


def _explained_check(scene, answer):
    i = _point(scene, answer)
    if i is None:
        return _no_point(scene, answer)
    t = scene.j
    chosen = scene.chosen(t)
    r, d = float(scene.residual_diag(t)[i]), float(scene.diag[i])
    if i in chosen:
        return Feedback(False, f"i = {i} is a chosen point itself (basis #{chosen.index(i) + 1}): "
                               "its residual K̂_ii is exactly 0 by construction. Click one of its "
                               "neighbours instead.")
    c = max(chosen, key=lambda c: scene.K[i, c] ** 2 / scene.K[c, c]) if scene.K is not None else None
    near = (f" Its largest kernel value with a chosen point is K = {scene.K[i, c]:.4g} (with "
            f"i = {c})." if c is not None else "")
    share = r / d if d > 0 else 0.0
    if share <= 0.2:
        return Feedback(True, f"Right: K̂_ii = {_g(r)} of K_ii = {_g(d)}: "
                              f"{'only ' + _pct(share) if share >= 0.01 else 'less than 1%'} of "
                              f"φ(x_{i})'s squared length is left outside the span of the chosen "
                              f"points.{near} A point close to a chosen one points the same way "
                              "in feature space.")
    return Feedback(False, f"K̂_ii = {_g(r)} of K_ii = {_g(d)}: {_pct(share)} of φ(x_{i})'s squared "
                           f"length is still unexplained.{near} Only points close to a chosen one "
                           "(K near 1) lose most of their diagonal.")


def _explained_right(scene):
    r = scene.residual_diag(scene.j) / np.maximum(scene.diag, 1e-300)
    r = np.where(np.isin(np.arange(scene.m), scene.chosen(scene.j)), np.inf, r)
    return int(np.argmin(r))


def _trace_left_check(scene, answer):
    x = _number(answer)
    t = scene.j
    left = scene.trace_after(t)
    share = 100 * left / scene.trace0
    drops = ", ".join(_g(s.quotients[s.index]) for s in scene.steps[:t])
    text = (f"After {t} step{'s' if t > 1 else ''} tr K̂ = {_g(left)} of tr K = {_g(scene.trace0)}: "
            f"{share:.0f}% is left. Each step removed its chosen quotient ρ ({drops}).")
    if x is not None and abs(x - share) <= 10:
        return Feedback(True, "Right. " + text)
    return Feedback(False, f"You typed {answer!s:.20}%. " + text)


# ---------------------------------------------------------------- greedy selection


def _q(scene, t):
    """Quotients of step t + 1 (before its deflation), NaN -> -inf."""
    q = np.asarray(scene.all_steps[t].quotients, dtype=float)
    return np.where(np.isfinite(q), q, -np.inf)


def _next_ask(scene):
    return Asked(f"Which point does greedy pick at step {scene.j + 1}? (tr K̂ = "
                 f"{_g(scene.trace_after(scene.j))} before it.)")


def _next_check(scene, answer):
    i = _point(scene, answer)
    if i is None:
        return _no_point(scene, answer)
    t = scene.j
    q, a = _q(scene, t), scene.all_steps[t].index
    top = float(q[a])
    head = f"Step {t + 1} picks i = {a}, the largest quotient ρ = {_g(top)}."
    if i == a or np.isclose(q[i], top, rtol=1e-9):
        return Feedback(True, f"Right: {head} Choosing it removes {_g(top)} from the trace "
                              f"({_pct(top / scene.trace_after(t))} of what is left).")
    if i in scene.chosen(t):
        return Feedback(False, f"i = {i} is already chosen: deflation left it nothing (ρ = 0). "
                               + head)
    if not np.isfinite(q[i]):
        return Feedback(False, f"i = {i} was not among this step's 59 random candidates. " + head)
    r, d = float(scene.residual_diag(t)[i]), float(scene.diag[i])
    why = (f"It sits where the chosen points already explain it (K̂_ii = {_g(r)} of {_g(d)})."
           if r <= 0.3 * d else
           "Close: it lies among unexplained points too, but fewer of them point its way."
           if q[i] >= 0.6 * top else
           f"Its own residual K̂_ii = {_g(r)} is large, but few unexplained points lie near it, "
           "so its direction explains little beyond itself.")
    return Feedback(False, f"Your point i = {i} has ρ = {_g(q[i])}, {_pct(q[i] / top)} of the "
                           f"largest. {why} {head}")


def _next_right(scene):
    return int(scene.all_steps[scene.j].index)


def _lowest_quotient(scene):
    q = _q(scene, scene.j)
    q = np.where(np.isfinite(q) & (q > 0), q, np.inf)
    return int(np.argmin(q))


def _drop_ask(scene):
    t = scene.j
    s = scene.all_steps[t]
    return Asked(f"Before step {t + 1}, tr K̂ = {scene.trace_after(t):.4g}. Step {t + 1} picks "
                 f"i = {s.index} with quotient ρ = {s.quotients[s.index]:.4g}. What is tr K̂ "
                 "after the step?")


def _drop_check(scene, answer):
    x, t = _number(answer), scene.j
    s = scene.all_steps[t]
    before, after, rho = scene.trace_after(t), scene.trace_after(t + 1), float(s.quotients[s.index])
    text = (f"tr K̂ after = {after:.4g} = {before:.4g} − {rho:.4g}: the trace falls by exactly the "
            "chosen quotient (Theorem 1), because deflation removes φ(x_i)'s direction from every "
            "point and ρ_i sums what that direction explained of each.")
    if x is not None and abs(x - after) <= 0.01 * before:
        return Feedback(True, "Right: " + text)
    return Feedback(False, f"You typed {answer!s:.20}. " + text)


DIAG_OPTIONS = ("Yes: the brightest point is the next pick",
                "No: greedy picks a different point")


def _diag_facts(scene):
    t = scene.j
    r = scene.residual_diag(t)
    b = int(np.argmax(r))
    q = _q(scene, t)
    a = int(scene.all_steps[t].index)
    return b, a, r, q


def _diag_right(scene):
    b, a, r, q = _diag_facts(scene)
    return DIAG_OPTIONS[0] if b == a or np.isclose(q[b], q[a], rtol=1e-9) else DIAG_OPTIONS[1]


def _diag_check(scene, answer):
    b, a, r, q = _diag_facts(scene)
    right = _diag_right(scene)
    text = (f"The largest residual diagonal is at i = {b} (K̂_ii = {_g(r[b])}), whose quotient is "
            f"ρ = {_g(q[b])}, {_pct(q[b] / q[a])} of the largest; greedy picks i = {a} (ρ = "
            f"{_g(q[a])}, K̂_ii = {_g(r[a])}). K̂_ii says how badly a point is explained; ρ_i "
            "says how much its direction explains of all the points.")
    return Feedback(answer == right, ("Right. " if answer == right else "Not here. ") + text)


RULES = ("greedy (sparse KPCA)", "largest residual diagonal (pivoted Cholesky)",
         "uniform random sampling", "drawn in proportion to the residual diagonal (randomly "
         "pivoted Cholesky)")


def _rule_left(scene):
    k = scene.k
    return {RULES[0]: scene.trace_after(k), RULES[1]: float(scene.cholesky_curve[k]),
            RULES[2]: scene.uniform_left(k), RULES[3]: scene.rpcholesky_left(k)}


def _rule_right(scene):
    left = _rule_left(scene)
    return min(left, key=left.get)


def _rule_ask(scene):
    return Asked(f"With k = {scene.k} columns each, which rule leaves the least trace?",
                 options=RULES)


def _rule_check(scene, answer):
    left = _rule_left(scene)
    right = _rule_right(scene)
    k = scene.k
    text = (f"Trace left at k = {k}: greedy {_g(left[RULES[0]])}, pivoted Cholesky "
            f"{_g(left[RULES[1]])}, uniform {_g(left[RULES[2]])} and randomly pivoted Cholesky "
            f"{_g(left[RULES[3]])} (means of {UNIFORM_DRAWS} seeded runs), "
            f"exact kernel PCA {_g(scene.exact_curve[k])} (the optimum, not a choice of columns).")
    if answer == right:
        return Feedback(True, f"Right: {right} wins here. " + text)
    return Feedback(False, f"Here {right} wins. " + text)


EXACT_OPTIONS = ("greedy, sometimes", "exact kernel PCA, always", "they tie")


def _exact_right(scene):
    k = scene.k
    g, e = scene.trace_after(k), float(scene.exact_curve[k])
    if np.isclose(g, e, rtol=1e-7, atol=1e-9 * scene.trace0):
        return EXACT_OPTIONS[2]
    return EXACT_OPTIONS[0] if g < e else EXACT_OPTIONS[1]


def _exact_check(scene, answer):
    k = scene.k
    g, e = scene.trace_after(k), float(scene.exact_curve[k])
    right = _exact_right(scene)
    text = (f"At k = {k} greedy leaves {_g(g)}, exact kernel PCA {_g(e)}"
            + (f" (greedy {_pct(g / e - 1)} more)" if e > 0 and g > e else "") +
            ". The top k eigenvectors leave the least trace of any k directions (the eigenvalue "
            "tail); greedy may only use directions of k training points.")
    return Feedback(answer == right, ("Right. " if answer == right else "No. ") + text)


PAIR_OPTIONS = ("Greedy's first two picks are the best pair", "Another pair leaves less trace")


def _best_pair(scene):
    """The pair of training points whose Nystroem approximation leaves the least trace (every
    pair tried): tr(K_II^{-1} (K^2)_II) in closed form for 2 x 2 blocks."""
    K = scene.K
    G = K @ K
    d, gd = np.diag(K), np.diag(G)
    num = d[None, :] * gd[:, None] - 2 * K * G + d[:, None] * gd[None, :]
    den = d[:, None] * d[None, :] - K**2
    with np.errstate(all="ignore"):
        explained = np.where(den > 1e-9 * np.max(d) ** 2, num / den, -np.inf)
    np.fill_diagonal(explained, -np.inf)
    a, b = np.unravel_index(int(np.argmax(explained)), explained.shape)
    return (int(min(a, b)), int(max(a, b))), scene.trace0 - float(explained[a, b])


def _pair_right(scene):
    _, best = _best_pair(scene)
    g = scene.trace_after(2)
    return PAIR_OPTIONS[0] if g <= best * (1 + 1e-7) + 1e-12 else PAIR_OPTIONS[1]


def _pair_check(scene, answer):
    (a, b), best = _best_pair(scene)
    g = scene.trace_after(2)
    right = _pair_right(scene)
    pair = scene.chosen(2)
    text = (f"Greedy's pair ({pair[0]}, {pair[1]}) leaves tr K̂ = {_g(g)}; the best of all "
            f"{scene.m * (scene.m - 1) // 2} pairs, ({a}, {b}), leaves {_g(best)}. ")
    if right == PAIR_OPTIONS[1]:
        text += ("Greedy is myopic: its first pick is the best single point, and the second must "
                 "make do with it; the best pair may use two points neither of which is best alone.")
    else:
        text += "On this data greedy's two picks are the best pair; on other data they are not."
    return Feedback(answer == right, ("Right. " if answer == right else "Not here. ") + text)


def _needs_pair(values):
    why = _needs_exact(values)
    if why:
        return why
    if int(values["k"]) < 2:
        return "it compares greedy's first two picks: k must be at least 2"
    return None


def _half_k(scene):
    """The smallest k shown (1..k) at which greedy leaves less than half of tr K (or k)."""
    half = 0.5 * scene.trace0
    for t in range(1, scene.k + 1):
        if scene.trace_after(t) < half:
            return t
    return scene.k


def _half_ask(scene):
    return Asked(f"tr K = {_g(scene.trace0)}. Choose the smallest k at which greedy leaves less "
                 "than half of it.", lo=1, hi=scene.k)


def _half_check(scene, answer):
    k = _point_k(scene, answer)
    right = _half_k(scene)
    at = (lambda t: f"k = {t} leaves {_g(scene.trace_after(t))} "
          f"({_pct(scene.trace_after(t) / scene.trace0)})")
    if k == right:
        return Feedback(True, f"Right: {at(k)}, while {at(k - 1)}." if k > 1 else f"Right: {at(k)}.")
    if k is None:
        return Feedback(False, f"Choose a k from 1 to {scene.k}.")
    return Feedback(False, f"{at(k)}; the smallest k under half is {right}: {at(right)}.")


def _point_k(scene, answer):
    try:
        k = int(answer)
    except (TypeError, ValueError, OverflowError):
        return None
    return k if 1 <= k <= scene.k else None


def _story_check(scene, answer=None):
    t = scene.j
    s = scene.all_steps[t]
    i, rho = s.index, float(s.quotients[s.index])
    r_before = scene.residual_diag(t)
    fell = r_before - s.residual_diag
    others = np.argsort(-fell)
    others = [int(o) for o in others if o != i][:3]
    return Feedback(True, f"Step {t + 1} picks i = {i} (ρ = {_g(rho)}, the largest). tr K̂ falls "
                          f"from {_g(scene.trace_after(t))} to {_g(scene.trace_after(t + 1))}. Its "
                          f"residual diagonal falls to 0, and its neighbours' fall most: "
                          + ", ".join(f"i = {o} by {_g(fell[o])}" for o in others) + ".")


# ---------------------------------------------------------------- the registry


def _fixed(value):
    return lambda scene: value


#: The sparse-KPCA page's questions (the other pages' are in modules of their own).
SKPCA_QUESTIONS: dict[str, Question] = {q.name: q for q in (
    Question("kernel.self_similarity", "skpca", "number",
             "K_ii = k(x_i, x_i) before any step; right if within 5% of the diagonal's range.",
             _self_ask, _self_check, lambda s: float(np.median(s.diag)),
             lambda s: float(s.diag.max()) * 3 + 1),
    Question("kernel.width_regime", "skpca", "option",
             "Which picture of K fits this width: identity, blocks or all ones (from the median "
             "nearest-neighbour K_ij and the median K_ij).",
             lambda s: Asked(f"σ = {_g(s.values.get('sigma'))}: what does K look like?",
                             options=WIDTH_OPTIONS),
             _width_check, _width_right,
             lambda s: next(o for o in WIDTH_OPTIONS if o != _width_right(s)), _needs_exact),
    Question("skpca.explained_point", "skpca", "point",
             "Click a point the chosen points explain well: right if not chosen and K̂_ii <= 20% "
             "of K_ii after the beat's j steps.",
             lambda s: Asked(f"After {s.j} step{'s' if s.j > 1 else ''}: click a point the chosen "
                             "points explain well (K̂_ii under 20% of K_ii)."), _explained_check,
             _explained_right, lambda s: int(np.argmax(s.residual_diag(s.j))), _needs_exact),
    Question("skpca.trace_left", "skpca", "number",
             "Percentage of tr K left after the beat's j steps; right within 10 points.",
             lambda s: Asked(f"tr K = {_g(s.trace0)} before any step. What percentage is left "
                             f"after {s.j} step{'s' if s.j > 1 else ''}?"),
             _trace_left_check, lambda s: 100 * s.trace_after(s.j) / s.trace0,
             lambda s: 100 * s.trace_after(s.j) / s.trace0 + (30 if s.trace_after(s.j) < 0.5 * s.trace0 else -30)),
    Question("skpca.next_pick", "skpca", "point",
             "Click the point greedy picks at step j + 1 (the largest Rayleigh quotient); the "
             "feedback compares your point's quotient with the largest.",
             _next_ask, _next_check, _next_right, _lowest_quotient, _needs_next, reveals=True),
    Question("skpca.trace_drop", "skpca", "number",
             "tr K̂ after step j + 1, given the trace before and the chosen quotient (Theorem 1); "
             "right within 1% of the trace before.",
             _drop_ask, _drop_check, lambda s: s.trace_after(s.j + 1),
             lambda s: s.trace_after(s.j) - 0.5 * float(s.residual_diag(s.j).max()) - 1.0,
             _needs_next, reveals=True),
    Question("skpca.diag_vs_quotient", "skpca", "option",
             "Is step j + 1's pick the point with the largest residual diagonal (pivoted "
             "Cholesky's pivot)? Computed by comparing the two argmaxes.",
             lambda s: Asked(f"Step {s.j + 1} is next: is its pick the point with the largest "
                             "residual diagonal K̂_ii (the brightest)?", options=DIAG_OPTIONS),
             _diag_check, _diag_right,
             lambda s: next(o for o in DIAG_OPTIONS if o != _diag_right(s)), _needs_next,
             reveals=True),
    Question("skpca.best_rule", "skpca", "option",
             "Which column choice leaves the least trace at the beat's k: greedy, largest "
             f"residual diagonal, or uniform (mean of {UNIFORM_DRAWS} seeded draws).",
             _rule_ask, _rule_check, _rule_right,
             lambda s: next(o for o in RULES if o != _rule_right(s)), _needs_exact),
    Question("skpca.beats_exact", "skpca", "option",
             "Greedy with k points against exact kernel PCA with k components: who leaves less "
             "trace at the beat's k.",
             lambda s: Asked(f"k = {s.k}: which leaves less trace?", options=EXACT_OPTIONS),
             _exact_check, _exact_right,
             lambda s: next(o for o in EXACT_OPTIONS if o != _exact_right(s)), _needs_exact),
    Question("skpca.best_pair", "skpca", "option",
             "Are greedy's first two picks the best pair of training points (every pair tried, "
             "closed form)?",
             lambda s: Asked("Are greedy's first two picks the best pair of training points? "
                             f"All {s.m * (s.m - 1) // 2} pairs can be tried.",
                             options=PAIR_OPTIONS),
             _pair_check, _pair_right,
             lambda s: next(o for o in PAIR_OPTIONS if o != _pair_right(s)), _needs_pair),
    Question("skpca.half_trace_k", "skpca", "k",
             "The smallest k at which greedy leaves less than half of tr K.",
             _half_ask, _half_check, _half_k,
             lambda s: _half_k(s) + 1 if _half_k(s) < s.k else _half_k(s) - 1),
    Question("skpca.step_story", "skpca", "none",
             "Observe: runs step j + 1 and says what it picked, the trace before and after, and "
             "whose residual diagonal fell most.",
             lambda s: Asked(f"Step {s.j + 1} is next."), _story_check, _fixed(None),
             _fixed(None), _needs_next, reveals=True),
)}


# Questions of the KMP, bounds and eigenvalue pages and of the Nystroem lesson live in modules of
# their own, built on the types of views.lesson_question; the registry is their union.
from .lesson_questions_bounds import BOUNDS_QUESTIONS  # noqa: E402
from .lesson_questions_kmp import KMP_QUESTIONS  # noqa: E402
from .lesson_questions_nystrom import NYSTROM_QUESTIONS  # noqa: E402
from .lesson_questions_spectrum import SPECTRUM_QUESTIONS  # noqa: E402

#: Every question a lesson may name.
QUESTIONS: dict[str, Question] = {**SKPCA_QUESTIONS, **NYSTROM_QUESTIONS, **KMP_QUESTIONS,
                                  **BOUNDS_QUESTIONS, **SPECTRUM_QUESTIONS}


def get(name: str) -> Question:
    """The question called ``name`` (KeyError if there is none)."""
    return QUESTIONS[name]
