"""A plot title that never widens its plot and can change its text without a re-layout.

pyqtgraph's ``LabelItem`` asks the layout for its whole text width: a long title widens
its column of the plot grid. :class:`TitleLabel` asks only for its height (a long title
wraps onto more lines instead, see ``gui.plotting.panel_plot``; the title row grows to
the text's height: ``PlotItem.setTitle`` fixes it at 30 px, which cuts a two-line or a
200 % title), centres its lines, and
:meth:`TitleLabel.set_text_in_place` swaps the text of a title whose size does not
change (RoPE's title follows a slider, on one line or wrapped onto the same number of
lines) without re-laying out every plot (~1 ms a frame). :func:`install_title_label` gives a ``PlotItem`` one, in place of the
label ``PlotItem.__init__`` creates.
"""

from __future__ import annotations

import math
import re
import weakref

import pyqtgraph as pg
import shiboken6
from PySide6 import QtCore, QtGui

from gui.render.scripts import ROLE, typeset_scripts

MIN_WIDTH = 10.0  # px the title asks for across, whatever its text
ROW_HEIGHT = 30  # px: PlotItem.setTitle's fixed title row, kept for short one-line titles
_LINE_BREAK = "\u2028"  # Qt's line separator: a <br> in rich text
_HINT = QtCore.Qt.SizeHint
_RICH = re.compile(r"<(?!br>)|&")  # markup beyond line breaks: scripts, an entity


class TitleLabel(pg.LabelItem):
    """``LabelItem`` whose size hints ask for its text's height but not its width."""

    _height = 0.0  # the text's height, as last measured (LabelItem.__init__ lays out first)
    #: px the title row takes at least (:meth:`set_floor`): the tallest title of the
    #: matrices beside it in the view's grid row, its own lines at the row's bottom
    floor = 0
    _plot: weakref.ref[pg.PlotItem] | None = None  # the plot whose title this is

    def updateMin(self) -> None:
        """Minimum size: :data:`MIN_WIDTH` across, the text's height (``LabelItem``'s own
        asks for the text's width as well)."""
        self._height = self.itemRect().height()
        self.setMinimumHeight(self._height)
        self.setMinimumWidth(MIN_WIDTH)
        self._fit_row()

    def _fit_row(self) -> None:
        """Make the plot's title row as tall as the text (at least :data:`ROW_HEIGHT`).

        The plot comes from the reference :func:`install_title_label` keeps, never from
        ``self.parentItem()``: this also runs from ``resizeEvent`` while the plot is being
        destroyed (its layout deleted, the title re-sized to its own limits), when the
        plot's wrapper is already gone. ``parentItem()`` then made a new, Python-owned
        wrapper of the half-destroyed plot, and dropping it deleted the plot a second
        time: a title freed under its plot, a segfault when the window or the
        application was torn down.
        """
        plot = self._plot() if self._plot is not None else None
        if (
            plot is None
            or not shiboken6.isValid(plot)  # being destroyed
            or getattr(plot, "titleLabel", None) is not self
            or self.maximumHeight() == 0  # hidden title (setTitle(None))
        ):
            return
        height = max(self.own_height(), self.floor)
        if height != self.maximumHeight():
            self.setMaximumHeight(height)
            plot.layout.setRowFixedHeight(0, height)

    def own_height(self) -> int:
        """The title row's height for the text alone (at least :data:`ROW_HEIGHT`),
        whatever :attr:`floor` the row is held at."""
        return max(ROW_HEIGHT, math.ceil(self._height))

    def set_floor(self, floor: int) -> None:
        """Hold the title row at ``floor`` px or more (0: the text's own height). The
        view gives the matrices of one grid row their tallest title's height: a title
        of two lines beside one of three put its matrix's data and x axis a line
        higher than its neighbour's (Word order's A, B and out_B - out_A)."""
        if floor != self.floor:
            self.floor = floor
            self._fit_row()
            self.resizeEvent(None)

    def resizeEvent(self, ev: object) -> None:
        """``LabelItem``'s placement (centred), then the lines moved to the bottom of a
        row held taller than they are (:attr:`floor`): the title stays next to its
        data, as its neighbours' longer titles do."""
        super().resizeEvent(ev)
        spare = self.rect().height() - self.itemRect().height()
        if self.floor and spare > 0.5:
            self.item.moveBy(0.0, spare / 2)  # (centred: half of it is above already)

    def setText(self, text: str, **args: object) -> None:
        """``LabelItem.setText``, with every line centred (wrapped titles)."""
        if self.item.textWidth() >= 0:
            self.item.setTextWidth(-1)  # one line: its natural width
        super().setText(text, **args)
        if "<br>" in text:
            cursor = QtGui.QTextCursor(self.item.document())
            cursor.select(QtGui.QTextCursor.SelectionType.Document)
            block = QtGui.QTextBlockFormat()
            block.setAlignment(QtCore.Qt.AlignmentFlag.AlignHCenter)
            cursor.mergeBlockFormat(block)
            self.item.setTextWidth(self.item.document().idealWidth())
            self.updateMin()
            self.resizeEvent(None)

    def sizeHint(
        self, which: QtCore.Qt.SizeHint, constraint: QtCore.QSizeF | None = None
    ) -> QtCore.QSizeF:
        # from the cached height: Qt also asks while the item's children are destroyed
        if which in (_HINT.MinimumSize, _HINT.PreferredSize):
            return QtCore.QSizeF(MIN_WIDTH, self._height)
        if which == _HINT.MaximumSize:
            return QtCore.QSizeF(-1, -1)  # no maximum of its own (PlotItem sets the height)
        return QtCore.QSizeF(0, 0)

    def set_text_in_place(self, text: str) -> None:
        """Show ``text`` (lines joined by ``<br>``) in the style of the current text,
        leaving the layout alone while the title's height stays.

        ``LabelItem.setText`` rebuilds the rich text and re-lays out the plot grid. For a
        title whose style stays (the caller wraps it to the plot's width, onto as many
        lines as before) only the characters change: they are replaced in the text
        document, keeping the format of its first character (a title's sub- and
        superscripts and escaped characters as Qt reads them: :func:`_insert_rich`), and
        the lines are centred again. A text of another height (other lines) re-fits the title row and the grid
        as ``setText`` does.
        """
        document = self.item.document()
        if document.isEmpty():
            self.setText(text)
            return
        lines = text.split("<br>")
        cursor = QtGui.QTextCursor(document)
        cursor.movePosition(QtGui.QTextCursor.MoveOperation.NextCharacter)
        style = cursor.charFormat()  # the format of the first character
        if style.hasProperty(ROLE):  # a script's (gui.render.scripts), not the text's
            self.setText(text)
            return
        cursor.select(QtGui.QTextCursor.SelectionType.Document)
        if _RICH.search(text):
            _insert_rich(cursor, text, style)
            typeset_scripts(document)  # as setText's (gui.render.pg_compat)
        else:
            cursor.insertText(_LINE_BREAK.join(lines), style)  # what setHtml makes of <br>
        self.text = text
        self._fit_lines(document, len(lines))
        if self.itemRect().height() != self._height:
            self.updateMin()
            self.updateGeometry()
        self.resizeEvent(None)
        # the whole text anew: a device-cached title (the view's texts are) whose box
        # stayed kept only the changed lines' old area, left blank (RoPE's plane title
        # vanished from the 200 % stage after a few values of m)
        self.item.update()

    def _fit_lines(self, document: QtGui.QTextDocument, lines: int) -> None:
        """Make the text as wide as its widest of ``lines`` lines (each on one line, at
        its natural width), where :meth:`setText` centres them; one line: no width.

        The new text is laid out at the old lines' width when it is inserted. Where
        none of its lines wrapped there, its ideal width is already theirs on one
        line each, and the text takes it with one more layout; otherwise it is laid
        out without a width first (three layouts of the text a frame: most of the
        ~0.2 ms a wrapped title that follows a slider took)."""
        item = self.item
        if lines > 1 and item.textWidth() >= 0 and document.lineCount() == lines:
            ideal = document.idealWidth()  # (no line wrapped: as at no width)
            if ideal != item.textWidth():
                item.setTextWidth(ideal)
            return
        if item.textWidth() >= 0:
            item.setTextWidth(-1)  # one line each: their natural width
        if lines > 1:  # centred lines (the block keeps setText's alignment)
            item.setTextWidth(document.idealWidth())


