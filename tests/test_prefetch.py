"""The eigenvalue page's next slider notch, computed ahead.

A slider stepped one way (the data set's size n, the kernel's width) is likely to step on, so
the page computes the next notch's view in a process of its own while the browser draws the
current one (pages.common.cached.prefetch_spectrum). What is checked here:

- which notch is next (pages.common.widgets.notch_after), for every slider position and move,
  by property tests;
- when views are computed ahead at all: one or two sessions on a real server, never for an
  upload, a data set over PREFETCH_MAX_M points, with MP_PREFETCH=0 or without a server's
  count (AppTest);
- that a view computed ahead (views.spectrum.view_parts) is, bit for bit, what the page's
  cached parts compute on request (the timings apart), and that the page stepped two notches
  with views computed ahead draws what a fresh session computing that view draws.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apptest_util import assert_clean, chart_elements, chart_spec, markdown_tables, open_app_page
from fuzz_util import N_EXAMPLES
from pages.common import cached
from pages.common.fields import SIGMAS
from pages.common.schemas import SPECTRUM
from pages.common.widgets import data_choice, kernel_choice, notch_after
from views import spectrum
from views.data import DataChoice, KernelChoice

PAGE = "pages/spectrum.py"
RUN_TIMEOUT = 180
#: Fields of a timing row that do not depend on the run's timing.
UNTIMED = ("method", "computes", "largest angle (°)", "vectors compared")


def _state(**values):
    state, _ = SPECTRUM.build({"dataset": "boston", **values})
    return state


# ---------------------------------------------------------------- which notch is next

N_LO, N_HI = (SPECTRUM["n"].at(bound, _state()) for bound in ("lo", "hi"))


@settings(max_examples=N_EXAMPLES, deadline=None)
@given(old=st.integers(N_LO, N_HI), step=st.integers(-3, 3))
def test_a_size_stepped_one_way_goes_on_by_one_notch_that_way(old, step):
    new = min(max(old + step, N_LO), N_HI)
    # as the page moves a view: the slider's new value, the others kept or clamped to it
    before = _state(n=old)
    state = before.replace(n=new)
    ahead = notch_after(state, dict(before), ("n", "sigma"))
    if new == old:
        assert ahead is None  # nothing moved
        return
    way = 1 if new > old else -1
    if not N_LO <= new + way <= N_HI:
        assert ahead is None  # at the slider's end
        return
    # the view one notch on, validated (k, q and n_eig within its range)
    assert ahead is not None and ahead == state.replace(n=new + way)


@settings(max_examples=N_EXAMPLES, deadline=None)
@given(old=st.sampled_from(SIGMAS), new=st.sampled_from(SIGMAS))
def test_a_width_stepped_one_way_goes_on_to_the_next_option_that_way(old, new):
    ahead = notch_after(_state(sigma=new), dict(_state(sigma=old)), ("n", "sigma"))
    if new == old:
        assert ahead is None
        return
    i, j = SIGMAS.index(old), SIGMAS.index(new)
    nxt = j + (1 if j > i else -1)
    if not 0 <= nxt < len(SIGMAS):
        assert ahead is None
    else:
        assert ahead is not None and ahead["sigma"] == SIGMAS[nxt]
        assert kernel_choice(ahead).gamma != kernel_choice(_state(sigma=new)).gamma


@pytest.mark.parametrize("change", [dict(k=51), {"spectrum.q": 101}, {"spectrum.n_eig": 11},
                                    dict(n=500, sigma=5.0), dict(kernel="laplacian")])
def test_other_moves_and_two_at_once_compute_nothing_ahead(change):
    """Only n and the width are stepped ahead (each notch a new K: k, q and the top n only
    read what is cached), and only when one of them moved alone."""
    before = _state()
    state = before.replace(**change)
    assert notch_after(state, dict(before), ("n", "sigma")) is None


def test_a_first_view_computes_nothing_ahead():
    assert notch_after(_state(n=400), None, ("n", "sigma")) is None
    assert notch_after(_state(n=400), {}, ("n", "sigma")) is None


# ---------------------------------------------------------------- when


def test_views_are_computed_ahead_for_one_or_two_sessions_only(monkeypatch):
    monkeypatch.delenv("MP_PREFETCH", raising=False)
    for sessions, on in ((1, True), (2, True), (3, False), (200, False), (None, False)):
        monkeypatch.setattr(cached, "_active_sessions", lambda s=sessions: s)
        assert cached.prefetch_on() is on, sessions
    monkeypatch.setattr(cached, "_active_sessions", lambda: 1)
    monkeypatch.setenv("MP_PREFETCH", "0")
    assert cached.prefetch_on() is False


def test_apptest_has_no_session_count_so_nothing_is_computed_ahead():
    """AppTest's runtime is a stand-in without the server's sessions: the page tests see the
    page compute every view on request, as they expect."""
    at = open_app_page(PAGE)
    assert_clean(at)
    assert cached._active_sessions() is None and not cached.prefetch_on()


class _Refused:
    """Stands for the prefetch process: fails the test if a job reaches it."""

    def submit(self, *args, **kwargs):  # pragma: no cover - reached only on a failure
        raise AssertionError(f"a view was computed ahead: {args[1:3]}")


@pytest.mark.parametrize("choice", [
    DataChoice("digits", n_samples=1797),  # over PREFETCH_MAX_M: 1.5 s a view
    DataChoice("csv", csv_digest="0" * 64, csv_target=None),  # an upload's bytes stay with it
])
def test_no_view_is_computed_ahead_for_an_upload_or_a_large_data_set(monkeypatch, choice):
    monkeypatch.setattr(cached, "_active_sessions", lambda: 1)
    monkeypatch.setattr(cached._AHEAD, "process", _Refused())
    cached.clear_prefetched()
    assert cached.prefetch_spectrum(choice, KernelChoice("rbf", gamma=0.1), 50, 100, 10,
                                    300) is False
    assert not cached._AHEAD.keys()


# ---------------------------------------------------------------- the same numbers


def test_a_view_computed_ahead_is_the_view_its_parts_compute(monkeypatch):
    """view_parts, which the prefetch process runs, gives every part the page's cached
    functions compute from the same data: equal bit for bit but for the timings."""
    from mpcore import validated_kernel
    from mpcore.kernels import kernel_matrix
    from views.data import load

    choice = DataChoice("moons", n_samples=70, noise=0.2, seed=4)
    kern = KernelChoice("rbf", gamma=0.8, sigma=0.79)
    k, q, n_eig, n_top, k_max = 12, 20, 5, 30, 40
    ahead = spectrum.view_parts(choice, kern, k, q, n_eig, n_top, k_max)
    K = validated_kernel(kernel_matrix(load(choice).X, **kern.params()))
    exact = spectrum.exact_spectrum(K)
    np.testing.assert_array_equal(ahead["exact"]["values"], exact["values"])
    on_request = dict(exact_rows=spectrum.exact_methods(K, n_eig, exact),
                      nystrom=spectrum.nystrom_methods(K, choice.seed, k, n_eig, exact),
                      ekm=spectrum.ekm_methods(K, choice.seed, q, n_eig, exact))
    for part, want in on_request.items():
        got = ahead[part]
        assert [[r[f] for f in UNTIMED] for r in got["rows"]] == [
            [r[f] for f in UNTIMED] for r in want["rows"]], part
        for name, values in want["top"].items():
            np.testing.assert_array_equal(got["top"][name], values, f"{part} {name}")
    # the page computes the curves in halves, side by side; ahead, whole
    halves = spectrum.merge_curve_parts(
        spectrum.error_curves_by_eigenvalue(K, choice.seed, n_top, k_max, exact=exact,
                                            parts=("nystrom",)),
        spectrum.error_curves_by_eigenvalue(K, choice.seed, n_top, k_max, parts=("ekm",)))
    for series in ("nystrom", "ekm", "ekm_bounds"):
        assert set(ahead["curves"][series]) == set(halves[series]), series
        for name, values in halves[series].items():
            np.testing.assert_array_equal(ahead["curves"][series][name], values, name)
    with pytest.raises(ValueError, match="bundled data sets only"):
        spectrum.view_parts(DataChoice("csv", csv_digest="0" * 64), kern, k, q, n_eig, n_top,
                            k_max)


def _drawn(at) -> dict:
    """What the page shows that does not depend on timing: each chart's data and the
    timing table's untimed columns."""
    charts = {}
    for element in chart_elements(at):
        spec = chart_spec(element)
        charts[len(charts)] = [{k: v for k, v in trace.items() if k in ("name", "x", "y")}
                               for trace in spec["data"]]
    (table,) = markdown_tables(at)
    untimed = [c for c in table.columns if not c.startswith("time")]
    return dict(charts=charts, table=table[untimed].to_dict("list"))


