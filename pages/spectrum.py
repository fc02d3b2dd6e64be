"""Approximate vs exact eigenvalues: Nyström subsets and Marukatat's sketched EKM against eigh."""

from functools import partial

import pandas as pd
import streamlit as st

from mpcore.plots import EKM_SERIES, NYSTROM_SERIES, plotted_rows
import pages.common  # noqa: F401  (first, for its legacy-mode guard)
from pages.common.hall_follow import hall_follow
from pages.common.cached import spectrum as cached
from pages.common.charts import plotly_chart
from pages.common.explain import explain_box, verdict_box
from pages.common.schemas import SPECTRUM
from pages.common.share import data_snippet, kernel_kwargs, page_footer
from pages.common.text import fitted_number, formatted, literal, markdown_table
from pages.common.phone import is_narrow
from pages.common.widgets import data_choice, draw, kernel_choice, show_notes, sync
from views import spectrum as spectrum_views
from views import spectrum_explain

st.title("Approximate vs exact eigenvalues")
st.caption("Hussain & Shawe-Taylor (2008), Eq. 5 (Nyström on chosen columns); Marukatat (2016), "
           "Algorithm 1 and Eq. 3 (the empirical kernel map, sketched); Shawe-Taylor & Cristianini "
           "(2004), Code Fragment 5.4 (incomplete Cholesky); Chen, Epperly, Tropp & Webber "
           "(arXiv:2207.06503), Algorithm 1 (randomly pivoted Cholesky). Every number below "
           "comes from one run on the same kernel matrix K.")

state = sync(SPECTRUM)
hall_follow("spectrum")
with st.sidebar:
    draw(state)
show_notes(SPECTRUM)
choice = data_choice(state)
if choice is None:
    st.stop()
kern = kernel_choice(state)
try:
    m = cached.load_data(choice).n_samples
except ValueError as exc:  # an upload whose chosen target leaves no usable feature, say
    st.error(literal(exc))
    st.stop()
if m < 3:
    st.error(f"The data set has {m} points; comparing eigenvalues needs at least 3.")
    st.stop()
k_max = SPECTRUM["k"].at("hi", state)
k, q, n_eig = state["k"], state["spectrum.q"], state["spectrum.n_eig"]

narrow = is_narrow()  # a phone: the figures' panels and titles stacked to its width
try:
    cached.full_kernel(choice, kern)  # called here for their spinners (none inside the run)
    cached.spectrum_exact(choice, kern)
    run = cached.spectrum_run(choice, kern, k, q, n_eig)
    figures = cached.spectrum_run_figures(choice, kern, k, q, n_eig, narrow)
except ValueError as exc:
    st.error(literal(exc))
    st.stop()
n_cmp = run["n_compared"]
if n_cmp < n_eig:
    st.warning(f"K has only {n_cmp} eigenvalues above 1e-10 × λ₁ among the top {n_eig}: the "
               f"errors and angles compare those {n_cmp} (a relative error against a "
               "rounding-level eigenvalue means nothing).")

st.subheader("Scree plot: the leading eigenvalues")
left, right = st.columns([5, 2])
with left:
    plotly_chart(figures["scree"], key="spectrum.scree", config={"displaylogo": False},
                 streamlit_look=True)
    explain_box(spectrum_explain.scree_lines(figures["scree"], run, k=k, q=q))
with right:
    st.markdown("**Nyström on k chosen columns (Eq. 5)**")
    st.latex(r"\tilde K=K[:,\mathbf i]\,K[\mathbf i,\mathbf i]^{-1}K[\mathbf i,:]")
    st.caption("Rank ≤ k, and K − K̃ is PSD (a Schur complement): every Nyström eigenvalue is at "
               "most the exact one. The rule choosing the columns matters more than k.")
    st.markdown("**EKM covariance (Marukatat)**")
    st.latex(r"KK'=U\Lambda^2U'")
    st.latex(r"Z=SK,\quad ZZ'=SKK'S'\in\mathbb R^{q\times q}")
    st.caption("The columns of K are the EKM vectors; their covariance has K's eigenvectors and "
               "squared eigenvalues. Sketch each to q dimensions (Z = SK), take √ of the "
               "eigenvalues of the q × q matrix: rank ≤ q, and errors go either way.")

