"""The page computations of views/, called directly (no Streamlit, no AppTest).

Each is checked against a known result rebuilt from mpcore: the deflated
kernel is K minus the Nystroem approximation on the chosen points, the exact
KPCA curve is the eigenvalue tail, the Cholesky curve is incomplete Cholesky,
the KCCA prefix trick equals refitted estimators, the KMP comparison equals
fitting each estimator directly.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from conftest import ATOL_EXACT, RTOL_EXACT
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC, SVR

import datasets
from mpcore import validated_kernel
from mpcore.kcca import SparseKCCA
from mpcore.kernels import kernel_matrix, sigma_to_gamma
from mpcore.kmp import KMPClassifier, KMPRegressor
from mpcore.plots._spectrum import EKM_SERIES, EXACT, NYSTROM_SERIES
from mpcore.spectrum import exact_eigenvalues, incomplete_cholesky, relative_error
from views import data, kcca, kmp, skpca, spectrum
from views.data import DataChoice, KernelChoice

#: float32 rounding of the stored heatmaps, for values up to max |K| = 1 (rbf).
HEAT_ATOL = float(np.finfo(np.float32).eps)
RBF = KernelChoice("rbf", gamma=sigma_to_gamma(0.7, "book"), sigma=0.7)


@pytest.fixture(scope="module")
def moons():
    """60 standardised moons, the page's 70/30 stratified split."""
    d = data.load(DataChoice("moons", n_samples=60, noise=0.2, seed=3))
    tr, te = data.split(d, 0.3, 3)
    return d, tr, te


# ---------------------------------------------------------------- data


def test_split_is_the_seeded_stratified_train_test_split(moons):
    d, tr, te = moons
    ref_tr, ref_te = train_test_split(np.arange(d.n_samples), test_size=0.3, random_state=3,
                                      stratify=d.y)
    np.testing.assert_array_equal(tr, ref_tr)
    np.testing.assert_array_equal(te, ref_te)
    assert data.stratified(d, 0.3)
    reg = datasets.load("sine", n_samples=40, noise=0.1, random_state=0)
    assert not data.stratified(reg, 0.3)  # regression: never stratified


def test_load_appends_clicked_points_then_standardises():
    raw = datasets.load("moons", n_samples=30, noise=0.1, random_state=1)
    added = ((3.0, -2.0, 1), (0.5, 0.5, 0))
    d = data.load(DataChoice("moons", n_samples=30, noise=0.1, seed=1, added=added))
    X = np.vstack([raw.X, np.array(added)[:, :2]])
    np.testing.assert_allclose(d.X, (X - X.mean(0)) / X.std(0), atol=ATOL_EXACT)
    np.testing.assert_array_equal(d.y, np.concatenate([raw.y, [1, 0]]))
    assert not d.X.flags.writeable


def test_an_upload_is_read_from_its_bytes():
    csv = b"a,b,label\n0,1,0\n1,0,1\n2,2,0\n3,1,1\n"
    d = data.load(DataChoice("csv upload", csv_digest="x", csv_target="label",
                             standardize=False), csv)
    np.testing.assert_array_equal(d.X, [[0, 1], [1, 0], [2, 2], [3, 1]])
    np.testing.assert_array_equal(d.y, [0, 1, 0, 1])


# ---------------------------------------------------------------- sparse KPCA


@pytest.fixture(scope="module")
def skpca_run(moons):
    d, tr, _ = moons
    X, labels = d.X[tr], d.y[tr]
    K = kernel_matrix(X, **RBF.params())
    steps = skpca.skpca_steps(X, RBF, 8, K=K)
    return X, labels, K, steps, skpca.skpca_view(X, labels, RBF, steps, K=K)


