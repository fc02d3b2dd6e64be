r"""Figure for the bounds of sparse kernel PCA (Hussain & Shawe-Taylor, Figure 1).

:func:`bound_curves_figure` draws, over k = 1..K_max basis vectors, the test
and training residuals of sparse kernel PCA, the sample-compression bound
(Corollary 1), the kernel-PCA bound (Shawe-Taylor & Cristianini, Theorem
6.14), the minimum of each bound marked at (k*, value), and the trivial level
R above which a bound says nothing.
"""

from __future__ import annotations

import functools

import numpy as np
import plotly.graph_objects as go

from ._common import (
    FONT_SIZE,
    OKABE_ITO,
    _background_of,
    base_layout,
    readable,
    styled_once,
)

#: Trace names (tests and the page refer to them).
TEST = "test residual"
TRAIN = "training residual"
COMPRESSION = "compression bound (Cor. 1)"
KPCA = "KPCA bound (Thm 6.14)"
COMPRESSION_TERM = "Cor. 1 term at t = k"
KPCA_TERM = "Thm 6.14 term at t = k"
TRIVIAL = "trivial level R"
COMPRESSION_MIN = "compression bound minimum"
KPCA_MIN = "KPCA bound minimum"

COLOURS = {
    TEST: OKABE_ITO["blue"], TRAIN: OKABE_ITO["sky"], COMPRESSION: OKABE_ITO["vermillion"],
    KPCA: OKABE_ITO["green"], TRIVIAL: OKABE_ITO["black"],
}


def _first_min(curve):
    curve = np.asarray(curve, dtype=float)
    return int(np.flatnonzero(curve <= np.min(curve))[0]) + 1


def bound_curves_figure_dict(curves, *, show_terms=True, title=None, height=600) -> dict:
    """:func:`bound_curves_figure` as a plain figure dict (for a page that draws it
    unvalidated): the layout is styled through plotly once per (height, title)
    (:func:`~mpcore.plots._common.styled_once`), the curves and the minima written into a
    copy. The same figure as the validated one, at a small part of its cost on every new
    setting (a slider notch of the bounds page)."""
    k = np.asarray(curves.k)
    if k.size == 0:
        raise ValueError("No curves to draw: sparse kernel PCA chose no basis vector.")
    R = float(curves.trivial)
    data = []

    def line(y, name, *, dash="solid", width=3.0, colour=None, group=None, hover=None):
        data.append(dict(
            type="scatter", x=k, y=np.asarray(y, dtype=float), mode="lines", name=name,
            line=dict(color=colour or COLOURS[name], width=width, dash=dash),
            legendgroup=group or name,
            hovertemplate=f"k = %{{x}}<br>{hover or name} = %{{y:.4f}}<extra></extra>",
        ))

    if curves.test_residual is not None:
        line(curves.test_residual, TEST, width=3.5)
    line(curves.train_residual, TRAIN, dash="dash", width=3)
    line(curves.compression, COMPRESSION, width=4.5)
    line(curves.kpca, KPCA, width=4.5, dash="dashdot")
    if show_terms:
        line(curves.compression_terms, COMPRESSION_TERM, dash="dot", width=2.5,
             colour=COLOURS[COMPRESSION], group=COMPRESSION)
        line(curves.kpca_terms, KPCA_TERM, dash="dot", width=2.5, colour=COLOURS[KPCA], group=KPCA)
    data.append(dict(
        type="scatter", x=[k[0], k[-1]], y=[R, R], mode="lines", name=f"{TRIVIAL} = {R:.4g}",
        line=dict(color=COLOURS[TRIVIAL], width=2.5, dash="longdash"), legendgroup=TRIVIAL,
        hovertemplate=f"trivial level R = {R:.4g}: a bound above it says nothing<extra></extra>",
    ))

    solid = [curves.train_residual, curves.compression, curves.kpca, [R]]
    if curves.test_residual is not None:
        solid.append(curves.test_residual)
    top = 1.08 * max(float(np.max(np.asarray(c, dtype=float))) for c in solid)

    minima = [(curves.compression, COMPRESSION_MIN, "star", COLOURS[COMPRESSION]),
              (curves.kpca, KPCA_MIN, "diamond", COLOURS[KPCA])]
    values = [float(np.min(c)) for c, *_ in minima]
    high = int(np.argmax(values))
    annotations = []
    for j, (curve, name, symbol, colour) in enumerate(minima):
        ks = _first_min(curve)
        val = float(curve[ks - 1])
        data.append(dict(
            type="scatter", x=[ks], y=[val], mode="markers", name=name, showlegend=False,
            cliponaxis=False,
            marker=dict(symbol=symbol, size=22, color=colour, line=dict(color="white", width=1.5)),
            hovertemplate=f"{name}<br>k* = %{{x}}<br>value = %{{y:.4f}}<extra></extra>",
        ))
        # the higher minimum is labelled above it, the lower one below, unless near an edge
        frac = val / top if top > 0 else 0.0
        up = frac < 0.8 if j == high else frac < 0.25
        annotations.append(dict(
            x=ks, y=val, text=f"<b>k* = {ks}</b>, {val:.4g}", showarrow=True, arrowhead=2,
            arrowwidth=2, arrowcolor=colour, ax=40 if j == high else 90, ay=-45 if up else 45,
            font=dict(size=FONT_SIZE, color=_label_ink(colour, _LABEL_BOX)),
            bgcolor=_LABEL_BOX, bordercolor=colour, borderwidth=1,
        ))
    annotations.append(dict(x=1.0, xref="paper", xanchor="right", y=R, yanchor="bottom",
                            text=f"trivial: R = {R:.4g}", showarrow=False,
                            font=dict(size=FONT_SIZE - 1,
                                      color=_label_ink(COLOURS[TRIVIAL], None))))

    layout = _bounds_layout(int(height), title)
    layout["annotations"] = annotations
    layout["xaxis"]["range"] = [0.5, float(k[-1]) + 0.5] if k.size > 1 else [0.5, 1.5]
    layout["yaxis"]["range"] = [0, top]
    return dict(data=data, layout=layout)


