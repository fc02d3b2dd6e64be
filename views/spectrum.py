r"""What the eigenvalue page draws: every approximate eigen-solver against dense ``eigh``.

Nystroem with four choices of columns (sparse-KPCA, uniform random, incomplete
Cholesky, randomly pivoted Cholesky) and Marukatat's empirical kernel map with two sketches, each timed
once on the same K; their errors over grids of k and q with Marukatat's
Eq. 3, :math:`|\lambda_i^2 - \tilde\lambda_i| \le \|E\|_2`.
"""

from __future__ import annotations

import time

import numpy as np
from scipy.sparse.linalg import ArpackError

from mpcore.plots._spectrum import EKM_SERIES, EXACT, NYSTROM_SERIES
from mpcore.ekm import ABS_EIGENVALUES_MEMO
from mpcore.nystrom import nystrom_factor_eigenvalues
from mpcore.spectrum import tridiagonal_form
from mpcore import (
    LanczosBudgetExceeded,
    ekm_eigenpairs,
    ekm_eigenvalues,
    ekm_perturbation_bound,
    ekm_perturbation_bounds,
    exact_eigenpairs,
    exact_eigenvalues,
    incomplete_cholesky,
    nystrom_eigenpairs,
    nystrom_eigenvalues,
    nystrom_indices,
    nystrom_nested_eigenvalues,
    random_order,
    relative_error,
    rpcholesky,
    subspace_distance,
    validated_kernel,
)

__all__ = ["N_EIG_MAX", "EXACT_VECTORS", "exact_spectrum", "SPECTRUM_GRID",
           "SPECTRUM_Q_GRID_MAX", "SPECTRUM_BOUND_GRID_MAX_M", "SPECTRUM_ZERO_RATIO",
           "scree_length", "log_grid", "n_compared", "compare_methods", "exact_methods",
           "nystrom_columns", "nystrom_methods", "ekm_methods", "merge_methods", "error_curves",
           "error_curves_by_eigenvalue", "curves_top", "curves_for_n", "errors_at",
           "run_figures", "errors_figure"]

#: Points of the error-against-k and error-against-q grids (log-spaced).
SPECTRUM_GRID = 8
#: Above this m, Marukatat's Eq. 3 (an O(m^3) diagnostic per point) is drawn at the chosen q only.
SPECTRUM_BOUND_GRID_MAX_M = 1000
#: Largest sketch size q on the error-against-q grid: past it a sketch costs about what the
#: exact eigenvalues cost (a q x q eigenproblem of the size of K), and the curve is flat.
SPECTRUM_Q_GRID_MAX = 1000
#: Exact eigenvalues at or below this fraction of the largest count as zero and are not
#: compared (a relative error against a rounding-level eigenvalue means nothing).
SPECTRUM_ZERO_RATIO = 1e-10


def scree_length(m: int, n_eig: int, k: int, q: int) -> int:
    """How many leading eigenvalues the scree plot shows (past k and q, so their edge shows)."""
    return int(min(m, max(50, 2 * n_eig, k + 10, q + 10)))


def log_grid(top: int) -> np.ndarray:
    """Log-spaced integer grid from 1 to ``top`` (both included)."""
    return np.unique(np.round(np.geomspace(1, max(int(top), 1), SPECTRUM_GRID)).astype(int))


def n_compared(exact_top) -> int:
    """Leading eigenvalues that are not zero to rounding (at least one)."""
    lam = np.asarray(exact_top, dtype=float)
    return max(1, int(np.count_nonzero(lam > SPECTRUM_ZERO_RATIO * max(float(lam[0]), 0.0))))


def _relative_bound(bound, exact):
    """Eq. 3 carried to the eigenvalue scale, relative like mpcore.spectrum.relative_error."""
    exact = np.asarray(exact, dtype=float)
    return np.where(exact > 0, bound / np.where(exact > 0, exact, 1.0), bound)


def _timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


