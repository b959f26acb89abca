"""The one place that reaches into pyqtgraph's internals (written against pyqtgraph 0.14.0).

The drop-in items of :mod:`gui.render` need a few members pyqtgraph does not document: a
cache to fill, a flag to clear, a hook to call. Every one of them is reached through a
small named function here, and described in a table:

* :data:`PRIVATE_MEMBERS`: the private members (``_name``, and ``deviceTransform_``)
  the code reads, writes or calls. No other module may name them (a test parses
  ``gui/`` to check).
* :data:`INTERNAL_MEMBERS`: undocumented public-looking members the code relies on
  (``AxisItem.picture``, ``PlotItem.titleLabel``, option keys, ...).
* :data:`OWN_ATTRIBUTES`: names the code stores on pyqtgraph objects for itself, which
  pyqtgraph must not start using.
* :data:`PORTED_SOURCES`: pyqtgraph functions whose logic is ported or replicated in
  ``gui/`` (e.g. ``AxisItem.generateDrawSpecs`` in :mod:`gui.render.axis_specs`), or
  replaced here (``ViewBox.getMenu``: see :func:`defer_view_box_menus`;
  ``PlotItem.__init__``: see :func:`defer_plot_menus`), fingerprinted.

:func:`compat_problems` checks all four against the installed pyqtgraph and names
every member that is missing or changed shape, so an upgrade fails in one named place.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import inspect
import sys
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from gui.render.plain_text import PlainTextItem
from gui.render.scripts import typeset_scripts


@dataclass(frozen=True)
class Member:
    """What the code expects of one pyqtgraph member.

    Attributes
    ----------
    kind
        ``"method"`` (looked up on the class, called with ``params``) or
        ``"attribute"`` (present on a freshly constructed instance).
    params
        Parameter names of a method after ``self``, in order.
    keys
        For a dict attribute (``opts``, ``style``): the keys the code reads.
    used_by
        The module that relies on it.
    """

    kind: str
    params: tuple[str, ...] = ()
    keys: tuple[str, ...] = ()
    used_by: str = ""


def _method(*params: str, used_by: str) -> Member:
    return Member("method", params=params, used_by=used_by)


def _attribute(*keys: str, used_by: str) -> Member:
    return Member("attribute", keys=keys, used_by=used_by)


#: Private members of pyqtgraph touched by the code, by class. Only this module names them.
PRIVATE_MEMBERS: dict[str, dict[str, Member]] = {
    "AxisItem": {
        # explicit ticks set with setTicks (None: automatic ticks); no public getter
        "_tickLevels": _attribute(used_by="axis_specs, grid_lines, panel_plot"),
        # the pens as set (None: the default), read without tickPen()'s two copies
        "_pen": _attribute(used_by="grid_lines, fast_axis"),
        "_tickPen": _attribute(used_by="grid_lines, fast_axis"),
        "_textPen": _attribute(used_by="fast_axis"),
        # the width/height reserved for tick text, as generateDrawSpecs reports it
        "_updateMaxTextSize": _method("x", used_by="fast_axis"),
        # the axis sized to its text room now (new_axis_text_size)
        "_updateWidth": _method(used_by="pg_compat (new_axis_text_size)"),
        "_updateHeight": _method(used_by="pg_compat (new_axis_text_size)"),
        # the painter transform to the device (trailing underscore: pyqtgraph's own)
        "deviceTransform_": _method(used_by="axis_specs"),
        # replaced (keep_identical_axis_titles); what it calls after setting the title
        "_updateLabel": _method(used_by="pg_compat (keep_identical_axis_titles)"),
        "_adjustSize": _method(used_by="pg_compat (keep_identical_axis_titles)"),
    },
    "PlotCurveItem": {
        "_boundsCache": _attribute(
            used_by="swap_curve_data (cleared by invalidateBounds)"
        ),  # [(frac, orthoRange), bounds] per axis
        "_boundingRect": _attribute(
            used_by="fast_curve"
        ),  # the rect boundingRect keeps (None: stale)
        "_exportOpts": _attribute(used_by="fast_curve"),  # False unless exporting
    },
    "ImageItem": {
        "_renderRequired": _attribute(used_by="fast_image"),  # render() before next paint
        "_unrenderable": _attribute(used_by="fast_image"),  # the last render failed
    },
    "ViewBox": {
        "_itemBoundsCache": _attribute(used_by="view_box"),  # item → bounds of childrenBounds
        # updateAutoRange's recursion guard, and its "due" flag (cleared when it ran)
        "_updatingRange": _attribute(used_by="view_box"),
        "_autoRangeNeedsUpdate": _attribute(used_by="view_box"),
    },
    "PlotItem": {
        # a slot of the Plot Options form (PLOT_MENU_SLOTS)
        "_handle_max_traces_toggle": _method("check_state", used_by="pg_compat (plot menus)"),
    },
    "PlotDataItem": {
        # the data as shown (log mapping, downsampling, clipping applied); None: none
        "_getDisplayDataset": _method(used_by="symbol_series"),
    },
}

#: Undocumented but public-looking members the code relies on (not routed, only checked).
INTERNAL_MEMBERS: dict[str, dict[str, Member]] = {
    "GraphicsLayout": {
        # row → column → item, and item → its cells (what removeItem and addItem keep)
        "rows": _attribute(used_by="pg_compat (move_in_grid)"),
        "items": _attribute(used_by="pg_compat (move_in_grid), view_widget"),
    },
    "AxisItem": {
        "picture": _attribute(used_by="fast_axis, snapshot"),  # what paint() plays
        "generateDrawSpecs": _method("p", used_by="fast_axis, snapshot"),
        "drawPicture": _method("p", "axisSpec", "tickSpecs", "textSpecs", used_by="fast_axis"),
        "tickSpacing": _method("minVal", "maxVal", "size", used_by="fast_axis"),
        "logTickValues": _method("minVal", "maxVal", "size", "stdTicks", used_by="fast_axis"),
        "tickStrings": _method("values", "scale", "spacing", used_by="axis_specs"),
        "style": _attribute(
            "tickFont",
            "tickLength",
            "tickAlpha",
            "tickTextOffset",
            "stopAxisAtTick",
            "showValues",
            "maxTextLevel",
            "textFillLimits",
            used_by="axis_specs",
        ),
        "label": _attribute(used_by="fast_axis"),
        "grid": _attribute(used_by="axis_specs"),
        "range": _attribute(used_by="axis_specs"),
        "logMode": _attribute(used_by="fast_axis"),
        "scale": _attribute(used_by="fast_axis, axis_specs"),
        "autoSIPrefixScale": _attribute(used_by="axis_specs"),
    },
    "PlotCurveItem": {
        "opts": _attribute(
            "pen",
            "shadowPen",
            "fillLevel",
            "antialias",
            "compositionMode",
            "stepMode",
            "connect",
            "segmentedLineMode",
            used_by="fast_curve, snapshot, panel_plot, envelope",
        ),
        "xData": _attribute(used_by="fast_curve"),
        "yData": _attribute(used_by="fast_curve"),
        # the path paint() strokes is the one getPath() returns (snapshot reroutes it)
        "getPath": _method(used_by="fast_curve, snapshot"),
        "setExportMode": _method("export", "opts", used_by="snapshot"),
        "dataBounds": _method("ax", "frac", "orthoRange", used_by="fast_curve"),
    },
    "ImageItem": {
        "render": _method(used_by="fast_image"),
        "qimage": _attribute(used_by="fast_image"),
        "lut": _attribute(used_by="fast_image"),
        "levels": _attribute(used_by="fast_image"),
        "paintMode": _attribute(used_by="fast_image"),
        "border": _attribute(used_by="fast_image"),
        "autoDownsample": _attribute(used_by="fast_image"),
        "axisOrder": _attribute(used_by="fast_image"),
    },
    "ViewBox": {
        "itemBoundsChanged": _method("item", used_by="view_box"),
        "addedItems": _attribute(used_by="view_box"),
        "childGroup": _attribute(used_by="grid_lines, tile_labels"),
        "prepareForPaint": _method(used_by="panel_plot"),
        "background": _attribute(used_by="panel_plot"),  # the view's background rect item
        "updateBackground": _method(used_by="panel_plot"),
        "menu": _attribute(used_by="pg_compat (view_box_menu)"),  # None until built
        "menuEnabled": _method(used_by="pg_compat (view_box_menu)"),
    },
    "GraphicsScene": {
        "prepareForPaint": _method(used_by="snapshot"),
    },
    "LegendItem": {
        "items": _attribute(used_by="panel_plot"),  # [(sample, label)] per entry
    },
    "PlotItem": {
        "titleLabel": _attribute(used_by="title_label"),
        "layout": _attribute(used_by="title_label"),
        # the slots of the Plot Options form (PLOT_MENU_SLOTS)
        "updateAlpha": _method("args", used_by="pg_compat (plot menus)"),
        "updateGrid": _method("args", used_by="pg_compat (plot menus)"),
        "updateSpectrumMode": _method("b", used_by="pg_compat (plot menus)"),
        "updateSubtractMeanMode": _method(used_by="pg_compat (plot menus)"),
        "updateLogMode": _method(used_by="pg_compat (plot menus)"),
        "updateDerivativeMode": _method(used_by="pg_compat (plot menus)"),
        "updatePhasemapMode": _method(used_by="pg_compat (plot menus)"),
        "updateDownsampling": _method(used_by="pg_compat (plot menus)"),
        "avgParamListClicked": _method("item", used_by="pg_compat (plot menus)"),
        "avgToggled": _method("b", used_by="pg_compat (plot menus)"),
        "updateDecimation": _method(used_by="pg_compat (plot menus)"),
    },
    "LabelItem": {
        "item": _attribute(used_by="title_label, panel_plot"),
        "updateMin": _method(used_by="title_label"),
        "itemRect": _method(used_by="title_label"),
        "_sizeHint": _attribute(used_by="pg_compat (guard_dying_labels)"),
        "opts": _attribute(used_by="pg_compat (guard_dying_labels)"),
    },
    "ColorBarItem": {
        "axis": _attribute(used_by="fast_axis, panel_plot"),
        "horizontal": _attribute(used_by="fast_axis"),
        "values": _attribute(used_by="fast_axis"),
    },
    "PlotDataItem": {
        "opts": _attribute("pen", "antialias", used_by="panel_plot"),
        "curve": _attribute(used_by="panel_plot"),
    },
    "ScatterPlotItem": {
        # the points' record array: x, y, visible, and each symbol's place in the atlas
        "data": _attribute(used_by="symbol_series"),
        "fragmentAtlas": _attribute(used_by="symbol_series"),  # pixmap, devicePixelRatio
        "opts": _attribute("pxMode", "useCache", "compositionMode", used_by="symbol_series"),
        "bounds": _attribute(used_by="symbol_series"),  # [x bounds, y bounds] (None: stale)
        "invalidate": _method(used_by="symbol_series"),
    },
    "TextItem": {
        # the child that holds and draws the text (replace_text_item swaps it)
        "textItem": _attribute(used_by="pg_compat (replace_text_item), panel_extras"),
    },
}

#: Attributes the code stores on pyqtgraph objects (its subclasses' and items') for its
#: own use: pyqtgraph must not use these names itself.
OWN_ATTRIBUTES: dict[str, dict[str, str]] = {
    "PlotCurveItem": {
        "_thin_pen": "fast_curve",
        "_original": "line_item",
        "_log": "line_item",
        "_full_pen": "panel_plot",
        "_solid_pen": "panel_plot",
    },
    "PlotDataItem": {"_full_pen": "panel_plot", "_solid_pen": "panel_plot"},
    "ImageItem": {"_table_for": "fast_image", "_version": "fast_image", "_sampled": "fast_image"},
    "AxisItem": {"_text_sizes": "fast_axis", "_text_font_key": "fast_axis"},
    "LabelItem": {"_height": "title_label"},
    "ViewBox": {"_pe_menu_extensions": "pg_compat (extend_view_box_menu)"},
}

#: pyqtgraph functions whose logic the code ports or replicates: ``"Class.method"`` →
#: (SHA-256 of pyqtgraph 0.14.0's source, the module holding the port). A changed
#: fingerprint means pyqtgraph changed that logic: compare and update the port.
PORTED_SOURCES: dict[str, tuple[str, str]] = {
    # what a marker series' new positions change (symbol_series.SymbolSeries.updateItems)
    "PlotDataItem.updateItems": (
        "47eae0e842ae3855efbf073cee95833135982e6cde36623d12688760863f52aa",
        "gui/render/symbol_series.py (SymbolSeries.updateItems)",
    ),
    "ScatterPlotItem.addPoints": (
        "6479d6d7013bfac79453b08386f3b3e20cb9ce1b4893b3405dda41f9332405fc",
        "gui/render/pg_compat.py (move_markers)",
    ),
    # its screen paint of pixel-mode symbols from the atlas (drawPixmapFragments)
    "ScatterPlotItem.paint": (
        "3ecb56b2b32a3d76182c3cb882d07886aec5517d60c213664ea5eeacde6c774c",
        "gui/render/symbol_series.py (ExportScatter._paint_few)",
    ),
    "AxisItem.generateDrawSpecs": (
        "94d1f7e106f9a5697f5935cf3634e0a696a5d17a6760b99c972577503a8d7846",
        "gui/render/axis_specs.py",
    ),
    "AxisItem.tickValues": (
        "245af23f5b57f19c86033203770da020058bf05f7e1407963328378817326014",
        "gui/render/fast_axis.py (FastAxisItem.tickValues)",
    ),
    "AxisItem.drawPicture": (
        "c625b309e10e2ac3dbdd2aa9e39e7d53eaaac3870d6745b3f8a178054fd89b03",
        "gui/render/fast_axis.py (FastAxisItem.draw_specs)",
    ),
    "PlotCurveItem.dataBounds": (
        "aabf2e35cff62b3cb82ee1a91ffb672d4cfd983d3793c73d428a24d700feea0a",
        "gui/render/fast_curve.py (FastCurveItem.dataBounds)",
    ),
    # swap_curve_data clears what it clears (_boundingRect, _boundsCache) itself
    "PlotCurveItem.invalidateBounds": (
        "6ab6b1458062381ba481363f92c814ecb78a7b36141c40d71d2e46cde453e71f",
        "gui/render/pg_compat.py (swap_curve_data)",
    ),
    "PlotCurveItem.boundingRect": (
        "477566e3fad303e818c2965829dfac2a9b63d017fc1b3c6fe39cf4add39a09d1",
        "gui/render/fast_curve.py (FastCurveItem.boundingRect)",
    ),
    # qt_widget_bounding_rects: Qt's own for PlotItem and LabelItem (the same rect)
    "GraphicsWidget.boundingRect": (
        "22f1b46ddb5942f12e66689538f8b2561cf7fe4d25c5ef80dbffdb208b310d17",
        "gui/render/pg_compat.py (qt_widget_bounding_rects)",
    ),
    # (GraphicsItem's, for direction (1, 0): FastCurveItem.pixel_size)
    "PlotCurveItem.pixelVectors": (
        "20041e421cd7ee7108a6507d944f5a3e886dfc2b35d9d2c76e81a7b34e1a5e92",
        "gui/render/fast_curve.py (FastCurveItem.pixel_size)",
    ),
    # defer_view_box_menus: __init__ and _applyMenuEnabled build the menu by the module's
    # name ViewBoxMenu (replaced); getMenu and getContextMenus are replaced
    "ViewBox.__init__": (
        "a1712ac3bde50bb3c7391c12308b56d1e323f3f99c3c621f977dad1231dc541f",
        "gui/render/pg_compat.py (defer_view_box_menus)",
    ),
    "ViewBox._applyMenuEnabled": (
        "c544f335ce792c44c3fd45c0c786048056b743f9e0ad4cbb0cd4ea78d287de9a",
        "gui/render/pg_compat.py (defer_view_box_menus)",
    ),
    "ViewBox.getMenu": (
        "7e0b39a6c407c379df068e381e4f1c9ee58f71d9ed5b755cc1ec56db54cf5457",
        "gui/render/pg_compat.py (view_box_menu)",
    ),
    "ViewBox.getContextMenus": (
        "eb079fda9e8e732074b4e271cb6ea296cb7e493dd1dc6426396a9f4a68610c90",
        "gui/render/pg_compat.py (defer_view_box_menus)",
    ),
    "ViewBox.updateViewLists": (
        "47eb97676541d640e705d374cada94e94c544ed217c3f38433afc236959aec03",
        "gui/render/pg_compat.py (view_box_menu)",
    ),
    "AxisItem._updateLabel": (
        "798a29375d27e4d4ee7f3b2385b55648adb3812f38b082455de822f362cae80d",
        "gui/render/pg_compat.py (keep_identical_axis_titles)",
    ),
    "LabelItem.updateMin": (
        "27fe4c9e2af977a83e61950f127121d2472a8776d438573f7d78dc9d31e08492",
        "gui/render/title_label.py (TitleLabel.updateMin)",
    ),
    "LabelItem.setText": (
        "f8786f967badc15d1b901c415ed4538b4d9a737c0b23d2b2f018a05465bf25dd",
        "gui/render/pg_compat.py (typeset_label_scripts)",
    ),
    # defer_plot_menus: pyqtgraph's __init__ less the Plot Options menu
    "PlotItem.__init__": (
        "5043d18613d5d6cefb6d6509ab2a0d5d68d00c6e6fa8992239e0ad5d1c94fe5f",
        "gui/render/pg_compat.py (_plot_item_init, build_plot_menu, PLOT_MENU_SLOTS)",
    ),
    "ColorBarItem.__init__": (
        "395c3a525484f7fbe4e8f78f4cace62100e81b3ddcecf97e6e0e34ce725d1b1e",
        "gui/render/fast_axis.py (FastColorBarItem: the axis set-up)",
    ),
    # replace_text_item: TextItem reaches its text only through textItem, with the
    # members PlainTextItem has (its text, font, width, colour, box; the fill's outline)
    "TextItem.__init__": (
        "6214b8e6b4e9561a4c66c1d9a317b99045bc0e96fa9936735dfb5075090f1763",
        "gui/render/pg_compat.py (replace_text_item), gui/render/plain_text.py",
    ),
    "TextItem.setPlainText": (
        "20c7482cd6eba2e6930dd62a8b7bc97c70ff79fbfa34e53ba745eca3f27df76e",
        "gui/render/pg_compat.py (replace_text_item), gui/render/plain_text.py",
    ),
    "TextItem.toPlainText": (
        "cbcd27d136ce9fd780234c2dece8ef6b8788998a705238881481edfc5e538e73",
        "gui/render/pg_compat.py (replace_text_item), gui/render/plain_text.py",
    ),
    "TextItem.setTextWidth": (
        "02812d4be3449ad59b4878fc864d3c7ebbcb356aa4013a1916317a56e36b940f",
        "gui/render/pg_compat.py (replace_text_item), gui/render/plain_text.py",
    ),
    "TextItem.setFont": (
        "94fad19cebb70a583e77786d518216041cc322fa47d1f3f205f9a1bb7283e6b5",
        "gui/render/pg_compat.py (replace_text_item), gui/render/plain_text.py",
    ),
    "TextItem.setColor": (
        "e28463776227250c502b750612b5230adc6a5c9a42de221259c02c9aaef9ba07",
        "gui/render/pg_compat.py (replace_text_item), gui/render/plain_text.py",
    ),
    "TextItem.boundingRect": (
        "3b5cf47b9def15239afea741de2620d9b88b87f4fa32781790d2b5a9f39b1fed",
        "gui/render/pg_compat.py (replace_text_item), gui/render/plain_text.py",
    ),
    "TextItem.paint": (
        "8a2d3b3adec2749e834f55895069d48a137510d4eb0d6df2df6825156e67cf69",
        "gui/render/pg_compat.py (replace_text_item), gui/render/plain_text.py",
    ),
    "TextItem.updateTextPos": (
        "c81934d24cf3cc3c871d119a81130a7a462152ebe0e329b18644313bcdc3051f",
        "gui/plotting/panel_extras.py (LabelText.updateTextPos)",
    ),
}

_CLASSES: dict[str, type] = {
    "GraphicsLayout": pg.GraphicsLayout,
    "AxisItem": pg.AxisItem,
    "PlotCurveItem": pg.PlotCurveItem,
    "ImageItem": pg.ImageItem,
    "ViewBox": pg.ViewBox,
    "PlotItem": pg.PlotItem,
    "LabelItem": pg.LabelItem,
    "ColorBarItem": pg.ColorBarItem,
    "GraphicsScene": pg.GraphicsScene,
    "LegendItem": pg.LegendItem,
    "PlotDataItem": pg.PlotDataItem,
    "GraphicsWidget": pg.GraphicsWidget,
    "ScatterPlotItem": pg.ScatterPlotItem,
    "TextItem": pg.TextItem,
}

_FRESH: dict[str, Callable[[], Any]] = {
    "GraphicsLayout": pg.GraphicsLayout,
    "AxisItem": lambda: pg.AxisItem("left"),
    "PlotCurveItem": pg.PlotCurveItem,
    "ImageItem": pg.ImageItem,
    "ViewBox": pg.ViewBox,
    "PlotItem": pg.PlotItem,
    "LabelItem": pg.LabelItem,
    "ColorBarItem": pg.ColorBarItem,
    "GraphicsScene": pg.GraphicsScene,
    "LegendItem": pg.LegendItem,
    "PlotDataItem": pg.PlotDataItem,
    "ScatterPlotItem": pg.ScatterPlotItem,
    "TextItem": pg.TextItem,
}


# ---------------------------------------------------------------------- accessors
def explicit_ticks(axis: pg.AxisItem) -> list | None:
    """The ticks set with ``axis.setTicks`` (levels of ``(value, label)``), or ``None``
    when ``axis`` generates its ticks itself."""
    return axis._tickLevels


def tick_state(axis: pg.AxisItem) -> tuple:
    """What besides the range and length decides ``axis``'s tick values: its explicit
    ticks (a copy), spacing, density, scale, log mode and deepest tick level (and the
    data limits of a :class:`gui.render.fast_axis.FastAxisItem`)."""
    explicit = axis._tickLevels
    return (
        None if explicit is None else tuple(tuple(level) for level in explicit),
        None if axis._tickSpacing is None else tuple(map(tuple, axis._tickSpacing)),
        axis._tickDensity,
        axis.scale,
        axis.logMode,
        axis.style.get("maxTickLevel"),
        getattr(axis, "data_limits", None),
    )


def tick_rgba(axis: pg.AxisItem) -> int:
    """``axis.tickPen().color().rgba()`` without the pen copies ``tickPen`` makes."""
    pen = axis._tickPen if axis._tickPen is not None else axis._pen
    return (pen if pen is not None else axis.tickPen()).color().rgba()


def axis_pens(axis: pg.AxisItem) -> tuple[QtGui.QPen, QtGui.QPen]:
    """``(axis.pen(), axis.tickPen())`` as set, without the copies those make (the pens
    are read, never changed)."""
    pen = axis._pen if axis._pen is not None else axis.pen()
    return pen, axis._tickPen if axis._tickPen is not None else pen


def text_pen(axis: pg.AxisItem) -> QtGui.QPen:
    """``axis.textPen()`` as set, without the copy it makes (the pen is read, never
    changed)."""
    pen = axis._textPen
    return pen if pen is not None else axis.textPen()


def report_text_size(axis: pg.AxisItem, size: float) -> None:
    """Tell ``axis`` how much room its tick text needs across the axis (px), as
    ``AxisItem.generateDrawSpecs`` does; the axis resizes itself when that changed."""
    axis._updateMaxTextSize(size)


def reset_text_size(axis: pg.AxisItem, size: float) -> None:
    """:func:`report_text_size` from the room a new axis starts with (pyqtgraph's 30 px
    wide, 18 px high): it keeps a room up to 10 px larger than reported (it shrinks only
    by more), so an axis that showed wider labels before would stay wider than a new
    one showing the same labels."""
    axis.textWidth, axis.textHeight = 30, 18  # as AxisItem.__init__
    axis._updateMaxTextSize(size)


def new_axis_text_size(axis: pg.AxisItem) -> None:
    """Give ``axis`` the room for tick text a new axis starts with (pyqtgraph's 30 px
    wide, 18 px high), sized to it now: an axis re-styled for another UI scale then
    grows and shrinks from there as a new one would (it shrinks only by more than
    10 px: the larger scale's room stayed)."""
    axis.textWidth, axis.textHeight = 30, 18  # as AxisItem.__init__
    if axis.orientation in ("left", "right"):
        axis._updateWidth()
    else:
        axis._updateHeight()


def move_in_grid(
    grid: pg.GraphicsLayout, places: list[tuple[pg.GraphicsWidget, int, int, int, int]]
) -> None:
    """Put the items of ``grid`` in ``places`` (item, row, column, row span, column
    span) into those cells, kept in the scene (``GraphicsLayout.removeItem`` takes an
    item out of the scene: new plots were built for other columns); ``grid``'s own
    record of its cells follows."""
    layout = grid.layout
    for item, *_cells in places:
        layout.removeItem(item)  # (Qt's: out of the grid, not of the scene)
    grid.rows = {}
    for item, row, col, row_span, col_span in places:
        cells = [(row + i, col + j) for i in range(row_span) for j in range(col_span)]
        for r, c in cells:
            grid.rows.setdefault(r, {})[c] = item
        grid.items[item] = cells
        layout.addItem(item, row, col, row_span, col_span)


def device_transform(item: pg.GraphicsItem) -> QtGui.QTransform | None:
    """``item``'s transform to device pixels (``None`` when it is not in a view)."""
    return item.deviceTransform_()


def kept_rect(curve: pg.PlotCurveItem) -> QtCore.QRectF | None:
    """The bounding rect ``curve`` keeps, or ``None`` when it must be computed again
    (``PlotCurveItem.invalidateBounds``: new data, a new view transform)."""
    return curve._boundingRect


def keep_rect(curve: pg.PlotCurveItem, rect: QtCore.QRectF) -> None:
    """Store ``rect`` as ``curve``'s bounding rect, where ``PlotCurveItem.boundingRect``
    keeps it (cleared by ``invalidateBounds``)."""
    curve._boundingRect = rect


def line_segments(curve: pg.PlotCurveItem) -> tuple:
    """The ``drawLines`` arguments of ``curve``'s segments, as ``PlotCurveItem.paint``
    draws them (kept by pyqtgraph for its data)."""
    return curve._getLineSegments()


def stroke_segments(curve: pg.PlotCurveItem, p: QtGui.QPainter) -> None:
    """Stroke ``curve`` with its pen, aliased, as separate segments (``drawLines``, as
    ``PlotCurveItem.paint`` draws an opaque wide solid pen), whatever the pen's style:
    a dashed pen's dashes then start again at each segment."""
    p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, False)
    p.setPen(curve.opts["pen"])
    p.drawLines(*curve._getLineSegments())


