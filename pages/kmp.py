"""Kernel matching pursuit: greedy sparse fits step by step, against an SVM, with their bound."""

import textwrap

import numpy as np
import pandas as pd
import streamlit as st

from mpcore._losses import loss_functions
from mpcore.kmp import has_width
from mpcore.plots import (
    BOUND_STOP,
    TEST_ERR,
    TEST_MIN,
    TRAIN_ERR,
    VAL_ERR,
    VAL_STOP,
    kmp_curves_figure,
    kmp_present_layout,
    margin_loss_figure,
    step_time_figure,
)
import pages.common  # noqa: F401  (first, for its legacy-mode guard)
from pages.common.hall_follow import hall_follow
from pages.common.cached import kmp as cached
from pages.common.charts import plotly_chart
from pages.common.explain import explain_box
from pages.common.fit import LABEL_TABLE_KEY
from pages.common.schemas import ALL, FITTING, KMP, KMP_TABS, LOSS
from pages.common.share import (
    active_preset,
    data_snippet,
    kernel_kwargs,
    page_footer,
    preset_links,
    split_snippet,
)
from pages.common.quiz import Reveal, guess_from_selection, quiz_box, quiz_place
from pages.common.text import literal, markdown_table
from pages.common.figure_frames import open_at
from pages.common.offline import offline_download
from pages.common.phone import is_narrow, phone_grid, phone_panel
from pages.common.presentation import (
    equations,
    fit_to_window,
    presentation_toggle,
    sidebar_keys,
    speed_control,
)
from pages.common.step_buttons import step_buttons
from pages.common.timeline import chart_key, figure_step, timeline
from pages.common.widgets import (
    current,
    data_or_stop,
    draw,
    kernel_choice,
    show_notes,
    sync,
)
from views import explain
from views.kmp import path_of
from views.kmp_quiz import reveal_lines
from views.reference import confusion_by_class, scores

TABS = KMP_TABS
EQUATIONS = {
    "basic": (r"\gamma_n=\arg\max_k\frac{|\langle d_k,R_{n-1}\rangle|}{\|d_k\|},\quad "
              r"\alpha_n=\frac{\langle d_{\gamma_n},R_{n-1}\rangle}{\|d_{\gamma_n}\|^2}",
              "Basic matching pursuit (Fig. 1, Eqs. 3-5): only the new weight is set; earlier "
              "weights never change, so it may choose a point again."),
    "backfit": (r"\alpha_{1..n}=\arg\min_{\alpha}\Big\|\sum_{k\le n}\alpha_k d_{\gamma_k}-y\Big\|^2",
                "Back-fitting (Eq. 6, orthogonal matching pursuit): the same choice, then every "
                "weight is refitted by least squares (a Cholesky factor grows by one row)."),
    "prefit": (r"\gamma_n=\arg\max_k\frac{|\langle P^{\perp}_{\mathcal B}d_k,R\rangle|}"
               r"{\|P^{\perp}_{\mathcal B}d_k\|}",
               "Pre-fitting (Fig. 3, Eq. 7): choose the column whose part orthogonal to the "
               "chosen ones best explains the residue: the best choice given back-fitting."),
}
#: Non-squared loss (Fig. 4): the residue is the negative gradient (Eq. 8), the weight a line
#: search (Eq. 10).
LOSS_EQUATION = (r"R=-\frac{\partial L(y,f)}{\partial f},\quad \alpha_n=\arg\min_\alpha"
                 r"\sum_i L\big(y_i,f_{n-1}(x_i)+\alpha\,d_{\gamma_n}(x_i)\big)")


def present_equations(fitting: str, loss: str) -> list:
    """The equations beside the figure in presentation mode, ``(heading, LaTeX)`` as
    :func:`pages.common.presentation.equations` takes them: a pair joined by a
    ``quad`` space one under the other (the column beside the figure is narrow)."""
    rows = []
    for heading, tex in ((FITTING[fitting], EQUATIONS[fitting][0]),
                         *([("Non-squared loss (Fig. 4, Eqs. 8, 10)", LOSS_EQUATION)]
                           if loss != "squared" else [])):
        for i, part in enumerate(tex.split(r",\quad ")):
            rows.append((heading if i == 0 else "", part))
    return rows


