"""Float parameter fields show the value as the model holds it, at its decimals, in the
shortest text ("10000", "0.5"), not padded to the decimals as a QDoubleSpinBox pads it
("10000.0000", "0.5000"): the panel, the presentation strip and the Animation box
(:mod:`gui.widgets.float_field`). Typing, stepping, undo, rounding, the fields' widths and
the scene files stay as they were."""

from __future__ import annotations

import json

from PySide6 import QtCore, QtWidgets
from qt_events import wheel_down
from tiers import FULL

from gui.lecture.stage_strip import ParamStrip, StageControls
from gui.widgets.float_field import FloatField, trimmed

Key = QtCore.Qt.Key
Mod = QtCore.Qt.KeyboardModifier


def _rope(studio):
    studio.set_view("rope")
    state = studio.states["rope"]
    state.reset()
    return state, studio.panels["rope"]


def _focus(window, qtbot, widget) -> None:
    window.activateWindow()
    widget.setFocus(QtCore.Qt.FocusReason.MouseFocusReason)
    qtbot.waitUntil(lambda: QtWidgets.QApplication.focusWidget() is widget, timeout=2000)


def _typed(window, qtbot, field, text: str) -> None:
    """``text`` typed over the field's value, then Enter."""
    _focus(window, qtbot, field)
    field.selectAll()
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, Key.Key_Return)


def _shows_whole(field: QtWidgets.QAbstractSpinBox) -> bool:
    """Whether the field's text reads whole: painted with the cursor at its end, its
    line edit has not scrolled the text (a field too narrow scrolls, and the first
    digits are cut: "9999999.9999" read "999999.9999" at the width of "10000000").
    QLineEdit scrolls when it paints; the start's cursor shows how far it scrolled."""
    edit = field.lineEdit()
    edit.end(False)
    edit.grab()  # paints: scrolled so that the end shows
    edit.home(False)
    scrolled = edit.cursorRect().x()
    edit.grab()  # scrolled back to the start
    return edit.cursorRect().x() == scrolled


def test_trimmed_in_other_locales():
    c, german = QtCore.QLocale.c(), QtCore.QLocale(QtCore.QLocale.Language.German)
    assert trimmed("10000.0000", c) == "10000" and trimmed("0.5000", c) == "0.5"
    assert trimmed("0.0001", c) == "0.0001" and trimmed("10000", c) == "10000"  # 0 decimals
    assert trimmed("-0.0000", c) == "0" and trimmed("-2.5000", c) == "-2.5"
    assert trimmed("0,5000", german) == "0,5" and trimmed("10000,0000", german) == "10000"


def test_fields_show_the_value_as_the_model_holds_it(studio):
    state, panel = _rope(studio)
    fields = (QtWidgets.QAbstractSpinBox, QtWidgets.QLineEdit)
    text = {n: r.editor.text() for n, r in panel.rows.items() if isinstance(r.editor, fields)}
    assert text["base"] == "10000"  # was "10000.0000"
    assert text["factor"] == "4" and text["partial_rotary_factor"] == "1"
    assert text["mscale"] == "0" and text["xpos_scale_base"] == "512"
    for name, value, shown in [
        ("partial_rotary_factor", 0.5, "0.5"),
        ("mscale", 0.0001, "0.0001"),
        ("beta_slow", 0.1, "0.1"),
        ("base", 10_000_000.0, "10000000"),
        ("base", 1_234_567.8912, "1234567.8912"),
        # more digits than the model's four decimals: rounded as before, model unchanged
        ("partial_rotary_factor", 0.123456, "0.1235"),
        ("factor", 2.00004, "2"),
    ]:
        assert state.set_param(name, value, merge=False)
        assert panel.rows[name].editor.text() == shown, name
        assert state.values[name] == value
    # the presentation strip builds its fields with the panel's rows
    strip = ParamStrip(state, "m")
    try:
        assert strip.rows["base"].editor.text() == "1234567.8912"
        assert strip.rows["partial_rotary_factor"].editor.text() == "0.1235"
        state.reset()
        assert strip.rows["base"].editor.text() == "10000"
    finally:
        strip.deleteLater()
    # the Animation box's range of a float parameter
    sweep = studio.lecture.sweep
    sweep.choose("base")
    assert (sweep.start_spin.text(), sweep.end_spin.text()) == ("10000", "10000000")
    sweep.choose("m")
    assert sweep.start_spin.text() == str(state.values["m"])  # an integer: as before


