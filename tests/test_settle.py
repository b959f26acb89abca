"""A frame is laid out before it paints: one paint shows it, and the pixels are those the
event loop would have settled on (gui.render.settle)."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from core.viewdata import Panel, Series, ViewData
from core.views import get_view
from gui.render.fast_axis import FastAxisItem, run_title_refits
from gui.render.settle import SettleStats

pytestmark = pytest.mark.usefixtures("drags_end_when_the_test_says")

_layout_of = QtWidgets.QGraphicsWidget.layout


def _data(scale: float, title: str) -> ViewData:
    """Two plots side by side; ``scale`` sets how wide the left plot's tick labels are,
    ``title`` how many lines its title takes."""
    x = np.arange(40, dtype=float)
    left = Panel(
        "a",
        title,
        "curves",
        "x",
        "y",
        series=[Series("s", x, np.sin(x / 6) * scale), Series("t", x, np.cos(x / 6) * scale)],
        row=0,
        col=0,
    )
    right = Panel("b", "right", "curves", "x", "y", series=[Series("u", x, x)], row=0, col=1)
    return ViewData("t", {"scale": scale}, [left, right])


def _count_paints(widget) -> list[int]:  # type: ignore[no-untyped-def]
    """Count the canvas's paint events from now on."""
    canvas, count = widget.canvas, [0]
    paint = type(canvas).paintEvent

    def counted(event: QtGui.QPaintEvent) -> None:
        count[0] += 1
        paint(canvas, event)

    canvas.paintEvent = counted
    return count


def _widget(qtbot, settle: bool = True):  # type: ignore[no-untyped-def]
    from gui.widgets.view_widget import ViewWidget

    widget = ViewWidget(get_view("sinusoidal"))
    qtbot.addWidget(widget)
    if not settle:  # what the event loop arrives at by itself
        widget._settle = lambda: None  # type: ignore[method-assign]
    widget.show_explanation(False)
    widget.resize(700, 460)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _settled(widget) -> None:  # type: ignore[no-untyped-def]
    """Run posted events, the axis-title re-fits the event loop runs from a zero timer
    (they also fit the legend strip to the data's width) and paints until nothing moves
    any more. (Other timers, e.g. full quality after a drag, are left alone: both
    widgets stay in draft.)"""
    for _ in range(6):
        QtCore.QCoreApplication.sendPostedEvents()
        run_title_refits(widget)
        widget.canvas.viewport().grab()
    QtCore.QCoreApplication.sendPostedEvents()
    run_title_refits(widget)
    QtCore.QCoreApplication.sendPostedEvents()


def _geometry(widget) -> list[tuple[float, float, float, float]]:  # type: ignore[no-untyped-def]
    out = []
    for plot in widget.plots.values():
        items = [plot.plot, plot.plot.getViewBox(), plot.plot.titleLabel]
        items += [plot.plot.getAxis(name) for name in ("left", "bottom")]
        for item in items:
            r = item.sceneBoundingRect()
            out.append((r.x(), r.y(), r.width(), r.height()))
    return out


LONG = "a title long enough to wrap onto a second line of this narrow plot at any scale"
# each step changes the left axis's tick-label width (so the columns) or the title's lines
STEPS = [(1.0, "short"), (-25000.0, "short"), (0.01, LONG), (1.0, "short"), (-25000.0, LONG)]


def test_a_frame_is_laid_out_before_its_one_paint(qtbot):
    widget = _widget(qtbot)
    widget.show_data(_data(*STEPS[0]))
    _settled(widget)
    paints = _count_paints(widget)
    relayouts = 0
    for step in STEPS[1:]:
        widget.release_held_room()  # each step the first frame of a drag: none held
        before = SettleStats.relayouts
        widget.show_data(_data(*step), live=True)
        relayouts += SettleStats.relayouts - before
        # nothing left for the paint to lay out: layouts valid, axes' specs made
        owners = [w for w in widget._settle_targets.owners if _layout_of(w) is not None]
        assert all(_layout_of(w).isActivated() for w in owners)
        axes = [a for a in widget._settle_targets.axes if a.isVisible()]
        assert axes and all(isinstance(a, FastAxisItem) for a in axes)
        assert all(a.picture is not None for a in axes)
        laid_out = _geometry(widget)
        paints[0] = 0
        widget.canvas.viewport().grab()  # the frame's paint
        assert paints[0] == 1
        # the paint found nothing to lay out: before, a changed tick width re-laid out
        # from the event loop after it and everything was painted again
        assert all(_layout_of(w).isActivated() for w in owners)
        for _ in range(4):
            QtCore.QCoreApplication.sendPostedEvents()
        assert _geometry(widget) == laid_out
    assert relayouts >= len(STEPS) - 1  # every step did re-lay out, before the paint


