"""Every cached wrapper of the app: one line around a pure function of :mod:`views`.

No computation is written here: each wrapper fetches its inputs (often other
cached values), calls one Streamlit-free function of :mod:`views`
(or :mod:`experiments`) and makes the result read-only. Keys are small frozen
dataclasses (DataChoice, KernelChoice, KMPSettings: keyed by their repr, :data:`CHOICE_KEYS`)
and numbers, never large arrays. Every
cache has ``max_entries`` and a ``ttl`` so memory stays bounded with many users;
cached arrays are returned read-only so no caller can mutate a value another
session will see. All are st.cache_data but two st.cache_resource, shared as one
object: the eigenvalue page's K (:func:`full_kernel`, read-only) and its error curves,
computed in a process of their own beside the script run (:func:`spectrum_curves_started`,
a future). An upload's bytes live in ``st.session_state["csv.bytes"]``.

While one or two people use the server, the eigenvalue page's next notch of n or the width
is computed ahead in a process of its own (:func:`prefetch_spectrum`), and the wrappers of
that page take its parts from there when asked for that view (:func:`_prefetched`).
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
import types
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import numpy as np
import streamlit as st
from threadpoolctl import threadpool_limits

import datasets
from mpcore import validated_kernel
from mpcore.kernels import kernel_matrix
from views import bounds as _bounds
from views import data as _data
from views import kcca as _kcca
from views import kmp as _kmp
from views import kmp_quiz as _kmp_quiz
from views import skpca as _skpca
from views import spectrum as _spectrum
from views.kmp import (  # noqa: F401  (re-exported for the pages)
    KMP_CURVE_POINTS,
    KMP_GRID,
    KMPSettings,
    kmp_estimator,
    kmp_kernel,
)
from views.skpca import HEATMAP_MAX_M, HEATMAP_MAX_POINTS  # noqa: F401
from views.spectrum import SPECTRUM_BOUND_GRID_MAX_M

from .widgets import MAX_APP_SAMPLES, DataChoice, KernelChoice

ENTRIES = 32
TTL = 3600

#: How every cache below keys the app's frozen choices: by their ``repr`` (each field, a
#: float to its last digit, a tuple of clicked points in full), one string to hash, instead
#: of Streamlit's walk through ``dataclasses.asdict`` and a digest of every field: that
#: took 7 to 9 ms of a 0.08 s run on the KMP and eigenvalue pages (22 to 33 keys a run).
CHOICE_KEYS = {DataChoice: repr, KernelChoice: repr, KMPSettings: repr}


def cache_data(**kwargs):
    """``st.cache_data`` keyed as :data:`CHOICE_KEYS` says."""
    return st.cache_data(hash_funcs=CHOICE_KEYS, **kwargs)


def cache_resource(**kwargs):
    """``st.cache_resource`` keyed as :data:`CHOICE_KEYS` says."""
    return st.cache_resource(hash_funcs=CHOICE_KEYS, **kwargs)

# Streamlit shows no spinner for a cached function called inside another one: what a page
# calls must carry the message for everything it may compute (a spinner shows only after
# half a second, so a quick miss draws none).

#: BLAS threads in the server process, set once when this module is first imported and
#: kept (OpenBLAS's thread count is process-wide, so a limit held only around one
#: computation would be lifted under another session's). The app's matrices are small and
#: a deployment runs one process per core: a second thread per product only waits for a
#: core the browser or another session holds. With two, a new-n run of the sparse-KPCA
#: page took 0.30 s in a real server with the browser drawing, against 0.16 s with one;
#: and the eigenvalue page's timing table compares its methods on equal terms.
BLAS_THREADS = 1
threadpool_limits(limits=BLAS_THREADS, user_api="blas")


def freeze_tree(obj):
    """Make every ndarray inside ``obj`` (dicts, lists, tuples, objects) read-only."""
    if isinstance(obj, np.ndarray):
        obj.setflags(write=False)
    elif isinstance(obj, dict):
        for v in obj.values():
            freeze_tree(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            freeze_tree(v)
    elif hasattr(obj, "__dict__"):
        for v in vars(obj).values():
            freeze_tree(v)
    return obj


def _frozen(*arrays):
    out = []
    for a in arrays:
        if isinstance(a, np.ndarray):
            a = a.copy() if a.flags.writeable else a
            a.setflags(write=False)
        out.append(a)
    return out if len(out) > 1 else out[0]


# ---------------------------------------------------------------- data


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Loading data...")
def load_data(choice: DataChoice) -> datasets.Dataset:
    """views.data.load: the data set, standardised if asked, with clicked points appended."""
    raw = st.session_state.get("csv.bytes", b"") if choice.csv_digest is not None else None
    return _data.load(choice, raw, max_rows=MAX_APP_SAMPLES)


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def upload_facts(digest: str, target: str) -> dict:
    """``_task``, ``_features`` and ``_classes`` of the session's upload (``digest``) with
    ``target`` as its target, for the view's fields (pages.common.widgets); none when the
    file cannot have that target (the page says why when it loads the data)."""
    try:
        d = datasets.from_csv(st.session_state["csv.bytes"], target=target,
                              max_rows=MAX_APP_SAMPLES)
    except (ValueError, KeyError):
        return {}
    classes = () if d.task != "classification" else tuple(int(c) for c in sorted(set(d.y.tolist())))
    return {"_task": d.task, "_features": tuple(d.feature_names), "_classes": classes}


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def split(choice: DataChoice, test_fraction: float):
    """views.data.split: seeded train/test indices (stratified for classification)."""
    return _frozen(*_data.split(load_data(choice), test_fraction, choice.seed))


def stratified(choice: DataChoice, test_fraction: float) -> bool:
    """Whether :func:`split` stratifies (so a code snippet can do the same)."""
    return _data.stratified(load_data(choice), test_fraction)


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Computing the kernel matrix...")
def train_kernel(choice: DataChoice, kern: KernelChoice, test_fraction: float):
    return _frozen(kernel_matrix(load_data(choice).X[split(choice, test_fraction)[0]],
                                 **kern.params()))


# ---------------------------------------------------------------- sparse KPCA page


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Running greedy selection...")
def skpca_steps(choice: DataChoice, kern: KernelChoice, test_fraction: float, k: int,
                n_candidates: int | None = None):
    """views.skpca.skpca_steps on the training rows: the page indexes this list."""
    K = train_kernel(choice, kern, test_fraction) if n_candidates is None else None
    X = load_data(choice).X[split(choice, test_fraction)[0]]
    return freeze_tree(_skpca.skpca_steps(X, kern, k, K=K, n_candidates=n_candidates,
                                          seed=choice.seed))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Exact eigenvalues...")
def train_eigenvalues(choice: DataChoice, kern: KernelChoice, test_fraction: float):
    """All eigenvalues of the training kernel, descending (for exact KPCA curves)."""
    return _frozen(_skpca.eigenvalues(train_kernel(choice, kern, test_fraction)))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Preparing the animation...")
def skpca_view(choice: DataChoice, kern: KernelChoice, test_fraction: float, k: int,
               n_candidates: int | None = None) -> dict:
    """views.skpca.skpca_view: everything the sparse-KPCA page draws, once per setting."""
    d = load_data(choice)
    tr, _ = split(choice, test_fraction)
    exact = n_candidates is None
    labels = d.y[tr] if d.y is not None and d.task == "classification" else None
    return freeze_tree(_skpca.skpca_view(
        d.X[tr], labels, kern, skpca_steps(choice, kern, test_fraction, k, n_candidates),
        K=train_kernel(choice, kern, test_fraction) if exact else None,
        lam=train_eigenvalues(choice, kern, test_fraction) if exact else None,
        n_candidates=n_candidates))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Drawing the animation...")
def skpca_figure(choice: DataChoice, kern: KernelChoice, test_fraction: float, k: int,
                 n_candidates: int | None) -> dict:
    """The animated figure as a plotly dict for ``k`` steps, its arrays as plotly.js typed
    arrays (pages.common.figure_frames.typed_arrays).

    The page asks for the largest k it offers and cuts the figure to the k on
    the slider (pages.common.figure_frames.cut_animation): moving the slider is then a cache hit.
    """
    from mpcore.plots import skpca_animation_dict

    from .figure_frames import typed_arrays

    v = skpca_view(choice, kern, test_fraction, k, n_candidates)
    # arrays encoded once here, not on every rerun
    return freeze_tree(typed_arrays(skpca_animation_dict(
        v["X2"], v["steps"], axis_labels=v["axis_labels"], trace0=v["trace0"], curves=v["curves"],
        heatmaps=v["heat"], heat_index=v["heat_index"], added=added_rows(choice, test_fraction))))


def added_rows(choice: DataChoice, test_fraction: float):
    """Training rows (positions in ``X[train]``) of the points added by clicking."""
    n_added = len(choice.added or ())
    if not n_added:
        return np.zeros(0, dtype=int)
    tr, _ = split(choice, test_fraction)
    return np.flatnonzero(np.asarray(tr) >= load_data(choice).n_samples - n_added)


#: Entries of :func:`skpca_at_k`: every k the page offers (1 to 100) for one setting, and a
#: few more. A hall moves k all over its range; with :data:`ENTRIES` most new k's evicted
#: one still wanted, and each miss reads the whole ``k_max`` figure back out of its cache to
#: cut it. An entry at the default size is 0.3 MB pickled at k = 20, 1.5 MB at k = 100.
SKPCA_AT_K_ENTRIES = 128


@cache_data(max_entries=SKPCA_AT_K_ENTRIES, ttl=TTL,
            show_spinner="Running greedy selection and drawing the animation...")
def skpca_at_k(choice: DataChoice, kern: KernelChoice, test_fraction: float, k_max: int,
               n_candidates: int | None, k: int) -> dict:
    """What the sparse-KPCA page shows at sparsity ``k``: the first k steps and the figure
    cut to them, taken once per k from the ``k_max`` run. A Step rerun then reads k steps
    and k frames from the cache, not the k_max of them (the heatmaps above all)."""
    from .figure_frames import cut_animation

    view = skpca_view(choice, kern, test_fraction, k_max, n_candidates)
    steps = view["steps"][:k]
    fig = skpca_figure(choice, kern, test_fraction, k_max, n_candidates)  # typed arrays
    return freeze_tree(dict(steps=steps, fig=cut_animation(fig, len(steps), 1),
                            heat_note=view["heat_note"], m=view["m"]))


# ---------------------------------------------------------------- bounds page


@cache_data(max_entries=ENTRIES, ttl=TTL,
            show_spinner="Fitting sparse kernel PCA and computing both bounds...")
def bound_curves(choice: DataChoice, kern: KernelChoice, test_fraction: float, k_max: int,
                 delta: float):
    """views.bounds.bound_curves on the seeded train/test split (arrays read-only)."""
    d = load_data(choice)
    tr, te = split(choice, test_fraction)
    return freeze_tree(_bounds.bound_curves(d.X[tr], d.X[te], kern, k_max, delta))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def bound_figure(choice: DataChoice, kern: KernelChoice, test_fraction: float, k_max: int,
                 delta: float, show_terms: bool) -> dict:
    """mpcore.plots.bound_curves_figure_dict of :func:`bound_curves` (the layout styled
    once, the data written into a copy) with typed arrays, built once per setting for every
    session."""
    from mpcore.plots import bound_curves_figure_dict

    from .figure_frames import typed_arrays

    c = bound_curves(choice, kern, test_fraction, k_max, delta)
    return typed_arrays(bound_curves_figure_dict(c, show_terms=show_terms))


# ---------------------------------------------------------------- kernel matching pursuit page


def kmp_data(choice: DataChoice, test_fraction: float, feature: str | None = None):
    """(X_tr, y_tr, X_te, y_te, feature_names): views.kmp.feature_split of the cached split."""
    return _kmp.feature_split(load_data(choice), *split(choice, test_fraction), feature)


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)  # the page says what runs
def kmp_model(choice: DataChoice, kern: KernelChoice, test_fraction: float, s: KMPSettings,
              early_stopping: str | None = None):
    """(fitted estimator, warnings) on the training rows X[tr]: views.kmp.fit_kmp."""
    X, y, _, _, _ = kmp_data(choice, test_fraction, s.feature)
    return _kmp.fit_kmp(X, y, load_data(choice).task, kern, s, early_stopping, choice.seed)


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Timing every step...")
def kmp_curves(choice: DataChoice, kern: KernelChoice, test_fraction: float, s: KMPSettings):
    """(views.kmp_curves.KMPCurves, warnings): all n_basis steps, timed and scored."""
    X, y, Xt, yt, _ = kmp_data(choice, test_fraction, s.feature)
    return _kmp.kmp_curves(X, y, Xt, yt, load_data(choice).task, kern, s, choice.seed)


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Fitting the SVM...")
def kmp_svm(choice: DataChoice, kern: KernelChoice, test_fraction: float, C: float,
            feature: str | None = None, cls: int | None = None):
    """views.kmp.svm_scores: dict(n_support, support, train_score, test_score, svm)."""
    X, y, Xt, yt, _ = kmp_data(choice, test_fraction, feature)
    out = _kmp.svm_scores(X, y, Xt, yt, load_data(choice).task, kern, C, cls)
    return dict(out, support=_frozen(out["support"]))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def kmp_staged(choice: DataChoice, kern: KernelChoice, test_fraction: float, s: KMPSettings,
               early_stopping: str | None, cls: int | None = None):
    """views.kmp.staged: per kept step, predictions on the training and test rows, the path."""
    X, _, Xt, _, _ = kmp_data(choice, test_fraction, s.feature)
    model, _ = kmp_model(choice, kern, test_fraction, s, early_stopping)
    return freeze_tree(_kmp.staged(model, X, Xt, cls))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def kmp_step_scores(choice: DataChoice, kern: KernelChoice, test_fraction: float,
                    s: KMPSettings, early_stopping: str | None, cls: int | None = None) -> tuple:
    """Per kept step, (training, test) accuracy for classification or RMSE for regression
    (views.reference.step_score): the live numbers beside the animation, once per setting."""
    from views.reference import step_score

    task = load_data(choice).task
    _, y, _, yt, _ = kmp_data(choice, test_fraction, s.feature)
    v = kmp_staged(choice, kern, test_fraction, s, early_stopping, cls)
    return tuple((step_score(task, y, P), step_score(task, yt, Q))
                 for P, Q in zip(v["train"], v["test"]))


@cache_data(max_entries=ENTRIES, ttl=TTL,
            show_spinner="Scoring every candidate of every step (the pursuit run again)...")
def kmp_pick_scores(choice: DataChoice, kern: KernelChoice, test_fraction: float, s: KMPSettings,
                    early_stopping: str | None, cls: int | None = None) -> dict:
    """views.kmp_quiz.pick_scores of the page's model: every candidate's score per step."""
    X, y, _, _, _ = kmp_data(choice, test_fraction, s.feature)
    model, _ = kmp_model(choice, kern, test_fraction, s, early_stopping)
    return freeze_tree(_kmp_quiz.pick_scores(model, X, y, cls))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Preparing the animation...")
def kmp_animation(choice: DataChoice, kern: KernelChoice, test_fraction: float, s: KMPSettings,
                  early_stopping: str | None, cls: int | None, frame_ms: int) -> dict:
    """views.kmp.animation as a plotly dict, its arrays as plotly.js typed arrays
    (pages.common.figure_frames.typed_arrays: encoded once, not on every rerun)."""
    from .figure_frames import typed_arrays

    d = load_data(choice)
    X, y, Xt, yt, names = kmp_data(choice, test_fraction, s.feature)
    model, _ = kmp_model(choice, kern, test_fraction, s, early_stopping)
    v = kmp_staged(choice, kern, test_fraction, s, early_stopping, cls)
    return typed_arrays(_kmp.animation(model, v, X, y, Xt, yt, task=d.task, names=names,
                                       target_name=d.target_name, cls=cls, frame_ms=frame_ms))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Fitting the models to compare...")
def kmp_comparison(choice: DataChoice, kern: KernelChoice, test_fraction: float, s: KMPSettings,
                   C: float, mode: str, n_basis: int | None, basic_n: int, cls: int | None = None):
    """views.kmp.compare (Figure 6 with mode "fittings", Figure 7 with "losses"), fitted
    through the cached :func:`kmp_model` and :func:`kmp_svm`.

    Returns dict(figure=plotly dict or None (not 2-D classification or 1-D regression),
    rows=table rows, warnings=tuple, n_basis=N used).
    """
    d = load_data(choice)
    X, y, Xt, yt, _ = kmp_data(choice, test_fraction, s.feature)
    cmp = _kmp.compare(
        X, y, Xt, yt, task=d.task, kern=kern, s=s, C=C, mode=mode, n_basis=n_basis,
        basic_n=basic_n, cls=cls, seed=choice.seed,
        fit=lambda settings: kmp_model(choice, kern, test_fraction, settings, None),
        svm=lambda path: kmp_svm(choice, kern, test_fraction, C, s.feature, path))
    fig = _kmp.comparison_figure(cmp, X, y,
                                 x_label=s.feature or (d.feature_names or ("x",))[0],
                                 y_label=d.target_name or "y")
    return dict(figure=None if fig is None else fig.to_plotly_json(), rows=cmp["rows"],
                warnings=cmp["warnings"], n_basis=cmp["n_basis"])


# ---------------------------------------------------------------- spectrum page


#: Kernel matrices the eigenvalue page keeps (:func:`full_kernel`). Each holds K and, once
#: Eq. 3 has run, K @ K: 16 MB together at m = 1000, 52 MB at m = 1797 (digits). The page
#: needs K only when a value cached from it is missing, so few are kept.
SPECTRUM_KERNEL_ENTRIES = 4


@cache_resource(max_entries=SPECTRUM_KERNEL_ENTRIES, ttl=TTL,
                show_spinner="Computing the kernel matrix...")
def full_kernel(choice: DataChoice, kern: KernelChoice):
    """K on every point of the data set (the spectrum page does not split), checked once
    (:func:`mpcore.validated_kernel`: read-only, its checks and the spectrum it is given
    kept with it) and shared as one object, not a copy per call: st.cache_data would return
    an unpickled copy without the record of its checks, and every part of a run below would
    check K again (a Cholesky: 9 ms at m = 506, 0.12 s at m = 1797)."""
    return validated_kernel(kernel_matrix(load_data(choice).X, **kern.params()))


@cache_data(max_entries=ENTRIES, ttl=TTL,
            show_spinner="Exact eigenvalues of K (dense eigh, once per data set and kernel)...")
def spectrum_exact(choice: DataChoice, kern: KernelChoice) -> dict:
    """views.spectrum.exact_spectrum: the reference, shared by every k, q, n and session."""
    ahead = _prefetched(choice, kern, "exact")
    if ahead is not None:
        return freeze_tree(ahead)
    K = full_kernel(choice, kern)
    return freeze_tree(_spectrum.exact_spectrum(K))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def spectrum_exact_methods(choice: DataChoice, kern: KernelChoice, n_eig: int) -> dict:
    """views.spectrum.exact_methods: the exact solvers' rows, kept across every k and q."""
    ahead = _prefetched(choice, kern, "exact_rows", n_eig=n_eig)
    if ahead is not None:
        return freeze_tree(ahead)
    return freeze_tree(_spectrum.exact_methods(full_kernel(choice, kern), n_eig,
                                               spectrum_exact(choice, kern)))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def spectrum_nystrom_methods(choice: DataChoice, kern: KernelChoice, k: int, n_eig: int) -> dict:
    """views.spectrum.nystrom_methods: the Nyström rows at k, kept across every q."""
    ahead = _prefetched(choice, kern, "nystrom", k=k, n_eig=n_eig)
    if ahead is not None:
        return freeze_tree(ahead)
    return freeze_tree(_spectrum.nystrom_methods(full_kernel(choice, kern), choice.seed, k,
                                                 n_eig, spectrum_exact(choice, kern)))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def spectrum_ekm_methods(choice: DataChoice, kern: KernelChoice, q: int, n_eig: int) -> dict:
    """views.spectrum.ekm_methods: the EKM rows at q, kept across every k."""
    ahead = _prefetched(choice, kern, "ekm", q=q, n_eig=n_eig)
    if ahead is not None:
        return freeze_tree(ahead)
    return freeze_tree(_spectrum.ekm_methods(full_kernel(choice, kern), choice.seed, q, n_eig,
                                             spectrum_exact(choice, kern)))


