"""Shared AppTest helpers for the page tests (one copy instead of one per page)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

REPO_ROOT = Path(__file__).resolve().parents[1]
APP = REPO_ROOT / "app.py"
RUN_TIMEOUT = 180


def open_app_page(page, params=None, state=None, timeout=RUN_TIMEOUT) -> AppTest:
    """A fresh session on ``page``, opened with URL ``params`` and session ``state``."""
    at = AppTest.from_file(str(APP), default_timeout=timeout)
    at.run()
    at.switch_page(page)
    for key, val in (params or {}).items():
        at.query_params[key] = str(val)
    for key, val in (state or {}).items():
        at.session_state[key] = val
    at.run()
    return at


def assert_clean(at):
    """No exception and no st.error on the page."""
    assert not at.exception, [(e.value, getattr(e, "stack_trace", "")) for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def widget(at, kind, key, default=None):
    """Value of the widget ``key`` (``default`` when it is not drawn)."""
    found = [w for w in getattr(at, kind) if w.key == key]
    return found[0].value if found else default
