"""Training lab window: train the tiny transformer per positional method, live.

Controls (methods, task, steps, training length, seed, model size), Start / Pause /
Cancel, and six plots: the loss and the training accuracy per step, the extrapolation
curve (accuracy against evaluation length, 0.5×–4× the training length; a learned table
has no row past its length, so its curve stops there), once a learned table is trained
its cosine-similarity matrix, the attention map (layer 1, head 1) of one evaluation
sample after each method, and RoPE's frequencies ``θ_i``. "Use in Learned view" saves
the trained table as ``.npy`` and hands its path to a callback (the composition root
sets the learned view's ``table_file``: this module cannot import the window).

Training runs in a ``spawn`` subprocess (:mod:`core.training.runner`), supervised by
:class:`TrainWorker` on a ``QThread``; the GUI thread only receives batched progress (at
most every 100 ms) and draws, and never waits for training's interpreter lock. Pause and
Cancel act between steps through two process-shared flags. Without torch the page says
how to get it and Start is disabled.
"""

from __future__ import annotations

import itertools
import multiprocessing
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from core.atomicio import atomic_open
from core.backend import torch_installed
from core.training.lab import TORCH_HINT, TrainConfig, TrainControl
from core.training.model import PE_LABELS, PE_METHODS
from core.training.tasks import TASKS

COLORS = {  # Okabe–Ito: colour-blind safe
    "none": "#999999",
    "sinusoidal": "#E69F00",
    "learned": "#D55E00",
    "rope": "#0072B2",
    "alibi": "#009E73",
    "t5": "#CC79A7",
}


class TrainWorker(QtCore.QObject):
    """Runs the training subprocess and turns its queue messages into signals.

    Training itself runs in a ``spawn`` subprocess (:func:`core.training.runner.child_main`):
    it never holds this interpreter's lock, so the GUI thread is never starved by it. This
    worker (on a ``QThread``) only waits on the queue.
    """

    started_on = QtCore.Signal(str)  # device label
    progress = QtCore.Signal(str, object, object, object)  # pe, steps, losses, accs
    method_done = QtCore.Signal(object)  # summary dict (core.training.runner.summary)
    finished = QtCore.Signal(bool)  # cancelled
    failed = QtCore.Signal(str)

    def __init__(self, configs: list[TrainConfig], control: TrainControl, context: Any) -> None:
        super().__init__()
        self.configs = configs
        self.control = control
        self.context = context
        self._abort = False

    def abort(self) -> None:
        """End the subprocess now (used when the window closes and it does not stop)."""
        self._abort = True

    @QtCore.Slot()
    def run(self) -> None:
        """Start the subprocess; relay its messages until it finishes or fails."""
        import queue as queue_mod

        from core.training.runner import child_main

        queue = self.context.Queue()
        proc = self.context.Process(
            target=child_main, args=(self.configs, queue, *self.control.events), daemon=True
        )
        proc.start()
        done = False
        while not done:
            if self._abort:
                proc.terminate()
                self.finished.emit(True)
                break
            try:
                msg = queue.get(timeout=0.05)
            except queue_mod.Empty:
                if not proc.is_alive() and queue.empty():
                    self.failed.emit(
                        f"the training process ended unexpectedly (exit code {proc.exitcode})"
                    )
                    break
                continue
            done = self._relay(msg)
        proc.join(5)
        if proc.is_alive():
            proc.terminate()
            proc.join(5)
        queue.close()
        thread = QtCore.QThread.currentThread()
        if thread is not None:
            thread.quit()  # run() was the thread's only job: end its event loop

    def _relay(self, msg: tuple[Any, ...]) -> bool:
        kind = msg[0]
        if kind == "device":
            self.started_on.emit(msg[1])
        elif kind == "progress":
            self.progress.emit(*msg[1:])
        elif kind == "method":
            self.method_done.emit(msg[1])
        elif kind == "finished":
            self.finished.emit(bool(msg[1]))
            return True
        elif kind == "failed":
            self.failed.emit(str(msg[1]))
            return True
        return False


