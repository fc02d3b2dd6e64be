"""Reading a user's CSV file into a Dataset, refusing anything unsafe or malformed.

Only text is parsed (numbers with Python's float); nothing is executed or
unpickled. Every refusal is a ValueError whose message says what to change.
"""

from __future__ import annotations

import csv
import io
import math

import numpy as np

#: Largest file accepted, in bytes.
MAX_BYTES = 5 * 1024 * 1024
#: Largest number of data rows accepted.
MAX_ROWS = 5000
#: Largest number of columns accepted (target included).
MAX_COLS = 100

_FORMULA_PREFIXES = ("=", "+", "-", "@")


def _decode(raw: bytes) -> str:
    if b"\x00" in raw[:4096]:
        raise ValueError(
            "This file looks binary (it contains NUL bytes), not a CSV text file. "
            "Export your data as comma-separated text."
        )
    for encoding in ("utf-8-sig",):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            pass
    raise ValueError(
        "The file is not UTF-8 text. Save it as 'CSV UTF-8' (in a spreadsheet: "
        "File > Save As > CSV UTF-8) and upload it again."
    )


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
    """Parse ``file`` into (X, y, feature_names, target_name, warnings)."""
    if isinstance(file, (bytes, bytearray)):
        raw = bytes(file)
    elif isinstance(file, str):
        try:
            with open(file, "rb") as fh:
                raw = fh.read(max_bytes + 1)
        except OSError as exc:
            raise ValueError(f"Cannot read {file!r}: {exc.strerror}.") from None
    elif hasattr(file, "read"):
        raw = file.read(max_bytes + 1)
        if isinstance(raw, str):
            raw = raw.encode("utf-8")
    else:
        raise ValueError("file must be a path, bytes or a binary file object.")
    if len(raw) > max_bytes:
        raise ValueError(
            f"The file is larger than the {max_bytes // 1024} KB limit. Upload a sample "
            f"of at most {max_rows} rows and {max_cols} columns."
        )
    text = _decode(raw)
    if not text.strip():
        raise ValueError("The file is empty. Upload a CSV with a header row and numeric rows.")
    try:
        rows = list(csv.reader(io.StringIO(text)))
    except csv.Error as exc:
        raise ValueError(f"The file is not valid CSV ({exc}).") from None
    rows = [r for r in rows if any(c.strip() for c in r)]
    header = [c.strip() for c in rows[0]]
    body = rows[1:]
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
                "Every row needs one value per column."
            )
    values = np.empty((len(body), len(header)))
    bad_cols = {}
    for r_no, row in enumerate(body, start=2):
        for c_no, cell in enumerate(row):
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
                    f"Row {r_no}, column {header[c_no]!r} is {cell.strip()!r} (NaN or infinite). "
                    "Remove or fill in missing values first."
                )
            values[r_no - 2, c_no] = v
    if bad_cols:
        desc = "; ".join(f"{c!r} (row {r}: {v!r})" for c, (r, v) in list(bad_cols.items())[:5])
        raise ValueError(
            f"Only numeric columns are accepted. Non-numeric values in: {desc}. "
            "Remove those columns or encode them as numbers."
        )
    warnings = []
    y = None
    if target is not None:
        if target not in header:
            raise ValueError(
                f"Target column {target!r} is not in the header ({', '.join(header[:10])})."
            )
        t = header.index(target)
        y = values[:, t]
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
        warnings.append(f"Dropped constant column(s): {', '.join(const)}.")
    n_unique = np.unique(values, axis=0).shape[0]
    if n_unique < values.shape[0]:
        warnings.append(
            f"{values.shape[0] - n_unique} duplicate row(s) kept: duplicates make the kernel "
            "matrix rank-deficient (sparse KPCA then stops early)."
        )
    return values, y, header, target, warnings
