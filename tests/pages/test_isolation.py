"""Many users at once: each session keeps its own state, shared caches stay correct and bounded.

* Two AppTest sessions, interleaved action by action with different data sets,
  k and uploaded CSVs, each see exactly what the same session shows when run
  alone: nothing one does leaks into the other (st.cache_data is shared by the
  whole process, session state is not).
* Cached return values are read-only (a write raises), and mutating a copy a
  caller got never changes what the cache hands out next.
* A static (ast) check that mpcore/, datasets/, views/, experiments/ and pages/
  keep no module-level mutable state that functions change at run time, with a self-test showing
  the check catches what it is meant to catch. Page scripts (pages/*.py) are
  executed afresh per run, so only what they import is shared state.
* Every st.cache_data / st.cache_resource decorator has max_entries and ttl.
* The largest data set the app accepts is enforced for uploads too.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import re
from pathlib import Path

import numpy as np
import pytest
from apptest_util import chart_elements, chart_spec, open_app_page, step_counter, timeline
from csv_util import csv_bytes

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("mpcore", "datasets", "views", "experiments", "pages")
STEP_RE = re.compile(r"Step (\d+) of (\d+)")
TIMEOUT = 120


# ---------------------------------------------------------------- sessions


def _skpca():
    at = open_app_page("pages/skpca.py", timeout=TIMEOUT)
    assert not at.exception, [e.value for e in at.exception]
    return at


def _view(at) -> dict:
    """Everything a student sees that depends on the session's settings."""
    assert not at.exception, [e.value for e in at.exception]
    j, n = step_counter(at)
    return dict(
        step=f"Step {j} of {n}",
        timeline=timeline(at),
        latex=[x.value for x in at.latex],
        captions=[c.value for c in at.caption],
        errors=[e.value for e in at.error],
        k=at.slider(key="k").value,
        k_max=at.slider(key="k").max,
        charts=[chart_spec(c) for c in chart_elements(at)],
    )


def _act(at, action):
    kind, value = action
    if kind == "dataset":
        at.selectbox(key="dataset").set_value(value).run()
    elif kind == "k":
        at.slider(key="k").set_value(value).run()
    elif kind == "step":
        at.button(key="skpca.next").click().run()
    elif kind == "back":
        at.button(key="skpca.back").click().run()
    elif kind == "csv":
        at.selectbox(key="dataset").set_value("csv upload").run()
        at.file_uploader(key="csv.file").set_value(("data.csv", value, "text/csv")).run()
    else:  # pragma: no cover - test bug
        raise AssertionError(kind)


def _interleave(script_a, script_b):
    """Run two sessions action by action (a, b, a, b, ...); return both views after each."""
    a, b = _skpca(), _skpca()
    seen_a, seen_b = [], []
    for act_a, act_b in zip(script_a, script_b):
        _act(a, act_a)
        _act(b, act_b)
        seen_a.append(_view(a))
        seen_b.append(_view(b))
    return seen_a, seen_b


def _alone(script):
    at = _skpca()
    seen = []
    for act in script:
        _act(at, act)
        seen.append(_view(at))
    return seen


def test_two_sessions_interleaved_never_see_each_others_values():
    script_a = [("dataset", "moons"), ("k", 7), ("step", None), ("step", None), ("k", 3),
                ("step", None)]
    script_b = [("dataset", "circles"), ("k", 12), ("step", None), ("back", None),
                ("step", None), ("step", None)]
    seen_a, seen_b = _interleave(script_a, script_b)
    # the two sessions really show different things ...
    assert [v["step"] for v in seen_a] == ["Step 1 of 20", "Step 1 of 7", "Step 2 of 7",
                                           "Step 3 of 7", "Step 3 of 3", "Step 3 of 3"]
    assert [v["step"] for v in seen_b] == ["Step 1 of 20", "Step 1 of 12", "Step 2 of 12",
                                           "Step 1 of 12", "Step 2 of 12", "Step 3 of 12"]
    assert seen_a[-1]["charts"] != seen_b[-1]["charts"]
    # ... and each is exactly what that session shows when it is alone
    assert seen_a == _alone(script_a)
    assert seen_b == _alone(script_b)


