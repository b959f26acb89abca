"""One version string: core/version.py, pyproject.toml, ``--version`` and Help → About."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
import types
from importlib import metadata
from pathlib import Path

import numpy as np
import pytest

from core import version as core_version
from core.backend import Backend
from core.version import NOT_INSTALLED, __version__, library_version, version_line, versions

ROOT = Path(__file__).resolve().parent.parent


def _run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_pyproject_version_is_core_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["version"] == __version__


def test_version_is_a_release_number() -> None:
    parts = __version__.split(".")
    assert len(parts) == 3 and all(p.isdigit() for p in parts), __version__
    assert version_line() == f"pe-studio {__version__}"


def test_packaging_scripts_can_read_the_version_without_python() -> None:
    """The scripts take the version with this sed expression (no Python on the path)."""
    out = subprocess.run(
        ["sed", "-n", r's/^__version__ = "\(.*\)"$/\1/p', str(ROOT / "core" / "version.py")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out == f"{__version__}\n"


def test_main_version_prints_the_version_and_imports_no_qt() -> None:
    proc = subprocess.run(
        [sys.executable, "main.py", "--version"], cwd=ROOT, capture_output=True, text=True
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, f"pe-studio {__version__}\n", "")
    probe = _run_python(
        "import sys, main\n"
        "rc = main.main(['--version'])\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('PySide6', 'pyqtgraph', 'torch'))\n"
        "print(rc, heavy)"
    )
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.splitlines()[-1] == "0 []"


def test_versions_lists_app_python_and_libraries() -> None:
    info = versions()
    assert list(info) == [
        "pe-studio",
        "Python",
        "PySide6",
        "pyqtgraph",
        "numpy",
        "superqt",
        "torch",
        "platform",
    ]
    assert info["pe-studio"] == __version__
    assert info["Python"] == ".".join(map(str, sys.version_info[:3]))
    assert info["numpy"] == np.__version__
    assert info["PySide6"] == metadata.version("PySide6-Essentials")


def test_versions_does_not_import_torch() -> None:
    probe = _run_python(
        "import json, sys\n"
        "from core.version import versions\n"
        "info = versions()\n"
        "print(json.dumps([info['torch'], 'torch' in sys.modules, 'PySide6' in sys.modules]))"
    )
    assert probe.returncode == 0, probe.stderr
    torch_version, torch_imported, qt_imported = json.loads(probe.stdout)
    try:
        expected = metadata.version("torch")
    except metadata.PackageNotFoundError:
        expected = NOT_INSTALLED
    assert (torch_version, torch_imported, qt_imported) == (expected, False, False)


def test_library_version_prefers_the_imported_module(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pe_fake_lib", types.SimpleNamespace(__version__="9.8.7"))
    assert library_version("pe_fake_lib", ("numpy",)) == "9.8.7"
    # Not imported: the first distribution that has metadata wins.
    assert library_version("pe_absent_lib", ("pe-absent-dist", "numpy")) == metadata.version(
        "numpy"
    )
    assert library_version("pe_absent_lib", ("pe-absent-dist",)) == NOT_INSTALLED


def test_missing_optional_library_reads_not_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(core_version.LIBRARIES, "torch", ("pe_absent_torch", ("pe-absent-torch",)))
    assert versions()["torch"] == NOT_INSTALLED


# ------------------------------------------------------------------ About dialog
def _open_about(window, qtbot):
    action = window.findChild(type(window.help_menu.actions()[0]), "action-about")
    assert action is not None and action in window.help_menu.actions()
    action.trigger()
    qtbot.waitUntil(lambda: getattr(window, "about_dialog", None) is not None)
    return action, window.about_dialog


def test_help_about_shows_versions_and_device(window, qtbot) -> None:
    from PySide6 import QtCore, QtGui, QtWidgets

    action, dialog = _open_about(window, qtbot)
    assert action.menuRole() == QtGui.QAction.MenuRole.AboutRole
    rows = dict(dialog.rows)
    assert rows["Version"] == __version__
    assert rows["Qt"] == QtCore.qVersion()
    assert rows["numpy"] == np.__version__
    assert rows["pyqtgraph"] == sys.modules["pyqtgraph"].__version__
    assert rows["Compute"] == "numpy on CPU"
    assert rows["Qt platform"] == "offscreen"
    shown = {lab.objectName(): lab.text() for lab in dialog.findChildren(QtWidgets.QLabel)}
    assert shown["about-version"] == __version__
    assert __version__ in shown["about-heading"]
    dialog.findChild(QtWidgets.QPushButton, "about-copy").click()
    clip = QtGui.QGuiApplication.clipboard().text()
    assert f"Version: {__version__}" in clip and f"numpy: {np.__version__}" in clip
    dialog.reject()
    qtbot.waitUntil(lambda: window.about_dialog is None)


def test_about_reports_the_active_backend(window, qtbot) -> None:
    window.backend = Backend("torch", "cuda", "CUDA device 0")
    _, dialog = _open_about(window, qtbot)
    assert dict(dialog.rows)["Compute"] == "torch on CUDA (CUDA device 0)"
    dialog.reject()
