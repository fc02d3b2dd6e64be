"""Click to add points on 2-D data (plotly selection events).

The chart overlays a fine, nearly invisible grid of markers on the data:
clicking anywhere selects the nearest grid marker, whose coordinates become a
new point of the chosen class. Added points live in the URL (``pts=``), so a
shared link shows them too, up to :data:`MAX_POINTS` (a click past it adds nothing and
says so, so the link and the view always hold the same points).

A click on a point already in the data (a data point, or a grid marker at its place) adds
nothing and says so: a second point at the same place cannot be seen or told apart from the
first, and only makes two rows of the kernel matrix equal; the student clicks beside it.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from mpcore.plots import PALETTE, base_layout, grid_2d

from .cached import data as cached
from .charts import plotly_chart
from .state import MAX_POINTS, Schema
from .widgets import DataChoice, add_point, clear_points

GRID = 45


def click_to_add(schema: Schema, choice: DataChoice, *, key: str):
    """Expander with a clickable scatter; returns nothing (the URL changes, the page reruns)."""
    if choice.name in ("csv upload",) or choice.added is None:
        return
    raw = cached.load_data(dataclasses.replace(choice, standardize=False, added=()))
    if raw.X.shape[1] != 2 or raw.task != "classification":
        return
    # a toggle, not an expander: the clickable figure is only built when asked for
    if not st.toggle(f"Add points by clicking ({len(choice.added)} added)", key=f"{key}.on"):
        return
    with st.container(border=True):
        classes = np.unique(raw.y)
        c1, c2 = st.columns([3, 1])
        label = c1.radio("Class of the new point", classes.tolist(), horizontal=True,
                         key=f"{key}.class", format_func=lambda c: f"class {c}")
        if c2.button("Remove added points", key=f"{key}.clear", disabled=not choice.added):
            clear_points(schema)
            st.rerun()
        X = np.vstack([raw.X] + ([np.array(choice.added)[:, :2]] if choice.added else []))
        y = np.concatenate([raw.y] + ([np.array(choice.added)[:, 2]] if choice.added else []))
        _, _, grid = grid_2d(X, GRID, pad=0.15)  # clickable points around the data
        fig = go.Figure()
        fig.add_trace(go.Scatter(x=grid[:, 0], y=grid[:, 1], mode="markers", name="click here",
                                 marker=dict(size=9, color="rgba(120,120,120,0.04)"),
                                 hoverinfo="none", showlegend=False))
        symbols = ("circle", "square", "diamond", "triangle-up", "x")
        for n, c in enumerate(classes):
            sel = y == c
            fig.add_trace(go.Scatter(x=X[sel, 0], y=X[sel, 1], mode="markers", name=f"class {c}",
                                     marker=dict(size=9, color=PALETTE[n % len(PALETTE)],
                                                 symbol=symbols[n % len(symbols)],
                                                 line=dict(width=0.5, color="#222"))))
        fig.update_layout(clickmode="event+select", dragmode=False)
        fig.update_xaxes(title="x<sub>1</sub> (raw units)")
        fig.update_yaxes(title="x<sub>2</sub> (raw units)")
        base_layout(fig, height=430)
        event = plotly_chart(fig, on_select="rerun", selection_mode="points", key=f"{key}.chart",
                             config={"displayModeBar": False}, streamlit_look=True)
        points = list(event.selection.points if event else [])
        message = _click_message(points, X, len(choice.added))
        if message:
            st.warning(message)
        elif points:
            sig = (round(points[0]["x"], 4), round(points[0]["y"], 4), label)
            if st.session_state.get(f"{key}.last") != sig:
                st.session_state[f"{key}.last"] = sig
                add_point(schema, points[0]["x"], points[0]["y"], label)
                st.rerun()
        st.caption("Click anywhere in the chart: a point of the chosen class is added there and "
                   f"the whole run is recomputed with it (up to {MAX_POINTS} added points).")


def _click_message(points: list, X: np.ndarray, n_added: int) -> str | None:
    """Why a click adds no point (``None``: it adds one, or there was no click)."""
    if not points:
        return None
    p = points[0]
    on_data = p.get("curve_number") != 0 or bool(np.any(
        (np.round(X[:, 0], 3) == round(float(p["x"]), 3))
        & (np.round(X[:, 1], 3) == round(float(p["y"]), 3))))
    if on_data:
        return ("There is a point there already: nothing was added. Click beside it for a new "
                "point (two points at one place look like one and only repeat a row of the "
                "kernel matrix).")
    if n_added >= MAX_POINTS:
        return (f"{MAX_POINTS} points have been added, the most a page (and its link) keeps: "
                "nothing was added. Press 'Remove added points' to start again.")
    return None
