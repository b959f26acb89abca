"""Features reach the main window only through :class:`gui.window.protocol.StudioWindow`.

The lecture and export code are read (their syntax trees) to check that every member
they use of the window is one of the protocol's, and that nothing is added to the window
at run time; the window is checked to implement the protocol, and the feature registry
to hand out what was installed.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from gui.window.protocol import StudioWindow

ROOT = Path(__file__).resolve().parent.parent
FEATURE_FILES = sorted((ROOT / "gui" / "lecture").glob("*.py")) + [
    ROOT / "gui" / "export" / "actions.py"
]
PROTOCOL_MEMBERS = {
    name
    for name in vars(StudioWindow)
    if not name.startswith("_") and name not in {"register", "mro"}
} | set(StudioWindow.__annotations__)


def _window_uses(tree: ast.AST) -> list[tuple[int, str]]:
    """``(line, member)`` for each ``window.<member>`` / ``self.window.<member>``."""
    uses = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        target = node.value
        is_window = (isinstance(target, ast.Name) and target.id == "window") or (
            isinstance(target, ast.Attribute)
            and target.attr == "window"
            and isinstance(target.value, ast.Name)
            and target.value.id == "self"
        )
        if is_window:
            uses.append((node.lineno, node.attr))
    return uses


def test_protocol_is_small():
    assert 10 <= len(PROTOCOL_MEMBERS) <= 24, sorted(PROTOCOL_MEMBERS)


@pytest.mark.parametrize("path", FEATURE_FILES, ids=lambda p: p.name)
def test_features_use_only_protocol_members(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    outside = [(line, m) for line, m in _window_uses(tree) if m not in PROTOCOL_MEMBERS]
    assert not outside, f"{path.name} uses window members outside StudioWindow: {outside}"
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.module != "gui.window.main_window", f"{path.name} imports MainWindow"
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                sets = isinstance(target, ast.Attribute) and _window_uses(target)
                assert not sets, f"{path.name}:{node.lineno} sets a window member"
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "setattr":
            first = node.args[0] if node.args else None
            assert not (isinstance(first, ast.Name) and first.id == "window"), path.name


def test_the_scan_sees_a_member_outside_the_protocol():
    """The source check above can fail: a use of ``window.engine`` is reported."""
    tree = ast.parse("def f(window):\n    window.engine.stop()\n    window.set_view('x')\n")
    uses = _window_uses(tree)
    assert (2, "engine") in uses and "engine" not in PROTOCOL_MEMBERS
    assert "set_view" in PROTOCOL_MEMBERS


def test_main_window_implements_the_protocol(window):
    assert isinstance(window, StudioWindow)
    for name in PROTOCOL_MEMBERS:
        assert hasattr(window, name), name
    for name, member in vars(StudioWindow).items():
        if inspect.isfunction(member) and not name.startswith("_"):
            expected = list(inspect.signature(member).parameters)
            actual = list(inspect.signature(getattr(type(window), name)).parameters)
            assert actual == expected, name


def test_features_add_no_attribute_to_the_window(qtbot):
    """Installing every feature leaves the window's attributes as a bare window has them."""
    from gui.app import build_window
    from gui.window.main_window import MainWindow

    bare = MainWindow()
    qtbot.addWidget(bare)
    full = build_window()
    qtbot.addWidget(full)
    assert set(vars(full)) == set(vars(bare))
    bare.close()
    full.close()


def test_feature_registry_gives_typed_access(window):
    from gui.export.actions import ExportActions
    from gui.lecture.controller import Lecture
    from gui.lecture.display import DisplayController

    assert window.lecture is window.feature(Lecture)
    assert window.export_actions is window.feature(ExportActions)
    assert window.find_feature(DisplayController) is window.lecture.display
    with pytest.raises(ValueError, match="installed already"):
        window.add_feature(window.lecture)
    with pytest.raises(LookupError, match="no int"):
        window.feature(int)
    assert window.find_feature(int) is None


def test_menus_by_name_and_status_line(window):
    assert window.menu("file") is window.file_menu
    with pytest.raises(ValueError, match="menu must be one of"):
        window.menu("tools")
    action = window.add_action("help", "Probe", "", lambda: None, "action-probe")
    assert action in window.menu("help").actions()
    window.show_status("hello", 0)
    assert window.statusBar().currentMessage() == "hello"