def test_typing_stepping_and_undo(studio, qtbot):
    state, panel = _rope(studio)
    base = panel.rows["base"].editor
    _typed(studio, qtbot, base, "12345.5")
    assert state.values["base"] == 12345.5 and base.text() == "12345.5"
    assert not base.hasFocus()  # Enter handed the keyboard back to the stage
    qtbot.keyClick(QtWidgets.QApplication.focusWidget(), Key.Key_Z, Mod.ControlModifier)
    assert state.values["base"] == 10000.0 and base.text() == "10000"
    _typed(studio, qtbot, base, "20000")
    assert state.values["base"] == 20000.0 and base.text() == "20000"
    # arrow keys, Page Up and the wheel step by the model's step (1000) in clean texts
    _focus(studio, qtbot, base)
    qtbot.keyClick(base, Key.Key_Up)
    assert state.values["base"] == 21000.0 and base.text() == "21000"
    qtbot.keyClick(base, Key.Key_PageUp)
    assert state.values["base"] == 31000.0 and base.text() == "31000"
    wheel_down(base)
    assert state.values["base"] == 30000.0 and base.text() == "30000"
    fraction = panel.rows["partial_rotary_factor"].editor
    _typed(studio, qtbot, fraction, "0.25")
    assert state.values["partial_rotary_factor"] == 0.25 and fraction.text() == "0.25"
    qtbot.keyClick(QtWidgets.QApplication.focusWidget(), Key.Key_Z, Mod.ControlModifier)
    assert state.values["partial_rotary_factor"] == 1.0 and fraction.text() == "1"
    # a fifth decimal is refused while typing, as before
    _typed(studio, qtbot, fraction, "0.12345")
    assert state.values["partial_rotary_factor"] == 0.1234 and fraction.text() == "0.1234"
    state.reset()


def test_fields_keep_room_for_their_longest_value(studio):
    state, panel = _rope(studio)
    for name, row in panel.rows.items():
        if not isinstance(row.editor, FloatField):
            continue
        plain = QtWidgets.QDoubleSpinBox(panel)  # as the field was: its hints are kept
        plain.setDecimals(row.editor.decimals())
        plain.setRange(row.editor.minimum(), row.editor.maximum())
        try:
            assert row.editor.sizeHint() == plain.sizeHint(), name
            assert row.editor.minimumSizeHint() == plain.minimumSizeHint(), name
        finally:
            plain.deleteLater()
    base = panel.rows["base"].editor
    state.set_param("base", 9_999_999.9999, merge=False)
    assert base.text() == "9999999.9999" and _shows_whole(base)
    state.reset()


@FULL  # the gate checks the strip's texts (ParamStrip) and the hints at 100 %
def test_strip_in_presentation_at_200_percent(studio):
    state, _panel = _rope(studio)
    display = studio.lecture.display
    display.present_scale = 2.0
    display.enter_presentation(fullscreen=False)
    try:
        assert studio.wait_idle()
        controls = studio.feature(StageControls)
        controls.show_strip()
        assert studio.wait_idle()
        fields = controls.strip.rows
        assert fields["base"].editor.text() == "10000"
        assert fields["partial_rotary_factor"].editor.text() == "1"
        state.set_param("base", 1_234_567.8912, merge=False)
        assert fields["base"].editor.text() == "1234567.8912"
        assert _shows_whole(fields["base"].editor)
    finally:
        display.leave_presentation()
        state.reset()


def test_scene_files_keep_the_typed_value(studio, qtbot, tmp_path):
    state, panel = _rope(studio)
    _typed(studio, qtbot, panel.rows["base"].editor, "12345.5")
    path = tmp_path / "scene.json"
    assert studio.lecture.deck.save_current_scene(path)
    assert json.loads(path.read_text(encoding="utf-8"))["params"]["base"] == 12345.5
    state.reset()
    assert panel.rows["base"].editor.text() == "10000"
    assert studio.lecture.deck.open_scene(path)
    assert state.values["base"] == 12345.5 and panel.rows["base"].editor.text() == "12345.5"
    state.reset()


