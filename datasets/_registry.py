"""Name -> loader, task, defaults, description and source of every data set."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from . import _synthetic


@dataclass(frozen=True)
class Entry:
    task: str
    kind: str  # "synthetic" (n_samples/noise apply) or "fixed" (bundled table)
    description: str
    source: str
    default_n: int | None = None
    default_noise: float | None = None
    min_n: int = 10
    max_n: int = 5000
    generator: Callable | None = None


BOSTON_DESCRIPTION = (
    "Boston housing: 506 census tracts of the Boston area (1970), 13 features "
    "(CRIM, ZN, INDUS, CHAS, NOX, RM, AGE, DIS, RAD, TAX, PTRATIO, B, LSTAT) and the "
    "target MEDV, the median home value in $1000s. The data set of Hussain & "
    "Shawe-Taylor's Figures 1 and 2. Caveat: the column B = 1000(Bk - 0.63)^2, with Bk "
    "the proportion of Black residents, encodes a racially motivated assumption of the "
    "original study; it is kept here only to reproduce the published experiments. "
    "MEDV is censored at 50."
)

REGISTRY: dict[str, Entry] = {
    "moons": Entry("classification", "synthetic",
                   "Two interleaving half circles (2-D, 2 classes).",
                   "scikit-learn make_moons", 200, 0.2, generator=_synthetic.moons),
    "circles": Entry("classification", "synthetic",
                     "A small circle inside a large one (2-D, 2 classes).",
                     "scikit-learn make_circles (factor 0.5)", 200, 0.1,
                     generator=_synthetic.circles),
    "blobs": Entry("classification", "synthetic",
                   "Three Gaussian clusters (2-D, 3 classes); noise is the cluster std.",
                   "scikit-learn make_blobs", 200, 0.8, generator=_synthetic.blobs),
    "xor": Entry("classification", "synthetic",
                 "Uniform square, label = sign(x1) != sign(x2) (2-D, 2 classes).",
                 "generated", 200, 0.1, generator=_synthetic.xor),
    "spirals": Entry("classification", "synthetic",
                     "Two interleaved spirals (2-D, 2 classes).", "generated", 300, 0.05,
                     generator=_synthetic.spirals),
    "sine": Entry("regression", "synthetic",
                  "y = sin(x) + Gaussian noise, x uniform on [-pi, pi] (1-D regression).",
                  "generated", 100, 0.1, generator=_synthetic.sine),
    "gaussian_toy": Entry("unsupervised", "synthetic",
                          "Hussain & Shawe-Taylor Figure 1 (right): 1000 zero-mean Gaussian "
                          "points in 450 dimensions, 50 random orthogonal directions with "
                          "variance_ratio (default 10) times the variance of the other 400.",
                          "generated", 1000, None, min_n=50, max_n=5000),
    "boston": Entry("regression", "fixed", BOSTON_DESCRIPTION,
                    "Harrison, D. and Rubinfeld, D.L. (1978) Hedonic prices and the demand for "
                    "clean air, J. Environ. Economics & Management 5, 81-102; StatLib "
                    "(lib.stat.cmu.edu/datasets/boston). Shipped as datasets/data/boston.csv.",
                    506),
    "breast_cancer": Entry("classification", "fixed",
                           "Wisconsin diagnostic breast cancer: 569 x 30, 2 classes (the "
                           "diagnostic set, not the 699 x 9 original of Vincent & Bengio's "
                           "Table 3).", "scikit-learn load_breast_cancer (UCI)", 569),
    "digits": Entry("classification", "fixed",
                    "8 x 8 handwritten digits: 1797 x 64, 10 classes (a small stand-in for USPS).",
                    "scikit-learn load_digits (UCI)", 1797),
    "diabetes": Entry("regression", "fixed",
                      "Diabetes progression: 442 x 10, regression.",
                      "scikit-learn load_diabetes (Efron et al. 2004)", 442),
}

REGISTRY["far_cluster"] = Entry(
    "classification", "synthetic",
    "Vincent & Bengio Figure 7 situation (2-D, 2 classes): two close clusters and a far "
    "cluster of the second class on its correct side. Linearly separable, yet a linear "
    "least-squares fit misclassifies points; the tanh loss and a linear SVM do not.",
    "generated (after Vincent & Bengio 2002, Fig. 7)", 120, 0.3, min_n=20,
    generator=_synthetic.far_cluster,
)