#: The most leading eigenvalues the page compares (its n slider stops at min(this, m - 1)).
N_EIG_MAX = 50
#: Eigenvectors kept by :func:`exact_spectrum` (the largest ``n_eig`` the page offers).
EXACT_VECTORS = N_EIG_MAX


def every_eigenvalue(K) -> tuple:
    """(K reduced to tridiagonal form, every eigenvalue of K descending): the reference
    spectrum of the page, computed the same way wherever it is computed (the timed run and
    the error curves), so that both give the same numbers to the last bit."""
    reduced = tridiagonal_form(K)
    return reduced, reduced.eigenvalues()


def exact_spectrum(K, n_vectors: int = EXACT_VECTORS) -> dict:
    """Every eigenvalue of K (dense, timed) and the top ``n_vectors`` eigenvectors.

    The reference every method is compared with; it depends on the data and the kernel
    only, so the app computes it once per (data set, kernel) and shares it. Both come from
    one reduction of K to tridiagonal form (:func:`mpcore.spectrum.tridiagonal_form`): the
    time is that of the reduction and the sweep for every eigenvalue, what
    ``eigh(K, eigvals_only=True)`` does; the eigenvectors are computed after it, untimed
    (one reduction instead of two).
    """
    K = validated_kernel(K)
    m = K.shape[0]
    (reduced, values), seconds = _timed(lambda: every_eigenvalue(K))
    n_vec = int(min(max(1, n_vectors), m))
    _, U = reduced.eigenpairs(n_vec)
    return dict(values=np.asarray(values, dtype=float), vectors=np.asarray(U), seconds=seconds)


def _remember_spectrum(K, exact: dict) -> None:
    """Give the checked K the spectrum :func:`exact_spectrum` computed (every eigenvalue, from
    its reduction to tridiagonal form), so that Eq. 3 (``ekm_perturbation_bound``) does not
    compute it again: once per sketch and point of the q grid."""
    values = np.asarray(exact["values"], dtype=float)
    if values.shape == (K.shape[0],):
        K.memo(ABS_EIGENVALUES_MEMO, lambda: np.sort(np.abs(values))[::-1])


def _add_row(out, name, what, seconds, values, reference, angle, used) -> None:
    """Add a method's row of the timing table (``values`` against ``reference``, see
    :func:`_reference`) and its top eigenvalues to a part's ``out["rows"]`` and
    ``out["top"]``."""
    exact, n_cmp, t_dense = reference["exact"], reference["n_compared"], reference["t_dense"]
    err = relative_error(values[:n_cmp], exact[:n_cmp])
    out["top"][name] = np.asarray(values, dtype=float)
    out["rows"].append({"method": name, "computes": what, "time (s)": seconds,
                        "time / dense eigh": seconds / t_dense if t_dense > 0 else np.nan,
                        f"max rel. error, top {n_cmp}": float(err.max()),
                        "rel. error λ₁": float(err[0]),
                        "largest angle (°)": angle, "vectors compared": used})


def _checked(K, n_eig: int, exact: dict | None) -> tuple:
    """K checked once (not again by every call after it) and its :func:`exact_spectrum`,
    computed here unless ``exact`` has the top ``n_eig`` eigenvectors."""
    K = validated_kernel(K)
    if exact is None or exact["vectors"].shape[1] < min(n_eig, K.shape[0]):
        exact = exact_spectrum(K, n_eig)
    return K, exact


def _reference(K, n_eig: int, exact: dict | None) -> tuple:
    """The checked K and what every method is compared with: the exact top ``n_eig``
    eigenvalues and eigenvectors, how many of them count (:func:`n_compared`), and the time
    dense ``eigh`` took."""
    K, exact = _checked(K, n_eig, exact)
    _remember_spectrum(K, exact)
    top = np.asarray(exact["values"][:n_eig], dtype=float)
    return K, dict(exact=top, vectors=exact["vectors"][:, :n_eig],
                   n_compared=n_compared(top), t_dense=exact["seconds"])


