"""The JavaScript and CSS of the app's components, read from the files beside this module.

Each component keeps its script and style sheet in a ``.js`` / ``.css`` file next to the
module that declares it (``charts.js`` beside ``charts.py``); a file is read once per
process. Streamlit-free.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

__all__ = ["asset"]

_HERE = Path(__file__).resolve().parent


@cache
def asset(name: str) -> str:
    """The text of the file ``name`` beside this module (``"charts.js"``)."""
    return (_HERE / name).read_text(encoding="utf-8")
