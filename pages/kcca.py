"""Sparse kernel CCA by matching pursuit: greedy choice of paired basis points, step by step."""

import pandas as pd
import streamlit as st

from mpcore.kernels import sigma_to_gamma
import pages.common  # noqa: F401  (first, for its legacy-mode guard)
from pages.common.hall_follow import hall_follow
from pages.common.cached import kcca as cached
from pages.common.charts import plotly_chart
from pages.common.explain import explain_box
from pages.common.schemas import KCCA
from pages.common.share import page_footer
from pages.common.text import literal
from pages.common.figure_frames import open_at
from pages.common.offline import offline_download
from pages.common.phone import phone_panel
from pages.common.presentation import (
    equations,
    fit_to_window,
    presentation_toggle,
    sidebar_keys,
    speed_control,
)
from pages.common.step_buttons import step_buttons
from pages.common.timeline import chart_key, figure_step, timeline
from pages.common.widgets import draw, show_notes, sync
from views import explain


#: The equations beside the live numbers: (heading, LaTeX), Section 4 of Hussain & Shawe-Taylor.
EQUATIONS = (
    ("Greedy choice (Section 4)", r"i_j=\arg\max_i\frac{e_i'\hat K_x\hat K_ye_i}"
                                  r"{\sqrt{e_i'\hat K_x^2e_i\;e_i'\hat K_y^2e_i}}"),
    ("Deflate both kernels (as Algorithm 1)",
     r"\hat K_x\leftarrow\hat K_x-\frac{\hat K_xe_ie_i'\hat K_x}{e_i'\hat K_xe_i}"),
    ("", r"\hat K_y\leftarrow\hat K_y-\frac{\hat K_ye_ie_i'\hat K_y}{e_i'\hat K_ye_i}"),
    ("Regularised CCA in the span of the kept pairs",
     r"C_{xy}w_y=\rho\,\big((1-\tau)C_{xx}+\tau I\big)w_x"),
    ("", r"C_{yx}w_x=\rho\,\big((1-\tau)C_{yy}+\tau I\big)w_y"),
)

#: The equations in three groups (greedy choice, deflation, CCA), side by side under the
#: figure, in presentation mode too: the narrow column beside the figure held them only at a
#: size nobody could read, and the CCA pair fell below the fold of a 1280x720 screen.
GROUPS = (EQUATIONS[:1], EQUATIONS[1:3], EQUATIONS[3:])

state = sync(KCCA)
hall_follow("kcca")
present = presentation_toggle(KCCA)
if not present:
    st.title("Sparse kernel CCA: greedy choice of paired basis points")
    st.caption("Hussain & Shawe-Taylor (2008), Section 4; regularised CCA as in Shawe-Taylor & "
               "Cristianini (2004), Computation 6.34. Two views of one latent variable z: view X puts z "
               "on an arc, view Y winds it twice round a circle. Each step keeps the training pair whose "
               "two feature vectors point most alike (the quotient), deflates both kernels, then runs "
               "CCA in the span of the pairs kept so far. Press ▶ Play, or move one step at a time.")
with st.sidebar:
    draw(state, sidebar_keys(KCCA, present))
    st.latex(r"\kappa(a,b)=e^{-\|a-b\|^2/2\sigma^2}")
show_notes(KCCA)
n, noise, seed, test = state["kcca.n"], state["kcca.noise"], state["seed"], state["test"]
sx, sy, reg, k = state["kcca.sigma_x"], state["kcca.sigma_y"], state["kcca.reg"], state["kcca.k"]
try:
    view = cached.kcca_view(n, noise, seed, test, sx, sy, reg, k)
    fig = cached.kcca_figure(n, noise, seed, test, sx, sy, reg, k,
                             int(1000 / state["kcca.speed"]))
except ValueError as exc:
    st.error(literal(exc))
    st.stop()

steps = view["steps"]
n_steps = len(steps)
if n_steps < k:
    st.warning(f"Stopped after {n_steps} of k = {k} pairs: every remaining point is already "
               "spanned in one of the views (its residual diagonal is below 1e-10 × max K_ii).")


