"""Figure geometry shared by the 2-D figures: the evaluation grid and the zero level.

Pure NumPy (no plotly): :func:`grid_2d` lays the regular grid a decision
surface is evaluated on, :func:`zero_level` traces where a gridded function
crosses a level (the decision boundary) as line segments.
"""

from __future__ import annotations

import numpy as np

from .._validation import _as_float_array, check_array_data, check_finite_float, check_positive_int

__all__ = ["GRID_SIZE", "GRID_PAD", "MAX_GRID", "grid_2d", "zero_level"]

#: Points per axis of the decision-surface grid.
GRID_SIZE = 60
#: Margin around the data, as a fraction of its range.
GRID_PAD = 0.1
#: Largest number of points per axis of :func:`grid_2d` (MAX_GRID**2 grid points).
MAX_GRID = 1000


def grid_2d(X, n=GRID_SIZE, pad=GRID_PAD):
    """Regular n x n grid covering 2-D data with a margin.

    Returns
    -------
    xs, ys : ndarray of shape (n,)
    points : ndarray of shape (n * n, 2)
        Row-major: ``points[i * n + j] == (xs[j], ys[i])``, so values reshape to (n, n)
        with y along the first axis, as plotly's contour ``z`` expects.
    """
    X = check_array_data(X, "X")
    if X.shape[1] != 2:
        raise ValueError(f"grid_2d needs 2-D data of shape (n, 2), got {X.shape}.")
    n = check_positive_int(n, "n", minimum=2, maximum=MAX_GRID)
    pad = check_finite_float(pad, "pad")
    if not 0 <= pad <= 10:
        raise ValueError(f"pad must lie in [0, 10] (a fraction of the data range), got {pad!r}.")
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    xs = np.linspace(lo[0] - pad * span[0], hi[0] + pad * span[0], n)
    ys = np.linspace(lo[1] - pad * span[1], hi[1] + pad * span[1], n)
    gx, gy = np.meshgrid(xs, ys)
    return xs, ys, np.column_stack([gx.ravel(), gy.ravel()])


def zero_level(xs, ys, Z, level=0.0):
    """Line segments where a gridded function crosses ``level`` (marching squares).

    Every grid cell whose corners change sign contributes one segment (two for
    a saddle cell), with the crossing on each edge found by linear
    interpolation. Segments are separated by NaN, ready for a line plot.

    Parameters
    ----------
    xs, ys : ndarray of shape (nx,), (ny,)
    Z : ndarray of shape (ny, nx)
        ``Z[i, j]`` is the value at ``(xs[j], ys[i])``.

    Returns
    -------
    x, y : ndarray
        Segment end points, a NaN after every segment (empty when nothing crosses).
    """
    xs = check_array_data(xs, "xs", ndim=1)
    ys = check_array_data(ys, "ys", ndim=1)
    Z = _as_float_array(Z, "Z")
    if np.isnan(Z).any():
        raise ValueError("Z contains NaN: evaluate the function at every grid point.")
    level = check_finite_float(level, "level")
    with np.errstate(invalid="ignore", over="ignore"):
        Z = Z - level
    if Z.shape != (ys.size, xs.size):
        raise ValueError(f"Z must have shape (len(ys), len(xs)) = {(ys.size, xs.size)}, got {Z.shape}.")
    pos = Z > 0
    # corners of every cell: a = (i, j), b = (i, j+1), c = (i+1, j+1), d = (i+1, j)
    a, b, c, d = Z[:-1, :-1], Z[:-1, 1:], Z[1:, 1:], Z[1:, :-1]
    pa, pb, pc, pd = pos[:-1, :-1], pos[:-1, 1:], pos[1:, 1:], pos[1:, :-1]
    X0, X1 = (np.broadcast_to(v, a.shape) for v in (xs[None, :-1], xs[None, 1:]))
    Y0, Y1 = (np.broadcast_to(v, a.shape) for v in (ys[:-1, None], ys[1:, None]))

    def frac(u, v):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.clip(u / (u - v), 0.0, 1.0)

    # crossing point on each edge (only used where that edge crosses)
    edges = {
        "bottom": (pa != pb, X0 + frac(a, b) * (X1 - X0), Y0),
        "right": (pb != pc, X1, Y0 + frac(b, c) * (Y1 - Y0)),
        "top": (pd != pc, X0 + frac(d, c) * (X1 - X0), Y1),
        "left": (pa != pd, X0, Y0 + frac(a, d) * (Y1 - Y0)),
    }
    names = ("bottom", "right", "top", "left")
    cross = np.stack([edges[e][0] for e in names])  # (4, ny-1, nx-1)
    ex = np.stack([np.broadcast_to(edges[e][1], a.shape) for e in names])
    ey = np.stack([np.broadcast_to(edges[e][2], a.shape) for e in names])
    count = cross.sum(axis=0)
    out_x, out_y = [], []
    # two crossings: one segment joining them
    ii, jj = np.nonzero(count == 2)
    if ii.size:
        which = cross[:, ii, jj].T  # (n, 4): which two edges cross
        first = np.argmax(which, axis=1)
        second = 3 - np.argmax(which[:, ::-1], axis=1)
        out_x.append(np.column_stack([ex[first, ii, jj], ex[second, ii, jj], np.full(ii.size, np.nan)]))
        out_y.append(np.column_stack([ey[first, ii, jj], ey[second, ii, jj], np.full(ii.size, np.nan)]))
    # saddle cells (four crossings): pair bottom-left / top-right or bottom-right / top-left
    # according to the sign of the cell centre (mean of the corners)
    ii, jj = np.nonzero(count == 4)
    if ii.size:
        same = ((a + b + c + d)[ii, jj] > 0) == pa[ii, jj]
        # centre of a's sign: a joins c, so the segments cut off b (bottom-right) and
        # d (top-left); otherwise they cut off a (bottom-left) and c (right-top)
        zero, two = np.zeros(ii.size, dtype=int), np.full(ii.size, 2)
        for p, q in ((zero, np.where(same, 1, 3)), (two, np.where(same, 3, 1))):
            out_x.append(np.column_stack([ex[p, ii, jj], ex[q, ii, jj], np.full(ii.size, np.nan)]))
            out_y.append(np.column_stack([ey[p, ii, jj], ey[q, ii, jj], np.full(ii.size, np.nan)]))
    if not out_x:
        return np.zeros(0), np.zeros(0)
    return np.concatenate(out_x).ravel(), np.concatenate(out_y).ravel()
