"""Draw :class:`core.viewdata.Panel` objects with pyqtgraph — no math here.

A :class:`PanelPlot` owns one ``PlotItem`` and the items inside it. Updating with a
panel of the same shape (same kind, same number of series) only swaps data arrays, which
keeps slider drags at display rate; a different shape rebuilds the items.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from itertools import repeat
from operator import attrgetter, itemgetter

import numpy as np
import pyqtgraph as pg
import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets

from core.formula import label_rich_text, minus_signs, powers_of_ten
from core.viewdata import Band, Panel, Series
from gui.plotting.cells import VALUE_PT, CellDisplay, layout_parts, square_by_default
from gui.plotting.hover import HoverOverlay
from gui.plotting.legend_strip import StripLegend
from gui.plotting.line_breaks import FREE, break_points, glue_operators, spaced_dash, units
from gui.plotting.panel_extras import HaloText, PanelExtras
from gui.plotting.plot_data import (
    MOVED,
    SAME,
    color_levels,
    curve_change,
    display_image,
    drawn_xy,
    same_arrays,
    series_color,
)
from gui.render.auto_button import BASE_SIZE as AUTO_BUTTON_SIZE
from gui.render.auto_button import size_auto_button
from gui.render.band_item import BandItem, BandSample
from gui.render.cell_values import MAX_CELLS, grid_texts, legible_cell
from gui.render.fast_axis import (
    MAX_TITLE_LINES,
    FastAxisItem,
    FastColorBarItem,
    fit_end_labels,
    fit_value_axis,
    index_label_pitch,
    smallest_index_font,
)
from gui.render.fast_curve import FastCurveItem
from gui.render.fast_image import FastImageItem
from gui.render.grid_lines import GridLines
from gui.render.line_item import LineGroup, LineItem
from gui.render.missing_cells import hatch_item, missing_path
from gui.render.pg_compat import explicit_ticks
from gui.render.scripts import typeset_scripts
from gui.render.symbol_series import SymbolSeries
from gui.render.tile_labels import TileLabels
from gui.render.title_label import install_title_label
from gui.render.view_box import PlotViewBox, held_levels, padded_span, padding_share
from gui.theme import Theme, current_theme

pg.setConfigOptions(imageAxisOrder="row-major", antialias=True)

MAX_LEGEND_ENTRIES = 6
GRID_ALPHA = 0.25  # grid opacity (pyqtgraph's showGrid alpha)
#: an arrows panel's curves (the clock's trails and arcs, at most 49 points; an arrow's
#: shaft) are stroked with Qt's wide pen: cheaper than offset strokes for so few points
ARROWS_WIDE_PEN_POINTS = 64
WORD_ROOM_PAD = 1.1  # the data's height over its cells' (the view's range padding)
TICK_PT = 11  # pt at 100 %: tick labels
# px a heatmap's plot takes beside its data besides its row labels (the left axis'
# ticks and title, the colour bar), fixed and per pt of the tick font: a little more
# than Word order's output grids (96, 121, 126, 161 and 227 px at 11, 14, 16, 22 and
# 33 pt: 100, 125, 150, 200 and 300 %) and Relative's grids (102, 132, 167, 236 at 11,
# 16, 22, 33 pt) take
INDEX_GRID_ROOM = (38.0, 6.1)


_ADVANCES: dict[str, dict[str, float]] = {}  # font key -> word -> advance (px)
_ADVANCES_MAX = 4096  # (words kept per font: cleared when full)
#: (text, font key, width, scripts) -> wrap_in's lines (a title that follows a slider is
#: wrapped twice a frame at the same width: shown, and for its row's room)
_WRAPS: dict[tuple[str, str, float, bool], tuple[str, ...]] = {}
_WRAPS_MAX = 256  # (cleared when full)


#: (font key, scripts) -> wrap_in's metrics of that font and its margin (px): a title
#: that follows a slider is wrapped anew on every frame, and making a font's metrics
#: and asking for its character widths took about a fifth of a wrap
_METRICS: dict[tuple[str, bool], tuple[QtGui.QFontMetricsF | RichMetrics, float]] = {}
_METRICS_MAX = 64  # (fonts kept: cleared when full)


_RICH_WIDTHS: dict[tuple[str, str], float] = {}  # (font key, text) -> rich_width


def rich_width(text: str, font: QtGui.QFont) -> float:
    """Width (px) of a label's ``text`` drawn as its rich text
    (:func:`core.formula.label_rich_text`: scripts at four fifths, ``_`` and braces of a script
    not drawn) on one line in ``font``: a text document's ideal width, as a title's
    or an axis title's document lays it out (without its margins); kept per font and
    text (no document is kept: one alive at the interpreter's exit is a leak,
    tests/test_exit.py)."""
    key = (font.key(), text)
    width = _RICH_WIDTHS.get(key)
    if width is None:
        if len(_RICH_WIDTHS) >= 4096:
            _RICH_WIDTHS.clear()
        document = QtGui.QTextDocument()
        document.setDefaultFont(font)
        document.setDocumentMargin(0)
        document.setHtml(label_rich_text(text))
        typeset_scripts(document)  # as the plots draw them (gui.render.scripts)
        width = _RICH_WIDTHS[key] = float(document.idealWidth())
    return width


@lru_cache(maxsize=1024)
def wrapped_rich_text(text: str) -> str:
    """A label's rich text (:func:`core.formula.label_rich_text`) for Qt to wrap (an
    axis title, a legend entry), its operators and spaced dashes glued to the words
    before them (:func:`gui.plotting.line_breaks.glue_operators`), as a plot title
    breaks: Qt wraps at any space, and broke Relative's axis title "relative position
    i − j (query − key)" on stage as "(query" / "− key)", ALiBi's legend entry "head 1:
    m = 0.5 (softmax row)" in a narrow strip as "head 1: m" / "= 0.5 (softmax row)".
    A negative value's sign is the minus U+2212 (:func:`core.formula.minus_signs`: the
    legend entry "m − n = −4", as the formula line and the tick labels write it).
    Kept per text: each plot names its legend's curves with it on every frame (Compare's
    ~35 us a frame, the same names)."""
    return label_rich_text(glue_operators(minus_signs(text)))


def has_scripts(text: str) -> bool:
    """Whether a label's ``text`` is drawn with sub- or superscripts."""
    return "<su" in label_rich_text(text)


class RichMetrics:
    """``QFontMetricsF``'s :meth:`horizontalAdvance` of a label's text as a plot draws
    it (:func:`rich_width` where it has scripts, the font's advance elsewhere): what
    :func:`wrap_in` measures a title's lines with, so that it wraps the text drawn."""

    def __init__(self, font: QtGui.QFont) -> None:
        self.font = font
        self.metrics = QtGui.QFontMetricsF(font)

    def horizontalAdvance(self, text: str) -> float:
        if ("_" in text or "^" in text) and has_scripts(text):
            return rich_width(text, self.font)
        return float(self.metrics.horizontalAdvance(text))

    def averageCharWidth(self) -> float:
        return float(self.metrics.averageCharWidth())

    def maxWidth(self) -> float:
        return float(self.metrics.maxWidth())


def wrap_in(text: str, font: QtGui.QFont, width: float, *, scripts: bool = False) -> list[str]:
    """``text`` in ``font`` broken into lines no wider than ``width`` at its least bad
    places (:mod:`gui.plotting.line_breaks`): at spaces, an operator kept with its left
    operand ("bias =" / "−0.1·torch.arange(8),", never a lone "=") and a bracket group or
    a call ("[i, j]", "torch.arange(8)") broken inside only where it alone is wider than
    the line; a run of pieces too wide for a line alone is broken at the least bad
    places inside it, down to the places inside a word (``−0.1·`` | ``torch.arange(8),``:
    at 1280 x 720, 300 %, ALiBi's "−0.1·torch.arange(8)," ran out of its plot over the
    colour bar's labels); a word with no place to break keeps its width. Nothing is
    left out: the lines joined at their breaks (a space between words) are ``text``.
    The lines are measured mostly from the advances of their parts, kept per font.

    A title that follows a slider (RoPE's plane: "… = (m − n)·θ = …") is wrapped on
    every frame of a drag, twice (shown, and for its row's room), at the same width:
    the lines are kept per text, font and width, the second wrap is the first's. It
    measured its growing lines anew each frame (~0.1 ms a wrap). Its words mostly
    repeat from frame to frame. A line with a part added is as wide as its parts and
    spaces up to the kerning at the joins, well under a character: a line that
    clearly fits or clearly does not is decided from those, one within a character
    of ``width`` measured whole (the same lines as measuring every line whole:
    test_layout_fit's reference wrap).

    With ``scripts`` the text is a label drawn as rich text (a plot's title or axis
    title, :func:`core.formula.label_rich_text`): its parts are measured as drawn, a
    subscript ``m_h`` narrower than the characters "m_h" (:class:`RichMetrics`)."""
    font_key = font.key()
    wrap_key = (text, font_key, width, scripts)
    wrapped = _WRAPS.get(wrap_key)
    if wrapped is not None:
        return list(wrapped)
    if len(_WRAPS) >= _WRAPS_MAX:
        _WRAPS.clear()
    metrics, margin = _wrap_metrics(font, font_key, scripts)
    if (
        text
        and text[0] != " "
        and text[-1] != " "
        and "  " not in text
        and (not scripts or ("_" not in text and "^" not in text))
        and metrics.horizontalAdvance(text) <= width
    ):
        # fits on one line, measured whole: one line, the text. (The wrap below puts
        # each part on the first line: a line's parts and spaces sum to its measured
        # width up to the kerning at the joins, well under ``margin``, so none is
        # refused outright, and where it is measured whole, it is a start of the text:
        # no wider.) A title that follows a slider is new on every frame: the wrap was
        # ~250 calls a plot. (Not a text with scripts: measured whole as rich text, a
        # document a frame, it cost more than the wrap where it does not fit.)
        _WRAPS[wrap_key] = (text,)
        return [text]
    out = _wrapped_lines(text, width, metrics, margin, font_key + ("\x00rich" if scripts else ""))
    _WRAPS[wrap_key] = tuple(out)
    return out


def _wrapped_lines(
    text: str,
    width: float,
    metrics: QtGui.QFontMetricsF | RichMetrics,
    margin: float,
    advances_key: str,
) -> list[str]:
    """:func:`wrap_in`'s lines, worked out part by part (the parts' advances kept
    under ``advances_key``: the font's key, and whether it is measured as rich text)."""
    known = _ADVANCES.setdefault(advances_key, {})
    if len(known) >= _ADVANCES_MAX:
        known.clear()

    def advance(part: str) -> float:
        found = known.get(part)
        if found is None:
            found = known[part] = metrics.horizontalAdvance(part)
        return found

    lines = wrap_parts(text, width, advance, metrics.horizontalAdvance, margin)
    if len(lines) > 1:
        _balance_last_line(lines, metrics, width)
    return [_line(line) for line in lines] or [""]


def _wrap_metrics(
    font: QtGui.QFont, font_key: str, scripts: bool
) -> tuple[QtGui.QFontMetricsF | RichMetrics, float]:
    """:func:`wrap_in`'s metrics of ``font`` (:class:`RichMetrics` with ``scripts``) and
    the margin within which a line's estimated width is measured whole (a character at
    least), kept per font key (all that a font's metrics depend on) and ``scripts``."""
    key = (font_key, scripts)
    found = _METRICS.get(key)
    if found is None:
        if len(_METRICS) >= _METRICS_MAX:
            _METRICS.clear()
        own = QtGui.QFont(font)  # (a copy: the caller's font may change after)
        metrics: QtGui.QFontMetricsF | RichMetrics = (
            RichMetrics(own) if scripts else QtGui.QFontMetricsF(own)
        )
        margin = max(metrics.averageCharWidth(), metrics.maxWidth() / 2, 1.0)
        found = _METRICS[key] = (metrics, margin)
    return found


def wrap_parts(
    text: str,
    width: float,
    advance: Callable[[str], float],
    measure: Callable[[str], float],
    margin: float,
) -> list[list[Part]]:
    """:func:`wrap_in`'s lines of ``text`` as parts, before the last line is balanced: a
    line's width is estimated from its parts' ``advance`` (kept) and measured whole
    (``measure``) only where that is within ``margin`` of ``width`` (an infinite
    ``margin``: every line measured whole, the tests' reference).

    A run of pieces too wide for a line alone is broken at its least bad places, its
    first part on the line so far where it fits, or on a line of its own where that
    takes no more lines and breaks at better places: Compare's "Bias added to the
    score" / "vs distance Δ" / "(ALiBi, KERPLE," / "Sandwich, FIRE)" rather than "… vs
    distance Δ (ALiBi," / "KERPLE," / "…" (a free break for one inside the group), or
    "DeBERTa: score of query" / "8 = c2c +" rather than "… query 8 =" / "c2c +".

    A spaced dash ends its line with the word before it where that takes the title no
    more lines than a dash at a line's start (:mod:`gui.plotting.line_breaks`): Word
    order's former title "A: 'dog bites man' — causal mask, no positions" in the
    1920 x 1080 window was "A: 'dog bites" / "man' — causal" / "mask, no positions",
    not "A: 'dog bites man'" / "— causal mask, no" / "positions"; its "A: 'dog bites
    man' — no positions" (13 pt) kept "A: 'dog bites man'" / "— no positions" from
    154 px to 172 px, where "A: 'dog bites" / "man' — no" / "positions" would take
    three lines (the view now writes "A: 'dog bites man' (no positions)")."""
    lines = _wrap_parts(text, width, advance, measure, margin, True)
    if len(lines) > 1 and spaced_dash(text):
        loose = _wrap_parts(text, width, advance, measure, margin, False)
        if len(loose) < len(lines):
            return loose
    return lines


