"""What a student's browser waits on instead of running a Streamlit timer: the hall's version
route (``hall/version_route.py``), which holds the request until the lecturer moves, over one
kept-alive HTTP/1.1 connection through the balancer, as ``fetch`` does
(:class:`VersionPoller`), and what the page's watcher script does with the answer
(:class:`Watcher`). Loopback only."""

from __future__ import annotations

import asyncio
import json
import urllib.parse

from stclient import LOOPBACK, ProtocolError, RunResult, StreamlitClient

#: The key of a student's watcher (pages/common/hall_watch.py).
WATCH = "hall.watch"


class VersionPoller:
    """``GET /hall/version`` for one browser (its cookies, so the balancer's affinity)."""

    def __init__(self, host: str, port: int, cookie: str = "", timeout: float = 30.0):
        if host not in LOOPBACK:
            raise ValueError(f"Load tests run on loopback only; got host {host!r}.")
        self.host, self.port, self.cookie, self.timeout = host, int(port), cookie, timeout
        self._reader = self._writer = None

    async def get(self, path: str, params: dict) -> tuple[int, dict | None]:
        """(status, the JSON answer or None); a dropped connection is opened again once."""
        target = f"{path}?{urllib.parse.urlencode(params)}"
        request = (f"GET {target} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                   f"Cookie: {self.cookie}\r\nAccept: application/json\r\n\r\n").encode()
        for attempt in (1, 2):
            try:
                if self._writer is None:
                    self._reader, self._writer = await asyncio.wait_for(
                        asyncio.open_connection(self.host, self.port), self.timeout)
                self._writer.write(request)
                await self._writer.drain()
                return await asyncio.wait_for(self._answer(), self.timeout)
            except (OSError, asyncio.IncompleteReadError, ProtocolError):
                await self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _answer(self) -> tuple[int, dict | None]:
        head = await self._reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        try:
            status = int(lines[0].split()[1])
        except (IndexError, ValueError):
            raise ProtocolError(f"not an HTTP answer: {lines[0][:80]!r}") from None
        headers = {k.strip().lower(): v.strip() for k, _, v in
                   (line.partition(":") for line in lines[1:] if line)}
        body = await self._reader.readexactly(int(headers.get("content-length", "0")))
        if headers.get("connection", "").lower() == "close":
            await self.close()
        try:
            return status, json.loads(body) if body else None
        except ValueError:
            return status, None

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            try:
                await self._writer.wait_closed()
            except OSError:
                pass
        self._reader = self._writer = None


class Watcher:
    """What the watcher's script does on one page (pages/common/hall_watch.js): one request
    at a time to the route with the version the page acted on, held by the route until the
    version changes; a report of a version the page has not acted on, or an answer after the
    page said the hall was unavailable; a failed request made again a tick later."""

    def __init__(self, client: StreamlitClient, poller: VersionPoller):
        self.client, self.poller = client, poller
        self.asked: tuple | None = None  # (the watcher's draw, version) last reported
        self.asked_at = 0.0  # when (loop time)
        self.pending: asyncio.Task | None = None  # the request the route holds
        self.retry_at = 0.0  # after a failed request, when to ask again (loop time)
        self.held = False  # the request out carries the page's version: the route holds it

    @property
    def drawn(self) -> bool:
        """The page has drawn its watcher (a student's page served with the route)."""
        return WATCH in self.client.widgets

    async def step(self, limit: float) -> RunResult | None:
        """Wait up to ``limit`` seconds for the route's answer (asking first if no request
        is out); the run its report started, or None. A browser's page meanwhile lets its
        student answer: the caller does that between two steps."""
        loop = asyncio.get_running_loop()
        data = self.client.component_data(WATCH)
        if self.pending is None:
            reported = self.asked is not None and self.asked[0] == data["draw"] and \
                loop.time() - self.asked_at < data["retryMs"] / 1000
            if reported or loop.time() < self.retry_at:
                await asyncio.sleep(limit)  # a report's run is on its way, or a retry later
                return None
            params = {"room": data["room"], "following": "1" if data["following"] else "0"}
            if data["me"]:
                params.update(me=data["me"], seen="1")
            self.held = not data["stale"] and isinstance(data["version"], int)
            if self.held:
                params["since"] = str(data["version"])
            self.pending = asyncio.ensure_future(self.poller.get(data["url"], params))
        done, _ = await asyncio.wait({self.pending}, timeout=limit)
        if not done:
            return None
        task, self.pending = self.pending, None
        status, body = task.result()
        if status != 200 or not isinstance(body, dict):
            self.retry_at = loop.time() + data["everyMs"] / 1000
            return None  # the store down: the page says so, and the watcher asks again
        v = body.get("version")
        data = self.client.component_data(WATCH)  # the page may have run meanwhile
        if (v != data["version"] or data["stale"]) and self.asked != (data["draw"], v):
            self.asked, self.asked_at = (data["draw"], v), loop.time()
            return await self.client.trigger(WATCH, "moved", v)
        if not self.held:  # answered at once (no version to wait on): ask again a tick later
            self.retry_at = loop.time() + data["everyMs"] / 1000
        return None

    async def close(self) -> None:
        """Drop the request the route holds (the page closed or reconnected)."""
        if self.pending is not None:
            self.pending.cancel()
            try:
                await self.pending
            except (asyncio.CancelledError, Exception):
                pass
            self.pending = None
            await self.poller.close()  # its connection may hold the half-read answer
