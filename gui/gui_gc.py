"""Cyclic garbage collection on the GUI thread only.

Python's cycle collector runs in whichever thread happens to allocate when a threshold is
crossed. The update engine computes on a worker thread, so without this a cycle holding
Qt objects (plots of a view whose layout was rebuilt, a closed window) could be
finalised there, and Qt objects destroyed off the GUI thread crash the process
(reproduced in the test suite: a segfault while a new engine thread started). As in
pyqtgraph's ``GarbageCollector``, automatic collection is switched off and a timer on
the GUI thread collects the generations whose thresholds were crossed.
"""

from __future__ import annotations

import gc

from PySide6 import QtCore

INTERVAL_MS = 500

_timer: QtCore.QTimer | None = None


def _collect() -> None:
    """Collect the generations over their thresholds (the automatic rule, on a timer)."""
    thresholds = gc.get_threshold()
    counts = gc.get_count()
    for generation in (2, 1, 0):  # the oldest generation due (it includes the younger)
        if counts[generation] > thresholds[generation]:
            gc.collect(generation)
            return


def install() -> None:
    """Move cycle collection to the GUI thread (idempotent; needs a Qt application).

    Call from the GUI thread before starting threads that run Python code.
    """
    global _timer
    app = QtCore.QCoreApplication.instance()
    if app is None:
        raise RuntimeError("gui_gc.install() needs a QApplication")
    if _timer is not None and _timer.parent() is app:
        gc.disable()
        return
    gc.disable()
    gc.freeze()  # what exists now (modules, the app) is never scanned again: short pauses
    _timer = QtCore.QTimer(app)
    _timer.setInterval(INTERVAL_MS)
    _timer.timeout.connect(_collect)
    _timer.start()


def collect_all() -> int:
    """Collect every unreachable object, the frozen ones included; returns their number.

    For the end of a GUI run, while the QApplication is still alive (see
    :func:`gui.app.release_windows`): :func:`install` froze what existed then (the main
    window among it), which no collection frees afterwards.
    """
    gc.unfreeze()
    return gc.collect()
