"""Ctrl+C inside a drawing, as a test sends it (tests of the interruptible exports)."""

from __future__ import annotations

import os
import signal


def ctrl_c_swallowed() -> bool:
    """Send this process SIGINT (Ctrl+C) now and swallow the ``KeyboardInterrupt`` here,
    as a Qt paint does (pyqtgraph prints "Ignored exception" and goes on). Whether one
    was raised here: ``False`` where an installed handler only noted the signal."""
    try:
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):  # the handler runs between bytecodes
            pass
    except KeyboardInterrupt:
        return True
    return False
