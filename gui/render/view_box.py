"""The plots' ``ViewBox`` and the items drawn in its own pixels.

pyqtgraph queues a new auto-range whenever *any* item in a view box reports new bounds,
including items auto-range never measures: the view's own child group and labels added
with ``ignoreBounds``, which report a change every time the view transform changes.
Every frame of a drag therefore computed each plot's auto-range twice: once for the new
data and again, with the same result, right before painting. :class:`PlotViewBox`
ignores reports from items outside ``addedItems`` (those ``childrenBounds`` measures),
so the range is the same and computed once.

:class:`ViewOverlay` is the base of the grid (under the data) and the mosaic tile labels
(over it): items that cover the view box, follow its range and size, and are removed
from it again when a plot is rebuilt.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import pyqtgraph as pg
from PySide6 import QtCore

from gui.render.band_item import BandItem
from gui.render.fast_curve import FastCurveItem
from gui.render.line_item import LineGroup
from gui.render.pg_compat import aspect_locked, auto_range_busy, auto_range_done, forget_bounds

#: a held range the data outgrows takes this share of the data's span more on the side
#: it outgrows (the next frames of a drag fit in it) ...
RANGE_SLACK = 0.15
#: ... beside a margin of this share on each side (a live frame's: exact once settled)
RANGE_MARGIN = 0.05
#: ... and is kept while the data spans at least this share of it
RANGE_KEEP = 0.7


def padding_share(length: float) -> float:
    """The share of its data range pyqtgraph's auto-range pads a view ``length`` px
    long with on each side (``ViewBox.suggestPadding``: 1 / sqrt(length), 2 % to 10 %)."""
    return min(0.1, max(0.02, length**-0.5)) if length > 0 else 0.02


@lru_cache(maxsize=256)
def padded_span(span: float) -> float:
    """The length (px) of a view that shows ``span`` px of data with pyqtgraph's
    auto-range padding on both sides (:func:`padding_share`: 14 % more in all at
    200 px, 10 % at 400 px). Kept per span (the view's grid asks for each small grid's
    on every frame, the same spans)."""
    if span <= 0:
        return 0.0
    length = span * 1.1
    for _ in range(8):  # a fixed point: the padding shrinks as the view grows
        length = span * (1.0 + 2.0 * padding_share(length))
    return length


#: items whose data bounds are their data's alone (no pixel sizes, nothing cached that
#: auto-range would find otherwise): the lines and bands a drag's held range is for
_PLAIN_BOUNDS = (FastCurveItem, LineGroup, BandItem)


def held_range(
    shown: tuple[float, float] | None,
    data: tuple[float, float],
    margin: float = RANGE_MARGIN,
) -> tuple[float, float] | None:
    """The range a held axis shows for data spanning ``data``: ``None`` to keep ``shown``
    (the data lies inside it and spans :data:`RANGE_KEEP` of it at least), else the
    data with ``margin`` of its span on either side and :data:`RANGE_SLACK` more where
    it reaches past ``shown`` (``shown`` ``None``: a hold's first range, the margins
    alone). ``None`` too for data of no extent (one value: pyqtgraph's range stays)."""
    d_lo, d_hi = data
    span = d_hi - d_lo
    if span <= 0:
        return None
    lo, hi = shown if shown is not None else (d_lo, d_hi)
    if shown is not None and lo <= d_lo and d_hi <= hi and span >= RANGE_KEEP * (hi - lo):
        return None
    reach = margin * span
    slack = RANGE_SLACK * span
    return (
        d_lo - reach - (slack if d_lo < lo else 0.0),
        d_hi + reach + (slack if d_hi > hi else 0.0),
    )


def held_levels(
    held: tuple[float, float] | None, exact: tuple[float, float]
) -> tuple[float, float]:
    """The colour range a heatmap shows on a drag's live frame whose exact range
    (``color_levels``) is ``exact``, given the range ``held`` on the frame before
    (``None``: the drag's first): held as :func:`held_range` holds an axis, without its
    margin (the data's own ends: ALiBi's 0 stays the top).

    A range that moves on every frame (ALiBi's ``−m·(n − 1) … 0`` while ``seq_len`` is
    dragged) re-ticked and repainted the colour bar and its axis on every frame; held,
    a few frames of a drag do. Values are read on the bar as the picture is coloured."""
    if held is None:
        return exact
    wanted = held_range(held, exact, margin=0.0)
    return held if wanted is None else wanted


def _united(
    found: list[tuple[float, float, float, float, bool, bool, float]], w: float, h: float
) -> list[list[float] | None]:
    """pyqtgraph's ``childrenBounds`` of items measured as ``found`` (``(left, top,
    right, bottom, use x, use y, pixel padding)`` each, in their order) in a view ``w``
    × ``h`` px: on each axis the least and greatest edge of the items that count on
    it, then widened to each padded item's edges ``pad`` px beyond, at the size of a
    pixel of the span found. The same comparisons in pyqtgraph's order (where two
    edges are equal, a later item's wins, and the span's own over a padded edge), as
    a few calls on columns rather than four a line."""
    out: list[list[float] | None] = [None, None]
    if not found:
        return out
    columns = list(zip(*found, strict=True))
    pads = columns[6]
    for axis, lo, hi, used, pixels in ((0, 0, 2, 4, w), (1, 1, 3, 5, h)):
        lows: Sequence[float] = columns[lo]
        highs: Sequence[float] = columns[hi]
        kept: Sequence[float] = pads
        if not all(columns[used]):
            chosen = [i for i, use in enumerate(columns[used]) if use]
            if not chosen:
                continue
            lows = [lows[i] for i in chosen]
            highs = [highs[i] for i in chosen]
            kept = [pads[i] for i in chosen]
        # (min/max keep the first of equal values: reversed, the last item's)
        span = [min(reversed(lows)), max(reversed(highs))]
        out[axis] = span
        if pixels <= 0 or not any(kept):
            continue
        size = (span[1] - span[0]) / pixels
        ends = [
            (low, high, pad) for low, high, pad in zip(lows, highs, kept, strict=True) if pad != 0
        ]
        span[0] = min(span[0], *[low - pad * size for low, _high, pad in ends])
        span[1] = max(span[1], *[high + pad * size for _low, high, pad in ends])
    return out


def _usable(span: Any) -> bool:
    """Whether an item's data bounds on one axis (``dataBounds``) count for the auto
    range, as pyqtgraph's ``childrenBounds`` decides: given, and both ends finite."""
    return not (
        span is None
        or (span[0] is None and span[1] is None)
        or not math.isfinite(span[0])
        or not math.isfinite(span[1])
    )


def _polygon_span(start: float, length: float) -> tuple[float, float]:
    """``(left, right)`` of Qt's bounding rect of the polygon of ``QRectF(start, .,
    length, .)`` mapped through the identity: its corners ``start`` and ``start +
    length``, the least first (``QPolygonF.boundingRect``), and the right edge as
    ``QRectF.right`` gives it: the left plus the width."""
    a = start
    b = a + length
    low, high = a, a
    if b < low:
        low = b
    elif b > high:
        high = b
    return low, low + (high - low)


class PlotViewBox(pg.ViewBox):
    """``ViewBox`` that re-runs auto-range only for items whose bounds it measures.

    A slider drag's live frames may hold the range instead (:meth:`hold_frame`): a
    range that changes moves every item of the plot, re-ticks its axes and repaints
    it, which was most of a Compare frame's draw during a ``seq_len`` drag (its x
    range grew on every frame). The held range depends only on the range shown
    before and the data's bounds (not on the view's size in pixels, nor on when the
    layout settles): the same frames show the same ranges however they are laid out.
    """

    ranges_kept = 0  # held frames that kept the x range as it was, per view (tests)
    _holding = False  # a drag's live frames: the x range is held (see hold_frame)
    _holding_y = False  # ... and the y range (see hold_frame)
    _in_auto_range = False
    _ranged_x: tuple[float, float] | None | bool = None  # x data bounds, last auto-range

    def itemBoundsChanged(self, item: Any) -> None:
        """pyqtgraph's: the item's cached bounds forgotten and, for an item auto-range
        measures, auto-range queued where it is enabled (each new curve of a frame
        tells its view; pyqtgraph's weak dictionary of bounds is empty but for items
        it measured itself)."""
        forget_bounds(self, item)
        if item in self.addedItems:
            x, y = self.autoRangeEnabled()
            if x is not False or y is not False:
                self.queueUpdateAutoRange()

    @property
    def holding(self) -> bool:
        """Whether a drag holds the range (:meth:`hold_frame`)."""
        return self._holding

    def enableAutoRange(
        self, axis: Any = None, enable: Any = True, x: Any = None, y: Any = None
    ) -> None:
        asked = (x, y) if x is not None or y is not None else (enable,)
        if any(a is not None and a is not False for a in asked):
            self._holding = self._holding_y = False  # all the data again, exactly
        super().enableAutoRange(axis, enable, x, y)

    ranges_unmoved = 0  # auto-ranges that left both ranges as they were (tests)
    #: childrenBounds' result for the auto-range under way (see updateAutoRange)
    _children_found: list[list[float] | None] | None = None

    def updateAutoRange(self) -> None:
        """pyqtgraph's auto-range; left out where it would set the ranges they are
        (:meth:`_ranges_stay`): a drag's frame auto-ranges each plot whose curves
        moved, and most keep their range (the x range held, the y range that of the
        same values), about 60 calls a plot in ``setRange`` and ``updateViewRange``."""
        self._in_auto_range = True  # (held: the x range is hold_frame's, see setRange)
        try:
            if self._ranges_stay():
                self.ranges_unmoved += 1
                auto_range_done(self)
            else:
                super().updateAutoRange()
        finally:
            self._in_auto_range = False
            self._children_found = None
        if not self._holding:  # the x data the exact range was found for
            self._ranged_x = self.data_bounds(0)

    def _ranges_stay(self) -> bool:
        """Whether pyqtgraph's ``updateAutoRange`` would leave the target and view
        ranges as they are, for a view without aspect lock, log axes, auto-pan,
        visible-only or fractional auto-range and range limits (its other cases go to
        pyqtgraph): the same steps on the same floats as ``updateAutoRange``,
        ``setRange(padding=0)`` and ``updateViewRange``, up to the comparison of each
        new target with the one set (``setRange`` then changes nothing) and of the
        view range with the targets (``updateViewRange`` then keeps it). Where it
        does not hold, the bounds found are handed to pyqtgraph's pass."""
        state = self.state
        auto = state["autoRange"]
        only = state["autoVisibleOnly"]
        pan = state["autoPan"]
        log = state["logMode"]
        limits = state["limits"]
        if (
            auto_range_busy(self)
            or (auto[0] is not True and auto[0] is not False)
            or (auto[1] is not True and auto[1] is not False)
            or (auto[0] is False and auto[1] is False)
            or only[0]
            or only[1]
            or pan[0]
            or pan[1]
            or log[0]
            or log[1]
            or state["aspectLocked"] is not False
            or limits["xRange"][0] is not None
            or limits["xRange"][1] is not None
            or limits["yRange"][0] is not None
            or limits["yRange"][1] is not None
        ):
            return False
        found = self.childrenBounds(frac=[1.0, 1.0])
        self._children_found = found  # (pyqtgraph's pass takes them, if it runs)
        targets, views = state["targetRange"], state["viewRange"]
        size = self.size()
        lengths = (size.width(), size.height())
        for ax, bounds in enumerate(found):
            lim_lo, lim_hi = limits["xLimits" if ax == 0 else "yLimits"]
            view = views[ax]
            if (
                view != targets[ax]
                or view[0] > view[1]
                or not self._within(view[0], view[1], lim_lo, lim_hi)
            ):
                return False  # (updateViewRange would move the view range)
            if auto[ax] is False or bounds is None:
                continue
            if (ax == 0 and self._holding) or (ax == 1 and self._holding_y):
                continue  # (setRange drops a held range)
            pad = self._padding(lengths[ax])
            wp = (bounds[1] - bounds[0]) * pad
            lo, hi = bounds[0] - wp, bounds[1] + wp
            if not (math.isfinite(lo) and math.isfinite(hi)):
                continue  # (updateAutoRange drops it)
            mn, mx = min(lo, hi), max(lo, hi)
            if mn == mx or mx - mn < 2 * ((mn + mx) * 1.5e-15):
                return False  # (setRange widens it)
            p = (mx - mn) * 0.0
            mn -= p
            mx += p
            if not self._within(mn, mx, lim_lo, lim_hi):
                return False
            mn -= 0 / 2.0
            mx += 0 / 2.0
            if [mn, mx] != targets[ax]:
                return False
        return True

    def _padding(self, length: float) -> float:
        """``suggestPadding`` for an axis ``length`` px long (its arithmetic)."""
        default = self.state["defaultPadding"]
        if default == 0.0:
            return default
        if length > 0:
            share = 50 * default / (length**0.5)
            top = max(0.1, default)
            return default if share < default else top if share > top else share
        return default

    @staticmethod
    def _within(lo: float, hi: float, lim_lo: float | None, lim_hi: float | None) -> bool:
        """Whether ``setRange``/``updateViewRange`` leave ``lo..hi`` as it is under the
        limits ``lim_lo..lim_hi`` (no range limits): inside them, and not wider."""
        if lim_lo is not None and lim_hi is not None and hi - lo > lim_hi - lim_lo:
            return False
        if lim_lo is not None and lo < lim_lo:
            return False
        return not (lim_hi is not None and hi > lim_hi)

    def setRange(
        self,
        rect: Any = None,
        xRange: Any = None,
        yRange: Any = None,
        padding: Any = None,
        update: bool = True,
        disableAutoRange: bool = True,
    ) -> None:
        if self._holding and self._in_auto_range and rect is None:
            xRange = None  # auto-range sets the y range alone while x is held ...
            if self._holding_y:
                yRange = None  # ... and nothing while y is held too
            if yRange is None:
                return
        super().setRange(rect, xRange, yRange, padding, update, disableAutoRange)

    def childrenBounds(
        self,
        frac: Any = None,
        orthoRange: Any = (None, None),
        items: Any = None,
    ) -> list[list[float] | None]:
        """pyqtgraph's ``ViewBox.childrenBounds``: the same steps on the same floats, a
        line drawn in the view's own coordinates (a :class:`FastCurveItem` whose
        transform to the child group is the identity) bounded by the bounds it keeps
        for its data (:meth:`FastCurveItem.whole_bounds`) without Qt's rectangles.
        pyqtgraph asks each item for its bounds on each axis and its padding, makes a
        ``QRectF`` of them, maps it through the identity to a polygon and takes its
        bounding rect (``left`` the least x, ``right`` that plus the width): about 50
        calls a line, every frame of a drag (Compare ranges four plots of 21 lines)."""
        found_now = self._children_found
        if found_now is not None and items is None and orthoRange == (None, None):
            self._children_found = None  # (once: pyqtgraph's pass changes them)
            return found_now
        if items is None:
            items = self.addedItems
        scene = self.scene()
        group = self.childGroup
        if frac is None:
            frac = (1.0, 1.0)
        whole = frac[0] >= 1.0 and frac[1] >= 1.0 and orthoRange[0] is None
        whole = whole and orthoRange[1] is None
        matrix = False  # updateMatrix called (as mapFromItemToView does for each item)
        # (left, top, right, bottom, use x, use y, pixel padding) of each item measured
        found: list[tuple[float, float, float, float, bool, bool, float]] = []
        for item in items:
            if not item.isVisible() or item.scene() is not scene:
                continue
            if (
                whole
                and isinstance(item, FastCurveItem)
                and item.itemTransform(group)[0].isIdentity()
            ):
                xr, yr, pad = item.whole_bounds()
                if xr is not None and yr is not None:
                    if not matrix:
                        self.updateMatrix()
                        matrix = True
                    # QRectF(x, y, w, h) through the identity, as a polygon's bounding
                    # rect: its corners x and x + w (w >= 0), right = left + width
                    left, top = xr[0], yr[0]
                    right = left + ((left + (xr[1] - left)) - left)
                    bottom = top + ((top + (yr[1] - top)) - top)
                    found.append((left, top, right, bottom, True, True, pad))
                    continue
            use_x = use_y = True
            if hasattr(item, "dataBounds") and item.dataBounds is not None:
                xr = item.dataBounds(0, frac=frac[0], orthoRange=orthoRange[0])
                yr = item.dataBounds(1, frac=frac[1], orthoRange=orthoRange[1])
                pad = 0 if not hasattr(item, "pixelPadding") else item.pixelPadding()
                if not _usable(xr):
                    use_x = False
                    xr = (0, 0)
                if not _usable(yr):
                    use_y = False
                    yr = (0, 0)
                if isinstance(item, FastCurveItem) and item.itemTransform(group)[0].isIdentity():
                    self.updateMatrix()  # (as mapFromItemToView)
                    matrix = True
                    if not (use_x or use_y):
                        continue
                    # QRectF(x, y, w, h) through the identity, as a polygon's bounding rect
                    left, right = _polygon_span(float(xr[0]), float(xr[1] - xr[0]))
                    top, bottom = _polygon_span(float(yr[0]), float(yr[1] - yr[0]))
                    found.append((left, top, right, bottom, use_x, use_y, pad))
                    continue
                rect = QtCore.QRectF(xr[0], yr[0], xr[1] - xr[0], yr[1] - yr[0])
                bounds = self.mapFromItemToView(item, rect).boundingRect()
                if not (use_x or use_y):
                    continue
                if use_x != use_y:  # ignoring one axis: a rotation swaps them
                    angle = round(item.transformAngle())
                    if angle in (90, 270):
                        use_x, use_y = use_y, use_x
                    elif angle not in (0, 180):
                        continue  # (at another angle: ignored, as pyqtgraph does)
            else:
                if item.flags() & item.GraphicsItemFlag.ItemHasNoContents:
                    continue
                bounds = self.mapFromItemToView(item, item.boundingRect()).boundingRect()
                pad = 0
            found.append(
                (bounds.left(), bounds.top(), bounds.right(), bounds.bottom(), use_x, use_y, pad)
            )
        return _united(found, self.width(), self.height())

    def data_bounds(self, ax: int) -> tuple[float, float] | None | bool:
        """Bounds along ``ax`` (0: x, 1: y) of the data of the visible items auto-range
        measures, as their ``dataBounds`` give them (no pen padding); ``None`` when
        none bounds it, ``False`` when an item is not a line or band (markers,
        arrows, images: their bounds are left to auto-range, which caches them at
        sizes of its own)."""
        out: tuple[float, float] | None = None
        scene = self.scene()
        for item in self.addedItems:
            if not item.isVisible() or item.scene() is not scene:
                continue
            if isinstance(item, FastCurveItem):
                whole = item.whole_bounds()  # (finite floats: as dataBounds gives them)
                b = whole[0] if ax == 0 else whole[1]
                if b is not None:
                    lo, hi = b
                    out = (lo, hi) if out is None else (min(out[0], lo), max(out[1], hi))
                    continue
            elif not isinstance(item, _PLAIN_BOUNDS):
                if getattr(item, "dataBounds", None) is not None:
                    return False
                continue
            b = item.dataBounds(ax, frac=1.0, orthoRange=None)
            if b is None or b[0] is None or b[1] is None:
                continue
            lo, hi = float(b[0]), float(b[1])
            if math.isfinite(lo) and math.isfinite(hi):
                out = (lo, hi) if out is None else (min(out[0], lo), max(out[1], hi))
        return out

    def hold_frame(self) -> bool:
        """Show a live frame's data in the x range held (:func:`held_range`) instead of
        auto-ranging it, until :meth:`release_range`, and the y range too where the
        plot holds only lines and bands (:meth:`_hold_y`); whether a range changed.
        Auto-range stays enabled (a zoom reset during a drag shows all the data); a
        plot the user zoomed along x is left as it is."""
        if aspect_locked(self) or not self.autoRangeEnabled()[0]:
            self.release_range()
            return False
        bounds = self.data_bounds(0)
        first = not self._holding
        if bounds is False or (first and bounds == self._ranged_x):
            # items of other kinds, or the x data stays (its exact range stays too)
            self.release_range()
            return False
        # the hold's first range from the data alone (the range shown then may not be
        # final yet: an auto-range of a size the layout has not settled on)
        self._holding = True
        wanted = None
        if isinstance(bounds, tuple):
            shown = self.viewRange()[0]
            wanted = held_range(None if first else (float(shown[0]), float(shown[1])), bounds)
        held_y = self._hold_y()
        if wanted is None:
            self.ranges_kept += 1
            return held_y
        super().setRange(xRange=wanted, padding=0.0, disableAutoRange=False)
        return True

    def _hold_y(self) -> bool:
        """Hold the y range as the x range is held (:func:`held_range`), for a plot of
        lines and bands whose y range is auto-ranged; whether the y range changed.

        A y range that follows the data moves on every frame where the data's extent
        does (ALiBi's bias against distance reaches −m·(n − 1) while ``seq_len`` is
        dragged): the axis re-ticked, its labels placed anew and the plot repainted
        every frame. Held, the range changes on a few frames of a drag; the lines are
        drawn in it as they are (exact once the drag ends: :meth:`release_range`)."""
        if not self.autoRangeEnabled()[1]:
            self._holding_y = False
            return False
        bounds = self.data_bounds(1)
        if not isinstance(bounds, tuple):
            self._holding_y = False
            return False
        # (from the range shown, the exact one on a drag's first frame: data that
        # keeps its extent keeps that range exactly)
        shown = self.viewRange()[1]
        self._holding_y = True
        wanted = held_range((float(shown[0]), float(shown[1])), bounds)
        if wanted is None:
            return False
        super().setRange(yRange=wanted, padding=0.0, disableAutoRange=False)
        return True

    def release_range(self) -> bool:
        """End a hold: the exact auto-range again (before the next paint). Whether a
        hold ended."""
        if not self._holding:
            return False
        self._holding = self._holding_y = False
        self.queueUpdateAutoRange()
        return True


class ViewOverlay(pg.GraphicsObject):
    """An item drawn in ``view``'s own pixels, repainted when its range or size changes.

    Parameters
    ----------
    view
        The view box (the item's parent: it is clipped to it).
    z
        Stacking order against the view's child group (the data, at z = 0).
    """

    def __init__(self, view: pg.ViewBox, z: float) -> None:
        super().__init__()
        self.view = view
        self.setParentItem(view)
        self.setZValue(z)
        view.sigRangeChanged.connect(self._view_changed)
        view.sigResized.connect(self._view_changed)

    def _view_changed(self, *_args: object) -> None:
        self.prepareGeometryChange()
        self.update()

    def boundingRect(self) -> QtCore.QRectF:
        return self.view.boundingRect()

    def detach(self) -> None:
        """Take the item out of its view (and stop following it)."""
        self.view.sigRangeChanged.disconnect(self._view_changed)
        self.view.sigResized.disconnect(self._view_changed)
        self.setParentItem(None)
        if self.scene() is not None:
            self.scene().removeItem(self)
