"""Caches of the eigenvalue page (views.spectrum), computed when the page asks for them.

K is shared as one object (:func:`full_kernel`, read-only); the timed run is cached in
three parts (the exact solvers, the Nyström rules at k, the sketches at q), so a new k or q
times only what it changes (the Nyström columns chosen at k are kept for every n); the
error curves are computed once per data set and kernel for the most eigenvalues the page
offers, so a new n only slices them.
"""

from __future__ import annotations

from mpcore import validated_kernel
from mpcore.kernels import kernel_matrix
from pages.common.figure_frames import typed_arrays
from views import spectrum as _spectrum
from views.data import DataChoice, KernelChoice
from views.spectrum import SPECTRUM_BOUND_GRID_MAX_M

from .base import ENTRIES, TTL, cache_data, cache_resource, freeze_tree
from .data import load_data  # noqa: F401  (for the page)

#: Kernel matrices the eigenvalue page keeps (:func:`full_kernel`). Each holds K and, once
#: Eq. 3 has run, K @ K: tens of MB together at the largest data sets. The page needs K
#: only when a value cached from it is missing, so few are kept.
SPECTRUM_KERNEL_ENTRIES = 4


@cache_resource(max_entries=SPECTRUM_KERNEL_ENTRIES, ttl=TTL,
                show_spinner="Computing K (once per data set and kernel)...")
def full_kernel(choice: DataChoice, kern: KernelChoice):
    """K on every point of the data set (the spectrum page does not split), checked once
    (:func:`mpcore.validated_kernel`: read-only, its checks and the spectrum it is given
    kept with it) and shared as one object, not a copy per call: st.cache_data would return
    an unpickled copy without the record of its checks, and every part of a run below would
    check K again (a Cholesky factorisation)."""
    return validated_kernel(kernel_matrix(load_data(choice).X, **kern.params()))


@cache_data(max_entries=ENTRIES, ttl=TTL,
            show_spinner="Exact eigenvalues of K (dense eigh, once per data set and kernel)...")
def spectrum_exact(choice: DataChoice, kern: KernelChoice) -> dict:
    """views.spectrum.exact_spectrum: the reference, shared by every k, q, n and session."""
    return freeze_tree(_spectrum.exact_spectrum(full_kernel(choice, kern)))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def spectrum_exact_methods(choice: DataChoice, kern: KernelChoice, n_eig: int) -> dict:
    """views.spectrum.exact_methods: the exact solvers' rows, kept across every k and q."""
    return freeze_tree(_spectrum.exact_methods(full_kernel(choice, kern), n_eig,
                                               spectrum_exact(choice, kern)))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def spectrum_nystrom_columns(choice: DataChoice, kern: KernelChoice, k: int) -> dict:
    """views.spectrum.nystrom_columns: each rule's k columns, timed, and its scree values,
    kept across every n and q."""
    return freeze_tree(_spectrum.nystrom_columns(full_kernel(choice, kern), choice.seed, k))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def spectrum_nystrom_methods(choice: DataChoice, kern: KernelChoice, k: int, n_eig: int) -> dict:
    """views.spectrum.nystrom_methods: the Nyström rows at k, kept across every q; a new n
    reuses the columns chosen at k (:func:`spectrum_nystrom_columns`)."""
    columns = spectrum_nystrom_columns(choice, kern, k)
    return freeze_tree(_spectrum.nystrom_methods(full_kernel(choice, kern), choice.seed, k,
                                                 n_eig, spectrum_exact(choice, kern),
                                                 columns=columns))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def spectrum_ekm_methods(choice: DataChoice, kern: KernelChoice, q: int, n_eig: int) -> dict:
    """views.spectrum.ekm_methods: the EKM rows at q, kept across every k."""
    return freeze_tree(_spectrum.ekm_methods(full_kernel(choice, kern), choice.seed, q, n_eig,
                                             spectrum_exact(choice, kern)))


@cache_data(max_entries=ENTRIES, ttl=TTL,
            show_spinner="Timing every eigen-solver on the same K (one run each)...")
def spectrum_run(choice: DataChoice, kern: KernelChoice, k: int, q: int, n_eig: int) -> dict:
    """views.spectrum.merge_methods of its three parts cached apart: a new k times the
    Nyström rules again, not the exact solvers or the sketches."""
    return freeze_tree(_spectrum.merge_methods(
        spectrum_exact(choice, kern), k, q, n_eig, spectrum_exact_methods(choice, kern, n_eig),
        spectrum_nystrom_methods(choice, kern, k, n_eig),
        spectrum_ekm_methods(choice, kern, q, n_eig)))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def spectrum_curves_by_eigenvalue(choice: DataChoice, kern: KernelChoice, k_max: int,
                                  n_top: int) -> dict:
    """views.spectrum.error_curves_by_eigenvalue on the top ``n_top`` eigenvalues, from the
    cached exact spectrum; Eq. 3 over the q grid up to :data:`SPECTRUM_BOUND_GRID_MAX_M`."""
    return freeze_tree(_spectrum.error_curves_by_eigenvalue(
        full_kernel(choice, kern), choice.seed, n_top, k_max,
        exact=dict(spectrum_exact(choice, kern)), bound_grid_max_m=SPECTRUM_BOUND_GRID_MAX_M))


@cache_data(max_entries=ENTRIES, ttl=TTL,
            show_spinner="Errors over a grid of k and q (with Eq. 3 at every q)...")
def spectrum_curves(choice: DataChoice, kern: KernelChoice, n_eig: int, k_max: int) -> dict:
    """views.spectrum.curves_for_n: errors against k (three rules) and q (two sketches),
    sliced from the curves on the top ``curves_top`` eigenvalues (a new n costs no
    eigenproblem)."""
    n_top = _spectrum.curves_top(load_data(choice).n_samples, n_eig)
    return freeze_tree(_spectrum.curves_for_n(
        spectrum_curves_by_eigenvalue(choice, kern, k_max, n_top), n_eig))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def spectrum_run_figures(choice: DataChoice, kern: KernelChoice, k: int, q: int, n_eig: int,
                         narrow: bool) -> dict:
    """views.spectrum.run_figures (scree and angles), their arrays as plotly.js typed
    arrays, built once per setting for every session."""
    figures = _spectrum.run_figures(spectrum_run(choice, kern, k, q, n_eig), k, q, n_eig, narrow)
    return {name: typed_arrays(fig) for name, fig in figures.items()}


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def spectrum_errors_figure(choice: DataChoice, kern: KernelChoice, k: int, q: int, n_eig: int,
                           k_max: int, narrow: bool) -> dict:
    """views.spectrum.errors_figure with this run's stars, as :func:`spectrum_run_figures`."""
    return typed_arrays(_spectrum.errors_figure(
        spectrum_run(choice, kern, k, q, n_eig), spectrum_curves(choice, kern, n_eig, k_max),
        k, q, narrow))
