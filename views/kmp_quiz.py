"""Predict the next pick on the kernel matching pursuit page: every candidate's score.

Kept apart from :mod:`views.kmp` (its figures and runs); needs only a fitted estimator.
"""

from __future__ import annotations

import numpy as np

from mpcore.kernels import kernel_matrix
from mpcore.kmp import KMPClassifier

from .data import KernelChoice
from .kmp import path_of

__all__ = ["next_pick_scores"]


def next_pick_scores(model, X, y, kern: KernelChoice, fitting: str, j: int,
                     cls: int | None = None):
    """How well every training point's kernel function matches the residue before step j + 1.

    For the squared loss with one kernel: the residue is R = t - f_j on the training rows
    (t the target: y, or +1 / -1 for the displayed class), and a candidate's score is
    its collinearity with R, |<d, R>| / ||d|| (basic and back-fitting, Vincent & Bengio
    Eq. 3), or that of its part orthogonal to the chosen functions (pre-fitting, Eq. 7).
    Its square is how much adding that function alone would lower ||R||².

    Returns
    -------
    scores : ndarray of shape (m,)
        One per training point (NaN where the score is undefined).
    constant : float
        The constant function's score (NaN without an intercept).
    """
    X = np.asarray(X, dtype=float)
    m = X.shape[0]
    path = path_of(model, cls)
    basis = np.asarray(path.basis_indices_[:j], dtype=int)
    if isinstance(model, KMPClassifier):
        classes = model.classes_
        dec = np.asarray(list(model.staged_decision_function(X)))
        if dec.ndim == 3:
            c = 0 if cls is None else cls
            f, t = dec[j - 1][:, c], np.where(np.asarray(y) == classes[c], 1.0, -1.0)
        else:
            f, t = dec[j - 1], np.where(np.asarray(y) == classes[1], 1.0, -1.0)
    else:
        f = np.asarray(list(model.staged_predict(X)))[j - 1]
        t = np.asarray(y, dtype=float)
    R = t - f
    D = np.hstack([kernel_matrix(X, X, **kern.params()), np.ones((m, 1))])
    if fitting == "prefit" and basis.size:
        cols = np.where(basis < 0, m, basis)
        Q, _ = np.linalg.qr(D[:, cols])
        D = D - Q @ (Q.T @ D)
    norms = np.linalg.norm(D, axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        score = np.abs(D.T @ R) / norms
    score[norms <= 1e-10 * max(norms.max(), 1e-300)] = np.nan
    return score[:m], float(score[m])
