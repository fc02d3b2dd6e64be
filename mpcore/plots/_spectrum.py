r"""Figures for approximate against exact eigenvalues of a kernel matrix.

* :func:`scree_figure`: the leading eigenvalues of K on a log scale, exact
  next to the Nystroem estimates (Hussain & Shawe-Taylor, Eq. 5) and the
  sketched empirical-kernel-map estimates (Marukatat, Algorithm 1).
* :func:`error_curves_figure`: the largest relative error over the top n
  eigenvalues against the subset size k (Nystroem) and the sketch size q
  (EKM), with Marukatat's Eq. (3) bound drawn beside the observed error, both
  on the eigenvalue scale and as Eq. (3) states it, on the squared scale.
* :func:`angles_figure`: the largest principal angle between the exact top-n
  eigenvectors and each approximation's, in degrees.

Series names are module constants so that pages and tests refer to them.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ._common import INK, OKABE_ITO, base_layout, styled_once, subplot_axes

EXACT = "exact (dense eigh)"
NYSTROM_SKPCA = "Nyström, sparse-KPCA indices"
NYSTROM_RANDOM = "Nyström, random indices"
NYSTROM_CHOLESKY = "Nyström, Cholesky pivots"
NYSTROM_RPCHOLESKY = "Nyström, randomly pivoted Cholesky"
EKM_GAUSSIAN = "EKM, Gaussian sketch"
EKM_COUNTSKETCH = "EKM, count sketch"

#: Nystroem subset rule (``mpcore.spectrum.nystrom_indices``) -> series name ("random" is the
#: uniform rule: "uniform" is its other name, not a second series).
NYSTROM_SERIES = {"skpca": NYSTROM_SKPCA, "random": NYSTROM_RANDOM, "cholesky": NYSTROM_CHOLESKY,
                  "rpcholesky": NYSTROM_RPCHOLESKY}
#: EKM sketch (``mpcore.spectrum.ekm_eigenvalues``) -> series name.
EKM_SERIES = {"gaussian": EKM_GAUSSIAN, "countsketch": EKM_COUNTSKETCH}

#: Colour, dash and marker of every series (Okabe-Ito, colour-blind safe).
STYLE = {
    EXACT: (OKABE_ITO["black"], "solid", "circle"),
    NYSTROM_SKPCA: (OKABE_ITO["blue"], "solid", "diamond"),
    NYSTROM_RANDOM: (OKABE_ITO["sky"], "dash", "square"),
    NYSTROM_CHOLESKY: (OKABE_ITO["green"], "dot", "triangle-up"),
    NYSTROM_RPCHOLESKY: (OKABE_ITO["purple"], "dashdot", "triangle-down"),
    EKM_GAUSSIAN: (OKABE_ITO["vermillion"], "solid", "x"),
    EKM_COUNTSKETCH: (OKABE_ITO["orange"], "dash", "cross"),
}

#: Errors below this are drawn at it (a log axis cannot show 0).
ERROR_FLOOR = 1e-16
#: Eigenvalues at or below this fraction of the largest are not drawn on the log scree.
SCREE_FLOOR = 1e-12

BOUND_SUFFIX = " · Eq. 3 bound"
OBSERVED_SUFFIX = " · observed"
SPECTRAL_SUFFIX = " · ‖E‖₂"
ENTRYWISE_SUFFIX = " · m·max|εᵢⱼ|"
TRIVIAL = "100 % (estimate 0)"


def _star_path(outer: float = 10.0, inner: float = 4.2) -> str:
    """A five-pointed star, point up, as an SVG path in pixels about its centre."""
    angles = np.pi / 2 + np.arange(10) * np.pi / 5
    radii = np.where(np.arange(10) % 2, inner, outer)
    points = [f"{r * np.cos(a):.2f},{-r * np.sin(a):.2f}" for r, a in zip(radii, angles)]
    return "M" + "L".join(points) + "Z"


#: The error figure's stars (the current run at k and q) are shapes of this path, in pixels
#: about their place on the curves: a shape moved by a notch of k or q is redrawn alone,
#: where a moved marker trace made plotly.js recompute every curve of the figure.
STAR_PATH = _star_path()


# INK (mpcore.plots._common): dark text for titles, ticks and annotations (the default
# grey fades on a projector).
TICK_SIZE = 15


def projector_fonts(fig, *, title_shift=10):
    """Larger, darker tick labels, axis titles and subplot titles; titles lifted off the frame."""
    fig.update_xaxes(tickfont=dict(size=TICK_SIZE, color=INK), title_font=dict(size=17, color=INK))
    fig.update_yaxes(tickfont=dict(size=TICK_SIZE, color=INK), title_font=dict(size=17, color=INK))
    fig.update_annotations(font_color=INK, yshift=title_shift)
    fig.update_layout(legend_font_color=INK)
    return fig


#: Most decade labels on a log axis (more are thinned to every 2nd, 3rd, ... decade).
MAX_DECADE_TICKS = 7


def decade_dtick(*arrays):
    """``dtick`` for a log axis holding ``arrays``: whole decades, at most MAX_DECADE_TICKS labels."""
    v = np.concatenate([np.ravel(np.asarray(a, dtype=float)) for a in arrays] or [np.ones(1)])
    v = v[np.isfinite(v) & (v > 0)]
    if v.size == 0:
        return 1
    span = np.log10(v.max()) - np.log10(v.min())
    return int(max(1, np.ceil(span / (MAX_DECADE_TICKS - 1))))


def _style(name):
    return STYLE.get(name, (OKABE_ITO["purple"], "solid", "circle"))


def positive_or_nan(values, floor):
    """Values with everything at or below ``floor`` replaced by NaN (gaps on a log axis)."""
    v = np.asarray(values, dtype=float).copy()
    v[~(v > floor)] = np.nan
    return v


#: Most markers drawn on one scree series (plotly's ``marker.maxdisplayed``): a series of
#: more points keeps its whole line, and a marker on every few points, staggered from one
#: series to the next. A marker on each of 110 points (the default view) hid the dashes
#: and dots that tell the series apart, and the 660 markers were most of what the browser
#: redrew on a slider notch (benchmarks/results_pages.md).
SCREE_MARKERS = 20


def _scatter(x, y, name, *, colour, symbol, size, dash=None, width, hover, markers=0,
             **kw) -> dict:
    """A line-and-marker trace as the plain dict plotly validates it to (no validation:
    the figures below are rebuilt on every change of the eigenvalue page); ``markers``: the
    most markers drawn (0: one on every point)."""
    line = dict(color=colour, width=width) if dash is None else dict(color=colour, width=width,
                                                                     dash=dash)
    marker = dict(size=size, color=colour) if symbol is None else dict(symbol=symbol, size=size,
                                                                       color=colour)
    if markers:
        marker["maxdisplayed"] = int(markers)
    return dict(type="scatter", x=x, y=y, mode="lines+markers", name=name, line=line,
                marker=marker, hovertemplate=hover, **kw)


#: Where the styled layouts below draw what the data decide before it is known (a vertical
#: line, the scree plot's shaded band and range): the layout is styled once per shape, and
#: the current k, q, n and length are written into a copy (:func:`_place_lines`,
#: :func:`_fill_scree`), so moving k, q or n does not style the figure again.
_SOMEWHERE = 0


def _place_lines(layout: dict, lines: list, *, shapes_from: int, labelled: bool) -> None:
    """Write the positions ``lines`` (label, x) into the vertical lines that
    :func:`_scree_layout` or :func:`_errors_layout` drew at ``_SOMEWHERE``, in order: the
    shapes from index ``shapes_from`` on, and (``labelled``) their "k = ..." labels, the
    first annotations."""
    lo, hi = (layout.get("xaxis") or {}).get("range") or (0.0, 0.0)
    for n, (label, x) in enumerate(lines):
        layout["shapes"][shapes_from + n].update(x0=x, x1=x)
        if labelled:
            note = layout["annotations"][n]
            note.update(x=x, text=f"{label} = {x}")
            # a label right of its line, the line near the axis's right end (k = n on a
            # small data set): left of it, as it ran past the figure's edge on a phone
            if note.get("xanchor") == "left" and hi > lo and x > lo + 0.85 * (hi - lo):
                note["xanchor"] = "right"


def _scree_axis_title(n_compared: int, narrow: bool) -> str:
    return (f"index i (largest first);{'<br>' if narrow else ' '}shaded: the top {n_compared} "
            "compared")


@styled_once
def _scree_layout(n_series: int, labels: tuple, height: int, narrow: bool) -> dict:
    """The scree plot's layout without the data's decade spacing, the places of the k and q
    lines, the length shown and the top n shaded (:func:`styled_once`; :func:`_fill_scree`):
    built through plotly once per shape, so another data set, k, q or n only fills in
    numbers (styling a figure through plotly is the slow part). ``labels``: the lines drawn, "k" and / or "q"."""
    fig = go.Figure()
    fig.add_vrect(x0=0.5, x1=_SOMEWHERE + 0.5, fillcolor="#999", opacity=0.12, line_width=0)
    for label in labels:
        fig.add_vline(x=_SOMEWHERE, line=dict(color="#555", dash="dot", width=2),
                      annotation_text=f"{label} = {_SOMEWHERE}", annotation_font_size=15,
                      # q sits at the right edge when q = m: its label goes left of the line
                      annotation_position="top right" if label == "k" else "bottom left")
    fig.update_yaxes(type="log", title="eigenvalue λᵢ (log scale)", exponentformat="power")
    fig.update_xaxes(title=_scree_axis_title(_SOMEWHERE, narrow), range=[0.5, _SOMEWHERE + 0.5])
    base_layout(fig, height=height)
    # the legend on top (base_layout), one entry a row (two a row cut the longest name at
    # 1280 px). Wider than a phone, the top margin holds every row and the side and bottom
    # margins the tick labels and axis titles, so plotly draws the figure once (a margin too
    # small for what it holds is grown, and the figure drawn again, on every change). On a
    # phone plotly still sizes the top margin itself.
    if narrow:
        fig.update_layout(legend=dict(font=dict(size=15)), margin=dict(t=70))
    else:
        fig.update_layout(legend=dict(font=dict(size=15), entrywidth=1,
                                      entrywidthmode="fraction"),
                          margin=dict(t=40 + 22 * n_series, l=90, b=70))
    return projector_fonts(fig, title_shift=0).layout.to_plotly_json()


def _fill_scree(layout: dict, size: int, n_compared: int, narrow: bool) -> None:
    """Write the length shown and the top n shaded into a copy of :func:`_scree_layout`:
    the x range, the shaded band (its first shape) and the axis title that names n."""
    layout["xaxis"]["range"] = [0.5, size + 0.5]
    layout["xaxis"]["title"]["text"] = _scree_axis_title(n_compared, narrow)
    layout["shapes"][0]["x1"] = n_compared + 0.5


def scree_figure_dict(exact, approx, *, n_compared, k=None, q=None, height=560,
                      narrow=False) -> dict:
    """:func:`scree_figure` as a plain figure dict (for a page that draws it unvalidated)."""
    exact = np.asarray(exact, dtype=float)
    if exact.ndim != 1 or exact.size == 0:
        raise ValueError("exact must be a non-empty 1-D array of eigenvalues.")
    floor = SCREE_FLOOR * max(float(np.max(np.abs(exact))), np.finfo(float).tiny)
    i = np.arange(1, exact.size + 1)
    data = []
    for name, values in approx.items():
        colour, dash, symbol = _style(name)
        data.append(_scatter(i, positive_or_nan(values, floor), name, colour=colour,
                             symbol=symbol, size=7, dash=dash, width=2.5, connectgaps=False,
                             markers=SCREE_MARKERS,
                             hover=f"{name}<br>i = %{{x}}<br>λ̂ = %{{y:.4g}}<extra></extra>"))
    data.append(_scatter(i, positive_or_nan(exact, floor), EXACT, colour=_style(EXACT)[0],
                         symbol=None, size=6, width=4, markers=SCREE_MARKERS,
                         hover="exact<br>i = %{x}<br>λ = %{y:.4g}<extra></extra>"))
    lines = [(label, val) for val, label in ((k, "k"), (q, "q"))
             if val is not None and val <= exact.size]
    layout = _scree_layout(len(data), tuple(label for label, _ in lines), int(height),
                           bool(narrow))
    _fill_scree(layout, exact.size, int(n_compared), bool(narrow))
    _place_lines(layout, lines, shapes_from=1, labelled=True)
    layout["yaxis"]["dtick"] = decade_dtick(*[t["y"] for t in data])
    return dict(data=data, layout=layout)


def scree_figure(exact, approx, *, n_compared, k=None, q=None, height=560, narrow=False):
    r"""Leading eigenvalues of K on a log scale: exact against every approximation.

    Parameters
    ----------
    exact : array (L,)
        The L largest exact eigenvalues, descending.
    approx : dict name -> array (L,)
        Estimates of the same L eigenvalues (zeros beyond an approximation's
        rank are left out: a log axis has no 0).
    n_compared : int
        The top n compared in the error panels, shaded.
    k, q : int, optional
        Subset and sketch sizes, drawn as vertical lines (a rank-k Nystroem
        approximation has exactly k non-zero eigenvalues at most).
    narrow : bool
        A phone's width: the axis title on two lines.

    See Also
    --------
    scree_figure_dict : the same figure as a plain dict.
    """
    return go.Figure(scree_figure_dict(exact, approx, n_compared=n_compared, k=k, q=q,
                                       height=height, narrow=narrow))


#: The Eq. 3 panel's title, in short lines: one long line is cut at the figure's right edge
#: at 1280 px.
EQ3_TITLE = ("Eq. 3 as stated (squared scale)<br><span style='font-size:13px'>"
             "solid |λᵢ² − λ̃ᵢ| · dashed ‖E‖₂</span><br><span style='font-size:13px'>"
             "dotted m·max|εᵢⱼ|</span>")


def _errors_titles(n_compared) -> list[str]:
    """The first two panels' titles (the Eq. 3 panel's does not name n)."""
    n_txt = f"top {n_compared}" if n_compared else "top n"
    return [f"Nyström: max rel. error, {n_txt}", f"EKM: max rel. error, {n_txt}"]


#: On a phone, the room (px) under the error figure's last plot area for its x axis (tick
#: labels and title), above the legend.
_PHONE_AXIS_PX = 62


@styled_once
def _errors_layout(panels: tuple, labels: tuple, height: int, narrow: bool) -> dict:
    """The error figure's layout without the data's decade spacing, the places of the k
    and q lines and the n in its panels' titles (:func:`styled_once`): n is written into a
    copy (its first two annotations), so a new n does not style the figure again.

    ``panels``: for each panel (two, or three with Eq. 3), whether it has a curve. As
    plotly does for a figure built trace by trace, an empty panel gets no reference line.
    ``labels``: the lines drawn, "k" (first panel) and / or "q" (second).
    """
    n_cols = len(panels)
    titles = _errors_titles(None)
    if n_cols == 3:
        titles.append(EQ3_TITLE)
    if narrow:  # a phone: one panel per row, as wide as the screen
        fig = make_subplots(rows=n_cols, cols=1, subplot_titles=titles,
                            vertical_spacing=0.45 / n_cols)
    else:  # room between panels for a y-axis title beside its left neighbour's plot area
        fig = make_subplots(rows=1, cols=n_cols, subplot_titles=titles,
                            horizontal_spacing=0.12 if n_cols == 3 else 0.09)

    def at(col):
        return dict(row=col, col=1) if narrow else dict(row=1, col=col)

    for col, label in ((1, "k"), (2, "q")):
        if label in labels:
            fig.add_vline(x=_SOMEWHERE, line=dict(color="#555", dash="dot", width=2),
                          exclude_empty_subplots=False, **at(col))
    for col in (1, 2):
        if panels[col - 1]:
            fig.add_hline(y=1.0, line=dict(color="#888", dash="dashdot", width=1.5),
                          exclude_empty_subplots=False, **at(col))
    fig.update_xaxes(title="k (columns of K)", **at(1))
    fig.update_xaxes(title="q (sketch size)", **at(2))
    fig.update_yaxes(title="max relative error", **at(1))
    if narrow:
        fig.update_yaxes(title="max relative error", **at(2))
    if n_cols == 3:
        fig.update_xaxes(title="q (sketch size)", **at(3))
        fig.update_yaxes(title="|λᵢ² − λ̃ᵢ| and its bounds", **at(3))
    # whole decades only: minor "2, 5" labels are unreadable from the back of a room
    fig.update_xaxes(type="log", dtick=1)
    fig.update_yaxes(type="log", exponentformat="power")
    if narrow:
        h = max(height, 330 * n_cols + 260)
        base_layout(fig, height=h, legend_top=False)
        # one legend entry per line under the last panel (a phone is too narrow for two),
        # a fixed distance under its plot area, below its x axis: placed at a fixed fraction
        # of the plot areas' height, two panels' legend (no Eq. 3 panel: m over its limit)
        # came up onto the axis title
        top, bottom = 110, 210
        fig.update_layout(legend=dict(orientation="h", x=0, font=dict(size=14),
                                      y=-_PHONE_AXIS_PX / (h - top - bottom), yanchor="top",
                                      entrywidth=1.0, entrywidthmode="fraction"),
                          margin=dict(t=top, b=bottom, l=60, r=10))
    else:
        base_layout(fig, height=height, legend_top=False)
        # two entries per line: three did not fit a 1280 px projector's column
        fig.update_layout(legend=dict(orientation="h", x=0, font=dict(size=15), y=-0.2,
                                      yanchor="top", entrywidth=0.5, entrywidthmode="fraction"),
                          margin=dict(t=90, b=190, l=90))  # l: the y tick labels
    fig.update_annotations(font_size=17)
    return projector_fonts(fig).layout.to_plotly_json()


def error_curves_figure_dict(k_grid, nystrom_errors, q_grid, ekm_errors, *, ekm_bounds=None,
                             eq3=None, k=None, q=None, current=None, n_compared=None,
                             height=560, narrow=False) -> dict:
    """:func:`error_curves_figure` as a plain figure dict (for a page that draws it
    unvalidated)."""
    k_grid = np.asarray(k_grid)
    q_grid = np.asarray(q_grid)
    current = current or {}
    data = []

    def curve(x, y, name, col, *, dash=None, width=3.0, legend=True, group=None, hover=None):
        colour, style_dash, symbol = _style(group or name)
        y = np.maximum(np.asarray(y, dtype=float), ERROR_FLOOR)
        data.append(_scatter(x, y, name, colour=colour, symbol=symbol, size=8,
                             dash=dash or style_dash, width=width, showlegend=legend,
                             hover=f"{hover or name}<br>%{{x}}: %{{y:.3g}}<extra></extra>",
                             **subplot_axes(col)))

    for name, err in nystrom_errors.items():
        curve(k_grid, err, name, 1)
    for name, err in ekm_errors.items():
        curve(q_grid, err, name + OBSERVED_SUFFIX, 2, dash="solid", group=name)
        if ekm_bounds and name in ekm_bounds:
            curve(q_grid, ekm_bounds[name], name + BOUND_SUFFIX, 2, dash="dash", width=2.5,
                  group=name)
    for name, (obs, spectral, entrywise) in (eq3 or {}).items():
        curve(q_grid, obs, name + " · |λᵢ² − λ̃ᵢ| observed", 3, dash="solid", group=name,
              legend=False)
        curve(q_grid, spectral, name + SPECTRAL_SUFFIX, 3, dash="dash", width=2.5, group=name,
              legend=False)
        curve(q_grid, entrywise, name + ENTRYWISE_SUFFIX, 3, dash="dot", width=2.5, group=name,
              legend=False)
    stars = []
    for col, x, names in ((1, k, nystrom_errors), (2, q, ekm_errors)):
        if x is None:
            continue
        axis = subplot_axes(col)
        for name in names:
            if name in current:
                stars.append(dict(
                    type="path", path=STAR_PATH, xref=axis["xaxis"], yref=axis["yaxis"],
                    xsizemode="pixel", ysizemode="pixel", xanchor=x,
                    yanchor=max(float(current[name]), ERROR_FLOOR), fillcolor=_style(name)[0],
                    line=dict(width=1.5, color="black"), layer="above",
                    name=f"{name} (current)"))
    panels = (bool(nystrom_errors), bool(ekm_errors)) + ((True,) if eq3 else ())
    lines = [(label, x) for label, x, shown in (("k", k, panels[0]), ("q", q, panels[1]))
             if x is not None and shown]
    layout = _errors_layout(panels, tuple(label for label, _ in lines), int(height),
                            bool(narrow))
    for note, title in zip(layout["annotations"], _errors_titles(n_compared)):
        note["text"] = title
    _place_lines(layout, lines, shapes_from=0, labelled=False)
    if stars:
        layout["shapes"] = [*layout.get("shapes", ()), *stars]
    for col in range(1, len(panels) + 1):
        axis = subplot_axes(col)
        ys = [t["y"] for t in data if t["xaxis"] == axis["xaxis"]]
        ys += [[s["yanchor"]] for s in stars if s["xref"] == axis["xaxis"]]
        layout["yaxis" + axis["yaxis"][1:]]["dtick"] = decade_dtick(*ys)
    return dict(data=data, layout=layout)


def error_curves_figure(k_grid, nystrom_errors, q_grid, ekm_errors, *, ekm_bounds=None,
                        eq3=None, k=None, q=None, current=None, n_compared=None, height=560,
                        narrow=False):
    r"""Largest relative error over the top n eigenvalues, against k and against q.

    Panel 1: Nystroem with k columns, one curve per subset rule. Panel 2: EKM
    with a sketch to q dimensions, observed error (solid) and Marukatat's
    Eq. (3) carried over to the eigenvalue scale (dashed):
    :math:`|\lambda_i-\hat\lambda_i| \le \min(\sqrt{\|E\|_2}, \|E\|_2/(\lambda_i+\hat\lambda_i))`.
    Panel 3 (when ``eq3`` is given): Eq. (3) as written, on the squared scale,
    :math:`\max_i|\lambda_i^2-\tilde\lambda_i| \le \|E\|_2 \le m\max_{ij}|\varepsilon_{ij}|`.

    Parameters
    ----------
    k_grid, q_grid : arrays of int
    nystrom_errors, ekm_errors : dict name -> array
        One value per grid point.
    ekm_bounds : dict name -> array, optional
        The Eq. (3) bound on the same relative scale, per q.
    eq3 : dict name -> (observed, spectral, entrywise), optional
        Arrays per q on the squared scale.
    k, q : int, optional
        The current sizes (vertical lines).
    current : dict name -> float, optional
        The current run's error, drawn as a large marker at k or q.

    See Also
    --------
    error_curves_figure_dict : the same figure as a plain dict.
    """
    return go.Figure(error_curves_figure_dict(
        k_grid, nystrom_errors, q_grid, ekm_errors, ekm_bounds=ekm_bounds, eq3=eq3, k=k, q=q,
        current=current, n_compared=n_compared, height=height, narrow=narrow))


@styled_once
def _angles_layout(names: tuple, height: int, narrow: bool) -> dict:
    """The angle bars' layout (:func:`styled_once`): it depends on the method names only."""
    fig = go.Figure()
    # a short title: beside the method names the plot area is about 200 px wide at 1280 px
    # (the longer "largest principal angle (degrees; 90° = orthogonal)" ran off the figure);
    # the page's caption says what 0 and 90 degrees mean
    fig.update_xaxes(range=[0, 105], title="largest angle (degrees)",
                     tickvals=[0, 30, 60, 90] if narrow else [0, 15, 30, 45, 60, 75, 90])
    base_layout(fig, height=height, legend_top=False)
    fig.update_yaxes(autorange="reversed", automargin=True, tickfont=dict(size=16, color="#222"),
                     showline=False)
    # wider than a phone, the left margin holds the method names (about 8 px a character at
    # 16 px), so plotly draws the figure once; on a phone it grows a small one to just what
    # they need (an estimate that overshoots would push the axis title off the figure)
    left = 20 if narrow else 12 + 8 * max(map(len, names), default=0)
    if narrow:  # a method's name on two lines: the longest whole name left the axis title
        # too little room on a phone's plot area
        fig.update_yaxes(tickvals=list(names),
                         ticktext=[n.replace(", ", ",<br>", 1) for n in names])
    fig.update_layout(showlegend=False, margin=dict(l=left, r=30, t=20, b=70))
    projector_fonts(fig)
    fig.update_yaxes(tickfont=dict(size=16))
    fig.update_xaxes(mirror=False)
    return fig.layout.to_plotly_json()


