"""Entry point: page config and navigation only (pages live in pages/)."""

import streamlit as st

st.set_page_config(page_title="Matching pursuit in kernel methods", page_icon="🎯", layout="wide")

pg = st.navigation({"Foundations": [st.Page("pages/overview.py", title="Home", default=True)]})
pg.run()
