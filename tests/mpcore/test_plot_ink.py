"""Text of the figures reads at WCAG 2.1 AA contrast in any host theme (mpcore.plots._common.ink).

No browser: the figures' own JSON is read. Every text colour a figure sets (layout
font, titles, ticks, legend, colour bars, slider, buttons, annotations, scatter
labels, in the figure and in its frames) must be explicit, so Streamlit's chart
theme (grey #808495, 3.7:1 on white) never applies, and have at least 4.5:1 with
white. tests/browser/test_accessibility.py checks the same on the pages, as drawn.
"""

from __future__ import annotations

import numpy as np
import pytest

from example_views import skpca_on_moons
from mpcore._losses import loss_functions
from mpcore.plots import (
    bound_curves_figure,
    kcca_animation,
    margin_loss_figure,
    mark_published,
    skpca_animation_dict,
    trace_curves_figure,
)
from mpcore.plots._common import (
    INK,
    MIN_CONTRAST,
    OKABE_ITO,
    contrast_ratio,
    parse_colour,
    readable,
)
from views import bounds as bounds_views
from views import kcca as kcca_views
from views.data import DataChoice, KernelChoice, load, split


# ---------------------------------------------------------------- the colour helpers


def test_parse_colour():
    assert parse_colour("#D55E00") == (213, 94, 0, 1.0)
    assert parse_colour("#222") == (34, 34, 34, 1.0)
    assert parse_colour("rgba(255, 255, 255, 0.85)") == (255, 255, 255, 0.85)
    assert parse_colour("rgb(1,2,3)") == (1, 2, 3, 1.0)
    assert parse_colour("black") == (0, 0, 0, 1.0)
    for other in (None, "Cividis", "#12345", "rgb(a,b,c)", ["#000"]):
        assert parse_colour(other) is None


def test_contrast_ratio_matches_wcag():
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#767676") == pytest.approx(4.54, abs=0.01)
    assert contrast_ratio("#808495") < MIN_CONTRAST  # Streamlit's chart grey
    assert contrast_ratio(INK) > 15


@pytest.mark.parametrize("name", sorted(OKABE_ITO))
def test_readable_keeps_the_hue_and_reaches_aa(name):
    colour = OKABE_ITO[name]
    out = readable(colour)
    assert contrast_ratio(out) >= MIN_CONTRAST
    if contrast_ratio(colour) >= MIN_CONTRAST + 0.1:
        assert out == colour  # already readable: untouched
    else:
        a, b = np.array(parse_colour(colour)[:3]), np.array(parse_colour(out)[:3])
        assert np.all(b <= a)
        assert np.allclose(b / b.max(), a / a.max(), atol=0.03)  # same hue, darker
        assert contrast_ratio(out) < MIN_CONTRAST + 0.4  # just enough, not black


def test_readable_leaves_what_it_cannot_judge():
    assert readable("Cividis") == "Cividis"
    assert readable("#ffffff", background="#000000") == "#ffffff"  # dark background
    assert contrast_ratio(readable("rgba(213,94,0,0.5)")) >= MIN_CONTRAST


# ---------------------------------------------------------------- the figures


