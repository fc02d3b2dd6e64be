"""SparseKPCA(verbose=...): what a fit prints while it runs, from the fit's own numbers."""

import contextlib
import io
import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import InvalidParameterError

from mpcore.skpca import SparseKPCA

LINE = re.compile(r"\[SparseKPCA\] step (\d+) of (\d+): trace left ([0-9.]+)% of tr K, "
                  r"([0-9.]+) s")


def data(m, d=3, seed=0):
    return np.random.default_rng(seed).normal(size=(m, d))


def parsed(out):
    rows = [LINE.fullmatch(line) for line in out.splitlines()]
    assert all(rows), out
    return [(int(r[1]), int(r[2]), float(r[3]), float(r[4])) for r in rows]


def expected_steps(n_steps, taken, verbose):
    """Every step at verbose 2; at 1 the multiples of ceil(n_steps / 10) and the last."""
    every = 1 if verbose >= 2 else math.ceil(n_steps / 10)
    return sorted({j for j in range(1, taken + 1) if j % every == 0} | {taken})


@pytest.mark.parametrize("n_candidates", [None, 59])
def test_silent_by_default(n_candidates, capsys):
    SparseKPCA(12, gamma=0.5, n_candidates=n_candidates, random_state=0).fit(data(200))
    assert capsys.readouterr().out == ""


@settings(max_examples=25, deadline=None)
@given(n_steps=st.integers(1, 40), verbose=st.integers(1, 3),
       n_candidates=st.sampled_from([None, 7, 59]), seed=st.integers(0, 2**16))
def test_lines_quote_the_fit(n_steps, verbose, n_candidates, seed):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fit = SparseKPCA(n_steps, gamma=0.5, n_candidates=n_candidates, random_state=seed,
                         verbose=verbose).fit(data(120, seed=seed))
    rows = parsed(out.getvalue())
    assert [r[0] for r in rows] == expected_steps(n_steps, fit.n_components_, verbose)
    assert all(r[1] == n_steps for r in rows)
    traces = fit.trace_residuals_
    for j, _, share, _ in rows:  # printed to 4 decimals of a percent
        assert share == pytest.approx(100 * traces[j] / traces[0], abs=0.5e-4 + 1e-9)
    seconds = [r[3] for r in rows]
    assert seconds == sorted(seconds)


def test_an_early_stop_reports_its_last_step(capsys):
    """A linear kernel on 2-D data has rank 2: the fit stops after two of 30 steps, before
    the first tenth (step 3), and says so in one line."""
    with pytest.warns(ConvergenceWarning):
        fit = SparseKPCA(30, kernel="linear", verbose=1).fit(data(50, d=2))
    rows = parsed(capsys.readouterr().out)
    assert fit.n_components_ == 2
    assert [r[0] for r in rows] == [2]
    assert rows[0][1] == 30 and rows[0][2] < 1e-6


def test_precomputed_kernel_reports_too(capsys):
    X = data(80)
    K = np.exp(-0.5 * ((X[:, None] - X[None]) ** 2).sum(-1))
    fit = SparseKPCA(4, kernel="precomputed", verbose=2).fit(K)
    assert [r[0] for r in parsed(capsys.readouterr().out)] == [1, 2, 3, 4]
    assert fit.n_components_ == 4


@pytest.mark.parametrize("bad", [-1, 1.5, "yes", None])
def test_bad_verbose_refused(bad):
    with pytest.raises(InvalidParameterError, match="verbose"):
        SparseKPCA(3, verbose=bad).fit(data(20))
