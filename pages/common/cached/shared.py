"""A light cache shared by every session of the process, for values a page run asks for
many times over with small hashable keys (a Learn beat's scene, figure and chart).

``st.cache_resource`` digests every argument on every call, which a follower's run pays for
each time the lecturer moves; this cache keys on the arguments' own hash (tuples of strings
and numbers). Like Streamlit's caches it computes a missing value once while the other
sessions asking for it wait (a whole hall arrives at once), and it holds at most
``max_entries`` values, the least recently used dropped first. Values must not be changed
by their callers (bytes, frozen figures and scenes).
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict

__all__ = ["shared_cache"]


def shared_cache(max_entries: int):
    """Decorator: cache a function of hashable arguments across sessions (see above)."""
    if max_entries < 1:
        raise ValueError(f"max_entries must be at least 1, not {max_entries}")

    def wrap(fn):
        values: OrderedDict = OrderedDict()
        lock = threading.Lock()
        computing: dict = {}

        @functools.wraps(fn)
        def cached(*args, **kwargs):
            key = (args, tuple(sorted(kwargs.items())))
            with lock:
                if key in values:
                    values.move_to_end(key)
                    return values[key]
                key_lock = computing.setdefault(key, threading.Lock())
            with key_lock:  # one computes; the others wait for its value
                with lock:
                    if key in values:
                        return values[key]
                try:
                    value = fn(*args, **kwargs)
                except BaseException:
                    with lock:
                        computing.pop(key, None)
                    raise
                with lock:  # stored before its lock goes: no second computation
                    values[key] = value
                    computing.pop(key, None)
                    while len(values) > max_entries:
                        values.popitem(last=False)
                return value

        def clear():
            with lock:
                values.clear()

        cached.clear = clear
        return cached

    return wrap
