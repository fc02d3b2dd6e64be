"""deploy/serve.py hands the address students open to every Streamlit process, and that
address is the one the app's classroom link reads (pages.common.address)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "deploy")]

import serve  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
from browser_util import consecutive_free_ports, free_port, skip_or_fail  # noqa: E402

from pages.common.address import HALL_ENV, hall_address, is_loopback  # noqa: E402


def test_serve_and_the_app_name_the_same_variable():
    assert serve.HALL_ENV == HALL_ENV


@pytest.mark.parametrize("bind,expected", [("192.168.1.20", "http://192.168.1.20:8080"),
                                           ("10.0.0.5", "http://10.0.0.5:8080")])
def test_a_named_bind_address_is_the_public_one(bind, expected):
    assert serve.public_url(bind, 8080) == expected


def test_the_wildcard_bind_gives_a_network_address_or_none():
    url = serve.public_url("0.0.0.0", 8080)
    assert url is None or (hall_address({HALL_ENV: url}) == url and not is_loopback(url))


@pytest.mark.slow
def test_every_streamlit_process_gets_the_address(tmp_path):
    if not Path("/usr/sbin/haproxy").exists() and not __import__("shutil").which("haproxy"):
        skip_or_fail("haproxy is missing (apt-get install haproxy)", "The deployment tests")
    public = "http://192.168.1.20:8080"
    with serve.Hall(1, port=free_port(), first_port=consecutive_free_ports(1), warm=False,
                    log_dir=tmp_path, public=public) as hall:
        environ = Path(f"/proc/{hall.pids()[0]}/environ").read_bytes().split(b"\0")
    assert f"{HALL_ENV}={public}".encode() in environ
