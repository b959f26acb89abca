"""A legend strip with one long entry stays a compact strip of several columns.

RoPE's frequency legend (six scalings, lecture scenes 11–13) has one entry much longer
than the others, "longrope long_factor (L > 2048)". On a 1280 x 720 stage at 150 % and
200 %, and at 1920 x 1080 / 300 %, that entry left no room for a second column: the
strip fell back to one column of six rows, about as tall as the data under it (189 px
over 207 px of data at 150 %, 314 over 397 at 300 %). The long entry now wraps onto two
lines inside a column, or stands across the columns from where it comes to the row's
end, in the entries' order (:meth:`StripLegend.flow`), whichever takes fewer lines; the layout is a pure function
of the width, the scale and the entries.
"""

from __future__ import annotations

import html
from dataclasses import replace

import pyqtgraph as pg
import pytest
from legend_lines import entry_lines
from PySide6 import QtCore
from qt_events import settle_window
from tiers import gate_cover

from core.resources import resource_path
from core.scenes import load_deck
from gui.plotting.legend_strip import MAX_LINES, StripLegend, cells

LECTURE = "lecture-positional-encoding"
FREQUENCIES = [  # lecture scene 13's (Llama 3.1: factor 8, original 8192, L = 32768)
    "unscaled",
    "linear ×8",
    "dynamic ×8",
    "yarn ×8",
    "longrope long_factor (L > 8192)",
    "llama3 ×8 (selected)",
]
# (UI scale, the strip's width on stage, px): the frequency plot's data width at a
# 1280 x 720 stage at 150 % and 200 %, and at a 1920 x 1080 stage at 300 %
STRIPS = [(1.5, 526.0), (2.0, 495.0), (3.0, 700.0)]


def _frequency_legend(ui_scale: float, names: list[str] = FREQUENCIES) -> StripLegend:
    """RoPE's frequency legend (``names``) as the view builds it at ``ui_scale``: the
    theme's text size and pens (the selected scaling and the unscaled one solid, the
    others dashed)."""
    from gui.plotting.panel_plot import PanelPlot
    from gui.render.line_item import LineItem
    from gui.theme import current_theme

    theme = replace(current_theme(), ui_scale=ui_scale)
    plot = pg.PlotItem()
    legend = StripLegend(colCount=len(names), labelTextSize=f"{theme.font_pt(10)}pt")
    legend.attach(plot)
    for name in names:
        dashed = name not in ("unscaled",) and "(selected)" not in name
        pen = PanelPlot._curve_pen("dashed" if dashed else "solid", "#0072b2", theme)
        item = LineItem(pen=pen, name=name)
        item.setData([0.0, 1.0], [0.0, 1.0])
        plot.addItem(item)
    legend._test_plot = plot  # (the legend is its strip axis's child: keep the plot)
    return legend


def _entry_boxes(legend: StripLegend) -> list[tuple[QtCore.QRectF, QtCore.QRectF]]:
    """Each entry's sample and text ink (legend coordinates, unscaled)."""
    from gui.plotting.layout_check import text_ink

    boxes = []
    for sample, label in legend.items:
        ink = legend.mapRectFromScene(text_ink(label.item))
        boxes.append((sample.mapRectToItem(legend, sample.boundingRect()), ink))
    return boxes


