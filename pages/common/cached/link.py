"""Cache of the classroom link's QR code (pages.common.qr)."""

from __future__ import annotations

from ..qr import qr_svg as _qr_svg
from .base import ENTRIES, TTL, cache_data


@cache_data(max_entries=4 * ENTRIES, ttl=TTL, show_spinner=False)
def qr_svg(url: str) -> str:
    """pages.common.qr.qr_svg, drawn once per link for every session that shows it (a
    hall of students opening the lecturer's link)."""
    return _qr_svg(url)
