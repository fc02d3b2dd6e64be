"""Every page with a figure shows its "What am I looking at?" (AppTest, no browser), and the
eigenvalue page its verdict."""

from __future__ import annotations

import pytest

from apptest_util import assert_clean, open_app_page
from pages.common.explain import LABEL
from pages.common.schemas import KMP_TABS

SMALL = dict(dataset="moons", n=80)
PAGES = [("pages/skpca.py", SMALL, 1), ("pages/kmp.py", SMALL, 1), ("pages/spectrum.py", SMALL, 3),
         ("pages/kcca.py", None, 1), ("pages/bounds.py", SMALL, 1), ("pages/reproduce.py", None, 1)]


@pytest.mark.parametrize("page, params, at_least", PAGES, ids=[p for p, _, _ in PAGES])
def test_the_page_explains_its_figures(page, params, at_least):
    at = open_app_page(page, params=params)
    assert_clean(at)
    boxes = [e for e in at.expander if e.label == LABEL]
    assert len(boxes) >= at_least
    for box in boxes:
        text = box.markdown[0].value
        assert text.startswith("- ") and text.count("\n- ") >= 2, text[:200]
    if page == "pages/spectrum.py":
        verdict = [m.value for m in at.markdown if m.value.startswith("**Verdict on this run**")]
        assert len(verdict) == 1
        assert "Most accurate" in verdict[0] and "Fastest" in verdict[0]


@pytest.mark.parametrize("tab, names", [
    (KMP_TABS[1], ("class 0:", "basis points / support vectors (circled):",
                   "decision value f(x):")),
    (KMP_TABS[2], ("training error:", "test error:", "Theorem 3 bound:", "bound stop at k = ",
                   "validation stop at k = "))])
def test_the_kmp_tabs_explain_their_figures(tab, names):
    at = open_app_page("pages/kmp.py", params=dict(SMALL, **{"kmp.tab": tab}))
    assert_clean(at)
    text = "\n".join(e.markdown[0].value for e in at.expander if e.label == LABEL)
    # shown literally: the Markdown escapes are the only difference
    plain = text.replace("\\", "")
    for name in names:
        assert name in plain, (name, plain[:800])
