"""The sparse-KPCA page's "Break it" presets under AppTest: each is a complete link, opens
in a fresh session, explains itself, and matches mpcore's run on the same data."""

from __future__ import annotations

import html
import re

import pytest
from apptest_util import REPO_ROOT
from skpca_apptest import (SKPCA, assert_matches_mpcore, counter, exception_texts, open_page,
                           page_settings, reference_steps)


def _presets():
    src = (REPO_ROOT / SKPCA).read_text()
    return re.findall(r'^    "([^"]+)": \(dict\(', src, flags=re.M)


def preset_links(at) -> dict:
    """Sidebar "Break it" links: name -> query parameters of the link."""
    from urllib.parse import parse_qsl

    out = {}
    for m in at.markdown:
        for href, name in re.findall(r'<a href="\?([^"]*)"[^>]*>([^<]*)</a>', m.value):
            params = dict(parse_qsl(html.unescape(href), keep_blank_values=True))
            if "dataset" in params:
                out[html.unescape(name)] = params
    return out


def test_every_preset_link_is_tested():
    """Each preset is a complete link: every field of the page's state is in it."""
    from pages.common.schemas import SKPCA as SCHEMA

    links = preset_links(open_page())
    assert links and sorted(links) == sorted(_presets())
    for params in links.values():
        state, notes = SCHEMA.from_query(params)
        assert notes == [] and set(params) == set(state)


@pytest.mark.slow
def test_preset_explanation_goes_when_the_view_changes():
    """The "Break it" note is shown only while the view still matches the preset."""
    at = open_page(params=preset_links(open_page())["Width too small"])
    assert len(at.info) == 1
    at.button(key="skpca.next").click().run()  # stepping keeps the preset's view
    assert len(at.info) == 1
    at.select_slider(key="sigma").set_value(0.5).run()
    assert not at.exception and len(at.info) == 0, [i.value for i in at.info]


@pytest.mark.slow
@pytest.mark.parametrize("preset", _presets())
def test_break_it_preset_renders_and_explains(preset):
    """A preset is a link: open its address in a fresh session, as a click does."""
    at = open_page(params=preset_links(open_page())[preset])
    assert not at.exception, exception_texts(at)
    assert not at.error, [e.value for e in at.error]
    infos = [i.value for i in at.info]
    assert len(infos) == 1 and len(infos[0]) > 40, infos
    s = page_settings(at)
    ref = reference_steps(s)
    assert_matches_mpcore(at, ref)
    warnings = [w.value for w in at.warning]
    assert counter(at)[1] == len(ref) <= s["k"]
    if preset in ("Duplicate points", "Rank-deficient kernel"):
        assert any("Stopped early" in w for w in warnings), warnings
        # rank K <= number of distinct points (blobs without noise: 3 centres) or the
        # feature dimension (linear kernel on 2-D data): greedy deflation stops there
        bound = 3 if preset == "Duplicate points" else 2
        assert counter(at)[1] == len(ref) <= bound < s["k"]
        assert str(len(ref)) in next(w for w in warnings if "Stopped early" in w)
    elif len(ref) < s["k"]:  # any early stop must say so
        assert any("Stopped early" in w for w in warnings), warnings
