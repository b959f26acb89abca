"""Animation: sweep one int/float parameter of the current view, or export the sweep.

A sweep runs a parameter from a start to an end value (linear or geometric) in a chosen
duration, once, in a loop or ping-pong. A display-rate ``QTimer`` calls
:meth:`gui.widgets.state.ViewState.set_param` with the value at the time elapsed; the
update engine coalesces, so a slow view simply skips frames. A whole sweep is one undo
step (``merge``). The sweep can be written as numbered PNG frames at slide
size, from its start value (the deck scene's value or the parameter's minimum), with a
progress dialog whose Cancel leaves no frame files.
"""

from __future__ import annotations

import math
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6 import QtCore, QtGui, QtWidgets
from superqt.utils import signals_blocked

from core.formula import number
from core.params import Param, ParamModel
from core.schedule import (
    EASES,
    MODES,
    check_sweep,
    progress_at,
    round_half_up,
    swept,
    value_at,
)
from gui.lecture.deck import DeckController
from gui.plotting.layout_check import combo_field_width
from gui.render.math_text import math_tooltip
from gui.theme import current_theme
from gui.widgets.float_field import FloatField
from gui.widgets.progress import modal_progress
from gui.widgets.wheel_guard import guard_wheel
from gui.window.protocol import StudioWindow

DEFAULT_SWEEP = {"rope": "m", "sinusoidal": "base", "alibi": "query", "clock": "shift"}
CLOCK_POSITIONS = ("m", "n", "shift")
DEFAULT_DURATION, MIN_DURATION, MAX_DURATION = 4.0, 0.1, 600.0  # seconds
MAX_WAIT_S = 0.5  # a value not drawn after this long (a failed computation) is passed
STEPS = 64
MAX_FRAMES = 240
FRAME_SIZE = (1920, 1080)  # exported frames: slide size
FrameWriter = Callable[..., Path]
"""``writer(view_id, params, path, width=, height=)``: draws one frame (the composition
root installs :func:`gui.export.headless.export_view`)."""


def sweepable(model: ParamModel) -> list[Param]:
    """The int and float parameters of ``model``, in panel order."""
    return [p for p in model.params if p.kind in ("int", "float")]


def default_sweep_param(model: ParamModel) -> str | None:
    """The parameter swept by default: per-view choice, else the first int parameter."""
    names = {p.name for p in sweepable(model)}
    preferred = DEFAULT_SWEEP.get(model.view_id)
    if preferred in names:
        return preferred
    ints = [p.name for p in sweepable(model) if p.kind == "int"]
    return ints[0] if ints else next(iter(sorted(names)), None)


def sweep_values(param: Param, values: Mapping[str, Any]) -> list[Any]:
    """The values a sweep of ``param`` visits, starting at its current value.

    Integers step by ``param.step`` (at most :data:`STEPS` steps, or up to the
    parameter's :attr:`~core.params.Param.limit` such as ``seq_len − 1`` for a query
    position); log-scale floats grow
    geometrically up to 1000× (or the maximum); other floats go linearly to the maximum.
    At the upper end the sweep starts over from the minimum.
    """
    return _swept_steps(param, values, None)


def sweep_ends(param: Param, values: Mapping[str, Any]) -> tuple[Any, Any]:
    """The first and last of :func:`sweep_values` (the same values), without the steps
    between: a view's sweep follows every change of its parameters
    (:meth:`SweepController._values_changed`), on each frame of a drag of another
    parameter; Sinusoidal's base (log scale) made and rounded its 65 values a frame."""
    ends = _swept_steps(param, values, (0, -1))
    return ends[0], ends[-1]


