"""Help → About: the app's version, the versions of Qt and the libraries, the compute device.

The facts come from :func:`core.version.versions` (installed metadata; torch is never
imported for this) plus what only Qt knows (the Qt runtime version, the platform plugin)
and the window's active backend. A "Copy" button puts them on the clipboard as plain
text, for bug reports.
"""

from __future__ import annotations

from typing import Any

from PySide6 import QtCore, QtGui, QtWidgets

from core.version import PRETTY_NAME, __version__, versions


def about_rows(backend: Any = None) -> list[tuple[str, str]]:
    """The About dialog's rows as ``(name, value)`` pairs.

    Parameters
    ----------
    backend
        The window's :class:`core.backend.Backend` (``None``: numpy on the CPU).

    Returns
    -------
    list[tuple[str, str]]
        Version, Python, Qt (runtime), PySide6, pyqtgraph, numpy, superqt, torch,
        the compute backend and device, the Qt platform plugin and the OS.
    """
    info = versions()
    rows = [("Version", info.pop("pe-studio")), ("Python", info.pop("Python"))]
    rows.append(("Qt", QtCore.qVersion()))
    system = info.pop("platform")
    rows += list(info.items())
    rows.append(("Compute", compute_text(backend)))
    platform_name = QtGui.QGuiApplication.platformName() or "none"
    rows.append(("Qt platform", platform_name))
    rows.append(("System", system))
    return rows


def compute_text(backend: Any) -> str:
    """``"numpy on CPU"``, ``"torch on CUDA"``…, plus the backend's note if it has one."""
    if backend is None:
        return "numpy on CPU"
    text = f"{backend.name} on {backend.device.upper()}"
    note = getattr(backend, "note", "")
    return f"{text} ({note})" if note and note != backend.name else text


def rows_as_text(rows: list[tuple[str, str]]) -> str:
    """Plain text of the rows, one ``name: value`` per line (what "Copy" copies)."""
    return "\n".join([PRETTY_NAME] + [f"{name}: {value}" for name, value in rows])


class AboutDialog(QtWidgets.QDialog):
    """The About dialog: a heading, a table of versions, Copy and Close buttons."""

    def __init__(self, backend: Any = None, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("about-dialog")
        self.setWindowTitle(f"About {PRETTY_NAME}")
        self.rows = about_rows(backend)
        heading = QtWidgets.QLabel(
            f"<h2>{PRETTY_NAME} {__version__}</h2>"
            "<p>Shows, live in a lecture, how transformers learn word order.</p>",
            self,
        )
        heading.setObjectName("about-heading")
        form = QtWidgets.QFormLayout()
        for name, value in self.rows:
            label = QtWidgets.QLabel(value, self)
            label.setObjectName(f"about-{name.lower().replace(' ', '-')}")
            label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setWordWrap(True)
            form.addRow(f"{name}:", label)
        buttons = QtWidgets.QDialogButtonBox(QtWidgets.QDialogButtonBox.StandardButton.Close, self)
        copy = buttons.addButton("&Copy", QtWidgets.QDialogButtonBox.ButtonRole.ActionRole)
        copy.setObjectName("about-copy")
        copy.clicked.connect(self.copy_to_clipboard)
        buttons.rejected.connect(self.reject)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def text(self) -> str:
        """The dialog's facts as plain text."""
        return rows_as_text(self.rows)

    def copy_to_clipboard(self) -> None:
        """Put :meth:`text` on the clipboard."""
        QtGui.QGuiApplication.clipboard().setText(self.text())


def install_about_action(window: Any) -> QtGui.QAction:
    """Add Help → About to ``window`` (on macOS Qt moves it to the application menu).

    Parameters
    ----------
    window
        The main window; it needs ``help_menu``, ``add_action`` and ``backend``.

    Returns
    -------
    QtGui.QAction
        The action (object name ``action-about``); triggering it opens a non-blocking
        :class:`AboutDialog`, kept as ``window.about_dialog`` until it is closed.
    """

    def show_about() -> None:
        dialog = AboutDialog(getattr(window, "backend", None), window)
        dialog.setAttribute(QtCore.Qt.WidgetAttribute.WA_DeleteOnClose)
        window.about_dialog = dialog
        dialog.finished.connect(lambda _=0: setattr(window, "about_dialog", None))
        dialog.open()

    action: QtGui.QAction = window.add_action(
        window.help_menu, f"&About {PRETTY_NAME}", "", show_about, "action-about"
    )
    action.setMenuRole(QtGui.QAction.MenuRole.AboutRole)
    return action
