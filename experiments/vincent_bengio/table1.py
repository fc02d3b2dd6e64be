r"""Vincent & Bengio [1]_, Table 1 in spirit: one-against-the-rest digits
(scikit-learn's 8 x 8 digits standing in for USPS), ``vb_table1_digits``.

References
----------
.. [1] P. Vincent, Y. Bengio. Kernel matching pursuit. Machine Learning 48,
   165-187, 2002.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
from sklearn.svm import SVC

import datasets
from mpcore.kmp import KMPClassifier
from mpcore.plots import digit_errors_figure
from views.data import split

from .._common import Result, check_positive, plain, progress_reporter
from ..verdicts import check_value
from ._paper import VB


# ---------------------------------------------------------------------------------------
# Vincent & Bengio, Table 1 in spirit: digits for USPS
# ---------------------------------------------------------------------------------------

#: Below this many SVM test errors in total, Table 1's ratios are called noisy.
NOISY_ERROR_COUNT = 50
#: Table 1 (USPS, 2007 test patterns): per digit 0..9.
PUBLISHED_TABLE1 = {
    "#sv": (274, 104, 377, 361, 334, 388, 236, 235, 342, 263),
    "SVM": (16, 8, 25, 19, 29, 23, 14, 12, 25, 16),
    "k-means RBF": (20, 16, 43, 38, 46, 31, 15, 18, 37, 26),
    "KMP (same #sv)": (15, 15, 26, 17, 30, 23, 14, 14, 25, 13),
    "KMP (half #sv)": (16, 15, 29, 27, 29, 24, 17, 16, 28, 18),
}


@dataclass(frozen=True)
class DigitsSettings:
    """Table 1 of Vincent & Bengio in spirit, on scikit-learn's 8 x 8 digits.

    Attributes
    ----------
    n_samples : int or None
        A seeded subset of the 1797 digits (None: all).
    test_fraction : float
        Held-out share (USPS: 2007 of 9307, about 0.22).
    width : float
        Gaussian kernel exp(-||x - z||^2 / (width * d)) on pixels scaled to
        [-1, 1], d = 64 (the paper gives no width).
    C : float
        SVM box constraint.
    seed : int
    """

    n_samples: int | None = None
    test_fraction: float = 0.25
    width: float = 0.3
    C: float = 10.0
    seed: int = 0

    @classmethod
    def quick(cls):
        return cls(n_samples=600)


def vb_table1_digits(settings=None, quick=False, progress=None) -> Result:
    """One-vs-rest errors: SVM, KMP with the SVM's #sv and with half (V&B Table 1 in spirit)."""
    s = settings or (DigitsSettings.quick() if quick else DigitsSettings())
    check_positive(s.width, "width")
    check_positive(s.C, "C")
    if not 0 < s.test_fraction < 1:
        raise ValueError(f"test_fraction must be in (0, 1), got {s.test_fraction!r}.")
    report = progress_reporter(progress)
    d = datasets.load("digits", n_samples=s.n_samples, random_state=s.seed)
    X = d.X / 8.0 - 1.0  # pixels 0..16 -> [-1, 1], as USPS was preprocessed
    y = d.y
    gamma = 1.0 / (s.width * X.shape[1])
    itr, ite = split(d, s.test_fraction, s.seed)
    classes = np.unique(y)
    rows = []
    for i, c in enumerate(classes):
        report(i / classes.size, f"Table 1: digit {c} against the rest")
        ytr, yte = (y[itr] == c).astype(int), (y[ite] == c).astype(int)
        svm = SVC(C=s.C, gamma=gamma).fit(X[itr], ytr)
        n_sv = int(svm.support_.size)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            kmp = KMPClassifier(n_sv, gamma=gamma, fitting="prefit").fit(X[itr], ytr)
        staged = list(kmp.staged_decision_function(X[ite]))
        half = max(n_sv // 2, 1)
        # pre-fitting is greedy: its first N/2 steps are the fit with N/2 basis functions
        f_half = staged[min(half, len(staged)) - 1]
        rows.append(dict(digit=int(c), n_sv=n_sv,
                         svm_errors=int(np.sum(svm.predict(X[ite]) != yte)),
                         kmp_same_errors=int(np.sum((staged[-1] > 0).astype(int) != yte)),
                         kmp_half_errors=int(np.sum((f_half > 0).astype(int) != yte)),
                         kmp_steps=len(staged)))
    table = pd.DataFrame(rows)
    tot = table[["svm_errors", "kmp_same_errors", "kmp_half_errors"]].sum()
    pub = {k: np.array(v) for k, v in PUBLISHED_TABLE1.items()}
    pub_same = pub["KMP (same #sv)"].sum() / pub["SVM"].sum()
    pub_half = pub["KMP (half #sv)"].sum() / pub["SVM"].sum()
    svm_tot = max(int(tot["svm_errors"]), 1)
    ours_same = tot["kmp_same_errors"] / svm_tot
    ours_half = tot["kmp_half_errors"] / svm_tot
    fig = digit_errors_figure(
        classes, {k: pub[k] for k in ("SVM", "KMP (same #sv)", "KMP (half #sv)")},
        {"SVM": table["svm_errors"], "KMP (same #sv)": table["kmp_same_errors"],
         "KMP (half #sv)": table["kmp_half_errors"]},
        published_title="published: USPS, 2007 test patterns",
        ours_title=f"ours: 8 × 8 digits, {len(ite)} test points")
    checks = (
        check_value("KMP (same #sv) errors / SVM errors, summed over digits",
                    pub_same, ours_same, fmt="{:.3g}"),
        check_value("KMP (half #sv) errors / SVM errors, summed over digits",
                    pub_half, ours_half, fmt="{:.3g}"),
    )
    checks = tuple(replace(c, detail=c.detail + f"; totals: published {tot_p} / "
                           f"{pub['SVM'].sum()}, ours {tot_o} / {svm_tot}")
                   for c, tot_p, tot_o in zip(checks, (pub["KMP (same #sv)"].sum(),
                                                       pub["KMP (half #sv)"].sum()),
                                              (int(tot["kmp_same_errors"]),
                                               int(tot["kmp_half_errors"]))))
    notes = ("A smaller stand-in for USPS, not a reproduction of it: scikit-learn's 8 × 8 digits "
             f"({len(y)} images, {len(itr)} training and {len(ite)} test points, seeded stratified "
             "split) instead of USPS's 16 × 16 (7300 training and 2007 test patterns in the "
             "paper). Gaussian kernel exp(−‖x−z‖²/(c·d)) "
             f"with c = {s.width:g}, d = 64, pixels scaled to [−1, 1]; SVM C = {s.C:g}. KMP-mse "
             "(pre-fitting), no validation: N = the SVM's number of support vectors for that "
             "digit, and half of it. Errors are counts on our test set, so only the ratios to the "
             "SVM are compared. The k-means RBF row is not reproduced."
             + (f" With only {svm_tot} SVM errors in total (the paper had 187), these ratios "
                "move a lot with one error either way." if svm_tot < NOISY_ERROR_COUNT else ""))
    report(1.0, "Table 1: done")
    return Result("vb_table1_digits", "Digits one-vs-rest (Table 1 in spirit, for USPS)",
                  f"{VB}, Table 1", fig, table,
                  {"KMP (same #sv) / SVM errors": f"{pub_same:.3g} (192 / 187)",
                   "KMP (half #sv) / SVM errors": f"{pub_half:.3g} (219 / 187)"},
                  plain(dict(svm_errors=int(tot["svm_errors"]),
                           kmp_same_errors=int(tot["kmp_same_errors"]),
                           kmp_half_errors=int(tot["kmp_half_errors"]), ratio_same=ours_same,
                           ratio_half=ours_half, n_train=len(itr), n_test=len(ite))),
                  checks, s, notes,
                  {"published_usps": pd.DataFrame({"digit": np.arange(10), **PUBLISHED_TABLE1})})
