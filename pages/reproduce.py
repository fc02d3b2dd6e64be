"""Reproduce the papers: every published figure and table, next to ours, with a verdict."""

import textwrap
from dataclasses import replace

import pandas as pd
import streamlit as st

from experiments import EXPERIMENTS, VERDICT_RULES, VERDICTS, summary_frame
import pages.common  # noqa: F401  (first, for its legacy-mode guard)
from pages.common.hall_follow import hall_follow
from pages.common.cached import reproduce as cached
from pages.common.charts import plotly_chart
from pages.common.explain import explain_box
from pages.common.schemas import REPRODUCE_SIZES, reproduce_schema
from pages.common.share import opened, page_footer
from pages.common.text import literal, markdown_table
from pages.common.phone import is_narrow, phone_grid
from pages.common.widgets import draw, show_notes, sync
from views import explain

st.title("Reproduce the papers")
st.caption("Hussain & Shawe-Taylor (2008), Figures 1 and 2; Vincent & Bengio (2002), Figures "
           "5-7, Table 3 (all four UCI rows, on the original data sets shipped with the app) and "
           "Table 1; "
           "Marukatat (2016). Each section rebuilds one figure or table with mpcore, puts the "
           "published number beside ours, and says where they differ. Where a paper leaves a "
           "setting out (kernel width, split, scaling) we choose one, say so, and let you change "
           "it under *Settings*.")
st.caption("Not reproduced on the paper's data, because the data cannot be had offline: Vincent "
           "& Bengio's Table 1 (USPS; scikit-learn's 8 × 8 digits stand in for it) and Table 2 "
           "(mushrooms through Delve; the only packaged copy lacks the 2480 rows with a missing "
           "value, so it is not the paper's 8124-row set). Where the shipped tables come from: "
           "datasets/data/PROVENANCE.md.")

#: Verdict -> (badge text, colour); words as well as colours, for colour-blind readers.
BADGE = {"reproduced": ("✔ reproduced", "green"), "close": ("≈ close", "orange"),
         "differs": ("✘ differs", "red")}
SIZES = REPRODUCE_SIZES
#: Session key of the summary table's expander (drawn on opening).
SUMMARY_OPEN = "reproduce.summary.open"
#: The checks tables' columns: text, aligned left (a number of the papers comes with its unit).
TEXT_COLUMNS = ("verdict", "claim", "published", "ours")
SCHEMA = reproduce_schema()


def _label(verdict):
    return BADGE[verdict][0]


state = sync(SCHEMA)
hall_follow("reproduce")
with st.sidebar:
    draw(state)
show_notes(SCHEMA)
size = state["reproduce.size"]
quick = size != "full"
if not quick and not st.session_state.get("reproduce.full_ok"):
    # minutes of server time: never started by a link alone, only by a person's click
    st.info("The full run recomputes every experiment at the papers' sizes: several minutes "
            "of the server's time, shared by everyone on it. A link cannot start it; press the "
            "button to run it (results stay cached for an hour).", icon=":material/schedule:")
    if st.button("Run the full reproduction", key="reproduce.full_go", type="primary"):
        st.session_state["reproduce.full_ok"] = True
        st.rerun()
    st.stop()
summary_box = st.container()
overall = summary_box.empty()
rules = opened("Verdict rules, and how to rebuild everything without a browser",
               "reproduce.rules.open")
if rules is not None:
    rules.markdown(VERDICT_RULES)
    rules.code(f"python -m experiments --out results{' --quick' if quick else ''}",
               language="bash")
    rules.caption("Writes every figure as a standalone HTML file, every table as CSV, and "
                  "summary.md / summary.csv with the table above, with a progress bar in the "
                  "terminal. For the same settings its numbers are the ones this page shows.")

EXPERIMENT_LIST = list(EXPERIMENTS.values())
results, chosen, failed = {}, [], {}
for i, exp in enumerate(EXPERIMENT_LIST, start=1):
    values = {name: state[f"reproduce.{exp.key}.{name}"] for name, _, _ in exp.controls}
    settings = replace(exp.default_settings(quick), **values)
    chosen.append((exp.key, settings))
    overall.progress((i - 1) / len(EXPERIMENTS),
                     text=f"Experiment {i} of {len(EXPERIMENTS)}: {exp.title}")
    try:
        results[exp.key] = cached.reproduce_result(exp.key, settings)
    except ValueError as exc:
        failed[exp.key] = exc

# Every experiment is computed (the summary needs them all, and they are cached); one is
# drawn at a time, since twelve sections of figures take a browser many seconds to draw.
SHOW_FIELD = SCHEMA["reproduce.show"]
SHOW_LABELS = SHOW_FIELD.labels


def _show_label(key):
    if key in results:
        return f"{SHOW_LABELS[key]} ({_label(results[key].verdict)})"
    return SHOW_LABELS[key] + (" (settings refused)" if key in failed else "")


show = state["reproduce.show"]
if "reproduce.show" in state.hidden:
    st.caption(f"{SHOW_FIELD.label}: {_show_label(show)}")
else:
    st.selectbox(SHOW_FIELD.label, SHOW_FIELD.options, format_func=_show_label,
                 key="reproduce.show", help=SHOW_FIELD.help)
