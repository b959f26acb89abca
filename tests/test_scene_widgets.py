"""The presenter's next-scene pictures draw a view's off-screen widget again instead of
building one per picture (building it blocked the stage): issue 14, item 5."""

from __future__ import annotations

import numpy as np
from PySide6 import QtGui

from core.scenes import Highlight, Scene
from core.views import VIEWS
from gui.export.deck import SceneWidgets, scene_image, scene_image_steps

SIZE = (480, 270)


def _scene(view_id: str, title: str, **kw) -> Scene:
    params = VIEWS[view_id].model.validate(kw.pop("params", {}), partial=True)
    return Scene(view_id, params, title, "", **kw)


def _pixels(image: QtGui.QImage) -> np.ndarray:
    image = image.convertToFormat(QtGui.QImage.Format.Format_RGB888)
    w, h = image.width(), image.height()
    data = np.frombuffer(image.constBits(), np.uint8, count=image.bytesPerLine() * h)
    return data.reshape(h, image.bytesPerLine())[:, : 3 * w].reshape(h, w, 3).astype(int)


def _differs(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.mean(np.abs(a - b).max(axis=2) > 24))


def test_a_kept_widget_draws_the_next_scene_of_its_view_as_a_fresh_one(qapp):
    widgets = SceneWidgets()
    first = _scene("sinusoidal", "Short", params={"seq_len": 16}, panels=("heatmap", "waves"))
    second = _scene("sinusoidal", "Long", params={"seq_len": 48}, panels=("heatmap", "waves"))
    other = _scene(
        "sinusoidal", "Row", params={"seq_len": 48}, highlight=Highlight("heatmap", "row", 3)
    )
    drawn = [list(scene_image_steps(s, *SIZE, widgets=widgets))[-1] for s in (first, second)]
    (kept,) = widgets.widgets()
    assert kept.isHidden() and kept.data is not None and kept.title.text() == "Long"
    # the second picture was drawn by the first one's widget, and looks as built anew
    again = list(scene_image_steps(first, *SIZE, widgets=widgets))[-1]
    assert widgets.widgets() == [kept]
    for image, scene in zip((*drawn, again), (first, second, first), strict=True):
        assert _differs(_pixels(image), _pixels(scene_image(scene, *SIZE))) < 0.01
    assert _differs(_pixels(drawn[0]), _pixels(drawn[1])) > 0.02  # another picture
    # another staging gets a widget of its own; the first one stays kept
    list(scene_image_steps(other, *SIZE, widgets=widgets))
    assert len(widgets.widgets()) == 2 and widgets.widgets()[0] is kept
    # a picture stopped half-way releases its widget rather than keep a half-drawn one
    parts = scene_image_steps(first, *SIZE, widgets=widgets)
    next(parts), next(parts), next(parts)
    parts.close()
    assert kept not in widgets.widgets()
    widgets.clear()
    assert widgets.widgets() == []
