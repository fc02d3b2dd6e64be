r"""Lesson questions of the eigenvalue page: each computes its answer from the beat's run.

Nystroem on k columns (Hussain & Shawe-Taylor (2008), Eq. 5): :math:`\tilde K =
K_{:,I}K_{I,I}^{-1}K_{I,:}` and :math:`K-\tilde K` is a Schur complement, positive
semi-definite, so every Nystroem eigenvalue is at most the exact one. The sketched
empirical kernel map (Marukatat (2016), Algorithm 1): :math:`Z = SK`, the eigenvalues of
:math:`ZZ'` estimate :math:`\lambda_i^2`, with Eq. 3, :math:`|\lambda_i^2-\tilde\lambda_i|
\le \|E\|_2` where :math:`K^2 = Z'Z + E`; its errors go either way.

Its questions join :data:`views.lesson_questions.QUESTIONS`.
"""

from __future__ import annotations

import numpy as np

from .lesson_question import Asked, Feedback, Question
from mpcore.plots import EKM_SERIES, NYSTROM_SERIES

from .lesson_scene_spectrum import APPROXIMATIONS, SpectrumScene

__all__ = ["SPECTRUM_QUESTIONS"]

NYSTROM, SKETCHES = tuple(NYSTROM_SERIES.values()), tuple(EKM_SERIES.values())
GAUSSIAN = EKM_SERIES["gaussian"]


def _pct(x: float) -> str:
    return f"{x:.1%}" if x < 0.1 else f"{x:.0%}"


def _other(options, right):
    return lambda s: next(o for o in (options(s) if callable(options) else options)
                          if o != right(s))


# ---------------------------------------------------------------- the top eigenvalues


def _top_right(scene: SpectrumScene):
    return min(APPROXIMATIONS, key=lambda n: scene.errors[n])


def _top_check(scene, answer):
    right = _top_right(scene)
    ranked = sorted(APPROXIMATIONS, key=lambda n: scene.errors[n])
    text = (f"Largest relative error over the top {scene.n} eigenvalues: "
            + "; ".join(f"{n} {_pct(scene.errors[n])}" for n in ranked) + ". "
            f"Nyström sees K only through its k = {scene.k} columns ({scene.k / scene.m:.0%} of "
            "them), so which columns matters as much as how many; the EKM sees every column "
            f"of K, sketched to q = {scene.q} numbers, and estimates λᵢ² (the eigenvalues of "
            "K²): squaring makes the top eigenvalues dominate, so the sketch keeps them best.")
    if answer == right:
        return Feedback(True, f"Right: {right}. " + text)
    mine = (f"Yours, {answer}, is off by up to {_pct(scene.errors[answer])}. "
            if answer in scene.errors else "")
    return Feedback(False, f"No: {right} has the smallest error ({_pct(scene.errors[right])}). "
                    + mine + text)


# ---------------------------------------------------------------- the subspace


def _angle_right(scene):
    finite = [n for n in APPROXIMATIONS if np.isfinite(scene.angles[n])]
    return min(finite, key=lambda n: scene.angles[n])


def _angle_check(scene, answer):
    right = _angle_right(scene)
    ranked = sorted(APPROXIMATIONS, key=lambda n: np.nan_to_num(scene.angles[n], nan=180.0))
    text = (f"Largest angle between the exact top-{scene.n} eigenvectors and each method's: "
            + "; ".join(f"{n} {scene.angles[n]:.1f}°" for n in ranked) + ". An angle asks "
            "whether the directions are right, not the sizes: a method can get every "
            "eigenvalue within a few percent and still mix two directions whose eigenvalues "
            "are close.")
    if answer == right:
        return Feedback(True, f"Right: {right}. " + text)
    mine = (f"Yours, {answer}, is {scene.angles[answer]:.1f}° off. "
            if answer in scene.angles and np.isfinite(scene.angles[answer]) else "")
    return Feedback(False, f"No: {right} has the smallest angle ({scene.angles[right]:.1f}°). "
                    + mine + text)


