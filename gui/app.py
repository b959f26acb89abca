"""Application start-up: QApplication, main window, self-test mode."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

from PySide6 import QtCore, QtGui, QtWidgets

from core.resources import resource_path

APP_NAME = "Positional Encoding Studio"
ORG_NAME = "PE Studio"


def ensure_app(headless: bool = False) -> QtWidgets.QApplication:
    """Return the QApplication, creating it (offscreen when ``headless``) if needed."""
    app = QtWidgets.QApplication.instance()
    if app is None:
        if headless:
            os.environ["QT_QPA_PLATFORM"] = "offscreen"
        app = QtWidgets.QApplication(sys.argv[:1])
        app.setApplicationName(APP_NAME)
        app.setOrganizationName(ORG_NAME)
        app.setDesktopFileName("pe-studio")  # matches resources/pe-studio.desktop
        icon = resource_path("icons", "pe-studio.png")
        if icon.exists():
            app.setWindowIcon(QtGui.QIcon(str(icon)))
    return app


def run_gui(t0: float | None = None) -> int:
    """Open the main window and run the event loop.

    With ``PE_STUDIO_SELFTEST=1`` the window quits (exit code 0) right after its first
    frame is drawn and prints ``first-frame-ms: <ms since start>``.
    """
    t0 = time.perf_counter() if t0 is None else t0
    app = ensure_app()
    from gui.main_window import MainWindow

    window = MainWindow()
    return exec_window(app, window, t0, window.show)


def exec_window(app: QtWidgets.QApplication, window: QtWidgets.QMainWindow, t0: float,
                show: Callable[[], None]) -> int:
    """Show ``window`` and run the event loop; honours the self-test mode.

    With ``PE_STUDIO_SELFTEST=1`` the window quits (exit code 0) right after its first
    frame and prints ``first-frame-ms: <ms since t0>``; after 30 s it gives up (exit 3)
    so a CI job never hangs.
    """
    if os.environ.get("PE_STUDIO_SELFTEST") == "1":
        def done() -> None:
            print(f"first-frame-ms: {(time.perf_counter() - t0) * 1000:.0f}", flush=True)
            QtCore.QTimer.singleShot(0, window.close)
            QtCore.QTimer.singleShot(0, app.quit)

        window.first_frame.connect(done)
        QtCore.QTimer.singleShot(30_000, lambda: app.exit(3))
    show()
    code = app.exec()
    window.engine.stop()
    return code
