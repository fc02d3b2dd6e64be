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
import re

import numpy as np

__all__ = ["GLOSSARY", "legend_names", "trace_values", "glossary_lines", "meaning",
           "figure_lines", "axes_lines", "skpca_lines", "bounds_lines", "kcca_lines",
           "kmp_lines", "kmp_curves_lines", "generic_lines"]

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


def as_dict(fig) -> dict:
    """A figure as a dict: a plotly dict as it is, a ``go.Figure`` through its JSON form."""
    return fig.to_plotly_json() if hasattr(fig, "to_plotly_json") else fig


def legend_names(fig: dict, *, hidden: bool = False) -> list[str]:
    """The names of a figure dict's traces, in order, each once: those in its legend (a trace
    without ``showlegend`` is in it) and, with ``hidden``, also the named ones kept out of it
    (markers explained in words rather than in the legend)."""
    names = []
    for trace in as_dict(fig).get("data", []):
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


def meaning(name: str, meanings: dict) -> str | None:
    """The meaning of a trace name: that of the longest key of ``meanings`` it contains."""
    key = max((k for k in meanings if k in name), key=len, default=None)
    return None if key is None else meanings[key]


def figure_lines(fig: dict, meanings: dict, *, hidden: bool = False) -> list[str]:
    """One line per named trace of ``fig``: "name: meaning" (:func:`meaning`; a plain "name:
    a series of this figure" if none fits, so that every trace is at least named)."""
    return [f"{_plain_name(name)}: {meaning(name, meanings) or 'a series of this figure.'}"
            for name in legend_names(fig, hidden=hidden)]


def _plain_name(name: str) -> str:
    """A trace name as plain text: plotly's <sup>x</sup> as ^x, <sub>x</sub> as _x, other
    tags dropped (the explanation is shown literally)."""
    name = re.sub(r"<sup>(.*?)</sup>", r"^(\1)", str(name))
    name = re.sub(r"<sub>(.*?)</sub>", r"_\1", name)
    return re.sub(r"<[^>]+>", "", name)


def _plain(text) -> str:
    """An axis or panel title without its HTML (sub- and superscripts, line breaks)."""
    text = re.sub(r"<br\s*/?>", " ", str(text or ""))
    return re.sub(r"<[^>]+>", "", text).strip()


def axes_lines(fig: dict) -> list[str]:
    """One line naming the titled axes of a figure dict, panel by panel ("x: ..., y: ...")."""
    layout = as_dict(fig).get("layout", {})
    titles = {}
    for key, axis in layout.items():
        found = re.fullmatch(r"([xy])axis(\d*)", key)
        title = axis.get("title") if found and isinstance(axis, dict) else None
        title = title.get("text") if isinstance(title, dict) else title
        if title:
            titles.setdefault(int(found.group(2) or 1), {})[found.group(1)] = _plain(title)
    parts = [", ".join(f"{a} = {t[a]}" for a in "xy" if a in t)
             + (f" (panel {n})" if len(titles) > 1 else "") for n, t in sorted(titles.items())]
    return ["Axes: " + "; ".join(parts) + "."] if parts else []


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
                     "(blue positive, red negative, white 0); the outlined row and column are "
                     "the chosen point's, emptied by the step.")
    else:
        lines.append(f"Deflated-kernel panel: not drawn (m = {m} would send m² numbers per "
                     "frame).")
    lines.append(f"Trace panel: tr K̂, what is left to explain, against the number of chosen "
                 f"points j. Theorem 1: each step lowers it by the chosen quotient; here "
                 f"{_f(before)} − {_f(s.trace_residual)} = {_f(q[s.index])}.")
    for name in legend_names(fig, hidden=True):
        what = meaning(name, SKPCA_CURVES)
        if what is None:
            continue
        try:
            v = trace_values(fig, name)
        except KeyError:
            continue
        at = (f" At j = {j}: {_f(v[min(j, v.size - 1)])}." if name != "current step j"
              and v.size else "")
        lines.append(f"{name}: {what}{at}")
    lines += glossary_lines("Rayleigh quotient", "deflation")
    return lines


# ------------------------------------------------------------------ bounds

