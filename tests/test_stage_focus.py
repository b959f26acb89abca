"""Focus one plot, a scene's panels, step-by-step reveal and highlight (issue 14, item 2).

The plots are the view's own ``PlotItem`` s, rearranged in the canvas' grid: the tests
read their geometry in the canvas, their visibility, item opacity and the heatmap mask.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets
from qt_events import double_click
from tiers import FULL
from window_reuse import reused_window, reused_window_holder  # noqa: F401  (fixtures)

from core.formula import minus_signs
from core.scenes import Deck, Highlight, Scene
from core.views import VIEWS
from gui.lecture.focus import grid_shape
from gui.plotting.emphasis import DIM_ALPHA, DIM_OPACITY, highlight_mask
from gui.render.math_text import math_html
from gui.theme import current_theme, set_theme

Key = QtCore.Qt.Key


@pytest.fixture
def window(reused_window):  # noqa: F811
    """This module's tests reuse one main window where they can (``window_reuse``)."""
    return reused_window


@pytest.fixture(autouse=True)
def _reset_theme():
    yield
    set_theme("light", ui_scale=1.0, sequential="viridis", diverging="CET-D1A")


def _scene(view_id: str, title: str = "s", **staging) -> Scene:
    params = VIEWS[view_id].model.validate(staging.pop("params", {}), partial=True)
    return Scene(view_id, params, title, "note", **staging)


def _settle(window) -> None:
    assert window.wait_idle()
    widget = window.views[window.current_view]
    widget.canvas.ci.layout.activate()
    QtWidgets.QApplication.processEvents()


def _geometry(window, view_id=None) -> dict[str, tuple[float, float, float, float]]:
    widget = window.views[view_id or window.current_view]
    # (rounded: the grid's arithmetic leaves 1e-13 px of noise after a focus and back)
    return {
        k: tuple(round(v, 6) for v in p.plot.geometry().getRect())
        for k, p in widget.plots.items()
        if p.plot.isVisible()
    }


def _visible(window) -> list[str]:
    widget = window.views[window.current_view]
    return [k for k, p in widget.plots.items() if p.plot.isVisible()]


def _focus_stage(window, qtbot):
    window.activateWindow()
    widget = window.views[window.current_view]
    widget.setFocus()
    qtbot.waitUntil(lambda: QtWidgets.QApplication.focusWidget() is widget)
    return widget


def _check_focus_and_back(window, qtbot, views, *, by_key: bool, only=None) -> int:
    """Focus every panel of ``views`` (by number key or API) and back, or only the
    panels numbered ``only[view_id]`` (1-based; -1: the last); returns the number of
    panels checked."""
    focus = window.lecture.focus
    checked = 0
    for view_id in views:
        window.set_view(view_id)
        _settle(window)
        widget = _focus_stage(window, qtbot) if by_key else window.views[view_id]
        before = _geometry(window)
        assert list(before) == [p.key for p in widget.data.panels]
        numbered = focus.numbered()
        wanted = None
        if only is not None:
            wanted = {n if n > 0 else len(numbered) + 1 + n for n in only[view_id]}
        for n, key in enumerate(numbered, start=1):
            if wanted is not None and n not in wanted:
                continue
            keyed = by_key and n <= 9  # panels past 9 have no key (double-click or API)
            if keyed:
                qtbot.keyClick(widget, Key.Key_0 + n)
            else:
                assert focus.toggle_number(n)
            _settle(window)
            shown = _geometry(window)
            assert list(shown) == [key], (view_id, key, shown)
            _x, _y, w, h = shown[key]
            # the canvas is as tall as what it shows: the focused plot fills it, and a
            # plot's view does not scroll
            port = widget.canvas.viewport().rect()
            assert w >= 0.95 * port.width() and h >= 0.95 * port.height(), (view_id, key)
            if widget.plots[key].panel.kind != "table":  # (a zoomed table may be taller)
                assert widget.scroll_area.verticalScrollBar().maximum() == 0, (view_id, key)
            assert not widget.explanation.isVisible()  # its room goes to the plot
            plot = widget.plots[key]
            if plot.panel.kind != "table":  # its own axes, also where neighbours share them
                assert plot.plot.getAxis("bottom").isVisible()
                assert plot.plot.getAxis("left").isVisible()
            if keyed:
                qtbot.keyClick(widget, Key.Key_0 + n)  # the same key goes back
            else:
                assert focus.escape()
            _settle(window)
            assert widget.explanation.isVisible() != window.lecture.display.presenting
            assert _geometry(window) == before, (view_id, key)
            assert focus.focused is None
            checked += 1
    return checked


