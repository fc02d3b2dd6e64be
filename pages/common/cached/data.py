"""Caches every data page shares: the data set, an upload's facts, the seeded split and the
training kernel. An upload's bytes live in ``st.session_state["csv.bytes"]``."""

from __future__ import annotations

import streamlit as st

import datasets
from mpcore.kernels import kernel_matrix
from views import data as _data
from views.data import DataChoice, KernelChoice

from ..fields import MAX_APP_SAMPLES
from .base import ENTRIES, TTL, cache_data, frozen


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Loading data...")
def load_data(choice: DataChoice) -> datasets.Dataset:
    """views.data.load: the data set, standardised if asked, with clicked points appended."""
    raw = st.session_state.get("csv.bytes", b"") if choice.csv_digest is not None else None
    return _data.load(choice, raw, max_rows=MAX_APP_SAMPLES)


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def upload_facts(digest: str, target: str) -> dict:
    """views.data.upload_facts of the session's upload (``digest``, its cache key)."""
    return _data.upload_facts(st.session_state["csv.bytes"], target, max_rows=MAX_APP_SAMPLES)


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def split(choice: DataChoice, test_fraction: float):
    """views.data.split: seeded train/test indices (stratified for classification)."""
    return frozen(*_data.split(load_data(choice), test_fraction, choice.seed))


def stratified(choice: DataChoice, test_fraction: float) -> bool:
    """Whether :func:`split` stratifies (so a code snippet can do the same)."""
    return _data.stratified(load_data(choice), test_fraction)


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Computing the kernel matrix...")
def train_kernel(choice: DataChoice, kern: KernelChoice, test_fraction: float):
    """The kernel matrix of the training rows."""
    return frozen(kernel_matrix(load_data(choice).X[split(choice, test_fraction)[0]],
                                **kern.params()))
