"""Approximate vs exact top-10 eigenvalues of an rbf kernel matrix: time and error.

Not a test. For m in SIZES, builds K = rbf(X, X) on m standard-normal points in
10-D (gamma = 1/10, scikit-learn's default 1/n_features), then times each
method's median (and minimum) over repeats and reports the relative error of the 10 largest
eigenvalues against dense ``eigh`` in the same run:

* dense eigh (all m eigenvalues), eigh restricted to the top 10
  (``subset_by_index``), Lanczos ``eigsh`` (top 10);
* Nystroem with k = 100 columns chosen by sparse KPCA (exact greedy and the
  59-trick), uniformly at random, or by incomplete-Cholesky pivots; the time
  includes choosing the columns;
* Marukatat's EKM method with a Gaussian or count sketch, q = 100 and 300.

Forming K itself is excluded (every method needs it); its time is printed.
Randomised methods use a different seed per repeat; their errors are those
of the median repeat (by max error), and the worst repeat is listed too.
Repeats run round-robin over the methods, so load spikes on a shared machine
spread over all of them.

Usage::

    python benchmarks/bench_spectrum.py [--sizes 1000 3000] [--repeats 5 3]
                                        [--output benchmarks/results_spectrum.md]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
import scipy
import scipy.linalg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mpcore import spectrum as sp  # noqa: E402
from mpcore.kernels import kernel_matrix  # noqa: E402
from mpcore.skpca import greedy_steps  # noqa: E402

N_EIG = 10
K_NYSTROM = 100
QS = (100, 300)
N_FEATURES = 10


def methods():
    """(label, function(K, seed) -> top-10 eigenvalues, randomised?)."""
    out = [
        ("dense eigh (all m)", lambda K, s: np.sort(scipy.linalg.eigh(K, eigvals_only=True))[::-1][:N_EIG], False),
        ("eigh, top 10 only", lambda K, s: sp.exact_eigenvalues(K, N_EIG, method="eigh"), False),
        ("eigsh (Lanczos), top 10", lambda K, s: sp.exact_eigenvalues(K, N_EIG, method="eigsh"), False),
    ]
    for rule, label in (("skpca", "sparse-KPCA"), ("random", "random"), ("cholesky", "Cholesky pivots")):
        out.append((
            f"Nystroem k={K_NYSTROM}, {label}",
            lambda K, s, rule=rule: sp.nystrom_eigenvalues(
                K, sp.nystrom_indices(K, K_NYSTROM, rule=rule, random_state=s), N_EIG),
            rule == "random",
        ))
    out.append((
        f"Nystroem k={K_NYSTROM}, sparse-KPCA 59-trick",
        lambda K, s: sp.nystrom_eigenvalues(
            K, [st.index for st in greedy_steps(K, K_NYSTROM, n_candidates=59, random_state=s)], N_EIG),
        True,
    ))
    for sketch, label in (("gaussian", "Gaussian"), ("countsketch", "count sketch")):
        for q in QS:
            out.append((
                f"EKM {label}, q={q}",
                lambda K, s, sketch=sketch, q=q: sp.ekm_eigenvalues(K, q, N_EIG, sketch=sketch, random_state=s),
                True,
            ))
    return out


def progress(msg):
    sys.stderr.write("\r" + msg.ljust(78)[:78])
    sys.stderr.flush()


def run(sizes, repeats):
    rows = []
    for m, n_rep in zip(sizes, repeats):
        X = np.random.default_rng(m).normal(size=(m, N_FEATURES))
        t0 = time.perf_counter()
        K = kernel_matrix(X, kernel="rbf", gamma=1.0 / N_FEATURES)
        t_kernel = time.perf_counter() - t0
        meths = methods()
        times = [[] for _ in meths]
        outputs = [[] for _ in meths]
        # round-robin over repeats, so load spikes on a shared machine hit
        # every method alike instead of one method's block of repeats
        for r in range(n_rep):
            for j, (label, fn, _) in enumerate(meths):
                progress(f"m={m}  repeat {r + 1}/{n_rep}  [{j + 1}/{len(meths)}] {label}")
                t0 = time.perf_counter()
                w = fn(K, r)
                times[j].append(time.perf_counter() - t0)
                outputs[j].append(w)
        exact = outputs[0][0]  # the first method is dense eigh
        results = []
        for j, (label, _, randomised) in enumerate(meths):
            errs = np.array([sp.relative_error(w, exact) for w in outputs[j]])  # (n_rep, 10)
            per_rep_max = errs.max(axis=1)
            pick = int(np.argsort(per_rep_max)[len(per_rep_max) // 2])  # median repeat
            results.append(dict(
                label=label, time=float(np.median(times[j])), tmin=float(np.min(times[j])), max_err=float(per_rep_max[pick]),
                err1=float(errs[pick, 0]), err10=float(errs[pick, -1]),
                worst=float(per_rep_max.max()), randomised=randomised,
            ))
        base = results[0]["time"]
        for res in results:
            res["ratio"] = res["time"] / base
        rows.append(dict(m=m, repeats=n_rep, t_kernel=t_kernel, results=results,
                         lam=(float(exact[0]), float(exact[-1]))))
    sys.stderr.write("\n")
    return rows


def fmt_err(x):
    if x < 1e-12:
        return "< 1e-12"
    return f"{x:.1e}" if x < 1e-3 else f"{x:.3f}"


def table(rows):
    lines = [
        "| m | method | median time (s) | min time (s) | median / dense eigh | max rel. err, top 10 "
        "| rel. err lambda_1 | rel. err lambda_10 | worst repeat |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        for r in row["results"]:
            worst = fmt_err(r["worst"]) if r["randomised"] else ""
            lines.append(
                f"| {row['m']} | {r['label']} | {r['time']:.4f} | {r['tmin']:.4f} | {r['ratio']:.3f} | "
                f"{fmt_err(r['max_err'])} | {fmt_err(r['err1'])} | {fmt_err(r['err10'])} | {worst} |"
            )
    return "\n".join(lines)


def environment():
    threads = os.environ.get("OMP_NUM_THREADS", "unset")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"Python {platform.python_version()}, NumPy {np.__version__}, SciPy {scipy.__version__}, "
            f"{os.cpu_count()} CPUs, OMP_NUM_THREADS={threads}; load average at the end "
            f"(1, 5, 15 min): {load}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 3000])
    ap.add_argument("--repeats", type=int, nargs="+", default=[7, 3])
    ap.add_argument("--output", type=Path, default=None, help="also write the markdown table here")
    args = ap.parse_args(argv)
    smallest = max(max(QS), K_NYSTROM) + 1
    if min(args.sizes) < smallest:
        ap.error(f"every size must be >= {smallest} (q and k must not exceed m)")
    repeats = (args.repeats * len(args.sizes))[: len(args.sizes)] if len(args.repeats) < len(args.sizes) else args.repeats
    print(f"load average at the start (1, 5, 15 min): "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}", file=sys.stderr)
    rows = run(args.sizes, repeats)
    text = table(rows)
    extra = "\n".join(
        f"- m={row['m']}: {row['repeats']} repeats; forming K took {row['t_kernel']:.3f} s (excluded); "
        f"lambda_1 = {row['lam'][0]:.2f}, lambda_10 = {row['lam'][1]:.2f}."
        for row in rows
    )
    print(text)
    print(extra)
    print(environment())
    if args.output is not None:
        title = "# Approximate vs exact eigenvalues: top 10 of an rbf kernel matrix\n\n"
        args.output.write_text(title + text + "\n\n" + extra + "\n\n" + environment() + "\n")
    return rows


if __name__ == "__main__":
    main()
