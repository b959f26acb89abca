"""A view on screen: explanation, live formula, verdict, the plot grid, notes and hover readout.

The explanation collapses to its first lines where it would take the plots' room
(:data:`EXPLANATION_SHARE`, :meth:`ViewWidget._fit_explanation`), with a More… / Less
toggle whose choice wins (:mod:`gui.widgets.explanation`); a long verdict shows its
short form there (:data:`VERDICT_SHARE`, :meth:`ViewWidget._fit_verdict`), the same way
(:mod:`gui.widgets.verdict`).

:class:`ViewWidget` draws :class:`core.viewdata.ViewData` and nothing else: it never
computes. Errors (invalid input, out-of-range lookups, memory budget) appear in a banner
while the last good plots stay.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from itertools import compress, repeat
from typing import TypeVar

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets
from superqt.utils import qdebounced, qthrottled

from core.formula import escape, minus_signs
from core.viewdata import Panel, ViewData, ViewSpec
from core.views import get_view
from gui.plotting.cells import VALUE_PT
from gui.plotting.layout_check import text_lines
from gui.plotting.panel_plot import TICK_PT, PanelPlot, index_widths
from gui.render.cell_values import CellLayer, ValueRow, stage_value_pt
from gui.render.fast_axis import (
    REFIT_ROUNDS,
    FastAxisItem,
    hide_spare_axes,
    make_axes,
    run_title_refits,
)
from gui.render.formula_label import FormulaLabel
from gui.render.math_text import MathLineLabel, set_math_text, source_text
from gui.render.pg_compat import move_in_grid
from gui.render.settle import Targets, before_layout, settle, targets
from gui.render.view_box import PlotViewBox, padded_span
from gui.theme import Theme, current_theme
from gui.widgets.explanation import ExplanationBox
from gui.widgets.grid_flow import (
    Position,
    balance_rows,
    columns_for,
    fits_columns,
    flow_grid,
    grid_columns,
    grid_shape,
    keeps_rows,
    min_panel_size,
    weighted_widths,
)
from gui.widgets.line_box import LineBox
from gui.widgets.steady_scroll import SteadyScrollArea
from gui.widgets.verdict import VerdictBox

# events after which a plot left behind out of sight may be in sight (the canvas moved
# in its scroll area or was resized, the scroll area resized, a paint of the canvas due)
_SIGHT_EVENTS = frozenset(
    (
        QtCore.QEvent.Type.Resize,
        QtCore.QEvent.Type.Move,
        QtCore.QEvent.Type.Show,
        QtCore.QEvent.Type.Paint,
    )
)
WHEEL_STEP = 33  # px at 100 % the view scrolls per wheel step (a notch is three)
NEEDS_FITS_KEPT = 8  # column counts kept (_columns_for_needs): two sizes, a few widths
TABLE_GROW = 2.0  # a table shown alone grows into the room up to this times its size
# a table beside other plots on stage grows into the room they leave up to this times
# its size: its text as large as the plots' axis titles (12 pt to its 10)
TABLE_SHARED_GROW = 1.2
LEGEND_SHARE = 0.8  # of a plot's width its data (and legend strip) has, at least
# a view that overflows its place by at most this share of its grid's height fits it
# instead (its rows that much below their legible height) rather than scroll a few px
FOLD_SQUEEZE = 0.05
TABLE_PAD = 12  # px a table panel keeps below its table (view box margins, rounding)
FORMULA_SHARE = 0.2  # of the view's height the formula takes at most (drawn smaller)
# of the stage's height a table's text is at least on stage, however it is fitted (the
# tick labels of the default 150 % on 1920 x 1080 are 21 px: a 50th of 1 080 px)
STAGE_TEXT_SHARE = 1 / 50
# lines of its tick labels a plot's data keeps at least where the stage squeezes a view
# to fit it rather than scroll (its rows lower than the window's legible plot)
STAGE_DATA_LINES = 5
# of the view's height the whole explanation takes at most; a longer one is collapsed to
# its first lines (at 200 % on 1600 x 1000 it took 46-100 %, the plots below the fold),
# as is one whose collapsing lets a view that scrolls fit (1600 x 1000 at 100 %:
# Sinusoidal scrolled by 101 px under its 133 px paragraph)
EXPLANATION_SHARE = 0.2
# of the view's height the whole verdict takes at most in the window; a longer one shows
# its short form, as the stage does (Word order's took 492 px of 914 at 200 % on
# 1600 x 1000, 239 of 932 at 150 %: the plots began 824 px down at 200 %), as does one
# whose short form lets a view that scrolls fit
VERDICT_SHARE = 0.2


_DIGIT = re.compile(r"[0-9]")
#: a text cache's sub-pixel offset and viewport size when they are not known
_STALE = (-1.0, -1.0, -1.0, -1.0)
_NEW = (-2.0, -2.0)  # a text item not seen before
_T = TypeVar("_T")
#: what the row fit measures of a plot that reads its title's and legend's texts
#: (:meth:`PanelPlot.text_inputs`; see ViewWidget._fit_inputs)
TEXT_MEASURES = frozenset({"title", "legend", "overhead"})


#: a grid row's maximum height when it has none (QGraphicsGridLayout's own default)
ROW_UNCAPPED = 3.4028234663852886e38  # (FLT_MAX: rowMaximumHeight of a row never capped)


def hold_height(label: QtWidgets.QWidget) -> None:
    """Keep ``label`` (shown) at least as tall as it is now: its height for a width is
    never below its minimum (Qt's layouts), so a shorter text leaves it as it is."""
    if label.isVisible() and label.height() > label.minimumHeight():
        label.setMinimumHeight(label.height())


def button_down() -> bool:
    """Whether a mouse button is down (a slider still held: a pause in its drag)."""
    return QtWidgets.QApplication.mouseButtons() != QtCore.Qt.MouseButton.NoButton


def release_height(label: QtWidgets.QWidget) -> bool:
    """``label`` takes its own text's height again; whether :func:`hold_height` (or
    another minimum) had held it."""
    if not label.minimumHeight():
        return False
    label.setMinimumHeight(0)
    return True


class _Canvas(pg.GraphicsLayoutWidget):
    """The plot canvas; it asks for the height :meth:`ViewWidget.fit_height` gives it.

    ``QGraphicsView`` asks for its scene's size, which grows with a focused plot: the
    view stayed taller, and scrolled, after a focus and back.
    """

    def __init__(self, owner: ViewWidget) -> None:
        super().__init__(owner)
        self._owner = owner

    def sizeHint(self) -> QtCore.QSize:
        return QtCore.QSize(super().sizeHint().width(), self.minimumHeight())

    def paintEvent(self, event: QtGui.QPaintEvent) -> None:
        self._owner.refresh_text_caches()
        super().paintEvent(event)

    def grab(self, *args: object, **kwargs: object) -> QtGui.QPixmap:
        """The whole canvas, scrolled-out plots included: those are drawn first."""
        self._owner.bring_up_to_date()
        self._owner.refresh_text_caches(exact=True)
        return super().grab(*args, **kwargs)

    def wheelEvent(self, event: QtGui.QWheelEvent) -> None:
        """The wheel scrolls the view when it scrolls; Ctrl+wheel (or the wheel when the
        view fits) zooms the plot under the pointer, as before."""
        ctrl = event.modifiers() & QtCore.Qt.KeyboardModifier.ControlModifier
        if not ctrl and self._owner.scrolls:
            QtCore.QCoreApplication.sendEvent(self._owner.scroll_area.verticalScrollBar(), event)
            event.accept()
            return
        super().wheelEvent(event)


def grid_position(layout: QtWidgets.QGraphicsGridLayout, item: pg.PlotItem) -> Position | None:
    """Where ``item`` sits in ``layout``: its first row and column and its spans, or
    ``None`` when it is not in the grid."""
    return grid_positions(layout).get(item)


def grid_positions(layout: QtWidgets.QGraphicsGridLayout) -> dict[object, Position]:
    """:func:`grid_position` of every item in ``layout``, by item, from one pass over
    its cells (the view's rows are fitted on every frame: a pass per plot asked the
    grid for each cell once per plot)."""
    # an item's cells are a rectangle, met row by row: its first cell is its top left,
    # its last its bottom right
    first: dict[object, tuple[int, int]] = {}
    last: dict[object, tuple[int, int]] = {}
    item_at = layout.itemAt
    columns = range(layout.columnCount())
    for r in range(layout.rowCount()):
        for c in columns:
            found = item_at(r, c)
            if found is not None:
                item = found.graphicsItem()
                if item not in first:
                    first[item] = (r, c)
                last[item] = (r, c)
    return {
        item: (r, c, last[item][0] - r + 1, last[item][1] - c + 1) for item, (r, c) in first.items()
    }


def holds_place(plot: PanelPlot) -> bool:
    """Whether ``plot`` takes its place in the grid: shown, or hidden with its place
    kept (a reveal's next plot, ``retainSizeWhenHidden``)."""
    item = plot.plot
    return item.isVisible() or item.sizePolicy().retainSizeWhenHidden()


def drag_digits(before: ViewData | None, after: ViewData) -> int:
    """Characters the widest value of the whole-number parameters that changed from
    ``before`` to ``after`` takes (0: none such, or another view's data): the room a
    legend name that follows a dragged slider holds for each of its numbers."""
    if before is None or before.view_id != after.view_id:
        return 0
    try:
        model = get_view(after.view_id).model
    except ValueError:  # not a registered view (a composite's data)
        return 0
    digits = 0
    for name, value in after.params.items():
        if before.params.get(name) == value or name not in model.names:
            continue
        param = model[name]
        if param.kind == "int" and param.minimum is not None and param.maximum is not None:
            widest = max(len(str(int(param.minimum))), len(str(int(param.maximum))))
            digits = max(digits, widest)
    return digits


class ViewWidget(QtWidgets.QWidget):
    """Display of one view."""

    rendered = QtCore.Signal()  # a ViewData has been drawn
    # plots left out of sight were drawn late (scrolled into sight, exported): what is
    # re-applied after each frame (a scene's highlight, a focus) is due for them too
    caught_up = QtCore.Signal()
    FULL_QUALITY_DELAY_MS = 150  # after the last live update, redraw in full quality
    AA_POINT_BUDGET = 1200  # antialias thick curves only up to this many points per view
    TEXT_REFRESH_MS = 100  # live text refreshes at most ten times a second while dragging
    HOVER_HINT = "Hover a plot for exact values."  # the status line when no note applies

    def __init__(self, spec: ViewSpec, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        self.data: ViewData | None = None
        self.plots: dict[str, PanelPlot] = {}
        self.square_cells: dict[str, bool] = {}  # "Square cells" chosen per panel key
        self._layout_key: tuple | None = None
        self.grid_builds = 0  # grids of new plots built (tests)
        self.grid_reflows = 0  # grids whose plots moved to other columns (tests)
        #: the theme the view was last styled with (:meth:`apply_theme`): the display
        #: re-styles a view only for another one
        self.styled_theme: Theme | None = None
        # a theme or UI scale applied while hidden: the plots are redrawn when shown
        self._restyle_on_show = False
        self._items_seen = 0  # scene items when text caching was last applied
        # a live frame's text items cached once it was drawn, before its paint (that
        # paint finds them again only where something else ran since: refresh_text_caches)
        self._texts_found = False
        # the text items drawn from a device cache, by the sub-pixel offset each cache
        # was drawn at (see refresh_text_caches)
        self._text_phase: dict[QtWidgets.QGraphicsTextItem, tuple[float, ...] | None] = {}
        # the grid and the plots' builds the scene was last walked for text items in
        # (see _cache_text_items: a drag's next frame in them walks it no more)
        self._text_walk: tuple[tuple, int] | None = None
        self.text_walks_skipped = 0  # a drag's frames that kept the text items found (tests)
        self.text_cache_refreshes = 0  # caches redrawn for a new sub-pixel offset (tests)
        self._settle_targets: Targets | None = None  # layouts, views, axes (see _settle)
        self._settle_key: tuple[int, int] = (0, 0)
        self._idle_text = self.HOVER_HINT  # status when not over data
        #: a sweep plays (:class:`~gui.lecture.sweep.SweepController`): the formula,
        #: verdict and notes of every live frame show with it, as the swept field does
        #: (held to TEXT_REFRESH_MS, the formula read base 294500 over plots and a
        #: field at 319500); the formula line keeps its drag's height until it stops
        #: (:meth:`_end_formula_hold`)
        self.text_every_frame = False
        #: a run of nudges goes on (←/→ on the stage held down, auto-repeating, or
        #: pressed again soon after: :meth:`StageControls.hold_nudge
        #: <gui.lecture.stage_strip.StageControls.hold_nudge>`): its nudges are one
        #: drag, more live frames are due, and the formula line keeps its drag's height
        #: until the run is over (:meth:`_end_formula_hold`)
        self.nudge_held = False
        self.readouts_muted = False  # see mute_readouts()
        self._reading = False  # the notes line shows a readout (see _hide_readouts)
        self._hover_hint = True  # the hint is for the lecturer: hidden while presenting
        # the plots a drag holds (_hold_axes) and the digits held for, until released
        self._held: tuple[tuple[PanelPlot, ...], int] | None = None
        self._columns = 0  # plot columns the grid is laid out in (0: the view's own)
        self._needs: dict[str, float] = {}  # each panel's width need (_index_needs)
        self._weights: dict[str, float] = {}  # the needs its columns are weighted by
        self._floor = 0.0  # the narrowest plot column the columns were fitted with
        #: what a live frame's row fit read (:meth:`_fit_inputs`) where that fit changed
        #: nothing: a live frame that reads the same needs no fit (see fit_height)
        self._fitted_inputs: tuple | None = None
        self.fits_skipped = 0  # live frames whose fit was skipped so (for tests)
        #: each plot's :meth:`PanelPlot.fit_inputs` (with the theme and mode) and the
        #: measures the fit took of it for them (see _measure)
        self._measures: dict[PanelPlot, tuple[tuple, tuple, dict[tuple, tuple]]] = {}
        self._fold_read_lines = False  # the last fit read the notes line's lines
        #: whether the fit under way may use and keep _measures: a live frame's, until
        #: it changes something the plots are measured by (``_fit_wrote``)
        self._measuring = False
        self._fit_wrote = False  # the fit under way changed the layout or a plot
        # what _columns_for_needs read last and its answers (for the values' two sizes
        # it is asked about each frame: the stage's least and the least)
        self._needs_fit: dict[object, tuple[int, float]] = {}
        #: :meth:`_weighted_widths` and :meth:`_balance_rows`' heights, with their inputs
        self._widths_for: tuple[tuple, list[float] | None] | None = None
        self._heights_for: tuple[tuple, dict[int, float]] | None = None
        self._presenting = False
        self._lead_note = ""  # an image's first note (see show_notes_line)
        # Live frames skip the plots scrolled out of sight (see show_data_steps): their
        # latest panels wait here, drawn the moment they can be seen or read
        self._pending: dict[str, Panel] = {}
        self._catching_up = False
        self._fitting = 0  # fit_height runs (it draws what came into sight at its end)
        self._draft = False  # curves in draft quality (a live frame's)
        self.deferred_shows = 0  # plot updates skipped so far (tests count them)
        # the notes line as the last held _set_status left it (see _status_state)
        self._status_kept: tuple | None = None
        self.status_sets = 0  # _set_status calls that measured the text (tests: counted)
        outer = QtWidgets.QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        # Everything scrolls together when the plots, at their smallest legible size,
        # and the text do not fit (a large UI scale in a small window).
        self.scroll_area = SteadyScrollArea(self)
        #: scrolls asked for (the lecturer's wheel, bar and keys; a scroll to a plot or
        #: the top), not those a new layout makes: see gui.lecture.display
        self.scrolls_asked = 0

        def _asked(*_action: object) -> None:
            self.scrolls_asked += 1

        self.scroll_area.verticalScrollBar().actionTriggered.connect(_asked)
        #: the plot kept at the top while the layout settles, and scrolls_asked then
        #: (keep_plot_in_sight)
        self._pin: tuple[str | None, int] | None = None
        self._pin_timer = QtCore.QTimer(self)  # (once the layout pass is done)
        self._pin_timer.setSingleShot(True)
        self._pin_timer.setInterval(0)
        self._pin_timer.timeout.connect(self._repin)
        self.scroll_area.verticalScrollBar().rangeChanged.connect(self._scroll_range_changed)
        self.scroll_area.setObjectName("view-scroll")
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.scroll_area.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.body = QtWidgets.QWidget(self.scroll_area)
        self.body.setObjectName("view-body")
        self.scroll_area.setWidget(self.body)
        # painted by nothing of its own: the window's background shows (a transparent
        # PNG export stays transparent around the plots)
        self.scroll_area.viewport().setAutoFillBackground(False)
        self.body.setAutoFillBackground(False)
        self.scroll_area.setStyleSheet(
            "QScrollArea#view-scroll, QWidget#view-body { background: transparent; }"
        )
        outer.addWidget(self.scroll_area)
        layout = QtWidgets.QVBoxLayout(self.body)
        layout.setContentsMargins(6, 6, 6, 6)
        self.title = QtWidgets.QLabel(spec.title, self)
        self.title.setObjectName("view-title")
        # the paragraph (m_h as m with a subscript h) with its More… / Less toggle;
        # ``explanation`` is its label, which the box follows when hidden or shown
        self.explanation_box = ExplanationBox(spec.explanation, self)
        self.explanation = self.explanation_box.label
        self.explanation_box.chosen.connect(self._fold_chosen)
        # the view's size, theme and panels the explanation was last fitted for
        self._explained_for: tuple | None = None
        # ... and the verdict's shape (its text, digits as 0s) the verdict was fitted for
        self._verdict_for: tuple | None = None
        self._rows_need = 0  # the canvas's height its rows need (before _fold_fit)
        self.formula = FormulaLabel(self)  # typeset; wraps only between terms
        self.formula.setObjectName("view-formula")
        self.banner = QtWidgets.QLabel("", self)
        self.banner.setObjectName("view-banner")
        self.banner.setWordWrap(True)
        self.banner.hide()
        # the verdict and notes lines follow the slider: opaque, a new text repaints them
        # alone, not the window, view, scroll area and body behind them (gui.render.opaque);
        # ``verdict`` is the verdict box's label (whole, or short with More… / Less)
        self.verdict_box = VerdictBox(self)
        self.verdict = self.verdict_box.label
        self.verdict_box.chosen.connect(self._fold_chosen)
        self.canvas = _Canvas(self)
        self.canvas.setObjectName("view-canvas")
        # Items that want antialiasing set it themselves (curves in full quality, arrows,
        # symbols); inheriting it costs ~2 ms a frame in borders and legend samples.
        # Image exports switch it back on.
        self.canvas.setAntialiasing(False)
        # Plot items move and resize on every frame; a BSP index only adds upkeep.
        self.canvas.scene().setItemIndexMethod(QtWidgets.QGraphicsScene.ItemIndexMethod.NoIndex)
        self.canvas.scene().sigMouseMoved.connect(self._mouse_moved)
        # The view fills every exposed pixel with its opaque background brush (the theme's
        # background), so Qt need not paint the widgets beneath nor pre-fill the viewport,
        # and a solid fill is cheaper than blitting a cached background: ~0.3 ms a frame.
        self.canvas.setCacheMode(QtWidgets.QGraphicsView.CacheModeFlag.CacheNone)
        # Exposed areas are not grown by 2 px for antialiasing: every item's bounding rect
        # already covers its pen (a test checks that moving items leave no traces).
        self.canvas.setOptimizationFlag(
            QtWidgets.QGraphicsView.OptimizationFlag.DontAdjustForAntialiasing
        )
        self.canvas.viewport().setAutoFillBackground(False)
        self.canvas.viewport().setAttribute(QtCore.Qt.WidgetAttribute.WA_OpaquePaintEvent)
        # Full quality comes back once no live update has arrived for a while.
        self.full_quality = qdebounced(
            self._full_quality, self.FULL_QUALITY_DELAY_MS, leading=False, parent=self
        )
        # A drag paused with the slider still held ends the live frames, not the formula
        # line's hold: it is checked again after each such interval (_end_formula_hold)
        self._formula_hold_end = QtCore.QTimer(self)
        self._formula_hold_end.setInterval(self.FULL_QUALITY_DELAY_MS)
        self._formula_hold_end.timeout.connect(self._end_formula_hold)
        # Text that follows a slider (formula, verdict, notes) is laid out and drawn anew on
        # each change (~0.6 ms a label, most of it shaping the formula's symbols): during
        # a drag it refreshes at most every TEXT_REFRESH_MS (the first change at once),
        # and always ends on the latest.
        self.live_text = qthrottled(
            self._apply_latest_text, self.TEXT_REFRESH_MS, leading=True, parent=self
        )
        # (formula, (verdict, its short stage form), status line)
        self._latest_text: tuple[str, tuple[str, str], str] | None = None
        self._shown_text: tuple[str, tuple[str, str], str] | None = None
        # the heights the formula and verdict took for a text's shape (its digits as
        # 0s), at their widths and fonts (see _live_text_fits)
        self._shape_heights: dict[tuple, tuple[int, int]] = {}
        # the notes line's text_lines() with the label state it was measured for
        # (_status_lines; the fold is fitted on every frame, the line rarely changes)
        self._status_lines_for: tuple[tuple, tuple[float, float, int]] | None = None
        self.status_lines_measured = 0  # text_lines() of the notes line worked out (tests)
        self.texts_at_once = 0  # live texts shown at once for their height (tests)
        self._notes_for: list[str] | None = None  # the plots the notes line was for
        self._dragging = False  # a live frame was drawn and full quality is due
        self._notes_dimmed = False  # the notes line waits for a drag's pause (_dim_notes)
        self.status = MathLineLabel("", self)  # (notes typeset: rich text)
        self.status.setObjectName("view-readout")
        self.status.setWordWrap(True)
        for w in (self.title, self.explanation_box, self.formula, self.banner, self.verdict_box):
            layout.addWidget(w)
        layout.addWidget(self.canvas, 1)
        # a new notes or readout text in the room of the last re-lays nothing out
        self._status_box = LineBox(self.status, self.body)
        layout.addWidget(self._status_box)
        # the grid re-fits (columns, height) once a resize is over, from the event loop
        #: the matrices of each shape, whose values print at one size
        #: (:meth:`_group_values`)
        self._value_rows: dict[tuple[int, int], ValueRow] = {}
        self._fit_timer = QtCore.QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(0)
        self._fit_timer.timeout.connect(self.fit_grid)
        self.canvas.installEventFilter(self)
        self._status_box.installEventFilter(self)  # (its height: see _fold_fit)
        # plots scrolled into sight are drawn before they are painted
        self.scroll_area.verticalScrollBar().valueChanged.connect(self._show_seen)
        self.scroll_area.verticalScrollBar().valueChanged.connect(self._hide_readouts)
        self.scroll_area.viewport().installEventFilter(self)
        self.canvas.viewport().installEventFilter(self)
        self.apply_theme()

    # ----------------------------------------------------------------- drawing
    def show_data(self, data: ViewData, *, live: bool = False) -> None:
        """Draw ``data`` (rebuilding the grid only when its panel layout changed).

        With ``live`` (updates while a slider moves) curves are drawn in draft quality
        and redrawn antialiased once no update has arrived for a short while.
        """
        for _ in self.show_data_steps(data, live=live, parts=False):
            pass

    def show_data_steps(
        self, data: ViewData, *, live: bool = False, parts: bool = True
    ) -> Iterator[None]:
        """:meth:`show_data` part by part: yields after each plot is built, after each
        is drawn and laid out, and before the whole grid is laid out (a view's plots
        built in one go took 0.2-0.8 s; a caller that returns to the event loop between
        parts, the presenter's picture of the next scene, keeps the stage live). The
        parts run in :meth:`show_data`'s order; ``parts=False`` (:meth:`show_data`)
        lays the plots out only with the grid."""
        self._restyle_on_show = False  # drawn in the current theme from here on
        # the data shown again (a rebuild in new columns, a theme applied while hidden)
        # keeps the problem of the newest request on its banner; new data clears it
        fresh = data is not self.data
        own = {p.key: (p.row, p.col, p.row_span, p.col_span) for p in data.panels}
        # the grid's width, read once for the columns and the rows (a drawing in parts
        # returns to the event loop meanwhile: a resize then, its rows read it again)
        width = self._plot_width()
        columns = self._columns_now(own, data.panels, width)
        key = (tuple(own.items()), columns)
        # a live frame leaves the plots scrolled out of sight as they are (their panels
        # wait in _pending); any other draw, or a new grid, draws every plot
        unseen = self._unseen() if live and key == self._layout_key else set()
        self._pending = {k: p for k, p in self._pending.items() if k in unseen}
        if key != self._layout_key and self._can_reflow(own):
            # the same panels in another number of columns (a new UI scale, the stage,
            # a resize): the plots move there as they are (re-styled by their show)
            self._reflow(flow_grid(own, columns), data.panels)
            self._columns = columns
            self._layout_key = key
        if key != self._layout_key:
            self.grid_builds += 1
            self._layout_key = None  # half built until the last plot is in
            self.canvas.clear()
            self.plots = {}
            # the settle's layouts, views and axes are the old plots' (collected anew:
            # the same panels in other columns have as many items, and a settle of the
            # removed plots left the new ones below the fold unmeasured until painted)
            self._settle_targets = None
            self._columns = columns
            where = flow_grid(own, columns)
            for p in data.panels:
                row, col, row_span, col_span = where[p.key]
                item = self.canvas.addPlot(
                    row=row,
                    col=col,
                    rowspan=row_span,
                    colspan=col_span,
                    axisItems=make_axes(),
                    viewBox=PlotViewBox(),
                )
                hide_spare_axes(item)
                plot = self.plots[p.key] = PanelPlot(item)
                plot.set_stage(self._presenting)
                plot.hover.set_muted(self.readouts_muted)
                # the lecturer's "Square cells" choice outlives a rebuilt plot
                plot.square_cells = self.square_cells.get(p.key)
                plot.square_changed = partial(self._square_changed, p.key)
                plot.data_resized = self._data_resized
                yield None
            self._layout_key = key
        # the second live frame before full quality: a slider drags
        self._hold_axes(live and self._dragging, data)
        for p in data.panels:
            if p.key in unseen:
                self._pending[p.key] = p
                self.deferred_shows += 1
                continue
            self.plots[p.key].show(p)
            yield None
        if parts:  # the grid, then each plot in its place: the settle below is short
            self.canvas.ci.layout.activate()
            yield None
            for plot in self.plots.values():
                settle(targets(plot.plot))
                yield None
        # (a drag's frame after another: the text items found by the frame before)
        self._cache_text_items(drag=live and self._dragging and self._draft)
        self._settle()
        self._set_draft(live)
        if live:
            self.full_quality()
        self._dragging = live
        self.data = data
        texts = (
            data.formula_markup or escape(data.formula),
            # a value's minus U+2212 ("−4"), as the formula line, titles and ticks write it
            (minus_signs(data.verdict), minus_signs(data.verdict_short)),
            self._idle_for(data),
        )
        self._latest_text = texts
        if live and not self.text_every_frame:
            if not self._live_text_fits(texts):  # (a taller or lower formula or verdict)
                self.texts_at_once += 1
                self._apply_text(texts, notes=False)
            self.live_text(texts)  # at once, or when the interval is over (latest wins)
        else:
            self.live_text.cancel()
            self._formula_hold_end.stop()
            self.formula.release_height()  # (a frame drawn in full quality: its own)
            self._apply_text(texts)
        if not live:
            # no drag goes on: the notes line takes its text's height (held from the
            # frames before, a deck's Learned scene 6 after scene 7 kept scene 7's
            # three lines for its two at 200 % on the stage and scrolled by 82 px)
            self._end_status_hold()
        if fresh:
            self.clear_error()
        self.fit_height(None if parts else width, live=live)
        self._texts_found = live
        self.rendered.emit()

    def _can_reflow(self, own: dict[str, Position]) -> bool:
        """Whether the grid shown holds exactly the plots of the panels ``own`` (built
        whole: a build left half-way has no layout key), so that another number of
        columns can move them rather than build new ones."""
        items = self.canvas.ci.items
        return (
            self._layout_key is not None
            and bool(self.plots)
            and set(self.plots) == set(own)
            and len(items) == len(self.plots)
            and all(plot.plot in items for plot in self.plots.values())
        )

    def _reflow(self, where: dict[str, Position], panels: Sequence[Panel]) -> None:
        """Move the plots to their cells ``where`` (key → row, column, spans) in the
        canvas's grid, kept in the scene with their items: a presentation scale with
        fewer columns made every plot of the view anew (0.5-2 s of CPU each way of
        F5), pyqtgraph's ``GraphicsLayout.removeItem`` takes them out of the scene."""
        self.grid_reflows += 1
        places: list[tuple[pg.GraphicsWidget, int, int, int, int]] = []
        for p in panels:
            plot = self.plots[p.key]
            plot.restart_axes()  # (as a new plot's in its new place)
            row, col, row_span, col_span = where[p.key]
            places.append((plot.plot, row, col, row_span, col_span))
        move_in_grid(self.canvas.ci, places)
        self._forget_rows()
        self._settle_targets = None
        self.canvas.ci.layout.activate()

    def _forget_rows(self) -> None:
        """The grid's rows without the heights fitted before (as a new grid's rows):
        :meth:`fit_height` fits them for the plots as they are now."""
        layout = self.canvas.ci.layout
        for r in range(layout.rowCount()):
            layout.setRowMinimumHeight(r, 0.0)
            layout.setRowPreferredHeight(r, 0.0)

    # ----------------------------------------------------------------- out of sight
    def _seen_rect(self) -> QtCore.QRectF | None:
        """The part of the canvas's scene the scrolled view shows now; ``None`` when the
        view is not on screen (nothing is left out then)."""
        if not self.isVisible():
            return None
        port = self.scroll_area.viewport()
        canvas_port = self.canvas.viewport()
        origin = canvas_port.mapTo(port, QtCore.QPoint(0, 0))
        seen = port.rect().translated(-origin).intersected(canvas_port.rect())
        if seen.isEmpty():
            return QtCore.QRectF()
        return self.canvas.mapToScene(seen).boundingRect()

    def _unseen(self) -> set[str]:
        """Keys of the plots shown (not hidden by a focus or a reveal step) that lie
        entirely outside the part of the canvas the view shows now."""
        seen = self._seen_rect()
        if seen is None:
            return set()
        return {
            key
            for key, plot in self.plots.items()
            if plot.plot.isVisible()
            and plot.panel is not None  # drawn before: laid out
            and not plot.plot.sceneBoundingRect().intersects(seen)
        }

    @property
    def pending_panels(self) -> list[str]:
        """Keys of the plots that still show an older frame (scrolled out of sight)."""
        return list(self._pending)

    def bring_up_to_date(self) -> None:
        """Draw the latest data in every plot left behind while out of sight (before
        anything reads or paints the whole canvas: exports, grabs, tests)."""
        self._show_pending(list(self._pending))

    def _show_seen(self, *, fit: bool = True) -> None:
        """Draw the plots left behind that can be seen now (scrolled to, resized, shown
        again after a focus or a reveal step)."""
        if not self._pending or self._catching_up or self._fitting:
            return  # (fit_height looks again when it is done)
        unseen = self._unseen() if self.isVisible() else set(self._pending)
        self._show_pending([k for k in self._pending if k not in unseen], fit=fit)

    def _show_pending(self, keys: list[str], *, fit: bool = True) -> None:
        """Draw the waiting panels of ``keys``, settle, and fit the rows (``fit``; else
        from the event loop)."""
        if not keys or self._catching_up:
            return
        self._catching_up = True
        try:
            for key in keys:
                panel = self._pending.pop(key, None)
                plot = self.plots.get(key)
                if panel is not None and plot is not None:
                    plot.show(panel)
            self._cache_text_items()
            self._settle()
            self._set_draft(self._draft)
            if fit:
                self.fit_height()
            else:
                self._fit_timer.start()
        finally:
            self._catching_up = False
        if self._pending and fit:  # the rows moved: more may be in sight now
            self._show_seen()
        self.caught_up.emit()

    def _data_resized(self, plot: PanelPlot) -> None:
        """A plot's data changed height: fit the rows again when its word ticks now
        need a taller plot (its axes and title are measured when drawn: after a new UI
        scale, later than the rows were fitted)."""
        if not self.isVisible() or sum(p.plot.isVisible() for p in self.plots.values()) < 2:
            return  # (a focused plot fills the stage, whatever its ticks)
        if plot.word_room() > plot.plot.height() + 1.0:
            self._fit_timer.start()

    def _square_changed(self, key: str, square: bool | None) -> None:
        if square is None:
            self.square_cells.pop(key, None)
        else:
            self.square_cells[key] = square

    # ----------------------------------------------------------------- layout fit
    @property
    def columns(self) -> int:
        """Plot columns the grid is laid out in now."""
        return self._columns

    def panel_size(self) -> tuple[float, float]:
        """The smallest legible plot (px) at the current UI scale and mode."""
        return min_panel_size(current_theme().ui_scale, self._presenting)

    def _plot_width(self) -> float:
        """The width the plot grid has, as if the view scrolled (the same with or
        without a scroll bar, so nothing fitted to it chases the bar)."""
        return float(
            self.scroll_area.width() - self.scroll_area.verticalScrollBar().sizeHint().width() - 12
        )

    def _grid_room(self, width: float) -> tuple[float, float]:
        """The plots' width in the grid of ``width`` px (:meth:`_plot_width`; the grid's
        margins left out, the gaps between columns not) and the gap between two
        columns, px."""
        layout = self.canvas.ci.layout
        left, _top, right, _bottom = layout.getContentsMargins()
        gap = max(layout.horizontalSpacing(), 0.0)
        return width - 2 * self.canvas.frameWidth() - left - right, gap

    def fitting_columns(self, grid: int) -> int:
        """How many of ``grid`` plot columns fit the width the plots have now (``grid``
        while the view has no size yet), each at least the smallest legible plot."""
        width = self._plot_width()
        if width <= 0 or not self.isVisible():  # laid out when shown (see showEvent)
            return grid
        return columns_for(width, grid, self.panel_size()[0])

    def _columns_now(
        self, positions: dict[str, Position], panels: Sequence[Panel], width: float | None = None
    ) -> int:
        """The plot columns that fit (:meth:`fitting_columns`) and in which every small
        grid among ``panels`` labels its columns and prints its values (:meth:`_index_needs`):
        in equal columns or in columns weighted by their needs (:func:`fits_columns`,
        :meth:`_weigh_columns`); fewer, wider columns only when neither fits. The values
        print at their least size (:func:`~gui.render.cell_values.least_pt`: half the UI
        scale's) or more; those of a grid whose values come first
        (:attr:`Panel.values_first`) at the stage's least value size
        (:func:`~gui.render.cell_values.stage_value_pt`: 8 pt at 100 %, 12 pt at 150 %)
        or more, unless only a single column gives them that (then at their least
        size: side by side, A beside B, rather than one plot a row). A 9-word Word
        order in a 1920 x 1080 window at 100 % took four plot columns, its 9 x 9
        weights printed at 7 pt and its differences at 6 pt; in three, 9 and 8.5 pt.
        ``width``: :meth:`_plot_width` as just read (read here where not given).

        Presenting, where the needs took columns that the smallest plot leaves and the
        fewer columns break the grid's rows up, while as many as that plot leaves keep
        them whole with the plots beside the wider column at the window's smallest
        plot (without :data:`grid_flow.PRESENT_WIDTH_FACTOR`), the rows are kept: Word order on
        stage at 1920 x 1080 / 200 % (its 3 x 3 matrices at 600 px and the differences
        at 838 px do not fit 1870 px; at 480 px they do) took two columns, each
        condition's differences two rows below its matrices."""
        # on stage the columns are weighted for values at stage_value_pt where the room
        # allows (the column count asks that, for the values_first grids alone)
        value_pt = stage_value_pt(current_theme().font_pt(VALUE_PT))
        needs, legible = self._index_needs(panels, (0.0, value_pt))
        first = {p.key: legible[p.key] for p in panels if p.values_first and legible[p.key]}
        self._needs, self._weights = needs, legible if self._presenting else needs
        self._floor = floor = self.panel_size()[0]
        grid = grid_columns(positions)
        width = self._plot_width() if width is None else width
        if width <= 0 or not self.isVisible():  # laid out when shown (see showEvent)
            return grid
        columns = columns_for(width, grid, floor)
        if columns > 1 and any(n > 0 for n in needs.values()):
            grids = frozenset(p.key for p in panels if p.kind == "heatmap")
            fit = None
            if first:
                counted = {**needs, **first}
                fit = self._columns_for_needs(positions, counted, columns, floor, width, grids)
                if fit[0] > 1:
                    self._needs = counted
                else:  # (one plot a row: the least size's columns instead)
                    fit = None
            if fit is None:
                fit = self._columns_for_needs(positions, needs, columns, floor, width, grids)
            columns, self._floor = fit
        return columns

    def scene_columns(self, keys: Sequence[str], most: int) -> int:
        """The most columns (``max_cols`` of :func:`~gui.widgets.grid_flow.grid_shape`)
        a deck scene that shows the panels ``keys`` in that order is laid out in:
        ``most`` (the columns that fit), or on the stage fewer where in ``most`` a row's
        small grids whose values come first (:attr:`Panel.values_first`) have not the
        width between them to print their values at the stage's value size
        (:meth:`_stage_value_width`) while in fewer they have, and the rows still fit
        the view's place without scrolling (:meth:`_scene_fits_height`: read from the
        scene's plots and texts, not from where the last scene left them). The lecture's
        scene 2 at 1920 x 1080 / 200 %: Word order's two out_B - out_A grids side by
        side had 40.5 px cells and printed "-0.4" at 13.5 pt (16 pt is the stage's
        size there: 45 px cells); one above the other, 96-98 px cells and 27-28.5 pt."""
        if not self._presenting or self.data is None or not self.isVisible() or most <= 1:
            return most
        panels = {p.key: p for p in self.data.panels}
        shown = [k for k in keys if k in panels and k in self.plots]
        first = {k: self._stage_value_width(k) for k in shown if panels[k].values_first}
        if not any(first.values()):
            return most
        inner, gap = self._grid_room(self._plot_width())
        floor = min_panel_size(current_theme().ui_scale)[0]  # (the window's smallest plot)
        for columns in range(min(most, len(shown)), 0, -1):
            cols = grid_shape(len(shown), columns)[1]
            where = {k: (i // cols, i % cols, 1, 1) for i, k in enumerate(shown)}
            rows: dict[int, float] = {}
            for key, (row, _c, _rs, _cs) in where.items():
                rows[row] = rows.get(row, 0.0) + max(first.get(key, 0.0), floor)
            if max(rows.values()) + gap * (cols - 1) <= inner:
                if columns == min(most, len(shown)):
                    return most
                return columns if self._scene_fits_height(where, first) else most
        return most

    def _stage_value_width(self, key: str) -> float:
        """The plot width (px) at which the small grid of panel ``key`` prints its
        values at the stage's value size (:meth:`CellLayer.legible_cell`), with the
        room beside its data that its axes and colour bar take now; 0 where it prints
        none."""
        plot = self.plots[key]
        cells = plot.cells
        if cells is None or cells.grid_shape[1] == 0:
            return 0.0
        width = cells.legible_cell(stage=True)[0]
        if width <= 0:
            return 0.0
        beside = plot.plot.width() - plot.plot.getViewBox().width()
        return float(beside + padded_span(cells.grid_shape[1] * (width + 1.0)))

    def _scene_fits_height(self, where: dict[str, Position], first: dict[str, float]) -> bool:
        """Whether the plots ``where`` they would be (a scene's grid) fit the view's
        place without scrolling when the stage squeezes them (:meth:`_stage_squeeze`):
        each row as tall as its tallest plot, a grid whose values come first
        (``first``) with the room beside its data it has now, its title's lines at
        the width it would have, and the data it keeps (:meth:`_grid_data_floor`), any
        other plot as tall as now; below the canvas one line of notes (the view's
        notes, shown until the scene's replace them, took three lines), above it the
        title and formula at their own heights (a formula held through a drag and
        the scroll bar beside it took 51 px more at 1600 x 1000 / 200 %)."""
        layout = self.canvas.ci.layout
        data_floor = self._stage_data_floor()
        inner, gap = self._grid_room(self._plot_width())
        columns = grid_columns(where)
        wide = (inner - gap * (columns - 1)) / columns
        rows: dict[int, float] = {}
        for key, (row, _col, _rs, _cs) in where.items():
            plot = self.plots[key]
            height = plot.plot.height()
            if first.get(key):
                floor = self._grid_data_floor(plot, data_floor, printing=True)
                height = self._data_floor_height(plot, floor)
                # its title's lines at the width it would have, not at the one it has,
                # nor the room a taller title beside it holds (rows align titles)
                label = plot.plot.titleLabel
                height += plot.title_room(wide) - plot.title_room(plot.plot.width())
                height -= max(label.height() - label.minimumHeight(), 0.0)
            rows[row] = max(rows.get(row, 0.0), height)
        _left, top, _right, bottom = layout.getContentsMargins()
        spacing = max(layout.verticalSpacing(), 0.0) * (len(rows) - 1)
        need = sum(rows.values()) + spacing + top + bottom + 2 * self.canvas.frameWidth()
        below = float(self._below_canvas())
        if self._status_box.isVisible():  # (one line of it, however tall it is now)
            below -= self.status.height() - self.status.fontMetrics().lineSpacing()
        # the texts above at their own heights (not as held) without the scroll bar
        bar = self.scroll_area.verticalScrollBar()
        wider = bar.width() if bar.isVisible() else 0
        top = self.canvas.y()
        for text in (self.title, self.formula):
            if text.isVisible() and text.hasHeightForWidth():
                top += text.heightForWidth(text.width() + wider) - text.height()
        place = self.scroll_area.viewport().height() - top - below
        return need <= place

    def _columns_for_needs(
        self,
        positions: dict[str, Position],
        needs: dict[str, float],
        top: int,
        floor: float,
        width: float,
        grids: frozenset[str] = frozenset(),
    ) -> tuple[int, float]:
        """:meth:`_columns_now`'s columns, at most ``top``, in which the ``needs`` fit
        (in a grid ``width`` px wide: :meth:`_plot_width`), and the narrowest plot
        column they were fitted with (``floor`` or, presenting, the window's smallest
        plot). Kept while what it reads stays the same (each frame of a drag asks
        again: the same grid flowed into each number of columns).

        Only the small grids among the panels (``grids``) must stay alike in a row of
        weighted columns, as :meth:`_weigh_columns` weighs them: Relative in a 1600 x
        1000 window at 100 % took three columns and three rows (it scrolled by 299 px)
        because its DeBERTa curves, in columns weighted for the grids above them, would
        differ in width; in four columns its two rows fit."""
        inner, gap = self._grid_room(width)
        plain = min_panel_size(current_theme().ui_scale)[0] if self._presenting else floor
        key = (
            tuple(positions.items()),
            tuple(needs.items()),
            (top, floor, inner, gap, plain, self._presenting, grids),
        )
        kept = self._needs_fit.get(key)
        if kept is not None:
            return kept
        columns = top
        while columns > 1 and not fits_columns(
            positions, needs, columns, inner, gap, floor, alike=grids
        ):
            columns -= 1
        if self._presenting and columns < top and not keeps_rows(positions, columns):
            for more in range(top, columns, -1):
                if keeps_rows(positions, more) and fits_columns(
                    positions, needs, more, inner, gap, plain, alike=grids
                ):
                    floor, columns = plain, more
                    break
        if len(self._needs_fit) >= NEEDS_FITS_KEPT:
            self._needs_fit.clear()
        self._needs_fit[key] = (columns, floor)
        return columns, floor

    def _index_needs(
        self, panels: Sequence[Panel], value_pts: tuple[float, ...]
    ) -> list[dict[str, float]]:
        """For each of ``value_pts``, the plot width (px) each small grid among
        ``panels`` needs to label each of its columns and print its values
        (:func:`index_width`; at that size or more where not 0); 0 for other panels.
        Each panel's labels are measured once for all sizes (:func:`index_widths`)."""
        font = current_theme().font(TICK_PT)
        widths = [(p.key, index_widths(p, font, self._presenting, value_pts)) for p in panels]
        return [{key: w[i] for key, w in widths} for i in range(len(value_pts))]

    def _weigh_columns(self, cells: dict[object, Position], width: float) -> None:
        """Give the grid's columns widths in proportion to their needs where these
        differ (:func:`weighted_widths`, each column's minimum width): Word order's
        out_B - out_A grids (16 columns of values) beside two 3 x 3 grids that need
        only the smallest plot. On stage the needs are for values at
        :func:`~gui.render.cell_values.stage_value_pt` or more (8 pt at 100 %, 12 pt at
        150 %): at 1920 x 1080 / 100 % equal columns gave the
        differences 18.9 px cells, 6 pt values (8 pt needs 23.6 px). Read from the plots shown where they are now (a focused
        plot alone: none). Equal columns (no minimum) otherwise, hidden, or in one
        column. ``cells``: :func:`grid_positions` of the canvas's grid; ``width``:
        :meth:`_plot_width`."""
        layout = self.canvas.ci.layout
        widths = None
        if self.isVisible() and self._columns > 1:
            where = {  # the plots shown (or keeping their room), where they are now
                key: cells[plot.plot]
                for key, plot in self.plots.items()
                if plot.plot in cells and holds_place(plot)
            }
            if len(where) > 1:  # (one focused plot takes the whole grid)
                inner, gap = self._grid_room(width)
                room = inner - gap * (grid_columns(where) - 1)
                # on stage a plot beside the grids may go down to the window's
                # smallest plot; only grids stay alike in a row (curves may differ)
                least = min_panel_size(current_theme().ui_scale)[0] if self._presenting else None
                grids = {k for k, p in self.plots.items() if p.panel and p.panel.kind == "heatmap"}
                widths = self._weighted_widths(where, room, least, frozenset(grids))
        changed = False
        for c in range(layout.columnCount()):
            width = 0.0 if widths is None or c >= len(widths) else float(math.floor(widths[c]))
            if layout.columnMinimumWidth(c) != width:  # (setting re-lays out)
                layout.setColumnMinimumWidth(c, width)
                changed = True
                self._wrote()
        if changed:  # the rows are fitted to the plots' widths (titles wrap to them)
            # the canvas sizes its grid only when it is resized itself: a grid held
            # wider than the canvas by the minimums weighted for a wider window kept
            # that width once they were lowered (Word order at 1920 x 1080 / 100 %:
            # weighted at 1542 px, 1526 px of minimums, the grid stayed 1526 px wide
            # in a 1500 px canvas, its last column 18 px beyond the window's edge)
            port = self.canvas.viewport()
            self.canvas.ci.setGeometry(QtCore.QRectF(0, 0, port.width(), port.height()))
            layout.activate()
            self._settle()

    def _weighted_widths(
        self,
        where: dict[str, Position],
        room: float,
        least: float | None,
        grids: frozenset[str],
    ) -> list[float] | None:
        """:meth:`_weigh_columns`' column widths for the plots ``where`` they are:
        :func:`weighted_widths` for the needs the columns are weighted by, else (the
        stage's value size does not fit) for the values at their least size, as the
        columns were counted for (Word order at 1920 x 1080 / 200 %: equal columns left
        its differences 21 px cells, no values). A pure function of its inputs, kept
        for them: each frame of a drag asks again with the same ones (~80 Python calls
        a frame)."""
        weights, needs = self._weights, self._needs
        key = (
            tuple(where.items()),
            tuple(weights.items()),
            None if weights is needs else tuple(needs.items()),
            room,
            self._floor,
            least,
            grids,
        )
        known = self._widths_for
        if known is not None and known[0] == key:
            return known[1]
        widths = weighted_widths(where, weights, room, self._floor, least=least, alike=grids)
        if widths is None and weights is not needs:
            widths = weighted_widths(where, needs, room, self._floor, least=least, alike=grids)
        self._widths_for = (key, widths)
        return widths

    @property
    def scrolls(self) -> bool:
        """Whether the view is taller than its place (and scrolls)."""
        return self.scroll_area.verticalScrollBar().maximum() > 0

    def show_all_data(self) -> None:
        """Every plot back to the framing it is drawn with (undoes panning and zooming;
        the parameters stay)."""
        for plot in self.plots.values():
            plot.show_all_data()

    def scroll_to_top(self) -> None:
        """Scroll back to the title (a new view or scene starts at the top)."""
        self.scrolls_asked += 1
        self.scroll_area.verticalScrollBar().setValue(0)

    def plot_at_top(self) -> str | None:
        """Key of the plot whose row the view is scrolled to (its top at or above the
        scroll position, the lowest such); ``None`` at the view's top, where the
        heading is in sight (see :meth:`scroll_to_plot`)."""
        value = self.scroll_area.verticalScrollBar().value()
        if value <= 0:
            return None
        tops = [(top, key) for key, top in self._plot_tops().items() if top <= value + 2]
        return max(tops)[1] if tops else None

    def scroll_to_plot(self, key: str | None) -> None:
        """Scroll so that the row of plot ``key`` starts at the top of what the view
        shows (as far as the view scrolls); ``None``: to the view's top."""
        self.scrolls_asked += 1
        self._scroll_to(key)

    def _scroll_to(self, key: str | None, tops: dict[str, int] | None = None) -> None:
        """:meth:`scroll_to_plot` without counting it as a scroll asked for (``tops``:
        :meth:`_plot_tops`, where just read)."""
        top = None if key is None else (self._plot_tops() if tops is None else tops).get(key)
        bar = self.scroll_area.verticalScrollBar()
        bar.setValue(0 if top is None else max(bar.minimum(), min(bar.maximum(), top)))

    def keep_plot_in_sight(self, key: str | None) -> None:
        """:meth:`scroll_to_plot`, and again after each later change of the height the
        view scrolls over while nothing else scrolls it (:attr:`scrolls_asked`: a scroll
        asked for, the wheel, keys or scroll bar). A change of mode lays the view out
        anew in several passes, and a pass after the scroll moved the row away: F5 in a
        1280 x 720 window at 300 % scrolled to Sinusoidal's wavelengths showed the
        stage's bottom (694 px down, the row at 568); Relative's T5 row at 150 % was
        300 px off."""
        self.scroll_to_plot(key)
        self._pin = (key, self.scrolls_asked)

    def _scroll_range_changed(self, _low: int, _high: int) -> None:
        if self._pin is not None:  # (once the layout pass is done: the plots' new places)
            self._pin_timer.start()

    def _repin(self) -> None:
        """The plot :meth:`keep_plot_in_sight` keeps at the top, there again, unless
        something else scrolled the view since or the plot is no longer shown (then it
        is let go: the view is not sent to its top)."""
        pin = self._pin
        if pin is None:
            return
        key, asked = pin
        tops = self._plot_tops()
        if asked != self.scrolls_asked or (key is not None and key not in tops):
            self._pin = None
            return
        self._scroll_to(key, tops)

    def _plot_tops(self) -> dict[str, int]:
        """The top of each plot shown, in the scrolled body's pixels."""
        viewport = self.canvas.viewport()
        tops = {}
        for key, plot in self.plots.items():
            if plot.plot.isVisible():
                top = self.canvas.mapFromScene(plot.plot.sceneBoundingRect().topLeft())
                tops[key] = viewport.mapTo(self.body, top).y()
        return tops

    def row_tops(self) -> list[int]:
        """The tops of the plot rows shown, in the scrolled body's pixels, top first."""
        return sorted(set(self._plot_tops().values()))

    def scroll_rows(self, direction: int, page: bool = False) -> bool:
        """Scroll one plot row down (``direction`` > 0) or up (``page``: one screen);
        False when the view does not scroll or is already at that end."""
        bar = self.scroll_area.verticalScrollBar()
        if bar.maximum() <= 0:
            return False
        value = bar.value()
        if page:
            target = value + direction * bar.pageStep()
        elif direction > 0:
            below = [t for t in self.row_tops() if t > value + 2]
            target = below[0] if below else bar.maximum()
        else:
            tops = self.row_tops()
            above = [t for t in tops if t < value - 2]
            target = above[-1] if above else 0
            if tops and target == tops[0] and target < bar.pageStep() // 2:
                target = 0  # the first row and the title and formula above it fit
        target = max(bar.minimum(), min(bar.maximum(), target))
        if target == value:
            return False
        self.scrolls_asked += 1
        bar.setValue(target)
        return True

    def set_covered(self, covered: bool) -> None:
        """Whether a widget lies over the canvas that repaints on its own (the stage's
        parameter strip). Then every change repaints the whole canvas: such a repaint
        between a drawing and Qt's queued hand-over of the scene's changes records each
        moved item's new place as the one last painted, so only new places were
        repainted, and the clock's old "q (m=2)" / "k (n=1)" and arrows, and the edges of
        ALiBi's old, wider title stayed on screen (live window, strip shown)."""
        mode = QtWidgets.QGraphicsView.ViewportUpdateMode
        self.canvas.setViewportUpdateMode(
            mode.FullViewportUpdate if covered else mode.MinimalViewportUpdate
        )

    def set_presenting(self, presenting: bool, *, fit: bool = True) -> None:
        """Presentation mode: plots need more room (fewer, larger columns). Without
        ``fit`` the grid is left as it is (the caller redraws the view next: a new
        theme or UI scale, :meth:`apply_theme`, lays it out in the new columns)."""
        if presenting != self._presenting:
            self._presenting = presenting
            for plot in self.plots.values():
                plot.set_stage(presenting)
            self.release_held_room()
            if self._shown_text is not None:
                self._show_verdict(*self._shown_text[1])
            if fit:
                self.fit_grid()

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        # (a wrapper the collector is clearing has no canvas left: its events pass)
        kind = event.type()
        canvas = getattr(self, "canvas", None)
        if kind == QtCore.QEvent.Type.Resize and obj is canvas:
            self._fit_timer.start()  # not inside the resize: it may rebuild the grid
            if not self.isVisible():  # an export's: laid out without the event loop
                self._grow_lone_table()
        elif (
            kind == QtCore.QEvent.Type.Resize
            and obj is getattr(self, "_status_box", None)
            and event.size().height() != event.oldSize().height()  # type: ignore[attr-defined]
        ):
            self._fit_timer.start()  # the notes took more or fewer lines: the fold moved
        elif kind == QtCore.QEvent.Type.Leave and canvas is not None and obj is canvas.viewport():
            # the cursor left the plots (for the heading, the strip, the window's edge):
            # the line shows the notes again, not the value read last (lecture scene
            # 20 on stage kept "distance Δ = i − j = 106 — sinusoidal: 0.45106, …")
            self._set_status(self._idle_text)
        if getattr(self, "_pending", None) and kind in _SIGHT_EVENTS:
            # the view's window onto the canvas moved or grew, or a paint is due: draw
            # the plots left behind that it shows now, before they are painted (the
            # rows are fitted again from the event loop, not inside a resize or paint)
            self._show_seen(fit=False)
        return False

    def resizeEvent(self, event: QtGui.QResizeEvent) -> None:
        super().resizeEvent(event)
        self.release_held_room()
        if event.size().width() != event.oldSize().width():
            self._release_status_height()
        # on a short screen the formula is drawn smaller rather than push the plots
        # below the fold (1280 x 720 at 200 % on stage: six lines, half the screen)
        self.formula.set_max_height(round(FORMULA_SHARE * event.size().height()))
        self._fit_timer.start()

    def showEvent(self, event: QtGui.QShowEvent) -> None:
        super().showEvent(event)
        if self._restyle_on_show and self.data is not None:
            self.show_data(self.data)  # the theme or scale applied while hidden; fits too
        else:
            self.fit_grid()  # at once: the view appears laid out (tests wait no longer)
        self._settle_shown()

    def _settle_shown(self) -> None:
        """Finish now what a view that appears would otherwise finish from the event
        loop after its first paint: the axis titles re-fitted to the lengths the plots
        got while the view was hidden or just now (a hidden view's re-fits wait for it
        to be shown; a view shown in a window of another size or mode re-lays out as it
        appears), their legend strips re-planned, and the rows fitted to them. The
        first frame then shows the settled layout: at 200 % the axis titles of a view
        switched to overlapped their tick labels for a frame or two, in the rows below
        the fold until scrolled to. Runs when the view is shown, never per frame."""
        for _ in range(REFIT_ROUNDS):
            self._settle()
            if not run_title_refits(self):
                break
            self.fit_height()
        self._settle()

    def fit_grid(self) -> None:
        """Lay the plots out in as many columns as fit (rebuilding the grid when that
        number changed) and give the canvas the height its rows need. A hidden view
        (another view's page, a hidden window) is fitted when shown (:meth:`showEvent`):
        hidden, it counts its grid's full columns (:meth:`fitting_columns`), and each
        presentation mode change, scale change or window resize rebuilt every hidden
        view in them, to rebuild it once more in the columns that fit when shown."""
        if self.data is None or not self.isVisible():
            return
        own = {p.key: (p.row, p.col, p.row_span, p.col_span) for p in self.data.panels}
        if self._columns_now(own, self.data.panels) != self._columns:
            self.show_data(self.data)  # rebuilds in the new columns, then fits the height
        else:
            self.fit_height()

    def fit_height(self, width: float | None = None, *, live: bool = False) -> None:
        """Give the canvas the height its visible rows need: each row at least the
        smallest legible plot plus its wrapped title's and legend's room, a heatmap's
        row the room its word ticks need at full size (again when its axes changed
        size, :meth:`_data_resized`), a table's row its whole table (the view scrolls
        when the window is lower). The height the canvas has beyond that goes to the
        rows so that their data areas are equal (:meth:`_balance_rows`). A widget never
        shown (an export's) keeps no minimum.

        When the canvas changed height the plots are laid out anew and the rows fitted
        once more to what they measure then: a title's wrapped lines depend on the
        axes beside its data, which a plot back from a focus had at their focused
        size (its row kept a line too few). ``width``: :meth:`_plot_width` as just read
        (read here where not given).

        A ``live`` frame (a drag) that reads the same as the last live frame's fit
        where that fit changed nothing (:meth:`_fit_inputs`: the grid, the canvas,
        each plot's parts, texts and measures) is fitted already: the fit is skipped
        (it took ~1000-3000 Python calls a frame, a third of Word order's)."""
        self._fitting += 1  # (a scroll bar's range changing meanwhile waits for the end)
        try:
            # where the plots sit (one pass over the grid's cells: nothing here moves a
            # plot to another cell, and each pass asked the grid for every cell)
            # and the grid's width (the same with or without a scroll bar: read once,
            # its size hint took ~25 us a call on a drag's frames)
            positions = grid_positions(self.canvas.ci.layout) if self.plots else {}
            width = self._plot_width() if width is None else width
            inputs = self._fit_inputs(positions, width) if live else None
            if inputs is not None and inputs == self._fitted_inputs:
                self.fits_skipped += 1
            else:
                self._fitted_inputs = None
                self._measuring, self._fit_wrote = inputs is not None, False
                self._fold_read_lines = False
                try:
                    self._weigh_columns(positions, width)
                    if self._fit_rows(positions, width):
                        self._fit_rows(positions, width)
                    # a fit that changed nothing it reads: the same reads, the same fit
                    if inputs is not None and not self._fit_wrote:
                        self._fitted_inputs = inputs
                finally:
                    # (a fit within another's changed what the outer one measured)
                    self._measuring, self._fit_wrote = False, True
        finally:
            self._fitting -= 1
        if not self._fitting and self._fit_texts():
            self.fit_height()  # the canvas moved up or down: its rows again
            return
        if self._pending and not self._fitting:  # rows moved, plots shown again:
            self._show_seen()  # some may be in sight now

    def _fit_inputs(self, positions: dict[object, Position], width: float) -> tuple:
        """What :meth:`_weigh_columns` and :meth:`_fit_rows` read, as a key compared with
        ``==`` (``positions``: :func:`grid_positions`; ``width``: :meth:`_plot_width`):
        the view's size, mode and theme, the columns and their needs, the grid's and
        the canvas's geometry and the rows' and columns' sizes as set, the notes line
        below the canvas, and each plot's place and :meth:`PanelPlot.fit_inputs`."""
        layout = self.canvas.ci.layout
        columns = range(layout.columnCount())
        box, status = self._status_box, self.status
        text = status.text()
        window = self.window()
        theme = current_theme()
        plots = []
        measures = {}
        # the plots whose grids have one shape (the rows of matrices: _group_values)
        shapes: dict[tuple[int, int], int] = {}
        for key, plot in self.plots.items():
            # each plot's measures are kept for its inputs (a frame where one title
            # changed measures that plot alone)
            read, texts = (theme, self._presenting, plot.fit_inputs()), plot.text_inputs()
            known = self._measures.get(plot)
            if known is None or known[0] != read:
                known = (read, texts, {})
            elif known[1] != texts:  # other texts: what reads them measured again
                known = (read, texts, self._texts_measured(known[2]))
            measures[plot] = known
            cells = plot.cells
            alike = None if cells is None else shapes.setdefault(cells.grid_shape, len(shapes))
            # the measures of its title and legend stand for their texts (the fit
            # reads them alone): the same measures, the same fit (the same dict where
            # the texts are the same, then filled by the fit it stands for); its inputs
            # as kept where equal (the key's comparison with the last fit's then finds
            # the same tuple, not another one compared item by item)
            plots.append((key, plot, holds_place(plot), known[0][2], known[2], alike))
        self._measures = measures
        return (
            width,
            self.isVisible(),
            self._presenting,
            theme,
            self._columns,
            self._floor,
            tuple(self._weights.items()),
            tuple(self._needs.items()),
            tuple(positions.items()),
            self.canvas.geometry(),
            self.canvas.minimumHeight(),
            self.canvas.frameWidth(),
            self.canvas.viewport().size(),
            self.scroll_area.viewport().size(),
            layout.geometry(),
            layout.getContentsMargins(),
            layout.horizontalSpacing(),
            layout.verticalSpacing(),
            tuple(
                (
                    layout.rowMinimumHeight(r),
                    layout.rowPreferredHeight(r),
                    layout.rowMaximumHeight(r),
                )
                for r in range(layout.rowCount())
            ),
            tuple(layout.columnMinimumWidth(c) for c in columns),
            box.isVisible(),
            box.geometry(),
            status.geometry(),
            # (its lines where the last fit read where the fold cuts them: _fold_fit;
            # a drag's new notes of as many lines measure the same)
            self._status_lines() if self._fold_read_lines and text else bool(text),
            window.height() if window is not None else self.height(),
            tuple(plots),
        )

    @staticmethod
    def _texts_measured(kept: dict[tuple, tuple[object, Callable]]) -> dict[tuple, tuple]:
        """The measures ``kept`` of a plot (:meth:`_measure`) whose texts changed: those
        that read them (:data:`TEXT_MEASURES`) measured again, the others as kept."""
        return {
            key: (found[1](*key[1]), found[1]) if key[0] in TEXT_MEASURES else found
            for key, found in kept.items()
        }

    def _measure(self, plot: PanelPlot, what: str, measure: Callable[..., _T], *args: object) -> _T:
        """``measure(*args)`` of ``plot`` (``what`` names it), kept for a live frame's
        fit while the plot's inputs stay the same (:meth:`_fit_inputs`) and the fit
        has changed nothing yet; measured otherwise."""
        if not self._measuring or self._fit_wrote:
            return measure(*args)
        known = self._measures.get(plot)
        if known is None:
            return measure(*args)
        kept = known[2]
        key = (what, args)
        if key in kept:
            return kept[key][0]
        found = measure(*args)
        kept[key] = (found, measure)
        return found

    def _wrote(self) -> None:
        """The fit under way changed the layout or what a plot is measured by: what it
        measured before is not kept from here on (see :meth:`_measure`)."""
        self._fit_wrote = True

    @staticmethod
    def _one_row(shown: list[PanelPlot], positions: dict[object, Position]) -> bool:
        """Whether the plots ``shown`` take one row of the grid between them (a plot
        alone, a scene's plots side by side): the view is its heading, that row and
        the notes line. ``positions``: :func:`grid_positions`."""
        rows: set[int] = set()
        for plot in shown:
            where = positions.get(plot.plot)
            if where is not None:
                rows.update(range(where[0], where[0] + where[2]))
        return len(rows) <= 1

    def _grow_lone_table(self) -> None:
        """An export's table shown alone (the lecture's slide of Compare's table) grows
        into the canvas, as on stage (:data:`TABLE_GROW`): at its full size it filled
        40 % of a 1600 x 1000 slide, the rest blank."""
        shown = [plot for plot in self.plots.values() if holds_place(plot)]
        if len(shown) != 1 or shown[0].table is None:
            return
        layout = self.canvas.ci.layout
        _left, top, _right, bottom = layout.getContentsMargins()
        room = self.canvas.height() - top - bottom - 2 * self.canvas.frameWidth() - TABLE_PAD
        box = shown[0].plot.getViewBox().width()
        if room > 0 and box > 0:
            shown[0].fit_table(room, box, current_theme(), grow=TABLE_GROW)

    def _fit_rows(self, positions: dict[object, Position], width: float) -> bool:
        """:meth:`fit_height` once (``positions``: :func:`grid_positions` of the
        canvas's grid; ``width``: :meth:`_plot_width`); whether the canvas's height
        changed."""
        layout = self.canvas.ci.layout
        if not self.isVisible():  # an export's widget: drawn at the size asked for
            self._wrote()
            for r in range(layout.rowCount()):
                layout.setRowMinimumHeight(r, 0.0)
                layout.setRowPreferredHeight(r, 0.0)
            for plot in self.plots.values():
                plot.set_legible_height(0.0)
            self.canvas.setMinimumHeight(0)
            self._grow_lone_table()
            return False
        min_w, min_h = self.panel_size()
        if 0 < self._floor < min_w:  # columns fitted to a narrower plot (_columns_now)
            min_w = self._floor
        columns = max(layout.columnCount(), 1)
        left, margin_top, right, margin_bottom = layout.getContentsMargins()
        gap = max(layout.horizontalSpacing(), 0.0)
        # a column's width with or without a scroll bar (the room must not follow the
        # bar): the grid's width less its margins and the gaps between its columns
        inner = width - 2 * self.canvas.frameWidth() - left - right
        column_w = (inner - gap * (columns - 1)) / columns
        # the columns' width as the grid lays them out now (not always equal: the
        # clock's plane spans two of four columns and the grid gives it a third of the
        # width; the room for its title was wrapped at 879 px, the title at 570 px),
        # and as the canvas has it now, with or without a scroll bar
        frame = 2 * self.canvas.frameWidth() + left + right + gap * (columns - 1)
        laid_w = layout.geometry().width() - (frame - 2 * self.canvas.frameWidth())
        canvas_w = self.canvas.width() - frame
        need: dict[int, float] = {}
        fills: dict[PanelPlot, float | None] = {}  # each plot's fill_height, asked once
        shown = [plot for plot in self.plots.values() if holds_place(plot)]
        # a table shown alone (a scene staging Compare's table, its slide) grows into
        # the room, up to twice its size, as a focused plot's text does
        alone = len(shown) == 1 and shown[0].table is not None
        # the height a table may take to be seen whole on stage (None: its full size)
        table_room = (
            self.scroll_area.viewport().height()
            - margin_top
            - margin_bottom
            - 2 * self.canvas.frameWidth()
            - TABLE_PAD
            if self._presenting or alone
            else None
        )
        # on stage a small grid's row grows for its values at the stage's value size
        # as far as the plot stays on the stage below the view's heading, and above the
        # notes line where its row is the view's only one (Compare's table alone at
        # 1920 x 1080 / 200 % was fitted to the stage less the heading only: the view
        # scrolled by the notes line's 47 px, the table's last row below the fold). A
        # view of several rows is fitted to the stage by its rows (:meth:`_fold_fit`,
        # :meth:`_stage_fit`) or scrolls anyway: its plots keep the room below the
        # heading (ALiBi's 8 x 8 toys, the last of three rows at 1920 x 1080 / 200 %,
        # printed 15 pt values in the 640 px left above the notes line, 16 pt in 842)
        stage_room = 0.0
        if table_room is not None:
            stage_room = max(0.0, table_room - self.canvas.y())
            if self._one_row(shown, positions):
                stage_room = max(0.0, stage_room - self._below_canvas())
        legible_was = [(plot, plot.legible_height) for plot in shown]  # (as they were)
        for plot in shown:
            if plot.stage_room != stage_room:
                plot.stage_room = stage_room
                self._wrote()
        self._group_values(shown, positions)
        if self._align_titles(shown, positions):
            self._wrote()
            # measured again once laid out: a plot's word room counts its title row as
            # laid out, still at the old floor now (back from a focus Alibi's course
            # grid kept a row 20 px taller, fitted while its title held a line more)
            self._fit_timer.start()
        spans: list[tuple[PanelPlot, int, int]] = []
        # on stage, the height each row keeps when the view is squeezed to fit it
        # (:meth:`_stage_squeeze`), and each plot's legible height and place
        floors: dict[int, float] = {}
        legibles: list[tuple[PanelPlot, int, int, float]] = []
        squeeze = self._presenting and len(shown) > 1
        data_floor = self._stage_data_floor() if squeeze else 0.0
        # tables beside other plots on stage, fitted once the others' rows are known:
        # (plot, top row, rows spanned, its height without the table, its width)
        shared: list[tuple[PanelPlot, int, int, float, float]] = []
        for plot in shown:
            where = positions.get(plot.plot)
            if where is None:
                continue
            top, _col, span, col_span = where
            spans.append((plot, top, span))
            height = min_h * span if len(shown) > 1 else min_h  # one (focused): one plot
            # the plot's width in the grid (not below the legible one): its legend
            # strip takes the lines that the data's width there needs at full text
            # size; the axes and colour bar beside the data counted as a fixed share,
            # not as wide as they are now (before the first settle, they were wider)
            share = self._grid_share(plot, col_span, laid_w, gap)
            gaps = gap * (col_span - 1)
            if share is None:  # (not laid out yet: equal columns)
                width = column_w * col_span + gaps
                title_w = width
            else:
                width = share * column_w * columns + gaps
                # the title wraps at its label's width, which follows the scroll bar
                title_w = share * canvas_w + gaps
            width = max(min_w, width)
            measure = partial(self._measure, plot)
            legend = measure("legend", plot.legend_room, LEGEND_SHARE * width)  # the strip on top
            words = 0.0
            if len(shown) > 1:  # (a focused plot fills the stage: room to spare)
                # a title wrapped onto more lines, not below the legible one, at the
                # width its lines are shown at (a wider plot, more lines: the height
                # only grows with a scroll bar, which then stays)
                height += measure("title", plot.title_room, max(min_w, title_w))
                words = measure("words", plot.word_room)
                height = max(height, words)  # word ticks at full size
            plot.set_legible_height(height)  # the legend keeps its full size above it
            legibles.append((plot, top, span, height))
            if squeeze:  # (a table keeps its height)
                floor = math.inf
                if plot.table is None:  # (its data no lower than its legend, whose
                    # text then keeps its size: StripLegend.plan)
                    own = measure("floor", self._grid_data_floor, plot, data_floor)
                    floor = measure("data", self._data_floor_height, plot, max(own, legend))
                    floor = max(words, floor) + legend
                for r in range(top, top + span):
                    floors[r] = max(floors.get(r, 0.0), floor / span)
            height += legend
            if plot.table is not None:  # on stage a table fits the stage if it can
                box = plot.plot.getViewBox().width()
                floor = self._stage_text_pt()
                room, grow = table_room, 1.0
                if alone and table_room is not None:  # grown: as far as it stays in sight
                    room, grow = stage_room, TABLE_GROW  # (below the heading)
                elif table_room is not None:  # beside other plots: the room they leave
                    shared.append((plot, top, span, height, box if box > 0 else width))
                    continue
                if plot.fit_table(
                    room, box if box > 0 else width, current_theme(), floor, grow=grow
                ):
                    self._wrote()
            table = measure("table", plot.table_height)
            if table is not None:
                height = max(height, table)
            fill = None
            if len(shown) > 1 and span == 1:
                fill = measure("fill", plot.fill_height)
            fills[plot] = fill
            if fill is not None:  # a square matrix: no taller than its width allows
                height = min(height, fill)
            for r in range(top, top + span):
                need[r] = max(need.get(r, 0.0), height / span)
        if shared and table_room is not None:
            self._fit_shared_tables(shared, need, table_room)
        need = {r: float(math.ceil(h)) for r, h in need.items()}  # whole px: stable sums
        spacing = layout.verticalSpacing() if need else 0.0
        rest = (  # the canvas's height beyond its rows
            spacing * max(len(need) - 1, 0)
            + margin_top
            + margin_bottom
            + 2 * self.canvas.frameWidth()
            + TABLE_PAD
        )
        height = int(sum(need.values()) + rest) + 1
        self._rows_need = height
        cuts = self._stage_squeeze(need, floors, height) if squeeze else {}
        if cuts:  # squeezed to fit the stage: each plot's legend keeps its room
            need = {r: h - cuts.get(r, 0.0) for r, h in need.items()}
            height -= int(sum(cuts.values()))
            for plot, top, span, legible in legibles:
                cut = sum(cuts.get(r, 0.0) for r in range(top, top + span))
                plot.set_legible_height(max(0.0, legible - cut))
        if any(plot.legible_height != was for plot, was in legible_was):
            self._wrote()
        fitted = self._fold_fit(height)
        if fitted < height and need:  # the rows share the squeeze
            factor = (sum(need.values()) - (height - fitted)) / sum(need.values())
            need = {r: float(math.floor(h * factor)) for r, h in need.items()}
        height = fitted
        for r in range(layout.rowCount()):  # the grid keeps each row at its need
            if layout.rowMinimumHeight(r) != need.get(r, 0.0):  # (setting re-lays out)
                layout.setRowMinimumHeight(r, need.get(r, 0.0))
                self._wrote()
        changed = self.canvas.minimumHeight() != height
        if changed:
            self._wrote()
            self.canvas.setMinimumHeight(height)
            # the scroll bar comes or goes, and the canvas takes its size, now rather
            # than a few event-loop passes later (titles re-wrap to the width)
            request = QtCore.QEvent(QtCore.QEvent.Type.LayoutRequest)
            QtCore.QCoreApplication.sendEvent(self.scroll_area, request)
            body = self.body.layout()
            if body is not None:
                body.activate()
            self._settle()  # plots of the new size, laid out before they paint
            # and their legends planned for it: a strip hears of its data's new width
            # from its axis' title re-fit, posted to the event loop (see
            # PanelPlot.refit_legend). RoPE's first draw in 1600 x 1000 brought a scroll
            # bar here and took it away again: its legends stayed planned 4.7 px
            # narrower than their data until that re-fit ran, after the view reported
            # idle (the course-vs-real one in one column where a redraw gave two)
            if sum(plot.refit_legend() for plot in shown):  # (each: no short cut)
                self._settle()
        # (the plots were laid out anew for a new canvas height: their fills too)
        caps = self._row_caps(spans, {} if changed else fills) if len(shown) > 1 else {}
        self._balance_rows(need, spans if len(shown) > 1 else [], caps)
        return changed

    @staticmethod
    def _row_caps(
        spans: list[tuple[PanelPlot, int, int]],
        fills: dict[PanelPlot, float | None] | None = None,
    ) -> dict[int, float]:
        """The most height (px) each grid row of matrices alone can use: the plot height
        at which its tallest square matrix fills its width (:meth:`CellDisplay.fill_height`).
        A row of heatmaps only, at least one of them a square matrix of one row; a row
        with curves, a table or a square spanning rows uses any height. ``spans``:
        ``(plot, top row, rows spanned)`` of the plots shown, ``fills`` the fill heights
        already found for some of them. Word order's rows of
        width-limited 9 x 9 matrices (a 1600 x 1000 window at 100 %) were 108 px taller
        than their squares, blank below the keys' axis; a square beside its
        out_B - out_A grid stood 12-23 px above the grid's x axis."""
        caps: dict[int, float] = {}
        closed: set[int] = set()
        known = fills or {}  # (found by the rows' fit where the plots kept their sizes since)
        for plot, top, span in spans:
            rows = set(range(top, top + span))
            if plot.panel is None or plot.panel.kind != "heatmap" or plot.table is not None:
                closed |= rows
                continue
            if plot.square_cells is False or plot._square_ratio is None:
                continue  # (a heatmap that fills its plot: any height)
            fill = None if span != 1 else known[plot] if plot in known else plot.fill_height()
            if fill is None:
                closed |= rows
            else:
                caps[top] = max(caps.get(top, 0.0), fill)
        return {r: h for r, h in caps.items() if r not in closed}

    def _group_values(self, shown: list[PanelPlot], positions: dict[object, Position]) -> None:
        """Tell the matrices of one shape in the grid (Word order's A and B weights
        side by side, its three out_B - out_A grids in rows of their own) that they
        print their values at one size (:class:`ValueRow`); a matrix without another of
        its shape (or focused) prints as large as its own cells allow. Not the grids of
        another shape: the out_B - out_A grid's narrow cells hold 8.5 pt, and A and B
        beside it in 90 px cells (the lecture's first scene, 1920 x 1080 / 100 %)
        stayed at 12 pt. Grouped by row, the no-positions differences printed their
        "0"s at 24 pt above the causal mask's "-0.4" at 12 pt (the first scene at
        1920 x 1080 / 200 %)."""
        groups: dict[tuple[int, int], list[CellLayer]] = {}
        if len(shown) > 1:
            for plot in shown:
                if positions.get(plot.plot) is not None and plot.cells is not None:
                    groups.setdefault(plot.cells.grid_shape, []).append(plot.cells)
        rows = [(p.cells, p.cells.row) for p in self.plots.values() if p.cells is not None]
        # the same matrices in another shape (a drag of seq_len: Relative's grids)
        # keep their row, as they were told it (a new one for each shape made every
        # frame of a drag a new layout)
        stale = {id(g): k for k, g in self._value_rows.items() if k not in groups}
        for key, layers in groups.items():
            row = layers[0].row
            if key in self._value_rows or len(layers) < 2 or id(row) not in stale:
                continue
            if all(layer.row is row for layer in layers):
                self._value_rows[key] = self._value_rows.pop(stale.pop(id(row)))
        for key in set(self._value_rows) | set(groups):
            layers = groups.get(key, [])
            group = self._value_rows.get(key)
            if group is None:  # (a new group: made once, not on every frame)
                group = self._value_rows[key] = ValueRow()
            group.set_members(layers if len(layers) > 1 else [])  # (alone: in no group)
            if len(layers) < 2:
                del self._value_rows[key]
        if any(cells.row is not row for cells, row in rows):
            self._wrote()  # (a matrix in another row: its values' size follows)

    @staticmethod
    def _align_titles(shown: list[PanelPlot], positions: dict[object, Position]) -> bool:
        """Give the titles of the heatmaps that start in one grid row the height of the
        tallest of them (:meth:`TitleLabel.set_floor`), so that their data start at one
        height: Word order's "A: 'dog bites man' (causal mask, no positions)" took three
        lines beside its out_B - out_A grid's two, and the two matrices' data and x
        axes stood a line (20 px at 100 %) apart. The floor is each title's own height
        (never the one held), so it follows the text alone, however the view got
        there; a heatmap alone in its row (or focused) keeps its own. Returns whether
        a floor changed."""
        changed = False
        rows: dict[int, list[PanelPlot]] = {}
        for plot in shown:
            where = positions.get(plot.plot)
            label = plot.plot.titleLabel
            if hasattr(label, "set_floor"):
                matrix = plot.panel is not None and plot.panel.kind == "heatmap"
                if where is not None and matrix and len(shown) > 1:
                    rows.setdefault(where[0], []).append(plot)
                elif label.floor:
                    label.set_floor(0)
                    changed = True
        for plots in rows.values():
            labels = [p.plot.titleLabel for p in plots if p.plot.titleLabel.isVisibleTo(p.plot)]
            floor = max((label.own_height() for label in labels), default=0)
            for plot in plots:
                label = plot.plot.titleLabel
                held = floor if len(labels) > 1 and label in labels else 0
                if label.floor != held:
                    label.set_floor(held)
                    changed = True
        return changed

    def _fit_shared_tables(
        self,
        shared: list[tuple[PanelPlot, int, int, float, float]],
        need: dict[int, float],
        table_room: float,
    ) -> None:
        """Fit each table of ``shared`` (a table beside other plots on stage: Compare's
        summary below its four plots) to the room the other rows of ``need`` leave it
        on the stage, up to :data:`TABLE_SHARED_GROW` times its full size, and enter its
        rows' need. At its full size (10 pt at 100 %, 13 px) it took a fifth of the
        1920 x 1080 stage, the plots above it stretched into the rest. Where the view
        scrolls anyway (the room left is less than the table fitted to the stage,
        ``table_room``: the viewport less the canvas's margins), it keeps that fit:
        seen whole when scrolled to."""
        taken = {r for _plot, top, span, _h, _w in shared for r in range(top, top + span)}
        others = sum(h for r, h in need.items() if r not in taken)
        rows = len(set(need) | taken)
        spacing = max(self.canvas.ci.layout.verticalSpacing(), 0.0) * max(rows - 1, 0)
        room = table_room - self.canvas.y() - self._below_canvas() - spacing - others
        for plot, top, span, height, width in shared:
            share = room * span / max(len(taken), 1)
            floor = self._stage_text_pt()
            theme = current_theme()
            pt = plot.table_text_pt()
            plot.fit_table(table_room, width, theme, floor)  # seen whole, scrolled to
            table = plot.table_height()
            if table is not None and table <= share:  # and the view fits: grown
                plot.fit_table(share, width, theme, floor, grow=TABLE_SHARED_GROW)
                table = plot.table_height()
            if plot.table_text_pt() != pt:
                self._wrote()
            if table is not None:
                height = max(height, table)
            for r in range(top, top + span):
                need[r] = max(need.get(r, 0.0), height / span)

    def _stage_data_floor(self) -> float:
        """The lowest data area (px) a plot keeps on the stage when the view is
        squeezed to fit it (:meth:`_stage_squeeze`): :data:`STAGE_DATA_LINES` lines of
        its tick labels."""
        font = current_theme().font(TICK_PT)
        return STAGE_DATA_LINES * QtGui.QFontMetricsF(font, self).lineSpacing()

    def _grid_data_floor(self, plot: PanelPlot, data_floor: float, printing: bool = False) -> float:
        """The lowest data area (px) ``plot`` keeps on the stage (:meth:`_stage_squeeze`):
        ``data_floor`` (:meth:`_stage_data_floor`), or for a small grid that prints its
        values and has fewer rows than that many lines, its rows at a tick label's line
        each or as tall as their values need at the stage's value size
        (:meth:`CellLayer.legible_cell`), with the view's padding. Word order's two
        3 x 16 differences one above the other on the stage at 1920 x 1080 / 200 %
        (the lecture's scene 2) kept 170 px of data each, 3 rows of 26.7 px values:
        the scene scrolled by 152 px. ``printing``: as where it prints them (a grid
        laid out where it would, :meth:`_scene_fits_height`), whether it does now or not."""
        cells = plot.cells
        rows = cells.grid_shape[0] if cells is not None else 0
        if rows <= 0 or data_floor <= 0 or cells is None:
            return data_floor
        if not printing and cells.best_pt() is None:
            return data_floor
        line = data_floor / STAGE_DATA_LINES
        cell = max(line, cells.legible_cell(stage=True)[1])
        return min(data_floor, padded_span(rows * cell))

    @staticmethod
    def _data_floor_height(plot: PanelPlot, data_floor: float) -> float:
        """The height ``plot`` needs, its legend strip left out, for its title, axes
        and a data area ``data_floor`` px high, measured as laid out now (infinite
        before it is: nothing is squeezed then)."""
        item = plot.plot
        data = item.getViewBox().height() + plot.spare_below
        if data <= 0 or item.height() <= 0:
            return math.inf
        strip = plot.legend_strip_height()
        return item.height() - data - strip + data_floor

    def _stage_squeeze(
        self, need: dict[int, float], floors: dict[int, float], height: int
    ) -> dict[int, float]:
        """On the stage, the px to take from each row of ``need`` (canvas ``height``)
        so that the view fits its place without scrolling, each row kept at its floor
        (``floors``: its plots' titles, axes, legends, word ticks and tables at full
        size, and :meth:`_stage_data_floor` of data); the rows give in proportion to
        what they have above their floors. Empty where the view fits anyway, where
        :meth:`_fold_fit`'s squeeze fits it, or where the floors do not fit (it scrolls);
        where they are over by no more than that squeeze, every row goes to its floor
        and :meth:`_fold_fit` fits the rest."""
        body = self.body.layout()
        if body is None or not self.isVisible() or not need:
            return {}
        fold = self.scroll_area.viewport().height()
        overflow = self.canvas.y() + height + self._below_canvas() - fold
        if fold <= 0 or overflow <= FOLD_SQUEEZE * height:
            return {}
        slack = {r: h - math.ceil(min(h, floors.get(r, h))) for r, h in need.items()}
        total = sum(slack.values())
        if total < overflow:
            # at their floors, rows over by at most FOLD_SQUEEZE of what is left are
            # fitted the rest of the way by _fold_fit (Compare's one row at 1280 x 720 /
            # 150 %: 50 px of slack for 51 px over, it scrolled by 62 px)
            if total <= 0 or overflow - total > FOLD_SQUEEZE * (height - total):
                return {}
            return {r: float(s) for r, s in slack.items() if s > 0}
        cuts = {r: float(math.ceil(overflow * s / total)) for r, s in slack.items() if s > 0}
        return {r: min(c, slack[r]) for r, c in cuts.items()}

    def _stage_text_pt(self) -> float:
        """The smallest text (pt) the stage shows a table in: :data:`STAGE_TEXT_SHARE`
        of the stage's height, read from the back row whatever the screen."""
        height = self.window().height() if self.window() is not None else self.height()
        return height * STAGE_TEXT_SHARE * 72.0 / max(self.logicalDpiY(), 1)

    @staticmethod
    def _grid_share(plot: PanelPlot, col_span: int, laid: float, gap: float) -> float | None:
        """The share of the columns' width (``laid`` px as the grid lays them out now,
        the gaps between columns left out) that ``plot``'s ``col_span`` columns take;
        ``None`` before the grid is laid out."""
        now = plot.plot.width() - gap * (col_span - 1)
        if laid <= 0 or now <= 0:
            return None
        return min(now / laid, 1.0)

    def _fold_fit(self, height: int) -> int:
        """The canvas height for rows needing ``height`` px such that the view's place
        (the scroll area's viewport, scrolled to the top) cuts no line of the notes
        below the canvas: a view taller than its place by at most :data:`FOLD_SQUEEZE`
        of ``height`` fits it (at 1920 × 1080 / 200 % on the stage Learned scrolled by
        7 px); one that scrolls anyway grows by the part of the notes line its edge
        would cut, in whole pixels rounded down, so that the line starts less than a
        pixel above it (deck scenes 9 and 17 at 150 % on
        the stage showed half a line). Read from the body as laid out now (its other
        parts' heights do not depend on the canvas's)."""
        body = self.body.layout()
        if body is None or not self.isVisible():
            return height
        fold = self.scroll_area.viewport().height()
        box = self._status_box
        overflow = self.canvas.y() + height + self._below_canvas() - fold
        if overflow <= 0 or fold <= 0:
            return height
        if overflow <= FOLD_SQUEEZE * height:
            return height - overflow
        if not box.isVisible() or not self.status.text():
            return height
        self._fold_read_lines = True
        top, spacing, lines = self._status_lines()
        first = self.canvas.y() + height + (box.y() - self.canvas.geometry().bottom() - 1)
        first += self.status.y() + top
        for i in range(lines):
            line = first + i * spacing
            if line < fold < line + spacing:
                # whole pixels, rounded down: the line before then ends at the fold or
                # above it, and this one shows less than a pixel of its top (rounded up,
                # Sinusoidal's odd-d note at 1600 x 1000 pushed its first line's last
                # row, its underscores, 0.6 px past the fold for a second line that
                # had shown 0.4 px)
                return height + math.floor(fold - line)
        return height

    def _below_canvas(self) -> int:
        """The body's height below the canvas as laid out now: the notes line and the
        body's bottom margin."""
        body = self.body.layout()
        below = body.contentsMargins().bottom() if body is not None else 0
        box = self._status_box
        if box.isVisible():
            below += box.geometry().bottom() + 1 - self.canvas.geometry().bottom() - 1
        return below

    def _fit_texts(self) -> bool:
        """Fit the verdict, then the explanation, to the room (:meth:`_fit_verdict`,
        :meth:`_fit_explanation`), the body laid out after each change; whether either
        changed what it shows."""
        verdict = self._fit_verdict()
        if verdict:
            self._relayout_body()  # (the explanation reads the canvas's top)
        explanation = self._fit_explanation()
        if explanation:
            self._relayout_body()
        return verdict or explanation

    def _whole_fits(self, now: int, full: int, short: int, share: float) -> bool:
        """Whether a text that takes ``now`` px as shown, ``full`` px whole and ``short``
        px in its short form is shown whole: at most ``share`` of the view's height,
        and no more than lets the view fit without scrolling where the short form would
        (:data:`FOLD_SQUEEZE`: :meth:`_fold_fit` fits as much)."""
        fold = self.scroll_area.viewport().height()
        whole = full <= share * fold
        if whole and short < full and self._rows_need > 0:
            top = self.canvas.y() - now  # the canvas's top without the text
            below = self._rows_need + self._below_canvas() - fold
            squeeze = FOLD_SQUEEZE * self._rows_need
            if top + full + below > squeeze >= top + short + below:
                whole = False  # short, the view fits; whole, it scrolls
        return whole

    def _fit_verdict(self) -> bool:
        """Show the short form of a verdict that would take the plots' room in the
        window, the whole verdict where there is room (the lecturer's choice wins:
        :class:`VerdictBox`); whether what it shows changed. Whole, it may take
        :data:`VERDICT_SHARE` of the view's height (:meth:`_whole_fits`). Decided again
        only when the view's size, theme, panels or the verdict's shape changed since,
        never on a drag's frame (the text does not jump under a slider: decided when the
        drag is over), and not on the stage (which shows the short form)."""
        box = self.verdict_box
        if (
            self._presenting
            or self._dragging
            or box.isHidden()
            or not box.foldable
            or not self.isVisible()
            or self.data is None
        ):
            return False
        shape = _DIGIT.sub("0", self.data.verdict)
        key = (self.width(), self.height(), self.styled_theme, self._layout_key, shape)
        if key == self._verdict_for:
            return False
        self._verdict_for = key
        full, short = box.height_for(True), box.height_for(False)
        return box.set_auto(self._whole_fits(box.height(), full, short, VERDICT_SHARE))

    def _fit_explanation(self) -> bool:
        """Collapse the explanation where it would take the plots' room, expand it where
        there is room (the lecturer's choice wins: :class:`ExplanationBox`); whether
        what it shows changed. Whole, it may take :data:`EXPLANATION_SHARE` of the
        view's height, and no more than lets the view fit without scrolling where its
        short form would. Decided again only when the view's size, theme or panels
        changed since, never on a drag's frame (the text does not jump under a
        slider), and not while hidden (presenting, a focused plot)."""
        box = self.explanation_box
        if box.isHidden() or not self.isVisible() or self.data is None:
            return False
        key = (self.width(), self.height(), self.styled_theme, self._layout_key)
        if key == self._explained_for:
            return False
        self._explained_for = key
        full, short = box.height_for(True), box.height_for(False)
        return box.set_auto(self._whole_fits(box.height(), full, short, EXPLANATION_SHARE))

    def _relayout_body(self) -> None:
        """Lay the body out now (the canvas below a new explanation), the scroll area's
        range with it."""
        request = QtCore.QEvent(QtCore.QEvent.Type.LayoutRequest)
        QtCore.QCoreApplication.sendEvent(self.scroll_area, request)
        body = self.body.layout()
        if body is not None:
            body.activate()

    def _fold_chosen(self, _expanded: bool | None) -> None:
        """The lecturer chose the whole explanation or its first lines, or the whole
        verdict or its short form (or left it to the room again): the canvas moved, its
        rows are fitted again (plots scrolled into sight drawn)."""
        self._relayout_body()
        self.fit_height()

    def _status_lines(self) -> tuple[float, float, int]:
        """:func:`text_lines` of the notes line, measured again only when something it
        reads changed: its text, format, wrapping, size, minimum size, margins,
        alignment, font or resolution. (Wrapped text is laid out anew by each ``heightForWidth``: 0.15 to
        0.4 ms on every frame of a drag, for the same line.)"""
        label = self.status
        rect, margins = label.contentsRect(), label.contentsMargins()
        key = (
            label.text(),
            label.textFormat(),
            label.wordWrap(),
            label.width(),
            label.height(),
            label.minimumHeight(),  # (a label's heightForWidth is never below it)
            label.minimumWidth(),
            rect.getRect(),
            (margins.left(), margins.top(), margins.right(), margins.bottom()),
            label.margin(),
            label.indent(),
            label.alignment(),
            label.font().key(),
            label.logicalDpiY(),
        )
        known = self._status_lines_for
        if known is not None and known[0] == key:
            return known[1]
        self.status_lines_measured += 1
        found = text_lines(label)
        self._status_lines_for = (key, found)
        return found

    def _balance_rows(
        self,
        need: dict[int, float],
        spans: list[tuple[PanelPlot, int, int]],
        caps: dict[int, float] | None = None,
    ) -> None:
        """Share the canvas's height among the rows so that their data areas are equal
        (:func:`balance_rows`): each row's preferred height is its plots' title, legend
        and axes (measured now; a plot spanning rows counts its share in each) plus one
        data height, never below its need, and a row of matrices never above its cap
        (``caps``: :meth:`_row_caps`). Left to the grid's own distribution with one
        plot (focused) or none. Per frame this measures and compares: the grid is laid
        out again only when a row's height changed (whole pixels)."""
        layout = self.canvas.ci.layout
        overhead: dict[int, float] = {}
        spacing = max(layout.verticalSpacing(), 0.0)
        for plot, top, span in spans:
            share = self._measure(plot, "overhead", self._overhead, plot)
            if share is None:
                continue
            share = (share - spacing * (span - 1)) / span
            for r in range(top, top + span):
                overhead[r] = max(overhead.get(r, 0.0), share)
        want: dict[int, float] = {}
        if overhead:
            _left, margin_top, _right, margin_bottom = layout.getContentsMargins()
            # (the viewport's: the grid follows it, after a focus a little later)
            rows = self.canvas.viewport().height() - margin_top - margin_bottom
            rows -= spacing * max(len(need) - 1, 0) + TABLE_PAD
            heights = self._balanced(need, overhead, rows, caps)
            want = {r: float(int(h)) for r, h in heights.items()}
        changed = False
        for r in range(layout.rowCount()):
            height = want.get(r, 0.0)
            if layout.rowPreferredHeight(r) != height:  # (setting re-lays out)
                layout.setRowPreferredHeight(r, height)
                changed = True
                self._wrote()
            # a capped row is not stretched past its cap either (a canvas taller than
            # its rows' needs, by the notes line's fold, gave each row 3 px more)
            most = ROW_UNCAPPED
            if want and caps and r in caps:
                most = float(math.ceil(max(caps[r], need.get(r, 0.0))))
            if layout.rowMaximumHeight(r) != most:
                layout.setRowMaximumHeight(r, most)
                changed = True
                self._wrote()
        if changed:
            layout.activate()
            self._settle()

    @staticmethod
    def _overhead(plot: PanelPlot) -> float | None:
        """:meth:`_balance_rows`' px of ``plot`` beside its data (title, legend at its
        full text size, axes); ``None`` for a table (it keeps its height), a plot that
        keeps no place or has no data area yet."""
        if plot.table_height() is not None:
            return None  # a table keeps its height
        # a hidden plot is not measured, but one whose place is kept (a reveal's
        # next plot) is: its row gets the height it will be shown at (the lecture's
        # scene 3 on stage had its first row 623 px high until the second row's
        # plots came, then 491 px: the plots shown jumped at each reveal)
        if not holds_place(plot):
            return None
        # (a square matrix's spare height below its axis is its data's: the row
        # kept for it, see CellDisplay._hug_square; counted as overhead, the row
        # grew by it on every pass)
        data = plot.plot.getViewBox().height() + plot.spare_below
        if data <= 0:
            return None
        # (a legend counted at its full text size: its text size follows the rows)
        return plot.plot.height() - data + plot.legend_shrunk_by()

    def _balanced(
        self,
        need: dict[int, float],
        overhead: dict[int, float],
        rows: float,
        caps: dict[int, float] | None,
    ) -> dict[int, float]:
        """:func:`balance_rows`, a pure function of its inputs, kept for them (each
        frame of a drag asks again, mostly with the same ones)."""
        key = (tuple(need.items()), tuple(overhead.items()), rows, tuple((caps or {}).items()))
        known = self._heights_for
        if known is not None and known[0] == key:
            return known[1]
        heights = balance_rows(need, overhead, rows, caps)
        self._heights_for = (key, heights)
        return heights

    @property
    def text_pending(self) -> bool:
        """Whether newer text than shown waits for the refresh interval."""
        return self._latest_text != self._shown_text

    def finish_live_frame(self) -> None:
        """Full quality now if a live frame is showing (before an image export: see
        :func:`gui.render.snapshot.finish_live_frames`)."""
        if self._draft or self._dragging:
            self.full_quality.cancel()
            self._full_quality()

    def _full_quality(self) -> None:
        self._dragging = False
        if self._latest_text is not None and self.text_pending:
            self._apply_text(self._latest_text)  # (the notes line waited for the pause)
        self._set_draft(False)
        self.release_held_room()
        self._end_status_hold()
        self._release_text_heights()
        self._redraw_moved_texts()
        if self._fit_texts():  # (not fitted on the drag's frames)
            self.fit_height()

    def _hold_text_heights(self) -> None:
        """Keep the formula line (:meth:`FormulaLabel.hold_height`) and the verdict line
        (:func:`hold_height`) at least as tall as they are while live frames go on; they
        take their texts' heights again when the frames are over
        (:meth:`_release_text_heights`).

        A formula that wraps at some values of a dragged parameter gained and lost a
        line as the drag went on (Word order's ``base`` at 200 % on stage: 149 or
        198 px, six times in a sweep of 1 000-10 000), and each time the plots below
        jumped by the difference and the canvas was resized, laid out and painted twice
        (20-50 ms frames). A verdict that says "differ (0.12)" at one value and "same
        outputs, reordered (≈0)" at the next, or wraps at some values, moved them the
        same way. The formula is held on every live frame; the verdict only while a
        slider drags (:meth:`_hold_axes`), not on a new mode's or size's frame.

        A formula that needs more room (a value that gained a power of ten, or wraps
        into one more line) makes the line taller at that frame, drawn at its own size:
        held at the height it had, it was drawn smaller for the rest of the drag and
        took its own size once the frames were over, when the plots moved instead.
        """
        if self._dragging:
            self._formula_hold_end.stop()  # (a paused drag goes on: held as it was)
            self.formula.hold_height()
        if self._held is not None:
            hold_height(self.verdict)

    def _release_text_heights(self) -> None:
        """The formula and verdict lines take their texts' heights again; the formula
        once the drag or the sweep is over (:meth:`_end_formula_hold`)."""
        if self.formula.held_height() and self._live_goes_on():
            self._formula_hold_end.start()
        else:
            self._formula_hold_end.stop()
            self.formula.release_height()
        if release_height(self.verdict):
            # (Qt's label keeps the size hints measured while the minimum was set:
            # setting the wrap measures them again, see _release_status_height)
            self.verdict.setWordWrap(True)

    def _live_goes_on(self) -> bool:
        """Whether more live frames are due: a mouse button is down (a slider held
        still mid-drag), a nudge key is held (:attr:`nudge_held`) or a sweep plays
        (:attr:`text_every_frame`)."""
        return self.text_every_frame or self.nudge_held or button_down()

    def _end_formula_hold(self) -> None:
        """The formula line takes its own height once the slider is let go and no
        sweep plays: a lecturer who stops mid-drag to talk, or a frame that took longer
        than :attr:`FULL_QUALITY_DELAY_MS` on a loaded machine, ended the live frames
        and the plots moved while the slider was still held (1600 x 1000 window on
        Xvfb, Sinusoidal's base dragged from 2: the canvas 153 -> 180 -> 185 px down),
        or mid-sweep (lecture scene 5 on the 200 % stage: 202 -> 212 px), and so did
        a nudge key held on the stage whenever two of its nudges' frames were more than
        that apart (:attr:`nudge_held`). A new live frame meanwhile holds it on (its
        own end checks again)."""
        if self._dragging:
            self._formula_hold_end.stop()
            return
        if self._live_goes_on():
            return  # (checked again after the interval)
        self._formula_hold_end.stop()
        if self.formula.release_height() and self._fit_texts():
            self.fit_height()

    def _end_status_hold(self) -> None:
        """The live frames are over: a notes line held taller than its text takes its
        text's height (:meth:`_set_status` holds the tallest text of a drag; a line held
        for the notes of older values stayed taller than the newer text's until the view
        changed width: after a deck's Learned scene 7, three lines at 200 % on the stage,
        Learned reset to its defaults kept three lines for two and scrolled)."""
        label = self.status
        held = label.minimumHeight()
        if not held:
            return
        label.setMinimumHeight(0)  # (Qt's height for a width is never below the minimum)
        own = self._status_box.label_height(label.width())
        label.setMinimumHeight(held)
        if own < held:
            self._release_status_height()

    def _redraw_moved_texts(self) -> None:
        """Ask for a repaint of each text item whose cache a live frame left at an
        older sub-pixel offset (that paint redraws it: :meth:`refresh_text_caches`)."""
        self._cache_text_items()  # the scene's text items now (a rebuild deleted some)
        for item, old, _phase in self._moved_texts():
            if old is not None:
                item.update()

    def _moved_texts(
        self,
    ) -> list[tuple[QtWidgets.QGraphicsTextItem, tuple[float, ...] | None, tuple[float, ...]]]:
        """The text items whose sub-pixel offset on the viewport, or the viewport's
        size, is not the one their cache was drawn at: ``(item, that offset and size
        or None, those now)``.

        A device cache kept through a resize of the viewport came out blank: RoPE
        deck scene 9 on a 1920 x 1080 stage at 200 % drew Qwen2-VL's position-id
        table (its title, none of its rows) after the viewport grew from 717 to 755
        px high under it, the table unmoved; a cache drawn anew draws it (measured
        offscreen: 5.3 % of the table's pixels ink before the resize, none after)."""
        port = self.canvas.viewportTransform()
        dx, dy = port.dx(), port.dy()  # (the canvas neither scales nor rotates)
        size = self.canvas.viewport().size()
        width, height = float(size.width()), float(size.height())
        moved = []
        for item, old in self._text_phase.items():
            x, y = item.scenePos().toTuple()
            phase: tuple[float, ...] = ((x + dx) % 1.0, (y + dy) % 1.0, width, height)
            if old != phase:
                moved.append((item, old, phase))
        return moved

    def _hold_axes(self, hold: bool, data: ViewData | None = None) -> None:
        """Through a slider drag (``hold``) the plots' axes keep the room they hold for
        their tick labels (:meth:`FastAxisItem.hold_for_drag`), their titles their
        lines (:attr:`PanelPlot.hold_title_lines`) and their legends room for names
        that follow the dragged parameter (:attr:`PanelPlot.drag_digits`, from ``data``
        and the frame before it); otherwise that ends. The plots held on the frame
        before, for as many digits or more, are held still (only
        :meth:`release_held_room` ends a hold): nothing is set again."""
        if not hold:
            self.release_held_room(settle=False)
            return
        digits = drag_digits(self.data, data) if data is not None else 0
        plots = tuple(self.plots.values())
        held = self._held
        if held is not None and held[0] == plots and digits <= held[1]:
            return
        for plot in plots:
            plot.hold_title_lines = True
            plot.hold_range = True
            plot.drag_digits = max(plot.drag_digits, digits)
            for name in ("left", "bottom"):
                axis = plot.plot.getAxis(name)
                if isinstance(axis, FastAxisItem):
                    axis.hold_for_drag()
        self._held = (plots, digits)

    def release_held_room(self, *, settle: bool = True) -> bool:
        """End the drag's hold on the axes' tick-label room and the titles' lines (the drag is over, or the
        plots' sizes or layout change: a focus and back, a resize, another scale or
        mode): each axis fits its labels again and, with ``settle``, the view is laid
        out now, so that what follows starts from the layout the plots have without a
        drag. Whether an axis changed size."""
        self._dragging = False
        self._held = None
        changed = False
        for plot in self.plots.values():
            changed |= plot.end_drag_hold()
            for name in ("left", "bottom"):
                axis = plot.plot.getAxis(name)
                if isinstance(axis, FastAxisItem):
                    changed |= axis.end_drag_hold()
        if changed and settle:
            self._settle()
        return changed

    def _apply_latest_text(self, texts: tuple[str, tuple[str, str], str]) -> None:
        """:meth:`_apply_text` at the end of a drag's text interval: the latest text,
        which may be newer than the frame's ``texts`` (the notes of the plots shown now,
        after a focus or back meanwhile: the frame's were the plots shown then)."""
        latest = self._latest_text if self._latest_text is not None else texts
        if self._dragging:  # the notes line waits for the drag to pause (_apply_text)
            shown = self._shown_text
            if shown is None or latest[:2] != shown[:2]:
                self._apply_text(latest, notes=False)
        elif latest is not self._shown_text:  # (not just shown at once by its frame)
            self._apply_text(latest)

    def _shape_key(self, texts: tuple[str, tuple[str, str], str], lines: tuple = ()) -> tuple:
        """What the heights of the formula and verdict lines depend on: their texts with
        every digit a 0 (digits are as wide as each other in the fonts used), their
        widths and fonts (``lines``: :meth:`_line_sizes`, read now where not given).
        (The notes line only grows while the view keeps its width: see
        :meth:`_set_status`.)"""
        formula, (verdict, short), _idle = texts
        return (
            _DIGIT.sub("0", formula),
            _DIGIT.sub("0", self.verdict_box.form(verdict, short)),
            *(lines or self._line_sizes()),
        )

    def _line_sizes(self) -> tuple:
        """The formula's and verdict's widths and fonts, as :meth:`_shape_key` keys them.
        Not the height a drag holds them at: their texts' heights do not depend on it."""
        return (
            self.formula.width(),
            self.verdict.width(),
            self.formula.formula_font().pointSizeF(),
            self.formula.max_height(),
            self.verdict.font().pointSizeF(),
        )

    def _live_text_fits(self, texts: tuple[str, tuple[str, str], str]) -> bool:
        """Whether a live frame's ``texts`` may wait for the refresh interval: the
        formula and verdict lay out as tall as those shown (the same shape, or one whose
        heights are known to be the same). Otherwise they are shown at once, so that
        the room the plots get below them is the latest values' on every frame: the
        clock's formula (1920 x 1080, 150 %, on stage) wraps when m has three digits,
        and the canvas was 928 or 889 px on the same frame depending on which value the
        interval had shown last."""
        if self._shown_text is None:
            return False
        lines = self._line_sizes()  # (read once for both)
        key, shown = self._shape_key(texts, lines), self._shape_key(self._shown_text, lines)
        if key == shown:
            return True
        known = self._shape_heights.get(key)
        return known is not None and known == self._shape_heights.get(shown)

    def _text_heights(self) -> tuple[int, int]:
        """The heights the formula and verdict shown need now."""
        verdict = self.verdict
        return (
            self.formula.heightForWidth(self.formula.width()),
            verdict.heightForWidth(verdict.width()) if verdict.isVisibleTo(self) else -1,
        )

    def _apply_text(self, texts: tuple[str, tuple[str, str], str], *, notes: bool = True) -> None:
        """Show the formula, verdict and notes.

        ``notes=False`` (a drag's frames): the notes line keeps what it shows, and
        :meth:`_full_quality` shows the latest notes once the drag pauses. The formula
        line above the plots follows the slider; the notes below them are a paragraph
        of values nobody reads while they change ten times a second, and laying out and
        painting them (rich text, two lines on the stage) took ~3 ms of the GUI thread
        at each refresh of a RoPE drag at 150 % on the stage, during the computation of
        the next frame, which waited for it (frames of 15-19 ms, the p95 of the
        drag)."""
        formula, verdicts, idle = texts
        shown = self._shown_text
        if notes or shown is None or shown[2] == idle:  # (the notes shown are the latest)
            self._shown_text = texts
        else:  # (the notes shown stay: text_pending until they are shown)
            self._shown_text = (formula, verdicts, shown[2])
        self._hold_text_heights()
        self.formula.setText(formula)
        self._show_verdict(*verdicts)
        current = self._shown_text is texts
        self._dim_notes(not current)  # (before the text: it is laid out once, as drawn)
        if current:
            self._idle_text = idle
            self._set_status(idle)
        key = self._shape_key(texts)
        if key not in self._shape_heights:
            if len(self._shape_heights) > 256:
                self._shape_heights.clear()
            self._shape_heights[key] = self._text_heights()

    def _dim_notes(self, dim: bool) -> None:
        """Draw the notes line dimmed while it shows the notes of the values before a
        drag (:meth:`_apply_text`), as it was drawn before once they are the latest:
        the plots and the formula line moved on while the notes still read the values
        of the last pause (q at m = 17 above "m·θ = 5 rad"). Drawn as a disabled
        label is (the style's disabled text colour): its font, size and place stay, and
        nothing is laid out again (a style sheet's colour re-polished the label, and the
        formula line was laid out anew on the drag's next frame)."""
        if dim == self._notes_dimmed:
            return
        self._notes_dimmed = dim
        self.status.setEnabled(not dim)

    def _set_status(self, text: str, *, hold: bool = True, math: bool = True) -> None:
        """Show ``text`` in the notes / readout line, which only grows while the view
        keeps its width and its live frames go on (:meth:`_end_status_hold` lets it take
        its text's height after them): a note or readout that follows a slider gains
        and loses a line (RoPE's, every few values of m), and each time the canvas above
        it was resized and every plot re-laid out and repainted (~40 ms frames in a
        RoPE drag). Notes show their math typeset (``mean_i`` as mean with a subscript
        i: :func:`set_math_text`); a hover readout (not ``math``) as it stands."""
        label = self.status
        if not hold:  # other notes (plots shown or hidden, an image's notes line)
            self._status_kept = None
            self._release_status_height()
            self._show_status_text(text, math)
            self._status_box.sync()
            return
        # The same text on a line left as the last call left it (the drag's throttled
        # text arriving after the notes it carries were shown, the readout re-set on
        # every mouse move): the same measurements, to the same result (the label laid
        # out its text twice: ~0.3 ms at 150 % on the stage).
        if self._status_kept is not None and self._status_kept == self._status_state(text, math):
            return
        self.status_sets += 1
        shown = label.isVisible() and label.width() > 0
        # the height held, or else the text shown so far at the label's width and font
        # now (maybe never held): not the label's height, which an older scale's or
        # width's layout may have left until the next layout (after 150 % on the stage,
        # the clock's notes kept a 28-px 150 % line at 100 %, half of it cut by the
        # bottom edge at 1280 x 720)
        held = 0
        if shown:
            held = label.minimumHeight() or self._status_box.label_height(label.width())
        self._show_status_text(text, math)
        if shown:
            need = max(held, self._status_box.label_height(label.width()))
            if need > label.minimumHeight():
                label.setMinimumHeight(need)
        self._status_box.sync()
        self._status_kept = self._status_state(text, math)

    def _show_status_text(self, text: str, math: bool) -> None:
        label = self.status
        if math:
            set_math_text(label, text)  # (converted once per text: math_html's cache)
        else:
            label.setTextFormat(QtCore.Qt.TextFormat.PlainText)  # a readout is not HTML
            label.setText(text)

    def _status_state(self, text: str, math: bool = True) -> tuple:
        """What a held :meth:`_set_status` of ``text`` reads and sets: equal after one
        call and before the next, the next would change nothing."""
        label = self.status
        return (
            text,
            math,
            label.text(),
            label.isVisible(),
            label.size(),
            label.minimumHeight(),
            label.font(),
            label.textFormat(),
            label.wordWrap(),
            label.styleSheet(),
            self._status_box.size(),
        )

    def _release_status_height(self) -> None:
        """Let the notes line take its own height again (a new width or text size)."""
        if self.status.minimumHeight():
            self.status.setMinimumHeight(0)
            # Qt's label keeps the size hints it measured while the minimum was set
            # (never below it): the body's minimum height kept the held line's, and the
            # view scrolled by the difference. Setting the wrap measures them again.
            self.status.setWordWrap(self.status.wordWrap())
            self._status_box.sync()

    def _show_verdict(self, verdict: str, short: str) -> None:
        """The verdict in the window, or its short form where the room or the lecturer
        asks for it (:meth:`_fit_verdict`); on the stage its short form, one line where
        it has one (the whole verdict is the lecturer's: :attr:`verdict_text`, the
        tooltip and the presenter's note; Word order's took half the stage at 200 %).
        Its long words may break ("max_positions=64:" at 1280 x 720 / 300 %, windowed,
        made the view's body 653 px wide in its 620 px viewport)."""
        self.verdict_box.set_texts(verdict, short, self._presenting)

    @property
    def verdict_text(self) -> str:
        """The whole verdict of the data shown ("" when there is none)."""
        return self._shown_text[1][0] if self._shown_text is not None else ""

    @property
    def verdict_shown(self) -> str:
        """The verdict line's text as shown (the whole verdict or its short stage form),
        without the break points its long words got."""
        return self.verdict_box.shown_text

    def flush_text(self) -> None:
        """Show text held back during a drag now (tests, exports, the CLI)."""
        self.bring_up_to_date()
        self.live_text.cancel()
        if self._latest_text is not None and self.text_pending:
            self._apply_text(self._latest_text)

    def set_heading(self, text: str | None, tooltip: str = "") -> None:
        """Show ``text`` (rich text) as the view's title; ``None``: the view's own title."""
        if text is not None:
            self.title.setWordWrap(True)  # a scene title can be long
        self.title.setText(self.spec.title if text is None else text)
        self.title.setToolTip(tooltip)

    def clear_heading(self) -> None:
        """The view's own title, as a view never titled by a scene shows it (on one
        line, no tooltip): the deck was closed."""
        self.set_heading(None)
        self.title.setWordWrap(False)

    def shown_panels(self) -> list[str] | None:
        """Keys of the plots visible now when some are hidden (a scene's panels, a
        reveal step, a focused plot); ``None`` when every plot is."""
        keys = [key for key, plot in self.plots.items() if plot.plot.isVisible()]
        return None if len(keys) == len(self.plots) else keys

    def _idle_for(self, data: ViewData) -> str:
        """The status line when the cursor is over no data: the notes of the plots
        shown, else the hint; a value's minus sign U+2212 ("atan2 −73.5°", as the plot
        titles write it; a hover readout is data and keeps Python's "-")."""
        notes = self._drawn_notes(data)
        if notes:
            return " · ".join(notes)
        return self.HOVER_HINT if self._hover_hint else ""

    def _drawn_notes(self, data: ViewData) -> list[str]:
        """``data``'s notes of the plots shown, as drawn: a value's minus sign U+2212
        ("atan2 −73.5°", as the plot titles write it)."""
        return [minus_signs(note) for note in data.display_notes(self.shown_panels())]

    def show_hover_hint(self, visible: bool) -> None:
        """Show or hide the "Hover a plot…" hint (hidden from the audience while
        presenting; hovering still shows exact values)."""
        self._hover_hint = visible
        if self.data is None:
            self._idle_text = self.HOVER_HINT if visible else ""
            self._set_status(self._idle_text)
            return
        self.refresh_notes(force=True)

    def show_notes_line(self, lead: str | None = None) -> None:
        """An image's notes line: ``lead`` (a scene's note; ``None``: the one given
        before), then the notes of the plots shown; hidden when empty. Exports call it
        after drawing and again after staging (which hides plots)."""
        if lead is not None:
            self._lead_note = lead
        notes = [self._lead_note] if self._lead_note else []
        if self.data is not None:
            notes += self._drawn_notes(self.data)
        self._set_status(" · ".join(notes), hold=False)  # (its math typeset, not HTML)
        self.status.setVisible(bool(notes))

    def refresh_notes(self, *, force: bool = False) -> None:
        """Show the notes of the plots visible now (call after showing or hiding plots:
        a stage shows only the notes of what the audience sees)."""
        if self.data is None:
            return
        idle = self._idle_for(self.data)
        shown = self.shown_panels()  # other plots shown: their own notes' height
        if not force and shown == self._notes_for:
            latest = self._latest_text[2] if self._latest_text is not None else idle
            # the notes shown, or due when a drag's text interval ends (the window
            # re-stages the view after every frame: the notes line of a drag followed
            # the slider on every frame, its label and all behind it repainted); other
            # plots shown (a focus, back, a reveal) get their notes at once
            if idle == latest and (idle == self._idle_text or self.text_pending):
                return
        pending = self._latest_text is not None and self._latest_text[2] != idle
        if idle == self._idle_text and not pending and not force:
            return
        if self._latest_text is not None:
            self._latest_text = (*self._latest_text[:2], idle)
        self._idle_text = idle
        self._dim_notes(False)  # (the latest notes: a drag's wait is over for them)
        self._set_status(idle, hold=shown == self._notes_for)
        self._notes_for = shown
        if self._shown_text is not None:
            self._shown_text = (*self._shown_text[:2], idle)

    def show_explanation(self, visible: bool) -> None:
        """Show or hide the view's explanation paragraph (hidden while presenting)."""
        self.explanation.setVisible(visible)

    @property
    def error(self) -> str:
        """The problem shown in the banner, ``""`` when none is."""
        return self.banner.text().removeprefix("⚠ ") if not self.banner.isHidden() else ""

    def _cache_text_items(self, *, drag: bool = False) -> None:
        """Let every text item of the canvas (titles, axis labels, legends) repaint from
        a device cache.

        Rich text is laid out and drawn anew on every paint otherwise (~1.5 ms a frame in
        a four-plot view); a cache is redrawn only when its text changes. Image exports
        switch caches off (see render_export). Every text item is found again each time:
        a legend re-made with as many labels as before left a scene of the same item
        count, and whether its new labels were cached (a cached text differs from a
        directly drawn one by a grey level) depended on the order things settled in.

        ``drag``: a drag's live frame that follows another live frame. Where the grid
        and every plot's items are those the last walk found them in (no plot made
        anew or re-styled since), the text items are the ones found then and the scene
        is not walked: a text item that something else made meanwhile (a hover's) is
        drawn uncached, a grey level off, until full quality's walk caches it
        (:meth:`_full_quality`, :meth:`refresh_text_caches`). The walk, a Python
        wrapper for each of the scene's ~250 items, cost 0.15-0.3 ms of each clock
        frame on the stage (~20 us when repeated in a loop: the frame's other work
        leaves it cache-cold).
        """
        walk = (
            (self._layout_key, sum(plot.rebuilds + plot.restyled for plot in self.plots.values()))
            if self._layout_key is not None
            else None
        )
        if drag and walk is not None and walk == self._text_walk:
            self.text_walks_skipped += 1
            return
        self._text_walk = walk
        items = self.canvas.scene().items()
        self._items_seen = len(items)
        cache = QtWidgets.QGraphicsItem.CacheMode
        text_type = QtWidgets.QGraphicsTextItem  # (pyqtgraph's labels: no subclasses)
        known = self._text_phase
        phases: dict[QtWidgets.QGraphicsTextItem, tuple[float, ...] | None] = {}
        # (the text items picked out in one pass of C calls: a canvas has ~100 items)
        texts = compress(items, map(operator.is_, map(type, items), repeat(text_type)))
        for item in texts:
            phase = known.get(item, _NEW)
            if phase is _NEW:
                mode = item.cacheMode()
                if mode == cache.NoCache:
                    item.setCacheMode(cache.DeviceCoordinateCache)
                    phase = None  # a new cache is drawn at the offset it is shown at
                elif mode == cache.DeviceCoordinateCache:
                    phase = _STALE  # drawn at an offset not known: drawn again
                else:
                    continue
            phases[item] = phase
        self._text_phase = phases

    def refresh_text_caches(self, *, exact: bool = False) -> None:
        """Cache every text item (:meth:`_cache_text_items`) and redraw the device cache
        of each that moved by a fraction of a pixel since its cache was drawn, or
        whose cache was drawn in a viewport of another size (:meth:`_moved_texts`;
        before the canvas paints; on a live frame only when ``exact``, e.g. for a grab).
        (Text items: ``QGraphicsTextItem``, the titles', tables' and legends' texts. An
        arrows panel's labels, which move on every frame of a drag, are plain text items
        painted where they are shown, with no cache: :mod:`gui.render.plain_text`.)

        Qt keeps a device cache through a move that is a pure translation and blits it
        at the new position rounded to whole pixels: text drawn at an earlier sub-pixel
        offset (a paint before a layout settled, a size passed through) came out
        differently, by a grey level at the glyphs' edges or a whole pixel, depending on
        which intermediate frames happened to paint. Redrawn at the offset it is shown
        at, a text looks the same however the window arrived at its state (the same
        state exports and grabs the same picture every time).

        A live frame (a drag: a moving text item's offset changes on every one) blits
        the caches as they are; the texts moved meanwhile are redrawn when full quality
        returns (:meth:`_redraw_moved_texts`). Its first paint does not walk the scene
        for text items again where the frame's drawing did just before, nor does a
        drag's next frame (:meth:`_cache_text_items`): a text item made in between by
        something else, a hover's, is drawn uncached until a later paint's walk or
        full quality's finds it. The walk, with a Python wrapper for each of ~250
        items, took ~60 us of each frame measured alone, 0.15-0.3 ms in a frame.
        """
        found, self._texts_found = self._texts_found, False
        if self._draft and not exact:
            if not found:
                self._cache_text_items()
            return
        self._cache_text_items()
        cache = QtWidgets.QGraphicsItem.CacheMode
        for item, old, phase in self._moved_texts():
            if old is not None:
                # the whole cache is drawn again, at this offset, by the paint under way
                # (an update() here asked for a second paint of the canvas on every
                # frame that moved a text)
                item.setCacheMode(cache.NoCache)
                item.setCacheMode(cache.DeviceCoordinateCache)
                self.text_cache_refreshes += 1
            self._text_phase[item] = phase

    def _settle(self) -> None:
        """Settle ranges, tick labels and layouts now, so that the next paint draws the
        final picture once (see :mod:`gui.render.settle`)."""
        key = (
            self._items_seen,
            sum(plot.rebuilds + plot.restyled for plot in self.plots.values()),
        )
        if self._settle_targets is None or key != self._settle_key:
            self._settle_targets, self._settle_key = targets(self.canvas.ci), key

        def before() -> None:
            before_layout(self.canvas)

        try:
            settle(self._settle_targets, before)
        except RuntimeError:  # an item collected was deleted meanwhile: collect again
            self._settle_targets = targets(self.canvas.ci)
            settle(self._settle_targets, before)

    def _set_draft(self, draft: bool) -> None:
        """Live (draft) or full quality; full quality antialiases only affordable curves."""
        self._draft = draft
        # (a draft antialiases nothing: the curves' points are not counted)
        antialias = not draft and (
            sum(plot.curve_points() for plot in self.plots.values()) <= self.AA_POINT_BUDGET
        )
        for plot in self.plots.values():
            plot.set_quality(antialias=antialias, dashes=not draft)

    def show_error(self, message: str) -> None:
        """Show a one-line problem; the last good plots stay on screen."""
        self.banner.setText(f"⚠ {message}")
        self.banner.show()

    def clear_error(self) -> None:
        self.banner.hide()
        self.banner.setText("")

    def clear_error_of(self, label: str) -> None:
        """Take the banner away if it shows a problem of the parameter ``label``, or
        the message ``label`` itself."""
        if self.error == label or self.error.startswith(f"{label}: "):
            self.clear_error()

    def apply_theme(self) -> None:
        """Re-style labels and canvas for the current theme and UI scale (a hidden
        view's plots when it is next shown)."""
        theme = self.styled_theme = current_theme()
        self.canvas.setBackground(theme.background)
        # a wheel notch (three steps) scrolls ~100 px at 100 %, and as much more as the
        # plots are larger (Qt's 20 px steps crawled through a 2877 px stage at 200 %)
        self.scroll_area.verticalScrollBar().setSingleStep(theme.scaled(WHEEL_STEP))
        self.title.setStyleSheet(f"font-size: {theme.font_pt(20)}pt; font-weight: bold;")
        self.explanation_box.apply_style(theme.font_pt(12), theme.primary)
        self.formula.set_point_size(theme.font_pt(15))
        self.banner.setStyleSheet(
            f"font-size: {theme.font_pt(13)}pt; color: #ffffff; background: #b3261e; "
            "padding: 6px; border-radius: 4px;"
        )
        self.verdict_box.apply_style(theme.font_pt(14), theme.primary)
        self.status.setStyleSheet(f"font-size: {theme.font_pt(12)}pt;")
        self._release_status_height()
        self._status_box.sync()
        if self.data is not None:
            # the plots are re-styled where they are (PanelPlot.show), in the grid's
            # columns for the new scale (moved there, :meth:`_reflow`); the rows are
            # fitted from nothing, as a new grid's
            self._forget_rows()
            if self.isVisible():
                self.show_data(self.data)
            else:  # a hidden view (another view's page) is redrawn when shown, not now:
                # a theme or scale change redrew all ten views' plots (ViewWidget.showEvent)
                self._restyle_on_show = True

    # ----------------------------------------------------------------- hover
    def hide_readouts(self) -> None:
        """The plots moved under the cursor (a focus, back, a reveal): every readout goes
        and the notes line shows the notes; the next move of the mouse reads again."""
        self._hide_readouts()

    def _hide_readouts(self) -> None:
        """The view scrolled (the wheel, the arrow keys): a readout by the cursor went
        with its plot, over whatever moved under the cursor, until the mouse moved (at
        300 % RoPE's angle readout lay over the next row's title); it goes, and the next
        move of the mouse reads what is there. The notes line shows the notes again
        (it kept a focused plot's readout after going back to all plots)."""
        read = self._reading  # (a plot laid out anew hid its overlay already: hover.py)
        for plot in self.plots.values():
            read = read or plot.hover.shown
            plot.hover.hide()
        if read:
            self._reading = False
            self._set_status(self._idle_text)

    def mute_readouts(self, muted: bool) -> None:
        """No hover readout (by the cursor, nor in the notes line) while ``muted``: the
        mouse is the lecturer's laser pointer, spotlight or pen, not a data probe."""
        if muted == self.readouts_muted:
            return
        self.readouts_muted = muted
        for plot in self.plots.values():
            plot.hover.set_muted(muted)
        if muted:
            self._set_status(self._idle_text)  # (the notes, not the last value read)

    def _mouse_moved(self, scene_pos: QtCore.QPointF) -> None:
        if self.readouts_muted:
            return
        for plot in self.plots.values():
            text = plot.probe_text(scene_pos)
            if text:
                self._reading = True
                self._set_status(text, math=False)  # (a readout stays as it is written)
                return
        # nothing under the cursor (between plots, a gap between tiles): no stale value
        self._reading = False
        self._set_status(self._idle_text)

    def status_text(self) -> str:
        """The notes / readout line's text as the view wrote it (its label shows the
        math of notes typeset, as rich text)."""
        return source_text(self.status)

    def readout_at(self, panel_key: str, x: float, y: float) -> str:
        """Exact readout of a panel at data coordinates (what hovering shows)."""
        self._show_pending([panel_key] if panel_key in self._pending else [])
        plot = self.plots[panel_key]
        vb = plot.plot.getViewBox()
        scene_pos = vb.mapViewToScene(QtCore.QPointF(x, y))
        self._mouse_moved(scene_pos)
        return source_text(self.status)
