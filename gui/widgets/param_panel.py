"""Parameter panel generated from a :class:`core.params.ParamModel`.

Every parameter becomes a row: label (tooltip = help text), a slider with a spin box
(numbers), a check box (bool), a combo box (choice) or a line edit (text, lists, files),
and a reset-to-default button. Widget → model goes through :class:`gui.widgets.state.ViewState`;
model → widget updates are applied with signals blocked, so there are no echo loops.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, cast

from PySide6 import QtCore, QtGui, QtWidgets

from core.params import Param, ParamError, short_repr
from core.table_formats import TABLE_SUFFIXES
from gui.render.math_text import math_tooltip
from gui.widgets.float_field import FloatField
from gui.widgets.slider_scale import (
    PAGE_POSITIONS,
    SLIDER_STEPS,
    FloatScale,
    IntScale,
    step_drawn,
)
from gui.widgets.state import ViewState
from gui.widgets.wheel_guard import guard_wheel

__all__ = [
    "SLIDER_STEPS",
    "FieldLine",
    "ParamPanel",
    "ParamRow",
    "browse_table",
    "main_first",
    "table_filter",
]


_NOTHING = object()
#: how long a refused key's message stays (ms) unless the field is typed in validly or
#: left first: it explains the key, then does not linger over a picture that is right
REFUSAL_MS = 4000


class _NumberSlider(QtWidgets.QSlider):
    """A slider whose arrow keys ask for one step of the value (``nudged(±1)``) instead
    of one position, so that every integer stays reachable from the keyboard on a
    wide, log-like scale. Page Up/Down keep moving by positions; a click on the groove
    puts the handle where it is clicked."""

    nudged = QtCore.Signal(int)
    nudges = False  # set for integer parameters

    _KEYS = {
        QtCore.Qt.Key.Key_Right: 1,
        QtCore.Qt.Key.Key_Up: 1,
        QtCore.Qt.Key.Key_Left: -1,
        QtCore.Qt.Key.Key_Down: -1,
    }

    def mousePressEvent(self, event: QtGui.QMouseEvent) -> None:
        """A left click on the groove puts the handle there and the drag goes on from it
        (the style's left click moved one page and the drag after it did nothing: a
        lecturer clicks where the value should be). The press is handed on as the
        button the style sets positions with (Fusion: the middle one)."""
        left = QtCore.Qt.MouseButton.LeftButton
        if event.button() == left:
            opt = QtWidgets.QStyleOptionSlider()
            self.initStyleOption(opt)
            style = self.style()
            hit = style.hitTestComplexControl(
                QtWidgets.QStyle.ComplexControl.CC_Slider, opt, event.position().toPoint(), self
            )
            buttons = style.styleHint(
                QtWidgets.QStyle.StyleHint.SH_Slider_AbsoluteSetButtons, opt, self
            )
            setting = buttons & ~int(left.value)
            if hit != QtWidgets.QStyle.SubControl.SC_SliderHandle and setting:
                button = QtCore.Qt.MouseButton(setting & -setting)  # (its lowest button)
                event = QtGui.QMouseEvent(
                    event.type(),
                    event.position(),
                    event.globalPosition(),
                    button,
                    button,
                    event.modifiers(),
                )
        super().mousePressEvent(event)

    def keyPressEvent(self, event: QtGui.QKeyEvent) -> None:
        direction = self._KEYS.get(QtCore.Qt.Key(event.key()))
        if direction is not None and self.nudges:
            self.nudged.emit(direction)
            event.accept()
        else:
            super().keyPressEvent(event)


class _SaysWhy:
    """A number field whose refused keys say why (a mixin before the spin box class).

    A spin box drops a key that would make its text invalid, silently: a letter, a
    minus sign where the range has none, a fifth decimal. Each refusal while the field
    has the keyboard calls :attr:`refused` with the text the key would have made and
    ``False`` (the field does not show it). A number outside the range is not refused
    but said too (``True``: the field shows it): it stays as typed, and Enter keeps the
    value (:attr:`kept`).
    """

    refused: Callable[[str, bool], None] | None = None
    #: called with the text and the value's text kept when Enter or leaving the field
    #: left a text that is no value (empty, "-", below the minimum): Qt puts the last
    #: value back then, and said nothing (Base emptied, Enter: 412166.3699 again)
    kept: Callable[[str, str], None] | None = None

    def _typed(self) -> bool:
        """Whether the field shows a text other than its value's (typed, not entered)."""
        box = cast(QtWidgets.QAbstractSpinBox, self)
        return box.text() != box.textFromValue(box.value())  # type: ignore[attr-defined]

    def event(self, event: QtCore.QEvent) -> bool:
        # Escape with a typed text is the field's (it takes the text back, keyPressEvent);
        # with nothing typed it stays the window's shortcut (leave the stage, …)
        if (
            event.type() == QtCore.QEvent.Type.ShortcutOverride
            and cast(QtGui.QKeyEvent, event).key() == QtCore.Qt.Key.Key_Escape
            and self._typed()
        ):
            event.accept()
            return True
        return cast(bool, super().event(event))  # type: ignore[misc]

    def keyPressEvent(self, event: QtGui.QKeyEvent) -> None:
        """Escape takes a typed text back to the value's: the field left after it
        changes nothing (Qt enters a spin box's text when it loses focus: "300" typed,
        Escape, a click elsewhere, and Sequence length was 300)."""
        if event.key() == QtCore.Qt.Key.Key_Escape and self._typed():
            box = cast(QtWidgets.QAbstractSpinBox, self)
            box.lineEdit().setText(box.textFromValue(box.value()))  # type: ignore[attr-defined]
            box.selectAll()
            event.accept()
            return
        super().keyPressEvent(event)  # type: ignore[misc]

    def validate(self, text: str, pos: int, /) -> tuple[QtGui.QValidator.State, str, int]:
        # (the spin box's, after this mixin in the class's bases)
        result: tuple[QtGui.QValidator.State, str, int] = super().validate(text, pos)  # type: ignore[misc]
        widget = cast(QtWidgets.QWidget, self)
        if result[0] != QtGui.QValidator.State.Invalid:
            return result
        if self._outside_range(text):
            # a number past the range stays in the field as typed: Enter keeps the value
            # and says so (:meth:`fixup`). Refused, "88888" stayed "8888" in Sequence
            # length (up to 65536), and Enter applied 8888, a number nobody typed
            result = (QtGui.QValidator.State.Intermediate, text, pos)
        if self.refused and widget.hasFocus():
            self.refused(text, result[0] != QtGui.QValidator.State.Invalid)
        return result

    def _outside_range(self, text: str) -> bool:
        """Whether ``text`` reads as a number of the field's kind (an integer for an
        integer field) outside its range."""
        box = cast(QtWidgets.QSpinBox | QtWidgets.QDoubleSpinBox, self)
        locale = box.locale()
        number: float
        if isinstance(box, QtWidgets.QSpinBox):
            number, ok = locale.toLongLong(text.strip())
        else:
            number, ok = locale.toDouble(text.strip())
        return bool(ok) and not box.minimum() <= number <= box.maximum()

    def fixup(self, text: str, /) -> str:
        """Qt asks this for a text typed that is no value (only then), before it puts
        the last value back: say so."""
        result: str = super().fixup(text)  # type: ignore[misc]
        if self.kept is not None:
            box = cast(QtWidgets.QAbstractSpinBox, self)
            value = box.value()  # type: ignore[attr-defined]
            self.kept(text, box.textFromValue(value))  # type: ignore[attr-defined]
        return result


