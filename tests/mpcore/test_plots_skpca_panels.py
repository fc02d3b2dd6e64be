"""The sparse-KPCA figure's panels a student can read: quotients relative to each step's
largest, heatmap axes in training indices with the chosen point's row and column outlined,
and points added by clicking drawn in the data panel."""

from __future__ import annotations

import datasets
import numpy as np
import pytest

from chart_util import decode
from mpcore.plots import skpca_animation_dict
from views.data import KernelChoice
from views.skpca import HEATMAP_MAX_POINTS, skpca_steps, skpca_view

K_STEPS = 25


@pytest.fixture(scope="module")
def run():
    d = datasets.load("moons", n_samples=120)  # m > 40: the heatmap shows a subsample
    kern = KernelChoice("rbf", sigma=1.0)
    steps = skpca_steps(d.X, kern, K_STEPS)
    v = skpca_view(d.X, d.y, kern, steps)
    fig = skpca_animation_dict(v["X2"], v["steps"], axis_labels=v["axis_labels"],
                               trace0=v["trace0"], curves=v["curves"], heatmaps=v["heat"],
                               heat_index=v["heat_index"], added=[3, 5])
    return v, fig


def _trace(fig, name):
    return next(i for i, t in enumerate(fig["data"]) if t.get("name") == name)


def _patch(fig, j, trace):
    frame = fig["frames"][j]
    return frame["data"][frame["traces"].index(trace)]


def test_heatmap_shows_the_first_chosen_points_and_names_them(run):
    v, fig = run
    sub = np.asarray(v["heat_index"])
    assert len(sub) == HEATMAP_MAX_POINTS == len(set(sub.tolist()))
    chosen = [s.index for s in v["steps"]][: HEATMAP_MAX_POINTS // 2]
    assert set(chosen) <= set(sub.tolist())
    assert "first 20 chosen" in v["heat_note"]
    x3 = fig["layout"]["xaxis3"]
    shown = [int(t) for t in decode(x3["ticktext"], None)]
    assert shown == [int(sub[i]) for i in decode(x3["tickvals"], None)]
    assert "training index" in x3["title"]["text"]


def test_the_chosen_points_row_and_column_are_outlined_at_every_step(run):
    v, fig = run
    sub = list(np.asarray(v["heat_index"]))
    outline = _trace(fig, "chosen point's row and column")
    for j, s in enumerate(v["steps"]):
        xs = _patch(fig, j, outline)["x"]
        if s.index in sub:
            pos = sub.index(s.index)
            assert pos - 0.5 in xs and pos + 0.5 in xs, j
        else:
            assert xs == [], j


def test_quotients_are_relative_to_the_steps_largest(run):
    v, fig = run
    q = _trace(fig, "ρ<sub>i</sub>")
    star = _trace(fig, "argmax (chosen)")
    for j, s in enumerate(v["steps"]):
        rel = np.asarray(_patch(fig, j, q)["y"], dtype=float)
        assert np.nanmax(rel) == pytest.approx(1.0)
        assert _patch(fig, j, star)["y"] == [pytest.approx(1.0)]
        # the true quotients ride along for the hover text
        np.testing.assert_allclose(_patch(fig, j, q)["customdata"],
                                   np.where(np.isfinite(s.quotients), s.quotients, np.nan))
    assert fig["layout"]["yaxis2"]["range"][1] < 1.2  # late steps are not squashed


def test_added_points_are_drawn_in_the_data_panel(run):
    v, fig = run
    t = fig["data"][_trace(fig, "added by clicking")]
    np.testing.assert_allclose(decode(t["x"]), v["X2"][[3, 5], 0])
    assert t.get("xaxis", "x") == "x"


def test_the_data_panel_draws_the_data_with_equal_axis_scales(run):
    """One unit as long on both axes of the data panel: circles are drawn round."""
    _, fig = run
    assert fig["layout"]["yaxis"]["scaleanchor"] == "x"
    assert fig["layout"]["yaxis"]["scaleratio"] == 1
