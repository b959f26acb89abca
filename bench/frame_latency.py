"""Frame-latency benchmark of Positional Encoding Studio (headless, offscreen Qt).

What it measures
----------------
``frame``
    For every view (:data:`core.views.VIEW_IDS`) at *lecture* size (seq_len 512,
    d_model 512, heads 8, head_dim 64) and *large* size (seq_len 16384, d_model 4096,
    heads 32, head_dim 128) — only the parameters a view has, clamped to the view's
    own maximum (noted as ``clamped``) — a realistic slider drag of one parameter
    (``seq_len``; ``m`` for RoPE; ``base`` for the permutation view) through ≥ 50
    distinct values via ``window.states[view].set_param``.

    * Sequential phase: each change waits until the drawn ``ViewData`` has exactly
      the new parameters **and** the plot canvas has been painted (posted events
      flushed: Qt's update request paints what changed, as on screen; a paint-event
      counter confirms the canvas paint, else it is repainted and counted in
      ``forced_paints``); latency = change → painted. Median and p95, plus medians of
      the parts: ``compute_ms`` (worker thread), ``draw_ms`` (``ViewWidget.show_data``
      on the GUI thread) and ``paint_ms`` (the paint), and ``gui_cpu_ms``: the GUI
      thread's CPU time from change to painted frame (against the latency it tells a
      slow machine, more CPU time, from waiting on the worker or on Qt's drawing
      threads). No heartbeat runs meanwhile (the app has none): its 1 ms timer woke
      the GUI thread ~8 times a frame, each wake a Python call that took the GIL from
      the worker (paired runs of five stage cases: 0.1-0.6 ms a frame, median 0.23;
      one pair of ten went the other way). The GUI thread's stall is the drag phase's.
    * Drag phase: the same values are fed by a 16 ms ``QTimer`` (a 60 Hz mouse) while
      a 1 ms heartbeat ``QTimer`` records the longest gap between ticks
      (``max_stall_ms``: the longest time the GUI thread could not react). Also
      ``last_frame_ms``: last change → painted frame that shows it.
    * ``peak_rss_mb``: ``ru_maxrss`` of a fresh subprocess per (view, size), read
      before matplotlib is imported.
    * ``matplotlib_median_ms``: the same ``ViewData`` panels redrawn with matplotlib
      (Agg, same pixel size): curves via ``set_data``, heatmaps via ``set_data`` +
      ``set_clim``, then ``fig.canvas.draw()``. Compute is *not* included on the
      matplotlib side (it is on ours), so the ratio is conservative. For the
      sinusoidal view also ``matplotlib_course_median_ms``: the course figure
      (6 curves + the 512×512 PE heatmap).
``presentation``
    The lecture-size cases again on the stage: a 1920×1080 window in presentation mode
    (menu, docks and status bar hidden, explanation hidden) at 150 % and 200 % UI scale,
    where curves are 3 and 4 px wide and text is larger. Sequential phase (median, p95,
    compute/draw/paint), the drag phase's stall, and the matplotlib comparison: the same
    frames redrawn at the canvas' pixel size (all of it; the stage paints what is in
    sight) with text, lines and markers as much larger as the UI scale. Where the
    dragged parameter changes nothing in sight at the top of the stage (word order's
    ``base`` at 200 %), the stage is scrolled to its end first (``scrolled``).
``probe_ms``, ``probe_after_ms``
    Each ``frame`` and ``presentation`` case also times a fixed workload in its own
    process just before and just after its sequential phase (:func:`speed_probe`:
    Python calls, numpy arrays and a raster paint, much as a frame's mix). They say how
    fast the machine was then: a 2-core VM's speed changes by up to ~1.6× for spells of
    a few seconds (the probe alone, on an otherwise idle machine: mostly 3.5-3.8 ms,
    now and then 5-6 ms for a few seconds), so a case whose two probes differ ran
    partly in a slower spell; two alike say little about the time between them. The
    targets do not use them; the report prints them beside each case.
``scaling``
    Frame time (sequential phase) of sinusoidal, alibi, rope and relative at
    seq_len ∈ {64, 256, 1024, 4096, 16384} (sizes above a view's maximum are skipped),
    with the heartbeat running: its ``max_stall_ms`` is the GUI thread's longest stall
    (the growth between sizes is what is checked, both with the heartbeat's wakes).
``cold_start``
    ``PE_STUDIO_SELFTEST=1 python main.py``: ``first-frame-ms`` printed by the app
    (from the start of ``main.py``), launch → that line, and the subprocess wall time;
    ``torch_on_startup`` from ``python -X importtime``.

Usage
-----
``python bench/frame_latency.py [--quick|--smoke] [--only lecture|presentation] [--json PATH]``.
``--quick`` is a smoke run (few changes, lecture size + one large view, the stage for one
view, all in one worker process: its peak RSS is that process's, not one case's; < 30 s);
``--smoke`` is ``--quick`` with two timed changes and one matplotlib draw per case (without
constrained layout), the lecture size for ``SMOKE_LECTURE_VIEWS`` only, the stage at
``SMOKE_STAGE_SCALES`` only, and one start-up
for the cold start (timed under ``-X importtime``), the least that still gives every
figure and draws every kind of panel (the test suite's check that the benchmark runs);
``--only lecture`` measures the lecture-size cases only, windowed and on
the stage (a before/after comparison in a few minutes). Targets are printed as PASS/MISS,
never asserted: the script exits 0 unless it crashes.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ.setdefault("PE_STUDIO_NO_SETTINGS", "1")

SIZES: dict[str, dict[str, int]] = {
    "lecture": {"seq_len": 512, "d_model": 512, "heads": 8, "head_dim": 64, "max_positions": 512},
    "large": {
        "seq_len": 16384,
        "d_model": 4096,
        "heads": 32,
        "head_dim": 128,
        "max_positions": 16384,
    },
}
SWEEP_VIEWS = ("sinusoidal", "alibi", "rope", "relative")
SWEEP_SIZES = (64, 256, 1024, 4096, 16384)
DRAG_INTERVAL_MS = 16
WINDOW_SIZE = (1600, 1000)
STAGE_SIZE = (1920, 1080)  # presentation mode's full-screen stage
STAGE_SCALES = (1.5, 2.0)
QUICK_LARGE_VIEWS = ("alibi",)  # --quick's (and --smoke's) large-size case
# --smoke's lecture-size views: with the large case's view they draw every kind of panel
# that the matplotlib reference redraws (tests/test_bench_smoke.py checks it); sinusoidal
# also times the course figure, and is the stage's and the sweep's view
SMOKE_LECTURE_VIEWS = ("sinusoidal", "rope", "compare")
# --smoke's stage: one scale (the larger; both run the same code), not STAGE_SCALES
SMOKE_STAGE_SCALES = (2.0,)
RESULT_PREFIX = "BENCH-RESULT "

# Targets (2-core CPU, offscreen).
LECTURE_MEDIAN_MS, LECTURE_P95_MS, MPL_RATIO = 8.0, 16.7, 10.0
LARGE_STALL_MS, LARGE_LAST_FRAME_MS, LARGE_RSS_MB, SCALING_GROWTH = 50.0, 300.0, 1024.0, 2.0
COLD_START_MS = 1500.0


# ---------------------------------------------------------------------------- helpers
def percentile(values: Sequence[float], q: float) -> float:
    """``q``-th percentile (0..100) with linear interpolation; NaN for no values."""
    if not values:
        return math.nan
    xs = sorted(values)
    k = (len(xs) - 1) * q / 100.0
    lo, hi = math.floor(k), math.ceil(k)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def median(values: Sequence[float]) -> float:
    """Median, NaN for no values."""
    return statistics.median(values) if values else math.nan


def peak_rss_mb() -> float:
    """Peak resident set size of this process in MiB (``ru_maxrss`` is KiB on Linux)."""
    kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kib / 1024.0 if sys.platform != "darwin" else kib / 2**20


def size_params(view_id: str, size: dict[str, int]) -> tuple[dict[str, Any], list[str]]:
    """Defaults of ``view_id`` with the size parameters it has, clamped to its range.

    Returns
    -------
    (params, clamped)
        Validated parameters and the names of parameters clamped to the view's maximum.
    """
    from core.views import get_view

    model = get_view(view_id).model
    params = model.defaults()
    clamped = []
    for name, value in size.items():
        if name not in params:
            continue
        p = model[name]
        if p.maximum is not None and value > p.maximum:
            value = int(p.maximum)
            clamped.append(name)
        params[name] = value
    if "max_positions" in params and "seq_len" in params:  # learned: table covers the drag
        params["seq_len"] = min(params["seq_len"], params["max_positions"])
    return model.validate(params), clamped


def drag_plan(view_id: str, params: dict[str, Any], n: int) -> tuple[str, list[Any]]:
    """The dragged parameter and ``n`` distinct values, ending at the current size."""
    from core.views import get_view

    model = get_view(view_id).model
    if "seq_len" in params and view_id not in ("rope", "clock"):
        top = int(params["seq_len"])
        lo = max(int(model["seq_len"].minimum or 1), int(top * 0.75), top - 4 * n)
        values = sorted({int(round(v)) for v in _linspace(lo, top, n)})
        while len(values) < n and values[0] > 1:  # small sizes: extend downwards
            values.insert(0, values[0] - 1)
        return "seq_len", values
    if view_id in ("rope", "clock"):  # the query position turns the hands (the clock's
        # seq_len only moves dynamic NTK's base: with the default scaling it draws nothing)
        top = max(int(params.get("seq_len", 256)), n)
        return "m", [int(round(v)) for v in _linspace(1, top, n)]
    return "base", [float(round(v, 3)) for v in _geomspace(1000.0, 10000.0, n)]


def _linspace(a: float, b: float, n: int) -> list[float]:
    return [a + (b - a) * i / max(n - 1, 1) for i in range(n)]


def _geomspace(a: float, b: float, n: int) -> list[float]:
    return [a * (b / a) ** (i / max(n - 1, 1)) for i in range(n)]


# ---------------------------------------------------------------------------- matplotlib
class MplFigure:
    """The panels of a ``ViewData`` drawn with matplotlib (Agg), updated in place.

    Parameters
    ----------
    data
        First ``ViewData`` (defines the layout).
    width_px, height_px
        Figure size in pixels (the pyqtgraph canvas size).
    panel_keys
        Only these panels (``None``: all).
    """

    CMAPS = {"diverging": "RdBu_r", "sequential": "viridis", "categorical": "tab10"}

    def __init__(
        self,
        data: Any,
        width_px: int,
        height_px: int,
        panel_keys: Sequence[str] | None = None,
        warm: bool = True,
        layout: str | None = "constrained",
        scale: float = 1.0,
    ) -> None:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        self.scale = scale  # text sizes and line widths (the stage's UI scale)
        self.keys = [p.key for p in data.panels if panel_keys is None or p.key in panel_keys]
        panels = [data.panel(k) for k in self.keys]
        self.fig = Figure(figsize=(width_px / 100, height_px / 100), dpi=100, layout=layout)
        FigureCanvasAgg(self.fig)
        if panel_keys is not None:  # course figure: side by side
            grid = [(0, i, 1, 1) for i in range(len(panels))]
            rows, cols = 1, len(panels)
        else:
            grid = [(p.row, p.col, p.row_span, p.col_span) for p in panels]
            rows = max(r + rs for r, _c, rs, _cs in grid)
            cols = max(c + cs for _r, c, _rs, cs in grid)
        gs = self.fig.add_gridspec(rows, cols)
        self.artists: dict[str, Any] = {}
        self.axes: dict[str, Any] = {}
        for p, (r, c, rs, cs) in zip(panels, grid, strict=True):
            ax = self.fig.add_subplot(gs[r : r + rs, c : c + cs])
            self.axes[p.key] = ax
            ax.set_title(p.title, fontsize=9 * scale)
            ax.set_xlabel(p.x_label, fontsize=8 * scale)
            ax.set_ylabel(p.y_label, fontsize=8 * scale)
            ax.tick_params(labelsize=7 * scale, width=0.8 * scale, length=3.5 * scale)
            self.artists[p.key] = self._build(ax, p)
        if warm:  # the first draw lays the figure out: not a redraw
            self.fig.canvas.draw()

    def _build(self, ax: Any, p: Any) -> Any:
        import numpy as np

        from gui.plotting.plot_data import color_levels, display_image

        if p.kind == "curves":
            lines = []
            lw = 1.5 * self.scale
            for s in p.series:
                style = {
                    "scatter": dict(ls="none", marker="o", ms=3 * self.scale),
                    "dashed": dict(ls="--"),
                    "step": dict(drawstyle="steps-mid"),
                }
                lines.append(ax.plot(s.x, s.y, label=s.name, lw=lw, **style.get(s.style, {}))[0])
            if p.log_x:
                ax.set_xscale("log")
            if p.log_y:
                ax.set_yscale("log")
            if len(p.series) > 1:
                ax.legend(fontsize=7 * self.scale, ncols=min(3, len(p.series)))
            return lines
        if p.kind == "heatmap" and p.image is not None:
            img = display_image(p.image)
            lo, hi = color_levels(p, img)
            im = ax.imshow(
                img,
                aspect="auto",
                cmap=self.CMAPS.get(p.colormap, "viridis"),
                vmin=lo,
                vmax=hi,
                interpolation="nearest",
            )
            if p.colorbar:
                self.fig.colorbar(im, ax=ax).ax.tick_params(labelsize=7 * self.scale)
            return im
        if p.kind == "bars" and p.series:
            return ax.bar(p.series[0].x, p.series[0].y)
        if p.kind == "arrows":
            return [ax.plot([0, a.x], [0, a.y], lw=1.5 * self.scale)[0] for a in p.arrows]
        if p.kind == "table":
            ax.axis("off")
            return ax.text(
                0, 1, self._table_text(p), va="top", family="monospace", fontsize=7 * self.scale
            )
        return np.zeros(0)

    @staticmethod
    def _table_text(p: Any) -> str:
        return "\n".join("  ".join(map(str, row)) for row in [p.header, *p.rows])

    def update(self, data: Any) -> None:
        """Swap in the arrays of ``data`` and redraw the whole figure."""
        from gui.plotting.plot_data import color_levels, display_image

        for key in self.keys:
            p, art, ax = data.panel(key), self.artists[key], self.axes[key]
            if p.kind == "curves":
                for line, s in zip(art, p.series, strict=False):
                    line.set_data(s.x, s.y)
                ax.relim()
                ax.autoscale_view()
            elif p.kind == "heatmap" and p.image is not None:
                img = display_image(p.image)
                art.set_data(img)
                art.set_clim(*color_levels(p, img))
                art.set_extent((-0.5, img.shape[1] - 0.5, img.shape[0] - 0.5, -0.5))
            elif p.kind == "bars" and p.series:
                for rect, h in zip(art, p.series[0].y, strict=False):
                    rect.set_height(h)
            elif p.kind == "arrows":
                for line, a in zip(art, p.arrows, strict=False):
                    line.set_data([0, a.x], [0, a.y])
            elif p.kind == "table":
                art.set_text(self._table_text(p))
        self.fig.canvas.draw()


def time_matplotlib(
    datas: Sequence[Any],
    width_px: int,
    height_px: int,
    panel_keys: Sequence[str] | None = None,
    layout: str | None = "constrained",
    scale: float = 1.0,
) -> float:
    """Median ms of a matplotlib redraw of each ``ViewData`` in ``datas`` after the first
    (one ``ViewData``: its first draw, layout included, timed; for ``--smoke``).
    ``layout``: the figure's layout engine (``None``: none, for ``--smoke``); ``scale``:
    text sizes and line widths times this (the stage's UI scale)."""
    fig = MplFigure(
        datas[0], width_px, height_px, panel_keys, warm=len(datas) > 1, layout=layout, scale=scale
    )
    times = []
    for data in datas[1:] or datas:
        t0 = time.perf_counter()
        fig.update(data)
        times.append((time.perf_counter() - t0) * 1e3)
    return median(times)


# ---------------------------------------------------------------------------- Qt harness
_PROBE: dict[str, Any] = {}  # speed_probe's picture, screen and arrays, made once


def speed_probe(repeats: int = 7) -> float:
    """Median ms of a fixed workload, much as a stage frame's mix: Python calls and
    dicts; numpy over a few hundred thousand cells (a heatmap's colours); a 1920 × 1080
    raster paint of an enlarged picture, lines and text (needs a ``QGuiApplication``).
    Lower is faster; only comparable on one machine. Its memory is allocated once per
    process and written once before the timed repeats: a fresh 8 MB screen's page
    faults made a process's first probe read ~5 ms where the next read ~3.8."""
    import numpy as np
    from PySide6 import QtCore, QtGui

    work = _PROBE
    if not work:
        rng = np.random.default_rng(0)
        work["screen"] = QtGui.QImage(1920, 1080, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
        work["values"] = rng.standard_normal((460, 900)).astype(np.float32)
        work["scaled"] = np.empty((460, 900), np.float32)
        work["index"] = np.empty((460, 900), np.intp)
        work["pixels"] = np.empty((460, 900), np.uint32)
        work["table"] = np.arange(256, dtype=np.uint32) | np.uint32(0xFF000000)
        xs = np.linspace(0.0, 1800.0, 400)
        work["polygon"] = QtGui.QPolygonF([QtCore.QPointF(x, 500.0) for x in xs])
    screen, values, scaled = work["screen"], work["values"], work["scaled"]
    index, pixels, table, polygon = work["index"], work["pixels"], work["table"], work["polygon"]
    picture = QtGui.QImage(pixels.data, 900, 460, 900 * 4, screen.format())
    times = []
    for _ in range(repeats + 2):  # (the first two warm it up: not timed)
        t0 = time.perf_counter()
        found: dict[tuple[int, int], float] = {}
        for i in range(4000):
            found[(i, i % 7)] = math.sin(i) + len(str(i))
        np.multiply(np.add(values, 3.0, out=scaled), 256 / 6.0, out=scaled)
        np.clip(scaled, 0, 255, out=scaled)
        index[...] = scaled
        table.take(index, out=pixels)
        screen.fill(0xFFFFFFFF)
        painter = QtGui.QPainter(screen)
        painter.drawImage(QtCore.QRectF(60.0, 40.0, 1800.0, 920.0), picture)
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        painter.setPen(QtGui.QPen(QtGui.QColor(0, 114, 178), 3.0))
        for k in range(10):
            painter.drawPolyline(polygon.translated(0.0, 40.0 * k - 200.0))
            painter.drawText(QtCore.QPointF(10.0, 100.0 * k + 20.0), f"tick {k * 0.25:.2f}")
        painter.end()
        times.append((time.perf_counter() - t0) * 1e3)
    return median(times[2:])


class Heartbeat:
    """1 ms ``QTimer``: the longest gap between ticks is the longest GUI-thread stall."""

    def __init__(self) -> None:
        from PySide6 import QtCore

        self.timer = QtCore.QTimer()
        self.timer.setTimerType(QtCore.Qt.TimerType.PreciseTimer)
        self.timer.setInterval(1)
        self.timer.timeout.connect(self._tick)
        self.last = 0.0
        self.max_gap_ms = 0.0

    def _tick(self) -> None:
        now = time.perf_counter()
        self.max_gap_ms = max(self.max_gap_ms, (now - self.last) * 1e3)
        self.last = now

    def start(self) -> None:
        """Start (and reset) the heartbeat."""
        self.max_gap_ms = 0.0
        self.last = time.perf_counter()
        self.timer.start()

    def stop(self) -> float:
        """Stop; returns the longest gap in ms (including the tail up to now)."""
        self._tick()
        self.timer.stop()
        return self.max_gap_ms


def _paint_counter(harness: Any) -> Any:
    """An event filter counting paint events into ``harness.canvas_paints``."""
    from PySide6 import QtCore

    class PaintCounter(QtCore.QObject):
        def eventFilter(self, obj: Any, event: Any) -> bool:
            if event.type() == QtCore.QEvent.Type.Paint:
                harness.canvas_paints += 1
            return False

    return PaintCounter()


class Harness:
    """A shown :class:`gui.window.main_window.MainWindow` on one view, with timing hooks.

    Parameters
    ----------
    view_id
        The view to measure.
    """

    def __init__(self, view_id: str, stage_scale: float | None = None) -> None:
        from PySide6 import QtCore, QtWidgets

        import gui.window.engine
        from gui.app import build_window as MainWindow
        from gui.qt_app import ensure_app

        self.QtCore, self.QtWidgets = QtCore, QtWidgets
        self.app = ensure_app(headless=True)
        self.view_id = view_id
        self.window = MainWindow()
        self.window.resize(*WINDOW_SIZE)
        self.window.show()
        if stage_scale is not None:  # presentation mode on a 1920×1080 stage
            display = self.window.lecture.display
            display.enter_presentation(fullscreen=False)  # offscreen: no real screen
            display.set_scale(stage_scale)
            self.window.resize(*STAGE_SIZE)
        self.window.set_view(view_id)
        self.widget = self.window.views[view_id]
        self.state = self.window.states[view_id]
        self.compute_ms: list[float] = []
        self.draw_ms: list[float] = []
        self.paint_ms: list[float] = []
        self.gui_cpu_ms: list[float] = []  # the GUI thread's CPU time a change (sequential)
        self.drawn: list[Any] = []
        self.keep_drawn = 0
        self.errors: list[str] = []
        original = gui.window.engine.compute_view
        self._original_compute = original

        def timed_compute(view: str, params: Any, ctx: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return original(view, params, ctx)
            finally:
                self.compute_ms.append((time.perf_counter() - t0) * 1e3)

        gui.window.engine.compute_view = timed_compute  # the worker looks it up on each call
        show = self.widget.show_data

        def timed_show(data: Any, *args: Any, **kwargs: Any) -> None:
            t0 = time.perf_counter()
            show(data, *args, **kwargs)
            self.draw_ms.append((time.perf_counter() - t0) * 1e3)
            if len(self.drawn) < self.keep_drawn:
                self.drawn.append(data)

        self.widget.show_data = timed_show  # MainWindow._on_ready calls views[v].show_data
        self.window.engine.failed.connect(lambda _v, _g, msg: self.errors.append(msg))
        self.state.error.connect(self.errors.append)
        self.heartbeat = Heartbeat()
        # what _wait_drawn runs, made and connected once: its loop, the loop's
        # time-out, and what it waits to see (checked on each drawn or failed frame)
        self._expected: dict[str, Any] | None = None
        self._wait_loop = self.QtCore.QEventLoop()
        self._wait_timer = self.QtCore.QTimer()
        self._wait_timer.setSingleShot(True)
        self._wait_timer.timeout.connect(self._wait_loop.quit)
        self.widget.rendered.connect(self._check_drawn)
        self.window.engine.failed.connect(self._check_drawn)
        self.canvas_paints = 0  # paint events of the plot canvas (see paint())
        self.forced_paints = 0
        self._paint_counter = _paint_counter(self)
        self.widget.canvas.viewport().installEventFilter(self._paint_counter)

    def set_params(self, params: dict[str, Any], timeout_s: float = 120.0) -> None:
        """Apply ``params`` and wait until drawn."""
        self.state.set_values(params)
        if not self.window.wait_idle(timeout_s):
            raise RuntimeError(f"{self.view_id}: no frame within {timeout_s} s")
        self.paint()

    def paint(self) -> float:
        """Flush posted events until the plot canvas has been painted; ms.

        Posted events include Qt's update request, which paints everything that changed
        (the canvas, and the slider and spin box that moved) as on screen. A paint-event
        counter on the canvas confirms it; if Qt had not painted it, the canvas is
        repainted now (counted in ``forced_paints``).
        """
        t0 = time.perf_counter()
        before = self.canvas_paints
        self.QtCore.QCoreApplication.sendPostedEvents()
        if self.canvas_paints == before:
            self.forced_paints += 1
            self.widget.canvas.viewport().repaint()
        dt = (time.perf_counter() - t0) * 1e3
        self.paint_ms.append(dt)
        return dt

    def _wait_drawn(self, expected: dict[str, Any], timeout_s: float) -> bool:
        """Run the event loop until the widget shows ``expected`` (or an error).

        The loop, its time-out and the check on each drawn frame are made and
        connected once (``__init__``): connecting and disconnecting two slots and
        making a loop and a timer for each change cost ~0.2 ms of the timed change
        (measured on the clock's stage), none of it the app's.
        """
        if self._shows(expected):
            return True
        loop, timer = self._wait_loop, self._wait_timer
        if loop.isRunning():
            raise RuntimeError("_wait_drawn: already waiting (not re-entrant)")
        self._expected = expected
        timer.start(int(timeout_s * 1000))
        try:
            loop.exec()
        finally:
            timer.stop()
            self._expected = None
        return self._shows(expected)

    def _check_drawn(self, *_args: Any) -> None:
        """End :meth:`_wait_drawn`'s loop once the widget shows what it waits for (or
        its error banner)."""
        expected = self._expected
        if expected is not None and (self._shows(expected) or self.widget.banner.isVisible()):
            self._wait_loop.quit()

    def _shows(self, expected: dict[str, Any]) -> bool:
        data = self.widget.data
        return data is not None and data.params == expected

    def sequential(
        self,
        name: str,
        values: Sequence[Any],
        timeout_s: float = 120.0,
        *,
        heartbeat: bool = False,
    ) -> tuple[list[float], float | None]:
        """Change ``name`` through ``values``, each waiting for its painted frame.

        Returns
        -------
        (latencies_ms, max_stall_ms)
            ``max_stall_ms`` with ``heartbeat`` only (its timer's wakes are in the
            latencies then: :data:`__doc__`, sequential phase), else ``None``.
        """
        latencies = []
        if heartbeat:
            self.heartbeat.start()
        for v in values:
            if self.state.values.get(name) == v:  # not a change: nothing to draw
                continue
            t0, cpu0 = time.perf_counter(), time.thread_time()
            if not self.state.set_param(name, v):
                continue
            if not self._wait_drawn(self.state.values, timeout_s):
                raise RuntimeError(
                    f"{self.view_id}: {name}={v} not drawn ({'; '.join(self.errors[-1:])})"
                )
            self.paint()
            latencies.append((time.perf_counter() - t0) * 1e3)
            self.gui_cpu_ms.append((time.thread_time() - cpu0) * 1e3)
        return latencies, self.heartbeat.stop() if heartbeat else None

    def drag(
        self,
        name: str,
        values: Sequence[Any],
        interval_ms: int = DRAG_INTERVAL_MS,
        timeout_s: float = 120.0,
    ) -> dict[str, float]:
        """Feed ``values`` every ``interval_ms`` (a mouse drag) with normal painting.

        Returns
        -------
        dict
            ``max_stall_ms``, ``last_frame_ms`` (last change → painted), ``frames``
            (frames drawn while dragging; superseded results are not drawn).
        """
        frames = [0]
        count = lambda: frames.__setitem__(0, frames[0] + 1)  # noqa: E731
        self.widget.rendered.connect(count)
        pending = list(values)
        t_last = [0.0]
        loop = self.QtCore.QEventLoop()
        feeder = self.QtCore.QTimer()
        feeder.setTimerType(self.QtCore.Qt.TimerType.PreciseTimer)

        def feed() -> None:
            if not pending:
                feeder.stop()
                loop.quit()
                return
            self.state.set_param(name, pending.pop(0))
            t_last[0] = time.perf_counter()

        feeder.timeout.connect(feed)
        self.heartbeat.start()
        feeder.start(interval_ms)
        loop.exec()
        ok = self._wait_drawn(self.state.values, timeout_s)
        self.paint()
        last_frame = (time.perf_counter() - t_last[0]) * 1e3
        stall = self.heartbeat.stop()
        self.widget.rendered.disconnect(count)
        if not ok:
            raise RuntimeError(f"{self.view_id}: last drag value not drawn")
        return {"max_stall_ms": stall, "last_frame_ms": last_frame, "frames": frames[0]}

    def canvas_size(self) -> tuple[int, int]:
        """Pixel size of the pyqtgraph canvas."""
        return self.widget.canvas.width(), self.widget.canvas.height()

    def close(self) -> None:
        """Close the window (stops the engine); the next harness in this process times
        the engine's own compute, not this one's wrapper."""
        import gui.window.engine
        from gui.app import dispose_window

        dispose_window(self.window)  # now, not at the interpreter's exit (segfaults)
        gui.window.engine.compute_view = self._original_compute


def _frame_stats(h: Harness, lat: list[float]) -> dict[str, float]:
    n = len(lat)
    return {
        "median_ms": median(lat),
        "p95_ms": percentile(lat, 95),
        "changes": n,
        "compute_ms": median(h.compute_ms[-n:]),
        "draw_ms": median(h.draw_ms[-n:]),
        "paint_ms": median(h.paint_ms[-n:]),
        "gui_cpu_ms": median(h.gui_cpu_ms[-n:]),
        "forced_paints": h.forced_paints,
    }


def run_frame_case(
    view_id: str, size: str, changes: int, mpl_frames: int, mpl_layout: str | None = "constrained"
) -> dict[str, Any]:
    """Measure one (view, size) in this process; returns one ``frame`` record
    (``mpl_layout``: the matplotlib figure's layout engine, see :func:`time_matplotlib`)."""
    params, clamped = size_params(view_id, SIZES[size])
    h = Harness(view_id)
    h.set_params(params)
    name, values = drag_plan(view_id, params, changes + 1)  # values[0] is shown after warm-up
    h.sequential(name, values[: min(3, max(1, changes // 4))][::-1])  # warm-up (rebuild)
    h.compute_ms.clear(), h.draw_ms.clear(), h.paint_ms.clear()
    h.forced_paints = 0
    h.keep_drawn = mpl_frames
    probe = speed_probe()
    lat, _ = h.sequential(name, values)
    probe_after = speed_probe()
    h.keep_drawn = 0
    record: dict[str, Any] = {
        "kind": "frame",
        "probe_ms": probe,
        "probe_after_ms": probe_after,
        "view": view_id,
        "size": size,
        "param": name,
        "clamped": clamped,
        "seq_len": params.get("seq_len"),
        **_frame_stats(h, lat),
    }
    h.set_params({**params, name: values[0]})  # so that the drag's last frame is a new one
    record.update(h.drag(name, values[1:]))
    record["peak_rss_mb"] = peak_rss_mb()  # before matplotlib is imported
    w, hgt = h.canvas_size()
    datas = h.drawn
    h.close()
    if datas and len(datas) >= min(2, mpl_frames):
        record["matplotlib_median_ms"] = time_matplotlib(datas, w, hgt, layout=mpl_layout)
        record["matplotlib_ratio"] = record["matplotlib_median_ms"] / record["median_ms"]
        if view_id == "sinusoidal":
            record["matplotlib_course_median_ms"] = time_matplotlib(
                datas, w, hgt, panel_keys=("waves", "heatmap"), layout=mpl_layout
            )
    else:
        record["matplotlib_median_ms"] = None
    return record


def run_stage_case(
    view_id: str,
    scale: float,
    changes: int,
    mpl_frames: int = 0,
    mpl_layout: str | None = "constrained",
) -> dict[str, Any]:
    """Lecture size on the presentation stage at ``scale``; one ``presentation`` record.
    With ``mpl_frames``, the same frames redrawn by matplotlib at the canvas' pixel size
    with text and lines ``scale`` times larger (``matplotlib_median_ms``, ``_ratio``)."""
    params, clamped = size_params(view_id, SIZES["lecture"])
    h = Harness(view_id, stage_scale=scale)
    h.set_params(params)
    name, values = drag_plan(view_id, params, changes + 1)
    warm_up = values[: min(3, max(1, changes // 4))][::-1]
    h.sequential(name, warm_up)  # warm-up (rebuild)
    scrolled = scroll_to_the_change(h, name, warm_up)
    h.compute_ms.clear(), h.draw_ms.clear(), h.paint_ms.clear()
    h.forced_paints = 0
    h.keep_drawn = mpl_frames
    probe = speed_probe()
    lat, _ = h.sequential(name, values)
    probe_after = speed_probe()
    h.keep_drawn = 0
    w, hgt = h.canvas_size()
    record: dict[str, Any] = {
        "kind": "presentation",
        "probe_ms": probe,
        "probe_after_ms": probe_after,
        "scrolled": scrolled,
        "view": view_id,
        "size": "lecture",
        "scale": scale,
        "stage": f"{STAGE_SIZE[0]}×{STAGE_SIZE[1]} at {round(scale * 100)} %",
        "canvas": f"{w}×{hgt}",
        "param": name,
        "clamped": clamped,
        "seq_len": params.get("seq_len"),
        "matplotlib_median_ms": None,
        **_frame_stats(h, lat),
    }
    h.set_params({**params, name: values[0]})
    record.update(h.drag(name, values[1:]))
    record["peak_rss_mb"] = peak_rss_mb()
    datas = h.drawn
    h.close()
    if datas and len(datas) >= min(2, mpl_frames):
        ms = time_matplotlib(datas, w, hgt, layout=mpl_layout, scale=scale)
        record["matplotlib_median_ms"] = ms
        record["matplotlib_ratio"] = ms / record["median_ms"]
    return record


def scroll_to_the_change(h: Harness, name: str, warm_up: Sequence[Any]) -> bool:
    """Scroll the stage to its end when the warm-up's frames changed nothing in sight.

    At 200 % the word-order view's ``base`` moves only its last row, below the fold: Qt
    then paints nothing, and :meth:`Harness.paint` repainted the whole unchanged canvas
    on every frame (2.7-3.7 ms the app never spends). A lecturer drags ``base`` looking
    at what it changes, so the stage is scrolled there (and the record says so); the
    warm-up is repeated. Whether it scrolled.
    """
    bar = h.widget.scroll_area.verticalScrollBar()
    if len(warm_up) < 2 or bar.maximum() == 0:
        return False
    h.forced_paints = 0
    h.sequential(name, warm_up[-2:])  # two changes after the warm-up's rebuild
    if h.forced_paints < 2:  # Qt painted what they changed: it is in sight
        return False
    bar.setValue(bar.maximum())
    h.QtCore.QCoreApplication.sendPostedEvents()
    h.sequential(name, warm_up[::-1])
    h.sequential(name, warm_up)
    return True


def run_sweep_case(view_id: str, seq_lens: Sequence[int], changes: int) -> list[dict[str, Any]]:
    """Frame time of ``view_id`` at each ``seq_len`` (``scaling`` records)."""
    from core.views import get_view

    maximum = get_view(view_id).model["seq_len"].maximum
    h = Harness(view_id)
    out = []
    for n in seq_lens:
        rec: dict[str, Any] = {
            "kind": "scaling",
            "view": view_id,
            "size": f"seq_len={n}",
            "seq_len": n,
            "matplotlib_median_ms": None,
        }
        if maximum is not None and n > maximum:
            rec.update(
                skipped=f"seq_len max is {int(maximum)}",
                median_ms=None,
                p95_ms=None,
                max_stall_ms=None,
                peak_rss_mb=None,
            )
            out.append(rec)
            continue
        params, _ = size_params(view_id, {**SIZES["lecture"], "seq_len": n})
        h.set_params(params)
        values = list(range(max(1, n - changes + 1), n + 1))
        if view_id == "rope":
            name, values = "m", [v + 1 for v in range(changes)]
        else:
            name = "seq_len"
        h.sequential(name, values[:2][::-1])
        h.compute_ms.clear(), h.draw_ms.clear(), h.paint_ms.clear()
        h.forced_paints = 0
        lat, stall = h.sequential(name, values, heartbeat=True)
        rec.update(
            param=name, **_frame_stats(h, lat), max_stall_ms=stall, peak_rss_mb=peak_rss_mb()
        )
        out.append(rec)
    h.close()
    return out


# ---------------------------------------------------------------------------- cold start
def run_cold_start(repeats: int, timed_importtime: bool = False) -> dict[str, Any]:
    """Cold start of ``main.py`` to its first frame, and whether torch is imported
    (``timed_importtime``, for ``--smoke``: the timed runs run under ``-X importtime``
    too, instead of one more start-up for it; its launch times include that overhead)."""
    import tempfile

    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PE_STUDIO_SELFTEST": "1",
        "PE_STUDIO_NO_SETTINGS": "1",
    }
    in_app, launch, wall = [], [], []
    importtime = ["-X", "importtime"] if timed_importtime else []
    stderr_text = ""
    for _ in range(repeats):
        with tempfile.TemporaryFile("w+") as err:  # a pipe left unread could fill up
            t0 = time.perf_counter()
            proc = subprocess.Popen(
                [sys.executable, *importtime, "main.py"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=err,
                text=True,
            )
            assert proc.stdout is not None
            for line in proc.stdout:
                if line.startswith("first-frame-ms:"):
                    launch.append((time.perf_counter() - t0) * 1e3)
                    in_app.append(float(line.split(":", 1)[1]))
            proc.wait(timeout=60)
            wall.append((time.perf_counter() - t0) * 1e3)
            err.seek(0)
            stderr_text = err.read()
    if not timed_importtime:
        stderr_text = subprocess.run(
            [sys.executable, "-X", "importtime", "main.py"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        ).stderr
    modules = [
        ln.rsplit("|", 1)[-1].strip()
        for ln in stderr_text.splitlines()
        if ln.startswith("import time:") and "|" in ln
    ]
    heavy = sorted({m.split(".")[0] for m in modules} & {"torch", "matplotlib", "scipy"})
    return {
        "kind": "cold_start",
        "view": "app",
        "size": "cold",
        "median_ms": median(launch),
        "p95_ms": max(launch) if launch else math.nan,
        "first_frame_ms_in_app": median(in_app),
        "wall_ms": median(wall),
        "runs": len(launch),
        "torch_on_startup": "torch" in heavy,
        "heavy_imports": heavy,
        "max_stall_ms": None,
        "peak_rss_mb": None,
        "matplotlib_median_ms": None,
    }


def _release_windows() -> None:
    """Free the worker's deleted windows while the application lives (else PySide
    deletes what is left at the interpreter's exit, in any order: segfaults)."""
    if "gui.app" in sys.modules:
        sys.modules["gui.app"].release_windows()


# ---------------------------------------------------------------------------- orchestration
def _subprocess(args: list[str], timeout_s: float) -> list[dict[str, Any]]:
    """Run this script with ``args`` in a fresh process; parse its result lines."""
    try:
        res = subprocess.run(
            [sys.executable, __file__, *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=timeout_s,
        )
    except subprocess.TimeoutExpired:
        return [{"error": f"timed out after {timeout_s:.0f} s", "args": args}]
    out = [
        json.loads(ln[len(RESULT_PREFIX) :])
        for ln in res.stdout.splitlines()
        if ln.startswith(RESULT_PREFIX)
    ]
    if not out:
        tail = (res.stderr.strip().splitlines() or ["no output"])[-1]
        out = [{"error": f"exit {res.returncode}: {tail}", "args": args}]
    return out


def _fmt(v: Any, nd: int = 1) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    return f"{v:.{nd}f}" if isinstance(v, float) else str(v)


def evaluate(records: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """Attach ``targets`` (name → PASS/MISS) to records; returns ``(what, value, status)``."""
    rows: list[tuple[str, str, str]] = []

    def check(rec: dict[str, Any], name: str, value: float | None, ok: bool, shown: str) -> None:
        status = "PASS" if (value is not None and ok) else "MISS"
        rec.setdefault("targets", {})[name] = status
        rows.append((f"{rec['view']} {rec['size']}: {name}", shown, status))

    for r in records:
        if r.get("error"):
            continue
        if r["kind"] == "frame" and r["size"] == "lecture":
            check(
                r,
                "median ≤ 8 ms",
                r["median_ms"],
                r["median_ms"] <= LECTURE_MEDIAN_MS,
                f"{r['median_ms']:.1f} ms",
            )
            check(
                r,
                "p95 ≤ 16.7 ms",
                r["p95_ms"],
                r["p95_ms"] <= LECTURE_P95_MS,
                f"{r['p95_ms']:.1f} ms",
            )
            ratio = r.get("matplotlib_ratio")
            check(
                r,
                "≥ 10× faster than matplotlib",
                ratio,
                ratio is not None and ratio >= MPL_RATIO,
                f"{_fmt(ratio)}×",
            )
        elif r["kind"] == "presentation":
            for name, value, limit in (
                ("median ≤ 8 ms", r["median_ms"], LECTURE_MEDIAN_MS),
                ("p95 ≤ 16.7 ms", r["p95_ms"], LECTURE_P95_MS),
            ):
                status = "PASS" if value <= limit else "MISS"
                r.setdefault("targets", {})[name] = status
                rows.append(
                    (
                        f"{r['view']} stage {round(r['scale'] * 100)} %: {name}",
                        f"{value:.1f} ms",
                        status,
                    )
                )
        elif r["kind"] == "frame" and r["size"] == "large":
            check(
                r,
                "max stall ≤ 50 ms",
                r["max_stall_ms"],
                r["max_stall_ms"] <= LARGE_STALL_MS,
                f"{r['max_stall_ms']:.0f} ms",
            )
            check(
                r,
                "last frame ≤ 300 ms",
                r["last_frame_ms"],
                r["last_frame_ms"] <= LARGE_LAST_FRAME_MS,
                f"{r['last_frame_ms']:.0f} ms",
            )
            check(
                r,
                "peak RSS ≤ 1 GB",
                r["peak_rss_mb"],
                r["peak_rss_mb"] <= LARGE_RSS_MB,
                f"{r['peak_rss_mb']:.0f} MiB",
            )
        elif r["kind"] == "cold_start":
            check(
                r,
                "first frame ≤ 1.5 s",
                r["median_ms"],
                r["median_ms"] <= COLD_START_MS,
                f"{r['median_ms']:.0f} ms",
            )
            check(
                r,
                "torch not on start-up path",
                0.0,
                not r["torch_on_startup"],
                "imported" if r["torch_on_startup"] else "not imported",
            )
    by_view: dict[str, dict[int, dict[str, Any]]] = {}
    for r in records:
        if r.get("kind") == "scaling" and r.get("median_ms") is not None:
            by_view.setdefault(r["view"], {})[r["seq_len"]] = r
    for pts in by_view.values():
        if 4096 in pts and 16384 in pts:
            growth = pts[16384]["median_ms"] / pts[4096]["median_ms"]
            pts[16384]["growth_4096_to_16384"] = growth
            check(
                pts[16384],
                "4096→16384 growth < 2×",
                growth,
                growth < SCALING_GROWTH,
                f"{growth:.2f}×",
            )
    return rows


def print_report(records: list[dict[str, Any]], rows: list[tuple[str, str, str]]) -> None:
    """Markdown tables of the figures and the targets."""
    print("\n### Frame latency (param change → painted frame)\n")
    print(
        "| view | size | median ms | p95 ms | compute ms | draw ms | paint ms | "
        "max stall ms | last frame ms | peak RSS MiB | matplotlib ms | ratio |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in records:
        if r.get("kind") == "frame":
            size = r["size"] + (f" ({', '.join(r['clamped'])} clamped)" if r["clamped"] else "")
            print(
                f"| {r['view']} | {size} | {_fmt(r['median_ms'])} | {_fmt(r['p95_ms'])} | "
                f"{_fmt(r['compute_ms'])} | {_fmt(r['draw_ms'])} | {_fmt(r['paint_ms'])} | "
                f"{_fmt(r['max_stall_ms'], 0)} | {_fmt(r['last_frame_ms'], 0)} | "
                f"{_fmt(r['peak_rss_mb'], 0)} | {_fmt(r.get('matplotlib_median_ms'))} | "
                f"{_fmt(r.get('matplotlib_ratio'))}× |"
            )
            if r.get("matplotlib_course_median_ms") is not None:
                print(
                    f"| {r['view']} (course figure: 6 curves + PE heatmap, matplotlib) | "
                    f"{r['size']} | | | | | | | | | "
                    f"{_fmt(r['matplotlib_course_median_ms'])} | "
                    f"{_fmt(r['matplotlib_course_median_ms'] / r['median_ms'])}× |"
                )
    stage = [r for r in records if r.get("kind") == "presentation" and not r.get("error")]
    if stage:
        print(
            f"\n### Presentation stage ({STAGE_SIZE[0]}×{STAGE_SIZE[1]}, presentation mode, "
            "lecture size)\n"
        )
        print(
            "| view | UI scale | canvas | median ms | p95 ms | compute ms | draw ms | "
            "paint ms | GUI CPU ms | max stall ms | last frame ms | matplotlib ms | ratio |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for r in stage:
            scrolled = " (scrolled to its end †)" if r.get("scrolled") else ""
            print(
                f"| {r['view']} | {round(r['scale'] * 100)} %{scrolled} | {r['canvas']} | "
                f"{_fmt(r['median_ms'])} | {_fmt(r['p95_ms'])} | {_fmt(r['compute_ms'])} | "
                f"{_fmt(r['draw_ms'])} | {_fmt(r['paint_ms'])} | {_fmt(r.get('gui_cpu_ms'))} | "
                f"{_fmt(r['max_stall_ms'], 0)} | "
                f"{_fmt(r['last_frame_ms'], 0)} | {_fmt(r.get('matplotlib_median_ms'))} | "
                f"{_fmt(r.get('matplotlib_ratio'))}× |"
            )
        print(
            "\nmatplotlib (Agg) redraws the same frames at the canvas' size, all of it (the "
            "stage paints the part in sight), text and lines as much larger as the UI scale."
        )
        if any(r.get("scrolled") for r in stage):
            print(
                "\n† The dragged parameter changed nothing in sight at the top of the stage: "
                "the stage is scrolled to its end, where the plots it changes are."
            )
    scaling = [r for r in records if r.get("kind") == "scaling"]
    if scaling:
        print("\n### Scaling (median frame ms by seq_len)\n")
        sizes = sorted({r["seq_len"] for r in scaling})
        print("| view | " + " | ".join(str(n) for n in sizes) + " |")
        print("|---|" + "---|" * len(sizes))
        for view in dict.fromkeys(r["view"] for r in scaling):
            cells = {r["seq_len"]: _fmt(r.get("median_ms")) for r in scaling if r["view"] == view}
            print(f"| {view} | " + " | ".join(cells.get(n, "–") for n in sizes) + " |")
    for r in records:
        if r.get("kind") == "cold_start":
            print(
                f"\n### Cold start\n\nlaunch → first frame {_fmt(r['median_ms'], 0)} ms "
                f"(in-app first-frame-ms {_fmt(r['first_frame_ms_in_app'], 0)}, subprocess "
                f"wall {_fmt(r['wall_ms'], 0)} ms, {r['runs']} runs); heavy imports on "
                f"start-up: {', '.join(r['heavy_imports']) or 'none'}"
            )
    errors = [r for r in records if r.get("error")]
    for r in errors:
        print(f"\nERROR {r.get('args')}: {r['error']}")
    print("\n### Targets\n\n| target | measured | status |\n|---|---|---|")
    for what, value, status in rows:
        print(f"| {what} | {value} | {status} |")
    print()
    for line in summary_lines(records):
        print(line)


def summary_lines(records: list[dict[str, Any]]) -> list[str]:
    """One ``PASS``/``MISS`` line per lecture-size case, windowed and on the stage (after
    :func:`evaluate`): median and p95 against their targets, side by side, and the
    machine's speed before and after (``probe_ms``, ``probe_after_ms``, where measured:
    lower is faster)."""
    out = []
    for r in records:
        if r.get("error") or r.get("size") != "lecture":
            continue
        if r.get("kind") == "frame":
            where = "windowed"
        elif r.get("kind") == "presentation":
            where = f"stage {round(r['scale'] * 100)} %"
        else:
            continue
        targets = r.get("targets", {})
        ok = all(targets.get(k) == "PASS" for k in ("median ≤ 8 ms", "p95 ≤ 16.7 ms"))
        probes = [r[k] for k in ("probe_ms", "probe_after_ms") if r.get(k) is not None]
        out.append(
            f"{'PASS' if ok else 'MISS'}  {r['view']:<12} {where:<12} median "
            f"{r['median_ms']:5.1f} ms  p95 {r['p95_ms']:5.1f} ms"
            + (f"  (probe {' / '.join(f'{p:.1f}' for p in probes)} ms)" if probes else "")
        )
    return out


def _clean(obj: Any) -> Any:
    """NaN/inf → None so the JSON is strict."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_clean(v) for v in obj]
    return obj


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write all records as JSON to this path")
    parser.add_argument("--quick", action="store_true", help="short smoke run (< 30 s)")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="--quick with the fewest frames that still give every figure (the test suite's "
        "check that the benchmark runs; its numbers mean little)",
    )
    parser.add_argument("--batch", nargs="+", metavar="ARGS_JSON", help=argparse.SUPPRESS)
    parser.add_argument("--case", nargs=2, metavar=("VIEW", "SIZE"), help=argparse.SUPPRESS)
    parser.add_argument("--sweep", metavar="VIEW", help=argparse.SUPPRESS)
    parser.add_argument("--stage", nargs=2, metavar=("VIEW", "SCALES"), help=argparse.SUPPRESS)
    parser.add_argument(
        "--only",
        choices=("lecture", "presentation"),
        help="lecture: only the lecture-size cases, windowed and on the presentation stage "
        "(no large, scaling, cold start); presentation: only the stage",
    )
    parser.add_argument(
        "--seq-lens", type=int, nargs="+", default=list(SWEEP_SIZES), help=argparse.SUPPRESS
    )
    parser.add_argument("--changes", type=int, default=50, help=argparse.SUPPRESS)
    parser.add_argument("--mpl-frames", type=int, default=11, help=argparse.SUPPRESS)
    parser.add_argument(
        "--mpl-layout",
        default="constrained",
        choices=("constrained", "none"),
        help=argparse.SUPPRESS,
    )
    parser.add_argument("--sweep-changes", type=int, default=10, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.quick = args.quick or args.smoke

    if args.batch:  # worker (--quick): several worker runs in this one process
        for spec in args.batch:
            case_args = json.loads(spec)
            try:
                main(case_args)
            except Exception as exc:  # the other cases still run; the error is reported
                err = {"error": f"{type(exc).__name__}: {exc}", "args": case_args}
                print(RESULT_PREFIX + json.dumps(err), flush=True)
        _release_windows()
        return 0
    if args.case:  # worker: one (view, size) in this fresh process
        layout = None if args.mpl_layout == "none" else args.mpl_layout
        rec = run_frame_case(args.case[0], args.case[1], args.changes, args.mpl_frames, layout)
        print(RESULT_PREFIX + json.dumps(_clean(rec)), flush=True)
        _release_windows()
        return 0
    if args.stage:  # worker: one view on the stage at each scale, in this fresh process
        for scale in args.stage[1].split(","):
            layout = None if args.mpl_layout == "none" else args.mpl_layout
            rec = run_stage_case(args.stage[0], float(scale), args.changes, args.mpl_frames, layout)
            print(RESULT_PREFIX + json.dumps(_clean(rec)), flush=True)
        _release_windows()
        return 0
    if args.sweep:
        for rec in run_sweep_case(args.sweep, args.seq_lens, args.changes):
            print(RESULT_PREFIX + json.dumps(_clean(rec)), flush=True)
        _release_windows()
        return 0

    from core.views import VIEW_IDS

    t_start = time.perf_counter()
    # --smoke: 2 timed changes (a median and a p95), one matplotlib frame (its first draw,
    # without constrained layout: that was half of the smoke run's CPU)
    changes, mpl = (args.changes, args.mpl_frames)
    mpl_layout = ["--mpl-layout", "none"] if args.smoke else []
    if args.quick:
        changes, mpl = (2, 1) if args.smoke else (3, 3)
    sweep_changes = 2 if args.smoke else 3 if args.quick else args.sweep_changes
    large_views = QUICK_LARGE_VIEWS if args.quick else VIEW_IDS
    records: list[dict[str, Any]] = []

    def run(label: str, fn: Callable[[], list[dict[str, Any]]]) -> None:
        t0 = time.perf_counter()
        got = fn()
        records.extend(got)
        print(
            f"  {label}: {time.perf_counter() - t0:.1f} s"
            + "".join(f" ERROR {r['error']}" for r in got if r.get("error")),
            flush=True,
        )

    print(
        f"frame latency benchmark ({'smoke' if args.smoke else 'quick' if args.quick else 'full'}), "
        f"{os.cpu_count()} CPUs, offscreen Qt",
        flush=True,
    )
    # Worker runs: (label, arguments, timeout). Each runs in a fresh process; with --quick
    # all of them run in one process (imports and window set-up paid once).
    jobs: list[tuple[str, list[str], float]] = []
    lecture_views = SMOKE_LECTURE_VIEWS if args.smoke else VIEW_IDS
    sizes = (("lecture", lecture_views), ("large", large_views))
    for size, views in sizes if args.only != "presentation" else ():
        for view in views if size == "lecture" or args.only is None else ():
            jobs.append(
                (
                    f"{view} {size}",
                    [
                        *("--case", view, size, "--changes", str(changes)),
                        *("--mpl-frames", str(mpl), *mpl_layout),
                    ],
                    600,
                )
            )
    # the same run: lecture size on the presentation stage (both scales in one process)
    stage_views = ("sinusoidal",) if args.quick else VIEW_IDS
    stage_scales = SMOKE_STAGE_SCALES if args.smoke else STAGE_SCALES
    scales = ",".join(str(sc) for sc in stage_scales)
    for view in stage_views:
        jobs.append(
            (
                f"{view} stage {' and '.join(f'{round(sc * 100)} %' for sc in stage_scales)}",
                [
                    *("--stage", view, scales, "--changes", str(changes)),
                    *("--mpl-frames", str(mpl), *mpl_layout),
                ],
                600,
            )
        )
    if args.only is not None:
        sweep_views: tuple[str, ...] = ()
    else:
        sweep_views = ("sinusoidal",) if args.quick else SWEEP_VIEWS
    seq_lens = ["64"] if args.quick else [str(n) for n in SWEEP_SIZES]
    for view in sweep_views:
        jobs.append(
            (
                f"scaling {view}",
                ["--sweep", view, "--seq-lens", *seq_lens, "--changes", str(sweep_changes)],
                900,
            )
        )
    if args.quick:
        # the stage last: its UI scale must not carry over to the windowed cases
        jobs.sort(key=lambda job: job[1][0] == "--stage")
        batch = ["--batch", *(json.dumps(job_args) for _label, job_args, _t in jobs)]
        timeout_s = sum(t for _label, _args, t in jobs)
        run(f"{len(jobs)} cases in one process", lambda: _subprocess(batch, timeout_s))
    else:
        for label, job_args, timeout_s in jobs:
            run(label, lambda a=job_args, t=timeout_s: _subprocess(a, t))
    if args.only is None:
        repeats = 1 if args.quick else 3
        run("cold start", lambda: [run_cold_start(repeats, timed_importtime=args.smoke)])

    for r in records:  # the required keys, everywhere
        for key in (
            "kind",
            "view",
            "size",
            "median_ms",
            "p95_ms",
            "max_stall_ms",
            "peak_rss_mb",
            "matplotlib_median_ms",
        ):
            r.setdefault(key, None)
    rows = evaluate(records)
    print_report(records, rows)
    print(f"\ntotal {time.perf_counter() - t_start:.0f} s")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(_clean(records), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
