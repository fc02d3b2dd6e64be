import streamlit as st

st.title("spectrum")
st.info("This page is being built.")
