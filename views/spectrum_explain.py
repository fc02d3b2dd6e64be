r"""The eigenvalue page in words: what its three figures show, and a verdict on the run.

:func:`verdict` reads the run of :func:`views.spectrum.compare_methods` and says which
approximation is most accurate on the top eigenvalues, which comes closest to the exact
subspace (the largest principal angle) and which is fastest, each with the reason in words
a student follows. Who wins is read from the numbers; only the reasons are written here,
one per method (:data:`WHY_ACCURATE`, :data:`WHY_SUBSPACE`, :data:`WHY_FAST`).
"""

from __future__ import annotations

import math

import numpy as np

from mpcore.plots._spectrum import (EKM_COUNTSKETCH, EKM_GAUSSIAN, EKM_SERIES, EXACT,
                                    NYSTROM_CHOLESKY, NYSTROM_RANDOM, NYSTROM_RPCHOLESKY,
                                    NYSTROM_SERIES, NYSTROM_SKPCA, STAR_PATH)

from .explain import figure_lines, glossary_lines, legend_names

__all__ = ["APPROXIMATIONS", "verdict", "scree_lines", "errors_lines", "angles_lines",
           "SERIES_MEANING"]

#: The approximate methods the verdict compares (the exact solvers are the reference).
APPROXIMATIONS = (*NYSTROM_SERIES.values(), *EKM_SERIES.values())
#: An angle above this (degrees) misses a leading direction badly: the verdict says so.
BAD_ANGLE = 45.0

#: What each series is, in a line (the legends' names).
SERIES_MEANING = {
    EXACT: "the exact eigenvalues (dense eigh), black: the reference.",
    NYSTROM_SKPCA: "Nyström on the k columns sparse KPCA chooses (largest Rayleigh quotient).",
    NYSTROM_RANDOM: "Nyström on k columns drawn uniformly at random (the uniform rule).",
    NYSTROM_CHOLESKY: "Nyström on the incomplete-Cholesky pivots (largest residual diagonal).",
    NYSTROM_RPCHOLESKY: "Nyström on randomly pivoted Cholesky's columns (drawn in proportion "
                        "to the residual diagonal).",
    EKM_GAUSSIAN: "the empirical kernel map sketched to q dimensions by a Gaussian matrix.",
    EKM_COUNTSKETCH: "the empirical kernel map sketched to q dimensions by a count sketch.",
}

WHY_ACCURATE = {
    NYSTROM_SKPCA: "its columns are the ones that explain most of K, so the large eigenvalues "
                   "are captured first",
    NYSTROM_RANDOM: "on data without outliers, k points spread at random cover the leading "
                    "directions about as well as chosen ones",
    NYSTROM_CHOLESKY: "each pivot is the point least explained so far, which covers the data "
                      "evenly when there are no outliers",
    NYSTROM_RPCHOLESKY: "it favours unexplained points without letting a single outlier take "
                        "every pick",
    EKM_GAUSSIAN: "every one of its q sketched coordinates mixes all m columns of K, so each "
                  "eigenvalue is estimated from the whole matrix, not from k of its columns",
    EKM_COUNTSKETCH: "it sees all m columns of K, like the Gaussian sketch, at a fraction of "
                     "its cost",
}
WHY_SUBSPACE = {
    NYSTROM_SKPCA: "its columns span the leading eigenvectors: the greedy rule keeps the point "
                   "whose direction explains most of what is left",
    NYSTROM_RANDOM: "k random points spread over the data span its main directions when no "
                    "small group of points carries a leading one",
    NYSTROM_CHOLESKY: "each pivot fills the direction least explained so far",
    NYSTROM_RPCHOLESKY: "its draws follow the residual diagonal, so the directions left "
                        "unexplained are the likely picks",
    EKM_GAUSSIAN: "a Gaussian sketch keeps the angles between all m EKM vectors, so the top "
                  "directions of K survive it",
    EKM_COUNTSKETCH: "hashing all m EKM vectors into q buckets keeps the strongest directions",
}
WHY_BAD_SUBSPACE = {
    NYSTROM_CHOLESKY: "incomplete Cholesky pivots on the largest residual diagonal, which picks "
                      "outliers (points nothing else explains) before the leading directions",
    NYSTROM_RANDOM: "uniform draws ignore what is already explained and can miss a small "
                    "group that carries a leading direction",
    NYSTROM_RPCHOLESKY: "k draws are too few to hit every leading direction",
    NYSTROM_SKPCA: "k is below the number of directions compared",
    EKM_GAUSSIAN: "the sketch size q is too small for the directions compared",
    EKM_COUNTSKETCH: "the sketch size q is too small, and hashing mixes directions",
}
WHY_FAST = {
    NYSTROM_SKPCA: "it reads only k columns of K and solves a k × k eigenproblem (its greedy "
                   "search is the slow part)",
    NYSTROM_RANDOM: "it reads only k columns of K, chosen with no search at all, then solves a "
                    "k × k eigenproblem",
    NYSTROM_CHOLESKY: "it reads only k columns of K and the diagonal, then solves a k × k "
                      "eigenproblem",
    NYSTROM_RPCHOLESKY: "it reads only k columns of K and the diagonal, then solves a k × k "
                        "eigenproblem",
    EKM_GAUSSIAN: "it solves a q × q eigenproblem instead of an m × m one (the q × m sketch "
                  "costs a product with K)",
    EKM_COUNTSKETCH: "it adds each column of K to one bucket (one pass over K) and solves a "
                     "q × q eigenproblem",
}