#: Paper settings. Sliders whose range depends on the data are re-applied on the next run.
PRESETS = {
    "Figure 6: fittings vs SVM": dict(dataset="moons", noise=0.2, kernel="rbf", sigma=0.5,
                                      **{"kmp.tab": TABS[1], "kmp.compare": "fittings",
                                         "kmp.svm_n": True, "kmp.basic_n": 100, "kmp.C": 1000.0,
                                         "kmp.dict": "single", "kmp.loss": "squared"}),
    "Figure 7: squared vs tanh loss": dict(dataset="far_cluster", kernel="linear", std=True,
                                           k=3, **{"kmp.tab": TABS[1], "kmp.compare": "losses",
                                                   "kmp.svm_n": False, "kmp.C": 100.0,
                                                   "kmp.dict": "single"}),
    "Figure 2: bound on Boston": dict(dataset="boston", kernel="rbf", sigma=2.0, test=0.1, k=50,
                                      **{"kmp.tab": TABS[2], "kmp.feature": ALL,
                                         "kmp.scale": 5.0, "kmp.fitting": "prefit",
                                         "kmp.dict": "single"}),
    "1-D: Boston MEDV against LSTAT": dict(dataset="boston", kernel="rbf", sigma=0.3, k=10,
                                           **{"kmp.tab": TABS[0], "kmp.feature": "LSTAT",
                                              "kmp.dict": "single"}),
    "Sigmoid kernel (not PSD)": dict(dataset="moons", kernel="sigmoid", gamma=1.0, coef0=0.0,
                                     k=20, **{"kmp.tab": TABS[0], "kmp.dict": "single"}),
    "Mixed dictionary: three widths": dict(dataset="moons", kernel="rbf", sigma=0.5, k=20,
                                           **{"kmp.tab": TABS[0], "kmp.dict": "widths"}),
}

#: The most classes, and characters in a row, of a confusion matrix shown whole beside the
#: figure: its column, 189 px at 1280, holds blobs' (three one-digit classes, two-digit
#: counts: "true" and three columns of two characters, 189 px), not classes 100 to 300 (219
#: px) nor digits' ten (477 px). A wider matrix is summed up under the figure, a class a row.
MATRIX_CLASSES = 3
MATRIX_CHARS = 10


def whole_matrix_fits(labels: list[str], confusion) -> bool:
    """Whether the confusion matrix fits beside the figure: at most :data:`MATRIX_CLASSES`
    classes, and its widest row (the "true" column, then each class's label or its largest
    count) at most :data:`MATRIX_CHARS` characters."""
    counts = np.asarray(confusion)
    chars = max(4, *(len(c) for c in labels)) + sum(
        max(len(c), len(str(int(counts[:, i].max())))) for i, c in enumerate(labels))
    return len(labels) <= MATRIX_CLASSES and chars <= MATRIX_CHARS

state = sync(KMP)
hall_follow("kmp")
present = presentation_toggle(KMP)
if not present:
    st.title("Kernel matching pursuit")
    st.caption("Vincent & Bengio (2002). Each step adds the kernel function K(·, xᵢ) centred on the "
               "training point most collinear with what is still unexplained, so the model "
               "f(x) = b + Σ αₙ K(x, x_γₙ) (Eq. 14) has exactly as many basis functions as steps. "
               "Hussain & Shawe-Taylor (2008), Theorem 3, bound its error from that number alone.")
with st.sidebar:
    preset_links(state, PRESETS, "Paper settings")
    draw(state, sidebar_keys(KMP, present))
show_notes(KMP)
choice, d = data_or_stop(state, cached.load_data, need=5,
                         what="Kernel matching pursuit (with its 20% validation hold-out)")
