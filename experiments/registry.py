"""The registry of experiments, one per published figure or table, and the runner."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

from ._common import Result, progress_reporter
from .hussain_shawe_taylor import (
    HST,
    BostonBoundsSettings,
    KMPBoundSettings,
    ToyBoundsSettings,
    hst_fig1_boston,
    hst_fig1_toy,
    hst_fig2_kmp,
)
from .marukatat import MARUKATAT, SketchSettings, marukatat_ekm
from .vincent_bengio import (
    VB,
    CancerSettings,
    DigitsSettings,
    FittingsSettings,
    IonosphereSettings,
    LossSettings,
    PimaSettings,
    SonarSettings,
    TanhSettings,
    vb_fig5_losses,
    vb_fig6_fittings,
    vb_fig7_tanh,
    vb_table1_digits,
    vb_table3_cancer,
    vb_table3_ionosphere,
    vb_table3_pima,
    vb_table3_sonar,
)

__all__ = ["Experiment", "EXPERIMENTS", "run_experiment", "run_all"]


@dataclass(frozen=True)
class Experiment:
    """An entry of :data:`EXPERIMENTS`.

    Attributes
    ----------
    key, title, source : str
    run : callable (settings=None, quick=False, progress=None) -> Result
    settings_cls : type
        Frozen dataclass; ``settings_cls()`` is the full run, ``settings_cls.quick()``
        the reduced one.
    controls : tuple of (field, label, options)
        Settings a page may offer (the same default in the full and the quick run).
    weight : float
        Rough share of the full run's time (for the overall progress bar).
    short : str
        A short label ("H&S-T Fig. 1 left") for tables.
    """

    key: str
    title: str
    source: str
    run: Callable
    settings_cls: type
    controls: tuple = ()
    weight: float = 1.0
    short: str = ""

    def default_settings(self, quick=False):
        return self.settings_cls.quick() if quick else self.settings_cls()


_SIGMAS = (0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 7.0)
EXPERIMENTS = {e.key: e for e in (
    Experiment("hst_fig1_boston", "Sparse KPCA bounds on Boston housing", f"{HST}, Figure 1 left",
               hst_fig1_boston, BostonBoundsSettings,
               (("sigma", "Gaussian width σ", _SIGMAS), ("seed", "Split seed", tuple(range(10)))),
               1.0, short="H&S-T Fig. 1 left"),
    Experiment("hst_fig1_toy", "Sparse KPCA bounds on the Gaussian toy", f"{HST}, Figure 1 right",
               hst_fig1_toy, ToyBoundsSettings,
               (("variance_ratio", "Variance ratio of the 50 directions",
                 (10.0, 30.0, 100.0, 200.0, 300.0, 500.0, 1000.0)),
                ("seed", "Data seed", tuple(range(10)))), 20.0, short="H&S-T Fig. 1 right"),
    Experiment("hst_fig2_kmp", "KMP error and Theorem 3 bound on Boston", f"{HST}, Figure 2",
               hst_fig2_kmp, KMPBoundSettings,
               (("sigma", "Gaussian width σ", _SIGMAS),
                ("alpha_std", "Threshold α (standard deviations of y)", (0.1, 0.25, 0.5, 1.0)),
                ("seed", "Split seed", tuple(range(10)))), 3.0, short="H&S-T Fig. 2"),
    Experiment("vb_fig5_losses", "Loss functions of the margin", f"{VB}, Figure 5",
               vb_fig5_losses, LossSettings, (), 0.1, short="V&B Fig. 5"),
    Experiment("vb_fig6_fittings", "Basic, back-fitting, pre-fitting KMP vs SVM",
               f"{VB}, Figure 6", vb_fig6_fittings, FittingsSettings,
               (("sigma", "Gaussian width σ (exp(−‖x−z‖²/σ²))", (0.3, 0.5, 0.7, 1.0, 1.5, 2.0)),
                ("noise", "Noise", (0.0, 0.05, 0.1, 0.15, 0.2, 0.3)),
                ("seed", "Data seed", tuple(range(10)))), 1.0, short="V&B Fig. 6"),
    Experiment("vb_fig7_tanh", "Squared vs tanh loss vs SVM, linear kernel", f"{VB}, Figure 7",
               vb_fig7_tanh, TanhSettings,
               (("noise", "Cluster noise", (0.1, 0.2, 0.3, 0.4, 0.5)),
                ("seed", "Data seed", tuple(range(10)))), 0.5, short="V&B Fig. 7"),
    Experiment("vb_table3_cancer", "Wisconsin breast cancer: SVM vs KMP-mse vs KMP-tanh",
               f"{VB}, Table 3", vb_table3_cancer, CancerSettings,
               (("sigma", "Gaussian width σ (exp(−‖x−z‖²/σ²); the paper's: 4)",
                 (2.0, 3.0, 4.0, 6.0, 8.0)),
                ("seed", "Split seed", tuple(range(10)))), 20.0, short="V&B Table 3 Wisc."),
    Experiment("vb_table3_sonar", "Sonar: SVM vs KMP-mse vs KMP-tanh", f"{VB}, Table 3",
               vb_table3_sonar, SonarSettings,
               (("sigma", "Gaussian width σ (exp(−‖x−z‖²/σ²); the paper's: 2)",
                 (1.0, 1.5, 2.0, 3.0, 4.0)),
                ("seed", "Split seed", tuple(range(10)))), 6.0, short="V&B Table 3 Sonar"),
    Experiment("vb_table3_pima", "Pima Indians diabetes: SVM vs KMP-mse vs KMP-tanh",
               f"{VB}, Table 3", vb_table3_pima, PimaSettings,
               (("sigma", "Gaussian width σ (exp(−‖x−z‖²/σ²); the paper's: 6)",
                 (3.0, 4.0, 6.0, 8.0, 12.0)),
                ("seed", "Split seed", tuple(range(10)))), 25.0, short="V&B Table 3 Pima"),
    Experiment("vb_table3_ionosphere", "Ionosphere: SVM vs KMP-mse vs KMP-tanh",
               f"{VB}, Table 3", vb_table3_ionosphere, IonosphereSettings,
               (("sigma", "Gaussian width σ (exp(−‖x−z‖²/σ²); the paper's: 2)",
                 (1.0, 1.5, 2.0, 3.0, 4.0)),
                ("seed", "Split seed", tuple(range(10)))), 15.0, short="V&B Table 3 Iono."),
    Experiment("vb_table1_digits", "Digits one-vs-rest, for USPS", f"{VB}, Table 1",
               vb_table1_digits, DigitsSettings,
               (("width", "Kernel width c (exp(−‖x−z‖²/(c·64)))", (0.1, 0.2, 0.3, 0.5, 1.0)),
                ("C", "SVM C", (1.0, 10.0, 100.0)), ("seed", "Split seed", tuple(range(10)))),
               15.0, short="V&B Table 1"),
    Experiment("marukatat_ekm", "EKM with Gaussian and count sketches", f"{MARUKATAT}",
               marukatat_ekm, SketchSettings,
               (("n_eig", "Eigenpairs compared", (2, 3, 5, 8, 10)),
                ("seed", "Seed", tuple(range(10)))), 8.0, short="Marukatat Alg. 1"),
)}


def run_experiment(key, settings=None, *, quick=False, progress=None) -> Result:
    """Run one experiment of :data:`EXPERIMENTS` and time it.

    Parameters
    ----------
    key : str
        A key of :data:`EXPERIMENTS`.
    settings : frozen dataclass, optional
        An instance of the experiment's settings class (default: its full-run
        defaults, or the reduced ones with ``quick=True``).
    quick : bool
    progress : callable (fraction, message), optional

    Returns
    -------
    Result
    """
    if key not in EXPERIMENTS:
        raise ValueError(f"Unknown experiment {key!r}. Choose one of: {', '.join(EXPERIMENTS)}.")
    exp = EXPERIMENTS[key]
    if settings is None:
        settings = exp.default_settings(quick)
    if not isinstance(settings, exp.settings_cls):
        raise TypeError(f"{key} takes {exp.settings_cls.__name__} settings, got "
                        f"{type(settings).__name__}.")
    start = time.perf_counter()
    result = exp.run(settings, quick, progress)
    return replace(result, seconds=time.perf_counter() - start)


def run_all(*, quick=False, only=None, progress=None, settings=None) -> list:
    """Run every experiment (or those in ``only``), in registry order.

    ``progress(fraction, message)`` receives the overall fraction;
    ``settings`` maps a key to the settings to use instead of the defaults.
    """
    keys = list(EXPERIMENTS) if not only else list(only)
    for k in keys:
        if k not in EXPERIMENTS:
            raise ValueError(f"Unknown experiment {k!r}. Choose among: {', '.join(EXPERIMENTS)}.")
    weights = np.array([EXPERIMENTS[k].weight for k in keys], dtype=float)
    starts = np.concatenate([[0.0], np.cumsum(weights)]) / weights.sum()
    report = progress_reporter(progress)
    results = []
    for i, k in enumerate(keys):
        lo, hi = starts[i], starts[i + 1]
        sub = lambda f, msg, lo=lo, hi=hi, i=i: report(lo + (hi - lo) * f,
                                                        f"[{i + 1}/{len(keys)}] {msg}")
        results.append(run_experiment(k, (settings or {}).get(k), quick=quick, progress=sub))
    report(1.0, "done")
    return results
