"""Caches of the kernel matching pursuit page (views.kmp, views.kmp_quiz)."""

from __future__ import annotations

from pages.common.figure_frames import typed_arrays
from views import kmp as _kmp
from views import kmp_quiz as _kmp_quiz
from views.data import DataChoice, KernelChoice
from views.kmp import (  # noqa: F401  (for the page)
    KMP_CURVE_POINTS,
    KMP_GRID,
    KMPSettings,
    kmp_estimator,
    kmp_kernel,
)

from .base import ENTRIES, TTL, cache_data, freeze_tree, frozen
from .data import load_data, split, stratified  # noqa: F401  (for the page)


def kmp_data(choice: DataChoice, test_fraction: float, feature: str | None = None):
    """(X_tr, y_tr, X_te, y_te, feature_names): views.kmp.feature_split of the cached split."""
    return _kmp.feature_split(load_data(choice), *split(choice, test_fraction), feature)


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)  # the page says what runs
def kmp_model(choice: DataChoice, kern: KernelChoice, test_fraction: float, s: KMPSettings,
              early_stopping: str | None = None):
    """(fitted estimator, warnings) on the training rows X[tr]: views.kmp.fit_kmp."""
    X, y, _, _, _ = kmp_data(choice, test_fraction, s.feature)
    return _kmp.fit_kmp(X, y, load_data(choice).task, kern, s, early_stopping, choice.seed)


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Timing every step...")
def kmp_curves(choice: DataChoice, kern: KernelChoice, test_fraction: float, s: KMPSettings):
    """(views.kmp_curves.KMPCurves, warnings): all n_basis steps, timed and scored."""
    X, y, Xt, yt, _ = kmp_data(choice, test_fraction, s.feature)
    return _kmp.kmp_curves(X, y, Xt, yt, load_data(choice).task, kern, s, choice.seed)


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Fitting the SVM...")
def kmp_svm(choice: DataChoice, kern: KernelChoice, test_fraction: float, C: float,
            feature: str | None = None, cls: int | None = None):
    """views.kmp.svm_scores: dict(n_support, support, train_score, test_score, svm)."""
    X, y, Xt, yt, _ = kmp_data(choice, test_fraction, feature)
    out = _kmp.svm_scores(X, y, Xt, yt, load_data(choice).task, kern, C, cls)
    return dict(out, support=frozen(out["support"]))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def kmp_staged(choice: DataChoice, kern: KernelChoice, test_fraction: float, s: KMPSettings,
               early_stopping: str | None, cls: int | None = None):
    """views.kmp.staged: per kept step, predictions on the training and test rows, the path."""
    X, _, Xt, _, _ = kmp_data(choice, test_fraction, s.feature)
    model, _ = kmp_model(choice, kern, test_fraction, s, early_stopping)
    return freeze_tree(_kmp.staged(model, X, Xt, cls))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner=False)
def kmp_step_scores(choice: DataChoice, kern: KernelChoice, test_fraction: float,
                    s: KMPSettings, early_stopping: str | None, cls: int | None = None) -> tuple:
    """views.kmp.step_scores: the live numbers beside the animation, once per setting."""
    _, y, _, yt, _ = kmp_data(choice, test_fraction, s.feature)
    return _kmp.step_scores(load_data(choice).task, y, yt,
                            kmp_staged(choice, kern, test_fraction, s, early_stopping, cls))


@cache_data(max_entries=ENTRIES, ttl=TTL,
            show_spinner="Scoring every candidate of every step (the pursuit run again)...")
def kmp_pick_scores(choice: DataChoice, kern: KernelChoice, test_fraction: float, s: KMPSettings,
                    early_stopping: str | None, cls: int | None = None) -> dict:
    """views.kmp_quiz.pick_scores of the page's model: every candidate's score per step."""
    X, y, _, _, _ = kmp_data(choice, test_fraction, s.feature)
    model, _ = kmp_model(choice, kern, test_fraction, s, early_stopping)
    return freeze_tree(_kmp_quiz.pick_scores(model, X, y, cls))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Preparing the animation...")
def kmp_animation(choice: DataChoice, kern: KernelChoice, test_fraction: float, s: KMPSettings,
                  early_stopping: str | None, cls: int | None, frame_ms: int) -> dict:
    """views.kmp.animation as a plotly dict, its arrays as plotly.js typed arrays (encoded
    once, not on every rerun)."""
    d = load_data(choice)
    X, y, Xt, yt, names = kmp_data(choice, test_fraction, s.feature)
    model, _ = kmp_model(choice, kern, test_fraction, s, early_stopping)
    v = kmp_staged(choice, kern, test_fraction, s, early_stopping, cls)
    return typed_arrays(_kmp.animation(model, v, X, y, Xt, yt, task=d.task, names=names,
                                       target_name=d.target_name, cls=cls, frame_ms=frame_ms))


@cache_data(max_entries=ENTRIES, ttl=TTL, show_spinner="Fitting the models to compare...")
def kmp_comparison(choice: DataChoice, kern: KernelChoice, test_fraction: float, s: KMPSettings,
                   C: float, mode: str, n_basis: int | None, basic_n: int, cls: int | None = None):
    """views.kmp.compare (Figure 6 with mode "fittings", Figure 7 with "losses"), fitted
    through the cached :func:`kmp_model` and :func:`kmp_svm`.

    Returns dict(figure=plotly dict or None (not 2-D classification or 1-D regression),
    rows=table rows, warnings=tuple, n_basis=N used).
    """
    d = load_data(choice)
    X, y, Xt, yt, _ = kmp_data(choice, test_fraction, s.feature)
    cmp = _kmp.compare(
        X, y, Xt, yt, task=d.task, kern=kern, s=s, C=C, mode=mode, n_basis=n_basis,
        basic_n=basic_n, cls=cls, seed=choice.seed,
        fit=lambda settings: kmp_model(choice, kern, test_fraction, settings, None),
        svm=lambda path: kmp_svm(choice, kern, test_fraction, C, s.feature, path))
    fig = _kmp.comparison_figure(cmp, X, y,
                                 x_label=s.feature or (d.feature_names or ("x",))[0],
                                 y_label=d.target_name or "y")
    return dict(figure=None if fig is None else fig.to_plotly_json(), rows=cmp["rows"],
                warnings=cmp["warnings"], n_basis=cmp["n_basis"])
