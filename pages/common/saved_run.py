"""Saved runs: the "Run as JSON" file and opening it again.

A saved run holds the page, its settings, its link and its table, and for an upload view
the uploaded file itself (within the upload cap) with its target column, so that opening
it rebuilds the same view in a new session. :func:`parse_saved_run` reads a file (no
Streamlit: tested on its own); :func:`load_saved_run` is the uploader. Opening a run
always shows that run (also when the page showed its address before, or the same file is
opened again) or says why not, with every note of the validator (clamped or dropped
values, another page's fields, unknown keys).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from typing import NamedTuple

import numpy as np
import pandas as pd
import streamlit as st

import datasets

from .fields import CSV, MAX_APP_SAMPLES
from .state import State, query_string
from .text import literal

__all__ = ["SavedRun", "parse_saved_run", "run_json", "load_saved_run", "MAX_DEPTH",
           "TOP_KEYS", "upload_section"]

#: Deepest nesting a saved run may have (its own files nest three levels): a deeper file
#: is refused with a message before Python's recursion limit is reached.
MAX_DEPTH = 32
#: Keys a saved run's top level holds ("upload": an upload view's file).
TOP_KEYS = ("page", "settings", "link", "table", "upload")
#: Session keys: the uploader, the last error, the notes of the last opened run.
LOAD_KEY, ERROR_KEY, OPENED_KEY = "share.load", "share.load.error", "share.load.opened"


class SavedRun(NamedTuple):
    settings: dict
    upload: dict | None  # {"name", "target", "bytes"}
    notes: list


def _depth_ok(text: str) -> bool:
    """Whether the JSON text nests at most MAX_DEPTH levels (counted outside strings)."""
    depth, in_str, esc = 0, False, False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return False
        elif ch in "]}":
            depth -= 1
    return True


def parse_saved_run(raw: bytes, page: str) -> SavedRun:
    """Read a "Run as JSON" file of ``page``; ValueError saying why it cannot be opened.

    A UTF-8 byte-order mark (as Windows editors write) is accepted."""
    if not isinstance(raw, (bytes, bytearray)):
        raise ValueError("the file could not be read")
    try:
        text = bytes(raw).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError("it is not UTF-8 text (a 'Run as JSON' file is)") from None
    if not _depth_ok(text):
        raise ValueError(f"it nests more than {MAX_DEPTH} levels deep; a saved run nests "
                         "three")
    try:
        payload = json.loads(text)
    except RecursionError:  # (guarded above; kept for a parser that recurses differently)
        raise ValueError(f"it nests more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:
        raise ValueError(f"it is not valid JSON ({exc})") from None
    if not isinstance(payload, dict) or not isinstance(payload.get("settings"), dict):
        raise ValueError("it has no 'settings' object")
    saved_page = payload.get("page")
    if saved_page not in (None, page):
        raise ValueError(f"it was saved on another page ({_short(saved_page)}); open it "
                         "there")
    notes = []
    unknown = sorted(str(k) for k in payload if k not in TOP_KEYS)
    if unknown:
        notes.append("Ignored unknown key(s) of the file: "
                     + ", ".join(repr(_short(k)) for k in unknown[:5])
                     + (" ..." if len(unknown) > 5 else "") + ".")
    upload = None
    if payload.get("upload") is not None:
        upload = _read_upload(payload["upload"])
    elif payload["settings"].get("dataset") == CSV:
        notes.append("This run used an uploaded CSV that the file does not hold: upload it "
                     "again to see the view.")
    return SavedRun(dict(payload["settings"]), upload, notes)


def _short(value, limit=60) -> str:
    text = str(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _read_upload(section) -> dict:
    if not isinstance(section, dict):
        raise ValueError("its 'upload' is not an object")
    name, target, data = section.get("name"), section.get("target"), section.get("csv_base64")
    if not isinstance(name, str) or not isinstance(data, str):
        raise ValueError("its 'upload' needs a file 'name' and 'csv_base64' text")
    if target is not None and not isinstance(target, str):
        raise ValueError("its upload's 'target' must be a column name or null")
    if len(data) > 4 * (datasets.MAX_BYTES // 3 + 1):
        raise ValueError(f"its uploaded file is larger than the upload cap "
                         f"({datasets.MAX_BYTES // 1024 // 1024} MB)")
    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("its uploaded file is not valid base64") from None
    try:
        probe = datasets.from_csv(raw, max_rows=MAX_APP_SAMPLES)
    except ValueError as exc:
        raise ValueError(f"its uploaded file {_short(name)!r} cannot be read: {exc}") from None
    if target is not None and target not in probe.feature_names:
        raise ValueError(f"its upload's target {_short(target)!r} is not a column of "
                         f"{_short(name)!r}")
    return {"name": name, "target": target, "bytes": raw, "probe": probe}


def upload_section(state: State) -> dict | None:
    """The upload of an upload view, for its saved run (None for other data)."""
    ss = st.session_state
    if state.get("dataset") != CSV or "csv.bytes" not in ss:
        return None
    raw = ss["csv.bytes"]
    if len(raw) > datasets.MAX_BYTES:
        return None
    target = ss.get("csv.target")
    return {"name": ss.get("csv.name", "upload.csv"),
            "target": None if target in (None, "(none)") else target,
            "csv_base64": base64.b64encode(raw).decode("ascii")}


def run_json(state: State, table: pd.DataFrame, extra: dict | None = None) -> str:
    """The "Run as JSON" file: the page, its settings, its link and its table (and
    ``extra``), and an upload view's file, which "Open a saved run" reads back."""
    payload = {"page": state.schema.page, "settings": state.settings(),
               "link": "?" + query_string(state),
               "table": table.to_dict(orient="list")}
    upload = upload_section(state)
    if upload is not None:
        payload["upload"] = upload
    if extra:
        payload.update(extra)
    return json.dumps(payload, default=_json_default, indent=1)


