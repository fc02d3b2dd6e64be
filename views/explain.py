r""""What am I looking at?": each page's figures explained in plain text, with its numbers.

One function per page, Streamlit-free: it takes what the page computed (its view, and the
figure it draws as a plotly dict) and returns short lines of plain text, one idea each: what
the axes are, what each colour, curve and marker means, and the numbers of the current run.
The names of the curves are read from the figure itself (:func:`legend_names`), so that a
curve added to a figure is never left unexplained (the tests check every name appears).
The jargon a student meets on the pages is explained once, in :data:`GLOSSARY`.
"""

from __future__ import annotations

import base64

import numpy as np

__all__ = ["GLOSSARY", "legend_names", "trace_values", "glossary_lines", "skpca_lines",
           "bounds_lines", "kcca_lines", "kmp_lines", "figure_lines"]

#: Plain-words meaning of the terms the pages use without defining them.
GLOSSARY = {
    "Rayleigh quotient": "ρᵢ = (K̂²)ᵢᵢ / K̂ᵢᵢ: how much of the kernel matrix the direction of point "
                         "i explains (the squared lengths of every point's shadow on it, added "
                         "up). The greedy rule keeps the point with the largest one.",
    "residual diagonal": "K̂ᵢᵢ: the squared length of the part of point i's feature vector that the "
                         "chosen points do not explain yet. 0 means point i is already spanned.",
    "deflation": "removing the chosen direction from every feature vector: K̂ ← K̂ − K̂eᵢeᵢ'K̂ / "
                 "K̂ᵢᵢ. The chosen point and its neighbours lose most of their residual.",
    "Schur complement": "what is left of K after the chosen columns are explained: K − "
                        "K[:,i]K[i,i]⁻¹K[i,:]. It is PSD, so Nyström never overestimates an "
                        "eigenvalue.",
    "Nyström": "an approximation of K from k of its columns: K̃ = K[:,i]K[i,i]⁻¹K[i,:], of rank "
               "at most k. The rule that chooses the columns decides how good it is.",
    "EKM": "the empirical kernel map: point j is described by its column of K (its kernel "
           "values with every training point). Those columns have K's eigenvectors and squared "
           "eigenvalues (Marukatat).",
    "sketch": "a random q × m matrix S that squeezes the m-dimensional EKM vectors to q "
              "dimensions (Z = SK) while roughly keeping their lengths and angles.",
    "count sketch": "a sketch whose columns each have one ±1 in a random row: each point is "
                    "added to one of q buckets with a random sign. One pass over K, cheaper than "
                    "a Gaussian sketch, noisier.",
    "‖E‖₂": "the spectral norm (largest singular value) of E = K² − Z'Z, the error the sketch "
           "makes on K². Eq. 3: no squared eigenvalue moves by more than ‖E‖₂.",
    "compression set": "the few training points the method chose. The model is rebuilt from "
                       "them alone, so the other m − k points act as a fresh test set: the "
                       "fewer points it needs, the tighter the bound (Corollary 1).",
    "principal angle": "the angle between two subspaces along their worst direction: 0° is the "
                       "same subspace, 90° misses a direction entirely.",
    "randomly pivoted Cholesky": "a Nyström rule that draws each column with probability "
                                 "proportional to the residual diagonal (Chen, Epperly, Tropp & "
                                 "Webber): unexplained points are likely picks, but no single "
                                 "outlier takes every pick.",
}


def glossary_lines(*terms: str) -> list[str]:
    """The glossary entries of ``terms``, one line each ("term: meaning")."""
    return [f"{t}: {GLOSSARY[t]}" for t in terms]


def legend_names(fig: dict, *, hidden: bool = False) -> list[str]:
    """The names of a figure dict's traces, in order, each once: those in its legend (a trace
    without ``showlegend`` is in it) and, with ``hidden``, also the named ones kept out of it
    (markers explained in words rather than in the legend)."""
    names = []
    for trace in fig.get("data", []):
        name = trace.get("name")
        if not name or name in names:
            continue
        if hidden or trace.get("showlegend", True) is not False:
            names.append(name)
    return names


def trace_values(fig: dict, name: str, key: str = "y") -> np.ndarray:
    """The ``key`` values of the first trace called ``name`` in a figure dict, as floats,
    whether plain lists or plotly.js typed arrays ({"dtype", "bdata"})."""
    for trace in fig.get("data", []):
        if trace.get("name") == name:
            v = trace.get(key)
            if isinstance(v, dict) and "bdata" in v:
                a = np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"]).astype(float)
                return a.reshape(v["shape"]) if "shape" in v and isinstance(v["shape"], (list, tuple)) else a
            return np.asarray([np.nan if x is None else x for x in (v if v is not None else [])],
                              dtype=float)
    raise KeyError(f"The figure has no trace named {name!r}.")


