"""RoPE clock view: its hands turn exactly as core's RoPE frequencies say."""

from __future__ import annotations

import math

import numpy as np
import pytest

from core.encodings import rope_inv_freq
from core.viewdata import ComputeContext
from core.views import VIEWS, clock

SPEC = VIEWS["clock"]


def compute(**changes):
    return SPEC.compute(SPEC.model.validate(changes, partial=True), ComputeContext())


@pytest.mark.parametrize(
    ("scaling", "extra"),
    [
        (None, {}),
        ({"rope_type": "linear", "factor": 4.0}, {"scaling": "linear", "factor": 4.0}),
        (
            {
                "rope_type": "yarn",
                "factor": 8.0,
                "original_max_position_embeddings": 2048,
                "beta_fast": 32.0,
                "beta_slow": 1.0,
            },
            {"scaling": "yarn", "factor": 8.0},
        ),
    ],
)
def test_hands_are_at_position_times_core_frequency(scaling, extra):
    inv, _ = rope_inv_freq(32, 500.0, scaling)
    for m, n, shift in [(2.0, 1.0, 0.0), (7.25, 3.5, 0.4), (1000.125, 0.0, 12.5)]:
        data = compute(head_dim=32, base=500.0, m=m, n=n, shift=shift, hands=4, **extra)
        pairs = clock.hand_pairs(16, 4)
        assert pairs == [0, 2, 5, 15]  # fastest to slowest
        for j, i in enumerate(pairs):
            q, k = data.panel(f"hand{j}").arrows
            np.testing.assert_allclose(
                [q.x, q.y],
                [math.cos((m + shift) * inv[i]), math.sin((m + shift) * inv[i])],
                atol=1e-12,
            )
            np.testing.assert_allclose(
                [k.x, k.y],
                [math.cos((n + shift) * inv[i]), math.sin((n + shift) * inv[i])],
                atol=1e-12,
            )


def test_shift_turns_both_hands_and_keeps_angle_and_score():
    a, b = compute(m=5.0, n=2.0, shift=0.0), compute(m=5.0, n=2.0, shift=37.3)
    qa, ka = a.panel("plane").arrows
    qb, kb = b.panel("plane").arrows
    assert not np.isclose(qa.x, qb.x)  # the hands moved ...
    dot_a, dot_b = qa.x * ka.x + qa.y * ka.y, qb.x * kb.x + qb.y * kb.y
    assert dot_a == pytest.approx(dot_b, abs=1e-12)  # ... the score did not
    assert dot_a == pytest.approx(math.cos(3.0), abs=1e-12)
    angle_and_dot = [lb.text for lb in a.panel("plane").labels][:2]
    assert angle_and_dot == [lb.text for lb in b.panel("plane").labels][:2]
    assert a.panel("plane").title == b.panel("plane").title


def test_projection_arc_and_trail():
    data = compute(m=2.0, n=1.0, trail=2.0, head_dim=64, base=10000.0)
    plane = data.panel("plane")
    shadow = next(s for s in plane.series if s.name == "q·k")
    np.testing.assert_allclose(shadow.x[-1], math.cos(1.0) * math.cos(1.0), atol=1e-12)
    np.testing.assert_allclose(shadow.y[-1], math.cos(1.0) * math.sin(1.0), atol=1e-12)
    arc = next(s for s in plane.series if s.name == "angle (m − n)·θ")
    angles = np.arctan2(arc.y, arc.x)
    assert angles[0] == pytest.approx(1.0) and angles[-1] == pytest.approx(2.0)  # k → q
    trail = [s for s in plane.series if s.name == "q trail"]
    assert len(trail) == clock.TRAIL_SEGMENTS
    assert [s.opacity for s in trail] == sorted(s.opacity for s in trail)  # older: fainter
    assert np.arctan2(trail[0].y[0], trail[0].x[0]) == pytest.approx(0.0, abs=1e-12)  # p − 2
    assert np.arctan2(trail[-1].y[-1], trail[-1].x[-1]) == pytest.approx(2.0)  # the tip
    assert "+57.3°" in plane.labels[0].text


@pytest.mark.parametrize("p, theta, trail", [(2.0, 1.0, 2.0), (7.3, 0.0173, 64.0), (0.0, 3.1, 0.5)])
def test_trail_pieces_are_one_array_with_each_pieces_arc(p, theta, trail):
    """A trail's pieces come from one pass over one array (its rows), with the points
    each piece's own arc has: the drawing may keep them together."""
    pieces = clock.trail_series("q", p, theta, trail, 0.94, clock.Q)
    assert len(pieces) == clock.TRAIL_SEGMENTS
    span = min(trail * theta, 4 * math.pi)
    for j, s in enumerate(pieces):
        x, y = clock._arc(p * theta - span * (1 - j / clock.TRAIL_SEGMENTS), span / 5, 0.94)
        np.testing.assert_array_equal(s.x, x)
        np.testing.assert_array_equal(s.y, y)
    assert all(s.x.base is pieces[0].x.base is not None for s in pieces)
    assert all(s.y.base is pieces[0].y.base is not None for s in pieces)


def test_export_rows():
    params = SPEC.model.validate({"m": 3.0, "n": 1.0, "shift": 0.5, "head_dim": 16}, partial=True)
    data = SPEC.export(params)
    inv, _ = rope_inv_freq(16, 10000.0)
    np.testing.assert_allclose(data.array[:, 1], inv[data.array[:, 0].astype(int)])
    np.testing.assert_allclose(data.array[:, 2], 3.5 * data.array[:, 1])
    np.testing.assert_allclose(data.array[:, 3], 1.5 * data.array[:, 1])


