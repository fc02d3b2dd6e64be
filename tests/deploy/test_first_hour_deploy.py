"""deploy/serve.py before the hall opens: ports in range, ports free, logs kept.

- Every port option is a TCP port number (1-65535): 70000 is refused by argparse with
  the range (exit code 2), as is a --first-port whose processes would run past 65535;
  ``Hall`` refuses them too (hypothesis over the integers).
- A port already in use (a Streamlit port, the balancer's) is named before anything
  starts, with the option to change.
- A Streamlit process that exits while starting (its port taken between the check and
  its start) is named with its port, and the log folder the message points at is kept.
"""

from __future__ import annotations

import shutil
import socket
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "deploy"))

import serve  # noqa: E402
from browser_util import skip_or_fail  # noqa: E402


def _listening():
    """A socket listening on a free loopback port (the port "in use")."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    return s, s.getsockname()[1]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _require_haproxy():
    hall = serve.Hall(1, port=8080, first_port=8501)
    shutil.rmtree(hall.log_dir)
    if not Path(hall.haproxy).exists():
        skip_or_fail("haproxy is not installed (apt-get install haproxy)", "Deploy tests")


@pytest.mark.parametrize("argv", [
    ["--port", "70000"], ["--first-port", "70000"], ["--stats-port", "0"],
    ["--port", "-1"], ["--first-port", "65535", "--processes", "2"]])
def test_out_of_range_ports_are_refused(argv, capsys):
    with pytest.raises(SystemExit) as info:
        serve.main(argv + ["--config-only"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "65535" in err and "Traceback" not in err


@settings(max_examples=60, deadline=None)
@given(port=st.integers(-10, 70000))
def test_hall_accepts_exactly_the_port_numbers(port):
    ok = 1 <= port <= 65535
    for kwargs in (dict(port=port, first_port=20000 if port != 20000 else 20001),
                   dict(port=8080, first_port=port), dict(port=8080, stats_port=port)):
        if ok:
            if port == 8080 and kwargs.get("first_port") == 8080:
                continue  # the balancer on a Streamlit port: refused for another reason
            hall = serve.Hall(1, **kwargs)
            shutil.rmtree(hall.log_dir)
        else:
            with pytest.raises(ValueError, match=r"between 1 and 65535"):
                serve.Hall(1, **kwargs)


def test_processes_past_the_last_port_are_refused():
    with pytest.raises(ValueError, match="65536"):
        serve.Hall(2, port=8080, first_port=65535)


def test_a_streamlit_port_in_use_is_named_before_anything_starts():
    _require_haproxy()
    sock, port = _listening()
    hall = serve.Hall(2, port=_free_port(), first_port=port)
    try:
        with pytest.raises(RuntimeError, match=rf"port {port} \(for Streamlit process 1\)"
                                               r".*--first-port"):
            hall.__enter__()
        assert hall.procs == [] and hall.balancer is None
        assert not hall.log_dir.exists()  # nothing started, nothing to point at
    finally:
        sock.close()


def test_the_balancer_port_in_use_is_named():
    _require_haproxy()
    sock, port = _listening()
    hall = serve.Hall(1, port=port, first_port=_free_port(), bind="127.0.0.1")
    try:
        with pytest.raises(RuntimeError, match=rf"port {port} \(for the balancer.*--port"):
            hall.__enter__()
        assert hall.procs == []
    finally:
        sock.close()


@pytest.mark.slow
def test_a_streamlit_process_that_exits_names_its_port_and_keeps_its_log(monkeypatch):
    _require_haproxy()
    # the port is taken after the check (another program starting at the same moment)
    monkeypatch.setattr(serve, "port_in_use", lambda *a, **k: False)
    sock, port = _listening()
    hall = serve.Hall(1, port=_free_port(), first_port=port)
    try:
        with pytest.raises(RuntimeError) as info:
            hall.__enter__()
        message = str(info.value)
        assert f"port {port}" in message and "already in use" in message, message
        assert str(hall.log_dir) in message
        assert (hall.log_dir / "streamlit1.log").exists(), "the folder the message names is gone"
        assert all(p.poll() is not None for p in hall.procs)
    finally:
        sock.close()
        shutil.rmtree(hall.log_dir, ignore_errors=True)