def angles_figure_dict(angles, *, n_eig, height=440, narrow=False) -> dict:
    """:func:`angles_figure` as a plain figure dict (for a page that draws it unvalidated)."""
    names = list(angles)
    deg = np.array([angles[n][0] for n in names], dtype=float)
    used = [int(angles[n][1]) for n in names]
    text = ["n/a" if not np.isfinite(d) else f"{d:.1f}°" + (f" (top {r})" if r < n_eig else "")
            for d, r in zip(deg, used)]
    bar = dict(
        type="bar", y=names, x=np.where(np.isfinite(deg), deg, 0.0), orientation="h", text=text,
        textposition="outside", cliponaxis=False, textfont=dict(size=17, color="#222"),
        marker=dict(color=[_style(n)[0] for n in names], line=dict(color="#333", width=1)),
        customdata=used,
        hovertemplate="%{y}<br>largest angle %{x:.2f}° over the top %{customdata}<extra></extra>")
    return dict(data=[bar], layout=_angles_layout(tuple(names), int(height), bool(narrow)))


def angles_figure(angles, *, n_eig, height=440, narrow=False):
    r"""Largest principal angle between exact and approximate top eigenvectors (degrees).

    Parameters
    ----------
    angles : dict name -> (degrees, n_compared)
        ``degrees`` may be NaN when an approximation has no eigenvector to compare.
    n_eig : int
        The n requested (a bar reading "top r" compares only r < n vectors).
    narrow : bool
        A phone's width: ticks every 30 degrees.

    See Also
    --------
    angles_figure_dict : the same figure as a plain dict.
    """
    return go.Figure(angles_figure_dict(angles, n_eig=n_eig, height=height, narrow=narrow))


