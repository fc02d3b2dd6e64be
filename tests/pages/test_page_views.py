"""Each page keeps its own view across page switches (AppTest): the shared widget keys
(dataset, sigma, ...) hold the view of the page drawn last, never another page's."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apptest_util import address, assert_clean, open_app_page

pytestmark = pytest.mark.slow


def _switch(at, page):
    at.switch_page(page)
    at.query_params.clear()  # the sidebar's link is the page's bare address
    at.run()
    assert_clean(at)


def _reset_notes(at) -> list[str]:
    return [i.value for i in at.info if "Reset to the new defaults" in i.value]


@pytest.mark.parametrize("other", ["pages/kmp.py", "pages/bounds.py"])
def test_sparse_kpca_keeps_its_view_after_another_page(other):
    at = open_app_page("pages/skpca.py", {"dataset": "circles", "n": 60, "sigma": 1.5, "j": 4})
    assert_clean(at)
    left = address(at)
    assert (left["dataset"], left["sigma"], left["j"]) == ("circles", "1.5", "4")
    _switch(at, other)
    assert address(at)["dataset"] != "circles" or address(at)["sigma"] != "1.5"
    _switch(at, "pages/skpca.py")
    assert address(at) == left
    assert not _reset_notes(at)


def test_the_reset_note_follows_a_data_set_change_made_on_the_page():
    at = open_app_page("pages/skpca.py", {"dataset": "circles", "n": 60})
    at.selectbox(key="dataset").set_value("moons").run()
    assert_clean(at)
    assert address(at)["dataset"] == "moons"
    assert _reset_notes(at), [i.value for i in at.info]
    _switch(at, "pages/kmp.py")
    at.selectbox(key="dataset").set_value("circles").run()
    _switch(at, "pages/skpca.py")
    assert address(at)["dataset"] == "moons"
    assert not _reset_notes(at)


PAGES = {"skpca": "pages/skpca.py", "kmp": "pages/kmp.py", "spectrum": "pages/spectrum.py"}


@settings(max_examples=6, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(walk=st.lists(st.tuples(st.sampled_from(sorted(PAGES)),
                               st.sampled_from(["circles", "moons", "xor", None])),
                     min_size=4, max_size=6))
def test_any_walk_over_pages_finds_each_view_as_it_was_left(walk):
    """Switch pages in any order, changing the data set on some: each page comes back as it
    was left, and only a change made on the page itself brings the reset note."""
    at = open_app_page(None)
    left: dict = {}
    for page, dataset in walk:
        _switch(at, PAGES[page])
        if page in left:
            assert address(at) == left[page], (page, walk)
            assert not _reset_notes(at)
        if dataset is not None and address(at).get("dataset") != dataset:
            at.selectbox(key="dataset").set_value(dataset).run()
            assert_clean(at)
            assert address(at)["dataset"] == dataset
        left[page] = address(at)
