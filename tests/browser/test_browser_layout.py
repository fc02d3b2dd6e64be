"""Layout at a projector, a full-HD screen and a phone: nothing truncated or overlapping.

Every page registered in app.py is opened at 1280x720 and at 390x844, and the page opened
at 1280x720 is then made 1920x1080 (the animated pages in presentation mode are opened at
both wide sizes by test_browser_present.py, with the same checks); its geometry is read in
the browser, not its pixels; the page shows no exception and raised no JavaScript error, and:

- the document has no horizontal overflow (nothing wider than the window);
- no text of the app's own content overflows its box: equations (``.katex-display``),
  metrics (label and value, which Streamlit truncates with an ellipsis), captions,
  widget labels and markdown text (``scrollWidth <= clientWidth + 1``), and every table's
  columns (Streamlit scrolls a wider table sideways: on a phone its last columns hide);
- the controls in the main block (buttons, the timeline's Play) lie inside the
  window horizontally;
- every page's name in the sidebar's navigation is whole (at 1280 and 1920: no ellipsis, even
  for a name that misses its box by less than a pixel);
- a plotly legend or colour bar covers no data point of its figure, and a colour bar
  does not reach into another panel's plot area;
- a colour bar covers no axis title, tick label, Play/Pause button or step slider, the
  buttons and the slider cover no axis title or tick label, and all of them lie inside
  their figure (what presentation mode's resized figures got wrong); a colour bar's title
  stands apart from its own tick labels (plotly set a title on the bar's right side among
  them on the sparse-KPCA page);
- on the KMP page the decision surface's legend, colour bar, Play/Pause buttons, step
  slider and the slider's current value overlap neither each other nor the plot area, a
  tick label or a title (:func:`overlapping`; also in presentation mode and the quiz);
- on a phone (390 px), the animated pages show one panel at a time, as wide as the
  screen allows: its plot area at least 70 % of the screen's width (a colour bar beside
  it would take a third); the "Reproduce the papers" page, opened on Vincent & Bengio's
  Figure 6 (four decision surfaces in a row on a wide screen), draws every plot area at
  least 40 % of the screen's width, and no two texts of a figure (its panel titles) cover
  each other.

1920x1080 is checked on the page opened at 1280x720, resized with no new page load: what
the server sends does not depend on a wide window's size outside presentation mode, so a
fresh load at 1920 draws what the resized page draws, and the resize is the harder case (a
legend placed for the narrower window must not be left over the data, equations must be
fitted again).

At 1280 px the same page is then checked for accessibility (tests/browser/a11y.py): axe-core
finds no serious or critical WCAG 2.1 A/AA violation in the app's own content, and
every plot text has AA contrast.

A screenshot of every page at every size is saved under ``screenshots/`` (git-ignored)
for a person to look at; ``SCREENSHOTS_WHOLE=1`` adds one of the whole page.
"""

from __future__ import annotations

import csv
import html
from urllib.parse import quote_plus

import numpy as np
import pytest

from a11y import check_accessibility
from browser_views import choose_option, settle
from browser_util import VIEWPORT, app_pages, wait_for_fit, wait_for_stable_layout
from layout_check import check_layout, figure_parts, open_fitted, overlapping, overlapping_texts

from mpcore.plots import plain_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAGES = {p.name: p for p in app_pages()}
SIZES = {"projector": (1280, 720), "full-hd": (1920, 1080), "phone": (390, 844)}
#: Small data on every page that has a size (the others open as they are), but sparse KPCA
#: in its default view, what a lecturer opens: its heatmap's three-digit training indices need
#: more room under the panel than the small set's.
QUERY = {"skpca": "", "kmp": "n=80", "spectrum": "dataset=moons&n=80", "kcca": "kcca.n=80",
         "bounds": "dataset=moons&n=80"}
ANIMATED = ("skpca", "kmp", "kcca")
#: On a phone, pages whose figures have several panels in a row are opened on such a figure.
PHONE_QUERY = {"reproduce": "reproduce.show=vb_fig6_fittings"}