def _image(widget) -> QtGui.QImage:  # type: ignore[no-untyped-def]
    """The canvas, every item drawn afresh: text items keep device caches, and a cached
    text blitted after a move keeps the sub-pixel placement it was drawn at (so cached
    pixels depend on where an item has been, with or without settling)."""
    for item in widget.canvas.scene().items():
        item.setCacheMode(QtWidgets.QGraphicsItem.CacheMode.NoCache)
    return widget.canvas.grab().toImage().convertToFormat(QtGui.QImage.Format.Format_RGB32)


@pytest.mark.parametrize("steps", [STEPS, STEPS[-1:]], ids=["drag", "one frame"])
def test_settled_frames_draw_the_pixels_the_event_loop_settles_on(qtbot, steps):
    fast, plain = _widget(qtbot), _widget(qtbot, settle=False)
    for widget in (fast, plain):
        for step in steps:
            widget.show_data(_data(*step), live=True)
            QtCore.QCoreApplication.sendPostedEvents()
        _settled(widget)
    assert _geometry(fast) == _geometry(plain)
    a, b = _image(fast), _image(plain)
    assert a.size() == b.size()
    assert a == b


def test_deferred_size_work_registered_before_layout_is_in_the_settled_frame(qtbot):
    """Work a module would leave to the event loop (axis titles re-fitted to their new
    length) runs inside the settle when registered in BEFORE_LAYOUT: its size change is
    laid out before the frame's paint."""
    from gui.render import settle as settle_module

    widget = _widget(qtbot)
    widget.show_data(_data(*STEPS[0]))
    _settled(widget)
    plot = widget.plots["a"].plot
    top = plot.getViewBox().geometry().top()
    seen: list[object] = []

    def grow_title_row(canvas: object) -> None:  # as a deferred re-fit would, once
        seen.append(canvas)
        if len(seen) == 1:
            plot.layout.setRowFixedHeight(0, 90)

    settle_module.BEFORE_LAYOUT.append(grow_title_row)
    try:
        widget.show_data(_data(*STEPS[1]), live=True)
    finally:
        settle_module.BEFORE_LAYOUT.remove(grow_title_row)
    assert seen and all(c is widget.canvas for c in seen)
    owners = [w for w in widget._settle_targets.owners if _layout_of(w) is not None]
    assert all(_layout_of(w).isActivated() for w in owners)
    # the data sits below the 90 px title row already, before any event is processed
    assert plot.getViewBox().geometry().top() >= top + 40


def test_a_drag_keeps_the_axis_room_of_its_widest_labels_until_it_is_over(qtbot):
    """While a slider drags, an axis whose tick labels get narrower (``-20000`` →
    ``0.5``) keeps its room: the frame re-lays nothing out (before, the data area moved
    and the whole canvas was laid out again, 9 of 40 frames of a RoPE drag on the
    stage). Wider labels still widen it (never clipped); once the drag is over it fits
    its labels again, as wide as in a plot drawn afresh."""
    widget = _widget(qtbot)
    widget.show_data(_data(1.0, "short"))
    _settled(widget)
    axis = widget.plots["a"].plot.getAxis("left")
    narrow = axis.width()
    widget.show_data(_data(-25000.0, "short"), live=True)
    wide = axis.width()
    assert wide > narrow + 10  # wider labels: a wider axis at once
    before = SettleStats.relayouts
    widget.show_data(_data(1.0, "short"), live=True)
    assert SettleStats.relayouts == before  # nothing re-laid out
    assert axis.width() == wide and axis.text_need is not None
    assert axis.textWidth >= axis.text_need  # room for every label drawn
    widget._full_quality()  # the drag is over (no live frame for a while)
    assert all(_layout_of(w).isActivated() for w in widget._settle_targets.owners)
    assert axis.width() == narrow
    fresh = _widget(qtbot)
    fresh.show_data(_data(1.0, "short"))
    _settled(fresh)
    assert _geometry(fresh) == _geometry(widget)