@cache_data(max_entries=ENTRIES, ttl=TTL,
            show_spinner="Timing every eigen-solver on the same K (one run each)...")
def spectrum_run(choice: DataChoice, kern: KernelChoice, k: int, q: int, n_eig: int) -> dict:
    """views.spectrum.compare_methods at (k, q), from its three parts cached apart: a new k
    times the Nyström rules again, not the exact solvers or the sketches."""
    return freeze_tree(_spectrum.merge_methods(
        spectrum_exact(choice, kern), k, q, n_eig, spectrum_exact_methods(choice, kern, n_eig),
        spectrum_nystrom_methods(choice, kern, k, n_eig),
        spectrum_ekm_methods(choice, kern, q, n_eig)))


#: Shown while the error curves compute (by spectrum_curves: Streamlit shows no spinner for
#: a cached function called inside another one).
_CURVES_SPINNER = "Errors over a grid of k and q (with Eq. 3 at every q)..."

#: The eigenvalue page's error curves compute in a process of their own, beside the script
#: run that times the methods. Not on a thread: NumPy's matrix products release the GIL, but
#: the eigensolvers (scipy.linalg.eigh, numpy.linalg.eigvalsh, ARPACK) keep it, so a thread
#: ran in turns with the script run, slowed the methods it times (Lanczos and the Nyström
#: rules 1.25 to 2.5 times in three runs) and stalled the process's other sessions; beside
#: a process their times are those of a run alone (benchmarks/bench_gil.py, results_gil.md).
#: One process per server process, fed in turn: a hall that shares one view computes the
#: curves once; distinct views wait in turn, the first of them first.
class CurvesProcess:
    """A pool of one process (``spawn``: nothing of the server's threads is copied),
    started on the first job and again after its process died."""

    def __init__(self, niceness: int = 0):
        self._niceness = niceness
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def submit(self, fn, /, *args, **kwargs) -> Future:
        """``fn(*args, **kwargs)`` in the process; ``fn`` and its arguments are pickled."""
        with self._lock:
            if self._pool is not None:
                try:
                    return self._pool.submit(fn, *args, **kwargs)
                except BrokenProcessPool:  # its process died: a new one
                    pass
            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                initializer=_spectrum.limit_blas_threads,
                initargs=(BLAS_THREADS, self._niceness))
            # the first job starts the process. Streamlit runs each page as the module
            # __main__, which a spawned process imports again (and would run the page in
            # it): the process starts with an empty one
            main = sys.modules.get("__main__")
            sys.modules["__main__"] = types.ModuleType("__main__")
            try:
                return self._pool.submit(fn, *args, **kwargs)
            finally:
                sys.modules["__main__"] = main

    def idle_since_start(self) -> bool:
        """Whether no job was ever handed to the process (it is not started)."""
        return self._pool is None

    def start(self) -> None:
        """Start the process now (a no-op job), not on the first curves: spawning it and
        importing NumPy and SciPy there takes about 1.4 s."""
        self.submit(os.getpid)