def test_heatmap_at_step_j_is_k_minus_the_rank_j_nystroem_approximation(skpca_run):
    X, labels, K, steps, v = skpca_run
    sub = v["heat_index"]
    assert len(sub) == len(set(sub.tolist())) <= skpca.HEATMAP_MAX_POINTS
    assert v["heat"].shape == (len(steps), len(sub), len(sub))
    for j in range(1, len(steps) + 1):
        chosen = [s.index for s in steps[:j]]
        C = K[np.ix_(sub, chosen)]
        nystroem = C @ np.linalg.solve(K[np.ix_(chosen, chosen)], C.T)
        np.testing.assert_allclose(v["heat"][j - 1], K[np.ix_(sub, sub)] - nystroem,
                                   rtol=0, atol=HEAT_ATOL, err_msg=f"step {j}")


def test_exact_kpca_curve_is_the_eigenvalue_tail(skpca_run):
    _, _, K, steps, v = skpca_run
    lam = np.sort(np.linalg.eigvalsh(K))[::-1]
    tail = [lam[t:].sum() for t in range(len(steps) + 1)]
    np.testing.assert_allclose(v["curves"][skpca.EXACT_CURVE], tail, rtol=RTOL_EXACT,
                               atol=ATOL_EXACT * np.trace(K))


def test_cholesky_curve_is_incomplete_cholesky_and_never_rises(skpca_run):
    _, _, K, steps, v = skpca_run
    curve = v["curves"][skpca.CHOLESKY_CURVE]
    R, _ = incomplete_cholesky(K, rank=len(steps))
    # trace of K minus that of the Nystroem approximation R'R on the pivots, step by step
    expected = np.trace(K) - np.concatenate([[0.0], np.cumsum(np.sum(R**2, axis=1))])
    np.testing.assert_allclose(curve, expected, rtol=RTOL_EXACT, atol=ATOL_EXACT * np.trace(K))
    np.testing.assert_allclose(v["trace0"], np.trace(K), rtol=RTOL_EXACT)
    assert np.all(np.diff(curve) <= ATOL_EXACT * np.trace(K))
    # the greedy optimum lies below both greedy curves
    assert np.all(v["curves"][skpca.EXACT_CURVE] <= curve + ATOL_EXACT * np.trace(K))


def test_the_59_trick_view_forms_no_kernel_matrix(moons):
    d, tr, _ = moons
    steps = skpca.skpca_steps(d.X[tr], RBF, 5, n_candidates=59, seed=3)
    v = skpca.skpca_view(d.X[tr], d.y[tr], RBF, steps, n_candidates=59)
    assert v["heat"] is None and "59-trick" in v["heat_note"] and v["curves"] == {}
    assert len(v["steps"]) == 5


# ---------------------------------------------------------------- spectrum


@pytest.fixture(scope="module")
def spectrum_run(moons):
    d, _, _ = moons
    K = kernel_matrix(d.X, **RBF.params())
    k, q, n_eig = 12, 20, 5
    return K, k, q, n_eig, spectrum.compare_methods(K, 3, k, q, n_eig)


def test_spectrum_rows_are_self_consistent(spectrum_run):
    K, k, q, n_eig, run = spectrum_run
    exact = run["top"]["dense eigh (all m)"]  # the reference every row is compared with
    np.testing.assert_allclose(exact, exact_eigenvalues(K, n_eig, method="eigh"),
                               rtol=RTOL_EXACT, atol=ATOL_EXACT)
    n_cmp = run["n_compared"]
    err_col = f"max rel. error, top {n_cmp}"
    rows = {r["method"]: r for r in run["rows"]}
    assert set(NYSTROM_SERIES.values()) | set(EKM_SERIES.values()) <= set(rows)
    t_dense = rows["dense eigh (all m)"]["time (s)"]
    for name, r in rows.items():
        err = relative_error(run["top"][name][:n_cmp], exact[:n_cmp])
        np.testing.assert_allclose(r[err_col], err.max(), rtol=RTOL_EXACT, err_msg=name)
        np.testing.assert_allclose(r["rel. error λ₁"], err[0], rtol=RTOL_EXACT, err_msg=name)
        np.testing.assert_allclose(r["time / dense eigh"], r["time (s)"] / t_dense,
                                   rtol=RTOL_EXACT, err_msg=name)
    assert rows["dense eigh (all m)"][err_col] == 0.0
    np.testing.assert_allclose(run["scree"][EXACT], np.sort(np.linalg.eigvalsh(K))[::-1][
        : run["scree_length"]], rtol=RTOL_EXACT, atol=ATOL_EXACT)
    for name in NYSTROM_SERIES.values():
        assert len(run["indices"][name]) == k


