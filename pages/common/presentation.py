"""Presentation mode: the sidebar and header hidden, the animation as tall as the window.

The switch is a URL field (``present``), so a classroom link can fix it; the style sheet
that hides the page's furniture is ``presentation.css``, beside this module.
"""

from __future__ import annotations

import streamlit as st

from .assets import asset
from .resize import resized
from .state import Schema
from .widgets import current, draw

#: The style sheet that hides the page's furniture (the app's own file, no user text).
PRESENT_STYLE = f"<style>\n{asset('presentation.css')}</style>"


def presentation_toggle(schema: Schema) -> bool:
    """The presentation-mode switch (a URL field, ``present``), top of the page."""
    state = current(schema)
    if "present" in state.hidden:  # a classroom link fixed it: not drawn, used as given
        on = bool(state["present"])
    else:
        on = st.toggle("Presentation mode", key="present",
                       help="Hides the sidebar, title and captions, and fits the animation and "
                            "its controls on one screen for a projector. Keys: space play/pause, "
                            "← → step, Home / End.")
    if on:
        st.markdown(PRESENT_STYLE, unsafe_allow_html=True)
    return bool(on)


def sidebar_keys(schema: Schema, present: bool) -> list[str] | None:
    """The fields the sidebar draws: all (``None``), or in presentation mode, whose sidebar
    is hidden, all but the Play speed, which :func:`speed_control` draws beside the figure."""
    if not present:
        return None
    return [f.key for f in schema.fields if f.key != f"{schema.page}.speed"]


def speed_control(schema: Schema, present: bool):
    """In presentation mode, the Play speed beside the timeline (the sidebar is hidden)."""
    if present:
        draw(current(schema), [f"{schema.page}.speed"], sections=False)


def equations(items, present: bool, key: str = "mp-equations"):
    """Equations beside the figure, each ``(heading, LaTeX)``: a bold heading over each, or in
    presentation mode one compact block (the headings small, no gaps between elements), so
    that every equation is on the screen with the live numbers above it at 1280x720.
    ``key``: the block's container (several blocks on a page: each its own, starting with
    ``mp-equations``, which presentation.css styles)."""
    if not present:
        for heading, tex in items:
            if heading:  # an empty heading: one more equation under the last one's
                st.markdown(f"**{heading}**")
            st.latex(tex)
        return
    rows = [rf"\text{{\footnotesize {heading}}}\\[-2pt] {tex}" if heading else tex
            for heading, tex in items]
    with st.container(key=key):
        st.latex(r"\begin{array}{l}" + r"\\[6pt]".join(rows) + r"\end{array}")


def fit_to_window(fig: dict, present: bool, *, reserve: int = 150,
                  compact_axes: tuple = ()) -> dict:
    """In presentation mode the figure is as tall as the window allows (the timeline
    component reports the window's height; 720 px, a projector, until it has).

    ``compact_axes``: axes whose titles are dropped when the figure gets short (the
    top row's, which would otherwise run into the panel titles below them).
    """
    return fitted(fig, window_height(present, reserve), compact_axes=compact_axes)


def window_height(present: bool, reserve: int = 150) -> int | None:
    """The figure's height in presentation mode (see :func:`fit_to_window`), else None."""
    if not present:
        return None
    return max(int(st.session_state.get("_window_height", 720)) - reserve, 360)


def fitted(fig: dict, height: int | None, *, compact_axes: tuple = ()) -> dict:
    """:func:`fit_to_window` for a known height (None: ``fig`` as it is); no Streamlit, so
    a cache may keep its result."""
    if height is None:
        return fig
    fig = resized(fig, height)  # controls and colour bars keep their pixel offsets
    layout = dict(fig.get("layout", {}), height=height)
    if height < 640:
        for axis in compact_axes:
            if axis in layout:
                layout[axis] = {k: v for k, v in layout[axis].items() if k != "title"}
    return dict(fig, layout=layout)
