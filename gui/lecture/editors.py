"""The widget classes that keep their own keys (arrows, Space, Home/End) when focused."""

from __future__ import annotations

from PySide6 import QtWidgets

EDITOR_WIDGETS: tuple[type[QtWidgets.QWidget], ...] = (
    QtWidgets.QAbstractSpinBox,
    QtWidgets.QLineEdit,
    QtWidgets.QAbstractSlider,
    QtWidgets.QComboBox,
    QtWidgets.QTextEdit,
    QtWidgets.QPlainTextEdit,
)
