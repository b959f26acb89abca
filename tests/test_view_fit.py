"""Layout that fits the scale (issue 14 item 3): the plot grid drops to fewer columns
when plots would get too small, the view scrolls when even those do not fit, plot
titles wrap instead of being elided, and every row of a table can be reached. One
window for the module; geometry only (offscreen), no timing."""

from __future__ import annotations

import pytest
from call_count import count_calls
from PySide6 import QtCore, QtGui, QtWidgets
from tiers import FULL, gate_cover

from core.viewdata import ComputeContext
from core.views import VIEW_IDS, compute_view, get_view
from gui.plotting.layout_check import layout_problems
from gui.widgets.grid_flow import (
    balance_rows,
    columns_for,
    fits_columns,
    flow_grid,
    grid_columns,
    keeps_rows,
    min_panel_size,
    weighted_widths,
)
from gui.widgets.view_widget import TABLE_PAD, grid_position, grid_positions

SIZES = ((1280, 720), (1920, 1080), (3840, 2160))
SCALES = (1.0, 2.0, 3.0)
TOL = 1.0


def _positions(view_id: str) -> dict[str, tuple[int, int, int, int]]:
    data = compute_view(view_id, get_view(view_id).model.defaults(), ComputeContext())
    return {p.key: (p.row, p.col, p.row_span, p.col_span) for p in data.panels}


# ---------------------------------------------------------------------- pure flow
@pytest.mark.parametrize("view_id", VIEW_IDS)
def test_every_view_flows_into_fewer_columns_without_overlap(view_id):
    own = _positions(view_id)
    grid = grid_columns(own)
    assert flow_grid(own, grid) == own
    for columns in range(1, grid):
        flowed = flow_grid(own, columns)
        assert set(flowed) == set(own)
        cells: dict[tuple[int, int], str] = {}
        for key, (row, col, rs, cs) in flowed.items():
            assert rs >= 1 and cs >= 1 and col + cs <= columns, (columns, key)
            for r in range(row, row + rs):
                for c in range(col, col + cs):
                    assert (r, c) not in cells, (columns, key, cells.get((r, c)))
                    cells[(r, c)] = key


def test_small_multiples_keep_their_rows_and_wide_panels_stay_wide():
    own = _positions("permutation")  # a 3 x 3 matrix of heatmaps, a column beside it
    flowed = flow_grid(own, 3)
    for key in ("weights_a_none", "weights_b_none", "diff_none", "diff_pe"):
        assert flowed[key] == own[key]  # the matrix stays as it is
    assert flowed["layers"][0] >= 3 and flowed["nope"][0] >= 3  # below it
    compare = flow_grid(_positions("compare"), 2)
    assert compare["table"][1:] == (0, 1, 2)  # as wide as the grid, below the plots
    assert compare["table"][0] > max(p[0] for k, p in compare.items() if k != "table")
    single = flow_grid(_positions("sinusoidal"), 1)
    order = sorted(single, key=lambda k: single[k][0])
    assert order == ["waves", "heatmap", "similarity", "wavelength", "sum", "terms"]


def test_one_column_keeps_a_side_column_after_the_grid():
    """Stacked in one column (a 1600 x 1000 window at 150 % or 200 %), Word order reads
    its conditions row by row and its NoPE plots after them: the layer plot (two rows
    tall beside the 3 x 3 grid) came between the no-positions row and the causal-mask
    one. Views whose last column follows their rows keep plain reading order."""
    flowed = flow_grid(_positions("permutation"), 1)
    order = sorted(flowed, key=lambda k: flowed[k][0])
    rows = [
        f"{kind}_{tag}"
        for tag in ("none", "causal", "pe")
        for kind in ("weights_a", "weights_b", "diff")
    ]
    assert order == [*rows, "layers", "nope"]
    for view_id in ("clock", "rope", "relative"):
        own = _positions(view_id)
        single = flow_grid(own, 1)
        assert sorted(single, key=lambda k: single[k][0]) == sorted(own, key=lambda k: own[k][:2])


def test_a_last_single_column_becomes_one_row_of_the_stage():
    """Issue 14 (d): Word order's layer plots (a column beside its 3 x 3 matrix) were
    stacked below it at full width in three rows of the 200 % stage (the layer plot
    spanned two), RoPE clock's slow hands and Relative's bucket curves in two: a
    leftover column of no more panels than columns now reads left to right in one row."""
    perm = flow_grid(_positions("permutation"), 3)
    assert perm["layers"][0] == perm["nope"][0] > 2  # one row, below the matrix
    assert perm["layers"][2] == perm["nope"][2] == 1
    assert perm["layers"][1] == 0 and perm["layers"][3] + perm["nope"][3] == 3
    for view_id, keys in (
        ("relative", ("t5_curve", "deberta_buckets")),
        ("clock", ("hand2", "hand3")),
    ):
        flowed = flow_grid(_positions(view_id), 3)
        assert flowed[keys[0]][0] == flowed[keys[1]][0], (view_id, flowed)
    assert flow_grid(_positions("compare"), 3)["biases"][1:] == (0, 1, 3)  # one: stretched


