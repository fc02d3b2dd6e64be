"""The lesson questions against the papers' invariants, Streamlit-free.

Algorithm 1 (Hussain & Shawe-Taylor 2008): the pick is the argmax of the Rayleigh
quotients; Theorem 1: the trace falls by the chosen quotient; the Nystroem trace of any
columns is at least the eigenvalue tail; every lesson question accepts its right answer
and gives reasons for a wrong one in every beat that asks it.
"""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest

from mpcore.rpcholesky import rpcholesky

from pages.common.lesson_file import SCHEMAS, load_lesson, load_lessons
from pages.common.schemas import SKPCA
from pages.common.widgets import data_choice, kernel_choice
from views import lesson_questions as lq
from views.lesson_question import WRONG_LEAD, Feedback
from views.lesson_scene import nystrom_trace_curve, skpca_scene
from views.lesson_scenes import page_scene

from test_lessons_loader import EXAMPLE


@functools.lru_cache(maxsize=None)
def scene(**values):
    state, notes = SKPCA.build(values)
    assert not notes
    return skpca_scene(state, SKPCA["k"].at("hi", state))


def test_the_scene_uses_the_pages_choices():
    state, _ = SKPCA.build(dict(dataset="moons", sigma=0.5, k=10))
    from views.lesson_scene import data_choice as dc, kernel_choice as kc
    assert dc(state) == data_choice(state)
    assert kc(state) == kernel_choice(state) and kc(state).gamma == kernel_choice(state).gamma


@pytest.mark.parametrize("j", [1, 2, 5])
def test_next_pick_is_the_argmax_of_the_quotients(j):
    s = scene(dataset="moons", sigma=0.5, k=10, j=j)
    q = lq.get("skpca.next_pick")
    right = q.right(s)
    quotients = s.all_steps[j].quotients
    assert right == int(np.nanargmax(quotients))
    assert q.check(s, right).right
    # recompute the quotient from the deflated kernel itself: (K̂²)_ii / K̂_ii
    chosen = s.chosen(j)
    F = np.linalg.cholesky(s.K[np.ix_(chosen, chosen)])
    C = np.linalg.solve(F, s.K[chosen, :]).T
    Kh = s.K - C @ C.T
    d = np.diag(Kh)
    mine = np.where(d > 1e-9, np.sum(Kh**2, axis=1) / np.where(d > 1e-9, d, 1), -np.inf)
    assert int(np.argmax(mine)) == right
    other = int(np.argsort(-np.nan_to_num(quotients, nan=-1))[5])
    fb = q.check(s, other)
    assert not fb.right
    assert f"{quotients[other] / quotients[right]:.0%} of the largest" in fb.text


def test_theorem_1_the_trace_drop_is_the_chosen_quotient():
    s = scene(dataset="blobs", sigma=1.0, k=10, j=2)
    for t in range(len(s.all_steps)):
        st = s.all_steps[t]
        assert s.trace_after(t) - s.trace_after(t + 1) == pytest.approx(st.quotients[st.index],
                                                                         rel=1e-9, abs=1e-9)
    q = lq.get("skpca.trace_drop")
    assert q.check(s, s.trace_after(2) - s.all_steps[2].quotients[s.all_steps[2].index]).right
    fb = q.check(s, s.trace_after(2))
    assert not fb.right and "Theorem 1" in fb.text


def test_nystrom_traces_and_the_exact_tail():
    s = scene(dataset="moons", sigma=0.5, k=10)
    greedy = nystrom_trace_curve(s.K, s.chosen(10))
    assert greedy[1:] == pytest.approx([s.trace_after(t) for t in range(1, 11)], rel=1e-7)
    for t in range(1, 11):
        assert s.exact_curve[t] <= s.trace_after(t) + 1e-9
        assert s.exact_curve[t] <= s.cholesky_curve[t] + 1e-9
        assert s.exact_curve[t] <= s.uniform_left(t) + 1e-9
        # randomly pivoted Cholesky's trace left is its Nystroem approximation's on its pivots
        assert s.exact_curve[t] <= s.rpcholesky_left(t) + 1e-9
    run = rpcholesky(s.K, 4, random_state=int(s.values["seed"]))
    assert run.residual_trace[-1] == pytest.approx(
        nystrom_trace_curve(s.K, list(run.pivots))[-1], rel=1e-7)


