"""Sharing: the classroom-link builder, "show the code" and downloads.

Every page ends with :func:`page_footer`, which offers the Python snippet that
reproduces the view in a notebook, the run's numbers as CSV and JSON, and the
classroom-link builder (tick the controls students may see; the link hides
the others, as TensorFlow Playground's per-control hide flags do).
"""

from __future__ import annotations

import html
from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from .assets import asset
from .saved_run import load_saved_run, run_json  # noqa: F401  (public names kept here)
from .state import State
from .widgets import CSV, DataChoice, KernelChoice, reset_url


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
        url = page_url(link)
        st.code(url, language=None, wrap_lines=True)
        st.caption("Copy this link (the copy button is at the right of the box), or let "
                   "students scan the code below from the projector.")
        if url.startswith("http"):
            from .cached.link import qr_svg

            st.image(qr_svg(url), width=360, caption="QR code of this link")


def page_url(state: State) -> str:
    """The address of this page showing ``state`` (complete: no value left to a default)."""
    base = st.context.url.split("?")[0] if st.context.url else ""
    return f"{base}?{query_string(state)}"


def query_string(state: State) -> str:
    """``state`` as the query string of its link (no leading "?")."""
    return urlencode(state.query(), safe=",:;")




def preset_state(state: State, values: dict) -> State:
    """``state`` with a preset applied (validated; the data set's dependants reset)."""
    return state.replace(**values)


def preset_links(state: State, presets: dict):
    """Sidebar links that reload the page with each preset's complete state in the URL.

    A link, not a button: the URL (and so a copied link) then always shows what
    is on screen, every value the preset set included.
    """
    # the style sheet a block of its own: the links stay one paragraph, as without it
    st.sidebar.markdown(f"<style>\n{asset('presets.css')}</style>\n\n" + "".join(
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
        st.markdown(f'<a href="{html.escape(reset_url(state))}" target="_self">'
                    "⟲ Reset all controls to their defaults</a>", unsafe_allow_html=True,
                    help="Reloads this page with the defaults (classroom hiding stays; "
                         "an uploaded CSV must be uploaded again).")
