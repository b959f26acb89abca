"""Side by side and ghost (issue 15 item 3): two states of one view on one stage, B
driven by A through a variant; a ghost of the previous scene drawn faintly."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtGui
from tiers import FULL

from core.composite import (
    parse_variant,
    side_by_side,
    variant_params,
    variant_text,
    with_ghost,
)
from core.params import ParamError
from core.scenes import Deck, Scene
from core.viewdata import ComputeContext
from core.views import get_view

ROPE = get_view("rope")


def rope(**changes):
    return ROPE.compute(ROPE.model.validate(changes, partial=True), ComputeContext())


def test_variant_parse_apply_and_text():
    variant = parse_variant("m+100, n-2, scaling=linear", ROPE.model)
    assert variant == {"m": ("+", 100), "n": ("+", -2), "scaling": ("=", "linear")}
    b = variant_params(ROPE.model.validate({"m": 5, "n": 9}, partial=True), variant, ROPE.model)
    assert (b["m"], b["n"], b["scaling"]) == (105, 7, "linear")
    assert variant_text(variant) == "m+100, n-2, scaling=linear"
    for bad, word in (("m*2", "malformed"), ("style+1", "not a number"), ("nope=1", "nope")):
        with pytest.raises(ValueError, match=word):
            parse_variant(bad, ROPE.model)
    with pytest.raises(ParamError):  # B outside the range: a clear error, not a clamp
        variant_params(ROPE.model.defaults(), parse_variant("m-100", ROPE.model), ROPE.model)


@pytest.mark.parametrize(
    ("text", "number"), [("m+100,,n+100", 2), ("m+100, n+100,", 3), (",m+100", 1), (" , ", 1)]
)
def test_an_empty_variant_term_is_refused_naming_its_place(text, number):
    """An empty term (two commas, a comma at either end) is a one-line error naming its
    place, as an empty item of a list parameter is; it was dropped, and "m+100,,n+100"
    read as a variant with the middle term never meant. No term at all is the empty
    variant (B equals A)."""
    with pytest.raises(ValueError, match=f"^empty term {number} in ") as info:
        parse_variant(text, ROPE.model)
    assert "\n" not in str(info.value) and "m+100, n+100" in str(info.value)
    assert parse_variant("", ROPE.model) == {} and parse_variant("  ", ROPE.model) == {}
    assert parse_variant(" m+100 , n+100 ", ROPE.model) == {"m": ("+", 100), "n": ("+", 100)}


def test_the_window_says_an_empty_variant_term_and_keeps_b(window, monkeypatch):
    """Ctrl+Alt+Shift+B with "m+100,,n+5" typed: the status line names the empty term
    and B stays as it was (m+100, n+100); before, B became "m+100, n+5" silently."""
    from PySide6 import QtWidgets

    from gui.lecture.composite import ask_variant

    window.set_view("rope")
    stage = window.lecture.composite
    before = dict(stage.variant())
    monkeypatch.setattr(QtWidgets.QInputDialog, "getText", lambda *a, **k: ("m+100,,n+5", True))
    ask_variant(stage)
    message = window.statusBar().currentMessage()
    assert message.startswith("empty term 2 in 'm+100,,n+5'; expected NAME+OFFSET"), message
    assert stage.variant() == before == {"m": ("+", 100), "n": ("+", 100)}


def test_side_by_side_places_b_right_of_a():
    a, b = rope(m=5, n=9), rope(m=105, n=109)
    both = side_by_side(a, b, "A", "B")
    keys = [p.key for p in both.panels]
    assert keys == [f"A/{p.key}" for p in a.panels] + [f"B/{p.key}" for p in b.panels]
    width = max(p.col + p.col_span for p in a.panels)
    assert [p.col for p in both.panels[len(a.panels) :]] == [p.col + width for p in b.panels]
    assert both.panels[0].title.startswith("A: ")
    assert both.formula.startswith("A:  ") and f"B:  {b.formula}" in both.formula


def test_ghost_adds_faint_earlier_curves_in_the_same_colours():
    now, before = rope(m=5, n=9), rope(m=40, n=9)
    data = with_ghost(now, before)
    score = data.panel("score")
    ghosts = [s for s in score.series if s.name.startswith("before: ")]
    own = [s for s in score.series if not s.name.startswith("before: ")]
    old = [s for s in before.panel("score").series if s.style != "scatter"]
    assert len(ghosts) == len(old) and all(s.opacity < 0.5 for s in ghosts)
    for g, o in zip(ghosts, old, strict=True):
        np.testing.assert_array_equal(g.y, o.y)
    assert [s.color for s in own] == list(range(len(own)))  # colours do not shift
    plane = data.panel("plane")
    assert len(plane.series) == len(before.panel("plane").arrows)  # arrows as faint lines
    assert data.panel("frequencies").series[0].name.startswith("before: ")


def _wait_shown(qtbot, stage, check):
    box = {}

    def done():
        data = stage.widget.data if stage.widget is not None else None
        if data is not None and check(data):
            box["data"] = data
            return True
        return False

    qtbot.waitUntil(done, timeout=20000)
    return box["data"]


def _score_at_offset(panel):
    point = next(s for s in panel.series if s.style == "scatter")
    return float(point.y[0])


def test_side_by_side_states_stay_in_sync(window, qtbot):
    window.set_view("rope")
    stage = window.lecture.composite
    state = window.states["rope"]
    window.qt.findChild(QtGui.QAction, "action-side-by-side").trigger()  # Ctrl+Alt+B
    assert stage.side  # the default RoPE variant: m+100, n+100
    assert stage.widget is not None and stage.widget.isVisible()
    for m in (5, 20, 33):
        state.set_param("m", m)
        data = _wait_shown(qtbot, stage, lambda d, m=m: d.params["m"] == m)
        a, b = data.panel("A/plane"), data.panel("B/plane")
        assert f"m={m})" in a.arrows[1].name and f"m={m + 100})" in b.arrows[1].name
        # the same shift on both positions: the score of m − n is unchanged
        assert _score_at_offset(data.panel("A/score")) == pytest.approx(
            _score_at_offset(data.panel("B/score")), abs=1e-9
        )
    stage.set_side(False)
    assert not stage.widget.isVisible()


@FULL
def test_sweep_drives_both_states(window, qtbot):
    window.set_view("clock")
    stage = window.lecture.composite
    stage.set_variant("m+3")
    stage.set_side(True)
    sweep = window.lecture.sweep
    sweep.configure(param="m", start=1.0, end=5.0, duration=4.0, mode="once")
    now = [0.0]
    sweep.clock, sweep.interval_ms = (lambda: now[0]), (lambda: 10**8)
    sweep.play()
    for t in (1.0, 2.5, 4.0):
        assert window.wait_idle()
        now[0] = t
        sweep._tick()
        data = _wait_shown(qtbot, stage, lambda d, t=t: d.params["m"] == 1.0 + t)
        qa = data.panel("A/plane").arrows[0]
        qb = data.panel("B/plane").arrows[0]
        assert qa.name == f"q (m={1.0 + t:g})" and qb.name == f"q (m={4.0 + t:g})"


@FULL
def test_ghost_of_the_previous_scene(window, qtbot):
    deck = window.lecture.deck
    params = get_view("rope").model.defaults()
    deck.set_deck(
        Deck(
            "t",
            (
                Scene("rope", {**params, "m": 5}, "one"),
                Scene("rope", {**params, "m": 60}, "two"),
                Scene("alibi", get_view("alibi").model.defaults(), "three"),
            ),
        )
    )
    stage = window.lecture.composite
    stage.set_ghost(True)
    assert deck.go(0)
    assert stage.widget is None or not stage.widget.isVisible()  # no previous scene
    assert deck.go(1)
    data = _wait_shown(qtbot, stage, lambda d: d.params["m"] == 60)
    ghosts = [s for s in data.panel("score").series if s.name.startswith("before: ")]
    want = [s for s in rope(m=5).panel("score").series if s.style != "scatter"]
    assert ghosts and len(ghosts) == len(want)
    assert deck.go(2)  # another view: no ghost
    assert not stage.widget.isVisible()
