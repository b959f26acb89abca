"""The formula line never gets shorter while a drag or a sweep goes on, and keeps its
size: each frame's formula is drawn as it is settled, and the line grows for one that
needs more room. Settled, it takes its own height; a drag's last frame is laid out as
the settled one, so nothing moves when it ends (unless the value shown last needs less
room than the drag's tallest).

Lecture scene 5 ("Watch the base grow") sweeps Sinusoidal's base up from 100. On the
1920 x 1080 stage at 200 % (a formula line 1874 px wide) the formula is 122 px at base
100, 132 px from 250 on (the longest wavelength written "1.11·10³": a superscript) and
138 px at 10000 (the subscripted "ω_1" term wraps onto the second line). The hold kept
the line at 122 px and drew the taller formulas smaller (0.9, then 0.8 of their size)
for the rest of the sweep; once it was over the formula took its own size and the plots
jumped down 16 px. Reserving a script's room on every line instead made every settled
formula taller (lecture scene 16 scrolled on the 150 % stage) and was reverted.
"""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from core.viewdata import ComputeContext
from core.views import VIEWS
from gui.theme import set_theme

pytestmark = pytest.mark.usefixtures("drags_end_when_the_test_says")

SPEC = VIEWS["sinusoidal"]
# the geometric sweep's values (core.schedule.swept rounds them to 4 digits)
SWEEP = (150.0, 251.2, 398.1, 1000.0, 2512.0, 10000.0)


def _widget(qtbot):  # type: ignore[no-untyped-def]
    from gui.widgets.view_widget import ViewWidget

    set_theme(ui_scale=2.0)  # (the conftest restores the theme)
    widget = ViewWidget(SPEC)
    qtbot.addWidget(widget)
    widget.resize(1900, 1300)  # the formula line 1874 px wide, as on the 200 % stage
    widget.show()
    return widget


def _show(widget, base: float, *, live: bool) -> None:  # type: ignore[no-untyped-def]
    params = SPEC.model.validate({"base": base}, partial=True)
    widget.show_data(SPEC.compute(params, ComputeContext(64, 128)), live=live)
    widget.flush_text()
    QtWidgets.QApplication.processEvents()


def _canvas_top(widget) -> int:  # type: ignore[no-untyped-def]
    return widget.canvas.mapTo(widget, QtCore.QPoint(0, 0)).y()


def test_a_swept_base_keeps_the_formulas_size_and_nothing_moves_when_it_ends(qtbot):
    widget = _widget(qtbot)
    formula = widget.formula
    settled: dict[float, tuple[int, int]] = {}  # base -> (formula height, canvas top)
    for base in (100.0, 251.2, 10000.0):  # each value shown settled (no drag)
        _show(widget, base, live=False)
        settled[base] = (formula.height(), _canvas_top(widget))
    # the figures of the stage: a superscript, then one more subscripted term on line 2
    assert [h for h, _top in settled.values()] == [122, 132, 138], settled
    _show(widget, 100.0, live=False)
    top = _canvas_top(widget)
    assert (formula.height(), top) == settled[100.0]
    frames = []
    for base in SWEEP:
        _show(widget, base, live=True)
        frames.append((base, formula.height(), _canvas_top(widget), formula.fit_scale()))
    # every formula at its own size (drawn at 0.9 and 0.8 in the held 122 px before),
    # the line as tall as the tallest so far: it grows with the values, never shrinks
    assert all(s == 1.0 for _b, _h, _y, s in frames), frames
    assert [(b, h, y - top) for b, h, y, _s in frames] == [
        (150.0, 122, 0),
        (251.2, 132, 10),
        (398.1, 132, 10),
        (1000.0, 132, 10),
        (2512.0, 132, 10),
        (10000.0, 138, 16),
    ]
    assert "10000^" in formula.markup()  # (the latest value is shown)
    _show(widget, 150.0, live=True)  # back: the line keeps its height, the formula its size
    assert (formula.height(), _canvas_top(widget), formula.fit_scale()) == (138, top + 16, 1.0)
    _show(widget, 10000.0, live=True)
    widget.finish_live_frame()  # the sweep is over: nothing moves (its own height)
    QtWidgets.QApplication.processEvents()
    assert (formula.height(), _canvas_top(widget)) == settled[10000.0] == (138, top + 16)
    assert formula.fit_scale() == 1.0 and formula.minimumHeight() == 0


