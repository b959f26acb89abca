"""Themes: light/dark colours, UI scale (fonts, line widths, markers) and colormaps.

One :class:`Theme` is current at a time; plots read it when they draw. Colormaps are
colour-blind safe: viridis/cividis for ordered values, a blue–white–red diverging map
(CET-D1A) for signed values.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import cast

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

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
    primary
        The main blue: first data series, slider handles, checked boxes (at least
        4.5:1 contrast on ``background`` and on ``chrome``).
    chrome
        Background of the window chrome (panels, lists) in the dark theme.
    control
        Outlines of controls (slider grooves, spin-box arrows, check boxes): at least
        3:1 contrast on ``chrome`` (WCAG 1.4.11, non-text contrast).
    masked, masked_hatch
        Fill and hatching of a heatmap's masked cells (−∞): neutral, unlike the
        background and, hatched, unlike any colormap's colour.
    disabled
        Text of disabled controls (a Cancel button while nothing runs) in the dark
        theme's style sheet: readable (3.9:1 on ``chrome``) but plainly dimmer than
        ``foreground`` (14.8:1). The light theme keeps the style's own disabled colours.
    """

    name: str = "light"
    background: str = "#ffffff"
    foreground: str = "#1a1a1a"
    grid: str = "#9a9a9a"
    primary: str = "#0072B2"  # Okabe–Ito blue
    chrome: str = "#ffffff"
    control: str = "#767676"
    masked: str = "#c8c8c8"
    masked_hatch: str = "#4a4a4a"
    disabled: str = "#8c8c8c"
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


# CIELAB ΔE (1976) a masked cell's fill keeps at least from every colour of the map
# its heatmap is drawn with (and, less, from the plot's background): told apart at a
# glance, not only by its hatching. The dark theme's #454b52 was 9.5 from cividis's
# middle blue-greys, the light theme's #c8c8c8 11.6 from CET-D1A's near-white centre.
MASKED_DELTA_E = 20.0
MASKED_PICK_DELTA_E = 25.0  # a grey picked instead of the theme's keeps this (a margin)
MASKED_BACKGROUND_DELTA_E = 15.0
MASKED_HATCH_DELTA_L = 40.0  # CIELAB lightness between the fill and its hatching, at least


def cielab(rgb: np.ndarray) -> np.ndarray:
    """CIELAB (D65) of sRGB colours ``rgb`` (``(..., 3)``, 0..255)."""
    c = np.asarray(rgb, dtype=float) / 255.0
    c = np.where(c > 0.04045, ((c + 0.055) / 1.055) ** 2.4, c / 12.92)
    to_xyz = np.array(
        [[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]
    )
    xyz = c @ to_xyz.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16.0 / 116.0)
    return np.stack(
        [
            116.0 * f[..., 1] - 16.0,
            500.0 * (f[..., 0] - f[..., 1]),
            200.0 * (f[..., 1] - f[..., 2]),
        ],
        axis=-1,
    )


def hex_rgb(color: str) -> np.ndarray:
    """``#rrggbb`` as its three channels (0..255)."""
    return np.array([int(color[i : i + 2], 16) for i in (1, 3, 5)], dtype=float)


def map_distance(color: str, map_name: str) -> float:
    """The smallest CIELAB ΔE between ``color`` (``#rrggbb``) and the 256 colours of
    the colormap ``map_name``."""
    lut = pg.colormap.get(map_name).getLookupTable(nPts=256)[:, :3]
    return float(np.linalg.norm(cielab(lut) - cielab(hex_rgb(color)), axis=1).min())


