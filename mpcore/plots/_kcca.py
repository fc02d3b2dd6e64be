r"""Animated figure of matching-pursuit sparse KCCA (Hussain & Shawe-Taylor, Section 4).

:func:`kcca_animation` draws five synchronised panels, one ``go.Frame`` per
greedy step, so Play runs in the browser:

1. view X and 2. view Y, coloured by the shared latent variable, the chosen
   pairs ringed and numbered in both views (a choice picks a *pair*);
3. the first canonical projections of the two views against each other, with
   their correlation in the panel title;
4. the quotient of Section 4 for every candidate at step j,

   .. math:: \rho_i = \frac{e_i'\hat K_x\hat K_ye_i}{\sqrt{e_i'\hat K_x^2e_i\,e_i'\hat K_y^2e_i}},

   placed at the candidate's latent value, the argmax (the choice) marked;
5. the canonical correlation against the number of basis pairs, on the
   training pairs and on held-out pairs.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .._linalg import pearson
from ._common import (
    FONT_SIZE,
    OKABE_ITO,
    SEQUENTIAL,
    base_layout,
    deep_merge,
    finite,
    play_controls_layout,
    readable,
    styled_once,
    subplot_axes,
)
from ._spectrum import INK, projector_fonts

#: Trace names (tests and the page refer to them).
VIEW_X = "view X"
VIEW_Y = "view Y"
CHOSEN_X = "chosen pairs (view X)"
CHOSEN_Y = "chosen pairs (view Y)"
PROJECTIONS = "canonical projections"
QUOTIENTS = "quotient ρᵢ"
ARGMAX = "argmax (chosen)"
TRAIN = "train corr."
TEST = "held-out corr."
RHO = "ρ (with τ)"
CURRENT = "current step"

#: Index of the subplot title (layout annotation) that carries the correlation.
PROJECTION_TITLE = 2
QUOTIENT_TITLE = 3


def _ring(A, idx, name, axes) -> dict:
    # the numbers' colour as mpcore.plots.ink makes it: readable on the white plot
    return dict(
        type="scatter", x=A[idx, 0], y=A[idx, 1], mode="markers+text", name=name,
        showlegend=False,
        marker=dict(size=22, color="rgba(0,0,0,0)", line=dict(color=OKABE_ITO["vermillion"], width=3)),
        text=[str(n + 1) for n in range(len(idx))], textposition="top right",
        textfont=dict(size=15, color=readable(OKABE_ITO["vermillion"])),
        hovertemplate="basis pair #%{text}<extra></extra>", **axes)


def _ring_patch(A, idx):
    """What a frame changes in a ring trace (:func:`_ring`), as a plain dict."""
    return {"type": "scatter", "x": A[idx, 0], "y": A[idx, 1],
            "text": [str(n + 1) for n in range(len(idx))]}


def _oriented_variates(steps):
    """Each step's (u, v), signs flipped for continuity so the scatter does not jump."""
    out, prev = [], None
    for s in steps:
        u, v = np.asarray(s.variate_x, float), np.asarray(s.variate_y, float)
        if prev is not None and float(u @ prev) < 0:
            u, v = -u, -v
        out.append((u, v))
        prev = u
    return out


def _titles(j, step, corr):
    return ("View X", "View Y", f"Canonical projections: corr = {corr:.3f}",
            f"Quotient ρᵢ of every candidate at step {j + 1}: argmax i = {step.index}",
            "Correlation vs basis pairs")


