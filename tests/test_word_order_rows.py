"""Word order's matrices line up row by row (issue 14, "Layout that fits the scale").

Measured before, with the default sentence: on stage at 1600 x 1000 / 150 % the 3 x 3
matrices' titles took three lines beside their out_B - out_A grid's two, so the grid's
data started 32 px higher (82 vs 114) and its x axis stood 10 px lower (320 vs 310); at
1920 x 1080 / 200 % 41 px and 22 px. With a 9-word sentence in a 1600 x 1000 window at
100 % (two plot columns: rows of A and B alone) each row was 108 px taller than its
width-limited squares, blank below their keys' axis. Now the heatmaps that start in one
grid row have titles of one height (the tallest), and a row of matrices alone is no
taller than its tallest square needs (the spare height goes to the other rows). One
window for the module; geometry only.
"""

from __future__ import annotations

import pytest
from qt_events import settle_window

NINE = "the quick brown fox jumps over the lazy dog"
NINE_B = "the lazy dog jumps over the quick brown fox"
CASES = {  # (window size, UI scale, presenting, 9-word sentence)
    "window-1600x1000-100-nine": ((1600, 1000), 1.0, False, True),
    "stage-1600x1000-150": ((1600, 1000), 1.5, True, False),
    "stage-1920x1080-200": ((1920, 1080), 2.0, True, False),
    "window-1920x1080-150-nine": ((1920, 1080), 1.5, False, True),
    "stage-1920x1080-100-nine": ((1920, 1080), 1.0, True, True),
    "stage-1920x1080-150": ((1920, 1080), 1.5, True, False),
}
GATE_CASES = ("window-1600x1000-100-nine", "stage-1600x1000-150")  # the rest with --full
SIZES = {  # shown by test_values_are_as_large_as_their_cells_allow alone
    "stage-1920x1080-100": ((1920, 1080), 1.0, True, False),
    "stage-1600x1000-200-nine": ((1600, 1000), 2.0, True, True),
    # and by test_values_never_print_below_the_stage_size
    "window-1920x1080-100-nine": ((1920, 1080), 1.0, False, True),
    "stage-1920x1080-150-nine": ((1920, 1080), 1.5, True, True),
}


def _show(studio, show_view, case: str):  # type: ignore[no-untyped-def]
    size, scale, present, nine = CASES[case] if case in CASES else SIZES[case]
    widget = show_view(studio, "permutation", size, scale, present)
    state = studio.states["permutation"]
    wanted = (NINE, NINE_B) if nine else (None, None)
    if (state.values["sentence"], state.values["permuted"]) != wanted:
        if nine:
            state.set_values({**state.values, "sentence": NINE, "permuted": NINE_B})
        else:
            state.reset()
        assert studio.wait_idle()
        settle_window(studio)
        widget.canvas.ci.layout.activate()
    return widget


@pytest.fixture(scope="module", autouse=True)
def _default_sentence(studio):  # type: ignore[no-untyped-def]
    yield
    studio.states["permutation"].reset()
    studio.wait_idle()


def _rows(widget) -> dict[int, list]:  # type: ignore[no-untyped-def]
    """The heatmaps shown, by the grid row they start in."""
    from gui.widgets.view_widget import grid_positions

    positions = grid_positions(widget.canvas.ci.layout)
    rows: dict[int, list] = {}
    for plot in widget.plots.values():
        where = positions.get(plot.plot)
        if where is not None and plot.plot.isVisible() and plot.panel.kind == "heatmap":
            rows.setdefault(where[0], []).append(plot)
    return rows


def _top(item) -> float:  # type: ignore[no-untyped-def]
    return item.sceneBoundingRect().top()


def test_matrices_of_a_row_start_and_end_together(studio, show_view, case):
    """In each grid row the heatmaps' data start at one height (within 1 px: their
    titles take one height), and the square matrices' x axes stand at one height."""
    widget = _show(studio, show_view, case)
    problems = []
    for row, plots in _rows(widget).items():
        tops = {p.panel.key: _top(p.plot.getViewBox()) for p in plots}
        if max(tops.values()) - min(tops.values()) > 1:
            problems.append(f"row {row} data tops {tops}")
        squares = [p for p in plots if p.fill_height() is not None]
        axes = {p.panel.key: _top(p.plot.getAxis("bottom")) for p in squares}
        if axes and max(axes.values()) - min(axes.values()) > 1:
            problems.append(f"row {row} square x axes {axes}")
    assert problems == []
    assert any(len(plots) > 1 for plots in _rows(widget).values())


