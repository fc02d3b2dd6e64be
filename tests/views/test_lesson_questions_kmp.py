"""The KMP page's lesson questions against invariants of the algorithms they quote:
back-fitting's residue is orthogonal to its chosen functions (orthogonal matching pursuit),
basic matching pursuit can pick a point again, the bound's argmin is the argmin of
mpcore.bounds.kmp_bound over the run, and each right answer is what the fits say."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from mpcore.bounds import kmp_bound
from mpcore.kernels import kernel_matrix
from pages.common.schemas import KMP
from views import lesson_questions as lq
from views import lesson_questions_kmp as lqk
from views.lesson_scene_kmp import TABS, kmp_scene


@functools.lru_cache(maxsize=None)
def _scene(**values):
    state, notes = KMP.build(dict(values))
    assert not notes, notes
    return kmp_scene(state)


def scene(**values):
    return _scene(**values)


SINE = dict(dataset="sine", sigma=2.0, k=20, j=5)
FAR = dict(dataset="far_cluster", kernel="linear", std=True, k=3,
           **{"kmp.tab": TABS[1], "kmp.compare": "losses", "kmp.svm_n": False})
BOSTON = dict(dataset="boston", sigma=2.0, test=0.1, k=50, **{"kmp.tab": TABS[2]})


def test_the_kmp_questions_are_registered_with_their_page():
    names = [n for n in lq.QUESTIONS if n.startswith("kmp.")]
    assert set(names) == set(lqk.KMP_QUESTIONS)
    assert all(lq.get(n).page == "kmp" for n in names)


def test_first_repeat_skips_the_constant():
    assert lqk.first_repeat([3, -1, 5, -1, 3]) == (5, 3)
    assert lqk.first_repeat([3, -1, 5]) is None


@pytest.mark.parametrize("j", [2, 5])
def test_backfitting_leaves_the_residue_orthogonal_to_every_chosen_function(j):
    s = scene(**dict(SINE, j=j))
    assert lqk.residue_correlations(s, "backfit", j).max() < 1e-8
    assert lqk.residue_correlations(s, "basic", j).max() > 1e-3
    q = lq.get("kmp.backfit_orthogonal")
    assert q.check(s, q.right(s)).right and not q.check(s, q.wrong(s)).right


def test_backfitting_is_least_squares_on_its_chosen_columns():
    s = scene(**SINE)
    basis = s.basis(fitting="backfit")[: s.j]
    idx = basis[basis >= 0]
    D = kernel_matrix(s.X, s.X[idx], **s.kern.params())
    if np.any(basis < 0):
        D = np.column_stack([D, np.ones(s.m)])
    coef, *_ = np.linalg.lstsq(D, s.y, rcond=None)
    assert s.train_error(s.j, fitting="backfit") == pytest.approx(
        np.mean((D @ coef - s.y) ** 2), rel=1e-6)


def test_basic_matching_pursuit_picks_a_point_again_and_backfitting_never_does():
    s = scene(**SINE)
    basic = s.basis(fitting="basic")
    rep = lqk.first_repeat(basic)
    assert rep is not None and rep[1] in basic[: rep[0] - 1]
    for fitting in ("backfit", "prefit"):
        b = s.basis(fitting=fitting)
        assert lqk.first_repeat(b) is None
    q = lq.get("kmp.basic_repeats")
    assert q.right(s) == lqk.REPEAT_OPTIONS[0]
    assert f"step {rep[0]}" in q.check(s, q.right(s)).text


def test_best_fitting_is_the_lowest_training_error():
    s = scene(**dict(SINE, sigma=1.0, j=3))
    q = lq.get("kmp.best_fitting")
    errs = {f: s.train_error(3, fitting=f) for f in ("basic", "backfit", "prefit")}
    best = min(errs, key=errs.get)
    assert q.right(s) == {"basic": "basic", "backfit": "back-fitting",
                          "prefit": "pre-fitting"}[best]
    assert not q.check(s, q.wrong(s)).right


def test_the_bound_argmin_is_the_argmin_of_kmp_bound_over_the_run():
    s = scene(**BOSTON)
    path = s.curves.paths[0]
    ours = [kmp_bound(s.m, k, int(t)) for k, t in enumerate(path.n_errors, 1)]
    assert lqk.bound_curve(s) == pytest.approx(ours)
    assert lqk.bound_curve(s) == pytest.approx(path.bound)  # what the page draws
    best = int(np.argmin(ours)) + 1
    q = lq.get("kmp.bound_argmin")
    assert q.right(s) == best
    assert q.check(s, best).right and q.check(s, min(best + 1, len(ours))).right
    far = len(ours) if best < len(ours) / 2 else 1
    assert not q.check(s, far).right
    assert not q.check(s, "x").right and not q.check(s, 0).right


def test_more_basis_functions_and_the_stop_rule_read_the_test_curve():
    s = scene(dataset="boston", sigma=0.3, k=50, **{"kmp.feature": "LSTAT", "kmp.tab": TABS[2]})
    e = s.curves.test_error
    q = lq.get("kmp.more_basis_better")
    assert e[-1] > 1.02 * e.min()
    assert q.right(s) == lqk.MORE_OPTIONS[1]
    st = s.stops
    stop = lq.get("kmp.stop_rule").right(s)
    better_bound = e[st["bound"] - 1] <= e[st["validation"] - 1]
    assert stop == lqk.STOP_OPTIONS[0 if better_bound else 1]


def test_squared_loss_charges_the_far_points_and_tanh_wins_figure_7():
    s = scene(**FAR)
    i, far, sq, th = lqk._far_facts(s)
    assert far > 1 and sq == pytest.approx((1 - far) ** 2) and th < sq
    q = lq.get("kmp.far_point_loss")
    assert q.check(s, sq).right and not q.check(s, q.wrong(s)).right
    assert f"x_{i}" in q.ask(s).text
    assert lq.get("kmp.loss_winner").right(s).startswith("KMP-tanh")


def test_support_overlap_counts_the_shared_points():
    s = scene(dataset="moons", sigma=0.5, **{"kmp.tab": TABS[1], "kmp.C": 1000.0})
    both, n, ns = lqk._overlap(s)
    assert 0 <= both <= min(n, ns)
    share = both / n
    right = lq.get("kmp.support_overlap").right(s)
    assert right == lqk.SHARE_OPTIONS[0 if share < 1 / 3 else 1 if share <= 2 / 3 else 2]


@pytest.mark.parametrize("tab", TABS)
def test_the_scene_draws_the_tab_and_says_what_it_shows(tab):
    s = scene(**dict(FAR, **{"kmp.tab": tab}))
    fig = s.figure()
    assert fig["data"]
    assert bool(fig.get("frames")) == (tab == TABS[0])
    caption = s.caption()
    assert any(ch.isdigit() for ch in caption) and len(caption) > 80


def test_regression_questions_are_refused_on_classification_data():
    values, _ = KMP.build(dict(dataset="moons"))
    assert lq.get("kmp.backfit_orthogonal").needs(values)
    assert lq.get("kmp.far_point_loss").needs(dict(KMP.build(dict(dataset="sine"))[0]))