def _rope_widget(qtbot):
    """A shown RoPE view widget, 1300 × 800, without its explanation."""
    from gui.widgets.view_widget import ViewWidget

    widget = ViewWidget(get_view("rope"))
    qtbot.addWidget(widget)
    widget.show_explanation(False)
    widget.resize(1300, 800)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def test_a_rope_drag_of_m_never_narrows_the_simplified_plots_axis(qtbot):
    """The course's "simplified RoPE" plot's values follow m: its tick labels change
    width (``-1.5``, ``0.5``, ``1``) every few frames of a drag. The left axis keeps its
    widest room through the drag, also where its labels would fit a narrower one (there
    it shrank before, re-laying out the canvas), and fits them once the drag is over."""
    from core.viewdata import ComputeContext
    from core.views import compute_view
    from gui.theme import current_theme, set_theme

    saved = current_theme()
    set_theme(ui_scale=1.5)  # stage-size labels: widths differ by more than 10 px
    try:
        widget = _rope_widget(qtbot)
        model = get_view("rope").model
        params = {**model.defaults(), "seq_len": 512}

        def frame(m: int, live: bool = True) -> None:
            data = compute_view("rope", model.validate({**params, "m": m}), ComputeContext())
            widget.show_data(data, live=live)
            QtCore.QCoreApplication.sendPostedEvents()
            widget.canvas.viewport().grab()

        frame(326, live=False)
        axis = widget.plots["simplified"].plot.getAxis("left")
        widths, rooms = [axis.width()], []
        for m in (351, 376, 401, 426, 451):
            frame(m)
            widths.append(axis.width())
            rooms.append((axis.textWidth, axis.text_need))
        assert widths == sorted(widths)  # never narrower during the drag
        slack = [room - need for room, need in rooms]
        assert min(slack) >= 0  # every label has room
        assert max(slack) > 10  # a frame whose labels fit a narrower axis (it shrank)
        widget._full_quality()
        assert axis.width() < widths[-1]
        assert axis.textWidth == pytest.approx(axis.text_need)
    finally:
        set_theme(saved.name, ui_scale=saved.ui_scale)


def test_a_drag_keeps_a_titles_lines_until_it_is_over(qtbot):
    """A title that needs fewer lines during a drag (RoPE's plane title follows m: one
    or two lines at 200 %) keeps its lines, the last ones blank: the frame re-lays
    nothing out (each change re-laid out the plot and the canvas). More lines still
    show at once; once the drag is over it wraps as a plot drawn afresh."""
    widget = _widget(qtbot)
    widget.show_data(_data(1.0, "short"))
    _settled(widget)
    title = widget.plots["a"].plot.titleLabel
    one_line = title.height()
    widget.show_data(_data(1.0, LONG), live=True)
    _settled(widget)
    two_lines = title.height()
    assert two_lines > one_line
    before = SettleStats.relayouts
    widget.show_data(_data(1.0, "short"), live=True)  # the drag's next frame
    assert SettleStats.relayouts == before  # nothing re-laid out
    assert title.height() == two_lines
    assert title.text.startswith("short<br>")  # the text, then a blank line
    widget._full_quality()  # the drag is over
    assert title.text == "short" and title.height() == one_line
    assert all(_layout_of(w).isActivated() for w in widget._settle_targets.owners)
    fresh = _widget(qtbot)
    fresh.show_data(_data(1.0, "short"))
    _settled(fresh)
    _settled(widget)
    assert _geometry(fresh) == _geometry(widget)


def _cached_image(widget) -> QtGui.QImage:  # type: ignore[no-untyped-def]
    """The canvas as the window paints it (text items from their device caches)."""
    return widget.canvas.grab().toImage().convertToFormat(QtGui.QImage.Format.Format_RGB32)