task = d.task
if task not in ("classification", "regression"):
    st.info("Kernel matching pursuit fits a target: choose the target column of your CSV file "
            "in the sidebar (integer labels: classification; numbers: regression).")
    st.stop()
picked = state.get("kmp.feature", ALL)
feature = None if picked == ALL or picked not in d.feature_names else picked
kern = kernel_choice(state)
test = state["test"]
m_train = len(cached.split(choice, test)[0])
N = state["k"]
fitting = state["kmp.fitting"]
loss = state.get("kmp.loss", "squared") if task == "classification" else "squared"
backfit_every = state.get("kmp.backfit_every", 1)
stop = state["kmp.stop"]
mix = state["kmp.dict"]
if mix == "widths" and not has_width(kern.kernel):
    st.warning(f"The {kern.kernel} kernel has no width: using one kernel.")
    mix = "single"
# the classes the fitted model knows, one pursuit each: those of the training split (a class
# whose every point fell in the test split has no pursuit of its own, and the class menu,
# schemas.train_class_labels, offers only these)
classes = np.unique(d.y) if task == "classification" else np.zeros(0)
pursued = np.unique(d.y[cached.split(choice, test)[0]]) if classes.size else classes
cls = None
if pursued.size > 2:
    names = [str(c) for c in pursued]
    picked_class = state.get("kmp.class", names[0])
    cls = names.index(picked_class) if picked_class in names else 0
scale, C, svm_n = state["kmp.scale"], state["kmp.C"], state["kmp.svm_n"]
compare = state.get("kmp.compare", "fittings")
basic_n = min(state["kmp.basic_n"], m_train)
preset = active_preset(state, PRESETS)
if preset and not present:  # presentation mode keeps the screen for the animation
    st.info(f"Paper setting: **{preset}**.")

s = cached.KMPSettings(n_basis=N, fitting=fitting, loss=loss, backfit_every=backfit_every,
                       mix=mix, feature=feature)
es = None if stop == "none" else stop
if kern.kernel == "sigmoid":
    st.info("**The sigmoid kernel tanh(γ x'z + c₀) is not positive semi-definite**, so an SVM has "
            "no guarantee with it (Mercer's condition fails). KMP does not need one: it only "
            "needs a dictionary of functions K(·, xᵢ) evaluated at the training points, and "
            "chooses among them by correlation with the residue (Vincent & Bengio, Sections "
            "4.1 and 4.6). Any similarity measure, even an asymmetric one, would do.")



def _live_lines() -> list[list[str]]:
    """Per step: what was added and the scores (plain text, shown live while playing)."""
    out = []
    for t, (a, b) in enumerate(cached.kmp_step_scores(choice, kern, test, s, es, cls), 1):
        idx = int(v["basis"][t - 1])
        added = "the constant function" if idx < 0 else f"K(·, x_{idx})"
        score = (f"Accuracy: training {a:.1%}, test {b:.1%}" if task == "classification"
                 else f"RMSE: training {a:.4g}, test {b:.4g}")
        out.append([f"Added {added}", score])
    return out


def _reveal(j, guess):
    """The basis function of step j + 1 against the guess, with both scores of the
    pursuit's own criterion (views.kmp_quiz, from mpcore.kmp.replay_steps)."""
    actual = int(v["basis"][j])
    lines = reveal_lines(picks, j, int(guess), actual, loss=loss, fitting=fitting,
                         chosen_before=v["basis"][:j], spec_labels=v["spec_labels"])
    return Reveal(step=j + 1, guess=int(guess), actual=actual, lines=tuple(lines))


def _clicked(event) -> int | None:
    """The training index of a clicked point (its customdata: training points and rings)."""
    points = event.selection.points if event and event.selection else []
    for pt in points:
        cd = pt.get("customdata")
        cd = cd[0] if isinstance(cd, list) and cd else cd
        if isinstance(cd, (int, float)) and float(cd).is_integer() and 0 <= cd < len(X_tr):
            return int(cd)
    return None


