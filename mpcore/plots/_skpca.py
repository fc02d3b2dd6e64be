r"""Figures for sparse kernel PCA (Hussain & Shawe-Taylor, Algorithm 1).

:func:`skpca_animation` draws the four synchronised panels of the greedy
selection as one plotly figure with one ``go.Frame`` per step, so Play runs in
the browser without a server round trip:

1. the data, coloured by the residual diagonal :math:`\hat K_{ii}`, chosen
   points ringed and numbered in order of choice;
2. the Rayleigh quotients :math:`\rho_i` of every candidate at step j, the
   maximum (the greedy choice, Eq. 2) marked;
3. the deflated kernel matrix :math:`\hat K_j` (Eq. 3), draining as steps proceed;
4. the trace residual against j next to exact kernel PCA, incomplete Cholesky, randomly
   pivoted Cholesky and uniform sampling.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ._common import (
    DIVERGING,
    OKABE_ITO,
    PALETTE,
    SEQUENTIAL,
    base_layout,
    deep_merge,
    finite,
    inked_colorbar,
    play_controls_layout,
    readable,
    scale_stops,
    styled_once,
    subplot_axes,
)

#: Colours and dashes of panel 4's extra curves, in order (exact KPCA, incomplete Cholesky,
#: randomly pivoted Cholesky, uniform sampling): Okabe-Ito without the greedy curve's blue and
#: the current step's vermillion, so that each stays distinguishable.
CURVE_COLOURS = (OKABE_ITO["orange"], OKABE_ITO["green"], OKABE_ITO["purple"], OKABE_ITO["sky"],
                 OKABE_ITO["black"])
CURVE_DASHES = ("dash", "dot", "dashdot", "longdash", "longdashdot")


def _ring_trace(X2, idx) -> dict:
    # the label's colour as mpcore.plots.ink makes it: readable on the white plot
    return dict(
        type="scatter", x=X2[idx, 0], y=X2[idx, 1], mode="markers+text",
        marker=dict(size=22, color="rgba(0,0,0,0)", line=dict(color=OKABE_ITO["vermillion"], width=3)),
        text=[str(n + 1) for n in range(len(idx))], textposition="top right",
        textfont=dict(size=16, color=readable(OKABE_ITO["vermillion"]), weight="bold",
                      shadow="1px 1px 2px white, -1px -1px 2px white"),
        name="chosen basis points", hovertemplate="basis #%{text}<extra></extra>",
    )


def _relative(q):
    """Quotients relative to this step's largest (the greedy choice is at 1)."""
    q = finite(q, 0.0)
    top = float(np.max(q)) if q.size else 0.0
    return q / top if top > 0 else q


def _row_col(pos, s):
    """Outline of row and column ``pos`` of an s x s heatmap (empty when not shown)."""
    if pos is None:
        return [], []
    lo, hi, a, b = -0.5, s - 0.5, pos - 0.5, pos + 0.5
    return ([lo, hi, hi, lo, lo, None, a, b, b, a, a],
            [a, a, b, b, a, None, lo, lo, hi, hi, lo])


def _position(heat_index, i):
    if heat_index is None:
        return None
    hit = np.flatnonzero(np.asarray(heat_index) == i)
    return int(hit[0]) if hit.size else None


def _f32(a):
    """Per-frame values in single precision: what is drawn and hovered (3 to 4 digits) is
    unchanged, and the animation sent to every browser is half the size."""
    return np.asarray(a, dtype=np.float32)


def _frame_traces(X2, steps, j, heat, heat_index=None):
    """The traces frame j changes, as plain dicts (no plotly validation per frame)."""
    s = steps[j]
    idx = np.array([t.index for t in steps[: j + 1]])
    q = finite(s.quotients)
    rel = _relative(s.quotients)
    traces = [
        {"type": "scatter", "marker": {"color": _f32(s.residual_diag)}},
        {"type": "scatter", "x": X2[idx, 0], "y": X2[idx, 1],
         "text": [str(n + 1) for n in range(len(idx))]},
        {"type": "scatter", "y": _f32(rel), "customdata": _f32(q)},
        {"type": "scatter", "x": [s.index], "y": [rel[s.index]], "customdata": [q[s.index]],
         "text": [f"i = {s.index}"]},
        {"type": "scatter", "x": [j + 1], "y": [s.trace_residual]},
    ]
    if heat is not None:
        traces.append({"type": "heatmap", "z": _f32(heat[j])})
        x, y = _row_col(_position(heat_index, s.index), heat.shape[1])
        traces.append({"type": "scatter", "x": x, "y": y})
    return traces


