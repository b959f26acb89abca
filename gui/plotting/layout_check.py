"""Where a view's canvas text is drawn, and what of it is cut, elided or overlapping.

Test and benchmark support (issues 13 and 14: "a test checks bounding boxes of titles,
axis labels and legends for overlaps and clipping"): ``tests/test_layout_fit.py`` gates
on :func:`layout_problems`, ``bench/shots.py`` prints it next to its screenshots. One
copy of the geometry for both. Nothing here changes what is drawn.

Every rectangle is in the coordinates of the view's canvas scene, and is the ink of the
text (its glyphs' tight bounding rectangle), not the item's box: a text item's document
margin is empty and may touch a neighbour. A view is duck-typed: ``widget.plots`` maps a
panel key to a panel plot with ``plot`` (a ``PlotItem``), ``panel``, ``legend``,
``colorbar``, ``table``, ``text_labels`` and ``masked_key`` where it has them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from gui.render.scripts import script_role

TOL = 1.0  # px: rounding of scene coordinates; a box may pass another's edge by this much
ELLIPSIS = "…"
Box = tuple[str, str, QtCore.QRectF]  # panel key, what, scene rectangle of the ink


# ---------------------------------------------------------------------- geometry
def overlap(a: QtCore.QRectF, b: QtCore.QRectF) -> bool:
    """Whether ``a`` and ``b`` share more than :data:`TOL` px each way."""
    return a.adjusted(TOL, TOL, -TOL, -TOL).intersects(b.adjusted(TOL, TOL, -TOL, -TOL))


def inside(inner: QtCore.QRectF, outer: QtCore.QRectF) -> bool:
    """Whether ``inner`` lies in ``outer`` (to :data:`TOL` px)."""
    return outer.adjusted(-TOL, -TOL, TOL, TOL).contains(inner)


def shown(item: QtWidgets.QGraphicsItem | None) -> bool:
    """Whether ``item`` is drawn: visible (with its parents) and in a scene."""
    return item is not None and item.isVisible() and item.scene() is not None


def _font_at(block: QtGui.QTextBlock, position: int, default: QtGui.QFont) -> QtGui.QFont:
    """The font of the character at ``position`` (in the block) of rich text."""
    it = block.begin()
    while not it.atEnd():
        fragment = it.fragment()
        start = fragment.position() - block.position()
        if start <= position < start + fragment.length():
            return fragment.charFormat().font()
        it += 1
    return default


_NORMAL = QtGui.QTextCharFormat.VerticalAlignment.AlignNormal
_SUB = QtGui.QTextCharFormat.VerticalAlignment.AlignSubScript
_SUPER = QtGui.QTextCharFormat.VerticalAlignment.AlignSuperScript


def _scripted_fragments(block: QtGui.QTextBlock) -> list[tuple[int, str, QtGui.QTextCharFormat]]:
    """``(start in the block, text, format)`` of each fragment of ``block`` when one of
    them is a sub- or superscript (a title's ``m<sub>h</sub>``); [] otherwise."""
    fragments = []
    it = block.begin()
    while not it.atEnd():
        fragment = it.fragment()
        fragments.append(
            (fragment.position() - block.position(), fragment.text(), fragment.charFormat())
        )
        it += 1
    if not any(script_role(f) for _s, _t, f in fragments):
        return []
    return fragments


def _script_font(font: QtGui.QFont) -> QtGui.QFont:
    """The font Qt draws a sub- or superscript of ``font`` in: two thirds of its whole
    point (or pixel) size (``QTextEngine::fontEngine``)."""
    scaled = QtGui.QFont(font)
    if font.pointSize() != -1:
        scaled.setPointSize(max(1, font.pointSize() * 2 // 3))
    else:
        scaled.setPixelSize(max(1, font.pixelSize() * 2 // 3))
    return scaled


def _line_ink(
    line: QtGui.QTextLine, fragments: list[tuple[int, str, QtGui.QTextCharFormat]]
) -> QtCore.QRectF:
    """The ink of ``line`` (in its block's layout) that holds sub- or superscripts: each
    fragment's glyphs in the font drawn, where the line lays it out; Qt's own scripts
    (two thirds) with a subscript's baseline a sixth of its font's height lower, a
    superscript's half of it higher (as ``QTextLine::draw`` places them); scripts typeset
    at four fifths (:func:`gui.render.scripts.typeset_scripts`) in their own font, moved
    by their baseline offset's share of its height."""
    ink = QtCore.QRectF()
    start, end = line.textStart(), line.textStart() + line.textLength()
    baseline = line.y() + line.ascent()
    for at, text, fmt in fragments:
        lo, hi = max(start, at), min(end, at + len(text))
        if hi <= lo:
            continue  # a fragment on another line
        piece = text[lo - at : hi - at]
        if not piece.strip():
            continue
        lead = len(piece) - len(piece.lstrip())
        align = fmt.verticalAlignment()
        font = fmt.font() if align == _NORMAL else _script_font(fmt.font())
        metrics = QtGui.QFontMetricsF(font)
        height = metrics.ascent() + metrics.descent()
        shift = -fmt.baselineOffset() / 100.0 * height
        if align == _SUB:
            shift = height / 6
        elif align == _SUPER:
            shift = -height / 2
        at_x: tuple[float, int] = line.cursorToX(lo + lead)  # type: ignore[assignment]
        left = float(at_x[0])  # (PySide returns the x and the position)
        tight = metrics.tightBoundingRect(piece.strip())
        ink = ink.united(tight.translated(left, baseline + shift))
    return ink


def text_ink(item: QtWidgets.QGraphicsTextItem) -> QtCore.QRectF:
    """Scene rectangle of the ink of ``item``'s lines (empty for no text): each line's
    glyphs measured in the font its text is set in (a span's, not the item's); a line
    with sub- or superscripts run by run, as drawn (:func:`_line_ink`)."""
    document = item.document()
    ink = QtCore.QRectF()
    block = document.begin()
    while block.isValid():
        layout = block.layout()
        origin = document.documentLayout().blockBoundingRect(block).topLeft()
        scripted = _scripted_fragments(block)
        for i in range(layout.lineCount()):
            line = layout.lineAt(i)
            if scripted:
                ink = ink.united(_line_ink(line, scripted).translated(origin))
                continue
            text = block.text()[line.textStart() : line.textStart() + line.textLength()]
            stripped = text.strip()
            if not stripped:
                continue
            lead = len(text) - len(text.lstrip())
            font = _font_at(block, line.textStart() + lead, document.defaultFont())
            metrics = QtGui.QFontMetricsF(font)
            tight = metrics.tightBoundingRect(stripped)
            left = (
                origin.x() + line.naturalTextRect().left() + metrics.horizontalAdvance(text[:lead])
            )
            baseline = origin.y() + line.y() + line.ascent()
            ink = ink.united(tight.translated(left, baseline))
        block = block.next()
    if ink.isEmpty():
        return QtCore.QRectF()
    return item.mapRectToScene(ink)


def tick_text_rects(axis: pg.AxisItem) -> list[tuple[str, QtCore.QRectF]]:
    """``(text, scene rectangle of its ink)`` of each tick label ``axis`` draws now."""
    if not shown(axis) or not axis.style.get("showValues", True):
        return []
    picture = QtGui.QPicture()
    painter = QtGui.QPainter(picture)
    try:
        if axis.style["tickFont"]:
            painter.setFont(axis.style["tickFont"])
        specs = axis.generateDrawSpecs(painter)
        metrics = QtGui.QFontMetricsF(painter.font())
    finally:
        painter.end()
    if specs is None:
        return []
    out = []
    for rect, flags, text in specs[2]:
        box = metrics.boundingRect(QtCore.QRectF(rect), int(flags), text)
        ink = metrics.tightBoundingRect(text).translated(box.left(), box.top() + metrics.ascent())
        out.append((text, axis.mapRectToScene(ink)))
    return out


def axis_title_rect(axis: pg.AxisItem) -> QtCore.QRectF | None:
    """Scene rectangle of the ink of the axis title's lines (``None`` when none shows)."""
    if not shown(axis) or not axis.label.isVisible() or not axis.labelText:
        return None
    rect = text_ink(axis.label)
    return None if rect.isEmpty() else rect


def title_rect(plot: pg.PlotItem) -> QtCore.QRectF | None:
    """Scene rectangle of the ink of ``plot``'s title (``None`` when none shows)."""
    title = plot.titleLabel
    if not shown(title) or not title.text or title.maximumHeight() == 0:
        return None
    rect = text_ink(title.item)
    return None if rect.isEmpty() else rect


def drawn_legend(legend: pg.LegendItem, strip_axis: pg.AxisItem) -> QtCore.QRectF:
    """Scene rectangle of what is drawn of ``legend``: its strip axis clips it."""
    rect = legend.sceneBoundingRect()
    clips = strip_axis.flags() & strip_axis.GraphicsItemFlag.ItemClipsChildrenToShape
    if legend.parentItem() is strip_axis and clips:
        box = strip_axis.mapRectToScene(
            QtCore.QRectF(0, 0, strip_axis.width(), strip_axis.height())
        )
        rect = rect.intersected(box)
    return rect


def legend_ink(legend: pg.LegendItem) -> QtCore.QRectF:
    """Scene rectangle of the legend's entries (samples and the ink of their labels)."""
    ink = QtCore.QRectF()
    for sample, label in legend.items:
        if sample.isVisible():
            ink = ink.united(sample.sceneBoundingRect())
        if label.isVisible():
            ink = ink.united(text_ink(label.item))
    return ink


# ---------------------------------------------------------------------- collection
def _panel_plots(widget: Any) -> Iterator[tuple[str, Any]]:
    """``(key, panel plot)`` of the plots the view shows now."""
    for key, panel_plot in widget.plots.items():
        if getattr(panel_plot, "panel", True) is not None and shown(panel_plot.plot):
            yield key, panel_plot


def text_boxes(widget: Any) -> list[Box]:
    """``(panel key, what, scene rect)`` of every text drawn on the view's canvas:
    titles, axis titles, tick labels (one box each), legends, colour-bar ticks and
    titles, the masked-cells key, tables and arrow labels."""
    boxes: list[Box] = []
    for key, panel_plot in _panel_plots(widget):
        plot = panel_plot.plot
        rect = title_rect(plot)
        if rect is not None:
            boxes.append((key, "title", rect))
        axes = [(name, plot.getAxis(name)) for name in ("left", "bottom", "right", "top")]
        colorbar = getattr(panel_plot, "colorbar", None)
        if colorbar is not None and shown(colorbar):
            axes.append(("colour bar", colorbar.axis))
        for name, axis in axes:
            rect = axis_title_rect(axis)
            if rect is not None:
                boxes.append((key, f"{name} axis title", rect))
            for text, tick in tick_text_rects(axis):
                boxes.append((key, f"{name} tick {text!r}", tick))
        legend = getattr(panel_plot, "legend", None)
        if legend is not None and shown(legend) and legend.items:
            boxes.append((key, "legend", legend_ink(legend)))
        key_item = getattr(panel_plot, "masked_key", None)
        if key_item is not None and shown(key_item):
            drawn = key_item.content_rect() if hasattr(key_item, "content_rect") else None
            rect = key_item.mapRectToScene(drawn) if drawn is not None else None
            boxes.append((key, "masked key", rect or key_item.sceneBoundingRect()))
        table = getattr(panel_plot, "table", None)
        if table is not None and shown(table):
            boxes.append((key, "table", table.sceneBoundingRect()))
        for label in getattr(panel_plot, "text_labels", []):
            if shown(label):
                boxes.append(
                    (key, f"label {label.textItem.toPlainText()!r}", label.sceneBoundingRect())
                )
    return [box for box in boxes if not box[2].isEmpty()]


# ---------------------------------------------------------------------- findings
def _where(widget: Any, key: str) -> str:
    return f"{widget.spec.view_id}/{key}" if hasattr(widget, "spec") else key


def _plot_problems(widget: Any, key: str, panel_plot: Any) -> list[str]:
    """One plot's own problems: an elided or too wide title, axis titles outside the
    plot or over its tick labels or data, a legend over the data, cut by its strip,
    outside its plot, or with entries outside it."""
    problems: list[str] = []
    where = _where(widget, key)
    plot = panel_plot.plot
    plot_rect = plot.sceneBoundingRect()
    vb_rect = plot.getViewBox().sceneBoundingRect()
    title = title_rect(plot)
    if title is not None:
        text = plot.titleLabel.text
        if ELLIPSIS in QtGui.QTextDocumentFragment.fromHtml(text).toPlainText():
            problems.append(f"{where}: title elided {text[:60]!r}")
        if not inside(title, plot_rect):
            problems.append(
                f"{where}: title {title.width():.0f} px wide, outside its plot "
                f"({plot_rect.width():.0f} px wide)"
            )
    for name in ("left", "bottom"):
        axis = plot.getAxis(name)
        rect = axis_title_rect(axis)
        if rect is None:
            continue
        if not inside(rect, plot_rect):
            problems.append(f"{where}: {name} axis title outside its plot")
        if any(overlap(rect, tick) for _text, tick in tick_text_rects(axis)):
            problems.append(f"{where}: {name} axis title overlaps a tick label")
        if overlap(rect, vb_rect):
            problems.append(f"{where}: {name} axis title over the data")
    legend = getattr(panel_plot, "legend", None)
    if legend is None:
        return problems
    if not shown(legend):
        problems.append(f"{where}: legend not shown")
        return problems
    drawn = drawn_legend(legend, plot.getAxis("top"))
    if overlap(drawn, vb_rect):
        problems.append(f"{where}: legend drawn over the data")
    legend_rect = legend.sceneBoundingRect()
    if not inside(legend_rect, drawn):
        problems.append(
            f"{where}: legend cut by its strip ({legend_rect.width():.1f} px wide, "
            f"strip {drawn.width():.1f})"
        )
    if not inside(legend_rect, plot_rect):
        problems.append(f"{where}: legend outside its plot")
    for _sample, label in legend.items:
        if not inside(label.sceneBoundingRect(), legend_rect):
            problems.append(f"{where}: legend entry {label.text!r} outside its legend")
    return problems


def unlabelled_indices(widget: Any) -> list[str]:
    """Small grids (at most 16 × 16 cells, whole-number coordinates, no ticks of their
    own) whose rows or columns are not each labelled with their index, in order: the
    course prints a small grid with every index (pyqtgraph's spacing labelled a 12 × 12
    grid 0, 2, 5, 7, 10), and its values in the cells."""
    problems = []
    for key, panel_plot in _panel_plots(widget):
        panel = panel_plot.panel
        if getattr(panel, "kind", None) != "heatmap" or np.ndim(panel.image) != 2:
            continue
        rows, cols = np.shape(panel.image)
        plot = panel_plot.plot
        for name, count, coords, ticks in (
            ("bottom", cols, panel.x_coords, panel.x_ticks),
            ("left", rows, panel.y_coords, panel.y_ticks),
        ):
            values = np.arange(count) if coords is None else np.asarray(coords, float)
            if ticks or not 1 < count <= 16 or not np.all(values == np.round(values)):
                continue
            drawn = [text for text, _rect in tick_text_rects(plot.getAxis(name))]
            if drawn != [str(int(v)) for v in values]:
                view = plot.getViewBox()
                cell = (view.width() if name == "bottom" else view.height()) / count
                problems.append(
                    f"{_where(widget, key)}: {name} axis labels {' '.join(drawn)}, "
                    f"not every index ({count} cells, {cell:.1f} px each)"
                )
    return problems


def wider_than_port(widget: Any) -> list[str]:
    """The view's scrolled body when it is wider than its scroll area's viewport: the
    view never scrolls sideways, so its right part (text and plots) is cut off (scene
    20 at 1280 × 720 / 300 % windowed: a heading that could not break made the body
    722 px wide in a 620 px viewport; each label fitted its own rectangle)."""
    area = getattr(widget, "scroll_area", None)
    if area is None or area.widget() is None or not area.isVisible():
        return []
    body = area.widget()
    port = area.viewport().width()
    if body.width() <= port + TOL:
        return []
    return [
        f"{_where(widget, 'body')}: {body.width()} px wide in a {port} px viewport, "
        "its right part cut off"
    ]


def text_lines(label: QtWidgets.QLabel) -> tuple[float, float, int]:
    """``(top of the first line, line spacing, lines)`` of ``label``'s text in its own
    pixels: its wrapped text's height at its width, placed in its contents by its
    vertical alignment (a label held taller than its text centres it by default)."""
    rect = label.contentsRect()
    spacing = float(QtGui.QFontMetricsF(label.font()).lineSpacing())
    text_h = float(label.heightForWidth(label.width())) if label.wordWrap() else -1.0
    if text_h <= 0:
        text_h = float(label.sizeHint().height())
    margins = label.contentsMargins()
    text_h = max(min(text_h - margins.top() - margins.bottom(), rect.height()), spacing)
    align = label.alignment()
    top = float(rect.top())
    if align & QtCore.Qt.AlignmentFlag.AlignBottom:
        top = rect.bottom() + 1 - text_h
    elif not align & QtCore.Qt.AlignmentFlag.AlignTop:  # centred (the default)
        top = rect.top() + (rect.height() - text_h) / 2
    return top, spacing, max(round(text_h / spacing), 1)


def cut_by_fold(widget: Any) -> list[str]:
    """The view's text lines below its canvas (the notes line) that the bottom edge of
    its scroll area's viewport cuts as scrolled now: a line half-shown (at 1920 × 1080 /
    150 % on the stage deck scenes 9, 10, 17 and 18 showed half a notes line; lines
    wholly below the edge are not cut, nor text above the grid: an explanation taller
    than a small window scrolls anyway)."""
    area = getattr(widget, "scroll_area", None)
    if area is None or not area.isVisible():
        return []
    port = area.viewport()
    fold = float(port.height())
    canvas = getattr(widget, "canvas", None)
    problems = []
    for label in port.findChildren(QtWidgets.QLabel):
        if not label.isVisible() or not label.text() or label.height() <= 0:
            continue
        y0 = float(label.mapTo(port, QtCore.QPoint(0, 0)).y())
        if canvas is not None and (
            canvas.isAncestorOf(label) or y0 < canvas.mapTo(port, QtCore.QPoint(0, 0)).y()
        ):
            continue  # (a text above the grid taller than the screen scrolls anyway)
        top, spacing, lines = text_lines(label)
        for i in range(lines):
            a = y0 + top + i * spacing
            b = a + spacing
            if a + TOL < fold < b - TOL:
                name = label.objectName() or type(label).__name__
                problems.append(
                    f"{_where(widget, name)}: line {i + 1} of {lines} cut by the bottom "
                    f"edge ({fold - a:.0f} of {spacing:.0f} px shown)"
                )
    return problems


def overlapping(boxes: Iterable[Box]) -> list[tuple[Box, Box]]:
    """Pairs of ``boxes`` that overlap (:func:`overlap`), in the order of a loop over
    every pair ``(i, j)``, ``i < j``: all pairs at once (a view has 100-200 text boxes,
    up to 20 000 pairs; one :func:`overlap` call a pair was most of a check's time).
    Each rectangle shrunk by :data:`TOL`, then ``QRectF.intersects``' rule: a rectangle
    of zero width or height meets nothing, and a negative size extends to the left (up)."""
    boxes = list(boxes)
    if len(boxes) < 2:
        return []
    rects = np.array([b[2].adjusted(TOL, TOL, -TOL, -TOL).getRect() for b in boxes])
    x, y, w, h = rects.T
    left, right = np.where(w < 0, x + w, x), np.where(w < 0, x, x + w)
    top, bottom = np.where(h < 0, y + h, y), np.where(h < 0, y, y + h)
    real = ~((left == right) | (top == bottom))
    meet = ~(
        (left[:, None] >= right[None, :])
        | (left[None, :] >= right[:, None])
        | (top[:, None] >= bottom[None, :])
        | (top[None, :] >= bottom[:, None])
    )
    meet &= real[:, None] & real[None, :]
    first, second = np.nonzero(np.triu(meet, k=1))  # (row by row: i, then j > i)
    return [(boxes[i], boxes[j]) for i, j in zip(first.tolist(), second.tolist(), strict=True)]


def layout_problems(widget: Any) -> list[str]:
    """Everything cut, elided or overlapping on the view's canvas, one line each: each
    plot's own problems (see :func:`_plot_problems`) and any two text boxes of the
    canvas (:func:`text_boxes`, across plots too) that overlap, and small grids not
    labelled with every index (:func:`unlabelled_indices`), a view body wider than its
    scroll area's viewport (:func:`wider_than_port`), and notes lines below the canvas
    cut by the bottom edge of the view's scroll area (:func:`cut_by_fold`)."""
    problems: list[str] = []
    for key, panel_plot in _panel_plots(widget):
        problems += _plot_problems(widget, key, panel_plot)
    for (key_a, what_a, a), (key_b, what_b, b) in overlapping(text_boxes(widget)):
        inter = a.intersected(b)
        problems.append(
            f"{_where(widget, key_a)} {what_a} overlaps {_where(widget, key_b)} {what_b} "
            f"({inter.width():.1f} x {inter.height():.1f} px)"
        )
    return problems + unlabelled_indices(widget) + wider_than_port(widget) + cut_by_fold(widget)


# ---------------------------------------------------------------------- widgets
def _checked_widgets(root: QtWidgets.QWidget) -> Iterator[QtWidgets.QWidget]:
    """The labels, spin boxes, line edits, combo boxes and buttons under ``root`` that are
    shown: visible, not inside a dock tabbed behind another (Qt moves it out of the
    window), not Qt's own parts of a widget (a spin box's line edit, a dock's title
    buttons: ``qt_`` names) and not a line edit of a spin or combo box (checked there)."""
    kinds = (
        QtWidgets.QLabel,
        QtWidgets.QAbstractSpinBox,
        QtWidgets.QLineEdit,
        QtWidgets.QComboBox,
        QtWidgets.QPushButton,
        QtWidgets.QToolButton,
        QtWidgets.QCheckBox,
        QtWidgets.QRadioButton,
    )
    for child in root.findChildren(QtWidgets.QWidget):
        if not isinstance(child, kinds) or not child.isVisible() or child.isWindow():
            continue
        if child.objectName().startswith("qt_"):
            continue
        parent = child.parentWidget()
        if isinstance(child, QtWidgets.QLineEdit) and isinstance(
            parent, QtWidgets.QAbstractSpinBox | QtWidgets.QComboBox
        ):
            continue
        hidden = False
        while parent is not None and parent is not root:
            if isinstance(parent, QtWidgets.QDockWidget) and parent.visibleRegion().isEmpty():
                hidden = True  # (tabbed behind another dock)
                break
            parent = parent.parentWidget()
        if not hidden:
            yield child


def _plain(text: str) -> str:
    """``text`` as shown (rich text's tags dropped, a button's ``&`` mnemonic too)."""
    if "<" in text:
        return QtGui.QTextDocumentFragment.fromHtml(text).toPlainText()
    return text


def _widget_name(widget: QtWidgets.QWidget, text: str) -> str:
    name = widget.objectName() or type(widget).__name__
    short = text if len(text) <= 40 else text[:37] + "..."
    return f"{name} {short!r}" if text else name


def _label_problems(label: QtWidgets.QLabel) -> list[str]:
    """A label shorter than its font's line (ascent + descent: the descenders of
    "rope_theta" cut) or than its text needs at its width (``heightForWidth`` wrapped,
    ``sizeHint`` otherwise), or narrower than its unwrapped text (cut, not elided)."""
    text = label.text()
    if not text or label.width() <= 0 or label.height() <= 0:
        return []
    plain = _plain(text)
    where = _widget_name(label, plain)
    metrics = QtGui.QFontMetrics(label.font())
    rect = label.contentsRect()
    problems = []
    line = metrics.ascent() + metrics.descent()
    if rect.height() + TOL < line:
        problems.append(f"label {where} {rect.height()} px high, its line {line} px")
    wrapped = label.wordWrap()
    need = label.heightForWidth(label.width()) if wrapped else label.sizeHint().height()
    if need > label.height() + TOL and rect.height() + TOL >= line:
        problems.append(f"label {where} {label.height()} px high, its text needs {need} px")
    if not label.wordWrap():
        hint = label.sizeHint().width()
        if hint > label.width() + TOL:
            problems.append(f"label {where} {label.width()} px wide, its text needs {hint} px")
    elif label.width() + TOL < label.minimumSizeHint().width():
        problems.append(
            f"label {where} {label.width()} px wide, its longest word needs "
            f"{label.minimumSizeHint().width()} px"
        )
    return problems


def combo_field_width(combo: QtWidgets.QComboBox) -> int:
    """The width of ``combo``'s text field: its width less its frame and arrow, in its
    style."""
    option = QtWidgets.QStyleOptionComboBox()
    combo.initStyleOption(option)
    field = combo.style().subControlRect(
        QtWidgets.QStyle.ComplexControl.CC_ComboBox,
        option,
        QtWidgets.QStyle.SubControl.SC_ComboBoxEditField,
        combo,
    )
    return field.width()


def _shown_text(widget: QtWidgets.QWidget) -> tuple[str, int]:
    """The text a field or button shows and the room it has for it (px), or ``("", 0)``:
    a spin box's or line edit's text in its edit's text area, a combo box's current
    text in its edit field."""
    if isinstance(widget, QtWidgets.QAbstractSpinBox):
        edit = widget.findChild(QtWidgets.QLineEdit)
        if edit is None:
            return "", 0
        widget = edit
    if isinstance(widget, QtWidgets.QLineEdit):
        margins = widget.textMargins()
        room = widget.contentsRect().width() - margins.left() - margins.right() - 4
        return widget.displayText(), room  # (QLineEdit keeps 2 px each side)
    if isinstance(widget, QtWidgets.QComboBox) and not widget.isEditable():
        room = combo_field_width(widget) - 2  # (the label is drawn 1 px in from each side)
        if not widget.itemIcon(widget.currentIndex()).isNull():
            room -= widget.iconSize().width() + 4
        return widget.currentText(), room
    return "", 0


def shown_size(widget: QtWidgets.QWidget, root: QtWidgets.QWidget) -> QtCore.QSize:
    """The size of the part of ``widget`` its parents up to ``root`` show: each parent
    clips it (a strip placed by hand past the stage's edge), except a scroll area's
    viewport (the rest is scrolled to). Its own size where nothing clips it."""
    rect = QtCore.QRect(QtCore.QPoint(0, 0), widget.size())
    child, parent = widget, widget.parentWidget()
    while parent is not None:
        rect = rect.translated(child.pos())
        area = parent.parentWidget()
        if isinstance(area, QtWidgets.QAbstractScrollArea) and area.viewport() is parent:
            break
        rect = rect.intersected(parent.rect())
        if parent is root:
            break
        child, parent = parent, parent.parentWidget()
    return rect.size() if not rect.isEmpty() else QtCore.QSize(0, 0)


def widget_problems(root: QtWidgets.QWidget) -> list[str]:
    """The labels, fields and buttons under ``root`` (the window: its docks, the stage
    and the on-stage parameter strip) that a lecturer cannot read whole, one line each:
    a label cut (:func:`_label_problems`); a field or button squeezed below its
    ``minimumSizeHint`` (at 200 % on 1920 x 1080 the strip squeezed the "Query position
    m" field to 22 px of its 39, one digit showing); a field's text wider than its room
    (a spin box, line edit or combo box shows it cut, not elided)."""
    problems = []
    for widget in _checked_widgets(root):
        size = shown_size(widget, root)
        if size != widget.size() and not size.isEmpty():
            text = str(getattr(widget, "text", str)())
            problems.append(
                f"cut: {_widget_name(widget, _plain(text))} {widget.width()}x"
                f"{widget.height()} px, its parents show {size.width()}x{size.height()}"
            )
        if isinstance(widget, QtWidgets.QLabel):
            problems += _label_problems(widget)
            continue
        text, room = _shown_text(widget)
        if isinstance(widget, QtWidgets.QAbstractButton):
            text = widget.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
        where = _widget_name(widget, text)
        need = widget.minimumSizeHint()
        if need.isValid() and (
            widget.height() + TOL < need.height() or widget.width() + TOL < need.width()
        ):
            problems.append(
                f"squeezed: {where} {widget.width()}x{widget.height()} px, its minimum "
                f"{need.width()}x{need.height()}"
            )
        if room > 0 or isinstance(widget, QtWidgets.QLineEdit | QtWidgets.QAbstractSpinBox):
            wide = QtGui.QFontMetrics(widget.font()).horizontalAdvance(text) if text else 0
            if wide > room + TOL:
                problems.append(f"text cut: {where} text {wide} px wide in {room} px")
    return problems
