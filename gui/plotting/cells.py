"""A heatmap's cells as a matrix: square cells, values in small grids, masked cells.

:class:`CellDisplay` is mixed into :class:`gui.plotting.panel_plot.PanelPlot`. For a
heatmap it

* locks the aspect ratio so that cells are square when the panel asks for it
  (``Panel.square``: query × key matrices) or the grid is small (at most 16 × 16) and
  the panel does not say otherwise (``Panel.square=False``: words × dimensions), or
  when the lecturer ticks "Square cells" in the plot's context menu (which overrides
  the automatic choice for that plot);
* gives masked cells (±inf: a causal mask's −∞) a neutral fill, hatched, and a key
  under the colour bar that says what they are;
* prints the values of grids of at most 16 × 16 cells in their cells (see
  :mod:`gui.render.cell_values`).

Nothing is computed here: the values are the panel's own.
"""

from __future__ import annotations

import math
import operator
import weakref
from collections.abc import Callable
from itertools import repeat

import numpy as np
import pyqtgraph as pg
import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets

from core.viewdata import Panel
from gui.render.cell_values import MAX_CELLS, CellLayer, MaskedKey
from gui.render.fast_image import FastImageItem, color_indices
from gui.render.pg_compat import extend_view_box_menu
from gui.render.view_box import padded_span, padding_share
from gui.theme import Theme, masked_colors

VALUE_PT = 12.0  # value text at UI scale 1, before it shrinks to fit the cells
KEY_ROW = 4  # the key's row in the colour bar's own grid (its bar and axis: row 2)
PLOT_MARGIN = 1.0  # px: pyqtgraph's PlotItem layout margins (each side)
HUG_SLACK = 2.0  # px the data's column keeps beyond the square data and its padding


def _cells_of(
    layout: QtWidgets.QGraphicsGridLayout,
) -> list[tuple[int, int, QtWidgets.QGraphicsLayoutItem]]:
    """``(row, column, layout item)`` of each cell of ``layout`` holding an item, kept
    on the layout's wrapper until its rows, columns or item count change: a plot's
    grid (title, axes, data, colour bar) is built once, and scanning its cells with
    ``itemAt(row, column)`` for each room asked (:func:`_around_data`, twice per square
    matrix, several times a frame) was most of a Word order frame's row fitting."""
    key = (layout.count(), layout.rowCount(), layout.columnCount())
    cached = getattr(layout, "_pe_cells", None)
    # (kept while each cell kept holds its item: an item taken out and another put in
    # elsewhere leaves the count as it was; checked in one pass of C calls)
    if cached is not None and cached[0] == key:
        _key, cells, rows, columns, items = cached
        if all(map(operator.is_, map(layout.itemAt, rows, columns), items)):
            return cells
    cells = []
    for row in range(key[1]):
        for column in range(key[2]):
            item = layout.itemAt(row, column)
            if item is not None:
                cells.append((row, column, item))
    rows = tuple(row for row, _column, _item in cells)
    columns = tuple(column for _row, column, _item in cells)
    items = tuple(item for _row, _column, item in cells)
    layout._pe_cells = (key, cells, rows, columns, items)  # type: ignore[attr-defined]
    return cells


def layout_parts(
    layout: QtWidgets.QGraphicsGridLayout,
) -> tuple[tuple[QtWidgets.QGraphicsLayoutItem, ...], tuple[QtWidgets.QGraphicsItem, ...]]:
    """The layout items of :func:`_cells_of` and their graphics items (kept with them):
    what a plot's fit key reads the geometry and visibility of (``PanelPlot.fit_inputs``)."""
    cells = _cells_of(layout)
    known = getattr(layout, "_pe_parts", None)
    if known is None or known[0] is not cells:
        items = tuple(item for _row, _column, item in cells)
        widgets = tuple(item.graphicsItem() for item in items)
        known = (cells, items, tuple(widget for widget in widgets if widget is not None))
        layout._pe_parts = known  # type: ignore[attr-defined]
    return known[1], known[2]