class _IntField(_SaysWhy, QtWidgets.QSpinBox):
    """An integer spin box that says why it refuses a key (:class:`_SaysWhy`)."""


class _FloatField(_SaysWhy, FloatField):
    """A :class:`FloatField` that says why it refuses a key (:class:`_SaysWhy`)."""


def main_first(names: Iterable[str], main: str | None) -> list[str]:
    """``names`` in their order, with ``main`` (a view's main parameter: the one the
    nudge keys move and Space sweeps) first: the presentation strip's cells and the
    presenter window's panel."""
    ordered = list(names)
    ordered.sort(key=lambda name: name != main)
    return ordered


def refusal(param: Param, text: str) -> str | None:
    """Why a number field of ``param`` refuses ``text`` (a one-line message without the
    parameter's name), or ``None`` when the text is a valid value after all."""
    text = text.strip()
    if not text:
        return None
    try:
        param.parse(text)
    except ParamError as exc:
        return str(exc).removeprefix(f"{param.name}: ")
    if param.kind == "float":
        return f"at most {param.decimals} decimals ({param.range_text()}), got {text!r}"
    return None


def typed_part(before: str, after: str) -> str:
    """What an edit put into ``before`` to make ``after``: the keys typed or the text
    pasted ("a" for "10000" → "100a00"), ``""`` when it only took characters away."""
    start = 0
    while start < min(len(before), len(after)) and before[start] == after[start]:
        start += 1
    end = 0
    while end < min(len(before), len(after)) - start and before[-1 - end] == after[-1 - end]:
        end += 1
    return after[start : len(after) - end]


def refused_key(param: Param, shown: str, text: str) -> str | None:
    """The message for a key (or paste) the number field of ``param`` refused: it
    shows ``shown`` and the key would have made ``text``. It names what was typed and
    why it was refused, never the text it would have made, which the field does not
    show (Base 10000, "a" typed in the middle said "got '100a00'" beside a field that
    showed 10000). ``None`` when ``text`` is a valid value after all."""
    why = refusal(param, text)
    if why is None:
        return None
    why = re.sub(r", got .*$", "", why)
    key = typed_part(shown, text)
    return f"{short_repr(key)} refused: {why}" if key.strip() else f"edit refused: {why}"