# ---------------------------------------------------------------- one winner for both?


SAME_OPTIONS = ("Yes: the same method wins both", "No: different methods win")


def _same_right(scene):
    return SAME_OPTIONS[0] if _top_right(scene) == _angle_right(scene) else SAME_OPTIONS[1]


def _same_check(scene, answer):
    right = _same_right(scene)
    top, ang = _top_right(scene), _angle_right(scene)
    text = (f"Top-{scene.n} eigenvalues: {top} wins ({_pct(scene.errors[top])} error; its angle "
            f"{scene.angles[top]:.1f}°). Subspace: {ang} wins ({scene.angles[ang]:.1f}°; its "
            f"eigenvalue error {_pct(scene.errors[ang])}). ")
    text += ("Two questions, two winners: eigenvalues are sizes, the angle is directions. "
             "Say which one you need before choosing a method." if right == SAME_OPTIONS[1] else
             "Here one method wins both, but that is this data, k and q: on other settings "
             "they split, because sizes and directions are different questions.")
    return Feedback(answer == right, ("Right. " if answer == right else "No. ") + text)


# ---------------------------------------------------------------- from below or either way


SIDE_OPTIONS = ("Never: every Nyström estimate is at most the exact λᵢ",
                "Sometimes: a Nyström estimate can be above the exact λᵢ")


def _above(scene, names):
    """Method -> how many of its top-n estimates exceed the exact ones (beyond rounding)."""
    tol = 1e-9 * float(scene.exact[0])
    return {n: int(np.sum(scene.top(n) > scene.exact + tol)) for n in names}


def _side_right(scene):
    nys = _above(scene, NYSTROM)
    return SIDE_OPTIONS[1] if any(nys.values()) else SIDE_OPTIONS[0]


def _side_check(scene, answer):
    right = _side_right(scene)
    nys, ekm = _above(scene, NYSTROM), _above(scene, SKETCHES)
    text = (f"How many of the top {scene.n} estimates lie above the exact eigenvalue: "
            + "; ".join(f"{n} {c}" for n, c in {**nys, **ekm}.items()) + ". "
            "K − K̃ is a Schur complement, positive semi-definite, so the Nyström K̃ ≤ K and "
            "each of its eigenvalues is at most the exact one (Weyl). The EKM's ZZ' = SK²S' "
            "has no such order: a sketch can stretch K² as well as shrink it.")
    return Feedback(answer == right, ("Right. " if answer == right else "No. ") + text)


# ---------------------------------------------------------------- Eq. 3


EQ3_OPTIONS = ("Tight: ‖E‖₂ is less than 2× the largest observed error",
               "Within 2× to 10× of it", "Loose: more than 10× the largest observed error")


def _eq3(scene):
    e = scene.run["ekm"][GAUSSIAN]
    return float(e["spectral"]) / max(float(e["observed"]), 1e-300), e


def _eq3_right(scene):
    ratio, _ = _eq3(scene)
    return EQ3_OPTIONS[0 if ratio < 2 else 1 if ratio <= 10 else 2]


def _eq3_check(scene, answer):
    ratio, e = _eq3(scene)
    right = _eq3_right(scene)
    text = (f"Gaussian sketch, q = {scene.q}: the largest observed |λᵢ² − λ̃ᵢ| is "
            f"{e['observed']:.4g}, ‖E‖₂ = {e['spectral']:.4g} ({ratio:.1f}×), and the bound one "
            f"can compute without E's eigenvalues, m·max|εᵢⱼ|, is {e['entrywise']:.4g}. Eq. 3 "
            "holds always (Weyl: the eigenvalues of K² and Z'Z differ by at most ‖E‖₂); it is "
            "on the squared scale, so on λᵢ itself, dividing by λᵢ + √λ̃ᵢ, it is loosest for "
            "the small eigenvalues.")
    return Feedback(answer == right, ("Right. " if answer == right else "Not here. ") + text)


