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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hst
from streamlit.runtime.scriptrunner_utils import script_run_context

from apptest_util import address as _address
from apptest_util import open_app_page
from pages.common.schemas import ALL_SCHEMAS, KCCA_REGS


def _history_flag(monkeypatch) -> dict:
    """Runs from now on carry ``flag["history"]`` as Streamlit's Back/Forward mark."""
    flag = {"history": False}
    real = script_run_context.get_script_run_ctx

    def ctx_of_run(*args, **kwargs):
        ctx = real(*args, **kwargs)
        if ctx is not None:
            ctx.is_history_navigation = flag["history"]
        return ctx

    monkeypatch.setattr(script_run_context, "get_script_run_ctx", ctx_of_run)
    return flag


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
    _history_flag(monkeypatch)["history"] = True
    _set_address(at, earlier)
    at.run()
    assert schema.from_query(_address(at))[0][key] == first
    assert _control(at, kind, key).value == first


# ---------------------------------------------------------------- any sequence (hypothesis)

#: What a browser can send: a change of τ with the address it has (the last one the page
#: wrote, or one written ``lag`` runs before), a Back/Forward move to any address the
#: page wrote, or an address the page never wrote (a seed it never had).
ACTIONS = hst.lists(hst.one_of(
    hst.tuples(hst.just("change"), hst.sampled_from(KCCA_REGS), hst.integers(0, 3)),
    hst.tuples(hst.just("history"), hst.integers(0, 20)),
    hst.tuples(hst.just("new"), hst.sampled_from(KCCA_REGS)),
), min_size=1, max_size=6)


@settings(max_examples=20, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(actions=ACTIONS)
def test_any_sequence_of_changes_moves_and_links_shows_what_the_address_says(actions,
                                                                           monkeypatch):
    """After every run the page's address, its τ control and its state agree, and they are
    the τ the person chose last (whatever address came with the change), the address a
    history move went to, or the address the page never wrote."""
    schema = ALL_SCHEMAS["kcca"]
    moving = _history_flag(monkeypatch)
    at = open_app_page("pages/kcca.py", params={"kcca.n": "60"})
    written = [_address(at)]
    expect = schema.from_query(written[-1])[0]
    for n, action in enumerate(actions):
        moving["history"] = action[0] == "history"
        if action[0] == "change":
            _, reg, lag = action
            _set_address(at, written[max(len(written) - 1 - lag, 0)])
            _control(at, "select_slider", "kcca.reg").set_value(reg)
            want = (expect["seed"], reg)
        elif action[0] == "history":
            target = written[action[1] % len(written)]
            _set_address(at, target)
            state = schema.from_query(target)[0]
            want = (state["seed"], state["kcca.reg"])
        else:
            seed = 1000 + n  # never written: the page's seeds so far are 0 or 1000 + an earlier n
            _set_address(at, dict(written[-1], seed=str(seed), **{"kcca.reg": str(action[1])}))
            want = (seed, action[1])
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        address = _address(at)
        expect, notes = schema.from_query(address)
        assert notes == []
        assert (expect["seed"], expect["kcca.reg"]) == want, (action, address)
        assert _control(at, "select_slider", "kcca.reg").value == want[1]
        written.append(address)
