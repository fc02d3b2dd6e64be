"""Caches of the sparse-KCCA page (views.kcca)."""

from __future__ import annotations

from pages.common.figure_frames import typed_arrays
from views import kcca as _kcca

from .base import ENTRIES, TTL, cache_data, freeze_tree


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def kcca_data(n: int, noise: float, seed: int, test: float) -> dict:
    """views.kcca.kcca_data: datasets.two_view with a seeded split."""
    return freeze_tree(_kcca.kcca_data(n, noise, seed, test))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Choosing the basis pairs greedily...")
def kcca_view(n: int, noise: float, seed: int, test: float, sigma_x: float, sigma_y: float,
              reg: float, k: int) -> dict:
    """views.kcca.kcca_view: the greedy steps and the correlations after each."""
    return freeze_tree(_kcca.kcca_view(kcca_data(n, noise, seed, test), sigma_x, sigma_y, reg, k))


@cache_data(max_entries=ENTRIES, ttl=TTL,
            show_spinner="Drawing the sparse-KCCA animation (one frame per basis pair)...")
def kcca_figure(n: int, noise: float, seed: int, test: float, sigma_x: float, sigma_y: float,
                reg: float, k: int, frame_ms: int) -> dict:
    """views.kcca.animation_dict, its arrays as plotly.js typed arrays."""
    return typed_arrays(_kcca.animation_dict(
        kcca_data(n, noise, seed, test),
        kcca_view(n, noise, seed, test, sigma_x, sigma_y, reg, k), frame_ms))
