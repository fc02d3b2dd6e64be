import streamlit as st

st.title("kcca")
st.info("This page is being built.")