def test_a_drag_back_keeps_the_height_and_settles_to_the_values_own(qtbot):
    """Dragged down from a taller formula: the line keeps its height through the drag
    (as before) and is as tall as the value's own formula once settled."""
    widget = _widget(qtbot)
    formula = widget.formula
    _show(widget, 10000.0, live=False)
    top = _canvas_top(widget)
    for base in reversed(SWEEP[:-1]):
        _show(widget, base, live=True)
        assert (formula.height(), _canvas_top(widget), formula.fit_scale()) == (138, top, 1.0)
    _show(widget, 100.0, live=True)
    widget.finish_live_frame()
    QtWidgets.QApplication.processEvents()
    assert formula.height() == 122 and formula.minimumHeight() == 0


def _label(qtbot, markup: str, width: int = 400):  # type: ignore[no-untyped-def]
    from gui.render.formula_label import FormulaLabel

    label = FormulaLabel()
    qtbot.addWidget(label)
    label.set_point_size(13)
    label.setText(markup)
    label.resize(width, label.heightForWidth(width))
    label.show()
    return label


def test_a_held_label_grows_for_a_taller_formula_at_its_own_size(qtbot):
    """Held, a taller formula is laid out at full size (drawn smaller to the held height
    before, and at that size for the rest of the drag); a shorter one leaves the
    held height below it; released, the label takes the formula's own height."""
    plain = "ω_1 = 0.7499,  wavelengths 6.28 … 353"
    power = "ω_1 = 0.7082,  wavelengths 6.28 … 1.11·10^{3}"
    label = _label(qtbot, plain)
    own = {m: label.heightForWidth(400) for m in (plain, power)}
    label.setText(power)
    own[power] = label.heightForWidth(400)
    label.setText(plain)
    assert own[power] > own[plain]  # the superscript raises the line
    label.hold_height()
    assert label.held_height() == own[plain]
    label.setText(power)
    assert label.heightForWidth(400) == own[power] and label.fit_scale() == 1.0
    label.resize(400, label.heightForWidth(400))  # (the layout gives it its height)
    label.hold_height()  # (the next frame holds that height)
    assert label.held_height() == own[power] == label.minimumHeight()
    label.setText(plain)  # (shorter: the label keeps the held height, the formula its size)
    assert label.heightForWidth(400) == own[plain] < label.minimumHeight()
    assert label.fit_scale() == 1.0
    label.setText(power)
    assert label.release_height() and not label.release_height()
    assert label.minimumHeight() == 0
    assert label.heightForWidth(400) == own[power] and label.fit_scale() == 1.0


def test_a_held_label_draws_at_the_size_the_maximum_height_allows(qtbot):
    """The short screen's limit (set_max_height) still draws a formula smaller, held or
    not, and the same as settled: the hold no longer limits it."""
    label = _label(qtbot, "  ".join(f"b_{i} = {i}" for i in range(12)))
    label.hold_height()
    held = label.held_height()
    assert label.fit_scale() == 1.0 and held > 60  # (lines at full size)
    label.set_max_height(round(held * 0.8))
    assert label.heightForWidth(400) <= round(held * 0.8) and label.fit_scale() < 1.0
    smaller = (label.heightForWidth(400), label.fit_scale())  # (laid out, then read)
    label.set_max_height(0)
    assert label.heightForWidth(400) == held and label.fit_scale() == 1.0  # (its own)
    label.set_max_height(round(held * 0.8))
    label.release_height()
    assert (label.heightForWidth(400), label.fit_scale()) == smaller  # (as when held)


