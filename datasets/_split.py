"""From a data set to its standardised training and test parts: one path for the app,
its "Show the code" snippets and the paper reproductions.

- :func:`standardize`: scikit-learn's ``StandardScaler`` fitted on the given rows
  (every row, as the app shows standardised data; or the training rows only,
  applied to the test rows too, as the experiments do);
- :func:`split_indices` / :func:`split`: a seeded ``train_test_split``,
  stratified for classification whenever every class can be kept in both parts
  (:func:`can_stratify`), so ``X[train]`` is what ``train_test_split(X, ...)`` gives.
"""

from __future__ import annotations

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

__all__ = ["standardize", "can_stratify", "split_indices", "split", "STANDARDIZE"]

#: ``split(standardize=...)``: None (as loaded), "all" (every row, then split: the app),
#: "train" (scaler fitted on the training rows: the experiments).
STANDARDIZE = (None, "all", "train")


def standardize(X, X_test=None):
    """Zero mean, unit variance per feature, with the statistics of ``X``.

    Returns the standardised ``X``, or ``(X, X_test)`` with ``X_test`` scaled by
    the same statistics when it is given.
    """
    scaler = StandardScaler().fit(X)
    if X_test is None:
        return scaler.transform(X)
    return scaler.transform(X), scaler.transform(X_test)


_standardize = standardize  # for split(), whose parameter has the same name


def can_stratify(y, test_size) -> bool:
    """Whether a stratified split of ``y`` with ``test_size`` can keep every class.

    Every class needs two members and the test part at least one row per class.
    Without labels (``y`` None or empty) there is nothing to stratify by: False.
    ``test_size`` is a fraction, or a number of rows (an int), as in
    :func:`sklearn.model_selection.train_test_split`.
    """
    if y is None:
        return False  # no labels: nothing to stratify by
    y = np.asarray(y)
    if y.ndim != 1 or y.size == 0:
        return False
    _, counts = np.unique(y, return_counts=True)
    n_test = test_size if isinstance(test_size, (int, np.integer)) else int(test_size * len(y))
    return bool(counts.min() >= 2 and n_test >= len(counts))


def _check_same_length(n_samples, y):
    """y holds one label per row: a mismatch would drop labels or index past the end."""
    y = np.asarray(y)
    if y.ndim == 0:
        raise ValueError(f"y must hold one label per row of X, got the single value {y.item()!r}.")
    n_y = y.shape[0]
    if n_y != n_samples:
        raise ValueError(
            f"X and y must have the same number of rows: X has {n_samples}, y has {n_y}. "
            "Pass the labels of exactly the rows of X."
        )


def split_indices(n_samples, y=None, *, test_size, random_state=0, stratify=False):
    """Seeded training and test row indices, in ``train_test_split``'s order.

    ``stratify=True`` stratifies by ``y`` when :func:`can_stratify` allows it
    (classification labels), else the split is plain.
    """
    if y is not None:
        _check_same_length(n_samples, y)
    idx = np.arange(n_samples)
    strat = y if stratify and y is not None and can_stratify(y, test_size) else None
    return tuple(train_test_split(idx, test_size=test_size, random_state=random_state,
                                  stratify=strat))


def split(X, y=None, *, test_size, random_state=0, stratify=False, standardize=None):
    """Training and test parts of ``X`` (and ``y``), standardised as asked.

    Parameters
    ----------
    X : array of shape (n, d)
    y : array of shape (n,), optional
    test_size : float or int
        Fraction or number of test rows.
    random_state : int
    stratify : bool
        Stratify by ``y`` when every class can be kept (classification).
    standardize : {None, "all", "train"}
        See :data:`STANDARDIZE`.

    Returns
    -------
    X_train, X_test[, y_train, y_test]
    """
    if standardize not in STANDARDIZE:
        raise ValueError(f"standardize must be one of {STANDARDIZE}, got {standardize!r}.")
    X = np.asarray(X, dtype=float)
    if X.ndim == 0:
        raise ValueError(f"X must be an array of rows, got the single value {X.item()!r}.")
    if y is not None:
        _check_same_length(len(X), y)
    bad = ~np.isfinite(X)
    if bad.any():
        row = int(np.argwhere(bad)[0][0])
        raise ValueError(
            f"X holds {int(bad.sum())} NaN or infinite value(s) (the first in row {row}). "
            "Remove or fill in those rows before splitting."
        )
    if standardize == "all":
        X = _standardize(X)
    tr, te = split_indices(len(X), y, test_size=test_size, random_state=random_state,
                           stratify=stratify)
    X_tr, X_te = X[tr], X[te]
    if standardize == "train":
        X_tr, X_te = _standardize(X_tr, X_te)
    if y is None:
        return X_tr, X_te
    y = np.asarray(y)
    return X_tr, X_te, y[tr], y[te]
