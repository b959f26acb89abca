"""The text around the plots typesets its math as the plots' labels do: a view's
explanation, its notes line, the speaker note (presenter window and the one-screen
strip) and the parameters' descriptions (tooltips) show ``m_h`` as m with a subscript h,
while identifiers (``rope_theta``, ``seq_len``, ``get_rope_index``) keep their ``_`` and
``<`` or ``&`` show as written. The texts stay plain where they are read back."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtGui

from core.formula import minus_signs
from core.scenes import Deck, Scene
from core.views import VIEWS
from gui.render.math_text import math_html, math_tooltip, source_text

RICH = QtCore.Qt.TextFormat.RichText
PLAIN = QtCore.Qt.TextFormat.PlainText
SUB = QtGui.QTextCharFormat.VerticalAlignment.AlignSubScript


def _document(html: str) -> QtGui.QTextDocument:
    doc = QtGui.QTextDocument()
    doc.setHtml(html)
    return doc


def _subscripts(doc: QtGui.QTextDocument) -> list[str]:
    """The subscript runs of ``doc``, in order."""
    found: list[str] = []
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().verticalAlignment() == SUB:
                found.append(fragment.text())
            it += 1
        block = block.next()
    return found


@pytest.mark.parametrize(
    ("text", "shown", "subs"),
    [
        ("head h gets slope m_h", "head h gets slope mh", ["h"]),
        ("x_i + p_i, then rope_theta", "xi + pi, then rope_theta", ["i", "i"]),
        (
            "m_h: keys j < i & spaces  kept\nnext line",
            "mh: keys j < i & spaces  kept\nnext line",
            ["h"],
        ),
    ],
)
def test_math_html_shows_scripts_and_every_other_character(qapp, text, shown, subs):
    html = math_html(text)
    assert html is not None
    doc = _document(html)
    assert doc.toPlainText() == shown
    assert _subscripts(doc) == subs


def test_text_without_math_stays_plain():
    assert math_html("get_rope_index, short_factor, train_len, mrope_section") is None
    assert math_html("<b>not bold</b> & more") is None
    tip = math_tooltip("<b>x</b>")  # literal in a tooltip
    assert "&lt;b&gt;x&lt;/b&gt;" in tip


def test_a_parameter_name_in_a_tooltip_stays_an_identifier(studio):
    """The parameter tooltips name the parameter: "grid_h" is an identifier, shown as
    it stands, while the description beside it is typeset (the panel, the strip and
    the Animation box showed grid with a subscript h)."""
    from PySide6 import QtWidgets

    studio.set_view("rope")
    tips = [w.toolTip() for w in studio.findChildren(QtWidgets.QWidget) if "grid_h" in w.toolTip()]
    assert tips and all("grid<sub>" not in t for t in tips), tips
    assert math_tooltip("Slope m_h", literal="heads: ") == (
        "<p style='white-space:pre-wrap'>heads: Slope m<sub>h</sub></p>"
    )


def test_explanation_notes_and_tooltips_typeset_their_math(studio, show_view):
    alibi = show_view(studio, "alibi", (1600, 1000), 1.0)
    label = alibi.explanation
    assert label.textFormat() == RICH
    doc = _document(label.text())
    assert "m_h" in VIEWS["alibi"].explanation
    assert "m_h" not in doc.toPlainText() and "its own mh." in doc.toPlainText()
    assert _subscripts(doc) == ["h"]
    assert doc.toPlainText() == VIEWS["alibi"].explanation.replace("m_h", "mh")
    # measured as drawn: as tall as the same characters in plain text
    plain = type(label)()
    plain.setTextFormat(PLAIN)
    plain.setWordWrap(True)
    plain.setFont(label.font())
    plain.setText(doc.toPlainText())
    assert abs(plain.heightForWidth(label.width()) - label.heightForWidth(label.width())) <= 1
    # the parameter's description: m_h typeset, the code names as written
    tip = studio.panels["alibi"].rows["heads"].editor.toolTip()
    tip_doc = _document(tip)
    assert "m_h" not in tip_doc.toPlainText() and "h" in _subscripts(tip_doc)
    # identifiers keep their underscores (Sinusoidal's explanation names d_model)
    sinusoidal = VIEWS["sinusoidal"]
    studio.set_view("sinusoidal")
    box = studio.views["sinusoidal"].explanation_box
    box.choose(True)  # the whole paragraph (collapsed at 1600 x 1000, so the view fits)
    shown = _document(studio.views["sinusoidal"].explanation.text()).toPlainText()
    box.choose(None)
    assert "d_model" in sinusoidal.explanation and "d_model" in shown
    assert "x_i" in sinusoidal.explanation and "x_i" not in shown and "xi + pi" in shown
    seq_tip = _document(studio.panels["sinusoidal"].rows["seq_len"].editor.toolTip())
    assert "seq_len" in seq_tip.toPlainText()

    # the notes line: RoPE's notes write mean_i, Δθ_i
    rope = show_view(studio, "rope", (1600, 1000), 1.0)
    notes = " · ".join(rope.data.display_notes(rope.shown_panels()))
    assert "θ_i" in notes
    assert rope.status.textFormat() == RICH
    shown = _document(rope.status.text()).toPlainText()
    assert "θ_i" not in shown and "θi" in shown
    # read back as shown: as the view wrote it, a value's minus the sign U+2212 as in
    # the plot titles ("atan2 −73.5°": RoPE's plane title and its note agree)
    assert "atan2 -73.5°" in notes and "atan2 −73.5°" in shown
    assert rope.status_text() == minus_signs(notes) != notes


def test_speaker_note_typesets_its_math_and_keeps_its_characters(studio, qtbot):
    from gui.lecture.presenter import Presenter

    presenter = studio.feature(Presenter)
    lecture = studio.lecture
    note = "Slope m_h; keys j < i & rope_theta"
    scenes = (
        Scene("alibi", VIEWS["alibi"].model.validate({}, partial=True), "Bias", note),
        Scene("rope", VIEWS["rope"].model.validate({}, partial=True), "Rotation", "<b>x</b>"),
    )
    lecture.deck.set_deck(Deck("test", scenes))
    lecture.display.enter_presentation(fullscreen=False)
    try:
        lecture.deck.go(0)
        presenter.toggle_note()  # one screen: the note's strip under the stage
        strip = presenter.note_dock.label
        assert strip.textFormat() == RICH
        doc = _document(strip.text())
        assert doc.toPlainText() == "Slope mh; keys j < i & rope_theta"
        assert _subscripts(doc) == ["h"]
        assert source_text(strip) == note
        lecture.deck.step(1)  # a note without math: plain text, shown literally
        assert strip.textFormat() == PLAIN and strip.text() == "<b>x</b>"
    finally:
        presenter.note_dock.hide()
        lecture.display.leave_presentation()
        lecture.deck.set_deck(Deck("empty", ()))


def test_prose_scripts_are_four_fifths_of_the_text(studio, show_view):
    """RoPE's explanation (θ_i, base^(−2i/d)) and notes line draw their scripts at four
    fifths of the text's size (Qt's own: two thirds of the whole point size, 8 of 13 pt
    at 100 %), and the label's lines stay as tall as they were measured (no line cut)."""
    from PySide6 import QtWidgets

    from gui.render.math_text import MathLineLabel
    from gui.render.scripts import SCRIPT_SHARE, script_role

    rope = show_view(studio, "rope", (1600, 1000), 1.0)
    for label in (rope.explanation, rope.status):
        assert label.textFormat() == RICH
        label.repaint()  # (typeset as painted)
        if isinstance(label, MathLineLabel):  # (draws a document of its own)
            docs = [label.drawn_document()]
        else:
            docs = [
                d for d in label.findChildren(QtGui.QTextDocument) if d.parent().parent() is label
            ]
        assert len(docs) == 1 and docs[0] is not None
        scripts, text = [], []
        block = docs[0].begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fmt = it.fragment().charFormat()
                (scripts if script_role(fmt) else text).append(fmt.font().pointSizeF())
                assert (
                    fmt.verticalAlignment() == QtGui.QTextCharFormat.VerticalAlignment.AlignNormal
                )
                it += 1
            block = block.next()
        assert scripts and min(scripts) >= SCRIPT_SHARE * max(text) - 0.01, (scripts, text)
        width = label.contentsRect().width()
        assert QtWidgets.QLabel.heightForWidth(label, width) <= label.heightForWidth(width)


