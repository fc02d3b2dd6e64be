"""Streamlit binding of a page's view state (see ``pages.common.state``).

Each run of a page starts with :func:`sync`: on the first run of a session (or
when the browser moved to another address: Back, Forward, or one the page did not
write) the URL is parsed through the schema's one validator; afterwards the
widgets' values are. The resulting :class:`State`
is written back to the widgets and, complete, to the URL, so a copied link
always reproduces the view. :func:`draw` then draws the widgets of the fields
that apply and are not hidden by a classroom link; a hidden field takes
exactly the same validated path as a visible one.

The choices handed to mpcore and datasets are frozen dataclasses of :mod:`views.data` (hashable
cache keys) derived from the state by :func:`data_choice` and
:func:`kernel_choice`.
"""

from __future__ import annotations

import hashlib
from urllib.parse import urlencode

import numpy as np
import streamlit as st

import datasets
from mpcore.kernels import sigma_to_gamma
from views.data import DataChoice, KernelChoice  # noqa: F401  (re-exported for the pages)
from views.data import upload_target, width_note

from .cached.data import upload_facts
from .fields import (  # noqa: F401  (re-exported for the pages and tests)
    CSV,
    DEFAULT_SIGMA,
    GAMMAS,
    KERNEL_LABELS,
    MAX_APP_SAMPLES,
    SIGMAS,
    clickable,
)
from .state import HALL_FIELDS, UPLOAD_KEYS, Schema, State
from .text import literal

# ---------------------------------------------------------------- the choices


def data_choice(state: State) -> DataChoice | None:
    """The data the state describes (None for an upload not made yet)."""
    name = state["dataset"]
    if name == CSV:
        if "csv.bytes" not in st.session_state:
            return None
        target = st.session_state.get("csv.target", "(none)")
        return DataChoice(name=CSV, csv_digest=st.session_state["csv.digest"],
                          csv_target=None if target in (None, "(none)") else target,
                          standardize=state["std"], seed=state["seed"])
    return DataChoice(name=name, n_samples=state["n"], noise=state.get("noise"),
                      seed=state["seed"], variance_ratio=state.get("ratio", 10.0),
                      standardize=state["std"], added=state.get("pts", ()))


def kernel_choice(state: State) -> KernelChoice:
    kernel = state["kernel"]
    sigma = state.get("sigma")
    if kernel == "rbf":
        gamma = sigma_to_gamma(sigma, "book")
    elif kernel == "laplacian":
        gamma = sigma_to_gamma(sigma, "laplacian")
    else:
        gamma = state.get("gamma")
    return KernelChoice(kernel=kernel, gamma=gamma, degree=state.get("degree", 3),
                        coef0=state.get("coef0", 1.0), sigma=sigma)


# ---------------------------------------------------------------- state <-> session, URL


def _key(schema: Schema) -> str:
    return f"_view.{schema.page}"


def _url() -> dict:
    """The view's part of the address (a hall's own fields are no part of it)."""
    return {k: st.query_params.get_all(k)[-1] for k in st.query_params.keys()
            if k not in HALL_FIELDS}


def hall_part() -> dict:
    """The hall's fields of the address, kept when a page writes its view's address."""
    return {k: st.query_params[k] for k in HALL_FIELDS if k in st.query_params}


def _facts() -> dict:
    """What the fields of an upload's view depend on: its rows and, once a target column is
    chosen, its task, features and classes (the regression feature, the loss and the
    one-vs-rest class are offered from these)."""
    ss = st.session_state
    rows = ss.get("csv.rows")
    if not rows:
        return {}
    facts = {"_rows": rows}
    target = ss.get("csv.target")
    if "csv.bytes" in ss:
        facts.update(upload_facts(ss["csv.digest"], None if target in (None, "(none)")
                                  else target))
    return facts


