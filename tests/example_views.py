"""A small page view for the tests that need one built as a page builds it (one recipe)."""

from __future__ import annotations

from views import skpca as skpca_views
from views.data import DataChoice, KernelChoice, load, split


def skpca_on_moons(n_samples: int, k: int) -> dict:
    """The sparse-KPCA page's view (views.skpca.skpca_view) of ``k`` steps on ``n_samples``
    noisy moons (the training part of a 25 % split), Gaussian kernel with gamma 2."""
    choice = DataChoice("moons", n_samples=n_samples, noise=0.2)
    d = load(choice)
    tr, _ = split(d, 0.25, choice.seed)
    kern = KernelChoice("rbf", gamma=2.0)
    steps = skpca_views.skpca_steps(d.X[tr], kern, k)
    return skpca_views.skpca_view(d.X[tr], d.y[tr], kern, steps)
