"""The live text lines paint their own background (issue 14 item 7: frame time on the
stage): a new formula, verdict or notes text repaints that label alone, not the window,
view, scroll area and body behind it, with the same pixels on screen, and exports keep
their transparent background.

Counts of paint events and pixel comparisons, no timings.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets
from tiers import gate_cover

from core.viewdata import ComputeContext
from core.views import VIEWS
from gui.theme import DARK, stylesheet

SPEC = VIEWS["clock"]


def _compute(**changes):
    return SPEC.compute(SPEC.model.validate(changes, partial=True), ComputeContext())


class _Paints(QtCore.QObject):
    """Paint events per watched widget."""

    def __init__(self, widgets: dict[str, QtWidgets.QWidget]) -> None:
        super().__init__()
        self.names = {id(w): name for name, w in widgets.items()}
        self.counts = dict.fromkeys(widgets, 0)
        for w in widgets.values():
            w.installEventFilter(self)

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        if event.type() == QtCore.QEvent.Type.Paint and id(obj) in self.names:
            self.counts[self.names[id(obj)]] += 1
        return False


@pytest.fixture
def host(qapp):
    """A window holding a clock view, shown and painted."""
    from gui.widgets.view_widget import ViewWidget

    window = QtWidgets.QWidget()
    layout = QtWidgets.QVBoxLayout(window)
    layout.setContentsMargins(0, 0, 0, 0)
    widget = ViewWidget(SPEC, window)
    layout.addWidget(widget)
    window.resize(1100, 760)
    window.show()
    widget.show_data(_compute(m=2.0))
    widget.verdict.setText("a verdict line 12")
    widget.verdict.show()
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
    yield window, widget
    window.close()
    window.deleteLater()


def _screen(window: QtWidgets.QWidget) -> np.ndarray:
    """The window's pixels as painted on screen (its backing store)."""
    QtWidgets.QApplication.processEvents()
    image = window.screen().grabWindow(window.winId()).toImage()
    return _array(image, window)


def _array(image: QtGui.QImage, window: QtWidgets.QWidget) -> np.ndarray:
    """``image`` as ``(height, width, BGRA)`` bytes, cut to ``window``'s size."""
    image = image.convertToFormat(QtGui.QImage.Format.Format_ARGB32)
    w, h = window.width(), window.height()
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), -1)
    return rows[:h, : w * 4].reshape(h, w, 4).copy()


def _new_texts(widget, k: int) -> None:
    """New formula, verdict and notes texts of the same length (a slider's next value)."""
    widget.formula.setText(f"q at angle {k}·θ = {k}.5 rad")
    widget.verdict.setText(f"a verdict line {k}")
    widget.status.setText(f"notes: q·k = 0.{k}40")


def test_a_new_text_repaints_the_label_alone(host):
    window, widget = host
    _new_texts(widget, 10)
    QtWidgets.QApplication.processEvents()
    watched = {
        "window": window,
        "view": widget,
        "scroll": widget.scroll_area,
        "viewport": widget.scroll_area.viewport(),
        "body": widget.body,
        "formula": widget.formula,
        "verdict": widget.verdict,
        "status": widget.status,
    }
    paints = _Paints(watched)
    geometries = {name: w.geometry() for name, w in watched.items()}
    _new_texts(widget, 11)
    QtWidgets.QApplication.processEvents()
    assert {name: w.geometry() for name, w in watched.items()} == geometries  # same room
    counts = paints.counts
    assert counts["formula"] >= 1 and counts["verdict"] >= 1 and counts["status"] >= 1
    # (before: each of them painted again for the labels' rectangles)
    parents = ("window", "view", "scroll", "viewport", "body")
    assert {n: counts[n] for n in parents} == dict.fromkeys(parents, 0)


@pytest.mark.parametrize("dark", gate_cover([False, True], keep=(True,)))
def test_the_screen_shows_what_a_full_repaint_paints(host, dark):
    window, widget = host
    if dark:  # the window's style sheet paints the background (and every widget's)
        window.setStyleSheet(stylesheet(DARK))
        widget.apply_theme()
        for _ in range(3):
            QtWidgets.QApplication.processEvents()
    from gui.render.snapshot import render_image

    for k in (20, 3, 47):
        _new_texts(widget, k)
        screen = _screen(window)
        full = _array(window.grab().toImage(), window)
        # an export paints every widget on its own, the labels without a background
        export = _array(render_image(window), window)
        for label in (widget.formula, widget.verdict, widget.status):
            r = QtCore.QRect(label.mapTo(window, QtCore.QPoint(0, 0)), label.size())
            part = (slice(r.top(), r.bottom() + 1), slice(r.left(), r.right() + 1))
            assert np.array_equal(screen[part], full[part]), label.objectName()
            assert np.array_equal(screen[part], export[part]), label.objectName()
            # (and something is drawn: the text's ink differs from the background)
            assert len(np.unique(full[part].reshape(-1, 4), axis=0)) > 2


def test_a_transparent_export_stays_transparent_behind_the_labels(host):
    from gui.render.snapshot import render_image

    _window, widget = host
    image = render_image(widget, transparent=True)
    alpha = _array(image, widget)[..., 3]
    for label in (widget.formula, widget.verdict, widget.status):
        corner = label.mapTo(widget, QtCore.QPoint(0, 0))
        # the labels' top-left pixel is margin: nothing painted there
        assert alpha[corner.y(), corner.x()] == 0, label.objectName()
