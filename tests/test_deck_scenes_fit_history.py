"""A deck scene is laid out on the stage the same whatever was shown before it.

The lecture's scene 6 (Learned, four plots) on a 1920 × 1080 stage at 200 % had a
845 px canvas and fitted, yet after a pass over the deck at 150 % in the same window
its canvas was 889 px and the scene scrolled (1162 px in 1080): scene 7's notes, three
lines at 200 %, kept the notes line three lines tall for scene 6's two (a line only
grows while live frames go on, and a scene's frame is not one), and the stage then
overflowed by more than it squeezes.

(Scene 7 now names two of Learned's panels and two lines of notes; the test shows it
with all four, as it was, whose notes take three.)
"""

from __future__ import annotations

from dataclasses import replace

from qt_events import settle_window


def _scene(window, number: int, scale: float | None = None) -> tuple[int, int, int]:
    """Show scene ``number`` (at UI ``scale`` where given); its canvas's height, the
    page's height and the notes line's, px."""
    if scale is not None:
        window.lecture.display.set_scale(scale)
        window.resize(1920, 1080)
    window.lecture.deck.go(number - 1)
    assert window.wait_idle(60)
    settle_window(window)
    widget = window.views[window.current_view]
    assert window.current_view == "learned"
    bar = widget.scroll_area.verticalScrollBar()
    return widget.canvas.height(), bar.maximum() + bar.pageStep(), widget.status.height()


def test_scene_6_at_200_percent_is_laid_out_the_same_after_a_150_percent_pass(lecture_stage):
    deck = lecture_stage.lecture.deck
    seventh = deck.scenes[6]
    deck.scenes[6] = replace(seventh, panels=())  # (all four of Learned's panels)
    try:
        _check_history(lecture_stage)
    finally:
        deck.scenes[6] = seventh


def _check_history(lecture_stage) -> None:
    fresh = _scene(lecture_stage, 6)
    assert fresh[1] == 1080, fresh  # it fits: the page is the stage
    # scene 7 (three lines of notes at 200 %) at 150 %, then scene 6 at 200 % again
    _scene(lecture_stage, 7, scale=1.5)
    again = _scene(lecture_stage, 6, scale=2.0)
    assert again == fresh
    # and straight after scene 7 at 200 %
    seven = _scene(lecture_stage, 7)
    assert seven[2] > fresh[2]  # (scene 7's notes take more lines: what was kept)
    assert _scene(lecture_stage, 6) == fresh