def _random_csv(rows: int, cols: int, seed: int) -> bytes:
    return csv_bytes(np.random.default_rng(seed).normal(size=(rows, cols)).round(4))


def test_two_sessions_uploading_different_csvs_keep_their_own_data():
    csv_a, csv_b = _random_csv(40, 2, seed=1), _random_csv(70, 3, seed=2)
    script_a = [("csv", csv_a), ("k", 5), ("step", None)]
    script_b = [("csv", csv_b), ("k", 9), ("step", None)]
    seen_a, seen_b = _interleave(script_a, script_b)
    # 30% test split: 28 and 49 training points bound k
    assert [v["k_max"] for v in seen_a] == [28, 28, 28]
    assert [v["k_max"] for v in seen_b] == [49, 49, 49]
    assert all(not v["errors"] for v in seen_a + seen_b)
    assert seen_a == _alone(script_a)
    assert seen_b == _alone(script_b)


def test_an_upload_larger_than_the_app_limit_is_refused_with_a_message():
    from pages.common.widgets import MAX_APP_SAMPLES

    at = _skpca()
    _act(at, ("csv", _random_csv(MAX_APP_SAMPLES + 1, 2, seed=3)))
    assert not at.exception, [e.value for e in at.exception]
    shown = " ".join(e.value for e in at.error)
    assert str(MAX_APP_SAMPLES) in shown, (
        f"a {MAX_APP_SAMPLES + 1}-row upload must be refused with the app's limit "
        f"({MAX_APP_SAMPLES} rows) in the message; the page showed errors {shown!r}")


# ---------------------------------------------------------------- cached values


