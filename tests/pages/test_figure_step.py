"""The step an animated page opens its figure at (pages.common.timeline.figure_step).

A run answering a step the browser has drawn itself keeps the figure's JSON of the run
before (so Streamlit keeps the chart element the browser moved); every other run opens
the figure at the page's step. The browser side (the element is kept, the view is on the
step) is tests/browser/test_browser_timeline.py.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest


def _runs():
    """One script run per call: (j, the step came from the browser, keep)."""
    import streamlit as st

    from pages.common.schemas import SKPCA
    from pages.common.timeline import _browser_key, figure_step

    j, from_browser, keep = st.session_state["calls"][st.session_state["done"]]
    if from_browser:  # what the timeline component's step callback records
        st.session_state[_browser_key(SKPCA)] = True
    st.session_state["opened"].append(figure_step(SKPCA, j, keep=keep))
    st.session_state["done"] += 1


calls = st.lists(st.tuples(st.integers(1, 40), st.booleans(), st.booleans()),
                 min_size=1, max_size=12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls)
def test_only_browser_steps_keep_the_figure_of_the_run_before(seq):
    at = AppTest.from_function(_runs)
    at.session_state["calls"] = seq
    at.session_state["done"] = 0
    at.session_state["opened"] = []
    for _ in seq:
        at.run()
        assert not at.exception, at.exception
    opened = at.session_state["opened"]
    assert len(opened) == len(seq)
    for i, ((j, from_browser, keep), got) in enumerate(zip(seq, opened)):
        if i == 0 or not (from_browser and keep):
            # a first draw, a control, a link, a figure that is a widget: the page's step
            assert got == j
        else:
            # the browser shows j already: the same figure as the run before
            assert got == opened[i - 1]
