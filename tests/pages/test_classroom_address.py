"""The classroom link at the address students open (AppTest and the pure address rules)."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apptest_util import assert_clean, open_app_page, open_footer
from pages.common.address import (HALL_ENV, hall_address, is_loopback, parse_address,
                                  with_address)

SMALL = {"dataset": "moons", "n": "60", "k": "6"}


def _link(at) -> str:
    blocks = [c.value for c in at.code if "import " not in c.value]
    assert len(blocks) == 1, [c.value for c in at.code]
    return blocks[0]


def _builder(monkeypatch, env=None, params=None):
    if env is None:
        monkeypatch.delenv(HALL_ENV, raising=False)
    else:
        monkeypatch.setenv(HALL_ENV, env)
    at = open_footer(open_app_page("pages/skpca.py", {**SMALL, **(params or {})}))
    assert_clean(at)
    return at


def test_the_hall_address_from_serve_is_the_links_address(monkeypatch):
    at = _builder(monkeypatch, env="http://192.168.1.20:8080")
    link = _link(at)
    assert link.startswith("http://192.168.1.20:8080/"), link
    assert dict(parse_qsl(urlsplit(link).query))["dataset"] == "moons"
    assert not [w for w in at.warning if "own address" in w.value]


def test_a_typed_loopback_address_is_warned_about(monkeypatch):
    at = _builder(monkeypatch)
    at.text_input(key="share.address").input("http://localhost:8501").run()
    assert_clean(at)
    assert _link(at).startswith("http://localhost:8501/")
    assert [w for w in at.warning if "own address" in w.value], [w.value for w in at.warning]
    at.text_input(key="share.address").input("10.1.2.3:9000").run()
    assert _link(at).startswith("http://10.1.2.3:9000/")
    assert not [w for w in at.warning if "own address" in w.value]


@pytest.mark.parametrize("bad", ["ftp://10.0.0.1", "http://", "http://a b", "http://x:99999",
                                 "http://x/?q=1", "javascript:alert(1)"])
def test_an_invalid_address_says_why_and_keeps_the_link(monkeypatch, bad):
    at = _builder(monkeypatch)
    at.text_input(key="share.address").input(bad).run()
    assert not at.exception
    assert [e for e in at.error if "Address students open" in e.value], [e.value for e in at.error]
    assert "?" in _link(at)


def test_a_link_too_long_for_a_qr_code_says_so(monkeypatch):
    pts = ";".join(f"{0.123 + i / 1000:.3f}:{-0.456 - i / 1000:.3f}:{i % 2}" for i in range(200))
    at = _builder(monkeypatch, env="http://192.168.1.20:8080", params={"pts": pts})
    assert len(_link(at)) > 2400
    assert [w for w in at.warning if "too long for a QR code" in w.value], [
        w.value for w in at.warning]


# ---------------------------------------------------------------- the pure rules

@pytest.mark.parametrize("url", ["http://localhost:8501/skpca", "http://127.0.0.1:8080/",
                                 "http://127.1.2.3/", "http://[::1]:8501/kmp?x=1",
                                 "http://0.0.0.0:8080/", "http://app.localhost/",
                                 "HTTP://LOCALHOST/"])
def test_loopback_addresses(url):
    assert is_loopback(url)


@pytest.mark.parametrize("url", ["http://192.168.1.20:8080/", "https://example.org/app",
                                 "http://10.0.0.1/", "http://[fe80::1]/", "?dataset=moons", ""])
def test_other_addresses(url):
    assert not is_loopback(url)


def test_the_environment_address_is_validated():
    assert hall_address({HALL_ENV: "10.0.0.2:8080"}) == "http://10.0.0.2:8080"
    assert hall_address({HALL_ENV: "ftp://x"}) is None
    assert hall_address({}) is None


_hosts = st.one_of(st.ip_addresses().map(lambda ip: f"[{ip}]" if ip.version == 6 else str(ip)),
                   st.from_regex(r"[a-z][a-z0-9-]{0,20}(\.[a-z]{2,6}){0,2}", fullmatch=True))
_query = st.dictionaries(st.sampled_from(["dataset", "n", "pts", "hide", "j"]),
                         st.text("abc0123456789:;.,-", max_size=20), max_size=5)


@settings(max_examples=200, deadline=None)
@given(host=_hosts, port=st.one_of(st.none(), st.integers(1, 65535)),
       scheme=st.sampled_from(["http", "https"]), page=st.sampled_from(["", "skpca", "kmp"]),
       query=_query)
def test_with_address_keeps_the_page_and_its_query(host, port, scheme, page, query):
    from urllib.parse import urlencode

    address = f"{scheme}://{host}" + ("" if port is None else f":{port}")
    url = f"http://localhost:8501/{page}?{urlencode(query)}"
    out = with_address(url, address)
    parts = urlsplit(out)
    assert parts.scheme == scheme
    assert parts.port == port
    assert parts.path == f"/{page}"
    assert dict(parse_qsl(parts.query, keep_blank_values=True)) == query
    assert is_loopback(out) == is_loopback(address)


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=60))
def test_parse_address_accepts_only_http_addresses(text):
    try:
        out = parse_address(text)
    except ValueError as exc:
        assert str(exc)
        return
    parts = urlsplit(out)
    assert parts.scheme in ("http", "https") and parts.hostname
    assert not parts.query and not parts.fragment
    assert parse_address(out) == out
