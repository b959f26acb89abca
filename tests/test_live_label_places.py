"""An arrows panel's texts on a drag's live frames keep their last places where those
are still free (no search), and the frame in full quality after the drag places them
all anew: the same places as a view that never was dragged (issue 14 item 7)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from core.viewdata import ComputeContext
from core.views import VIEWS
from gui.plotting.panel_extras import RECENT_PLACES, _Avoid, _blocked_one, _Lines, _ToData

pytestmark = pytest.mark.usefixtures("drags_end_when_the_test_says")


def _data(view_id: str, **changes):
    spec = VIEWS[view_id]
    return spec.compute(spec.model.validate(changes, partial=True), ComputeContext())


def _widget(view_id: str):
    from gui.widgets.view_widget import ViewWidget

    widget = ViewWidget(VIEWS[view_id])
    widget.resize(1400, 900)
    return widget


def _labelled(widget) -> list:
    return [plot for plot in widget.plots.values() if plot._label_homes]


def _places(widget) -> list[tuple[float, float, float, bool]]:
    """Each text's position, size share and visibility, plot by plot."""
    return [
        (item.pos().x(), item.pos().y(), item.shrink, item.isVisible())
        for plot in _labelled(widget)
        for item, *_home in plot._label_homes
    ]


def _near(places: list[tuple[float, float, float, bool]]) -> list:
    """``places`` to the last bits of their data coordinates (a view box's transform
    after a drag differs from a fresh one's by rounding alone: ~1e-15)."""
    return [(pytest.approx(x, abs=1e-9), pytest.approx(y, abs=1e-9), f, v) for x, y, f, v in places]


def _problems(plot) -> list[str]:
    """What breaks the search's rules among the texts kept at their last places: a box
    outside the data area, over a text placed before it or on a line or ring."""
    vb = plot.plot.getViewBox()
    area = vb.sceneBoundingRect()
    to_scene = vb.childTransform() * vb.sceneTransform()
    sx, sy, dx, dy = to_scene.m11(), to_scene.m22(), to_scene.m31(), to_scene.m32()
    segments, pad = plot._obstacle_segments((sx, sy, dx, dy))
    avoid = _Avoid(
        _Lines(segments) if len(segments) else None,
        plot._rings,
        _ToData(1.0 / sx, -dx / sx, 1.0 / sy, -dy / sy),
        pad,
        None,
    )
    boxes, problems = [], []
    for item, *_home in plot._label_homes:
        if not item.isVisible():
            continue
        box = item.mapRectToScene(item.boundingRect())
        if not area.adjusted(-1, -1, 1, 1).contains(box):
            problems.append(f"{item.textItem.toPlainText()!r} outside the data area")
        for other in boxes:
            inter = box.intersected(other)
            if inter.width() > 1 and inter.height() > 1:
                problems.append(f"{item.textItem.toPlainText()!r} over another text")
        boxes.append(box)
    for item in plot.kept_texts:
        box = item.mapRectToScene(item.boundingRect())
        if _blocked_one(box.x() + 1, box.y() + 1, box.width() - 2, box.height() - 2, avoid):
            problems.append(f"{item.textItem.toPlainText()!r} on a line")
    return problems


@pytest.mark.parametrize(
    ("view_id", "name", "values"),
    [
        ("clock", "m", [2.0 + 0.15 * k for k in range(30)]),
        ("rope", "m", [3 + k for k in range(20)]),
    ],
)
def test_live_texts_stay_free_and_the_settled_frame_is_placed_anew(qapp, view_id, name, values):
    dragged = _widget(view_id)
    dragged.show_data(_data(view_id, **{name: values[0]}))
    dragged.canvas.grab()  # (laid out at its size)
    kept_before = sum(plot.kept_places for plot in _labelled(dragged))
    problems = []
    for value in values[1:]:
        dragged.show_data(_data(view_id, **{name: value}), live=True)
        for plot in _labelled(dragged):
            problems += [f"{name}={value}: {p}" for p in _problems(plot)]
    assert not problems
    # the live frames kept places (no search for those texts)
    assert sum(plot.kept_places for plot in _labelled(dragged)) - kept_before > len(values)
    # the drag ends (its last frame again, settled): the texts placed as if never live
    last = _data(view_id, **{name: values[-1]})
    dragged.show_data(last)
    assert not any(plot._placed_live for plot in _labelled(dragged))
    settled = _places(dragged)
    for plot in _labelled(dragged):  # placed again from nothing: the same places
        plot._placed_for, plot._label_offsets = None, []
        plot.place_labels()
    assert _places(dragged) == _near(settled)
    # and those of a view shown at the first value, then the last (no drag between)
    fresh = _widget(view_id)
    fresh.show_data(_data(view_id, **{name: values[0]}))
    fresh.canvas.grab()
    fresh.show_data(last)
    assert _places(fresh) == _near(settled)
    # a drag that ends when the frames pause (the full-quality timer) as well
    dragged.show_data(_data(view_id, **{name: values[-2]}), live=True)
    dragged.show_data(last, live=True)
    dragged.finish_live_frame()
    assert _places(dragged) == _near(settled)
    for widget in (dragged, fresh):
        widget.deleteLater()


