"""Sparse kernel PCA's 59-trick on a dask.distributed cluster, for X as a dask array.

Each row chunk of X lives on a worker in a :class:`ChunkState` actor, with its
rows of the residual diagonal and of the basis G' (k x rows, preallocated), so m
is bounded by the cluster's memory, not one machine's. The client runs the loop
of :func:`mpcore.skpca_large.candidate_steps` and keeps only O(k c) numbers and
one bit per point (the not-yet-spanned mask from which the candidates are drawn,
as in memory, so the same seed gives the same picks up to ties within rounding).

Per step, with c candidates, j steps so far and d features, the network carries:

1. to the workers holding candidates: their local indices; back: the candidates'
   rows of X (c x d), residual diagonals (c) and rows of the basis (c x j);
2. to every worker: those candidate rows, prepared (c x (d + 2)), and their basis
   rows (c x j); back: c partial sums of squares;
3. to every worker: the winner's row of X, of the basis (j) and its pivot; back:
   the chunk's smallest, largest and total residual and its not-yet-spanned mask
   (one bit per row).

dask is imported here only: ``import mpcore`` never imports it.
"""

from __future__ import annotations

import numpy as np

from ._validation import PSD_NEG_RATIO, check_array_data, check_random_state_arg
from .kernels import check_psd_kernel, kernel_diag
from ._skpca_step import WHERE, FitProgress, effective_tol, raise_not_psd
from .skpca_large import DataBlocks, ResidualState, check_dtype

__all__ = ["ChunkState", "fit_dask", "peak_rss"]


class ChunkState:
    """One row chunk of X on a worker: its rows of the residual diagonal and the basis.

    Runs as a dask actor: the arrays stay on the worker, and every method takes and
    returns only small arrays (see the module docstring).
    """

    def __init__(self, X, params, dtype, n_steps, n_candidates):
        X = check_array_data(X, "X")  # finite, magnitudes: the chunk's own checks
        self.blocks = DataBlocks(X, params, dtype)
        self.state = ResidualState(self.blocks, kernel_diag(X, **params), n_steps,
                                   n_candidates, _worker_threads())
        self.d = self.state.d

    def stats(self):
        """(max, max |.|, sum) of the residual diagonal and the number of rows."""
        d = self.d
        return float(d.max()), float(np.abs(d).max()), float(d.sum()), d.size

    def alive(self, threshold):
        """The not-yet-spanned mask (d > threshold), packed to one bit per row."""
        return np.packbits(self.d > threshold)

    def rows(self, idx, j):
        """Rows ``idx`` (local) of X, their squared norms, residuals and basis rows (j, c)."""
        idx = np.asarray(idx)
        C, sq = self.blocks.points(idx)
        return C, sq, self.d[idx], self.state.basis_rows(idx, j).T

    def norms(self, C, sq, Gc, j):
        """This chunk's part of the candidates' squared deflated column norms."""
        prepared = self.blocks.prepare_points(C, sq)
        return self.state.norms(prepared, Gc, j)

    def deflate(self, j, x, sq, gi, pivot, local, threshold):
        """Step j's deflation by the winner x (row ``local`` of this chunk, or None).

        Returns the smallest residual before clipping and where, the largest and the
        total after, and the packed not-yet-spanned mask.
        """
        prepared = self.blocks.prepare_points(x[None, :], None if sq is None else
                                              np.array([sq]))
        _, low, worst = self.state.deflate(j, prepared, gi, pivot, local)
        d = self.d
        return low, worst, float(d.max()), float(d.sum()), np.packbits(d > threshold)