def _around_data(
    layout: QtWidgets.QGraphicsGridLayout, plot: pg.PlotItem, *, across: bool
) -> float:
    """px the other columns (``across``: its left axis, the colour bar and the gap
    before it) or the other rows (its title, top axis, i.e. a legend's strip, and bottom
    axis) of a plot's ``layout`` take as laid out, beside its data's column 1 or row 2."""
    lines = layout.columnCount() if across else layout.rowCount()
    data_line = 1 if across else 2
    sizes = [
        layout.columnMinimumWidth(line) if across else layout.rowMinimumHeight(line)
        for line in range(lines)
    ]
    for row, column, item in _cells_of(layout):
        line = column if across else row
        if line == data_line:
            continue
        widget = item.graphicsItem()
        if widget is not None and widget.isVisibleTo(plot):
            box = item.geometry()
            sizes[line] = max(sizes[line], box.width() if across else box.height())
    return sum(size for line, size in enumerate(sizes) if line != data_line)


def _around_data_both(
    layout: QtWidgets.QGraphicsGridLayout, plot: pg.PlotItem
) -> tuple[float, float]:
    """:func:`_around_data` across and not across, from one pass over the cells: what a
    square matrix's fit asks for both on every frame of a drag (:meth:`CellDisplay.fill_height`,
    :meth:`CellDisplay._hug_square`); two passes read each cell twice. Kept on the
    layout for what it reads (each cell's place and visibility, the rows' and
    columns' minimums), read in C passes: the same on most frames of a drag."""
    items, widgets = layout_parts(layout)
    key = (
        tuple(map(_LAYOUT_GEOMETRY, items)),
        tuple(map(_VISIBLE_TO, widgets, repeat(plot))),
        tuple(map(layout.columnMinimumWidth, range(layout.columnCount()))),
        tuple(map(layout.rowMinimumHeight, range(layout.rowCount()))),
    )
    known = getattr(layout, "_pe_around", None)
    if known is not None and known[0] == key:
        return known[1]
    found = _measured_around_data_both(layout, plot)
    layout._pe_around = (key, found)  # type: ignore[attr-defined]
    return found


def _measured_around_data_both(
    layout: QtWidgets.QGraphicsGridLayout, plot: pg.PlotItem
) -> tuple[float, float]:
    """:func:`_around_data_both`, measured."""
    widths = [layout.columnMinimumWidth(c) for c in range(layout.columnCount())]
    heights = [layout.rowMinimumHeight(r) for r in range(layout.rowCount())]
    for row, column, item in _cells_of(layout):
        if row == 2 and column == 1:
            continue  # (the data's cell: in neither)
        widget = item.graphicsItem()
        if widget is not None and widget.isVisibleTo(plot):
            box = item.geometry()
            if column != 1:
                widths[column] = max(widths[column], box.width())
            if row != 2:
                heights[row] = max(heights[row], box.height())
    across = sum(size for line, size in enumerate(widths) if line != 1)
    return across, sum(size for line, size in enumerate(heights) if line != 2)


_LAYOUT_GEOMETRY = QtWidgets.QGraphicsLayoutItem.geometry
_VISIBLE_TO = QtWidgets.QGraphicsItem.isVisibleTo


def square_by_default(panel: Panel, shape: tuple[int, int]) -> bool:
    """Whether a heatmap of ``shape`` is drawn with square cells unless overridden:
    as the panel says (``Panel.square``), else when the grid is small."""
    if panel.square is not None:
        return panel.square
    return shape[0] <= MAX_CELLS and shape[1] <= MAX_CELLS


