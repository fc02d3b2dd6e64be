"""A control changed before the browser has taken the page's last address keeps the change.

Each run of a page writes its state into the address, and the browser sends its
address with every rerun. Two quick changes (a slider moved twice, faster than a
run) send the second change with the address from before the first one's run.
That older address is one the page wrote itself: it must not be taken for a new
link, or the page would show the first change while the address says the second
(a lecturer's link would then show the students another view). A back or forward
move in the browser's history, and an address the page never wrote, still set the
view (AppTest, kcca and skpca pages).
"""

from __future__ import annotations

import pytest
from streamlit.runtime.scriptrunner_utils import script_run_context

from apptest_util import open_app_page
from pages.common.schemas import ALL_SCHEMAS


def _address(at) -> dict:
    return {k: (v[-1] if isinstance(v, list) else v) for k, v in
            ((k, at.query_params[k]) for k in at.query_params)}


def _set_address(at, query: dict):
    for k in list(at.query_params):
        del at.query_params[k]
    for k, v in query.items():
        at.query_params[k] = v


CASES = {  # page, its small start, a control, two new values in turn
    "kcca": ("pages/kcca.py", {"kcca.n": "60"}, "select_slider", "kcca.reg", 0.01, 0.1),
    "skpca": ("pages/skpca.py", {"n": "60", "k": "6"}, "slider", "k", 5, 4),
}


def _control(at, kind, key):
    return next(w for w in getattr(at, kind) if w.key == key)


@pytest.mark.parametrize("name", list(CASES))
def test_a_change_sent_with_the_address_before_the_last_run_is_kept(name):
    page, start, kind, key, first, second = CASES[name]
    schema = ALL_SCHEMAS[name]
    at = open_app_page(page, params=start)
    before = _address(at)
    _control(at, kind, key).set_value(first)
    at.run()
    assert schema.from_query(_address(at))[0][key] == first
    # the browser has not yet taken the address of that run: the next change comes with
    # the one before it
    _set_address(at, before)
    _control(at, kind, key).set_value(second)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    state, notes = schema.from_query(_address(at))
    assert notes == []
    assert state[key] == second, (_address(at), before)
    assert _control(at, kind, key).value == second


@pytest.mark.parametrize("name", list(CASES))
def test_an_address_the_page_never_wrote_still_sets_the_view(name):
    page, start, kind, key, first, second = CASES[name]
    schema = ALL_SCHEMAS[name]
    at = open_app_page(page, params=start)
    _control(at, kind, key).set_value(first)
    at.run()
    new = dict(_address(at), **{key: str(second)})
    _set_address(at, new)
    at.run()
    assert schema.from_query(_address(at))[0][key] == second
    assert _control(at, kind, key).value == second


@pytest.mark.parametrize("name", list(CASES))
def test_back_in_the_browser_history_sets_the_view(name, monkeypatch):
    """The browser's Back button sends an address the page wrote before, marked as a
    history move: the view goes back to it."""
    page, start, kind, key, first, second = CASES[name]
    schema = ALL_SCHEMAS[name]
    at = open_app_page(page, params=start)
    _control(at, kind, key).set_value(first)
    at.run()
    earlier = _address(at)
    _control(at, kind, key).set_value(second)
    at.run()
    assert schema.from_query(_address(at))[0][key] == second
    real = script_run_context.get_script_run_ctx

    def history_move(*args, **kwargs):
        ctx = real(*args, **kwargs)
        if ctx is not None:
            ctx.is_history_navigation = True
        return ctx

    monkeypatch.setattr(script_run_context, "get_script_run_ctx", history_move)
    _set_address(at, earlier)
    at.run()
    assert schema.from_query(_address(at))[0][key] == first
    assert _control(at, kind, key).value == first