def _wrap_parts(
    text: str,
    width: float,
    advance: Callable[[str], float],
    measure: Callable[[str], float],
    margin: float,
    dashes: bool,
) -> list[list[Part]]:
    """:func:`wrap_parts` with a spaced dash glued to the word before it (``dashes``) or
    not."""
    space = advance(" ")
    lines: list[list[Part]] = []  # each line's parts (a break may go between two)
    state = [0.0]  # the last line's width as estimated (or measured)

    def place(glue: str, text_u: str, penalty: int, unit_w: float) -> bool:
        """Put a unit on the last line if it fits there (an empty last line: if it
        fits a line)."""
        if not lines:
            return False
        wide = state[0] + (space if glue and lines[-1] else 0.0) + unit_w
        if wide > width + margin:
            return False
        if wide > width - margin:
            wide = measure(_line([*lines[-1], (glue, text_u, 0)]))
            if wide > width:
                return False
        lines[-1].append((glue, text_u, penalty))
        state[0] = wide
        return True

    def wrap(
        pieces: tuple[str, ...],
        joins: tuple[str, ...],
        penalties: tuple[int, ...],
        tier: int,
        first: tuple[str, int],
    ) -> None:
        for k, (unit, glue, penalty) in enumerate(units(pieces, joins, penalties, tier)):
            text_u, unit_pieces, unit_joins, unit_penalties = unit
            if k == 0:
                glue, penalty = first  # (the join before the part this unit begins)
            unit_w = advance(text_u)
            if place(glue, text_u, penalty, unit_w):
                continue
            if unit_w <= width or not unit_penalties:
                if lines and not lines[-1]:
                    lines[-1].append((glue, text_u, penalty))
                else:
                    lines.append([(glue, text_u, penalty)])
                state[0] = unit_w
                continue
            # too wide for a line alone: broken at its least bad places
            inner = (unit_pieces, unit_joins, unit_penalties, min(unit_penalties))
            if not lines or not lines[-1]:
                wrap(*inner, (glue, penalty))
                continue
            count, before = len(lines), list(lines[-1])
            wrap(*inner, (glue, penalty))  # its first part on the line so far
            joined, joined_w = [list(line) for line in lines[count - 1 :]], state[0]
            del lines[count:]
            lines[-1][:] = before
            lines.append([])  # on a line of its own
            state[0] = 0.0
            wrap(*inner, (glue, penalty))
            own = sorted((line[0][2] for line in lines[count:]), reverse=True)
            if len(own) > len(joined) - 1 or own >= sorted(
                (line[0][2] for line in joined[1:]), reverse=True
            ):
                lines[count - 1 :] = joined
                state[0] = joined_w

    wrap(*break_points(text, dashes), FREE, ("", 0))
    return lines


#: a part of a wrapped line: (what joins it to the part before: " " or "", its text,
#: the penalty of a break before it)
Part = tuple[str, str, int]


def _line(parts: list[Part]) -> str:
    """A line's text: its parts joined (the first one's join left out)."""
    return "".join([glue + text if k else text for k, (glue, text, _p) in enumerate(parts)])


SHORT_LAST_LINE = 6  # characters: a wrapped text's last line takes words down to this


def _balance_last_line(
    lines: list[list[Part]], metrics: QtGui.QFontMetricsF | RichMetrics, width: float
) -> None:
    """Move parts of the line before down to a short last line of ``lines`` (each a list
    of the parts it may break between; under :data:`SHORT_LAST_LINE` characters) while
    it still fits ``width``, that line keeps a part and the new break is no worse than
    the one it replaces: Relative's Transformer-XL title at 1920 x 1080, 200 %, on stage
    ended in a line of its own holding "8"."""
    while len(_line(lines[-1])) < SHORT_LAST_LINE and len(lines[-2]) > 1:
        moved = lines[-2][-1]
        if moved[2] > lines[-1][0][2]:
            break  # (a worse break: inside a group, a word, after an operator)
        last = [moved, *lines[-1]]
        if metrics.horizontalAdvance(_line(last)) > width:
            break
        lines[-2:] = [lines[-2][:-1], last]


def index_ticks(panel: Panel) -> tuple[list[tuple[float, str]] | None, ...]:
    """``(x, y)`` ticks that label every column and row of a small heatmap (at most
    :data:`MAX_CELLS` along that axis, whole-number coordinates) that has no ticks of
    its own; ``None`` for an axis that keeps pyqtgraph's. pyqtgraph's spacing labelled
    a 12 × 12 grid's columns 0, 2, 5, 7, 10 (no 11): the course prints a small grid with
    every index, as its values are printed in the cells.

    Kept per axis's count and coordinates (asked on every frame: ALiBi's two 8 x 8 maps
    took ~50 us a frame built anew); each call returns lists of its own."""
    if panel.kind != "heatmap" or panel.image is None or np.ndim(panel.image) != 2:
        return None, None
    rows, cols = np.shape(panel.image)
    return _axis_ticks(panel.x_coords, cols), _axis_ticks(panel.y_coords, rows)


def tile_spans(panel: Panel, side: str) -> tuple[tuple[float, float], ...]:
    """``(first, last)`` cell of each of a mosaic's tiles along its ``"bottom"`` or
    ``"left"`` axis (its columns or rows of tiles), in order; ``()`` without tiles."""
    if side == "bottom":
        spans = {(t.col0, t.col0 + len(t.x_coords) - 1) for t in panel.tiles}
    else:
        spans = {(t.row0, t.row0 + len(t.y_coords) - 1) for t in panel.tiles}
    return tuple((float(lo), float(hi)) for lo, hi in sorted(spans))


_AXIS_TICKS: dict[tuple[int, object], tuple[tuple[float, str], ...] | None] = {}
_AXIS_TICKS_MAX = 256  # (cleared when full)


def _axis_ticks(coords: object, count: int) -> list[tuple[float, str]] | None:
    """:func:`index_ticks`' ticks of one axis of ``count`` cells at ``coords`` (``None``:
    0 … count - 1), kept per count and coordinates."""
    if not 1 < count <= MAX_CELLS:  # (a lecture-size map, every frame: nothing built)
        return None
    array = None if coords is None else np.asarray(coords, float)
    key = (count, None if array is None else (array.shape, array.tobytes()))
    if key in _AXIS_TICKS:
        found = _AXIS_TICKS[key]
        return None if found is None else list(found)
    if len(_AXIS_TICKS) >= _AXIS_TICKS_MAX:
        _AXIS_TICKS.clear()
    values = np.arange(count, dtype=float) if array is None else array
    ticks: tuple[tuple[float, str], ...] | None = None
    if (
        values.shape == (count,)
        and np.all(np.isfinite(values))
        and np.all(values == np.round(values))
    ):
        # a negative index with the minus U+2212, as the automatic ticks write it
        ticks = tuple((float(v), minus_signs(str(int(v)))) for v in values)
    _AXIS_TICKS[key] = ticks
    return None if ticks is None else list(ticks)


def signed_levels(panel: Panel | None) -> bool:
    """Whether a heatmap's colour bar may label negative values (its value axis keeps
    room for the minus sign): unless its fixed levels start at 0 or above (attention
    weights, 0 … 1) and its colours are not diverging."""
    if panel is None or panel.levels is None or panel.colormap == "diverging":
        return True
    return bool(min(panel.levels) < 0)


_INDEX_TEXTS = [tuple(str(i) for i in range(n)) for n in range(MAX_CELLS + 1)]
_COORD_TEXTS: dict[tuple[int, int, str, bytes], tuple[str, ...]] = {}


def index_width(
    panel: Panel, font: QtGui.QFont, stage: bool = False, value_pt: float = 0.0
) -> float:
    """The plot width (px) in which a small heatmap labels every one of its columns
    (:func:`index_ticks`) at the smallest size index labels take
    (:func:`gui.render.fast_axis.index_label_pitch` in tick ``font``; on ``stage`` with
    the view's range padding, :data:`WORD_ROOM_PAD`, around them), with its row labels
    (:func:`row_label_width`) and :data:`INDEX_GRID_ROOM` beside its data; 0 for other
    panels. Word order's 3 × 16 output grids at 1280 × 720, 100 %, on stage had
    10.7 px columns in four plot columns: "10", "12" and "14" were left out. On
    ``stage`` the labels' smallest size is the stage's (:func:`index_tick_scales`).
    A small grid's data is at least as wide as its values need (:func:`value_width`,
    at ``value_pt`` or more where given).

    A panel with ``layout_columns`` (Word order's d differences) is measured as if it
    had that many columns (``0 … n - 1``) of values as wide as its colour levels print
    (:func:`value_width`), whatever it has now: the plot columns and their widths stay
    as they are while a slider changes its columns."""
    return index_widths(panel, font, stage, (value_pt,))[0]


_INDEX_WIDTHS: dict[tuple, tuple[float, ...]] = {}
_INDEX_WIDTHS_MAX = 256  # (cleared when full)


def _index_widths_key(
    panel: Panel, font: QtGui.QFont, stage: bool, value_pts: tuple[float, ...]
) -> tuple | None:
    """Everything :func:`index_widths` of a heatmap reads: its kind, shape,
    coordinates, ticks, reserved columns, levels, decimals and squareness, its values
    where a small grid prints them (:func:`value_width`), the tick font, the stage and
    the value sizes (with the UI scale's value size); ``None`` for a panel with no
    index labels and no words (no width: :func:`index_widths` answers at once)."""
    image = panel.image
    if panel.kind != "heatmap" or image is None or image.ndim != 2:
        return None
    shape = image.shape
    if shape[1] > MAX_CELLS and panel.layout_columns is None:
        return None  # (no index labels, no words: no width, found at once)
    values: object = None  # (value_width reads the values of a small grid only)
    if (panel.layout_columns is None or panel.levels is None) and max(shape) <= MAX_CELLS:
        values = (image.dtype.str, image.tobytes())
    coords = (_coords_key(panel.x_coords), _coords_key(panel.y_coords))
    return (
        shape,
        values,
        coords,
        None if panel.x_ticks is None else tuple(panel.x_ticks),
        None if panel.y_ticks is None else tuple(panel.y_ticks),
        panel.layout_columns,
        panel.levels,
        panel.cell_decimals,
        panel.square,
        font.key(),
        stage,
        value_pts,
        current_theme().font_pt(VALUE_PT),
    )


def _coords_key(coords: object) -> tuple | None:
    """A heatmap's coordinates along one axis as a key (``None`` without)."""
    if coords is None:
        return None
    array = np.asarray(coords)
    return (array.shape, array.dtype.str, array.tobytes())


def index_widths(
    panel: Panel, font: QtGui.QFont, stage: bool, value_pts: tuple[float, ...]
) -> tuple[float, ...]:
    """:func:`index_width` at each of ``value_pts``, its labels measured once (the view
    asks on stage for its values at the smallest size and at the stage's, each frame).
    Kept for everything it reads (:func:`_index_widths_key`): a drag's frames ask
    again with the same labels and mostly the same values (~80 Python calls a small
    grid, each frame)."""
    key = _index_widths_key(panel, font, stage, value_pts)
    if key is None:
        return (0.0,) * len(value_pts)  # (no index labels, no words: no width)
    known = _INDEX_WIDTHS.get(key)
    if known is None:
        if len(_INDEX_WIDTHS) >= _INDEX_WIDTHS_MAX:
            _INDEX_WIDTHS.clear()
            _INDEX_ROOMS.clear()
        # the labels' room, kept apart from the values (a drag changes the values of
        # Word order's weights on every frame, its labels never)
        labels_key = (key[0], *key[2:])
        room = _INDEX_ROOMS.get(labels_key, _NO_ROOM)
        if room is _NO_ROOM:
            room = _INDEX_ROOMS[labels_key] = _index_room(panel, font, stage)
        known = _INDEX_WIDTHS[key] = _widths_beside(panel, room, value_pts)
    return known


_INDEX_ROOMS: dict[tuple, tuple[float | None, float] | None] = {}
_NO_ROOM = (-1.0, -1.0)  # (not found yet)


def _index_room(panel: Panel, font: QtGui.QFont, stage: bool) -> tuple[float | None, float] | None:
    """What :func:`index_widths` takes of a panel's labels: the plot width its index
    labels need (``None`` where it has words for labels: its values' width counts
    alone) and the room beside its data (its row labels', :data:`INDEX_GRID_ROOM`);
    ``None`` for a panel that needs no width."""
    texts = _index_texts(panel, panel.x_coords, 1)
    reserve = panel.layout_columns
    if reserve is not None and panel.kind == "heatmap":
        texts = _INDEX_TEXTS[reserve] if 1 < reserve <= MAX_CELLS else ()
    if not texts and not _worded_square(panel):
        return None
    fixed, per_pt = INDEX_GRID_ROOM
    room = fixed + per_pt * max(font.pointSizeF(), 0.0) + row_label_width(panel, font, stage)
    if not texts:  # words for labels: the room its values need (their labels follow)
        return None, room
    # On stage the data takes 1 / WORD_ROOM_PAD of the plot's view (its range padding)
    # and the labels have no smaller size to go to: PE's 16 dimensions at 1920 x 1080 /
    # 300 % had 39 px columns for 40 px labels. In the window the labels' last-resort
    # sizes take up the padding (Word order's grids keep their plot columns).
    pad = WORD_ROOM_PAD if stage else 1.0
    return pad * len(texts) * index_label_pitch(font, texts, stage=stage), room