def sync(schema: Schema) -> State:
    """This run's validated state, written back to the widgets and the URL.

    Notes from validating a link (a value out of range, an unknown field) and
    from resets (a new data set) are shown by :func:`show_notes`.
    """
    ss = st.session_state
    key = _key(schema)
    prev: State | None = ss.get(key)
    url = _url()
    # The widgets' keys (dataset, sigma, ...) are shared by the pages: their session values
    # are this page's only when this page drew them last. Coming back from another page,
    # they hold that page's view, and this page's own stored view is the one to keep.
    mine = ss.get(DRAWN) == schema.page
    ss[DRAWN] = schema.page
    if prev is None or _new_address(key, url):
        _link_upload(url)
        state, notes = schema.build(url, facts=_facts())
        if state.hidden:
            # "Reset all controls" in a classroom link goes back to this link
            ss[key + ".origin"] = {k: v for k, v in url.items() if k in schema or k == "hide"
                                   or k in UPLOAD_KEYS}
    else:
        raw = {}
        for f in schema.fields:
            use_widget = (mine and f.widget != "none" and f.key not in prev.hidden
                          and f.key in ss)
            if use_widget:
                raw[f.key] = ss[f.key]
            elif f.key in prev:
                raw[f.key] = prev[f.key]
        state, notes = schema.build(raw, prev=prev, hidden=prev.hidden, facts=_facts())
    _store(schema, state)
    if notes:
        ss[key + ".notes"] = notes
    return state


#: Session keys of the file name and target column a classroom link of an upload gives.
FILE, TARGET = "_link.file", "_link.target"


def _link_upload(url: dict):
    """Remember the upload a link names (its file and target column), for the uploader."""
    ss = st.session_state
    if "file" in url:
        ss[FILE] = str(url["file"])[:200]
        ss[TARGET] = str(url.get("target", ""))[:200] or None


#: Session key naming the page whose view the shared widget keys last held.
DRAWN = "_view.drawn"

#: How many of the addresses a page wrote it remembers (to tell them from a new link).
WRITTEN = 64


def _new_address(key: str, url: dict) -> bool:
    """Whether this run's address sets the view: a move in the browser's history (Back,
    Forward), or an address this page did not write in this session, other than the
    page's bare address.

    The browser sends its address with every rerun. A control changed before it has
    taken the page's last address (a slider moved twice faster than a run) comes with
    an address the page wrote earlier: the widgets, not that address, hold the view.
    A bare address (no query at all) within a session is the sidebar's navigation or a
    page link coming back to the page: the view the session left there is kept, and
    written back to the address. (A bare address opened in the browser starts a new
    session, and with it the defaults: "Reset all controls" is such a link.)
    """
    ss = st.session_state
    if url == ss.get(key + ".url"):
        return False
    if _history_move():
        return True
    if not url:
        return False
    return _frozen(url) not in ss.get(key + ".written", ())


def _history_move() -> bool:
    """Whether this run answers the browser's Back or Forward button."""
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    ctx = get_script_run_ctx()
    return bool(getattr(ctx, "is_history_navigation", False))


def _frozen(query: dict) -> tuple:
    return tuple(sorted(query.items()))


def _written(key: str, query: dict):
    """Make ``query`` the page's address, and remember it among the last :data:`WRITTEN`."""
    ss = st.session_state
    if _url() != query:
        st.query_params.from_dict({**query, **hall_part()})
    ss[key + ".url"] = query
    seen = [q for q in ss.get(key + ".written", ()) if q != _frozen(query)]
    ss[key + ".written"] = tuple(seen[-(WRITTEN - 1):]) + (_frozen(query),)


def _store(schema: Schema, state: State):
    """Make ``state`` the page's state: widgets' session values and the URL follow it."""
    ss = st.session_state
    key = _key(schema)
    ss[key] = state
    for f in schema.fields:
        if f.widget not in ("none",) and f.key in state:
            ss[f.key] = state[f.key]
    _written(key, state.query())


def update(schema: Schema, **changes) -> State:
    """Change fields from a callback (Step, a click): validated, stored, in the URL.

    Safe inside a fragment and in ``on_click`` callbacks; widget keys are not
    touched (a callback may not write a widget that already exists).
    """
    ss = st.session_state
    key = _key(schema)
    state = ss[key].replace(**changes)
    ss[key] = state
    _written(key, state.query())
    return state


def current(schema: Schema) -> State:
    return st.session_state[_key(schema)]


def show_notes(schema: Schema):
    """Say what the validator changed (once): a link's bad values, resets."""
    notes = st.session_state.pop(_key(schema) + ".notes", None)
    if notes:
        st.info("  \n".join(literal(n) for n in notes), icon=":material/info:")


# ---------------------------------------------------------------- drawing


