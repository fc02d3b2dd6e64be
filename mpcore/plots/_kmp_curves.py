"""KMP curves against the number of basis functions, step times and margin losses.

- :func:`kmp_curves_figure`: errors and the Theorem 3 bound against the number
  of basis functions (Hussain & Shawe-Taylor, Figure 2), early-stopping choices marked;
- :func:`step_time_figure`: wall time of every step;
- :func:`margin_loss_figure`: the margin losses of Section 3.2 (Vincent & Bengio, Figure 5).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ._common import FONT_SIZE, OKABE_ITO, PALETTE, base_layout, finite
from .text_size import BREAK, wrapped
from ._kmp_parts import (
    BOUND,
    EXCEED,
    HIGHLIGHT_WIDTH,
    MARKER_COLOURS,
    TEST_ERR,
    TRAIN_ERR,
    TRIVIAL,
    T_FRACTION,
    VAL_ERR,
    _check_steps,
)


#: :func:`kmp_curves_figure`, in pixels: its top and bottom margins, and a line of a panel's
#: title.
_TOP_PX, _BOTTOM_PX, _TITLE_LINE_PX = 60, 110, 24


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
        Titles of the two panels; the bound's is broken into lines a phone holds (at most
        34 characters; ``<br>`` breaks a line where you choose), and the gap above its panel
        holds them.
    exceed_title : str
        What ``exceed`` measures (hover text).
    """
    if not errors:
        raise ValueError("No curves to draw.")
    k = max(len(v) for v in errors.values())
    if k == 0:
        raise ValueError("No steps to draw: the pursuit chose no basis function.")
    x = np.arange(1, k + 1)
    # the lower panel's title in lines a phone holds ("Theorem 3 bound on the
    # misclassification rate" ran past a phone's figure, cut at its edge): it grows up into
    # the gap between the panels (the upper panel shares its x axis: no tick labels there),
    # which holds its lines
    bound_title = wrapped(bound_title)
    lines = len(BREAK.split(bound_title)) if isinstance(bound_title, str) else 1
    gap = (_TITLE_LINE_PX * lines + 16) / max(height - _TOP_PX - _BOTTOM_PX, 1)
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True,
                        vertical_spacing=min(max(0.1, gap), 0.3),
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
    fig.update_layout(margin=dict(t=_TOP_PX, b=_BOTTOM_PX),
                      legend=dict(orientation="h", y=-0.12, x=0, yanchor="top"))
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