#: Started when the app first imports this module (the first view of a chart page), so
#: that the process's start overlaps what a visitor reads before the eigenvalue page.
_CURVES = CurvesProcess()
_CURVES.start()


#: How much lower than the server's the priority of the process computing views ahead is
#: (``os.nice``): the browser's drawing and every view asked for come first.
PREFETCH_NICENESS = 10
#: Views computed ahead kept at once (the newest; the one shown and the next).
PREFETCH_ENTRIES = 2
#: Views are computed ahead only while the server has at most this many sessions: one
#: person (a lecturer rehearsing, a student alone) has two cores to spare between notches;
#: a hall has none, and its students' own views come first.
PREFETCH_MAX_SESSIONS = 2
#: ... and only for data sets of up to this many points (boston, 506: a view computes in
#: about 0.2 s; digits, 1797: 1.5 s, longer than a person waits between two notches).
PREFETCH_MAX_M = SPECTRUM_BOUND_GRID_MAX_M
#: Seconds a run waits for its view computed ahead before computing it itself (about what
#: computing it takes: the view was asked for before the process could start on it).
PREFETCH_WAIT = 0.5


class ViewsAhead:
    """The eigenvalue page's views computed ahead (:func:`prefetch_spectrum`): a process of
    their own, at a lower priority, and the newest ``entries`` of them, each (the settings
    it was computed at, its future) under the key (repr(choice), repr(kern)); one computing
    at a time. Shared by every session of the server, behind one lock."""

    def __init__(self, niceness: int, entries: int):
        self.process = CurvesProcess(niceness=niceness)
        self._entries: dict[tuple[str, str], tuple[tuple, Future]] = {}
        self._most = entries
        self._lock = threading.Lock()

    def get(self, key) -> tuple[tuple, Future] | None:
        return self._entries.get(key)

    def keys(self) -> list:
        return list(self._entries)

    def taken(self, key) -> bool:
        """Whether ``key`` is kept, or another view is still computing."""
        return key in self._entries or any(not f.done() for _, f in self._entries.values())

    def submit(self, key, settings: tuple, fn, /, *args, **kwargs) -> bool:
        """``fn(*args, **kwargs)`` in the process, kept under ``key``, unless
        :meth:`taken`; whether it was handed over."""
        with self._lock:
            if self.taken(key):
                return False
            self._entries[key] = (settings, self.process.submit(fn, *args, **kwargs))
            while len(self._entries) > self._most:
                self._entries.pop(next(iter(self._entries)))
        return True

    def drop(self, key, entry) -> None:
        """Forget ``key`` if it still holds ``entry``."""
        with self._lock:
            if self._entries.get(key) is entry:
                del self._entries[key]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