#: Fields of a timing row that do not depend on the clock.
UNTIMED = ("method", "computes", "largest angle (°)", "vectors compared")


@settings(max_examples=20, deadline=None)
@given(k=st.integers(1, 60), q=st.integers(1, 60), q2=st.integers(1, 60),
       n_eig=st.integers(1, 30))
def test_a_run_merged_from_its_parts_is_the_run_at_every_scree_length(moons, k, q, q2, n_eig):
    """compare_methods merges three parts cached apart (the exact solvers; Nyström at k; EKM
    at q): its scree is what mpcore gives at the run's full scree length (the parts keep
    every non-zero eigenvalue and pad with zeros, bit for bit), and the Nyström part does
    not depend on q."""
    from mpcore.spectrum import ekm_eigenvalues, nystrom_eigenvalues

    d, _, _ = moons
    K = kernel_matrix(d.X, **RBF.params())
    run = spectrum.compare_methods(K, 3, k, q, n_eig)
    L = run["scree_length"]
    assert L == spectrum.scree_length(K.shape[0], n_eig, k, q)
    for name, idx in run["indices"].items():
        np.testing.assert_array_equal(run["scree"][name], nystrom_eigenvalues(K, idx, L), name)
    for sketch, name in EKM_SERIES.items():
        np.testing.assert_array_equal(
            run["scree"][name], ekm_eigenvalues(K, q, L, sketch=sketch, random_state=3), name)
    other = spectrum.compare_methods(K, 3, k, q2, n_eig)
    for name in NYSTROM_SERIES.values():
        a, b = ({r["method"]: r for r in x["rows"]}[name] for x in (run, other))
        assert [a[f] for f in UNTIMED] == [b[f] for f in UNTIMED], name
        np.testing.assert_array_equal(run["top"][name], other["top"][name], name)
        np.testing.assert_array_equal(run["indices"][name], other["indices"][name], name)


def test_error_curves_at_the_chosen_k_and_q_match_the_timed_run(spectrum_run):
    K, k, q, n_eig, run = spectrum_run
    curves = spectrum.error_curves(K, 3, n_eig, k_max=k)
    assert curves["k_grid"][-1] == k and curves["with_bound"]
    err_col = f"max rel. error, top {run['n_compared']}"
    rows = {r["method"]: r for r in run["rows"]}
    for name in NYSTROM_SERIES.values():  # the largest k on the grid is the page's k
        np.testing.assert_allclose(curves["nystrom"][name][-1], rows[name][err_col],
                                   rtol=RTOL_EXACT, err_msg=name)
    at_q = np.flatnonzero(curves["q_grid"] == q)
    for name in EKM_SERIES.values():  # same seed: a grid point equal to q is the same sketch
        if at_q.size:
            np.testing.assert_allclose(curves["ekm"][name][at_q[0]], rows[name][err_col],
                                       rtol=RTOL_EXACT, err_msg=name)
        assert np.all(curves["ekm"][name] >= 0)


