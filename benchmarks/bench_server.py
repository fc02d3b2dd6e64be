"""The server's part of a control change, without Streamlit: two computations every new
data set (a slider notch of n, the noise, the kernel) runs, against the way they were done
before, in the same run.

Not a test. Prints median times over round-robin repeats (one BLAS thread, as the app
runs them: pages.common.blas.BLAS_THREADS) and the ratio to the peer:

* the n largest eigenvalues of an RBF kernel matrix (the bounds page's Theorem 6.14
  curve at K_max = n): ``mpcore._linalg.top_eigh`` against the peer, LAPACK's subset
  solver alone (``scipy.linalg.eigh(subset_by_index=...)``), for m = 354 (the bounds
  page's default: Boston's 506 rows, 30 % held out), 1000 and 2100 and n = 5, 20, 100;
* the sparse-KPCA page's view at k = 100 steps on moons (``views.skpca.skpca_view``: the
  2-D picture, the deflated heatmaps, the exact and incomplete-Cholesky curves) against
  the peer, the same view with the heatmap's coordinates from a second greedy run
  (``SparseKPCA(k).fit(X).transform``), for m = 140 (the page's default n = 200) and 700;
* that view's animated figure (one frame per step) encoded for plotly.js
  (``pages.common.figure_frames.typed_arrays``, done once per new data set) against the peer, plotly's
  own walk (``_plotly_utils.utils.convert_to_base64``) on a copy of the figure's containers.
* the eigenvalue page's reference spectrum of a new K (``views.spectrum.exact_spectrum``:
  every eigenvalue, and the top 50 eigenvectors, from one reduction of K to tridiagonal
  form) against the peer, the two dense solves it took before (``exact_eigenvalues(K, m,
  method="eigh")``, then ``exact_eigenpairs(K, 50, method="eigh")``); and its Lanczos row
  (the top 10 eigenpairs, one ``eigsh`` run) against the two runs it took before (the
  values timed, then the vectors for the angle), on boston (m = 506, the page's default)
  and digits (m = 1797), RBF kernel.

Usage::

    python benchmarks/bench_server.py [--repeats 15]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import scipy
from scipy.linalg import eigh
from sklearn.datasets import make_moons
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _plotly_utils.utils import convert_to_base64  # noqa: E402
import datasets  # noqa: E402
from _progress import progress  # noqa: E402  (benchmarks/, this script's folder)
from mpcore._linalg import top_eigh  # noqa: E402
from mpcore.plots import skpca_animation_dict  # noqa: E402
from pages.common.figure_frames import _containers_copy, typed_arrays  # noqa: E402
from mpcore import exact_eigenpairs, exact_eigenvalues, validated_kernel  # noqa: E402
from mpcore.kernels import kernel_matrix  # noqa: E402
from mpcore.skpca import SparseKPCA  # noqa: E402
from views import skpca as skpca_views  # noqa: E402
from views import spectrum as spectrum_views  # noqa: E402
from views.data import KernelChoice  # noqa: E402

EIG_SIZES = ((354, (5, 20, 100)), (1000, (5, 20, 100)), (2100, (5, 20, 100)))
VIEW_SIZES = (140, 700)
VIEW_STEPS = 100
RBF = KernelChoice("rbf", gamma=0.5, sigma=1.0)


def subset_peer(K, n):
    """The peer: the n largest eigenvalues by LAPACK's subset solver alone, descending."""
    m = K.shape[0]
    return eigh(K, eigvals_only=True, subset_by_index=[m - n, m - 1], check_finite=False)[::-1]


def view_peer(X, labels, kern, k, steps, K, lam):
    """The peer: skpca_view with the heatmap's coordinates from a second greedy run of k
    steps, ``SparseKPCA(k).fit(X).transform`` (the code before)."""
    def second_run(K_, chosen, rows):
        return SparseKPCA(k, **kern.params()).fit(X).transform(X[rows])[:, : len(chosen)]

    ours = skpca_views.chosen_coordinates
    skpca_views.chosen_coordinates = second_run
    try:
        return skpca_views.skpca_view(X, labels, kern, steps, K=K, lam=lam)
    finally:
        skpca_views.chosen_coordinates = ours


#: The eigenvalue page's data sets measured (bundled), and its solvers' sizes.
SPECTRUM_DATASETS = ("boston", "digits")
SPECTRUM_VECTORS, LANCZOS_N = spectrum_views.EXACT_VECTORS, 10


def two_dense_solves(K):
    """The peer of the reference spectrum: every eigenvalue, then the top eigenvectors, each
    by its own dense solve (each reduces K to tridiagonal form)."""
    values = exact_eigenvalues(K, K.shape[0], method="eigh")
    return values, exact_eigenpairs(K, SPECTRUM_VECTORS, method="eigh")[1]


def two_lanczos_runs(K):
    """The peer of the Lanczos row: the values timed, then a second run for the vectors."""
    exact_eigenvalues(K, LANCZOS_N, method="eigsh", strict=True)
    return exact_eigenpairs(K, LANCZOS_N, method="eigsh", strict=True)


