"""The 59-trick in blocks (mpcore.skpca_large): the picks and residuals of the
column-at-a-time loop it replaced, in every layout of chunks and threads."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from conftest import ATOL_EXACT, RTOL_EXACT
from mpcore.kernels import kernel_matrix
from mpcore.skpca import SparseKPCA, greedy_steps, greedy_steps_from_data
from mpcore.skpca_large import DataBlocks, MatrixBlocks, candidate_steps, check_dtype


def reference_59_trick(K, n_steps, n_candidates, seed, tol=1e-10):
    """The column-at-a-time loop: each step slices the candidates' columns of K and
    deflates them by the whole factor at once (the implementation before the blocks)."""
    rng = seed if isinstance(seed, np.random.RandomState) else np.random.RandomState(seed)
    m = K.shape[0]
    diag = np.diag(K).copy()
    threshold = max(tol, m * np.finfo(float).eps) * max(float(diag.max()), 0.0)
    d = diag.copy()
    Gt = np.zeros((min(n_steps, m), m))
    idx, traces, quotients, pivots = [], [], [], []
    alive = np.flatnonzero(d > threshold)
    for j in range(min(n_steps, m)):
        if alive.size == 0:
            break
        Gj = Gt[:j]
        cand = np.sort(rng.choice(alive, size=min(n_candidates, alive.size), replace=False))
        cols = K[:, cand] - Gj.T @ Gj[:, cand]
        q = np.einsum("ij,ij->j", cols, cols) / d[cand]
        best = int(np.argmax(q))
        i = int(cand[best])
        pivots.append(d[i])
        g = cols[:, best] / np.sqrt(d[i])
        g[i] = np.sqrt(d[i])
        Gt[j] = g
        d = np.maximum(d - g**2, 0.0)
        d[i] = 0.0
        idx.append(i)
        quotients.append(q[best])
        traces.append(d.sum())
        alive = np.flatnonzero(d > threshold)
    return idx, quotients, traces, pivots


def run(blocks, diag, k, c, seed, n_threads=None):
    steps = list(candidate_steps(blocks, diag, k, n_candidates=c, random_state=seed,
                                 tol=1e-10, n_threads=n_threads))
    return ([s.index for s in steps], [s.quotients[s.index] for s in steps],
            [s.trace_residual for s in steps])


def first_difference(idx, ref_idx):
    return next((t for t, (a, b) in enumerate(zip(idx, ref_idx)) if a != b),
                min(len(idx), len(ref_idx)))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), m=st.integers(2, 400), d=st.integers(1, 6),
       k=st.integers(1, 40), c=st.integers(1, 80), gamma=st.floats(0.02, 3.0),
       source=st.sampled_from(["K", "X"]))
def test_blocks_pick_as_the_column_loop(seed, m, d, k, c, gamma, source):
    """Read from K or computed from X (the Gaussian fast path), scored in chunks: the
    picks, quotients and residuals of the column loop.

    Both round differently from it in the last digit (the order of the sums; the fast
    path's kernel values), and each pivot p amplifies that by up to 1/p, so the
    comparison holds while the pivots are not small (the well-conditioned steps)."""
    X = np.random.default_rng(seed).normal(size=(m, d))
    K = kernel_matrix(X, gamma=gamma)
    ref_idx, ref_q, ref_tr, pivots = reference_59_trick(K, k, c, seed)
    blocks = MatrixBlocks(K) if source == "K" else DataBlocks(X, dict(kernel="rbf",
                                                                       gamma=gamma))
    idx, q, tr = run(blocks, np.ones(m), k, c, seed)
    well = next((t for t, p in enumerate(pivots) if p < 1e-2), len(pivots))
    n = min(first_difference(idx, ref_idx), well)
    if n < well:  # a pick differs in the well-conditioned steps: only at a tie
        assert np.isclose(q[n], ref_q[n], rtol=1e-9)
    assert_allclose(q[:n], ref_q[:n], rtol=RTOL_EXACT, atol=ATOL_EXACT)
    assert_allclose(tr[:n], ref_tr[:n], rtol=RTOL_EXACT, atol=ATOL_EXACT)


def test_gaussian_fast_path_picks_as_the_column_loop_at_benchmark_settings():
    """d = 10, gamma = 0.1, 59 candidates, k = 100 (the benchmark's settings)."""
    X = np.random.default_rng(11).normal(size=(4000, 10))
    K = kernel_matrix(X, gamma=0.1)
    ref_idx, ref_q, ref_tr, _ = reference_59_trick(K, 100, 59, 0)
    fit = SparseKPCA(100, gamma=0.1, n_candidates=59, random_state=0).fit(X)
    assert fit.indices_.tolist() == ref_idx
    assert_allclose(fit.trace_residuals_[1:], ref_tr, rtol=1e-10)
    assert_allclose(fit.rayleigh_quotients_, ref_q, rtol=1e-10)


def test_gaussian_fast_path_values_are_scikit_learns():
    X = np.random.default_rng(3).normal(size=(700, 10)) * 3
    blocks = DataBlocks(X, dict(kernel="rbf", gamma=0.1))
    idx = [5, 9, 600]
    B = blocks.block(blocks.prepare(idx), 0, 700).T
    assert_allclose(B, kernel_matrix(X, X[idx], gamma=0.1), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("kernel, params", [("laplacian", dict(gamma=0.3)),
                                            ("polynomial", dict(degree=2, coef0=1.0)),
                                            ("linear", {}), ("cosine", {})])
def test_other_kernels_pick_as_the_column_loop(kernel, params):
    X = np.random.default_rng(5).normal(size=(300, 40))  # rank above k for every kernel
    full = dict(kernel=kernel, gamma=params.get("gamma"), degree=params.get("degree", 3),
                coef0=params.get("coef0", 1.0))
    K = kernel_matrix(X, **full)
    steps = list(greedy_steps_from_data(X, 20, n_candidates=30, random_state=7, **full))
    ref_idx, _, ref_tr, _ = reference_59_trick(K, 20, 30, 7)
    assert [s.index for s in steps] == ref_idx
    assert_allclose([s.trace_residual for s in steps], ref_tr, rtol=RTOL_EXACT,
                    atol=ATOL_EXACT * np.trace(K))


def test_threads_change_nothing_and_chunks_only_rounding(monkeypatch):
    """Two threads give bit-for-bit the sums of one thread on the same chunks; other
    chunks change only the order of the sums."""
    import mpcore.skpca_large as large

    X = np.random.default_rng(1).normal(size=(3000, 5))
    blocks = DataBlocks(X, dict(kernel="rbf", gamma=0.2))
    whole = run(blocks, np.ones(3000), 25, 59, 3, n_threads=1)
    monkeypatch.setattr(large, "BLOCK_ENTRIES", 59 * 256)
    one = run(blocks, np.ones(3000), 25, 59, 3, n_threads=1)
    monkeypatch.setattr(large, "PARALLEL_MIN_ENTRIES", 1)
    two = run(blocks, np.ones(3000), 25, 59, 3, n_threads=2)
    assert two == one
    assert one[0] == whole[0]
    assert_allclose(one[1:], whole[1:], rtol=RTOL_EXACT)


@pytest.mark.parametrize("n_threads", [1, 2])
def test_points_spanned_with_the_winner_redraw_the_next_candidates(monkeypatch, n_threads):
    """Duplicated points: choosing one spans its twin too, so the next step draws from
    two fewer points than before, not one. The draw made for one fewer (before the
    deflation, or ahead on a thread of its own) is undone and made again: the picks and
    the random state are the column loop's."""
    import mpcore.skpca_large as large

    monkeypatch.setattr(large, "PARALLEL_MIN_ENTRIES", 1)
    X = np.repeat(np.random.default_rng(8).normal(size=(150, 3)), 2, axis=0)
    K = kernel_matrix(X, gamma=0.5)
    ref_idx, ref_q, ref_tr, _ = reference_59_trick(K, 30, 20, 4)
    for blocks in (MatrixBlocks(K), DataBlocks(X, dict(kernel="rbf", gamma=0.5))):
        rng = np.random.RandomState(4)
        steps = list(candidate_steps(blocks, np.ones(300), 30, n_candidates=20,
                                     random_state=rng, tol=1e-10, n_threads=n_threads))
        assert [s.index for s in steps] == ref_idx
        assert_allclose([s.trace_residual for s in steps], ref_tr, rtol=1e-9, atol=1e-12)
        spanned = [int(np.sum(s.residual_diag <= 1e-10 * 300)) for s in steps]
        assert spanned[:3] == [2, 4, 6]  # the twins leave with the winners
        # the random state is where 30 draws of the column loop leave it
        ref = np.random.RandomState(4)
        reference_59_trick(K, 30, 20, ref)
        assert rng.randint(2**31) == ref.randint(2**31)


def test_residual_diag_is_the_nystroem_residual():
    X = np.random.default_rng(2).normal(size=(500, 3))
    K = kernel_matrix(X, gamma=0.5)
    steps = list(greedy_steps_from_data(X, 30, gamma=0.5, n_candidates=59, random_state=0))
    idx = [s.index for s in steps]
    Ki = K[:, idx]
    R = K - Ki @ np.linalg.solve(K[np.ix_(idx, idx)], Ki.T)
    assert_allclose(steps[-1].residual_diag, np.diag(R), atol=1e-8)


def test_float32_keeps_the_residual_and_halves_the_basis():
    X = np.random.default_rng(4).normal(size=(2000, 10))
    a = SparseKPCA(60, gamma=0.1, n_candidates=59, random_state=0).fit(X)
    b = SparseKPCA(60, gamma=0.1, n_candidates=59, random_state=0, dtype=np.float32).fit(X)
    # the draws are the same; a pick may differ where candidates tie within float32 rounding
    assert np.mean(a.indices_ == b.indices_) > 0.5
    assert_allclose(b.trace_residuals_[-1], a.trace_residuals_[-1], rtol=0.02)
    blocks = DataBlocks(X, dict(kernel="rbf", gamma=0.1), np.float32)
    assert blocks.block(blocks.prepare([0, 1]), 0, 10).dtype == np.float32


def test_precomputed_and_data_agree_with_greedy_steps():
    X = np.random.default_rng(6).normal(size=(400, 3))
    K = kernel_matrix(X, gamma=0.4)
    a = [s.index for s in greedy_steps(K, 25, n_candidates=20, random_state=9)]
    b = [s.index for s in greedy_steps_from_data(X, 25, gamma=0.4, n_candidates=20,
                                                 random_state=9)]
    fit = SparseKPCA(25, kernel="precomputed", n_candidates=20, random_state=9).fit(K)
    assert a == b == fit.indices_.tolist()


def test_an_indefinite_matrix_is_refused_between_steps():
    K = np.array([[1.0, 2.0], [2.0, 1.0]])
    with pytest.raises(ValueError, match="not positive semi-definite.*after step 1"):
        list(candidate_steps(MatrixBlocks(K), np.diag(K).copy(), 2, n_candidates=2,
                             random_state=0, tol=1e-10))


@pytest.mark.parametrize("bad", ["float16", np.int64, "complex128", "nope"])
def test_dtype_refused_with_the_choices(bad, small_X):
    with pytest.raises(ValueError, match="float64.*float32"):
        SparseKPCA(3, n_candidates=5, dtype=bad).fit(small_X)
    with pytest.raises(ValueError, match="float64.*float32"):
        check_dtype(bad)



def test_a_basis_beyond_the_limit_is_refused_before_any_work():
    from mpcore.skpca_large import check_basis_size

    with pytest.raises(ValueError, match="basis.*n_components.*dask"):
        check_basis_size(10_000_000, 100)
    check_basis_size(1_000_000, 100)  # the benchmark's size fits


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), m=st.integers(50, 3000), d=st.integers(1, 12),
       j=st.integers(0, 30), gamma=st.floats(0.01, 2.0), scale=st.floats(0.1, 3.0))
def test_float32_scores_are_within_their_bound(seed, m, d, j, gamma, scale):
    """The float32 squared norms of deflated Gaussian kernel columns differ from the
    float64 ones by less than the bound the pick relies on."""
    from mpcore import _skpca_scores as scores
    from mpcore.skpca_large import ResidualState

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, d)) * scale
    blocks = DataBlocks(X, dict(kernel="rbf", gamma=gamma))
    j = min(j, m - 1)
    state = ResidualState(blocks, np.ones(m), j + 1, 59, n_threads=1)
    try:
        for step in range(j):  # a basis: j deflations by random points
            i = int(rng.integers(m))
            if state.d[i] <= 1e-6:
                j = step
                break
            winner = (blocks.prepare([i]), state.basis_rows([i], step)[0], float(state.d[i]), i)
            state.deflate(step, *winner)
        cand = np.sort(rng.choice(m, size=min(59, m), replace=False))
        prepared, Gc = blocks.prepare(cand), state.basis_rows(cand, j)
        exact = state.norms(prepared, Gc, j)
        low = state.norms(prepared, Gc, j, np.float32)
        bound = scores.bounds(low, m, j, state.chunks.rows, d, blocks.gamma_r2)
        assert np.all(np.abs(low - exact) <= bound)
        # and at the best candidate (the one a pick is about) it is not so loose that
        # float32 would rarely decide alone
        top = int(np.argmax(exact))
        if scores.usable(blocks, np.float64, arrays=False) and exact[top] >= 1.0:
            assert bound[top] < 0.01 * exact[top]
    finally:
        state.close()