def test_columns_fall_as_the_legible_plot_grows():
    widths = [min_panel_size(s)[0] for s in SCALES]
    assert widths == sorted(widths) and widths[0] < widths[-1]
    counts = [columns_for(1500, 4, w) for w in widths]
    assert counts == sorted(counts, reverse=True) and counts[0] == 4 and counts[-1] < 4
    assert columns_for(100, 4, 500) == 1  # never none
    assert min_panel_size(2.0, presenting=True)[0] > min_panel_size(2.0)[0]


# ---------------------------------------------------------------------- the window
def _columns(widget) -> int:
    """Plot columns shown: the distinct left edges of the plots."""
    return len({round(p.plot.geometry().x()) for p in widget.plots.values()})


def _scroll_area(widget) -> QtWidgets.QScrollArea | None:
    """The scroll area the view's canvas sits in, if any."""
    parent = widget.canvas.parentWidget()
    while parent is not None and not isinstance(parent, QtWidgets.QScrollArea):
        parent = parent.parentWidget()
    return parent


def _problems(widget, min_w: float, min_h: float) -> list[str]:
    """Elided or overflowing titles, plots below the legible size, cut table rows."""
    out = []
    for key, plot in widget.plots.items():
        item = plot.plot
        if not item.isVisible():
            continue
        rect = item.geometry()
        if rect.height() < 0.9 * min_h or rect.width() < 0.45 * min_w:
            out.append(f"{key} squeezed to {rect.width():.0f}x{rect.height():.0f}")
        title = item.titleLabel
        if "…" in title.text or title.item.boundingRect().width() > rect.width() + TOL:
            out.append(f"{key} title does not fit: {title.text!r}")
        if plot.table is not None:
            box = item.getViewBox().sceneBoundingRect()
            text = plot.table.textItem
            table = text.mapRectToScene(text.boundingRect())
            if table.bottom() > box.bottom() + TOL:
                out.append(
                    f"{key}: table rows cut off ({table.height():.0f} px in {box.height():.0f})"
                )
    if widget.canvas.height() + TOL < widget.canvas.minimumHeight():
        out.append("canvas lower than its rows need")
    return out


@pytest.mark.parametrize("size", gate_cover(SIZES, keep=[SIZES[0]]), ids=lambda s: f"{s[0]}x{s[1]}")
def test_compare_fits_every_scale(studio, show_view, size):
    """Compare at 100/200/300 %: no title elided, every plot legible (else fewer columns
    and a scroll bar), every table row reachable; the columns fall as the scale rises.
    On main at 200 % the plots were squeezed to a few px and the table showed one row."""
    problems, columns = [], []
    for scale in SCALES:
        widget = show_view(studio, "compare", size, scale)
        min_w, min_h = min_panel_size(scale)
        problems += [f"{scale:.0%}: {p}" for p in _problems(widget, min_w, min_h)]
        columns.append(_columns(widget))
        area = _scroll_area(widget)
        if area is not None:  # everything the view holds can be scrolled to
            bar = area.verticalScrollBar()
            assert bar.maximum() + area.viewport().height() >= area.widget().height() - TOL
    assert problems == []
    assert columns == sorted(columns, reverse=True), columns
    if size[0] <= 1920:  # (at 3840 px even 300 % leaves room for four)
        assert columns[-1] < columns[0], columns


def test_table_rows_are_all_reachable_at_200_percent(studio, show_view):
    """Compare's Shaw and T5 rows (cut off at 200 % before) lie inside the table's plot,
    and scrolling the view brings them on screen."""
    widget = show_view(studio, "compare", (1920, 1080), 2.0, present=True)
    plot = widget.plots["table"]
    text = plot.table.textItem
    document = text.document()
    (table,) = [f for f in document.rootFrame().childFrames() if isinstance(f, QtGui.QTextTable)]
    rows = []
    for r in range(table.rows()):
        block = table.cellAt(r, 0).firstCursorPosition().block()
        if block.text().startswith(("Shaw", "T5")):
            rect = document.documentLayout().blockBoundingRect(block)
            rows.append(text.mapRectToScene(rect))
    assert len(rows) == 2
    box = plot.plot.getViewBox().sceneBoundingRect()
    for row in rows:
        assert box.contains(row), (row, box)
    area = _scroll_area(widget)
    assert area is not None
    for row in rows:
        top_left = widget.canvas.mapFromScene(row.topLeft())
        in_body = widget.canvas.mapTo(area.widget(), top_left)
        area.ensureVisible(in_body.x(), in_body.y() + int(row.height()), 0, 0)
        on_screen = widget.canvas.mapTo(area.viewport(), top_left)
        assert area.viewport().rect().contains(on_screen), on_screen
    area.verticalScrollBar().setValue(0)


