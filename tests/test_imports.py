"""mpcore and datasets stay free of streamlit (and mpcore of plotly) for notebook users."""

import subprocess
import sys


def _modules_after(stmt):
    code = f"import sys; {stmt}; print(','.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.strip().split(","))


def test_mpcore_imports_neither_streamlit_nor_plotly():
    mods = _modules_after("import mpcore")
    assert "streamlit" not in mods and "plotly" not in mods


def test_datasets_imports_no_streamlit():
    assert "streamlit" not in _modules_after("import datasets")
