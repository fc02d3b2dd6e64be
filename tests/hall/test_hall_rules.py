"""The hall's rules (hall.session.Hall) on both backends: the lecturer's key, answers,
reveal and score, presence, rate limit, versions."""

from __future__ import annotations

import json
import secrets

import numpy as np
import pytest
from hall_util import clock, hall, redis_server, store, timed_hall  # noqa: F401 - fixtures

from hall import session as hs
from hall.export import to_csv
from hall.polls import PollSpec
from hall.session import Forbidden, Hall, new_device

K_POLL = PollSpec(kind="k", prompt="Which k?", lesson="bounds", beat=2, question="k_min",
                  lo=1, hi=10)
POINT_POLL = PollSpec(kind="point", prompt="Next pick?", n=30)
OPTION_POLL = PollSpec(kind="option", prompt="Which?", options=("=SUM(A1)", "b", "c"))


def _lecturer_actions(hall, room, key):
    """Every action only the lecturer may take, each a call with ``key``."""
    return {
        "move": lambda: hall.move(room, key, "skpca", {"q": "3"}),
        "open": lambda: hall.open_poll(room, key, K_POLL),
        "close": lambda: hall.close_poll(room, key),
        "reveal": lambda: hall.reveal(room, key, "3", lambda v: v == "3"),
        "end": lambda: hall.end(room, key),
        "export": lambda: hall.export(room, key),
    }


def test_start_gives_a_room_code_and_a_key(hall):
    s = hall.start()
    assert len(s.room) == 6 and set(s.room) <= set(hs.ROOM_ALPHABET)
    assert isinstance(s.key, str) and len(s.key) >= 32
    assert hall.is_lecturer(s.room, s.key)
    other = hall.start()
    assert other.room != s.room and other.key != s.key
    v = hall.view(s.room)
    assert (v.page, v.query, v.poll_id, v.open, v.ended) == ("learn", {}, None, False, False)


def test_only_the_key_acts_as_the_lecturer(hall):
    s, other = hall.start(), hall.start()
    hall.open_poll(s.room, s.key, K_POLL)
    before = hall.store.state(s.room)
    student = new_device()
    wrong = [None, "", " ", 0, b"x", s.key[:-1], s.key + "x", s.key.upper(),
             other.key, secrets.token_urlsafe(24), "x" * len(s.key), student,
             hs._hash(s.key), s.room]
    assert len(secrets.token_urlsafe(24)) == len(s.key)
    for key in wrong:
        assert not hall.is_lecturer(s.room, key)
        for name, act in _lecturer_actions(hall, s.room, key).items():
            with pytest.raises(Forbidden):
                act()
    # the right key in another room, a room that does not exist, a malformed room
    for room in (other.room, "ABCDEF" if s.room != "ABCDEF" else "ABCDEG", "abcdef", "",
                 None, s.room + "A"):
        for name, act in _lecturer_actions(hall, room, s.key).items():
            with pytest.raises(Forbidden):
                act()
    assert hall.store.state(s.room) == before


def _all_text(hall, s):
    exp = hall.export(s.room, s.key)
    return "\n".join([json.dumps(exp), to_csv(exp), repr(hall.view(s.room)),
                      *hall.store.events(s.room)])


def test_the_key_and_its_hash_never_leave_the_lecturer(hall):
    s = hall.start()
    hall.move(s.room, s.key, "kmp", {"k": "4", "data": "moons"})
    hall.open_poll(s.room, s.key, K_POLL)
    for i in range(3):
        hall.answer(s.room, new_device(), "1", i + 1)
    hall.reveal(s.room, s.key, "2", lambda v: v == "2")
    hall.open_poll(s.room, s.key, OPTION_POLL)
    hall.answer(s.room, new_device(), "2", "b")
    hall.end(s.room, s.key)
    text = _all_text(hall, s)
    for secret in (s.key, hs._hash(s.key)):
        assert secret not in text
    assert s.room in text and "mp-hall-session" in text


