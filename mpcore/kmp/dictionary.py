r"""The KMP dictionary: kernel columns centred on training points (Vincent & Bengio,
Section 4.1).

Column j of the dictionary is one kernel specification (:mod:`mpcore.kmp.specs`)
centred on one candidate training point, every training point or a random subset of
them; with ``fit_intercept`` the last column is the constant function, the bias b of
Eq. 14. :meth:`KMPDictionary.evaluate` gives the matrix the pursuit runs on.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._arguments import (
    check_array_data,
    check_bool,
    check_positive_int,
    check_random_state_arg,
    check_seed,
)
from ..kernels import kernel_matrix
from .specs import PRECOMPUTED, normalize_kernel_specs

__all__ = ["KMPDictionary", "kmp_dictionary"]


@dataclass(frozen=True, eq=False)
class KMPDictionary:
    """A KMP dictionary: kernel columns centred on candidate training points.

    Column ``j < n_specs * n_candidates`` is kernel ``specs[j // c]`` centred on
    training point ``candidates[j % c]`` (c candidates); with ``fit_intercept``
    the last column is the constant function 1 (Vincent & Bengio, Eq. 14).

    Attributes
    ----------
    centres : ndarray of shape (c, n_features)
        The candidate training points.
    candidates : ndarray of shape (c,)
        Their training indices.
    specs : tuple of KernelSpec
    fit_intercept : bool
    columns : ndarray of shape (c,) or None
        With ``KernelSpec("precomputed")``: the columns of a precomputed kernel
        matrix K(., X_train) that the candidates read (their rows in the X given
        to ``fit``), and ``evaluate`` takes kernel rows instead of points.
    """

    centres: np.ndarray
    candidates: np.ndarray
    specs: tuple
    fit_intercept: bool
    columns: np.ndarray | None = None

    @property
    def n_columns(self) -> int:
        return len(self.specs) * self.candidates.size + int(self.fit_intercept)

    @property
    def train_index(self) -> np.ndarray:
        """Training index of each column, -1 for the constant function."""
        idx = np.tile(self.candidates, len(self.specs))
        return np.append(idx, -1) if self.fit_intercept else idx

    @property
    def kernel_index(self) -> np.ndarray:
        """Index into ``specs`` of each column, -1 for the constant function."""
        idx = np.repeat(np.arange(len(self.specs)), self.candidates.size)
        return np.append(idx, -1) if self.fit_intercept else idx

    def evaluate(self, X) -> np.ndarray:
        """Dictionary values at the rows of X: shape (n, n_columns)."""
        blocks = [np.asarray(X, dtype=float)[:, self.columns] if s.kernel == PRECOMPUTED
                  else kernel_matrix(X, self.centres, **s.params) for s in self.specs]
        if self.fit_intercept:
            blocks.append(np.ones((np.shape(X)[0], 1)))
        return np.ascontiguousarray(np.hstack(blocks))

    def label(self, column) -> str:
        """Human-readable name of a column, e.g. ``"rbf(gamma=0.5) at x_12"``."""
        column = int(column)
        if self.fit_intercept and column == self.n_columns - 1:
            return "constant"
        c = self.candidates.size
        return f"{self.specs[column // c].label} at x_{int(self.candidates[column % c])}"


def kmp_dictionary(
    X, *, kernel="rbf", gamma=None, degree=3, coef0=1.0, fit_intercept=True,
    n_candidates=None, random_state=None,
):
    """Build the KMP dictionary of Vincent & Bengio, Section 4.1.

    Parameters
    ----------
    X : array of shape (l, n_features)
        Training points.
    kernel, gamma, degree, coef0 :
        One kernel or a list of specifications, see :func:`normalize_kernel_specs`.
    fit_intercept : bool
        Add the constant function (the bias b of Eq. 14).
    n_candidates : int, optional
        Centre the kernels on this many random training points only (M < l);
        None (or >= l) uses every point.
    random_state : int, RandomState or None
        Seeds the candidate draw.

    Returns
    -------
    KMPDictionary
    """
    X = check_array_data(X, "X")
    specs = normalize_kernel_specs(kernel, gamma=gamma, degree=degree, coef0=coef0,
                                   n_features=X.shape[1])
    fit_intercept = check_bool(fit_intercept, "fit_intercept")
    check_seed(random_state)
    candidates = _draw_candidates(X.shape[0], n_candidates, random_state)
    return KMPDictionary(X[candidates].copy(), candidates, specs, bool(fit_intercept))


def _draw_candidates(l, n_candidates, random_state):
    """Sorted training indices the dictionary centres on: all l, or n_candidates random."""
    if n_candidates is None or check_positive_int(n_candidates, "n_candidates") >= l:
        return np.arange(l)
    rng = check_random_state_arg(random_state)
    return np.sort(rng.choice(l, size=int(n_candidates), replace=False))
