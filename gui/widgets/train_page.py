"""Training lab window: train the tiny transformer per positional method, live.

Controls (methods, task, steps, training length, seed, model size), Start / Pause /
Cancel, and six plots: the loss and the training accuracy per step, the extrapolation
curve (accuracy against evaluation length, 0.5×–4× the training length; a learned table
has no row past its length, so its curve stops there), once a learned table is trained
its cosine-similarity matrix, the attention map (layer 1, head 1) of one evaluation
sample after each method, and RoPE's frequencies ``θ_i``. "Use in Learned view" saves
the trained table as ``.npy`` and hands its path to a callback (the composition root
sets the learned view's ``table_file``: this module cannot import the window).

The plots are :class:`core.viewdata.Panel` objects (:mod:`core.training.panels`) drawn
by the views' :class:`~gui.plotting.panel_plot.PanelPlot`: the app's theme and UI scale,
legend strips above the data, colour bars, hover readouts; a plot without its data
says what will appear there. :meth:`TrainPage.apply_theme` re-styles them (the lecture
display's ``applied`` reaches an open lab through :func:`install_train_lab`).

Training runs in a ``spawn`` subprocess (:mod:`core.training.runner`), supervised by
:class:`TrainWorker` on a ``QThread``; the GUI thread only receives batched progress (at
most every 100 ms) and draws, and never waits for training's interpreter lock. Pause and
Cancel act between steps through two process-shared flags. Without torch the page says
how to get it and Start is disabled.
"""

from __future__ import annotations

import atexit
import itertools
import math
import multiprocessing
import tempfile
import time
from collections.abc import Callable, Sequence
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
from core.training.panels import (
    KEYS,
    METHOD_COLOR,
    attention_panel,
    empty_panel,
    extrapolation_panel,
    is_empty,
    rope_panel,
    similarity_panel,
    training_panel,
)
from core.training.tasks import TASKS
from core.viewdata import Panel
from gui.plotting.panel_plot import PanelPlot
from gui.plotting.plot_data import series_color
from gui.render.fast_axis import hide_spare_axes, make_axes
from gui.render.settle import before_layout, settle, targets
from gui.render.view_box import PlotViewBox
from gui.theme import Theme, current_theme
from gui.widgets.grid_flow import min_panel_size
from gui.widgets.view_widget import LEGEND_SHARE

PLACES = {  # plot -> (row, column) in the lab's grid
    "loss": (0, 0),
    "accuracy": (0, 1),
    "extrapolation": (1, 0),
    "similarity": (1, 1),
    "attention": (2, 0),
    "rope": (2, 1),
}
METHOD_OF_COLOR = {color: pe for pe, color in METHOD_COLOR.items()}
DASH = QtCore.Qt.PenStyle.DashLine
MARKER_PAD = 0.06  # the extrapolation plot's least range padding (markers: see below)
MARKER_PX = 15  # the largest marker's size at 100 % (the learned method's hollow ring)
LOCKED_TIP = "The settings are locked while a run trains: Cancel it (or let it end) to change them"


def marker_padding(reach: float, size: float) -> float:
    """The range padding (pyqtgraph's: a fraction of the range on each side) that leaves
    ``reach`` px between the data's end and the edge of a data area ``size`` px long,
    at least :data:`MARKER_PAD`: a marker ``reach`` px from its centre to its outer
    edge shows whole at the range's ends. The padded range takes ``(1 + 2p)`` of the
    area and each end ``p`` of that, so ``p / (1 + 2p) · size ≥ reach``; at most 0.5
    (a data area hardly larger than the marker)."""
    room = size - 2 * reach
    if room <= reach:
        return 0.5
    return min(0.5, max(MARKER_PAD, reach / room))


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


ABORT_AFTER_MS = 3000  # a closed lab's run that has not stopped by then is terminated
_RUNS: dict[QtCore.QThread, TrainWorker] = {}  # runs whose thread has not ended yet


def keep_run(thread: QtCore.QThread, worker: TrainWorker) -> None:
    """Keep ``thread`` and its ``worker`` until the thread has ended (a page's
    ``_thread_done``) or the app quits (:func:`end_runs`): a lab closed mid-run lets
    its run end in the background, and a QThread destroyed while it runs aborts the
    app (its page, deleted at exit, no longer owns it)."""
    app = QtCore.QCoreApplication.instance()
    if app is not None and not app.property("train-runs-end-on-quit"):
        app.aboutToQuit.connect(end_runs)
        app.setProperty("train-runs-end-on-quit", True)
    _RUNS[thread] = worker


