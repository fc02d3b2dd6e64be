"""Every page's "Show the code" runs as printed for every kind of task (issue 66, item 10):
two classes, several classes (one-vs-rest), regression and an upload; the KMP snippet gives
the page's basis."""

from __future__ import annotations

import contextlib
import io
import os
import warnings

import numpy as np
import pytest

from apptest_util import assert_clean, code_of, open_app_page

pytestmark = pytest.mark.slow

PAGES = ["kmp", "skpca", "spectrum", "bounds"]
KINDS = {
    "two classes": dict(dataset="moons", n=60),
    "several classes": dict(dataset="blobs", n=60),
    "regression": dict(dataset="sine", n=60),
}
CHOSEN = "Chosen so far (training indices, -1 = constant):"


def _upload_csv(n_classes=3, per_class=12, seed=1) -> bytes:
    rng = np.random.default_rng(seed)
    rows = ["a,b,c,label"]
    for c in range(n_classes):
        for x in rng.normal(loc=2.0 * c, size=(per_class, 3)):
            rows.append(",".join(f"{v:.4f}" for v in x) + f",{c}")
    return ("\n".join(rows) + "\n").encode()


def _run(code, folder):
    ns: dict = {}
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(out):
            warnings.simplefilter("ignore")
            exec(compile(code, "<snippet>", "exec"), ns)  # noqa: S102 - the page's own code
    finally:
        os.chdir(cwd)
    return ns, out.getvalue()


def _page_basis(at):
    caps = [c.value for c in at.caption if c.value.startswith(CHOSEN)]
    return [int(t) for t in caps[0][len(CHOSEN):].split(",")] if caps else None


def _check_kmp(at, ns):
    model = ns["model"]
    if len(getattr(model, "classes_", ())) > 2:
        basis = ns["pursuit"].basis_indices_
    else:
        basis = model.basis_indices_
    at.button(key="kmp.last").click().run()
    assert_clean(at)
    shown = _page_basis(at)
    if shown is not None:
        assert list(basis) == shown


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("page", PAGES)
def test_the_snippet_runs_for_every_task(page, kind, tmp_path):
    params = dict(KINDS[kind])
    at = open_app_page(f"pages/{page}.py", params=params)
    assert_clean(at)
    code = code_of(at, "import mpdatasets as datasets")
    ns, _ = _run(code, tmp_path)
    if page == "kmp":
        _check_kmp(at, ns)


@pytest.mark.parametrize("page", PAGES)
def test_the_snippet_of_an_upload_runs_with_the_uploaded_file(page, tmp_path):
    raw = _upload_csv()
    at = open_app_page(f"pages/{page}.py", params={"dataset": "csv upload"})
    at.file_uploader(key="csv.file").set_value(("three_blobs.csv", raw, "text/csv")).run()
    targets = [w for w in at.selectbox if w.key == "csv.target"]
    if targets and targets[0].value != "label" and "label" in targets[0].options:
        targets[0].set_value("label").run()
    assert_clean(at)
    code = code_of(at, "import mpdatasets as datasets")
    assert "'three_blobs.csv'" in code
    (tmp_path / "three_blobs.csv").write_bytes(raw)
    ns, _ = _run(code, tmp_path)
    if page == "kmp":
        _check_kmp(at, ns)