def _arrays(obj, path="value", seen=None):
    """Every ndarray reachable from obj (containers, dataclasses, object attributes)."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, np.ndarray):
        if obj.dtype != object:
            yield path, obj
        else:
            for i, x in enumerate(obj.ravel()):
                yield from _arrays(x, f"{path}[{i}]", seen)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from _arrays(v, f"{path}[{k!r}]", seen)
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            yield from _arrays(v, f"{path}[{i}]", seen)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from _arrays(getattr(obj, f.name), f"{path}.{f.name}", seen)
    elif type(obj).__module__.split(".")[0] in ("mpcore", "datasets") and hasattr(obj, "__dict__"):
        for k, v in vars(obj).items():
            yield from _arrays(v, f"{path}.{k}", seen)


@pytest.fixture(scope="module")
def cached_values():
    from mpcore.kernels import sigma_to_gamma
    from pages.common.cached import skpca as cached
    from pages.common.widgets import DataChoice, KernelChoice

    choice = DataChoice(name="moons", n_samples=60, noise=0.2, seed=4)
    kern = KernelChoice("rbf", gamma=sigma_to_gamma(0.5, "book"), sigma=0.5)
    return {
        "load_data": cached.load_data(choice),
        "split": cached.split(choice, 0.3),
        "train_kernel": cached.train_kernel(choice, kern, 0.3),
        "skpca_steps": cached.skpca_steps(choice, kern, 0.3, 6),
        "train_eigenvalues": cached.train_eigenvalues(choice, kern, 0.3),
        "skpca_view": cached.skpca_view(choice, kern, 0.3, 6),
        "skpca_view (59-trick)": cached.skpca_view(choice, kern, 0.3, 6, 59),
    }


@pytest.mark.parametrize("name", ["load_data", "split", "train_kernel", "skpca_steps",
                                  "train_eigenvalues", "skpca_view",
                                  "skpca_view (59-trick)"])
def test_cached_arrays_are_read_only(cached_values, name):
    arrays = list(_arrays(cached_values[name], name))
    assert arrays, f"{name} returned no arrays to check"
    writable = [p for p, a in arrays if a.flags.writeable]
    assert not writable, f"writable arrays in a cached value: {writable[:8]}"
    path, a = arrays[0]
    with pytest.raises(ValueError, match="read-only"):
        a.flat[0] = 1.0


def test_mutating_a_returned_value_never_changes_the_cache():
    from mpcore.kernels import sigma_to_gamma
    from pages.common.cached import skpca as cached
    from pages.common.widgets import DataChoice, KernelChoice

    choice = DataChoice(name="circles", n_samples=50, noise=0.1, seed=7)
    kern = KernelChoice("rbf", gamma=sigma_to_gamma(0.5, "book"), sigma=0.5)
    first = cached.skpca_view(choice, kern, 0.3, 4)
    pristine = [(p, a.copy()) for p, a in _arrays(first)]
    n_steps = len(first["steps"])
    # a careless page: scribble over everything it was handed
    first["steps"].clear()
    first["curves"].clear()
    for _, a in _arrays(first):
        if a.flags.writeable:
            a[...] = 0
    again = cached.skpca_view(choice, kern, 0.3, 4)
    assert len(again["steps"]) == n_steps
    after = dict(_arrays(again))
    for path, a in pristine:
        np.testing.assert_array_equal(after[path], a, err_msg=path)


def test_mutating_a_returned_figure_never_changes_the_cache():
    """The cached figure is a plain dict: a page may edit its copy without touching the cache."""
    import plotly.io as pio

    from mpcore.kernels import sigma_to_gamma
    from pages.common.cached import skpca as cached
    from pages.common.widgets import DataChoice, KernelChoice

    choice = DataChoice(name="moons", n_samples=50, noise=0.2, seed=8)
    kern = KernelChoice("rbf", gamma=sigma_to_gamma(1.0, "book"), sigma=1.0)
    first = cached.skpca_figure(choice, kern, 0.3, 4, None)
    pristine = pio.to_json(first, validate=False)
    first["layout"]["title"] = "scribbled"
    first["frames"].clear()
    first["data"][0].clear()
    again = cached.skpca_figure(choice, kern, 0.3, 4, None)
    assert pio.to_json(again, validate=False) == pristine


# ---------------------------------------------------------------- static checks

MUTATORS = {"append", "extend", "insert", "pop", "popitem", "remove", "clear", "update",
            "setdefault", "add", "discard", "sort", "reverse", "appendleft", "extendleft",
            "difference_update", "intersection_update", "symmetric_difference_update",
            "__setitem__", "__delitem__", "__iadd__", "__ior__"}
MUTABLE_CALLS = {"list", "dict", "set", "bytearray", "defaultdict", "OrderedDict", "Counter",
                 "deque", "WeakValueDictionary", "WeakKeyDictionary", "WeakSet"}
MUTABLE_NODES = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)
FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _is_mutable(node) -> bool:
    if isinstance(node, MUTABLE_NODES):
        return True
    if isinstance(node, ast.Call):
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        return name in MUTABLE_CALLS
    return False


def _module_statements(tree):
    """Statements run at import time (module body, through if/try/with, not into defs)."""
    todo = list(tree.body)
    while todo:
        node = todo.pop(0)
        yield node
        if isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            for field in ("body", "orelse", "finalbody", "handlers"):
                todo.extend(getattr(node, field, []) or [])
        elif isinstance(node, ast.ExceptHandler):
            todo.extend(node.body)


def _module_mutables(tree) -> set:
    names = set()
    for node in _module_statements(tree):
        if isinstance(node, ast.Assign) and _is_mutable(node.value):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and node.value is not None and _is_mutable(node.value):
            if isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return names


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def _imports(tree, module: str, is_package: bool) -> tuple[dict, dict]:
    """(local name -> (module, name)) for from-imports, (alias -> module) for imports."""
    names, modules = {}, {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = module.split(".") if is_package else module.split(".")[:-1]
                pkg = pkg[: len(pkg) - (node.level - 1)]
                base = ".".join(pkg + ([base] if base else []))
            for a in node.names:
                names[a.asname or a.name] = (base, a.name)
                modules[a.asname or a.name] = f"{base}.{a.name}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                modules[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
    return names, modules


def _base(node):
    """The object a subscript/attribute chain starts from: Name or Attribute(Name, attr)."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return node


