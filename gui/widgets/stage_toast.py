"""A short message shown on the stage while the status bar is hidden.

On stage (presentation mode) the window's status bar is hidden, and what the window
says there went unseen: Page Down at a deck's last scene ("This is the last scene
(20/20)") or the laser, pen and spotlight hints gave the lecturer no feedback.
:class:`StageToast` shows such a line for :data:`TOAST_MS`, then hides: at the top
right of the stage, in the free room right of a line of a view's heading where it fits
there (its text shrunk a little where that makes it fit), else over the end of the
heading's last line (the view's name and the scene's number), shrunk as far: never over
the formula line or the plots below the heading (below it, "UI scale: 300 %" covered
the formula line at 1280 x 720 / 300 %). It lay over the bottom
of the stage, on the notes line (the lecture's last scene: "This is the last scene
(20/20)" over the sentence the audience was reading) and on the lower plots' axis
titles ("dimension" of a focused heatmap).

While it shows it follows the heading: a heading that changes under it (the next
scene's title, or the one a new UI scale re-styles: "UI scale: 150 %" lay over the end
of scene 13's "Llama 3.1: base 500 000 and frequency bands", placed beside the heading
the scene before had) moves it again within :data:`FOLLOW_MS`, once the new heading
shows (not while a picture of the stage holds the previous scene up).

It is a child of the window, not of the stage: a picture of the stage (the presenter's
preview) leaves it out, the pen draws beneath it and the mouse goes through it. It
shows above the stage and below a sheet that covers the stage (a blanked screen, help).
"""

from __future__ import annotations

import math

from PySide6 import QtCore, QtGui, QtWidgets

from gui.theme import current_theme