def swap_curve_data(
    curve: pg.PlotCurveItem, x: np.ndarray, y: np.ndarray, connect: str, skip_finite_check: bool
) -> None:
    """Store what ``curve.setData(x=x, y=y, connect=connect, skipFiniteCheck=...)`` stores
    for two 1-D arrays of one shape (its data, its forgotten bounds and paths), without
    telling the scene, the view box and listeners (``prepareGeometryChange``,
    ``informViewBoundsChanged``, ``update``, ``sigPlotChanged``): for a line that an item
    painting several lines paints, which tells them once for all its lines."""
    if x.ndim != 1 or x.shape != y.shape:
        raise ValueError(f"X and Y arrays must be 1-D of one shape--got {x.shape}, {y.shape}")
    # (one update of the instance's dict: setting an attribute of a QObject through
    # PySide costs ~0.35 us, and a clock frame swaps ~30 lines' data; all are plain
    # instance attributes, the last two pyqtgraph's invalidateBounds)
    curve.__dict__.update(
        yData=y.view(np.ndarray),
        xData=x.view(np.ndarray),
        _boundingRect=None,
        _boundsCache=[None, None],
        path=None,
        fillPath=None,
        _fillPathList=None,
        _mouseShape=None,
        _lineSegmentsRendered=False,
    )
    opts = curve.opts
    opts["connect"] = connect
    opts["skipFiniteCheck"] = skip_finite_check