SYMBOLS = {"none": "x", "sinusoidal": "s", "learned": "o", "rope": "t", "alibi": "d", "t5": "+"}


def cosine_matrix(table: np.ndarray) -> np.ndarray:
    """Cosine similarity between the rows of ``table``."""
    norms = np.linalg.norm(table, axis=1, keepdims=True)
    unit = table / np.where(norms > 0, norms, 1.0)
    return unit @ unit.T


class TrainPage(QtWidgets.QWidget):
    """The training lab (a separate top-level window of the main window)."""

    def __init__(
        self,
        parent: QtWidgets.QWidget | None = None,
        use_table: Callable[[str], None] | None = None,
    ) -> None:
        """``use_table(path)`` is called by "Use in Learned view" with a saved ``.npy``."""
        super().__init__(parent, QtCore.Qt.WindowType.Window)
        self.setObjectName("train-page")
        self.setWindowTitle("Training lab: watch a tiny transformer learn positions")
        self.thread_: QtCore.QThread | None = None
        self.worker: TrainWorker | None = None
        self.control: TrainControl | None = None
        self.curves: dict[str, dict[str, Any]] = {}
        self.results: dict[str, dict[str, Any]] = {}
        self.learned_table: np.ndarray | None = None
        self.attention_map: np.ndarray | None = None  # (L, L): query × key
        self.use_table = use_table
        self.table_folder = Path(tempfile.gettempdir()) / "pe-studio-trained"
        self._build_controls()
        self._build_plots()
        layout = QtWidgets.QHBoxLayout(self)
        layout.addWidget(self.controls)
        layout.addWidget(self.plots, 1)
        if not torch_installed():
            self.start_button.setEnabled(False)
            self.status.setText(TORCH_HINT)
        self.resize(1400, 850)

    # ------------------------------------------------------------------ layout
    def _build_controls(self) -> None:
        self.controls = QtWidgets.QWidget(self)
        form = QtWidgets.QFormLayout(self.controls)
        self.methods = QtWidgets.QListWidget(self.controls)
        self.methods.setObjectName("train-methods")
        for pe in PE_METHODS:
            item = QtWidgets.QListWidgetItem(PE_LABELS[pe])
            item.setData(QtCore.Qt.ItemDataRole.UserRole, pe)
            item.setFlags(item.flags() | QtCore.Qt.ItemFlag.ItemIsUserCheckable)
            checked = pe in ("learned", "rope", "alibi")
            item.setCheckState(
                QtCore.Qt.CheckState.Checked if checked else QtCore.Qt.CheckState.Unchecked
            )
            self.methods.addItem(item)
        self.methods.setMaximumHeight(150)
        form.addRow("Methods", self.methods)
        d = TrainConfig()
        self.task = QtWidgets.QComboBox(self.controls)
        self.task.addItems(list(TASKS))
        self.task.setToolTip(
            "shift: predict the token k positions back; reverse: write it backwards"
        )
        form.addRow("Task", self.task)
        self.steps = self._spin(1, 100_000, d.steps, "train-steps")
        form.addRow("Steps", self.steps)
        self.train_len = self._spin(4, 256, d.train_len, "train-len")
        form.addRow("Training length", self.train_len)
        self.seed = self._spin(0, 2**31 - 1, d.seed, "train-seed")
        form.addRow("Seed", self.seed)
        self.d_model = QtWidgets.QComboBox(self.controls)
        self.d_model.addItems(["32", "64", "128"])
        self.d_model.setCurrentText(str(d.d_model))
        form.addRow("Width d", self.d_model)
        self.layers = self._spin(1, 2, d.n_layers, "train-layers")
        form.addRow("Layers", self.layers)
        self.heads = QtWidgets.QComboBox(self.controls)
        self.heads.addItems(["1", "2", "4"])
        self.heads.setCurrentText(str(d.n_heads))
        form.addRow("Heads", self.heads)
        buttons = QtWidgets.QHBoxLayout()
        self.start_button = QtWidgets.QPushButton("&Start", self.controls)
        self.start_button.setObjectName("train-start")
        self.start_button.clicked.connect(self.start)
        self.pause_button = QtWidgets.QPushButton("&Pause", self.controls)
        self.pause_button.setObjectName("train-pause")
        self.pause_button.clicked.connect(self.toggle_pause)
        self.cancel_button = QtWidgets.QPushButton("&Cancel", self.controls)
        self.cancel_button.setObjectName("train-cancel")
        self.cancel_button.clicked.connect(self.cancel)
        for b in (self.start_button, self.pause_button, self.cancel_button):
            buttons.addWidget(b)
        self.pause_button.setEnabled(False)
        self.cancel_button.setEnabled(False)
        form.addRow(buttons)
        self.status = QtWidgets.QLabel("Pick methods and press Start.", self.controls)
        self.status.setObjectName("train-status")
        self.status.setWordWrap(True)
        form.addRow(self.status)
        self.summary = QtWidgets.QLabel("", self.controls)
        self.summary.setObjectName("train-summary")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(self.summary)
        self.use_button = QtWidgets.QPushButton("Use in &Learned view", self.controls)
        self.use_button.setObjectName("train-use-table")
        self.use_button.setToolTip(
            "Save the trained learned table as .npy and show it in the learned view"
        )
        self.use_button.clicked.connect(self.use_in_learned_view)
        self.use_button.setEnabled(False)
        form.addRow(self.use_button)
        self.attn_method = QtWidgets.QComboBox(self.controls)
        self.attn_method.setObjectName("train-attention-method")
        self.attn_method.setToolTip("Whose attention map the lower-left plot shows")
        self.attn_method.currentIndexChanged.connect(self._show_attention)
        form.addRow("Attention of", self.attn_method)
        self.controls.setMaximumWidth(340)

    def _spin(self, lo: int, hi: int, value: int, name: str) -> QtWidgets.QSpinBox:
        box = QtWidgets.QSpinBox(self.controls)
        box.setRange(lo, hi)
        box.setValue(value)
        box.setObjectName(name)
        return box

    def _build_plots(self) -> None:
        self.plots = pg.GraphicsLayoutWidget(self)
        self.plots.setBackground("w")
        self.loss_plot = self.plots.addPlot(0, 0, title="Training loss")
        self.loss_plot.setLogMode(y=True)
        self.loss_plot.setLabel("bottom", "step")
        self.acc_plot = self.plots.addPlot(0, 1, title="Training accuracy")
        self.acc_plot.setLabel("bottom", "step")
        self.acc_plot.setYRange(0, 1)
        self.extra_plot = self.plots.addPlot(
            1, 0, title="Extrapolation: accuracy at evaluation length"
        )
        self.extra_plot.setLabel("bottom", "evaluation length")
        self.extra_plot.setYRange(0, 1.02)
        self.sim_plot = self.plots.addPlot(1, 1, title="Learned table: cosine similarity")
        self.sim_plot.setLabel("bottom", "position q")
        self.sim_plot.setLabel("left", "position p")
        self.sim_plot.invertY(True)
        self.sim_image = pg.ImageItem()
        self.sim_image.setLookupTable(pg.colormap.get("CET-D1A").getLookupTable(nPts=256))
        self.sim_plot.addItem(self.sim_image)
        self.attn_plot = self.plots.addPlot(2, 0, title="Attention, layer 1 head 1")
        self.attn_plot.setLabel("bottom", "key position")
        self.attn_plot.setLabel("left", "query position")
        self.attn_plot.invertY(True)
        self.attn_image = pg.ImageItem()
        self.attn_image.setLookupTable(pg.colormap.get("viridis").getLookupTable(nPts=256))
        self.attn_plot.addItem(self.attn_image)
        self.rope_plot = self.plots.addPlot(2, 1, title="RoPE frequencies θ_i")
        self.rope_plot.setLabel("bottom", "rotation pair i")
        self.rope_plot.setLabel("left", "θ_i (radians per position)")
        self.rope_plot.setLogMode(y=True)
        self.rope_plot.showGrid(x=True, y=True, alpha=0.3)
        self.rope_curve = self.rope_plot.plot(
            [], [], pen=pg.mkPen(COLORS["rope"], width=2), symbol="o", symbolSize=6
        )
        for plot in (self.loss_plot, self.acc_plot, self.extra_plot):
            plot.addLegend(offset=(-10, 10))
            plot.showGrid(x=True, y=True, alpha=0.3)
        self.train_len_line = pg.InfiniteLine(
            angle=90, pen=pg.mkPen("#555", style=QtCore.Qt.PenStyle.DashLine)
        )
        self.extra_plot.addItem(self.train_len_line)

    # ------------------------------------------------------------------ actions
    def selected_methods(self) -> list[str]:
        """The checked methods, in the list's order."""
        out = []
        for i in range(self.methods.count()):
            item = self.methods.item(i)
            if item.checkState() == QtCore.Qt.CheckState.Checked:
                out.append(str(item.data(QtCore.Qt.ItemDataRole.UserRole)))
        return out

    def configs(self) -> list[TrainConfig]:
        """One config per checked method (``ValueError`` on bad settings)."""
        methods = self.selected_methods()
        if not methods:
            raise ValueError("check at least one method")
        base = TrainConfig(
            task=self.task.currentText(),
            steps=self.steps.value(),
            train_len=self.train_len.value(),
            seed=self.seed.value(),
            d_model=int(self.d_model.currentText()),
            n_layers=self.layers.value(),
            n_heads=int(self.heads.currentText()),
        )
        return [replace(base, pe=pe) for pe in methods]

    @property
    def running(self) -> bool:
        """True while a worker thread runs."""
        return self.thread_ is not None

    def start(self) -> None:
        """Start training the checked methods on a worker thread."""
        if self.running:
            return
        try:
            configs = self.configs()
        except ValueError as exc:
            self.status.setText(str(exc))
            return
        self._clear()
        self.train_len_line.setValue(configs[0].train_len)
        lengths = configs[0].lengths()
        self.extra_plot.setXRange(min(lengths), max(lengths))  # 0.5×–4× from the start
        context = multiprocessing.get_context("spawn")
        self.control = TrainControl(context.Event(), context.Event())
        self.control.resume()
        self.thread_ = QtCore.QThread(self)
        self.worker = TrainWorker(configs, self.control, context)
        self.worker.moveToThread(self.thread_)
        self.thread_.started.connect(self.worker.run)
        self.thread_.finished.connect(self._thread_done)
        self.worker.started_on.connect(self._on_device)
        self.worker.progress.connect(self._on_progress)
        self.worker.method_done.connect(self._on_method_done)
        self.worker.finished.connect(self._on_finished)
        self.worker.failed.connect(self._on_failed)
        self.start_button.setEnabled(False)
        self.pause_button.setEnabled(True)
        self.cancel_button.setEnabled(True)
        self.status.setText("starting torch…")
        self.thread_.start()

    def toggle_pause(self) -> None:
        """Pause or resume the run (between steps)."""
        if self.control is None:
            return
        if self.control.paused:
            self.control.resume()
            self.pause_button.setText("&Pause")
        else:
            self.control.pause()
            self.pause_button.setText("&Resume")

    def cancel(self) -> None:
        """Stop before the next step (the current method is not evaluated)."""
        if self.control is not None:
            self.control.cancel()
            self.status.setText("cancelling…")

    def _clear(self) -> None:
        for plot in (self.loss_plot, self.acc_plot, self.extra_plot):
            for item in list(plot.listDataItems()):
                plot.removeItem(item)
            if plot.legend is not None:
                plot.legend.clear()
        self.curves.clear()
        self.results.clear()
        self.summary.setText("")
        self.sim_image.clear()
        self.learned_table = None
        self.use_button.setEnabled(False)
        self.attn_image.clear()
        self.attention_map = None
        self.attn_plot.setTitle("Attention, layer 1 head 1")
        self.attn_method.clear()
        self.rope_curve.setData([], [])

    # ------------------------------------------------------------------ worker signals
    @QtCore.Slot(str)
    def _on_device(self, label: str) -> None:
        self.device = label
        self.status.setText(f"training on {label}")

    @QtCore.Slot(str, object, object, object)
    def _on_progress(
        self, pe: str, steps: list[int], losses: list[float], accs: list[float]
    ) -> None:
        if pe not in self.curves:
            pen = pg.mkPen(COLORS[pe], width=2)
            self.curves[pe] = {
                "steps": [],
                "loss": [],
                "acc": [],
                "loss_curve": self.loss_plot.plot([], [], pen=pen, name=PE_LABELS[pe]),
                "acc_curve": self.acc_plot.plot([], [], pen=pen, name=PE_LABELS[pe]),
            }
        c = self.curves[pe]
        c["steps"] += steps
        c["loss"] += [max(v, 1e-6) for v in losses]
        c["acc"] += accs
        x = np.asarray(c["steps"], dtype=float)
        c["loss_curve"].setData(x, np.asarray(c["loss"]))
        c["acc_curve"].setData(x, np.asarray(c["acc"]))
        self.status.setText(
            f"{PE_LABELS[pe]} on {getattr(self, 'device', '?')}: step {steps[-1]}  "
            f"loss {losses[-1]:.4f}  acc {accs[-1]:.3f}"
            + ("  (paused)" if self.control is not None and self.control.paused else "")
        )

    @QtCore.Slot(object)
    def _on_method_done(self, res: dict[str, Any]) -> None:
        pe = res["pe"]
        self.results[pe] = res
        if res["cancelled"]:
            return
        lengths = np.asarray(res["lengths"], dtype=float)
        acc = np.array([np.nan if a is None else a for a in res["accuracy"]])
        ok = np.isfinite(acc)
        self.extra_plot.plot(
            lengths[ok],
            acc[ok],
            pen=pg.mkPen(COLORS[pe], width=2),
            symbol=SYMBOLS[pe],
            symbolSize=15 if pe == "learned" else 9,  # hollow ring: visible under others
            symbolPen=pg.mkPen(COLORS[pe], width=2),
            symbolBrush=None if pe == "learned" else COLORS[pe],
            name=PE_LABELS[pe] + ("" if ok.all() else f" (no row past {int(lengths[ok].max())})"),
        )
        if res["table"] is not None:
            self.learned_table = res["table"]
            self.sim_image.setImage(cosine_matrix(res["table"]).T, levels=(-1.0, 1.0))
            self.use_button.setEnabled(self.use_table is not None)
        if res.get("attention") is not None:
            self.attn_method.addItem(PE_LABELS[pe], pe)
            self.attn_method.setCurrentIndex(self.attn_method.count() - 1)  # the latest
        if res.get("rope_freq") is not None:
            theta = np.asarray(res["rope_freq"], dtype=float)
            self.rope_curve.setData(np.arange(len(theta), dtype=float), theta)
        lines = []
        for r in self.results.values():
            cells = [
                f"{n}: {'no row' if a is None else f'{a:.2f}'}"
                for n, a in zip(r["lengths"], r["accuracy"], strict=True)
            ]
            lines.append(f"<b>{PE_LABELS[r['pe']]}</b> {', '.join(cells)}")
        self.summary.setText("<br>".join(lines))

    @QtCore.Slot(int)
    def _show_attention(self, index: int) -> None:
        """Show layer 1, head 1 of the chosen method's evaluation sample."""
        pe = self.attn_method.itemData(index)
        res = self.results.get(pe) if pe is not None else None
        if res is None or res.get("attention") is None:
            return
        self.attention_map = np.asarray(res["attention"][0, 0])
        self.attn_image.setImage(self.attention_map.T, levels=(0.0, 1.0))
        self.attn_plot.setTitle(f"Attention, layer 1 head 1: {PE_LABELS[pe]}, one sample")

    def save_learned_table(self) -> Path:
        """Write the trained learned table to a new ``.npy`` in :attr:`table_folder`."""
        if self.learned_table is None:
            raise ValueError("no learned table trained yet: train the learned method first")
        self.table_folder.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        for n in itertools.count():
            path = self.table_folder / f"learned-table-{stamp}-{n}.npy"
            if not path.exists():
                break
        with atomic_open(path, "wb") as handle:
            np.save(handle, np.asarray(self.learned_table, dtype=np.float64))
        return path

    def use_in_learned_view(self) -> None:
        """Save the learned table and hand its path to ``use_table`` (the learned view)."""
        if self.use_table is None:
            return
        try:
            path = self.save_learned_table()
        except (OSError, ValueError) as exc:
            self.status.setText(f"could not save the table: {exc}")
            return
        self.use_table(str(path))
        self.status.setText(f"learned view shows {path}")

    @QtCore.Slot(bool)
    def _on_finished(self, cancelled: bool) -> None:
        self.status.setText(
            ("cancelled" if cancelled else "done") + f" on {getattr(self, 'device', '?')}"
        )
        self._run_ended()

    @QtCore.Slot(str)
    def _on_failed(self, message: str) -> None:
        self.status.setText(f"training failed: {message}")
        self._run_ended()

    def _run_ended(self) -> None:
        """The run is over; its process may still be exiting (the GUI never waits)."""
        self.pause_button.setEnabled(False)
        self.pause_button.setText("&Pause")
        self.cancel_button.setEnabled(False)

    @QtCore.Slot()
    def _thread_done(self) -> None:
        """The worker thread has ended (its process has exited): Start is possible again."""
        self.thread_ = None
        self.worker = None
        self._run_ended()
        self.start_button.setEnabled(torch_installed())

    def shutdown(self) -> None:
        """Cancel a run and wait for its thread (the window or the app is closing).

        The subprocess stops before its next step; one that does not within 3 s
        (e.g. mid-evaluation) is terminated.
        """
        if self.control is not None:
            self.control.cancel()
        if self.thread_ is not None:
            if not self.thread_.wait(3000) and self.worker is not None:
                self.worker.abort()
                self.thread_.wait()
            self._thread_done()

    def eventFilter(self, watched: QtCore.QObject, event: QtCore.QEvent) -> bool:
        """End a run when the main window (the parent) closes."""
        if watched is self.parent() and event.type() == QtCore.QEvent.Type.Close:
            self.shutdown()
            self.close()
        return False

    def closeEvent(self, event: QtGui.QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)


def install_train_lab(window: Any, use_table: Callable[[str], None] | None = None) -> QtGui.QAction:
    """Add View → Training lab… to ``window``; the page is kept as ``window.train_page``.

    ``window`` needs ``menu`` and ``add_action`` (see ``gui.window.protocol``);
    ``use_table(path)`` receives a saved learned table ("Use in Learned view").
    """

    def show_page() -> None:
        page = getattr(window, "train_page", None)
        if page is None:
            page = TrainPage(window, use_table)
            window.train_page = page
            window.installEventFilter(page)  # the main window closing ends a run
        page.show()
        if QtGui.QGuiApplication.platformName() != "offscreen":  # it cannot raise windows
            page.raise_()
            page.activateWindow()

    action: QtGui.QAction = window.add_action(
        window.menu("view"), "&Training lab…", "Ctrl+Shift+L", show_page, "action-train-lab"
    )
    return action