def _swept_steps(
    param: Param, values: Mapping[str, Any], only: tuple[int, ...] | None
) -> list[Any]:
    """:func:`sweep_values`: all of them (``only`` ``None``), or those at the indices
    ``only``, each worked out (and rounded) as in the whole list."""
    lo_limit, hi_limit = float(param.minimum), float(param.upper(values))
    start = float(values[param.name])
    if start >= hi_limit:
        start = lo_limit

    def picked(steps: range) -> Any:
        return steps if only is None else [steps[i] for i in only]

    if param.kind == "int":
        step = int(param.step or 1)
        end = hi_limit if param.limit is not None else min(hi_limit, start + STEPS * step)
        stepped = range(int(start), int(end) + 1, step)
        return list(picked(stepped)) if stepped else [int(start)]
    if param.log_scale and start > 0:
        end = min(hi_limit, start * 1000.0)
        n = STEPS
        out = [start * (end / start) ** (i / n) for i in picked(range(n + 1))]
        return swept(out, start, end, "geometric", param.decimals)
    float_step = float(param.step or (hi_limit - start) / STEPS)
    n = min(STEPS, max(1, math.floor((hi_limit - start) / float_step)))
    out = [min(hi_limit, start + i * (hi_limit - start) / n) for i in picked(range(n + 1))]
    return swept(out, start, hi_limit, "linear", param.decimals)


@dataclass
class SweepSetup:
    """One view's animation: ``param`` from ``start`` to ``end`` in ``duration`` seconds,
    eased ``linear`` or ``geometric``, played ``once``, in a ``loop`` or ``ping-pong``."""

    param: str
    start: float
    end: float
    duration: float = DEFAULT_DURATION
    ease: str = "linear"
    mode: str = "loop"


def default_setup(param: Param, values: Mapping[str, Any], view_id: str = "") -> SweepSetup:
    """The sweep offered for ``param``: the range :func:`sweep_values` visits from the
    current value (the clock's positions: 25 positions on), geometric for a log-scale
    parameter."""
    if view_id == "clock" and param.name in CLOCK_POSITIONS:
        first = float(values[param.name])
        return SweepSetup(param.name, first, min(float(param.maximum or 0.0), first + 25.0))
    first, last = sweep_ends(param, values)
    ease = "geometric" if param.log_scale and float(first) > 0 else "linear"
    return SweepSetup(param.name, float(first), float(last), ease=ease)