tabs = st.tabs(TABS, key="kmp.tab", on_change="rerun")
try:
    with st.spinner(f"Kernel matching pursuit: {FITTING[fitting]}"
                    + (f", {LOSS[loss]} loss (a line search and back-fitting per step)"
                       if loss != "squared" else "")
                    + f", N = {N} steps on m = {m_train} points"
                    + (", early stopping" if es else "") + "...", show_time=True):
        model, warns = cached.kmp_model(choice, kern, test, s, es)
    curves, _ = cached.kmp_curves(choice, kern, test, s)
    v = cached.kmp_staged(choice, kern, test, s, es, cls)
    svm = cached.kmp_svm(choice, kern, test, C, feature)
except ValueError as exc:
    st.error(literal(exc))
    st.stop()
for w in warns:
    st.warning(literal(w))
X_tr, y_tr, X_te, y_te, names = cached.kmp_data(choice, test, feature)
p = cls or 0
k_model = len(v["basis"])
quiz = bool(state["kmp.quiz"])
picks = None
if quiz:
    try:  # the pursuit's own criterion for every candidate (one more run, cached)
        picks = cached.kmp_pick_scores(choice, kern, test, s, es, cls)
    except ValueError as exc:
        st.error("Predict the next pick cannot score this fit: " + literal(exc))
        quiz = False