def _pct(x: float) -> str:
    return f"{100 * x:.2g}%" if x < 0.1 else f"{100 * x:.0f}%"


def _error_column(run: dict) -> str:
    return f"max rel. error, top {run['n_compared']}"


def _best(values: dict) -> str | None:
    """The name with the smallest finite value (the first of ties), or None."""
    finite = {n: v for n, v in values.items() if v is not None and math.isfinite(v)}
    return min(finite, key=finite.get) if finite else None


def verdict(run: dict) -> dict:
    """Which approximation wins here, on the three questions of the page, and why.

    Parameters
    ----------
    run : dict
        :func:`views.spectrum.compare_methods`' run (its ``rows``, ``angles`` and
        ``n_compared``).

    Returns
    -------
    dict
        ``accurate``, ``subspace`` and ``fastest`` (the winning series name, or None when no
        approximation has a number) and ``lines``: plain-text sentences, one per question,
        then one on the exact Lanczos solver, and one per approximation whose subspace is
        badly off (largest angle above :data:`BAD_ANGLE` degrees).
    """
    col, n = _error_column(run), run["n_compared"]
    rows = {r["method"]: r for r in run["rows"]}
    names = [name for name in APPROXIMATIONS if name in rows]
    errors = {name: float(rows[name][col]) for name in names}
    angles = {name: float(run["angles"][name][0]) for name in names if name in run["angles"]}
    times = {name: float(rows[name]["time (s)"]) for name in names}
    accurate, subspace, fastest = _best(errors), _best(angles), _best(times)
    lines = []
    if accurate:
        runner = _best({k: v for k, v in errors.items() if k != accurate})
        lines.append(f"Most accurate on the top {n} eigenvalues: {accurate}, largest relative "
                     f"error {_pct(errors[accurate])}"
                     + (f" (next: {runner}, {_pct(errors[runner])})" if runner else "")
                     + f", because {WHY_ACCURATE[accurate]}.")
    if subspace:
        lines.append(f"Closest to the exact top-{n} subspace: {subspace}, largest angle "
                     f"{angles[subspace]:.1f}°, because {WHY_SUBSPACE[subspace]}.")
    if fastest:
        dense = rows.get("dense eigh (all m)")
        ratio = (f", {times[fastest] / float(dense['time (s)']):.2g} × dense eigh"
                 if dense and float(dense["time (s)"]) > 0 else "")
        lines.append(f"Fastest: {fastest}, {times[fastest]:.2g} s{ratio}, because "
                     f"{WHY_FAST[fastest]}.")
    lanczos = rows.get("eigsh (Lanczos), top n")
    if lanczos and fastest and float(lanczos["time (s)"]) <= times[fastest]:
        lines.append(f"Exact Lanczos (eigsh) took {float(lanczos['time (s)']):.2g} s, no slower "
                     "than any approximation and with no error: with K in memory, approximate "
                     "only when K is too large to form.")
    for name in names:
        a = angles.get(name, math.nan)
        if name != subspace and math.isfinite(a) and a > BAD_ANGLE:
            lines.append(f"{name} is {a:.1f}° off: {WHY_BAD_SUBSPACE[name]}.")
    if accurate and subspace and accurate != subspace:
        lines.append("The two measures disagree: an eigenvalue can be close while its "
                     "eigenvector is not (eigenvalues close together swap and mix their "
                     "directions), so ask the question your task needs.")
    return dict(accurate=accurate, subspace=subspace, fastest=fastest, lines=lines)


def scree_lines(fig: dict, run: dict, *, k: int, q: int) -> list[str]:
    """The scree figure: axes, every series (read from ``fig``) with its λ₁, and where the
    Nyström and EKM curves end."""
    n = run["n_compared"]
    top = run["top"]
    lines = [f"x: the index i of the eigenvalue, largest first (the shaded top {n} are the "
             f"ones compared); y: the eigenvalue λᵢ on a log scale.",
             f"A Nyström curve stops after at most k = {k} eigenvalues (its rank is at most k) "
             f"and never lies above the exact one (the Schur complement K − K̃ is PSD); an EKM "
             f"curve stops after at most q = {q} and can lie on either side."]
    for name in legend_names(fig):
        exact = name == EXACT
        v = run["scree"][EXACT][0] if exact else (top[name][0] if name in top else None)
        at = f" λ₁ = {v:.4g}." if v is not None else ""
        lines.append(f"{name}: {SERIES_MEANING.get(name, 'a curve of this figure.')}{at}")
    lines += glossary_lines("Nyström", "Schur complement", "EKM")
    return lines


