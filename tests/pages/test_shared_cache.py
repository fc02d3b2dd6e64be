"""pages/common/cached/shared.py: one computation per key however many sessions ask at once,
at most max_entries values kept (the least recently used dropped), errors not kept."""

from __future__ import annotations

import threading
import time

import pytest

from pages.common.cached.shared import shared_cache


def test_a_value_is_computed_once_while_many_threads_ask():
    calls = []

    @shared_cache(4)
    def slow(x):
        calls.append(x)
        time.sleep(0.05)
        return x * 2

    out = []
    threads = [threading.Thread(target=lambda: out.append(slow(3))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == [6] * 8 and calls == [3]


def test_the_least_recently_used_value_is_dropped():
    calls = []

    @shared_cache(2)
    def f(x):
        calls.append(x)
        return [x]

    a = f(1)
    f(2)
    assert f(1) is a  # kept, and now the most recent
    f(3)              # drops 2
    f(1)
    f(2)
    assert calls == [1, 2, 3, 2]


def test_an_error_is_not_kept():
    n = []

    @shared_cache(2)
    def f(x):
        n.append(x)
        if len(n) == 1:
            raise RuntimeError("first call fails")
        return x

    with pytest.raises(RuntimeError):
        f(1)
    assert f(1) == 1 and n == [1, 1]


def test_max_entries_must_be_positive():
    with pytest.raises(ValueError, match="max_entries"):
        shared_cache(0)
