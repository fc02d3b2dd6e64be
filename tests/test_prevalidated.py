"""prevalidated: what Streamlit receives for a cached figure dict is what go.Figure would give.

Streamlit serialises ``figure.to_dict()``; a prevalidated figure skips building a
``go.Figure`` (validation of every frame) but must give the same JSON, with numpy
arrays as plotly.js typed arrays, and must never change the cached dict it wraps.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import plotly.tools
import pytest

from mpcore.plots import cut_animation, kcca_animation, prevalidated
from test_offline import _skpca_figure
from views import kcca as kcca_views


def _pruned(obj):
    """The JSON without empty objects (go.Figure drops them; plotly.js reads both the same)."""
    if isinstance(obj, dict):
        out = {k: _pruned(v) for k, v in obj.items()}
        return {k: v for k, v in out.items() if v != {}}
    if isinstance(obj, list):
        return [_pruned(v) for v in obj]
    return obj


def _kcca_figure():
    d = kcca_views.kcca_data(60, 0.1, 0, 0.25)
    v = kcca_views.kcca_view(d, 1.0, 1.0, 0.1, 4)
    return kcca_animation(d["X"], d["Y"], d["z"], v["steps"], train=v["train"], test=v["test"],
                          rho=v["rho"], frame_ms=200).to_plotly_json()


@pytest.mark.parametrize("make", [lambda: _skpca_figure()[0],
                                  lambda: cut_animation(_skpca_figure()[0], 4, 2),
                                  _kcca_figure], ids=["skpca", "skpca-cut", "kcca"])
def test_streamlit_receives_the_same_json_as_from_a_go_figure(make):
    fig = make()
    before = copy.deepcopy(fig)
    # what st.plotly_chart does with its argument
    ours = plotly.tools.return_figure_from_figure_or_data(prevalidated(fig), validate_figure=True)
    # (go.Figure converts the dict it is given in place: give it a copy)
    ref = plotly.tools.return_figure_from_figure_or_data(go.Figure(copy.deepcopy(fig)),
                                                         validate_figure=True)
    assert _pruned(json.loads(pio.to_json(ours, validate=False))) == _pruned(
        json.loads(pio.to_json(ref, validate=False)))
    assert '"bdata"' in pio.to_json(ours, validate=False)  # arrays sent as typed arrays
    # the wrapped (cached) dict is untouched: same structure, arrays still arrays
    assert pio.to_json(fig, validate=False) == pio.to_json(before, validate=False)
    assert any(isinstance(t.get("x"), np.ndarray) for t in fig["data"]) == any(
        isinstance(t.get("x"), np.ndarray) for t in before["data"])
