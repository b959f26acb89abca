"""File-menu export actions of the main window and the small export dialog.

``install_export_actions(window)`` adds *Export view…* (Ctrl+E), *Export plot…*,
*Copy image* (Ctrl+Shift+C) and *Export all views…*. Every export makes the same file
as :func:`gui.export.headless.export_view` (``main.py export``); its data and data files
are made in a worker thread (:mod:`gui.export.worker`) behind a progress dialog with
*Cancel*; images are drawn on the GUI thread plot by plot, with progress and *Cancel*
between plots, and encoded and written in the worker. The last
folder used is remembered in the window's settings store (key ``export/last_dir``).
The window is reached only through :class:`gui.window.protocol.StudioWindow`.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from PySide6 import QtCore, QtGui, QtWidgets

from core.views import VIEWS
from gui.export.headless import DEFAULT_HEIGHT, DEFAULT_WIDTH, FORMATS, MAX_SIDE
from gui.export.worker import (
    DATA_FORMATS,
    ExportJob,
    export_data,
    prepare_image,
    start_image,
    write_image,
)
from gui.render.snapshot import copy_to_clipboard
from gui.widgets.progress import modal_progress
from gui.window.engine import error_text
from gui.window.protocol import StudioWindow
from gui.window.store import SettingsStore

SETTINGS_KEY = "export/last_dir"
FORMAT_LABELS = {
    "png": "PNG image",
    "svg": "SVG vector image",
    "csv": "CSV data",
    "npy": "NumPy data (.npy)",
}


@dataclass(frozen=True)
class ExportOptions:
    """What the export dialog asks: format, size, background and (optionally) a plot."""

    fmt: str = "png"
    width: int = DEFAULT_WIDTH
    height: int = DEFAULT_HEIGHT
    scale: float = 1.0
    transparent: bool = False
    panel: str | None = None

    def export_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of :func:`export_view` (scale/transparent only for PNG)."""
        png = self.fmt == "png"
        return {
            "width": self.width,
            "height": self.height,
            "panel": self.panel,
            "scale": self.scale if png and self.scale != 1.0 else None,
            "transparent": self.transparent and png,
        }


_last_options = ExportOptions()


# ----------------------------------------------------------------------- settings
def last_dir(store: SettingsStore) -> str:
    """The folder of the last export (default: the home folder)."""
    value = store.get(SETTINGS_KEY)
    return value if value and Path(value).is_dir() else str(Path.home())


def remember_dir(store: SettingsStore, folder: str | os.PathLike[str]) -> None:
    """Store ``folder`` as the last export folder."""
    store.put(SETTINGS_KEY, os.fspath(folder))