def test_a_row_of_matrices_is_no_taller_than_its_squares(studio, show_view, case):
    """A row of heatmaps alone is as tall as its tallest square matrix needs at its
    width (:meth:`CellDisplay.fill_height`, 1 px of rounding): no spare height below
    the squares, and a non-square grid beside them has its x axis at theirs (within
    the axes' own heights: 5 px)."""
    from gui.widgets.view_widget import ViewWidget, grid_positions

    widget = _show(studio, show_view, case)
    positions = grid_positions(widget.canvas.ci.layout)
    spans = []
    for plot in widget.plots.values():
        where = positions.get(plot.plot)
        if where is not None and plot.plot.isVisible():
            spans.append((plot, where[0], where[2]))
    caps = ViewWidget._row_caps(spans)
    assert caps  # (every case has a row of matrices alone)
    problems = []
    for row, plots in _rows(widget).items():
        if row not in caps:
            continue
        for plot in plots:
            fill = plot.fill_height()
            if fill is not None and plot.spare_below > 1:
                problems.append(f"{plot.panel.key}: {plot.spare_below} px below (fill {fill:.0f})")
        axes = [  # (of the plots in this row alone: Word order's layers span two)
            p.plot.getAxis("bottom").sceneBoundingRect().top()
            for p in plots
            if positions[p.plot][2] == 1
        ]
        if max(axes) - min(axes) > 5:
            problems.append(f"row {row} x axes {axes}")
    assert problems == []


def test_the_rows_come_back_the_same(studio, show_view, case):
    """The rows' heights and the plots' boxes are the same after another case was
    shown (another scale and mode, the other sentence) and this one again."""
    if case != GATE_CASES[0]:
        pytest.skip("one round trip is enough")

    def boxes() -> dict[str, tuple[int, ...]]:
        widget = _show(studio, show_view, case)
        return {
            key: tuple(round(v) for v in plot.plot.sceneBoundingRect().getRect())
            + (round(_top(plot.plot.getViewBox())), plot.spare_below)
            for key, plot in widget.plots.items()
            if plot.plot.isVisible()
        }

    first = boxes()
    _show(studio, show_view, "stage-1600x1000-150")
    assert boxes() == first


def test_values_of_one_shape_print_at_one_size(studio, show_view, case):
    """The values of the matrices of one shape (A and B side by side, the three
    out_B - out_A grids in rows of their own) print at one size: the largest all of
    them fit. On stage at 1920 x 1080 / 150 % the no-positions differences printed
    their "0"s at 23.5 pt two rows above the causal mask's "-0.4" at 13.5 pt."""
    widget = _show(studio, show_view, case)
    shapes: dict[tuple[int, int], list] = {}
    for plots in _rows(widget).values():
        for p in plots:
            if p.cells is not None and p.cells.best_pt():
                shapes.setdefault(p.cells.grid_shape, []).append(p.cells)
    assert any(len(layers) == 3 for layers in shapes.values())  # (the differences)
    problems = []
    for shape, layers in shapes.items():
        sizes = {layer.value_font().pointSizeF() for layer in layers}
        shared = min(layer.best_pt() for layer in layers)
        if sizes != {shared}:
            problems.append(f"{shape}: {sorted(sizes)} pt, not {shared}")
    assert problems == []