def kcca_animation(X, Y, latent, steps, **kwargs) -> go.Figure:
    r"""One animated figure of the greedy sparse-KCCA steps, a frame per step.

    Parameters
    ----------
    X, Y : arrays (m, 2)
        The two paired training views (2-D, drawn as they are).
    latent : array (m,)
        The shared latent variable (colours; x-axis of the quotient panel).
    steps : list of mpcore.kcca.KCCAStep
        From :func:`mpcore.kcca.kcca_steps`.
    train, test : arrays (k,), optional
        Correlation of the first canonical projections with t = 1..k basis
        pairs, on the training and on held-out pairs.
    rho : array (k,), optional
        The regularised canonical correlation (the generalised eigenvalue).
    frame_ms : int
        Milliseconds per frame when playing.
    start : int
        0-based step shown when the figure opens.

    Returns
    -------
    fig : plotly.graph_objects.Figure
        Traces named by the module constants; ``len(fig.frames) == len(steps)``.
    """
    return go.Figure(kcca_animation_dict(X, Y, latent, steps, **kwargs))


def kcca_animation_dict(X, Y, latent, steps, **kwargs) -> dict:
    """:func:`kcca_animation` as a plotly dict, its frames plain dicts never validated one
    by one: what the app builds for every slider setting, several times faster."""
    return _animation(X, Y, latent, steps, **kwargs)


