"""Sparse kernel PCA: greedy selection and deflation, step by step."""

import pandas as pd
import streamlit as st

from mpcore.plots import cut_animation, prevalidated
from pages.common import cached
from pages.common.clicker import click_to_add
from pages.common.share import (
    data_snippet,
    kernel_kwargs,
    page_footer,
    preset_links,
    split_snippet,
)
from pages.common.widgets import control, data_controls, hidden, kernel_controls, sparsity_control

st.title("Sparse kernel PCA: greedy selection and deflation")
st.caption("Hussain & Shawe-Taylor (2008), Algorithm 1. Each step keeps the training point whose "
           "feature vector explains most of what is left of the kernel matrix, then removes it "
           "(deflation). Press ▶ Play under the figure, or move one step at a time.")

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


choice = data_controls()
if choice is None:
    st.stop()
kern = kernel_controls()
d = cached.load_data(choice)
with st.sidebar:
    test = 0.3 if "test" in hidden() else float(control(
        st.slider, "test", "Test fraction", 0.3, cast=float, min_value=0.1, max_value=0.5, step=0.05))
m_train = d.n_samples - int(round(test * d.n_samples))
K_MAX = min(m_train, 100)  # one run of K_MAX steps serves every k on the slider
k = sparsity_control(k_max=K_MAX, default=20)
with st.sidebar:
    trick = control(st.toggle, "skpca.trick", "59-trick (random candidates, large m)", False,
                    cast=lambda s: s == "True",
                    help="Score only 59 random candidates per step (Smola & Schoelkopf): the best "
                         "of 59 is in the top 5% with probability 0.95. Never forms K.")
    speed = control(st.select_slider, "skpca.speed", "Play speed (frames/s)", 8, cast=int,
                    options=(1, 2, 4, 6, 8, 12))
    st.subheader("Break it")
preset_links({name: values for name, (values, _) in PRESETS.items()}, marker_key="skpca.preset")

cand = 59 if trick else None
try:
    view = cached.skpca_view(choice, kern, test, K_MAX, cand)
    fig = cached.skpca_figure(choice, kern, test, K_MAX, cand)
except ValueError as exc:
    st.error(str(exc))
    st.stop()

steps = view["steps"][:k]
n_steps = len(steps)
if st.query_params.get("skpca.preset") in PRESETS:
    st.info(PRESETS[st.query_params["skpca.preset"]][1])
if n_steps < k:
    st.warning(f"Stopped early after {n_steps} of k = {k} steps: every residual diagonal is "
               f"below 1e-10 × max K_ii, so the chosen points already span the data in feature "
               f"space (the kernel matrix has numerical rank {n_steps}).")
if "skpca.step" not in st.session_state:
    st.session_state["skpca.step"] = int(st.query_params.get("j", 1)) if str(
        st.query_params.get("j", "1")).isdigit() else 1


def _move(delta):
    st.session_state["skpca.step"] = min(max(st.session_state["skpca.step"] + delta, 1), n_steps)
    st.query_params["j"] = str(st.session_state["skpca.step"])


@st.fragment
def stepper():
    """Step / Back / Reset rerun only this part: the figure and the equations."""
    st.session_state["skpca.step"] = min(max(st.session_state["skpca.step"], 1), n_steps)
    c1, c2, c3, c4 = st.columns([1, 1, 1, 3])
    c1.button("◀ Back", on_click=_move, args=(-1,), key="skpca.back", width="stretch")
    c2.button("Step ▶", on_click=_move, args=(1,), key="skpca.next", width="stretch")
    c3.button("⟲ Reset", on_click=_move, args=(-n_steps,), key="skpca.reset_step", width="stretch")
    j = st.session_state["skpca.step"]
    c4.markdown(f"### Step {j} of {n_steps}")
    left, right = st.columns([5, 2])
    with left:
        # prevalidated: the cached figure was validated when built; skip it on every Step
        st.plotly_chart(prevalidated(cut_animation(fig, n_steps, j, frame_ms=int(1000 / speed))),
                        key="skpca.fig", config={"displaylogo": False}, theme=None)
        if view["heat_note"]:
            st.caption(view["heat_note"])
        st.caption("▶ Play animates in the browser; the equations on the right follow the "
                   "Step buttons.")
    s = steps[j - 1]
    before = s.trace_residual + s.quotients[s.index]
    with right:
        st.markdown("**Greedy choice (Eq. 2)**")
        st.latex(r"i_j=\arg\max_i \frac{e_i'\hat K^2 e_i}{e_i'\hat K e_i}")
        st.latex(rf"i_{{{j}}}={s.index},\quad \rho_{{{s.index}}}={s.quotients[s.index]:.4g}")
        st.markdown("**Deflation (Eq. 3)**")
        st.latex(r"\hat K\leftarrow \hat K-\frac{\hat K e_i e_i'\hat K}{e_i'\hat K e_i}")
        st.markdown("**Trace drop = quotient (Theorem 1)**")
        st.latex(rf"\operatorname{{tr}}\hat K_{{{j - 1}}}-\operatorname{{tr}}\hat K_{{{j}}}"
                 rf"={before:.4g}-{s.trace_residual:.4g}")
        st.latex(rf"={s.quotients[s.index]:.4g}=\rho_{{{s.index}}}")
        st.markdown("**Nyström approximation (Eq. 5)**")
        st.latex(r"\tilde K=K[:,\mathbf i]\,K[\mathbf i,\mathbf i]^{-1}K[\mathbf i,:]")
        st.caption(f"Chosen so far: {', '.join(str(t.index) for t in steps[:j])}")


stepper()

click_to_add(choice, key="skpca.add")

table = pd.DataFrame({"step": [t.step for t in steps], "index": [t.index for t in steps],
                      "quotient": [t.quotients[t.index] for t in steps],
                      "trace_residual": [t.trace_residual for t in steps]})
cand = ", n_candidates=59, random_state=%d" % choice.seed if trick else ""
snippet = (f"from mpcore.skpca import SparseKPCA\n{data_snippet(choice)}\n"
           f"{split_snippet(choice, test, cached.stratified(choice, test), d.y is not None)}\n"
           f"model = SparseKPCA({k}, {kernel_kwargs(kern)}{cand}).fit(X_tr)\n"
           f"print(model.indices_, model.trace_residuals_)")
page_footer(snippet=snippet, table=table, name="skpca_steps",
            page_controls=["dataset", "n", "noise", "seed", "kernel", "sigma", "k", "test",
                           "skpca.trick", "skpca.speed"])