def test_eq3_reuses_the_shared_exact_spectrum_and_gives_the_same_numbers(spectrum_run,
                                                                          monkeypatch):
    """Given the exact spectrum the app computes once per data set and kernel, the timed run
    and the error curves compute Eq. 3 without a dense eigh of K of their own (its
    eigenvalues are that spectrum's), and every Eq. 3 number is what they compute alone."""
    import mpcore.ekm as ekm  # Eq. 3 (ekm_perturbation_bound) calls its dense eigh here

    K, k, q, n_eig, run = spectrum_run
    alone = spectrum.error_curves(K, 3, n_eig, k_max=k)
    exact = spectrum.exact_spectrum(K)
    full_eighs = []
    real_eigh = ekm.eigh

    def counting_eigh(a, *args, **kwargs):
        # every eigenvalue of K itself (not of E or Z'Z; the timed top-n solvers stay)
        if (kwargs.get("subset_by_index") is None and np.shape(a) == K.shape
                and np.array_equal(a, K)):
            full_eighs.append(np.shape(a))
        return real_eigh(a, *args, **kwargs)

    monkeypatch.setattr(ekm, "eigh", counting_eigh)
    shared_run = spectrum.compare_methods(K, 3, k, q, n_eig, exact=exact)
    shared = spectrum.error_curves(K, 3, n_eig, k_max=k, exact=exact)
    monkeypatch.setattr(ekm, "eigh", real_eigh)
    for name in EKM_SERIES.values():
        for key, value in run["ekm"][name].items():
            np.testing.assert_allclose(shared_run["ekm"][name][key], value, rtol=RTOL_EXACT,
                                       atol=ATOL_EXACT, err_msg=f"{name} {key}")
        np.testing.assert_allclose(shared["ekm_bounds"][name], alone["ekm_bounds"][name],
                                   rtol=RTOL_EXACT, atol=ATOL_EXACT, err_msg=name)
        for a, b in zip(shared["eq3"][name], alone["eq3"][name]):
            np.testing.assert_allclose(a, b, rtol=RTOL_EXACT, atol=ATOL_EXACT, err_msg=name)
    assert full_eighs == []  # no full eigh of K: Eq. 3 took the shared spectrum


def _direct_curves(K, seed, n, k_grid, q_grid):
    """The error curves over the top n computed for that n alone, from mpcore: each rule's
    own columns (every k), each sketch's own eigenproblem and Eq. 3 (every q)."""
    from mpcore.spectrum import (ekm_perturbation_bound, nystrom_eigenvalues,
                                 nystrom_indices)

    exact = exact_eigenvalues(K, n, method="eigh")
    nys = {name: np.array([relative_error(nystrom_eigenvalues(
        K, nystrom_indices(K, int(kk), rule=rule, random_state=seed), n), exact).max()
        for kk in k_grid]) for rule, name in NYSTROM_SERIES.items()}
    ekm, obs = {}, {}
    for sketch, name in EKM_SERIES.items():
        ps = [ekm_perturbation_bound(K, int(qq), n, sketch=sketch, random_state=seed)
              for qq in q_grid]
        ekm[name] = np.array([relative_error(p.approx, exact).max() for p in ps])
        obs[name] = np.array([p.observed.max() for p in ps])
    return nys, ekm, obs


@pytest.mark.parametrize("n", [1, 4, 9])
def test_curves_for_each_n_are_the_curves_computed_for_that_n_alone(spectrum_run, n):
    """The page computes every method's error on each of the top 9 eigenvalues once and
    slices a new n: the slice is what computing the curves for that n alone gives."""
    K = spectrum_run[0]
    by_eig = spectrum.error_curves_by_eigenvalue(K, 3, 9, k_max=12)
    assert by_eig["n_top"] == 9 and by_eig["n_compared"] == 9
    curves = spectrum.curves_for_n(by_eig, n)
    nys, ekm, obs = _direct_curves(K, 3, n, curves["k_grid"], curves["q_grid"])
    assert curves["n_compared"] == n
    for name, errs in nys.items():
        np.testing.assert_allclose(curves["nystrom"][name], errs, rtol=1e-7, atol=1e-12,
                                   err_msg=name)
    for name, errs in ekm.items():
        np.testing.assert_allclose(curves["ekm"][name], errs, rtol=1e-7, atol=1e-12,
                                   err_msg=name)
        np.testing.assert_allclose(curves["eq3"][name][0], obs[name], rtol=1e-7, atol=1e-12,
                                   err_msg=name)
        # Eq. 3 holds at every q for every n: observed <= ||E||_2 <= m max|E_ij|
        _, spectral, entrywise = curves["eq3"][name]
        assert np.all(curves["eq3"][name][0] <= spectral * (1 + 1e-9) + 1e-12)
        assert np.all(spectral <= entrywise * (1 + 1e-9) + 1e-12)


