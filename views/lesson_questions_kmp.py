r"""The lesson questions of the kernel-matching-pursuit page, answered by the fits themselves.

Each question computes its right answer in the beat's :class:`~views.lesson_scene_kmp.KMPScene`
(the page's own fits, Vincent & Bengio (2002), Figures 1-7 and Eqs. 6-7; the Theorem 3
bound of Hussain & Shawe-Taylor (2008), :func:`mpcore.bounds.kmp_bound`) and scores only
the student's choice, with feedback quoting the numbers. Registered in
:data:`views.lesson_questions.QUESTIONS` when that module loads. No Streamlit here.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from mpcore.bounds import kmp_bound

from . import data as _data
from .lesson_question import Asked, Feedback, Question
from .lesson_scene import data_choice
from .lesson_scene_kmp import FITTING_NAMES, FITTINGS, KMPScene

__all__ = ["KMP_QUESTIONS", "residue_correlations", "bound_curve", "first_repeat"]


def _g(x: float) -> str:
    return f"{x:.3g}"


def _other(options, right):
    return next(o for o in options if o != right)


def _task_of(values: Mapping) -> str:
    return _data.load(data_choice(values)).task


def _needs_regression(values: Mapping) -> str | None:
    if _task_of(values) != "regression":
        return "it measures the squared residue of a regression: choose a regression data set"
    return None


# ---------------------------------------------------------------- the three fittings


def _fit_errors(scene: KMPScene) -> dict[str, float]:
    t = scene.j
    return {FITTING_NAMES[f]: scene.train_error(t, fitting=f) for f in FITTINGS}


def _best_fitting_right(scene):
    errs = _fit_errors(scene)
    return min(errs, key=errs.get)


def _best_fitting_check(scene, answer):
    errs = _fit_errors(scene)
    best = min(errs.values())
    t = scene.j
    nums = ", ".join(f"{n} {_g(e)}" for n, e in errs.items())
    short = [f"{FITTING_NAMES[f]} stopped after {len(scene.basis(fitting=f))}"
             for f in FITTINGS if len(scene.basis(fitting=f)) < t]
    if short:
        nums += (" (" + "; ".join(short) + " steps: every bump left was, to rounding, a "
                 "combination of the chosen ones)")
    why = (f"Training mean squared error after {t} steps: {nums}. Basic matching pursuit only "
           "sets the new weight and never revisits the old ones; back-fitting refits every "
           "weight by least squares after each choice (Eq. 6), and pre-fitting also chooses "
           "the function that is best given that refit (Eq. 7).")
    if answer in errs and errs[answer] <= best * (1 + 1e-6) + 1e-12:
        return Feedback(True, "Right. " + why)
    return Feedback(False, f"Here {_best_fitting_right(scene)} is lowest. " + why)


def first_repeat(basis) -> tuple[int, int] | None:
    """(step, index) of the first step that picks a training point chosen before, or None."""
    seen = set()
    for n, i in enumerate(np.asarray(basis, dtype=int), 1):
        if i >= 0 and i in seen:
            return n, int(i)
        seen.add(int(i))
    return None


REPEAT_OPTIONS = ("Yes: it picks a point it has already chosen",
                  "No: every step brings a new point")


def _repeat_right(scene):
    return REPEAT_OPTIONS[0] if first_repeat(scene.basis(fitting="basic")[: scene.k]) \
        else REPEAT_OPTIONS[1]


def _repeat_check(scene, answer):
    b = scene.basis(fitting="basic")[: scene.k]
    rep = first_repeat(b)
    distinct = int(np.unique(b[b >= 0]).size)
    right = _repeat_right(scene)
    if rep:
        n, i = rep
        text = (f"Basic KMP takes x_{i} again at step {n}; its {len(b)} steps use only "
                f"{distinct} distinct points. Its weights are set once and never refitted, so "
                f"the steps after x_{i}'s, along overlapping functions, put a part along "
                f"K(·, x_{i}) back into the residue, and correcting it became the best single "
                "move. "
                "Back-fitting refits all weights, which leaves the residue orthogonal to every "
                "chosen function: it never picks one twice.")
    else:
        text = (f"Here basic KMP's {len(b)} steps all pick different points ({distinct}). It "
                "could repeat one: its old weights are never refitted, so the residue may keep a "
                "part along a chosen function.")
    return Feedback(answer == right, ("Right. " if answer == right else "Not here. ") + text)


def residue_correlations(scene: KMPScene, fitting: str, t: int) -> np.ndarray:
    r"""|cos| of the angle between the training residue y - f_t and each chosen basis function
    :math:`K(\cdot, x_{\gamma_n})` (on the training points) after t steps of ``fitting``."""
    from mpcore.kernels import kernel_matrix

    basis = scene.basis(fitting=fitting)[:t]
    f = scene.train_predictions(fitting=fitting)[max(1, min(t, len(basis))) - 1]
    r = scene.y - f
    idx = basis[basis >= 0]
    D = kernel_matrix(scene.X, scene.X[idx], **scene.kern.params())
    cols = [D[:, n] for n in range(D.shape[1])]
    if np.any(basis < 0):
        cols.append(np.ones(scene.m))
    out = [abs(float(r @ c)) / (np.linalg.norm(r) * np.linalg.norm(c) + 1e-300) for c in cols]
    return np.asarray(out)


ORTHO_OPTIONS = ("0 for every chosen function",
                 "Largest for the most recent function, smaller for older ones",
                 "About the same as for the functions not chosen")


def _ortho_check(scene, answer):
    t = scene.j
    back = residue_correlations(scene, "backfit", t)
    basic = residue_correlations(scene, "basic", t)
    text = (f"After {t} steps the largest |cos| between the training residue and a chosen "
            f"function is {back.max():.1e} for back-fitting and {_g(basic.max())} for basic KMP. "
            "Back-fitting solves least squares over the chosen functions (Eq. 6), and a "
            "least-squares residue is orthogonal to everything it was fitted on: that is "
            "orthogonal matching pursuit. Basic KMP leaves parts along old functions.")
    if answer == ORTHO_OPTIONS[0]:
        return Feedback(True, "Right. " + text)
    return Feedback(False, "No: it is 0 for every chosen function. " + text)


# ---------------------------------------------------------------- losses and the SVM


def _rows(scene, mode):
    return {r["method"]: r for r in scene.comparison(mode)["rows"]}


def _loss_options(scene):
    return tuple(r for r in _rows(scene, "losses") if not r.startswith("SVM"))


def _loss_right(scene):
    rows = _rows(scene, "losses")
    opts = _loss_options(scene)
    return max(opts, key=lambda o: rows[o]["test"])


def _loss_check(scene, answer):
    rows = _rows(scene, "losses")
    right = _loss_right(scene)
    nums = "; ".join(f"{n}: test accuracy {r['test']:.0%}" for n, r in rows.items())
    _, far, sq, _ = _far_facts(scene)
    opts = _loss_options(scene)
    if rows[opts[1]]["test"] > rows[opts[0]]["test"]:
        why = (f"The squared loss (1 − y·f)² punishes points for being right by too much (the "
               f"largest margin under KMP-mse is {far:.3g}, loss {sq:.3g}), so the fit tilts its "
               "boundary toward them and misclassifies near points; after tanh the loss "
               "flattens for large margins, and those points stop pulling.")
    else:
        why = (f"Here no point lies far on its right side (the largest margin under KMP-mse is "
               f"{far:.3g}, loss {sq:.3g}), so the squared loss has nothing to be pulled by and "
               "does as well: robustness matters when there are such points.")
    text = f"{nums}. {why}"
    tie = np.isclose(rows[answer]["test"], rows[right]["test"]) if answer in rows else False
    return Feedback(bool(tie), ("Right. " if tie else f"No: {right} does better. ") + text)


def _needs_classification(values: Mapping) -> str | None:
    if _task_of(values) != "classification":
        return "it compares classifiers' margins: choose a classification data set"
    return None


def _margins(scene, loss: str) -> np.ndarray:
    """y·f(x) of every training point (y = ±1) under the Figure 7 fit with ``loss``."""
    from mpcore.kmp import staged_values

    fitting = "prefit" if loss == "squared" else "backfit"
    model = scene.fit(fitting=fitting, loss=loss)
    f = np.asarray(staged_values(model, scene.X, None))[-1]
    return np.where(scene.y == np.unique(scene.y)[1], 1.0, -1.0) * f


def _far_facts(scene):
    m = _margins(scene, "squared")
    i = int(np.argmax(m))
    far = float(m[i])
    return i, far, (1 - far) ** 2, (0.65 - np.tanh(far)) ** 2


def _far_ask(scene):
    i, far, _, _ = _far_facts(scene)
    return Asked(f"Under KMP-mse, training point x_{i} is classified correctly with the largest "
                 f"margin, y·f = {far:.3f}. Type its squared loss (1 − y·f)².")


def _far_check(scene, answer):
    i, far, sq, th = _far_facts(scene)
    x = _number(answer)
    twin = 2 - far  # the margin on the other side of 1 with the same squared loss
    where = "on the wrong side of the boundary" if twin < 0 else "close to the boundary"
    text = (f"(1 − {far:.3f})² = {sq:.3g}: the same loss as a point at margin {twin:.3f}, "
            f"{where}. The squared loss penalises being right by too much, so such points pull "
            f"f toward 1 and the boundary toward themselves. After tanh, (0.65 − tanh "
            f"{far:.3f})² = {th:.2g}: a confident right answer costs little, and its gradient "
            "is nearly 0 (tanh is flat there).")
    if x is not None and abs(x - sq) <= 0.05 * sq + 0.01:
        return Feedback(True, "Right. " + text)
    return Feedback(False, f"You typed {answer!s:.20}. " + text)


def _number(answer) -> float | None:
    try:
        x = float(answer)
    except (TypeError, ValueError, OverflowError):
        return None
    return x if np.isfinite(x) else None


SHARE_OPTIONS = ("Fewer than a third of them", "A third to two thirds",
                 "More than two thirds")


def _overlap(scene):
    cmp = scene.comparison("fittings")
    support = set(int(i) for i in np.asarray(cmp["svm"]["support"]))
    model = cmp["models"]["pre-fitting"]
    from mpcore.kmp import pursuit

    b = np.asarray(pursuit(model, None).basis_indices_)
    pts = set(int(i) for i in b[b >= 0])
    return len(pts & support), len(pts), len(support)


def _share_right(scene):
    both, n, _ = _overlap(scene)
    share = both / max(n, 1)
    return SHARE_OPTIONS[0] if share < 1 / 3 else SHARE_OPTIONS[1] if share <= 2 / 3 \
        else SHARE_OPTIONS[2]


def _share_check(scene, answer):
    both, n, ns = _overlap(scene)
    right = _share_right(scene)
    text = (f"{both} of pre-fitting's {n} basis points are among the SVM's {ns} support vectors. "
            "The SVM keeps the points on or inside its margin, near the boundary; KMP keeps "
            "the points whose kernel function best explains what is left of the target, often "
            "in the middle of a class (Figure 6).")
    return Feedback(answer == right, ("Right. " if answer == right else "No. ") + text)


# ---------------------------------------------------------------- the bound and stopping


def bound_curve(scene: KMPScene) -> np.ndarray:
    """Theorem 3 after k = 1..N steps, from :func:`mpcore.bounds.kmp_bound` with each step's
    t (training points outside the basis with error above α) and m."""
    path = scene.curves.paths[0]
    return np.array([kmp_bound(scene.curves.m, k, int(t))
                     for k, t in enumerate(path.n_errors, 1)])


def _bound_k(scene) -> int:
    return int(np.argmin(bound_curve(scene))) + 1


def _bound_check(scene, answer):
    try:
        k = int(answer)
    except (TypeError, ValueError, OverflowError):
        return Feedback(False, f"{answer!s:.20} is not a number of steps.")
    b = bound_curve(scene)
    best = _bound_k(scene)
    n = len(b)
    if not 1 <= k <= n:
        return Feedback(False, f"k runs from 1 to {n} here.")
    t = scene.curves.paths[0].n_errors
    alpha = scene.curves.alpha
    errs = ("misclassified training points" if alpha is None else
            f"training points with |f(x) − y| > α = {alpha:.3g}")
    text = (f"The bound is lowest at k = {best}: {_g(b[best - 1])} (t = {int(t[best - 1])} "
            f"{errs}); at your k = {k} it is {_g(b[k - 1])} (t = {int(t[k - 1])}). Each basis "
            "function adds to the (k + 1) and k terms; each training error adds to the t term. "
            "Early on a step removes many errors, later it removes few and only costs.")
    if abs(k - best) <= 1 or b[k - 1] <= 1.02 * b[best - 1]:
        return Feedback(True, "Right. " + text)
    return Feedback(False, text)


MORE_OPTIONS = ("Yes: up to N it keeps falling, or stays within 2% of its lowest",
                "No: past some k it rises again, more than 2% above its lowest")


def _more_facts(scene):
    e = np.asarray(scene.curves.test_error)
    k = int(np.argmin(e)) + 1
    return e, k


def _more_right(scene):
    e, k = _more_facts(scene)
    return MORE_OPTIONS[1] if e[-1] > e[k - 1] * 1.02 else MORE_OPTIONS[0]


def _more_check(scene, answer):
    e, k = _more_facts(scene)
    tr = np.asarray(scene.curves.train_error)
    right = _more_right(scene)
    what = ("misclassification rate" if scene.task == "classification"
            else "mean squared error")
    text = (f"Test {what}: {_g(e[0])} at k = 1, lowest {_g(e[k - 1])} at k = {k}, {_g(e[-1])} "
            f"at k = {len(e)}; the training {what} meanwhile falls from {_g(tr[0])} to "
            f"{_g(tr[-1])}. ")
    if right == MORE_OPTIONS[1]:
        text += ("Later basis functions fit the noise of the training points: the training "
                 "error keeps falling, the test error does not.")
    else:
        text += (f"Up to N = {len(e)} the test error is still near its lowest: these steps have "
                 "not yet reached the point where new functions only fit noise.")
    return Feedback(answer == right, ("Right. " if answer == right else "No. ") + text)


STOP_OPTIONS = ("The Theorem 3 bound's minimum", "The validation error's minimum")


def _stop_facts(scene):
    st = scene.stops
    e = np.asarray(scene.curves.test_error)
    return st["bound"], st["validation"], st["test"], e


def _stop_right(scene):
    kb, kv, _, e = _stop_facts(scene)
    return STOP_OPTIONS[0] if e[kb - 1] <= e[kv - 1] else STOP_OPTIONS[1]


def _stop_check(scene, answer):
    kb, kv, kt, e = _stop_facts(scene)
    right = _stop_right(scene)
    text = (f"Bound stop k = {kb} (test error {_g(e[kb - 1])}), validation stop k = {kv} (test "
            f"error {_g(e[kv - 1])}); the lowest test error is {_g(e[kt - 1])} at k = {kt}. The "
            "validation stop fits on 80% of the points and scores on the other 20%, a noisy "
            f"estimate; the bound uses all {scene.m} points and needs no hold-out, but it is "
            "a worst case" + (", and here it stops earlier." if kb < kv else
                              ", and here it stops later." if kb > kv else "."))
    return Feedback(answer == right, ("Right. " if answer == right else "Not here. ") + text)


# ---------------------------------------------------------------- the registry

KMP_QUESTIONS: dict[str, Question] = {q.name: q for q in (
    Question("kmp.best_fitting", "kmp", "option",
             "Which fitting (basic, back-fitting, pre-fitting) has the lowest training mean "
             "squared error after the beat's j steps (all three fitted).",
             lambda s: Asked(f"After {s.j} steps, which fitting has the lowest training error?",
                             options=tuple(FITTING_NAMES.values())),
             _best_fitting_check, _best_fitting_right,
             lambda s: max(_fit_errors(s), key=_fit_errors(s).get), _needs_regression),
    Question("kmp.basic_repeats", "kmp", "option",
             "Does basic KMP pick a training point twice within the beat's N steps (from its "
             "basis_indices_)?",
             lambda s: Asked(f"In N = {s.k} steps, will basic KMP pick a point it already chose?",
                             options=REPEAT_OPTIONS),
             _repeat_check, _repeat_right, lambda s: _other(REPEAT_OPTIONS, _repeat_right(s))),
    Question("kmp.backfit_orthogonal", "kmp", "option",
             "After back-fitting's j steps, the residue's correlation with each chosen function "
             "(0: least squares leaves it orthogonal; compared with basic KMP).",
             lambda s: Asked(f"After {s.j} steps of back-fitting, what is the correlation between "
                             "the training residue y − f and each chosen function K(·, x_γn)?",
                             options=ORTHO_OPTIONS),
             _ortho_check, lambda s: ORTHO_OPTIONS[0], lambda s: ORTHO_OPTIONS[1],
             _needs_regression),
    Question("kmp.loss_winner", "kmp", "option",
             "Figure 7: which KMP has the higher test accuracy, the squared loss or the squared "
             "loss after tanh.",
             lambda s: Asked("Which KMP classifies the test points better?",
                             options=_loss_options(s)),
             _loss_check, _loss_right,
             lambda s: min(_loss_options(s), key=lambda o: _rows(s, "losses")[o]["test"]),
             _needs_classification),
    Question("kmp.far_point_loss", "kmp", "number",
             "The squared loss (1 − y·f)² of the training point KMP-mse classifies right with "
             "the largest margin; right within 5%; the feedback gives the tanh loss too.",
             _far_ask, _far_check, lambda s: _far_facts(s)[2],
             lambda s: _far_facts(s)[2] * 0.5 - 1.0, _needs_classification),
    Question("kmp.support_overlap", "kmp", "option",
             "Figure 6: what share of pre-fitting's basis points are SVM support vectors "
             "(under a third, a third to two thirds, over two thirds).",
             lambda s: Asked("How many of pre-fitting's basis points are also support vectors "
                             "of the SVM?", options=SHARE_OPTIONS),
             _share_check, _share_right, lambda s: _other(SHARE_OPTIONS, _share_right(s)),
             _needs_classification),
    Question("kmp.bound_argmin", "kmp", "k",
             "The k where the Theorem 3 bound (mpcore.bounds.kmp_bound over the run) is lowest; "
             "right within 1 step or 2% of the minimum.",
             lambda s: Asked(f"Where is the Theorem 3 bound lowest (k from 1 to "
                             f"{len(bound_curve(s))})?", lo=1, hi=len(bound_curve(s))),
             _bound_check, _bound_k,
             lambda s: len(bound_curve(s)) if _bound_k(s) < len(bound_curve(s)) - 3 else 1),
    Question("kmp.more_basis_better", "kmp", "option",
             "Does the test error keep falling as basis functions are added (last k against the "
             "lowest)?",
             lambda s: Asked(f"Adding basis functions up to N = {s.k}: does the test error keep "
                             "falling?", options=MORE_OPTIONS),
             _more_check, _more_right, lambda s: _other(MORE_OPTIONS, _more_right(s))),
    Question("kmp.stop_rule", "kmp", "option",
             "Which stop has the lower test error: the bound's minimum or the validation "
             "error's minimum.",
             lambda s: Asked("Which stopping rule keeps the model with the lower test error?",
                             options=STOP_OPTIONS),
             _stop_check, _stop_right, lambda s: _other(STOP_OPTIONS, _stop_right(s))),
)}

