"""A run of nudges on the stage is one drag: the formula line never gets shorter until the
nudge key is let go (and not pressed again soon), so the plots below stay where they are.

On the 1920 × 1080 stage at 200 % Sinusoidal's formula (d = 32) is 122 px high up to
base 220.9 and 132 px from 224.3 on (the longest wavelength passes a power of ten:
"1·10³", a superscript). → held nudged the base across it: each nudge is a live frame,
and a frame more than the view's full-quality interval (150 ms) after the one before,
as on a loaded machine, ended the drag: the formula line took the new value's height
and the plots jumped 10 px down while the key was still held. (The line grows, at its
own size, on the frame whose formula needs more room: the plots move there, not when
the run is over.)
"""

from __future__ import annotations

from live_frames import held_drags
from PySide6 import QtCore, QtGui, QtWidgets
from qt_events import settle_window

from gui.lecture import stage_strip
from gui.lecture.stage_strip import StageControls

KeyPress = QtCore.QEvent.Type.KeyPress
KeyRelease = QtCore.QEvent.Type.KeyRelease


def _key(window, kind: QtCore.QEvent.Type, *, repeat: bool = False) -> None:
    """→ pressed or let go on the stage (``repeat``: the key's auto-repeat), drawn."""
    no_mods = QtCore.Qt.KeyboardModifier.NoModifier
    event = QtGui.QKeyEvent(kind, QtCore.Qt.Key.Key_Right, no_mods, "", repeat)
    QtWidgets.QApplication.sendEvent(window.stage, event)
    assert window.wait_idle(60)
    QtWidgets.QApplication.processEvents()


def _repeat(window) -> None:
    """The held key's next auto-repeat (X11 sends a release and a press)."""
    _key(window, KeyRelease, repeat=True)
    _key(window, KeyPress, repeat=True)


def _line(widget) -> tuple[int, int]:
    """The formula line's height and the canvas's top in the view (px)."""
    return widget.formula.height(), widget.canvas.mapTo(widget, QtCore.QPoint(0, 0)).y()


def _pause(widget) -> None:
    """More than the full-quality interval without a frame: the frame drawn in full
    quality, and the formula's hold checked (its timer)."""
    widget.finish_live_frame()
    widget._end_formula_hold()
    QtWidgets.QApplication.processEvents()


def test_a_run_of_nudges_keeps_the_formula_line_until_it_is_over(open_window, monkeypatch):
    # (a drag ends when the test says: the full-quality and run-end timers wait)
    monkeypatch.setattr(stage_strip, "NUDGE_RUN_MS", 600_000)
    with held_drags(), open_window(1600, 1000) as window:
        display = window.lecture.display
        display.present_scale = 2.0
        window.set_view("sinusoidal")
        display.enter_presentation(fullscreen=False)
        window.resize(1920, 1080)
        state = window.states["sinusoidal"]
        widget = window.views["sinusoidal"]
        controls = window.feature(StageControls)
        own: dict[float, tuple[int, int]] = {}  # base -> its settled line
        for base in (224.3, 217.5):
            state.set_param("base", base, merge=False)
            assert window.wait_idle(60)
            widget.finish_live_frame()
            settle_window(window)
            own[base] = _line(widget)
        assert own[217.5][0] == 122 and own[224.3][0] == 132  # (the superscript)
        start = own[217.5]
        _key(window, KeyPress)  # →: one step of the slider
        _key(window, KeyRelease)  # a tap
        assert state.values["base"] == 220.9 and _line(widget) == start
        _pause(widget)
        assert widget.nudge_held and _line(widget) == start  # (pressed again soon?)
        _key(window, KeyPress)  # again (within NUDGE_RUN_MS), and held down
        assert state.values["base"] == 224.3
        assert "10^{3}" in widget.formula.markup()  # (shown at its own size)
        taller = (132, start[1] + 10)
        assert _line(widget) == taller == own[224.3]
        assert widget.formula.fit_scale() == 1.0
        _pause(widget)  # a slow frame: the key is still held, and the line
        assert _line(widget) == taller
        _repeat(window)
        assert state.values["base"] == 227.8 and _line(widget) == taller
        _pause(widget)
        assert _line(widget) == taller
        _key(window, KeyRelease)  # let go
        _pause(widget)
        assert _line(widget) == taller  # (until NUDGE_RUN_MS is over)
        controls.nudge_run.timeout.emit()  # not pressed again: the run is over
        assert not widget.nudge_held
        _pause(widget)
        settle_window(window)
        assert _line(widget) == taller  # nothing moves when the run is over
        assert widget.formula.fit_scale() == 1.0 and widget.formula.minimumHeight() == 0


def test_a_run_of_nudges_ends_when_the_app_loses_the_keyboard(open_window, monkeypatch):
    """A nudge key held while the lecturer switches to another window is let go where
    the stage never sees its release: the run ends when the app is no longer active,
    not at the next full-quality frame, resize or key."""
    monkeypatch.setattr(stage_strip, "NUDGE_RUN_MS", 600_000)
    with held_drags(), open_window(1600, 1000) as window:
        window.set_view("sinusoidal")
        window.lecture.display.enter_presentation(fullscreen=False)
        widget = window.views["sinusoidal"]
        app = QtWidgets.QApplication.instance()
        _key(window, KeyPress)  # → held down
        assert widget.nudge_held
        app.applicationStateChanged.emit(QtCore.Qt.ApplicationState.ApplicationActive)
        assert widget.nudge_held  # (still the app's: the key is still held)
        app.applicationStateChanged.emit(QtCore.Qt.ApplicationState.ApplicationInactive)
        assert not widget.nudge_held
        window.lecture.display.leave_presentation()