def test_typeset_text_is_measured_as_qt_lays_it_out(qapp):
    """A label showing typeset math answers for its sizes with its plain characters
    (Qt measured rich text by laying it all out again for each question: 8 ms a new
    RoPE notes line, 1.1 ms as plain text): the heights it gives are the ones Qt's
    rich-text layout gives, at any width, for every view's explanation."""
    from PySide6 import QtWidgets

    from gui.render.math_text import MathLabel, MathLineLabel, set_math_text, typeset_label

    notes = (
        "dynamic ×4 equals unscaled here · q·k after rotation vs offset m − n (two query "
        "positions): mean_i cos(Δθ_i) decays and ripples · keys j < i & x_{i} stay"
    )
    texts = [spec.explanation for spec in VIEWS.values()] + [notes]
    for cls in (MathLabel, MathLineLabel):
        label = cls()
        label.setWordWrap(True)
        label.setStyleSheet("font-size: 12pt;")
        for text in texts:
            set_math_text(label, text)
            if label.textFormat() != RICH:
                continue
            typeset_label(label)  # its scripts at four fifths, as painted
            for width in (260, 700, 1500):
                rich = QtWidgets.QLabel.heightForWidth(label, width)  # Qt's own layout
                assert label.heightForWidth(width) == rich, (cls, text[:40], width)
            assert (
                label.minimumSizeHint().height() == QtWidgets.QLabel.minimumSizeHint(label).height()
            )
        set_math_text(label, "<b>plain</b>")
        assert label.measured() is None and label.heightForWidth(700) > 0
        label.deleteLater()