#: At 1280x720 at least this much of the animation's first plot area shows on opening.
FIRST_SCREEN_PLOT_PX = 60
#: The top of the first plot area in the container of an animated figure (px, in the window).
_PLOT_TOP_JS = """(key) => {
  const plot = document.querySelector(`.st-key-${key} .cartesianlayer`);
  return plot ? plot.getBoundingClientRect().top : null;
}"""


def chart_key_of(name: str) -> str:
    from pages.common.schemas import KCCA, KMP, SKPCA
    from pages.common.timeline import chart_key
    return chart_key({"skpca": SKPCA, "kmp": KMP, "kcca": KCCA}[name])


def _check_at(streamlit_server, shared_context, name, size):
    query = (PHONE_QUERY if size == "phone" else QUERY).get(name, QUERY.get(name, ""))
    pg = open_fitted(shared_context, PAGES[name].url(streamlit_server.base, query), SIZES[size])
    geo = check_layout(pg, f"{name}_{size}")
    if size == "phone" and name in PHONE_QUERY:
        # the panels of a row one under the other: each plot area a good part of the screen
        assert geo["plots"] and min(geo["plots"]) >= 0.4 * geo["width"], geo["plots"]
        assert len(geo["plots"]) >= 4, geo["plots"]  # Figure 6: four panels
        for texts in geo["texts"]:
            assert not overlapping_texts(texts), overlapping_texts(texts)
    if name == "kmp":  # the decision surface: its legend, colour bar and controls apart
        assert not overlapping(figure_parts(pg)), (size, overlapping(figure_parts(pg)))
    if size == "projector" and name in ANIMATED:
        # a projector without presentation mode (the sidebar open): the animation's plot
        # area starts on the first screen, under the step controls, not below its edge
        top = pg.evaluate(_PLOT_TOP_JS, chart_key_of(name))
        assert top is not None and top <= SIZES[size][1] - FIRST_SCREEN_PLOT_PX, (name, top)
    if size == "phone" and name in ANIMATED:
        # one panel at a time (KMP's 2-D fit is a single panel), using most of the width
        panel = pg.locator('[data-testid="stButtonGroup"]', has_text="Panel")
        assert panel.count() == (name != "kmp"), "a phone shows a panel selector"
        assert geo["graphs"] and max(geo["graphs"]) >= 0.75 * geo["width"], geo["graphs"]
        # and its plot area too: no colour bar beside it
        assert geo["plots"] and max(geo["plots"]) >= 0.7 * geo["width"], geo["plots"]
    return pg


#: Pages whose figures' margins hold their tick labels, axis titles and legends at 1280 and
#: 1920 px, so that plotly draws each figure once: a margin plotly has to grow (automargin)
#: means drawing the whole figure a second time, on every change that redraws it.
DRAWN_ONCE = {"spectrum", "kcca", "kmp"}

#: Each figure's margins that plotly grew: "key l:20->221" (given -> used, in px).
_GROWN_MARGINS_JS = """() => [...document.querySelectorAll('.js-plotly-plot')].flatMap(gd => {
  const used = gd._fullLayout._size, given = gd._fullLayout.margin;
  const key = [...(gd.closest('[class*="st-key-"]') || {classList: []}).classList]
    .find(c => c.startsWith('st-key-')) || '?';
  return ['l', 'r', 't', 'b'].filter(k => Math.round(used[k]) > given[k])
    .map(k => `${key} ${k}:${given[k]}->${Math.round(used[k])}`);
})"""


def _grown_margins(pg) -> list[str]:
    return pg.evaluate(_GROWN_MARGINS_JS)


@pytest.mark.parametrize("size", ["phone"])
@pytest.mark.parametrize("name", list(PAGES))
def test_nothing_truncated_or_overlapping(streamlit_server, shared_context, name, size):
    _check_at(streamlit_server, shared_context, name, size).close()


