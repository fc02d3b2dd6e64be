"""Which store this process's hall uses.

``MP_HALL_REDIS`` (set by deploy/serve.py for its Streamlit processes) names a Redis server
that every process of the hall shares; without it, the hall lives in this process's memory,
so ``streamlit run app.py`` alone serves a hall with nothing else to start.
"""

from __future__ import annotations

import os
import threading

from hall.session import Hall
from hall.store import MemoryStore

__all__ = ["REDIS_ENV", "process_hall"]

REDIS_ENV = "MP_HALL_REDIS"
_lock = threading.Lock()
_halls: dict[str, Hall] = {}


def process_hall() -> Hall:
    """The one :class:`Hall` of this process (its store chosen by :data:`REDIS_ENV`)."""
    url = os.environ.get(REDIS_ENV, "")
    with _lock:
        if url not in _halls:
            if url:
                from hall.redis_store import RedisStore

                _halls[url] = Hall(RedisStore(url))
            else:
                _halls[url] = Hall(MemoryStore())
        return _halls[url]