def test_curves_computing_their_own_spectrum_are_those_given_the_pages(spectrum_run):
    """Curves that compute K's spectrum themselves (no ``exact`` given) are those given the
    page's exact spectrum: the same dense eigh, so the same curves, Eq. 3 included."""
    K = validated_kernel(spectrum_run[0])
    given_spectrum = spectrum.error_curves_by_eigenvalue(
        K, 3, 9, k_max=12, exact=spectrum.exact_spectrum(K))
    own = spectrum.error_curves_by_eigenvalue(validated_kernel(spectrum_run[0].copy()), 3, 9,
                                              k_max=12)
    assert own["with_bound"] and own["n_compared"] == given_spectrum["n_compared"] == 9
    for part in ("nystrom", "ekm", "ekm_bounds"):
        assert set(own[part]) == set(given_spectrum[part]), part
        for name, errors in own[part].items():
            np.testing.assert_allclose(errors, given_spectrum[part][name], rtol=1e-12,
                                       atol=1e-15, err_msg=f"{part} {name}")
    for name, arrays in own["eq3"].items():
        for a, b in zip(arrays, given_spectrum["eq3"][name], strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15, err_msg=name)


def test_curves_grow_with_n_and_refuse_an_n_they_were_not_computed_for(spectrum_run):
    """A larger n takes the largest error over more eigenvalues: no curve falls as n grows."""
    K = spectrum_run[0]
    by_eig = spectrum.error_curves_by_eigenvalue(K, 3, 9, k_max=12)
    previous = None
    for n in range(1, 10):
        c = spectrum.curves_for_n(by_eig, n)
        now = np.concatenate([*c["nystrom"].values(), *c["ekm"].values(),
                              *c["ekm_bounds"].values()])
        if previous is not None:
            assert np.all(now >= previous)
        previous = now
    for bad in (0, 10):
        with pytest.raises(ValueError, match="between 1 and 9"):
            spectrum.curves_for_n(by_eig, bad)
    with pytest.raises(ValueError, match="n_top"):
        spectrum.error_curves_by_eigenvalue(K, 3, K.shape[0] + 1, k_max=12)


# ---------------------------------------------------------------- KCCA


def test_kcca_correlations_equal_refitted_sparse_kcca_for_each_t():
    d = kcca.kcca_data(100, 0.1, 2, 0.3)
    sx, sy, reg = 0.7, 0.5, 1e-2
    v = kcca.kcca_view(d, sx, sy, reg, 6)
    gx, gy = sigma_to_gamma(sx, "book"), sigma_to_gamma(sy, "book")
    for t in range(1, len(v["steps"]) + 1):
        model = SparseKCCA(t, gamma_x=gx, gamma_y=gy, reg=reg).fit(d["X"], d["Y"])
        np.testing.assert_array_equal(model.indices_, v["indices"][:t])
        np.testing.assert_allclose(v["rho"][t - 1], model.correlations_[0], atol=ATOL_EXACT)
        np.testing.assert_allclose(v["train"][t - 1], model.score(d["X"], d["Y"]),
                                   atol=ATOL_EXACT, err_msg=f"t = {t}")
        np.testing.assert_allclose(v["test"][t - 1], model.score(d["X_te"], d["Y_te"]),
                                   atol=ATOL_EXACT, err_msg=f"t = {t}")


def test_kcca_data_is_the_seeded_split_of_two_view():
    d = kcca.kcca_data(50, 0.2, 4, 0.3)
    X, Y, z = datasets.two_view(50, 0.2, 4)
    tr, te = train_test_split(np.arange(50), test_size=0.3, random_state=4)
    for key, full, idx in (("X", X, tr), ("Y_te", Y, te), ("z", z, tr)):
        np.testing.assert_array_equal(d[key], full[idx])


# ---------------------------------------------------------------- KMP