class CellDisplay:
    """Square cells, cell values and masked cells of a heatmap plot."""

    plot: pg.PlotItem
    image: FastImageItem | None
    colorbar: pg.ColorBarItem | None
    cells: CellLayer | None = None
    masked_key: MaskedKey | None = None
    #: the masked cells' fill and hatching as last drawn (:func:`~gui.theme.masked_colors`)
    masked_look: tuple[str, str] | None = None
    square_cells: bool | None = None  # the lecturer's choice; None: automatic
    #: told the lecturer's choice (the view keeps it for the plots it builds anew)
    square_changed: Callable[[bool | None], None] | None = None
    _square_ratio: float | None = None  # the aspect ratio locked now (None: unlocked)
    _square_action: QtGui.QAction | None = None  # built with the context menu
    _square_menu_asked = False  # the action is added when the context menu is built
    _square_shown = False  # whether the cells are drawn square now
    #: px of spare width beside each side of a square matrix's plot (see _hug_square)
    hug = 0
    #: px of spare height below a square matrix's plot, under its bottom axis (see
    #: _hug_square): counted as the data's by whoever measures the plot's data height
    spare_below = 0

    def _show_cells(
        self, panel: Panel, theme: Theme, image: np.ndarray, rect: QtCore.QRectF
    ) -> None:
        """Square cells, values and masked cells for the image just shown."""
        self._install_square_action()
        rows, cols = image.shape
        self._lock_square(panel, (rows, cols), rect)
        assert self.image is not None
        fill, hatch = self.masked_look = masked_colors(theme, panel.colormap)
        masked = QtGui.QColor(fill)
        self.image.set_masked_color(masked)
        if self.cells is None:
            self.cells = CellLayer(self.plot.getViewBox())
        self._style_cells(self.text_theme(theme))
        colors = None
        lut = self.image.lut
        if rows <= MAX_CELLS and cols <= MAX_CELLS and isinstance(lut, np.ndarray):
            n = len(lut)
            idx = color_indices(image, tuple(np.ravel(self.image.levels)), n)
            colors = lut[np.minimum(idx, n - 1), :3]
        self.cells.set_cells(
            image,
            rect,
            colors,
            (masked.red(), masked.green(), masked.blue()),
            panel.cell_decimals,
        )
        # (set_cells looked for masked cells: the image is not scanned again)
        self._show_masked_key(self.cells.any_masked, theme)

    def _style_cells(self, text: Theme) -> None:
        """Value text at the plot's text size (``text``: the theme, zoomed in focus)."""
        if self.cells is not None:
            hatch = self.masked_look[1] if self.masked_look else text.masked_hatch
            self.cells.set_style(text.font_pt(VALUE_PT), QtGui.QColor(hatch))

    def text_theme(self, theme: Theme) -> Theme:  # PanelPlot's (focus mode's text zoom)
        return theme

    def _show_masked_key(self, shown: bool, theme: Theme) -> None:
        """The "−∞ masked" key under the colour bar, while masked cells are drawn."""
        if not shown or self.colorbar is None:
            self._drop_masked_key()
            return
        fill, hatch = (
            QtGui.QColor(c) for c in self.masked_look or (theme.masked, theme.masked_hatch)
        )
        key = self.masked_key
        if key is not None and (key.fill, key.hatch) != (fill, hatch):
            self._drop_masked_key()  # (another colormap: another fill)
        if self.masked_key is None:
            text = self.text_theme(theme)
            self.masked_key = MaskedKey(text.font(9), QtGui.QColor(theme.foreground), fill, hatch)
            self.masked_key.setParentItem(self.colorbar)
            self.colorbar.layout.addItem(self.masked_key, KEY_ROW, 1, 1, 2)

    def _drop_masked_key(self) -> None:
        key, self.masked_key = self.masked_key, None
        if key is not None:
            bar = key.parentItem()
            if isinstance(bar, pg.PlotItem):
                bar.layout.removeItem(key)
            if key.scene() is not None:
                key.scene().removeItem(key)

    def _drop_cells(self) -> None:
        """Forget the heatmap's cell display (the plot is rebuilt)."""
        if self.cells is not None:
            self.cells.detach()
            self.cells = None
        self._drop_masked_key()
        self._square_ratio = None
        self._hug_square()
        for name in ("bottom", "left"):  # a plot rebuilt as curves ticks its whole range
            axis = self.plot.getAxis(name)
            if getattr(axis, "data_limits", None) is not None:
                axis.data_limits = None
                axis.picture = None

    def _lock_square(self, panel: Panel, shape: tuple[int, int], rect: QtCore.QRectF) -> None:
        square = self.square_cells
        if square is None:
            square = square_by_default(panel, shape)
        self._square_shown = square
        if self._square_action is not None and self._square_action.isChecked() != square:
            self._square_action.blockSignals(True)
            self._square_action.setChecked(square)
            self._square_action.blockSignals(False)
        rows, cols = shape
        # square cells: dx data units across take as many pixels as dy down
        ratio = abs(rect.height() / rows) / abs(rect.width() / cols) if square else None
        if ratio != self._square_ratio:
            self._square_ratio = ratio
            self.plot.setAspectLocked(ratio is not None, ratio=ratio or 1.0)
            self._inset_colorbar()
        self._hug_square()
        # the padded side of a square matrix gets no ticks past the data: its labels (and
        # so the axis' width) do not follow the padding, which follows the plot's size
        dx, dy = rect.width() / cols, rect.height() / rows
        spans = (
            ("bottom", (rect.left() + dx / 2, rect.right() - dx / 2)),
            ("left", (rect.top() + dy / 2, rect.bottom() - dy / 2)),
        )
        for name, span in spans:
            axis = self.plot.getAxis(name)
            limits = span if square else None
            if getattr(axis, "data_limits", None) != limits and hasattr(axis, "data_limits"):
                axis.data_limits = limits
                axis.picture = None
                axis.update()

    def _hug_square(self, *_args: object) -> None:
        """Put a square matrix's spare width outside its plot's axes and colour bar, and
        its spare height below its bottom axis.

        pyqtgraph's aspect lock widens the view's x range to fill a wide view box: the
        matrix sat centred in it, 110-270 px from its left axis and its colour bar (issue
        14). The spare width, what the data's column has beyond the square data at the
        view's height with pyqtgraph's padding (:func:`padded_span`) and
        :data:`HUG_SLACK`, goes half to each side of the plot's layout (its contents
        margins): the left axis, the data and the colour bar stand together, centred in
        the plot. The title and the bottom axis' title keep the width they had without it
        (:meth:`data_column`, see ``PanelPlot._elide_title`` and
        ``FastAxisItem.title_length``), so nothing above or below the data changes
        height with it.

        A matrix narrower than its plot is tall (Word order's 9 x 9 weights of a
        sentence beside its 9 x 16 differences) sat in the middle of a tall view box,
        its key axis and words far below its last row (out of sight at 1280 x 720) and
        its colour bar the plot's height: the spare height, what the data's row has
        beyond the square data at the column's width, goes below the plot's bottom axis
        (its bottom contents margin, :attr:`spare_below`): the axis stands under the
        last row, the colour bar as tall as the view box. Both are functions of the
        plot's size and what stands beside and above and below the data alone
        (:meth:`data_column`, :meth:`data_row`), reached in one layout pass and the same
        however the plot got there (a re-style, a resize, a focus and back)."""
        plot = self.plot
        if not shiboken6.isValid(plot):  # (a signal while the plot is destroyed)
            return
        layout = plot.layout
        if not shiboken6.isValid(layout):
            return
        left, top, right, bottom = layout.getContentsMargins()
        hug = below = 0
        width = 0.0
        image = self.image
        if self._square_ratio is not None and image is not None and image.image is not None:
            width, height = self.data_size()
            rows, cols = image.image.shape[:2]
            if width > 0 and height > 0 and rows > 0 and cols > 0:
                # the data's height in the view (its padding on both sides) and so its
                # width, its cells square
                data = height / (1.0 + 2.0 * padding_share(height)) * cols / rows
                hug = max(0, math.floor((width - padded_span(data) - HUG_SLACK) / 2))
                if hug == 0:  # as wide as the column: the data's height at its width
                    tall = width / (1.0 + 2.0 * padding_share(width)) * rows / cols
                    below = max(0, math.floor(height - padded_span(tall) - HUG_SLACK))
        if (
            hug != self.hug
            or below != self.spare_below
            or not left == right == PLOT_MARGIN + hug
            or bottom != PLOT_MARGIN + below
        ):
            self.hug = hug
            self.spare_below = below
            layout.setContentsMargins(
                PLOT_MARGIN + hug, top, PLOT_MARGIN + hug, PLOT_MARGIN + below
            )
        axis = plot.getAxis("bottom")
        if hasattr(axis, "set_title_length"):
            axis.set_title_length(width if hug > 0 else None)
        axis = plot.getAxis("left")
        if hasattr(axis, "set_spare_below"):  # (as wide as its column: on the matrix)
            axis.set_spare_below(below, on_axis=width > 0 and hug == 0)

    def fill_height(self) -> float | None:
        """The plot height (px) at which a square matrix's data fill its data column's
        width, no spare height below them (:meth:`_hug_square`): its title, axes and
        the padded square data at the column's width, as laid out now. ``None`` for a
        plot that is not a square matrix (or not laid out): it uses any height. The
        view holds a row of matrices no taller than its tallest square needs
        (``ViewWidget._balance_rows``)."""
        image = self.image
        if self._square_ratio is None or image is None or image.image is None:
            return None
        rows, cols = image.image.shape[:2]
        width, height = self.data_size()
        if width <= 0 or height <= 0 or rows <= 0 or cols <= 0:
            return None
        tall = width / (1.0 + 2.0 * padding_share(width)) * rows / cols
        return float(self.plot.height() - height + math.ceil(padded_span(tall) + HUG_SLACK))

    def data_column(self) -> float:
        """The width (px) of the plot's data column without a square matrix's spare width
        beside it (:meth:`_hug_square`): the plot less what stands beside the data, as
        laid out. Never from the view box's width or the margins: asked right after new
        margins were set, before the layout ran, those were the old margins' (the title
        wrapped at another width on the way, and the axes held the room of labels shown
        on the way: a re-styled plot no longer matched one built anew)."""
        plot = self.plot
        return float(plot.width() - 2 * PLOT_MARGIN - _around_data(plot.layout, plot, across=True))

    def data_size(self) -> tuple[float, float]:
        """``(data_column(), data_row())`` (:meth:`data_column`, :meth:`data_row`), the
        plot's cells read once for both."""
        plot = self.plot
        layout = plot.layout
        across, down = _around_data_both(layout, plot)
        top = layout.getContentsMargins()[1]
        return (
            float(plot.width() - 2 * PLOT_MARGIN - across),
            float(plot.height() - top - PLOT_MARGIN - down),
        )

    def data_row(self) -> float:
        """The height (px) of the plot's data row without a square matrix's spare height
        below it (:meth:`_hug_square`): the plot less its title and axes above and below
        the data, as laid out (never the view box's height or the margins: see
        :meth:`data_column`)."""
        plot = self.plot
        top = plot.layout.getContentsMargins()[1]
        return float(
            plot.height() - top - PLOT_MARGIN - _around_data(plot.layout, plot, across=False)
        )

    def _inset_colorbar(self) -> None:
        """A square matrix's colour bar half a line of its labels shorter at each end
        than the view box beside it. Its end labels stick out half a line past its ends:
        level with the view box's top, the top one reached into the title, whose lines
        pass over the colour bar when the spare width stands beside the plot
        (:meth:`_hug_square`: 4 px at 200 %). Fixed by the labels' font (set with it, and
        when the cells become square or not), never by the plot's size: a margin that
        followed the layout re-laid out the plot on the way to its size, and the axes
        kept room they took there."""
        bar = self.colorbar
        if bar is None or not shiboken6.isValid(bar):
            return
        inset = 0
        font = bar.axis.style.get("tickFont")
        if self._square_ratio is not None and font is not None:
            inset = math.ceil(QtGui.QFontMetricsF(font).height() / 2)
        left, top, right, bottom = bar.layout.getContentsMargins()
        if top != PLOT_MARGIN + inset or bottom != PLOT_MARGIN + inset:
            bar.layout.setContentsMargins(left, PLOT_MARGIN + inset, right, PLOT_MARGIN + inset)

    def set_square_cells(self, square: bool | None) -> None:
        """Draw this heatmap's cells square (``True``), as the panel fills the plot
        (``False``) or as chosen automatically (``None``)."""
        self.square_cells = square
        if self.square_changed is not None:
            self.square_changed(square)
        panel = getattr(self, "panel", None)
        if panel is None or self.image is None or self.image.image is None:
            return
        rect = self.image.mapRectToParent(self.image.boundingRect())
        self._lock_square(panel, self.image.image.shape, rect)

    def _install_square_action(self) -> None:
        """A checkable "Square cells" entry in the plot's context menu, added when the
        menu is built (most plots are never right-clicked: building every heatmap's menu
        with the plot cost more than the rest of its context menus' use)."""
        if self._square_menu_asked:
            return
        self._square_menu_asked = True
        me = weakref.ref(self)  # the menu outlives a replaced plot's display

        def extend(menu: QtWidgets.QMenu) -> None:
            display = me()
            if display is not None:
                display._add_square_action(menu)

        extend_view_box_menu(self.plot.getViewBox(), extend)

    def _add_square_action(self, menu: QtWidgets.QMenu) -> None:
        """The "Square cells" entry itself, ticked as the cells are drawn now."""
        menu.addSeparator()
        action = menu.addAction("Square cells")
        action.setCheckable(True)
        # a weak reference: the menu outlives a replaced plot's display (see _show_table)
        me = weakref.ref(self)

        def toggled(on: bool) -> None:
            display = me()
            if display is not None:
                display.set_square_cells(on)

        action.setChecked(self._square_shown)
        action.toggled.connect(toggled)
        self._square_action = action