def exact_methods(K, n_eig: int, exact: dict | None = None) -> dict:
    """The rows of the exact solvers: dense ``eigh`` of all m (the reference), ``eigh`` of
    the top ``n_eig`` only, and Lanczos (``eigsh``), each timed once.

    Returns ``rows``, ``top`` (method name -> its top ``n_eig`` eigenvalues) and
    ``eigsh_note`` (why Lanczos is left out, or None). Depends on K and ``n_eig`` only, so
    the app keeps it across every k and q."""
    K, ref = _reference(K, n_eig, exact)
    m, n_cmp, U = K.shape[0], ref["n_compared"], ref["vectors"]
    out = dict(rows=[], top={}, eigsh_note=None)
    # the reference vectors come from the same LAPACK routine: angle 0 by construction
    _add_row(out, "dense eigh (all m)", f"all {m} eigenvalues", ref["t_dense"], ref["exact"],
             ref, 0.0, n_cmp)
    vals, sec = _timed(lambda: exact_eigenvalues(K, n_eig, method="eigh"))
    _add_row(out, "eigh, top n only", f"top {n_eig}, exact", sec, vals, ref, 0.0, n_cmp)
    try:  # strict: a Lanczos that gives up is reported, not replaced by the dense solver
        # one Lanczos run gives the row's eigenvalues and its vectors (ARPACK computes the
        # Ritz vectors either way: a second run would do the work again)
        (vals, V), sec = _timed(lambda: exact_eigenpairs(K, n_eig, method="eigsh",
                                                         strict=True))
        angle = np.degrees(subspace_distance(U[:, :n_cmp], V[:, :n_cmp]))  # n_cmp <= n_eig
        _add_row(out, "eigsh (Lanczos), top n", f"top {n_eig}, exact", sec, vals, ref, angle,
                 n_cmp)
    except LanczosBudgetExceeded as exc:
        out["eigsh_note"] = (f"eigsh (Lanczos) is left out of the table. {exc}. Clustered "
                             "eigenvalues are where Lanczos is slow; here the dense solver is "
                             "the one to use.")
    except ArpackError as exc:  # includes ArpackNoConvergence
        out["eigsh_note"] = (f"eigsh did not converge here ({exc}); it is left out of the "
                             "table.")
    return out


def nystrom_columns(K, seed: int, k: int) -> dict:
    """Each Nystroem rule's k columns (Eq. 5 of Hussain & Shawe-Taylor), the time choosing
    them took (timed once) and every non-zero eigenvalue of its approximation (the scree
    plot's values): what a rule's row needs that does not depend on n, so the app computes
    it once per k and a new n times only the top-n eigenproblem (:func:`nystrom_methods`).

    Returns series name -> ``indices``, ``seconds`` and ``scree``."""
    K = validated_kernel(K)
    out = {}
    for rule, name in NYSTROM_SERIES.items():
        idx, sec = _timed(lambda rule=rule: nystrom_indices(K, k, rule=rule, random_state=seed))
        # untimed: all of them (n >= k >= rank), as any longer scree would have, then zeros
        scree = nystrom_eigenvalues(K, idx, min(K.shape[0], len(idx)))
        out[name] = dict(indices=np.asarray(idx), seconds=sec, scree=np.asarray(scree))
    return out