with tabs[0]:
    if tabs[0].open:
        j = min(max(current(KMP)["j"], 1), k_model)
        step_buttons(KMP, k_model)
        if k_model < N and es is not None:
            why = {"validation": "the validation error", "bound": "the Theorem 3 bound"}[es]
            st.info(f"Early stopping kept {k_model} of N = {N} steps: {why} is lowest there "
                    "(see the curves tab).")
        elif k_model < N:
            st.info(f"The pursuit stopped after {k_model} of N = {N} steps: the fit is exact, or "
                    "every remaining kernel function is (numerically) a combination of the "
                    "chosen ones.")
        left, right = st.columns([3, 1])
        with left:
            fig = cached.kmp_animation(choice, kern, test, s, es, cls,
                                       int(1000 / state["kmp.speed"]))
            place = quiz_place() if quiz else None
            with st.container(key=chart_key(KMP)):
                opened = figure_step(KMP, j, keep=not quiz)
                shown = fit_to_window(open_at(fig, opened - 1), present, reserve=215)
                if present and not is_narrow():  # the plot area takes the screen's height
                    shown = kmp_present_layout(shown)
                figure = phone_panel(KMP, shown, {"": "Fit", "2": "Basis functions"})
                if quiz:  # a click on a training point (or its ring) is the guess
                    event = plotly_chart(figure, key="kmp.fig", config={"displaylogo": False},
                                         on_select="rerun", selection_mode="points")
                    guess_from_selection(KMP, _clicked(event))
                else:
                    plotly_chart(figure, key="kmp.fig", config={"displaylogo": False})
            if task == "classification" and X_tr.shape[1] != 2:
                st.caption(f"The decision surface needs 2-D data; these {d.n_features} features "
                           "show the decision values f(x) of the test points instead (right of "
                           "the line: predicted positive).")
            elif task == "regression" and X_tr.shape[1] > 1:
                st.caption("Several features: predictions against the truth. Choose one feature "
                           "under 'Regression on' to see the fit as a curve.")
            else:
                st.caption("▶ Play animates in the browser; the step and the numbers on the "
                           "right follow it, and Step continues from where it was paused. Rings: chosen basis points, numbered in order of choice"
                           + (" and coloured by kernel shape." if mix != "single" else "."))
                weights = np.abs(v["coef_path"][j - 1, :j])
                if task == "regression" and weights.max() > 1e3 * (np.std(y_tr) + 1e-12):
                    st.caption(f"The weights reach {weights.max():.3g}: large terms of opposite "
                               "sign cancel, because the chosen kernel functions are nearly "
                               "collinear (centres close together for this σ). Pre-fitting "
                               "scores only the part of each function orthogonal to those "
                               "already chosen, and a tiny orthogonal part can still match the "
                               "noise. Back-fitting or a smaller σ keeps the weights moderate.")
            if not present:
                explain_box(explain.kmp_lines(fig, j=j, n_basis=k_model, fitting=fitting,
                                              loss=loss, live=_live_lines()[j - 1]))
        with right:
            live = _live_lines()
            timeline(KMP, n_steps=k_model, lines=live)
            speed_control(KMP, present)
            if present:  # on the screen with the live numbers (the expander is off it)
                equations(present_equations(fitting, loss), present)
            if quiz:
                with place or st.container():
                    quiz_box(KMP, n_steps=k_model, m=len(X_tr), reveal=_reveal)
                if task == "classification" and X_tr.shape[1] != 2:
                    st.caption("This figure shows test points: type the training index of "
                               "your guess.")
            if task == "classification":
                tr, te = (scores(task, y, P[j - 1], classes) for y, P in
                          ((y_tr, v["train"]), (y_te, v["test"])))
                a = b = st.container()  # stacked: the column is narrow at 1280 px
                a.metric("Training accuracy", f"{tr['accuracy']:.1%}")
                b.metric("Test accuracy", f"{te['accuracy']:.1%}")
                class_names = [str(c) for c in classes]
                whole = whole_matrix_fits(class_names, te["confusion"])
                if whole:
                    st.markdown("**Confusion matrix (test)**: rows true class, columns "
                                "predicted")
                    st.markdown(markdown_table(pd.DataFrame(
                        te["confusion"], index=pd.Index(class_names, name="true"),
                        columns=class_names)))
                else:
                    st.caption(f"{len(classes)} classes: the test points of each class are "
                               "under the figure (the whole matrix is wider than this column).")
            else:
                tr, te = (scores(task, y, P[j - 1]) for y, P in
                          ((y_tr, v["train"]), (y_te, v["test"])))
                a = b = st.container()
                a.metric("Training RMSE", f"{tr['rmse']:.4g}")
                b.metric("Test RMSE", f"{te['rmse']:.4g}")
                st.metric("Test R²", f"{te['r2']:.3f}")
            chosen = v["basis"][:j]
            n_points = int(np.unique(chosen[chosen >= 0]).size)
            st.metric("Basis functions" + (f" (class {pursued[p]} vs rest)" if cls is not None else ""),
                      f"{n_points}" + (" + bias" if np.any(chosen < 0) else ""),
                      f"SVM: {svm['n_support']} support vectors (C = {C:g})",
                      delta_color="off", delta_arrow="off")
            sec = curves.seconds
            st.metric(f"Time of step {j}", f"{1000 * sec[min(j, len(sec)) - 1]:.3g} ms",
                      f"all {len(sec)} steps: {1000 * sec.sum():.3g} ms", delta_color="off",
                      delta_arrow="off")
            if mix != "single":
                labels = v["spec_labels"]
                used = pd.Series([labels[k] if k >= 0 else "constant" for k in v["kernels"][:j]])
                st.markdown("**Which kernel supplied each basis function**")
                # a Markdown table whose kernel names break where they must (LABEL_TABLE_KEY):
                # "polynomial(gamma=1/n_features, ..." in the narrow column beside the figure
                # (an st.table scrolled, its counts out of sight, and loaded Streamlit's table
                # code for it)
                st.container(key=f"{LABEL_TABLE_KEY}-kernels").markdown(markdown_table(
                    used.value_counts().rename_axis("kernel").to_frame("steps")))
            st.caption("Chosen so far (training indices, -1 = constant): "
                       + ", ".join(str(int(i)) for i in chosen))
            offline_download(KMP, open_at(fig, j - 1), live,
                             title="Kernel matching pursuit",
                             caption=f"{choice.name}, {kern.label()}, {FITTING[fitting]}")
        if task == "classification" and not whole:
            # the confusion matrix of many classes is wider than the column beside the figure
            # and than a phone: its rows in short, a class a row, under the figure
            st.markdown(f"**The test points of each class at step {j}** (the confusion "
                        "matrix's rows in short)")
            rows = confusion_by_class(te["confusion"], class_names)
            instead = "most often predicted instead (points)"
            by_class = pd.DataFrame(
                {"test points": [r["test points"] for r in rows],
                 "predicted right": [r["predicted right"] for r in rows],
                 instead: ["–" if r["instead"] is None
                           else f"{r['instead']} ({r['instead, points']})" for r in rows]},
                index=pd.Index([r["true class"] for r in rows], name="true class"))
            # in a box whose label cells may break anywhere (LABEL_TABLE_KEY): a 20-digit class
            # label from a CSV, twice a row, is wider than a phone
            st.container(key=LABEL_TABLE_KEY).markdown(markdown_table(by_class, left=(instead,)))
        eq, note = EQUATIONS[fitting]
        if not present:  # in presentation mode they sit beside the figure, under the numbers
            with st.expander(f"The equations of {FITTING[fitting]}" + (
                    f" with the {loss} loss" if loss != "squared" else ""), expanded=False):
                st.latex(eq)
                st.markdown(note)
                if loss != "squared":
                    st.markdown("Non-squared loss (Fig. 4): the residue is the negative "
                                "gradient (Eq. 8), the weight comes from a line search (Eq. "
                                f"10), and every {backfit_every} step(s) all weights are "
                                "re-optimised (Eq. 11).")
                    st.latex(LOSS_EQUATION)