def _animation(X, Y, latent, steps, *, train=None, test=None, rho=None, frame_ms=500, start=0,
               height=920) -> dict:
    """The figure as a dict, its frames plain dicts: traces, ranges, titles and controls
    merged into the grid's layout, styled once per height (:func:`_styled_grid`)."""
    X, Y = np.asarray(X, dtype=float), np.asarray(Y, dtype=float)
    z = np.asarray(latent, dtype=float)
    k = len(steps)
    if k == 0:
        raise ValueError("No steps to draw: no basis pair was chosen.")
    if X.shape[1] != 2 or Y.shape[1] != 2 or not (len(X) == len(Y) == len(z)):
        raise ValueError(f"X {X.shape} and Y {Y.shape} must be (m, 2) and latent {z.shape} (m,).")
    start = int(np.clip(start, 0, k - 1))
    variates = _oriented_variates(steps)
    corr = [pearson(u, v) for u, v in variates]
    # the panels' axes (make_subplots: row 1 x/x2/x3, row 2 x4 (two columns) and x5)
    panel = {n: subplot_axes(n) for n in range(1, 6)}
    colour = dict(coloraxis="coloraxis", size=8, line=dict(width=0.5, color="#333"))
    idx0 = [s.index for s in steps[: start + 1]]
    # panels 1 and 2: the views (static), the rings (per frame)
    data = [dict(type="scatter", x=X[:, 0], y=X[:, 1], mode="markers", name=VIEW_X,
                 showlegend=False, marker=dict(color=z, **colour),
                 hovertemplate="i = %{pointNumber}<br>z = %{marker.color:.2f}<extra></extra>",
                 **panel[1]),
            _ring(X, idx0, CHOSEN_X, panel[1]),
            dict(type="scatter", x=Y[:, 0], y=Y[:, 1], mode="markers", name=VIEW_Y,
                 showlegend=False, marker=dict(color=z, **colour),
                 hovertemplate="i = %{pointNumber}<br>z = %{marker.color:.2f}<extra></extra>",
                 **panel[2]),
            _ring(Y, idx0, CHOSEN_Y, panel[2])]
    # panel 3: projections
    u0, v0 = variates[start]
    data.append(dict(type="scatter", x=u0, y=v0, mode="markers", name=PROJECTIONS,
                     showlegend=False, marker=dict(color=z, **colour),
                     hovertemplate="u = %{x:.2f}<br>v = %{y:.2f}<extra></extra>", **panel[3]))
    # panel 4: quotients at the current step
    s0 = steps[start]
    data.append(dict(type="scatter", x=z, y=finite(s0.quotients), mode="markers", name=QUOTIENTS,
                     showlegend=False, marker=dict(size=6, color=OKABE_ITO["blue"]),
                     customdata=np.arange(len(z)),
                     hovertemplate="i = %{customdata}<br>z = %{x:.2f}<br>ρ = %{y:.4f}<extra></extra>",
                     **panel[4]))
    data.append(dict(type="scatter", x=[z[s0.index]], y=[s0.quotients[s0.index]],
                     mode="markers+text", name=ARGMAX, showlegend=False, text=[f"i = {s0.index}"],
                     textposition="top center", textfont=dict(size=16, color=INK),
                     marker=dict(size=20, symbol="star", color=OKABE_ITO["vermillion"],
                                 line=dict(width=1, color="black")),
                     hovertemplate="chosen i = " + str(s0.index) + "<br>ρ = %{y:.4f}<extra></extra>",
                     **panel[4]))
    # panel 5: correlation against t (static lines, moving marker)
    t = np.arange(1, k + 1)
    if rho is not None:
        data.append(dict(type="scatter", x=t, y=np.asarray(rho, float), mode="lines", name=RHO,
                         line=dict(color=OKABE_ITO["black"], width=2, dash="dot"), **panel[5]))
    if train is not None:
        data.append(dict(type="scatter", x=t, y=np.asarray(train, float), mode="lines+markers",
                         name=TRAIN, line=dict(color=OKABE_ITO["blue"], width=3),
                         marker=dict(size=6), **panel[5]))
    if test is not None:
        data.append(dict(type="scatter", x=t, y=np.asarray(test, float), mode="lines+markers",
                         name=TEST, line=dict(color=OKABE_ITO["orange"], width=3, dash="dash"),
                         marker=dict(size=6, symbol="square"), **panel[5]))
    current_y = np.asarray(train, float) if train is not None else np.asarray(corr)
    data.append(dict(type="scatter", x=[start + 1], y=[current_y[start]], mode="markers",
                     name=CURRENT, showlegend=False,
                     marker=dict(size=16, color=OKABE_ITO["vermillion"],
                                 line=dict(width=1.5, color="black")), **panel[5]))
    ids = {tr["name"]: n for n, tr in enumerate(data)}
    moving = [ids[CHOSEN_X], ids[CHOSEN_Y], ids[PROJECTIONS], ids[QUOTIENTS], ids[ARGMAX],
              ids[CURRENT]]
    # fixed axes across frames
    axes = {}
    for A, col in ((X, 1), (Y, 2)):
        pad = 0.08 * (np.ptp(A, axis=0) + 1e-12)
        n = "" if col == 1 else str(col)
        axes[f"xaxis{n}"] = dict(range=[A[:, 0].min() - pad[0], A[:, 0].max() + pad[0]],
                                 title=dict(text=f"{'x' if col == 1 else 'y'}<sub>1</sub>"))
        # y: plotly.js's own range (equal scales widen it to the panel's shape); a given
        # range, widened and written back into the figure by plotly.js, made the next copy
        # of the figure look changed, and plotly.js drew it again
        axes[f"yaxis{n}"] = dict(autorange=True,
                                 title=dict(text=f"{'x' if col == 1 else 'y'}<sub>2</sub>"),
                                 scaleanchor="x" if col == 1 else f"x{col}", scaleratio=1)
    lim = max(max(float(np.max(np.abs(u))), float(np.max(np.abs(v)))) for u, v in variates) * 1.08
    axes["xaxis3"] = dict(range=[-lim, lim], title=dict(text="u = view X projection"))
    axes["yaxis3"] = dict(range=[-lim, lim], title=dict(text="v = view Y projection"))
    q_all = np.concatenate([finite(s.quotients) for s in steps])
    q_lo = min(float(np.nanmin(q_all)) if np.any(np.isfinite(q_all)) else 0.0, 0.0)
    axes["xaxis4"] = dict(title=dict(text="candidate's latent z<sub>i</sub>"))
    axes["yaxis4"] = dict(range=[q_lo - 0.08, 1.12], title=dict(text="ρ<sub>i</sub>"))
    series = [np.asarray(a, float) for a in (train, test, rho) if a is not None] + [np.asarray(corr)]
    y_hi = max(1.05, max(float(np.nanmax(a)) for a in series) * 1.05)
    y_lo = min(0.0, min(float(np.nanmin(a)) for a in series) * 1.05)
    axes["xaxis5"] = dict(title=dict(text="basis pairs t"), range=[0.5, k + 0.5])
    axes["yaxis5"] = dict(title=dict(text="correlation"), range=[y_lo, y_hi])
    axes["coloraxis"] = dict(cmin=float(np.min(z)), cmax=float(np.max(z)))
    layout = deep_merge(_styled_grid(int(height)), axes)
    titles = _titles(start, steps[start], corr[start])
    layout["annotations"] = [dict(a, text=titles[n]) for n, a in enumerate(layout["annotations"])]
    # last: the play controls (slider and Play/Pause), already in their colours
    layout.update(play_controls_layout(k, start, frame_ms, slider_x=0.22, button_font=16))
    frames = _frames(layout["annotations"], X, Y, z, steps, variates, corr, current_y, moving)
    return dict(data=data, layout=layout, frames=frames)


