"""Prose that writes its math as plot labels do (``m_h``, ``θ_i``, ``x_i + p_i``), typeset.

A view's explanation, its notes line, a scene's speaker note and a parameter's
description are plain text that writes sub- and superscripts the way panel titles,
axis titles and legends do (:func:`core.formula.label_markup`: ``get_rope_index``,
``rope_theta``, ``train_len`` keep their ``_``). :func:`set_math_text` shows such a text
in a label with its scripts set (``m<sub>h</sub>``), every other character as it
stands (``<``, ``&``, runs of spaces, line breaks); :func:`math_tooltip` gives the same
as a tooltip. A text without scripts stays a plain-text label, and a label showing
typeset text is measured as its plain characters (:class:`MathLabel`,
:class:`MathLineLabel`: Qt lays rich text out several times over for each size asked,
and the notes line gets a new text several times a second during a drag).
The text itself stays plain where it is read back (:func:`source_text`) and in every
text output (CSV/NPY headers, the command line, scene files, the hover readout).
"""

from __future__ import annotations

import html
from functools import lru_cache
from typing import cast

from PySide6 import QtCore, QtGui, QtWidgets

from core.formula import FormulaError, glyph_text, label_markup, label_rich_text, marks_nothing
from gui.render.opaque import OpaqueLabel, paint_behind
from gui.render.scripts import typeset_scripts

__all__ = [
    "MathLabel",
    "MathLineLabel",
    "math_glyphs",
    "math_html",
    "math_tooltip",
    "set_math_text",
    "source_text",
    "typeset_label",
]

_SOURCE = "mathSource"  # the label's plain text (a dynamic property)
_PLAIN = QtCore.Qt.TextFormat.PlainText
_RICH = QtCore.Qt.TextFormat.RichText


_SEP = " · "  # between a notes line's notes: each converted (and cached) on its own
_PRE = "<p style='white-space:pre-wrap'>"  # rich text keeping spaces and line breaks


@lru_cache(maxsize=4096)
def _note(text: str) -> tuple[str, str]:
    """One note's rich text and the characters it draws (:func:`label_markup`, which
    both start from, is made once: core.formula keeps it). A note that marks nothing
    draws its own characters (:func:`core.formula.marks_nothing`): the clock's note
    follows q·k, a new text on every frame of a drag, parsed twice (~750 calls)."""
    if marks_nothing(text):
        return label_rich_text(text), text
    try:
        glyphs = glyph_text(label_markup(text))
    except FormulaError:  # (label_markup makes none: label_rich_text escapes it all)
        glyphs = text
    return label_rich_text(text), glyphs


@lru_cache(maxsize=2048)
def math_html(text: str) -> str | None:
    """``text`` as Qt rich text with its math typeset, spaces and line breaks kept as
    they stand; ``None`` when it has no sub- or superscript (shown as plain text).
    A notes line's notes are converted one by one: during a drag only the note that
    follows the slider is new (RoPE's line: 0.5 ms a new line converted whole)."""
    rich = _SEP.join(_note(note)[0] for note in text.split(_SEP))
    if "<su" not in rich:  # (label_rich_text escapes every "<" of the text itself)
        return None
    return f"{_PRE}{rich}</p>"


@lru_cache(maxsize=2048)
def math_glyphs(text: str) -> str:
    """The characters :func:`math_html` of ``text`` draws (``m_h`` → ``mh``)."""
    return _SEP.join(_note(note)[1] for note in text.split(_SEP))


def set_math_text(label: QtWidgets.QLabel, text: str) -> None:
    """Show ``text`` in ``label``, its math typeset (see the module docstring)."""
    rich = math_html(text)
    if rich is None:
        label.setTextFormat(_PLAIN)
        label.setText(text)
    else:
        label.setTextFormat(_RICH)
        label.setText(rich)
    label.setProperty(_SOURCE, text)


def source_text(label: QtWidgets.QLabel) -> str:
    """The plain text :func:`set_math_text` last showed in ``label`` (its text when
    the label was set otherwise since)."""
    source = label.property(_SOURCE)
    if isinstance(source, str) and (label.text() == source or label.text() == math_html(source)):
        return source
    return label.text()