with tabs[1]:
    if tabs[1].open:
        mode = compare if task == "classification" else "fittings"
        try:
            cmp = cached.kmp_comparison(choice, kern, test, s, C, mode, None if svm_n else N,
                                        basic_n, cls)
        except ValueError as exc:
            st.error(literal(exc))
        else:
            n_used = cmp["n_basis"]
            if mode == "fittings":
                st.markdown(f"**Vincent & Bengio, Figure 6**: basic KMP ({min(basic_n, m_train)} "
                            f"steps), back-fitting and pre-fitting (up to {n_used} steps each"
                            f"{', the SVM’s number of support vectors' if svm_n else ''}) and "
                            f"{'an SVM' if task == 'classification' else 'a support vector regression'}"
                            f" with the same kernel ({kern.label()}).")
            else:
                st.markdown(f"**Vincent & Bengio, Figure 7**: an SVM, KMP with the squared loss "
                            f"(pre-fitting) and KMP-tanh (back-fitting with the non-squared "
                            f"loss, Fig. 4), {n_used} steps each. With a linear kernel the squared "
                            "loss penalises the large positive margins of the far cluster and "
                            "tilts the boundary into the near ones; tanh does not.")
            if cmp["figure"] is not None:
                # a phone: the panels one under the other (side by side, four panels of
                # 60 px each, their titles over each other)
                plotly_chart(phone_grid(cmp["figure"]), key="kmp.cmp",
                             config={"displaylogo": False})
                explain_box(explain.generic_lines(cmp["figure"]))
                st.caption(("Colour: each model's decision value, scaled per panel; black line: "
                            "f(x) = 0; " if task == "classification" else "")
                           + "circled: basis points (KMP) or support vectors (SVM)."
                           + (f" One-vs-rest: class {pursued[p]} against the rest."
                              if cls is not None else ""))
            elif task == "regression":
                st.info("Choose one feature under 'Regression on' to see the fits side by side; "
                        "the table compares the models here.")
            else:
                st.info("The side-by-side surfaces need 2-D classification data; the table "
                        "compares the models here.")
            metric = "accuracy" if task == "classification" else "RMSE"
            rows = pd.DataFrame(cmp["rows"])
            rows["steps"] = [("—" if pd.isna(v) else str(int(v))) for v in rows["steps"]]
            fmt = "percent" if task == "classification" else "%.4g"
            st.dataframe(rows, hide_index=True, column_config={
                "method": "model", "distinct_basis_points": "basis points / support vectors",
                "train": st.column_config.NumberColumn(f"training {metric}", format=fmt),
                "test": st.column_config.NumberColumn(f"test {metric}", format=fmt)})
            st.download_button("Comparison as CSV", rows.to_csv(index=False).encode(),
                               file_name="kmp_comparison.csv", mime="text/csv",
                               key="kmp.cmp_csv")
            for w in cmp["warnings"]:
                st.warning(literal(w))
            if mode == "losses" and kern.kernel != "linear":
                st.caption("The paper's Figure 7 uses a linear kernel: the 'Figure 7' setting "
                           "in the sidebar loads it with its data set.")

