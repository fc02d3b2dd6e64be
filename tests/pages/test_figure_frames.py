"""typed_arrays and open_at (pages/common/figure_frames.py): what the browser receives for a
cached figure dict is what go.Figure would give.

plotly sends a ``go.Figure``'s numpy arrays as plotly.js typed arrays; the pages cache their
figures with the arrays already encoded (typed_arrays) and open them at a step (open_at):
the JSON must be the same as for the figure with arrays, and the cached dict never changes.
"""

from __future__ import annotations

import copy
import json
import pickle

import numpy as np
import plotly.io as pio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hst
from hypothesis.extra import numpy as hnp

from _plotly_utils.utils import convert_to_base64

from mpcore.plots import kcca_animation
from mpcore.plots._kmp_parts import SURFACE
from test_offline import _skpca_figure  # noqa: E402
from pages.common.figure_frames import open_at, typed_arrays
from pages.common.phone_panels import narrow_layout, one_panel, panels
from pages.common.resize import resized
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


# ---------------------------------------------------------------- typed arrays
# The pages cache their animations with the arrays already encoded (typed_arrays) and
# send them as they are: what reaches the browser must be the same
# JSON as for the figure with arrays, at every step and after every layout helper the
# pages apply, and the cached figure must not change.


def _kmp_surface():
    from sklearn.datasets import make_moons

    from mpcore.kmp import KMPClassifier, staged_values
    from mpcore.plots import kmp_surface_animation_dict
    from mpcore.plots.geometry import grid_2d

    X, y = make_moons(80, noise=0.2, random_state=0)
    model = KMPClassifier(5, gamma=2.0).fit(X[:60], y[:60])
    xs, ys, pts = grid_2d(X, 15)
    Z = staged_values(model, pts).reshape(-1, 15, 15)
    # the app's dict: its frames plain dicts, never validated by plotly
    return kmp_surface_animation_dict(X[:60], y[:60], Z, xs, ys, model.basis_indices_,
                                      model.basis_kernels_, classes=model.classes_,
                                      X_test=X[60:], y_test=y[60:])


FIGURES = {"skpca": lambda: _skpca_figure()[0], "kcca": _kcca_figure, "kmp": _kmp_surface}


def _sent(fig, typed=False) -> dict:
    """The JSON the browser gets for ``fig``: as it is when its arrays are typed already,
    else as go.Figure's to_dict encodes them (plotly's own convert_to_base64, on a copy)."""
    if not typed:
        fig = copy.deepcopy(fig)
        convert_to_base64(fig)
    return json.loads(pio.to_json(fig, validate=False))


@pytest.fixture(scope="module", params=sorted(FIGURES))
def figure(request):
    return FIGURES[request.param]()


def test_typed_figure_sends_the_same_json_and_leaves_its_input_alone(figure):
    before = pio.to_json(figure, validate=False)
    typed = typed_arrays(figure)
    assert pio.to_json(figure, validate=False) == before
    assert _sent(typed, typed=True) == _sent(figure)
    # no numeric array is left for plotly to encode on every rerun (text arrays, which
    # plotly sends as lists, stay arrays); the sparse-KPCA dict had them (go.Figure's
    # to_plotly_json already encodes the KMP and KCCA figures' arrays)
    assert _numeric_arrays(typed) == 0
    assert _numeric_arrays(_skpca_figure()[0]) > 0


def _numeric_arrays(obj) -> int:
    if isinstance(obj, np.ndarray):
        return int(obj.dtype.kind in "biuf" and obj.size > 0)
    if isinstance(obj, dict):
        return sum(_numeric_arrays(v) for k, v in obj.items() if k != "range")
    if isinstance(obj, (list, tuple)):
        return sum(_numeric_arrays(v) for v in obj)
    return 0


def test_typed_figure_opens_on_every_step_as_the_figure_with_arrays(figure):
    """open_at merges a frame's patches into the traces: a typed array is one value, never
    merged key by key with the array it replaces (a 'shape' left behind would redraw a
    heatmap with the wrong dimensions)."""
    typed = typed_arrays(figure)
    frozen = pio.to_json(typed, validate=False)
    n = len(figure["frames"])
    assert n >= 3
    for k in (n, n - 1):
        for j in range(k):
            ours = _sent(open_at(typed, j, k=k, frame_ms=90), typed=True)
            assert ours == _sent(open_at(figure, j, k=k, frame_ms=90)), (k, j)
    assert pio.to_json(typed, validate=False) == frozen  # the cached figure is untouched


def test_typed_figure_through_the_pages_layout_helpers(figure):
    """What the pages do to a cached figure before drawing it (a short projector figure, a
    phone's one panel, the KMP presentation layout) gives the same JSON either way."""
    from mpcore.plots import kmp_present_layout

    typed = typed_arrays(figure)
    helpers = [lambda f: resized(f, 430), lambda f: narrow_layout(f, height=820)]
    helpers += [lambda f, s=s: one_panel(f, s, height=560) for s in panels(figure)]
    if SURFACE in {t.get("name") for t in figure["data"]}:
        helpers.append(lambda f: kmp_present_layout(resized(f, 505)))
    for helper in helpers:
        assert _sent(helper(typed), typed=True) == _sent(helper(figure))


