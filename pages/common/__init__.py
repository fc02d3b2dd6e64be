"""Streamlit-only helpers shared by the pages (never pages themselves).

Importing this package also guards against Streamlit's legacy multipage mode:
a server whose very first visitor opens a deep link (``/skpca``) before anyone
has opened ``/`` runs ``pages/skpca.py`` directly, without ``app.py`` (its
``st.navigation`` has not run yet in that process). The guard runs ``app.py``
instead, which installs the real navigation and then runs the page asked for.
"""

from __future__ import annotations

import runpy
from pathlib import Path

import streamlit as st


def _legacy_mode() -> bool:
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:  # pragma: no cover - a future Streamlit without the legacy mode
        return False
    return bool(getattr(PagesManager, "uses_pages_directory", False))


if _legacy_mode():
    runpy.run_path(str(Path(__file__).resolve().parents[2] / "app.py"), run_name="__main__")
    st.stop()