def test_widget_draws_trails_faded_and_labels(qapp):
    import pyqtgraph as pg

    from gui.theme import current_theme
    from gui.widgets.view_widget import ViewWidget

    widget = ViewWidget(SPEC)
    data = compute(m=2.0, n=1.0)
    widget.show_data(data)
    plot = widget.plots["plane"]
    assert len(plot.curves) == len(data.panel("plane").series)
    alphas = [item.opts["pen"].color().alphaF() for item in plot.curves]
    assert min(alphas) < 0.3 and max(alphas) == 1.0
    assert [t.toPlainText() for t in plot.text_labels] == [
        lb.text for lb in data.panel("plane").labels
    ]
    background = pg.mkColor(current_theme().background)
    for text in plot.text_labels:  # on a patch of the background: readable over the lines
        assert text.fill.color().rgb() == background.rgb()
        assert 0.5 < text.fill.color().alphaF() < 1.0
    line = plot.arrows[1]  # after the unit circle: q's shaft
    x, y = line.getData()
    assert (x[-1], y[-1]) == pytest.approx((math.cos(2.0), math.sin(2.0)))
    widget.deleteLater()


def _angle_in(angle: float, start: float, sweep: float) -> bool:
    """Whether ``angle`` lies in the sector from ``start`` by ``sweep`` (radians)."""
    turned = clock.wrapped(angle - start)
    return 0 <= turned <= sweep + 1e-12 if sweep >= 0 else sweep - 1e-12 <= turned <= 0


@pytest.mark.parametrize(("m", "n"), [(2.0, 1.0), (3.0, 1.0), (5.0, 1.0), (1.0, 2.0), (1.3, 1.0)])
def test_angle_and_dot_texts_name_their_wedges_on_qs_side(m, n):
    """The angle's text and q·k's each belong in a wedge (the angle from k to q; the
    triangle of q·k, q's shadow and q at the origin) and start in it. q·k sat on k's
    left whatever the angle: at m = 5, n = 1 (−130.8°, q clockwise of k) outside both."""
    plane = compute(m=m, n=n, shift=0.0).panel("plane")
    (q, k), (angle, dot) = plane.arrows, plane.labels[:2]
    a_q, a_k = math.atan2(q.y, q.x), math.atan2(k.y, k.x)
    sweep = clock.wrapped(a_q - a_k)
    assert angle.wedge == pytest.approx((a_k, sweep))
    cos = math.cos(sweep)
    along = a_k if cos >= 0 else a_k + math.pi
    assert dot.wedge == pytest.approx((along, clock.wrapped(a_q - along)))
    for label in (angle, dot):
        assert _angle_in(math.atan2(label.y, label.x), *label.wedge)
        assert math.hypot(label.x, label.y) < 1
    # q·k's text beside its line on q's side of k
    side = k.x * dot.y - k.y * dot.x
    assert side * sweep > 0


def test_a_trail_not_moved_keeps_its_arrays():
    """A drag of m leaves k's trails where they were: the frame has the very arrays of
    the frame before (read-only: shared by the frames), q's are new."""
    before = compute(m=3.0, n=1.0)
    after = compute(m=3.5, n=1.0)
    for old, new in zip(before.panels, after.panels, strict=True):
        k_old = [s for s in old.series if s.name == "k trail"]
        k_new = [s for s in new.series if s.name == "k trail"]
        assert len(k_new) == clock.TRAIL_SEGMENTS
        assert all(a.x is b.x and a.y is b.y for a, b in zip(k_old, k_new, strict=True))
        assert not any(s.x.flags.writeable or s.y.flags.writeable for s in k_new)
        q_old = [s for s in old.series if s.name == "q trail"]
        q_new = [s for s in new.series if s.name == "q trail"]
        assert not any(np.array_equal(a.x, b.x) for a, b in zip(q_old, q_new, strict=True))


def test_the_planes_title_stays_while_m_moves_and_its_note_works_the_angle_out():
    """The main plane's title names it and stays put through a drag of m or n (as the
    title, the angle's arithmetic re-wrapped it, two or three lines on the stage, and
    re-laid out the plot on every frame); the arithmetic is the plane's note, under the
    plots, with the current values."""
    a, b = compute(m=2.0, n=1.0), compute(m=40.0, n=9.0)
    assert a.panel("plane").title == b.panel("plane").title
    assert a.panel("plane").title == "Pair 0, θ = 1: angle (m − n)·θ"
    note = b.panel("plane").note
    assert note.startswith("(40 − 9)·1 = 31 rad → ")
    assert f"{math.degrees(math.remainder(31.0, math.tau)):+.1f}°;" in note
    assert f"q·k = cos((m − n)·θ) = {math.cos(31.0):+.4f}" in note


@pytest.mark.parametrize(
    ("m", "caption"),
    [
        (2.0, "q: 114.6°"),  # pair 0: under a turn, in degrees
        (6.29, "q: 1\u202fturn"),  # 6.29 rad: 1.001 turns, shown as 1
        (6.4, "q: 1.02\u202fturns"),
        (11.2, "q: 1.78\u202fturns"),
    ],
)
def test_a_hands_turns_agree_with_the_number_shown(m, caption):
    """The strip caption of pair 0's hand: "q: 1 turns" was shown at 1.0 turns (pair 2
    at s = 9.2 in the live window); one turn reads "1 turn"."""
    data = compute(m=m, n=1.0, shift=0.0)
    hand = next(p for p in data.panels if p.key == "hand0")
    assert [label.text for label in hand.labels] == [caption]
    plane = next(p for p in data.panels if p.key == "plane")
    assert any(label.text.endswith(f"({caption[3:]})") for label in plane.labels)
