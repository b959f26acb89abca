"""A plot legend in a strip above the data, never over it.

pyqtgraph's ``LegendItem`` is anchored inside the view box: on a small plot (200 %, a
presentation screen) it covered the curves it names. :class:`StripLegend` is the same
item (entries, samples, ``items``) placed on the plot's top axis, which is otherwise
never shown: the axis sits in the ``PlotItem``'s grid right above the view box and as
wide as it, and takes the legend's height, so the data area shrinks by the strip's
height instead. The entries flow into as many columns as the data's width holds, so a
narrow plot gets a taller strip rather than a wider one; an entry too long for a
column wraps onto two lines in it, or stands across the columns from where it comes
to the row's end, where that saves the strip a line (:meth:`StripLegend.flow`): one long entry no longer
sends every entry into one column as tall as the data.

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
from collections.abc import Sequence
from dataclasses import dataclass, field

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
# lines an entry may wrap onto inside a column of a legend of several columns (a long
# entry, "longrope long_factor (L > 2048)", wrapped there instead of sending all six of
# RoPE's frequency entries into one column as tall as the data)
MAX_LINES = 2
_HINT = QtCore.Qt.SizeHint
_WORD_WRAP = QtGui.QTextOption.WrapMode.WordWrap
_AS_HIGH = QtWidgets.QSizePolicy.Policy.Maximum  # (never taller than its text)
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


@dataclass(frozen=True)
class Flow:
    """How a legend's entries flow into a strip of a given width
    (:meth:`StripLegend.flow`)."""

    columns: int
    #: the entries (indices) across the columns, from where each comes in the entries'
    #: order to its row's end (:func:`cells`)
    spans: tuple[int, ...]
    #: per column, the width (px, unscaled) its longer labels wrap at; ``inf``: none
    caps: tuple[float, ...]
    lines: int  # lines of text down the strip (a row as many as its tallest entry's)
    wrapped: int  # entries wrapped
    #: the rows' heights (px, unscaled) with the layout's spacing, several columns; 0
    #: for one column (its height depends on its samples' length: strip_height)
    height: float


class StripLegend(pg.LegendItem):
    """``LegendItem`` on its plot's top axis (the strip above the view box)."""

    _width = 0.0  # the strip's width (the data's), px
    #: the samples' size relative to :data:`SAMPLE_WIDTH`: a focused plot's legend text
    #: grows (up to twice its size) and its samples with it (:meth:`set_sample_zoom`)
    sample_zoom = 1.0
    columnCount: int  # (pyqtgraph's: the columns of entries, see reflow)
    rowCount: int
    #: the entries (indices) that span the columns to their row's end (see reflow)
    spans: tuple[int, ...] = ()
    #: through a slider drag, the width (px, one line) held for each entry whose text
    #: follows the slider: room for the widest value of the dragged parameter's range
    #: (:meth:`reserve`); empty otherwise
    reserved: list[float]

    def __init__(self, **kwargs: object) -> None:
        super().__init__(offset=None, frame=False, **kwargs)
        self.reserved = []
        self._heights: dict[tuple, float] = {}  # strip_height's answers
        self._flows: dict[tuple, Flow] = {}  # flow's answers
        #: flow's answers that read the entries' sizes alone, kept for those sizes
        self._sized_flows: dict[tuple, Flow] = {}
        self._holds: dict[tuple, list[float]] = {}  # _held's answers (a drag's)
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
        columns = max(1, int(self.columnCount))
        samples = self.samples(scale, self._width, columns, self.spans)
        for (item, _label), sample in zip(self.items, samples, strict=True):
            if isinstance(item, LineSample):
                item.set_length(sample)
        if columns == 1:
            # one column: margins, sample, the gap to the label, the label
            room = self._width - self._margins() - self.one_column_sample(scale) - self._gap()
            for _s, label in self.items:
                label._strip_room = None  # (wrapped at the room itself: not balanced)
            self.wrap_labels(room)
        else:  # the longest entries of columns too wide side by side wrap in them
            caps = self.column_caps(columns, self._width, spans=self.spans)
            placed = self._cells()
            offsets = self._offsets(columns, samples, placed)
            rooms = []
            for (_row, column, across), sample, (_s, label) in zip(
                placed, samples, self.items, strict=True
            ):
                # an entry across the columns: the strip's room beside its sample, right
                # of the columns before it
                room = self._width - self._margins() - offsets[column] - sample - self._gap()
                room = room if across else caps[column]
                label._strip_room = room  # (a new text is balanced in it: _rebalance)
                # wrapped: its lines as even as its number of lines allows
                rooms.append(_balanced(label, room) if _natural_width(label) > room else room)
            self.wrap_labels(rooms)
        self._hold_columns()
        self.updateSize()

    def _offsets(
        self, columns: int, samples: Sequence[float], placed: Sequence[tuple[int, int, bool]]
    ) -> list[float]:
        """Per column, the width (px, unscaled) of the columns left of it: their samples
        (``samples``: each entry's), texts as :meth:`_column_texts` and gaps."""
        texts = self._column_texts(columns, self._width, self.spans)
        widths = [0.0] * columns
        for sample, (_row, column, _across) in zip(samples, placed, strict=True):
            widths[column] = max(widths[column], sample)
        offsets, x = [], 0.0
        for sample, text in zip(widths, texts, strict=True):
            offsets.append(x)
            x += sample + text
        return offsets

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
        caps = [math.inf] * columns
        if columns > 1:
            caps = self.column_caps(columns, self._width, spans=self.spans)
        placed = self._cells()
        for c in range(columns):
            held = 0.0
            # (no room held: an empty list)
            for room, (_row, j, across) in zip(held_room, placed, strict=False):
                if j == c and not across:
                    held = max(held, room)
            held = min(held, caps[c])  # (a column its entries wrap in: no wider)
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
        "query at m=0000000" and was 533 px wide in a 325 px strip), and no more than
        the flow of the entries' own texts leaves where all of it would flow the strip
        otherwise (:meth:`_settled_hold`)."""
        room = width - self._margins() - self.sample_width() - self._gap()
        if width <= 0 or room <= 0:
            return list(self.reserved)
        held = [min(w, room) for w in self.reserved]
        if not any(held):
            return held
        texts = tuple(label.text for _sample, label in self.items)
        key = (texts, *self._style(width, tuple(self.reserved)))
        known = self._holds.get(key)
        if known is None:
            if len(self._holds) >= 16:  # (a few widths and scales at a time)
                self._holds.clear()
            known = self._holds[key] = self._settled_hold(width, held)
        return list(known)

    def _settled_hold(self, width: float, held: list[float]) -> list[float]:
        """``held`` (:meth:`_held`: each entry's one-line room, px, unscaled), where the
        entries flow into the strip ``width`` px wide held as they do on their own texts
        (:meth:`flow`: the same columns, entries across them, lines and wrapped
        entries); otherwise no more than that flow leaves each entry: the strip's spare
        room shared out among the held entries' columns (as :func:`_level`: the least
        need first), none where the columns wrap (the widest at their common width), an
        entry across the columns the room right of those before it; and none at all
        where that still flows otherwise. A drag's frames then keep the settled strip,
        and a number that outgrows the room plans the strip again. RoPE's score legend
        on the 1920 x 1080 stage at 200 % (scene 11: "query at m=9", "query at m=8201",
        "m − n = 0", 832 px) held room for "query at m=000000" in each query entry
        (299 px): three columns wrapped one, so an m drag showed two rows of two
        columns, and one row again when it ended: the plot shrank and grew back."""
        gaps = 2 * self._gap()
        naturals = self._room_texts(())  # (each with its gaps)
        free = self._flow_held(width, ())
        if free.columns == 1 or _shape(self._flow_held(width, tuple(held))) == _shape(free):
            return held
        columns, spans = free.columns, free.spans
        room = width - (self._margins() - self._gap()) - self.sample_width() * columns
        need = _needs(naturals, columns, spans)
        if sum(need) <= room:  # (no column wraps: the spare room shared out)
            whole = _needs(self._room_texts(held), columns, spans)
            extra = [h - n for h, n in zip(whole, need, strict=True)]
            spare = room - sum(need)
            level = _level(extra, spare) if sum(extra) > spare else math.inf
            allowed = [n + min(e, level) for n, e in zip(need, extra, strict=True)]
        else:  # (the widest columns wrap at one width, the others have no room to spare)
            level = _level(need, room)
            allowed = [min(n, level) for n in need]
        lefts, left = [], 0.0  # per column, the columns left of it
        for column_width in allowed:
            lefts.append(left)
            left += self.sample_width() + column_width
        across = width - self._margins() - self.sample_width() - self._gap()
        out = []
        for i, (_row, column, spanning) in enumerate(cells(len(naturals), columns, spans)):
            if i >= len(held):
                break
            limit = across - lefts[column] if spanning else allowed[column] - gaps
            out.append(max(0.0, min(held[i], limit)))
        if _shape(self._flow_held(width, tuple(out))) != _shape(free):  # (none held)
            return [min(h, n - gaps) for h, n in zip(held, naturals, strict=False)]
        return out

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

    def samples(
        self,
        scale: float,
        width: float = 0.0,
        columns: int = 0,
        spans: Sequence[int] | None = None,
    ) -> list[float]:
        """Each entry's sample width (px, unscaled) in a strip ``width`` px wide
        (unscaled; 0: the strip's own) drawn at ``scale``, its entries in ``columns``
        columns (0: as many as fit, :meth:`flow`), ``spans`` across them (``None``:
        the flow's for 0 columns, else none; an entry across the columns has its
        sample in the first column).

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
        if not columns:
            flow = self.flow(width) if width > 0 else None
            columns = flow.columns if flow is not None else 1
            spans = flow.spans if flow is not None and spans is None else spans
        columns = max(1, columns)
        spans = tuple(spans or ()) if columns > 1 else ()
        # each entry's sample column (one across the columns: where it starts)
        placed = cells(len(dashed), columns, spans)
        at = [j for _row, j, _across in placed]
        lined = [any(d for d, j in zip(dashed, at, strict=True) if j == c) for c in range(columns)]
        if width <= 0:
            length = full
        else:
            column_texts = self._column_texts(columns, width, spans)
            used = sum(column_texts) + base * columns
            if spans:  # an entry across the columns wider than they are
                texts = self._texts(True, width)
                room = width - self._margins() - base + self._gap()  # (its text's gaps)
                for i in spans:  # (right of the columns before it)
                    left = sum(base + text for text in column_texts[: placed[i][1]])
                    used = max(used, min(left + base + texts[i], base + room))
            extra = width - (self._margins() - self._gap()) - used
            length = base + extra / lined.count(True)
            if length >= least:
                length = min(full, length)
            elif length < base:
                # one column whose text wraps beside any sample (more columns leave a
                # solid line's sample at least: they were counted with it)
                length = least if columns == 1 else base
        return [length if lined[j] else base for j in at]

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

    def wrap_labels(self, room: float | Sequence[float]) -> None:
        """Wrap the entries' text that is longer than ``room`` px (one column on a
        narrow plot: "longrope short_factor (L ≤ 2048)" ran into the next plot), or
        each entry's at its own room (a sequence: its column's, :meth:`column_caps`)."""
        changed = False
        rooms = [room] * len(self.items) if isinstance(room, float | int) else list(room)
        for (_sample, label), each in zip(self.items, rooms, strict=True):
            item = label.item
            wrap = each if _natural_width(label) > each and each > 24 else -1.0
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
            tuple([label.text for _sample, label in self.items]),  # (a list: one call)
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
        flow = self.flow(width / scale, held=held)
        spacing = max(0.0, self.layout.verticalSpacing())
        _left, top, _right, bottom = self.layout.getContentsMargins()
        if flow.columns > 1:
            return (flow.height + top + bottom) * scale
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
        return self._room_texts(self._held(width or self._width) if held else ())

    def _room_texts(self, rooms: Sequence[float]) -> list[float]:
        """Each entry's label on one line, or ``rooms`` (its one-line room held; none
        past the list) where wider, and the gaps before and after it (px, unscaled)."""
        gap = self._gap()
        return [
            max(_natural_width(label), rooms[i] if i < len(rooms) else 0.0) + 2 * gap
            for i, (_s, label) in enumerate(self.items)
        ]

    def columns_for(self, width: float, *, held: bool = True) -> int:
        """The columns of entries in a strip ``width`` px wide (unscaled): those of the
        fewest lines of text (:meth:`flow`); at least one. ``held``: as
        :meth:`strip_height`."""
        return self.flow(width, held=held).columns

    def flow(self, width: float, *, held: bool = True) -> Flow:
        """How the entries flow into a strip ``width`` px wide (unscaled): the number of
        columns, and the entries that stand across them, that give the fewest lines of
        text, then wrap the fewest entries, then put the fewest across, then have the
        most columns.

        Entries fill the columns row by row; a column is as wide as its widest sample
        and label. Where the columns do not fit side by side, the widest are narrowed
        to one width and their longer entries wrap in it (:meth:`column_caps`). The
        widest entry, or any one entry, or the widest few, may instead each stand
        across the columns from where they come in the entries' order to the row's
        end, the entries after them starting the next row (:func:`cells`,
        :meth:`reflow`'s ``spans``): the entries read in the curves' order. An entry
        wraps onto :data:`MAX_LINES` lines at most in a legend of several columns,
        never inside a word; in one column onto as many lines as it needs. Every
        sample is counted
        as wide as a solid line's (:meth:`samples` lengthens a dashed line's into what
        the columns leave: a dashed sample counted at :data:`DASH_LEAST` pen widths
        cost 8 legends a column at 200–300 %). ``held``: as :meth:`strip_height`.

        Where every entry fits on one line in some columns, that is the most columns
        that hold them, unless wrapping or spanning saves a line. RoPE's six
        frequency entries at 1280 x 720, 150-200 % on stage stood in one column as
        tall as the data, since "longrope long_factor (L > 2048)" left no room for a
        second one. A pure function of the entries, their style and ``width`` (kept
        for them).

        A flow that wraps no entry depends on the entries' sizes alone (each one's
        text on one line: its width and height), not on their words: it is also kept
        for those sizes. RoPE's legends name their entries after the dragged value
        ("query at m=…", "m − n = …"): each frame of a drag flowed the strip anew
        (~300 calls) for entries mostly as wide as before."""
        return self._flow_held(width, tuple(self._held(width or self._width)) if held else ())

    def _style(self, width: float, rooms: tuple[float, ...]) -> tuple:
        """What a flow in a strip ``width`` px wide with ``rooms`` held
        (:meth:`_flow_held`) depends on besides the entries."""
        return (
            width,
            rooms,
            self.opts.get("labelTextSize"),
            self.items[0][1].item.font().key() if self.items else "",
            self.sample_zoom,
            self.layout.horizontalSpacing(),
            self.layout.verticalSpacing(),
            self.layout.getContentsMargins(),
        )

    def _flow_held(self, width: float, rooms: tuple[float, ...]) -> Flow:
        """:meth:`flow` in a strip ``width`` px wide, each entry at least ``rooms`` wide
        on one line (the room held for it; none past the tuple), kept (:meth:`flow`)."""
        style = self._style(width, rooms)
        key = (tuple(label.text for _sample, label in self.items), *style)
        known = self._flows.get(key)
        if known is None:
            if len(self._flows) >= 16:  # (a few widths and scales at a time)
                self._flows.clear()
            sizes = (tuple(_sizes(label) for _sample, label in self.items), *style)
            known = self._sized_flows.get(sizes)
            if known is None:
                known, words = self._flow(width, self._room_texts(rooms))
                if not words:
                    if len(self._sized_flows) >= 16:
                        self._sized_flows.clear()
                    self._sized_flows[sizes] = known
            self._flows[key] = known
        return known

    def _flow(self, width: float, texts: list[float]) -> tuple[Flow, bool]:
        """:meth:`flow`, measured, each entry's text (and gaps) ``texts`` wide, and
        whether it read an entry's words (a wrapped entry's lines, its longest word)
        beyond its size on one line."""
        labels = [label for _sample, label in self.items]
        count = len(labels)
        # one column: each entry wraps beside a solid line's sample
        across = width - self._margins() - self.sample_width() - self._gap()
        words = across > 24 and any(_one_line_size(label)[0] > across for label in labels)
        lines = [_lines(label, across)[0] for label in labels]
        best = Flow(1, (), (math.inf,), sum(lines), sum(k > 1 for k in lines), 0.0)
        widest = sorted(range(count), key=lambda i: -texts[i])
        fit = _Fit(
            labels=labels,
            texts=texts,
            naturals=[_natural_width(label) for label in labels],
            # the columns' texts' room: the strip less its margins (the last entry has
            # no gap after it) and a solid line's sample a column
            room=width - (self._margins() - self._gap()),
            sample=self.sample_width(),
            gaps=2 * self._gap(),
            across=across,
            line_height=self.one_line_height(),
            spacing=max(0.0, self.layout.verticalSpacing()),
        )
        for columns in range(2, count + 1):
            for k in range(count - columns + 1):  # the k widest across the columns
                # (each entry across ends a row, the others fill rows of ``columns``)
                if max(math.ceil((count - k) / columns), k) > best.lines:
                    break  # (more lines than the best at any wrap)
                whole = False
                for spans in _span_choices(widest, k):
                    least = fit.least(columns, spans)
                    if least is not None and least >= _order(best):
                        continue  # (it wraps an entry and cannot do better: not measured)
                    flow = fit.flow(columns, spans)
                    if flow is not None and _order(flow) < _order(best):
                        best = flow
                    whole = whole or (flow is not None and not flow.wrapped)
                if whole:
                    break  # (one more across: no fewer lines, and one more across)
        return best, words or fit.words

    def column_caps(
        self, columns: int, width: float, held: bool = True, spans: Sequence[int] = ()
    ) -> list[float]:
        """Per column of ``columns`` in a strip ``width`` px wide (unscaled), its
        entries but ``spans`` (:meth:`flow`), the width (px) at which its labels wrap;
        ``inf`` for a column whose entries stay on one line. Columns that do not fit
        side by side as wide as their entries on one line (and a solid line's sample
        each) are narrowed, the widest first, to one width: the room the others leave
        shared among them. ``held``: with the room a drag holds (:meth:`reserve`)."""
        if width <= 0:
            return [math.inf] * columns
        texts = self._texts(held, width)
        room = width - (self._margins() - self._gap())
        return _caps(texts, columns, spans, room - self.sample_width() * columns, 2 * self._gap())

    def _column_needs(
        self, columns: int, width: float, held: bool = True, spans: Sequence[int] = ()
    ) -> list[float]:
        """Each column's widest text on one line and its gaps (px, unscaled), the
        entries ``spans`` across the columns left out."""
        return _needs(self._texts(held, width), columns, spans)

    def _column_texts(self, columns: int, width: float, spans: Sequence[int] = ()) -> list[float]:
        """Each column's text width and its gaps (px, unscaled) in a strip ``width`` px
        wide: its widest entry on one line, or the width they wrap at
        (:meth:`column_caps`; one column: as :meth:`samples` leaves it)."""
        need = self._column_needs(columns, width, spans=spans)
        if columns == 1:
            return need
        gaps = 2 * self._gap()
        caps = self.column_caps(columns, width, spans=spans)
        return [min(n, cap + gaps) for n, cap in zip(need, caps, strict=True)]

    def _cells(self) -> list[tuple[int, int, bool]]:
        """:func:`cells` of the entries as the legend holds them now."""
        return cells(len(self.items), max(1, int(self.columnCount)), self.spans)

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
        if not shiboken6.isValid(self.layout):
            label.setText(text)
            return True
        if item.textWidth() >= 0:
            return self._rename_wrapped(label, text)
        before = label.itemRect().size()
        cached = getattr(label, "_one_line_cache", None)
        old_key = (label.text, repr(label.opts), item.font().key())
        _replace_text(label, text)
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

    def _rename_wrapped(self, label: pg.LabelItem, text: str) -> bool:
        """:meth:`rename` of an entry wrapped in its room. While a drag holds room
        (:meth:`reserve`), a new text that wraps into the same box at the same width
        (as many lines, none wider) replaces the text alone, as an entry on one line
        that keeps its size: RoPE's score legend at 200 % on stage wraps its "query at
        m=…" entries, and each frame of an m drag planned the strip anew (its flows,
        balanced lines and text sizes: about 2 ms a frame). Its lines are balanced
        again when the hold ends (:meth:`release` plans the strip anew). Otherwise, as
        ``setText``."""
        item = label.item
        if self._held_room(label) > 0:
            before = label.itemRect().size()
            _replace_text(label, text)
            if label.itemRect().size() == before or self._rebalance(label, before):
                item.update()
                return False
        label.setText(text)
        return True

    def _rebalance(self, label: pg.LabelItem, before: QtCore.QSizeF) -> bool:
        """Wrap ``label``'s new text, which its balanced width no longer holds in as
        many lines, as :meth:`set_strip` would in the room it gave the entry (its
        lines balanced there); whether that keeps the entry's height and its column's
        width (the room held for it through the drag), so that the strip stays as it
        is. RoPE's score legend at 200 % on stage wraps "query at" / "m=9" at the
        narrowest width of two lines: "m=10" took three there, and the strip was
        planned anew (2 ms, and a re-laid-out plot) on each frame a number grew a
        digit. Otherwise its width is as before (the strip is planned anew)."""
        room = getattr(label, "_strip_room", None)
        item = label.item
        if room is None or room <= 24 or _natural_width(label) <= room:
            return False  # (not wrapped in a column's room, or no longer wraps)
        limit = min(room, self._held_room(label))
        width = _balanced(label, room)
        if width > limit:
            return False
        old = item.textWidth()
        item.setTextWidth(width)
        after = label.itemRect().size()
        if after.height() == before.height() and after.width() <= limit:
            return True
        item.setTextWidth(old)
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
        grid layout keeps its columns after a :meth:`reflow` to fewer); with entries
        across the columns (which end rows) all of them placed again."""
        if self.spans:
            self._place_all()
        else:
            self._place(len(self.items) - 1, sample, label)

    def setColumnCount(self, columnCount: int) -> None:
        """pyqtgraph's, as :meth:`reflow`."""
        if self.reflow(columnCount):
            self.updateSize()

    def _place(
        self, index: int, sample: QtWidgets.QGraphicsLayoutItem, label: pg.LabelItem
    ) -> None:
        columns = max(1, int(self.columnCount))
        row, column, across = cells(len(self.items), columns, self.spans)[index]
        centre = QtCore.Qt.AlignmentFlag.AlignVCenter
        self.layout.addItem(sample, row, 2 * column, alignment=centre)
        # as high as its text, centred in a row that another entry's wrapped text
        # makes taller (its sample is centred: the text stays beside it)
        if label.sizePolicy().verticalPolicy() != _AS_HIGH:
            label.setSizePolicy(label.sizePolicy().horizontalPolicy(), _AS_HIGH)
        span = 2 * (columns - column) - 1 if across else 1
        self.layout.addItem(label, row, 2 * column + 1, 1, span, alignment=centre)
        self.rowCount = max(self.rowCount, row + 1)

    def reflow(self, columns: int, spans: Sequence[int] = ()) -> bool:
        """Flow the entries into ``columns`` columns (filled row by row), ``spans``
        (indices) each across the columns from where it comes to its row's end
        (:func:`cells`, :meth:`flow`), the same samples and labels moved to other cells
        of the layout: their text, size, opacity (a highlighted series) and the room held for
        them (:attr:`reserved`) stay. Whether the legend had another flow. Set the
        strip afterwards (:meth:`set_strip`): its column widths follow the columns."""
        columns = max(1, int(columns))
        spans = tuple(sorted(i for i in spans if 0 <= i < len(self.items))) if columns > 1 else ()
        if (columns, spans) == (self.columnCount, self.spans):
            return False
        if not shiboken6.isValid(self.layout):
            return False
        self.columnCount = columns
        self.spans = spans
        self._place_all()
        self.reflows += 1
        return True

    def _place_all(self) -> None:
        """Take every entry out of the layout and place it again (:meth:`_place`)."""
        layout = self.layout
        for sample, label in self.items:
            layout.removeItem(sample)
            layout.removeItem(label)
        # the columns the entries leave keep no width held for them (_hold_columns)
        for c in range(layout.columnCount()):
            if layout.columnMinimumWidth(c) != 0:
                layout.setColumnMinimumWidth(c, 0)
        self.rowCount = 1
        for i, (sample, label) in enumerate(self.items):
            self._place(i, sample, label)
        layout.invalidate()


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

    #: the pen and symbol :meth:`line_width` last looked at and the width it found
    _width_of: tuple[object, object, float] | None = None

    def line_width(self) -> float:
        """Width (px) of the line this sample draws (0: none, a marker series); kept
        for the pen object and symbol, as :meth:`dashed`."""
        opts = self.item.opts
        pen, symbol = opts.get("pen"), opts.get("symbol")
        kept = self._width_of
        if kept is not None and kept[0] is pen and kept[1] is symbol:
            return kept[2]
        width = self._line_width(pen, symbol)
        self._width_of = (pen, symbol, width)
        return width

    @staticmethod
    def _line_width(pen: object, symbol: object) -> float:
        if pen is None or symbol is not None:
            return 0.0
        qpen: QtGui.QPen = pen if isinstance(pen, QtGui.QPen) else pg.mkPen(pen)
        if qpen.style() == QtCore.Qt.PenStyle.NoPen:
            return 0.0
        return max(1.0, qpen.widthF())

    #: the pen :meth:`dashed` last looked at and what it found
    _dashed_of: tuple[object, bool] | None = None

    def dashed(self) -> bool:
        """Whether the series is drawn dashed (settled: a drag draws it solid, see
        ``PanelPlot.set_quality``, and its sample keeps its length).

        Kept for the pen object: the view's grid asks for each legend's height on
        every frame (:meth:`StripLegend.strip_height`), which asks each sample, and a
        pen's style is a Python enum made anew on each read (~4 calls a sample). A
        series is restyled with a new pen (``setPen``, ``mkPen``), never by changing
        its pen in place."""
        pen = getattr(self.item, "_full_pen", None) or self.item.opts.get("pen")
        kept = self._dashed_of
        if kept is not None and kept[0] is pen:
            return kept[1]
        dashed = isinstance(pen, QtGui.QPen) and pen.style() not in (
            QtCore.Qt.PenStyle.SolidLine,
            QtCore.Qt.PenStyle.NoPen,
        )
        self._dashed_of = (pen, dashed)  # (holds the pen: no other takes its id)
        return dashed

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