@pytest.mark.parametrize("size", ["projector", "phone"])
def test_many_classes_fit(streamlit_server, shared_context, size):
    """KMP on digits: the confusion matrix of ten classes (11 columns, 477 px) ran past the
    189 px column beside the figure and past a phone; each class's row summed up under the
    figure fits both, as everything else on the page does."""
    pg = open_fitted(shared_context, PAGES["kmp"].url(streamlit_server.base, "dataset=digits&k=6"),
               SIZES[size])
    try:
        check_layout(pg, f"kmp_digits_{size}", whole=False)
    finally:
        pg.close()


@pytest.mark.parametrize("size", ["projector", "phone"])
def test_reproduce_argmin_panels_fit(streamlit_server, shared_context, size):
    """The reproduce page's Figure 2 check draws where three curves are lowest, a panel
    each. At 1280 px their titles ("test error (mean squared): lowest at") ran into each
    other in one line; each is on two lines now, under the figure's title, and the count
    axis shows whole splits."""
    pg = open_fitted(shared_context, PAGES["reproduce"].url(streamlit_server.base,
                                                      "reproduce.show=hst_fig2_kmp"),
               SIZES[size])
    try:
        check_layout(pg, f"reproduce_fig2_{size}", whole=False)
        ticks = pg.evaluate("""() => [...document.querySelectorAll(
            '.mp-chart .js-plotly-plot .yaxislayer-above .ytick text')].map(t => t.textContent)""")
        assert ticks and all(t.isdigit() for t in ticks), ticks
    finally:
        pg.close()


@pytest.mark.parametrize("page, query, size", [
    # k = n = 20: the scree's "k = 20" label right of a line at the axis's right end
    ("spectrum", "dataset=boston&n=20", "phone"),
    # the Gaussian toy's "published compression k* = 46" right of its line at k = 46 of 60
    ("reproduce", "reproduce.show=hst_fig1_toy", "projector"),
])
def test_line_labels_near_an_axis_end_stay_inside(streamlit_server, shared_context, page, query,
                                                   size):
    """A label beside a vertical line near the right end of its axis ran past the figure's
    right edge, its last characters cut; it goes left of its line there now."""
    pg = open_fitted(shared_context, PAGES[page].url(streamlit_server.base, query), SIZES[size])
    try:
        check_layout(pg, f"{page}_line_label_{size}", whole=False)
    finally:
        pg.close()


def test_eigenvalue_page_without_eq3_panel_fits_a_phone(streamlit_server, shared_context):
    """The eigenvalue page on digits (m = 1797, over the size up to which Eq. 3 is drawn over
    the q grid) has two error panels, not three. On a phone its legend, placed under the last
    panel at a fixed fraction of the panels' height, came up onto the x axis's title
    "q (sketch size)"; it is placed a fixed distance under the axis now."""
    pg = open_fitted(shared_context, PAGES["spectrum"].url(streamlit_server.base, "dataset=digits"),
               SIZES["phone"])
    try:
        check_layout(pg, "spectrum_digits_phone", whole=False)
        assert pg.locator(".mp-chart .js-plotly-plot").count() == 3
    finally:
        pg.close()


#: Sparse KPCA's note in place of the m x m heatmap and the plot areas of its figure, in page
#: coordinates.
_LARGE_M_JS = r"""() => {
  const gd = document.querySelector('.mp-chart .js-plotly-plot');
  const note = [...gd.querySelectorAll('.annotation-text-g')]
    .find(g => g.textContent.includes('heatmap is not drawn'));
  const box = (e) => { const r = e.getBoundingClientRect();
                       return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  return {note: note ? box(note) : null,
          areas: Object.fromEntries([...gd.querySelectorAll('.nsewdrag')]
            .map(e => [e.getAttribute('data-subplot'), box(e)]))};
}"""


