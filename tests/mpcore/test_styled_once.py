"""The animated figures built as dicts (sparse KPCA, KCCA, the KMP decision surface).

Their layout is styled through plotly once per shape (``mpcore.plots._common.styled_once``)
and the data are merged into a copy, without plotly validating the result. Streamlit is
then sent as it is (``pages.common.figure_frames.typed_arrays``). So, for any shape of figure:

- the dict must be what plotly's validation would make of it (same JSON);
- the cached styling must never be shared: a page that changes its copy (presentation
  mode, a phone's one-panel view) must not change the next figure.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hst
from sklearn.datasets import make_moons

from example_views import skpca_on_moons
from mpcore.kmp import KMPClassifier, staged_values
from mpcore.plots import (
    kcca_animation_dict,
    kmp_surface_animation_dict,
    skpca_animation_dict,
)
from mpcore.plots._kcca import _styled_grid as kcca_style
from mpcore.plots._kmp_parts import _surface_style
from mpcore.plots._skpca import _styled_grid as skpca_style
from mpcore.plots.geometry import grid_2d, zero_level
from test_figure_frames import _pruned  # go.Figure drops empty objects; plotly.js reads both the same
from views import kcca as kcca_views
from pages.common.figure_frames import typed_arrays

SLOW = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]


def assert_validated(fig: dict):
    """``fig`` is already what plotly's validation makes of it (frames included)."""
    ours = json.loads(pio.to_json(typed_arrays(fig), validate=False))
    ref = json.loads(go.Figure(copy.deepcopy(fig)).to_json())
    assert _pruned(ours) == _pruned(ref)


@pytest.fixture(scope="module")
def skpca_run():
    return skpca_on_moons(50, 5)


@given(height=hst.integers(300, 1400), start=hst.integers(-2, 8), heat=hst.booleans(),
       added=hst.lists(hst.integers(0, 36), max_size=3, unique=True), curves=hst.booleans(),
       frame_ms=hst.integers(20, 2000))
@settings(max_examples=25, deadline=None, suppress_health_check=SLOW)
def test_skpca_dict_is_what_plotly_validates_it_to(skpca_run, height, start, heat, added,
                                                   curves, frame_ms):
    v = skpca_run
    fig = skpca_animation_dict(
        v["X2"], v["steps"], axis_labels=v["axis_labels"], trace0=v["trace0"],
        curves=v["curves"] if curves else None, heatmaps=v["heat"] if heat else None,
        heat_index=v["heat_index"] if heat else None, added=np.array(added, dtype=int),
        start=start, height=height, frame_ms=frame_ms)
    assert_validated(fig)
    assert fig["layout"]["height"] == height
    assert fig["layout"]["sliders"][0]["active"] == int(np.clip(start, 0, len(v["steps"]) - 1))


@pytest.fixture(scope="module")
def kcca_run():
    d = kcca_views.kcca_data(50, 0.1, 0, 0.25)
    return d, kcca_views.kcca_view(d, 1.0, 1.0, 0.1, 4)


@given(height=hst.integers(300, 1400), start=hst.integers(-1, 6),
       parts=hst.sets(hst.sampled_from(["train", "test", "rho"])))
@settings(max_examples=25, deadline=None, suppress_health_check=SLOW)
def test_kcca_dict_is_what_plotly_validates_it_to(kcca_run, height, start, parts):
    d, v = kcca_run
    fig = kcca_animation_dict(d["X"], d["Y"], d["z"], v["steps"], start=start, height=height,
                              **{p: v[p] for p in parts})
    assert_validated(fig)
    # the panel titles are the opening step's (the cached ones are placeholders)
    j = int(np.clip(start, 0, len(v["steps"]) - 1))
    assert f"at step {j + 1}:" in fig["layout"]["annotations"][3]["text"]


@pytest.fixture(scope="module")
def kmp_run():
    X, y = make_moons(70, noise=0.2, random_state=0)
    model = KMPClassifier(5, gamma=2.0).fit(X[:50], y[:50])
    xs, ys, pts = grid_2d(X, 12)
    Z = staged_values(model, pts).reshape(-1, 12, 12)
    return X, y, model, xs, ys, Z


@given(height=hst.integers(560, 1400), start=hst.integers(-1, 6), test=hst.booleans(),
       boundary=hst.booleans(), specs=hst.integers(1, 3))
@settings(max_examples=25, deadline=None, suppress_health_check=SLOW)
def test_kmp_surface_dict_is_what_plotly_validates_it_to(kmp_run, height, start, test,
                                                         boundary, specs):
    X, y, model, xs, ys, Z = kmp_run
    fig = kmp_surface_animation_dict(
        X[:50], y[:50], Z, xs, ys, model.basis_indices_, np.arange(5) % specs,
        classes=model.classes_, spec_labels=tuple(f"kernel {s}" for s in range(specs)),
        X_test=X[50:] if test else None, y_test=y[50:] if test else None,
        boundary=[zero_level(xs, ys, z) for z in Z] if boundary else None,
        start=start, height=height)
    assert_validated(fig)
    j = int(np.clip(start, 0, len(Z) - 1))
    assert fig["layout"]["title"]["text"] == fig["frames"][j]["layout"]["title"]["text"]


@pytest.mark.parametrize("height", [10, 300, 359])
def test_kmp_surface_too_short_for_its_margins_is_refused(kmp_run, height):
    """Title, legend, colour bar and controls take 360 px here: a shorter figure would put
    the controls above the plot (plotly rejects such a slider position only in a go.Figure;
    the dict would reach the browser)."""
    X, y, model, xs, ys, Z = kmp_run
    with pytest.raises(ValueError, match=r"height=\d+ px leaves -?\d+ px for the plot.*use height >= \d+"):
        kmp_surface_animation_dict(X[:50], y[:50], Z, xs, ys, model.basis_indices_,
                                   classes=model.classes_, height=height)


@pytest.mark.parametrize("style, args", [(skpca_style, (True, 880)), (skpca_style, (False, 600)),
                                         (kcca_style, (920,)), (_surface_style, (820, 2))],
                         ids=["skpca", "skpca-no-heatmap", "kcca", "kmp-surface"])
def test_cached_styling_is_copied_for_every_figure(style, args):
    first = style(*args)
    reference = copy.deepcopy(first)
    # what a page may do to its figure's layout: change titles, margins, annotations
    first["margin"]["b"] = 1
    first["xaxis"]["title"] = {"text": "changed"}
    first.setdefault("annotations", []).append({"text": "added"})
    second = style(*args)
    assert second == reference
    assert second is not first and second["margin"] is not first["margin"]
