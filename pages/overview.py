"""Home: what matching pursuit is, a map of the pages, the papers."""

import streamlit as st

import pages.common  # noqa: F401  (first, for its legacy-mode guard)
from pages.common.hall_follow import hall_follow

hall_follow("home")

st.title("Matching pursuit in kernel methods")
st.markdown("#### An interactive companion to sparse kernel PCA, kernel matching pursuit and their bounds")

st.markdown(
    """
**Matching pursuit** builds an approximation one piece at a time. At every step it looks through a
dictionary of candidates, keeps the one that best matches what is still unexplained (the *residual*),
and removes that part before looking again. The result is *sparse*: a handful of chosen pieces
instead of a combination of everything.

**In kernel methods** the candidates are the training points themselves, seen through a kernel
$\\kappa(x, z)$. Sparse kernel PCA keeps the point whose feature vector explains most of the kernel
matrix (the largest Rayleigh quotient $e_i'K^2e_i / e_i'Ke_i$) and *deflates* $K$; kernel matching
pursuit keeps the kernel function $\\kappa(x_i,\\cdot)$ most collinear with the regression or
classification residual. Either way the model is described by the few chosen points.

**Why it matters**: the chosen points form a *compression set*, and that gives generalisation bounds
that depend on how few points were needed, tighter than the classical kernel-PCA bound. These pages
let you watch the greedy choices, compare them with exact eigen-decompositions and SVMs, and check
the bounds against held-out error.
"""
)

st.subheader("Start here")
# a short label: a page link's label does not wrap, and a phone would cut a longer one
st.page_link("pages/learn.py", label="New here? Start with lesson 1",
             icon=":material/school:", query_params={"lesson": "kernel-matrix", "beat": "1"})
st.caption("Lesson 1, the kernel matrix: guided, about 10 minutes. Lecturers: open a lesson, turn "
           "on Presentation mode and teach beat by beat with the arrow keys; each beat's address "
           "can be shared.")
c1, c2, c3 = st.columns(3)
c1.page_link("pages/skpca.py", label="See sparse KPCA pick its basis", icon=":material/target:")
c2.page_link("pages/kmp.py", label="Fit kernel matching pursuit", icon=":material/show_chart:")
c3.page_link("pages/bounds.py", label="Compare the bounds", icon=":material/straighten:")

st.subheader("Map of the pages")
st.markdown(
    """
| page | what you see |
| --- | --- |
| **Sparse KPCA: greedy selection** | Algorithm 1 step by step: Rayleigh quotients, the chosen point, the deflated kernel draining, trace residual against exact KPCA |
| **Kernel matching pursuit** | basic, back-fitting and pre-fitting KMP: decision surfaces growing step by step, against an SVM; losses of the margin |
| **Approximate vs exact eigenvalues** | Nyström (greedy, random, Cholesky pivots) and Marukatat's sketched empirical kernel map against the exact spectrum |
| **Sparse kernel CCA** | greedy choices on two views of one latent variable; canonical correlations as basis functions are added |
| **Bounds: compression vs KPCA** | the sample-compression bound (Corollary 1) against the kernel-PCA bound (Theorem 6.14) and the test residual |
| **Reproduce the papers** | every figure and table of the sources, rebuilt here, next to the published numbers |
"""
)

st.subheader("Papers")
st.markdown(
    """
1. Z. Hussain, J. Shawe-Taylor. *Theory of matching pursuit.* NIPS 2008.
2. P. Vincent, Y. Bengio. *Kernel matching pursuit.* Machine Learning 48, 2002.
3. S. Marukatat. *Kernel matrix decomposition via empirical kernel map.* Pattern Recognition Letters, 2016.
4. J. Shawe-Taylor, N. Cristianini. *Kernel Methods for Pattern Analysis.* Cambridge University Press, 2004.
"""
)
st.caption("Every control is kept in the page address: copy the link to share exactly what you see. "
           "Each page ends with the Python code that reproduces it with the `mpcore` package.")
