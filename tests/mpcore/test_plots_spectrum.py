"""Figures of the spectrum and sparse-KCCA pages: the data drawn equals what mpcore computed.

Spectrum: the scree traces are the eigenvalues passed in (zeros and rounding-level values left
as gaps on the log axis), the error panels draw every grid point with Marukatat's Eq. 3 bound
never below the observed error when both come from ``mpcore.spectrum``, the angle bars are the
angles given, and ``plotted_rows`` (the page's CSV) holds exactly the drawn numbers.

Sparse KCCA (mpcore/plots/_kcca.py): one frame per ``kcca_steps`` step, rings on the chosen
pairs in both views, the argmax marker on the largest quotient, the projection title's
correlation equal to the Pearson correlation of the drawn projections, fixed axis ranges that
hold every frame, and the figure opened on frame j (``open_at``) equal to frame j.
"""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest
from plotly.subplots import make_subplots
from hypothesis import example, given, settings
from hypothesis import strategies as hst
from numpy.testing import assert_allclose, assert_array_equal

from chart_util import decode
from conftest import ATOL_EXACT, RTOL_EXACT
from test_figure_frames import _pruned
from mpcore.kcca import kcca_steps
from pages.common.figure_frames import typed_arrays
from mpcore.kernels import kernel_matrix
from mpcore.plots._kcca import (
    ARGMAX,
    CHOSEN_X,
    CHOSEN_Y,
    CURRENT as KCCA_CURRENT,
    PROJECTION_TITLE,
    PROJECTIONS,
    QUOTIENT_TITLE,
    QUOTIENTS,
    TEST,
    TRAIN,
    kcca_animation,
    kcca_animation_dict,
)
from pages.common.figure_frames import open_at
from mpcore.plots._spectrum import (
    BOUND_SUFFIX,
    EKM_COUNTSKETCH,
    EKM_GAUSSIAN,
    ENTRYWISE_SUFFIX,
    EQ3_TITLE,
    ERROR_FLOOR,
    EXACT,
    NYSTROM_CHOLESKY,
    NYSTROM_RANDOM,
    NYSTROM_SKPCA,
    OBSERVED_SUFFIX,
    SCREE_FLOOR,
    SCREE_MARKERS,
    SPECTRAL_SUFFIX,
    STAR_PATH,
    angles_figure,
    angles_figure_dict,
    error_curves_figure,
    error_curves_figure_dict,
    plotted_rows,
    positive_or_nan,
    scree_figure,
    scree_figure_dict,
)
from mpcore.spectrum import (
    ekm_eigenvalues,
    ekm_perturbation_bound,
    exact_eigenvalues,
    nystrom_eigenvalues,
    nystrom_indices,
    relative_error,
)

import datasets

N_EIG = 6


def traces(fig):
    return {t.name: t for t in fig.data}


@pytest.fixture(scope="module")
def K():
    X = np.random.default_rng(3).normal(size=(70, 4))
    return kernel_matrix(X, kernel="rbf", gamma=0.2)


@pytest.fixture(scope="module")
def spectra(K):
    """Scree values of every method at k = 12, q = 20 (L = 30), computed by mpcore."""
    L, k, q = 30, 12, 20
    out = {EXACT: exact_eigenvalues(K, L, method="eigh")}
    for rule, name in (("skpca", NYSTROM_SKPCA), ("random", NYSTROM_RANDOM),
                       ("cholesky", NYSTROM_CHOLESKY)):
        out[name] = nystrom_eigenvalues(K, nystrom_indices(K, k, rule=rule, random_state=0), L)
    for sketch, name in (("gaussian", EKM_GAUSSIAN), ("countsketch", EKM_COUNTSKETCH)):
        out[name] = ekm_eigenvalues(K, q, L, sketch=sketch, random_state=0)
    return out