def figure_lines(fig: dict, meanings: dict, *, hidden: bool = False) -> list[str]:
    """One line per named trace of ``fig``: "name: meaning", the meaning looked up by the
    longest key of ``meanings`` the name starts with (a plain "name: a curve of this
    figure" if none does, so that every trace is at least named)."""
    lines = []
    for name in legend_names(fig, hidden=hidden):
        key = max((k for k in meanings if name.startswith(k)), key=len, default=None)
        lines.append(f"{name}: {meanings[key] if key is not None else 'a curve of this figure.'}")
    return lines


def _f(x) -> str:
    return f"{float(x):.3g}"


# ------------------------------------------------------------------ sparse KPCA


#: What each curve of the sparse-KPCA trace panel is.
SKPCA_CURVES = {
    "sparse KPCA": "the greedy rule of Algorithm 1 (largest Rayleigh quotient); solid blue.",
    "exact KPCA": "the best any j directions can do: the sum of the eigenvalues after the "
                  "j-th (the optimum; no sparse method goes below it).",
    "incomplete Cholesky": "pivots on the largest residual diagonal, the point least explained "
                           "so far; an outlier is often that point.",
    "randomly pivoted Cholesky": "draws each pivot with probability proportional to the residual "
                                 "diagonal (one seeded draw).",
    "uniform sampling": "Nyström on points drawn uniformly at random, blind to what is already "
                        "explained (one seeded draw).",
    "current step j": "the red dot: the trace left after the step shown.",
}


def skpca_lines(steps, j: int, fig: dict, *, m: int) -> list[str]:
    """What the four panels of the sparse-KPCA figure show at step ``j`` (1-based), with that
    step's numbers; ``fig`` is the animated figure (the curves' names and values are read from
    it)."""
    heat_shown = any(t.get("type") == "heatmap" for t in fig.get("data", []))
    s = steps[j - 1]
    q = np.asarray(s.quotients, dtype=float)
    d = np.asarray(s.residual_diag, dtype=float)
    before = float(s.trace_residual + q[s.index])
    chosen = [t.index for t in steps[:j]]
    top = int(np.nanargmax(d))
    lines = [
        f"Data panel, colour: each point's residual diagonal K̂ᵢᵢ after step {j} (dark = already "
        f"explained, bright = left to explain; the largest left is {_f(d[top])} at i = {top}). "
        f"Rings number the {j} chosen points in order: {', '.join(map(str, chosen))}. The chosen "
        "point and its neighbours go dark because deflation removes the chosen direction from "
        "every point, most from those close to it in feature space.",
        f"Quotient panel: each candidate's Rayleigh quotient ρᵢ divided by the largest (x: "
        f"training index i, y: ρᵢ ÷ max). The star is the greedy choice of step {j}: i = "
        f"{s.index}, ρ = {_f(q[s.index])}.",
    ]
    if heat_shown:
        lines.append("Deflated-kernel panel: the matrix K̂ after the step on the shown points "
                     "(red positive, blue negative, white 0); the outlined row and column are "
                     "the chosen point's, emptied by the step.")
    else:
        lines.append(f"Deflated-kernel panel: not drawn (m = {m} would send m² numbers per "
                     "frame).")
    lines.append(f"Trace panel: tr K̂, what is left to explain, against the number of chosen "
                 f"points j. Theorem 1: each step lowers it by the chosen quotient; here "
                 f"{_f(before)} − {_f(s.trace_residual)} = {_f(q[s.index])}.")
    for name in legend_names(fig, hidden=True):
        if name not in SKPCA_CURVES:
            continue
        try:
            v = trace_values(fig, name)
        except KeyError:
            continue
        at = (f" At j = {j}: {_f(v[min(j, v.size - 1)])}." if name != "current step j"
              and v.size else "")
        lines.append(f"{name}: {SKPCA_CURVES[name]}{at}")
    lines += glossary_lines("Rayleigh quotient", "deflation")
    return lines


# ------------------------------------------------------------------ bounds