@pytest.mark.parametrize("size", ["projector", "full-hd"])
def test_large_m_note_lies_in_its_empty_panel(streamlit_server, shared_context, size):
    """Sparse KPCA on digits (m = 1257 training points) draws no m x m heatmap and says so
    in its place, the lower-left panel. plotly.js drops an axis no trace uses, and the note,
    placed on that axis's domain, fell back to the first panel's data coordinates: over the
    data panel's points, its first letter cut at the figure's left edge."""
    pg = open_fitted(shared_context, PAGES["skpca"].url(streamlit_server.base, "dataset=digits"),
               SIZES[size])
    try:
        check_layout(pg, f"skpca_digits_{size}", whole=False)
        geo = pg.evaluate(_LARGE_M_JS)
        note, areas = geo["note"], geo["areas"]
        assert note is not None, "the note is drawn"
        data, trace = areas["xy"], areas["x4y4"]
        # under the data panel, left of the trace-residual panel, level with it
        assert note["top"] > data["bottom"] and note["right"] < trace["left"], geo
        assert trace["top"] < (note["top"] + note["bottom"]) / 2 < trace["bottom"], geo
    finally:
        pg.close()


#: Column names a person can give a CSV: tags plotly.js reads (a link, bold), an entity, a
#: line break (a quoted header), and 100 characters and more.
_FEATURE = '<a href="https://example.com">x</a> & <b>price</b>' + "Z" * 90
_TARGET = "t&lt;<br>\nnext" + "W" * 100
_AXIS_TITLES_JS = r"""() => [...document.querySelectorAll('.mp-chart .js-plotly-plot g')]
  .filter(g => /^g-[xy]\d*title$/.test(g.getAttribute('class') || ''))
  .map(g => g.textContent).filter(t => t)"""


@pytest.mark.parametrize("size", ["projector", "phone"])
def test_a_csvs_column_names_show_as_typed_and_fit(streamlit_server, browser, tmp_path, size):
    """KMP on an upload, regression on one feature: the column names are the figure's axis
    titles. plotly.js read them as HTML (the feature's name was a link, the target's ``<br>``
    a line break) and a long name ran the height of the figure, over its title; now each is
    shown as typed, cut with "…" at ``LABEL_CHARS``, and the page passes the layout checks."""
    rng = np.random.default_rng(0)
    x = rng.uniform(-3, 3, 60)
    path = tmp_path / ("n" * 120 + ".csv")
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow([_FEATURE, _TARGET])
        w.writerows([[f"{a:.4f}", f"{np.sin(a) + 0.1 * rng.normal():.4f}"] for a in x])
    # a context of its own: opening and closing the sidebar on a phone leaves sidebar state
    # in the origin's local storage, which the shared context's later pages at 1280 px
    # inherited (their sidebar controls were then out of reach)
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
    pg = open_fitted(context, PAGES["kmp"].url(streamlit_server.base, "dataset=csv+upload&k=5"),
               SIZES[size])
    try:
        _upload(pg, path, " ".join(_TARGET.split()), phone=size == "phone")
        shown = [html.unescape(plain_text(t)) for t in (_FEATURE, _TARGET)]
        titles = pg.evaluate(_AXIS_TITLES_JS)  # a phone shows one panel of the two
        assert shown[1] in titles and set(titles) <= {*shown, "α K"}, titles
        assert size == "phone" or len(titles) == 3, titles
        assert pg.locator(".mp-chart .js-plotly-plot a").count() == 0
        check_layout(pg, f"kmp_csv_names_{size}", whole=False)
    finally:
        pg.close()
        context.close()