def strokes_segments(curve: pg.PlotCurveItem, pen: QtGui.QPen) -> bool:
    """Whether ``PlotCurveItem.paint`` strokes ``curve`` with ``pen`` as separate
    segments (``drawLines``) rather than as its path."""
    return bool(curve._shouldUseDrawLineSegments(pen))


def is_exporting(item: pg.GraphicsItem) -> bool:
    """Whether ``item`` is being drawn by a pyqtgraph exporter (``setExportMode``)."""
    return item._exportOpts is not False


def mark_rendered(image: pg.ImageItem) -> None:
    """Record that ``image.qimage`` is up to date (``ImageItem.render`` does this)."""
    image._renderRequired = False
    image._unrenderable = False


def display_dataset(item: pg.PlotDataItem) -> tuple[np.ndarray, np.ndarray] | None:
    """``(x, y)`` as ``item`` shows them (its display dataset; ``None``: no data)."""
    dataset = item._getDisplayDataset()
    if dataset is None or dataset.x is None or dataset.y is None:
        return None
    return dataset.x, dataset.y


def move_markers(scatter: pg.ScatterPlotItem, x: np.ndarray, y: np.ndarray) -> bool:
    """Give ``scatter``'s points the positions ``x``, ``y`` (as many as it has), their
    style and their symbols' places in the atlas kept: what ``setData`` with the same
    style arrives at, without styling every point again (``addPoints``' restyle and
    ``updateSpots``). ``False`` (nothing changed) when the number of points differs."""
    data = scatter.data
    if len(data) != len(x) or len(x) != len(y):
        return False
    data["x"] = x
    data["y"] = y
    # what addPoints does after setting the points (their style is the same)
    scatter.prepareGeometryChange()
    scatter.informViewBoundsChanged()
    scatter.bounds = [None, None]
    scatter.invalidate()
    scatter.sigPlotChanged.emit(scatter)
    return True


