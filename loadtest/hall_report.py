"""The figures of a hall session load test (``loadtest/hall_polls.py``).

Exactly once: per poll, each student's last acknowledged answer against the lecturer's export
(an answer stored but not acknowledged, its process killed or Redis down first, is counted
apart; an answer in the export that no student sent is an error). Follow: per move and student,
from the lecturer's click until the student's address shows the new beat. The projector: the
k-th acknowledged answer of a poll is counted once the lecturer's "Answers: n" shows n >= k.
"""

from __future__ import annotations

from balancer import _kb
from checks import pct

__all__ = ["report", "table"]


def report(run, export: dict, elapsed: float) -> dict:
    """The figures of one lecture (``run``: a :class:`hall_polls.HallRun` that has ended)
    from its clients' logs and the lecturer's ``export``."""
    lec = run.lecture
    errors = list(run.errors) + [f"student {s.i}: {e}" for s in run.students
                                  for e in s.errors]
    errors += [f"student {s.i}: {len(s.devices)} device ids" for s in run.students
               if len(s.devices) > 1]
    by_poll = {int(p["poll"]): {a["device"]: a["answer"] for a in p["answers"]}
               for p in export["polls"]}
    acked_n = lost = extra = unacked_kept = 0
    mismatch = []
    count_lat = []
    for poll in lec.polls:
        no = poll["no"]
        stored = by_poll.get(no, {})
        firsts = []
        senders = set()
        for s in run.students:
            sends = [x for x in s.sends if x.poll == no]
            acks = [x for x in sends if x.acked]
            acked_n += len(acks)
            if sends:
                senders.add(s.device)
            if not acks:
                if s.device in stored:
                    unacked_kept += 1  # sent and stored, its answer lost with a process
                continue
            firsts.append(acks[0].t_ack)
            last = acks[-1]
            later = [x.value for x in sends if x.t > last.t]
            if stored.get(s.device) != last.value:
                if stored.get(s.device) in later:
                    unacked_kept += 1  # a later change, sent but not acknowledged
                else:
                    lost += 1
                    mismatch.append(f"poll {no} device {s.device}: acknowledged "
                                    f"{last.value!r}, export {stored.get(s.device)!r}")
        # an answer in the export that no student sent: counted twice, or forged
        phantom = set(stored) - senders
        extra += len(phantom)
        if phantom:
            errors.append(f"poll {no}: {len(phantom)} answers in the export from devices "
                          "that sent none")
        # the projector: the k-th acknowledged answer is counted once it shows >= k
        firsts.sort()
        shown = [(t, n) for t, p, n in lec.counts if p == no]
        for k, ta in enumerate(firsts, 1):
            seen = next((t for t, n in shown if t >= ta and n >= k), None)
            count_lat.append(float("inf") if seen is None else seen - ta)
        final = [n for t, p, n in lec.counts if p == no]
        if final and final[-1] != len(stored):
            errors.append(f"poll {no}: the projector's last count {final[-1]} != "
                          f"{len(stored)} answers in the export")
    missing_count = sum(x == float("inf") for x in count_lat)
    if missing_count:
        errors.append(f"{missing_count} acknowledged answers never counted on the projector")
    follow, drawn, by_move = [], [], []
    for (t, beat), nxt in zip(lec.moves, [m[0] for m in lec.moves[1:]] + [float("inf")]):
        first = len(drawn)
        for s in run.students:
            seen = [tt for tt, q in s.positions if t <= tt < nxt and
                    f"beat={beat}&" in q + "&"]
            page = [tt for tt, q in s.drawn if t <= tt < nxt and f"beat={beat}&" in q + "&"]
            if page:
                drawn.append(page[0] - t)
            if seen:
                follow.append(seen[0] - t)
            elif not s.errors and not (lec.killed_cookie and s.reconnects):
                errors.append(f"student {s.i} never followed move to beat {beat}")
        by_move.append(dict(beat=beat, drawn_p50=pct(drawn[first:], 50),
                            drawn_p95=pct(drawn[first:], 95)))
    errors += mismatch
    logs = run.hall.logs()
    if "Traceback" in logs:
        errors.append("a server log holds a traceback")
    spread = {}
    for s in run.students:
        spread[s.joined_on] = spread.get(s.joined_on, 0) + 1
    finite = [x for x in count_lat if x != float("inf")]
    return dict(
        students=len(run.students), processes=len(run.hall.ports), moves=len(lec.moves),
        polls=len(lec.polls), faults=bool(run.args.faults), seconds=round(elapsed),
        acknowledged=acked_n, export_answers=sum(len(v) for v in by_poll.values()),
        lost=lost, extra=max(0, extra), unacknowledged_kept=unacked_kept,
        follow_p50=pct(follow, 50), follow_p95=pct(follow, 95), drawn_by_move=by_move,
        follow_max=max(follow, default=float("nan")), follow_n=len(follow),
        drawn_p50=pct(drawn, 50), drawn_p95=pct(drawn, 95), drawn_n=len(drawn),
        count_p50=pct(finite, 50), count_p95=pct(finite, 95),
        count_max=max(finite, default=float("nan")), count_n=len(count_lat),
        following_last=lec.following[-1][1:] if lec.following else None,
        reconnects=sum(s.reconnects for s in run.students),
        unavailable=sum(s.unavailable for s in run.students),
        reloads=sum(s.reloads for s in run.students),
        redis_restarts=lec.redis_restarts, killed=lec.killed_cookie or None,
        errors=len(errors), error_samples=errors[:12], spread=dict(sorted(spread.items())),
        peak_mb_per_process=[round(_kb(p, "VmHWM") / 1024) for p in run.hall.pids()],
        tick_p50=pct(run.tick_s, 50), tick_p95=pct(run.tick_s, 95), ticks=len(run.tick_s),
        full_p50=pct(run.full_s, 50), full_p95=pct(run.full_s, 95),
        full_runs=len(run.full_s))


def table(results: list[dict]) -> str:
    rows = ["| run | students | moves | polls | answers acknowledged | in the export | lost | "
            "follow: address p50 / p95 [s] | follow: page drawn p50 / p95 [s] | "
            "projector count p50 / p95 [s] | errors | reconnects | "
            "'unavailable' shown | reloads after it | peak RSS per process [MB] | "
            "CPU: servers / load generator / other processes |",
            "|---|" + "---:|" * 15]
    for r in results:
        name = "faults: process killed, Redis restarted" if r["faults"] else "normal"
        rows.append(
            f"| {name} | {r['students']} | {r['moves']} | {r['polls']} | {r['acknowledged']} | "
            f"{r['export_answers']} | {r['lost']} | {r['follow_p50']:.2f} / "
            f"{r['follow_p95']:.2f} | {r['drawn_p50']:.2f} / {r['drawn_p95']:.2f} | "
            f"{r['count_p50']:.2f} / {r['count_p95']:.2f} | "
            f"{r['errors']} | {r['reconnects']} | {r['unavailable']} | {r['reloads']} | "
            f"{' / '.join(str(v) for v in r['peak_mb_per_process'])} | "
            f"{100 * r['server_cpu']:.0f}% / {100 * r['generator_cpu']:.0f}% / "
            f"{100 * r['other_cpu']:.0f}% |")
    return "\n".join(rows)
