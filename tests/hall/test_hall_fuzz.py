"""Fuzz the hall's inputs from outside: session files, poll specs, answers, the lecturer's
position. Each is accepted in a well-formed state or refused with ValueError, never
another exception."""

from __future__ import annotations

import json
import string

import pytest
from fuzz_util import N_EXAMPLES
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hall_util import hall, redis_server, store  # noqa: F401 - fixtures

from hall import session as hs
from hall.export import read_session, to_csv
from hall.polls import KINDS, PollSpec, canonical
from hall.session import Hall, new_device
from hall.store import MemoryStore

FIELDS = tuple(PollSpec.__dataclass_fields__)
json_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                           max_leaves=12)
small_ints = st.integers(-3, 40) | st.integers()
field_values = {
    "kind": st.sampled_from(KINDS) | json_values,
    "prompt": st.text(max_size=30) | json_values,
    "lesson": st.text(max_size=10) | json_values,
    "beat": small_ints | json_values,
    "question": st.text(max_size=10) | json_values,
    "n": small_ints | json_values,
    "lo": small_ints | json_values,
    "hi": small_ints | json_values,
    "options": st.lists(st.text(max_size=5), max_size=14) | json_values,
}
spec_dicts = st.fixed_dictionaries({}, optional={f: field_values[f] for f in FIELDS}) \
    | st.dictionaries(st.text(max_size=8), json_values, max_size=4)


def _check_spec(spec: PollSpec):
    assert PollSpec.from_json(spec.to_json()) == spec
    hash(spec)  # a frozen spec is a value: usable as a key or in a cache
    values = spec.values()
    assert values and len(set(values)) == len(values)
    assert all(canonical(spec, v) == v for v in values)


@pytest.mark.slow
@settings(max_examples=N_EXAMPLES * 3, deadline=None)
@given(st.one_of(spec_dicts.map(json.dumps), json_values.map(json.dumps),
                 st.text(max_size=40)))
@example('{"kind": "point", "prompt": "", "options": [{}]}')
@example('{"kind": "option", "prompt": "", "options": ["a", "a"]}')
@example('{"kind": "k", "prompt": "", "lo": 1, "hi": 1e400}')
@example('{"kind": "point", "prompt": "", "n": 3}')
def test_poll_spec_from_arbitrary_json(text):
    try:
        spec = PollSpec.from_json(text)
    except ValueError:
        return
    _check_spec(spec)


option_texts = st.text(min_size=1, max_size=6)
specs = st.one_of(
    st.builds(PollSpec, kind=st.just("point"), prompt=st.just("p"), n=st.integers(1, 5000)),
    st.builds(PollSpec, kind=st.just("k"), prompt=st.just("k"), lo=st.integers(0, 50),
              hi=st.integers(50, 10_000)),
    st.builds(PollSpec, kind=st.just("option"), prompt=st.just("o"),
              options=st.lists(option_texts, min_size=2, max_size=12, unique=True).map(tuple)))


answer_values = st.one_of(
    st.integers(-5, 5010), st.integers(), st.floats(), st.booleans(), st.none(),
    st.text(max_size=8), st.text(alphabet=string.digits + " -+._eE\u0665\u00b2", max_size=8),
    st.binary(max_size=4), st.lists(st.integers(0, 3), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2))

fixed_specs = st.sampled_from([
    PollSpec(kind="point", prompt="p", n=1), PollSpec(kind="point", prompt="p", n=60),
    PollSpec(kind="k", prompt="k", lo=0, hi=0), PollSpec(kind="k", prompt="k", lo=2, hi=30),
    PollSpec(kind="option", prompt="o", options=("a", "B", "12", "=1+1", " x"))])


@settings(max_examples=N_EXAMPLES * 5, deadline=None)
@given(fixed_specs | specs, answer_values)
@example(PollSpec(kind="k", prompt="k", lo=2, hi=30), "\u0665")
@example(PollSpec(kind="k", prompt="k", lo=2, hi=30), "\u00b2")
@example(PollSpec(kind="k", prompt="k", lo=2, hi=30), 1e300)
@example(PollSpec(kind="point", prompt="p", n=60), "-0")
@example(PollSpec(kind="k", prompt="k", lo=2, hi=30), "--5")
def test_an_answer_is_canonical_within_the_poll_or_refused(spec, value):
    try:
        got = canonical(spec, value)
    except ValueError as e:
        # the message is the poll's own (a phone shows it), not Python's int() parser's
        assert "invalid literal" not in str(e), e
        return
    assert got in spec.values()
    assert canonical(spec, got) == got


@settings(max_examples=N_EXAMPLES // 2, deadline=None,  # the store's own path: a few
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spec=fixed_specs, value=answer_values)
def test_the_hall_stores_an_answer_canonical_or_refuses_it(hall, spec, value):
    s = hall.start()
    pid = hall.open_poll(s.room, s.key, spec)
    d = new_device()
    try:
        got = hall.answer(s.room, d, pid, value)
    except ValueError:
        assert hall.mine(s.room, d, pid) is None
        return
    assert got in spec.values() and hall.mine(s.room, d, pid) == got
    assert hall.tally(s.room, pid) == {got: 1}