def test_turned_offset_follows_its_wedge():
    """A text's offset off its own place turns in data as its wedge's middle turned; the
    view box's y points up (scene y down), so a quarter turn counter-clockwise in data
    takes an offset 10 px to the right to 10 px up on screen."""
    from gui.plotting.panel_extras import _turned

    sx, sy = 200.0, -200.0  # (data to scene pixels: y flipped)
    turned = _turned((10.0, 0.0), (1.0, 0.0), (0.0, 1.0), sx, sy)
    assert turned == pytest.approx((0.0, -10.0))
    half = _turned((3.0, 4.0), (0.0, 1.0), (0.0, -1.0), sx, sy)
    assert half == pytest.approx((-3.0, -4.0))
    # nothing to turn: no wedge, no offset, the same direction
    assert _turned((10.0, 0.0), None, (0.0, 1.0), sx, sy) is None
    assert _turned((0.0, 0.0), (1.0, 0.0), (0.0, 1.0), sx, sy) is None
    assert _turned((10.0, 0.0), (0.6, 0.8), (0.6, 0.8), sx, sy) is None


def test_a_turned_wedge_keeps_its_text_where_it_was_in_the_wedge(qapp):
    """A drag of m turns the clock's angle and q·k's triangle: where a text's offset off
    its own place, turned with its wedge, is still free, a live frame keeps it there (no
    search; unturned, the offsets left the texts outside their wedges, a search every
    frame), and the kept places obey the search's rules."""
    dragged = _widget("clock")
    values = [2.0 + 0.35 * k for k in range(24)]
    dragged.show_data(_data("clock", m=values[0]))
    dragged.canvas.grab()
    problems = []
    with _counted_searches() as searches:
        for value in values[1:]:
            dragged.show_data(_data("clock", m=value), live=True)
            for plot in _labelled(dragged):
                problems += [f"m={value}: {p}" for p in _problems(plot)]
    assert not problems
    plane = dragged.plots["plane"]
    assert plane.turned_places > 0
    # fewer searches than the same drag with offsets kept as they were
    assert len(searches) < _searches_unturned(values)
    dragged.deleteLater()


@contextlib.contextmanager
def _counted_searches(**swapped: object) -> Iterator[list[object]]:
    """The calls of ``panel_extras._first_free`` (the place searches) while the
    module's attributes ``swapped`` have the values given; all restored after."""
    from gui.plotting import panel_extras

    count: list[object] = []
    original = panel_extras._first_free
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            panel_extras, "_first_free", lambda *a, **k: count.append(a) or original(*a, **k)
        )
        for name, value in swapped.items():
            patch.setattr(panel_extras, name, value)
        yield count


def _searches_unturned(values: list[float]) -> int:
    """The searches of the same drag where offsets are not turned (``_turned`` off)."""
    widget = _widget("clock")
    widget.show_data(_data("clock", m=values[0]))
    widget.canvas.grab()
    with _counted_searches(_turned=lambda *a: None) as count:
        for value in values[1:]:
            widget.show_data(_data("clock", m=value), live=True)
    widget.deleteLater()
    return len(count)


def _drag_searches(values: list[float], recent: int) -> tuple[int, int, list[str]]:
    """A clock drag of m through ``values`` with live texts tried at ``recent`` of their
    recent offsets: the searches, the texts kept at a recent offset, the problems."""
    widget = _widget("clock")
    widget.show_data(_data("clock", m=values[0]))
    widget.canvas.grab()
    problems: list[str] = []
    with _counted_searches(RECENT_PLACES=recent) as count:
        for value in values[1:]:
            widget.show_data(_data("clock", m=value), live=True)
            for plot in _labelled(widget):
                problems += [f"m={value}: {p}" for p in _problems(plot)]
    kept = sum(plot.recent_places for plot in _labelled(widget))
    widget.deleteLater()
    return len(count), kept, problems


