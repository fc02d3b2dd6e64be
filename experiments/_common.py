"""What every experiment shares: the :class:`Result` it returns and small helpers."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np
import pandas as pd

import datasets

from .verdicts import worst

__all__ = ["Result", "progress_reporter", "first_argmin", "plain", "check_positive",
           "standardised_split", "MAX_REPETITIONS", "MAX_CURVE_POINTS"]


@dataclass(frozen=True)
class Result:
    """What one experiment produced.

    Attributes
    ----------
    key, title : str
    source : str
        Paper, figure or table.
    figure : plotly.graph_objects.Figure
    table : pandas.DataFrame or None
        The numbers behind the figure (or the reproduced table).
    published : dict
        Claim -> published value, as the paper states it.
    ours : dict
        Our numbers (JSON-serialisable floats and ints).
    checks : tuple of Check
    settings : frozen dataclass
        Exactly the settings used.
    notes : str
        What differs from the paper's setting, and what we chose where it is silent.
    extra_tables : dict name -> DataFrame
        Further tables (e.g. a sensitivity sweep).
    seconds : float
        Wall time of the run.
    extra_figures : dict title -> plotly.graph_objects.Figure
        Further figures, shown after the main one (e.g. a sweep of unstated settings).
    """

    key: str
    title: str
    source: str
    figure: object
    table: pd.DataFrame | None
    published: dict
    ours: dict
    checks: tuple
    settings: object
    notes: str = ""
    extra_tables: dict = field(default_factory=dict)
    seconds: float = 0.0
    extra_figures: dict = field(default_factory=dict)

    @property
    def verdict(self) -> str:
        """The worst verdict of the checks."""
        return worst(c.verdict for c in self.checks)

    @property
    def verdict_text(self) -> str:
        """One line: the verdict and the numbers behind each check."""
        return f"{self.verdict}: " + "; ".join(f"{c.claim}: {c.verdict} ({c.detail})"
                                               for c in self.checks)

    def settings_dict(self) -> dict:
        return asdict(self.settings)



def progress_reporter(callback):
    """A safe progress function (a no-op without a callback)."""
    if callback is None:
        return lambda fraction, message="": None
    return lambda fraction, message="": callback(float(min(max(fraction, 0.0), 1.0)), message)


def first_argmin(curve):
    """1-based position of the first minimum (inf and NaN count as +inf)."""
    c = np.asarray(curve, dtype=float)
    c = np.where(np.isfinite(c), c, np.inf)
    return int(np.argmin(c)) + 1


def plain(value):
    """Plain Python numbers for JSON."""
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        v = float(value)
        return v if np.isfinite(v) else None
    if isinstance(value, np.ndarray):
        return [plain(v) for v in value.tolist()]
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


#: Ceilings of the repetition counts of the settings (each repetition is a full fit).
MAX_REPETITIONS = 100
#: Ceiling of the number of points of a sampled curve.
MAX_CURVE_POINTS = 100_000


def check_positive(value, name, *, integer=False, minimum=None, maximum=None):
    ok = isinstance(value, (int, np.integer)) if integer else isinstance(value, (int, float,
                                                                                  np.number))
    if isinstance(value, (bool, np.bool_)) or not ok or not np.isfinite(value) or value <= 0:
        kind = "a positive integer" if integer else "a positive number"
        raise ValueError(f"{name} must be {kind}, got {value!r}.")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value!r}.")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be at most {maximum}, got {value!r}.")
    return value


def standardised_split(X, train, test):
    """Training and test rows of X, standardised with the training rows' statistics
    (:func:`datasets.standardize`, the app's and the snippets' standardiser)."""
    return datasets.standardize(X[train], X[test])