@lru_cache(maxsize=64)
def masked_colors(theme: Theme, kind: str) -> tuple[str, str]:
    """The fill and hatching of a heatmap's masked cells drawn with the colormap of
    ``kind`` (a panel's ``colormap``) in ``theme``: the theme's own
    (:attr:`Theme.masked`, :attr:`Theme.masked_hatch`) when the fill is at least
    :data:`MASKED_DELTA_E` from every colour of the map, else the grey nearest to it
    in lightness that is :data:`MASKED_PICK_DELTA_E` from them (else
    :data:`MASKED_DELTA_E`; else the farthest grey) and
    :data:`MASKED_BACKGROUND_DELTA_E` from the background, hatched dark on a light
    fill, light on a dark one."""
    name = theme.diverging if kind == "diverging" else theme.sequential
    if map_distance(theme.masked, name) >= MASKED_DELTA_E:
        return theme.masked, theme.masked_hatch
    greys = np.repeat(np.arange(256, dtype=float)[:, None], 3, axis=1)
    lab = cielab(greys)
    lut = cielab(pg.colormap.get(name).getLookupTable(nPts=256)[:, :3])
    apart = np.linalg.norm(lab[:, None, :] - lut[None, :, :], axis=2).min(axis=1)
    from_background = np.linalg.norm(lab - cielab(hex_rgb(theme.background)), axis=1)
    apart[from_background < MASKED_BACKGROUND_DELTA_E] = -1.0
    ok = np.flatnonzero(apart >= MASKED_PICK_DELTA_E)
    if not ok.size:
        ok = np.flatnonzero(apart >= MASKED_DELTA_E)
    own = cielab(hex_rgb(theme.masked))[0]
    # the grey nearest the theme's own in lightness, of those far enough from the map
    level = int(ok[np.argmin(np.abs(lab[ok, 0] - own))]) if ok.size else int(np.argmax(apart))
    fill = f"#{level:02x}{level:02x}{level:02x}"
    # the hatching that stands out most on the fill (the themes' own, else black or white)
    hatches = (LIGHT.masked_hatch, DARK.masked_hatch, "#000000", "#ffffff")
    fill_l = lab[level, 0]
    scores = [abs(cielab(hex_rgb(h))[0] - fill_l) for h in hatches]
    own_hatch = max(range(2), key=lambda i: scores[i])
    best = (
        own_hatch
        if scores[own_hatch] >= MASKED_HATCH_DELTA_L
        else max(range(4), key=scores.__getitem__)
    )
    return fill, hatches[best]


LIGHT = Theme()
DARK = Theme(
    "dark",
    background="#111418",
    foreground="#f2f2f2",
    grid="#7a7a7a",
    primary="#4C8DFF",  # Okabe–Ito's #0072B2 has only 3.56:1 on the dark background
    chrome="#1b1f24",
    control="#9aa3ad",
    masked="#454b52",
    masked_hatch="#c4cad1",
    disabled="#737b85",
)
THEMES = {"light": LIGHT, "dark": DARK}

_current = LIGHT


def current_theme() -> Theme:
    """The theme plots draw with."""
    return _current


def compose_theme(
    name: str | None = None,
    *,
    ui_scale: float | None = None,
    sequential: str | None = None,
    diverging: str | None = None,
) -> Theme:
    """The theme :func:`set_theme` would make current (the current one's fields where
    none is given); ValueError for a scale or colormap out of range."""
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
    return replace(base, **changes)


def set_theme(
    name: str | None = None,
    *,
    ui_scale: float | None = None,
    sequential: str | None = None,
    diverging: str | None = None,
) -> Theme:
    """Change the current theme (only the given fields) and return it."""
    global _current
    _current = compose_theme(name, ui_scale=ui_scale, sequential=sequential, diverging=diverging)
    return _current


CHROME_PT = 11  # the chrome's text size at 100 % (the style sheet's ``font-size``)


def stylesheet(theme: Theme) -> str:
    """Qt style sheet for the window chrome in ``theme`` (panel, labels, lists)."""
    pt = theme.font_pt(CHROME_PT)
    if theme.name == "dark":
        return (
            f"QWidget {{ background: {theme.chrome}; color: {theme.foreground}; "
            f"font-size: {pt}pt; }} QLineEdit, QSpinBox, QDoubleSpinBox, QComboBox, "
            "QListWidget { background: #262b31; border: 1px solid #3a4048; } "
            "QToolTip { color: #f2f2f2; background: #262b31; } "
            # the sheet's colour above is every state's: without this a disabled button
            # (the training lab's Cancel while nothing runs) read as an enabled one
            f"QWidget:disabled {{ color: {theme.disabled}; }} "
            + _dark_controls(theme)
            + _grown_sizes(theme)
        )
    return f"QWidget {{ font-size: {pt}pt; }}" + _grown_sizes(theme)


def _grown_sizes(theme: Theme) -> str:
    """Check boxes, radio buttons and scroll bars as large as the scaled text (the
    style's 14 px, scaled), the light theme's sliders as thick as their grown handle
    (Fusion's 15 px, scaled; the dark sheet sizes its own: :func:`_dark_controls`);
    nothing at 100 % or less, where the style's own sizes stay (a sheet's size rule also
    drops the style's margins around a check box).
    Their arrows, the slider's handle and groove, and the spin and combo boxes grow by
    :class:`ControlScaleStyle` (the dark sheet sizes its own)."""
    if theme.ui_scale <= 1.0:
        return ""
    size = theme.scaled(14)
    dark = theme.name == "dark"
    indicator = "" if dark else "QCheckBox::indicator, "  # (dark: its own)
    slider = theme.scaled(15)
    sliders = (
        ""
        if dark
        else f" QSlider:horizontal {{ min-height: {slider}px; }} "
        f"QSlider:vertical {{ min-width: {slider}px; }}"
    )
    return (
        f" {indicator}QRadioButton::indicator {{ width: {size}px; height: {size}px; }} "
        f"QScrollBar:vertical {{ width: {size}px; }} QScrollBar:horizontal {{ height: {size}px; }}"
        + sliders
    )


