"""Shared sidebar controls: one place for the view state, mirrored in the URL.

Every control is a Streamlit widget with ``key=<url name>`` and
``bind="query-params"``: its value lives in ``st.session_state`` and in the
URL, so a copied link reproduces exactly what the lecturer shows, seed
included. A lecturer can hide controls with ``?hide=kernel,sigma`` (built by
the classroom-link builder): a hidden control is not drawn and takes its value
from the URL (or its default).

The functions return frozen dataclasses (hashable cache keys) that go
straight into mpcore and datasets.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np
import streamlit as st

import datasets
from mpcore.kernels import sigma_to_gamma

# ---------------------------------------------------------------- the controls

#: Width grid offered for Gaussian / Laplacian kernels (log-spaced).
SIGMAS = (0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0, 7.0, 10.0, 15.0, 20.0,
          30.0, 50.0, 100.0)
GAMMAS = (0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
KERNEL_LABELS = {
    "rbf": "Gaussian (rbf)", "laplacian": "Laplacian", "polynomial": "Polynomial",
    "linear": "Linear", "cosine": "Cosine", "sigmoid": "Sigmoid (not PSD)",
}
CSV = "csv upload"

#: Largest training set the app accepts (memory and latency stay bounded per session).
MAX_APP_SAMPLES = 3000

#: Every shared control: URL key -> (label, default). Page-specific keys are
#: prefixed with the page name (``skpca.step``).
SHARED = {
    "dataset": ("Data set", "moons"),
    "n": ("Number of points n", None),
    "noise": ("Noise", None),
    "seed": ("Seed", 0),
    "ratio": ("Variance ratio of the 50 large directions", 10.0),
    "std": ("Standardise features", True),
    "kernel": ("Kernel", "rbf"),
    "sigma": ("Width sigma", 1.0),
    "gamma": ("gamma", 0.1),
    "degree": ("Degree", 3),
    "coef0": ("coef0", 1.0),
    "k": ("Sparsity k (basis vectors)", 20),
    "test": ("Test fraction", 0.3),
}

#: Recommended width per data set (standardised features): about the median
#: pairwise distance divided by two, rounded onto the SIGMAS grid.
DEFAULT_SIGMA = {
    "moons": 0.5, "circles": 0.5, "blobs": 1.0, "xor": 0.5, "spirals": 0.3, "sine": 0.5,
    "gaussian_toy": 30.0, "boston": 3.0, "breast_cancer": 5.0, "digits": 7.0, "diabetes": 3.0,
    "two_view": 1.0, CSV: 1.0,
}


def hidden() -> frozenset:
    """Controls hidden by the classroom link (``?hide=a,b``)."""
    raw = st.query_params.get("hide", "")
    return frozenset(p for p in raw.split(",") if p)


def _from_url(key, default, cast):
    raw = st.query_params.get(key)
    if raw is None:
        return default
    try:
        return cast(raw)
    except (TypeError, ValueError):
        return default


def _bool(raw):
    return str(raw).lower() in ("true", "1", "yes")


def control(widget, key, label, default, *, cast=str, **kwargs):
    """Draw ``widget`` bound to the URL under ``key``, unless the key is hidden.

    A hidden control is not drawn: its value comes from the URL or ``default``.
    The default is passed only while the session has no value for ``key`` (so a
    value set by a preset or callback never clashes with it).
    """
    if key in hidden():
        return _from_url(key, default, cast)
    st.session_state.setdefault("_defaults", {})[key] = default
    if key not in st.session_state:
        if widget in (st.selectbox, st.radio):
            options = list(kwargs["options"])
            kwargs["index"] = options.index(default) if default in options else 0
        else:
            kwargs["value"] = default
    return widget(label, key=key, bind="query-params", **kwargs)


# ---------------------------------------------------------------- choices


@dataclass(frozen=True)
class DataChoice:
    """What data to load: a registered name and its parameters, or an upload."""

    name: str
    n_samples: int | None = None
    noise: float | None = None
    seed: int = 0
    variance_ratio: float = 10.0
    standardize: bool = True
    csv_digest: str | None = None  # set for uploads; the bytes live in session state
    csv_target: str | None = None
    added: tuple = ()  # points added by clicking: ((x1, x2, label), ...)

    def load_kwargs(self) -> dict:
        kw = dict(n_samples=self.n_samples, noise=self.noise, random_state=self.seed)
        if self.name == "gaussian_toy":
            kw.pop("noise")
            kw["variance_ratio"] = self.variance_ratio
        return kw


@dataclass(frozen=True)
class KernelChoice:
    """A kernel and its parameters, ready for ``mpcore.kernels.kernel_matrix``."""

    kernel: str = "rbf"
    gamma: float | None = None
    degree: int = 3
    coef0: float = 1.0
    sigma: float | None = field(default=None, compare=False)

    def params(self) -> dict:
        return dict(kernel=self.kernel, gamma=self.gamma, degree=self.degree, coef0=self.coef0)

    def label(self) -> str:
        if self.kernel in ("rbf", "laplacian") and self.sigma is not None:
            return f"{self.kernel}, sigma = {self.sigma:g} (gamma = {self.gamma:.4g})"
        if self.kernel == "polynomial":
            return f"polynomial, degree {self.degree}, gamma = {self.gamma:g}, coef0 = {self.coef0:g}"
        if self.kernel == "sigmoid":
            return f"sigmoid, gamma = {self.gamma:g}, coef0 = {self.coef0:g}"
        return self.kernel


def _on_dataset_change():
    name = st.session_state.get("dataset")
    if name in DEFAULT_SIGMA and "sigma" not in hidden():
        st.session_state["sigma"] = DEFAULT_SIGMA[name]
    for key in ("n", "noise"):
        st.session_state.pop(key, None)


def data_controls(*, tasks=("classification", "regression", "unsupervised"), allow_csv=True,
                  two_d_only=False, default=None) -> DataChoice | None:
    """Sidebar block choosing the data set; returns None (after st.error) if unusable."""
    options = [n for n in datasets.names() if datasets.info(n).task in tasks]
    if two_d_only:
        options = [n for n in options if datasets.info(n).kind == "synthetic" and n != "gaussian_toy"]
    if allow_csv:
        options.append(CSV)
    if "dataset" in st.session_state and st.session_state["dataset"] not in options:
        st.session_state["dataset"] = default if default in options else options[0]
    st.sidebar.subheader("Data")
    with st.sidebar:
        name = control(st.selectbox, "dataset", SHARED["dataset"][0],
                       default if default in options else options[0], options=options,
                       on_change=_on_dataset_change)
        if name not in options:
            name = options[0]
        if name == CSV:
            return _csv_controls()
        entry = datasets.info(name)
        n_default = entry.default_n
        n_max = min(entry.max_n if entry.kind == "synthetic" else entry.default_n, MAX_APP_SAMPLES)
        n = control(st.slider, "n", SHARED["n"][0], min(n_default, n_max), cast=int,
                    min_value=entry.min_n, max_value=n_max,
                    step=10 if n_max > 200 else 1,
                    help="Bundled tables: a seeded random subset of this size.")
        noise = None
        if entry.default_noise is not None:
            noise = control(st.slider, "noise", SHARED["noise"][0], float(entry.default_noise),
                            cast=float, min_value=0.0, max_value=1.0, step=0.01)
        ratio = 10.0
        if name == "gaussian_toy":
            ratio = control(st.slider, "ratio", SHARED["ratio"][0], 10.0, cast=float,
                            min_value=1.0, max_value=100.0, step=1.0)
        seed = control(st.number_input, "seed", SHARED["seed"][0], 0, cast=int,
                       min_value=0, max_value=10**6, step=1)
        std = control(st.checkbox, "std", SHARED["std"][0], True, cast=_bool,
                      help="Scale every feature to zero mean and unit variance.")
    return DataChoice(name=name, n_samples=int(n), noise=noise, seed=int(seed),
                      variance_ratio=float(ratio), standardize=bool(std),
                      added=added_points() if entry.kind == "synthetic" else ())


def _csv_controls() -> DataChoice | None:
    """Upload through datasets.from_csv; errors keep the previous valid upload."""
    up = st.file_uploader("Numeric CSV with a header row",
                          type=["csv", "txt"], key="csv.file",
                          help=f"At most {datasets.MAX_ROWS} rows, {datasets.MAX_COLS} columns, "
                               f"{datasets.MAX_BYTES // 1024 // 1024} MB. Numbers only.")
    if up is not None:
        raw = up.getvalue()
        digest = hashlib.sha256(raw).hexdigest()[:16]
        if st.session_state.get("csv.digest") != digest:
            try:
                # validate once, without a target, to learn the header
                probe = datasets.from_csv(raw, max_rows=MAX_APP_SAMPLES)
            except ValueError as exc:
                st.error(f"{up.name}: {exc}")
            else:
                st.session_state["csv.bytes"] = raw
                st.session_state["csv.digest"] = digest
                st.session_state["csv.name"] = up.name
                st.session_state["csv.columns"] = list(probe.feature_names)
    if "csv.bytes" not in st.session_state:
        st.info("Upload a CSV file to use your own data (the previous data set stays loaded "
                "until a valid file arrives).")
        return None
    cols = ["(none)"] + st.session_state["csv.columns"]
    target = st.selectbox("Target column", cols, key="csv.target")
    std = st.checkbox("Standardise features", value=True, key="csv.std")
    st.caption(f"Using {st.session_state['csv.name']}")
    return DataChoice(name=CSV, csv_digest=st.session_state["csv.digest"],
                      csv_target=None if target == "(none)" else target, standardize=std)


def kernel_controls(*, allow_sigmoid=False, kernels=None, default_sigma=None) -> KernelChoice:
    """Sidebar block choosing the kernel; sigma is shown with the gamma it maps to."""
    names = list(kernels or KERNEL_LABELS)
    if default_sigma is None:
        current = st.session_state.get("dataset") or _from_url("dataset", "moons", str)
        default_sigma = DEFAULT_SIGMA.get(current, 1.0)
    if not allow_sigmoid and "sigmoid" in names:
        names.remove("sigmoid")
    if "kernel" in st.session_state and st.session_state["kernel"] not in names:
        st.session_state["kernel"] = names[0]
    st.sidebar.subheader("Kernel")
    with st.sidebar:
        # raw option names: a bound selectbox writes the displayed text into the URL
        kernel = control(st.selectbox, "kernel", SHARED["kernel"][0], names[0], options=names,
                         help="; ".join(f"{n}: {KERNEL_LABELS[n]}" for n in names))
        if kernel not in names:
            kernel = names[0]
        gamma, sigma, degree, coef0 = None, None, 3, 1.0
        if kernel in ("rbf", "laplacian"):
            sigma = control(st.select_slider, "sigma", SHARED["sigma"][0],
                            default_sigma or 1.0, cast=float,
                            options=SIGMAS)
            if sigma not in SIGMAS:
                sigma = min(SIGMAS, key=lambda s: abs(s - float(sigma)))
            if kernel == "rbf":
                gamma = sigma_to_gamma(sigma, "book")
                st.latex(r"\kappa(x,z)=e^{-\|x-z\|^2/2\sigma^2}")
                st.latex(rf"\gamma=\tfrac{{1}}{{2\sigma^2}}={gamma:.4g}")
            else:
                gamma = 1.0 / sigma
                st.latex(r"\kappa(x,z)=e^{-\|x-z\|_1/\sigma}")
                st.latex(rf"\gamma=\tfrac{{1}}{{\sigma}}={gamma:.4g}")
        elif kernel in ("polynomial", "sigmoid"):
            gamma = control(st.select_slider, "gamma", SHARED["gamma"][0], 0.1, cast=float,
                            options=GAMMAS)
            if kernel == "polynomial":
                degree = control(st.slider, "degree", SHARED["degree"][0], 3, cast=int,
                                 min_value=1, max_value=10)
            coef0 = control(st.select_slider, "coef0", SHARED["coef0"][0], 1.0, cast=float,
                            options=(-1.0, 0.0, 0.5, 1.0, 2.0))
            if kernel == "polynomial":
                st.latex(rf"\kappa(x,z)=(\gamma\,x'z+c_0)^{{{degree}}}")
            else:
                st.latex(r"\kappa(x,z)=\tanh(\gamma\,x'z+c_0)")
    return KernelChoice(kernel=kernel, gamma=gamma, degree=int(degree), coef0=float(coef0),
                        sigma=sigma)


def sparsity_control(*, k_max, default=20, key="k", label=None) -> int:
    """Slider for the sparsity k (number of basis vectors), clamped to k_max."""
    k_max = max(1, int(k_max))
    default = min(default, k_max)
    if key in st.session_state and key not in hidden():
        # re-assign every run: a new k_max gives the slider a new identity, and the
        # assignment carries the value over instead of letting it fall back to 1
        st.session_state[key] = min(int(st.session_state[key]), k_max)
    with st.sidebar:
        if k_max == 1:
            st.caption("k = 1 (only one point)")
            return 1
        return int(control(st.slider, key, label or SHARED["k"][0], default, cast=int,
                           min_value=1, max_value=k_max))


def test_fraction_control() -> float:
    with st.sidebar:
        return float(control(st.slider, "test", SHARED["test"][0], 0.3, cast=float,
                             min_value=0.1, max_value=0.5, step=0.05))


# ---------------------------------------------------------------- added points


def added_points() -> tuple:
    """Points a user added by clicking (kept in the URL as ``pts=x:y:c;...``)."""
    raw = st.query_params.get("pts", "")
    out = []
    for item in raw.split(";"):
        try:
            x, y, c = item.split(":")
            out.append((round(float(x), 3), round(float(y), 3), int(c)))
        except ValueError:
            continue
    return tuple(out[:200])


def add_point(x, y, label):
    pts = list(added_points()) + [(round(float(x), 3), round(float(y), 3), int(label))]
    st.query_params["pts"] = ";".join(f"{a}:{b}:{c}" for a, b, c in pts[-200:])


def clear_points():
    st.query_params.pop("pts", None)


def reset_url() -> str:
    """This page's address with every control at its default (classroom hiding kept).

    Opening it starts a fresh session: controls bound to the URL cannot be
    cleared in place (Streamlit refuses to edit bound query parameters), and a
    reload is the one reset that also forgets values a link had set.
    """
    base = (st.context.url or "").split("?")[0]
    keep = st.query_params.get("hide")
    return f"{base}?hide={keep}" if keep else base


def finite_or_none(a):
    """None if ``a`` holds NaN/inf (a plot then says why instead of drawing)."""
    a = np.asarray(a, dtype=float)
    return a if np.all(np.isfinite(a)) else None