def test_refused_keys_say_why(studio, qtbot):
    """A number field dropped a refused key silently: a letter, a minus sign below a
    range starting at 0, a digit past the maximum ("99999" for a base pair index stayed
    "9999"), a fifth decimal. Each now shows one line naming the field."""
    state, panel = _rope(studio)
    said: list[str] = []
    state.error.connect(said.append)
    try:
        m = panel.rows["m"].editor
        _typed(studio, qtbot, m, "1x")
        assert said[-1] == "Query position m: 'x' refused: expected an integer"
        assert state.values["m"] == 1  # what it took
        _typed(studio, qtbot, m, "-")
        assert said[-1] == "Query position m: '-' refused: expected an integer"
        top = int(state.model["m"].maximum)
        _typed(studio, qtbot, m, str(top * 10))
        # (the digit past the maximum stays and is said; Enter keeps the value)
        assert said[-1] == f"Query position m: {top * 10} is out of range 0..{top}; kept 1"
        assert state.values["m"] == 1
        fraction = panel.rows["partial_rotary_factor"].editor
        _typed(studio, qtbot, fraction, "0.12345")
        assert said[-1].startswith("Rotary fraction: '5' refused: at most 4 decimals")
        assert "0.12345" not in said[-1]
        count = len(said)
        _typed(studio, qtbot, m, "42")  # valid keys say nothing
        assert len(said) == count and state.values["m"] == 42
        # a value set by the program (not typed) says nothing either
        state.set_param("m", 7, merge=False)
        assert len(said) == count
    finally:
        state.error.disconnect(said.append)
        state.reset()


def test_an_empty_or_too_small_entry_says_what_was_kept(studio, qtbot):
    """Enter on a number field left empty, or holding a value below its range that
    its keys let through ("1" for RoPE's offset range from 2), put the
    old value back without a word (seen on Xvfb: Base emptied, Enter, 412166.3699 again
    and nothing said). Now one line names the field, why, and the value kept."""
    state, panel = _rope(studio)
    said: list[str] = []
    state.error.connect(said.append)

    def emptied(field) -> None:
        _focus(studio, qtbot, field)
        field.selectAll()
        qtbot.keyClick(field, Key.Key_Delete)
        qtbot.keyClick(field, Key.Key_Return)

    try:
        seq = panel.rows["seq_len"].editor  # "Offset range", 2..65536
        emptied(seq)
        assert said[-1] == "Offset range: empty; kept 256"
        assert state.values["seq_len"] == 256 and seq.text() == "256"
        _typed(studio, qtbot, seq, "1")
        assert said[-1] == "Offset range: 1 is out of range 2..65536; kept 256"
        assert state.values["seq_len"] == 256 and seq.text() == "256"
        emptied(panel.rows["base"].editor)
        assert said[-1] == "Base (rope_theta): empty; kept 10000"
        count = len(said)
        _typed(studio, qtbot, seq, "300")  # a valid value says nothing
        assert len(said) == count and state.values["seq_len"] == 300
    finally:
        state.error.disconnect(said.append)
        state.reset()


def test_a_refused_text_undone_in_its_field_takes_its_message_away(studio, qtbot):
    """'0,1,abc' entered in Sinusoidal's Dimensions to plot: the red line says why and
    the plots stay. Ctrl+Z in the field brings its text back to the dimensions drawn:
    the line goes too. Before, it stayed over plots and a field that agreed again
    (seen on Xvfb)."""
    studio.set_view("sinusoidal")
    state = studio.states["sinusoidal"]
    state.reset()
    view = studio.view_widget("sinusoidal")
    field = studio.panels["sinusoidal"].rows["dims"].editor
    try:
        _typed(studio, qtbot, field, "0,1,abc")
        assert view.error.startswith("Dimensions to plot: expected an integer")
        qtbot.keyClick(field, Key.Key_Z, QtCore.Qt.KeyboardModifier.ControlModifier)
        assert field.text() == "0,1,2,3,4,5" and tuple(state.values["dims"]) == (0, 1, 2, 3, 4, 5)
        assert view.error == ""
    finally:
        state.reset()


def test_a_number_past_the_maximum_entered_keeps_the_value_and_says_so(studio, qtbot):
    """Typing "88888" into Offset range (2..65536): the fifth digit was refused (said
    so while typing), and Enter then applied 8888, a number nobody typed, and the
    message went. Now the field shows what was typed, and Enter keeps the value drawn
    and says so in one line, as for a value below the range."""
    state, panel = _rope(studio)
    said: list[str] = []
    state.error.connect(said.append)
    try:
        seq = panel.rows["seq_len"].editor
        _focus(studio, qtbot, seq)
        seq.selectAll()
        qtbot.keyClicks(seq, "88888")
        assert seq.text() == "88888"
        assert said[-1] == "Offset range: 88888 is out of range 2..65536"
        qtbot.keyClick(seq, Key.Key_Return)
        assert state.values["seq_len"] == 256 and seq.text() == "256"
        assert said[-1] == "Offset range: 88888 is out of range 2..65536; kept 256"
        # a float field too: Base past its maximum is not cut to fewer digits
        base = panel.rows["base"].editor
        top = state.model["base"].maximum
        typed = str(int(top) * 10)
        _typed(studio, qtbot, base, typed)
        assert state.values["base"] == 10000 and base.text() == "10000"
        assert said[-1].endswith("; kept 10000") and typed in said[-1]
    finally:
        state.error.disconnect(said.append)
        state.reset()


