"""A public deployment: server protections on, nothing a user sends is executed, no secrets.

* ``.streamlit/config.toml`` parses, every key in it is a real Streamlit option
  (a misspelt protection is silently ignored), the upload cap is set and
  matches the CSV reader's own limit, XSRF protection and CORS stay on,
  usage statistics are off, tracebacks are not shown to visitors, and nothing
  switches a protection off. Static file serving (every file of ``static/`` public, to any
  origin) is on only for plotly.js's bundle: ``static/`` holds that one public file and
  nothing else.
* An ast scan of mpcore/, datasets/, pages/ and app.py: no pickle, marshal,
  shelve, dill, joblib loading, eval/exec/compile, yaml.load, ``allow_pickle``,
  shell commands or dynamic imports; ``runpy`` only where pages/common runs the
  project's own app.py; raw HTML (``unsafe_allow_html``, ``st.html``) only built
  from literals, ALL_CAPS constants and ``html.escape(...)``, so text from a user
  (a CSV header, a URL parameter) never reaches the page unescaped.
* No secrets: no .streamlit/secrets.toml in the tree, secrets.toml ignored by
  git, and no string in the sources that looks like a key or a password.
"""

from __future__ import annotations

import ast
import os
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / ".streamlit" / "config.toml"
SCANNED = ("mpcore", "datasets", "pages")
MB = 1024 * 1024


# ---------------------------------------------------------------- server configuration


@pytest.fixture(scope="module")
def config():
    assert CONFIG.is_file(), ".streamlit/config.toml is missing"
    with open(CONFIG, "rb") as fh:
        return tomllib.load(fh)


def _flat(cfg):
    return {f"{section}.{key}": value for section, table in cfg.items() for key, value in table.items()}


def test_every_config_key_is_a_streamlit_option(config):
    from streamlit import config as st_config

    known = set(st_config._config_options_template)
    unknown = sorted(set(_flat(config)) - known)
    assert not unknown, f"not Streamlit options (misspelt keys are silently ignored): {unknown}"


def test_upload_cap_is_set_and_matches_the_csv_reader(config):
    import datasets

    cap = config["server"].get("maxUploadSize")
    assert isinstance(cap, int) and cap > 0, "server.maxUploadSize must be a positive number of MB"
    # the server refuses big files before they reach Python; just above the reader's
    # own limit, so a slightly-too-big file still gets the reader's clear message
    assert datasets.MAX_BYTES <= cap * MB <= 4 * datasets.MAX_BYTES, (cap, datasets.MAX_BYTES)
    msg = config["server"].get("maxMessageSize", 200)
    assert 0 < msg <= 200, "server.maxMessageSize must stay bounded (MB)"


def test_protections_are_on(config):
    flat = _flat(config)
    assert flat.get("server.enableXsrfProtection") is True
    assert flat.get("browser.gatherUsageStats") is False
    assert flat.get("server.enableCORS", True) is True
    # visitors see a generic message, never a traceback with file paths
    assert flat.get("client.showErrorDetails") in ("none", "type")


# option -> values that weaken a public deployment
WEAKENING = {
    "server.enableXsrfProtection": (False,),
    "server.enableCORS": (False,),
    "server.runOnSave": (True,),
    "server.allowRunOnSave": (True,),
    "global.developmentMode": (True,),
    "global.e2eTest": (True,),
    "client.showErrorDetails": (True, False, "full", "stacktrace"),
    "browser.gatherUsageStats": (True,),
}
NEVER_IN_REPO = ("server.cookieSecret", "server.sslKeyFile", "server.trustedUserHeaders",
                 "server.corsAllowedOrigins")


#: What static/ may hold while server.enableStaticServing is on: public code only.
STATIC_ALLOWED = {"plotly-app.min.js"}


def test_static_serving_serves_only_the_plotly_bundle(config):
    """Every file in static/ is public (served at /app/static/ to any origin): only
    plotly.js's bundle (pages/common/charts.py) may be there; anything else is a leak."""
    if not _flat(config).get("server.enableStaticServing"):
        return
    static = ROOT / "static"
    found = {str(p.relative_to(static)) for p in static.rglob("*")}
    assert found == STATIC_ALLOWED, (
        f"static/ is served to anyone: it must hold {sorted(STATIC_ALLOWED)} only, "
        f"found {sorted(found)}")
    from pages.common.charts import PLOTLY_BUNDLE
    assert PLOTLY_BUNDLE.parent == static and PLOTLY_BUNDLE.name in STATIC_ALLOWED


def test_nothing_disables_a_protection(config):
    flat = _flat(config)
    weak = {k: v for k, v in flat.items() if k in WEAKENING and v in WEAKENING[k]}
    assert not weak, f"options that weaken a public deployment: {weak}"
    present = [k for k in NEVER_IN_REPO if k in flat]
    assert not present, f"set these on the server, not in the repository: {present}"
    allowed = flat.get("server.allowedHosts", [])
    assert "*" not in allowed


# ---------------------------------------------------------------- nothing executes user data

BANNED_MODULES = {"pickle", "cPickle", "_pickle", "marshal", "shelve", "dill", "cloudpickle",
                  "jsonpickle", "pty", "telnetlib", "ftplib"}
