"""What both load tests check and report: the step count the sparse-KPCA page must show,
and one percentile rule."""

from __future__ import annotations

import re

#: The page's warning when the kernel matrix has numerical rank below k (pages/skpca.py).
STOPPED_RE = re.compile(r"Stopped early after (\d+) of k = (\d+) steps")


def early_stop(run) -> tuple[int, int] | None:
    """(n, k) of the page's "Stopped early after n of k = k steps" warning, if it shows one."""
    for text in run.warnings:
        m = STOPPED_RE.search(text)
        if m:
            return int(m.group(1)), int(m.group(2))
    return None


def expected_steps(run, k: int) -> int:
    """The step count the page must show for this client's ``k``: k itself, or the n < k
    of a run that stopped early, when the page's warning names this very k."""
    stop = early_stop(run)
    if stop is not None and stop[1] == k and 1 <= stop[0] < k:
        return stop[0]
    return k


def pct(values, q):
    """The ``q``-th percentile of ``values`` (the nearest rank; NaN for none)."""
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, int(round(q / 100 * (len(v) - 1))))]
