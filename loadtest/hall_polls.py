"""A hall session under load: a lecturer drives, the students follow and answer polls.

``python loadtest/hall_polls.py`` starts ``deploy/serve.py``'s stack (HAProxy, two
Streamlit processes, the hall's redis-server) and drives, **through the balancer's one
address**, a lecturer (a desktop browser) and ``--students`` phones, each a websocket client
speaking Streamlit's protocol (``loadtest/stclient.py``) that runs the page's
``st.fragment(run_every=1 s)`` timers as the browser does, or, where the page draws the
hall's watcher (``deploy/hall_app.py`` serves the version route), waits on ``GET
/hall/version`` with the page's version over a kept-alive connection (the route holds it
until the lecturer moves; ``loadtest/version_poll.py``) and reports a move as the watcher's
script does:

1. the lecturer opens lesson 2 (greedy selection) on the Learn page and presses "Start a
   hall session"; the students open ``/learn?hall=ROOM`` over ``--ramp`` seconds (each gets
   its device id ``me`` in its address) and follow;
2. the lecturer moves ``--moves`` times (Next / Back between the lesson's beats); on the
   first visit of each of the first ``--polls`` beats with a pollable task (point, option,
   k: beats 2, 5, 7, 8, 9) it opens the task to the hall, waits for the answers, closes
   and reveals; every student answers once, a fifth of them change their answer;
3. after the last move, the lecturer's export (``Hall.export``, what "Session as JSON"
   serves) is read from the store.

Measured: **exactly once** (per poll, the export's answers against the clients' log of
acknowledged answers: the page said "Answer sent" and "Your answer: <what was sent>"),
**follow** (per move and student, from the lecturer's click until the student's address
shows the new beat), **the projector's count** (per answer, from its acknowledgement until
the lecturer's live "Answers: n" counts it), errors (an exception, an st.error, a timeout,
a dropped connection, a follower that never arrived, a traceback in a server log).

``--faults``: midway, while a poll is open, the Streamlit process that does not hold the
lecturer is killed (SIGKILL); its students reconnect through the balancer (as the browser
does, with the address they had, so with their device id) to the other process; while the
next poll is open, redis-server is killed and started again (it reloads its append-only
file). Then **lost** counts acknowledged answers missing from the export; the disconnects
and "The hall is unavailable" messages the faults cause are counted apart, not as errors.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for _p in (HERE, ROOT / "deploy", ROOT):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from balancer import Browser  # noqa: E402
from hall_report import report, table  # noqa: E402
from run import _tree_files, machine_busy_seconds  # noqa: E402
from stclient import ProtocolError, StreamlitClient  # noqa: E402
from version_poll import WATCH, VersionPoller, Watcher  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402
from warmup import PHONE_AGENT  # noqa: E402

LESSON = "greedy-selection"
BEATS = 10
#: The lesson's beats whose task the hall can answer (point, option, option... k, option).
POLL_BEATS = (2, 5, 7, 8, 9)
SEND, START, OPEN, CLOSE, REVEAL = ("hall.answer.send", "hall.start", "hall.poll.open",
                                    "hall.poll.close", "hall.poll.reveal")
#: What a dropped connection raises (the server's process gone).
DROPPED = (ProtocolError, OSError, ConnectionClosed)
COUNT_RE = re.compile(r"Answers: (\d+)")
FOLLOWING_RE = re.compile(r"(\d+) of (\d+) following")
UNAVAILABLE = "The hall is unavailable"
#: A follower that has not reached the lecturer's beat this many seconds after the move
#: counts as an error.
FOLLOW_LIMIT = 20.0


def moves_plan(n_moves: int) -> list[int]:
    """The beat after each move: forward through the lesson, then back, and so on."""
    beat, step, out = 1, 1, []
    for _ in range(n_moves):
        if not 1 <= beat + step <= BEATS:
            step = -step
        beat += step
        out.append(beat)
    return out


@dataclass
class Send:
    poll: int
    value: str
    t: float
    acked: bool = False
    t_ack: float = 0.0


@dataclass
class Lecture:
    """What the lecturer did, shared with the students' bookkeeping (not with their pages)."""

    room: str = ""
    key: str = ""
    moves: list = field(default_factory=list)  # (t sent, beat)
    polls: list = field(default_factory=list)  # dicts: no, beat, kind, t_open, t_close
    open_poll: int | None = None  # the poll open now (1-based)
    counts: list = field(default_factory=list)  # (t, poll, n shown on the projector)
    following: list = field(default_factory=list)  # (t, following, present)
    done: bool = False
    fault_until: float = 0.0  # "hall unavailable" is expected until then
    killed_cookie: str = ""
    redis_restarts: int = 0
    lecturer_server: str = ""
    log: list = field(default_factory=list)  # (time, what the lecturer did)

    def note(self, what: str):
        self.log.append((time.perf_counter(), what))