for i, exp in enumerate(EXPERIMENT_LIST, start=1):
    if show not in ("all", exp.key):
        continue
    st.header(f"{i}. {exp.title}", anchor=exp.key, divider="gray")
    st.caption(exp.source)
    body = st.container()
    with st.expander("Settings: what we chose, and controls to change it"):
        cols = st.columns(max(len(exp.controls), 1))
        for col, (name, label, options) in zip(cols, exp.controls):
            key = f"reproduce.{exp.key}.{name}"
            with col:
                if key in state.hidden:
                    st.caption(f"{label}: {state[key]}")
                else:
                    st.select_slider(label, options=options, key=key)
        st.caption("Settings: " + literal(repr(dict(chosen)[exp.key])))
    if exp.key in failed:
        body.error(literal(failed[exp.key]))
        continue
    res = results[exp.key]
    with body:
        text, colour = BADGE[res.verdict]
        st.badge(text, color=colour)
        plotly_chart(phone_grid(res.figure), key=f"reproduce.fig.{exp.key}",
                     config={"displaylogo": False})
        explain_box(explain.generic_lines(res.figure, checks=res.checks))
        for j, (title, extra) in enumerate(res.extra_figures.items()):
            st.markdown(f"**{literal(title)}**")
            plotly_chart(phone_grid(extra), key=f"reproduce.fig.{exp.key}.{j}",
                         config={"displaylogo": False})
            explain_box(explain.generic_lines(extra))
        st.markdown("**Published vs ours**")
        checks = pd.DataFrame([dict(verdict=_label(c.verdict), claim=c.claim,
                                    published=c.published, ours=c.ours) for c in res.checks])
        # a Markdown table: every claim shows in full, and no table code to load (st.table's
        # is 0.75 MB of JavaScript); a phone gets the verdicts in the list below it only
        shown = checks.set_index("claim")
        st.markdown(markdown_table(shown.drop(columns="verdict") if is_narrow() else shown,
                                   left=TEXT_COLUMNS))
        st.markdown("\n".join(f"- **{c.claim}** ({_label(c.verdict)}): {c.detail}"
                              for c in res.checks))
        st.info(res.notes, icon=":material/tune:")
        # drawn on opening: its data grid is JavaScript the page's first draw would load
        numbers = opened(f"Numbers behind the figure ({res.seconds:.1f} s to compute)",
                         f"reproduce.numbers.{exp.key}.open")
        if numbers is None:
            continue
        with numbers:
            if res.table is not None:
                st.dataframe(res.table, hide_index=True, width="stretch", height=260)
                st.download_button("This table as CSV", res.table.to_csv(index=False).encode(),
                                   file_name=f"{exp.key}.csv", mime="text/csv",
                                   key=f"reproduce.csv.{exp.key}")
            for name, table in res.extra_tables.items():
                st.markdown(f"**{name.replace('_', ' ')}**")
                st.dataframe(table, hide_index=True, width="stretch")

overall.empty()
summary = summary_frame(results.values())
with summary_box:
    counts = {v: int((summary["verdict"] == v).sum()) for v in VERDICTS}
    cols = st.columns(4)
    cols[0].metric("Checks", len(summary))
    for col, v in zip(cols[1:], VERDICTS):
        col.metric(_label(v), counts[v])
    every = opened(f"Every check of every experiment ({len(summary)}): published vs ours",
                   SUMMARY_OPEN)
    if every is not None:  # a static table, every claim in full: long, so on demand
        shown = summary.assign(verdict=summary["verdict"].map(_label))
        every.table(shown[["figure", "verdict", "claim", "published", "ours"]].set_index("figure"))
    st.caption(("Quick run (as `--quick`): reduced sizes, so these counts are not the full "
                "run's (the README quotes the full run's); switch to full in the sidebar for the "
                "command's defaults. " if quick else "Full run (the counts the README quotes). ")
               + "Choose an experiment below for its figure, its settings and its numbers.")


def _settings_code(settings):
    """Python for the settings: the run-size defaults plus what the controls changed."""
    base = type(settings).quick() if quick else type(settings)()
    name = f"{type(settings).__name__}{'.quick()' if quick else '()'}"
    changed = {f: getattr(settings, f) for f in settings.__dataclass_fields__
               if getattr(settings, f) != getattr(base, f)}
    if not changed:
        return name
    return f"replace({name}, {', '.join(f'{k}={v!r}' for k, v in changed.items())})"


classes = sorted({type(s).__name__ for _, s in chosen})
snippet = ("from dataclasses import replace\n"
           "from experiments import run_experiment, summary_frame\n"
           "from experiments import (\n"
           + textwrap.fill(", ".join(classes) + ")", width=64, initial_indent="    ",
                           subsequent_indent="    ") + "\n\n"
           "# every figure and table as files, without a browser:\n"
           f"#   python -m experiments --out results{' --quick' if quick else ''}\n"
           "results = [\n"
           + "".join(f"    run_experiment({k!r}, {_settings_code(s)}),\n" for k, s in chosen)
           + "]\ncolumns = ['figure', 'claim', 'published', 'ours', 'verdict']\n"
           "print(summary_frame(results)[columns])\n"
           "# one experiment: .figure (plotly), .table (pandas), .checks, .verdict_text\n"
           "results[0].figure.show()")
page_footer(snippet=snippet, table=summary, name="reproduce_summary", state=state)
