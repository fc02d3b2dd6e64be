"""Open an animated figure dict at a frame, and send it as plotly.js typed arrays.

The figures of :mod:`mpcore.plots` are dicts with ``frames``; each frame lists the
traces it changes (``traces``), their patches (``data``) and, sometimes, a
layout patch (a step title, annotations, axis ranges). A page shows one step
without playing the animation by opening the figure at that frame:
:func:`open_at` merges frame j's patches into the figure's own traces and
layout and moves the slider, copying only what changes, so one cached figure
serves every step. :func:`typed_arrays` encodes a figure's arrays once, when it is
cached. Streamlit-free.
"""

from __future__ import annotations

import base64

import numpy as np
from _plotly_utils.basevalidators import is_homogeneous_array
from _plotly_utils.utils import is_skipped_key, plotlyjsShortTypes, to_typed_array_spec

from mpcore.plots import deep_merge

__all__ = ["cut_animation", "open_at", "typed_arrays"]


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


def cut_animation(fig: dict, k: int, j: int, *, frame_ms: int | None = None) -> dict:
    """The first ``k`` steps of an animated figure dict, opened on step ``j`` (1-based): what
    the sparse KPCA page draws of :func:`mpcore.plots.skpca_animation_dict`.

    Greedy steps do not depend on how many follow, so one figure built for the
    largest k serves every smaller k: frames and slider are cut, the step axis
    of panel 4 is narrowed, and the traces the opening frame touches are
    replaced. ``frame_ms`` sets the Play speed. Nothing is rebuilt or validated.
    """
    out = open_at(fig, j - 1, k=k, frame_ms=frame_ms)
    if out is not fig and "xaxis4" in out["layout"]:
        k = len(out["frames"])
        out["layout"] = dict(out["layout"], xaxis4=dict(out["layout"]["xaxis4"], range=[-0.3, k + 0.3]))
    return out


def _containers_copy(obj):
    """Copy of nested dicts, lists and tuples (as lists); leaves (arrays, numbers) shared."""
    if isinstance(obj, dict):
        return {k: v if isinstance(v, _LEAVES) else _containers_copy(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [v if isinstance(v, _LEAVES) else _containers_copy(v) for v in obj]
    return obj


def typed_arrays(fig: dict) -> dict:
    """Copy of a figure dict with its numpy arrays as plotly.js typed arrays.

    The arrays become what ``go.Figure.to_dict`` sends for them: ``{"dtype": ...,
    "bdata": <base64>}`` (plus ``"shape"`` for a 2-D array), read by plotly.js
    2.28 and later as the array itself. What plotly does not encode (text, int64
    values beyond int32, an axis ``range``) stays as it is and is sent as a list.

    Encoding is most of what serialising an animation costs, so a figure drawn on
    every rerun (one Step, one slider move) is cached in this form: the server then only
    writes the JSON. :func:`open_at` and the figure helpers of :mod:`mpcore.plots` take such
    a figure as they take one with arrays (a typed array is one value, never merged key by
    key). The input is not changed.
    """
    return _encoded(fig)


#: The numpy dtypes plotly.js reads as typed arrays as they are (native byte order).
_TYPED = {np.dtype(name): short for name, short in plotlyjsShortTypes.items()}
_LEAVES = (str, int, float, bool, type(None))


def _encoded(obj):
    """plotly's ``convert_to_base64`` on a copy, with the same result, in one walk: nested
    dicts, lists and tuples (as lists) copied, leaves shared, and a numpy array that is a
    dict value made its typed-array spec (not under the keys plotly skips, such as
    ``range``). plotly's own walk converts every value through narwhals (most of the time
    spent on a cached animation); here a plain float or int array of a type plotly.js reads
    is encoded directly and anything else still goes through plotly (int64 narrowed, an
    empty array, pandas values)."""
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
