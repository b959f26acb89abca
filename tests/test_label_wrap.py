"""A text of an arrows panel wider than the plot's data area wraps inside its width (the
live window, normal mode, 100 %), instead of being cut off at the plot's edge."""

from __future__ import annotations

from axis_text import label_boxes, strip_rect


def test_a_clock_text_wider_than_the_plane_wraps_inside_it(qapp, open_window):
    """The live window at 1600 x 1000, 100 %: dragging m to 93400 made the clock's line
    "q at (m + s)·θ = 93400 rad (1.49·10⁴ turns)" 371 px wide in a 345 px plane, and
    it was cut off at the plane's right edge ("… (1.49·10⁴ turr"). A text wider than the
    data area wraps onto lines that fit it, whole (in the strip above the data: it names
    no point of the plane); back at m = 2 it is one line again."""
    with open_window(1600, 1000) as win:
        win.set_view("clock")
        state = win.states["clock"]
        try:
            state.set_param("m", 93400)
            _area, _boxes = label_boxes(win, "clock")  # (lays the view out)
            area, boxes = label_boxes(win, "clock")
            texts = dict(boxes)
            long = next(t for t in texts if t.startswith("q at (m + s)"))
            assert "93400\u202frad" in long and "turns" in long
            strip = strip_rect(win, "clock")
            assert abs(strip.width() - area.width()) <= 1  # (as wide as the data)
            outside = [
                (text, box.getRect())
                for text, box in boxes
                if not any(room.adjusted(-1, -1, 1, 1).contains(box) for room in (area, strip))
            ]
            assert not outside, (area.getRect(), strip.getRect(), outside)
            assert strip.adjusted(-1, -1, 1, 1).contains(texts[long])
            # broken between words, a number kept with its unit: "… 93400 rad" over
            # "(1.49·10⁴ turns)", not "… (1.49·10⁴" over "turns)"
            plot = win.views["clock"].plots["plane"]
            item = next(i for i in plot.text_labels if i.toPlainText() == long)
            lines = [line.strip() for line in item.textItem.lines()]
            assert lines == ["q at (m + s)·θ = 93400\u202frad", "(1.49·10⁴\u202fturns)"], lines
            state.set_param("m", 2)
            _area, boxes = label_boxes(win, "clock")
            short = next(b for t, b in boxes if t.startswith("q at (m + s)"))
            assert short.height() < texts[long].height()  # one line again
        finally:
            state.set_param("m", 2)
