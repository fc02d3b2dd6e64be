"""The projector's pictures of a poll: a heat map of tapped points over the data panel, and
a histogram for k or the options. Plain plotly figures (no Streamlit): the poll pages and
the session replay draw them with pages/common/charts.py."""

from __future__ import annotations

import html
from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go

__all__ = ["HEAT_CAPTION", "HIST_CAPTION", "heat_figure", "histogram_figure", "points_2d"]

HEAT_CAPTION = ("Grey dots: the view's training points. Red circles: the points the hall "
                "tapped, larger and darker for more taps (the number beside a circle is how "
                "many). After the reveal, the algorithm's answer is ringed in green. Axes: "
                "the data panel's.")
HIST_CAPTION = ("Bars: how many in the hall gave each answer. Before the reveal every bar is "
                "blue; after it, the right answer's bar is green and the others grey.")
BLUE, GREEN, GREY, RED = "#1f77b4", "#2ca02c", "#b0b0b0", "#d62728"


def points_2d(scene) -> tuple[np.ndarray, tuple[str, str]]:
    """The 2-D positions of the scene's training points, as its data panel draws them."""
    view = getattr(scene, "view", None)
    if isinstance(view, Mapping) and view.get("X2") is not None:
        labels = view.get("axis_labels") or ("x₁", "x₂")
        return np.asarray(view["X2"], dtype=float), (str(labels[0]), str(labels[1]))
    X = np.asarray(scene.X, dtype=float)
    if X.ndim == 2 and X.shape[1] >= 2:
        return X[:, :2], ("x₁", "x₂")
    x = X.reshape(len(X), -1)[:, 0]
    return np.column_stack([x, np.zeros_like(x)]), ("x", "")


def heat_figure(points: np.ndarray, counts: Mapping[int, int], *, right=(),
                axis_labels=("x₁", "x₂"), height: int = 460) -> go.Figure:
    """The data as grey dots, each tapped point a red circle sized and shaded by its taps,
    the right points (after the reveal) ringed in green."""
    fig = go.Figure()
    fig.add_scatter(x=points[:, 0], y=points[:, 1], mode="markers", name="training points",
                    marker=dict(color=GREY, size=7), hovertemplate="point %{customdata}"
                    "<extra></extra>", customdata=np.arange(len(points)))
    idx = [i for i in sorted(counts) if 0 <= i < len(points) and counts[i] > 0]
    if idx:
        c = np.array([counts[i] for i in idx], dtype=float)
        size = 14 + 26 * np.sqrt(c / c.max())
        fig.add_scatter(x=points[idx, 0], y=points[idx, 1], mode="markers+text",
                        name="taps", text=[str(int(v)) for v in c], textposition="top right",
                        textfont=dict(size=16, color="#7f0000"),
                        marker=dict(size=size, color=c, colorscale="Reds", cmin=0,
                                    cmax=max(c.max(), 1), opacity=0.85,
                                    line=dict(color="#7f0000", width=1)),
                        customdata=idx,
                        hovertemplate="point %{customdata}: %{text} taps<extra></extra>")
    ok = [i for i in right if 0 <= i < len(points)]
    if ok:
        fig.add_scatter(x=points[ok, 0], y=points[ok, 1], mode="markers", name="the answer",
                        marker=dict(size=34, color="rgba(0,0,0,0)",
                                    line=dict(color=GREEN, width=4)),
                        hoverinfo="skip")
    fig.update_layout(height=height, margin=dict(l=40, r=10, t=10, b=40), showlegend=False,
                      plot_bgcolor="white", xaxis_title=axis_labels[0],
                      yaxis_title=axis_labels[1], font=dict(size=15))
    fig.update_xaxes(showgrid=False, zeroline=False)
    fig.update_yaxes(showgrid=False, zeroline=False, scaleanchor="x")
    return fig


def histogram_figure(values: list[str], counts: Mapping[str, int], *, right=(),
                     xlabel: str = "answer", height: int = 360) -> go.Figure:
    """One bar per possible answer (k or an option), its height the taps."""
    y = [int(counts.get(v, 0)) for v in values]
    right = set(right)
    colors = [(GREEN if v in right else GREY) if right else BLUE for v in values]
    # plotly.js reads tags in text (<a href>): an option from a session file is shown as text
    labels = [html.escape(v if len(v) <= 28 else v[:27] + "…") for v in values]
    fig = go.Figure(go.Bar(x=labels, y=y, marker_color=colors, text=[str(n) for n in y],
                           textposition="outside", textfont=dict(size=18),
                           hovertemplate="%{x}: %{y}<extra></extra>"))
    fig.update_layout(height=height, margin=dict(l=40, r=10, t=20, b=40), plot_bgcolor="white",
                      xaxis_title=xlabel, yaxis_title="answers", font=dict(size=15),
                      yaxis=dict(rangemode="tozero", range=[0, max(y + [1]) * 1.25]))
    fig.update_xaxes(type="category")
    return fig
