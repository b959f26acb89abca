"""Square-cell heatmaps stand next to their axes (issue 14): pyqtgraph's aspect lock
pads the view's range on both sides, so a square matrix in a wide plot sat centred
with the spare width between the left axis and the data and between the data and the
colour bar. Measured before at 1600 x 1000, 100 %: Sinusoidal's 100 x 100 similarity
175 px and 185 px, Learned's cosine similarity 110 px and 120 px; on stage at
1920 x 1080, 200 %: 257 / 267 px and 243 / 253 px. The spare width now goes outside
the plot's axes and colour bar, half to each side (``CellDisplay._hug_square``): the
gaps are the view's own range padding and a few pixels (5.5 / 15.5 px and 10.7 /
20.7 px in the window, 11.7 / 21.7 px and 10.5 / 20.5 px on stage). The title keeps
the width it had (its lines do not follow the matrix's width) and passes over the
colour bar, shortened at its ends so that its end labels stay below the title. One
window for the module; geometry only."""

from __future__ import annotations

import pytest

from gui.plotting.layout_check import layout_problems

SQUARE = {"sinusoidal": "similarity", "learned": "similarity"}
CASES = {  # (window size, UI scale, presenting)
    "window-1600x1000-100": ((1600, 1000), 1.0, False),
    "stage-1920x1080-200": ((1920, 1080), 2.0, True),
}


def _gaps(plot) -> tuple[float, float, float]:
    """``(left, right, width)``: scene pixels from the left axis' edge to the image's
    left edge, from the image's right edge to the colour bar's, and the image's width."""
    image = plot.image.mapRectToScene(plot.image.boundingRect())
    axis = plot.plot.getAxis("left").sceneBoundingRect()
    bar = plot.colorbar.sceneBoundingRect()
    return image.left() - axis.right(), bar.left() - image.right(), image.width()


@pytest.mark.parametrize("view_id", list(SQUARE))
def test_square_cells_stand_next_to_their_axes(studio, show_view, case, view_id):
    """The gaps are the view's own range padding (at most a tenth of the data's width
    each side) and a few pixels, whatever the plot's shape; the plot's spare width is
    beside its axes and colour bar, and nothing of the view overlaps or is cut."""
    size, scale, present = CASES[case]
    widget = show_view(studio, view_id, size, scale, present)
    plot = widget.plots[SQUARE[view_id]]
    left, right, width = _gaps(plot)
    assert left <= 0.1 * width + 8, f"{left:.0f} px from the axis, {width:.0f} px of data"
    assert right <= 0.1 * width + 20, f"{right:.0f} px to the colour bar"
    assert plot.hug > 0  # (these plots are wider than their matrices)
    assert layout_problems(widget) == []


SENTENCE = "the quick brown fox jumps over the lazy dog"


def _boxes(plot) -> dict[str, tuple[float, ...]]:
    """Scene boxes of a square matrix's plot: its image, view box, bottom axis, colour
    bar, left axis' title and the plot (rounded to 0.1 px, compared across passes)."""

    def box(item) -> tuple[float, ...]:
        r = item.sceneBoundingRect()
        return tuple(round(v, 1) for v in (r.left(), r.top(), r.right(), r.bottom()))

    image = plot.image.mapRectToScene(plot.image.boundingRect())
    title = plot.plot.getAxis("left").label
    return {
        "image": tuple(
            round(v, 1) for v in (image.left(), image.top(), image.right(), image.bottom())
        ),
        "view": box(plot.plot.getViewBox()),
        "bottom": box(plot.plot.getAxis("bottom")),
        "bar": box(plot.colorbar),
        "title": tuple(
            round(v, 1) for v in (title.mapRectToScene(title.boundingRect()).center().y(),)
        ),
        "plot": box(plot.plot),
    }


def test_a_narrow_square_matrix_hugs_its_content_downwards(studio, show_view, case):
    """Word order with a lecturer's 9-word sentence and its reversal: the 9 x 9 weights
    are as wide as their column allows and shorter than their row (the 9 x 16
    differences beside them set it). Before, they sat in the middle of a view box as
    tall as the row: at 1920 x 1080 / 100 % the key axis' top was 170 px below the last
    row, the colour bar 550 px tall beside 198 px of data and "queries" 20 px below
    the matrix's centre. The spare height now goes below the plot's bottom axis: the
    axis stands under the last row (the view's own padding and a few px), the colour
    bar spans the view box, the title is centred on the matrix; the same boxes after
    more passes of the event loop (no growth, no flip-flop)."""
    from PySide6 import QtWidgets
    from qt_events import settle_window

    size, scale, present = CASES[case]
    widget = show_view(studio, "permutation", size, scale, present)
    state = studio.states["permutation"]
    try:
        state.set_param("sentence", SENTENCE)
        state.set_param("permuted", " ".join(reversed(SENTENCE.split())))
        assert studio.wait_idle()
        settle_window(studio)
        widget.canvas.viewport().repaint()
        plot = widget.plots["weights_a_none"]
        assert plot.image.image.shape == (9, 9)
        first = _boxes(plot)
        left, top, right, bottom = first["image"]
        view = first["view"]
        pad = 0.1 * (bottom - top) + 4  # the view's padding (at most 10 %) and a few px
        assert first["bottom"][1] - bottom <= pad, first
        assert view[3] - bottom <= pad and top - view[1] <= pad, first
        bar = first["bar"]
        assert bar[3] - bar[1] <= view[3] - view[1] + 1, first  # the bar spans the view box
        assert abs(first["title"][0] - (top + bottom) / 2) <= 3, first  # "queries"
        # narrower than tall: the spare height is below it, or its row is held at the
        # matrix's height (a row of matrices alone: ViewWidget._row_caps)
        assert plot.spare_below > 0 or plot.plot.height() <= plot.fill_height() + 1
        for _ in range(4):
            for _ in range(5):
                QtWidgets.QApplication.processEvents()
            settle_window(studio)
            assert _boxes(plot) == first
        assert layout_problems(widget) == []
    finally:
        state.reset()
        assert studio.wait_idle()
