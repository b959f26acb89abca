"""A plot legend in a strip above the data, never over it.

pyqtgraph's ``LegendItem`` is anchored inside the view box: on a small plot (200 %, a
presentation screen) it covered the curves it names. :class:`StripLegend` is the same
item (entries, samples, ``items``) placed on the plot's top axis, which is otherwise
never shown: the axis sits in the ``PlotItem``'s grid right above the view box and as
wide as it, and takes the legend's height, so the data area shrinks by the strip's
height instead. The entries flow into as many columns as the data's width holds, so a
narrow plot gets a taller strip rather than a wider one.

Teardown safety (each of these crashed closing a window or the application): no Qt
virtual is overridden in Python (``sizeHint``, ``resizeEvent``) and the legend is not
an item of the plot's grid layout. A plot whose width holds another number of columns
(:meth:`StripLegend.columns_for`) re-flows the legend's own entries into them
(:meth:`StripLegend.reflow`: the same samples and labels, in other cells of the
legend's layout; pyqtgraph's ``setColumnCount`` does the same but places by the
layout's column count, which never shrinks): it got a new legend, every entry made
anew, on each first show and each scale change.

A dashed line's sample is as long as two of its dash periods on screen, as far as the
columns allow (:meth:`StripLegend.samples`): pyqtgraph's 20 px drew it solid at 300 %.
"""

from __future__ import annotations

import math
import re

import pyqtgraph as pg
import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets

from gui.render.scripts import typeset_scripts

SAMPLE_WIDTH = 20.0  # px of an entry's sample at least (pyqtgraph's ItemSample)
# a line's sample shows this many periods of Qt's DashLine (a 4-width dash and a
# 2-width gap) of the legend's widest line on screen: at 300 % the lines are 6 px wide,
# a dash 24 px, and pyqtgraph's 20 px sample drew a dashed series as a solid stub
DASH_PERIODS = 2.0
DASH_PERIOD = 6.0  # pen widths
# a dashed line's sample is drawn with the line's own dashes down to this length (pen
# widths): centred, a short piece, a gap, a dash, a gap and a short piece read as
# dashed; a shorter one (kept to a solid line's sample: the legend keeps its columns)
# draws that pattern shrunk to its length
DASH_LEAST = 10.0
MAX_SHARE = 0.3  # of the plot's height under its title the strip may always take
# sizes the strip's text may take, largest first: never below 80 % (read from the back
# row); a plot whose legend needs more room gets it from the grid (a taller row)
SCALES = (1.0, 0.9, 0.8)
_HINT = QtCore.Qt.SizeHint
_WORD_WRAP = QtGui.QTextOption.WrapMode.WordWrap
_NUMBER = re.compile(r"[-−]?\d+")  # a (signed) run of digits in an entry's text


def open_strip(plot: pg.PlotItem) -> pg.AxisItem:
    """Show ``plot``'s top axis as an empty strip between its title and its data, 0 px
    high, and return it: its items (a legend, an arrows panel's caption) are its
    children and set its height (``setHeight``); the data's height shrinks by as much."""
    top = plot.getAxis("top")
    # the axis is only the strip's room: no line, no ticks, no values
    top.setStyle(showValues=False, tickLength=0)
    top.setPen(QtGui.QPen(QtCore.Qt.PenStyle.NoPen))
    top.setHeight(0)
    # a plot too small for its grid's minimum squeezes the strip: its items are cut
    # there rather than drawn over the data
    top.setFlag(top.GraphicsItemFlag.ItemClipsChildrenToShape, True)
    plot.showAxis("top")
    return top


def close_strip(plot: pg.PlotItem) -> None:
    """Hide the strip :func:`open_strip` showed (its items are taken out by their
    owners)."""
    plot.hideAxis("top")
    top = plot.getAxis("top")
    top.setFlag(top.GraphicsItemFlag.ItemClipsChildrenToShape, False)