def mutable_state_violations(sources: dict, scripts=frozenset()) -> list[str]:
    """Module-level mutable state changed inside functions, in {module name: source}.

    ``scripts`` are page scripts: Streamlit executes them afresh for every run
    with a new namespace, so their top-level names belong to one run of one
    session (not shared); they are still checked for changing *imported*
    module state, ``global`` statements and mutable defaults.

    Flags (1) a module-level list/dict/set (literal, comprehension or
    constructor) that any function mutates (method call such as ``.append`` /
    ``.update``, item assignment or deletion, augmented assignment), through
    its own name, a from-import of it, or ``module.NAME``; (2) ``global``
    statements in functions; (3) mutable default arguments; (4) a module-level
    mutable container whose name is not an ALL_CAPS constant (or a dunder such
    as ``__all__``). An ALL_CAPS container that nothing mutates is allowed.
    """
    trees = {m: ast.parse(src) for m, src in sources.items()}
    mutables = {m: set() if m in scripts else _module_mutables(t) for m, t in trees.items()}
    out = []
    for mod, tree in trees.items():
        for name in sorted(mutables[mod]):
            if not (name.isupper() or (name.startswith("__") and name.endswith("__"))):
                out.append(f"{mod}: module-level mutable {name!r} is not an ALL_CAPS constant")
        is_package = any(m.startswith(mod + ".") for m in trees)
        from_names, aliases = _imports(tree, mod, is_package)

        def target(node, local):
            """Qualified 'module.NAME' if node refers to a tracked module-level container."""
            node = _base(node)
            if isinstance(node, ast.Name) and node.id not in local:
                if node.id in mutables[mod]:
                    return f"{mod}.{node.id}"
                src = from_names.get(node.id)
                if src and src[1] in mutables.get(src[0], ()):
                    return f"{src[0]}.{src[1]}"
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                owner = aliases.get(node.value.id)
                if owner is not None:
                    for m in (owner, *[x for x in mutables if x.startswith(owner + ".")]):
                        if node.attr in mutables.get(m, ()):
                            return f"{m}.{node.attr}"
            return None

        for fn in (n for n in ast.walk(tree) if isinstance(n, FUNCS)):
            args = fn.args
            for d in [*args.defaults, *[d for d in args.kw_defaults if d is not None]]:
                if _is_mutable(d):
                    out.append(f"{mod}:{fn.lineno}: mutable default argument")
            body = fn.body if isinstance(fn.body, list) else [fn.body]
            declared_global = {n for s in body for g in ast.walk(s) if isinstance(g, ast.Global)
                               for n in g.names}
            local = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs,
                                     *filter(None, [args.vararg, args.kwarg])]}
            for s in body:
                for n in ast.walk(s):
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                        local.add(n.id)
            local -= declared_global
            for name in sorted(declared_global):
                out.append(f"{mod}:{fn.lineno}: 'global {name}' changes module state at run time")
            for s in body:
                for n in ast.walk(s):
                    hit, line = None, getattr(n, "lineno", fn.lineno)
                    if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                            and n.func.attr in MUTATORS):
                        hit = target(n.func.value, local)
                    elif isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                        targets = (n.targets if isinstance(n, (ast.Assign, ast.Delete))
                                   else [n.target])
                        for t in targets:
                            for el in (t.elts if isinstance(t, ast.Tuple) else [t]):
                                if isinstance(el, ast.Subscript) or (
                                        isinstance(n, ast.AugAssign) and isinstance(el, ast.Name)):
                                    hit = hit or target(el, local)
                    if hit:
                        out.append(f"{mod}:{line}: {hit} is mutated inside a function")
    return sorted(set(out))


def _project_sources() -> dict:
    out = {}
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            out[_module_name(path)] = path.read_text()
    return out


