"""Hover readout next to the cursor (gui/plotting/hover.py): label, cell outline, crosshair."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore

from core.formula import minus_signs, powers_of_ten
from gui.theme import current_theme, set_theme


@pytest.fixture
def learned(window):
    window.set_view("learned")
    assert window.wait_idle(30)
    return window.views["learned"]


def cell_scene_pos(plot, x: float, y: float) -> QtCore.QPointF:
    return plot.plot.getViewBox().mapViewToScene(QtCore.QPointF(x, y))


def test_mouse_over_a_heatmap_cell_labels_its_exact_value_and_outlines_it(learned, qtbot):
    plot = learned.plots["table"]
    col, row = 3, 5
    x, y = float(plot.panel.x_coords[col]), float(plot.panel.y_coords[row])
    value = float(plot.panel.image[row, col])
    canvas = learned.canvas
    assert not plot.hover.shown
    point = canvas.mapFromScene(cell_scene_pos(plot, x + 0.2, y - 0.2))  # inside the cell
    qtbot.mouseMove(canvas.viewport(), point)
    if not plot.hover.shown:  # platforms that deliver no synthetic move: the scene's signal
        canvas.scene().sigMouseMoved.emit(canvas.mapToScene(point))
    assert plot.hover.shown
    # the value as the colour bar's ticks write it: a negative one with the minus U+2212
    assert powers_of_ten(minus_signs(f"{value:.6g}")) in plot.hover.text()
    assert plot.hover.text() == powers_of_ten(minus_signs(plot.panel.probe(x, y)))
    xs, ys = plot.panel.x_coords, plot.panel.y_coords
    dx, dy = float(xs[1] - xs[0]), float(ys[1] - ys[0])
    expected = QtCore.QRectF(x - dx / 2, y - dy / 2, dx, dy)
    rect = plot.hover.outline_rect()
    assert rect is not None
    for got, want in zip(
        (rect.left(), rect.top(), rect.width(), rect.height()),
        (expected.left(), expected.top(), expected.width(), expected.height()),
        strict=True,
    ):
        assert got == pytest.approx(want, abs=1e-9)
    assert not plot.hover.vline.isVisible()  # heatmaps: an outline, no crosshair
    # the footer line shows the same readout
    assert learned.status.text() == plot.hover.text()
    # other plots of the view show nothing
    assert not any(p.hover.shown for k, p in learned.plots.items() if k != "table")
    # leaving the canvas hides it
    QtCore.QCoreApplication.sendEvent(canvas.viewport(), QtCore.QEvent(QtCore.QEvent.Type.Leave))
    assert not plot.hover.shown and plot.hover.outline_rect() is None


def test_moving_to_another_plot_moves_the_label_and_the_font_follows_the_ui_scale(learned):
    table, norms = learned.plots["table"], learned.plots["norms"]
    scene = learned.canvas.scene()
    scene.sigMouseMoved.emit(cell_scene_pos(table, 2.0, 2.0))
    assert table.hover.shown
    assert table.hover.label.text_item.font().pointSize() == current_theme().font_pt(16)
    set_theme(ui_scale=2.0)  # the back row: twice as large (conftest restores the theme)
    scene.sigMouseMoved.emit(cell_scene_pos(table, 2.0, 3.0))
    assert table.hover.label.text_item.font().pointSize() == 32
    vb = norms.plot.getViewBox()
    scene.sigMouseMoved.emit(vb.sceneBoundingRect().center())
    assert not table.hover.shown
    assert norms.hover.shown and norms.hover.text() == norms.probe_text(
        vb.sceneBoundingRect().center()
    )
    # near the canvas's right edge the label flips left: all of it stays on screen
    corner = vb.sceneBoundingRect().topRight() + QtCore.QPointF(-2.0, 2.0)
    scene.sigMouseMoved.emit(corner)
    assert norms.hover.shown
    area = learned.canvas.mapToScene(learned.canvas.viewport().rect()).boundingRect()
    assert area.contains(norms.hover.label.sceneBoundingRect())
    assert norms.hover.label.sceneBoundingRect().right() < corner.x()
    scene.sigMouseMoved.emit(vb.sceneBoundingRect().center())
    # a curve plot: a crosshair at the cursor, no outline
    assert norms.hover.outline_rect() is None
    assert norms.hover.vline.isVisible() and norms.hover.hline.isVisible()
    centre = vb.mapSceneToView(vb.sceneBoundingRect().center())
    assert norms.hover.vline.value() == pytest.approx(centre.x())


def test_the_label_is_hidden_where_there_is_nothing_to_read(learned):
    table = learned.plots["table"]
    scene = learned.canvas.scene()
    scene.sigMouseMoved.emit(cell_scene_pos(table, 2.0, 2.0))
    assert table.hover.shown
    scene.sigMouseMoved.emit(QtCore.QPointF(-50.0, -50.0))  # outside every plot
    assert not any(p.hover.shown for p in learned.plots.values())
    assert np.isfinite(float(table.panel.image[2, 2]))


def test_the_label_follows_new_data_and_hides_with_its_plot(window):
    """A readout left under a resting cursor follows the data (a nudge of m on stage
    read "query at m=16" after m went back to 5) and goes with its plot when a focus
    or reveal hides that plot (it stayed over the focused plot's axis)."""
    window.set_view("rope")
    assert window.wait_idle(30)
    widget = window.views["rope"]
    # (the course's cos-only score, unlike the rotation's, depends on m + n)
    plot = widget.plots["simplified"]
    point = plot.plot.getViewBox().mapViewToScene(QtCore.QPointF(50.0, 0.0))
    plot.hover.move(point)
    before = plot.hover.text()
    assert plot.hover.shown and before == widget.readout_at("simplified", 50.0, 0.0)
    assert window.states["rope"].set_param("m", 16, merge=False)
    assert window.wait_idle(30)
    after = plot.hover.text()
    assert plot.hover.shown and after != before, after
    assert after == widget.readout_at("simplified", 50.0, 0.0)
    focus = window.lecture.focus
    numbered = focus.numbered()
    assert focus.toggle_number(numbered.index("plane") + 1)
    assert window.wait_idle(30)
    assert not plot.plot.isVisible() and not plot.hover.shown
    assert focus.escape()


def test_a_canvas_closed_under_a_live_plot_leaves_the_readout_quiet(qtbot):
    """pyqtgraph's ``GraphicsView.close()`` deletes the scene's items, then lets its
    viewport go, which sends it a Leave: the readout hid its deleted items and raised
    (inside a failed test's teardown, where the plot was still referenced, PySide then
    crashed the whole run instead of reporting the failure)."""
    import pyqtgraph as pg

    from gui.plotting.panel_plot import PanelPlot

    win = pg.GraphicsLayoutWidget()
    qtbot.addWidget(win)
    plot = PanelPlot(win.addPlot())  # kept alive past the close, as a traceback keeps it
    port = win.viewport()
    win.scene().clear()  # what close() does first
    leave = QtCore.QEvent(QtCore.QEvent.Type.Leave)
    assert plot.hover.eventFilter(port, leave) is False  # raised RuntimeError before
    assert not plot.hover.shown


def test_a_readout_wider_than_the_stage_breaks_into_lines_inside_it(window):
    """On stage at 200 % a curve plot's readout (x and six values) was one line wider
    than the stage: near a plot's right edge it was clamped to the left edge and cut at
    the right one (Xvfb, 1920 x 1080, laser pointer). It breaks into lines after its
    " — " and ", " and stays whole inside the canvas, flipped left of the cursor."""
    window.set_view("sinusoidal")
    assert window.wait_idle(30)
    widget = window.views["sinusoidal"]
    plot = widget.plots["waves"]
    set_theme(ui_scale=2.0)  # conftest restores the theme
    vb = plot.plot.getViewBox()
    box = vb.sceneBoundingRect()
    area = widget.canvas.mapToScene(widget.canvas.viewport().rect()).boundingRect()
    for corner in (
        box.topRight() + QtCore.QPointF(-3.0, 3.0),
        box.bottomRight() + QtCore.QPointF(-3.0, -3.0),
    ):
        plot.hover.move(corner)
        assert plot.hover.shown
        text = plot.hover.text()
        assert text == plot.probe_text(corner) and text.count(",") >= 5, text
        label = plot.hover.label.mapRectToScene(plot.hover.label.rect())
        assert area.contains(label), (label, area)
        assert not label.contains(corner)  # beside the cursor, not over what it points at
        assert "\n" in plot.hover.label.text_item.text()  # broken, not shrunk to one line
        assert plot.hover.label.text_item.font().pointSizeF() == pytest.approx(32, abs=0.5)


def test_a_series_of_several_lines_reads_their_range_never_nan(window):
    """ALiBi's "all 8 heads" is one series of 8 lines broken by NaN: the readout said
    "distance i − j = nan — all 8 heads (…): nan" wherever the cursor was (Xvfb, stage);
    it reads the distance and the heads' range of bias there."""
    from gui.plotting.panel_plot import nearest_values

    window.set_view("alibi")
    assert window.wait_idle(30)
    plot = window.views["alibi"].plots["distance"]
    vb = plot.plot.getViewBox()
    heads = window.views["alibi"].data.params["heads"]
    for x in (0.3, 5.0, 12.6):
        text = plot.probe_text(vb.mapViewToScene(QtCore.QPointF(x, -1.0)))
        assert text is not None and "nan" not in text, text
        d = round(x)
        assert text.startswith(f"distance i − j = {d} — all {heads} heads"), text
        if d:  # from head 1's −0.5·d to head 8's −2^−8·d, with the minus U+2212
            assert f"): −{0.5 * d:.6g} … −{d / 256:.6g}," in text, text
            assert "-" not in text, text
    xs = np.array([0.0, 1.0, np.nan, 0.0, 1.0])
    assert nearest_values(xs, np.array([0.0, -2.0, np.nan, 0.0, -1.0]), 0.9) == (1.0, "-2 … -1")
    assert nearest_values(xs, -xs, 0.1) == (0.0, "-0")
    assert nearest_values(np.array([np.nan]), np.array([1.0]), 0.0) is None
    assert nearest_values(np.array([1.0, 2.0]), np.array([np.nan, 3.0]), 0.9) == (
        1.0,
        "no value",
    )


def test_a_curve_without_a_value_there_reads_no_value(window):
    """Compare's similarity plot (lecture scene 20) read "learned (random): nan" past
    the learned table's last row (distance 106 of a 32-row table, on stage), Python's
    word for it, in front of the class. It reads "no value", as the plot beside it
    says (here the window's Compare, distance 50)."""
    window.set_view("compare")
    assert window.wait_idle(30)
    plot = window.views["compare"].plots["distance"]
    vb = plot.plot.getViewBox()
    text = plot.probe_text(vb.mapViewToScene(QtCore.QPointF(50.0, 0.5)))
    assert text is not None and text.startswith("distance Δ = i − j = 50 — "), text
    assert "learned (random): no value" in text and "nan" not in text, text


def test_an_arrows_panel_reads_its_arrows_not_its_trails(window):
    """The clock's small hand panels read as curves: "= 0.718952 — k trail: 0.605565,
    k trail: …" (no x name, each trail segment listed). They read the arrows: each
    one's angle and tip."""
    window.set_view("clock")
    assert window.wait_idle(30)
    plot = window.views["clock"].plots["hand0"]
    vb = plot.plot.getViewBox()
    text = plot.probe_text(vb.mapViewToScene(QtCore.QPointF(0.2, 0.2)))
    arrows = {a.name: a for a in plot.panel.arrows}
    assert text is not None and "trail" not in text and not text.startswith(" ="), text
    q = arrows["q"]
    angle = float(np.degrees(np.arctan2(q.y, q.x)))
    want = f"q: {angle:.1f}° ({q.x:.3g}, {q.y:.3g}), k: "
    assert text.startswith(minus_signs(want)) and "-" not in text, text
    assert "−0.416" in text, text  # (q at 2 rad, 114.6°: its tip's x is negative)


def test_a_readout_part_wider_than_the_canvas_breaks_after_its_name(qapp):
    """RoPE's rotation frequencies at 300 % in a 1920 x 1080 window (the canvas 902 px
    wide beside the parameter dock): the readout's part "longrope short_factor
    (L ≤ 2048): 4.6955e-05," alone was wider than the canvas at the smallest font the
    label takes (three fifths); the box, clamped to the canvas's left edge, ran past its
    right one and the value was cut ("… 2048): 4.6955e", seen on Xvfb). Such a part
    breaks after its ": " (the name, then the value) before the font shrinks."""
    from gui.plotting.hover import ValueLabel

    text = (
        "pair index i = 31 — unscaled: 0.000133352, linear ×4: 3.3338e-05, "
        "dynamic ×4: 0.000133352, yarn ×4: 3.3338e-05, "
        "longrope short_factor (L ≤ 2048): 4.6955e-05, llama3 ×4: 3.3338e-05"
    )
    set_theme(ui_scale=3.0)  # conftest restores the theme
    label = ValueLabel()
    label.set(text, current_theme(), max_width=902.0)
    assert label.rect().width() <= 902.0, label.rect().width()
    lines = label.text_item.text().split("\n")
    assert "longrope short_factor (L ≤ 2048):" in lines and "4.6955e-05," in lines, lines
    assert label.toPlainText() == text
    set_theme(ui_scale=1.0)  # a part that fits keeps its name and value on one line
    label.set(text, current_theme(), max_width=902.0)
    assert "longrope short_factor (L ≤ 2048): 4.6955e-05," in label.text_item.text()


def test_a_readout_stays_in_the_part_of_a_scrolled_view_in_sight(window, show_view):
    """RoPE at 300 % in a 1920 x 1080 window scrolls (its canvas is 6949 px tall in a
    958 px view); hovered 50 px below the view's top, on the rotation frequencies, the
    readout (591 px tall) went above the cursor as if the whole canvas were on screen:
    its top at -555 px, all but its last line scrolled out of sight. It keeps to the
    part in sight: below the cursor, whole inside the view."""
    widget = show_view(window, "rope", (1920, 1080), 3.0)
    area, bar = widget.scroll_area, widget.scroll_area.verticalScrollBar()
    plot = widget.plots["frequencies"]
    box = plot.plot.getViewBox().sceneBoundingRect()
    port = area.viewport()

    def in_view(scene_point: QtCore.QPointF) -> QtCore.QPoint:
        return widget.canvas.mapTo(port, widget.canvas.mapFromScene(scene_point))

    try:
        bar.setValue(bar.value() + in_view(box.topLeft()).y() - 20)
        cursor = box.topLeft() + QtCore.QPointF(box.width() / 2, 30.0)
        assert in_view(cursor).y() == 50
        plot.hover.move(cursor)
        assert plot.hover.shown
        label = plot.hover.label.mapRectToScene(plot.hover.label.rect())
        top, bottom = in_view(label.topLeft()).y(), in_view(label.bottomLeft()).y()
        assert top >= 0 and bottom <= port.height(), (top, bottom, port.height())
        assert top > 50  # below the cursor: above it there is no room in sight
    finally:
        plot.hover.hide()
        bar.setValue(0)


def test_scrolling_the_view_takes_the_readout_away(window, show_view):
    """A readout shown by RoPE's first plot at 300 % stayed where the plot went when
    the wheel scrolled the view without a mouse move: over the next row's title, its
    top cut (Xvfb). Scrolling hides it; the next mouse move reads what is there."""
    widget = show_view(window, "rope", (1920, 1080), 3.0)
    bar = widget.scroll_area.verticalScrollBar()
    plot = widget.plots["plane"]
    box = plot.plot.getViewBox().sceneBoundingRect()
    try:
        bar.setValue(0)
        plot.hover.move(box.center())
        assert plot.hover.shown
        bar.setValue(bar.singleStep() * 3)
        assert bar.value() > 0 and not plot.hover.shown
        plot.hover.move(box.center())  # (a mouse move over it again)
        assert plot.hover.shown
    finally:
        plot.hover.hide()
        bar.setValue(0)


def test_a_readout_writes_tiny_values_as_powers_of_ten(window):
    """RoPE's rotation frequencies reach 10⁻⁵ (a log axis): the readout wrote them as
    Python formats them ("linear ×4: 3.3338e-05"); it writes "3.3338·10⁻⁵", as the
    titles, tick labels and verdicts write a power of ten, with the same digits."""
    assert powers_of_ten("a: 4.6955e-05, b: −2.65e+06 (GPT-2)") == (
        "a: 4.6955·10⁻⁵, b: −2.65·10⁶ (GPT-2)"
    )
    window.set_view("rope")
    assert window.wait_idle(30)
    widget = window.views["rope"]
    series = widget.plots["frequencies"].panel.series[0]
    last = float(series.x[-1])
    assert float(series.y[-1]) < 1e-3  # (the slowest pair: a tiny frequency)
    readout = widget.readout_at("frequencies", last, -4.0)  # (a log y axis: 10⁻⁴)
    assert "·10⁻" in readout and "e-0" not in readout, readout
    assert f"{float(series.y[-1]):.6g}".split("e")[0] in readout, readout


def test_the_notes_line_drops_the_readout_when_the_cursor_leaves_the_plots(window):
    """On stage (lecture scene 20) the notes line kept "distance Δ = i − j = 106 —
    sinusoidal: 0.45106, …" after the pointer went up to the heading: the readout
    went from the plot, its text stayed under the stage. Leaving the plots' canvas
    shows the notes (or the hover hint) again."""
    window.set_view("compare")
    assert window.wait_idle(30)
    widget = window.views["compare"]
    idle = widget.status_text()
    plot = widget.plots["distance"]
    centre = plot.plot.getViewBox().sceneBoundingRect().center()
    widget.canvas.scene().sigMouseMoved.emit(centre)  # (a move over its data)
    read = widget.status_text()
    assert read != idle and "distance" in read, read
    QtCore.QCoreApplication.sendEvent(
        widget.canvas.viewport(), QtCore.QEvent(QtCore.QEvent.Type.Leave)
    )
    assert widget.status_text() == idle


@pytest.mark.parametrize("scale", [1.0, 2.0])
def test_the_defined_positions_plot_reads_which_methods_give_a_value(window, show_view, scale):
    """Compare's "Defined for which positions?" (lecture scene 20) read "T5 / Shaw: 0,
    ALiBi: 1, RoPE: 2, …", the lanes' drawing heights, and its box ran over the plot
    beside it (its legend). It says which methods give a value at the hovered position,
    and the box stays inside its own plot."""
    widget = show_view(window, "compare", (1920, 1080), scale, present=scale > 1)
    plot = widget.plots["extrapolation"]
    t = widget.data.params["train_len"]
    vb = plot.plot.getViewBox()
    inside = vb.mapViewToScene(QtCore.QPointF(t - 2, 2.0))
    assert plot.probe_text(inside) == (
        f"position {t - 2}: learned (row {t - 2} of {t}), sinusoidal, RoPE, ALiBi, "
        "T5 / Shaw defined"
    )
    past = vb.mapViewToScene(QtCore.QPointF(t + 8, 4.0))
    assert plot.probe_text(past) == (
        f"position {t + 8}: learned — no value (beyond its {t} rows); sinusoidal, RoPE, "
        "ALiBi, T5 / Shaw defined"
    )
    box = vb.sceneBoundingRect()
    for corner in (vb.mapViewToScene(QtCore.QPointF(0.0, 4.4)), box.center(), past):
        plot.hover.move(corner)
        assert plot.hover.shown
        label = plot.hover.label.mapRectToScene(plot.hover.label.rect())
        assert plot.plot.sceneBoundingRect().contains(label), (label, plot.plot.sceneBoundingRect())


def test_a_marker_is_read_only_at_its_own_x(window):
    """RoPE's score plot marks m − n with one dot ("m − n = −4"): the readout named it
    at every offset ("offset m − n = 51 — query at m=5: 3.4761, …, m − n = −4:
    −4.66508", Xvfb, lecture scene 8 focused), a value that is not there. It reads the
    dot at its own offset, and leaves it out elsewhere."""
    window.set_view("rope")
    assert window.wait_idle(30)
    plot = window.views["rope"].plots["score"]
    marker = plot.panel.series[-1]
    assert marker.style == "scatter" and len(marker.x) == 1, marker
    at = float(marker.x[0])
    vb = plot.plot.getViewBox()
    there = plot.probe_text(vb.mapViewToScene(QtCore.QPointF(at, 0.0)))
    assert there is not None and minus_signs(f"{marker.name}: {float(marker.y[0]):.6g}") in there
    far = plot.probe_text(vb.mapViewToScene(QtCore.QPointF(at + 55, 0.0)))
    assert far is not None and far.startswith(minus_signs(f"offset m − n = {at + 55:.6g} — "))
    assert minus_signs(marker.name) not in far, far
    assert far.count(":") == len(plot.panel.series) - 1, far  # the two queries' curves


def test_focusing_a_plot_and_back_takes_its_readout_away(window):
    """A double-click focused the plot under the cursor and its readout stayed where
    the small plot had put it, over the focused plot's title and legend, reading a
    position the cursor was no longer on; Esc back left that box over the plot beside
    it (Xvfb, 1920 × 1080, Sinusoidal). The readout goes when its plot is laid out
    anew, and the next mouse move reads what is there."""
    window.resize(1920, 1080)
    window.set_view("sinusoidal")
    assert window.wait_idle(30)
    focus = window.lecture.focus
    plot = window.views["sinusoidal"].plots["waves"]
    centre = plot.plot.getViewBox().sceneBoundingRect().center()
    plot.hover.move(centre)
    assert plot.hover.shown
    assert focus.focus("waves")
    assert window.wait_idle(30)
    assert not plot.hover.shown
    plot.hover.move(plot.plot.getViewBox().sceneBoundingRect().center())
    assert plot.hover.shown  # (the next move reads again)
    assert focus.unfocus()
    assert window.wait_idle(30)
    assert not plot.hover.shown
