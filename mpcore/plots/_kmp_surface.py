"""The decision surface of a 2-D KMP classifier step by step: one frame per step.

- :func:`kmp_surface_animation` (:func:`kmp_surface_animation_dict`, its plotly dict):
  the decision surface after each step (a smoothed heatmap of f, zero level drawn, basis
  points ringed and numbered in order of choice);
- :func:`kmp_present_layout`: the decision surface laid out again for presentation mode
  (a wide, short screen), at the height the figure was given.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ._common import (
    OKABE_ITO,
    deep_merge,
    title_top_y,
)
from .text_size import frames_retitled, legend_names
from ._kmp_parts import (
    NEWEST,
    RING_COLOURS,
    SURFACE,
    SYMBOLS,
    ZERO,
    SURFACE_LEGEND_COLUMNS,
    SURFACE_LEGEND_ROW_PX,
    SURFACE_MAX_TOP_ROWS,
    SURFACE_TITLE_LINE_PX,
    _check_steps,
    _fitted_titles,
    _controls,
    _ring_dict,
    _surface_colorbar,
    _surface_style,
    surface_legend_columns,
    _class_colour,
    _limit,
    _rings,
    _step_title,
    _surface_scale,
)


def kmp_surface_animation(X, y, Z, xs, ys, basis, kernels=None, **kwargs):
    r"""Decision surface after each step of a 2-D KMP classifier, one frame per step.

    Parameters
    ----------
    X, y : arrays (m, 2), (m,)
        Training points and labels; ``basis`` indexes X.
    Z : array (k, len(ys), len(xs))
        The decision function after each step on the grid
        (``mpcore.kmp.staged_values`` reshaped).
    xs, ys : arrays
        Grid coordinates (``mpcore.plots.geometry.grid_2d``).
    basis, kernels : arrays (k,)
        Training index (-1: constant) and kernel specification chosen at each step.
    classes : array, optional
        Class labels, in the order of the model's ``classes_``.
    positive : int
        Index in ``classes`` of the class a positive decision value means (1 for
        two classes; the one-vs-rest class otherwise).
    spec_labels : tuple of str
        Names of the kernel specifications (one ring colour each).
    boundary : list of (x, y) arrays, optional
        The zero level per step (``mpcore.plots.geometry.zero_level``).
    frame_ms : int
        Milliseconds per frame when playing.
    start : int
        0-based step shown first.
    height : int
        Pixels (820); the plot area is what the title, the legend, the colour bar and the
        controls leave of it.

    Returns
    -------
    plotly.graph_objects.Figure

    Raises
    ------
    ValueError
        When ``height`` leaves the plot less than 120 px (the message says the least
        height for this figure).
    """
    return go.Figure(_surface(X, y, Z, xs, ys, basis, kernels, **kwargs))


def kmp_surface_animation_dict(X, y, Z, xs, ys, basis, kernels=None, **kwargs) -> dict:
    """:func:`kmp_surface_animation` as a plotly dict, its frames plain dicts never validated
    one by one: what the app builds for every slider setting."""
    return _surface(X, y, Z, xs, ys, basis, kernels, **kwargs)


def _surface(X, y, Z, xs, ys, basis, kernels=None, *, classes=None, positive=1,
             spec_labels=("kernel",), X_test=None, y_test=None, boundary=None, frame_ms=150,
             start=0, height=820, axis_labels=("x<sub>1</sub>", "x<sub>2</sub>")) -> dict:
    """The figure as a dict, its frames as the dicts plotly validates them to (their
    traces carry no text colour, so :func:`mpcore.plots.ink` would leave them as they
    are); the layout is styled once per height and legend size (:func:`_surface_style`)."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    Z = np.asarray(Z, dtype=np.float32)
    k = Z.shape[0]
    _check_steps(k)
    basis = np.asarray(basis, dtype=int)
    kernels = np.zeros(k, dtype=int) if kernels is None else np.asarray(kernels, dtype=int)
    classes = np.unique(y) if classes is None else np.asarray(classes)
    start = int(np.clip(start, 0, k - 1))
    lim = _limit(Z)
    neg_colour = _class_colour(0) if classes.size == 2 else "#777777"
    pos_colour = _class_colour(positive)
    n_specs = len(spec_labels)

    # a heatmap smoothed by the browser's image scaling (zsmooth="fast", an even grid): a
    # filled contour computes its smoothing and level lines in JavaScript, and takes about
    # twice as long to draw, on every Play frame
    data = [dict(type="heatmap", x=xs, y=ys, z=Z[start], name=SURFACE, zmin=-lim, zmax=lim,
                 zauto=False, colorscale=_surface_scale(neg_colour, pos_colour), zsmooth="fast",
                 hovertemplate="x₁ = %{x:.2f}, x₂ = %{y:.2f}<br>f = %{z:.3f}<extra></extra>",
                 showlegend=False),
            dict(type="scatter", mode="lines", name=ZERO, line=dict(color="black", width=3.5),
                 hoverinfo="skip")]
    for c, label in enumerate(classes):
        sel = y == label
        role = ""
        if classes.size > 2:
            role = " (f > 0 side)" if c == positive else ""
        data.append(dict(
            type="scatter", x=X[sel, 0], y=X[sel, 1], mode="markers", name=f"class {label}{role}",
            marker=dict(size=10, color=_class_colour(c), symbol=SYMBOLS[c % len(SYMBOLS)],
                        line=dict(width=1, color="#222")),
            hovertemplate=f"class {label}<br>i = %{{customdata}}<extra></extra>",
            customdata=np.flatnonzero(sel),
        ))
    if X_test is not None and y_test is not None:
        Xt, yt = np.asarray(X_test, dtype=float), np.asarray(y_test)
        for c, label in enumerate(classes):
            sel = yt == label
            data.append(dict(
                type="scatter", x=Xt[sel, 0], y=Xt[sel, 1], mode="markers",
                name=f"class {label}, test",
                marker=dict(size=9, color=_class_colour(c),
                            symbol=SYMBOLS[c % len(SYMBOLS)] + "-open", line=dict(width=2)),
                hovertemplate=f"test point, class {label}<extra></extra>",
                visible="legendonly",
            ))
    ring_ids = []
    for s, label in enumerate(spec_labels):
        name = "basis points" if n_specs == 1 else label
        data.append(_ring_dict(name, RING_COLOURS[s % len(RING_COLOURS)]))
        ring_ids.append(len(data) - 1)
    data.append(dict(type="scatter", x=[None], y=[None], mode="markers", name=NEWEST,
                     marker=dict(size=20, symbol="star", color=OKABE_ITO["yellow"],
                                 line=dict(width=2, color="black")),
                     hoverinfo="skip"))
    moving = [0, 1] + ring_ids + [len(data) - 1]

    def frame_data(j):
        # the zero level in single precision, as the surface: a polyline drawn to the pixel,
        # in half the bytes
        bx, by = (np.asarray(a, dtype=np.float32) for a in boundary[j]) if boundary is not None \
            else ([], [])
        out = [{"type": "heatmap", "z": Z[j]},
               {"type": "scatter", "x": bx if len(bx) else [None],
                "y": by if len(by) else [None]}]
        for rx, ry, labels, idx in _rings(X, basis, kernels, j, n_specs):
            out.append({"type": "scatter", "x": rx, "y": ry, "text": labels, "customdata": idx})
        i = int(basis[j])
        out.append({"type": "scatter", "x": [X[i, 0]] if i >= 0 else [None],
                    "y": [X[i, 1]] if i >= 0 else [None]})
        return out

    titles, title_lines = _fitted_titles(
        [_step_title(j, k, basis, kernels, spec_labels) for j in range(k)])
    frames = [{"data": frame_data(j), "traces": moving, "name": str(j + 1),
               "layout": {"title": {"text": titles[j]}}}
              for j in range(k)]
    for ti, patch in zip(moving, frames[start]["data"]):
        data[ti].update({key: v for key, v in patch.items() if key != "type"})
    # the legend's rows on top: one per SURFACE_LEGEND_COLUMNS entries shown in it, or one
    # an entry when a name is too long for that (the figure taller by the rows it adds, so
    # that the plot keeps its size)
    names = legend_names(data)
    columns = surface_legend_columns(names)
    rows = -(-len(names) // columns)
    if -(-len(names) // SURFACE_LEGEND_COLUMNS) > SURFACE_MAX_TOP_ROWS:
        rows = 0  # the legend at the right (scrolled by plotly), the figure at its height
    else:
        height = int(height) + SURFACE_LEGEND_ROW_PX * (
            rows - -(-len(names) // SURFACE_LEGEND_COLUMNS))
    # a title on two lines: the legend and the plot area one line lower, the figure one
    # line taller (the plot area, and what lies under it, as with one line)
    extra = SURFACE_TITLE_LINE_PX * (title_lines - 1)
    data[0]["colorbar"] = _surface_colorbar(height, rows)
    layout = deep_merge(_surface_style(height + extra, rows, columns), dict(
        title=dict(text=titles[start]),
        xaxis=dict(range=[float(xs[0]), float(xs[-1])], title=dict(text=axis_labels[0]),
                   constrain="domain"),
        # one unit as long on both axes (a circle of data is drawn round): the plot area
        # narrows to the surface's own shape rather than show blank beyond its grid
        yaxis=dict(range=[float(ys[0]), float(ys[-1])], title=dict(text=axis_labels[1]),
                   scaleanchor="x", scaleratio=1, constrain="domain")))
    if extra:
        layout["margin"] = dict(layout["margin"], t=layout["margin"]["t"] + extra)
        layout["legend"] = dict(layout["legend"],
                                y=layout["legend"]["y"] - extra / (height + extra))
        layout["title"] = dict(layout["title"], y=title_top_y(height + extra, multiline=True))
    layout.update(_controls(k, start, frame_ms, height=height, colorbar=True, rows=rows))
    return dict(data=data, layout=layout, frames=frames)


#: Presentation mode (:func:`kmp_present_layout`), in pixels: the title's distance from the
#: top edge and the top margin under it; under the plot area the x axis (tick labels and
#: title), then the Play/Pause buttons beside the step slider (no current-value label: the
#: step counter beside the figure shows the step). Beside the plot: the legend, one row per
#: entry, then the colour bar upright under it, this far below (its length counts its
#: title above it and its padded ends).
PRESENT_TITLE_PX = 8
PRESENT_TOP_PX = 46
PRESENT_AXIS_PX = 58
PRESENT_CONTROLS_PX = 62
PRESENT_LEGEND_ROW_PX = 26.5
PRESENT_BAR_GAP_PX = 16
#: Shortest upright colour bar under the legend: with less room (a long legend, a short
#: window) the colour bar lies flat under the x axis instead, this much above the controls.
PRESENT_BAR_MIN_PX = 110
PRESENT_FLAT_BAR_PX = 68


def kmp_present_layout(fig: dict) -> dict:
    """The decision surface of :func:`kmp_surface_animation` laid out for presentation mode:
    a wide, short screen (a projector at 1280 x 720), where the plot area should take most
    of the height.

    - the title pinned near the top edge, with a small top margin;
    - the legend at the right of the plot area, and the colour bar upright under it (when
      the legend leaves it at least :data:`PRESENT_BAR_MIN_PX`; else flat under the x axis);
    - the Play/Pause buttons and the step slider in one row under the x axis, the slider
      without its current-value label (the page's step counter beside the figure shows it).

    Parameters
    ----------
    fig : dict
        The surface's plotly dict at the height it is shown at (``layout.height``: after
        ``pages.common.resize.resized``, which presentation mode calls first).

    Returns
    -------
    dict
        A copy with a new layout and surface trace (frames shared with ``fig``); a figure
        without the surface's colour bar or animation controls (the other KMP animations) is
        returned as it is.
    """
    layout = fig.get("layout") or {}
    data = list(fig.get("data") or [])
    bars = [i for i, t in enumerate(data)
            if t.get("name") == SURFACE and isinstance(t.get("colorbar"), dict)]
    if not bars or not layout.get("updatemenus") or not layout.get("sliders"):
        return fig
    height = int(layout.get("height") or 720)
    entries = len(legend_names(data, layout))
    legend_px = entries * PRESENT_LEGEND_ROW_PX + 10 if entries else 0
    bottom = PRESENT_AXIS_PX + PRESENT_CONTROLS_PX
    plot = max(height - PRESENT_TOP_PX - bottom, 1)
    bar_len = plot - legend_px - PRESENT_BAR_GAP_PX
    upright = bar_len >= PRESENT_BAR_MIN_PX
    controls = PRESENT_AXIS_PX
    ticks = int(np.clip(bar_len // 32, 3, 6))  # about one per 32 px of an upright bar
    if not upright:
        bottom += PRESENT_FLAT_BAR_PX
        controls += PRESENT_FLAT_BAR_PX
        plot = max(height - PRESENT_TOP_PX - bottom, 1)
    for i in bars:
        cb = data[i]["colorbar"]
        title = dict(cb.get("title") or {})
        if upright:
            cb = dict(cb, orientation="v", x=1.02, xanchor="left", xref="paper", y=0.0,
                      yanchor="bottom", yref="paper", len=round(bar_len), lenmode="pixels",
                      ypad=4, thickness=16, nticks=ticks, tickangle=0,
                      title=dict(title, side="top"))
        else:
            cb = dict(cb, orientation="h", x=0.5, xanchor="center", xref="paper",
                      y=-PRESENT_AXIS_PX / plot, yanchor="top", yref="paper", len=0.8,
                      lenmode="fraction", thickness=14, nticks=5, tickangle=0,
                      title=dict(title, side="right"))
        data[i] = dict(data[i], colorbar=cb)
    out = dict(layout)
    out["margin"] = dict(layout.get("margin") or {}, t=PRESENT_TOP_PX, b=bottom, r=20)
    if isinstance(layout.get("title"), dict):
        out["title"] = dict(layout["title"], yref="container", yanchor="top",
                            y=1 - PRESENT_TITLE_PX / height,
                            text=_one_line(layout["title"].get("text")))
    legend = {k: v for k, v in (layout.get("legend") or {}).items()
              if k not in ("entrywidth", "entrywidthmode")}  # a column of its own
    out["legend"] = dict(legend, orientation="v", x=1.02, xanchor="left", xref="paper", y=1.0,
                         yanchor="top", yref="paper")
    y = -controls / plot
    out["updatemenus"] = [dict(um, x=0.0, xanchor="left", y=y, yanchor="top",
                               pad=dict(um.get("pad") or {}, t=4))
                          for um in layout["updatemenus"]]
    out["sliders"] = [dict(sl, y=y, yanchor="top",
                           pad=dict(sl.get("pad") or {}, t=0),
                           currentvalue=dict(sl.get("currentvalue") or {}, visible=False))
                      for sl in layout["sliders"]]
    present = dict(fig, data=data, layout=out)
    frames = fig.get("frames") or []
    one_line = frames_retitled(frames, _one_line)  # the frames' titles on one line too
    if any(a is not b for a, b in zip(one_line, frames)):
        present["frames"] = one_line
    return present


def _one_line(text):
    """A step title broken by :func:`_fitted_titles` on one line again (presentation mode's
    figure is as wide as the screen, and its top margin has room for one line only)."""
    return text.replace("<br>", " ") if isinstance(text, str) else text
