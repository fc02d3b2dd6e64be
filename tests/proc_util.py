"""A process tree read from /proc (Linux): for the tests that kill a server and check that
nothing it started is left."""

from __future__ import annotations

from pathlib import Path

__all__ = ["alive", "command", "start_time", "tree"]


def start_time(pid: int) -> int | None:
    """The process's start time (clock ticks since boot; with the pid, it names one process
    even if the pid is reused), or None when there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # the command name (field 2) is in parentheses and may hold spaces: split after it
    return int(stat[stat.rindex(")") + 2:].split()[19])


def alive(pid: int, start: int) -> bool:
    """Whether that process still runs (a zombie, dead and not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    fields = stat[stat.rindex(")") + 2:].split()
    return fields[0] != "Z" and int(fields[19]) == start


def command(pid: int) -> str:
    """The process's command line, for a failure message."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")[:200]
    except OSError:
        return f"pid {pid} (ended)"


def tree(pid: int) -> dict[int, int]:
    """pid -> start time of ``pid`` and every process below it (children of every thread)."""
    found, todo = {}, [pid]
    while todo:
        p = todo.pop()
        start = start_time(p)
        if start is None or p in found:
            continue
        found[p] = start
        for task in Path(f"/proc/{p}/task").glob("*"):
            try:
                todo += [int(c) for c in (task / "children").read_text().split()]
            except OSError:  # the thread ended meanwhile
                pass
    return found
