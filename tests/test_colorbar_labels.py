"""Colour bars keep their value labels at every UI scale: the value axis was 45 px
wide whatever its font, so at 200 % only the labels narrower than that were drawn
(the PE matrix's bar read "0" alone, the similarity's "0" and "10" without "−10")."""

from __future__ import annotations

import pytest
from axis_text import drawn_labels
from tiers import FULL


@pytest.fixture(scope="module")
def window(qapp, open_window):
    """One window for the module (each test leaves presentation mode and 100 %)."""
    with open_window(1600, 1000) as win:
        yield win


def test_colour_bar_labels_at_200_percent(window, qtbot):
    display = window.lecture.display
    window.resize(1920, 1080)
    display.enter_presentation(fullscreen=False)
    try:
        display.set_scale(2.0)
        window.set_view("sinusoidal")
        assert window.wait_idle()
        widget = window.views["sinusoidal"]
        widget.canvas.grab()
        heat = drawn_labels(widget.plots["heatmap"].colorbar.axis)
        sim = drawn_labels(widget.plots["similarity"].colorbar.axis)
    finally:
        display.set_scale(1.0)
        display.leave_presentation()
    # both ends and the zero, the negative end with the minus sign (U+2212) the axis
    # has room for (wider than the hyphen it replaced)
    assert {"\u22121.0", "0", "1.0"} <= set(heat), heat
    assert any(t.startswith("\u2212") for t in sim) and "0" in sim, sim


@FULL
def test_colour_bar_ends_at_300_percent(window, show_view):
    """The labels at a bar's ends stick out half a line past it: pyqtgraph leaves 15 px
    for that, so on stage at 300 % the attention matrices' bars read 0.2 … 0.8 without
    0 and 1.0, and Shaw's index bar 2 … 6 without 0 and 8."""
    try:
        weights = show_view(window, "permutation", (1600, 1000), 3.0, present=True)
        weights.canvas.grab()
        attention = drawn_labels(weights.plots["weights_a_none"].colorbar.axis)
        relative = show_view(window, "relative", (1600, 1000), 3.0, present=True)
        relative.canvas.grab()
        shaw = drawn_labels(relative.plots["shaw"].colorbar.axis)
    finally:
        window.lecture.display.set_scale(1.0)
        window.lecture.display.leave_presentation()
    assert {"0", "1.0"} <= set(attention), attention
    assert {"0", "8"} <= set(shaw), shaw
