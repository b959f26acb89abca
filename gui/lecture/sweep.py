"""Animation: sweep one int/float parameter of the current view, or export the sweep.

A ``QTimer`` calls :meth:`gui.widgets.state.ViewState.set_param` at the chosen speed (steps per
second); the update engine coalesces, so a slow view simply skips frames. A whole sweep
is one undo step (``merge``). The sweep can be written as numbered PNG frames at slide
size, from its start value (the deck scene's value or the parameter's minimum), with a
progress dialog whose Cancel leaves no frame files.
"""

from __future__ import annotations

import math
import os
import shutil
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from PySide6 import QtCore, QtWidgets
from superqt.utils import signals_blocked

from core.params import Param, ParamModel
from gui.lecture.deck import DeckController
from gui.window.protocol import StudioWindow

DEFAULT_SWEEP = {"rope": "m", "sinusoidal": "base", "alibi": "query"}
STEPS = 64
MAX_FRAMES = 240
FRAME_SIZE = (1920, 1080)  # exported frames: slide size
FrameWriter = Callable[..., Path]
"""``writer(view_id, params, path, width=, height=)``: draws one frame (the composition
root installs :func:`gui.export.headless.export_view`)."""
# Parameters whose useful upper end is given by another parameter of the same view.
_CAPS = {
    "query": lambda v: v.get("seq_len", 1) - 1,
    "head": lambda v: v.get("heads"),
    "pair": lambda v: v.get("head_dim", 2) // 2 - 1,
}


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

    Integers step by ``param.step`` (at most :data:`STEPS` steps, or up to a related
    limit such as ``seq_len − 1`` for a query position); log-scale floats grow
    geometrically up to 1000× (or the maximum); other floats go linearly to the maximum.
    At the upper end the sweep starts over from the minimum.
    """
    lo_limit, hi_limit = float(param.minimum), float(param.maximum)
    cap = _CAPS.get(param.name)
    if cap is not None and cap(values) is not None:
        hi_limit = min(hi_limit, max(lo_limit, float(cap(values))))
    start = float(values[param.name])
    if start >= hi_limit:
        start = lo_limit
    if param.kind == "int":
        step = int(param.step or 1)
        end = hi_limit if cap is not None else min(hi_limit, start + STEPS * step)
        return list(range(int(start), int(end) + 1, step)) or [int(start)]
    if param.log_scale and start > 0:
        end = min(hi_limit, start * 1000.0)
        n = STEPS
        out = [start * (end / start) ** (i / n) for i in range(n + 1)]
        return [float(f"{v:.4g}") for v in out]
    step = float(param.step or (hi_limit - start) / STEPS)
    n = min(STEPS, max(1, math.floor((hi_limit - start) / step)))
    return [
        round(min(hi_limit, start + i * (hi_limit - start) / n), param.decimals)
        for i in range(n + 1)
    ]


class SweepController(QtCore.QObject):
    """Play/pause a parameter sweep of the current view; export it as PNG frames.

    Signals
    -------
    frame_written(int)
        An exported frame is written (the number written so far).
    """

    frame_written = QtCore.Signal(int)

    def __init__(
        self,
        window: StudioWindow,
        layout: QtWidgets.QBoxLayout,
        frame_writer: FrameWriter | None = None,
    ) -> None:
        super().__init__(window.qt)
        self.window = window
        self.frame_writer = frame_writer
        self.progress: QtWidgets.QProgressDialog | None = None
        self.chosen: dict[str, str] = {}  # view id → parameter name
        self.speed = 8  # steps per second
        self.values: list[Any] = []
        self.position = 0
        self.view_id = ""
        self.timer = QtCore.QTimer(self)
        self.timer.timeout.connect(self._tick)
        self._build(layout)
        window.view_changed.connect(lambda _view_id: self._view_changed())
        self._view_changed()

    def _build(self, layout: QtWidgets.QBoxLayout) -> None:
        box = QtWidgets.QGroupBox("Animation", self.window.qt)
        grid = QtWidgets.QGridLayout(box)
        self.combo = QtWidgets.QComboBox(box)
        self.combo.setObjectName("sweep-param")
        self.combo.setToolTip("Parameter to sweep (Space plays/pauses)")
        self.combo.setSizeAdjustPolicy(
            QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.combo.setMinimumContentsLength(12)
        self.combo.currentIndexChanged.connect(self._combo_changed)
        self.speed_spin = QtWidgets.QSpinBox(box)
        self.speed_spin.setObjectName("sweep-speed")
        self.speed_spin.setRange(1, 60)
        self.speed_spin.setSuffix(" steps/s")
        self.speed_spin.setValue(self.speed)
        self.speed_spin.valueChanged.connect(self.set_speed)
        self.play_button = QtWidgets.QPushButton(box)
        self._show_playing(False)
        self.play_button.setObjectName("sweep-play")
        self.play_button.clicked.connect(self.toggle)
        self.export_button = QtWidgets.QPushButton("Export frames…", box)
        self.export_button.setObjectName("sweep-export")
        self.export_button.clicked.connect(self.export_dialog)
        grid.addWidget(QtWidgets.QLabel("Sweep", box), 0, 0)
        grid.addWidget(self.combo, 0, 1)
        grid.addWidget(QtWidgets.QLabel("Speed", box), 1, 0)
        grid.addWidget(self.speed_spin, 1, 1)
        grid.addWidget(self.play_button, 2, 0)
        grid.addWidget(self.export_button, 2, 1)
        layout.addWidget(box)

    # ------------------------------------------------------------------ choice
    def param_name(self, view_id: str | None = None) -> str | None:
        """The parameter swept in ``view_id`` (default: the current view)."""
        view_id = view_id or self.window.current_view
        model = self.window.states[view_id].model if view_id in self.window.states else None
        if model is None:
            from core.views import get_view

            model = get_view(view_id).model
        return self.chosen.get(view_id) or default_sweep_param(model)

    def choose(self, name: str) -> None:
        """Sweep ``name`` in the current view (ValueError if not an int/float param)."""
        model = self.window.current_state.model
        if name not in {p.name for p in sweepable(model)}:
            raise ValueError(f"{name!r} is not a number parameter of '{model.view_id}'")
        self.stop()
        self.chosen[model.view_id] = name
        self._fill_combo()

    def cycle_param(self) -> None:
        """Sweep the next number parameter of the current view."""
        names = [p.name for p in sweepable(self.window.current_state.model)]
        if names:
            current = self.param_name()
            self.choose(
                names[(names.index(current) + 1) % len(names)] if current in names else names[0]
            )
            self.window.show_status(f"Sweep parameter: {self.param_name()}", 3000)

    def _fill_combo(self, view_id: str | None = None) -> None:
        view_id = view_id or self.window.current_view
        with signals_blocked(self.combo):
            self.combo.clear()
            for p in sweepable(self.window.states[view_id].model):
                self.combo.addItem(f"{p.label} ({p.name})", p.name)
            index = self.combo.findData(self.param_name(view_id))
            self.combo.setCurrentIndex(max(index, 0))

    def _combo_changed(self, index: int) -> None:
        name = self.combo.itemData(index)
        if name and self.window.current_view:
            self.stop()
            self.chosen[self.window.current_view] = name

    def _view_changed(self) -> None:
        shown = self.window.current_view
        if shown not in self.window.states:
            return
        if self.timer.isActive() and self.view_id != shown:
            self.stop()
        self._fill_combo(shown)

    # ------------------------------------------------------------------ playing
    @property
    def playing(self) -> bool:
        return self.timer.isActive()

    def set_speed(self, steps_per_second: float) -> None:
        """Steps per second (1–60)."""
        self.speed = int(min(60, max(1, round(steps_per_second))))
        if self.speed_spin.value() != self.speed:
            self.speed_spin.setValue(self.speed)
        self.timer.setInterval(round(1000 / self.speed))

    def faster(self) -> None:
        self.set_speed(self.speed * 1.5 if self.speed > 1 else 2)

    def slower(self) -> None:
        self.set_speed(self.speed / 1.5)

    def play(self) -> None:
        """Start sweeping the chosen parameter from its current value."""
        name = self.param_name()
        if name is None:
            return
        state = self.window.current_state
        self.view_id = state.view_id
        self.values = sweep_values(state.model[name], state.values)
        self.position = 0
        state.end_merge()  # the whole sweep becomes one undo step
        self.timer.setInterval(round(1000 / self.speed))
        self.timer.start()
        self._show_playing(True)
        self.window.show_status(
            f"Sweeping {name}: {self.values[0]} → {self.values[-1]} at {self.speed} steps/s "
            "(Space pauses)",
            4000,
        )

    def stop(self) -> None:
        """Pause the sweep (the parameter keeps its value)."""
        self.timer.stop()
        self._show_playing(False)
        if self.view_id in self.window.states:
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

    def _tick(self) -> None:
        if self.view_id != self.window.current_view or not self.values:
            self.stop()
            return
        self.position = (self.position + 1) % len(self.values)
        self.window.states[self.view_id].set_param(
            self.param_name(self.view_id), self.values[self.position]
        )

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
        dialog = QtWidgets.QProgressDialog(
            f"Writing {len(frames)} frames of {name}…", "Cancel", 0, len(frames), self.window.qt
        )
        dialog.setWindowTitle("Export sweep frames")
        dialog.setWindowModality(QtCore.Qt.WindowModality.WindowModal)
        dialog.setAutoReset(False)  # Cancel stays readable after the last frame
        dialog.setAutoClose(False)
        dialog.setMinimumDuration(0)
        dialog.setValue(0)
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
