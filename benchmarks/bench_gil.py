"""The eigenvalue page's timed run alone, and beside its error curves (a thread, a process).

Not a test. The page times every eigen-solver on one kernel matrix K while it computes the
error curves (every method over the grids of k and q, with Eq. 3). NumPy's matrix products
release the GIL; the eigensolvers (LAPACK through scipy.linalg.eigh and numpy.linalg.eigvalsh,
ARPACK through eigsh) keep it, so a thread of the server's process computing the curves runs
in turns with the timing; the app computes them in a process of their own
(``pages.common.cached.CurvesProcess``). This script measures both on a K of the page's
default size (boston's 506 points, features standardised, rbf with sigma = 3; the page's
default k = 50, q = 100, n = 10, and its curves for the top 50 up to k = 300), one BLAS
thread as in the app:

* each method's time in the timed run alone (the peer), with the error curves computing on
  a second thread, and with them computing in a second process (spawned, one BLAS thread,
  as the app's), and the ratios;
* the same with the curves in two halves, as the app computes them since cc0e812: the
  sketches' half (with Eq. 3) in the process, and the Nyström half in the timed run's
  process once the methods are timed (``pages.common.cached.split_curves``);
* the timed run and the curves one after the other, on two threads, in two processes, and
  in two processes in halves: their total time;
* the longest a second thread of the process waits for the GIL (as another session of the
  server would) while the curves compute on a thread, and in the process;
* how long a second thread waits for the GIL while one dense ``eigh`` of K runs.

Usage::

    python benchmarks/bench_gil.py [--repeats 5] [--output benchmarks/results_gil.md]
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import scipy.linalg
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _progress import progress  # noqa: E402  (benchmarks/, this script's folder)
from datasets import load  # noqa: E402
from mpcore import validated_kernel  # noqa: E402
from mpcore.kernels import kernel_matrix  # noqa: E402
from views import spectrum as vs  # noqa: E402

SIGMA, K_COLS, Q, N_EIG, N_TOP, K_MAX, SEED = 3.0, 50, 100, 10, 50, 300, 0


def page_kernel() -> np.ndarray:
    """boston's features standardised, rbf kernel of width SIGMA (gamma = 1 / (2 sigma^2))."""
    X = load("boston").X
    X = (X - X.mean(0)) / np.where(X.std(0) > 0, X.std(0), 1.0)
    return np.asarray(kernel_matrix(X, kernel="rbf", gamma=1.0 / (2 * SIGMA**2)))


def timed_run(K) -> dict[str, float]:
    """The page's timed run on a freshly checked K: seconds per method."""
    K = validated_kernel(K.copy())
    run = vs.compare_methods(K, SEED, K_COLS, Q, N_EIG, vs.exact_spectrum(K, N_TOP))
    return {row["method"]: row["time (s)"] for row in run["rows"]}


def curves(K, parts: tuple[str, ...] = vs.CURVE_PARTS) -> None:
    """The error curves, or the halves named (``("ekm",)``: the sketches' half, what the
    app's curves process computes)."""
    vs.error_curves_by_eigenvalue(validated_kernel(K.copy()), SEED, N_TOP, K_MAX, parts=parts)


#: The sketches' half of the error curves.
SKETCHES = ("ekm",)


def in_halves(pool, K) -> dict[str, float]:
    """The app's way: the sketches' half in the pool's process; meanwhile the timed run,
    then the Nyström half here, from the run's exact spectrum. The timed run's seconds."""
    job = pool.submit(curves, K, SKETCHES)
    time.sleep(0.02)  # as in_process: the half is under way
    K = validated_kernel(K.copy())
    exact = vs.exact_spectrum(K, N_TOP)
    run = vs.compare_methods(K, SEED, K_COLS, Q, N_EIG, exact)
    vs.error_curves_by_eigenvalue(K, SEED, N_TOP, K_MAX, exact=exact, parts=("nystrom",))
    job.result()
    return {row["method"]: row["time (s)"] for row in run["rows"]}


def beside(K) -> dict[str, float]:
    """The timed run while the error curves compute on a second thread (started first)."""
    worker = threading.Thread(target=curves, args=(K,))
    worker.start()
    time.sleep(0.005)  # the curves are under way
    out = timed_run(K)
    worker.join()
    return out


def in_process(pool, K) -> dict[str, float]:
    """The timed run while the error curves compute in the pool's process."""
    job = pool.submit(curves, K)
    time.sleep(0.02)  # the curves are under way (K's copy has reached the process)
    out = timed_run(K)
    job.result()
    return out