class StripLegend(pg.LegendItem):
    """``LegendItem`` on its plot's top axis (the strip above the view box)."""

    _width = 0.0  # the strip's width (the data's), px
    #: the samples' size relative to :data:`SAMPLE_WIDTH`: a focused plot's legend text
    #: grows (up to twice its size) and its samples with it (:meth:`set_sample_zoom`)
    sample_zoom = 1.0
    columnCount: int  # (pyqtgraph's: the columns of entries, see reflow)
    rowCount: int
    #: through a slider drag, the width (px, one line) held for each entry whose text
    #: follows the slider: room for the widest value of the dragged parameter's range
    #: (:meth:`reserve`); empty otherwise
    reserved: list[float]

    def __init__(self, **kwargs: object) -> None:
        super().__init__(offset=None, frame=False, **kwargs)
        self.reserved = []
        self._heights: dict[tuple, float] = {}  # strip_height's answers
        self.heights_measured = 0  # strip heights measured, not found again (tests)
        self.reflows = 0  # entries moved into another number of columns (tests)
        # drawn with the plot: it scales and moves with it (also in exports)
        self.setFlag(self.GraphicsItemFlag.ItemIgnoresTransformations, False)

    # ------------------------------------------------------------------ placement
    def attach(self, plot: pg.PlotItem) -> None:
        """Show the legend above ``plot``'s data (``plot.legend``: items added to the
        plot with a name get an entry)."""
        self.setParentItem(open_strip(plot))
        plot.legend = self

    def detach(self, plot: pg.PlotItem) -> None:
        """Take the legend out of ``plot`` (scene and ``plot.legend``); the strip's
        axis is hidden again."""
        if self.scene() is not None:
            self.scene().removeItem(self)
        if plot.legend is self:
            plot.legend = None
        close_strip(plot)

    def setParentItem(self, parent: QtWidgets.QGraphicsItem | None) -> None:
        # no anchoring (pyqtgraph's anchors it to a corner of the view box)
        QtWidgets.QGraphicsWidget.setParentItem(self, parent)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ size
    def updateSize(self) -> None:
        """The legend as wide as the strip and as high as its entries; the strip's
        axis takes that height (pyqtgraph's sizes the legend to its entries alone)."""
        if not shiboken6.isValid(self.layout):
            return
        height = self.layout.effectiveSizeHint(_HINT.PreferredSize).height() if self.items else 0
        width = max(self._width, self.layout.effectiveSizeHint(_HINT.MinimumSize).width())
        self.setGeometry(0, 0, width, height)
        axis = self.parentItem()
        room = int(math.ceil(height * self.scale()))
        if isinstance(axis, pg.AxisItem) and axis.maximumHeight() != room:
            axis.setHeight(room)

    def sample_width(self) -> float:
        """An entry's sample width at least (px, unscaled): :data:`SAMPLE_WIDTH` at the
        :attr:`sample_zoom`."""
        return SAMPLE_WIDTH * self.sample_zoom

    def set_sample_zoom(self, zoom: float) -> bool:
        """Draw the samples ``zoom`` times their size (the legend's text zoom: a 20 px
        stub beside the doubled text of a focused plot's legend read as a dash);
        whether it changed (then plan and set the strip again)."""
        if zoom == self.sample_zoom:
            return False
        self.sample_zoom = zoom
        for item, _label in self.items:
            if isinstance(item, LineSample):
                item.set_zoom(zoom)
        self.updateSize()
        return True

    def set_strip(self, width: float, scale: float = 1.0) -> None:
        """Make the strip ``width`` px wide (the data's width), its entries drawn at
        ``scale``."""
        if self.scale() != scale:
            self.setScale(scale)
        self._width = max(0.0, width) / scale
        samples = self.samples(scale, self._width, int(self.columnCount))
        for (item, _label), sample in zip(self.items, samples, strict=True):
            if isinstance(item, LineSample):
                item.set_length(sample)
        # one column: margins, sample, the gap to the label, the label
        room = self._width - self._margins() - self.one_column_sample(scale) - self._gap()
        self.wrap_labels(room)
        self._hold_columns()
        self.updateSize()

    # ------------------------------------------------------------------ drag room
    def reserve(self, digits: int, entries: list[int]) -> None:
        """Through a slider drag, hold room in ``entries`` (indices) for their text with
        every number (sign included) at least ``digits`` characters wide (the widest
        value of the dragged parameter's range): a name that follows the slider ("query at
        m=9" → "m=10", "m − n = 5" → "18") then keeps its column, its row and the
        strip's height (:meth:`rename`), where each new digit re-planned the strip and
        re-laid out the plot. Plan the strip again afterwards (:meth:`plan`,
        :meth:`set_strip`): its columns count the held room."""
        held = list(self.reserved) + [0.0] * (len(self.items) - len(self.reserved))
        for i in entries:
            if 0 <= i < len(self.items):
                label = self.items[i][1]
                wide = _NUMBER.sub(lambda m: "0" * max(len(m.group()), digits), label.text)
                held[i] = max(held[i], _text_width(label, wide))
        self.reserved = held

    def release(self) -> bool:
        """End :meth:`reserve`: each entry takes its own text's room again (plan the
        strip anew); whether any room was held."""
        if not self.reserved:
            return False
        self.reserved = []
        if shiboken6.isValid(self.layout):
            for _sample, label in self.items:
                if label.minimumWidth() != label.itemRect().width():
                    label.setText(label.text)  # its size as its text's (see rename)
            self._hold_columns()
        return True

    def _hold_columns(self) -> None:
        """Each label column at least as wide as the room held for its entries."""
        layout = self.layout
        columns = max(1, int(self.columnCount))
        held_room = self._held(self._width)
        for c in range(columns):
            held = max((w for i, w in enumerate(held_room) if i % columns == c), default=0.0)
            if layout.columnMinimumWidth(2 * c + 1) != held:  # (setting invalidates)
                layout.setColumnMinimumWidth(2 * c + 1, held)

    def _held_room(self, label: pg.LabelItem) -> float:
        """The one-line width held for ``label`` (0: none)."""
        held_room = self._held(self._width)
        for i, (_sample, other) in enumerate(self.items):
            if other is label:
                return held_room[i] if i < len(held_room) else 0.0
        return 0.0

    def _held(self, width: float) -> list[float]:
        """The room :meth:`reserve` holds for each entry in a strip ``width`` px wide
        (unscaled; 0: not known yet): never more than one column's label room, so that
        a held entry still fits the strip (at 200 % a RoPE legend held room for
        "query at m=0000000" and was 533 px wide in a 325 px strip)."""
        room = width - self._margins() - self.sample_width() - self._gap()
        if width <= 0 or room <= 0:
            return list(self.reserved)
        return [min(w, room) for w in self.reserved]

    def dash_samples(self, scale: float = 1.0) -> tuple[float, float]:
        """``(full, least)``: the widths (px, unscaled) of a dashed line's sample in the
        legend drawn at ``scale``; both :data:`SAMPLE_WIDTH` without a dashed line.

        Full: :data:`DASH_PERIODS` dash periods of its widest dashed line on screen
        (the pen is cosmetic: its dashes keep their pixels when the legend's text is
        drawn smaller), growing with the UI scale as the lines do: 24 px at 100 %, 72 px
        at 300 % (pyqtgraph's 20 px drew a 6 px wide dashed line as a solid stub).
        Least: :data:`DASH_LEAST` pen widths (a piece, a gap, a dash, a gap, a piece);
        a sample the columns keep shorter draws that pattern shrunk to fit
        (:meth:`LineSample.paint`)."""
        dashed = 0.0
        for sample, _label in self.items:
            if isinstance(sample, LineSample) and sample.dashed():
                dashed = max(dashed, sample.line_width())
        per_px = dashed / max(scale, 1e-6)
        base = self.sample_width()
        full = max(base, DASH_PERIODS * DASH_PERIOD * per_px)
        return full, min(full, max(base, DASH_LEAST * per_px))

    def _dashed(self) -> list[bool]:
        """Whether each entry's sample is a dashed line's."""
        return [isinstance(s, LineSample) and s.dashed() for s, _label in self.items]

    def samples(self, scale: float, width: float = 0.0, columns: int = 0) -> list[float]:
        """Each entry's sample width (px, unscaled) in a strip ``width`` px wide
        (unscaled; 0: the strip's own) drawn at ``scale``, its entries in ``columns``
        columns (0: as many as fit, :meth:`columns_for`).

        A sample is :data:`SAMPLE_WIDTH` wide, and every sample of a column that holds
        a dashed line as long as the columns (counted with solid lines' samples)
        leave room for: :meth:`dash_samples`' full length at most, down to a solid
        line's (its dashes then drawn shrunk). One column
        whose widest text would wrap beside that gets a shorter sample when its text
        then fits on one line (ALiBi's "all 8 heads (m = 0.00391 … 0.5)" at 200 % on
        a 1280 x 720 stage): a sample never wraps an entry's text."""
        dashed = self._dashed()
        full, least = self.dash_samples(scale)
        base = self.sample_width()
        if not any(dashed) or full <= base:
            return [base] * len(self.items)
        width = width or self._width
        columns = max(1, columns or (self.columns_for(width) if width > 0 else 1))
        lined = [any(dashed[j::columns]) for j in range(columns)]  # columns with one
        if width <= 0:
            length = full
        else:
            texts = self._texts(True, width)
            rest = sum(max(texts[j::columns]) for j in range(columns))
            rest += base * lined.count(False) + self._margins() - self._gap()
            length = (width - rest) / lined.count(True)
            if length >= least:
                length = min(full, length)
            elif length < base:
                # one column whose text wraps beside any sample (more columns leave a
                # solid line's sample at least: they were counted with it)
                length = least if columns == 1 else base
        return [length if lined[i % columns] else base for i in range(len(dashed))]

    def one_column_sample(self, scale: float, width: float = 0.0) -> float:
        """The samples' width (px, unscaled) in a one-column strip ``width`` px wide (0:
        the strip's own), drawn at ``scale``."""
        return max(self.samples(scale, width, 1), default=self.sample_width())

    def _gap(self) -> float:
        """The layout's horizontal spacing: between a sample and its label, and between
        one entry's label and the next entry's sample."""
        return max(0.0, self.layout.horizontalSpacing())

    def _margins(self) -> float:
        """The layout's left and right contents margins together (the style's, 9 px
        each with Fusion: a guessed 6 px left the ALiBi distance legend 7 px wider than
        its strip, cut at its right edge)."""
        left, _top, right, _bottom = self.layout.getContentsMargins()
        return left + right

    def wrap_labels(self, room: float) -> None:
        """Wrap the entries' text that is longer than ``room`` px (one column on a
        narrow plot: "longrope short_factor (L ≤ 2048)" ran into the next plot)."""
        changed = False
        for _sample, label in self.items:
            item = label.item
            wrap = room if _natural_width(label) > room and room > 24 else -1.0
            if item.textWidth() != wrap:
                document = item.document()
                option = document.defaultTextOption()
                if option.wrapMode() != _WORD_WRAP:  # never inside a word
                    option.setWrapMode(_WORD_WRAP)
                    document.setDefaultTextOption(option)
                item.setTextWidth(wrap)
                label.updateMin()
                changed = True
        if changed:
            self.layout.invalidate()

    def strip_height(self, width: float, scale: float = 1.0, *, held: bool = True) -> float:
        """Height (px) of the strip ``width`` px wide with its entries at ``scale``: in
        as many columns as fit, one line each; in one column an entry wider than the
        strip wraps (its wrapped height). Depends on the texts and the width alone,
        not on how the legend is laid out now. ``held``: the entries as wide as the
        room a drag holds for them (:meth:`reserve`), else as their text.

        Kept for what it depends on: the view's grid asks for each legend's height on
        every frame (:meth:`PanelPlot.legend_room`), mostly of the same texts."""
        if not self.items:
            return 0.0
        layout = self.layout
        key = (
            width,
            scale,
            tuple(label.text for _sample, label in self.items),
            tuple(self.reserved) if held else (),
            self.opts.get("labelTextSize"),
            self.items[0][1].item.font().key(),
            self.dash_samples(scale),
            self.sample_zoom,
            layout.horizontalSpacing(),
            layout.verticalSpacing(),
            layout.getContentsMargins(),
        )
        known = self._heights.get(key)
        if known is None:
            if len(self._heights) >= 16:  # (a few widths and scales at a time)
                self._heights.clear()
            known = self._heights[key] = self._strip_height(width, scale, held)
            self.heights_measured += 1
        return known

    def _strip_height(self, width: float, scale: float, held: bool) -> float:
        """:meth:`strip_height`, measured."""
        columns = self.columns_for(width / scale, held=held)
        spacing = max(0.0, self.layout.verticalSpacing())
        _left, top, _right, bottom = self.layout.getContentsMargins()
        if columns > 1:
            rows = math.ceil(len(self.items) / columns)
            return (rows * self.one_line_height() + top + bottom) * scale
        room = width / scale - self._margins() - self.one_column_sample(scale, width / scale)
        room -= self._gap()
        total = sum(_wrapped_height(label, room) + spacing for _sample, label in self.items)
        return (total + top + bottom) * scale

    def plan(
        self, width: float, plot_height: float, room: float = 0.0, shared: float = 0.0
    ) -> tuple[int, float]:
        """``(columns, scale)`` for a strip ``width`` px wide in a plot ``plot_height``
        px high (under its title): the largest of :data:`SCALES` at which the entries,
        in as many columns as fit, take at most ``room`` px or :data:`MAX_SHARE` of the
        plot's height, whichever is more, and no more than the data keeps of the
        ``shared`` px that the strip and the data share (the smallest scale when none
        does: the text never goes below 80 %). ``room`` is what the plot's grid added
        to it for its legend (see ``PanelPlot.legend_room``): a plot given that room
        keeps its text at full size unless the legend would be taller than its data.
        """
        cap = max(MAX_SHARE * plot_height, room)
        for scale in SCALES:
            height = self.strip_height(width, scale)
            if plot_height <= 0 or (
                height <= cap + 0.5
                and (shared <= 0 or height <= shared - height)
                and self.narrowest(scale, width / scale) * scale <= width + 0.5  # no word
                # wider than the strip
            ):
                return self.columns_for(width / scale), scale
        return self.columns_for(width / SCALES[-1]), SCALES[-1]

    def narrowest(self, scale: float = 1.0, width: float = 0.0) -> float:
        """The narrowest the strip drawn at ``scale`` can be (px, unscaled): a sample (as
        in a one-column strip ``width`` px wide: :meth:`samples`) and the longest word
        of any entry (entries wrap at spaces only)."""
        widest = max((_wrapped(label, 0.0)[0] for _sample, label in self.items), default=0.0)
        if not self.items:
            return 0.0
        return self._margins() + self.one_column_sample(scale, width) + self._gap() + widest

    def one_line_height(self) -> float:
        """Height (px, unscaled) of a strip whose entries each stay on one line and fill
        ``columns_for(width)`` columns is ``rows × one_line_height()``: the tallest
        entry's text on one line, with the layout's spacing (wrapping, which depends on
        the plot's width and history, left out)."""
        heights = [_one_line_size(label)[1] for _sample, label in self.items]
        return max(heights, default=0.0) + max(0.0, self.layout.verticalSpacing())

    def entry_widths(
        self, *, held: bool = True, width: float = 0.0, scale: float | None = None
    ) -> list[float]:
        """Width of each entry (sample, its label on one line, the gaps before the label
        and after it) in px, unscaled, the legend drawn at ``scale`` (``None``: its
        scale now) in as many columns as fit; with ``held``, at least the room a drag
        holds for it in a strip ``width`` px wide (0: the strip's own width)."""
        samples = self.samples(self.scale() if scale is None else scale, width)
        texts = self._texts(held, width)
        return [s + t for s, t in zip(samples, texts, strict=True)]

    def _texts(self, held: bool, width: float) -> list[float]:
        """Each entry's label on one line (or the room held for it, ``held``, in a strip
        ``width`` px wide) and the gaps before and after it (px, unscaled)."""
        gap = self._gap()
        held_room = self._held(width or self._width) if held else []
        return [
            max(_natural_width(label), held_room[i] if i < len(held_room) else 0.0) + 2 * gap
            for i, (_s, label) in enumerate(self.items)
        ]

    def columns_for(self, width: float, *, held: bool = True) -> int:
        """The most columns of entries (filled row by row; a column as wide as its
        widest sample and its widest label) that ``width`` px (unscaled) hold with the
        layout's margins (the last entry has no gap after it), every sample as wide as
        a solid line's (:meth:`samples` lengthens a dashed line's into what the
        columns leave); at least one. ``held``: as :meth:`strip_height`.

        A dashed line's sample counted at :data:`DASH_LEAST` pen widths cost 8 legends
        a column at 200–300 % (RoPE's score and decay, DeBERTa's terms, Sinusoidal's
        sum, Compare's distance): their strips took another row."""
        samples = [self.sample_width()] * len(self.items)
        texts = self._texts(held, width)
        return _columns(samples, texts, width - (self._margins() - self._gap()))

    def rename(self, label: pg.LabelItem, text: str) -> bool:
        """Show ``text`` in the entry ``label``; returns whether the entry changed size
        (then the strip must be planned again: :meth:`plan`, :meth:`set_strip`).

        ``LabelItem.setText`` re-lays out the legend on every call. A name that follows
        a slider (RoPE's "query at m=…", "m − n = …") mostly keeps its size: only the
        text of the entry is replaced then, and the layout, its columns and the
        entry's one-line size stay. A wrapped entry (its lines may change), or one
        whose box changed, is set as ``setText`` does.
        """
        item = label.item
        if label.text == text:
            return False
        if item.textWidth() >= 0 or not shiboken6.isValid(self.layout):
            label.setText(text)
            return True
        before = label.itemRect().size()
        cached = getattr(label, "_one_line_cache", None)
        old_key = (label.text, repr(label.opts), item.font().key())
        label.text = text
        item.setHtml(label_html(label, text))
        typeset_scripts(item.document())  # (as LabelItem.setText: gui.render.pg_compat)
        after = label.itemRect().size()
        if after != before:
            if after.height() == before.height() and after.width() <= self._held_room(label):
                # the room held through a drag takes it (see reserve): the column, row
                # and strip stay; the label's own size follows when the hold ends
                item.update()
                return False
            label.setText(text)  # its minimum size, position and the layout
            return True
        if cached is not None and cached[0] == old_key:  # the same box: the same line
            label._one_line_cache = ((text, *old_key[1:]), cached[1], cached[2])
        item.update()  # all of it (a device-cached text redraws its changed area only)
        return False

    def addItem(self, item: object, name: str) -> None:
        """An entry ``name`` for ``item``: a line's sample as long as :meth:`samples` says
        (set with the strip: :meth:`set_strip`), or ``item`` itself when it is a sample
        (a band's swatch)."""
        if not isinstance(item, pg.ItemSample):
            item = LineSample(item)
            item.set_zoom(self.sample_zoom)
        super().addItem(item, name)
        self.updateSize()

    # ------------------------------------------------------------------ columns
    def _addItemToLayout(self, sample: QtWidgets.QGraphicsLayoutItem, label: pg.LabelItem) -> None:
        """Entry ``n`` (the last one added) in row ``n // columns``, column ``n %
        columns``: by its index, not by the layout's column count as pyqtgraph's (a
        grid layout keeps its columns after a :meth:`reflow` to fewer)."""
        self._place(len(self.items) - 1, sample, label)

    def setColumnCount(self, columnCount: int) -> None:
        """pyqtgraph's, as :meth:`reflow`."""
        if self.reflow(columnCount):
            self.updateSize()

    def _place(
        self, index: int, sample: QtWidgets.QGraphicsLayoutItem, label: pg.LabelItem
    ) -> None:
        columns = max(1, int(self.columnCount))
        row, column = divmod(index, columns)
        self.layout.addItem(sample, row, 2 * column, alignment=QtCore.Qt.AlignmentFlag.AlignVCenter)
        self.layout.addItem(label, row, 2 * column + 1)
        self.rowCount = max(self.rowCount, row + 1)

    def reflow(self, columns: int) -> bool:
        """Flow the entries into ``columns`` columns (filled row by row), the same
        samples and labels moved to other cells of the layout: their text, size,
        opacity (a highlighted series) and the room held for them (:attr:`reserved`)
        stay. Whether the legend had another number of columns. Set the strip
        afterwards (:meth:`set_strip`): its column widths follow the columns."""
        columns = max(1, int(columns))
        if columns == self.columnCount or not shiboken6.isValid(self.layout):
            return False
        layout = self.layout
        for sample, label in self.items:
            layout.removeItem(sample)
            layout.removeItem(label)
        # the columns the entries leave keep no width held for them (_hold_columns)
        for c in range(layout.columnCount()):
            if layout.columnMinimumWidth(c) != 0:
                layout.setColumnMinimumWidth(c, 0)
        self.columnCount = columns
        self.rowCount = 1
        for i, (sample, label) in enumerate(self.items):
            self._place(i, sample, label)
        layout.invalidate()
        self.reflows += 1
        return True