def auto_range_busy(view: pg.ViewBox) -> bool:
    """Whether ``view`` is inside its ``updateAutoRange`` (which then returns at once)."""
    return bool(view._updatingRange)


def auto_range_done(view: pg.ViewBox) -> None:
    """Mark ``view``'s auto-range as brought up to date (what ``updateAutoRange`` does
    last)."""
    view._autoRangeNeedsUpdate = False


def aspect_locked(view: pg.ViewBox) -> bool:
    """Whether ``view`` keeps an aspect ratio (``setAspectLocked``)."""
    return bool(view.state["aspectLocked"])


def forget_bounds(view: pg.ViewBox, item: pg.GraphicsItem) -> None:
    """Drop ``view``'s cached bounds of ``item`` (what ``itemBoundsChanged`` does first)."""
    cache = view._itemBoundsCache
    if cache.data:  # (a WeakKeyDictionary: its dictionary of references)
        cache.pop(item, None)


def replace_text_item(item: pg.TextItem, new: PlainTextItem) -> None:
    """Make ``new`` the item that holds and draws ``item``'s text (pyqtgraph's
    ``QGraphicsTextItem``, ``item.textItem``, before): the same text, font, colour and
    width, placed by ``item.updateTextPos``. The old one is deleted.

    ``new`` has the members ``TextItem`` calls on its text item (``setPlainText``,
    ``toPlainText``, ``setFont``, ``setTextWidth``, ``setDefaultTextColor``,
    ``boundingRect``): the fingerprints of those methods in :data:`PORTED_SOURCES` say
    when pyqtgraph calls others.
    """
    old = item.textItem
    new.setFont(old.font())
    new.setDefaultTextColor(old.defaultTextColor())
    new.setTextWidth(old.textWidth())
    new.setPlainText(old.toPlainText())
    new.setParentItem(item)
    old.setParentItem(None)  # (no owner left: deleted with the last reference)
    item.textItem = new
    item.updateTextPos()


