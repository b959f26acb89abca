"""The window-modal progress dialog with *Cancel* that every long export shows."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets


def modal_progress(
    parent: QtWidgets.QWidget,
    title: str,
    text: str,
    maximum: int,
    *,
    delay_ms: int = 0,
) -> QtWidgets.QProgressDialog:
    """A window-modal progress dialog over ``parent`` that stays open (and *Cancel*
    readable) until it is closed, not reset or closed at its maximum.

    Parameters
    ----------
    parent
        The window it is modal to.
    title, text
        Its window title and the line above the bar.
    maximum
        Steps to go; 0 shows a busy bar.
    delay_ms
        0 (default): shown at once; otherwise only once the work has taken this long.
    """
    dialog = QtWidgets.QProgressDialog(text, "Cancel", 0, maximum, parent)
    dialog.setWindowTitle(title)
    dialog.setWindowModality(QtCore.Qt.WindowModality.WindowModal)
    dialog.setAutoReset(False)
    dialog.setAutoClose(False)
    dialog.setMinimumDuration(delay_ms)
    if delay_ms == 0:
        dialog.setValue(0)
    return dialog