def _widths_beside(
    panel: Panel, room: tuple[float | None, float] | None, value_pts: tuple[float, ...]
) -> tuple[float, ...]:
    """:func:`index_widths` at each of ``value_pts`` from the labels' ``room``
    (:func:`_index_room`) and the values' width (:func:`value_width`)."""
    if room is None:
        return (0.0,) * len(value_pts)
    labels, beside = room
    if labels is None:
        return tuple(padded_span(value_width(panel, pt)) + beside for pt in value_pts)
    return tuple(max(labels, padded_span(value_width(panel, pt))) + beside for pt in value_pts)


_LAYOUT_GEOMETRY = QtWidgets.QGraphicsLayoutItem.geometry
_VISIBLE_TO = QtWidgets.QGraphicsItem.isVisibleTo


def _axis_fit_inputs(axis: pg.AxisItem) -> tuple:
    """What the view's row fit reads from a plot's axis (:meth:`PanelPlot.fit_inputs`):
    its kind, word and index labels, stage, word ticks set (levels of ``(value,
    label)``: :meth:`FastAxisItem.word_extent`; other ticks set are the axis's own,
    in its place) and tick font."""
    words = getattr(axis, "keep_labels", None)
    levels = explicit_ticks(axis) if words else None
    return (
        type(axis),
        words,
        getattr(axis, "index_labels", None),
        getattr(axis, "stage", None),
        None if levels is None else tuple(map(tuple, levels)),
        _font_key(axis),
    )


def _font_key(axis: pg.AxisItem) -> str | None:
    """``axis``'s tick font's ``QFont.key()`` (``None`` without one), kept on the axis
    with the font it was read from while that font is the style's and still equal to
    a copy made then (``QFont ==`` in C: ``key()`` formats a string, ~3.5 us an axis,
    12 axes a frame in ALiBi's fit key)."""
    font = axis.style["tickFont"]
    if font is None:
        return None
    known = getattr(axis, "_pe_font_key", None)
    if known is not None and known[0] is font and known[1] == font:
        return known[2]
    key = font.key()
    axis._pe_font_key = (font, QtGui.QFont(font), key)
    return key


def _panel_fit_inputs(panel: Panel, image: bool) -> tuple:
    """What the view's row fit reads from a plot's panel (:meth:`PanelPlot.fit_inputs`):
    its kind, axis title, table, and a curves plot's lane ticks (``image``: it shows a
    heatmap, whose ticks the fit reads from its axes)."""
    rows = panel.rows or panel.header
    table = (tuple(panel.header), tuple(map(tuple, panel.rows))) if rows else None
    lanes = None if image or panel.y_ticks is None else tuple(panel.y_ticks)
    return (panel.kind, panel.x_axis, panel.x_label, lanes, table)


def _worded_square(panel: Panel) -> bool:
    """Whether ``panel`` is a small square grid labelled with its own ticks (Word
    order's attention weights, a sentence's words on both axes). It asked for no width:
    the lecturer's 9-word sentence drew 9 x 9 weights in 162 px beside its differences'
    424 px at 1920 x 1080 / 100 %, 18 px cells, no values, 8 px words."""
    image = panel.image
    if panel.kind != "heatmap" or image is None or image.ndim != 2 or not panel.x_ticks:
        return False
    return 1 < max(image.shape) <= MAX_CELLS and square_by_default(panel, image.shape)


_VALUE_WIDTHS: dict[tuple[bytes, tuple[int, ...], str, float, int | None, bool, float], float] = {}


_GRID_TEXTS: dict[tuple, list[str]] = {}


def _grid_texts(array: np.ndarray, data: bytes, decimals: int | None) -> list[str]:
    """:func:`grid_texts` of ``array`` (``data``: its bytes), kept for the last few
    grids: :func:`value_width` asks at each value size in turn, for the same values."""
    key = (data, array.shape, array.dtype.str, decimals)
    texts = _GRID_TEXTS.get(key)
    if texts is None:
        if len(_GRID_TEXTS) >= 32:
            _GRID_TEXTS.clear()
        texts = _GRID_TEXTS[key] = grid_texts(array, decimals)
    return texts


_LEGIBLE: dict[tuple[frozenset[str], float, float], tuple[float, float]] = {}


def _legible_cell(texts: list[str], font_pt: float, value_pt: float) -> tuple[float, float]:
    """:func:`legible_cell` of ``texts``, kept for the set of texts and sizes (a drag's
    new values mostly print the same texts)."""
    key = (frozenset(texts), font_pt, value_pt)
    cell = _LEGIBLE.get(key)
    if cell is None:
        if len(_LEGIBLE) >= 256:
            _LEGIBLE.clear()
        cell = _LEGIBLE[key] = legible_cell(texts, font_pt, value_pt)
    return cell


def value_width(panel: Panel, value_pt: float = 0.0) -> float:
    """The data width (px) a small heatmap needs to print its values
    (:func:`gui.render.cell_values.legible_cell`, at the value size the UI scale asks
    for): its columns times the cell, a square grid's square, a words × dimensions
    grid's (cells as tall as the plot makes them) as wide as the values; 0 for other
    panels. The course grid's "-10" at 1920 x 1080, 300 %, on stage needs 44 px cells:
    its 12 columns had 38.5 px. Word order's 3 × 16 differences ("-0.4") need 25.8 px
    columns at 150 %: they had 25.4 px on stage (1920 x 1080) and 19.5 px in a
    1600 x 1000 window (13.9 of 17.2 px at 100 %), and printed no value.

    ``value_pt``: the values at that size or more (:func:`legible_cell`'s
    ``at_least``). A panel with ``layout_columns`` and ``levels`` is measured in that many columns of
    its levels' texts ("-2.7" for ±2.7), whatever its values and columns are now."""
    image = panel.image
    if panel.kind != "heatmap" or image is None or image.ndim != 2:
        return 0.0
    shape = image.shape
    if panel.layout_columns is not None and panel.levels is not None:
        image = np.array([panel.levels], dtype=float)  # the widest values it may print
        shape = (shape[0], panel.layout_columns)
    if max(shape) > MAX_CELLS:
        return 0.0
    font_pt = current_theme().font_pt(VALUE_PT)
    array = np.ascontiguousarray(image)
    square = square_by_default(panel, shape)
    decimals = panel.cell_decimals
    key = (array.tobytes(), shape, array.dtype.str, font_pt, decimals, square, value_pt)
    width = _VALUE_WIDTHS.get(key)
    if width is None:
        if len(_VALUE_WIDTHS) >= 256:
            _VALUE_WIDTHS.clear()
        texts = _grid_texts(array, key[0], panel.cell_decimals)
        cell_w, cell_h = _legible_cell(texts, font_pt, value_pt) if texts else (0.0, 0.0)
        cell = max(cell_w, cell_h) if square else cell_w
        width = _VALUE_WIDTHS[key] = shape[1] * cell
    return width


def _index_texts(panel: Panel, coords: object, axis: int) -> tuple[str, ...]:
    """The index labels of a heatmap's columns (``axis`` 1) or rows (0), as
    :func:`index_ticks` makes them; () without (explicit ticks, too many cells).
    No arrays built for 0 … n - 1 (asked on every frame); others kept per coords."""
    image = panel.image
    explicit = panel.x_ticks if axis == 1 else panel.y_ticks
    if panel.kind != "heatmap" or explicit or image is None or image.ndim != 2:
        return ()
    count = image.shape[axis]
    if not 1 < count <= MAX_CELLS:
        return ()
    if coords is None:
        return _INDEX_TEXTS[count]
    array = np.asarray(coords)
    key = (axis, count, array.dtype.str, array.tobytes())
    texts = _COORD_TEXTS.get(key)
    if texts is None:
        if len(_COORD_TEXTS) >= 256:
            _COORD_TEXTS.clear()
        ticks = index_ticks(panel)[0 if axis == 1 else 1]
        texts = _COORD_TEXTS[key] = tuple(text for _v, text in ticks or ())
    return texts


_WIDEST: dict[tuple[str, bool, bool, tuple[str, ...]], float] = {}


def row_label_width(panel: Panel, font: QtGui.QFont, stage: bool = False) -> float:
    """The width (px) of a heatmap's widest row label: its own ticks (words, kept at
    full size) in tick ``font``, its index labels at their smallest size (on
    ``stage``: there), else its last row's coordinate in ``font``."""
    texts: tuple[str, ...]
    smallest = False
    if panel.y_ticks:
        texts = tuple(text for _v, text in panel.y_ticks)
    else:
        texts = _index_texts(panel, panel.y_coords, 0)
        smallest = bool(texts)
        if not texts:
            rows = np.shape(panel.image)[0] if panel.image is not None else 0
            texts = (str(rows),)
    key = (font.key(), smallest, stage, texts)
    width = _WIDEST.get(key)
    if width is None:
        if len(_WIDEST) >= 256:
            _WIDEST.clear()
        metrics = QtGui.QFontMetricsF(smallest_index_font(font, stage) if smallest else font)
        width = _WIDEST[key] = max((metrics.horizontalAdvance(t) for t in texts), default=0.0)
    return width


_LINE_HEIGHTS: dict[str, float] = {}  # font key -> a rich-text line's height (px)


def line_height(font: QtGui.QFont) -> float:
    """The height (px) a line adds to a rich text in ``font``, as a title or an axis
    title lays it out (a text document: each line a whole number of px, the font's line
    spacing rounded up: 32 px at 13 pt / 150 %, where the spacing is 31.4); kept per
    font."""
    key = font.key()
    height = _LINE_HEIGHTS.get(key)
    if height is None:
        if len(_LINE_HEIGHTS) >= 256:
            _LINE_HEIGHTS.clear()
        document = QtGui.QTextDocument()
        document.setDefaultFont(font)
        document.setHtml("x")
        one = document.size().height()
        document.setHtml("x<br>x")
        height = _LINE_HEIGHTS[key] = document.size().height() - one
    return height


_LINE_COUNTS: dict[tuple[str, str, float, bool], tuple[int, float]] = {}
_LINE_COUNTS_MAX = 4096  # (texts × fonts × widths seen: cleared when full)


def wrapped_lines(
    text: str, font: QtGui.QFont, width: float, *, scripts: bool = False
) -> tuple[int, float]:
    """``(lines, line height)`` of ``text`` wrapped by :func:`wrap_in` within
    ``width`` px in ``font`` (:func:`line_height`: the font's line spacing left 0.6 px a
    line out at 150 %); kept per text, font and width (the view's grid asks for every
    plot's title and axis title on each frame, ~0.1 ms each measured anew).
    ``scripts``: as :func:`wrap_in`'s."""
    key = (text, font.key(), width, scripts)
    known = _LINE_COUNTS.get(key)
    if known is None:
        if len(_LINE_COUNTS) >= _LINE_COUNTS_MAX:
            _LINE_COUNTS.clear()
        known = _LINE_COUNTS[key] = (
            len(wrap_in(text, font, width, scripts=scripts)),
            line_height(font),
        )
    return known


def _repaint(curve: pg.GraphicsObject) -> None:
    """Ask for ``curve``'s pixels again (from the group that paints it, if any)."""
    group = getattr(curve, "painted_by", None)
    (curve if group is None else group).update()


def _trail_runs(panel: Panel) -> list[int]:
    """For each series of an arrows ``panel``, the length of the run it belongs to
    that one :class:`LineGroup` paints: consecutive solid lines of one name and colour
    (a trail's fading pieces, :func:`core.views.clock.trail_series`); 1 for a series
    drawn as an item of its own."""
    out: list[int] = []
    series = panel.series
    i = 0
    while i < len(series):
        first = series[i]
        j = i + 1
        while (
            j < len(series)
            and first.style == "line"
            and (series[j].name, series[j].style, series[j].color)
            == (first.name, first.style, first.color)
        ):
            j += 1
        out += [j - i] * (j - i)
        i = j
    return out


_BLANK_LINE = "<br>\u00a0"  # a title line kept through a drag (a space: a whole line's height)


def arrows_text(panel: Panel) -> str:
    """The readout of an arrows panel: each arrow's angle and tip, e.g. ``q: 114.6°
    (-0.416, 0.909)``. (Read as curves, the clock's hands gave "= 0.718952 — k trail:
    0.605565, k trail: …": no x to name, each trail segment on its own.)"""
    parts = []
    for a in panel.arrows:
        angle = float(np.degrees(np.arctan2(a.y, a.x)))
        parts.append(f"{a.name}: {angle:.1f}° ({a.x:.3g}, {a.y:.3g})")
    return ", ".join(parts)


NO_VALUE = "no value"  # a curve's readout where it has no value (a gap, NaN)


