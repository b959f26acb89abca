"""The legend strip's one-line text sizes (kept per entry) follow its entries' text."""

from __future__ import annotations

import pyqtgraph as pg
from legend_lines import entry_lines

from gui.plotting.legend_strip import SAMPLE_WIDTH, StripLegend


def test_one_line_sizes_follow_text_size_and_renames(qapp):
    plot = pg.PlotItem()
    legend = StripLegend(colCount=1, labelTextSize="10pt")
    legend.attach(plot)
    for name in ("sin", "cos"):
        legend.addItem(plot.plot([0, 1], [0, 1], name=name), name)
    small = legend.one_line_height()
    assert small > 0 and legend.one_line_height() == small  # asked again: the same
    widths = legend.entry_widths()
    for _sample, label in legend.items:  # the theme's larger text (a zoomed plot's)
        label.setText(label.text, size="20pt")
    assert legend.one_line_height() > 1.5 * small
    _sample, label = legend.items[0]
    label.setText("sin, renamed to a much longer entry", size="10pt")
    longer = legend.entry_widths()
    assert longer[0] > 3 * widths[0]
    legend.set_strip(120.0)  # narrow: the long entry wraps, its one-line width stays
    assert label.item.textWidth() > 0
    assert abs(legend.entry_widths()[0] - longer[0]) < 0.1 * longer[0]  # not the 120 px


def test_strip_axis_is_not_painted(qapp, monkeypatch):
    """The strip's axis draws nothing (no values, no line, no ticks): it is not painted
    (it spans the data, so every change of the data painted it: a loop over its
    invisible ticks), and the plot's pixels are those of painting it."""
    import numpy as np
    from PySide6 import QtGui

    from gui.render.fast_axis import FastAxisItem, hide_spare_axes, make_axes

    plot = pg.PlotItem(axisItems=make_axes())
    hide_spare_axes(plot)
    legend = StripLegend(colCount=2, labelTextSize="10pt")
    legend.attach(plot)
    for k, name in enumerate(("sin", "cos", "tan")):
        legend.addItem(plot.plot(np.arange(50), np.sin(np.arange(50) / (k + 2))), name)
    view = pg.GraphicsView()
    view.setCentralItem(plot)
    view.resize(400, 300)
    plot.layout.activate()
    top = plot.getAxis("top")
    assert isinstance(top, FastAxisItem) and top.isVisible() and top.draws_nothing()
    assert not plot.getAxis("bottom").draws_nothing()

    played: list[str] = []
    draw_specs = FastAxisItem.draw_specs

    def counted(self: FastAxisItem, p: QtGui.QPainter, *specs: object) -> None:
        played.append(self.orientation)
        draw_specs(self, p, *specs)

    monkeypatch.setattr(FastAxisItem, "draw_specs", counted)

    def pixels() -> np.ndarray:
        return pg.imageToArray(view.grab().toImage(), copy=True)

    skipped = pixels()
    assert "top" not in played and {"bottom", "left"} <= set(played)
    played.clear()
    monkeypatch.setattr(FastAxisItem, "draws_nothing", lambda self: False)
    replayed = pixels()
    assert "top" in played  # (its ticks replayed: nothing drawn)
    np.testing.assert_array_equal(skipped, replayed)
    assert (skipped[..., :3] != 255).any()  # the plot drawn
    view.close()


