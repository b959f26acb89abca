"""Square-cell heatmaps stand far from their axes (issue 14): pyqtgraph's aspect lock
pads the view's range on both sides, so a square matrix in a wide plot sits centred
with the spare width between the left axis and the data and between the data and the
colour bar. Measured at 1600 x 1000, 100 %: Sinusoidal's 100 x 100 similarity 175 px
and 185 px, Learned's cosine similarity 110 px and 120 px (on stage at 1920 x 1080,
200 %: 257 / 267 px and 243 / 253 px). A strict expected failure
until the spare width goes outside the plot (past the colour bar): an attempt that
capped the data's column and added a stretching column past the colour bar (the
title spanning it) hugged the axes (4-14 px) but the title then reached over the
colour bar's end label, and a re-styled view no longer matched one built anew (an
axis' held room); not committed. One window for the module; geometry only."""

from __future__ import annotations

import pytest

SQUARE = {"sinusoidal": "similarity", "learned": "similarity"}


@pytest.fixture(scope="module")
def studio(qapp, open_window):
    with open_window(1600, 1000) as win:
        yield win


def _gaps(plot) -> tuple[float, float, float]:
    """``(left, right, width)``: scene pixels from the left axis' edge to the image's
    left edge, from the image's right edge to the colour bar's, and the image's width."""
    image = plot.image.mapRectToScene(plot.image.boundingRect())
    axis = plot.plot.getAxis("left").sceneBoundingRect()
    bar = plot.colorbar.sceneBoundingRect()
    return image.left() - axis.right(), bar.left() - image.right(), image.width()


@pytest.mark.xfail(strict=True, reason="aspect lock pads both sides (not fixed yet)")
@pytest.mark.parametrize("view_id", list(SQUARE))
def test_square_cells_stand_next_to_their_axes(studio, show_view, view_id):
    """The gaps should be the view's own range padding (at most a tenth of the data's
    width each side) and a few pixels, whatever the plot's shape."""
    widget = show_view(studio, view_id, (1600, 1000), 1.0)
    plot = widget.plots[SQUARE[view_id]]
    left, right, width = _gaps(plot)
    assert left <= 0.1 * width + 8, f"{left:.0f} px from the axis, {width:.0f} px of data"
    assert right <= 0.1 * width + 20, f"{right:.0f} px to the colour bar"
