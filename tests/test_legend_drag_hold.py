"""A drag's legend strip keeps the settled one where that holds the drag's names.

Through a drag the legend names that follow the slider hold room for the widest value
of its range (``StripLegend.reserve``), so that a name that grows a digit does not plan
the strip again on each frame. On the 1920 × 1080 stage at 200 %, lecture scene 11
(RoPE, "Context extension: linear interpolation") shows the score legend "query at
m=5", "query at m=8197", "m − n = −4" on one row, settled before the drag and after
it; the room held for "query at m=000000" (299 px a query entry in an 832 px strip)
did not fit three columns, so from m = 9 on, while → nudged m, the strip took two rows
("m − n = 6" alone on the second): the score plot shrank by a row and grew back once
the drag was over. (RoPE's score legend names its lines without values now; the tests
give it its names as they were, :func:`names_with_values`: a drag's names that follow the
slider, as other legends' do.)
"""

from __future__ import annotations

import pytest
from live_frames import held_drags
from PySide6 import QtCore, QtGui, QtWidgets
from qt_events import settle_window
from tiers import gate_cover

from gui.lecture import stage_strip


def names_with_values(data):  # type: ignore[no-untyped-def]
    """RoPE's ``data`` with its score legend's names following m, as they did before the
    legend named its lines without values: "query at m=5", "query at m=261", "m − n =
    −4". The names that follow a slider (the legend's drag hold below) in a real drag."""
    from dataclasses import replace

    m, n, length = (int(data.params[k]) for k in ("m", "n", "seq_len"))
    names = {"query at m": f"query at m={m}", f"query at m + {length}": f"query at m={m + length}"}
    names["q at m, k at n"] = f"m − n = {m - n}"
    panels = [
        replace(p, series=[replace(s, name=names.get(s.name, s.name)) for s in p.series])
        if p.key == "score"
        else p
        for p in data.panels
    ]
    return replace(data, panels=panels)


@pytest.fixture
def rope_names_with_values(monkeypatch):  # type: ignore[no-untyped-def]
    """The window's RoPE computes :func:`names_with_values`."""
    from dataclasses import replace

    from core.views import VIEWS

    spec = VIEWS["rope"]
    compute = spec.compute
    monkeypatch.setitem(
        VIEWS, "rope", replace(spec, compute=lambda p, ctx: names_with_values(compute(p, ctx)))
    )


def _nudge(window) -> None:
    """→ pressed and let go on the stage (one step of the slider), drawn."""
    no_mods = QtCore.Qt.KeyboardModifier.NoModifier
    for kind in (QtCore.QEvent.Type.KeyPress, QtCore.QEvent.Type.KeyRelease):
        event = QtGui.QKeyEvent(kind, QtCore.Qt.Key.Key_Right, no_mods, "", False)
        QtWidgets.QApplication.sendEvent(window.stage, event)
        assert window.wait_idle(60)
        QtWidgets.QApplication.processEvents()


def _score_strip(widget) -> tuple:
    """``(columns, spans, strip height, data height, rows of the entries' labels)`` of
    the score plot's legend as laid out: the rows as the labels' tops (px)."""
    plot = widget.plots["score"]
    legend = plot.legend
    legend.layout.activate()
    tops = [round(label.geometry().top()) for _sample, label in legend.items]
    return (
        legend.columnCount,
        legend.spans,
        plot.plot.getAxis("top").height(),
        plot.plot.getViewBox().height(),
        tops,
    )


def _reads_in_order(widget) -> bool:
    """Whether the score legend's labels read in the curves' order (left to right, top
    to bottom)."""
    legend = widget.plots["score"].legend
    spots = [(label.geometry().top(), label.geometry().left()) for _s, label in legend.items]
    return all(
        b[0] > a[0] + 0.5 or (abs(b[0] - a[0]) <= 0.5 and b[1] > a[1])
        for a, b in zip(spots, spots[1:], strict=False)
    )


def test_an_m_drag_keeps_the_settled_score_legend_on_the_200_percent_stage(
    lecture_stage, monkeypatch, rope_names_with_values
):
    # (the run of nudges is one drag until the test ends it: no timer ends it)
    monkeypatch.setattr(stage_strip, "NUDGE_RUN_MS", 600_000)
    window = lecture_stage
    with held_drags():
        window.lecture.deck.go(10)  # scene 11
        assert window.wait_idle(60)
        settle_window(window)
        assert window.lecture.deck.current_scene().title.startswith("Context extension")
        widget = window.views["rope"]
        state = window.states["rope"]
        assert state.values["m"] == 5
        settled = _score_strip(widget)
        assert settled[0] == 3 and len(set(settled[4])) == 1  # (one row: as drawn afresh)
        legend = widget.plots["score"].legend
        frames = []
        for _ in range(10):  # m 5 → 15, one drag
            _nudge(window)
            frames.append((state.values["m"], _score_strip(widget)))
            assert _reads_in_order(widget)
        assert state.values["m"] == 15
        assert legend.reserved  # (room held for m's numbers: the drag's hold)
        assert [strip for _m, strip in frames] == [settled] * 10, frames
        widget.finish_live_frame()  # the drag is over
        controls = window.feature(stage_strip.StageControls)
        controls.nudge_run.timeout.emit()
        settle_window(window)
        assert not legend.reserved
        assert _score_strip(widget) == settled


SCORE = ["query at m=9", "query at m=8201", "m − n = 0"]  # (scene 11's, at m = 9)


# the gate: 200 % (the report's); the same sweep at 100 and 150 % with --full
@pytest.mark.parametrize("scale", gate_cover([1.0, 1.5, 2.0], keep=(2.0,)))
def test_a_held_legend_flows_as_its_own_texts_do(qapp, scale):
    """Room held for six-digit numbers (a drag of m's range) in RoPE's score legend, in
    a frequency legend's "query at m=…" entry, and in the frequency legend's entries,
    one or all, flows the strip as the entries' own texts do at every width from 200 to
    1400 px: the same columns, entries across them, lines and wrapped entries (on integ
    the held room flowed otherwise at 377 of the 1800 widths and scales). At 832 px
    / 200 % (scene 11 on the 1920 x 1080 stage) room is still held beyond each score
    entry's own text."""
    from test_legend_flow import FREQUENCIES, _frequency_legend

    from gui.plotting.legend_strip import _natural_width

    cases = [
        (SCORE, [0, 1, 2]),
        ([*FREQUENCIES[:3], "query at m=9: fast pairs"], [3]),
        (FREQUENCIES, [0, 1, 2, 3, 4, 5]),  # ("×8" held as "×000000")
        (FREQUENCIES, [4]),
    ]
    for names, held in cases:
        legend = _frequency_legend(scale, names)
        legend.reserve(6, held)
        for width in range(200, 1400, 8):
            free, kept = legend.flow(width, held=False), legend.flow(width)
            shape = (kept.columns, kept.spans, kept.lines, kept.wrapped)
            assert shape == (free.columns, free.spans, free.lines, free.wrapped), (names, width)
    legend = _frequency_legend(2.0, SCORE)
    legend.reserve(6, [0, 1, 2])
    assert legend.flow(832.0) == legend.flow(832.0, held=False)
    rooms = legend._held(832.0)
    naturals = [_natural_width(label) for _s, label in legend.items]
    assert all(room > natural for room, natural in zip(rooms, naturals, strict=True))