@pytest.mark.parametrize(
    ("stage", "keys", "least"),
    [
        ("stage-1920x1080-100", ("weights_a_none", "weights_b_none"), 13.0),
        ("stage-1600x1000-200-nine", ("weights_a_none", "weights_b_none"), 28.0),
    ],
)
def test_values_are_as_large_as_their_cells_allow(studio, show_view, stage, keys, least):
    """Roomy cells print larger values than the UI scale's size, up to 1.5 times it,
    with at least 0.6 em between neighbours, A and B alike (and the other 3 x 3 or
    9 x 9 matrices, the causal mask's "1" and "0" among them): on stage at 1920 x 1080 /
    100 % the "no positions" A and B (52 px cells) printed 12 pt, now 13.5; a 9-word
    sentence's 9 x 9 weights at 1600 x 1000 / 200 % (110 px cells) 24 pt, now 29."""
    from gui.render.cell_values import GROWN_GAP_EM, VALUE_GROW, value_fit

    widget = _show(studio, show_view, stage)
    sizes = {}
    for key in keys:
        layer = widget.plots[key].cells
        font = layer.value_font()
        sizes[key] = font.pointSizeF()
        assert least <= sizes[key] <= VALUE_GROW * layer.font_pt, (key, sizes)
        texts = [text for text, _rect in layer.shown()]
        width, height = value_fit(texts, font, GROWN_GAP_EM)
        cw, ch = layer.cell_size()
        assert width <= cw and height <= ch, (key, width, cw)
    assert len(set(sizes.values())) == 1, sizes


@pytest.mark.parametrize(
    ("size", "columns"), [("window-1920x1080-100-nine", 3), ("stage-1920x1080-150-nine", 2)]
)
def test_values_never_print_below_the_stage_size(studio, show_view, size, columns):
    """A 9-word sentence's grids print every value at the stage's least value size or
    larger (:func:`stage_value_pt`: 8 pt at 100 %, 12 pt at 150 %): the grid takes
    fewer plot columns for it rather than shrink them. In a 1920 x 1080 window at
    100 % four plot columns printed the 9 x 9 weights at 7 pt and the differences at
    6 pt (three columns now); on stage at 1920 x 1080 / 150 % three printed 11.5 and
    10.5 pt (two now)."""
    from gui.render.cell_values import stage_value_pt

    widget = _show(studio, show_view, size)
    problems = []
    grids = 0
    for plots in _rows(widget).values():
        for p in plots:
            layer = p.cells
            if layer is None or layer.grid_shape[0] != 9:
                continue
            grids += 1
            font = layer.value_font()
            cells = layer.grid_shape[0] * layer.grid_shape[1]
            if font is None or font.pointSizeF() < stage_value_pt(layer.font_pt):
                problems.append(f"{p.panel.key}: {font and font.pointSizeF()} pt")
            elif len(layer.shown()) != cells:
                problems.append(f"{p.panel.key}: {len(layer.shown())} of {cells} shown")
    assert grids == 9 and problems == [], (widget.columns, problems)
    assert widget.columns == columns


@pytest.mark.parametrize("size", ["window-1920x1080-100-nine", "stage-1920x1080-150-nine"])
def test_word_ticks_never_touch(studio, show_view, size):
    """The keys' words under a 9 x 9 matrix stand apart: a quarter line between each
    drawn word's text and the next at least, every ``k``-th word drawn (the first
    included) where all do not fit, never smaller than the word ticks' floor. In the
    1920 x 1080 window at 100 % all nine were drawn at 70 % of the tick font in 29.6 px
    cells, the closest 0.8 px apart ("quickbrown"); now every other word at full size,
    as the rows name them. On stage at 150 % all nine fit (two plot columns)."""
    from PySide6 import QtGui

    from gui.render.fast_axis import WORD_TICK_SCALES

    widget = _show(studio, show_view, size)
    problems = []
    checked = 0
    for plots in _rows(widget).values():
        for p in plots:
            ticks = p.panel.x_ticks
            if not ticks or len(ticks) != 9:
                continue
            axis = p.plot.getAxis("bottom")
            if axis.picture is None:
                axis._make_drawing()
            specs = axis.picture.specs[2]
            metrics = QtGui.QFontMetricsF(axis.tick_font())
            texts = [text for _rect, _flags, text in specs]
            words = [text for _v, text in ticks]
            step = max(1, round(len(words) / len(texts)))
            if texts != words[::step] or axis.tick_scale < WORD_TICK_SCALES[-1]:
                problems.append(f"{p.panel.key}: {texts} at {axis.tick_scale}")
            edges = sorted(
                (rect.center().x() - w / 2, rect.center().x() + w / 2)
                for rect, _flags, text in specs
                for w in [metrics.horizontalAdvance(text)]
            )
            least = min(b[0] - a[1] for a, b in zip(edges, edges[1:], strict=False))
            if least < metrics.height() / 4:
                problems.append(f"{p.panel.key}: {least:.1f} px between words")
            checked += 1
    assert checked == 6 and problems == [], problems
