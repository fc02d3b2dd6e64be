"""A number box for a training point's index, which a click on the point in the beat's
figure fills (the Learn page's point questions and the hall's point polls).

A click fills the box through a new widget key, not by writing the box's own key: a request
the browser sent before it saw that write (a page timer's run, queued behind the click's)
carries the box's old value and would overwrite the click. A new key has no value in
flight, so the click stays. A later click on the same point does not refill a box the
student has since typed into.
"""

from __future__ import annotations

import streamlit as st


def _gen(key: str) -> dict:
    # n: the box's generation (its key's suffix), value: what a new box starts at,
    # clicked: the last click taken (the figure keeps a selection across runs)
    return st.session_state.get(f"{key}.gen") or dict(n=0, value=None, clicked=None)


def point_input(label: str, key: str, clicked: int | None, **kwargs) -> str:
    """Draw the box (``st.number_input`` with ``kwargs``) and return the key holding its
    value; ``clicked``: the point clicked in the figure on this run, or None."""
    gen = _gen(key)
    if clicked is not None and gen["clicked"] != clicked:
        gen = dict(n=gen["n"] + 1, value=int(clicked), clicked=clicked)
        st.session_state[f"{key}.gen"] = gen
    wkey = f"{key}.{gen['n']}" if gen["n"] else key
    st.number_input(label, value=gen["value"], step=1, key=wkey, **kwargs)
    return wkey


def clear_point(key: str):
    """Empty the box (a new poll); the figure's standing selection does not refill it."""
    gen = st.session_state.get(f"{key}.gen")
    if gen is None:
        st.session_state.pop(key, None)
    else:
        st.session_state[f"{key}.gen"] = dict(gen, n=gen["n"] + 1, value=None)
