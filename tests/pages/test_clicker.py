"""Clicked points: a click adds a point, unless it lands on one or the cap is reached."""

from __future__ import annotations

import numpy as np

from pages.common.clicker import _click_message
from pages.common.state import MAX_POINTS

X = np.array([[0.0, 0.0], [1.25, -0.5]])


def test_a_click_on_an_empty_place_adds_a_point():
    assert _click_message([{"curve_number": 0, "x": 0.5, "y": 0.5}], X, 0) is None
    assert _click_message([], X, MAX_POINTS) is None  # no click, nothing to say


def test_a_click_on_a_data_point_or_at_its_place_adds_nothing_and_says_so():
    for p in ({"curve_number": 1, "x": 1.25, "y": -0.5},
              {"curve_number": 0, "x": 1.2500001, "y": -0.5}):
        assert "point there already" in _click_message([p], X, 0)


def test_a_click_past_the_cap_adds_nothing_and_says_so():
    message = _click_message([{"curve_number": 0, "x": 0.5, "y": 0.5}], X, MAX_POINTS)
    assert message and str(MAX_POINTS) in message and "nothing was added" in message
    assert _click_message([{"curve_number": 0, "x": 0.5, "y": 0.5}], X, MAX_POINTS - 1) is None
