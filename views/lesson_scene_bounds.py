r"""What a lesson's beat shows on the bounds page, computed from the beat's field values.

The page's own computation (:func:`views.bounds.bound_curves` on the page's seeded split)
and its figure (:func:`mpcore.plots.bound_curves_figure_dict`): the residuals of sparse
kernel PCA on training and test points against k, the sample-compression bound of Hussain
& Shawe-Taylor (2008), Corollary 1, and the kernel-PCA bound of Shawe-Taylor & Cristianini
(2004), Theorem 6.14. Each bound is a running minimum over t <= k of its term at t; the
lowest point of a bound is the number k* of basis vectors it recommends.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np

import datasets
from mpcore.curves import BoundCurves

from . import bounds as _bounds
from . import data as _data
from .lesson_scene import data_choice, kernel_choice

__all__ = ["BoundsScene", "bounds_scene"]

#: The figure's height in a lesson.
FIGURE_HEIGHT = 520


@dataclass(frozen=True, eq=False)
class BoundsScene:
    """The bounds page in one state: the split and the curves the page draws."""

    values: Mapping
    curves: BoundCurves

    @property
    def m(self) -> int:
        return int(self.curves.m)

    @property
    def n_steps(self) -> int:
        return self.curves.n_steps

    @property
    def delta(self) -> float:
        return float(self.curves.delta)

    @property
    def R(self) -> float:
        return float(self.curves.trivial)

    @cached_property
    def penalty(self) -> np.ndarray:
        """Corollary 1's price of a compression set of size t = 1..n_steps (its term minus
        the mean residual outside the set)."""
        return self.curves.compression_terms - self.curves.out_residual

    def figures(self, narrow: bool = False) -> list[tuple[str, dict]]:
        """The page's figure, as it draws it (with each bound's term at t = k if the view
        shows them); the page draws it the same on a phone (``narrow`` is accepted for the
        Learn page's one call)."""
        from mpcore.plots import bound_curves_figure_dict

        return [("bounds", bound_curves_figure_dict(
            self.curves, show_terms=bool(self.values["bounds.terms"]), height=FIGURE_HEIGHT))]

    def caption(self) -> str:
        c = self.curves
        terms = (" Dotted: each bound's term at t = k before the minimum over t; its lowest "
                 "point is the bound's k*." if self.values["bounds.terms"] else "")
        return (f"x: the number k of basis vectors chosen by sparse KPCA (m = {c.m} training, "
                f"{c.n_test} test points); y: a mean squared feature-space residual. Blue: test "
                "residual; light blue dashed: training residual; orange-red: compression bound "
                "(Corollary 1), star at its minimum k*; green dash-dot: kernel-PCA bound "
                f"(Theorem 6.14), diamond at its minimum; black long dashes: R = {c.trivial:.4g}, "
                f"the level at or above which a bound says nothing. δ = {c.delta:g}.{terms}")


def bounds_scene(values: Mapping, k_max: int = 0) -> BoundsScene:
    """Compute the bounds page's view for a state's ``values`` (bundled data only);
    ``k_max`` is unused (the view's own K_max field says how far the curves go)."""
    if values["dataset"] not in datasets.names():
        raise ValueError(f"A lesson shows bundled data only, not {values['dataset']!r}.")
    choice, kern = data_choice(values), kernel_choice(values)
    d = _data.load(choice)
    tr, te = _data.split(d, values["test"], choice.seed)
    c = _bounds.bound_curves(np.asarray(d.X[tr]), np.asarray(d.X[te]), kern,
                             int(values["bounds.kmax"]), float(values["bounds.delta"]))
    return BoundsScene(values=dict(values), curves=c)