def test_focus_panels_in_presentation_mode_and_esc(window, qtbot):
    """(Before the every-panel test: on the module's first window, whose only view is
    Sinusoidal's, presenting builds its four views at the presentation scale; after it,
    all eight views, built at 100 %, were re-styled to 150 % and back: ViewWidget.
    apply_theme ran 26 times in this module instead of 36, 4 s of CPU in 30.)"""
    window.lecture.display.enter_presentation(fullscreen=False)
    try:
        # a representative set (every panel of every view is focused and back in the
        # window, by number key, in the next test): a mosaic (ALiBi's heads, panel 1), the first
        # and the last of Word order's small multiples (they share their neighbours'
        # axes; the last has no number key), and Compare's table, by the API and back
        # by Esc's path (escape); the rest is as in the window
        only = {"alibi": (1,), "permutation": (1, -1), "compare": (-1,)}
        assert _check_focus_and_back(window, qtbot, only, by_key=False, only=only) == 4
        assert window.views["compare"].data.panels[-1].kind == "table"
        assert len(window.views["permutation"].data.panels) > 9
        # Esc leaves the focus first, then presentation mode
        window.set_view("rope")
        _settle(window)
        assert window.lecture.focus.focus("score")
        qtbot.keyClick(window, Key.Key_Escape)
        assert window.lecture.focus.focused is None and window.lecture.display.presenting
        qtbot.keyClick(window, Key.Key_Escape)
        assert not window.lecture.display.presenting
    finally:
        window.lecture.display.leave_presentation()


@FULL
def test_focus_every_panel_of_every_view_and_back_by_number_key(window, qtbot):
    assert _check_focus_and_back(window, qtbot, VIEWS, by_key=True) == sum(
        len(window.views[v].data.panels) for v in VIEWS
    )
    for view_id in VIEWS:  # every axis is back as the view shows it
        widget = window.views[view_id]
        for panel in widget.data.panels:
            if panel.kind != "table":
                plot = widget.plots[panel.key].plot
                assert plot.getAxis("bottom").isVisible() == panel.x_axis
                assert plot.getAxis("left").isVisible() == panel.y_axis


def test_focus_and_back_touch_no_other_view(window, monkeypatch):
    """Back from a focus shows that view's explanation again, before its rows are
    fitted: no other view's notes line is re-set (every built view's was, and the
    canvas was fitted again from the event loop)."""
    for view_id in ("rope", "alibi"):
        window.set_view(view_id)
        _settle(window)
    calls: list[str] = []
    rope = window.views["rope"]
    original = type(rope).refresh_notes

    def counted(self, **kwargs):
        calls.append(self.spec.view_id)
        return original(self, **kwargs)

    monkeypatch.setattr(type(rope), "refresh_notes", counted)
    focus = window.lecture.focus
    assert focus.focus("slopes")
    _settle(window)
    assert not window.views["alibi"].explanation.isVisible()
    assert focus.unfocus()
    assert window.views["alibi"].explanation.isVisible()  # at once, not from the loop
    _settle(window)
    assert calls and set(calls) == {"alibi"}, calls


def test_double_click_focuses_the_plot_under_the_mouse_and_back(window, qtbot):
    window.set_view("alibi")
    _settle(window)
    widget = window.views["alibi"]
    before = _geometry(window)
    rect = widget.plots["slopes"].plot.sceneBoundingRect()
    pos = widget.canvas.mapFromScene(rect.center())
    qtbot.mouseDClick(widget.canvas.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=pos)
    _settle(window)
    assert _visible(window) == ["slopes"]
    pos = widget.canvas.mapFromScene(widget.plots["slopes"].plot.sceneBoundingRect().center())
    double_click(widget.canvas.viewport(), pos)
    _settle(window)
    assert _geometry(window) == before