@FULL
def test_word_order_row_titles_stay_at_200_percent(studio, show_view):
    """Word order at 200 %: the titles that say which row has positions are whole, and
    the grid drops to fewer columns (on main its plots were squeezed)."""
    widget = show_view(studio, "permutation", (1920, 1080), 2.0)
    assert _problems(widget, *min_panel_size(2.0)) == []
    assert _columns(widget) < 4
    for key, words in (("weights_a_none", "no positions"), ("weights_a_pe", "PE")):
        title = widget.plots[key].plot.titleLabel
        assert words in title.text.replace("<br>", " ")
        assert title.isVisible() and title.item.boundingRect().height() > 0


def test_focus_needs_no_scrolling_and_the_grid_comes_back(studio, show_view):
    widget = show_view(studio, "permutation", (1280, 720), 2.0)
    focus = studio.lecture.focus
    before = widget.canvas.minimumHeight()
    assert focus.focus("layers")
    assert studio.wait_idle(60)
    QtWidgets.QApplication.processEvents()
    assert widget.canvas.minimumHeight() < before
    assert focus.unfocus()
    assert studio.wait_idle(60)
    QtWidgets.QApplication.processEvents()
    assert widget.canvas.minimumHeight() == before


def test_presenting_prefers_fewer_columns(studio, show_view):
    # the window as much wider as its side dock: its stage is as wide as the stage's
    # (the dock is as wide as the widest view's parameters need, 498 px at 150 %: the
    # window's 1920 x 1080 stage was 1460 px wide only while RoPE and the clock had not
    # been opened; at 1410 px it has 3 columns, the stage 4)
    show_view(studio, "relative", (1920, 1080), 1.5)
    wide = 1920 + studio.width() - studio.stage.width()
    window = show_view(studio, "relative", (wide, 1080), 1.5)
    window_cols, window_width = _columns(window), studio.stage.width()
    present_cols = _columns(show_view(studio, "relative", (1920, 1080), 1.5, present=True))
    assert abs(studio.stage.width() - window_width) <= 2, (studio.stage.width(), window_width)
    # a stage as wide as the window's keeps no more columns (larger plots)
    assert present_cols <= window_cols
    assert QtCore.QSize(1920, 1080) == studio.size()


@FULL
def test_a_legend_with_many_entries_leaves_the_data_its_room(studio, show_view):
    """RoPE's frequency plot with YaRN names six curves (lecture deck scene 12): in a
    1280 x 720 window its legend strip left the data 0 px (a sliver at 1600 x 1000 with
    the deck dock open); the grid now adds the strip's height to the smallest legible
    plot (the view scrolls a little instead). Data now 158 px of a 180 px minimum."""
    show_view(studio, "rope", (1280, 720), 1.0)
    state = studio.states["rope"]
    assert state.set_param("scaling", "yarn", merge=False)
    try:
        widget = show_view(studio, "rope", (1280, 720), 1.0)
        plot = widget.plots["frequencies"]
        assert plot.legend is not None and len(plot.legend.items) >= 6
        min_h = widget.panel_size()[1]
        data_h = plot.plot.getViewBox().height()
        assert data_h >= 0.5 * min_h, (data_h, min_h)
        strip = plot.plot.getAxis("top").geometry().height()
        assert strip > 0 and data_h > strip  # the data, not the legend, fills the plot
    finally:
        state.reset()


# the gate: ALiBi with the report's 12 heads, RoPE, Compare; ALiBi with 8 heads with --full
@pytest.mark.parametrize(
    ("view_id", "heads"),
    gate_cover(
        [("alibi", 8), ("alibi", 12), ("rope", 0), ("compare", 0)],
        keep=[("alibi", 12), ("rope", 0), ("compare", 0)],
        unpack=True,
    ),
)
def test_legend_text_stays_legible_on_narrow_plots(studio, show_view, view_id, heads):
    """Issue 14 (a): a narrow plot with many legend entries kept its strip low by
    shrinking the text to 60 % (RoPE's course-vs-real plot, Compare's distance plot,
    ALiBi's softmax row with 12 heads at 1600 x 1000, 100 %), too small for the back
    row. The grid now gives each plot its legend's room at full size (and a wrapped
    title's lines): every legend is drawn at full size, at least 80 % in any case,
    and the data keeps a legible height under it."""
    show_view(studio, view_id, (1600, 1000), 1.0)
    state = studio.states[view_id]
    if view_id == "alibi":
        assert state.set_values({**state.values, "heads": heads, "head": 5})
    try:
        widget = show_view(studio, view_id, (1600, 1000), 1.0)
        min_h = widget.panel_size()[1]
        seen = 0
        for key, plot in widget.plots.items():
            legend = plot.legend
            if legend is None or not legend.items:
                continue
            seen += 1
            assert legend.scale() >= 0.8, (key, legend.scale())
            box = plot.plot.getViewBox()
            data_h = box.height()
            assert data_h >= 0.4 * min_h, (key, data_h, min_h)
            # no wider than the data (over the next plot's axis title)
            assert legend.sceneBoundingRect().width() <= box.width() + 1, key
        assert seen >= 2
    finally:
        state.reset()