# ---------------------------------------------------------------- what each reads of K


def _cost_options(scene):
    m, k = scene.m, scene.k
    return (f"Nyström: it reads m·k = {m * k:,} entries of K",
            f"The EKM: it reads all m² = {m * m:,} entries of K, but sketches them")


def _cost_right(scene):
    opts = _cost_options(scene)
    return opts[0] if scene.k < scene.m else opts[1]


def _cost_check(scene, answer):
    right = _cost_right(scene)
    m, k, q = scene.m, scene.k, scene.q
    text = (f"Nyström needs k = {k} columns of K: {m * k:,} kernel values and an O(m·k²) = "
            f"{m * k * k:,}-step eigenproblem; the rule choosing the columns may cost more "
            "(greedy scores every point: m² per step, or 59 candidates with the 59-trick). The "
            f"Gaussian-sketch EKM forms Z = SK from all of K ({m * m:,} values, q·m² = "
            f"{q * m * m:,} multiply-adds). With K too large to form, only Nyström runs at all; "
            "with K in memory, exact Lanczos for a few eigenvalues is often faster than both.")
    return Feedback(answer == right, ("Right. " if answer == right else "No. ") + text)


SPECTRUM_QUESTIONS = {q.name: q for q in (
    Question("spectrum.top_winner", "spectrum", "option",
             "Which approximation (three Nyström rules, two EKM sketches) has the smallest "
             "largest relative error over the top n eigenvalues, from the page's run.",
             lambda s: Asked(f"Which method has the smallest error on the top {s.n} "
                             "eigenvalues here?", options=APPROXIMATIONS),
             _top_check, _top_right, _other(APPROXIMATIONS, _top_right)),
    Question("spectrum.angle_winner", "spectrum", "option",
             "Which approximation's top-n eigenvectors have the smallest largest principal "
             "angle to the exact ones.",
             lambda s: Asked(f"Which method's top-{s.n} eigenvectors are closest to the exact "
                             "subspace (the smallest largest angle)?", options=APPROXIMATIONS),
             _angle_check, _angle_right, _other(APPROXIMATIONS, _angle_right)),
    Question("spectrum.same_winner", "spectrum", "option",
             "Does the method with the smallest top-n eigenvalue error also have the smallest "
             "subspace angle?",
             lambda s: Asked("Does the same method win on the top eigenvalues and on the "
                             "subspace angle?", options=SAME_OPTIONS),
             _same_check, _same_right, _other(SAME_OPTIONS, _same_right)),
    Question("spectrum.nystrom_side", "spectrum", "option",
             "Is any Nyström estimate of the top n above the exact eigenvalue (counted over the "
             "three rules; the EKM's counts in the feedback)?",
             lambda s: Asked(f"Is any Nyström estimate of the top {s.n} eigenvalues above the "
                             "exact one?", options=SIDE_OPTIONS),
             _side_check, _side_right, _other(SIDE_OPTIONS, _side_right)),
    Question("spectrum.eq3_tightness", "spectrum", "option",
             "How loose is Marukatat's Eq. 3 for the Gaussian sketch: ‖E‖₂ over the largest "
             "observed |λᵢ² − λ̃ᵢ| (under 2, 2 to 10, over 10).",
             lambda s: Asked(f"Eq. 3 bounds every |λᵢ² − λ̃ᵢ| by ‖E‖₂. For the Gaussian sketch "
                             f"with q = {s.q}, how far above the largest actual error is it?",
                             options=EQ3_OPTIONS),
             _eq3_check, _eq3_right, _other(EQ3_OPTIONS, _eq3_right)),
    Question("spectrum.fewer_entries", "spectrum", "option",
             "Which method reads fewer entries of K: Nyström (m·k) or the EKM (m²).",
             lambda s: Asked("Which method needs fewer entries of K?",
                             options=_cost_options(s)),
             _cost_check, _cost_right, _other(_cost_options, _cost_right)),
)}

