"""Data sets for the matching-pursuit app and notebooks, all available offline.

``two_view(n_samples, noise, random_state)`` returns two paired views of one
latent variable (for sparse kernel CCA). ``names()`` lists the others,
``load(name, ...)`` returns a frozen :class:`Dataset`
whose arrays are read-only, and ``from_csv(file, ...)`` reads a user's numeric
CSV with a ValueError that says what to fix for every malformed input.

Limits of ``from_csv``: at most ``MAX_ROWS`` data rows, ``MAX_COLS`` columns
and ``MAX_BYTES`` bytes.

``standardize`` and ``split`` (see :mod:`datasets._split`) take a data set to its
standardised training and test parts: the one path of the app, its "Show the code"
snippets and the experiments.
"""

from __future__ import annotations

import numbers
import os
import warnings as _warnings
from dataclasses import dataclass, field
from importlib import resources

import numpy as np
from sklearn.utils import check_random_state

from . import _synthetic
from ._csv import MAX_BYTES, MAX_COLS, MAX_ROWS, Note, read_csv
from ._registry import REGISTRY
from ._target import TARGET_NAMES, detect_target, width_scale
from ._split import STANDARDIZE, can_stratify, split, split_indices, standardize
from ._two_view import two_view

__all__ = ["detect_target", "width_scale", "TARGET_NAMES", "Dataset", "Note", "DataWarning", "names", "load", "from_csv", "info", "two_view",
           "MAX_ROWS", "MAX_COLS", "MAX_BYTES", "MAX_TOY_FEATURES", "MAX_SEED",
           "standardize", "can_stratify", "split_indices", "split", "STANDARDIZE"]

#: Largest ``n_features`` of the gaussian_toy generator (it draws a random
#: orthogonal n_features x n_features matrix).
MAX_TOY_FEATURES = 2000
#: Seeds are integers in [0, MAX_SEED] (numpy's RandomState range).
MAX_SEED = 2**32 - 1


class DataWarning(UserWarning):
    """Something :func:`from_csv` changed or noticed (also in ``Dataset.notes``)."""


@dataclass(frozen=True)
class Dataset:
    """A data set: features ``X`` (n, d), target ``y`` (n,) or None, and its story.

    ``task`` is "classification", "regression", or "unsupervised" (y is None).
    Arrays are read-only so cached copies cannot be mutated by accident.
    ``warnings`` holds sentences to show a person (what :func:`from_csv` changed or
    noticed); ``notes`` the same as :class:`Note` records (``kind``, ``message``,
    ``columns``, ``count``) for programs.
    """

    X: np.ndarray
    y: np.ndarray | None
    task: str
    name: str
    description: str
    source: str
    feature_names: tuple = ()
    target_name: str | None = None
    warnings: tuple = field(default=())
    notes: tuple = field(default=())

    def __post_init__(self):
        for a in (self.X, self.y):
            if a is not None:
                a.setflags(write=False)

    @property
    def n_samples(self) -> int:
        return self.X.shape[0]

    @property
    def n_features(self) -> int:
        return self.X.shape[1]


def names(*, experiments=False):
    """Names of the data sets the pages offer, in display order.

    ``experiments=True`` adds the tables kept for the paper reproductions only
    (Vincent & Bengio's Table 3: wisconsin_original, sonar, pima, ionosphere).
    :func:`load` accepts every one of them.
    """
    return [n for n, e in REGISTRY.items() if experiments or e.on_pages]


def info(name):
    """Registry entry of ``name``: task, kind, defaults, limits, description, source."""
    if not isinstance(name, str) or name not in REGISTRY:
        raise ValueError(f"Unknown data set {name!r}. Choose one of: {', '.join(REGISTRY)}.")
    return REGISTRY[name]


def _boston():
    path = resources.files(__package__).joinpath("data", "boston.csv")
    with path.open("r", encoding="utf-8") as fh:
        header = fh.readline().strip().split(",")
        table = np.loadtxt(fh, delimiter=",")
    return table[:, :-1], table[:, -1], tuple(header[:-1]), header[-1]