def skpca_animation_dict(X2, steps, *, axis_labels=("x<sub>1</sub>", "x<sub>2</sub>"),
                    trace0=None, curves=None, heatmaps=None, heat_index=None, added=None,
                    frame_ms=300, start=0, height=880):
    r"""One animated figure of the greedy selection, a frame per step, as a plotly dict.

    Frames are plain dicts, so building is fast; the app (``cut_animation``) shows
    the first k steps of it and opens it on any step without rebuilding.

    Parameters
    ----------
    X2 : array (m, 2)
        Coordinates to draw (the data, or its first two principal components).
    steps : list of SKPCAStep
        From :func:`mpcore.skpca.greedy_steps`.
    trace0 : float
        tr K before any step (the start of the trace curves).
    curves : dict name -> array (k + 1,)
        Extra trace-residual curves over j = 0..k (exact KPCA optimum, incomplete
        Cholesky, randomly pivoted Cholesky, uniform sampling; coloured in
        :data:`CURVE_COLOURS` order); the greedy curve is drawn from ``steps``.
    heatmaps : array (k, s, s) or None
        The deflated kernel matrix after each step, on s displayed points;
        None hides panel 3 (large m).
    heat_index : array (s,), optional
        The training indices of the heatmap's rows and columns (its tick labels; the
        chosen point's row and column are outlined when it is among them).
    added : array of int, optional
        Rows of ``X2`` that were added by clicking: drawn with their own marker.
    frame_ms : int
        Milliseconds per frame when playing.
    start : int
        0-based step shown when the figure opens.
    """
    X2 = np.asarray(X2, dtype=float)
    k = len(steps)
    if k == 0:
        raise ValueError("No steps to draw: the kernel matrix was already spanned.")
    start = int(np.clip(start, 0, k - 1))
    has_heat = heatmaps is not None
    diag_max = max(float(np.max(steps[0].residual_diag + 0)), 1e-300)
    if trace0 is not None:
        diag_max = max(diag_max, trace0 / max(len(X2), 1))
    s0 = steps[start]
    q0 = finite(s0.quotients)
    rel0 = _relative(s0.quotients)
    added = np.asarray([] if added is None else added, dtype=int)
    # the traces as dicts, in the grid's axes, with the colours mpcore.plots.ink would give
    # their colour bars and text (the layout around them is styled once: _styled_grid)
    panel = {n: subplot_axes(n) for n in range(1, 5)}
    data = [dict(type="scatter", x=X2[:, 0], y=X2[:, 1], mode="markers",
                 marker=dict(color=s0.residual_diag, size=9, colorscale=scale_stops(SEQUENTIAL), cmin=0,
                             cmax=diag_max, line=dict(width=0.5, color="#333"),
                             colorbar=inked_colorbar(title=dict(text="K̂<sub>ii</sub>", side="top"),
                                                x=0.405, y=0.78, len=0.42, thickness=14)),
                 name="training points",
                 hovertemplate="i = %{pointNumber}<br>K̂ii = %{marker.color:.3g}<extra></extra>",
                 showlegend=False, **panel[1]),
            dict(_ring_trace(X2, np.array([t.index for t in steps[: start + 1]])),
                 showlegend=False, **panel[1])]
    if added.size:  # static: the points a person added by clicking
        data.append(dict(type="scatter", x=X2[added, 0], y=X2[added, 1], mode="markers",
                         marker=dict(size=16, symbol="diamond-open", color="#111111",
                                     line=dict(width=2.5)),
                         name="added by clicking", showlegend=False,
                         hovertemplate="added point, i = %{customdata}<extra></extra>",
                         customdata=added, **panel[1]))
    # panel 2
    data.append(dict(type="scatter", x=np.arange(len(X2)), y=rel0, customdata=q0,
                     mode="markers", marker=dict(size=6, color=OKABE_ITO["blue"]),
                     name="ρ<sub>i</sub>", showlegend=False,
                     hovertemplate="i = %{x}<br>ρ = %{customdata:.4g}<br>"
                                   "÷ max = %{y:.3f}<extra></extra>", **panel[2]))
    data.append(dict(type="scatter", x=[s0.index], y=[rel0[s0.index]], customdata=[q0[s0.index]],
                     mode="markers+text", text=[f"i = {s0.index}"],
                     textposition="bottom center",
                     marker=dict(size=18, symbol="star", color=OKABE_ITO["vermillion"],
                                 line=dict(width=1, color="black")),
                     textfont=dict(size=15), name="argmax (chosen)", showlegend=False,
                     hovertemplate="chosen i = %{x}<br>ρ = %{customdata:.4g}<extra></extra>",
                     **panel[2]))
    # panel 4: static curves, then the moving marker
    j_axis = np.arange(0, k + 1)
    greedy = np.array([trace0 if trace0 is not None else np.nan] + [s.trace_residual for s in steps])
    data.append(dict(type="scatter", x=j_axis, y=greedy, mode="lines+markers", name="sparse KPCA",
                     line=dict(color=PALETTE[0], width=3), marker=dict(size=5), **panel[4]))
    for n, (name, curve) in enumerate((curves or {}).items()):
        curve = finite(curve)[: k + 1]
        data.append(dict(type="scatter", x=j_axis[: len(curve)], y=curve, mode="lines", name=name,
                         line=dict(color=CURVE_COLOURS[n % len(CURVE_COLOURS)], width=3,
                                   dash=CURVE_DASHES[n % len(CURVE_DASHES)]), **panel[4]))
    data.append(dict(type="scatter", x=[start + 1], y=[s0.trace_residual], mode="markers",
                     marker=dict(size=16, color=OKABE_ITO["vermillion"],
                                 line=dict(width=1.5, color="black")),
                     name="current step j", showlegend=False, **panel[4]))
    trace_ids = [0, 1, 2 + bool(added.size), 3 + bool(added.size), len(data) - 1]

    # fixed axes across frames (plotly animations must not rescale)
    pad = 0.08 * (np.ptp(X2, axis=0) + 1e-12)
    ymax = np.nanmax(greedy) if np.isfinite(np.nanmax(greedy)) else 1.0
    axes = dict(
        xaxis=dict(range=[X2[:, 0].min() - pad[0], X2[:, 0].max() + pad[0]],
                   title=dict(text=axis_labels[0])),
        # one unit as long on both axes: a circle of data is drawn round (the ranges grow
        # to fill the panel; its place, and its colour bar's, stay)
        yaxis=dict(range=[X2[:, 1].min() - pad[1], X2[:, 1].max() + pad[1]],
                   title=dict(text=axis_labels[1]), scaleanchor="x", scaleratio=1),
        xaxis2=dict(range=[-0.5, len(X2) - 0.5], title=dict(text="training index i")),
        # no y titles on the right-hand panels (the panel titles say it) and their tick
        # labels on their right: the colour bars of the left-hand panels, with their own
        # labels, need the room between the columns
        yaxis2=dict(range=[-0.02, 1.12], side="right"),
        xaxis4=dict(title=dict(text="step j (basis vectors)"), range=[-0.3, k + 0.3]),
        yaxis4=dict(range=[0, ymax * 1.05], side="right"))
    if has_heat:
        heat_abs = float(np.max(np.abs(heatmaps[0]))) or 1.0
        size = heatmaps.shape[1]
        shown = (np.arange(size) if heat_index is None else np.asarray(heat_index)).astype(int)
        ticks = np.unique(np.linspace(0, size - 1, min(size, 8)).astype(int))
        data.append(dict(type="heatmap", z=heatmaps[start], colorscale=scale_stops(DIVERGING), zmid=0,
                         zmin=-heat_abs, zmax=heat_abs,
                         colorbar=inked_colorbar(title=dict(text="K̂", side="top"),
                                            x=0.405, y=0.22, len=0.42, thickness=14),
                         customdata=np.array([[f"{a}, {b}" for b in shown] for a in shown]),
                         hovertemplate="K̂ at (i, i') = (%{customdata})<br>"
                                       "%{z:.3g}<extra></extra>", **panel[3]))
        x, y = _row_col(_position(heat_index, s0.index), size)
        data.append(dict(type="scatter", x=x, y=y, mode="lines",
                         name="chosen point's row and column",
                         line=dict(color="#111111", width=2), hoverinfo="skip",
                         showlegend=False, **panel[3]))
        axis = dict(tickmode="array", tickvals=ticks, ticktext=[str(shown[t]) for t in ticks],
                    range=[-0.5, size - 0.5], showgrid=False, zeroline=False)
        # across, fewer labels and never turned: turned labels push the axis title down
        # into the Play buttons when the panel is narrow (a 1280 px projector)
        across = np.unique(np.linspace(0, size - 1, min(size, 6)).astype(int))
        axes["xaxis3"] = dict(axis, title=dict(text="training index i′"), tickvals=across,
                              ticktext=[str(shown[t]) for t in across], tickangle=0)
        axes["yaxis3"] = dict(axis, title=dict(text="training index i"), autorange=False,
                              range=[size - 0.5, -0.5])
        trace_ids += [len(data) - 2, len(data) - 1]

    frames = [dict(data=_frame_traces(X2, steps, j, heatmaps, heat_index), traces=trace_ids,
                   name=str(j + 1))
              for j in range(k)]
    # last: the play controls (slider and Play/Pause), already in their colours
    layout = deep_merge(_styled_grid(bool(has_heat), int(height)), axes)
    layout.update(play_controls_layout(k, start, frame_ms, slider_x=0.31, button_font=16))
    return dict(data=data, layout=layout, frames=frames)