@pytest.fixture(scope="module")
def curves(K):
    """Errors and Eq. 3 over k and q grids, as the page's cached wrapper builds them."""
    exact = exact_eigenvalues(K, N_EIG, method="eigh")
    k_grid, q_grid = np.array([1, 3, 10, 30, 70]), np.array([1, 4, 16, 70])
    nystrom = {}
    for rule, name in (("skpca", NYSTROM_SKPCA), ("cholesky", NYSTROM_CHOLESKY)):
        nystrom[name] = np.array([relative_error(nystrom_eigenvalues(
            K, nystrom_indices(K, kk, rule=rule), N_EIG), exact).max() for kk in k_grid])
    ekm, bounds, eq3 = {}, {}, {}
    for sketch, name in (("gaussian", EKM_GAUSSIAN), ("countsketch", EKM_COUNTSKETCH)):
        ps = [ekm_perturbation_bound(K, qq, N_EIG, sketch=sketch, random_state=1) for qq in q_grid]
        ekm[name] = np.array([relative_error(p.approx, p.exact).max() for p in ps])
        bounds[name] = np.array([np.max(p.eigenvalue_bound / p.exact) for p in ps])
        eq3[name] = (np.array([p.observed.max() for p in ps]),
                     np.array([p.spectral_bound for p in ps]),
                     np.array([p.entrywise_bound for p in ps]))
    return dict(k_grid=k_grid, q_grid=q_grid, nystrom=nystrom, ekm=ekm, bounds=bounds, eq3=eq3)


def error_fig(curves, **kw):
    return error_curves_figure(curves["k_grid"], curves["nystrom"], curves["q_grid"],
                               curves["ekm"], ekm_bounds=curves["bounds"], eq3=curves["eq3"], **kw)


# ---------------------------------------------------------------- scree


def test_scree_draws_every_series_with_its_values(spectra):
    approx = {n: v for n, v in spectra.items() if n != EXACT}
    fig = scree_figure(spectra[EXACT], approx, n_compared=N_EIG, k=12, q=20)
    tr = traces(fig)
    assert set(tr) == set(spectra)
    floor = SCREE_FLOOR * spectra[EXACT][0]
    for name, values in spectra.items():
        assert_array_equal(tr[name].x, np.arange(1, len(values) + 1))
        y = np.asarray(tr[name].y, dtype=float)
        drawn = values > floor
        assert_allclose(y[drawn], values[drawn], rtol=RTOL_EXACT)
        assert np.all(np.isnan(y[~drawn]))  # zeros beyond the rank: gaps, not -inf


def test_scree_series_draw_a_few_markers_and_their_whole_line(spectra):
    """A series longer than SCREE_MARKERS points keeps every point on its line (the values
    test above) and draws at most SCREE_MARKERS markers (plotly's marker.maxdisplayed); the
    error curves, 8 points a series, keep a marker on each."""
    approx = {n: v for n, v in spectra.items() if n != EXACT}
    fig = scree_figure(spectra[EXACT], approx, n_compared=N_EIG, k=12, q=20)
    assert len(spectra[EXACT]) > SCREE_MARKERS  # else the cap draws every marker anyway
    for t in fig.data:
        assert t.mode == "lines+markers"
        assert t.marker.maxdisplayed == SCREE_MARKERS, t.name
    curves = error_curves_figure(np.array([1, 2, 4]), {NYSTROM_RANDOM: np.ones((3, 1))},
                                 np.array([1, 2, 4]), {EKM_GAUSSIAN: np.ones((3, 1))})
    assert all(not t.marker.maxdisplayed for t in curves.data)


def test_scree_nystrom_has_at_most_k_points_and_never_exceeds_exact(spectra):
    """Rank k, and K - K~ PSD: what the figure shows for each Nystroem rule."""
    fig = scree_figure(spectra[EXACT], {n: v for n, v in spectra.items() if n != EXACT},
                       n_compared=N_EIG, k=12)
    tr = traces(fig)
    exact = np.asarray(tr[EXACT].y, dtype=float)
    for name in (NYSTROM_SKPCA, NYSTROM_RANDOM, NYSTROM_CHOLESKY):
        y = np.asarray(tr[name].y, dtype=float)
        assert np.count_nonzero(np.isfinite(y)) <= 12
        ok = np.isfinite(y)
        assert np.all(y[ok] <= exact[ok] * (1 + RTOL_EXACT))


def test_scree_marks_k_and_q_and_shades_the_compared_eigenvalues(spectra):
    fig = scree_figure(spectra[EXACT], {}, n_compared=4, k=12, q=20)
    xs = sorted(s.x0 for s in fig.layout.shapes if s.type == "line")
    assert xs == [12, 20]
    rect = [s for s in fig.layout.shapes if s.type == "rect"][0]
    assert (rect.x0, rect.x1) == (0.5, 4.5)
    texts = {a.text for a in fig.layout.annotations}
    assert {"k = 12", "q = 20"} <= texts
    assert "top 4 compared" in fig.layout.xaxis.title.text
    assert fig.layout.yaxis.type == "log"


