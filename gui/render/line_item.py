"""A plot's line series as one item: what ``PlotDataItem`` does for lines, less its layers.

``PlotItem.plot()`` wraps every curve in a ``PlotDataItem``: a container holding a curve
and a hidden scatter item, which re-derives display data (log mapping, finiteness,
down-sampling, clipping) on each ``setData`` and again for every view change. For a
plain line that machinery is most of the cost of a new frame. :class:`LineItem` is the
curve itself (a :class:`gui.render.fast_curve.FastCurveItem`) added straight to the plot; it
keeps the original arrays and maps them for display exactly as ``PlotDataItem`` does:
``log10`` per log axis (non-finite results become NaN), and NaNs break the line.
Symbols (scatter series) stay ``PlotDataItem``\\ s.
"""

from __future__ import annotations

import warnings

import numpy as np

from gui.render.fast_curve import FastCurveItem


def log_mapped(values: np.ndarray) -> np.ndarray:
    """``log10(values)`` with non-finite results (from zeros, negatives) as NaN."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        mapped = np.log10(values)
    mapped[~np.isfinite(mapped)] = np.nan
    return mapped


class LineItem(FastCurveItem):
    """A line series of a plot; ``PlotItem.addItem`` gives it its legend entry and log mode.

    Offers the parts of the ``PlotDataItem`` interface the app uses: :meth:`setData`
    with original values, :meth:`getOriginalDataset`, :meth:`setLogMode` and ``curve``
    (the item itself, where a ``PlotDataItem`` has its curve).
    """

    #: how its owner draws it once settled, where it is aliased while live (its owner's
    #: business; ``None``: not told)
    settled_antialias: bool | None = None

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self._original: tuple[np.ndarray | None, np.ndarray | None] = (None, None)
        self._log = (False, False)

    @property
    def curve(self) -> LineItem:
        return self

    def getOriginalDataset(self) -> tuple[np.ndarray | None, np.ndarray | None]:
        """The arrays last given to :meth:`setData`, before any log mapping."""
        return self._original

    def setData(self, *args: object, **kwargs: object) -> None:
        """``setData(x, y)``: original values, shown log-mapped on log axes."""
        if len(args) == 2 and not kwargs:
            x = np.asarray(args[0], dtype=float)
            y = np.asarray(args[1], dtype=float)
            self._original = (x, y)
            self._show_original()
            return
        super().setData(*args, **kwargs)  # pyqtgraph's own calls (options only)

    def setLogMode(self, x: bool, y: bool) -> None:
        if (bool(x), bool(y)) == self._log:
            return
        self._log = (bool(x), bool(y))
        if self._original[0] is not None:
            self._show_original()

    def _show_original(self) -> None:
        x, y = self._original
        if self._log[0]:
            x = log_mapped(x)
        if self._log[1]:
            y = log_mapped(y)
        finite = bool(np.isfinite(x).all() and np.isfinite(y).all())
        # PlotDataItem's "auto" connection: a NaN breaks the line
        super().setData(x=x, y=y, connect="all" if finite else "finite", skipFiniteCheck=finite)
