"""Reading a user's CSV file into a Dataset, refusing anything unsafe or malformed.

Only text is parsed (numbers with Python's float); nothing is executed or
unpickled. Every refusal is a ValueError whose message says what to change.
"""

from __future__ import annotations

import codecs
import csv
import io
import math
import os
import re
from dataclasses import dataclass

import numpy as np

#: Largest file accepted, in bytes.
MAX_BYTES = 5 * 1024 * 1024
#: Largest number of data rows accepted.
MAX_ROWS = 5000
#: Largest number of columns accepted (target included).
MAX_COLS = 100

#: Largest absolute value accepted in a cell: kernels and squared errors square the
#: values, so larger ones overflow (mpcore refuses them too).
MAX_ABS_VALUE = 1e150

#: Largest integer that floating point represents exactly: class labels written as
#: decimals beyond it cannot be told apart.
MAX_EXACT_FLOAT_INT = 2**53

_FORMULA_PREFIXES = ("=", "+", "-", "@")
_INT_LITERAL = re.compile(r"^[+-]?\d+$")


@dataclass(frozen=True)
class Note:
    """One thing ``from_csv`` changed or noticed, for callers to show.

    Attributes
    ----------
    kind : str
        "dropped_constant_columns", "duplicate_rows", "separator" (values separated
        by ';', tabs or '|', not commas) or "numeric_header" (the header row holds
        only numbers: perhaps a data row).
    message : str
        The sentence to show a person (also in ``Dataset.warnings``).
    columns : tuple of str
        Column names concerned (dropped columns, a numeric header), else empty.
    count : int
        How many rows or columns are concerned.
    """

    kind: str
    message: str
    columns: tuple = ()
    count: int = 0


#: Hard ceilings of the limits a caller may pass (the defaults are far below).
LIMIT_CEILINGS = {"max_rows": 10_000_000, "max_cols": 100_000, "max_bytes": 2**30}


def _check_limit(value, name):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be a positive integer, got {value!r}.")
    if not 1 <= value <= LIMIT_CEILINGS[name]:
        raise ValueError(f"{name} must lie between 1 and {LIMIT_CEILINGS[name]:,}, got {value}.")
    return int(value)


def _read_raw(file, max_bytes):
    """The raw bytes of ``file`` (at most max_bytes + 1 of them)."""
    if isinstance(file, (bytes, bytearray, memoryview)):
        return bytes(file)
    if isinstance(file, (str, os.PathLike)):
        try:
            with open(file, "rb") as fh:
                return fh.read(max_bytes + 1)
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            raise ValueError(f"Cannot read the file {os.fspath(file)!r}: {reason}.") from None
    if hasattr(file, "read"):
        raw = file.read(max_bytes + 1)
        if isinstance(raw, str):
            raw = raw.encode("utf-8")
        if not isinstance(raw, (bytes, bytearray)):
            raise TypeError(f"file.read() returned {type(raw).__name__}, not bytes or text.")
        return bytes(raw)
    raise TypeError(
        "file must be a path (str or pathlib.Path), bytes, or a file object opened in "
        f"binary mode; got {type(file).__name__}."
    )


def target_labels(cells, target):
    """Exact integer class labels from the target column's cells.

    Returns ``(labels, problem)``: ``labels`` is a tuple of Python ints, or None when a
    cell is not an integral number; ``problem`` is None, or the reason these integers
    cannot serve as class labels (beyond the int64 range, or written as decimals beyond
    2**53, where floating point merges neighbouring labels). Integer literals are parsed
    exactly, with no detour through float.
    """
    values, problem = [], None
    for cell in cells:
        c = cell.strip()
        if _INT_LITERAL.match(c):
            v = int(c)
        else:
            f = float(c)
            if not f.is_integer():
                return None, None
            v = int(f)
            if abs(f) > MAX_EXACT_FLOAT_INT and problem is None:
                problem = (
                    f"Target {target!r} holds {c[:30]!r}: an integer label written as a decimal "
                    f"beyond 2**53 = {MAX_EXACT_FLOAT_INT}, which floating point cannot tell "
                    "from its neighbours. Write labels as plain integers (e.g. 12) or recode "
                    "the classes as 0, 1, 2, ..."
                )
        if not -(2**63) <= v < 2**63 and problem is None:
            problem = (
                f"Target {target!r} holds the label {c[:30]!r}, beyond the 64-bit integer "
                "range. Recode the classes as small integers (0, 1, 2, ...)."
            )
        values.append(v)
    return tuple(values), problem


#: Byte-order marks of the UTF-16 and UTF-32 text Windows tools write ("Unicode text"),
#: longest first: UTF-32 LE's mark begins with UTF-16 LE's.
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def _utf16_without_bom(raw: bytes):
    """"utf-16-le" or "utf-16-be" when ``raw`` reads as UTF-16 text with no byte-order
    mark (every other byte NUL, as in numbers and Latin names), else None."""
    head = raw[:4096]
    if len(raw) % 2 or len(head) < 2:
        return None
    even, odd = head[0::2], head[1::2]
    if not odd.strip(b"\x00") and b"\x00" not in even:
        return "utf-16-le"
    if not even.strip(b"\x00") and b"\x00" not in odd:
        return "utf-16-be"
    return None