def _ink_box(note: str) -> tuple[int, int, int, int]:
    """Where a handout page's note area (1000 x 200 px) is inked for ``note``."""
    import numpy as np

    from gui.export.deck import _draw_note

    image = QtGui.QImage(1000, 200, QtGui.QImage.Format.Format_RGB32)
    image.fill(QtGui.QColor("white"))
    painter = QtGui.QPainter(image)
    _draw_note(painter, note, QtCore.QRectF(0, 0, 1000, 200))
    painter.end()
    bits = image.constBits()
    pixels = np.frombuffer(bits, np.uint8).reshape(200, image.bytesPerLine())[:, :4000]
    background = pixels[0, :4].copy()
    inked = np.argwhere((pixels.reshape(200, 1000, 4) != background).any(axis=2))
    (top, left), (bottom, right) = inked.min(axis=0), inked.max(axis=0) + 1
    return int(left), int(top), int(right), int(bottom)


def test_handout_note_typesets_its_math_and_shows_the_rest_as_written(qapp):
    """A PDF handout prints each scene's note under its slide (``_draw_note``): its math
    typeset as on screen (m_h with a subscript h, ALiBi's slope 2^(−8h/n) with the
    exponent raised), "<b>", "<" and "&" shown literally, wrapped and sized as before."""
    from gui.export.deck import _note_document

    font = QtGui.QFont()
    font.setPixelSize(20)
    note = "slope m_h = 2^(−8h/n): j < i & <b>x</b>"
    doc = _note_document(note, font, 800)
    assert doc.toPlainText() == "slope mh = 2−8h/n: j < i & <b>x</b>"
    assert _subscripts(doc) == ["h"]
    sup = QtGui.QTextCharFormat.VerticalAlignment.AlignSuperScript
    raised = []
    it = doc.begin().begin()
    while not it.atEnd():
        if it.fragment().charFormat().verticalAlignment() == sup:
            raised.append(it.fragment().text())
        it += 1
    assert raised == ["−8h/n"]
    assert doc.defaultFont().pixelSize() == 20 and doc.textWidth() == 800
    plain = _note_document("<b>x</b> & j < i", font, 800)  # no math: plain text
    assert plain.toPlainText() == "<b>x</b> & j < i"
    # drawn: "m_h" narrower than "mh" (the h smaller, no "_"), and reaching lower
    typeset, flat = _ink_box("m_h"), _ink_box("mh")
    assert typeset[2] - typeset[0] < flat[2] - flat[0]
    assert typeset[3] > flat[3]
    assert typeset[0] == flat[0]  # where the note starts: margins as before
    # a long note wraps inside the margins (area height / 8 = 25 px each side)
    left, top, right, bottom = _ink_box("m_h grows " * 40)
    assert left >= 25 and right <= 975 and bottom - top > 2 * 20


