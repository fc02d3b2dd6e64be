"""The app's caches, one module per page (``from pages.common.cached import spectrum as
cached``): each a set of one-line ``st.cache_data`` wrappers around Streamlit-free functions
of :mod:`views`, :mod:`experiments` or :mod:`mpcore`. :mod:`.base` says how they are keyed
and bounded; :mod:`.data` holds what several pages share (the data, the split)."""

from pages.common.blas import limit_blas_threads

limit_blas_threads()
