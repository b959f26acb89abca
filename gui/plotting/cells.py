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

import weakref
from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from core.viewdata import Panel
from gui.render.cell_values import MAX_CELLS, CellLayer, MaskedKey
from gui.render.fast_image import FastImageItem, color_indices
from gui.render.pg_compat import extend_view_box_menu
from gui.theme import Theme

VALUE_PT = 12.0  # value text at UI scale 1, before it shrinks to fit the cells
KEY_ROW = 4  # the key's row in the colour bar's own grid (its bar and axis: row 2)


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
    square_cells: bool | None = None  # the lecturer's choice; None: automatic
    #: told the lecturer's choice (the view keeps it for the plots it builds anew)
    square_changed: Callable[[bool | None], None] | None = None
    _square_ratio: float | None = None  # the aspect ratio locked now (None: unlocked)
    _square_action: QtGui.QAction | None = None  # built with the context menu
    _square_menu_asked = False  # the action is added when the context menu is built
    _square_shown = False  # whether the cells are drawn square now

    def _show_cells(
        self, panel: Panel, theme: Theme, image: np.ndarray, rect: QtCore.QRectF
    ) -> None:
        """Square cells, values and masked cells for the image just shown."""
        self._install_square_action()
        rows, cols = image.shape
        self._lock_square(panel, (rows, cols), rect)
        assert self.image is not None
        masked = QtGui.QColor(theme.masked)
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
            self.cells.set_style(text.font_pt(VALUE_PT), QtGui.QColor(text.masked_hatch))

    def text_theme(self, theme: Theme) -> Theme:  # PanelPlot's (focus mode's text zoom)
        return theme

    def _show_masked_key(self, shown: bool, theme: Theme) -> None:
        """The "−∞ masked" key under the colour bar, while masked cells are drawn."""
        if not shown or self.colorbar is None:
            self._drop_masked_key()
            return
        if self.masked_key is None:
            text = self.text_theme(theme)
            self.masked_key = MaskedKey(
                text.font(9),
                QtGui.QColor(theme.foreground),
                QtGui.QColor(theme.masked),
                QtGui.QColor(theme.masked_hatch),
            )
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
