r"""What a lesson's beat shows on the kernel-matching-pursuit page, from the beat's field values.

A lesson declares its view with the page's own fields (``pages.common.schemas.KMP``); this
module fits what the page fits with the same :mod:`views.kmp` functions (the estimator of
:func:`views.kmp.fit_kmp`, the staged path of :func:`views.kmp.staged`, the curves of
:func:`views.kmp.kmp_curves`, the comparison of :func:`views.kmp.compare`) and draws the
page's :mod:`mpcore.plots` figure of the beat's tab: the decision surface or 1-D fit
animation (Vincent & Bengio (2002), Figures 1-4), the comparison with the SVM (Figures 6
and 7), the error and bound curves (Hussain & Shawe-Taylor (2008), Theorem 3 and Figure 2)
or the margin losses (Figure 5). No Streamlit here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

import datasets
from mpcore.kmp import pursuit

from . import data as _data
from . import kmp as _kmp
from .lesson_scene import data_choice, kernel_choice

__all__ = ["KMPScene", "kmp_scene", "KMP_PANELS", "FITTINGS", "TABS"]

#: The KMP page's tabs (pages.common.schemas.KMP_TABS, repeated: views never import pages).
TABS = ("Decision surface / fit", "Compare with SVM (Fig. 6, 7)", "Error and bound curves",
        "Losses (Fig. 5)")
#: The three fittings of Vincent & Bengio, in the order of the paper.
FITTINGS = ("basic", "backfit", "prefit")
FITTING_NAMES = {"basic": "basic", "backfit": "back-fitting", "prefit": "pre-fitting"}
#: The panels a phone offers one at a time (axis suffix -> name), as the page's.
KMP_PANELS = {"": "Fit", "2": "Basis functions"}
FIGURE_HEIGHT = 640
#: The "Regression on" value that keeps every feature (pages.common.schemas.ALL).
ALL = "all features"


@dataclass(frozen=True, eq=False)
class KMPScene:
    """The KMP page in one state: its split, its fit, and the same fit with other settings."""

    values: Mapping
    task: str
    X: np.ndarray
    y: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    names: tuple
    target_name: str | None

    # ------------------------------------------------------------ the state

    @property
    def kern(self) -> _data.KernelChoice:
        return kernel_choice(self.values)

    @property
    def seed(self) -> int:
        return int(self.values["seed"])

    @property
    def m(self) -> int:
        return len(self.X)

    @property
    def k(self) -> int:
        """N, the steps asked for."""
        return int(self.values["k"])

    @property
    def j(self) -> int:
        """The step shown (1-based), at most the steps the fit kept."""
        return min(max(int(self.values.get("j", self.k)), 1), self.n_kept)

    @property
    def tab(self) -> str:
        return self.values.get("kmp.tab", TABS[0])

    @property
    def fitting(self) -> str:
        return self.values["kmp.fitting"]

    @property
    def loss(self) -> str:
        return self.values.get("kmp.loss", "squared") if self.task == "classification" else "squared"

    @property
    def feature(self) -> str | None:
        f = self.values.get("kmp.feature", ALL)
        return None if f == ALL else f

    @property
    def settings(self) -> _kmp.KMPSettings:
        return _kmp.KMPSettings(n_basis=self.k, fitting=self.fitting, loss=self.loss,
                                backfit_every=int(self.values.get("kmp.backfit_every", 1)),
                                mix=self.values.get("kmp.dict", "single"), feature=self.feature)

    # ------------------------------------------------------------ fits

    def fit(self, **changes):
        """The page's estimator fitted with ``changes`` to its settings (fitting, loss,
        n_basis), every step run (no early stopping), cached per setting."""
        s = replace(self.settings, **changes)
        cache = self.__dict__.setdefault("_fits", {})
        if s not in cache:
            cache[s] = _kmp.fit_kmp(self.X, self.y, self.task, self.kern, s, None, self.seed)[0]
        return cache[s]

    @cached_property
    def model(self):
        return self.fit()

    @property
    def n_kept(self) -> int:
        return int(len(pursuit(self.model, None).basis_indices_))

    def basis(self, **changes) -> np.ndarray:
        """Training index of each step's basis function (-1: the constant)."""
        return np.asarray(pursuit(self.fit(**changes), None).basis_indices_, dtype=int)

    def train_predictions(self, **changes) -> np.ndarray:
        """Predictions (regression) or decision values (classification) on the training
        points after each step, shape (steps, m)."""
        model = self.fit(**changes)
        if self.task == "classification":
            from mpcore.kmp import staged_values

            return np.asarray(staged_values(model, self.X, None))
        return np.asarray(list(model.staged_predict(self.X)))

    def train_error(self, t: int, **changes) -> float:
        """Training error after t steps: misclassification rate, or mean squared error."""
        model = self.fit(**changes)
        staged = list(model.staged_predict(self.X))
        t = max(1, min(t, len(staged)))
        if self.task == "classification":
            return float(np.mean(staged[t - 1] != self.y))
        return float(np.mean((staged[t - 1] - self.y) ** 2))

    @cached_property
    def curves(self):
        """views.kmp_curves.KMPCurves of the page's settings (every step, scored)."""
        return _kmp.kmp_curves(self.X, self.y, self.X_test, self.y_test, self.task, self.kern,
                               self.settings, self.seed)[0]

    @cached_property
    def stops(self) -> dict:
        """The steps kept by each stopping rule, and the step of the lowest test error."""
        val = _kmp.fit_kmp(self.X, self.y, self.task, self.kern, self.settings, "validation",
                           self.seed)[0]
        bnd = _kmp.fit_kmp(self.X, self.y, self.task, self.kern, self.settings, "bound",
                           self.seed)[0]
        return dict(validation=int(pursuit(val, None).n_basis_),
                    bound=int(pursuit(bnd, None).n_basis_),
                    test=int(np.argmin(self.curves.test_error)) + 1,
                    validation_error=np.asarray(pursuit(val, None).validation_error_))

    def comparison(self, mode: str) -> dict:
        """views.kmp.compare (Figure 6: "fittings"; Figure 7: "losses") of this view."""
        cache = self.__dict__.setdefault("_cmp", {})
        if mode not in cache:
            n = None if self.values.get("kmp.svm_n", True) else self.k
            cache[mode] = _kmp.compare(
                self.X, self.y, self.X_test, self.y_test, task=self.task, kern=self.kern,
                s=self.settings, C=float(self.values.get("kmp.C", 100.0)), mode=mode,
                n_basis=n, basic_n=min(int(self.values.get("kmp.basic_n", 100)), self.m),
                seed=self.seed, fit=lambda s: (self.fit(**{f: getattr(s, f) for f in
                                                           ("fitting", "loss", "n_basis")}), ()))
        return cache[mode]

    # ------------------------------------------------------------ the figure

    def shown(self, k: int | None = None, j: int | None = None) -> tuple[int, int]:
        """The steps the animation shows and the step it opens on (default: the state's)."""
        n = self.n_kept
        k = n if k is None else max(1, min(int(k), n))
        j = self.j if j is None else max(1, min(int(j), k))
        return k, j

    def figure(self) -> dict:
        """The page's figure of the beat's tab, as a plotly dict (the animation over every
        kept step: the app cuts it to the steps shown)."""
        tab = self.tab
        if tab == TABS[2]:
            return self._curves_figure()
        if tab == TABS[3]:
            from mpcore._losses import loss_functions
            from mpcore.plots import margin_loss_figure

            return margin_loss_figure(loss_functions(), selected=self.loss).to_plotly_json()
        if tab == TABS[1]:
            mode = self.values.get("kmp.compare", "fittings") if self.task == "classification" \
                else "fittings"
            fig = _kmp.comparison_figure(self.comparison(mode), self.X, self.y,
                                         x_label=self.feature or self.names[0],
                                         y_label=self.target_name or "y")
            if fig is not None:
                return fig.to_plotly_json()
        v = _kmp.staged(self.model, self.X, self.X_test)
        fig = _kmp.animation(self.model, v, self.X, self.y, self.X_test, self.y_test,
                             task=self.task, names=self.names, target_name=self.target_name)
        return dict(fig, layout=dict(fig["layout"], height=FIGURE_HEIGHT))

    def _curves_figure(self) -> dict:
        from mpcore.plots import (BOUND_STOP, TEST_ERR, TEST_MIN, TRAIN_ERR, VAL_ERR, VAL_STOP,
                                  kmp_curves_figure)

        c, st = self.curves, self.stops
        path = c.paths[0]
        clf = self.task == "classification"
        errors = {TRAIN_ERR: c.train_error, TEST_ERR: c.test_error,
                  VAL_ERR: st["validation_error"]}
        markers = {VAL_STOP: st["validation"], BOUND_STOP: st["bound"], TEST_MIN: st["test"]}
        fig = kmp_curves_figure(
            errors, bound=path.bound, bound_scale=float(self.values.get("kmp.scale", 1.0)),
            exceed=path.test_exceed, t_fraction=path.n_errors / c.m, markers=markers,
            error_title="Misclassification rate" if clf else "Mean squared error",
            exceed_title=("test misclassification rate" if clf else
                          f"fraction of test points with |f(x) − y| > α = {c.alpha:.3g}"),
            bound_title=("Theorem 3 bound on<br>the misclassification rate" if clf else
                         f"Theorem 3 bound on<br>P(|f(x) − y| > α), α = {c.alpha:.3g}"))
        return fig.to_plotly_json()

    def caption(self, k: int | None = None, j: int | None = None) -> str:
        """What the figure's colours, axes and markers mean, with this view's numbers."""
        tab = self.tab
        what = (f"{self.m} training points, {len(self.y_test)} test points, "
                f"{self.kern.label()}, {FITTING_NAMES[self.fitting]}")
        if tab == TABS[2]:
            c, st = self.curves, self.stops
            b = np.asarray(c.paths[0].bound, dtype=float)
            scale = float(self.values.get("kmp.scale", 1.0))
            drawn = f" drawn divided by {scale:g}" if scale != 1 else ""
            about = ("the test misclassification rate it bounds" if c.alpha is None else
                     f"the share of test points with |f(x) − y| > α = {c.alpha:.3g}, what it "
                     "bounds")
            return (f"x axis: k, the number of basis functions. Top: training, test and "
                    f"validation error (the pursuit run on 80% of the training points, scored "
                    f"on the other 20%). Bottom: the Theorem 3 bound{drawn} (its lowest value "
                    f"{np.nanmin(b[np.isfinite(b)]):.3g} at k = {st['bound']}), {about}, and "
                    f"t/m, the training errors outside the basis; dashed: the bound = 1, above "
                    f"which it says nothing. Vertical markers: validation stop k = "
                    f"{st['validation']}, bound stop k = {st['bound']}, lowest test error k = "
                    f"{st['test']}. {what}.")
        if tab == TABS[3]:
            return ("Vincent & Bengio, Figure 5: each loss against the margin y·f(x) (x axis; "
                    "right of 0 is correct, far right is very confident); y axis: the loss. "
                    "Left: margin losses (logistic, exponential, 1 − tanh; dashed: the SVM's hinge "
                    "[1 − m]+); right: the squared "
                    "error (1 − m)², which rises again for large margins, and the squared error "
                    "after tanh. Thick: the loss in use, "
                    f"{self.loss}.")
        if tab == TABS[1]:
            mode = self.values.get("kmp.compare", "fittings") if self.task == "classification" \
                else "fittings"
            rows = self.comparison(mode)["rows"]
            metric = "accuracy" if self.task == "classification" else "RMSE"
            fmt = (lambda x: f"{x:.0%}") if self.task == "classification" else (lambda x: f"{x:.3g}")
            parts = "; ".join(f"{r['method']}: {r['distinct_basis_points']} points, test "
                              f"{metric} {fmt(r['test'])}" for r in rows)
            return ("Each panel is one model. Colour: its decision value f(x), blue on class "
                    "0's side and orange on class 1's, paler near the boundary; black line: "
                    "f(x) = 0, the boundary; dots and diamonds: the training points by class; "
                    f"circled: the model's basis points (KMP) or support vectors (SVM). {parts}.")
        k, j = self.shown(k, j)
        basis = self.basis()[:j]
        distinct = int(np.unique(basis[basis >= 0]).size)
        const = " and the constant function" if np.any(basis < 0) else ""
        err = self.train_error(j)
        if self.task == "classification" and self.X.shape[1] == 2:
            head = ("Colour: the decision value f(x) after step {j}, blue on class 0's side and "
                    "orange on class 1's, paler near the boundary; black line: f(x) = 0, the "
                    "boundary; markers: the points by class (filled: training, open: test); "
                    "rings: the chosen basis points, labelled with the step of their first pick "
                    "(×c: picked c times).")
            score = f"training misclassification {err:.1%}"
        elif self.task == "regression" and self.X.shape[1] > 1:
            head = ("Each point (filled: training, open: test) at its true target (x axis) and "
                    "its prediction after step {j} (y axis); on the diagonal a prediction is "
                    "exact; rings: the chosen basis points.")
            score = f"training mean squared error {err:.4g}"
        elif self.task == "classification":
            head = ("The decision value f(x) of each test point after step {j}, by class: right "
                    "of 0 it is predicted positive.")
            score = f"training misclassification {err:.1%}"
        else:
            head = ("Top: the data (filled dots: training, open: test) and the fit f(x) after "
                    "step {j}; rings: the chosen basis points, labelled with the step of their "
                    "first pick (×c: picked c times). Bottom: each step's term α_n K(x, x_γn) "
                    "with its current weight" + ("; grey dashed: the constant term." if const else
                                                 "."))
            score = f"training mean squared error {err:.4g}"
        if self.n_kept < self.k:
            what += (f"; the pursuit stopped after {self.n_kept} of N = {self.k} steps (every "
                     "function left is, to rounding, a combination of the chosen ones)")
        return (head.format(j=j) + f" After {j} step{'s' if j > 1 else ''}: {distinct} distinct "
                f"basis point{'s' if distinct != 1 else ''}{const}, {score}. {what}.")


def kmp_scene(values: Mapping, k_max: int | None = None) -> KMPScene:
    """Compute the KMP page's split and settings for a state's ``values`` (bundled data).

    ``k_max`` is accepted for the Learn page's one scene signature; the fit runs the
    view's N steps, as the page does.
    """
    if values["dataset"] not in datasets.names():
        raise ValueError(f"A lesson shows bundled data only, not {values['dataset']!r}.")
    choice = data_choice(values)
    d = _data.load(choice)
    if d.task not in ("classification", "regression"):
        raise ValueError("Kernel matching pursuit fits a target: this data set has none.")
    tr, te = _data.split(d, values["test"], choice.seed)
    f = values.get("kmp.feature", ALL)
    X, y, Xt, yt, names = _kmp.feature_split(d, tr, te, None if f == ALL else f)
    return KMPScene(values=dict(values), task=d.task, X=np.asarray(X), y=np.asarray(y),
                    X_test=np.asarray(Xt), y_test=np.asarray(yt), names=tuple(names),
                    target_name=getattr(d, "target_name", None))
