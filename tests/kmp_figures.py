"""A small 1-D KMP regression and its animated fit (mpcore.plots.kmp_fit_animation), for the
tests of the figure's labels and of its phone panel."""

from __future__ import annotations

import numpy as np

from mpcore.kmp import KMPRegressor, basis_functions, staged_values
from mpcore.plots import kmp_fit_animation


def regression_1d():
    """(x, y, model, xs): 40 noisy points of a sine, KMP with 4 steps, 30 evaluation points."""
    rng = np.random.default_rng(0)
    x = np.sort(rng.uniform(-3, 3, 40))
    y = np.sin(x) + 0.1 * rng.normal(size=40)
    return x, y, KMPRegressor(4, gamma=1.0).fit(x[:, None], y), np.linspace(-3, 3, 30)


def fit_animation(x, y, model, xs, **labels):
    """The animated fit of :func:`regression_1d`'s model (``labels``: x_label, y_label)."""
    return kmp_fit_animation(x, y, xs, staged_values(model, xs[:, None]),
                             basis_functions(model, xs[:, None]), model.coef_path_,
                             model.basis_indices_, **labels)
