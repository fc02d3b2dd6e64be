"""The bounds figure: one trace per curve, data equal to the curves, minima marked at k*;
the page's dict of it (layout styled once) is what plotly's validation makes of it."""

import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst
from numpy.testing import assert_allclose, assert_array_equal

from conftest import ATOL_EXACT
from test_figure_frames import _pruned
from pages.common.figure_frames import typed_arrays
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
    bound_curves_figure_dict,
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


# ------------------------------------------------------------- the page's dict of the figure

def _sent(fig: dict):
    """The JSON the page sends for ``fig`` (typed arrays) and the JSON of the
    same figure validated by go.Figure."""
    ours = json.loads(pio.to_json(typed_arrays(fig), validate=False))
    ref = json.loads(pio.to_json(go.Figure(fig), validate=False))
    return _pruned(ours), _pruned(ref)


@settings(max_examples=25, deadline=None)
@given(seed=hst.integers(0, 2**16), m=hst.integers(3, 60), d=hst.integers(1, 4),
       n_test=hst.integers(0, 15), gamma=hst.floats(1e-3, 50.0), k_max=hst.integers(1, 40),
       show_terms=hst.booleans(), title=hst.one_of(hst.none(), hst.text(min_size=1, max_size=30)),
       height=hst.integers(300, 900))
def test_the_pages_dict_is_what_plotly_validates_it_to(seed, m, d, n_test, gamma, k_max,
                                                       show_terms, title, height):
    """The page draws the dict unvalidated (its layout styled once per height and title):
    plotly's validation changes nothing in it, whatever the data, terms, title and height;
    the notebook's go.Figure is that same figure."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m + n_test, d))
    c = bound_curves(X[:m], X[m:] if n_test else None, gamma=gamma, k_max=min(k_max, m - 1))
    fig = bound_curves_figure_dict(c, show_terms=show_terms, title=title, height=height)
    ours, ref = _sent(fig)
    assert ours == ref
    assert ours == _pruned(json.loads(pio.to_json(
        bound_curves_figure(c, show_terms=show_terms, title=title, height=height),
        validate=False)))
    # a second call gets its own copy of the styled layout: changing one leaves the next
    fig["layout"]["xaxis"]["title"]["text"] = "changed"
    again = bound_curves_figure_dict(c, show_terms=show_terms, title=title, height=height)
    assert "basis vectors" in again["layout"]["xaxis"]["title"]["text"]


def test_labels_keep_their_hue_and_read_on_their_box(curves):
    """The minima's labels are drawn in their curve's hue, darkened just enough to read at
    4.5:1 on their translucent white box (what ink() does to a validated figure)."""
    from mpcore.plots._common import MIN_CONTRAST, contrast_ratio, parse_colour

    fig = bound_curves_figure_dict(curves)
    labels = [a for a in fig["layout"]["annotations"] if a.get("showarrow")]
    assert len(labels) == 2
    for a in labels:
        assert contrast_ratio(a["font"]["color"]) >= MIN_CONTRAST
        hue, drawn = parse_colour(a["arrowcolor"]), parse_colour(a["font"]["color"])
        # the same hue: every channel scaled by one factor
        scale = [x / y for x, y in zip(drawn[:3], hue[:3]) if y > 0]
        assert max(scale) - min(scale) < 0.05 and max(scale) <= 1.0
