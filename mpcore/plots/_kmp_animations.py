"""Kernel matching pursuit step by step: one ``go.Frame`` per step, Play runs in the browser.

- :func:`kmp_fit_animation`: 1-D regression, the fit after each step with each
  chosen kernel function (weighted) drawn under it;
- :func:`kmp_prediction_animation`: predicted against true targets after each
  step (regression with several features);
- :func:`kmp_values_animation`: decision values of the test points per class
  (classification with more than two features).

The decision surface of a 2-D classifier is :mod:`mpcore.plots._kmp_surface`.
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
    plain_text,
    title_top_y,
)
from .text_size import legend_names, text_px
from ._kmp_parts import (
    CONSTANT,
    FIT,
    MAX_PARTS,
    PARTS,
    RING_COLOURS,
    SYMBOLS,
    SURFACE_LEGEND_GAP_PX,
    SURFACE_LEGEND_ROW_PX,
    SURFACE_TITLE_LINE_PX,
    _animated_layout,
    _check_steps,
    _fitted_titles,
    surface_legend_columns,
    _class_colour,
    _limit,
    _ring_trace,
    _rings,
    _step_title,
)


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
    if title_lines == 1 and all(text_px(n, FONT_SIZE) <= FIT_LEGEND_SIDE_PX for n in names):
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