@styled_once
def _styled_grid(height: int) -> dict:
    """The five panels' layout before the data (``make_subplots``, the colour axis of the
    latent variable, :func:`base_layout` and :func:`ink`, the legend, the projector's
    fonts), built once per height: the data's ranges, titles and controls are merged into
    a copy. The panel titles are placeholders here (their text comes with the data)."""
    fig = make_subplots(
        rows=2, cols=3, specs=[[{}, {}, {}], [{"colspan": 2}, None, {}]],
        subplot_titles=("View X", "View Y", "Canonical projections", "Quotient", "Correlation"),
        # room between panels for a y-axis title beside the tick labels of the panel on
        # its left, at a 1280 px projector's column width
        horizontal_spacing=0.11, vertical_spacing=0.24)
    fig.update_layout(
        coloraxis=dict(colorscale=SEQUENTIAL, cmin=0.0, cmax=1.0,
                       colorbar=dict(title=dict(text="latent z", side="top"), len=0.42, y=0.79,
                                     x=1.01, xanchor="left", thickness=16,
                                     tickfont=dict(size=15, color=INK))),
    )
    base_layout(fig, height=height, legend_top=False)
    # legend in the right margin, beside the correlation panel: inside it, it would hide
    # curves that stay low (a width so large that every point looks alike)
    # b and l hold the slider and the tick labels: a margin plotly has to grow means
    # drawing the figure twice
    fig.update_layout(margin=dict(b=160, t=70, r=160, l=74),
                      legend=dict(orientation="v", x=1.01, xanchor="left", y=0.0, yanchor="bottom",
                                  font=dict(size=15)))
    fig.update_annotations(font_size=FONT_SIZE)
    projector_fonts(fig)
    return fig.layout.to_plotly_json()


def _frames(base_titles, X, Y, z, steps, variates, corr, current_y, moving) -> list[dict]:
    """One frame per step, as the plain dicts plotly validates them to: the moving traces
    (rings, projections, quotients, argmax, current marker) and the titles. Their text
    colours are already readable (the rings' numbers are drawn in the figure's own, darkened
    colour), as :func:`mpcore.plots.ink` leaves them."""
    frames = []
    for j, s in enumerate(steps):
        idx = [t_.index for t_ in steps[: j + 1]]
        u, v = variates[j]
        titles = _titles(j, s, corr[j])
        annotations = [dict(a, text=titles[n], font=dict(size=FONT_SIZE, color=INK), yshift=10)
                       for n, a in enumerate(base_titles)]
        data = [
            _ring_patch(X, idx), _ring_patch(Y, idx),
            {"type": "scatter", "x": u, "y": v},
            {"type": "scatter", "x": z, "y": finite(s.quotients)},
            {"type": "scatter", "x": [z[s.index]], "y": [s.quotients[s.index]],
             "text": [f"i = {s.index}"],
             "hovertemplate": "chosen i = " + str(s.index) + "<br>ρ = %{y:.4f}<extra></extra>"},
            {"type": "scatter", "x": [j + 1], "y": [current_y[j]]},
        ]
        frames.append({"data": data, "traces": moving, "name": str(j + 1),
                       "layout": {"annotations": annotations}})
    return frames
