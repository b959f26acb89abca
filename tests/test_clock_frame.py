"""What a frame of the RoPE clock redoes (issue 14 item 7: frame time on the stage).

Structural counts, not timings: a drag of ``m`` moves q's hands, trails and texts; the
clock's short curves are stroked with Qt's wide pen (no offset strokes to find), the
arrows' shafts are aliased while live, the grid keeps its lines and the texts keep
their colours.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterator

import numpy as np
import pyqtgraph as pg
import pytest
from live_frames import held_drags
from PySide6 import QtCore, QtGui, QtWidgets

from core.formula import minus_signs
from core.viewdata import ComputeContext
from core.views import VIEWS
from gui.plotting.panel_extras import HaloText
from gui.render.fast_curve import FastCurveItem
from gui.render.line_item import LineGroup, LineItem

pytestmark = pytest.mark.usefixtures("drags_end_when_the_test_says")


SPEC = VIEWS["clock"]


def compute(**changes):
    return SPEC.compute(SPEC.model.validate(changes, partial=True), ComputeContext())


@pytest.fixture(scope="module")
def clock_widget(qapp):
    from gui.widgets.view_widget import ViewWidget

    with held_drags():
        widget = ViewWidget(SPEC)
    widget.resize(1100, 700)
    widget.show_data(compute(m=2.0))
    widget.canvas.grab()
    yield widget
    widget.deleteLater()


def _shafts(widget) -> list[LineItem]:
    return [
        line
        for plot in widget.plots.values()
        for line in plot.arrows[1::3]
        if isinstance(line, LineItem)
    ]


def test_live_frame_strokes_the_short_curves_with_the_wide_pen(clock_widget, monkeypatch):
    general = FastCurveItem._compute_strokes
    found: list[int] = []
    monkeypatch.setattr(
        FastCurveItem,
        "_compute_strokes",
        lambda self, t, w: found.append(len(self.xData)) or general(self, t, w),
    )
    curves = [item for plot in clock_widget.plots.values() for item in plot.curves]
    items = curves + _shafts(clock_widget)
    before = sum(item.wide_pen_paints for item in items)
    clock_widget.show_data(compute(m=2.7), live=True)
    assert all(not line.opts["antialias"] for line in _shafts(clock_widget))  # live
    clock_widget.canvas.grab()
    assert found == []  # no offset strokes worked out for the clock's arcs
    assert all(len(item.xData) <= item.wide_pen_points for item in items)
    assert sum(item.wide_pen_paints for item in items) - before >= len(items) // 2
    clock_widget.show_data(compute(m=2.7))  # settled: the shafts antialiased again
    assert all(line.opts["antialias"] for line in _shafts(clock_widget))


def test_live_frames_stroke_the_unit_circles_aliased_and_settle_them_antialiased(
    clock_widget, monkeypatch
):
    """Each clock's unit circle (pyqtgraph's 241-point curve, 1 px) is repainted under
    the moving hands on every frame; antialiased that stroke was ~0.25 ms a circle. A
    live frame strokes it aliased; full quality antialiases it again and repaints it:
    the settled picture is the one shown before the drag."""
    clock_widget.show_data(compute(m=2.7))
    settled = clock_widget.canvas.grab().toImage()
    rings = [plot.arrows[0] for plot in clock_widget.plots.values() if plot.arrows]
    assert len(rings) >= 4 and all(isinstance(ring, pg.PlotDataItem) for ring in rings)
    assert all(ring.curve.opts["antialias"] for ring in rings)
    clock_widget.show_data(compute(m=3.1), live=True)
    assert not any(ring.opts["antialias"] or ring.curve.opts["antialias"] for ring in rings)
    clock_widget.canvas.grab()
    repainted: list[object] = []
    update = pg.PlotCurveItem.update
    monkeypatch.setattr(
        pg.PlotCurveItem, "update", lambda self, *a: repainted.append(self) or update(self, *a)
    )
    clock_widget.show_data(compute(m=2.7))  # full quality
    assert all(ring.opts["antialias"] and ring.curve.opts["antialias"] for ring in rings)
    assert all(ring.curve in repainted for ring in rings)
    assert clock_widget.canvas.grab().toImage() == settled


def test_a_drag_keeps_the_grid_lines_and_the_text_colours(clock_widget, monkeypatch):
    grids = {key: plot.grid for key, plot in clock_widget.plots.items() if plot.grid is not None}
    assert list(grids) == ["plane"]  # (the small planes, without axes, have none)
    clock_widget.show_data(compute(m=3.1), live=True)
    clock_widget.canvas.grab()
    found = {key: grid.lines_found for key, grid in grids.items()}
    recoloured: list[object] = []
    original = pg.TextItem.setColor
    monkeypatch.setattr(
        pg.TextItem, "setColor", lambda self, c: recoloured.append(c) or original(self, c)
    )
    anchored: list[object] = []
    anchor = pg.TextItem.setAnchor
    monkeypatch.setattr(
        pg.TextItem, "setAnchor", lambda self, a: anchored.append(a) or anchor(self, a)
    )
    texts = {
        plot: [t.toPlainText() for t in plot.text_labels] for plot in clock_widget.plots.values()
    }
    old, new = compute(m=3.1), compute(m=3.4)
    clock_widget.show_data(new, live=True)
    clock_widget.canvas.grab()
    assert {key: grid.lines_found for key, grid in grids.items()} == found  # same lines
    assert recoloured == []
    # an arrow's name is re-anchored only where its tip crossed y = 0 (above / below)
    crossed = [
        (a.y >= 0) != (b.y >= 0)
        for p, q in zip(old.panels, new.panels, strict=True)
        for a, b in zip(p.arrows, q.arrows, strict=True)
    ]
    assert len(anchored) == sum(crossed) < len(new.panels)
    # (the texts did follow m)
    assert any(
        [t.toPlainText() for t in plot.text_labels] != shown for plot, shown in texts.items()
    )
    plane = clock_widget.plots["plane"]
    plane.plot.getViewBox().setRange(xRange=(-1.2, 1.2), yRange=(-1.2, 1.2), padding=0)
    clock_widget.canvas.grab()
    assert plane.grid.lines_found == found["plane"] + 1
    plane.plot.getViewBox().setRange(xRange=(-1.5, 1.5), yRange=(-1.5, 1.5), padding=0)


def test_live_frames_fill_the_label_halos_aliased_and_full_quality_restores_them(
    clock_widget,
):
    """A label's translucent patch (its halo) is filled aliased on a drag's frames: Qt
    fills an antialiased box at a fractional offset through its thread pool and waits
    for it, a wait per label on every frame. Full quality paints them antialiased again:
    the settled picture is the one shown before the drag, pixel for pixel."""
    clock_widget.show_data(compute(m=2.7))
    settled = clock_widget.canvas.grab().toImage()
    halos = [text for plot in clock_widget.plots.values() for text in plot.text_labels]
    assert len(halos) >= 4 and not any(text.live for text in halos)
    aliased = HaloText.aliased_halos
    clock_widget.canvas.grab()
    assert HaloText.aliased_halos == aliased  # settled: antialiased, as always
    clock_widget.show_data(compute(m=3.1), live=True)
    clock_widget.show_data(compute(m=2.7), live=True)
    assert all(text.live for text in halos)
    clock_widget.canvas.grab()
    assert HaloText.aliased_halos - aliased >= sum(text.isVisible() for text in halos)
    clock_widget.show_data(compute(m=2.7))  # full quality
    assert not any(text.live for text in halos)
    assert clock_widget.canvas.grab().toImage() == settled


def test_labels_are_placed_with_float_boxes_apart_and_inside(clock_widget, monkeypatch):
    """Label placement (every frame of a drag) works on float boxes and arrays: no Qt
    rectangle is made per candidate place. Each text whose point is in the data area
    is shown inside it, apart from the others, also crowded (a plane zoomed in: texts
    pushed apart and against the edges); the others are hidden."""
    import gui.plotting.panel_extras as extras

    made: list[tuple] = []

    class CountingQtCore:
        def __getattr__(self, name: str) -> object:
            return getattr(QtCore, name)

        @staticmethod
        def QRectF(*args):
            made.append(args)
            return QtCore.QRectF(*args)

    plane = clock_widget.plots["plane"]
    vb = plane.plot.getViewBox()
    cases = hidden = 0
    try:
        for m, span in ((2.0, 1.5), (5.3, 1.5), (40.7, 1.5), (5.3, 0.6), (2.0, 0.35)):
            clock_widget.show_data(compute(m=m), live=True)
            vb.setRange(xRange=(-span, span), yRange=(-span, span), padding=0)
            clock_widget.canvas.grab()
            for plot in clock_widget.plots.values():
                monkeypatch.setattr(extras, "QtCore", CountingQtCore())
                plot.place_labels()
                monkeypatch.setattr(extras, "QtCore", QtCore)
                view = plot.plot.getViewBox()
                area = view.sceneBoundingRect()
                boxes = []
                for item, _x, _y, px, py in plot._label_homes:
                    point = view.mapViewToScene(QtCore.QPointF(px, py))
                    inside = area.adjusted(-0.5, -0.5, 0.5, 0.5).contains(point)
                    assert item.isVisible() == inside
                    hidden += not inside
                    if inside:
                        item.updateTransform(force=True)
                        boxes.append(item.sceneBoundingRect())
                for i, box in enumerate(boxes):
                    assert area.adjusted(-1, -1, 1, 1).contains(box), (box, area)
                    for other in boxes[i + 1 :]:
                        inter = box.intersected(other)
                        assert inter.width() <= 0.5 or inter.height() <= 0.5, (box, other)
                cases += len(boxes)
        assert made == []
        assert cases > 40 and hidden > 0
    finally:
        vb.setRange(xRange=(-1.5, 1.5), yRange=(-1.5, 1.5), padding=0)
        clock_widget.show_data(compute(m=2.0))
        clock_widget.canvas.grab()


def test_curves_of_one_view_share_their_pixel_size(clock_widget):
    clock_widget.show_data(compute(m=4.0), live=True)
    clock_widget.canvas.grab()
    found = FastCurveItem.pixel_sizes_found
    curves = [item for plot in clock_widget.plots.values() for item in plot.curves]
    rects = [item.boundingRect() for item in curves]
    clock_widget.show_data(compute(m=4.3), live=True)  # q's trails and arcs move
    clock_widget.canvas.grab()
    moved = [a != item.boundingRect() for a, item in zip(rects, curves, strict=True)]
    assert sum(moved) >= 10
    assert FastCurveItem.pixel_sizes_found == found  # same views: same pixel sizes


def test_moved_texts_do_not_report_to_their_view_box(clock_widget, monkeypatch):
    """The clock's texts move on every frame of a drag; its ranges are set, so a moved
    text has no bounds to report (pyqtgraph's report is a call into Python per move)."""
    reported: list[object] = []
    original = pg.GraphicsItem.informViewBoundsChanged
    monkeypatch.setattr(
        pg.GraphicsItem,
        "informViewBoundsChanged",
        lambda self: reported.append(self) or original(self),
    )
    texts = [
        text
        for plot in clock_widget.plots.values()
        for text in [*plot.arrows[3::3], *plot.text_labels]
    ]
    places = [text.pos() for text in texts]
    clock_widget.show_data(compute(m=7.0), live=True)
    clock_widget.canvas.grab()
    clock_widget.show_data(compute(m=7.4), live=True)
    clock_widget.canvas.grab()
    assert sum(a != text.pos() for a, text in zip(places, texts, strict=True)) >= 5
    assert not [item for item in reported if isinstance(item, pg.TextItem)]
    clock_widget.show_data(compute(m=7.4))


def test_covers_are_the_nearest_later_lines_with_the_same_arrays(clock_widget):
    """Which line hides which (:meth:`PanelPlot._find_covers`): each line's cover is the
    nearest later line drawn from the same arrays (none where no two share arrays, as
    on every frame of the clock's ~60 lines)."""
    plot = clock_widget.plots["plane"]
    plot._find_covers()
    assert len(plot.curves) > 10
    assert all(line.cover is None for line in plot.curves)  # (no two share arrays)
    shared = plot.curves[-1]  # a line drawn again, above, from the same arrays
    plot.curves[3].setData(*shared.getOriginalDataset())
    plot.curves[5].setData(*shared.getOriginalDataset())
    plot._find_covers()
    assert plot.curves[3].cover is plot.curves[5]
    assert plot.curves[5].cover is shared and shared.cover is None
    assert plot.curves[4].cover is None
    clock_widget.show_data(compute(m=6.1))  # (its own arrays again)
    assert plot.curves[3].cover is None


def test_live_frames_of_one_quality_look_at_the_lines_once(clock_widget):
    """:meth:`PanelPlot.set_quality` looks at every line only when the quality or the
    items changed: a drag's frames ask for the same live quality each time."""
    plots = list(clock_widget.plots.values())
    clock_widget.show_data(compute(m=2.2), live=True)
    passes = [plot.quality_passes for plot in plots]
    for m in (2.3, 2.4, 2.5):
        clock_widget.show_data(compute(m=m), live=True)
    assert [plot.quality_passes for plot in plots] == passes
    assert all(not line.opts["antialias"] for line in _shafts(clock_widget))  # live
    clock_widget.show_data(compute(m=2.5))  # settled: each plot looks again
    assert [plot.quality_passes for plot in plots] == [p + 1 for p in passes]
    assert all(line.opts["antialias"] for line in _shafts(clock_widget))


def test_moved_lines_are_compared_once(clock_widget, monkeypatch):
    """A line's arrays are compared with its old ones once a frame (whether it moved,
    then whether it draws alike: each pair of arrays was compared two or three times)."""
    from gui.plotting import plot_data

    clock_widget.show_data(compute(m=3.0))
    pairs: list[tuple[object, object]] = []  # (kept: no id is reused meanwhile)
    original = plot_data.same_array
    monkeypatch.setattr(
        plot_data, "same_array", lambda a, b: pairs.append((a, b)) or original(a, b)
    )
    clock_widget.show_data(compute(m=3.4))
    assert len(pairs) > 40  # (the clock's lines, each looked at)
    assert sum(a is not b for a, b in pairs) > 20  # (q's trails, arcs and lines moved)
    # each pair as often as lines show its arrays: the plane and the hand of its pair
    # show the same trails' arrays (core.views.clock keeps them), each line looks once
    held: Counter[int] = Counter()
    for plot in clock_widget.plots.values():
        for item in plot.curves:
            held.update(id(a) for a in item.getOriginalDataset())
    looks = Counter((id(a), id(b)) for a, b in pairs)
    assert all(n <= max(held[a], held[b], 1) for (a, b), n in looks.items())


def test_a_frame_that_changes_the_texts_alone_keeps_their_colours(clock_widget, monkeypatch):
    """The labels' colours and patches are made and compared only when the theme or the
    labels' colours change: a drag's frame sets the new texts alone."""
    from gui.plotting import panel_extras

    clock_widget.show_data(compute(m=4.0), live=True)
    made: list[object] = []
    original = pg.mkColor
    monkeypatch.setattr(panel_extras.pg, "mkColor", lambda *a: made.append(a) or original(*a))
    clock_widget.show_data(compute(m=4.5), live=True)
    plane = clock_widget.plots["plane"]
    drawn = [minus_signs(label.text) for label in plane.panel.labels]  # ("−159.5°")
    assert [item.toPlainText() for item in plane.text_labels] == drawn
    assert made == []
    plane._label_colors = None  # (as after a new theme): looked at again, as before
    clock_widget.show_data(compute(m=4.6), live=True)
    assert len(made) == len(plane.text_labels) + 1


def test_a_trail_is_painted_by_one_item(clock_widget, monkeypatch):
    """Each tip's fading trail (five lines) is one item of the scene: the scene visits
    and paints it once a frame, the lines are not painted on their own, and a frame
    that moves them tells the view box once."""
    trails = 0
    for plot in clock_widget.plots.values():
        names = [s.name for s in plot.panel.series]
        for name in {n for n in names if n.endswith("trail")}:
            lines = [c for c, n in zip(plot.curves, names, strict=True) if n == name]
            assert len(lines) == 5 and {line.painted_by for line in lines} != {None}
            assert len({line.painted_by for line in lines}) == 1
            trails += 1
    assert trails == 2 * len(clock_widget.plots)  # q's and k's in every plot
    no_contents = QtWidgets.QGraphicsItem.GraphicsItemFlag.ItemHasNoContents
    drawn = [
        item
        for item in clock_widget.canvas.scene().items()
        if isinstance(item, (LineItem, LineGroup)) and not item.flags() & no_contents
    ]
    # the scene paints the groups, the arcs and lines of its own, the shafts: not the
    # trails' lines (50 of them)
    assert len(drawn) == sum(len(plot.curves) - 8 + 2 for plot in clock_widget.plots.values())
    # a live frame first: the first one after a settled frame switches every line to
    # live quality, which tells every group (alone, this test saw 17 groups, not 5)
    clock_widget.show_data(compute(m=2.5), live=True)
    reported: list[object] = []
    told = pg.GraphicsItem.informViewBoundsChanged
    monkeypatch.setattr(
        pg.GraphicsItem, "informViewBoundsChanged", lambda s: reported.append(s) or told(s)
    )
    clock_widget.show_data(compute(m=4.9), live=True)  # q's trails move, k's stay
    # each moved trail tells its view box once, not each of its lines
    assert not [item for item in reported if getattr(item, "painted_by", None) is not None]
    # (a plane that the live frame kept as drawn, its hands moved by less than half a
    # pixel, moves no trail: PanelExtras.keeps_still)
    drawn = [plot for plot in clock_widget.plots.values() if not plot.still_behind]
    assert len(drawn) >= len(clock_widget.plots) - 1
    assert sum(isinstance(item, LineGroup) for item in reported) == len(drawn)
    groups = LineGroup.paints
    for live in (True, False):
        clock_widget.show_data(compute(m=5.5 + live), live=live)
        clock_widget.canvas.grab()
    assert LineGroup.paints - groups >= 2 * trails  # each, on each grab


def test_trails_painted_as_one_item_keep_their_pixels(qapp, monkeypatch):
    """A trail painted by one item sets the pixels its five lines set as items of
    their own: live (aliased), settled (antialiased) and emphasised (dimmed, raised)."""
    from core.scenes import Highlight
    from gui.plotting import panel_plot
    from gui.plotting.emphasis import apply_highlight
    from gui.widgets.view_widget import ViewWidget

    widgets = []
    for grouped in (True, False):
        if not grouped:
            monkeypatch.setattr(panel_plot, "_trail_runs", lambda p: [1] * len(p.series))
        widget = ViewWidget(SPEC)
        widget.resize(700, 450)
        widget.show_data(compute(m=2.0, trail=8.0))
        widgets.append(widget)

    def same(label: str) -> None:
        grouped, single = (w.canvas.grab().toImage() for w in widgets)
        assert grouped == single, label

    for m, live in ((2.4, True), (2.4, False), (31.7, True)):
        for widget in widgets:
            widget.show_data(compute(m=m, trail=8.0), live=live)
        same(f"m={m} live={live}")
    for widget in widgets:
        assert apply_highlight(widget.plots["plane"], Highlight("plane", "series", "q trail"))
    same("q trail emphasised")
    for widget in widgets:
        widget.deleteLater()


def _render(item: pg.GraphicsObject, source: QtCore.QRectF) -> np.ndarray:
    scene = pg.GraphicsScene()
    scene.addItem(item)
    image = QtGui.QImage(300, 300, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QtGui.QColor("white"))
    painter = QtGui.QPainter(image)
    scene.render(painter, QtCore.QRectF(0, 0, 300, 300), source)
    painter.end()
    scene.removeItem(item)
    return pg.imageToArray(image, copy=True)


@pytest.mark.parametrize("alpha", [255, 150])
@pytest.mark.parametrize("width", [3.0, 4.0])
def test_wide_pen_curves_are_pyqtgraphs_pixels(qapp, alpha, width):
    t = np.linspace(0.3, 2.4, 30)  # an arc of a trail
    x, y = np.cos(t), np.sin(t)
    color = QtGui.QColor(0, 114, 178, alpha)
    fast = LineItem(pen=pg.mkPen(color, width=width), antialias=False)
    fast.wide_pen_points = 64
    fast.setData(x, y)
    slow = pg.PlotCurveItem(x=x, y=y, pen=pg.mkPen(color, width=width), antialias=False)
    source = QtCore.QRectF(-1.1, -0.1, 2.2, 1.2)
    np.testing.assert_array_equal(_render(fast, source), _render(slow, source))
    assert fast.wide_pen_paints == 1
    # an opaque pen's segments: drawn from the lines the curve keeps for its data
    assert (fast._lines_known is not None) == (alpha == 255)
    if alpha == 255:
        assert fast._lines_known[2][1] == len(x) - 1


@contextlib.contextmanager
def _counting_paints(port: QtWidgets.QWidget, paints: list[int]) -> Iterator[None]:
    """Append to ``paints`` for each paint event of ``port`` while in the block."""

    class Count(QtCore.QObject):
        def eventFilter(self, obj, event):
            if obj is port and event.type() == QtCore.QEvent.Type.Paint:
                paints.append(1)
            return False

    counter = Count()
    port.installEventFilter(counter)
    try:
        yield
    finally:
        port.removeEventFilter(counter)


def test_a_frame_that_moves_texts_paints_the_canvas_once(window, monkeypatch):
    """The clock's labels move on every frame; their text caches are redrawn at their new
    sub-pixel offsets by the paint under way, without asking for a second paint.

    The full-quality redraw that follows a pause in a drag is a paint of its own: held
    off here, as on a machine fast enough to send the next frame before it is due (under
    load it came between these frames, 8 paints for 4 frames, on main too)."""
    window.set_view("clock")
    assert window.wait_idle()
    state, widget = window.states["clock"], window.views["clock"]
    widget.full_quality.cancel()  # (a pending one would paint between the frames)
    monkeypatch.setattr(widget, "full_quality", lambda: None)
    paints: list[int] = []
    frames = 0
    with _counting_paints(widget.canvas.viewport(), paints):
        for m in (2.3, 2.6, 2.9, 3.2):
            state.set_param("m", m)
            assert window.wait_idle()
            QtWidgets.QApplication.processEvents()
            QtWidgets.QApplication.processEvents()
            frames += 1
    assert frames <= len(paints) <= frames + 1


def test_live_frames_move_labels_with_no_cache_and_end_on_the_straight_picture(window, monkeypatch):
    """A drag's frames move the clock's labels every frame. They are plain text items
    (PlainTextItem: laid out once per text) drawn where they are shown on each paint,
    with no device cache to blit at an older sub-pixel offset (as text documents they
    were cached, and redrawing ~13 caches a frame cost the clock more than it saved):
    after a drag, full quality paints the picture that the same values drawn straight
    paint, to the last pixel."""
    from gui.render.plain_text import PlainTextItem

    window.set_view("clock")
    assert window.wait_idle()
    state, widget = window.states["clock"], window.views["clock"]
    labels = [
        item for plot in widget.plots.values() for item in [*plot.text_labels, *plot.arrows[3::3]]
    ]
    assert len(labels) >= 8
    no_cache = QtWidgets.QGraphicsItem.CacheMode.NoCache
    for label in labels:
        assert isinstance(label.textItem, PlainTextItem)
        assert label.textItem.cacheMode() == no_cache

    def frame(m: float) -> None:
        state.set_param("m", m)
        assert window.wait_idle()
        QtWidgets.QApplication.processEvents()
        QtWidgets.QApplication.processEvents()

    def picture() -> QtGui.QImage:
        widget._full_quality()
        QtWidgets.QApplication.processEvents()
        return widget.canvas.grab().toImage()

    straight = {}
    for m in (2.0, 5.5):  # each drawn straight, in full quality
        frame(m)
        straight[m] = picture()
    widget.full_quality.cancel()  # (a pending one would end the live frames below)
    monkeypatch.setattr(widget, "full_quality", lambda: None)  # live until asked
    frame(2.0)
    widget._full_quality()
    layouts = sum(label.textItem.layouts for label in labels)
    for m in (4.3, 4.6, 4.9, 5.2, 5.5):
        frame(m)
        assert widget._draft
    # a new text is laid out once: no more layouts than texts that changed a frame
    assert 0 < sum(label.textItem.layouts for label in labels) - layouts <= 5 * len(labels)
    assert widget.canvas.grab().toImage() != straight[2.0]
    assert picture() == straight[5.5]
    assert not widget._draft


def test_a_live_frame_lays_out_for_its_own_formula(qapp):
    """The plots' room below the formula is the latest values' on every live frame, not
    that of whichever value the text interval showed last: the clock's formula wraps
    when m has two or more digits at 1920 × 1080 on stage at 150 %, and a grab of the
    same frame gave an 889 or a 928 px canvas depending on timing. A text whose digits
    change shape is shown at once (m = 1 → 58: two lines, at the formula's own size: the
    line grows); one of the same shape still waits for the interval (58 → 59)."""
    from gui.render.formula_label import layout_formula
    from gui.widgets.view_widget import ViewWidget

    one, two = compute(m=1.0), compute(m=58.0)
    widget = ViewWidget(SPEC)
    try:
        widget.resize(1300, 700)
        widget.show_data(one)
        widget.show()
        QtWidgets.QApplication.processEvents()
        formula = widget.formula
        font = formula.formula_font()
        # the formula's width: m = 1 on one line, m = 58 wraps
        line = layout_formula(one.formula_markup, font, 1e5).size.width()
        target = int(line) + 2 * formula.MARGIN + 4
        assert layout_formula(two.formula_markup, font, target).size.height() > (
            layout_formula(one.formula_markup, font, target).size.height()
        )
        widget.resize(widget.width() + target - formula.width(), 700)
        QtWidgets.QApplication.processEvents()
        assert formula.width() == target
        widget.show_data(one)
        low = formula.heightForWidth(target)
        widget.live_text.setTimeout(3_600_000)  # the interval does not end in the test
        widget.live_text.flush(restart_timer=False)
        widget.show_data(compute(m=1.5), live=True)  # the drag's first frame (at once)
        widget.show_data(two, live=True)
        assert formula.markup() == two.formula_markup
        # (the line holds the drag's first frame's height and grows: two lines)
        assert formula.minimumHeight() == low < formula.heightForWidth(target)
        widget.show_data(compute(m=59.0), live=True)
        assert formula.markup() == two.formula_markup and widget.text_pending
    finally:
        widget.live_text.setTimeout(widget.TEXT_REFRESH_MS)
        widget.deleteLater()


def test_a_trails_bounds_are_worked_out_for_its_lines_at_once(clock_widget, monkeypatch):
    """A frame that moves the trails bounds each trail's item from all its lines at once:
    no line's own bounds are worked out (32 a frame on the stage before), and the item's
    rect is the union of its lines' own rects (to the last bits of the float sums)."""
    asked: list[FastCurveItem] = []
    own = FastCurveItem.boundingRect
    monkeypatch.setattr(FastCurveItem, "boundingRect", lambda self: asked.append(self) or own(self))
    joint = LineGroup.joint_rects
    clock_widget.show_data(compute(m=6.3), live=True)
    clock_widget.canvas.grab()
    assert [line for line in asked if line.painted_by is not None] == []
    groups = {
        line.painted_by
        for plot in clock_widget.plots.values()
        for line in plot.curves
        if isinstance(line, LineItem) and line.painted_by is not None
    }
    assert len(groups) == 2 * len(clock_widget.plots)
    # (q's trails moved, but in a plane kept as drawn: PanelExtras.keeps_still)
    drawn = [plot for plot in clock_widget.plots.values() if not plot.still_behind]
    assert LineGroup.joint_rects - joint >= len(drawn) >= len(groups) // 2 - 1
    for group in groups:  # both worked out now, in the same view
        union = QtCore.QRectF()
        for line in group.lines:
            line.invalidateBounds()  # (a line's own rect, not one kept from before)
            union = union.united(own(line))
        group.refresh()
        rect = group.boundingRect()
        assert rect.isValid()
        np.testing.assert_allclose(rect.getRect(), union.getRect(), rtol=0, atol=1e-9)


def test_texts_are_placed_again_only_when_something_moved(clock_widget):
    """:meth:`place_labels` (every frame of a drag, and on every change of the view's
    transform) places the texts again only when a text, its size, what it keeps off or
    the plot's pixels changed: called again with nothing moved, it places none."""
    plane = clock_widget.plots["plane"]
    clock_widget.show_data(compute(m=3.3), live=True)
    placed = plane.placements
    places = [text.pos() for text in plane.text_labels]
    plane.place_labels()
    plane.place_labels()
    assert plane.placements == placed
    clock_widget.show_data(compute(m=3.3), live=True)  # the same data again
    assert plane.placements == placed
    assert [text.pos() for text in plane.text_labels] == places
    clock_widget.show_data(compute(m=3.6), live=True)  # q moved: its texts again
    assert plane.placements >= placed + 4
    vb = plane.plot.getViewBox()
    moved = plane.placements
    vb.setRange(xRange=(-1.4, 1.4), yRange=(-1.4, 1.4), padding=0)  # other pixels
    clock_widget.canvas.grab()
    assert plane.placements > moved
    vb.setRange(xRange=(-1.5, 1.5), yRange=(-1.5, 1.5), padding=0)
    clock_widget.show_data(compute(m=2.0))


def test_only_a_plane_with_axes_has_a_grid(clock_widget):
    """The main plane, whose axes read values off, has its grid; the small planes have
    no axes and no grid (their circle is the scale; the grid was clutter repainted under
    the moving hands on every frame of a drag). Their data area paints the background
    alone there: no grey pixel off the circle, hands, trails and texts."""
    plots = clock_widget.plots
    assert plots["plane"].grid is not None and plots["plane"].grid.lines()
    small = [plot for key, plot in plots.items() if key != "plane"]
    assert small and all(plot.grid is None for plot in small)
    clock_widget.show_data(compute(m=2.0))  # (q and k in the upper half)
    image = clock_widget.canvas.grab().toImage()
    vb = small[0].plot.getViewBox()
    # a row across the data area below the circle: the background alone (the grid's
    # vertical lines crossed it: 5 grey pixels at 1100 x 700)
    at = clock_widget.canvas.mapFromScene(vb.mapViewToScene(QtCore.QPointF(0.0, -1.45)))
    area = clock_widget.canvas.mapFromScene(vb.sceneBoundingRect()).boundingRect()
    background = QtGui.QColor(clock_widget.canvas.backgroundBrush().color()).rgb()
    row = [image.pixelColor(x, at.y()).rgb() for x in range(area.left() + 2, area.right() - 2)]
    assert len(row) > 100 and set(row) == {background}