def _direct_kmp(task, settings, gamma, X, y):
    cls = KMPClassifier if task == "classification" else KMPRegressor
    kw = dict(loss=settings.loss) if task == "classification" else {}
    return cls(settings.n_basis, kernel="rbf", gamma=gamma, fitting=settings.fitting,
               backfit_every=settings.backfit_every, **kw).fit(X, y)


@pytest.mark.parametrize("mode", ["fittings", "losses"])
def test_kmp_comparison_rows_equal_fitting_each_estimator_directly(moons, mode):
    d, tr, te = moons
    X, y, Xt, yt, _ = kmp.feature_split(d, tr, te)
    s = kmp.KMPSettings(n_basis=10)
    cmp = kmp.compare(X, y, Xt, yt, task="classification", kern=RBF, s=s, C=10.0, mode=mode,
                      basic_n=15, grid=20)
    svm = SVC(C=10.0, gamma=RBF.gamma).fit(X, y)
    N = svm.support_.size
    assert cmp["n_basis"] == N
    runs = kmp.comparison_runs("classification", s, mode=mode, n_basis=N, basic_n=15, m=len(X))
    rows = {r["method"]: r for r in cmp["rows"]}
    assert list(rows)[:-1] == [title for title, _ in runs]
    for title, settings in runs:
        model = _direct_kmp("classification", settings, RBF.gamma, X, y)
        basis = model.basis_indices_
        assert rows[title]["steps"] == len(basis), title
        assert rows[title]["distinct_basis_points"] == np.unique(basis[basis >= 0]).size
        assert rows[title]["train"] == np.mean(model.predict(X) == y), title
        assert rows[title]["test"] == np.mean(model.predict(Xt) == yt), title
    svm_row = cmp["rows"][-1]
    assert svm_row["distinct_basis_points"] == N
    assert svm_row["train"] == np.mean(svm.predict(X) == y)
    assert svm_row["test"] == np.mean(svm.predict(Xt) == yt)
    # one panel per method on the 20 x 20 grid; Figure 7 puts the SVM first
    assert len(cmp["panels"]) == len(runs) + 1
    assert all(p["Z"].shape == (20, 20) for p in cmp["panels"])
    assert cmp["panels"][0 if mode == "losses" else -1]["title"].startswith("SVM")
    fig = kmp.comparison_figure(cmp, X, y)
    assert fig is not None and len(fig.layout.annotations) >= len(cmp["panels"])


def test_kmp_comparison_on_1d_regression_scores_root_mean_squared_errors():
    d = data.load(DataChoice("sine", n_samples=60, noise=0.1, seed=0))
    tr, te = data.split(d, 0.3, 0)
    X, y, Xt, yt, names = kmp.feature_split(d, tr, te)
    s = kmp.KMPSettings(n_basis=6)
    cmp = kmp.compare(X, y, Xt, yt, task="regression", kern=RBF, s=s, C=10.0, n_basis=6,
                      basic_n=8)
    for title, settings in kmp.comparison_runs("regression", s, mode="fittings", n_basis=6,
                                               basic_n=8, m=len(X)):
        model = _direct_kmp("regression", settings, RBF.gamma, X, y)
        row = next(r for r in cmp["rows"] if r["method"] == title)
        np.testing.assert_allclose(row["test"], np.sqrt(np.mean((model.predict(Xt) - yt) ** 2)),
                                   rtol=RTOL_EXACT, err_msg=title)
    assert cmp["one_d"] and cmp["rows"][-1]["method"].startswith("SVR")
    assert kmp.comparison_figure(cmp, X, y, x_label=names[0]) is not None
    assert isinstance(cmp["svm"]["svm"].model, SVR)


def test_kmp_feature_split_keeps_one_named_feature(moons):
    d, tr, te = moons
    X, y, Xt, yt, names = kmp.feature_split(d, tr, te, feature=d.feature_names[1])
    np.testing.assert_array_equal(X[:, 0], d.X[tr, 1])
    assert names == (d.feature_names[1],)
    with pytest.raises(ValueError, match="Unknown feature"):
        kmp.feature_split(d, tr, te, feature="nope")


