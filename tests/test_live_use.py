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
