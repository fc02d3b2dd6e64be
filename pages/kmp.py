import streamlit as st

st.title("kmp")
st.info("This page is being built.")
