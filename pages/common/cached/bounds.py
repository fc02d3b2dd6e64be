"""Caches of the bounds page (views.bounds)."""

from __future__ import annotations

from mpcore.plots import bound_curves_figure_dict
from pages.common.figure_frames import typed_arrays
from views import bounds as _bounds
from views.data import DataChoice, KernelChoice

from .base import ENTRIES, TTL, cache_data, freeze_tree
from .data import load_data, split, stratified  # noqa: F401  (for the page)


@cache_data(max_entries=ENTRIES, ttl=TTL,
            show_spinner="Fitting sparse kernel PCA and computing both bounds...")
def bound_curves(choice: DataChoice, kern: KernelChoice, test_fraction: float, k_max: int,
                 delta: float):
    """views.bounds.bound_curves on the seeded train/test split (arrays read-only)."""
    d = load_data(choice)
    tr, te = split(choice, test_fraction)
    return freeze_tree(_bounds.bound_curves(d.X[tr], d.X[te], kern, k_max, delta))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def bound_figure(choice: DataChoice, kern: KernelChoice, test_fraction: float, k_max: int,
                 delta: float, show_terms: bool) -> dict:
    """mpcore.plots.bound_curves_figure_dict of :func:`bound_curves` with typed arrays,
    built once per setting for every session."""
    c = bound_curves(choice, kern, test_fraction, k_max, delta)
    return typed_arrays(bound_curves_figure_dict(c, show_terms=show_terms))