class LineSample(pg.ItemSample):
    """A series' legend sample whose line is :attr:`length` px long (pyqtgraph's is
    20 px at any UI scale), a dashed line's dashes centred in it; a marker series'
    symbol sits in its middle."""

    length = SAMPLE_WIDTH
    zoom = 1.0  # the sample's height and symbol relative to pyqtgraph's (20 px)

    def set_zoom(self, zoom: float) -> None:
        """Draw the sample ``zoom`` times as high, its symbol as large (a focused plot's
        legend; the length is set with the strip)."""
        if zoom != self.zoom:
            self.prepareGeometryChange()
            self.zoom = zoom
            self.setFixedHeight(SAMPLE_WIDTH * zoom)  # (pyqtgraph's: 20 px)
            self.update()

    def line_width(self) -> float:
        """Width (px) of the line this sample draws (0: none, a marker series)."""
        opts = self.item.opts
        pen = opts.get("pen")
        if pen is None or opts.get("symbol") is not None:
            return 0.0
        if not isinstance(pen, QtGui.QPen):
            pen = pg.mkPen(pen)
        if pen.style() == QtCore.Qt.PenStyle.NoPen:
            return 0.0
        return max(1.0, pen.widthF())

    def dashed(self) -> bool:
        """Whether the series is drawn dashed (settled: a drag draws it solid, see
        ``PanelPlot.set_quality``, and its sample keeps its length)."""
        pen = getattr(self.item, "_full_pen", None) or self.item.opts.get("pen")
        return isinstance(pen, QtGui.QPen) and pen.style() not in (
            QtCore.Qt.PenStyle.SolidLine,
            QtCore.Qt.PenStyle.NoPen,
        )

    def set_length(self, length: float) -> None:
        """Draw the line ``length`` px long (the entry's label moves with it)."""
        if length != self.length:
            self.prepareGeometryChange()
            self.length = length
            self.setFixedWidth(length)
            self.update()

    def boundingRect(self) -> QtCore.QRectF:
        return QtCore.QRectF(0, 0, self.length, SAMPLE_WIDTH * self.zoom)

    def paint(self, p: QtGui.QPainter, *args: object) -> None:
        item = self.item
        if not self.line_width() or not item.isVisible():
            # pyqtgraph's (a symbol, the "hidden" eye) in the middle of the sample
            p.translate((self.length - SAMPLE_WIDTH * self.zoom) / 2, 0)
            p.scale(self.zoom, self.zoom)
            super().paint(p, *args)
            return
        if item.opts.get("antialias"):
            p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        pen = QtGui.QPen(pg.mkPen(item.opts["pen"]))
        pattern = pen.dashPattern() if pen.style() != QtCore.Qt.PenStyle.SolidLine else []
        if pattern:  # centred: a dash in the middle, the ends alike
            # the length in pen widths on the device (a cosmetic pen's dashes are in
            # device pixels; the legend may be drawn scaled)
            on_device = self.length * abs(p.transform().m11()) if pen.isCosmetic() else self.length
            widths = on_device / max(pen.widthF(), 1.0)
            # flat ends: a square cap adds half a pen width to each dash (and closed
            # the gaps of a shrunk pattern)
            pen.setCapStyle(QtCore.Qt.PenCapStyle.FlatCap)
            if widths < DASH_LEAST and len(pattern) >= 2:
                # shorter than a piece, gap, dash, gap and piece of the line's own
                # dashes (a sample kept to a solid line's 20 px so that the legend
                # keeps its columns): two dashes and the gap between them, the line's
                # pattern shrunk to fill it (its pieces at the ends shrunk with it read
                # as dots: "·-·", a dash-dot line)
                pattern = [v * widths / (2 * pattern[0] + pattern[1]) for v in pattern]
                pen.setDashPattern(pattern)
                pen.setDashOffset(0.0)
            else:
                pen.setDashOffset((pattern[0] / 2 - widths / 2) % sum(pattern))
        p.setPen(pen)
        y = 11 * self.zoom
        p.drawLine(QtCore.QPointF(0, y), QtCore.QPointF(self.length, y))