@FULL
def test_compare_legends_fit_their_strips_on_stage_at_300_percent(studio, show_view, qtbot):
    """Compare at 1600 x 1000 presenting at 300 % (coming from 200 %): every legend lies
    within its strip and keeps its text at 80 % or more. The view's scroll bar arrives
    after the first paint and narrows the data by its width; the strips re-plan to it
    (from the event loop: measured in between, the extrapolation legend was 20 px wider
    than its strip)."""
    from gui.plotting.layout_check import layout_problems

    show_view(studio, "compare", (1600, 1000), 2.0, present=True)
    widget = show_view(studio, "compare", (1600, 1000), 3.0, present=True)
    for _ in range(3):  # axes learn their labels' sizes when painted, then re-lay out
        widget.canvas.grab()
        qtbot.wait(1)
    assert _scroll_area(widget).verticalScrollBar().isVisible()
    problems = [p for p in layout_problems(widget) if "legend" in p]
    for key, plot in widget.plots.items():
        legend = plot.legend
        if legend is None or not legend.items:
            continue
        strip = plot.plot.getAxis("top").sceneBoundingRect()
        drawn = legend.sceneBoundingRect()
        if drawn.width() > strip.width() + TOL:
            problems.append(f"{key}: legend {drawn.width():.0f} px, strip {strip.width():.0f}")
        if legend.scale() < 0.8:
            problems.append(f"{key}: legend text at {legend.scale():.0%}")
    assert problems == []


@FULL
def test_a_view_switched_to_is_laid_out_before_its_first_paint(studio, show_view):
    """Issue 14 item 3, seen as a flash: a view laid out in a wider window (three or
    more columns) and switched to after the window got narrower (two columns, 200 %)
    settled its rows only from the event loop, after its first paint: its axis titles
    (Word order's "queries" and "keys") overlapped their tick labels and its legends
    were cut by their strips until then, in the rows below the fold until scrolled to.
    The plots of a grid rebuilt in fewer columns were settled with the old plots'
    items, and the title re-fits deferred while the view was hidden waited for the
    loop. Checked as the first paint draws it: before any event is processed."""
    for view_id in ("permutation", "sinusoidal"):
        show_view(studio, view_id, (2400, 900), 2.0)
    studio.set_view("clock")  # both hidden while the window changes
    studio.resize(1280, 720)
    assert studio.wait_idle(60)
    for view_id in ("permutation", "sinusoidal"):
        before = _columns(studio.views[view_id])
        studio.set_view(view_id)
        widget = studio.views[view_id]
        assert layout_problems(widget) == [], (view_id, before, _columns(widget))


def _row_data_heights(widget) -> dict[int, float]:
    """Each grid row's data area: the lowest view box of the plots in that row alone
    (tables and plots spanning rows left out)."""
    layout = widget.canvas.ci.layout
    rows: dict[int, float] = {}
    for plot in widget.plots.values():
        where = grid_position(layout, plot.plot)
        if plot.table is not None or not plot.plot.isVisible() or where is None:
            continue
        top, _col, span, _cols = where
        if span == 1:
            data = plot.plot.getViewBox().height()
            rows[top] = min(rows.get(top, data), data)
    return rows


@FULL
def test_rows_share_the_stage_with_equal_data_areas(studio, show_view):
    """Issue 14 item 3, lecture legibility: on stage at 1920 x 1080 and 100 % the
    Sinusoidal view's middle row (the similarity map, square cells) had a data area
    of 142 px against 245 px and 237 px above and below it: each row's minimum counted
    its legend at the narrowest legible plot's width (six lines where one is drawn),
    and the grid shared the rest by its own rule. Now the rows' data areas are equal
    (200 px each), at least their legible minimum. Compare's table keeps its own
    height, the plots above it get the rest (the table's row had 180 px to spare)."""
    widget = show_view(studio, "sinusoidal", (1920, 1080), 1.0, present=True)
    assert not widget.scrolls
    rows = _row_data_heights(widget)
    assert len(rows) == 3, rows
    assert min(rows.values()) >= 0.9 * max(rows.values()), rows
    assert _problems(widget, *widget.panel_size()) == []

    widget = show_view(studio, "compare", (1920, 1080), 1.0, present=True)
    assert not widget.scrolls
    table = widget.plots["table"].plot
    where = grid_position(widget.canvas.ci.layout, table)
    assert where is not None
    need = widget.canvas.ci.layout.rowMinimumHeight(where[0])
    assert table.geometry().height() <= need + TABLE_PAD, (table.geometry().height(), need)
    assert _problems(widget, *widget.panel_size()) == []


class _CountingGrid:
    """A plot grid's layout that counts the cells asked for (``itemAt``)."""

    def __init__(self, layout: QtWidgets.QGraphicsGridLayout) -> None:
        self.inner, self.cells_asked = layout, 0

    def itemAt(self, *args: int) -> object:
        self.cells_asked += 1
        return self.inner.itemAt(*args)

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)