@settings(max_examples=40, deadline=None)
@given(hst.lists(hst.floats(-1e3, 1e3, allow_nan=False), min_size=1, max_size=30),
       hst.floats(0, 10))
def test_positive_or_nan_keeps_exactly_the_values_above_the_floor(values, floor):
    out = positive_or_nan(values, floor)
    v = np.asarray(values)
    assert_array_equal(out[v > floor], v[v > floor])
    assert np.all(np.isnan(out[~(v > floor)]))


def test_scree_refuses_an_empty_spectrum():
    with pytest.raises(ValueError, match="non-empty"):
        scree_figure([], {}, n_compared=1)


# ---------------------------------------------------------------- error curves


def test_error_panels_draw_every_grid_point(curves):
    tr = traces(error_fig(curves))
    for name, err in curves["nystrom"].items():
        assert_array_equal(tr[name].x, curves["k_grid"])
        assert_allclose(tr[name].y, np.maximum(err, ERROR_FLOOR), rtol=RTOL_EXACT)
    for name, err in curves["ekm"].items():
        assert_array_equal(tr[name + OBSERVED_SUFFIX].x, curves["q_grid"])
        assert_allclose(tr[name + OBSERVED_SUFFIX].y, np.maximum(err, ERROR_FLOOR), rtol=RTOL_EXACT)
        assert_allclose(tr[name + BOUND_SUFFIX].y, curves["bounds"][name], rtol=RTOL_EXACT)
        obs, spectral, entrywise = curves["eq3"][name]
        assert_allclose(tr[name + SPECTRAL_SUFFIX].y, spectral, rtol=RTOL_EXACT)
        assert_allclose(tr[name + ENTRYWISE_SUFFIX].y, entrywise, rtol=RTOL_EXACT)


def test_eq3_bound_is_drawn_above_the_observed_error(curves):
    """Marukatat's Eq. 3 (Weyl) holds at every q, on both scales the figure shows."""
    tr = traces(error_fig(curves))
    for name in curves["ekm"]:
        observed = np.asarray(tr[name + OBSERVED_SUFFIX].y)
        assert np.all(np.asarray(tr[name + BOUND_SUFFIX].y) >= observed * (1 - RTOL_EXACT))
        obs, spectral, entrywise = (np.asarray(curves["eq3"][name][i]) for i in range(3))
        assert np.all(spectral >= obs * (1 - RTOL_EXACT))
        assert np.all(entrywise >= spectral * (1 - RTOL_EXACT))


def test_full_rank_nystrom_is_exact_in_the_figure(curves):
    """k = m columns: Nystroem reproduces K, so the last point sits at the floor of the axis."""
    tr = traces(error_fig(curves))
    for name in curves["nystrom"]:
        assert tr[name].y[-1] < 1e-8


def test_current_run_is_starred_at_k_and_q(curves):
    current = {NYSTROM_SKPCA: 0.25, EKM_GAUSSIAN: 0.125}
    fig = error_fig(curves, k=10, q=16, current=current)
    stars = [s for s in fig.layout.shapes if s.path == STAR_PATH]
    assert sorted((s.xanchor, s.yanchor, s.xref) for s in stars) == [(10, 0.25, "x"),
                                                                      (16, 0.125, "x2")]
    assert {s.name for s in stars} == {f"{NYSTROM_SKPCA} (current)", f"{EKM_GAUSSIAN} (current)"}
    assert sorted(s.x0 for s in fig.layout.shapes if s.type == "line" and s.x0 in (10, 16)) == [10, 16]


def test_without_eq3_there_are_two_panels(curves):
    fig = error_curves_figure(curves["k_grid"], curves["nystrom"], curves["q_grid"], curves["ekm"])
    assert len(fig.layout.annotations) == 2
    assert not any(BOUND_SUFFIX in t.name for t in fig.data)


# ---------------------------------------------------------------- angles and CSV rows


def test_angle_bars_are_the_given_degrees():
    angles = {NYSTROM_SKPCA: (3.5, 6), NYSTROM_RANDOM: (20.0, 4), EKM_GAUSSIAN: (np.nan, 0)}
    bar = angles_figure(angles, n_eig=6).data[0]
    assert list(bar.y) == list(angles)
    assert_allclose(bar.x, [3.5, 20.0, 0.0])
    assert list(bar.text) == ["3.5°", "20.0° (top 4)", "n/a"]