#: The eigenvalue page's next view, computed one slider notch ahead; its process is started
#: by the page's first view where views may be computed ahead (:func:`start_prefetch`): a
#: server that never computes ahead (a hall, :func:`prefetch_on`) never starts it.
_AHEAD = ViewsAhead(PREFETCH_NICENESS, PREFETCH_ENTRIES)


def _active_sessions() -> int | None:
    """Sessions the server holds now; None where no server counts them (AppTest's
    stand-in runtime, a script): then nothing is computed ahead."""
    from streamlit import runtime

    if not runtime.exists():
        return None
    try:
        return int(runtime.get_instance()._session_mgr.num_active_sessions())
    except Exception:  # a Streamlit without the count: as if unknown
        return None


def prefetch_on() -> bool:
    """Whether views may be computed ahead now: ``MP_PREFETCH=0`` in the server's
    environment turns it off (the benchmarks' comparison); otherwise while the server holds
    at most :data:`PREFETCH_MAX_SESSIONS` sessions."""
    if os.environ.get("MP_PREFETCH", "1").strip() == "0":
        return False
    sessions = _active_sessions()
    return sessions is not None and sessions <= PREFETCH_MAX_SESSIONS


def start_prefetch() -> None:
    """Start the prefetch process on the eigenvalue page's first view, if views may be
    computed ahead (:func:`prefetch_on`): a first notch ahead would otherwise wait for its
    start (about 1.4 s), longer than computing the notch on request."""
    if _AHEAD.process.idle_since_start() and prefetch_on():
        _AHEAD.process.start()