@pytest.mark.parametrize("n_threads", [1, 2])
@pytest.mark.parametrize("seed, m, gamma", [(0, 3000, 0.1), (1, 2000, 1.0), (2, 1500, 0.02),
                                            (3, 2500, 0.3)])
def test_float32_scores_pick_as_float64(monkeypatch, seed, m, gamma, n_threads):
    """Light records (the fit's) score the candidates in float32 and rescore in float64
    only the few that may be the best: the picks, quotients and residuals of the float64
    scores (the full records')."""
    import mpcore.skpca_large as large

    monkeypatch.setattr(large, "PARALLEL_MIN_ENTRIES", 1)
    X = np.random.default_rng(seed).normal(size=(m, 10))
    blocks = DataBlocks(X, dict(kernel="rbf", gamma=gamma))

    def steps(arrays):
        return list(candidate_steps(blocks, np.ones(m), 60, n_candidates=59, random_state=seed,
                                    tol=1e-10, n_threads=n_threads, arrays=arrays))

    light, full = steps(False), steps(True)
    assert [s.index for s in light] == [s.index for s in full]
    assert_allclose([s.quotient for s in light], [s.quotients[s.index] for s in full],
                    rtol=1e-10)
    assert [s.trace_residual for s in light] == [s.trace_residual for s in full]