def test_plotted_rows_hold_exactly_the_drawn_numbers(spectra, curves):
    angles = {NYSTROM_SKPCA: (3.5, 6)}
    rows = plotted_rows(spectra, k_grid=curves["k_grid"], nystrom_errors=curves["nystrom"],
                        q_grid=curves["q_grid"], ekm_errors=curves["ekm"],
                        ekm_bounds=curves["bounds"], eq3=curves["eq3"], angles=angles)
    by = {}
    for r in rows:
        by.setdefault((r["figure"], r["series"]), []).append((r["x"], r["y"]))
    for name, values in spectra.items():
        assert_allclose([y for _, y in by[("scree: eigenvalue", name)]], values, rtol=RTOL_EXACT)
    for name, err in curves["nystrom"].items():
        pts = by[("max relative error vs k", name)]
        assert_array_equal([x for x, _ in pts], curves["k_grid"])
        assert_allclose([y for _, y in pts], err, rtol=RTOL_EXACT)
    for name, bound in curves["bounds"].items():
        assert_allclose([y for _, y in by[("max relative error vs q", name + BOUND_SUFFIX)]],
                        bound, rtol=RTOL_EXACT)
    assert by[("largest principal angle (degrees)", NYSTROM_SKPCA)] == [(6.0, 3.5)]
    n_points = (sum(len(v) for v in spectra.values()) + 2 * len(curves["k_grid"])
                + 2 * 2 * len(curves["q_grid"]) + 2 * 3 * len(curves["q_grid"]) + 1)
    assert len(rows) == n_points


# ---------------------------------------------------------------- sparse KCCA animation


@pytest.fixture(scope="module")
def kcca():
    X, Y, z = datasets.two_view(80, 0.1, 2)
    Kx = kernel_matrix(X, kernel="rbf", gamma=2.0)
    Ky = kernel_matrix(Y, kernel="rbf", gamma=2.0)
    steps = list(kcca_steps(Kx, Ky, 7))
    train = np.linspace(0.5, 0.9, len(steps))
    test = train - 0.05
    return X, Y, z, steps, kcca_animation(X, Y, z, steps, train=train, test=test,
                                          rho=[s.correlation for s in steps])


def _pearson(u, v):
    return float(np.corrcoef(u, v)[0, 1])


@pytest.mark.parametrize("start", [0, 4])
def test_dict_frames_are_what_plotly_validates_them_to(kcca, start):
    """The app's dict (frames never validated one by one) is the notebook's go.Figure:
    validated by plotly, it gives the same JSON, every frame included."""
    X, Y, z, steps, _ = kcca
    kw = dict(train=np.linspace(0.5, 0.9, len(steps)), rho=[s.correlation for s in steps],
              start=start, frame_ms=400)
    fast = kcca_animation_dict(X, Y, z, steps, **kw)
    assert len(fast["frames"]) == len(steps)
    assert (_pruned(json.loads(pio.to_json(go.Figure(fast))))
            == _pruned(json.loads(pio.to_json(kcca_animation(X, Y, z, steps, **kw)))))


def test_one_frame_per_step_with_rings_on_the_chosen_pairs(kcca):
    X, Y, z, steps, fig = kcca
    assert len(fig.frames) == len(steps) == 7
    ids = {t.name: n for n, t in enumerate(fig.data)}
    for j, frame in enumerate(fig.frames):
        assert frame.name == str(j + 1)
        data = dict(zip(frame.traces, frame.data))
        idx = [s.index for s in steps[: j + 1]]
        assert_allclose(data[ids[CHOSEN_X]].x, X[idx, 0])
        assert_allclose(data[ids[CHOSEN_Y]].y, Y[idx, 1])
        assert list(data[ids[CHOSEN_X]].text) == [str(n + 1) for n in range(j + 1)]


def test_argmax_marker_is_the_largest_quotient(kcca):
    X, Y, z, steps, fig = kcca
    ids = {t.name: n for n, t in enumerate(fig.data)}
    for frame, s in zip(fig.frames, steps):
        data = dict(zip(frame.traces, frame.data))
        q = np.asarray(data[ids[QUOTIENTS]].y, dtype=float)
        assert_allclose(data[ids[QUOTIENTS]].x, z)
        star = data[ids[ARGMAX]]
        assert star.y[0] == pytest.approx(np.nanmax(q))
        assert star.x[0] == pytest.approx(z[s.index])