def prefetch_spectrum(choice: DataChoice, kern: KernelChoice, k: int, q: int, n_eig: int,
                      k_max: int) -> bool:
    """Compute the eigenvalue page's view of (choice, kern) at (k, q, n_eig) ahead, in the
    prefetch process, for the cached parts below to take when a page asks for it; whether
    it was started. Not while another is computing, for an upload, for a large data set,
    on a busy server or with ``MP_PREFETCH=0`` (:func:`prefetch_on`, :data:`PREFETCH_MAX_M`)."""
    if choice.csv_digest is not None or not prefetch_on():
        return False
    key = (repr(choice), repr(kern))
    if _AHEAD.taken(key):
        return False
    try:
        m = load_data(choice).n_samples
    except ValueError:
        return False
    if m > PREFETCH_MAX_M or m < 3:
        return False
    n_top = _curves_top(choice, n_eig)
    # in one process, at a lower priority than the server, its curves' process and the
    # browser drawing this view (the two halves side by side in two processes were no
    # sooner drawn: benchmarks/results_pages.md, 2026-12-01)
    return _AHEAD.submit(key, (k, q, n_eig, n_top, k_max), _spectrum.view_parts, choice, kern,
                         k, q, n_eig, n_top, k_max, max_rows=MAX_APP_SAMPLES,
                         bound_grid_max_m=SPECTRUM_BOUND_GRID_MAX_M)


