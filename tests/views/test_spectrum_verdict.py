"""The eigenvalue page's verdict and figure explanations (``views.spectrum_explain``): who
wins is read from the run's numbers, and every series of every figure is explained."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mpcore.kernels import kernel_matrix
from mpcore.plots import (EKM_SERIES, EXACT, NYSTROM_SERIES, angles_figure_dict,
                          error_curves_figure_dict, scree_figure_dict)
from pages.common.figure_frames import typed_arrays
from views import spectrum as sv
from views import spectrum_explain as se
from views.explain import legend_names

NAMES = list(se.APPROXIMATIONS)


def _run(errors, angles, times, *, n=10, lanczos=None):
    """A constructed run: one row per approximation (and dense eigh, timed 1 s)."""
    col = f"max rel. error, top {n}"
    rows = [{"method": "dense eigh (all m)", "time (s)": 1.0, col: 0.0}]
    if lanczos is not None:
        rows.append({"method": "eigsh (Lanczos), top n", "time (s)": lanczos, col: 0.0})
    rows += [{"method": name, "time (s)": t, col: e} for name, e, t in zip(NAMES, errors, times)]
    return dict(n_compared=n, rows=rows, angles={name: (a, n) for name, a in zip(NAMES, angles)})


def _perm(seed):
    return np.random.default_rng(seed).permutation(len(NAMES))


@pytest.mark.parametrize("seed", range(6))
def test_the_winners_are_read_from_the_numbers(seed):
    """Each approximation wins in turn: the smallest error, angle and time, wherever put."""
    e, a, t = (np.linspace(0.01, 0.5, len(NAMES))[_perm(seed + s)] for s in (0, 10, 20))
    v = se.verdict(_run(e, a * 100, t))
    assert v["accurate"] == NAMES[int(np.argmin(e))]
    assert v["subspace"] == NAMES[int(np.argmin(a))]
    assert v["fastest"] == NAMES[int(np.argmin(t))]
    text = "\n".join(v["lines"])
    assert f"Most accurate on the top 10 eigenvalues: {v['accurate']}, largest relative error " \
           f"{100 * e.min():.2g}%" in text
    assert f"{v['subspace']}, largest angle {100 * a.min():.1f}°" in text
    assert f"Fastest: {v['fastest']}, {t.min():.2g} s" in text
    assert text.count("because") >= 3


def test_nan_angles_and_a_bad_subspace():
    angles = [math.nan, 3.1, 84.6, 50.0, 20.0, 10.0]
    v = se.verdict(_run([0.1] * 6, angles, [0.5] * 6))
    assert v["subspace"] == NAMES[1]
    text = "\n".join(v["lines"])
    # the Cholesky pivots' miss is explained by what its rule picks
    assert f"{NAMES[2]} is 84.6° off" in text and "outliers" in text
    assert f"{NAMES[3]} is 50.0° off" in text
    assert "20.0° off" not in text  # below the threshold: not called bad


def test_the_measures_disagree_and_lanczos_wins():
    v = se.verdict(_run([0.5, 0.4, 0.3, 0.2, 0.008, 0.1], [3.1, 10, 84.6, 20, 30, 40],
                        [0.5] * 6, lanczos=0.1))
    assert v["accurate"] == "EKM, Gaussian sketch" and v["subspace"] == NAMES[0]
    text = "\n".join(v["lines"])
    assert "0.8%" in text and "3.1°" in text
    assert "disagree" in text and "Exact Lanczos" in text


def test_no_numbers_no_winner():
    run = _run([math.nan] * 6, [math.nan] * 6, [math.nan] * 6)
    assert se.verdict(run) == dict(accurate=None, subspace=None, fastest=None, lines=[])


def test_every_method_has_its_reasons():
    for table in (se.WHY_ACCURATE, se.WHY_SUBSPACE, se.WHY_BAD_SUBSPACE, se.WHY_FAST,
                  se.SERIES_MEANING):
        assert set(NAMES) <= set(table)


@pytest.fixture(scope="module")
def real_run():
    X = np.random.default_rng(0).normal(size=(90, 3))
    K = kernel_matrix(X, kernel="rbf", gamma=0.5)
    run = sv.compare_methods(K, 0, 8, 16, 6)
    curves = sv.error_curves(K, 0, 6, 16)
    approx = {n: v for n, v in run["scree"].items() if n != EXACT}
    figs = dict(
        scree=typed_arrays(scree_figure_dict(run["scree"][EXACT], approx, n_compared=6, k=8,
                                             q=16)),
        angles=typed_arrays(angles_figure_dict(run["angles"], n_eig=run["n_compared"])),
        errors=typed_arrays(error_curves_figure_dict(
            curves["k_grid"], curves["nystrom"], curves["q_grid"], curves["ekm"],
            ekm_bounds=curves["ekm_bounds"], eq3=curves["eq3"], k=8, q=16,
            current=sv.errors_at(run), n_compared=run["n_compared"])))
    return run, curves, figs


def test_the_verdict_of_a_real_run(real_run):
    run, _, _ = real_run
    v = se.verdict(run)
    errors = sv.errors_at(run)
    assert v["accurate"] == min(NAMES, key=errors.get)
    assert v["subspace"] == min(NAMES, key=lambda n: run["angles"][n][0])


def test_every_series_of_every_figure_is_explained(real_run):
    run, curves, figs = real_run
    scree = "\n".join(se.scree_lines(figs["scree"], run, k=8, q=16))
    errors = "\n".join(se.errors_lines(figs["errors"], curves, run, k=8, q=16))
    angles = "\n".join(se.angles_lines(figs["angles"], run))
    for name in legend_names(figs["scree"]):
        assert f"{name}: " in scree and f"{name}: a curve" not in scree, name
    for name in legend_names(figs["errors"], hidden=True):
        assert f"{name}: " in errors and f"{name}: a series" not in errors, name
    assert "Stars: this run's error at the chosen k and q" in errors  # shapes, not traces
    for name in (*NYSTROM_SERIES.values(), *EKM_SERIES.values()):
        a, r = run["angles"][name]
        assert f"{name}: {a:.1f}° over {r} vectors." in angles
        assert f"{name} {100 * sv.errors_at(run)[name]:.2g}%" in errors or \
            f"{name} {100 * sv.errors_at(run)[name]:.0f}%" in errors
    assert f"λ₁ = {run['scree'][EXACT][0]:.4g}" in scree
    for term in ("Schur complement", "EKM", "count sketch", "‖E‖₂", "principal angle"):
        assert f"{term}: " in scree + errors + angles
