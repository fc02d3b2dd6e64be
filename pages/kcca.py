"""Sparse kernel CCA by matching pursuit: greedy choice of paired basis points, step by step."""

import pandas as pd
import streamlit as st

from mpcore.kernels import sigma_to_gamma
from mpcore.plots import kcca_start_frame, prevalidated
from pages.common import cached
from pages.common.share import page_footer
from pages.common.widgets import SHARED, SIGMAS, control, sparsity_control

st.title("Sparse kernel CCA: greedy choice of paired basis points")
st.caption("Hussain & Shawe-Taylor (2008), Section 4; regularised CCA as in Shawe-Taylor & "
           "Cristianini (2004), Computation 6.34. Two views of one latent variable z: view X puts z "
           "on an arc, view Y winds it twice round a circle. Each step keeps the training pair whose "
           "two feature vectors point most alike (the quotient), deflates both kernels, then runs "
           "CCA in the span of the pairs kept so far. Press ▶ Play, or move one step at a time.")

REGS = (1e-4, 1e-3, 1e-2, 0.1, 0.5)
with st.sidebar:
    st.subheader("Two-view data")
    n = int(control(st.slider, "kcca.n", "Number of pairs n", 300, cast=int, min_value=20,
                    max_value=1000, step=10))
    noise = float(control(st.slider, "kcca.noise", "Noise (std in each view)", 0.1, cast=float,
                          min_value=0.0, max_value=0.5, step=0.01))
    seed = int(control(st.number_input, "seed", SHARED["seed"][0], 0, cast=int, min_value=0,
                       max_value=10**6, step=1))
    test = float(control(st.slider, "test", "Held-out fraction", 0.3, cast=float,
                         min_value=0.1, max_value=0.5, step=0.05))
    st.subheader("Gaussian kernel in each view")
    sx = float(control(st.select_slider, "kcca.sigma_x", "Width σ of view X", 0.5, cast=float,
                       options=SIGMAS))
    sy = float(control(st.select_slider, "kcca.sigma_y", "Width σ of view Y", 0.5, cast=float,
                       options=SIGMAS))
    st.latex(r"\kappa(a,b)=e^{-\|a-b\|^2/2\sigma^2}")
    reg = float(control(st.select_slider, "kcca.reg", "Regularisation τ", 1e-3, cast=float,
                        options=REGS, help="Each view's covariance C becomes (1 − τ) C + τ I."))
    speed = control(st.select_slider, "kcca.speed", "Play speed (frames/s)", 8, cast=int,
                    options=(1, 2, 4, 6, 8, 12))
try:
    m_train = len(cached.kcca_data(n, noise, seed, test)["X"])
    k = sparsity_control(k_max=min(m_train, 60), default=15, key="kcca.k",
                         label="Basis pairs k")
    view = cached.kcca_view(n, noise, seed, test, sx, sy, reg, k)
    fig = cached.kcca_figure(n, noise, seed, test, sx, sy, reg, k, int(1000 / speed))
except ValueError as exc:
    st.error(str(exc))
    st.stop()

steps = view["steps"]
n_steps = len(steps)
if n_steps < k:
    st.warning(f"Stopped after {n_steps} of k = {k} pairs: every remaining point is already "
               "spanned in one of the views (its residual diagonal is below 1e-10 × max K_ii).")
st.session_state["kcca.step"] = min(max(st.session_state.get("kcca.step", 1), 1), n_steps)


def _move(delta):
    st.session_state["kcca.step"] = min(max(st.session_state["kcca.step"] + delta, 1), n_steps)


c1, c2, c3, c4 = st.columns([1, 1, 1, 3])
c1.button("◀ Back", on_click=_move, args=(-1,), key="kcca.back", width="stretch")
c2.button("Step ▶", on_click=_move, args=(1,), key="kcca.next", width="stretch")
c3.button("⟲ Reset", on_click=_move, args=(-n_steps,), key="kcca.reset_step", width="stretch")
j = st.session_state["kcca.step"]
c4.markdown(f"### Step {j} of {n_steps}")

s = steps[j - 1]
st.plotly_chart(prevalidated(kcca_start_frame(fig, j - 1)), key="kcca.fig",
                config={"displaylogo": False})
st.caption("Colour: the latent z. Rings: the chosen pairs, numbered in order, at the same index in "
           "both views. ▶ Play animates in the browser; the equations below follow the Step buttons.")
e1, e2, e3 = st.columns(3)
with e1:
    st.markdown("**Greedy choice (Section 4)**")
    st.latex(r"i_j=\arg\max_i\frac{e_i'\hat K_x\hat K_ye_i}"
             r"{\sqrt{e_i'\hat K_x^2e_i\;e_i'\hat K_y^2e_i}}")
    st.latex(rf"i_{{{j}}}={s.index},\quad \rho_{{{s.index}}}={s.quotients[s.index]:.4g}")
    st.caption("The cosine between column i of the deflated K_x and of K_y: large when point i "
               "has the same neighbours in both views.")
with e2:
    st.markdown("**Deflate both kernels (as Algorithm 1)**")
    st.latex(r"\hat K_x\leftarrow\hat K_x-\frac{\hat K_xe_ie_i'\hat K_x}{e_i'\hat K_xe_i}")
    st.latex(r"\hat K_y\leftarrow\hat K_y-\frac{\hat K_ye_ie_i'\hat K_y}{e_i'\hat K_ye_i}")
    st.caption(f"Chosen so far: {', '.join(str(t.index) for t in steps[:j])}")
with e3:
    st.markdown("**Regularised CCA in the span of the kept pairs**")
    st.latex(r"C_{xy}w_y=\rho\,\big((1-\tau)C_{xx}+\tau I\big)w_x")
    st.latex(r"C_{yx}w_x=\rho\,\big((1-\tau)C_{yy}+\tau I\big)w_y")
    st.latex(rf"\rho={view['rho'][j - 1]:.3f};\ \text{{corr: train}}\ {view['train'][j - 1]:.3f},"
             rf"\ \text{{test}}\ {view['test'][j - 1]:.3f}")

table = pd.DataFrame({
    "step": [t.step for t in steps], "index": [t.index for t in steps],
    "latent_z": [float(cached.kcca_data(n, noise, seed, test)["z"][t.index]) for t in steps],
    "quotient": [t.quotients[t.index] for t in steps],
    "regularised_rho": list(view["rho"]), "train_correlation": list(view["train"]),
    "test_correlation": list(view["test"])})
gx, gy = sigma_to_gamma(sx, "book"), sigma_to_gamma(sy, "book")
snippet = (f"from mpcore.kcca import SparseKCCA\n"
           f"X, Y, z = datasets.two_view(n_samples={n}, noise={noise!r}, random_state={seed})\n"
           f"tr, te = train_test_split(np.arange({n}), test_size={test!r}, random_state={seed})\n"
           f"model = SparseKCCA({k}, kernel_x='rbf', kernel_y='rbf', gamma_x={gx!r}, "
           f"gamma_y={gy!r}, reg={reg!r}).fit(X[tr], Y[tr])\n"
           f"print(model.indices_, model.correlation_path_, model.score(X[te], Y[te]))")
page_footer(snippet=snippet, table=table, name="kcca_steps",
            page_controls=["kcca.n", "kcca.noise", "seed", "test", "kcca.sigma_x",
                           "kcca.sigma_y", "kcca.reg", "kcca.k", "kcca.speed"])
