"""The hall's version route (hall/version_route.py), on both backends: what a student's
watcher waits on. It answers the session's version and nothing else (held, given the
page's version, until that changes), keeps only a device the room has seen present, and
answers any query with JSON and a 200, a 400 or a 503, never an exception."""

from __future__ import annotations

import asyncio
import json
import urllib.parse

import pytest
from hall_util import hall, redis_server, store  # noqa: F401 - fixtures
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.requests import Request

from hall import version_route, version_wait
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
    monkeypatch.setattr(version_wait, "process_hall", lambda: hall)
    monkeypatch.setattr(version_wait, "HOLD", 2.0)  # a test's held request waits no longer
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
                     st.dictionaries(st.sampled_from(["room", "me", "seen", "following", "since", "x"]),
                                     st.text(max_size=60), max_size=5)))
def test_any_query_gets_json_and_a_status_never_an_exception(served, raw):
    status, body = ask(raw)
    assert status in (200, 400) and isinstance(body, dict)
    assert set(body) in ({"version"}, {"error"})


# ---------------------------------------------------------------- held until the version changes

def request(query: dict) -> Request:
    raw = urllib.parse.urlencode(query).encode()
    return Request({"type": "http", "method": "GET", "path": version_route.PATH,
                    "query_string": raw, "headers": []})


def answer(response) -> tuple[int, dict]:
    return response.status_code, json.loads(response.body)


def test_a_request_with_the_pages_version_is_answered_when_the_lecturer_moves(served):
    hall = served
    s = hall.start()
    since = hall.version(s.room)

    async def scenario():
        held = asyncio.ensure_future(version_route.version(request(
            {"room": s.room, "since": str(since)})))
        await asyncio.sleep(4 * version_wait.READ_EVERY)
        assert not held.done()  # nothing moved: the route holds the request
        hall.move(s.room, s.key, "learn", {"lesson": "greedy-selection", "beat": "2"})
        return answer(await asyncio.wait_for(held, version_wait.HOLD))

    status, body = asyncio.run(scenario())
    assert (status, body) == (200, {"version": hall.version(s.room)})
    assert body["version"] > since


def test_an_older_version_is_answered_at_once_and_no_move_answers_the_same(served, monkeypatch):
    hall = served
    s = hall.start()
    old = hall.version(s.room)
    hall.move(s.room, s.key, "learn", {"lesson": "greedy-selection", "beat": "2"})
    now = hall.version(s.room)
    # the page acted on an older version: nothing to wait for (HOLD long, so a wait would show)
    monkeypatch.setattr(version_wait, "HOLD", 60.0)

    async def older():
        return answer(await asyncio.wait_for(version_route.version(request(
            {"room": s.room, "since": str(old)})), 10))

    assert asyncio.run(older()) == (200, {"version": now})
    # held for HOLD with no move: the page's own version, and the watcher asks again
    monkeypatch.setattr(version_wait, "HOLD", 0.3)
    assert ask({"room": s.room, "since": str(now)}) == (200, {"version": now})


def test_every_request_held_on_a_room_shares_one_reader(served, monkeypatch):
    """The point of holding: 50 waiting pages cost the store the reader's reads, not 50
    reads each; and all 50 get the move."""
    hall = served
    s = hall.start()
    since = hall.version(s.room)
    reads = []
    real = hall.version
    monkeypatch.setattr(hall, "version", lambda room: reads.append(room) or real(room))

    async def scenario():
        held = [asyncio.ensure_future(version_route.version(request(
            {"room": s.room, "since": str(since)}))) for _ in range(50)]
        await asyncio.sleep(5 * version_wait.READ_EVERY)
        before = len(reads)
        await asyncio.sleep(10 * version_wait.READ_EVERY)
        during = len(reads) - before
        hall.move(s.room, s.key, "learn", {"lesson": "greedy-selection", "beat": "2"})
        answers = await asyncio.wait_for(asyncio.gather(*held), version_wait.HOLD)
        return during, [answer(r) for r in answers]

    during, answers = asyncio.run(scenario())
    assert during <= 12, during  # one reader: about one read per READ_EVERY, for all 50
    assert answers == [(200, {"version": real(s.room)})] * 50
    assert not version_wait._rooms  # the reader stops once nobody waits


def test_the_store_failing_while_a_request_is_held_is_a_503(served, monkeypatch):
    hall = served
    s = hall.start()
    since = hall.version(s.room)
    down = []
    real = hall.version

    def version(room):
        if down:
            raise HallUnavailable("the hall's store does not answer")
        return real(room)

    monkeypatch.setattr(hall, "version", version)

    async def scenario():
        held = asyncio.ensure_future(version_route.version(request(
            {"room": s.room, "since": str(since)})))
        await asyncio.sleep(3 * version_wait.READ_EVERY)
        down.append(True)
        return answer(await asyncio.wait_for(held, version_wait.HOLD))

    assert asyncio.run(scenario()) == (503, {"error": "the hall is unavailable"})


@pytest.mark.parametrize("since", ["", "-1", "1.5", "abc", "１", "1e3", "9" * 13, " 1",
                                   "0x10", "null"])
def test_a_since_that_is_not_a_version_is_a_400(served, since):
    s = served.start()
    status, body = ask({"room": s.room, "since": since})
    assert status == 400 and "since" in body["error"]