st.subheader("Error against k and q, with Marukatat's bound")
a, b = st.columns(2)
eq3_tex = r"|\lambda_i^2-\tilde\lambda_i|\le\|E\|_2\le m\max_{ij}|\varepsilon_{ij}|,"
where_tex = r"K^2=Z'Z+E\quad\text{(Eq. 3)}"
# on a phone the bound and what E is take a line each: on one, the equation shrank to fit
a.latex(rf"\begin{{gathered}}{eq3_tex}\\ {where_tex}\end{{gathered}}" if narrow
        else rf"{eq3_tex}\qquad {where_tex}")
b.latex(r"|\lambda_i-\sqrt{\tilde\lambda_i}|\le\min\Big(\sqrt{\|E\|_2},\ "
        r"\frac{\|E\|_2}{\lambda_i+\sqrt{\tilde\lambda_i}}\Big)")
errors_at = spectrum_views.errors_at(run)
# Filled last: the error curves (Eq. 3 at every q of the grid) take most of a new data set's
# time, and the run's figures and table below need only the run, so the browser draws them
# while the curves compute.
errors_section = st.container()

st.subheader("Eigenvectors and time, from the same run")
left, right = st.columns([3, 2])
with left:
    plotly_chart(figures["angles"], key="spectrum.angles", config={"displaylogo": False},
                 streamlit_look=True)
    explain_box(spectrum_explain.angles_lines(figures["angles"], run))
with right:
    st.latex(r"\theta_{\max}=\max\angle\big(\operatorname{span}U_n,\ \operatorname{span}\hat U_n\big)")
    gap = run["relative_gap"]
    st.caption("Largest principal angle between the exact top-n eigenvectors and each "
               "approximation's (scipy.linalg.subspace_angles): 0° is the same subspace, 90° "
               f"misses a direction. The relative gap (λₙ − λₙ₊₁)/λ₁ = {gap:.2g}"
               + (": tiny, so the exact top-n subspace is itself ill-defined and large angles "
                  "are expected." if gap < 1e-3 else "."))

table = pd.DataFrame(run["rows"])
# the times to 4 decimals and their ratios to 3, fewer once a number has more digits before
# the point, so that a slow run's time or ratio does not widen the table past a phone's width
formats = {"time (s)": partial(fitted_number, places=4),
           "time / dense eigh": partial(fitted_number, places=3),
           f"max rel. error, top {n_cmp}": "{:.2e}", "rel. error λ₁": "{:.2e}",
           "largest angle (°)": "{:.3g}"}
# Markdown tables: every cell shows in full, and no table code to load (st.table loads
# Streamlit's Arrow code, 0.75 MB of JavaScript, on a first visit); a phone gets the columns
# in three tables (time, eigenvalues, eigenvectors), each its width, none behind a swipe
shown = formatted(table.set_index("method"), formats)
timing_columns = ["computes", "time (s)", "time / dense eigh"]
vector_columns = ["largest angle (°)", "vectors compared"]
parts = [timing_columns, [c for c in shown.columns if c not in timing_columns + vector_columns],
         vector_columns]
for columns in (parts if narrow else [list(shown.columns)]):
    st.markdown(markdown_table(shown[columns], left=("computes",)))
times = dict(zip(table["method"], table["time (s)"]))
verdict_box(spectrum_explain.verdict(run)["lines"])
if run["eigsh_note"]:
    st.warning(run["eigsh_note"])
else:
    t_l = times["eigsh (Lanczos), top n"]
    faster = [n for n in (*NYSTROM_SERIES.values(), *EKM_SERIES.values()) if times[n] < t_l]
    verdict = (f"**Exact Lanczos (eigsh) wins here**: it found the top {n_eig} eigenvalues to "
               f"rounding in {t_l:.3g} s, faster than every approximation. With K in memory and "
               "only a few eigenvalues wanted, approximate only if K is too large to form."
               if not faster else
               f"Exact Lanczos (eigsh) took {t_l:.3g} s "
               f"({t_l / times['dense eigh (all m)']:.2f} × dense eigh), with no error. Faster "
               "than eigsh here, and paying for it in accuracy: "
               + ", ".join(f"{n} ({times[n]:.3g} s, max error {errors_at[n]:.1%})" for n in faster)
               + ".")
    st.markdown(verdict)
