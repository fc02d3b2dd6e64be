r"""The 59-trick of sparse kernel PCA in blocks: candidates scored with level-3 BLAS.

Each step of the 59-trick (Smola & Schoelkopf) draws c random not-yet-spanned
candidates and needs the squared norms of their *deflated* kernel columns,

.. math:: \|\hat K e_c\|^2 = \|K[:, c] - G\, G[c, :]'\|^2 ,

where :math:`G` (m x j) is the partial Cholesky factor of the steps so far. This
module computes them as one block per step, row chunk by row chunk: the kernel
block between the rows of the chunk and the c candidates, minus the product of the
chunk's rows of G with the candidates' rows (a matrix-matrix product, level-3
BLAS), and keeps only the c running sums of squares. A chunk is small enough to
stay in cache, so the (m x c) block is never formed, and the chunks run on every
core. The basis :math:`G'` (k x m) is one preallocated array, laid out by row
chunk; the winner's deflated column is recomputed the same way (one kernel
column, one matrix-vector product) rather than kept from the block, which would
cost an (m x c) array, in the same pass over the chunks as the next step's
candidates, so each chunk of the basis is read once per step.

The picks and residuals are those of the column-at-a-time loop it replaces (up
to rounding in the last digits, which can only matter at exact ties). A fit (light
records) with the Gaussian kernel scores the candidates in float32, which halves the
cost of the blocks, and rescores in float64 the few whose bounded error leaves them a
chance of being the best, so its picks are still those of float64
(:mod:`mpcore._skpca_scores`); the basis and the deflation stay float64.
``dtype=np.float32`` keeps the basis and the blocks in single precision (half
the memory, about twice the speed; the residual diagonal and the sums stay in
float64); its picks may then differ where two candidates are within float32
rounding of each other.
"""

from __future__ import annotations

import functools
import itertools
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Iterator

import numpy as np

from ._validation import MAX_KERNEL_ENTRIES, PSD_NEG_RATIO, check_random_state_arg
from .kernels import kernel_matrix
from . import _skpca_scores as _scores
from ._skpca_step import SKPCAStep, effective_tol, raise_not_psd

__all__ = ["DataBlocks", "MatrixBlocks", "ResidualState", "candidate_steps", "check_basis_size",
           "check_dtype"]

#: Entries of one (candidates x rows) block. Large, so that the Python work of a chunk (which
#: holds the GIL, so the threads take turns at it) is small beside its BLAS work and the
#: products are long; small enough that a thread's blocks stay in the last-level cache.
BLOCK_ENTRIES = 1 << 18
#: Below this many kernel entries per step (m x c) the chunks run in the calling thread:
#: starting work on other threads costs more than it saves.
PARALLEL_MIN_ENTRIES = 1 << 21
#: The precisions of the basis and the blocks.
DTYPES = (np.dtype(np.float64), np.dtype(np.float32))


def check_dtype(dtype):
    """``dtype`` as a numpy dtype, float64 or float32, or a ValueError saying so."""
    try:
        dt = np.dtype(dtype)
    except TypeError:
        dt = None
    if dt is None or dt not in DTYPES:  # (a dtype compares equal to None: float64)
        raise ValueError(
            f"dtype must be float64 (the default) or float32 (half the memory of the basis, "
            f"picks equal up to float32 rounding), got {dtype!r}."
        )
    return dt


def check_basis_size(m, n_steps):
    """Refuse a basis (k x m) beyond the entries of the largest kernel matrix formed."""
    k = min(int(n_steps), int(m))
    if m * k > MAX_KERNEL_ENTRIES:
        raise ValueError(
            f"The 59-trick's basis would have {k} x {m} = {m * k:,} entries ({m * k * 8 / 1e9:.1f}"
            f" GB in float64), above the limit of {MAX_KERNEL_ENTRIES:,}. Lower n_components, "
            "use a random subset of the points, or pass X as a dask array to fit on a "
            "dask.distributed cluster (docs/scale.md)."
        )