def test_strip_heights_are_kept_for_their_texts_and_width(qapp):
    """The view's grid asks every legend's height on each frame of a drag: a legend
    whose texts, width and style stayed answers without measuring again; a rename, a
    new size or held room gives the height a legend of that text measures afresh."""
    plot = pg.PlotItem()
    legend = StripLegend(colCount=1, labelTextSize="10pt")
    legend.attach(plot)
    for name in ("query at m=5", "query at m=261", "m − n = -4"):
        legend.addItem(plot.plot([0, 1], [0, 1], name=name), name)
    wide = legend.strip_height(300.0)
    assert legend.heights_measured == 1
    assert legend.strip_height(300.0) == wide and legend.heights_measured == 1
    narrow = legend.strip_height(150.0)
    assert narrow > wide and legend.heights_measured == 2
    legend.rename(legend.items[0][1], "query at m=5 and a much longer name")
    renamed = legend.strip_height(300.0)
    assert legend.heights_measured == 3
    fresh, fresh_plot = StripLegend(colCount=1, labelTextSize="10pt"), pg.PlotItem()
    fresh.attach(fresh_plot)
    for _sample, label in legend.items:
        fresh.addItem(fresh_plot.plot([0, 1], [0, 1]), label.text)
    assert fresh.strip_height(300.0) == renamed != wide
    legend.reserve(7, [0, 1, 2])  # a drag's held room: wider entries, fewer columns
    assert legend.strip_height(300.0) >= renamed and legend.heights_measured == 4
    assert legend.strip_height(300.0, held=False) == renamed


def test_a_flow_is_kept_for_its_entries_sizes_where_it_wraps_none(qapp, monkeypatch):
    """A name that follows a slider ("query at m=5" -> "m=6": digits of one width) keeps
    its entry's size: the strip is not flowed again for it, and flows as a legend of
    the new names does. Where the flow reads an entry's words (an entry wrapped in
    a narrow strip), the new names are flowed again: wrapping depends on the words."""
    calls: list[float] = []
    measured = StripLegend._flow

    def counting(self: StripLegend, width: float, held: bool) -> object:
        calls.append(width)
        return measured(self, width, held)

    monkeypatch.setattr(StripLegend, "_flow", counting)

    def legend_of(names: list[str]) -> StripLegend:
        plot = pg.PlotItem()
        legend = StripLegend(colCount=1, labelTextSize="10pt")
        legend.attach(plot)
        legend._plot = plot  # (kept alive with the legend)
        for name in names:
            legend.addItem(plot.plot([0, 1], [0, 1], name=name), name)
        return legend

    names = ["query at m=5", "query at m=261", "m − n = −4"]
    legend = legend_of(names)
    wide = legend.flow(600.0)
    assert wide.columns > 1 and not wide.wrapped and calls == [600.0]
    label = legend.items[0][1]
    before = label.itemRect().width()
    assert not legend.rename(label, "query at m=6")  # (the same box)
    assert label.itemRect().width() == before
    assert legend.flow(600.0) == wide and calls == [600.0]  # kept for the sizes
    names[0] = "query at m=6"
    assert legend_of(names).flow(600.0) == wide  # a fresh legend of the new names
    calls.clear()
    narrow = legend.flow(120.0)  # an entry wraps: its words are read
    assert narrow.wrapped and calls == [120.0]
    legend.rename(label, "query at m=7")
    assert legend.flow(120.0) == narrow and calls == [120.0, 120.0]  # flowed again
    names[0] = "query at m=7"
    assert legend_of(names).flow(120.0) == narrow


def test_room_held_for_a_drag_never_widens_an_entry_past_its_strip(qapp):
    """A drag of RoPE's m holds room for seven-digit numbers ("query at m=0000000"):
    in a strip narrower than that, the held room is one column's label room at most,
    so the held legend still fits its strip (at 200 % on stage it was 533 px wide in a
    325 px strip, its text cut); in a wide strip the whole room is held."""
    plot = pg.PlotItem()
    legend = StripLegend(colCount=1, labelTextSize="10pt")
    legend.attach(plot)
    legend.addItem(plot.plot([0, 1], [0, 1], name="query at m=5"), "query at m=5")
    legend.set_strip(1000.0)
    legend.reserve(7, [0])
    wide = legend.entry_widths()[0]
    assert wide > legend.entry_widths(held=False)[0] + 20  # room held for six more digits
    own = legend.entry_widths(held=False)[0]
    narrow = (own + wide) / 2  # the entry's own text fits, the held room does not
    legend.set_strip(narrow)
    held = legend.entry_widths()[0]
    assert own < held < wide  # capped: the strip's one column
    left, _top, right, _bottom = legend.layout.getContentsMargins()
    assert held - 2 * legend.layout.horizontalSpacing() + left + right <= narrow + 0.01
    assert legend.columns_for(narrow) == 1
    assert legend.layout.columnMinimumWidth(1) <= narrow - SAMPLE_WIDTH
    assert legend.entry_widths(width=1000.0)[0] == wide  # a wide strip holds it all


