"""What each page shows, computed without Streamlit.

The layer between the core (:mod:`mpcore`, :mod:`datasets`, :mod:`mpcore.plots`)
and the pages: pure functions that take small arguments (a data set, index
arrays, a :class:`~views.data.KernelChoice`) and return arrays, step lists,
fitted models and figures. ``pages/common/cached.py`` wraps each in
``st.cache_data``; tests call them directly, in milliseconds, without AppTest.
The experiments (:mod:`experiments`) use the same functions, so a figure of a
paper and the page that teaches it compute one thing in one place.

``views`` imports mpcore, mpcore.plots, datasets, numpy, scipy and
scikit-learn, never streamlit.

Modules: :mod:`views.data` (choices, loading, the seeded split),
:mod:`views.skpca`, :mod:`views.bounds`, :mod:`views.kmp`,
:mod:`views.spectrum`, :mod:`views.kcca`.
"""
