"""The keyboard help (F1) shows every shortcut whole at any window size and UI scale:
at 150 % in a 1600 x 1000 window its last rows (the stage's keys among them) were cut
off at the window's bottom and could not be scrolled to. The list now takes the
largest text size, down to ``HELP_MIN_PT``, at which it fits, and scrolls below that;
the nine "Focus panel N" rows read as one."""

from __future__ import annotations

import pytest
from PySide6 import QtWidgets
from tiers import FULL, gate_cover

from gui.lecture.help import HELP_MAX_PT, HELP_MIN_PT, merge_numbered, shortcut_table
from gui.theme import current_theme, set_theme


def _open_help(win, size: tuple[int, int], scale: float, *, present: bool = False):  # type: ignore[no-untyped-def]
    """The help opened over ``win`` at ``size`` and UI ``scale``: through presentation
    mode (every view re-styled) with ``present``, else the theme alone (what the help
    reads; the views are left as they are: a re-style of them costs seconds)."""
    if present:
        display = win.lecture.display
        display.enter_presentation(fullscreen=False)
        display.set_scale(scale)
    else:
        theme = current_theme()
        set_theme(theme.name, ui_scale=scale)
    win.resize(*size)
    app = QtWidgets.QApplication.instance()
    assert win.wait_idle(60)
    app.processEvents()
    overlay = win.lecture.help
    overlay.open_overlay()
    app.processEvents()
    return overlay


@pytest.mark.parametrize(
    ("size", "scale", "present"),
    gate_cover(
        [((1600, 1000), 1.5, True), ((1280, 720), 3.0, False), ((1280, 720), 1.0, False)],
        keep=[((1600, 1000), 1.5, True), ((1280, 720), 1.0, False)],
        unpack=True,
    ),
)
def test_the_whole_list_is_seen_without_scrolling(studio, size, scale, present):
    overlay = _open_help(studio, size, scale, present=present)
    try:
        viewport = overlay.list_area.viewport()
        label = overlay.label
        assert HELP_MIN_PT <= overlay.fitted_pt <= HELP_MAX_PT
        assert label.heightForWidth(viewport.width()) <= viewport.height(), overlay.fitted_pt
        assert overlay.list_area.verticalScrollBar().maximum() == 0
        assert overlay.list_area.horizontalScrollBar().maximum() == 0
        text = label.text()
        for needle in ("Focus panel 1–9", "1–9, Num+1–9", "Keys and mouse on the stage"):
            assert needle in text
        for _title, rows in shortcut_table(studio):  # every row is in the list
            for row, keys in rows:
                assert row.replace("&", "&amp;") in text and keys in text
    finally:
        overlay.close_overlay()


@FULL
def test_a_large_screen_keeps_the_largest_size_and_a_tiny_one_scrolls(studio):
    overlay = _open_help(studio, (3840, 2160), 2.0)
    try:
        assert overlay.fitted_pt == HELP_MAX_PT
    finally:
        overlay.close_overlay()
    overlay = _open_help(studio, (900, 560), 3.0)
    try:
        assert overlay.fitted_pt == HELP_MIN_PT
        assert overlay.list_area.verticalScrollBar().maximum() > 0  # reached by scrolling
    finally:
        overlay.close_overlay()
        studio.resize(1600, 1000)


def test_numbered_rows_merge_only_when_text_and_keys_count_together():
    focus = [(f"Focus panel {i}", f"{i}, Num+{i}") for i in range(1, 10)]
    assert merge_numbered([("Laser pointer", "L"), *focus]) == [
        ("Laser pointer", "L"),
        ("Focus panel 1–9", "1–9, Num+1–9"),
    ]
    views = [("Sinusoidal", "Ctrl+1"), ("Learned", "Ctrl+2"), ("RoPE", "Ctrl+3")]
    assert merge_numbered(views) == views  # the texts carry no number
    two = [("Slot 1", "1"), ("Slot 2", "2")]
    assert merge_numbered(two) == two  # two rows stay two
    skipped = [("Slot 1", "1"), ("Slot 2", "2"), ("Slot 4", "4")]
    assert merge_numbered(skipped) == skipped  # not counted one by one
    other_keys = [("Slot 1", "1"), ("Slot 2", "2"), ("Slot 3", "Ctrl+3")]
    assert merge_numbered(other_keys) == other_keys