def _draw_one(f, state: State):
    ctx = {**state.facts, **state}
    kw = dict(key=f.key, help=f.help)
    if f.widget in ("slider", "number"):
        lo, hi = f.at("lo", ctx), f.at("hi", ctx)
        if lo == hi:
            st.caption(f"{f.label}: {state[f.key]} (the only value here)")
            return
        step = f.step or (1 if f.kind == "int" else 0.01)
        if f.kind == "float":
            lo, hi, step = float(lo), float(hi), float(step)
        fn = st.slider if f.widget == "slider" else st.number_input
        fn(f.label, min_value=lo, max_value=hi, step=step, **kw)
    elif f.widget in ("select_slider", "selectbox", "radio"):
        options = list(f.at("options", ctx))
        labels = f.labels or {}
        fmt = (lambda o: labels.get(o, str(o))) if labels else (lambda o: f"{o:g}" if isinstance(
            o, float) else str(o))
        fn = {"select_slider": st.select_slider, "selectbox": st.selectbox,
              "radio": st.radio}[f.widget]
        fn(f.label, options=options, format_func=fmt, **kw)
    elif f.widget == "checkbox":
        st.checkbox(f.label, **kw)
    elif f.widget == "toggle":
        st.toggle(f.label, **kw)


def draw(state: State, keys=None, *, sections=True):
    """Draw the widgets of ``keys`` (default: every drawn field), in declared order.

    Fields that do not apply or are hidden by a classroom link are skipped.
    A section heading is written when a field opens a new section.
    """
    wanted = None if keys is None else set(keys)
    section, written = None, None
    for f in state.schema.fields:
        section = f.section or section
        if wanted is not None and f.key not in wanted:
            continue
        if f.widget in ("none", "page"):
            continue
        if f.key == "dataset" and state.get("dataset") == CSV and f.key in state.hidden:
            # the lecturer chose an upload: the student still has to give that file
            if sections and section and section != written:
                st.subheader(section)
                written = section
            _csv_upload(state, hidden=True)
            continue
        if f.key not in state or f.key in state.hidden:
            continue
        # a heading only over a control that is drawn (a classroom link may hide them all)
        if sections and section and section != written:
            st.subheader(section)
            written = section
        _draw_one(f, state)
        if f.key == "dataset" and state["dataset"] == CSV:
            _csv_upload(state)
        if f.key in ("sigma", "degree", "coef0") or (
                f.key == "kernel" and state["kernel"] not in ("rbf", "laplacian", "polynomial",
                                                               "sigmoid")):
            _kernel_formula(state, f.key)


def _kernel_formula(state: State, after: str):
    """The kernel's formula (and sigma's gamma) under its last control."""
    kern = kernel_choice(state)
    last = {"rbf": "sigma", "laplacian": "sigma", "polynomial": "coef0", "sigmoid": "coef0"}
    if last.get(kern.kernel, "kernel") != after:
        return
    scale = state.facts.get("_scale") if state["dataset"] == CSV else None
    note = width_note(kern.sigma, scale[0 if state.get("std", True) else 1]) \
        if scale and kern.kernel in ("rbf", "laplacian") else None
    if note:
        st.warning(note, icon=":material/straighten:")
    if kern.kernel == "rbf":
        st.latex(r"\kappa(x,z)=e^{-\|x-z\|^2/2\sigma^2}")
        st.latex(rf"\gamma=\tfrac{{1}}{{2\sigma^2}}={kern.gamma:.4g}")
    elif kern.kernel == "laplacian":
        st.latex(r"\kappa(x,z)=e^{-\|x-z\|_1/\sigma}")
        st.latex(rf"\gamma=\tfrac{{1}}{{\sigma}}={kern.gamma:.4g}")
    elif kern.kernel == "polynomial":
        st.latex(rf"\kappa(x,z)=(\gamma\,x'z+c_0)^{{{kern.degree}}}")
    elif kern.kernel == "sigmoid":
        st.latex(r"\kappa(x,z)=\tanh(\gamma\,x'z+c_0)")
    elif kern.kernel == "linear":
        st.latex(r"\kappa(x,z)=x'z")
    elif kern.kernel == "cosine":
        st.latex(r"\kappa(x,z)=\frac{x'z}{\|x\|\,\|z\|}")