def test_kmp_staged_values_end_at_the_fitted_predictions(moons):
    d, tr, te = moons
    X, y, Xt, yt, _ = kmp.feature_split(d, tr, te)
    model, warns = kmp.fit_kmp(X, y, "classification", RBF, kmp.KMPSettings(n_basis=6))
    v = kmp.staged(model, X, Xt)
    np.testing.assert_array_equal(v["test"][-1], model.predict(Xt))
    assert len(v["basis"]) == len(v["train"]) == model.n_basis_
    assert isinstance(warns, tuple)


def test_the_figure_6_experiment_shows_the_pages_comparison(monkeypatch):
    """experiments.vincent_bengio fits Figure 6 through views.kmp.compare, the KMP page's call."""
    import experiments.vincent_bengio as vb
    from experiments.vincent_bengio import figures  # where Figures 5 to 7 look compare up

    calls = []
    real = figures.compare

    def recording(*args, **kwargs):
        calls.append(kwargs["mode"])
        return real(*args, **kwargs)

    monkeypatch.setattr(figures, "compare", recording)
    res = vb.vb_fig6_fittings(vb.FittingsSettings(n_samples=40, basic_iterations=20, n_test=50,
                                                  grid=15))
    assert calls == ["fittings"]
    assert list(res.table["method"]) == ["KMP basic", "KMP back-fitting", "KMP pre-fitting",
                                         "SVM (hard margin)"]


def test_added_rows_are_the_clicked_points_among_the_training_rows():
    """The points added by clicking are the data set's last rows: their positions in
    X[train], whatever order the split put them in; none without a click."""
    train = np.array([7, 0, 9, 3, 8])
    np.testing.assert_array_equal(skpca.added_rows(train, 10, 2), [2, 4])
    np.testing.assert_array_equal(skpca.added_rows(train, 10, 0), np.zeros(0, dtype=int))
    assert skpca.added_rows(train, 10, 0).dtype.kind == "i"


def test_curves_are_computed_for_the_most_eigenvalues_the_page_offers():
    """A new n then only slices them: the top min(N_EIG_MAX, m - 1), or n if it is larger."""
    assert spectrum.curves_top(506, 5) == spectrum.N_EIG_MAX
    assert spectrum.curves_top(12, 5) == 11
    assert spectrum.curves_top(12, 12) == 12


def test_train_classes_are_those_the_split_keeps_for_training():
    """The one-vs-rest class menu's classes: those of the rows :func:`split` trains on."""
    y = np.array([0] * 10 + [1] * 10 + [2] * 10 + [9])  # one 9: the split cannot stratify
    for seed in range(20):
        d = datasets.Dataset(X=np.zeros((y.size, 2)), y=y, task="classification", name="t",
                             description="", source="", feature_names=("a", "b"),
                             target_name="y")
        train, _ = data.split(d, 0.3, seed)
        assert data.train_classes(y, 0.3, seed) == tuple(int(c) for c in np.unique(y[train]))
    assert {len(data.train_classes(y, 0.3, s)) for s in range(20)} == {3, 4}  # 9 in or out


def test_upload_facts_name_the_task_features_and_classes_or_nothing():
    raw = b"a,b,label\n0.1,1.0,0\n0.2,2.0,1\n0.3,0.5,0\n0.9,1.5,1\n"
    facts = data.upload_facts(raw, "label")
    scale = facts.pop("_scale")
    assert facts == {"_task": "classification", "_features": ("a", "b"), "_classes": (0, 1),
                     "_labels": (0, 1, 0, 1)}
    # the width scale: the median distance between two rows, standardised and as read
    from scipy.spatial.distance import pdist

    X = np.array([[0.1, 1.0], [0.2, 2.0], [0.3, 0.5], [0.9, 1.5]])
    np.testing.assert_allclose(scale, (np.median(pdist((X - X.mean(0)) / X.std(0))),
                                       np.median(pdist(X))), rtol=ATOL_EXACT)
    assert data.upload_facts(raw, "no such column") == {}
