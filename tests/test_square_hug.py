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
