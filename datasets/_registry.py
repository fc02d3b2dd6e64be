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
    #: False for the tables kept for the paper reproductions only (not offered on the
    #: pages; ``names(experiments=True)`` lists them).
    on_pages: bool = True
    #: The shipped CSV (datasets/data) of a fixed table read by ``_table``.
    file: str | None = None


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


_UCI = ("UCI Machine Learning Repository (Dua & Graff), licence CC BY 4.0. See "
        "datasets/data/PROVENANCE.md for the package the file was taken from and the checks.")

#: The four UCI sets of Vincent & Bengio's Table 3, for the experiments only.
REGISTRY["wisconsin_original"] = Entry(
    "classification", "fixed",
    "Wisconsin breast cancer, original (Wolberg & Mangasarian 1990): 699 samples, 9 cytological "
    "features scored 1-10, 458 benign (0) / 241 malignant (1). 16 samples miss 'bare nuclei'; "
    "load() drops them (683 rows, 444 / 239), as the data sets' common 683-row versions do. "
    "The data of Vincent & Bengio's Table 3, first row.",
    "Wolberg, W.H. (1992) Breast Cancer Wisconsin (Original), " + _UCI, 683,
    on_pages=False, file="wisconsin_original.csv")
REGISTRY["sonar"] = Entry(
    "classification", "fixed",
    "Sonar, mines vs. rocks (Gorman & Sejnowski 1988): 208 sonar returns, 60 band energies in "
    "[0, 1], 111 mines (1) / 97 rocks (0). Values rounded to 3 decimals (the UCI file has 4).",
    "Sejnowski, T. and Gorman, R.P. Connectionist Bench (Sonar, Mines vs. Rocks), " + _UCI, 208,
    on_pages=False, file="sonar.csv")
REGISTRY["pima"] = Entry(
    "classification", "fixed",
    "Pima Indians diabetes (Smith et al. 1988): 768 women, 8 features (pregnancies, glucose, "
    "blood pressure, skin thickness, insulin, BMI, pedigree, age; zeros stand for missing "
    "measurements, as in the UCI file), 500 negative (0) / 268 positive (1).",
    "National Institute of Diabetes and Digestive and Kidney Diseases, Pima Indians Diabetes "
    "Database, " + _UCI, 768, on_pages=False, file="pima.csv")
REGISTRY["ionosphere"] = Entry(
    "classification", "fixed",
    "Ionosphere radar returns (Sigillito et al. 1989): 351 returns, 34 features in [-1, 1] "
    "(the second is constant 0), 225 good (1) / 126 bad (0).",
    "Sigillito, V. Ionosphere, " + _UCI, 351, on_pages=False, file="ionosphere.csv")