def math_tooltip(text: str, *, literal: str = "") -> str:
    """``text`` as a tooltip: its math typeset, the rest shown literally; ``literal``
    before it shown as it stands, never typeset (a parameter's name: "grid_h" is an
    identifier, not grid with a subscript h)."""
    rich = math_html(text)
    body = html.escape(text) if rich is None else rich.removeprefix(_PRE).removesuffix("</p>")
    return f"{_PRE}{html.escape(literal)}{body}</p>"


class _PlainSizes:
    """The sizes of a label that may show rich text (:func:`set_math_text`): a
    plain-text label's for the characters it draws (``mean_i`` as ``meani``: a
    subscript takes no more room than the letter, and both lay out with the same line
    breaking; :func:`math_glyphs`), as they were before its math was typeset. Qt
    measured the rich text by laying out its document anew for each question, up to
    five times for a size hint (its ``adjustSize``) and twice more for each height: a
    new RoPE notes text cost 8 ms at 1600 × 1000 where its plain text cost 1.1 ms.
    (A mixin: a class with two Qt wrappers as bases breaks PySide's calls.)"""

    _twin: QtWidgets.QLabel
    _twin_for: tuple[object, ...] | None

    def _make_twin(self) -> None:
        label = cast(QtWidgets.QLabel, self)
        # never shown, measures the plain characters; a child: the label's style sheet
        # and font reach it, and it is no window of its own
        self._twin = QtWidgets.QLabel(label)
        self._twin.setObjectName("math-measure")
        self._twin.setTextFormat(_PLAIN)
        self._twin.hide()
        self._twin_for = None

    def measured(self) -> QtWidgets.QLabel | None:
        """The plain-text label that answers for this one's sizes while it shows rich
        text (``None``: it answers itself)."""
        label = cast(QtWidgets.QLabel, self)
        if label.textFormat() != _RICH:
            return None
        key = (
            label.font(),
            label.wordWrap(),
            label.alignment(),
            label.margin(),
            label.indent(),
            label.contentsMargins(),
            label.minimumSize(),
            label.maximumSize(),
            label.sizePolicy(),
        )
        twin = self._twin
        if key != self._twin_for:  # (not per text: only a new style or size)
            twin.setFont(label.font())
            twin.setWordWrap(label.wordWrap())
            twin.setAlignment(label.alignment())
            twin.setMargin(label.margin())
            twin.setIndent(label.indent())
            twin.setContentsMargins(label.contentsMargins())
            twin.setMinimumSize(label.minimumSize())
            twin.setMaximumSize(label.maximumSize())
            twin.setSizePolicy(label.sizePolicy())
            self._twin_for = key
        glyphs = math_glyphs(source_text(label))
        if twin.text() != glyphs:
            twin.setText(glyphs)
        return twin

    # Qt asks a label for its sizes through these three: the mixin comes first in both
    # labels' bases, so its methods override the Qt base's (mypy cannot see that base)

    def sizeHint(self) -> QtCore.QSize:
        twin = self.measured()
        return super().sizeHint() if twin is None else twin.sizeHint()  # type: ignore[misc]

    def minimumSizeHint(self) -> QtCore.QSize:
        twin = self.measured()
        return super().minimumSizeHint() if twin is None else twin.minimumSizeHint()  # type: ignore[misc]

    def heightForWidth(self, width: int) -> int:
        twin = self.measured()
        return super().heightForWidth(width) if twin is None else twin.heightForWidth(width)  # type: ignore[misc]

    # Scripts at four fifths (gui.render.scripts): the label's own text document, which
    # Qt fills from the rich text when it first lays it out (and again for a new text),
    # is typeset before each paint; a new font fills it anew (its scripts' sizes are
    # the old font's share)

    def paintEvent(self, event: QtGui.QPaintEvent) -> None:
        typeset_label(cast(QtWidgets.QLabel, self))
        super().paintEvent(event)  # type: ignore[misc]

    def changeEvent(self, event: QtCore.QEvent) -> None:
        super().changeEvent(event)  # type: ignore[misc]
        label = cast(QtWidgets.QLabel, self)
        if event.type() == QtCore.QEvent.Type.FontChange and label.textFormat() == _RICH:
            text = label.text()
            label.setText("")  # (the same text again would be ignored)
            label.setText(text)


