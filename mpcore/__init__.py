"""mpcore: matching pursuit in kernel methods, in NumPy.

Sparse kernel PCA (Hussain & Shawe-Taylor), kernel matching pursuit
(Vincent & Bengio), their generalisation bounds, approximate eigenvalues
(Nystroem, Marukatat's empirical-kernel-map method) and sparse kernel CCA.

``import mpcore`` needs only numpy, scipy and scikit-learn; the plotly
figures live in :mod:`mpcore.plots`, imported explicitly.
"""

from .bounds import compression_bound, kmp_bound, kpca_bound
from .kernels import center_kernel, center_test_kernel, kernel_diag, kernel_matrix, sigma_to_gamma
from ._losses import LOSSES, loss_functions
from .kmp import (
    KernelSpec,
    KMPClassifier,
    KMPDictionary,
    KMPRegressor,
    KMPStep,
    kmp_dictionary,
    kmp_steps,
    kmp_steps_from_data,
    normalize_kernel_specs,
)
from .skpca import SKPCAStep, SparseKPCA, greedy_steps, greedy_steps_from_data

__all__ = [
    "kernel_matrix", "kernel_diag", "sigma_to_gamma", "center_kernel", "center_test_kernel",
    "SKPCAStep", "greedy_steps", "greedy_steps_from_data", "SparseKPCA",
    "compression_bound", "kpca_bound", "kmp_bound",
    "KMPRegressor", "KMPClassifier", "KMPStep", "kmp_steps", "kmp_steps_from_data", "KernelSpec",
    "normalize_kernel_specs", "KMPDictionary", "kmp_dictionary", "loss_functions", "LOSSES",
]
__version__ = "0.1.0"
