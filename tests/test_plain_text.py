"""PlainTextItem lays out and draws a plain text as QGraphicsTextItem does (an arrows
panel's labels: the clock's "q (m=195)", "−44.6°", "q: 31 turns"), from one QTextLayout
instead of a text document rebuilt for each new text."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from gui.render.plain_text import PlainTextItem

TEXTS = [
    "q (m=512)",
    "+118.1°",
    "q·k = −0.472",
    "q at (m + s)·θ = 93400\u202frad (1.49·10⁴\u202fturns)",
    "k",
    "",
    "x  ",
    " lead",
    "two  spaces here and there, and a few more words to wrap",
]
WIDTHS = [-1.0, 40.0, 120.0, 300.5]


def _document_item(text: str, font: QtGui.QFont, width: float) -> QtWidgets.QGraphicsTextItem:
    """pyqtgraph's text item as LabelText set it up: centred lines where wrapped."""
    item = QtWidgets.QGraphicsTextItem()
    item.setFont(font)
    item.setPlainText(text)
    if width > 0:
        option = item.document().defaultTextOption()
        option.setAlignment(QtCore.Qt.AlignmentFlag.AlignHCenter)
        item.document().setDefaultTextOption(option)
        item.setTextWidth(width)
    return item


def _document_lines(item: QtWidgets.QGraphicsTextItem) -> list[tuple[str, float, float]]:
    block = item.document().firstBlock()
    layout = block.layout()
    return [
        (block.text()[line.textStart() : line.textStart() + line.textLength()], line.x(), line.y())
        for line in (layout.lineAt(k) for k in range(layout.lineCount()))
    ]


def _picture(item: QtWidgets.QGraphicsItem, color: QtGui.QColor) -> QtGui.QImage:
    rect = item.boundingRect()
    image = QtGui.QImage(
        int(rect.width()) + 2, int(rect.height()) + 2, QtGui.QImage.Format.Format_ARGB32
    )
    image.fill(QtGui.QColor("white"))
    painter = QtGui.QPainter(image)
    painter.translate(0.25, 0.5)  # (a fractional offset, as on screen)
    option = QtWidgets.QStyleOptionGraphicsItem()
    option.exposedRect = rect
    item.paint(painter, option, None)
    painter.end()
    return image


@pytest.mark.parametrize("points, bold", [(11.0, True), (16.5, False), (24.0, True)])
def test_lines_box_and_pixels_are_the_text_documents(qapp, points, bold):
    font = QtGui.QFont("DejaVu Sans")
    font.setPointSizeF(points)
    font.setBold(bold)
    color = QtGui.QColor("#0072b2")
    wrapped = 0
    for text in TEXTS:
        for width in WIDTHS:
            theirs = _document_item(text, font, width)
            theirs.setDefaultTextColor(color)
            ours = PlainTextItem()
            ours.setFont(font)
            ours.setDefaultTextColor(color)
            ours.setPlainText(text)
            ours.setTextWidth(width)
            where = (text, width)
            assert ours.boundingRect() == theirs.boundingRect(), where
            lines = _document_lines(theirs)
            assert ours.lines() == [line for line, _x, _y in lines], where
            wrapped += len(lines) > 1
            assert ours.toPlainText() == text and ours.textWidth() == width
            if width < 0:
                assert ours.natural_width() == theirs.document().idealWidth(), where
            assert _picture(ours, color) == _picture(theirs, color), where
    assert wrapped >= 8  # (the widths do wrap texts: those lines compared too)


def test_changes_lay_it_out_once_and_keep_the_box_in_step(qapp):
    item = PlainTextItem()
    font = QtGui.QFont("DejaVu Sans", 12)
    item.setFont(font)
    item.setPlainText("q·k = +0.540")
    one_line = item.boundingRect()
    layouts = item.layouts
    item.setPlainText("q·k = +0.540")  # the same text: nothing to do
    item.setFont(QtGui.QFont(font))
    item.setTextWidth(-1)
    assert item.layouts == layouts
    item.setPlainText("q·k = −0.654")
    assert item.layouts == layouts + 1
    item.setTextWidth(80.0)
    assert len(item.lines()) >= 2 and item.boundingRect().height() > one_line.height()
    assert item.boundingRect().width() == 80.0
    assert item.natural_width() == pytest.approx(one_line.width(), abs=1.0)
    item.setTextWidth(-1.0)
    assert len(item.lines()) == 1 and item.boundingRect().height() == one_line.height()
    item.setPlainText("a\nb")  # a line break: two lines
    assert [line.strip("\u2028") for line in item.lines()] == ["a", "b"]
    item.setDefaultTextColor(QtGui.QColor("red"))
    assert item.defaultTextColor() == QtGui.QColor("red")


def test_a_label_holds_its_text_in_one_plain_text_item(qapp):
    """pg_compat.replace_text_item: the label's one child is the plain text item, with
    the text, font, colour and width pyqtgraph's QGraphicsTextItem had (then deleted);
    TextItem's own setters reach it."""
    import pyqtgraph as pg

    from gui.plotting.panel_extras import LabelText

    label = LabelText("q (m=2)", color="#d55e00", anchor=(0.5, 1.2))
    assert label.childItems() == [label.textItem]
    assert isinstance(label.textItem, PlainTextItem)
    assert label.textItem.toPlainText() == "q (m=2)"
    assert label.textItem.defaultTextColor() == pg.mkColor("#d55e00")
    font = QtGui.QFont("DejaVu Sans", 15)
    pg.TextItem.setFont(label, font)
    pg.TextItem.setColor(label, "#0072b2")
    pg.TextItem.setTextWidth(label, 50.0)
    assert label.textItem.font() == font
    assert label.textItem.defaultTextColor() == pg.mkColor("#0072b2")
    assert label.textItem.textWidth() == 50.0 and len(label.textItem.lines()) > 1
