"""The command: ``python -m experiments --out DIR [--quick] [--only KEY,KEY]``.

Runs the experiments of the registry with a progress bar on stderr and
writes the report (:func:`experiments.report.write_outputs`).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from .registry import EXPERIMENTS, run_all
from .report import write_outputs
from .verdicts import VERDICTS

__all__ = ["TerminalProgress", "main", "out_problem"]


def out_problem(path) -> str | None:
    """Why the report cannot be written to the folder ``path``, or None when it can.

    Checked before anything is computed: ``path`` is a folder, or can be created as
    one, and a file can be written in it (or in the folder it would be created in).
    Nothing is left behind.
    """
    if not str(path).strip():
        return "--out is empty: give the folder to write the report in."
    out = Path(path)
    if out.exists() and not out.is_dir():
        return f"--out {path}: an existing file, not a folder. Give a folder (created if missing)."
    parent = out
    while not parent.exists():
        if parent.parent == parent:
            break
        parent = parent.parent
    if not parent.is_dir():
        return (f"--out {path}: {parent} is a file, so the folder cannot be created there. "
                "Give another folder.")
    try:
        with tempfile.TemporaryFile(dir=parent):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        where = "the folder" if parent == out else f"{parent}, where the folder would be created"
        return f"--out {path}: cannot write in {where} ({reason}). Give a writable folder."
    return None


class TerminalProgress:
    """A one-line progress bar on stderr: ``[#####-----]  50%  message  12 s``."""

    def __init__(self, stream=None, width=30):
        self.stream = stream or sys.stderr
        self.width = width
        self.start = time.perf_counter()

    def __call__(self, fraction, message=""):
        n = int(round(self.width * fraction))
        line = (f"[{'#' * n}{'-' * (self.width - n)}] {100 * fraction:3.0f}%  "
                f"{message[:60]:<60} {time.perf_counter() - self.start:5.0f} s")
        self.stream.write("\r" + line)
        self.stream.flush()

    def close(self):
        self.stream.write("\n")
        self.stream.flush()


def main(argv=None):
    """Command line: ``python -m experiments --out DIR [--quick] [--only KEYS]``."""
    parser = argparse.ArgumentParser(
        prog="python -m experiments",
        description="Rebuild every figure and table of the papers (Hussain & Shawe-Taylor 2008, "
                    "Vincent & Bengio 2002, Marukatat 2016) next to the published numbers.")
    parser.add_argument("--out", required=True, help="output folder (created if missing)")
    parser.add_argument("--quick", action="store_true",
                        help="reduced sizes and fewer splits (well under a minute)")
    parser.add_argument("--only", default="",
                        help="comma-separated experiment keys: " + ", ".join(EXPERIMENTS))
    parser.add_argument("--plotlyjs", choices=("inline", "cdn"), default="inline",
                        help="embed plotly.js in every HTML file (default, works offline) or "
                             "link it from a CDN (small files)")
    args = parser.parse_args(argv)
    problem = out_problem(args.out)
    if problem is not None:  # before the minutes of computing, not after them
        parser.error(problem)
    only = [k.strip() for k in args.only.split(",") if k.strip()] or None
    bar = TerminalProgress()
    start = time.perf_counter()
    try:
        results = run_all(quick=args.quick, only=only, progress=bar)
    except ValueError as exc:
        bar.close()
        parser.error(str(exc))
    bar.close()
    total = time.perf_counter() - start
    try:
        out = write_outputs(results, args.out, quick=args.quick, total_seconds=total,
                            plotlyjs=True if args.plotlyjs == "inline" else "cdn")
    except OSError as exc:  # the folder changed, or the disk filled, while computing
        parser.error(f"could not write the report in {args.out}: "
                     f"{exc.strerror or type(exc).__name__} ({exc.filename or args.out}).")
    counts = {v: sum(c.verdict == v for r in results for c in r.checks) for v in VERDICTS}
    print(f"{len(results)} experiments in {total:.1f} s: {counts['reproduced']} checks "
          f"reproduced, {counts['close']} close, {counts['differs']} differ. "
          f"Summary: {out / 'summary.md'}")
    return 0
