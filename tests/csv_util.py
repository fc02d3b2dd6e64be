"""CSV files as a user uploads them (one writer for every test that builds one)."""

from __future__ import annotations

import csv
import io

import numpy as np


def csv_bytes(rows, header=None) -> bytes:
    """The CSV file of the numeric table ``rows`` under ``header`` (``f0``, ``f1``, ... when
    None): numbers written to six significant digits, a name quoted where it must be (a
    comma, a quote or a line break in it), one line a row."""
    rows = np.asarray(rows, dtype=float)
    header = [f"f{i}" for i in range(rows.shape[1])] if header is None else list(header)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([f"{v:.6g}" for v in row] for row in rows)
    return out.getvalue().encode()
