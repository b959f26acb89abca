"""Laser pointer, spotlight, pen and rectangle zoom on the stage (issue 14, item 6)."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from core.scenes import Deck, Scene, scene_to_dict
from core.views import VIEWS
from gui.lecture.overlay import INK
from gui.theme import set_theme

Key = QtCore.Qt.Key
Left = QtCore.Qt.MouseButton.LeftButton


@pytest.fixture(autouse=True)
def _reset_theme():
    yield
    set_theme("light", ui_scale=1.0, sequential="viridis", diverging="CET-D1A")


def _pixels(widget: QtWidgets.QWidget) -> np.ndarray:
    """The widget as drawn (children included), as an (h, w, 3) array."""
    image = widget.grab().toImage().convertToFormat(QtGui.QImage.Format.Format_RGB888)
    width, height = image.width(), image.height()
    data = np.frombuffer(image.constBits(), np.uint8, image.bytesPerLine() * height)
    rows = data.reshape(height, image.bytesPerLine())[:, : width * 3]
    return rows.reshape(height, width, 3).copy()  # the image is freed on return


def _ink_pixels(pixels: np.ndarray) -> int:
    ink = QtGui.QColor(INK)
    target = np.array([ink.red(), ink.green(), ink.blue()])
    return int(np.sum(np.all(np.abs(pixels.astype(int) - target) <= 12, axis=-1)))


def _ready(window, view_id: str = "sinusoidal"):
    window.set_view(view_id)
    assert window.wait_idle()
    QtWidgets.QApplication.processEvents()
    return window.lecture.overlay


def test_pen_draws_strokes_that_e_clears_and_no_scene_keeps(window, qtbot):
    overlay = _ready(window)
    stage = window.stage
    before = _pixels(stage)
    qtbot.keyClick(window, Key.Key_D)
    assert overlay.mode == "pen" and overlay.isVisible()
    assert not overlay.testAttribute(QtCore.Qt.WidgetAttribute.WA_TransparentForMouseEvents)
    points = [QtCore.QPoint(200 + 12 * i, 250 + (40 if i % 2 else 0)) for i in range(20)]
    qtbot.mousePress(overlay, Left, pos=points[0])
    for p in points[1:]:
        qtbot.mouseMove(overlay, p)
    qtbot.mouseRelease(overlay, Left, pos=points[-1])
    assert len(overlay.strokes) == 1
    drawn = _pixels(stage)
    changed = np.any(drawn != before, axis=-1)
    assert changed.sum() > 500 and _ink_pixels(drawn) > 300
    rows, cols = np.nonzero(changed)
    assert cols.min() >= 190 and cols.max() <= 200 + 12 * 19 + 10  # where it was drawn
    assert rows.min() >= 240 and rows.max() <= 300
    # the tool put away, the drawing stays over the plots (the mouse reaches them again)
    qtbot.keyClick(window, Key.Key_D)
    assert overlay.mode == "" and overlay.isVisible()
    assert overlay.testAttribute(QtCore.Qt.WidgetAttribute.WA_TransparentForMouseEvents)
    assert _ink_pixels(_pixels(stage)) > 300
    # a scene saved now has no trace of it
    saved = scene_to_dict(window.lecture.deck.current_scene())
    assert set(saved) == {"format", "version", "view", "title", "note", "params"}
    # E clears: the stage is as before
    qtbot.keyClick(window, Key.Key_E)
    assert overlay.strokes == [] and not overlay.isVisible()
    np.testing.assert_array_equal(_pixels(stage), before)


def test_a_new_scene_clears_the_drawing(window, qtbot):
    overlay = _ready(window)
    overlay.set_mode("pen")
    qtbot.mousePress(overlay, Left, pos=QtCore.QPoint(100, 100))
    qtbot.mouseMove(overlay, QtCore.QPoint(300, 200))
    qtbot.mouseRelease(overlay, Left, pos=QtCore.QPoint(300, 200))
    assert overlay.strokes
    params = VIEWS["rope"].model.validate({}, partial=True)
    window.lecture.deck.set_deck(Deck("d", (Scene("rope", params, "r"),)))
    assert overlay.strokes == [] and overlay.mode == "pen"


def _move_mouse(window, widget: QtWidgets.QWidget, pos: QtCore.QPoint) -> None:
    """A mouse move as the application sees it (the overlay follows the app's moves)."""
    event = QtGui.QMouseEvent(
        QtCore.QEvent.Type.MouseMove,
        QtCore.QPointF(pos),
        QtCore.QPointF(widget.mapToGlobal(pos)),
        QtCore.Qt.MouseButton.NoButton,
        QtCore.Qt.MouseButton.NoButton,
        QtCore.Qt.KeyboardModifier.NoModifier,
    )
    QtWidgets.QApplication.sendEvent(widget, event)


def test_laser_dot_and_spotlight_follow_the_mouse(window, qtbot):
    overlay = _ready(window)
    stage = window.stage
    canvas = window.views["sinusoidal"].canvas
    before = _pixels(stage)
    qtbot.keyClick(window, Key.Key_L)
    assert overlay.mode == "laser"
    assert overlay.testAttribute(QtCore.Qt.WidgetAttribute.WA_TransparentForMouseEvents)
    target = QtCore.QPoint(400, 300)
    _move_mouse(window, canvas.viewport(), target)
    at = overlay.mapFromGlobal(canvas.viewport().mapToGlobal(target))
    assert overlay.pointer is not None and overlay.pointer.toPoint() == at
    assert QtWidgets.QApplication.overrideCursor() is not None  # the arrow is hidden
    shot = _pixels(stage)
    changed = np.argwhere(np.any(shot != before, axis=-1))
    near = np.hypot(changed[:, 0] - at.y(), changed[:, 1] - at.x()) < 40
    assert near.sum() > 200  # a dot around the pointer ...
    assert _ink_pixels(shot[at.y() - 30 : at.y() + 30, at.x() - 30 : at.x() + 30]) > 30
    # ... the rest is the plot (no hover readout: test_pointer_tools_mute_the_hover_readout)
    qtbot.keyClick(window, Key.Key_L, QtCore.Qt.KeyboardModifier.ShiftModifier)
    assert overlay.mode == "spotlight"
    _move_mouse(window, canvas.viewport(), target)
    lit = _pixels(stage).astype(int)
    rows, cols = np.indices(lit.shape[:2])
    far = np.hypot(rows - at.y(), cols - at.x()) > overlay.width() / 4
    assert lit[far].mean() < before[far].mean() - 40  # the stage is darkened ...
    assert np.abs(lit[at.y() + 60, at.x()] - before[at.y() + 60, at.x()]).sum() <= 30  # ... but
    qtbot.keyClick(window, Key.Key_Escape)  # Esc puts the tool away first
    assert overlay.mode == "" and overlay.pointer is None
    assert QtWidgets.QApplication.overrideCursor() is None


def test_pointer_tools_mute_the_hover_readout(window, qtbot):
    """On stage the laser pointer and the spotlight kept the hover crosshair and value by
    the dot, the value drawn bright over the spotlight's dimmed stage. With the laser,
    the spotlight or the pen on, the mouse is the lecturer's pointer: no readout (by the
    cursor, nor in the notes line); put away, the next move reads again."""
    overlay = _ready(window)
    widget = window.views["sinusoidal"]
    scene = widget.canvas.scene()
    plot = next(p for p in widget.plots.values() if p.plot.isVisible())
    centre = plot.plot.getViewBox().sceneBoundingRect().center()
    scene.sigMouseMoved.emit(centre)
    read = plot.hover.text()
    assert read and plot.hover.vline.isVisible() and widget.status_text() == read
    for key, mods, mode in (
        (Key.Key_L, QtCore.Qt.KeyboardModifier.NoModifier, "laser"),
        (Key.Key_L, QtCore.Qt.KeyboardModifier.ShiftModifier, "spotlight"),
        (Key.Key_D, QtCore.Qt.KeyboardModifier.NoModifier, "pen"),
    ):
        qtbot.keyClick(window, key, mods)
        assert overlay.mode == mode
        assert not plot.hover.shown and not plot.hover.vline.isVisible(), mode
        scene.sigMouseMoved.emit(centre)  # the pointer moves over the data
        assert not plot.hover.shown and not plot.hover.hline.isVisible(), mode
        assert widget.status_text() != read, mode
        qtbot.keyClick(window, Key.Key_Escape)
        assert overlay.mode == ""
        scene.sigMouseMoved.emit(centre)  # back: the same value as before
        assert plot.hover.text() == read and widget.status_text() == read, mode
    # a view shown while the laser is on reads nothing either, until it is put away
    qtbot.keyClick(window, Key.Key_L)
    window.set_view("alibi")
    assert window.wait_idle()
    other = window.views["alibi"]
    shown = next(p for p in other.plots.values() if p.plot.isVisible())
    middle = shown.plot.getViewBox().sceneBoundingRect().center()
    other.canvas.scene().sigMouseMoved.emit(middle)
    assert overlay.mode == "laser" and not shown.hover.shown
    qtbot.keyClick(window, Key.Key_Escape)
    other.canvas.scene().sigMouseMoved.emit(middle)
    assert shown.hover.text()
    window.set_view("sinusoidal")


def _drag(qtbot, overlay, a: QtCore.QPoint, b: QtCore.QPoint) -> None:
    qtbot.mousePress(overlay, Left, pos=a)
    qtbot.mouseMove(overlay, (a + b) / 2)
    qtbot.mouseMove(overlay, b)
    qtbot.mouseRelease(overlay, Left, pos=b)


def test_rectangle_zoom_changes_the_range_and_z_or_esc_goes_back(window, qtbot):
    overlay = _ready(window)
    widget = window.views["sinusoidal"]
    vb = widget.plots["waves"].plot.getViewBox()
    other = widget.plots["heatmap"].plot.getViewBox()
    original = vb.viewRange()
    other_range = other.viewRange()
    qtbot.keyClick(window, Key.Key_Z)
    assert overlay.mode == "zoom"
    area = vb.sceneBoundingRect()
    canvas = widget.canvas

    def stage_point(fx: float, fy: float) -> QtCore.QPoint:
        scene = QtCore.QPointF(area.left() + fx * area.width(), area.top() + fy * area.height())
        return overlay.mapFromGlobal(canvas.viewport().mapToGlobal(canvas.mapFromScene(scene)))

    a, b = stage_point(0.2, 0.3), stage_point(0.5, 0.7)
    expect = [
        vb.mapSceneToView(
            canvas.mapToScene(canvas.viewport().mapFromGlobal(overlay.mapToGlobal(p)))
        )
        for p in (a, b)
    ]
    _drag(qtbot, overlay, a, b)
    (x0, x1), (y0, y1) = vb.viewRange()
    assert x0 == pytest.approx(min(e.x() for e in expect), abs=1e-6)
    assert x1 == pytest.approx(max(e.x() for e in expect), abs=1e-6)
    assert y0 == pytest.approx(min(e.y() for e in expect), abs=1e-6)
    assert y1 == pytest.approx(max(e.y() for e in expect), abs=1e-6)
    assert x1 - x0 < 0.5 * (original[0][1] - original[0][0])
    assert other.viewRange() == other_range  # only the plot under the rectangle
    # a click (no rectangle) changes nothing; a second rectangle zooms further in
    _drag(qtbot, overlay, a, a + QtCore.QPoint(2, 2))
    assert vb.viewRange() == [[x0, x1], [y0, y1]]
    _drag(qtbot, overlay, stage_point(0.3, 0.4), stage_point(0.4, 0.6))
    assert vb.viewRange()[0][1] - vb.viewRange()[0][0] < x1 - x0
    qtbot.keyClick(window, Key.Key_Z)  # back to the very first range
    assert overlay.mode == "" and vb.viewRange() == original
    assert all(vb.autoRangeEnabled())
    # Esc also goes back
    qtbot.keyClick(window, Key.Key_Z)
    _drag(qtbot, overlay, a, b)
    assert vb.viewRange() != original
    qtbot.keyClick(window, Key.Key_Escape)
    assert overlay.mode == "" and vb.viewRange() == original


def test_tool_letters_still_type_into_text_fields(window, qtbot):
    overlay = _ready(window, "permutation")
    window.activateWindow()
    field = window.panels["permutation"].rows["sentence"].editor
    field.setFocus()
    qtbot.waitUntil(field.hasFocus)
    field.clear()
    for key in (Key.Key_D, Key.Key_E, Key.Key_L, Key.Key_Z):
        qtbot.keyClick(field, key)
    assert field.text() == "delz" and overlay.mode == ""