def _columns(samples: list[float], texts: list[float], room: float) -> int:
    """The most columns (at least one) of entries with ``samples`` and ``texts`` that
    wide (px), filled row by row, each column as wide as its widest sample and its
    widest text, that ``room`` px hold."""
    for columns in range(len(samples), 1, -1):
        total = sum(max(samples[j::columns]) + max(texts[j::columns]) for j in range(columns))
        if total <= room:
            return columns
    return 1


def label_html(label: pg.LabelItem, text: str) -> str:
    """The rich text ``LabelItem.setText(text)`` gives ``label``'s text item in its
    current style (``label.opts``: color, family, size, bold, italic); a test compares
    the two."""
    opts = label.opts
    color = opts["color"]
    if color is None:
        color = pg.getConfigOption("foreground")
    style = ["color: " + pg.mkColor(color).name(QtGui.QColor.NameFormat.HexArgb)]
    if "family" in opts:
        style.append("font-family: " + opts["family"])
    if "size" in opts:
        style.append("font-size: " + opts["size"])
    if opts.get("bold") in (True, False):
        style.append("font-weight: " + ("bold" if opts["bold"] else "normal"))
    if opts.get("italic") in (True, False):
        style.append("font-style: " + ("italic" if opts["italic"] else "normal"))
    joined = "; ".join(style)
    return f"<span style='{joined}'>{text}</span>"


