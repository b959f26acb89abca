"""What the window says when a key does nothing or a value is refused: Ctrl+Z with
nothing to undo said nothing (a lecturer pressed it again and again), and a refused
value named the parameter by its code name ("dims: expected an integer") where the
panel shows its label ("Dimensions to plot")."""

from __future__ import annotations

from PySide6 import QtWidgets


def _action(window, name: str):
    return next(a for a in window.actions() if a.objectName() == name)


def test_undo_and_redo_with_nothing_to_do_say_so(window):
    window.set_view("alibi")
    state = window.states["alibi"]
    while state.undo():
        pass
    state._redo.clear()
    _action(window, "action-undo").trigger()
    assert window.statusBar().currentMessage() == "Nothing to undo in ALiBi"
    _action(window, "action-redo").trigger()
    assert window.statusBar().currentMessage() == "Nothing to redo in ALiBi"
    state.set_param("seq_len", 12, merge=False)
    window.statusBar().clearMessage()
    _action(window, "action-undo").trigger()
    assert state.values["seq_len"] == 16 and window.statusBar().currentMessage() == ""


def test_a_refused_value_is_named_by_its_label(window, qtbot):
    window.set_view("sinusoidal")
    assert window.wait_idle(30)
    field = window.panels["sinusoidal"].rows["dims"].editor
    assert isinstance(field, QtWidgets.QLineEdit)
    shown = []
    window.states["sinusoidal"].error.connect(shown.append)
    field.setText("0, x")
    field.returnPressed.emit()
    assert shown and shown[-1].startswith("Dimensions to plot: "), shown
    assert window.views["sinusoidal"].error.startswith("Dimensions to plot: ")
    state = window.states["sinusoidal"]
    assert not state.set_param("seq_len", 0)
    assert shown[-1] == "Sequence length: 0 is out of range 1..65536", shown[-1]


def test_nothing_to_redo_says_in_which_view_a_redo_waits(window):
    """ALiBi's seq_len 16 -> 12 undone, then Ctrl+5 (Relative) and Ctrl+Shift+Z: the
    status line says a redo waits in ALiBi, with its key (it said only
    "Nothing to redo in Relative"); there, Ctrl+Shift+Z redoes it. A later change in
    ALiBi drops that redo, and the line no longer points there."""
    window.set_view("alibi")
    state = window.states["alibi"]
    assert state.set_param("seq_len", 12, merge=False)
    _action(window, "action-undo").trigger()
    assert state.values["seq_len"] == 16
    window.set_view("relative")
    _action(window, "action-redo").trigger()
    assert window.statusBar().currentMessage() == "Redo waits in ALiBi (Ctrl+4)"
    assert state.values["seq_len"] == 16
    window.set_view("alibi")
    _action(window, "action-redo").trigger()
    assert state.values["seq_len"] == 12
    _action(window, "action-undo").trigger()
    assert state.set_param("seq_len", 20, merge=False)  # (drops the redo)
    window.set_view("relative")
    _action(window, "action-redo").trigger()
    assert window.statusBar().currentMessage() == "Nothing to redo in Relative"