class ParamRow:
    """The widgets of one parameter and how to read/write them (the panel's rows and the
    presentation mode's parameter strip build their editors with it)."""

    def __init__(
        self,
        param: Param,
        state: ViewState,
        parent: QtWidgets.QWidget,
        on_enter: Callable[[], object] = lambda: None,
    ) -> None:
        self.param = param
        self.state = state
        self._on_enter = on_enter  # Enter committed this field
        self._shown: Any = _NOTHING  # the value the widgets show (skip re-showing it)
        self._kept_now = False  # a number field said what it kept (until typed in)
        self._refusal = ""  # the message of the number field's last refusal still said
        self.upper = param.maximum  # the number's useful end for the other values now
        self.slider: QtWidgets.QSlider | None = None
        self.editor: QtWidgets.QWidget
        p = param
        if p.kind in ("int", "float"):
            self._build_number(parent)
        elif p.kind == "bool":
            self.editor = QtWidgets.QCheckBox(parent)
            self.editor.toggled.connect(lambda v: state.set_param(p.name, bool(v), merge=False))
        elif p.kind == "choice":
            self.editor = QtWidgets.QComboBox(parent)
            self.editor.addItems(list(p.choices))
            self.editor.currentTextChanged.connect(
                lambda t: state.set_param(p.name, t, merge=False)
            )
        else:
            self.editor = QtWidgets.QLineEdit(parent)
            self.editor.returnPressed.connect(self._text_entered)
            self.editor.editingFinished.connect(self._text_finished)
            if p.kind == "text":
                self.editor.textEdited.connect(self._text_committed)
            self.editor.textChanged.connect(self._text_back)
        self.editor.setObjectName(f"param-{p.name}")
        self.editor.setToolTip(math_tooltip(f"{p.help}\nAllowed: {p.range_text()}"))
        # in a panel that scrolls, the wheel scrolls it unless the field has the keyboard
        guard_wheel(*(w for w in (self.editor, self.slider) if w is not None))

    # ----------------------------------------------------------- numbers
    def _build_number(self, parent: QtWidgets.QWidget) -> None:
        p = self.param
        self.slider = _NumberSlider(QtCore.Qt.Orientation.Horizontal, parent)
        self.slider.setObjectName(f"slider-{p.name}")
        if p.kind == "int":
            # positions are the values of an IntScale: every value while the range is
            # short, 1 % steps beyond a knee when it is wide (see gui.widgets.slider_scale)
            self.scale: IntScale | None = IntScale(int(p.minimum), int(p.maximum), int(p.step or 1))
            self.slider.setRange(0, self.scale.last)
            self.slider.setPageStep(PAGE_POSITIONS)
            self.slider.nudges = True
            self.slider.nudged.connect(self._nudge)
        else:
            self.scale = None
            self.slider.setRange(0, SLIDER_STEPS)
        self.fscale = FloatScale(float(p.minimum), float(p.maximum), p.log_scale, p.decimals)
        spin: QtWidgets.QSpinBox | QtWidgets.QDoubleSpinBox
        if p.kind == "int":
            spin = _IntField(parent)
            spin.setRange(int(p.minimum), int(p.maximum))
            spin.setSingleStep(int(p.step or 1))
            spin.valueChanged.connect(lambda v: self.state.set_param(p.name, int(v)))
        else:
            # its value's shortest text ("10000", "0.5"; a QDoubleSpinBox padded it to
            # "10000.0000"), rounded to the model's decimals, at the padded text's width
            spin = _FloatField(parent)
            spin.setDecimals(p.decimals)
            spin.setRange(float(p.minimum), float(p.maximum))
            spin.setSingleStep(float(p.step or 0.1))
            spin.valueChanged.connect(lambda v: self.state.set_param(p.name, float(v)))
        spin.refused = self._refused
        self._refusal_timer = QtCore.QTimer(spin)
        self._refusal_timer.setSingleShot(True)
        self._refusal_timer.timeout.connect(self._refusal_over)
        spin.kept = self._kept
        spin.setKeyboardTracking(False)
        spin.setMinimumWidth(90)
        # may shrink below its hint (room for "10000000.0000") in a narrow side panel
        spin.setSizePolicy(
            QtWidgets.QSizePolicy.Policy.Preferred, QtWidgets.QSizePolicy.Policy.Fixed
        )
        # Enter emits editingFinished with the focus still here (a focus change emits it
        # after the focus left); the value is committed (valueChanged) before
        spin.editingFinished.connect(lambda: spin.hasFocus() and self._on_enter())
        # a typed text that reads as the value drawn takes the field's message away
        spin.lineEdit().textEdited.connect(self._number_back)
        spin.editingFinished.connect(self._number_finished)
        # a typed value (Enter or leaving the field) is one undo step of its own; the
        # arrow keys' and wheel's steps before it merge like a slider drag
        spin.editingFinished.connect(self.state.end_merge)
        self.editor = spin
        self.slider.valueChanged.connect(self._slider_moved)
        self.slider.sliderReleased.connect(self.state.end_merge)
        self.slider.setToolTip(math_tooltip(p.help))

    def _refused(self, text: str, shown: bool) -> None:
        """A key the number field refused (the field keeps its text), or a number past
        its range it shows (``shown``): say why. A refused key's message goes after
        :data:`REFUSAL_MS`, when the field is left, or typed in so that it reads as a
        value (:meth:`_refusal_over`); a number past the range is said until the text
        changes or Enter says what was kept."""
        spin = cast(QtWidgets.QAbstractSpinBox, self.editor)
        # (the line edit's text() is the refused text while it is validated; its
        # displayText(), the spin box's text(), is still the one shown)
        why = refusal(self.param, text) if shown else refused_key(self.param, spin.text(), text)
        if why is None:
            return
        self._refusal = f"{self.param.label}: {why}"
        self.state.error.emit(self._refusal)
        if shown:
            self._refusal_timer.stop()
        else:
            self._refusal_timer.start(REFUSAL_MS)

    def _refusal_over(self) -> None:
        """The refusal said last has nothing left to say: the field was left, typed in
        so that it reads as a value, or :data:`REFUSAL_MS` passed. Its message goes if
        the banner still shows it (not a later one: what Enter kept, a compute error)."""
        self._refusal_timer.stop()
        if self._refusal:
            self.state.resolved.emit(self._refusal)
            self._refusal = ""

    def _kept(self, text: str, kept: str) -> None:
        """Enter or leaving the field with ``text``, which is no value: the field shows
        its value ``kept`` again; say why, and that it was kept."""
        why = refusal(self.param, text) if text.strip() else "empty"
        if why is None:  # (a text Qt could not read that the model can: not expected)
            why = f"not a value, got {text.strip()!r}"
        self._kept_now = True  # (its editingFinished follow: the message stays)
        self.state.error.emit(f"{self.param.label}: {why}; kept {kept}")

    def _reads_as_drawn(self) -> bool:
        """Whether the number field's text reads as the value it shows, the value
        drawn ("100" typed over a Sequence length of 100, also "0100")."""
        spin = cast(QtWidgets.QSpinBox | QtWidgets.QDoubleSpinBox, self.editor)
        try:
            typed = self.param.parse(spin.cleanText())
        except ParamError:
            return False
        if isinstance(spin, QtWidgets.QSpinBox):
            return spin.textFromValue(int(typed)) == spin.textFromValue(spin.value())
        return spin.textFromValue(float(typed)) == spin.textFromValue(spin.value())

    def _number_back(self, _text: str) -> None:
        """A text typed in the number field (keys, its own Ctrl+Z): where it reads as
        the value drawn again, the field's refusal has nothing left to say. The value
        does not change, so nothing is drawn that would take the message away: "99999"
        refused in Sequence length, then "100" (drawn already) typed and entered, and
        the red line stayed over a field and plots that agreed until the next scene."""
        self._kept_now = False
        if self._reads_as_drawn():
            self.state.resolved.emit(self.param.label)
        elif self._refusal and self._reads_as_value():
            self._refusal_over()

    def _reads_as_value(self) -> bool:
        """Whether the number field's text reads as a value of the parameter."""
        spin = cast(QtWidgets.QAbstractSpinBox, self.editor)
        try:
            self.param.parse(spin.lineEdit().text())
        except ParamError:
            return False
        return True

    def _number_finished(self) -> None:
        """Enter or leaving the number field: a text that reads as the value drawn
        takes the field's message away, unless that message says what Enter kept (it
        stays until the field is typed in again: Enter leaves the field, a second
        editingFinished)."""
        if not self._kept_now and self._reads_as_drawn():
            self.state.resolved.emit(self.param.label)
        self._refusal_over()  # (a refused key's message; what Enter kept stays)

    def _slider_to_value(self, pos: int) -> float:
        if self.scale is not None:
            return self.scale.value(pos)
        return self.fscale.value(pos)

    def _value_to_slider(self, v: float) -> int:
        if self.scale is not None:
            return self.scale.position(v)
        return self.fscale.position(v)

    def _nudge(self, direction: int) -> None:
        """Arrow keys on an integer slider: exactly one step of the value (from the value
        drawn, within the parameter's limit)."""
        old, new = step_drawn(self.param, self.state.values, direction)
        if new != old:  # (at the limit, a stored value beyond it stays)
            self.state.set_param(self.param.name, new)

    def _slider_moved(self, pos: int) -> None:
        value = self._slider_to_value(pos)
        value = min(max(value, self.param.minimum), self.upper)
        self.state.set_param(
            self.param.name, int(value) if self.param.kind == "int" else float(value)
        )

    # ----------------------------------------------------------- text kinds
    def _text_committed(self, *_: Any) -> bool:
        text = self.editor.text()
        try:
            value = self.param.parse(text) if self.param.kind == "int_list" else text
        except ParamError as exc:
            self.state.error.emit(self.state.labelled(exc))
            return False
        return self.state.set_param(self.param.name, value, merge=self.param.kind == "text")

    def _text_back(self, text: str) -> None:
        """The field's text changed: where it reads as the value drawn again (a refused
        text taken back with the field's own Ctrl+Z), its refusal's message goes."""
        name = self.param.name
        try:
            value = self.param.parse(text) if self.param.kind == "int_list" else text
            new = self.state.model.updated(self.state.values, **{name: value})
        except (ParamError, ValueError):
            return
        if new[name] == self.state.values[name]:
            self.state.resolved.emit(self.param.label)

    def _text_finished(self) -> None:
        """Enter or leaving the field: commit; the next edit is a new undo step."""
        self._text_committed()
        self.state.end_merge()

    def _text_entered(self) -> None:
        """Enter: commit, and leave the field unless the text was refused (to fix it)."""
        if self._text_committed():
            self._on_enter()

    # ----------------------------------------------------------- model → view
    def show(self, values: Mapping[str, Any]) -> None:
        """Display this parameter's value in ``values`` (signals blocked). A number with a
        :attr:`~core.params.Param.limit` shows the value the view draws, on a slider that
        ends at the limit (a query position at ``seq_len − 1``)."""
        p = self.param
        if p.unused is not None:
            why = self.state.unused_why(p.name, values)
            self._show_used(why)
            if why is not None and p.name in self.state.used:
                # greyed out: the value drawn instead (a table file's 128 rows, not the
                # 64 the field keeps for when the file goes)
                self.show_value(self.state.used[p.name])
                return
        if p.limit is None:
            self.show_value(values[p.name])
            return
        self._set_upper(p.upper(values))
        drawn, spin = p.effective(values), self.editor
        assert isinstance(spin, (QtWidgets.QSpinBox, QtWidgets.QDoubleSpinBox))  # (numbers)
        if spin.value() != drawn:  # (typed beyond the limit: drawn the same)
            self._shown = _NOTHING
        self.show_value(drawn)

    def _show_used(self, why: str | None) -> None:
        """Grey the field (and slider) out while its value is not used (``why``: the
        reason, said in its tooltip): a Learned table loaded from a file kept "Table
        rows 64" and "Model width d 32" live beside its 1024 × 768 rows."""
        used = why is None
        widgets = [self.editor] + ([self.slider] if self.slider is not None else [])
        if widgets[0].isEnabled() == used:
            return
        tip = math_tooltip(f"{self.param.help}\nAllowed: {self.param.range_text()}")
        for widget in widgets:
            widget.setEnabled(used)
        self.editor.setToolTip(tip if used else math_tooltip(f"Not used now: {why}.") + tip)

    def _set_upper(self, upper: float) -> None:
        """End the slider's range at ``upper`` (signals blocked). The spin box keeps the
        whole range: a spin box ending at 15 took "20" typed as 2 (it refuses the key
        that leaves its range); 20 is taken, and shown as the 15 drawn."""
        if upper == self.upper or self.slider is None:
            return
        self.upper = upper
        p, lo = self.param, self.param.minimum
        assert lo is not None  # (a number)
        with QtCore.QSignalBlocker(self.slider):
            if self.scale is not None:
                self.scale = IntScale(int(lo), int(upper), int(p.step or 1))
                self.slider.setRange(0, self.scale.last)
            self.fscale = FloatScale(float(lo), float(upper), p.log_scale, p.decimals)
        self._shown = _NOTHING  # the same value may sit at another position now

    def show_value(self, value: Any) -> None:
        """Display ``value`` without emitting change signals (nothing if already shown)."""
        if self._shown == value and type(self._shown) is type(value):
            return  # every change re-shows all values; a spin box update costs ~0.1 ms
        self._shown = value
        widgets = [self.editor] + ([self.slider] if self.slider is not None else [])
        blockers = [QtCore.QSignalBlocker(w) for w in widgets]
        try:
            p = self.param
            if p.kind in ("int", "float"):
                self.editor.setValue(value)
                self.slider.setValue(self._value_to_slider(value))
            elif p.kind == "bool":
                self.editor.setChecked(bool(value))
            elif p.kind == "choice":
                self.editor.setCurrentText(str(value))
            elif self.editor.text() != p.format(value):
                self.editor.setText(p.format(value))
        finally:
            del blockers


