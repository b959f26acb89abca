"""Blank screen: the stage goes black (or white) until the next key or click.

Presentation clickers have a "blank screen" button that sends ``B`` or ``.`` (period);
PowerPoint and most slide tools answer with a black screen, ``W`` or ``,`` with a white
one. :class:`BlankScreen` does the same, in presentation mode and windowed: it covers the
whole main window (the audience's screen) with a plain black or white sheet; any key or
click on that window brings the stage back (the key itself does nothing else, so a
clicker's "next" only un-blanks). The keys are window shortcuts, which a focused text
field keeps for typing (Qt gives printable keys to the field first). The presenter
window stays as it is, its preview still showing the stage.
"""

from __future__ import annotations

import contextlib

from PySide6 import QtCore, QtGui, QtWidgets

from gui.lecture.overlay import AddAction
from gui.window.protocol import StudioWindow

COLORS = {"black": "#000000", "white": "#ffffff"}
Key = QtCore.Qt.Key
_MODIFIER_KEYS = {Key.Key_Shift, Key.Key_Control, Key.Key_Alt, Key.Key_Meta, Key.Key_AltGr}

_ENDING = {
    QtCore.QEvent.Type.KeyPress,
    QtCore.QEvent.Type.MouseButtonPress,
    QtCore.QEvent.Type.MouseButtonDblClick,
}
_SWALLOWED = _ENDING | {
    QtCore.QEvent.Type.ShortcutOverride,
    QtCore.QEvent.Type.KeyRelease,
    QtCore.QEvent.Type.MouseButtonRelease,
    QtCore.QEvent.Type.Wheel,
}


class BlankScreen(QtWidgets.QWidget):
    """A black or white sheet over the main window while the stage is blanked.

    Attributes
    ----------
    color
        ``"black"`` or ``"white"`` while blank, ``""`` otherwise.
    """

    changed = QtCore.Signal(str)

    def __init__(self, window: StudioWindow) -> None:
        super().__init__(window.qt)
        self.studio = window  # not ``window``: QWidget.window() must stay a method
        self.setObjectName("blank-screen")
        self.setAttribute(QtCore.Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.StrongFocus)
        self.color = ""
        self._restore_focus: QtWidgets.QWidget | None = None
        self.hide()
        window.qt.installEventFilter(self)

    # ------------------------------------------------------------------ actions
    def add_actions(self, menu: QtWidgets.QMenu, add: AddAction) -> None:
        """``B`` / ``.``: black; ``W`` / ``,``: white (again, or any key: back)."""
        add(
            menu,
            "Blank the stage (black; any key: back)",
            ["B", "."],
            lambda: self.toggle("black"),
            "action-blank-black",
        )
        add(
            menu,
            "Blank the stage (white; any key: back)",
            ["W", ","],
            lambda: self.toggle("white"),
            "action-blank-white",
        )

    # ------------------------------------------------------------------ state
    @property
    def blank(self) -> bool:
        """Whether the stage is blanked now."""
        return bool(self.color)

    def toggle(self, color: str = "black") -> None:
        """Blank the stage in ``color``, or bring it back when it is blank."""
        if self.color:
            self.unblank()
        else:
            self.set_blank(color)

    def set_blank(self, color: str) -> None:
        """Cover the stage with ``color`` (``"black"`` or ``"white"``)."""
        if color not in COLORS:
            raise ValueError(f"blank colour must be one of {', '.join(COLORS)}, got {color!r}")
        if self.color == color:
            return
        if not self.color:
            focus = QtWidgets.QApplication.focusWidget()
            self._restore_focus = (
                focus if focus is not None and focus.window() is self.window() else None
            )
        self.color = color
        self.setGeometry(self.studio.qt.rect())
        self.show()
        self.raise_()
        app = QtWidgets.QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)
            app.installEventFilter(self)  # after the lecture's key filter: seen first
        self.setFocus(QtCore.Qt.FocusReason.OtherFocusReason)
        self.update()
        self.changed.emit(color)

    def unblank(self) -> bool:
        """Show the stage again (``False`` when it was not blank)."""
        if not self.color:
            return False
        self.color = ""
        app = QtWidgets.QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)
        self.hide()
        if self._restore_focus is not None:
            with contextlib.suppress(RuntimeError):  # deleted meanwhile
                self._restore_focus.setFocus(QtCore.Qt.FocusReason.OtherFocusReason)
        self._restore_focus = None
        self.changed.emit("")
        return True

    # ------------------------------------------------------------------ Qt
    def paintEvent(self, event: QtGui.QPaintEvent) -> None:
        painter = QtGui.QPainter(self)
        painter.fillRect(self.rect(), QtGui.QColor(COLORS.get(self.color, "#000000")))
        painter.end()

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        kind = event.type()
        if obj is self.studio.qt and kind == QtCore.QEvent.Type.Resize and self.color:
            self.setGeometry(self.studio.qt.rect())
            return False
        if not self.color or kind not in _SWALLOWED:
            return False
        if not isinstance(obj, QtWidgets.QWidget) or obj.window() is not self.window():
            return False  # the presenter window keeps its keys
        if kind == QtCore.QEvent.Type.ShortcutOverride:
            event.accept()  # no shortcut fires: the key press comes here and un-blanks
            return True
        if (
            kind == QtCore.QEvent.Type.KeyPress
            and isinstance(event, QtGui.QKeyEvent)
            and event.key() in _MODIFIER_KEYS
        ):
            return True  # Shift alone does not un-blank
        if kind in _ENDING:
            self.unblank()
        return True


def install_blank_screen(window: StudioWindow) -> BlankScreen:
    """Add the blank screen to ``window`` (a feature)."""
    return window.add_feature(BlankScreen(window))
