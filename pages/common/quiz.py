"""Predict the next pick: the student guesses which point the greedy rule takes next.

On a page with a ``<page>.quiz`` field switched on, the figure shows step j; the
student enters (or clicks, see :func:`guess_from_selection`) the training index they
expect at step j + 1, then presses Reveal: the step advances, and their guess, the
actual choice and both scores (the page's criterion) are shown side by side. The
running score lives in the session only (it is not part of the link).

Nothing is scored that the student did not choose: the guess box starts empty (and empties
again after each reveal), and Reveal waits for a guess. A reveal belongs to the view it was
made in (the page's fields but the step and the switches that only change the screen): on
another data set, kernel or k it is not shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from .phone import is_narrow
from .state import Schema
from .widgets import current, update


@dataclass(frozen=True)
class Reveal:
    """What the page says about one guess at step ``step``."""

    step: int
    guess: int
    actual: int
    lines: tuple  # plain text, shown as they are

    @property
    def right(self) -> bool:
        return self.guess == self.actual


def score_key(schema: Schema) -> str:
    return f"{schema.page}.quiz.score"


def score(schema: Schema) -> dict:
    """``{"tries": n, "right": r, "last": Reveal | None}`` of this session."""
    return st.session_state.setdefault(score_key(schema), {"tries": 0, "right": 0, "last": None})


#: Fields that change what is on the screen, not the run a reveal describes.
_SCREEN_ONLY = ("j", "present")


def view_key(schema: Schema) -> str:
    """The view a reveal is made in: every field of the page's state but the step, the
    presentation switch, the Play speed and the quiz switch itself."""
    state = current(schema)
    skip = {*_SCREEN_ONLY, f"{schema.page}.speed", f"{schema.page}.quiz"}
    return repr(sorted((k, state[k]) for k in state if k not in skip))


def guess_from_selection(schema: Schema, index: int | None):
    """A point clicked in the figure becomes the guess (the number box follows)."""
    if index is not None and st.session_state.get(f"{schema.page}.quiz.clicked") != index:
        st.session_state[f"{schema.page}.quiz.clicked"] = index
        st.session_state[f"{schema.page}.quiz.guess"] = int(index)


def quiz_place():
    """Where a page draws its quiz box: on a phone, here (call it right above the figure), so
    that the box and the figure are on the screen together, not the box a screen below the
    figure as the stacked columns would put it; elsewhere ``None``: the page's column beside
    the figure. The box itself is drawn after the figure, whose click sets the guess."""
    return st.container() if is_narrow() else None


def _compact(lines) -> str:
    """A reveal for a narrow column: its first line (the guess and the pick) as it is, the
    details under it in small type, one line each (no paragraph gaps)."""
    head, *rest = lines
    small = [f":small[{line}]" if "[" not in line and "]" not in line else line for line in rest]
    return "  \n".join([f"**{head}**", *small])


def quiz_box(schema: Schema, *, n_steps: int, m: int, reveal: Callable[[int, int], Reveal],
             what: str = "training index i"):
    """The guess box, the Reveal button, the last result and the running score.

    ``reveal(j, guess)`` describes the pick of step ``j + 1`` (1-based ``j`` is the
    step shown now) for the guess.
    """
    j = min(max(int(current(schema)["j"]), 1), n_steps)
    sc = score(schema)
    with st.container(border=True, key=f"{schema.page}-quiz-box"):
        st.markdown(f"**Predict the next pick** · score: {sc['right']} of {sc['tries']} right")
        last = sc["last"]
        view = view_key(schema)
        if last is not None and sc.get("view") == view:  # made in this view
            (st.success if last.right else st.info)(_compact(last.lines))
        if j >= n_steps:
            st.caption("This is the last step: press ⟲ Reset (or Back) to play again.")
            return
        key = f"{schema.page}.quiz.guess"
        g = st.session_state.get(key)
        if g is not None and (not isinstance(g, int) or not 0 <= g < m):
            st.session_state[key] = None  # a guess of another data set: no guess
        st.number_input(f"Your guess for step {j + 1}: {what}", min_value=0, max_value=m - 1,
                        step=1, key=key, value=None, placeholder="tap or click a point",
                        help="Click a point in the data panel, or type its index (hover over "
                             "a point to see it).")
        guess = st.session_state.get(key)

        def _reveal():
            g = st.session_state.get(key)
            if not isinstance(g, int):  # nothing chosen: nothing scored
                return
            r = reveal(j, g)
            s = score(schema)
            s["tries"] += 1
            s["right"] += int(r.right)
            s["last"] = r
            s["view"] = view
            st.session_state[key] = None  # the next step's guess is the student's own again
            update(schema, j=j + 1)

        st.button(f"Reveal step {j + 1}", key=f"{schema.page}.quiz.reveal", on_click=_reveal,
                  type="primary", disabled=guess is None)