def test_fitting_the_rows_asks_the_grid_for_each_cell_once(studio, show_view, monkeypatch):
    """The rows are fitted on every frame of a drag: the plots' places in the grid come
    from one pass over its cells, not a pass per plot (ALiBi's six plots on the stage
    asked for each cell six times, every frame). The places are the same."""
    widget = show_view(studio, "alibi", (1920, 1080), 1.5, present=True)
    layout = widget.canvas.ci.layout
    assert sum(p.plot.isVisible() for p in widget.plots.values()) >= 4
    before = {key: grid_position(layout, p.plot) for key, p in widget.plots.items()}
    counting = _CountingGrid(layout)
    monkeypatch.setattr(widget.canvas.ci, "layout", counting)
    widget.fit_height()
    cells = layout.rowCount() * layout.columnCount()
    # one pass for the columns' widths and the rows (a second fit when the canvas grew)
    assert 0 < counting.cells_asked <= cells
    monkeypatch.undo()
    assert grid_positions(layout) == {p.plot: before[k] for k, p in widget.plots.items()}


def test_fitting_the_rows_reads_the_grid_width_once(studio, show_view, monkeypatch):
    """The grid's width (the scroll bar's size hint: ~25 us on a drag's frames) is read
    once for the column weights and both row fits, once for the columns, and once for
    a whole frame drawn (its columns and rows)."""
    widget = show_view(studio, "alibi", (1920, 1080), 1.5, present=True)
    reads = [0]
    original = widget._plot_width

    def counted() -> float:
        reads[0] += 1
        return original()

    monkeypatch.setattr(widget, "_plot_width", counted)
    widget.fit_height()
    assert reads[0] == 1
    own = {p.key: (p.row, p.col, p.row_span, p.col_span) for p in widget.data.panels}
    widget._needs_fit.clear()
    assert widget._columns_now(own, widget.data.panels) == widget.columns
    assert reads[0] == 2
    widget.show_data(widget.data, live=True)
    assert reads[0] == 3
    widget.show_data(widget.data)
    assert reads[0] == 4


def test_columns_for_the_needs_are_flowed_again_only_when_what_they_read_changed(
    studio, show_view, monkeypatch
):
    """The columns are fitted to the small grids' needs on every frame: the same grid,
    needs and room give the columns found before without flowing the grid into each
    number of columns again; other needs are fitted anew (huge ones: one column)."""
    from gui.widgets import view_widget

    widget = show_view(studio, "alibi", (1920, 1080), 1.5, present=True)
    own = {p.key: (p.row, p.col, p.row_span, p.col_span) for p in widget.data.panels}
    flows = count_calls(monkeypatch, view_widget, "fits_columns")
    widget._needs_fit.clear()
    columns = widget._columns_now(own, widget.data.panels)
    assert columns == widget.columns > 1 and flows[0] >= 1
    assert any(n > 0 for n in widget._needs.values())
    flows[0] = 0
    assert widget._columns_now(own, widget.data.panels) == columns
    assert flows[0] == 0
    needs = widget._index_needs
    monkeypatch.setattr(widget, "_index_needs", lambda *a: [{k: 1e5 for k in d} for d in needs(*a)])
    assert widget._columns_now(own, widget.data.panels) == 1
    assert flows[0] >= 1
    monkeypatch.undo()
    assert widget._columns_now(own, widget.data.panels) == columns


def test_a_frame_that_changes_no_title_measures_no_title(studio, show_view, monkeypatch):
    """The rows are fitted on every frame: a plot whose title, axis title, width and
    text size are unchanged answers its title room as before without wrapping the
    titles again (two fonts and their keys per plot and frame); a new title is
    measured, and its room follows it."""
    from gui.plotting import panel_plot

    widget = show_view(studio, "alibi", (1920, 1080), 1.5, present=True)
    plots = [p for p in widget.plots.values() if p.plot.isVisible() and p.table is None]
    measured = [0]
    original = panel_plot.wrapped_lines

    def counted(*args: object, **kwargs: bool) -> tuple[int, float]:
        measured[0] += 1
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(panel_plot, "wrapped_lines", counted)
    widget.fit_height()  # (a first fit may measure what changed since the last)
    rooms = [p._title_room for p in plots]
    measured[0] = 0
    widget.fit_height()
    assert measured[0] == 0
    assert [p._title_room for p in plots] == rooms
    plot = plots[0]
    title, *style = plot._full_title
    long = title + " and a much longer title" * 40  # wraps onto more lines
    plot._full_title = (long, *style)
    try:
        widget.fit_height()
        assert measured[0] >= 1
        assert plot._title_room[1] > rooms[0][1]
    finally:
        plot._full_title = (title, *style)
        widget.fit_height()
    assert [p._title_room for p in plots] == rooms


