"""A minimal Streamlit websocket client speaking the frontend's protobuf protocol.

It does what the browser does for one tab, without rendering anything:

* connects to ``ws://127.0.0.1:PORT/_stcore/stream`` with the ``streamlit``
  subprotocol (no Origin header, so the server's same-origin check passes and
  no XSRF token is needed: the token only guards the auth cookie);
* asks for a page by its url path (``ClientState.page_name``), exactly like a
  deep link, then reruns with the page hash the server announced in its
  ``navigation`` message;
* sends widget values as ``WidgetStates`` (a slider is a ``double_array_value``,
  a button click a ``trigger_value``), keyed by the widget ids it learnt from
  the ``new_element`` deltas (a keyed widget's id ends with ``-<key>``);
* keeps the hashes of cacheable messages and sends them back in
  ``cached_message_hashes`` (the frontend's message cache), so the server
  sends a short reference instead of an unchanged large element;
* a click on a button inside an ``st.fragment`` (known from ``Delta.fragment_id``)
  asks for a fragment rerun, as the browser does;
* an ``st.fragment(run_every=...)`` timer: the server announces it (``auto_rerun``:
  fragment id and interval; ``stop_auto_rerun`` and every full run end it, as in the
  frontend) and the browser, not the server, starts its runs; :meth:`tick` sends one
  (``rerun_script`` with the fragment id and ``is_auto_rerun``), so a simulated phone
  keeps its timer going by calling it every ``interval`` seconds;
* follows the address as the browser's address bar does (``page_info_changed``, with
  the time each query string arrived in ``query_log``), and logs when a run of the page
  or of a fragment was over (every element of it received) with the address it drew
  (``drawn_log``);
* answers nothing else: a run is finished when ``script_finished`` arrives.

One request runs at a time per client (a click waits for a timer's run to finish).

Only loopback addresses are accepted.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.parse
from dataclasses import dataclass, field

from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import connect

LOOPBACK = ("127.0.0.1", "localhost", "::1")
#: The prefix of Streamlit's internal widget ids (a components-v2 element's trigger widget).
INTERNAL_KEY = "$$STREAMLIT_INTERNAL_KEY"

#: Script runs a cached message survives without being used (the frontend's
#: ``maxCachedMessageAge`` default).
CACHE_AGE = 2

STEP_RE = re.compile(r"Step (\d+) of (\d+)")


class ProtocolError(RuntimeError):
    """The server closed the connection or answered something unexpected."""


@dataclass
class RunResult:
    """What one script run sent back."""

    seconds: float
    status: int
    n_messages: int
    n_bytes: int
    exceptions: list = field(default_factory=list)
    errors: list = field(default_factory=list)  # st.error texts
    warnings: list = field(default_factory=list)  # st.warning texts
    step_text: str | None = None
    texts: list = field(default_factory=list)  # every markdown / caption / alert text
    keys: set = field(default_factory=set)  # the keyed widgets this run drew
    fragment: str = ""  # the fragment this run was asked to rerun ("" for a full run)
    full: bool = False  # a full run of the page took place (asked for, or started by the app)


class StreamlitClient:
    """One simulated browser tab on one page of a running Streamlit server."""

    def __init__(self, host: str, port: int, page: str, *, timeout: float = 30.0,
                 headers: dict | None = None):
        if host not in LOOPBACK:
            raise ValueError(f"Load tests run on loopback only; got host {host!r}.")
        self.url = f"ws://{host}:{int(port)}/_stcore/stream"
        self.page = page
        self.timeout = timeout
        self.headers = dict(headers or {})  # e.g. the balancer's affinity cookie
        self.session_id = ""
        self._upload_urls: dict[str, asyncio.Future] = {}
        self._pending_file = None  # (key, FileURLs, name, size) for the next rerun
        self.ws = None
        self.page_hash = ""
        self.query_string = ""
        self.app_pages: list[str] = []  # url path of every page ("" for the default one)
        self.widget_ids: dict[str, str] = {}  # user key -> widget id
        self.widgets: dict[str, object] = {}  # user key -> element proto (last seen)
        self.fragments: dict[str, str] = {}  # user key -> id of the st.fragment holding it
        self.widget_kinds: dict[str, str] = {}  # user key -> element kind ("slider", ...)
        self._cache: dict[str, int] = {}  # message hash -> run number it was last seen
        self._messages: dict[str, ForwardMsg] = {}  # message hash -> the message itself
        self._run_no = 0
        self._reader = None
        self._finished: asyncio.Future | None = None
        self._current: RunResult | None = None
        self._t0 = 0.0
        self.closed_reason: str | None = None
        #: fragment id -> interval [s] of every st.fragment(run_every=...) timer running
        self.auto_reruns: dict[str, float] = {}
        #: (time.perf_counter(), query string) each time the address changed
        self.query_log: list[tuple[float, str]] = []
        #: (time.perf_counter(), query string) each time a full run of the page was over
        self.drawn_log: list[tuple[float, str]] = []
        self._full_run = False  # the run now arriving is a full run (not a fragment's)
        #: Set-Cookie headers of the websocket's upgrade answer (a balancer's new affinity)
        self.set_cookies: list[str] = []
        self._busy = asyncio.Lock()

    # ------------------------------------------------------------ connection

    async def connect(self) -> None:
        self.ws = await connect(self.url, subprotocols=["streamlit"], max_size=None,
                                open_timeout=self.timeout, ping_interval=None,
                                compression=None, additional_headers=self.headers or None)
        response = getattr(self.ws, "response", None)
        if response is not None:
            self.set_cookies = response.headers.get_all("Set-Cookie")
        self._reader = asyncio.create_task(self._read_loop())

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            try:
                await self._reader
            except (asyncio.CancelledError, Exception):
                pass
        if self.ws is not None:
            await self.ws.close()

    async def _read_loop(self) -> None:
        try:
            async for data in self.ws:
                msg = ForwardMsg()
                msg.ParseFromString(data)
                self._handle(msg, len(data))
        except Exception as exc:  # connection lost
            self.closed_reason = f"{type(exc).__name__}: {exc}"
        else:
            self.closed_reason = "server closed the connection"
        if self._finished is not None and not self._finished.done():
            self._finished.set_exception(ProtocolError(self.closed_reason))

    # ------------------------------------------------------------ messages

    def _handle(self, msg: ForwardMsg, size: int) -> None:
        run = self._current
        if run is not None:
            run.n_messages += 1
            run.n_bytes += size
        kind = msg.WhichOneof("type")
        if msg.metadata.cacheable and msg.hash:
            self._cache[msg.hash] = self._run_no
            self._messages[msg.hash] = msg
        if kind == "ref_hash":
            # an unchanged element the browser already holds: read it as the browser would
            self._cache[msg.ref_hash] = self._run_no
            cached = self._messages.get(msg.ref_hash)
            if cached is not None and cached.WhichOneof("type") == "delta" and \
                    cached.delta.WhichOneof("type") == "new_element":
                self._element(cached.delta.new_element, run, cached.delta.fragment_id)
        elif kind == "new_session":
            if msg.new_session.HasField("initialize"):
                self.session_id = msg.new_session.initialize.session_id or self.session_id
            self._full_run = not msg.metadata.run.fragment_ids
            if self._full_run:
                self.auto_reruns.clear()  # a full run: the frontend drops every timer
                if run is not None:
                    run.full = True
        elif kind == "auto_rerun":
            if msg.auto_rerun.fragment_id:
                self.auto_reruns[msg.auto_rerun.fragment_id] = msg.auto_rerun.interval
        elif kind == "stop_auto_rerun":
            for fid in msg.stop_auto_rerun.fragment_ids:
                self.auto_reruns.pop(fid, None)
        elif kind == "file_urls_response":
            fut = self._upload_urls.pop(msg.file_urls_response.response_id, None)
            if fut is not None and not fut.done():
                fut.set_result(list(msg.file_urls_response.file_urls))
        elif kind == "navigation":
            self.page_hash = msg.navigation.page_script_hash
            self.app_pages = ["" if p.is_default else p.url_pathname
                              for p in msg.navigation.app_pages]
        elif kind == "page_info_changed":
            self.query_string = msg.page_info_changed.query_string
            self.query_log.append((time.perf_counter(), self.query_string))
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            self._element(msg.delta.new_element, run, msg.delta.fragment_id)
        elif kind == "script_finished":
            if msg.script_finished in (ForwardMsg.FINISHED_SUCCESSFULLY,
                                       ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY):
                # a full run, or a fragment's (the rest of the page stays as it was drawn)
                self.drawn_log.append((time.perf_counter(), self.query_string))
            if run is not None:
                run.seconds = time.perf_counter() - self._t0
                run.status = msg.script_finished
            if msg.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                if self._finished is not None and not self._finished.done():
                    self._finished.set_result(run)

    def _element(self, el, run: RunResult | None, fragment_id: str = "") -> None:
        kind = el.WhichOneof("type")
        if kind is None:
            return
        body = getattr(el, kind)
        wid = getattr(body, "id", "") if hasattr(body, "id") else ""
        if wid:
            # A keyed widget id is "$$ID-<hash>-<user key>".
            parts = wid.split("-", 2)
            if len(parts) == 3 and parts[0] == "$$ID":
                self.widget_ids[parts[2]] = wid
                self.widgets[parts[2]] = body
                self.widget_kinds[parts[2]] = kind
                self.fragments[parts[2]] = fragment_id
                if run is not None:
                    run.keys.add(parts[2])
        if run is None:
            return
        if kind == "exception":
            run.exceptions.append(f"{body.type}: {body.message}")
        elif kind == "alert" and body.format == Alert.ERROR:
            run.errors.append(body.body)
        elif kind == "alert" and body.format == Alert.WARNING:
            run.warnings.append(body.body)
        if kind == "alert":
            run.texts.append(body.body)
        elif kind == "bidi_component" and body.component_name == "mp_timeline":
            # the page's timeline bar (pages/common/timeline.py): its data holds j and n
            try:
                data = json.loads(body.json)
                run.step_text = f"Step {int(data['j'])} of {int(data['n'])}"
            except (ValueError, KeyError, TypeError):
                run.errors.append(f"unreadable timeline data: {body.json[:200]}")
        elif kind == "markdown":
            run.texts.append(body.body)
            if STEP_RE.search(body.body):
                run.step_text = STEP_RE.search(body.body).group(0)

    # ------------------------------------------------------------ reruns

    def _cached_hashes(self) -> list[str]:
        alive = {h: r for h, r in self._cache.items() if self._run_no - r < CACHE_AGE}
        self._cache = alive
        self._messages = {h: m for h, m in self._messages.items() if h in alive}
        return list(alive)

    @property
    def query(self) -> dict[str, str]:
        """The address's fields now (as the browser's address bar shows them)."""
        return dict(urllib.parse.parse_qsl(self.query_string, keep_blank_values=True))

    @property
    def busy(self) -> bool:
        """A request of this client is waiting for its run."""
        return self._busy.locked()

    async def tick(self, fragment: str | None = None,
                   timeout: float | None = None) -> RunResult | None:
        """One run of a ``run_every`` fragment (default: the first the page announced), as
        the browser's timer starts it (None: the page has no such timer now)."""
        async with self._busy:  # a full run may have ended the timer meanwhile
            if fragment is None:
                fragment = next(iter(self.auto_reruns), None)
            if fragment is None or fragment not in self.auto_reruns:
                return None
            return await self._rerun(None, None, fragment, True, timeout or self.timeout)

    def _set_value(self, w, key: str, value) -> None:
        """``value`` in the widget state field of ``key``'s kind of widget."""
        kind = self.widget_kinds.get(key)
        if kind == "number_input":
            w.double_value = float(value)
        elif kind in ("radio", "selectbox", "text_input", "text_area"):
            w.string_value = str(value)
        elif isinstance(value, bool):
            w.bool_value = value
        elif isinstance(value, (int, float)):
            w.double_array_value.data.append(float(value))  # st.slider
        else:
            w.string_value = str(value)

    async def rerun(self, values: dict | None = None, trigger: str | None = None, *,
                    fragment: str | None = None, auto: bool = False,
                    timeout: float | None = None) -> RunResult:
        """Rerun the page with ``values`` (user key -> value) and an optional button click
        (``fragment``: rerun only that fragment, ``auto``: as its timer does; ``timeout``
        instead of the client's)."""
        async with self._busy:
            return await self._rerun(values, trigger, fragment, auto, timeout or self.timeout)

    async def _rerun(self, values, trigger, fragment, auto, timeout,
                     trigger_json=None) -> RunResult:
        msg = BackMsg()
        cs = msg.rerun_script
        cs.query_string = self.query_string
        cs.page_script_hash = self.page_hash
        cs.page_name = "" if self.page_hash else self.page
        cs.cached_message_hashes.extend(self._cached_hashes())
        for key, value in (values or {}).items():
            w = cs.widget_states.widgets.add()
            w.id = self.widget_ids[key]
            self._set_value(w, key, value)
        pending = self._pending_file
        if pending is not None:
            key, urls, name, size = pending
            w = cs.widget_states.widgets.add()
            w.id = self.widget_ids[key]
            info = w.file_uploader_state_value.uploaded_file_info.add()
            info.file_id, info.name, info.size = urls.file_id, name, size
            info.file_urls.CopyFrom(urls)
        if trigger is not None:
            w = cs.widget_states.widgets.add()
            w.id = self.widget_ids[trigger]
            w.trigger_value = True
            if self.fragments.get(trigger):
                # a button inside st.fragment reruns only that fragment, as in the browser
                cs.fragment_id = self.fragments[trigger]
        if trigger_json is not None:
            wid, event, value = trigger_json
            w = cs.widget_states.widgets.add()
            w.id = f"{INTERNAL_KEY}_{wid}__events"
            w.json_trigger_value = json.dumps([{"event": event, "value": value}])
        if fragment:
            cs.fragment_id = fragment
            cs.is_auto_rerun = auto
        if self.closed_reason:
            raise ProtocolError(self.closed_reason)
        loop = asyncio.get_running_loop()
        self._finished = loop.create_future()
        self._current = RunResult(seconds=float("nan"), status=-1, n_messages=0, n_bytes=0,
                                  fragment=cs.fragment_id)
        self._run_no += 1
        self._t0 = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        try:
            return await asyncio.wait_for(self._finished, timeout)
        finally:
            self._current = None

    async def upload_urls(self, file_name: str):
        """Ask the server where to PUT a file (what the browser does before an upload)."""
        msg = BackMsg()
        request_id = f"upload-{len(self._upload_urls)}-{time.perf_counter_ns()}"
        msg.file_urls_request.request_id = request_id
        msg.file_urls_request.file_names.append(file_name)
        msg.file_urls_request.session_id = self.session_id
        fut = asyncio.get_running_loop().create_future()
        self._upload_urls[request_id] = fut
        await self.ws.send(msg.SerializeToString())
        urls = await asyncio.wait_for(fut, self.timeout)
        return urls[0]

    async def rerun_with_file(self, key: str, file_urls, name: str, size: int,
                              values: dict | None = None) -> RunResult:
        """Rerun with ``key``'s st.file_uploader holding the file uploaded to ``file_urls``."""
        self._pending_file = (key, file_urls, name, size)
        try:
            return await self.rerun(values)
        finally:
            self._pending_file = None

    def component_data(self, key: str) -> dict:
        """The data the page last gave its keyed component ``key`` (a components-v2
        element), as the component's JavaScript receives it."""
        return json.loads(self.widgets[key].json)

    async def trigger(self, key: str, event: str, value, timeout: float | None = None
                      ) -> RunResult:
        """What a components-v2 element's ``setTriggerValue(event, value)`` sends: its
        trigger widget (the element's id, ``__events``) with the event, a rerun of the
        fragment holding it (or of the page)."""
        async with self._busy:
            return await self._rerun(None, None, self.fragments.get(key) or None, False,
                                     timeout or self.timeout,
                                     trigger_json=(self.widget_ids[key], event, value))

    def slider_max(self, key: str) -> float:
        return float(self.widgets[key].max)
