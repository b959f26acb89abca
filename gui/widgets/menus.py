"""Menus as wide as their entries at every UI scale.

Fusion draws a menu item's check column as wide as ~0.79 of the item's height, but
sizes the menu with a check column of its 100 % width: at a UI scale above 100 % (the
style sheet's larger ``font-size``, taller items) the text of a menu's widest entry had
less room than it needs and was elided (the View ▸ UI scale entries read "1…%" and
"2…%" at 200 %). :func:`fit_menus` gives each menu the difference as its minimum width
when it opens.
"""

from __future__ import annotations

import math

from PySide6 import QtWidgets

#: Fusion's check column at 100 % (the width its menu size assumes), in pixels
_CHECK_COLUMN = 21
#: Fusion's check column's width per pixel of item height when it is drawn
_CHECK_PER_HEIGHT = 0.79
_FITTED = "pe-studio-fitted-menu"


def check_column_shortfall(menu: QtWidgets.QMenu) -> int:
    """How many pixels wider than its own size hint ``menu`` must be for its entries'
    text to read in full (0 at 100 %, where items are short)."""
    heights = [
        menu.actionGeometry(a).height()
        for a in menu.actions()
        if a.isVisible() and not a.isSeparator()
    ]
    if not heights:
        return 0
    return max(0, math.ceil(max(heights) * _CHECK_PER_HEIGHT) - _CHECK_COLUMN)


def fit_menu(menu: QtWidgets.QMenu) -> None:
    """Make ``menu`` as wide as its entries need (its size hint plus the shortfall)."""
    menu.setMinimumWidth(0)
    shortfall = check_column_shortfall(menu)
    menu.setMinimumWidth(menu.sizeHint().width() + shortfall if shortfall else 0)


def fit_menus(root: QtWidgets.QWidget) -> None:
    """Fit every menu under ``root`` (see :func:`fit_menu`) each time it opens (once
    per menu: a menu already fitted is left as it is)."""
    for menu in root.findChildren(QtWidgets.QMenu):
        if not menu.property(_FITTED):
            menu.setProperty(_FITTED, True)
            menu.aboutToShow.connect(lambda m=menu: fit_menu(m))
