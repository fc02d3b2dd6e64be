"""The layers stay apart: mpcore imports no data loader, plotly (outside mpcore.plots), pandas
or streamlit; datasets, views and experiments import no streamlit."""

import subprocess
import sys
from pathlib import Path


def _modules_after(stmt):
    code = f"import sys; {stmt}; print(','.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.strip().split(","))


def test_mpcore_imports_neither_streamlit_nor_plotly():
    mods = _modules_after("import mpcore")
    assert "streamlit" not in mods and "plotly" not in mods


def test_datasets_imports_no_streamlit():
    assert "streamlit" not in _modules_after("import datasets")



#: What the core never imports: the data loaders, figures, tables, the app and the layers above.
NOT_IN_CORE = ("datasets", "plotly", "pandas", "streamlit", "views", "experiments", "pages")


def _mpcore_files():
    """mpcore's source files, except the plots package (which may import plotly)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "mpcore"
    return [p for p in sorted(root.rglob("*.py")) if "plots" not in p.relative_to(root).parts]


def _module_of(path):
    from pathlib import Path

    rel = path.relative_to(Path(__file__).resolve().parents[2]).with_suffix("")
    return ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)


def test_mpcore_imports_no_data_loader_plotly_or_pandas():
    """The core is a library: data sets, figures, tables and experiments live beside it.

    In a fresh interpreter where those packages cannot be imported at all, mpcore
    and every non-plot submodule still import (scikit-learn itself imports pandas
    when it is installed, so its mere presence in sys.modules proves nothing).
    """
    modules = [_module_of(p) for p in _mpcore_files()]
    assert "mpcore.kmp" in modules and not any(m.startswith("mpcore.plots") for m in modules)
    block = "; ".join(f"sys.modules[{m!r}] = None" for m in NOT_IN_CORE)
    mods = _modules_after(f"{block}; " + "; ".join(f"import {m}" for m in modules))
    assert set(modules) <= mods


def test_mpcore_source_never_imports_them_even_inside_a_function():
    import ast

    found = []
    for path in _mpcore_files():
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level
                     else [])
            found += [f"{path.name}:{node.lineno} imports {n}" for n in names
                      if n.split(".")[0] in NOT_IN_CORE]
    assert not found, found


def test_views_and_experiments_import_no_streamlit():
    mods = _modules_after("import views.data, views.skpca, views.kmp, views.spectrum, "
                          "views.kcca, views.bounds, experiments")
    assert "streamlit" not in mods


# ---------------------------------------------------------------- the layering contract

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]


def test_layering_contract_holds():
    """.importlinter: mpcore imports no streamlit, pandas, datasets, views, experiments
    or pages, only mpcore.plots imports plotly, the core never imports its plots, views
    and experiments never import streamlit or the pages, pages.common never imports a
    page module. import-linter reads the imports from the source (nothing runs)."""
    # lint-imports through this interpreter (the console script may not be on PATH)
    code = ("import sys; from importlinter.cli import lint_imports; "
            "sys.exit(lint_imports(config_filename='.importlinter', no_cache=True))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout


def _contract_modules(contract, key):
    import configparser

    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter")
    return set(config[f"importlinter:contract:{contract}"][key].split())


def test_every_page_and_core_module_is_named_in_the_contract():
    """The contracts that list modules list all of them, so a new one cannot slip past."""
    pages = {f"pages.{p.stem}" for p in (ROOT / "pages").glob("*.py") if p.stem != "__init__"}
    assert _contract_modules("pages-common", "forbidden_modules") == pages
    core = {f"mpcore.{p.stem}" for p in (ROOT / "mpcore").glob("*.py") if p.stem != "__init__"}
    # a package of the core (mpcore.kmp) is listed as one module: its submodules count with it
    core |= {f"mpcore.{p.parent.name}" for p in (ROOT / "mpcore").glob("*/__init__.py")
             if p.parent.name != "plots"}
    assert _contract_modules("mpcore-core-no-plots", "source_modules") == core


def test_private_plot_modules_named_in_the_contract_exist():
    listed = _contract_modules("pages-public-plots", "forbidden_modules")
    for module in listed:
        assert (ROOT / (module.replace(".", "/") + ".py")).exists(), module


def test_every_source_file_compiles_without_a_warning():
    """An invalid escape such as ``\\|`` in a docstring that is not raw is a
    DeprecationWarning today (a SyntaxWarning in newer Pythons) and an error later."""
    import warnings

    root = Path(__file__).resolve().parents[2]
    files = [p for d in ("mpcore", "views", "pages", "datasets", "experiments", "benchmarks",
                         "loadtest", "deploy", "tests")
             for p in sorted((root / d).rglob("*.py"))] + [root / "app.py"]
    assert len(files) > 50
    problems = []
    for path in files:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            compile(path.read_text(encoding="utf-8"), str(path), "exec")
        problems += [f"{path.relative_to(root)}:{w.lineno}: {w.message}" for w in caught]
    assert not problems, "\n".join(problems)


def test_importing_the_caches_starts_no_process():
    """The app's caches compute in the server's process when a page asks: importing them
    starts no process (one would outlive a server killed with SIGKILL)."""
    code = ("import os\n"
            "import pages.common.cached\n"
            "from pages.common.cached import (bounds, data, kcca, kmp, link, reproduce, skpca,\n"
            "                                 spectrum)\n"
            "import pages.common.widgets\n"
            "me = os.getpid()\n"
            "children = [t for t in os.listdir(f'/proc/{me}/task')\n"
            "            if open(f'/proc/{me}/task/{t}/children').read().split()]\n"
            "print(len(children))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "0", out.stdout


# ---------------------------------------------------------------- no import cycle

#: The project's packages (loadtest, deploy and benchmarks are folders of scripts without an
#: __init__.py: grimp reads them as namespace packages).
PROJECT_PACKAGES = ("mpcore", "datasets", "views", "experiments", "pages", "loadtest", "deploy",
                    "benchmarks")


def _cycles(imports):
    """The strongly connected components of more than one module (Tarjan), each a cycle.

    ``imports`` maps a module to the modules it imports directly.
    """
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(start):
        # iterative Tarjan: (module, iterator over what it imports)
        work = [(start, iter(sorted(imports[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            module, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(imports[target]))))
                elif target in on_stack:
                    low[module] = min(low[module], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for module in sorted(imports):
        if module not in index:
            visit(module)
    return found


def test_the_cycle_finder_finds_a_cycle():
    imports = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _cycles(imports) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_among_the_project_modules():
    """No module imports, directly or through others, a module that imports it back
    (imports inside functions count too). grimp (import-linter's graph) reads the source."""
    import grimp

    sys.path.insert(0, str(ROOT))
    try:
        graph = grimp.build_graph(*PROJECT_PACKAGES, cache_dir=None)
    finally:
        sys.path.remove(str(ROOT))
    modules = set(graph.modules)
    assert {"mpcore.kmp", "pages.common.cached", "experiments.registry"} <= modules
    imports = {m: graph.find_modules_directly_imported_by(m) & modules for m in modules}
    cycles = _cycles(imports)
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(c) for c in cycles)
