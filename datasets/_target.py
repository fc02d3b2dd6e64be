"""Which column of an uploaded table is its target, and the width scale of its features.

One rule for every page (the uploader asks it once per file): :func:`detect_target`.
:func:`width_scale` is the scale a Gaussian width is compared with.
"""

from __future__ import annotations

import numpy as np

__all__ = ["TARGET_NAMES", "detect_target", "width_scale", "WIDTH_SAMPLE"]

#: Column names read as the target (compared without case or surrounding blanks):
#: scikit-learn's ``frame.to_csv()`` writes ``target``; others write label, class, y...
TARGET_NAMES = ("target", "label", "labels", "class", "classes", "y", "outcome", "response",
                "species", "diagnosis")
#: Most rows :func:`width_scale` looks at (a seeded sample above it): the median of
#: WIDTH_SAMPLE * (WIDTH_SAMPLE - 1) / 2 distances is stable to a few percent.
WIDTH_SAMPLE = 400


def detect_target(columns, table=None, *, max_classes=20) -> str | None:
    """The target column of a table with header ``columns``, or None.

    A column named as in :data:`TARGET_NAMES` (the last such one); else, when ``table``
    (rows by columns) is given, the last column when it alone holds integers with 2 to
    ``max_classes`` distinct values while some other column holds non-integers (the
    layout of a labelled data set saved as features then label).
    """
    names = [str(c).strip().lower() for c in columns]
    named = [i for i, n in enumerate(names) if n in TARGET_NAMES]
    if named and len(columns) > 1:
        return columns[named[-1]]
    if table is None or len(columns) < 2:
        return None
    T = np.asarray(table, dtype=float)
    if T.ndim != 2 or T.shape[1] != len(columns) or T.shape[0] < 2:
        return None
    integer = np.all(T == np.round(T), axis=0)
    last = T[:, -1]
    if integer[-1] and not integer[:-1].all() and 2 <= np.unique(last).size <= max_classes:
        return columns[-1]
    return None


def width_scale(X, *, max_rows=WIDTH_SAMPLE, seed=0) -> float:
    """The median Euclidean distance between two rows of ``X`` (a seeded sample of at most
    ``max_rows`` rows), the scale of a Gaussian width sigma in
    ``exp(-||x - z||^2 / (2 sigma^2))``. Zero distances (duplicate rows) are left out;
    1.0 when every row is the same."""
    X = np.asarray(X, dtype=float)
    if X.ndim == 1:
        X = X[:, None]
    if X.shape[0] > max_rows:
        X = X[np.random.default_rng(seed).choice(X.shape[0], max_rows, replace=False)]
    sq = np.sum(X * X, axis=1)
    D2 = np.maximum(sq[:, None] + sq[None, :] - 2 * X @ X.T, 0.0)
    d = np.sqrt(D2[np.triu_indices(X.shape[0], 1)])
    d = d[d > 1e-12 * max(1.0, float(d.max(initial=0.0)))]
    return float(np.median(d)) if d.size else 1.0
