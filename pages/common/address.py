"""The address students open: a classroom link must not point at the lecturer's own machine.

A page knows the address its own browser used, which on the lecturer's laptop is often
``http://localhost:8501``: a phone that scans a QR code of it opens itself, not the app.
The lecturer may give the address students use (the hall's, which ``deploy/serve.py``
prints and hands to the app in the environment variable :data:`HALL_ENV`); the link keeps
the page's path and query and takes that address's scheme, host and port.

No Streamlit import.
"""

from __future__ import annotations

import ipaddress
import os
from urllib.parse import urlsplit, urlunsplit

__all__ = ["HALL_ENV", "hall_address", "is_loopback", "parse_address", "with_address"]

#: Environment variable with the address students open (set by deploy/serve.py).
HALL_ENV = "MP_HALL_URL"
#: Longest address accepted (a host name is at most 253 characters).
MAX_ADDRESS = 300


def parse_address(text: str) -> str:
    """``text`` as an http(s) address without query or fragment (no trailing slash).

    Raises ValueError with what to type when it is not one.
    """
    text = (text or "").strip()
    if not text:
        raise ValueError("the address is empty; type one such as http://192.168.1.20:8080")
    if len(text) > MAX_ADDRESS:
        raise ValueError(f"the address is longer than {MAX_ADDRESS} characters")
    if "://" not in text:
        text = "http://" + text
    try:
        parts = urlsplit(text)
        port = parts.port  # raises ValueError for a port that is not a number or out of range
    except ValueError as exc:
        raise ValueError(f"it is not a web address ({exc}); type one such as "
                         "http://192.168.1.20:8080") from None
    if parts.scheme not in ("http", "https"):
        raise ValueError(f"it starts with {parts.scheme}://; a link students open starts with "
                         "http:// or https://")
    host = parts.hostname
    if not host or any(c.isspace() for c in text) or parts.username or parts.password:
        raise ValueError("it names no host; type one such as http://192.168.1.20:8080")
    if parts.query or parts.fragment:
        raise ValueError("it has a query (?...) or a fragment (#...); give the address only")
    netloc = f"[{host}]" if ":" in host else host
    if port is not None:
        netloc += f":{port}"
    return urlunsplit((parts.scheme, netloc.lower(), parts.path.rstrip("/"), "", ""))


def is_loopback(url: str) -> bool:
    """Whether ``url``'s host is this machine only (localhost, 127.x, ::1, 0.0.0.0):
    another device that opens it reaches itself, not the app."""
    try:
        host = (urlsplit(url).hostname or "").rstrip(".").lower()
    except ValueError:
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_unspecified


def with_address(url: str, address: str) -> str:
    """``url`` (a page's link) served at ``address``: its scheme, host and port from
    ``address``, the address's path before the page's own (once), the query kept."""
    page = urlsplit(url)
    hall = urlsplit(parse_address(address))
    path = page.path
    if hall.path and not path.startswith(hall.path + "/") and path != hall.path:
        path = hall.path + (path if path.startswith("/") else "/" + path)
    return urlunsplit((hall.scheme, hall.netloc, path or "/", page.query, page.fragment))


def hall_address(environ=None) -> str | None:
    """The address from :data:`HALL_ENV`, or None when unset or not a valid address."""
    value = (os.environ if environ is None else environ).get(HALL_ENV, "")
    try:
        return parse_address(value) if value.strip() else None
    except ValueError:
        return None
