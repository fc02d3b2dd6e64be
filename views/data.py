"""Data as the pages see it: the choices, loading, clicked points, the seeded split.

:class:`DataChoice` and :class:`KernelChoice` are frozen (hashable) so they
key the app's caches and go straight into :mod:`datasets` and :mod:`mpcore`.
:func:`load` standardises and appends clicked points; :func:`split` is the
one seeded train/test split (stratified for classification when every class
can be split), used by every page, the code snippets and the experiments.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import datasets

__all__ = ["DataChoice", "KernelChoice", "load", "split", "stratified", "can_stratify",
           "upload_facts"]


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
            return (f"polynomial, degree {self.degree}, gamma = {self.gamma:g}, "
                    f"coef0 = {self.coef0:g}")
        if self.kernel == "sigmoid":
            return f"sigmoid, gamma = {self.gamma:g}, coef0 = {self.coef0:g}"
        return self.kernel


def load(choice: DataChoice, csv_bytes: bytes | None = None, *,
         max_rows: int | None = None) -> datasets.Dataset:
    """The data set of ``choice``: clicked points appended, then standardised if asked.

    Parameters
    ----------
    choice : DataChoice
        An upload when ``choice.csv_digest`` is set; then ``csv_bytes`` holds
        the file and ``choice.csv_target`` names the target column.
    csv_bytes : bytes, optional
    max_rows : int, optional
        Largest upload accepted (the app's size cap).

    Returns
    -------
    datasets.Dataset
        With read-only arrays.
    """
    if choice.csv_digest is not None:
        limit = {} if max_rows is None else dict(max_rows=max_rows)
        d = datasets.from_csv(csv_bytes if csv_bytes is not None else b"",
                              target=choice.csv_target, **limit)
    else:
        d = datasets.load(choice.name, **choice.load_kwargs())
    X, y = np.array(d.X), None if d.y is None else np.array(d.y)
    if choice.added and X.shape[1] == 2 and y is not None:
        extra = np.array(choice.added, dtype=float)
        X = np.vstack([X, extra[:, :2]])
        y = np.concatenate([y, extra[:, 2].astype(y.dtype)])
    if choice.standardize:
        X = datasets.standardize(X)
    return datasets.Dataset(X=X, y=y, task=d.task, name=d.name, description=d.description,
                            source=d.source, feature_names=d.feature_names,
                            target_name=d.target_name, warnings=d.warnings, notes=d.notes)


#: Whether a stratified split can keep every class (:func:`datasets.can_stratify`).
can_stratify = datasets.can_stratify


def stratified(d: datasets.Dataset, test_size) -> bool:
    """Whether :func:`split` stratifies ``d`` (so a code snippet can do the same)."""
    return d.task == "classification" and can_stratify(d.y, test_size)


def split(d: datasets.Dataset, test_size, seed: int):
    """Seeded train/test row indices of ``d``, stratified for classification when possible.

    Returns ``(train, test)`` in ``train_test_split``'s order, so ``X[train]`` is
    what ``train_test_split(X, ..., random_state=seed)`` gives.
    """
    return datasets.split_indices(d.n_samples, d.y, test_size=test_size, random_state=seed,
                                  stratify=d.task == "classification")


def upload_facts(raw: bytes, target: str, *, max_rows: int | None = None) -> dict:
    """``_task``, ``_features`` and ``_classes`` of an upload's bytes ``raw`` with ``target``
    as its target, for the view's fields; none when the file cannot have that target (the
    page says why when it loads the data)."""
    try:
        d = datasets.from_csv(raw, target=target,
                              **({} if max_rows is None else dict(max_rows=max_rows)))
    except (ValueError, KeyError):
        return {}
    classes = () if d.task != "classification" else tuple(int(c) for c in sorted(set(d.y.tolist())))
    return {"_task": d.task, "_features": tuple(d.feature_names), "_classes": classes}
