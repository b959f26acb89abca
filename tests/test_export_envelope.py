"""Exported curves reduced to the output columns (issue 18, item 7: bounded export cost).

Timings are in bench/export_cost.py; nothing here asserts wall-clock time."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtGui

from core.viewdata import Panel, Series
from gui.plotting.panel_plot import PanelPlot
from gui.render import envelope, snapshot


def _per_column(columns: np.ndarray, values: np.ndarray) -> dict[int, tuple[float, float]]:
    out: dict[int, tuple[float, float]] = {}
    for c in np.unique(columns).tolist():
        v = values[columns == c]
        out[c] = (float(v.min()), float(v.max()))
    return out


def test_column_envelope_keeps_each_columns_exact_extremes_and_at_most_four_points():
    rng = np.random.default_rng(3)
    x = np.sort(rng.uniform(0, 50, 20000))  # 50 columns, 400 points each
    y = rng.standard_normal(20000)
    columns = np.floor(x).astype(np.int64)
    keep = envelope.column_envelope(columns, y)
    assert np.all(np.diff(keep) > 0)  # real points, in their order
    assert len(keep) <= 4 * 50
    assert keep[0] == 0 and keep[-1] == len(x) - 1
    assert _per_column(columns[keep], y[keep]) == _per_column(columns, y)
    # every kept value is a data value (nothing invented)
    assert set(y[keep].tolist()) <= set(y.tolist())


def test_column_envelope_is_exact_for_a_curve_coming_back_to_a_column():
    # a circle: x goes right, then back left through the same columns
    t = np.linspace(0, 2 * np.pi, 5000)
    x, y = 20 * np.cos(t) + 30, 20 * np.sin(t)
    columns = np.floor(x).astype(np.int64)
    keep = envelope.column_envelope(columns, y)
    assert len(keep) < len(x) // 4
    # per run of one column, the same extremes, first and last point
    starts = np.r_[0, np.flatnonzero(np.diff(columns)) + 1, len(x)]
    for a, b in zip(starts[:-1], starts[1:], strict=True):
        kept = keep[(keep >= a) & (keep < b)]
        assert kept[0] == a and kept[-1] == b - 1
        assert y[kept].min() == y[a:b].min() and y[kept].max() == y[a:b].max()


def test_dense_wave_becomes_a_band_and_a_sparse_curve_stays_a_line():
    x = np.linspace(0, 300, 6000)
    wave = 100 + 90 * np.sin(x * 37.0)  # 20 points a column, turning back in each
    parts = envelope.reduce_curve(x, wave, 1.0, pen_width=2.0)
    assert len(parts.bands) == 1
    assert len(parts.line_x) <= 2  # at most the segment into the last, lone point's column
    band = parts.bands[0]
    assert len(band) <= 2 * 301
    # its vertical range is the data's, less the half pen its outline adds back
    assert band[:, 1].min() == wave.min() + 1.0
    assert band[:, 1].max() == wave.max() - 1.0
    smooth = 100 + 90 * np.sin(x / 40.0)
    parts = envelope.reduce_curve(x, smooth, 1.0, pen_width=2.0)
    assert parts.bands == [] and 300 <= len(parts.line_x) <= 4 * 301
    # dashed or translucent pens: never bands, still reduced
    parts = envelope.reduce_curve(x, wave, 1.0, pen_width=None)
    assert parts.bands == [] and len(parts.line_x) <= 4 * 301


def test_reduce_curve_keeps_gaps_at_non_finite_points():
    x = np.arange(10.0)
    y = np.array([0, 1, 2, np.nan, 4, 5, 6, np.inf, 8, 9], dtype=float)
    parts = envelope.reduce_curve(x, y, 0.1, pen_width=None)
    assert np.isnan(parts.line_x).sum() == 2
    finite = parts.line_y[np.isfinite(parts.line_y)]
    assert finite.tolist() == [0, 1, 2, 4, 5, 6, 8, 9]


def test_chunks_share_end_points_and_cover_the_line():
    x = np.linspace(0, 100, 1001)
    y = np.where(np.arange(1001) % 2, 0.0, 3000.0)  # 3000 px per segment
    pieces = envelope.chunks(x, y)
    assert len(pieces) > 100
    assert pieces[0][0] == 0 and pieces[-1][1] == 1001
    for (_, stop, _), (start, _, _) in zip(pieces[:-1], pieces[1:], strict=True):
        assert start == stop - 1


def _wave_canvas(n: int, cycles: float) -> tuple[pg.GraphicsLayoutWidget, PanelPlot]:
    canvas = pg.GraphicsLayoutWidget()
    plot = PanelPlot(canvas.addPlot())
    x = np.arange(n, dtype=float)
    plot.show(
        Panel(
            "w",
            "wave",
            "curves",
            "i",
            "y",
            series=[Series("y", x, np.sin(x * 2 * np.pi * cycles / n))],
        )
    )
    canvas.resize(320, 200)
    return canvas, plot


def _ink(image: QtGui.QImage, color: QtGui.QColor) -> np.ndarray:
    arr = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), -1, 4)[
        :, : image.width(), :3
    ]
    target = np.array([color.blue(), color.green(), color.red()])  # BGRA in memory
    return np.abs(arr.astype(int) - target).max(axis=2) < 40


def test_export_of_a_dense_curve_matches_every_point_stroked(qtbot, monkeypatch):
    """Each pixel column of the image shows the same extremes as the full stroke."""
    calls: list[int] = []
    paint = envelope.paint_curve
    monkeypatch.setattr(
        envelope, "paint_curve", lambda *a: calls.append(1) or paint(*a), raising=True
    )
    canvas, plot = _wave_canvas(3000, 700.0)  # about 10 points a pixel column
    qtbot.addWidget(canvas)
    reduced = snapshot.render_image(canvas, width=320, height=200)
    assert calls  # drawn through the envelope
    monkeypatch.setattr(snapshot, "reduce_curves", False)
    full = snapshot.render_image(canvas, width=320, height=200)
    color = plot.curves[0].opts["pen"].color()
    a, b = _ink(reduced, color), _ink(full, color)
    assert b.sum() > 5000
    cols = np.flatnonzero(b.any(axis=0) | a.any(axis=0))
    assert np.array_equal(a.any(axis=0)[cols], b.any(axis=0)[cols])
    top_a, top_b = a[:, cols].argmax(axis=0), b[:, cols].argmax(axis=0)
    bottom_a = a.shape[0] - 1 - a[::-1, cols].argmax(axis=0)
    bottom_b = b.shape[0] - 1 - b[::-1, cols].argmax(axis=0)
    assert np.abs(top_a - top_b).max() <= 1
    assert np.abs(bottom_a - bottom_b).max() <= 1
    assert (a != b).mean() < 0.01


def test_export_of_a_smooth_curve_is_unchanged(qtbot, monkeypatch):
    canvas, _plot = _wave_canvas(400, 2.0)
    qtbot.addWidget(canvas)
    reduced = snapshot.render_image(canvas, width=320, height=200)
    monkeypatch.setattr(snapshot, "reduce_curves", False)
    full = snapshot.render_image(canvas, width=320, height=200)

    def rgb(img: QtGui.QImage) -> np.ndarray:
        return np.frombuffer(img.constBits(), np.uint8).reshape(img.height(), -1, 4)[..., :3]

    diff = np.abs(rgb(reduced).astype(int) - rgb(full).astype(int)).max(axis=2)
    assert (diff > 32).mean() < 0.002