def _insert_rich(cursor: QtGui.QTextCursor, text: str, style: QtGui.QTextCharFormat) -> None:
    """Replace ``cursor``'s selection with the rich ``text`` (a title with sub- and
    superscripts, escaped characters) in ``style``: each run of ``text`` as Qt reads
    it, with its vertical alignment (``<sub>``, ``<sup>``) on ``style``."""
    source = QtGui.QTextDocument()
    source.setHtml(text)
    style = QtGui.QTextCharFormat(style)
    style.setVerticalAlignment(QtGui.QTextCharFormat.VerticalAlignment.AlignNormal)
    cursor.removeSelectedText()
    block = source.begin()
    while block.isValid():
        if block != source.begin():
            cursor.insertText(_LINE_BREAK, style)
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            run = QtGui.QTextCharFormat(style)
            run.setVerticalAlignment(fragment.charFormat().verticalAlignment())
            cursor.insertText(fragment.text(), run)
            it += 1
        block = block.next()


def install_title_label(plot: pg.PlotItem) -> TitleLabel:
    """Give ``plot`` a :class:`TitleLabel` as its title (``plot.titleLabel``), in the cell
    and state of the label it replaces; returns it (the same one when called again)."""
    old = plot.titleLabel
    if isinstance(old, TitleLabel):
        return old
    shown = old.isVisibleTo(plot)
    new = TitleLabel("", size="11pt", parent=plot)  # as PlotItem.__init__ makes its own
    plot.layout.removeItem(old)
    old.hide()
    if old.scene() is not None:
        old.scene().removeItem(old)
    old.setParentItem(None)
    plot.titleLabel = new
    new._plot = weakref.ref(plot)
    plot.layout.addItem(new, 0, 1)
    if shown:
        plot.setTitle(old.text, **{k: v for k, v in old.opts.items() if k != "justify"})
    else:
        plot.setTitle(None)
    return new