def _prefetched(choice: DataChoice, kern: KernelChoice, part: str, **at):
    """The part ``part`` of a view of (choice, kern) computed ahead, if one was computed
    with the settings ``at`` (k, q, n_eig, n_top, k_max: those ``part`` depends on); None
    otherwise. Waits for one still computing, up to :data:`PREFETCH_WAIT` seconds: it is
    ahead of anything begun now."""
    key = (repr(choice), repr(kern))
    entry = _AHEAD.get(key)
    if entry is None:
        return None
    settings, future = entry
    names = ("k", "q", "n_eig", "n_top", "k_max")
    if any(dict(zip(names, settings))[name] != value for name, value in at.items()):
        return None
    try:
        return future.result(timeout=PREFETCH_WAIT)[part]
    except TimeoutError:  # still far from done (its process starting, say): left, and
        # this view computed here, as without it
        _AHEAD.drop(key, entry)
        return None
    except Exception:  # its process died, or the view raised: computed here, as without it
        return None


def computed_ahead(choice: DataChoice, kern: KernelChoice) -> bool:
    """Whether the view of (choice, kern) was computed ahead and is ready."""
    entry = _AHEAD.get((repr(choice), repr(kern)))
    return entry is not None and entry[1].done()


def clear_prefetched() -> None:
    """Forget every view computed ahead (the tests' switch between with and without)."""
    _AHEAD.clear()


def _curves_top(choice: DataChoice, n_eig: int) -> int:
    """How many leading eigenvalues the error curves are computed for: the most the page
    offers, so that a new n only slices them."""
    m = load_data(choice).n_samples  # K's size, without a copy of K out of its cache
    return max(int(n_eig), min(_spectrum.N_EIG_MAX, m - 1))


@cache_resource(max_entries=ENTRIES, ttl=TTL,
                show_spinner="Computing K (once per data set and kernel)...")