def test_a_live_text_takes_a_recent_place_before_a_search(qapp):
    """A live frame's text whose last place is taken tries the places of the drag's
    last frames (free by the search's rules) before it searches: fewer searches than
    with its last place alone, and the kept places obey the rules."""
    values = [2.0 + 1.7 * k for k in range(40)]
    searches, kept, problems = _drag_searches(values, RECENT_PLACES)
    assert not problems
    assert kept > 0
    alone, none_kept, _ = _drag_searches(values, 0)
    assert none_kept == 0
    assert searches < alone


def _wedge_drag(values: list[float], *, ways: bool, size=(1400, 900)):
    """A clock drag of m through ``values`` (the widget at ``size``): the searches, the
    plane, the problems of the texts kept by the search's rules and those of the texts
    kept in their wedge across a dashed line; ``ways``: whether a live frame may keep a
    text where its last search put it outside or across (else forgotten every frame)."""
    widget = _widget("clock")
    widget.resize(*size)
    widget.show_data(_data("clock", m=values[0]))
    widget.canvas.grab()
    problems: list[str] = []
    plane = widget.plots["plane"]
    with _counted_searches() as count:
        for value in values[1:]:
            if not ways:
                plane._label_how = []
            widget.show_data(_data("clock", m=value), live=True)
            problems += [f"m={value}: {p}" for p in _problems(plane)]
            problems += [f"m={value}: {p}" for p in _across_problems(plane)]
    widget.deleteLater()
    return len(count), plane, problems


def _across_problems(plot) -> list[str]:
    """What breaks :func:`_wedge_place`'s rules among the wedge texts placed in their
    wedge across a dashed line: a box outside its wedge or on a solid line."""
    from gui.plotting.panel_extras import _ACROSS_DASHES, _solid

    vb = plot.plot.getViewBox()
    to_scene = vb.childTransform() * vb.sceneTransform()
    sx, sy, dx, dy = to_scene.m11(), to_scene.m22(), to_scene.m31(), to_scene.m32()
    segments, pad = plot._obstacle_segments((sx, sy, dx, dy))
    to_data = _ToData(1.0 / sx, -dx / sx, 1.0 / sy, -dy / sy)
    avoid = _Avoid(_Lines(segments), plot._rings, to_data, pad, None)
    solid = _solid(avoid, segments[plot._solid_rows(len(segments))])
    problems = []
    for (item, *_home), wedge, how in zip(
        plot._label_homes, plot._label_wedges, plot._label_how, strict=True
    ):
        if how != _ACROSS_DASHES or not item.isVisible() or wedge is None:
            continue
        box = item.mapRectToScene(item.boundingRect())
        x_lo, x_hi = sorted(
            (
                (box.left() + 1) * to_data.kx + to_data.bx,
                (box.right() - 1) * to_data.kx + to_data.bx,
            )
        )
        y_lo, y_hi = sorted(
            (
                (box.top() + 1) * to_data.ky + to_data.by,
                (box.bottom() - 1) * to_data.ky + to_data.by,
            )
        )
        if not wedge.holds(x_lo, x_hi, y_lo, y_hi):
            problems.append(f"{item.textItem.toPlainText()!r} outside its wedge")
        if _blocked_one(box.x() + 1, box.y() + 1, box.width() - 2, box.height() - 2, solid):
            problems.append(f"{item.textItem.toPlainText()!r} on a solid line")
    return problems


def test_a_live_wedge_text_keeps_its_way_out_of_or_across_its_wedge(qapp):
    """A wedge's text that its last search put outside its wedge (no place in it was
    free: the clock's "q·k") or in it across a dashed line (the angle) is kept so on a
    live frame where that still holds (its wedge's middle has no free place; in it off
    the solid lines), without the search: fewer searches, and the rules kept."""
    values = [2.0 + 0.35 * k for k in range(30)]
    searches, plane, problems = _wedge_drag(values, ways=True)
    assert not problems
    assert plane.outside_places > 0
    assert plane.across_places > 0
    forgotten, _plane, _problems = _wedge_drag(values, ways=False)
    assert searches < forgotten
