r"""Hussain & Shawe-Taylor [1]_: Figure 1 (both panels) and Figure 2.

``hst_fig1_boston`` and ``hst_fig1_toy``: the sparse-KPCA residual with the
sample-compression bound (Corollary 1) and the kernel-PCA bound of
Shawe-Taylor & Cristianini (2004), Theorem 6.14; ``hst_fig2_kmp``: the test
error of kernel matching pursuit against the Theorem 3 bound.

References
----------
.. [1] Z. Hussain, J. Shawe-Taylor. Theory of matching pursuit. NIPS 2008.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
from sklearn.metrics import pairwise_distances

import datasets
from mpcore.curves import bound_curves
from mpcore.kernels import sigma_to_gamma
from mpcore.kmp import KMPRegressor
from mpcore.plots import (
    OKABE_ITO,
    argmin_distribution_figure,
    bound_curves_figure,
    mark_published,
    sweep_heatmap_figure,
)
from views.data import split

from ._common import (
    MAX_REPETITIONS,
    Result,
    check_positive,
    first_argmin,
    plain,
    progress_reporter,
    standardised_split,
)
from .verdicts import (
    K_REPRODUCED,
    REL_REPRODUCED,
    Check,
    check_claim,
    check_k,
    check_value,
    verdict_value,
)

__all__ = ["HST", "BostonBoundsSettings", "ToyBoundsSettings", "KMPBoundSettings",
           "hst_fig1_boston", "hst_fig1_toy", "hst_fig2_kmp"]

HST = "Hussain & Shawe-Taylor (2008)"


# ---------------------------------------------------------------------------------------
# Hussain & Shawe-Taylor, Figure 1 left: Boston housing
# ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BostonBoundsSettings:
    """Figure 1 left of Hussain & Shawe-Taylor.

    The paper gives neither the kernel width nor the split.

    Attributes
    ----------
    sigma : float
        Gaussian width, exp(-||x - z||^2 / (2 sigma^2)) on standardised features.
    test_fraction : float
        Held-out share for the test residual (0.1: 455 training points).
    k_max : int
        Largest number of basis vectors.
    delta : float
        Each bound holds with probability 1 - delta.
    seed : int
        Seed of the split.
    """

    sigma: float = 2.0
    test_fraction: float = 0.1
    k_max: int = 100
    delta: float = 0.05
    seed: int = 0

    @classmethod
    def quick(cls):
        return cls(k_max=60)


def hst_fig1_boston(settings=None, quick=False, progress=None) -> Result:
    """Sparse-KPCA residual and both bounds on Boston housing (H&S-T Figure 1 left)."""
    s = settings or (BostonBoundsSettings.quick() if quick else BostonBoundsSettings())
    check_positive(s.sigma, "sigma")
    if not 0 < s.test_fraction < 1:
        raise ValueError(f"test_fraction must be in (0, 1), got {s.test_fraction!r}.")
    check_positive(s.k_max, "k_max", integer=True, minimum=2)
    report = progress_reporter(progress)
    report(0.05, "Boston: loading and splitting")
    d = datasets.load("boston")
    tr, te = split(d, s.test_fraction, s.seed)
    Xtr, Xte = standardised_split(d.X, tr, te)
    report(0.2, f"Boston: sparse KPCA, k = 1..{s.k_max}, and both bounds")
    c = bound_curves(Xtr, Xte, kernel="rbf", gamma=sigma_to_gamma(s.sigma), k_max=s.k_max,
                     delta=s.delta)
    report(0.9, "Boston: figure")
    pub_k = 43
    fig = bound_curves_figure(c, show_terms=False).update_layout(margin=dict(l=95))
    mark_published(fig, pub_k, f"published k* = {pub_k}", position="bottom right")
    kc, kk = c.k_star_compression, c.k_star_kpca
    checks = (
        check_k("compression bound lowest at", pub_k, kc),
        check_claim("KPCA bound is trivial", "trivial (above R = 1 at every k)",
                    c.min_kpca >= c.trivial,
                    f"min {c.min_kpca:.4g} at k = {kk} (R = {c.trivial:.4g})",
                    f"its lowest value {c.min_kpca:.4g} (k = {kk}) is "
                    + ("at or above" if c.min_kpca >= c.trivial else "below")
                    + f" the trivial level R = {c.trivial:.4g}"),
    )
    ours = dict(k_star_compression=kc, min_compression=c.min_compression, k_star_kpca=kk,
                min_kpca=c.min_kpca, trivial=c.trivial,
                test_residual_at_k_star=float(c.test_residual[kc - 1]), m=c.m, n_test=c.n_test)
    notes = (f"The paper states neither the kernel width nor the split. We use a Gaussian kernel "
             f"of width σ = {s.sigma:g} on features standardised on the training part, and a "
             f"seeded {1 - s.test_fraction:.0%}/{s.test_fraction:.0%} split ({c.m}/{c.n_test} "
             "points). Both bounds use δ = " + f"{s.delta:g}; R = 1 for a Gaussian kernel.")
    report(1.0, "Boston: done")
    return Result("hst_fig1_boston", "Sparse KPCA bounds on Boston housing",
                  f"{HST}, Figure 1 (left)", fig, pd.DataFrame(c.columns()),
                  {"compression bound lowest at": "k = 43", "KPCA bound": "trivial"},
                  plain(ours), checks, s, notes)


# ---------------------------------------------------------------------------------------
# Hussain & Shawe-Taylor, Figure 1 right: the Gaussian toy
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ToyBoundsSettings:
    """Figure 1 right of Hussain & Shawe-Taylor: 1000 x 450 Gaussian, 50 large directions.

    The paper says the 50 directions have "considerably larger eigenvalues" and
    gives no kernel width.

    Attributes
    ----------
    variance_ratio : float
        Variance of the 50 dominant directions over that of the other 400.
    sigma : float or None
        Gaussian width (exp(-||x - z||^2 / (2 sigma^2))); None: the median
        pairwise distance of the training points (the usual heuristic).
    n_train, n_test : int
        1000 training points as in the paper; test points from the same distribution.
    n_features, n_dominant : int
    k_max : int
        At least 60, so that the residual slope after 50 can be measured.
    delta : float
    seed : int
    sweep_ratios : tuple of float
        Variance ratios of the sweep (empty: no sweep).
    sweep_widths : tuple of float
        Kernel widths of the sweep, as multiples of the median pairwise distance.
    """

    variance_ratio: float = 300.0
    sigma: float | None = None
    n_train: int = 1000
    n_test: int = 250
    n_features: int = 450
    n_dominant: int = 50
    k_max: int = 100
    delta: float = 0.05
    seed: int = 0
    sweep_ratios: tuple = (10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0)
    sweep_widths: tuple = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)

    @classmethod
    def quick(cls):
        return cls(k_max=60, sweep_ratios=(), sweep_widths=())


def _toy_curves(s, ratio, width=None):
    """Curves on the toy with variance ratio ``ratio``; ``width`` (a multiple of the median
    pairwise distance) overrides ``s.sigma``."""
    d = datasets.load("gaussian_toy", n_samples=s.n_train + s.n_test, random_state=s.seed,
                      variance_ratio=float(ratio), n_features=s.n_features,
                      n_dominant=s.n_dominant)
    Xtr, Xte = d.X[: s.n_train], d.X[s.n_train:]
    sigma = s.sigma
    if sigma is None or width is not None:
        dist = pairwise_distances(Xtr)
        sigma = float(np.median(dist[np.triu_indices(s.n_train, 1)])) * (width or 1.0)
    c = bound_curves(Xtr, Xte, kernel="rbf", gamma=sigma_to_gamma(sigma), k_max=s.k_max,
                     delta=s.delta)
    return c, sigma


def _slope(k, y):
    return float(np.polyfit(np.asarray(k, float), np.asarray(y, float), 1)[0])


def hst_fig1_toy(settings=None, quick=False, progress=None) -> Result:
    """Sparse-KPCA residual and both bounds on the Gaussian toy (H&S-T Figure 1 right)."""
    s = settings or (ToyBoundsSettings.quick() if quick else ToyBoundsSettings())
    check_positive(s.variance_ratio, "variance_ratio")
    if s.sigma is not None:
        check_positive(s.sigma, "sigma")
    check_positive(s.n_train, "n_train", integer=True, minimum=s.k_max + 1)
    check_positive(s.n_test, "n_test", integer=True)
    check_positive(s.k_max, "k_max", integer=True, minimum=s.n_dominant + 10)
    report = progress_reporter(progress)
    grid = [(r, w) for r in s.sweep_ratios for w in (s.sweep_widths or (None,))]
    n_runs = 1 + len(grid)
    report(0.05, f"Gaussian toy: {s.n_train + s.n_test} x {s.n_features}, sparse KPCA and bounds")
    c, sigma = _toy_curves(s, s.variance_ratio)
    sweep_rows = []
    for i, (ratio, width) in enumerate(grid):
        report((i + 1) / n_runs, f"Gaussian toy: sweep {i + 1}/{len(grid)}, variance ratio "
                                 f"{ratio:g}" + ("" if width is None else f", width {width:g}"))
        ci, sig_i = _toy_curves(s, ratio, width)
        sweep_rows.append(dict(variance_ratio=ratio, width_factor=width or 1.0, sigma=sig_i,
                               k_star_compression=ci.k_star_compression,
                               min_compression=ci.min_compression, k_star_kpca=ci.k_star_kpca,
                               min_kpca=ci.min_kpca))
    report(0.95, "Gaussian toy: figure")
    fig = bound_curves_figure(c, show_terms=False).update_layout(margin=dict(l=95))
    # left of its line, at the top: at the right it ran past the figure's edge (k = 46 of
    # 60), and at the bottom it would cover the KPCA label
    mark_published(fig, 46, "published compression k* = 46",
                   colour=OKABE_ITO["vermillion"], position="top left")
    mark_published(fig, 30, "published KPCA k* = 30", colour=OKABE_ITO["green"],
                   position="bottom left")

    m = c.m
    # Theorem 6.14 at t = 1 can never exceed tr K / m + (8/m) sqrt(2 sum k(x,x)^2) + 3 R^2 sqrt(...)
    ceiling = float(c.trivial + (8.0 / m) * np.sqrt(2 * c.kappa_sq_sum)
                    + 3 * c.trivial * np.sqrt(np.log(2 * m / s.delta) / (2 * m)))
    k_after = np.arange(s.n_dominant + 1, c.n_steps + 1)
    half = k_after.size // 2
    tres = c.test_residual
    slope1 = _slope(k_after[:half], tres[k_after[:half] - 1])
    slope2 = _slope(k_after[half:], tres[k_after[half:] - 1])
    rate = slope2 / slope1 if slope1 else float("nan")
    checks = (
        check_k("compression bound lowest at", 46, c.k_star_compression),
        check_value("compression bound minimum", 0.7984, c.min_compression),
        check_k("KPCA bound lowest at", 30, c.k_star_kpca),
        Check("KPCA bound minimum", "1.84", f"{c.min_kpca:.4g}",
              verdict_value(c.min_kpca, 1.84),
              f"ours {c.min_kpca:.4g} vs published 1.84; with κ(x,x) = 1 and m = {m}, Theorem 6.14 "
              f"as stated is at most {ceiling:.4g} at t = 1, so a minimum of 1.84 cannot come "
              "from it with these constants"),
        Check("test residual falls at a constant rate after 50", "constant rate (straight line)",
              f"slope ratio {rate:.3g}", verdict_value(rate, 1.0),
              f"least-squares slope over k = {k_after[0]}..{k_after[half - 1]}: {slope1:.3g}, over "
              f"k = {k_after[half]}..{k_after[-1]}: {slope2:.3g}; a constant rate gives ratio 1"),
    )
    sweep = pd.DataFrame(sweep_rows)
    extra_figures = {}
    if sweep_rows:
        checks += tuple(_sweep_check(sweep, kind, k_pub, v_pub)
                        for kind, k_pub, v_pub in (("compression", 46, 0.7984),
                                                   ("kpca", 30, 1.84)))
        extra_figures = {"Sweep of the unstated settings: where each bound is lowest, and its "
                         "lowest value": _sweep_figure(sweep)}
    ours = dict(k_star_compression=c.k_star_compression, min_compression=c.min_compression,
                k_star_kpca=c.k_star_kpca, min_kpca=c.min_kpca, sigma=sigma,
                kpca_ceiling_at_t1=ceiling, slope_first_half=slope1, slope_second_half=slope2,
                slope_ratio=rate, m=m, n_test=c.n_test)
    notes = (f"Kernel width and variance ratio are not stated (\"considerably larger "
             f"eigenvalues\"). We use a variance ratio of {s.variance_ratio:g} and a Gaussian "
             f"kernel of width σ = {sigma:.4g} = "
             + ("the median pairwise distance of the training points" if s.sigma is None
                else "the value set") + ", uncentred as the sparse method uses it. "
             + (f" The sweep runs every variance ratio in {list(s.sweep_ratios)} with every width "
                f"in {list(s.sweep_widths)} × the median distance and asks whether any "
                "setting gives the published minima (k within ±3 and value within 5%)."
                if sweep_rows else " The full run also sweeps ratio and width."))
    extra = {"sweep": sweep} if sweep_rows else {}
    report(1.0, "Gaussian toy: done")
    return Result("hst_fig1_toy", "Sparse KPCA bounds on the 1000 x 450 Gaussian toy",
                  f"{HST}, Figure 1 (right)", fig, pd.DataFrame(c.columns()),
                  {"compression bound lowest at": "k = 46", "compression bound minimum": "0.7984",
                   "KPCA bound lowest at": "k = 30", "KPCA bound minimum": "1.84",
                   "test residual after 50": "falls at a constant rate"},
                  plain(ours), checks, s, notes, extra, extra_figures=extra_figures)


def _sweep_check(sweep, kind, k_pub, v_pub):
    """Is the published (k*, minimum) of bound ``kind`` reached anywhere on the sweep grid?"""
    k = sweep[f"k_star_{kind}"].to_numpy(float)
    v = sweep[f"min_{kind}"].to_numpy(float)
    hit = (np.abs(k - k_pub) <= K_REPRODUCED) & (np.abs(v - v_pub) <= REL_REPRODUCED * v_pub)
    i = int(np.argmin(np.abs(k - k_pub) / k_pub + np.abs(v - v_pub) / v_pub))
    row = sweep.iloc[i]
    name = "compression bound" if kind == "compression" else "KPCA bound"
    return check_claim(
        f"{name} minimum (k, value) reached by some variance ratio and width",
        f"k = {k_pub}, {v_pub:g}", bool(hit.any()),
        f"{int(hit.sum())} of {len(sweep)} settings; nearest: k = {int(row[f'k_star_{kind}'])}, "
        f"{row[f'min_{kind}']:.4g} (ratio {row['variance_ratio']:g}, width "
        f"{row['width_factor']:g} × median)",
        f"lowest value over the grid {v.min():.4g}, highest {v.max():.4g}; k* from "
        f"{int(k.min())} to {int(k.max())}")


def _sweep_figure(sweep):
    ratios = sorted(sweep["variance_ratio"].unique())
    widths = sorted(sweep["width_factor"].unique())
    t = sweep.set_index(["width_factor", "variance_ratio"])

    def z(col):
        return [[t.loc[(w, r), col] for r in ratios] for w in widths]

    return sweep_heatmap_figure(
        ratios, widths,
        [dict(title="compression bound: k* (published 46)", z=z("k_star_compression"), fmt=".0f"),
         dict(title="its minimum (published 0.7984)", z=z("min_compression"), fmt=".3g"),
         dict(title="KPCA bound: k* (published 30)", z=z("k_star_kpca"), fmt=".0f"),
         dict(title="its minimum (published 1.84)", z=z("min_kpca"), fmt=".3g")],
        x_title="variance ratio", y_title="width / median distance", height=520)


# ---------------------------------------------------------------------------------------
# Hussain & Shawe-Taylor, Figure 2: KMP test error and the Theorem 3 bound
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class KMPBoundSettings:
    """Figure 2 of Hussain & Shawe-Taylor: KMP on Boston, 450 training and 56 test points.

    Attributes
    ----------
    sigma : float
        Gaussian width, exp(-||x - z||^2 / (2 sigma^2)) on standardised features.
    n_test : int
        56 test points as in the paper (the other 450 train).
    n_basis : int
        Largest number of basis functions.
    fitting : str
        "prefit" (Vincent & Bengio's default), "backfit" or "basic".
    alpha_std : float
        Theorem 3's threshold alpha, in standard deviations of the training targets.
    delta : float
    scale : float
        The bound is drawn divided by this (5 in the paper).
    seed : int
        Split j uses seed + j; the table holds the curves of split 0.
    n_splits : int
        Random 450/56 splits: one split's argmin moves between about 9 and 49, so the
        verdict compares 17 with the distribution of the argmins over the splits.
    """

    sigma: float = 2.0
    n_test: int = 56
    n_basis: int = 100
    fitting: str = "prefit"
    alpha_std: float = 0.25
    delta: float = 0.05
    scale: float = 5.0
    seed: int = 0
    n_splits: int = 100

    @classmethod
    def quick(cls):
        return cls(n_basis=40, n_splits=8)


def _fig2_split(d, s, seed):
    """One 450/56 split of Figure 2: the fitted model and its curves."""
    tr, te = split(d, s.n_test, seed)
    Xtr, Xte = standardised_split(d.X, tr, te)
    ytr, yte = d.y[tr], d.y[te]
    alpha = s.alpha_std * float(np.std(ytr))
    model = KMPRegressor(s.n_basis, gamma=sigma_to_gamma(s.sigma), fitting=s.fitting,
                         alpha=alpha, delta=s.delta).fit(Xtr, ytr)
    P = np.array(list(model.staged_predict(Xte)))
    test_mse = np.mean((P - yte) ** 2, axis=1)
    test_alpha = np.mean(np.abs(P - yte) > alpha, axis=1)
    bound = np.asarray(model.bound_, dtype=float)
    return model, test_mse, test_alpha, bound, alpha, len(tr), len(te)


def _percentile_of(value, sample):
    """Share of ``sample`` below ``value`` plus half the share equal to it (0..100)."""
    a = np.asarray(sample, dtype=float)
    return float(100 * (np.mean(a < value) + 0.5 * np.mean(a == value)))


def hst_fig2_kmp(settings=None, quick=False, progress=None) -> Result:
    """KMP test error against the Theorem 3 bound on Boston (H&S-T Figure 2), over many
    random 450/56 splits: where each curve is lowest, and where the published 17 falls."""
    s = settings or (KMPBoundSettings.quick() if quick else KMPBoundSettings())
    check_positive(s.sigma, "sigma")
    check_positive(s.alpha_std, "alpha_std")
    check_positive(s.scale, "scale")
    check_positive(s.n_splits, "n_splits", integer=True, maximum=10 * MAX_REPETITIONS)
    report = progress_reporter(progress)
    d = datasets.load("boston")
    ks = {"bound": [], "mse": [], "alpha": []}
    for j in range(s.n_splits):
        report(0.02 + 0.9 * j / s.n_splits,
               f"KMP on Boston: split {j + 1}/{s.n_splits}, {s.n_basis} steps of {s.fitting}")
        model, test_mse, test_alpha, bound, alpha_j, m, n_te = _fig2_split(d, s, s.seed + j)
        ks["bound"].append(first_argmin(bound))
        ks["mse"].append(first_argmin(test_mse))
        ks["alpha"].append(first_argmin(test_alpha))
        if j == 0:
            first = (model, test_mse, test_alpha, bound, alpha_j, m, n_te)
    model, test_mse, test_alpha, bound, alpha, m, n_te = first
    k_bound, k_test, k_alpha = ks["bound"][0], ks["mse"][0], ks["alpha"][0]
    report(0.95, "KMP on Boston: figure")
    names = {"bound": "Theorem 3 bound", "mse": "test error (MSE)",
             "alpha": "test share |f − y| > α"}
    fig = argmin_distribution_figure(
        {f"{names[k]}: lowest at": v for k, v in ks.items()}, 17, x_max=s.n_basis,
        title=f"Where the curves are lowest over {s.n_splits} random 450/56 splits")
    stats = {}
    for k, v in ks.items():
        a = np.asarray(v)
        lo, hi = (float(x) for x in np.percentile(a, [5, 95]))
        med = float(np.median(a))
        stats[k] = dict(median=int(med) if med.is_integer() else med, p5=lo, p95=hi,
                        percentile_of_17=_percentile_of(17, a),
                        share_within_3=float(np.mean(np.abs(a - 17) <= K_REPRODUCED)),
                        share_at_cap=float(np.mean(a == s.n_basis)))

    def _detail(k):
        st_ = stats[k]
        return (f"over {s.n_splits} splits: median {st_['median']:g}, 90% between "
                f"{st_['p5']:g} and {st_['p95']:g}; 17 sits at percentile "
                f"{st_['percentile_of_17']:.0f}, {100 * st_['share_within_3']:.0f}% of splits "
                f"within ±{K_REPRODUCED} of it"
                + (f"; {100 * st_['share_at_cap']:.0f}% still falling at the last step "
                   f"k = {s.n_basis}" if st_["share_at_cap"] else ""))

    checks = tuple(
        replace(c, claim=c.claim + " (median over splits)", detail=_detail(k))
        for c, k in ((check_k("Theorem 3 bound lowest at", 17, stats["bound"]["median"]), "bound"),
                     (check_k("test error (mean squared) lowest at", 17, stats["mse"]["median"]),
                      "mse"),
                     (check_k("test error (share with |f − y| > α) lowest at", 17,
                              stats["alpha"]["median"]), "alpha"))
    ) + (
        check_claim("17 is a typical lowest point of the test error",
                    "both curves lowest at 17 on the paper's split",
                    stats["mse"]["p5"] <= 17 <= stats["mse"]["p95"]
                    and stats["bound"]["p5"] <= 17 <= stats["bound"]["p95"],
                    f"17 at percentile {stats['mse']['percentile_of_17']:.0f} of the test-error "
                    f"argmins, {stats['bound']['percentile_of_17']:.0f} of the bound's",
                    "holds when 17 lies within the central 90% of both distributions"),
    )
    ours = dict(k_star_bound=k_bound, min_bound=float(bound[k_bound - 1]),
                k_star_test_mse=k_test, min_test_mse=float(test_mse[k_test - 1]),
                k_star_test_alpha_error=k_alpha, alpha=alpha, m=m, n_test=n_te,
                n_splits=s.n_splits,
                **{f"{k}_{name}": v for k, st_ in stats.items() for name, v in st_.items()})
    table = pd.DataFrame({"k": np.arange(1, bound.size + 1), "test_mse": test_mse,
                          "train_mse": model.train_loss_, "test_alpha_error": test_alpha,
                          "theorem3_bound": bound, f"bound_div_{s.scale:g}": bound / s.scale,
                          "t_errors_outside_basis": model.n_errors_})
    argmins = pd.DataFrame({"split_seed": s.seed + np.arange(s.n_splits),
                            "k_bound": ks["bound"], "k_test_mse": ks["mse"],
                            "k_test_alpha_error": ks["alpha"]})
    notes = (f"Kernel width and threshold α are not stated. Gaussian kernel σ = {s.sigma:g} on "
             f"standardised features, {s.fitting} KMP (Vincent & Bengio's default), α = "
             f"{s.alpha_std:g} standard deviations of the training MEDV. The paper shows one "
             "split; with 56 test points one split's lowest point moves a lot, so we repeat the "
             f"experiment over {s.n_splits} random 450/56 splits and compare 17 with the "
             "distribution of the lowest points (the figure; the verdicts use the medians). "
             "The paper's \"test error\" can be read as the mean squared error or as the share "
             "of test points with |f − y| > α (the loss Theorem 3 bounds): both are checked. "
             f"The table holds the curves of split {s.seed} (the bound there divided by "
             f"{s.scale:g} as in the paper); 'argmins over splits' every split's lowest points.")
    report(1.0, "KMP on Boston: done")
    return Result("hst_fig2_kmp", "KMP test error and the Theorem 3 bound on Boston",
                  f"{HST}, Figure 2", fig, table,
                  {"Theorem 3 bound lowest at": "k = 17", "test error lowest at": "k = 17 (both "
                   "minimal at 17 basis vectors)"},
                  plain(ours), checks, s, notes, {"argmins_over_splits": argmins})
