"""Every scene of the shipped lecture decks fits one 1920 × 1080 stage at the default
presentation scale: the audience sees each scene's plots whole, without the lecturer
scrolling (issue 14: "Deck scenes can name the panels they show").

Showing every panel of a view, 26 of the 29 scenes of the lecture and RoPE decks
scrolled at 150 %: the lecture's scene 2 ("with RoPE") had its RoPE row below the
fold, ALiBi's scene 14 showed its bottom row cut in half, and the Compare table of
scene 19 hid four of its rows. A scene now names the panels its note talks about.
"""

from __future__ import annotations

import pytest
from axis_text import drawn_labels, ink_share
from qt_events import settle_window
from tiers import gate_cover

from core.resources import resource_path
from core.scenes import load_deck

DECKS = ("lecture-positional-encoding", "rope-deep-dive")
SCENES = [
    (name, number)
    for name in DECKS
    for number in range(1, len(load_deck(resource_path("decks") / f"{name}.json").scenes) + 1)
]
# the gate: the scenes that scrolled most, and the table
GATE = [
    ("lecture-positional-encoding", 2),
    ("lecture-positional-encoding", 14),
    ("lecture-positional-encoding", 19),
    ("rope-deep-dive", 4),
]


@pytest.fixture(scope="module")
def stage(open_window):
    """One window presenting at the default scale on a 1920 × 1080 stage."""
    from gui.lecture.display import DEFAULT_PRESENT_SCALE

    with open_window(1600, 1000) as window:
        display = window.lecture.display
        display.present_scale = DEFAULT_PRESENT_SCALE
        display.enter_presentation(fullscreen=False)
        window.resize(1920, 1080)
        yield window


def _show(window, qtbot, name: str, number: int):
    deck = window.lecture.deck
    path = resource_path("decks") / f"{name}.json"
    if deck.path != path:
        deck.set_deck(load_deck(path), path)
    deck.go(number - 1)
    assert window.wait_idle(60)
    widget = window.views[window.current_view]
    settle_window(window)
    return widget


@pytest.mark.parametrize(("name", "number"), gate_cover(SCENES, keep=GATE, unpack=True))
def test_every_shipped_scene_fits_the_stage(stage, qtbot, name, number):
    widget = _show(stage, qtbot, name, number)
    bar = widget.scroll_area.verticalScrollBar()
    assert bar.maximum() == 0, (
        f"{name} scene {number} scrolls: {bar.maximum() + bar.pageStep()} px "
        f"in {bar.pageStep()} (name fewer panels)"
    )


def test_a_table_staged_alone_is_drawn(stage, qtbot):
    """Compare's table as a scene's only panel, reached from a scene of another view
    (the lecture's 18 → 19): its text is drawn. The device cache of its text drawn on
    its first paint stayed blank (the title above an empty plot) until the table's
    layout changed; a lone table is now fitted to the room (grown), which lays it out
    anew. (Drawing the table without a cache instead cost Compare's stage frames 1.5
    ms of paint.)"""
    name = "lecture-positional-encoding"
    _show(stage, qtbot, name, 18)
    widget = _show(stage, qtbot, name, 19)
    plot = widget.plots["table"]
    assert [p for p in widget.plots.values() if p.plot.isVisible()] == [plot]
    ink, size = ink_share(widget, plot.table.textItem)
    assert size.width() > 1000 and size.height() > 300
    assert ink > 0.01  # text: several per cent of the pixels are ink


def test_a_revealing_scene_keeps_each_panels_place_on_stage(stage, qtbot):
    """The lecture's scene 3 reveals its four Sinusoidal plots one per Page Down. On the
    1920 × 1080 stage at 150 % the first row was 480 px high while the second row's
    plots were still hidden, and shrank to 380 px when the similarity map appeared: the
    waves and the PE matrix jumped in front of the class. Each revealed plot now sits
    where the whole scene puts it, from the first step on."""
    from PySide6 import QtCore

    name = "lecture-positional-encoding"
    _show(stage, qtbot, name, 2)
    deck = stage.lecture.deck
    widget = None
    steps = []
    for step in range(4):
        if step == 0:
            widget = _show(stage, qtbot, name, 3)
        else:
            qtbot.keyClick(stage, QtCore.Qt.Key.Key_PageDown)
            assert stage.wait_idle(60)
            settle_window(stage)
        assert deck.index == 2
        steps.append(
            {
                key: plot.plot.geometry().getRect()
                for key, plot in widget.plots.items()
                if plot.plot.isVisible()
            }
        )
    assert [len(shown) for shown in steps] == [1, 2, 3, 4]
    final = steps[-1]
    for shown in steps:
        for key, rect in shown.items():
            assert all(abs(a - b) <= 2 for a, b in zip(rect, final[key], strict=True)), (
                key,
                [round(v) for v in rect],
                [round(v) for v in final[key]],
            )


