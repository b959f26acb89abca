"""An ``AxisItem`` that draws the same pixels as pyqtgraph's, several times faster.

Axes are the largest part of a frame while a slider moves: every change of a plotted
range regenerates the ticks, labels and grid of the axes linked to it. pyqtgraph's
``generateDrawSpecs`` spends most of that time re-measuring the same tick strings,
building ``Point`` objects and comparing every tick with every other through
``np.isclose``. :class:`FastAxisItem` produces **the same draw specs** (a test compares
them with pyqtgraph's over random ranges and sizes) with cached text sizes, plain
``QPointF`` and a sorted neighbour check, and paints aliased grid lines as filled
pixel spans when that is pixel-identical.

Two layout faults of pyqtgraph's are fixed on top (tests show both): tick labels that
would overlap another are left out (a log axis labels every minor tick, ``9·10¹``
stacked on ``8·10¹``; a linear axis keeps every k-th label, a regular sequence:
:func:`~gui.render.axis_specs.regular_labels`), and the room reserved across the axis
keeps its title clear of the tick labels.
"""

from __future__ import annotations

import math
import weakref
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

import numpy as np
import pyqtgraph as pg
import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets

from core.formula import minus_signs, powers_of_ten
from gui.render.axis_specs import (
    AxisFrame,
    AxisLayout,
    LabelShift,
    TileTicks,
    axis_ends,
    axis_frame,
    axis_length,
    generate_draw_specs,
    label_rect,
    log_rank,
    regular_labels,
    relabelled,
    separate_labels,
    shift_positions,
    tile_labels,
    value_scale,
)
from gui.render.pg_compat import (
    axis_pens,
    explicit_ticks,
    new_axis_text_size,
    report_text_size,
    reset_text_size,
    text_pen,
    tick_state,
)
from gui.render.raster import pixel_translation

_SOLID_LINE = QtCore.Qt.PenStyle.SolidLine
_FLAT_CAP = QtCore.Qt.PenCapStyle.FlatCap
_FAR = 1e9  # px: an axis reaching further is drawn whole (its device QRect would overflow)
_NO_PEN = QtCore.Qt.PenStyle.NoPen
_SOLID_BRUSH = QtCore.Qt.BrushStyle.SolidPattern
_ALIGN = QtCore.Qt.AlignmentFlag
LABEL_INK = 2.0  # px a tick label's ink may reach past its rectangle's sides
_VERTICAL_ALIGN = int(_ALIGN.AlignVertical_Mask)
_TOP_ALIGN = int(_ALIGN.AlignTop)
TITLE_NUDGE = 5  # px AxisItem.resizeEvent moves its title outwards of the axis edge
REFIT_ROUNDS = 4  # title re-fits and layouts alternated in one pass of the event loop
MAX_TITLE_LINES = 2  # an axis title wraps onto at most this many lines ...
TITLE_SCALES = (1.0, 0.9, 0.8, 0.7, 0.6, 0.5)  # ... at the largest of these sizes
# word tick labels that crowd shrink to the largest of these sizes at which all fit
# (the smallest is the floor: where even it crowds, every k-th word is drawn, see
# FastAxisItem.keep_labels)
WORD_TICK_SCALES = (1.0, 0.9, 0.8, 0.7)
# a small grid's index labels (every row or column) shrink to the largest of these at
# which all fit; when none does, some are left out (the first and last stay)
INDEX_TICK_SCALES = (1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.45, 0.4, 0.35)
# ... and, as a last resort where even those crowd (one plot column of a 16-cell grid at
# 1280 × 720, 300 %, windowed: 16 px cells), these (the grid's columns are planned for
# the sizes above: index_label_pitch)
INDEX_TICK_LAST_RESORT = (0.3, 0.25, 0.2)
# ... those under 0.6 only while the labels stay this large (as the values in the cells)
INDEX_TICK_MIN_PT = 6.0
INDEX_TICK_GAP = 0.25  # of the gap kept between horizontal labels: short numbers
# on stage (read from the back row) index labels are never smaller than this share of
# the tick font (the word ticks' floor): the grid plans its columns and rows for it
STAGE_INDEX_FLOOR = 0.6


def index_tick_scales(
    font: QtGui.QFont | None, last_resort: bool = False, stage: bool = False
) -> tuple[float, ...]:
    """The sizes a small grid's index labels in tick ``font`` try, largest first: down
    to 0.6, and smaller while the labels are at least :data:`INDEX_TICK_MIN_PT` (at
    300 % a 12 × 12 grid's cells are 17 px wide, "10" at 0.6 is 16.5 px); with
    ``last_resort`` :data:`INDEX_TICK_LAST_RESORT` too, as far as that size. On
    ``stage`` none below :data:`STAGE_INDEX_FLOOR` (Word order's output dimensions
    were drawn at 0.45 at 150 %: 7 pt digits on a projector)."""
    size = font.pointSizeF() if font is not None else -1.0
    if stage:
        return tuple(s for s in INDEX_TICK_SCALES if s >= STAGE_INDEX_FLOOR)
    if size <= 0:
        return INDEX_TICK_SCALES[:5]
    scales = INDEX_TICK_SCALES + (INDEX_TICK_LAST_RESORT if last_resort else ())
    return tuple(s for s in scales if s >= 0.6 or size * s >= INDEX_TICK_MIN_PT)


def smallest_index_font(font: QtGui.QFont, stage: bool = False) -> QtGui.QFont:
    """Tick ``font`` at the smallest of its :func:`index_tick_scales` (the last resort
    left out; ``stage``: on stage)."""
    small = QtGui.QFont(font)
    scale = index_tick_scales(font, stage=stage)[-1]
    if font.pointSizeF() > 0:
        small.setPointSizeF(font.pointSizeF() * scale)
    else:
        small.setPixelSize(max(1, round(font.pixelSize() * scale)))
    return small


_PITCHES: dict[tuple[str, tuple[str, ...], bool, bool], float] = {}


def index_label_pitch(
    font: QtGui.QFont, texts: Sequence[str], vertical: bool = False, stage: bool = False
) -> float:
    """Pixels from one label's centre to the next that an axis needs to draw every one
    of a small grid's index labels ``texts`` (tick ``font``) at their smallest size
    (:func:`index_tick_scales`), and a pixel for rounding: along a horizontal axis
    the widest label with the gap kept between index labels (:data:`INDEX_TICK_GAP`
    of :func:`gui.render.axis_specs.box_edges`'), along a ``vertical`` one a line;
    on ``stage`` at its smallest size there. Kept per font and texts."""
    key = (font_key(font), tuple(texts), vertical, stage)
    pitch = _PITCHES.get(key)
    if pitch is None:
        metrics = QtGui.QFontMetricsF(smallest_index_font(font, stage))
        box = QtCore.QRectF(0, 0, 100, 100)
        sizes = [metrics.boundingRect(box, _ALIGN.AlignCenter, text) for text in texts]
        widest = max((r.width() for r in sizes), default=0.0)
        line = max((r.height() for r in sizes), default=0.0)  # (box_edges' h / 0.8)
        pitch = line if vertical else widest + INDEX_TICK_GAP * line / 2
        pitch = _PITCHES[key] = pitch + 1.0
    return pitch


def _text_width(document: QtGui.QTextDocument) -> float:
    """The width (px) of ``document``'s widest laid-out line, its trailing spaces left
    out, with the document's margins: what the text takes across. ``idealWidth()``
    counts the margins already and a line's trailing space (pyqtgraph's axis title
    ends in one: ``"%s %s" % (text, units)``); with the margins added again, a title
    that fits its room on one line at full size was shrunk (Compare's "distance Δ
    (key Δ positions before the query)" at 1280 × 720, 300 %, on stage: 1 084 px of
    text in a 1 109 px room, drawn at 0.9)."""
    widest = 0.0
    block = document.begin()
    while block.isValid():
        layout, text = block.layout(), block.text()
        for i in range(layout.lineCount()):
            line = layout.lineAt(i)
            start = line.textStart()
            shown = len(text[start : start + line.textLength()].rstrip())
            if shown:
                left: tuple[float, int] = line.cursorToX(start)  # type: ignore[assignment]
                right: tuple[float, int] = line.cursorToX(start + shown)  # type: ignore[assignment]
                widest = max(widest, abs(right[0] - left[0]))
        block = block.next()
    return widest + 2 * document.documentMargin()


def evenly_spaced(orientation: str, text_specs: list, gap: float) -> list | None:
    """Every ``k``-th of a small grid's index labels ``text_specs`` (in tick order),
    the first included, for the smallest ``k`` at which none overlaps another
    (:func:`separate_labels` keeps them all); ``None`` when even two crowd. Left out
    from the ends inwards, the labels of PE's 16 dimensions at 1920 × 1080 / 300 % on
    stage read "0 1 2 … 9 10 12 15": uneven steps, the reader cannot tell which cell
    an unlabelled one is."""
    for step in range(2, len(text_specs)):
        chosen = text_specs[::step]
        if len(chosen) < 2:
            return None
        if len(separate_labels(orientation, chosen, None, gap)) == len(chosen):
            return chosen
    return None


def thinned_words(
    orientation: str, sizes: Sequence[tuple[float, AxisLayout, list]]
) -> tuple[float, AxisLayout, list] | None:
    """Word ticks that crowd at every size tried: ``(scale, layout, text specs)`` of
    every ``k``-th word (the first included) for the smallest ``k`` at which none
    overlaps or touches another (:func:`separate_labels`' gap of half a line kept), at
    the largest of ``sizes`` (``(scale, layout, all text specs)``, largest first) at
    which that ``k`` fits; ``None`` where even two words crowd. Word order's 9-word
    sentence in the 1920 × 1080 window at 100 % (3 plot columns, 29.6 px cells) drew
    all nine keys at 70 % of the tick font: "quick" and "brown" touched. The axis
    keeps a tick line at every word, and the grid's rows name the same words."""
    count = max(len(specs) for _scale, _layout, specs in sizes)
    for step in range(2, count):
        for scale, layout, specs in sizes:
            chosen = specs[::step]
            if len(chosen) < 2:
                return None
            if separate_labels(orientation, chosen) is chosen:
                return scale, layout, chosen
    return None


def _line_count(document: QtGui.QTextDocument) -> int:
    """Number of laid-out lines of ``document``."""
    count, block = 0, document.begin()
    while block.isValid():
        count += block.layout().lineCount()
        block = block.next()
    return count


class _AxisDrawing:
    """What :class:`FastAxisItem` keeps instead of a ``QPicture``: its draw specs.

    ``AxisItem.paint`` only calls ``picture.play(painter)``; the export code swaps in its
    own ``play`` the same way, so this stays compatible with it.
    """

    __slots__ = ("axis", "specs")

    def __init__(self, axis: FastAxisItem, specs: tuple | None) -> None:
        # Weak: the axis holds its drawing, and a cycle through a Qt item's wrapper is
        # never collected once Qt has deleted the item (a leaked axis per rebuild).
        self.axis, self.specs = weakref.ref(axis), specs

    def play(self, p: QtGui.QPainter) -> None:
        axis = self.axis()
        if self.specs is None or axis is None:
            return
        p.save()
        try:
            axis.draw_specs(p, *self.specs)
        finally:
            p.restore()


def drop_close(values: Iterable[float], seen: Sequence[float], atol: float) -> list[float]:
    """``values`` without those within ``atol`` of any of ``seen`` (sorted ascending).

    Same result as pyqtgraph's ``~np.any(np.isclose(seen, values[:, None], rtol=0,
    atol=atol), axis=-1)`` mask, by a binary search per value (ticks are a few dozen
    numbers: plain Python beats numpy's per-call overhead here).
    """
    if len(seen) == 0:
        return list(values)
    n = len(seen)
    out = []
    for v in values:
        k = bisect_left(seen, v)
        if (k < n and abs(v - seen[k]) <= atol) or (k > 0 and abs(v - seen[k - 1]) <= atol):
            continue
        out.append(v)
    return out


