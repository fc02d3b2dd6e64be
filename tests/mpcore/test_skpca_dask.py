"""SparseKPCA's 59-trick on a dask array, on a two-worker dask.distributed cluster."""

import contextlib
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_allclose

from mpcore.skpca import SparseKPCA

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

# a cluster of two worker processes takes seconds to start
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
M, D, K, GAMMA = 500_000, 10, 60, 0.1
#: Per worker: below the peak memory of the in-memory fit (checked in the test), above
#: the libraries plus half the chunks and half the basis.
MEMORY_LIMIT = 430 * 2**20


@contextlib.contextmanager
def plain_main():
    """The test process's ``__main__`` as an empty module while workers start.

    A worker process is spawned, and spawning imports the parent's main module again in
    the child. After an AppTest in the same process, ``sys.modules["__main__"]`` is the
    last script Streamlit ran (app.py or a page): each worker would run the whole app in
    Streamlit's bare mode and hold its libraries, about a hundred MB the memory test
    does not count on."""
    saved = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = saved


def cluster(memory_limit):
    """A LocalCluster of two worker processes, one thread each. With a memory limit, the
    limit is a hard one: a worker above it is restarted (and the fit fails), never paused
    or spilled."""
    import dask

    with plain_main(), dask.config.set({"distributed.worker.memory.target": False,
                                        "distributed.worker.memory.spill": False,
                                        "distributed.worker.memory.pause": False,
                                        "distributed.worker.memory.terminate": 0.95}):
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1,
                                      memory_limit=memory_limit, processes=True,
                                      dashboard_address=None) as lc:
            with distributed.Client(lc) as c:
                yield c


@pytest.fixture
def tight_client():
    """A cluster of its own for the memory test: a worker's resident memory does not
    shrink after a large fit, so a cluster shared with other tests would start them near
    the hard limit."""
    yield from cluster(MEMORY_LIMIT)


@pytest.fixture(scope="module")
def client():
    """The cluster the equivalence tests share, without a memory limit."""
    yield from cluster(0)


def data(m=M):
    return np.random.default_rng(0).normal(size=(m, D))


IN_MEMORY = """
import json, numpy as np
from mpcore.dask_skpca import peak_rss
from mpcore.skpca import SparseKPCA
X = np.random.default_rng(0).normal(size=({M}, {D}))
fit = SparseKPCA({K}, gamma={GAMMA}, n_candidates=59, random_state=3).fit(X)
print(json.dumps(dict(indices=fit.indices_.tolist(), traces=fit.trace_residuals_.tolist(),
                      peak=peak_rss())))
"""


def test_same_picks_as_in_memory_with_workers_under_what_memory_needs(tight_client):
    """The in-memory fit runs in a process of its own, for its peak memory; each worker
    has a hard limit below it and holds half of the chunks and of the basis."""
    from mpcore.dask_skpca import peak_rss

    code = IN_MEMORY.format(M=M, D=D, K=K, GAMMA=GAMMA)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    here = json.loads(out.stdout.strip().splitlines()[-1])
    assert MEMORY_LIMIT < here["peak"], (here["peak"], MEMORY_LIMIT)
    X = da.from_array(data(), chunks=(M // 4, D))
    there = SparseKPCA(K, gamma=GAMMA, n_candidates=59, random_state=3).fit(X)
    assert there.indices_.tolist() == here["indices"]
    assert_allclose(there.trace_residuals_, here["traces"], rtol=1e-9)
    peaks = tight_client.run(peak_rss)
    assert all(v < MEMORY_LIMIT for v in peaks.values()), (peaks, MEMORY_LIMIT)


def test_transform_as_in_memory(client):
    X = data(20_000)
    here = SparseKPCA(25, gamma=GAMMA, n_candidates=59, random_state=4).fit(X)
    there = SparseKPCA(25, gamma=GAMMA, n_candidates=59, random_state=4).fit(
        da.from_array(X, chunks=(5000, D)))
    assert there.indices_.tolist() == here.indices_.tolist()
    assert_allclose(there.rayleigh_quotients_, here.rayleigh_quotients_, rtol=1e-9)
    assert_allclose(there.transform(X[:50]), here.transform(X[:50]), rtol=1e-9, atol=1e-12)
    assert there.n_features_in_ == D


def test_a_second_fit_of_the_same_data_starts_afresh(client):
    X = da.from_array(data(4000), chunks=(1000, D))
    a = SparseKPCA(10, gamma=GAMMA, n_candidates=20, random_state=5).fit(X)
    b = SparseKPCA(10, gamma=GAMMA, n_candidates=20, random_state=5).fit(X)
    assert b.indices_.tolist() == a.indices_.tolist()
    assert_allclose(b.trace_residuals_, a.trace_residuals_, rtol=1e-12)


def test_uneven_chunks_and_columns_split(client):
    X = data(5000)
    here = SparseKPCA(20, gamma=GAMMA, n_candidates=30, random_state=1).fit(X)
    there = SparseKPCA(20, gamma=GAMMA, n_candidates=30, random_state=1).fit(
        da.from_array(X, chunks=((1000, 7, 2993, 1000), (4, 6))))
    assert there.indices_.tolist() == here.indices_.tolist()
    assert_allclose(there.trace_residuals_, here.trace_residuals_, rtol=1e-9)


def test_non_gaussian_kernel(client):
    X = data(3000)
    kw = dict(kernel="laplacian", gamma=0.2, n_candidates=20, random_state=2)
    here = SparseKPCA(15, **kw).fit(X)
    there = SparseKPCA(15, **kw).fit(da.from_array(X, chunks=(1000, D)))
    assert there.indices_.tolist() == here.indices_.tolist()


def test_exact_greedy_and_precomputed_refused(client):
    X = da.from_array(data(100), chunks=(50, D))
    with pytest.raises(ValueError, match="n_candidates"):
        SparseKPCA(5).fit(X)
    with pytest.raises(ValueError, match="precomputed"):
        SparseKPCA(5, kernel="precomputed", n_candidates=5).fit(X)


def test_bad_values_refused_by_the_workers(client):
    X = data(200)
    X[150, 3] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        SparseKPCA(5, n_candidates=5).fit(da.from_array(X, chunks=(100, D)))


def test_import_mpcore_does_not_import_dask():
    code = ("import sys, mpcore, mpcore.skpca, mpcore.skpca_large; "
            "print(any(m.split('.')[0] in ('dask', 'distributed') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.stdout.strip() == "False"


def test_verbose_reports_the_dask_fit_as_in_memory(client, capsys):
    """verbose=1 on a dask array prints the lines of the in-memory fit (times aside)."""
    X = data(8_000)
    SparseKPCA(20, gamma=GAMMA, n_candidates=30, random_state=6, verbose=1).fit(X)
    here = capsys.readouterr().out
    SparseKPCA(20, gamma=GAMMA, n_candidates=30, random_state=6, verbose=1).fit(
        da.from_array(X, chunks=(2000, D)))
    there = capsys.readouterr().out

    def without_times(out):
        return [line.rsplit(",", 1)[0] for line in out.splitlines()]

    assert without_times(there) == without_times(here)
    assert len(without_times(here)) == 10  # steps 2, 4, ..., 20