def _texts(fig: dict):
    """(where, colour) of every text colour the figure JSON sets or leaves to a theme."""
    layout = fig["layout"]
    out = [("layout.font", layout.get("font", {}).get("color"))]
    if layout.get("title", {}).get("text"):
        out.append(("title", layout["title"].get("font", {}).get("color")))
    if fig["layout"].get("showlegend", True):
        out.append(("legend", layout.get("legend", {}).get("font", {}).get("color")))
    for key, axis in layout.items():
        if key.startswith(("xaxis", "yaxis")) and axis.get("visible", True):
            out.append((f"{key}.tickfont", axis.get("tickfont", {}).get("color")))
            if axis.get("title", {}).get("text"):
                out.append((f"{key}.title", axis["title"].get("font", {}).get("color")))
        if key.startswith("coloraxis"):
            cb = axis.get("colorbar", {})
            out.append((f"{key}.colorbar.tickfont", cb.get("tickfont", {}).get("color")))
            out.append((f"{key}.colorbar.title", cb.get("title", {}).get("font", {}).get("color")))
    for i, a in enumerate(layout.get("annotations", [])):
        out.append((f"annotation {i} {a.get('text', '')[:20]!r}", a.get("font", {}).get("color")))
    for i, m in enumerate(layout.get("updatemenus", [])):
        out.append((f"updatemenu {i}", m.get("font", {}).get("color")))
    for i, s in enumerate(layout.get("sliders", [])):
        out.append((f"slider {i}", s.get("font", {}).get("color")))
        out.append((f"slider {i} value", s.get("currentvalue", {}).get("font", {}).get("color")))
    traces = [(f"trace {i}", t) for i, t in enumerate(fig["data"])]
    for f in fig.get("frames", []):
        traces += [(f"frame {f['name']} trace {i}", t) for i, t in enumerate(f.get("data", []))]
        for i, a in enumerate((f.get("layout") or {}).get("annotations", [])):
            if "font" in a:
                out.append((f"frame {f['name']} annotation {i}", a["font"].get("color")))
    for where, t in traces:
        cb = t.get("colorbar") or t.get("marker", {}).get("colorbar")
        if cb and t.get("showscale", True) is not False:
            out.append((f"{where} colorbar ticks", cb.get("tickfont", {}).get("color")))
            if cb.get("title", {}).get("text"):
                out.append((f"{where} colorbar title", cb["title"].get("font", {}).get("color")))
        colour = t.get("textfont", {}).get("color")
        if t.get("type", "scatter") == "scatter" and isinstance(colour, str):
            out.append((f"{where} text", colour))
    return out


def _skpca():
    v = skpca_on_moons(60, 5)
    return skpca_animation_dict(v["X2"], v["steps"], axis_labels=v["axis_labels"],
                                trace0=v["trace0"], curves=v["curves"], heatmaps=v["heat"])


def _kcca():
    d = kcca_views.kcca_data(60, 0.1, 0, 0.25)
    v = kcca_views.kcca_view(d, 1.0, 1.0, 0.1, 4)
    return kcca_animation(d["X"], d["Y"], d["z"], v["steps"], train=v["train"], test=v["test"],
                          rho=v["rho"]).to_plotly_json()


def _bounds():
    choice = DataChoice("moons", n_samples=80, noise=0.2)
    d = load(choice)
    tr, te = split(d, 0.25, choice.seed)
    c = bounds_views.bound_curves(d.X[tr], d.X[te], KernelChoice("rbf", gamma=1.0), 20, 0.05)
    fig = bound_curves_figure(c, show_terms=True, title="Bounds")
    mark_published(fig, 5, "published k* = 5", colour=OKABE_ITO["vermillion"])  # after ink
    return fig.to_plotly_json()


FIGURES = {
    "skpca": _skpca,
    "kcca": _kcca,
    "bounds": _bounds,
    "trace curves": lambda: trace_curves_figure(
        {"a": np.linspace(3, 1, 6), "b": np.linspace(3, 0.5, 6)}, marker_k=2).to_plotly_json(),
    "margin losses": lambda: margin_loss_figure(loss_functions(), selected="hinge").to_plotly_json(),
}


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_every_text_of_a_figure_is_explicit_and_readable(name):
    texts = _texts(FIGURES[name]())
    unset = [where for where, colour in texts if colour is None]
    assert not unset, f"{name}: text left to the host theme's colour: {unset}"
    low = [(where, colour, round(contrast_ratio(colour), 2)) for where, colour in texts
           if parse_colour(colour) and contrast_ratio(colour) < MIN_CONTRAST]
    assert not low, f"{name}: text below {MIN_CONTRAST}:1 on white: {low}"
