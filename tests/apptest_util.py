"""Shared AppTest helpers for the page tests (one copy instead of one per page)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

REPO_ROOT = Path(__file__).resolve().parents[1]
APP = REPO_ROOT / "app.py"
RUN_TIMEOUT = 180


def open_app_page(page, params=None, state=None, timeout=RUN_TIMEOUT) -> AppTest:
    """A fresh session on ``page`` (None: the app's first page), opened with URL ``params``
    and session ``state``; the app's first page ran without an exception."""
    at = AppTest.from_file(str(APP), default_timeout=timeout)
    at.run()
    assert not at.exception, [(e.value, getattr(e, "stack_trace", "")) for e in at.exception]
    if page is not None:
        at.switch_page(page)
    for key, val in (params or {}).items():
        at.query_params[key] = str(val)
    for key, val in (state or {}).items():
        at.session_state[key] = val
    at.run()
    return at


def address(at) -> dict:
    """The page's address after a run, one value per key (the last, as the page reads it)."""
    return {k: (v[-1] if isinstance(v, list) else v) for k, v in
            ((k, at.query_params[k]) for k in at.query_params)}


def open_footer(at) -> AppTest:
    """Open the page footer's two expanders ("Show the code" and the classroom link), which
    draw their contents only while open, and run."""
    from pages.common.share import CODE_OPEN, LINK_OPEN

    keys = (CODE_OPEN, LINK_OPEN)
    if not all(key in at.session_state and at.session_state[key] for key in keys):
        for key in keys:
            at.session_state[key] = True
        at.run()
    return at


def code_of(at, marker: str) -> str:
    """The one code block containing ``marker`` (the footer opened first)."""
    blocks = [c.value for c in open_footer(at).code if marker in c.value]
    assert len(blocks) == 1, [c.value for c in at.code]
    return blocks[0]


def assert_clean(at):
    """No exception and no st.error on the page."""
    assert not at.exception, [(e.value, getattr(e, "stack_trace", "")) for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def record_spinners(monkeypatch) -> list[str]:
    """The text of every spinner the app starts from now on, in order (Streamlit draws one
    only after half a second, so a test sees what the page asks for, not the timing)."""
    from streamlit.elements.spinner import SpinnerMixin

    shown: list[str] = []
    real = SpinnerMixin.spinner

    def spy(self, text="", *args, **kwargs):
        shown.append(str(text))
        return real(self, text, *args, **kwargs)

    monkeypatch.setattr(SpinnerMixin, "spinner", spy)
    return shown


def widget(at, kind, key, default=None):
    """Value of the widget ``key`` (``default`` when it is not drawn)."""
    found = [w for w in getattr(at, kind) if w.key == key]
    return found[0].value if found else default


def data_settings(at) -> dict:
    """The data and kernel controls the data pages share (pages/common/widgets.SHARED), by
    name: the value shown, or the control's default where the page does not draw it."""
    return dict(
        dataset=widget(at, "selectbox", "dataset"), n=widget(at, "slider", "n"),
        noise=widget(at, "slider", "noise"), ratio=widget(at, "slider", "ratio", 10.0),
        seed=widget(at, "number_input", "seed"), std=widget(at, "checkbox", "std", True),
        kernel=widget(at, "selectbox", "kernel"), sigma=widget(at, "select_slider", "sigma"),
        gamma=widget(at, "select_slider", "gamma", 0.1),
        degree=widget(at, "slider", "degree", 3), coef0=widget(at, "select_slider", "coef0", 1.0),
    )


# ---------------------------------------------------------------- independent references
# The page tests rebuild the page's data with datasets + scikit-learn, not through
# pages/common/cached/, so a bug there cannot hide behind the same code.


def kernel_params(s) -> dict:
    """Kernel keyword arguments from the page's settings, in the papers' conventions.

    Gaussian exp(-||x-z||^2 / (2 sigma^2)), Laplacian exp(-||x-z||_1 / sigma).
    """
    k = s["kernel"]
    if k == "rbf":
        return dict(kernel="rbf", gamma=1.0 / (2.0 * s["sigma"] ** 2))
    if k == "laplacian":
        return dict(kernel="laplacian", gamma=1.0 / s["sigma"])
    if k in ("polynomial", "sigmoid"):
        out = dict(kernel=k, gamma=s["gamma"], coef0=s["coef0"])
        if k == "polynomial":
            out["degree"] = s["degree"]
        return out
    return dict(kernel=k)


def reference_data(s):
    """(Dataset, X) for the settings ``s``: loaded and standardised as the page says."""
    import datasets
    import numpy as np
    from sklearn.preprocessing import StandardScaler

    kw = dict(n_samples=s["n"], random_state=s["seed"])
    if s["dataset"] == "gaussian_toy":
        kw["variance_ratio"] = s["ratio"]
    elif s.get("noise") is not None:
        kw["noise"] = s["noise"]
    d = datasets.load(s["dataset"], **kw)
    X = StandardScaler().fit_transform(d.X) if s["std"] else np.asarray(d.X, dtype=float)
    return d, X


def reference_split(d, n, s):
    """(train, test) row indices: a seeded split, stratified when every class can be."""
    import numpy as np
    from sklearn.model_selection import train_test_split

    strat = None
    if d.task == "classification":
        _, counts = np.unique(d.y, return_counts=True)
        if counts.min() >= 2 and int(s["test"] * n) >= len(counts):
            strat = d.y
    return train_test_split(np.arange(n), test_size=s["test"], random_state=s["seed"],
                            stratify=strat)


# ---------------------------------------------------------------- the timeline component


def _elements(node):
    for child in getattr(node, "children", {}).values():
        yield child
        yield from _elements(child)


def timeline(at) -> dict:
    """Data of the page's timeline component: step ``j``, ``n`` steps, per-step ``lines``;
    without its draw number (``pages.common.charts.draw_number``: the clock's time when the
    data was new, so two sessions showing the same thing send different numbers)."""
    import json

    found = [el for el in _elements(at._tree) if getattr(el, "type", None) == "bidi_component"
             and el.proto.component_name == "mp_timeline"]
    assert len(found) == 1, f"{len(found)} timeline components on the page"
    data = json.loads(found[0].proto.json)
    assert isinstance(data.pop("draw", None), int), "the timeline's data has no draw number"
    return data


def step_counter(at) -> tuple[int, int]:
    """(j, n_steps) that the page's step counter shows."""
    data = timeline(at)
    return int(data["j"]), int(data["n"])


def chosen_so_far(at) -> list[int]:
    """Indices listed in the "Chosen so far: ..." line of the current step."""
    data = timeline(at)
    line = [t for t in data["lines"][data["j"] - 1] if t.startswith("Chosen so far:")]
    assert len(line) == 1, data["lines"][data["j"] - 1]
    return [int(t) for t in line[0].split(":", 1)[1].split(",")]


def chart_elements(at) -> list:
    """The page's charts (pages.common.charts: the chart component's elements), in order."""
    from pages.common.charts import CHART_COMPONENT
    return [e for e in at.get("bidi_component") if e.proto.component_name == CHART_COMPONENT]


def chart_spec(element) -> dict:
    """The figure a chart element was sent (its JSON as plotly.js reads it)."""
    return json.loads(element.proto.bytes)["figure"]


@functools.lru_cache(maxsize=1)
def _markdown_parser():
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table")


def markdown_tokens(markdown: str) -> list:
    """``markdown`` as a renderer reads it (markdown-it: CommonMark with GitHub's tables, as
    Streamlit's Markdown), its token stream."""
    return _markdown_parser().parse(markdown)


def markdown_cells(markdown: str) -> list[list[str]]:
    """The rows of cell texts of the Markdown table(s) in ``markdown``, as a renderer reads
    them (:func:`markdown_tokens`)."""
    rows, row, cell = [], None, None
    for tok in markdown_tokens(markdown):
        if tok.type == "tr_open":
            row = []
        elif tok.type in ("th_open", "td_open"):
            cell = []
        elif tok.type == "inline" and cell is not None:
            cell.append("".join(c.content for c in tok.children or () if c.type == "text"))
        elif tok.type in ("th_close", "td_close"):
            row.append("".join(cell))
            cell = None
        elif tok.type == "tr_close":
            rows.append(row)
    return rows


def markdown_tables(at) -> list:
    """Every Markdown table the page shows, as a DataFrame of the cell texts (the header row
    as its columns), in the page's order."""
    import pandas as pd

    out = []
    for md in at.markdown:
        rows = markdown_cells(md.value) if md.value.lstrip().startswith("|") else []
        if rows:
            out.append(pd.DataFrame(rows[1:], columns=rows[0]))
    return out


def assert_cell_shows(cell: str, value) -> None:
    """A table cell shows ``value``: text as it is, a missing value (None, NaN) as a dash,
    a number to its last shown digit (``0.0123``, ``2.29e-02``, ``20.8``, ``10``)."""
    if isinstance(value, str):
        assert cell == value, (cell, value)
    elif value is None or value != value:
        assert cell == "–", (cell, value)
    else:
        mantissa, _, exponent = cell.lower().partition("e")
        half_unit = 0.5 * 10.0 ** (int(exponent or 0) - len(mantissa.partition(".")[2]))
        assert abs(float(cell) - float(value)) <= half_unit * (1 + 1e-9), (cell, value)
