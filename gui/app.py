"""Composition root: builds the window, installs its features, runs the event loop.

Nothing below this module installs features into the window: the window layer knows
nothing of lecture or export code, and they reach it through
:class:`gui.window.protocol.StudioWindow`. The features are registered with the window
(``window.add_feature``); :class:`StudioMainWindow` gives them typed names.

The settings store is opened here, once, and shared by every feature. Presentations
(``main.py present``) and self-test runs (``PE_STUDIO_SELFTEST=1``) read the user's
settings but never write them.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any

from PySide6 import QtCore, QtWidgets

from core.memory import use_env_budget
from core.scenes import SceneError, load_deck
from gui import gui_gc
from gui.export.actions import ExportActions, install_export_actions
from gui.export.animation import FrameRenderer, Sweep, export_animation
from gui.export.deck import SceneWidgets, export_deck, export_deck_pdf, scene_image_steps
from gui.export.headless import export_view
from gui.lecture.controller import Lecture, install_lecture
from gui.lecture.settings import open_store
from gui.qt_app import ensure_app
from gui.widgets.menus import fit_menus
from gui.widgets.train_page import install_train_lab
from gui.window.about import install_about_action
from gui.window.main_window import MainWindow
from gui.window.store import ReadOnlyStore

__all__ = [
    "StudioMainWindow",
    "build_window",
    "dispose_window",
    "ensure_app",
    "exec_window",
    "release_windows",
    "run_gui",
    "run_present",
    "selftest",
]

SELFTEST_ENV = "PE_STUDIO_SELFTEST"


class StudioMainWindow(MainWindow):
    """The main window with typed access to the features :func:`build_window` installs."""

    @property
    def lecture(self) -> Lecture:
        """The lecture features (scenes, decks, presentation, animation, settings)."""
        return self.feature(Lecture)

    @property
    def export_actions(self) -> ExportActions:
        """The export commands."""
        return self.feature(ExportActions)


def selftest() -> bool:
    """Whether this run is a self-test (``PE_STUDIO_SELFTEST=1``)."""
    return os.environ.get(SELFTEST_ENV) == "1"


def write_deck(deck_path: Path, output: str, *, fmt: str, checkpoint: Callable[[], None]) -> object:
    """The window's deck export (:class:`gui.lecture.deck_export.DeckExport`'s writer):
    ``main.py export --deck``'s functions, with ``checkpoint`` after each slide."""
    if fmt == "pdf":
        return export_deck_pdf(deck_path, output, checkpoint=checkpoint)
    return export_deck(deck_path, output, fmt=fmt, checkpoint=checkpoint)


def build_window(*, persist: bool = True) -> StudioMainWindow:
    """Create the main window with every feature installed (export, lecture).

    Parameters
    ----------
    persist
        Whether the window may write the user's settings; ``False`` reads them but
        keeps every change in memory (presentations, self-tests).

    Returns
    -------
    StudioMainWindow
        The window, not yet shown; ``window.lecture`` is its lecture controller.
    """
    ensure_app()
    budget_problem = use_env_budget()  # a bad PE_STUDIO_MEMORY_BUDGET_MB: default + message
    store = open_store()
    window = StudioMainWindow(store if persist and not selftest() else ReadOnlyStore(store))
    install_export_actions(window)
    lecture = install_lecture(window)

    def square_cells(view_id: str) -> dict[str, bool]:
        """The lecturer's "Square cells" choices in ``view_id``'s plots (exports keep them)."""
        return dict(window.view_widget(view_id).square_cells) if view_id in window.states else {}

    def frame_writer(view_id: str, params: Mapping[str, Any], path: Any, **kw: Any) -> Path:
        return export_view(view_id, params, path, square_cells=square_cells(view_id), **kw)

    def animation_writer(view_id: str, *args: Any, **options: Any) -> Path:
        cells = square_cells(view_id)
        renderer = partial(FrameRenderer, square_cells=cells)
        return write_animation(view_id, *args, renderer=renderer, **options)

    lecture.sweep.frame_writer = frame_writer  # frames: the export path
    lecture.animation.writer = animation_writer
    lecture.deck_export.writer = write_deck  # (main.py export --deck's code path)
    # the next scene's picture, a view's off-screen widget drawn again for its next scene
    lecture.presenter.scene_renderer = partial(scene_image_steps, widgets=SceneWidgets())
    install_about_action(window)
    install_train_lab(window, lambda path: use_learned_table(window, path), lecture.display.applied)
    fit_menus(window)  # (every feature's menus are there now)
    if budget_problem:
        window.show_status(budget_problem, 20000)
    return window