def row_chunk(n_cols):
    """Rows per chunk for blocks of ``n_cols`` candidates."""
    return max(256, BLOCK_ENTRIES // max(int(n_cols), 1))


class MatrixBlocks:  # (the candidates are "prepared" as their indices)
    """Kernel blocks read from a kernel matrix K (m, m) already in memory."""

    def __init__(self, K, dtype=np.float64):
        self.K = np.asarray(K).view(np.ndarray)
        self.m = self.K.shape[0]
        self.dtype = np.dtype(dtype)

    def prepare(self, idx):
        return np.asarray(idx)

    #: Rows of the scratch array :meth:`block` takes (none needed).
    work_rows = 1

    def block(self, idx, s, e, out=None, work=None, filled=False):
        """K[s:e, idx]' as a (len(idx), e - s) array of ``dtype`` (in ``out`` if given)."""
        if out is None:
            out = np.empty((len(idx), e - s), dtype=self.dtype)
        out[...] = self.K[s:e, idx].T
        return out

    def at_rows(self, idx, rows):
        """K[rows, idx]' as a (len(idx), len(rows)) array of ``dtype``."""
        return self.K[np.ix_(np.asarray(rows), idx)].T.astype(self.dtype)


class DataBlocks:
    """Kernel blocks computed from the data X (m, d) on demand.

    The Gaussian kernel takes a fast path: with :math:`a = [x, \\|x\\|^2, 1]` and
    :math:`b = [2\\gamma c, -\\gamma, -\\gamma\\|c\\|^2]`, :math:`a'b = -\\gamma\\|x - c\\|^2`,
    so one small product and one ``exp`` per entry give the block in place. Other
    kernels go through :func:`mpcore.kernels.kernel_matrix` chunk by chunk.
    """

    def __init__(self, X, params, dtype=np.float64):
        self.X = X
        self.m = X.shape[0]
        self.params = dict(params)
        self.dtype = np.dtype(dtype)
        self.rbf = self.params["kernel"] == "rbf"
        if self.rbf:
            gamma = self.params.get("gamma")
            self.gamma = 1.0 / X.shape[1] if gamma is None else float(gamma)
            self.sq = np.einsum("ij,ij->i", X, X)
            #: gamma times the largest squared norm: bounds the rounding of a block's
            #: exponent (see :mod:`mpcore._skpca_scores`)
            self.gamma_r2 = self.gamma * float(self.sq.max(initial=0.0))
        #: Rows of the scratch array :meth:`block` takes: [x, ||x||^2, 1]' of each row.
        self.work_rows = X.shape[1] + 2

    def prepare(self, idx):
        """What :meth:`block` needs of the candidates ``idx`` (rows of X)."""
        idx = np.asarray(idx)
        return self.prepare_points(self.X[idx], self.sq[idx] if self.rbf else None)

    def points(self, idx):
        """The candidates' rows of X and, for the Gaussian kernel, their squared norms:
        what :meth:`prepare_points` takes (for blocks of X held elsewhere)."""
        idx = np.asarray(idx)
        return self.X[idx], (self.sq[idx] if self.rbf else None)

    def prepare_points(self, C, sq=None):
        """:meth:`prepare` for candidate points C (c, d) given by value."""
        if not self.rbf:
            return C
        d = C.shape[1]
        B = np.empty((C.shape[0], d + 2), dtype=self.dtype)
        B[:, :d] = (2.0 * self.gamma) * C
        B[:, d] = -self.gamma
        B[:, d + 1] = -self.gamma * sq
        return B

    def block(self, prepared, s, e, out=None, work=None, filled=False):
        """k(X[s:e], candidates)' as a (c, e - s) array of ``dtype``.

        ``out`` (c, e - s) receives it and ``work`` (d + 2, at least e - s) is scratch,
        both allocated when not given: reusing them keeps the chunk loop free of
        allocations, which otherwise cost as much as the arithmetic. ``filled``: ``work``
        already holds these rows (from a block of the same rows just before).
        """
        if out is None:
            out = np.empty((len(prepared), e - s), dtype=self.dtype)
        if not self.rbf:
            out[...] = kernel_matrix(self.X[s:e], prepared, **self.params).T
            return out
        d = self.X.shape[1]
        if work is None:
            work = np.empty((d + 2, e - s), dtype=self.dtype)
            filled = False
        At = work[:, : e - s]
        if not filled:  # transposed: each row one long copy, not e - s short ones
            At[:d] = self.X[s:e].T
            At[d] = self.sq[s:e]
            At[d + 1] = 1.0
        if len(prepared) == 1:  # one column (a winner's): a matrix-vector product
            np.matmul(prepared[0], At, out=out[0])
        else:
            np.matmul(prepared, At, out=out)
        # a'b = -gamma ||x - c||^2 <= 0 up to rounding: exp never overflows
        return np.exp(out, out=out)

    def at_rows(self, prepared, rows):
        """k(X[rows], candidates)' as a (c, len(rows)) array of ``dtype``: the entries
        :meth:`block` gives for those rows, computed from the same operands."""
        rows = np.asarray(rows)
        if not self.rbf:
            return kernel_matrix(self.X[rows], prepared, **self.params).T.astype(self.dtype)
        d = self.X.shape[1]
        A = np.empty((len(rows), d + 2), dtype=self.dtype)
        A[:, :d] = self.X[rows]
        A[:, d] = self.sq[rows]
        A[:, d + 1] = 1.0
        out = np.matmul(prepared, A.T)
        return np.exp(out, out=out)


@functools.lru_cache(maxsize=1)
def _blas():
    """The process's threadpoolctl controller, made once (finding the libraries is not free)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


class _Chunks:
    """Runs a function over the row chunks of [0, m), on every core when m is large.

    The chunks are fixed by m and the block size alone, and each writes its results to
    its own slot, so sums over them do not depend on the threads or on which thread
    ran which chunk. Each thread takes the next chunk when it is done with one (a core
    slowed by other work takes fewer).
    """

    def __init__(self, m, n_cols, n_threads=None):  # n_threads None: every usable core
        step = row_chunk(n_cols)
        self.bounds = [(s, min(s + step, m)) for s in range(0, m, step)]
        if n_threads is None:
            n_threads = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
                os.cpu_count() or 1)
        self.n_threads = n_threads if m * n_cols >= PARALLEL_MIN_ENTRIES else 1
        self.rows = step
        self._pool = None
        self._local = threading.local()

    def buffer(self, name, shape, dtype):
        """This thread's scratch array ``name``, reused from chunk to chunk and step to step."""
        bufs = self._local.__dict__
        key = name, np.dtype(dtype).char  # a pass in each precision keeps its own
        buf = bufs.get(key)
        if buf is None or buf.shape[1:] != shape[1:] or buf.shape[0] < shape[0]:
            buf = bufs[key] = np.empty(shape, dtype=dtype)
        return buf[: shape[0]]

    def map(self, fn):
        """Calls ``fn(b, s, e)`` for every chunk b of rows [s, e)."""
        bounds = self.bounds
        # One BLAS thread per chunk: the chunks themselves use every core, and BLAS threads
        # on products this small spin more than they compute (on a loaded machine, many
        # times more). The limit is process-wide while the pass runs.
        with _blas().limit(limits=1, user_api="blas"):
            if self.n_threads <= 1 or len(bounds) == 1:
                for b, (s, e) in enumerate(bounds):
                    fn(b, s, e)
                return
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.n_threads,
                                                thread_name_prefix="mpcore-skpca")
            taken = itertools.count()  # next() on it is atomic under the GIL

            def run():
                for b in iter(taken.__next__, None):
                    if b >= len(bounds):
                        return
                    fn(b, *bounds[b])

            for f in [self._pool.submit(run) for _ in range(self.n_threads)]:
                f.result()

    def close(self):
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None