class _TitleRefits:
    """Axis titles to re-fit, run from the event loop once the layout has settled.

    One application-wide zero-interval timer (a child of the application) and a weak set
    of axes: an axis Qt deleted meanwhile is skipped (``shiboken6.isValid``), one the
    collector freed drops out of the set. A timer per axis, or one bound to the axis
    (``QTimer.singleShot(0, axis, ...)``), segfaulted when the axis was destroyed with
    its window. Axes of a scene no view shows (a closed window) wait for a later run:
    re-fitting them, and re-building their plots' legends, after their window closed
    left the application crashing at exit.
    """

    def __init__(self) -> None:
        self.pending: weakref.WeakSet[FastAxisItem] = weakref.WeakSet()
        self.timer: QtCore.QTimer | None = None

    def post(self, axis: FastAxisItem) -> None:
        self.pending.add(axis)
        timer = self.timer
        if timer is None or not shiboken6.isValid(timer):
            app = QtCore.QCoreApplication.instance()
            if app is None:
                return
            timer = self.timer = QtCore.QTimer(app)
            timer.setSingleShot(True)
            timer.setInterval(0)
            timer.timeout.connect(self.run)
        if not timer.isActive():
            timer.start()

    def run(self) -> None:
        """Re-fit every pending title whose axis is alive and shown. A re-fit changes
        the layout (a title that wraps changes its axis' size), which re-sizes axes
        that need a re-fit in turn: the layout requests are delivered and those run
        too, a few rounds, so that one pass of the event loop settles the plots.

        Each axis re-fitted also measures its tick labels again when the re-size
        dropped them, and takes more room across if they need it
        (:meth:`FastAxisItem.measure_labels`): the labels are otherwise measured only
        when the axis paints. An axis re-sized here after its view's last settle, out of
        sight in a view that scrolls, kept the room of its labels at the old length:
        Sinusoidal's waves in a 1280 × 720 window at 300 % grew from 204 to 336 px
        in this pass, its labels from "−1, 0, 1" to "−1.0, −0.5, …", its left axis
        stayed 74 px of text where they need 116, and its title covered "−0.5"."""
        for _round in range(REFIT_ROUNDS):
            axes = list(self.pending)
            self.pending.clear()
            ran = False
            for axis in axes:
                if not shiboken6.isValid(axis):
                    continue
                if _shown(axis):
                    axis.refit_title()
                    axis.measure_labels()
                    ran = True
                else:
                    self.pending.add(axis)  # (not re-posted: the next post runs it)
            if not ran:
                return
            QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.LayoutRequest.value)


def _shown(item: QtWidgets.QGraphicsItem) -> bool:
    """Whether a visible view shows ``item``'s scene."""
    scene = item.scene()
    return scene is not None and any(view.isVisible() for view in scene.views())


_REFITS = _TitleRefits()


def post_title_refit(axis: FastAxisItem) -> None:
    """Fit ``axis``'s title to its length from the event loop (see :class:`_TitleRefits`)."""
    _REFITS.post(axis)


def run_title_refits(widget: QtWidgets.QWidget) -> int:
    """Run the pending title re-fits of ``widget``'s plots now, shown or not (offscreen
    rendering lays out without an event loop: :mod:`gui.render.snapshot`; a view that
    appears settles before its first paint: ``ViewWidget.showEvent``); returns how
    many ran."""
    axes = list(_REFITS.pending)
    mine = [axis for axis in axes if shiboken6.isValid(axis) and _in_widget(axis, widget)]
    for axis in mine:
        _REFITS.pending.discard(axis)
        axis.refit_title()
    return len(mine)


def _in_widget(item: QtWidgets.QGraphicsItem, widget: QtWidgets.QWidget) -> bool:
    scene = item.scene()
    return scene is not None and any(
        view is widget or widget.isAncestorOf(view) for view in scene.views()
    )


TICK_STRINGS_KEPT = 256  # tick label lists kept (all axes together)
PLAIN_LOG_UP_TO = 1e4  # a log axis ending at or below this labels its ticks as plain numbers
PLAIN_LOG_DOWN_TO = 1e-4  # ... and starting at or above this (else all in powers of ten)


def plain_log_range(view_range: Sequence[float], scale: float = 1.0) -> bool:
    """Whether a log axis over ``view_range`` (log10 units) may label its ticks as plain
    numbers: when it ends at or below :data:`PLAIN_LOG_UP_TO` (and its labels start at
    or above :data:`PLAIN_LOG_DOWN_TO`, :func:`log_tick_labels`). pyqtgraph writes each
    tick to one significant digit with ``%g``, which switches to a power of ten from
    10 on: the deck's wavelength plot (5 … 500) read "5, 10¹, 2·10¹, 5·10¹, 10², 2·10²"
    where "5, 10, 20, 50, 100, 200" is what a lecture says. Wider axes keep the powers
    ("10¹ … 10⁵": "10000" beside "100000" is a row of zeros to count).

    >>> plain_log_range((0.7, 2.7)), plain_log_range((0.7, 4.6)), plain_log_range((-4.5, 0.1))
    (True, False, True)
    """
    return 10.0 ** float(max(view_range)) * scale <= PLAIN_LOG_UP_TO * (1 + 1e-9)


LOG_TICKS_AT_LEAST = 2  # values a log axis shows at least (finer ones added: fine_log_ticks)
FINE_LOG_STEPS = (5.0, 2.0, 1.0)  # mantissas of the steps tried, coarsest first, per decade


def fine_log_ticks(levels: list, low: float, high: float) -> list:
    """``levels`` (pyqtgraph's log tick levels over ``low`` … ``high``, log10 units)
    with a level of evenly spaced plain values added when fewer than
    :data:`LOG_TICKS_AT_LEAST` of theirs lie in the range. pyqtgraph's log ticks are
    decades and their multiples 2 … 9: a range within one of those steps shows none,
    and a training loss from 2.3 to 2.8 read no number at all ("2" at most with some
    padding). The step is the coarsest of 5, 2, 1 × 10ᵏ that puts at least that many
    values in the range (2.4, 2.6, 2.8 there); the values already shown are kept.

    >>> [round(10**v, 6) for v in fine_log_ticks([(None, [])], 0.36, 0.45)[1][1]]
    [2.4, 2.6, 2.8]
    >>> fine_log_ticks([(None, [0.0, 0.30103])], -0.1, 0.4) == [(None, [0.0, 0.30103])]
    True
    """
    low, high = sorted((float(low), float(high)))
    shown = sorted(v for _spacing, values in levels for v in values if low <= v <= high)
    if len(shown) >= LOG_TICKS_AT_LEAST or not high > low:
        return levels
    lo, hi = 10.0**low, 10.0**high
    for power in range(math.floor(math.log10(hi - lo)), math.floor(math.log10(hi - lo)) - 3, -1):
        for mantissa in FINE_LOG_STEPS:
            step = mantissa * 10.0**power
            first, last = math.ceil(lo / step - 1e-9), math.floor(hi / step + 1e-9)
            fine = [math.log10(k * step) for k in range(first, last + 1)]
            fine = [v for v in fine if low <= v <= high]
            extra = drop_close(fine, shown, (high - low) * 1e-6)
            if len(shown) + len(extra) >= LOG_TICKS_AT_LEAST:
                return [*levels, (None, extra)]
    return levels


def log_label_value(value: float) -> float:
    """A log tick's value rounded to the fewest significant digits (up to 6) that
    write it: pyqtgraph's ticks, 10ᵏ × 1 … 9, to one (10 ** log10(2) is 1.9999…), the
    finer ones of :func:`fine_log_ticks` to what they need (2.4, 2.35).

    >>> [log_label_value(v) for v in (1.9999999999, 2.4000000001, 2.35, 0.00025, 499.99999)]
    [2.0, 2.4, 2.35, 0.00025, 500.0]
    """
    for digits in range(1, 7):
        rounded = float(f"{value:.{digits}g}")
        if abs(rounded - value) <= 1e-6 * abs(value):
            return rounded
    return float(f"{value:.6g}")


def power_log_label(value: float) -> str:
    """A log tick's value to one significant digit, as pyqtgraph rounds it, as a power
    of ten ("10⁻⁵", "2·10⁻⁷", "10³"); 1 is "1". The labels of a log axis too wide for
    plain numbers (:func:`plain_log_range`): all alike, where pyqtgraph wrote "0.1,
    0.01, 0.001, 0.0001" beside "10⁻⁵, 10⁻⁶" on Llama 3.1's rotation frequencies.

    >>> [power_log_label(v) for v in (1.0, 0.1, 2e-7, 1000.0000001, 50.0)]
    ['1', '10⁻¹', '2·10⁻⁷', '10³', '5·10¹']
    """
    rounded = log_label_value(value)
    if rounded == 1.0 or rounded <= 0:
        return f"{rounded:g}"
    mantissa, exponent = f"{rounded:.6e}".split("e")
    text = f"{mantissa.rstrip('0').rstrip('.')}e{exponent}"
    return powers_of_ten(text).removeprefix("1·")


def log_tick_labels(
    values: Sequence[float], scale: float, view_range: Sequence[float]
) -> list[str]:
    """The labels of a log axis' ticks at ``values`` (log10 units, times ``scale``):
    plain numbers where :func:`plain_log_labels` (the axis ends at or below 10⁴ and
    reaches no decade below :data:`PLAIN_LOG_DOWN_TO`), else all as powers of ten
    (:func:`power_log_label`):
    Llama 3.1's rotation frequencies, to 10⁻⁷, read "0.1, 0.01, 0.001, 0.0001" beside
    "10⁻⁵, 10⁻⁶, 10⁻⁷" (pyqtgraph's), or "0.0000001" (plain), now "10⁻¹ … 10⁻⁷".

    >>> log_tick_labels([-4.0, -2.0, 0.0], 1.0, (-4.3, 0.1))
    ['0.0001', '0.01', '1']
    >>> log_tick_labels([-7.0, -4.0, 0.0], 1.0, (-7.2, 0.1))
    ['10⁻⁷', '10⁻⁴', '1']

    The choice follows the axis' range, not the values of one call: pyqtgraph asks
    once per tick level, and RoPE's linear-×4 frequencies (to 10⁻⁵·³, lecture scene 11)
    read "1, 0.01, 0.0001" (decades, all ≥ 10⁻⁴) between "10⁻¹, 10⁻³, 10⁻⁵" (the
    level between them) on one axis. The lowest decade in the range decides for every
    level (a range within one decade: its top):

    >>> log_tick_labels([-4.0, -2.0, 0.0], 1.0, (-5.3, 0.1))
    ['10⁻⁴', '10⁻²', '1']
    >>> log_tick_labels([-3.0, -1.0], 1.0, (-5.3, 0.1))
    ['10⁻³', '10⁻¹']
    """
    label = plain_log_label if plain_log_labels(view_range, scale) else power_log_label
    return [label(10.0 ** float(v) * scale) for v in values]


def plain_log_labels(view_range: Sequence[float], scale: float = 1.0) -> bool:
    """Whether every tick of a log axis over ``view_range`` (log10 units) is labelled
    as a plain number (:func:`log_tick_labels`): it ends at or below
    :data:`PLAIN_LOG_UP_TO` and its lowest decade (a range within one decade: its top)
    is at or above :data:`PLAIN_LOG_DOWN_TO`.

    >>> plain_log_labels((-4.3, 0.1)), plain_log_labels((-5.3, 0.1)), plain_log_labels((-4.8, -4.2))
    (True, False, False)
    """
    bottom, top = float(min(view_range)), float(max(view_range))
    low = 10.0 ** min(math.ceil(bottom - 1e-9), top) * scale
    return plain_log_range(view_range, scale) and low >= PLAIN_LOG_DOWN_TO * (1 - 1e-9)


def plain_log_label(value: float) -> str:
    """A log tick's value to one significant digit, as pyqtgraph rounds it, written
    without a power of ten ("20", "500", "0.003", "10000"); below 10⁻⁴ (a minor tick
    in a plain axis' padding) as a power (:func:`power_log_label`).

    >>> [plain_log_label(v) for v in (5.0, 20.000000001, 499.99999, 0.003, 1e4, 5e-5)]
    ['5', '20', '500', '0.003', '10000', '5·10⁻⁵']
    """
    rounded = log_label_value(value)
    if 0 < rounded < PLAIN_LOG_DOWN_TO * (1 - 1e-9):
        return power_log_label(rounded)
    text = f"{rounded:.12f}".rstrip("0").rstrip(".")
    return text or "0"


_TICK_STRINGS: dict[tuple, list[str]] = {}

SPEC_CACHE_SIZE = 64  # draw specs kept (all axes together), the least recently used dropped
_SPEC_CACHE: OrderedDict[tuple, tuple] = OrderedDict()


SHIFTS_KEPT = 64  # label layouts kept to place anew (all axes together), LRU
_SHIFTS: OrderedDict[tuple, LabelShift] = OrderedDict()


def _spec_values(layout: AxisLayout, kept: list) -> tuple:
    """The numbers, texts and pens of a layout's specs and the labels kept, to compare
    two (``QRectF ==`` is fuzzy; these are exact)."""
    assert layout.specs is not None
    axis_spec, ticks, labels = layout.specs

    def line(spec: tuple) -> tuple:
        pen, p1, p2 = spec
        return (id(pen), p1.x(), p1.y(), p2.x(), p2.y())

    def text(spec: tuple) -> tuple:
        rect, flags, string = spec
        return (rect.getRect(), int(flags), string)

    return (
        line(axis_spec),
        [line(t) for t in ticks],
        [text(t) for t in labels],
        [text(t) for t in kept],
        layout.text_size,
        list(layout.label_ticks),
        layout.spacings,
    )


_PLAIN = frozenset({int, float, bool, str, type(None)})  # style entries kept as they are