_SHAPES = {  # name: (width, height, SVG body with {c} for the colour)
    "up": (10, 6, '<polygon points="0,6 5,0 10,6" fill="{c}"/>'),
    "down": (10, 6, '<polygon points="0,0 5,6 10,0" fill="{c}"/>'),
    "tick": (
        10,
        10,
        '<polyline points="1.5,5.2 4,7.8 8.6,2.2" fill="none" stroke="{c}" '
        'stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>',
    ),
}


def _image_file(shape: str, color: str) -> str:
    """Path of a small SVG of :data:`_SHAPES`' ``shape`` in ``color`` (written once to
    the temporary folder; style sheets can draw arrows and ticks only from images): a
    triangle pointing ``up`` or ``down``, or a check box's ``tick`` (an SVG is drawn as
    large as the sub-control it fills)."""
    path = Path(tempfile.gettempdir()) / f"pe-studio-{shape}-{color.lstrip('#')}.svg"
    if not path.exists():
        width, height, body = _SHAPES[shape]
        svg = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">{body.format(c=color)}</svg>'
        )
        try:
            path.write_text(svg, encoding="utf-8")
        except OSError:
            return ""  # no image: the style draws its own arrow (a check box: no tick)
    return path.as_posix()


def _dark_controls(theme: Theme) -> str:
    """Slider grooves, spin-box arrows and check boxes drawn in visible colours (the
    style's own dark greys nearly vanish on the dark chrome); a disabled combo box's
    arrow as dim as its text. Their sizes follow the UI scale, as the text does (the
    light theme's controls grow by :class:`ControlScaleStyle`)."""
    c, fg, hi, off = theme.control, theme.foreground, theme.primary, theme.disabled
    s = theme.scaled
    return (
        f"QSlider::groove:horizontal {{ background: {c}; height: {s(4)}px; "
        f"border-radius: {s(2)}px; }} "
        f"QSlider::sub-page:horizontal {{ background: {hi}; height: {s(4)}px; "
        f"border-radius: {s(2)}px; }} "
        f"QSlider::handle:horizontal {{ background: {fg}; border: {s(2)}px solid {hi}; "
        f"width: {s(12)}px; margin: -{s(6)}px 0; border-radius: {s(8)}px; }} "
        # the slider as thick as that handle (16 px at 100 %, where the style's slider
        # is 15 px: the ring's bottom row was cut off), vertical ones as wide
        f"QSlider:horizontal {{ min-height: {s(16)}px; }} "
        f"QSlider:vertical {{ min-width: {s(16)}px; }} "
        "QAbstractSpinBox::up-button, QAbstractSpinBox::down-button { "
        f"background: #2c3238; border-left: 1px solid {c}; width: {s(16)}px; }} "
        f"QAbstractSpinBox::up-arrow {{ image: url({_image_file('up', fg)}); width: {s(8)}px; }} "
        f"QAbstractSpinBox::down-arrow {{ image: url({_image_file('down', fg)}); "
        f"width: {s(8)}px; }} "
        f"QComboBox::drop-down {{ width: {s(16)}px; }} "
        f"QComboBox::down-arrow {{ image: url({_image_file('down', fg)}); width: {s(8)}px; }} "
        f"QComboBox::down-arrow:disabled {{ image: url({_image_file('down', off)}); }} "
        f"QCheckBox::indicator, QGroupBox::indicator {{ width: {s(14)}px; height: {s(14)}px; "
        f"border: 2px solid {c}; border-radius: 3px; background: #262b31; }} "
        "QCheckBox::indicator:checked, QGroupBox::indicator:checked { "
        f"background: {hi}; border-color: {hi}; "
        f"image: url({_image_file('tick', theme.background)}); }}"
    )


