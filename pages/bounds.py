import streamlit as st

st.title("bounds")
st.info("This page is being built.")