def _frozen(value: object) -> object:
    """``value`` (an axis style's entry) as a hashable key: lists as tuples, fonts by
    their key."""
    if type(value) in _PLAIN:  # (most entries: checked first, a key per axis per frame)
        return value
    if isinstance(value, dict):
        return tuple(sorted((k, v if type(v) in _PLAIN else _frozen(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        if _PLAIN.issuperset(map(type, value)):  # (numbers: no call per entry)
            return tuple(value)
        return tuple(_frozen(v) for v in value)
    if isinstance(value, QtGui.QFont):
        return font_key(value)
    if isinstance(value, QtGui.QPen):
        return _pen_key(value)
    return value


KEYS_KEPT = 8  # fonts and pens whose keys are kept (the axes use a few)
_V = TypeVar("_V", QtGui.QFont, QtGui.QPen)
_K = TypeVar("_K")
_R = TypeVar("_R")
_FONT_KEYS: list[tuple[QtGui.QFont, str]] = []
_PEN_KEYS: list[tuple[QtGui.QPen, tuple]] = []


def _kept_key(kept: list[tuple[_V, _K]], value: _V, make: Callable[[_V], _K]) -> _K:
    """The key of ``value`` among the last :data:`KEYS_KEPT` in ``kept`` (a value
    ``==`` to one kept has its key; a copy of each is kept: a value changed in place
    is another), else ``make(value)`` kept for a copy of it, newest first."""
    for known, key in kept:
        if known == value:
            return key
    key = make(value)
    kept.insert(0, (type(value)(value), key))  # (a copy: Qt's copy constructor)
    del kept[KEYS_KEPT:]
    return key


#: where a tick label's ink begins below the top of its line, by font, resolution
#: and text (see :func:`ink_top`)
_INK_TOPS: dict[tuple[str, int, str], float] = {}
INK_MARGIN = 2.0  # px a label's ink is taken to start above its glyphs' own box


def ink_top(font: QtGui.QFont, device: QtGui.QPaintDevice | None, text: str) -> float:
    """How far below the top of its line ``text``'s ink may begin, drawn in ``font`` on
    ``device``: the ascent less the top of its glyphs' tight box
    (``QFontMetricsF.tightBoundingRect``), less :data:`INK_MARGIN` for the baseline's
    rounding and the glyphs' antialiased edges; ``-inf`` for text of several lines.

    A bottom axis' label is drawn from the top of its rectangle; a label's reach
    (:meth:`FastAxisItem._placed`) runs a quarter line above it for any text. The
    repaint of a plot's data reaches the axis below (its ticks point up into the data,
    and Qt adds 2 px for antialiasing): every label's reach met it, and each label
    was drawn, on every frame of a drag, into pixels the clip then threw away."""
    if "\n" in text:
        return -math.inf
    key = (font_key(font), device.logicalDpiY() if device is not None else 0, text)
    top = _INK_TOPS.get(key)
    if top is None:
        if len(_INK_TOPS) >= 4096:
            _INK_TOPS.clear()
        metrics = QtGui.QFontMetricsF(font) if device is None else QtGui.QFontMetricsF(font, device)
        glyphs = metrics.ascent() + metrics.tightBoundingRect(text).top()
        top = _INK_TOPS[key] = glyphs - INK_MARGIN
    return top


def font_key(font: QtGui.QFont) -> str:
    """``font.key()``, kept for the last :data:`KEYS_KEPT` fonts (:func:`_kept_key`:
    ``key()`` is ten times the comparison, four per axis and frame)."""
    return _kept_key(_FONT_KEYS, font, QtGui.QFont.key)


# the picture and painter FastAxisItem measures its tick text with (_make_drawing)
_MEASURING = (QtGui.QPicture(), QtGui.QPainter())


def _style_key(style: dict) -> tuple:
    """An axis style (a dict of plain entries, lists and a font) as a hashable key:
    :func:`_frozen` of its entries, in its own order (pyqtgraph's, fixed).

    Kept per style dict with a copy of its entries (:func:`_snapshot`): a style whose
    entries compare equal to the copy (``==``: a list or font changed in place is
    another) has the key made for it (the key of each axis was made anew on every
    frame, a tenth of an axis' specs)."""
    names, values = tuple(style), tuple(style.values())
    kept = _STYLE_KEYS.get(id(style))
    if kept is not None and kept[0] == names and kept[1] == values:
        return kept[2]
    key = (names, tuple([v if type(v) in _PLAIN else _frozen(v) for v in values]))
    if len(_STYLE_KEYS) >= STYLE_KEYS_KEPT:
        _STYLE_KEYS.clear()
    _STYLE_KEYS[id(style)] = (names, tuple([_snapshot(v) for v in values]), key)
    return key


STYLE_KEYS_KEPT = 256  # style dicts whose keys are kept (emptied when full)
_STYLE_KEYS: dict[int, tuple[tuple, tuple, tuple]] = {}


def _snapshot(value: object) -> object:
    """A copy of a style entry that compares equal to it until it is changed: plain
    values as they are, lists, tuples and dicts copied (their items too), fonts and
    pens by Qt's copy constructor."""
    if type(value) in _PLAIN:
        return value
    if isinstance(value, list):
        return [_snapshot(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_snapshot(v) for v in value)
    if isinstance(value, dict):
        return {k: _snapshot(v) for k, v in value.items()}
    if isinstance(value, QtGui.QFont):
        return QtGui.QFont(value)
    if isinstance(value, QtGui.QPen):
        return QtGui.QPen(value)
    return value


def _pen_key(pen: QtGui.QPen) -> tuple:
    """What of ``pen`` the draw specs carry, as a hashable key; kept for the last
    :data:`KEYS_KEPT` pens as :func:`font_key` keeps fonts' (a pen ``==`` to a copy
    kept has all of these the same)."""
    return _kept_key(_PEN_KEYS, pen, _made_pen_key)


def _made_pen_key(pen: QtGui.QPen) -> tuple:
    """:func:`_pen_key` worked out."""
    brush = pen.brush()
    return (
        brush.color().rgba(),
        brush.style().value,
        pen.widthF(),
        pen.style().value,
        pen.isCosmetic(),
        pen.capStyle().value,
        pen.joinStyle().value,
    )


def _spans_pen(pen: QtGui.QPen) -> bool:
    """Whether a line ``pen`` strokes is drawn as the pixel span it covers (see
    :meth:`FastAxisItem._placed`): an aliased cosmetic one-pixel solid line, its cap
    not flat (which leaves out the last pixel). Kept for the last pens asked, compared
    with ``==`` (Qt's enums cost a dozen calls a pen, and each level's tick pen is
    made anew with the specs: one per level per frame of a drag)."""
    for known, spans in _SPAN_PENS:
        if known == pen:
            return spans
    spans = bool(
        pen.isCosmetic()
        and pen.widthF() == 1.0
        and pen.style() == _SOLID_LINE
        and pen.brush().style() == _SOLID_BRUSH
        and pen.capStyle() != _FLAT_CAP
    )
    _SPAN_PENS.insert(0, (QtGui.QPen(pen), spans))  # (a copy: Qt's copy constructor)
    del _SPAN_PENS[KEYS_KEPT * 2 :]
    return spans


#: (a copy of a pen, whether it is drawn as spans), newest first: see _spans_pen
_SPAN_PENS: list[tuple[QtGui.QPen, bool]] = []


class FastAxisItem(pg.AxisItem):
    """``AxisItem`` with the same output and a faster draw-spec generation and paint.

    * Draw specs (:meth:`generateDrawSpecs`) equal pyqtgraph's; text sizes are measured
      once per string and font.
    * Qt's raster engine draws an aliased *semi-transparent* cosmetic line pixel by pixel
      (~0.3 µs a pixel: several ms for the grid of one plot). When the painter maps to
      raster pixels by a pure translation, such a horizontal or vertical line is filled as
      the one-pixel span it covers (``floor`` of the device coordinates, both ends
      included): pixel-identical and much faster. Other lines, and scaled or vector
      (SVG/PDF/QPicture) painting, are drawn as before.
    * The draw specs are kept instead of being recorded into a ``QPicture`` and played:
      replaying them (spans and text) is cheaper than recording and playing a picture.
    """

    _label_fit: tuple | None = None  # (html, room) the title was last fitted to
    picture: _AxisDrawing | None  # (pyqtgraph's; None: the specs are made anew)
    keep_labels = False
    """Every tick label is drawn (word ticks: tokens, model names): they shrink, down to
    the last of :data:`WORD_TICK_SCALES`, instead of being left out when they crowd.
    Where they crowd even there, every ``k``-th word is drawn, the first included, for
    the smallest ``k`` at which none touches another, at the largest of those sizes
    that fits (:func:`thinned_words`); all of them only where fewer than two would stay."""
    index_labels = False
    """The explicit ticks label every index of a small grid: they shrink, down to the
    last of :data:`INDEX_TICK_SCALES`, to keep all of them; at that size the first and
    last index stay when some must be left out."""
    tile_spans: tuple[tuple[float, float], ...] = ()
    """``(first, last)`` cell of each tile of a mosaic along the axis (ALiBi's heads):
    its explicit ticks are labelled per tile (:func:`~gui.render.axis_specs.tile_labels`)."""
    stage = False
    """The axis is on stage (presentation mode): :attr:`index_labels` shrink no further
    than :data:`STAGE_INDEX_FLOOR` (the grid gives them the room: ``stage`` of
    :func:`index_label_pitch`)."""
    tick_scale = 1.0  # the tick labels' size relative to the style's, as last drawn
    # (spec, finest level) per label same_decimals wrote last (None: none written anew)
    _relabelled: list[tuple[tuple, int | None]] | None = None
    _last_shift_key: tuple | None = None  # the shift key of the last specs worked out
    _shift_served = False  # a LabelShift served the axis since it last kept one
    #: index label sizes (tick scales) that did not fit once the axis took their room,
    #: in the room the axis and its data share (:meth:`_grew_in_index_room`), and that room
    _shrunk_from: frozenset[float] = frozenset()
    _shrunk_in: tuple | None = None
    _index_extent = 0.0  # px across the axis when its index labels were last sized
    _held_key: tuple | None = None  # what the held tick text room is for
    _held_room = 0.0  # px: see held_text_room
    _fresh_room = False  # the next text room is reported as to a new axis (forget_text_room)
    _sized_for: tuple | None = None  # (plot width, height, tick font, scale) of the last room
    _text_need: float | None = None  # px: what the last draw specs' text needed
    _drag_reserve: float | None = None  # px: the drag's doubled_text_size (once)
    _drag_new_data = False  # the plot showed new data during the drag (release_text_room)
    drag_hold = False
    """A slider drags (:meth:`hold_for_drag`): new data keeps the room held for the
    tick text (:meth:`held_text_room`) instead of releasing it."""
    title_length: float | None = None
    """px a horizontal axis' title has, centred on the axis, when not the axis' length
    (a square matrix's plot has its spare width beside its axes: the title keeps the
    width it had without it, see ``CellDisplay._hug_square``)."""
    spare_below = 0
    """px of its plot's height below its bottom axis that its data does not use (a
    square matrix narrower than its plot is tall, see ``CellDisplay._hug_square``): a
    vertical axis' title is centred on the axis (the matrix), within
    :meth:`title_span`, instead of on the span."""

    on_axis = False
    """Whether a vertical axis' title is centred on the axis (the matrix) rather than
    on its span (:meth:`set_spare_below`)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._text_sizes: dict[str, tuple[float, float]] = {}
        self._text_font_key: tuple | None = None
        self._length_listeners: list[weakref.WeakMethod] = []
        # Qt tells paint() which part of the axis it repaints (exposedRect): an axis
        # whose ticks reach into its plot's data is repainted with every change of the
        # data there, its labels outside that part (clipped away) need not be drawn
        self.setFlag(self.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self._exposed: QtCore.QRectF | None = None
        self.drawn_labels = 0  # tick labels the last paint drew (tests)
        # (tick specs, text specs, dx, dy, axis spec, placed line, ticks, labels): _placed
        self._placement: tuple | None = None

    # ------------------------------------------------------------------ title
    def resizeEvent(self, ev: object = None) -> None:
        """Place the title (pyqtgraph's) and post a re-fit of its lines
        (:meth:`refit_title`) to the event loop.

        Nothing is measured or re-sized inside this Qt virtual: it also runs while Qt
        destroys the plot (the grid lets go of its items), where changing size
        constraints, or a timer bound to the dying axis, crashed the window's teardown.
        """
        label = vars(self).get("label", False)
        if label is False or (label is not None and not shiboken6.isValid(label)):
            return  # teardown: the collector cleared the wrapper, or Qt deleted its title
        super().resizeEvent(ev)
        if label is not None:
            post_title_refit(self)

    def labelString(self) -> str:
        """pyqtgraph's title HTML less the space it writes for units where there are
        none: ``"key j "`` was centred with that space, so its ink sat half a space
        before the axis' centre (3 px left under the course grid at 1600 x 1000 /
        100 %, 2 px low beside it)."""
        html = str(super().labelString())
        if html.endswith(" </span>"):  # the empty units' separator
            html = html[: -len(" </span>")] + "</span>"
        return html

    def setLabel(self, *args: object, **kwargs: object) -> None:
        """pyqtgraph's; a new title is fitted to the axis again (:meth:`refit_title`)."""
        super().setLabel(*args, **kwargs)
        post_title_refit(self)

    def set_title_length(self, length: float | None) -> None:
        """Give a horizontal axis' title ``length`` px centred on the axis (``None``: the
        axis' length; :attr:`title_length`); fitted again from the event loop."""
        if length != self.title_length:
            self.title_length = length
            if vars(self).get("label") is not None:
                post_title_refit(self)

    def set_spare_below(self, spare: int, *, on_axis: bool = False) -> None:
        """Centre a vertical axis' title on the axis itself while its plot has ``spare``
        px below its bottom axis (:attr:`spare_below`), or is a square matrix as wide as
        its data's column (``on_axis``: the view holds its row at the matrix's height,
        none spare: its title centred on the span stood half the bottom axis below the
        matrix's middle); placed again from the event loop. The title's room
        (:meth:`title_span`) does not change with it."""
        centred = spare > 0 or on_axis
        if spare != self.spare_below or centred != self.on_axis:
            self.spare_below, self.on_axis = spare, centred
            if vars(self).get("label") is not None:
                post_title_refit(self)

    def add_length_listener(self, method: Callable[[float], object]) -> None:
        """Call the bound ``method(length)`` from the event loop after the axis was
        resized (length along the axis, px); held weakly."""
        self._length_listeners.append(weakref.WeakMethod(method))

    def refit_title(self) -> None:
        """Wrap the title to the axis' length (:meth:`fit_label`) and, when its size
        changed, re-size the axis across and place the title again; then tell the
        length listeners."""
        if self.label is None or self.parentLayoutItem() is None or self.scene() is None:
            return  # out of its plot's grid (being destroyed): nothing to fit
        if self.fit_label():
            self.showLabel(True)  # re-computes the room across for the new title size
            super().resizeEvent(None)
        self.place_title()
        vertical = self.orientation in ("left", "right")
        length = float(self.size().height() if vertical else self.size().width())
        for ref in self._length_listeners:
            method = ref()
            if method is not None:
                method(length)

    def title_span(self) -> tuple[float, float]:
        """Where along the axis its title may sit: ``(start, length)`` in the axis'
        coordinates. A vertical axis of a plot has the plot's height under its title
        row: the data, the strip above it (a legend on the top axis, see
        ``gui.plotting.legend_strip``) and the empty corner beside the bottom axis;
        the title is centred on that. That room does not change when the strip or
        the bottom axis grow (the data gets shorter by as much), so the title's
        lines, the axis' width, the strip's columns and its height cannot chase each
        other; and a short plot's title has more room than its data's height. A
        horizontal axis' title has the axis' length, or :attr:`title_length` centred
        on it."""
        vertical = self.orientation in ("left", "right")
        length = float(self.size().height() if vertical else self.size().width())
        if not vertical:
            if self.title_length is None:
                return 0.0, length
            return (length - self.title_length) / 2, self.title_length
        plot = self.parentItem()
        if not isinstance(plot, pg.PlotItem) or self.parentLayoutItem() is None:
            return 0.0, length
        top = plot.getAxis("top")
        if top is self:
            return 0.0, length
        # (shown on the plot: a hidden plot's axes are not isVisible(), see fit_label)
        first = top.geometry().top() if top.isVisibleTo(plot) else self.geometry().top()
        above = max(0.0, self.geometry().top() - first)
        below = max(0.0, plot.size().height() - self.geometry().bottom())
        return -above, length + above + below

    def place_title(self) -> None:
        """Centre the title on :meth:`title_span` at its scale (pyqtgraph's centres
        the unscaled title on the axis)."""
        label = self.label
        if label is None:
            return
        # Always placed here, also where pyqtgraph's own place would do (no span, no
        # scale: the same formula): pyqtgraph places the title only when the axis is
        # resized, so a new title on an axis of the same size stayed where the old one
        # had been centred (DeBERTa's "key j (keys 0..40, …)" ran past its plot's end).
        start, length = self.title_span()
        scale = label.scale()
        br = label.boundingRect()
        if self.orientation in ("left", "right"):
            centre = start + length / 2
            if self.on_axis:  # on the matrix, within the span
                half = br.width() * scale / 2
                mid = self.size().height() / 2
                centre = min(max(mid, start + half), max(start + length - half, start + half))
            pos = QtCore.QPointF(label.pos().x(), int(centre + br.width() * scale / 2))
        elif self.orientation == "bottom":
            pos = QtCore.QPointF(
                int(start + length / 2 - br.width() * scale / 2),
                int(self.size().height() - br.height() * scale + TITLE_NUDGE),
            )
        else:
            return
        if label.pos() != pos:
            label.setPos(pos)

    def fit_label(self) -> bool:
        """Fit the title into the axis' room (:meth:`title_span`): one line when it
        fits, else centred lines as long as the room, at most :data:`MAX_TITLE_LINES`
        of them; when that takes more lines, or a word is longer than the room (a
        short axis at a large UI scale), the largest of :data:`TITLE_SCALES` at which
        it fits. A long title ("wavelength (positions)" on a short plot) ran past the
        plot's ends into its neighbours; three or more lines of a vertical title took
        the data's width. Returns whether the title's size changed.

        A title shown on its axis is fitted also while its plot is hidden (a scene
        reveals it later, its place kept and re-sized with the canvas): ``isVisible()``
        is false under a hidden plot, and showing the plot re-sizes nothing, so the
        title kept the length of the plot it was last fitted to."""
        label = self.label
        if label is None or not label.isVisibleTo(self):
            return False
        # whole pixels: a room a fraction longer or shorter (the plot a fraction of a
        # pixel taller on another way to the same layout) kept the lines wrapped to
        # the other, a fraction of a pixel apart (Sinusoidal's wavelength title)
        room = math.floor(self.title_span()[1] - 4)
        html = label.toHtml()
        key = (html, room)
        if key == self._label_fit:
            return False
        before = (label.boundingRect().size(), label.scale())
        document = label.document()
        if label.textWidth() >= 0:
            label.setTextWidth(-1)
        natural = _text_width(document)
        scale = 1.0
        if room > 8 and natural > room:
            option = document.defaultTextOption()
            option.setAlignment(_ALIGN.AlignHCenter)
            option.setWrapMode(QtGui.QTextOption.WrapMode.WordWrap)  # never inside a word
            document.setDefaultTextOption(option)
            for scale in TITLE_SCALES:
                width = room / scale
                label.setTextWidth(max(width, 24.0))
                widest = _text_width(document)
                if widest <= width and _line_count(document) <= MAX_TITLE_LINES:
                    break
        if label.scale() != scale:
            label.setScale(scale)
        self._label_fit = (label.toHtml(), room)
        return (label.boundingRect().size(), label.scale()) != before

    # ------------------------------------------------------------------ paint
    def paint(self, p: QtGui.QPainter, opt: object, widget: object) -> None:
        if self.draws_nothing():
            return
        picture = self.picture if self.picture is not None else self._make_drawing()
        # the part Qt repaints (ItemUsesExtendedStyleOption): see draw_specs
        self._exposed = getattr(opt, "exposedRect", None)
        try:
            picture.play(p)
        finally:
            self._exposed = None

    def draws_nothing(self) -> bool:
        """Whether the axis paints nothing of its own: no values, and no line or ticks
        (a legend strip's axis, :mod:`gui.plotting.legend_strip`; a title is an item of
        its own). Such an axis spans its plot's data and was painted with every change
        of the data: a loop over its invisible ticks (50-100 a plot, a few plots a frame)."""
        if self.style["showValues"]:
            return False
        pen, tick_pen = axis_pens(self)  # (as set: pen() and tickPen() make copies)
        return pen.style() == _NO_PEN and tick_pen.style() == _NO_PEN

    def _measured(self, work: Callable[[QtGui.QPainter], _R]) -> _R:
        """``work(painter)`` on the device ``AxisItem.paint`` measures text on, in the
        tick font (a QPicture: one kept and painted on anew, begin() empties it; a new
        picture and painter were a tenth of an axis' specs)."""
        picture, painter = _MEASURING
        if painter.isActive():  # (in use: specs made while making specs)
            picture, painter = QtGui.QPicture(), QtGui.QPainter()
        painter.begin(picture)
        try:
            if self.style["tickFont"]:
                painter.setFont(self.style["tickFont"])
            return work(painter)
        finally:
            painter.end()

    def _make_drawing(self) -> _AxisDrawing:
        specs = self._measured(self.generateDrawSpecs)
        drawing = self.picture = _AxisDrawing(self, specs)
        return drawing

    def prepare_specs(self) -> bool:
        """Generate the draw specs now, as the next paint would (``True`` when it did).

        The specs report the tick labels' size, which can resize the axis and re-lay out
        its plot: done before the paint (:func:`gui.render.settle.settle`), the paint
        draws the settled layout once instead of painting, re-laying out and painting
        again. Hidden axes, and axes outside a scene, are left to their paint.
        """
        if self.picture is not None or not self.isVisible() or self.scene() is None:
            return False
        self._make_drawing()
        return True

    def measure_labels(self) -> bool:
        """Widen the axis across now if its tick labels and title need more room than
        it has (``True`` when it did): the specs worked out as the next paint would
        (the linked view box's range brought up to date first, as
        :func:`gui.render.settle.settle` does), shown on screen or not.

        Only ever more room (held as a paint holds it, :meth:`held_text_room`), and no
        specs kept: the paint (or a settle) makes them again (from the cache) and
        reports their room as always. Room taken back here as well chased a feedback
        that no paint or settle meets: Word order's heatmaps at 1280 × 720 / 200 %
        after a focus and back took turns at index labels 71 and 75 px high, a data
        area 2 px narrower and back, on every pass of the event loop."""
        if self.picture is not None or not self.isVisible() or self.scene() is None:
            return False
        view = self.linkedView()
        if isinstance(view, pg.ViewBox):
            view.prepareForPaint()
        found = self._measured(self._specs)
        if found is None:
            return False
        need = found[0].text_size + self.title_clearance(found[0].text_size)
        vertical = self.orientation in ("left", "right")
        if need <= (self.textWidth if vertical else self.textHeight):
            return False
        # held as a paint's would be (the paint that scrolls it into sight keeps it)
        report_text_size(self, self.held_text_room(need))
        return True

    def draw_specs(
        self, p: QtGui.QPainter, axis_spec: tuple, tick_specs: list, text_specs: list
    ) -> None:
        """``AxisItem.drawPicture``, axis-parallel lines filled as pixel spans when exact."""
        t = pixel_translation(p)
        if t is None or p.opacity() != 1.0:
            self.drawPicture(p, axis_spec, tick_specs, text_specs)
            return
        dx, dy = t.dx(), t.dy()
        line, ticks, texts = self._placed(p, axis_spec, tick_specs, text_specs, dx, dy)
        bounds = self.boundingRect()
        # Only what Qt repaints: the painter is clipped to it. (Exposed rectangles are
        # whole pixels, rounded outwards; a label's text may run past its rectangle, a
        # quarter line up and down (see box_edges) and its ink a pixel sideways: a label
        # is drawn when its rectangle grown by that meets the exposed part.)
        exposed, region = self._exposed, None
        if exposed is not None and exposed.isEmpty():
            # none of it, or no exposed part given: Qt gives an empty one to an item
            # that only touches the region it repaints (a heatmap's bottom axis beside
            # its data), which drew every label into pixels the clip threw away
            exposed, region = None, self._repainted(p, bounds, dx, dy)
        else:
            if exposed is not None and exposed.contains(bounds):
                exposed = None
            # the labels are tested on the region repainted too, finer than the
            # exposed box (a bottom axis' labels below the strip of it that a repaint
            # of the data above exposes: see ink_top)
            clip = p.paintEngine().systemClip()
            region = None if clip.isEmpty() else clip
        missed = region is not None and region.isEmpty()
        p.setRenderHint(p.RenderHint.Antialiasing, False)
        p.setRenderHint(p.RenderHint.TextAntialiasing, True)
        span, color, pen, p1, p2 = line  # (always drawn: it may run a pixel past the bounds)
        if span is None:
            p.setPen(pen)
            p.drawLine(p1, p2)
        else:
            p.fillRect(span, color)
        for span, color, pen, p1, p2 in ticks:
            if span is None:
                p.setPen(pen)
                p.drawLine(p1, p2)
            elif not missed and (exposed is None or exposed.intersects(span)):
                p.fillRect(span, color)  # (a fill costs less than testing it on the region)
        font = self.tick_font()
        if font is not None:
            p.setFont(font)
        p.setPen(text_pen(self))
        p.setClipRect(bounds.toAlignedRect())
        drawn = 0
        for rect, reach, flags, text, ink in texts:
            if exposed is not None and not exposed.intersects(reach):
                continue
            if region is not None and (missed or not region.intersects(ink)):
                continue
            p.drawText(rect, flags, text)
            drawn += 1
        self.drawn_labels = drawn

    def _repainted(
        self, p: QtGui.QPainter, bounds: QtCore.QRectF, dx: float, dy: float
    ) -> QtGui.QRegion | None:
        """What of the axis ``p`` repaints, when it repaints only part: the painter's
        system clip (device pixels: the region a view repaints, finer than the
        exposed rectangle, its bounding box) when it meets the axis' ``bounds``
        (translated by ``(dx, dy)`` to device pixels, a pixel more all round: the
        labels are clipped to the bounds rounded outwards) but does not hold all of
        them; an empty region when it misses them: none of the labels and tick spans,
        which lie inside the bounds, is drawn then (a heatmap's bottom axis touching
        the repainted data had an empty exposed rectangle, i.e. "all", and drew every
        label into pixels the clip then threw away); ``None`` for all of it, or no
        system clip."""
        clip = p.paintEngine().systemClip()
        x, y, w, h = bounds.x(), bounds.y(), bounds.width(), bounds.height()
        reach = abs(x + dx) + abs(y + dy) + w + h  # (< _FAR: finite, within a QRect)
        if clip.isEmpty() or not (w > 0 and h > 0 and reach < _FAR):
            return None
        # (bounds.translated(dx, dy).toAlignedRect().adjusted(-1, -1, 1, 1), in floats)
        left, top = math.floor(x + dx) - 1, math.floor(y + dy) - 1
        right, bottom = math.ceil(x + w + dx) + 1, math.ceil(y + h + dy) + 1
        box = QtCore.QRect(left, top, right - left, bottom - top)
        if not clip.intersects(box):
            return QtGui.QRegion()
        if QtGui.QRegion(box).subtracted(clip).isEmpty():
            return None
        return clip

    tick_placements = 0  # tick and label sets placed for a paint (tests)

    def _placed(
        self,
        p: QtGui.QPainter,
        axis_spec: tuple,
        tick_specs: list,
        text_specs: list,
        dx: float,
        dy: float,
    ) -> tuple[tuple, list[tuple], list[tuple]]:
        """What :meth:`draw_specs` draws for these specs at the device translation
        ``(dx, dy)``: the axis line and the ticks in order, each ``(span, colour, None,
        None, None)`` for an axis-parallel one-pixel line filled as the device pixels
        it covers (in item coordinates) or ``(None, None, pen, p1, p2)`` for a line the
        pen strokes (an aliased cosmetic one-pixel solid line's span: the same pixels,
        ``floor`` of both ends included; not with a flat cap, which leaves out the last
        one); the labels, each ``(rect, reach, flags, text, ink)`` with ``reach`` the
        rectangle its ink may cover and ``ink`` the device pixels it may set (``reach``
        in whole device pixels; a bottom axis' labels less what lies above their
        glyphs, :func:`ink_top`). Kept for the specs, translation and device of the
        last paint: an axis that did not change is repainted with every change of the
        data beside it (a heatmap's, a curve plot's), without its ticks placed anew."""
        kept = self._placement
        device = p.device()
        dpi = device.logicalDpiY() if device is not None else 0
        if (
            kept is not None
            and kept[0] is tick_specs
            and kept[1] is text_specs
            and kept[2] == dx
            and kept[3] == dy
            and kept[4] is axis_spec
            and kept[8] == dpi
        ):
            return kept[5], kept[6], kept[7]
        FastAxisItem.tick_placements += 1
        floor = math.floor
        placed: list[tuple] = []
        last_pen, fast, color = None, False, None
        for pen, p1, p2 in (axis_spec, *tick_specs):  # (the line: a span, not stroked)
            if pen is not last_pen:
                last_pen = pen
                fast = _spans_pen(pen)
                color = pen.color()
            x1, y1, x2, y2 = p1.x(), p1.y(), p2.x(), p2.y()
            if fast and math.isfinite(x1 + x2 + y1 + y2):
                if y1 == y2 and x1 != x2:
                    # the device pixels the aliased line covers, back in item coordinates
                    c1, c2 = floor(min(x1, x2) + dx), floor(max(x1, x2) + dx)
                    row = floor(y1 + dy)
                    span = QtCore.QRectF(c1 - dx, row - dy, c2 - c1 + 1, 1)
                    placed.append((span, color, None, None, None))
                    continue
                if x1 == x2 and y1 != y2:
                    r1, r2 = floor(min(y1, y2) + dy), floor(max(y1, y2) + dy)
                    col = floor(x1 + dx)
                    span = QtCore.QRectF(col - dx, r1 - dy, 1, r2 - r1 + 1)
                    placed.append((span, color, None, None, None))
                    continue
            placed.append((None, None, pen, p1, p2))
        line, ticks = placed[0], placed[1:]
        texts = []
        last_flags, as_int, from_top = None, 0, False
        font = self.tick_font() if self.orientation == "bottom" else None
        for rect, flags, text in text_specs:
            if flags is not last_flags:  # (one per axis: int() of a Qt flag is slow)
                last_flags, as_int = flags, int(flags)
                from_top = as_int & _VERTICAL_ALIGN == _TOP_ALIGN
            q = rect.height() / 4
            reach = rect.adjusted(-LABEL_INK, -q, LABEL_INK, q)
            ink = reach
            if font is not None and from_top:  # (drawn from the top of its rectangle down)
                top = rect.top() + ink_top(font, device, text)
                if top > reach.top():
                    ink = QtCore.QRectF(reach)
                    ink.setTop(top)
            texts.append((rect, reach, as_int, text, ink.translated(dx, dy).toAlignedRect()))
        self._placement = (tick_specs, text_specs, dx, dy, axis_spec, line, ticks, texts, dpi)
        return line, ticks, texts

    # ------------------------------------------------------------------ ticks
    data_limits: tuple[float, float] | None = None
    """Ticks only within these values (the data of a plot whose range is padded to keep
    its aspect: labels then do not depend on the padding, nor the axis width on them)."""

    whole_ticks = False
    """Ticks at whole numbers only (a colour bar of integer values: Shaw's index 0..4
    read "0 0.5 1 1.5 … 4", indices that do not exist): :meth:`set_whole_ticks`."""

    def set_whole_ticks(self, whole: bool) -> None:
        """Set :attr:`whole_ticks` (the axis is drawn anew when it changed)."""
        if whole != self.whole_ticks:
            self.whole_ticks = whole
            self.picture = None
            self.update()

    def tickSpacing(self, minVal: float, maxVal: float, size: float) -> list:
        """pyqtgraph's tick levels; with :attr:`whole_ticks` those spaced by at least
        1 (a spacing of 1 where none is)."""
        levels = super().tickSpacing(minVal, maxVal, size)
        if not self.whole_ticks or self.logMode:
            return levels
        whole = [(spacing, offset) for spacing, offset in levels if spacing >= 1 - 1e-9]
        return whole or [(1.0, 0.0)]

    def tickValues(self, minVal: float, maxVal: float, size: float) -> list:
        """pyqtgraph's tick values (same arithmetic, in plain floats), de-duplicated by a
        sorted neighbour search; only within :attr:`data_limits` when set."""
        limits = self.data_limits
        if limits is not None and not self.logMode:
            lo, hi = limits
            return [
                (spacing, [v for v in values if lo - 1e-9 * spacing <= v <= hi + 1e-9 * spacing])
                for spacing, values in self._tick_values(minVal, maxVal, size)
            ]
        return self._tick_values(minVal, maxVal, size)

    def _tick_values(self, minVal: float, maxVal: float, size: float) -> list:
        minVal, maxVal = sorted((minVal, maxVal))
        minVal *= self.scale
        maxVal *= self.scale
        scale = float(self.scale)
        ticks = []
        seen: list[float] = []
        for spacing, offset in self.tickSpacing(minVal, maxVal, size):
            spacing, offset = float(spacing), float(offset)
            start = (math.ceil((minVal - offset) / spacing) * spacing) + offset
            num = int((maxVal - start) / spacing) + 1
            values = [(i * spacing + start) / scale for i in range(num)]
            values = drop_close(values, seen, spacing / scale * 0.01)
            seen = sorted(seen + values)
            ticks.append((spacing / scale, values))
        if self.logMode:
            return self.logTickValues(minVal, maxVal, size, ticks)
        return ticks

    def logTickValues(self, minVal: float, maxVal: float, size: float, stdTicks: list) -> list:
        """pyqtgraph's log tick levels, with finer plain values where they would show
        fewer than two numbers (:func:`fine_log_ticks`)."""
        return fine_log_ticks(super().logTickValues(minVal, maxVal, size, stdTicks), minVal, maxVal)

    def tickStrings(self, values: list, scale: float, spacing: float) -> list[str]:
        """pyqtgraph's tick labels with a negative value's sign set as the minus U+2212
        (:func:`core.formula.minus_signs`: "−0.5", "−4"), as the app's titles, formula
        line and verdicts write it: the ASCII hyphen is shorter and sits lower, which a
        projector shows beside them. The draw specs measure and draw these strings (the
        room reserved for the labels is theirs), on screen and in exports alike.

        Kept per class, log mode, values, scale and spacing (pyqtgraph's are a function
        of those; a zero's sign is part of its value): a drag that moves a range keeps
        most of its tick values."""
        # (the sign of a zero apart: -0.0 == 0.0, but "%g" writes "-0")
        zeros = tuple(math.copysign(1.0, v) for v in (*values, scale) if v == 0)
        plain = self.logMode and plain_log_labels(self.range, scale)
        key = (type(self), self.logMode, tuple(values), scale, spacing, zeros, plain)
        strings = _TICK_STRINGS.get(key)
        if strings is None:
            FastAxisItem.tick_strings_made += 1
            if self.logMode:
                made = log_tick_labels(values, scale, self.range)
            else:
                made = super().tickStrings(values, scale, spacing)
            strings = _TICK_STRINGS[key] = [minus_signs(text) for text in made]
            if len(_TICK_STRINGS) > TICK_STRINGS_KEPT:
                _TICK_STRINGS.pop(next(iter(_TICK_STRINGS)))  # the oldest
        return list(strings)  # (a copy: the caller may change it)

    tick_strings_made = 0  # tick string lists worked out (tests: counted)

    def text_measure(self, p: QtGui.QPainter) -> Callable[[str], tuple[float, float]]:
        """``text → (width, 0.8 × height)`` as pyqtgraph sizes a tick label with ``p``'s
        current font and device, measured once per string (cache cleared when the font
        or resolution changes)."""
        device = p.device()
        key = (
            font_key(p.font()),
            device.logicalDpiX() if device is not None else 0,
            device.logicalDpiY() if device is not None else 0,
        )
        if key != self._text_font_key:
            self._text_sizes.clear()
            self._text_font_key = key
        sizes = self._text_sizes

        def measure(text: str) -> tuple[float, float]:
            size = sizes.get(text)
            if size is None:
                br = p.boundingRect(QtCore.QRectF(0, 0, 100, 100), _ALIGN.AlignCenter, text)
                size = sizes[text] = (br.width(), br.height() * 0.8)
            return size

        return measure

    def tick_font(self) -> QtGui.QFont | None:
        """The tick labels' font as drawn: the style's at :attr:`tick_scale`."""
        font = self.style["tickFont"]
        if font is None or self.tick_scale == 1.0:
            return font
        scaled = QtGui.QFont(font)
        size = font.pointSizeF()
        if size > 0:
            scaled.setPointSizeF(size * self.tick_scale)
        else:
            scaled.setPixelSize(max(1, round(font.pixelSize() * self.tick_scale)))
        return scaled

    def index_scales(self) -> tuple[float, ...]:
        """The sizes :attr:`index_labels` try, largest first (:func:`index_tick_scales`
        of the tick font, the last resort included; on :attr:`stage` those down to
        :data:`STAGE_INDEX_FLOOR`)."""
        return index_tick_scales(self.style["tickFont"], last_resort=True, stage=self.stage)

    def word_extent(self) -> float:
        """Pixels along the axis that each of its word ticks needs at full size (the
        widest label with the gap kept between neighbours, ``axis_specs.box_edges``, on
        a horizontal axis; a line on a vertical one); 0 without :attr:`keep_labels`."""
        ticks = explicit_ticks(self)
        if not self.keep_labels or not ticks:
            return 0.0
        metrics = QtGui.QFontMetricsF(self.style["tickFont"] or QtGui.QFont())
        line = metrics.height()
        if self.orientation in ("left", "right"):
            return float(line)
        widest = max(metrics.horizontalAdvance(text) for level in ticks for _v, text in level)
        return float(widest + line / 2)

    def drawPicture(
        self, p: QtGui.QPainter, axisSpec: tuple, tickSpecs: list, textSpecs: list
    ) -> None:
        """pyqtgraph's, with the tick labels in :meth:`tick_font` (the size their draw
        specs were measured at: scaled or vector output draws through this)."""
        font = self.style["tickFont"]
        scaled = self.tick_font()
        if scaled is font:
            super().drawPicture(p, axisSpec, tickSpecs, textSpecs)
            return
        self.style["tickFont"] = scaled
        try:
            super().drawPicture(p, axisSpec, tickSpecs, textSpecs)
        finally:
            self.style["tickFont"] = font

    def generateDrawSpecs(self, p: QtGui.QPainter) -> tuple | None:
        """``AxisItem.generateDrawSpecs``'s specs (see :mod:`gui.render.axis_specs`), less
        the tick labels that would overlap another (:func:`separate_labels`); the text
        room reported to the axis also clears its title (:meth:`title_clearance`).

        With :attr:`keep_labels` (word ticks) no label is left out: they are drawn at
        the largest of :data:`WORD_TICK_SCALES` at which none overlaps another or runs
        off the axis; where even the smallest crowds, every ``k``-th of them
        (:func:`thinned_words`)."""
        drawn, grew = self.tick_scale, self._grew_in_index_room()
        found = self._specs(p)
        if found is None:
            return None
        layout, text_specs, self.tick_scale = found
        if grew and self.tick_scale < drawn:  # (it did not fit once the axis took its room)
            self._shrunk_from = self._shrunk_from | {drawn}
        assert layout.specs is not None  # (_generate returns None for no specs)
        axis_spec, tick_specs, _all_texts = layout.specs
        need = layout.text_size + self.title_clearance(layout.text_size)
        held = need
        # room for labels of a range up to twice as wide (see below), once the drag
        # gives the plot new data: an axis whose labels stay took that room only when
        # its first specs were made during the drag (a plot that no frame painted
        # before), not when a frame before the drag had made them
        if self.drag_hold and self._drag_new_data:
            if self._drag_reserve is None:
                self._drag_reserve = self.doubled_text_size(p, layout)
            held = max(need, self._drag_reserve + self.title_clearance(self._drag_reserve))
        # what the labels need, never less than held while the layout settles
        room = self.held_text_room(held)
        self._text_need = need  # (what the labels need: end_drag_hold fits them)
        if self._fresh_room:  # new ticks: the room a new axis would take for them
            self._fresh_room = False
            reset_text_size(self, room)
        else:
            report_text_size(self, room)
        return axis_spec, tick_specs, text_specs

    specs_generated = 0  # draw specs worked out (tests: counted)
    specs_reused = 0  # draw specs taken from the cache (same inputs as before)

    def _specs(self, p: QtGui.QPainter) -> tuple[AxisLayout, list, float] | None:
        """``(layout, kept text specs, tick scale)`` of the axis now (:meth:`_generate`),
        taken from :data:`_SPEC_CACHE` when an axis had the same inputs
        (:meth:`spec_key`): a frame re-draws the axes of every plot whose range or data
        moved, and the heatmaps of a view that share rows and columns (Relative's three)
        have the same axes; a focus and back, or a resize and back, returns to specs
        worked out before."""
        key, frame = self._keyed(p)
        if key is not None:
            found = _SPEC_CACHE.get(key)
            if found is not None:
                _SPEC_CACHE.move_to_end(key)
                FastAxisItem.specs_reused += 1
                self.tick_scale = found[2]
                font = self.tick_font()
                if font is not None:  # (as generate_draw_specs leaves the painter)
                    p.setFont(font)
                return found
        FastAxisItem.specs_generated += 1
        plan = self._shift_plan(p, frame, key) if key is not None else None
        found = None
        if plan is not None:
            found = self._shifted(plan, frame)
        if found is None:
            found = self._generate(p, frame, None if plan is None else plan[1])
            if plan is not None and found is not None:
                # kept when the last one kept served a frame, or for ticks seen twice
                # in a row: not for every range of a drag whose ticks move with it
                # (RoPE's m), whose layouts serve no other frame
                if self._shift_served or plan[0] == self._last_shift_key:
                    self._record_shift(p, plan, frame, found)
                    self._shift_served = False
                self._last_shift_key = plan[0]
        if key is not None and found is not None:
            _SPEC_CACHE[key] = found
            if len(_SPEC_CACHE) > SPEC_CACHE_SIZE:
                _SPEC_CACHE.popitem(last=False)
        return found

    specs_shifted = 0  # draw specs placed anew from a LabelShift (tests: counted)
    shift_mismatches = 0  # LabelShifts not kept: placed anew, not the specs (tests: 0)

    def _shiftable(self) -> bool:
        """Whether the axis' labels are those of a plain linear axis (numbers at
        pyqtgraph's ticks, :func:`regular_labels`), whose layout a
        :class:`~gui.render.axis_specs.LabelShift` can place anew."""
        style = self.style
        return not (
            self.keep_labels
            or self.index_labels
            or self.logMode
            or not style["showValues"]
            or True in style["stopAxisAtTick"]
            or explicit_ticks(self) is not None
        )

    def _shift_plan(self, p: QtGui.QPainter, frame: AxisFrame, key: tuple) -> tuple | None:
        """``(shift key, tick levels, positions, x_min, x_max, tick stop)`` of a plain
        linear axis (:meth:`_shiftable`) now, as :func:`generate_draw_specs` works
        them out (the painter set to the tick font as it leaves it); ``None`` for
        other axes. The shift key is the spec key (:meth:`spec_key`) less the range,
        with the axis' length and its tick values (the data limits left out: they only
        decide which ticks there are): the inputs of a
        :class:`~gui.render.axis_specs.LabelShift`."""
        if frame.transform is None or not self._shiftable():
            return None
        self.tick_scale = 1.0
        font = self.style["tickFont"]
        if font is not None:
            p.setFont(font)
        span, _start, tick_stop, _dir, dim = axis_ends(
            self.orientation, frame.bounds, frame.tick_bounds
        )
        length = axis_length(frame.transform, span)
        if length == 0:
            return None
        levels = self.tickValues(self.range[0], self.range[1], length)
        values = [v for _spacing, level in levels for v in level]
        # (less the range; the tick state less the data limits, which only decide
        # which ticks there are: the tick values are part of the key)
        shift_key = (
            key[:6],
            key[7],
            key[8][:-1],  # (tick_state: data_limits last)
            key[9:],
            length,
            tuple([(s, tuple(v)) for s, v in levels]),
        )
        positions, x_min, x_max = shift_positions(
            self.range, frame.bounds, dim, np.array(values, dtype=float)
        )
        return shift_key, levels, positions, x_min, x_max, tick_stop

    def _shifted(self, plan: tuple, frame: AxisFrame) -> tuple[AxisLayout, list, float] | None:
        """The specs of the :class:`~gui.render.axis_specs.LabelShift` kept for
        ``plan`` (:meth:`_shift_plan`) placed at its positions, when every choice of
        labels comes out as it did (``None``: work them out)."""
        shift_key, _levels, positions, x_min, x_max, _stop = plan
        shift = _SHIFTS.get(shift_key)
        if shift is None:
            return None
        found = shift.state(positions, x_min, x_max, frame.own_rect)
        if found is None or found[0] != shift.signature:
            return None
        _SHIFTS.move_to_end(shift_key)
        FastAxisItem.specs_shifted += 1
        self._shift_served = True
        layout, kept = shift.specs(positions, found)
        return layout, kept, 1.0

    def _record_shift(
        self,
        p: QtGui.QPainter,
        plan: tuple,
        frame: AxisFrame,
        found: tuple[AxisLayout, list, float],
    ) -> None:
        """Keep the labels :meth:`_generate` chose as a
        :class:`~gui.render.axis_specs.LabelShift` for ``plan``, once it gives the same
        specs at these positions (``shift_mismatches`` counts those that do not)."""
        shift_key, levels, positions, x_min, x_max, tick_stop = plan
        layout, kept, _scale = found
        relabelled_from = self._relabelled
        self._relabelled = None
        if layout.specs is None:
            return
        axis_spec, tick_specs, labels = layout.specs
        style, orientation = self.style, self.orientation
        dim = 0 if orientation in ("left", "right") else 1
        text_levels = min(len(levels), style["maxTextLevel"] + 1)
        scale = self.autoSIPrefixScale * self.scale
        texts: list[str] = []
        level_of: list[int] = []
        for i in range(text_levels):
            spacing, values = levels[i]
            if values:
                texts += self.tickStrings(values, scale, spacing)
                level_of += [i] * len(values)
        measure = self.text_measure(p)
        sizes = [measure(text) for text in texts]
        if any(not (w > 0 and h > 0) for w, h in sizes):
            return
        all_values = [v for _spacing, level in levels for v in level]
        variants: dict[tuple[int, int], int] = {}
        sources: list[int] = []
        variant_texts: list[str] = []
        variant_sizes: list[tuple[float, float]] = []
        # (a level's labels written to a finer level's decimals: tickStrings writes
        # each value alone, so all of a level's at once are the same strings)
        first = 0
        for level in range(text_levels):
            count = len(levels[level][1])
            for finer in range(level + 1, text_levels):
                spacing = levels[finer][0]
                written = self.tickStrings(all_values[first : first + count], scale, spacing)
                for c, new in enumerate(written, start=first):
                    if new != texts[c]:
                        variants[(c, finer)] = len(sources)
                        sources.append(c)
                        variant_texts.append(new)
                        variant_sizes.append(measure(new))
            first += count
        shift = LabelShift()
        shift.orientation, shift.dim = orientation, dim
        shift.tick_stop = tick_stop
        shift.gap = max(0, style["tickLength"]) + style["tickTextOffset"][dim]
        shift.texts = texts
        shift.label_levels = np.array(level_of, dtype=int)
        shift.width_list = [w for w, _h in sizes]
        shift.height_list = [h for _w, h in sizes]
        shift.widths = np.array(shift.width_list, dtype=float)
        shift.heights = np.array(shift.height_list, dtype=float)
        shift.sources = np.array(sources, dtype=int)
        shift.variant_texts = variant_texts
        shift.variant_widths = np.array([w for w, _h in variant_sizes], dtype=float)
        shift.variant_heights = np.array([h for _w, h in variant_sizes], dtype=float)
        shift.top_level = max((level for level, _v in layout.label_ticks), default=-1)
        if any(not (w > 0 and h > 0) for w, h in variant_sizes):
            return
        shift.prepare()
        state = shift.state(positions, x_min, x_max, frame.own_rect)
        if state is None or int(state[1].sum()) != len(tick_specs):
            return
        shift.tick_pens = [pen for pen, _p1, _p2 in tick_specs]
        stops = [p2.x() if dim == 0 else p2.y() for _pen, _p1, p2 in tick_specs]
        shift.tick_stops = np.array(stops, dtype=float)
        shift.tick_start = (
            (tick_specs[0][1].x() if dim == 0 else tick_specs[0][1].y()) if tick_specs else 0.0
        )
        shift.axis_spec = axis_spec
        shift.text_size = layout.text_size
        shift.label_ticks = layout.label_ticks
        shift.spacings = layout.spacings
        shift.signature = state[0]
        # which label each kept one is (k ≥ 0: the k-th label, -1 - v: variant v)
        shown = np.flatnonzero(state[6]).tolist()
        if len(shown) != len(labels):
            return
        index = {id(spec): k for k, spec in enumerate(labels)}
        pairs: list[tuple[tuple, int | None]] = [(spec, None) for spec in kept]
        if relabelled_from is not None:
            pairs = relabelled_from
        decision: list[int] = []
        for spec, target in pairs:
            k = index.get(id(spec))
            if k is None:
                return
            if target is None:
                decision.append(k)
            else:
                v = variants.get((shown[k], target))
                if v is None:
                    return
                decision.append(-1 - v)
        shift.decision = decision
        shift.identity = list(range(len(labels)))
        shift.labelled_index = shown
        shift.variant_width_list = [w for w, _h in variant_sizes]
        shift.variant_height_list = [h for _w, h in variant_sizes]
        shift.stop_list = stops
        again, again_kept = shift.specs(positions, state)
        if _spec_values(again, again_kept) != _spec_values(layout, kept):
            FastAxisItem.shift_mismatches += 1
            return
        _SHIFTS[shift_key] = shift
        if len(_SHIFTS) > SHIFTS_KEPT:
            _SHIFTS.popitem(last=False)

    def spec_key(self, p: QtGui.QPainter) -> tuple | None:
        """Everything :meth:`_generate` reads, as a hashable key (``None``: not in a
        view): the axis' class, side, rectangles (its own, its bounding rect and its
        linked view's), the linear part of its device transform (the length in pixels),
        range, tick state, grid, style, pens, tick font, label rules (on stage or not)
        and the device's resolution the text is measured at."""
        return self._keyed(p)[0]

    def _keyed(self, p: QtGui.QPainter) -> tuple[tuple | None, AxisFrame]:
        """:meth:`spec_key`, and the :class:`AxisFrame` it read (passed on to the
        draw specs: they read the same, a few Qt and pyqtgraph calls each)."""
        frame = axis_frame(self)
        transform, bounds, ticks = frame.transform, frame.bounds, frame.tick_bounds
        if transform is None:
            return None, frame
        device = p.device()
        key = (
            type(self),
            self.orientation,
            bounds.getRect(),
            ticks.getRect(),
            frame.own_rect.getRect(),
            (transform.m11(), transform.m12(), transform.m21(), transform.m22()),
            tuple(self.range),
            self.autoSIPrefixScale,
            tick_state(self),
            self.grid,
            _style_key(self.style),
            *(_pen_key(pen) for pen in axis_pens(self)),
            self.keep_labels,
            self.index_labels,
            self.tile_spans,
            self.whole_ticks,
            self.stage,  # (index labels' smallest size)
            self._shrunk_from,  # (index label sizes left out: _grew_in_index_room)
            device.logicalDpiX() if device is not None else 0,
            device.logicalDpiY() if device is not None else 0,
        )
        return key, frame

    def _generate(
        self, p: QtGui.QPainter, frame: AxisFrame | None = None, levels: list | None = None
    ) -> tuple[AxisLayout, list, float] | None:
        """The draw specs worked out: the layout at the first tick scale at which the
        labels fit (see :meth:`generateDrawSpecs`), the labels kept, and that scale
        (``frame``: where the axis is, if read already; ``levels``: its tick values, if
        worked out already, for a plain linear axis: :meth:`_shift_plan`)."""
        self._relabelled = None
        scales: tuple[float, ...]
        if self.keep_labels:
            scales = WORD_TICK_SCALES
        elif self.index_labels:
            scales = self.index_scales()
            # (not a size that did not fit in this room once the axis took its room)
            scales = tuple(s for s in scales if s not in self._shrunk_from) or scales[-1:]
        else:
            scales = (1.0,)
        crowded: list[tuple[float, AxisLayout, list]] = []  # word ticks at each size
        for scale in scales:
            self.tick_scale = scale
            layout = generate_draw_specs(self, p, self.tick_font(), frame, levels)
            if layout.specs is None:
                return None
            axis_spec, tick_specs, text_specs = layout.specs
            if self.tile_spans and explicit_ticks(self):
                text_specs, layout = self._tile_specs(p, layout, frame)
                break
            ranks = self.label_ranks(layout.label_ticks)
            gap = INDEX_TICK_GAP if self.index_labels and not self.keep_labels else 1.0
            if self.keep_labels or self.index_labels or self.logMode:
                kept = separate_labels(self.orientation, text_specs, ranks, gap)
            else:  # numbers at regular steps, never "10 14" with the 12 left out
                kept = regular_labels(self.orientation, text_specs, layout.label_ticks)
                kept, layout = self.same_decimals(p, layout, text_specs, kept)
            # one tick line per tick in range: as many labels, or some were left out
            # (word ticks then try the next size, and at the last every k-th word;
            # index labels at the last keep those that fit, the ends first)
            if len(kept) >= len(tick_specs) or not (self.keep_labels or self.index_labels):
                text_specs = kept
                break
            if self.keep_labels:
                crowded.append((scale, layout, text_specs))
            if self.index_labels and scale == scales[-1]:
                text_specs = evenly_spaced(self.orientation, text_specs, gap) or kept
        else:
            thinned = thinned_words(self.orientation, crowded) if crowded else None
            if thinned is not None:
                self.tick_scale, layout, text_specs = thinned
                font = self.tick_font()
                if font is not None:  # (as generate_draw_specs leaves the painter)
                    p.setFont(font)
        return layout, text_specs, self.tick_scale

    def _tile_specs(
        self, p: QtGui.QPainter, layout: AxisLayout, frame: AxisFrame | None
    ) -> tuple[list, AxisLayout]:
        """The labels of a mosaic's axis (:attr:`tile_spans`), each tile's in its tile
        (:func:`~gui.render.axis_specs.tile_labels`), and ``layout`` with the room they
        need across the axis."""
        if frame is None:
            frame = axis_frame(self)
        vertical = self.orientation in ("left", "right")
        dim = 0 if vertical else 1
        bounds = frame.bounds
        scale, offset = value_scale(self.range, bounds, dim)
        tick_stop = {
            "left": bounds.right(),
            "right": bounds.left(),
            "top": bounds.bottom(),
            "bottom": bounds.top(),
        }[self.orientation]
        gap = max(0, self.style["tickLength"]) + self.style["tickTextOffset"][dim]
        ticks = [(float(v), text) for level in explicit_ticks(self) or () for v, text in level]
        tiles = [
            TileTicks(lo, hi, tuple(sorted(t for t in ticks if lo <= t[0] <= hi)))
            for lo, hi in self.tile_spans
        ]
        specs = tile_labels(
            self.orientation,
            tiles,
            lambda v: v * scale - offset,
            self.text_measure(p),
            lambda x, size: label_rect(self.orientation, tick_stop, gap, x, size),
        )
        across = [rect.width() if vertical else rect.height() for rect, _f, _t in specs]
        return specs, layout._replace(text_size=max([layout.text_size, *across]))

    def same_decimals(
        self, p: QtGui.QPainter, layout: AxisLayout, text_specs: list, kept: list
    ) -> tuple[list, AxisLayout]:
        """``kept`` (labels of ``text_specs``, whose ticks ``layout`` gives) with every
        label written to the decimals of the finest tick level among them, and the
        layout with the room those labels need across the axis.

        pyqtgraph writes each level to its own spacing's decimals: RoPE's plane on
        stage read "1.5, 1, 0.5, 0, −0.5, −1, −1.5" up its y axis (whole numbers at
        the major ticks, halves between) beside "−1.0 −0.5 0 0.5 1.0" along x. With
        both levels labelled the major ones now read "1.0", "−1.0"; where that widens
        a label into its neighbour, the finer level's labels are left out instead (the
        major ones, as pyqtgraph writes them, are a regular sequence of their own)."""
        ticks = {id(spec): tick for spec, tick in zip(text_specs, layout.label_ticks, strict=True)}
        scale = self.autoSIPrefixScale * self.scale
        measure = self.text_measure(p)
        across = 0 if self.orientation in ("left", "right") else 1
        while True:
            levels = [ticks[id(spec)][0] for spec in kept]
            finest = max(levels, default=0)
            self._relabelled = None
            if len(set(levels)) < 2 or finest >= len(layout.spacings):
                return kept, layout
            spacing = layout.spacings[finest]
            if spacing is None:
                return kept, layout
            room = layout.text_size
            written = []
            # (the spec written anew, its level's finest) per label
            relabelled_from: list[tuple[tuple, int | None]] = []
            for spec, level in zip(kept, levels, strict=True):
                rect, flags, text = spec
                if level < finest:
                    value = ticks[id(spec)][1]
                    new = self.tickStrings([value], scale, spacing)[0]
                    if new != text:
                        size = measure(new)
                        relabelled_from.append((spec, finest))
                        spec = (relabelled(self.orientation, rect, size), flags, new)
                        room = max(room, size[across])
                        written.append(spec)
                        continue
                relabelled_from.append((spec, None))
                written.append(spec)
            if separate_labels(self.orientation, written) is written:
                self._relabelled = relabelled_from
                return written, layout._replace(text_size=room)
            kept = [spec for spec, level in zip(kept, levels, strict=True) if level < finest]

    def held_text_room(self, size: float) -> float:
        """The room across the axis to report for tick text (and title) that needs
        ``size`` px: never less than the most it needed since its data last changed
        (:meth:`release_text_room`) in a plot as large across the axis, with the same
        tick font. When the plot's size or the tick font changed since the last room
        it reported (the style's font, or the size :attr:`index_labels` are drawn at,
        :attr:`tick_scale`), the axis takes the room a new axis takes for ``size`` there
        (:func:`gui.render.pg_compat.reset_text_size`), not pyqtgraph's, which keeps up
        to 10 px of a room taken before: a view re-styled or resized is to look as one
        built anew there (Relative's heatmaps were 1 px off after the stage, their
        row-label axes as wide as at the width the plots had on their way back; ALiBi's
        course grid re-styled for the stage at 1280 × 720 had its index labels at 0.8
        on the way, its row-label axis then 6 px narrower than built there, its title a
        line shorter).

        The tick labels depend on the axis' length (taller data: more ticks, "0.05"
        between "0.1" and "0.15"), which depends on what shares the plot with the data,
        which can depend on the axis' width: a legend strip whose columns follow the
        data's width. ALiBi's softmax row at 1280 × 720, 200 %, on stage flipped for
        ever between two layouts, one of them with the axis 18 px too narrow for its
        labels: wider labels, one legend column fewer, a shorter plot, narrower
        labels, a column more, and again. Held at its widest the axis only grows
        while nothing else changes, so the layout settles (the legend keeps the column
        it dropped; the labels fit)."""
        plot = self.parentItem()
        width = height = 0.0
        if isinstance(plot, QtWidgets.QGraphicsWidget):
            width, height = plot.size().width(), plot.size().height()
        style_font = self.style["tickFont"]
        # the tick font as drawn: the style's at the tick scale (index labels shrink
        # on a shorter axis in a plot of the same size: a title a line longer)
        sized_for = (
            round(width),
            round(height),
            font_key(style_font) if style_font else "",
            self.tick_scale,
        )
        if sized_for != self._sized_for:
            # another plot size or tick font: the room a new axis takes there, not one
            # kept from before (pyqtgraph keeps up to 10 px more, and grows from less:
            # index labels at 0.8 then 1.0 took 19.8 then 23.6 px where a new axis
            # keeps 30)
            self._sized_for = sized_for
            self._fresh_room = True
            self._held_key = None
        # (the plot's size is sized_for's: another one dropped the held key above)
        font = self.tick_font()
        key = (font_key(font) if font is not None else "", self.tick_scale)
        self._text_need = size
        if key != self._held_key:
            self._held_key, self._held_room = key, size
        elif size > self._held_room:
            self._held_room = size
        return self._held_room

    def _index_room(self) -> tuple | None:
        """The room the axis' index labels are sized in: its plot's size, and the length
        across the axis that its linked view and the axis take together (a bottom axis'
        height and the view's: what the axis takes, the data gives up; a square
        matrix's length along the axis follows), with the ticks and tick font; ``None``
        for other axes."""
        if not self.index_labels or self.keep_labels:
            return None
        plot, view = self.parentItem(), self.linkedView()
        if not isinstance(plot, QtWidgets.QGraphicsWidget) or view is None:
            return None
        font = self.style["tickFont"]
        if self.orientation in ("left", "right"):
            shared = view.width() + self.width()
        else:
            shared = view.height() + self.height()
        return (
            round(plot.size().width()),
            round(plot.size().height()),
            round(shared),
            tick_state(self),
            font_key(font) if font else "",
            self.stage,
        )

    def _grew_in_index_room(self) -> bool:
        """Whether the axis grew across (took room from its data) since its index labels
        were last sized, in the same room (:meth:`_index_room`); in another room every
        size is tried again.

        A size that fitted, then did not once the axis took its room (a taller bottom
        axis leaves a square matrix a shorter, narrower data area: fewer pixels a
        label), is not tried again in the same room (:attr:`_shrunk_from`): Relative's
        course grid at 1280 x 720 / 200 % on stage, in a plot 548 px high, drew its
        column labels at 0.7 (axis 65 px), then at 0.6 (62 px: the matrix 4 px wider),
        then at 0.7 again, on every pass, and the view's row took the room of
        whichever it measured last: 3 px more after the stage than built there. Now
        the labels settle at the largest size that fits with the axis' room taken,
        whichever size the axis had before. Labels that shrink for another reason (a
        shorter axis: another axis or a title took the room) grow back."""
        room = self._index_room()
        vertical = self.orientation in ("left", "right")
        extent = self.width() if vertical else self.height()
        grew = extent > self._index_extent + 0.5
        self._index_extent = extent
        if room is not None and room == self._shrunk_in:
            return grew
        self._shrunk_in, self._shrunk_from = room, frozenset()
        return False

    def release_text_room(self) -> None:
        """Forget the room held for the tick text (:meth:`held_text_room`): the plot
        shows new data, whose labels may be narrower (not while :attr:`drag_hold`: the
        drag's new data takes room for a range twice as wide, :meth:`doubled_text_size`)."""
        if self.drag_hold:
            self._drag_new_data = True
        else:
            self._held_key = None

    @property
    def text_need(self) -> float | None:
        """The room (px) the tick text of the last draw specs needed (``None``: none yet)."""
        return self._text_need

    def hold_for_drag(self) -> None:
        """Keep the room held for the tick text through new data (a slider drag): RoPE's
        simplified plot's labels (``-1.5``, ``0.5``, ``1``) narrowed the axis every few
        values of m on the stage, which moved the data area and re-laid out the whole
        canvas (10 of 40 frames at 150 %). The room still only grows with wider labels
        (never clipped) and is held only while the plot keeps its size across the axis
        and its tick font (:meth:`held_text_room`: a focus, resize, scale or mode
        starts afresh); :meth:`end_drag_hold` fits the labels again."""
        self.drag_hold = True

    def doubled_text_size(self, p: QtGui.QPainter, layout: AxisLayout) -> float:
        """Room across a vertical axis for the tick labels of its range twice as wide,
        on either side of zero: the labels of ± twice the largest value it shows (range
        ``-3.7..12.3`` → ``-25``) at the labels' spacing, or what the labels need now if
        that is more. A drag holds it from
        the axis' first new labels (:meth:`hold_for_drag`): RoPE's simplified plot
        widened from ``-5`` to ``-10`` far into a drag of m, which moved its data and
        re-laid out the canvas then. Word, index, explicit and log ticks: what they need."""
        values = [v for level, v in layout.label_ticks if level == 0]
        if (
            self.orientation not in ("left", "right")
            or len(values) < 2
            or self.keep_labels
            or self.index_labels
            or self.logMode
            or explicit_ticks(self) is not None
        ):
            return layout.text_size
        spacing = min(abs(b - a) for a, b in zip(values, values[1:], strict=False))
        if spacing <= 0:
            return layout.text_size
        # either sign (data may cross zero), from the range's ends (beyond the labels)
        widest = 2 * max([abs(v) for v in values] + [abs(float(r)) for r in self.range])
        doubled = [-widest, widest]
        strings = self.tickStrings(doubled, self.autoSIPrefixScale * self.scale, spacing)
        measure = self.text_measure(p)
        return max([layout.text_size] + [measure(text)[0] for text in strings])

    def end_drag_hold(self) -> bool:
        """The drag is over (or the layout changes): the axis takes the room its labels
        need now, as after new data (pyqtgraph shrinks it only by more than 10 px);
        whether its size changed."""
        self._drag_reserve = None
        self._drag_new_data = False
        if not self.drag_hold:
            return False
        self.drag_hold = False
        self._held_key = None
        need = self._text_need
        if need is None:
            return False
        before, picture = (self.textWidth, self.textHeight), self.picture
        report_text_size(self, need)
        if (self.textWidth, self.textHeight) == before:
            self.picture = picture  # (reporting drops the specs: they still hold)
            return False
        return True

    def forget_text_room(self) -> None:
        """:meth:`release_text_room`, and size the axis for the next labels as a new
        axis would be: it has new ticks (a small grid's index labels, or none any
        more). pyqtgraph keeps the room of wider labels shown before (up to 10 px): a
        kept scene widget drew a 16-cell grid after a 48-cell one with its heatmap
        4 px narrower than a new widget did."""
        self._held_key = None
        self._fresh_room = True

    def restart_text_room(self) -> None:
        """Room for the tick text and the title as on a new axis (a new UI scale or
        theme: the plot re-styled in place is to look as one built anew): the title
        unwrapped at full size until fitted again, the tick text's room a new axis'."""
        self._held_key = None
        self._fresh_room = False
        label = self.label
        if label is not None:
            if label.textWidth() >= 0:
                label.setTextWidth(-1)
            if label.scale() != 1.0:
                label.setScale(1.0)
        self._label_fit = None
        new_axis_text_size(self)

    def label_ranks(self, label_ticks: list[tuple[int, float]]) -> list[tuple[int, int]]:
        """Which labels stay when labels crowd (lowest first): higher tick levels, and
        on a log axis the rounder values (decades, then ×5, then ×2)."""
        if self.index_labels and label_ticks:
            # a small grid's first and last index first, then every other one in order
            values = [v for _level, v in label_ticks]
            ends = (min(values), max(values))
            return [(0 if v in ends else 1, 0) for _level, v in label_ticks]
        return [(level, log_rank(v) if self.logMode else 0) for level, v in label_ticks]

    def title_clearance(self, text_size: float) -> float:
        """Room to add to the tick text's so that the axis title never touches it (px).

        pyqtgraph reserves 0.8 × the title's height for the title (``_updateWidth``)
        but draws it ``TITLE_NUDGE`` px outwards of the axis edge with the text
        document's margin around it: from 100 % font size on (or with a large tick font)
        the title's text reaches into the tick labels. Horizontal axes also lose the
        quarter line a label's text runs past its rectangle (``axis_specs.box_edges``).
        The gap kept is the tick text offset (the gap between ticks and their labels).
        """
        if not self.label.isVisibleTo(self):  # (shown on the axis, the plot hidden or not)
            return 0.0
        height = self.label.boundingRect().height()
        inner = height - TITLE_NUDGE - self.label.document().documentMargin()
        vertical = self.orientation in ("left", "right")
        overflow = 0.0 if vertical else text_size / 4
        gap = self.style["tickTextOffset"][0 if vertical else 1]
        return max(0.0, inner + gap + overflow - 0.8 * height)


def make_axes() -> dict[str, pg.AxisItem]:
    """All four axes for a new ``PlotItem`` (``addPlot(axisItems=make_axes())``).

    ``PlotItem`` shows every axis it is given, so hide ``top`` and ``right`` after
    creating the plot (:func:`hide_spare_axes`). They must still be fast ones: hidden
    axes follow every range change too. The app's axes carry no units, so they have
    no SI prefix either: with it, every range change re-sets the axis title.
    """
    axes = {name: FastAxisItem(name) for name in ("left", "bottom", "top", "right")}
    for axis in axes.values():
        axis.enableAutoSIPrefix(False)
    return axes


def hide_spare_axes(plot: pg.PlotItem) -> None:
    """Hide the ``top`` and ``right`` axes :func:`make_axes` gave ``plot``, and stop them
    following its range (they are never shown)."""
    for name in ("top", "right"):
        plot.hideAxis(name)
        plot.getAxis(name).unlinkFromView()


VALUE_AXIS_WIDTH = 45  # px: pyqtgraph's colour bar value axis at 100 %
# the widest label that must fit (ticks as "−0.5", "−10": the minus of tickStrings) ...
VALUE_AXIS_SAMPLE = "−0.00"
# ... on a bar whose values are never negative (attention weights 0 … 1): the minus,
# wider than the hyphen it replaced, took room from the data for a sign never drawn
VALUE_AXIS_SAMPLE_UNSIGNED = "0.00"


VALUE_AXIS_OVERHANG = 15  # px pyqtgraph lets a vertical axis's labels run past its ends


def fit_end_labels(axis: pg.AxisItem, font: QtGui.QFont) -> None:
    """Let a vertical ``axis``'s labels run past its ends by half a line of ``font`` (at
    least pyqtgraph's 15 px): a label centred on an end of the axis then lies in the
    axis's bounding rect, which pyqtgraph requires of a label to draw it and the axis
    clips its labels to. With 15 px at 200 % and more a log axis's top decade ("10⁴"
    at 4.007 of a range up to 4.007) was left out whenever it sat on the top end, and
    the top label ran to the plot's upper edge."""
    overhang = max(VALUE_AXIS_OVERHANG, math.ceil(QtGui.QFontMetricsF(font).height() / 2 + 1))
    if axis.style.get("hideOverlappingLabels") != overhang:
        axis.prepareGeometryChange()  # the margin is part of the axis's bounding rect
        axis.setStyle(hideOverlappingLabels=overhang)


def fit_value_axis(colorbar: pg.ColorBarItem, font: QtGui.QFont, negative: bool = True) -> None:
    """Set a vertical colour bar's value axis to ``font`` and make it wide enough for
    labels as wide as :data:`VALUE_AXIS_SAMPLE` in it (never below pyqtgraph's 45 px):
    a label wider than its axis is not drawn, so at 200 % a fixed 45 px kept only "0".
    A bar whose values are never ``negative`` needs no room for a minus sign
    (:data:`VALUE_AXIS_SAMPLE_UNSIGNED`). A :class:`FastColorBarItem` is made wider
    still where its range's labels are wider (:meth:`FastColorBarItem.fit_value_width`).

    A label must also lie within the axis's length plus a margin at both ends, 15 px in
    pyqtgraph whatever the font: the labels at the bar's ends (0 and 1 of an attention
    matrix) stick out half a line, so from about 300 % on they were not drawn and the
    bar read 0.2 … 0.8. The margin grows to half a line of ``font``.
    """
    axis = colorbar.axis
    if axis.style.get("tickFont") != font:
        axis.setStyle(tickFont=font)
    if colorbar.horizontal:
        return
    fit_end_labels(axis, font)
    sample = VALUE_AXIS_SAMPLE if negative else VALUE_AXIS_SAMPLE_UNSIGNED
    if isinstance(colorbar, FastColorBarItem):
        colorbar.value_sample = sample
        colorbar.fit_value_width()  # (and wider for its range's labels)
        return
    width = value_axis_width(axis, font, sample, ())
    if axis.width() != width:
        axis.setWidth(width)


def value_axis_width(
    axis: pg.AxisItem, font: QtGui.QFont, sample: str, labels: Iterable[str]
) -> float:
    """The width (px) of a vertical colour bar's value ``axis`` whose tick labels in
    ``font`` are as wide as ``sample`` or the widest of ``labels``: the text, the tick
    and its gap to the text, 2 px to spare; never below pyqtgraph's 45 px."""
    metrics = QtGui.QFontMetricsF(font)
    text = max((metrics.horizontalAdvance(t) for t in (sample, *labels)), default=0.0)
    gap = max(0, axis.style["tickLength"]) + axis.style["tickTextOffset"][0]
    return float(max(VALUE_AXIS_WIDTH, math.ceil(text + gap + 2)))


def top_level_labels(axis: FastAxisItem, length: float) -> list[str]:
    """The labels of the coarsest tick level ``axis`` has over its range at ``length``
    px (none for a log axis, an empty range or explicit ticks): those a value axis
    must have room for, or it draws none of them."""
    lo, hi = axis.range
    if axis.logMode or not hi > lo or length <= 1 or explicit_ticks(axis) is not None:
        return []
    scale = axis.autoSIPrefixScale * axis.scale
    for spacing, values in axis.tickValues(lo, hi, length):
        if values:
            return axis.tickStrings(values, scale, spacing)
    return []


class FastColorBarItem(pg.ColorBarItem):
    """``pg.ColorBarItem`` whose axes are :class:`FastAxisItem`.

    ``ColorBarItem`` builds its axes through ``PlotItem.__init__`` with no way to pass
    ``axisItems``; its value axis is re-laid out whenever the levels change (every
    frame of a ``seq_len`` drag in the ALiBi and relative views). The axes are replaced
    after construction with the public ``PlotItem.setAxisItems`` and set up as
    ``ColorBarItem.__init__`` sets up its own (the value axis without SI prefix: it
    has no label, and the prefix re-set the title on every level change).
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        old = {name: self.getAxis(name) for name in ("left", "right", "top", "bottom")}
        main = "bottom" if self.horizontal else "right"
        self.setAxisItems({name: FastAxisItem(name) for name in old})
        for name, axis in old.items():  # not in a scene yet: still the bar's children
            axis.hide()
            axis.setParentItem(None)
            new = self.getAxis(name)
            new.setZValue(0.5)
            new.setTicks(None if name == main else [])
            new.setStyle(showValues=name == main)
            new.enableAutoSIPrefix(False)
            label = axis.labelText
            if label and axis.label.isVisible():
                new.setLabel(label)
        self.axis = self.getAxis(main)
        if not self.horizontal:
            self.axis.setWidth(VALUE_AXIS_WIDTH)
        self.axis.unlinkFromView()
        self.axis.setRange(self.values[0], self.values[1])
        self.axis.add_length_listener(self._length_changed)

    value_sample = VALUE_AXIS_SAMPLE
    """The label the value axis always has room for (:func:`fit_value_axis`)."""

    def setLevels(self, *args: object, **kwargs: object) -> None:
        """pyqtgraph's; the value axis is widened for labels the new range writes wider
        than :attr:`value_sample` (:meth:`fit_value_width`)."""
        before = tuple(self.values)
        super().setLevels(*args, **kwargs)
        if tuple(self.values) != before:
            self.fit_value_width()

    def _length_changed(self, _length: float) -> None:
        # a longer bar may tick finer (more decimals): wider, never narrower here. The
        # width changes the bar's length in turn: M-RoPE's 0.9972 … 1 at 200 % (RoPE
        # deck scene 9, stepped to) ticked "0.9975 …" on 498 px (102 px wide), the
        # wider axis left the bar 457 px, ticked "0.998 …" (85 px), the narrower axis
        # gave 498 px again, and so on until the layout's rounds ran out: at 85 px
        # wide and 498 px long, no label fitted and the bar had none
        self.fit_value_width(grow_only=True)

    def fit_value_width(self, grow_only: bool = False) -> None:
        """Make a vertical bar's value axis as wide as its widest label, at least
        :attr:`value_sample`'s width (:func:`value_axis_width`).

        A label wider than its axis is not drawn, and the axis' top tick level is
        labelled whole or not at all: M-RoPE's similarities 0.9972 … 1 ticked every
        0.0005 ("0.9975", wider than "−0.00") showed ticks and no label at all.
        ``grow_only``: keep a wider axis (a change of the bar's length alone)."""
        if self.horizontal:
            return
        axis = self.axis
        font = axis.style.get("tickFont") or QtGui.QFont()
        labels = top_level_labels(axis, axis.height())
        width = value_axis_width(axis, font, self.value_sample, labels)
        if grow_only and axis.fixedWidth is not None and width < axis.fixedWidth:
            return  # (a new range or font narrows it: setLevels, fit_value_axis)
        if axis.fixedWidth != width:  # (the width asked: the geometry follows a layout)
            axis.setWidth(width)

    def setGeometry(self, *args: float | QtCore.QRectF) -> None:
        """Take the place the plot's grid gives, each edge within floating-point error of
        a whole pixel on that pixel (:func:`whole_pixels`). The grid adds up fractional
        column widths (an axis 56.6 px wide) in an order that depends on how it got
        there: ALiBi's colour bar re-styled at 1280 x 720 stood at x = 777.9999999999999
        where a new one stands at 778.0, and its frame was drawn a pixel left of the
        colours (1098 px of the view differed from the view built anew)."""
        super().setGeometry(whole_pixels(QtCore.QRectF(*args)))  # (a rect, or x, y, w, h)


#: how far from a whole pixel a layout's edge is still taken as on it (floating-point
#: error of sums of fractional widths; a real fraction is 0.01 px or more)
PIXEL_EPSILON = 1e-6


def whole_pixels(rect: QtCore.QRectF) -> QtCore.QRectF:
    """``rect`` with each edge within :data:`PIXEL_EPSILON` of a whole pixel moved onto
    it (the others as they are)."""

    def snap(value: float) -> float:
        near = round(value)
        return float(near) if abs(value - near) < PIXEL_EPSILON else value

    left, top = snap(rect.left()), snap(rect.top())
    return QtCore.QRectF(left, top, snap(rect.right()) - left, snap(rect.bottom()) - top)
