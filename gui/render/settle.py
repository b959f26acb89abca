"""Bring a plot canvas's ranges, tick labels and layouts up to date *before* it paints.

Qt settles a ``QGraphicsLayout`` one posted ``LayoutRequest`` at a time, one level of the
item tree per event, and pyqtgraph learns how wide an axis's tick labels are only while
painting it. A frame whose tick labels change width (``0.5`` → ``-0.25``) or whose title
wraps onto another line therefore painted the whole canvas once with the old layout,
re-laid out the plot from the event loop, then painted it all again, often spread over
two frames (about 15 ms at 200 % on the stage, several such frames in every RoPE drag).

:func:`settle` does the same work in the same order, synchronously, before the paint:
view ranges and transforms (``ViewBox.prepareForPaint``), the axes' draw specs (which
report their text size: :meth:`gui.render.fast_axis.FastAxisItem.prepare_specs`), and
every invalidated layout, innermost first, until nothing changes. The paint that
follows draws the settled picture once; what it draws is what the event loop would
have arrived at (a test compares the pixels).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import partial
from itertools import filterfalse
from typing import NamedTuple

import pyqtgraph as pg
from PySide6 import QtWidgets

MAX_ROUNDS = 4  # layout ↔ tick-label feedback settles in one or two rounds
# pyqtgraph's PlotItem, GraphicsLayout, … shadow QGraphicsWidget.layout() with an attribute
_layout_of = QtWidgets.QGraphicsWidget.layout
_activated = QtWidgets.QGraphicsLayout.isActivated
_not_none = partial(operator.is_not, None)


#: Work that changes sizes and that its owner would otherwise leave to the event loop,
#: run for a canvas (a ``QGraphicsView``) before each round's layouts are activated:
#: e.g. axis titles re-fitted to their new length (a module that defers such work
#: registers its runner here, so that a settled frame includes it).
BEFORE_LAYOUT: list[Callable[[QtWidgets.QGraphicsView], object]] = []


def before_layout(canvas: QtWidgets.QGraphicsView) -> None:
    """Run the :data:`BEFORE_LAYOUT` hooks for ``canvas``."""
    for hook in BEFORE_LAYOUT:
        hook(canvas)


class SettleStats:
    """Counters of :func:`settle` (tests check the work is done, and not for nothing)."""

    calls = 0  # settle() calls
    relayouts = 0  # rounds that activated an invalidated layout


class Targets(NamedTuple):
    """What :func:`settle` brings up to date under one root item."""

    owners: list[QtWidgets.QGraphicsWidget]  # widgets with a layout, deepest first
    views: list[pg.ViewBox]
    axes: list[pg.AxisItem]


def targets(root: QtWidgets.QGraphicsItem) -> Targets:
    """The layouts (deepest first), view boxes and axes under ``root`` (included)."""
    found: list[tuple[int, int, QtWidgets.QGraphicsWidget]] = []
    views: list[pg.ViewBox] = []
    axes: list[pg.AxisItem] = []
    stack: list[tuple[QtWidgets.QGraphicsItem, int]] = [(root, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, QtWidgets.QGraphicsWidget) and _layout_of(item) is not None:
            found.append((depth, len(found), item))
        if isinstance(item, pg.ViewBox):
            views.append(item)
        elif isinstance(item, pg.AxisItem):
            axes.append(item)
        stack.extend((child, depth + 1) for child in item.childItems())
    found.sort(key=lambda t: (-t[0], t[1]))
    return Targets([w for _d, _i, w in found], views, axes)


def settle(found: Targets, before: Callable[[], object] | None = None) -> int:
    """Update the view boxes and axes of ``found`` and activate its invalidated layouts
    (deepest first) until they stay valid; returns the number of re-layout rounds.

    View boxes get their auto-range and transform; visible
    :class:`gui.render.fast_axis.FastAxisItem`\\ s generate their draw specs now
    rather than inside the paint (other axes are left to it). ``before`` runs ahead of
    each round's layouts (see :data:`BEFORE_LAYOUT`).
    """
    SettleStats.calls += 1
    rounds = 0
    # (each owner's layout read once, in one pass of C calls: a frame settles ~40)
    layouts = tuple(filter(_not_none, map(_layout_of, found.owners)))
    prepares = [p for axis in found.axes if (p := getattr(axis, "prepare_specs", None))]
    for _ in range(MAX_ROUNDS):
        for view in found.views:
            view.prepareForPaint()
        for prepare in prepares:
            prepare()
        if before is not None:
            before()
        activated = False
        # deepest first: an inner layout invalidates its parent's (each is asked
        # whether it is valid when its turn comes, after those before it activated)
        for layout in filterfalse(_activated, layouts):
            layout.activate()
            activated = True
        if not activated:
            break
        rounds += 1
    SettleStats.relayouts += rounds
    return rounds
