"""Caches of the sparse-KPCA page (views.skpca)."""

from __future__ import annotations

from pages.common.figure_frames import cut_animation, typed_arrays
from views import skpca as _skpca
from views.data import DataChoice, KernelChoice
from views.skpca import HEATMAP_MAX_M, HEATMAP_MAX_POINTS  # noqa: F401

from .base import ENTRIES, TTL, cache_data, freeze_tree, frozen
from .data import load_data, split, stratified, train_kernel  # noqa: F401  (for the page)


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
    return frozen(_skpca.eigenvalues(train_kernel(choice, kern, test_fraction)))


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
    """views.skpca.animation_dict for ``k`` steps, its arrays as plotly.js typed arrays
    (encoded once here, not on every rerun).

    The page asks for the largest k it offers and cuts the figure to the k on
    the slider (pages.common.figure_frames.cut_animation): moving the slider is then a cache hit.
    """
    return freeze_tree(typed_arrays(_skpca.animation_dict(
        skpca_view(choice, kern, test_fraction, k, n_candidates),
        added_rows(choice, test_fraction))))


def added_rows(choice: DataChoice, test_fraction: float):
    """views.skpca.added_rows: training rows of the points added by clicking."""
    return _skpca.added_rows(split(choice, test_fraction)[0], load_data(choice).n_samples,
                             len(choice.added or ()))


#: Entries of :func:`skpca_at_k`: every k the page offers (1 to 100) for one setting, and a
#: few more. A hall moves k all over its range; with :data:`ENTRIES` most new k's evicted
#: one still wanted, and each miss reads the whole ``k_max`` figure back out of its cache to
#: cut it.
SKPCA_AT_K_ENTRIES = 128


@cache_data(max_entries=SKPCA_AT_K_ENTRIES, ttl=TTL,
            show_spinner="Running greedy selection and drawing the animation...")
def skpca_at_k(choice: DataChoice, kern: KernelChoice, test_fraction: float, k_max: int,
               n_candidates: int | None, k: int) -> dict:
    """What the sparse-KPCA page shows at sparsity ``k``: the first k steps and the figure
    cut to them, taken once per k from the ``k_max`` run. A Step rerun then reads k steps
    and k frames from the cache, not the k_max of them (the heatmaps above all)."""
    view = skpca_view(choice, kern, test_fraction, k_max, n_candidates)
    steps = view["steps"][:k]
    fig = skpca_figure(choice, kern, test_fraction, k_max, n_candidates)  # typed arrays
    return freeze_tree(dict(steps=steps, fig=cut_animation(fig, len(steps), 1),
                            heat_note=view["heat_note"], m=view["m"]))
