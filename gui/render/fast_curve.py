"""A ``PlotCurveItem`` that strokes aliased 2-pixel lines several times faster.

Qt's raster engine strokes a *wide* aliased pen by building an outline polygon for every
segment and filling it: about 0.8 ms for one 512-point curve of width 2, most of a
frame for the six curves of the sinusoidal view. One-pixel cosmetic lines take a fast
line-drawing path instead (about 8× faster). :class:`FastCurveItem` draws a solid,
aliased, cosmetic width-2 curve on a raster device as three one-pixel strokes, offset by
(0, 0), (1, 0) and (0, 1) device pixels: every point of the line is at least two pixels
thick in every direction, as with the wide pen. A curve that is almost all steep (dense
waves) or almost all flat (smooth trends), by screen length, needs only the sideways or
the downward copy: two strokes; its few segments of the other kind (≤ 2 % of its
length, e.g. the tips of a dense wave) are then one pixel thick. Everything else (antialiased, dashed,
wider pens, fills, vector export) is drawn by pyqtgraph as before.

Its :meth:`~FastCurveItem.dataBounds` gives pyqtgraph's result for finite data from
plain ``min``/``max`` (pyqtgraph's ``nanmin`` runs under a warnings context: most of the
auto-range time of a plot of a few curves).
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from gui.render.pg_compat import cache_bounds, cached_bounds, is_exporting
from gui.render.raster import on_raster

_OFFSETS = ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0))
_STEEP_OFFSETS = ((0.0, 0.0), (1.0, 0.0))  # a line drawn one pixel per row
_FLAT_OFFSETS = ((0.0, 0.0), (0.0, 1.0))  # a line drawn one pixel per column
MINOR_SHARE = 0.02  # the other direction's share of the length below which it is ignored
_TX_SCALE = QtGui.QTransform.TransformationType.TxScale.value


class FastCurveItem(pg.PlotCurveItem):
    """``PlotCurveItem`` with a fast path for solid aliased width-2 cosmetic pens."""

    def dataBounds(
        self,
        ax: int,
        frac: float = 1.0,
        orthoRange: tuple[float, float] | None = None,
    ) -> tuple:
        """pyqtgraph's data bounds; a cheaper path for the whole range of finite data."""
        cached = cached_bounds(self, ax, (frac, orthoRange))
        if cached is not None:
            return cached
        data = self.xData if ax == 0 else self.yData
        pen, shadow = self.opts["pen"], self.opts["shadowPen"]
        if (
            frac >= 1.0
            and orthoRange is None
            and data is not None
            and len(data)
            and (ax == 0 or self.opts["fillLevel"] is None)
            and (pen is None or pen.isCosmetic())
            and (shadow is None or shadow.isCosmetic())
        ):
            bounds = (float(data.min()), float(data.max()))
            if math.isfinite(bounds[0]) and math.isfinite(bounds[1]):  # else NaN/inf rules
                cache_bounds(self, ax, (frac, orthoRange), bounds)
                return bounds
        return super().dataBounds(ax, frac, orthoRange)

    def _fast_pen(self, p: QtGui.QPainter) -> QtGui.QPen | None:
        """The one-pixel pen of the offset strokes, or ``None`` for pyqtgraph's path."""
        opts = self.opts
        pen = opts["pen"]
        if (
            is_exporting(self)
            or opts["antialias"]
            or opts["fillLevel"] is not None
            or opts["shadowPen"] is not None
            or opts["compositionMode"] is not None
            or opts["stepMode"]
            or not isinstance(pen, QtGui.QPen)
            or pen.style() != QtCore.Qt.PenStyle.SolidLine
            or not pen.isCosmetic()
            or pen.widthF() != 2.0
            or not on_raster(p)
        ):
            return None
        thin = getattr(self, "_thin_pen", None)
        if thin is None or thin[0] is not pen:
            one = QtGui.QPen(pen)
            one.setWidthF(1.0)
            thin = self._thin_pen = (pen, one)
        return thin[1]

    def _offsets(self, device: QtGui.QTransform) -> tuple[tuple[float, float], ...]:
        """Device-pixel offsets of the one-pixel strokes for the current view."""
        x, y = self.xData, self.yData
        if device.type().value > _TX_SCALE or len(x) < 2:
            return _OFFSETS
        dx = np.abs(np.diff(x)) * abs(device.m11())
        dy = np.abs(np.diff(y)) * abs(device.m22())
        steep = dy > dx
        steep_len, flat_len = float(dy[steep].sum()), float(dx[~steep].sum())
        if not (math.isfinite(steep_len) and math.isfinite(flat_len)):
            return _OFFSETS
        if flat_len <= MINOR_SHARE * steep_len:
            return _STEEP_OFFSETS
        if steep_len <= MINOR_SHARE * flat_len:
            return _FLAT_OFFSETS
        return _OFFSETS

    def paint(self, p: QtGui.QPainter, opt: object, widget: object) -> None:
        if self.xData is None or len(self.xData) == 0:
            return
        pen = self._fast_pen(p)
        if pen is None:
            super().paint(p, opt, widget)
            return
        p.setRenderHint(p.RenderHint.Antialiasing, False)
        p.setPen(pen)
        path = self.getPath()
        base = p.transform()
        try:
            for dx, dy in self._offsets(
                p.deviceTransform()
            ):  # device-pixel offsets: post-multiplied translation
                p.setTransform(base * QtGui.QTransform.fromTranslate(dx, dy))
                p.drawPath(path)
        finally:
            p.setTransform(base)
