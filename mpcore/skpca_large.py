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
core. The basis :math:`G'` (k x m) is one preallocated array; the winner's
deflated column is recomputed the same way (one kernel column, one
matrix-vector product) rather than kept from the block, which would cost an
(m x c) array.

The picks and residuals are those of the column-at-a-time loop it replaces (up
to rounding in the last digits, which can only matter at exact ties).
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
from ._skpca_step import SKPCAStep, effective_tol, raise_not_psd

__all__ = ["DataBlocks", "MatrixBlocks", "ResidualState", "candidate_steps", "check_basis_size",
           "check_dtype"]

#: Entries of one (candidates x rows) block: small enough to stay in a core's cache.
BLOCK_ENTRIES = 1 << 17
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

    #: Columns of the scratch array :meth:`block` takes (none needed).
    work_cols = 1

    def block(self, idx, s, e, out=None, work=None):
        """K[s:e, idx]' as a (len(idx), e - s) array of ``dtype`` (in ``out`` if given)."""
        if out is None:
            out = np.empty((len(idx), e - s), dtype=self.dtype)
        out[...] = self.K[s:e, idx].T
        return out


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
        #: Columns of the scratch array :meth:`block` takes: [x, ||x||^2, 1].
        self.work_cols = X.shape[1] + 2

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

    def block(self, prepared, s, e, out=None, work=None):
        """k(X[s:e], candidates)' as a (c, e - s) array of ``dtype``.

        ``out`` (c, e - s) receives it and ``work`` (at least e - s, d + 2) is scratch,
        both allocated when not given: reusing them keeps the chunk loop free of
        allocations, which otherwise cost as much as the arithmetic.
        """
        if out is None:
            out = np.empty((len(prepared), e - s), dtype=self.dtype)
        if not self.rbf:
            out[...] = kernel_matrix(self.X[s:e], prepared, **self.params).T
            return out
        d = self.X.shape[1]
        A = np.empty((e - s, d + 2), dtype=self.dtype) if work is None else work[: e - s]
        A[:, :d] = self.X[s:e]
        A[:, d] = self.sq[s:e]
        A[:, d + 1] = 1.0
        np.matmul(prepared, A.T, out=out)
        # a'b = -gamma ||x - c||^2 <= 0 up to rounding: exp never overflows
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
        buf = bufs.get(name)
        if buf is None or buf.dtype != dtype or buf.shape[1:] != shape[1:] or (
                buf.shape[0] < shape[0]):
            buf = bufs[name] = np.empty(shape, dtype=dtype)
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
    contiguous block, handed to BLAS without a copy. Both passes of a step (the
    candidates' deflated norms, the winner's deflation) run over the chunks on every core
    and reuse per-thread buffers, so no m-sized temporary is made.
    """

    def __init__(self, blocks, diag, n_steps, n_candidates, n_threads=None):
        from scipy.linalg import get_blas_funcs

        self.blocks = blocks
        self.m = m = diag.shape[0]
        #: The residual diagonal (m,), float64 whatever ``blocks.dtype``.
        self.d = diag.astype(float).copy()
        self.chunks = _Chunks(m, n_candidates, n_threads)
        rows = self.chunks.rows
        self.basis = np.zeros((len(self.chunks.bounds), min(n_steps, m), rows),
                              dtype=blocks.dtype)
        probe = np.empty(0, dtype=blocks.dtype)
        self._gemm, self._gemv = get_blas_funcs(("gemm", "gemv"), (probe,))

    def basis_rows(self, idx, j):
        """Rows ``idx`` of the basis G (m x j) as a contiguous (len(idx), j) array."""
        idx = np.asarray(idx, dtype=np.intp)
        rows = self.chunks.rows
        return np.ascontiguousarray(self.basis[idx // rows, :j, idx % rows])

    def _basis_block(self, b, j, n):
        """Chunk b's first j rows of G' (j, n), transposed: (n, j) in Fortran order."""
        return self.basis[b, :j, :n].T

    def norms(self, prepared, Gc, j):
        """Squared norms of the deflated kernel columns of the candidates,
        ||K[:, c] - G G[c, :]'||^2, for the candidates ``prepared`` by the blocks and
        their rows of the basis ``Gc`` (c, j)."""
        blocks, chunks, dt = self.blocks, self.chunks, self.blocks.dtype
        c = len(prepared)
        GcT = np.ascontiguousarray(Gc, dtype=dt).T  # (j, c) in Fortran order
        sums = np.empty((len(chunks.bounds), c))

        def part(b, s, e):
            n = e - s
            P = chunks.buffer("P", (chunks.rows * c,), dt)[: c * n].reshape(c, n)
            work = chunks.buffer("A", (chunks.rows, blocks.work_cols), dt)
            blocks.block(prepared, s, e, out=P, work=work)
            if j:  # P' -= G[s:e] Gc' in place: P' is (n, c) in Fortran order
                self._gemm(-1.0, self._basis_block(b, j, n), GcT, beta=1.0, c=P.T,
                           overwrite_c=1)
            sums[b] = np.vecdot(P, P)

        chunks.map(part)
        return np.sum(sums, axis=0)

    def deflate(self, j, prepared, gi, pivot, local):
        """Step j's deflation by the winner (``prepared`` by the blocks, its basis row
        ``gi`` (j,), its residual ``pivot``, its row ``local`` here or None).

        Writes g = (K[:, i] - G gi) / sqrt(pivot) (its entry i exactly sqrt(pivot)) as
        the basis row j, subtracts g^2 from the residual diagonal and clips it at 0.
        Returns the largest residual before, and the smallest after (before clipping)
        and its row.
        """
        blocks, chunks, dt = self.blocks, self.chunks, self.blocks.dtype
        nb = len(chunks.bounds)
        root = np.sqrt(pivot)
        gi = np.ascontiguousarray(gi, dtype=dt)
        high, low, worst = np.empty(nb), np.empty(nb), np.empty(nb, dtype=np.intp)
        exact = dt == np.float64

        def part(b, s, e):
            n = e - s
            t = self.basis[b, j, :n]
            work = chunks.buffer("A", (chunks.rows, blocks.work_cols), dt)
            blocks.block(prepared, s, e, out=t[None, :], work=work)
            if j:  # t -= G[s:e] gi in place
                self._gemv(-1.0, self._basis_block(b, j, n), gi, beta=1.0, y=t,
                           overwrite_y=1)
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
            dc = self.d[s:e]
            high[b] = dc.max()
            sq = chunks.buffer("sq", (chunks.rows,), float)[:n]
            np.multiply(g, g, out=sq)
            dc -= sq
            if local is not None and s <= local < e:
                dc[local - s] = 0.0
            w = int(np.argmin(dc))
            low[b], worst[b] = dc[w], s + w
            np.maximum(dc, 0.0, out=dc)

        chunks.map(part)
        b = int(np.argmin(low))  # the first chunk holding the smallest: np.argmin's row
        return float(high.max()), float(low[b]), int(worst[b])

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
    """
    m = diag.shape[0]
    rng = check_random_state_arg(random_state)
    diag_max = max(float(np.max(diag)), 0.0)
    threshold = effective_tol(tol, m) * diag_max
    # rounding bound for the PSD check between steps, as in the exact loop
    err = m * np.finfo(float).eps * diag_max
    negative = -PSD_NEG_RATIO * max(float(np.max(np.abs(diag))), np.finfo(float).tiny)
    k = min(n_steps, m)
    state = ResidualState(blocks, diag, k, min(n_candidates, m), n_threads)
    d = state.d
    try:
        alive = np.flatnonzero(d > threshold)
        for j in range(k):
            if alive.size == 0 or threshold <= 0:
                return
            cand = np.sort(rng.choice(alive, size=min(n_candidates, alive.size), replace=False))
            col_sq = state.norms(blocks.prepare(cand), state.basis_rows(cand, j), j)
            q = col_sq / d[cand]
            # quotients equal in exact arithmetic (a rank-one residual makes every quotient
            # its trace) differ here in the last bits, and those bits depend on how the
            # kernel block was formed (from X or from a precomputed K): a tie within
            # TIE_RTOL goes to the lowest index, as an exact tie does under argmax
            best = int(np.flatnonzero(q >= q.max() * (1.0 - TIE_RTOL))[0])
            i = int(cand[best])
            pivot = d[i]
            high, low, worst = state.deflate(j, blocks.prepare([i]),
                                             state.basis_rows([i], j)[0], pivot, i)
            err += err / pivot * high
            if low < min(negative, -err):
                raise_not_psd(low, worst, j)
            alive = np.flatnonzero(d > threshold)
            quotients = residual = None
            if arrays:
                quotients = np.full(m, np.nan)
                quotients[cand] = q
                residual = d.copy()
            yield SKPCAStep(step=j + 1, index=i, quotients=quotients, residual_diag=residual,
                            trace_residual=float(d.sum()), quotient=float(q[best]))
    finally:
        state.close()