def nystrom_methods(K, seed: int, k: int, n_eig: int, exact: dict | None = None,
                    columns: dict | None = None) -> dict:
    """The Nystroem rows at k columns, one per rule (Eq. 5 of Hussain & Shawe-Taylor), each
    timed once (choosing the columns, then the top-n eigenproblem on them); depends on k,
    not on q.

    ``columns``: :func:`nystrom_columns` at this k (computed here when None).

    Returns ``rows``, ``top``, ``scree`` (every non-zero eigenvalue of each approximation:
    the scree plot pads them with zeros, which is what the approximation has beyond its rank
    r <= k), ``angles`` (name -> (largest angle in degrees, vectors compared)) and
    ``indices`` (the chosen columns)."""
    K, ref = _reference(K, n_eig, exact)
    if columns is None:
        columns = nystrom_columns(K, seed, k)
    n_cmp, U = ref["n_compared"], ref["vectors"]
    out = dict(rows=[], top={}, scree={}, angles={}, indices={})
    for name in NYSTROM_SERIES.values():
        idx = np.asarray(columns[name]["indices"])
        vals, sec = _timed(lambda idx=idx: nystrom_eigenvalues(K, idx, n_eig))
        sec += columns[name]["seconds"]
        out["indices"][name] = idx
        out["scree"][name] = np.asarray(columns[name]["scree"])
        r = int(np.count_nonzero(vals[:n_cmp] > 0))
        angle = np.nan
        if r:
            _, V = nystrom_eigenpairs(K, idx, r)
            angle = np.degrees(subspace_distance(U[:, :r], V))
        out["angles"][name] = (angle, r)
        _add_row(out, name, f"top {n_eig} from {len(idx)} columns", sec, vals, ref, angle, r)
    return out


def ekm_methods(K, seed: int, q: int, n_eig: int, exact: dict | None = None) -> dict:
    """The EKM rows at sketch size q, one per sketch (Marukatat, Algorithm 1), each timed
    once, with Eq. 3's numbers; depends on q, not on k.

    Returns ``rows``, ``top``, ``scree`` (every eigenvalue of the q x q covariance: rank
    <= q, zeros beyond), ``angles`` and ``ekm`` (name -> observed error, ``||E||_2``, the
    entrywise bound and the bound carried to the eigenvalue scale)."""
    K, ref = _reference(K, n_eig, exact)
    n_cmp, U = ref["n_compared"], ref["vectors"]
    out = dict(rows=[], top={}, scree={}, angles={}, ekm={})
    for sketch, name in EKM_SERIES.items():
        vals, sec = _timed(lambda sketch=sketch: ekm_eigenvalues(K, q, n_eig, sketch=sketch,
                                                                  random_state=seed))
        out["scree"][name] = ekm_eigenvalues(K, q, min(K.shape[0], q), sketch=sketch,
                                             random_state=seed)
        _, V = ekm_eigenpairs(K, q, min(n_cmp, q), sketch=sketch, random_state=seed)
        keep = np.any(V != 0, axis=0)
        r = int(keep.sum())
        angle = np.degrees(subspace_distance(U[:, :r], V[:, keep])) if r else np.nan
        out["angles"][name] = (angle, r)
        _add_row(out, name, f"top {n_eig} from a sketch of size {q}", sec, vals, ref, angle, r)
        p = ekm_perturbation_bound(K, q, n_cmp, sketch=sketch, random_state=seed)
        out["ekm"][name] = dict(
            observed=float(p.observed.max()), spectral=p.spectral_bound,
            entrywise=p.entrywise_bound,
            relative_bound=float(_relative_bound(p.eigenvalue_bound, p.exact).max()))
    return out


def merge_methods(exact: dict, k: int, q: int, n_eig: int, exact_rows: dict, nystrom: dict,
                  ekm: dict) -> dict:
    """The run :func:`compare_methods` returns, from its three parts (each read, not
    changed: the app shares them across sessions)."""
    values = np.asarray(exact["values"], dtype=float)
    m = values.shape[0]
    L = scree_length(m, n_eig, k, q)
    scree = {EXACT: values[:L]}
    for part in (nystrom, ekm):
        for name, v in part["scree"].items():
            v = np.asarray(v, dtype=float)[:L]
            scree[name] = np.concatenate([v, np.zeros(L - v.shape[0])])
    gap = np.nan
    if n_eig < m and values[0] > 0:
        gap = (values[n_eig - 1] - values[n_eig]) / values[0]
    return dict(m=m, n_eig=n_eig, n_compared=n_compared(values[:n_eig]), scree_length=L,
                rows=[*exact_rows["rows"], *nystrom["rows"], *ekm["rows"]],
                top={**exact_rows["top"], **nystrom["top"], **ekm["top"]},
                scree=scree, angles={**nystrom["angles"], **ekm["angles"]},
                indices=dict(nystrom["indices"]), ekm=dict(ekm["ekm"]),
                eigsh_note=exact_rows["eigsh_note"], relative_gap=float(gap))