def guard_dying_labels() -> None:
    """Make ``LabelItem``'s Qt virtuals harmless on a wrapper the collector has cleared.

    When the garbage collector frees a closed window, legend or title that sits in a
    reference cycle, Python clears the wrappers' attributes first; the Qt destructors
    then still call ``sizeHint`` and ``resizeEvent`` on the ``LabelItem``, which read
    ``self._sizeHint``, ``self.item`` and ``self.opts`` (an options dict in the cycle is
    emptied too: ``KeyError: 'justify'``): an error inside a Qt virtual, reported by
    whichever later code triggered the collection (a flaky test error). The wrappers answer an empty size and do nothing for such a dying label;
    live labels run pyqtgraph's own methods. Idempotent.
    """
    for name, default in (("sizeHint", lambda: QtCore.QSizeF(0, 0)), ("resizeEvent", None)):
        original = getattr(pg.LabelItem, name)
        if getattr(original, "_pe_guarded", False):
            continue

        def guarded(
            self: Any, *args: Any, _original: Any = original, _default: Any = default
        ) -> Any:
            state = vars(self)
            if (
                "item" not in state
                or "_sizeHint" not in state
                or "justify" not in state.get("opts", ())
            ):  # (a cleared wrapper, or its options dict cleared in the same cycle)
                return _default() if _default is not None else None
            return _original(self, *args)

        guarded._pe_guarded = True  # type: ignore[attr-defined]
        guarded.__doc__ = original.__doc__
        setattr(pg.LabelItem, name, guarded)


guard_dying_labels()

#: pyqtgraph widgets that answer ``boundingRect`` with Qt's own ``QGraphicsWidget``
#: method (see :func:`qt_widget_bounding_rects`)
QT_BOUNDING_RECTS: tuple[type, ...] = (pg.PlotItem, pg.LabelItem)


def qt_widget_bounding_rects() -> None:
    """Give :data:`QT_BOUNDING_RECTS` Qt's ``QGraphicsWidget.boundingRect``.

    pyqtgraph's ``GraphicsWidget.boundingRect`` is its geometry mapped from the parent,
    kept per geometry: for a widget without a transform of its own (a plot, a title, a
    legend's label) exactly Qt's ``rect()``, which Qt's own method returns. Qt asks
    every drawn item for its bounding rect, several times per paint, and a Python
    override costs a call into Python each time (about a hundred per frame of a
    several-plot view); with Qt's method set on the class, PySide calls no Python.
    Idempotent.
    """
    for cls in QT_BOUNDING_RECTS:
        setattr(cls, "boundingRect", QtWidgets.QGraphicsWidget.boundingRect)  # noqa: B010


qt_widget_bounding_rects()


def keep_identical_axis_titles() -> None:
    """Set an axis title's HTML only when it changed.

    pyqtgraph's ``AxisItem._updateLabel`` re-sets the title item's HTML (Qt parses it
    and lays the text out anew) on every pen, text pen, tick pen, label or SI prefix
    change, seven times while an axis is built with the same empty title: over 40 000
    ``setHtml`` calls, a tenth of the CPU of the window tests, nearly all of them
    identical. The replacement sets the same HTML the same way when it differs from
    what it set last on that title item, and always does the rest of pyqtgraph's
    method (the axis' size, its picture, a repaint). Idempotent.
    """
    original = pg.AxisItem._updateLabel
    if getattr(original, "_pe_keeps_titles", False):
        return

    @functools.wraps(original)
    def _updateLabel(self: pg.AxisItem) -> None:
        html = self.labelString()
        label = self.label  # (a QGraphicsTextItem: the HTML set last is kept on it)
        if getattr(label, "_pe_title_html", None) != html:
            label.setHtml(html)
            typeset_scripts(label.document())  # θ_i's i at four fifths (gui.render.scripts)
            label._pe_title_html = html
        self._adjustSize()
        self.picture = None
        self.update()

    _updateLabel._pe_keeps_titles = True  # type: ignore[attr-defined]
    pg.AxisItem._updateLabel = _updateLabel


keep_identical_axis_titles()


def typeset_label_scripts() -> None:
    """``LabelItem.setText`` (plot titles, legend entries) with the text's sub- and
    superscripts drawn at four fifths of its size rather than Qt's two thirds
    (:func:`gui.render.scripts.typeset_scripts`), the label measured again where it has
    any. Idempotent."""
    original = pg.LabelItem.setText
    if getattr(original, "_pe_typesets", False):
        return

    @functools.wraps(original)
    def setText(self: pg.LabelItem, text: str, **args: object) -> None:
        original(self, text, **args)
        if typeset_scripts(self.item.document()):
            self.updateMin()
            self.resizeEvent(None)
            self.updateGeometry()

    setText._pe_typesets = True  # type: ignore[attr-defined]
    pg.LabelItem.setText = setText


typeset_label_scripts()

#: The module whose global ``ViewBoxMenu`` ``ViewBox`` builds its menu with.
_VIEW_BOX_MODULE: Any = sys.modules[pg.ViewBox.__module__]
#: pyqtgraph's view box menu (a ``QMenu``).
ViewBoxMenu: Any = importlib.import_module(
    "pyqtgraph.graphicsItems.ViewBox.ViewBoxMenu"
).ViewBoxMenu


def _deferred_menu(view: pg.ViewBox) -> None:
    """Stands in for ``ViewBoxMenu`` where ``ViewBox`` builds its menu: none yet."""
    return None


def view_box_menu(view: pg.ViewBox) -> QtWidgets.QMenu | None:
    """``view``'s context menu (pyqtgraph's ``ViewBoxMenu``), built now if it was not
    yet, with the entries :func:`extend_view_box_menu` added to it; ``None`` when the
    view's menu is disabled."""
    if view.menu is None and view.menuEnabled():
        view.menu = ViewBoxMenu(view)
        view.updateViewLists()  # the menu's list of views to link to
        for extend in vars(view).pop("_pe_menu_extensions", ()):
            extend(view.menu)
    return view.menu


def extend_view_box_menu(view: pg.ViewBox, extend: Callable[[QtWidgets.QMenu], object]) -> None:
    """Call ``extend`` with ``view``'s context menu once it exists: now if it was built,
    else when :func:`view_box_menu` builds it (on the first right click), so that a
    plot nobody right-clicks never builds one (heatmaps add their "Square cells" so)."""
    if view.menu is not None:
        extend(view.menu)
    else:
        vars(view).setdefault("_pe_menu_extensions", []).append(extend)


