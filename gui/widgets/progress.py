"""The window-modal progress dialog with *Cancel* that every long export shows."""

from __future__ import annotations

from collections.abc import Callable

from PySide6 import QtCore, QtWidgets


class ExportCancelled(Exception):
    """Raised from an export's progress step once *Cancel* was pressed (:func:`show_step`)."""


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


def show_step(
    dialog: QtWidgets.QProgressDialog,
    done: int,
    maximum: int,
    announce: Callable[[], None] | None = None,
) -> None:
    """Show step ``done`` of ``maximum`` in ``dialog``, tell ``announce`` (the owner's
    signal of a step done), then let events run (the window repaints, *Cancel* can be
    pressed); raises :class:`ExportCancelled` once *Cancel* was pressed. The progress
    callback of the window's animation and deck exports."""
    dialog.setMaximum(maximum)
    dialog.setValue(done)
    if announce is not None:
        announce()
    QtWidgets.QApplication.processEvents()
    if dialog.wasCanceled():
        raise ExportCancelled
