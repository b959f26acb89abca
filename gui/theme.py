"""Themes: light/dark colours, UI scale (fonts, line widths, markers) and colormaps.

One :class:`Theme` is current at a time; plots read it when they draw. Colormaps are
colour-blind safe: viridis/cividis for ordered values, a blue–white–red diverging map
(CET-D1A) for signed values.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pyqtgraph as pg
from PySide6 import QtGui

SEQUENTIAL_MAPS = ("viridis", "cividis", "plasma", "inferno", "magma")
DIVERGING_MAPS = ("CET-D1A", "CET-D1", "PAL-relaxed_bright")


@dataclass(frozen=True)
class Theme:
    """Colours and sizes used by every plot.

    Attributes
    ----------
    name
        ``light`` or ``dark``.
    ui_scale
        1.0 = 100 %; presentation mode uses up to 3.0 (fonts, lines, markers scale).
    sequential, diverging
        Colormap names for ordered and signed values.
    """

    name: str = "light"
    background: str = "#ffffff"
    foreground: str = "#1a1a1a"
    grid: str = "#9a9a9a"
    ui_scale: float = 1.0
    sequential: str = "viridis"
    diverging: str = "CET-D1A"

    @property
    def line_width(self) -> float:
        return 2.0 * self.ui_scale

    def scaled(self, size: float) -> int:
        """A pixel size scaled by the UI scale."""
        return max(1, int(round(size * self.ui_scale)))

    def font_pt(self, pt: float) -> int:
        """A point size scaled by the UI scale (projector-readable at 100 %)."""
        return max(6, int(round(pt * self.ui_scale)))

    def font(self, pt: float, bold: bool = False) -> QtGui.QFont:
        font = QtGui.QFont()
        font.setPointSize(self.font_pt(pt))
        font.setBold(bold)
        return font

    def colormap(self, kind: str) -> pg.ColorMap:
        """The colormap for a panel's ``colormap`` kind."""
        name = self.diverging if kind == "diverging" else self.sequential
        return pg.colormap.get(name)


LIGHT = Theme()
DARK = Theme("dark", background="#111418", foreground="#f2f2f2", grid="#7a7a7a")
THEMES = {"light": LIGHT, "dark": DARK}

_current = LIGHT


def current_theme() -> Theme:
    """The theme plots draw with."""
    return _current


def set_theme(
    name: str | None = None,
    *,
    ui_scale: float | None = None,
    sequential: str | None = None,
    diverging: str | None = None,
) -> Theme:
    """Change the current theme (only the given fields) and return it."""
    global _current
    base = THEMES[name] if name else _current
    changes: dict = {}
    for key, value in (
        ("ui_scale", ui_scale if ui_scale is not None else _current.ui_scale),
        ("sequential", sequential or _current.sequential),
        ("diverging", diverging or _current.diverging),
    ):
        changes[key] = value
    if not 0.5 <= changes["ui_scale"] <= 3.0:
        raise ValueError("ui scale must be between 50 % and 300 %")
    if changes["sequential"] not in SEQUENTIAL_MAPS:
        raise ValueError(f"sequential colormap must be one of {', '.join(SEQUENTIAL_MAPS)}")
    if changes["diverging"] not in DIVERGING_MAPS:
        raise ValueError(f"diverging colormap must be one of {', '.join(DIVERGING_MAPS)}")
    _current = replace(base, **changes)
    return _current


def stylesheet(theme: Theme) -> str:
    """Qt style sheet for the window chrome in ``theme`` (panel, labels, lists)."""
    pt = theme.font_pt(11)
    if theme.name == "dark":
        return (
            f"QWidget {{ background: #1b1f24; color: {theme.foreground}; "
            f"font-size: {pt}pt; }} QLineEdit, QSpinBox, QDoubleSpinBox, QComboBox, "
            "QListWidget { background: #262b31; border: 1px solid #3a4048; } "
            "QToolTip { color: #f2f2f2; background: #262b31; }"
        )
    return f"QWidget {{ font-size: {pt}pt; }}"
