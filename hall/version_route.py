"""The hall's version over plain HTTP: what a student's page waits on.

A following student's page must notice within a second or two that the lecturer moved. A
Streamlit timer (``st.fragment(run_every=...)``) notices by running the page's fragment:
a few milliseconds of the server's CPU per student per second, most of them Streamlit's own,
so 200 students keep about one core busy doing nothing. This route answers the same
question, the session's version, without a Streamlit run; the page's watcher
(``pages/common/hall_watch.py``) asks it and reruns the page only when the version
changed. It is mounted by ``deploy/hall_app.py`` (Streamlit's ASGI ``st.App``), which
``deploy/serve.py`` runs, and served alone by ``hall/version_app.py``, the process to which
``deploy/serve.py``'s HAProxy sends these requests when the hall has Redis.

``GET /hall/version?room=ROOM[&since=N][&me=DEVICE&following=0|1&seen=1]`` answers
``{"version": n}`` (``null``: no such session, ended or expired). With ``since``, the
version the page acted on, the answer waits until the version is another or
``hall.version_wait.HOLD`` seconds pass (then it is ``since``): a move reaches a watcher at
once, with no request each second. With ``seen=1`` the device is kept present (only a
device whose page has run in this room: a request cannot add one). A malformed room or
``since`` is a 400, the store down a 503. It reveals nothing a student's page does not show:
no key, no answer, no page or view.
"""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from .config import process_hall
from .session import valid_device, valid_room
from .store import HallUnavailable
from .version_wait import changed

#: Where the route is mounted, from the server's root (the path the pages' watcher asks).
PATH = "/hall/version"
#: The environment variable ``deploy/hall_app.py`` sets for the pages: the route is there.
WATCH_ENV = "MP_HALL_WATCH"

_NO_STORE = {"Cache-Control": "no-store"}


async def version(request: Request) -> JSONResponse:
    q = request.query_params
    room = q.get("room", "")
    if not valid_room(room):
        return JSONResponse({"error": "room must be a room code (six letters and digits, as "
                                      "the lecturer shows it)"}, status_code=400,
                            headers=_NO_STORE)
    since = q.get("since")
    if since is not None:
        if not (since.isascii() and since.isdigit() and len(since) <= 12):
            return JSONResponse({"error": "since must be the version the page shows (a whole "
                                          "number)"}, status_code=400, headers=_NO_STORE)
        since = int(since)
    me = q.get("me") if q.get("seen") == "1" and valid_device(q.get("me")) else None
    try:
        # the store's calls block (Redis over a socket): off the server's event loop
        v = await run_in_threadpool(_read, room, me, q.get("following") == "1")
        if since is not None and v == since:
            v = await changed(room, since)
    except HallUnavailable:
        return JSONResponse({"error": "the hall is unavailable"}, status_code=503,
                            headers=_NO_STORE)
    return JSONResponse({"version": v}, headers=_NO_STORE)


def _read(room: str, me: str | None, following: bool) -> int | None:
    hall = process_hall()
    if me is not None:
        hall.refresh(room, me, following)
    return hall.version(room)


ROUTES = [Route(PATH, version, methods=["GET"])]
