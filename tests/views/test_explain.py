"""``views.explain``: every figure's "What am I looking at?" names every series the figure
draws and quotes the view's own numbers."""

from __future__ import annotations

import numpy as np
import pytest

from mpcore.curves import bound_curves
from mpcore.kernels import kernel_matrix, sigma_to_gamma
from mpcore.plots import bound_curves_figure_dict, kcca_animation_dict, skpca_animation_dict
from pages.common.figure_frames import typed_arrays
from views import explain, kcca, skpca
from views.data import DataChoice, KernelChoice, load

RBF = KernelChoice("rbf", gamma=sigma_to_gamma(0.7, "book"), sigma=0.7)


def _text(lines) -> str:
    assert lines and all(isinstance(x, str) and x for x in lines)
    return "\n".join(lines)


@pytest.fixture(scope="module")
def skpca_figure():
    d = load(DataChoice("moons", n_samples=60, noise=0.2, seed=3))
    K = kernel_matrix(d.X, **RBF.params())
    steps = skpca.skpca_steps(d.X, RBF, 8, K=K)
    v = skpca.skpca_view(d.X, d.y, RBF, steps, K=K)
    fig = typed_arrays(skpca_animation_dict(v["X2"], steps, trace0=v["trace0"],
                                            curves=v["curves"], heatmaps=v["heat"],
                                            heat_index=v["heat_index"]))
    return steps, v, fig


def test_legend_names_and_typed_values(skpca_figure):
    steps, v, fig = skpca_figure
    names = explain.legend_names(fig)
    # the trace panel's curves: the greedy one, exact KPCA and the three column rules
    assert names == ["sparse KPCA", skpca.EXACT_CURVE, skpca.CHOLESKY_CURVE,
                     skpca.RPCHOLESKY_CURVE, skpca.UNIFORM_CURVE]
    assert "current step j" in explain.legend_names(fig, hidden=True)
    np.testing.assert_allclose(explain.trace_values(fig, skpca.UNIFORM_CURVE),
                               v["curves"][skpca.UNIFORM_CURVE])
    with pytest.raises(KeyError):
        explain.trace_values(fig, "no such trace")


@pytest.mark.parametrize("j", [1, 4, 8])
def test_skpca_lines_quote_the_step(skpca_figure, j):
    steps, v, fig = skpca_figure
    text = _text(explain.skpca_lines(steps, j, fig, m=v["m"]))
    s = steps[j - 1]
    assert f"after step {j}" in text
    assert f"i = {s.index}, ρ = {s.quotients[s.index]:.3g}" in text
    assert ", ".join(str(t.index) for t in steps[:j]) in text
    top = int(np.argmax(s.residual_diag))
    assert f"{s.residual_diag[top]:.3g} at i = {top}" in text
    for name in explain.legend_names(fig):
        assert f"{name}:" in text, name
    for name, curve in v["curves"].items():  # each curve's value at step j
        assert f"{name}: " in text and f"At j = {j}: {curve[j]:.3g}." in text, name
    assert "Rayleigh quotient" in text and "deflation" in text


def test_skpca_lines_without_the_heatmap(skpca_figure):
    steps, v, fig = skpca_figure
    no_heat = dict(fig, data=[t for t in fig["data"] if t.get("type") != "heatmap"])
    assert "not drawn" in _text(explain.skpca_lines(steps, 2, no_heat, m=v["m"]))


def test_bounds_lines_name_every_series_and_the_minima():
    X = load(DataChoice("moons", n_samples=80, noise=0.2, seed=0)).X
    c = bound_curves(X[:60], X[60:], kernel="rbf", gamma=1.0, k_max=20, delta=0.05)
    fig = typed_arrays(bound_curves_figure_dict(c, show_terms=True))
    text = _text(explain.bounds_lines(c, fig, delta=0.05))
    for name in explain.legend_names(fig, hidden=True):
        assert f"{name}:" in text, name
        assert f"{name}: a series of this figure" not in text, name  # each has a meaning
    assert f"k* = {c.k_star_compression} ({c.min_compression:.3g})" in text
    assert f"k = {c.k_star_kpca} ({c.min_kpca:.3g})" in text
    assert f"{c.test_residual[c.k_star_compression - 1]:.3g}" in text
    assert "compression set" in text and "95%" in text


def test_kcca_lines_name_every_trace_and_quote_the_step():
    d = kcca.kcca_data(80, 0.1, 0, 0.3)
    v = kcca.kcca_view(d, 0.5, 0.5, 0.1, 5)
    fig = typed_arrays(kcca_animation_dict(d["X"], d["Y"], d["z"], v["steps"], train=v["train"],
                                           test=v["test"], rho=v["rho"]))
    text = _text(explain.kcca_lines(v, 3, fig))
    for name in explain.legend_names(fig, hidden=True):
        assert f"{name}:" in text and f"{name}: a series" not in text, name
    s = v["steps"][2]
    assert f"pair {s.index} chosen, quotient {s.quotients[s.index]:.3g}" in text
    assert f"held out {v['test'][2]:.3g}" in text
    assert "Axes:" in text


def test_kmp_lines_name_every_trace():
    fig = {"data": [{"name": "decision value f(x)", "showlegend": False, "type": "heatmap"},
                    {"name": "boundary f(x) = 0"}, {"name": "class 0"}, {"name": "class 0, test"},
                    {"name": "basis points"}, {"name": "newest basis point"}],
           "layout": {"xaxis": {"title": {"text": "x<sub>1</sub>"}}, "yaxis": {"title": "x2"}}}
    text = _text(explain.kmp_lines(fig, j=3, n_basis=10, fitting="backfit", loss="squared",
                                   live=["Added K(·, x_7)", "Accuracy: training 90.0%"]))
    for name in explain.legend_names(fig, hidden=True):
        assert f"{name}:" in text and f"{name}: a series" not in text, name
    assert "held-out" in text.split("class 0, test:")[1].split("\n")[0]
    assert "x = x1, y = x2" in text and "orthogonal matching pursuit" in text
    assert "Added K(·, x_7)" in text and "Step 3 of 10" in text


def test_an_unknown_trace_is_still_named():
    fig = {"data": [{"name": "something new"}, {"name": "something new"}, {"type": "bar"}]}
    assert explain.generic_lines(fig) == ["something new: a series of this figure."]


def test_glossary_covers_the_pages_jargon():
    for term in ("EKM", "count sketch", "Schur complement", "‖E‖₂", "Rayleigh quotient",
                 "compression set"):
        assert explain.glossary_lines(term)[0].startswith(f"{term}: ")


def test_the_loss_and_step_time_figures_explain_every_trace():
    """Vincent & Bengio's Figure 5 and the step times: every curve gets its meaning, its
    name shown as plain text (no HTML tags, the box shows text literally)."""
    from mpcore import loss_functions
    from mpcore.plots import margin_loss_figure, step_time_figure

    for fig in (margin_loss_figure(loss_functions(), selected="squared"),
                step_time_figure(np.array([0.01, 0.02, 0.015]))):
        lines = explain.generic_lines(fig, explain.LOSS_CURVES)
        named = [line for line in lines if not line.startswith("Axes:")]
        assert len(named) == len(explain.legend_names(fig, hidden=True)) > 0
        assert not any("a series of this figure" in line for line in named), named
        assert not any("<" in line for line in lines), lines