def test_one_answer_per_device_changeable_until_close(hall):
    s = hall.start()
    pid = hall.open_poll(s.room, s.key, K_POLL)
    a, b = new_device(), new_device()
    assert hall.answer(s.room, a, pid, 3) == "3"
    assert hall.answer(s.room, a, pid, "4") == "4"
    assert hall.answer(s.room, b, pid, 4.0) == "4"
    assert hall.mine(s.room, a, pid) == "4"
    assert hall.tally(s.room, pid) == {"4": 2}
    hall.close_poll(s.room, s.key)
    with pytest.raises(ValueError, match="closed"):
        hall.answer(s.room, a, pid, 5)
    with pytest.raises(ValueError, match="closed"):
        hall.answer(s.room, new_device(), pid, 5)
    assert hall.mine(s.room, a, pid) == "4"
    assert hall.tally(s.room, pid) == {"4": 2}
    exp = hall.export(s.room, s.key)
    assert [(x["device"], x["answer"]) for x in exp["polls"][0]["answers"]] == \
        sorted([(a, "4"), (b, "4")])


def test_a_new_poll_closes_the_old_one(hall):
    s = hall.start()
    p1 = hall.open_poll(s.room, s.key, K_POLL)
    d = new_device()
    hall.answer(s.room, d, p1, 2)
    p2 = hall.open_poll(s.room, s.key, POINT_POLL)
    assert p2 != p1
    with pytest.raises(ValueError, match="closed"):
        hall.answer(s.room, d, p1, 3)
    assert hall.answer(s.room, d, p2, "29") == "29"
    assert hall.mine(s.room, d, p1) == "2" and hall.mine(s.room, d, p2) == "29"


@pytest.mark.parametrize("spec, good, bad", [
    (K_POLL, [(1, "1"), ("10", "10"), (" 7 ", "7"), (5.0, "5"), (np.int64(6), "6"),
              ("\u0664", "4"), ("000008", "8")],
     [0, 11, -1, "11", 2.5, True, np.bool_(True), None, "", "three", [3], float("nan"),
      "1e1", "\u00b2", "--5", "0000008", np.int64(11)]),
    (POINT_POLL, [(0, "0"), (29, "29"), ("12", "12"), (np.int32(3), "3"), ("-0", "0")],
     [30, -1, "-1", "30", 1.5, False, {}, "0x1", np.float64(0.5)]),
    (OPTION_POLL, [("=SUM(A1)", "=SUM(A1)"), ("c", "c")],
     ["d", "", "B", " b", 0, None, ["b"]]),
])
def test_answers_are_validated_against_the_poll(hall, spec, good, bad):
    s = hall.start()
    pid = hall.open_poll(s.room, s.key, spec)
    d = new_device()
    for value, stored in good:
        assert hall.answer(s.room, d, pid, value) == stored
        assert hall.mine(s.room, d, pid) == stored
    last = hall.mine(s.room, d, pid)
    for value in bad:
        with pytest.raises(ValueError):
            hall.answer(s.room, d, pid, value)
    assert hall.mine(s.room, d, pid) == last


def test_a_device_id_and_a_room_must_be_valid(hall):
    s = hall.start()
    pid = hall.open_poll(s.room, s.key, K_POLL)
    for device in ("", "short", "x" * 65, "a b" * 8, None, 12345678901234567890, "é" * 20):
        with pytest.raises(ValueError, match="device"):
            hall.answer(s.room, device, pid, 1)
    for room in ("", "ABCDE", None, "abcdef"):
        with pytest.raises(ValueError, match="ended"):
            hall.answer(room, new_device(), pid, 1)
    assert hall.tally(s.room, pid) == {}


def test_answers_are_refused_after_the_end(hall):
    s = hall.start()
    pid = hall.open_poll(s.room, s.key, K_POLL)
    hall.end(s.room, s.key)
    assert hall.view(s.room).ended and not hall.view(s.room).open
    with pytest.raises(ValueError, match="ended"):
        hall.answer(s.room, new_device(), pid, 1)


