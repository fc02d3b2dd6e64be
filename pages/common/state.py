"""One typed, validated view state per page (no Streamlit here).

A page declares its controls once, as a :class:`Schema` of :class:`Field`
objects (URL key, type, default, allowed range or options, label, help), in
the manner of TensorFlow Playground's single ``State`` with its declared list
of properties. Everything else is derived from that declaration: the widgets
(``pages.common.widgets``), both directions of the URL, presets, the
classroom link's list of controls, the settings in the downloads, and the
test fixtures.

Every value, whether it comes from a link, a widget, a preset or a saved JSON
file, goes through :meth:`Schema.build`: a value that is malformed, out of
range or not finite becomes the default (or the nearest allowed value) and a
short note says so. A field whose default depends on another field (the noise
of a data set, say) is reset to its new default when that field changes, and
the note says so too. The URL written back always holds every field that
applies, so a copied link never depends on a default.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

#: Query keys every page understands besides its fields.
HIDE = "hide"
#: Keys of earlier versions of the app, accepted silently (their meaning now
#: follows from the other fields).
LEGACY = frozenset({"skpca.preset", "kmp.preset"})
#: Query keys a classroom link of an upload view adds (the file's name and target column):
#: the page reads them once into the session, and they are not fields of the view.
UPLOAD_KEYS = ("file", "target")
#: A hall session's address fields (room code, device id, lecturer key: pages/common/
#: hall_follow.py): they sit beside a view's fields, are no part of the view, and no link,
#: preset or saved run built from a state carries them.
HALL_FIELDS = ("hall", "me", "hall_key")
#: Longest raw URL value looked at (longer values are refused before parsing).
MAX_RAW = 20_000
#: Most points a link can add by clicking.
MAX_POINTS = 200

_MISSING = object()


def _short(raw) -> str:
    text = str(raw)
    return text if len(text) <= 24 else text[:21] + "..."


def _fmt(value) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


@dataclass(frozen=True)
class Field:
    """One control of a page's view.

    Parameters that may depend on the values of earlier fields (``default``,
    ``options``, ``lo``, ``hi``, ``applies``) are either constants or
    callables taking the mapping of the values validated so far.

    kind:
        ``"int"``, ``"float"``, ``"bool"``, ``"choice"`` (one of ``options``,
        any type, written as ``str``), ``"points"`` (clicked points
        ``x:y:class;...``), ``"text"`` (free text from ``options`` only) or ``"name"`` (a
        file's name, any printable text: an upload view's file, asked for by name).
    widget:
        How the control is drawn: ``"slider"``, ``"select_slider"``,
        ``"selectbox"``, ``"radio"``, ``"number"``, ``"checkbox"``,
        ``"toggle"``, or ``"none"`` (set by buttons, tabs or clicks).
    depends:
        Keys of earlier fields; when one of them changes, this field returns
        to its (new) default unless it was changed at the same time.
    labels:
        Option -> meaning, shown next to the raw option (the URL keeps the raw one).
    """

    key: str
    label: str
    kind: str
    default: Any
    options: Any = None
    lo: Any = None
    hi: Any = None
    step: Any = None
    widget: str = "slider"
    help: str | None = None
    labels: Mapping | None = None
    applies: Callable[[Mapping], bool] | None = None
    depends: tuple = ()
    section: str | None = None

    def at(self, attr: str, ctx: Mapping):
        value = getattr(self, attr)
        return value(ctx) if callable(value) else value

    def applies_to(self, ctx: Mapping) -> bool:
        return self.applies is None or bool(self.applies(ctx))

    # ---------------------------------------------------------- one validator

    def coerce(self, raw, ctx: Mapping) -> tuple[Any, str | None]:
        """``raw`` (a URL string or a typed value) -> (valid value, note or None)."""
        default = self.at("default", ctx)
        try:
            value, note = self._coerce(raw, ctx)
        except (TypeError, ValueError, OverflowError) as exc:
            why = str(exc) or "not valid"
            return default, f"{self.label}: {_short(raw)!r} {why}; using {_fmt(default)}."
        return value, note

    def _coerce(self, raw, ctx):
        if isinstance(raw, str) and len(raw) > MAX_RAW:
            raise ValueError("is too long")
        if self.kind == "bool":
            return _to_bool(raw), None
        if self.kind == "points":
            return _to_points(raw, ctx, self)
        if self.kind == "name":
            return _to_name(raw), None
        options = self.at("options", ctx)
        if self.kind in ("choice", "text"):
            for opt in options:
                if raw == opt or (isinstance(raw, str) and raw == str(opt)):
                    return opt, None
            if self.labels:
                for opt, text in self.labels.items():
                    if raw == text and opt in options:
                        return opt, None
            raise ValueError("is not one of the options")
        number = _to_number(raw, integer=self.kind == "int")
        if options:  # a number from a list (select_slider): the nearest allowed value
            logs = number > 0 and all(o > 0 for o in options)
            nearest = min(options, key=lambda o: abs(math.log(o) - math.log(number)) if logs
                          else abs(o - number))
            note = None if math.isclose(nearest, number, rel_tol=1e-9, abs_tol=1e-12) else (
                f"{self.label}: {_fmt(number)} is not offered; using the nearest, {_fmt(nearest)}.")
            return nearest, note
        lo, hi, step = self.at("lo", ctx), self.at("hi", ctx), self.step
        value = number
        note = None
        if step and lo is not None:
            value = lo + round((value - lo) / step) * step
            value = round(value, 10) if self.kind == "float" else int(value)
            if not math.isclose(value, number, rel_tol=1e-9, abs_tol=1e-9):
                note = f"{self.label}: {_fmt(number)} is not a multiple of {_fmt(step)}; using {_fmt(value)}."
        clamped = min(max(value, lo if lo is not None else value), hi if hi is not None else value)
        if clamped != value:
            note = (f"{self.label}: {_fmt(number)} is outside {_fmt(lo)}..{_fmt(hi)}; "
                    f"using {_fmt(clamped)}.")
        value = int(clamped) if self.kind == "int" else float(clamped)
        return value, note

    def to_url(self, value) -> str:
        if self.kind == "bool":
            return "true" if value else "false"
        if self.kind == "points":
            return ";".join(f"{x:g}:{y:g}:{c}" for x, y, c in value)
        if self.kind == "float":
            return repr(float(value)).removesuffix(".0") if float(value).is_integer() else repr(float(value))
        return str(value)


#: Longest file name a ``"name"`` field keeps.
MAX_NAME = 200


def _to_name(raw) -> str:
    """A file name as shown to people: text, control characters dropped, at most MAX_NAME."""
    if not isinstance(raw, str):
        raise ValueError("is not a file name")
    text = "".join(ch for ch in raw if ch.isprintable()).strip()
    if len(text) > MAX_NAME:
        raise ValueError(f"is longer than {MAX_NAME} characters")
    return text


def _to_bool(raw) -> bool:
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in ("true", "1", "yes", "on"):
        return True
    if text in ("false", "0", "no", "off"):
        return False
    raise ValueError("is not true or false")


def _to_number(raw, *, integer: bool):
    if isinstance(raw, bool) or raw is None:
        raise TypeError("is not a number")
    if isinstance(raw, (int, float)):
        number = float(raw)
    else:
        try:
            number = float(str(raw).strip())
        except ValueError:
            raise ValueError("is not a number") from None
    if not math.isfinite(number):
        raise ValueError("is not a finite number")
    if integer:
        if not number.is_integer():
            raise ValueError("is not a whole number")
        return int(number)
    return number


def _to_points(raw, ctx, field: Field):
    if isinstance(raw, tuple):
        return raw, None
    classes = field.at("options", ctx) or ()
    out, bad = [], 0
    for item in str(raw).split(";"):
        if not item:
            continue
        try:
            x, y, c = item.split(":")
            x, y, c = float(x), float(y), int(c)
            if not (math.isfinite(x) and math.isfinite(y) and abs(x) < 1e6 and abs(y) < 1e6):
                raise ValueError
            if classes and c not in classes:
                raise ValueError
        except ValueError:
            bad += 1
            continue
        out.append((round(x, 3), round(y, 3), c))
    note = None
    if bad:
        note = f"{field.label}: {bad} malformed point(s) ignored."
    if len(out) > MAX_POINTS:
        note = f"{field.label}: only the last {MAX_POINTS} of {len(out)} points are kept."
        out = out[-MAX_POINTS:]
    return tuple(out), note


class State(Mapping):
    """An immutable, validated view: field key -> value (only fields that apply).

    Build it with :meth:`Schema.build`; change it with :meth:`replace`, which
    validates again. ``hidden`` holds the keys a classroom link hides.
    """

    __slots__ = ("schema", "_values", "hidden", "facts", "_query")

    def __init__(self, schema: Schema, values: dict, hidden: frozenset = frozenset(),
                 facts: Mapping | None = None):
        self.schema = schema
        self._values = dict(values)
        self.hidden = frozenset(hidden)
        self.facts = dict(facts or {})
        self._query = None

    def __getitem__(self, key):
        return self._values[key]

    def __iter__(self):
        return iter(self._values)

    def __len__(self):
        return len(self._values)

    def __eq__(self, other):
        return (isinstance(other, State) and other.schema.page == self.schema.page
                and other._values == self._values and other.hidden == self.hidden)

    def __hash__(self):
        return hash((self.schema.page, tuple(self._values.items()), self.hidden))

    def __repr__(self):
        return f"State({self.schema.page!r}, {self._values!r}, hidden={sorted(self.hidden)!r})"

    def replace(self, **changes) -> State:
        """A new state with ``changes`` applied and every field validated again."""
        raw = dict(self._values)
        raw.update(changes)
        state, _ = self.schema.build(raw, prev=self, hidden=self.hidden, explicit=set(changes),
                                     facts=self.facts)
        return state

    def query(self) -> dict[str, str]:
        """The complete URL query of this view (every field that applies, hide last)."""
        if self._query is None:  # the state never changes: written out once (a lesson's
            # beats are asked for theirs on every run of every student's page)
            out = {f.key: f.to_url(self._values[f.key]) for f in self.schema.fields
                   if f.key in self._values}
            if self.hidden:
                out[HIDE] = ",".join(k for k in self.schema.keys if k in self.hidden)
            self._query = out
        return dict(self._query)

    def settings(self) -> dict:
        """JSON-ready settings: every value, typed, plus the hidden keys."""
        out = {k: (list(map(list, v)) if isinstance(v, tuple) else v)
               for k, v in self._values.items()}
        if self.hidden:
            out[HIDE] = sorted(self.hidden)
        return out

    def matches(self, values: Mapping) -> bool:
        """True while every key of ``values`` has that value here (a preset still applies)."""
        return all(self._values.get(k, _MISSING) == v for k, v in values.items())


class Schema:
    """The declared fields of one page, in the order they are validated and drawn."""

    def __init__(self, page: str, fields: list[Field]):
        keys = [f.key for f in fields]
        if len(set(keys)) != len(keys):
            raise ValueError(f"duplicate field keys in {page}: {keys}")
        self.page = page
        self.fields = tuple(fields)
        self.keys = tuple(keys)
        self._by_key = {f.key: f for f in fields}

    def __getitem__(self, key) -> Field:
        return self._by_key[key]

    def __contains__(self, key) -> bool:
        return key in self._by_key

    def build(self, raw: Mapping, *, prev: State | None = None, hidden=None,
              explicit=(), facts: Mapping | None = None) -> tuple[State, list[str]]:
        """Validate ``raw`` (URL strings or typed values) into a State, with notes.

        ``prev`` is the state the values were changed from: a field whose
        ``depends`` changed since ``prev`` returns to its default unless its
        own value changed too (or its key is in ``explicit``). ``hidden``
        overrides ``raw["hide"]``. ``facts`` are known properties of the data
        (``_rows`` of an upload) that ranges may use; they are not fields.
        """
        notes: list[str] = []
        facts = dict(facts or {})
        values: dict = dict(facts)
        reset: list[str] = []
        for f in self.fields:
            if not f.applies_to(values):
                continue
            value = raw.get(f.key, _MISSING) if hasattr(raw, "get") else _MISSING
            if prev is not None and f.depends and any(
                    values.get(d, _MISSING) != (prev.facts if d in facts or d in prev.facts
                                                else prev).get(d, _MISSING)
                    for d in f.depends):
                own_change = f.key in explicit or (
                    value is not _MISSING and value != prev.get(f.key, _MISSING))
                if not own_change:
                    value = _MISSING
                    if f.key in prev:
                        reset.append(f.key)
            if value is _MISSING:
                values[f.key] = f.at("default", values)
                if reset and reset[-1] == f.key and prev.get(f.key, _MISSING) == values[f.key]:
                    reset.pop()  # its value stays: nothing to announce
                continue
            values[f.key], note = f.coerce(value, values)
            if note:
                notes.append(note)
        for k in facts:
            values.pop(k, None)
        if reset:
            notes.append("Reset to the new defaults: " + ", ".join(
                f"{self[k].label} = {_fmt(values[k])}" for k in reset if k in values) + ".")
        if hidden is None:
            hidden, note = self._hidden(raw.get(HIDE) if hasattr(raw, "get") else None)
            if note:
                notes.append(note)
        unknown = [k for k in (raw.keys() if hasattr(raw, "keys") else ())
                   if k not in self._by_key and k != HIDE and k not in LEGACY
                   and k not in UPLOAD_KEYS and k not in HALL_FIELDS
                   and not (prev is not None)]
        if unknown:
            notes.append("Ignored unknown link field(s): "
                         + ", ".join(repr(_short(k)) for k in sorted(unknown)[:5])
                         + (" ..." if len(unknown) > 5 else "") + ".")
        return State(self, values, hidden, facts), notes

    def _hidden(self, raw) -> tuple[frozenset, str | None]:
        if raw is None or raw == "":
            return frozenset(), None
        if isinstance(raw, (set, frozenset, list, tuple)):
            items = [str(k) for k in raw]
        else:
            items = [k for k in str(raw)[:MAX_RAW].split(",") if k]
        keep = frozenset(k for k in items if k in self._by_key and self._by_key[k].widget != "none")
        bad = [k for k in items if k not in keep]
        note = (f"Hide: ignored {', '.join(repr(_short(k)) for k in bad[:5])}"
                " (not a control of this page).") if bad else None
        return keep, note

    def defaults(self) -> State:
        return self.build({})[0]

    def from_query(self, query: Mapping) -> tuple[State, list[str]]:
        """Parse a URL query (values may be lists, as ``parse_qs`` gives: the last wins)."""
        flat = {k: (v[-1] if isinstance(v, (list, tuple)) and v else v) for k, v in query.items()
                if isinstance(k, str)}
        flat = {k: ("" if isinstance(v, (list, tuple)) else v) for k, v in flat.items()}
        return self.build(flat)

    def from_settings(self, settings: Mapping) -> tuple[State, list[str]]:
        """Rebuild a state from :meth:`State.settings` (a saved JSON run)."""
        raw = {}
        for k, v in settings.items():
            if k in self._by_key and self._by_key[k].kind == "points" and isinstance(v, list):
                v = ";".join(":".join(str(a) for a in p) for p in v if isinstance(p, list))
            raw[k] = v
        return self.build(raw)

    def controls(self) -> list[str]:
        """Keys a classroom link can hide (every drawn control)."""
        return [f.key for f in self.fields if f.widget != "none"]


def query_string(state: "State") -> str:
    """``state`` as the query string of its link (no leading "?")."""
    return urlencode(state.query(), safe=",:;")
