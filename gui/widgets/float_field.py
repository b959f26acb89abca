"""A spin box for a float parameter that shows its value in the shortest text.

A plain :class:`QtWidgets.QDoubleSpinBox` pads every value to its decimals: RoPE's base
showed "10000.0000", a rotary fraction of one half "0.5000". :class:`FloatField` shows
what the model holds, rounded to the parameter's decimals as before, without the
trailing zeros: "10000", "0.5", "0.0001". Only :meth:`FloatField.textFromValue` changes;
typing, validation, stepping (arrow keys, wheel, Page Up/Down) and rounding stay Qt's
(``valueFromText`` reads "10000" and "10000.0000" alike), in the spin box's locale.

Its size hints stay the plain spin box's, measured by Qt on the padded texts of the
range's ends: the field keeps room for the longest value it may hold (e.g.
"9999999.9999" for a base up to 10⁷ with four decimals), not only for "10000000".
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

__all__ = ["FloatField", "trimmed"]


def trimmed(text: str, locale: QtCore.QLocale) -> str:
    """``text`` (a number as :meth:`QLocale.toString` writes it with fixed decimals)
    without the trailing zeros of its decimals, nor a decimal point left bare; a zero
    loses its minus sign ("-0.0000" → "0")."""
    point = locale.decimalPoint()
    if point not in text:
        return text
    whole, decimals = text.rsplit(point, 1)
    zero = locale.zeroDigit()
    decimals = decimals.rstrip(zero)
    text = f"{whole}{point}{decimals}" if decimals else whole
    minus = locale.negativeSign()
    if text.startswith(minus) and text[len(minus) :].strip(zero) == "":
        text = text[len(minus) :]
    return text


class FloatField(QtWidgets.QDoubleSpinBox):
    """A :class:`QtWidgets.QDoubleSpinBox` whose text is its value's shortest text at its
    decimals (see the module's docstring); its size hints are the plain spin box's."""

    _padded = False  # textFromValue pads (while Qt measures the size hints)

    def textFromValue(self, value: float) -> str:
        text = super().textFromValue(value)
        return text if self._padded else trimmed(text, self.locale())

    def sizeHint(self) -> QtCore.QSize:
        self._padded = True
        try:
            return super().sizeHint()
        finally:
            self._padded = False

    def minimumSizeHint(self) -> QtCore.QSize:
        self._padded = True
        try:
            return super().minimumSizeHint()
        finally:
            self._padded = False
