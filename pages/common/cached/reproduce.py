"""Cache of the reproduce page (experiments.run_experiment)."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from experiments import EXPERIMENTS, run_experiment

from .base import ENTRIES, TTL, cache_data


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def reproduce_result(key: str, settings):
    """experiments.run_experiment(key, settings), with a progress bar while it runs.

    ``settings`` is the experiment's frozen settings dataclass (the cache key), so
    the page shows exactly what ``python -m experiments`` writes for the same
    settings. The progress bar is created and cleared inside the cached call, so a
    cache hit replays nothing visible. The figure comes back as a plotly dict.
    """
    title = EXPERIMENTS[key].title
    bar = st.progress(0.0, text=f"{title}: starting...")
    result = run_experiment(key, settings, progress=lambda f, msg: bar.progress(
        f, text=f"{title}: {msg}"))
    bar.empty()
    return replace(result, figure=result.figure.to_plotly_json())
