"""Summarise a py-spy collapsed-stack profile of the server (``run.py --py-spy``).

Prints the share of all samples spent inside each of the heaviest functions
(inclusive: a function counts when it is anywhere on the stack), the share per
thread kind (script runs vs the event loop that serialises and sends), and
the heaviest leaf functions.

Usage: python loadtest/profile.py PROFILE.txt [--top 25] [--match pages/ mpcore/]
"""

from __future__ import annotations

import argparse
import re
from collections import Counter

FRAME_RE = re.compile(r"^(?P<func>.+?) \((?P<file>[^:()]+)(?::\d+)?\)$")


def short(frame: str) -> str:
    m = FRAME_RE.match(frame.strip())
    if not m:
        return frame.strip()
    file = m["file"]
    for marker in ("site-packages/", "/work/main/", "python3.11/"):
        if marker in file:
            file = file.split(marker, 1)[1]
    return f"{m['func']} ({file})"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("profile")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--match", nargs="*", default=None,
                    help="only list inclusive entries whose file contains one of these")
    args = ap.parse_args(argv)
    inclusive, leaf, threads = Counter(), Counter(), Counter()
    total = 0
    with open(args.profile) as fh:
        for line in fh:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if not stack:
                continue
            n = int(count)
            total += n
            frames = [short(f) for f in stack.split(";")]
            threads["script run" if any("_run_script" in f for f in frames)
                    else "event loop / other"] += n
            for f in set(frames):
                inclusive[f] += n
            leaf[frames[-1]] += n
    print(f"{total} samples")
    print("\n| thread | share |\n|---|---:|")
    for k, v in threads.most_common():
        print(f"| {k} | {100 * v / total:.1f}% |")
    print("\n| inclusive | share |\n|---|---:|")
    shown = 0
    for f, v in inclusive.most_common():
        if args.match and not any(m in f for m in args.match):
            continue
        print(f"| `{f}` | {100 * v / total:.1f}% |")
        shown += 1
        if shown >= args.top:
            break
    print("\n| leaf (self) | share |\n|---|---:|")
    for f, v in leaf.most_common(args.top):
        print(f"| `{f}` | {100 * v / total:.1f}% |")


if __name__ == "__main__":
    main()
