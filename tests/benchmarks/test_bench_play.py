"""The frame-rate arithmetic of benchmarks/bench_play.py (the browser part is the benchmark's)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_play.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_play", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_counts_distinct_frames_in_a_fixed_window(bench):
    frames = [[1000.0 + 125 * i, str(i + 1)] for i in range(20)]  # 8 frames/s
    fps, counted = bench.frames_per_second(frames, 1000.0)
    assert counted == 8 and fps == pytest.approx(8.0)


def test_a_burst_counts_as_what_it_is_not_as_a_rate(bench):
    # two frames 1 ms apart: 1 frame after the first in a 1 s window, not 1000 frames/s
    fps, counted = bench.frames_per_second([[0.0, "1"], [1.0, "2"]], 1000.0)
    assert (fps, counted) == (1.0, 1)


def test_same_time_stamp_and_repeated_frames_never_divide_by_zero(bench):
    fps, counted = bench.frames_per_second([[5.0, "1"], [5.0, "2"], [5.0, "2"]], 500.0)
    assert (fps, counted) == (0.0, 0)  # nothing strictly after the first frame
    fps, counted = bench.frames_per_second([[0.0, "1"], [10.0, "2"], [20.0, "2"]], 500.0)
    assert (fps, counted) == (2.0, 1)  # frame "2" reported twice counts once
    assert bench.frames_per_second([], 500.0) == (0.0, 0)


def test_frames_after_the_window_do_not_count(bench):
    frames = [[0.0, "1"], [400.0, "2"], [500.0, "3"], [500.5, "4"]]
    assert bench.frames_per_second(frames, 500.0) == (4.0, 2)


@pytest.mark.parametrize("window_ms", [0.0, -1.0])
def test_the_window_must_be_positive(bench, window_ms):
    with pytest.raises(ValueError, match="positive"):
        bench.frames_per_second([[0.0, "1"], [1.0, "2"]], window_ms)


def test_the_default_speed_must_be_kept_and_the_fastest_is_a_record(bench):
    assert bench.target("default", 2.0) == pytest.approx(bench.KEEP_SHARE * 2.0)
    assert bench.target("fastest", 12.0) is None
    with pytest.raises(ValueError, match="default"):
        bench.target("slowest", 2.0)
