"""The contrast arithmetic the accessibility checks use (WCAG 2.1, 1.4.3).

The checks themselves (axe-core and the contrast of every plot text, on every page)
run in a real browser in tests/browser/test_browser_layout.py, on the page it opens at 1280 px;
see tests/browser/a11y.py for what they cover and what remains inside Streamlit's own markup.
"""

from __future__ import annotations

import pytest
from a11y import contrast, needed


def test_contrast_helpers():
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast((0x76, 0x76, 0x76), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)
    assert contrast((0x80, 0x84, 0x95), (255, 255, 255)) < 4.5  # Streamlit's chart grey
    assert needed(17, 400) == 4.5 and needed(19, 700) == 3.0 and needed(24, 400) == 3.0
