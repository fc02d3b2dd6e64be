"""Figures of the reproduction that show distributions and sweeps: they draw exactly the
numbers given, mark the published value, and leave no text to the host theme."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_plot_ink import _texts

from mpcore.plots import argmin_distribution_figure, sweep_heatmap_figure
from mpcore.plots._common import MIN_CONTRAST, contrast_ratio, parse_colour


@settings(max_examples=25, deadline=None)
@given(ks=st.lists(st.lists(st.integers(1, 60), min_size=1, max_size=40), min_size=1,
                   max_size=3),
       published=st.integers(1, 60))
def test_argmin_histograms_count_every_split(ks, published):
    fig = argmin_distribution_figure({f"curve {i}": k for i, k in enumerate(ks)}, published,
                                     x_max=60)
    bars = [t for t in fig.data if t.type == "bar"]
    assert len(bars) == len(ks)
    for bar, k in zip(bars, ks):
        assert int(np.sum(bar.y)) == len(k)
        assert list(np.asarray(bar.x)[np.asarray(bar.y) > 0]) == sorted(set(k))
    lines = [s for s in fig.layout.shapes if s.type == "line"]
    assert len(lines) == len(ks) and all(s.x0 == published for s in lines)


def test_sweep_heatmap_draws_the_grid_as_given():
    z = np.arange(6.0).reshape(2, 3)
    fig = sweep_heatmap_figure([10, 30, 100], [0.5, 1.0], [dict(title="k*", z=z, fmt=".0f")],
                               x_title="ratio", y_title="width")
    (hm,) = fig.data
    np.testing.assert_array_equal(np.asarray(hm.z), z)
    assert list(hm.x) == ["10", "30", "100"] and list(hm.y) == ["0.5", "1"]
    assert hm.text[1][2] == "5"


@pytest.mark.parametrize("fig", [
    lambda: argmin_distribution_figure({"a": [3, 5, 5], "b": [17]}, 17),
    lambda: sweep_heatmap_figure([1, 2], [1], [dict(title="t", z=[[1, 2]])], x_title="x",
                                 y_title="y"),
])
def test_text_is_explicit_and_readable(fig):
    texts = _texts(fig().to_plotly_json())
    assert not [w for w, c in texts if c is None]
    assert not [(w, c) for w, c in texts if parse_colour(c) and contrast_ratio(c) < MIN_CONTRAST]
    with pytest.raises(ValueError):
        argmin_distribution_figure({}, 17)


# ---------------------------------------------------------------- a phone's layout
