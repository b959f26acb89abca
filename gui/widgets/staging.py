"""A deck scene's staging drawn once into a view widget (exports, thumbnails).

:func:`stage_widget` gives a freshly drawn :class:`~gui.widgets.view_widget.ViewWidget`
the look a scene has on stage (see :mod:`gui.lecture.focus`, which does the same live and
undoably in the window): only the scene's ``panels``, in their order, laid out in a
:func:`grid_shape` grid; with ``reveal``, the first ``shown`` of them (the places of the
others kept free, as on stage); the ``highlight`` emphasised and the rest dimmed.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6 import QtWidgets

from core.scenes import Highlight
from gui.plotting.emphasis import apply_highlight
from gui.widgets.grid_flow import grid_shape
from gui.widgets.view_widget import ViewWidget

__all__ = ["grid_shape", "reveal_steps", "stage_widget"]


def reveal_steps(panels: Sequence[str], reveal: bool, count: int) -> int:
    """How many reveal steps a scene has: one per shown panel with ``reveal`` (``count``
    panels when it names none), else 1."""
    return max(1, len(panels) or count) if reveal else 1


def stage_widget(
    widget: ViewWidget,
    panels: Sequence[str] = (),
    shown: int | None = None,
    highlight: Highlight | None = None,
) -> None:
    """Stage the plots ``widget`` drew (once, not undoably: for a widget drawn to export).

    Parameters
    ----------
    widget
        A view widget that has drawn its data.
    panels
        Keys of the panels to show, in order; ``()``: all, where the view puts them.
        Keys the view does not draw are skipped.
    shown
        Show only the first ``shown`` of them (a reveal step), keeping the room of the
        others; ``None``: all.
    highlight
        What to emphasise, or ``None``.
    """
    if widget.data is None or not widget.plots:
        return
    layout = widget.canvas.ci.layout
    keys = [p.key for p in widget.data.panels if p.key in widget.plots]
    order = [k for k in dict.fromkeys(panels) if k in widget.plots] if panels else keys
    if not order:
        order = keys
    if panels:
        rows, cols = grid_shape(len(order))
        parked = [k for k in keys if k not in order]
        items = [widget.plots[k].plot for k in keys]
        for item in items:  # all out first: a grid refuses an item on a taken cell
            _take_out(layout, item)
        for i, key in enumerate(order):
            layout.addItem(widget.plots[key].plot, i // cols, i % cols, 1, 1)
        for j, key in enumerate(parked):
            layout.addItem(widget.plots[key].plot, rows + j, 0, 1, 1)
            widget.plots[key].plot.setVisible(False)
    visible = order if shown is None else order[: max(1, shown)]
    for key in order:
        item = widget.plots[key].plot
        if key not in visible:
            policy = item.sizePolicy()
            policy.setRetainSizeWhenHidden(True)  # the place stays free, as on stage
            item.setSizePolicy(policy)
            item.setVisible(False)
    if highlight is not None and highlight.panel in widget.plots:
        apply_highlight(widget.plots[highlight.panel], highlight)
    widget.show_notes_line()  # the notes of the plots shown, as on stage
    layout.invalidate()
    layout.activate()


def _take_out(layout: QtWidgets.QGraphicsGridLayout, item: QtWidgets.QGraphicsLayoutItem) -> None:
    for i in range(layout.count()):
        found = layout.itemAt(i)
        if found is not None and found.graphicsItem() is item:
            layout.removeAt(i)
            return
