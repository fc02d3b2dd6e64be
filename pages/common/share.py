"""Sharing: the classroom-link builder, "show the code" and downloads.

Every page ends with :func:`page_footer`, which offers the Python snippet that
reproduces the view in a notebook, the run's numbers as CSV and JSON, and the
classroom-link builder (tick the controls students may see; the link hides
the others, as TensorFlow Playground's per-control hide flags do).
"""

from __future__ import annotations

import html
from urllib.parse import urlencode, urlsplit

import pandas as pd
import streamlit as st

from .assets import asset
from .saved_run import load_saved_run, run_json  # noqa: F401  (public names kept here)
from .state import State, query_string  # noqa: F401  (query_string: a public name here)
from .text import literal
from .widgets import CSV, DataChoice, KernelChoice, reset_url

#: The preset links' style sheet, a block of its own so the links stay one paragraph.
PRESETS_STYLE = f"<style>\n{asset('presets.css')}</style>\n\n"


def data_snippet(choice: DataChoice) -> str:
    """Python lines that load the same data as the app does."""
    if choice.name == CSV:
        target = f", target={choice.csv_target!r}" if choice.csv_target else ""
        # the uploaded file by its own name (the snippet runs in its folder)
        name = str(st.session_state.get("csv.name") or "your_file.csv")
        lines = [f"d = datasets.from_csv({name!r}{target})"]
    else:
        kw = ", ".join(f"{k}={v!r}" for k, v in choice.load_kwargs().items() if v is not None)
        lines = [f"d = datasets.load({choice.name!r}, {kw})"]
    lines.append("X, y = d.X, d.y")
    if choice.added:
        lines.append(f"added = np.array({[list(p) for p in choice.added]!r})  # clicked points")
        lines.append("X = np.vstack([X, added[:, :2]]); y = np.concatenate([y, added[:, 2].astype(int)])")
    if choice.standardize:
        lines.append("X = datasets.standardize(X)")
    return "\n".join(lines)


def kernel_kwargs(kern: KernelChoice) -> str:
    parts = [f"kernel={kern.kernel!r}"]
    if kern.gamma is not None:
        parts.append(f"gamma={kern.gamma!r}")
    if kern.kernel == "polynomial":
        parts.append(f"degree={kern.degree}")
    if kern.kernel in ("polynomial", "sigmoid"):
        parts.append(f"coef0={kern.coef0!r}")
    return ", ".join(parts)


def split_snippet(choice: DataChoice, test_fraction: float, stratify: bool,
                  has_target: bool = True) -> str:
    """The train/test split line: ``datasets.split``, the function ``cached.split`` uses."""
    if not has_target:
        return (f"X_tr, X_te = datasets.split(X, test_size={test_fraction!r}, "
                f"random_state={choice.seed})")
    strat = ", stratify=True" if stratify else ""
    return (f"X_tr, X_te, y_tr, y_te = datasets.split(X, y, test_size={test_fraction!r}, "
            f"random_state={choice.seed}{strat})")


# `mpdatasets`: the data loaders under their installed name (pyproject.toml; in a clone,
# mpdatasets.py), so every snippet runs after `pip install` of the project, in any folder.
HEADER = "import numpy as np\nimport mpdatasets as datasets\n"


#: Session keys of the footer's two expanders (see :func:`opened`).
CODE_OPEN, LINK_OPEN = "share.code.open", "share.link.open"


def opened(label: str, key: str, **kwargs):
    """An expander that draws its contents only while open (``st.expander(on_change="rerun")``):
    the container when open, else None.

    For what loads JavaScript of its own on a first visit: a code box anywhere on a page
    loads Streamlit's syntax highlighter (1.5 MB), which made every page slower
    to draw (benchmarks/bench_pages.py); a data grid loads its own code."""
    box = st.expander(label, key=key, on_change="rerun", **kwargs)
    return box if box.open else None


def classroom_builder(state: State):
    """Tick which controls students see; get a link with the others hidden.

    The link is the complete state (every value, seed included) plus the
    hidden keys: hidden fields are validated and used exactly like visible ones.
    The ticks are kept while the expander is closed.
    """
    box = opened("Classroom link: choose what students can change", LINK_OPEN,
                 icon=":material/qr_code_2:")
    if box is None:
        return
    with box:
        st.caption("Untick a control to hide it from students. The link keeps every current "
                   "value (seed included), so everyone sees exactly this view.")
        ticks = st.session_state.setdefault(f"_share.ticks.{state.schema.page}", {})
        shown = []
        cols = st.columns(3)
        controls = [k for k in state.schema.controls() if k in state]
        for i, key in enumerate(controls):
            label = state.schema[key].label
            ticks[key] = cols[i % 3].checkbox(label, value=ticks.get(key, key not in state.hidden),
                                              key=f"share.show.{key}")
            if ticks[key]:
                shown.append(key)
        hide = frozenset(k for k in controls if k not in shown)
        link = State(state.schema, dict(state), hide, state.facts)
        url = student_url(page_url(link) + upload_query(state))
        st.code(url, language=None, wrap_lines=True)
        st.caption("Copy this link (the copy button is at the right of the box), or let "
                   "students scan the code below from the projector.")
        if url.startswith("http"):
            link_qr(url)


def upload_query(state: State) -> str:
    """The file name and target column an upload view's classroom link names (the student
    is asked for that file), as ``&file=...&target=...``; empty for other views."""
    ss = st.session_state
    if state.get("dataset") != CSV or "csv.name" not in ss:
        return ""
    extra = {"file": ss["csv.name"]}
    if ss.get("csv.target") not in (None, "(none)"):
        extra["target"] = ss["csv.target"]
    return "&" + urlencode(extra)


