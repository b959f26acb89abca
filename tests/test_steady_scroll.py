"""The scroll areas end a flip-flop of their widget's size instead of overflowing the stack.

A resizable ``QScrollArea`` sizes its widget from the widget's height for the viewport's
width, in a filter on the widget's resize events. A widget that needs more than the
viewport at the viewport's height and less when taller (a view whose explanation and
verdict shorten themselves when they would take more than a fifth of it) makes Qt nest
the two resizes without end: the app crashed going from 300 % back to 100 % with the deck
panel open (``test_stage_scroll.test_parameter_dock_widens_with_the_ui_scale``).
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from gui.widgets.steady_scroll import SteadyScrollArea

#: the plain QScrollArea's flip-flop is cut here by the widget itself (else the test run
#: would crash): a steady area asks a few times
ASK_LIMIT = 400


class _Flipping(QtWidgets.QWidget):
    """Needs 30 px more than ``page`` while at most ``page`` tall, 20 px less when taller
    (until asked :data:`ASK_LIMIT` times)."""

    def __init__(self, page: int) -> None:
        super().__init__()
        self.page = page
        self.asked = 0
        policy = self.sizePolicy()
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        self.asked += 1
        if self.asked > ASK_LIMIT or self.height() > self.page:
            return self.page - 20
        return self.page + 30


def _area(qtbot, cls: type[QtWidgets.QScrollArea]) -> tuple[QtWidgets.QScrollArea, _Flipping]:
    area = cls()
    qtbot.addWidget(area)
    area.setWidgetResizable(True)
    area.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.resize(400, 300)
    area.show()
    QtWidgets.QApplication.processEvents()
    body = _Flipping(area.viewport().height())
    area.setWidget(body)
    for _ in range(10):
        QtWidgets.QApplication.processEvents()
    return area, body


def test_a_plain_scroll_area_flips_without_end(qtbot):
    """The widget really makes Qt's scroll area flip (what the steady one must end)."""
    _area_, body = _area(qtbot, QtWidgets.QScrollArea)
    assert body.asked > ASK_LIMIT


def test_the_steady_scroll_area_ends_the_flip_flop_with_room_for_the_bar(qtbot):
    area, body = _area(qtbot, SteadyScrollArea)
    assert isinstance(area, SteadyScrollArea)
    assert area.flip_flops >= 1
    assert body.asked < 50  # a few chains of resizes, each cut at its first repeat
    viewport = area.viewport().size()
    bar = area.verticalScrollBar()
    # the narrower size, beside the bar: nothing under it, and the bar scrolls the rest
    assert body.width() == viewport.width()
    assert body.height() > viewport.height()
    assert bar.isVisible()
    assert bar.maximum() == body.height() - viewport.height()
    assert bar.pageStep() == viewport.height()
    # and it stays so: nothing flips again on later event-loop passes
    asked = body.asked
    for _ in range(10):
        QtWidgets.QApplication.processEvents()
    assert body.asked == asked


def test_an_ordinary_widget_is_sized_as_by_qt(qtbot):
    """Without a flip-flop the steady area sizes its widget exactly as QScrollArea does."""
    sizes = []
    for cls in (QtWidgets.QScrollArea, SteadyScrollArea):
        area = cls()
        qtbot.addWidget(area)
        area.setWidgetResizable(True)
        area.resize(400, 300)
        body = QtWidgets.QLabel("word " * 400)
        body.setWordWrap(True)
        area.setWidget(body)
        area.show()
        for _ in range(5):
            QtWidgets.QApplication.processEvents()
        sizes.append((body.size().toTuple(), area.verticalScrollBar().maximum()))
        if isinstance(area, SteadyScrollArea):
            assert area.flip_flops == 0
    assert sizes[0] == sizes[1]
    assert sizes[0][1] > 0  # (a long text: it scrolls)