def test_projection_title_is_the_correlation_of_the_drawn_projections(kcca):
    X, Y, z, steps, fig = kcca
    ids = {t.name: n for n, t in enumerate(fig.data)}
    prev = None
    for frame, s in zip(fig.frames, steps):
        data = dict(zip(frame.traces, frame.data))
        u, v = np.asarray(data[ids[PROJECTIONS]].x), np.asarray(data[ids[PROJECTIONS]].y)
        # the variates of the step, up to one common sign (flipped for continuity)
        assert_allclose(np.abs(u), np.abs(s.variate_x), atol=ATOL_EXACT)
        assert_allclose(u * v, s.variate_x * s.variate_y, atol=ATOL_EXACT)
        corr = _pearson(u, v)
        title = frame.layout.annotations[PROJECTION_TITLE].text
        assert title.endswith(f"corr = {corr:.3f}")
        assert f"argmax i = {s.index}" in frame.layout.annotations[QUOTIENT_TITLE].text
        if prev is not None:
            assert u @ prev >= 0  # no sign jump between frames
        prev = u


def test_axis_ranges_hold_every_frame(kcca):
    X, Y, z, steps, fig = kcca
    lo, hi = fig.layout.xaxis3.range
    for s in steps:
        assert lo <= np.min(s.variate_x) and np.max(np.abs(s.variate_x)) <= hi
    lo, hi = fig.layout.yaxis4.range  # quotient panel
    q = np.concatenate([s.quotients for s in steps])
    assert lo <= np.nanmin(q) and np.nanmax(q) <= hi


def test_correlation_panel_draws_the_curves_given(kcca):
    X, Y, z, steps, fig = kcca
    tr = traces(fig)
    assert_array_equal(tr[TRAIN].x, np.arange(1, len(steps) + 1))
    assert_allclose(tr[TRAIN].y, np.linspace(0.5, 0.9, len(steps)))
    assert_allclose(tr[TEST].y, np.linspace(0.5, 0.9, len(steps)) - 0.05)
    ids = {t.name: n for n, t in enumerate(fig.data)}
    last = dict(zip(fig.frames[-1].traces, fig.frames[-1].data))[ids[KCCA_CURRENT]]
    assert (last.x[0], last.y[0]) == (len(steps), pytest.approx(0.9))


def test_start_frame_equals_that_frame(kcca):
    X, Y, z, steps, fig = kcca
    d = fig.to_plotly_json()
    for j in (0, 3, len(steps) - 1):
        shown = open_at(d, j)
        frame = d["frames"][j]
        for ti, patch in zip(frame["traces"], frame["data"]):
            for key in ("x", "y"):
                if key in patch:
                    assert_allclose(decode(shown["data"][ti][key]), decode(patch[key]))
        assert [a["text"] for a in shown["layout"]["annotations"]] == [
            a["text"] for a in frame["layout"]["annotations"]]
        assert shown["layout"]["sliders"][0]["active"] == j
        axes = [key for key in d["layout"] if key.startswith(("xaxis", "yaxis"))]
        assert len(axes) == 10
        assert all(shown["layout"][key] == d["layout"][key] for key in axes)  # fixed across frames


def test_kcca_animation_refuses_bad_input(kcca):
    X, Y, z, steps, _ = kcca
    with pytest.raises(ValueError, match="No steps"):
        kcca_animation(X, Y, z, [])
    with pytest.raises(ValueError, match=r"\(m, 2\)"):
        kcca_animation(np.c_[X, X], Y, z, steps)


@pytest.mark.parametrize("lo,hi,expected", [(1e-3, 1e2, 1), (1e-17, 10, 3), (1.0, 1.0, 1)])
def test_log_axes_keep_at_most_a_few_decade_labels(lo, hi, expected):
    from mpcore.plots._spectrum import MAX_DECADE_TICKS, decade_dtick

    dtick = decade_dtick([lo, hi, 0.0, np.nan])  # zeros and NaN are not on a log axis
    assert dtick == expected
    assert (np.log10(hi) - np.log10(lo)) / dtick <= MAX_DECADE_TICKS


def test_error_panel_with_rounding_level_errors_thins_its_ticks(curves):
    fig = error_fig(curves)
    assert fig.layout.yaxis.dtick >= 2  # Nystroem reaches 1e-16 at k = m: 17 decades
    assert fig.layout.yaxis2.dtick == 1


# ---------------------------------------------------------------- a phone's width