def test_an_image_of_a_held_label_is_drawn_within_it(qtbot):
    """The taller formula a held label shows is drawn inside the height it asks for
    (nothing cut off at its bottom edge) and taller than the height held."""
    label = _label(qtbot, "ω_1 = 0.7499,  wavelengths 6.28 … 353")
    label.hold_height()
    held = label.held_height()
    label.setText("ω_1 = 0.7082,  wavelengths 6.28 … 1.11·10^{3}")
    label.resize(label.width(), label.heightForWidth(label.width()))  # (its layout's)
    image = QtGui.QImage(label.size(), QtGui.QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QtGui.QPainter(image)
    label.draw(painter)
    painter.end()
    bottom = max(
        (y for y in range(image.height()) for x in range(image.width()) if image.pixel(x, y)),
        default=-1,
    )
    assert 0 < bottom < label.height() - label.MARGIN and label.height() > held


@pytest.mark.parametrize("source", ["slider held", "sweep playing"])
def test_a_pause_in_the_live_frames_keeps_the_formula_held(qtbot, monkeypatch, source):
    """A drag paused with the slider still held, or a sweep's frame slower than 150 ms
    on a loaded machine, ends the live frames (full quality after 150 ms without a
    frame), not the formula line's hold: the plots moved while the slider was held
    (Xvfb, 1600 x 1000 window, Sinusoidal's base dragged from 2) and mid-sweep
    (lecture scene 5 on the 200 % stage: 202 -> 212 px). Let go, or the sweep
    stopped, it takes its own height."""
    import gui.widgets.view_widget as view_widget

    widget = _widget(qtbot)
    formula = widget.formula
    _show(widget, 100.0, live=False)
    top = _canvas_top(widget)
    held = [True]
    if source == "slider held":
        monkeypatch.setattr(view_widget, "button_down", lambda: held[0])
    else:
        monkeypatch.setattr(view_widget, "button_down", lambda: False)
        widget.text_every_frame = True  # (as the sweep sets it while it plays)
    _show(widget, 251.2, live=True)  # (its own height: the superscript)
    _show(widget, 150.0, live=True)
    widget.finish_live_frame()  # the pause: full quality, the button still down
    QtWidgets.QApplication.processEvents()
    assert not widget._draft and widget._formula_hold_end.isActive()
    assert (formula.height(), _canvas_top(widget)) == (132, top + 10)
    widget._end_formula_hold()  # (the timer: still held, not its own 122 px)
    QtWidgets.QApplication.processEvents()
    assert (formula.height(), _canvas_top(widget)) == (132, top + 10)
    _show(widget, 10000.0, live=True)  # the drag goes on
    assert not widget._formula_hold_end.isActive()
    widget.finish_live_frame()
    held[0] = widget.text_every_frame = False  # let go, or the sweep stops
    widget._end_formula_hold()
    QtWidgets.QApplication.processEvents()
    assert not widget._formula_hold_end.isActive()
    assert (formula.height(), _canvas_top(widget)) == (138, top + 16)
    assert formula.fit_scale() == 1.0 and formula.minimumHeight() == 0


def test_a_new_width_or_size_ends_the_hold(qtbot):
    """A hold is for the width and font it was taken at: F5, Esc, a resize or a new
    scale mid-sweep lays the formula out at its own height (held on by the next live
    frame), not squeezed into the window's height on the stage."""
    label = _label(qtbot, "ω_1 = 0.7499,  wavelengths 6.28 … 353")
    label.hold_height()
    label.resize(300, label.height())
    assert label.held_height() == 0 and label.minimumHeight() == 0
    label.hold_height()
    assert label.held_height() == label.height()
    label.set_point_size(13)  # (the same size: still held)
    assert label.held_height() == label.height()
    label.set_point_size(26)
    assert label.held_height() == 0 and label.minimumHeight() == 0


def test_a_frame_drawn_in_full_quality_ends_the_hold(qtbot):
    """A frame that is no drag's (a scene's first, one for a new plot area) is laid
    out for its own formula at once."""
    widget = _widget(qtbot)
    formula = widget.formula
    _show(widget, 100.0, live=False)
    _show(widget, 251.2, live=True)
    assert formula.held_height() == 122
    _show(widget, 10000.0, live=False)
    assert formula.held_height() == 0 and formula.height() == 138
