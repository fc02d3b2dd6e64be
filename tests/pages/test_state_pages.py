"""Any string in any URL field of any page, hidden or not: the page runs cleanly (AppTest).

The pure property tests (test_state.py) show every such link parses into a
valid state; here the page itself is opened with it, as a student following a
broken or hostile classroom link would, and must show no exception. Values
the validator changed are explained in an st.info note.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apptest_util import address, open_app_page
from pages.common.schemas import ALL_SCHEMAS, reproduce_schema
from test_state import URL_TEXT

pytestmark = pytest.mark.slow

SCHEMAS = {**ALL_SCHEMAS, "reproduce": reproduce_schema()}
#: Small sizes so that each example draws in about a second.
BASE = {"skpca": {"n": "60", "k": "6"}, "kmp": {"n": "60", "k": "5"},
        "spectrum": {"dataset": "moons", "n": "60"}, "kcca": {"kcca.n": "60"},
        "bounds": {"dataset": "moons", "n": "60", "bounds.kmax": "8"}, "reproduce": {}}
#: Fields whose any value makes the run large (kept to their small base value when a large
#: value would only measure the machine, not the validation: the caps are tested in
#: test_state.py::test_sizes_are_capped_by_the_schema).
SIZES = {"n", "kcca.n", "k", "bounds.kmax", "spectrum.q", "dataset", "reproduce.size"}


@pytest.mark.parametrize("page", list(SCHEMAS))
@settings(max_examples=4, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_link_value_gives_a_clean_page(page, data):
    schema = SCHEMAS[page]
    keys = [k for k in schema.keys if k not in SIZES]
    key = data.draw(st.sampled_from(keys), label="field")
    raw = data.draw(URL_TEXT, label="value")
    hide = data.draw(st.booleans(), label="hidden")
    params = {**BASE[page], key: raw}
    if hide:
        params["hide"] = key
    at = open_app_page(f"pages/{page}.py", params=params)
    assert not at.exception, [(e.value, e.stack_trace) for e in at.exception]
    state, notes = schema.from_query(address(at))
    assert notes == []  # the page rewrote the link into a complete, valid one
    if hide and key in state and schema[key].widget != "none":
        assert key in state.hidden
        assert not [w for w in at.main if getattr(w, "key", None) == key]


@pytest.mark.parametrize("page", [p for p in SCHEMAS if p != "reproduce"])
def test_every_size_field_is_capped_on_the_page(page):
    """The largest values a link can ask for are refused with a note, and the page runs."""
    schema = SCHEMAS[page]
    params = dict(BASE[page])  # the data stay small: n's own cap is tested in test_state.py
    for key in ("k", "bounds.kmax", "spectrum.q", "spectrum.n_eig", "kcca.k"):
        if key in schema:
            params[key] = "1e12"
    at = open_app_page(f"pages/{page}.py", params=params)
    assert not at.exception, [e.value for e in at.exception]
    assert any("outside" in i.value for i in at.info), [i.value for i in at.info]


def test_pages_are_declared():
    pages = {p.stem for p in (Path(__file__).resolve().parents[2] / "pages").glob("*.py")}
    # Home and Learn have no view state of their own (Learn shows the other pages' states)
    assert set(SCHEMAS) == pages - {"overview", "learn", "__init__"}
