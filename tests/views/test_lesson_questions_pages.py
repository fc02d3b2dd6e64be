"""The questions of lessons 3, 4 and 8 against the papers' invariants, Streamlit-free.

Hussain & Shawe-Taylor (2008): Eq. 5, F F' = K[:,I] K[I,I]^-1 K[I,:] with K_ii = ‖f_i‖² +
K̂_ii; Corollary 1's k* is the argmin of its term (mpcore.bounds.compression_bound); the
59-trick's pick is near the top of all quotients. Marukatat (2016): the EKM without a
sketch gives the exact eigenvalues; Nyström eigenvalues are at most the exact ones; Eq. 3
bounds the observed error. Every question accepts its right answer and explains a wrong
one with numbers.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

from mpcore.bounds import compression_bound
from mpcore.kernels import kernel_matrix
from mpcore.spectrum import ekm_eigenvalues, exact_eigenvalues, nystrom_eigenvalues
from pages.common.schemas import BOUNDS, SKPCA, SPECTRUM
from views import lesson_questions as lq
from views import lesson_questions_nystrom as lqn
from views.lesson_scene import kernel_choice, skpca_scene
from views.lesson_scenes import page_scene


@functools.lru_cache(maxsize=None)
def _scene(page, **values):
    schema = {"skpca": SKPCA, "bounds": BOUNDS, "spectrum": SPECTRUM}[page]
    state, notes = schema.build(values)
    assert not notes
    k_max = SKPCA["k"].at("hi", state) if page == "skpca" else 0
    return page_scene(page, state, k_max)


def moons(**v):
    return _scene("skpca", dataset="moons", sigma=0.5, k=10, **v)


def trick(**v):
    return _scene("skpca", dataset="moons", n=1000, sigma=0.5, k=20, **{"skpca.trick": True},
                  **v)


def boston_bounds(**v):
    return _scene("bounds", dataset="boston", sigma=2.0, **v)


def boston_spectrum(**v):
    return _scene("spectrum", dataset="boston", **v)


# ---------------------------------------------------------------- lesson 3: Nyström


def test_the_coordinates_rebuild_the_nystroem_approximation():
    s = moons(j=3)
    F = lqn.coordinates(s, 3)
    I = s.chosen(3)
    K_tilde = s.K[:, I] @ np.linalg.solve(s.K[np.ix_(I, I)], s.K[I, :])
    assert F @ F.T == pytest.approx(K_tilde, abs=1e-9)
    # Pythagoras: K_ii = ‖f_i‖² + K̂_ii for every point
    assert np.sum(F**2, axis=1) + s.residual_diag(3) == pytest.approx(s.diag, abs=1e-9)


def test_coordinate_length_is_k_ii_minus_the_residual():
    s = moons(j=3)
    q = lq.get("nystrom.coordinate_length")
    i = lqn._probe(s)
    assert i not in s.chosen(3)
    assert q.right(s) == pytest.approx(s.diag[i] - s.residual_diag(3)[i], abs=1e-9)
    assert q.check(s, q.right(s)).right
    fb = q.check(s, s.diag[i])  # forgetting the residual
    assert not fb.right and f"{s.residual_diag(3)[i]:.4g}" in fb.text


def test_a_new_points_residual_is_its_projection_on_the_chosen_points():
    s = moons(j=3)
    diag, res = lqn.test_residuals(s, 3)
    # the same residual as a training point's, computed by deflation: put the held-out
    # points with the training points, project on the same chosen points
    from views import data as _data
    from views.lesson_scene import data_choice

    d = _data.load(data_choice(s.values))
    _, te = _data.split(d, s.values["test"], s.values["seed"])
    X = np.vstack([s.X, np.asarray(d.X[te])])
    K = kernel_matrix(X, **kernel_choice(s.values).params())
    I = s.chosen(3)
    explained = np.einsum("ij,ji->i", K[:, I] @ np.linalg.inv(K[np.ix_(I, I)]), K[I, :])
    assert res == pytest.approx(np.diag(K)[s.m:] - explained[s.m:], abs=1e-8)
    q = lq.get("nystrom.new_points")
    assert q.check(s, q.right(s)).right


def test_the_trick_pick_is_ranked_against_every_points_exact_quotient():
    s = trick(j=3)
    pick, above, n = lqn.trick_rank(s, 3)
    assert pick == s.all_steps[3].index
    assert n == s.m - 3
    # recomputed from the deflated kernel of the trick's first three picks
    K = kernel_matrix(s.X, **kernel_choice(s.values).params())
    I = s.chosen(3)
    Kh = K - K[:, I] @ np.linalg.solve(K[np.ix_(I, I)], K[I, :])
    d = np.diag(Kh).copy()
    d[I] = np.nan
    quot = np.sum(Kh**2, axis=1) / d
    assert above == pytest.approx(np.nansum(quot > quot[pick] * (1 + 1e-9)) / n, abs=2 / n)
    assert lqn.TRICK_PROBABILITY == pytest.approx(0.952, abs=1e-3)


def test_the_trick_gap_compares_with_exact_greedy():
    s = trick(j=20)
    left, exact = lqn.trick_gap(s)
    assert left == pytest.approx(s.trace_after(20))
    full = skpca_scene(dict(s.values, **{"skpca.trick": False}), 20)
    assert exact == pytest.approx(full.trace_after(20), rel=1e-9)
    q = lq.get("nystrom.trick_gap")
    assert q.check(s, q.right(s)).right and not q.check(s, q.wrong(s)).right


# ---------------------------------------------------------------- lesson 4: bounds


def test_best_k_is_the_argmin_of_the_compression_bound():
    s = boston_bounds()
    c = s.curves
    B = compression_bound(c.out_residual, c.m, delta=c.delta, R=c.trivial)
    k_star = int(np.flatnonzero(B <= B[-1])[0]) + 1
    q = lq.get("bounds.best_k")
    assert q.right(s) == k_star == int(np.argmin(c.compression_terms)) + 1
    assert q.check(s, k_star).right
    wrong = q.wrong(s)
    fb = q.check(s, wrong)
    assert not fb.right and f"k* = {k_star}" in fb.text
    assert q.ask(s).hi == c.n_steps


def test_the_price_is_the_square_root_term():
    s = boston_bounds()
    c, t = s.curves, np.arange(1, s.n_steps + 1)
    price = c.trivial * np.sqrt((t * np.log(np.e * c.m / t) + np.log(2 * c.m / c.delta))
                                / (2 * (c.m - t)))
    assert s.penalty == pytest.approx(price, rel=1e-9)
    q = lq.get("bounds.price_share")
    assert q.check(s, q.right(s)).right and not q.check(s, q.wrong(s)).right


def test_past_k_star_the_residuals_fall_and_the_bound_does_not():
    s = boston_bounds()
    c, k = s.curves, s.curves.k_star_compression
    assert k < s.n_steps
    assert c.train_residual[-1] < c.train_residual[k - 1]
    assert c.compression_terms[-1] > c.compression_terms[k - 1]
    q = lq.get("bounds.more_vectors")
    assert q.right(s).startswith("No")


def test_which_bound_is_informative_follows_the_trivial_level():
    s = boston_bounds()
    q = lq.get("bounds.which_informative")
    c = s.curves
    assert (c.min_compression < s.R, c.min_kpca < s.R) == (True, False)
    assert q.right(s) == "Only the compression bound is below R"
    assert q.check(s, q.right(s)).right


# ---------------------------------------------------------------- lesson 8: eigenvalues


def test_ekm_without_a_sketch_gives_the_exact_eigenvalues():
    s = boston_spectrum(k=20)
    lam = exact_eigenvalues(np.asarray(s.K), 10, method="eigh")
    # squaring loses only eigenvalues far below the top ones: the top 10 agree
    assert ekm_eigenvalues(np.asarray(s.K), s.m, 10, sketch=None) == pytest.approx(lam, rel=1e-8)
    assert s.exact == pytest.approx(lam[: s.n], rel=1e-10)


def test_nystroem_never_overestimates_and_the_question_says_so():
    s = boston_spectrum(k=20)
    for name in ("Nyström, sparse-KPCA indices", "Nyström, random indices",
                 "Nyström, Cholesky pivots"):
        assert np.all(s.top(name) <= s.exact * (1 + 1e-9))
    idx = s.run["indices"]["Nyström, sparse-KPCA indices"]
    assert nystrom_eigenvalues(np.asarray(s.K), idx, s.n) == pytest.approx(
        s.top("Nyström, sparse-KPCA indices"), rel=1e-9)
    q = lq.get("spectrum.nystrom_side")
    assert q.right(s).startswith("Never")
    assert q.check(s, q.right(s)).right and not q.check(s, q.wrong(s)).right


@pytest.mark.parametrize("values", [dict(k=20), dict(k=10, **{"spectrum.q": 50,
                                                                "spectrum.n_eig": 5})])
def test_winners_are_the_smallest_error_and_angle(values):
    s = boston_spectrum(**values)
    top, ang = lq.get("spectrum.top_winner"), lq.get("spectrum.angle_winner")
    assert s.errors[top.right(s)] == min(s.errors.values())
    assert s.angles[ang.right(s)] == np.nanmin(list(s.angles.values()))
    same = lq.get("spectrum.same_winner").right(s)
    assert same.startswith("Yes") == (top.right(s) == ang.right(s))
    for q in (top, ang):
        fb = q.check(s, q.wrong(s))
        assert not fb.right and any(ch.isdigit() for ch in fb.text)


def test_the_two_winners_split_in_the_lessons_misconception_beat():
    s = boston_spectrum(k=10, **{"spectrum.q": 50, "spectrum.n_eig": 5})
    assert lq.get("spectrum.same_winner").right(s).startswith("No")


def test_eq3_bounds_the_observed_error():
    s = boston_spectrum(k=20)
    for e in s.run["ekm"].values():
        assert e["observed"] <= e["spectral"] * (1 + 1e-9) <= e["entrywise"] * (1 + 1e-9)
    q = lq.get("spectrum.eq3_tightness")
    assert q.check(s, q.right(s)).right and not q.check(s, q.wrong(s)).right


def test_every_new_question_is_registered_with_its_page():
    from views.lesson_questions_bounds import BOUNDS_QUESTIONS
    from views.lesson_questions_nystrom import NYSTROM_QUESTIONS
    from views.lesson_questions_spectrum import SPECTRUM_QUESTIONS

    for group, page in ((BOUNDS_QUESTIONS, "bounds"), (SPECTRUM_QUESTIONS, "spectrum"),
                        (NYSTROM_QUESTIONS, "skpca")):
        for name, q in group.items():
            assert lq.QUESTIONS[name] is q and q.page == page and q.answer in lq.ANSWERS