def test_a_drag_holds_its_plots_once_until_released(studio, show_view, monkeypatch):
    """Each frame of a drag holds the plots' axes, titles and legends
    (:meth:`ViewWidget._hold_axes`): the plots held on the frame before are not set
    again; a release ends the hold, and the next drag's frame holds every plot anew,
    as do more digits to hold for."""
    from gui.render.fast_axis import FastAxisItem

    widget = show_view(studio, "sinusoidal", (1600, 1000), 1.0)
    holds = [0]
    original = FastAxisItem.hold_for_drag

    def counted(self: FastAxisItem) -> None:
        holds[0] += 1
        original(self)

    monkeypatch.setattr(FastAxisItem, "hold_for_drag", counted)
    data = widget.data
    try:
        widget._hold_axes(True, data)
        axes = holds[0]
        assert axes >= len(widget.plots)
        assert all(p.hold_title_lines and p.hold_range for p in widget.plots.values())
        widget._hold_axes(True, data)
        assert holds[0] == axes
        widget.release_held_room(settle=False)
        assert not any(p.hold_title_lines for p in widget.plots.values())
        widget._hold_axes(True, data)
        assert holds[0] == 2 * axes
        assert all(p.hold_title_lines and p.hold_range for p in widget.plots.values())
        monkeypatch.setattr("gui.widgets.view_widget.drag_digits", lambda _a, _b: 3)
        widget._hold_axes(True, data)
        assert holds[0] == 3 * axes
        assert all(p.drag_digits >= 3 for p in widget.plots.values())
    finally:
        widget.release_held_room()


def test_a_draft_frame_counts_no_curve_points(studio, show_view, monkeypatch):
    """A live (draft) frame antialiases nothing: the curves' points, which decide
    whether full quality antialiases them, are counted only for full quality."""
    from gui.plotting.panel_plot import PanelPlot

    widget = show_view(studio, "sinusoidal", (1600, 1000), 1.0)
    counted = count_calls(monkeypatch, PanelPlot, "curve_points")
    try:
        widget._set_draft(True)
        assert counted[0] == 0
    finally:
        widget._set_draft(False)
    assert counted[0] == len(widget.plots)


def test_the_notes_line_is_measured_again_only_when_it_changed(studio, show_view):
    """The fold is fitted on every frame (:meth:`ViewWidget._fold_fit`): the notes
    line's wrapped lines are measured once for its text and size and taken as they
    were while these stay (0.15-0.4 ms a frame); a new text, width or minimum height is
    measured again, and the lines then are what :func:`text_lines` finds."""
    from gui.plotting.layout_check import text_lines

    widget = show_view(studio, "alibi", (1920, 1080), 1.5, present=True)
    label = widget.status
    first = widget._status_lines()
    count = widget.status_lines_measured
    assert widget._status_lines() == first == text_lines(label)
    assert widget.status_lines_measured == count  # the same line: not measured again
    assert first[2] > 1  # (its notes wrap: a shorter text takes fewer lines)
    text, width = label.text(), label.width()
    least = label.minimumHeight()  # (its box holds the room of its last lines)
    try:
        label.setMinimumHeight(0)  # its own lines' height
        own = widget._status_lines()
        assert widget.status_lines_measured == count + 1
        assert own == text_lines(label) and own[2] > 1
        label.setText("aaa bbb ccc ddd")  # one line at its width
        short = widget._status_lines()
        assert widget.status_lines_measured == count + 2
        assert short == text_lines(label) and short[2] == 1
        label.resize(40, label.height())  # a word a line
        narrow = widget._status_lines()
        assert widget.status_lines_measured == count + 3
        assert narrow == text_lines(label) and narrow[2] > 1
        label.resize(width, label.height())
        assert widget._status_lines() == short
        assert widget.status_lines_measured == count + 4
        label.setMinimumHeight(least)  # the room of the notes' lines: as many again
        held = widget._status_lines()
        assert widget.status_lines_measured == count + 5
        assert held == text_lines(label) and held[2] > short[2]
    finally:
        label.setMinimumHeight(least)
        label.setText(text)
        label.resize(width, label.height())
        widget.fit_height()
    assert widget._status_lines() == first == text_lines(label)


def test_balance_rows_gives_every_flexible_row_the_same_data_height():
    # 700 px for three rows: a legend row (overhead 100), a plain one (40), a table (200)
    heights = balance_rows({0: 220, 1: 180, 2: 200}, {0: 100, 1: 40}, 700)
    assert heights == {0: 100 + 180, 1: 40 + 180, 2: 200}
    # too little room: every row its need (the view scrolls)
    assert balance_rows({0: 220, 1: 180}, {0: 100, 1: 40}, 300) == {0: 220, 1: 180}
    # a row whose need is above the shared data height keeps its need, the rest share
    heights = balance_rows({0: 400, 1: 180, 2: 180}, {0: 40, 1: 40, 2: 40}, 800)
    assert heights == {0: 400, 1: 200, 2: 200}
    assert balance_rows({0: 200}, {}, 900) == {0: 200}  # nothing to share
    # a capped row (matrices no taller than their width allows) leaves the rest to the
    # others, and keeps at least its need
    heights = balance_rows({0: 100, 1: 100, 2: 150}, {0: 50, 1: 50, 2: 50}, 900, {0: 200, 2: 100})
    assert heights == {0: 200, 1: 550, 2: 150}
    # every row capped: the rows stop at their caps (the canvas keeps the rest)
    assert balance_rows({0: 100, 1: 100}, {0: 50, 1: 50}, 900, {0: 200, 1: 300}) == {
        0: 200,
        1: 300,
    }


