"""The "Reproduce the papers" page on a phone: once the window's width is known (the fit
component drawn on every page reports it, pages/common/fit.py), its multi-panel figures
are drawn one panel a row, as wide as the screen (pages.common.phone_grid.narrow_grid)."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from apptest_util import (assert_clean, chart_elements, chart_spec, markdown_tables,
                          open_app_page)

PAGE = "pages/reproduce.py"


def _panels(spec):
    """x-axis domains of the figure's panels."""
    layout = spec["layout"]
    return [tuple(v["domain"]) for k, v in sorted(layout.items())
            if k.startswith("xaxis") and v.get("visible", True) is not False]


@pytest.mark.slow
def test_a_phone_gets_figure_6_one_panel_a_row_and_a_wide_window_four_in_a_row():
    params = {"reproduce.show": "vb_fig6_fittings"}
    at = open_app_page(PAGE, params=params, state={"_window_width": 390})
    assert_clean(at)
    (chart,) = chart_elements(at)
    spec = chart_spec(chart)
    panels = _panels(spec)
    assert len(panels) == 4
    assert all(x0 == 0.0 and x1 - x0 >= 0.8 for x0, x1 in panels), panels
    assert spec["layout"]["height"] >= 4 * 300
    titles = [a["text"] for a in spec["layout"]["annotations"]]
    assert titles[0].startswith("basic: ") and "<br>" not in titles[0]
    assert spec["layout"]["legend"]["orientation"] == "h"

    wide = open_app_page(PAGE, params=params)
    assert_clean(wide)
    (chart,) = chart_elements(wide)
    spec = chart_spec(chart)
    panels = _panels(spec)
    assert len(panels) == 4 and len({x0 for x0, _ in panels}) == 4  # four in one row
    assert spec["layout"]["height"] == 560


@pytest.mark.slow
def test_a_phone_gets_the_checks_without_the_verdict_column_which_the_list_states():
    """Four columns of text do not fit a phone's width: its checks table leaves out the
    verdict, which the list under the table gives for every claim."""
    phone = open_app_page(PAGE, state={"_window_width": 390})
    wide = open_app_page(PAGE)
    for at in (phone, wide):
        assert_clean(at)
    (small,), (full,) = markdown_tables(phone), markdown_tables(wide)
    assert list(full.columns) == ["claim", "verdict", "published", "ours"]
    pd.testing.assert_frame_equal(small, full.drop(columns="verdict"))
    listed = " ".join(m.value for m in phone.markdown if m.value.startswith("- **"))
    for claim, verdict in zip(full["claim"], full["verdict"]):
        assert f"**{claim}** ({verdict})" in listed
