"""The page and server benchmarks' progress bar on the terminal (stderr, so the tables on
stdout stay clean)."""

from __future__ import annotations

import sys


def progress(done: int, total: int, label: str) -> None:
    """Draw ``[####....] done/total label`` over the previous one; a new line when done."""
    width = 30
    filled = int(width * done / max(total, 1))
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label:<40}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()
