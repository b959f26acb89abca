"""The xcb pre-check: missing X11 libraries give one line and exit 2, not Qt's core dump."""

from __future__ import annotations

import pytest

import main
from core import platform_check
from core.platform_check import XCB_LIBRARIES, missing_libraries, uses_xcb, xcb_problem

MISSING = ("libxcb-icccm.so.4", "libxcb-keysyms.so.1")


def _loader_without(*absent: str):
    """A loader that fails (like ``ctypes.CDLL``) for every path ending in ``absent``."""
    tried: list[str] = []

    def load(path: str) -> object:
        tried.append(path)
        if path.endswith(absent):
            raise OSError(f"{path}: cannot open shared object file: No such file or directory")
        return object()

    load.tried = tried  # type: ignore[attr-defined]
    return load


@pytest.fixture
def x11_session(monkeypatch: pytest.MonkeyPatch) -> None:
    """An X11 desktop session on Linux with no platform forced."""
    monkeypatch.setattr(platform_check.sys, "platform", "linux")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setenv("XDG_SESSION_TYPE", "x11")


@pytest.fixture
def gui_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Replace the window and the CLI entry points; record which one main() reached."""
    import gui.app
    import gui.cli

    calls: list[str] = []
    monkeypatch.setattr(gui.app, "run_gui", lambda t0: calls.append("gui") or 0)
    monkeypatch.setattr(gui.cli, "main", lambda args, t0: calls.append(args[0]) or 0)
    return calls


EXPECTED = (
    "error: the window cannot open: Qt's X11 (xcb) platform plugin needs "
    "libxcb-icccm.so.4, libxcb-keysyms.so.1, which cannot be loaded; install with: "
    "sudo apt install libxcb-icccm4 libxcb-keysyms1"
)


def test_missing_xcb_libraries_exit_2_with_one_line(
    x11_session: None,
    gui_calls: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(platform_check, "_load", _loader_without(*MISSING))
    assert main.main([]) == 2
    out, err = capsys.readouterr()
    assert err == EXPECTED + "\n"
    assert out == ""
    assert gui_calls == []  # Qt never started


def test_present_is_checked_too(
    x11_session: None,
    gui_calls: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(platform_check, "_load", _loader_without(*MISSING))
    assert main.main(["present", "deck.json"]) == 2
    assert capsys.readouterr().err == EXPECTED + "\n"
    assert gui_calls == []


def test_all_libraries_present_starts_the_window(
    x11_session: None, gui_calls: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    loader = _loader_without()
    monkeypatch.setattr(platform_check, "_load", loader)
    assert main.main([]) == 0
    assert gui_calls == ["gui"]
    assert sorted(loader.tried) == sorted(XCB_LIBRARIES)


@pytest.mark.parametrize(
    "args", [["views"], ["export", "rope", "-o", "x.png"], ["present", "--help"], ["--help"]]
)
def test_headless_commands_are_not_checked(
    x11_session: None, gui_calls: list[str], monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    monkeypatch.setattr(platform_check, "_load", _loader_without(*XCB_LIBRARIES))
    assert main.main(args) == 0
    assert gui_calls == [args[0]]


def test_offscreen_platform_is_not_checked(
    x11_session: None, gui_calls: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    monkeypatch.setattr(platform_check, "_load", _loader_without(*XCB_LIBRARIES))
    assert main.main([]) == 0
    assert gui_calls == ["gui"]


@pytest.mark.parametrize(
    ("env", "platform", "expected"),
    [
        ({}, "linux", True),
        ({"DISPLAY": ":0"}, "linux", True),
        ({"QT_QPA_PLATFORM": "xcb"}, "linux", True),
        ({"QT_QPA_PLATFORM": "xcb;wayland"}, "linux", True),
        ({"QT_QPA_PLATFORM": "offscreen"}, "linux", False),
        ({"QT_QPA_PLATFORM": "wayland;xcb"}, "linux", False),
        ({"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland"}, "linux", False),
        ({"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "x11"}, "linux", True),
        ({}, "darwin", False),
        ({}, "win32", False),
        ({"QT_QPA_PLATFORM": "xcb"}, "darwin", False),
    ],
)
def test_uses_xcb(env: dict[str, str], platform: str, expected: bool) -> None:
    assert uses_xcb(env, platform) is expected


def test_bundled_copy_is_found_after_the_system_search_fails() -> None:
    load = _loader_without("libxcb-icccm.so.4")

    def bundle_only(path: str) -> object:
        if path == "/bundle/libxcb-icccm.so.4":
            return object()
        return load(path)

    assert missing_libraries(["libxcb-icccm.so.4"], bundle_only, ["/bundle"]) == []
    assert missing_libraries(["libxcb-icccm.so.4"], bundle_only, ["/elsewhere"]) == [
        "libxcb-icccm.so.4"
    ]


def test_no_problem_on_this_machine_when_offscreen() -> None:
    assert xcb_problem({"QT_QPA_PLATFORM": "offscreen"}, platform="linux") is None
