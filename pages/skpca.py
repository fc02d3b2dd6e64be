"""Sparse kernel PCA: greedy selection and deflation, step by step."""

import pandas as pd
import streamlit as st

import pages.common  # noqa: F401  (first, for its legacy-mode guard)
from pages.common.hall_follow import hall_follow
from pages.common.cached import skpca as cached
from pages.common.charts import plotly_chart
from pages.common.clicker import click_to_add
from pages.common.explain import explain_box
from pages.common.schemas import SKPCA
from pages.common.share import (
    active_preset,
    data_snippet,
    kernel_kwargs,
    page_footer,
    preset_links,
    split_snippet,
)
from pages.common.quiz import Reveal, guess_from_selection, quiz_box, quiz_place
from pages.common.text import literal
from pages.common.figure_frames import cut_animation
from pages.common.offline import offline_download
from pages.common.phone import phone_panel
from pages.common.presentation import (
    fit_to_window,
    equations,
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

PRESETS = {
    "Duplicate points": (dict(dataset="blobs", n=200, noise=0.0, kernel="rbf", sigma=1.0, k=10),
                         "Blobs with zero noise: every cluster is one point repeated, so K has rank 3. "
                         "After 3 steps every residual diagonal is 0 and the run stops early."),
    "Rank-deficient kernel": (dict(dataset="moons", n=200, noise=0.2, kernel="linear", k=10),
                              "A linear kernel on 2-D data has rank 2: two basis vectors span the "
                              "feature space, so the run stops after 2 steps."),
    "Width too small": (dict(dataset="moons", n=200, noise=0.2, kernel="rbf", sigma=0.05, k=10),
                        "sigma = 0.05: K is nearly the identity, every point is alone in feature "
                        "space and every quotient is about 1. Ties go to the lowest index; each "
                        "step removes only about 1 from the trace."),
    "Width too large": (dict(dataset="moons", n=200, noise=0.2, kernel="rbf", sigma=100.0, k=10),
                        "sigma = 100: K is nearly all ones, every point looks the same, and the "
                        "first basis vector explains almost the whole trace."),
}

#: The equations beside the figure: (heading, LaTeX).
EQUATIONS = (
    ("Greedy choice (Eq. 2)", r"i_j=\arg\max_i \frac{e_i'\hat K^2 e_i}{e_i'\hat K e_i}"),
    ("Deflation (Eq. 3)", r"\hat K\leftarrow \hat K-\frac{\hat K e_i e_i'\hat K}{e_i'\hat K e_i}"),
    ("Trace drop = quotient (Theorem 1)",
     r"\operatorname{tr}\hat K_{j-1}-\operatorname{tr}\hat K_{j}=\rho_{i_j}"),
    ("Nyström approximation (Eq. 5)",
     r"\tilde K=K[:,\mathbf i]\,K[\mathbf i,\mathbf i]^{-1}K[\mathbf i,:]"),
)

#: What a phone's panel selector calls each panel (by axis suffix).
PANELS = {"": "Data", "2": "Quotients ρ", "3": "Deflated kernel", "4": "Trace"}

state = sync(SKPCA)
hall_follow("skpca")
present = presentation_toggle(SKPCA)
if not present:
    st.title("Sparse kernel PCA: greedy selection and deflation")
    st.caption("Hussain & Shawe-Taylor (2008), Algorithm 1. Each step keeps the training point "
               "whose feature vector explains most of what is left of the kernel matrix, then "
               "removes it (deflation). Press ▶ Play, or move one step at a time (keys: space, "
               "← →).")
with st.sidebar:
    draw(state, sidebar_keys(SKPCA, present))
preset_links(state, {name: values for name, (values, _) in PRESETS.items()}, "Break it")
show_notes(SKPCA)
choice, d = data_or_stop(state, cached.load_data, need=2,
                         what="Sparse kernel PCA")
kern = kernel_choice(state)
test, k = state["test"], state["k"]
K_MAX = SKPCA["k"].at("hi", state)  # one run of K_MAX steps serves every k on the slider
cand = 59 if state["skpca.trick"] else None
try:
    view = cached.skpca_at_k(choice, kern, test, K_MAX, cand, k)
    fig = view["fig"]
except ValueError as exc:
    st.error(literal(exc))
    st.stop()

steps = view["steps"]
n_steps = len(steps)
preset = active_preset(state, {name: values for name, (values, _) in PRESETS.items()})
if preset:
    st.info(PRESETS[preset][1])
if n_steps < k:
    st.warning(f"Stopped early after {n_steps} of k = {k} steps: every residual diagonal is "
               f"below 1e-10 × max K_ii, so the chosen points already span the data in feature "
               f"space (the kernel matrix has numerical rank {n_steps}).")


def _numbers(j):
    """The equations' numbers at step j (plain text, shown live while playing)."""
    s = steps[j - 1]
    before = s.trace_residual + s.quotients[s.index]
    return [f"Greedy choice (Eq. 2): i{_sub(j)} = {s.index},  ρ = {s.quotients[s.index]:.4g}",
            f"Trace drop (Theorem 1): tr K̂{_sub(j - 1)} − tr K̂{_sub(j)} = {before:.4g} − "
            f"{s.trace_residual:.4g} = {s.quotients[s.index]:.4g} = ρ",
            "Chosen so far: " + ", ".join(str(t.index) for t in steps[:j])]


def _sub(n):
    return str(n).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


def _reveal(j, guess):
    """The pick of step j + 1 against the guess, with both quotients (plain text)."""
    s = steps[j]
    a, q = s.index, s.quotients
    qa, qg = float(q[a]), float(q[guess])
    lines = [f"Step {j + 1}: you guessed i = {guess}, the greedy rule chose i = {a} "
             f"(ρ = {qa:.4g}, the largest quotient)."]
    if guess == a:
        lines.append("Right: your point explains most of what is left of the kernel matrix.")
    elif guess in {t.index for t in steps[:j]}:
        lines.append(f"i = {guess} was already chosen: deflation left it nothing (ρ = 0).")
    elif qg != qg:  # NaN: not scored at this step
        lines.append(f"i = {guess} was not among this step's 59 random candidates.")
    else:
        lines.append(f"Your point's quotient: ρ = {qg:.4g}, {qg / qa:.0%} of the largest.")
    return Reveal(step=j + 1, guess=int(guess), actual=int(a), lines=tuple(lines))


def stepper():
    """The figure on the page's one timeline, with the live numbers beside it.

    Not a fragment: a step changes the state, and the whole view (the links,
    the downloads, the classroom link) follows it."""
    j = min(max(current(SKPCA)["j"], 1), n_steps)
    left, right = st.columns([5, 2])
    with left:
        step_buttons(SKPCA, n_steps)
        place = quiz_place() if quiz else None
        with st.container(key=chart_key(SKPCA)):
            opened = figure_step(SKPCA, j, keep=not quiz)
            shown = cut_animation(fig, n_steps, opened, frame_ms=int(1000 / state["skpca.speed"]))
            # a short (projector) figure drops the axis titles that would meet the panel
            # titles and the Play buttons below them
            figure = phone_panel(SKPCA, fit_to_window(
                shown, present, compact_axes=("xaxis", "xaxis2", "xaxis3")), PANELS)
            if quiz:  # a click on a point (data or quotient panel) is the guess
                event = plotly_chart(figure, key="skpca.fig", config={"displaylogo": False},
                                     on_select="rerun", selection_mode="points")
                guess_from_selection(SKPCA, _clicked(event))
            else:
                plotly_chart(figure, key="skpca.fig", config={"displaylogo": False})
        if view["heat_note"] and not present:
            st.caption(view["heat_note"])
        if not present:
            explain_box(explain.skpca_lines(steps, j, fig, m=view["m"]))
    with right:
        lines = [_numbers(t) for t in range(1, n_steps + 1)]
        timeline(SKPCA, n_steps=n_steps, lines=lines)
        speed_control(SKPCA, present)
        if quiz:
            with place or st.container():
                quiz_box(SKPCA, n_steps=n_steps, m=view["m"], reveal=_reveal)
        equations(EQUATIONS, present)
        st.caption("▶ Play animates in the browser; the step and the numbers above follow it, "
                   "and Step continues from where it was paused.")
        offline_download(SKPCA, shown, lines, title="Sparse kernel PCA: greedy selection",
                         caption=f"{choice.name}, {kern.label()}, k = {k}")


def _clicked(event) -> int | None:
    """The training index of a clicked point (data panel or quotient panel), if any."""
    points = event.selection.points if event and event.selection else []
    off = int(cached.added_rows(choice, test).size > 0)  # the added points' trace comes first
    for p in points:
        if p.get("curve_number") == 0 and isinstance(p.get("point_index"), int):
            return p["point_index"]
        if p.get("curve_number") in (2 + off, 3 + off) and isinstance(p.get("x"), (int, float)):
            return int(p["x"])
    return None


quiz = bool(state["skpca.quiz"])
stepper()

click_to_add(SKPCA, choice, key="skpca.add")

table = pd.DataFrame({"step": [t.step for t in steps], "index": [t.index for t in steps],
                      "quotient": [t.quotients[t.index] for t in steps],
                      "trace_residual": [t.trace_residual for t in steps]})
cand = ", n_candidates=59, random_state=%d" % choice.seed if state["skpca.trick"] else ""
snippet = (f"from mpcore.skpca import SparseKPCA\n{data_snippet(choice)}\n"
           f"{split_snippet(choice, test, cached.stratified(choice, test), d.y is not None)}\n"
           f"model = SparseKPCA({k}, {kernel_kwargs(kern)}{cand}).fit(X_tr)\n"
           f"print(model.indices_, model.trace_residuals_)")
page_footer(snippet=snippet, table=table, name="skpca_steps", state=state)
