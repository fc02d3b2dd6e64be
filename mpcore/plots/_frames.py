"""Open an animated figure dict at a frame: the one helper every animated page uses.

The figures of this package are dicts with ``frames``; each frame lists the
traces it changes (``traces``), their patches (``data``) and, sometimes, a
layout patch (a step title, annotations, axis ranges). A page shows one step
without playing the animation by opening the figure at that frame:
:func:`open_at` merges frame j's patches into the figure's own traces and
layout and moves the slider, copying only what changes, so one cached figure
serves every step.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import base64

from _plotly_utils.basevalidators import is_homogeneous_array
from _plotly_utils.utils import is_skipped_key, plotlyjsShortTypes, to_typed_array_spec

from ._common import deep_merge

__all__ = ["open_at", "prevalidated", "typed_arrays"]


def open_at(fig: dict, j: int, *, k: int | None = None, frame_ms: int | None = None) -> dict:
    """Copy of an animated figure dict that opens on frame ``j`` (0-based).

    Parameters
    ----------
    fig : dict
        An animated figure dict of :mod:`mpcore.plots` (with ``frames``).
    j : int
        Frame to open on, clipped to the frames there are.
    k : int, optional
        Keep only the first ``k`` frames and slider steps (greedy steps do
        not depend on how many follow, so one figure built for the largest k
        serves every smaller one).
    frame_ms : int, optional
        Play speed: milliseconds per frame.

    Returns
    -------
    dict
        The traces frame j touches are patched, its layout patch (title,
        annotations, axis ranges: merged one level deep) applied and the
        slider set to j. A figure without frames is returned as it is.
    """
    frames = fig.get("frames", [])
    if not frames:
        return fig
    k = len(frames) if k is None else int(np.clip(k, 1, len(frames)))
    j = int(np.clip(j, 0, k - 1))
    frame = frames[j]
    data = list(fig["data"])
    for ti, patch in zip(frame.get("traces", []), frame.get("data", [])):
        data[ti] = deep_merge(data[ti], patch)
    layout = dict(fig["layout"])
    if layout.get("sliders"):
        slider = dict(layout["sliders"][0], active=j, steps=layout["sliders"][0]["steps"][:k])
        layout["sliders"] = [slider] + list(layout["sliders"][1:])
    if frame_ms is not None and layout.get("updatemenus"):
        menu = dict(layout["updatemenus"][0])
        play = dict(menu["buttons"][0])
        args = list(play["args"])
        args[1] = dict(args[1], frame=dict(args[1]["frame"], duration=int(frame_ms)))
        play["args"] = args
        menu["buttons"] = [play] + list(menu["buttons"][1:])
        layout["updatemenus"] = [menu]
    for key, val in (frame.get("layout") or {}).items():  # one level deep is enough
        layout[key] = dict(layout.get(key) or {}, **val) if isinstance(val, dict) else val
    out = dict(fig, data=data, layout=layout)
    if k < len(frames):
        out["frames"] = frames[:k]
    return out


class _Prevalidated(go.Figure):
    """A figure dict of this package, handed to Streamlit as it is.

    Streamlit turns a dict into a ``go.Figure`` (validating every trace of every
    frame) and a ``go.Figure`` back into a dict, on every rerun: for an animation
    that was a quarter of a Step's server time even with ``_validate=False``. The
    figures of this package were validated when built (the tests build each with
    validation on), so this ``go.Figure`` only carries the dict: ``to_dict`` returns
    it, nothing is copied or checked again. Not a general-purpose figure: its
    other ``go.Figure`` methods are not available.
    """

    def __init__(self, fig: dict, typed: bool = False):  # go.Figure.__init__ not called
        object.__setattr__(self, "_mp_dict", fig)
        object.__setattr__(self, "_mp_typed", typed)

    def to_dict(self) -> dict:
        fig = self._mp_dict
        if self._mp_typed:
            # arrays already typed (typed_arrays): nothing to encode or copy, except the
            # trace dicts, from which plotly.io.to_json pops any "uid"
            return dict(fig, data=[dict(t) for t in fig.get("data", [])])
        # what go.Figure.to_dict gives, on a copy (the cached dict is not touched)
        return typed_arrays(fig)

    def to_plotly_json(self) -> dict:
        return self.to_dict()


def _containers_copy(obj):
    """Copy of nested dicts, lists and tuples (as lists); leaves (arrays, numbers) shared."""
    if isinstance(obj, dict):
        return {k: v if isinstance(v, _LEAVES) else _containers_copy(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [v if isinstance(v, _LEAVES) else _containers_copy(v) for v in obj]
    return obj


def prevalidated(fig: dict, *, typed: bool = False) -> go.Figure:
    """A ``go.Figure`` around a figure dict built (and validated) by this package, without
    validating or copying it again (see :class:`_Prevalidated`); ``to_dict()`` gives the
    dict back. Use it to pass a cached animation to ``st.plotly_chart``.

    ``typed=True`` says the figure's arrays are already plotly.js typed arrays
    (:func:`typed_arrays`): the figure is then not walked at all. An array left in it
    is still sent right (as a JSON list, not base64).
    """
    return _Prevalidated(fig, typed)


def typed_arrays(fig: dict) -> dict:
    """Copy of a figure dict with its numpy arrays as plotly.js typed arrays.

    The arrays become what ``go.Figure.to_dict`` sends for them: ``{"dtype": ...,
    "bdata": <base64>}`` (plus ``"shape"`` for a 2-D array), read by plotly.js
    2.28 and later as the array itself. What plotly does not encode (text, int64
    values beyond int32, an axis ``range``) stays as it is and is sent as a list.

    Encoding is most of what serialising an animation costs, so a figure drawn on
    every rerun (one Step, one slider move) is cached in this form and passed as
    ``prevalidated(fig, typed=True)``: the server then only writes the JSON.
    :func:`open_at` and the other helpers of this package take such a figure as they
    take one with arrays (a typed array is one value, never merged key by key). The
    input is not changed.
    """
    return _encoded(fig)


#: The numpy dtypes plotly.js reads as typed arrays as they are (native byte order).
_TYPED = {np.dtype(name): short for name, short in plotlyjsShortTypes.items()}
_LEAVES = (str, int, float, bool, type(None))


def _encoded(obj):
    """plotly's ``convert_to_base64`` on a copy, with the same result, in one walk: nested
    dicts, lists and tuples (as lists) copied, leaves shared, and a numpy array that is a
    dict value made its typed-array spec (not under the keys plotly skips, such as
    ``range``). plotly's own walk converts every value through narwhals, about 70 us each
    (most of the time spent on a cached animation); here a plain float or int array of a
    type plotly.js reads is encoded directly and anything else still goes through plotly
    (int64 narrowed, an empty array, pandas values)."""
    if isinstance(obj, dict):
        out = {}
        for key, value in obj.items():
            if isinstance(value, _LEAVES):
                out[key] = value
            elif is_skipped_key(key):
                out[key] = _containers_copy(value)
            elif isinstance(value, np.ndarray) and value.size and value.dtype in _TYPED:
                out[key] = _spec(value)
            elif is_homogeneous_array(value):
                out[key] = to_typed_array_spec(value)
            else:
                out[key] = _encoded(value)
        return out
    if isinstance(obj, (list, tuple)):
        return [v if isinstance(v, _LEAVES) else _encoded(v) for v in obj]
    return obj


def _spec(value: np.ndarray) -> dict:
    """The typed-array spec of a float or int array plotly.js reads as it is."""
    spec = {"dtype": _TYPED[value.dtype],
            "bdata": base64.b64encode(np.ascontiguousarray(value)).decode("ascii")}
    if value.ndim > 1:
        spec["shape"] = str(value.shape)[1:-1]
    return spec
