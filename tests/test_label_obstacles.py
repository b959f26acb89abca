"""What an arrows panel's texts keep off (gui.plotting.panel_extras): its circle and
the trails round it as rings, its other lines as segments, and the wedge a text
belongs in, worked out on real boxes."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6 import QtGui

from core.viewdata import ComputeContext
from core.views import clock
from gui.plotting.panel_extras import (
    _Avoid,
    _blocked,
    _blocked_one,
    _data_box,
    _first_free,
    _line_obstacles,
    _Lines,
    _smaller_free,
    _solid,
    _ToData,
    _Wedge,
    _wedge_place,
)

# data to scene pixels as an arrows plane draws it: 200 px a unit, y up, the origin
# at (400, 300)
TO_SCENE = QtGui.QTransform(200.0, 0.0, 0.0, -200.0, 400.0, 300.0)
AREA = (100.0, 0.0, 700.0, 600.0)  # ±1.5 round the origin


def _avoid(rings=(1.0,), lines=None, pad=2.0):  # type: ignore[no-untyped-def]
    return _Avoid(lines, tuple(rings), _ToData.of(TO_SCENE), pad, np.array(rings))


def test_a_box_across_the_circle_is_blocked_one_inside_or_outside_is_not():
    avoid = _avoid()
    # (left, top) of 80 x 30 px boxes: across the circle's right (x = 600 px), well
    # inside it, beyond it, and one whose padded corner just reaches it
    cases = {(560.0, 285.0): True, (420.0, 200.0): False, (610.0, 285.0): False}
    for (left, top), blocked in cases.items():
        assert _blocked_one(left, top, 80.0, 30.0, avoid) is blocked
    ls, ts = np.array([c[0] for c in cases]), np.array([c[1] for c in cases])
    assert _blocked(ls, ts, 80.0, 30.0, avoid).tolist() == list(cases.values())
    # 1 px clear of the circle at its top (y = 100 px): blocked with a 2 px pad only
    assert _blocked_one(380.0, 69.0, 40.0, 30.0, _avoid(pad=2.0))
    assert not _blocked_one(380.0, 69.0, 40.0, 30.0, _avoid(pad=0.5))


def test_a_trail_is_a_ring_and_the_shadow_and_the_arc_are_segments():
    params = clock.MODEL.validate({"m": 2.0, "n": 1.0, "trail": 3.0}, partial=True)
    data = clock.compute(params, ComputeContext())
    plane = data.panel("plane")
    parts = _line_obstacles([(s.x, s.y) for s in plane.series])
    by_name = {}
    for s, part in zip(plane.series, parts, strict=True):
        by_name.setdefault(s.name, []).append(part)
    assert {ring for _segments, ring in by_name["q trail"]} == {1.0}
    assert {ring for _segments, ring in by_name["k trail"]} == {round(0.94**2, 9)}
    shadow, ring = by_name["q's shadow on k"][0]
    assert ring is None
    np.testing.assert_allclose(
        shadow, [[math.cos(2.0), math.sin(2.0), math.cos(1.0) ** 2, math.cos(1.0) * math.sin(1.0)]]
    )
    arc, ring = by_name["angle (m − n)·θ"][0]
    assert ring is None and 2 <= len(arc) <= 12
    np.testing.assert_allclose(np.hypot(arc[:, 0], arc[:, 1]), 0.3)
    np.testing.assert_allclose(arc[-1, 2:], [0.3 * math.cos(2.0), 0.3 * math.sin(2.0)])


def test_a_wedge_holds_boxes_between_its_sides_and_within_the_circle():
    wedge = _Wedge.of(math.radians(30), math.radians(90))  # from 30° to 120°
    boxes = {
        (0.0, 0.1, 0.4, 0.5): True,  # up the middle
        (0.3, 0.5, 0.0, 0.1): False,  # below 30°
        (-0.3, 0.1, 0.4, 0.5): False,  # across 120°
        (0.0, 0.1, 0.9, 1.1): False,  # beyond the circle
    }
    for (x_lo, x_hi, y_lo, y_hi), inside in boxes.items():
        assert bool(wedge.holds(x_lo, x_hi, y_lo, y_hi)) is inside
    clockwise = _Wedge.of(math.radians(120), math.radians(-90))  # the same, from q's side
    for box, inside in boxes.items():
        assert bool(clockwise.holds(*box)) is inside
    # a 0.6 x 0.2 box fits across a 90° wedge (its chord is 1.41), not a 17° one (0.30)
    assert wedge.may_hold(0.6, 0.2)
    assert not _Wedge.of(1.0, math.radians(17)).may_hold(0.6, 0.2)


def test_a_text_goes_to_the_nearest_free_place_in_its_wedge():
    """A 60 x 20 px text at the origin (on the arrows' shafts) goes into the wedge from
    30° to 120° where that is free; without the wedge, to the nearest free place."""
    shafts = _Lines(
        [
            [400.0, 300.0, 400 + 200 * math.cos(a), 300 - 200 * math.sin(a)]
            for a in (math.radians(30), math.radians(120))
        ]
    )
    avoid = _avoid(lines=shafts)
    home = (370.0, 290.0, 60.0, 20.0)
    wedge = _Wedge.of(math.radians(30), math.radians(90))
    left, top = _first_free(home, AREA, [], avoid, wedge)
    to_data = avoid.to_data
    x = (left * to_data.kx + to_data.bx, (left + 60) * to_data.kx + to_data.bx)
    y = ((top + 20) * to_data.ky + to_data.by, top * to_data.ky + to_data.by)
    assert wedge.holds(*x, *y)
    assert not _blocked_one(left, top, 60.0, 20.0, avoid)
    anywhere = _first_free(home, AREA, [], avoid)
    assert anywhere != (left, top)
    assert not _blocked_one(*anywhere, 60.0, 20.0, avoid)
    # the wedge's place is no nearer than the nearest free one (it is preferred)
    assert math.dist(anywhere, home[:2]) <= math.dist((left, top), home[:2])


@pytest.mark.parametrize("kx", [200.0, 120.0])
def test_scene_to_data_inverts_the_planes_transform(kx):
    to_scene = QtGui.QTransform(kx, 0.0, 0.0, -200.0, 400.0, 300.0)
    to_data = _ToData.of(to_scene)
    point = to_scene.map(0.3, -0.7)
    assert point[0] * to_data.kx + to_data.bx == pytest.approx(0.3)
    assert point[1] * to_data.ky + to_data.by == pytest.approx(-0.7)


def _across(*ys: float) -> _Lines:
    """Lines across the whole plane at these heights (data)."""
    return _Lines([[100.0, 300 - 200 * y, 700.0, 300 - 200 * y] for y in ys])


def test_a_wedges_text_goes_in_it_across_a_faint_line_or_smaller_before_outside():
    """A 100 x 30 px text of the wedge from 60° to 120° (200 px a unit), its home on
    the middle at 0.45, between lines across the plane 30 px apart (at 0.45, 0.75 and
    0.9, and a dashed one at 0.6): no place between two keeps 2 px off both, and the
    nearest free place is below them, outside the wedge. Without the dashed line
    (:func:`_solid`), it is in the wedge at its size, across it. In a narrower wedge
    it fits at 0.8 of its size, not at 0.9; in one narrower still at none: the place
    outside is kept."""
    wedge = _Wedge.of(math.radians(60), math.radians(60), first=True)
    home = (350.0, 300 - 200 * 0.45 - 15, 100.0, 30.0)
    solid_lines = [0.45, 0.75, 0.9]
    dashed = _avoid(lines=_across(*solid_lines, 0.6))
    outside = _first_free(home, AREA, [], dashed, wedge)
    assert outside is not None
    to_data = dashed.to_data

    def held(left: float, top: float, w: float, h: float) -> bool:
        return bool(wedge.holds(*_data_box(left, top, left + w, top + h, to_data)))

    assert not held(*outside, 100.0, 30.0)
    rows = np.array([[100.0, 300 - 200 * y, 700.0, 300 - 200 * y] for y in solid_lines])
    solid = _solid(dashed._replace(rings=(0.8836, 1.0)), rows)
    assert solid.rings == (1.0,) and solid.lines is not None and len(solid.lines.rows) == 3
    share, best = _wedge_place(home, AREA, [], solid, wedge, outside)
    assert share == 1.0 and best is not None and held(*best, 100.0, 30.0)
    assert not _blocked_one(*best, 100.0, 30.0, solid)
    assert _blocked_one(*best, 100.0, 30.0, dashed)  # (across the dashed line)
    # a wedge of 30° from 75°: 100 x 30 px (0.5 x 0.15) is that wide only from 0.93
    # out, where it reaches beyond the circle; at 0.9 from 0.84 out, its top corners
    # at a radius of 1.0006; at 0.8 from 0.75 out, its top corners at 0.89
    # (the circle alone to keep off)
    narrow = _Wedge.of(math.radians(75), math.radians(30), first=True)
    share, best = _wedge_place(home, AREA, [], _avoid(), narrow, outside)
    assert share == 0.8 and best is not None
    x_lo, x_hi, y_lo, y_hi = _data_box(best[0], best[1], best[0] + 80, best[1] + 24, to_data)
    assert narrow.holds(x_lo, x_hi, y_lo, y_hi)
    assert not _blocked_one(*best, 80.0, 24.0, _avoid())
    # 20°: 0.35 wide at the circle, narrower than the text at 0.8 (0.4)
    thin = _Wedge.of(math.radians(80), math.radians(20), first=True)
    assert _wedge_place(home, AREA, [], _avoid(), thin, outside) == (1.0, outside)


def test_a_name_with_no_free_place_is_tried_smaller_next_to_its_tip():
    """An arrow's name 240 x 46 px beyond a tip at (0, −1) in a plane whose area ends
    46 px below and above the circle, its inside full of lines (the arrows, say): no
    place at its size keeps 2 px off the circle (50 px high with its pads); at 0.9 one
    does, next to the tip (within its height); with 10 px below and above the circle,
    none: ``(1.0, None)``."""
    inside = _Lines([[200.0, y, 600.0, y] for y in np.arange(100.0, 501.0, 20.0)])
    avoid = _avoid(lines=inside)
    area = (100.0, 54.0, 700.0, 546.0)
    tip, origin = (400.0, 500.0), (400.0, 300.0)
    assert _first_free((280.0, 505.0, 240.0, 46.0), area, [], avoid) is None
    share, best = _smaller_free(*tip, origin, 240.0, 46.0, area, [], avoid)
    assert share == 0.9 and best is not None
    w, h = 240.0 * share, 46.0 * share
    assert not _blocked_one(*best, w, h, avoid)
    gap_x = max(best[0] - tip[0], tip[0] - best[0] - w, 0.0)
    gap_y = max(best[1] - tip[1], tip[1] - best[1] - h, 0.0)
    assert math.hypot(gap_x, gap_y) <= h
    tight = (100.0, 90.0, 700.0, 510.0)
    assert _smaller_free(*tip, origin, 240.0, 46.0, tight, [], avoid) == (1.0, None)
