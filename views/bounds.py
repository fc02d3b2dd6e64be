"""What the bounds page draws: sparse-KPCA residuals and both bounds on a seeded split."""

from __future__ import annotations

from mpcore.curves import BoundCurves
from mpcore.curves import bound_curves as _bound_curves

from .data import KernelChoice

__all__ = ["bound_curves"]


def bound_curves(X_train, X_test, kern: KernelChoice, k_max: int, delta: float) -> BoundCurves:
    """:func:`mpcore.curves.bound_curves` on the training and test rows with the page's kernel."""
    return _bound_curves(X_train, X_test, k_max=k_max, delta=delta, **kern.params())