def test_a_refused_number_typed_back_to_the_value_drawn_takes_its_message_away(studio, qtbot):
    """'99999' typed into Offset range (2..65536): the red line says it is out of range
    and Enter keeps 256. Typing the value drawn, 256, and Enter changed nothing, so
    nothing was drawn that took the line away: it stayed over a field and plots that
    agreed until the next scene. Now it goes; a bad value entered again brings it back,
    and a value drawn anew takes it away as before."""
    state, panel = _rope(studio)
    view = studio.view_widget("rope")
    seq = panel.rows["seq_len"].editor
    try:
        _typed(studio, qtbot, seq, "99999")
        assert view.error == "Offset range: 99999 is out of range 2..65536; kept 256"
        assert state.values["seq_len"] == 256 and seq.text() == "256"
        _typed(studio, qtbot, seq, "256")  # the value drawn: nothing new to draw
        assert state.values["seq_len"] == 256
        assert view.error == "" and view.banner.isHidden()
        _typed(studio, qtbot, seq, "1x")  # a refused key, then Enter: 1 is below the range
        assert view.error == "Offset range: 1 is out of range 2..65536; kept 256"
        seq.selectAll()
        qtbot.keyClicks(seq, "0256")  # typed, not entered yet: reads as the value drawn
        assert view.error == ""
        _typed(studio, qtbot, seq, "99999")
        assert view.error.startswith("Offset range: 99999 is out of range")
        _typed(studio, qtbot, seq, "300")  # drawn anew
        assert studio.wait_idle()
        assert state.values["seq_len"] == 300 and view.error == ""
        # another field's refusal stays when this one reads as its value
        sections = state.model["mrope_section"].label
        _typed(studio, qtbot, panel.rows["mrope_section"].editor, "16,x")
        assert view.error.startswith(f"{sections}: expected an integer")
        _typed(studio, qtbot, seq, "300")
        assert view.error.startswith(f"{sections}: expected an integer")
    finally:
        state.reset()


def test_a_refused_key_is_said_briefly_and_names_only_what_was_typed(studio, qtbot, monkeypatch):
    """The caret inside Base (10000), "a" typed: the red line said "expected a number,
    got '100a00'" while the field showed 10000 and the plots used it, and it stayed
    until another parameter changed (QA walk on Xvfb). Now it names the key, and goes
    when the field is typed in so that it reads as a value, when the field is left, or
    after a few seconds (:data:`REFUSAL_MS`); a message said later stays."""
    from gui.widgets import param_panel

    state, panel = _rope(studio)
    view = studio.view_widget("rope")
    base = panel.rows["base"].editor
    other = panel.rows["seq_len"].editor

    def key_a() -> None:
        _focus(studio, qtbot, base)
        base.lineEdit().deselect()
        base.lineEdit().setCursorPosition(3)
        qtbot.keyClick(base, Key.Key_A)

    try:
        key_a()
        assert base.text() == "10000" and state.values["base"] == 10000
        assert view.error == "Base (rope_theta): 'a' refused: expected a number"
        # a key that makes the text a value again (not entered: nothing is drawn)
        qtbot.keyClick(base, Key.Key_5)
        assert base.text() == "100500" and state.values["base"] == 10000
        assert view.error == ""
        base.lineEdit().setText("10000")
        # leaving the field
        key_a()
        assert view.error.startswith("Base (rope_theta): 'a' refused")
        _focus(studio, qtbot, other)
        assert view.error == ""
        # a few seconds later
        monkeypatch.setattr(param_panel, "REFUSAL_MS", 0)
        key_a()
        assert view.error.startswith("Base (rope_theta): 'a' refused")
        qtbot.waitUntil(lambda: view.error == "", timeout=2000)
        # ... but not a message said after it
        key_a()
        view.show_error("Base (rope_theta): something else")
        qtbot.wait(50)
        assert view.error == "Base (rope_theta): something else"
    finally:
        view.clear_error()
        state.reset()
