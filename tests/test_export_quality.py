"""Quality of exported images: scaled PNG exports look like full-size ones (issue 13)."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from gui.export.headless import export_view
from gui.render import snapshot

BACKGROUND_TOLERANCE = 8  # a grid shade differs from white by more (25 at least)


def _pixels(path) -> np.ndarray:
    image = QtGui.QImage(str(path), "PNG").convertToFormat(QtGui.QImage.Format.Format_RGB888)
    raw = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    return raw[:, : image.width() * 3].reshape(image.height(), image.width(), 3).astype(int)


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """``(start, length)`` of the runs of True in a 1-D mask."""
    edges = np.flatnonzero(np.diff(np.concatenate([[0], mask.astype(int), [0]])))
    return [(int(a), int(b - a)) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def _grid_and_data_widths(pixels: np.ndarray) -> tuple[list[int], list[int]]:
    """Widths of the vertical grid lines and of the horizontal data lines of a plot.

    Grid lines: gray columns (r = g = b, not white) spanning most of the image's height.
    Data lines: vertical runs of saturated colour in a column left of the legend and
    of the dashed training-length marker.
    """
    h, w, _ = pixels.shape
    gray = (
        (np.ptp(pixels, axis=2) <= 2)
        & (pixels[..., 0] < 255 - BACKGROUND_TOLERANCE)
        & (pixels[..., 0] > 150)
    )
    tall = gray.sum(axis=0) > 0.5 * h
    grid = [length for _start, length in _runs(tall)]
    saturated = np.ptp(pixels[:, int(0.3 * w)], axis=1) > 60
    data = [length for _start, length in _runs(saturated)]
    return grid, data


def test_scaled_png_grid_is_thinner_than_the_data(tmp_path, qapp):
    # "Defined for which positions?": horizontal data lines on a vertical grid.
    path = tmp_path / "lanes.png"
    export_view("compare", {}, path, panel="extrapolation", width=800, height=500, scale=2)
    grid, data = _grid_and_data_widths(_pixels(path))
    assert len(grid) >= 4 and len(data) >= 4, (grid, data)
    assert max(grid) < np.median(data), (grid, data)


def _label_boxes(monkeypatch) -> list[list[tuple[float, float, float, float]]]:
    """Record, per render, the image-pixel boxes of legends and axis titles."""
    renders: list[list[tuple[float, float, float, float]]] = []
    real = snapshot._paint_tree

    def spy(widget, painter, opaque, top=True, offset=None):
        if top:
            ratio = painter.device().devicePixelRatio()
            boxes = []
            for view in widget.findChildren(QtWidgets.QGraphicsView):
                if view.scene() is None or not view.isVisibleTo(widget):
                    continue
                origin = view.viewport().mapTo(widget, QtCore.QPoint())
                for item in view.scene().items():
                    if not item.isVisible():
                        continue
                    if isinstance(item, pg.LegendItem):
                        rect = item.sceneBoundingRect()
                    elif isinstance(item, pg.AxisItem) and item.label.isVisible():
                        rect = item.label.sceneBoundingRect()
                    else:
                        continue
                    box = view.mapFromScene(rect).boundingRect().translated(origin)
                    boxes.append(
                        tuple(ratio * v for v in (box.x(), box.y(), box.right(), box.bottom()))
                    )
            renders.append(sorted(boxes))
        return real(widget, painter, opaque, top, offset)

    monkeypatch.setattr(snapshot, "_paint_tree", spy)
    return renders


def test_scaled_png_places_legends_and_axis_titles_as_the_full_size_image(
    tmp_path, qapp, monkeypatch
):
    # 800 x 500 at scale 2 is 1600 x 1000 pixels: the same picture as 1600 x 1000 at
    # scale 1 (UI scale 100 % in both), legends and axis titles where they are there.
    renders = _label_boxes(monkeypatch)
    export_view("compare", {}, tmp_path / "s2.png", width=800, height=500, scale=2)
    export_view("compare", {}, tmp_path / "s1.png", width=1600, height=1000)
    scaled, full = renders
    assert len(scaled) == len(full) >= 8  # 3 legends, 6 axis titles
    np.testing.assert_allclose(np.array(scaled), np.array(full), atol=3)


@pytest.mark.parametrize("scale", [2, 8])
def test_scaled_png_has_the_requested_pixel_size(tmp_path, qapp, scale):
    path = tmp_path / "x.png"
    export_view("sinusoidal", {}, path, width=300, height=200, scale=scale)
    assert _pixels(path).shape[:2] == (200 * scale, 300 * scale)
