"""A live frame walks the scene for its text items once: where it is drawn."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets


def test_a_live_frames_paint_does_not_walk_the_scene_again(window, monkeypatch):
    """A drag's first frame finds the scene's text items (to cache them) when it is
    drawn; its first paint right after does not walk the ~200 items again, nor do the
    drag's next frames while no plot is made anew (:func:`test_a_drags_next_frames_keep_the_text_items_found`).
    A text item made meanwhile is cached by full quality, whose paint walks the scene
    again."""
    window.set_view("rope")
    assert window.wait_idle()
    state, widget = window.states["rope"], window.views["rope"]
    widget.full_quality.cancel()  # (a pending one would end the live frames below)
    monkeypatch.setattr(widget, "full_quality", lambda: None)  # live until asked
    walks: list[int] = []
    walk = widget._cache_text_items

    def counted(*, drag: bool = False) -> None:
        skipped = widget.text_walks_skipped
        walk(drag=drag)
        if widget.text_walks_skipped == skipped:  # (the scene walked)
            walks.append(1)

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
        # a walk for the drag's first frame and for each paint after a frame's first
        # (a paint's own: something may have run since): no more walks than paints
        # (each frame walked once more before: here 8 walks for 5 paints)
        assert 1 <= len(walks) <= len(paints)
        made = QtWidgets.QGraphicsTextItem("made after the frame")
        widget.canvas.scene().addItem(made)
        frame(start + 4)  # (the drag's frame keeps the items found; a later paint's may walk)
        walked = len(walks)
        widget._full_quality()
        QtWidgets.QApplication.processEvents()
        QtWidgets.QApplication.processEvents()
        assert not widget._draft and len(walks) > walked
        assert made.cacheMode() == QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache
        widget.canvas.scene().removeItem(made)
    finally:
        widget.canvas.viewport().removeEventFilter(counter)
        state.end_merge()
        state.set_param("m", start, merge=False)
        assert window.wait_idle()


def test_a_drags_next_frames_keep_the_text_items_found(window, monkeypatch):
    """A drag's live frame that follows another walks the scene for its text items no
    more (a wrapper for each of ~250 items, 0.15-0.3 ms of a clock frame on the
    stage) while the grid and the plots' items stay: the items found by the frame
    before stay cached, and a frame of full quality finds the scene's again. A plot
    made anew (another panel shape) is walked for at once, on the live frame."""
    window.set_view("rope")
    assert window.wait_idle()
    state, widget = window.states["rope"], window.views["rope"]
    widget.full_quality.cancel()
    widget._full_quality()  # (no drag goes on: the next frame is a drag's first)
    monkeypatch.setattr(widget, "full_quality", lambda: None)  # live until asked
    scene_walks: list[bool] = []
    walk = widget._cache_text_items

    def counted(*, drag: bool = False) -> None:
        skipped = widget.text_walks_skipped
        walk(drag=drag)
        scene_walks.append(widget.text_walks_skipped == skipped)

    monkeypatch.setattr(widget, "_cache_text_items", counted)
    start = state.values["m"]

    def frame(m: int) -> None:
        state.set_param("m", m)
        assert window.wait_idle()
        assert widget.data.params["m"] == m and widget._draft

    try:
        frame(start + 1)  # the drag's first frame: walked
        assert scene_walks and scene_walks[-1]
        before = widget.text_walks_skipped
        for step in (2, 3, 4):
            frame(start + step)
        assert widget.text_walks_skipped == before + 3
        # every text item found so far is still cached (none was left out)
        texts = [
            item
            for item in widget.canvas.scene().items()
            if type(item) is QtWidgets.QGraphicsTextItem and item.isVisible()
        ]
        assert texts
        assert all(
            t.cacheMode() == QtWidgets.QGraphicsItem.CacheMode.DeviceCoordinateCache for t in texts
        )
        # a plot made anew: its items are walked for at once, on the live frame
        plot = next(iter(widget.plots.values()))
        plot.rebuilds += 1
        frame(start + 5)
        assert widget.text_walks_skipped == before + 3
        widget._full_quality()
        assert not widget._draft
        skipped = widget.text_walks_skipped
        frame(start + 6)  # a new drag's first frame (full quality between): walked
        assert widget.text_walks_skipped == skipped
    finally:
        state.end_merge()
        state.set_param("m", start, merge=False)
        assert window.wait_idle()
        widget._full_quality()
