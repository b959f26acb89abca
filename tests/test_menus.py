"""Menus at every UI scale: entries read in full (nothing elided) and View ▸ UI scale
marks the scale in effect."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets
from tiers import gate_cover

from gui.lecture.display import SCALE_CHOICES

pytestmark = [
    pytest.mark.usefixtures("qapp"),
    # (offscreen: a popup raises itself and grabs the keyboard)
    pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing"),
]


def _scale_menu(win) -> QtWidgets.QMenu:  # type: ignore[no-untyped-def]
    view = win.menu("view")
    return next(a.menu() for a in view.actions() if a.menu() and a.text() == "UI scale")


def _pixels(image: QtGui.QImage, width: int, height: int) -> np.ndarray:
    image = image.convertToFormat(QtGui.QImage.Format.Format_RGB32).copy(0, 0, width, height)
    data = np.frombuffer(image.constBits(), np.uint8, image.sizeInBytes())
    return data.reshape(height, image.bytesPerLine())[:, : width * 4].copy()


def _open(menu: QtWidgets.QMenu) -> QtGui.QImage:
    menu.popup(QtCore.QPoint(50, 50))
    QtWidgets.QApplication.processEvents()
    return menu.grab().toImage()


# the gate: a fractional scale and the largest (the widest check column); 100 %, the
# 200 % of the report and the other steps (125, 175, 250 %) with --full
@pytest.mark.parametrize("scale", gate_cover(SCALE_CHOICES, keep=(1.5, 3.0)))
def test_ui_scale_entries_read_in_full(studio, scale):
    """The menu as it opens draws each entry as a much wider menu draws it: at 200 %
    the entries read "1…%" and "2…%" (Fusion's check column outgrew the width the
    menu was sized for)."""
    display = studio.lecture.display
    menu = _scale_menu(studio)
    try:
        display.set_scale(scale)
        opened = _open(menu)
        w, h = opened.width(), opened.height()
        menu.close()
        # the same menu much wider: Qt lays its entries out for its minimum width
        # (fit_menu, connected to aboutToShow, would set its own: not asked here)
        menu.setMinimumWidth(w + 300)
        menu.blockSignals(True)
        wide = _open(menu)
        assert wide.width() >= w + 300
    finally:
        menu.close()
        menu.blockSignals(False)
        menu.setMinimumWidth(0)
        display.set_scale(1.0)
    border = 4  # the narrow menu's right frame, where the wide one has item background
    narrow_px, wide_px = _pixels(opened, w - border, h), _pixels(wide, w - border, h)
    differ = np.any(narrow_px.reshape(h, -1, 4) != wide_px.reshape(h, -1, 4), axis=2)
    assert differ.sum() == 0, f"{differ.sum()} pixels differ from the wide menu at {scale}"


def test_ui_scale_menu_checks_the_scale_in_effect(studio):
    display = studio.lecture.display
    menu = _scale_menu(studio)
    actions = [a for a in menu.actions() if not a.isSeparator()]
    assert [a.text() for a in actions] == [f"{round(s * 100)} %" for s in SCALE_CHOICES]
    assert all(a.isCheckable() for a in actions)
    try:
        for scale in (2.0, 1.25, 3.0):
            display.set_scale(scale)
            assert [a.text() for a in actions if a.isChecked()] == [f"{round(scale * 100)} %"]
        next(a for a in actions if a.text() == "150 %").trigger()
        assert display.active_scale == 1.5
        assert [a.text() for a in actions if a.isChecked()] == ["150 %"]
        display.set_scale(2.25)  # between the choices (Ctrl+= from 200 %): none checked
        assert [a.text() for a in actions if a.isChecked()] == []
        display.zoom_in()  # 250 %, by the shortcut: the menu follows
        assert [a.text() for a in actions if a.isChecked()] == ["250 %"]
        display.enter_presentation(fullscreen=False)  # the presentation scale's entry
        assert [a.text() for a in actions if a.isChecked()] == [
            f"{round(display.present_scale * 100)} %"
        ]
    finally:
        display.leave_presentation()
        display.set_scale(1.0)