def test_number_keys_do_not_clash_and_ctrl_digits_still_switch_views(window, qtbot):
    focus = window.lecture.focus
    digits = {QtGui.QKeySequence(str(n)).toString() for n in range(1, 10)}
    for action in window.actions():  # no window-wide action takes a plain digit
        assert not digits & {s.toString() for s in action.shortcuts()}, action.objectName()
    assert len(focus.number_actions) == 9
    assert all(
        a.shortcutContext() == QtCore.Qt.ShortcutContext.WidgetWithChildrenShortcut
        for a in focus.number_actions
    )
    widget = _focus_stage(window, qtbot)
    qtbot.keyClick(widget, Key.Key_3, QtCore.Qt.KeyboardModifier.ControlModifier)
    assert window.current_view == "rope" and focus.focused is None
    # a digit typed into a spin box edits it, it focuses nothing
    window.activateWindow()
    spin = window.panels["rope"].rows["m"].editor
    spin.setFocus()
    qtbot.waitUntil(lambda: spin.hasFocus())
    spin.lineEdit().selectAll()
    qtbot.keyClick(spin, Key.Key_2)
    assert focus.focused is None
    widget = _focus_stage(window, qtbot)
    qtbot.keyClick(widget, Key.Key_9)  # no panel 9 in RoPE: nothing happens
    assert focus.focused is None
    qtbot.keyClick(widget, Key.Key_2)
    assert focus.focused == ("rope", "frequencies")
    window.set_view("alibi")  # another view leaves the focus
    assert focus.focused is None
    window.set_view("rope")
    _settle(window)
    assert len(_visible(window)) == len(window.views["rope"].data.panels) >= 4


def test_reveal_with_page_down_then_next_scene_and_back(window, qtbot):
    deck = window.lecture.deck
    focus = window.lecture.focus
    # the parameter dock widens to the widest panel built so far (RoPE's): build the
    # deck's views first, so the canvas keeps one width while the deck steps
    for view_id in ("rope", "sinusoidal", "alibi", "relative"):
        window.set_view(view_id)
        _settle(window)
    deck.set_deck(
        Deck(
            "d",
            (
                _scene("relative", "first"),
                _scene("sinusoidal", "reveal", reveal=True),
                _scene("rope", "chosen", panels=("score", "plane"), reveal=True),
                _scene("alibi", "after"),
            ),
        )
    )
    _settle(window)
    full = _geometry(window, "relative")
    qtbot.keyClick(window, Key.Key_PageDown)
    _settle(window)
    assert window.current_view == "sinusoidal" and deck.index == 1
    sequence = [_visible(window)]
    geometries = [_geometry(window)]
    keys = [p.key for p in window.views["sinusoidal"].data.panels]
    assert keys[:4] == ["waves", "heatmap", "similarity", "wavelength"]
    for _ in range(len(keys) - 1):
        qtbot.keyClick(window, Key.Key_PageDown)
        _settle(window)
        assert deck.index == 1
        sequence.append(_visible(window))
        geometries.append(_geometry(window))
    assert sequence == [keys[: i + 1] for i in range(len(keys))]
    # revealed panels keep their final places: nothing jumps while revealing
    for shown in geometries:
        for key, rect in shown.items():
            final = geometries[-1][key]  # within 2 px (a later row's axes settle its height)
            assert all(abs(a - b) <= 2 for a, b in zip(rect, final, strict=True)), (
                key,
                rect,
                final,
            )
    # the next Page Down moves on: a scene with its own panels, in its order, revealed
    qtbot.keyClick(window, Key.Key_PageDown)
    _settle(window)
    assert deck.index == 2 and window.current_view == "rope"
    assert _visible(window) == ["score"]
    # the notes under the plots are those of the plots shown, no others
    rope = window.views["rope"]
    notes = rope.status_text()
    assert "fixed random q, k" in notes  # the score's
    assert "xPos" not in notes and "RoFormer" not in notes and "pair 0 = dims" not in notes
    assert "dynamic ×4" not in notes  # a view note about the frequency plot
    qtbot.keyClick(window, Key.Key_PageDown)
    _settle(window)
    assert "fixed random q, k" in rope.status_text() and "pair 0 = dims" in rope.status_text()
    assert "xPos" not in rope.status_text()
    focus.focus("plane")  # a focused plot: its notes alone
    _settle(window)
    assert "pair 0 = dims" in rope.status_text()
    assert "fixed random q, k" not in rope.status_text()
    focus.unfocus()
    _settle(window)
    assert "fixed random q, k" in rope.status_text()
    shown = _geometry(window)
    assert sorted(shown) == ["plane", "score"]
    assert shown["score"][0] < shown["plane"][0]  # score first (left), as the scene says
    assert len(_visible(window)) == 2  # frequencies and decay are not part of the scene
    # Page Up hides again, then goes back; entering backwards shows everything
    qtbot.keyClick(window, Key.Key_PageUp)
    _settle(window)
    assert deck.index == 2 and _visible(window) == ["score"]
    qtbot.keyClick(window, Key.Key_PageUp)
    _settle(window)
    assert deck.index == 1 and _visible(window) == keys
    # Page Up hides them one at a time again, then goes back; that view's own layout
    for shown in [keys[:i] for i in range(len(keys) - 1, 0, -1)]:
        qtbot.keyClick(window, Key.Key_PageUp)
        _settle(window)
        assert deck.index == 1 and _visible(window) == shown
    qtbot.keyClick(window, Key.Key_PageUp)
    _settle(window)
    assert deck.index == 0 and _geometry(window) == full
    deck.go(3)
    _settle(window)
    window.set_view("rope")
    _settle(window)
    assert len(_visible(window)) == len(window.views["rope"].data.panels)  # all back
    assert focus.staging == {}
    notes = window.views["rope"].status_text()  # every plot shown: every note
    assert all(t in notes for t in ("fixed random q, k", "xPos", "RoFormer", "dynamic ×4"))