def test_columns_weighted_by_what_their_panels_need():
    """Word order's grid (A, B, out_B - out_A per condition, the layer plots beside) in
    1876 px on stage at 150 % (the smallest plot 450 px, the differences 638): equal
    columns do not fit three columns, weighted ones do, the differences' column the
    widest and A's and B's alike. In two columns A and B would differ in width (the
    differences share A's column): equal columns then, or fewer."""
    where = _positions("permutation")
    need = {k: 638.0 for k in where if k.startswith("diff_")}
    three = flow_grid(where, 3)
    widths = weighted_widths(three, need, 1876 - 12, 450)
    assert widths is not None
    assert widths[0] == pytest.approx(widths[1]) and widths[2] > 1.3 * widths[0]
    assert sum(widths) == pytest.approx(1876 - 12)
    assert min(widths) >= 450 and widths[2] >= 638
    assert fits_columns(where, need, 3, 1876, 6, 450)
    assert not fits_columns(where, need, 3, 1400, 6, 450)  # 450 + 450 + 638 > 1388
    assert weighted_widths(flow_grid(where, 2), need, 1300, 450) is None  # A ≠ B
    assert weighted_widths(three, {}, 1876, 450) is None  # nothing needs more: equal
    assert weighted_widths(three, need, 3 * 638, 450) is None  # equal columns do


def test_columns_fit_where_only_the_grids_must_stay_alike():
    """Relative in a 1600 x 1000 window at 100 % (1162 px of plots): its grids need
    317 + 281 + 281 px for their indices and values, beside the bucket plot at the
    smallest plot (240 px): 1119 px, four columns fit weighted. Counted with every
    plain plot alike (DeBERTa's two curves below, in the T5 grid's column and the
    bucket plot's), they did not: three columns, three rows, the view scrolled by 299 px.
    The columns are weighted with only the grids alike; they are counted so too."""
    where = _positions("relative")
    need = {"grid": 317.0, "shaw": 281.0, "t5": 281.0}
    grids = {"grid", "shaw", "t5"}
    assert not fits_columns(where, need, 4, 1162, 6, 240)  # (as before)
    assert fits_columns(where, need, 4, 1162, 6, 240, alike=grids)
    assert not fits_columns(where, need, 4, 1100, 6, 240, alike=grids)  # 1119 > 1082


def test_relative_fits_a_1600_by_1000_window_at_100_percent(studio, show_view):
    """In four columns Relative's two rows fit the 1600 x 1000 window at 100 % (in three
    columns it scrolled by 299 px): nothing scrolls, overlaps or is cut, and every
    index of its grids is labelled (layout_problems)."""
    widget = show_view(studio, "relative", (1600, 1000), 1.0)
    assert _columns(widget) == 4
    assert widget.scroll_area.verticalScrollBar().maximum() == 0
    assert layout_problems(widget) == []


def test_stage_weights_let_plots_beside_the_grids_go_to_the_windows_smallest():
    """Relative on stage at 1920 x 1080 / 150 %: its grids need 540 + 421 + 467 px for
    their values at 12 pt, beside the bucket plot at the stage's smallest plot (450 px)
    that is 1878 px of 1851. Weighted with the plots that need no more than the floor
    at the window's smallest plot (360 px) or more, they fit; DeBERTa's two curves
    below (in the T5 grid's column and the bucket plot's) may differ in width, while
    grids in one row stay alike (Word order's A and B)."""
    where = _positions("relative")
    need = {"grid": 540.0, "shaw": 421.0, "t5": 467.0}
    grids = {"grid", "shaw", "t5"}
    assert weighted_widths(where, need, 1851, 450) is None  # (as before: equal columns)
    widths = weighted_widths(where, need, 1851, 450, least=360, alike=grids)
    assert widths is not None
    assert widths == [540.0, 422.0, 467.0, 422.0]  # Shaw's 421 is under the floor: shared
    assert weighted_widths(where, need, 1851, 450, least=430, alike=grids) is None  # 422 < 430
    assert (
        weighted_widths(where, {**need, "shaw": 430.0}, 1851, 450, least=360, alike=grids) is None
    )
    # with room to spare the columns share it in proportion, as before
    spare = weighted_widths(where, need, 2000, 450, least=360, alike=grids)
    assert spare is not None and sum(spare) == pytest.approx(2000) and spare[0] > 540
    # grids still stay alike: Word order in two columns (A's column holds differences)
    perm = _positions("permutation")
    diffs = {k: 638.0 for k in perm if k.startswith("diff_")}
    matrices = {k for k in perm if k.startswith(("weights_", "diff_"))}
    two = flow_grid(perm, 2)
    assert weighted_widths(two, diffs, 1300, 450, least=360, alike=matrices) is None


