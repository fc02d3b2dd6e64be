"""The one validated view state per page (pages/common/state.py, schemas.py), without Streamlit.

Every field of every page, with any text in the URL, hidden or not, gives a
valid state whose link reproduces it exactly.
"""

from __future__ import annotations

import math
from urllib.parse import parse_qsl, urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pages.common.fields import CSV
from pages.common.schemas import ALL_SCHEMAS, reproduce_schema
from pages.common.state import HIDE, MAX_POINTS, State

SCHEMAS = {**ALL_SCHEMAS, "reproduce": reproduce_schema()}
IDS = list(SCHEMAS)

#: Strings a link can carry: numbers of every shape, words, markup, huge and empty values.
URL_TEXT = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["", "0", "-1", "1e309", "-1e309", "nan", "NaN", "inf", "-inf", "1e300",
                     "0.0000001", "3.5", "20", "true", "false", "moons", "rbf", "csv upload",
                     "![x](http://example.com/a.png)", "<b>x</b>", "1:2:0;3:4:1", "a,b,c",
                     "9" * 400]),
    st.integers(-10**12, 10**12).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)


def assert_valid(state: State):
    """Every value of ``state`` is allowed by its field, given the values before it."""
    schema = state.schema
    ctx = dict(state.facts)  # an upload's rows, task, features and classes
    for f in schema.fields:
        if not f.applies_to(ctx):
            assert f.key not in state, f.key
            continue
        assert f.key in state, f.key
        value = state[f.key]
        ctx[f.key] = value
        if f.kind in ("int", "float"):
            assert isinstance(value, int if f.kind == "int" else float) and not isinstance(
                value, bool), (f.key, value)
            assert math.isfinite(value), (f.key, value)
            options = f.at("options", ctx)
            if options:
                assert value in options, (f.key, value)
            else:
                lo, hi = f.at("lo", ctx), f.at("hi", ctx)
                assert (lo is None or value >= lo) and (hi is None or value <= hi), (f.key, value)
        elif f.kind == "bool":
            assert isinstance(value, bool)
        elif f.kind == "choice":
            assert value in f.at("options", ctx), (f.key, value)
        elif f.kind == "points":
            assert len(value) <= MAX_POINTS
            assert all(math.isfinite(x) and math.isfinite(y) for x, y, _ in value)
    assert state.hidden <= set(schema.controls())


@pytest.mark.parametrize("page", IDS)
def test_defaults_are_valid_and_their_link_is_complete(page):
    schema = SCHEMAS[page]
    state, notes = schema.build({})
    assert notes == []
    assert_valid(state)
    query = state.query()
    # every field that applies is written, first options and defaults included
    assert set(query) == set(state)
    again, notes = schema.from_query(query)
    assert again == state and notes == []


