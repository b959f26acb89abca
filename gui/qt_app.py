"""The QApplication leaf: creates the application object, imports nothing of the window.

Exporters, the command line and tests call :func:`ensure_app` without pulling in the
window or its features (the pattern of napari's ``get_qapp``).
"""

from __future__ import annotations

import os
import sys

from PySide6 import QtGui, QtWidgets

from core.resources import resource_path

APP_NAME = "Positional Encoding Studio"
ORG_NAME = "PE Studio"


def ensure_app(headless: bool = False) -> QtWidgets.QApplication:
    """Return the QApplication, creating it (offscreen when ``headless``) if needed.

    Parameters
    ----------
    headless
        Select Qt's offscreen platform when the application has to be created.

    Returns
    -------
    QtWidgets.QApplication
        The process's one application object.
    """
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
    assert isinstance(app, QtWidgets.QApplication)
    return app