def _upload(pg, path, target: str, *, phone: bool) -> None:
    """Upload the CSV at ``path`` from the sidebar (opened and closed again on a phone),
    choose ``target`` (as the select box shows it) and wait for the page to settle."""
    side = pg.locator('[data-testid="stSidebar"]')
    if phone:
        pg.locator('[data-testid="stExpandSidebarButton"]').click()
    side.locator('[data-testid="stFileUploader"]').locator('input[type="file"]') \
        .set_input_files(str(path))
    box = side.locator('[data-testid="stSelectbox"]', has_text="Target column")
    box.wait_for()
    choose_option(pg, box.get_by_role("combobox"),
                  lambda texts: [t.strip() for t in texts].index(target))
    if phone:
        side.locator('[data-testid="stSidebarCollapseButton"] button').click()
    settle(pg)
    wait_for_stable_layout(pg)


@pytest.mark.parametrize("size", ["projector", "phone"])
def test_a_csvs_longest_class_labels_fit(streamlit_server, browser, tmp_path, size):
    """KMP on an upload whose classes are the 64-bit extremes (20 characters, which the CSV
    reader accepts) and 0. On a phone the per-class table under the figure was 553 px wide
    in a 356 px column (two such labels a row, Markdown cells breaking only at spaces) and
    the surface's legend entries ("class -9223372036854775808, test") ran over each other,
    two a row at half the width; now the table's label cells break where they must and the
    legend gives a long name a row, and the page passes the layout checks."""
    rng = np.random.default_rng(1)
    labels = [-2**63, 0, 2**63 - 1]
    path = tmp_path / "labels.csv"
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["a", "b", "label"])
        for i, label in enumerate(labels):
            centre = np.array([np.cos(2 * i), np.sin(2 * i)])
            w.writerows([[f"{a:.4f}", f"{b:.4f}", label]
                         for a, b in centre + 0.6 * rng.normal(size=(30, 2))])
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
    pg = open_fitted(context, PAGES["kmp"].url(streamlit_server.base, "dataset=csv+upload&k=5"),
               SIZES[size])
    try:
        _upload(pg, path, "label", phone=size == "phone")
        legend = pg.evaluate("""() => [...document.querySelectorAll(
            '.mp-chart .js-plotly-plot .legend .traces')].map(t => t.textContent)""")
        assert {f"class {c}" for c in labels} <= {t.split(" (")[0] for t in legend}, legend
        assert all(pg.get_by_role("cell", name=str(c), exact=True).count() for c in labels)
        check_layout(pg, f"kmp_csv_labels_{size}", whole=False)
    finally:
        pg.close()
        context.close()


def _tab(name: str) -> str:
    return "kmp.tab=" + quote_plus(name)


#: The KMP page's other views: each tab, and the figure of each kind of data (surfaces,
#: 1-D fits, predictions of several features, decision values of several features).
KMP_PHONE_VIEWS = {
    "compare_moons": "n=80&" + _tab("Compare with SVM (Fig. 6, 7)"),
    "compare_boston_lstat": "dataset=boston&kmp.feature=LSTAT&" + _tab("Compare with SVM (Fig. 6, 7)"),
    "losses": "n=80&" + _tab("Losses (Fig. 5)"),
    "curves": "n=80&" + _tab("Error and bound curves"),
    # ... of one class against the rest: the bound panel's title on three lines
    "curves_one_class": "dataset=digits&k=6&" + _tab("Error and bound curves"),
    "boston_all_features": "dataset=boston",
    "breast_cancer": "dataset=breast_cancer",
    # a 1-D fit with three widths: a two-line step title, six legend entries, and the basis
    # functions' panel with a two-line title of its own
    "sine_widths": "dataset=sine&kmp.dict=widths",
    # three kernel types: the polynomial's long name in the step title (which ran off the
    # figure's right edge), the legend and the table of kernels
    "moons_types": "kmp.dict=types",
    # ... and a 1-D fit of them: nine legend entries and a two-line title above the fit
    "sine_types": "dataset=sine&kmp.dict=types",
}