def test_the_same_state_paints_the_same_picture_whatever_was_painted_before(qtbot):
    """Issue 14: a screenshot of one state was one of three pictures, depending on which
    intermediate frames had painted: a text item's device cache, kept through a move,
    was blitted at the new place with the sub-pixel offset of the old one. Two widgets
    arrive at the same state, one straight and one through other sizes (a paint at
    each): their pictures, caches included, are the same."""
    straight, detour = _widget(qtbot), _widget(qtbot)
    detour.resize(703, 463)  # first painted at another size: its caches drawn there
    for widget in (straight, detour):
        widget.show_data(_data(*STEPS[0]))
        _settled(widget)
    before = detour.text_cache_refreshes
    for w, h in ((711, 449), (700, 460)):  # a paint at each size
        detour.resize(w, h)
        _settled(detour)
    _settled(straight)
    assert _geometry(straight) == _geometry(detour)
    # text moved by a fraction of a pixel: its cache was drawn again, at the new offset
    assert detour.text_cache_refreshes > before
    a, b = _cached_image(straight), _cached_image(detour)
    assert a.size() == b.size()
    assert a == b


def test_text_items_made_anew_in_a_scene_of_the_same_size_are_cached_too(qtbot):
    """A legend re-made with as many labels as before left the scene's item count as it
    was, and its new labels were drawn without the device cache every other text has
    (a grey level apart at the glyphs' edges) or with it, depending on what settled
    when. Every text item the canvas paints is cached."""
    widget = _widget(qtbot)
    widget.show_data(_data(*STEPS[0]))
    _settled(widget)
    scene = widget.canvas.scene()
    count = len(scene.items())
    old = next(i for i in scene.items() if type(i) is QtWidgets.QGraphicsTextItem)
    parent = old.parentItem()
    scene.removeItem(old)
    new = QtWidgets.QGraphicsTextItem("new label", parent)
    assert len(scene.items()) == count
    widget.canvas.viewport().grab()  # a paint
    cache = QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache
    texts = [i for i in scene.items() if isinstance(i, QtWidgets.QGraphicsTextItem)]
    assert new in texts
    assert all(i.cacheMode() == cache for i in texts)


def test_an_image_exported_right_after_a_drag_is_drawn_in_full_quality(window):
    """A live frame draws dashed pens solid (and heatmaps coarsely); an export taken
    before the drag's pause is noticed draws the settled picture all the same."""
    from gui.render import snapshot

    window.set_view("sinusoidal")
    assert window.wait_idle()
    widget = window.views["sinusoidal"]
    widget.full_quality.cancel()
    widget._set_draft(True)  # a live frame, its pause not yet noticed
    widget._dragging = True
    dashed = [
        item
        for plot in widget.plots.values()
        for item in plot.curves
        if isinstance(getattr(item, "_full_pen", None), QtGui.QPen)
        and item._full_pen.style() != QtCore.Qt.PenStyle.SolidLine
    ]
    assert dashed  # (the score terms' sum)
    assert dashed[0].opts["pen"].style() == QtCore.Qt.PenStyle.SolidLine
    snapshot.render_image(widget.canvas, width=400, height=300)
    assert not widget._draft
    assert dashed[0].opts["pen"].style() != QtCore.Qt.PenStyle.SolidLine


