"""Palette, fonts and small helpers shared by every figure."""

from __future__ import annotations

import numpy as np

#: Okabe & Ito's colour-blind-safe palette.
OKABE_ITO = {
    "black": "#000000", "orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73",
    "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#CC79A7",
}
#: Order in which series take colours.
PALETTE = [OKABE_ITO[c] for c in ("blue", "orange", "green", "vermillion", "purple", "sky",
                                  "yellow", "black")]
#: Sequential colour scale for magnitudes (perceptually uniform, colour-blind safe).
SEQUENTIAL = "Cividis"
#: Diverging scale for signed values (decision functions).
DIVERGING = "RdBu"

FONT_SIZE = 17


def base_layout(fig, *, height=520, title=None, legend_top=True):
    """Projector-friendly defaults: large fonts, white background, light grid."""
    fig.update_layout(
        template="plotly_white", height=height, font=dict(size=FONT_SIZE),
        margin=dict(l=70, r=30, t=80 if title else 50, b=60),
        title=dict(text=title, font=dict(size=FONT_SIZE + 3)) if title else None,
        hoverlabel=dict(font_size=FONT_SIZE - 1),
    )
    if legend_top:
        fig.update_layout(legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0))
    fig.update_xaxes(showline=True, linecolor="#444", mirror=True, title_standoff=8)
    fig.update_yaxes(showline=True, linecolor="#444", mirror=True, title_standoff=8)
    return fig


def project_2d(X):
    """X itself when 2-D; (x, 0) when 1-D; else its first two principal components."""
    X = np.asarray(X, dtype=float)
    if X.shape[1] == 2:
        return X, ("x<sub>1</sub>", "x<sub>2</sub>")
    if X.shape[1] == 1:
        return np.column_stack([X[:, 0], np.zeros(len(X))]), ("x", "")
    Xc = X - X.mean(0)
    _, _, Vt = np.linalg.svd(Xc, full_matrices=False)
    return Xc @ Vt[:2].T, ("PC 1", "PC 2")


def finite(a, fill=np.nan):
    """Replace inf by ``fill`` so that JSON encoding never sees inf."""
    a = np.asarray(a, dtype=float).copy()
    a[~np.isfinite(a)] = fill
    return a


def play_controls(fig, k, start, frame_ms, *, y=-0.07, slider_x=0.26, prefix="step j = ",
                  button_font=FONT_SIZE - 1):
    """Play/Pause buttons and a step slider under an animated figure (client-side playback).

    One frame per step, named "1".."k"; the slider opens on ``start`` (0-based).
    """
    slider_steps = [dict(method="animate", label=str(j + 1),
                         args=[[str(j + 1)], dict(mode="immediate", frame=dict(duration=0, redraw=True),
                                                  transition=dict(duration=0))])
                    for j in range(k)]
    play = dict(frame=dict(duration=int(frame_ms), redraw=True), fromcurrent=True,
                transition=dict(duration=0), mode="immediate")
    pause = dict(mode="immediate", frame=dict(duration=0, redraw=False), transition=dict(duration=0))
    fig.update_layout(
        updatemenus=[dict(type="buttons", direction="left", x=0.0, y=y, xanchor="left",
                          yanchor="top", pad=dict(r=10, t=10), showactive=False,
                          font=dict(size=button_font),
                          buttons=[dict(label="▶ Play", method="animate", args=[None, play]),
                                   dict(label="❚❚ Pause", method="animate", args=[[None], pause])])],
        sliders=[dict(active=start, steps=slider_steps, x=slider_x, y=y, len=1 - slider_x,
                      xanchor="left", yanchor="top", pad=dict(t=10),
                      currentvalue=dict(prefix=prefix, font=dict(size=FONT_SIZE)))],
    )
    return fig


def deep_merge(base: dict, patch: dict) -> dict:
    """``base`` updated by ``patch`` recursively, as plotly applies a frame (inputs untouched)."""
    out = dict(base)
    for key, val in patch.items():
        if isinstance(val, dict) and isinstance(out.get(key), dict):
            out[key] = deep_merge(out[key], val)
        else:
            out[key] = val
    return out
