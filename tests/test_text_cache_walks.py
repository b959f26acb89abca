"""A live frame walks the scene for its text items once: where it is drawn."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets


def test_a_live_frames_paint_does_not_walk_the_scene_again(window, monkeypatch):
    """Each frame of a drag finds the scene's text items (to cache them) when it is
    drawn; its first paint right after does not walk the ~200 items again. A text item
    made after the drawing is cached by the next frame, and full quality's paint
    walks the scene again."""
    window.set_view("rope")
    assert window.wait_idle()
    state, widget = window.states["rope"], window.views["rope"]
    widget.full_quality.cancel()  # (a pending one would end the live frames below)
    monkeypatch.setattr(widget, "full_quality", lambda: None)  # live until asked
    walks: list[int] = []
    walk = widget._cache_text_items

    def counted() -> None:
        walks.append(1)
        walk()

    monkeypatch.setattr(widget, "_cache_text_items", counted)
    paints: list[int] = []

    class Paints(QtCore.QObject):
        def eventFilter(self, _obj, event):  # type: ignore[no-untyped-def]
            if event.type() == event.Type.Paint:
                paints.append(1)
            return False

    counter = Paints()
    widget.canvas.viewport().installEventFilter(counter)
    start = state.values["m"]

    def frame(m: int) -> None:
        state.set_param("m", m)
        assert window.wait_idle()
        QtWidgets.QApplication.processEvents()
        QtWidgets.QApplication.processEvents()

    try:
        for step in (1, 2, 3):
            frame(start + step)
        assert widget._draft and len(paints) >= 3
        # a walk for each frame drawn and for each paint after the frame's first (a
        # paint's own: something may have run since): no more walks than paints
        # (each frame walked once more before: here 8 walks for 5 paints)
        assert 3 <= len(walks) <= len(paints)
        made = QtWidgets.QGraphicsTextItem("made after the frame")
        widget.canvas.scene().addItem(made)
        frame(start + 4)
        assert made.cacheMode() == QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache
        walked = len(walks)
        widget._full_quality()
        QtWidgets.QApplication.processEvents()
        QtWidgets.QApplication.processEvents()
        assert not widget._draft and len(walks) > walked
        widget.canvas.scene().removeItem(made)
    finally:
        widget.canvas.viewport().removeEventFilter(counter)
        state.end_merge()
        state.set_param("m", start, merge=False)
        assert window.wait_idle()
