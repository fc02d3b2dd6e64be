"""The hall's processes run full garbage collections in the quiet, not in a burst of runs
(hall/idle_collector.py)."""

from __future__ import annotations

import gc
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hall.idle_collector import DUE, OVERDUE, IdleCollector

#: Seconds the collector is given to see a quiet process and collect.
PATIENCE = 30.0


def _young_collections(n: int) -> None:
    """Make Python run ``n`` collections of its middle generation (garbage with cycles)."""
    start = gc.get_count()[2]
    while gc.get_count()[2] - start < n and gc.get_count()[2] < OVERDUE - 1:
        for _ in range(1000):
            a = []
            a.append(a)


@pytest.mark.parametrize("every, quiet", [(0, 0.2), (-1, 0.2), (0.5, 0), (0.5, 1),
                                          (float("nan"), 0.2), (0.5, float("nan"))])
def test_bad_settings_are_refused(every, quiet):
    with pytest.raises(ValueError, match="every must be > 0 s and quiet in"):
        IdleCollector(every, quiet)


def test_a_quiet_process_gets_its_full_collection_and_python_its_thresholds_back():
    before = gc.get_threshold()
    gc.collect()
    with IdleCollector(every=0.05) as collector:
        # Python would not run a full collection itself before OVERDUE younger ones
        assert gc.get_threshold() == (*before[:2], OVERDUE) and OVERDUE > DUE
        _young_collections(DUE)
        assert gc.get_count()[2] >= DUE
        deadline = time.monotonic() + PATIENCE
        while collector.collections == 0 and time.monotonic() < deadline:
            time.sleep(0.05)  # the process is quiet
        assert collector.collections >= 1
        assert gc.get_count()[2] < DUE  # the full collection reset Python's count
    assert gc.get_threshold() == before
    assert not collector._thread.is_alive()


def test_a_busy_process_is_not_paused_by_the_collector():
    # quiet: under 5% of a core; the loop below keeps the process far above that, with more
    # younger collections than make a full one due
    with IdleCollector(every=0.05, quiet=0.05) as collector:
        end = time.monotonic() + 1.5
        while time.monotonic() < end:
            _young_collections(DUE)
        assert collector.collections == 0


def test_the_halls_streamlit_entry_starts_one():
    """deploy/hall_app.py (the processes deploy/serve.py starts) runs one for its life."""
    root = Path(__file__).resolve().parents[2]
    code = ("import gc, runpy, threading; runpy.run_path('deploy/hall_app.py'); "
            "print(gc.get_threshold()[2], [t.name for t in threading.enumerate()])")
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                         text=True, timeout=120, check=True).stdout.split()
    assert out[0] == str(OVERDUE) and "'idle-collector'" in " ".join(out[1:]), out