def peak_rss():
    """This process's peak resident memory in bytes since it started (Linux VmHWM; not
    ru_maxrss, which a spawned process inherits from its parent): run it on every worker
    with ``client.run(peak_rss)``."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise OSError("no VmHWM in /proc/self/status (peak memory is read on Linux only)")


def _worker_threads():
    """The threads of the worker running this actor (1 outside a worker)."""
    try:
        from distributed import get_worker

        return max(1, int(get_worker().state.nthreads))
    except (ImportError, ValueError, AttributeError):
        return 1


def _client():
    try:
        from distributed import get_client
    except ImportError as exc:  # pragma: no cover - dask without distributed
        raise ValueError(
            "SparseKPCA on a dask array runs on dask.distributed: "
            'pip install "mp-kernels[dask]".'
        ) from exc
    try:
        return get_client()
    except ValueError:
        raise ValueError(
            "SparseKPCA on a dask array runs on a dask.distributed cluster, and no client "
            "is running: start one first, e.g. `from distributed import Client; client = "
            "Client('tcp://scheduler:8786')` (or Client() for a local cluster)."
        ) from None


def dask_steps(client, X, n_steps, params, *, n_candidates, random_state, tol, dtype,
               verbose=0):
    """Run the 59-trick on the chunks of the dask array X (m, d); ``verbose`` as
    :class:`mpcore.skpca.SparseKPCA`'s.

    Returns (indices, quotients, traces, basis points, actors); traces start with tr K.
    """
    X = X.rechunk({1: -1})  # whole rows in each chunk
    sizes = np.asarray(X.chunks[0], dtype=np.int64)
    sizes_kept = sizes[sizes > 0]
    offsets = np.concatenate([[0], np.cumsum(sizes_kept)])
    m = int(offsets[-1])
    k = min(n_steps, m)
    parts = [p for p, n in zip(X.to_delayed().ravel(), sizes) if n > 0]
    data = client.compute(parts)  # each chunk computed where the scheduler puts it
    # pure=False: a new actor per fit, never one a previous fit of the same data deflated
    actors = [client.submit(ChunkState, f, params, dtype, k, n_candidates, actor=True,
                            pure=False) for f in data]
    actors = [a.result() for a in actors]
    del data  # the actors hold the chunks now

    def gather(calls):
        return [c.result() for c in calls]

    stats = gather([a.stats() for a in actors])
    diag_max = max(max(s[0] for s in stats), 0.0)
    abs_max = max(s[1] for s in stats)
    traces = [float(sum(s[2] for s in stats))]
    threshold = effective_tol(tol, m) * diag_max
    err = m * np.finfo(float).eps * diag_max
    negative = -PSD_NEG_RATIO * max(abs_max, np.finfo(float).tiny)
    d_max = diag_max
    rng = check_random_state_arg(random_state)
    progress = FitProgress(verbose, k, traces[0])
    bits = gather([a.alive(threshold) for a in actors])
    indices, quotients, points = [], [], []
    for j in range(k):
        alive = _unpack(bits, sizes_kept)
        if alive.size == 0 or threshold <= 0:
            break
        cand = np.sort(rng.choice(alive, size=min(n_candidates, alive.size), replace=False))
        owner = np.searchsorted(offsets, cand, side="right") - 1
        held = np.unique(owner)
        got = dict(zip(held, gather([actors[b].rows(cand[owner == b] - offsets[b], j)
                                     for b in held])))
        C = np.concatenate([got[b][0] for b in held])  # cand is sorted: chunk order
        sq = None if got[held[0]][1] is None else np.concatenate([got[b][1] for b in held])
        dc = np.concatenate([got[b][2] for b in held])
        Gc = np.ascontiguousarray(np.concatenate([got[b][3] for b in held], axis=1).T)
        parts = gather([a.norms(C, sq, Gc, j) for a in actors])
        col_sq = np.sum(np.asarray(parts, dtype=float), axis=0)
        q = col_sq / dc
        best = int(np.argmax(q))
        i, pivot = int(cand[best]), float(dc[best])
        b_i = int(owner[best])
        res = gather([a.deflate(j, C[best], None if sq is None else float(sq[best]),
                                np.ascontiguousarray(Gc[best]), pivot,
                                i - int(offsets[b]) if b == b_i else None, threshold)
                      for b, a in enumerate(actors)])
        err += err / pivot * d_max
        low_b = int(np.argmin([r[0] for r in res]))
        if res[low_b][0] < min(negative, -err):
            raise_not_psd(res[low_b][0], int(offsets[low_b]) + res[low_b][1], j)
        d_max = max(r[2] for r in res)
        traces.append(float(sum(r[3] for r in res)))
        bits = [r[4] for r in res]
        indices.append(i)
        quotients.append(float(q[best]))
        points.append(C[best])
        progress.step(len(indices), traces[-1])
    if indices:
        progress.step(len(indices), traces[-1], last=True)
    return indices, quotients, traces, points, actors


def _unpack(bits, sizes):
    mask = np.concatenate([np.unpackbits(b, count=int(n)).astype(bool)
                           for b, n in zip(bits, sizes)])
    return np.flatnonzero(mask)


def fit_dask(est, X):
    """:meth:`SparseKPCA.fit` on a dask array X (m, d) with the 59-trick."""
    from ._skpca_step import PRECOMPUTED
    from ._validation import check_kernel_name, check_parameters

    check_parameters(est)
    if est.kernel == PRECOMPUTED or est.n_candidates is None:
        raise ValueError(
            "SparseKPCA takes X as a dask array with the 59-trick on data only: set "
            "n_candidates (e.g. 59) and a kernel other than 'precomputed', or pass a "
            "NumPy array."
        )
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (n_samples, n_features), got shape {X.shape}.")
    check_kernel_name(est.kernel, allow_non_psd=False, where=WHERE)
    dtype = check_dtype(est.dtype)
    est.gamma_ = 1.0 / X.shape[1] if est.gamma is None else float(est.gamma)
    params = est._kernel_params()
    check_psd_kernel(**params, where=WHERE)  # data-dependent choices are refused here
    client = _client()
    indices, quotients, traces, points, actors = dask_steps(
        client, X.astype(float), est.n_components, params, n_candidates=est.n_candidates,
        random_state=est.random_state, tol=float(est.tol), dtype=dtype, verbose=est.verbose)
    del actors  # the chunks and the basis leave the workers
    est._keep(indices, quotients, traces, int(X.shape[0]))
    est.n_features_in_ = int(X.shape[1])
    est.basis_ = np.array(points, dtype=float).reshape(len(points), X.shape[1])
    from .kernels import kernel_matrix

    est._set_chol(kernel_matrix(est.basis_, **params))
    return est
