"""Long exports: bounded symbol drawing, and window exports off the GUI thread with cancel
(issue 18, item 7). Timings belong in bench/, not here: nothing asserts wall-clock time."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from core.viewdata import Panel, Series
from gui.plotting.panel_plot import PanelPlot
from gui.render import snapshot
from gui.render.symbol_series import ExportScatter, pixel_unique


def _scatter_canvas(n: int) -> tuple[pg.GraphicsLayoutWidget, PanelPlot]:
    canvas = pg.GraphicsLayoutWidget()
    plot = PanelPlot(canvas.addPlot())
    x = np.arange(n, dtype=float)
    plot.show(
        Panel(
            "w",
            "many markers",
            "curves",
            "i",
            "y",
            series=[Series("y", x, np.sin(x / 50.0), "scatter")],
        )
    )
    canvas.resize(300, 200)
    return canvas, plot


def test_export_draws_a_scatter_with_bounded_paths(qtbot, monkeypatch):
    calls: list[int] = []
    draw = snapshot._ExportPainter.drawPath

    def counting(self, *args):
        calls.append(1)
        return draw(self, *args)

    monkeypatch.setattr(snapshot._ExportPainter, "drawPath", counting, raising=False)
    canvas, plot = _scatter_canvas(20000)
    qtbot.addWidget(canvas)
    image = snapshot.render_image(canvas, width=300, height=200)
    pixels = image.width() * image.height()
    # one path for every marker, not one path per marker (20,000 before)
    assert len(calls) < 50
    scatter = plot.curves[0].scatter
    assert isinstance(scatter, ExportScatter)
    assert 0 < scatter.exported_symbols <= pixels // 4
    # the markers are drawn: the series colour covers part of the image
    arr = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), -1, 4)
    color = pg.mkBrush(plot.curves[0].opts["symbolBrush"]).color()  # (a QBrush)
    blue = (
        (np.abs(arr[..., 0].astype(int) - color.blue()) < 10)
        & (np.abs(arr[..., 1].astype(int) - color.green()) < 10)
        & (np.abs(arr[..., 2].astype(int) - color.red()) < 10)
    )
    assert blue.sum() > 1000


def test_exported_markers_look_like_pyqtgraphs_own(qtbot):
    """The one-path export matches pyqtgraph's marker-by-marker export (edge pixels aside)."""
    canvas, plot = _scatter_canvas(300)
    qtbot.addWidget(canvas)
    exported = snapshot.render_image(canvas, width=600, height=400)
    plot.curves[0].scatter.one_path = False
    reference = snapshot.render_image(canvas, width=600, height=400)

    def rgb(img: QtGui.QImage) -> np.ndarray:
        return np.frombuffer(img.constBits(), np.uint8).reshape(img.height(), -1, 4)[..., :3]

    diff = np.abs(rgb(exported).astype(int) - rgb(reference).astype(int)).max(axis=2)
    assert (diff > 0).any()  # a different drawing ...
    assert (diff > 60).mean() < 0.005  # ... of the same picture


def test_a_few_markers_are_stamped_as_pyqtgraph_stamps_them(qtbot, monkeypatch):
    """A series of a few markers (RoPE's "m − n" dot, its "two pairs") is painted on
    screen without pyqtgraph's array set-up, the same atlas fragments: the same pixels,
    also for a marker outside the view (the view box clips it) and a series too long
    for it (pyqtgraph's own paint)."""
    canvas, plot = _scatter_canvas(6)
    qtbot.addWidget(canvas)
    canvas.show()
    qtbot.waitExposed(canvas)
    scatter = plot.curves[0].scatter
    plot.plot.getViewBox().setXRange(0.5, 4.2, padding=0)  # markers 0 and 5 out of view

    def grab() -> QtGui.QImage:
        canvas.viewport().repaint()
        return canvas.grab().toImage().convertToFormat(QtGui.QImage.Format.Format_RGB32)

    before = scatter.few_painted
    fast = grab()
    assert scatter.few_painted > before
    monkeypatch.setattr(ExportScatter, "_paint_few", lambda self, p, widget: False)
    assert grab() == fast  # pyqtgraph's paint: the same picture
    monkeypatch.undo()
    canvas2, plot2 = _scatter_canvas(40)  # too many: pyqtgraph's
    qtbot.addWidget(canvas2)
    canvas2.show()
    qtbot.waitExposed(canvas2)
    canvas2.grab()
    assert plot2.curves[0].scatter.few_painted == 0


