"""The QR code of a link (pages.common.qr.qr_svg).

The SVG is checked as XML (well-formed, nothing active in it, a quiet zone, a
viewBox), then read back three ways:

1. its path is parsed back into the module matrix and compared with segno's own
   ``.matrix`` of a second, independent encoding of the same link (always runs);
2. that matrix, drawn as pixels, is decoded with OpenCV's QR reader
   (``opencv-python-headless``, a test-only dependency: skipped if missing locally);
3. in a browser: Debian's chromium renders the SVG itself and OpenCV decodes the
   screenshot (marked ``browser``).

Each decode must give back the link exactly.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from pages.common.qr import QUIET_ZONE, qr_svg

SVG = "{http://www.w3.org/2000/svg}"
LINKS = [
    "http://127.0.0.1:8501/skpca?n=80&k=10&j=3",
    "https://lecture.example.org/kmp?dataset=moons&n=200&noise=0.2&kernel=rbf&sigma=1&loss=squared"
    "&n_basis=30&j=12&test=0.25&seed=0&speed=3",
    "http://x/a?q=<b>&c=\"quoted\"&d='single'&e=ü",
]


def _matrix_from_svg(svg: str) -> tuple[np.ndarray, int]:
    """The dark modules drawn by the SVG's path (segno's writer: M/m moves and h runs on
    rows at y + 0.5, in module units under ``scale(s)``), and the scale."""
    root = ET.fromstring(svg)
    g = root.find(f"{SVG}g")
    scale = int(re.fullmatch(r"scale\((\d+)\)", g.get("transform")).group(1))
    width = int(root.get("width")) // scale
    dark = [p for p in g.findall(f"{SVG}path") if p.get("stroke")]
    assert len(dark) == 1
    tokens = re.findall(r"([A-Za-z])([-\d.]+)(?:\s+([-\d.]+))?", dark[0].get("d"))
    m = np.zeros((width, width), dtype=bool)
    x = y = 0.0
    for cmd, a, b in tokens:
        if cmd == "M":
            x, y = float(a), float(b)
        elif cmd == "m":
            x, y = x + float(a), y + float(b)
        elif cmd == "h":
            n = float(a)
            m[int(y - 0.5), int(x): int(x + n)] = True
            x += n
        else:
            raise AssertionError(f"unexpected path command {cmd!r}")
    return m, scale


def _decode(image: np.ndarray) -> str:
    import cv2  # opencv-python-headless, in requirements-dev.txt: a missing decoder fails


    text, points, _ = cv2.QRCodeDetector().detectAndDecode(image)
    assert points is not None, "no QR code found in the image"
    return text


@pytest.mark.parametrize("url", LINKS)
def test_well_formed_svg_with_nothing_active(url):
    svg = qr_svg(url)
    assert svg.startswith("<svg ") and svg.rstrip().endswith("</svg>")
    root = ET.fromstring(svg)  # raises on malformed XML (the & and < of a link are escaped)
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    assert root.find(f"{SVG}title").text == f"QR code of the link {url}"
    tags = {el.tag.replace(SVG, "") for el in root.iter()}
    assert tags <= {"svg", "title", "g", "path"}, tags  # no script, foreignObject, image, use
    for el in root.iter():
        for name, value in el.attrib.items():
            assert not name.lower().startswith("on"), name
            assert "href" not in name.lower() and "javascript:" not in value.lower()
    assert "<script" not in svg.lower()


@pytest.mark.parametrize("url", LINKS)
def test_large_enough_to_project_with_a_quiet_zone(url):
    import segno

    svg = qr_svg(url)
    root = ET.fromstring(svg)
    width, height = int(root.get("width")), int(root.get("height"))
    assert width == height and root.get("viewBox") == f"0 0 {width} {height}"
    modules = segno.make(url, error="m").symbol_size(scale=1, border=0)[0]
    assert width == (modules + 2 * QUIET_ZONE) * 12  # 12 px a module by default
    assert width >= 400
    m, _ = _matrix_from_svg(svg)
    q = QUIET_ZONE
    assert not m[:q].any() and not m[-q:].any() and not m[:, :q].any() and not m[:, -q:].any()
    # a larger scale is the same code, larger
    big = ET.fromstring(qr_svg(url, scale=20))
    assert int(big.get("width")) == width // 12 * 20


@pytest.mark.parametrize("url", LINKS)
def test_path_is_segnos_matrix_of_the_link(url):
    """Round trip without a decoder: the drawn modules equal segno's matrix of a second
    encoding of the same link (same version, level and mask)."""
    import segno

    drawn, scale = _matrix_from_svg(qr_svg(url, scale=7))
    assert scale == 7
    ref = segno.make(url, error="m", micro=False, boost_error=True)
    expected = np.pad(np.array(ref.matrix, dtype=bool), QUIET_ZONE)
    np.testing.assert_array_equal(drawn, expected)


@pytest.mark.parametrize("url", LINKS)
def test_decodes_back_to_the_link(url):
    drawn, _ = _matrix_from_svg(qr_svg(url))
    pixels = np.kron(~drawn, np.ones((8, 8), dtype=bool)).astype(np.uint8) * 255
    assert _decode(pixels) == url


def test_refuses_what_it_cannot_draw():
    with pytest.raises(ValueError):
        qr_svg("")
    with pytest.raises(ValueError):
        qr_svg("http://x", border=2)
    with pytest.raises(ValueError):
        qr_svg("http://x", scale=0)
    with pytest.raises(ValueError, match="too long"):
        qr_svg("http://x/" + "a" * 5000)


@pytest.mark.browser
def test_rendered_svg_decodes_in_a_browser(browser):
    """What a screen shows: chromium renders the SVG, OpenCV reads the screenshot."""
    import cv2  # opencv-python-headless, in requirements-dev.txt: a missing decoder fails


    url = LINKS[1]
    context = browser.new_context(viewport=dict(width=800, height=800))
    context.route("**/*", lambda r: r.abort())  # the SVG needs nothing from anywhere
    try:
        page = context.new_page()
        page.set_content(f"<!DOCTYPE html><body style='margin:0;background:#fff'>{qr_svg(url)}</body>")
        png = page.locator("svg").screenshot()
    finally:
        context.close()
    image = cv2.imdecode(np.frombuffer(png, dtype=np.uint8), cv2.IMREAD_GRAYSCALE)
    assert _decode(image) == url
