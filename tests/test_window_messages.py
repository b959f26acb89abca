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
    assert state.values["seq_len"] == 16
    message = window.statusBar().currentMessage()
    assert message == "Undone: Sequence length back to 16 (Ctrl+Shift+Z redoes it)"


def test_undo_and_redo_say_what_they_set_never_the_line_before(window, qtbot):
    """A status line of an earlier action up ("Scene 4 already shows its values"),
    Sinusoidal's base 10000 -> 60620, then Ctrl+Z: the line says what was undone, with
    the key that redoes it; Ctrl+Shift+Z says what was redone. Before, a parameter's
    undo and redo said nothing: the earlier line stayed, as if it were their answer.
    A change of several parameters undone names them; at 300 % on 1280 x 720, where
    about 34 characters show, the short form keeps the value and the key whole (the
    long one was cut to "Undone: Base bac… (Ctrl+Shift+Z redoes it)")."""
    from PySide6 import QtCore

    Key, mods = QtCore.Qt.Key, QtCore.Qt.KeyboardModifier
    window.set_view("sinusoidal")
    state = window.states["sinusoidal"]
    window.activateWindow()
    bar = window.statusBar()
    window.show_status("Scene 4 already shows its values", 5000)
    assert state.set_param("base", 60620.0, merge=False)
    qtbot.keyClick(window, Key.Key_Z, mods.ControlModifier)
    assert state.values["base"] == 10000.0
    assert bar.currentMessage() == "Undone: Base back to 10000 (Ctrl+Shift+Z redoes it)"
    qtbot.keyClick(window, Key.Key_Z, mods.ControlModifier | mods.ShiftModifier)
    assert state.values["base"] == 60620.0
    assert bar.currentMessage() == "Redone: Base to 60620 (Ctrl+Z undoes it)"
    assert state.values["seq_len"] != 40 and state.values["dims"] != (0, 3)
    assert state.set_values({**state.values, "seq_len": 40, "dims": (0, 3), "base": 500.0})
    qtbot.keyClick(window, Key.Key_Z, mods.ControlModifier)
    message = bar.currentMessage()
    assert message == ("Undone: Sequence length, Base and 1 more back (Ctrl+Shift+Z redoes it)")
    window.lecture.display.set_scale(3.0)
    try:
        window.resize(1280, 720)
        qtbot.waitUntil(lambda: bar.width() <= 1280)
        qtbot.keyClick(window, Key.Key_Z, mods.ControlModifier)  # base back to 10000
        message = bar.currentMessage()
        assert message == "Undone: Base \u2192 10000 (Ctrl+Shift+Z)"
        assert bar.fontMetrics().horizontalAdvance(message) <= window.status_room(), message
    finally:
        window.lecture.display.set_scale(1.0)
        window.resize(1600, 1000)


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
