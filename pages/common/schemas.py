"""The declared view state of every page: one Schema each (no Streamlit here).

Adding a control to a page is one :class:`~pages.common.state.Field` here;
the widget, the URL, the presets, the classroom link, the downloads and the
tests follow from it.
"""

from __future__ import annotations

import math
from functools import lru_cache

import datasets
from views.data import DataChoice, load as load_data, train_classes
from views.spectrum import N_EIG_MAX

from .fields import (
    CSV,
    DEFAULT_SIGMA,
    SIGMAS,
    data_fields,
    dataset_options,
    k_field,
    kernel_fields,
    n_rows,
    n_train,
    speed_field,
    step_field,
    test_field,
)
from .state import Field, Schema


def _task(ctx) -> str | None:
    if ctx["dataset"] == CSV:
        return ctx.get("_task")
    return datasets.info(ctx["dataset"]).task


@lru_cache(maxsize=32)
def _bundled(name: str):
    """Feature names and class labels of a bundled data set (at its default size)."""
    d = datasets.load(name)
    classes = () if d.task != "classification" else tuple(int(c) for c in sorted(set(d.y.tolist())))
    return tuple(d.feature_names), classes


def feature_names(ctx) -> tuple:
    return ctx.get("_features", ()) if ctx["dataset"] == CSV else _bundled(ctx["dataset"])[0]


def class_labels(ctx) -> tuple:
    return ctx.get("_classes", ()) if ctx["dataset"] == CSV else _bundled(ctx["dataset"])[1]


@lru_cache(maxsize=64)
def _bundled_train(name: str, n: int, noise, seed: int, ratio: float, pts: tuple,
                   test: float) -> tuple:
    """The class labels of a bundled data set's training split (the page's data and split)."""
    d = load_data(DataChoice(name=name, n_samples=n, noise=noise, seed=seed,
                             variance_ratio=ratio, standardize=False, added=pts))
    return train_classes(d.y, test, seed)


@lru_cache(maxsize=8)
def _upload_train(labels: tuple, test: float, seed: int) -> tuple:
    return train_classes(labels, test, seed)


def train_class_labels(ctx) -> tuple:
    """The class labels of the training split the view describes: the classes a one-vs-rest
    fit there knows (a class whose every point fell in the test split has no pursuit)."""
    if ctx["dataset"] == CSV:
        labels = ctx.get("_labels")
        if not labels:  # the upload's labels not known: its classes as a whole
            return class_labels(ctx)
        return _upload_train(tuple(labels), float(ctx["test"]), int(ctx["seed"]))
    if not class_labels(ctx):
        return ()
    try:
        return _bundled_train(ctx["dataset"], int(ctx["n"]), ctx.get("noise"), int(ctx["seed"]),
                              float(ctx.get("ratio", 10.0)), tuple(ctx.get("pts", ())),
                              float(ctx["test"]))
    except ValueError:  # data the page cannot load either (it says why): the whole set's
        return class_labels(ctx)


#: Presentation mode of the animated pages (a projector view; in the link, so a lecturer's
#: bookmark opens it).
PRESENT = Field("present", "Presentation mode", "bool", False, widget="page")

# ---------------------------------------------------------------- sparse KPCA

SKPCA = Schema("skpca", [
    *data_fields(dataset_options()),
    *kernel_fields(),
    test_field(),
    # one run of up to 100 steps serves every k on the slider
    k_field(lambda c: min(n_train(c) or 100, 100), default=20),
    Field("skpca.trick", "59-trick (random candidates, large m)", "bool", False, widget="toggle",
          help="Score only 59 random candidates per step (Smola & Schoelkopf): the best of 59 "
               "is in the top 5% with probability 0.95. Never forms K."),
    speed_field("skpca"),
    Field("skpca.quiz", "Quiz: predict the next pick", "bool", False, widget="toggle",
          help="Before each step, guess which point the greedy rule takes (click it or type "
               "its index), then reveal the step: your guess, the choice and both quotients."),
    step_field(lambda c: c["k"]),
    PRESENT,
])

# ---------------------------------------------------------------- kernel matching pursuit

KMP_TABS = ("Decision surface / fit", "Compare with SVM (Fig. 6, 7)", "Error and bound curves",
            "Losses (Fig. 5)")
FITTING = {"basic": "basic (Fig. 1)", "backfit": "back-fitting (Eq. 6, OMP)",
           "prefit": "pre-fitting (Fig. 3, Eq. 7)"}
LOSS = {"squared": "squared (KMP-mse)", "tanh": "squared after tanh (KMP-tanh)",
        "logistic": "logistic (LogitBoost)", "exponential": "exponential (AdaBoost)",
        "margin_tanh": "1 − tanh(m) (Doom II)"}
STOP = {"none": "none: all N steps", "validation": "validation error (hold out 20%)",
        "bound": "Theorem 3 bound minimum"}
