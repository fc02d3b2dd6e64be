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

__all__ = ["DataChoice", "KernelChoice", "load", "split", "train_classes", "stratified",
           "can_stratify",
           "upload_facts", "upload_target", "width_note", "default_sigma", "WIDTH_FAR"]

#: A Gaussian width is flagged when it is this many times smaller or larger than the
#: data's scale (:func:`datasets.width_scale`).
WIDTH_FAR = 8.0


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


def train_classes(y, test_size, seed: int) -> tuple:
    """The class labels (sorted ints) of the training rows :func:`split` keeps from labels
    ``y``: what a one-vs-rest classifier fitted there knows (a class whose every point fell
    in the test split has no pursuit of its own)."""
    y = np.asarray(y)
    train, _ = datasets.split_indices(y.size, y, test_size=test_size, random_state=seed,
                                      stratify=True)
    return tuple(int(c) for c in np.unique(y[train]))


def upload_target(raw: bytes, *, max_rows: int | None = None) -> str | None:
    """The target column an upload opens with on every page (:func:`datasets.detect_target`
    on the table as read), or None (no target; the person may choose one)."""
    try:
        d = datasets.from_csv(raw, **({} if max_rows is None else dict(max_rows=max_rows)))
    except (ValueError, KeyError):
        return None
    return datasets.detect_target(list(d.feature_names), d.X)


def default_sigma(scale: float, grid) -> float:
    """The width an upload starts from: half the median pairwise distance ``scale`` (the
    convention of the bundled data sets' defaults), the nearest value of ``grid`` on a log
    scale. sigma is the Gaussian's exp(-||x - z||^2 / (2 sigma^2))."""
    target = max(float(scale), 1e-12) / 2
    return float(min(grid, key=lambda g: abs(np.log(g / target))))


def width_note(sigma: float, scale: float | None) -> str | None:
    """A sentence when ``sigma`` is far (:data:`WIDTH_FAR` times) off the data's ``scale``
    (the median distance between two points), else None."""
    if not scale or not sigma:
        return None
    if sigma * WIDTH_FAR < scale:
        return (f"sigma = {sigma:g} is far below this data's scale (median distance between "
                f"two points {scale:.3g}): the kernel sees every point as unlike the others, "
                f"so every point becomes a basis point or support vector. Try sigma near "
                f"{scale / 2:.2g}.")
    if sigma > WIDTH_FAR * scale:
        return (f"sigma = {sigma:g} is far above this data's scale (median distance between "
                f"two points {scale:.3g}): the kernel is nearly constant, so a few basis "
                f"functions already span it. Try sigma near {scale / 2:.2g}.")
    return None


def upload_facts(raw: bytes, target: str | None, *, max_rows: int | None = None) -> dict:
    """``_task``, ``_features``, ``_classes`` (with ``_labels``, the target column, for the
    classes of the training split) and ``_scale`` of an upload's bytes ``raw`` with
    ``target`` as its target (None: every column a feature), for the view's fields; none when
    the file cannot have that target (the page says why when it loads the data).
    ``_scale``: :func:`datasets.width_scale` of the features, standardised and as read."""
    try:
        d = datasets.from_csv(raw, target=target,
                              **({} if max_rows is None else dict(max_rows=max_rows)))
    except (ValueError, KeyError):
        return {}
    scale = (datasets.width_scale(datasets.standardize(d.X)), datasets.width_scale(d.X))
    if target is None:
        return {"_scale": scale}
    classes = () if d.task != "classification" else tuple(int(c) for c in sorted(set(d.y.tolist())))
    labels = () if d.task != "classification" else tuple(int(c) for c in d.y.tolist())
    return {"_task": d.task, "_features": tuple(d.feature_names), "_classes": classes,
            "_labels": labels, "_scale": scale}
