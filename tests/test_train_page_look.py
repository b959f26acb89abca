"""The training lab's plots look like the views' (gui.widgets.train_page): they follow
the theme and UI scale, keep legends off the data, print no SI prefix, put colour bars
on the heatmaps, say what will appear while empty and re-style when the display
changes. One page for the module, filled with small synthetic results as the worker's
signals bring them (training itself: test_training)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from gui.plotting.layout_check import drawn_legend, layout_problems, overlap
from gui.theme import DARK, current_theme, set_theme

METHODS = ("learned", "rope", "alibi")
CURVE_PLOTS = ("loss_plot", "acc_plot", "extra_plot")
ALL_PLOTS = (*CURVE_PLOTS, "sim_plot", "attn_plot", "rope_plot")
HEATMAPS = ("sim_plot", "attn_plot")


def result(pe: str, rng: np.random.Generator) -> dict:
    """A finished method as core.training.runner.summary sends it (training length 8)."""
    attention = np.tril(rng.random((8, 8)))
    attention /= attention.sum(axis=1, keepdims=True)
    accuracy = {"learned": [1.0, 1.0, None, None], "rope": [1.0, 1.0, 0.7, 0.4]}
    return {
        "pe": pe,
        "cancelled": False,
        "lengths": [4, 8, 16, 32],
        "accuracy": accuracy.get(pe, [1.0, 1.0, 0.9, 0.8]),
        "reasons": [""] * 4,
        "table": rng.normal(size=(8, 16)) if pe == "learned" else None,
        "steps_per_s": 100.0,
        "wall_s": 0.1,
        "device": "cpu",
        "attention": attention[None, None],
        "rope_freq": 10000.0 ** (-np.arange(8) / 8) if pe == "rope" else None,
    }


def progress(page, pe: str, first: int, count: int) -> None:
    steps = list(range(first, first + count))
    page._on_progress(pe, steps, [3.0 / s for s in steps], [1 - 1 / s for s in steps])


def fill(page) -> None:
    """Clear the page and feed it a run of three methods; laid out and painted."""
    page._clear()
    if hasattr(page, "set_lengths"):
        page.set_lengths(8, [4, 8, 16, 32])
    rng = np.random.default_rng(0)
    for pe in METHODS:
        progress(page, pe, 1, 50)
        progress(page, pe, 51, 50)
        page._on_method_done(result(pe, rng))
    settle(page)


def settle(page) -> None:
    app = QtWidgets.QApplication.instance()
    for _ in range(3):
        app.processEvents()
    page.plots.ci.layout.activate()
    app.processEvents()


def at(page, name: str, scale: float) -> None:
    """The page in theme ``name`` at UI ``scale``, as the lecture display applies it."""
    set_theme(name, ui_scale=scale)
    if hasattr(page, "apply_theme"):
        page.apply_theme()
    settle(page)


@pytest.fixture(scope="module")
def page(qapp):
    from gui.widgets.train_page import TrainPage

    saved = current_theme()
    set_theme("light", ui_scale=1.0)
    lab = TrainPage()
    lab.resize(1600, 1000)
    lab.show()
    settle(lab)
    yield lab
    lab.close()
    lab.deleteLater()
    set_theme(saved.name, ui_scale=saved.ui_scale)


def test_empty_plots_say_what_will_appear_and_show_no_axes(page):
    """Before a run: no made-up axes ("position p (x0.001)", ticks −400…400), a note."""
    at(page, "light", 1.0)
    page._clear()
    settle(page)
    for name in ALL_PLOTS:
        plot = getattr(page, name)
        for side in ("left", "bottom"):
            assert not plot.getAxis(side).isVisible(), (name, side)
        notes = [
            item
            for item in plot.getViewBox().childItems()
            if isinstance(item, QtWidgets.QGraphicsTextItem) and item.isVisible()
        ]
        assert len(notes) == 1, name
        text = notes[0].toPlainText()
        assert "appear" in text, (name, text)
        # centred in the data area, inside it
        view = plot.getViewBox().sceneBoundingRect()
        box = notes[0].sceneBoundingRect()
        assert view.contains(box), (name, text)
        assert abs(box.center().x() - view.center().x()) < 2, name
        assert abs(box.center().y() - view.center().y()) < 2, name


def test_no_axis_title_carries_an_si_prefix(page):
    for scale in (1.0, 1.5):
        at(page, "light", scale)
        fill(page)
        for name in ALL_PLOTS:
            plot = getattr(page, name)
            for side in ("left", "bottom"):
                axis = plot.getAxis(side)
                assert axis.isVisible(), (name, side)
                assert "(x" not in axis.labelString(), (name, side, axis.labelString())
                assert not axis.autoSIPrefix, (name, side)


def test_text_grows_with_the_ui_scale(page):
    """Titles, axis titles, ticks and legends at the theme's sizes (13, 12, 11 and
    10 pt at 100 %), 1.5 times as large at 150 %."""
    sizes = {}
    for scale in (1.0, 1.5):
        at(page, "light", scale)
        fill(page)
        theme = current_theme()
        for name in ALL_PLOTS:
            plot = getattr(page, name)
            assert plot.titleLabel.opts.get("size") == f"{theme.font_pt(13)}pt", name
            for side in ("left", "bottom"):
                axis = plot.getAxis(side)
                font = axis.style["tickFont"]
                assert font is not None and font.pointSize() == theme.font_pt(11), name
                assert axis.labelStyle.get("font-size") == f"{theme.font_pt(12)}pt", name
            sizes[name, scale] = plot.getAxis("left").style["tickFont"].pointSize()
        for name in CURVE_PLOTS:
            legend = getattr(page, name).legend
            assert legend.opts["labelTextSize"] == f"{theme.font_pt(10)}pt", name
    assert sizes["loss_plot", 1.0] == 11 and sizes["loss_plot", 1.5] == 16


def test_the_controls_column_widens_with_the_ui_scale(page):
    """At 200 % a fixed 340 px column cut "Training length" and the methods' names;
    its widths now follow the UI scale and every field's label shows whole."""
    page.resize(1920, 1080)
    try:
        for scale in (1.0, 2.0):
            at(page, "light", scale)
            assert page.controls.maximumWidth() == round(340 * scale)
            form = page.controls.layout()
            for row in range(form.rowCount()):
                item = form.itemAt(row, QtWidgets.QFormLayout.ItemRole.LabelRole)
                label = item.widget() if item is not None else None
                if isinstance(label, QtWidgets.QLabel) and label.isVisible():
                    assert label.width() >= label.sizeHint().width(), (scale, label.text())
            methods = page.methods
            widest = max(
                methods.fontMetrics().horizontalAdvance(methods.item(i).text())
                for i in range(methods.count())
            )
            assert methods.viewport().width() > widest, scale
    finally:
        at(page, "light", 1.0)
        page.resize(1600, 1000)