def defer_view_box_menus() -> None:
    """Build each ``ViewBox``'s context menu when it is first used, not in ``__init__``.

    pyqtgraph builds a ``ViewBoxMenu`` (two forms of axis controls, about 25 widgets)
    for every view box it creates, although few are ever right-clicked: the plots are
    rebuilt on every theme or scale change, and the menus were about a tenth of a
    window's build. ``ViewBox`` builds it by the module's name ``ViewBoxMenu`` (in
    ``__init__`` and ``_applyMenuEnabled``), which now builds nothing; ``getMenu`` (the
    right click) and ``getContextMenus`` (a right click on an item in the view) build it
    with :func:`view_box_menu`. The menu is the same as before when shown. Idempotent.
    """
    if _VIEW_BOX_MODULE.ViewBoxMenu is _deferred_menu:
        return
    _VIEW_BOX_MODULE.ViewBoxMenu = _deferred_menu
    get_menu, get_context_menus = pg.ViewBox.getMenu, pg.ViewBox.getContextMenus

    @functools.wraps(get_menu)
    def getMenu(self: pg.ViewBox, ev: Any) -> QtWidgets.QMenu | None:
        return view_box_menu(self)

    @functools.wraps(get_context_menus)
    def getContextMenus(self: pg.ViewBox, event: Any) -> list:
        menu = view_box_menu(self)
        return menu.actions() if menu is not None and self.menuEnabled() else []

    pg.ViewBox.getMenu = getMenu
    pg.ViewBox.getContextMenus = getContextMenus


defer_view_box_menus()


#: pyqtgraph's ``PlotItem`` module: its Plot Options form is ``ui_template.Ui_Form``.
_PLOT_ITEM_MODULE: Any = sys.modules[pg.PlotItem.__module__]
#: pyqtgraph's own ``PlotItem.__init__`` (which builds the Plot Options menu).
PYQTGRAPH_PLOT_ITEM_INIT: Callable[..., None] = pg.PlotItem.__init__

#: The Plot Options form's signals and the ``PlotItem`` slots they drive, in the order
#: ``PlotItem.__init__`` connects them: ``(widget, signal, slot)``.
PLOT_MENU_SLOTS: tuple[tuple[str, str, str], ...] = (
    ("alphaGroup", "toggled", "updateAlpha"),
    ("alphaSlider", "valueChanged", "updateAlpha"),
    ("autoAlphaCheck", "toggled", "updateAlpha"),
    ("xGridCheck", "toggled", "updateGrid"),
    ("yGridCheck", "toggled", "updateGrid"),
    ("gridAlphaSlider", "valueChanged", "updateGrid"),
    ("fftCheck", "toggled", "updateSpectrumMode"),
    ("subtractMeanCheck", "toggled", "updateSubtractMeanMode"),
    ("logXCheck", "toggled", "updateLogMode"),
    ("logYCheck", "toggled", "updateLogMode"),
    ("derivativeCheck", "toggled", "updateDerivativeMode"),
    ("phasemapCheck", "toggled", "updatePhasemapMode"),
    ("downsampleSpin", "valueChanged", "updateDownsampling"),
    ("downsampleCheck", "toggled", "updateDownsampling"),
    ("autoDownsampleCheck", "toggled", "updateDownsampling"),
    ("subsampleRadio", "toggled", "updateDownsampling"),
    ("meanRadio", "toggled", "updateDownsampling"),
    ("clipToViewCheck", "toggled", "updateDownsampling"),
    ("avgParamList", "itemClicked", "avgParamListClicked"),
    ("averageGroup", "toggled", "avgToggled"),
    ("maxTracesCheck", "toggled", "_handle_max_traces_toggle"),
    ("forgetTracesCheck", "toggled", "updateDecimation"),
    ("maxTracesSpin", "valueChanged", "updateDecimation"),
)

#: The Plot Options menu's submenus: (title, the form's group widget), as pyqtgraph's.
PLOT_MENU_GROUPS: tuple[tuple[str, str], ...] = (
    ("Transforms", "transformGroup"),
    ("Downsample", "decimateGroup"),
    ("Average", "averageGroup"),
    ("Alpha", "alphaGroup"),
    ("Grid", "gridGroup"),
    ("Points", "pointsGroup"),
)


@dataclass
class _Default:
    """A control of the Plot Options form as ``Ui_Form.setupUi`` leaves it."""

    kind: str  # "check" (a checkable button or group box), "range" (slider, spin box), "list"
    checkable: bool = False
    checked: bool = False
    exclusive: str | None = None  # an auto-exclusive button's group (its parent's name)
    value: int = 0
    minimum: int = 0
    maximum: int = 0


_DEFAULTS: dict[str, _Default] = {}
_FORM_NAMES: set[str] = set()  # the names of all the form's widgets and layouts


def plot_menu_defaults() -> dict[str, _Default]:
    """The state of each control of pyqtgraph's Plot Options form when it is new, read
    from one form built for it (once): the checkable buttons and group boxes, the
    sliders and spin boxes, the (empty) list of parameters to average over."""
    if not _DEFAULTS:
        form = QtWidgets.QWidget()
        ui = _PLOT_ITEM_MODULE.ui_template.Ui_Form()
        ui.setupUi(form)
        _FORM_NAMES.update(vars(ui))
        for name, widget in vars(ui).items():
            if isinstance(widget, QtWidgets.QAbstractButton | QtWidgets.QGroupBox):
                exclusive = None
                if isinstance(widget, QtWidgets.QAbstractButton) and widget.autoExclusive():
                    parent = widget.parentWidget()  # (the group: its buttons)
                    exclusive = name if parent is None else parent.objectName()
                _DEFAULTS[name] = _Default(
                    "check", widget.isCheckable(), widget.isChecked(), exclusive
                )
            elif isinstance(widget, QtWidgets.QAbstractSlider | QtWidgets.QSpinBox):
                _DEFAULTS[name] = _Default(
                    "range",
                    value=widget.value(),
                    minimum=widget.minimum(),
                    maximum=widget.maximum(),
                )
            elif isinstance(widget, QtWidgets.QListWidget) and widget.count() == 0:
                _DEFAULTS[name] = _Default("list")
    return _DEFAULTS


class PlotControls:
    """Stands in for a ``PlotItem``'s Plot Options form (``plot.ctrl``) until its menu
    is built.

    ``ctrl.<name>`` is a :class:`PlotControl` holding that control's state: what
    pyqtgraph's methods read (``showGrid``, ``setLogMode``, ``addItem``, ...) is
    answered from it, and what they set is kept in it and runs the plot's slots the real
    control's signal would (only when it changes, as Qt does). Anything else asked of
    the form builds the real menu (:func:`build_plot_menu`), which takes the state over.
    """

    def __init__(self, plot: pg.PlotItem) -> None:
        self.plot_ref = weakref.ref(plot)
        self.state: dict[str, bool | int] = {}
        self.real: Any = None  # pyqtgraph's form once the menu is built

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        default = plot_menu_defaults().get(name)
        if default is None or self.real is not None:
            return getattr(self.built(), name)
        control = PlotControl(self, name, default)
        setattr(self, name, control)
        return control

    def built(self) -> Any:
        """The real form (the plot's menu built now if it was not yet)."""
        if self.real is None:
            plot = self.plot_ref()
            if plot is None:
                raise RuntimeError("the plot of these Plot Options is gone")
            build_plot_menu(plot)
        return self.real

    def emit(self, name: str, signal: str, value: bool | int) -> None:
        """Run the slots that ``name``'s ``signal`` drives, as Qt would with ``value``."""
        plot = self.plot_ref()
        if plot is None:
            return
        for widget, signal_name, slot in PLOT_MENU_SLOTS:
            if widget == name and signal_name == signal:
                method = getattr(plot, slot)
                if _takes_argument(method):
                    method(value)
                else:
                    method()