def _decode(raw: bytes) -> str:
    encoding = next((enc for bom, enc in _BOMS if raw.startswith(bom)), None)
    encoding = encoding or _utf16_without_bom(raw)
    if encoding is not None:
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            raise ValueError(
                f"The file looks like {encoding.upper()} text but does not decode as such. "
                "Save it as 'CSV UTF-8' (in a spreadsheet: File > Save As > CSV UTF-8) and "
                "upload it again."
            ) from None
    if b"\x00" in raw[:4096]:
        raise ValueError(
            "This file looks binary (it contains NUL bytes), not a CSV text file. "
            "Export your data as comma-separated text."
        )
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    raise ValueError(
        "The file is not UTF-8 text. Save it as 'CSV UTF-8' (in a spreadsheet: "
        "File > Save As > CSV UTF-8) and upload it again."
    )


#: Separators tried, in order, when commas do not split the file into a table.
SEPARATORS = (",", ";", "\t", "|")
_SEPARATOR_NAMES = {",": "','", ";": "';'", "\t": "tab", "|": "'|'"}
_DECIMAL_COMMA = re.compile(r"^\s*[+-]?\d+,\d+\s*$")


def _parse(text, sep):
    """The rows of ``text`` split at ``sep`` (blank rows kept)."""
    return list(csv.reader(io.StringIO(text), delimiter=sep))


def _is_table(rows):
    """Whether the non-blank ``rows`` form a table of two or more columns."""
    filled = [r for r in rows if any(c.strip() for c in r)]
    return bool(filled) and len(filled[0]) > 1 and all(len(r) == len(filled[0]) for r in filled)


def _split_rows(text):
    """``(rows, separator)``: rows split at commas, or at the first of ';', tab, '|'
    that makes a table of two or more columns when commas do not."""
    try:
        rows = _parse(text, ",")
    except csv.Error as exc:
        rows, error = None, exc
    if rows is not None and _is_table(rows):
        return rows, ","
    for sep in SEPARATORS[1:]:
        if sep not in text:
            continue
        try:
            other = _parse(text, sep)
        except csv.Error:
            continue
        if _is_table(other):
            return other, sep
    if rows is None:
        raise ValueError(f"The file is not valid CSV ({error}).") from None
    return rows, ","


def _separator_hint(header, sep):
    """A sentence for a refusal when the header seems split at another separator."""
    if sep != "," or len(header) != 1:
        return ""
    found = [name for s, name in _SEPARATOR_NAMES.items() if s != "," and s in header[0]]
    if not found:
        return ""
    return (f" The header is a single column holding {' and '.join(found)}: if the file "
            "separates values with that, keep one separator throughout (or save it with commas).")


def _is_number(cell):
    try:
        float(cell)
    except ValueError:
        return False
    return True


def _looks_like_formula(cell: str) -> bool:
    s = cell.strip()
    if not s or s[0] not in _FORMULA_PREFIXES:
        return False
    try:
        float(s)
        return False  # "-1.5" and "+2" are numbers
    except ValueError:
        return True