def typeset_label(label: QtWidgets.QLabel) -> bool:
    """Draw the sub- and superscripts of ``label``'s rich text at four fifths of its
    text (:func:`gui.render.scripts.typeset_scripts` on the text document Qt lays the
    label out with, filled now if it was not); whether any was typeset now. Qt's own
    two-thirds scripts were 9 px beside 13 px text in the explanation at 100 %. Called
    before the label paints.

    Qt fills the document when it first measures the label: asked here for its height
    at its width (``QLabel.heightForWidth``: one layout, 0.3 ms for a notes line whose
    text is filled). ``QLabel.minimumSizeHint`` laid a new text out at three widths,
    one of them every word on a line of its own (RoPE's notes line in a drag: 2.4 ms
    of each new text's 5 ms paint). The document's control is quiet meanwhile: each
    layout and typeset run asked the label for a paint, and the label painted the
    same text once more on the next frame (1.4 ms); the paint under way draws it."""
    if label.textFormat() != _RICH or "<su" not in label.text():
        return False
    controls = _controls(label)
    quiet = [control.blockSignals(True) for control in controls]
    try:
        QtWidgets.QLabel.heightForWidth(label, label.width())  # (Qt's own: fills it)
        typeset = False
        for control in controls:
            for document in control.findChildren(QtGui.QTextDocument):
                typeset |= typeset_scripts(document)
    finally:
        for control, was in zip(controls, quiet, strict=True):
            control.blockSignals(was)
    return typeset


def _controls(label: QtWidgets.QLabel) -> list[QtCore.QObject]:
    """The text controls of ``label`` that hold its text documents (not a child
    label's)."""
    controls = []
    for document in label.findChildren(QtGui.QTextDocument):
        control = document.parent()
        if control is not None and control.parent() is label and control not in controls:
            controls.append(control)
    return controls


