"""The presenter view's picture of the next scene (issue 14, item 5): drawn off-screen
by the deck export's code path, cached per scene, updated when the deck steps."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore, QtGui
from tiers import FULL

from core.scenes import Deck, Highlight, Scene
from core.viewdata import ComputeContext
from core.views import VIEWS, compute_view
from gui.export.deck import scene_image
from gui.lecture.presenter import THUMB_LAYOUT, THUMB_SCALE, THUMB_SIZE


def _scene(view_id: str, title: str, **kw) -> Scene:
    params = VIEWS[view_id].model.validate(kw.pop("params", {}), partial=True)
    return Scene(view_id, params, title, "", **kw)


DECK = Deck(
    "next",
    (
        _scene("rope", "Rotation"),
        _scene("alibi", "Bias", panels=("heads", "slopes")),
        _scene(
            "sinusoidal",
            "Waves",
            params={"seq_len": 32},
            panels=("heatmap",),
            highlight=Highlight("heatmap", "row", 3),
        ),
    ),
)


@pytest.fixture(scope="module")
def win(qapp):
    """One shown main window with the presenter view open on the test deck."""
    from gui.app import build_window

    w = build_window()
    w.resize(1000, 640)
    w.show()
    assert w.wait_idle()
    w.lecture.deck.set_deck(DECK)
    w.lecture.presenter.open_view()
    yield w
    w.lecture.presenter.close_view()
    w.close()


def _pixels(image: QtGui.QImage) -> np.ndarray:
    image = image.convertToFormat(QtGui.QImage.Format.Format_RGB888)
    w, h = image.width(), image.height()
    data = np.frombuffer(image.constBits(), np.uint8, count=image.bytesPerLine() * h)
    return data.reshape(h, image.bytesPerLine())[:, : 3 * w].reshape(h, w, 3).astype(int)


def _wait_picture(qtbot, presenter, scene) -> np.ndarray:
    qtbot.waitUntil(
        lambda: (
            presenter.next_image is not None
            and presenter.thumb_key(scene) in presenter._thumbs
            and presenter.next_scene() is scene
        )
    )
    label = presenter.view.next_picture.pixmap()
    assert not label.isNull() and label.width() > 100  # shown, scaled to the label
    return _pixels(presenter.next_image)


def test_stepping_the_deck_shows_the_next_scene_as_exported(win, qtbot):
    presenter, deck = win.lecture.presenter, win.lecture.deck
    assert deck.go(0)
    first = _wait_picture(qtbot, presenter, DECK.scenes[1])
    assert first.shape[:2] == (THUMB_SIZE[1], THUMB_SIZE[0])
    # the same picture as the deck export draws at that size (a few pixels may differ)
    exported = _pixels(scene_image(DECK.scenes[1], *THUMB_LAYOUT, scale=THUMB_SCALE))
    assert np.mean(np.abs(first - exported).max(axis=2) > 24) < 0.01
    assert deck.step(1)
    second = _wait_picture(qtbot, presenter, DECK.scenes[2])
    assert np.mean(np.abs(first - second).max(axis=2) > 24) > 0.1  # another scene
    exported = _pixels(scene_image(DECK.scenes[2], *THUMB_LAYOUT, scale=THUMB_SCALE))
    assert np.mean(np.abs(second - exported).max(axis=2) > 24) < 0.01
    # the last scene has no next one: no picture
    assert deck.step(1)
    qtbot.waitUntil(lambda: presenter.next_image is None)
    assert presenter.view.next_picture.pixmap().isNull()
    assert presenter.view.next_picture.text() == "This is the deck's last scene"


def test_pictures_are_cached_and_drawn_ahead(win, qtbot, monkeypatch):
    presenter, deck = win.lecture.presenter, win.lecture.deck
    assert deck.go(0)
    qtbot.waitUntil(lambda: len(presenter._wanted_pictures()) == 0)  # 1 and 2 drawn
    drawn = []
    real = presenter.scene_renderer
    monkeypatch.setattr(
        presenter,
        "scene_renderer",
        lambda *a, **k: drawn.append(a[0]) or real(*a, **k),
        raising=True,
    )
    assert deck.step(1)
    # the next scene's picture is there at once, from the cache: nothing drawn again
    assert presenter.next_image is not None
    assert presenter.next_scene() is DECK.scenes[2]
    assert drawn == []


def test_a_picture_is_drawn_part_by_part_with_the_event_loop_in_between(win, qtbot, monkeypatch):
    """The stage keeps drawing while a picture is made: every part of the drawing (the
    computation, the widget, each painted tile) runs in its own pass of the event loop."""
    presenter, deck = win.lecture.presenter, win.lecture.deck
    passes = [0]
    ticker = QtCore.QTimer()
    ticker.setInterval(0)
    ticker.timeout.connect(lambda: passes.__setitem__(0, passes[0] + 1))
    seen: list[int] = []
    real = presenter.scene_renderer

    def recording(*args, **kwargs):
        for part in real(*args, **kwargs):
            seen.append(passes[0])
            yield part

    monkeypatch.setattr(presenter, "scene_renderer", recording)
    presenter._thumbs.clear()
    ticker.start()
    try:
        assert deck.go(0)
        qtbot.waitUntil(lambda: presenter.next_image is not None and len(seen) > 3)
        qtbot.waitUntil(lambda: presenter._job is None)
    finally:
        ticker.stop()
    assert len(seen) > 3
    # the event loop ran between parts
    assert all(b > a for a, b in zip(seen, seen[1:], strict=False))


def test_no_part_of_a_picture_is_drawn_while_a_sweep_animates(win, qtbot, monkeypatch):
    """A sweep's frames come first: while it plays, no picture starts and a started one
    does not advance; it goes on once the sweep stops."""
    presenter, deck = win.lecture.presenter, win.lecture.deck
    qtbot.waitUntil(lambda: presenter._job is None)
    presenter._thumbs.clear()
    assert deck.go(0)
    presenter.thumb_timer.stop()
    sweep = win.lecture.sweep
    parts: list[object] = []
    real = presenter.scene_renderer

    def recording(*args, **kwargs):
        for part in real(*args, **kwargs):
            parts.append(part)
            yield part

    monkeypatch.setattr(presenter, "scene_renderer", recording)
    sweep.play()
    try:
        assert presenter.stage_animating()
        presenter.update_next_picture()
        assert presenter._job is None  # not started while the stage animates
        sweep.stop()
        presenter.update_next_picture()
        assert presenter._job is not None
        sweep.play()
        presenter.job_timer.stop()
        presenter._advance_job()
        assert parts == []  # not advanced while the stage animates
    finally:
        sweep.stop()
    presenter._advance_job()
    assert len(parts) == 1  # goes on afterwards
    qtbot.waitUntil(lambda: presenter._job is None and presenter.next_image is not None)


def test_the_presenter_draws_pictures_with_kept_view_widgets(win):
    from gui.export.deck import SceneWidgets

    renderer = win.lecture.presenter.scene_renderer
    assert isinstance(renderer.keywords["widgets"], SceneWidgets)  # see test_scene_widgets


def test_a_view_widget_for_a_picture_is_built_a_plot_per_part(win, monkeypatch):
    """Issue 14 (c): the first picture of a view built its off-screen widget, every plot
    of it, in one part (0.2-0.8 s of stage stall, see bench/presenter_pictures.py); now
    each part builds or draws at most one plot, at the picture's UI scale, and the
    stage's theme is back in between (the stage draws with its own). The picture is the
    one the deck export draws (same steps, same size)."""
    import gui.widgets.view_widget as view_widget
    from gui.export.deck import SceneWidgets, scene_image_steps
    from gui.theme import current_theme

    built = [0]

    class Counting(view_widget.PanelPlot):
        def __init__(self, *args, **kwargs):
            built[0] += 1
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(view_widget, "PanelPlot", Counting)
    scene = _scene("permutation", "Order")
    stage_scale = current_theme().ui_scale
    per_part, image = [], None
    steps = scene_image_steps(scene, *THUMB_LAYOUT, scale=THUMB_SCALE, widgets=SceneWidgets())
    for part in steps:
        assert current_theme().ui_scale == stage_scale
        per_part.append(built[0])
        built[0] = 0
        image = part if part is not None else image
    panels = len(compute_view("permutation", dict(scene.params), ComputeContext()).panels)
    assert sum(per_part) == panels > 3
    assert max(per_part) == 1  # one plot per part, never the view at once
    assert image is not None
    # the presenter's picture size; scene_image is these same steps without kept
    # widgets (its pixels are compared with the presenter's in the stepping test above),
    # so no second build of the view for a size
    assert (image.width(), image.height()) == THUMB_SIZE


@FULL
def test_the_next_picture_is_laid_out_with_room_for_its_plots(win, qtbot):
    """Found on Xvfb (two screens, lecture deck, presenter view): the picture of the next
    scene, Word order's eleven plots, was laid out at 640 × 360 (half-size fonts): the
    plots were squashed to slivers and their titles lay over each other. It is laid out
    at 1600 × 900 and drawn at 640 × 360: no title, label or legend overlaps or is
    cut."""
    from gui.plotting.layout_check import layout_problems

    presenter, deck = win.lecture.presenter, win.lecture.deck
    order = _scene("permutation", "Order")
    deck.set_deck(Deck("order", (DECK.scenes[0], order)))
    try:
        assert deck.go(0)
        picture = _wait_picture(qtbot, presenter, order)
        assert picture.shape[:2] == (THUMB_SIZE[1], THUMB_SIZE[0])
        kept = presenter.scene_renderer.keywords["widgets"].widgets()
        widget = next(w for w in kept if w.spec.view_id == "permutation")
        assert len(widget.plots) > 8
        assert layout_problems(widget) == []
    finally:
        deck.set_deck(DECK)


@FULL
@pytest.mark.parametrize("layout", [THUMB_LAYOUT, (1280, 720)])
def test_a_picture_smaller_than_its_layout_draws_the_layout_scaled_down(qapp, layout):
    """A scene drawn at fewer pixels than its layout (the presenter's next picture,
    1600 x 900 at 0.4; a 1280 x 720 slide at 0.5) is its layout scaled down: the same
    picture as drawn at full size and then shrunk. It was laid out again at the pixel
    size (640 x 360): Word order's plots squashed to slivers under titles lying over
    each other, and at 1280 x 720 the word-axis title "queries" touched the tick label
    "bites" of the widget kept at the layout (12 problems)."""
    from gui.export.deck import SceneWidgets, scene_image_steps
    from gui.plotting.layout_check import layout_problems

    order = _scene("permutation", "Order")
    width, height = layout
    scale = THUMB_SIZE[0] / width
    widgets = SceneWidgets()
    small = list(scene_image_steps(order, width, height, scale=scale, widgets=widgets))[-1]
    pw, ph = small.width(), small.height()
    assert (pw, ph) == (round(width * scale), round(height * scale))
    kept = next(w for w in widgets.widgets() if w.spec.view_id == "permutation")
    assert layout_problems(kept) == []
    full = scene_image(order, width, height)
    shrunk = full.scaled(
        pw,
        ph,
        QtCore.Qt.AspectRatioMode.IgnoreAspectRatio,
        QtCore.Qt.TransformationMode.SmoothTransformation,
    )
    # compared in 8 x 8 blocks (small text is hinted, not shrunk, at the smaller size)
    blocks = [
        _pixels(image)[: ph // 8 * 8, : pw // 8 * 8].reshape(ph // 8, 8, pw // 8, 8, 3)
        for image in (small, shrunk)
    ]
    diff = np.abs(blocks[0].mean(axis=(1, 3)) - blocks[1].mean(axis=(1, 3))).max(axis=2)
    assert np.mean(diff > 32) < 0.01, (np.mean(diff > 32), diff.mean())