def test_scene_panels_are_laid_out_in_a_grid_and_focus_numbers_follow_them(window, qtbot):
    deck = window.lecture.deck
    focus = window.lecture.focus
    deck.set_deck(Deck("d", (_scene("compare", panels=("table", "distance", "indices")),)))
    _settle(window)
    shown = _geometry(window)
    assert list(focus.shown_keys()) == ["table", "distance", "indices"]
    assert sorted(shown) == ["distance", "indices", "table"]
    xs = [shown[k][0] for k in ("table", "distance", "indices")]
    assert xs == sorted(xs) and len({round(shown[k][1]) for k in shown}) == 1  # one row
    assert grid_shape(3) == (1, 3) and grid_shape(4) == (2, 2) and grid_shape(9) == (3, 3)
    assert focus.toggle_number(1) and focus.focused == ("compare", "table")
    _settle(window)
    assert _visible(window) == ["table"]
    assert focus.toggle_number(1)
    _settle(window)
    assert _geometry(window) == shown


def test_highlight_series_dims_the_other_curves_and_their_legend(window):
    deck = window.lecture.deck
    deck.set_deck(
        Deck("d", (_scene("sinusoidal", highlight=Highlight("waves", "series", "dim 4")),))
    )
    _settle(window)
    plot = window.views["sinusoidal"].plots["waves"]
    names = [s.name for s in plot.panel.series]
    chosen = [n.startswith("dim 4 ") for n in names]
    assert sum(chosen) == 1
    for item, on in zip(plot.curves, chosen, strict=True):
        assert item.opacity() == (1.0 if on else DIM_OPACITY)
        assert item.opts["pen"].color().alpha() == 255  # colours stay: only the rest dims
    for (_sample, label), on in zip(plot.legend.items, chosen, strict=True):
        assert label.opacity() == (1.0 if on else DIM_OPACITY)
    highlighted = plot.curves[chosen.index(True)]
    others = [c for c, on in zip(plot.curves, chosen, strict=True) if not on]
    assert highlighted.zValue() > max(c.zValue() for c in others)
    # the other panels are untouched
    other = window.views["sinusoidal"].plots["wavelength"]
    assert all(c.opacity() == 1.0 for c in other.curves)
    # a redraw (new theme: rebuilt items) keeps the highlight
    window.lecture.display.toggle_theme()
    _settle(window)
    plot = window.views["sinusoidal"].plots["waves"]
    assert [c.opacity() for c in plot.curves].count(1.0) == 1
    # another scene clears it
    deck.set_deck(Deck("d", (_scene("sinusoidal"),)))
    _settle(window)
    assert all(c.opacity() == 1.0 for c in plot.curves)