def _legend(plot: pg.PlotItem, columns: int, names: list[str]) -> StripLegend:
    legend = StripLegend(colCount=columns, labelTextSize="10pt")
    legend.attach(plot)
    for i, name in enumerate(names):
        legend.addItem(plot.plot([0, 1], [0, i]), name)
    return legend


def _laid_out(legend: StripLegend, width: float) -> tuple:
    from PySide6 import QtCore

    legend.set_strip(width)
    legend.layout.activate()
    cells = [(s.geometry().getRect(), label.geometry().getRect()) for s, label in legend.items]
    hint = legend.layout.effectiveSizeHint(QtCore.Qt.SizeHint.PreferredSize)
    return cells, (hint.width(), hint.height()), legend.geometry().getRect()


def test_a_reflowed_legend_is_laid_out_as_one_built_in_its_columns(qapp):
    """A plot whose width holds another number of columns moves its legend's entries
    into them (StripLegend.reflow) instead of building a new legend with every entry
    made again: each entry lies where it would in a legend built with that many
    columns, the strip is as wide and as high, at more and at fewer columns than
    before, with room held for a drag (reserved) and an entry's opacity (a highlighted
    series) kept."""
    names = ["all 8 heads (m = 0.00391 … 0.5)", "head 1", "head 2: m = 0.25", "query at m=100"]
    names += ["x", "a longer name here"]
    plot = pg.PlotItem()
    moved = _legend(plot, len(names), names)  # as PanelPlot builds it: one row
    moved.reserve(7, [0, 3])
    _laid_out(moved, 1400)
    moved.items[2][0].setOpacity(0.25)
    moved.items[2][1].setOpacity(0.25)
    entries = list(moved.items)
    for columns in (2, 3, 1, 6, 4):
        assert moved.reflow(columns)
        assert not moved.reflow(columns)  # (the same columns: nothing moves)
        fresh_plot = pg.PlotItem()  # (kept: the legend is its child's)
        fresh = _legend(fresh_plot, columns, names)
        fresh.reserve(7, [0, 3])
        for width in (300.0, 700.0):
            assert _laid_out(moved, width) == _laid_out(fresh, width), (columns, width)
    assert moved.items == entries and moved.reflows == 5
    assert moved.items[2][0].opacity() == moved.items[2][1].opacity() == 0.25
    assert moved.items[1][1].opacity() == 1.0
    moved.addItem(plot.plot([0, 1], [1, 0]), "added after")  # in the next cell of 4 columns
    assert moved.layout.itemAt(1, 5) is moved.items[-1][1]


def test_a_wrapped_entry_keeps_an_operator_with_its_left_operand(qtbot):
    """A legend entry is wrapped by Qt, at any space: ALiBi's distance legend wrapped
    "head 1: m" / "= 0.5 (softmax row)" in a narrow strip. Its operator words are glued
    to the words before them, as a plot title breaks
    (:func:`gui.plotting.panel_plot.wrapped_rich_text`): at no width does a line start
    with one, nothing is lost, and every entry still wraps."""
    import numpy as np

    from core.viewdata import Panel, Series
    from gui.plotting.panel_plot import PanelPlot

    names = [  # ALiBi's distance legend, RoPE's score and simplified ones
        "all 8 heads (m = 0.00391 … 0.5)",
        "head 1: m = 0.5 (softmax row)",
        "m − n = −4",
        "the two pairs: s = 0 and s = 100",
    ]
    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    plot = PanelPlot(win.addPlot())
    x = np.arange(4, dtype=float)
    series = [Series(name, x, x * k) for k, name in enumerate(names)]
    plot.show(Panel("d", "distance", "curves", "x", "y", series=series))
    legend = plot.legend
    assert legend is not None and len(legend.items) == len(names)
    starts = {"=", "−", "+", "·", "×", "→", "≤", "—", "–"}
    wrapped = set()
    for width in range(60, 300, 6):
        legend.set_strip(float(width))
        for (_sample, label), name in zip(legend.items, names, strict=True):
            lines = entry_lines(label)
            assert " ".join(lines) == name, (width, lines)
            assert not any(line.split(" ")[0] in starts for line in lines[1:]), (width, lines)
            if len(lines) > 1:
                wrapped.add(name)
    assert wrapped == set(names)  # (each entry was wrapped at some width)