def _drop_copy(document: QtGui.QTextDocument) -> None:
    """Let a document copied (``clone``) for a measure go: PySide keeps each copy alive
    with the document it was copied from (that wrapper holds the copy's), so a legend
    label that lived through theme toggles or renames (a drag's) kept one per new text
    or style (Compare's labels: 21 a dark/light toggle once the plots were re-styled
    rather than rebuilt). (``shiboken6.delete`` on the copy crashed.)"""
    document.setParent(None)  # (then Python's alone: freed with its last reference)


def _text_width(label: pg.LabelItem, text: str) -> float:
    """Width (px) of ``text`` on one line in ``label``'s style and font."""
    document = label.item.document().clone()
    document.setHtml(label_html(label, text))
    typeset_scripts(document)
    document.setTextWidth(-1)
    width = float(document.idealWidth() + 2 * document.documentMargin())
    _drop_copy(document)
    return width


def _natural_width(label: pg.LabelItem) -> float:
    """Width of ``label``'s text on one line (px), wrapped or not."""
    if label.item.textWidth() < 0:
        return float(label.itemRect().width())
    return _one_line_size(label)[0]


def _one_line_size(label: pg.LabelItem) -> tuple[float, float]:
    """Width (ideal width and margins) and height (px) of ``label``'s text laid out on
    one line (no wrapping), from a copy of its document.

    Kept on the label for its text, style and font: the view's grid asks for every
    entry's one-line height on each frame (:meth:`StripLegend.one_line_height`), and
    cloning a document per entry cost about 0.1 ms each time.
    """
    item = label.item
    key = (label.text, repr(label.opts), item.font().key())
    cached: tuple[tuple[object, ...], float, float] | None = getattr(label, "_one_line_cache", None)
    if cached is not None and cached[0] == key:
        return cached[1], cached[2]
    document = item.document().clone()
    document.setTextWidth(-1)
    width = float(document.idealWidth() + 2 * document.documentMargin())
    height = float(document.size().height())
    _drop_copy(document)
    label._one_line_cache = (key, width, height)
    return width, height


