"""The 59-trick at scale next to scikit-learn's Nystroem, and exact greedy against its floor.

Prints, in one run, and writes benchmarks/results_scale.md (the latest run only):

- SparseKPCA(100, n_candidates=59) and Nystroem(n_components=100) on X standard
  normal in 10-D, Gaussian kernel gamma = 0.1, at m = 50,000, 200,000 and 1,000,000:
  time, peak RSS and the relative trace residual tr(K - K~) / tr K. Each case runs in
  its own child process; its peak RSS is that child's ``ru_maxrss`` (os.wait4), so it
  counts the data, the libraries and everything the method allocates. SparseKPCA's
  time is its ``fit`` (which yields the residual); Nystroem's is ``fit`` plus the
  transform of all m points in chunks (its features, from which the residual comes);
- exact greedy SparseKPCA(100) at m = 3000 against its floor measured in the same run:
  forming K plus 100 matrix-vector products with it (medians of --repeats, the two
  taken in turns).

- with --dask M: M points as a dask array (generated on the workers) on a LocalCluster
  of two one-thread worker processes: time and each worker's peak memory.

  Each size runs in float64 and, with the default --dtypes, in float32 too; the float32
  row says whether its picks are float64's, in order.

Usage: python benchmarks/bench_scale.py [--sizes 50000 200000 1000000] [--repeats 9]
       [--dtypes float64 float32] [--dask 2000000] [--no-write]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

D, K, GAMMA, SEED = 10, 100, 0.1, 0
RESULTS = Path(__file__).with_name("results_scale.md")


def progress(msg):
    print(f"  ... {msg}", file=sys.stderr, flush=True)


def data(m):
    return np.random.default_rng(SEED).normal(size=(m, D))


def child(method, m, dtype):
    """One case, in this (child) process: prints a JSON line with time and residual."""
    X = data(m)
    # each case imports its library (only its own) before the clock starts
    if method == "skpca":
        from mpcore.skpca import SparseKPCA
    else:
        from sklearn.kernel_approximation import Nystroem
    t = time.perf_counter()
    if method == "skpca":
        fit = SparseKPCA(K, gamma=GAMMA, n_candidates=59, random_state=SEED,
                         dtype=dtype).fit(X)
        residual = fit.trace_residuals_[-1] / fit.trace_residuals_[0]
        picks = [int(i) for i in fit.indices_]
    else:
        nys = Nystroem(kernel="rbf", gamma=GAMMA, n_components=K, random_state=SEED).fit(X)
        spanned = 0.0
        for s in range(0, m, 50_000):  # the features of every point, never all at once
            F = nys.transform(X[s : s + 50_000])
            spanned += float(np.einsum("ij,ij->", F, F))
        residual = (m - spanned) / m  # tr K = m for the Gaussian kernel
        picks = []
    elapsed = time.perf_counter() - t
    print(json.dumps({"time": elapsed, "residual": residual, "picks": picks}))


def run_child(method, m, dtype):
    """Runs one case in a child process: (time, peak RSS in MB, residual, CPU, picks)."""
    cmd = [sys.executable, __file__, "--child", method, str(m), "--dtype", dtype]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise RuntimeError(f"{method} at m = {m} failed (exit {proc.returncode})")
    res = json.loads(out.strip().splitlines()[-1])
    cpu = usage.ru_utime + usage.ru_stime  # the whole child: data, imports and the method
    # ru_maxrss in KiB
    return res["time"], usage.ru_maxrss / 1024, res["residual"], cpu, res["picks"]


def median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def exact_vs_floor(repeats):
    """Exact greedy at m = 3000, k = 100 against forming K plus 100 matvecs."""
    from mpcore.kernels import kernel_matrix
    from mpcore.skpca import SparseKPCA

    X = data(3000)

    def floor():
        Km = kernel_matrix(X, gamma=GAMMA)
        v = np.ones(3000)
        for _ in range(K):
            v = Km @ v
            v /= np.linalg.norm(v)

    # taken in turns, so that a change in the machine's other load falls on both alike
    t_floor, t_exact = [], []
    for _ in range(repeats):
        t_floor.append(median_time(floor, 1))
        t_exact.append(median_time(lambda: SparseKPCA(K, gamma=GAMMA).fit(X), 1))
    t_exact, t_floor = statistics.median(t_exact), statistics.median(t_floor)
    return t_exact, t_floor


def dask_case(m, n_chunks=8):
    """The 59-trick on a dask array of m points on a LocalCluster of two one-thread worker
    processes: (time, peak memory of each worker in MB, residual)."""
    import dask.array as da
    from distributed import Client, LocalCluster

    from mpcore.dask_skpca import peak_rss
    from mpcore.skpca import SparseKPCA

    rows = -(-m // n_chunks)

    def block(block_info=None):  # generated on the workers, never shipped
        (s, e), _ = block_info[None]["array-location"]
        return np.random.default_rng([SEED, s]).normal(size=(e - s, D))

    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        X = da.map_blocks(block, chunks=((rows,) * (m // rows) + ((m % rows,) if m % rows
                                          else ()), (D,)), dtype=float)
        t = time.perf_counter()
        fit = SparseKPCA(K, gamma=GAMMA, n_candidates=59, random_state=SEED).fit(X)
        elapsed = time.perf_counter() - t
        peaks = sorted(v / 2**20 for v in client.run(peak_rss).values())
    return elapsed, peaks, fit.trace_residuals_[-1] / fit.trace_residuals_[0]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[50_000, 200_000, 1_000_000])
    ap.add_argument("--repeats", type=int, default=9)
    ap.add_argument("--dtypes", nargs="+", default=["float64", "float32"],
                    choices=["float64", "float32"])
    ap.add_argument("--dtype", default="float64", help=argparse.SUPPRESS)  # a child's
    ap.add_argument("--no-write", action="store_true", help="print only")
    ap.add_argument("--dask", type=int, metavar="M", default=0,
                    help="also run M points as a dask array on a two-worker LocalCluster")
    ap.add_argument("--child", nargs=2, metavar=("METHOD", "M"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return child(args.child[0], int(args.child[1]), args.dtype)

    lines = [f"# Sparse KPCA at scale ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})",
             "",
             f"X standard normal, d = {D}, Gaussian kernel gamma = {GAMMA}, k = {K}, "
             f"os.cpu_count() = {os.cpu_count()}, load average before the run "
             f"{os.getloadavg()[0]:.2f}; each case in its own process (peak RSS = its "
             "ru_maxrss).",
             "",
             "Times are wall-clock seconds of the method; CPU is the whole child process's "
             "user + system seconds (on a shared machine the wall time grows with the other "
             "load, the CPU time much less).",
             "",
             "| m | precision | SparseKPCA 59-trick [s] | CPU [s] | peak RSS [MB] | residual "
             "| picks as float64's | Nystroem(100) fit + transform [s] | CPU [s] "
             "| peak RSS [MB] | residual |",
             "|---:|---|---:|---:|---:|---:|:---:|---:|---:|---:|---:|"]
    for m in args.sizes:
        progress(f"m = {m:,}: Nystroem")
        b = run_child("nystroem", m, "float64")
        picks64 = None
        for dtype in args.dtypes:
            progress(f"m = {m:,}: SparseKPCA 59-trick, {dtype}")
            a = run_child("skpca", m, dtype)
            if dtype == "float64":
                picks64 = a[4]
            same = ("(itself)" if dtype == "float64" else "not run" if picks64 is None
                    else "yes" if a[4] == picks64 else
                    f"no: {sum(p != q for p, q in zip(a[4], picks64))} of {len(a[4])} differ")
            lines.append(f"| {m:,} | {dtype} | {a[0]:.1f} | {a[3]:.1f} | {a[1]:.0f} | "
                         f"{a[2]:.4f} | {same} | {b[0]:.1f} | {b[3]:.1f} | {b[1]:.0f} | "
                         f"{b[2]:.4f} |")
            print(lines[-1], flush=True)
    progress("exact greedy at m = 3000 against its floor")
    t_exact, t_floor = exact_vs_floor(args.repeats)
    lines += ["", "| exact greedy SparseKPCA(100), m = 3000 | floor: form K + 100 matvecs "
              "| ratio |", "|---:|---:|---:|",
              f"| {t_exact:.3f} s | {t_floor:.3f} s | {t_exact / t_floor:.2f} |", ""]
    if args.dask:
        progress(f"dask: m = {args.dask:,} on a LocalCluster of two one-thread workers")
        t, peaks, res = dask_case(args.dask)
        lines += [f"Dask, m = {args.dask:,} in 8 row chunks, LocalCluster(n_workers=2, "
                  "threads_per_worker=1): "
                  f"{t:.1f} s, residual {res:.4f}, each worker's peak memory (VmHWM) "
                  f"{', '.join(f'{p:.0f}' for p in peaks)} MB.", ""]
    text = "\n".join(lines)
    print(text)
    if not args.no_write:
        RESULTS.write_text(text)


if __name__ == "__main__":
    main()
