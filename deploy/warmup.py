"""The warm-up of deploy/serve.py: every page drawn once in each process before the hall opens.

A page's first run on a cold process computes what every later session of that process
then takes from its caches (the eigenvalue page's spectra: several seconds on digits), so
the balancer opens only after each process has drawn every page, wide and on a phone, and
the pages of :data:`WARM_EVERY_DATASET` on every bundled data set.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The pages the warm-up opens on every bundled data set, not only their default one: the
#: eigenvalue page computes a data set's kernel matrix, exact spectrum and approximations
#: (digits: several seconds), which every later session of the process then shares.
WARM_EVERY_DATASET = ("spectrum",)
#: Seconds one warm-up view may take (a page's first run on a cold process included).
WARM_TIMEOUT = 300.0

#: The User-Agent of the warm-up's phone views: a phone's first run draws the phone layout
#: (``pages.common.phone.is_narrow``), whose figures are cached apart from the wide ones.
PHONE_AGENT = ("Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 "
               "(KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1")


def warm_targets(pages) -> list[tuple[str, str, bool]]:
    """What the warm-up opens, as (url path, query string, on a phone): every page of
    ``pages`` (url paths; "" is Home) at its default view, wide and on a phone, then each
    page of :data:`WARM_EVERY_DATASET` among them on every bundled data set (wide)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import datasets

    targets = [(page, "", phone) for phone in (False, True) for page in pages]
    for page in WARM_EVERY_DATASET:
        if page in pages:
            targets += [(page, f"dataset={name}", False) for name in datasets.names()]
    return targets


async def _warm_one(port: int, page: str, query: str = "",
                    phone: bool = False) -> tuple[list[str], list[str]]:
    """Open one view on the process at ``port``, as a browser tab would: what went wrong,
    and the url paths of the app's pages (from the server's navigation message)."""
    if str(ROOT / "loadtest") not in sys.path:
        sys.path.insert(0, str(ROOT / "loadtest"))
    from stclient import StreamlitClient

    c = StreamlitClient("127.0.0.1", port, page, timeout=WARM_TIMEOUT,
                        headers={"User-Agent": PHONE_AGENT} if phone else None)
    c.query_string = query
    try:
        await c.connect()
        run = await c.rerun()
        return [f"{kind}: {text[:200]}" for kind, texts in
                (("exception", run.exceptions), ("error", run.errors)) for text in texts], \
            c.app_pages
    except Exception as exc:  # a timeout or a dropped connection: say so, go on
        return [f"{type(exc).__name__}: {exc}"], c.app_pages
    finally:
        await c.close()


async def warm_up(ports, targets=None, progress=None) -> list[str]:
    """Open every view of ``targets`` (default: :func:`warm_targets` of the app's pages, as
    the first process's Home announces them) once on each process of ``ports``: the
    processes side by side, each one view at a time. ``progress(done, total, label)`` after
    each view. Returns what went wrong, one line each (nothing: every view was drawn)."""
    problems = []
    if targets is None:
        found, pages = await _warm_one(ports[0], "")
        problems += [f"process 1 /: {p}" for p in found]
        targets = warm_targets(pages)
    total, done = len(ports) * len(targets), [0]

    async def one_process(i, port):
        for page, query, phone in targets:
            label = f"/{page}" + (f"?{query}" if query else "") + (" (phone)" if phone else "")
            found, _ = await _warm_one(port, page, query, phone)
            for p in found:
                problems.append(f"process {i} {label}: {p}")
            done[0] += 1
            if progress:
                progress(done[0], total, label)

    await asyncio.gather(*(one_process(i, p) for i, p in enumerate(ports, 1)))
    return problems


def progress_bar(done: int, total: int, label: str) -> None:
    width = 30
    filled = width * done // max(total, 1)
    sys.stdout.write(f"\rWarming up [{'#' * filled}{'.' * (width - filled)}] {done}/{total} "
                     f"{label[:40]:<40}")
    if done == total:
        sys.stdout.write("\n")
    sys.stdout.flush()
