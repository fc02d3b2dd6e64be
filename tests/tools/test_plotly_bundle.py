"""The app's plotly.js bundle (``static/plotly-app.min.js``) is what its recipe builds.

``tools/plotly-bundle`` holds the recipe: ``package.json`` and ``package-lock.json`` (plotly.js
and esbuild, every version pinned), ``entry.js`` (the trace types registered) and
``build.mjs`` (esbuild, the attribute descriptions left out). This test installs the locked
packages with ``npm ci`` into a temporary copy of the recipe, builds the bundle there and
compares it byte for byte with the file the app serves: a bundle edited by hand, or a recipe
changed without building it again, fails here. What the bundle draws is checked in a browser
by ``tests/browser/test_browser_charts.py`` (every trace type the app uses, each figure resolved as
plotly.js's full bundle resolves it).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from browser_util import REPO_ROOT, skip_or_fail

from pages.common.charts import PLOTLY_BUNDLE as BUNDLE

RECIPE = REPO_ROOT / "tools" / "plotly-bundle"
RECIPE_FILES = ("package.json", "package-lock.json", "entry.js", "build.mjs")


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        skip_or_fail(f"{name} is missing (Debian: apt-get install -y npm); it builds the bundle",
                     "The bundle check")
    return path


def test_the_recipe_pins_plotly_js_to_the_plotly_packages_version():
    """The recipe's plotly.js is the version the installed plotly writes figures for, in
    package.json as in the lock file (the served file's own header says the same version:
    tests/browser/test_browser_charts.py)."""
    from plotly.offline import get_plotlyjs_version

    want = get_plotlyjs_version()
    package = json.loads((RECIPE / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((RECIPE / "package-lock.json").read_text(encoding="utf-8"))
    assert package["devDependencies"]["plotly.js"] == want
    assert lock["packages"]["node_modules/plotly.js"]["version"] == want


@pytest.mark.slow
def test_the_served_bundle_is_what_the_recipe_builds(tmp_path: Path):
    npm, node = _tool("npm"), _tool("node")
    for name in RECIPE_FILES:
        shutil.copy(RECIPE / name, tmp_path / name)
    subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=tmp_path,
                   check=True, timeout=600)
    out = tmp_path / BUNDLE.name
    subprocess.run([node, "build.mjs", str(out)], cwd=tmp_path, check=True, timeout=300)
    built, served = out.read_bytes(), BUNDLE.read_bytes()
    assert built == served, (
        f"static/{BUNDLE.name} ({len(served)} bytes) is not what tools/plotly-bundle builds "
        f"({len(built)} bytes): run `npm ci && npm run build` in tools/plotly-bundle")
