"""Synthetic data sets: 2-D classification, 1-D regression and the Gaussian toy.

All generators are seeded and return float arrays; labels are integers.
"""

from __future__ import annotations

import numpy as np
from sklearn.datasets import make_blobs, make_circles, make_moons
from sklearn.utils import check_random_state


def moons(n_samples, noise, random_state):
    return make_moons(n_samples=n_samples, noise=noise, random_state=random_state)


def circles(n_samples, noise, random_state):
    return make_circles(n_samples=n_samples, noise=noise, factor=0.5, random_state=random_state)


def blobs(n_samples, noise, random_state):
    # noise is the cluster standard deviation (scaled so the default is well separated)
    return make_blobs(
        n_samples=n_samples, centers=[[-1.5, -1.0], [1.5, 1.0], [0.0, 2.0]],
        cluster_std=noise, random_state=random_state,
    )


def xor(n_samples, noise, random_state):
    rng = check_random_state(random_state)
    X = rng.uniform(-1.0, 1.0, size=(n_samples, 2))
    y = (np.sign(X[:, 0]) != np.sign(X[:, 1])).astype(int)
    return X + noise * rng.normal(size=X.shape), y


def spirals(n_samples, noise, random_state):
    """Two interleaved Archimedean spirals (1.5 turns each)."""
    rng = check_random_state(random_state)
    n0 = n_samples // 2
    n1 = n_samples - n0
    out, labels = [], []
    for label, n in ((0, n0), (1, n1)):
        t = np.sqrt(rng.uniform(0.0, 1.0, n)) * 3 * np.pi
        r = t / (3 * np.pi)
        phase = label * np.pi
        pts = np.column_stack([r * np.cos(t + phase), r * np.sin(t + phase)])
        out.append(pts + noise * rng.normal(size=pts.shape))
        labels.append(np.full(n, label))
    X = np.vstack(out)
    y = np.concatenate(labels)
    order = rng.permutation(n_samples)
    return X[order], y[order]


def sine(n_samples, noise, random_state):
    """y = sin(x) + noise on x uniform in [-pi, pi] (1-D regression)."""
    rng = check_random_state(random_state)
    x = np.sort(rng.uniform(-np.pi, np.pi, n_samples))
    return x[:, None], np.sin(x) + noise * rng.normal(size=n_samples)


def gaussian_toy(n_samples, variance_ratio, random_state, *, n_features=450, n_dominant=50):
    """Hussain & Shawe-Taylor, Figure 1 (right): zero-mean Gaussian data with
    ``n_dominant`` directions of ``variance_ratio`` times larger variance.

    The dominant directions are a random orthonormal set (not the coordinate
    axes), so nothing is axis-aligned by accident.
    """
    rng = check_random_state(random_state)
    if n_dominant > n_features:
        raise ValueError(f"n_dominant ({n_dominant}) must be <= n_features ({n_features}).")
    scales = np.ones(n_features)
    scales[:n_dominant] = np.sqrt(variance_ratio)
    Q, _ = np.linalg.qr(rng.normal(size=(n_features, n_features)))
    Z = rng.normal(size=(n_samples, n_features)) * scales
    return Z @ Q.T


def far_cluster(n_samples, noise, random_state):
    """Vincent & Bengio (2002), Figure 7 situation: linearly separable data where a
    least-squares fit misclassifies points.

    Class 0 is a cluster at (-1, 1); class 1 a cluster at (1, 0) and a quarter of
    all points in a far cluster at (6, -4), on the correct side of every
    separating line. A linear squared-error fit penalises those large positive
    margins and tilts its boundary toward the far cluster, misclassifying some
    points near the two close clusters; a margin loss such as tanh (and a linear
    SVM) separates the data. ``noise`` is the standard deviation of each cluster.
    """
    rng = check_random_state(random_state)
    n_far = n_samples // 4
    n1 = (n_samples - n_far) // 2
    n0 = n_samples - n_far - n1
    centres = ((n0, (-1.0, 1.0), 0), (n1, (1.0, 0.0), 1), (n_far, (6.0, -4.0), 1))
    X = np.vstack([noise * rng.normal(size=(n, 2)) + c for n, c, _ in centres])
    y = np.concatenate([np.full(n, label) for n, _, label in centres])
    order = rng.permutation(n_samples)
    return X[order], y[order]