def plotted_rows(scree, *, k_grid=None, nystrom_errors=None, q_grid=None, ekm_errors=None,
                 ekm_bounds=None, eq3=None, angles=None):
    """Every number the three figures draw, as rows ``{figure, series, x, y}`` (for a CSV).

    Arguments are those of :func:`scree_figure` (``scree``: name -> values,
    exact included), :func:`error_curves_figure` and :func:`angles_figure`.
    """
    rows = []

    def add(figure, series, xs, ys):
        rows.extend(dict(figure=figure, series=series, x=float(x), y=float(y))
                    for x, y in zip(xs, ys))

    for name, values in scree.items():
        add("scree: eigenvalue", name, np.arange(1, len(values) + 1), values)
    for name, err in (nystrom_errors or {}).items():
        add("max relative error vs k", name, k_grid, err)
    for name, err in (ekm_errors or {}).items():
        add("max relative error vs q", name + OBSERVED_SUFFIX, q_grid, err)
    for name, bound in (ekm_bounds or {}).items():
        add("max relative error vs q", name + BOUND_SUFFIX, q_grid, bound)
    for name, (obs, spectral, entrywise) in (eq3 or {}).items():
        add("Eq. 3, squared scale", name + " · |λᵢ² − λ̃ᵢ| observed", q_grid, obs)
        add("Eq. 3, squared scale", name + SPECTRAL_SUFFIX, q_grid, spectral)
        add("Eq. 3, squared scale", name + ENTRYWISE_SUFFIX, q_grid, entrywise)
    for name, (deg, used) in (angles or {}).items():
        add("largest principal angle (degrees)", name, [used], [deg])
    return rows
