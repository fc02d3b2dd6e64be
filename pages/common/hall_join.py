"""Joining a hall: the lecturer's join code (room code, link, QR code), the students' "Join
a hall" box, the lecturer's sidebar box (export, end).

The join link is ``<address students open>/learn?hall=ROOM``: the address is the one the
classroom link uses (the lecturer's typed address, ``MP_HALL_URL`` from deploy/serve.py, or
this browser's), and a loopback address is flagged. The link never holds the lecturer's key.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit, urlunsplit

import streamlit as st

from hall.export import to_csv
from hall.session import Forbidden, valid_room
from hall.store import HallUnavailable

from .address import hall_address, is_loopback, with_address
from .hall_state import SHOW_JOIN, hall, hall_context, leave_hall, unavailable
from .text import literal

__all__ = ["join_box", "join_link", "lecturer_box", "lecturer_join_panel"]

#: Session key of the address students open (shared with the classroom link's field).
ADDRESS = "_share.address"


def join_link(room: str, page: str) -> str:
    """The link students open to join ``room`` (the Learn page of this app)."""
    url = st.context.url or ""
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    if page != "home" and path.endswith("/" + page):
        path = path[: -len(page) - 1]
    base = urlunsplit((parts.scheme, parts.netloc, path, "", "")) if parts.netloc else ""
    link = f"{base}/learn?hall={room}"
    typed = st.session_state.get(ADDRESS) or hall_address() or ""
    if typed.strip():
        try:
            link = with_address(link, typed)
        except ValueError:
            pass  # the field shows its own error below
    return link


def _address_field():
    ss = st.session_state
    if ADDRESS not in ss:
        ss[ADDRESS] = hall_address() or ""
    typed = st.text_input("Address students open", value=ss[ADDRESS], key="hall.address",
                          placeholder="e.g. http://192.168.1.20:8080",
                          help="This app's address on the hall's network, as deploy/serve.py "
                               "prints it (empty: this browser's address).")
    ss[ADDRESS] = typed
    if typed.strip():
        try:
            with_address("http://x/learn", typed)
        except ValueError as exc:
            st.error(f"Address students open: {literal(exc)}.")


def _qr(link: str):
    from .cached.link import qr_svg

    if not link.startswith("http"):
        return
    try:
        st.image(qr_svg(link), width="stretch", caption="Scan to join")
    except ValueError:
        st.caption("The link is too long for a QR code: students type the room code.")


def lecturer_join_panel(page: str):
    """The projector's join panel: the room code large, the link and its QR code."""
    ctx = hall_context()
    room = ctx["room"]
    link = join_link(room, page)
    with st.container(key="hall-join", border=True):
        code, qr = st.columns([3, 2], vertical_alignment="center")
        with code:
            st.markdown("### Join the hall: room code")
            with st.container(key="hall-room"):
                st.markdown(room)
            st.markdown("Scan the QR code, or open the Learn page and type the room code. "
                        "Or open this link:")
            st.code(link, language=None, wrap_lines=True)
            if is_loopback(link):
                st.warning("This link points at this computer's own address "
                           f"({literal(urlsplit(link).netloc)}): phones cannot open it. Type "
                           "the address students open in the sidebar's hall box.",
                           icon=":material/warning:")
            st.button("Hide the join code", key="hall.hide", on_click=_set_show, args=(False,))
        with qr:
            _qr(link)


def _set_show(on: bool):
    st.session_state[SHOW_JOIN] = on


def lecturer_box(page: str):
    """The lecturer's hall box (the sidebar's; in presentation mode, the page's): the join
    code, the address students open, export, end."""
    ctx = hall_context()
    room, key = ctx["room"], ctx["key"]
    # presentation mode hides the sidebar: the box is then the page's own, under the status
    where = st if st.query_params.get("present") == "1" else st.sidebar
    # named by what it holds: the status line above it already says who this browser is
    with where.expander(f"Hall {room}: join code, export, end", expanded=False,
                        icon=":material/groups:"):
        st.markdown(f"**Room code: {room}**")
        st.code(join_link(room, page), language=None, wrap_lines=True)
        _address_field()
        st.button("Show the join code on the page", key="hall.show.sidebar",
                  on_click=_set_show, args=(True,))
        export_buttons(room, key)
        view = ctx["view"]
        if view is not None and not view.ended:
            st.button("End the session", key="hall.end", on_click=_end, args=(room, key),
                      help="Students' pages stop following; the answers stay for the export "
                           "until the session expires.")
        st.button("Leave the hall (this browser)", key="hall.leave.lecturer",
                  on_click=leave_hall)


def _end(room, key):
    try:
        hall().end(room, key)
    except (HallUnavailable, Forbidden):
        st.session_state["hall.error"] = "unavailable"


def _export(room, key) -> dict:
    try:
        return hall().export(room, key)
    except (HallUnavailable, Forbidden):
        return {"error": "the hall is unavailable: export again in a minute"}


def export_buttons(room: str, key: str):
    """CSV (one row per answer) and the session file (JSON) the Learn page replays."""
    def _csv():
        got = _export(room, key)
        return (to_csv(got) if "polls" in got else got["error"] + "\n").encode()

    st.download_button("Answers as CSV", _csv,
                       file_name=f"hall-{room}.csv", mime="text/csv", key="hall.export.csv",
                       on_click="ignore", icon=":material/table:")
    st.download_button("Session as JSON", lambda: json.dumps(_export(room, key),
                                                             indent=1).encode(),
                       file_name=f"hall-{room}.json", mime="application/json",
                       key="hall.export.json", on_click="ignore", icon=":material/download:",
                       help="The session file: open it on the Learn page to replay the "
                            "lecture's moves and polls.")


def join_box():
    """The Learn page's "Join a hall" box: a typed room code."""
    if hall_context() is not None:
        return
    with st.container(border=True, key="hall-join-box"):
        st.subheader("Join a hall")
        st.caption("Your lecturer shows a room code: type it to follow the lecture and answer "
                   "its questions on this device. Anonymous: no name is asked.")
        with st.form("hall.join", border=False, enter_to_submit=True):
            st.text_input("Room code", key="hall.join.code", max_chars=12,
                          placeholder="e.g. K7QPMX")
            st.form_submit_button("Join", key="hall.join.go", type="primary", on_click=_join)
        msg = st.session_state.pop(JOIN_ERROR, None)
        if msg == "unavailable":
            unavailable()
        elif msg:
            st.error(literal(msg))


JOIN_ERROR = "hall.join.error"


def _join():
    """The Join button: the typed room code, if a hall has it, goes into the address."""
    ss = st.session_state
    code = str(ss.get("hall.join.code") or "")
    room = code.strip().upper().replace(" ", "").replace("-", "")
    try:
        ok = valid_room(room) and hall().version(room) is not None
    except HallUnavailable:
        ss[JOIN_ERROR] = "unavailable"
        return
    if not ok:
        ss[JOIN_ERROR] = (f"No hall with the room code {code.strip()[:12]!r}: check it with "
                          "your lecturer (letters and digits, no 0, O, 1, I or L).")
        return
    ss["hall.join.code"] = ""
    st.query_params["hall"] = room
