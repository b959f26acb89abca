"""A plain text laid out once per change, placed and drawn as ``QGraphicsTextItem`` does.

An arrows panel's texts (the clock's "q (m=195)", "−44.6°", "q·k = +0.712", "q: 31
turns") change on every frame of a drag. Set into a ``QGraphicsTextItem``, each new text
rebuilt a text document (its blocks, formats, cursor and undo history) and laid it out
again: ~60 µs a text in a frame, ~8 texts a clock frame on the stage, and a device
cache redrawn for each. :class:`PlainTextItem` keeps one ``QTextLayout``: the same
lines, breaks and box as the document's, to the last bit (a 4 px margin round the text;
lines wrapped at word boundaries or anywhere within the width less the margins, and
centred when a width is set), drawn by the same ``QTextLayout.draw``.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

MARGIN = 4.0  # px round the text: QTextDocument's default documentMargin
_WRAP = QtGui.QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere  # (QTextDocument's)
_CENTRE = QtCore.Qt.AlignmentFlag.AlignHCenter


class PlainTextItem(QtWidgets.QGraphicsItem):
    """One plain text in one font and colour, on lines at most :meth:`textWidth` wide.

    The members pyqtgraph's ``TextItem`` calls on its text item (``setPlainText``,
    ``toPlainText``, ``setFont``, ``setTextWidth``, ``setDefaultTextColor``) are
    ``QGraphicsTextItem``'s, with the same results; rich text is not drawn (an arrows
    panel's texts are plain). A line break in the text (``\\n``) starts a new line.
    """

    def __init__(self, parent: QtWidgets.QGraphicsItem | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        self._font = QtGui.QFont()
        self._color = QtGui.QColor(QtCore.Qt.GlobalColor.black)
        self._width = -1.0
        self._layout = QtGui.QTextLayout()
        self._layout.setCacheEnabled(True)  # (its glyphs kept for the paints)
        #: the font and wrapping the layout was set up for
        self._laid_out_as: tuple[QtGui.QFont, bool] | None = None
        self._rect = QtCore.QRectF()
        self.layouts = 0  # times laid out (tests)
        self._lay_out()

    # ------------------------------------------------------------ QGraphicsTextItem's
    def setPlainText(self, text: str) -> None:
        """Show ``text`` (laid out now: the box changes with it)."""
        if text != self._text:
            self._text = text
            self._lay_out()

    def toPlainText(self) -> str:
        """The text shown."""
        return self._text

    def setFont(self, font: QtGui.QFont) -> None:
        """Draw the text in ``font``."""
        if font != self._font:
            self._font = QtGui.QFont(font)
            self._lay_out()

    def font(self) -> QtGui.QFont:
        """The text's font (a copy)."""
        return QtGui.QFont(self._font)

    def setDefaultTextColor(self, color: QtGui.QColor) -> None:
        """Draw the text in ``color``."""
        if QtGui.QColor(color) != self._color:
            self._color = QtGui.QColor(color)
            self.update()

    def defaultTextColor(self) -> QtGui.QColor:
        """The text's colour."""
        return QtGui.QColor(self._color)

    def setTextWidth(self, width: float) -> None:
        """Wrap the text onto centred lines within ``width`` px (margins included);
        a negative width: one line, whatever its length."""
        width = float(width)
        if width != self._width:
            self._width = width
            self._lay_out()

    def textWidth(self) -> float:
        """The width the text wraps within (-1: none)."""
        return self._width

    # ------------------------------------------------------------------ the item's
    def boundingRect(self) -> QtCore.QRectF:
        return self._rect  # (kept: Qt gets a copy)

    def paint(
        self,
        painter: QtGui.QPainter,
        option: QtWidgets.QStyleOptionGraphicsItem,
        widget: QtWidgets.QWidget | None = None,
    ) -> None:
        painter.setPen(self._color)
        self._layout.draw(painter, QtCore.QPointF(MARGIN, MARGIN))

    # ------------------------------------------------------------------ our own
    def natural_width(self) -> float:
        """The box's width with the text on one line (margins included): the
        document's ``idealWidth`` where the text is not wrapped."""
        if self._width < 0:
            return self._rect.width()
        _height, widest = _break_lines(QtGui.QTextLayout(self._layout.text(), self._font), None)
        return widest + 2 * MARGIN

    def lines(self) -> list[str]:
        """The text of each line as laid out (a wrapped text: several)."""
        layout, text = self._layout, self._layout.text()
        return [
            text[line.textStart() : line.textStart() + line.textLength()]
            for line in (layout.lineAt(k) for k in range(layout.lineCount()))
        ]

    def _lay_out(self) -> None:
        """Break the text into lines and work out its box (QTextDocument's layout of
        one block of plain text: lines stacked from the top, each its own height). The
        item's one layout is laid out again (a new one each time cost a third more)."""
        self.prepareGeometryChange()
        text = self._text.replace("\n", "\u2028")  # (a line separator: a new line)
        layout = self._layout
        wrap = self._width > 0
        if self._laid_out_as != (self._font, wrap):
            self._laid_out_as = (QtGui.QFont(self._font), wrap)
            layout.setFont(self._font)
            option = QtGui.QTextOption()
            option.setWrapMode(_WRAP)
            if wrap:
                option.setAlignment(_CENTRE)
            layout.setTextOption(option)
        layout.setText(text)
        height, widest = _break_lines(layout, self._width - 2 * MARGIN if wrap else None)
        # (wrapped: as wide as asked, or as its widest line where one glyph is wider)
        width = max(self._width, widest + 2 * MARGIN) if wrap else widest + 2 * MARGIN
        self._rect = QtCore.QRectF(0.0, 0.0, width, height + 2 * MARGIN)
        self.layouts += 1


def _break_lines(layout: QtGui.QTextLayout, room: float | None) -> tuple[float, float]:
    """Lay ``layout``'s text out on lines stacked from the top, at most ``room`` px wide
    (a line with one glyph wider: as wide as it), or, where ``room`` is ``None``,
    broken only at line separators; ``(height, widest line's width)``."""
    text_length = len(layout.text())
    layout.beginLayout()
    y = widest = 0.0
    while (line := layout.createLine()).isValid():
        if room is not None:
            line.setLineWidth(room)
            if line.naturalTextWidth() > room:  # (one glyph wider: a line as wide)
                line.setLineWidth(line.naturalTextWidth())
        else:
            line.setNumColumns(text_length + 1)
        line.setPosition(QtCore.QPointF(0.0, y))
        y += line.height()
        widest = max(widest, line.naturalTextWidth())
    layout.endLayout()
    return y, widest
