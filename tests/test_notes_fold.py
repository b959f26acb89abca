"""The bottom edge of a view that scrolls never takes the last pixel row of a notes
line (the live window, normal mode, 100 %)."""

from __future__ import annotations

from qt_events import settle_window

from gui.plotting.layout_check import text_lines


def test_an_odd_width_note_keeps_its_underscores_above_the_fold(qapp, open_window):
    """1600 x 1000, Sinusoidal, d typed as 33: the odd-d note takes four lines, the view
    scrolls, and its first line, "course code: positional_encoding(max_len, 33) …", lay
    at 928..946.6 px with the fold at 946: its underscores (the line's last pixel row)
    were cut off ("positional encoding(max len, 33)" on screen). _fold_fit had grown
    the canvas by ceil(946 − 945.6) = 1 px to push the second line, which showed 0.4 px,
    below the fold, and so pushed the first one's bottom past it. Each line now either
    ends at the fold or starts less than a pixel above it (a sliver of its top leading)."""
    with open_window(1600, 1000) as win:
        win.set_view("sinusoidal")
        settle_window(win)
        state = win.states["sinusoidal"]
        try:
            state.set_param("d_model", 33)
            settle_window(win)
            widget = win.views["sinusoidal"]
            label = widget.status
            assert "positional_encoding(max_len, 33)" in label.text()
            assert widget.scrolls
            port = widget.scroll_area.viewport()
            fold = float(port.height())
            y0 = float(label.mapTo(port, label.rect().topLeft()).y())
            top, spacing, lines = text_lines(label)
            assert lines >= 2
            cut = []
            for i in range(lines):
                a = y0 + top + i * spacing
                b = a + spacing
                if not (b <= fold + 0.01 or a > fold - 1):
                    cut.append((i + 1, round(a, 2), round(b, 2), fold))
            assert not cut, cut
        finally:
            state.set_param("d_model", 32)
