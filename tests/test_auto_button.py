"""pyqtgraph's "A" (auto-range) button follows the UI scale in the window and is not
shown on stage, nor on panels whose framing auto-range breaks."""

from __future__ import annotations

import pyqtgraph as pg
import pytest
from PySide6 import QtCore


@pytest.fixture
def ui_scale():
    """Set the UI scale for a test (the theme is restored afterwards)."""
    from gui.theme import current_theme, set_theme

    before = current_theme().ui_scale
    yield lambda scale: set_theme(ui_scale=scale)
    set_theme(ui_scale=before)


def _panel(view: str, key: str):
    from core.viewdata import ComputeContext
    from core.views import compute_view, get_view

    model = get_view(view).model
    data = compute_view(view, model.validate(model.defaults()), ComputeContext())
    return next(p for p in data.panels if p.key == key)


def _shown(qtbot, view: str, key: str):
    """A view's panel drawn as the app draws it, in a shown widget."""
    from gui.plotting.panel_plot import PanelPlot
    from gui.render.fast_axis import hide_spare_axes, make_axes
    from gui.render.view_box import PlotViewBox

    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    win.resize(900, 600)
    item = win.addPlot(axisItems=make_axes(), viewBox=PlotViewBox())
    hide_spare_axes(item)
    plot = PanelPlot(item)
    plot.show(_panel(view, key))
    win.show()
    for _ in range(2):
        win.grab()
        QtCore.QCoreApplication.processEvents()
    return win, plot


def _hovered_after_zoom(plot) -> bool:
    """Whether the "A" button shows over the plot once it is zoomed and the pointer
    is on it (pyqtgraph shows it then: ``PlotItem.updateButtons``)."""
    item = plot.plot
    item.getViewBox().scaleBy((0.5, 0.5))  # (a wheel's zoom: auto-range off)
    item.mouseHovering = True
    item.updateButtons()
    return item.autoBtn.isVisible()


def test_the_auto_range_button_grows_with_the_ui_scale(qtbot, ui_scale):
    """At 300 % the button was pyqtgraph's 14 px beside 30 pt tick labels: it is 42 px
    on the screen now, in the plot's bottom-left corner, and still shows all the data
    again when clicked."""
    ui_scale(3.0)
    win, plot = _shown(qtbot, "sinusoidal", "waves")
    item = plot.plot
    assert _hovered_after_zoom(plot)
    button = item.autoBtn
    rect = button.mapRectToItem(item, button.boundingRect())
    assert (rect.width(), rect.height()) == (42.0, 42.0)
    assert rect.left() == 0.0 and abs(rect.bottom() - item.size().height()) < 0.5
    button.clicked.emit(button)  # (what its click emits)
    assert all(item.getViewBox().autoRangeEnabled())
    ui_scale(1.0)
    plot.show(plot.panel)  # (a new UI scale re-styles the plot)
    rect = button.mapRectToItem(item, button.boundingRect())
    assert rect.width() == 14.0 and abs(rect.bottom() - item.size().height()) < 0.5
    win.close()


def test_the_auto_range_button_is_not_shown_on_stage_nor_on_framed_panels(qtbot, ui_scale):
    """On stage the A key shows all the data of every plot (and a lecturer's pointer
    crossing a zoomed plot flashed the button); a table's or an arrows panel's framing
    is what the A key restores, and pyqtgraph's auto-range moved the table to the bottom
    right. In the window a zoomed curve plot still shows it."""
    ui_scale(2.0)
    win, plot = _shown(qtbot, "sinusoidal", "waves")
    plot.set_stage(True)
    assert not _hovered_after_zoom(plot)
    plot.set_stage(False)
    assert _hovered_after_zoom(plot)
    for view, key in (("rope", "plane"), ("compare", "table")):
        framed_win, framed = _shown(qtbot, view, key)
        assert framed.panel is not None and framed.panel.kind in ("arrows", "table")
        assert not _hovered_after_zoom(framed)
        framed_win.close()
    win.close()