#: Session key of the address students open (kept while the expander is closed).
ADDRESS = "_share.address"


def student_url(url: str) -> str:
    """``url`` at the address students open: the lecturer's field (default: the hall's
    address that deploy/serve.py handed over, else this browser's), with a warning when
    that address is this machine's own."""
    from .address import hall_address, is_loopback, parse_address, with_address

    ss = st.session_state
    if ADDRESS not in ss:
        ss[ADDRESS] = hall_address() or ""
    typed = st.text_input(
        "Address students open", value=ss[ADDRESS], key="share.address",
        placeholder="e.g. http://192.168.1.20:8080 (empty: this browser's address)",
        help="The address of this app on the hall's network, as deploy/serve.py prints it. "
             "The link keeps this page and its view, at that address.")
    ss[ADDRESS] = typed
    if typed.strip():
        try:
            url = with_address(url, typed)
        except ValueError as exc:
            st.error(f"Address students open: {literal(exc)}. The link below keeps this browser's "
                     "address.")
    if is_loopback(url):
        st.warning("This link points at this computer's own address "
                   f"({literal(urlsplit(url).netloc)}): a student's phone cannot open it. "
                   "Type the address students open above (deploy/serve.py prints it).",
                   icon=":material/warning:")
    return url


def link_qr(url: str):
    """The QR code of ``url``, or why there is none (a link too long for a QR code)."""
    from .cached.link import qr_svg

    try:
        svg = qr_svg(url)
    except ValueError:
        st.warning(f"This link is too long for a QR code ({len(url):,} characters; a QR code "
                   "holds about 2,300). Share the link itself, or shorten it by clearing "
                   "some clicked points.", icon=":material/qr_code_2:")
        return
    # the column's width (an SVG scales without blurring): a fixed width overflowed a narrow column
    st.image(svg, width="stretch", caption="QR code of this link")


def page_url(state: State) -> str:
    """The address of this page showing ``state`` (complete: no value left to a default)."""
    base = st.context.url.split("?")[0] if st.context.url else ""
    return f"{base}?{query_string(state)}"


def preset_state(state: State, values: dict) -> State:
    """``state`` with a preset applied (validated; the data set's dependants reset)."""
    return state.replace(**values)


def allowed_presets(state: State, presets: dict) -> dict:
    """The presets a student may open: none that would change a field the classroom link
    hides (its value, or whether it applies), directly or by resetting a dependant."""
    if not state.hidden:
        return dict(presets)
    out = {}
    for name, values in presets.items():
        target = preset_state(state, values)
        if all(target.get(k, _NONE) == state.get(k, _NONE) for k in state.hidden):
            out[name] = values
    return out


_NONE = object()


def preset_links(state: State, presets: dict, heading: str | None = None):
    """Sidebar links that reload the page with each preset's complete state in the URL,
    under ``heading`` (drawn only when a link is).

    A link, not a button: the URL (and so a copied link) then always shows what
    is on screen, every value the preset set included. In a classroom link, a preset
    that would change a hidden control is not offered.
    """
    presets = allowed_presets(state, presets)
    if not presets:
        return
    if heading:
        st.sidebar.subheader(heading)
    # the style sheet a block of its own: the links stay one paragraph, as without it
    st.sidebar.markdown(PRESETS_STYLE + "".join(
        f'<a href="?{html.escape(query_string(preset_state(state, values)))}" '
        f'target="_self" class="mp-preset">{html.escape(name)}</a>'
        for name, values in presets.items()), unsafe_allow_html=True)


def active_preset(state: State, presets: dict) -> str | None:
    """The preset the view still matches (its explanation is shown only then)."""
    for name, values in presets.items():
        target = preset_state(state, values)
        if state.matches({k: target[k] for k in values if k in target}):
            return name
    return None


def page_footer(*, snippet: str, table: pd.DataFrame | None, name: str, state: State,
                extra_json: dict | None = None):
    """Show the code, download the numbers, build a classroom link, reset."""
    st.divider()
    left, right = st.columns([3, 2])
    with left:
        st.subheader("Show the code")
        box = opened("Python for a notebook: this view with mpcore and datasets", CODE_OPEN,
                     icon=":material/code:")
        if box is not None:
            with box:
                st.caption("Paste into a notebook to reproduce this view.")
                st.code(HEADER + snippet, language="python")
    with right:
        st.subheader("Download the numbers")
        if table is not None and len(table):
            # both files are written when their button is pressed, not on every rerun
            st.download_button("Table as CSV", lambda: table.to_csv(index=False).encode(),
                               file_name=f"{name}.csv", mime="text/csv", key=f"{name}.csv_dl",
                               on_click="ignore")
            st.download_button("Run as JSON",
                               lambda: run_json(state, table, extra_json).encode(),
                               file_name=f"{name}.json", mime="application/json",
                               key=f"{name}.json_dl", on_click="ignore")
        classroom_builder(state)
        load_saved_run(state)
        if state.hidden:
            st.markdown(f'<a href="{html.escape(reset_url(state))}" target="_self">'
                        "⟲ Reset all controls to the classroom link</a>",
                        unsafe_allow_html=True,
                        help="Reloads the link this page was opened with: every value the "
                             "lecturer set (an uploaded CSV must be uploaded again).")
        else:
            st.markdown(f'<a href="{html.escape(reset_url(state))}" target="_self">'
                        "⟲ Reset all controls to their defaults</a>", unsafe_allow_html=True,
                        help="Reloads this page with the defaults (an uploaded CSV must be "
                             "uploaded again).")

