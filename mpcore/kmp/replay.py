r"""A fitted KMP model, step by step (Vincent & Bengio, Fig. 1 / Eq. 9 and Eq. 14).

:func:`pursuit` picks one fitted pursuit of an estimator (one per class one-vs-rest);
:func:`replay_steps` runs it again on the fit's data and returns every
:class:`~mpcore.kmp.KMPStep` with each column's selection score; :func:`basis_functions`
and :func:`staged_values` evaluate the kept steps' functions and the model after each
step at new points, as the KMP page draws them.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.base import clone
from sklearn.utils.validation import check_is_fitted

from .._arguments import _short, check_array_data, check_positive_int
from ._base import KMPPursuit, _BaseKMP
from .classifier import KMPClassifier

__all__ = ["pursuit", "replay_steps", "basis_functions", "staged_values"]


def pursuit(model, path=None) -> KMPPursuit:
    """The fitted pursuit ``path`` of a KMP estimator.

    The one place that picks a class's pursuit. A :class:`KMPRegressor` and a
    two-class :class:`KMPClassifier` have one pursuit (``path`` None or 0); a
    classifier with more classes has one per class (one-vs-rest), and ``path``
    is the class index into ``classes_``.

    Parameters
    ----------
    model : fitted KMPRegressor or KMPClassifier
    path : int or None
        Index of the pursuit; required with more than one.

    Returns
    -------
    KMPPursuit
    """
    if not isinstance(model, _BaseKMP):
        raise TypeError(f"model must be a fitted KMPClassifier or KMPRegressor, got {_short(model)}.")
    check_is_fitted(model)
    pursuits = model._pursuits()
    if len(pursuits) > 1 and path is None:
        raise ValueError("This one-vs-rest model has one pursuit per class: pass path=class index.")
    if path is None:
        return pursuits[0]
    path = check_positive_int(path, "path", minimum=0, maximum=len(pursuits) - 1)
    return pursuits[path]


def replay_steps(model, X, y, path=None):
    """Run the pursuit ``path`` of a fitted KMP estimator again and return its steps.

    The estimator keeps only what it predicts with; this gives back every
    :class:`KMPStep` of the kept steps, with ``KMPStep.scores``: the criterion
    the pursuit maximised at each step (Vincent & Bengio, Fig. 1 / Eq. 9 on the
    residue, or on the negative gradient of the loss, Eq. 8, for the other
    losses; pre-fitting scores the parts orthogonal to the chosen columns, Eq. 7).
    ``steps[n].scores`` chose ``steps[n].index``: the step n + 1 pick.

    Parameters
    ----------
    model : fitted KMPRegressor or KMPClassifier
    X, y : the data given to ``fit``
    path : int or None
        The pursuit (class index of a one-vs-rest classifier), as in :func:`pursuit`.

    Returns
    -------
    dictionary : KMPDictionary
        The dictionary of the run; ``dictionary.train_index`` indexes ``rows``.
    rows : ndarray of int
        Row of X of each point the pursuit ran on (all rows, or the part kept
        from the validation split with ``early_stopping="validation"``).
    steps : list of KMPStep
        The ``n_basis_`` kept steps of that pursuit.

    Raises
    ------
    ValueError
        When the run cannot be repeated (a random split or candidate draw without
        an integer ``random_state``), or X, y are not the data of the fit (the
        replayed choices differ from ``basis_indices_``).
    """
    p = pursuit(model, path)
    draws = model.early_stopping == "validation" or model.n_candidates is not None
    if draws and not isinstance(model.random_state, Integral):
        raise ValueError(
            "This fit drew a validation split or candidates at random: replaying it needs "
            "an integer random_state."
        )
    est = clone(model)
    if isinstance(model, KMPClassifier):
        X, y = est._validate_fit(X, y)
        classes, y_enc = np.unique(y, return_inverse=True)
        if not np.array_equal(classes, model.classes_):
            raise ValueError("y does not have the classes this model was fitted on.")
        c = 1 if classes.size == 2 else (path or 0)
        target, labels, margin = np.where(y_enc == c, 1.0, -1.0), y_enc, True
    else:
        X, y = est._validate_fit(X, y, y_numeric=True)
        target = np.asarray(check_array_data(y, "y", ndim=1), dtype=float)
        labels, margin = None, False
    su = est._setup(X, target, margin=margin, labels=labels)
    rows, dictionary = su["fit_idx"], su["dictionary"]
    steps = []
    for s in est._steps(su["D"], target[rows], dictionary, su["alpha"], su["error"]):
        if len(steps) == p.n_basis_:
            break
        steps.append(s)
    picked = np.array([rows[s.train_index] if s.train_index >= 0 else -1 for s in steps],
                      dtype=int)
    if not np.array_equal(picked, p.basis_indices_):
        raise ValueError("X and y are not the data this model was fitted on: the replayed "
                         "pursuit chose other points.")
    return dictionary, rows, steps


def basis_functions(model, X, path=None):
    r"""Value at X of the function each kept step added: shape (n, n_basis_).

    Column i is :math:`K_{s_i}(x, x_{\gamma_i})` for the kernel specification
    :math:`s_i` and training point :math:`x_{\gamma_i}` of step i, or 1 for the
    constant function, so that the model after step j is
    ``basis_functions(model, X)[:, :j] @ model.coef_path_[j - 1, :j]`` (Eq. 14).

    Parameters
    ----------
    model : fitted KMPClassifier or KMPRegressor
    X : array of shape (n, n_features)
    path : int, optional
        Class index for a one-vs-rest classifier (more than two classes).
    """
    p = pursuit(model, path)
    X = check_array_data(X, "X")
    if X.shape[1] != model.n_features_in_:
        raise ValueError(f"X has {X.shape[1]} features, but the model was fitted with "
                         f"{model.n_features_in_}.")
    # the estimator's own design matrix, so the page draws exactly what predict uses
    return model._design(X, p)


def staged_values(model, X, path=None):
    """The model's function after each kept step at X: shape (n_basis_, n).

    For a regressor these are ``staged_predict(X)``; for a binary classifier
    ``staged_decision_function(X)``; for a one-vs-rest classifier the decision
    values of class ``path`` along its own pursuit.
    """
    B = basis_functions(model, X, path)
    cp = pursuit(model, path).coef_path_
    k = cp.shape[0]
    return np.stack([B[:, : j + 1] @ cp[j, : j + 1] for j in range(k)]) if k else np.zeros((0, len(B)))