def test_an_index_grids_colour_bar_labels_whole_numbers(stage, qtbot):
    """The lecture's scene 17 (Shaw, k = 2) on stage: the colour bar of the clipped
    index 0..4 read "0 0.5 1 1.5 2 2.5 3 3.5 4", indices that do not exist. A bar of
    integer values labels whole numbers only (the PE matrix's −1.0 … 1.0 keeps its
    halves)."""
    widget = _show(stage, qtbot, "lecture-positional-encoding", 17)
    widget.canvas.grab()
    shaw = drawn_labels(widget.plots["shaw"].colorbar.axis)
    assert {"0", "4"} <= set(shaw), shaw
    assert all("." not in text for text in shaw), shaw
    assert len(shaw) >= 3, shaw  # (whole steps between the ends)
    widget = _show(stage, qtbot, "lecture-positional-encoding", 5)
    widget.canvas.grab()
    heat = drawn_labels(widget.plots["heatmap"].colorbar.axis)
    assert any(text.endswith(".5") for text in heat), heat


def test_a_table_alone_on_stage_is_drawn_as_large_as_the_stage_allows(stage, qtbot):
    """Compare's table alone in the lecture's scene 19 kept the window's text size
    (15 pt at 150 %) on the 1920 × 1080 stage, the lower half of the stage empty; focused
    (its number key), only its title grew. A scene's only panel is drawn at the focus
    text size, and a table at that size is fitted to the stage: larger text, seen whole."""
    from gui.theme import current_theme

    widget = _show(stage, qtbot, "lecture-positional-encoding", 19)
    plot = widget.plots["table"]
    full = current_theme().font_pt(10)  # the table's full size in the window
    assert plot.table_text_pt() > 1.2 * full, (plot.table_text_pt(), full)
    bar = widget.scroll_area.verticalScrollBar()
    assert bar.maximum() == 0  # seen whole
    view = widget.scroll_area.viewport().height()
    assert plot.table_height() > 0.6 * view, (plot.table_height(), view)


def test_a_focused_rope_planes_arrow_names_grow_with_its_text(stage, qtbot):
    """Focusing RoPE's plane on stage (its number key, lecture scene 9) drew its tick
    labels and title twice as large, while the arrows' names "q (m=105)", "k (n=109)"
    and "unrotated" kept their size, the smallest text on the stage. They grow with
    the plot's text, and shrink back when the focus ends."""
    widget = _show(stage, qtbot, "lecture-positional-encoding", 9)
    plot = widget.plots["plane"]
    names = plot.arrows[3::3]
    assert [n.toPlainText() for n in names] == ["unrotated", "q (m=105)", "k (n=109)"]
    before = [n.textItem.font().pointSizeF() for n in names]
    focus = stage.lecture.focus
    try:
        assert focus.focus("plane")
        assert stage.wait_idle(60)
        settle_window(stage)
        assert plot.text_zoom > 1.0
        grown = [n.textItem.font().pointSizeF() for n in names]
        assert all(g >= 1.5 * b for g, b in zip(grown, before, strict=True)), (before, grown)
    finally:
        focus.unfocus()
        assert stage.wait_idle(60)
        settle_window(stage)
    assert [n.textItem.font().pointSizeF() for n in names] == before


