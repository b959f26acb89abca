"""A drag's live frame keeps an arrows panel's items as drawn where none of its points
moves by half a pixel (the clock's slowest hand: pair 31 turns ~0.1 px a step of m on
the stage) and shows its strip texts alone; the frame in full quality after the drag
draws the panel exactly, as a view that never was dragged (issue 14 item 7)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from core.viewdata import ComputeContext
from core.views import VIEWS
from gui.plotting.panel_extras import STILL_PX

pytestmark = pytest.mark.usefixtures("drags_end_when_the_test_says")

SPEC = VIEWS["clock"]


def _data(**changes):
    return SPEC.compute(SPEC.model.validate(changes, partial=True), ComputeContext())


def _widget():
    from gui.widgets.view_widget import ViewWidget

    widget = ViewWidget(SPEC)
    widget.resize(1400, 900)
    return widget


def _slowest(widget):
    """The plot of the slowest hand (the last one) and its panel's key."""
    key = sorted(k for k in widget.plots if k.startswith("hand"))[-1]
    return key, widget.plots[key]


def _panel(data, key):
    return next(p for p in data.panels if p.key == key)


def _live_plane():
    """A widget drawn at m = 2, then live at m = 3: it, its main plane and the panel
    the plane shows."""
    widget = _widget()
    widget.show_data(_data(m=2.0))
    widget.canvas.grab()
    data = _data(m=3.0)
    widget.show_data(data, live=True)
    return widget, widget.plots["plane"], _panel(data, "plane")