class _PanelGrid(QtWidgets.QGridLayout):
    """A parameter panel's grid; its ``invalidate`` (Qt calls it when a child widget's
    size hint changes, and on every activation) also forgets the kept field widths."""

    def __init__(self, parent: QtWidgets.QWidget, forget: Callable[[], None]) -> None:
        super().__init__(parent)
        self._forget = forget

    def invalidate(self) -> None:
        self._forget()
        super().invalidate()


class FieldLine(QtWidgets.QLayout):
    """One parameter's first line: its label, then its fields (a spin box and the reset
    button, or a Browse button) at the right, each field at its whole size hint.

    The fields of every line of a panel line up in one column as wide as the widest
    line's fields (:meth:`ParamPanel.field_width`) where the label still has its
    longest word's width beside them; a line whose label would not fit beside that
    column keeps its fields at their own width, and where not even that fits the label
    takes a line of its own above them. A spin box is never squeezed below its hint,
    so it always shows its whole value: in one shared grid column RoPE's "base" (hint
    429 px at 300 %) was cut to 145 px ("1000(") at 1280 x 720, 300 %, windowed.
    The line's height for a width depends on that width only (the fields' width it
    keeps is their size hints', forgotten whenever Qt invalidates the layout).
    """

    BELOW_GAP = 1  # px between the line and its slider (the gap to the next parameter
    # is the grid's: a slider sits with its own field, and a short screen gains a gap)

    def __init__(
        self,
        label: QtWidgets.QLabel,
        fields: list[QtWidgets.QWidget],
        common: Callable[[], int],
        below: QtWidgets.QWidget | None = None,
        epoch: list[int] | None = None,
    ) -> None:
        super().__init__()
        self.setContentsMargins(0, 0, 0, 0)
        self._fields_w: int | None = None  # fields_width until the next invalidate
        # the panel's count of its grid's invalidations (one list for all its lines):
        # the width kept is for the count it was measured at (see ParamPanel._forget_widths)
        self._epoch = epoch if epoch is not None else [0]
        self._fields_at = self._epoch[0]
        self._label = QtWidgets.QWidgetItem(label)
        self._label_widget = label
        self._fields = [QtWidgets.QWidgetItem(w) for w in fields]
        self._common = common  # the panel's field column width now
        self._below = QtWidgets.QWidgetItem(below) if below is not None else None

    # ---------------------------------------------------------------- QLayout
    def addItem(self, item: QtWidgets.QLayoutItem) -> None:  # (fixed contents)
        raise NotImplementedError("FieldLine holds a label and its fields only")

    def _items(self) -> list[QtWidgets.QLayoutItem]:
        items: list[QtWidgets.QLayoutItem] = [self._label, *self._fields]
        return items + ([self._below] if self._below is not None else [])

    def count(self) -> int:
        return len(self._items())

    def itemAt(self, index: int) -> QtWidgets.QLayoutItem | None:
        items = self._items()
        return items[index] if 0 <= index < len(items) else None

    def takeAt(self, index: int) -> QtWidgets.QLayoutItem | None:
        return None  # (the widgets stay with the line)

    def expandingDirections(self) -> QtCore.Qt.Orientation:
        return QtCore.Qt.Orientation.Horizontal

    def hasHeightForWidth(self) -> bool:
        return True

    # ---------------------------------------------------------------- geometry
    def _gap(self) -> int:
        parent = self.parentWidget()
        style = parent.style() if parent is not None else QtWidgets.QApplication.style()
        spacing = self.spacing()
        if spacing < 0:
            spacing = style.pixelMetric(QtWidgets.QStyle.PixelMetric.PM_LayoutHorizontalSpacing)
        return max(spacing, 0)

    def invalidate(self) -> None:
        self._fields_w = None
        super().invalidate()

    def forget_fields_width(self) -> None:
        """Measure the fields again when next asked (without a re-layout request)."""
        self._fields_w = None

    def fields_width(self) -> int:
        """The fields side by side at their size hints, with the gaps between them.

        Kept until the line or the panel's grid is invalidated (a field's size hint
        changing invalidates the grid it sits in: :class:`_PanelGrid`). Every line's
        height asks for the panel's common column, which asks every number line: a
        window showing each view asked ~97 000 times (~15 % of its CPU).
        """
        if self._fields_w is None or self._fields_at != self._epoch[0]:
            widths = [item.sizeHint().width() for item in self._fields if not item.isEmpty()]
            self._fields_w = sum(widths) + self._gap() * max(len(widths) - 1, 0)
            self._fields_at = self._epoch[0]
        return self._fields_w

    @property
    def fields_width_kept(self) -> bool:
        """Whether :meth:`fields_width` is kept (tests)."""
        return self._fields_w is not None and self._fields_at == self._epoch[0]

    def _fields_height(self) -> int:
        return max((i.sizeHint().height() for i in self._fields if not i.isEmpty()), default=0)

    def label_least(self) -> int:
        """The label's narrowest (its longest word)."""
        return self._label.minimumSize().width()

    def side_by_side(self) -> int:
        """The least width at which the label fits beside the fields."""
        return self.label_least() + self._gap() + self.fields_width()

    def label_line(self) -> int:
        """The label's width on one line."""
        label = self._label_widget
        margins = label.contentsMargins()
        text = label.fontMetrics().horizontalAdvance(label.text())
        return text + margins.left() + margins.right() + 2 * label.margin() + 1

    def _arrange(self, width: int) -> tuple[int, bool]:
        """``(field column width, label beside the fields)`` at ``width``: the shared
        column, or the line's own fields' width, with the label on one line beside
        them if it can be (a wrapped label costs a line of height); else with the label
        wrapped beside them; else the label above them."""
        own = self.fields_width()
        gap = self._gap()
        for least in (self.label_line(), self.label_least()):
            for fields in (max(own, self._common()), own):
                if least + gap + fields <= width:
                    return fields, True
        return min(own, width), False

    def _label_height(self, width: int) -> int:
        if self._label.hasHeightForWidth():
            return self._label.heightForWidth(max(width, 1))
        return self._label.sizeHint().height()

    def _below_height(self) -> int:
        if self._below is None or self._below.isEmpty():
            return 0
        return self.BELOW_GAP + self._below.sizeHint().height()

    def heightForWidth(self, width: int) -> int:
        fields, beside = self._arrange(width)
        if beside:
            label = self._label_height(width - fields - self._gap())
            line = max(label, self._fields_height())
        else:
            line = self._label_height(width) + self.spacing_v() + self._fields_height()
        return line + self._below_height()

    def spacing_v(self) -> int:
        parent = self.parentWidget()
        style = parent.style() if parent is not None else QtWidgets.QApplication.style()
        return max(style.pixelMetric(QtWidgets.QStyle.PixelMetric.PM_LayoutVerticalSpacing), 0)

    def sizeHint(self) -> QtCore.QSize:
        width = self.label_line() + self._gap() + max(self.fields_width(), self._common())
        return QtCore.QSize(width, self.heightForWidth(width))

    def minimumSize(self) -> QtCore.QSize:
        # (the height is the least any width gives, the label on one line: a grid takes
        # the minimum's height as its row's least, whatever its height for its width)
        width = max(self.label_least(), self.fields_width())
        if self._below is not None:
            width = max(width, self._below.minimumSize().width())
        return QtCore.QSize(width, self.heightForWidth(self.sizeHint().width()))

    def setGeometry(self, rect: QtCore.QRect) -> None:
        super().setGeometry(rect)
        fields, beside = self._arrange(rect.width())
        height = self._fields_height()
        if beside:
            label_width = rect.width() - fields - self._gap()
            label_height = self._label_height(label_width)
            row = max(label_height, height)
            self._label.setGeometry(
                QtCore.QRect(
                    rect.x(), rect.y() + (row - label_height) // 2, label_width, label_height
                )
            )
            top = rect.y() + (row - height) // 2
            bottom = rect.y() + row
        else:
            label_height = self._label_height(rect.width())
            self._label.setGeometry(QtCore.QRect(rect.x(), rect.y(), rect.width(), label_height))
            top = rect.y() + label_height + self.spacing_v()
            bottom = top + height
        if self._below is not None:
            below = self._below.sizeHint().height()
            self._below.setGeometry(
                QtCore.QRect(rect.x(), bottom + self.BELOW_GAP, rect.width(), below)
            )
        # the fields at the right; the first (the editor) takes what the column has over
        # their hints (the shared column: every editor as wide as the widest)
        items = [i for i in self._fields if not i.isEmpty()]
        extra = max(fields - self.fields_width(), 0)
        x = rect.right() + 1 - fields
        for n, item in enumerate(items):
            hint = item.sizeHint()
            width = min(hint.width() + (extra if n == 0 else 0), rect.right() + 1 - x)
            own = min(hint.height(), height)
            item.setGeometry(QtCore.QRect(x, top + (height - own) // 2, max(width, 0), own))
            x += width + self._gap()


class ParamPanel(QtWidgets.QWidget):
    """Form of all parameters of one view, bound to a :class:`ViewState`.

    Signals
    -------
    entered()
        Enter committed a spin box or text field: the window hands the keyboard back to
        the stage, so that the lecture keys (Space, Ctrl+Z, ...) act again.
    """

    entered = QtCore.Signal()

    def __init__(self, state: ViewState, parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self._values_due = False  # a drag's values not shown while hidden (show_values)
        self.rows: dict[str, ParamRow] = {}
        self._field_w: int | None = None  # field_width until the grid is invalidated
        self._widths_epoch = [0]  # the grid's invalidations, shared with the lines
        layout = _PanelGrid(self, self._forget_widths)
        # a number: label | spin box | reset on a FieldLine, its slider on the whole width
        # under them (next to a spin box wide enough for "10000000.0000" it was left
        # 55 px for up to 1800 positions at 125 %); other kinds: the label, then the
        # editor | reset
        layout.setColumnStretch(0, 1)
        self.lines: list[FieldLine] = []  # the first lines of numbers and files
        self._number_lines: list[FieldLine] = []
        # each parameter's grid items: (widget or line, row offset, column, spans)
        self._places: dict[str, list[tuple[QtWidgets.QWidget | FieldLine, int, int, int, int]]] = {}
        self._tabs: dict[str, list[QtWidgets.QWidget]] = {}  # its fields, in Tab's order
        self.first: str | None = None  # the parameter shown first (set_first)
        r = 0  # the grid's row
        for param in state.model.params:
            row = ParamRow(param, state, self, self.entered.emit)
            self.rows[param.name] = row
            label = QtWidgets.QLabel(param.label, self)
            label.setToolTip(
                math_tooltip(
                    f"{param.help}\nAllowed: {param.range_text()}", literal=f"{param.name}: "
                )
            )
            label.setBuddy(row.editor)
            reset = QtWidgets.QToolButton(self)
            reset.setText("↺")
            reset.setObjectName(f"reset-{param.name}")
            reset.setToolTip(f"Reset {param.label} to {param.format(param.default)}")
            reset.clicked.connect(lambda _=False, n=param.name: state.reset(n))
            places = self._places[param.name] = []
            # (Tab's order as the widgets were made: a number's slider, its field, reset)
            tabs = self._tabs[param.name] = [row.editor]
            if row.slider is not None:  # label | spin box | reset, the slider below
                label.setWordWrap(True)  # a long label wraps there
                line = FieldLine(
                    label, [row.editor, reset], self.field_width, row.slider, self._widths_epoch
                )
                places.append((line, 0, 0, 1, 3))
                tabs[:] = [row.slider, row.editor, reset]
                self._number_lines.append(line)
                self.lines.append(line)
            else:
                if param.kind == "file":  # label | Browse, the path and reset below
                    label.setWordWrap(True)
                    browse = QtWidgets.QPushButton("Browse…", self)
                    browse.setObjectName(f"browse-{param.name}")
                    browse.clicked.connect(lambda _=False, n=param.name: self._browse(n))
                    line = FieldLine(label, [browse], lambda: 0, epoch=self._widths_epoch)
                    places.append((line, 0, 0, 1, 3))
                    tabs.append(browse)
                    self.lines.append(line)
                else:
                    places.append((label, 0, 0, 1, 3))
                places += [(row.editor, 1, 0, 1, 2), (reset, 1, 2, 1, 1)]
                tabs.insert(1, reset)
            r += 1 + max(place[1] for place in places)
        self._place(list(self._places))
        layout.setRowStretch(r, 1)
        state.changed.connect(self.show_values)
        state.drawn.connect(self._show_drawn)
        self.show_values(state.values)

    def set_first(self, name: str | None) -> None:
        """Show parameter ``name`` first, the others in the model's order after it (the
        order of :func:`main_first`, the presentation strip's): the presenter window's
        panel puts the scene's main parameter on top, as the strip on stage does.
        ``None`` or a name the view has not: the model's order."""
        if name == self.first:
            return
        self.first = name
        self._place(main_first(self._places, name))

    def _place(self, names: list[str]) -> None:
        """Put the parameters' rows into the grid in the order ``names`` (their items
        taken out first when already placed); Tab walks the fields in that order."""
        grid = self.layout()
        assert isinstance(grid, QtWidgets.QGridLayout)
        for places in self._places.values():
            for item, *_ in places:
                if isinstance(item, FieldLine):
                    grid.removeItem(item)
                    item.setParent(None)  # (a layout with a parent is not added again)
                else:
                    grid.removeWidget(item)
        r = 0
        for name in names:
            places = self._places[name]
            for item, offset, column, rows, columns in places:
                if isinstance(item, FieldLine):
                    grid.addLayout(item, r + offset, column, rows, columns)
                else:
                    grid.addWidget(item, r + offset, column, rows, columns)
            r += 1 + max(place[1] for place in places)
        chain = [widget for name in names for widget in self._tabs[name]]
        for first, second in zip(chain, chain[1:], strict=False):
            QtWidgets.QWidget.setTabOrder(first, second)

    def field_width(self) -> int:
        """The width of the column the numbers' fields line up in: the widest number
        line's spin box and reset button side by side (kept until the grid is
        invalidated)."""
        if self._field_w is None:
            self._field_w = max((line.fields_width() for line in self._number_lines), default=0)
        return self._field_w

    def _forget_widths(self) -> None:
        """The grid was invalidated (a field's size hint, font or style may have
        changed): the fields' widths are measured again when next asked.

        One count for all the lines (each compares it with the count its width was
        measured at): Qt invalidates the grids ~1 300 times in a re-style (F5, a theme
        toggle; four views built), and telling each number line took 12-20 ms of it
        (now ~2 ms)."""
        self._field_w = None
        epoch = getattr(self, "_widths_epoch", None)  # (Qt invalidates during __init__)
        if epoch is not None:
            epoch[0] += 1

    def side_by_side_width(self) -> int:
        """The least width of the panel at which every line has its label beside its
        fields in the shared column (each label at its longest word's width)."""
        layout = self.layout()
        margins = layout.contentsMargins() if layout is not None else QtCore.QMargins()
        common = self.field_width()
        lines = (line.side_by_side() + max(common - line.fields_width(), 0) for line in self.lines)
        return max(lines, default=0) + margins.left() + margins.right()

    def show_values(self, values: dict[str, Any]) -> None:
        """Model → view: update every widget (signals blocked). (a value pinned by a sweep in
        place of its own: ViewState.pin)

        The panel of the view shown, hidden with the side panel in a shown window (on
        stage), shows a drag's values when it is shown again
        (:meth:`ViewState.waits_for_show`, :meth:`showEvent`): following each frame of
        a drag on stage set the unseen row's spin box and slider, ~0.15 ms of each
        frame (alibi, 150 %).
        Other changes (a scene, a file, an undo) show at once, and so does the panel
        of a view not shown (a page of the stack: hidden itself), which a program may
        set and read back."""
        if self.state.waits_for_show(self):
            self._values_due = True
            return
        self._values_due = False
        values = self.state.shown(values)
        for name, row in self.rows.items():
            p = row.param
            if p.unused is None and p.limit is None:
                # (shows its own value alone: nothing to do where it shows it already,
                # as ParamRow.show_value finds; a drag changes one of ~12 values)
                value, shown = values[name], row._shown
                if shown == value and type(shown) is type(value):
                    continue
            row.show(values)

    def _show_drawn(self) -> None:
        """The drawing used other values for unused parameters (ViewState.used)."""
        self.show_values(self.state.values)

    def showEvent(self, event: QtGui.QShowEvent) -> None:
        """Shown: the values it did not show while hidden (:meth:`show_values`)."""
        if self._values_due:
            self.show_values(self.state.values)
        super().showEvent(event)

    def _browse(self, name: str) -> None:
        browse_table(self, self.state, name)


def table_filter() -> str:
    """The file dialog's filter for a position table: every suffix the loader reads
    (:data:`core.table_formats.TABLE_SUFFIXES`; it offered ``*.npy`` only, so GPT-2's
    ``model.safetensors`` was not listed), then all files."""
    patterns = " ".join(f"*{suffix}" for suffix in TABLE_SUFFIXES)
    return f"Position tables ({patterns});;All files (*)"


def browse_table(parent: QtWidgets.QWidget, state: ViewState, name: str) -> None:
    """Ask for a table file and set it as parameter ``name`` of ``state`` (one undo
    step); nothing when the dialog is cancelled."""
    path, _ = QtWidgets.QFileDialog.getOpenFileName(
        parent, "Load position table", "", table_filter()
    )
    if path:
        state.set_param(name, path, merge=False)