def _table(name):
    """A shipped UCI table: features, integer class (last column); rows with an empty
    cell (Wisconsin's 16 missing 'bare nuclei') are dropped; an id column is left out."""
    path = resources.files(__package__).joinpath("data", REGISTRY[name].file)
    with path.open("r", encoding="utf-8") as fh:
        header = fh.readline().strip().split(",")
        table = np.genfromtxt(fh, delimiter=",", dtype=float)
    table = table[~np.isnan(table).any(axis=1)]
    first = 1 if header[0] == "sample_id" else 0
    return table[:, first:-1], table[:, -1].astype(int), tuple(header[first:-1]), header[-1]


def _sklearn_bundled(name):
    from sklearn import datasets as skd

    loader = {"breast_cancer": skd.load_breast_cancer, "digits": skd.load_digits,
              "diabetes": skd.load_diabetes}[name]
    b = loader()
    feats = tuple(str(f) for f in getattr(b, "feature_names", [])) or tuple(
        f"x{i}" for i in range(b.data.shape[1])
    )
    return b.data.astype(float), b.target, feats, "target"


def load(name, *, n_samples=None, noise=None, random_state=0, **options):
    """Load data set ``name``.

    Parameters
    ----------
    name : str
        One of :func:`names`.
    n_samples : int, optional
        Generators: the number of points (default per data set). Bundled
        tables: a seeded random subset of that size (all rows when None).
    noise : float, optional
        Generators' noise level (ignored by bundled tables and gaussian_toy).
    random_state : int
        Seed for generation and subsetting.
    **options
        ``gaussian_toy`` only: ``variance_ratio`` (default 10), ``n_features``
        (450), ``n_dominant`` (50).
    """
    entry = info(name)
    if isinstance(random_state, (bool, np.bool_)) or not isinstance(random_state, numbers.Integral):
        raise ValueError(f"random_state must be an integer seed, got {random_state!r}.")
    if not 0 <= random_state <= MAX_SEED:
        raise ValueError(f"random_state must lie between 0 and {MAX_SEED}, got {random_state}.")
    if n_samples is not None:
        if isinstance(n_samples, (bool, np.bool_)) or not isinstance(n_samples, numbers.Integral):
            raise ValueError(f"n_samples must be an integer, got {n_samples!r}.")
        hi = entry.max_n if entry.kind == "synthetic" else entry.default_n
        if not entry.min_n <= n_samples <= hi:
            raise ValueError(
                f"n_samples for {name!r} must be between {entry.min_n} and {hi}, got {n_samples}."
            )
    if noise is not None:
        if (isinstance(noise, (bool, np.bool_)) or not isinstance(noise, numbers.Real)
                or not np.isfinite(float(noise)) or noise < 0):
            raise ValueError(f"noise must be a finite number >= 0, got {noise!r}.")
        if noise > 1e6:
            raise ValueError(f"noise must be <= 1e6 (the data lie within about +-10), got {noise!r}.")
    allowed = {"variance_ratio", "n_features", "n_dominant"} if name == "gaussian_toy" else set()
    unknown = set(options) - allowed
    if unknown:
        raise ValueError(f"Unknown option(s) for {name!r}: {', '.join(sorted(unknown))}.")
    feats, target_name, y = (), None, None
    n = entry.default_n if n_samples is None else int(n_samples)
    if name == "gaussian_toy":
        ratio = options.get("variance_ratio", 10.0)
        if (isinstance(ratio, (bool, np.bool_)) or not isinstance(ratio, numbers.Real)
                or not np.isfinite(float(ratio)) or ratio <= 0 or ratio > 1e12):
            raise ValueError(f"variance_ratio must be a finite number in (0, 1e12], got {ratio!r}.")
        n_features = _check_count(options.get("n_features", 450), "n_features", 1,
                                  MAX_TOY_FEATURES)
        n_dominant = _check_count(options.get("n_dominant", 50), "n_dominant", 0, n_features)
        X = _synthetic.gaussian_toy(
            n, float(ratio), random_state, n_features=n_features, n_dominant=n_dominant,
        )
    elif entry.kind == "synthetic":
        # + 0.0 turns -0.0 into 0.0 (numpy's normal refuses a negative-signed scale)
        X, y = entry.generator(n, entry.default_noise if noise is None else float(noise) + 0.0,
                               random_state)
        feats = tuple(f"x{i + 1}" for i in range(X.shape[1]))
        target_name = "y"
    else:
        X, y, feats, target_name = (_boston() if name == "boston" else
                                    _table(name) if entry.file else _sklearn_bundled(name))
        if n_samples is not None and n_samples < X.shape[0]:
            keep = np.sort(check_random_state(random_state).choice(X.shape[0], n, replace=False))
            X, y = X[keep], y[keep]
    X = np.ascontiguousarray(X, dtype=float)
    if y is not None:
        y = np.asarray(y, dtype=int if entry.task == "classification" else float)
    return Dataset(X=X, y=y, task=entry.task, name=name, description=entry.description,
                   source=entry.source, feature_names=tuple(feats), target_name=target_name)