def test_new_positions_of_as_many_markers_move_them_as_drawn_afresh(qtbot):
    """New data of a marker series with as many points (RoPE's markers follow m) moves
    the markers instead of styling every point again: the picture is the one a plot
    drawn afresh with that data shows; another number of points is pyqtgraph's update."""

    def panel(y: np.ndarray) -> Panel:
        x = np.arange(y.size, dtype=float)
        return Panel("w", "markers", "curves", "i", "y", series=[Series("y", x, y, "scatter")])

    def shown(canvas: pg.GraphicsLayoutWidget) -> QtGui.QImage:
        qtbot.addWidget(canvas)
        canvas.resize(300, 200)
        canvas.show()
        qtbot.waitExposed(canvas)
        return canvas.grab().toImage()

    canvas, plot = _scatter_canvas(6)
    shown(canvas)
    series = plot.curves[0]
    moved = series.moved
    new = np.cos(np.arange(6.0))
    plot.show(panel(new))
    assert series.moved == moved + 1  # moved, not styled again
    np.testing.assert_array_equal(series.scatter.getData()[1], new)
    fresh = pg.GraphicsLayoutWidget()
    PanelPlot(fresh.addPlot()).show(panel(new))
    assert shown(fresh) == canvas.grab().toImage()
    plot.show(panel(np.cos(np.arange(7.0))))  # a point more: pyqtgraph's update
    assert series.moved == moved + 1 and len(series.scatter.getData()[0]) == 7


def test_pixel_unique_keeps_one_point_per_cell():
    pts = np.array([[0.1, 0.1], [0.9, 0.2], [1.5, 0.5], [0.2, 3.0], [1.2, 0.4]])
    assert pixel_unique(pts, 1.0).tolist() == [0, 2, 3]
    assert pixel_unique(np.zeros((0, 2)), 1.0).tolist() == []


# ----------------------------------------------------------------------- window
def test_window_export_can_be_cancelled_and_the_gui_keeps_running(
    window, tmp_path, monkeypatch, qtbot
):
    import threading

    from gui.export import actions as ea
    from gui.export import worker

    errors: list[str] = []
    monkeypatch.setattr(ea, "notify_error", lambda _w, message: errors.append(message))
    monkeypatch.setattr(ea, "ask_options", lambda *_a, **_k: ea.ExportOptions("csv"))
    target = tmp_path / "big.csv"
    monkeypatch.setattr(ea, "ask_save_path", lambda *_a: str(target))
    # The export stays in the middle of its write until this test has acted: after its
    # first row (the header) the worker waits for ``acted``. A 16-million-value CSV
    # ("minutes of writing") was not enough: in one loaded CI run its job had ended when
    # a timer tick first acted on it, so the second export asked for then was accepted.
    window.states["sinusoidal"].set_param("seq_len", 64)
    window.states["sinusoidal"].set_param("d_model", 32)
    assert window.wait_idle()
    acted = threading.Event()
    write = worker._CheckedFile.write
    gated: list[worker.ExportJob] = []  # the first export's job (a second one never waits)

    def write_then_wait(self, data):  # type: ignore[no-untyped-def]
        count = write(self, data)  # checks for cancel first, counts the bytes
        gated[:] = gated or [self._job]
        if self._job is gated[0]:
            acted.wait(60)
        return count

    monkeypatch.setattr(worker._CheckedFile, "write", write_then_wait)

    ticks: list[int] = []
    tried: list[bool] = []
    clicked: list[bool] = []
    second: list[str | None] = []
    ticker = QtCore.QTimer()
    ticker.setInterval(20)

    def tick() -> None:
        ticks.append(1)
        shown = [
            d
            for d in window.qt.findChildren(QtWidgets.QProgressDialog, "export-progress")
            if d.isVisible()
        ]
        job = actions.last_job
        if tried or not shown or job is None or job.written == 0:
            return
        tried.append(True)
        try:
            # mid-write (the worker waits for ``acted``): a second export asked for
            # meanwhile is refused, the first one goes on
            second.append(actions.export_current())
            assert actions.last_job is job and not job.done() and not job.cancelled
            button = shown[0].findChild(QtWidgets.QPushButton)
            clicked.append(True)
            qtbot.mouseClick(button, QtCore.Qt.MouseButton.LeftButton)
            assert job.cancelled
        finally:
            acted.set()  # the worker goes on; its next write finds the export cancelled

    ticker.timeout.connect(tick)
    actions = window.feature(ea.ExportActions)
    ticker.start()
    try:
        assert actions.export_current() is None
    finally:
        ticker.stop()
        acted.set()
    assert clicked == [True]
    assert second == [None]
    assert actions.last_job.join(60)
    assert isinstance(actions.last_job.error, worker.ExportCancelled)
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []  # no temporary file left either
    assert errors == []
    # The event loop ran during the export: the click above came from a timer tick while
    # the export was writing.
    assert ticks