class ControlScaleStyle(QtWidgets.QProxyStyle):
    """The application's style with spin boxes, combo boxes, scroll bars, sliders and
    arrows drawn as large as their widget's text: the style sheet scales the chrome's
    text (``font-size``) but not these, which stayed at their 100 % size (14 px buttons,
    6 x 3 px arrows, a 15 px slider handle) beside text two or three times as large on
    the stage. The sheet itself sizes check boxes and scroll bars, and makes a slider
    as thick as its grown handle (:func:`_grown_sizes`; a slider's height is the style's
    ``PM_SliderThickness``, which this style does not grow, see below).

    A widget's factor is its font's size over :data:`CHROME_PT` (never below 1), so
    each window follows its own sheet's scale (the stage's 300 %, the presenter's
    120 %) and everything at 100 % is the style's own. The base style sizes these
    controls, their arrows included, by the resolution of the option's font metrics
    (Fusion's ``dpiScaled``): the option handed on is the widget's at that resolution
    times the factor, so the controls grow as a whole, as on a screen of that density.
    The dark theme's sheet sizes its styled spin-box buttons and sliders itself (a
    sheet's sizes win). No ``pixelMetric`` here: the style is asked for metrics tens of
    thousands of times per restyle, each a call into Python (~5 us).
    """

    _CONTROLS = frozenset(
        {
            QtWidgets.QStyle.ComplexControl.CC_SpinBox,
            QtWidgets.QStyle.ComplexControl.CC_ComboBox,
            QtWidgets.QStyle.ComplexControl.CC_ScrollBar,
            QtWidgets.QStyle.ComplexControl.CC_Slider,
        }
    )

    _ARROWS = frozenset(
        {
            QtWidgets.QStyle.PrimitiveElement.PE_IndicatorArrowUp,
            QtWidgets.QStyle.PrimitiveElement.PE_IndicatorArrowDown,
            QtWidgets.QStyle.PrimitiveElement.PE_IndicatorArrowLeft,
            QtWidgets.QStyle.PrimitiveElement.PE_IndicatorArrowRight,
        }
    )  # (a styled scroll bar's arrows: the dark sheet's ``QWidget`` rule styles it)

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self._devices: dict[int, QtGui.QImage] = {}  # a paint device per resolution

    @staticmethod
    def factor(widget: QtWidgets.QWidget | None) -> float:
        """How much larger than at 100 % ``widget``'s controls are drawn."""
        if widget is None:
            return 1.0
        return max(1.0, widget.font().pointSizeF() / CHROME_PT)

    @staticmethod
    def _is_grown(option: QtWidgets.QStyleOption, widget: QtWidgets.QWidget | None) -> bool:
        """Whether ``option``'s font metrics are not at ``widget``'s own resolution (an
        option :meth:`_grown` made, which the base style hands back to this style)."""
        return widget is not None and abs(option.fontMetrics.fontDpi() - widget.logicalDpiY()) > 0.5

    def _grown(
        self, option: QtWidgets.QStyleOption, widget: QtWidgets.QWidget | None
    ) -> QtWidgets.QStyleOption:
        """``option`` with its font metrics at the widget's resolution times its factor
        (``option`` itself at 100 %, or when it is already grown)."""
        f = self.factor(widget)
        if widget is None or f <= 1.0 or self._is_grown(option, widget):
            return option
        dpi = int(round(widget.logicalDpiY() * f))
        device = self._devices.get(dpi)
        if device is None:
            device = QtGui.QImage(1, 1, QtGui.QImage.Format.Format_ARGB32)
            dots = int(round(dpi / 0.0254))
            device.setDotsPerMeterX(dots)
            device.setDotsPerMeterY(dots)
            self._devices[dpi] = device
        grown = type(option)(option)
        grown.fontMetrics = QtGui.QFontMetrics(widget.font(), device)
        return grown

    def subControlRect(
        self,
        control: QtWidgets.QStyle.ComplexControl,
        option: QtWidgets.QStyleOptionComplex,
        sub: QtWidgets.QStyle.SubControl,
        widget: QtWidgets.QWidget | None = None,
    ) -> QtCore.QRect:
        if control in self._CONTROLS:
            option = cast(QtWidgets.QStyleOptionComplex, self._grown(option, widget))
        return super().subControlRect(control, option, sub, cast(QtWidgets.QWidget, widget))

    def drawComplexControl(
        self,
        control: QtWidgets.QStyle.ComplexControl,
        option: QtWidgets.QStyleOptionComplex,
        painter: QtGui.QPainter,
        widget: QtWidgets.QWidget | None = None,
    ) -> None:
        if control in self._CONTROLS:
            option = cast(QtWidgets.QStyleOptionComplex, self._grown(option, widget))
        super().drawComplexControl(control, option, painter, cast(QtWidgets.QWidget, widget))

    def drawPrimitive(
        self,
        element: QtWidgets.QStyle.PrimitiveElement,
        option: QtWidgets.QStyleOption,
        painter: QtGui.QPainter,
        widget: QtWidgets.QWidget | None = None,
    ) -> None:
        if element in self._ARROWS:
            option = self._grown(option, widget)
        super().drawPrimitive(element, option, painter, cast(QtWidgets.QWidget, widget))


def install_control_scaling(app: QtWidgets.QApplication) -> None:
    """Make :class:`ControlScaleStyle` the application's style (once)."""
    if not isinstance(app.style(), ControlScaleStyle):
        app.setStyle(ControlScaleStyle(app.style().name()))
