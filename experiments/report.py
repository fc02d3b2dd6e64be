"""The report: the published-vs-ours summary (Markdown, CSV, JSON) and a page per figure."""

from __future__ import annotations

import html
import json
import platform
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pandas as pd

from ._common import plain
from .registry import EXPERIMENTS
from .verdicts import VERDICT_RULES, VERDICTS

__all__ = ["SUMMARY_COLUMNS", "summary_frame", "summary_markdown", "result_html", "write_outputs"]


#: Column names of the summary table.
SUMMARY_COLUMNS = ("experiment", "figure", "source", "claim", "published", "ours", "verdict",
                   "detail")


def summary_frame(results) -> pd.DataFrame:
    """One row per check: experiment, figure, source, claim, published, ours, verdict, detail."""
    rows = [dict(experiment=r.key, figure=EXPERIMENTS[r.key].short, source=r.source,
                 claim=c.claim, published=c.published, ours=c.ours, verdict=c.verdict,
                 detail=c.detail)
            for r in results for c in r.checks]
    return pd.DataFrame(rows, columns=list(SUMMARY_COLUMNS))


def _md(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def summary_markdown(results, *, quick=False, total_seconds=None) -> str:
    """The published-vs-ours table and the settings, as Markdown."""
    counts = {v: sum(c.verdict == v for r in results for c in r.checks) for v in VERDICTS}
    lines = [
        "# Reproducing the papers: published vs ours",
        "",
        f"Run: {'quick (reduced sizes)' if quick else 'full'}; "
        + (f"{total_seconds:.0f} s in total; " if total_seconds is not None else "")
        + f"Python {platform.python_version()}, numpy {np.__version__}. "
        + f"Produced by `python -m experiments{' --quick' if quick else ''}`.",
        "",
        f"Checks: {counts['reproduced']} reproduced, {counts['close']} close, "
        f"{counts['differs']} differ.",
        "",
        "| source | claim | published | ours | verdict |",
        "| --- | --- | --- | --- | --- |",
    ]
    for r in results:
        for c in r.checks:
            lines.append(f"| {_md(r.source)} | {_md(c.claim)} | {_md(c.published)} | "
                         f"{_md(c.ours)} | **{c.verdict}** |")
    lines += ["", "## Verdict rules", "", VERDICT_RULES, "", "## Experiments", ""]
    for r in results:
        lines += [f"### {r.title} ({r.source}): {r.verdict}", "",
                  f"Time: {r.seconds:.1f} s. Settings: `{r.settings!r}`", "", _md(r.notes), ""]
        lines += [f"- {_md(c.claim)}: **{c.verdict}**: {_md(c.detail)}" for c in r.checks]
        lines.append("")
    return "\n".join(lines)


def result_html(result, *, plotlyjs=True) -> str:
    """A standalone HTML page: title, verdict, published vs ours, the figure, settings, notes."""
    esc = html.escape
    rows = "".join(f"<tr><td>{esc(c.claim)}</td><td>{esc(c.published)}</td><td>{esc(c.ours)}</td>"
                   f"<td><b>{esc(c.verdict)}</b></td><td>{esc(c.detail)}</td></tr>"
                   for c in result.checks)
    figure = result.figure.to_html(full_html=False, include_plotlyjs=plotlyjs,
                                   config={"displaylogo": False})
    figure += "".join(f"<h2>{esc(title)}</h2>" + fig.to_html(
        full_html=False, include_plotlyjs=False, config={"displaylogo": False})
        for title, fig in result.extra_figures.items())
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{esc(result.title)}</title><style>"
        "body{font-family:system-ui,sans-serif;font-size:18px;max-width:1400px;margin:2em auto;"
        "padding:0 1em;color:#222}table{border-collapse:collapse;margin:1em 0}"
        "td,th{border:1px solid #bbb;padding:.35em .6em;text-align:left;vertical-align:top}"
        "th{background:#f0f0f0}code{font-size:15px}</style></head><body>"
        f"<h1>{esc(result.title)}</h1><p>{esc(result.source)}. Verdict: "
        f"<b>{esc(result.verdict)}</b> (rules: {esc(VERDICT_RULES.replace('**', ''))})</p>"
        "<table><tr><th>claim</th><th>published</th><th>ours</th><th>verdict</th>"
        f"<th>numbers</th></tr>{rows}</table>{figure}"
        f"<p>{esc(result.notes)}</p><p>Settings: <code>{esc(repr(result.settings))}</code>; "
        f"computed in {result.seconds:.1f} s by <code>python -m experiments</code>.</p>"
        "</body></html>\n"
    )


def write_outputs(results, out_dir, *, quick=False, total_seconds=None, plotlyjs=True):
    """Write each figure as HTML, each table as CSV, and the summaries.

    Files: ``<key>.html``, ``<key>.csv``, ``<key>_<name>.csv`` (extra tables),
    ``summary.md``, ``summary.csv`` and ``results.json`` (settings, our numbers,
    checks and times).

    Parameters
    ----------
    plotlyjs : True or "cdn"
        True embeds plotly.js in every HTML file (works offline, ~4 MB each);
        "cdn" links it instead.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for r in results:
        (out / f"{r.key}.html").write_text(result_html(r, plotlyjs=plotlyjs), encoding="utf-8")
        if r.table is not None:
            r.table.to_csv(out / f"{r.key}.csv", index=False)
        for name, t in r.extra_tables.items():
            t.to_csv(out / f"{r.key}_{name}.csv", index=False)
    summary_frame(results).to_csv(out / "summary.csv", index=False)
    (out / "summary.md").write_text(summary_markdown(results, quick=quick,
                                                     total_seconds=total_seconds),
                                    encoding="utf-8")
    payload = {r.key: dict(title=r.title, source=r.source, settings=plain(asdict(r.settings)),
                           published=r.published, ours=r.ours, verdict=r.verdict,
                           checks=[asdict(c) for c in r.checks], notes=r.notes,
                           seconds=round(r.seconds, 3)) for r in results}
    (out / "results.json").write_text(json.dumps(payload, indent=1, ensure_ascii=False),
                                      encoding="utf-8")
    return out
