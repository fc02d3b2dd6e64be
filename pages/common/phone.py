"""Whether the window is a phone's, and the figures a phone is shown.

Below :data:`NARROW` px the pages lay their figures out for a phone: an animation one panel
at a time (:func:`phone_panel`, over :mod:`pages.common.phone_panels`), a figure of panels
side by side one panel a row (:func:`phone_grid`, over :mod:`pages.common.phone_grid`). The
width is the one a component reported (the timeline's, the fit component's), or on a
session's first run the User-Agent's guess.
"""

from __future__ import annotations

import streamlit as st

from .phone_grid import narrow_grid
from .phone_panels import narrow_layout, one_panel, panels
from .state import Schema

#: Below this window width (px) the animated pages show one panel at a time (a phone;
#: Streamlit stacks columns below 640 px too).
NARROW = 640


def remember_width(value) -> None:
    """Keep a window width (px) a component reported, clamped, for :func:`is_narrow`; a
    value that is not a number is ignored."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        st.session_state["_window_width"] = int(min(max(value, 200), 10000))


def mobile_agent(user_agent) -> bool:
    """Whether a User-Agent header is a phone's: it holds "Mobi", the token browsers on
    phones send (and tablets, wide enough for the full layout, do not)."""
    return isinstance(user_agent, str) and "Mobi" in user_agent


#: :func:`phone_pick`'s answer for a figure with fewer than two panels to choose from ("" is
#: the first panel's axis suffix, so it cannot say "the whole figure").
WHOLE = "*"


def is_narrow() -> bool:
    """Whether the window is narrower than :data:`NARROW` (a phone): as the browser reported
    it, or, on a session's first run, before any report, as its User-Agent says
    (:func:`mobile_agent`). A phone then gets its layout from the first run; the fit
    component (``pages/common/fit.py``) reports the width only when the guess was wrong
    (a phone held sideways), and that report reruns the page for the window."""
    width = st.session_state.get("_window_width")
    if width is None:
        return mobile_agent(st.context.headers.get("User-Agent"))
    return int(width) < NARROW


def phone_grid(fig):
    """``fig`` as it is, or on a phone its panels one under the other, as wide as the screen,
    titles wrapped and the legend in rows under them (:func:`pages.common.phone_grid.narrow_grid`).
    For a figure of panels side by side that does not animate (KMP's comparison, the
    papers' figures)."""
    if fig is None or not is_narrow():
        return fig
    return narrow_grid(fig.to_dict() if hasattr(fig, "to_dict") else fig, columns=1)


def phone_panel(schema: Schema, fig: dict, names: dict[str, str], *, height: int = 560) -> dict:
    """On a phone, a 'Panel' selector and only that panel of ``fig``, full width.

    ``names`` maps a panel's axis suffix ('' for the first, '2', ...) to its name; panels
    not listed (or hidden in this figure) are not offered. On a wider window ``fig`` is
    returned as it is. The choice is the device's, not the view's: it is not in the link.
    """
    if not is_narrow():
        return fig
    return phone_figure(fig, phone_pick(schema, panels(fig), names), height=height)


def phone_pick(schema: Schema, shown: list[str], names: dict[str, str]) -> str | None:
    """On a phone, the 'Panel' selector of :func:`phone_panel` over the figure's panels
    ``shown`` (:func:`pages.common.phone_panels.panels`): the panel picked (its axis suffix,
    "" for the first panel), or :data:`WHOLE` for the whole figure laid out narrow; None on a
    wider window."""
    if not is_narrow():
        return None
    offered = [s for s in shown if s in names]
    if len(offered) < 2:
        return WHOLE
    # a segmented control, not a radio: a radio reads every value of the session on each
    # run, and a hall's followers draw this on every move of the lecturer
    return st.segmented_control(
        "Panel", offered, format_func=names.get, key=f"{schema.page}.panel", default=offered[0],
        required=True, help="A narrow screen shows one panel of the animation at a time; every "
        "panel follows the same step.")


def phone_figure(fig: dict, pick: str | None, *, height: int = 560) -> dict:
    """``fig`` as :func:`phone_panel` shows it for a :func:`phone_pick` (no Streamlit, so a
    cache may keep its result)."""
    if pick is None:
        return fig
    if pick == WHOLE:
        return narrow_layout(fig, height=height + 260)
    return one_panel(fig, pick, height=height)
