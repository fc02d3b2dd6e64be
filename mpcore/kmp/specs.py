r"""Kernel specifications of a KMP dictionary (Vincent & Bengio, Section 4.1).

A KMP dictionary may hold several kernel shapes at once (a *mixed* dictionary,
Section 4.1 and the paper's conclusion): every training point then offers one
column per specification. :class:`KernelSpec` is one shape;
:func:`normalize_kernel_specs` reads what a user passes as ``kernel=`` (a name, a
dict, or a list of them); :func:`mixed_dictionary` builds the lists the KMP page
offers (several widths of one kernel, or several kernel types) and
:func:`spec_label` names a specification for people.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from .._arguments import (
    MAX_ABS_VALUE,
    _short,
    check_kernel_name,
    check_positive_float,
    check_positive_int,
)
from ..kernels import _check_params, _check_sigma, gamma_to_sigma, sigma_to_gamma

__all__ = [
    "KernelSpec", "normalize_kernel_specs", "check_kernel_argument", "spec_label", "has_width", "mixed_dictionary",
    "MIX_MODES", "WIDTH_FACTORS", "PRECOMPUTED",
]

#: ``kernel=PRECOMPUTED``: fit takes the training kernel matrix, predict K(X, X_train).
PRECOMPUTED = "precomputed"

_GAMMA_KERNELS = ("rbf", "laplacian", "polynomial", "sigmoid")
_SPEC_KEYS = ("kernel", "gamma", "degree", "coef0")


@dataclass(frozen=True)
class KernelSpec:
    """One kernel shape of a (mixed) KMP dictionary.

    Parameters that the kernel does not use are stored as None, so two
    specifications are equal exactly when they define the same function.

    Attributes
    ----------
    kernel : str
    gamma : float or None
        None means scikit-learn's default ``1 / n_features`` (resolved by
        :func:`normalize_kernel_specs` when it is given ``n_features``).
    degree : int or None
        Polynomial kernels only.
    coef0 : float or None
        Polynomial and sigmoid kernels only.
    """

    kernel: str
    gamma: float | None = None
    degree: int | None = None
    coef0: float | None = None

    @property
    def params(self) -> dict:
        """Keyword arguments for :func:`mpcore.kernels.kernel_matrix`."""
        return dict(
            kernel=self.kernel,
            gamma=self.gamma,
            degree=3 if self.degree is None else self.degree,
            coef0=1.0 if self.coef0 is None else self.coef0,
        )

    @property
    def label(self) -> str:
        """Short name such as ``"rbf(gamma=0.5)"`` for legends and tables."""
        parts = []
        if self.kernel in _GAMMA_KERNELS:
            parts.append("gamma=1/n_features" if self.gamma is None else f"gamma={self.gamma:g}")
        if self.degree is not None:
            parts.append(f"degree={self.degree}")
        if self.coef0 is not None:
            parts.append(f"coef0={self.coef0:g}")
        return f"{self.kernel}({', '.join(parts)})" if parts else self.kernel


def _one_spec(item, gamma, degree, coef0, n_features):
    if isinstance(item, KernelSpec):
        item = {k: v for k, v in vars(item).items() if v is not None}
    if isinstance(item, str):
        item = {"kernel": item}
    if not isinstance(item, dict):
        raise TypeError(
            "Each kernel specification must be a kernel name or a dict such as "
            f"{{'kernel': 'rbf', 'gamma': 0.5}}, got {_short(item)}."
        )
    unknown = sorted(map(repr, set(item) - set(_SPEC_KEYS)))
    if unknown:
        hints = [m for k in item if k not in _SPEC_KEYS and isinstance(k, str)
                 for m in difflib.get_close_matches(k, _SPEC_KEYS, n=1)]
        hint = f" Did you mean {', '.join(map(repr, hints))}?" if hints else ""
        raise ValueError(
            f"Unknown key(s) {', '.join(unknown)} in kernel specification {_short(item)}; "
            f"allowed keys: {', '.join(_SPEC_KEYS)}.{hint}"
        )
    if "kernel" not in item:
        raise ValueError(f"Kernel specification {item!r} has no 'kernel' key.")
    name = check_kernel_name(item["kernel"])
    g, d, c = _check_params(item.get("gamma", gamma), item.get("degree", degree),
                            item.get("coef0", coef0))
    if name in _GAMMA_KERNELS:
        if g is None and n_features is not None:
            g = 1.0 / n_features
    else:
        g = None
    d = d if name == "polynomial" else None
    c = c if name in ("polynomial", "sigmoid") else None
    return KernelSpec(name, g, d, c)


def check_kernel_argument(kernel):
    """Refuse a ``kernel=`` argument of the wrong kind with a message saying what to pass.

    A set is refused on purpose: its order is arbitrary, and the order of a mixed
    dictionary's specifications decides which column a tie picks.
    """
    if isinstance(kernel, (set, frozenset)):
        raise ValueError(
            f"kernel is a set ({_short(kernel)}); a set has no order, and the order of a "
            "mixed dictionary's specifications matters. Pass a list instead, e.g. "
            "['rbf', 'laplacian'] or [{'kernel': 'rbf', 'gamma': 0.5}, {'kernel': 'rbf', "
            "'gamma': 5}]."
        )
    if not isinstance(kernel, (str, dict, list, tuple, KernelSpec)):
        raise TypeError(
            "kernel must be a kernel name, a dict such as {'kernel': 'rbf', 'gamma': 0.5}, "
            f"a KernelSpec, or a list of them; got {_short(kernel)}."
        )


def normalize_kernel_specs(kernel="rbf", *, gamma=None, degree=3, coef0=1.0, n_features=None):
    """Normalise a kernel argument to a tuple of :class:`KernelSpec`.

    Parameters
    ----------
    kernel : str, dict, KernelSpec, or list of them
        One kernel, or several for a mixed dictionary (Vincent & Bengio,
        Section 4.1), e.g. ``[{"kernel": "rbf", "gamma": 0.5},
        {"kernel": "rbf", "gamma": 5}, "polynomial"]``.
    gamma, degree, coef0 :
        Defaults for the keys a dict leaves out.
    n_features : int, optional
        Resolves ``gamma=None`` to ``1 / n_features`` (scikit-learn's default).

    Returns
    -------
    specs : tuple of KernelSpec
        Use ``spec.label`` to name a basis function's kernel.

    Examples
    --------
    >>> [s.label for s in normalize_kernel_specs([{"kernel": "rbf", "gamma": 0.5}, "linear"])]
    ['rbf(gamma=0.5)', 'linear']
    """
    check_kernel_argument(kernel)
    items = list(kernel) if isinstance(kernel, (list, tuple)) else [kernel]
    if n_features is not None:
        n_features = check_positive_int(n_features, "n_features")
    if not items:
        raise ValueError("kernel is an empty list: give at least one kernel specification.")
    specs = tuple(_one_spec(item, gamma, degree, coef0, n_features) for item in items)
    if len(set(specs)) != len(specs):
        dup = sorted({s.label for s in specs if specs.count(s) > 1})
        raise ValueError(f"kernel has specification(s) listed twice: {', '.join(dup)}. "
                         "Remove the duplicates (linear and cosine take no gamma, so "
                         "different gammas do not make them different).")
    return specs


#: Dictionary choices: one kernel, several widths of it, several kernel types.
MIX_MODES = ("single", "widths", "types")
#: Width multipliers of a "widths" dictionary: sigma/2, sigma, 2 sigma.
WIDTH_FACTORS = (0.5, 1.0, 2.0)
#: Kernels whose shape has a width (a gamma) to vary.
_WIDTH_KERNELS = ("rbf", "laplacian", "polynomial", "sigmoid")


def spec_label(spec) -> str:
    """A kernel specification named for people: widths as sigma where the page uses sigma.

    Gaussian :math:`e^{-\\gamma\\|x-z\\|^2}` has :math:`\\sigma = 1/\\sqrt{2\\gamma}`
    (Shawe-Taylor & Cristianini's convention), Laplacian :math:`\\sigma = 1/\\gamma`;
    other kernels keep ``KernelSpec.label``.

    Examples
    --------
    >>> from mpcore.kmp import KernelSpec
    >>> spec_label(KernelSpec("rbf", gamma=0.5))
    'Gaussian σ = 1'
    """
    if not isinstance(spec, KernelSpec):
        raise TypeError(f"spec must be a KernelSpec (see normalize_kernel_specs), got {_short(spec)}.")
    if spec.kernel == "rbf" and spec.gamma:
        return f"Gaussian σ = {gamma_to_sigma(spec.gamma, 'book'):.3g}"
    if spec.kernel == "laplacian" and spec.gamma:
        return f"Laplacian σ = {gamma_to_sigma(spec.gamma, 'laplacian'):.3g}"
    return spec.label


def has_width(kernel: str) -> bool:
    """Whether ``kernel`` has a width parameter that a "widths" dictionary can vary."""
    return kernel in _WIDTH_KERNELS


def mixed_dictionary(kernel="rbf", *, gamma=None, degree=3, coef0=1.0, mode="single",
                     sigma=None, factors=WIDTH_FACTORS):
    r"""Kernel specifications of a (mixed) KMP dictionary, Vincent & Bengio Section 4.1.

    Parameters
    ----------
    kernel, gamma, degree, coef0 :
        The base kernel (as for :func:`mpcore.kernels.kernel_matrix`).
    mode : {"single", "widths", "types"}
        "single": the base kernel only. "widths": the base kernel at every width
        ``factor * sigma`` (Gaussian: :math:`\gamma/f^2`; Laplacian:
        :math:`\gamma/f`; polynomial and sigmoid: :math:`\gamma/f^2`, the scale of
        :math:`x'z`). "types": a Gaussian and a Laplacian of width ``sigma`` and a
        degree-2 polynomial (:math:`\gamma = 1/d`, :math:`c_0 = 1`), so that each
        training point offers three shapes.
    sigma : float, optional
        Width for "types" (default: derived from ``gamma`` of a Gaussian
        (:math:`\sigma = 1/\sqrt{2\gamma}`) or Laplacian (:math:`1/\gamma`) base
        kernel, else 1).
    factors : tuple of float
        Width multipliers for "widths".

    Returns
    -------
    list of dict
        Specifications for :class:`mpcore.kmp.KMPClassifier` ``kernel=``.

    Examples
    --------
    >>> mixed_dictionary("rbf", gamma=2.0, mode="widths")
    [{'kernel': 'rbf', 'gamma': 8.0}, {'kernel': 'rbf', 'gamma': 2.0}, {'kernel': 'rbf', 'gamma': 0.5}]
    """
    if not isinstance(mode, str) or mode not in MIX_MODES:
        raise ValueError(f"Unknown dictionary mode {_short(mode)}. Choose one of: "
                         f"{', '.join(MIX_MODES)}.")
    check_kernel_name(kernel)
    gamma, degree, coef0 = _check_params(gamma, degree, coef0)
    base = {"kernel": kernel}
    if gamma is not None:
        base["gamma"] = float(gamma)
    if kernel == "polynomial":
        base["degree"] = int(degree)
    if kernel in ("polynomial", "sigmoid"):
        base["coef0"] = float(coef0)
    if mode == "single":
        return [base]
    if mode == "widths":
        if not has_width(kernel):
            raise ValueError(
                f"The {kernel!r} kernel has no width to vary: choose a Gaussian, Laplacian, "
                "polynomial or sigmoid kernel, or the 'types' dictionary."
            )
        if gamma is None:
            raise ValueError("A 'widths' dictionary needs an explicit gamma for the base kernel.")
        if isinstance(factors, (str, bytes)) or not hasattr(factors, "__iter__"):
            raise TypeError(f"factors must be a sequence of positive numbers, got {_short(factors)}.")
        out = []
        for f in factors:
            f = check_positive_float(f, "width factor", maximum=1e6)
            if f < 1e-6:
                raise ValueError(f"width factor must be >= 1e-6, got {f!r}.")
            g = gamma / f if kernel == "laplacian" else gamma / f**2
            if not 0 < g <= MAX_ABS_VALUE:
                raise ValueError(f"width factor {f!r} gives gamma = {g!r}, outside (0, "
                                 f"{MAX_ABS_VALUE:.0e}]; choose factors nearer 1.")
            out.append(dict(base, gamma=float(g)))
        if not out:
            raise ValueError("factors is empty: give at least one width factor.")
        return out
    if sigma is None:
        if kernel == "rbf" and gamma:
            sigma = gamma_to_sigma(gamma, "book")
        elif kernel == "laplacian" and gamma:
            sigma = gamma_to_sigma(gamma, "laplacian")
        else:
            sigma = 1.0
    sigma = _check_sigma(sigma)
    return [
        {"kernel": "rbf", "gamma": float(sigma_to_gamma(sigma, "book"))},
        {"kernel": "laplacian", "gamma": float(sigma_to_gamma(sigma, "laplacian"))},
        {"kernel": "polynomial", "degree": 2, "coef0": 1.0},
    ]
