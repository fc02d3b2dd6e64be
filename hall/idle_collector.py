"""Python's full garbage collections in the quiet between a hall's bursts of runs.

On each of the lecturer's moves a hall's process runs about a hundred followers' beats at
once. Python's collector starts a full collection (one that walks every object of the
process, a hundred sessions' worth) after every ten collections of the younger
generations, and a burst makes that many: nearly every move's burst held one, a pause of
0.1 to 0.6 s for every follower of the process (``loadtest/RESULTS.md``). An
:class:`IdleCollector` runs those full collections when the process has been quiet for a
moment instead (between two moves), as often as Python would have; one comes in a burst
only when it is overdue (:data:`OVERDUE` younger collections), which bounds the garbage a
process that is never quiet keeps.

``deploy/hall_app.py`` (the hall's Streamlit processes) starts one; ``streamlit run
app.py`` keeps Python's own schedule.
"""

from __future__ import annotations

import gc
import threading
import time

__all__ = ["DUE", "EVERY", "IdleCollector", "OVERDUE", "QUIET"]

#: Seconds between two looks at the process's CPU time.
EVERY = 0.5
#: The share of one core under which the last look's interval counts as quiet.
QUIET = 0.25
#: Younger-generation collections after which a full one is due (Python's own threshold).
DUE = gc.get_threshold()[2]
#: Younger-generation collections after which Python runs a full one itself, quiet or not.
OVERDUE = 10 * DUE


class IdleCollector:
    """Full collections when the process is quiet; a context manager (the thread ends,
    and Python's thresholds come back, on exit) or :meth:`start` for a process's life."""

    def __init__(self, every: float = EVERY, quiet: float = QUIET):
        if not every > 0 or not 0 < quiet < 1:
            raise ValueError(f"every must be > 0 s and quiet in (0, 1): got {every}, {quiet}")
        self.every, self.quiet = every, quiet
        self.collections = 0  # the full collections this collector ran
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="idle-collector", daemon=True)
        self._threshold = gc.get_threshold()

    def start(self) -> IdleCollector:
        gc.set_threshold(*self._threshold[:2], OVERDUE)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        gc.set_threshold(*self._threshold)

    __enter__ = start

    def __exit__(self, *exc) -> None:
        self.stop()

    def _run(self) -> None:
        last = time.process_time()
        while not self._stop.wait(self.every):
            now = time.process_time()  # every thread of the process: its script runs too
            busy, last = (now - last) / self.every, now
            if busy < self.quiet and gc.get_count()[2] >= DUE:
                gc.collect()
                self.collections += 1
                last = time.process_time()  # the collection's own time is not a run's