def test_float32_scores_rescore_ties_in_float64(monkeypatch):
    """Duplicated points tie exactly: float32 cannot tell them apart, so they are scored
    again in float64 and the tie goes to the lowest index, as in the column loop."""
    import mpcore._skpca_scores as scores

    rescored = []
    contenders = scores.contenders

    def counting(*args):
        out = contenders(*args)
        rescored.append(len(out) > 1)
        return out

    monkeypatch.setattr(scores, "contenders", counting)
    X = np.repeat(np.random.default_rng(8).normal(size=(150, 3)), 2, axis=0)
    K = kernel_matrix(X, gamma=0.5)
    ref_idx, ref_q, ref_tr, _ = reference_59_trick(K, 30, 20, 4)
    steps = list(greedy_steps_from_data(X, 30, gamma=0.5, n_candidates=20, random_state=4,
                                        arrays=False))
    assert [s.index for s in steps] == ref_idx
    assert_allclose([s.quotient for s in steps], ref_q, rtol=1e-9)
    assert_allclose([s.trace_residual for s in steps], ref_tr, rtol=1e-9, atol=1e-12)
    assert any(rescored)


def test_float32_scores_only_where_their_bound_is_useful():
    from mpcore._skpca_scores import usable

    X = np.random.default_rng(0).normal(size=(100, 10))
    assert usable(DataBlocks(X, dict(kernel="rbf", gamma=0.1)), np.float64, arrays=False)
    assert not usable(DataBlocks(X, dict(kernel="rbf", gamma=0.1)), np.float64, arrays=True)
    assert not usable(DataBlocks(X, dict(kernel="rbf", gamma=0.1), np.float32), np.float32,
                      arrays=False)
    assert not usable(DataBlocks(X * 1e3, dict(kernel="rbf", gamma=0.1)), np.float64,
                      arrays=False)
    assert not usable(DataBlocks(X, dict(kernel="laplacian", gamma=0.1)), np.float64,
                      arrays=False)
    assert not usable(MatrixBlocks(kernel_matrix(X)), np.float64, arrays=False)