class SweepController(QtCore.QObject):
    """Play/pause a smooth parameter sweep of the current view; export it as PNG frames.

    A playing sweep sets the parameter on every display refresh to its value at the time
    elapsed (:func:`core.schedule.progress_at`, :func:`core.schedule.value_at`), so the
    motion is continuous and its speed does not depend on how fast a view draws: the
    update engine keeps only the newest request of a view, so a slow view skips values
    instead of queueing them. :attr:`clock` is the time source (tests replace it).

    Signals
    -------
    frame_written(int)
        An exported frame is written (the number written so far).
    value_set(object)
        A playing sweep set its parameter (the value).
    """

    frame_written = QtCore.Signal(int)
    value_set = QtCore.Signal(object)

    def __init__(
        self,
        window: StudioWindow,
        layout: QtWidgets.QBoxLayout,
        frame_writer: FrameWriter | None = None,
        at: int = -1,
    ) -> None:
        """The Animation box goes into ``layout`` at index ``at`` (-1: last)."""
        super().__init__(window.qt)
        self.window = window
        self.frame_writer = frame_writer
        self.progress: QtWidgets.QProgressDialog | None = None
        self.setups: dict[str, SweepSetup] = {}  # view id → its animation
        # views whose animation range (start, end, easing) the lecturer set; the others
        # follow their parameter's value (see _values_changed)
        self._typed: set[str] = set()
        self._followed: set[str] = set()  # views whose parameter changes are watched
        self.default_duration = DEFAULT_DURATION  # of views not animated yet (a setting)
        self.clock: Callable[[], float] = time.monotonic
        self.view_id = ""
        self._t0 = 0.0
        self._playing: SweepSetup | None = None
        self._awaiting: float | None = None  # when the value not yet drawn was set
        self._watched: set[str] = set()  # views whose drawn frames pace the animation
        self.timer = QtCore.QTimer(self)
        self.timer.setTimerType(QtCore.Qt.TimerType.PreciseTimer)
        self.timer.timeout.connect(self._tick)
        self._build(layout, at)
        window.view_changed.connect(lambda _view_id: self._view_changed())
        self._view_changed()

    def _build(self, layout: QtWidgets.QBoxLayout, at: int = -1) -> None:
        box = QtWidgets.QGroupBox("Animation", self.window.qt)
        grid = QtWidgets.QGridLayout(box)
        self.combo = QtWidgets.QComboBox(box)
        self.combo.setObjectName("sweep-param")
        self.combo.setToolTip("Parameter to animate (Space plays/pauses)")
        self.combo.setSizeAdjustPolicy(
            QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.combo.setMinimumContentsLength(12)
        self.combo.currentIndexChanged.connect(self._combo_changed)
        self.combo_fit = ComboFit(self.combo)  # its longest label reads whole
        # the swept parameter's values as the panel shows them ("10000", not "10000.0000")
        self.start_spin = FloatField(box)
        self.start_spin.setObjectName("sweep-start")
        self.start_spin.setToolTip("Value at the start of the animation")
        self.end_spin = FloatField(box)
        self.end_spin.setObjectName("sweep-end")
        self.end_spin.setToolTip("Value at the end of the animation")
        for spin, key in ((self.start_spin, "start"), (self.end_spin, "end")):
            spin.setKeyboardTracking(False)
            spin.valueChanged.connect(lambda v, k=key: self._edited(**{k: v}))
        self.duration_spin = QtWidgets.QDoubleSpinBox(box)
        self.duration_spin.setObjectName("sweep-duration")
        self.duration_spin.setRange(MIN_DURATION, MAX_DURATION)
        self.duration_spin.setDecimals(2)
        self.duration_spin.setSingleStep(0.5)
        self.duration_spin.setSuffix(" s")
        self.duration_spin.setKeyboardTracking(False)
        self.duration_spin.setToolTip("Seconds from start to end (Ctrl+] faster, Ctrl+[ slower)")
        self.duration_spin.valueChanged.connect(lambda v: self._edited(duration=v))
        self.ease_combo = QtWidgets.QComboBox(box)
        self.ease_combo.setObjectName("sweep-ease")
        self.ease_combo.addItems(list(EASES))
        self.ease_combo.setToolTip("Equal steps (linear) or equal ratios (geometric)")
        self.ease_combo.currentTextChanged.connect(lambda t: self._edited(ease=t))
        self.mode_combo = QtWidgets.QComboBox(box)
        self.mode_combo.setObjectName("sweep-mode")
        self.mode_combo.addItems(list(MODES))
        self.mode_combo.setToolTip("Play once, loop, or run back and forth")
        self.mode_combo.currentTextChanged.connect(lambda t: self._edited(mode=t))
        # the deck dock scrolls: the wheel over these scrolls it, not their values
        guard_wheel(
            self.combo,
            self.start_spin,
            self.end_spin,
            self.duration_spin,
            self.ease_combo,
            self.mode_combo,
        )
        self.play_button = QtWidgets.QPushButton(box)
        self._show_playing(False)
        self.play_button.setObjectName("sweep-play")
        self.play_button.clicked.connect(self.toggle)
        self.export_button = QtWidgets.QPushButton("Export frames…", box)
        self.export_button.setObjectName("sweep-export")
        self.export_button.clicked.connect(self.export_dialog)
        # the parameter on a row of its own, the box's whole width: beside its label it
        # read "Model width d (d_n…" at 150 % (1280 × 720 and 1920 × 1080, windowed)
        animate = QtWidgets.QLabel("Animate", box)
        animate.setBuddy(self.combo)
        grid.addWidget(animate, 0, 0, 1, 2)
        grid.addWidget(self.combo, 1, 0, 1, 2)
        rows = (
            ("From", self.start_spin),
            ("To", self.end_spin),
            ("Duration", self.duration_spin),
            ("Easing", self.ease_combo),
            ("Mode", self.mode_combo),
        )
        first = 2  # below the parameter's rows
        for row, (text, widget) in enumerate(rows, start=first):
            grid.addWidget(QtWidgets.QLabel(text, box), row, 0)
            grid.addWidget(widget, row, 1)
        last = first + len(rows)
        grid.addWidget(self.play_button, last, 0)
        grid.addWidget(self.export_button, last, 1)
        self.buttons = QtWidgets.QHBoxLayout()  # more export buttons go here
        grid.addLayout(self.buttons, last + 1, 0, 1, 2)
        layout.insertWidget(at, box)
        self.box = box
        box.installEventFilter(self)  # (shown: the range it missed while hidden)

    def eventFilter(self, watched: QtCore.QObject, event: QtCore.QEvent) -> bool:
        """The Animation box shown: the range it was not filled with while hidden
        (:meth:`_fill_shown`); nothing is filtered out."""
        if watched is self.box and event.type() == QtCore.QEvent.Type.Show and self._fill_due:
            self._fill()
        return False

    # ------------------------------------------------------------------ choice
    def setup(self, view_id: str | None = None) -> SweepSetup | None:
        """The animation of ``view_id`` (default: the current view); ``None`` when the
        view has no number parameter."""
        view_id = view_id or self.window.current_view
        known = self.setups.get(view_id)
        if known is not None:
            return known
        model = self._model(view_id)
        name = default_sweep_param(model)
        if name is None:
            return None
        values = (
            self.window.states[view_id].values
            if view_id in self.window.states
            else model.defaults()
        )
        self.setups[view_id] = default_setup(model[name], values, view_id)
        self.setups[view_id].duration = self.default_duration
        self._follow(view_id)
        return self.setups[view_id]

    def _follow(self, view_id: str) -> None:
        """Watch ``view_id``'s parameters (once) for :meth:`_values_changed`."""
        if view_id in self._followed or view_id not in self.window.states:
            return
        self._followed.add(view_id)
        self.window.states[view_id].changed.connect(
            lambda _values, v=view_id: self._values_changed(v)
        )

    def _values_changed(self, view_id: str) -> None:
        """``view_id``'s parameters changed, not by its playing animation (a deck's
        scene, a slider, an undo): an animation whose range the lecturer did not set
        starts at the new value, as a first one would. Lecture scene 5 ("Press Space
        to sweep the base upwards", base 100) swept 10000 → 10⁷, the range taken when
        scene 3 (base 10000) first showed the view: Space jumped from 100 to 10000."""
        if (self.playing and self.view_id == view_id) or view_id in self._typed:
            return
        old = self.setups.get(view_id)
        if old is None:
            return
        state = self.window.states[view_id]
        new = default_setup(state.model[old.param], state.values, view_id)
        new.duration, new.mode = old.duration, old.mode
        if (new.start, new.end, new.ease) != (old.start, old.end, old.ease):
            self.setups[view_id] = new
            if view_id == self.window.current_view:
                self._fill_shown(view_id)

    def _fill_shown(self, view_id: str) -> None:
        """:meth:`_fill` where the box is seen; a hidden box (on stage: the side panel
        is hidden) is filled with a drag's range when it is shown again
        (:meth:`ViewState.waits_for_show`). A drag of the swept parameter moves its range on every frame:
        filling the unseen box (ten spin box and combo calls) was ~1.5 % of a stage
        frame (alibi, 150 %)."""
        if self.window.states[view_id].waits_for_show(self.box):
            self._fill_due = True
        else:
            self._fill(view_id)

    def _model(self, view_id: str) -> ParamModel:
        if view_id in self.window.states:
            return self.window.states[view_id].model
        from core.views import get_view

        return get_view(view_id).model

    def param_name(self, view_id: str | None = None) -> str | None:
        """The parameter animated in ``view_id`` (default: the current view)."""
        setup = self.setup(view_id)
        return None if setup is None else setup.param

    def choose(self, name: str) -> None:
        """Animate ``name`` in the current view over its default range (ValueError if it
        is not an int/float parameter)."""
        state = self.window.current_state
        if name not in {p.name for p in sweepable(state.model)}:
            raise ValueError(f"{name!r} is not a number parameter of '{state.view_id}'")
        self.stop()
        old = self.setup(state.view_id)
        new = default_setup(state.model[name], state.values, state.view_id)
        if old is not None:
            new.duration, new.mode = old.duration, old.mode
        self.setups[state.view_id] = new
        self._typed.discard(state.view_id)  # its default range: follows the value again
        self._follow(state.view_id)
        self._fill(state.view_id)

    def configure(self, **changes: Any) -> SweepSetup:
        """Change the current view's animation: ``start``, ``end``, ``duration``, ``ease``,
        ``mode`` (and ``param``, which takes that parameter's default range first).

        Raises
        ------
        ValueError
            One line: a value outside the parameter's range, a geometric sweep through
            zero, a duration outside 0.1..600 s, an unknown mode or easing.
        """
        if "param" in changes:
            self.choose(changes.pop("param"))
        setup = self.setup()
        if setup is None:
            raise ValueError(f"view '{self.window.current_view}' has no number parameter")
        new = SweepSetup(**{**setup.__dict__, **changes})
        param = self.window.current_state.model[new.param]
        lo, hi = float(param.minimum or 0.0), float(param.maximum or 0.0)  # numbers have both
        for which in ("start", "end"):
            value = float(getattr(new, which))
            if not (lo <= value <= hi):
                raise ValueError(
                    f"{which} {value:g} is outside {param.name}'s range {param.range_text()}"
                )
        if not (MIN_DURATION <= float(new.duration) <= MAX_DURATION):
            raise ValueError(f"duration must be {MIN_DURATION:g}..{MAX_DURATION:g} s")
        if new.mode not in MODES:
            raise ValueError(f"unknown mode {new.mode!r}; use {', '.join(MODES)}")
        check_sweep(new.start, new.end, new.ease)
        playing = self.playing
        if playing and new.duration != setup.duration:  # keep the phase
            now = self.clock()
            self._t0 = now - (now - self._t0) * new.duration / setup.duration
        self.setups[self.window.current_view] = new
        if {"start", "end", "ease"} & changes.keys():
            self._typed.add(self.window.current_view)  # kept as set from here on
        self.default_duration = float(new.duration)
        if playing:
            self._playing = new
        self._fill()
        return new

    def _edited(self, **change: Any) -> None:
        """A control of the box changed: apply it, or say why not and show the setup."""
        if self._filling:
            return
        try:
            self.configure(**change)
        except ValueError as exc:
            self.window.show_status(str(exc), 6000)
            self._fill()

    def cycle_param(self) -> None:
        """Animate the next number parameter of the current view."""
        names = [p.name for p in sweepable(self.window.current_state.model)]
        if names:
            current = self.param_name()
            self.choose(
                names[(names.index(current) + 1) % len(names)] if current in names else names[0]
            )
            self.window.show_status(f"Sweep parameter: {self.param_name()}", 3000)

    _filling = False
    _fill_due = False  # the box was not filled while hidden (_fill_shown)
    #: the view and the parameter names the box's items show (:meth:`_fill`)
    _items: tuple[str, tuple[str, ...]] | None = None

    def _fill(self, view_id: str | None = None) -> None:
        """Show the view's animation in the box's controls."""
        view_id = view_id or self.window.current_view
        if view_id not in self.window.states:
            return
        self._fill_due = False
        model = self.window.states[view_id].model
        setup = self.setup(view_id)
        self._filling = True
        try:
            params = sweepable(model)
            with signals_blocked(self.combo):
                # the items only when they are other ones (a view shown): a slider's drag
                # refills the box's range on every frame, and rebuilding the items, their
                # typeset tips and the font fit cost about 0.5 ms a frame
                items = (view_id, tuple([p.name for p in params]))  # (a list: a call)
                if items != self._items:
                    self.combo.clear()
                    for i, p in enumerate(params):
                        # the label (as in the panel) reads whole; the code name is its tip
                        self.combo.addItem(p.label, p.name)
                        tip = (
                            math_tooltip(p.help, literal=f"{p.label} ({p.name}): ")
                            if p.help
                            else p.name
                        )
                        self.combo.setItemData(i, tip, QtCore.Qt.ItemDataRole.ToolTipRole)
                    self._items = items
                    self.combo_fit.fit()
                self.combo.setCurrentIndex(max(self.combo.findData(self.param_name(view_id)), 0))
            if setup is None:
                return
            param = model[setup.param]
            for spin, value in ((self.start_spin, setup.start), (self.end_spin, setup.end)):
                spin.setDecimals(0 if param.kind == "int" else min(param.decimals, 6))
                spin.setRange(float(param.minimum or 0.0), float(param.maximum or 0.0))
                spin.setSingleStep(float(param.step or 1))
                spin.setValue(value)
            self.duration_spin.setValue(setup.duration)
            self.ease_combo.setCurrentText(setup.ease)
            self.mode_combo.setCurrentText(setup.mode)
        finally:
            self._filling = False

    def _combo_changed(self, index: int) -> None:
        name = self.combo.itemData(index)
        if name and self.window.current_view and not self._filling:
            self.choose(name)

    def _view_changed(self) -> None:
        shown = self.window.current_view
        if shown not in self.window.states:
            return
        if self.timer.isActive() and self.view_id != shown:
            self.stop()
        self._fill(shown)

    # ------------------------------------------------------------------ playing
    @property
    def playing(self) -> bool:
        return self.timer.isActive()

    @property
    def duration(self) -> float:
        """Seconds from start to end of the current view's animation."""
        setup = self.setup()
        return setup.duration if setup is not None else DEFAULT_DURATION

    def set_duration(self, seconds: float) -> None:
        """Seconds from start to end (clamped to 0.1..600); also the default of views
        not animated yet."""
        self.set_default_duration(seconds)
        if self.setup() is not None:
            self.configure(duration=self.default_duration)

    def set_default_duration(self, seconds: float) -> None:
        """The duration new animations start with (ValueError unless a finite number)."""
        if not math.isfinite(seconds):
            raise ValueError(f"duration must be a number of seconds, got {seconds}")
        self.default_duration = round(min(MAX_DURATION, max(MIN_DURATION, float(seconds))), 2)

    def faster(self) -> None:
        self.set_duration(self.duration / 1.5)

    def slower(self) -> None:
        self.set_duration(self.duration * 1.5)

    @staticmethod
    def interval_ms() -> int:
        """Timer interval: one display refresh (60 Hz when the screen does not say)."""
        screen = QtGui.QGuiApplication.primaryScreen()
        rate = screen.refreshRate() if screen is not None else 60.0
        return max(1, math.floor(1000.0 / (rate if 20.0 <= rate <= 500.0 else 60.0)))

    def play(self) -> None:
        """Start the current view's animation from its start value."""
        setup = self.setup()
        if setup is None:
            return
        try:
            check_sweep(setup.start, setup.end, setup.ease)
        except ValueError as exc:
            self.window.show_status(str(exc), 6000)
            return
        state = self.window.current_state
        param = state.model[setup.param]
        why = state.unused_why(setup.param)
        if why is not None:  # (an animation that draws nothing: say why, on stage too)
            state.error.emit(f"{param.label}: not used now ({why}); nothing to animate")
            return
        self.view_id = state.view_id
        self._playing = setup
        state.end_merge()  # the whole sweep becomes one undo step
        self._t0 = self.clock()
        self._awaiting = None
        state.pin({setup.param: state.values[setup.param]})  # the value drawn now
        widget = self.window.views.get(state.view_id)
        if widget is not None and state.view_id not in self._watched:
            widget.rendered.connect(self._drawn)
            self._watched.add(state.view_id)
        if widget is not None:  # its formula shows each frame's value, as the field does
            widget.text_every_frame = True
        self.timer.start(self.interval_ms())
        self._show_playing(True)
        self.window.show_status(
            # the ends as the fields write them (Base's 10⁷ read "1e+07" with :g)
            f"Animating {param.label}: {number(setup.start)} → {number(setup.end)} "
            f"in {setup.duration:g} s, "
            f"{setup.ease}, {setup.mode} (Space pauses)",
            4000,
        )
        self._tick()

    def stop(self) -> None:
        """Pause the sweep (the parameter keeps its value)."""
        self.timer.stop()
        self._playing = None
        self._show_playing(False)
        widget = self.window.views.get(self.view_id)
        if widget is not None:
            widget.text_every_frame = False
        if self.view_id in self.window.states:
            self.window.states[self.view_id].pin({})  # the fields show the value set
            self.window.states[self.view_id].end_merge()

    def _show_playing(self, playing: bool) -> None:
        """Play / Pause as a word and the style's drawn icon (the media glyphs are boxes
        in common Debian fonts)."""
        icon = QtWidgets.QStyle.StandardPixmap
        self.play_button.setText("Pause" if playing else "Play")
        self.play_button.setIcon(
            self.play_button.style().standardIcon(
                icon.SP_MediaPause if playing else icon.SP_MediaPlay
            )
        )

    def toggle(self) -> None:
        """Space: play or pause."""
        self.stop() if self.playing else self.play()

    def value_now(self) -> tuple[Any, bool]:
        """``(value, finished)`` of the playing animation at :attr:`clock`'s time."""
        setup = self._playing
        assert setup is not None
        u, done = progress_at(self.clock() - self._t0, setup.duration, setup.mode)
        value: Any = value_at(setup.start, setup.end, u, setup.ease)
        param = self.window.states[self.view_id].model[setup.param]
        if param.kind == "int":
            value = round_half_up([value])[0]
        else:  # (the formula and field read "123800", not "123798.7947")
            value = swept([value], setup.start, setup.end, setup.ease, param.decimals)[0]
        return value, done

    def _tick(self) -> None:
        if self._playing is None or self.view_id != self.window.current_view:
            self.stop()
            return
        now = self.clock()
        if self._awaiting is not None and now - self._awaiting < MAX_WAIT_S:
            # The last value is not drawn yet: setting another would make the engine
            # drop that result for a newer one, again and again, and a view slower than
            # the display would never be drawn. The next value is taken from the clock
            # when this one is on screen, so a slow view skips values but never lags.
            return
        value, done = self.value_now()
        state = self.window.states[self.view_id]
        if state.values[self._playing.param] != value and state.set_param(
            self._playing.param, value
        ):
            self._awaiting = now
        self.value_set.emit(value)
        if done:
            self.stop()

    def _drawn(self) -> None:
        """The view shown drew a frame: the next value may be set, and the fields show
        the value it was drawn with (as its formula does), not one still computed."""
        self._awaiting = None
        widget, setup = self.window.views.get(self.view_id), self._playing
        if widget is not None and widget.data is not None and setup is not None:
            drawn = widget.data.params.get(setup.param)
            if drawn is not None:
                self.window.states[self.view_id].pin({setup.param: drawn})

    # ------------------------------------------------------------------ frames
    def start_value(self, view_id: str, name: str) -> Any:
        """Where an exported sweep of ``name`` starts: the value the current deck scene
        gives it (when that scene shows ``view_id``), else the parameter's minimum."""
        deck = self.window.find_feature(DeckController)
        if deck is not None and 0 <= deck.index < len(deck.scenes):
            scene = deck.scenes[deck.index]
            if scene.view_id == view_id and name in scene.params:
                return scene.params[name]
        return self.window.states[view_id].model[name].minimum

    def export_schedule(self, max_frames: int = MAX_FRAMES) -> tuple[str, str, list[dict]]:
        """``(view id, parameter, parameter values of every frame)`` of an exported sweep
        of the current view: from :meth:`start_value`, not the value shown now."""
        state, name = self.window.current_state, self.param_name()
        if name is None:
            return state.view_id, "", []
        base = dict(state.values)
        base[name] = self.start_value(state.view_id, name)
        values = sweep_values(state.model[name], base)[:max_frames]
        return state.view_id, name, [{**base, name: v} for v in values]

    def export_frames(
        self,
        folder: str | Path,
        max_frames: int = MAX_FRAMES,
        size: tuple[int, int] = FRAME_SIZE,
    ) -> list[Path]:
        """Write the sweep of the current view as ``<view>_<param>_0000.png`` ... frames.

        Each frame is the stage only (title and plots, no explanation or hover hint) at
        ``size`` pixels (slide size by default), drawn by :attr:`frame_writer`. A progress
        dialog (:attr:`progress`) counts the frames; its Cancel stops the export and
        leaves no frame files: frames are written to a hidden temporary folder inside
        ``folder`` and moved into ``folder`` only when all are done. The view's
        parameters are not changed. Returns the frames written (``[]`` on cancel).

        Raises
        ------
        OSError
            A frame cannot be written (no frame files are left either).
        RuntimeError
            No frame writer is installed.
        """
        if self.frame_writer is None:
            raise RuntimeError("sweep frame export is not installed in this window")
        self.stop()
        view_id, name, frames = self.export_schedule(max_frames)
        if not frames:
            return []
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        label = self.window.states[view_id].model[name].label
        dialog = modal_progress(  # (Cancel stays readable after the last frame)
            self.window.qt,
            "Export sweep frames",
            f"Writing {len(frames)} frames of {label}…",
            len(frames),
        )
        self.progress = dialog
        temp = Path(tempfile.mkdtemp(prefix=".sweep-frames-", dir=folder))
        names = [f"{view_id}_{name}_{i:04d}.png" for i in range(len(frames))]
        done: list[Path] = []
        try:
            for i, values in enumerate(frames):
                QtWidgets.QApplication.processEvents()
                if dialog.wasCanceled():
                    break
                self.frame_writer(view_id, values, temp / names[i], width=size[0], height=size[1])
                dialog.setValue(i + 1)
                self.frame_written.emit(i + 1)
            QtWidgets.QApplication.processEvents()
            if not dialog.wasCanceled():
                for file_name in names:
                    os.replace(temp / file_name, folder / file_name)
                    done.append(folder / file_name)
        finally:
            shutil.rmtree(temp, ignore_errors=True)
            dialog.close()
            dialog.deleteLater()
            self.progress = None
        if done:
            self.window.show_status(f"Wrote {len(done)} frames to {folder}", 8000)
        else:
            self.window.show_status("Frame export cancelled: no frames written", 5000)
        return done

    def export_dialog(self) -> None:
        """Ask for a folder and export the frames there."""
        folder = QtWidgets.QFileDialog.getExistingDirectory(self.window.qt, "Export sweep frames")
        if folder:
            try:
                self.export_frames(folder)
            except (OSError, ValueError, RuntimeError) as exc:
                self.window.show_status(str(exc), 10000)


class ComboFit(QtCore.QObject):
    """Keeps a combo box's longest item readable whole in its field: where it is wider
    than the field the combo's font gets smaller (no less than :attr:`FLOOR` of the
    chrome's font). At 300 % in a 1280 x 720 window the deck dock's Animation box read
    "Table rows (max positions" (Learned; 586 px in a 559 px field), "Llama 3.1
    high_freq_factor" was cut too (RoPE). Fitted again when the combo is resized or
    restyled (a new UI scale) and after its items change (:meth:`fit`)."""

    FLOOR = 0.7

    def __init__(self, combo: QtWidgets.QComboBox) -> None:
        super().__init__(combo)
        self.combo = combo
        self.pt: float | None = None  # the fitted font size, None: the chrome's
        self._fitting = False
        combo.installEventFilter(self)

    def eventFilter(self, watched: QtCore.QObject, event: QtCore.QEvent) -> bool:
        kind = event.type()
        if watched is self.combo and kind in (
            QtCore.QEvent.Type.Resize,
            QtCore.QEvent.Type.StyleChange,
        ):
            self.fit()
        return False

    def field_width(self) -> int:
        """The width of the combo's text field (its width less frame and arrow)."""
        return combo_field_width(self.combo)

    def fit(self) -> None:
        """Set the font size that lets the widest item fit (or the chrome's again)."""
        if self._fitting:
            return
        combo = self.combo
        base = QtGui.QFont(combo.font())
        base.setPointSizeF(float(current_theme().font_pt(11)))  # the chrome's (stylesheet)
        metrics = QtGui.QFontMetricsF(base)
        texts = [combo.itemText(i) for i in range(combo.count())]
        widest = max((metrics.horizontalAdvance(t) for t in texts), default=0.0)
        room = self.field_width() - 2  # a pixel of margin each side
        pt: float | None = None
        if widest > room > 0:
            pt = base.pointSizeF() * max(self.FLOOR, room / widest)
            pt = math.floor(pt * 2) / 2  # half points: a size the font has
        if pt == self.pt:
            return
        self.pt = pt
        self._fitting = True
        try:
            combo.setStyleSheet("" if pt is None else f"QComboBox {{ font-size: {pt}pt; }}")
        finally:
            self._fitting = False