def compare_methods(K, seed: int, k: int, q: int, n_eig: int, exact: dict | None = None) -> dict:
    """One timed run of every method at (k, q): eigenvalues, errors, angles, Eq. 3.

    Every method computes the top ``n_eig`` eigenvalues and is timed once;
    dense ``eigh`` of all m is the reference. Scree values, eigenvectors and
    Eq. 3 are computed afterwards, untimed, with the same indices and seeds.
    The run is :func:`merge_methods` of :func:`exact_methods`,
    :func:`nystrom_methods` (k) and :func:`ekm_methods` (q), which the app caches
    apart: a new k runs the Nystroem rules only.

    Returns
    -------
    dict
        ``m``, ``n_eig``, ``n_compared``, ``scree_length``, ``rows`` (one per
        method: time, time relative to dense eigh, largest relative error over
        the compared eigenvalues, error of the first, largest principal angle),
        ``top`` and ``scree`` (series name -> eigenvalues), ``angles``,
        ``indices`` (Nystroem columns), ``ekm`` (Eq. 3 numbers), ``eigsh_note``
        and ``relative_gap``.
    """
    K, exact = _checked(K, n_eig, exact)
    return merge_methods(exact, k, q, n_eig, exact_methods(K, n_eig, exact),
                         nystrom_methods(K, seed, k, n_eig, exact),
                         ekm_methods(K, seed, q, n_eig, exact))


def errors_at(run: dict) -> dict:
    """Method name -> its largest relative error over the compared top eigenvalues, from a
    :func:`compare_methods` run (the timing table's column; the stars of the error figure)."""
    column = f"max rel. error, top {run['n_compared']}"
    return {r["method"]: r[column] for r in run["rows"]}


def error_curves(K, seed: int, n_eig: int, k_max: int, *,
                 bound_grid_max_m: int = SPECTRUM_BOUND_GRID_MAX_M,
                 exact: dict | None = None) -> dict:
    """Max relative error over the top n against k (four rules) and q (two sketches).

    The q grid runs from 1 to ``min(m, SPECTRUM_Q_GRID_MAX)``.

    The sparse-KPCA and Cholesky subsets are nested, so one run to ``k_max``
    gives every k on the grid as a prefix; random subsets and sketches use
    ``seed``, so a grid point equal to k or q reproduces :func:`compare_methods`
    exactly. Eq. 3 is computed at every q only when m <= ``bound_grid_max_m``.
    This is :func:`curves_for_n` of :func:`error_curves_by_eigenvalue` at ``n_eig``.
    """
    return curves_for_n(error_curves_by_eigenvalue(K, seed, n_eig, k_max,
                                                   bound_grid_max_m=bound_grid_max_m,
                                                   exact=exact), n_eig)


