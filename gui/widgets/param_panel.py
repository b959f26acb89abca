"""Parameter panel generated from a :class:`core.params.ParamModel`.

Every parameter becomes a row: label (tooltip = help text), a slider with a spin box
(numbers), a check box (bool), a combo box (choice) or a line edit (text, lists, files),
and a reset-to-default button. Widget → model goes through :class:`gui.widgets.state.ViewState`;
model → widget updates are applied with signals blocked, so there are no echo loops.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6 import QtCore, QtGui, QtWidgets

from core.params import Param, ParamError
from gui.widgets.slider_scale import (
    PAGE_POSITIONS,
    SLIDER_STEPS,
    FloatScale,
    IntScale,
    step_value,
)
from gui.widgets.state import ViewState

__all__ = ["SLIDER_STEPS", "ParamPanel", "ParamRow"]


_NOTHING = object()


class _NumberSlider(QtWidgets.QSlider):
    """A slider whose arrow keys ask for one step of the value (``nudged(±1)``) instead
    of one position, so that every integer stays reachable from the keyboard on a
    wide, log-like scale. Page Up/Down and mouse clicks keep moving by positions."""

    nudged = QtCore.Signal(int)
    nudges = False  # set for integer parameters

    _KEYS = {
        QtCore.Qt.Key.Key_Right: 1,
        QtCore.Qt.Key.Key_Up: 1,
        QtCore.Qt.Key.Key_Left: -1,
        QtCore.Qt.Key.Key_Down: -1,
    }

    def keyPressEvent(self, event: QtGui.QKeyEvent) -> None:
        direction = self._KEYS.get(QtCore.Qt.Key(event.key()))
        if direction is not None and self.nudges:
            self.nudged.emit(direction)
            event.accept()
        else:
            super().keyPressEvent(event)


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
        self.editor.setObjectName(f"param-{p.name}")
        self.editor.setToolTip(f"{p.help}\nAllowed: {p.range_text()}")

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
        if p.kind == "int":
            spin = QtWidgets.QSpinBox(parent)
            spin.setRange(int(p.minimum), int(p.maximum))
            spin.setSingleStep(int(p.step or 1))
            spin.valueChanged.connect(lambda v: self.state.set_param(p.name, int(v)))
        else:
            spin = QtWidgets.QDoubleSpinBox(parent)
            spin.setDecimals(p.decimals)
            spin.setRange(float(p.minimum), float(p.maximum))
            spin.setSingleStep(float(p.step or 0.1))
            spin.valueChanged.connect(lambda v: self.state.set_param(p.name, float(v)))
        spin.setKeyboardTracking(False)
        spin.setMinimumWidth(90)
        # may shrink below its hint (room for "10000000.0000") in a narrow side panel
        spin.setSizePolicy(
            QtWidgets.QSizePolicy.Policy.Preferred, QtWidgets.QSizePolicy.Policy.Fixed
        )
        # Enter emits editingFinished with the focus still here (a focus change emits it
        # after the focus left); the value is committed (valueChanged) before
        spin.editingFinished.connect(lambda: spin.hasFocus() and self._on_enter())
        # a typed value (Enter or leaving the field) is one undo step of its own; the
        # arrow keys' and wheel's steps before it merge like a slider drag
        spin.editingFinished.connect(self.state.end_merge)
        self.editor = spin
        self.slider.valueChanged.connect(self._slider_moved)
        self.slider.sliderReleased.connect(self.state.end_merge)
        self.slider.setToolTip(p.help)

    def _slider_to_value(self, pos: int) -> float:
        if self.scale is not None:
            return self.scale.value(pos)
        return self.fscale.value(pos)

    def _value_to_slider(self, v: float) -> int:
        if self.scale is not None:
            return self.scale.position(v)
        return self.fscale.position(v)

    def _nudge(self, direction: int) -> None:
        """Arrow keys on an integer slider: exactly one step of the value."""
        p = self.param
        self.state.set_param(p.name, step_value(p, self.state.values[p.name], direction))

    def _slider_moved(self, pos: int) -> None:
        value = self._slider_to_value(pos)
        value = min(max(value, self.param.minimum), self.param.maximum)
        self.state.set_param(
            self.param.name, int(value) if self.param.kind == "int" else float(value)
        )

    # ----------------------------------------------------------- text kinds
    def _text_committed(self, *_: Any) -> bool:
        text = self.editor.text()
        try:
            value = self.param.parse(text) if self.param.kind == "int_list" else text
        except ParamError as exc:
            self.state.error.emit(str(exc))
            return False
        return self.state.set_param(self.param.name, value, merge=self.param.kind == "text")

    def _text_finished(self) -> None:
        """Enter or leaving the field: commit; the next edit is a new undo step."""
        self._text_committed()
        self.state.end_merge()

    def _text_entered(self) -> None:
        """Enter: commit, and leave the field unless the text was refused (to fix it)."""
        if self._text_committed():
            self._on_enter()

    # ----------------------------------------------------------- model → view
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
        self.rows: dict[str, ParamRow] = {}
        layout = QtWidgets.QGridLayout(self)
        # label | editor | reset on the first line of a parameter; a number's slider gets
        # the whole second line (next to a spin box wide enough for "10000000.0000" it
        # was left 55 px for up to 1800 positions at 125 %)
        layout.setColumnStretch(0, 1)
        for r, param in enumerate(state.model.params):
            row = ParamRow(param, state, self, self.entered.emit)
            self.rows[param.name] = row
            label = QtWidgets.QLabel(param.label, self)
            label.setToolTip(f"{param.name}: {param.help}\nAllowed: {param.range_text()}")
            label.setBuddy(row.editor)
            reset = QtWidgets.QToolButton(self)
            reset.setText("↺")
            reset.setObjectName(f"reset-{param.name}")
            reset.setToolTip(f"Reset {param.label} to {param.format(param.default)}")
            reset.clicked.connect(lambda _=False, n=param.name: state.reset(n))
            beside = row.slider is not None or param.kind == "file"
            if beside:  # shares its line with a spin box or a Browse button
                label.setWordWrap(True)  # a long label wraps there
                layout.addWidget(label, 2 * r, 0)
            else:
                layout.addWidget(label, 2 * r, 0, 1, 3)
            if row.slider is not None:
                layout.addWidget(row.editor, 2 * r, 1)
                layout.addWidget(reset, 2 * r, 2)
                layout.addWidget(row.slider, 2 * r + 1, 0, 1, 3)
            else:
                layout.addWidget(row.editor, 2 * r + 1, 0, 1, 2)
                layout.addWidget(reset, 2 * r + 1, 2)
            if param.kind == "file":
                browse = QtWidgets.QPushButton("Browse…", self)
                browse.setObjectName(f"browse-{param.name}")
                browse.clicked.connect(lambda _=False, n=param.name: self._browse(n))
                layout.addWidget(browse, 2 * r, 1, 1, 2)
        layout.setRowStretch(2 * len(state.model.params), 1)
        state.changed.connect(self.show_values)
        self.show_values(state.values)

    def show_values(self, values: dict[str, Any]) -> None:
        """Model → view: update every widget (signals blocked)."""
        for name, row in self.rows.items():
            row.show_value(values[name])

    def _browse(self, name: str) -> None:
        path, _ = QtWidgets.QFileDialog.getOpenFileName(
            self, "Load position table", "", "NumPy arrays (*.npy);;All files (*)"
        )
        if path:
            self.state.set_param(name, path, merge=False)
