"""Compare's summary table fits the stage (issue 15, task 2): on stage its text is drawn
as large as lets the whole table (title included) be seen in the stage's height, never
below a size read from the back row. Before, it was 1 422 px high in a 720 px stage at
1280 x 720 / 200 % and 2 057 px in 1 080 px at 1920 x 1080 / 300 %: it scrolled, and the
audience never saw it whole."""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtGui
from tiers import FULL, gate_cover

SIZES = [(1280, 720), (1920, 1080)]
SCALES = [1.5, 2.0, 3.0]
FLOOR_PT = 12.0  # the smallest table text the stage may show at these sizes (16 px)
TOL = 1.0


@pytest.fixture(scope="module")
def studio(open_window):
    with open_window(1280, 720) as win:
        yield win


def _rows(plot) -> list[tuple[str, QtCore.QRectF, float]]:
    """Each row of the table (its first cell's text), its rectangle in the scene and
    the point size of its text."""
    text = plot.table.textItem
    document = text.document()
    (table,) = [f for f in document.rootFrame().childFrames() if isinstance(f, QtGui.QTextTable)]
    out = []
    for r in range(table.rows()):
        cursor = table.cellAt(r, 0).firstCursorPosition()
        cursor.movePosition(QtGui.QTextCursor.MoveOperation.NextCharacter)
        block = cursor.block()
        rect = document.documentLayout().blockBoundingRect(block)
        pt = cursor.charFormat().font().pointSizeF()
        out.append((block.text(), text.mapRectToScene(rect), pt))
    return out


