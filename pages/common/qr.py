"""A QR code of a link, as SVG, large enough to project in a lecture hall.

Students point a phone at the projected code and open the lecturer's current view
(the page's share link). The code is made by segno (pure Python, no dependencies,
ISO/IEC 18004) with error correction level M or better (segno raises it when the
version allows, ``boost_error``), a quiet zone of 4 modules (the standard's minimum)
and black on white, the contrast a camera reads from the back row.

No Streamlit import: a page shows the SVG with ``st.image`` or ``st.html`` and may
offer it with ``st.download_button(..., mime="image/svg+xml")``.
"""

from __future__ import annotations

import io

__all__ = ["qr_svg", "QUIET_ZONE"]

#: Light modules around the code (ISO/IEC 18004 asks for at least 4).
QUIET_ZONE = 4


def qr_svg(url: str, *, scale: int = 12, border: int = QUIET_ZONE,
           title: str | None = None) -> str:
    """An SVG document of the QR code of ``url``.

    Parameters
    ----------
    url : str
        The link (any text; a share link of the app is about 60 to 300 characters).
    scale : int
        Pixels per module of the SVG's own size (12: a 100-character link, version 6
        with 41 + 8 modules, is 588 px wide; a 300-character one 924 px). The SVG has a ``viewBox``, so CSS may
        show it at any size without blurring.
    border : int
        Quiet zone in modules (at least :data:`QUIET_ZONE`).
    title : str, optional
        The SVG's ``<title>`` (its accessible name); default "QR code of the link <url>".

    Returns
    -------
    str
        ``<svg ...>...</svg>`` without an XML declaration (embeddable in HTML as is),
        with ``role="img"``, ``width``/``height`` and a ``viewBox``.

    Raises
    ------
    ValueError
        An empty link, a scale below 1, a quiet zone below 4, or a link too long for
        a QR code (about 2,300 characters at level M).
    """
    import segno

    if not isinstance(url, str) or not url:
        raise ValueError("qr_svg needs a non-empty link")
    scale, border = int(scale), int(border)
    if scale < 1:
        raise ValueError(f"scale must be at least 1 (got {scale})")
    if border < QUIET_ZONE:
        raise ValueError(f"the quiet zone must be at least {QUIET_ZONE} modules (got {border})")
    try:
        code = segno.make(url, error="m", micro=False, boost_error=True)
    except segno.DataOverflowError as exc:
        raise ValueError(f"the link is too long for a QR code ({len(url)} characters)") from exc
    buf = io.BytesIO()
    # segno escapes the title; no class names, no XML declaration
    code.save(buf, kind="svg", scale=scale, border=border, dark="#000000", light="#ffffff",
              xmldecl=False, svgclass=None, lineclass=None,
              title=title if title is not None else f"QR code of the link {url}")
    svg = buf.getvalue().decode("utf-8")
    width, height = code.symbol_size(scale=scale, border=border)
    return svg.replace(
        "<svg ",
        f'<svg viewBox="0 0 {width} {height}" role="img" shape-rendering="crispEdges" ', 1)