def cells(count: int, columns: int, spans: Sequence[int] = ()) -> list[tuple[int, int, bool]]:
    """``(row, column, across)`` of each of ``count`` entries in ``columns`` columns:
    the entries filled row by row in their order, each of ``spans`` (indices) across
    the columns from where it comes in that order to the row's end (``across``; all
    of a row of its own where it starts one), and the entries after it start the next
    row. Read left to right and top to bottom, the entries are in the curves' order
    (spans placed on rows of their own below the others put "longrope …" under
    "llama3 …", after it). One column has none across."""
    columns = max(1, columns)
    spanning = set(spans) if columns > 1 else set()
    out: list[tuple[int, int, bool]] = []
    row = column = 0
    for i in range(count):
        if i in spanning:
            out.append((row, column, True))  # (the rest of the row)
            row, column = row + 1, 0
        else:
            out.append((row, column, False))
            column += 1
            if column == columns:
                row, column = row + 1, 0
    return out


def _needs(texts: list[float], columns: int, spans: Sequence[int]) -> list[float]:
    """Each of ``columns`` columns' widest of ``texts`` (px), ``spans`` left out."""
    need = [0.0] * columns
    for text, (_row, j, across) in zip(texts, cells(len(texts), columns, spans), strict=True):
        if not across:
            need[j] = max(need[j], text)
    return need