def error_curves_by_eigenvalue(K, seed: int, n_top: int, k_max: int, *,
                               bound_grid_max_m: int = SPECTRUM_BOUND_GRID_MAX_M,
                               exact: dict | None = None) -> dict:
    """Every method's relative error on each of the top ``n_top`` eigenvalues, over the
    grids of k and q, with Eq. 3 on each: the curves of every n <= ``n_top`` are maxima
    over a prefix (:func:`curves_for_n`).

    An approximation's top n eigenvalues are the first n of its top ``n_top`` (the same
    columns or sketch, one symmetric eigenproblem), and ``||E||_2`` and ``m max|E_ij|`` do
    not depend on n. Computing the top 50 costs what the top 10 cost (the solvers'
    reduction to tridiagonal form dominates), so the app computes them once per data set,
    kernel and largest k, and a new n only slices.

    Returns
    -------
    dict
        ``k_grid``, ``q_grid``, ``with_bound`` as in :func:`error_curves`; ``n_top``;
        ``n_compared`` (of the top ``n_top``); ``nystrom`` and ``ekm`` (series name -> array
        of shape (grid points, ``n_compared``) of relative errors); ``ekm_bounds`` (the
        same shape: Eq. 3 carried to the eigenvalue scale, relative) and ``eq3`` (series
        name -> observed ``|lambda_i^2 - lambda~_i|`` of that shape, ``||E||_2`` and
        ``m max|E_ij|`` per q), both empty without the bound.
    """
    K = validated_kernel(K)
    m = K.shape[0]
    n_top = int(n_top)
    if not 1 <= n_top <= m:
        raise ValueError(f"n_top must be between 1 and m = {m}, got {n_top}.")
    if exact is None:  # every eigenvalue (Eq. 3 needs them all), as exact_spectrum's
        exact = dict(values=every_eigenvalue(K)[1])
    _remember_spectrum(K, exact)
    exact = np.asarray(exact["values"], dtype=float)[:n_top]
    n_cmp = n_compared(exact)
    exact = exact[:n_cmp]
    k_grid, q_grid = log_grid(min(k_max, m)), log_grid(min(m, SPECTRUM_Q_GRID_MAX))
    nystrom = {}
    k_top = int(k_grid[-1])
    for rule, name in NYSTROM_SERIES.items():
        # every k of the grid from one run to the largest: the greedy rules' choices are
        # nested, and so are the random rule's subsets of one seed (the sorted prefixes of
        # random_order: each is the subset compare_methods draws at k), and randomly pivoted
        # Cholesky's of one seed (one draw per step). The two Cholesky rules factorise K as
        # they choose (their first t rows are the Nystroem approximation on the first t
        # columns), so their prefixes' eigenvalues come from that factor; the other two
        # make one pass over their points in order
        if rule in _FACTOR_RULES:
            R = _FACTOR_RULES[rule](K, k_top, seed)
            vals = nystrom_factor_eigenvalues(R, np.minimum(k_grid, R.shape[0]), n_cmp)
        else:
            idx = (random_order(m, k_top, random_state=seed) if rule == "random"
                   else nystrom_indices(K, k_top, rule=rule, random_state=seed))
            sizes = np.minimum(k_grid, idx.size)  # fewer once K is spanned
            vals = nystrom_nested_eigenvalues(K, idx, sizes, n_cmp)
        nystrom[name] = np.asarray([relative_error(v, exact) for v in vals])
    with_bound = m <= bound_grid_max_m
    errors, bounds, eq3 = {}, {}, {}
    for sketch, name in EKM_SERIES.items():
        errs, rel_b, obs, spec, entry = [], [], [], [], []
        qs = [int(qq) for qq in q_grid]
        # Eq. 3 at every q in one call: K^2 and, for the Gaussian sketch, one draw of S shared
        points = (ekm_perturbation_bounds(K, qs, n_cmp, sketch=sketch, random_state=seed)
                  if with_bound else [None] * len(qs))
        for qq, p in zip(qs, points):
            if p is not None:
                vals = p.approx
                rel_b.append(_relative_bound(p.eigenvalue_bound, p.exact))
                obs.append(p.observed)
                spec.append(p.spectral_bound)
                entry.append(p.entrywise_bound)
            else:
                vals = ekm_eigenvalues(K, qq, n_cmp, sketch=sketch, random_state=seed)
            errs.append(relative_error(vals, exact))
        errors[name] = np.asarray(errs)
        if with_bound:
            bounds[name] = np.asarray(rel_b)
            eq3[name] = tuple(np.asarray(a) for a in (obs, spec, entry))
    return dict(k_grid=k_grid, q_grid=q_grid, nystrom=nystrom, ekm=errors, ekm_bounds=bounds,
                eq3=eq3, with_bound=with_bound, n_top=n_top, n_compared=n_cmp)


