"""Entry point: page config and navigation only (the pages live in pages/)."""

import streamlit as st

from pages.common.charts import preload_plotly
from pages.common.fit import fit_text
from pages.common.history import history_end, history_start
from pages.common.run_slots import full_run_slot

#: The tab's icon, a target, drawn here: Streamlit fetches a ":material/...:" page icon from
#: fonts.gstatic.com (nothing in a hall without internet; a third party's request otherwise),
#: while an SVG is sent to the browser inline with the page.
TAB_ICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
            '<g fill="none" stroke="#FF4B4B" stroke-width="11">'
            '<circle cx="50" cy="50" r="42"/><circle cx="50" cy="50" r="21"/></g>'
            '<circle cx="50" cy="50" r="7" fill="#FF4B4B"/></svg>')

st.set_page_config(page_title="Matching pursuit in kernel methods", page_icon=TAB_ICON,
                   layout="wide", initial_sidebar_state="auto")

pg = st.navigation({
    "Learn": [
        st.Page("pages/learn.py", title="Learn: guided lessons", icon=":material/school:", url_path="learn"),
    ],
    "Foundations": [
        st.Page("pages/overview.py", title="Home", icon=":material/home:", default=True),
        st.Page("pages/skpca.py", title="Sparse KPCA: greedy selection", icon=":material/target:", url_path="skpca"),
    ],
    "Matching pursuit": [
        st.Page("pages/kmp.py", title="Kernel matching pursuit", icon=":material/show_chart:", url_path="kmp"),
        st.Page("pages/spectrum.py", title="Approximate vs exact eigenvalues", icon=":material/bar_chart:",
                url_path="spectrum"),
        st.Page("pages/kcca.py", title="Sparse kernel CCA", icon=":material/link:", url_path="kcca"),
    ],
    "Theory": [
        st.Page("pages/bounds.py", title="Bounds: compression vs KPCA", icon=":material/straighten:", url_path="bounds"),
        st.Page("pages/reproduce.py", title="Reproduce the papers", icon=":material/description:", url_path="reproduce"),
    ],
})
with full_run_slot():
    with st.sidebar:  # equations scale to their column, labels wrap (no element in the page
        # body); plotly.js starts loading, while a chart page computes or while Home is read
        preload_plotly()
        fit_text()
        history_start()  # one browser-history entry per view seen settle
    pg.run()
    with st.sidebar:
        history_end()