def test_legends_sit_outside_the_data_and_nothing_overlaps(page):
    """Each curve plot's legend is drawn beside its data, not over it; no text of the
    lab's plots is cut, elided or drawn over another (the views' layout check)."""
    for scale in (1.0, 1.5):
        at(page, "light", scale)
        fill(page)
        for name in CURVE_PLOTS:
            plot = getattr(page, name)
            legend = plot.legend
            assert legend is not None and legend.isVisible() and len(legend.items) == 3, name
            data = plot.getViewBox().sceneBoundingRect()
            drawn = drawn_legend(legend, plot.getAxis("top"))
            assert not drawn.isEmpty() and not overlap(drawn, data), (name, scale)
        panel_plots = getattr(page, "panel_plots", None)
        assert panel_plots is not None
        assert layout_problems(SimpleNamespace(plots=panel_plots)) == [], scale


def test_heatmaps_have_colour_bars_with_their_ranges(page):
    at(page, "light", 1.0)
    fill(page)
    for name, levels in (("sim_plot", (-1.0, 1.0)), ("attn_plot", (0.0, 1.0))):
        plot = getattr(page, name)
        bars = [item for item in plot.childItems() if isinstance(item, pg.ColorBarItem)]
        bars += [
            item
            for item in page.plots.scene().items()
            if isinstance(item, pg.ColorBarItem) and item.parentItem() is plot
        ]
        assert len(set(bars)) == 1, name
        (bar,) = set(bars)
        assert bar.isVisible() and tuple(bar.levels()) == levels, name
        # beside the data, not over it
        data = plot.getViewBox().sceneBoundingRect()
        assert not overlap(bar.sceneBoundingRect(), data), name


