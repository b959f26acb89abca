"""A repaint of the canvas between a drawing and Qt's hand-over of the scene's changes to
the view leaves nothing of a moved item behind. With the stage's parameter strip shown,
the strip repainted the canvas under its slider while a value changed, and the clock's
old arrows and names (and the edges of ALiBi's old, wider title) stayed on screen."""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from core.views import compute_view
from gui.lecture.stage_strip import StageControls

Mode = QtWidgets.QGraphicsView.ViewportUpdateMode


def _settle(win) -> None:
    app = QtWidgets.QApplication.instance()
    for _ in range(4):
        assert win.wait_idle(60)
        app.processEvents()


def _on_screen(viewport: QtWidgets.QWidget, rect: QtCore.QRect) -> QtGui.QImage:
    """What the window shows now in ``rect`` of ``viewport`` (its backing store: only
    what has been painted, not a fresh rendering)."""
    image = viewport.screen().grabWindow(0).toImage()
    return image.copy(rect.translated(viewport.mapToGlobal(QtCore.QPoint(0, 0))))


def test_with_the_strip_shown_a_repaint_before_the_hand_over_leaves_no_ghost(window):
    window.set_view("clock")
    window.lecture.display.enter_presentation(fullscreen=False)
    controls = window.feature(StageControls)
    state = window.states["clock"]
    state.set_param("shift", 0.0, merge=False)
    controls.show_strip()
    _settle(window)
    widget = window.views["clock"]
    canvas, viewport = widget.canvas, widget.canvas.viewport()
    assert canvas.viewportUpdateMode() == Mode.FullViewportUpdate
    try:
        label = widget.plots["plane"].arrows[6]  # k's name
        assert label.toPlainText() == "k (n=1)" and label.isVisible()
        old = canvas.mapFromScene(label.sceneBoundingRect()).boundingRect()
        values = dict(state.values, shift=2.5)  # k turns by 2.5 rad: its name moves away
        data = compute_view("clock", values, window.compute_context())
        widget.show_data(data)
        assert label.toPlainText() == "k (n=3.5)"
        assert not old.intersects(canvas.mapFromScene(label.sceneBoundingRect()).boundingRect())
        # another widget's repaint paints a corner of the plane now, synchronously (the
        # strip's slider did), before the event loop hands the scene's changes over
        box = canvas.mapFromScene(widget.plots["plane"].plot.getViewBox().sceneBoundingRect())
        corner = box.boundingRect()
        viewport.repaint(QtCore.QRect(corner.left() + 2, corner.bottom() - 6, 4, 4))
        QtWidgets.QApplication.instance().processEvents()
        shown = _on_screen(viewport, old)
        viewport.repaint()  # everything painted afresh
        assert shown == _on_screen(viewport, old), "the old place still shows 'k (n=1)'"
    finally:
        controls.hide_strip()
        window.lecture.display.leave_presentation()
        state.set_param("shift", 0.0, merge=False)
        _settle(window)
    assert canvas.viewportUpdateMode() == Mode.MinimalViewportUpdate  # (strip hidden)


class _Paints(QtCore.QObject):
    """The rectangles of the paint events a widget gets."""

    def __init__(self) -> None:
        super().__init__()
        self.rects: list[QtCore.QRect] = []

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        if isinstance(event, QtGui.QPaintEvent):
            self.rects.append(event.rect())
        return False


def test_the_presenter_preview_grab_repaints_the_stage_on_screen(window):
    """With two screens, the stage of ``main.py present`` kept a ghost of Word order's
    axis titles ("queriesɐs", "rows of B B" on Xvfb, 5 runs of 5) until something
    repainted it. The presenter's preview grab of the stage was the paint that left it
    (with the grab replaced by nothing: no ghost), a paint to a picture that Qt counts
    as the canvas's latest. After the grab the canvas on screen is repainted whole (on
    Xvfb then: no ghost, 3 runs of 3)."""
    from gui.lecture.presenter import Presenter

    window.set_view("permutation")
    window.lecture.display.enter_presentation(fullscreen=False)
    presenter = window.feature(Presenter)
    presenter.open_view()  # (Ctrl+Shift+V: the presenter view on one screen)
    _settle(window)
    viewport = window.views["permutation"].canvas.viewport()
    paints = _Paints()
    try:
        picture = presenter.grab_stage()
        assert picture.size() == window.stage.size()
        viewport.installEventFilter(paints)  # (the grab's own paint is not counted)
        QtWidgets.QApplication.instance().processEvents()
        in_sight = viewport.visibleRegion().boundingRect()  # (the view scrolls)
        assert paints.rects and paints.rects[0] == in_sight, paints.rects
        paints.rects.clear()
        QtWidgets.QApplication.instance().processEvents()
        assert not paints.rects  # once: the stage is still
    finally:
        viewport.removeEventFilter(paints)
        presenter.close_view()
        window.lecture.display.leave_presentation()
        _settle(window)