#: What the error figure's names mean (matched on their beginnings, longest first).
ERROR_MEANINGS = {
    **SERIES_MEANING,
    EKM_GAUSSIAN + " · observed": "the Gaussian sketch's largest relative error over the top n "
                                  "(solid).",
    EKM_GAUSSIAN + " · Eq. 3 bound": "Marukatat's Eq. 3 for the Gaussian sketch, carried to "
                                     "the eigenvalue scale (dashed): never below its observed "
                                     "error.",
    EKM_COUNTSKETCH + " · observed": "the count sketch's largest relative error over the top n.",
    EKM_COUNTSKETCH + " · Eq. 3 bound": "Eq. 3 for the count sketch, on the eigenvalue scale.",
    EKM_GAUSSIAN + " · |λᵢ² − λ̃ᵢ| observed": "right panel: the error on the squared scale, as "
                                             "Eq. 3 states it (Gaussian sketch).",
    EKM_COUNTSKETCH + " · |λᵢ² − λ̃ᵢ| observed": "right panel: the same for the count sketch.",
    EKM_GAUSSIAN + " · ‖E‖₂": "right panel: the bound ‖E‖₂ of Eq. 3 (Gaussian sketch).",
    EKM_COUNTSKETCH + " · ‖E‖₂": "right panel: ‖E‖₂ for the count sketch.",
    EKM_GAUSSIAN + " · m·max|εᵢⱼ|": "right panel: the looser entrywise bound m·max|εᵢⱼ| ≥ ‖E‖₂.",
    EKM_COUNTSKETCH + " · m·max|εᵢⱼ|": "right panel: the entrywise bound for the count sketch.",
    "100 % (estimate 0)": "the dash-dot line at 1: what an estimate of 0 scores.",
}


def errors_lines(fig: dict, curves: dict, run: dict, *, k: int, q: int) -> list[str]:
    """The error figure: axes, every named trace (read from ``fig``, the ones kept out of the
    legend too), and this run's errors at k and q."""
    from views.spectrum import errors_at

    n = curves["n_compared"]
    now = errors_at(run)
    lines = [f"Left: the largest relative error |λ̃ᵢ − λᵢ| / λᵢ over the top {n} eigenvalues "
             "against the number k of columns (Nyström); middle: against the sketch size q "
             "(EKM). Both axes are logarithmic: lower is better.",
             f"At this run's k = {k}: " + "; ".join(
                 f"{name} {_pct(now[name])}" for name in NYSTROM_SERIES.values() if name in now)
             + f". At q = {q}: " + "; ".join(
                 f"{name} {_pct(now[name])}" for name in EKM_SERIES.values() if name in now)
             + "."]
    lines += figure_lines(fig, ERROR_MEANINGS, hidden=True)
    # the stars are shapes, not traces (a notch of k or q moves them without a new trace)
    if any(s.get("path") == STAR_PATH for s in (fig.get("layout") or {}).get("shapes", ())):
        lines.append("Stars: this run's error at the chosen k and q, in each method's colour "
                     "(the table's numbers).")
    e = run.get("ekm", {}).get(EKM_GAUSSIAN)
    if e:
        lines.append(f"Eq. 3 at q = {q} (Gaussian sketch): observed {e['observed']:.3g} ≤ ‖E‖₂ "
                     f"= {e['spectral']:.3g} ≤ m·max|εᵢⱼ| = {e['entrywise']:.3g}; a large ‖E‖₂ "
                     "only looks alarming: it is on the scale of λ², not λ.")
    lines += glossary_lines("sketch", "count sketch", "‖E‖₂")
    return lines


def angles_lines(fig: dict, run: dict) -> list[str]:
    """The angles figure: one bar per method (its categories read from ``fig``), each with
    its largest principal angle."""
    n = run["n_compared"]
    names = []
    for trace in fig.get("data", []):
        ys = trace.get("y")
        if isinstance(ys, (list, tuple)):
            names += [y for y in ys if isinstance(y, str) and y not in names]
    lines = [f"One bar per method: the largest principal angle between the exact top-{n} "
             "eigenvectors and the method's (x, in degrees). 0° is the same subspace; 90° "
             "misses a direction entirely."]
    for name in names:
        a, r = run["angles"].get(name, (math.nan, 0))
        shown = f"{a:.1f}° over {r} vectors" if np.isfinite(a) else "no vectors to compare"
        lines.append(f"{name}: {shown}.")
    gap = run.get("relative_gap", math.nan)
    if np.isfinite(gap) and gap < 1e-3:
        lines.append(f"The relative gap (λₙ − λₙ₊₁)/λ₁ = {gap:.2g} is tiny: the exact top-{n} "
                     "subspace is itself ill-defined, so large angles are expected.")
    lines += glossary_lines("principal angle")
    return lines