def _pixels(fig, axis):
    """The plot area of ``axis`` ("x", "x2", ...) in pixels from the figure's top left."""
    lay = fig.layout
    w = lay.width or 390
    h = lay.height
    m = lay.margin
    xa = lay["xaxis" + axis[1:]]
    ya = lay["yaxis" + axis[1:]]
    pw, ph = w - m.l - m.r, h - m.t - m.b
    return (m.l + xa.domain[0] * pw, m.t + (1 - ya.domain[1]) * ph,
            m.l + xa.domain[1] * pw, m.t + (1 - ya.domain[0]) * ph)


@pytest.mark.parametrize("eq3", [True, False])
def test_narrow_error_panels_are_stacked_full_width_with_room_between(curves, eq3):
    """On a phone every panel spans the width, one under the other, with room between two
    panels for the upper one's x-axis title and the lower one's (up to three-line) title; the
    data drawn are the same as on a wide screen."""
    kw = dict(ekm_bounds=curves["bounds"], eq3=curves["eq3"]) if eq3 else {}
    args = (curves["k_grid"], curves["nystrom"], curves["q_grid"], curves["ekm"])
    wide = error_curves_figure(*args, **kw)
    narrow = error_curves_figure(*args, **kw, narrow=True)
    n = 3 if eq3 else 2
    axes = ["x"] + [f"x{i}" for i in range(2, n + 1)]
    for a in axes:
        assert list(narrow.layout["xaxis" + a[1:]].domain) == [0.0, 1.0]
    boxes = [_pixels(narrow, a) for a in axes]
    for upper, lower in zip(boxes, boxes[1:]):
        assert lower[1] - upper[3] >= 120, boxes  # px between two panels
    for a in axes:  # at least 200 px of plot area per panel
        assert boxes[axes.index(a)][3] - boxes[axes.index(a)][1] >= 200, boxes
    # one legend entry per line; the same traces (name, axis, numbers) as the wide figure
    assert narrow.layout.legend.entrywidth == 1.0
    assert narrow.layout.legend.entrywidthmode == "fraction"
    assert [(t.name, t.xaxis, t.yaxis) for t in narrow.data] == \
        [(t.name, t.xaxis, t.yaxis) for t in wide.data]
    for a, b in zip(narrow.data, wide.data):
        assert_array_equal(a.x, b.x)
        assert_array_equal(a.y, b.y)


def test_wide_error_panels_sit_side_by_side(curves):
    fig = error_fig(curves)
    domains = [fig.layout[f"xaxis{s}"].domain for s in ("", "2", "3")]
    assert all(b[0] > a[1] for a, b in zip(domains, domains[1:]))
    assert {tuple(fig.layout[f"yaxis{s}"].domain) for s in ("", "2", "3")} == {(0.0, 1.0)}


def test_narrow_scree_and_angle_figures_fit_a_phone(spectra):
    """Shorter lines on a phone: the scree's axis title on two lines, the angle axis with
    ticks every 30 degrees (its title is short everywhere); the data are unchanged."""
    exact = spectra[EXACT]
    approx = {name: v for name, v in spectra.items() if name != EXACT}
    wide = scree_figure(exact, approx, n_compared=4)
    narrow = scree_figure(exact, approx, n_compared=4, narrow=True)
    assert "<br>" in narrow.layout.xaxis.title.text and "<br>" not in wide.layout.xaxis.title.text
    for a, b in zip(narrow.data, wide.data):
        assert_array_equal(a.y, b.y)
    angles = {NYSTROM_SKPCA: (3.5, 6), NYSTROM_RANDOM: (20.0, 4)}
    bars = angles_figure(angles, n_eig=6, narrow=True)
    assert list(bars.layout.xaxis.tickvals) == [0, 30, 60, 90]
    wide_bars = angles_figure(angles, n_eig=6)
    assert len(wide_bars.layout.xaxis.tickvals) > 4
    # one short axis title at every width (the plot area beside the names is narrow even
    # at 1280 px: the browser layout test checks it stays inside the figure)
    assert bars.layout.xaxis.title.text == wide_bars.layout.xaxis.title.text
    assert_allclose(bars.data[0].x, [3.5, 20.0])


# ---------------------------------------------------------------- the page's plain dicts
# The eigenvalue page draws the figure dicts unvalidated (typed_arrays), their
# layouts styled through plotly once per shape and copied: each must be exactly what plotly
# validates it to, and a cached layout must never carry one data set's values into another.

_NAMES = [EXACT, NYSTROM_SKPCA, NYSTROM_RANDOM, NYSTROM_CHOLESKY, EKM_GAUSSIAN, EKM_COUNTSKETCH]