def test_rate_limit_per_device(timed_hall, clock):
    hall = timed_hall
    clock.t = hs.RATE_WINDOW * 1000.0  # the start of a window
    s = hall.start()
    pid = hall.open_poll(s.room, s.key, K_POLL)
    a, b = new_device(), new_device()
    for i in range(hs.RATE_LIMIT):
        hall.answer(s.room, a, pid, 1 + i % 10)
    with pytest.raises(ValueError, match="too many"):
        hall.answer(s.room, a, pid, 1)
    assert hall.answer(s.room, b, pid, 2) == "2"  # another device is not limited
    clock.advance(hs.RATE_WINDOW)
    assert hall.answer(s.room, a, pid, 9) == "9"
    assert hall.mine(s.room, a, pid) == "9"


def test_presence_and_following(timed_hall, clock):
    hall = timed_hall
    s = hall.start()
    a, b, c = (new_device() for _ in range(3))
    assert hall.presence(s.room) == (0, 0)
    hall.seen(s.room, a, True)
    hall.seen(s.room, b, False)
    hall.seen(s.room, c, True)
    hall.seen(s.room, "bad id", True)
    hall.seen("nosuch", a, True)
    assert hall.presence(s.room) == (3, 2)
    hall.seen(s.room, a, False)  # a breaks away to explore
    assert hall.presence(s.room) == (3, 1)
    hall.seen(s.room, a, True)  # and comes back
    assert hall.presence(s.room) == (3, 2)
    clock.advance(hs.PRESENT_FOR / 2)
    hall.seen(s.room, b, True)
    clock.advance(hs.PRESENT_FOR / 2 + 1)  # a and c have not been seen for a while
    assert hall.presence(s.room) == (1, 1)
    clock.advance(hs.PRESENT_FOR + 1)
    assert hall.presence(s.room) == (0, 0)
    assert hall.presence("nosuch") == (0, 0) and hall.presence(None) == (0, 0)


def test_a_refresh_keeps_a_seen_device_present_and_adds_none(timed_hall, clock):
    """The version route's presence mark (Hall.refresh): only a device whose page has run in
    the room (Hall.seen) is kept present; a request naming another device adds nothing."""
    hall = timed_hall
    s = hall.start()
    a, stranger = new_device(), new_device()
    hall.seen(s.room, a, True)
    assert hall.refresh(s.room, stranger, True) is False
    assert hall.presence(s.room) == (1, 1)
    for _ in range(3):  # a page open for three presence windows, kept by its requests alone
        clock.advance(hs.PRESENT_FOR - 1)
        assert hall.refresh(s.room, a, True) is True
        assert hall.presence(s.room) == (1, 1)
    assert hall.refresh(s.room, a, False) is True  # exploring on its own
    assert hall.presence(s.room) == (1, 0)
    clock.advance(hs.PRESENT_FOR + 1)
    assert hall.presence(s.room) == (0, 0)
    for room, device in (("nosuch", a), (s.room, "bad id"), (None, a), (s.room, None)):
        assert hall.refresh(room, device, True) is False
    assert hall.presence(s.room) == (0, 0)


def test_reveal_scores_the_hall_and_each_device(hall):
    s = hall.start()
    devs = [new_device() for _ in range(5)]
    p1 = hall.open_poll(s.room, s.key, K_POLL)
    for d, v in zip(devs, [3, 3, 4, 5, 6]):
        hall.answer(s.room, d, p1, v)
    rev = hall.reveal(s.room, s.key, "3", lambda v: v == "3")
    assert rev == dict(poll=p1, answer="3", right=["3"], n=5, n_right=2, share=0.4)
    v = hall.view(s.room)
    assert (v.open, v.reveal, v.polls_done, v.hall_right, v.hall_answers) == \
        (False, rev, 1, 2, 5)
    assert [hall.my_score(s.room, d) for d in devs] == [1, 1, 0, 0, 0]
    # a second reveal changes nothing
    version = hall.version(s.room)
    assert hall.reveal(s.room, s.key, "4", lambda v: True) == rev
    assert hall.version(s.room) == version
    assert [hall.my_score(s.room, d) for d in devs] == [1, 1, 0, 0, 0]
    assert hall.view(s.room).hall_right == 2
    # a second poll: the running hall score and each device's score add up
    p2 = hall.open_poll(s.room, s.key, OPTION_POLL)
    assert hall.view(s.room).reveal is None
    for d, v in zip(devs[:3], ["b", "b", "c"]):
        hall.answer(s.room, d, p2, v)
    rev2 = hall.reveal(s.room, s.key, "b or c", lambda v: v in ("b", "c"))
    assert (rev2["n"], rev2["n_right"], rev2["share"], rev2["right"]) == (3, 3, 1.0, ["b", "c"])
    v = hall.view(s.room)
    assert (v.polls_done, v.hall_right, v.hall_answers) == (2, 5, 8)
    assert [hall.my_score(s.room, d) for d in devs] == [2, 2, 1, 0, 0]
    exp = hall.export(s.room, s.key)
    assert [p["reveal"] for p in exp["polls"]] == [rev, rev2]
    assert {a["device"]: a["right"] for a in exp["polls"][0]["answers"]} == \
        dict(zip(devs, [True, True, False, False, False]))


