"""Parameters whose useful end follows another parameter (a query position on
``seq_len``, a head on ``heads``, a rotation pair on ``d_rot``): the view draws a larger
value at that end, and the slider, the spin box, the stage's nudge keys and sweeps stop
there, so a drag never sets a value the plots cannot show (ALiBi's query slider set 4897
with ``seq_len`` 16 while the plots showed query 15)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from PySide6 import QtCore

from core.params import Param
from core.viewdata import ComputeContext, Panel
from core.views import VIEWS, compute_view
from gui.lecture.stage_strip import StageControls
from gui.lecture.sweep import sweep_values
from gui.widgets.param_panel import ParamPanel
from gui.widgets.state import ViewState

Key = QtCore.Qt.Key

# (view, parameter, other values that set its limit, the limit they give)
LIMITED = [
    ("alibi", "query", {"seq_len": 16}, 15),
    ("alibi", "head", {"heads": 4}, 4),
    ("sinusoidal", "query", {"seq_len": 32}, 31),
    ("relative", "query", {"seq_len": 16}, 15),
    ("rope", "pair", {"head_dim": 64, "partial_rotary_factor": 0.5}, 15),
    ("clock", "pair", {"head_dim": 64, "partial_rotary_factor": 0.5}, 15),
    ("rope", "patch_row", {"grid_h": 4, "topic": "images"}, 3),
    ("rope", "patch_col", {"grid_w": 5, "topic": "images"}, 4),
]


def _drawn(panel: Panel) -> list[Any]:
    out: list[Any] = [panel.title, panel.image, panel.rows]
    out += [(s.name, s.x, s.y) for s in panel.series]
    out += [(a.name, a.x, a.y) for a in panel.arrows]
    out += [(lab.x, lab.y, lab.text) for lab in panel.labels]
    return out


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if a is None or b is None:
            return False
        a, b = np.asarray(a), np.asarray(b)
        return np.array_equal(a, b, equal_nan=a.dtype.kind == b.dtype.kind == "f")
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _draws(view_id: str, values: dict[str, Any]) -> list[Any]:
    data = compute_view(view_id, values, ComputeContext())
    return [_drawn(p) for p in data.panels]


def test_every_limited_parameter_is_listed() -> None:
    limited = {
        (view_id, p.name) for view_id, spec in VIEWS.items() for p in spec.model.params if p.limit
    }
    assert limited == {(v, n) for v, n, _, _ in LIMITED}


@pytest.mark.parametrize(("view_id", "name", "changes", "end"), LIMITED)
def test_the_limit_is_where_the_view_stops_drawing_a_change(
    view_id: str, name: str, changes: dict[str, Any], end: int
) -> None:
    model = VIEWS[view_id].model
    param = model[name]
    values = model.validate(changes, partial=True)
    assert param.upper(values) == end < param.maximum
    assert param.limited(values).maximum == end
    assert param.effective({**values, name: int(param.maximum)}) == end
    assert param.effective({**values, name: end - 1}) == end - 1
    # beyond the limit the view draws what it draws at the limit, one below it differs
    at_end = _draws(view_id, {**values, name: end})
    assert _same(_draws(view_id, {**values, name: int(param.maximum)}), at_end)
    assert not _same(_draws(view_id, {**values, name: end - 1}), at_end)


def test_upper_keeps_within_the_range_and_survives_missing_values() -> None:
    p = Param("q", "int", 0, "q", "", 0, 100, 1, limit=lambda v: v["n"] - 1)
    assert p.upper({"n": 10}) == 9
    assert p.upper({"n": 0}) == 0  # never below the minimum
    assert p.upper({"n": 500}) == 100  # never above the maximum
    assert p.upper({}) == 100  # what it needs is missing: the whole range
    plain = Param("r", "int", 0, "r", "", 0, 100, 1)
    assert plain.upper({}) == 100 and plain.limited({}) is plain


def test_panel_slider_and_field_follow_seq_len(qtbot) -> None:
    state = ViewState(VIEWS["alibi"].model)
    panel = ParamPanel(state)
    qtbot.addWidget(panel)
    panel.show()
    row = panel.rows["query"]
    state.set_param("seq_len", 16, merge=False)
    assert row.scale is not None and row.scale.value(row.slider.maximum()) == 15
    # a value beyond the limit (a scene, the CLI) shows as the value drawn
    state.set_param("query", 4897, merge=False)
    assert row.editor.value() == 15 and row.slider.value() == row.slider.maximum()
    # the slider's far end sets the last query, not thousands
    state.set_param("query", 3, merge=False)
    row.slider.setValue(row.slider.maximum())
    assert state.values["query"] == 15
    # a longer sequence lengthens the slider without touching the value or the undo
    undo_depth = len(state._undo)
    state.set_param("seq_len", 512, merge=False)
    assert state.values["query"] == 15 and len(state._undo) == undo_depth + 1
    assert row.scale.value(row.slider.maximum()) == 511
    assert row.editor.value() == 15 and row.scale.value(row.slider.value()) == 15
    # a shorter one shortens it; the stored value stays and comes back with the length
    state.set_param("seq_len", 8, merge=False)
    assert row.editor.value() == 7 and state.values["query"] == 15
    state.undo()
    assert row.editor.value() == 15 and row.scale.value(row.slider.maximum()) == 511
    # the arrow keys step from the value drawn, within the limit
    state.set_param("seq_len", 8, merge=False)
    undo_depth = len(state._undo)
    row.slider.nudged.emit(1)
    assert state.values["query"] == 15 and len(state._undo) == undo_depth  # drawn at the end
    row.slider.nudged.emit(-1)
    assert state.values["query"] == 6
    # the field takes any value of the range (it refused the key leaving a shorter one:
    # "20" typed became 2) and shows the one drawn
    assert row.editor.maximum() == 65535
    row.editor.setFocus()
    row.editor.selectAll()
    qtbot.keyClicks(row.editor, "20")
    qtbot.keyClick(row.editor, Key.Key_Return)
    assert state.values["query"] == 20 and row.editor.value() == 7  # (seq_len 8)
    row.editor.selectAll()  # again, while the field shows 7 already
    qtbot.keyClicks(row.editor, "30")
    qtbot.keyClick(row.editor, Key.Key_Return)
    assert state.values["query"] == 30 and row.editor.value() == 7


def test_stage_nudge_steps_from_the_value_drawn(window, qtbot) -> None:
    window.set_view("alibi")
    window.lecture.display.enter_presentation(fullscreen=False)
    assert window.wait_idle()
    controls = window.feature(StageControls)
    state = window.states["alibi"]
    state.set_values({**state.values, "seq_len": 16, "query": 4897})
    window.stage.setFocus()
    qtbot.keyClick(window.stage, Key.Key_Right)
    assert state.values["query"] == 4897  # drawn at 15, the end: nothing to move
    qtbot.keyClick(window.stage, Key.Key_Left)
    assert state.values["query"] == 14
    qtbot.keyClick(window.window(), Key.Key_P)
    strip_row = controls.strip.rows["query"]
    assert strip_row.scale.value(strip_row.slider.maximum()) == 15
    assert strip_row.editor.value() == 14


def test_sweeps_stop_at_the_limit() -> None:
    model = VIEWS["rope"].model
    values = model.validate({"head_dim": 64, "partial_rotary_factor": 0.5}, partial=True)
    swept = sweep_values(model["pair"], {**values, "pair": 0})
    assert swept[0] == 0 and swept[-1] == 15  # d_rot 32: pairs 0..15, not head_dim/2 − 1
    alibi = VIEWS["alibi"].model
    values = alibi.validate({"seq_len": 16, "query": 3}, partial=True)
    assert sweep_values(alibi["query"], values) == list(range(3, 16))


def test_a_change_reaches_its_followers_as_one_copy_of_the_values(qapp) -> None:
    """``ViewState.changed`` carries the values as a Python object: every follower gets
    the same copy (not one converted to Qt's QVariantMap and back for each: ~30 us an
    emit with the window's five or six followers), equal to the state's values and
    not them (a follower cannot change the state through it)."""
    state = ViewState(VIEWS["rope"].model)
    first: list[dict[str, Any]] = []
    second: list[dict[str, Any]] = []
    state.changed.connect(first.append)
    state.changed.connect(second.append)
    assert state.set_param("m", 7)
    assert len(first) == len(second) == 1 and first[0] is second[0]
    assert first[0] == state.values and first[0]["mrope_section"] == (16, 24, 24)
    first[0]["m"] = 99
    assert state.values["m"] == 7