def test_dark_theme_gives_a_dark_background_and_light_text(page):
    at(page, "dark", 1.0)
    try:
        fill(page)
        assert page.plots.backgroundBrush().color() == QtGui.QColor(DARK.background)
        for name in ALL_PLOTS:
            plot = getattr(page, name)
            for side in ("left", "bottom"):
                axis = plot.getAxis(side)
                assert axis.textPen().color() == QtGui.QColor(DARK.foreground), (name, side)
            assert plot.titleLabel.opts.get("color") == DARK.foreground, name
        for name in CURVE_PLOTS:
            legend = getattr(page, name).legend
            assert pg.mkColor(legend.opts["labelTextColor"]) == QtGui.QColor(DARK.foreground)
    finally:
        at(page, "light", 1.0)


def test_live_progress_only_swaps_the_curves_arrays(page):
    """A progress message draws the longer curves in the plots' items: no plot is made
    anew until another method starts."""
    at(page, "light", 1.0)
    page._clear()
    for pe in ("learned", "rope"):
        progress(page, pe, 1, 10)
    plots = page.panel_plots
    before = {key: plots[key].rebuilds for key in ("loss", "accuracy")}
    for first in range(11, 200, 10):
        progress(page, "rope", first, 10)
    assert {key: plots[key].rebuilds for key in ("loss", "accuracy")} == before
    drawn = plots["loss"].plotted_arrays()
    np.testing.assert_array_equal(drawn["curve1.x"], np.arange(1, 201))
    progress(page, "alibi", 1, 10)  # a third method: a third curve
    assert plots["loss"].rebuilds == before["loss"] + 1


def test_an_open_lab_follows_the_display(window):
    """The lecture display's theme change (Ctrl+T) re-styles the open lab's plots."""
    from PySide6 import QtGui as Gui

    window.findChild(Gui.QAction, "action-train-lab").trigger()
    lab = window.train_page
    display = window.lecture.display
    try:
        display.set_theme_name("dark")
        assert lab.plots.backgroundBrush().color() == QtGui.QColor(DARK.background)
        assert lab.loss_plot.titleLabel.opts.get("color") == DARK.foreground
    finally:
        display.set_theme_name("light")
        lab.close()


def test_markers_at_full_accuracy_show_whole_in_a_short_plot(page):
    """The extrapolation plot's markers at accuracy 1 (and at its first and last
    length) are drawn whole inside its data area, also when the lab is small at 150 %
    (the lab opened at 1400 x 850 on Xvfb: its plot's data area was ~100 px high and
    the learned method's rings at 100 % accuracy were cut in half by its top edge, as
    the range's padding was a fixed 6 % of it)."""
    page.resize(1400, 850)
    try:
        for scale in (1.0, 1.5):
            at(page, "light", scale)
            fill(page)
            view = page.extra_plot.getViewBox()
            data = view.sceneBoundingRect()
            assert 60 < data.height() < 200, data  # (short, as on a small screen)
            cut = []
            for item in page.markers["extrapolation"]:
                size = item.opts["symbolSize"]
                pen = item.opts["symbolPen"].widthF()
                half = size / 2 + pen / 2
                xs, ys = item.getData()
                for x, y in zip(xs, ys, strict=True):
                    if not np.isfinite(y):
                        continue
                    c = view.mapViewToScene(pg.Point(float(x), float(y)))
                    if (
                        c.x() - half < data.left() - 0.5
                        or c.x() + half > data.right() + 0.5
                        or c.y() - half < data.top() - 0.5
                        or c.y() + half > data.bottom() + 0.5
                    ):
                        cut.append((scale, float(x), float(y)))
            assert cut == []
    finally:
        at(page, "light", 1.0)
        page.resize(1600, 1000)


