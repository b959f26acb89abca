"""Export the current view's animation as MP4, GIF or WebP from the window.

The dialog (Lecture → *Export animation…*, Ctrl+Alt+V, or *Export video…* in the
Animation box) asks for the file, the size (1920 x 1080 by default: slide size), the
duration and the frame rate; the parameter, its start and end and the easing are the
Animation box's. The frames are drawn and encoded by an injected writer (the
composition root installs :func:`gui.export.animation.export_animation`, which draws
the stage only at the requested size and writes the file atomically) behind a progress
dialog whose Cancel stops it and leaves no file, not even a partial one.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6 import QtCore, QtWidgets

from gui.lecture.sweep import SweepController
from gui.widgets.progress import ExportCancelled, modal_progress, show_step
from gui.window.protocol import StudioWindow

AnimationWriter = Callable[..., Path]
"""``writer(view_id, params, param, start, end, ease, path, *, duration, fps, width, height,
progress)``: draws and encodes the animation; ``progress(done, total)`` is called after
each frame and stops the export by raising."""
FORMATS = (("MP4 video", "mp4"), ("Animated GIF", "gif"), ("Animated WebP", "webp"))
DEFAULT_SIZE = (1920, 1080)
DEFAULT_FPS = 25


class AnimationExportDialog(QtWidgets.QDialog):
    """File, format, size, duration and frame rate of an animation export."""

    def __init__(self, parent: QtWidgets.QWidget, path: str, duration: float) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export animation")
        form = QtWidgets.QFormLayout(self)
        self.path_edit = QtWidgets.QLineEdit(path, self)
        self.path_edit.setObjectName("animation-path")
        browse = QtWidgets.QPushButton("Browse…", self)
        browse.clicked.connect(self._browse)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(self.path_edit, 1)
        row.addWidget(browse)
        form.addRow("File", row)
        self.format_combo = QtWidgets.QComboBox(self)
        self.format_combo.setObjectName("animation-format")
        for text, ext in FORMATS:
            self.format_combo.addItem(f"{text} (.{ext})", ext)
        self.format_combo.setCurrentIndex(
            max(0, self.format_combo.findData(Path(path).suffix.lower().lstrip(".")))
        )
        self.format_combo.currentIndexChanged.connect(self._format_changed)
        self.path_edit.textEdited.connect(self._path_edited)
        form.addRow("Format", self.format_combo)
        self.width_spin, self.height_spin = QtWidgets.QSpinBox(self), QtWidgets.QSpinBox(self)
        for spin, value in zip((self.width_spin, self.height_spin), DEFAULT_SIZE, strict=True):
            spin.setRange(16, 7680)
            spin.setValue(value)
            spin.setSuffix(" px")
        size = QtWidgets.QHBoxLayout()
        size.addWidget(self.width_spin)
        size.addWidget(QtWidgets.QLabel("×", self))
        size.addWidget(self.height_spin)
        form.addRow("Size", size)
        self.duration_spin = QtWidgets.QDoubleSpinBox(self)
        self.duration_spin.setRange(0.1, 600.0)
        self.duration_spin.setDecimals(2)
        self.duration_spin.setSuffix(" s")
        self.duration_spin.setValue(duration)
        form.addRow("Duration", self.duration_spin)
        self.fps_spin = QtWidgets.QSpinBox(self)
        self.fps_spin.setRange(1, 60)
        self.fps_spin.setValue(DEFAULT_FPS)
        self.fps_spin.setSuffix(" frames/s")
        form.addRow("Frame rate", self.fps_spin)
        note = QtWidgets.QLabel(
            "The stage only (title, formula and plots), once from the Animation box's start "
            "to its end value.",
            self,
        )
        note.setWordWrap(True)
        form.addRow(note)
        buttons = QtWidgets.QDialogButtonBox(
            QtWidgets.QDialogButtonBox.StandardButton.Ok
            | QtWidgets.QDialogButtonBox.StandardButton.Cancel,
            self,
        )
        buttons.button(QtWidgets.QDialogButtonBox.StandardButton.Ok).setText("Export")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _browse(self) -> None:
        ext = self.format_combo.currentData()
        path, _ = QtWidgets.QFileDialog.getSaveFileName(
            self, "Export animation", self.path_edit.text(), f"*.{ext}"
        )
        if path:
            self.path_edit.setText(path)

    def _format_changed(self) -> None:
        path = self.path_edit.text().strip()
        if path:
            self.path_edit.setText(
                str(Path(path).with_suffix("." + self.format_combo.currentData()))
            )

    def _path_edited(self, text: str) -> None:
        """A typed file name's known suffix chooses the format (the format box said
        "MP4 video" over "anim.gif" and a GIF was written)."""
        index = self.format_combo.findData(Path(text.strip()).suffix.lower().lstrip("."))
        if index >= 0 and index != self.format_combo.currentIndex():
            with QtCore.QSignalBlocker(self.format_combo):  # (the path stays as typed)
                self.format_combo.setCurrentIndex(index)

    def values(self) -> dict[str, Any]:
        """What :meth:`AnimationExport.export` takes."""
        return {
            "path": self.path_edit.text().strip(),
            "width": self.width_spin.value(),
            "height": self.height_spin.value(),
            "duration": self.duration_spin.value(),
            "fps": self.fps_spin.value(),
        }


class AnimationExport(QtCore.QObject):
    """The window's animation export: a dialog, then a progress bar with Cancel.

    Signals
    -------
    frame_done(int, int)
        ``(frames done, total)`` while an export runs.
    """

    frame_done = QtCore.Signal(int, int)

    def __init__(
        self, window: StudioWindow, sweep: SweepController, writer: AnimationWriter | None = None
    ) -> None:
        super().__init__(window.qt)
        self.window, self.sweep, self.writer = window, sweep, writer
        self.progress: QtWidgets.QProgressDialog | None = None
        self.last_path = ""
        button = QtWidgets.QPushButton("Export video…", window.qt)
        button.setObjectName("sweep-export-video")
        button.setToolTip("Export the animation as MP4, GIF or WebP (Ctrl+Alt+V)")
        button.clicked.connect(self.open_dialog)
        sweep.buttons.addWidget(button)

    def export(
        self,
        path: str | os.PathLike[str],
        *,
        width: int = DEFAULT_SIZE[0],
        height: int = DEFAULT_SIZE[1],
        duration: float | None = None,
        fps: int = DEFAULT_FPS,
    ) -> Path | None:
        """Write the current view's animation to ``path`` (.mp4, .gif, .webp).

        Returns the file, or ``None`` when Cancel was pressed (then no file is left).

        Raises
        ------
        ValueError
            Bad path, size, duration or frame rate, no number parameter, a missing
            encoder library (one line each).
        OSError
            The file cannot be written (nothing is left at ``path``).
        RuntimeError
            No writer is installed, or an export is already running.
        """
        if self.writer is None:
            raise RuntimeError("animation export is not installed in this window")
        if self.progress is not None:
            raise RuntimeError("an animation export is already running")
        setup = self.sweep.setup()
        if setup is None:
            raise ValueError(f"view '{self.window.current_view}' has no number parameter")
        self.sweep.stop()
        seconds = setup.duration if duration is None else float(duration)
        if not (math.isfinite(seconds) and seconds > 0):
            raise ValueError(f"duration must be a positive number of seconds, got {seconds}")
        total = max(1, round(seconds * fps))
        state = self.window.current_state
        label = state.model[setup.param].label  # ("… frames of m…" read as a typo)
        dialog = modal_progress(
            self.window.qt,
            "Export animation",
            f"Drawing and encoding {total} frames of {label}…",
            total,
        )
        self.progress = dialog

        def progress(done: int, count: int) -> None:
            show_step(dialog, done, count, lambda: self.frame_done.emit(done, count))

        try:
            written = self.writer(
                state.view_id,
                state.values,
                setup.param,
                setup.start,
                setup.end,
                setup.ease,
                path,
                duration=seconds,
                fps=fps,
                width=width,
                height=height,
                progress=progress,
            )
        except ExportCancelled:
            self.window.show_status("Animation export cancelled: no file written", 5000)
            return None
        finally:
            dialog.close()
            dialog.deleteLater()
            self.progress = None
        self.window.show_status(f"Wrote {written}", 8000)
        return Path(written)

    def open_dialog(self) -> None:
        """Ask for file, size, duration and frame rate; export; problems as one line."""
        setup = self.sweep.setup()
        if setup is None:
            self.window.show_status("This view has no number parameter to animate", 5000)
            return
        default = self.last_path or str(
            Path.home() / f"{self.window.current_view}-{setup.param}.mp4"
        )
        dialog = AnimationExportDialog(self.window.qt, default, setup.duration)
        if dialog.exec() != QtWidgets.QDialog.DialogCode.Accepted:
            return
        values = dialog.values()
        self.last_path = values["path"]
        try:
            self.export(**values)
        except (ValueError, OSError, RuntimeError) as exc:
            self.window.show_status(str(exc), 10000)
