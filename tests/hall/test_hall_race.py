"""Races: answers sent from many threads while the lecturer closes the poll (every
acknowledged answer is in the export, none is acknowledged once the close has returned);
two lecturer pages revealing at once (the poll is scored once)."""

from __future__ import annotations

import itertools
import threading

from hall_util import hall, redis_server, store  # noqa: F401 - fixtures

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


def test_reveals_racing_score_the_poll_once(hall):
    s = hall.start()
    pid = hall.open_poll(s.room, s.key, SPEC)
    devs = [new_device() for _ in range(6)]
    for d, v in zip(devs, [3, 3, 3, 4, 5, 6]):
        hall.answer(s.room, d, pid, v)
    for _ in range(2):
        hall.answer(s.room, devs[-1], pid, 3)  # changed their mind: 4 of 6 right
    start = threading.Barrier(4)
    reveals, errors = [], []

    def lecturer_page():
        try:
            start.wait(10)
            reveals.append(hall.reveal(s.room, s.key, "3", lambda v: v == "3"))
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=lecturer_page) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    assert len(reveals) == 4 and all(r == reveals[0] for r in reveals)
    assert (reveals[0]["n"], reveals[0]["n_right"]) == (6, 4)
    v = hall.view(s.room)
    assert (v.polls_done, v.hall_right, v.hall_answers) == (1, 4, 6)
    assert [hall.my_score(s.room, d) for d in devs] == [1, 1, 1, 0, 0, 1]
    assert [e["kind"] for e in hall.export(s.room, s.key)["events"]].count("reveal") == 1