def _caps(
    texts: list[float], columns: int, spans: Sequence[int], room: float, gaps: float
) -> list[float]:
    """:meth:`StripLegend.column_caps` of entries whose texts (with their ``gaps``)
    are ``texts`` wide, in ``room`` px (the samples taken out)."""
    need = _needs(texts, columns, spans)
    if sum(need) <= room:
        return [math.inf] * columns
    level = _level(need, room)
    return [level - gaps if need_j > level else math.inf for need_j in need]


@dataclass
class _Fit:
    """What :meth:`StripLegend.flow` measures once for a strip and tries each number of
    columns and entries across them with (px, unscaled)."""

    labels: list[pg.LabelItem]
    texts: list[float]  # each entry's text on one line (or its held room) and gaps
    naturals: list[float]  # each entry's text on one line
    room: float  # the strip's width less its margins and a gap
    sample: float  # a solid line's sample
    gaps: float  # the gaps before and after a text
    across: float  # the text's room of an entry across the columns (or one column)
    line_height: float  # a row of one line, with the layout's spacing
    spacing: float
    #: the entries' lines, width and height wrapped at a width (measured once)
    measured: dict[tuple[int, float], tuple[int, float, float]] = field(default_factory=dict)
    #: :meth:`placed` of each number of columns and entries across them
    places: dict[tuple[int, tuple[int, ...]], tuple[list[float], list[tuple[int, float]]]] = field(
        default_factory=dict
    )
    words: bool = False  # whether an entry's words were read (wrapped, its longest word)

    def flow(self, columns: int, spans: tuple[int, ...]) -> Flow | None:
        """The entries in ``columns`` columns, ``spans`` across them: ``None`` where an
        entry would take more than :data:`MAX_LINES` lines or a word is wider than its
        column."""
        caps, placed = self.placed(columns, spans)
        rows: dict[int, tuple[int, float]] = {}
        wrapped = 0
        for i, (row, cap) in enumerate(placed):
            lines, high = 1, self.line_height
            natural = self.naturals[i]
            if natural > cap:
                if cap <= 24 or natural > MAX_LINES * cap:
                    return None  # (more lines than allowed in any case)
                self.words = True
                if self.word(i) > cap + 0.5:
                    return None  # (a word wider than the column)
                if (i, cap) not in self.measured:
                    self.measured[i, cap] = _lines(self.labels[i], cap)
                lines, wide, text_high = self.measured[i, cap]
                if lines > MAX_LINES or wide > cap + 0.5:  # (or a word wider)
                    return None
                wrapped += 1
                high = max(high, text_high + self.spacing)
            was = rows.get(row, (1, self.line_height))
            rows[row] = (max(was[0], lines), max(was[1], high))
        total = sum(lines for lines, _high in rows.values())
        height = sum(high for _lines, high in rows.values())
        return Flow(columns, spans, tuple(caps), total, wrapped, height)

    def placed(
        self, columns: int, spans: tuple[int, ...]
    ) -> tuple[list[float], list[tuple[int, float]]]:
        """The columns' text caps in ``columns`` columns with ``spans`` across them, and
        each entry's ``(row, cap)``: its column's cap, or the room across. Worked out
        once for each (:meth:`least` then :meth:`flow` ask for the same)."""
        key = (columns, spans)
        found = self.places.get(key)
        if found is None:
            room = self.room - self.sample * columns
            caps = _caps(self.texts, columns, spans, room, self.gaps)
            # an entry across the columns from column c: the room right of columns < c
            left, lefts = 0.0, []
            for need, cap in zip(_needs(self.texts, columns, spans), caps, strict=True):
                lefts.append(left)
                left += self.sample + min(need, cap + self.gaps)
            found = self.places[key] = (
                caps,
                [
                    (row, self.across - lefts[column] if spanning else caps[column])
                    for row, column, spanning in cells(len(self.labels), columns, spans)
                ],
            )
        return found

    def least(self, columns: int, spans: tuple[int, ...]) -> tuple[int, int, int, int] | None:
        """The least :func:`_order` that :meth:`flow` of ``columns`` and ``spans`` can
        have, known without measuring wrapped text; ``None`` where it wraps no entry
        (nothing to measure).

        An entry wider than its column wraps (:meth:`flow` counts it), onto two lines
        at least where it is more than half a pixel wider (on one line it would be
        wider than :meth:`flow` lets a column's text be: ``None``). A legend whose entry follows a slider
        (RoPE's "query at m=…") tried narrower columns with every new text, and
        measured the entry wrapped in them (copies of its document: 0.7 ms a frame of
        an m drag) for a flow that wrapped an entry where the best so far wrapped
        none on as few lines."""
        rows: dict[int, int] = {}
        wrapped = 0
        for i, (row, cap) in enumerate(self.placed(columns, spans)[1]):
            natural = self.naturals[i]
            lines = 1
            if natural > cap:
                wrapped += 1
                lines = 2 if natural > cap + 0.5 else 1
            rows[row] = max(rows.get(row, 1), lines)
        if not wrapped:
            return None
        return (sum(rows.values()), wrapped, len(spans), -columns)

    def word(self, i: int) -> float:
        """The width (px) of entry ``i``'s longest word (kept on its label)."""
        return _wrapped(self.labels[i], 0.0)[0]