def test_a_frames_typed_array_replaces_the_traces_whole():
    """A typed array is a value: opening a frame whose patch gives a trace a 1-D array
    where it had a 2-D one must not keep the old array's 'shape' (a key only 2-D arrays
    have), as a key-by-key merge would."""
    fig = typed_arrays({
        "data": [{"type": "heatmap", "z": np.arange(6.0).reshape(2, 3)}],
        "layout": {},
        "frames": [{"name": "1", "traces": [0], "data": [{"z": np.arange(6.0).reshape(2, 3)}]},
                   {"name": "2", "traces": [0], "data": [{"z": np.arange(4.0)}]}]})
    assert "shape" in fig["data"][0]["z"] and "shape" not in fig["frames"][1]["data"][0]["z"]
    opened = open_at(fig, 1)
    assert opened["data"][0]["z"] == fig["frames"][1]["data"][0]["z"]
    assert "shape" in fig["data"][0]["z"]  # the input is untouched


# ---------------------------------------------------------------- typed arrays, fuzzed

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as hst  # noqa: E402
from hypothesis.extra.numpy import arrays as np_arrays  # noqa: E402

from fuzz_util import N_EXAMPLES  # noqa: E402

_DTYPES = hst.sampled_from([np.float64, np.float32, np.int64, np.int32, np.int8, np.uint8,
                            np.bool_])
_VALUES = np_arrays(_DTYPES, hst.one_of(hst.integers(0, 7), hst.tuples(hst.integers(1, 4),
                                                                       hst.integers(1, 4))))


@hst.composite
def _figures(draw):
    """A figure dict of any shape plotly takes: traces with arrays of any numeric dtype (NaN,
    inf and int64 beyond int32 included), 1-D or 2-D, empty or not, in traces, markers and
    frames, plus the kinds of value left alone (lists, text, a 'range')."""
    def trace():
        t = {"type": "scatter", "x": draw(_VALUES), "y": draw(_VALUES),
             "marker": {"color": draw(_VALUES), "size": 6}, "name": draw(hst.text(max_size=5))}
        if draw(hst.booleans()):
            t["customdata"] = np.array([["a", "b"]], dtype=object)
        return t

    n = draw(hst.integers(1, 3))
    data = [trace() for _ in range(n)]
    frames = [{"name": str(i), "traces": [i % n], "data": [{"y": draw(_VALUES),
                                                           "marker": {"color": draw(_VALUES)}}]}
              for i in range(draw(hst.integers(0, 3)))]
    return {"data": data, "layout": {"xaxis": {"range": np.array([0.0, 1.0])}, "height": 300},
            "frames": frames}


@settings(max_examples=N_EXAMPLES, deadline=None)
@given(fig=_figures(), j=hst.integers(-2, 5))
def test_typed_arrays_send_what_plotly_sends_for_any_figure(fig, j):
    before = pio.to_json(fig, validate=False)
    typed = typed_arrays(fig)
    assert pio.to_json(fig, validate=False) == before  # the input is not changed
    # (what plotly leaves as an array, int64 beyond int32 for one, it sends as a list both ways)
    assert _sent(typed, typed=True) == _sent(fig)
    if fig["frames"]:
        assert _sent(open_at(typed, j), typed=True) == _sent(open_at(fig, j))


# ---------------------------------------------------------------- typed_arrays against plotly

_DTYPES = ["<f8", "<f4", "<f2", "<i8", "<i4", "<i2", "i1", "<u8", "<u4", "<u2", "u1", "bool",
           ">f8", ">i4", "<M8[ns]", "O", "<U3"]


@hst.composite
def _array(draw):
    dtype = np.dtype(draw(hst.sampled_from(_DTYPES)))
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4))
    if dtype.kind in "OU":
        return np.array(draw(hst.lists(hst.text(max_size=3), min_size=1, max_size=5)), dtype=dtype)
    if dtype.kind in "iu" and dtype.itemsize == 8 and draw(hst.booleans()):  # int64 beyond what plotly narrows to int32
        return np.array([2**40, 2**33 if dtype.kind == "u" else -(2**40)], dtype=dtype)
    a = draw(hnp.arrays(dtype, shape))
    if a.ndim > 1 and draw(hst.booleans()):
        a = np.asfortranarray(a) if draw(hst.booleans()) else a[..., ::2]  # not C-contiguous
    return a


_leaf = hst.one_of(_array(), hst.floats(allow_nan=False), hst.integers(-5, 5), hst.text(max_size=4),
                   hst.none(), hst.just(np.float32(1.5)), hst.just(np.int64(3)))
_tree = hst.recursive(_leaf, lambda inner: hst.one_of(
    hst.lists(inner, max_size=3),
    hst.dictionaries(hst.sampled_from(["x", "y", "z", "range", "marker", "data", "layers"]),
                     inner, max_size=4)), max_leaves=12)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=hst.dictionaries(hst.sampled_from(["data", "layout", "frames", "x"]), _tree, max_size=3))
def test_typed_arrays_encodes_as_plotly_does(tree):
    """typed_arrays gives what plotly's own convert_to_base64 gives, for any array it may
    meet (every dtype, empty, 2-D and 3-D, not C-contiguous, int64 plotly cannot narrow,
    under a key plotly skips), and leaves its input alone."""
    from _plotly_utils.utils import convert_to_base64

    before = pickle.dumps(tree)
    ours = typed_arrays(tree)
    theirs = copy.deepcopy(tree)
    convert_to_base64(theirs)
    assert pickle.dumps(tree) == before
    assert _same(ours, theirs)


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.dtype == b.dtype
                and np.array_equal(a, b, equal_nan=a.dtype.kind in "fcmM"))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return (type(a) is type(b) or {type(a), type(b)} <= {list, tuple}) and len(a) == len(b) \
            and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and (a == b or a != a and b != b)
