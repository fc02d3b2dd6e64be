"""At most a few full runs of the page at once in one server process; a lecturer's first.

Every session's run is a thread of the one server process, and they share one GIL. When a
lecturer moves, every following student's page runs in full at the same moment: with a
hundred of them runnable, each gets a hundredth of the process, every page is drawn only
when all are, and the small runs between them (a hall's timer reading its version, an
answer sent) wait behind the whole burst. Holding full runs to :data:`FULL_RUNS` at a time
draws the first pages at once and the others one after another, and leaves the small runs
(fragments, which do not run app.py) a process that is not shared a hundred ways.

The lecturer's page is not held: the projector answers the lecturer's click at once, and
the move it publishes is what the students' pages are waiting for.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager, nullcontext

import streamlit as st

from .hall_state import hall_context

#: Full runs of the script at once per process: a second lets one run's wait for the store
#: or a computation outside the GIL go on beside another; more only divide the same core.
FULL_RUNS = 2

_SLOTS = threading.BoundedSemaphore(FULL_RUNS)


def full_run_slot():
    """The context app.py runs the page in: one of the process's :data:`FULL_RUNS` slots,
    or none for a hall's lecturer (a key the store has checked)."""
    ctx = hall_context()
    return nullcontext() if ctx is not None and ctx["lecturer"] else _slot()


@contextmanager
def _slot():
    with _SLOTS:
        yield
