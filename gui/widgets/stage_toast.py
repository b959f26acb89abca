"""A short message shown on the stage while the status bar is hidden.

On stage (presentation mode) the window's status bar is hidden, and what the window
says there went unseen: Page Down at a deck's last scene ("This is the last scene
(20/20)") or the laser, pen and spotlight hints gave the lecturer no feedback.
:class:`StageToast` shows such a line at the bottom of the stage for
:data:`TOAST_MS`, then hides.

It is a child of the window, not of the stage: a picture of the stage (the presenter's
preview) leaves it out, the pen draws beneath it and the mouse goes through it. It
shows above the stage and below a sheet that covers the stage (a blanked screen, help).
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from gui.theme import current_theme

TOAST_MS = 2500  # how long a message shows on stage
BACKGROUND = "#181a1e"  # opaque: white text on it reads over any plot (15.6:1)
MARGIN_PX = 16  # from the stage's bottom edge (or what lies along it) at 100 %


class StageToast(QtWidgets.QLabel):
    """One line (wrapped when long) over the bottom of the stage, for a moment.

    Parameters
    ----------
    host
        The window it is shown in (its parent).
    stage
        The widget it lies over, a descendant of ``host``.
    """

    def __init__(self, host: QtWidgets.QWidget, stage: QtWidgets.QWidget) -> None:
        super().__init__(host)
        self.stage = stage
        self.setObjectName("stage-toast")
        self.setAttribute(QtCore.Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)
        self.setAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
        self.timer = QtCore.QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(TOAST_MS)
        self.timer.timeout.connect(self.hide)
        self.hide()

    def say(self, message: str) -> None:
        """Show ``message`` for :data:`TOAST_MS` (an empty one hides the toast)."""
        if not message:
            self.timer.stop()
            self.hide()
            return
        theme = current_theme()
        self.setStyleSheet(
            f"font-size: {theme.font_pt(13)}pt; color: #ffffff; "
            f"background: {BACKGROUND}; "
            f"padding: {theme.scaled(6)}px {theme.scaled(12)}px; "
            f"border-radius: {theme.scaled(6)}px;"
        )
        self.setText(message)
        self.place()
        self.show()
        self._stack()
        self.timer.start()

    def withdraw(self, message: str) -> None:
        """Hide the toast if it shows ``message`` (it is no longer so); another stays."""
        if self.isVisible() and self.text() == message:
            self.timer.stop()
            self.hide()

    def _stack(self) -> None:
        """Above the stage, below a sheet that covers it (a blanked screen, help): the
        window's layout may raise the stage over widgets made after it."""
        host = self.parentWidget()
        if host is None:
            return
        self.raise_()
        stage_line: QtWidgets.QWidget | None = self.stage  # (the host's child holding it)
        while stage_line is not None and stage_line.parentWidget() is not host:
            stage_line = stage_line.parentWidget()
        box = self.geometry()
        for sibling in host.children():  # (bottom to top)
            if (
                isinstance(sibling, QtWidgets.QWidget)
                and sibling not in (self, stage_line)
                and not sibling.isHidden()
                and not sibling.isWindow()
                and sibling.geometry().contains(box)
            ):
                self.stackUnder(sibling)
                return

    def place(self) -> None:
        """Centred at the bottom of the stage, above what lies along its bottom edge
        (the parameter strip)."""
        stage, host = self.stage, self.parentWidget()
        if host is None:
            return
        margin = current_theme().scaled(MARGIN_PX)
        room = max(stage.width() - 2 * margin, 1)
        self.setWordWrap(False)  # (a wrapping label's hint wraps a short line too)
        self.ensurePolished()
        width, height = self.sizeHint().width(), self.sizeHint().height()
        if width > room:  # too long for one line: wrapped to the stage's width
            self.setWordWrap(True)
            width, height = room, max(self.heightForWidth(room), height)
        bottom = stage.height() - self._bottom_band() - margin
        top_left = stage.mapTo(host, QtCore.QPoint(0, 0))
        x = top_left.x() + (stage.width() - width) // 2
        y = top_left.y() + max(bottom - height, 0)
        self.setGeometry(x, y, width, height)

    def _bottom_band(self) -> int:
        """How high the stage's shown children that lie along its bottom edge reach
        (not its pages, nor a layer over all of it)."""
        stage = self.stage
        pages = (
            {stage.widget(i) for i in range(stage.count())}
            if isinstance(stage, QtWidgets.QStackedWidget)
            else set()
        )
        band = 0
        for child in stage.children():
            if not isinstance(child, QtWidgets.QWidget) or child in pages:
                continue
            box = child.geometry()
            if child.isHidden() or box.height() >= stage.height():
                continue
            if box.bottom() >= stage.height() - 1:
                band = max(band, stage.height() - box.top())
        return band
