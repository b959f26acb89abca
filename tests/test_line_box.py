"""LineBox (gui/widgets/line_box.py): a label's new text re-lays out its layout only when
the label's size needs change (a view's notes line follows the slider on every frame)."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from gui.widgets.line_box import LineBox


class _Requests(QtCore.QObject):
    """Counts the layout requests a widget receives."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        if event.type() == QtCore.QEvent.Type.LayoutRequest:
            self.count += 1
        return False


def _column(qtbot, boxed: bool):
    top = QtWidgets.QWidget()
    qtbot.addWidget(top)
    layout = QtWidgets.QVBoxLayout(top)
    layout.addWidget(QtWidgets.QLabel("above"))
    label = QtWidgets.QLabel("value 1.25 at m = 10")
    label.setWordWrap(True)
    below = QtWidgets.QLabel("below")
    layout.addWidget(LineBox(label, top) if boxed else label)
    layout.addWidget(below)
    layout.addStretch(1)  # each label at its own height
    top.resize(300, 400)
    top.show()
    qtbot.waitExposed(top)
    QtWidgets.QApplication.processEvents()
    requests = _Requests()
    top.installEventFilter(requests)
    return top, label, below, requests


def test_a_text_in_the_same_room_leaves_the_layout_alone(qtbot):
    # the same layout with the bare label: each new text requests a re-layout
    _top, label, _below, requests = _column(qtbot, boxed=False)
    label.setText("value 1.50 at m = 11")
    QtWidgets.QApplication.processEvents()
    assert requests.count == 1
    top, label, below, requests = _column(qtbot, boxed=True)
    box = label.parentWidget()
    where = (box.geometry(), label.geometry(), below.geometry())
    for m in range(11, 16):
        label.setText(f"value 1.{m} at m = {m}")
        QtWidgets.QApplication.processEvents()
    assert requests.count == 0
    assert (box.geometry(), label.geometry(), below.geometry()) == where
    assert label.text() == "value 1.15 at m = 15"


def test_a_longer_text_a_minimum_height_and_hiding_reach_the_layout(qtbot):
    top, label, below, _requests = _column(qtbot, boxed=True)
    box = label.parentWidget()
    one_line = label.height()
    label.setText(" ".join(["a longer note that wraps"] * 6))
    QtWidgets.QApplication.processEvents()
    assert label.height() > one_line  # the box grew with it
    assert label.geometry() == box.rect()
    assert below.geometry().top() >= box.geometry().bottom()
    label.setMinimumHeight(label.height() + 40)
    QtWidgets.QApplication.processEvents()
    assert box.height() == label.height() >= label.minimumHeight()
    top_before = below.geometry().top()
    label.hide()
    QtWidgets.QApplication.processEvents()
    assert not box.isVisible()
    assert below.geometry().top() < top_before  # the room is given back
    label.show()
    QtWidgets.QApplication.processEvents()
    assert box.isVisible() and below.geometry().top() == top_before


def test_a_new_text_is_laid_out_once_at_the_width_and_a_new_font_again(qtbot):
    """The box read the label's height at its width for its own needs, again for the
    label's posted request and again for the layout: the same new text laid out three
    times (~0.1 ms each for a view's notes at 150 %). A new font or size measures anew,
    and the box follows it."""
    _top, label, below, _requests = _column(qtbot, boxed=True)
    box = label.parentWidget()
    widths: list[int] = []
    real = label.heightForWidth
    label.heightForWidth = lambda w: (widths.append(w), real(w))[1]  # a spy
    label.setText(" ".join(["a note that wraps"] * 5))
    QtWidgets.QApplication.processEvents()
    assert widths == [box.width()]
    assert box.height() == real(box.width())
    widths.clear()
    before = box.height()
    label.setStyleSheet("font-size: 16pt;")  # the same text, larger
    QtWidgets.QApplication.processEvents()
    assert widths  # measured again
    assert box.height() > before
    assert box.height() == label.height() == real(box.width())
    assert below.geometry().top() >= box.geometry().bottom()