MIX = {"single": "one kernel", "widths": "three widths (σ/2, σ, 2σ)",
       "types": "three kernel types (Gaussian, Laplacian, polynomial)"}
ALL = "all features"
COMPARE = {"fittings": "fittings (Fig. 6)", "losses": "squared vs tanh loss (Fig. 7)"}


def kmp_n_max(ctx) -> int:
    """The validation stop fits on 80% of the training rows: N must fit there too."""
    m = n_train(ctx) or 100
    return max(1, min(m - math.ceil(0.2 * m), 100))


_classification = lambda c: _task(c) == "classification"  # noqa: E731

KMP = Schema("kmp", [
    *data_fields(dataset_options(("classification", "regression"))),
    Field("kmp.feature", "Regression on", "choice", ALL,
          options=lambda c: (ALL, *feature_names(c)), widget="selectbox",
          applies=lambda c: _task(c) == "regression" and len(feature_names(c)) > 1,
          depends=("dataset",),
          help="One feature gives a 1-D fit you can see (Boston's MEDV against LSTAT, say); "
               "all features is the paper's Boston regression."),
    *kernel_fields(allow_sigmoid=True),
    test_field(),
    k_field(kmp_n_max, default=20, label="N: number of basis functions (steps)"),
    Field("kmp.fitting", "Fitting", "choice", "prefit", options=tuple(FITTING), labels=FITTING,
          widget="selectbox", section="Kernel matching pursuit"),
    Field("kmp.loss", "Loss", "choice", "squared", options=tuple(LOSS), labels=LOSS,
          widget="selectbox", applies=_classification,
          help="Section 3: a non-squared loss uses the gradient as residue, a line search for "
               "the weight and periodic back-fitting (Fig. 4)."),
    Field("kmp.backfit_every", "Back-fit all weights every p steps", "int", 1, lo=1, hi=10,
          applies=lambda c: c.get("kmp.loss", "squared") != "squared"
          and c["kmp.fitting"] != "basic",
          help="Fig. 4: re-optimise every weight (Eq. 11) every p steps."),
    Field("kmp.stop", "Early stopping", "choice", "none", options=tuple(STOP), labels=STOP,
          widget="selectbox"),
    Field("kmp.dict", "Dictionary", "choice", "single", options=tuple(MIX), labels=MIX,
          widget="selectbox",
          help="Section 4.1: every training point can offer several kernel shapes; the pursuit "
               "picks shape and centre together."),
    # only the classes of the training split: one-vs-rest trains no pursuit for the others
    Field("kmp.class", "One-vs-rest: show the pursuit of class", "choice",
          lambda c: str(train_class_labels(c)[0]),
          options=lambda c: tuple(map(str, train_class_labels(c))), widget="selectbox",
          applies=lambda c: _classification(c) and len(train_class_labels(c)) > 2,
          depends=("dataset",)),
    Field("kmp.scale", "Draw the bound divided by", "float", 1.0,
          options=(1.0, 2.0, 5.0, 10.0, 20.0), widget="select_slider",
          help="Hussain & Shawe-Taylor's Figure 2 divides the bound by 5."),
    speed_field("kmp", options=(2, 4, 6, 8, 12)),
    Field("kmp.quiz", "Quiz: predict the next pick", "bool", False, widget="toggle",
          help="Before each step, guess which training point becomes the next basis function "
               "(type its index), then reveal the step: your guess, the choice and how well "
               "each matches the residue."),
    Field("kmp.C", "SVM box constraint C", "float", 100.0,
          options=(0.1, 1.0, 10.0, 100.0, 1000.0), widget="select_slider",
          section="Comparison with the SVM",
          help="Large C approximates the paper's hard-margin SVM."),
    Field("kmp.compare", "Compare", "choice", "fittings", options=tuple(COMPARE),
          labels=COMPARE, widget="radio", applies=_classification),
    Field("kmp.svm_n", "KMP uses the SVM's number of support vectors", "bool", True,
          widget="toggle"),
    Field("kmp.basic_n", "Steps of basic KMP", "int",
          lambda c: min(100, max(1, n_train(c) or 100)), lo=1,
          hi=lambda c: max(1, n_train(c) or 100),
          help="The paper ran basic KMP for 100 steps."),
    Field("kmp.tab", "Tab", "choice", KMP_TABS[0], options=KMP_TABS, widget="page"),
    step_field(lambda c: c["k"]),
    PRESENT,
])

# ---------------------------------------------------------------- eigenvalues

SPECTRUM_K_MAX = 300  # largest Nyström subset offered (the greedy choice costs O(m² k))


def _m(ctx) -> int:
    return n_rows(ctx) or 100


