"""Guard against the PySide6 6.12.0 bug that drains ``None``'s reference count.

On Python 3.11 (where ``None`` is not immortal) PySide6 6.12.0 dropped a reference to
``None`` on every repaint of a pyqtgraph plot, so the app aborted with
"none_dealloc" after a few thousand frames. requirements.txt pins a version without it.
"""

from __future__ import annotations

import sys

import numpy as np
import pyqtgraph as pg


def test_repaints_do_not_drain_none_refcount(qtbot):
    widget = pg.GraphicsLayoutWidget()
    qtbot.addWidget(widget)
    plot = widget.addPlot()
    plot.plot(np.arange(10.0), np.arange(10.0) ** 2)
    image = pg.ImageItem(np.random.default_rng(0).random((16, 16)).astype(np.float32))
    widget.addPlot().addItem(image)
    widget.resize(400, 300)
    widget.show()
    widget.viewport().repaint()
    before = sys.getrefcount(None)
    for _ in range(200):
        widget.viewport().repaint()
    after = sys.getrefcount(None)
    # A healthy binding keeps None's count roughly stable; the bug lost ≥ 7 per repaint.
    assert after - before > -200, f"None lost {before - after} references in 200 repaints"
