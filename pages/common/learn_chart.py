"""A Learn beat's scene and chart, kept once for every session of the process.

A hall's followers all run the lecturer's beat at once after each move: the beat's scene,
its figure cut at the step shown, fitted to a projector or a phone, and the chart's JSON are
the same for every follower with the same window, so they are made once
(:mod:`pages.common.cached.shared`) and each run only sends them.
"""

from __future__ import annotations

from .cached import learn as cached
from .cached.shared import shared_cache
from .charts import figure_payload
from .figure_frames import cut_animation
from .phone import phone_figure
from .phone_panels import panels
from .presentation import fitted

__all__ = ["beat_panels", "beat_payload", "beat_scene"]

#: Beats in every state a hall or a class is at (a lesson has about ten; phones, projectors
#: and laptops each have their own chart of a beat).
ENTRIES = 256
#: The top row's axes, whose titles a short (projector) figure drops.
COMPACT = ("xaxis", "xaxis2", "xaxis3")
CONFIG = {"displaylogo": False}


@shared_cache(ENTRIES)
def beat_scene(query: tuple, k_max: int, page: str):
    """The beat's page computed in the state of its address (cached.learn.scene)."""
    return cached.scene(query, k_max, page)


@shared_cache(ENTRIES)
def _cut(query: tuple, k_max: int, page: str, k: int, j: int) -> dict:
    return cut_animation(beat_scene(query, k_max, page).figure(), k, j)


@shared_cache(ENTRIES)
def beat_panels(query: tuple, k_max: int, page: str, k: int, j: int) -> tuple[str, ...]:
    """The panels of the beat's figure (a phone's 'Panel' choices)."""
    return tuple(panels(_cut(query, k_max, page, k, j)))


@shared_cache(ENTRIES)
def beat_payload(query: tuple, k_max: int, page: str, k: int, j: int, height: int | None,
                 pick: str | None, narrow: bool, select: bool) -> bytes:
    """The chart component's data of the beat's figure: the first ``k`` steps opened at
    ``j``, ``height`` a projector's (None: the page's own), ``pick`` a phone's panel
    (pages.common.phone.phone_pick)."""
    fig = fitted(_cut(query, k_max, page, k, j), height, compact_axes=COMPACT)
    fig = phone_figure(fig, pick)
    return figure_payload(fig, config=CONFIG, select=select, narrow=narrow)
