"""Kernel matching pursuit step by step: one ``go.Frame`` per step, Play runs in the browser.

- :func:`kmp_surface_animation`: the decision surface of a 2-D classifier after
  each step (a smoothed heatmap of f, zero level drawn, basis points ringed and
  numbered in order of choice);
- :func:`kmp_fit_animation`: 1-D regression, the fit after each step with each
  chosen kernel function (weighted) drawn under it;
- :func:`kmp_prediction_animation`: predicted against true targets after each
  step (regression with several features);
- :func:`kmp_values_animation`: decision values of the test points per class
  (classification with more than two features);
- :func:`kmp_present_layout`: the decision surface laid out again for presentation mode
  (a wide, short screen), at the height the figure was given.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ._common import (
    FONT_SIZE,
    LEGEND_TOP_PX,
    OKABE_ITO,
    PALETTE,
    deep_merge,
    plain_text,
    title_top_y,
)
from ._panels import _text_px, frames_retitled, legend_names
from ._kmp_parts import (
    CONSTANT,
    FIT,
    MAX_PARTS,
    NEWEST,
    PARTS,
    RING_COLOURS,
    SURFACE,
    SYMBOLS,
    ZERO,
    SURFACE_LEGEND_COLUMNS,
    SURFACE_LEGEND_GAP_PX,
    SURFACE_LEGEND_ROW_PX,
    SURFACE_TITLE_LINE_PX,
    _animated_layout,
    _check_steps,
    _fitted_titles,
    _controls,
    _ring_dict,
    _surface_colorbar,
    _surface_style,
    surface_legend_columns,
    _class_colour,
    _limit,
    _ring_trace,
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
    # filled contour computes its smoothing and level lines in JavaScript, and took twice as
    # long to draw (48 against 26 ms a frame in chromium), on every Play frame and twice per
    # new figure in Streamlit
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
    height = int(height) + SURFACE_LEGEND_ROW_PX * (rows - -(-len(names) // SURFACE_LEGEND_COLUMNS))
    # a title on two lines: the legend and the plot area one line lower, the figure one
    # line taller (the plot area, and what lies under it, as with one line)
    extra = SURFACE_TITLE_LINE_PX * (title_lines - 1)
    data[0]["colorbar"] = _surface_colorbar(height, rows)
    layout = deep_merge(_surface_style(height + extra, rows, columns), dict(
        title=dict(text=titles[start]),
        xaxis=dict(range=[float(xs[0]), float(xs[-1])], title=dict(text=axis_labels[0]),
                   constrain="domain"),
        yaxis=dict(range=[float(ys[0]), float(ys[-1])], title=dict(text=axis_labels[1]))))
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
        :func:`mpcore.plots.resized`, which presentation mode calls first).

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


# --------------------------------------------------------------------------------------
# 1-D regression, animated
# --------------------------------------------------------------------------------------


def kmp_fit_animation(x, y, xs, F, B, coef_path, basis, kernels=None, *, spec_labels=("kernel",),
                      x_test=None, y_test=None, frame_ms=150, start=0, height=880,
                      x_label="x", y_label="y"):
    r"""1-D KMP regression after each step, with the chosen kernel functions drawn.

    Top panel: the data and the fit :math:`f_j(x) = b + \sum_{i\le j} \alpha_i K(x, x_{\gamma_i})`
    (Eq. 14), the basis points ringed and numbered. Bottom panel: each term
    :math:`\alpha_i K(x, x_{\gamma_i})` with its weight after step j (the most recent
    ``MAX_PARTS``), coloured by kernel specification, and the constant b.

    Parameters
    ----------
    x, y : arrays (m,)
        Training inputs (one feature) and targets; ``basis`` indexes them.
    xs : array (g,)
        Sorted evaluation points.
    F : array (k, g)
        The fit after each step at ``xs``.
    B : array (g, k)
        Each step's basis function at ``xs`` (``mpcore.kmp.basis_functions``).
    coef_path : array (k, k)
        Weights after each step (``coef_path_``).
    basis, kernels : arrays (k,)
        Training index (-1: constant) and kernel specification of each step.
    x_label, y_label : str
        Axis titles (a data set's column names), shown literally and cut at
        ``LABEL_CHARS`` characters (:func:`plain_text`).
    """
    x, y, xs = (np.asarray(a, dtype=float) for a in (x, y, xs))
    F = np.asarray(F, dtype=np.float32)
    k = F.shape[0]
    _check_steps(k)
    basis = np.asarray(basis, dtype=int)
    kernels = np.zeros(k, dtype=int) if kernels is None else np.asarray(kernels, dtype=int)
    start = int(np.clip(start, 0, k - 1))
    n_specs = len(spec_labels)
    X2 = np.column_stack([x, y])
    cp = np.asarray(coef_path, dtype=float)
    B = np.asarray(B, dtype=float)

    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.66, 0.34],
                        vertical_spacing=0.07,
                        subplot_titles=("", "Weighted basis functions "
                                            "α<sub>i</sub> K(x, x<sub>γ<sub>i</sub></sub>)"))
    fig.add_trace(go.Scatter(x=x, y=y, mode="markers", name="training points",
                             marker=dict(size=8, color=PALETTE[0], line=dict(width=0.5, color="#222")),
                             customdata=np.arange(x.size),
                             hovertemplate="i = %{customdata}<br>x = %{x:.3g}, "
                                           "y = %{y:.3g}<extra></extra>"),
                  row=1, col=1)
    if x_test is not None and y_test is not None:
        fig.add_trace(go.Scatter(x=np.asarray(x_test, dtype=float), y=np.asarray(y_test, dtype=float),
                                 mode="markers", name="test points",
                                 marker=dict(size=8, color=PALETTE[5], symbol="circle-open",
                                             line=dict(width=2)),
                                 hovertemplate="test<br>x = %{x:.3g}, y = %{y:.3g}<extra></extra>"),
                      row=1, col=1)
    fig.add_trace(go.Scatter(x=xs, y=F[start], mode="lines", name=FIT,
                             line=dict(width=4.5, color=OKABE_ITO["orange"]),
                             hovertemplate="x = %{x:.3g}<br>f = %{y:.3g}<extra></extra>"), row=1, col=1)
    fit_id = len(fig.data) - 1
    ring_ids = []
    for s, label in enumerate(spec_labels):
        fig.add_trace(_ring_trace("basis points" if n_specs == 1 else label,
                                  RING_COLOURS[s % len(RING_COLOURS)], size=20), row=1, col=1)
        ring_ids.append(len(fig.data) - 1)
    part_ids = []
    for s, label in enumerate(spec_labels):
        name = PARTS if n_specs == 1 else f"{PARTS}: {label}"
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", name=name,
                                 line=dict(width=2.2, color=RING_COLOURS[s % len(RING_COLOURS)]),
                                 hoverinfo="skip"), row=2, col=1)
        part_ids.append(len(fig.data) - 1)
    fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", name=CONSTANT,
                             line=dict(width=2.5, dash="dash", color="#555"), hoverinfo="skip"),
                  row=2, col=1)
    const_id = len(fig.data) - 1
    moving = [fit_id] + ring_ids + part_ids + [const_id]

    def parts(j):
        lo = max(0, j + 1 - MAX_PARTS)
        out = []
        for s in range(n_specs):
            cols = [i for i in range(lo, j + 1) if basis[i] >= 0 and kernels[i] == s]
            if not cols:
                out.append(([None], [None]))
                continue
            gap = np.full((len(cols), 1), np.nan)
            py = np.hstack([cp[j, cols, None] * B[:, cols].T, gap])
            px = np.hstack([np.tile(xs, (len(cols), 1)), gap])
            out.append((px.ravel(), py.ravel().astype(np.float32)))
        return out

    def frame_data(j):
        data = [go.Scatter(y=F[j])]
        for rx, ry, labels, idx in _rings(X2, basis, kernels, j, n_specs):
            data.append(go.Scatter(x=rx, y=ry, text=labels, customdata=idx))
        for px, py in parts(j):
            data.append(go.Scatter(x=px, y=py))
        has_b = bool(np.any(basis[: j + 1] < 0))
        b = float(cp[j, : j + 1][basis[: j + 1] < 0].sum()) if has_b else 0.0
        data.append(go.Scatter(x=[xs[0], xs[-1]] if has_b else [None], y=[b, b] if has_b else [None]))
        return data

    def parts_limit(j):
        # the bottom panel rescales with every step: weights can grow by orders of magnitude
        vals = np.concatenate([np.asarray(p[1], dtype=float) for p in parts(j)] or [np.zeros(1)])
        vals = np.abs(vals[np.isfinite(vals)])
        b = abs(float(cp[j, : j + 1][basis[: j + 1] < 0].sum())) if np.any(basis[: j + 1] < 0) else 0.0
        return max(float(vals.max()) if vals.size else 0.0, b) * 1.1 or 1.0

    titles, title_lines = _fitted_titles(
        [_step_title(j, k, basis, kernels, spec_labels) for j in range(k)])
    lims = [parts_limit(j) for j in range(k)]
    fig.frames = [go.Frame(data=frame_data(j), traces=moving, name=str(j + 1),
                           layout=dict(title=dict(text=titles[j]),
                                       yaxis2=dict(range=[-lims[j], lims[j]])))
                  for j in range(k)]
    for ti, patch in zip(moving, frame_data(start)):
        fig.data[ti].update(patch)
    ally = np.concatenate([y, F[-1][np.isfinite(F[-1])]]
                          + ([np.asarray(y_test, dtype=float)] if y_test is not None else []))
    lo, hi = float(np.min(ally)), float(np.max(ally))
    pad = 0.08 * (hi - lo + 1e-12)
    fig.update_yaxes(range=[lo - pad, hi + pad], title=plain_text(y_label), row=1, col=1)
    fig.update_yaxes(range=[-lims[start], lims[start]], title="α K", row=2, col=1)
    fig.update_xaxes(range=[float(xs[0]), float(xs[-1])])
    fig.update_xaxes(title=plain_text(x_label), row=2, col=1)
    _animated_layout(fig, k, start, frame_ms, height=height, title=titles[start])
    fig.update_annotations(font_size=FONT_SIZE)
    return _fit_legend_on_top(fig, height=height, title_lines=title_lines)


#: Widest legend name (px) the 1-D fit keeps in its legend at the right of the plots: a
#: mixed dictionary's "α K(x, xᵢ): polynomial(gamma=1, degree=2, coef0=1)" there left the
#: plots 64 px of a 590 px figure (1280 x 720, the sidebar open; 337 px with one kernel).
FIT_LEGEND_SIDE_PX = 200


def _fit_legend_on_top(fig, *, height, title_lines=1):
    """The 1-D fit with its legend in rows above the plots (under the title) when a name is
    wider than :data:`FIT_LEGEND_SIDE_PX`, or a title on two lines: the top margin holds
    the title, the legend and a gap, and the figure is taller by what that adds, so the
    plots and the controls under them keep their pixels."""
    names = legend_names([t.to_plotly_json() for t in fig.data])
    if title_lines == 1 and all(_text_px(n, FONT_SIZE) <= FIT_LEGEND_SIDE_PX for n in names):
        return fig
    columns = surface_legend_columns(names)
    rows = -(-len(names) // columns)
    legend_top = LEGEND_TOP_PX[True] + SURFACE_TITLE_LINE_PX * (title_lines - 1)
    top = legend_top + SURFACE_LEGEND_ROW_PX * rows + SURFACE_LEGEND_GAP_PX
    old_top = fig.layout.margin.t
    total = int(height) + top - old_top
    fig.update_layout(
        height=total, margin=dict(t=top, r=20),
        title=dict(yref="container", yanchor="top",
                   y=title_top_y(total, multiline=title_lines > 1)),
        legend=dict(orientation="h", x=0.0, xanchor="left", yref="container", yanchor="top",
                    y=1 - legend_top / total, entrywidth=1 / columns,
                    entrywidthmode="fraction"))
    return fig


# --------------------------------------------------------------------------------------
# Several features: predictions against targets, decision values per class
# --------------------------------------------------------------------------------------


def kmp_prediction_animation(y, P, y_test=None, P_test=None, *, basis=None, frame_ms=150, start=0,
                             height=780, target_label="y"):
    r"""Predicted against true targets after each step (regression with several features).

    Parameters
    ----------
    y : array (m,)
        Training targets.
    P : array (k, m)
        Training predictions after each step (``staged_predict``).
    y_test, P_test : arrays (n,), (k, n), optional
        The same on the test points.
    basis : array (k,), optional
        Training index chosen at each step (-1: constant): those points are ringed.
    target_label : str
        The target's name in the axis titles, shown literally and cut at ``LABEL_CHARS``
        characters (:func:`plain_text`).
    """
    y = np.asarray(y, dtype=float)
    P = np.asarray(P, dtype=np.float32)
    k = P.shape[0]
    _check_steps(k)
    start = int(np.clip(start, 0, k - 1))
    basis = None if basis is None else np.asarray(basis, dtype=int)
    fig = go.Figure()
    vals = [y, P[-1]] + ([np.asarray(y_test, dtype=float), np.asarray(P_test)[-1]]
                         if y_test is not None else [])
    allv = np.concatenate(vals)
    lo, hi = float(np.min(allv)), float(np.max(allv))
    pad = 0.06 * (hi - lo + 1e-12)
    lo, hi = lo - pad, hi + pad
    fig.add_trace(go.Scatter(x=[lo, hi], y=[lo, hi], mode="lines", name="perfect prediction",
                             line=dict(color="#555", dash="dash", width=2), hoverinfo="skip"))
    fig.add_trace(go.Scatter(x=y, y=P[start], mode="markers", name="training points",
                             marker=dict(size=8, color=PALETTE[0], line=dict(width=0.5, color="#222")),
                             customdata=np.arange(y.size),
                             hovertemplate="i = %{customdata}<br>true %{x:.3g}<br>"
                                           "predicted %{y:.3g}<extra></extra>"))
    moving = [1]
    if y_test is not None and P_test is not None:
        P_test = np.asarray(P_test, dtype=np.float32)
        fig.add_trace(go.Scatter(x=np.asarray(y_test, dtype=float), y=P_test[start], mode="markers",
                                 name="test points",
                                 marker=dict(size=9, color=PALETTE[1], symbol="diamond",
                                             line=dict(width=0.5, color="#222")),
                                 hovertemplate="test: true %{x:.3g}<br>"
                                               "predicted %{y:.3g}<extra></extra>"))
        moving.append(2)
    if basis is not None:
        fig.add_trace(_ring_trace("basis points", RING_COLOURS[0], size=18))
        moving.append(len(fig.data) - 1)

    def frame_data(j):
        data = [go.Scatter(y=P[j])]
        if P_test is not None and y_test is not None:
            data.append(go.Scatter(y=P_test[j]))
        if basis is not None:
            first = {}
            for n in range(j + 1):
                if basis[n] >= 0:
                    first.setdefault(int(basis[n]), n + 1)
            idx = np.array(list(first), dtype=int)
            data.append(go.Scatter(x=y[idx] if idx.size else [], y=P[j][idx] if idx.size else [],
                                   text=[str(v) for v in first.values()], customdata=idx))
        return data

    fig.frames = [go.Frame(data=frame_data(j), traces=moving, name=str(j + 1),
                           layout=dict(title=dict(text=f"Predictions after step {j + 1} of {k}")))
                  for j in range(k)]
    for ti, patch in zip(moving, frame_data(start)):
        fig.data[ti].update(patch)
    label = plain_text(target_label)
    fig.update_xaxes(range=[lo, hi], title=f"true {label}")
    fig.update_yaxes(range=[lo, hi], title=f"predicted {label}")
    _animated_layout(fig, k, start, frame_ms, height=height,
                     title=f"Predictions after step {start + 1} of {k}")
    return fig


def kmp_values_animation(values, labels, *, classes, positive=1, frame_ms=150, start=0, height=600,
                         what="test points"):
    r"""Decision values f(x) of points, one row per class, after each step.

    For data with more than two features, where no decision surface can be
    drawn: points right of the line f = 0 are assigned to ``classes[positive]``.

    Parameters
    ----------
    values : array (k, n)
        Decision values after each step (``staged_decision_function``; one
        class' column for one-vs-rest).
    labels : array (n,)
        True classes of the points.
    """
    V = np.asarray(values, dtype=np.float32)
    k = V.shape[0]
    _check_steps(k)
    labels = np.asarray(labels)
    classes = np.asarray(classes)
    start = int(np.clip(start, 0, k - 1))
    jitter = np.random.default_rng(0).uniform(-0.28, 0.28, labels.size)
    row = np.searchsorted(classes, labels).astype(float)
    lim = _limit(V) * 1.6
    fig = go.Figure()
    fig.add_vline(x=0, line=dict(color="black", width=3))
    moving = []
    for c, label in enumerate(classes):
        sel = labels == label
        fig.add_trace(go.Scatter(x=np.clip(V[start][sel], -lim, lim), y=row[sel] + jitter[sel],
                                 mode="markers", name=f"class {label}",
                                 marker=dict(size=8, color=_class_colour(c),
                                             symbol=SYMBOLS[c % len(SYMBOLS)],
                                             line=dict(width=0.5, color="#222")),
                                 hovertemplate=f"class {label}<br>f = %{{x:.3f}}<extra></extra>"))
        moving.append(len(fig.data) - 1)

    def frame_data(j):
        return [go.Scatter(x=np.clip(V[j][labels == label], -lim, lim)) for label in classes]

    title = lambda j: f"Decision values of the {what} after step {j + 1} of {k}"  # noqa: E731
    fig.frames = [go.Frame(data=frame_data(j), traces=moving, name=str(j + 1),
                           layout=dict(title=dict(text=title(j)))) for j in range(k)]
    fig.update_xaxes(range=[-lim, lim], title=f"f(x)  (> 0: class {classes[positive]})")
    fig.update_yaxes(range=[-0.6, classes.size - 0.4], tickvals=list(range(classes.size)),
                     ticktext=[f"class {c}" for c in classes], title="true class")
    _animated_layout(fig, k, start, frame_ms, height=height, title=title(start), legend=False)
    return fig


# --------------------------------------------------------------------------------------
# Figures 6 and 7: side by side
# --------------------------------------------------------------------------------------
