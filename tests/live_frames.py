"""Live frames in tests: a drag that ends when the test ends it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest


@contextlib.contextmanager
def held_drags() -> Iterator[None]:
    """Views built inside end a drag only when told (``finish_live_frame(s)``), not on
    their 150 ms full-quality timer (its delay is read when a view is built).

    With a live frame stalled 0.2 s, as on a loaded machine (a patch of
    ``ViewWidget.show_data`` sleeping after each live frame), the timer ended drags
    between two frames: 14 tests that check what a drag holds (axis room, title lines,
    legends, draft strokes) failed.
    """
    from gui.widgets.view_widget import ViewWidget

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ViewWidget, "FULL_QUALITY_DELAY_MS", 600_000)
        yield