@pytest.mark.parametrize("view", ["moons_types", "sine_types"])
def test_three_kernel_types_fit_a_projector(streamlit_server, shared_context, view):
    """A mixed dictionary of three kernel types at 1280x720: the step title ("... added x₅₁
    with polynomial(gamma=0.5, degree=2, coef0=1)") ran off the figure's right edge, two
    legend entries a row ran into each other, the 1-D fit's legend at the right left its
    plots 64 px of the figure's 590, and the table of which kernel supplied each basis
    function hid its counts behind a scroll bar in the column beside the figure. Now the
    title takes two lines, the legend a row per entry (above the 1-D fit's plots), and the
    table's names wrap."""
    url = PAGES["kmp"].url(streamlit_server.base, KMP_PHONE_VIEWS[view])
    pg = open_fitted(shared_context, url, SIZES["projector"])
    try:
        geo = check_layout(pg, f"kmp_{view}_projector", whole=False)
        assert pg.get_by_role("columnheader", name="steps").count() == 1
        figure = pg.locator(".mp-chart .js-plotly-plot").first.bounding_box()["width"]
        # the plots keep most of the width or, a 2-D surface drawn one unit as long across as
        # up, the whole height their domain gives them (the height is what limits them then)
        assert geo["plots"] and (pg.evaluate(FILLS_HEIGHT_JS)
                                 or min(geo["plots"]) > 0.7 * figure), (geo["plots"], figure)
    finally:
        pg.close()


#: Whether the first chart's data panel has equal scales and fills the height of its domain.
FILLS_HEIGHT_JS = """() => {
  const fl = document.querySelector('.mp-chart .js-plotly-plot')._fullLayout;
  const d = fl.yaxis.domain;
  return Math.abs(fl.yaxis._length - fl._size.h * (d[1] - d[0])) < 1
    && Math.abs(Math.abs(fl.xaxis._m) - Math.abs(fl.yaxis._m)) < 1e-3 * Math.abs(fl.xaxis._m);
}"""


@pytest.mark.parametrize("view", list(KMP_PHONE_VIEWS))
def test_every_kmp_view_fits_a_phone(streamlit_server, shared_context, view):
    """The KMP page's tabs and figures other than its default on a phone. Figure 6's four
    panels (surfaces or 1-D fits) and Figure 5's two were side by side at 60 to 120 px each,
    their titles over each other; now one under the other at the screen's width, and the
    legend's long name ("basis points / support vectors (circled)") is not cut at the end
    of its box."""
    url = PAGES["kmp"].url(streamlit_server.base, KMP_PHONE_VIEWS[view])
    pg = open_fitted(shared_context, url, SIZES["phone"])
    try:
        panels = pg.get_by_role("radiogroup", name="Panel").get_by_role("radio")
        for i in range(max(panels.count(), 1)):  # each panel a phone offers, in turn
            if i:
                panels.nth(i).check(force=True)
                settle(pg)
                wait_for_stable_layout(pg)
            geo = check_layout(pg, f"kmp_{view}_phone_{i}", whole=False)
            # half the screen at least (side by side, each had 60 to 120 px of 390)
            plots = [w for w in geo["plots"] if w > 10]  # (a hidden panel keeps 1% of the width)
            assert plots and min(plots) > 0.5 * geo["width"], geo["plots"]
    finally:
        pg.close()


#: Every number cell of the eigenvalue page's timing table set to ``texts`` in turn (by
#: column header); the table's and its box's widths after.
_FILL_TIMING_JS = """(texts) => {
  const table = [...document.querySelectorAll('[data-testid="stMarkdownContainer"] table')]
    .find(t => [...t.rows[0].cells].some(c => c.innerText.trim() === 'time (s)'));
  const heads = [...table.rows[0].cells].map(c => c.innerText.trim());
  [...table.rows].slice(1).forEach((row, i) => {
    for (const [head, column] of Object.entries(texts)) {
      row.cells[heads.indexOf(head)].innerText = column[i % column.length];
    }
  });
  return [table.getBoundingClientRect().width,
          table.closest('[data-testid="stMarkdownContainer"]').getBoundingClientRect().width];
}"""