def test_reveal_without_answers_and_without_a_poll(hall):
    s = hall.start()
    with pytest.raises(ValueError, match="no poll"):
        hall.reveal(s.room, s.key, "3", lambda v: True)
    hall.open_poll(s.room, s.key, K_POLL)
    rev = hall.reveal(s.room, s.key, "3", lambda v: True)
    assert (rev["n"], rev["n_right"], rev["share"]) == (0, 0, 0.0)


def test_version_grows_on_every_lecturer_change_and_not_on_a_no_op(hall):
    s = hall.start()
    versions = [hall.version(s.room)]

    def changed():
        v = hall.version(s.room)
        assert v > versions[-1]
        assert hall.view(s.room).version == v
        versions.append(v)

    def unchanged():
        assert hall.version(s.room) == versions[-1]

    assert hall.move(s.room, s.key, "kmp", {"k": "3"}) == hall.version(s.room)
    changed()
    assert hall.move(s.room, s.key, "kmp", {"k": "3"}) == versions[-1]
    unchanged()
    hall.move(s.room, s.key, "kmp", {"k": "4"})
    changed()
    hall.move(s.room, s.key, "skpca", {"k": "4"})
    changed()
    pid = hall.open_poll(s.room, s.key, K_POLL)
    changed()
    hall.answer(s.room, new_device(), pid, 3)
    hall.close_poll(s.room, s.key)
    changed()
    hall.close_poll(s.room, s.key)
    unchanged()
    hall.reveal(s.room, s.key, "3", lambda v: v == "3")
    changed()
    hall.reveal(s.room, s.key, "3", lambda v: v == "3")
    unchanged()
    hall.open_poll(s.room, s.key, POINT_POLL)
    changed()
    hall.end(s.room, s.key)
    changed()
    v = hall.view(s.room)
    assert (v.page, v.query, v.poll_id, v.ended) == ("skpca", {"k": "4"}, "2", True)
    moves = [e for e in hall.export(s.room, s.key)["events"] if e["kind"] == "move"]
    assert [(m["page"], m["query"]) for m in moves] == \
        [("kmp", {"k": "3"}), ("kmp", {"k": "4"}), ("skpca", {"k": "4"})]


def test_reads_of_a_missing_room(hall):
    for room in ("ABCDEF", "", None, "not a room", 7):
        assert hall.version(room) is None and hall.view(room) is None
        assert hall.mine(room, new_device(), "1") is None
        assert hall.tally(room, "1") == {}
        assert hall.my_score(room, new_device()) == 0
        assert not hall.is_lecturer(room, "k")


def test_two_halls_share_one_store(store):
    """Two processes of the hall (two Hall objects on one store) see one session."""
    one, two = Hall(store), Hall(store)
    s = one.start()
    assert two.is_lecturer(s.room, s.key)
    pid = two.open_poll(s.room, s.key, K_POLL)
    d = new_device()
    one.answer(s.room, d, pid, 7)
    assert two.mine(s.room, d, pid) == "7"
    assert two.view(s.room) == one.view(s.room)