@pytest.mark.parametrize("scale", [1.5, 2.0])
def test_every_plot_keeps_its_data_in_sight_on_a_small_screen(page, scale):
    """On a 1280 x 720 screen at 150 % and 200 % every plot of the lab keeps a legible
    data area (a third of the smallest legible plot's height, 60 px at 100 %), the lab
    scrolling its plots as a view does; at 150 % nothing overlaps or is cut. Before,
    the three rows were squeezed into the window: the extrapolation plot, the lab's
    result, had 27 px of data at 150 % and none at 200 % (the RoPE frequencies none),
    its markers drawn over its legend (seen on Xvfb at 150 %). Nothing overlaps or is
    cut there either: at 200 % the attention map's and the RoPE frequencies' bottom
    axis titles sat 4 px over their tick labels, the RoPE plot's left title 21 px (a
    plot scrolled out of sight had never been painted, so its axes kept a new axis'
    room for their labels); the lab now sizes its axes before it paints."""
    from gui.widgets.grid_flow import MIN_PANEL_HEIGHT

    page.resize(1280, 720)
    try:
        at(page, "light", scale)
        fill(page)
        least = MIN_PANEL_HEIGHT * scale / 3
        heights = {
            key: round(plot.plot.getViewBox().height()) for key, plot in page.panel_plots.items()
        }
        assert min(heights.values()) >= least, heights
        assert page.plots.height() > page.height()  # (the plots scroll)
        assert layout_problems(SimpleNamespace(plots=page.panel_plots)) == []
    finally:
        at(page, "light", 1.0)
        page.resize(1600, 1000)


def test_the_results_summary_can_be_read_whole_at_200_percent(qapp):
    """Six methods' accuracies at 200 % in the lab's own 1400 x 850 window, its main
    window styled as the lecture display styles it: the summary, the lab's result in
    words, was squeezed under "Use in Learned view" with its last methods cut off
    (a form too tall for the window), then, in a scrolling column, kept the height of
    its previous text (408 px of 612). It now shows whole, every field at full height."""
    from gui.theme import stylesheet
    from gui.widgets.train_page import TrainPage

    saved = current_theme()
    host = QtWidgets.QMainWindow()
    try:
        host.setStyleSheet(stylesheet(set_theme("light", ui_scale=2.0)))
        host.resize(1600, 1000)
        host.show()
        page = TrainPage(host)
        page.show()
        settle(page)
        assert page.size() == QtCore.QSize(1400, 850)
        page.set_lengths(32, [16, 32, 48, 64, 96, 128])
        rng = np.random.default_rng(0)
        for pe in ("none", "sinusoidal", "learned", "rope", "alibi", "t5"):
            res = result(pe, rng)  # the lab's six evaluation lengths, 0.5x to 4x of 32
            res["lengths"] = [16, 32, 48, 64, 96, 128]
            res["accuracy"] = [1.0, 1.0] + ([None] * 4 if pe == "learned" else [0.5] * 4)
            res["reasons"] = [""] * 6
            page.status.setText(f"{pe} on cpu: step 20  loss 2.7759  acc 0.070")
            page._on_method_done(res)
            for _ in range(5):  # (one method after another, as a run ends them)
                QtWidgets.QApplication.processEvents()
        summary = page.summary
        assert summary.text().count("<br>") == 5
        assert summary.height() >= summary.heightForWidth(summary.width())  # not cut
        for widget in (page.use_button, page.attn_method, page.start_button, page.methods):
            assert widget.height() >= widget.minimumSizeHint().height(), widget.objectName()
        page.close()
    finally:
        host.close()
        host.deleteLater()
        set_theme(saved.name, ui_scale=saved.ui_scale)
