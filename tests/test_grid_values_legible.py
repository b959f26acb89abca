"""Small grids print their values in the window and on stage (issue 14, item 3): the
course's relative-position grid ``[i, j] = i - j`` with its two-digit negatives ("-10",
"-15"), Shaw's and T5's grids and ALiBi's 8 x 8 toys, at 1600 x 1000 / 100 % in the
window and at 1920 x 1080 / 200 % and 300 % on stage. Before, the course grid printed
nothing in any of them: 12.8, 29.7 and 38.5 px cells (12 x 12) for "-10", which needed
15.2, 30.3 and 45.6 px at the smallest legible size (6, 12 and 18 pt); ALiBi's toys had
16.6, 26.3 and 41.5 px cells for "-0.25". One window for the module; geometry only."""

from __future__ import annotations

import pytest
from PySide6 import QtGui

from gui.render.cell_values import stage_value_pt

CASES = {  # (window size, UI scale, presenting)
    "window-1600x1000-100": ((1600, 1000), 1.0, False),
    "stage-1920x1080-150": ((1920, 1080), 1.5, True),
    "stage-1920x1080-200": ((1920, 1080), 2.0, True),
    "stage-1920x1080-300": ((1920, 1080), 3.0, True),
}
GATE_CASES = ("stage-1920x1080-200",)  # the others with --full (tests/tiers.py)


def _printed(plot) -> list[str]:
    """What is wrong with a plot's printed values: none printed, a value missing, one
    wider or taller than its cell or outside the data area, or under the least size."""
    layer = plot.cells
    font = layer.value_font()
    if font is None:
        return [f"nothing printed: {layer.cell_size()[0]:.1f} px cells"]
    problems = []
    if font.pointSizeF() < max(6.0, 0.5 * layer.font_pt):  # the legible floor
        problems.append(f"{font.pointSizeF()} pt")
    metrics = QtGui.QFontMetricsF(font)
    shown = layer.shown()
    if len(shown) != len(layer.texts) or not shown:
        problems.append(f"{len(shown)} of {len(layer.texts)} shown")
    view = plot.plot.getViewBox().boundingRect()
    for text, cell in shown:
        if metrics.horizontalAdvance(text) > cell.width():
            problems.append(f"{text!r} {metrics.horizontalAdvance(text):.1f} > {cell.width():.1f}")
        if metrics.height() > cell.height():
            problems.append(f"{text!r} {metrics.height():.1f} high > {cell.height():.1f}")
        if not view.adjusted(-0.5, -0.5, 0.5, 0.5).contains(cell):
            problems.append(f"{text!r} cell outside the data area")
    return problems[:4]


@pytest.mark.parametrize("seq_len", [12, 16])
def test_the_course_grid_prints_its_two_digit_negatives(studio, show_view, case, seq_len):
    studio.set_view("relative")
    studio.states["relative"].set_param("seq_len", seq_len)
    size, scale, present = CASES[case]
    widget = show_view(studio, "relative", size, scale, present)
    grid = widget.plots["grid"]
    texts = {text for _r, _c, text, _dark in grid.cells.texts}
    assert {"-10", str(1 - seq_len), str(seq_len - 1)} <= texts
    problems = {key: _printed(widget.plots[key]) for key in ("grid", "shaw", "t5")}
    assert problems == {"grid": [], "shaw": [], "t5": []}


def test_alibis_toy_grids_print_their_biases(studio, show_view, case):
    size, scale, present = CASES[case]
    widget = show_view(studio, "alibi", size, scale, present)
    problems = {key: _printed(widget.plots[key]) for key in ("course", "real")}
    assert problems == {"course": [], "real": []}


def test_alibis_toy_grids_print_at_the_stage_value_size(studio, show_view, case):
    """On stage ALiBi's 8 x 8 toys print their values at two thirds of the size the UI
    scale asks for or larger (:func:`stage_value_pt`: 12 pt at 150 %, 16 pt at 200 %),
    their rows made as tall as that needs, unless the plot already takes the whole stage
    below the view's heading (at 300 % the course toy's five title lines leave it the
    least size's cells: the other test). Before, the stage gave them the least size's
    room only: 26 px cells and 9 pt values (9 px digits) at 1920 x 1080 / 150 %, 34.7 px
    cells and 12 pt at 200 %."""
    size, scale, present = CASES[case]
    if not present:
        pytest.skip("the stage's value size is the stage's")
    widget = show_view(studio, "alibi", size, scale, present)
    problems = []
    for key in ("course", "real"):
        plot = widget.plots[key]
        font = plot.cells.value_font()
        want = stage_value_pt(plot.cells.font_pt)
        if font is None:
            problems.append(f"{key}: nothing printed")
        elif font.pointSizeF() < want and plot.plot.height() < plot.stage_room - 1:
            problems.append(
                f"{key}: {font.pointSizeF()} pt < {want} pt in a {plot.plot.height():.0f} px plot"
            )
    assert problems == []
    if scale < 3.0:  # (the sizes the stage has the room for at 1920 x 1080)
        sizes = [widget.plots[k].cells.value_font().pointSizeF() for k in ("course", "real")]
        assert min(sizes) >= stage_value_pt(widget.plots["course"].cells.font_pt), sizes


def test_the_course_grid_on_a_small_stage_gets_a_wider_column(studio, show_view):
    """On a 1500 x 900 stage at 100 % the course grid's column is widened for its values
    at the stage's value size, and the bucket plot and DeBERTa's curves beside it give
    up the width (curves in one row may differ; only grids stay alike). Before, equal
    columns gave it 360 px of the 387 it needs: "-10" at 6.0 pt (7.0 now)."""
    from gui.render.cell_values import least_pt

    studio.set_view("relative")
    studio.states["relative"].set_param("seq_len", 12)
    widget = show_view(studio, "relative", (1500, 900), 1.0, True)
    grid = widget.plots["grid"]
    assert widget.columns == 4
    assert grid.plot.width() >= widget._weights["grid"] > widget.plots["t5_curve"].plot.width()
    assert grid.cells.value_font().pointSizeF() > least_pt(grid.cells.font_pt)
    widget_curves = [widget.plots[k].plot.width() for k in ("deberta_terms", "deberta_buckets")]
    assert min(widget_curves) >= 240  # the window's smallest plot at 100 %