@pytest.mark.slow
def test_a_page_stepped_with_views_computed_ahead_draws_what_a_fresh_session_draws(
        monkeypatch):
    """Two notches of n down, one of the width up, on a server with one visitor: after each
    move the next notch is handed to the prefetch process, the notch then reads it (nothing
    of the view computed in the server's process), and the page draws what a fresh session
    computing that view on request draws."""
    import streamlit as st

    calls = []
    for name in ("exact_spectrum", "exact_methods", "nystrom_methods", "ekm_methods"):
        def counted(*args, _real=getattr(spectrum, name), _name=name, **kwargs):
            calls.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(spectrum, name, counted)
    monkeypatch.setattr(cached, "_active_sessions", lambda: 1)
    monkeypatch.delenv("MP_PREFETCH", raising=False)
    cached.clear_prefetched()
    st.cache_data.clear()
    # a size no other test draws, so nothing of it is cached in this process
    at = open_app_page(PAGE, params=dict(dataset="moons", n="83", sigma="0.5"))
    assert_clean(at)
    views = []
    for key, value in (("n", 82), ("n", 81), ("sigma", 0.7), ("sigma", 1.0)):
        calls.clear()
        (at.slider(key="n") if key == "n" else at.select_slider(key="sigma")).set_value(value)
        at.run()
        assert_clean(at)
        view = _view(at)
        assert view[key] == value
        if (key, value) in (("n", 81), ("sigma", 1.0)):  # the notch after a move that way
            assert calls == [], (key, value, calls)  # read from the view computed ahead
        else:  # a first move of its slider: computed on request
            assert sorted(calls) == ["ekm_methods", "exact_methods", "exact_spectrum",
                                     "nystrom_methods"], (key, value, calls)
        views.append((dict(view), _drawn(at)))
        # the notch after it is being computed ahead; the next move waits for it, as a
        # person reading the view would (a run waits PREFETCH_WAIT at most: the next test)
        nxt = dict(n=value - 1) if key == "n" else dict(sigma=SIGMAS[SIGMAS.index(value) + 1])
        ahead = view.replace(**nxt)
        entry = cached._AHEAD.get((repr(data_choice(ahead)), repr(kernel_choice(ahead))))
        assert entry is not None, (key, value)
        entry[1].result(timeout=RUN_TIMEOUT)
    # each view as a fresh session computes it, on request
    monkeypatch.setenv("MP_PREFETCH", "0")
    for values, drawn in views:
        cached.clear_prefetched()
        st.cache_data.clear()
        st.cache_resource.clear()
        fresh = open_app_page(PAGE, params={k: values[k] for k in ("dataset", "n", "sigma")})
        assert_clean(fresh)
        assert _drawn(fresh) == drawn, values