def spectrum_curves_started(choice: DataChoice, kern: KernelChoice, k_max: int,
                            n_top: int) -> Future:
    """views.spectrum.error_curves_by_eigenvalue (each method's error on each of the top
    ``n_top`` eigenvalues over the grids of k and q, once per data set and kernel), started
    in the curves' process, beside the script run that times the methods: the sketches'
    half only when the run computes the Nyström half (:func:`split_curves`). K is computed
    here, in the run, since the timed run needs it too; the process computes K's exact
    spectrum itself, while the run computes it for the methods (the curves start one dense
    ``eigh`` earlier). One future shared by every session."""
    args, kwargs = _curves_arguments(choice, kern, k_max, n_top, parts=_process_parts(choice))
    return _CURVES.submit(_spectrum.error_curves_by_eigenvalue, *args, **kwargs)


#: The halves of the error curves: the sketches' and the Nyström rules'.
_NYSTROM, _SKETCHES = _spectrum.CURVE_PARTS


def split_curves(choice: DataChoice) -> bool:
    """Whether the script run computes the Nyström half of the error curves itself (once it
    has timed the methods, beside the sketches' half in the curves' process): when Eq. 3 is
    drawn over the q grid (m up to SPECTRUM_BOUND_GRID_MAX_M), the sketches' half is the
    longer, and the two halves apart make a new K wait less (2026-11-29, one BLAS thread;
    timed run / Nyström half / sketches' half / the whole curves: boston 75 / 77 / 128 /
    196 ms, breast cancer 104 / 82 / 150 / 227 ms, the 1000-point Gaussian toy 351 / 123 /
    608 / 710 ms). Without Eq. 3 over the grid the timed run is the longer part (digits:
    1.5 s against 1.37 s for the whole curves), and the process computes every curve."""
    return load_data(choice).n_samples <= SPECTRUM_BOUND_GRID_MAX_M


def _process_parts(choice: DataChoice) -> tuple[str, ...]:
    """The halves of the error curves the curves' process computes (:func:`split_curves`)."""
    return (_SKETCHES,) if split_curves(choice) else _spectrum.CURVE_PARTS


def _curves_arguments(choice: DataChoice, kern: KernelChoice, k_max: int, n_top: int,
                      exact: dict | None = None,
                      parts: tuple[str, ...] = _spectrum.CURVE_PARTS) -> tuple[tuple, dict]:
    """views.spectrum.error_curves_by_eigenvalue's arguments: K (pickled with the record of
    its checks, so the process does not check it again: a Cholesky factorisation, 9 ms at
    m = 506 and 0.12 s at m = 1797), K's exact spectrum if the caller has it, Eq. 3's size
    limit (read where it is used, as the page reads it) and the halves asked for."""
    return ((full_kernel(choice, kern), choice.seed, n_top, k_max),
            {"exact": None if exact is None else dict(exact),
             "bound_grid_max_m": SPECTRUM_BOUND_GRID_MAX_M, "parts": tuple(parts)})


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def spectrum_nystrom_curves(choice: DataChoice, kern: KernelChoice, k_max: int,
                            n_top: int) -> dict:
    """The Nyström rules' half of the error curves, computed in the script run (after the
    timed methods, beside the sketches' half in the curves' process), from the run's exact
    spectrum; once per data set and kernel, as the other half."""
    args, kwargs = _curves_arguments(choice, kern, k_max, n_top,
                                     exact=spectrum_exact(choice, kern), parts=(_NYSTROM,))
    return freeze_tree(_spectrum.error_curves_by_eigenvalue(*args, **kwargs))