def _drawn(plot) -> dict[str, list[float]]:
    """What the plot's items draw: each line's points, each shaft's tip, each head's
    place and turn, each text's place and text."""
    out: dict[str, list[float]] = {}
    for k, line in enumerate(plot.curves):
        x, y = line.getOriginalDataset()
        out[f"line{k}"] = [*np.asarray(x).tolist(), *np.asarray(y).tolist()]
    for k in range(len(plot.arrows) // 3):
        shaft, head, name = plot.arrows[1 + 3 * k : 4 + 3 * k]
        out[f"shaft{k}"] = [*shaft.xData.tolist(), *shaft.yData.tolist()]
        out[f"head{k}"] = [head.pos().x(), head.pos().y(), head.rotation()]
        out[f"name{k}"] = [name.pos().x(), name.pos().y(), name.textItem.toPlainText()]
    for k, text in enumerate(plot.text_labels):
        out[f"text{k}"] = [text.pos().x(), text.pos().y(), text.textItem.toPlainText()]
    return out


def _px(plot) -> tuple[float, float]:
    """Scene pixels a unit of data is, each way."""
    vb = plot.plot.getViewBox()
    to_scene = vb.childTransform() * vb.sceneTransform()
    return abs(to_scene.m11()), abs(to_scene.m22())


def test_a_live_frame_keeps_a_plane_that_moves_less_than_half_a_pixel(qapp):
    widget = _widget()
    widget.show_data(_data(m=2.0))
    widget.canvas.grab()
    widget.show_data(_data(m=3.0), live=True)  # (the drag's first frame: drawn)
    key, plot = _slowest(widget)
    before = _drawn(plot)
    data = _data(m=4.0)
    widget.show_data(data, live=True)
    panel = _panel(data, key)
    # q's tip moved (a hundredth of a pixel), its caption reads the new angle
    q = panel.arrows[0]
    assert (q.x, q.y) != (before["shaft0"][1], before["shaft0"][3])
    kx, ky = _px(plot)
    assert math.hypot((q.x - before["shaft0"][1]) * kx, (q.y - before["shaft0"][3]) * ky) < 0.5
    after = _drawn(plot)
    captions = [k for k, lb in enumerate(panel.labels) if lb.strip]
    assert captions
    for k in captions:
        assert after[f"text{k}"][2] == panel.labels[k].text.replace("-", "\u2212")
    # the arrows, lines and the texts in the plane are as drawn (nothing redrawn)
    for name, value in before.items():
        if not (name.startswith("text") and int(name[4:]) in captions):
            assert after[name] == value, name
    assert plot.still_behind
    # the hands that turn by more were drawn anew
    moved = [p for k, p in widget.plots.items() if k != key]
    assert not any(p.still_behind for p in moved)
    widget.deleteLater()


def test_the_frame_in_full_quality_draws_a_kept_plane_exactly(qapp):
    widget = _widget()
    widget.show_data(_data(m=2.0))
    widget.canvas.grab()
    values = [2.0 + 0.5 * k for k in range(1, 9)]
    for value in values:
        widget.show_data(_data(m=value), live=True)
    key, plot = _slowest(widget)
    assert plot.still_frames > 0 and plot.still_behind
    last = _data(m=values[-1])
    widget.finish_live_frame()  # (the full-quality timer's end of a drag)
    assert not plot.still_behind
    fresh = _widget()
    fresh.show_data(_data(m=2.0))
    fresh.canvas.grab()
    fresh.show_data(last)
    _, other = _slowest(fresh)
    mine, theirs = _drawn(plot), _drawn(other)
    assert mine.keys() == theirs.keys()
    for name in mine:
        assert mine[name] == pytest.approx(theirs[name], abs=1e-9) or mine[name] == theirs[name]
    # and the panel's arrays exactly (the lines' own)
    panel = _panel(last, key)
    for line, s in zip(plot.curves, panel.series, strict=True):
        x, y = line.getOriginalDataset()
        assert np.array_equal(x, s.x) and np.array_equal(y, s.y)
    # a drag that ends with the last frame drawn again in full quality as well
    widget.show_data(_data(m=values[-2]), live=True)
    widget.show_data(_data(m=values[-1] + 0.5), live=True)
    assert plot.still_behind
    widget.show_data(last)
    assert not plot.still_behind
    assert _drawn(plot) == pytest.approx(mine) or _drawn(plot) == mine
    for widget_ in (widget, fresh):
        widget_.deleteLater()


def test_small_steps_do_not_add_up(qapp):
    """Each live frame compares with what is drawn, not with the frame before: a drag
    of many small steps keeps what is drawn within half a pixel of the panel, drawing
    it anew whenever it would be farther."""
    widget = _widget()
    widget.show_data(_data(m=2.0))
    widget.canvas.grab()
    key, plot = _slowest(widget)
    kx, ky = _px(plot)
    q = _panel(_data(m=3.0), key).arrows[0]
    theta = math.atan2(q.y, q.x) / 3.0  # (q at m·θ)
    # a step of m that moves q's tip by a fifth of the tolerance
    step = STILL_PX / 5 / (theta * kx)
    drawn_anew = 0
    for k in range(1, 40):
        data = _data(m=2.0 + k * step)
        widget.show_data(data, live=True)
        q = _panel(data, key).arrows[0]
        shaft = plot.arrows[1]
        tip = (float(shaft.xData[1]), float(shaft.yData[1]))
        assert math.hypot((q.x - tip[0]) * kx, (q.y - tip[1]) * ky) <= STILL_PX
        drawn_anew += not plot.still_behind
    assert plot.still_frames > 20 and drawn_anew >= 5
    widget.deleteLater()


def test_only_the_strip_texts_may_change_on_a_kept_plane(qapp):
    """A text in the plane with another text, a tip half a pixel away, another name,
    or another line's length: the plane is drawn anew."""
    widget, plot, panel = _live_plane()
    theme = plot._styled
    assert plot.keeps_still(panel, theme)  # (the panel drawn: nothing moved)
    kx, _ky = _px(plot)
    inside = next(k for k, lb in enumerate(panel.labels) if not lb.strip)
    strip = next(k for k, lb in enumerate(panel.labels) if lb.strip)

    def relabel(k: int, text: str):
        labels = list(panel.labels)
        labels[k] = dataclasses.replace(labels[k], text=text)
        return dataclasses.replace(panel, labels=labels)

    assert plot.keeps_still(relabel(strip, "another caption"), theme)
    assert not plot.keeps_still(relabel(inside, "q·k = +0.999"), theme)
    q = panel.arrows[0]
    for dx, still in ((0.3 * STILL_PX / kx, True), (2 * STILL_PX / kx, False)):
        arrows = [dataclasses.replace(q, x=q.x + dx), *panel.arrows[1:]]
        assert plot.keeps_still(dataclasses.replace(panel, arrows=arrows), theme) is still
    renamed = [dataclasses.replace(q, name="q (m=4)"), *panel.arrows[1:]]
    assert not plot.keeps_still(dataclasses.replace(panel, arrows=renamed), theme)
    arc = next(k for k, s in enumerate(panel.series) if s.name.startswith("angle"))
    series = list(panel.series)
    s = series[arc]
    series[arc] = dataclasses.replace(s, x=np.append(s.x, s.x[-1]), y=np.append(s.y, s.y[-1]))
    assert not plot.keeps_still(dataclasses.replace(panel, series=series), theme)
    # a frame in full quality never keeps a plane
    widget.show_data(_data(m=3.0))
    assert not plot.keeps_still(panel, theme)
    widget.deleteLater()


def test_head_points_are_the_drawn_heads_corners(qapp):
    """What :meth:`keeps_still` compares of a head: its tip and corners, as the scene
    draws the head (up to the mirror of the view's y)."""
    from gui.plotting.panel_extras import _head_points

    widget = _widget()
    widget.show_data(_data(m=2.0))
    widget.canvas.grab()
    plot = widget.plots["plane"]
    kx, ky = _px(plot)
    for k, arrow in enumerate(plot._drawn[0].arrows):
        head = plot.arrows[2 + 3 * k]
        path = head.path  # (pyqtgraph keeps the path it set)
        # (drawn in pixels, turned: its map to the canvas, which shows the scene 1:1)
        to_view = head.deviceTransform(widget.canvas.viewportTransform())
        ends = (0, 1, path.elementCount() - 2)  # (the tip and the base's two corners)
        corners = [to_view.map(path.elementAt(j).x, path.elementAt(j).y) for j in ends]
        tip = to_view.map(0.0, 0.0)
        drawn = {(round(x - tip[0], 6), round(y - tip[1], 6)) for x, y in corners}
        length, half = plot._head_sizes[k]
        points = _head_points(arrow.x, arrow.y, kx, ky, length, half)
        ours = {
            (round(points[j] - points[0], 6), round(-(points[j + 1] - points[1]), 6))
            for j in (0, 2, 4)
        }
        assert ours == drawn, (drawn, ours)
    widget.deleteLater()


def test_the_tolerance_is_in_device_pixels(qapp, monkeypatch):
    """On a screen of two device pixels to a pixel, a tip 0.4 px away is 0.8 device
    pixels away: the plane is drawn anew."""
    from PySide6 import QtWidgets

    widget, plot, panel = _live_plane()
    kx, _ky = _px(plot)
    q = panel.arrows[0]
    moved = [dataclasses.replace(q, x=q.x + 0.8 * STILL_PX / kx), *panel.arrows[1:]]
    nudged = dataclasses.replace(panel, arrows=moved)
    assert plot.keeps_still(nudged, plot._styled)
    monkeypatch.setattr(QtWidgets.QGraphicsView, "devicePixelRatioF", lambda _self: 2.0)
    assert not plot.keeps_still(nudged, plot._styled)
    widget.deleteLater()