class ResidualState:
    """The residual diagonal and the basis G' of the 59-trick, updated chunk by chunk.

    The basis is one preallocated array laid out by row chunk: ``basis[b]`` (k, rows)
    holds chunk b's entries of every step's g, so the first j steps of a chunk are one
    contiguous block for the matrix products. Both passes of a step (the
    candidates' deflated norms, the winner's deflation) run over the chunks on every core
    and reuse per-thread buffers, so no m-sized temporary is made.
    """

    def __init__(self, blocks, diag, n_steps, n_candidates, n_threads=None):
        self.blocks = blocks
        self.m = m = diag.shape[0]
        #: The residual diagonal (m,), float64 whatever ``blocks.dtype``.
        self.d = diag.astype(float).copy()
        self.chunks = _Chunks(m, n_candidates, n_threads)
        # n_steps rows even when m is smaller: a dask chunk of few rows takes every step
        self.basis = np.zeros((len(self.chunks.bounds), n_steps, min(self.chunks.rows, m)),
                              dtype=blocks.dtype)

    def basis_rows(self, idx, j):
        """Rows ``idx`` of the basis G (m x j) as a contiguous (len(idx), j) array."""
        idx = np.asarray(idx, dtype=np.intp)
        rows = self.chunks.rows
        return np.ascontiguousarray(self.basis[idx // rows, :j, idx % rows])

    def _basis_block(self, b, j, n):
        """Chunk b's first j rows of G' (j, n): one contiguous block (n = rows)."""
        return self.basis[b, :j, :n]

    def winner_at(self, rows, winner, j):
        """The entries at ``rows`` of the basis row j that :meth:`run` writes for
        ``winner`` (prepared, gi (j,), pivot, row): the candidates' new column of G
        before the pass that writes it."""
        prepared, gi, pivot, local = winner
        dt = self.blocks.dtype
        t = self.blocks.at_rows(prepared, rows)[0]
        if j:
            t -= self.basis_rows(rows, j) @ np.asarray(gi, dtype=dt)
        g = t.astype(float) / np.sqrt(pivot)
        g[np.asarray(rows) == local] = np.sqrt(pivot)
        return g.astype(dt)

    def norms(self, prepared, Gc, j, scores=None):
        """Squared norms of the deflated kernel columns of the candidates,
        ||K[:, c] - G G[c, :]'||^2, for the candidates ``prepared`` by the blocks and
        their rows of the basis ``Gc`` (c, j); ``scores``: see :meth:`run`."""
        return self.run(j, None, (prepared, Gc), scores)[1]

    def deflate(self, j, prepared, gi, pivot, local):
        """Step j's deflation by the winner (``prepared`` by the blocks, its basis row
        ``gi`` (j,), its residual ``pivot``, its row ``local`` here or None); see
        :meth:`run`. Returns (largest residual before, smallest after, its row)."""
        return self.run(j, (prepared, gi, pivot, local), None)[0]

    def run(self, j, winner=None, candidates=None, scores=None):
        """One pass over the chunks: the winner's deflation, then the candidates' norms.

        ``winner`` (prepared, gi (j,), pivot, row or None): writes
        g = (K[:, i] - G gi) / sqrt(pivot) (its entry i exactly sqrt(pivot)) as the basis
        row j, subtracts g^2 from the residual diagonal and clips it at 0. Returns the
        largest residual before, and the smallest after (before clipping) and its row.

        ``candidates`` (prepared, Gc): the squared norms of their deflated kernel
        columns by the basis rows so far (j, or j + 1 after a winner), Gc their rows of
        it. Both in one pass read each chunk of the basis once, while it is in cache.
        ``scores`` (np.float32 or None): the precision of the candidates' blocks, when
        lower than the basis's (estimates, within :func:`mpcore._skpca_scores.bounds`).

        After a winner, ``winner_sq`` is ||g||^2: its quotient, computed in the precision
        of the basis.
        """
        blocks, chunks, dt = self.blocks, self.chunks, self.blocks.dtype
        nb = len(chunks.bounds)
        exact = dt == np.float64
        if winner is not None:
            prep_w, gi, pivot, local = winner
            root = np.sqrt(pivot)
            gi = np.ascontiguousarray(gi, dtype=dt)
            high, low, worst = np.empty(nb), np.empty(nb), np.empty(nb, dtype=np.intp)
            wsq = np.empty(nb)
        if candidates is not None:
            prepared, Gc = candidates
            c = len(prepared)
            jc = j + (winner is not None)
            sdt = dt if scores is None else np.dtype(scores)
            if sdt != dt:
                prepared = np.asarray(prepared, dtype=sdt)
            Gc = np.ascontiguousarray(Gc, dtype=sdt)
            sums = np.empty((nb, c))
        # candidates in a lower precision after a winner: the winner's pass rounds the
        # chunk of the basis it has just read, while that is still in cache
        rounds = candidates is not None and sdt != dt and winner is not None

        def rounded(n):
            """This thread's copy of a chunk's basis rows in the candidates' precision."""
            return chunks.buffer("G", (self.basis.shape[1], chunks.rows), sdt)[:, :n]

        def deflate(b, s, e):
            n = e - s
            t = self.basis[b, j, :n]
            work = chunks.buffer("A", (blocks.work_rows, chunks.rows), dt)
            blocks.block(prep_w, s, e, out=t[None, :], work=work)
            if j:  # t -= G[s:e] gi
                u = chunks.buffer("u", (chunks.rows,), dt)[:n]
                np.matmul(gi, self._basis_block(b, j, n), out=u)
                if rounds:
                    np.copyto(rounded(n)[:j], self._basis_block(b, j, n), casting="same_kind")
                t -= u
            if exact:
                g = t
                g /= root
            else:  # the quotient in float64, then deflate by the basis as stored
                g = chunks.buffer("g", (chunks.rows,), float)[:n]
                g[...] = t
                g /= root
            if local is not None and s <= local < e:
                g[local - s] = root  # exact pivot entry: the chosen point is spanned
            if not exact:
                t[...] = g
                g[...] = t
            if rounds:
                rounded(n)[j] = t
            dc = self.d[s:e]
            high[b] = dc.max()
            sq = chunks.buffer("sq", (chunks.rows,), float)[:n]
            np.multiply(g, g, out=sq)
            wsq[b] = sq.sum()
            dc -= sq
            if local is not None and s <= local < e:
                dc[local - s] = 0.0
            w = int(np.argmin(dc))
            low[b], worst[b] = dc[w], s + w
            np.maximum(dc, 0.0, out=dc)

        def norms(b, s, e):
            n = e - s
            P = chunks.buffer("P", (chunks.rows * c,), sdt)[: c * n].reshape(c, n)
            work = chunks.buffer("A", (blocks.work_rows, chunks.rows), sdt)
            # after a winner's column the scratch holds these rows already
            blocks.block(prepared, s, e, out=P, work=work,
                         filled=winner is not None and sdt == dt)
            if jc:  # P -= Gc G[s:e]' (numpy's matmul lets the other threads run)
                T = chunks.buffer("T", (chunks.rows * c,), sdt)[: c * n].reshape(c, n)
                Gb = self._basis_block(b, jc, n)
                if sdt != dt:  # this chunk of the basis, rounded
                    Gb = rounded(n)[:jc]
                    if not rounds:
                        np.copyto(Gb, self._basis_block(b, jc, n), casting="same_kind")
                np.matmul(Gc, Gb, out=T)
                P -= T
            sums[b] = np.vecdot(P, P)

        def part(b, s, e):
            if winner is not None:
                deflate(b, s, e)
            if candidates is not None:
                norms(b, s, e)

        chunks.map(part)
        stats = col_sq = None
        if winner is not None:
            b = int(np.argmin(low))  # the first chunk holding the smallest: np.argmin's row
            stats = float(high.max()), float(low[b]), int(worst[b])
            self.winner_sq = float(np.sum(wsq))
        if candidates is not None:
            col_sq = np.sum(sums, axis=0)
        return stats, col_sq

    def close(self):
        self.chunks.close()


#: Quotients this close to the largest, relative to it, are a tie (rounding of the block
#: products is about m * eps relative; this is far above it and far below any real gap).
TIE_RTOL = 1e-9


def candidate_steps(
    blocks, diag, n_steps, *, n_candidates, random_state, tol, n_threads=None, arrays=True,
) -> Iterator[SKPCAStep]:
    """The 59-trick's steps (see :func:`mpcore.skpca.greedy_steps`) on kernel ``blocks``.

    ``blocks`` is a :class:`DataBlocks` or :class:`MatrixBlocks`; ``diag`` the kernel
    diagonal (m,). The candidate draws are those of the column-at-a-time loop, so the
    same seed gives the same picks. ``arrays=False`` yields light records (no m-sized
    ``quotients`` and ``residual_diag``, only the chosen ``quotient``): what a fit keeps,
    without writing two fresh m-sized arrays per step.

    Each step's deflation runs in one pass with the next step's candidates, so each
    chunk of the basis is read once per step. The next candidates are drawn before that
    deflation, from the points not yet spanned minus the winner: a deflation only ever
    lowers the residuals, so this is the true set unless another point fell to the
    threshold too, and then the draw is undone (the random state restored) and made
    again from the true set, as the column-at-a-time loop draws.
    """
    m = diag.shape[0]
    rng = check_random_state_arg(random_state)
    diag_max = max(float(np.max(diag)), 0.0)
    threshold = effective_tol(tol, m) * diag_max
    # rounding bound for the PSD check between steps, as in the exact loop
    err = m * np.finfo(float).eps * diag_max
    negative = -PSD_NEG_RATIO * max(float(np.max(np.abs(diag))), np.finfo(float).tiny)
    k = min(n_steps, m)
    if threshold <= 0:
        return
    state = ResidualState(blocks, diag, k, min(n_candidates, m), n_threads)
    d = state.d
    # candidates scored in float32 where that keeps the float64 pick (see _skpca_scores)
    scores = np.float32 if _scores.usable(blocks, blocks.dtype, arrays) else None

    def positions(n):
        # rng.choice(alive, size) is alive[rng.choice(alive.size, size)]: the same draws
        return rng.choice(n, size=min(n_candidates, n), replace=False)

    # The next step's draw runs on a thread of its own during this step's pass (the
    # permutation behind it, m random swaps, lets other threads run). It needs only the
    # number of points it draws from: one fewer than this step's, unless another point was
    # spanned too, and then it is undone.
    drawer = ThreadPoolExecutor(1, thread_name_prefix="mpcore-draw") if (
        state.chunks.n_threads > 1) else None
    ahead = None  # (n, random state before, future of positions(n))

    def draw(alive, j):
        nonlocal ahead
        if ahead is not None and ahead[0] == alive.size:
            before, pos = ahead[1], ahead[2].result()
        else:
            undo_ahead()
            before = rng.get_state()
            pos = positions(alive.size)
        ahead = None
        if drawer is not None and j + 1 < k and alive.size > 1:
            ahead = alive.size - 1, rng.get_state(), drawer.submit(positions, alive.size - 1)
        cand = np.sort(alive[pos])
        return cand, blocks.prepare(cand), before

    def undo_ahead():
        nonlocal ahead
        if ahead is not None:
            try:
                ahead[2].result()
            finally:
                rng.set_state(ahead[1])
                ahead = None

    try:
        alive = np.flatnonzero(d > threshold)
        pending = None  # the last winner, its deflation not yet done
        for j in range(k + 1):  # j basis rows written before the pass of step j
            if pending is None:
                if alive.size == 0 or j == k:
                    return
                cand, prepared, _ = draw(alive, j)
                Gc = state.basis_rows(cand, j)
                col_sq = state.norms(prepared, Gc, j, scores)
            else:
                i, q_best, quotients, winner = pending
                guess = np.delete(alive, np.searchsorted(alive, i))
                drawn = j < k and guess.size > 0
                cands = None
                if drawn:
                    cand, prepared, before = draw(guess, j)
                    Gc = np.empty((len(cand), j), dtype=blocks.dtype)
                    Gc[:, : j - 1] = state.basis_rows(cand, j - 1)
                    Gc[:, j - 1] = state.winner_at(cand, winner, j - 1)
                    cands = (prepared, Gc)
                (high, low, worst), col_sq = state.run(j - 1, winner, cands, scores)
                if q_best is None:  # picked on float32 scores: its float64 quotient
                    q_best = state.winner_sq
                err += err / winner[2] * high
                if low < min(negative, -err):
                    raise_not_psd(low, worst, j - 1)
                alive = np.flatnonzero(d > threshold)
                if drawn and alive.size != guess.size:  # another point is spanned now
                    undo_ahead()
                    rng.set_state(before)
                    drawn = alive.size > 0
                    if drawn:
                        cand, prepared, _ = draw(alive, j)
                        Gc = state.basis_rows(cand, j)
                        col_sq = state.norms(prepared, Gc, j, scores)
                residual = d.copy() if arrays else None
                yield SKPCAStep(step=j, index=i, quotients=quotients, residual_diag=residual,
                                trace_residual=float(d.sum()), quotient=q_best)
                if not drawn:
                    return
            sure = np.arange(len(cand))
            if scores is not None:
                bound = _scores.bounds(col_sq, m, j, state.chunks.rows, blocks.X.shape[1],
                                       blocks.gamma_r2)
                sure = _scores.contenders(col_sq, bound, d[cand], TIE_RTOL)
                if len(sure) > 1:  # scored again in float64, those rows only
                    col_sq = state.norms(prepared[sure], Gc[sure], j)
            q_best = None
            if scores is None or len(sure) > 1:
                q = col_sq / d[cand[sure]]
                # quotients equal in exact arithmetic (a rank-one residual makes every
                # quotient its trace) differ here in the last bits, and those bits depend
                # on how the kernel block was formed (from X or from a precomputed K): a
                # tie within TIE_RTOL goes to the lowest index, as an exact tie does
                # under argmax
                top = int(np.flatnonzero(q >= q.max() * (1.0 - TIE_RTOL))[0])
                q_best = float(q[top])
                sure = sure[top:top + 1]
            i = int(cand[sure[0]])
            quotients = None
            if arrays:
                quotients = np.full(m, np.nan)
                quotients[cand] = q
            winner = (blocks.prepare([i]), state.basis_rows([i], j)[0], float(d[i]), i)
            pending = i, q_best, quotients, winner
    finally:
        undo_ahead()  # a draw made ahead for a step that never came is undone
        if drawer is not None:
            drawer.shutdown(wait=True)
        state.close()