def test_cholesky_pivots_on_the_largest_residual_diagonal():
    s = scene(dataset="moons", sigma=0.5, k=10, j=2)
    fb = lq.get("skpca.diag_vs_quotient").check(s, lq.DIAG_OPTIONS[1])
    b = int(np.argmax(s.residual_diag(2)))
    assert f"i = {b}" in fb.text and fb.right == (b != s.all_steps[2].index)


def test_best_pair_is_the_best_of_every_pair():
    s = scene(dataset="moons", n=40, sigma=2.0, k=5, j=2)
    (a, b), best = lq._best_pair(s)
    m = s.m
    brute = min(nystrom_trace_curve(s.K, [i, l])[-1] for i in range(m) for l in range(i + 1, m)
                if np.linalg.det(s.K[np.ix_([i, l], [i, l])]) > 1e-9)
    assert best == pytest.approx(brute, rel=1e-7)
    assert best <= s.trace_after(2) + 1e-9


def test_explained_point_and_width_regime_follow_the_kernel():
    s = scene(dataset="moons", sigma=0.5, k=10, j=1)
    q = lq.get("skpca.explained_point")
    c = s.chosen(1)[0]
    near = int(np.argsort(-s.K[c])[1])
    assert q.check(s, near).right and "of K_ii" in q.check(s, near).text
    assert not q.check(s, c).right and "chosen point itself" in q.check(s, c).text
    assert not q.check(s, 10**9).right and "no training point" in q.check(s, 10**9).text
    w = lq.get("kernel.width_regime")
    assert w.right(scene(dataset="moons", sigma=0.05, k=10)) == lq.WIDTH_OPTIONS[0]
    assert w.right(scene(dataset="moons", sigma=100.0, k=5)) == lq.WIDTH_OPTIONS[2]
    assert w.right(s) == lq.WIDTH_OPTIONS[1]


def _beats():
    lessons = list(load_lessons().values()) + [load_lesson(EXAMPLE)]
    for lesson in lessons:
        for beat in lesson.beats:
            names = [beat.task.question] if beat.task else list(beat.check)
            for name in names:
                yield pytest.param(beat, name, id=f"{lesson.id}-{beat.number}-{name}")


@functools.lru_cache(maxsize=None)
def _page_scene(state):
    """The scene of the state's page (one per view: a lesson asks several questions of it)."""
    page = state.schema.page
    k_max = SCHEMAS["skpca"]["k"].at("hi", state) if page == "skpca" else 0
    return page_scene(page, state, k_max)


@pytest.mark.parametrize("beat,name", list(_beats()))
def test_every_asked_question_accepts_its_answer_and_explains_a_wrong_one(beat, name):
    q = lq.get(name)
    s = _page_scene(beat.state)
    asked = q.ask(s)
    if q.answer == "option":
        assert q.right(s) in asked.options and q.wrong(s) in asked.options
    right = q.check(s, q.right(s))
    assert right.right and any(ch.isdigit() for ch in right.text)
    if q.answer == "none":
        return
    wrong = q.check(s, q.wrong(s))
    assert not wrong.right
    assert any(ch.isdigit() for ch in wrong.text) and len(wrong.text) > 40
    # the words say which, not only the alert's colour
    assert right.shown.startswith("Right") and right.shown == right.text
    assert re.match(r"(No|Not)\b", wrong.shown) and wrong.shown.endswith(wrong.text)


@pytest.mark.parametrize("text", ["No. It is 3.", "Not here: 3.", "Not quite. 3"])
def test_wrong_feedback_that_says_so_is_shown_as_it_is(text):
    assert Feedback(False, text).shown == text


@pytest.mark.parametrize("text", ["With σ = 1, a pair has K = 0.25.", "Now 3.", "Nyström: 3.",
                                  "k = 8 leaves 58.3 (42%)."])
def test_wrong_feedback_that_does_not_say_so_is_led_by_the_verdict(text):
    assert Feedback(False, text).shown == f"{WRONG_LEAD} {text}"
    assert Feedback(True, text).shown == text  # right feedback is the text itself