def nearest_values(xs: np.ndarray, ys: np.ndarray, x: float) -> tuple[float, str] | None:
    """The curve's point nearest to ``x``: ``(its x, its y as text)``; ``None`` without a
    finite x. A series of several lines (broken by NaN, e.g. "all 8 heads") has a point
    at that x on each: the text is their range, ``"lo … hi"``, not one line's value (NaN
    separators never count as nearest: the readout said "x = nan"). A point without a
    value reads "no value" (a band over it says why; Compare's learned curve past its
    table read "learned (random): nan" to the class)."""
    xs, ys = np.asarray(xs, float), np.asarray(ys, float)
    n = min(xs.size, ys.size)
    ok = np.isfinite(xs[:n])
    if not ok.any():
        return None
    xs, ys = xs[:n][ok], ys[:n][ok]
    at = xs[int(np.argmin(np.abs(xs - x)))]
    same = ys[xs == at]
    same = same[np.isfinite(same)]
    if not same.size:
        return float(at), NO_VALUE
    lo, hi = float(same.min()), float(same.max())
    return float(at), f"{lo:.6g}" if lo == hi else f"{lo:.6g} … {hi:.6g}"


def sample_step(xs: np.ndarray) -> float:
    """The usual distance between a series' x values (the median step of its distinct
    finite x), 0 for fewer than two."""
    xs = np.unique(np.asarray(xs, float))
    xs = xs[np.isfinite(xs)]
    return float(np.median(np.diff(xs))) if xs.size > 1 else 0.0


def marks_elsewhere(first: Series, marks: Series, at: float) -> bool:
    """Whether the scatter series ``marks`` has no point at the readout's x: its point
    nearest ``at`` (the first series' x read) lies more than half a step of either
    series away. A marker (RoPE's "m − n = −4" dot at offset −4) was read at every
    offset: "offset m − n = 51 — …, m − n = −4: −4.66508"."""
    if marks.style != "scatter":
        return False
    near = nearest_values(marks.x, marks.y, at)
    if near is None:
        return True
    reach = max(sample_step(first.x), sample_step(marks.x)) / 2
    return abs(near[0] - at) > reach * (1 + 1e-9)


# (a line's arrays, LineItem.getOriginalDataset, and a pair's parts, taken by map
# without a call into Python an item: PanelPlot._find_covers)
_ORIGINAL, _FIRST, _SECOND = attrgetter("_original"), itemgetter(0), itemgetter(1)
_NONE_ID = id(None)


