"""``pip install ".[plots]"`` in a clone leaves nothing that ``git status`` shows.

setuptools builds in the source tree (``build/``, ``*.egg-info``); a user who follows the
README's notebook section and then runs ``git status`` must see a clean clone. The
project's installable part and its ``.gitignore`` go into a fresh repository, a wheel is
built there as ``pip install .`` builds it, and every file the build left is ignored.
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: What ``pip install`` reads of the repository, and the ignore rules under test.
COPIED = ("pyproject.toml", "README.md", "mpcore", "datasets", ".gitignore")

pytestmark = pytest.mark.slow


def _git(cwd, *args):
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
                          cwd=cwd, check=True, capture_output=True, text=True).stdout


def test_a_build_in_a_clone_leaves_git_status_clean(tmp_path):
    clone = tmp_path / "clone"
    clone.mkdir()
    for name in COPIED:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, clone / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(path, clone / name)
    _git(clone, "init", "-q")
    _git(clone, "add", "-A")
    _git(clone, "commit", "-q", "-m", "clone")
    assert _git(clone, "status", "--porcelain") == ""
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                          "--no-build-isolation", "--no-index", "-q", "-w",
                          str(tmp_path / "wheels"), "."],
                         cwd=clone, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    built = [p.name for p in clone.iterdir() if p.name == "build" or p.name.endswith(".egg-info")]
    assert "build" in built, f"the build left no build/ folder here ({sorted(built)})"
    assert _git(clone, "status", "--porcelain", "--untracked-files=all") == "", (
        "files the build left are not ignored by .gitignore")
