"""mpcore.plots.plain_text: a user's text (a CSV's column names) in a figure, as typed.

plotly.js reads a subset of HTML in every title and label (``<br>``, ``<b>``, ``<a href>``)
and decodes entities (``&lt;``); a column named ``<a href="...">x</a>`` became a link in
the KMP figure's axis title, and a 120-character name ran the height of the figure. What
plotly.js shows of a text is computed here by a port of its two steps (tags, then
entities: ``convertEntities`` of src/lib/svg_text_utils.js); tests/browser/test_browser_layout.py
checks the same on the page, in a browser.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst
from kmp_figures import fit_animation, regression_1d

from mpcore.kmp import staged_values
from mpcore.plots import (LABEL_CHARS, kmp_fit_comparison_figure, kmp_prediction_animation,
                          plain_text)

#: plotly.js's named entities (svg_text_utils.js, ``entityToUnicode``) and its entity pattern.
_NAMED = {"mu": "μ", "amp": "&", "lt": "<", "gt": ">", "nbsp": "\xa0", "times": "×",
          "plusmn": "±", "deg": "°"}
_ENTITY = re.compile(r"&(#\d+|#x[\da-fA-F]+|[a-z]+);")
#: Hostile names: tags plotly reads, an entity, a line break, and length.
HOSTILE = ['<a href="https://example.com">x</a> & <b>price</b>' + "Z" * 90,
           "t&lt;<br>\nnext" + "W" * 100, "<sub>1</sub>", "a &amp; b", "  spaced\tout  "]


def plotly_shows(text: str) -> str:
    """The characters plotly.js draws for ``text`` that holds no tag (``<``)."""
    assert "<" not in text and ">" not in text, text

    def entity(m):
        code = m.group(1)
        if code.startswith("#"):
            n = int(code[2:], 16) if code[1] == "x" else int(code[1:])
            return chr(n) if n <= 0x10FFFF else m.group(0)
        return _NAMED.get(code, m.group(0))

    return _ENTITY.sub(entity, text)


@settings(max_examples=300, deadline=None)
@given(text=hst.text(max_size=200) | hst.sampled_from(HOSTILE),
       max_chars=hst.none() | hst.integers(2, 80))
def test_plotly_shows_the_text_as_typed_or_cut(text, max_chars):
    out = plain_text(text, max_chars)
    shown = plotly_shows(out)  # no tag: asserted inside
    typed = " ".join(text.split())
    if max_chars is None or len(typed) <= max_chars:
        assert shown == typed
    else:
        assert len(shown) <= max_chars and shown.endswith("…")
        assert typed.startswith(shown[:-1])


@pytest.mark.parametrize("text, shown", [
    ("<b>price</b> & tax", "&lt;b&gt;price&lt;/b&gt; &amp; tax"),
    ("a very long column name indeed", "a very long column name…"),
    ("line\nbreak", "line break"),
    ("&lt;", "&amp;lt;"),
])
def test_plain_text_examples(text, shown):
    assert plain_text(text) == shown


def test_the_default_keeps_a_name_of_label_chars():
    name = "x" * LABEL_CHARS
    assert plain_text(name) == name
    assert plain_text(name + "y") == "x" * (LABEL_CHARS - 1) + "…"


@pytest.mark.parametrize("bad", [0, 1, -3, 2.5, True, "10"])
def test_a_bad_length_is_refused(bad):
    with pytest.raises(ValueError, match="max_chars"):
        plain_text("x", bad)


def _titles(fig) -> list[str]:
    lay = fig.to_plotly_json()["layout"]
    return [lay[k]["title"]["text"] for k in sorted(lay)
            if re.fullmatch(r"[xy]axis\d*", k) and lay[k].get("title", {}).get("text")]


@pytest.mark.parametrize("x_label, y_label", [(HOSTILE[0], HOSTILE[1]), (HOSTILE[2], HOSTILE[3])])
def test_kmp_figures_show_column_names_as_typed(x_label, y_label):
    """The three KMP figures that take a data set's column names as axis titles."""
    x, y, model, xs = regression_1d()
    fit = fit_animation(x, y, model, xs, x_label=x_label, y_label=y_label)
    panels = [dict(title="KMP", F=staged_values(model, xs[:, None])[-1],
                   support=model.basis_indices_)]
    comparison = kmp_fit_comparison_figure(x, y, xs, panels, x_label=x_label, y_label=y_label)
    P = np.array(list(model.staged_predict(x[:, None])))
    prediction = kmp_prediction_animation(y, P, target_label=y_label)
    x_shown, y_shown = (plotly_shows(plain_text(t)) for t in (x_label, y_label))
    assert set(map(plotly_shows, _titles(fit))) == {x_shown, y_shown, "α K"}
    assert set(map(plotly_shows, _titles(comparison))) == {x_shown, y_shown}
    assert set(map(plotly_shows, _titles(prediction))) == {f"true {y_shown}",
                                                           f"predicted {y_shown}"}