def _pixel(window, view_box, point: QtCore.QPointF) -> QtGui.QColor:
    """The colour drawn at view point ``point`` of ``view_box``."""
    canvas = window.views[window.current_view].canvas
    image = canvas.grab().toImage()
    return QtGui.QColor(image.pixel(canvas.mapFromScene(view_box.mapViewToScene(point))))


def test_highlight_head_dims_the_other_heads(window):
    deck = window.lecture.deck
    plain = _scene("alibi", params={"heads": 8})
    deck.set_deck(Deck("d", (plain, replace(plain, highlight=Highlight("heads", "head", 8)))))
    _settle(window)
    plot = window.views["alibi"].plots["heads"]
    vb = plot.plot.getViewBox()
    rows, cols = plot.image.image.shape
    r = plot.image.mapRectToParent(plot.image.boundingRect())
    dx, dy = r.width() / cols, r.height() / rows

    def tile_rect(tile):
        return QtCore.QRectF(
            r.left() + tile.col0 * dx,
            r.top() + tile.row0 * dy,
            len(tile.x_coords) * dx,
            len(tile.y_coords) * dy,
        )

    # the bottom-left cell of head 1 (steepest: the darkest colour) and of head 8
    first, last = plot.panel.tiles[0], plot.panel.tiles[7]
    # three cells in from the corner: clear of the highlight's outline at any cell size
    inside = QtCore.QPointF(2.5 * dx, -2.5 * dy)
    in_first = tile_rect(first).bottomLeft() + inside
    in_last = tile_rect(last).bottomLeft() + inside
    before = (_pixel(window, vb, in_first), _pixel(window, vb, in_last))
    assert highlight_mask(plot) is None or not highlight_mask(plot).isVisible()
    deck.step(1)
    _settle(window)
    mask = highlight_mask(plot)
    assert mask is not None and mask.isVisible()
    assert mask.cells == (tile_rect(last),)
    assert mask.fill.alpha() == DIM_ALPHA and mask.fill.name() == current_theme().background
    assert mask.pen.widthF() > 0
    after = (_pixel(window, vb, in_first), _pixel(window, vb, in_last))
    assert after[1] == before[1]  # head 8 keeps its colour
    a = DIM_ALPHA / 255  # head 1 is washed towards the background
    for channel in ("red", "green", "blue"):
        expected = a * 255 + (1 - a) * getattr(before[0], channel)()
        assert abs(getattr(after[0], channel)() - expected) <= 3


def test_highlight_row_and_cell_on_a_heatmap(window):
    deck = window.lecture.deck
    deck.set_deck(
        Deck(
            "d",
            (
                _scene("relative", params={"seq_len": 12}, highlight=Highlight("grid", "row", 5)),
                _scene(
                    "relative",
                    params={"seq_len": 12},
                    highlight=Highlight("shaw", "cell", (5, 2)),
                ),
            ),
        )
    )
    _settle(window)
    plot = window.views["relative"].plots["grid"]
    mask = highlight_mask(plot)
    assert mask is not None and mask.isVisible()
    (cell,) = mask.cells
    assert (cell.top(), cell.bottom()) == (4.5, 5.5)  # the row at position 5
    assert (cell.left(), cell.right()) == (-0.5, 11.5)  # all its columns
    deck.step(1)
    _settle(window)
    assert not highlight_mask(plot).isVisible()
    shaw = window.views["relative"].plots["shaw"]
    (cell,) = highlight_mask(shaw).cells
    assert cell == QtCore.QRectF(1.5, 4.5, 1.0, 1.0)  # row 5, column 2
    assert np.isfinite(shaw.image.image).all()


def test_shipped_lecture_deck_stages_some_scenes():
    from core.resources import resource_path
    from core.scenes import load_deck

    deck = load_deck(resource_path("decks") / "lecture-positional-encoding.json")
    staged = {i: s for i, s in enumerate(deck.scenes) if s.panels or s.reveal or s.highlight}
    assert 1 <= sum(s.reveal for s in staged.values()) <= 2
    assert any(s.highlight for s in staged.values()) and any(s.panels for s in staged.values())
    for scene in staged.values():  # the note tells the lecturer what Page Down does
        if scene.reveal:
            assert "Page Down" in scene.note
        if scene.highlight is not None and scene.highlight.kind == "head":
            assert f"Head {scene.highlight.value}" in scene.note