# ----------------------------------------------------------------------- dialog
class ExportDialog(QtWidgets.QDialog):
    """Format, pixel size or scale, transparent background and (for a plot) which plot."""

    def __init__(
        self,
        parent: QtWidgets.QWidget | None,
        title: str,
        initial: ExportOptions,
        panels: list[tuple[str, str]] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        form = QtWidgets.QFormLayout(self)
        self.format = QtWidgets.QComboBox(self)
        for fmt in FORMATS:
            self.format.addItem(FORMAT_LABELS[fmt], fmt)
        self.format.setCurrentIndex(max(0, self.format.findData(initial.fmt)))
        self.panel = QtWidgets.QComboBox(self)
        for key, text in panels or []:
            self.panel.addItem(text, key)
        self.panel.setCurrentIndex(max(0, self.panel.findData(initial.panel)))
        self.width_box, self.height_box = (self._spin(initial.width), self._spin(initial.height))
        self.scale = QtWidgets.QDoubleSpinBox(self)
        self.scale.setRange(0.25, 8.0)
        self.scale.setSingleStep(0.5)
        self.scale.setValue(initial.scale)
        self.scale.setToolTip(
            "PNG: pixel size = width × height × scale; text and lines grow "
            "with it (2 = sharp on high-DPI slides)."
        )
        self.transparent = QtWidgets.QCheckBox("Transparent background (PNG)", self)
        self.transparent.setChecked(initial.transparent)
        self.size_note = QtWidgets.QLabel(self)
        if panels:
            form.addRow("Plot:", self.panel)
        else:
            self.panel.hide()  # not in the form: it would sit over the "Format:" label
        form.addRow("Format:", self.format)
        form.addRow("Width (px):", self.width_box)
        form.addRow("Height (px):", self.height_box)
        form.addRow("Scale:", self.scale)
        form.addRow("", self.transparent)
        form.addRow("", self.size_note)
        buttons = QtWidgets.QDialogButtonBox(
            QtWidgets.QDialogButtonBox.StandardButton.Ok
            | QtWidgets.QDialogButtonBox.StandardButton.Cancel,
            self,
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        for signal in (
            self.format.currentIndexChanged,
            self.width_box.valueChanged,
            self.height_box.valueChanged,
            self.scale.valueChanged,
        ):
            signal.connect(self._update)
        self._update()

    def _spin(self, value: int) -> QtWidgets.QSpinBox:
        box = QtWidgets.QSpinBox(self)
        box.setRange(16, MAX_SIDE)
        box.setSingleStep(100)
        box.setValue(value)
        return box

    def _update(self) -> None:
        fmt = self.format.currentData()
        png = fmt == "png"
        self.scale.setEnabled(png)
        self.transparent.setEnabled(png)
        # a data file has no page size (``main.py export`` refuses --width / --height)
        self.width_box.setEnabled(fmt not in DATA_FORMATS)
        self.height_box.setEnabled(fmt not in DATA_FORMATS)
        o = self.options()
        if png:
            w, h = round(o.width * o.scale), round(o.height * o.scale)
            self.size_note.setText(f"Image: {w} × {h} pixels")
        elif fmt == "svg":
            self.size_note.setText(f"Vector image, {o.width} × {o.height} px page")
        else:
            self.size_note.setText(
                "Full-resolution data of the view"
                if self.panel.count() == 0
                else "Numbers plotted in the chosen plot"
            )

    def options(self) -> ExportOptions:
        """The options as currently entered."""
        return ExportOptions(
            self.format.currentData(),
            self.width_box.value(),
            self.height_box.value(),
            round(self.scale.value(), 4),
            self.transparent.isChecked(),
            self.panel.currentData() if self.panel.count() else None,
        )


def ask_options(
    parent: QtWidgets.QWidget,
    title: str,
    initial: ExportOptions,
    panels: list[tuple[str, str]] | None = None,
) -> ExportOptions | None:
    """Run the export dialog; ``None`` when cancelled (tests monkeypatch this)."""
    dialog = ExportDialog(parent, title, initial, panels)
    try:
        return dialog.options() if dialog.exec() else None
    finally:
        dialog.deleteLater()


def ask_save_path(parent: QtWidgets.QWidget, title: str, suggested: str, fmt: str) -> str | None:
    """Ask for a file name (starting at ``suggested``); ``None`` when cancelled."""
    path, _ = QtWidgets.QFileDialog.getSaveFileName(
        parent, title, suggested, f"{FORMAT_LABELS[fmt]} (*.{fmt})"
    )
    return path or None


def typed_format(path: str, options: ExportOptions) -> tuple[str, ExportOptions]:
    """The file name and options of an export as typed in the save dialog: an extension
    of a format the dialog offers chooses that format (``win_sin.npy`` with SVG chosen
    writes NumPy data, not the error "not an image format"); a name without such an
    extension gets the chosen format's.

    Examples
    --------
    >>> typed_format("/tmp/win_sin.npy", ExportOptions("svg"))[1].fmt
    'npy'
    >>> typed_format("/tmp/win.sin", ExportOptions("svg"))[0]
    '/tmp/win.sin.svg'
    """
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix in FORMATS:
        return path, options if suffix == options.fmt else replace(options, fmt=suffix)
    return f"{path}.{options.fmt}", options


def ask_folder(parent: QtWidgets.QWidget, title: str, start: str) -> str | None:
    """Ask for a folder; ``None`` when cancelled."""
    return QtWidgets.QFileDialog.getExistingDirectory(parent, title, start) or None


PROGRESS_DELAY_MS = 400  # a quicker export shows no progress dialog
POLL_MS = 50


def _progress_dialog(
    parent: QtWidgets.QWidget, label: str, maximum: int
) -> QtWidgets.QProgressDialog:
    """The export's window-modal progress dialog with *Cancel*, shown only once the
    export has taken :data:`PROGRESS_DELAY_MS`; it stays open until closed."""
    dialog = modal_progress(parent, "Exporting", label + "…", maximum, delay_ms=PROGRESS_DELAY_MS)
    dialog.setObjectName("export-progress")
    return dialog


def wait_for_job(parent: QtWidgets.QWidget, job: ExportJob, label: str) -> bool:
    """Run the event loop until ``job`` ends, with a progress dialog offering *Cancel*.

    Returns ``False`` when cancelled. A cancelled job stops at its next check: before
    writing, or at its next write (the atomic write then leaves the destination as it
    was). While it is writing, this waits for it to stop, so that a file is never
    replaced after *Cancel* was answered; a computation still running is left to finish
    in the background and its result is dropped.
    """
    dialog = _progress_dialog(parent, label, 0)  # 0: busy, no percentage
    loop = QtCore.QEventLoop()
    timer = QtCore.QTimer()
    timer.setInterval(POLL_MS)

    def poll() -> None:
        if job.done() or (job.cancelled and job.phase != "Writing"):
            loop.quit()
            return
        mb = job.written / 2**20
        text = f"{label}: {job.phase.lower()}" + (f", {mb:.1f} MB written" if mb else "") + "…"
        if job.cancelled:
            text = "Cancelling…"
        if dialog.labelText() != text:
            dialog.setLabelText(text)

    timer.timeout.connect(poll)
    dialog.canceled.connect(job.cancel)
    try:
        timer.start()
        dialog.setValue(0)  # starts the minimum-duration clock
        if not job.done():
            loop.exec()
    finally:
        timer.stop()
        dialog.canceled.disconnect(job.cancel)
        dialog.close()
        dialog.deleteLater()
    return not (job.cancelled and (job.error is not None or not job.done()))


def paint_with_progress(
    parent: QtWidgets.QWidget,
    steps: Generator[tuple[int, int], None, None],
    label: str,
    seen: list[int] | None = None,
) -> bool:
    """Run a stepwise drawing (``(done, total)`` per step) with a progress dialog.

    Events are handled between steps (the window repaints, *Cancel* can be pressed);
    returns ``False`` when cancelled, after stopping the drawing (``steps.close()``:
    the widget is put back, nothing was written). ``seen`` collects the percentages
    shown (for tests).
    """
    dialog = _progress_dialog(parent, label, 100)
    dialog.setValue(0)  # starts the minimum-duration clock
    flags = QtCore.QEventLoop.ProcessEventsFlag.AllEvents
    try:
        for done, total in steps:
            percent = round(100 * done / total) if total else 100
            if seen is not None:
                seen.append(percent)
            dialog.setLabelText(f"{label}: drawing part {min(done + 1, total)} of {total}…")
            dialog.setValue(percent)
            QtWidgets.QApplication.processEvents(flags)
            if dialog.wasCanceled():
                steps.close()
                return False
        return True
    finally:
        steps.close()
        dialog.close()
        dialog.deleteLater()


def notify_error(parent: QtWidgets.QWidget, message: str) -> None:
    """Show a failed export to the user (tests monkeypatch this)."""
    QtWidgets.QMessageBox.warning(parent, "Export failed", message)


# ----------------------------------------------------------------------- actions
class ExportActions(QtCore.QObject):
    """The export commands of one :class:`~gui.window.protocol.StudioWindow`."""

    def __init__(self, window: StudioWindow) -> None:
        super().__init__(window.qt)
        self.window = window
        self.last_job: ExportJob | None = None  # the latest export's worker (for tests)
        self.last_progress: list[int] = []  # percentages the last image drawing showed

    def _params(self, view_id: str) -> dict[str, Any]:
        state = self.window.states.get(view_id)
        return state.values if state is not None else VIEWS[view_id].model.defaults()

    def _run(self, view_id: str, path: str, options: ExportOptions) -> bool:
        """Export one file; report failures; return success (``False`` when cancelled).

        The data (and a CSV/NPY file) are made in a worker thread while a progress
        dialog with *Cancel* shows and the window keeps handling events; an image is
        then drawn here, on the GUI thread.
        """
        if self.last_job is not None and not self.last_job.done() and not self.last_job.cancelled:
            # a shortcut pressed before the progress dialog shows (it blocks the window)
            self.window.show_status("An export is still running", 5000)
            return False
        kwargs = options.export_kwargs()
        if options.fmt not in DATA_FORMATS and view_id in self.window.states:
            # the lecturer's "Square cells" choices, drawn as the window draws them
            kwargs["square_cells"] = dict(self.window.view_widget(view_id).square_cells)
        params = dict(self._params(view_id))
        job = ExportJob()
        self.last_job = job
        work = export_data if options.fmt in DATA_FORMATS else prepare_image
        job.start(lambda j: work(j, view_id, params, path, kwargs))
        if not wait_for_job(self.window.qt, job, f"Exporting {view_id} to {Path(path).name}"):
            self.window.show_status(f"Export of {view_id} cancelled", 5000)
            return False
        try:
            if job.error is not None:
                raise job.error
            if options.fmt not in DATA_FORMATS:
                return self._draw_image(view_id, path, job.result, kwargs)
        except Exception as exc:  # shown as one line, the window stays usable
            notify_error(self.window.qt, error_text(exc))
            return False
        return True

    def _draw_image(self, view_id: str, path: str, prepared: Any, kwargs: dict) -> bool:
        """Draw a prepared image plot by plot behind a progress dialog (GUI thread),
        then encode and write it in a worker; ``False`` when cancelled."""
        label = f"Exporting {view_id} to {Path(path).name}"
        export = start_image(prepared, path, kwargs)
        try:
            self.last_progress = []
            if not paint_with_progress(self.window.qt, export.steps(), label, self.last_progress):
                self.window.show_status(f"Export of {view_id} cancelled", 5000)
                return False
            encode = export.encoder()
        finally:
            export.close()
        job = ExportJob()
        job.phase = "Encoding"
        self.last_job = job
        job.start(lambda j: write_image(j, path, export.kind, encode))
        if not wait_for_job(self.window.qt, job, label):
            self.window.show_status(f"Export of {view_id} cancelled", 5000)
            return False
        if job.error is not None:
            raise job.error
        return True

    def export_current(self, single_plot: bool = False) -> str | None:
        """Export the current view (or one of its plots) after asking; return the path."""
        global _last_options
        view_id = self.window.current_view
        panels = None
        if single_plot:
            data = self.window.view_widget(view_id).data
            panels = [(p.key, p.title) for p in data.panels] if data is not None else []
            if not panels:
                notify_error(self.window.qt, "the view has no plot to export yet")
                return None
        what = "plot" if single_plot else "view"
        options = ask_options(self.window.qt, f"Export {what}", _last_options, panels)
        if options is None:
            return None
        _last_options = options if single_plot else replace(options, panel=_last_options.panel)
        name = f"{view_id}-{options.panel}" if options.panel else view_id
        suggested = str(Path(last_dir(self.window.settings)) / f"{name}.{options.fmt}")
        path = ask_save_path(self.window.qt, f"Export {what}", suggested, options.fmt)
        if path is None:
            return None
        path, options = typed_format(path, options)
        remember_dir(self.window.settings, Path(path).parent)
        if not self._run(view_id, path, options):
            return None
        self.window.show_status(f"Exported {what} to {path}", 8000)
        return path

    def copy_image(self) -> None:
        """Copy the plots of the current view, as shown, to the clipboard."""
        copy_to_clipboard(self.window.view_widget(self.window.current_view).canvas)
        self.window.show_status("Copied the plots to the clipboard", 5000)

    def export_all(self) -> list[str]:
        """Export every view with its current parameters into one folder."""
        global _last_options
        options = ask_options(self.window.qt, "Export all views", _last_options)
        if options is None:
            return []
        _last_options = replace(options, panel=_last_options.panel)
        folder = ask_folder(
            self.window.qt, "Export all views to folder", last_dir(self.window.settings)
        )
        if folder is None:
            return []
        remember_dir(self.window.settings, folder)
        written: list[str] = []
        for view_id in VIEWS:
            self.window.show_status(f"Exporting {view_id}…", 0)
            QtWidgets.QApplication.processEvents(
                QtCore.QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents
            )
            path = str(Path(folder) / f"{view_id}.{options.fmt}")
            if not self._run(view_id, path, replace(options, panel=None)):
                break
            written.append(path)
        self.window.show_status(f"Exported {len(written)} of {len(VIEWS)} views to {folder}", 8000)
        return written


def install_export_actions(window: StudioWindow) -> ExportActions:
    """Add the export actions to the File menu (before *Quit*) with shortcuts; returns
    the registered :class:`ExportActions`."""
    actions = window.add_feature(ExportActions(window))
    menu = window.menu("file")
    created = [
        window.add_action(
            menu, "&Export view…", "Ctrl+E", actions.export_current, "action-export-view"
        ),
        window.add_action(
            menu,
            "Export &plot…",
            "Ctrl+Shift+E",
            lambda: actions.export_current(True),
            "action-export-plot",
        ),
        window.add_action(
            menu, "&Copy image", "Ctrl+Shift+C", actions.copy_image, "action-copy-image"
        ),
        window.add_action(
            menu, "Export &all views…", "Ctrl+Alt+Shift+E", actions.export_all, "action-export-all"
        ),
    ]
    quit_action = window.qt.findChild(QtGui.QAction, "action-quit")
    if quit_action is not None and quit_action in menu.actions():
        for action in created:  # keep Quit last
            menu.insertAction(quit_action, action)
        menu.insertSeparator(quit_action)
    return actions
