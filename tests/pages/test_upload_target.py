"""An upload's target and width (issue 66, item 8): every page detects the same target
column (scikit-learn's wine, saved with ``frame.to_csv``, has its classes in "target");
sigma starts from the data's scale, and a width far off it is flagged."""

from __future__ import annotations

import pytest
from sklearn.datasets import load_wine

import datasets
from apptest_util import assert_clean, open_app_page
from views.data import default_sigma, width_note
from pages.common.fields import SIGMAS

pytestmark = pytest.mark.slow

WINE = load_wine(as_frame=True).frame.to_csv(index=False).encode()


def _upload(page, raw=WINE, name="wine.csv"):
    at = open_app_page(f"pages/{page}.py", params={"dataset": "csv upload"})
    at.file_uploader(key="csv.file").set_value((name, raw, "text/csv")).run()
    assert_clean(at)
    return at


@pytest.mark.parametrize("page", ["skpca", "kmp", "spectrum", "bounds"])
def test_every_page_takes_the_wine_target_as_the_target(page):
    at = _upload(page)
    [target] = [w for w in at.selectbox if w.key == "csv.target"]
    assert target.value == "target"
    assert at.session_state["csv.target"] == "target"


def test_sigma_starts_from_the_uploads_scale_and_a_far_width_is_flagged():
    at = _upload("kmp")
    d = datasets.from_csv(WINE, target="target")
    scale = datasets.width_scale(datasets.standardize(d.X))
    expected = default_sigma(scale, SIGMAS)
    assert expected == 3.0  # 13 standardised features: median distance about 5
    [sigma] = [w for w in at.select_slider if w.key == "sigma"]
    assert sigma.value == expected
    assert not [w for w in at.warning if "far below" in w.value]
    sigma.set_value(0.05).run()
    assert [w for w in at.warning if "far below this data's scale" in w.value]


def test_width_note_bounds():
    assert width_note(1.0, 1.0) is None
    assert "far below" in width_note(0.1, 1.0)
    assert "far above" in width_note(10.0, 1.0)