def end_runs() -> None:
    """End every run still going and wait for its thread (the app is quitting, the
    windows are gone): each is cancelled and its subprocess terminated at once."""
    for thread, worker in list(_RUNS.items()):
        worker.control.cancel()
        worker.abort()
        thread.wait()
    _RUNS.clear()


atexit.register(end_runs)  # (a script or test that never quits its QApplication)


SYMBOLS = {"none": "x", "sinusoidal": "s", "learned": "o", "rope": "t", "alibi": "d", "t5": "+"}


class EmptyNote(QtWidgets.QGraphicsTextItem):
    """A short centred text in an empty plot's data area saying what will appear there
    (a child of the plot's view box, in its pixels: not data, never in its range)."""

    def __init__(self, view: pg.ViewBox) -> None:
        super().__init__(view)
        self.view = view
        self.setObjectName("train-empty-note")
        view.sigResized.connect(lambda _view: self._place())

    def set_theme(self, theme: Theme) -> None:
        """Text in the theme's foreground at its size for body text (12 pt at 100 %)."""
        self.setFont(theme.font(12))
        self.setDefaultTextColor(QtGui.QColor(theme.foreground))
        self._place()

    def set_text(self, text: str) -> None:
        """Show ``text`` (``""``: hidden, the plot has its data)."""
        if text != self.toPlainText():
            self.setPlainText(text)
            option = self.document().defaultTextOption()
            option.setAlignment(QtCore.Qt.AlignmentFlag.AlignHCenter)
            self.document().setDefaultTextOption(option)
        self.setVisible(bool(text))
        self._place()

    def _place(self) -> None:
        """Centred in the view box, wrapped to its width less a margin."""
        rect = self.view.boundingRect()
        self.setTextWidth(max(40.0, rect.width() - 16.0))
        size = self.boundingRect().size()
        self.setPos(rect.center().x() - size.width() / 2, rect.center().y() - size.height() / 2)


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
        self.run_text = ""  # the status line's text for the run, less "(paused)"
        self.field_tips: dict[QtWidgets.QWidget, str] = {}  # their own, while locked
        self.curves: dict[str, dict[str, Any]] = {}
        self.results: dict[str, dict[str, Any]] = {}
        self.learned_table: np.ndarray | None = None
        self.attention_map: np.ndarray | None = None  # (L, L): query × key
        self.use_table = use_table
        self.table_folder = Path(tempfile.gettempdir()) / "pe-studio-trained"
        self._build_controls()
        self._build_plots()
        layout = QtWidgets.QHBoxLayout(self)
        layout.addWidget(self.controls_scroll)
        layout.addWidget(self.plot_scroll, 1)
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
        # (the column's widths follow the UI scale: apply_theme)
        # The column scrolls where its fields are taller than the window: at 200 % in
        # the lab's 1400 x 850 the results summary was squeezed to half its height,
        # four of six methods' accuracies cut off.
        self.controls_scroll = QtWidgets.QScrollArea(self)
        self.controls_scroll.setObjectName("train-controls-scroll")
        self.controls_scroll.setWidgetResizable(True)
        self.controls_scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.controls_scroll.setHorizontalScrollBarPolicy(
            QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff
        )
        self.controls_scroll.setWidget(self.controls)
        # A label's new text (the status, the summary) laid the column out again at its
        # old size: the summary kept the height of its last text (408 px of 612 for six
        # methods at 200 %). Re-sized once the texts of an event have changed.
        self._controls_timer = QtCore.QTimer(self)
        self._controls_timer.setSingleShot(True)
        self._controls_timer.setInterval(0)
        self._controls_timer.timeout.connect(self.controls.adjustSize)
        self.controls.installEventFilter(self)

    def _spin(self, lo: int, hi: int, value: int, name: str) -> QtWidgets.QSpinBox:
        box = QtWidgets.QSpinBox(self.controls)
        box.setRange(lo, hi)
        box.setValue(value)
        box.setObjectName(name)
        return box

    def _build_plots(self) -> None:
        """Six plots drawn as the views draw theirs (:class:`PanelPlot` of the panels of
        :mod:`core.training.panels`), each empty until its data arrives."""
        # the plots scroll, as a view's do, where their rows at a legible height are
        # taller than the window (:meth:`_fit_rows`)
        self.plot_scroll = QtWidgets.QScrollArea(self)
        self.plot_scroll.setObjectName("train-plots-scroll")
        self.plot_scroll.setWidgetResizable(True)
        self.plot_scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.plot_scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.plots = pg.GraphicsLayoutWidget(self.plot_scroll)
        self.plot_scroll.setWidget(self.plots)
        self._fit_timer = QtCore.QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(0)
        self._fit_timer.timeout.connect(self._fit_rows)
        self.plot_scroll.viewport().installEventFilter(self)
        self.panel_plots: dict[str, PanelPlot] = {}
        self.panels: dict[str, Panel] = {}
        self.notes: dict[str, EmptyNote] = {}
        self.markers: dict[str, list[pg.PlotDataItem]] = {}  # symbols over some curves
        self.styled_theme: Theme | None = None
        for key in KEYS:
            row, col = PLACES[key]
            item = self.plots.addPlot(
                row=row, col=col, axisItems=make_axes(), viewBox=PlotViewBox()
            )
            hide_spare_axes(item)
            self.panel_plots[key] = PanelPlot(item)
            self.notes[key] = EmptyNote(item.getViewBox())
        self.loss_plot = self.panel_plots["loss"].plot
        self.acc_plot = self.panel_plots["accuracy"].plot
        self.extra_plot = self.panel_plots["extrapolation"].plot
        self.sim_plot = self.panel_plots["similarity"].plot
        self.attn_plot = self.panel_plots["attention"].plot
        self.rope_plot = self.panel_plots["rope"].plot
        # accuracy on its full scale (the extrapolation plot's x range: set by start)
        self.acc_plot.setYRange(0.0, 1.0, padding=0.02)
        self.lengths: tuple[int, int] | None = None  # the extrapolation plot's x range
        self.extra_plot.getViewBox().sigResized.connect(lambda _view: self._fit_marker_room())
        self.train_len_line = pg.InfiniteLine(angle=90)
        self.train_len_line.setToolTip("training length")
        self.apply_theme()

    def apply_theme(self) -> None:
        """Draw the plots in the current theme and UI scale (colours, fonts, lines):
        each plot is re-styled where it is (:meth:`PanelPlot.show`)."""
        theme = self.styled_theme = current_theme()
        # the controls' column as wide and its list as tall as at 100 %, times the UI
        # scale: at 200 % a fixed 340 px cut "Training length" and the methods' names
        self.controls.setMaximumWidth(theme.scaled(340))
        self.methods.setMaximumHeight(theme.scaled(150))
        bar = self.controls_scroll.verticalScrollBar().sizeHint().width()  # room for it
        self.controls.adjustSize()
        self.controls_scroll.setMinimumWidth(
            min(self.controls.sizeHint().width(), theme.scaled(340)) + bar
        )
        self.controls_scroll.setMaximumWidth(theme.scaled(340) + bar)
        self.plots.setBackground(theme.background)
        self.train_len_line.setPen(
            pg.mkPen(theme.foreground, width=theme.line_width / 2, style=DASH)
        )
        for key in KEYS:
            self.notes[key].set_theme(theme)
            self._draw(key, self.panels.get(key) or empty_panel(key), markers=True)
        self._fit_marker_room()
        self._fit_timer.start()  # (the fonts' sizes changed: titles and legends wrap anew)

    def _fit_rows(self) -> None:
        """Give each row of plots at least the smallest legible plot's height
        (:func:`~gui.widgets.grid_flow.min_panel_size`) plus the room its plots' wrapped
        titles and legends take, as a view's grid does; the plots scroll where the rows
        are taller than the window. Squeezed into a 1280 x 720 window at 200 %, the
        extrapolation plot (the lab's result) and the RoPE frequencies had no data
        area left, and at 150 % 27 px."""
        theme = current_theme()
        least = min_panel_size(theme.ui_scale)[1]
        layout = self.plots.ci.layout
        need: dict[int, float] = {}
        for key, plot in self.panel_plots.items():
            row, _col = PLACES[key]
            width = plot.plot.width()
            room = plot.title_room(width) + plot.legend_room(LEGEND_SHARE * width)
            need[row] = max(need.get(row, 0.0), float(math.ceil(least + room)))
        for row, height in need.items():
            if layout.rowMinimumHeight(row) != height:  # (setting re-lays out)
                layout.setRowMinimumHeight(row, height)
        _left, top, _right, bottom = layout.getContentsMargins()
        spacing = max(layout.verticalSpacing(), 0.0) * (len(need) - 1)
        total = int(sum(need.values()) + spacing + top + bottom) + 2 * self.plots.frameWidth()
        if self.plots.minimumHeight() != total:
            self.plots.setMinimumHeight(total)
        self._settle()

    def _fit_marker_room(self) -> None:
        """Pad the extrapolation plot's ranges (accuracy 0 to 1, the evaluation lengths)
        in pixels: a fixed 6 % cut the learned method's rings at 100 % accuracy in half
        at the top of a ~100 px high plot (the lab at 1400 x 850, 150 %)."""
        view = self.extra_plot.getViewBox()
        theme = current_theme()
        reach = theme.scaled(MARKER_PX) / 2 + theme.line_width / 2
        self.extra_plot.setYRange(0.0, 1.0, padding=marker_padding(reach, view.height()))
        if self.lengths is not None:
            x_pad = marker_padding(reach, view.width())
            self.extra_plot.setXRange(*self.lengths, padding=x_pad)

    @QtCore.Slot()
    def restyle_if_shown(self) -> None:
        """The app's theme or UI scale changed: re-style now if shown (else when shown)."""
        if self.isVisible() and self.styled_theme != current_theme():
            self.apply_theme()

    def _draw(self, key: str, panel: Panel, *, markers: bool = False) -> None:
        """Show ``panel`` in plot ``key``; the plot's extra items (the training length's
        line, symbols) go back in when the plot made its items anew, and are drawn
        anew with ``markers`` (new results, another theme). A curve that grows only
        swaps its arrays (:meth:`PanelPlot.show`): cheap on every progress message."""
        plot = self.panel_plots[key]
        rebuilds = plot.rebuilds
        self.panels[key] = panel
        plot.show(panel)
        empty = is_empty(panel)
        self.notes[key].set_text(panel.note if empty else "")
        if plot.grid is not None:  # an empty plot: its note alone, no grid of nothing
            plot.grid.setVisible(not empty)
        if plot.rebuilds != rebuilds and key == "extrapolation" and not empty:
            plot.plot.addItem(self.train_len_line)  # (a rebuild cleared the plot)
        if markers or plot.rebuilds != rebuilds:
            self._draw_markers(key, panel)
            self._fit_timer.start()  # (a new title or legend: its row's room)
        self._settle()

    def _settle(self) -> None:
        """Size every axis for its tick labels and lay the plots out now, as a view's
        canvas does before it paints (:mod:`gui.render.settle`): pyqtgraph learns how
        high a bottom axis' labels are only while painting it, so a plot scrolled out
        of sight kept the room of a new axis (18 px of text) and, scrolled to, was
        painted with its axis title over its tick labels (the attention map and the
        RoPE frequencies at 200 %: 4 px) until the next layout pass."""
        settle(targets(self.plots.ci), lambda: before_layout(self.plots))

    def _draw_markers(self, key: str, panel: Panel) -> None:
        """Symbols on the points of the extrapolation and RoPE curves (few points: each
        a measured value), in the theme's sizes; the learned curve's hollow rings stay
        visible under the others. Not in the legend."""
        plot = self.panel_plots[key].plot
        for item in self.markers.pop(key, []):
            if item.scene() is not None:
                plot.removeItem(item)
        if key not in ("extrapolation", "rope") or is_empty(panel):
            return
        theme = current_theme()
        items = []
        for s in panel.series:
            pe = METHOD_OF_COLOR.get(s.color if s.color is not None else -1, "rope")
            color = series_color(METHOD_COLOR[pe], theme)
            hollow = pe == "learned"
            item = pg.PlotDataItem(
                np.asarray(s.x, float),
                np.asarray(s.y, float),
                pen=None,
                symbol=SYMBOLS[pe] if key == "extrapolation" else "o",
                symbolSize=theme.scaled(MARKER_PX if hollow else 9),
                symbolPen=pg.mkPen(color, width=theme.line_width),
                symbolBrush=None if hollow else color,
            )
            plot.addItem(item)  # (log mode from the plot, no name: no legend entry)
            items.append(item)
        self.markers[key] = items

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
        self.set_lengths(configs[0].train_len, configs[0].lengths())
        context = multiprocessing.get_context("spawn")
        self.control = TrainControl(context.Event(), context.Event())
        self.control.resume()
        self.thread_ = QtCore.QThread()  # (no parent: it may outlive the page, end_runs)
        self.worker = TrainWorker(configs, self.control, context)
        keep_run(self.thread_, self.worker)
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
        self._lock_settings(True)
        self._run_status("starting torch…")
        self.thread_.start()

    def settings_fields(self) -> list[QtWidgets.QWidget]:
        """The fields a run is configured by (methods, task, steps … heads)."""
        return [
            self.methods,
            self.task,
            self.steps,
            self.train_len,
            self.seed,
            self.d_model,
            self.layers,
            self.heads,
        ]

    def _lock_settings(self, locked: bool) -> None:
        """Lock the settings' fields while a run trains (greyed, with a tooltip that
        says why): a seed changed from 0 to 7 mid-run showed 7 beside results trained
        with 0, the change silently kept for the next run."""
        for field in self.settings_fields():
            field.setEnabled(not locked)
            if locked:
                self.field_tips.setdefault(field, field.toolTip())
                field.setToolTip(LOCKED_TIP)
            elif field in self.field_tips:
                field.setToolTip(self.field_tips.pop(field))

    def set_lengths(self, train_len: int, lengths: Sequence[int]) -> None:
        """The extrapolation plot spans the evaluation ``lengths`` (0.5×–4×) from the
        start, with a dashed line at the training length."""
        self.train_len_line.setValue(train_len)
        self.lengths = (min(lengths), max(lengths))
        self._fit_marker_room()

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
        if not self.control.cancelled:  # ("cancelling…" stays)
            self._run_status(self.run_text)

    def _run_status(self, text: str) -> None:
        """Show ``text`` (what the run is doing) in the status line, with "(paused)"
        while the run is paused: a pause showed only on its button (Resume), the status
        kept "learned on cpu: step 20 …" as if it still ran (no progress comes then)."""
        self.run_text = text
        paused = self.control is not None and self.control.paused
        self.status.setText(text + ("  (paused)" if paused else ""))

    def cancel(self) -> None:
        """Stop before the next step (the current method is not evaluated)."""
        if self.control is not None:
            self.control.cancel()
            self.status.setText("cancelling…")

    def _clear(self) -> None:
        self.curves.clear()
        self.results.clear()
        self.summary.setText("")
        self.learned_table = None
        self.use_button.setEnabled(False)
        self.attention_map = None
        self.attn_method.clear()
        for key in KEYS:
            self._draw(key, empty_panel(key))

    # ------------------------------------------------------------------ worker signals
    @QtCore.Slot(str)
    def _on_device(self, label: str) -> None:
        self.device = label
        self._run_status(f"training on {label}")

    @QtCore.Slot(str, object, object, object)
    def _on_progress(
        self, pe: str, steps: list[int], losses: list[float], accs: list[float]
    ) -> None:
        c = self.curves.setdefault(pe, {"steps": [], "loss": [], "acc": []})
        c["steps"] += steps
        c["loss"] += [max(v, 1e-6) for v in losses]
        c["acc"] += accs
        for key in ("loss", "accuracy"):  # (same curves, longer: their arrays swapped)
            self._draw(key, training_panel(key, self.curves))
        self._run_status(
            f"{PE_LABELS[pe]} on {getattr(self, 'device', '?')}: step {steps[-1]}  "
            f"loss {losses[-1]:.4f}  acc {accs[-1]:.3f}"
        )

    @QtCore.Slot(object)
    def _on_method_done(self, res: dict[str, Any]) -> None:
        pe = res["pe"]
        self.results[pe] = res
        if res["cancelled"]:
            return
        self._draw("extrapolation", extrapolation_panel(self.results.values()), markers=True)
        if res["table"] is not None:
            self.learned_table = res["table"]
            self._draw("similarity", similarity_panel(res["table"]))
            self.use_button.setEnabled(self.use_table is not None)
        if res.get("attention") is not None:
            self.attn_method.addItem(PE_LABELS[pe], pe)
            self.attn_method.setCurrentIndex(self.attn_method.count() - 1)  # the latest
        if res.get("rope_freq") is not None:
            self._draw("rope", rope_panel(res["rope_freq"]), markers=True)
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
        self._draw("attention", attention_panel(self.attention_map, pe))

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
        if self.thread_ is not None:
            self.thread_.wait()  # (finished is sent just before it ends: at once)
            _RUNS.pop(self.thread_, None)
        self.thread_ = None
        self.worker = None
        self._run_ended()
        self._lock_settings(False)
        self.start_button.setEnabled(torch_installed())

    def shutdown(self) -> None:
        """Cancel a run without waiting for it (the window or the app is closing).

        The subprocess stops before its next step; one that does not within
        :data:`ABORT_AFTER_MS` (e.g. mid-evaluation) is terminated by its worker. The
        GUI never waits: closing the lab mid-run froze it 1.8–3 s (``wait(3000)`` on
        the GUI thread). The thread ends in the background (the page shows
        "cancelled" when it has, Start comes back); the app waits for what is left
        of it only when it quits (:func:`end_runs`).
        """
        if self.control is not None:
            self.control.cancel()
        worker = self.worker
        if self.thread_ is not None and worker is not None:
            self.status.setText("cancelling…")
            QtCore.QTimer.singleShot(ABORT_AFTER_MS, self, lambda: worker.abort())

    def eventFilter(self, watched: QtCore.QObject, event: QtCore.QEvent) -> bool:
        """End a run when the main window (the parent) has closed; fit the plots' rows to
        their scroll area's new width (after it was resized); size the controls' column
        anew when a field or text in it changed its size.

        The window's close is known by the hide that follows an accepted close (not by
        the Close event, which this filter, installed last, saw before the deck's
        unsaved-changes question could cancel it). Nothing in the app hides the window
        otherwise; a spontaneous hide (minimised by the window manager) ends nothing.
        """
        if (
            watched is self.parent()
            and event.type() == QtCore.QEvent.Type.Hide
            and not event.spontaneous()
        ):
            self.shutdown()
            self.close()
        elif watched is self.plot_scroll.viewport() and event.type() == QtCore.QEvent.Type.Resize:
            self._fit_timer.start()
        elif watched is self.controls and event.type() == QtCore.QEvent.Type.LayoutRequest:
            self._controls_timer.start()
        return False

    def showEvent(self, event: QtGui.QShowEvent) -> None:
        """A theme or UI scale changed while the lab was hidden: drawn in it now."""
        if self.styled_theme != current_theme():
            self.apply_theme()
        super().showEvent(event)

    def closeEvent(self, event: QtGui.QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)


def install_train_lab(
    window: Any,
    use_table: Callable[[str], None] | None = None,
    theme_applied: QtCore.SignalInstance | None = None,
) -> QtGui.QAction:
    """Add View → Training lab… to ``window``; the page is kept as ``window.train_page``.

    ``window`` needs ``menu`` and ``add_action`` (see ``gui.window.protocol``);
    ``use_table(path)`` receives a saved learned table ("Use in Learned view");
    ``theme_applied`` is emitted after the app's theme or UI scale changed (the lecture
    display's ``applied``: F5, Ctrl+=, Ctrl+T): an open lab re-styles its plots then.
    """

    def show_page() -> None:
        page = getattr(window, "train_page", None)
        if page is None:
            page = TrainPage(window, use_table)
            window.train_page = page
            window.installEventFilter(page)  # the main window closed ends a run
            if theme_applied is not None:
                theme_applied.connect(page.restyle_if_shown)
        page.show()
        if QtGui.QGuiApplication.platformName() != "offscreen":  # it cannot raise windows
            page.raise_()
            page.activateWindow()

    action: QtGui.QAction = window.add_action(
        window.menu("view"), "&Training lab…", "Ctrl+Shift+L", show_page, "action-train-lab"
    )
    return action
