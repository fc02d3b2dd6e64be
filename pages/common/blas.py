"""The server's BLAS thread limit: one thread per BLAS library, for the whole process."""

from __future__ import annotations

from threadpoolctl import threadpool_limits

#: BLAS threads in the server process. The app's matrices are small and a deployment runs
#: one server process per core: a second thread per product only waits for a core that the
#: browser or another session holds. One thread also lets the eigenvalue page's timing table
#: compare its methods on equal terms.
BLAS_THREADS = 1


def limit_blas_threads() -> None:
    """Limit every BLAS library NumPy and SciPy load to :data:`BLAS_THREADS` threads.

    Called once, when the cache package is first imported. The limit is process-wide
    (OpenBLAS's thread count is global, so a limit held only around one computation would be
    lifted under another session's), and threadpoolctl acts only on the libraries loaded
    when it is called: SciPy's own OpenBLAS is loaded here first."""
    import numpy  # noqa: F401
    import scipy.linalg  # noqa: F401
    import scipy.sparse.linalg  # noqa: F401

    threadpool_limits(limits=BLAS_THREADS, user_api="blas")