def stall(work) -> tuple[float, float]:
    """(seconds of ``work()``, the longest a thread of this process asking for 1 ms of sleep
    waited meanwhile): what another session of the server waits for the GIL."""
    waits, stop = [], threading.Event()

    def ticker():
        while not stop.is_set():
            t = time.perf_counter()
            time.sleep(0.001)
            waits.append(time.perf_counter() - t)

    th = threading.Thread(target=ticker)
    th.start()
    time.sleep(0.05)
    t = time.perf_counter()
    work()
    took = time.perf_counter() - t
    stop.set()
    th.join()
    return took, max(waits)


def gil_wait(m: int) -> tuple[float, float]:
    """(seconds of one dense eigh of an m x m symmetric matrix, the longest a second thread
    asking for 1 ms of sleep waited meanwhile)."""
    A = np.random.default_rng(0).normal(size=(m, m))
    A = A + A.T
    return stall(lambda: scipy.linalg.eigh(A, eigvals_only=True))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--output", type=Path, default=None, help="also write the tables here")
    args = ap.parse_args(argv)
    threadpool_limits(limits=1, user_api="blas")
    K = page_kernel()
    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                               initializer=vs.limit_blas_threads, initargs=(1,))
    timed_run(K)
    curves(K)
    pool.submit(curves, K).result()  # imports and first calls out of the way
    pool.submit(curves, K, SKETCHES).result()
    alone, with_curves, with_process, with_half = {}, {}, {}, {}
    totals = {"one after the other": [], "two threads": [], "two processes": [],
              "halves": []}
    # (what it prints as it runs, the work, where each method's time goes, where the total goes)
    variants = [
        ("timed run alone", lambda: timed_run(K), alone, None),
        ("timed run beside the curves", lambda: beside(K), with_curves, None),
        ("run, then curves", lambda: (timed_run(K), curves(K)), None, "one after the other"),
        ("run and curves on two threads", lambda: beside(K), None, "two threads"),
        ("timed run beside the curves' process", lambda: in_process(pool, K), with_process,
         None),
        ("run and curves in two processes", lambda: in_process(pool, K), None,
         "two processes"),
        ("timed run beside the sketches' half", lambda: in_halves(pool, K), with_half, None),
        ("run and curves in halves", lambda: in_halves(pool, K), None, "halves"),
    ]
    steps, done = len(variants) * args.repeats, 0
    for _ in range(args.repeats):  # round robin: a load spike spreads over every variant
        for label, work, per_method, total in variants:
            t = time.perf_counter()
            out = work()
            took = time.perf_counter() - t
            if per_method is not None:
                for name, seconds in out.items():
                    per_method.setdefault(name, []).append(seconds)
            if total is not None:
                totals[total].append(took)
            done += 1
            progress(done, steps, label)
    stalls = {"on a thread": [], "in the process": []}
    for _ in range(args.repeats):
        stalls["on a thread"].append(stall(lambda: curves(K))[1])
        stalls["in the process"].append(stall(lambda: pool.submit(curves, K).result())[1])
    pool.shutdown()
    lines = [f"boston (m = {K.shape[0]}), rbf sigma = {SIGMA}, k = {K_COLS}, q = {Q}, "
             f"n = {N_EIG}; one BLAS thread; medians of {args.repeats}", "",
             "| method | alone [ms] (peer) | beside the curves on a thread [ms] | ratio | "
             "beside the curves' process [ms] | ratio | beside the sketches' half in the "
             "process [ms] | ratio |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name in alone:
        a, b, c, h = (statistics.median(d[name])
                      for d in (alone, with_curves, with_process, with_half))
        lines.append(f"| {name} | {1e3 * a:.2f} | {1e3 * b:.2f} | {b / a:.2f} | "
                     f"{1e3 * c:.2f} | {c / a:.2f} | {1e3 * h:.2f} | {h / a:.2f} |")
    seq, par, proc, half = (statistics.median(totals[k]) for k in totals)
    lines += ["", "| timed run and error curves | total [s] | ratio |", "|---|---:|---:|",
              f"| one after the other (peer) | {seq:.3f} | 1.00 |",
              f"| on two threads | {par:.3f} | {par / seq:.2f} |",
              f"| in two processes | {proc:.3f} | {proc / seq:.2f} |",
              f"| in two processes, the Nyström half after the timed run (the app) | "
              f"{half:.3f} | {half / seq:.2f} |", "",
              "| the error curves computing | another thread's longest wait for the GIL, "
              "median [s] |", "|---|---:|"]
    lines += [f"| {where} | {statistics.median(w):.3f} |" for where, w in stalls.items()]
    lines.append("")
    took, waited = gil_wait(K.shape[0] * 3)
    lines.append(f"One dense eigh of a {3 * K.shape[0]} x {3 * K.shape[0]} matrix took "
                 f"{took:.3f} s; a second thread asking for 1 ms of sleep waited up to "
                 f"{waited:.3f} s meanwhile (ratio {waited / took:.2f}: the GIL was kept).")
    text = "\n".join(lines)
    print(text)
    if args.output:
        args.output.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
