r"""What a lesson's beat shows on the sparse-KPCA page, computed from the beat's field values.

A lesson declares its view with the page's own fields (``pages.common.schemas.SKPCA``);
this module turns those values into the numbers the page draws (the same
:func:`views.skpca.skpca_view` and :func:`mpcore.plots.skpca_animation_dict` the page uses)
and the comparisons a lesson asks about: greedy selection (Hussain & Shawe-Taylor (2008),
Algorithm 1), the largest residual diagonal (incomplete Cholesky with pivoting,
Shawe-Taylor & Cristianini (2004), Code Fragment 5.4), uniform sampling and exact kernel PCA.

The trace left by a Nystroem approximation on columns :math:`I` is
:math:`\operatorname{tr}(K - K_{:,I}K_{I,I}^{-1}K_{I,:})`; for the greedy columns it is the
trace of the deflated kernel (Theorem 1 counts its drops).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np

import datasets
from mpcore.rpcholesky import rpcholesky
from mpcore.kernels import kernel_diag, kernel_matrix, sigma_to_gamma
from mpcore.spectrum import random_indices

from . import data as _data
from . import skpca as _skpca

__all__ = ["SKPCAScene", "skpca_scene", "data_choice", "kernel_choice", "UNIFORM_DRAWS",
           "nystrom_trace_curve"]

#: Uniform sampling is random: its trace residual is the mean over this many seeded draws.
UNIFORM_DRAWS = 20
#: The figure's height in a lesson (the page's is taller: it has a column beside it).
FIGURE_HEIGHT = 760


def data_choice(values: Mapping) -> _data.DataChoice:
    """The data a bundled-data view describes (as ``pages.common.widgets.data_choice``)."""
    return _data.DataChoice(name=values["dataset"], n_samples=values["n"],
                            noise=values.get("noise"), seed=values["seed"],
                            variance_ratio=values.get("ratio", 10.0), standardize=values["std"],
                            added=values.get("pts", ()))


def kernel_choice(values: Mapping) -> _data.KernelChoice:
    """The kernel a view describes (as ``pages.common.widgets.kernel_choice``)."""
    kernel, sigma = values["kernel"], values.get("sigma")
    if kernel == "rbf":
        gamma = sigma_to_gamma(sigma, "book")
    elif kernel == "laplacian":
        gamma = sigma_to_gamma(sigma, "laplacian")
    else:
        gamma = values.get("gamma")
    return _data.KernelChoice(kernel=kernel, gamma=gamma, degree=values.get("degree", 3),
                              coef0=values.get("coef0", 1.0), sigma=sigma)


def nystrom_trace_curve(K, order) -> np.ndarray:
    """Trace left by the Nystroem approximation on the first t columns of ``order``,
    t = 0..len(order)."""
    F = _skpca.chosen_coordinates(K, order, np.arange(len(K)))
    explained = np.concatenate([[0.0], np.cumsum(np.sum(F**2, axis=0))])
    return np.maximum(float(np.trace(K)) - explained, 0.0)


@dataclass(frozen=True, eq=False)
class SKPCAScene:
    """The sparse-KPCA page in one state: data, kernel, greedy steps and what they show.

    ``values`` are the state's field values; ``k_max`` is the most steps the page runs
    (the k slider's maximum), so the figure is the one the page draws, cut to ``k``.
    """

    values: Mapping
    k_max: int
    X: np.ndarray
    labels: np.ndarray | None
    K: np.ndarray | None
    all_steps: list

    @property
    def k(self) -> int:
        return min(int(self.values["k"]), len(self.all_steps))

    @property
    def j(self) -> int:
        """The step shown (1-based), at most the steps run."""
        return min(max(int(self.values["j"]), 1), self.k)

    @property
    def steps(self) -> list:
        """The first k steps (what the page shows at this k)."""
        return self.all_steps[: self.k]

    @property
    def m(self) -> int:
        return len(self.X)

    @property
    def exact(self) -> bool:
        """The kernel matrix is formed (not the 59-trick)."""
        return self.K is not None

    @cached_property
    def view(self) -> dict:
        return _skpca.skpca_view(self.X, self.labels, kernel_choice(self.values), self.all_steps,
                                 K=self.K, n_candidates=None if self.exact else 59)

    @cached_property
    def diag(self) -> np.ndarray:
        """K_ii of every training point."""
        if self.K is not None:
            return np.diag(self.K).copy()
        return kernel_diag(self.X, **kernel_choice(self.values).params())

    @property
    def trace0(self) -> float:
        return float(self.view["trace0"])

    def trace_after(self, t: int) -> float:
        """tr K̂ after t greedy steps (t = 0: tr K)."""
        return self.trace0 if t <= 0 else float(self.all_steps[t - 1].trace_residual)

    def chosen(self, t: int) -> list[int]:
        """The first t chosen indices."""
        return [s.index for s in self.all_steps[:t]]

    def residual_diag(self, t: int) -> np.ndarray:
        """K̂_ii after t steps."""
        return self.diag if t <= 0 else self.all_steps[t - 1].residual_diag

    # ------------------------------------------------------------ comparisons at k

    @cached_property
    def exact_curve(self) -> np.ndarray:
        return _skpca.exact_tail(_skpca.eigenvalues(self.K), len(self.all_steps))

    @cached_property
    def cholesky_curve(self) -> np.ndarray:
        return _skpca.cholesky_curve(self.K, len(self.all_steps), self.trace0)

    def rpcholesky_left(self, t: int) -> float:
        """Mean trace left by randomly pivoted Cholesky after t pivots (Chen, Epperly, Tropp &
        Webber, Algorithm 1; :data:`UNIFORM_DRAWS` seeded runs, as for uniform sampling)."""
        if t <= 0:
            return self.trace0
        seed = int(self.values["seed"])
        return float(np.mean([rpcholesky(self.K, t, random_state=seed + r).residual_trace[-1]
                              for r in range(UNIFORM_DRAWS)]))

    def uniform_left(self, t: int) -> float:
        """Mean trace left by t columns drawn uniformly at random (:data:`UNIFORM_DRAWS`
        seeded draws)."""
        if t <= 0:
            return self.trace0
        seed = int(self.values["seed"])
        # the "random" rule of mpcore.spectrum.nystrom_indices (without its PSD check per draw)
        left = [nystrom_trace_curve(self.K, random_indices(self.m, t, seed + r))[-1]
                for r in range(UNIFORM_DRAWS)]
        return float(np.mean(left))

    def shown(self, k: int | None = None, j: int | None = None) -> tuple[int, int]:
        """The steps the figure shows and the step it opens on (default: the state's),
        clamped to the steps the run made."""
        k = self.k if k is None else max(1, min(k, len(self.all_steps)))
        j = self.j if j is None else max(1, min(j, k))
        return k, j

    def figure(self) -> dict:
        """The page's animated figure (a plotly dict) over every step of the run; the app
        cuts it to the steps shown (:meth:`shown`), as the page does."""
        from mpcore.plots import skpca_animation_dict

        v = self.view
        return skpca_animation_dict(v["X2"], v["steps"], axis_labels=v["axis_labels"],
                                    trace0=v["trace0"], curves=v["curves"], heatmaps=v["heat"],
                                    heat_index=v["heat_index"], added=None,
                                    height=FIGURE_HEIGHT)


def skpca_scene(values: Mapping, k_max: int) -> SKPCAScene:
    """Compute the sparse-KPCA page's view for a state's ``values`` (bundled data only).

    Runs ``k_max`` greedy steps, as the page does for every k on its slider.
    """
    if values["dataset"] not in datasets.names():
        raise ValueError(f"A lesson shows bundled data only, not {values['dataset']!r}.")
    choice, kern = data_choice(values), kernel_choice(values)
    d = _data.load(choice)
    tr, _ = _data.split(d, values["test"], choice.seed)
    X = np.asarray(d.X[tr])
    labels = d.y[tr] if d.y is not None and d.task == "classification" else None
    trick = bool(values.get("skpca.trick"))
    K = None if trick else kernel_matrix(X, **kern.params())
    steps = _skpca.skpca_steps(X, kern, k_max, K=K, n_candidates=59 if trick else None,
                               seed=choice.seed)
    if not steps:
        raise ValueError("The greedy selection took no step: the kernel matrix is zero.")
    return SKPCAScene(values=dict(values), k_max=k_max, X=X, labels=labels, K=K, all_steps=steps)
