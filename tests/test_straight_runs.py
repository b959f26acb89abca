"""Series whose runs are straight lines (``Series.straight``) are drawn from their ends;
readouts and exports still read every point."""

from __future__ import annotations

import numpy as np
import pytest

from core.viewdata import ComputeContext
from core.views import VIEW_IDS, compute_view, get_view
from gui.plotting.plot_data import run_ends

NAN = np.nan


def test_run_ends_keeps_each_runs_ends_and_the_separators():
    x = np.array([0.0, 1, 2, 3, NAN, 0, 1, NAN, 5, NAN, NAN, 0, 2, 4])
    ex, ey = run_ends(x, -0.5 * x)
    # a run of four keeps 0 and 3; of two, both; of one, itself; separators all stay
    np.testing.assert_array_equal(ex, [0.0, 3, NAN, 0, 1, NAN, 5, NAN, NAN, 0, 4])
    np.testing.assert_array_equal(ey, -0.5 * ex)
    # a gap in y alone separates runs too
    ex, ey = run_ends(np.arange(5.0), np.array([0.0, 1, NAN, 3, 4]))
    np.testing.assert_array_equal(ex, [0.0, 1, 2, 3, 4])
    ex, ey = run_ends(np.arange(6.0), np.array([0.0, 1, 2, NAN, 4, 5]))
    np.testing.assert_array_equal(ex, [0.0, 2, 3, 4, 5])
    np.testing.assert_array_equal(ey, [0.0, 2, NAN, 4, 5])
    # nothing to leave out: the arrays as given
    two = np.array([0.0, 1.0])
    assert all(a is two for a in run_ends(two, two))
    gaps = np.array([NAN, 1.0, NAN])
    assert all(a is gaps for a in run_ends(gaps, gaps))


@pytest.mark.parametrize("view_id", VIEW_IDS)
def test_a_straight_series_lies_on_its_runs_lines(view_id):
    """Every point of a series that says it is straight lies on the line through the ends
    of its run, to rounding: drawn from the ends, it draws the same lines."""
    view = get_view(view_id)
    for params in (view.model.defaults(), {**view.model.defaults(), **_lecture(view_id)}):
        data = compute_view(view_id, params, ComputeContext())
        for panel in data.panels:
            for s in panel.series:
                if not s.straight:
                    continue
                x, y = np.asarray(s.x, float), np.asarray(s.y, float)
                finite = np.isfinite(x) & np.isfinite(y)
                edges = np.flatnonzero(np.diff(np.concatenate([[0], finite, [0]]).astype(int)))
                for start, stop in zip(edges[::2], edges[1::2], strict=True):
                    rx, ry = x[start:stop], y[start:stop]
                    if rx.size < 3:
                        continue
                    t = (rx - rx[0]) / (rx[-1] - rx[0])
                    line = ry[0] + t * (ry[-1] - ry[0])
                    scale = max(1.0, float(np.max(np.abs(ry))))
                    assert np.max(np.abs(ry - line)) <= 1e-9 * scale, (view_id, s.name)


def _lecture(view_id: str) -> dict[str, object]:
    """The lecture size's parameters that ``view_id`` has (seq_len 512, 8 heads)."""
    names = get_view(view_id).model.defaults()
    return {k: v for k, v in {"seq_len": 512, "heads": 8}.items() if k in names}


def test_alibi_has_straight_series():
    """The test above looks at ALiBi's bias against distance: its lines say so."""
    data = compute_view("alibi", get_view("alibi").model.defaults(), ComputeContext())
    straight = [s.name for p in data.panels for s in p.series if s.straight]
    assert any(name.startswith("all ") for name in straight), straight
    assert any(name.startswith("head ") for name in straight), straight


def test_alibis_head_lines_are_drawn_from_their_ends_and_read_at_every_distance(window):
    """The distance plot's eight dashed lines were ~900 points (stroked each frame of a
    drag); they are drawn from their ends now, and the readout between the ends still
    reads the distance's exact bias from the series' points."""
    window.set_view("alibi")
    assert window.wait_idle(30)
    view = window.views["alibi"]
    plot = view.plots["distance"]
    panel = next(p for p in view.data.panels if p.key == "distance")
    heads = view.data.params["heads"]
    every, drawn = panel.series[0], plot.curves[0]
    assert every.straight and every.name.startswith(f"all {heads} heads")
    x, y = drawn.getOriginalDataset()
    assert x.size == 3 * heads < np.asarray(every.x).size  # two ends and a gap a head
    np.testing.assert_array_equal(x[2::3], np.full(heads, NAN))
    np.testing.assert_array_equal(x[0::3], np.zeros(heads))
    n = view.data.params["seq_len"]
    np.testing.assert_array_equal(x[1::3], np.full(heads, n - 1.0))
    np.testing.assert_allclose(
        y[1::3], -(n - 1.0) * 2.0 ** (-8.0 * np.arange(1, heads + 1) / heads)
    )
    from PySide6 import QtCore

    vb = plot.plot.getViewBox()
    text = plot.probe_text(vb.mapViewToScene(QtCore.QPointF(5.0, -1.0)))
    assert text is not None and f"): −{0.5 * 5:.6g} … −{5 / 256:.6g}," in text, text