def _wrapped(label: pg.LabelItem, room: float) -> tuple[float, float]:
    """Width (the widest line) and height (px) of ``label``'s text wrapped at spaces
    within ``room`` px (0: every word on its own line), from a copy of its document;
    the last one asked is kept on the label for its text, style, font and room (the
    grid asks on every frame)."""
    item = label.item
    key = (label.text, repr(label.opts), item.font().key(), room)
    slot = "_words_cache" if room <= 0 else "_wrap_cache"  # the longest word; a strip
    cached: tuple[tuple[object, ...], float, float] | None = getattr(label, slot, None)
    if cached is not None and cached[0] == key:
        return cached[1], cached[2]
    document = item.document().clone()
    option = document.defaultTextOption()
    option.setWrapMode(_WORD_WRAP)
    document.setDefaultTextOption(option)
    document.setTextWidth(room)
    width = float(document.idealWidth() + 2 * document.documentMargin())
    height = float(document.size().height())
    _drop_copy(document)
    setattr(label, slot, (key, width, height))
    return width, height


def _wrapped_height(label: pg.LabelItem, room: float) -> float:
    """Height (px) of ``label``'s text in a one-column strip whose text has ``room`` px:
    one line when it fits (or the room is too small to wrap in), else wrapped."""
    width, height = _one_line_size(label)
    if width <= room or room <= 24:
        return height
    return _wrapped(label, room)[1]
