"""Every st.cache_data wrapper around mpcore and datasets.

Keys are small frozen dataclasses (DataChoice, KernelChoice) and ints, never
large arrays. Every cache has ``max_entries`` (and a ttl) so memory stays
bounded with many users; cached arrays are returned read-only so no caller
can mutate a value another session will see.
"""

from __future__ import annotations

import numpy as np
import streamlit as st
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

import datasets
from mpcore.kernels import kernel_matrix
from mpcore.skpca import SparseKPCA, greedy_steps, greedy_steps_from_data

from .widgets import CSV, DataChoice, KernelChoice

ENTRIES = 32
TTL = 3600


def _frozen(*arrays):
    out = []
    for a in arrays:
        if isinstance(a, np.ndarray):
            a = a.copy() if a.flags.writeable else a
            a.setflags(write=False)
        out.append(a)
    return out if len(out) > 1 else out[0]


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Loading data...")
def load_data(choice: DataChoice) -> datasets.Dataset:
    """The data set, standardised if asked, with clicked points appended."""
    if choice.name == CSV:
        raw = st.session_state.get("csv.bytes", b"")
        d = datasets.from_csv(raw, target=choice.csv_target)
    else:
        d = datasets.load(choice.name, **choice.load_kwargs())
    X, y = np.array(d.X), None if d.y is None else np.array(d.y)
    if choice.added and X.shape[1] == 2 and y is not None:
        extra = np.array(choice.added, dtype=float)
        X = np.vstack([X, extra[:, :2]])
        y = np.concatenate([y, extra[:, 2].astype(y.dtype)])
    if choice.standardize:
        X = StandardScaler().fit_transform(X)
    X, y = _frozen(X, y) if y is not None else (_frozen(X), None)
    return datasets.Dataset(X=X, y=y, task=d.task, name=d.name, description=d.description,
                            source=d.source, feature_names=d.feature_names,
                            target_name=d.target_name, warnings=d.warnings)


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def split(choice: DataChoice, test_fraction: float):
    """Seeded train/test split (stratified for classification)."""
    d = load_data(choice)
    idx = np.arange(d.n_samples)
    strat = d.y if stratified(choice, test_fraction) else None
    tr, te = train_test_split(idx, test_size=test_fraction, random_state=choice.seed, stratify=strat)
    return _frozen(tr, te)  # train_test_split order, so X[tr] is the snippet's X_tr


def stratified(choice: DataChoice, test_fraction: float) -> bool:
    """Whether :func:`split` stratifies (so a code snippet can do the same)."""
    d = load_data(choice)
    return d.task == "classification" and _can_stratify(d.y, test_fraction)


def _can_stratify(y, frac):
    _, counts = np.unique(y, return_counts=True)
    return counts.min() >= 2 and int(frac * len(y)) >= len(counts)


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Computing the kernel matrix...")
def train_kernel(choice: DataChoice, kern: KernelChoice, test_fraction: float):
    d = load_data(choice)
    tr, _ = split(choice, test_fraction)
    return _frozen(kernel_matrix(d.X[tr], **kern.params()))


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Running greedy selection...")
def skpca_steps(choice: DataChoice, kern: KernelChoice, test_fraction: float, k: int,
                n_candidates: int | None = None):
    """list(greedy_steps(...)) on the training kernel: the page indexes this list."""
    d = load_data(choice)
    tr, _ = split(choice, test_fraction)
    if n_candidates is None:
        steps = greedy_steps(train_kernel(choice, kern, test_fraction), k)
    else:
        steps = greedy_steps_from_data(d.X[tr], k, n_candidates=n_candidates,
                                       random_state=choice.seed, **kern.params())
    return list(steps)


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Fitting sparse kernel PCA...")
def skpca_model(choice: DataChoice, kern: KernelChoice, test_fraction: float, k: int,
                n_candidates: int | None = None) -> SparseKPCA:
    d = load_data(choice)
    tr, _ = split(choice, test_fraction)
    return SparseKPCA(k, n_candidates=n_candidates, random_state=choice.seed,
                      **kern.params()).fit(d.X[tr])


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Exact eigenvalues...")
def train_eigenvalues(choice: DataChoice, kern: KernelChoice, test_fraction: float):
    """All eigenvalues of the training kernel, descending (for exact KPCA curves)."""
    K = train_kernel(choice, kern, test_fraction)
    return _frozen(np.clip(np.linalg.eigvalsh(K)[::-1], 0.0, None))


