r"""What a lesson's beat shows on the eigenvalue page, computed from the beat's field values.

The page's own run (:func:`views.spectrum.compare_methods` on the kernel matrix of the
whole data set) and two of its figures (:func:`mpcore.plots.scree_figure_dict` and
:func:`mpcore.plots.angles_figure_dict`): the top eigenvalues of K against Nystroem on k
columns (Hussain & Shawe-Taylor (2008), Eq. 5; three rules choose the columns) and the
sketched empirical kernel map of Marukatat (2016), Algorithm 1, whose error Eq. 3 bounds:
:math:`|\lambda_i^2 - \tilde\lambda_i| \le \|E\|_2` with :math:`K^2 = Z'Z + E`.

The run's times are measured once per scene and differ from run to run: no question is
scored on them (the cost questions count kernel entries and operations instead).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np

import datasets
from mpcore import validated_kernel
from mpcore.kernels import kernel_matrix
from mpcore.plots import EKM_SERIES, EXACT, NYSTROM_SERIES

from . import data as _data
from . import spectrum as _spectrum
from .lesson_scene import data_choice, kernel_choice

__all__ = ["SpectrumScene", "spectrum_scene", "APPROXIMATIONS"]

#: The approximations the page compares, by their series names (Nystroem rules, then sketches).
APPROXIMATIONS = (*NYSTROM_SERIES.values(), *EKM_SERIES.values())
SCREE_HEIGHT, ANGLES_HEIGHT = 460, 330


@dataclass(frozen=True, eq=False)
class SpectrumScene:
    """The eigenvalue page in one state: K, its exact spectrum and the page's run."""

    values: Mapping
    K: np.ndarray
    run: dict

    @property
    def m(self) -> int:
        return int(self.K.shape[0])

    @property
    def k(self) -> int:
        return int(self.values["k"])

    @property
    def q(self) -> int:
        return int(self.values["spectrum.q"])

    @property
    def n(self) -> int:
        """How many top eigenvalues are compared (those not zero to rounding)."""
        return int(self.run["n_compared"])

    @cached_property
    def exact(self) -> np.ndarray:
        """The exact top n eigenvalues."""
        return np.asarray(self.run["top"]["dense eigh (all m)"][: self.n], dtype=float)

    def top(self, name: str) -> np.ndarray:
        """A method's estimates of the top n eigenvalues."""
        return np.asarray(self.run["top"][name][: self.n], dtype=float)

    @cached_property
    def errors(self) -> dict[str, float]:
        """Approximation -> its largest relative error over the top n (the table's column)."""
        at = _spectrum.errors_at(self.run)
        return {name: float(at[name]) for name in APPROXIMATIONS}

    @cached_property
    def angles(self) -> dict[str, float]:
        """Approximation -> the largest principal angle (degrees) between its top
        eigenvectors and the exact ones (NaN if it has none)."""
        return {name: float(self.run["angles"][name][0]) for name in APPROXIMATIONS}

    def figures(self, narrow: bool = False) -> list[tuple[str, dict]]:
        """The page's scree plot and angles chart (``narrow``: laid out for a phone, as the
        page lays them out)."""
        from mpcore.plots import angles_figure_dict, scree_figure_dict

        run = self.run
        approx = {n: v for n, v in run["scree"].items() if n != EXACT}
        return [("scree", scree_figure_dict(
                    run["scree"][EXACT], approx, n_compared=self.n, k=self.k, q=self.q,
                    height=SCREE_HEIGHT, narrow=narrow)),
                ("angles", angles_figure_dict(run["angles"], n_eig=self.n,
                                              height=ANGLES_HEIGHT, narrow=narrow))]

    def caption(self) -> str:
        return (f"Top: the scree plot, eigenvalue λᵢ of K (log scale) against its rank i, m = "
                f"{self.m}. Black: exact (dense eigh); blue, sky blue dashed, green dotted, purple "
                f"dash-dot: Nyström on k = {self.k} columns chosen by sparse KPCA, at random, by "
                f"Cholesky pivots, by randomly pivoted Cholesky; vermillion, orange dashed: the EKM with a Gaussian and a count sketch "
                f"of size q = {self.q}; vertical lines at i = k and i = q. Shaded: the top "
                f"{self.n} compared. Bottom: each method's largest angle between its top-{self.n} "
                "eigenvectors and the exact ones (0° is the same subspace, 90° misses a "
                "direction).")


def spectrum_scene(values: Mapping, k_max: int = 0) -> SpectrumScene:
    """Compute the eigenvalue page's run for a state's ``values`` (bundled data only; the
    page uses every point, no split); ``k_max`` is unused."""
    if values["dataset"] not in datasets.names():
        raise ValueError(f"A lesson shows bundled data only, not {values['dataset']!r}.")
    choice, kern = data_choice(values), kernel_choice(values)
    X = np.asarray(_data.load(choice).X)
    K = validated_kernel(kernel_matrix(X, **kern.params()))
    run = _spectrum.compare_methods(K, choice.seed, int(values["k"]), int(values["spectrum.q"]),
                                    int(values["spectrum.n_eig"]))
    return SpectrumScene(values=dict(values), K=K, run=run)