class PanelPlot(PanelExtras, CellDisplay):
    """One plot of a view: builds and refreshes pyqtgraph items for a :class:`Panel`."""

    def __init__(self, plot: pg.PlotItem) -> None:
        self.plot = plot
        # The view's grid shares its room by stretch alone, not by what the plots hold:
        # legend strips and wrapped axis titles follow the plot's size, and size hints
        # following them made the grid settle where its path led (a panel focused and
        # back came back some px off).
        plot.setMinimumSize(0, 0)
        plot.setPreferredSize(100, 100)
        # a title that never widens the grid (long titles wrap onto more lines)
        install_title_label(plot).geometryChanged.connect(self._elide_title)
        self.panel: Panel | None = None
        self.curves: list[LineItem | pg.PlotDataItem] = []  # lines; symbols
        self.bands: list[BandItem] = []  # a curves panel's ranges without data (hatched)
        self.bars: pg.BarGraphItem | None = None
        self.image: pg.ImageItem | None = None
        self.colorbar: pg.ColorBarItem | None = None
        self.arrows: list[pg.GraphicsObject] = []
        self.text_labels: list[HaloText] = []  # an arrows panel's labels
        self._captions: list[HaloText] = []  # ... those in the strip above the data
        # every text of an arrows panel with where it goes and the data point it names
        # (see place_labels)
        self._label_homes: list[tuple[pg.TextItem, float, float, float, float]] = []
        self.legend: StripLegend | None = None
        self._legend_width: float | None = None  # the width the legend was fitted to
        # the smallest legible plot without a legend (px; its view's grid sets it, 0:
        # none, e.g. an export's): a plot taller than that has room for its legend
        self.legible_height = 0.0
        #: on stage, the height (px) the plot may take for a small grid's values at the
        #: stage's value size (:meth:`word_room`; its view's grid sets it: the stage
        #: below the view's heading); 0: not on stage, the least size's room only
        self.stage_room = 0.0
        self.table: pg.TextItem | None = None
        self.grid: GridLines | None = None
        self.tile_labels: TileLabels | None = None
        self._shape: tuple | None = None
        self._styled: Theme | None = None  # the theme the items were made or re-styled in
        self._on_stage = False  # (set_stage)
        self._button: tuple[int, bool] | None = None  # the "A" button's (size, hidden)
        self.restyled = 0  # re-styles in place for another theme or UI scale (tests)
        self.rebuilds = 0  # how often the items were made anew (their owners re-collect them)
        self.restyles = self.relabels = 0  # axis titles set with their styles / text alone
        self._labels_key: tuple | None = None  # what _apply_labels last applied
        self._ticks: tuple | None = None  # explicit (x, y) ticks last set
        self._tick_values: tuple | None = None  # ... and their values (kept over a re-style)
        self._title: tuple | None = None  # what _apply_title last applied
        self._full_title: tuple[str, str, str] = ("", "#000000", "13pt")
        self._shown_title: str | None = None
        # a slider drags: the title keeps as many lines as shown (see _elide_title)
        self.hold_title_lines = False
        #: a slider drag's live frames hold a curve plot's range (PlotViewBox.hold_frame)
        self.hold_range = False
        #: through a slider drag, the characters the dragged parameter's widest value
        #: takes (0: no drag, or not a whole number): legend names that follow it keep
        #: that room (:meth:`StripLegend.reserve`)
        self.drag_digits = 0
        self._drag_renamed: set[int] = set()  # legend entries renamed through the drag
        self._title_room: tuple[tuple | None, float] = (None, 0.0)  # title_room's last
        self.title_rooms_reused = 0  # title_room answers given again unmeasured (tests)
        # the title's lines and the px beyond one line that title_room last counted
        self.title_room_lines: tuple[int, float] = (0, 0.0)
        self._quality: tuple | None = None  # set_quality's last inputs (and items)
        self.quality_passes = 0  # set_quality calls that looked at every item (tests)
        self._table_html: str | None = None
        self._image_source: tuple | None = None  # (levels, (image, x, y)) last shown
        # a drag's held colour range and the exact one (_levels_now)
        self._held_levels: tuple[float, float] | None = None
        self._exact_levels: tuple[float, float] = (0.0, 1.0)
        # the hatch over a heatmap's NaN cells (Panel.missing) and what it was made for
        self._missing_item: QtWidgets.QGraphicsPathItem | None = None
        self._missing_key: tuple | None = None
        self.text_zoom = 1.0  # this plot's text relative to the theme (focus mode)
        #: told when the data's height changed (the view re-fits rows for word ticks)
        self.data_resized: Callable[[PanelPlot], object] | None = None
        self.hover = HoverOverlay(plot, self.probe_text, self.hover_cell)  # label by the cursor
        # an arrows panel's texts are fitted in pixels: again when the pixels change
        plot.getViewBox().sigTransformChanged.connect(self.place_labels)
        # a square matrix's spare width goes beside its plot (see CellDisplay._hug_square):
        # again when the plot or its data's column changes size
        plot.getViewBox().sigResized.connect(self._hug_square)
        plot.geometryChanged.connect(self._hug_square)
        top, left = plot.getAxis("top"), plot.getAxis("left")
        if isinstance(top, FastAxisItem) and isinstance(left, FastAxisItem):
            top.add_length_listener(self._fit_legend)  # the strip's axis: the data's width
            left.add_length_listener(self._data_height_changed)

    # ------------------------------------------------------------------ public
    def show(self, panel: Panel) -> None:
        """Draw ``panel``, reusing items when its shape is unchanged."""
        theme = current_theme()
        shape = (
            panel.kind,
            len(panel.series),
            tuple((s.style, s.color, s.opacity) for s in panel.series),
            len(panel.bands) if panel.kind == "curves" else 0,
            len(panel.arrows),
            len(panel.labels),
            panel.colormap,
            panel.log_x,
            panel.log_y,
        )
        rebuilt = shape != self._shape
        restyled = not rebuilt and theme != self._styled
        if rebuilt:
            self._rebuild(panel, theme)
            self.rebuilds += 1
            self._shape = shape
        elif restyled:
            # another theme or UI scale (F5, the dark/light toggle, a colormap): the
            # items take its colours and sizes where they are (a rebuild of every plot
            # of the view took 0.5-2 s of CPU each way of F5)
            self._restyle(panel, theme)
            self.restyled += 1
        self._styled = theme
        self.panel = panel
        self._style_auto_button(theme)
        changed = rebuilt
        # Title/axis text is re-laid out on every set (about half of show()'s time during
        # a drag); re-apply only when something it depends on changed.
        # Axes re-render (ticks, text) whenever one of their setters is called, so a
        # title that follows a slider (e.g. RoPE's m) must not re-style the axes.
        text = self.text_theme(theme)
        if (panel.title, text) != self._title:
            self._apply_title(panel.title, text)
            self._title = (panel.title, text)
            changed = True
        labels_key = (panel.kind, panel.x_label, panel.y_label, panel.x_axis, panel.y_axis, text)
        if labels_key != self._labels_key:
            old = self._labels_key
            if (
                old is not None
                and panel.kind != "table"
                and (old[0], *old[3:]) == (labels_key[0], *labels_key[3:])
            ):
                # only an axis title's text changed (RoPE's plane names n·θ on its x
                # axis): set that title; the styles set with it are the same
                self._relabel(panel, text, old[1], old[2])
            else:
                self._apply_labels(panel, text)
                self._zoom_legend(text)
            self._labels_key = labels_key
            self._ticks = None
            changed = True
        # explicit ticks follow the data (ALiBi's tiles move with the sequence length):
        # set alone, they leave the axis labels and styles as they are
        ticks = (panel.x_ticks, panel.y_ticks)
        index = index_ticks(panel)
        if panel.kind != "table" and (ticks, index) != self._ticks:
            for name, explicit, indices in (
                ("bottom", panel.x_ticks, index[0]),
                ("left", panel.y_ticks, index[1]),
            ):
                axis = self.plot.getAxis(name)
                axis.setTicks([explicit or indices] if explicit or indices else None)
                if isinstance(axis, FastAxisItem):
                    # words (tokens, model names) are each needed: none left out
                    axis.keep_labels = bool(explicit) and any(
                        ch.isalpha() for _v, text in explicit or () for ch in text
                    )
                    axis.index_labels = not explicit and bool(indices)
                    axis.tile_spans = tile_spans(panel, name) if explicit else ()
                    if (ticks, index) != self._tick_values:  # (not a re-style's)
                        axis.forget_text_room()
            self._ticks = self._tick_values = (ticks, index)
            changed = True
        # Data goes to pyqtgraph only when it changed: a slider usually moves some panels
        # of a view (RoPE's m leaves its frequency and decay plots alone), and every
        # setData/setImage re-runs auto-range, axis layout and rendering.
        if panel.kind == "arrows" and not (rebuilt or restyled) and self.keeps_still(panel, theme):
            # a live frame that moves no point by half a pixel: the items stay as
            # drawn, the strip's texts alone change (full quality draws it exactly)
            self.show_still(panel)
            changed = True
        elif panel.kind in ("curves", "arrows"):  # an arrows panel's trails and arcs
            moved: set[LineGroup] = set()
            for item, s in zip(self.curves, panel.series, strict=True):
                x, y = drawn_xy(s)  # (a straight series' from its run ends)
                old = item.getOriginalDataset()
                change = MOVED if rebuilt else curve_change(old, (x, y))
                if change != SAME:
                    # values that differ by rounding alone keep the curve as drawn (its
                    # range, ticks and grid stay as they are, nothing is stroked anew);
                    # the plot is brought up to date as for any other change
                    if change == MOVED:
                        if isinstance(item, LineItem) and item.painted_by is not None:
                            item.set_data_quietly(x, y)  # its group is told below
                            moved.add(item.painted_by)
                        else:
                            item.setData(x, y)
                    changed = True
                if panel.kind == "curves":
                    item.opts["name"] = wrapped_rich_text(s.name)
            for group in moved:
                group.refresh()
            self._find_covers()
            if panel.kind == "curves":
                for band, b in zip(self.bands, panel.bands, strict=True):
                    band.set_band(*self._band_x(panel, b), b.label)
            self._refresh_legend(panel)
            if panel.kind == "arrows":
                self._show_arrows(panel, theme)
                self._show_labels(panel, theme)
                changed = True
        elif panel.kind == "bars" and panel.series:
            s = panel.series[0]
            x, height = np.asarray(s.x, float), np.asarray(s.y, float)
            if rebuilt or not same_arrays(
                (self.bars.opts.get("x"), self.bars.opts.get("height")), (x, height)
            ):
                width = 0.8 * (np.min(np.diff(x)) if x.size > 1 else 1.0)
                self.bars.setOpts(x=x, height=height, width=width)
                changed = True
        elif panel.kind == "heatmap" and panel.image is not None:
            changed |= self._show_image(panel, force=rebuilt)
            self._style_cells(text)
            self._show_tile_labels(panel, theme)
            self._show_missing(panel, theme)
        elif panel.kind == "table":
            self._show_table(panel, theme)
            changed = True
        # Auto-range and the view transform are otherwise brought up to date inside the
        # next paint, which moves every item and so schedules a second full repaint of
        # the plots right after it (~8 ms). Same computation, done before painting.
        if changed:
            for name in ("left", "bottom"):  # new labels: the axes may get narrower
                axis = self.plot.getAxis(name)
                if isinstance(axis, FastAxisItem):
                    axis.release_text_room()
            view = self.plot.getViewBox()
            if self.hold_range and panel.kind == "curves" and isinstance(view, PlotViewBox):
                view.hold_frame()  # a drag: the range stays while the data fits it
            view.prepareForPaint()
            self.hover.refresh()  # a readout under a resting cursor reads the new data

    def _find_covers(self) -> None:
        """Tell each line of a series whose arrays a later series shows too (Compare's
        sinusoidal and RoPE curves) which line is drawn above it with the same data:
        where that line hides every pixel of it, it paints nothing
        (:meth:`LineItem.hidden_under`)."""
        # each line's arrays read as attributes and their identities taken by map (no
        # call into Python a line: ~60 lines, 5 plots a clock frame); where no two lines
        # share their arrays (a frame of a drag, nearly always) none has a cover
        curves = self.curves
        if {*map(type, curves)} == {LineItem}:  # (an arrows panel's: lines alone)
            lines = curves
        else:
            lines = [item for item in curves if isinstance(item, LineItem)]
        originals = list(map(_ORIGINAL, lines))
        keys = list(
            zip(map(id, map(_FIRST, originals)), map(id, map(_SECOND, originals)), strict=True)
        )
        if len(set(keys)) == len(keys) and _NONE_ID not in map(_FIRST, keys):
            for item in lines:
                item.cover = None
            return
        # from the last line back: the nearest later line with the same arrays, by
        # their identities (one look at each line: a pass over every later line per
        # line asked the clock's ~60 lines ~400 times a frame)
        above: dict[tuple[int, int], LineItem] = {}
        for item, (x, _y), key in zip(
            reversed(lines), reversed(originals), reversed(keys), strict=True
        ):
            if x is None:
                item.cover = None
                continue
            item.cover = above.get(key)
            above[key] = item

    def text_theme(self, theme: Theme) -> Theme:
        """``theme`` with its text sizes multiplied by :attr:`text_zoom` (what the title,
        axis titles, tick labels, legend and colour bar of this plot are drawn with)."""
        if self.text_zoom == 1.0:
            return theme
        return replace(theme, ui_scale=theme.ui_scale * self.text_zoom)

    def set_text_zoom(self, zoom: float) -> None:
        """Draw this plot's text ``zoom`` times the theme's size (1: as the theme says).

        Focus mode enlarges the text of the plot that fills the stage; lines and data
        stay as they are.
        """
        zoom = float(zoom)
        if zoom == self.text_zoom:
            return
        self.text_zoom = zoom
        if self.panel is not None:
            self.show(self.panel)

    def _zoom_legend(self, text: Theme) -> None:
        """The legend's and colour bar's text at the plot's text size."""
        if self.legend is not None:
            size = f"{text.font_pt(10)}pt"
            resized = self.legend.set_sample_zoom(self.text_zoom)  # (samples with it)
            if self.legend.opts.get("labelTextSize") != size:
                self.legend.setLabelTextSize(size)
                for _sample, label in self.legend.items:
                    label.setText(label.text)  # setLabelTextSize only stores the size
                self.legend.updateSize()
                resized = True
            if resized and self._legend_width is not None:
                self._fit_legend(self._legend_width)
        if self.colorbar is not None:
            fit_value_axis(self.colorbar, text.font(10), signed_levels(self.panel))
            self._inset_colorbar()  # (half a line of its labels: see CellDisplay)

    def curve_points(self) -> int:
        """Number of points in this plot's curves (what antialiasing costs scale with)."""
        return sum(0 if item.xData is None else len(item.xData) for item in self.curves)

    def set_quality(self, *, antialias: bool, dashes: bool) -> None:
        """Choose how curves are stroked.

        Qt strokes antialiased pens wider than 1 px very slowly (about 16 ms for six
        100-point curves, 750 ms for six 2048-point ones), while aliased thick lines cost a
        few ms. Live updates draw aliased solid lines; the view antialiases afterwards when
        its curves are sparse enough to afford it. Dashed pens are drawn solid while live
        (a dashed path cannot be split into fast segments).
        """
        # the same quality for the same items: nothing to look at (the view asks on
        # every frame of a drag; a look at every line took ~0.1 ms a clock frame). The
        # items are the same while no rebuild made new ones and the arrows (made on
        # the first show after a rebuild) are as many.
        key = (
            antialias,
            dashes,
            self.rebuilds,
            len(self.curves),
            len(self.arrows),
            len(self.text_labels),
            self.image,
        )
        if key == self._quality:
            return
        self._quality = key
        self.quality_passes += 1
        restyled = False
        image = self.image
        if isinstance(image, FastImageItem) and image.live != (not dashes):
            image.live = not dashes  # (live: a minified heatmap sampled coarsely)
            if image.live_sampled:
                image.update()  # sampled at every pixel again
        if self.cells is not None:
            self.cells.set_live(not dashes)  # (live: masked cells not hatched)
        # an arrows panel's shafts: aliased while live, on the fast curve path (they are
        # antialiased once settled, as they are drawn)
        for line in self.arrows[1::3]:
            if isinstance(line, LineItem):
                if line.settled_antialias is None:
                    line.settled_antialias = bool(line.opts["antialias"])
                aa = line.settled_antialias and dashes
                if line.opts["antialias"] != aa:
                    line.opts["antialias"] = aa
                    line.update()
        # its unit circle too: pyqtgraph's antialiased 1-px stroke of 241 points took
        # ~0.25 ms a paint, and the hands moving over it repaint it on every frame (the
        # clock's five circles: ~1.3 ms a stage frame; aliased: a few hundredths)
        ring = self.arrows[0] if self.arrows else None
        if isinstance(ring, pg.PlotDataItem):
            settled = getattr(ring, "settled_antialias", None)
            if settled is None:
                settled = ring.settled_antialias = bool(ring.opts["antialias"])
            aa = settled and dashes
            if ring.opts["antialias"] != aa:
                ring.opts["antialias"] = ring.curve.opts["antialias"] = aa
                _repaint(ring.curve)
        for text in self.text_labels:  # (live: their halos aliased)
            text.set_live(not dashes)
        # live: the texts keep their last places where still free; full quality places
        # them all anew, as a frame that never was live (place_labels)
        self.labels_live = not dashes
        if dashes and self.still_behind and self.panel is not None:
            self.show(self.panel)  # (a live frame kept it as drawn: drawn exactly now)
        if dashes and self._placed_live:
            self.place_labels()
        for item in self.curves:
            full = getattr(item, "_full_pen", None)
            if full is None:
                full = item._full_pen = item.opts["pen"]
            pen = full
            if (
                not dashes
                and isinstance(full, QtGui.QPen)
                and full.style() != QtCore.Qt.PenStyle.SolidLine
            ):
                solid = getattr(item, "_solid_pen", None)
                if solid is None:
                    solid = item._solid_pen = QtGui.QPen(full)
                    solid.setStyle(QtCore.Qt.PenStyle.SolidLine)
                pen = solid
            curve = item.curve
            if isinstance(curve, FastCurveItem) and curve.live != (not dashes):
                curve.live = not dashes  # (live: noisy curves' tips left out)
                if curve.live_cut:
                    curve.live_cut = False
                    _repaint(curve)  # drawn whole again
            if item.opts.get("antialias") == antialias and item.opts["pen"] is pen:
                continue
            # Set on the PlotDataItem too: it re-applies its options on every view change.
            item.opts["antialias"] = item.curve.opts["antialias"] = antialias
            item.opts["pen"] = item.curve.opts["pen"] = pen
            _repaint(item.curve)
            restyled = True
        if restyled and self.legend is not None:
            self.legend.update()  # its samples draw with the curves' pens

    def plotted_arrays(self) -> dict[str, np.ndarray]:
        """The arrays currently held by the pyqtgraph items (for tests)."""
        out: dict[str, np.ndarray] = {}
        for i, item in enumerate(self.curves):
            x, y = item.getOriginalDataset()
            out[f"curve{i}.x"], out[f"curve{i}.y"] = x, y
        if self.image is not None and self.image.image is not None:
            out["image"] = self.image.image
        if self.bars is not None:
            out["bars.height"] = np.asarray(self.bars.opts["height"])
        return out

    # ------------------------------------------------------------------ drawing
    def _rebuild(self, panel: Panel, theme: Theme) -> None:
        self._labels_key = self._title = self._table_html = self._image_source = None
        self._missing_item = self._missing_key = None  # (cleared with the plot's items)
        self._ticks = self._tick_values = None
        self.plot.clear()
        bar = self.colorbar
        if bar is not None:
            # out of the plot's layout and scene: hidden only, each rebuild of a heatmap
            # added another bar to the same layout cell (the training lab's similarity
            # plot held 7 after 4 runs, 6 of them hidden)
            self.plot.layout.removeItem(bar)
            if bar.scene() is not None:
                bar.scene().removeItem(bar)
            bar.setParentItem(None)
            self.colorbar = None
        self.curves, self.bars, self.image, self.arrows, self.table = [], None, None, [], None
        self.bands = []
        self._drop_labels()  # (the strip's: not the plot's items, kept by clear())
        self._label_homes = []
        self._drop_tile_labels()
        self._drop_cells()
        for name in ("left", "bottom"):
            self.plot.showAxis(name, panel.kind != "table")
        self.plot.setMouseEnabled(x=panel.kind != "table", y=panel.kind != "table")
        self._drop_legend()
        self.plot.setLogMode(x=panel.log_x, y=panel.log_y)
        self.plot.invertY(panel.kind == "heatmap")
        self.plot.setAspectLocked(panel.kind == "arrows")
        # The grid is drawn behind the data by GridLines, not by the axes (see grid_lines).
        self.plot.showGrid(x=False, y=False)
        if self.grid is not None:
            self.grid.detach()
            self.grid = None
        # (an arrows panel without axes, the clock's small planes, has no grid: no
        # value is read off it, its circle is the scale; the grid was clutter on the
        # stage, repainted under the moving hands on every frame of a drag)
        bare_plane = panel.kind == "arrows" and not (panel.x_axis or panel.y_axis)
        if panel.kind in ("curves", "bars", "arrows") and not bare_plane:
            self.grid = GridLines(self.plot, GRID_ALPHA, theme.background)
        entries = len(panel.series) + len(panel.bands)
        if panel.kind == "curves" and entries > 1 and len(panel.series) <= MAX_LEGEND_ENTRIES:
            # (more entries would hide the data); in a strip above the data, never over
            # the curves (see legend_strip)
            self._make_legend(entries, theme)
        if panel.kind in ("curves", "arrows"):
            runs = _trail_runs(panel) if panel.kind == "arrows" else [1] * len(panel.series)
            pieces: list[LineItem] = []  # a trail's lines so far (painted as one item)
            for i, s in enumerate(panel.series):
                color = pg.mkColor(series_color(i if s.color is None else s.color, theme))
                if s.opacity < 1.0:  # faded: a trail's older part, a ghost
                    color.setAlphaF(max(0.0, float(s.opacity)))
                item = self._make_curve(
                    s.style,
                    color,
                    # a legend entry is rich text: m_h as m with a subscript h
                    wrapped_rich_text(s.name) if panel.kind == "curves" else None,
                    theme,
                    add=runs[i] == 1,
                )
                if panel.kind == "arrows" and isinstance(item, LineItem):
                    item.wide_pen_points = ARROWS_WIDE_PEN_POINTS
                self.curves.append(item)
                if runs[i] > 1 and isinstance(item, LineItem):
                    pieces.append(item)
                    if len(pieces) == runs[i]:  # in the plot where its lines were
                        self.plot.addItem(LineGroup(pieces))
                        pieces = []
            if panel.kind == "curves":
                for b in panel.bands:
                    self._make_band(panel, b, theme)
        elif panel.kind == "bars":
            self.bars = pg.BarGraphItem(
                x=[0], height=[0], width=0.8, brush=series_color(0, theme), pen=None
            )
            self.plot.addItem(self.bars)
        elif panel.kind == "heatmap":
            self.image = FastImageItem(axisOrder="row-major")
            self.plot.addItem(self.image)
            cmap = theme.colormap(panel.colormap)
            self.image.setColorMap(cmap)
            if not panel.colorbar:
                return
            self.colorbar = FastColorBarItem(
                colorMap=cmap, interactive=False, width=theme.scaled(14)
            )
            self.colorbar.setImageItem(self.image, insert_in=self.plot)
            # two tick levels, as on the plots' axes (see _apply_labels)
            self.colorbar.axis.setStyle(maxTickLevel=1)
            fit_value_axis(self.colorbar, theme.font(10), signed_levels(panel))
            self.colorbar.axis.setTextPen(theme.foreground)
            self.colorbar.axis.setPen(theme.foreground)
            # no device cache, as for the plot axes (see _apply_labels): a colour bar whose
            # levels follow a slider (ALiBi's) re-rendered and blended it every frame
            self.colorbar.axis.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.NoCache)

    def restart_axes(self) -> None:
        """The axes size themselves from here on as new axes would: for new fonts (a
        re-style) or a new place in the grid (other columns). pyqtgraph keeps the
        room of wider labels shown before (up to 10 px), and an axis title wrapped at
        a width the plot had on its way there (the chrome coming back after F5)
        held its two lines' room after it fitted on one."""
        for name in ("bottom", "left"):
            axis = self.plot.getAxis(name)
            if isinstance(axis, FastAxisItem):
                axis.restart_text_room()

    def _restyle(self, panel: Panel, theme: Theme) -> None:
        """Give the items :meth:`_rebuild` made the colours and sizes of ``theme`` (a new
        UI scale, light or dark, colormaps) where they are, as :meth:`_rebuild` would
        make them in it: pens, markers, bars, bands, grid, colormap and colour bar,
        legend text colour. The axis and plot titles, tick fonts, the legend's and the
        colour bar's text sizes follow from :meth:`show` (their keys hold the theme);
        an arrows panel's arrows and texts take the theme's colours and sizes too; a
        mosaic's tile labels and the masked cells' key are made again by the show.
        (A highlight's mask, :mod:`gui.plotting.emphasis`, keeps the pen it was set
        with until set again.)"""
        self.restart_axes()
        if self.grid is not None:
            self.grid.background = QtGui.QColor(theme.background)
            self.grid.update()
        groups: set[LineGroup] = set()
        if panel.kind in ("curves", "arrows"):
            for i, (item, s) in enumerate(zip(self.curves, panel.series, strict=True)):
                color = pg.mkColor(series_color(i if s.color is None else s.color, theme))
                if s.opacity < 1.0:
                    color.setAlphaF(max(0.0, float(s.opacity)))
                if s.style == "scatter":
                    item.opts["symbolBrush"] = pg.mkBrush(color)
                    item.opts["symbolSize"] = theme.scaled(7)
                    # the markers styled anew, from an empty atlas: its widest symbol
                    # (the larger scale's) is the room auto-range leaves at the ends
                    item.scatter.fragmentAtlas.clear()
                    item.scatter.clear()
                    item._styled = None
                    item.updateItems(styleUpdate=True)
                    continue
                item.setPen(self._curve_pen(s.style, color, theme))
                # set_quality strokes the new pen (solid while live, as before)
                item._full_pen = item.opts["pen"]
                item._solid_pen = None
                if isinstance(item, LineItem) and item.painted_by is not None:
                    groups.add(item.painted_by)
            for group in groups:
                group.refresh()
            for band in self.bands:
                band.fill = QtGui.QColor(theme.masked)
                band.hatch = QtGui.QColor(theme.masked_hatch)
                band.update()
            for text in self.text_labels:
                text.setFont(theme.font(11, bold=True))
            self._restyle_arrows(theme)
        self._quality = None
        if self.bars is not None:
            self.bars.setOpts(brush=series_color(0, theme))
        if self.image is not None:
            cmap = theme.colormap(panel.colormap)
            self.image.setColorMap(cmap)
            self._image_source = None  # shown again: the cells' colours follow the map
            self._drop_masked_key()
            self._drop_tile_labels()
            bar = self.colorbar
            if bar is not None:
                bar.setColorMap(cmap)
                bar.layout.setColumnFixedWidth(1, theme.scaled(14))
                bar.axis.setTextPen(theme.foreground)
                bar.axis.setPen(theme.foreground)
        legend = self.legend
        if legend is not None and shiboken6.isValid(legend):
            legend.setLabelTextColor(theme.foreground)
            for sample, label in legend.items:
                label.setText(label.text)  # (setLabelTextColor only stores the colour)
                sample.update()
            self._legend_width = None  # fitted again (_refresh_legend)

    def _drop_legend(self) -> None:
        """Remove the legend from the scene *and* from the ``PlotItem``.

        ``PlotItem.addLegend`` returns the legend the plot already holds, and ``addItem``
        keeps adding named items to it: a legend only taken out of the scene would be
        handed back on the next rebuild and stay invisible for good.
        """
        legend = self.legend or self.plot.legend
        if isinstance(legend, StripLegend):
            legend.detach(self.plot)
        elif legend is not None and legend.scene() is not None:
            legend.scene().removeItem(legend)
        self.legend = self.plot.legend = None

    def _make_curve(
        self,
        style: str,
        color: str | QtGui.QColor,
        name: str | None,
        theme: Theme,
        *,
        add: bool = True,
    ) -> LineItem | pg.PlotDataItem:
        """A series' item, added to the plot unless ``add`` is false (a line that a
        :class:`LineGroup` paints: the group is added)."""
        if style == "scatter":
            # its symbols export as one path (vector symbols one by one: minutes)
            scatter = SymbolSeries(
                name=name,
                pen=None,
                symbol="o",
                symbolSize=theme.scaled(7),
                symbolBrush=color,
                symbolPen=None,
            )
            self.plot.addItem(scatter)
            return scatter
        item = LineItem(
            pen=self._curve_pen(style, color, theme), name=name
        )  # legend entry and log mode from addItem
        if add:
            self.plot.addItem(item)
        return item

    @staticmethod
    def _curve_pen(style: str, color: str | QtGui.QColor, theme: Theme) -> QtGui.QPen:
        """The pen of a line series of ``style`` (solid, dashed) in ``color``."""
        dashed = style == "dashed"
        return pg.mkPen(
            color,
            width=theme.line_width,
            style=QtCore.Qt.PenStyle.DashLine if dashed else QtCore.Qt.PenStyle.SolidLine,
        )

    @staticmethod
    def _band_x(panel: Panel, band: Band) -> tuple[float, float]:
        """``band``'s ends in the view's x coordinates (``log10`` on a log axis)."""
        if not panel.log_x:
            return float(band.x0), float(band.x1)
        ends = [float(np.log10(v)) if v > 0 else float("nan") for v in (band.x0, band.x1)]
        return ends[0], ends[1]

    def _make_band(self, panel: Panel, band: Band, theme: Theme) -> BandItem:
        """A hatched band (the masked cells' look) with its legend entry."""
        item = BandItem(
            *self._band_x(panel, band),
            band.label,
            QtGui.QColor(theme.masked),
            QtGui.QColor(theme.masked_hatch),
        )
        self.plot.addItem(item)  # measured by auto-range: the view keeps the band
        self.bands.append(item)
        if self.legend is not None:
            self.legend.addItem(BandSample(item), wrapped_rich_text(band.label))
        return item

    def _refresh_legend(self, panel: Panel) -> None:
        if self.legend is None:
            return
        renamed = False
        # the entries' rich text (scripts typeset, operators glued: wrapped_rich_text)
        names = [wrapped_rich_text(s.name) for s in panel.series]
        names += [wrapped_rich_text(b.label) for b in panel.bands]
        for i, ((_sample, label), name) in enumerate(zip(self.legend.items, names, strict=False)):
            if label.text == name:
                continue  # (as rename finds: most names stay, ~13 calls a RoPE frame)
            if self.drag_digits:
                self._drag_renamed.add(i)
            # (a name that follows a slider mostly keeps its size: no re-plan then)
            renamed |= self.legend.rename(label, name)
        if renamed and self.drag_digits:
            # a name outgrew its room in a drag (which re-plans the strip now): hold
            # room for the widest value of the range, so that it is the drag's last
            self.legend.reserve(self.drag_digits, sorted(self._drag_renamed))
        if renamed or self._legend_width is None:
            self._fit_legend(self.plot.getViewBox().width())

    def _make_legend(self, columns: int, theme: Theme) -> StripLegend:
        """A legend strip above the data with ``columns`` columns of entries."""
        self.legend = StripLegend(
            colCount=columns,
            labelTextSize=f"{theme.font_pt(10)}pt",
            labelTextColor=theme.foreground,
        )
        self.legend.attach(self.plot)
        self._legend_width = None
        return self.legend

    def legend_room(self, width: float) -> float:
        """Pixels the legend strip takes at its full text size in a plot whose data is
        ``width`` px wide (0 without a legend): the view's grid adds them to the
        smallest legible plot, so a legend with many entries neither squeezes the data
        to a sliver nor shrinks its text (:meth:`StripLegend.plan` keeps the full size
        in that room). The grid passes a share of the plot's width in its grid as if the
        view scrolled, not the plot's width now (which a scroll bar changes: the room
        would chase it)."""
        legend = self.legend
        if legend is None or not shiboken6.isValid(legend) or not legend.items:
            return 0.0
        # (as its text needs: a drag's held room takes from the data, the grid stays)
        return float(legend.strip_height(width, 1.0, held=False))

    def legend_strip_height(self) -> float:
        """Pixels the legend strip takes above the data as laid out now (0 without a
        legend: an arrows panel's captions in the strip are not its legend)."""
        legend = self.legend
        if legend is None or not shiboken6.isValid(legend) or not legend.items:
            return 0.0
        top = self.plot.getAxis("top")
        return float(top.height()) if top.isVisibleTo(self.plot) else 0.0

    def legend_shrunk_by(self) -> float:
        """Pixels the legend strip is lower now than at its full text size (0 at full
        size or without a legend): the view counts a plot's legend at full size when it
        shares the canvas's height among the rows (``ViewWidget._balance_rows``).

        Counted as drawn, the rows followed the text size :meth:`_fit_legend` chose,
        which follows the rows' heights (whether the strip is no taller than the data
        it shares the plot with): a legend whose strip is much lower at 90 % than at
        full size (RoPE's course-vs-real one in 1600 x 1000 at 100 %: three lines at
        90 %, four at full size) had two layouts, at 90 % with the rows 319 px high or
        at full size with 322 px rows, and a focus and back went from one to the
        other."""
        legend = self.legend
        if legend is None or not shiboken6.isValid(legend) or not legend.items:
            return 0.0
        if legend.scale() >= 1.0:
            return 0.0
        full = legend.strip_height(self.plot.getViewBox().width(), 1.0)
        return max(0.0, full - self.plot.getAxis("top").height())

    def set_legible_height(self, height: float) -> None:
        """The smallest legible plot without a legend is ``height`` px (the grid's row
        minimum, before it adds the legend's room); the legend re-fits to the room
        above it when the plot's size changes next (re-fitting it here, outside the
        layout pass, left bottom axis titles over their tick labels at 200 %)."""
        self.legible_height = height

    def data_width(self, width: float) -> float:
        """The data's width (px) in this plot were it ``width`` px wide: less what its
        axes and colour bar beside the data take now (a fifth of it before it was laid
        out)."""
        plot = self.plot
        beside = plot.width() - plot.getViewBox().width()
        if self._square_ratio is not None:  # (its spare width is its title's: _elide_title)
            beside = plot.width() - self.data_column()
        return width - (beside if 0 < beside < width else 0.2 * width)

    def title_room(self, width: float) -> float:
        """Pixels the plot's title and its bottom axis title take beyond one line each
        in a plot ``width`` px wide (0 for a table): the view's grid adds them to the
        smallest legible plot, as :meth:`legend_room`, so that a title wrapped onto
        three or four lines (Word order's "A: 'dog bites man' (causal mask, no
        positions)" over a narrow matrix) does not squeeze the data to a sliver. The
        title wraps at the data's width (its row spans the view box's column only):
        ``width`` less what the axes and the colour bar beside the data take now."""
        panel = self.panel
        if panel is None or panel.kind == "table":
            return 0.0
        plot = self.plot
        data_w = self.data_width(width)
        theme = current_theme()
        title = self._full_title[0]
        # (visible to the plot: a plot a reveal keeps hidden holds its room already)
        title = title if title and plot.titleLabel.isVisibleTo(plot) else ""
        held = 0  # the lines a drag holds the title at
        if title and self.hold_title_lines and self._shown_title is not None:
            held = self._shown_title.count("<br>") + 1
        label = getattr(plot.getAxis("bottom"), "label", None)
        x_label = ""
        if panel.x_axis and panel.x_label and label is not None and label.isVisibleTo(plot):
            x_label = minus_signs(panel.x_label)  # as drawn (wrapped_rich_text)
        # what the room depends on (the view asks on every frame of a drag: the same
        # answer, measured again, took two fonts and their keys per plot)
        key = (title, held, x_label, data_w, theme, self.text_zoom)
        if key == self._title_room[0]:
            self.title_rooms_reused += 1
            return self._title_room[1]
        text = self.text_theme(theme)
        room = 0.0
        self.title_room_lines = (0, 0.0)
        if title:
            lines, spacing = wrapped_lines(title, text.font(13), data_w - 8, scripts=True)
            room += (max(lines, held) - 1) * spacing
            self.title_room_lines = (max(lines, held), room)
        if x_label:
            lines, spacing = wrapped_lines(x_label, text.font(12), data_w - 4, scripts=True)
            room += (min(lines, MAX_TITLE_LINES) - 1) * spacing
        self._title_room = (key, float(room))
        return float(room)

    def fit_inputs(self) -> tuple:
        """What the view's row fit (``ViewWidget._fit_rows``) reads from this plot, as a
        key compared with ``==``: where each part of its grid (title, axes, data, colour
        bar) is and whether it is shown, its margins (a square matrix's spare room), its
        title and axis title, legend entries, tick words and index labels, the sizes
        its values print at (:meth:`CellLayer.best_pt`, :meth:`CellLayer.legible_cell`),
        its table, and the heights and room the fit gave it. Equal keys, equal measures
        (:meth:`title_room`, :meth:`word_room`, :meth:`legend_room`,
        :meth:`fill_height`, …): the view keeps them for a drag's next frame (they
        took ~300 Python calls a plot, each frame). Read in C passes where it can.
        Not its title's and legend's texts (:meth:`text_inputs`): those only their
        own measures read, their room as laid out is in their places."""
        item = self.plot
        layout = item.layout
        items, widgets = layout_parts(layout)
        panel = self.panel
        label = item.titleLabel
        axes = item.axes
        bottom, left = axes["bottom"]["item"], axes["left"]["item"]
        x_title = getattr(bottom, "label", None)
        index = self._tick_values[1] if self._tick_values else None
        return (
            item.geometry(),
            layout.getContentsMargins(),
            tuple(map(_LAYOUT_GEOMETRY, items)),
            tuple(map(_VISIBLE_TO, widgets, repeat(item))),
            None if panel is None else _panel_fit_inputs(panel, self.image is not None),
            self.text_zoom,
            self.drag_digits,
            label.isVisibleTo(item),
            getattr(label, "floor", None),
            getattr(label, "_height", None),
            None if x_title is None else x_title.isVisibleTo(item),
            _axis_fit_inputs(bottom),
            _axis_fit_inputs(left),
            # (a small grid's index labels: word_room)
            index
            if getattr(bottom, "index_labels", False) or getattr(left, "index_labels", False)
            else None,
            self.stage_room,
            self.legible_height,
            self._square_ratio,
            self.square_cells,
            self.spare_below,
            self.hug,
            self._shape_fit_inputs(bottom, left),
            self._cells_fit_inputs(),
            self._legend_fit_inputs(),
            self._table_fit_inputs(),
            self._lane_fit_inputs(),
        )

    def text_inputs(self) -> tuple:
        """What the view's row fit reads of the title and legend besides
        :meth:`fit_inputs`: the title's text, the text shown and whether a drag holds
        its lines (:meth:`title_room`), the legend's entries (:meth:`legend_room`,
        :meth:`legend_shrunk_by`)."""
        legend = self.legend
        entries = None
        if legend is not None and shiboken6.isValid(legend):
            entries = tuple([label.text for _sample, label in legend.items])
        return (self._full_title, self._shown_title, self.hold_title_lines, entries)

    def _shape_fit_inputs(self, bottom: pg.AxisItem, left: pg.AxisItem) -> tuple | None:
        """:meth:`fit_inputs`' part for a heatmap's shape: what :meth:`word_room` and
        :meth:`fill_height` read of it. A map of more than :data:`MAX_CELLS` rows or
        columns without word ticks is measured the same whatever its shape (Sinusoidal's
        seq_len x d map through a drag of seq_len), with square cells whatever its
        shape of the same proportions (its seq_len x seq_len similarities): its rows
        and columns over their greatest common divisor. (Its fill height, ``width *
        rows / cols``, may differ by a float's last bit between such shapes: a pixel
        apart only where the height is that close to a whole one.)"""
        image = None if self.image is None else self.image.image
        if image is None:
            return None
        shape = image.shape
        if (
            max(shape[:2]) > MAX_CELLS
            and not getattr(bottom, "keep_labels", False)
            and not getattr(left, "keep_labels", False)
        ):
            if self._square_ratio is None:
                return ()
            rows, cols = shape[:2]
            common = math.gcd(rows, cols) or 1
            return (rows // common, cols // common)
        return shape

    def _cells_fit_inputs(self) -> tuple | None:
        """:meth:`fit_inputs`' part for a small grid's values: the layer, its shape where
        its values print (else the view groups it by shape alone: ``ViewWidget._fit_inputs``),
        text size and row of matrices, and the sizes its values print at."""
        cells = self.cells
        if cells is None:
            return None
        best = cells.best_pt()
        printed = best is not None or self._square_ratio is not None
        return (
            cells,
            cells.grid_shape if best is not None else None,
            cells.font_pt,
            cells.row,
            best,
            cells.legible_cell() if printed else None,
            cells.legible_cell(stage=True) if printed else None,
        )

    def _legend_fit_inputs(self) -> tuple | None:
        """:meth:`fit_inputs`' part for the legend strip: its entries and text size."""
        legend = self.legend
        if legend is None or not shiboken6.isValid(legend) or not legend.items:
            return None
        return (
            legend,
            tuple(legend.reserved),
            legend.opts.get("labelTextSize"),
            legend.sample_zoom,
            legend.dash_samples(),  # (its samples' room: strip_height)
            legend.scale(),
            legend.isVisible(),
            legend.height(),
        )

    def _table_fit_inputs(self) -> tuple | None:
        """:meth:`fit_inputs`' part for a table: its size and the height it needs."""
        table = self.table
        if table is None:
            return None
        title = self.plot.titleLabel.maximumHeight()  # (the table's room is below it)
        return (
            table,
            table.isVisible(),
            self._table_pt,
            self._table_room,
            title,
            self.table_height(),
        )

    def _lane_fit_inputs(self) -> tuple | None:
        """:meth:`fit_inputs`' part for a curves plot's word ticks (:meth:`_lane_word_room`):
        its y range."""
        if self.panel is None or not self.panel.y_ticks or self.image is not None:
            return None
        return tuple(self.plot.getViewBox().viewRange()[1])

    def word_room(self) -> float:
        """The plot height (px) at which a heatmap's word ticks all fit at full size:
        its rows as tall as a word tick's line, and square cells as wide as the widest
        word under them (Word order's "bites"), with the room its title and axes take
        now; 0 for other plots. The view's grid gives the row at least that, so the
        words need not shrink (:attr:`FastAxisItem.keep_labels`). A small grid's index
        labels count the same at their smallest size (:func:`index_label_pitch`):
        Relative's square 12 × 12 grids at 1280 × 720, 100 %, windowed had 11 px rows
        and left out "10" (pyqtgraph labelled 0, 2, 4, 6, 8, 11). A small square grid's
        cells as large as its values need to print at the smallest legible size (on
        stage at the stage's value size where the stage has the room: :meth:`_stage_values`), with the view's padding as pyqtgraph pads it
        (:func:`padded_span`: 14 % at 200 px, not :data:`WORD_ROOM_PAD`)."""
        if self.panel is None:
            return 0.0
        if self.image is None or self.image.image is None:
            return self._lane_word_room()
        bottom, left = self.plot.getAxis("bottom"), self.plot.getAxis("left")
        if not isinstance(bottom, FastAxisItem) or not isinstance(left, FastAxisItem):
            return 0.0
        # the index ticks as set (index_ticks' of the panel shown: not built anew here,
        # the grid asks on every frame)
        columns, rows_index = self._tick_values[1] if self._tick_values else (None, None)
        font = left.style["tickFont"] or QtGui.QFont()
        cell = 0.0
        if left.isVisibleTo(self.plot):
            cell = left.word_extent()
            if rows_index and left.index_labels:  # every row's index, at their smallest
                texts = [t for _v, t in rows_index]
                cell = max(cell, index_label_pitch(font, texts, True, left.stage))
        if self._square_ratio is not None and bottom.isVisibleTo(self.plot):
            cell = max(cell, bottom.word_extent())  # square: as tall as wide
            if columns and bottom.index_labels:
                texts = [t for _v, t in columns]
                cell = max(cell, index_label_pitch(font, texts, stage=bottom.stage))
        values = 0.0
        if self.cells is not None and self._square_ratio is not None:
            # a small square grid's values at the smallest size they print at (Relative's
            # course grid at 1920 x 1080, 300 %, on stage: 38.5 px cells, "-10" needs 44)
            values = max(self.cells.legible_cell())
        if cell <= 0 and values <= 0:
            return 0.0
        view = self.plot.getViewBox()
        # title, strip, bottom axis (a square matrix's spare height is its data's)
        beside = self.plot.height() - view.height() - self.spare_below
        if beside <= 0:
            return 0.0
        rows = self.image.image.shape[0]
        if values > 0 and self.stage_room > 0:
            values = self._stage_values(values, rows, self.stage_room - beside)
        data = max(WORD_ROOM_PAD * rows * cell, padded_span(rows * values))
        return float(beside + data)

    def _stage_values(self, least: float, rows: int, room: float) -> float:
        """The cell (px) a small square grid of ``rows`` rows is given on stage: as large
        as its values need at the stage's value size (:meth:`CellLayer.legible_cell`),
        as long as its data stays within ``room`` px (:attr:`stage_room` less its title
        and axes), and at least ``least`` (the least size's). ALiBi's 8 x 8 toys at
        1920 x 1080 / 150 % had 26 px cells and printed 9 pt values (9 px digits); the
        course grid at 1280 x 720 / 200 % must stay on the screen below the formula."""
        assert self.cells is not None
        wish = max(self.cells.legible_cell(stage=True))
        if wish <= least:
            return least
        # the data span a view ``room`` px long shows with pyqtgraph's padding
        fits = room / (1.0 + 2.0 * padding_share(room)) / rows if room > 0 else 0.0
        return max(least, min(wish, fits))

    def _lane_word_room(self) -> float:
        """The plot height (px) at which a curves plot's word ticks on its left axis
        (Compare's lanes "learned", "sinusoidal", "RoPE", …) are a line apart at full
        size, with the room its title and axes take now; 0 without such ticks. At
        1280 x 720, 300 %, windowed, the lanes' names were drawn over each other."""
        left = self.plot.getAxis("left")
        ticks = self.panel.y_ticks if self.panel is not None else None
        if not ticks or not isinstance(left, FastAxisItem) or not left.keep_labels:
            return 0.0
        if not left.isVisibleTo(self.plot):
            return 0.0
        values = sorted({float(v) for v, _t in ticks})
        gap = min((b - a for a, b in zip(values, values[1:], strict=False)), default=0.0)
        view = self.plot.getViewBox()
        low, high = view.viewRange()[1]
        beside = self.plot.height() - view.height()  # title, strip, bottom axis
        legend = self.legend  # (its strip the grid adds on top of this height)
        if legend is not None and shiboken6.isValid(legend) and legend.isVisible():
            beside -= legend.height()
        if gap <= 0 or high <= low or beside <= 0:
            return 0.0
        return float(beside + (left.word_extent() + 1.0) * (high - low) / gap)

    def _data_height_changed(self, _height: float) -> None:
        if self.data_resized is not None:
            self.data_resized(self)
        if self.legend is not None and self._legend_width is not None:
            self._fit_legend(self._legend_width)

    def refit_legend(self) -> bool:
        """Fit the legend to its data's width now where it was fitted to another
        (:meth:`_fit_legend`); whether it was. The strip's axis tells the legend its
        new width from its title's re-fit, posted to the event loop: the view calls
        this where it resized its plots itself and draws them before that re-fit runs
        (``ViewWidget._fit_rows``: a scroll bar came or went)."""
        legend = self.legend
        if legend is None or not shiboken6.isValid(legend) or self._legend_width is None:
            return False
        width = self.plot.getViewBox().width()
        if width <= 0 or width == self._legend_width:
            return False
        self._fit_legend(width)
        return True

    def _fit_legend(self, width: float) -> None:
        """Flow the legend's entries into the columns the data's ``width`` holds, at
        the text size that keeps the strip low (:meth:`StripLegend.plan`): the same
        entries re-flowed when the number of columns changed (:meth:`StripLegend.reflow`;
        a new legend was built here, every entry made again, on each first show and each
        change of scale)."""
        legend = self.legend
        if legend is None or not shiboken6.isValid(legend) or width <= 0 or not legend.items:
            return
        self._legend_width = width
        # the plot's height under its title (the strip and the data share it)
        below_title = self.plot.height() - self.plot.getAxis("top").geometry().top()
        # the room the grid gave the strip: what the plot has above a legible plot
        room = self.plot.height() - self.legible_height if self.legible_height > 0 else 0.0
        # the data's and the strip's height together (they share it)
        shared = self.plot.getViewBox().height() + self.plot.getAxis("top").height()
        shared += self.spare_below  # (a square matrix's spare height: CellDisplay)
        columns, scale = legend.plan(width, below_title, room, shared)
        # (the widest entries may each take a row across the columns: StripLegend.flow)
        legend.reflow(columns, legend.flow(width / scale).spans)
        legend.set_strip(width, scale)

    def _show_image(self, panel: Panel, *, force: bool) -> bool:
        """Show the panel's image; ``False`` when it is the one already shown."""
        source = (panel.image, panel.x_coords, panel.y_coords)
        if (
            not force
            and self._image_source is not None
            and panel.levels == self._image_source[0]
            and same_arrays(self._image_source[1], source)
        ):
            return False
        self._image_source = (panel.levels, source)
        img = display_image(panel.image)
        lo, hi = self._levels_now(panel, img)
        self.image.setImage(img, autoLevels=False, levels=(lo, hi))
        if tuple(np.ravel(self.image.levels)) != (lo, hi):
            # the colour bar set levels before the first image; pyqtgraph applies those
            # "deferred" levels after ours on that first setImage
            self.image.setLevels((lo, hi))
        rows, cols = img.shape
        xs = panel.x_coords if panel.x_coords is not None else np.arange(cols)
        ys = panel.y_coords if panel.y_coords is not None else np.arange(rows)
        dx = float(xs[1] - xs[0]) if len(xs) > 1 else 1.0
        dy = float(ys[1] - ys[0]) if len(ys) > 1 else 1.0
        rect = QtCore.QRectF(float(xs[0]) - dx / 2, float(ys[0]) - dy / 2, cols * dx, rows * dy)
        self.image.setRect(rect)
        self._show_cells(panel, current_theme(), img, rect)
        if self.colorbar is not None:
            axis = self.colorbar.axis
            # an index grid's bar (Shaw's clipped index, T5's buckets) labels whole values
            whole = bool(np.issubdtype(np.asarray(panel.image).dtype, np.integer))
            if isinstance(axis, FastAxisItem):
                axis.set_whole_ticks(whole)
            if tuple(self.colorbar.levels()) != (lo, hi):
                # re-lays out its axis: only on a change; the image has these levels
                self.colorbar.setLevels((lo, hi), update_items=False)
        return True

    def _levels_now(self, panel: Panel, img: np.ndarray) -> tuple[float, float]:
        """The image's colour range: :func:`color_levels`, held while a drag holds the
        plot's range (:attr:`hold_range`, :func:`held_levels`) for a large heatmap of a
        one-sided map (no values printed in its cells; a diverging map stays symmetric);
        :meth:`end_drag_hold` puts the exact range back."""
        exact = color_levels(panel, img)
        self._exact_levels = exact
        rows, cols = img.shape
        if (
            not self.hold_range
            or panel.colormap == "diverging"
            or (rows <= MAX_CELLS and cols <= MAX_CELLS)
        ):
            self._held_levels = None
            return exact
        self._held_levels = held_levels(self._held_levels, exact)
        return self._held_levels

    def _release_levels(self) -> bool:
        """The exact colour range again after a drag held it (:meth:`_levels_now`);
        whether it changed."""
        held, self._held_levels = self._held_levels, None
        if held is None or self.image is None or held == self._exact_levels:
            return False
        lo, hi = self._exact_levels
        self.image.setLevels((lo, hi))
        if self.colorbar is not None and tuple(self.colorbar.levels()) != (lo, hi):
            self.colorbar.setLevels((lo, hi), update_items=False)
        return True

    def _show_missing(self, panel: Panel, theme: Theme) -> None:
        """Hatch a heatmap's NaN cells when they mean something (``Panel.missing``, e.g.
        the learned table's "no row"): those cells only. (The view box's background was
        hatched: the margins beside columns 0..31 and above row 0 read as missing rows
        too.)"""
        item = self.image
        image = item.image if item is not None else None
        if not panel.missing or item is None or image is None:
            if self._missing_item is not None:
                self._missing_item.hide()
            return
        rect = item.mapRectToParent(item.boundingRect())
        nan = np.packbits(np.isnan(np.asarray(image, dtype=float))).tobytes()
        key = (np.shape(image), nan, rect.getRect(), theme.foreground)
        if key == self._missing_key:
            return
        self._missing_key = key
        if self._missing_item is None:
            self._missing_item = hatch_item(theme.foreground)
            self.plot.addItem(self._missing_item, ignoreBounds=True)
        else:
            self._missing_item.setBrush(hatch_item(theme.foreground).brush())
        self._missing_item.setPath(missing_path(image, rect))
        self._missing_item.show()

    def _apply_title(self, title: str, theme: Theme) -> None:
        style = (theme.foreground, f"{theme.font_pt(13)}pt")
        if style != self._full_title[1:]:
            self._shown_title = None  # a new style: set through pyqtgraph in full
        # a negative value with the minus U+2212 ("atan2 −73.5°"), as the formula line,
        # tick labels and cell values write it; measured and drawn so (_title_room)
        self._full_title = (minus_signs(title), *style)
        self._elide_title()

    def _elide_title(self) -> None:
        """Show the title wrapped at spaces onto as many lines as the plot's width needs
        (never cut: the audience reads the whole title)."""
        title, color, size = self._full_title
        label = self.plot.titleLabel
        if not shiboken6.isValid(label):  # geometry signals while the plot is destroyed
            return
        layout = vars(self.plot).get("layout")
        if layout is None or not shiboken6.isValid(layout):  # (its grid deleted first)
            return
        width = label.width() - 8
        if self._square_ratio is not None:
            # the spare width beside a square matrix's plot is its title's: the lines do
            # not follow the matrix's width (see CellDisplay._hug_square)
            width = self.data_column() - 8
        font = QtGui.QFont(label.item.font())
        font.setPointSizeF(float(size[:-2]))
        # drawn as rich text (m_h as m with a subscript h), wrapped as drawn
        lines = wrap_in(title, font, width, scripts=True) if width > 20 else [title]
        text = "<br>".join(label_rich_text(line) for line in lines)
        shown = self._shown_title
        if self.hold_title_lines and shown is not None and label.isVisible():
            # fewer lines during a drag: blank ones keep the title row's height (RoPE's
            # plane title took one or two lines as m moved at 200 %, each time
            # re-laying out the plot and the canvas); end_drag_hold wraps it anew
            missing = shown.count("<br>") - text.count("<br>")
            if missing > 0:
                text += _BLANK_LINE * missing
        if text != shown:
            same_lines = shown is not None and shown.count("<br>") == text.count("<br>")
            if shown is None or not label.isVisible() or not same_lines:
                self.plot.setTitle(text, color=color, size=size)
            else:
                # Same style, as many lines: only the text changes (RoPE's title follows
                # m). PlotItem.setTitle re-fixes the title row and invalidates the layout
                # of every plot (~1 ms a frame); the label's height does not change.
                label.set_text_in_place(text)
            self._shown_title = text

    def set_stage(self, on: bool) -> None:
        """On stage (presentation mode) or not: a small grid's index labels keep a size
        read from the back row (:attr:`FastAxisItem.stage`); pyqtgraph's "A" button
        is not shown there (:meth:`_style_auto_button`)."""
        self._on_stage = on
        if self.panel is not None:
            self._style_auto_button(current_theme())
        for name in ("bottom", "left"):
            axis = self.plot.getAxis(name)
            if isinstance(axis, FastAxisItem) and axis.stage != on:
                axis.stage = on
                axis.setStyle()  # (pyqtgraph's: new draw specs and size at the next paint)

    def _style_auto_button(self, theme: Theme) -> None:
        """pyqtgraph's "A" button (a panned or zoomed plot under the pointer: all the
        data again) at the UI scale (14 px at 100 %, 42 px at 300 %: it stayed 14 px).
        Hidden on stage, where the A key does the same for every plot of the view
        (``StageOverlay.show_all``) and a lecturer's pointer crossing a zoomed plot
        flashed it; and on a table or arrows panel, whose framing auto-range breaks
        (:meth:`show_all_data`: the table moved to the bottom right, the circle off
        centre), which the A key keeps."""
        kind = self.panel.kind if self.panel is not None else None
        key = (theme.scaled(AUTO_BUTTON_SIZE), self._on_stage or kind in ("table", "arrows"))
        if key == self._button:
            return
        if key[0] != (self._button or (0,))[0]:
            size_auto_button(self.plot, key[0])
        if self._button is None or key[1] != self._button[1]:
            if key[1]:
                self.plot.hideButtons()
            else:
                self.plot.showButtons()
        self._button = key

    def end_drag_hold(self) -> bool:
        """End the drag's hold: the title takes the lines it needs again
        (:attr:`hold_title_lines`), the legend its entries' own room
        (:attr:`drag_digits`); whether either changed."""
        legend = self.legend
        self.drag_digits = 0
        self._drag_renamed.clear()
        released = False
        self.hold_range = False
        view = self.plot.getViewBox()
        if isinstance(view, PlotViewBox) and view.release_range():
            released = True  # the exact auto-range, before the next paint
        if self._release_levels():
            released = True  # the exact colour range
        if legend is not None and shiboken6.isValid(legend) and legend.release():
            released = True  # its entries take their own text's room again
            self._fit_legend(self.plot.getViewBox().width())
        if not self.hold_title_lines:
            return released
        self.hold_title_lines = False
        shown = self._shown_title
        if shown is None or not shown.endswith(_BLANK_LINE):
            return released
        self._elide_title()
        return self._shown_title != shown or released

    def _relabel(self, panel: Panel, theme: Theme, x_label: str, y_label: str) -> None:
        """Set the axis titles that differ from ``x_label`` / ``y_label`` (the last ones
        applied), in :meth:`_apply_labels`' style, which is set already."""
        self.relabels += 1
        style = {"color": theme.foreground, "font-size": f"{theme.font_pt(12)}pt"}
        for name, text, before, shown in (
            ("bottom", panel.x_label, x_label, panel.x_axis),
            ("left", panel.y_label, y_label, panel.y_axis),
        ):
            if text != before:
                self.plot.setLabel(name, wrapped_rich_text(text), **style)
                self.plot.showAxis(name, shown)  # setLabel shows the axis

    def _apply_labels(self, panel: Panel, theme: Theme) -> None:
        style = {"color": theme.foreground, "font-size": f"{theme.font_pt(12)}pt"}
        if panel.kind == "table":
            return
        self.restyles += 1
        # drawn as rich text: θ_i as θ with a subscript i (core.formula.label_rich_text)
        self.plot.setLabel("bottom", wrapped_rich_text(panel.x_label), **style)
        self.plot.setLabel("left", wrapped_rich_text(panel.y_label), **style)
        self.plot.showAxis("bottom", panel.x_axis)  # setLabel shows the axis
        self.plot.showAxis("left", panel.y_axis)
        for name in ("bottom", "left"):
            axis = self.plot.getAxis(name)
            if axis.autoSIPrefix:
                # (pyqtgraph's enableAutoSIPrefix(False) still picks a prefix scale for a
                # visible title: re-applied on a 0–0.5 axis it labelled the ticks ×1000)
                axis.enableAutoSIPrefix(False)
            # No device cache: without the grid an axis replays its specs faster than a
            # cache is refilled and blended, and most axes move during a drag anyway.
            axis.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.NoCache)
            # Two tick levels: the third (sub-minor) adds faint grid lines nobody reads on a
            # projector and costs as much to draw as the rest together.
            axis.setStyle(tickFont=theme.font(TICK_PT), maxTickLevel=1)
            if name == "left":  # its end labels in its bounds (a log axis's top decade)
                fit_end_labels(axis, theme.font(TICK_PT))
            axis.setTextPen(theme.foreground)
            axis.setPen(theme.foreground)

    def probe_text(self, scene_pos: QtCore.QPointF) -> str | None:
        """Exact readout under ``scene_pos``, or ``None`` when outside this plot or while
        it is hidden (a reveal step not reached yet keeps its place free on stage: its
        value must not show there before the plot does)."""
        if (
            self.panel is None
            or not self.plot.isVisible()
            or not self.plot.sceneBoundingRect().contains(scene_pos)
        ):
            return None
        vb = self.plot.getViewBox()
        if not vb.sceneBoundingRect().contains(scene_pos):
            return None
        p = vb.mapSceneToView(scene_pos)
        x, y = p.x(), p.y()
        if self.panel.log_x:
            x = 10**x
        if self.panel.log_y:
            y = 10**y
        if self.panel.probe is not None:
            text = self.panel.probe(x, y) or None
        else:
            text = self._nearest_curve_text(x)
        # a value's minus U+2212 ("q: −73.5° (0.284, −0.959)") and a power of ten
        # ("4.6955·10⁻⁵", not "4.6955e-05"), as the titles, tick labels, legends and
        # notes write them (the data keep Python's "-" and e-notation)
        return powers_of_ten(minus_signs(text)) if text else None

    def hover_cell(self, x: float, y: float) -> QtCore.QRectF | None:
        """The heatmap cell at view point ``(x, y)`` (view coordinates), or ``None``."""
        if self.image is None or self.image.image is None:
            return None
        rows, cols = self.image.image.shape[:2]
        r = self.image.mapRectToParent(self.image.boundingRect())
        dx, dy = r.width() / cols, r.height() / rows
        col, row = np.floor((x - r.left()) / dx), np.floor((y - r.top()) / dy)
        if not (0 <= col < cols and 0 <= row < rows):
            return None
        return QtCore.QRectF(r.left() + col * dx, r.top() + row * dy, dx, dy)

    def _nearest_curve_text(self, x: float) -> str | None:
        panel = self.panel
        if panel is not None and panel.kind == "arrows" and panel.arrows:
            return arrows_text(panel)
        if panel is None or not panel.series:
            return None
        reads = [(s.name, nearest_values(s.x, s.y, x)) for s in panel.series[:6]]
        first = reads[0][1]
        if first is None:
            return None
        at = first[0]
        shown = panel.series[:6]
        parts = [
            f"{name}: {read[1]}"
            for (name, read), series in zip(reads, shown, strict=True)
            if read is not None
            and (series is shown[0] or not marks_elsewhere(shown[0], series, at))
        ]
        for band in panel.bands:  # a range without data says why, not "nan"
            if band.x0 <= x <= band.x1:
                return f"{panel.x_label} = {at:.6g} — {band.label}"
        return f"{panel.x_label} = {at:.6g} — " + ", ".join(parts)