def _numbers(j):
    """The step's numbers as plain text (shown live while playing)."""
    t = steps[j - 1]
    return [f"Greedy choice: pair {t.index},  quotient ρ = {t.quotients[t.index]:.4g}",
            f"Regularised CCA: ρ = {view['rho'][j - 1]:.3f};  correlation: train "
            f"{view['train'][j - 1]:.3f}, held out {view['test'][j - 1]:.3f}",
            "Chosen so far: " + ", ".join(str(u.index) for u in steps[:j])]


j = min(max(state["j"], 1), n_steps)
lines = [_numbers(t) for t in range(1, n_steps + 1)]
if present:  # a 16:9 screen: the controls and numbers beside the figure, the equations under it
    fig_col, controls = st.columns([4, 1])
    with controls:
        step_buttons(KCCA, n_steps, wrap=True)
        timeline(KCCA, n_steps=n_steps, lines=lines)
        speed_control(KCCA, present)
    with fig_col:
        figure_box = st.container()
        for i, (col, group) in enumerate(zip(st.columns(3), GROUPS)):
            with col:
                equations(group, present, key=f"mp-equations-{i}")
    reserve = 210
else:
    # halves: at 1280x720 with the sidebar open, Play and Pause stay on one line and the
    # figure starts on the first screen (tests/browser/test_browser_layout.py)
    top_left, top_right = st.columns(2)
    with top_left:
        step_buttons(KCCA, n_steps, wrap=True)
    with top_right:
        timeline(KCCA, n_steps=n_steps, lines=lines)
    figure_box, reserve = st.container(), 300
with figure_box, st.container(key=chart_key(KCCA)):
    opened = figure_step(KCCA, j)
    plotly_chart(phone_panel(
                     KCCA, fit_to_window(open_at(fig, opened - 1), present, reserve=reserve,
                                         compact_axes=("xaxis", "xaxis2", "xaxis3")),
                     {"": "View X", "2": "View Y", "3": "Projections", "4": "Quotients",
                      "5": "Correlation"}),
                 key="kcca.fig", config={"displaylogo": False}, streamlit_look=True)
st.caption("Colour: the latent z. Rings: the chosen pairs, numbered in order, at the same index in "
           "both views. ▶ Play animates in the browser; the step and its numbers follow it, and "
           "Step continues from where it was paused.")
if not present:
    explain_box(explain.kcca_lines(view, j, fig))
offline_download(KCCA, open_at(fig, j - 1), lines,
                 title="Sparse kernel CCA: greedy choice of paired basis points",
                 caption=f"{n} pairs, noise {noise:g}, σx = {sx:g}, σy = {sy:g}, τ = {reg:g}")
if not present:  # in presentation mode they sit under the figure, beside the controls
    for col, group in zip(st.columns(3), GROUPS):
        with col:
            equations(group, present)
    st.caption("Greedy choice: the cosine between column i of the deflated K_x and of K_y, "
               "large when point i has the same neighbours in both views.")

table = pd.DataFrame({
    "step": [t.step for t in steps], "index": [t.index for t in steps],
    "latent_z": [float(cached.kcca_data(n, noise, seed, test)["z"][t.index]) for t in steps],
    "quotient": [t.quotients[t.index] for t in steps],
    "regularised_rho": list(view["rho"]), "train_correlation": list(view["train"]),
    "test_correlation": list(view["test"])})
gx, gy = sigma_to_gamma(sx, "book"), sigma_to_gamma(sy, "book")
snippet = (f"from mpcore.kcca import SparseKCCA\n"
           f"X, Y, z = datasets.two_view(n_samples={n}, noise={noise!r}, random_state={seed})\n"
           f"tr, te = datasets.split_indices({n}, test_size={test!r}, random_state={seed})\n"
           f"model = SparseKCCA({k}, kernel_x='rbf', kernel_y='rbf', gamma_x={gx!r}, "
           f"gamma_y={gy!r}, reg={reg!r}).fit(X[tr], Y[tr])\n"
           f"print(model.indices_, model.correlation_path_, model.score(X[te], Y[te]))")
page_footer(snippet=snippet, table=table, name="kcca_steps", state=state)