def test_a_focused_legends_samples_grow_with_its_text(stage, qtbot):
    """Focused on stage (lecture scene 10, the score plot's number key), a legend's
    text grew to twice its size while its samples kept pyqtgraph's 20 px: the solid
    "query at m=5" line read as a dash beside text taller than it, the marker of
    "m − n = −4" as a dot. The samples grow with the legend's text, and shrink back."""
    from gui.plotting.legend_strip import SAMPLE_WIDTH

    widget = _show(stage, qtbot, "lecture-positional-encoding", 10)
    plot = widget.plots["score"]
    samples = [sample for sample, _label in plot.legend.items]
    assert [s.dashed() for s in samples] == [False, True, False]
    before = [s.boundingRect().size().toTuple() for s in samples]
    assert before[0] == (SAMPLE_WIDTH, SAMPLE_WIDTH)
    focus = stage.lecture.focus
    try:
        assert focus.focus("score")
        assert stage.wait_idle(60)
        settle_window(stage)
        zoom = plot.text_zoom
        assert zoom >= 1.5
        solid, dashed, marker = (s.boundingRect().size().toTuple() for s in samples)
        assert solid == (SAMPLE_WIDTH * zoom, SAMPLE_WIDTH * zoom), solid
        assert marker[1] == SAMPLE_WIDTH * zoom and marker[0] >= SAMPLE_WIDTH * zoom
        assert dashed[0] >= SAMPLE_WIDTH * zoom
        # laid out as high as drawn: the line in the middle of its entry's row
        assert all(s.size().height() == SAMPLE_WIDTH * zoom for s in samples)
        # the strip still holds its entries: none of them runs past the data's width
        right = max(s.mapRectToItem(plot.legend, s.boundingRect()).right() for s in samples)
        assert right * plot.legend.scale() <= plot.plot.getViewBox().width() + 1
    finally:
        focus.unfocus()
        assert stage.wait_idle(60)
        settle_window(stage)
    assert [s.boundingRect().size().toTuple() for s in samples] == before


def test_a_table_alone_stays_above_the_notes_line_at_200_percent(stage, qtbot):
    """Compare's table alone (the lecture's scene 19) at 200 %: fitted to the stage
    below the heading but not above the notes line, its last row (KERPLE / Sandwich /
    FIRE) was 47 px below the fold and the scene scrolled. It is drawn a little
    smaller (17 pt instead of 19), still above the stage's text floor."""
    from gui.lecture.display import DEFAULT_PRESENT_SCALE

    display = stage.lecture.display
    display.set_scale(2.0)
    stage.resize(1920, 1080)
    try:
        widget = _show(stage, qtbot, "lecture-positional-encoding", 19)
        plot = widget.plots["table"]
        assert widget.scroll_area.verticalScrollBar().maximum() == 0
        assert plot.table_text_pt() >= widget._stage_text_pt() - 0.05
        item = plot.table.textItem
        box = item.mapRectToScene(item.boundingRect())
        bottom = widget.canvas.mapFromScene(box.bottomLeft()).y() + widget.canvas.y()
        assert bottom <= widget.scroll_area.viewport().height(), bottom
    finally:
        display.set_scale(DEFAULT_PRESENT_SCALE)
        stage.resize(1920, 1080)
        settle_window(stage)


def test_compares_table_grows_into_the_room_its_plots_leave_on_stage(stage, qtbot):
    """Compare on a 1920 x 1080 stage at 100 %: its four plots above the summary table
    left the stage's lower half to spare, yet the table kept its window size (10 pt,
    13 px tall letters) and the plots stretched into the room. Beside other plots the
    table grows into the room they leave, up to the axis titles' size (12 pt), the view
    still seen whole."""
    from gui.theme import current_theme
    from gui.widgets.view_widget import TABLE_SHARED_GROW

    display = stage.lecture.display
    display.set_scale(1.0)
    stage.resize(1920, 1080)
    try:
        if stage.lecture.deck.loaded:  # every panel shown, as no scene stages them
            stage.lecture.deck.close_deck()
        stage.set_view("compare")
        settle_window(stage)
        widget = stage.views["compare"]
        assert widget.shown_panels() is None
        plot = widget.plots["table"]
        full = current_theme().font_pt(10)
        assert full == 10
        assert plot.table_text_pt() == pytest.approx(TABLE_SHARED_GROW * full), plot.table_text_pt()
        assert widget.scroll_area.verticalScrollBar().maximum() == 0
    finally:
        from gui.lecture.display import DEFAULT_PRESENT_SCALE

        display.set_scale(DEFAULT_PRESENT_SCALE)
        stage.resize(1920, 1080)
        settle_window(stage)
