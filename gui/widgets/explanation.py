"""A view's explanation paragraph: whole, or its first lines with a More… / Less toggle.

The paragraph teaches at the desk; in front of a class at 200 % it filled a 1600 × 1000
window (the plots below the fold when a view opened). :class:`ExplanationBox` holds the
paragraph's label (a :class:`~gui.render.math_text.MathLabel`, the view's
``explanation``) and a toggle button beside it. Collapsed, the label shows the
paragraph's first :data:`SHORT_LINES` lines at its width (:func:`short_form`: whole
sentences where they fill most of them, else cut after a word with "…"); expanded,
the whole paragraph. The view collapses it when the room asks for it
(:meth:`ExplanationBox.set_auto`); the lecturer's click on the toggle (or Enter on it, or
the View menu's action, Ctrl+I) is a choice that wins over the room from then on
(:attr:`ExplanationBox.choice`; kept in the settings for the next session,
:mod:`gui.lecture.settings`; Ctrl+I chooses for the verdict too). A paragraph whose whole text fits the short form's
lines shows no toggle.

The box follows the label's own visibility: hiding the label (presentation mode, a
focused plot, an export's widget) hides the toggle with it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from PySide6 import QtCore, QtGui, QtWidgets

from gui.render.math_text import MathLabel, math_glyphs, set_math_text, source_text

SHORT_LINES = 2  # lines the collapsed paragraph shows at most
MORE, LESS = "More…", "Less"
ELLIPSIS = "…"
# the View menu's action (gui.lecture.controller): the explanation and the verdict at once
TOGGLE_ACTION = "More / less text (explanation and verdict)"
TOGGLE_KEY = "Ctrl+I"  # its shortcut
# a sentence cut that keeps at least this share of the words a cut after any word keeps
# is shown instead (whole sentences read better than a sentence broken off)
SENTENCE_SHARE = 0.6
# a full stop that ends no sentence
_ABBREVIATIONS = ("e.g.", "i.e.", "et al.", "cf.", "vs.", "etc.")
_SENTENCE_END = re.compile(r"[.!?]['\")]?$")


def cut_points(text: str) -> list[tuple[int, bool]]:
    """Where ``text`` may be cut: the index of each space outside ``{…}`` (a cut inside
    a script's braces would break its markup, ``base^{−2i/d}``) after a word, and
    whether a sentence ends there."""
    points: list[tuple[int, bool]] = []
    depth = 0
    for i, ch in enumerate(text):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif ch.isspace() and depth == 0 and i > 0 and not text[i - 1].isspace():
            head = text[:i]
            ends = bool(_SENTENCE_END.search(head)) and not head.endswith(_ABBREVIATIONS)
            points.append((i, ends))
    return points


def short_form(text: str, fits: Callable[[str], bool]) -> str:
    """``text`` as its collapsed paragraph: ``text`` itself when it ``fits``; else its
    first whole sentences when they fit and keep at least :data:`SENTENCE_SHARE` of
    what the longest cut after a word with "…" keeps, else that cut (the first word
    with "…" when no cut fits). ``fits`` is taken to grow no more true with a longer
    text (each answer found by bisection)."""
    if fits(text):
        return text
    points = cut_points(text)
    if not points:
        return text
    lo, hi = 0, len(points) - 1  # the last cut whose text with "…" fits
    best = -1
    while lo <= hi:
        mid = (lo + hi) // 2
        if fits(text[: points[mid][0]] + ELLIPSIS):
            best, lo = mid, mid + 1
        else:
            hi = mid - 1
    if best < 0:
        return text[: points[0][0]] + ELLIPSIS
    cut = points[best][0]
    # a sentence that ends right after the cut (no "…" to fit) or before it
    ends = [i for i, end in points[: best + 2] if end and (i <= cut or fits(text[:i]))]
    if ends and ends[-1] >= SENTENCE_SHARE * cut:
        return text[: ends[-1]]
    return text[:cut] + ELLIPSIS


class _Toggle(QtWidgets.QToolButton):
    """The More… / Less button: Enter or Return on it clicks it, as Space would (Space is
    the lecture's play / pause on any button: :func:`gui.lecture.controller.is_editor`)."""

    def keyPressEvent(self, event: QtGui.QKeyEvent) -> None:
        if event.key() in (QtCore.Qt.Key.Key_Return, QtCore.Qt.Key.Key_Enter):
            self.click()
            event.accept()
            return
        super().keyPressEvent(event)


class LecturersChoice:
    """The whole or the short form of a text: as the room asks (``_room_whole``, set by
    the box's ``set_auto``) unless the lecturer chose (``choice``: More… / Less, Ctrl+I).
    Shared by :class:`ExplanationBox` and :class:`gui.widgets.verdict.VerdictBox`, which
    define the ``chosen`` signal and ``_show``."""

    _room_whole: bool
    choice: bool | None
    chosen: QtCore.SignalInstance

    def _show(self) -> object:  # (each box's own)
        raise NotImplementedError

    @property
    def expanded(self) -> bool:
        """Whether the whole text is asked for (by the lecturer, else the room)."""
        return self._room_whole if self.choice is None else self.choice

    def choose(self, whole: bool | None) -> None:
        """The lecturer's choice (``None``: the room decides again)."""
        self.choice = whole
        self._show()
        self.chosen.emit(whole)

    def flip(self) -> None:
        """More… / Less: the other form, as the lecturer's choice."""
        self.choose(not self.expanded)


class ExplanationBox(LecturersChoice, QtWidgets.QWidget):
    """The paragraph ``label`` with its More… / Less toggle (see the module docstring).

    Parameters
    ----------
    text
        The paragraph (plain text with ``m_h``-style math, :func:`set_math_text`).
    parent
        The box's parent widget.
    """

    #: the lecturer chose the whole paragraph (True) or its first lines (False), or left
    #: it to the room again (None)
    chosen = QtCore.Signal(object)
    #: what the label shows changed (the view re-fits its rows below it)
    reshaped = QtCore.Signal()

    def __init__(self, text: str, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("view-explanation-box")
        self.label = MathLabel("", self)  # (measured as its plain characters)
        self.label.setWordWrap(True)
        self.label.setObjectName("view-explanation")
        self.toggle = _Toggle(self)
        self.toggle.setObjectName("view-explanation-toggle")
        self.toggle.setAutoRaise(True)
        self.toggle.setCursor(QtCore.Qt.CursorShape.PointingHandCursor)
        self.toggle.setFocusPolicy(QtCore.Qt.FocusPolicy.StrongFocus)
        # the label keeps its width whether the toggle shows or not (its short form is
        # cut for that width)
        policy = self.toggle.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.toggle.setSizePolicy(policy)
        self.toggle.clicked.connect(self.flip)
        layout = QtWidgets.QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label, 1)
        # at the paragraph's top: "Less" where "More…" was, under the mouse that clicked
        layout.addWidget(self.toggle, 0, QtCore.Qt.AlignmentFlag.AlignTop)
        # never shown: measures the paragraph's plain characters at the label's width
        # (a child of the label: its style sheet's font reaches it)
        self._measure = QtWidgets.QLabel(self.label)
        self._measure.setObjectName("math-measure")
        self._measure.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self._measure.setWordWrap(True)
        self._measure.hide()
        self._text = text
        self._room_whole = True  # as the room asks (set_auto), unless chosen
        self.choice: bool | None = None  # the lecturer's choice, None: the room decides
        self._short_for: tuple[tuple, str] | None = None  # (width, font) → short form
        self.label.installEventFilter(self)
        self._show()

    # ------------------------------------------------------------------ state
    @property
    def collapsible(self) -> bool:
        """Whether the paragraph is longer than its short form at the label's width."""
        return self.short_text() != self._text

    @property
    def collapsed(self) -> bool:
        """Whether the label shows the short form of a longer paragraph."""
        return not self.expanded and self.collapsible

    def set_auto(self, expanded: bool) -> bool:
        """The room's choice (ignored while the lecturer's stands); whether what the
        label shows changed."""
        before = self.collapsed
        self._room_whole = expanded
        return self._show() or before != self.collapsed

    # ------------------------------------------------------------------ measuring
    def _width(self) -> int:
        """The label's width (as the box lays it out: beside the toggle's room)."""
        layout = self.layout()
        spacing = max(layout.spacing(), 0) if layout is not None else 0
        toggle = self.toggle.sizeHint().expandedTo(self.toggle.minimumSize()).width()
        return max(1, self.width() - toggle - spacing)

    def _text_height(self, text: str, width: int) -> int:
        """The label's height for ``text`` (its plain characters) at ``width``."""
        self.label.ensurePolished()
        measure = self._measure
        if measure.font() != self.label.font():
            measure.setFont(self.label.font())
        measure.setContentsMargins(self.label.contentsMargins())
        measure.setMargin(self.label.margin())
        glyphs = math_glyphs(text)
        if measure.text() != glyphs:
            measure.setText(glyphs)
        return measure.heightForWidth(width)

    def short_text(self) -> str:
        """The paragraph's short form at the label's width now (:func:`short_form`)."""
        width = self._width()
        key = (width, self.label.font().key(), self._text)
        if self._short_for is not None and self._short_for[0] == key:
            return self._short_for[1]
        limit = self._text_height("\n".join(["X"] * SHORT_LINES), 1 << 16)
        short = short_form(self._text, lambda t: self._text_height(t, width) <= limit)
        self._short_for = (key, short)
        return short

    def height_for(self, expanded: bool) -> int:
        """The box's height at its width now with the whole paragraph (``expanded``) or
        its short form."""
        text = self._text if expanded else self.short_text()
        return max(self._text_height(text, self._width()), self.toggle.sizeHint().height())

    # ------------------------------------------------------------------ showing
    def _show(self) -> bool:
        """Show the paragraph in the form asked for at the label's width; whether the
        label's text changed."""
        text = self._text if self.expanded else self.short_text()
        self.toggle.setVisible(self.collapsible)
        self.toggle.setText(LESS if text == self._text else MORE)
        whole = "the whole explanation" if text != self._text else "only its first lines"
        self.toggle.setToolTip(f"Show {whole} ({TOGGLE_KEY}, View ▸ {TOGGLE_ACTION})")
        if self.label.property("mathSource") == text and source_text(self.label) == text:
            return False
        set_math_text(self.label, text)
        self.reshaped.emit()
        return True

    def apply_style(self, point_size: int, colour: str) -> None:
        """The paragraph's and the toggle's text size (the theme's, in points), and the
        toggle's text ``colour`` (the theme's primary blue: it reads as something to
        click, legible on both themes; the palette's link blue was not on the dark)."""
        sheet = f"font-size: {point_size}pt;"
        self.label.setStyleSheet(sheet)
        self.toggle.setStyleSheet(
            f"QToolButton#view-explanation-toggle {{ {sheet} color: {colour}; }}"
        )
        self.toggle.ensurePolished()
        metrics = self.toggle.fontMetrics()
        # as wide for "Less" as for "More…": the label keeps its width either way
        wide = max(metrics.horizontalAdvance(MORE), metrics.horizontalAdvance(LESS))
        self.toggle.setMinimumWidth(wide + metrics.height())
        self._short_for = None
        self._show()

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:
        super().resizeEvent(event)
        self._show()  # the short form is cut for the new width

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        # the label hidden or shown on its own (presentation mode, a focus, an export):
        # the toggle goes and comes with it
        follow_label(self, obj, event)
        return False


def follow_label(box: QtWidgets.QWidget, obj: QtCore.QObject, event: QtCore.QEvent) -> None:
    """Hide or show ``box`` as its ``label`` is hidden or shown (an event filter's
    body, for the explanation's and the verdict's boxes). ``getattr``: a box being
    deleted has lost its attributes while the label it watches still sends events."""
    if obj is getattr(box, "label", None):
        kind = event.type()
        if kind == QtCore.QEvent.Type.HideToParent:
            box.hide()
        elif kind == QtCore.QEvent.Type.ShowToParent:
            box.show()
