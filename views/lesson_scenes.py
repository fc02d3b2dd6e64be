"""Which scene computes a lesson beat's view, by the page the beat shows (no Streamlit).

A scene is a page's computation in one state, from the state's field values: the numbers
its figure draws and what the lesson questions of that page ask about. ``k_max`` is the
most steps the page runs (the sparse-KPCA page's k slider); pages without steps ignore it.
"""

from __future__ import annotations

from collections.abc import Mapping

from .lesson_scene import skpca_scene
from .lesson_scene_bounds import bounds_scene
from .lesson_scene_kmp import kmp_scene
from .lesson_scene_spectrum import spectrum_scene

__all__ = ["SCENES", "page_scene"]

SCENES = {"skpca": skpca_scene, "kmp": kmp_scene, "bounds": bounds_scene,
          "spectrum": spectrum_scene}


def page_scene(page: str, values: Mapping, k_max: int = 0):
    """The scene of ``page`` in the state ``values`` (KeyError for a page without one)."""
    return SCENES[page](values, k_max)
