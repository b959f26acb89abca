"""Live use in a lecture (issue 13): legends that stay, sliders that reach every value,
keyboard focus that leaves the lecture keys working, and smaller lecture-room defects."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6 import QtCore, QtWidgets

from core.params import Param
from core.viewdata import ComputeContext
from core.views import VIEW_IDS, VIEWS
from gui.plotting.panel_plot import MAX_LEGEND_ENTRIES

Key = QtCore.Qt.Key
Mod = QtCore.Qt.KeyboardModifier


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
    """Every curves plot with 2..MAX_LEGEND_ENTRIES lines shows a visible legend with one
    entry per line, labelled with the line's name."""
    problems = []
    for key, plot in plots.items():
        panel = plot.panel
        if panel is None or panel.kind != "curves":
            continue
        names = [s.name for s in panel.series]
        if not 1 < len(names) <= MAX_LEGEND_ENTRIES:
            continue
        legend = plot.legend
        if legend is None or legend.scene() is None or not legend.isVisible():
            problems.append(f"{where}: {key} has {len(names)} lines and no visible legend")
            continue
        labels = [label.text for _sample, label in legend.items]
        if labels != names:
            problems.append(f"{where}: {key} legend {labels} != lines {names}")
    return problems


@pytest.mark.parametrize("view_id", VIEW_IDS)
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
        if _allowed(model, state.values, name, v0 + sign * step):
            assert sign * (got - v0) > 0, f"{what}: stuck at {v0}"
        if what.startswith("arrow"):
            assert got in (v0, v0 + sign * step), f"{what}: {v0} → {got}, not one step"
    # Page Up/Down: a larger step (about ten positions), still far from a jump across
    state.reset()
    slider.triggerAction(SA.SliderPageStepAdd)
    got = state.values[name]
    if _allowed(model, state.values, name, v0 + 2 * step) and v0 + 2 * step <= param.maximum:
        assert got - v0 > step, f"page step only {v0} → {got}"
    assert got - v0 <= max(10 * step, 0.11 * abs(v0)), f"page step {v0} → {got}"
    # both ends are reachable by dragging the handle
    for end, position in ((param.minimum, slider.minimum()), (param.maximum, slider.maximum())):
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
        assert values[0] == p.minimum and values[-1] == p.maximum, name
        for a, b in zip(values, values[1:], strict=False):
            assert 0 < b - a <= max(int(p.step or 1), 0.02 * a), f"{name}: {a} → {b}"