TOAST_MS = 2500  # how long a message shows on stage
BACKGROUND = "#181a1e"  # opaque: white text on it reads over any plot (15.6:1)
TOAST_PT = 13  # its text's size at 100 %
FLOOR = 0.6  # of its size its text shrinks to at most to fit beside the heading
PAD_V, PAD_H = 6, 12  # px round its text at 100 %
MARGIN_PX = 16  # from the stage's edges at 100 %
GAP_PX = 24  # at least this far right of a heading's text at 100 %
BELOW_PX = 4  # below the heading (where no line of it has room) at 100 %
HEADING = "view-title"  # the object name of a view's heading label
FOLLOW_MS = 100  # while shown, how often it checks whether the heading changed under it
COVER = "stage-cover"  # the object name of the picture over a stage held for a new scene


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
        self.follow = QtCore.QTimer(self)  # (re-places it when the heading changed)
        self.follow.setInterval(FOLLOW_MS)
        self.follow.timeout.connect(self._follow)
        self._placed_for: tuple[object, ...] | None = None
        self.hide()

    def say(self, message: str) -> None:
        """Show ``message`` for :data:`TOAST_MS` (an empty one hides the toast)."""
        if not message:
            self.timer.stop()
            self.hide()
            return
        self.setText(message)
        self.place()
        self.show()
        self._stack()
        self.timer.start()

    def showEvent(self, event: QtGui.QShowEvent) -> None:
        super().showEvent(event)
        self.follow.start()

    def hideEvent(self, event: QtGui.QHideEvent) -> None:
        self.follow.stop()
        super().hideEvent(event)

    def _follow(self) -> None:
        """Place it again where the heading it keeps off (or the stage) changed since
        it was placed: its text, font, box, or another heading."""
        if self.isHidden():
            self.follow.stop()
        elif self._layout_key() != self._placed_for and not self._stage_held():
            self.place()

    def _stage_held(self) -> bool:
        """Whether a picture of the stage covers it (a scene staged, its data not yet
        drawn): the audience sees the heading of the picture, not the one changed
        beneath it, until the new scene shows whole."""
        cover = self.stage.findChild(
            QtWidgets.QWidget, COVER, QtCore.Qt.FindChildOption.FindDirectChildrenOnly
        )
        return cover is not None and not cover.isHidden()

    def _layout_key(self) -> tuple[object, ...]:
        """What its place depends on: the stage's size and the topmost heading in
        sight, its text, font and box."""
        found = self._heading_label()
        size = (self.stage.width(), self.stage.height())
        if found is None:
            return (size,)
        label, box = found
        font = label.font()
        return (size, id(label), label.text(), font.pointSizeF(), font.weight(), box.getRect())

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

    def _style(self, pt: int, pad_v: int) -> None:
        """Its look: ``pt`` point white text on the dark patch, ``pad_v`` px above and
        below it (set only when it changed: a new style sheet re-polishes it)."""
        theme = current_theme()
        style = (
            f"font-size: {pt}pt; color: #ffffff; "
            f"background: {BACKGROUND}; "
            f"padding: {pad_v}px {theme.scaled(PAD_H)}px; "
            f"border-radius: {theme.scaled(6)}px;"
        )
        if style != self.styleSheet():
            self.setStyleSheet(style)
        self.ensurePolished()

    def place(self) -> None:
        """At the top right of the stage, off a view's heading's words where it can be:
        right of a line of the topmost heading where the message fits whole on one line
        there (the free room the heading's text leaves), its text shrunk to
        :data:`FLOOR` of its size at most to fit the widest such room, else over the end of the heading's last line
        at that size (:meth:`_fit_over_end`), within the heading: never over the formula
        line or the plots. Only where it does not fit even the heading's box, just below
        the heading, at its right, wrapped to half the stage's width when longer;
        without a heading in sight at the stage's top right. Never over the notes line
        at the stage's bottom.

        At 200 % on the 1920 x 1080 stage the lecture's "Why positions? “dog bites man”
        Word order · 1/20" left 440 px right of it; "Sweep stopped (Space plays it
        again)" (708 px) lay over "rder · 1/20"."""
        stage, host = self.stage, self.parentWidget()
        if host is None:
            return
        theme = current_theme()
        full, pad_v = theme.font_pt(TOAST_PT), theme.scaled(PAD_V)
        self._style(full, pad_v)
        self.setWordWrap(False)  # (a wrapping label's hint wraps a short line too)
        width, height = self.sizeHint().width(), self.sizeHint().height()
        heading = self._heading()
        rooms = self._heading_rooms()
        right, top = stage.width() - theme.scaled(MARGIN_PX), theme.scaled(MARGIN_PX)
        fitted = self._fit_beside(rooms, full, pad_v) if rooms else None
        if fitted is None and heading is not None:
            fitted = self._fit_over_end(heading, full, pad_v)
        if fitted is not None:
            room, width, height = fitted
            right, top = room.right(), room.top() + (room.height() - height) // 2
        else:
            self._style(full, pad_v)
            self.setWordWrap(False)
            width, height = self.sizeHint().width(), self.sizeHint().height()
            if heading is not None:  # (no room beside it: below it)
                right = min(heading.right(), stage.width() - 1)
                top = heading.bottom() + 1 + theme.scaled(BELOW_PX)
            wrap = max(min(stage.width() // 2, stage.width() - 2 * theme.scaled(MARGIN_PX)), 1)
            if width > wrap:  # too long for one line there: wrapped
                self.setWordWrap(True)
                width, height = wrap, max(self.heightForWidth(wrap), height)
        origin = stage.mapTo(host, QtCore.QPoint(0, 0))
        self.setGeometry(origin.x() + right - width + 1, origin.y() + max(top, 0), width, height)
        self._placed_for = self._layout_key()

    def _fit_beside(
        self, rooms: list[QtCore.QRect], full: int, pad_v: int
    ) -> tuple[QtCore.QRect, int, int] | None:
        """The room (of ``rooms``, right of the heading's lines) the message goes in and
        its width and height there, styled for it: at its full size (``full`` pt) in
        the topmost room it fits on one line, else shrunk (to :data:`FLOOR` of it at
        most) to fit the widest room; its padding above and below cut to keep it
        within the line's height. ``None``: it fits in none."""
        width = self.sizeHint().width()
        fits = [room for room in rooms if width <= room.width()]
        room = fits[0] if fits else max(rooms, key=lambda r: r.width())
        pt = full
        floor = max(6, math.ceil(FLOOR * full))
        while width > room.width():
            pt -= 1
            if pt < floor:
                return None
            self._style(pt, pad_v)
            width = self.sizeHint().width()
        width, height = self._within_line(room, pt, pad_v)
        return room, width, height

    def _within_line(self, room: QtCore.QRect, pt: int, pad_v: int) -> tuple[int, int]:
        """Its width and height on one line at ``pt`` point, its padding above and below
        cut to keep it within ``room``'s height (a line's: off the lines round it)."""
        width, height = self.sizeHint().width(), self.sizeHint().height()
        if height > room.height():
            text = height - 2 * pad_v
            self._style(pt, max(0, (room.height() - text) // 2))
            height = min(self.sizeHint().height(), room.height())
            width = self.sizeHint().width()
        return width, height

    def _fit_over_end(
        self, heading: QtCore.QRect, full: int, pad_v: int
    ) -> tuple[QtCore.QRect, int, int] | None:
        """Where no line of the heading leaves it room: the room it goes in over the end
        of the heading's last line (the view's name and the scene's number, "Word order
        · 1/20"), and its width and height there, at :data:`FLOOR` of its size (the
        least of the heading it covers) and within the heading's box: never over the
        formula line or the plots below it. Wrapped within the heading's box where it is
        wider than the heading; ``None`` where it is taller than the heading then.

        At 1280 x 720 / 300 % the lecture's "Why positions? “dog bites man” Word order ·
        1/20" left 200 px right of its second line; "UI scale: 300 %" (476 px, 290 px
        at 60 %) went below the heading, over the formula line, for its 2.5 s."""
        lines = self._heading_lines()
        if not lines:
            return None
        theme = current_theme()
        pt = max(6, math.ceil(FLOOR * full))
        self._style(pt, pad_v)
        self.setWordWrap(False)
        right = min(heading.right(), self.stage.width() - 1)
        last = lines[-1]
        room = QtCore.QRect(heading.left(), last.top(), right - heading.left() + 1, last.height())
        if self.sizeHint().width() <= room.width():
            width, height = self._within_line(room, pt, pad_v)
            return room, width, height
        room = QtCore.QRect(heading.left(), heading.top(), room.width(), heading.height())
        self.setWordWrap(True)
        width = max(room.width() - theme.scaled(MARGIN_PX), 1)
        height = self.heightForWidth(width)
        return (room, width, height) if height <= room.height() else None

    def _heading(self) -> QtCore.QRect | None:
        """The box (stage coordinates) of the topmost view heading in sight (the
        rightmost of equally high ones); ``None`` when none is in sight."""
        found = self._heading_label()
        return None if found is None else found[1]

    def _heading_label(self) -> tuple[QtWidgets.QLabel, QtCore.QRect] | None:
        stage = self.stage
        best: tuple[tuple[int, int], QtWidgets.QLabel, QtCore.QRect] | None = None
        for label in stage.findChildren(QtWidgets.QLabel, HEADING):
            if not label.isVisible():
                continue
            box = QtCore.QRect(label.mapTo(stage, QtCore.QPoint(0, 0)), label.size())
            if box.top() < 0 or not stage.rect().contains(box.topLeft()):
                continue  # (scrolled away)
            key = (box.top(), -box.right())
            if best is None or key < best[0]:
                best = (key, label, box)
        return None if best is None else (best[1], best[2])

    def _heading_rooms(self) -> list[QtCore.QRect]:
        """The free room (stage coordinates) right of each line of the topmost view
        heading in sight, top line first: from the line's end (and a gap) to the
        heading's right edge, as high as the line. Empty when no heading is in sight."""
        found = self._heading_label()
        if found is None:
            return []
        box = found[1]
        gap = current_theme().scaled(GAP_PX)
        right = min(box.right(), self.stage.width() - 1)
        rooms = []
        for line in self._heading_lines():
            left = line.right() + 1 + gap
            if left < right:
                rooms.append(QtCore.QRect(left, line.top(), right - left + 1, line.height()))
        return rooms

    def _heading_lines(self) -> list[QtCore.QRect]:
        """The box (stage coordinates) of each line of the words of the topmost view
        heading in sight, top line first. Empty when no heading is in sight."""
        found = self._heading_label()
        if found is None:
            return []
        label, box = found
        inner = box.adjusted(label.margin(), label.margin(), -label.margin(), 0)
        inner.setLeft(inner.left() + label.contentsMargins().left())
        inner.setTop(inner.top() + label.contentsMargins().top())
        return [
            QtCore.QRect(inner.left(), inner.top() + round(y), max(1, math.ceil(x_end)), round(h))
            for x_end, y, h in _text_lines(label)
        ]


def _text_lines(label: QtWidgets.QLabel) -> list[tuple[float, float, float]]:
    """``(end x, top y, height)`` of each line of ``label``'s text as Qt lays it out
    (wrapped to its width when it wraps: a scene's title at 300 % takes two lines;
    rich text laid out as rich text), relative to its text's top left."""
    doc = QtGui.QTextDocument()
    doc.setDefaultFont(label.font())
    doc.setDocumentMargin(0)
    form, text = label.textFormat(), label.text()
    if form == QtCore.Qt.TextFormat.PlainText or (
        form == QtCore.Qt.TextFormat.AutoText and not QtGui.Qt.mightBeRichText(text)
    ):
        doc.setPlainText(text)
    else:
        doc.setHtml(text)
    if label.wordWrap():
        doc.setTextWidth(max(label.contentsRect().width() - 2 * label.margin(), 1))
    lines = []
    block = doc.begin()
    while block.isValid():
        top = doc.documentLayout().blockBoundingRect(block).top()
        layout = block.layout()
        for i in range(layout.lineCount()):
            line = layout.lineAt(i)
            lines.append((line.x() + line.naturalTextWidth(), top + line.y(), line.height()))
        block = block.next()
    return lines