def test_rows_kept_whole_by_a_flow():
    """Word order in three columns keeps each condition's A | B | differences row (the
    layer plots beside them are a side column, moved below); in two columns the
    differences go below A and B, in one everything does."""
    where = _positions("permutation")
    assert keeps_rows(where, 4) and keeps_rows(where, 3)
    assert not keeps_rows(where, 2) and not keeps_rows(where, 1)


def test_grids_that_need_the_same_stay_alike_in_weighted_columns():
    """Word order with a 9-word sentence on stage at 1920 x 1080 / 200 %: A's and B's
    9 x 9 weights need 762 px each for their values, the differences 1037 px; in two
    columns A's column (with the differences below it) was weighted to 1069 px, B's to
    787: the two matrices of one row drawn at different sizes. Grids that need the same
    stay alike in a row (equal columns here)."""
    where = flow_grid(_positions("permutation"), 2)
    grids = [k for k in where if k.startswith(("diff_", "weights_"))]
    need = {k: 1037.0 if k.startswith("diff_") else 762.0 for k in grids}
    (a_row, a_col, _, _), (b_row, b_col, _, _) = where["weights_a_none"], where["weights_b_none"]
    assert a_row == b_row and a_col != b_col  # (side by side in one row)
    assert weighted_widths(where, need, 1870, 600, least=600, alike=set(grids)) is None
    # grids that need different widths may still differ (Relative's 317 / 281 px)
    assert weighted_widths(where, need, 1870, 600, least=600, alike=set()) is not None


def _layout_state(widget) -> tuple:
    """What a row fit sets: the canvas's height, the grid's rows and columns, and each
    plot's legible height and place."""
    layout = widget.canvas.ci.layout
    rows = tuple(
        (layout.rowMinimumHeight(r), layout.rowPreferredHeight(r), layout.rowMaximumHeight(r))
        for r in range(layout.rowCount())
    )
    columns = tuple(layout.columnMinimumWidth(c) for c in range(layout.columnCount()))
    plots = {
        key: (plot.legible_height, plot.plot.geometry().getRect())
        for key, plot in widget.plots.items()
    }
    return widget.canvas.minimumHeight(), rows, columns, plots


@pytest.mark.parametrize("view_id", ["permutation", "rope"])
def test_a_live_frame_reading_what_the_last_fit_read_keeps_its_layout(studio, show_view, view_id):
    """A drag's frame whose layout reads the same as the last live fit's, which changed
    nothing (the grid, the canvas, each plot's parts, texts and measures), is not
    fitted again: its layout is the one a whole fit gives it. A frame with a longer
    title is fitted: its row grows, as a whole fit lays it out."""
    from dataclasses import replace

    widget = show_view(studio, view_id, (1920, 1080), 1.5, present=True)
    for _ in range(3):  # (the first live frame holds the axes and titles for the drag)
        widget.show_data(widget.data, live=True)
    skipped = widget.fits_skipped
    widget.show_data(widget.data, live=True)
    assert widget.fits_skipped == skipped + 1
    state = _layout_state(widget)
    widget.fit_height()  # a whole fit of the same
    assert _layout_state(widget) == state
    data = widget.data
    key = next(p.key for p in data.panels if widget.plots[p.key].plot.isVisible())
    longer = " and a much longer title, which wraps onto more lines" * 3
    panels = [replace(p, title=p.title + longer) if p.key == key else p for p in data.panels]
    titled = replace(data, panels=panels)
    skipped = widget.fits_skipped
    widget.show_data(titled, live=True)
    assert widget.fits_skipped == skipped  # (fitted)
    assert widget.plots[key].legible_height > state[3][key][0]  # (its title's lines)
    for _ in range(4):  # (laid out anew, fitted again till nothing changes)
        widget.show_data(titled, live=True)
    assert widget.fits_skipped > skipped
    taller = _layout_state(widget)
    widget.fit_height()
    assert _layout_state(widget) == taller
    widget.show_data(data)  # (back as it was, for the module's other tests)


def test_a_plots_fit_key_follows_its_tick_font(studio, show_view):
    """The fit key of a plot (``PanelPlot.fit_inputs``) reads its axes' tick fonts (kept
    with the font they were read from): a font replaced, or one changed in place, gives
    another key; the same font the same key."""
    widget = show_view(studio, "rope", (1920, 1080), 1.5, present=True)
    plot = next(iter(widget.plots.values()))
    axis = plot.plot.getAxis("bottom")
    font = axis.style["tickFont"]
    assert font is not None
    before = plot.fit_inputs()
    assert plot.fit_inputs() == before
    try:
        font.setPointSizeF(font.pointSizeF() + 3)  # (in place)
        grown = plot.fit_inputs()
        assert grown != before
        assert font.key() in grown[11]
        other = QtGui.QFont(font)
        other.setBold(not font.bold())
        axis.style["tickFont"] = other  # (replaced)
        assert plot.fit_inputs() not in (before, grown)
    finally:
        font.setPointSizeF(font.pointSizeF() - 3)
        axis.style["tickFont"] = font
    assert plot.fit_inputs() == before
