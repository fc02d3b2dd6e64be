"""A student never changes what the lecturer's classroom link hides (AppTest).

- No preset link ("Break it", "Paper settings") that would change a hidden control is
  offered, for any set of hidden controls (hypothesis); the heading goes with its links.
- "Reset all controls" goes back to the link the student opened, not to the defaults.
- A hidden upload data set asks the student for the lecturer's file by its name.
- A section heading ("Data", "Kernel") is drawn only over controls that are shown.
"""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qsl, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apptest_util import address, assert_clean, open_app_page
from pages.common.fields import CSV
from pages.common.schemas import ALL_SCHEMAS

pytestmark = pytest.mark.slow

SMALL = {"skpca": {"n": "60", "k": "6"}, "kmp": {"n": "60", "k": "5"},
         "bounds": {"dataset": "moons", "n": "60", "bounds.kmax": "8"}}
HEADINGS = {"skpca": "Break it", "kmp": "Paper settings", "bounds": "Paper settings"}


def _preset_links(at) -> list[dict]:
    out = []
    for md in at.markdown:
        for href in re.findall(r'<a href="\?([^"]*)"[^>]*class="mp-preset"', md.value):
            out.append(dict(parse_qsl(unescape(href), keep_blank_values=True)))
    return out


def _subheaders(at) -> list[str]:
    return [h.value for h in at.subheader]


def _hideable(page) -> list[str]:
    return [k for k in ALL_SCHEMAS[page].controls() if k not in ("present",)]


@pytest.mark.parametrize("page", list(SMALL))
@settings(max_examples=5, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_offered_preset_changes_a_hidden_control(page, data):
    hide = data.draw(st.lists(st.sampled_from(_hideable(page)), unique=True, min_size=1,
                              max_size=4), label="hide")
    at = open_app_page(f"pages/{page}.py", {**SMALL[page], "hide": ",".join(hide)})
    assert_clean(at)
    now = address(at)
    links = _preset_links(at)
    for link in links:
        for key in set(hide) & set(now) | set(hide) & set(link):
            assert link.get(key) == now.get(key), (key, link, now)
        assert link.get("hide") == now.get("hide")
    assert (HEADINGS[page] in _subheaders(at)) == bool(links)


def test_the_width_preset_is_not_offered_when_data_and_kernel_are_hidden():
    at = open_app_page("pages/skpca.py", {**SMALL["skpca"], "dataset": "circles",
                                          "hide": "dataset,kernel,sigma"})
    assert_clean(at)
    assert all(link["dataset"] == "circles" and link["sigma"] == address(at)["sigma"]
               for link in _preset_links(at))
    full = open_app_page("pages/skpca.py", {**SMALL["skpca"], "dataset": "circles"})
    assert len(_preset_links(full)) > len(_preset_links(at))


def _reset_href(at) -> str:
    for md in at.markdown:
        m = re.search(r'<a href="([^"]*)" target="_self">⟲ Reset all controls', md.value)
        if m:
            return unescape(m.group(1))
    raise AssertionError("no reset link")


def test_reset_goes_back_to_the_classroom_link():
    link = {"dataset": "circles", "n": "60", "sigma": "1.5", "k": "6", "seed": "7",
            "hide": "dataset,sigma"}
    at = open_app_page("pages/skpca.py", link)
    at.slider(key="k").set_value(9).run()
    at.number_input(key="seed").set_value(3).run()
    assert_clean(at)
    assert address(at)["k"] == "9"
    back = dict(parse_qsl(urlsplit(_reset_href(at)).query))
    assert back == link
    # without hidden controls, the reset is still to the defaults
    plain = open_app_page("pages/skpca.py", {"dataset": "circles", "n": "60", "k": "6"})
    assert urlsplit(_reset_href(plain)).query == ""


def _uploaders(at):
    return at.get("file_uploader")


def test_a_hidden_upload_asks_for_the_lecturers_file_by_name():
    at = open_app_page("pages/skpca.py", {"dataset": CSV, "hide": "dataset",
                                          "file": "wine.csv", "target": "target"})
    assert_clean(at)
    labels = [u.proto.label for u in _uploaders(at)]
    assert any("wine.csv" in label for label in labels), labels
    assert any("wine" in i.value and "upload it" in i.value for i in at.info), [
        i.value for i in at.info]
    assert not [i for i in at.info if "Ignored unknown" in i.value]
    # and the page's address, rewritten, is the view (the name stays in the session)
    assert address(at)["dataset"] == CSV


def test_an_upload_link_without_a_name_still_asks_for_a_file():
    at = open_app_page("pages/skpca.py", {"dataset": CSV, "hide": "dataset"})
    assert_clean(at)
    assert _uploaders(at), "no uploader"


@pytest.mark.parametrize("page", ["skpca", "kmp", "spectrum", "bounds"])
def test_a_heading_is_drawn_only_over_shown_controls(page):
    schema = ALL_SCHEMAS[page]
    section, members = None, {}
    for f in schema.fields:
        section = f.section or section
        if f.widget not in ("none", "page") and section:
            members.setdefault(section, []).append(f.key)
    params = dict(SMALL.get(page, {"dataset": "moons", "n": "60"}))
    for name, keys in members.items():
        at = open_app_page(f"pages/{page}.py", {**params, "hide": ",".join(keys)})
        assert_clean(at)
        assert name not in _subheaders(at), (name, keys, _subheaders(at))
        shown = open_app_page(f"pages/{page}.py", params)
        assert name in _subheaders(shown)
