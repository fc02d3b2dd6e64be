"""The fields shared by several pages (data, kernel, sparsity, split), declared once.

Pure Python (no Streamlit): the schemas built from these are tested directly.
"""

from __future__ import annotations

import math

import datasets

from .state import Field

#: Width grid offered for Gaussian / Laplacian kernels (log-spaced).
SIGMAS = (0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0, 7.0, 10.0, 15.0, 20.0,
          30.0, 50.0, 100.0)
GAMMAS = (0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
COEF0S = (-1.0, 0.0, 0.5, 1.0, 2.0)
KERNEL_LABELS = {
    "rbf": "Gaussian (rbf)", "laplacian": "Laplacian", "polynomial": "Polynomial",
    "linear": "Linear", "cosine": "Cosine", "sigmoid": "Sigmoid (not PSD)",
}
CSV = "csv upload"

#: Largest training set the app accepts (memory and latency stay bounded per session).
MAX_APP_SAMPLES = 3000

#: Recommended width per data set (standardised features): about the median
#: pairwise distance divided by two, rounded onto the SIGMAS grid.
DEFAULT_SIGMA = {
    "moons": 0.5, "circles": 0.5, "blobs": 1.0, "xor": 0.5, "spirals": 0.3, "sine": 0.5,
    "gaussian_toy": 30.0, "boston": 3.0, "breast_cancer": 5.0, "digits": 7.0, "diabetes": 3.0,
    "far_cluster": 1.0, "two_view": 1.0, CSV: 1.0,
}
#: Classes of the 2-D data sets where points can be added by clicking.
CLICK_CLASSES = {"blobs": (0, 1, 2)}


def dataset_options(tasks=("classification", "regression", "unsupervised"), *,
                    allow_csv=True, two_d_only=False) -> tuple:
    options = [n for n in datasets.names() if datasets.info(n).task in tasks]
    if two_d_only:
        options = [n for n in options if datasets.info(n).kind == "synthetic"
                   and n != "gaussian_toy"]
    if allow_csv:
        options.append(CSV)
    return tuple(options)


def _entry(ctx):
    return datasets.info(ctx["dataset"])


def n_max(ctx) -> int:
    e = _entry(ctx)
    return min(e.max_n if e.kind == "synthetic" else e.default_n, MAX_APP_SAMPLES)


def clickable(name: str) -> bool:
    """2-D synthetic classification data: points can be added by clicking."""
    if name == CSV:
        return False
    e = datasets.info(name)
    return e.kind == "synthetic" and e.task == "classification" and name != "gaussian_toy"


def n_rows(ctx) -> int | None:
    """Rows of the data described by ``ctx`` (None for an upload: known only once read)."""
    if ctx.get("dataset") == CSV:
        return ctx.get("_rows")
    return int(ctx["n"]) + len(ctx.get("pts", ()))


def n_train(ctx, test_key="test") -> int | None:
    """Training rows after the split: scikit-learn's rule, n_test = ceil(test * n)."""
    rows = n_rows(ctx)
    if rows is None:
        return None
    return rows - math.ceil(float(ctx[test_key]) * rows)


def data_fields(options: tuple, default: str | None = None, *, sigma_default=None) -> list[Field]:
    """Data set, size, noise, variance ratio, seed, standardisation, clicked points."""
    default = default if default in options else options[0]
    not_csv = lambda c: c["dataset"] != CSV  # noqa: E731
    return [
        Field("dataset", "Data set", "choice", default, options=options, widget="selectbox",
              section="Data",
              help="Changing the data set resets its size, noise, width and added points to "
                   "that data set's defaults."),
        Field("n", "Number of points n", "int", lambda c: min(_entry(c).default_n, n_max(c)),
              lo=lambda c: _entry(c).min_n, hi=n_max, step=None, applies=not_csv,
              depends=("dataset",), help="Bundled tables: a seeded random subset of this size."),
        Field("noise", "Noise", "float", lambda c: float(_entry(c).default_noise), lo=0.0, hi=1.0,
              applies=lambda c: c["dataset"] != CSV and _entry(c).default_noise is not None,
              depends=("dataset",)),
        Field("ratio", "Variance ratio of the 50 large directions", "float", 10.0, lo=1.0,
              hi=100.0, applies=lambda c: c["dataset"] == "gaussian_toy"),
        Field("seed", "Seed", "int", 0, lo=0, hi=10**6, widget="number"),
        Field("std", "Standardise features", "bool", True, widget="checkbox",
              help="Scale every feature to zero mean and unit variance."),
        # an upload view's file by name: a link or a reload asks for it (the data is not
        # in the link)
        Field("file", "Uploaded file", "name", "", widget="none",
              applies=lambda c: c["dataset"] == CSV),
        Field("pts", "Added points", "points", (), widget="none",
              options=lambda c: CLICK_CLASSES.get(c["dataset"], (0, 1)),
              applies=lambda c: clickable(c["dataset"]), depends=("dataset",)),
    ]


def _default_sigma(c) -> float:
    """The data set's recommended width; an upload's follows its own scale (half the median
    distance between two points, views.data.default_sigma)."""
    scale = c.get("_scale") if c.get("dataset") == CSV else None
    if scale:
        from views.data import default_sigma

        return default_sigma(scale[0 if c.get("std", True) else 1], SIGMAS)
    return DEFAULT_SIGMA.get(c.get("dataset"), 1.0)


def kernel_fields(*, allow_sigmoid=False, kernels=None, sigma_default=None) -> list[Field]:
    """Kernel and its parameters; sigma's default follows the data set."""
    names = [n for n in (kernels or KERNEL_LABELS) if allow_sigmoid or n != "sigmoid"]
    sigma_default = sigma_default or _default_sigma
    width = lambda c: c["kernel"] in ("rbf", "laplacian")  # noqa: E731
    dot = lambda c: c["kernel"] in ("polynomial", "sigmoid")  # noqa: E731
    return [
        Field("kernel", "Kernel", "choice", names[0], options=tuple(names), widget="selectbox",
              labels={n: KERNEL_LABELS[n] for n in names}, section="Kernel"),
        Field("sigma", "Width sigma", "float", sigma_default, options=SIGMAS,
              widget="select_slider", applies=width,
              depends=("dataset", "_scale") if sigma_default is not None else ()),
        Field("gamma", "gamma", "float", 0.1, options=GAMMAS, widget="select_slider", applies=dot),
        Field("degree", "Degree", "int", 3, lo=1, hi=10,
              applies=lambda c: c["kernel"] == "polynomial"),
        Field("coef0", "coef0", "float", 1.0, options=COEF0S, widget="select_slider", applies=dot),
    ]


def test_field(default=0.3, label="Test fraction") -> Field:
    return Field("test", label, "float", default, lo=0.1, hi=0.5, step=0.05)


def k_field(hi, default=20, key="k", label="Sparsity k (basis vectors)", **kw) -> Field:
    """A sparsity slider whose maximum ``hi(ctx)`` follows the data."""
    return Field(key, label, "int", lambda c: min(default, max(1, hi(c))), lo=1,
                 hi=lambda c: max(1, hi(c)), **kw)


def speed_field(page: str, options=(1, 2, 4, 6, 8, 12), default=2) -> Field:
    """Play speed, frames per second. The default, 2, holds each step half a second: a
    12-step run lasts 6 s, long enough for a lecturer to press space on the step to talk
    about (at 8 frames/s it is over in 1.5 s)."""
    return Field(f"{page}.speed", "Play speed (frames/s)", "int", default, options=options,
                 widget="select_slider")


def step_field(hi) -> Field:
    """The step j of an animated page (Play, Pause, Step and the equations share it)."""
    return Field("j", "Step", "int", 1, lo=1, hi=lambda c: max(1, hi(c)), widget="none")