def test_a_rope_drag_of_m_re_plans_its_legend_once(qtbot):
    """Legend names that follow m gain digits in a drag ("query at m=9" → "m=10" →
    "m=100", "m − n = 5" → "18"): each new digit re-planned the score legend's strip
    (another row) and re-laid out the plot in the middle of the drag (1 of 40 frames at
    150 % on the stage, 3 at 200 %). Through a drag the names that follow the slider
    hold room for the widest value of m's range: the first frame that needs more room
    is the drag's last re-plan. Entries never overlap; once the drag is over the plots
    are as drawn afresh. (RoPE's legend names its lines without values now: the frames
    carry its names as they were, :func:`names_with_values`.)"""
    from test_legend_drag_hold import names_with_values

    from core.viewdata import ComputeContext
    from core.views import compute_view
    from gui.plotting.legend_strip import StripLegend
    from gui.render.line_item import LineItem
    from gui.theme import current_theme, set_theme
    from gui.widgets.view_widget import ViewWidget

    saved = current_theme()
    set_theme(ui_scale=1.5)
    try:
        model = get_view("rope").model
        params = {**model.defaults(), "seq_len": 512}

        def frame(widget: ViewWidget, m: int, live: bool = True) -> tuple:
            data = compute_view("rope", model.validate({**params, "m": m}), ComputeContext())
            widget.show_data(names_with_values(data), live=live)
            QtCore.QCoreApplication.sendPostedEvents()
            widget.canvas.viewport().grab()
            plot = widget.plots["score"]
            return plot.legend, plot.plot.getAxis("top").height(), widget.canvas.height()

        widget = _rope_widget(qtbot)
        frame(widget, 5, live=False)
        rename, replans = StripLegend.rename, []

        def counted(legend: StripLegend, label: object, text: str) -> bool:
            resized = rename(legend, label, text)
            replans.append(resized)
            return resized

        StripLegend.rename = counted  # type: ignore[method-assign]
        covered = LineItem.covered_paints
        try:
            strips = [frame(widget, m) for m in (6, 7, 8, 9, 10, 14, 27, 99, 103, 244, 350, 511)]
        finally:
            StripLegend.rename = rename  # type: ignore[method-assign]
        # the two query positions' score curves are one array: the live frames stroke
        # the one on top only (see test_views_core)
        assert LineItem.covered_paints > covered
        # a name whose box changed re-laid out the legend (and re-planned its strip)
        assert sum(replans) <= 1, replans  # once at most: the first that needed room
        changes = sum(a != b for a, b in zip(strips, strips[1:], strict=False))
        assert changes <= 1, strips  # the strip, once at most
        legend = widget.plots["score"].legend
        assert legend is not None and legend.reserved  # room held for m's numbers
        columns = legend.columnCount
        for row in range(legend.layout.rowCount()):  # no entry runs into the next one
            cells = [legend.layout.itemAt(row, c) for c in range(2 * columns)]
            rects = [c.geometry() for c in cells if c is not None]
            for label in cells[1::2]:
                if label is None:
                    continue
                text = QtCore.QRectF(label.geometry().topLeft(), label.itemRect().size())
                assert text.right() <= legend.geometry().width() + 0.5
                assert not any(r.left() > text.left() + 1 and r.intersects(text) for r in rects)
        widget._full_quality()  # the drag is over: the strip as drawn afresh
        _settled(widget)
        # the held room took from the data, not from the grid: the rows kept their size
        assert widget.canvas.height() == strips[-1][2]
        assert not widget.plots["score"].legend.reserved
        fresh = _rope_widget(qtbot)
        frame(fresh, 511, live=False)
        _settled(fresh)

        def strip(w: ViewWidget) -> tuple:
            plot = w.plots["score"]
            assert plot.legend is not None
            return plot.legend.columnCount, plot.plot.getAxis("top").height()

        assert strip(widget) == strip(fresh)
    finally:
        set_theme(saved.name, ui_scale=saved.ui_scale)


def test_a_drag_holds_room_for_labels_of_a_range_twice_as_wide(qtbot):
    """An axis whose labels change in a drag holds room for the labels of ± twice its
    largest value from its first new labels (``5`` → ``-10``): RoPE's simplified plot
    widened from ``5`` to ``-10`` far into a drag of m, re-laying out the canvas then.
    Once the drag is over it fits its labels again."""
    widget = _widget(qtbot)
    widget.show_data(_data(1.0, "short"))
    _settled(widget)
    axis = widget.plots["a"].plot.getAxis("left")
    widget.show_data(_data(6.0, "short"), live=True)  # the drag's first frame
    widget.show_data(_data(6.0 + 1e-3, "short"), live=True)  # held from here on
    _settled(widget)
    before = SettleStats.relayouts
    widget.show_data(_data(11.0, "short"), live=True)  # "-10": one character more
    _settled(widget)
    assert SettleStats.relayouts == before  # the room was there
    assert axis.textWidth >= axis.text_need  # every label has room
    widget._full_quality()  # the drag is over: the axis fits its labels
    assert axis.textWidth == pytest.approx(axis.text_need)
