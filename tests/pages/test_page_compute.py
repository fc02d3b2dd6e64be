"""Every data set x every kernel through the computations behind the pages (no Streamlit run).

The pages' own runs in AppTest (tests/pages/test_pages.py) draw every data set and every
kernel, each on several partners; here the full product goes through the cached
functions the eigenvalue, KMP and bounds pages call, with the state each page builds
from a link (``dataset``, ``n``, ``kernel``), and the results obey what the papers say:

- eigenvalues: the exact spectrum is non-negative and sorted, every approximation's
  relative error is finite, and the Nystroem error never grows with k (its columns
  are nested);
- KMP: a basis index is a training row, predictions are finite at every kept step,
  and the squared-loss training error never grows with the steps (pre-fitting
  projects the target on a growing span);
- bounds: both bounds are non-negative running minima (never growing with k) whose
  minimum is at the reported k*, and the training residual, the trace of the deflated
  kernel over m, never grows with k.
"""

from __future__ import annotations

import numpy as np
import pytest

import datasets
from mpcore.plots._spectrum import EXACT, NYSTROM_SERIES
from pages.common.cached import bounds as cached_bounds
from pages.common.cached import kmp as cached_kmp
from pages.common.cached import spectrum as cached_spectrum
from pages.common.schemas import ALL_SCHEMAS
from pages.common.widgets import data_choice, kernel_choice

pytestmark = pytest.mark.slow

#: Small data, as the page loops use (tests/pages/test_pages.SMALL_N).
N = 60
#: Nystroem rules whose k columns are the first k of k + 1 (views.spectrum.error_curves).
NESTED = ("skpca", "cholesky")
#: Relative tolerance of "never grows" (rounding of a least-squares solve).
MONOTONE_RTOL = 1e-8


def _state(page, name, kernel):
    state, notes = ALL_SCHEMAS[page].from_query(dict(dataset=name, n=str(N), kernel=kernel))
    assert state["dataset"] == name and state["kernel"] == kernel, notes
    return state


def _kernels(page, name):
    field = ALL_SCHEMAS[page]["kernel"]
    state, _ = ALL_SCHEMAS[page].from_query(dict(dataset=name, n=str(N)))
    return list(field.at("options", state))


def _names(page):
    field = ALL_SCHEMAS[page]["dataset"]
    state, _ = ALL_SCHEMAS[page].from_query(dict(n=str(N)))
    return [o for o in field.at("options", state) if o in datasets.names()]


def _nonincreasing(v):
    v = np.asarray(v, dtype=float)
    v = v[np.isfinite(v)]
    return bool(np.all(np.diff(v) <= MONOTONE_RTOL * max(1.0, float(np.abs(v).max(initial=0)))))


@pytest.mark.parametrize("name", _names("spectrum"))
def test_spectrum_computations_for_every_kernel(name):
    for kernel in _kernels("spectrum", name):
        state = _state("spectrum", name, kernel)
        choice, kern = data_choice(state), kernel_choice(state)
        k_max = ALL_SCHEMAS["spectrum"]["k"].at("hi", state)
        run = cached_spectrum.spectrum_run(choice, kern, state["k"], state["spectrum.q"],
                                  state["spectrum.n_eig"])
        curves = cached_spectrum.spectrum_curves(choice, kern, state["spectrum.n_eig"], k_max)
        exact = np.asarray(run["scree"][EXACT], dtype=float)
        assert np.all(np.isfinite(exact)), (name, kernel)
        assert np.all(exact >= -1e-8 * exact.max()), (name, kernel)
        assert np.all(np.diff(exact) <= 1e-10 * exact.max()), (name, kernel)
        for method, values in run["scree"].items():
            assert len(values) == len(exact), (name, kernel, method)
        for rule in NESTED:  # nested columns: the Nystroem approximation only improves
            errs = np.asarray(curves["nystrom"][NYSTROM_SERIES[rule]], dtype=float)
            assert np.all(np.isfinite(errs)), (name, kernel, rule)
            assert _nonincreasing(errs), (name, kernel, rule, errs)


@pytest.mark.parametrize("name", _names("kmp"))
def test_kmp_computations_for_every_kernel(name):
    for kernel in _kernels("kmp", name):
        state = _state("kmp", name, kernel)
        choice, kern = data_choice(state), kernel_choice(state)
        d = cached_kmp.load_data(choice)
        if d.task not in ("classification", "regression"):
            continue
        s = cached_kmp.KMPSettings(n_basis=state["k"], fitting=state["kmp.fitting"])
        model, _ = cached_kmp.kmp_model(choice, kern, state["test"], s, None)
        classes = np.unique(d.y) if d.task == "classification" else np.zeros(0)
        cls = 0 if classes.size > 2 else None
        v = cached_kmp.kmp_staged(choice, kern, state["test"], s, None, cls)
        X_tr, y_tr, X_te, _, _ = cached_kmp.kmp_data(choice, state["test"])
        basis = np.asarray(v["basis"])
        assert basis.size >= 1, (name, kernel)
        assert np.all((basis >= -1) & (basis < len(X_tr))), (name, kernel)
        train, test = np.asarray(v["train"], float), np.asarray(v["test"], float)
        assert train.shape[0] == basis.size and test.shape[0] == basis.size, (name, kernel)
        assert np.all(np.isfinite(train)) and np.all(np.isfinite(test)), (name, kernel)
        if d.task == "regression":
            err = ((train - y_tr[None, :]) ** 2).mean(axis=1)
            assert _nonincreasing(err), (name, kernel, err)
        svm = cached_kmp.kmp_svm(choice, kern, state["test"], state["kmp.C"])
        assert 0 < svm["n_support"] <= len(X_tr), (name, kernel)


@pytest.mark.parametrize("name", _names("bounds"))
def test_bounds_computations_for_every_kernel(name):
    for kernel in _kernels("bounds", name):
        state = _state("bounds", name, kernel)
        choice, kern = data_choice(state), kernel_choice(state)
        c = cached_bounds.bound_curves(choice, kern, state["test"], state["bounds.kmax"],
                                state["bounds.delta"])
        for label, bound, k_star in (("compression", c.compression, c.k_star_compression),
                                     ("kpca", c.kpca, c.k_star_kpca)):
            b = np.asarray(bound, dtype=float)
            assert np.all(b[np.isfinite(b)] >= 0), (name, kernel, label)
            assert np.isfinite(b).any(), (name, kernel, label)
            assert b[int(k_star) - 1] == np.nanmin(b), (name, kernel, label, k_star)
            assert _nonincreasing(b), (name, kernel, label)  # a running minimum
        assert _nonincreasing(c.train_residual), (name, kernel)
