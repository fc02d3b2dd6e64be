"""The sparse-KPCA page under AppTest and its reference run rebuilt independently.

:func:`reference_steps` rebuilds the page's training rows from ``datasets`` and
scikit-learn (``datasets.load`` -> ``StandardScaler`` -> seeded ``train_test_split`` of
the row indices, stratified for classification when every class has two members and the
test part can hold one of each) and runs ``mpcore.skpca.greedy_steps`` on them;
:func:`assert_matches_mpcore` checks the page's counter, chosen indices and Eq. 2 line
against it. Used by tests/pages/test_pages.py and tests/pages/test_skpca_presets.py.
"""

from __future__ import annotations

import functools
import re

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

import datasets
from apptest_util import chosen_so_far as chosen  # the "Chosen so far" line's indices
from apptest_util import data_settings, open_app_page, timeline, widget
from apptest_util import step_counter as counter  # (j, n_steps) of the step counter
from mpcore.kernels import kernel_matrix
from mpcore.skpca import greedy_steps

SKPCA = "pages/skpca.py"
#: Seconds one AppTest run may take (the first run of a page imports plotly and sklearn).
RUN_TIMEOUT = 120
#: Kernels the sparse-KPCA page offers: every PSD kernel of mpcore.kernels (not sigmoid).
PSD_KERNELS = ("rbf", "laplacian", "polynomial", "linear", "cosine")
#: Small sizes keep the loop over every data set and kernel fast.
SMALL_N = 60
SMALL_K = 6
#: Page defaults (documented in pages/common/widgets.SHARED and the page).
DEFAULTS = dict(dataset="moons", seed=0, kernel="rbf", k=20, test=0.3)


#: A fresh session on the sparse-KPCA page, opened with URL query ``params``:
#: ``open_page(params)``; another page's is ``open_app_page(page, params, timeout=RUN_TIMEOUT)``.
open_page = functools.partial(open_app_page, SKPCA, timeout=RUN_TIMEOUT)


def exception_texts(at):
    return [e.value for e in at.exception] + [getattr(e, "stack_trace", "") for e in at.exception]


def page_settings(at) -> dict:
    """The settings the page shows in its sidebar widgets."""
    return dict(data_settings(at), test=widget(at, "slider", "test", 0.3),
                k=widget(at, "slider", "k"))


def kernel_params(kernel, sigma=None, gamma=0.1, degree=3, coef0=1.0) -> dict:
    """Kernel parameters of the paper's conventions.

    Gaussian: exp(-||x-z||^2 / (2 sigma^2)), so gamma = 1 / (2 sigma^2)
    (Shawe-Taylor & Cristianini, Sec. 9.1); Laplacian: exp(-||x-z||_1 / sigma).
    """
    if kernel == "rbf":
        return dict(kernel="rbf", gamma=1.0 / (2.0 * sigma**2))
    if kernel == "laplacian":
        return dict(kernel="laplacian", gamma=1.0 / sigma)
    if kernel == "polynomial":
        return dict(kernel="polynomial", gamma=gamma, degree=degree, coef0=coef0)
    return dict(kernel=kernel)


@functools.lru_cache(maxsize=64)
def training_data(name, n, noise, seed, test, ratio=10.0, std=True):
    """The training rows the page runs on, rebuilt from datasets and scikit-learn.

    Cached (the loops ask for the same data once per kernel), so read-only.
    """
    kw = dict(n_samples=n, random_state=seed)
    if name == "gaussian_toy":
        kw["variance_ratio"] = ratio
    elif noise is not None:
        kw["noise"] = noise
    d = datasets.load(name, **kw)
    X = StandardScaler().fit_transform(d.X) if std else np.asarray(d.X, dtype=float)
    X = X[split_train(d.y, d.task, len(X), test, seed)]
    X.setflags(write=False)
    return X


def split_train(y, task, n, test, seed):
    strat = None
    if task == "classification":
        _, counts = np.unique(y, return_counts=True)
        if counts.min() >= 2 and int(test * n) >= len(counts):
            strat = y
    tr, _ = train_test_split(np.arange(n), test_size=test, random_state=seed, stratify=strat)
    return tr


def reference_steps(s: dict):
    """greedy_steps on the training kernel of the page's settings ``s``."""
    X = training_data(s["dataset"], s["n"], s["noise"], s["seed"], s["test"], s["ratio"], s["std"])
    K = kernel_matrix(X, **kernel_params(s["kernel"], s["sigma"], s["gamma"], s["degree"],
                                         s["coef0"]))
    return list(greedy_steps(K, s["k"]))


def assert_matches_mpcore(at, ref):
    """Counter, chosen indices and the Eq. 2 line equal the reference steps."""
    j, n_steps = counter(at)
    assert n_steps == len(ref)
    assert chosen(at) == [s.index for s in ref[:j]]
    line = timeline(at)["lines"][j - 1][0]
    sub = str(j).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))
    assert f"i{sub} = {ref[j - 1].index}," in line, line
    rho = re.search(r"ρ = ([-+0-9.e]+)", line)
    assert rho, line
    np.testing.assert_allclose(float(rho.group(1)), ref[j - 1].quotients[ref[j - 1].index],
                               rtol=5e-4)  # printed with 4 significant digits
