"""Opening a saved run (issue 66, items 9 and 12): always that run or why not, with every
note; a BOM is accepted; deep nesting is refused clearly; an upload view comes back from
its file."""

from __future__ import annotations

import base64
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apptest_util import address, assert_clean, open_app_page
from pages.common.saved_run import MAX_DEPTH, parse_saved_run

pytestmark = pytest.mark.slow

CSV = b"a,b,label\n" + b"".join(b"%.3f,%.3f,%d\n" % (i * 0.37 % 3, i * 0.91 % 2, i % 3)
                                 for i in range(45))


def _run_file(settings_, page="skpca", **extra) -> bytes:
    return json.dumps({"page": page, "settings": settings_, **extra}).encode()


def _open(at, raw, name="run.json"):
    at.file_uploader(key="share.load").set_value((name, raw, "application/json")).run()
    return at


# ------------------------------------------------------------ the parser, any input


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_any_bytes_are_read_or_refused_with_a_value_error(raw):
    try:
        run = parse_saved_run(raw, "skpca")
    except ValueError as exc:
        assert str(exc)
    else:
        assert isinstance(run.settings, dict)


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5000, 100_000])
def test_deep_nesting_is_refused_with_a_clear_message(depth):
    raw = b'{"settings": ' + b"[" * depth + b"]" * depth + b"}"
    with pytest.raises(ValueError, match="nests more than"):
        parse_saved_run(raw, "skpca")


def test_a_utf8_bom_is_accepted():
    run = parse_saved_run(b"\xef\xbb\xbf" + _run_file({"k": 5}), "skpca")
    assert run.settings == {"k": 5}


def test_unknown_top_level_keys_are_noted():
    run = parse_saved_run(_run_file({"k": 5}, extra_key=1), "skpca")
    assert any("extra_key" in n for n in run.notes)


# ------------------------------------------------------------ the page


def test_opening_a_run_shows_it_with_every_note():
    at = open_app_page("pages/skpca.py", params={"dataset": "moons", "k": "7"})
    raw = _run_file({"dataset": "circles", "k": 10_000, "kmp.fitting": "basic",
                     "nonsense": 1}, junk=2)
    _open(at, raw)
    assert_clean(at)
    assert address(at)["dataset"] == "circles"
    text = " ".join(e.value for e in [*at.info, *at.success, *at.warning]).replace("\\", "")
    assert "kmp.fitting" in text and "another page" in text  # another page's field
    assert "nonsense" in text  # an unknown key
    assert "junk" in text  # an unknown key of the file
    assert "k" in text and ("clamp" in text.lower() or "10000" in text)  # a clamped value


def test_opening_the_address_the_page_showed_before_and_the_same_file_again():
    at = open_app_page("pages/skpca.py", params={"dataset": "circles", "k": "6"})
    first = address(at)
    _pick(at, "moons")
    saved = _run_file({k: v for k, v in first.items()})
    _open(at, saved)
    assert_clean(at)
    assert address(at)["dataset"] == "circles"  # an address this page wrote before
    _pick(at, "moons")
    _open(at, saved, name="run.json")  # the same file again
    assert address(at)["dataset"] == "circles"


def _pick(at, name):
    [sel] = [w for w in at.selectbox if w.key == "dataset"]
    sel.set_value(name).run()
    assert_clean(at)
    assert address(at)["dataset"] == name


def test_a_run_from_another_page_says_why_not():
    at = open_app_page("pages/skpca.py")
    _open(at, _run_file({"k": 3}, page="kmp"))
    assert any("another page" in e.value for e in at.error)


def test_an_upload_view_comes_back_from_its_saved_run():
    at = open_app_page("pages/kmp.py", params={"dataset": "csv upload"})
    at.file_uploader(key="csv.file").set_value(("mine.csv", CSV, "text/csv")).run()
    assert_clean(at)
    assert at.session_state["csv.target"] == "label"
    from pages.common.saved_run import run_json
    from pages.common.widgets import current
    from pages.common.schemas import KMP
    import pandas as pd

    # the run's JSON as the download button writes it, in that session
    state = at.session_state["_view.kmp"]
    payload = json.loads(_payload_of(at, state))
    assert payload["upload"]["name"] == "mine.csv"
    assert payload["upload"]["target"] == "label"
    assert base64.b64decode(payload["upload"]["csv_base64"]) == CSV
    # a new session opens it: the upload and its view are rebuilt
    fresh = open_app_page("pages/kmp.py")
    _open(fresh, json.dumps(payload).encode())
    assert_clean(fresh)
    assert fresh.session_state["csv.name"] == "mine.csv"
    assert fresh.session_state["csv.target"] == "label"
    assert address(fresh)["dataset"] == "csv upload"
    assert any("Chosen so far" in c.value for c in fresh.caption)


def _payload_of(at, state) -> str:
    from unittest import mock

    import pandas as pd
    from pages.common import saved_run

    with mock.patch.object(saved_run.st, "session_state", dict(at.session_state.filtered_state
                                                               if hasattr(at.session_state, "filtered_state")
                                                               else {k: at.session_state[k] for k in ("csv.bytes", "csv.name", "csv.target")})):
        return saved_run.run_json(state, pd.DataFrame({"x": [1]}))


@pytest.mark.parametrize("page", ["kmp", "skpca"])
def test_a_link_of_an_upload_view_asks_for_its_file_by_name(page):
    at = open_app_page(f"pages/{page}.py", params={"dataset": "csv upload"})
    at.file_uploader(key="csv.file").set_value(("my data.csv", CSV, "text/csv")).run()
    assert_clean(at)
    link = address(at)
    assert link["file"] == "my data.csv"
    # the link (or a reload: a new session) asks for that file by name
    fresh = open_app_page(f"pages/{page}.py", params=link)
    assert not fresh.exception
    asks = [i.value.replace("\\", "") for i in fresh.info
            if "upload it to see the view" in i.value]
    assert asks and "my data.csv" in asks[0]
    assert fresh.file_uploader(key="csv.file").label.replace("\\", "") == "Upload my data.csv"