def _json_default(o):
    if isinstance(o, np.generic):
        return o.item()
    if isinstance(o, np.ndarray):
        return o.tolist()
    return str(o)


def _install_upload(upload: dict):
    """Make a saved run's file the session's upload, as the uploader would."""
    ss = st.session_state
    raw, probe = upload["bytes"], upload["probe"]
    ss["csv.bytes"] = raw
    ss["csv.digest"] = hashlib.sha256(raw).hexdigest()[:16]
    ss["csv.name"] = upload["name"]
    ss["csv.rows"] = int(probe.n_samples)
    ss["csv.columns"] = list(probe.feature_names)
    ss["csv.notes"] = list(probe.warnings)
    ss["csv.target"] = upload["target"] or "(none)"


def _open(schema):
    """The uploader's callback (before the page runs, so widgets may be set): validate the
    file, install its upload, make its view the page's view, keep the notes."""
    from .widgets import _facts, _key, _store

    ss = st.session_state
    ss.pop(ERROR_KEY, None)
    ss.pop(OPENED_KEY, None)
    up = ss.get(LOAD_KEY)
    if up is None:
        return
    try:
        run = parse_saved_run(up.getvalue(), schema.page)
    except ValueError as exc:
        ss[ERROR_KEY] = f"Cannot open {up.name} as a saved run: {exc}."
        return
    if run.upload is not None:
        _install_upload(run.upload)
    raw = {}
    for k, v in run.settings.items():
        if k in schema.keys and schema[k].kind == "points" and isinstance(v, list):
            v = ";".join(":".join(str(a) for a in p) for p in v if isinstance(p, list))
        raw[k] = v
    loaded, notes = schema.build(raw, facts=_facts())
    notes = run.notes + _other_pages(schema, run.settings) + notes
    _store(schema, loaded)
    ss[_key(schema) + ".notes"] = [f"Opened the saved run {up.name}."] + notes
    ss[OPENED_KEY] = (up.name, notes)


def _other_pages(schema, settings) -> list:
    from . import schemas

    others = {}
    for name in dir(schemas):
        obj = getattr(schemas, name)
        if hasattr(obj, "keys") and hasattr(obj, "page") and obj.page != schema.page:
            for k in obj.keys:
                others.setdefault(k, obj.page)
    foreign = sorted(k for k in settings if k not in schema.keys and k in others)
    if not foreign:
        return []
    return ["Ignored field(s) of another page: "
            + ", ".join(f"{k!r} ({others[k]})" for k in foreign[:5])
            + (" ..." if len(foreign) > 5 else "") + "."]


def load_saved_run(state: State):
    """Re-open a downloaded "Run as JSON": its settings go through the same validator."""
    st.file_uploader("Open a saved run (JSON)", type=["json"], key=LOAD_KEY,
                     on_change=_open, args=(state.schema,),
                     help="A file from 'Run as JSON' on this page rebuilds its view (an "
                          "upload view's file travels inside it).")
    ss = st.session_state
    if ERROR_KEY in ss:
        st.error(literal(ss[ERROR_KEY]))
    elif OPENED_KEY in ss:
        name, notes = ss[OPENED_KEY]
        st.success(literal(f"Showing the saved run {name}."
                           + (f" {len(notes)} note(s) at the top of the page." if notes
                              else "")))
