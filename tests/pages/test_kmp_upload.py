"""The kernel matching pursuit page on a user's own CSV (AppTest): the target is asked for,
the controls that depend on the data follow it, a hostile column name stays a comment in
the snippet, and the page's basis equals mpcore's estimator on the same rows."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

from apptest_util import assert_clean, code_of, kernel_params, widget
from csv_util import csv_bytes
from kmp_apptest import chosen, figures, open_page, set_widget, settings, to_last
from mpcore.kmp import KMPClassifier
from views.kmp import path_of

#: Every test here drives the page through AppTest (about a second each): the slow tier.
pytestmark = pytest.mark.slow


def test_csv_upload_needs_a_target_then_runs():
    """The user's own data: no target is explained, a label column gives the 2-D surface."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    at = open_page(dict(dataset="csv upload", k=5))
    raw = csv_bytes(np.column_stack([X, y]), ["a", "b", "label"])
    at.file_uploader(key="csv.file").set_value(("mine.csv", raw, "text/csv")).run()
    assert_clean(at)
    assert at.selectbox(key="csv.target").value == "label"  # detected (datasets.detect_target)
    set_widget(at, "selectbox", "csv.target", "(none)")
    assert any("target" in i.value for i in at.info)
    set_widget(at, "selectbox", "csv.target", "label")
    to_last(at)
    names = {t.get("name") for t in figures(at)[0]["data"]}
    assert "boundary f(x) = 0" in names
    Xs = StandardScaler().fit_transform(X)
    tr, _ = train_test_split(np.arange(60), test_size=0.3, random_state=0, stratify=y)
    s = settings(at)
    model = KMPClassifier(5, fitting=s["fitting"], **kernel_params(s)).fit(Xs[tr], y[tr])
    assert chosen(at) == list(model.basis_indices_)


def test_a_column_name_with_a_line_break_stays_in_the_snippets_comment(tmp_path):
    """A quoted CSV header may hold a line break: the regression feature's name is written
    into the snippet's comment, where a line break would start a line of code of the file's
    choosing. The name is written as a Python literal, and the snippet, run on the same
    file, picks the page's basis."""
    import ast

    rng = np.random.default_rng(2)
    X = rng.normal(size=(70, 2))
    y = np.sin(2 * X[:, 1]) + 0.1 * rng.normal(size=70)
    name = "b\nimport os; os.remove('x')  # <b>bold</b>"
    path = tmp_path / "mine.csv"
    path.write_bytes(csv_bytes(np.column_stack([X, y]), ["a", name, "target"]))
    at = open_page(dict(dataset="csv upload", k=5))
    at.file_uploader(key="csv.file").set_value(("mine.csv", path.read_bytes(),
                                                 "text/csv")).run()
    set_widget(at, "selectbox", "csv.target", "target")
    set_widget(at, "selectbox", "kmp.feature", name)
    to_last(at)
    code = code_of(at, "import mpdatasets as datasets")
    tree = ast.parse(code)
    assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
                and any(a.name == "os" for a in n.names)], code
    assert "X = X[:, [1]]  # " + repr(name) in code
    ns: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        exec(compile(code.replace("'mine.csv'", repr(str(path))), "snippet", "exec"), ns)  # noqa: S102
    assert list(ns["model"].basis_indices_) == chosen(at)


def test_an_uploads_classes_and_task_offer_their_controls():
    """The controls that depend on the data follow an upload once its target is chosen: a
    classification target offers the loss and, with three classes, the one-vs-rest class
    (its own labels); the same file with a numeric target offers the regression feature.
    (The upload's task and classes once never reached the view's fields: every such control
    was missing, with the page's caption pointing at one of them.)"""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(90, 2))
    y = np.repeat([5, 7, 9], 30)
    rows = np.column_stack([X, y, X[:, 0] + X[:, 1]])
    raw = csv_bytes(rows, ["a", "b", "label", "score"])
    at = open_page(dict(dataset="csv upload", k=4))
    at.file_uploader(key="csv.file").set_value(("mine.csv", raw, "text/csv")).run()
    set_widget(at, "selectbox", "csv.target", "(none)")
    keys = {s.key for s in at.selectbox}
    assert not keys & {"kmp.loss", "kmp.class", "kmp.feature"}  # no target
    set_widget(at, "selectbox", "csv.target", "label")
    assert at.selectbox(key="kmp.class").options == ["5", "7", "9"]
    assert widget(at, "selectbox", "kmp.feature") is None
    set_widget(at, "selectbox", "kmp.class", "9")
    set_widget(at, "selectbox", "kmp.loss", "logistic")
    to_last(at)
    # class 9 against the rest, with the logistic loss: the basis of mpcore's estimator on
    # the file's other columns (a, b and score)
    Xs = StandardScaler().fit_transform(rows[:, [0, 1, 3]])
    tr, _ = train_test_split(np.arange(90), test_size=0.3, random_state=0, stratify=y)
    s = settings(at)
    assert s["loss"] == "logistic"
    model = KMPClassifier(4, fitting=s["fitting"], loss="logistic",
                          backfit_every=s["backfit_every"], random_state=s["seed"],
                          **kernel_params(s)).fit(Xs[tr], y[tr])
    assert chosen(at) == list(path_of(model, 2).basis_indices_)
    set_widget(at, "selectbox", "csv.target", "score")
    assert at.selectbox(key="kmp.feature").options == ["all features", "a", "b", "label"]
    assert widget(at, "selectbox", "kmp.loss") is None
