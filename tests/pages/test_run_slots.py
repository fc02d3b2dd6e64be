"""Full runs held to a few at a time per process (pages/common/run_slots.py): never more
than FULL_RUNS at once, every slot given back however a run ends, and a hall's lecturer
never waits for one. (AppTest runs a page's script without app.py after its first run, so
these tests hold the slots from threads; the hall's load test runs them in real servers.)"""

from __future__ import annotations

import threading
import time

import pytest

from pages.common import run_slots


@pytest.fixture
def no_hall(monkeypatch):
    monkeypatch.setattr(run_slots, "hall_context", lambda: None)


def _hold_every_slot():
    for _ in range(run_slots.FULL_RUNS):
        assert run_slots._SLOTS.acquire(timeout=5)


def _give_back():
    for _ in range(run_slots.FULL_RUNS):
        run_slots._SLOTS.release()


def test_never_more_full_runs_at_once_than_the_slots(no_hall):
    inside, most, lock = [0], [0], threading.Lock()

    def run():
        with run_slots.full_run_slot():
            with lock:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
            time.sleep(0.02)
            with lock:
                inside[0] -= 1

    threads = [threading.Thread(target=run) for _ in range(4 * run_slots.FULL_RUNS + 3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not any(t.is_alive() for t in threads)
    assert most[0] == run_slots.FULL_RUNS


def test_a_run_that_raises_gives_its_slot_back(no_hall):
    # st.rerun, st.stop and a newer run's request end a run with an exception
    for _ in range(3 * run_slots.FULL_RUNS):
        with pytest.raises(RuntimeError):
            with run_slots.full_run_slot():
                raise RuntimeError("a rerun")
    _hold_every_slot()  # every slot is free again
    _give_back()


def test_a_lecturer_runs_while_every_slot_is_held(monkeypatch):
    monkeypatch.setattr(run_slots, "hall_context", lambda: {"lecturer": True})
    _hold_every_slot()
    try:
        done = threading.Event()

        def run():
            with run_slots.full_run_slot():
                done.set()

        threading.Thread(target=run, daemon=True).start()
        assert done.wait(timeout=5)
    finally:
        _give_back()