with tabs[2]:
    if tabs[2].open:
        try:
            val, _ = cached.kmp_model(choice, kern, test, s, "validation")
            by_bound, _ = cached.kmp_model(choice, kern, test, s, "bound")
        except ValueError as exc:
            st.error(literal(exc))
            st.stop()
        path = curves.paths[p]
        val_name = VAL_ERR + (f" (class {pursued[p]} vs rest)" if cls is not None else "")
        errors = {TRAIN_ERR: curves.train_error, TEST_ERR: curves.test_error,
                  val_name: path_of(val, cls).validation_error_}
        k_val, k_bound = path_of(val, cls).n_basis_, path_of(by_bound, cls).n_basis_
        k_test = int(np.argmin(curves.test_error)) + 1
        markers = {VAL_STOP: k_val, BOUND_STOP: k_bound, TEST_MIN: k_test}
        if task == "classification":
            err_title, ex_title = "Misclassification rate", "test misclassification rate"
            b_title = "Theorem 3 bound on<br>the misclassification rate"
        else:
            err_title = "Mean squared error"
            ex_title = f"fraction of test points with |f(x) − y| > α = {curves.alpha:.3g}"
            b_title = f"Theorem 3 bound on<br>P(|f(x) − y| > α), α = {curves.alpha:.3g}"
        if cls is not None:  # (the lines a phone holds: the figure makes room for a third)
            b_title += f",<br>class {pursued[p]} against the rest"
        fig = kmp_curves_figure(errors, bound=path.bound, bound_scale=scale,
                                exceed=path.test_exceed, t_fraction=path.n_errors / curves.m,
                                markers=markers, error_title=err_title, exceed_title=ex_title,
                                bound_title=b_title)
        plotly_chart(fig, key="kmp.curves", config={"displaylogo": False})
        explain_box(explain.kmp_curves_lines(fig, markers))
        st.caption(
            f"{curves.m} training points, {len(y_te)} test points, {kern.label()}, "
            f"{FITTING[fitting]}, {LOSS[loss]}. Validation error: the same pursuit run on 80% of "
            "the training points, scored on the other 20%"
            + (f" ({pursued[p]} against the rest)" if cls is not None else "") + ". "
            + (f"The bound is drawn divided by {scale:g}, as the paper's Figure 2 does. "
               if scale != 1 else "")
            + "Bottom: the bound is on the probability that a new point is "
            + ("misclassified" if task == "classification" else "predicted with error above α")
            + "; above 1 it says nothing, and it is missing where m − k − t ≤ 0.")
        st.latex(r"\epsilon(m,k,t)=\frac{2}{m-k-t}\Big[(k+1)\log_2\frac{4e(m-k-t)}{k+1}"
                 r"+k\log_2\frac{em}{k}+t\log_2\frac{e(m-k)}{t}+\log_2\frac{2m^2}{\delta}\Big]")
        st.markdown(f"k basis functions, t training points outside the basis that the model "
                    f"errs on, m = {curves.m}, δ = 0.05. Stopping where it is lowest needs no "
                    "validation data (the automated procedure proposed after Figure 2).")
        times = step_time_figure(curves.seconds)
        plotly_chart(times, key="kmp.times", config={"displaylogo": False})
        explain_box(explain.generic_lines(times, explain.LOSS_CURVES))
        st.caption(f"Wall time of every step of this run (evaluating the dictionary took "
                   f"{1000 * curves.dictionary_seconds:.3g} ms more). Pre-fitting updates every "
                   "column's orthogonal part, and non-squared losses re-optimise all weights: "
                   "both cost more per step than basic KMP.")