def test_revealed_plots_show_the_scenes_data_range(window, qtbot):
    """A scene that changes the data while its plots are hidden (reveal): each plot,
    once revealed, spans the new data, not the range it had before it was hidden
    (lecture deck scene 3, d = 16 after 32: the PE matrix kept 0..32 with its columns
    in the left half, the wavelengths 0..15 with 8 points)."""
    window.set_view("sinusoidal")
    _settle(window)
    assert window.states["sinusoidal"].values["d_model"] == 32
    deck = window.lecture.deck
    deck.set_deck(
        Deck(
            "d",
            (
                _scene("relative", "first"),
                _scene("sinusoidal", "reveal", reveal=True, params={"d_model": 16}),
            ),
        )
    )
    _settle(window)
    qtbot.keyClick(window, Key.Key_PageDown)
    _settle(window)
    widget = window.views["sinusoidal"]
    for _ in range(len(widget.data.panels) - 1):
        qtbot.keyClick(window, Key.Key_PageDown)
        _settle(window)
    assert deck.index == 1 and len(_visible(window)) == len(widget.data.panels)
    (x0, x1), _ = widget.plots["heatmap"].plot.getViewBox().viewRange()
    assert x1 - x0 < 20, (x0, x1)  # 16 columns and the padding, not 32
    (x0, x1), _ = widget.plots["wavelength"].plot.getViewBox().viewRange()
    assert x1 < 10, (x0, x1)  # pairs 0..7


@FULL
def test_a_drags_held_axis_room_ends_with_a_focus_and_back(window, qtbot):
    """Through a slider drag an axis keeps the room of its widest tick labels (no
    re-layout when they narrow); a focus ends that hold before anything moves, so the
    plots come back from it laid out as without the drag, whenever the full-quality
    timer fires (a release left to it came during the focus in one run of three: the
    plots came back 31 px shorter)."""
    window.set_view("rope")
    _settle(window)
    widget, focus = window.views["rope"], window.lecture.focus
    before = _geometry(window)
    data = widget.data
    key = "simplified"  # (its values follow m: a drag narrows its labels)
    wide = replace(
        data,
        panels=[
            replace(p, series=[replace(s, y=np.asarray(s.y) * -25000.0) for s in p.series])
            if p.key == key
            else p
            for p in data.panels
        ],
    )
    axis = widget.plots[key].plot.getAxis("left")
    width = axis.width()
    full_quality = widget.full_quality
    widget.full_quality = lambda: None  # (the drag is not over during the test)
    try:
        widget.show_data(wide, live=True)
        widget.show_data(data, live=True)
        assert axis.textWidth > axis.text_need + 10  # the wide labels' room is held
        assert focus.toggle_number(focus.numbered().index(key) + 1)
        _settle(window)
        assert axis.textWidth < axis.text_need + 10  # released as the focus began
        assert focus.escape()
        _settle(window)
        assert _geometry(window) == before
        assert axis.width() == width
    finally:
        widget.full_quality = full_quality
        focus.escape()


@FULL
def test_a_focus_during_a_drag_shows_the_right_notes_at_once_and_after_it(window, qtbot):
    """The notes line of a drag refreshes with the formula's interval, but a focus
    and back show the notes of the plots shown at once, and the text due when the
    interval ends is the latest: the notes of a frame drawn while focused are not
    shown after the way back (they kept the focused panel's notes, and the line its
    height: the plots came back 31 px shorter)."""
    window.set_view("rope")
    _settle(window)
    widget, focus, state = window.views["rope"], window.lecture.focus, window.states["rope"]
    everything = widget.data.display_notes(None)
    key = next(
        k for k in focus.numbered() if widget.data.display_notes([k]) not in ([], everything)
    )
    notes: list[str] = []

    def line(keys: list[str] | None) -> str:
        """The notes line of the plots ``keys`` (all: ``None``) as shown: a value's
        minus the sign U+2212, as the plot titles write it."""
        return minus_signs(" · ".join(widget.data.display_notes(keys)))

    set_text = widget.status.setText
    widget.status.setText = lambda text: (notes.append(text), set_text(text))
    widget.live_text.setTimeout(3_600_000)  # the interval does not end during the drag
    widget.live_text.flush(restart_timer=False)  # ... and none is running before it

    def drag_to(m: int) -> None:
        state.set_param("m", m)
        qtbot.waitUntil(lambda: widget.data.params["m"] == m, timeout=5000)

    try:
        drag_to(state.values["m"] + 1)
        assert focus.toggle_number(focus.numbered().index(key) + 1)
        assert widget.status_text() == line([key])
        drag_to(state.values["m"] + 1)  # a frame drawn while focused: its text waits
        assert focus.escape()
        assert widget.status_text() == line(None)
        shown = len(notes)
        widget.live_text.setTimeout(0)  # the interval ends
        qtbot.waitUntil(lambda: not widget.text_pending, timeout=5000)
        joined = line(None)
        assert notes[shown:] in ([], [math_html(joined) or joined])  # (its math typeset)
        assert widget.status_text() == line(None)
    finally:
        del widget.status.setText
        widget.live_text.setTimeout(widget.TEXT_REFRESH_MS)
        focus.escape()