@pytest.mark.parametrize("page", IDS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_text_in_any_field_gives_a_valid_state(page, data):
    """Malformed, out-of-range, non-finite, huge: every field falls back, with a note."""
    schema = SCHEMAS[page]
    keys = list(schema.keys) + [HIDE, "unknown.key"]
    raw = data.draw(st.dictionaries(st.sampled_from(keys), URL_TEXT, max_size=6))
    state, notes = schema.from_query(raw)
    assert_valid(state)
    assert all(isinstance(n, str) and n for n in notes)
    # the link written back reproduces the state exactly, with nothing left to fix
    link = urlencode(state.query(), safe=",:;")
    again, notes2 = schema.from_query(dict(parse_qsl(link, keep_blank_values=True)))
    assert again == state, (raw, state.query())
    assert notes2 == []


@pytest.mark.parametrize("page", IDS)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_valid_changes_round_trip_through_the_url_and_the_json(page, data):
    """A sequence of allowed changes (what widgets send), then link and JSON settings."""
    schema = SCHEMAS[page]
    state = schema.defaults()
    for _ in range(data.draw(st.integers(1, 5))):
        fields = [f for f in schema.fields if f.key in state and f.widget != "none"]
        f = data.draw(st.sampled_from(fields))
        ctx = dict(state)
        if f.kind == "bool":
            value = data.draw(st.booleans())
        elif f.at("options", ctx):
            value = data.draw(st.sampled_from(list(f.at("options", ctx))))
        elif f.kind == "int":
            value = data.draw(st.integers(f.at("lo", ctx), f.at("hi", ctx)))
        else:
            value = data.draw(st.floats(f.at("lo", ctx), f.at("hi", ctx)))
        state = state.replace(**{f.key: value})
        assert_valid(state)
    again, notes = schema.from_query(state.query())
    assert again == state and notes == []
    saved, notes = schema.from_settings(state.settings())
    assert saved == state and notes == []


def test_a_link_keeps_the_data_sets_own_noise():
    """Moons -> circles: the link says noise = 0.1 (circles' default), not moons' 0.2."""
    skpca = ALL_SCHEMAS["skpca"]
    state = skpca.defaults().replace(dataset="circles")
    state = state.replace(sigma=1.0, k=30, seed=7).replace(j=4)
    assert state["noise"] == 0.1 and state["n"] == 200
    query = state.query()
    assert query["noise"] == "0.1" and query["dataset"] == "circles" and query["j"] == "4"
    assert skpca.from_query(query)[0] == state


def test_switching_data_set_resets_its_dependants_unless_set_together():
    skpca = ALL_SCHEMAS["skpca"]
    state = skpca.defaults().replace(noise=0.35, sigma=2.0, pts=((0.1, 0.2, 1),))
    blobs = state.replace(dataset="blobs")
    assert blobs["noise"] == 0.8 and blobs["sigma"] == 1.0 and blobs["pts"] == ()
    # a preset that sets the data set and its noise together keeps both
    both = state.replace(dataset="blobs", noise=0.0, n=150)
    assert both["noise"] == 0.0 and both["n"] == 150


def test_first_options_are_in_the_link():
    """moons on the eigenvalue page, basic fitting on the KMP page: written, not dropped."""
    spectrum, kmp = ALL_SCHEMAS["spectrum"], ALL_SCHEMAS["kmp"]
    state = spectrum.defaults().replace(dataset="moons")
    assert state.query()["dataset"] == "moons"
    assert spectrum.from_query(state.query())[0]["dataset"] == "moons"
    basic = kmp.defaults().replace(**{"kmp.fitting": "basic"})
    assert kmp.from_query(basic.query())[0]["kmp.fitting"] == "basic"


def test_kernel_parameters_of_a_preset_are_in_the_link():
    kmp = ALL_SCHEMAS["kmp"]
    state = kmp.defaults().replace(kernel="sigmoid", gamma=1.0, coef0=0.0, k=20)
    query = state.query()
    assert query["gamma"] == "1" and query["coef0"] == "0" and query["kernel"] == "sigmoid"
    assert "sigma" not in query  # does not apply to the sigmoid kernel


def test_hidden_fields_take_the_same_validated_path():
    skpca = ALL_SCHEMAS["skpca"]
    state, notes = skpca.from_query({"test": "0", "k": "-5", "hide": "test,k,nonsense"})
    assert state["test"] == 0.1 and state["k"] == 1
    assert state.hidden == {"test", "k"}
    assert any("Test fraction" in n for n in notes) and any("nonsense" in n for n in notes)
    # the hidden test fraction is used: a link with test=0.45 hidden keeps 0.45
    state, _ = skpca.from_query({"test": "0.45", "hide": "test"})
    assert state["test"] == 0.45 and state.query()["hide"] == "test"


def test_sizes_are_capped_by_the_schema():
    skpca = ALL_SCHEMAS["skpca"]
    state, notes = skpca.from_query({"dataset": "moons", "n": "100000000", "k": "1e9"})
    assert state["n"] == 3000 and state["k"] == 100
    assert len(notes) == 2


def test_unknown_and_old_keys():
    skpca = ALL_SCHEMAS["skpca"]
    state, notes = skpca.from_query({"skpca.preset": "Width too small", "zzz": "1"})
    assert state == skpca.defaults()
    assert notes == ["Ignored unknown link field(s): 'zzz'."]


def test_the_step_is_clamped_to_k():
    skpca = ALL_SCHEMAS["skpca"]
    state, notes = skpca.from_query({"k": "5", "j": "50"})
    assert state["j"] == 5 and notes


def test_csv_upload_fields():
    """An upload has no size or noise in the link; k follows the rows once they are known."""
    skpca = ALL_SCHEMAS["skpca"]
    state, _ = skpca.build({"dataset": CSV, "k": "80"}, facts={"_rows": 20})
    assert "n" not in state and "noise" not in state and "pts" not in state
    assert state["k"] == 20 - math.ceil(0.3 * 20)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_an_uploads_facts_and_any_link_give_a_valid_kmp_state(data):
    """On an upload the KMP page's loss, one-vs-rest class and regression feature follow the
    file (its task, classes and column names, any text a header can hold): with any text in
    any field, the state is valid for that file and its link gives it back."""
    schema = SCHEMAS["kmp"]
    task = data.draw(st.sampled_from(["classification", "regression"]))
    features = tuple(data.draw(st.lists(st.text(min_size=1, max_size=20), min_size=1,
                                        max_size=5, unique=True)))
    classes = tuple(sorted(data.draw(st.sets(st.integers(-2**63, 2**63 - 1), min_size=2,
                                             max_size=6)))) if task == "classification" else ()
    facts = {"_rows": data.draw(st.integers(3, 5000)), "_task": task, "_features": features,
             "_classes": classes}
    keys = list(schema.keys) + [HIDE, "unknown.key"]
    raw = {**data.draw(st.dictionaries(st.sampled_from(keys), URL_TEXT, max_size=6)),
           "dataset": CSV}
    if data.draw(st.booleans()):  # a value the file offers, as a widget would send it
        raw["kmp.class" if classes else "kmp.feature"] = data.draw(
            st.sampled_from([str(c) for c in classes] if classes else list(features)))
    state, notes = schema.build(raw, facts=facts)
    assert_valid(state)
    assert ("kmp.loss" in state) == (task == "classification")
    assert ("kmp.class" in state) == (len(classes) > 2)
    assert ("kmp.feature" in state) == (task == "regression" and len(features) > 1)
    link = urlencode(state.query(), safe=",:;")
    again, notes2 = schema.build(dict(parse_qsl(link, keep_blank_values=True)), facts=facts)
    assert again == state, (raw, state.query())
    assert notes2 == []


#: Any JSON value: what a saved run's file ("Open a saved run") can hold once edited by hand.
JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**20, 10**20)
                    | st.floats(allow_nan=False, allow_infinity=False) | URL_TEXT,
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)


@pytest.mark.parametrize("page", IDS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_saved_settings_give_a_valid_state(page, data):
    """A saved run's settings as any JSON (a number where a list was, a list of anything
    for the added points, nested objects): a valid state, which its link gives back."""
    schema = SCHEMAS[page]
    keys = list(schema.keys) + ["unknown.key"]
    settings_ = data.draw(st.dictionaries(st.sampled_from(keys), JSON, max_size=6))
    state, notes = schema.from_settings(settings_)
    assert_valid(state)
    assert all(isinstance(n, str) and n for n in notes)
    again, notes2 = schema.from_query(dict(parse_qsl(urlencode(state.query(), safe=",:;"),
                                                     keep_blank_values=True)))
    assert again == state and notes2 == []
