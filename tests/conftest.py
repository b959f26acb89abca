"""Shared test set-up: headless Qt, a fresh main window, helpers."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PE_STUDIO_NO_SETTINGS", "1")

import pytest
from live_frames import held_drags
from pytestqt.qtbot import QtBot
from tiers import gate_cover, gate_items, set_full_run
from window_reuse import reused_window, reused_window_holder  # noqa: F401  (fixtures)

# A wait is a ceiling, not a speed requirement: pytest-qt's 5 s default timed out on a
# loaded 2-core machine (load ~15) while the condition came true later. Waits still return
# as soon as their condition holds, so a longer ceiling costs nothing when tests pass.
WAIT_CEILING_MS = 60_000
_wait_until = QtBot.waitUntil


def _patient_wait_until(self, callback, *, timeout: int = WAIT_CEILING_MS) -> None:  # type: ignore[no-untyped-def]
    _wait_until(self, callback, timeout=max(timeout, WAIT_CEILING_MS))


QtBot.waitUntil = _patient_wait_until  # type: ignore[method-assign]


# The modules that take longest (seconds each: real windows at 200-300 %, subprocesses),
# longest first, as measured by `pytest -n 2 --durations=0` (2026-12-05, two runs:
# test_presenter 13-20 s, test_live_use 15-19 s, ... test_stage_nudge_hold 3 s; the
# modules after them take under 3 s each). With -n each worker runs whole modules
# (`--dist=loadfile`, pyproject.toml) and takes the next one in this order when it is
# done, so the last ones are short: a long module started last kept one worker busy
# while the other had nothing left to do. (xdist hands out the modules by their number
# of tests, most first, unless told `--no-loadscope-reorder`, pyproject.toml: this order
# went unused, and test_training_orphan, 5-7 s in two tests, was among the last.) Only
# the order changes; every module still runs all its tests in its own order.
SLOW_MODULES_FIRST = (
    "test_presenter.py",
    "test_live_use.py",
    "test_deck_edits.py",
    "test_stage_focus.py",
    "test_lecture.py",
    "test_stage_strip.py",
    "test_training.py",
    "test_word_order_rows.py",
    "test_deck_scenes_fit.py",
    "test_layout_fit.py",
    "test_train_page_look.py",
    "test_stage_toast.py",
    "test_view_fit.py",
    "test_gui_views.py",
    "test_hover.py",
    "test_deck_scenes_fit_squeeze.py",
    "test_export.py",
    "test_stage_scroll.py",
    "test_verdict_fold.py",
    "test_export_deck.py",
    "test_explanation_fold.py",
    "test_training_orphan.py",
    "test_fast_axis.py",
    "test_show_all_data.py",
    "test_word_order_legible.py",
    "test_deck_scenes_fit_columns.py",
    "test_legend_flow.py",
    "test_restyle.py",
    "test_deck_export_window.py",
    "test_menus.py",
    "test_smooth_sweep.py",
    "test_stage_strip_fit.py",
    "test_stage_table_history.py",
    "test_legend_drag_hold.py",
    "test_export_quality.py",
    "test_plane_label_room.py",
    "test_undo_failed.py",
    "test_settle.py",
    "test_svg_cells.py",
    "test_label_scripts.py",
    "test_deck_scenes_fit_history.py",
    "test_square_hug.py",
    "test_presenter_next.py",
    "test_animation_export.py",
    "test_stage_nudge_hold.py",
)


# Two tiers (tests/tiers.py): the tests and cases marked ``full`` run only with ``--full``.


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full",
        action="store_true",
        default=os.environ.get("PE_STUDIO_FULL_TESTS", "") not in ("", "0"),
        help="also run the tests marked 'full' (the exhaustive sweeps; .ci/full runs them; "
        "PE_STUDIO_FULL_TESTS=1 does the same)",
    )


def pytest_configure(config: pytest.Config) -> None:
    set_full_run(bool(config.getoption("--full")))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    gate, full = gate_items(items)
    if full and not config.getoption("--full"):
        config.hook.pytest_deselected(items=full)
        items[:] = gate
    rank = {name: i for i, name in enumerate(SLOW_MODULES_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable


@pytest.fixture
def unwritable_folder(tmp_path):  # type: ignore[no-untyped-def]
    """A folder no file can be created in, even by root: ``/proc`` (Linux), else a
    folder without write permission (skipped as root: root ignores permissions)."""
    proc = Path("/proc")
    if proc.is_dir():
        try:
            os.close(os.open(proc / "pe-studio-probe", os.O_WRONLY | os.O_CREAT | os.O_EXCL))
        except OSError:
            yield proc
            return
        os.unlink(proc / "pe-studio-probe")  # (a /proc that takes files: not this test's)
    if os.name != "posix" or os.geteuid() == 0:
        pytest.skip("no folder here that root cannot write in")
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    yield locked
    locked.chmod(0o700)


@pytest.fixture
def window(reused_window):  # noqa: F811
    """A shown main window (1600 x 1000, no settings written): the module's, reused by
    its tests where they leave it as a new one (``window_reuse``), else a new one. A
    window per test cost about half a second of CPU to build, show and draw, and each
    view it showed was built again."""
    return reused_window


@contextlib.contextmanager
def _open_window(width: int, height: int):  # type: ignore[no-untyped-def]
    """A shown main window (no settings written) of ``width`` x ``height``, left out of
    presentation mode, closed, and the theme restored when the block ends."""
    from gui.app import build_window
    from gui.theme import current_theme, set_theme

    saved = current_theme()
    win = build_window(persist=False)
    win.resize(width, height)
    win.show()
    assert win.wait_idle(60)
    try:
        yield win
    finally:
        from gui.app import dispose_window, release_windows

        # (as closing the window leaves it: the views are not re-styled at the normal
        # scale, ~0.5 s of each module that presented, for a window deleted next)
        win.lecture.display.leave_presentation(restyle=False)
        # deleted now, as the app deletes its window when it quits: a window only
        # closed was left to the interpreter's exit, where PySide deleted its plots in
        # no particular order (test_deck_scenes_fit.py run alone ended in a segfault,
        # rc 139, after all its tests passed: a Python override raising in a
        # QGraphicsWidget's resize during finalisation)
        dispose_window(win)
        del win
        release_windows()
        set_theme(saved.name, ui_scale=saved.ui_scale)


def _show_view(win, view_id: str, size: tuple[int, int], scale: float, present: bool = False):  # type: ignore[no-untyped-def]
    """Show ``view_id`` in ``win`` at ``size`` and UI ``scale`` (presenting or not), laid
    out and painted; returns its view widget."""
    from PySide6 import QtWidgets
    from qt_events import settle_window  # (Qt: imported when a view is shown)

    from gui.theme import current_theme

    display = win.lecture.display
    if present:
        if not display.presenting:
            display.present_scale = scale  # entering applies it: one re-style, not two
        display.enter_presentation(fullscreen=False)
    else:
        display.leave_presentation()
    if display.active_scale != scale or current_theme() != display.theme_at(scale):
        display.set_scale(scale)  # re-styles every view: only when the scale changes
    win.resize(*size)
    win.set_view(view_id)
    settle_window(win)
    widget = win.views[view_id]
    widget.canvas.ci.layout.activate()
    QtWidgets.QApplication.processEvents()
    return widget


@pytest.fixture(scope="session")
def show_view():
    """``show_view(win, view_id, size, scale, present=False)``: show a view in a shared
    window at a window size and UI scale, settled (see :func:`_show_view`)."""
    return _show_view


@pytest.fixture(scope="session")
def open_window():
    """``open_window(width, height)``: a context manager for a module's shared window
    (one window per test module keeps the suite fast)."""
    return _open_window


@pytest.fixture(scope="module")
def lecture_stage(open_window):  # type: ignore[no-untyped-def]
    """One window presenting at 200 % on a 1920 × 1080 stage, the lecture deck open
    (a module's: the tests of how its scenes fit the stage)."""
    from core.resources import resource_path
    from core.scenes import load_deck

    with open_window(1600, 1000) as window:
        display = window.lecture.display
        display.present_scale = 2.0
        display.enter_presentation(fullscreen=False)
        window.resize(1920, 1080)
        path = resource_path("decks") / "lecture-positional-encoding.json"
        window.lecture.deck.set_deck(load_deck(path), path)
        yield window


@pytest.fixture(scope="module")
def studio(qapp, open_window):  # type: ignore[no-untyped-def]
    """A 1600 x 1000 main window shared by the tests of a module (a module that needs
    another size defines its own ``studio``)."""
    with open_window(1600, 1000) as win:
        yield win


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test asking for ``case`` in a module with a ``CASES`` dict runs once per key,
    module-scoped: every test of one case runs before the next (one mode and UI-scale
    switch per case of the module's shared window). A module's ``GATE_CASES`` names the
    cases the gating suite runs; the others run with ``--full`` (tests/tiers.py)."""
    cases = getattr(metafunc.module, "CASES", None)
    if "case" in metafunc.fixturenames and isinstance(cases, dict):
        gate = getattr(metafunc.module, "GATE_CASES", cases)  # the rest: --full only
        metafunc.parametrize("case", gate_cover(cases, keep=gate), scope="module")


@pytest.fixture(scope="session", autouse=True)
def _unsaved_deck_never_asks():  # type: ignore[no-untyped-def]
    """No modal Save / Discard / Cancel box in the tests: a window closed (or a deck
    opened or closed) with unsaved deck changes discards them. A test of the question
    replaces ``gui.lecture.deck.ask_unsaved`` with its own answers."""
    try:
        import gui.lecture.deck as deck_module
    except ImportError:  # (core's tests run without Qt: test_core_isolation)
        yield
        return
    asked = deck_module.ask_unsaved
    deck_module.ask_unsaved = lambda parent, text: "discard"
    yield
    deck_module.ask_unsaved = asked


@pytest.fixture(autouse=True)
def _restore_theme():
    """Give every test the theme it started with (a test that changes the theme, the UI
    scale or a colormap must not change what later tests in the same worker draw)."""
    import sys

    theme = sys.modules.get("gui.theme")
    saved = theme.current_theme() if theme is not None else None
    yield
    theme = sys.modules.get("gui.theme")
    if theme is not None:
        theme._current = saved if saved is not None else theme.LIGHT


def _release_held_buttons() -> list[str]:
    """The mouse buttons Qt believes are held (``QGuiApplication.mouseButtons()``), each
    released through a scratch window of its own (no app widget gets the release);
    their names, ``[]`` when none was held."""
    import sys

    if "PySide6.QtGui" not in sys.modules:
        return []
    from PySide6 import QtCore, QtGui
    from PySide6.QtTest import QTest

    if QtGui.QGuiApplication.instance() is None:
        return []
    held = QtGui.QGuiApplication.mouseButtons()
    if held == QtCore.Qt.MouseButton.NoButton:
        return []
    buttons = [b for b in QtCore.Qt.MouseButton if b.value and held & b]
    scratch = QtGui.QWindow()
    scratch.resize(8, 8)
    try:
        for button in buttons:
            QTest.mouseRelease(
                scratch, button, QtCore.Qt.KeyboardModifier.NoModifier, QtCore.QPoint(2, 2)
            )
    finally:
        scratch.destroy()
    return [b.name for b in buttons]


@pytest.fixture(autouse=True)
def _no_mouse_button_left_held():
    """Fail the test that leaves Qt believing a mouse button is still pressed, and
    release it: every later mouse move in the worker would carry the button (a drag, not
    a hover), and tests of hover readouts or of the parameter strip appearing at the
    stage's edge failed only when they ran after it (``QTest.mouseDClick`` on a widget
    did it; ``qt_events.double_click`` does not)."""
    yield
    held = _release_held_buttons()
    assert not held, (
        f"the test left the mouse button(s) {', '.join(held)} held (Qt's "
        "QGuiApplication.mouseButtons()); released now. Deliver clicks as the window "
        "system does (tests/qt_events.py, e.g. double_click) or release what you press"
    )


# Fixtures of one shared window: a window reused across modules keeps the pause it was
# built with, so a test drawing in one leaves the real 150 ms pause in place.
SHARED_WINDOWS = {"window", "win", "studio", "shared_window", "stage_window", "fresh_window"}


@pytest.fixture
def drags_end_when_the_test_says(request):  # type: ignore[no-untyped-def]
    """For a module's tests (``pytestmark = pytest.mark.usefixtures(...)``): views the
    test builds end a drag when the test ends it (``finish_live_frame(s)``), not on the
    150 ms full-quality timer (:func:`live_frames.held_drags`)."""
    if SHARED_WINDOWS & set(request.fixturenames):
        yield
        return
    with held_drags():
        yield
