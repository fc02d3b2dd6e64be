"""How every cache of the app is keyed and bounded, and how its values are made read-only.

Keys are small frozen dataclasses (DataChoice, KernelChoice, KMPSettings: keyed by their
repr, :data:`CHOICE_KEYS`) and numbers, never large arrays. Every cache has
``max_entries`` and a ``ttl`` so memory stays bounded with many users; cached arrays are
returned read-only so no caller can mutate a value another session will see.

Streamlit shows no spinner for a cached function called inside another one: what a page
calls must carry the message for everything it may compute (a spinner shows only after
half a second, so a quick miss draws none).
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from views.data import DataChoice, KernelChoice
from views.kmp import KMPSettings

ENTRIES = 32
TTL = 3600

#: How every cache keys the app's frozen choices: by their ``repr`` (each field, a float to
#: its last digit, a tuple of clicked points in full), one string to hash, instead of
#: Streamlit's walk through ``dataclasses.asdict`` and a digest of every field, which a page
#: run with many cached calls pays for on every call.
CHOICE_KEYS = {DataChoice: repr, KernelChoice: repr, KMPSettings: repr}


def cache_data(**kwargs):
    """``st.cache_data`` keyed as :data:`CHOICE_KEYS` says."""
    return st.cache_data(hash_funcs=CHOICE_KEYS, **kwargs)


def cache_resource(**kwargs):
    """``st.cache_resource`` keyed as :data:`CHOICE_KEYS` says."""
    return st.cache_resource(hash_funcs=CHOICE_KEYS, **kwargs)


def freeze_tree(obj):
    """Make every ndarray inside ``obj`` (dicts, lists, tuples, objects) read-only."""
    if isinstance(obj, np.ndarray):
        obj.setflags(write=False)
    elif isinstance(obj, dict):
        for v in obj.values():
            freeze_tree(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            freeze_tree(v)
    elif hasattr(obj, "__dict__"):
        for v in vars(obj).values():
            freeze_tree(v)
    return obj


def frozen(*arrays):
    """The arrays read-only (a copy of a writeable one); one array for one argument."""
    out = []
    for a in arrays:
        if isinstance(a, np.ndarray):
            a = a.copy() if a.flags.writeable else a
            a.setflags(write=False)
        out.append(a)
    return out if len(out) > 1 else out[0]