def _dashed_legend(ui_scale: float, names: list[str], dashed: list[bool]) -> tuple:
    """A plot in a view with a legend strip whose lines have the app's pens at
    ``ui_scale`` (``PanelPlot._curve_pen``: 2 px × the scale, Qt's DashLine)."""
    from dataclasses import replace

    from gui.plotting.panel_plot import PanelPlot
    from gui.render.line_item import LineItem
    from gui.theme import current_theme

    theme = replace(current_theme(), ui_scale=ui_scale)
    plot = pg.PlotItem()
    legend = StripLegend(colCount=len(names), labelTextSize=f"{theme.font_pt(10)}pt")
    legend.attach(plot)
    for name, dash in zip(names, dashed, strict=True):
        pen = PanelPlot._curve_pen("dashed" if dash else "solid", "#0072b2", theme)
        item = LineItem(pen=pen, name=name)
        item.setData([0.0, 1.0], [0.0, 1.0])
        plot.addItem(item)
    view = pg.GraphicsView()
    view.setCentralItem(plot)
    view.resize(1600, 500)
    plot.layout.activate()
    return plot, legend, view


def _runs(view: pg.GraphicsView, sample) -> list[int]:
    """Lengths (px) of the coloured runs along the middle row of ``sample`` as drawn."""
    image = view.grab().toImage()
    rect = view.mapFromScene(sample.sceneBoundingRect()).boundingRect()
    y = rect.top() + round(rect.height() * 11 / 20)  # (the line's row: y = 11 of 20)
    runs: list[int] = []
    inside = False
    for x in range(max(0, rect.left() - 4), rect.right() + 5):
        color = image.pixelColor(x, y)
        blue = color.blue() - color.red() > 60  # the line's #0072b2, not the background
        if blue and not inside:
            runs.append(0)
        if blue:
            runs[-1] += 1
        inside = blue
    return runs


def test_a_dashed_lines_sample_shows_its_dashes_at_300_percent(qapp):
    """At 300 % a line is 6 px wide and a dash of Qt's DashLine 24 px with a 12 px gap:
    pyqtgraph's 20 px sample drew Relative's dashed "sum Aᵢⱼ" as a solid stub. Its
    sample now spans two dash periods on screen (72 px), centred: a short piece, a
    gap, a whole dash, a gap and a short piece, also when the legend's text is drawn
    at 80 % (the pen is cosmetic: the dashes keep their pixels). A solid line's sample
    stays 20 px (it reads as solid at any length)."""
    plot, legend, view = _dashed_legend(3.0, ["sum Aᵢⱼ", "(a) content"], [True, False])
    for scale in (1.0, 0.8):
        legend.set_strip(1400.0, scale)
        plot.layout.activate()
        dashed_runs = _runs(view, legend.items[0][0])
        assert len(dashed_runs) == 3, (
            scale,
            dashed_runs,
            legend.items[0][0].sceneBoundingRect(),
        )  # piece, dash, piece
        # one whole 24 px dash (its square caps: up to a pen width more), centred
        assert 24 <= dashed_runs[1] <= 31 and abs(dashed_runs[0] - dashed_runs[2]) <= 1, (
            scale,
            dashed_runs,
            legend.items[0][0].sceneBoundingRect(),
        )
        span = legend.items[0][0].sceneBoundingRect().width()
        assert 70 <= span <= 74, (scale, span)  # two periods on screen
        assert len(_runs(view, legend.items[1][0])) == 1  # solid: one run
    view.close()