class MathLabel(_PlainSizes, QtWidgets.QLabel):
    """A ``QLabel`` whose math :func:`set_math_text` typesets, measured as plain text
    (:class:`_PlainSizes`): a view's explanation."""

    def __init__(self, text: str = "", parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(text, parent)
        self._make_twin()


class MathLineLabel(_PlainSizes, OpaqueLabel):
    """A :class:`MathLabel` that paints its own background (:class:`OpaqueLabel`): a
    line whose text changes often (a view's notes line).

    Its typeset text is drawn from a document of its own (:meth:`drawn_document`), as
    ``QLabel`` draws rich text: Qt's document of the label was laid out for a new text
    at three widths when :func:`typeset_label` filled it (``heightForWidth``), then
    once more for its scripts (RoPE's notes line on the 1920 x 1080 stage at 150 %:
    2 ms of a 2.7 ms paint). The own document is filled and typeset before it is laid
    out, once, at the width Qt lays the label's text out at (0.4 ms). Same pixels."""

    def __init__(self, text: str = "", parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(text, parent)
        self._make_twin()
        # (key, document): the typeset document of the text, font, options and width
        self._drawn: tuple[tuple[object, ...], QtGui.QTextDocument] | None = None

    def _document_rect(self) -> QtCore.QRect:
        """Where ``QLabel`` lays its text out (``QLabelPrivate::documentRect``): the
        contents less the margin, and the indent on the aligned side."""
        rect = self.contentsRect()
        margin = self.margin()
        rect.adjust(margin, margin, -margin, -margin)
        indent = self.indent()
        if indent < 0 and self.frameWidth():
            indent = self.fontMetrics().horizontalAdvance("x") // 2 - margin
        if indent > 0:
            align = self.alignment()
            if align & QtCore.Qt.AlignmentFlag.AlignLeft:
                rect.setLeft(rect.left() + indent)
            if align & QtCore.Qt.AlignmentFlag.AlignRight:
                rect.setRight(rect.right() - indent)
            if align & QtCore.Qt.AlignmentFlag.AlignTop:
                rect.setTop(rect.top() + indent)
            if align & QtCore.Qt.AlignmentFlag.AlignBottom:
                rect.setBottom(rect.bottom() - indent)
        return rect

    def drawn_document(self) -> QtGui.QTextDocument | None:
        """The typeset document the label draws its rich text from, laid out at its
        width (``None``: Qt draws the label's text itself: plain text, no scripts, or
        right to left). Kept for the text, font, alignment, wrapping and width it was
        made for: any other makes it anew."""
        text = self.text()
        if (
            self.textFormat() != _RICH
            or "<su" not in text
            or self.layoutDirection() != QtCore.Qt.LayoutDirection.LeftToRight
        ):
            self._drawn = None
            return None
        font = self.font()
        width = self._document_rect().width()
        align = self.alignment()
        wrap = self.wordWrap()
        key = (text, font, font.key(), width, align, wrap)
        if self._drawn is not None and self._drawn[0] == key:
            return self._drawn[1]
        document = QtGui.QTextDocument()
        # as QLabel fills its control's document (QLabelPrivate::ensureTextControl,
        # ensureTextPopulated, ensureTextLayouted), typeset before it is laid out
        document.setUndoRedoEnabled(False)
        document.setDefaultFont(font)
        document.setHtml(text)
        typeset_scripts(document)
        option = document.defaultTextOption()
        option.setAlignment(align)
        option.setWrapMode(
            QtGui.QTextOption.WrapMode.WordWrap if wrap else QtGui.QTextOption.WrapMode.ManualWrap
        )
        document.setDefaultTextOption(option)
        frame = document.rootFrame().frameFormat()
        frame.setMargin(0)
        document.rootFrame().setFrameFormat(frame)
        document.setTextWidth(width)
        self._drawn = (key, document)
        return document

    def paintEvent(self, event: QtGui.QPaintEvent) -> None:
        document = self.drawn_document()
        if document is None:
            super().paintEvent(event)
            return
        painter = QtGui.QPainter(self)
        try:
            paint_behind(self, painter)
            self._draw_document(painter, document, event.rect())
        finally:
            painter.end()

    def _draw_document(
        self,
        painter: QtGui.QPainter,
        document: QtGui.QTextDocument,
        dirty: QtCore.QRect | None = None,
    ) -> None:
        """Draw ``document`` as ``QLabel::paintEvent`` draws its rich text: the frame,
        then the text in the layout rectangle (centred vertically as aligned), in the
        palette's text colour set to the label's foreground colour. Only its lines
        that meet ``dirty`` (the rectangle painted; the painter is clipped to it) are
        drawn: a notes line partly below the fold of the view's scroll area drew all
        its glyphs (1 ms for RoPE's five lines at 150 % on the stage)."""
        self.drawFrame(painter)
        rect = self._document_rect()
        height = document.documentLayout().documentSize().height()
        align = self.alignment()
        top = 0.0
        if align & QtCore.Qt.AlignmentFlag.AlignVCenter:
            top = max((rect.height() - height) / 2, 0.0)
        elif align & QtCore.Qt.AlignmentFlag.AlignBottom:
            top = max(rect.height() - height, 0.0)
        laid = QtCore.QRectF(rect.x(), top + rect.y(), rect.width(), rect.height()).toAlignedRect()
        option = QtWidgets.QStyleOption()
        option.initFrom(self)
        context = QtGui.QAbstractTextDocumentLayout.PaintContext()
        palette = option.palette
        role = self.foregroundRole()
        if role != QtGui.QPalette.ColorRole.Text and self.isEnabled():
            palette.setColor(QtGui.QPalette.ColorRole.Text, palette.color(role))
        context.palette = palette
        if dirty is not None:  # (QTextLayout.draw skips the lines outside the clip)
            # a line's ink may reach past its box (a raised script): a line height more
            # on each side, where the lines drawn are clipped anyway
            reach = self.fontMetrics().height()
            clip = dirty.adjusted(0, -reach, 0, reach).translated(-laid.x(), -laid.y())
            context.clip = QtCore.QRectF(clip)
        painter.save()
        painter.translate(laid.topLeft())
        painter.setClipRect(laid.translated(-laid.x(), -laid.y()))
        document.documentLayout().draw(painter, context)
        painter.restore()