def read_csv(file, *, target=None, max_rows=MAX_ROWS, max_cols=MAX_COLS, max_bytes=MAX_BYTES):
    """Parse ``file`` into (X, y, feature_names, target_name, notes, labels).

    ``labels`` is ``(ints, problem)`` from :func:`target_labels` (``(None, None)``
    without a target); ``notes`` is a list of :class:`Note`.
    """
    max_rows = _check_limit(max_rows, "max_rows")
    max_cols = _check_limit(max_cols, "max_cols")
    max_bytes = _check_limit(max_bytes, "max_bytes")
    if target is not None and not isinstance(target, str):
        raise TypeError(f"target must be a column name (a string) or None, got {target!r}.")
    raw = _read_raw(file, max_bytes)
    if len(raw) > max_bytes:
        raise ValueError(
            f"The file is larger than the {max_bytes // 1024} KB limit. Upload a sample "
            f"of at most {max_rows} rows and {max_cols} columns."
        )
    text = _decode(raw)
    if not text.strip():
        raise ValueError("The file is empty. Upload a CSV with a header row and numeric rows.")
    # any line ending: Windows (CR LF), Unix (LF) and old Mac (CR only)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    rows, sep = _split_rows(text)
    n_blank_first = next((i for i, r in enumerate(rows) if any(c.strip() for c in r)), len(rows))
    rows = [r for r in rows if any(c.strip() for c in r)]
    if not rows:
        raise ValueError(
            "Every cell of the file is empty: there is no header and no data. Upload a CSV "
            "with a header row of column names and rows of numbers."
        )
    header = [c.strip() for c in rows[0]]
    body = rows[1:]
    notes = []
    if n_blank_first and any(_is_number(h) for h in header):
        raise ValueError(
            f"The header row (line 1) is blank, and the first non-blank row "
            f"({', '.join(h[:12] for h in header[:4])}{', ...' if len(header) > 4 else ''}) "
            "holds numbers: read as the header, that row of data would be lost. Put the "
            "column names on the first line (e.g. x1,x2,y), or remove the blank line if the "
            "row after it is the header."
        )
    if header and all(_is_number(h) for h in header):
        notes.append(Note(
            "numeric_header",
            f"The header row holds only numbers ({', '.join(h[:12] for h in header[:4])}"
            f"{', ...' if len(header) > 4 else ''}): they are read as column names, not data. "
            "If the file has no header row, add one, or its first row of data is lost.",
            tuple(header), 1))
    if sep != ",":
        notes.append(Note("separator",
                          f"Values are separated by {_SEPARATOR_NAMES[sep]}, not commas: read "
                          "with that separator.", (), 0))
    if not body:
        raise ValueError("The file has a header row but no data rows. Add at least two rows.")
    if len(header) > max_cols:
        raise ValueError(f"The file has {len(header)} columns; the limit is {max_cols}.")
    if len(body) > max_rows:
        raise ValueError(
            f"The file has {len(body)} data rows; the limit is {max_rows}. Upload a sample."
        )
    if len(set(header)) != len(header) or any(h == "" for h in header):
        raise ValueError("Every column needs a unique, non-empty name in the header row.")
    for r_no, row in enumerate(body, start=2):
        if len(row) != len(header):
            raise ValueError(
                f"Row {r_no} has {len(row)} fields but the header has {len(header)}. "
                f"Every row needs one value per column.{_separator_hint(rows[0], sep)}"
            )
    values = np.empty((len(body), len(header)))
    bad_cols = {}
    for r_no, row in enumerate(body, start=2):
        for c_no, cell in enumerate(row):
            if not cell.strip():
                raise ValueError(
                    f"Row {r_no}, column {header[c_no]!r} is empty (a missing value). Fill in "
                    "or remove rows with missing values first."
                )
            if _looks_like_formula(cell):
                raise ValueError(
                    f"Row {r_no}, column {header[c_no]!r} holds {cell.strip()[:20]!r}, which "
                    "looks like a spreadsheet formula. Only plain numbers are accepted."
                )
            try:
                v = float(cell)
            except ValueError:
                bad_cols.setdefault(header[c_no], (r_no, cell.strip()[:20]))
                continue
            if not math.isfinite(v):
                raise ValueError(
                    f"Row {r_no}, column {header[c_no]!r} is {cell.strip()[:20]!r} (NaN or "
                    "infinite). Remove or fill in missing values first."
                )
            if abs(v) > MAX_ABS_VALUE:
                raise ValueError(
                    f"Row {r_no}, column {header[c_no]!r} holds {cell.strip()[:20]!r}, beyond "
                    f"+-{MAX_ABS_VALUE:.0e}: kernels square the values and would overflow. "
                    "Rescale that column (e.g. divide it by a power of ten)."
                )
            values[r_no - 2, c_no] = v
    if bad_cols:
        desc = "; ".join(f"{c!r} (row {r}: {v!r})" for c, (r, v) in list(bad_cols.items())[:5])
        hint = _separator_hint(rows[0], sep)
        if sep != "," and any(_DECIMAL_COMMA.match(v) for _, v in bad_cols.values()):
            hint += (" Its numbers are written with a decimal comma (1,5): save the file "
                     "with decimal points (1.5).")
        raise ValueError(
            f"Only numeric columns are accepted. Non-numeric values in: {desc}. "
            f"Remove those columns or encode them as numbers.{hint}"
        )
    y, labels = None, (None, None)
    if target is not None:
        if target not in header:
            raise ValueError(
                f"Target column {target!r} is not in the header ({', '.join(header[:10])})."
            )
        t = header.index(target)
        y = values[:, t]
        labels = target_labels([row[t] for row in body], target)
        values = np.delete(values, t, axis=1)
        header = header[:t] + header[t + 1 :]
    if values.shape[1] == 0:
        raise ValueError("No feature columns are left besides the target. Add a feature column.")
    if values.shape[0] < 2:
        raise ValueError("The file has only one data row; at least two are needed.")
    const = [h for h, s in zip(header, np.ptp(values, axis=0)) if s == 0]
    if const:
        if len(const) == len(header):
            raise ValueError(
                "Every feature column is constant, so all points coincide. Upload data that varies."
            )
        keep = np.array([h not in const for h in header])
        values = values[:, keep]
        header = [h for h in header if h not in const]
        notes.append(Note("dropped_constant_columns",
                          f"Dropped constant column(s): {', '.join(const)}.",
                          tuple(const), len(const)))
    n_unique = np.unique(values, axis=0).shape[0]
    if n_unique < values.shape[0]:
        n_dup = values.shape[0] - n_unique
        notes.append(Note(
            "duplicate_rows",
            f"{n_dup} duplicate row(s) kept: duplicates make the kernel "
            "matrix rank-deficient (sparse KPCA then stops early).", (), n_dup))
    return values, y, header, target, notes, labels