SPECTRUM = Schema("spectrum", [
    *data_fields(dataset_options(), default="boston"),
    *kernel_fields(),
    k_field(lambda c: min(_m(c), SPECTRUM_K_MAX), default=50, label="Nyström: k columns of K",
            section="Approximations"),
    k_field(_m, default=100, key="spectrum.q", label="EKM: sketch size q"),
    k_field(lambda c: min(N_EIG_MAX, _m(c) - 1), default=10, key="spectrum.n_eig",
            label="Top n eigenvalues compared"),
])

# ---------------------------------------------------------------- sparse kernel CCA

KCCA_REGS = (1e-4, 1e-3, 1e-2, 0.1, 0.5)


def _kcca_train(ctx) -> int:
    n = int(ctx["kcca.n"])
    return n - math.ceil(float(ctx["test"]) * n)


KCCA = Schema("kcca", [
    Field("kcca.n", "Number of pairs n", "int", 300, lo=20, hi=1000, step=10,
          section="Two-view data"),
    Field("kcca.noise", "Noise (std in each view)", "float", 0.1, lo=0.0, hi=0.5),
    Field("seed", "Seed", "int", 0, lo=0, hi=10**6, widget="number"),
    test_field(label="Held-out fraction"),
    Field("kcca.sigma_x", "Width σ of view X", "float", 0.5, options=SIGMAS,
          widget="select_slider", section="Gaussian kernel in each view"),
    Field("kcca.sigma_y", "Width σ of view Y", "float", 0.5, options=SIGMAS,
          widget="select_slider"),
    Field("kcca.reg", "Regularisation τ", "float", 1e-3, options=KCCA_REGS,
          widget="select_slider", help="Each view's covariance C becomes (1 − τ) C + τ I."),
    speed_field("kcca"),
    k_field(lambda c: min(_kcca_train(c), 60), default=15, key="kcca.k", label="Basis pairs k"),
    step_field(lambda c: c["kcca.k"]),
    PRESENT,
])

# ---------------------------------------------------------------- bounds

BOUNDS_SIGMA = {"boston": 2.0, "gaussian_toy": 30.0}
DELTAS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.2, 0.5)

BOUNDS = Schema("bounds", [
    *data_fields(dataset_options(), default="boston"),
    *kernel_fields(sigma_default=lambda c: BOUNDS_SIGMA.get(c["dataset"],
                                                            DEFAULT_SIGMA.get(c["dataset"], 1.0))),
    Field("test", "Test fraction", "float", 0.1, lo=0.1, hi=0.5, step=0.05, section="Bounds"),
    k_field(lambda c: min((n_train(c) or 301) - 1, 300), default=100, key="bounds.kmax",
            label="K_max: largest number of basis vectors k"),
    Field("bounds.delta", "Confidence parameter δ", "float", 0.05, options=DELTAS,
          widget="select_slider", help="Each bound holds with probability at least 1 - δ."),
    Field("bounds.terms", "Show each bound's term at t = k", "bool", True, widget="toggle",
          help="Dotted: the expression inside the min over t. Its lowest point is k*."),
])



# ---------------------------------------------------------------- reproduce

REPRODUCE_SIZES = {"quick": "reduced sizes, seconds (as --quick)",
                   "full": "the command's defaults, minutes"}


@lru_cache(maxsize=1)
def reproduce_schema() -> Schema:
    """Run size, and each experiment's declared controls at their quick defaults."""
    from experiments import EXPERIMENTS

    fields = [Field("reproduce.size", "Run size", "choice", "quick",
                    options=tuple(REPRODUCE_SIZES), labels=REPRODUCE_SIZES, widget="radio",
                    section="Run size",
                    help="Quick: fewer splits and smaller sets (what `--quick` runs). Full: the "
                         "settings of `python -m experiments` (Table 3 with 50 splits takes "
                         "a few minutes the first time; results stay cached for an hour).")]
    shown = {e.key: f"{i}. {e.title}" for i, e in enumerate(EXPERIMENTS.values(), start=1)}
    fields.append(Field("reproduce.show", "Experiment shown", "choice", next(iter(shown)),
                        options=(*shown, "all"),
                        labels={**shown, "all": f"All {len(shown)} (slowest to draw)"},
                        widget="page",
                        help="Every experiment is computed for the summary; one is drawn at a "
                             "time so the page stays quick on a projector and a phone."))
    for exp in EXPERIMENTS.values():
        for name, label, options in exp.controls:
            key = f"reproduce.{exp.key}.{name}"

            def default(c, exp=exp, name=name):
                return getattr(exp.default_settings(c["reproduce.size"] != "full"), name)

            kind = "int" if all(isinstance(o, int) for o in options) else (
                "float" if all(isinstance(o, (int, float)) for o in options) else "choice")
            fields.append(Field(key, label, kind, default, options=tuple(options),
                                widget="page", depends=("reproduce.size",)))
    return Schema("reproduce", fields)


ALL_SCHEMAS = {s.page: s for s in (SKPCA, KMP, SPECTRUM, KCCA, BOUNDS)}
