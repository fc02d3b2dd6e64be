"""Predict the next pick on the kernel matching pursuit page: every candidate's score.

The scores are the pursuit's own (:func:`mpcore.kmp.replay_steps`): for every loss,
fitting and dictionary, step n + 1 takes the column with the largest
|<d, R>| / ||d|| (Vincent & Bengio, Fig. 1 / Eq. 9), where R is the residue
y - f for the squared loss and the negative gradient -dL/df of the loss otherwise
(Eq. 8); pre-fitting scores the part of d orthogonal to the chosen columns (Eq. 7).
A training point's score is that of its best column (with a mixed dictionary it is
the centre of one column per kernel). Kept apart from :mod:`views.kmp` (its figures
and runs); needs only a fitted estimator and its training data.
"""

from __future__ import annotations

import numpy as np

from mpcore.kmp import KMPClassifier, replay_steps

__all__ = ["pick_scores", "criterion", "reveal_lines"]


def _path(model, cls):
    multi = isinstance(model, KMPClassifier) and len(model.estimators_) > 1
    return (cls or 0) if multi else None


def pick_scores(model, X, y, cls: int | None = None) -> dict:
    """Per kept step, the score of every training point and of the constant function.

    Returns
    -------
    dict with
        point : ndarray (k, m)
            Row n: each training point's best column score when step n + 1 was chosen
            (NaN: no column of that point could be chosen, e.g. held out for
            validation, already chosen, or spanned).
        kernel : ndarray of int (k, m)
            Kernel specification of that best column (-1 where there is none).
        constant : ndarray (k,)
            The constant function's score (NaN without one).
        chosen : ndarray (k,)
            The chosen column's score (the largest of its row).
        candidate : ndarray of bool (m,)
            Training points with a column in the dictionary.
    """
    dictionary, rows, steps = replay_steps(model, X, y, _path(model, cls))
    m, k = np.asarray(X).shape[0], len(steps)
    ti, ki = np.asarray(dictionary.train_index), np.asarray(dictionary.kernel_index)
    point, kern = np.full((k, m), np.nan), np.full((k, m), -1, dtype=int)
    const, chosen = np.full(k, np.nan), np.empty(k)
    candidate = np.zeros(m, dtype=bool)
    candidate[rows[ti[ti >= 0]]] = True
    for n, s in enumerate(steps):
        sc = np.asarray(s.scores, dtype=float)
        chosen[n] = sc[s.index]
        if np.any(ti < 0):
            const[n] = np.nanmax(sc[ti < 0]) if np.any(np.isfinite(sc[ti < 0])) else np.nan
        for spec in np.unique(ki[ti >= 0]):
            cols = np.flatnonzero((ki == spec) & (ti >= 0))
            where, val = rows[ti[cols]], sc[cols]
            better = np.isfinite(val) & ~(point[n, where] >= val)
            point[n, where[better]] = val[better]
            kern[n, where[better]] = spec
    return dict(point=point, kernel=kern, constant=const, chosen=chosen, candidate=candidate)


def criterion(loss: str, fitting: str) -> str:
    """The greedy criterion of the page's settings, in words (plain text)."""
    if loss == "squared":
        what = "Collinearity with the residue R = y − f (squared: the drop in ‖R‖² alone)."
    else:
        what = (f"Collinearity with the negative gradient R = −∂L/∂f of the {loss} loss "
                "(Eq. 8); a line search sets the weight (Eq. 10).")
    if fitting == "prefit":
        what += " Pre-fitting: the parts orthogonal to the chosen (Eq. 7)."
    return what


def reveal_lines(sc: dict, j: int, guess: int, actual: int, *, loss: str, fitting: str,
                 chosen_before, spec_labels=()) -> list[str]:
    """What the quiz says after a guess of step j + 1 (1-based j, the step shown): a
    headline (the guess, the pick, "Right!"), both scores, then the criterion in words.

    ``actual`` is the training index added at step j + 1 (-1: the constant);
    ``chosen_before`` the training indices of steps 1..j.
    """
    n = j  # row j of the scores chose step j + 1
    name = "the constant function" if actual < 0 else f"K(·, x_{actual})"
    lines = [f"Step {j + 1}: you guessed i = {guess}, the pursuit added {name}."
             + (" Right!" if guess == actual else "")]
    best = float(sc["constant"][n] if actual < 0 else sc["chosen"][n])
    g = float(sc["point"][n, guess])
    if g != g:
        if not sc["candidate"][guess]:
            yours = ("not a candidate (held out as the 20% validation part of early "
                     "stopping)")
        elif fitting != "basic" and guess in set(int(i) for i in chosen_before):
            yours = "not a candidate (already chosen: back- and pre-fitting never repeat one)"
        else:
            yours = "undefined (its function is already spanned by the chosen ones)"
    else:
        yours = f"{g:.4g}" + (f" ({g / best:.0%})" if best > 0 else "")
        if len(spec_labels) > 1 and sc["kernel"][n, guess] >= 0:
            yours += f" with {spec_labels[int(sc['kernel'][n, guess])]}"
    lines.append(f"|⟨d, R⟩| / ‖d‖: chosen {best:.4g}, yours {yours}.")
    lines.append(criterion(loss, fitting))
    return lines
