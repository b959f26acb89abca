"""An ``ImageItem`` that turns a heatmap into screen pixels in one cheap pass.

pyqtgraph renders a float image with NaNs (masked cells, e.g. ALiBi's causal triangle)
through a general RGBA path: about 2 ms for 512 × 512, then a slow draw of its
non-premultiplied result. :class:`FastImageItem` applies the same level scaling and
lookup table (same float32 arithmetic, so the same colour index for every cell) into a
premultiplied ARGB32 image with NaNs fully transparent, which Qt draws without
conversion. Anything else (other dtypes, translucent lookup tables, downsampling) goes
through pyqtgraph unchanged.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtGui


def argb_table(lut: np.ndarray) -> np.ndarray:
    """Opaque ``(N, 3|4)`` uint8 RGB(A) lookup table as ``N + 1`` premultiplied ARGB32
    words; the extra last entry is fully transparent (for NaN cells)."""
    rgb = lut[:, :3].astype(np.uint32)
    table = np.zeros(len(lut) + 1, dtype=np.uint32)
    table[:-1] = 0xFF000000 | (rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2]
    return table


def color_indices(image: np.ndarray, levels: tuple[float, float], n_colors: int
                  ) -> np.ndarray:
    """Lookup-table index of every cell, as pyqtgraph computes it; NaN → ``n_colors``.

    ``(x − low) · n / (high − low)`` in float32, clipped to ``0..n−1`` and truncated.
    """
    low, high = float(levels[0]), float(levels[1])
    span = high - low
    span = 1.0 if span == 0 else span
    work = np.subtract(image, low, dtype=np.float32)
    work *= n_colors / span
    np.clip(work, 0, n_colors - 1, out=work)
    nan = np.isnan(work)
    if nan.any():
        work[nan] = n_colors
    return work.astype(np.uint16)


class FastImageItem(pg.ImageItem):
    """``ImageItem`` with a premultiplied fast path for float32 heatmaps."""

    _table_for: tuple[int, np.ndarray] | None = None

    def _fast_table(self) -> np.ndarray | None:
        lut, image = self.lut, self.image
        if (image is None or image.ndim != 2 or image.dtype != np.float32 or image.size == 0
                or self.levels is None or np.ndim(self.levels) != 1
                or not isinstance(lut, np.ndarray) or lut.dtype != np.uint8 or lut.ndim != 2
                or lut.shape[1] not in (3, 4) or len(lut) > 65535
                or (lut.shape[1] == 4 and (lut[:, 3] != 255).any())
                or self.autoDownsample or self.axisOrder != "row-major"):
            return None
        cached = self._table_for
        if cached is None or cached[0] is not lut:
            cached = self._table_for = (lut, argb_table(lut))
        return cached[1]

    def render(self) -> None:
        table = self._fast_table()
        if table is None:
            super().render()
            return
        idx = color_indices(self.image, self.levels, len(table) - 1)
        pixels = np.ascontiguousarray(table[idx])
        rows, cols = pixels.shape
        qimage = QtGui.QImage(pixels.data, cols, rows, cols * 4,
                              QtGui.QImage.Format.Format_ARGB32_Premultiplied)
        self._pixels = pixels  # the QImage borrows this buffer
        self.qimage = qimage
        self._renderRequired = False
        self._unrenderable = False