def test_a_dashed_sample_never_wraps_an_entry_or_costs_a_column_it_can_spare(qapp):
    """The longer sample takes room from the labels: in a strip whose columns hold a
    shorter one it shortens to what the columns leave, and in one column whose text would wrap
    beside it, it shortens down to pyqtgraph's 20 px as long as the text then stays on
    one line (ALiBi's "all 8 heads (m = 0.00391 … 0.5)" at 200 % on 1280 x 720)."""
    from gui.plotting.legend_strip import DASH_LEAST

    names = ["all 8 heads (m = 0.00391 … 0.5)", "head 1: m = 0.5 (softmax row)"]
    plot, legend, view = _dashed_legend(2.0, names, [True, False])
    full, least = legend.dash_samples(1.0)
    assert (full, least) == (48.0, DASH_LEAST * 4.0)  # 2 periods, 10 widths of 4 px
    wide = legend.entry_widths(held=False, width=2000.0, scale=1.0)
    texts = [w - s for w, s in zip(wide, legend.samples(1.0, 2000.0), strict=True)]
    longest = max(texts)  # the widest label and its gaps
    frame = legend._margins() - legend._gap()
    # one column, room for the text beside a 30 px sample only: 30 px, on one line
    width = longest + 30.0 + frame
    legend.reflow(legend.columns_for(width))
    legend.set_strip(width, 1.0)
    assert legend.columnCount == 1
    assert abs(legend.items[0][0].sceneBoundingRect().width() - 30.0) < 0.5
    assert all(label.item.textWidth() < 0 for _s, label in legend.items)  # no wrap
    # two columns with 5 px to spare beyond the shortest dashed sample: it takes them
    two = sum(texts) + least + SAMPLE_WIDTH + 5.0 + frame
    assert legend.columns_for(two) == 2
    legend.reflow(2)
    legend.set_strip(two, 1.0)
    lengths = [s.sceneBoundingRect().width() for s, _label in legend.items]
    assert abs(lengths[0] - (least + 5.0)) < 0.5 and lengths[1] == SAMPLE_WIDTH
    view.close()


def test_a_dashed_sample_costs_no_column_a_solid_one_keeps_and_shows_its_dashes(qapp):
    """A dashed line's sample counted at ten pen widths (40 px at 200 %, 60 px at 300 %)
    cost 8 legends a column at 200–300 % (RoPE's score and decay, DeBERTa's terms,
    Sinusoidal's sum, Compare's distance): the strip took another row. The columns are
    counted with solid lines' 20 px samples now; a dashed sample the columns keep
    shorter than ten pen widths draws two dashes and the gap between them, the line's
    pattern shrunk (at 300 %, 20 px: two 8 px dashes, a 4 px gap), as a dashed line."""
    names = ["sum Aᵢⱼ", "(a) content"]
    plot, legend, view = _dashed_legend(3.0, names, [True, False])
    full, least = legend.dash_samples(1.0)
    assert (full, least) == (72.0, 60.0)
    wide = legend.entry_widths(held=False, width=2000.0, scale=1.0)
    texts = [w - s for w, s in zip(wide, legend.samples(1.0, 2000.0), strict=True)]
    frame = legend._margins() - legend._gap()
    for spare, length in ((0.0, SAMPLE_WIDTH), (14.0, SAMPLE_WIDTH + 14.0)):
        # room for both entries in a row with 20 px samples (and ``spare`` px more)
        two = sum(texts) + 2 * SAMPLE_WIDTH + spare + frame
        assert legend.columns_for(two) == 2  # (with 60 px for the dashed one: 1)
        legend.reflow(2)
        legend.set_strip(two, 1.0)
        plot.layout.activate()
        sample = legend.items[0][0]
        assert abs(sample.sceneBoundingRect().width() - length) < 0.5
        runs = _runs(view, sample)
        assert len(runs) == 2, (spare, runs)  # dash, gap, dash
        assert abs(runs[0] - runs[1]) <= 1 and runs[0] >= 6, (spare, runs)
        assert sum(runs) < length - 3, (spare, runs)  # a gap between them
        assert len(_runs(view, legend.items[1][0])) == 1  # the solid line's: one run
    view.close()


