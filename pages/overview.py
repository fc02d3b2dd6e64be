import streamlit as st

st.title("Matching pursuit in kernel methods")
st.write("An interactive companion to sparse kernel PCA and kernel matching pursuit.")