def plotly_walk(fig):
    """The peer: plotly's own typed-array encoding, in place on a copy of the containers."""
    out = _containers_copy(fig)
    convert_to_base64(out)
    return out


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=15)
    args = ap.parse_args(argv)
    threadpool_limits(limits=1, user_api="blas")
    warnings.simplefilter("ignore")  # early stops of the greedy run at k = 100 on moons

    cases = []  # (table, label, ours, peer)
    for m, ns in EIG_SIZES:
        X = np.random.default_rng(0).normal(size=(m, 13))
        K = kernel_matrix(X, kernel="rbf", gamma=1 / 13)
        for n in ns:
            ours, peer = top_eigh(K, n, eigvals_only=True), subset_peer(K, n)
            np.testing.assert_allclose(ours, peer, rtol=1e-9, atol=1e-12 * peer[0])
            cases.append(("eig", f"m = {m}, n = {n}",
                          lambda K=K, n=n: top_eigh(K, n, eigvals_only=True),
                          lambda K=K, n=n: subset_peer(K, n)))
    for m in VIEW_SIZES:
        X, y = make_moons(m, noise=0.2, random_state=0)
        K = kernel_matrix(X, **RBF.params())
        lam = skpca_views.eigenvalues(K)
        steps = skpca_views.skpca_steps(X, RBF, VIEW_STEPS, K=K)
        ours = skpca_views.skpca_view(X, y, RBF, steps, K=K, lam=lam)
        peer = view_peer(X, y, RBF, VIEW_STEPS, steps, K, lam)
        np.testing.assert_allclose(ours["heat"], peer["heat"], rtol=0, atol=1e-5)
        cases.append(("view", f"m = {m}, k = {VIEW_STEPS} ({len(steps)} steps taken)",
                      lambda a=(X, y, RBF, steps), K=K, lam=lam:
                      skpca_views.skpca_view(*a, K=K, lam=lam),
                      lambda a=(X, y, RBF, VIEW_STEPS, steps, K, lam): view_peer(*a)))
        fig = skpca_animation_dict(ours["X2"], ours["steps"], axis_labels=ours["axis_labels"],
                                   trace0=ours["trace0"], curves=ours["curves"],
                                   heatmaps=ours["heat"], heat_index=ours["heat_index"])
        cases.append(("typed", f"m = {m}, {len(steps)} frames",
                      lambda fig=fig: typed_arrays(fig), lambda fig=fig: plotly_walk(fig)))

    for name in SPECTRUM_DATASETS:
        K = validated_kernel(kernel_matrix(datasets.load(name).X, kernel="rbf"))
        ours, peer = spectrum_views.exact_spectrum(K), two_dense_solves(K)
        lam = peer[0][0]
        np.testing.assert_allclose(ours["values"], peer[0], rtol=0, atol=1e-12 * lam)
        np.testing.assert_allclose(ours["vectors"].T @ peer[1], np.eye(SPECTRUM_VECTORS),
                                   rtol=0, atol=1e-6)  # the same eigenvectors, signs too
        m = K.shape[0]
        cases.append(("spectrum", f"{name}, m = {m}: every eigenvalue and the top "
                      f"{SPECTRUM_VECTORS} eigenvectors",
                      lambda K=K: spectrum_views.exact_spectrum(K),
                      lambda K=K: two_dense_solves(K)))
        cases.append(("spectrum", f"{name}, m = {m}: Lanczos, the top {LANCZOS_N} eigenpairs",
                      lambda K=K: exact_eigenpairs(K, LANCZOS_N, method="eigsh", strict=True),
                      lambda K=K: two_lanczos_runs(K)))

    times = {i: ([], []) for i in range(len(cases))}
    total = args.repeats * len(cases)
    done = 0
    for _ in range(args.repeats):  # round robin: a load spike spreads over every case
        for i, (_, label, ours, peer) in enumerate(cases):
            times[i][0].append(timed(ours))
            times[i][1].append(timed(peer))
            done += 1
            progress(done, total, label)

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Python {platform.python_version()}, numpy {np.__version__}, scipy {scipy.__version__}, "
          f"{os.cpu_count()} cores, one BLAS thread, {args.repeats} repeats, 1-min load average "
          f"{load:.1f} after; {time.strftime('%Y-%m-%d %H:%M')}.\n")
    heads = {"eig": ("The n largest eigenvalues of an RBF kernel matrix",
                     "mpcore._linalg.top_eigh", "subset solver alone (the peer)"),
             "view": ("The sparse-KPCA page's view (views.skpca.skpca_view)",
                      "coordinates from K", "a second greedy run (the peer)"),
             "typed": ("Its animated figure encoded for plotly.js",
                       "pages.common.figure_frames.typed_arrays", "plotly's convert_to_base64 (the peer)"),
             "spectrum": ("The eigenvalue page's exact solvers for a new K",
                          "one reduction / one Lanczos run",
                          "two dense solves / two Lanczos runs (the peer)")}
    for table, (title, ours_name, peer_name) in heads.items():
        print(f"{title}:\n")
        print(f"| case | {ours_name}, median [ms] | {peer_name}, median [ms] | ratio |")
        print("|---|---:|---:|---:|")
        for i, (t, label, _, _) in enumerate(cases):
            if t != table:
                continue
            a, b = (statistics.median(x) * 1000 for x in times[i])
            print(f"| {label} | {a:.1f} | {b:.1f} | {a / b:.2f} |")
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