def start_spectrum_curves(choice: DataChoice, kern: KernelChoice, n_eig: int,
                          k_max: int) -> None:
    """Start the error curves of :func:`spectrum_curves` in their process (a no-op once
    they are started; none when the view was computed ahead), so they compute while the
    page times the methods."""
    n_top = _curves_top(choice, n_eig)
    if _prefetched(choice, kern, "curves", n_top=n_top, k_max=k_max) is not None:
        return
    spectrum_curves_started(choice, kern, k_max, n_top)


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=_CURVES_SPINNER)
def spectrum_curves(choice: DataChoice, kern: KernelChoice, n_eig: int, k_max: int) -> dict:
    """views.spectrum.error_curves: errors against k (three rules) and q (two sketches).

    Sliced from the errors on the top ``min(N_EIG_MAX, m - 1)`` eigenvalues (the most the
    page offers), computed once (:func:`spectrum_curves_started`): a new n costs no
    eigenproblem."""
    n_top = _curves_top(choice, n_eig)
    ahead = _prefetched(choice, kern, "curves", n_top=n_top, k_max=k_max)
    if ahead is not None:
        return freeze_tree(_spectrum.curves_for_n(freeze_tree(ahead), n_eig))
    split = split_curves(choice)
    # the Nyström half computes here while the process computes the sketches'
    nystrom = spectrum_nystrom_curves(choice, kern, k_max, n_top) if split else None
    try:
        started = spectrum_curves_started(choice, kern, k_max, n_top).result()
    except BrokenProcessPool:  # the process died (killed, out of memory): computed here
        spectrum_curves_started.clear(choice, kern, k_max, n_top)  # a new process next time
        args, kwargs = _curves_arguments(choice, kern, k_max, n_top,
                                         exact=spectrum_exact(choice, kern),
                                         parts=_process_parts(choice))
        started = _spectrum.error_curves_by_eigenvalue(*args, **kwargs)
    except Exception:
        spectrum_curves_started.clear(choice, kern, k_max, n_top)  # the next run tries again
        raise
    by_eigenvalue = (_spectrum.merge_curve_parts(nystrom, freeze_tree(started)) if split
                     else started)
    return freeze_tree(_spectrum.curves_for_n(freeze_tree(by_eigenvalue), n_eig))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def spectrum_run_figures(choice: DataChoice, kern: KernelChoice, k: int, q: int, n_eig: int,
                         narrow: bool) -> dict:
    """The eigenvalue page's figures of the timed run (scree and angles) as plotly dicts,
    their arrays as plotly.js typed arrays: built once per setting for every session, drawn
    as they are. Their layouts are styled through plotly once per
    shape (mpcore.plots' ``*_figure_dict``), so a new data set or kernel only fills in the
    data. They need the run only, so the page draws them while the error curves compute."""
    from mpcore.plots import EXACT, angles_figure_dict, scree_figure_dict

    from .figure_frames import typed_arrays

    run = spectrum_run(choice, kern, k, q, n_eig)
    approx = {n: v for n, v in run["scree"].items() if n != EXACT}
    figures = dict(
        scree=scree_figure_dict(run["scree"][EXACT], approx, n_compared=n_eig, k=k, q=q,
                                narrow=narrow),
        angles=angles_figure_dict(run["angles"], n_eig=run["n_compared"], narrow=narrow))
    return {name: typed_arrays(fig) for name, fig in figures.items()}


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def spectrum_errors_figure(choice: DataChoice, kern: KernelChoice, k: int, q: int, n_eig: int,
                           k_max: int, narrow: bool) -> dict:
    """The eigenvalue page's error curves with Eq. 3 and this run's stars, as
    :func:`spectrum_run_figures` builds its figures."""
    from mpcore.plots import error_curves_figure_dict

    from .figure_frames import typed_arrays

    run = spectrum_run(choice, kern, k, q, n_eig)
    curves = spectrum_curves(choice, kern, n_eig, k_max)
    return typed_arrays(error_curves_figure_dict(
        curves["k_grid"], curves["nystrom"], curves["q_grid"], curves["ekm"],
        ekm_bounds=curves["ekm_bounds"], eq3=curves["eq3"], k=k, q=q,
        current=_spectrum.errors_at(run), n_compared=run["n_compared"], narrow=narrow))


# ---------------------------------------------------------------- sparse KCCA page


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def kcca_data(n: int, noise: float, seed: int, test: float) -> dict:
    """views.kcca.kcca_data: datasets.two_view with a seeded split."""
    return freeze_tree(_kcca.kcca_data(n, noise, seed, test))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Choosing the basis pairs greedily...")
def kcca_view(n: int, noise: float, seed: int, test: float, sigma_x: float, sigma_y: float,
              reg: float, k: int) -> dict:
    """views.kcca.kcca_view: the greedy steps and the correlations after each."""
    d = kcca_data(n, noise, seed, test)
    return freeze_tree(_kcca.kcca_view(d, sigma_x, sigma_y, reg, k))


@cache_data(max_entries=ENTRIES, ttl=TTL,
            show_spinner="Drawing the sparse-KCCA animation (one frame per basis pair)...")
def kcca_figure(n: int, noise: float, seed: int, test: float, sigma_x: float, sigma_y: float,
                reg: float, k: int, frame_ms: int) -> dict:
    """The animated sparse-KCCA figure as a plotly dict (the page sets the start frame), its
    arrays as plotly.js typed arrays (pages.common.figure_frames.typed_arrays)."""
    from mpcore.plots import kcca_animation_dict

    from .figure_frames import typed_arrays

    d = kcca_data(n, noise, seed, test)
    v = kcca_view(n, noise, seed, test, sigma_x, sigma_y, reg, k)
    return typed_arrays(kcca_animation_dict(d["X"], d["Y"], d["z"], v["steps"], train=v["train"],
                                            test=v["test"], rho=v["rho"], frame_ms=frame_ms))


# ---------------------------------------------------------------- classroom link


@cache_data(max_entries=4 * ENTRIES, ttl=TTL, show_spinner=False)
def qr_svg(url: str) -> str:
    """pages.common.qr.qr_svg, drawn once per link for every session that shows it (a
    hall of students opening the lecturer's link)."""
    from .qr import qr_svg as draw

    return draw(url)


# ---------------------------------------------------------------- reproduce page


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def reproduce_result(key: str, settings):
    """experiments.run_experiment(key, settings), with a progress bar while it runs.

    ``settings`` is the experiment's frozen settings dataclass (the cache key), so
    the page shows exactly what ``python -m experiments`` writes for the same
    settings. The progress bar is created and cleared inside the cached call, so a
    cache hit replays nothing visible. The figure comes back as a plotly dict.
    """
    from dataclasses import replace

    from experiments import EXPERIMENTS, run_experiment

    title = EXPERIMENTS[key].title
    bar = st.progress(0.0, text=f"{title}: starting...")
    result = run_experiment(key, settings, progress=lambda f, msg: bar.progress(
        f, text=f"{title}: {msg}"))
    bar.empty()
    return replace(result, figure=result.figure.to_plotly_json())
