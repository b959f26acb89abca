"""Undoing a pan or a zoom puts every plot back to the framing it is drawn with: Ctrl+R
("Reset all parameters") auto-ranged every plot, which moved the Compare table to the
bottom right, cut off, and took the unit circle of RoPE's and the clock's plane off
centre; A ("Show all data") does the same without touching the parameters."""

from __future__ import annotations

import pytest
from PySide6 import QtCore

from core.views import VIEW_IDS

Key = QtCore.Qt.Key


def _ranges(widget) -> dict[str, list[float]]:
    widget.canvas.viewport().repaint()  # (auto-range is applied when the plots paint)
    return {
        key: [float(v) for r in plot.plot.getViewBox().viewRange() for v in r]
        for key, plot in widget.plots.items()
        if plot.panel is not None and plot.plot.isVisible()
    }


def _pan_all(widget) -> None:
    for plot in widget.plots.values():
        if plot.panel is not None and plot.plot.isVisible():
            vb = plot.plot.getViewBox()
            (x0, x1), (y0, y1) = vb.viewRange()
            vb.translateBy(x=(x1 - x0) * 0.4, y=(y1 - y0) * 0.3)  # as a mouse drag does
            vb.scaleBy((0.5, 0.5))  # and the wheel


def _close(now: list[float], drawn: list[float]) -> bool:
    """Within 2 % of the drawn span on each axis (auto-range's padding depends on the
    plot's pixel size when it ran: a plot resized since then differs by ~1 %)."""
    return all(
        abs(now[i + j] - drawn[i + j]) <= 0.02 * abs(drawn[i + 1] - drawn[i])
        for i in (0, 2)
        for j in (0, 1)
    )


def _differ(a, b) -> dict:
    """The plots whose range is not the one drawn: ``key → (now, drawn)``."""
    return {
        k: (a.get(k), b.get(k))
        for k in a.keys() | b.keys()
        if k not in a or k not in b or not _close(a[k], b[k])
    }


@pytest.mark.parametrize("view_id", VIEW_IDS)
def test_reset_and_show_all_put_back_every_plots_framing(window, qtbot, view_id):
    window.set_view(view_id)
    assert window.wait_idle(30)
    widget = window.views[view_id]
    drawn = _ranges(widget)
    assert drawn
    state = window.states[view_id]
    values = state.values
    _pan_all(widget)
    assert set(_differ(_ranges(widget), drawn)) == set(drawn)  # every plot moved
    window.reset_view()
    assert window.wait_idle(30)
    assert not _differ(_ranges(widget), drawn)
    _pan_all(widget)
    window.setFocus()
    qtbot.keyClick(window, Key.Key_A)
    assert window.wait_idle(30)
    assert not _differ(_ranges(widget), drawn)
    assert state.values == values  # the parameters stay