def write_animation(
    view_id: str,
    params: Mapping[str, Any],
    param: str,
    start: float,
    end: float,
    ease: str,
    path: str | os.PathLike[str],
    **options: Any,
) -> Path:
    """The window's animation export (:class:`gui.lecture.animate_dialog.AnimationExport`)
    through :func:`gui.export.animation.export_animation`."""
    return export_animation(view_id, params, Sweep(param, start, end, ease), path, **options)


def use_learned_table(window: StudioMainWindow, path: str) -> None:
    """Show the learned view with the table at ``path`` (the training lab's button)."""
    window.set_view("learned")  # creates its state on first use
    window.states["learned"].set_param("table_file", path, merge=False)  # errors: in the view


def run_gui(t0: float | None = None) -> int:
    """Open the main window and run the event loop.

    With ``PE_STUDIO_SELFTEST=1`` the window quits (exit code 0) right after its first
    frame is drawn and prints ``first-frame-ms: <ms since start>``.
    """
    t0 = time.perf_counter() if t0 is None else t0
    app = ensure_app()
    window = build_window()
    code = exec_window(app, window, t0, window.show)
    del window  # the window's Python side is garbage now: release_windows frees it
    release_windows()
    return code


def exec_window(
    app: QtWidgets.QApplication, window: StudioMainWindow, t0: float, show: Callable[[], None]
) -> int:
    """Show ``window`` and run the event loop; honours the self-test mode.

    With ``PE_STUDIO_SELFTEST=1`` the window quits (exit code 0) right after its first
    frame and prints ``first-frame-ms: <ms since t0>``; after 30 s it gives up (exit 3)
    so a CI job never hangs. When the loop ends the window's settings are synced and the
    window is deleted, while the application is alive (its Python side stays to
    :func:`release_windows`, once the caller dropped its references).
    """
    if selftest():

        def done() -> None:
            print(f"first-frame-ms: {(time.perf_counter() - t0) * 1000:.0f}", flush=True)
            QtCore.QTimer.singleShot(0, window.close)
            QtCore.QTimer.singleShot(0, app.quit)

        window.first_frame.connect(done)
        QtCore.QTimer.singleShot(30_000, lambda: app.exit(3))
    show()
    code = app.exec()
    dispose_window(window)
    return code


def dispose_window(window: StudioMainWindow) -> None:
    """Stop ``window``'s engine, sync its settings and delete it now, while the
    application is alive.

    Whoever built the window (the app, a benchmark, a script) calls this when done with
    it, drops its references, then calls :func:`release_windows`: a window left to the
    interpreter's exit is deleted by PySide in no particular order (segfaults at exit).
    """
    if window.isVisible():
        window.close()
    window.engine.stop()
    window.settings.sync()
    window.deleteLater()
    QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)


def release_windows() -> None:
    """Free what Python still holds of the deleted windows while the application lives.

    The window's features, views and plot caches form reference cycles (cycles are
    collected on the GUI thread's timer, :mod:`gui.gui_gc`, and the window itself was
    frozen there), and they hold Python-owned graphics items: plots of rebuilt layouts,
    their axes and titles, context menus. Left to the interpreter's exit, PySide deleted
    all of these after the event loop in no particular order, a plot before its items
    or an item under a half-deleted plot, and pyqtgraph's Python virtuals ran on them
    (segfaults at exit in ~40 % of ``main.py present`` self-tests). Collected here, each
    goes while its parents and the application are intact, and PySide's exit finds
    nothing left to delete.
    """
    gui_gc.collect_all()


def run_present(deck_path: str, t0: float) -> int:
    """Open the app with ``deck_path`` loaded, first scene shown, in presentation mode.

    Parameters
    ----------
    deck_path
        A ``pe-studio-deck`` JSON file.
    t0
        ``time.perf_counter()`` at program start (for the self-test timing line).

    Returns
    -------
    int
        The event loop's exit code; 2 (after one line on stderr, no window) when the deck
        cannot be used. With ``PE_STUDIO_SELFTEST=1`` the window quits right after its
        first frame (exit 0) and prints ``first-frame-ms: <ms>``.
    """
    try:
        deck = load_deck(deck_path)
    except SceneError as exc:
        text = str(exc)  # file-level messages already name the file
        print(f"error: {text if deck_path in text else f'{deck_path}: {text}'}", file=sys.stderr)
        return 2
    app = ensure_app()
    window = build_window(persist=False)  # a deck's parameters never become the user's
    lecture = window.lecture
    lecture.restore()
    lecture.deck.set_deck(deck, Path(deck_path), start=True)  # (nothing before it to undo)
    lecture.display.enter_presentation(fullscreen=True)
    code = exec_window(app, window, t0, window.showFullScreen)
    del window, lecture  # see run_gui
    release_windows()
    return code
