"""A deck scene's columns on the stage do not depend on the scene shown before it.

The lecture's scene 2 (Word order's causal and RoPE out_B - out_A grids) on a
1600 x 1000 stage at 200 % was laid out one above the other (its values at the
stage's size) when reached from another view's scene, and side by side (no values
printed) when reached from scene 1: whether the rows fit was read partly from the
plots as the previous scene had left them (the notes line's and the formula's height,
a taller title beside a grid, whether its values print now). At 1280 x 720 / 150 % it
was laid out one above the other and scrolled from scene 3.
"""

from __future__ import annotations

import pytest
from qt_events import settle_window
from tiers import gate_cover

SIZES = [
    (1600, 1000, 2.0),
    (1920, 1080, 1.5),
    (1920, 1080, 2.0),
    (1280, 720, 1.5),
    (1280, 720, 2.0),
]
# The gate keeps the two stages the layout changed on (the module's docstring): 1600 x
# 1000 at 200 %, one above the other or side by side by the scene before, and 1280 x 720
# at 150 %, where it scrolled from scene 3; the other three, laid out the same way from
# every scene, run with --full.
GATE = [(1600, 1000, 2.0), (1280, 720, 1.5)]


def _scene(window, number: int):
    window.lecture.deck.go(number - 1)
    assert window.wait_idle(60)
    settle_window(window)
    return window.views[window.current_view]


def _layout(widget) -> tuple[int, tuple[bool, ...], bool]:
    """Scene 2's columns, whether each of its grids prints its values and whether the
    view scrolls."""
    from gui.widgets.grid_flow import grid_columns
    from gui.widgets.view_widget import grid_position

    layout = widget.canvas.ci.layout
    keys = ("diff_causal", "diff_pe")
    where = {key: grid_position(layout, widget.plots[key].plot) for key in keys}
    printed = tuple(widget.plots[key].cells.value_font() is not None for key in keys)
    return grid_columns(where), printed, widget.scrolls


@pytest.mark.parametrize(
    "size", gate_cover(SIZES, keep=GATE), ids=lambda s: f"{s[0]}x{s[1]}@{int(s[2] * 100)}"
)
def test_scene_2_is_laid_out_the_same_from_scene_1_and_from_scene_3(lecture_stage, size):
    width, height, scale = size
    display = lecture_stage.lecture.display
    display.set_scale(scale)
    lecture_stage.resize(width, height)
    settle_window(lecture_stage)
    try:
        _scene(lecture_stage, 3)
        fresh = _layout(_scene(lecture_stage, 2))
        _scene(lecture_stage, 1)
        after_1 = _layout(_scene(lecture_stage, 2))
        _scene(lecture_stage, 3)
        after_3 = _layout(_scene(lecture_stage, 2))
        assert fresh == after_1 == after_3, (fresh, after_1, after_3)
        if fresh[0] == 1:  # one above the other only where that does not scroll
            assert fresh[1] == (True, True) and not fresh[2], fresh
    finally:
        display.set_scale(2.0)
        lecture_stage.resize(1920, 1080)
        settle_window(lecture_stage)
