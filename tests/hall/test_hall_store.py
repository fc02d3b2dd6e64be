"""The store interface (hall.store.Store) behaves alike on both backends."""

from __future__ import annotations

import secrets

import pytest
from hall_util import redis_server, store  # noqa: F401 - fixtures

from hall.session import ROOM_ALPHABET

TTL = 3600


def _room():
    return "".join(secrets.choice(ROOM_ALPHABET) for _ in range(6))


def test_create_once_and_meta_is_a_copy(store):
    room = _room()
    assert store.meta(room) is None
    assert store.create(room, {"key": "h", "created": "1.0"}, TTL)
    assert not store.create(room, {"key": "other"}, TTL)
    meta = store.meta(room)
    assert meta == {"key": "h", "created": "1.0"}
    meta["key"] = "changed"
    assert store.meta(room)["key"] == "h"


def test_update_counts_versions_and_merges_fields(store):
    room = _room()
    assert store.version(room) is None and store.state(room) is None
    store.create(room, {"key": "h"}, TTL)
    assert store.version(room) == 0
    assert store.update(room, {"a": "1", "b": "2"}, TTL) == 1
    assert store.update(room, {"a": "3"}, TTL) == 2
    assert store.update(room, {}, TTL) == 3
    assert store.version(room) == 3
    assert store.state(room) == (3, {"a": "3", "b": "2"})


def test_update_of_a_missing_room_raises_key_error(store):
    with pytest.raises(KeyError):
        store.update(_room(), {"a": "1"}, TTL)


def test_update_unless_writes_once_per_guard(store):
    room = _room()
    with pytest.raises(KeyError):
        store.update_unless(room, {"a": "1"}, TTL, guard="done")
    store.create(room, {"key": "h"}, TTL)
    store.update(room, {"done": ""}, TTL)
    assert store.update_unless(room, {"done": "1", "a": "1"}, TTL, guard="done") == 2
    assert store.update_unless(room, {"done": "2", "a": "2"}, TTL, guard="done") is None
    assert store.state(room) == (2, {"done": "1", "a": "1"})
    assert store.update_unless(room, {"b": "3"}, TTL, guard="other") == 3


def test_answers_only_to_the_open_poll_the_last_kept(store):
    room = _room()
    store.create(room, {"key": "h"}, TTL)
    assert not store.put_answer(room, "1", "dev", "4", TTL)
    store.update(room, {"open": "1"}, TTL)
    assert store.put_answer(room, "1", "dev", "4", TTL)
    assert store.put_answer(room, "1", "dev", "5", TTL)
    assert store.put_answer(room, "1", "dev2", "4", TTL)
    assert not store.put_answer(room, "2", "dev", "4", TTL)
    assert store.answers(room, "1") == {"dev": "5", "dev2": "4"}
    store.update(room, {"open": ""}, TTL)
    assert not store.put_answer(room, "1", "dev", "6", TTL)
    assert store.answers(room, "1") == {"dev": "5", "dev2": "4"}
    assert store.answers(room, "2") == {}
    assert (store.answer(room, "1", "dev"), store.answer(room, "1", "dev2")) == ("5", "4")
    assert store.answer(room, "1", "dev3") is None and store.answer(room, "2", "dev") is None
    assert not store.put_answer(_room(), "1", "dev", "4", TTL)


def test_score_events_presence_hits(store):
    room = _room()
    store.create(room, {"key": "h"}, TTL)
    assert store.score(room, "a") == 0
    store.add_score(room, ["a", "b"], TTL)
    store.add_score(room, ["a"], TTL)
    assert (store.score(room, "a"), store.score(room, "b"), store.score(room, "c")) == (2, 1, 0)
    for i in range(5):
        store.log(room, f'{{"i": {i}}}', TTL)
    assert store.events(room) == [f'{{"i": {i}}}' for i in range(5)]
    store.seen(room, "a", True, 100.0, TTL)
    store.seen(room, "b", False, 100.0, TTL)
    store.seen(room, "c", True, 50.0, TTL)
    assert store.presence(room, 90.0) == (2, 1)
    assert store.presence(room, 0.0) == (3, 2)
    store.seen(room, "a", False, 101.0, TTL)
    assert store.presence(room, 90.0) == (2, 0)
    assert [store.hit(room, "a", 7, 20) for _ in range(3)] == [1, 2, 3]
    assert store.hit(room, "b", 7, 20) == 1
    assert store.hit(room, "a", 8, 20) == 1


def test_a_missing_room_reads_empty_and_ignores_writes(store):
    room = _room()
    store.log(room, "{}", TTL)
    store.seen(room, "a", True, 100.0, TTL)
    assert store.events(room) == []
    assert store.presence(room, 0.0) == (0, 0)
    assert store.answers(room, "1") == {}
    assert store.meta(room) is None and store.version(room) is None


def test_delete_forgets_the_room(store):
    room, other = _room(), _room()
    for r in (room, other):
        store.create(r, {"key": "h"}, TTL)
        store.update(r, {"open": "1"}, TTL)
        store.put_answer(r, "1", "dev", "1", TTL)
    store.delete(room)
    assert store.meta(room) is None and store.state(room) is None
    assert store.answers(room, "1") == {}
    assert store.answers(other, "1") == {"dev": "1"}
    assert store.create(room, {"key": "new"}, TTL)
    assert store.version(room) == 0
