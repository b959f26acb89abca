"""Regenerate the Positional Encoding Studio application icon.

Draws the icon with Qt (a phasor on the unit circle unrolling into sine waves
of rising frequency, i.e. the sinusoidal positional encoding) and writes, next
to this script:

* ``pe-studio.png``  256x256, used by the Linux .desktop entry and the window
* ``pe-studio.ico``  16..256 px, used for the Windows executable
* ``pe-studio.icns`` 16..512 px, used for the macOS .app bundle

Usage (from the repository root)::

    python resources/icons/make_icon.py

Needs PySide6; the .ico/.icns files need Pillow (``pip install pillow``), which
is a build-time tool only and never bundled.  Without Pillow, the .ico is
written by Qt's ICO plugin (single 256 px image) and the .icns is skipped.
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

if sys.version_info < (3, 12):
    # PySide6 6.12 wheels (abi3) drop a reference to None on every call of a
    # void C++ method under CPython < 3.12 (None is only immortal from 3.12);
    # after a few thousand calls the interpreter aborts with "none_dealloc".
    # Pin None's refcount high so this tool survives (harmless elsewhere).
    import ctypes

    ctypes.c_ssize_t.from_address(id(None)).value += 1 << 40

from PySide6 import QtCore, QtGui

HERE = Path(__file__).resolve().parent
NAME = "pe-studio"

# Palette: bright strokes on a dark navy tile with a light rim, so the icon
# reads on both dark and light panels/docks.
BG_TOP = QtGui.QColor("#25335a")
BG_BOTTOM = QtGui.QColor("#0d1426")
RIM = QtGui.QColor(255, 255, 255, 60)
CIRCLE = QtGui.QColor(255, 255, 255, 150)
ARROW = QtGui.QColor("#ffb23f")
WAVES = (  # (color, cycles across the plot, amplitude factor, pen width) at 256 px
    (QtGui.QColor("#ffb23f"), 1.0, 1.00, 9.0),
    (QtGui.QColor("#3fd0ff"), 2.0, 0.72, 7.0),
    (QtGui.QColor("#ff5fc8"), 3.0, 0.46, 5.5),
)


def render(size: int) -> QtGui.QImage:
    """Render the icon at ``size`` x ``size`` pixels (vector drawing, crisp at any size)."""
    img = QtGui.QImage(size, size, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(QtCore.Qt.GlobalColor.transparent)
    p = QtGui.QPainter(img)
    p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, True)
    p.scale(size / 256.0, size / 256.0)  # draw in a 256x256 design space

    # Tile: rounded square with a vertical gradient and a thin light rim.
    tile = QtCore.QRectF(8, 8, 240, 240)
    grad = QtGui.QLinearGradient(0, 8, 0, 248)
    grad.setColorAt(0.0, BG_TOP)
    grad.setColorAt(1.0, BG_BOTTOM)
    p.setPen(QtGui.QPen(RIM, 3))
    p.setBrush(QtGui.QBrush(grad))
    p.drawRoundedRect(tile, 52, 52)

    # Unit circle with a rotating phasor (angle theta).
    cx, cy, r = 66.0, 128.0, 40.0
    theta = math.radians(50)
    tip = QtCore.QPointF(cx + r * math.cos(theta), cy - r * math.sin(theta))
    p.setBrush(QtCore.Qt.BrushStyle.NoBrush)
    p.setPen(QtGui.QPen(CIRCLE, 5))
    p.drawEllipse(QtCore.QPointF(cx, cy), r, r)

    # Waves start at x0 and share the circle's radius as amplitude, so the
    # lowest-frequency wave continues the phasor's projection (same phase).
    x0, x1 = 116.0, 232.0
    dash = QtGui.QPen(QtGui.QColor(255, 178, 63, 170), 3, QtCore.Qt.PenStyle.DashLine)
    dash.setCapStyle(QtCore.Qt.PenCapStyle.RoundCap)
    p.setPen(dash)
    p.drawLine(tip, QtCore.QPointF(x0, tip.y()))

    for color, cycles, amp, width in reversed(WAVES):
        steps = 120
        wave = QtGui.QPolygonF(
            [
                QtCore.QPointF(
                    x0 + (x1 - x0) * i / steps,
                    cy - r * amp * math.sin(theta + 2 * math.pi * cycles * i / steps),
                )
                for i in range(steps + 1)
            ]
        )
        pen = QtGui.QPen(color, width)
        pen.setCapStyle(QtCore.Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(QtCore.Qt.PenJoinStyle.RoundJoin)
        p.setPen(pen)
        p.drawPolyline(wave)

    # Phasor arrow on top: shaft, head and hub.
    pen = QtGui.QPen(ARROW, 8)
    pen.setCapStyle(QtCore.Qt.PenCapStyle.RoundCap)
    p.setPen(pen)
    head_len = 16.0
    shaft_end = QtCore.QPointF(
        tip.x() - 0.6 * head_len * math.cos(theta), tip.y() + 0.6 * head_len * math.sin(theta)
    )
    p.drawLine(QtCore.QPointF(cx, cy), shaft_end)
    p.setPen(QtCore.Qt.PenStyle.NoPen)
    p.setBrush(ARROW)
    spread = math.radians(28)
    left = QtCore.QPointF(
        tip.x() - head_len * math.cos(theta - spread), tip.y() + head_len * math.sin(theta - spread)
    )
    right = QtCore.QPointF(
        tip.x() - head_len * math.cos(theta + spread), tip.y() + head_len * math.sin(theta + spread)
    )
    p.drawPolygon(QtGui.QPolygonF([tip, left, right]))
    p.setBrush(QtGui.QColor("#ffffff"))
    p.drawEllipse(QtCore.QPointF(cx, cy), 7, 7)
    p.end()
    return img


def _png_bytes(img: QtGui.QImage) -> bytes:
    """Encode ``img`` as PNG with Qt (quality 0 = strongest zlib compression)."""
    data = QtCore.QByteArray()
    buf = QtCore.QBuffer(data)
    buf.open(QtCore.QIODevice.OpenModeFlag.WriteOnly)
    if not img.save(buf, "PNG", 0):
        raise SystemExit("PNG encoding failed")
    buf.close()
    return bytes(data)


def _to_pil(img: QtGui.QImage):
    import io

    from PIL import Image

    return Image.open(io.BytesIO(_png_bytes(img))).convert("RGBA")


def main() -> int:
    app = QtGui.QGuiApplication.instance() or QtGui.QGuiApplication(sys.argv[:1])  # noqa: F841
    png = HERE / f"{NAME}.png"
    png.write_bytes(_png_bytes(render(256)))
    written = [png]
    try:
        import PIL
    except ImportError:
        PIL = None
    if PIL is not None:
        # Pillow's optimizer squeezes the PNG a bit further than Qt's encoder.
        _to_pil(render(256)).save(png, format="PNG", optimize=True)
        # Render each size natively (crisper than downscaling one bitmap).
        ico_sizes = [16, 24, 32, 48, 64, 128, 256]
        big = _to_pil(render(256))
        big.save(
            HERE / f"{NAME}.ico",
            format="ICO",
            sizes=[(s, s) for s in ico_sizes],
            append_images=[_to_pil(render(s)) for s in ico_sizes[:-1]],
        )
        written.append(HERE / f"{NAME}.ico")
        icns_src = _to_pil(render(512))
        icns_src.save(
            HERE / f"{NAME}.icns",
            format="ICNS",
            append_images=[_to_pil(render(s)) for s in (16, 32, 64, 128, 256)],
        )
        written.append(HERE / f"{NAME}.icns")
    elif render(256).save(str(HERE / f"{NAME}.ico"), "ICO"):  # needs Qt's imageformats/ico plugin
        written.append(HERE / f"{NAME}.ico")
    for path in written:
        print(f"wrote {path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
