"""A view's verdict line: whole, or its short form with a More… / Less link.

A verdict (:attr:`core.viewdata.ViewData.verdict`) says in bold what the plots show; some
views give it a short form too (:attr:`~core.viewdata.ViewData.verdict_short`), which the
stage always shows (the whole verdict goes to the lecturer's note). In the window Word
order's whole verdict took 492 px of a 914 px view at 200 % on 1600 × 1000, its plots
below the fold when it opened. :class:`VerdictBox` shows the short form there too when
the view asks for it (:meth:`VerdictBox.set_auto`: the room), with the whole verdict as
the label's tooltip and a More… link at its end (a click, or Tab to it and Enter) whose
choice wins over the room from then on (:attr:`VerdictBox.choice`), as the explanation's
toggle does (:mod:`gui.widgets.explanation`); the whole verdict the lecturer chose ends
with Less. The link follows the text rather than sit beside it as a button: beside the
short form at 200 % a button took 155 px of an 892 px line, and the short form five
lines. A whole verdict the room allows has no link; nor has a verdict without a short
form, nor the stage.

The box follows its label's own visibility (the view hides the label when there is no
verdict).
"""

from __future__ import annotations

import html

from PySide6 import QtCore, QtWidgets

from gui.plotting.word_breaks import breakable
from gui.render.opaque import OpaqueLabel
from gui.widgets.explanation import LESS, MORE, LecturersChoice, follow_label

LINK = "fold"  # the More… / Less link's address
_NBSP = "\u00a0"


class VerdictBox(LecturersChoice, QtWidgets.QWidget):
    """The verdict ``label``, with its More… / Less link (see the module docstring).

    Parameters
    ----------
    parent
        The box's parent widget.
    """

    #: the lecturer chose the whole verdict (True) or its short form (False)
    chosen = QtCore.Signal(object)

    def __init__(self, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("view-verdict-box")
        # follows the slider: opaque, a new text repaints it alone (gui.render.opaque)
        self.label = OpaqueLabel("", self)
        self.label.setObjectName("view-verdict")
        self.label.setWordWrap(True)
        self.label.setTextFormat(QtCore.Qt.TextFormat.RichText)
        flags = QtCore.Qt.TextInteractionFlag
        # the link by mouse, and by Tab and Enter
        self.label.setTextInteractionFlags(
            flags.LinksAccessibleByMouse | flags.LinksAccessibleByKeyboard
        )
        self.label.linkActivated.connect(self._link)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label)
        # never shown: measures a text at the label's width (a child of the label: its
        # style sheet's font and padding reach it)
        self._measure = QtWidgets.QLabel(self.label)
        self._measure.setObjectName("verdict-measure")
        self._measure.setWordWrap(True)
        self._measure.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self._measure.hide()
        self._heights: dict[tuple, int] = {}  # (markup, width, font) → height
        self._colour = "#0072B2"  # the link's (apply_style)
        self._whole = ""
        self._short = ""
        self._shown = ""  # the text shown (plain)
        self._presenting = False
        self._room_whole = True  # as the room asks (set_auto), unless chosen
        self.choice: bool | None = None  # the lecturer's choice, None: the room decides
        self.label.installEventFilter(self)
        self.label.hide()
        self.hide()

    # ------------------------------------------------------------------ state
    @property
    def foldable(self) -> bool:
        """Whether the verdict has a short form other than itself."""
        return bool(self._short) and self._short != self._whole

    def form(self, whole: str, short: str) -> str:
        """The text the box shows for a verdict ``whole`` with the short form ``short``:
        the short form on the stage, and in the window where the whole verdict is not
        asked for; else the whole verdict."""
        if short and (self._presenting or not self.expanded):
            return short
        return whole

    @property
    def shown_short(self) -> bool:
        """Whether the label shows the short form of a longer verdict."""
        return self.foldable and self.form(self._whole, self._short) != self._whole

    def set_texts(self, whole: str, short: str, presenting: bool) -> None:
        """Show the verdict ``whole`` (its short form ``short``, "" for none) in the
        window or on the stage (``presenting``)."""
        self._whole, self._short, self._presenting = whole, short, presenting
        self._show()

    def set_auto(self, whole: bool) -> bool:
        """The room's choice (ignored while the lecturer's stands); whether what the
        label shows changed."""
        before = self.label.text()
        self._room_whole = whole
        self._show()
        return self.label.text() != before

    @property
    def shown_text(self) -> str:
        """The verdict as the label shows it (whole or short), without its link."""
        return self._shown

    def _link(self, address: str) -> None:
        if address == LINK:
            self.flip()

    # ------------------------------------------------------------------ showing
    def _links(self, text: str) -> bool:
        """Whether ``text`` shown ends with the More… / Less link (see the module
        docstring)."""
        return (
            self.foldable and not self._presenting and (text != self._whole or self.choice is True)
        )

    def markup(self, text: str) -> str:
        """The label's rich text for the verdict ``text``: its long words breakable
        (:func:`~gui.plotting.word_breaks.breakable`: "max_positions=64:" at 1280 × 720 /
        300 %, windowed, made the view's body 653 px wide in its 620 px viewport), then
        the More… or Less link where it has one (glued to the last word)."""
        # (its spaces as written: the short forms part their clauses with two)
        shown = f'<span style="white-space: pre-wrap;">{html.escape(breakable(text), quote=False)}</span>'
        if not self._links(text):
            return shown
        word = MORE if text != self._whole else LESS
        link = (
            f'<a href="{LINK}" style="color: {self._colour}; font-weight: normal; '
            f'text-decoration: none;">{word}</a>'
        )
        return f"{shown}{_NBSP}{_NBSP}{link}"

    def height_for(self, whole: bool) -> int:
        """The label's height at its width now with the whole verdict (``whole``) or its
        short form."""
        text = self._whole if whole or not self._short else self._short
        markup = self.markup(text)
        width = max(1, self.width())
        self.label.ensurePolished()
        key = (markup, width, self.label.font().key(), self.label.styleSheet())
        known = self._heights.get(key)
        if known is not None:
            return known
        measure = self._measure
        measure.ensurePolished()
        if measure.font() != self.label.font():
            measure.setFont(self.label.font())
        measure.setText(markup)
        height = measure.heightForWidth(width)
        if len(self._heights) > 64:
            self._heights.clear()
        self._heights[key] = height
        return height

    def _show(self) -> None:
        text = self._shown = self.form(self._whole, self._short)
        markup = self.markup(text)
        if self.label.text() != markup:
            self.label.setText(markup)
        self.label.setToolTip(self._whole if text != self._whole else "")  # (the whole)
        self.label.setVisible(bool(text))

    def apply_style(self, point_size: int, colour: str) -> None:
        """The verdict's text size (the theme's, in points; bold) and its link's colour
        (the theme's primary blue ``colour``, as the explanation's toggle)."""
        self.label.setStyleSheet(f"font-size: {point_size}pt; font-weight: bold; padding: 4px;")
        self._colour = colour
        self._heights.clear()
        self._show()

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        # the label hidden or shown (no verdict, a verdict): the box goes and comes with it
        follow_label(self, obj, event)
        return False
