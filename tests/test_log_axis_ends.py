"""A log axis's top label on stage at large UI scales (the Sinusoidal view's wavelength
plot, the lecture deck's "Watch the base grow" scene): the label of the top decade is
drawn whole, also where it sits on the axis's top end."""

from __future__ import annotations

import math

import numpy as np
import pytest
from tiers import gate_cover

from gui.plotting.layout_check import tick_text_rects

_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


def _value(text: str) -> float:
    """A log axis's label as a number: "500", "1000", "10⁴"."""
    if text.startswith("10") and text[2:] and text[2] in "⁰¹²³⁴⁵⁶⁷⁸⁹⁻":
        return 10.0 ** int(text[2:].translate(_SUPERSCRIPTS))
    return float(text.replace("−", "-"))


@pytest.fixture(scope="module")
def window(qapp, open_window):
    with open_window(1920, 1080) as win:
        win.set_view("sinusoidal")
        state = win.states["sinusoidal"]
        state.set_param("seq_len", 200)  # the deck's scene 5
        state.set_param("d_model", 16)
        yield win
        state.set_param("base", 10000.0)


@pytest.mark.parametrize(
    "size, scale, present",
    # the gate keeps the stage at 300 % (where the decade was dropped); the others, each
    # a second or more, run in the full suite
    gate_cover(
        [
            ((1920, 1080), 3.0, True),
            ((1920, 1080), 3.0, False),
            ((1920, 1080), 2.0, True),
            ((1280, 720), 2.0, True),
            ((1920, 1080), 1.0, False),
        ],
        [((1920, 1080), 3.0, True)],
        unpack=True,
    ),
)
def test_the_top_decade_is_labelled_whole(window, show_view, size, scale, present):
    """Sweeping the base (what Space does in the deck's scene) moves the top of the
    wavelength axis across the decades. Where a decade sat on the top end (10⁴ at
    4.007 of the range, 10⁶ at 6.081, at 300 % on stage), its label ran half a line
    past the axis's end, beyond the 15 px pyqtgraph allows there, and was left out:
    the axis ended at 10³. The highest decade in the range is labelled (of those
    labelled: a short plot labels every other one), and every
    label lies whole in the axis's bounds (which clip it) and in its plot, on stage
    and in the window, 100 % to 300 %."""
    state = window.states["sinusoidal"]
    problems = []
    for base in np.geomspace(100.0, 1e6, 40):
        state.set_param("base", float(base))
        widget = show_view(window, "sinusoidal", size, scale, present=present)
        plot = widget.plots["wavelength"]
        axis = plot.plot.getAxis("left")
        bounds, box = axis.sceneBoundingRect(), plot.plot.sceneBoundingRect()
        top = plot.plot.getViewBox().viewRange()[1][1]
        labels = tick_text_rects(axis)
        values = [_value(text) for text, _ink in labels]
        # the labelled decades, every one or thinned to every other (a short plot): the
        # next one up from the highest is past the range's top
        decades = sorted(v for v in values if math.log10(v) == round(math.log10(v)))
        step = decades[-1] / decades[-2] if len(decades) > 1 else 10.0
        if not decades or decades[-1] * step <= 10.0**top:
            problems.append(f"base {base:.0f}: range to 10^{top:.3f}, labels {values}")
        for text, ink in labels:
            if not (bounds.contains(ink) and box.contains(ink)):
                problems.append(f"base {base:.0f}: {text!r} cut ({ink.getRect()})")
    assert problems == []