# ---------------------------------------------------------------- sparse KPCA page

HEATMAP_MAX_POINTS = 120  # points shown in the deflated-kernel heatmap
HEATMAP_MAX_M = 1000  # above this the heatmap is hidden


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Preparing the animation...")
def skpca_view(choice: DataChoice, kern: KernelChoice, test_fraction: float, k: int,
               n_candidates: int | None = None) -> dict:
    """Everything the sparse-KPCA page draws, computed once per setting."""
    from mpcore.plots import project_2d
    from mpcore.spectrum import incomplete_cholesky

    d = load_data(choice)
    tr, _ = split(choice, test_fraction)
    X = d.X[tr]
    steps = skpca_steps(choice, kern, test_fraction, k, n_candidates)
    X2, axis_labels = project_2d(X)
    m = len(tr)
    heat, heat_note = None, None
    if n_candidates is not None or m > HEATMAP_MAX_M:
        heat_note = (f"Heatmap hidden: m = {m} training points would mean {m}² numbers per frame"
                     + (" and the 59-trick never forms K." if n_candidates is not None else "."))
    else:
        K = train_kernel(choice, kern, test_fraction)
        model = skpca_model(choice, kern, test_fraction, k, None)
        if m > HEATMAP_MAX_POINTS:
            sub = np.linspace(0, m - 1, HEATMAP_MAX_POINTS).astype(int)
            heat_note = f"Heatmap shows {HEATMAP_MAX_POINTS} evenly spaced of the m = {m} points."
        else:
            sub = np.arange(m)
        key = (d.y[tr][sub] if d.y is not None and d.task == "classification" else 0, X2[sub, 0])
        sub = sub[np.lexsort(key[::-1])] if d.y is not None else sub[np.argsort(X2[sub, 0])]
        F = model.transform(X[sub])
        K_sub = K[np.ix_(sub, sub)]
        cum = np.zeros_like(K_sub)
        heat = np.empty((len(steps), len(sub), len(sub)), dtype=np.float32)
        for j in range(len(steps)):
            cum += np.outer(F[:, j], F[:, j])
            heat[j] = K_sub - cum
    curves = {}
    trace0 = float(steps[0].trace_residual + steps[0].quotients[steps[0].index]) if steps else 0.0
    if n_candidates is None:
        lam = train_eigenvalues(choice, kern, test_fraction)
        tail = np.concatenate([[lam.sum()], lam.sum() - np.cumsum(lam)])[: len(steps) + 1]
        curves["exact kernel PCA (optimum)"] = np.maximum(tail, 0.0)
        K = train_kernel(choice, kern, test_fraction)
        R, _ = incomplete_cholesky(K, rank=len(steps))
        chol = trace0 - np.concatenate([[0.0], np.cumsum(np.sum(R**2, axis=1))])
        curves["incomplete Cholesky (largest diagonal)"] = np.maximum(chol, 0.0)
    labels = d.y[tr] if d.y is not None and d.task == "classification" else None
    return dict(steps=steps, X2=X2, axis_labels=axis_labels, heat=heat, heat_note=heat_note,
                curves=curves, trace0=trace0, m=m, labels=labels)


@st.cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def skpca_figure(choice: DataChoice, kern: KernelChoice, test_fraction: float, k: int,
                 n_candidates: int | None, frame_ms: int) -> dict:
    """The animated figure as a plotly dict (the page only sets the start frame)."""
    from mpcore.plots import skpca_animation

    v = skpca_view(choice, kern, test_fraction, k, n_candidates)
    fig = skpca_animation(v["X2"], v["steps"], axis_labels=v["axis_labels"], trace0=v["trace0"],
                          curves=v["curves"], heatmaps=v["heat"], frame_ms=frame_ms)
    return fig.to_plotly_json()