@functools.cache
def _slot_takes_argument(function: Any) -> bool:
    params = list(inspect.signature(function).parameters.values())[1:]
    return any(
        p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL) for p in params
    )


def _takes_argument(method: Any) -> bool:
    """Whether a bound slot accepts the signal's value (PySide passes it then)."""
    return _slot_takes_argument(getattr(method, "__func__", method))


class PlotControl:
    """One control of a :class:`PlotControls`: a checkable button or group box, a
    slider or spin box, or the empty parameter list. Before the menu is built it keeps
    its state and runs the plot's slots on a change, as the real control would; after,
    it hands everything to the real control."""

    def __init__(self, controls: PlotControls, name: str, default: _Default) -> None:
        self._controls = controls
        self._name = name
        self._default = default

    def _real(self) -> Any:
        return getattr(self._controls.built(), self._name)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._real(), name)

    def _get(self) -> Any:
        default = self._default
        return self._controls.state.get(
            self._name, default.checked if default.kind == "check" else default.value
        )

    # checkable buttons and group boxes
    def isChecked(self) -> bool:
        if self._controls.real is not None or self._default.kind != "check":
            return bool(self._real().isChecked())
        return bool(self._get())

    def setChecked(self, checked: bool) -> None:
        default = self._default
        if self._controls.real is not None or default.kind != "check" or type(checked) is not bool:
            self._real().setChecked(checked)
            return
        if not default.checkable or self._get() == checked:
            return
        if not checked and default.exclusive is not None:
            return  # the checked button of an auto-exclusive group stays checked
        controls = self._controls
        controls.state[self._name] = checked
        if checked and default.exclusive is not None:
            for name, other in plot_menu_defaults().items():
                if name != self._name and other.exclusive == default.exclusive:
                    sibling = getattr(controls, name)
                    if sibling._get():
                        controls.state[name] = False
                        controls.emit(name, "toggled", False)
        controls.emit(self._name, "toggled", checked)

    # sliders and spin boxes
    def value(self) -> int:
        if self._controls.real is not None or self._default.kind != "range":
            return int(self._real().value())
        return int(self._get())

    def setValue(self, value: int) -> None:
        default = self._default
        if self._controls.real is not None or default.kind != "range" or type(value) is not int:
            self._real().setValue(value)
            return
        value = min(max(value, default.minimum), default.maximum)
        if value != self._get():
            self._controls.state[self._name] = value
            self._controls.emit(self._name, "valueChanged", value)

    def minimum(self) -> int:
        if self._controls.real is not None or self._default.kind != "range":
            return int(self._real().minimum())
        return self._default.minimum

    def maximum(self) -> int:
        if self._controls.real is not None or self._default.kind != "range":
            return int(self._real().maximum())
        return self._default.maximum

    # the parameter list (empty until the menu is built)
    def count(self) -> int:
        if self._controls.real is not None or self._default.kind != "list":
            return int(self._real().count())
        return 0

    def clear(self) -> None:
        if self._controls.real is not None or self._default.kind != "list":
            self._real().clear()


def plot_menu_built(plot: pg.PlotItem) -> bool:
    """Whether ``plot``'s Plot Options menu (and form) exists."""
    return "ctrlMenu" in vars(plot)


def build_plot_menu(plot: pg.PlotItem) -> QtWidgets.QMenu | None:
    """Build ``plot``'s Plot Options menu now if it was not yet, as pyqtgraph's
    ``PlotItem.__init__`` builds it: the form (set to the state its stand-in kept), the
    menu of its six groups, the ``WidgetGroup`` of ``saveState`` and the signal
    connections. Returns the menu (``None`` after ``PlotItem.close``)."""
    state = vars(plot)
    if "ctrlMenu" in state:
        return state["ctrlMenu"]
    stand_in = state.get("ctrl")
    form = QtWidgets.QWidget()
    ctrl = _PLOT_ITEM_MODULE.ui_template.Ui_Form()
    ctrl.setupUi(form)
    if isinstance(stand_in, PlotControls):
        # the state the stand-in took (its slots already ran): set without signals (of
        # any control: a radio button checked unchecks the group's other one)
        widgets = [getattr(ctrl, name) for name in plot_menu_defaults()]
        for widget in widgets:
            widget.blockSignals(True)
        for name, value in stand_in.state.items():
            widget = getattr(ctrl, name)
            if isinstance(value, bool):
                widget.setChecked(value)
            else:
                widget.setValue(value)
        for widget in widgets:
            widget.blockSignals(False)
    translate = _PLOT_ITEM_MODULE.translate
    menu = QtWidgets.QMenu(translate("PlotItem", "Plot Options"))
    for title, group in PLOT_MENU_GROUPS:
        sub = menu.addMenu(translate("PlotItem", title))
        action = QtWidgets.QWidgetAction(plot)
        action.setDefaultWidget(getattr(ctrl, group))
        sub.addAction(action)
    state_group = _PLOT_ITEM_MODULE.WidgetGroup()
    for _title, group in PLOT_MENU_GROUPS:
        state_group.autoAdd(getattr(ctrl, group))
    state["ctrl"] = ctrl
    state["ctrlMenu"] = menu
    state["stateGroup"] = state_group
    for widget, signal, slot in PLOT_MENU_SLOTS:
        getattr(getattr(ctrl, widget), signal).connect(getattr(plot, slot))
    if isinstance(stand_in, PlotControls):
        stand_in.real = ctrl
    return menu


def _built_attribute(name: str) -> property:
    """A ``PlotItem`` attribute made by :func:`build_plot_menu` (built on first read)."""

    def get(self: pg.PlotItem) -> Any:
        build_plot_menu(self)
        return vars(self)[name]

    def set_(self: pg.PlotItem, value: Any) -> None:
        vars(self)[name] = value

    return property(get, set_, doc=f"pyqtgraph's ``PlotItem.{name}``, built on first use.")