def test_window_export_still_writes_the_file(window, tmp_path, monkeypatch):
    from gui.export import actions as ea

    errors: list[str] = []
    monkeypatch.setattr(ea, "notify_error", lambda _w, message: errors.append(message))
    monkeypatch.setattr(ea, "ask_options", lambda *_a, **_k: ea.ExportOptions("npy"))
    target = tmp_path / "pe.npy"
    monkeypatch.setattr(ea, "ask_save_path", lambda *_a: str(target))
    window.states["sinusoidal"].set_param("seq_len", 30)
    assert window.wait_idle()
    actions = window.feature(ea.ExportActions)
    assert actions.export_current() == str(target)
    from core.views import get_view

    values = window.states["sinusoidal"].values
    np.testing.assert_array_equal(np.load(target), get_view("sinusoidal").export(values).array)
    assert errors == []


def _image_export_setup(window, tmp_path, monkeypatch, name: str):
    from gui.export import actions as ea

    errors: list[str] = []
    monkeypatch.setattr(ea, "notify_error", lambda _w, message: errors.append(message))
    options = ea.ExportOptions("png", width=480, height=320)
    monkeypatch.setattr(ea, "ask_options", lambda *_a, **_k: options)
    target = tmp_path / name
    monkeypatch.setattr(ea, "ask_save_path", lambda *_a: str(target))
    window.states["sinusoidal"].set_param("seq_len", 40)
    assert window.wait_idle()
    return ea, window.feature(ea.ExportActions), target, errors


def test_window_image_export_shows_progress_to_100_and_equals_the_headless_file(
    window, tmp_path, monkeypatch
):
    ea, actions, target, errors = _image_export_setup(window, tmp_path, monkeypatch, "w.png")
    assert actions.export_current() == str(target)
    assert errors == []
    seen = actions.last_progress
    assert seen[0] == 0 and seen[-1] == 100 and seen == sorted(seen)
    assert len(seen) >= 5  # several parts: the four plots are tiles of their own
    from gui.export.headless import export_view

    reference = tmp_path / "headless.png"
    export_view("sinusoidal", window.states["sinusoidal"].values, reference, width=480, height=320)

    def pixels(path) -> np.ndarray:
        image = QtGui.QImage(str(path)).convertToFormat(QtGui.QImage.Format.Format_ARGB32)
        return np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), -1).copy()

    assert np.array_equal(pixels(target), pixels(reference))


def test_window_image_export_cancelled_between_plots_leaves_no_file(window, tmp_path, monkeypatch):
    ea, actions, target, errors = _image_export_setup(window, tmp_path, monkeypatch, "c.png")
    target.write_bytes(b"older export")
    real = ea.start_image
    drawn: list[tuple[int, int]] = []

    def start(*args):
        export = real(*args)
        steps = export.steps

        def cancelling():
            for done, total in steps():
                drawn.append((done, total))
                if done == 2:  # Cancel pressed while the plots are being drawn
                    for dialog in window.qt.findChildren(
                        QtWidgets.QProgressDialog, "export-progress"
                    ):
                        if dialog.maximum() == 100:  # the drawing's (not the computing's)
                            dialog.cancel()
                yield done, total

        export.steps = cancelling
        return export

    monkeypatch.setattr(ea, "start_image", start)
    assert actions.export_current() is None
    assert drawn[-1][0] == 2 < drawn[-1][1]  # stopped between parts, not at the end
    assert target.read_bytes() == b"older export"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.png"]  # no temporary file
    assert errors == []
    # the window goes on: the next export draws and writes the file
    monkeypatch.setattr(ea, "start_image", real)
    assert actions.export_current() == str(target)
    assert target.read_bytes()[:4] == b"\x89PNG"


def test_image_write_cancelled_before_the_rename_keeps_the_old_file(tmp_path):
    import pytest

    from gui.export.worker import ExportCancelled, ExportJob, write_image

    target = tmp_path / "x.png"
    target.write_bytes(b"old")
    job = ExportJob()

    def encode_then_cancel() -> bytes:
        job.cancel()  # Cancel pressed while encoding
        return b"new"

    with pytest.raises(ExportCancelled):
        write_image(job, target, "PNG image", encode_then_cancel)
    assert target.read_bytes() == b"old"
    assert list(tmp_path.iterdir()) == [target]
    assert write_image(ExportJob(), target, "PNG image", lambda: b"new") == target
    assert target.read_bytes() == b"new"