def _span_choices(widest: list[int], k: int) -> list[tuple[int, ...]]:
    """The entries (indices, sorted) :meth:`StripLegend.flow` tries across the columns,
    ``k`` of them: the ``k`` widest, and for one any entry, the widest first. Across
    the columns from where it comes in the entries' order, the widest is not always
    the one to take: RoPE's score legend at 150 % ("query at m=5", "query at m=517",
    "m − n = −4" in a 384 px strip) fits on two lines unwrapped with the first across
    and the other two beside each other, not with the second across."""
    if k == 1:
        return [(i,) for i in widest]
    return [tuple(sorted(widest[:k]))]


def _shape(flow: Flow) -> tuple[int, tuple[int, ...], int, int]:
    """What a strip of ``flow`` shows: its columns, the entries across them, its lines
    and the entries wrapped."""
    return (flow.columns, flow.spans, flow.lines, flow.wrapped)


def _order(flow: Flow) -> tuple[int, int, int, int]:
    """The order :meth:`StripLegend.flow` prefers flows in (the least first)."""
    return (flow.lines, flow.wrapped, len(flow.spans), -flow.columns)


def _level(widths: list[float], room: float) -> float:
    """The width at which ``widths`` capped sum to ``room`` (water-filling; less than
    the widest when they sum to more)."""
    ordered = sorted(widths, reverse=True)
    for k in range(1, len(ordered) + 1):
        level = (room - sum(ordered[k:])) / k
        if k == len(ordered) or level >= ordered[k]:
            return level
    return room  # (no widths)


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