#: What each curve of the bounds figure is.
BOUNDS_CURVES = {
    "compression bound": "Corollary 1: the mean residual of the points outside the compression "
                         "set plus the price of choosing t of m points; its lowest point is k*.",
    "KPCA bound": "Theorem 6.14: the eigenvalue tail plus a penalty growing like √(t+1); it "
                  "bounds exact kernel PCA.",
    "test residual": "the mean squared distance of held-out points from the span of the first "
                     "k chosen points (what the bounds promise to bound).",
    "train residual": "the same on the training points.",
    "trivial": "R, the largest κ(x, x): a bound at or above it says nothing.",
}


def bounds_lines(c, fig: dict, *, delta: float) -> list[str]:
    """The bounds figure: its axes, every curve (names read from ``fig``) and the minima of
    the run ``c`` (a :class:`mpcore.curves.BoundCurves`)."""
    kc, kk = c.k_star_compression, c.k_star_kpca
    lines = [f"x: the number k of basis vectors (chosen points); y: residual, a squared "
             f"feature-space distance (0 = explained, R = {_f(c.trivial)} = as bad as it gets).",
             f"Compression bound lowest at k* = {kc} ({_f(c.min_compression)}); KPCA bound "
             f"lowest at k = {kk} ({_f(c.min_kpca)}); the test residual at k* is "
             f"{_f(c.test_residual[kc - 1])}. Each holds with probability at least "
             f"{1 - delta:.0%} (δ = {delta:g})."]
    lines += figure_lines(fig, BOUNDS_CURVES, hidden=True)
    lines += glossary_lines("compression set")
    return lines


# ------------------------------------------------------------------ sparse KCCA


def kcca_lines(view: dict, j: int, fig: dict) -> list[str]:
    """The five panels of the sparse-KCCA figure at step ``j``, with that step's numbers."""
    s = view["steps"][j - 1]
    lines = [
        "View X and view Y panels: the same points in two views of one latent variable z; the "
        "colour is z (the same colour in both views is the same point). Rings: the chosen pairs, "
        f"numbered in order ({', '.join(str(t.index) for t in view['steps'][:j])}).",
        "Projections panel: each point's projection on the canonical direction of view X "
        "against view Y; on a line when the two views agree.",
        f"Quotients panel: for every candidate pair, how alike its two deflated kernel columns "
        f"are (a cosine). The chosen pair of step {j} is {s.index}, quotient "
        f"{_f(s.quotients[s.index])}.",
        f"Correlation panel: the canonical correlation against the number of pairs, on the "
        f"training points ({_f(view['train'][j - 1])} at step {j}) and held out "
        f"({_f(view['test'][j - 1])}); a gap means the kept pairs fit noise.",
    ]
    lines += figure_lines(fig, {}, hidden=False) if legend_names(fig) else []
    lines += glossary_lines("deflation")
    return lines


# ------------------------------------------------------------------ KMP


#: What the named traces of the KMP figures are.
KMP_TRACES = {
    "train": "training points, coloured by class or target.",
    "test": "held-out points.",
    "basis": "the chosen basis points (the compression set), numbered in order.",
    "chosen": "the point the step chose.",
    "decision": "the decision surface f(x): colour is the model's value, the black line f = 0.",
    "SVM": "the support vector machine fitted on the same data, for comparison.",
    "support": "the SVM's support vectors.",
    "train error": "error on the training points against the number of basis functions.",
    "test error": "error on held-out points: where it turns up, more basis functions fit noise.",
    "validation": "error on the validation part (the stopping rule's choice).",
    "bound": "Theorem 3's bound on the test error (no validation set needed).",
}


def kmp_lines(fig: dict, *, j: int, n_basis: int, fitting: str, loss: str,
              chosen=(), scores=None) -> list[str]:
    """The kernel-matching-pursuit figure at step ``j``: axes, the traces it draws (names read
    from ``fig``), what the fitting mode refits, and the step's train and test scores."""
    refit = {"basic": "only the new weight (the old ones stay: a point can be picked again)",
             "backfitting": "every weight after each step (orthogonal matching pursuit)",
             "prefitting": "every weight for every candidate before choosing it (slowest, best "
                           "choice)"}
    lines = [f"Step {j} of {n_basis}: each step adds one kernel function κ(xᵢ, ·) centred on a "
             f"training point, fitted with the {loss} loss; {fitting} fitting refits "
             f"{refit.get(fitting, 'the weights')}."]
    if len(chosen):
        lines.append("Basis points so far (training indices, −1 = constant): "
                     + ", ".join(str(int(i)) for i in list(chosen)[:j]) + ".")
    if scores is not None:
        a, b = scores
        lines.append(f"At this step: training score {_f(a)}, test score {_f(b)}.")
    lines += figure_lines(fig, KMP_TRACES, hidden=False)
    lines += glossary_lines("compression set")
    return lines