def test_no_readout_from_a_panel_not_revealed_yet(window, qtbot):
    """Found on Xvfb (lecture deck, scene 3 revealed to its first plot, 1920 × 1080 at
    150 %): the pointer resting in the empty place of the next plot showed that plot's
    value ("position 10, dim 6 (sin): 0.31") on the audience's screen, before it was
    revealed. A hidden plot gives no readout; once revealed it does."""
    deck = window.lecture.deck
    deck.set_deck(Deck("d", (_scene("sinusoidal", "reveal", reveal=True),)))
    _settle(window)
    widget = window.views["sinusoidal"]
    assert _visible(window) == ["waves"]
    heatmap = widget.plots["heatmap"]
    scene = widget.canvas.scene()
    centre = heatmap.plot.getViewBox().sceneBoundingRect().center()
    value = heatmap.panel.probe(*_view_point(heatmap, centre))
    assert value  # there is a value to read there
    scene.sigMouseMoved.emit(centre)
    assert not heatmap.hover.shown and heatmap.hover.outline_rect() is None
    assert value not in widget.status.text()  # nor in the readout line
    qtbot.keyClick(window, Key.Key_PageDown)  # revealed: its readout is back
    _settle(window)
    assert "heatmap" in _visible(window)
    centre = heatmap.plot.getViewBox().sceneBoundingRect().center()
    scene.sigMouseMoved.emit(centre)
    assert heatmap.hover.shown


def _view_point(plot, scene_pos: QtCore.QPointF) -> tuple[float, float]:
    p = plot.plot.getViewBox().mapSceneToView(scene_pos)
    return p.x(), p.y()


@pytest.mark.parametrize("back", ["esc", "same key"])
def test_going_back_from_a_focus_takes_its_message_and_readout_away(window, qtbot, back):
    """Found on Xvfb (Sinusoidal, 1 then Esc or 1 again): "Panel 1 of 6 fills the
    stage — …" stayed in the status bar (on stage: the toast) after going back to all
    panels, and the notes line kept the focused plot's hover readout ("position p = 160
    — dim 0 (sin): …") once the readout by the cursor had gone."""
    window.set_view("sinusoidal")
    _settle(window)
    widget = window.views["sinusoidal"]
    focus = window.lecture.focus
    qtbot.keyClick(widget.canvas, Key.Key_1)
    _settle(window)
    assert focus.focused == ("sinusoidal", "waves")
    said = window.statusBar().currentMessage()
    assert said.startswith("Panel 1 of ") and "fills the stage" in said
    waves = widget.plots["waves"]
    centre = waves.plot.getViewBox().sceneBoundingRect().center()
    widget.canvas.scene().sigMouseMoved.emit(centre)
    readout = widget.status_text()
    assert waves.hover.shown and readout.startswith("position p = ")
    if back == "esc":
        qtbot.keyClick(window, Key.Key_Escape)
    else:
        qtbot.keyClick(widget.canvas, Key.Key_1)
    _settle(window)
    assert focus.focused is None
    assert window.statusBar().currentMessage() == ""  # the message went with the focus
    assert not any(plot.hover.shown for plot in widget.plots.values())  # no readout
    assert widget.status_text() != readout and not widget.status_text().startswith("position")
    # another message stays: only the focus's own is taken away
    qtbot.keyClick(widget.canvas, Key.Key_1)
    window.show_status("Saved scene x.json")
    focus.unfocus()
    assert window.statusBar().currentMessage() == "Saved scene x.json"
