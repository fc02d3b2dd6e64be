"""Two noisy non-linear views of one latent variable, for (sparse) kernel CCA.

The latent variable z is uniform on [-1, 1]. View X puts z on an open arc of
the unit circle, view Y winds it twice around the unit circle:

    X = (cos(a z), sin(a z)) + noise,   a = 0.9 pi  (an arc, no wrap-around)
    Y = (cos(2 pi z), sin(2 pi z)) + noise

X determines z and Y determines the angle 2 pi z, so a non-linear function of
X (say cos(2 pi z) computed from the arc) matches a linear one of Y almost
perfectly: kernel CCA finds a canonical correlation near 1 (about 0.97 at
noise 0.1 with an rbf kernel). Linear CCA cannot: a linear function of X is a
slow cosine of z, one of Y a fast one, and their best correlation is about
0.2.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["two_view"]

#: Arc angle of view X: z in [-1, 1] maps to angles in [-ARC, ARC].
ARC = 0.9 * np.pi
#: Angular frequency of view Y: z in [-1, 1] winds twice around the circle.
WINDING = 2 * np.pi
#: Largest number of pairs generated (four float columns each).
MAX_PAIRS = 1_000_000


def two_view(n_samples=300, noise=0.1, random_state=0):
    """Two paired views of a shared latent variable.

    Parameters
    ----------
    n_samples : int in [2, MAX_PAIRS]
        Number of pairs.
    noise : float >= 0
        Standard deviation of the independent Gaussian noise added to every
        coordinate of both views (the clean views lie in [-1, 1]^2).
    random_state : int, numpy Generator, RandomState or None
        Seed of the draws (None: fresh entropy).

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
        View 1: a noisy arc of the unit circle.
    Y : ndarray of shape (n_samples, 2)
        View 2: a noisy unit circle, traversed twice as z runs over [-1, 1].
    latent : ndarray of shape (n_samples,)
        The shared latent z, uniform on [-1, 1].
    """
    if isinstance(n_samples, (bool, np.bool_)) or not isinstance(n_samples, numbers.Integral):
        raise TypeError(f"n_samples must be an integer, got {n_samples!r}.")
    if n_samples < 2:
        raise ValueError(f"n_samples must be >= 2 (CCA needs pairs to correlate), got {n_samples}.")
    if n_samples > MAX_PAIRS:
        raise ValueError(f"n_samples must be <= {MAX_PAIRS:,}, got {n_samples}.")
    if isinstance(noise, (bool, np.bool_)) or not isinstance(noise, numbers.Real):
        raise TypeError(f"noise must be a number, got {noise!r}.")
    noise = float(noise)
    if not np.isfinite(noise) or noise < 0 or noise > 1e6:
        raise ValueError(f"noise must be a finite number in [0, 1e6], got {noise!r}.")
    if isinstance(random_state, (np.random.Generator, np.random.RandomState)):
        rng = random_state
    elif random_state is None:
        rng = np.random.default_rng()
    elif isinstance(random_state, (bool, np.bool_)) or not isinstance(random_state, numbers.Integral):
        raise TypeError(f"random_state must be an integer seed, None, or a numpy Generator or "
                        f"RandomState, got {random_state!r}.")
    elif random_state < 0:
        raise ValueError(f"random_state must be >= 0, got {random_state}.")
    else:
        rng = np.random.default_rng(int(random_state))
    n = int(n_samples)
    z = rng.uniform(-1.0, 1.0, n)
    X = np.column_stack([np.cos(ARC * z), np.sin(ARC * z)])
    Y = np.column_stack([np.cos(WINDING * z), np.sin(WINDING * z)])
    X = X + noise * rng.normal(size=X.shape)
    Y = Y + noise * rng.normal(size=Y.shape)
    return X, Y, z