def test_phone_timing_table_holds_any_time(streamlit_server, shared_context):
    """The eigenvalue page's times are of one run on a shared machine: a method held up 0.1 s
    on a small K is 100 times dense eigh's time, and that ratio as ``{:.3f}`` ("123.456") made
    the phone's timing table 364 px wide in a 356 px column (a test run on a loaded machine;
    a table wider than its column scrolls, its last column off the screen). With the widest
    text the page's formats give a time or a ratio of up to five digits before the point
    (``fitted_number``: no longer than one below 10), the table holds."""
    from pages.common.text import fitted_number

    pg = open_fitted(shared_context, PAGES["spectrum"].url(streamlit_server.base, QUERY["spectrum"]),
               SIZES["phone"])
    try:
        sizes = [8.888888 * 10.0 ** e for e in range(5)]  # 8.89 to 88,889: every length
        texts = {"time (s)": [fitted_number(v, 4) for v in sizes],
                 "time / dense eigh": [fitted_number(v, 3) for v in sizes]}
        wide, box = pg.evaluate(_FILL_TIMING_JS, texts)
        assert wide <= box + 1, (wide, box, texts)
    finally:
        pg.close()


@pytest.mark.parametrize("name", list(PAGES))
def test_projector_layout_and_accessibility(streamlit_server, shared_context, name):
    """At 1280x720 the checks above; then, on the same page with all of it on screen,
    the accessibility checks of tests/browser/a11y.py; then, the same page resized to 1920x1080
    (a window made larger: plotly lays the figures out again), the checks above again."""
    pg = _check_at(streamlit_server, shared_context, name, "projector")
    try:
        if name in DRAWN_ONCE:
            assert not _grown_margins(pg), _grown_margins(pg)
        check_accessibility(pg, name)
        assert not pg.page_errors, pg.page_errors
        w, h = SIZES["full-hd"]
        pg.set_viewport_size(dict(width=w, height=h))
        wait_for_fit(pg)
        wait_for_stable_layout(pg)
        check_layout(pg, f"{name}_projector_resized_to_full-hd", whole=False)
        if name in DRAWN_ONCE:
            assert not _grown_margins(pg), _grown_margins(pg)
        if name == "kmp":
            assert not overlapping(figure_parts(pg)), overlapping(figure_parts(pg))
    finally:
        pg.close()


# Presentation mode at the two wide sizes is checked the same way (check_layout) by
# tests/browser/test_browser_present.py, on the page it opens to check that the animation fits.


#: Every page name in the sidebar's navigation: its text's width and its box's (sub-pixel: a
#: name that misses its box by less than a pixel still ends in an ellipsis).
_NAV_NAMES_JS = """() => [...document.querySelectorAll('[data-testid="stSidebarNavLink"]')]
  .map((a) => {
    const box = a.querySelector('.stMarkdownEllipsis'), text = box && box.querySelector('p');
    return text && [text.innerText.trim(), text.getBoundingClientRect().width,
                    box.getBoundingClientRect().width, a.getBoundingClientRect().height];
  }).filter(Boolean)"""


@pytest.mark.parametrize("size", ["projector", "full-hd"])
def test_every_page_name_in_the_sidebar_is_whole(streamlit_server, shared_context, size):
    """The navigation's names are not cut: "Approximate vs exact eigenvalues" missed its
    214 px by 0.7 px at 1280 and 1920 and showed as "Approximate vs exact eigenval…"; it
    wraps onto a second line now (pages/common/fit.py)."""
    pg = open_fitted(shared_context, PAGES["spectrum"].url(streamlit_server.base, ""), SIZES[size])
    try:
        names = pg.evaluate(_NAV_NAMES_JS)
        assert len(names) == len(app_pages()), names
        cut = [(t, w, box) for t, w, box, _ in names if w > box + 0.01]
        assert not cut, f"page names wider than their box, ended with an ellipsis: {cut}"
        assert all(h < 80 for *_, h in names), names  # two lines at most
    finally:
        pg.close()
