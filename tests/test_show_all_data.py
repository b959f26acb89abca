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


def _legends(widget) -> dict[str, tuple[int, tuple[int, ...], float, float, float]]:
    """Each shown plot's legend as laid out: its columns, the entries across them, its
    text size, the strip's width and its data's width (px, to a tenth)."""
    out = {}
    for key, plot in widget.plots.items():
        legend = plot.legend
        if legend is None or not legend.items or not plot.plot.isVisible():
            continue
        strip = legend._width * legend.scale()  # (kept unscaled: StripLegend.set_strip)
        data = plot.plot.getViewBox().width()
        out[key] = (
            legend.columnCount,
            legend.spans,
            legend.scale(),
            round(strip, 1),
            round(data, 1),
        )
    return out


def test_a_views_first_draw_plans_its_legends_at_the_width_it_draws(open_window):
    """RoPE's first draw in 1600 x 1000 fitted its rows twice: a scroll bar came, and
    went again, and the plots' data grew 4.7 px wider. The legend strips heard of that
    width only from their axes' title re-fits, posted to the event loop, which ran
    after the view had reported idle: drawn, every legend was planned for the data's
    width under the scroll bar, the course-vs-real one ("the two pairs: s = 0 and s =
    100") in one column where a redraw at the same width gives two, its data 33 px
    lower, and Reset framed that plot otherwise than its first draw. Drawn, each
    legend's strip is its data's width, and a redraw of the same data at the same size
    lays out every legend as the first draw did."""
    with open_window(1600, 1000) as window:  # (new: the view's first draw)
        window.set_view("rope")
        assert window.wait_idle(30)
        widget = window.views["rope"]
        first = _legends(widget)
        assert first
        assert {k: v[3:] for k, v in first.items() if v[3] != v[4]} == {}  # (strip, data)
        window.reset_view()  # (the same parameters: the same data, drawn again)
        assert window.wait_idle(30)
        assert _legends(widget) == first
