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

from ._common import deep_merge

__all__ = ["open_at", "prevalidated"]


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


def prevalidated(fig: dict) -> go.Figure:
    """A ``go.Figure`` around a figure dict built (and validated) by this module, without
    validating it again: given a dict, Streamlit re-validates every frame (tens of ms
    for an animation) on each rerun, such as a Step click."""
    return go.Figure(fig, _validate=False)
