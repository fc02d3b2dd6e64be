"""``pip install`` of the project: the core and the data loaders, usable in any folder.

A fresh virtual environment (``--system-site-packages``, plus a ``.pth`` naming
this interpreter's site-packages, so numpy, scipy and scikit-learn come from
here and nothing is downloaded) gets ``pip install --no-deps --no-build-isolation``
of a copy of the project's installable part; then a "Show the code" snippet, as
the app writes it, runs from an empty temporary folder. The loaders are
installed as ``mpdatasets`` (pyproject.toml), not as a top-level ``datasets``
that would collide with Hugging Face's package.
"""

import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

from pages.common.share import HEADER, data_snippet
from views.data import DataChoice

ROOT = Path(__file__).resolve().parents[2]
#: What ``pip install`` needs of the repository (pyproject.toml builds from these only).
INSTALLED_FROM = ("pyproject.toml", "README.md", "mpcore", "datasets")


def _venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A virtual environment with the project installed from a copy of its source."""
    tmp = tmp_path_factory.mktemp("install")
    src = tmp / "src"
    for name in INSTALLED_FROM:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            src.mkdir(exist_ok=True)
            shutil.copy2(path, src / name)
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                   check=True, capture_output=True)
    py = _venv_python(venv)
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    # this interpreter's packages (numpy, scikit-learn, plotly, setuptools), never the repository
    Path(site, "parent_site.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    out = subprocess.run([str(py), "-m", "pip", "install", "--no-deps", "--no-build-isolation",
                          "--no-index", "-q", str(src)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    return py, tmp


def _run(py, code, cwd):
    out = subprocess.run([str(py), "-c", code], cwd=cwd, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


@pytest.mark.slow
def test_a_page_snippet_runs_after_pip_install_in_any_folder(installed, tmp_path):
    py, _ = installed
    snippet = (HEADER + data_snippet(DataChoice("moons", n_samples=120, noise=0.2, seed=3))
               + "\nfrom mpcore.skpca import SparseKPCA\n"
               + "model = SparseKPCA(5, kernel='rbf', gamma=0.5).fit(X)\n"
               + "print(list(model.indices_))\n")
    installed_run = _run(py, snippet, tmp_path)
    # the same snippet in the repository (mpdatasets.py stands for the installed name)
    here = _run(sys.executable, snippet, ROOT)
    assert installed_run == here and installed_run.strip().startswith("[")


@pytest.mark.slow
def test_installed_layout_cannot_collide_with_hugging_faces_datasets(installed, tmp_path):
    py, tmp = installed
    code = textwrap.dedent("""
        import importlib.util, mpdatasets, mpcore, mpcore.plots
        print(mpdatasets.__file__)
        print(mpcore.__file__)
        print(importlib.util.find_spec("datasets") is None
              or "site-packages" in importlib.util.find_spec("datasets").origin)
        d = mpdatasets.load("boston")  # a data file shipped inside the package
        print(d.X.shape)
    """)
    lines = _run(py, code, tmp_path).split("\n")
    assert all(str(tmp / "venv") in line for line in lines[:2]), lines
    assert lines[2] == "True"  # no top-level `datasets` of ours: Hugging Face's is free
    assert lines[3] == "(506, 13)"