#: What each series of the bounds figure is (matched on a part of its name).
BOUNDS_CURVES = {
    "compression bound": "Corollary 1: the mean residual of the m − t points outside the "
                         "compression set plus the price of choosing t of m points; its lowest "
                         "point k* is the number of dimensions it recommends.",
    "KPCA bound": "Theorem 6.14: the eigenvalue tail plus a penalty growing like √(t+1); it "
                  "bounds exact kernel PCA, not the sparse basis.",
    "test residual": "the mean squared distance of held-out points from the span of the first "
                     "k chosen points: what the bounds promise to bound.",
    "training residual": "the same on the training points (always the lower of the two).",
    "Cor. 1 term": "the compression bound's penalty alone at t = k: the price of a larger "
                   "compression set.",
    "Thm 6.14 term": "the KPCA bound's penalty alone at t = k.",
    "trivial level": "R = max κ(x, x): no residual exceeds it, so a bound at or above it says "
                     "nothing.",
    "compression bound minimum": "the marker at the compression bound's lowest point (its "
                                 "k*), labelled with its value.",
    "KPCA bound minimum": "the marker at the KPCA bound's lowest point, labelled with its value.",
    "published": "the k* the paper reports, for comparison.",
}


def bounds_lines(c, fig: dict, *, delta: float) -> list[str]:
    """The bounds figure: its axes, every series (names read from ``fig``) and the minima of
    the run ``c`` (a :class:`mpcore.curves.BoundCurves`)."""
    kc, kk = c.k_star_compression, c.k_star_kpca
    lines = [f"x: the number k of basis vectors (the size of the compression set); y: the mean "
             f"residual, a squared feature-space distance (0 = explained; R = {_f(c.trivial)} "
             "is as bad as it gets).",
             f"Compression bound lowest at k* = {kc} ({_f(c.min_compression)}); KPCA bound "
             f"lowest at k = {kk} ({_f(c.min_kpca)}); the test residual at k* is "
             f"{_f(c.test_residual[kc - 1])}. Each bound holds with probability at least "
             f"{1 - delta:.0%} (δ = {delta:g}).",
             "Why the number of chosen points bounds the error: the model is rebuilt from the "
             "k chosen points alone, so the other m − k points are a test set it never used; "
             "the bound pays only for which k of the m points were chosen."]
    lines += figure_lines(fig, BOUNDS_CURVES, hidden=True)
    lines += glossary_lines("compression set")
    return lines


# ------------------------------------------------------------------ sparse KCCA

#: What each trace of the sparse-KCCA figure is.
KCCA_TRACES = {
    "view X": "panel 1: the points in view X (z on an arc), coloured by the latent z.",
    "view Y": "panel 2: the same points in view Y (z wound twice round a circle), same colours.",
    "chosen pairs": "rings: the chosen pairs, numbered in order, at the same index in both "
                    "views.",
    "canonical projections": "panel 3: each point's projection on view X's canonical direction "
                             "(x) against view Y's (y); on a line when the views agree.",
    "quotient ρᵢ": "panel 4: every candidate's quotient (how alike its two deflated kernel "
                   "columns are, a cosine) against its latent z.",
    "argmax (chosen)": "the star: the candidate the step chose.",
    "ρ (with τ)": "panel 5: the regularised canonical correlation against the number of pairs.",
    "train corr.": "panel 5: the correlation of the projections on the training points.",
    "held-out corr.": "panel 5: the same on held-out points; a gap to the training curve means "
                      "the kept pairs fit noise.",
    "current step": "the marker at the step shown.",
}


def kcca_lines(view: dict, j: int, fig: dict) -> list[str]:
    """The five panels of the sparse-KCCA figure at step ``j``, with that step's numbers."""
    s = view["steps"][j - 1]
    lines = [f"Step {j}: pair {s.index} chosen, quotient {_f(s.quotients[s.index])}; chosen so "
             f"far: {', '.join(str(t.index) for t in view['steps'][:j])}. Regularised ρ = "
             f"{_f(view['rho'][j - 1])}; correlation on the training points "
             f"{_f(view['train'][j - 1])}, held out {_f(view['test'][j - 1])}."]
    lines += axes_lines(fig)
    lines += figure_lines(fig, KCCA_TRACES, hidden=True)
    lines += glossary_lines("deflation")
    return lines


# ------------------------------------------------------------------ KMP