BANNED_BUILTINS = {"eval", "exec", "compile", "__import__", "input", "breakpoint"}
# (module, attribute) calls that execute or unpickle
BANNED_CALLS = {("yaml", "load"), ("yaml", "unsafe_load"), ("yaml", "full_load"),
                ("joblib", "load"), ("pd", "read_pickle"), ("pandas", "read_pickle"),
                ("os", "system"), ("os", "popen"), ("os", "execv"), ("os", "execl"),
                ("importlib", "import_module"), ("runpy", "run_module")}
# the single allowed runpy use: pages/common/__init__.py runs the project's own app.py
RUNPY_ALLOWED = ("pages/common/__init__.py", "app.py")


def _dotted(node) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def _safe_html(node) -> bool:
    """An HTML expression built only from literals, ALL_CAPS constants and html.escape(...)."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Name):
        return node.id.isupper()
    if isinstance(node, ast.JoinedStr):
        return all(_safe_html(v.value if isinstance(v, ast.FormattedValue) else v)
                   for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _safe_html(node.left) and _safe_html(node.right)
    if isinstance(node, (ast.GeneratorExp, ast.ListComp)):
        return _safe_html(node.elt)
    if isinstance(node, ast.Call):
        name = _dotted(node.func)
        if name in ("html.escape", "escape"):
            return True
        if (isinstance(node.func, ast.Attribute) and node.func.attr == "join"
                and isinstance(node.func.value, ast.Constant)):
            return all(_safe_html(a) for a in node.args)
    return False


def _constant_args(call) -> bool:
    """Raw HTML is harmless when nothing a user typed can reach it unescaped."""
    return bool(call.args) and all(_safe_html(a) for a in call.args)


def execution_risks(source: str, rel: str) -> list[str]:
    """Places in one file that could execute or unpickle something (see module docstring)."""
    out = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        line = f"{rel}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in BANNED_MODULES:
                    out.append(f"{line}: import {a.name}")
        elif isinstance(node, ast.ImportFrom):
            if (node.module or "").split(".")[0] in BANNED_MODULES:
                out.append(f"{line}: from {node.module} import ...")
        elif isinstance(node, ast.Call):
            name = _dotted(node.func)
            head, _, attr = name.rpartition(".")
            if name in BANNED_BUILTINS:
                out.append(f"{line}: {name}(...)")
            elif name == "st.html" and not _constant_args(node):
                out.append(f"{line}: st.html(...) of a non-constant string")
            elif (head.split(".")[-1], attr) in BANNED_CALLS or (head, attr) in BANNED_CALLS:
                out.append(f"{line}: {name}(...)")
            elif name in ("runpy.run_path", "run_path"):
                arg = ast.unparse(node.args[0]) if node.args else ""
                if (rel, ) != (RUNPY_ALLOWED[0], ) or RUNPY_ALLOWED[1] not in arg:
                    out.append(f"{line}: runpy.run_path({arg})")
            elif name.split(".")[-1] in ("load", "loads") and any(
                    k.arg == "allow_pickle" and not (isinstance(k.value, ast.Constant)
                                                      and k.value.value is False)
                    for k in node.keywords):
                out.append(f"{line}: {name}(allow_pickle=...)")
            for k in node.keywords:
                if k.arg == "shell" and not (isinstance(k.value, ast.Constant) and k.value.value is False):
                    out.append(f"{line}: {name}(shell=...)")
                if k.arg == "unsafe_allow_html" and not (
                        isinstance(k.value, ast.Constant) and k.value.value is False) \
                        and not _constant_args(node):
                    out.append(f"{line}: {name}(unsafe_allow_html=...) of a non-constant string")
    return out


def _sources():
    files = [ROOT / "app.py"] + [p for top in SCANNED for p in sorted((ROOT / top).rglob("*.py"))]
    return {p.relative_to(ROOT).as_posix(): p.read_text() for p in files}


def test_scan_catches_what_it_should():
    bad = ("import pickle\nfrom shelve import open\nimport yaml, runpy, subprocess\n"
           "import numpy as np\nimport streamlit as st\n"
           "def f(b, p):\n    eval(b)\n    exec(b)\n    yaml.load(b)\n"
           "    np.load(p, allow_pickle=True)\n    runpy.run_path(p)\n"
           "    subprocess.run(b, shell=True)\n    st.markdown(b, unsafe_allow_html=True)\n"
           "    st.html(f'<b>{b}</b>')\n"
           "    st.markdown(''.join(f'<i>{n}</i>' for n in b), unsafe_allow_html=True)\n"
           "    __import__(b)\n")
    found = "\n".join(execution_risks(bad, "pages/x.py"))
    for expected in ("x.py:1: import pickle", "from shelve", "x.py:7: eval", "x.py:8: exec",
                     "yaml.load", "allow_pickle", "runpy.run_path(p)", "shell=", "unsafe_allow_html",
                     "__import__", "st.html", "x.py:15: st.markdown(unsafe_allow_html"):
        assert expected in found, (expected, found)
    ok = ("import runpy\nfrom pathlib import Path\nimport yaml, numpy as np\n"
          "runpy.run_path(str(Path(__file__).resolve().parents[2] / 'app.py'))\n"
          "yaml.safe_load('a: 1')\nnp.load('x.npy', allow_pickle=False)\n"
          "import streamlit as st, html\nst.markdown('<br>', unsafe_allow_html=True)\n"
          "st.markdown(''.join(f'<a href=\"?{html.escape(q)}\" style=\"{STYLE}\">{html.escape(n)}</a>'"
          " for n, q in X), unsafe_allow_html=True)\n")
    assert execution_risks(ok, "pages/common/__init__.py") == []
    assert execution_risks(ok, "pages/other.py") != []


def test_nothing_a_user_supplies_is_executed_or_unpickled():
    risks = [r for rel, src in _sources().items() for r in execution_risks(src, rel)]
    assert not risks, "\n".join(risks)


def test_the_only_runpy_use_runs_the_projects_own_app():
    src = (ROOT / RUNPY_ALLOWED[0]).read_text()
    calls = [n for n in ast.walk(ast.parse(src)) if isinstance(n, ast.Call)
             and _dotted(n.func) == "runpy.run_path"]
    assert len(calls) == 1
    arg = ast.unparse(calls[0].args[0])
    assert "__file__" in arg and "'app.py'" in arg, arg


# ---------------------------------------------------------------- secrets

SKIP_DIRS = {".git", ".venv", "venv", ".ci-venv", "__pycache__", ".pytest_cache", ".hypothesis",
             "node_modules", "screenshots", "artifacts", "reproduce_out"}
KEY_PATTERNS = {
    "private key": re.compile(r"-----BEGIN (RSA |EC |DSA |OPENSSH |PGP )?PRIVATE KEY( BLOCK)?-----"),
    "AWS access key": re.compile(r"\b(AKIA|ASIA)[0-9A-Z]{16}\b"),
    "GitHub token": re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}\b|\bgithub_pat_[A-Za-z0-9_]{40,}"),
    "Slack token": re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}"),
    "Google API key": re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b"),
    "OpenAI-style key": re.compile(r"\bsk-(proj-)?[A-Za-z0-9_\-]{20,}\b"),
    "Stripe key": re.compile(r"\b[rs]k_live_[A-Za-z0-9]{16,}\b"),
    "assigned secret": re.compile(
        r"""(?i)\b(api[_-]?key|secret(_key)?|access[_-]?token|auth[_-]?token|password|passwd|"""
        r"""cookie_?secret|client_secret)\b\s*[:=]\s*["'][^"'\s]{8,}["']"""),
}


def _text_files(root=ROOT):
    """(relative path, text) of the project's text files: not a virtual environment's,
    whatever its name (a folder with ``pyvenv.cfg``), nor a cache's or the browser tests'."""
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS
                         and not (Path(folder) / d / "pyvenv.cfg").is_file())
        for name in sorted(files):
            path = Path(folder) / name
            if not path.is_file() or path.stat().st_size > 2 * MB:
                continue
            data = path.read_bytes()
            if b"\x00" in data[:4096]:
                continue
            yield path.relative_to(root).as_posix(), data.decode("utf-8", errors="replace")


def test_a_virtual_environment_is_not_read_whatever_its_name(tmp_path):
    """README's set-up may be run in a venv inside the clone (``python -m venv .v``): the
    packages' own test files hold sample keys, and they are not the project's."""
    (tmp_path / ".v" / "lib").mkdir(parents=True)
    (tmp_path / ".v" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (tmp_path / ".v" / "lib" / "sample.py").write_text('password = "hunter2hunter2"\n')
    (tmp_path / "app.py").write_text("print('hello')\n")
    assert [rel for rel, _ in _text_files(tmp_path)] == ["app.py"]


def test_key_patterns_catch_typical_secrets():
    samples = ['password = "hunter2hunter2"', "AKIAABCDEFGHIJKLMNOP",
               "-----BEGIN RSA PRIVATE KEY-----", 'cookieSecret = "0123456789abcdef"',
               "ghp_" + "a" * 36, 'api_key: "abcdef123456"']
    for s in samples:
        assert any(p.search(s) for p in KEY_PATTERNS.values()), s
    for s in ['password = st.text_input("Password")', "secret_key = None", 'token = ""']:
        assert not any(p.search(s) for p in KEY_PATTERNS.values()), s


def test_no_secrets_in_the_repository():
    assert not (ROOT / ".streamlit" / "secrets.toml").exists(), \
        "secrets.toml belongs on the server, never in the repository"
    hits = [f"{rel}: {kind}" for rel, text in _text_files() for kind, pat in KEY_PATTERNS.items()
            if rel != "tests/deploy/test_security.py" and pat.search(text)]
    assert not hits, hits


def test_gitignore_keeps_secrets_out():
    lines = [ln.strip() for ln in (ROOT / ".gitignore").read_text().splitlines()]
    assert any(ln.endswith("secrets.toml") for ln in lines), \
        ".gitignore should list .streamlit/secrets.toml so a local secrets file is never committed"