#: The box behind a minimum's label.
_LABEL_BOX = "rgba(255,255,255,0.85)"


@functools.lru_cache(maxsize=None)
def _label_ink(colour, box):
    """A label's colour as :func:`~mpcore.plots._common.ink` leaves it: its hue, darkened to
    4.5:1 on what lies behind it."""
    return readable(colour, _background_of(box))


@styled_once
def _bounds_layout(height: int, title) -> dict:
    """Everything of the bounds figure's layout that its data do not set (styled through
    plotly: :func:`base_layout` and :func:`ink`)."""
    fig = go.Figure()
    base_layout(fig, height=height, title=title)
    # the legend on top (base_layout): the top margin grows when it wraps onto more rows
    fig.update_layout(legend=dict(font=dict(size=FONT_SIZE - 1)),
                      margin=dict(t=110 if title else 90))
    # two lines: one would be wider than a phone's plot (about 420 px at this font size)
    fig.update_xaxes(title_text="k = number of basis vectors<br>(the size of the compression set)")
    fig.update_yaxes(title_text="mean squared residual ‖P<sub>k</sub><sup>⊥</sup>φ(x)‖²")
    # explicit sizes: a host theme (Streamlit's) would otherwise shrink the axis text
    fig.update_xaxes(tickfont=dict(size=FONT_SIZE), title_font=dict(size=FONT_SIZE + 1))
    fig.update_yaxes(tickfont=dict(size=FONT_SIZE), title_font=dict(size=FONT_SIZE + 1))
    return fig.layout.to_plotly_json()


def bound_curves_figure(curves, *, show_terms=True, title=None, height=600):
    r"""Residuals and bounds of sparse kernel PCA against the number of basis vectors.

    Parameters
    ----------
    curves : mpcore.curves.BoundCurves
        From :func:`mpcore.curves.bound_curves`.
    show_terms : bool
        Also draw, dotted, the expression inside each bound's minimum at
        t = k; its lowest point is the k* the bound recommends, and it rises
        after k* where the running minimum stays flat.
    title : str, optional
    height : int
        Figure height in pixels.

    Returns
    -------
    fig : plotly.graph_objects.Figure
        Traces named by the module constants (``TEST``, ``TRAIN``,
        ``COMPRESSION``, ``KPCA``, their ``*_TERM``, ``TRIVIAL`` and the two
        ``*_MIN`` markers at (k*, bound value)).

    See Also
    --------
    bound_curves_figure_dict : the same figure as a plain dict.
    """
    return go.Figure(bound_curves_figure_dict(curves, show_terms=show_terms, title=title,
                                              height=height))
