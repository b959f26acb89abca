"""The slow parts of a window export, run off the GUI thread with progress and cancel.

A data export (CSV/NPY) runs entirely in a worker thread: computing the data and writing
the file, which goes through :func:`core.atomicio.atomic_open` behind a handle that checks
for cancel at every write. A cancelled write raises :class:`ExportCancelled` inside the
atomic write, so its temporary file is removed and the destination stays as it was.

An image export (PNG/SVG) computes its :class:`core.viewdata.ViewData` in the worker;
the widgets are then drawn on the GUI thread (Qt widgets live there) step by step, a
plot-sized tile at a time (:func:`start_image`), and the finished image is encoded and
written in the worker again (:func:`write_image`).

Nothing here imports Qt: the GUI side (progress dialog, event loop) is in
:mod:`gui.export.actions`.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from core.atomicio import atomic_open
from core.viewdata import Panel, ViewData, ViewSpec
from core.views import compute_view
from gui.export.headless import (
    ExportRequest,
    ImageExport,
    context_for_size,
    export_format,
    export_view,
    find_panel,
    validate_request,
    write_csv,
)

DATA_FORMATS = ("csv", "npy")


class ExportCancelled(Exception):
    """The user cancelled the export (nothing was written)."""


class ExportJob:
    """One export running in a worker thread; shared with the GUI thread.

    The GUI thread reads :attr:`phase`, :attr:`written` and :meth:`done`, and may call
    :meth:`cancel`; the worker sets :attr:`result` or :attr:`error`.
    """

    def __init__(self) -> None:
        self.phase = "Computing"
        self.written = 0  # bytes written so far
        self.result: Any = None
        self.error: BaseException | None = None
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, work: Callable[[ExportJob], Any]) -> None:
        """Run ``work(self)`` in a new daemon thread."""
        self._thread = threading.Thread(target=self._main, args=(work,), daemon=True)
        self._thread.start()

    def _main(self, work: Callable[[ExportJob], Any]) -> None:
        try:
            self.result = work(self)
        except BaseException as exc:  # handed to the GUI thread, shown as one line
            self.error = exc

    def cancel(self) -> None:
        """Ask the worker to stop at its next check."""
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        """Whether :meth:`cancel` was called."""
        return self._cancel.is_set()

    def check(self) -> None:
        """Raise :class:`ExportCancelled` once cancelled (called by the worker)."""
        if self._cancel.is_set():
            raise ExportCancelled("export cancelled")

    def done(self) -> bool:
        """Whether the worker has finished (or never started)."""
        return self._thread is None or not self._thread.is_alive()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the worker; return :meth:`done`."""
        if self._thread is not None:
            self._thread.join(timeout)
        return self.done()


class _CheckedFile:
    """A file handle that checks for cancel before every write and counts bytes."""

    def __init__(self, handle: Any, job: ExportJob) -> None:
        self._handle = handle
        self._job = job

    def write(self, data: Any) -> int:
        self._job.check()
        count = self._handle.write(data)
        self._job.written += len(data)
        return count

    def __getattr__(self, name: str) -> Any:
        return getattr(self._handle, name)


def _write_checked(
    job: ExportJob,
    path: str | os.PathLike[str],
    array: np.ndarray,
    axes: tuple[str, ...] | list[str],
    column_names: list[str] | None,
) -> None:
    """:func:`gui.export.headless.write_array`, checking for cancel at every write."""
    job.phase = "Writing"  # before the check: a cancelling GUI then waits for the outcome
    job.check()
    if export_format(path) == "npy":
        # a handle that is not a real file makes numpy write in chunks (checked)
        with atomic_open(path, "wb") as handle:
            np.save(_CheckedFile(handle, job), array, allow_pickle=False)
            job.check()  # the destination is replaced only if still wanted
        return
    with atomic_open(path, "w", newline="") as handle:
        write_csv(_CheckedFile(handle, job), array, axes, column_names)
        job.check()


def export_data(
    job: ExportJob,
    view_id: str,
    params: Mapping[str, Any],
    path: str | os.PathLike[str],
    kwargs: Mapping[str, Any],
) -> Path:
    """A CSV/NPY export as :func:`export_view` writes it, cancellable (worker thread).

    ``kwargs`` are :func:`export_view`'s keyword arguments (width, height, panel, ...).
    """
    request = _validate(view_id, params, path, kwargs)
    values = request.values
    panel_key = kwargs.get("panel")
    if panel_key is None:
        data = request.spec.export(values)
        _write_checked(job, path, np.asarray(data.array), list(data.axes), None)
        return Path(path)
    view = compute_view(view_id, values, context_for_size(*request.pixels))
    names, table = find_panel(view, panel_key).data_table()
    job.check()
    if table.size == 0:  # text tables and the "no numeric data" error: as headless does
        return export_view(view_id, values, path, **kwargs)
    _write_checked(job, path, table, ["row", "column"], list(names))
    return Path(path)


def _validate(
    view_id: str,
    params: Mapping[str, Any],
    path: str | os.PathLike[str],
    kwargs: Mapping[str, Any],
) -> ExportRequest:
    """:func:`gui.export.headless.validate_request` with :func:`export_view`'s kwargs."""
    return validate_request(
        view_id,
        params,
        path,
        width=kwargs.get("width"),
        height=kwargs.get("height"),
        scale=kwargs.get("scale"),
        transparent=bool(kwargs.get("transparent", False)),
    )


@dataclass(frozen=True)
class PreparedImage:
    """What an image export computed off the GUI thread."""

    spec: ViewSpec
    view: ViewData
    panel: Panel | None
    layout: tuple[int, int]
    pixels: tuple[int, int]


def prepare_image(
    job: ExportJob,
    view_id: str,
    params: Mapping[str, Any],
    path: str | os.PathLike[str],
    kwargs: Mapping[str, Any],
) -> PreparedImage:
    """Validate an image export and compute its view data (worker thread)."""
    request = _validate(view_id, params, path, kwargs)
    view = compute_view(view_id, request.values, context_for_size(*request.pixels))
    job.check()
    panel_key = kwargs.get("panel")
    panel = find_panel(view, panel_key) if panel_key is not None else None
    return PreparedImage(request.spec, view, panel, request.layout, request.pixels)


def start_image(
    prepared: PreparedImage, path: str | os.PathLike[str], kwargs: Mapping[str, Any]
) -> ImageExport:
    """The drawing of a prepared image export (GUI thread): iterate its ``steps()``."""
    return ImageExport(
        prepared.spec,
        prepared.view,
        prepared.panel,
        export_format(path),
        prepared.layout,
        prepared.pixels,
        bool(kwargs.get("transparent", False)),
        None,
        None,
        square_cells=kwargs.get("square_cells"),
    )


def write_image(
    job: ExportJob, path: str | os.PathLike[str], kind: str, encode: Callable[[], bytes]
) -> Path:
    """Encode a drawn image (``encode``: see :meth:`ImageExport.encoder`) and write it
    atomically, cancellable until the file replaces ``path`` (worker thread)."""
    from gui.render.snapshot import write_export

    job.phase = "Encoding"
    data = encode()
    job.phase = "Writing"  # before the check: the GUI then waits for the outcome
    job.check()
    write_export(path, kind, data, check=job.check)
    return Path(path)
