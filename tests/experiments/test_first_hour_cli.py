"""``python -m experiments --out PATH`` checks PATH before computing anything.

An existing file, a file on the way to PATH, or a folder that cannot be written: a
one-line reason naming PATH, exit code 2, no traceback, and no experiment run. A folder
that changes while the experiments run gets the same kind of message, not a traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from experiments import command

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def no_run(monkeypatch):
    """run_all that fails the test: the path check must come first."""
    def run_all(**_):
        raise AssertionError("the experiments ran before --out was checked")
    monkeypatch.setattr(command, "run_all", run_all)


def _refused(capsys, argv) -> str:
    with pytest.raises(SystemExit) as info:
        command.main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def test_an_existing_file_is_refused_before_computing(tmp_path, capsys, no_run):
    f = tmp_path / "report.md"
    f.write_text("keep me")
    err = _refused(capsys, ["--out", str(f), "--quick"])
    assert str(f) in err and "existing file" in err
    assert f.read_text() == "keep me"


def test_a_file_on_the_way_is_refused(tmp_path, capsys, no_run):
    f = tmp_path / "notes.txt"
    f.write_text("")
    err = _refused(capsys, ["--out", str(f / "sub" / "out")])
    assert str(f) in err and "is a file" in err


def test_a_folder_that_cannot_be_written_is_refused(capsys, no_run):
    # /proc takes no new files, for root too
    err = _refused(capsys, ["--out", "/proc/mp-experiments-out"])
    assert "cannot write" in err and "/proc" in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in any folder")
def test_a_read_only_folder_is_refused(tmp_path, capsys, no_run):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        err = _refused(capsys, ["--out", str(ro / "out")])
    finally:
        ro.chmod(0o700)
    assert "cannot write" in err


def test_an_empty_out_is_refused(capsys, no_run):
    assert "--out is empty" in _refused(capsys, ["--out", ""])


def test_a_good_folder_passes_and_nothing_is_left(tmp_path):
    assert command.out_problem(tmp_path / "new" / "deeper") is None
    assert command.out_problem(tmp_path) is None
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_turns_into_a_file_while_computing_gets_a_message(tmp_path, capsys,
                                                                        monkeypatch):
    out = tmp_path / "out"

    def run_all(**_):
        out.write_text("")  # someone saved a file there meanwhile
        return []
    monkeypatch.setattr(command, "run_all", run_all)
    err = _refused(capsys, ["--out", str(out)])
    assert "could not write the report" in err


def test_the_command_line_exits_2_without_a_traceback(tmp_path):
    f = tmp_path / "taken"
    f.write_text("")
    out = subprocess.run([sys.executable, "-m", "experiments", "--out", str(f)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr and "existing file" in out.stderr
    assert "%" not in out.stderr  # no progress bar: nothing was computed
