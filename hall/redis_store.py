"""The hall's store in Redis: several Streamlit processes behind the balancer share it.

deploy/serve.py starts Debian's redis-server beside HAProxy with the append-only file on
(``appendfsync always``: an answer is acknowledged only once it is on disk, so a restarted
server resumes the session with every acknowledged answer) and hands its address to each
process as ``MP_HALL_REDIS``. Keys of room R: ``hall:R:meta``, ``:state`` (a hash whose
``_v`` field is the version), ``:ans:<poll>``, ``:score``, ``:events``, ``:seen``,
``:follow`` (sorted sets scored by time), ``:polls`` (the polls that have answers) and
``:hit:<device>:<window>``. Every write renews the session's time to live, on every key of
the session (the answers to every poll too, not only the open one's).
"""

from __future__ import annotations

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from hall.store import HallUnavailable, Store

__all__ = ["RedisStore"]

#: Seconds a command may wait for the server before the hall says it is unavailable: a
#: page's timer must not hang on a stopped server.
TIMEOUT = 1.0

#: Connections one process holds to the server at most. Streamlit runs each session's script
#: in a thread of its own and a lecturer's move runs every follower's page at once, so more
#: threads than this may want one together: they wait for a free one (up to
#: :data:`POOL_WAIT` seconds; a command holds its connection for one round trip) instead of
#: failing as redis-py's default pool does past its 100 connections, which a page would show
#: as "the hall is unavailable" while the server is well.
POOL = 64
POOL_WAIT = 5.0

#: The session's keys whose names do not depend on a poll; ``polls`` (last) names the
#: answer keys (``ans:<poll>``) that are renewed with them.
_FIXED = ("meta", "state", "score", "events", "seen", "follow", "polls")

# Renew the session: KEYS are the fixed keys (``polls`` last), ARGV the time to live and the
# prefix of the answer keys.
_RENEW = """
local ttl = tonumber(ARGV[1])
for i = 1, #KEYS do redis.call('EXPIRE', KEYS[i], ttl) end
for _, p in ipairs(redis.call('SMEMBERS', KEYS[#KEYS])) do
    redis.call('EXPIRE', ARGV[2] .. p, ttl)
end
return 1
"""

# Record an answer only while its poll is the open one, in one step on the server, so an
# answer acknowledged to a student can never land after the poll closed. KEYS: the state,
# the poll's answers, then the fixed keys; ARGV: poll, device, value, ttl, answer prefix.
_PUT_ANSWER = """
if redis.call('HGET', KEYS[1], 'open') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('SADD', KEYS[#KEYS], ARGV[1])
local ttl = tonumber(ARGV[4])
for i = 2, #KEYS do redis.call('EXPIRE', KEYS[i], ttl) end
for _, p in ipairs(redis.call('SMEMBERS', KEYS[#KEYS])) do
    redis.call('EXPIRE', ARGV[5] .. p, ttl)
end
return 1
"""

# Merge fields into the state unless its field ARGV[3] is set already (one step on the
# server, so two lecturer pages revealing at once score the poll once). KEYS: the state,
# then the fixed keys (meta first, polls last); ARGV: ttl, answer prefix, the guard field,
# then field, value pairs. Returns the new version, -1 if guarded, -2 without a session.
_UPDATE_UNLESS = """
if redis.call('EXISTS', KEYS[2]) == 0 then return -2 end
local g = redis.call('HGET', KEYS[1], ARGV[3])
if g and g ~= '' then return -1 end
for i = 4, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
local v = redis.call('HINCRBY', KEYS[1], '_v', 1)
local ttl = tonumber(ARGV[1])
for i = 1, #KEYS do redis.call('EXPIRE', KEYS[i], ttl) end
for _, p in ipairs(redis.call('SMEMBERS', KEYS[#KEYS])) do
    redis.call('EXPIRE', ARGV[2] .. p, ttl)
end
return v
"""


