"""mpcore: matching pursuit in kernel methods, in NumPy.

Sparse kernel PCA (Hussain & Shawe-Taylor), kernel matching pursuit
(Vincent & Bengio), their generalisation bounds, approximate eigenvalues
(Nystroem, Marukatat's empirical-kernel-map method) and sparse kernel CCA.

One module per idea: ``kernels``; ``skpca`` (sparse kernel PCA); ``kmp`` (a package:
kernel specifications, the dictionary, the step engine, the estimators, replay);
``bounds`` and ``curves``; ``spectrum`` (exact eigenvalues, and every eigenvalue
method's name), ``nystrom``, ``ekm`` and ``cholesky`` (the approximations); ``kcca``.
The private ``_arguments`` (argument checks and limits), ``_validation`` (kernel-matrix
checks and :func:`validated_kernel`), ``_linalg`` and ``_losses`` serve them all.

``import mpcore`` needs only numpy, scipy and scikit-learn; the plotly
figures live in :mod:`mpcore.plots`, imported explicitly.
"""

from .bounds import compression_bound, kmp_bound, kpca_bound
from .kernels import (
    PSDStatus,
    center_kernel,
    center_test_kernel,
    check_psd_kernel,
    gamma_to_sigma,
    kernel_diag,
    kernel_matrix,
    psd_status,
    sigma_to_gamma,
)
from ._losses import LOSSES, loss_functions
from ._validation import ValidatedKernel, validated_kernel
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
from .kcca import KCCAStep, SparseKCCA, canonical_correlations, kcca_steps
from .skpca import SKPCAStep, SparseKPCA, greedy_steps, greedy_steps_from_data
from .spectrum import (
    LanczosBudgetExceeded,
    exact_eigenpairs,
    exact_eigenvalues,
    relative_error,
    subspace_distance,
    Tridiagonal,
    tridiagonal_form,
)
from .nystrom import (
    nystrom_eigenpairs,
    nystrom_eigenvalues,
    nystrom_indices,
    nystrom_nested_eigenvalues,
    random_indices,
    random_order,
)
from .ekm import (
    EKMPerturbation,
    ekm_eigenpairs,
    ekm_eigenvalues,
    ekm_perturbation_bound,
    ekm_perturbation_bounds,
    ekm_sketch,
)
from .cholesky import incomplete_cholesky
from .rpcholesky import PartialCholesky, partial_cholesky, rpcholesky

__all__ = [
    "kernel_matrix", "kernel_diag", "sigma_to_gamma", "gamma_to_sigma", "center_kernel",
    "center_test_kernel", "psd_status", "PSDStatus", "check_psd_kernel",
    "SKPCAStep", "greedy_steps", "greedy_steps_from_data", "SparseKPCA",
    "compression_bound", "kpca_bound", "kmp_bound",
    "KMPRegressor", "KMPClassifier", "KMPStep", "kmp_steps", "kmp_steps_from_data", "KernelSpec",
    "normalize_kernel_specs", "KMPDictionary", "kmp_dictionary", "loss_functions", "LOSSES",
    "exact_eigenvalues", "exact_eigenpairs", "tridiagonal_form", "Tridiagonal",
    "nystrom_eigenvalues", "nystrom_eigenpairs",
    "nystrom_nested_eigenvalues", "nystrom_indices", "random_indices", "random_order",
    "ekm_eigenvalues",
    "ekm_eigenpairs", "ekm_sketch", "ekm_perturbation_bound",
    "ekm_perturbation_bounds", "EKMPerturbation",
    "LanczosBudgetExceeded", "incomplete_cholesky", "rpcholesky", "partial_cholesky",
    "PartialCholesky", "subspace_distance",
    "relative_error", "SparseKCCA", "kcca_steps", "KCCAStep", "canonical_correlations",
    "validated_kernel", "ValidatedKernel",
]
__version__ = "0.1.0"