def _view(at):
    """The page's current view (its validated state), read back from the session."""
    state, _ = SPECTRUM.build(at.session_state["_notch.spectrum"])
    return state


@pytest.mark.slow
def test_a_view_still_far_from_computed_ahead_is_computed_on_request(monkeypatch):
    """A view asked for while its computation ahead has not got far (its process still
    starting, say) is waited for PREFETCH_WAIT seconds once, then computed in the run, and
    the computation ahead is left: every part of the run asks once, not once each."""
    from concurrent.futures import Future

    import streamlit as st

    monkeypatch.setattr(cached, "PREFETCH_WAIT", 0.2)
    waits = []
    never = Future()  # never done
    real_result = never.result

    def timed_result(timeout=None):
        waits.append(timeout)
        return real_result(timeout=timeout)

    never.result = timed_result
    class Stalled:  # a process that has not got to the job
        def submit(self, *args, **kwargs):
            return never

        def idle_since_start(self):
            return False

    params = dict(dataset="moons", n="77", sigma="0.5")
    state, _ = SPECTRUM.build(params)
    cached.clear_prefetched()
    st.cache_data.clear()
    monkeypatch.setattr(cached._AHEAD, "process", Stalled())
    monkeypatch.setattr(cached, "_active_sessions", lambda: 1)
    assert cached.prefetch_spectrum(data_choice(state), kernel_choice(state), state["k"],
                                    state["spectrum.q"], state["spectrum.n_eig"],
                                    SPECTRUM["k"].at("hi", state))
    monkeypatch.setattr(cached, "_active_sessions", lambda: None)  # no new one in the run
    at = open_app_page(PAGE, params=params)
    assert_clean(at)
    assert waits == [0.2]  # one wait, then the run computed the view itself
    assert not cached._AHEAD.keys()
    assert len(chart_elements(at)) == 3