@pytest.mark.parametrize("size", gate_cover(SIZES, keep=[SIZES[0]]), ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_compare_table_is_seen_whole_on_stage(studio, show_view, size):
    problems = []
    for scale in SCALES:
        widget = show_view(studio, "compare", size, scale, present=True)
        plot = widget.plots["table"]
        viewport = widget.scroll_area.viewport().height()
        where = f"{size[0]}x{size[1]} {scale:.0%}"
        height = plot.plot.sceneBoundingRect().height()
        if height > viewport:
            problems.append(f"{where}: table {height:.0f} px in a {viewport} px stage")
        rows = _rows(plot)
        assert len(rows) == 9  # the header and the eight methods
        smallest = min(pt for _name, _rect, pt in rows)
        if smallest < FLOOR_PT:
            problems.append(f"{where}: table text {smallest} pt")
        box = plot.plot.getViewBox().sceneBoundingRect()
        cut = [name for name, rect, _pt in rows if rect.bottom() > box.bottom() + TOL]
        if cut:
            problems.append(f"{where}: rows cut off: {cut}")
        # scrolled to the table, all of it is on screen at once
        area = widget.scroll_area
        top = widget.canvas.mapFromScene(plot.plot.sceneBoundingRect().topLeft())
        area.verticalScrollBar().setValue(widget.canvas.mapTo(area.widget(), top).y())
        for name, rect, _pt in rows:
            for corner in (rect.topLeft(), rect.bottomLeft() - QtCore.QPointF(0, TOL)):
                shown = widget.canvas.mapTo(area.viewport(), widget.canvas.mapFromScene(corner))
                if not area.viewport().rect().contains(shown):
                    problems.append(f"{where}: row {name!r} off screen at {shown}")
                    break
        area.verticalScrollBar().setValue(0)
    assert problems == []


@FULL
def test_the_table_keeps_its_full_size_outside_the_stage(studio, show_view):
    """In the window (preparing the lecture) the table is drawn at its full size: 10 pt
    at 100 %, 20 pt at 200 %."""
    widget = show_view(studio, "compare", (1280, 720), 2.0, present=False)
    assert {pt for _name, _rect, pt in _rows(widget.plots["table"])} == {20.0}


def test_table_cells_break_between_words_not_inside_them(qapp):
    """Laid out in narrow columns, Compare's table breaks its cells' lines at spaces,
    after the punctuation inside a long word or at a syllable (soft hyphen), never
    between two letters: Qt broke a word wider than its column anywhere, "max_position"
    / "s × d table" and "max_distanc" / "e share one bucket" on stage at 150 %."""
    from core.viewdata import ComputeContext
    from core.views import compute_view, get_view
    from gui.plotting.panel_extras import _Table, _table_markup
    from gui.plotting.word_breaks import ZERO_WIDTH_SPACE
    from gui.theme import current_theme

    defaults = get_view("compare").model.defaults()
    data = compute_view("compare", defaults, ComputeContext())
    (panel,) = [p for p in data.panels if p.kind == "table"]
    document = QtGui.QTextDocument()
    table = _Table.of(panel, current_theme())
    document.setHtml(_table_markup(table, 12.0))
    document.setTextWidth(700.0)  # six columns of ~115 px: long words must break
    assert document.size().height() > 0  # (laid out now)
    inside, breaks = [], 0
    block = document.begin()
    while block.isValid():
        layout, text = block.layout(), block.text()
        for i in range(layout.lineCount() - 1):
            end = layout.lineAt(i).textStart() + layout.lineAt(i).textLength()
            before, after = text[end - 1], text[end]
            breaks += 1
            if before.isalnum() and after.isalnum():
                inside.append(f"{text[:end]} / {text[end:]}")
        block = block.next()
    assert breaks > 20  # (the narrow columns did wrap)
    assert not inside
    assert any(f"max_{ZERO_WIDTH_SPACE}" in cell for row in table.rows for cell in row)


def test_a_new_frame_of_the_same_table_is_not_broken_and_marked_up_again(qapp, monkeypatch):
    """Each frame of a drag shows a new panel of Compare's table with the same cells:
    its table and rich text are the ones made for the first (no cell broken again);
    other cells, or another theme's colours, make their own."""
    from dataclasses import replace

    from core.viewdata import ComputeContext
    from core.views import compute_view, get_view
    from gui.plotting import panel_extras
    from gui.theme import current_theme

    broken: list[str] = []
    cell_text = panel_extras._cell_text
    monkeypatch.setattr(panel_extras, "_cell_text", lambda t: broken.append(t) or cell_text(t))
    panel_extras._table_of.cache_clear()
    values = get_view("compare").model.defaults()
    theme = current_theme()

    def table_of(seq_len: int) -> panel_extras._Table:
        data = compute_view("compare", {**values, "seq_len": seq_len}, ComputeContext())
        (panel,) = [p for p in data.panels if p.kind == "table"]
        return panel_extras._Table.of(panel, theme)

    first = table_of(60)
    cells = len(broken)
    assert cells > 40  # (each cell broken once)
    again = table_of(61)  # another frame, the same cells
    assert again is first and len(broken) == cells
    assert panel_extras._table_markup(again, 12.0) is panel_extras._table_markup(first, 12.0)
    data = compute_view("compare", {**values, "seq_len": 60}, ComputeContext())
    (panel,) = [p for p in data.panels if p.kind == "table"]
    other = replace(panel, rows=[[*row[:-1], row[-1] + " (x)"] for row in panel.rows])
    changed = panel_extras._Table.of(other, theme)
    assert changed != first and changed.rows[0][-1].endswith("(x)")
    dark = panel_extras._Table.of(panel, replace(theme, foreground="#fefefe"))
    assert dark.foreground == "#fefefe" and dark.rows == first.rows


def test_a_fitted_table_uses_the_room_between_two_coarse_steps(qapp):
    """A table fitted to a room that its size at one coarse step (a twentieth of its
    full size) overfills was drawn a whole step smaller: the lecture's table alone on
    a 1920 x 1080 stage stepped down by 1.2 pt at 150 %. It grows back in quarter
    points while it fits."""
    from core.viewdata import ComputeContext
    from core.views import compute_view, get_view
    from gui.plotting.panel_extras import TABLE_PT_FINE, _fitted_pt, _Table, _table_markup
    from gui.theme import current_theme

    defaults = get_view("compare").model.defaults()
    data = compute_view("compare", defaults, ComputeContext())
    (panel,) = [p for p in data.panels if p.kind == "table"]
    table = _Table.of(panel, current_theme())
    font = QtGui.QFont().toString()

    def height(pt: float) -> float:
        document = QtGui.QTextDocument()
        document.setHtml(_table_markup(table, pt))
        document.setTextWidth(1200.0)
        return document.size().height()

    full, floor, top = 24, 10.8, 48.0  # a lone table at 150 %: steps of 1.2 pt
    # Qt draws whole-pixel fonts: the largest quarter point between the floor and the
    # next coarse step (12 pt) that lays the table out lower than that step does
    fine = [10.8 + TABLE_PT_FINE * i for i in range(1, 5)]
    lower = [pt for pt in fine if height(floor) < height(pt) < height(12.0)]
    assert lower, [height(pt) for pt in [floor, *fine, 12.0]]
    room = height(lower[-1])
    pt = _fitted_pt(table, full, floor, room, 1200.0, font, top)
    assert pt == pytest.approx(lower[-1]), (pt, lower)