def _page_scripts() -> frozenset:
    """pages/*.py (not pages/common/): run by st.navigation, never imported."""
    return frozenset(_module_name(p) for p in (ROOT / "pages").glob("*.py")
                     if p.name != "__init__.py")


def test_static_check_catches_module_state_mutated_at_run_time():
    bad = {
        "pkg.state": "SEEN = []\nREG = {}\n_cache = {}\nTOTAL = 0\n"
                     "def f(x):\n    SEEN.append(x)\n"
                     "def g(k, v):\n    REG[k] = v\n"
                     "def h():\n    global TOTAL\n    TOTAL += 1\n"
                     "def d(x, acc=[]):\n    return acc\n",
        "pkg.user": "from .state import REG\nimport pkg.state as st8\n"
                    "def u():\n    REG.update(a=1)\n"
                    "def w():\n    del st8.SEEN[0]\n",
    }
    found = "\n".join(mutable_state_violations(bad))
    for expected in ("pkg.state:6: pkg.state.SEEN is mutated", "pkg.state:8: pkg.state.REG",
                     "'global TOTAL'", "mutable default", "'_cache' is not an ALL_CAPS",
                     "pkg.user:4: pkg.state.REG is mutated", "pkg.user:6: pkg.state.SEEN"):
        assert expected in found, (expected, found)


def test_static_check_allows_constants_locals_and_import_time_setup():
    good = {
        "pkg.ok": "NAMES = ['a', 'b']\nTABLE = {n: i for i, n in enumerate(NAMES)}\n"
                  "TABLE['c'] = 2\n__all__ = ['f']\n"
                  "def f():\n    NAMES = []\n    NAMES.append(1)\n    out = {}\n"
                  "    out['x'] = TABLE['a']\n    return sorted(TABLE) + list(NAMES)\n",
    }
    assert mutable_state_violations(good) == []


def test_page_scripts_top_level_names_are_per_run_but_imports_are_shared():
    sources = {
        "pkg.shared": "TABLE = {}\n",
        "pkg.page": "from .shared import TABLE\nrows = []\nrows.append(1)\n"
                    "def f():\n    rows.append(2)\n    TABLE['x'] = 1\n",
    }
    found = mutable_state_violations(sources, scripts={"pkg.page"})
    assert found == ["pkg.page:6: pkg.shared.TABLE is mutated inside a function"], found
    # the same file imported as a module would share 'rows' between sessions
    as_module = "\n".join(mutable_state_violations(sources))
    assert "'rows' is not an ALL_CAPS constant" in as_module
    assert "pkg.page.rows is mutated" in as_module


def test_no_module_level_mutable_state_is_changed_at_run_time():
    scripts = _page_scripts()
    assert "pages.skpca" in scripts and "pages.common.widgets" not in scripts
    problems = mutable_state_violations(_project_sources(), scripts)
    assert not problems, "\n".join(problems)


CACHE_DECORATORS = {"cache_data", "cache_resource"}


def _cache_decorators(tree):
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for dec in fn.decorator_list:
                call = dec if isinstance(dec, ast.Call) else None
                f = dec.func if call else dec
                # st.cache_data(...) or the cache package's own cache_data(...) (the same, with the
                # app's choices keyed by their repr)
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
                if name in CACHE_DECORATORS:
                    yield fn, call


def test_every_streamlit_cache_has_max_entries_and_ttl():
    found = 0
    problems = []
    for path in sorted((ROOT / "pages").rglob("*.py")) + [ROOT / "app.py"]:
        for fn, call in _cache_decorators(ast.parse(path.read_text())):
            found += 1
            where = f"{path.relative_to(ROOT)}:{fn.lineno} {fn.name}"
            kw = {k.arg: k.value for k in (call.keywords if call else [])}
            for name in ("max_entries", "ttl"):
                if name not in kw or (isinstance(kw[name], ast.Constant) and kw[name].value is None):
                    problems.append(f"{where}: no {name}")
    assert found >= 5, "expected the cached wrappers in pages/common/cached/"
    assert not problems, "\n".join(problems)