with tabs[3]:
    if tabs[3].open:
        losses = margin_loss_figure(loss_functions(), selected=loss)
        plotly_chart(phone_grid(losses), key="kmp.losses", config={"displaylogo": False})
        explain_box(explain.generic_lines(losses, explain.LOSS_CURVES))
        st.caption("Vincent & Bengio, Figure 5: each loss as a function of the margin m = y f(x). "
                   "Left, the margin losses of boosting and the SVM's hinge; right, the "
                   "squared error, which also penalises large positive margins (the cause of "
                   "Figure 7), and the squared error after tanh with target 0.65, which "
                   "behaves like a margin loss. Thick: the loss in use"
                   + ("" if task == "classification" else " (regression uses the squared loss)")
                   + ".")
        st.markdown(f"**Loss in use: {LOSS[loss]}**")
        st.latex(r"L(m)=" + {"squared": r"(1-m)^2", "tanh": r"(0.65-\tanh m)^2",
                             "logistic": r"\log_2(1+e^{-2m})", "exponential": r"e^{-m}",
                             "margin_tanh": r"1-\tanh m"}[loss])
        grid = np.linspace(-2.0, 2.0, 81)
        losses = pd.DataFrame({"margin": grid} | {n: f(grid) for n, f in loss_functions().items()})
        st.download_button("Loss curves as CSV", losses.to_csv(index=False).encode(),
                           file_name="kmp_losses.csv", mime="text/csv", key="kmp.loss_csv")

steps = np.arange(1, curves.n_steps + 1)
path = curves.paths[p]
labels = curves.spec_labels
table = pd.DataFrame({
    "step": steps, "basis_index": path.basis,
    "kernel": [labels[k] if k >= 0 else "constant" for k in path.kernels],
    "model_basis_index": pd.array(list(v["basis"]) + [None] * (curves.n_steps - k_model),
                                  dtype="Int64")[: curves.n_steps],
    "train_error": curves.train_error, "test_error": curves.test_error,
    "bound": path.bound, "t": path.n_errors, "seconds": path.seconds})
Est = "KMPClassifier" if task == "classification" else "KMPRegressor"
kw = (kernel_kwargs(kern) if mix == "single"
      else f"kernel={cached.kmp_kernel(kern, mix)['kernel']!r}")
args = [str(N), kw, f"fitting={fitting!r}"]
if task == "classification":
    args.append(f"loss={loss!r}")
if backfit_every != 1:
    args.append(f"backfit_every={backfit_every}")
args += [f"early_stopping={es!r}", f"random_state={choice.seed}"]
call_args = textwrap.fill(", ".join(args) + ",", width=90, initial_indent="    ",
                          subsequent_indent="    ", break_long_words=False, break_on_hyphens=False)
col = "" if feature is None else (f"\nX = X[:, [{list(d.feature_names).index(feature)}]]"
                                  f"  # {feature!r}")  # a name may hold a line break
snippet = (f"from mpcore.kmp import {Est}\n{data_snippet(choice)}{col}\n"
           f"{split_snippet(choice, test, cached.stratified(choice, test))}\n"
           f"model = {Est}(\n{call_args}\n).fit(X_tr, y_tr)\n"
           + (f"pursuit = model.estimators_[{p}]  # one-vs-rest: class {pursued[p]} "
              f"against the rest\n"
              f"print(pursuit.basis_indices_)  # -1 is the constant function\n"
              if cls is not None else
              "print(model.basis_indices_)  # -1 is the constant function\n")
           + "print(model.score(X_te, y_te))")
page_footer(snippet=snippet, table=table, name="kmp_steps", state=state)