def _csv_upload(state: State, hidden: bool = False):
    """Upload through datasets.from_csv; errors keep the previous valid upload. A view of
    an upload opened without it (a link, a reload) asks for that file by name.

    ``hidden``: the data set is hidden by a classroom link that chose an upload; the
    student is asked for the lecturer's file, by its name when the link gives it."""
    ss = st.session_state
    name = state.get("file") or ss.get(FILE) or ""
    label = "Numeric CSV with a header row"
    if hidden:
        label = (f"Your lecturer's data: upload {name}" if name
                 else "Your lecturer's data: upload the CSV file they gave you")
    elif name and "csv.bytes" not in ss:
        st.info(f"This view shows the file “{literal(name)}”: upload it to see the view "
                "(a link holds the settings, never the data).", icon=":material/upload_file:")
        label = f"Upload {name}"
    up = st.file_uploader(label,
                          type=["csv", "txt"], key="csv.file",
                          help=f"At most {MAX_APP_SAMPLES} rows, {datasets.MAX_COLS} columns, "
                               f"{datasets.MAX_BYTES // 1024 // 1024} MB. Numbers only.")
    ss = st.session_state
    if up is not None:
        raw = up.getvalue()
        digest = hashlib.sha256(raw).hexdigest()[:16]
        if ss.get("csv.digest") != digest:
            try:
                # validate once, without a target, to learn the header
                probe = datasets.from_csv(raw, max_rows=MAX_APP_SAMPLES)
            except ValueError as exc:
                st.error(f"{literal(up.name)}: {literal(exc)}")
            else:
                ss["csv.bytes"] = raw
                ss["csv.digest"] = digest
                ss["csv.name"] = up.name
                ss["csv.rows"] = int(probe.n_samples)
                ss["csv.columns"] = list(probe.feature_names)
                ss["csv.notes"] = list(probe.warnings)
                # the same target on every page: the one datasets.detect_target finds,
                # or the one a classroom link names
                ss["csv.target"] = upload_target(raw, max_rows=MAX_APP_SAMPLES) or "(none)"
                if hidden and ss.get(TARGET) in probe.feature_names:
                    ss["csv.target"] = ss[TARGET]
                update(state.schema, file=up.name)  # the link names the file
                st.rerun()  # ranges that depend on the rows (k, say) follow the new file
    if "csv.bytes" not in ss:
        if hidden:
            st.info(f"This view uses the file {literal(name)}: upload it to see the view."
                    if name else "This view uses a CSV file: upload it to see the view.")
        else:
            st.info("Upload a CSV file to use your own data (the previous data set stays "
                    "loaded until a valid file arrives).")
        return
    if hidden:
        st.caption(f"Using {literal(ss['csv.name'])}: {ss['csv.rows']} rows")
        return
    st.selectbox("Target column", ["(none)"] + ss["csv.columns"], key="csv.target")
    st.caption(f"Using {literal(ss['csv.name'])}: {ss['csv.rows']} rows")
    for note in ss.get("csv.notes", ()):
        st.warning(literal(note), icon=":material/info:")


# ---------------------------------------------------------------- clicked points


def add_point(schema: Schema, x, y, label):
    pts = tuple(current(schema).get("pts", ())) + ((round(float(x), 3), round(float(y), 3),
                                                    int(label)),)
    update(schema, pts=pts)


def clear_points(schema: Schema):
    update(schema, pts=())


def reset_url(state: State) -> str:
    """This page's address with every control at its default; in a classroom link, the
    link the session opened (the lecturer's values, hidden or not).

    Opening it starts a fresh session, which also forgets an uploaded file.
    """
    base = (st.context.url or "").split("?")[0]
    if state.hidden:
        origin = st.session_state.get(_key(state.schema) + ".origin")
        if origin:
            return f"{base}?{urlencode(origin, safe=',:;')}"
        return f"{base}?hide={','.join(k for k in state.schema.keys if k in state.hidden)}"
    return base


def require_training_rows(n_rows: int, test: float, *, need: int, what: str):
    """Stop the page with a message a person can act on when the split leaves too few rows."""
    import math

    n_train = n_rows - math.ceil(test * n_rows)
    if n_train < need:
        st.error(f"{what} needs at least {need} training points; this data has {n_rows} "
                 f"row(s), and a test fraction of {test:g} leaves {max(n_train, 0)} for training. "
                 "Upload more rows or lower the test fraction.")
        st.stop()
    return n_train


def data_or_stop(state: State, load, *, need: int, what: str):
    """(choice, data) the state describes, or stop the page with a message that says why:
    no upload yet, an upload whose target leaves no usable feature, too few training rows."""
    choice = data_choice(state)
    if choice is None:
        st.stop()
    try:
        d = load(choice)
    except ValueError as exc:
        st.error(literal(exc))
        st.stop()
    require_training_rows(d.n_samples, state["test"], need=need, what=what)
    return choice, d


def finite_or_none(a):
    """None if ``a`` holds NaN/inf (a plot then says why instead of drawing)."""
    a = np.asarray(a, dtype=float)
    return a if np.all(np.isfinite(a)) else None