def test_cache_bounds_are_finite_numbers():
    from pages.common.cached import base, skpca

    assert 1 <= base.ENTRIES <= 256
    # the sparse-KPCA page's per-k cache: the slider's whole range, and still bounded
    assert 100 <= skpca.SKPCA_AT_K_ENTRIES <= 256
    assert 0 < base.TTL <= 24 * 3600


CACHE_PACKAGE = ROOT / "pages" / "common" / "cached"


def test_caches_are_only_defined_in_cached_module():
    """One place to audit: every st.cache_* wrapper lives in pages/common/cached/."""
    elsewhere = [f"{p.relative_to(ROOT)}:{fn.lineno} {fn.name}"
                 for p in sorted((ROOT / "pages").rglob("*.py")) + [ROOT / "app.py"]
                 if p.parent != CACHE_PACKAGE
                 for fn, _ in _cache_decorators(ast.parse(p.read_text()))]
    assert not elsewhere, elsewhere


def test_every_cache_keys_the_apps_choices_by_their_repr():
    """The cache package's caches all go through its cache_data / cache_resource, which key
    the app's frozen choices (DataChoice, KernelChoice, KMPSettings) by repr."""
    from pages.common.cached import base as cached

    kinds = [type(call.func).__name__ if call else "bare"
             for path in sorted(CACHE_PACKAGE.glob("*.py"))
             for _, call in _cache_decorators(ast.parse(path.read_text()))]
    assert len(kinds) >= 30 and set(kinds) == {"Name"}, kinds
    assert set(cached.CHOICE_KEYS) == {cached.DataChoice, cached.KernelChoice, cached.KMPSettings}
    assert all(key is repr for key in cached.CHOICE_KEYS.values())


def _canonical(value):
    """A value with its type and, for a float, every bit (-0.0 is not 0.0): what tells two
    cache keys apart."""
    if isinstance(value, tuple):
        return ("tuple", tuple(_canonical(v) for v in value))
    if isinstance(value, float):
        return ("float", value.hex())
    return (type(value).__name__, value)


def _fields(choice):
    return (type(choice).__name__,
            tuple(_canonical(getattr(choice, f.name)) for f in dataclasses.fields(choice)))


def _choice_strategies():
    from hypothesis import strategies as hs

    from pages.common.cached.base import DataChoice, KernelChoice, KMPSettings

    text = hs.text(max_size=6)
    number = hs.floats(allow_nan=False) | hs.integers(-3, 3)
    point = hs.tuples(number, number, hs.integers(-2, 2) | text | hs.booleans())
    data = hs.builds(DataChoice, name=text, n_samples=hs.none() | hs.integers(0, 5),
                     noise=hs.none() | number, seed=hs.integers(-2, 2), variance_ratio=number,
                     standardize=hs.booleans(), csv_digest=hs.none() | text,
                     csv_target=hs.none() | text,
                     added=hs.lists(point, max_size=3).map(tuple))
    kernel = hs.builds(KernelChoice, kernel=text, gamma=hs.none() | number,
                       degree=hs.integers(0, 4), coef0=number, sigma=hs.none() | number)
    settings = hs.builds(KMPSettings, n_basis=hs.integers(0, 4), fitting=text, loss=text,
                         backfit_every=hs.integers(0, 3), mix=text,
                         feature=hs.none() | text)
    return hs.one_of(data, kernel, settings)


def test_a_choices_repr_tells_every_two_choices_apart():
    """CHOICE_KEYS keys a cache by repr: two choices share an entry exactly when they are of
    one type with the same value in every field (sigma too, which KernelChoice's == skips),
    as Streamlit's own hashing of their fields had it. Two draws are mostly distinct, so
    equal ones are also built from one draw's fields."""
    from hypothesis import given, strategies as hs

    choices = _choice_strategies()

    @given(choices, choices, hs.booleans())
    def check(a, b, same):
        if same:
            b = dataclasses.replace(a)
        assert (repr(a) == repr(b)) == (_fields(a) == _fields(b)), (a, b)

    check()