bad_session_json = st.fixed_dictionaries(
    {"format": st.just("mp-hall-session") | json_values,
     "version": st.just(1) | json_values},
    optional={
        "polls": st.lists(st.fixed_dictionaries(
            {}, optional={"poll": json_values, "spec": spec_dicts | json_values,
                          "reveal": json_values,
                          "answers": st.lists(st.fixed_dictionaries(
                              {}, optional={"device": json_values, "answer": json_values,
                                            "right": json_values}), max_size=3)
                          | json_values}) | json_values, max_size=3) | json_values,
        "events": st.lists(st.fixed_dictionaries(
            {"kind": st.just("move") | json_values},
            optional={"page": st.sampled_from(["kmp", "learn"]) | json_values,
                      "query": st.dictionaries(st.text(max_size=5), st.text(max_size=5)
                                               | json_values, max_size=3) | json_values}),
            max_size=3) | json_values})


@pytest.mark.slow
@settings(max_examples=N_EXAMPLES * 5, deadline=None)
@given(st.binary(max_size=300) | bad_session_json.map(lambda d: json.dumps(d).encode()))
@example(b"[" * 40 + b"]" * 40)
@example(b"\xef\xbb\xbf{}")
@example(b'{"format": "mp-hall-session", "version": 1, "polls": [], "events": [1e999]}')
@example(b'{"format": "mp-hall-session", "version": 1, "polls": [], "events": []}'
         b" " + b"9" * 5000)
@example(b'{"format": "mp-hall-session", "version": 1, "polls": [], "events": [' + b"9" * 5000
         + b"]}")
def test_read_session_of_arbitrary_bytes(raw):
    try:
        got = read_session(raw)
    except ValueError:
        return
    assert isinstance(got, dict) and set(got) == {"polls", "moves"}
    for p in got["polls"]:
        assert isinstance(p["spec"], PollSpec)
        assert all(isinstance(d, str) and isinstance(a, str) for d, a in p["answers"])
    for m in got["moves"]:
        assert isinstance(m["page"], str) and isinstance(m["query"], dict)


def test_read_session_reads_an_export_back():
    hall = Hall(MemoryStore())
    s = hall.start()
    hall.move(s.room, s.key, "kmp", {"k": "3"})
    pid = hall.open_poll(s.room, s.key, PollSpec(kind="option", prompt="=cmd|' /C calc'!A0",
                                                 options=("-1", "b")))
    d = new_device()
    hall.answer(s.room, d, pid, "-1")
    hall.reveal(s.room, s.key, "-1", lambda v: v == "-1")
    exp = hall.export(s.room, s.key)
    got = read_session(json.dumps(exp).encode())
    assert got["moves"] == [dict(page="kmp", query={"k": "3"})]
    assert got["polls"][0]["answers"] == [(d, "-1")]
    assert got["polls"][0]["spec"].options == ("-1", "b")
    rows = to_csv(exp).splitlines()
    assert len(rows) == 2 and ",'=cmd|" in rows[1] and ",'-1," in rows[1]


pages = st.one_of(st.sampled_from(["kmp", "learn", "skpca", "a_b", "x" * hs.MAX_PAGE]),
                  st.text(max_size=45), st.none(), st.integers(), st.lists(st.text()))
queries = st.one_of(
    st.dictionaries(st.text(max_size=45), st.text(max_size=20), max_size=4),
    st.dictionaries(st.sampled_from(["k", "x" * 40, "x" * 41]),
                    st.sampled_from(["", "v" * hs.MAX_QUERY_TEXT, "v" * (hs.MAX_QUERY_TEXT + 1)])),
    st.integers(hs.MAX_QUERY - 1, hs.MAX_QUERY + 1).map(
        lambda n: {f"f{i}": "v" for i in range(n)}),
    st.dictionaries(st.text(max_size=5), json_values, max_size=3),
    st.dictionaries(st.integers() | st.none(), st.text(max_size=5), min_size=1, max_size=2),
    json_values)


@settings(max_examples=N_EXAMPLES * 2, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(page=pages, query=queries)
@example(page="kmp\n", query={})
@example(page="kmp", query={"k": "\ud800"})
@example(page="x" * (hs.MAX_PAGE + 1), query={})
def test_move_accepts_a_position_or_refuses_it(hall, page, query):
    s = getattr(hall, "_fuzz_session", None) or hall.start()
    hall._fuzz_session = s
    before = hall.view(s.room)
    try:
        v = hall.move(s.room, s.key, page, query)
    except ValueError:
        assert hall.view(s.room) == before
        return
    after = hall.view(s.room)
    assert (after.version, after.page, after.query) == (v, page, dict(query))