#: What the named traces of the KMP figures are.
KMP_TRACES = {
    "decision value": "the background colour: the model's value f(x) at every place (one "
                      "colour per sign, paler near 0).",
    "boundary": "the black line f(x) = 0: the decision boundary.",
    "class": "training points of that class (filled).",
    ", test": "held-out points of that class (hollow): never used in the fit.",
    "basis points": "rings: the chosen basis points (the compression set), numbered in order.",
    "newest basis point": "the point the step shown added.",
    "KMP fit": "the model's prediction f(x) (regression on one feature).",
    "α K(x, xᵢ)": "the newest basis functions, each a weighted kernel bump; the fit is their "
                  "sum.",
    "constant (bias)": "the constant term of the fit.",
    "training error": "the error on the training points against the number of basis "
                      "functions: it only falls.",
    "test error": "the error on held-out points: where it turns up, more basis functions fit "
                  "noise.",
    "validation error": "the pursuit rerun on 80% of the training points, scored on the other "
                        "20%: what the validation stopping rule watches.",
    "Theorem 3 bound": "Hussain & Shawe-Taylor's Theorem 3: a bound on the test error from the "
                       "number of basis functions k and of training errors t, no validation set "
                       "needed.",
    "what the bound bounds": "the test error in the form Theorem 3 bounds it.",
    "training errors outside the basis": "t/m: the training points outside the basis that the "
                                         "model gets wrong (the t of the bound).",
    "trivial level": "a bound at or above 1 says nothing.",
    "validation stop": "where the validation error is lowest (the k validation stopping keeps).",
    "bound stop": "where the Theorem 3 bound is lowest (stopping without a validation set).",
    "lowest test error": "the best k in hindsight (uses the test set, so not a stopping rule).",
    "basis points / support vectors": "circled: the KMP basis points in a KMP panel, the "
                                      "support vectors in the SVM's: each model's compression "
                                      "set.",
    "training points": "the training data.",
    "fit": "the model's prediction.",
    "SVM": "the support vector machine on the same data and kernel.",
    "support": "the SVM's support vectors (its compression set).",
}

#: What each fitting mode refits after choosing a kernel function.
REFITS = {"basic": "only the new weight (the old ones stay, so a point can be picked again)",
          "backfit": "every weight after each step (back-fitting: orthogonal matching pursuit)",
          "prefit": "every weight for every candidate before choosing it (pre-fitting: the "
                    "best choice, the slowest)"}


def kmp_lines(fig: dict, *, j: int, n_basis: int, fitting: str, loss: str,
              live=()) -> list[str]:
    """The kernel-matching-pursuit figure at step ``j``: what the step did and scored
    (``live``: the page's lines of that step), the axes and every trace (read from ``fig``),
    and what the fitting mode refits."""
    lines = [f"Step {j} of {n_basis}: each step adds one kernel function κ(xᵢ, ·) centred on a "
             f"training point, fitted with the {loss} loss; this fitting ({fitting}) refits "
             f"{REFITS.get(fitting, 'the weights')}."]
    if live:
        lines.append(f"At step {j}: " + "; ".join(str(x) for x in live) + ".")
    lines += axes_lines(fig)
    lines += figure_lines(fig, KMP_TRACES, hidden=True)
    lines += glossary_lines("compression set")
    return lines


def kmp_curves_lines(fig: dict, markers: dict) -> list[str]:
    """The KMP error-curves figure: axes, every trace (read from ``fig``) and where each
    stopping rule stops (``markers``: marker name -> k)."""
    lines = ["Stopping points here: " + "; ".join(f"{name} at k = {k}"
                                                  for name, k in markers.items()) + "."]
    return lines + axes_lines(fig) + figure_lines(fig, KMP_TRACES, hidden=True)


#: Vincent & Bengio's Figure 5: what each loss of the margin m = y f(x) does.
LOSS_CURVES = {
    "AdaBoost": "boosting's exponential loss: never zero, small once the margin is large.",
    "LogitBoost": "the logistic loss: grows linearly for a negative margin.",
    "Doom II": "a bounded margin loss: an outlier costs at most 2.",
    "SVM": "the SVM's hinge loss: zero once the margin passes 1.",
    "squared": "the squared error: it also penalises a large positive margin, a point that is "
               "right with room to spare (the cause of Figure 7).",
    "squared after tanh": "the squared error after tanh with target 0.65: bounded, it behaves "
                          "like a margin loss.",
    "selected": "the loss in use (drawn thick).",
    "time per step": "the wall time of each step of this run.",
}


# ------------------------------------------------------------------ any figure


def generic_lines(fig: dict, meanings: dict | None = None, checks=()) -> list[str]:
    """Any figure: its axes, every named trace (with a meaning when ``meanings`` has one) and
    the published-against-ours numbers of ``checks`` (objects with ``claim``, ``published``
    and ``ours``)."""
    known = {**BOUNDS_CURVES, **KMP_TRACES, **SKPCA_CURVES, **(meanings or {})}
    lines = axes_lines(fig) + figure_lines(fig, known, hidden=True)
    lines += [f"{c.claim}: published {c.published}, here {c.ours}." for c in checks]
    return lines
