"""Live use in a lecture (issue 13): legends that stay, sliders that reach every value,
keyboard focus that leaves the lecture keys working, and smaller lecture-room defects."""

from __future__ import annotations

import gc
from typing import Any

import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui, QtWidgets
from qt_events import wheel_down
from tiers import FULL, gate_cover
from window_reuse import reused_window, reused_window_holder  # noqa: F401  (fixtures)

from core.params import Param
from core.viewdata import ComputeContext
from core.views import VIEW_IDS, VIEWS
from gui.plotting.panel_plot import MAX_LEGEND_ENTRIES, wrapped_rich_text

Key = QtCore.Qt.Key
Mod = QtCore.Qt.KeyboardModifier


@pytest.fixture
def window(reused_window):  # noqa: F811
    """This module's tests reuse one main window where they can (``window_reuse``)."""
    return reused_window


# --------------------------------------------------------------------------- legends
def _walk_values(param: Param) -> list[Any]:
    """Values to visit for ``param``: its extremes (or every choice), then the default."""
    if param.kind in ("int", "float"):
        values: list[Any] = [param.minimum, param.maximum]
        if param.kind == "int":
            values = [int(v) for v in values]
    elif param.kind == "bool":
        values = [not param.default]
    elif param.kind == "choice":
        values = [c for c in param.choices if c != param.default]
    elif param.kind == "int_list":
        # one line (no legend), four lines far apart (the reported case), more than a
        # legend can hold, then the default again
        lo = int(param.minimum)
        values = [(lo,), (lo, lo + 10, lo + 20, lo + 30), tuple(range(lo, lo + 10))]
    elif param.kind == "text":
        values = ["", "a " * (param.max_items // 2)]
    else:
        values = []
    return [*values, param.default]


def _legend_problems(plots, where: str) -> list[str]:
    """Every curves plot with 2..MAX_LEGEND_ENTRIES lines (or a line and a band) shows a
    visible legend with one entry per line, labelled with the line's name, then one per
    band (a range without data, e.g. the learned table's "no row")."""
    problems = []
    for key, plot in plots.items():
        panel = plot.panel
        if panel is None or panel.kind != "curves":
            continue
        names = [s.name for s in panel.series] + [b.label for b in panel.bands]
        names = [wrapped_rich_text(name) for name in names]  # (drawn as the plot draws them)
        if not (len(names) > 1 and len(panel.series) <= MAX_LEGEND_ENTRIES):
            shown = plot.plot.legend is not None and plot.plot.legend.isVisible()
            if shown:
                problems.append(f"{where}: {key} has {len(names)} lines and shows a legend")
            continue
        legend = plot.legend
        if legend is None or legend.scene() is None or not legend.isVisible():
            problems.append(f"{where}: {key} has {len(names)} lines and no visible legend")
            continue
        labels = [label.text for _sample, label in legend.items]
        if labels != names:
            problems.append(f"{where}: {key} legend {labels} != lines {names}")
    return problems


def _live_legends() -> int:
    gc.collect()
    # type(o), not isinstance: isinstance also reads an object's __class__, which a
    # deprecated object of torch's (torch.distributed.reduce_op, there once a test of
    # this worker imported torch) answers with a FutureWarning
    return sum(issubclass(type(o), pg.LegendItem) for o in gc.get_objects())


@pytest.mark.parametrize("view_id", gate_cover(VIEW_IDS, keep=("rope",)))
def test_legends_survive_every_parameter_at_min_default_max(qtbot, view_id):
    from gui.widgets.view_widget import ViewWidget

    spec = VIEWS[view_id]
    widget = ViewWidget(spec)
    qtbot.addWidget(widget)
    widget.resize(1200, 800)
    widget.show()
    ctx = ComputeContext(max_cells=256, max_points=512)
    defaults = spec.model.defaults()
    widget.show_data(spec.compute(defaults, ctx))
    legends_at_defaults = {k for k, p in widget.plots.items() if p.legend is not None}
    problems = _legend_problems(widget.plots, "defaults")
    visited = 0
    for param in spec.model.params:
        for value in _walk_values(param):
            try:
                data = spec.compute(spec.model.updated(defaults, **{param.name: value}), ctx)
            except ValueError:
                continue  # rejected (e.g. a pair beyond the head size): the window says why
            widget.show_data(data)
            visited += 1
            problems += _legend_problems(widget.plots, f"{param.name}={value!r}")
        # back at the defaults: the same plots carry a legend again
        back = {k for k, p in widget.plots.items() if p.legend is not None}
        if back != legends_at_defaults:
            problems.append(f"after {param.name}: legends on {back}, not {legends_at_defaults}")
    assert visited >= len(spec.model.params)
    assert not problems, "\n".join(problems)
    # rebuilds reuse each plot's legend: none is left behind, alive, per rebuild


def test_a_plot_keeps_one_legend_through_rebuilds(qtbot):
    """Rebuilds reuse the plot's legend: none is left behind, alive, per rebuild."""
    import numpy as np

    from core.viewdata import Panel, Series
    from gui.plotting.panel_plot import PanelPlot

    canvas = pg.GraphicsLayoutWidget()
    qtbot.addWidget(canvas)
    plot = PanelPlot(canvas.addPlot())
    x = np.arange(10.0)

    def panel(lines: int) -> Panel:
        series = [Series(f"line {i}", x, x * i) for i in range(lines)]
        return Panel("p", "lines", "curves", series=series)

    before = _live_legends()
    for lines in (4, 1, 8, 3, 2, 5) * 3:
        plot.show(panel(lines))
        assert (plot.legend is not None) == (1 < lines <= MAX_LEGEND_ENTRIES)
    assert _live_legends() - before <= 1


def test_sinusoidal_legend_returns_after_dims_change_in_the_window(window):
    """The reported case, through the real widgets: four far-apart dims, then Ctrl+R."""
    window.set_view("sinusoidal")
    state = window.states["sinusoidal"]
    assert state.set_param("d_model", 512)
    assert state.set_param("dims", (0, 100, 200, 300), merge=False)
    assert window.wait_idle()
    problems = _legend_problems(window.views["sinusoidal"].plots, "dims=0,100,200,300")
    state.reset()
    assert window.wait_idle()
    problems += _legend_problems(window.views["sinusoidal"].plots, "after reset")
    assert not problems, "\n".join(problems)


# --------------------------------------------------------------------------- sliders
_INT_PARAMS = [
    (view_id, p.name)
    for view_id in VIEW_IDS
    for p in VIEWS[view_id].model.params
    if p.kind == "int"
]


def _allowed(model, values, name, value) -> bool:
    try:
        model.updated(values, **{name: value})
    except ValueError:
        return False
    return True


@pytest.mark.parametrize(("view_id", "name"), _INT_PARAMS)
def test_integer_slider_steps_are_small_and_reach_both_ends(qtbot, view_id, name):
    from gui.widgets.param_panel import ParamPanel
    from gui.widgets.state import ViewState

    model = VIEWS[view_id].model
    state = ViewState(model)
    panel = ParamPanel(state)
    qtbot.addWidget(panel)
    param, slider = model[name], panel.rows[name].slider
    step = int(param.step or 1)
    v0 = param.default
    limit = max(step, 0.02 * abs(v0))
    SA = QtWidgets.QAbstractSlider.SliderAction
    moves = {
        "single step up": (lambda: slider.triggerAction(SA.SliderSingleStepAdd), +1),
        "single step down": (lambda: slider.triggerAction(SA.SliderSingleStepSub), -1),
        "position + 1": (lambda: slider.setValue(slider.value() + 1), +1),
        "position - 1": (lambda: slider.setValue(slider.value() - 1), -1),
        "arrow right": (lambda: qtbot.keyClick(slider, Key.Key_Right), +1),
        "arrow left": (lambda: qtbot.keyClick(slider, Key.Key_Left), -1),
    }
    for what, (move, sign) in moves.items():
        state.reset()
        move()
        got = state.values[name]
        assert abs(got - v0) <= limit, f"{what}: {v0} → {got} (more than {limit})"
        if _allowed(model, state.values, name, v0 + sign * step) and (
            v0 + sign * step <= param.upper(state.values)  # (the end of a limited one)
        ):
            assert sign * (got - v0) > 0, f"{what}: stuck at {v0}"
        if what.startswith("arrow"):
            assert got in (v0, v0 + sign * step), f"{what}: {v0} → {got}, not one step"
    # Page Up/Down: a larger step (about ten positions), still far from a jump across
    state.reset()
    slider.triggerAction(SA.SliderPageStepAdd)
    got = state.values[name]
    if _allowed(model, state.values, name, v0 + 2 * step) and v0 + 2 * step <= param.upper(
        state.values
    ):
        assert got - v0 > step, f"page step only {v0} → {got}"
    assert got - v0 <= max(10 * step, 0.11 * abs(v0)), f"page step {v0} → {got}"
    # both ends are reachable by dragging the handle (a limited parameter's end: the
    # last value the view draws, e.g. seq_len − 1 for a query position)
    upper = param.upper(model.defaults())
    for end, position in ((param.minimum, slider.minimum()), (upper, slider.maximum())):
        state.reset()
        slider.setSliderPosition(position)
        if _allowed(model, model.defaults(), name, int(end)):
            assert state.values[name] == end, f"slider end gives {state.values[name]}, not {end}"


@pytest.mark.parametrize("view_id", ["rope", "learned", "sinusoidal"])
def test_every_slider_step_of_a_wide_integer_range_is_at_most_two_percent(qtbot, view_id):
    """Walk each wide integer slider position by position over its whole range."""
    from gui.widgets.param_panel import ParamPanel
    from gui.widgets.state import ViewState

    panel = ParamPanel(ViewState(VIEWS[view_id].model))
    qtbot.addWidget(panel)
    for name, row in panel.rows.items():
        p = row.param
        if p.kind != "int" or p.maximum - p.minimum <= 1000:
            continue
        values = [
            row._slider_to_value(pos)
            for pos in range(row.slider.minimum(), row.slider.maximum() + 1)
        ]
        assert values[0] == p.minimum and values[-1] == p.upper(panel.state.values), name
        for a, b in zip(values, values[1:], strict=False):
            assert 0 < b - a <= max(int(p.step or 1), 0.02 * a), f"{name}: {a} → {b}"


# --------------------------------------------------------------------------- focus
def _lecture(window):
    from gui.lecture.controller import Lecture

    return window.feature(Lecture)


def _focus(window, qtbot, widget) -> None:
    window.activateWindow()
    widget.setFocus(QtCore.Qt.FocusReason.MouseFocusReason)
    qtbot.waitUntil(lambda: QtWidgets.QApplication.focusWidget() is widget, timeout=2000)


def _focused() -> QtWidgets.QWidget:
    return QtWidgets.QApplication.focusWidget()


def test_enter_in_a_spin_box_returns_focus_and_ctrl_z_undoes(window, qtbot):
    window.set_view("sinusoidal")
    state = window.states["sinusoidal"]
    spin = window.panels["sinusoidal"].rows["seq_len"].editor
    _focus(window, qtbot, spin)
    spin.selectAll()
    qtbot.keyClicks(spin, "200")
    qtbot.keyClick(spin, Key.Key_Return)
    assert state.values["seq_len"] == 200
    stage = window.views["sinusoidal"]
    assert _focused() is stage, f"focus stayed on {_focused()!r}"
    qtbot.keyClick(_focused(), Key.Key_Z, Mod.ControlModifier)
    assert state.values["seq_len"] == 100
    qtbot.keyClick(_focused(), Key.Key_Z, Mod.ControlModifier | Mod.ShiftModifier)
    assert state.values["seq_len"] == 200


def test_space_and_ctrl_z_after_typing_in_a_spin_box(window, qtbot):
    """Typed into a spin box, not entered: Space plays (the spin box's line edit took
    Space as a character it ignores, and nothing played, on a real X display too) from
    the value typed, and pauses again; typed again, Ctrl+Z takes that value back (it
    undid an older change and left the typed text in the field over plots drawn for
    the value before)."""
    window.set_view("sinusoidal")
    state = window.states["sinusoidal"]
    sweep = _lecture(window).sweep
    spin = window.panels["sinusoidal"].rows["seq_len"].editor
    _focus(window, qtbot, spin)
    spin.selectAll()
    qtbot.keyClicks(spin, "64")
    assert state.values["seq_len"] == 100  # (not entered yet)
    qtbot.keyClick(_focused(), Key.Key_Space)
    try:
        assert sweep.playing
        assert state.values["seq_len"] == 64 and spin.text() == "64"
    finally:
        qtbot.keyClick(_focused(), Key.Key_Space)
    assert not sweep.playing
    before = state.values["seq_len"]
    _focus(window, qtbot, spin)
    spin.selectAll()
    qtbot.keyClicks(spin, "80")
    qtbot.keyClick(_focused(), Key.Key_Z, Mod.ControlModifier)
    assert state.values["seq_len"] == before
    assert spin.text() == str(before)


@pytest.mark.parametrize(
    "view_id,name,typed",
    [("rope", "m", (1000, 7)), ("permutation", "sentence", ("the cat sat", "a dog ran"))],
)
def test_each_typed_value_is_its_own_undo_step(window, qtbot, view_id, name, typed):
    """Type a value, Enter, then another, Enter, in one field (a spin box, a text field
    that commits while typing): Ctrl+Z goes back to the first value, not to the value
    before both (the two commits merged into one undo step, like a slider drag)."""
    window.set_view(view_id)
    state = window.states[view_id]
    field = window.panels[view_id].rows[name].editor
    start = state.values[name]
    for value in typed:
        _focus(window, qtbot, field)
        field.selectAll()
        qtbot.keyClicks(field, str(value))
        qtbot.keyClick(field, Key.Key_Return)
        assert state.values[name] == value
    qtbot.keyClick(_focused(), Key.Key_Z, Mod.ControlModifier)
    assert state.values[name] == typed[0]
    qtbot.keyClick(_focused(), Key.Key_Z, Mod.ControlModifier)
    assert state.values[name] == start
    qtbot.keyClick(_focused(), Key.Key_Z, Mod.ControlModifier | Mod.ShiftModifier)
    assert state.values[name] == typed[0]


def test_undo_works_while_a_spin_box_or_slider_keeps_focus(window, qtbot):
    window.set_view("rope")
    state = window.states["rope"]
    assert state.set_param("m", 40, merge=False)
    for widget in (
        window.panels["rope"].rows["m"].editor,
        window.panels["rope"].rows["n"].slider,
    ):
        _focus(window, qtbot, widget)
        qtbot.keyClick(widget, Key.Key_Z, Mod.ControlModifier)
        assert state.values["m"] == 5, type(widget).__name__
        qtbot.keyClick(widget, Key.Key_Z, Mod.ControlModifier | Mod.ShiftModifier)
        assert state.values["m"] == 40, type(widget).__name__


@pytest.mark.parametrize("start", ["stage", "spin box", "view list"])
def test_switching_views_never_focuses_a_text_field_and_space_plays(window, qtbot, start):
    window.set_view("sinusoidal")
    first = {
        "stage": window.views["sinusoidal"],
        "spin box": window.panels["sinusoidal"].rows["seq_len"].editor,
        "view list": window.view_list,
    }[start]
    _focus(window, qtbot, first)
    sweep = _lecture(window).sweep
    qtbot.keyClick(_focused(), Key.Key_6, Mod.ControlModifier)
    assert window.current_view == "permutation"
    assert not isinstance(_focused(), QtWidgets.QLineEdit), f"focus on {_focused()!r}"
    sentence = window.states["permutation"].values["sentence"]
    qtbot.keyClick(_focused(), Key.Key_Space)
    assert window.states["permutation"].values["sentence"] == sentence
    assert sweep.playing
    qtbot.keyClick(_focused(), Key.Key_Space)
    assert not sweep.playing


def test_typing_in_a_text_field_still_types_and_enter_returns_to_the_stage(window, qtbot):
    window.set_view("permutation")
    state = window.states["permutation"]
    edit = window.panels["permutation"].rows["sentence"].editor
    _focus(window, qtbot, edit)
    edit.selectAll()
    qtbot.keyClicks(edit, "cat sees")
    qtbot.keyClick(edit, Key.Key_Space)
    qtbot.keyClicks(edit, "dog")
    assert not _lecture(window).sweep.playing
    assert edit.text() == "cat sees dog"
    qtbot.keyClick(edit, Key.Key_Return)
    assert state.values["sentence"] == "cat sees dog"
    assert _focused() is window.views["permutation"]
    qtbot.keyClick(_focused(), Key.Key_Space)
    assert _lecture(window).sweep.playing
    _lecture(window).sweep.stop()


@pytest.mark.parametrize(
    ("key", "mod", "check"),
    [
        (Key.Key_F1, Mod.NoModifier, lambda w: _lecture(w).help.isVisible()),
        (Key.Key_F5, Mod.NoModifier, lambda w: _lecture(w).display.presenting),
        (Key.Key_3, Mod.ControlModifier, lambda w: w.current_view == "rope"),
    ],
)
def test_lecture_keys_work_from_a_focused_field(window, qtbot, key, mod, check):
    window.set_view("permutation")
    edit = window.panels["permutation"].rows["sentence"].editor
    _focus(window, qtbot, edit)
    qtbot.keyClick(edit, key, mod)
    assert check(window)


# --------------------------------------------------------------------------- smaller items
@pytest.mark.parametrize("changed", [True, False])
def test_ctrl_r_resets_the_zoom_of_every_plot(window, qtbot, changed):
    """Ctrl+R shows all the data again, whether or not a parameter had changed."""
    window.set_view("sinusoidal")
    widget = window.views["sinusoidal"]
    boxes = [p.plot.getViewBox() for p in widget.plots.values() if p.panel.kind != "table"]
    for vb in boxes:  # zoom into a corner, as a mouse wheel would
        (x0, x1), (y0, y1) = vb.viewRange()
        vb.setRange(xRange=(x0, x0 + (x1 - x0) / 4), yRange=(y0, y0 + (y1 - y0) / 4), padding=0)
    if changed:
        assert window.states["sinusoidal"].set_param("seq_len", 50, merge=False)
        assert window.wait_idle()
    qtbot.keyClick(window, Key.Key_R, Mod.ControlModifier)
    assert window.states["sinusoidal"].values["seq_len"] == 100
    assert window.wait_idle()
    for vb in boxes:
        vb.prepareForPaint()
        assert all(vb.autoRangeEnabled()), vb
        data, shown = vb.childrenBounds(), vb.viewRange()
        for (lo, hi), (s0, s1) in zip(data, shown, strict=True):
            assert s0 <= lo and hi <= s1, (data, shown)


def test_rope_plane_says_one_full_turn():
    spec = VIEWS["rope"]
    data = spec.compute(spec.model.defaults(), ComputeContext())  # n·θ = 9 rad: one turn
    plane = next(p for p in data.panels if p.key == "plane")
    text = plane.note
    assert "n·θ = 9 rad (1 full turn;" in text and "1 full turns" not in text, text


def test_cli_usage_error_keeps_its_closing_quote(tmp_path, capsys):
    from gui.cli import UsageError, error_message, main

    message = "--width: expected a whole number of pixels, got 'abc'"
    assert error_message(UsageError(message)) == message

    code = main(["export", "sinusoidal", "-o", str(tmp_path / "x.png"), "--width", "abc"], 0.0)
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert "got 'abc'" in err, err


def test_export_dialog_without_plots_has_nothing_over_the_format_label(qtbot):
    from gui.export.actions import ExportDialog, ExportOptions

    dialog = ExportDialog(None, "Export view", ExportOptions(), None)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    label = dialog.layout().labelForField(dialog.format)
    for child in dialog.findChildren(QtWidgets.QComboBox):
        if child.isVisible() and child is not dialog.format:
            assert not child.geometry().intersects(label.geometry()), child


def _scroll_area(window) -> QtWidgets.QScrollArea:
    area = window.panel_stack.parentWidget().parentWidget()
    assert isinstance(area, QtWidgets.QScrollArea)
    return area


@FULL
def test_short_parameter_panel_does_not_scroll_after_a_long_one(window, qtbot):
    window.set_view("sinusoidal")
    assert window.wait_idle()
    assert _scroll_area(window).verticalScrollBar().maximum() == 0  # it fits at first
    window.set_view("rope")
    assert window.wait_idle()  # RoPE's longer panel laid out and drawn
    window.set_view("sinusoidal")
    qtbot.waitUntil(lambda: _scroll_area(window).verticalScrollBar().maximum() == 0, timeout=2000)


@pytest.mark.parametrize("scale", gate_cover([1.0, 1.25, 1.5, 2.0], keep=(2.0,)))
def test_view_list_shows_every_view_without_scrolling(window, qtbot, scale):
    _lecture(window).display.set_scale(scale)
    views = window.view_list

    def fits() -> None:
        last = views.visualItemRect(views.item(views.count() - 1))
        assert views.verticalScrollBar().maximum() == 0
        assert last.bottom() <= views.viewport().height()

    qtbot.waitUntil(fits)  # (the list lays out in the event loop)


@FULL
def test_at_300_percent_the_views_take_one_line_and_the_parameters_the_height(window, qtbot):
    """Issue 14: at 300 % the eight view rows (~420 px) stayed above the parameters,
    which showed one row at 1280 x 720. The list gives way to a one-line selector there
    (and comes back at 100 %); picking in it, Ctrl+<n> and Space still work."""
    window.set_view("rope")
    _lecture(window).display.set_scale(3.0)
    window.resize(1280, 720)  # (made low after the scale: the list's rows held it taller)
    chooser, combo = window.view_chooser, window.view_chooser.combo
    qtbot.waitUntil(lambda: chooser.compact)
    assert window.height() == 720
    assert combo.isVisible() and not window.view_list.isVisible()
    area = _scroll_area(window)
    column = chooser.column.height()
    # the parameters get the column but for one line: more than half of it (was ~1/5)
    qtbot.waitUntil(lambda: area.viewport().height() > column // 2)
    assert combo.height() < window.view_list.rows_height() // 4
    assert combo.currentData() == "rope"
    _focus(window, qtbot, combo)
    qtbot.keyClick(combo, Key.Key_Down)  # the next view, from the keyboard
    assert window.current_view == list(VIEWS)[list(VIEWS).index("rope") + 1]
    qtbot.keyClick(_focused(), Key.Key_2, Mod.ControlModifier)
    assert window.current_view == list(VIEWS)[1] and combo.currentData() == list(VIEWS)[1]
    _focus(window, qtbot, combo)
    sweep = _lecture(window).sweep
    qtbot.keyClick(combo, Key.Key_Space)
    assert sweep.playing
    qtbot.keyClick(_focused(), Key.Key_Space)
    assert not sweep.playing
    _lecture(window).display.set_scale(1.0)
    qtbot.waitUntil(lambda: not chooser.compact)
    assert window.view_list.isVisible() and not combo.isVisible()
    # the list never holds the window taller than the selector would: made low right
    # after a scale change (layouts not yet redone), 1280 x 720 came out 753 px high
    assert chooser.minimumSizeHint().height() <= combo.sizeHint().height()


def test_page_keys_move_a_focused_slider_without_a_deck_and_step_an_open_deck(window, qtbot):
    from core.scenes import Deck, Scene

    window.set_view("rope")
    state, slider = window.states["rope"], window.panels["rope"].rows["m"].slider
    _focus(window, qtbot, slider)
    qtbot.keyClick(slider, Key.Key_PageUp)
    assert state.values["m"] == 15  # ten positions up from 5
    deck = _lecture(window).deck
    model = VIEWS["rope"].model
    scenes = tuple(Scene("rope", model.validate({"m": m}, partial=True), "s", "") for m in (1, 2))
    deck.set_deck(Deck("d", scenes))
    _focus(window, qtbot, slider)
    qtbot.keyClick(slider, Key.Key_PageDown)
    assert deck.index == 1 and state.values["m"] == 2


def _sliders_span_the_panel(window, view_id: str) -> None:
    panel = window.panels[view_id]
    assert _scroll_area(window).horizontalScrollBar().maximum() == 0, view_id
    for name, row in panel.rows.items():
        if row.slider is not None:
            assert row.slider.width() >= 0.8 * panel.width(), (view_id, name)


@FULL
@pytest.mark.parametrize("scale", [1.0, 1.25])
def test_every_slider_spans_the_side_panel(window, qtbot, scale):
    """A slider shares no line with its spin box: at 125 % it was left 55 px wide."""
    _lecture(window).display.set_scale(scale)
    for view_id in VIEW_IDS:
        window.set_view(view_id)  # (its panel lays out in the event loop)
        qtbot.waitUntil(lambda v=view_id: _sliders_span_the_panel(window, v))


@pytest.mark.parametrize("view_id", VIEW_IDS)
def test_parameter_panel_widgets_do_not_overlap(qtbot, view_id):
    from gui.widgets.param_panel import ParamPanel
    from gui.widgets.state import ViewState

    panel = ParamPanel(ViewState(VIEWS[view_id].model))
    qtbot.addWidget(panel)
    panel.resize(340, panel.heightForWidth(340) if panel.hasHeightForWidth() else 1200)
    panel.show()
    qtbot.waitExposed(panel)
    widgets = [w for w in panel.findChildren(QtWidgets.QWidget) if w.parentWidget() is panel]
    widgets = [w for w in widgets if w.isVisible()]
    for i, a in enumerate(widgets):
        for b in widgets[i + 1 :]:
            overlap = a.geometry().intersected(b.geometry())
            assert overlap.isEmpty(), (a.objectName() or a.text(), b.objectName() or b.text())


def _shown_rope_panel(qtbot):
    """RoPE's parameter panel alone, shown 420 × 1400 px."""
    from gui.widgets.param_panel import ParamPanel
    from gui.widgets.state import ViewState

    panel = ParamPanel(ViewState(VIEWS["rope"].model))
    qtbot.addWidget(panel)
    panel.resize(420, 1400)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def test_field_widths_are_measured_once_per_layout_and_follow_a_wider_field(qtbot):
    """Every line's height asks for the panel's common field column, which asked every
    number line for its spin box's size hint: a window showing each view measured them
    ~97 000 times. The widths are kept until the panel's grid is invalidated, which a
    field whose size hint changes does (a wider range, another font)."""
    from gui.widgets.param_panel import FieldLine

    panel = _shown_rope_panel(qtbot)
    measured = [0]
    original = FieldLine.fields_width

    def counting(line: FieldLine) -> int:
        if not getattr(line, "fields_width_kept", False):  # (before: never kept)
            measured[0] += 1
        return original(line)

    lines = panel._number_lines
    try:
        FieldLine.fields_width = counting  # type: ignore[method-assign]
        panel.layout().invalidate()
        for width in (300, 360, 420):
            panel.heightForWidth(width)
            panel.side_by_side_width()
        assert measured[0] == len(lines)  # once each (before: once per line per query)
        before = panel.field_width()
        editor = panel.rows["base"].editor
        editor.setMaximum(editor.maximum() * 1e6)  # a wider spin box: the grid is told
        assert panel.field_width() > before
        assert panel.field_width() == max(line.fields_width() for line in lines)
    finally:
        FieldLine.fields_width = original  # type: ignore[method-assign]


def test_a_panel_grid_invalidation_tells_no_line_and_widths_follow_it(qtbot):
    """Qt invalidates the parameter panels' grids ~1 300 times in a re-style (F5, a
    theme toggle; four views built): the kept field widths are forgotten with one
    count for all the lines, not by telling each number line (12-20 ms of each
    re-style); a line still measures again after the grid was
    invalidated (a wider field), and only then."""
    from gui.widgets.param_panel import FieldLine

    panel = _shown_rope_panel(qtbot)
    told = [0]
    forget = FieldLine.forget_fields_width

    def counting(line: FieldLine) -> None:
        told[0] += 1
        forget(line)

    lines = panel._number_lines
    line = lines[0]
    try:
        FieldLine.forget_fields_width = counting  # type: ignore[method-assign]
        widths = [each.fields_width() for each in lines]
        for _ in range(50):
            panel.layout().invalidate()
        assert told[0] == 0  # (before: 50 x each number line)
        assert not any(each.fields_width_kept for each in lines)
        assert [each.fields_width() for each in lines] == widths
        assert all(each.fields_width_kept for each in lines)
        editor = line._fields[0].widget()
        editor.setMinimumWidth(editor.sizeHint().width() + 40)  # a wider field
        panel.layout().invalidate()
        assert line.fields_width() > widths[0]
    finally:
        FieldLine.forget_fields_width = forget  # type: ignore[method-assign]


@FULL
def test_the_notes_line_does_not_resize_the_plots_when_its_text_changes(window, qtbot):
    """The notes / readout line under the plots changes its text while the lecturer
    hovers (a one-line readout instead of RoPE's several lines of notes) or drags (a
    note that follows m gains or loses a line): the canvas above it was resized each
    time, every plot re-laid out and repainted (~40 ms frames in a RoPE drag at
    1600 x 1000). The line now only grows while the view keeps its width."""
    window.resize(1600, 1000)
    window.set_view("rope")
    assert window.wait_idle()
    widget = window.views["rope"]
    widget.flush_text()
    QtWidgets.QApplication.processEvents()
    notes = widget.status.text()
    before = widget.canvas.height()
    readout = widget.readout_at("score", 0.0, 0.0)  # the cursor over a plot
    assert readout and readout != notes
    QtWidgets.QApplication.processEvents()
    assert widget.canvas.height() == before
    widget.readout_at("score", 1e9, 1e9)  # off the data: the notes again
    QtWidgets.QApplication.processEvents()
    assert widget.status.text() == notes and widget.canvas.height() == before


def test_the_notes_line_takes_its_texts_height_once_the_live_frames_end(qtbot, monkeypatch):
    """The notes line holds the tallest text of a drag (its frames: live, one after
    another), and took its own text's height again only when the view changed width:
    after a deck's Learned scene 7 (80 positions for 64 rows: three lines of notes at
    200 % on the stage), Learned reset to its defaults kept three lines for two, and on
    the stage it scrolled (test_layout_fit, in an order where the deck came first).
    Once the live frames are over (full quality), a line held taller than its text
    takes the text's height."""
    from gui.widgets.view_widget import ViewWidget

    # the drag's end is the test's call below, not the pause timer: on a loaded machine
    # two frames were more than its 150 ms apart, the drag ended between them and the
    # held line took its text's height early (38 px for the held 57)
    monkeypatch.setattr(ViewWidget, "FULL_QUALITY_DELAY_MS", 600_000)
    spec = VIEWS["learned"]
    widget = ViewWidget(spec)
    qtbot.addWidget(widget)
    widget.resize(1100, 700)
    widget.show()
    ctx = ComputeContext(64, 128)
    label = widget.status

    def show(seq_len: int) -> None:
        params = {**spec.model.defaults(), "seq_len": seq_len}
        widget.show_data(spec.compute(params, ctx), live=True)
        widget.flush_text()
        QtWidgets.QApplication.processEvents()

    def text_height() -> int:  # (Qt's height for a width is never below the minimum)
        probe = QtWidgets.QLabel(label.text())
        probe.setWordWrap(True)
        probe.setFont(label.font())
        return probe.heightForWidth(label.width())

    show(80)  # out of range: the longer notes
    widget.finish_live_frame()
    QtWidgets.QApplication.processEvents()
    tall = label.height()
    assert tall == text_height()
    show(80)  # a drag's frames from there back to the defaults: the line is held
    show(48)
    need = text_height()
    assert need < tall  # (what the hold hid: fewer lines)
    assert label.height() == tall
    widget.finish_live_frame()  # the pause after the drag (what its timer does)
    QtWidgets.QApplication.processEvents()
    assert label.minimumHeight() <= need
    assert label.height() == need
    assert widget._status_box.label_height(label.width()) == need  # (not the held one)
    # nor the line's minimum in the layout (Qt's label kept its hints from the hold)
    assert label.minimumSizeHint().height() <= need


def test_the_same_notes_text_on_an_unchanged_line_is_not_measured_again(qtbot):
    """Each drag frame shows its notes, and the throttled text brings the same notes
    again; the readout is set on every mouse move over the same cell. Each time the
    notes line laid out its (wrapped) text twice to measure it (~0.3 ms a frame on the
    stage). The same text on a line nothing else changed is left as it is; a new text
    and a narrower line still holds it."""
    from gui.widgets.view_widget import ViewWidget

    spec = VIEWS["rope"]
    widget = ViewWidget(spec)
    qtbot.addWidget(widget)
    widget.resize(900, 600)
    widget.show()
    widget.show_data(spec.compute(spec.model.defaults(), ComputeContext(64, 128)))
    widget.flush_text()
    QtWidgets.QApplication.processEvents()
    label = widget.status
    measured: list[int] = []
    real = label.heightForWidth
    label.heightForWidth = lambda w: (measured.append(w), real(w))[1]  # a spy
    readout = widget.readout_at("score", 0.0, 0.0)
    assert readout and measured  # a new text is measured
    measured.clear()
    assert widget.readout_at("score", 0.0, 0.0) == readout  # the same cell again
    assert not measured
    notes = widget.readout_at("score", 1e9, 1e9)  # off the data: the notes, measured
    assert notes != readout and measured
    measured.clear()
    widget.refresh_notes(force=True)  # the same notes again
    assert not measured and widget.status_text() == notes
    width = label.width()
    widget.resize(700, 600)  # a narrower line still holds all of its text
    QtWidgets.QApplication.processEvents()
    widget.readout_at("score", 1e9, 1e9)
    assert label.width() < width and widget.status_text() == notes
    assert label.height() >= real(label.width())


def test_the_wheel_scrolls_a_long_parameter_panel_instead_of_changing_a_value(window, qtbot):
    """Found on Xvfb (RoPE at 1280 × 720, 150 %, windowed): rolling the wheel to scroll
    the parameter panel changed "Offset range" from 256 to 250 (and took the keyboard)
    as the field came under the pointer; the panel did not move. While the panel
    scrolls, the wheel over a field or slider that does not have the keyboard scrolls
    the panel; a field that has it (clicked) still takes the wheel, and in a panel that
    fits the wheel still steps the field under the pointer."""
    window.set_view("rope")
    _lecture(window).display.set_scale(1.5)
    window.resize(1280, 720)
    area = _scroll_area(window)
    qtbot.waitUntil(lambda: area.verticalScrollBar().maximum() > 0)
    state = window.states["rope"]
    panel = window.panel_stack.currentWidget()
    for name in ("seq_len", "factor"):
        for kind, prefix in ((QtWidgets.QAbstractSpinBox, "param"), (QtWidgets.QSlider, "slider")):
            editor = panel.findChild(kind, f"{prefix}-{name}")
            assert editor is not None, (name, kind)
            before, top = state.values[name], area.verticalScrollBar().value()
            window.setFocus()
            wheel_down(editor)
            assert state.values[name] == before, (name, kind)
            assert area.verticalScrollBar().value() > top, (name, kind)
            assert not editor.hasFocus()
            area.verticalScrollBar().setValue(0)
    spin = panel.findChild(QtWidgets.QAbstractSpinBox, "param-seq_len")
    _focus(window, qtbot, spin)
    before = state.values["seq_len"]
    wheel_down(spin)
    assert state.values["seq_len"] < before  # the focused field keeps the wheel
    state.undo()
    # a panel that fits: the wheel over a field steps it, as before
    window.resize(1600, 1000)
    _lecture(window).display.set_scale(1.0)
    window.set_view("sinusoidal")
    qtbot.waitUntil(lambda: area.verticalScrollBar().maximum() == 0)
    panel = window.panel_stack.currentWidget()
    spin = panel.findChild(QtWidgets.QAbstractSpinBox, "param-seq_len")
    window.setFocus()
    before = window.states["sinusoidal"].values["seq_len"]
    wheel_down(spin)
    assert window.states["sinusoidal"].values["seq_len"] < before
    window.states["sinusoidal"].undo()


def test_a_click_on_a_sliders_groove_puts_the_handle_there_and_drags_on(qtbot):
    """A lecturer clicks where the value should be: the style moved one page towards the
    click and the drag after it did nothing (Xvfb). Now the handle jumps under the
    pointer and follows it until the button is released: one undo step."""
    from gui.widgets.param_panel import ParamPanel
    from gui.widgets.state import ViewState

    state = ViewState(VIEWS["alibi"].model)
    panel = ParamPanel(state)
    qtbot.addWidget(panel)
    panel.resize(500, 600)
    panel.show()
    qtbot.waitExposed(panel)
    slider = panel.rows["query"].slider  # 0..15 at seq_len 16
    state.set_param("query", 0, merge=False)
    depth = len(state._undo)
    y = slider.height() // 2
    three_quarters = QtCore.QPoint(round(slider.width() * 0.75), y)
    qtbot.mousePress(slider, QtCore.Qt.MouseButton.LeftButton, pos=three_quarters)
    assert 10 <= state.values["query"] <= 12, state.values["query"]
    assert slider.isSliderDown()  # the drag goes on from there
    event = QtGui.QMouseEvent(
        QtCore.QEvent.Type.MouseMove,
        QtCore.QPointF(slider.width() * 0.25, y),
        slider.mapToGlobal(QtCore.QPointF(slider.width() * 0.25, y)),
        QtCore.Qt.MouseButton.NoButton,
        QtCore.Qt.MouseButton.LeftButton,
        QtCore.Qt.KeyboardModifier.NoModifier,
    )
    QtWidgets.QApplication.sendEvent(slider, event)
    assert 3 <= state.values["query"] <= 5, state.values["query"]
    qtbot.mouseRelease(slider, QtCore.Qt.MouseButton.LeftButton, pos=three_quarters)
    assert len(state._undo) == depth + 1  # press and drag: one step


def test_the_formula_line_keeps_its_height_while_a_drag_goes_on(qtbot, monkeypatch):
    """A formula that wraps at some values of a dragged parameter gained and lost a line
    as the drag went on (Word order's base at 200 % on stage, 149 or 198 px six times in
    a sweep): the plots jumped up and down, and each frame that changed it was laid out
    and painted twice (20-50 ms). The line never gets shorter through the live frames
    and takes its own height once they are over; a formula that needs more room makes
    it taller at its own size (it was drawn smaller, and the plots moved once the drag
    was over)."""
    from gui.widgets.view_widget import ViewWidget

    monkeypatch.setattr(ViewWidget, "FULL_QUALITY_DELAY_MS", 600_000)  # ended by the test
    spec = VIEWS["permutation"]
    widget = ViewWidget(spec)
    qtbot.addWidget(widget)
    widget.show()
    ctx = ComputeContext(64, 128)
    formula = widget.formula

    def show(base: float, live: bool = True) -> None:
        params = {**spec.model.defaults(), "base": base}
        widget.show_data(spec.compute(params, ctx), live=live)
        widget.flush_text()
        QtWidgets.QApplication.processEvents()

    # a width at which the longer base's formula takes more lines than the round one's
    for width in range(300, 1600, 10):
        widget.resize(width, 900)
        QtWidgets.QApplication.processEvents()
        show(1000.0, live=False)
        short_text = formula.heightForWidth(formula.width())
        show(1047.129, live=False)
        if formula.heightForWidth(formula.width()) > short_text:
            break
    else:
        pytest.fail("no width at which the formula wraps for one base and not the other")
    show(1047.129, live=False)
    tall = formula.height()
    show(1000.0, live=False)
    assert formula.height() == short_text < tall

    def top() -> int:
        return widget.canvas.mapTo(widget, QtCore.QPoint(0, 0)).y()

    canvas_top = top()
    show(1047.129)  # the drag reaches a value whose formula wraps: at its own size
    assert formula.height() == tall and formula.fit_scale() == 1.0
    assert top() == canvas_top + tall - short_text
    show(1000.0)  # and back: the line keeps its height, the plots stay where they are
    assert formula.height() == tall and top() == canvas_top + tall - short_text
    widget.finish_live_frame()  # the pause after the drag: the formula's own height
    QtWidgets.QApplication.processEvents()
    assert formula.height() == short_text and top() == canvas_top
    show(1047.129)  # another drag, back and forth: the line grows once and holds
    show(1000.0)
    show(1047.129)
    assert formula.height() == tall and top() == canvas_top + tall - short_text
    widget.finish_live_frame()  # ended at the tallest: nothing moves when it ends
    QtWidgets.QApplication.processEvents()
    assert formula.height() == tall and top() == canvas_top + tall - short_text
    assert formula.fit_scale() == 1.0 and formula.minimumHeight() == 0


def test_escape_in_a_number_field_takes_the_typed_text_back(window, qtbot):
    """Live window: "300" typed into Sequence length (100), then Escape, then a click
    elsewhere: Escape did nothing in the field and leaving it entered 300 (Qt commits a
    spin box's text when it loses focus). Escape now puts the value's text back, so
    leaving the field changes nothing; a second Escape (nothing typed) is the window's
    again."""
    window.set_view("sinusoidal")
    state = window.states["sinusoidal"]
    spin = window.panels["sinusoidal"].rows["seq_len"].editor
    _focus(window, qtbot, spin)
    spin.selectAll()
    qtbot.keyClicks(spin, "300")
    assert spin.text() == "300"
    qtbot.keyClick(_focused(), Key.Key_Escape)
    assert spin.text() == "100"
    window.views["sinusoidal"].setFocus()
    QtWidgets.QApplication.processEvents()
    assert state.values["seq_len"] == 100
    assert spin.text() == "100"