def _plot_item_init(
    self: pg.PlotItem,
    parent: QtCore.QObject | None = None,
    name: str | None = None,
    labels: dict[str, Any] | None = None,
    title: str | None = None,
    viewBox: pg.ViewBox | None = None,
    axisItems: dict[str, pg.AxisItem] | None = None,
    enableMenu: bool = True,
    **kwargs: Any,
) -> None:
    """pyqtgraph 0.14.0's ``PlotItem.__init__`` with the Plot Options menu left to
    :func:`build_plot_menu` (``self.ctrl`` is a :class:`PlotControls` until then)."""
    m = _PLOT_ITEM_MODULE  # the names pyqtgraph's __init__ uses
    super(pg.PlotItem, self).__init__(parent)
    self.setSizePolicy(
        QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Expanding
    )
    ## Set up control buttons
    self.autoBtn = m.ButtonItem(m.icons.getGraphPixmap("auto"), 14, self)
    self.autoBtn.mode = "auto"
    self.autoBtn.clicked.connect(self.autoBtnClicked)
    self.buttonsHidden = False
    self.mouseHovering = False
    self.layout = QtWidgets.QGraphicsGridLayout()
    self.layout.setContentsMargins(1, 1, 1, 1)
    self.setLayout(self.layout)
    self.layout.setHorizontalSpacing(0)
    self.layout.setVerticalSpacing(0)
    if viewBox is None:
        viewBox = m.ViewBox(parent=self, enableMenu=enableMenu)
    self.vb = viewBox
    self.vb.sigStateChanged.connect(self.viewStateChanged)
    self.setMenuEnabled(enableMenu, None)
    if name is not None:
        self.vb.register(name)
    self.vb.sigRangeChanged.connect(self.sigRangeChanged)
    self.vb.sigXRangeChanged.connect(self.sigXRangeChanged)
    self.vb.sigYRangeChanged.connect(self.sigYRangeChanged)
    self.vb.sigRangeChangedManually.connect(self.sigRangeChangedManually)
    self.layout.addItem(self.vb, 2, 1)
    self.alpha = 1.0
    self.autoAlpha = True
    self.spectrumMode = False
    self.legend = None
    self.axes = {}
    self.setAxisItems(axisItems)
    self.titleLabel = m.LabelItem("", size="11pt", parent=self)
    self.layout.addItem(self.titleLabel, 0, 1)
    self.setTitle(None)  ## hide
    for i in range(4):
        self.layout.setRowPreferredHeight(i, 0)
        self.layout.setRowMinimumHeight(i, 0)
        self.layout.setRowSpacing(i, 0)
        self.layout.setRowStretchFactor(i, 1)
    for i in range(3):
        self.layout.setColumnPreferredWidth(i, 0)
        self.layout.setColumnMinimumWidth(i, 0)
        self.layout.setColumnSpacing(i, 0)
        self.layout.setColumnStretchFactor(i, 1)
    self.layout.setRowStretchFactor(2, 100)
    self.layout.setColumnStretchFactor(1, 100)
    self.items = []
    self.curves = []
    self.itemMeta = weakref.WeakKeyDictionary()
    self.dataItems = []
    self.paramList = {}
    self.avgCurves = {}
    self.avgPen = m.fn.mkPen((0, 200, 0))
    self.avgShadowPen = m.fn.mkPen((0, 0, 0), width=4)
    ### The context menu: built by build_plot_menu when first used
    self.ctrl = PlotControls(self)
    self.fileDialog = None
    if labels is None:
        labels = {}
    for label in list(self.axes.keys()):
        if label in kwargs:
            labels[label] = kwargs[label]
            del kwargs[label]
    for k in labels:
        if isinstance(labels[k], str):
            labels[k] = (labels[k],)
        self.setLabel(k, *labels[k])
    if title is not None:
        self.setTitle(title)
    if kwargs:
        self.plot(**kwargs)


def defer_plot_menus() -> None:
    """Build each ``PlotItem``'s Plot Options menu when it is first used, not in ``__init__``.

    pyqtgraph builds the "Plot Options" context menu (a form of about 40 widgets, six
    submenus, a ``WidgetGroup`` and 23 signal connections) for every ``PlotItem`` and
    ``ColorBarItem``: about a quarter of a plot's construction, and the app rebuilds
    its plots on every view, theme or scale change while few are ever right-clicked.
    ``PlotItem.__init__`` is replaced by :func:`_plot_item_init` (pyqtgraph's, less
    the menu: fingerprinted), which gives the plot a :class:`PlotControls` as ``ctrl``;
    ``ctrlMenu`` and ``stateGroup`` become properties that build the menu when read
    (the right click: ``getContextMenus``/``getMenu``; ``saveState``, ``close``, ...).
    What the menu shows and does, once built, is pyqtgraph's. Idempotent.
    """
    if pg.PlotItem.__init__ is _plot_item_init:
        return
    _plot_item_init.__wrapped__ = PYQTGRAPH_PLOT_ITEM_INIT  # type: ignore[attr-defined]
    pg.PlotItem.__init__ = _plot_item_init
    pg.PlotItem.ctrlMenu = _built_attribute("ctrlMenu")
    pg.PlotItem.stateGroup = _built_attribute("stateGroup")


defer_plot_menus()


# ---------------------------------------------------------------------- checking
def source_fingerprint(qualname: str) -> str:
    """SHA-256 of the installed pyqtgraph's source of ``"Class.method"`` (pyqtgraph's
    own where this module replaced it)."""
    owner, name = qualname.split(".")
    source = inspect.getsource(inspect.unwrap(getattr(_CLASSES[owner], name)))
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


def _member_problem(owner: str, name: str, member: Member, fresh: Callable[[], Any]) -> str | None:
    cls = _CLASSES[owner]
    where = f"{owner}.{name}"
    if member.kind == "method":
        value = getattr(cls, name, None)
        if value is None:
            return f"{where}: missing"
        if not callable(value):
            return f"{where}: not a method"
        params = tuple(inspect.signature(value).parameters)[1:]
        if params != member.params:
            return (
                f"{where}: parameters ({', '.join(params)}), expected ({', '.join(member.params)})"
            )
        return None
    instance = fresh()
    if not hasattr(instance, name):
        return f"{where}: missing on a new {owner}"
    missing = [key for key in member.keys if key not in getattr(instance, name)]
    if missing:
        return f"{where}: no key {', '.join(map(repr, missing))}"
    return None


def plot_menu_problems(plot: pg.PlotItem) -> list[str]:
    """What differs from what :func:`defer_plot_menus` expects of a new ``plot`` and of
    pyqtgraph's Plot Options form (controls renamed or of another kind)."""
    if plot_menu_built(plot) or not isinstance(vars(plot).get("ctrl"), PlotControls):
        return ["PlotItem.ctrlMenu: built in __init__ again; update defer_plot_menus"]
    defaults = plot_menu_defaults()
    problems = [
        f"PlotItem Plot Options: no control {widget!r} (for {slot})"
        for widget, _signal, slot in PLOT_MENU_SLOTS
        if widget not in defaults
    ]
    problems += [
        f"PlotItem Plot Options: no group {group!r}"
        for _title, group in PLOT_MENU_GROUPS
        if group not in _FORM_NAMES
    ]
    return problems


def compat_problems(
    tables: tuple[dict[str, dict[str, Member]], ...] = (PRIVATE_MEMBERS, INTERNAL_MEMBERS),
    ported: dict[str, tuple[str, str]] | None = None,
    own: dict[str, dict[str, str]] | None = None,
) -> list[str]:
    """What the installed pyqtgraph does differently from what the code expects.

    Parameters
    ----------
    tables
        Member tables to check (default: :data:`PRIVATE_MEMBERS`, :data:`INTERNAL_MEMBERS`).
    ported
        Fingerprints to check (default: :data:`PORTED_SOURCES`).
    own
        Names pyqtgraph must leave to the code (default: :data:`OWN_ATTRIBUTES`).

    Returns
    -------
    list of str
        One line per problem, naming the member (``"AxisItem._tickLevels: missing on a
        new AxisItem"``); empty when everything is as expected. Needs a
        ``QApplication`` (attributes are looked up on new instances).
    """
    instances: dict[str, Any] = {}

    def fresh_for(owner: str) -> Callable[[], Any]:
        def fresh() -> Any:
            if owner not in instances:
                instances[owner] = _FRESH[owner]()
            return instances[owner]

        return fresh

    problems = []
    for table in tables:
        for owner, members in table.items():
            for name, member in members.items():
                problem = _member_problem(owner, name, member, fresh_for(owner))
                if problem is not None:
                    problems.append(problem)
    for owner, names in (OWN_ATTRIBUTES if own is None else own).items():
        for name, used_by in names.items():
            if hasattr(fresh_for(owner)(), name):
                problems.append(f"{owner}.{name}: now used by pyqtgraph, and by {used_by}")
    view = fresh_for("ViewBox")()
    if view.menu is not None:
        problems.append("ViewBox.menu: built in __init__ again; update defer_view_box_menus")
    elif not isinstance(view_box_menu(view), ViewBoxMenu):
        problems.append("ViewBox.menu: view_box_menu built no ViewBoxMenu")
    problems += plot_menu_problems(fresh_for("PlotItem")())
    for qualname, (digest, port) in (PORTED_SOURCES if ported is None else ported).items():
        if source_fingerprint(qualname) != digest:
            problems.append(f"{qualname}: source changed since pyqtgraph 0.14.0; update {port}")
    return problems