def _sent(fig: dict):
    """The JSON the page sends for its cached form of ``fig`` (typed arrays), and the JSON of the same figure validated by go.Figure."""
    ours = json.loads(pio.to_json(typed_arrays(fig), validate=False))
    ref = json.loads(pio.to_json(go.Figure(fig), validate=False))
    return _pruned(ours), _pruned(ref)


_values = hst.lists(hst.one_of(hst.just(0.0), hst.floats(1e-20, 1e6)), min_size=1, max_size=40)


@settings(max_examples=25, deadline=None)
@given(exact=_values, scale=hst.floats(0.0, 2.0), n_series=hst.integers(0, 5),
       n_compared=hst.integers(1, 40), k=hst.one_of(hst.none(), hst.integers(1, 60)),
       q=hst.one_of(hst.none(), hst.integers(1, 60)), narrow=hst.booleans())
def test_scree_dict_is_what_plotly_validates_it_to(exact, scale, n_series, n_compared, k, q,
                                                   narrow):
    exact = np.sort(np.asarray(exact))[::-1]
    approx = {name: exact * scale for name in _NAMES[1:1 + n_series]}
    fig = scree_figure_dict(exact, approx, n_compared=n_compared, k=k, q=q, narrow=narrow)
    ours, ref = _sent(fig)
    assert ours == ref
    assert ours == _pruned(json.loads(pio.to_json(
        scree_figure(exact, approx, n_compared=n_compared, k=k, q=q, narrow=narrow),
        validate=False)))


@settings(max_examples=20, deadline=None)
@given(panels=hst.tuples(hst.booleans(), hst.booleans(), hst.booleans()),
       k=hst.one_of(hst.none(), hst.integers(1, 70)), q=hst.one_of(hst.none(), hst.integers(1, 70)),
       n_compared=hst.one_of(hst.none(), hst.integers(1, 50)), narrow=hst.booleans(),
       errors=hst.floats(0.0, 10.0))
def test_error_dict_is_what_plotly_validates_it_to(curves, panels, k, q, n_compared, narrow,
                                                   errors):
    """Every panel with or without curves, with or without the current k and q: an empty
    panel gets no reference lines, as a figure built trace by trace through plotly."""
    nystrom = curves["nystrom"] if panels[0] else {}
    ekm = curves["ekm"] if panels[1] else {}
    eq3 = curves["eq3"] if panels[2] else None
    current = {name: errors for name in (*nystrom, *ekm)}
    fig = error_curves_figure_dict(curves["k_grid"], nystrom, curves["q_grid"], ekm,
                                   ekm_bounds=curves["bounds"], eq3=eq3, k=k, q=q,
                                   current=current, n_compared=n_compared, narrow=narrow)
    ours, ref = _sent(fig)
    assert ours == ref
    lines = [s for s in ref["layout"].get("shapes", []) if s["type"] == "line"]
    expected = sum(1 for x, shown in ((k, panels[0]), (q, panels[1])) if x is not None and shown)
    assert len(lines) == expected + panels[0] + panels[1]  # current k / q, and the line at 1


@settings(max_examples=20, deadline=None)
@given(angles=hst.dictionaries(hst.sampled_from(_NAMES[1:]),
                               hst.tuples(hst.one_of(hst.just(np.nan), hst.floats(0, 90)),
                                          hst.integers(0, 10)), max_size=5),
       narrow=hst.booleans())
def test_angles_dict_is_what_plotly_validates_it_to(angles, narrow):
    ours, ref = _sent(angles_figure_dict(angles, n_eig=6, narrow=narrow))
    assert ours == ref


def test_a_cached_layout_carries_nothing_from_one_data_set_to_the_next():
    """Two data sets of one shape share the styled layout: each gets its own decade
    spacing, and a change to one figure's layout never reaches the next."""
    wide = np.geomspace(1.0, 1e-12, 20)  # 12 decades: labels every 2nd decade
    close = np.geomspace(1.0, 1e-3, 20)  # 3 decades: every decade
    first = scree_figure_dict(wide, {NYSTROM_RANDOM: wide}, n_compared=4, k=5, q=7)
    first["layout"]["yaxis"]["title"]["text"] = "changed by a caller"
    first["layout"]["shapes"].clear()
    second = scree_figure_dict(close, {NYSTROM_RANDOM: close}, n_compared=4, k=5, q=7)
    assert first["layout"]["yaxis"]["dtick"] == 2
    assert second["layout"]["yaxis"]["dtick"] == 1
    assert second["layout"]["yaxis"]["title"]["text"] == "eigenvalue λᵢ (log scale)"
    assert [s["x0"] for s in second["layout"]["shapes"]] == [0.5, 5, 7]
    assert_array_equal(second["data"][-1]["y"], close)