def _check_entries(legend: StripLegend, names: list[str], width: float) -> None:
    """Every entry whole (its lines are its name), on at most MAX_LINES lines, inside
    the strip's width, and no entry's sample or text over another entry's."""
    for (_sample, label), name in zip(legend.items, names, strict=True):
        lines = entry_lines(label)
        assert " ".join(lines) == name.replace("\u00a0", " "), lines  # nothing elided
        assert len(lines) <= MAX_LINES, lines
    boxes = _entry_boxes(legend)
    right = max(max(a.right(), b.right()) for a, b in boxes) * legend.scale()
    assert right <= width + 0.5, (right, width)
    flat = [box.adjusted(0.5, 0.5, -0.5, -0.5) for pair in boxes for box in pair]
    for i, a in enumerate(flat):
        for j in range(i + 1, len(flat)):
            assert not a.intersects(flat[j]), (i // 2, j // 2, a, flat[j])


@pytest.mark.parametrize(("ui_scale", "width"), STRIPS)
def test_ropes_frequency_legend_keeps_several_columns_at_stage_sizes(qapp, ui_scale, width):
    """At each stage size the six entries sit in two or three columns, at most four
    lines of text down the strip (six before: one column), the long entry wrapped onto
    two lines or on a row of its own; nothing elided, nothing overlapping, nothing
    past the strip's width."""
    legend = _frequency_legend(ui_scale)
    flow = legend.flow(width)
    assert flow.columns >= 2, flow
    assert flow.lines <= 4, flow
    legend.reflow(flow.columns, flow.spans)
    legend.set_strip(width)
    legend.layout.activate()
    _check_entries(legend, FREQUENCIES, width)
    assert _drawn_lines(legend) == flow.lines  # as planned
    _left, top, _right, bottom = legend.layout.getContentsMargins()
    height = legend.strip_height(width)
    assert height <= 4 * legend.one_line_height() + top + bottom + 0.5, height
    laid_out = legend.layout.effectiveSizeHint(QtCore.Qt.SizeHint.PreferredSize).height()
    assert abs(laid_out - height) <= 1.0, (laid_out, height)  # as planned


def _reading_order(legend: StripLegend) -> list[int]:
    """The entries (indices) as read: row by row (the labels' centre heights, a row's
    entries centred in it), left to right in a row."""
    spots = []
    for i, (_sample, label) in enumerate(legend.items):
        box = label.mapRectToItem(legend, label.boundingRect())
        spots.append((round(box.center().y()), round(box.left()), i))
    return [i for _y, _x, i in sorted(spots)]


@pytest.mark.parametrize(("ui_scale", "width"), [*STRIPS, (2.0, 458.0)])
def test_an_entry_on_a_row_of_its_own_is_read_in_the_curves_order(qapp, ui_scale, width):
    """The long entry, "longrope … (L > 8192)" (the fifth curve), across the columns
    stands where it comes in the curves' order: after "yarn", before "llama3" (it stood
    on a row of its own below "llama3", the last entry: read 0, 1, 2, 3, 5, 4). Nothing
    elided or overlapping, and the strip as high as planned (the data below it)."""
    names = FREQUENCIES
    if width == 458.0:  # (the RoPE view's own names at 1280 x 720 / 200 %)
        names = [n.replace("×8", "×4") for n in FREQUENCIES]
        names[4:] = ["longrope short_factor (L ≤ 2048)", "llama3 ×4"]
    legend = _frequency_legend(ui_scale, names)
    flow = legend.flow(width)
    assert 4 in flow.spans, flow  # (the case: the long entry across the columns)
    legend.reflow(flow.columns, flow.spans)
    legend.set_strip(width)
    legend.layout.activate()
    assert _reading_order(legend) == list(range(len(names)))
    _check_entries(legend, names, width)
    laid_out = legend.layout.effectiveSizeHint(QtCore.Qt.SizeHint.PreferredSize).height()
    assert abs(laid_out - legend.strip_height(width)) <= 1.0


def test_an_entry_across_takes_the_rest_of_its_row(qapp):
    """At 150 % in a 526 px strip the six entries take three lines in three columns,
    in order: "longrope …" across the second and third columns beside "yarn", and
    "llama3 …" on the row after (on rows of their own, in order, they took four)."""
    legend = _frequency_legend(1.5)
    flow = legend.flow(526.0)
    assert (flow.columns, flow.lines, flow.wrapped) == (3, 3, 0), flow
    legend.reflow(flow.columns, flow.spans)
    legend.set_strip(526.0)
    legend.layout.activate()
    assert _reading_order(legend) == list(range(6))
    _check_entries(legend, FREQUENCIES, 526.0)
    yarn, longrope = (
        legend.items[i][1].mapRectToItem(legend, legend.items[i][1].boundingRect()) for i in (3, 4)
    )
    assert abs(yarn.center().y() - longrope.center().y()) < 1 and longrope.left() > yarn.right()


def test_cells_keep_the_entries_order_around_an_entry_across():
    """:func:`cells`: an entry across the columns takes the rest of the row from where
    it comes (all of a row where it starts one), and the next entries start the row
    after it."""
    assert cells(6, 3, (4,)) == [
        (0, 0, False), (0, 1, False), (0, 2, False),
        (1, 0, False), (1, 1, True),
        (2, 0, False),
    ]  # fmt: skip
    assert cells(5, 2, (0, 3)) == [
        (0, 0, True),
        (1, 0, False), (1, 1, False),
        (2, 0, True),
        (3, 0, False),
    ]  # fmt: skip
    assert cells(4, 1, (1,)) == [(r, 0, False) for r in range(4)]  # (one column: none)


def test_a_wrapped_entry_breaks_into_even_lines(qapp):
    """The RoPE view's own frequency legend at 1280 x 720 / 200 % on stage (458 px):
    "longrope short_factor (L ≤ 2048)" takes a row of its own across the columns and
    wraps there; its lines are as even as two lines allow ("(L ≤ 2048)" whole on the
    second), not Qt's first line filled ("longrope short_factor (L ≤" / "2048)")."""
    names = [n.replace("×8", "×4") for n in FREQUENCIES]
    names[4] = "longrope short_factor (L ≤ 2048)"
    names[5] = "llama3 ×4"
    legend = _frequency_legend(2.0, names)
    flow = legend.flow(458.0)
    legend.reflow(flow.columns, flow.spans)
    legend.set_strip(458.0)
    legend.layout.activate()
    assert flow.spans == (4,) and flow.wrapped == 1, flow
    assert entry_lines(legend.items[4][1]) == ["longrope short_factor", "(L ≤ 2048)"]
    _check_entries(legend, names, 458.0)


def test_the_balanced_wrap_counts_lines_as_one_layout_per_room(qapp):
    """The even-lines search lays one copy of an entry's document out at each room it
    tries (a copy per room cost most of a RoPE frame's draw at 200 % on stage, its
    score legend's entries following the dragged m): the same lines as the entry's own
    measure at every room, from 25 px to past its width, for long and short entries."""
    from gui.plotting import legend_strip

    names = [*FREQUENCIES, "query at m=8197: 15 fast pairs as a ±19.1 band", "m − n = −4"]
    legend = _frequency_legend(2.0, names)
    wrapped = 0
    for _sample, label in legend.items:
        lines_at = legend_strip._WrapCounter(label)
        width = legend_strip._one_line_size(label)[0]
        rooms = [25.0 + k * (width + 40.0) / 60.0 for k in range(61)]
        counted = [lines_at(room) for room in rooms]
        lines_at.done()
        assert counted == [legend_strip._lines(label, room)[0] for room in rooms], label.text
        wrapped += max(counted) > 2  # (an entry of several words wraps at some rooms)
    assert wrapped >= 4


def test_a_wrapped_entry_that_follows_a_drag_keeps_the_strip_planned(qapp):
    """RoPE's score legend at 200 % on stage wraps "query at m=…" in its column; each
    frame of an m drag planned the strip anew for the new number (about 2 ms a frame).
    While the drag holds room, a new text that wraps into the same box replaces the
    text alone; a text that needs another line is set (and planned) as before; when
    the hold ends, the entry's lines are balanced for the text it has then."""

    names = [*FREQUENCIES[:3], "query at m=8197: 15 fast pairs as a ±19.1 band"]
    legend = _frequency_legend(2.0, names)
    flow = legend.flow(300.0)
    legend.reflow(flow.columns, flow.spans)
    legend.set_strip(300.0)
    legend.layout.activate()
    label = legend.items[3][1]
    assert label.item.textWidth() > 0  # (wrapped)
    legend.reserve(5, [3])
    assert not legend.rename(label, "query at m=8198: 15 fast pairs as a ±19.2 band")
    assert label.text.startswith("query at m=8198") and "m=8198" in label.item.toPlainText()
    longer = "query at m=8199: 15 fast pairs as a ±19.3 band, all of them past the strip"
    assert legend.rename(label, longer)  # (more lines: the strip is planned again)
    final = "query at m=8200: 15 fast pairs as a ±19.4 band"
    legend.rename(label, final)
    assert legend.release()  # (the plot plans the strip again: PanelPlot._fit_legend)
    flow = legend.flow(300.0)
    legend.reflow(flow.columns, flow.spans)
    legend.set_strip(300.0)
    legend.layout.activate()
    fresh = _frequency_legend(2.0, [*names[:3], final])
    fresh_flow = fresh.flow(300.0)
    fresh.reflow(fresh_flow.columns, fresh_flow.spans)
    fresh.set_strip(300.0)
    fresh.layout.activate()
    assert flow == fresh_flow
    assert label.item.textWidth() == fresh.items[3][1].item.textWidth() > 0


def test_a_wrapped_entry_that_outgrows_its_balanced_lines_keeps_the_strip(qapp):
    """A held entry wrapped at the narrowest width of its lines ("query at m=9:" /
    "fast pairs") whose number grows a digit no longer fits that width in as many
    lines; it still does in the room its column gives it. Its lines are balanced
    there again, as a strip set anew would, and the strip is not planned again (each
    frame a number grew a digit re-planned RoPE's score legend at 200 %)."""

    def strip(names: list[str]) -> StripLegend:
        legend = _frequency_legend(2.0, names)
        legend.reserve(5, [3])
        flow = legend.flow(360.0)
        legend.reflow(flow.columns, flow.spans)
        legend.set_strip(360.0)
        legend.layout.activate()
        return legend

    names = [*FREQUENCIES[:3], "query at m=9: fast pairs"]
    legend = strip(names)
    label = legend.items[3][1]
    assert legend.columnCount > 1 and entry_lines(label) == ["query at m=9:", "fast pairs"]
    balanced = label.item.textWidth()
    height = legend.geometry().height()
    grown = "query at m=10: fast pairs"
    assert not legend.rename(label, grown)  # (no new plan)
    assert label.item.textWidth() > balanced  # (balanced for its new text)
    fresh = strip([*names[:3], grown])
    assert (fresh.columnCount, fresh.spans) == (legend.columnCount, legend.spans)
    assert label.item.textWidth() == fresh.items[3][1].item.textWidth()
    assert entry_lines(label) == entry_lines(fresh.items[3][1]) == ["query at m=10:", "fast pairs"]
    legend.layout.activate()
    assert legend.geometry().height() == height


def _drawn_lines(legend: StripLegend) -> int:
    """Lines of text down the legend as laid out: each row as many as its entry with
    the most lines."""
    rows: dict[int, int] = {}
    for (row, _column, _across), (_sample, label) in zip(
        legend._cells(), legend.items, strict=True
    ):
        rows[row] = max(rows.get(row, 1), len(entry_lines(label)))
    return sum(rows.values())


def test_a_legend_is_laid_out_by_its_width_alone(qapp):
    """The flow (columns, the entries across them, the wraps) and the geometry of every
    entry are those of a fresh legend set to the same width, whatever widths and scales
    the legend was set to before (the grid's room must not depend on history)."""

    def laid_out(legend: StripLegend, width: float, scale: float) -> tuple:
        flow = legend.flow(width / scale)
        legend.reflow(flow.columns, flow.spans)
        legend.set_strip(width, scale)
        legend.layout.activate()
        cells_now = [
            (sample.geometry().getRect(), label.geometry().getRect(), label.item.textWidth())
            for sample, label in legend.items
        ]
        return flow, cells_now, legend.geometry().getRect(), legend.strip_height(width, scale)

    moved = _frequency_legend(2.0)
    # (each entry wrapped in 260 px; at 489 px, measured wrapped, they counted 8 px
    # wider than unwrapped: one column, not two with two entries across)
    steps = [(260.0, 1.0), (489.0, 1.0), (1400.0, 1.0), (300.0, 0.8), (495.0, 0.9), (489.0, 1.0)]
    for width, scale in steps:
        fresh = _frequency_legend(2.0)
        assert laid_out(moved, width, scale) == laid_out(fresh, width, scale), (width, scale)


def test_a_long_entry_spans_or_wraps_only_where_it_saves_a_line(qapp):
    """Entries that all fit on one line in some columns keep the most columns that hold
    them (no wrap, none across); a strip too narrow for any two entries side by side
    stays one column."""
    legend = _frequency_legend(1.0)
    wide = legend.flow(2000.0)
    assert (wide.columns, wide.spans, wide.wrapped, wide.lines) == (6, (), 0, 1)
    narrow = legend.flow(120.0)
    assert narrow.columns == 1 and narrow.spans == ()


# ---------------------------------------------------------------------- on stage
CASES = [
    (scene, size, scale)
    for size, scales in (((1280, 720), (1.5, 2.0)),)
    for scale in scales
    for scene in (11, 12, 13)
] + [(None, (1920, 1080), 3.0)]
GATE = [(13, (1280, 720), 2.0), (11, (1280, 720), 1.5)]


@pytest.fixture(scope="module")
def stage(open_window):
    """One presenting window (not full screen), resized per case."""
    with open_window(1280, 720) as window:
        yield window


def _stage(window, scene: int | None, size: tuple[int, int], scale: float):
    from core.scenes import Scene

    display = window.lecture.display
    display.enter_presentation(fullscreen=False)
    if display.active_scale != scale:
        display.set_scale(scale)
    window.resize(*size)
    deck = window.lecture.deck
    if scene is None:  # the RoPE view alone, at its defaults
        deck.index = -1
        window.lecture.focus.stage_scene(Scene(view_id="rope"), -1)
        window.set_view("rope")
        window.states["rope"].reset()
        window.views["rope"].set_heading(None)
    else:
        path = resource_path("decks") / f"{LECTURE}.json"
        if deck.path != path:
            deck.set_deck(load_deck(path), path)
        deck.go(scene - 1)
    assert window.wait_idle(60)
    settle_window(window)
    return window.views[window.current_view]


def _frequency_strip(widget) -> tuple:
    """``(columns, spans, strip height, lines per entry, the grid's room for it)`` of
    the RoPE view's frequency legend as drawn."""
    plot = widget.plots["frequencies"]
    legend = plot.legend
    lines = [len(entry_lines(label)) for _s, label in legend.items]
    strip = plot.plot.getAxis("top").height()
    room = plot.legend_room(plot.plot.getViewBox().width())
    return legend.columnCount, legend.spans, strip, lines, room


@pytest.mark.parametrize(("scene", "size", "scale"), gate_cover(CASES, keep=GATE, unpack=True))
def test_ropes_frequency_legend_on_stage_is_a_compact_strip(stage, scene, size, scale):
    """Lecture scenes 11–13 at 1280 x 720 / 150 % and 200 %, and the RoPE view at
    1920 x 1080 / 300 %: the frequency legend has two or three columns, at most four
    lines of text (189–314 px of one column before, 0.8–0.9 of the data's height); its
    strip is less than three quarters of the data's height; every entry whole, on at
    most two lines, inside the strip, none over another or over the data, and the
    plot's layout check finds nothing.

    Scene 11 at 200 % takes five lines, 0.85 of the data's height (210 px over 247):
    "linear ×4 (selected)", the second entry, wraps beside the first; four lines put
    it and "longrope …" on rows below "llama3 …", out of the curves' order."""
    from gui.plotting.layout_check import layout_problems, legend_ink

    widget = _stage(stage, scene, size, scale)
    plot = widget.plots["frequencies"]
    legend = plot.legend
    names = [label.text for _s, label in legend.items]
    assert len(names) == 6 and any(name.startswith("longrope") for name in names)
    columns, _spans, strip, lines, _room = _frequency_strip(widget)
    data = plot.plot.getViewBox().height()
    assert columns >= 2, (columns, strip, data)
    most = 5 if (scene, scale) == (11, 2.0) else 4
    assert _drawn_lines(legend) <= most and max(lines) <= MAX_LINES, lines
    assert strip <= (0.85 if most == 5 else 0.75) * data, (strip, data)
    width = plot.plot.getViewBox().width()
    _check_entries(legend, [html.unescape(n) for n in names], width / legend.scale())
    ink = legend_ink(legend)
    assert ink.bottom() <= plot.plot.getViewBox().sceneBoundingRect().top() + 0.5
    found = [p for p in layout_problems(widget) if "frequencies" in p]
    assert not found, found


def test_the_frequency_legend_on_stage_does_not_depend_on_the_way_there(stage):
    """Scene 13 at 1280 x 720 / 150 %, then at 200 %, at 1920 x 1080 / 300 %, scene 12
    and back: its legend has the same columns, entries across them, lines, strip
    height and the same room in the grid. (The plots' heights are left out: the
    fold fit reads the notes line's height, which a scene's notes set after the rows
    were fitted; scene 13's plots are 493 px high reached first, 498 px after scene
    12, on main too, 477 or 498 px here.)"""
    first = _frequency_strip(_stage(stage, 13, (1280, 720), 1.5))
    _stage(stage, 13, (1280, 720), 2.0)
    _stage(stage, None, (1920, 1080), 3.0)
    _stage(stage, 12, (1280, 720), 1.5)
    again = _frequency_strip(_stage(stage, 13, (1280, 720), 1.5))
    assert again == first


def test_the_frequency_legend_after_a_scene_that_wrapped_it_is_laid_out_as_before(stage):
    """Lecture scene 11 at 1280 x 720 / 200 %, then scene 10 (whose frequency legend
    wraps "longrope short_factor (L ≤ 2048)" onto two lines), then scene 11 again: the
    same legend and the same plots' heights. A wrapped entry was measured 8 px wider
    than the same entry unwrapped (the document's margins counted twice), so after
    scene 10 the legend's room in the grid was 290 px instead of 178 and the plots
    112 px taller (704 px instead of 592)."""

    def plots(widget) -> dict:
        return {k: p.plot.height() for k, p in widget.plots.items() if p.plot.isVisible()}

    widget = _stage(stage, 11, (1280, 720), 2.0)
    first, heights = _frequency_strip(widget), plots(widget)
    widget = _stage(stage, 10, (1280, 720), 2.0)
    assert (
        max(len(entry_lines(label)) for _s, label in widget.plots["frequencies"].legend.items) > 1
    )
    widget = _stage(stage, 11, (1280, 720), 2.0)
    assert _frequency_strip(widget) == first
    assert plots(widget) == heights
