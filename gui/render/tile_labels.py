"""The labels of a mosaic heatmap's tiles ("head 3: m = 0.125"), drawn by one item.

One ``pg.TextItem`` per tile re-laid out its rich text and re-computed its own transform
on every change of the view (every frame of a drag: ~0.4 ms for ALiBi's 8 heads).
:class:`TileLabels` keeps the tiles and, when painted, places each label in its tile's
top-right corner with the view's current transform: the long labels when every tile has
room for its own on screen, else the short ones (one kind of label per plot). It looks like the text items it replaces
(same font, colour, translucent backing and 4-pixel margin) and, drawn in the view
box's own units, scales with exports like everything else.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from core.viewdata import Tile
from gui.render.view_box import ViewOverlay

MARGIN = 4.0  # px around the text, as QGraphicsTextItem's document margin
_TOP_LEFT = int(QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignTop)


def _layout(tiles: Sequence[Tile]) -> list[tuple]:
    """What the labels of ``tiles`` depend on: texts, corners and sizes."""
    return [(t.label, t.short, t.row0, t.col0, len(t.x_coords), len(t.y_coords)) for t in tiles]


class TileLabels(ViewOverlay):
    """Tile labels over the data of ``view``.

    Parameters
    ----------
    view
        The plot's view box (the labels' parent: they are clipped to it).
    font, color, fill
        Text font and colour, and the translucent backing behind each label (a
        ``QColor``: Qt reads an 8-digit hex string as ``#aarrggbb``).
    """

    def __init__(self, view: pg.ViewBox, font: QtGui.QFont, color: str, fill: QtGui.QColor) -> None:
        super().__init__(view, z=10)  # over the data
        self.font = QtGui.QFont(font)
        self.metrics = QtGui.QFontMetricsF(self.font)
        self._height = self.metrics.height()
        # each label's width in the font, measured once (the labels stay while a drag
        # moves and resizes the tiles: 16 measurements a frame for ALiBi's 8 heads)
        self._widths: dict[str, float] = {}
        self.color = QtGui.QColor(color)
        self.fill = QtGui.QColor(fill)
        self.tiles: tuple[Tile, ...] = ()

    def set_tiles(self, tiles: Sequence[Tile]) -> None:
        """Label these tiles (redrawn only when what is drawn of them changed)."""
        tiles = tuple(tiles)
        if _layout(tiles) != _layout(self.tiles):
            self.tiles = tiles
            self.update()

    def _width(self, text: str) -> float:
        width = self._widths.get(text)
        if width is None:
            width = self._widths[text] = self.metrics.horizontalAdvance(text)
        return width

    def shown(self) -> list[tuple[str, QtCore.QRectF]]:
        """``(text, backing rectangle in view-box pixels)`` of every tile's label now."""
        tr = self.view.childGroup.transform()  # data (cells) → view-box pixels
        sx, sy = abs(tr.m11()), abs(tr.m22())
        height = self._height
        out = []
        # the long labels where every tile has room for its own, else the short ones
        # all: ALiBi's 8 heads on stage at 150 % read "head 1: m = 0.5" … "head 4:
        # m = 0.0625" beside "h5" … "h8" (the longer slopes did not fit), as if the
        # last heads were of another kind
        roomy = all(
            len(tile.y_coords) * sy >= 3 * height
            and len(tile.x_coords) * sx >= self._width(tile.label) + 12
            for tile in self.tiles
        )
        for tile in self.tiles:
            text = tile.label if roomy else tile.short
            # the tile's top-right corner: right edge of its last column, top of its first row
            corner = tr.map(QtCore.QPointF(tile.col0 + len(tile.x_coords) - 0.5, tile.row0 - 0.5))
            width = self._width(text) + 2 * MARGIN
            out.append(
                (text, QtCore.QRectF(corner.x() - width, corner.y(), width, height + 2 * MARGIN))
            )
        return out

    def paint(self, p: QtGui.QPainter, *args: object) -> None:
        p.setFont(self.font)
        p.setPen(self.color)
        for text, rect in self.shown():
            p.fillRect(rect, self.fill)
            p.drawText(rect.adjusted(MARGIN, MARGIN, -MARGIN, -MARGIN), _TOP_LEFT, text)
