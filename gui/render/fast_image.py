"""An ``ImageItem`` that turns a heatmap into screen pixels in one cheap pass.

pyqtgraph renders a float image with NaNs (masked cells, e.g. ALiBi's causal triangle)
through a general RGBA path: about 2 ms for 512 × 512, then a slow draw of its
non-premultiplied result. :class:`FastImageItem` applies the same level scaling and
lookup table (same float32 arithmetic, so the same colour index for every cell) into a
premultiplied ARGB32 image, which Qt draws without conversion. Empty cells (NaN: a
mosaic's gaps) are fully transparent; masked cells (±inf, e.g. ALiBi's −∞ above the
diagonal) are transparent too unless the item is given a ``masked_color`` (the panels
give one, so a causal mask is never mistaken for the background). When the image is shown smaller than its cells (a 512 × 512 matrix in a
300-pixel panel), only the cell under each screen pixel's centre is coloured: the
nearest-neighbour sample Qt would take anyway, so cost follows pixels on screen, not
cells. Anything else (other dtypes, translucent lookup tables, rotated or vector
painting) goes through pyqtgraph unchanged.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from core.toeplitz import by_offset
from gui.render.pg_compat import is_exporting, mark_rendered
from gui.render.raster import on_raster

_TX_SCALE = QtGui.QTransform.TransformationType.TxScale.value
LIVE_STEP = 2  # a live frame samples every other screen pixel of a minified axis
#: ... and every other cell of a magnified axis whose cells are under this many device
#: pixels (ALiBi's stage mosaic: 832 cells over ~1750 pixels across, ~1000 down at 200 %)
LIVE_CELL_PX = 4.0


def argb_table(lut: np.ndarray, masked: QtGui.QColor | None = None) -> np.ndarray:
    """Opaque ``(N, 3|4)`` uint8 RGB(A) lookup table as ``N + 2`` premultiplied ARGB32
    words: entry ``N`` is fully transparent (NaN cells), entry ``N + 1`` is the opaque
    ``masked`` colour (±inf cells), transparent when ``masked`` is ``None``."""
    rgb = lut[:, :3].astype(np.uint32)
    table = np.zeros(len(lut) + 2, dtype=np.uint32)
    table[:-2] = 0xFF000000 | (rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2]
    if masked is not None:
        table[-1] = 0xFF000000 | (masked.rgb() & 0xFFFFFF)
    return table


def pixel_centres(start: float, stop: float) -> np.ndarray:
    """Integer pixels whose centres ``x + 0.5`` lie in ``[start, stop)``."""
    first, last = math.ceil(start - 0.5), math.ceil(stop - 0.5)
    return np.arange(first, max(first, last))


def color_indices(image: np.ndarray, levels: tuple[float, float], n_colors: int) -> np.ndarray:
    """Lookup-table index of every cell, as pyqtgraph computes it; empty cells (NaN) →
    ``n_colors``, masked cells (±inf, e.g. ALiBi's −∞ above the diagonal) →
    ``n_colors + 1`` (the entries :func:`argb_table` adds).

    ``(x − low) · n / (high − low)`` in float32, clipped to ``0..n−1`` and truncated.
    Empty and masked cells are marked in place (``copyto`` where they are), not
    gathered and scattered (1632 × 417 samples of a 3 × 3 causal mosaic, about half of
    them masked or gaps: 4.1 → 0.5 ms; ALiBi's stage mosaic in the app: 0.52 → 0.36 ms
    a frame).
    """
    low, high = float(levels[0]), float(levels[1])
    span = high - low
    span = 1.0 if span == 0 else span
    work = np.subtract(image, low, dtype=np.float32)
    finite = np.isfinite(work)
    work *= n_colors / span
    np.clip(work, 0, n_colors - 1, out=work)  # ±inf → an end; NaN stays NaN
    with np.errstate(invalid="ignore"):  # NaN's index is replaced below
        index = work.astype(np.uint16)
    if not finite.all():
        np.copyto(index, n_colors + 1, where=~finite)
        np.copyto(index, n_colors, where=np.isnan(work))
    return index


class FastImageItem(pg.ImageItem):
    """``ImageItem`` with a premultiplied fast path for float32 heatmaps."""

    _table_for: tuple[np.ndarray, int | None, np.ndarray] | None = None
    _version = 0  # bumped whenever what is drawn may change
    masked_color: QtGui.QColor | None = None  # ±inf cells; None: transparent
    qimage: QtGui.QImage | None
    image: np.ndarray | None  # (pyqtgraph's ImageItem attribute: the data shown)
    #: a live frame (its owner's business, as :attr:`FastCurveItem.live`): a minified
    #: axis is sampled at every :data:`LIVE_STEP`-th screen pixel, each sample drawn
    #: over its block of pixels (a fraction of the gathering and colouring per frame of
    #: a slider drag); ``live_sampled`` says a picture was drawn so, for its owner to
    #: repaint it once settled.
    live = False
    live_sampled = False
    live_samples = 0  # pictures sampled coarsely (tests)
    blits = 0  # pictures drawn one sample per device pixel, unscaled (tests)

    def set_masked_color(self, color: QtGui.QColor | None) -> None:
        """Draw masked (±inf) cells opaque in ``color`` (``None``: transparent)."""
        old = None if self.masked_color is None else self.masked_color.rgba()
        new = None if color is None else color.rgba()
        if old == new:
            return
        self.masked_color = None if color is None else QtGui.QColor(color)
        self._version += 1
        self.qimage = None  # re-rendered with the new colour
        self.update()

    def setImage(self, *args: object, **kwargs: object) -> None:
        self._version += 1
        super().setImage(*args, **kwargs)

    def setLevels(self, *args: object, **kwargs: object) -> None:
        self._version += 1
        super().setLevels(*args, **kwargs)

    def setLookupTable(self, *args: object, **kwargs: object) -> None:
        self._version += 1
        super().setLookupTable(*args, **kwargs)

    def _fast_table(self) -> np.ndarray | None:
        lut, image = self.lut, self.image
        if (
            image is None
            or image.ndim != 2
            or image.dtype != np.float32
            or image.size == 0
            or self.levels is None
            or np.ndim(self.levels) != 1
            or not isinstance(lut, np.ndarray)
            or lut.dtype != np.uint8
            or lut.ndim != 2
            or lut.shape[1] not in (3, 4)
            or len(lut) > 65534
            or (lut.shape[1] == 4 and (lut[:, 3] != 255).any())
            or self.autoDownsample
            or self.axisOrder != "row-major"
        ):
            return None
        cached = self._table_for
        masked = None if self.masked_color is None else self.masked_color.rgba()
        if cached is None or cached[0] is not lut or cached[1] != masked:
            cached = self._table_for = (lut, masked, argb_table(lut, self.masked_color))
        return cached[2]

    def render(self) -> None:
        table, image = self._fast_table(), self.image
        if table is None or image is None:  # (a table means an image)
            self._pyqtgraph_render()
            return
        idx = color_indices(image, self.levels, len(table) - 2)
        pixels = table.take(idx)
        rows, cols = pixels.shape
        qimage = QtGui.QImage(
            pixels.data, cols, rows, cols * 4, QtGui.QImage.Format.Format_ARGB32_Premultiplied
        )
        self._pixels = pixels  # the QImage borrows this buffer
        self.qimage = qimage
        mark_rendered(self)

    def _pyqtgraph_render(self) -> None:
        """pyqtgraph's own rendering, shown infinities as NaN: it colours ±inf like the
        extreme levels, while they are masked cells here."""
        image = self.image
        if image is not None and image.dtype.kind == "f" and np.isinf(image).any():
            self.image = np.where(np.isinf(image), np.nan, image)
            try:
                super().render()
            finally:
                self.image = image
            return
        super().render()

    def paint(self, painter: QtGui.QPainter, *args: object) -> None:
        if self.image is None:
            return
        table = self._fast_table()
        if table is None or not self._paint_sampled(painter, table):
            super().paint(painter, *args)

    @staticmethod
    def _axis_samples(
        minified: bool,
        start: float,
        stop: float,
        ratio: float,
        offset: float,
        scale: float,
        n: int,
        *,
        step: int = 1,
    ) -> tuple[np.ndarray | slice, int, float, float]:
        """Cells to draw along one axis and where, in logical painter coordinates.

        Returns ``(cells, count, start, extent)``: ``cells`` are the cell indices in
        drawing order, or a ``slice`` when they are every cell in order or reversed (a
        magnified axis: the image is read as it is, no copy gathered along it). A
        minified axis gets the cell under every ``step``-th pixel's centre (``step`` > 1:
        under the middle of each block of ``step`` pixels), drawn over all the pixels.
        With ``step`` > 1 (live), a magnified axis whose cells are under
        :data:`LIVE_CELL_PX` device pixels takes every ``step``-th cell, spread over the
        whole image (a view, no gather).
        """
        if not minified:  # every cell, flipped when the axis runs backwards
            k = step if step > 1 and n > step and abs(scale) * ratio < LIVE_CELL_PX else 1
            every = slice(None, None, k) if scale > 0 else slice(n - 1, None, -k)
            return every, -(-n // k), start, stop - start
        pixels = pixel_centres(start * ratio, stop * ratio)
        centres = pixels + 0.5 if step == 1 else pixels[::step] + step / 2
        cells = np.clip(np.floor((centres / ratio - offset) / scale), 0, n - 1)
        first = pixels[0] / ratio if pixels.size else start
        return cells.astype(np.intp), cells.size, first, pixels.size / ratio

    def _paint_sampled(self, p: QtGui.QPainter, table: np.ndarray) -> bool:
        """Draw one sample per screen pixel when the image is shown minified.

        ``table`` is the colour lookup of :meth:`_fast_table`. Returns ``False`` (nothing drawn) when the full-resolution path applies.
        """
        t = p.transform()
        device = p.device()
        if (
            t.type().value > _TX_SCALE
            or not on_raster(p)
            or self.paintMode is not None
            or self.border is not None
            or self.image is None
        ):
            return False
        data = self.image
        rows, cols = data.shape
        ratio = device.devicePixelRatioF() or 1.0
        sx, sy = t.m11() * ratio, t.m22() * ratio  # device pixels per cell
        live = self.live and not is_exporting(self)  # (exports: every pixel)
        if (
            abs(sx) >= 1.0
            and abs(sy) >= 1.0
            and not (live and min(abs(sx), abs(sy)) < LIVE_CELL_PX and max(rows, cols) > LIVE_STEP)
        ):
            self.live_sampled = False
            return False  # magnified: every cell is visible, colour them all
        area = t.mapRect(QtCore.QRectF(0, 0, cols, rows))
        # A minified axis gets one sample per screen pixel (the cell under its centre);
        # a magnified one keeps its cells and Qt enlarges them exactly as it would.
        step = LIVE_STEP if live else 1
        x_axis = self._axis_samples(
            abs(sx) < 1.0, area.left(), area.right(), ratio, t.dx(), t.m11(), cols, step=step
        )
        y_axis = self._axis_samples(
            abs(sy) < 1.0, area.top(), area.bottom(), ratio, t.dy(), t.m22(), rows, step=step
        )
        (col, n_cols, x0, width), (row, n_rows, y0, height) = x_axis, y_axis
        if n_cols == 0 or n_rows == 0:
            return True
        coarse = step > 1 and (n_cols < cols or n_rows < rows or abs(sx) < 1.0 or abs(sy) < 1.0)
        key = (
            x0,
            width,
            n_cols,
            y0,
            height,
            n_rows,
            sx,
            sy,
            t.dx(),
            t.dy(),
            ratio,
            self._version,
            step,
        )
        cached = getattr(self, "_sampled", None)
        if cached is None or cached[0] != key:
            # np.take: a third of the time of fancy indexing for these gathers; a
            # magnified axis takes every cell (a view: ALiBi's stage mosaic is wider on
            # screen than its cells, a gather of all its columns was ~0.2 ms a frame)
            cells = data
            # a Toeplitz view ([a, b] is values[a − b + k − 1]): one gather from its
            # 2k − 1 values (its rows read backwards: two takes cost half as much again)
            if (
                isinstance(row, np.ndarray)
                and isinstance(col, np.ndarray)
                and (values := by_offset(cells)) is not None
            ):
                cells = values.take(np.subtract.outer(row, col) + (cells.shape[1] - 1))
            else:
                cells = cells[row] if isinstance(row, slice) else cells.take(row, axis=0)
                cells = cells[:, col] if isinstance(col, slice) else cells.take(col, axis=1)
            pixels = table.take(color_indices(cells, self.levels, len(table) - 2))
            image = QtGui.QImage(
                pixels.data,
                n_cols,
                n_rows,
                n_cols * 4,
                QtGui.QImage.Format.Format_ARGB32_Premultiplied,
            )
            cached = self._sampled = (key, image, pixels)
            if coarse:
                FastImageItem.live_samples += 1
        self.live_sampled = coarse
        p.save()
        try:
            if _one_to_one(n_cols, width, n_rows, height, ratio):
                _blit(p, cached[1], x0, y0, ratio)
                FastImageItem.blits += 1
            else:
                p.resetTransform()
                p.drawImage(
                    QtCore.QRectF(x0, y0, width, height),
                    cached[1],
                    QtCore.QRectF(0, 0, n_cols, n_rows),
                )
        finally:
            p.restore()
        return True


def _one_to_one(n_cols: int, width: float, n_rows: int, height: float, ratio: float) -> bool:
    """Whether a ``n_cols × n_rows`` picture spans as many device pixels (``width`` ×
    ``height`` logical pixels at ``ratio`` device pixels each), one sample per pixel."""
    return round(width * ratio) == n_cols and round(height * ratio) == n_rows


def _blit(p: QtGui.QPainter, image: QtGui.QImage, x0: float, y0: float, ratio: float) -> None:
    """Draw ``image`` one pixel per device pixel from logical ``(x0, y0)``.

    Qt draws a picture given in logical pixels on a scaled (HiDPI) device through its
    scaling blit, even when each source pixel lands on exactly one device pixel (the
    target rounded to whole pixels). Unscaling the painter makes its matrix a
    translation, and Qt takes its plain blit: the same pixels, a quarter of the time
    (a 1750 × 1000 picture at 150 %: 1.0 → 0.25 ms). ``x0 · ratio`` is a whole device
    pixel when the axis is minified (it starts at a pixel); otherwise it is rounded as Qt
    rounds the target (``qRound``: halves away from zero).
    """
    x, y = x0 * ratio, y0 * ratio
    p.setWorldTransform(QtGui.QTransform.fromScale(1 / ratio, 1 / ratio))
    p.drawImage(QtCore.QPointF(_qround(x), _qround(y)), image)


def _qround(v: float) -> int:
    """Qt's ``qRound``: nearest integer, halves away from zero."""
    return int(v + 0.5) if v >= 0 else int(v - 0.5)