@dataclass
class Student:
    i: int
    browser: Browser
    rng: random.Random
    client: StreamlitClient | None = None
    device: str = ""
    devices: set = field(default_factory=set)
    server: str = ""
    joined_on: str = ""
    sends: list = field(default_factory=list)
    positions: list = field(default_factory=list)  # (t, query string)
    drawn: list = field(default_factory=list)  # (t, query string) of each run over
    errors: list = field(default_factory=list)
    reconnects: int = 0
    unavailable: int = 0
    box: bool = False  # the page shows an answer box (its Send button)
    plan: dict = field(default_factory=dict)  # poll -> (time to send, change later?)
    last_texts: list = field(default_factory=list)  # what the last full run showed
    unavailable_since: float = 0.0  # a full run showed "The hall is unavailable"
    reloads: int = 0
    poller: VersionPoller | None = None  # the browser's fetch of the hall's version route
    watcher: Watcher | None = None  # the page's watcher script, once the page drew it
    watching: bool = False  # the page's last full run drew the hall's watcher


def _texts(run) -> list[str]:
    return [t.replace("\\", "") for t in run.texts]


def _shown(kind: str, value: str) -> str:
    return f"point {value}" if kind == "point" else (f"k = {value}" if kind == "k" else value)


class HallRun:
    """One lecture: the hall's stack, its lecturer and its students."""

    def __init__(self, args, hall):
        self.args, self.hall = args, hall
        self.lecture = Lecture()
        self.rng = random.Random(args.seed)
        self.students: list[Student] = []
        self.errors: list[str] = []
        self.tick_s: list[float] = []  # a student's timer run (the fragment alone)
        self.full_s: list[float] = []  # a student's full run of the page

    # ------------------------------------------------------------ connections

    async def _client(self, who: Student | None, query: str, agent: str | None):
        """Open the Learn page at ``query`` through the balancer, as a browser tab."""
        b = who.browser if who else Browser(self.hall.url, self.args.timeout)
        for path in (f"/learn?{query}", "/_stcore/health"):
            status = await asyncio.to_thread(b.get, path)
            if status != 200:
                raise ProtocolError(f"GET {path} answered {status}")
        headers = {"Cookie": b.cookie_header()}
        if agent:
            headers["User-Agent"] = agent
        c = StreamlitClient("127.0.0.1", self.hall.port, "learn", timeout=self.args.timeout,
                            headers=headers)
        c.query_string = query
        await c.connect()
        return b, c

    # ------------------------------------------------------------ a student

    async def student(self, s: Student, delay: float):
        await asyncio.sleep(delay)
        lec = self.lecture
        try:
            _, s.client = await self._client(s, f"hall={lec.room}", PHONE_AGENT)
            s.server = s.joined_on = s.browser.cookie("mp_server") or "?"
            self._check(s, await s.client.rerun(), "join")
            s.device = s.client.query.get("me", "")
            s.devices.add(s.device)
            s.poller = VersionPoller("127.0.0.1", self.hall.port, s.browser.cookie_header(),
                                     self.args.timeout)
            if not s.device:
                s.errors.append("join: the address has no device id (me)")
                return
            nxt = time.perf_counter() + s.rng.random()
            while not lec.done:
                # every second: the page's timer, or a look at what the student can answer;
                # meanwhile a page's watcher waits on the route's answer
                wait = max(0.0, nxt - time.perf_counter())
                nxt = max(nxt + 1.0, time.perf_counter())
                try:
                    await self._student_step(s, wait)
                except DROPPED as exc:
                    if not lec.killed_cookie or s.server != lec.killed_cookie:
                        raise
                    await self._reconnect(s, exc)
        except asyncio.TimeoutError:
            s.errors.append(f"timeout: no answer within {self.args.timeout} s")
        except DROPPED as exc:
            s.errors.append(f"disconnect: {type(exc).__name__}: {exc}")
        finally:
            if s.client is not None:
                s.positions += s.client.query_log
                s.drawn += s.client.drawn_log
                await s.client.close()
            if s.watcher is not None:
                await s.watcher.close()
            if s.poller is not None:
                await s.poller.close()

    async def _reconnect(self, s: Student, exc):
        """The browser reconnects its websocket (through the balancer, which sends it to a
        live process) and asks for a run of the address it shows, its device id included."""
        s.reconnects += 1
        old = s.client
        s.positions += old.query_log
        s.drawn += old.drawn_log
        await old.close()
        for attempt in range(20):
            await asyncio.sleep(0.5 + s.rng.random())
            c = StreamlitClient("127.0.0.1", self.hall.port, "learn",
                                timeout=self.args.timeout,
                                headers={**old.headers})
            c.query_string, c.page_hash = old.query_string, old.page_hash
            try:
                await c.connect()
                run = await c.rerun()
            except (*DROPPED, asyncio.TimeoutError):
                await c.close()
                continue
            for cookie in c.set_cookies:  # the balancer's new affinity, as a browser keeps it
                name, _, rest = cookie.partition("=")
                if name.strip() == "mp_server":
                    s.server = rest.split(";")[0]
                    c.headers["Cookie"] = re.sub(r"mp_server=[^;]*", f"mp_server={s.server}",
                                                 c.headers.get("Cookie", ""))
            s.client = c
            if s.poller is not None:  # the browser's next fetch carries its new cookie
                await s.poller.close()
                s.poller.cookie = c.headers.get("Cookie", "")
            self._check(s, run, "reconnect")
            if c.query.get("me") != s.device:
                s.errors.append(f"reconnect: device id changed ({s.device} -> "
                                f"{c.query.get('me')})")
            s.devices.add(c.query.get("me", ""))
            return
        raise ProtocolError(f"no reconnect after 20 attempts ({exc})")

    def _check(self, s: Student, run, what: str):
        expected = time.perf_counter() < self.lecture.fault_until
        (self.full_s if run.full else self.tick_s).append(run.seconds)
        for e in run.exceptions:
            s.errors.append(f"{what}: exception {e[:200]}")
        for e in run.errors:
            if expected and UNAVAILABLE in e:
                s.unavailable += 1
            else:
                s.errors.append(f"{what}: st.error {e[:200]}")
        for w in run.warnings:
            if UNAVAILABLE in w:
                if expected:
                    s.unavailable += 1
                else:
                    s.errors.append(f"{what}: {w[:120]}")
        if run.full:
            s.watching = WATCH in run.keys
            s.last_texts = _texts(run)[-8:]
            shown = any(UNAVAILABLE in w for w in run.warnings)
            s.unavailable_since = (s.unavailable_since or time.perf_counter()) if shown else 0.0
        if SEND in run.keys:
            s.box = True
        elif run.full:
            s.box = False

    async def _student_step(self, s: Student, wait: float):
        c, lec = s.client, self.lecture
        if s.watching and (s.watcher is None or s.watcher.client is not c):
            if s.watcher is not None:
                await s.watcher.close()
            s.watcher = Watcher(c, s.poller)  # a reconnected page's script starts again
        if s.watching and s.watcher.drawn:
            run = await s.watcher.step(wait)
        else:
            await asyncio.sleep(wait)
            run = await c.tick()
        if run is not None:
            self._check(s, run, "tick")
        poll = lec.open_poll
        if poll is not None and not s.box and s.unavailable_since and \
                run is not None and not run.warnings and \
                time.perf_counter() - s.unavailable_since > 3.0:
            # the hall answers again but the page still says it is unavailable and shows no
            # answer box: the student reloads it, as the warning suggests
            s.reloads += 1
            s.unavailable_since = 0.0
            self._check(s, await c.rerun(), "reload")
        if poll is None or not s.box:
            return
        now = time.perf_counter()
        if poll not in s.plan:
            s.plan[poll] = [now + s.rng.uniform(0.5, self.args.answer_within),
                            s.rng.random() < self.args.change_share]
        when, change = s.plan[poll]
        mine = [x for x in s.sends if x.poll == poll]
        acked = [x for x in mine if x.acked]
        if now < when or (acked and not change):
            return
        spec = lec.polls[poll - 1]
        key = f"hall.answer.{spec['kind']}"
        if key not in c.widgets:
            s.errors.append(f"poll {poll}: the answer box has no {key}")
            return
        label, value = self._pick(c.widgets[key], spec["kind"], s.rng,
                                  avoid=acked[-1].value if acked else None)
        sent = Send(poll, value, now)
        s.sends.append(sent)
        typed = int(value) if spec["kind"] in ("point", "k") else label
        run = await c.rerun({key: typed}, trigger=SEND)
        self._check(s, run, "send")
        texts = _texts(run)
        if any("Answer sent" in t for t in texts) and \
                any(t == f"Your answer: {_shown(spec['kind'], value)}" for t in texts):
            sent.acked, sent.t_ack = True, time.perf_counter()
            if acked:  # the change is done
                s.plan[poll][1] = False
        elif not any(UNAVAILABLE in t for t in texts) and lec.open_poll == poll:
            s.errors.append(f"poll {poll}: no acknowledgement of {value!r}: {texts[-3:]}")
        else:  # refused while the hall was unavailable or the poll closing: send again
            s.plan[poll][0] = time.perf_counter() + 1.0

    @staticmethod
    def _pick(widget, kind: str, rng: random.Random, avoid=None) -> tuple[str, str]:
        """A valid answer: what the widget sends (an option's label as the radio shows it,
        Markdown-escaped) and the answer itself (as the hall stores it)."""
        if kind == "option":
            choices = [(o, re.sub(r"\\(.)", r"\1", o)) for o in widget.options]
        else:
            choices = [(str(v), str(v)) for v in range(int(widget.min), int(widget.max) + 1)]
        if avoid is not None and len(choices) > 1:
            choices = [c for c in choices if c[1] != avoid]
        return rng.choice(choices)

    # ------------------------------------------------------------ the lecturer

    async def lecturer_ticks(self, c: StreamlitClient):
        """The lecturer's browser runs its page's timers: the follow fragment and, while a
        poll is open, the live count; every "Answers: n" it shows is logged."""
        lec = self.lecture
        nxt = time.perf_counter()
        while not lec.done:
            await asyncio.sleep(max(0.0, nxt - time.perf_counter()))
            nxt += 1.0
            for fragment in list(c.auto_reruns):
                run = await c.tick(fragment)
                if run is not None:
                    self._lecturer_run(run)

    def _lecturer_run(self, run, what: str = "lecturer tick"):
        lec = self.lecture
        t = time.perf_counter()
        for e in run.exceptions:
            self.errors.append(f"{what}: exception {e[:200]}")
        for e in run.errors:
            self.errors.append(f"{what}: st.error {e[:200]}")
        for w in run.warnings:
            if not (UNAVAILABLE in w and t < lec.fault_until):
                self.errors.append(f"{what}: {w[:120]}")
        for text in _texts(run):
            m = COUNT_RE.search(text)
            if m and lec.polls:
                lec.counts.append((t, lec.polls[-1]["no"], int(m.group(1))))
            m = FOLLOWING_RE.search(text)
            if m:
                lec.following.append((t, int(m.group(1)), int(m.group(2))))

    async def lecturer(self, c: StreamlitClient):
        args, lec = self.args, self.lecture
        plan = moves_plan(args.moves)
        poll_beats = list(POLL_BEATS[:args.polls])
        fault_polls = {max(1, args.polls // 2): "kill", max(1, args.polls // 2) + 1: "redis"} \
            if args.faults else {}
        ticker = asyncio.create_task(self.lecturer_ticks(c))
        # everyone in: all students joined and shown as following
        await self._wait(lambda: sum(s.device != "" for s in self.students) == len(self.students)
                         and lec.following and lec.following[-1][1] >= len(self.students),
                         args.ramp + 60)
        for m, beat in enumerate(plan, 1):
            t = time.perf_counter()
            lec.moves.append((t, beat))
            lec.note(f"move to {beat}")
            run = await c.rerun(trigger="learn-next" if beat > c_beat(c) else "learn-back")
            self._lecturer_run(run, f"move {m}")
            if c_beat(c) != beat:
                self.errors.append(f"move {m}: the lecturer's page is at beat {c_beat(c)}, "
                                   f"not {beat}")
            await self._wait(lambda: self._arrived(beat, t), FOLLOW_LIMIT)
            await asyncio.sleep(args.pause)
            if beat in poll_beats:
                poll_beats.remove(beat)
                await self.poll(c, beat, fault_polls.get(len(lec.polls) + 1))
        lec.done = True
        await ticker

    def _arrived(self, beat: int, t: float) -> bool:
        return all(any(tt >= t and f"beat={beat}&" in q + "&" for tt, q in
                       s.positions + (s.client.query_log if s.client else []))
                   for s in self.students if not s.errors)

    async def _wait(self, cond, limit: float):
        deadline = time.perf_counter() + limit
        while not cond() and time.perf_counter() < deadline:
            await asyncio.sleep(0.2)

    async def poll(self, c: StreamlitClient, beat: int, fault: str | None):
        args, lec = self.args, self.lecture
        no = len(lec.polls) + 1
        kind = {2: "point", 7: "k"}.get(beat, "option")
        lec.polls.append(dict(no=no, beat=beat, kind=kind, t_open=time.perf_counter()))
        lec.open_poll = no  # before the click: a student may see the poll before it returns
        run = await c.rerun(trigger=OPEN)
        self._lecturer_run(run, f"open poll {no}")
        if CLOSE not in run.keys:
            self.errors.append(f"poll {no}: no Close button after opening it")
        lec.note(f"poll {no} open")
        def answered(share=1.0):
            # over the same students: those with an error are not waited for, and their
            # answers do not stand in for another's
            live = [s for s in self.students if not s.errors]
            done = sum(any(x.poll == no and x.acked for x in s.sends) and
                       not s.plan.get(no, [0, False])[1] for s in live)
            return done >= share * len(live)

        limit = args.answer_within + 60
        if fault:
            await self._wait(lambda: answered(0.4), limit)
            lec.fault_until = time.perf_counter() + 30.0
            if fault == "kill":
                victim = next(i for i in (1, 2) if f"app{i}" != lec.lecturer_server)
                lec.killed_cookie = f"app{victim}"
                await asyncio.to_thread(self.hall.kill_process, victim)
            else:
                await asyncio.to_thread(self.hall.restart_redis, kill=True)
                lec.redis_restarts += 1
            lec.note(f"fault {fault}")
            limit += 30
        await self._wait(answered, limit)
        lec.note(f"poll {no} answered")
        stuck = [s for s in self.students if not s.errors and not any(
            x.poll == no and x.acked for x in s.sends)]
        if stuck:
            self.errors.append(
                f"poll {no}: {len(stuck)} students could not answer (no answer box on their "
                f"page: {sum(not s.box for s in stuck)})")
            if os.environ.get("HALL_LOAD_DEBUG"):
                s = stuck[0]
                print(f"\nstuck student {s.i}: box {s.box}, sends {s.sends}, "
                      f"texts {s.last_texts}", file=sys.stderr)
        await asyncio.sleep(2.0)  # the projector's last count
        lec.open_poll = None
        lec.polls[-1]["t_close"] = time.perf_counter()
        run = await c.rerun(trigger=CLOSE)
        self._lecturer_run(run, f"close poll {no}")
        run = await c.rerun(trigger=REVEAL)
        self._lecturer_run(run, f"reveal poll {no}")
        if not any(t.startswith("The answer:") or "The answer:" in t for t in _texts(run)):
            self.errors.append(f"poll {no}: no answer revealed")
        await asyncio.sleep(args.pause)

    # ------------------------------------------------------------ the run

    async def run(self) -> dict:
        args, lec = self.args, self.lecture
        b, c = await self._client(None, f"lesson={LESSON}&beat=1", None)
        lec.lecturer_server = b.cookie("mp_server") or "?"
        self._lecturer_run(await c.rerun(), "lecturer load")
        self._lecturer_run(await c.rerun(trigger=START), "start")
        lec.room, lec.key = c.query.get("hall", ""), c.query.get("hall_key", "")
        if not lec.room or not lec.key:
            raise RuntimeError(f"the lecturer's address has no room or key: {c.query_string}")
        self.students = [Student(i, Browser(self.hall.url, args.timeout),
                                 random.Random(self.rng.random()))
                         for i in range(args.students)]
        t0 = time.perf_counter()
        tasks = [asyncio.create_task(self.student(s, args.ramp * s.i / max(1, args.students)))
                 for s in self.students]
        try:
            await self.lecturer(c)
        finally:
            lec.done = True
            await asyncio.gather(*tasks, return_exceptions=True)
            await c.close()
        elapsed = time.perf_counter() - t0
        if os.environ.get("HALL_LOAD_DEBUG"):
            print("\n" + "\n".join(f"{t - t0:7.1f} {w}" for t, w in lec.log), file=sys.stderr)
        export = await asyncio.to_thread(self._export)
        return report(self, export, elapsed)

    def _export(self) -> dict:
        from hall.redis_store import RedisStore
        from hall.session import Hall

        return Hall(RedisStore(self.hall.redis_url)).export(self.lecture.room, self.lecture.key)



def c_beat(c: StreamlitClient) -> int:
    try:
        return int(c.query.get("beat", "0"))
    except ValueError:
        return 0


async def run_lecture(args, progress=None) -> dict:
    """One lecture through a fresh hall (balancer, processes, redis-server)."""
    from serve import Hall

    warm = [("learn", f"lesson={LESSON}&beat={b}", phone)
            for b in range(1, BEATS + 1) for phone in (False, True)] if args.warm else False
    with Hall(args.processes, port=args.balancer_port, first_port=args.port,
              bind="127.0.0.1", redis_port=args.redis_port, warm=warm) as hall:
        run = HallRun(args, hall)
        task = asyncio.create_task(run.run())
        servers = hall.pids() + [hall.balancer.pid, hall.redis.proc.pid, hall.version.pid]
        cpu0 = {p: _cpu(p) for p in servers}
        cpu = dict(cpu0)
        t0, busy0, own0 = time.perf_counter(), machine_busy_seconds(), time.process_time()
        while not task.done():
            await asyncio.sleep(1.0)
            for p in set(hall.pids() + [hall.redis.proc.pid]) - set(cpu0):  # restarted
                cpu0[p] = cpu[p] = 0.0
            cpu.update({p: _cpu(p) for p in cpu if _cpu(p)})
            if progress and run.students:
                lec = run.lecture
                progress(f"{len(lec.moves)}/{args.moves} moves, {len(lec.polls)} polls, "
                         f"{sum(x.acked for s in run.students for x in s.sends)} answers, "
                         f"{sum(len(s.errors) for s in run.students) + len(run.errors)} errors")
        result = task.result()
        elapsed = time.perf_counter() - t0
        server = sum(cpu[p] - cpu0[p] for p in cpu)
        own = time.process_time() - own0
        result.update(server_cpu=server / elapsed, generator_cpu=own / elapsed,
                      other_cpu=max(0.0, machine_busy_seconds() - busy0 - server - own) / elapsed)
        return result


def _cpu(pid: int) -> float:
    """CPU seconds of ``pid`` and the processes it started (0 once it is gone)."""
    ticks = 0
    for text in _tree_files(pid, "stat"):
        fields = text.rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")




def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--students", type=int, default=200)
    ap.add_argument("--moves", type=int, default=20)
    ap.add_argument("--polls", type=int, default=5, choices=range(1, len(POLL_BEATS) + 1))
    ap.add_argument("--faults", choices=("none", "only", "both"), default="both",
                    help="a run without faults, one with them (kill + Redis restart), or both")
    ap.add_argument("--ramp", type=float, default=30.0, help="seconds over which students join")
    ap.add_argument("--pause", type=float, default=2.0, help="seconds on a beat after a move")
    ap.add_argument("--answer-within", type=float, default=8.0,
                    help="a student answers 0.5 to this many seconds after the poll appears")
    ap.add_argument("--change-share", type=float, default=0.2,
                    help="share of students who change their answer once")
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--port", type=int, default=8720, help="first Streamlit port (loopback)")
    ap.add_argument("--balancer-port", type=int, default=8780)
    ap.add_argument("--redis-port", type=int, default=8790)
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for one answer")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-warm", dest="warm", action="store_false",
                    help="skip drawing the lesson's beats in each process before the hall opens")
    ap.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = ap.parse_args(argv)
    if not (1 <= args.students <= 200 and 1 <= args.moves <= 40 and 2 <= args.processes <= 4):
        ap.error("bounded run: 1-200 students, 1-40 moves, 2-4 processes")
    if max(moves_plan(args.moves)[:args.moves], default=1) < POLL_BEATS[args.polls - 1]:
        ap.error(f"{args.polls} polls need the lecturer to reach beat "
                 f"{POLL_BEATS[args.polls - 1]}: give more --moves")
    results = []
    runs = {"none": [False], "only": [True], "both": [False, True]}[args.faults]

    def progress(msg):
        print(f"\r\033[K  ... {msg}", end="", file=sys.stderr, flush=True)

    for faults in runs:
        args.faults = faults
        results.append(asyncio.run(run_lecture(args, progress)))
        print(file=sys.stderr)
        for e in results[-1]["error_samples"][:5]:
            print(f"  error: {e}", file=sys.stderr)
    print(f"Lesson {LESSON} through HAProxy in front of {args.processes} Streamlit processes "
          f"and redis-server, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f} at the end")
    print(table(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, default=str))
    return 1 if any(r["errors"] or r["lost"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