def _plain(text: str) -> bool:
    """Whether ``text`` reads the same as rich text as it does as plain text: not
    empty, no markup or entity, no white space that HTML folds."""
    return (
        bool(text)
        and "<" not in text
        and ">" not in text
        and "&" not in text
        and not any(c in text for c in "\t\n\r\f")
        and "  " not in text
        and text.strip(" ") == text
    )


def _replace_text(label: pg.LabelItem, text: str) -> None:
    """Show ``text`` in ``label`` as ``LabelItem.setText`` does (scripts typeset:
    gui.render.pg_compat), without its new minimum size and layout.

    A plain text (:func:`_plain`) in place of a plain one this function set in the
    label's style as it is now replaces the characters of the document alone, in
    the format they had: the same document as the rich text gives, without parsing
    it and building the document anew (RoPE's "query at m=…" entries, three a frame
    of an m drag: ~0.1 ms each, a third of that in place)."""
    style = label_html(label, "")
    item = label.item
    plain = _plain(text)
    if plain and getattr(label, "_set_as", None) == (style, label.text):
        document = item.document()
        if document.isUndoRedoEnabled():  # (each edit would be kept for an undo)
            document.setUndoRedoEnabled(False)
        cursor = QtGui.QTextCursor(document)
        cursor.setPosition(1)  # (the format of the first character: the span's)
        fmt = cursor.charFormat()
        cursor.select(QtGui.QTextCursor.SelectionType.Document)
        cursor.insertText(text, fmt)
    else:
        item.setHtml(label_html(label, text))
        typeset_scripts(item.document())
    label.text = text
    # (the style and text the document holds now, where it holds them as plain text)
    label._set_as = (style, text) if plain else None


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
    width = float(document.idealWidth())  # (its margins included)
    _drop_copy(document)
    return width


