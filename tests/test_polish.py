"""Smaller live-use fixes (issue 13, item 12): no hover hint for the audience, no glyphs
that render as boxes, readable dark-theme controls, every ALiBi mosaic tile's first and
last position ticked."""

from __future__ import annotations

import contextlib
import re

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets
from tiers import FULL, gate_cover

from core.viewdata import ComputeContext
from core.views import compute_view, get_view
from gui import theme
from gui.widgets.view_widget import ViewWidget


def _luminance(colour: str) -> float:
    """WCAG 2 relative luminance of ``#rrggbb``."""
    channels = [int(colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two colours (1 … 21)."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_formula():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#0072B2", "#111418") == pytest.approx(3.56, abs=0.01)  # the issue's


@pytest.mark.parametrize("name", ["light", "dark"])
def test_main_blue_reads_on_the_background(name):
    from gui.plotting.plot_data import series_color

    t = theme.THEMES[name]
    blue = series_color(0, t)
    assert blue == t.primary
    assert contrast(blue, t.background) >= 4.5
    assert contrast(blue, t.chrome) >= 4.5


def test_dark_controls_are_styled_visibly():
    dark = theme.DARK
    css = theme.stylesheet(dark)
    assert contrast(dark.control, dark.chrome) >= 3.0  # WCAG non-text contrast
    assert contrast(dark.foreground, "#2c3238") >= 4.5  # spin-box arrows on their buttons
    groove = re.search(r"QSlider::groove:horizontal \{([^}]*)\}", css)
    assert groove and dark.control in groove.group(1)
    indicator = re.search(r"QCheckBox::indicator[^{]*\{([^}]*)\}", css)
    assert indicator and f"solid {dark.control}" in indicator.group(1)
    for arrow in ("up-arrow", "down-arrow"):
        rule = re.search(rf"QAbstractSpinBox::{arrow} \{{[^}}]*url\(([^)]+)\)", css)
        assert rule, arrow
        with open(rule.group(1), encoding="utf-8") as handle:
            assert f'fill="{dark.foreground}"' in handle.read()


@contextlib.contextmanager
def _shown_pair(qapp, sheet: str, first: QtWidgets.QWidget, second: QtWidgets.QWidget):  # type: ignore[no-untyped-def]
    """``first`` and ``second`` side by side in a shown box styled by ``sheet``, events
    processed; the box is closed after the block."""
    box = QtWidgets.QWidget()
    box.setStyleSheet(sheet)
    layout = QtWidgets.QHBoxLayout(box)
    layout.addWidget(first)
    layout.addWidget(second)
    box.show()
    try:
        qapp.processEvents()
        yield
    finally:
        box.close()
        box.deleteLater()


def _text_ink(button: QtWidgets.QPushButton) -> float:
    """How far the pixel furthest from the button's own colour is from it, in WCAG
    luminance (its text's ink: 0.86 for the dark theme's light text on its button)."""
    from PySide6 import QtGui

    from gui.render.cell_values import relative_luminance

    image = button.grab().toImage().convertToFormat(QtGui.QImage.Format.Format_RGB888)
    w, h = image.width(), image.height()
    rows = np.frombuffer(bytes(image.constBits()), np.uint8).reshape(h, image.bytesPerLine())
    luminance = relative_luminance(rows[:, : 3 * w].reshape(h, w, 3))
    return float(np.max(np.abs(luminance - np.median(luminance))))


@pytest.mark.parametrize("name", ["light", "dark"])
def test_disabled_buttons_are_dimmed(qapp, name):
    """A disabled button's text is plainly dimmer than an enabled one's in both themes.
    The dark style sheet's colour was every state's: the training lab's Pause and
    Cancel while nothing runs drew their text as Start's (ink 0.86 both; now 0.17;
    light: 0.37 against 0.89)."""
    enabled, disabled = QtWidgets.QPushButton("Cancel"), QtWidgets.QPushButton("Cancel")
    disabled.setEnabled(False)
    with _shown_pair(qapp, theme.stylesheet(theme.THEMES[name]), enabled, disabled):
        on, off = _text_ink(enabled), _text_ink(disabled)
        assert on > 0.5 and off < 0.6 * on, (on, off)


def _ink_size(widget: QtWidgets.QWidget, rect: QtCore.QRect) -> tuple[int, int]:
    """Width and height of what is drawn in ``rect`` of ``widget`` in a colour far from
    its background (a spin button's arrow, not the button's shading or edges)."""
    from gui.render.cell_values import relative_luminance

    image = widget.grab(rect).toImage().convertToFormat(QtGui.QImage.Format.Format_RGB888)
    w, h = image.width(), image.height()
    rows = np.frombuffer(bytes(image.constBits()), np.uint8).reshape(h, image.bytesPerLine())
    luminance = relative_luminance(rows[:, : 3 * w].reshape(h, w, 3))
    ink = np.abs(luminance - np.median(luminance)) > 0.6
    cols, lines = np.nonzero(ink.any(axis=0))[0], np.nonzero(ink.any(axis=1))[0]
    if not cols.size:
        return 0, 0
    return int(cols[-1] - cols[0] + 1), int(lines[-1] - lines[0] + 1)


def _control_sizes(name: str, scale: float) -> dict[str, tuple[int, int]]:
    """Measured sizes (width, height in px) of a check box's indicator, a spin box's up
    and down buttons, a combo box's arrow, a vertical scroll bar and a horizontal
    slider's handle, groove and widget, laid out under the window's style sheet for
    theme ``name`` at UI ``scale``."""
    from dataclasses import replace

    style_ = QtWidgets.QStyle
    box = QtWidgets.QWidget()
    box.setStyleSheet(theme.stylesheet(replace(theme.THEMES[name], ui_scale=scale)))
    layout = QtWidgets.QHBoxLayout(box)
    check, spin, combo = QtWidgets.QCheckBox("Causal"), QtWidgets.QSpinBox(), QtWidgets.QComboBox()
    check.setChecked(True)
    combo.addItems(["half", "interleaved"])
    area = QtWidgets.QScrollArea()
    area.setVerticalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
    slider = QtWidgets.QSlider(QtCore.Qt.Orientation.Horizontal)
    slider.setValue(40)
    slider.setMinimumWidth(200)  # (a handle measured on a slider longer than it)
    for widget in (check, spin, combo, area, slider):
        layout.addWidget(widget)
    box.resize(1200, 300)
    box.show()
    try:
        QtWidgets.QApplication.processEvents()
        button = QtWidgets.QStyleOptionButton()
        check.initStyleOption(button)
        indicator = check.style().subElementRect(
            style_.SubElement.SE_CheckBoxIndicator, button, check
        )
        spin_opt = QtWidgets.QStyleOptionSpinBox()
        spin.initStyleOption(spin_opt)
        sizes = {"indicator": indicator.size()}
        combo_opt = QtWidgets.QStyleOptionComboBox()
        combo.initStyleOption(combo_opt)
        sizes["combo arrow"] = (
            combo.style()
            .subControlRect(
                style_.ComplexControl.CC_ComboBox,
                combo_opt,
                style_.SubControl.SC_ComboBoxArrow,
                combo,
            )
            .size()
        )
        sizes["scroll bar"] = area.verticalScrollBar().size()
        slider_opt = QtWidgets.QStyleOptionSlider()
        slider.initStyleOption(slider_opt)
        cc, sc = style_.ComplexControl, style_.SubControl
        for key, widget, control, opt, sub in (
            ("up", spin, cc.CC_SpinBox, spin_opt, sc.SC_SpinBoxUp),
            ("down", spin, cc.CC_SpinBox, spin_opt, sc.SC_SpinBoxDown),
            ("slider handle", slider, cc.CC_Slider, slider_opt, sc.SC_SliderHandle),
            ("slider groove", slider, cc.CC_Slider, slider_opt, sc.SC_SliderGroove),
        ):
            sizes[key] = widget.style().subControlRect(control, opt, sub, widget).size()
        sizes["slider"] = slider.size()
        measured = {key: (size.width(), size.height()) for key, size in sizes.items()}
        up = spin.style().subControlRect(
            style_.ComplexControl.CC_SpinBox, spin_opt, style_.SubControl.SC_SpinBoxUp, spin
        )
        measured["up arrow"] = _ink_size(spin, up.adjusted(1, 1, -1, -1))
        return measured
    finally:
        box.close()
        box.deleteLater()


@pytest.mark.parametrize(
    "name, scale",
    gate_cover(
        [("light", 2.0), ("dark", 2.0), ("light", 3.0), ("dark", 3.0)],
        keep={("light", 2.0)},
        unpack=True,
    ),
)
def test_controls_grow_with_the_ui_scale(window, name, scale):
    """Check boxes, spin-box buttons and their arrows, combo-box arrows and scroll bars
    grow with the UI scale as the text does (a lecturer's mouse targets on the
    projector). They stayed at their 100 % size: at 200 % the light theme's check box
    14 x 14 px beside 22 pt text (now 28), spin buttons 14 px wide (28) with a 6 x 3 px
    arrow (14 x 8), the scroll bar 14 px (28); the dark theme's check box 18 px (32);
    a slider's handle 15 x 15 px in a 7 px groove (30 x 30 in 14; dark: 16 x 16 on a
    4 px groove, now 32 x 32 on 8). ``window`` installs the application's style."""
    small, large = _control_sizes(name, 1.0), _control_sizes(name, scale)
    least = 0.8 * scale  # (a border of fixed width grows less than the rest)
    for key in ("indicator", "up", "down", "combo arrow", "up arrow", "slider handle"):
        assert large[key][0] >= least * small[key][0], (key, small[key], large[key])
    for key in ("indicator", "up", "down", "up arrow", "slider handle", "slider groove"):
        assert large[key][1] >= least * small[key][1], (key, small[key], large[key])
    assert large["scroll bar"][0] >= least * small["scroll bar"][0], (small, large)
    # the slider as thick as its handle, which is not cut
    assert large["slider"][1] >= large["slider handle"][1], (small, large)


@pytest.mark.parametrize("name", ["light", "dark"])
def test_a_slider_is_as_thick_as_its_handle_at_100_percent(window, name):
    """At 100 % the slider's handle is drawn whole: the dark sheet's 16 x 16 px handle
    (12 px and a 2 px ring) stood in Fusion's 15 px slider, the bottom row of its ring
    cut off (``window`` installs the application's style)."""
    sizes = _control_sizes(name, 1.0)
    handle, slider = sizes["slider handle"], sizes["slider"]
    assert handle[0] >= 15 and handle[1] >= 15, sizes
    assert slider[1] >= handle[1], sizes


def _indicator_pixels(check: QtWidgets.QCheckBox) -> np.ndarray:
    """RGB pixels (h, w, 3) inside the border of ``check``'s drawn indicator."""
    option = QtWidgets.QStyleOptionButton()
    check.initStyleOption(option)
    rect = check.style().subElementRect(
        QtWidgets.QStyle.SubElement.SE_CheckBoxIndicator, option, check
    )
    inset = max(2, rect.width() // 6)  # (the border: 1 px in Fusion, 2 in the dark sheet)
    image = check.grab(rect.adjusted(inset, inset, -inset, -inset)).toImage()
    image = image.convertToFormat(QtGui.QImage.Format.Format_RGB888)
    w, h = image.width(), image.height()
    rows = np.frombuffer(bytes(image.constBits()), np.uint8).reshape(h, image.bytesPerLine())
    return rows[:, : 3 * w].reshape(h, w, 3)


def _mark(pixels: np.ndarray) -> np.ndarray:
    """Where ``pixels`` contrast at least 3:1 (WCAG non-text contrast) with their most
    common colour (the indicator's fill): the drawn tick."""
    from gui.render.cell_values import relative_luminance

    colours, counts = np.unique(pixels.reshape(-1, 3), axis=0, return_counts=True)
    fill = relative_luminance(colours[np.argmax(counts)])
    lum = relative_luminance(pixels)
    return (np.maximum(lum, fill) + 0.05) / (np.minimum(lum, fill) + 0.05) >= 3.0


@pytest.mark.parametrize(
    "name, scale",
    gate_cover(
        [("light", 1.0), ("dark", 1.0), ("light", 2.0), ("dark", 2.0), ("dark", 3.0)],
        keep={("dark", 1.0), ("light", 2.0), ("dark", 2.0)},
        unpack=True,
    ),
)
def test_a_checked_box_shows_a_tick(qapp, name, scale):
    """A checked box draws a tick that contrasts with its indicator's fill, an unchecked
    one none, in both themes at every scale. The dark sheet's checked indicator was a
    plain blue square (#4C8DFF: 0 px inside its border contrasting with it); now a tick
    in the background's colour (5.8:1 on the blue), 45 px of the 12 x 12 inside at
    100 %, 175 of 22 x 22 at 200 %, spanning the box."""
    from dataclasses import replace

    checked, unchecked = QtWidgets.QCheckBox("Causal"), QtWidgets.QCheckBox("Causal")
    checked.setChecked(True)
    sheet = theme.stylesheet(replace(theme.THEMES[name], ui_scale=scale))
    with _shown_pair(qapp, sheet, checked, unchecked):
        on, off = _indicator_pixels(checked), _indicator_pixels(unchecked)
        assert on.shape == off.shape and on.shape[0] >= 8 * scale, on.shape
        tick, nothing = _mark(on), _mark(off)
        assert not nothing.any(), (name, scale, int(nothing.sum()))
        rows, cols = np.nonzero(tick)
        assert rows.size >= 2 * on.shape[0], (name, scale, rows.size)  # a stroke, not a dot
        # across most of the box, both ways (a tick, not a dot or a line)
        assert np.ptp(cols) >= 0.5 * on.shape[1] and np.ptp(rows) >= 0.4 * on.shape[0], (
            name,
            scale,
            np.ptp(cols),
            np.ptp(rows),
            on.shape,
        )


def test_play_button_uses_words_and_a_drawn_icon(window, qtbot):
    sweep = window.lecture.sweep
    button = sweep.play_button
    assert button.text() == "Play" and not button.icon().isNull()
    window.set_view("rope")
    sweep.play()
    assert button.text() == "Pause" and not button.icon().isNull()
    sweep.stop()
    assert button.text() == "Play"


def test_no_media_glyphs_in_the_gui_sources():
    from pathlib import Path

    gui = Path(__file__).resolve().parent.parent / "gui"
    for path in gui.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "⏸" not in text and "▶" not in text, path
        # (nor written as escapes: a deck list's current-scene mark came as "\u25b6")
        assert "\\u23f8" not in text.lower() and "\\u25b6" not in text.lower(), path


@FULL
def test_hover_hint_hidden_while_presenting(window, qtbot):
    widget = window.view_widget(window.current_view)
    assert widget.status.text() == ViewWidget.HOVER_HINT
    display = window.lecture.display
    display.enter_presentation(fullscreen=False)
    assert window.wait_idle()
    assert ViewWidget.HOVER_HINT not in widget.status.text()
    window.set_view("rope")  # a view shown for the first time while presenting
    assert window.wait_idle()
    rope = window.view_widget("rope")
    assert ViewWidget.HOVER_HINT not in rope.status.text()
    display.leave_presentation()
    assert window.wait_idle()
    assert widget.status.text() == ViewWidget.HOVER_HINT


def view_default(name: str) -> int:
    from core.views import get_view

    return int(get_view("alibi").model.defaults()[name])


@pytest.mark.parametrize("heads", [4, 6, 8, 12, 16])
def test_alibi_mosaic_ticks_every_tile_first_and_last(heads):
    params = get_view("alibi").model.validate({"heads": heads}, partial=True)
    view = compute_view("alibi", params, ComputeContext(max_cells=256, max_points=512))
    panel = view.panel("heads")
    image = panel.image
    assert int(panel.tiles[0].x_coords[-1]) == view_default("seq_len") - 1
    empty = np.isnan(image)
    # tile extents from the NaN gaps: runs of columns / rows that hold data
    for ticks, has_data in (
        (panel.x_ticks, ~empty.all(axis=0)),
        (panel.y_ticks, ~empty.all(axis=1)),
    ):
        edges = np.flatnonzero(np.diff(np.r_[0, has_data.astype(int), 0]))
        starts, ends = edges[::2], edges[1::2] - 1
        placed = {int(pos): label for pos, label in ticks}
        last = str(int(panel.tiles[0].x_coords[-1]))
        assert starts.size > 1
        for s, e in zip(starts, ends, strict=True):
            assert placed.get(int(s)) == "0", (heads, s)
            assert placed.get(int(e)) == last, (heads, e)


@FULL
def test_titles_wrap_instead_of_eliding_at_200_percent(window, qtbot):
    from core.formula import label_rich_text, minus_signs
    from core.views import VIEWS

    window.resize(1920, 1080)
    window.lecture.display.set_scale(2.0)
    assert window.wait_idle()
    wrapped = 0
    for view_id in VIEWS:
        window.set_view(view_id)
        assert window.wait_idle()
        widget = window.view_widget(view_id)
        for _ in range(3):  # axes learn their labels' sizes when painted, then re-lay out
            widget.canvas.grab()
            QtWidgets.QApplication.processEvents()
        assert widget.data is not None, view_id
        for panel in widget.data.panels:
            label = widget.plots[panel.key].plot.titleLabel
            shown = label.text
            assert "…" not in shown, (view_id, panel.key, shown)
            # drawn as rich text: m_h as m with a subscript h (core.formula), a value's
            # minus as U+2212 ("atan2 −73.5°")
            title = minus_signs(panel.title)
            assert shown.replace("<br>", " ") == label_rich_text(title), (view_id, panel.key)
            wrapped += "<br>" in shown
            # the title row is as tall as the text: no line is cut off
            assert label.height() >= label.itemRect().height() - 0.5, (view_id, panel.key)
            plain = label.item.toPlainText().replace("\u2028", " ").replace("\n", " ")
            drawn = QtGui.QTextDocumentFragment.fromHtml(label_rich_text(title))
            assert plain == drawn.toPlainText(), (view_id, panel.key)
    assert wrapped > 0  # long titles (ALiBi softmax row, Compare, ...) did need two lines