st.caption(f"One run each on a shared server, one BLAS thread (m = {m}): small times are noisy. "
           "benchmarks/results_spectrum.md has medians at m = 1000 and 3000.")

with errors_section:
    try:
        curves = cached.spectrum_curves(choice, kern, n_eig, k_max)
        errors_figure = cached.spectrum_errors_figure(choice, kern, k, q, n_eig, k_max, narrow)
    except ValueError as exc:
        st.error(literal(exc))
        st.stop()
    plotly_chart(errors_figure, key="spectrum.errors", config={"displaylogo": False},
                 streamlit_look=True)
    explain_box(spectrum_explain.errors_lines(errors_figure, curves, run, k=k, q=q))
    eq3_now = "; ".join(
        f"{name}: observed {e['observed']:.3g} ≤ ‖E‖₂ = {e['spectral']:.3g} "
        f"({e['spectral'] / max(e['observed'], 1e-300):.1f}×) ≤ m·max|εᵢⱼ| = "
        f"{e['entrywise']:.3g}" for name, e in run["ekm"].items())
    # the panels side by side, or one under the other on a phone; the bound is drawn over
    # the q grid only up to Eq. 3's size limit
    second, third = ("Second panel", "Third") if narrow else ("Middle", "Right")
    bound = (f"Dashed: the bound, never below the observed error of its sketch. {second}: "
             "carried to the eigenvalue scale, where dividing by small λᵢ makes it loose. "
             f"{third}: Eq. 3 as stated, on the squared scale. " if curves["with_bound"] else "")
    st.caption(f"Stars: this run (k = {k}, q = {q}). {bound}The dash-dot line at 1 is what "
               f"an estimate of 0 scores. At q = {q}: {eq3_now}."
               + (f" The q axis stops at {int(curves['q_grid'][-1])} of m = {m}: a larger "
                  "sketch costs as much as the exact eigenvalues."
                  if curves["q_grid"][-1] < m else ""))
    if not curves["with_bound"]:
        st.info(f"m = {m}: Eq. 3 costs O(m³) per point, so it is drawn at the chosen q only "
                "(in the caption above), not over the whole q grid (up to m = "
                f"{cached.SPECTRUM_BOUND_GRID_MAX_M}).")

L = run["scree_length"]
snippet = (
    "from mpcore.kernels import kernel_matrix\n"
    "from mpcore.spectrum import (ekm_eigenvalues, exact_eigenvalues, nystrom_eigenvalues,\n"
    "                             nystrom_indices, relative_error)\n"
    f"{data_snippet(choice)}\nK = kernel_matrix(X, {kernel_kwargs(kern)})\n"
    f"lam = exact_eigenvalues(K, {L}, method='eigh')\n"
    f"nystrom = {{rule: nystrom_eigenvalues(K, nystrom_indices(K, {k}, rule=rule, "
    f"random_state={choice.seed}), {L})\n           for rule in ('skpca', 'random', 'cholesky', 'rpcholesky')}}\n"
    f"ekm = {{s: ekm_eigenvalues(K, {q}, {L}, sketch=s, random_state={choice.seed})\n"
    "       for s in ('gaussian', 'countsketch')}\n"
    "for name, est in {**nystrom, **ekm}.items():\n"
    f"    print(name, relative_error(est[:{n_cmp}], lam[:{n_cmp}]).max())")
rows = plotted_rows(run["scree"], k_grid=curves["k_grid"], nystrom_errors=curves["nystrom"],
                    q_grid=curves["q_grid"], ekm_errors=curves["ekm"],
                    ekm_bounds=curves["ekm_bounds"], eq3=curves["eq3"], angles=run["angles"])
page_footer(snippet=snippet, table=pd.DataFrame(rows), name="spectrum", state=state,
            extra_json={"timing": run["rows"]})
