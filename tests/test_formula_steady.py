"""The formula line keeps its height whatever values it shows (the lecture deck's
scene 5, "Watch the base grow": Space sweeps Sinusoidal's base up from 100).

The longest wavelength, "353" at base 100, is written with a power of ten from 1000
on ("1.18·10³"), and the term "→ ω_0 = 1, ω_1 = …" moves to the next line when the
base is written wider ("1258.93"). Each time, the line that took the superscript or
the subscripts grew (a 1280 × 720 window at 100 %: 66 → 71 px; the 1920 × 1080 stage
at 200 %: 122 → 132 → 138 px) and every plot below moved down in front of the class.
"""

from __future__ import annotations

import pytest
from qt_events import settle_window

SCENE = {"d_model": 16, "seq_len": 200, "dims": [0, 1, 4, 5, 14, 15]}
# the longest wavelength 353 (no power of ten), 1.18·10^{3}, and the base written
# wide enough that the ω_1 term wraps onto the wavelengths' line (200 % stage)
BASES = (100.0, 398.11, 1258.93, 10000.0)
CASES = {
    "window-1280x720-100": ((1280, 720), 1.0, False),
    "stage-1920x1080-200": ((1920, 1080), 2.0, True),
}


@pytest.fixture(scope="module")
def win(qapp, open_window):  # type: ignore[no-untyped-def]
    with open_window(1600, 1000) as window:
        yield window


@pytest.mark.parametrize("points", [13.0, 19.5, 39.0])  # the formula at 100, 150, 300 %
def test_a_formula_line_is_as_tall_with_or_without_scripts(qapp, points):
    """Each line of a laid-out formula is as tall as one with a superscript and a
    subscript: values written with or without a power of ten, a term with subscripts
    on this line or the next, lay out equally tall."""
    from PySide6 import QtGui

    from gui.render.formula_label import layout_formula

    font = QtGui.QFont("DejaVu Serif")
    font.setPointSizeF(points)
    heights = {
        markup: layout_formula(markup, font, 10_000).size.height()
        for markup in (
            "wavelengths 6.28 … 353",
            "wavelengths 6.28 … 3.48·10^{4}",
            "ω_1 = 0.4097",
            "ω_1 = 10^{−4}",
        )
    }
    assert len(set(heights.values())) == 1, heights
    # two terms on two lines: twice as tall, and the leading between them
    first, second = "ω_1 = 0.4097,", "wavelengths 6.28 … 353"
    width = 1 + max(layout_formula(t, font, 10_000).size.width() for t in (first, second))
    two = layout_formula(f"{first}  {second}", font, width)
    assert len(two.lines) == 2
    assert two.size.height() > 2 * heights[second]


def _place(win, widget) -> tuple[int, int, float]:  # type: ignore[no-untyped-def]
    """``(formula height, formula bottom, waves plot's top)`` in window pixels."""
    from PySide6 import QtCore

    formula = widget.formula
    bottom = formula.mapTo(win, QtCore.QPoint(0, formula.height())).y()
    plot = widget.plots["waves"].plot
    scene_top = plot.mapToScene(plot.rect().topLeft())
    view_top = widget.canvas.mapFromScene(scene_top)
    top = widget.canvas.viewport().mapTo(win, view_top).y()
    return formula.height(), bottom, top


def test_the_formula_line_keeps_its_height_as_values_gain_scripts(win, show_view, case):
    size, scale, present = CASES[case]
    widget = show_view(win, "sinusoidal", size, scale, present)
    state = win.states["sinusoidal"]
    places, markups = [], []
    for base in BASES:
        state.set_param("base", base)
        state.set_param("d_model", SCENE["d_model"])  # (no-ops after the first)
        state.set_param("seq_len", SCENE["seq_len"])
        assert win.wait_idle(60)
        widget.flush_text()
        widget.finish_live_frame()  # (the heights held during live frames let go)
        settle_window(win)
        markups.append(widget.formula.markup())
        places.append(_place(win, widget))
    wavelengths = [m.rsplit("wavelengths", 1)[1] for m in markups]
    assert "^{" not in wavelengths[0] and all("^{" in w for w in wavelengths[1:]), wavelengths
    assert all(p == places[0] for p in places), list(zip(BASES, places, strict=True))