def test_a_samples_dashes_follow_a_new_pen_and_a_drags_solid_one_keeps_them(qapp):
    """Whether a sample is dashed is kept for its series' pen (the grid asks every
    legend's height on each frame): a series restyled with a new pen is read anew,
    and a drag's solid pen (the settled one kept as ``_full_pen``) keeps the dashed
    sample; the strip's dashed sample width follows."""
    from PySide6 import QtCore

    from gui.plotting.panel_plot import PanelPlot
    from gui.theme import current_theme

    plot, legend, view = _dashed_legend(2.0, ["a", "b"], [True, False])
    dashed, solid = legend.items[0][0], legend.items[1][0]
    assert dashed.dashed() and not solid.dashed()
    wide = legend.dash_samples(1.0)
    assert wide[0] > SAMPLE_WIDTH
    for _frame in range(3):
        assert dashed.dashed() and not solid.dashed()  # (kept)
    theme = current_theme()
    item = solid.item
    item.setPen(PanelPlot._curve_pen("dashed", "#d55e00", theme))  # restyled: a new pen
    assert solid.dashed()
    item.setPen(PanelPlot._curve_pen("solid", "#d55e00", theme))
    assert not solid.dashed()
    item.setPen(pg.mkPen("#d55e00", width=7))  # (its line's width, kept the same way)
    assert solid.line_width() == 7.0 and solid.line_width() == 7.0
    item.setPen(pg.mkPen("#d55e00", width=3))
    assert solid.line_width() == 3.0
    item.setPen(pg.mkPen(None))  # no line
    assert solid.line_width() == 0.0
    # a drag draws the dashed line solid, its settled pen kept: still a dashed sample
    full = dashed.item.opts["pen"]
    dashed.item._full_pen = full
    dashed.item.setPen(PanelPlot._curve_pen("solid", "#0072b2", theme))
    assert dashed.item.opts["pen"].style() == QtCore.Qt.PenStyle.SolidLine
    assert dashed.dashed() and legend.dash_samples(1.0)[0] > SAMPLE_WIDTH
    del dashed.item._full_pen
    assert not dashed.dashed() and legend.dash_samples(1.0)[0] == SAMPLE_WIDTH
    view.close()


def test_a_plain_rename_replaces_the_characters_alone(qapp):
    """A plain text in place of a plain one set in the label's style (a drag's
    "query at m=…", "m − n = …" with no-break spaces) replaces the document's
    characters (no rich text parsed: ``setHtml`` not called); the document is the one
    ``setHtml`` of the rich text gives. Rich text, folded white space or another style
    go through ``setHtml``."""
    from gui.plotting.legend_strip import _replace_text, label_html
    from gui.render.scripts import typeset_scripts

    label = pg.LabelItem("query at m=5", size="10pt", color="#336699")
    item = label.item
    html_sets: list[str] = []
    set_html = item.setHtml

    def counted(html: str) -> None:
        html_sets.append(html)
        set_html(html)

    item.setHtml = counted

    def reference(text: str) -> str:
        fresh = pg.LabelItem("", size=label.opts["size"], color=label.opts["color"])
        fresh.item.setHtml(label_html(fresh, text))
        typeset_scripts(fresh.item.document())
        return fresh.item.document().toHtml()

    _replace_text(label, "query at m=6")  # (set by pyqtgraph first: set as rich text)
    assert len(html_sets) == 1
    for text in ("query at m=17", "m\u00a0\u2212 n\u00a0= \u22124", "query at m=517"):
        _replace_text(label, text)
        assert label.text == text and item.document().toPlainText() == text.replace("\u00a0", " ")
        assert item.document().toHtml() == reference(text)
    assert len(html_sets) == 1  # the characters alone
    assert item.document().availableUndoSteps() == 0  # (no edit kept for an undo)
    for text in ("q<sub>m</sub>", "query at m=8", "two  spaces", "query at m=9"):
        _replace_text(label, text)  # rich, then after rich, folded, after folded
        assert item.document().toHtml() == reference(text)
    assert len(html_sets) == 5
    label.setAttr("color", "#993366")  # another style: set as rich text
    _replace_text(label, "query at m=10")
    assert len(html_sets) == 6 and item.document().toHtml() == reference("query at m=10")
