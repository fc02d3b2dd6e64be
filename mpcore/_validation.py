"""Checks of a kernel matrix: square, finite, symmetric, positive semi-definite, and the
validated kernel that records them once.

Tolerances are relative, in the spirit of scikit-learn's
``_check_psd_eigenvalues``: a threshold is a ratio scaled by the largest
diagonal (or eigenvalue) of the matrix at hand, never an absolute number.

The argument checks (:mod:`mpcore._arguments`) are importable from here too, so a module
can take every check it uses from one place.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict

import numpy as np
from scipy.linalg import eigvalsh
from scipy.linalg.lapack import dpotrf

from ._arguments import (  # noqa: F401  (re-exported: see the module docstring)
    KERNELS,
    MAX_ABS_VALUE,
    MAX_KERNEL_ENTRIES,
    MAX_KERNEL_VALUE,
    MAX_SEED,
    MAX_STEPS,
    MIN_KERNEL_VALUE,
    PSD_KERNELS,
    _as_float_array,
    _short,
    check_array_data,
    check_bool,
    check_finite_float,
    check_kernel_name,
    check_kernel_size,
    check_magnitude,
    check_parameters,
    check_positive_float,
    check_positive_int,
    check_probability,
    check_random_state_arg,
    check_seed,
    check_tiny,
    named_validation,
    precheck_estimator_input,
    sigmoid_message,
)

#: A residual diagonal at or below ``DIAG_TOL * max(diag K)`` counts as spanned:
#: sparse KPCA masks it (no division by ~0) and stops once every diagonal is there.
DIAG_TOL = 1e-10

#: Sparse KPCA updates the squared column norms (K_hat^2)_ii incrementally; once
#: they have all fallen below this fraction of their size at the last refresh, the
#: rounding of the update is no longer negligible and they are recomputed exactly.
SQ_REFRESH_RATIO = 1e-6

#: Relative size below which a kernel matrix's negative eigenvalues are rounding,
#: not a sign of an indefinite kernel (used by the PSD refusal).
PSD_NEG_RATIO = 1e-8

#: The matrix PSD test (:func:`check_psd_matrix`) first tries a Cholesky factorisation of
#: ``K + s I`` with ``s = PSD_SHIFT_RATIO * ||K||_F / sqrt(m)`` (at most this ratio times
#: the largest absolute eigenvalue); only when it fails are eigenvalues computed.
PSD_SHIFT_RATIO = 1e-8

#: Above this many rows the matrix PSD test checks a seeded random principal submatrix of
#: this size (a principal submatrix of a PSD matrix is PSD, so a failure there is
#: conclusive); the deflation loops then also watch for negative residual diagonals.
PSD_CHECK_MAX_M = 2000

#: What :meth:`ValidatedKernel.memo_recent` keeps, as a fraction of the matrix's own bytes.
RECENT_BYTES_FRACTION = 0.5


class ValidatedKernel(np.ndarray):
    """A read-only kernel matrix that :func:`validated_kernel` has checked once.

    Every mpcore function that checks a kernel matrix accepts it without checking
    again (the square/finite/symmetric test is O(m^2), the PSD test a Cholesky
    factorisation). Anything derived from it (a slice, a product, a copy) is a
    plain array again and is checked as usual.
    """

    _mp_checked = False  # square, finite, real, symmetric
    _mp_psd = False  # and positive semi-definite (check_psd_matrix passed)

    def __array_finalize__(self, obj):
        self._mp_checked = False
        self._mp_psd = False
        self._mp_memo = {}
        self._mp_recent = OrderedDict()
        self._mp_lock = threading.Lock()

    def memo(self, name, compute):
        """``compute()`` once per checked matrix (its values cannot change): e.g. K @ K or
        its eigenvalues, which several diagnostics need. The result is made read-only."""
        if not self._mp_checked:
            return compute()
        if name not in self._mp_memo:
            value = compute()
            if isinstance(value, np.ndarray):
                value.setflags(write=False)
            self._mp_memo[name] = value
        return self._mp_memo[name]

    def memo_recent(self, key, compute):
        """``compute()`` (an array) kept among the most recently used results on this checked
        matrix, together at most :data:`RECENT_BYTES_FRACTION` of the matrix's own bytes,
        least recent dropped first: e.g. the sketch that several diagnostics at the same
        (q, sketch, seed) need. One lock guards the bookkeeping (several threads may share the
        matrix); ``compute`` runs outside it, so two threads asking at once may both compute
        the same value. The result is made read-only."""
        if not self._mp_checked:
            return compute()
        with self._mp_lock:
            if key in self._mp_recent:
                self._mp_recent.move_to_end(key)
                return self._mp_recent[key]
        value = np.asarray(compute())
        value.setflags(write=False)
        with self._mp_lock:
            self._mp_recent[key] = value
            self._mp_recent.move_to_end(key)
            budget = RECENT_BYTES_FRACTION * self.nbytes
            while (len(self._mp_recent) > 1
                   and sum(v.nbytes for v in self._mp_recent.values()) > budget):
                self._mp_recent.popitem(last=False)
            if value.nbytes > budget:  # larger than the budget on its own: not kept
                self._mp_recent.pop(key, None)
        return value

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        plain = tuple(x.view(np.ndarray) if isinstance(x, ValidatedKernel) else x
                      for x in inputs)
        if "out" in kwargs:
            kwargs["out"] = tuple(x.view(np.ndarray) if isinstance(x, ValidatedKernel) else x
                                  for x in kwargs["out"])
        return getattr(ufunc, method)(*plain, **kwargs)

    def __getitem__(self, item):
        return self.view(np.ndarray)[item]

    def __reduce__(self):
        """Pickled (to another process, say) with the record of its checks, not with its
        memos: its values cannot change, so the checks hold wherever it is unpickled, and
        the PSD test (a Cholesky factorisation) is not run again there."""
        return (_validated_from_pickle, (self.view(np.ndarray), self._mp_checked, self._mp_psd))


def _validated_from_pickle(values, checked, psd):
    """A :class:`ValidatedKernel` as :meth:`ValidatedKernel.__reduce__` pickled it."""
    out = np.asarray(values).view(ValidatedKernel)
    out._mp_checked = bool(checked)
    out._mp_psd = bool(psd)
    out.flags.writeable = False
    return out


def validated_kernel(K, name="K"):
    """Check a kernel matrix once, so that repeated mpcore calls on it skip the checks.

    Runs the checks of every function that takes a kernel matrix (a finite, real,
    symmetric, square float array) and records whether it is positive
    semi-definite (functions that need a PSD matrix still refuse one that is not,
    with their own message). Returns a read-only copy (no copy when ``K`` is
    already a read-only float array), so the checked values cannot change.

    What several calls on the same matrix would each compute is computed once on it:
    K @ K and the eigenvalues of K for Eq. 3 (``ekm_perturbation_bound``), and, with an
    integer ``random_state``, the EKM sketch that ``ekm_eigenvalues``, ``ekm_eigenpairs``
    and ``ekm_perturbation_bound`` draw at the same q (the most recent sketches, within
    half the matrix's own size).

    Examples
    --------
    >>> import numpy as np
    >>> from mpcore import validated_kernel, nystrom_eigenvalues
    >>> X = np.random.default_rng(0).normal(size=(50, 2))
    >>> K = validated_kernel(np.exp(-((X[:, None] - X[None]) ** 2).sum(-1)))
    >>> [float(v) > 0 for v in nystrom_eigenvalues(K, [0, 1, 2], 2)]
    [True, True]
    """
    if isinstance(K, ValidatedKernel) and K._mp_checked:
        return K
    K = check_square_kernel(K, name)
    if K.flags.writeable:
        K = K.copy()
    try:
        check_psd_matrix(K, name)
        psd = True
    except ValueError:
        psd = False
    out = K.view(ValidatedKernel)
    out._mp_checked = True
    out._mp_psd = psd
    out.flags.writeable = False
    return out


def check_square_kernel(K, name="K"):
    """Return K as a finite, real, symmetric, square float array (copy only if needed)."""
    if isinstance(K, ValidatedKernel) and K._mp_checked:
        return K
    K = _as_float_array(K, name)
    if K.ndim != 2 or K.shape[0] != K.shape[1]:
        raise ValueError(f"{name} must be a square matrix, got shape {K.shape}.")
    if K.shape[0] == 0:
        raise ValueError(f"{name} is empty: it needs at least one row.")
    amax = float(np.max(np.abs(K)))  # NaN or inf anywhere makes this non-finite
    if not math.isfinite(amax):
        raise ValueError(
            f"{name} contains NaN or inf: check the data and kernel parameters "
            "(a huge gamma or degree can overflow)."
        )
    if amax > MAX_KERNEL_VALUE:
        check_magnitude(K, name, MAX_KERNEL_VALUE)
    check_tiny(amax, name)
    scale = max(amax, np.finfo(float).tiny)
    if np.max(np.abs(K - K.T)) > 1e-8 * scale:
        raise ValueError(f"{name} must be symmetric (a kernel matrix K(X, X)).")
    return K


def check_psd_diag(K, name="K", where="this method"):
    """Refuse a kernel matrix whose diagonal has a clearly negative entry."""
    d = np.diag(K)
    scale = max(float(np.max(np.abs(d))), np.finfo(float).tiny)
    if np.any(d < -PSD_NEG_RATIO * scale):
        raise ValueError(
            f"{name} has negative diagonal entries (the smallest is {d.min():.3g}), so it is not "
            f"a PSD kernel matrix (is it a sigmoid kernel?). {where[0].upper() + where[1:]} "
            "needs a PSD kernel: rbf, laplacian, linear, cosine, or polynomial with coef0 >= 0."
        )
    return K


# ----------------------------------------------------------------------------------------
# Positive semi-definiteness of a matrix
# ----------------------------------------------------------------------------------------

def _extreme_eigenvalues(K):
    """(smallest, largest) eigenvalue of a symmetric K of at most PSD_CHECK_MAX_M rows."""
    w = eigvalsh(K, check_finite=False)
    return float(w[0]), float(w[-1])


def _matrix_psd(K):
    """Decide whether symmetric K is PSD to the relative tolerance ``PSD_NEG_RATIO``.

    Returns ``(is_psd, lam_min, lam_max, checked_rows, shift)``; the eigenvalues are None
    when the Cholesky test alone decided (PSD). For m > ``PSD_CHECK_MAX_M`` a seeded
    random principal submatrix of that size is tested.
    """
    m = K.shape[0]
    if m > PSD_CHECK_MAX_M:
        idx = np.sort(np.random.default_rng(0).choice(m, PSD_CHECK_MAX_M, replace=False))
        K = K[np.ix_(idx, idx)]
    n = K.shape[0]
    fro = float(np.linalg.norm(K))
    if fro == 0.0:
        return True, 0.0, 0.0, n, 0.0
    shift = PSD_SHIFT_RATIO * fro / math.sqrt(n)
    A = np.array(K, dtype=float, order="F", copy=True)
    A.flat[:: n + 1] += shift
    _, info = dpotrf(A, lower=1, clean=0, overwrite_a=1)
    del A
    if info == 0:
        return True, None, None, n, shift
    low, top = _extreme_eigenvalues(K)
    scale = max(abs(top), abs(low), np.finfo(float).tiny)
    return bool(low >= -PSD_NEG_RATIO * scale), low, top, n, shift


def matrix_psd(K):
    """:func:`_matrix_psd` on a validated square K.

    Not cached here: a process-wide cache would be state shared by every user of
    the library (and every session of the app); callers that test the same matrix
    again cache their own results (the app caches whole runs per setting).
    """
    return _matrix_psd(K)


def eigen_report(low, top, m, checked):
    """A sentence with the most negative eigenvalue relative to the largest."""
    where = "" if checked == m else f" (on a random {checked} x {checked} principal submatrix)"
    if not top > 0:
        return (f"the smallest eigenvalue of its kernel matrix{where} is {low:.4g} and none "
                "is positive")
    return (f"the smallest eigenvalue of its kernel matrix{where} is {low:.4g}, "
            f"{low / top:.2g} times the largest ({top:.4g})")


def check_psd_matrix(K, name="K", where="this method"):
    """Refuse a validated square matrix K that is not positive semi-definite.

    Cholesky of ``K + s I`` (``s = PSD_SHIFT_RATIO * ||K||_F / sqrt(m)``); when that
    fails, the extreme eigenvalues decide with the tolerance ``PSD_NEG_RATIO``. Results
    are not cached; a matrix from :func:`validated_kernel` that passed is not tested again.
    """
    if isinstance(K, ValidatedKernel) and K._mp_psd:
        return K
    check_psd_diag(K, name, where)
    ok, low, top, checked, _ = matrix_psd(K)
    if not ok:
        report = eigen_report(low, top, K.shape[0], checked)
        raise ValueError(
            f"{name} is not positive semi-definite: {report}. "
            f"{where[0].upper() + where[1:]} needs a PSD kernel matrix K = Phi Phi' (its "
            "Rayleigh quotients, deflation and Nystroem approximation assume one). Build K "
            "with a PSD kernel: rbf, laplacian, linear, cosine, or polynomial with coef0 >= 0 "
            "(a sigmoid kernel or a polynomial with coef0 < 0 is indefinite in general)."
        )
    return K
