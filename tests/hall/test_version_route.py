"""The hall's version route (hall/version_route.py), on both backends: what a student's
watcher asks every second. It answers the session's version and nothing else, keeps only a
device the room has seen present, and answers any query with JSON and a 200, a 400 or a
503, never an exception."""

from __future__ import annotations

import asyncio
import json
import urllib.parse

import pytest
from hall_util import hall, redis_server, store  # noqa: F401 - fixtures
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.requests import Request

from hall import version_route
from hall.session import new_device
from hall.store import HallUnavailable


def ask(query) -> tuple[int, dict]:
    """GET /hall/version with ``query`` (a dict, or the raw query string as bytes)."""
    raw = query if isinstance(query, bytes) else urllib.parse.urlencode(query).encode()
    scope = {"type": "http", "method": "GET", "path": version_route.PATH,
             "query_string": raw, "headers": []}
    response = asyncio.run(version_route.version(Request(scope)))
    assert response.headers["cache-control"] == "no-store"
    return response.status_code, json.loads(response.body)


@pytest.fixture
def served(hall, monkeypatch):
    """The route answering from ``hall`` (the process's hall on that backend)."""
    monkeypatch.setattr(version_route, "process_hall", lambda: hall)
    return hall


def test_the_route_answers_the_sessions_version_and_nothing_else(served):
    hall = served
    s = hall.start()
    status, body = ask({"room": s.room})
    assert (status, body) == (200, {"version": hall.version(s.room)})
    hall.move(s.room, s.key, "learn", {"lesson": "greedy-selection", "beat": "3"})
    status, body = ask({"room": s.room, "me": new_device(), "following": "1", "seen": "1"})
    assert (status, body) == (200, {"version": hall.version(s.room)})
    assert body["version"] > 0
    assert s.key not in json.dumps(body)  # no key, no page, no view: a version only
    before = body["version"]
    hall.end(s.room, s.key)  # a move too: the pages rerun and say the session ended
    assert ask({"room": s.room})[1]["version"] > before
    unknown = next(r for r in ("ABCDEF", "GHJKMN", "PQRSTU") if hall.version(r) is None)
    assert ask({"room": unknown}) == (200, {"version": None})


def test_seen_keeps_a_known_page_present_and_adds_no_stranger(served):
    hall = served
    s = hall.start()
    page, stranger = new_device(), new_device()
    hall.seen(s.room, page, True)  # the page ran in the room
    for me in (page, stranger):
        assert ask({"room": s.room, "me": me, "following": "0", "seen": "1"})[0] == 200
    assert hall.presence(s.room) == (1, 0)  # the page explores on its own; no stranger
    ask({"room": s.room, "me": page, "following": "1"})  # no seen=1: a version read only
    assert hall.presence(s.room) == (1, 0)
    ask({"room": s.room, "me": page, "following": "1", "seen": "1"})
    assert hall.presence(s.room) == (1, 1)


@pytest.mark.parametrize("query", [
    {}, {"room": ""}, {"room": "abcdef"}, {"room": "ABCDE"}, {"room": "ABCDEFG"},
    {"room": "ABCDE1"}, {"room": "<b>x</b>"}, {"room": "ABC DE"}, b"room=%FF%FE",
    b"room", b"%%%", b"room=ABCDEF&room=x"])
def test_a_room_that_is_not_a_room_code_is_a_400(served, query):
    status, body = ask(query)
    assert status == 400 and "room code" in body["error"]


def test_the_store_down_is_a_503(monkeypatch):
    class Down:
        def version(self, room):
            raise HallUnavailable("the hall's store does not answer")

        def refresh(self, *args):
            raise HallUnavailable("the hall's store does not answer")

    monkeypatch.setattr(version_route, "process_hall", lambda: Down())
    status, body = ask({"room": "ABCDEF", "me": new_device(), "seen": "1"})
    assert status == 503 and body == {"error": "the hall is unavailable"}


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.one_of(st.binary(max_size=300),
                     st.dictionaries(st.sampled_from(["room", "me", "seen", "following", "x"]),
                                     st.text(max_size=60), max_size=5)))
def test_any_query_gets_json_and_a_status_never_an_exception(served, raw):
    status, body = ask(raw)
    assert status in (200, 400) and isinstance(body, dict)
    assert set(body) in ({"version"}, {"error"})