def _check_count(value, name, minimum, maximum):
    """An integer option in [minimum, maximum] (a negative count would silently mean
    "all but the last few" in a slice, so it is refused)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}.")
    if not minimum <= value <= maximum:
        raise ValueError(f"{name} must lie between {minimum} and {maximum}, got {value}.")
    return int(value)


def from_csv(file, *, target=None, max_rows=MAX_ROWS, max_cols=MAX_COLS, max_bytes=MAX_BYTES,
             task=None):
    """Read a numeric CSV (header row required) into a :class:`Dataset`.

    Any line ending is accepted (Windows CR LF, Unix LF, old Mac CR), and UTF-8, UTF-16
    or UTF-32 text. Values are separated by commas, or by ';', tabs or '|' when commas do
    not make a table (noted). Integer class
    labels are read exactly (labels beyond the 64-bit range are refused, as are
    decimal-written labels beyond 2**53). What the reader changed or noticed (dropped
    constant columns, duplicate rows) is returned in ``Dataset.warnings`` (sentences)
    and ``Dataset.notes`` (:class:`Note` records), and also issued as
    :class:`DataWarning` through :mod:`warnings`.

    Parameters
    ----------
    file : path (str or pathlib.Path), bytes or binary file object
    target : str, optional
        Name of the target column; the rest are features.
    max_rows, max_cols, max_bytes : int
        Limits (defaults ``MAX_ROWS`` = 5000 rows, ``MAX_COLS`` = 100 columns,
        ``MAX_BYTES`` = 5 MB).
    task : {"classification", "regression"}, optional
        Inferred when None: a target with at most 20 distinct integer values
        is a classification target.

    Raises
    ------
    ValueError
        With a message saying what to change: empty file, header only, binary
        or undecodable content, a blank header row above a row of numbers (that row
        would be lost as column names), empty cells, non-numeric values, NaN/inf, values
        beyond 1e150, formula-looking cells, ragged rows, too large, one row,
        all-constant columns, labels beyond the integer range.
    TypeError
        When ``file``, ``target`` or a limit has the wrong type.
    """
    if task is not None and (not isinstance(task, str)
                             or task not in ("classification", "regression")):
        raise ValueError(f"task must be 'classification', 'regression' or None, got {task!r}.")
    X, y, feats, target_name, notes, (labels, problem) = read_csv(
        file, target=target, max_rows=max_rows, max_cols=max_cols, max_bytes=max_bytes
    )
    n_classes = None if labels is None else len(set(labels))
    if y is None:
        inferred = "unsupervised"
    elif task is not None:
        inferred = task
    else:
        inferred = "classification" if n_classes is not None and n_classes <= 20 else "regression"
    if inferred == "classification":
        if labels is None:
            raise ValueError(f"Target {target!r} has non-integer values; it cannot be class labels.")
        if problem is not None:
            raise ValueError(problem)
        if n_classes < 2:
            raise ValueError(f"Target {target!r} has only one class; classification needs two.")
        y = np.array(labels, dtype=np.int64)
    if isinstance(file, (str, os.PathLike)):
        name = os.path.basename(os.fspath(file)) or os.fspath(file)
    else:
        name = getattr(file, "name", None) or "uploaded CSV"
    for note in notes:
        _warnings.warn(note.message, DataWarning, stacklevel=2)
    return Dataset(X=np.ascontiguousarray(X), y=y, task=inferred, name=str(name),
                   description=f"Uploaded CSV: {X.shape[0]} rows, {X.shape[1]} feature column(s).",
                   source="user upload", feature_names=tuple(feats), target_name=target_name,
                   warnings=tuple(n.message for n in notes), notes=tuple(notes))
