"""The arrays of a figure's JSON, as the tests read them (one decoder for every test)."""

from __future__ import annotations

import base64

import numpy as np


def decode(arr, dtype=float) -> np.ndarray:
    """A plotly JSON array as an ndarray of ``dtype`` (None: as stored).

    plotly 7 writes a numeric array as a typed array, ``{"dtype", "bdata"}`` (base64 of the
    raw values) with its ``"shape"`` ("rows,cols") when it has two axes; a list (None for a
    gap, NaN as floats) or an ndarray is taken as it is."""
    if isinstance(arr, dict) and "bdata" in arr:
        a = np.frombuffer(base64.b64decode(arr["bdata"]), dtype=np.dtype(arr["dtype"]))
        shape = arr.get("shape")
        if shape:
            a = a.reshape([int(n) for n in shape.split(",")] if isinstance(shape, str)
                          else tuple(shape))
        return a if dtype is None else a.astype(dtype)
    return np.asarray(arr, dtype=dtype)
