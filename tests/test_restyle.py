"""A new UI scale or theme re-styles a view's plots where they are (F5 in and out, the
dark/light toggle): no plot is made anew, and the settled picture is the one a view
whose plots are built anew in that scale and theme draws, pixel for pixel. Offscreen,
no timing (the CPU time of F5 is measured by bench/restyle_cost.py)."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtGui, QtWidgets
from tiers import gate_cover

from core.views import VIEW_IDS

SIZE = (1920, 1080)
GRABS = 6  # paints at most until a paint changes nothing


@pytest.fixture(scope="module")
def stage_window(open_window):
    with open_window(*SIZE) as win:
        yield win


def _settled_grab(window, widget) -> QtGui.QImage:
    """The view's canvas once a paint changes nothing (axes learn their labels'
    sizes when painted, then re-lay out), live frames ended."""
    app = QtWidgets.QApplication.instance()
    before = None
    for _ in range(GRABS):
        assert window.wait_idle(60)
        widget.finish_live_frame()
        widget.fit_height()
        app.processEvents()
        image = widget.canvas.grab().toImage()
        if before is not None and image == before:
            return image
        before = image
    return before


def _fresh_grab(window, widget) -> QtGui.QImage:
    """The view's picture with its plots built anew in the theme now."""
    old = {key: plot.plot for key, plot in widget.plots.items()}
    widget._layout_key = None  # (no grid to move: a new one)
    widget.show_data(widget.data)
    assert all(widget.plots[key].plot is not item for key, item in old.items())
    return _settled_grab(window, widget)


def _differing(a: QtGui.QImage, b: QtGui.QImage) -> str:
    if a.size() != b.size():
        return f"sizes {a.size().toTuple()} != {b.size().toTuple()}"
    a = a.convertToFormat(QtGui.QImage.Format.Format_RGB32)
    b = b.convertToFormat(QtGui.QImage.Format.Format_RGB32)
    shape = (a.height(), a.bytesPerLine() // 4)
    pa = np.frombuffer(a.constBits(), np.uint32, shape[0] * shape[1]).reshape(shape)
    pb = np.frombuffer(b.constBits(), np.uint32, shape[0] * shape[1]).reshape(shape)
    ys, xs = np.nonzero(pa != pb)
    if not len(ys):
        return ""
    channels = np.abs(pa[ys, xs].view(np.uint8).astype(int) - pb[ys, xs].view(np.uint8).astype(int))
    return (
        f"{len(ys)} px differ within x {xs.min()}-{xs.max()}, y {ys.min()}-{ys.max()}"
        f" (by up to {channels.max()} levels)"
    )


def _counts(widget) -> tuple[int, list[int]]:
    """Grids and plots the view built (new plots count in the grids)."""
    return getattr(widget, "grid_builds", 0), [plot.rebuilds for plot in widget.plots.values()]


#: a window at :data:`SIZE` made smaller on the way (the plots re-laid out for it)
SMALL = (1280, 720)
#: the steps from the window at :data:`SIZE`, 100 %, light: (name, window size, what)
STEPS = (
    ("stage 200 %", SIZE, "stage"),
    ("window 100 %", SIZE, "window"),
    ("resized 1280x720", SMALL, "window"),
    ("1280x720 stage 200 %", SMALL, "stage"),
    ("1280x720 window 100 %", SMALL, "window"),
    ("1280x720 dark", SMALL, "dark"),
)


def _pictures(
    win, show_view, view_id: str
) -> tuple[list[tuple[str, QtGui.QImage, QtGui.QImage]], list]:
    """For each of :data:`STEPS` from the window at 100 % and :data:`SIZE`: the view's
    settled picture and that of the view with its plots built anew there; and whether
    each step kept the view's plots and built none."""
    display = win.lecture.display
    display.set_theme_name("light")
    widget = show_view(win, view_id, SIZE, 1.0)
    _settled_grab(win, widget)
    pictures, kept = [], []
    try:
        for step, size, what in STEPS:
            plots, counts = dict(widget.plots), _counts(widget)
            if what == "dark":
                display.set_theme_name("dark")
            else:
                present = what == "stage"
                widget = show_view(win, view_id, size, 2.0 if present else 1.0, present=present)
            kept.append((step, widget.plots == plots and _counts(widget) == counts))
            pictures.append((step, _settled_grab(win, widget), _fresh_grab(win, widget)))
    finally:
        display.set_theme_name("light")
    return pictures, kept


@pytest.mark.parametrize("view_id", gate_cover(VIEW_IDS, keep=("learned",)))
def test_restyle_builds_no_plot_and_draws_what_plots_built_there_draw(
    stage_window, show_view, view_id
):
    """Each view presented at 200 %, back in the window, made smaller (1280 × 720),
    presented and back again, and dark: it keeps its plots and builds none (before
    84a2ef7: every plot made anew each way, some twice), and each settled picture is,
    pixel for pixel, that of the view with its plots built anew there (before:
    Relative's heatmaps 1 px apart, the row-label axes keeping the room they took for
    another plot width; ALiBi on stage at 1280 × 720 41 px shorter and Relative 3 px
    taller, index-label axes keeping the room they took for labels of another size).
    Each step re-styles the plots built anew at the step before (one pass: a second
    pass re-styling only, compared with the first, cost 66 s of a CI run's CPU)."""
    pictures, kept = _pictures(stage_window, show_view, view_id)
    assert [step for step, same in kept if not same] == []
    problems = [
        f"{view_id}, {step}: {problem}"
        for step, restyled, built in pictures
        if (problem := _differing(restyled, built))
    ]
    assert not problems, "\n".join(problems)