#: The Nystroem rules that factorise K as they choose their columns: rule -> (K, k, seed) ->
#: the factor's rows, one per column chosen, in order (what nystrom_indices chooses with
#: that rule and seed; :func:`mpcore.nystrom.nystrom_factor_eigenvalues` reads them).
_FACTOR_RULES = {
    "cholesky": lambda K, k, seed: incomplete_cholesky(K, rank=k)[0],
    "rpcholesky": lambda K, k, seed: rpcholesky(K, k, random_state=seed).factor.T,
}


def curves_top(m: int, n_eig: int) -> int:
    """How many leading eigenvalues of an m x m K the error curves are computed for: the
    most the page offers, so that a new n only slices them (:func:`curves_for_n`)."""
    return max(int(n_eig), min(N_EIG_MAX, int(m) - 1))


def curves_for_n(by_eigenvalue: dict, n_eig: int) -> dict:
    """The error curves over the top ``n_eig`` (:func:`error_curves`' dict) from
    :func:`error_curves_by_eigenvalue`: each point's largest error over the first
    ``min(n_eig, n_compared)`` eigenvalues (the compared ones are a prefix of the sorted
    spectrum)."""
    n_top = by_eigenvalue["n_top"]
    if not 1 <= int(n_eig) <= n_top:
        raise ValueError(f"n_eig must be between 1 and {n_top} (the eigenvalues the curves "
                         f"were computed for), got {n_eig}.")
    n_cmp = min(int(n_eig), by_eigenvalue["n_compared"])

    def top(errs):
        return {name: np.asarray(e)[:, :n_cmp].max(axis=1) for name, e in errs.items()}

    eq3 = {name: (np.asarray(obs)[:, :n_cmp].max(axis=1), np.asarray(spec), np.asarray(entry))
           for name, (obs, spec, entry) in by_eigenvalue["eq3"].items()}
    return dict(k_grid=by_eigenvalue["k_grid"], q_grid=by_eigenvalue["q_grid"],
                nystrom=top(by_eigenvalue["nystrom"]), ekm=top(by_eigenvalue["ekm"]),
                ekm_bounds=top(by_eigenvalue["ekm_bounds"]), eq3=eq3,
                with_bound=by_eigenvalue["with_bound"], n_compared=n_cmp)


def run_figures(run: dict, k: int, q: int, n_eig: int, narrow: bool) -> dict:
    """The figures of a :func:`compare_methods` run, ``scree`` and ``angles``, as plotly
    dicts (``narrow``: stacked to a phone's width)."""
    from mpcore.plots import angles_figure_dict, scree_figure_dict

    approx = {n: v for n, v in run["scree"].items() if n != EXACT}
    return dict(
        scree=scree_figure_dict(run["scree"][EXACT], approx, n_compared=n_eig, k=k, q=q,
                                narrow=narrow),
        angles=angles_figure_dict(run["angles"], n_eig=run["n_compared"], narrow=narrow))


def errors_figure(run: dict, curves: dict, k: int, q: int, narrow: bool) -> dict:
    """The error curves (:func:`error_curves`' dict) with Eq. 3 and the stars of the run
    at (k, q), as a plotly dict."""
    from mpcore.plots import error_curves_figure_dict

    return error_curves_figure_dict(
        curves["k_grid"], curves["nystrom"], curves["q_grid"], curves["ekm"],
        ekm_bounds=curves["ekm_bounds"], eq3=curves["eq3"], k=k, q=q,
        current=errors_at(run), n_compared=run["n_compared"], narrow=narrow)
