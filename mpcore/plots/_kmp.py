r"""Figures for kernel matching pursuit (Vincent & Bengio, 2002; Hussain & Shawe-Taylor, Th. 3).

- :func:`kmp_surface_animation`: the decision surface of a 2-D classifier after
  each step (filled contour, zero level drawn, basis points ringed and numbered
  in order of choice), one ``go.Frame`` per step so Play runs in the browser;
- :func:`kmp_fit_animation`: 1-D regression, the fit after each step with each
  chosen kernel function (weighted) drawn under it;
- :func:`kmp_prediction_animation`: predicted against true targets after each
  step (regression with several features);
- :func:`kmp_values_animation`: decision values of the test points per class
  (classification with more than two features);
- :func:`kmp_comparison_figure`: side-by-side decision surfaces, the layout of
  the paper's Figures 6 and 7 (KMP fittings or losses against an SVM), and
  :func:`kmp_fit_comparison_figure`, the same for 1-D regression fits;
- :func:`kmp_curves_figure`: errors and the Theorem 3 bound against the number
  of basis functions (Hussain & Shawe-Taylor, Figure 2), early-stopping choices marked;
- :func:`margin_loss_figure`: the margin losses of Section 3.2 (Figure 5);
- :func:`step_time_figure`: wall time of every step.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ._common import FONT_SIZE, OKABE_ITO, PALETTE, base_layout, finite, play_controls

#: Trace names (tests and pages refer to them).
SURFACE = "decision value f(x)"
ZERO = "boundary f(x) = 0"
NEWEST = "newest basis point"
FIT = "KMP fit"
PARTS = "α K(x, xᵢ)"
CONSTANT = "constant (bias)"
TRAIN_ERR = "training error"
TEST_ERR = "test error"
VAL_ERR = "validation error"
BOUND = "Theorem 3 bound"
EXCEED = "test error (what the bound bounds)"
T_FRACTION = "training errors outside the basis, t/m"
TRIVIAL = "trivial level (bound = 1)"
#: Early-stopping markers of :func:`kmp_curves_figure`, coloured like the curve they come from.
VAL_STOP = "validation stop"
BOUND_STOP = "bound stop"
TEST_MIN = "lowest test error"
MARKER_COLOURS = {VAL_STOP: OKABE_ITO["green"], BOUND_STOP: OKABE_ITO["vermillion"],
                  TEST_MIN: OKABE_ITO["blue"]}

#: Colours of the rings, one per kernel specification of a mixed dictionary.
RING_COLOURS = [OKABE_ITO["vermillion"], OKABE_ITO["black"], OKABE_ITO["purple"], OKABE_ITO["green"]]
#: Marker symbols per class (filled for training points; "-open" for test points).
SYMBOLS = ("circle", "diamond", "square", "triangle-up", "cross", "star", "pentagon", "hexagon",
           "triangle-down", "x")
#: Most recent basis functions drawn under a 1-D fit (older ones are summed in the fit only).
MAX_PARTS = 40
#: Width of the highlighted loss in Figure 5.
HIGHLIGHT_WIDTH = 6


def _tint(hex_colour, amount):
    """Mix a colour with white: amount 0 -> white, 1 -> the colour."""
    h = hex_colour.lstrip("#")
    rgb = [int(h[i: i + 2], 16) for i in (0, 2, 4)]
    mixed = [round(255 - amount * (255 - c)) for c in rgb]
    return f"rgb({mixed[0]},{mixed[1]},{mixed[2]})"


def _class_colour(i):
    return PALETTE[i % len(PALETTE)]


def _surface_scale(neg, pos):
    """Diverging scale: the negative class' tint, white at 0, the positive class' tint."""
    return [[0.0, _tint(neg, 0.55)], [0.5, "rgb(255,255,255)"], [1.0, _tint(pos, 0.55)]]


def _limit(Z):
    """Colour limit shared by every frame: the 98th percentile of |f| at the last step."""
    a = np.abs(np.asarray(Z[-1], dtype=float))
    a = a[np.isfinite(a)]
    lim = float(np.quantile(a, 0.98)) if a.size else 1.0
    return lim if lim > 0 else 1.0


def _rings(X2, basis, kernels, j, n_specs):
    """Per kernel specification: x, y and labels of the points chosen at steps 1..j+1.

    A point chosen several times (basic matching pursuit) is ringed once and
    labelled "first step ×count".
    """
    out = []
    for s in range(n_specs):
        first, count = {}, {}
        for n in range(j + 1):
            i = int(basis[n])
            if i < 0 or int(kernels[n]) != s:
                continue
            first.setdefault(i, n + 1)
            count[i] = count.get(i, 0) + 1
        idx = np.array(list(first), dtype=int)
        labels = [str(first[i]) + (f"×{count[i]}" if count[i] > 1 else "") for i in first]
        out.append((X2[idx, 0] if idx.size else [None], X2[idx, 1] if idx.size else [None],
                    labels))
    return out


def _ring_trace(name, colour, size=24):
    return go.Scatter(
        x=[None], y=[None], mode="markers+text", name=name,
        marker=dict(size=size, color="rgba(0,0,0,0)", line=dict(color=colour, width=3.5)),
        textposition="top right", textfont=dict(size=FONT_SIZE, color="black", weight="bold"),
        hovertemplate="basis function #%{text}<extra>" + name + "</extra>",
        cliponaxis=False,
    )


def _step_title(j, k, basis, kernels, spec_labels, prefix=""):
    i, s = int(basis[j]), int(kernels[j])
    what = "the constant function (bias)" if i < 0 else f"x<sub>{i}</sub>"
    if i >= 0 and len(spec_labels) > 1:
        what += f" with {spec_labels[s]}"
    return f"{prefix}Step {j + 1} of {k}: added {what}"


def _play_controls(fig, k, start, frame_ms, *, y=-0.08, prefix="step j = "):
    """Play/Pause buttons and a step slider under the plot (client-side playback)."""
    play_controls(fig, k, start, frame_ms, y=y, slider_x=0.4, prefix=prefix)


def _animated_layout(fig, *, height, title, legend=True, colorbar=False):
    """Title on top, legend at the right, Play/Pause and the step slider at the bottom
    (under a horizontal colour bar when there is one)."""
    base_layout(fig, height=height, title=title, legend_top=False)
    bottom = 200 if colorbar else 140
    plot_px = height - 70 - bottom
    fig.update_layout(margin=dict(b=bottom, t=70, r=20),
                      legend=dict(orientation="v", x=1.02, xanchor="left", y=1.0, yanchor="top",
                                  itemsizing="constant"),
                      showlegend=legend)
    fig.layout.updatemenus[0].y = -(bottom - 65) / plot_px
    fig.layout.sliders[0].y = -(bottom - 65) / plot_px
    if colorbar:
        fig.update_traces(colorbar=dict(orientation="h", x=0.5, xanchor="center",
                                        y=-62 / plot_px, yanchor="top", len=0.7, thickness=14,
                                        nticks=7, tickformat=".2~g", tickangle=0,
                                        title=dict(text="f(x)", side="right")),
                          selector=dict(type="contour"))
    return fig


def prevalidated(fig: dict) -> go.Figure:
    """A ``go.Figure`` around a figure dict built (and validated) by this module, without
    validating it again: given a dict, Streamlit re-validates every frame (tens of ms
    for an animation) on each rerun, such as a Step click."""
    return go.Figure(fig, _validate=False)


def start_at(fig: dict, j: int) -> dict:
    """Copy of an animated figure dict that opens on frame ``j`` (0-based), layout included.

    :func:`mpcore.plots.with_start_frame` moves the traces and the slider; the
    frames here also carry a title ("Step j of k: added ...") and sometimes axis
    ranges, taken from frame ``j``.
    """
    from ._skpca import with_start_frame

    out = with_start_frame(fig, j)
    frames = fig.get("frames", [])
    if frames:
        j = int(np.clip(j, 0, len(frames) - 1))
        patch = frames[j].get("layout") or {}
        if patch:
            layout = dict(out["layout"])
            for key, val in patch.items():  # title, axis ranges: one level deep is enough
                layout[key] = dict(layout.get(key) or {}, **val) if isinstance(val, dict) else val
            out = dict(out, layout=layout)
    return out


def _check_steps(k):
    if k == 0:
        raise ValueError("No steps to draw: the pursuit chose no basis function.")


# --------------------------------------------------------------------------------------
# 2-D decision surface, animated
# --------------------------------------------------------------------------------------


def kmp_surface_animation(X, y, Z, xs, ys, basis, kernels=None, *, classes=None, positive=1,
                          spec_labels=("kernel",), X_test=None, y_test=None, boundary=None,
                          frame_ms=150, start=0, height=820,
                          axis_labels=("x<sub>1</sub>", "x<sub>2</sub>")):
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

    Returns
    -------
    plotly.graph_objects.Figure
    """
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

    fig = go.Figure()
    fig.add_trace(go.Contour(
        x=xs, y=ys, z=Z[start], name=SURFACE, zmin=-lim, zmax=lim, zauto=False,
        colorscale=_surface_scale(neg_colour, pos_colour),
        contours=dict(start=-lim, end=lim, size=lim / 4, coloring="heatmap"),
        line=dict(width=0.6, color="rgba(80,80,80,0.35)"),
        hovertemplate="x₁ = %{x:.2f}, x₂ = %{y:.2f}<br>f = %{z:.3f}<extra></extra>",
        showlegend=False,
    ))
    bx, by = (boundary[start] if boundary is not None else ([None], [None]))
    fig.add_trace(go.Scatter(x=bx, y=by, mode="lines", name=ZERO,
                             line=dict(color="black", width=3.5), hoverinfo="skip"))
    for c, label in enumerate(classes):
        sel = y == label
        role = ""
        if classes.size > 2:
            role = " (f > 0 side)" if c == positive else ""
        fig.add_trace(go.Scatter(
            x=X[sel, 0], y=X[sel, 1], mode="markers", name=f"class {label}{role}",
            marker=dict(size=10, color=_class_colour(c), symbol=SYMBOLS[c % len(SYMBOLS)],
                        line=dict(width=1, color="#222")),
            hovertemplate=f"class {label}<br>i = %{{customdata}}<extra></extra>",
            customdata=np.flatnonzero(sel),
        ))
    if X_test is not None and y_test is not None:
        Xt, yt = np.asarray(X_test, dtype=float), np.asarray(y_test)
        for c, label in enumerate(classes):
            sel = yt == label
            fig.add_trace(go.Scatter(
                x=Xt[sel, 0], y=Xt[sel, 1], mode="markers", name=f"class {label}, test",
                marker=dict(size=9, color=_class_colour(c),
                            symbol=SYMBOLS[c % len(SYMBOLS)] + "-open", line=dict(width=2)),
                hovertemplate=f"test point, class {label}<extra></extra>",
                visible="legendonly",
            ))
    ring_ids = []
    for s, label in enumerate(spec_labels):
        name = "basis points" if n_specs == 1 else label
        fig.add_trace(_ring_trace(name, RING_COLOURS[s % len(RING_COLOURS)]))
        ring_ids.append(len(fig.data) - 1)
    fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=NEWEST,
                             marker=dict(size=20, symbol="star", color=OKABE_ITO["yellow"],
                                         line=dict(width=2, color="black")),
                             hoverinfo="skip"))
    newest_id = len(fig.data) - 1
    moving = [0, 1] + ring_ids + [newest_id]

    def frame_data(j):
        bx, by = boundary[j] if boundary is not None else ([], [])
        data = [go.Contour(z=Z[j]),
                go.Scatter(x=bx if len(bx) else [None], y=by if len(by) else [None])]
        for rx, ry, labels in _rings(X, basis, kernels, j, n_specs):
            data.append(go.Scatter(x=rx, y=ry, text=labels))
        i = int(basis[j])
        data.append(go.Scatter(x=[X[i, 0]] if i >= 0 else [None], y=[X[i, 1]] if i >= 0 else [None]))
        return data

    titles = [_step_title(j, k, basis, kernels, spec_labels) for j in range(k)]
    fig.frames = [go.Frame(data=frame_data(j), traces=moving, name=str(j + 1),
                           layout=dict(title=dict(text=titles[j])))
                  for j in range(k)]
    for ti, patch in zip(moving, frame_data(start)):
        fig.data[ti].update(patch)
    fig.update_xaxes(range=[float(xs[0]), float(xs[-1])], title=axis_labels[0], constrain="domain")
    fig.update_yaxes(range=[float(ys[0]), float(ys[-1])], title=axis_labels[1])
    _play_controls(fig, k, start, frame_ms)
    _animated_layout(fig, height=height, title=titles[start], colorbar=True)
    return fig


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
        for rx, ry, labels in _rings(X2, basis, kernels, j, n_specs):
            data.append(go.Scatter(x=rx, y=ry, text=labels))
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

    titles = [_step_title(j, k, basis, kernels, spec_labels) for j in range(k)]
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
    fig.update_yaxes(range=[lo - pad, hi + pad], title=y_label, row=1, col=1)
    fig.update_yaxes(range=[-lims[start], lims[start]], title="α K", row=2, col=1)
    fig.update_xaxes(range=[float(xs[0]), float(xs[-1])])
    fig.update_xaxes(title=x_label, row=2, col=1)
    _play_controls(fig, k, start, frame_ms)
    _animated_layout(fig, height=height, title=titles[start])
    fig.update_annotations(font_size=FONT_SIZE)
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
                             hovertemplate="true %{x:.3g}<br>predicted %{y:.3g}<extra></extra>"))
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
                                   text=[str(v) for v in first.values()]))
        return data

    fig.frames = [go.Frame(data=frame_data(j), traces=moving, name=str(j + 1),
                           layout=dict(title=dict(text=f"Predictions after step {j + 1} of {k}")))
                  for j in range(k)]
    for ti, patch in zip(moving, frame_data(start)):
        fig.data[ti].update(patch)
    fig.update_xaxes(range=[lo, hi], title=f"true {target_label}")
    fig.update_yaxes(range=[lo, hi], title=f"predicted {target_label}")
    _play_controls(fig, k, start, frame_ms)
    _animated_layout(fig, height=height, title=f"Predictions after step {start + 1} of {k}")
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
    _play_controls(fig, k, start, frame_ms)
    _animated_layout(fig, height=height, title=title(start), legend=False)
    return fig


