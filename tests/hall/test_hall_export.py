"""The session's CSV: one row per answer, every text cell shown as text by a spreadsheet."""

from __future__ import annotations

import csv
import io

from hall_util import hall, redis_server, store  # noqa: F401 - fixtures

from hall.export import to_csv
from hall.polls import PollSpec
from hall.session import new_device

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def test_csv_has_a_row_per_answer_and_no_cell_is_a_formula(hall):
    s = hall.start()
    spec = PollSpec(kind="option", prompt="+1 or -1?", lesson="=HYPERLINK(\"x\")",
                    question="@SUM(A1)", beat=3, options=("-1", "+1", "=1"))
    pid = hall.open_poll(s.room, s.key, spec)
    forged = "-A1-B2_0123456789"  # a device id a page may send: [A-Za-z0-9_-]{16,64}
    devices = [forged, new_device(), new_device()]
    for d, v in zip(devices, ["-1", "+1", "=1"]):
        hall.answer(s.room, d, pid, v)
    hall.reveal(s.room, s.key, "-1", lambda v: v == "-1")
    hall.open_poll(s.room, s.key, PollSpec(kind="k", prompt="k?", lo=1, hi=9))
    hall.answer(s.room, devices[1], "2", 4)
    rows = list(csv.DictReader(io.StringIO(to_csv(hall.export(s.room, s.key)))))
    assert len(rows) == 4
    for row in rows:
        for field, cell in row.items():
            assert not cell.startswith(FORMULA_STARTS), (field, cell)
    first = [r for r in rows if r["poll"] == "1"]
    assert sorted((r["device"].lstrip("'"), r["answer"].lstrip("'"), r["right"])
                  for r in first) == sorted(zip(devices, ["-1", "+1", "=1"],
                                                ["true", "false", "false"]))
    (second,) = [r for r in rows if r["poll"] == "2"]
    assert (second["kind"], second["answer"], second["right"]) == ("k", "4", "")