def _wrap(method):
    def call(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except (redis.ConnectionError, redis.TimeoutError) as e:
            raise HallUnavailable(f"the hall's store (Redis at {self.url}) does not answer: "
                                  f"{e}") from e
    call.__name__ = method.__name__
    call.__doc__ = method.__doc__
    return call


class RedisStore(Store):
    """A :class:`hall.store.Store` in a redis-server at ``url`` (``redis://host:port/db``)."""

    def __init__(self, url: str):
        self.url = url
        # one retry of a command whose connection broke (the server restarted under it), none
        # of one that timed out: a hung server costs a page TIMEOUT once
        retry = Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,))
        pool = redis.BlockingConnectionPool.from_url(
            url, max_connections=POOL, timeout=POOL_WAIT, decode_responses=True,
            socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT, health_check_interval=10,
            retry=retry)
        self._r = redis.Redis(connection_pool=pool)
        self._put = self._r.register_script(_PUT_ANSWER)
        self._renew = self._r.register_script(_RENEW)
        self._update_unless = self._r.register_script(_UPDATE_UNLESS)

    def close(self):
        self._r.close()

    @staticmethod
    def _k(room, *part):
        return ":".join(("hall", room) + part)

    def _expire(self, pipe, room, ttl):
        self._renew(keys=[self._k(room, part) for part in _FIXED],
                    args=[int(ttl), self._k(room, "ans", "")], client=pipe)

    @_wrap
    def ping(self):
        self._r.ping()

    @_wrap
    def create(self, room, meta, ttl):
        key = self._k(room, "meta")
        if not self._r.hsetnx(key, "_created", "1"):
            return False
        with self._r.pipeline() as p:
            p.hset(key, mapping=dict(meta))
            p.hset(self._k(room, "state"), "_v", 0)
            self._expire(p, room, ttl)
            p.execute()
        return True

    @_wrap
    def meta(self, room):
        m = self._r.hgetall(self._k(room, "meta"))
        if not m:
            return None
        m.pop("_created", None)
        return m

    @_wrap
    def update(self, room, fields, ttl):
        if not self._r.exists(self._k(room, "meta")):
            raise KeyError(room)
        with self._r.pipeline() as p:
            if fields:
                p.hset(self._k(room, "state"), mapping=dict(fields))
            p.hincrby(self._k(room, "state"), "_v", 1)
            self._expire(p, room, ttl)
            return int(p.execute()[1 if fields else 0])

    @_wrap
    def update_unless(self, room, fields, ttl, guard):
        args = [int(ttl), self._k(room, "ans", ""), guard]
        for k, v in fields.items():
            args += [k, v]
        v = int(self._update_unless(
            keys=[self._k(room, "state")] + [self._k(room, part) for part in _FIXED],
            args=args))
        if v == -2:
            raise KeyError(room)
        return None if v < 0 else v

    @_wrap
    def version(self, room):
        v = self._r.hget(self._k(room, "state"), "_v")
        return None if v is None else int(v)

    @_wrap
    def state(self, room):
        s = self._r.hgetall(self._k(room, "state"))
        if not s:
            return None
        return int(s.pop("_v")), s

    @_wrap
    def put_answer(self, room, poll, device, value, ttl):
        keys = [self._k(room, "state"), self._k(room, "ans", poll)]
        keys += [self._k(room, part) for part in _FIXED]
        return bool(self._put(keys=keys, args=[poll, device, value, int(ttl),
                                               self._k(room, "ans", "")]))

    @_wrap
    def answers(self, room, poll):
        return self._r.hgetall(self._k(room, "ans", poll))

    @_wrap
    def answer(self, room, poll, device):
        return self._r.hget(self._k(room, "ans", poll), device)

    @_wrap
    def add_score(self, room, devices, ttl):
        with self._r.pipeline() as p:
            for d in devices:
                p.hincrby(self._k(room, "score"), d, 1)
            self._expire(p, room, ttl)
            p.execute()

    @_wrap
    def score(self, room, device):
        return int(self._r.hget(self._k(room, "score"), device) or 0)

    @_wrap
    def log(self, room, event, ttl):
        if not self._r.exists(self._k(room, "meta")):
            return
        with self._r.pipeline() as p:
            p.rpush(self._k(room, "events"), event)
            self._expire(p, room, ttl)
            p.execute()

    @_wrap
    def events(self, room):
        return self._r.lrange(self._k(room, "events"), 0, -1)

    @_wrap
    def seen(self, room, device, following, now, ttl):
        # as in memory: a page of a room that does not exist (ended, expired, mistyped) is
        # not counted, and leaves no keys behind
        if not self._r.exists(self._k(room, "meta")):
            return
        with self._r.pipeline() as p:
            p.zadd(self._k(room, "seen"), {device: now})
            if following:
                p.zadd(self._k(room, "follow"), {device: now})
            else:
                p.zrem(self._k(room, "follow"), device)
            p.expire(self._k(room, "seen"), int(ttl))
            p.expire(self._k(room, "follow"), int(ttl))
            p.execute()

    @_wrap
    def refresh(self, room, device, following, now, ttl):
        if self._r.zscore(self._k(room, "seen"), device) is None:
            return False
        self.seen(room, device, following, now, ttl)
        return True

    @_wrap
    def presence(self, room, since):
        with self._r.pipeline() as p:
            p.zcount(self._k(room, "seen"), since, "+inf")
            p.zcount(self._k(room, "follow"), since, "+inf")
            seen, following = p.execute()
        return int(seen), int(following)

    @_wrap
    def hit(self, room, device, window, ttl):
        key = self._k(room, "hit", device, str(window))
        with self._r.pipeline() as p:
            p.incr(key)
            p.expire(key, int(max(ttl, 1)))
            return int(p.execute()[0])

    @_wrap
    def delete(self, room):
        keys = list(self._r.scan_iter(match=self._k(room, "*"), count=500))
        if keys:
            self._r.delete(*keys)
