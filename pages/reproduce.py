import streamlit as st

st.title("reproduce")
st.info("This page is being built.")