def _natural_width(label: pg.LabelItem) -> float:
    """Width of ``label``'s text on one line (px), wrapped or not."""
    if label.item.textWidth() < 0:
        return float(label.itemRect().width())
    return _one_line_size(label)[0]


def _sizes(label: pg.LabelItem) -> tuple[float, float, float]:
    """What :meth:`StripLegend.flow` reads of ``label`` where it wraps no entry: its
    width on one line as the label's box or as its text (:func:`_natural_width`,
    :func:`_one_line_size`) and its height on one line."""
    return (_natural_width(label), *_one_line_size(label))


def _one_line_size(label: pg.LabelItem) -> tuple[float, float]:
    """Width (its ideal width, which holds its margins: as the label's box when not
    wrapped) and height (px) of ``label``'s text laid out on one line (no wrapping),
    from a copy of its document.

    Its width counted the document's margins twice (8 px more than the label's box):
    a wrapped entry (measured here) counted 8 px wider than the same entry unwrapped
    (measured by its box), and a legend's columns depended on which of them it was
    (RoPE's frequency legend at 1280 x 720 / 200 % took one row more after lecture
    scene 10 than before it).

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
    width = float(document.idealWidth())  # (its margins included)
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
    document = _wrap_copy(label)
    document.setTextWidth(room)
    width = float(document.idealWidth())  # (its margins included)
    height = float(document.size().height())
    _drop_copy(document)
    setattr(label, slot, (key, width, height))
    return width, height


def _lines(label: pg.LabelItem, room: float) -> tuple[int, float, float]:
    """``(lines, width, height)`` (px) of ``label``'s text wrapped within ``room`` px:
    one line when it fits (or the room is too small to wrap in, as
    :meth:`StripLegend.wrap_labels`)."""
    width, height = _one_line_size(label)
    if width <= room or room <= 24:
        return 1, width, height
    wide, high = _wrapped(label, room)
    return _line_count(label, high, height), wide, high


def _line_count(label: pg.LabelItem, high: float, one_line: float) -> int:
    """Lines of ``label``'s text laid out ``high`` px high, one line being ``one_line``
    px high (both with the document's margins)."""
    margins = 2 * label.item.document().documentMargin()
    return max(1, round((high - margins) / max(1.0, one_line - margins)))


def _wrap_copy(label: pg.LabelItem) -> QtGui.QTextDocument:
    """A copy of ``label``'s document that wraps at spaces, never inside a word (let it
    go with :func:`_drop_copy`)."""
    document = label.item.document().clone()
    option = document.defaultTextOption()
    option.setWrapMode(_WORD_WRAP)
    document.setDefaultTextOption(option)
    return document


def _balanced(label: pg.LabelItem, room: float) -> float:
    """The narrowest width (px, within about a pixel) at which ``label``'s text wraps
    onto no more lines than within ``room`` px: its lines as even as they can be, "(L
    ≤ 2048)" kept whole on the second line rather than "longrope short_factor (L ≤" /
    "2048)" as Qt fills the first line. Kept on the label for its text, style, font and
    ``room``."""
    key = (label.text, repr(label.opts), label.item.font().key(), room)
    cached: tuple[tuple[object, ...], float] | None = getattr(label, "_balance_cache", None)
    if cached is not None and cached[0] == key:
        return cached[1]
    lines = _lines(label, room)[0]
    low, high = _wrapped(label, 0.0)[0], room  # (no narrower than its longest word)
    if lines > 1 and low < high:
        lines_at = _WrapCounter(label)
        for _ in range(8):  # (to 1/256 of the span: about a pixel)
            middle = (low + high) / 2
            if lines_at(middle) <= lines:
                high = middle
            else:
                low = middle
        lines_at.done()
    label._balance_cache = (key, high)
    return high


class _WrapCounter:
    """``_lines(label, room)[0]`` for one label at many rooms, from one copy of its
    document laid out at each room in turn (:func:`_balanced`'s bisection asked
    :func:`_lines` eight times, each copying the document: a legend whose entries
    wrap and follow a dragged value, RoPE's score legend at 200 % on stage, spent
    most of a frame's draw there). Call :meth:`done` after the last room."""

    def __init__(self, label: pg.LabelItem) -> None:
        self.width, self.height = _one_line_size(label)
        self.document: QtGui.QTextDocument | None = None
        self.label = label

    def __call__(self, room: float) -> int:
        if self.width <= room or room <= 24:
            return 1
        if self.document is None:
            self.document = _wrap_copy(self.label)
        self.document.setTextWidth(room)
        return _line_count(self.label, float(self.document.size().height()), self.height)

    def done(self) -> None:
        """Let the copy go (:func:`_drop_copy`)."""
        if self.document is not None:
            _drop_copy(self.document)
            self.document = None


def _wrapped_height(label: pg.LabelItem, room: float) -> float:
    """Height (px) of ``label``'s text in a one-column strip whose text has ``room`` px:
    one line when it fits (or the room is too small to wrap in), else wrapped."""
    width, height = _one_line_size(label)
    if width <= room or room <= 24:
        return height
    return _wrapped(label, room)[1]
