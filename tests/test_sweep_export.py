"""Sweep-frame export (Ctrl+Alt+E): slide-size stage frames, progress with Cancel, and a
schedule from the sweep's start value (issue 13, item 9)."""

from __future__ import annotations

from PySide6 import QtGui
from tiers import FULL

from core.scenes import Deck, Scene
from core.views import get_view
from gui.export.headless import export_view


def _recording(sweep, small: bool = False):
    """Make ``sweep`` record the parameters of every frame it draws (``small``: and draw
    it at 320 x 180 instead of the slide size it asks for, where only the parameters
    and files are checked)."""
    calls: list[dict] = []

    def writer(view_id, params, path, **size):
        calls.append(dict(params))
        return export_view(
            view_id, params, path, **({"width": 320, "height": 180} if small else size)
        )

    sweep.frame_writer = writer
    return calls


def test_frames_are_slide_size_and_start_at_the_minimum(window, tmp_path):
    sweep = window.lecture.sweep
    window.set_view("rope")
    state = window.states["rope"]
    assert sweep.param_name() == "m"
    state.set_param("m", 20)  # paused mid-sweep
    assert window.wait_idle()
    calls = _recording(sweep)
    frames = sweep.export_frames(tmp_path, max_frames=3)
    assert [f.name for f in frames] == [f"rope_m_{i:04d}.png" for i in range(3)]
    assert sorted(p.name for p in tmp_path.iterdir()) == [f.name for f in frames]  # no temp left
    for f in frames:
        image = QtGui.QImage(str(f))
        assert (image.width(), image.height()) == (1920, 1080)
    minimum = state.model["m"].minimum
    assert [c["m"] for c in calls] == [minimum, minimum + 1, minimum + 2]
    assert state.values["m"] == 20  # the shown value is untouched
    assert sweep.progress is None  # the progress dialog is gone


@FULL
def test_frames_start_at_the_scene_value(window, tmp_path):
    sweep = window.lecture.sweep
    deck = window.lecture.deck
    params = {**get_view("rope").model.defaults(), "m": 7}
    deck.set_deck(Deck("t", (Scene("rope", params, "Scene"),)))
    assert deck.go(0)
    assert window.wait_idle()
    window.states["rope"].set_param("m", 30)
    calls = _recording(sweep, small=True)
    sweep.export_frames(tmp_path, max_frames=2)
    assert [c["m"] for c in calls] == [7, 8]


@FULL
def test_cancel_after_two_frames_leaves_no_frame_files(window, tmp_path):
    sweep = window.lecture.sweep
    window.set_view("rope")
    calls = _recording(sweep, small=True)
    shown: list[bool] = []

    def cancel_at_two(count: int) -> None:
        shown.append(sweep.progress is not None and sweep.progress.maximum() == 5)
        if count == 2:
            sweep.progress.cancel()  # what the dialog's Cancel button does

    sweep.frame_written.connect(cancel_at_two)
    assert sweep.export_frames(tmp_path, max_frames=5) == []
    assert len(calls) == 2 and shown == [True, True]
    assert list(tmp_path.iterdir()) == []  # no frames, no temporary folder