@styled_once
def _styled_grid(has_heat: bool, height: int) -> dict:
    """The figure's layout before its data: the 2 x 2 grid (``make_subplots``), styled by
    :func:`base_layout` (fonts, axis lines, template, :func:`ink`), the legend under the
    figure and the panel titles' font. It depends on the figure's shape alone (built once
    per shape); the ranges, tick labels and play controls of the data at hand are merged
    into a copy."""
    # short titles: at 1280 px the two columns of panels are about 250 px wide each
    titles = ("Data (colour: K̂<sub>ii</sub>)",
              "Quotients ρ<sub>i</sub> ÷ largest",
              "Deflated kernel K̂<sub>j</sub>" if has_heat else "Deflated kernel (hidden for large m)",
              "Trace residual tr K̂<sub>j</sub>")
    # vertical room for the top row's axis titles and the bottom row's panel titles, also
    # when presentation mode fits the figure into a 720-pixel projector window
    fig = make_subplots(rows=2, cols=2, subplot_titles=titles, horizontal_spacing=0.2,
                        vertical_spacing=0.22)
    if not has_heat:
        # at the middle of the empty panel, in paper coordinates: plotly.js drops an axis no
        # trace uses, and the note placed on its domain ("x3 domain") fell back to the first
        # panel's data coordinates, over its points and cut at the figure's left edge; in
        # lines as narrow as the panel at 1280 px (centred there: a paper-referenced note's
        # automatic anchor is its nearest side)
        (x0, x1), (y0, y1) = fig.layout.xaxis3.domain, fig.layout.yaxis3.domain
        fig.add_annotation(text="m is large: the m × m<br>heatmap is not drawn<br>"
                                "(it would send m²<br>numbers per frame).",
                           showarrow=False, xref="paper", yref="paper", x=(x0 + x1) / 2,
                           y=(y0 + y1) / 2, xanchor="center", yanchor="middle")
        fig.update_xaxes(visible=False, row=2, col=1)
        fig.update_yaxes(visible=False, row=2, col=1)
    base_layout(fig, height=height, legend_top=False)
    # the legend names panel 4's curves; under the figure, it covers no data at any width
    fig.update_layout(margin=dict(b=215, t=70, r=50),
                      legend=dict(x=1.0, y=0.0, yref="container", xanchor="right", yanchor="bottom",
                                  orientation="h",
                                  bgcolor="rgba(255,255,255,0.85)", bordercolor="#999",
                                  borderwidth=1, font=dict(size=13)))
    fig.update_annotations(font_size=17, yshift=8)
    return fig.layout.to_plotly_json()


def skpca_animation(X2, steps, **kwargs):
    """:func:`skpca_animation_dict` as a ``go.Figure`` (for notebooks)."""
    return go.Figure(skpca_animation_dict(X2, steps, **kwargs))


def trace_curves_figure(curves: dict, *, title="Trace residual against the number of basis vectors",
                        y_title="tr K̂", marker_k=None, height=460):
    """Plain line figure of several curves over j = 0..k (no animation)."""
    fig = go.Figure()
    dash = ("solid", "dash", "dot", "dashdot")
    for n, (name, curve) in enumerate(curves.items()):
        curve = finite(curve)
        fig.add_trace(go.Scatter(x=np.arange(len(curve)), y=curve, mode="lines", name=name,
                                 line=dict(color=PALETTE[n % len(PALETTE)], width=3,
                                           dash=dash[n % 4])))
    if marker_k is not None:
        fig.add_vline(x=marker_k, line=dict(color="#555", dash="dot"))
    fig.update_xaxes(title="number of basis vectors j")
    fig.update_yaxes(title=y_title)
    return base_layout(fig, height=height, title=title)
