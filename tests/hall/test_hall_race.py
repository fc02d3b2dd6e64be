"""Answers sent from many threads while the lecturer closes the poll: every acknowledged
answer is in the export, and none is acknowledged once the close has returned."""

from __future__ import annotations

import itertools
import threading

from hall.polls import PollSpec
from hall.session import RATE_WINDOW, Hall, new_device

SPEC = PollSpec(kind="k", prompt="k?", lo=1, hi=10)
THREADS = 6
PER_THREAD = 8


def test_answers_racing_the_close(store):
    # each reading of the clock is a new rate window: this test is about the close, and its
    # devices answer as fast as the store lets them
    ticks = itertools.count()
    hall = Hall(store, clock=lambda: next(ticks) * RATE_WINDOW)
    s = hall.start()
    pid = hall.open_poll(s.room, s.key, SPEC)
    closed = threading.Event()
    acked = threading.Semaphore(0)
    results = []  # (device, value, started after the close returned, acknowledged)
    errors = []
    lock = threading.Lock()

    def student(devices):
        try:
            value, after = 0, 0
            while after < 3:  # keep answering until a few tries start after the close
                value = value % 10 + 1
                for d in devices:
                    late = closed.is_set()
                    try:
                        hall.answer(s.room, d, pid, value)
                        ok = True
                        acked.release()
                    except ValueError as e:
                        assert "closed" in str(e), e
                        ok = False
                    with lock:
                        results.append((d, str(value), late, ok))
                after += closed.is_set()
        except BaseException as e:  # noqa: BLE001 - any other failure fails the test
            errors.append(e)
            acked.release()

    groups = [[new_device() for _ in range(PER_THREAD)] for _ in range(THREADS)]
    threads = [threading.Thread(target=student, args=(g,)) for g in groups]
    for t in threads:
        t.start()
    for _ in range(THREADS * PER_THREAD):  # close while answers are flowing
        acked.acquire(timeout=30)
    hall.close_poll(s.room, s.key)
    closed.set()
    for t in threads:
        t.join(60)
    assert not errors, errors
    assert not any(t.is_alive() for t in threads)

    assert not [r for r in results if r[2] and r[3]], "acknowledged after the close"
    assert any(r[2] for r in results) and any(r[3] for r in results)
    last = {}
    for d, v, _, ok in results:  # each device answers from one thread, in order
        if ok:
            last[d] = v
    exp = hall.export(s.room, s.key)
    assert {a["device"]: a["answer"] for a in exp["polls"][0]["answers"]} == last
    assert hall.tally(s.room, pid).total() == len(last)