def test_the_notes_line_draws_its_own_document_as_qt_draws_the_label(qapp):
    """The notes line (MathLineLabel) draws its typeset text from a document of its own,
    filled and typeset before it is laid out (Qt's document of the label was laid out
    three times more for a new text): its pixels are those of Qt's own drawing of the
    label, typeset (typeset_label), for any width, wrapping, alignment, margin and
    style; its document is made anew for a new text or width, kept otherwise."""
    from PySide6 import QtWidgets

    from gui.render.math_text import MathLineLabel, _PlainSizes, set_math_text

    class QtDrawn(MathLineLabel):  # (the label drawn by Qt, typeset before)
        def paintEvent(self, event: QtGui.QPaintEvent) -> None:
            _PlainSizes.paintEvent(self, event)

    notes = (
        "dynamic ×4 equals unscaled here · q·k after rotation vs offset m − n (two query "
        "positions): mean_i cos(Δθ_i) decays and ripples · keys j < i & x_{i} stay"
    )
    window = QtWidgets.QWidget()
    window.resize(1600, 1200)
    window.show()
    align = QtCore.Qt.AlignmentFlag
    cases = [
        ("font-size: 18pt;", 1500, None, True, 0, -1),
        ("font-size: 12pt; color: #c03030;", 300, align.AlignCenter, True, 4, 6),
        (
            "font-size: 15pt; padding: 3px 7px;",
            700,
            align.AlignRight | align.AlignBottom,
            False,
            0,
            9,
        ),
    ]
    for style, width, alignment, wrap, margin, indent in cases:
        labels = [QtDrawn("", window), MathLineLabel("", window)]
        for label in labels:
            label.setStyleSheet(style)
            label.setWordWrap(wrap)
            label.setMargin(margin)
            label.setIndent(indent)
            if alignment is not None:
                label.setAlignment(alignment)
        for text in (notes, VIEWS["rope"].explanation):
            images = []
            for label in labels:
                set_math_text(label, text)
                height = label.heightForWidth(width) if wrap else label.sizeHint().height()
                label.setGeometry(0, 0, width, height + 9)
                images.append(label.grab().toImage())
            assert labels[1].drawn_document() is not None
            assert images[0] == images[1], (style, width, text[:30])
        line = labels[1]
        document = line.drawn_document()
        assert line.drawn_document() is document  # (same text, same width: kept)
        line.resize(width - 40, line.height())
        assert line.drawn_document() is not document
        for label in labels:
            label.deleteLater()
    # partly shown (below the fold of a scroll area): the lines painted are Qt's too
    grabs = []
    for cls in (QtDrawn, MathLineLabel):
        area = QtWidgets.QScrollArea(window)
        area.resize(290, 60)
        label = cls()
        label.setStyleSheet("font-size: 15pt;")
        label.setWordWrap(True)
        area.setWidget(label)
        area.show()
        set_math_text(label, notes)
        label.resize(260, label.heightForWidth(260))
        assert label.height() > 2 * area.viewport().height()
        for top in range(0, label.height() - 40, 9):
            area.verticalScrollBar().setValue(top)
            grabs.append(area.viewport().grab().toImage())
        area.deleteLater()
    half = len(grabs) // 2
    assert grabs[:half] == grabs[half:]
    line = MathLineLabel("", window)
    set_math_text(line, "no scripts here")
    assert line.drawn_document() is None  # (Qt draws plain text itself)
    window.deleteLater()
