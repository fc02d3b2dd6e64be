"""The bounds figure: one trace per curve, data equal to the curves, minima marked at k*."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from conftest import ATOL_EXACT
from mpcore.curves import bound_curves
from mpcore.plots._bounds import (
    COMPRESSION,
    COMPRESSION_MIN,
    COMPRESSION_TERM,
    KPCA,
    KPCA_MIN,
    KPCA_TERM,
    TEST,
    TRAIN,
    TRIVIAL,
    bound_curves_figure,
)
from mpcore.plots._common import OKABE_ITO


@pytest.fixture(scope="module")
def curves():
    X = np.random.default_rng(7).normal(size=(90, 3))
    return bound_curves(X[:70], X[70:], gamma=0.3, k_max=25)


def traces(fig):
    return {t.name: t for t in fig.data}


def test_one_trace_per_curve_with_the_curve_as_data(curves):
    fig = bound_curves_figure(curves)
    tr = traces(fig)
    for name, y in ((TEST, curves.test_residual), (TRAIN, curves.train_residual),
                    (COMPRESSION, curves.compression), (KPCA, curves.kpca),
                    (COMPRESSION_TERM, curves.compression_terms), (KPCA_TERM, curves.kpca_terms)):
        assert_array_equal(tr[name].x, curves.k)
        assert_allclose(tr[name].y, y, atol=ATOL_EXACT)
    trivial = [t for t in fig.data if t.name.startswith(TRIVIAL)]
    assert len(trivial) == 1 and np.all(np.asarray(trivial[0].y) == curves.trivial)


def test_minima_are_marked_at_k_star(curves):
    tr = traces(bound_curves_figure(curves))
    assert tuple(tr[COMPRESSION_MIN].x) == (curves.k_star_compression,)
    assert tr[COMPRESSION_MIN].y[0] == pytest.approx(curves.min_compression)
    assert tuple(tr[KPCA_MIN].x) == (curves.k_star_kpca,)
    assert tr[KPCA_MIN].y[0] == pytest.approx(curves.min_kpca)
    texts = [a.text for a in bound_curves_figure(curves).layout.annotations]
    assert any(f"k* = {curves.k_star_compression}</b>" in t for t in texts)
    assert any(f"k* = {curves.k_star_kpca}</b>" in t for t in texts)


def test_terms_can_be_hidden(curves):
    names = set(traces(bound_curves_figure(curves, show_terms=False)))
    assert COMPRESSION_TERM not in names and KPCA_TERM not in names
    assert {TEST, TRAIN, COMPRESSION, KPCA} <= names


def test_without_test_points_there_is_no_test_trace():
    X = np.random.default_rng(3).normal(size=(30, 2))
    fig = bound_curves_figure(bound_curves(X, None, gamma=0.5, k_max=5))
    assert TEST not in traces(fig)


def test_palette_axes_and_range_are_legible(curves):
    fig = bound_curves_figure(curves)
    tr = traces(fig)
    colours = {tr[n].line.color for n in (TEST, TRAIN, COMPRESSION, KPCA)}
    assert colours <= set(OKABE_ITO.values()) and len(colours) == 4  # colour-blind safe, distinct
    assert "basis vectors" in fig.layout.xaxis.title.text
    assert "φ(x)" in fig.layout.yaxis.title.text
    assert fig.layout.xaxis.tickfont.size >= 16 and fig.layout.yaxis.tickfont.size >= 16
    lo, hi = fig.layout.yaxis.range
    assert lo == 0 and hi >= max(curves.trivial, curves.kpca.max(), curves.compression.max())
    fig.to_json()  # serialisable: no NaN or inf reaches plotly


def test_single_step_figure():
    X = np.random.default_rng(1).normal(size=(12, 2))
    c = bound_curves(X, X[:3], gamma=0.5, k_max=1)
    tr = traces(bound_curves_figure(c))
    assert tuple(tr[COMPRESSION_MIN].x) == (1,) and tuple(tr[KPCA_MIN].x) == (1,)