# --------------------------------------------------------------------------------------
# Figures 6 and 7: side by side
# --------------------------------------------------------------------------------------


def kmp_comparison_figure(X, y, xs, ys, panels, *, classes=None, positive=1, height=None,
                          cols=None):
    r"""Decision surfaces side by side, as in Vincent & Bengio's Figures 6 and 7.

    Parameters
    ----------
    X, y : arrays (m, 2), (m,)
        Training points and labels.
    xs, ys : arrays
        Grid coordinates.
    panels : list of dict
        Each with ``title`` (str), ``Z`` (array (len(ys), len(xs)): the decision
        function on the grid), ``support`` (training indices to circle: basis
        points or support vectors) and optionally ``boundary`` ((x, y) of the zero level).
        Colours are scaled per panel (only the sign and the level lines are comparable).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    classes = np.unique(y) if classes is None else np.asarray(classes)
    n = len(panels)
    if n == 0:
        raise ValueError("No panels to draw.")
    cols = cols or (2 if n == 4 else n)
    rows = int(np.ceil(n / cols))
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=[p["title"] for p in panels],
                        horizontal_spacing=0.06, vertical_spacing=0.1)
    neg_colour = _class_colour(0) if classes.size == 2 else "#777777"
    scale = _surface_scale(neg_colour, _class_colour(positive))
    for p_i, panel in enumerate(panels):
        r, c = p_i // cols + 1, p_i % cols + 1
        Z = np.asarray(panel["Z"], dtype=float)
        lim = _limit(Z[None])
        fig.add_trace(go.Contour(x=xs, y=ys, z=np.clip(Z / lim, -1, 1).astype(np.float32),
                                 zmin=-1, zmax=1, zauto=False, colorscale=scale, showscale=False,
                                 contours=dict(start=-1, end=1, size=0.25, coloring="heatmap"),
                                 line=dict(width=0.5, color="rgba(80,80,80,0.3)"),
                                 name=SURFACE, showlegend=False, hoverinfo="skip"), row=r, col=c)
        if panel.get("boundary") is not None:
            bx, by = panel["boundary"]
            fig.add_trace(go.Scatter(x=bx, y=by, mode="lines", name=ZERO, showlegend=p_i == 0,
                                     line=dict(color="black", width=3), hoverinfo="skip",
                                     legendgroup="zero"), row=r, col=c)
        for ci, label in enumerate(classes):
            sel = y == label
            fig.add_trace(go.Scatter(x=X[sel, 0], y=X[sel, 1], mode="markers", name=f"class {label}",
                                     marker=dict(size=7, color=_class_colour(ci),
                                                 symbol=SYMBOLS[ci % len(SYMBOLS)],
                                                 line=dict(width=0.7, color="#222")),
                                     legendgroup=f"class {label}", showlegend=p_i == 0,
                                     hoverinfo="skip"), row=r, col=c)
        sup = np.unique(np.asarray(panel.get("support", []), dtype=int))
        sup = sup[sup >= 0]
        fig.add_trace(go.Scatter(x=X[sup, 0], y=X[sup, 1], mode="markers",
                                 name="basis points / support vectors (circled)",
                                 marker=dict(size=17, color="rgba(0,0,0,0)",
                                             line=dict(color=OKABE_ITO["vermillion"], width=3)),
                                 legendgroup="sv", showlegend=p_i == 0,
                                 hovertemplate="i = %{customdata}<extra></extra>", customdata=sup),
                      row=r, col=c)
        fig.update_xaxes(range=[float(xs[0]), float(xs[-1])], showticklabels=False, row=r, col=c)
        fig.update_yaxes(range=[float(ys[0]), float(ys[-1])], showticklabels=False, row=r, col=c)
    base_layout(fig, height=height or (430 * rows + 120), legend_top=False)
    fig.update_layout(margin=dict(t=60, b=90), legend=dict(orientation="h", y=-0.04, x=0,
                                                             yanchor="top"))
    fig.update_annotations(font_size=FONT_SIZE)
    return fig


def kmp_fit_comparison_figure(x, y, xs, panels, *, height=None, cols=None, x_label="x",
                              y_label="y"):
    r"""1-D regression fits side by side (the layout of Figure 6 for a regression problem).

    Parameters
    ----------
    x, y : arrays (m,)
        Training inputs (one feature) and targets.
    xs : array (g,)
        Evaluation points.
    panels : list of dict
        Each with ``title``, ``F`` (the fit at ``xs``) and ``support`` (training
        indices to circle: basis points or support vectors).
    """
    x, y, xs = (np.asarray(a, dtype=float) for a in (x, y, xs))
    n = len(panels)
    if n == 0:
        raise ValueError("No panels to draw.")
    cols = cols or (2 if n == 4 else n)
    rows = int(np.ceil(n / cols))
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=[p["title"] for p in panels],
                        horizontal_spacing=0.06, vertical_spacing=0.12, shared_yaxes=True)
    lo, hi = float(np.min(y)), float(np.max(y))
    pad = 0.15 * (hi - lo + 1e-12)
    for p_i, panel in enumerate(panels):
        r, c = p_i // cols + 1, p_i % cols + 1
        fig.add_trace(go.Scatter(x=x, y=y, mode="markers", name="training points",
                                 marker=dict(size=6, color=PALETTE[0]), legendgroup="data",
                                 showlegend=p_i == 0, hoverinfo="skip"), row=r, col=c)
        fig.add_trace(go.Scatter(x=xs, y=np.asarray(panel["F"], dtype=float), mode="lines",
                                 name="fit", line=dict(width=4, color=OKABE_ITO["orange"]),
                                 legendgroup="fit", showlegend=p_i == 0), row=r, col=c)
        sup = np.unique(np.asarray(panel.get("support", []), dtype=int))
        sup = sup[sup >= 0]
        fig.add_trace(go.Scatter(x=x[sup], y=y[sup], mode="markers",
                                 name="basis points / support vectors (circled)",
                                 marker=dict(size=14, color="rgba(0,0,0,0)",
                                             line=dict(color=OKABE_ITO["vermillion"], width=2.5)),
                                 legendgroup="sv", showlegend=p_i == 0, hoverinfo="skip"),
                      row=r, col=c)
        fig.update_yaxes(range=[lo - pad, hi + pad], row=r, col=c)
        fig.update_xaxes(range=[float(xs[0]), float(xs[-1])], row=r, col=c)
        if r == rows:
            fig.update_xaxes(title=x_label, row=r, col=c)
        if c == 1:
            fig.update_yaxes(title=y_label, row=r, col=c)
    base_layout(fig, height=height or (400 * rows + 140), legend_top=False)
    fig.update_layout(margin=dict(t=60, b=110), legend=dict(orientation="h", y=-0.1, x=0,
                                                              yanchor="top"))
    fig.update_annotations(font_size=FONT_SIZE)
    return fig


# --------------------------------------------------------------------------------------
# Curves against the number of basis functions (Hussain & Shawe-Taylor, Figure 2)
# --------------------------------------------------------------------------------------


def kmp_curves_figure(errors, *, bound=None, bound_scale=1.0, exceed=None, t_fraction=None,
                      markers=None, error_title="error", exceed_title="test error", height=720,
                      bound_title="Theorem 3 (Hussain & Shawe-Taylor)"):
    r"""Errors and the Theorem 3 bound against the number of basis functions.

    Parameters
    ----------
    errors : dict name -> array
        Top panel: training, test and validation errors (NaN allowed) after
        each step 1..k (e.g. ``TRAIN_ERR``, ``TEST_ERR``, ``VAL_ERR``).
    bound : array, optional
        Theorem 3 bound after each step (+inf where m - k - t <= 0 is left out).
    bound_scale : float
        The bound is drawn divided by this factor (the paper's Figure 2 divides
        by 5); the legend says so.
    exceed : array, optional
        The test error the bound is about, drawn with it in the bottom panel.
    t_fraction : array, optional
        Theorem 3's t / m after each step.
    markers : dict name -> int, optional
        Numbers of basis functions to mark (early-stopping choices); ``VAL_STOP``,
        ``BOUND_STOP`` and ``TEST_MIN`` take the colour of their curve.
    error_title, bound_title : str
        Titles of the two panels.
    exceed_title : str
        What ``exceed`` measures (hover text).
    """
    if not errors:
        raise ValueError("No curves to draw.")
    k = max(len(v) for v in errors.values())
    if k == 0:
        raise ValueError("No steps to draw: the pursuit chose no basis function.")
    x = np.arange(1, k + 1)
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.1,
                        subplot_titles=(error_title, bound_title))
    styles = {TRAIN_ERR: (OKABE_ITO["sky"], "dash"), TEST_ERR: (OKABE_ITO["blue"], "solid"),
              VAL_ERR: (OKABE_ITO["green"], "dashdot")}
    for n, (name, curve) in enumerate(errors.items()):
        style = [v for key, v in styles.items() if name.startswith(key)]
        colour, dash = style[0] if style else (PALETTE[n % len(PALETTE)], "solid")
        curve = finite(curve)
        fig.add_trace(go.Scatter(x=x[: len(curve)], y=curve, mode="lines+markers", name=name,
                                 line=dict(color=colour, width=3.5, dash=dash), marker=dict(size=5),
                                 hovertemplate=f"k = %{{x}}<br>{name} = %{{y:.4g}}<extra></extra>"),
                      row=1, col=1)
    if bound is not None:
        scale = float(bound_scale)
        label = BOUND if scale == 1 else f"{BOUND} ÷ {scale:g}"
        b = finite(bound) / scale
        fig.add_trace(go.Scatter(x=x[: len(b)], y=b, mode="lines", name=label,
                                 line=dict(color=OKABE_ITO["vermillion"], width=4.5),
                                 hovertemplate=f"k = %{{x}}<br>bound / {scale:g} = "
                                               "%{y:.4g}<extra></extra>"),
                      row=2, col=1)
    if exceed is not None:
        e = finite(exceed)
        fig.add_trace(go.Scatter(x=x[: len(e)], y=e, mode="lines+markers", name=EXCEED,
                                 line=dict(color=OKABE_ITO["blue"], width=3.5), marker=dict(size=5),
                                 hovertemplate="k = %{x}<br>%{y:.4g}<extra>" + exceed_title
                                 + "</extra>"),
                      row=2, col=1)
    if t_fraction is not None:
        t = finite(t_fraction)
        fig.add_trace(go.Scatter(x=x[: len(t)], y=t, mode="lines", name=T_FRACTION,
                                 line=dict(color=OKABE_ITO["purple"], width=2.5, dash="dot"),
                                 hovertemplate="k = %{x}<br>t/m = %{y:.4g}<extra></extra>"),
                      row=2, col=1)
    if bound is not None:
        fig.add_hline(y=1.0 / float(bound_scale), line=dict(color="#555", width=1.5, dash="dash"),
                      row=2, col=1)
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", name=TRIVIAL,
                                 line=dict(color="#555", width=1.5, dash="dash")), row=2, col=1)
    spare = ["#444", OKABE_ITO["purple"]]
    for n, (name, kk) in enumerate((markers or {}).items()):
        if kk is None:
            continue
        colour = MARKER_COLOURS.get(name, spare[n % len(spare)])
        for r in (1, 2):
            fig.add_vline(x=int(kk), line=dict(color=colour, width=2.5, dash="dot"), row=r, col=1)
        right = kk > 0.6 * k  # label on the left of its line near the right edge
        fig.add_annotation(x=int(kk), y=0.96 - 0.13 * n, xref="x", yref="y domain",
                           text=f"{name}: k = {int(kk)}", showarrow=False,
                           xanchor="right" if right else "left", xshift=-4 if right else 4,
                           font=dict(size=FONT_SIZE - 2, color=colour),
                           bgcolor="rgba(255,255,255,0.85)")
    fig.update_xaxes(title="number of basis functions k", row=2, col=1)
    fig.update_xaxes(range=[0.5, k + 0.5])
    fig.update_yaxes(rangemode="tozero")
    base_layout(fig, height=height, legend_top=False)
    fig.update_layout(margin=dict(t=60, b=110), legend=dict(orientation="h", y=-0.12, x=0,
                                                              yanchor="top"))
    fig.update_annotations(font_size=FONT_SIZE)
    return fig


def step_time_figure(seconds, *, height=320):
    """Wall time of every step (milliseconds), a bar per step."""
    ms = 1000.0 * np.asarray(seconds, dtype=float)
    _check_steps(ms.size)
    fig = go.Figure(go.Bar(x=np.arange(1, ms.size + 1), y=ms, name="time per step",
                           marker_color=OKABE_ITO["blue"],
                           hovertemplate="step %{x}<br>%{y:.3g} ms<extra></extra>"))
    fig.update_xaxes(title="step")
    fig.update_yaxes(title="milliseconds")
    base_layout(fig, height=height, title=f"Time per step (total {ms.sum():.3g} ms)", legend_top=False)
    return fig


# --------------------------------------------------------------------------------------
# Figure 5: losses as functions of the margin
# --------------------------------------------------------------------------------------

#: Panels of Figure 5 and the losses in each (names of mpcore._losses.loss_functions()).
FIG5_PANELS = (("Margin losses (boosting, SVM)", ("exponential", "logistic", "margin_tanh", "hinge")),
               ("Traditional losses as functions of the margin", ("squared", "tanh")))
FIG5_NAMES = {
    "exponential": "AdaBoost: e<sup>−m</sup>",
    "logistic": "LogitBoost: log₂(1 + e<sup>−2m</sup>)",
    "margin_tanh": "Doom II: 1 − tanh m", "hinge": "SVM: [1 − m]<sub>+</sub>",
    "squared": "squared: (1 − m)²", "tanh": "squared after tanh: (0.65 − tanh m)²",
}


def margin_loss_figure(curves, selected=None, *, m_range=(-2.0, 2.0), y_max=4.0, height=520):
    r"""Vincent & Bengio's Figure 5: every loss as a function of the margin m = y f(x).

    Parameters
    ----------
    curves : dict name -> callable
        ``mpcore._losses.loss_functions()``.
    selected : str, optional
        The loss in use, drawn thick; the others are thinner.
    """
    m = np.linspace(m_range[0], m_range[1], 401)
    fig = make_subplots(rows=1, cols=2, subplot_titles=[t for t, _ in FIG5_PANELS],
                        horizontal_spacing=0.08)
    colours = {"exponential": OKABE_ITO["orange"], "logistic": OKABE_ITO["green"],
               "margin_tanh": OKABE_ITO["purple"], "hinge": OKABE_ITO["black"],
               "squared": OKABE_ITO["blue"], "tanh": OKABE_ITO["vermillion"]}
    for c, (_, names) in enumerate(FIG5_PANELS, start=1):
        for name in names:
            if name not in curves:
                continue
            on = name == selected
            label = FIG5_NAMES.get(name, name) + ("  ◀ selected" if on else "")
            fig.add_trace(go.Scatter(
                x=m, y=np.clip(curves[name](m), 0, y_max * 1.5), mode="lines", name=label,
                line=dict(color=colours.get(name, "#444"), width=HIGHLIGHT_WIDTH if on else 2.5,
                          dash="solid" if on or name != "hinge" else "dash"),
                opacity=1.0 if on or selected is None else 0.75,
                hovertemplate="m = %{x:.2f}<br>loss = %{y:.3f}<extra>" + name + "</extra>"),
                row=1, col=c)
        fig.add_vline(x=0, line=dict(color="#888", width=1.5), row=1, col=c)
        fig.update_xaxes(title="margin m = y f(x)", range=list(m_range), row=1, col=c)
        fig.update_yaxes(range=[0, y_max], row=1, col=c)
    fig.update_yaxes(title="loss", row=1, col=1)
    base_layout(fig, height=height, legend_top=False)
    fig.update_layout(margin=dict(t=60, b=110), legend=dict(orientation="h", y=-0.2, x=0,
                                                              yanchor="top"))
    fig.update_annotations(font_size=FONT_SIZE)
    return fig
