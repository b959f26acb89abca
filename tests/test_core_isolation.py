"""``core`` is pure computation: it never imports Qt, pyqtgraph, gui — nor torch eagerly."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

BLOCKER = textwrap.dedent("""
    import importlib.abc, sys
    BLOCKED = ("PySide6", "shiboken6", "pyqtgraph", "gui", "PyQt5", "PyQt6", "matplotlib")
    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ImportError(f"blocked in this test: {name}")
            return None
    sys.meta_path.insert(0, Block())
""")


def run_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", BLOCKER + textwrap.dedent(code)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_core_imports_and_computes_without_qt_or_torch():
    result = run_python("""
        import pkgutil, importlib, core, core.views
        names = [m.name for m in pkgutil.walk_packages(core.__path__, "core.")]
        for name in names:
            importlib.import_module(name)
        from core.views import VIEWS
        from core.viewdata import ComputeContext
        for spec in VIEWS.values():
            data = spec.compute(spec.model.defaults(), ComputeContext())
            assert data.panels, spec.view_id
        import sys
        assert "torch" not in sys.modules, "torch imported eagerly"
        assert not any(m.split(".")[0] in ("PySide6", "pyqtgraph", "gui") for m in sys.modules)
        print("OK", len(names), len(VIEWS))
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("OK")


def test_blocker_really_blocks():
    """The check above could not pass vacuously: importing Qt does fail under the blocker."""
    result = run_python("import PySide6")
    assert result.returncode != 0
    assert "blocked in this test" in result.stderr


@pytest.mark.slow
def test_core_reference_tests_pass_without_qt():
    """Run the independent reference tests in a subprocess where Qt cannot be imported."""
    code = (
        "import pytest, sys; sys.exit(pytest.main(['-q', '-p', 'no:pytest-qt', "
        "'-p', 'no:cacheprovider', 'tests/test_reference_sinusoidal_relative.py', "
        "'tests/test_reference_alibi_t5.py', 'tests/test_reference_rope.py']))"
    )
    result = run_python(code)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