@settings(max_examples=15, deadline=None)
@given(moves=hst.lists(hst.tuples(hst.integers(1, 60), hst.integers(1, 60), hst.booleans()),
                       min_size=2, max_size=4))
def test_n_and_the_length_shown_move_with_the_data(curves, moves):
    """n and the scree plot's length are written into a copy of the layout styled once (a
    new top-n or sketch size no longer styles the figures again): after any sequence of
    moves, the shaded band, the x range and the titles naming n are what plotly itself
    makes of them, and a caller's change to one figure does not reach the next."""
    for n, length, narrow in moves:
        n = min(n, length)
        exact = np.geomspace(1.0, 1e-6, length)
        scree = scree_figure_dict(exact, {}, n_compared=n, k=1, narrow=narrow)["layout"]
        ref = go.Figure()
        ref.add_vrect(x0=0.5, x1=n + 0.5, fillcolor="#999", opacity=0.12, line_width=0)
        ref.update_xaxes(range=[0.5, length + 0.5], title=f"index i (largest first);"
                         f"{'<br>' if narrow else ' '}shaded: the top {n} compared")
        ref = ref.to_plotly_json()["layout"]
        assert scree["shapes"][0] == ref["shapes"][0]
        assert scree["xaxis"]["range"] == ref["xaxis"]["range"]
        assert scree["xaxis"]["title"]["text"] == ref["xaxis"]["title"]["text"]
        scree["shapes"][0]["x1"] = -1.0  # a caller's change to its copy
        scree["xaxis"]["title"]["text"] = "changed by a caller"
        errors = error_curves_figure_dict(curves["k_grid"], curves["nystrom"], curves["q_grid"],
                                          curves["ekm"], eq3=curves["eq3"], k=1, q=1,
                                          n_compared=n, narrow=narrow)["layout"]
        titles = go.Figure(make_subplots(rows=1, cols=3, subplot_titles=[
            f"Nyström: max rel. error, top {n}", f"EKM: max rel. error, top {n}", EQ3_TITLE]))
        assert [a["text"] for a in errors["annotations"]] == \
            [a.text for a in titles.layout.annotations]
        errors["annotations"][0]["text"] = "changed by a caller"


@settings(max_examples=15, deadline=None)
@given(moves=hst.lists(hst.tuples(hst.integers(1, 25), hst.integers(1, 25)), min_size=2,
                       max_size=4))
@example(moves=[(24, 25), (5, 7), (21, 3)])  # no line, then both, then q only
@example(moves=[(18, 1), (17, 20), (20, 20)])  # k's label left of its line, right, left
def test_the_k_and_q_lines_move_with_k_and_q(curves, moves):
    """k and q are written into a copy of the layout styled once: after any sequence of
    moves, each figure's lines and labels are where plotly's own add_vline puts them. The k
    label is right of its line, or left of it in the last 15% of the axis (at the right end
    it ran past a phone's figure)."""
    exact = np.geomspace(1.0, 1e-6, 20)
    for k, q in moves:
        scree = scree_figure_dict(exact, {}, n_compared=3, k=k, q=q)["layout"]
        ref = go.Figure()
        k_where = "top left" if k > 0.5 + 0.85 * exact.size else "top right"
        for x, label, where in ((k, "k", k_where), (q, "q", "bottom left")):
            if x <= exact.size:
                ref.add_vline(x=x, annotation_text=f"{label} = {x}", annotation_position=where)
        ref = ref.to_plotly_json()["layout"]
        assert [(s["x0"], s["x1"], s["xref"]) for s in scree["shapes"][1:]] == \
            [(s["x0"], s["x1"], s["xref"]) for s in ref.get("shapes", [])]
        assert [(a["x"], a["text"], a["xanchor"], a["yanchor"])
                for a in scree.get("annotations", [])] \
            == [(a["x"], a["text"], a["xanchor"], a["yanchor"])
                for a in ref.get("annotations", [])]
        errors = error_curves_figure_dict(curves["k_grid"], curves["nystrom"], curves["q_grid"],
                                          curves["ekm"], k=k, q=q)["layout"]
        assert [(s["x0"], s["xref"]) for s in errors["shapes"] if s["x0"] == s["x1"]] == \
            [(k, "x"), (q, "x2")]
