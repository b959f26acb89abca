"""Smooth sweeps (issue 15 item 2): a playing animation sets its parameter to the value
of the schedule at the time elapsed; driven by a fake clock, never the wall clock."""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
from window_reuse import reused_window, reused_window_holder  # noqa: F401  (fixtures)

from core.encodings import rope_inv_freq
from core.schedule import progress_at, round_half_up, schedule, swept, value_at
from core.views import clock
from gui.lecture.sweep import DEFAULT_DURATION


@pytest.fixture
def window(reused_window):  # noqa: F811
    """This module's tests reuse one main window (``window_reuse``). Each drives the
    sweep by a fake clock and animates its own set-up, after which ``window_reuse``
    would take the window for one to close: 8 windows were built for the module's 8
    tests. The sweep is put back here as a new window has it (stopped, the monotonic
    clock, the display timer's interval, each view's default animation shown in the
    box, no status message); ``window_reuse.reusable`` still checks it before reuse."""
    yield reused_window
    sweep = reused_window.lecture.sweep
    sweep.stop()
    sweep.clock = time.monotonic
    if "interval_ms" in vars(sweep):  # (fake_clock's, on the instance)
        del sweep.interval_ms
    sweep.default_duration = DEFAULT_DURATION
    sweep.setups.clear()  # (made again from the view's values when asked for)
    sweep._typed.clear()  # (no range set by hand)
    for state in reused_window.states.values():
        state.reset()
    sweep._fill()  # the box shows the current view's default animation
    reused_window.statusBar().clearMessage()


def fake_clock(sweep):
    """Drive ``sweep`` by hand: a fake time source, and its display timer never fires
    (each test calls ``_tick`` itself)."""
    now = [0.0]
    sweep.clock = lambda: now[0]
    sweep.interval_ms = lambda: 10**8
    return now


def play_at(sweep, times):
    """Play the current setup and tick at each of ``times`` (each value drawn before
    the next tick); the values it set."""
    now = fake_clock(sweep)
    seen: list = []
    sweep.value_set.connect(seen.append)
    sweep.play()  # ticks at time 0
    for t in times:
        assert sweep.window.wait_idle()
        now[0] = t
        sweep._tick()
    sweep.value_set.disconnect(seen.append)
    return seen


@pytest.mark.parametrize(
    ("view_id", "param", "start", "end", "ease"),
    [
        ("clock", "shift", 0.0, 10.0, "linear"),
        ("sinusoidal", "base", 100.0, 100000.0, "geometric"),
        ("rope", "m", 3.0, 40.0, "linear"),  # an int parameter: the schedule rounded
    ],
)
def test_frames_are_the_exact_schedule(window, view_id, param, start, end, ease):
    window.set_view(view_id)
    sweep = window.lecture.sweep
    sweep.configure(param=param)
    sweep.configure(start=start, end=end, duration=2.0, ease=ease, mode="once")
    frames = 9
    seen = play_at(sweep, [2.0 * i / (frames - 1) for i in range(1, frames)])
    want = schedule(start, end, frames, ease)
    model = window.states[view_id].model
    if model[param].kind == "int":
        want = round_half_up(want)
    else:  # (floats rounded as an exported animation's frames: core.schedule.swept)
        want = swept(want, start, end, ease, model[param].decimals)
    assert seen == want
    assert not sweep.playing  # 'once' stops at the end
    assert window.states[view_id].values[param] == want[-1]


def test_loop_and_ping_pong_follow_the_clock(window):
    window.set_view("clock")
    sweep = window.lecture.sweep
    sweep.configure(param="m", start=0.0, end=8.0, duration=4.0, ease="linear", mode="loop")
    assert play_at(sweep, [1.0, 5.0, 7.0]) == [0.0, 2.0, 2.0, 6.0]
    assert sweep.playing  # a loop never finishes
    sweep.stop()
    sweep.configure(mode="ping-pong")
    assert play_at(sweep, [2.0, 4.0, 6.0, 8.0, 9.0]) == [0.0, 4.0, 8.0, 4.0, 0.0, 2.0]
    sweep.stop()
    assert progress_at(6.0, 4.0, "ping-pong") == (0.5, False)
    assert value_at(1.0, 100.0, 0.5, "geometric") == pytest.approx(10.0)


def test_clock_hands_turn_exactly_as_core_says(window):
    """Drawn hands at sampled times: angle (m + s(t))·θ_i, θ_i from core's RoPE."""
    window.set_view("clock")
    state = window.states["clock"]
    state.set_values({**state.values, "head_dim": 16, "base": 100.0, "m": 2.0, "n": 1.0})
    sweep = window.lecture.sweep
    sweep.configure(param="shift", start=0.0, end=30.0, duration=3.0, mode="once")
    inv, _ = rope_inv_freq(16, 100.0)
    pairs = clock.hand_pairs(8, state.values["hands"])
    now = fake_clock(sweep)
    sweep.play()
    widget = window.views["clock"]
    for t in (0.25, 1.0, 1.7, 3.0):
        assert window.wait_idle()
        now[0] = t
        sweep._tick()
        assert window.wait_idle()
        shift = 10.0 * t
        assert state.values["shift"] == pytest.approx(shift)
        for j, i in enumerate(pairs):
            q_line, k_line = widget.plots[f"hand{j}"].arrows[1], widget.plots[f"hand{j}"].arrows[4]
            qx, qy = q_line.getData()
            kx, ky = k_line.getData()
            np.testing.assert_allclose(
                [qx[-1], qy[-1]],
                [math.cos((2 + shift) * inv[i]), math.sin((2 + shift) * inv[i])],
                atol=1e-9,
            )
            np.testing.assert_allclose(
                [kx[-1], ky[-1]],
                [math.cos((1 + shift) * inv[i]), math.sin((1 + shift) * inv[i])],
                atol=1e-9,
            )
    assert not sweep.playing


def test_controls_configure_and_refuse_bad_values(window):
    window.set_view("sinusoidal")
    sweep = window.lecture.sweep
    sweep.configure(param="base")
    sweep.mode_combo.setCurrentText("ping-pong")
    sweep.duration_spin.setValue(7.5)
    assert (sweep.setup().mode, sweep.setup().duration) == ("ping-pong", 7.5)
    sweep.configure(ease="geometric", start=100.0, end=1000.0)
    assert sweep.start_spin.value() == 100.0 and sweep.ease_combo.currentText() == "geometric"
    window.set_view("clock")
    sweep.configure(param="shift")
    with pytest.raises(ValueError, match="geometric"):
        sweep.configure(start=0.0, end=5.0, ease="geometric")
    sweep.ease_combo.setCurrentText("geometric")  # from the box: a message, no change
    assert sweep.setup().ease == "linear" and sweep.ease_combo.currentText() == "linear"
    assert "geometric" in window.statusBar().currentMessage()
    with pytest.raises(ValueError, match="duration"):
        sweep.configure(duration=0.0)
    with pytest.raises(ValueError, match="outside"):
        sweep.configure(end=1e12)


def test_faster_keeps_the_phase(window):
    window.set_view("clock")
    sweep = window.lecture.sweep
    sweep.configure(param="m", start=0.0, end=12.0, duration=6.0, mode="loop")
    window.wait_idle()
    play_at(sweep, [])
    now = [3.0]
    sweep.clock = lambda: now[0]
    assert sweep.value_now()[0] == 6.0
    sweep.faster()  # 4 s now: the value shown does not jump
    assert sweep.setup().duration == 4.0
    assert sweep.value_now()[0] == pytest.approx(6.0)
    now[0] = 4.0
    assert sweep.value_now()[0] == pytest.approx(9.0)
    sweep.stop()


def test_a_value_not_yet_drawn_holds_the_next_one(window):
    """Ticks while the last value is not on screen set nothing (the engine would drop
    that frame for the newer one, and a slow view would never be drawn); once it is
    drawn, the next tick takes its value from the clock, skipping the missed ones."""
    window.set_view("clock")
    sweep = window.lecture.sweep
    sweep.configure(param="shift", start=0.0, end=10.0, duration=10.0, mode="once")
    assert window.wait_idle()
    now = fake_clock(sweep)
    seen: list = []
    sweep.value_set.connect(seen.append)
    sweep.play()  # sets 0.0 (the value shown already: nothing to wait for)
    now[0] = 1.0
    sweep._tick()  # sets 1.0, not drawn yet
    for t in (1.1, 1.2, 1.3):
        now[0] = t
        sweep._tick()  # skipped: 1.0 is not on screen
    assert seen == [0.0, 1.0]
    assert window.wait_idle()  # 1.0 drawn
    now[0] = 2.5
    sweep._tick()
    assert seen == [0.0, 1.0, 2.5]
    now[0] = 3.5 + 0.5  # never drawn within MAX_WAIT_S (say, a failed computation)
    sweep._tick()
    assert seen[-1] == 4.0
    sweep.stop()


def test_a_swept_base_is_written_with_four_significant_digits(window):
    """The lecture's scene 5 sweeps Sinusoidal's base geometrically (10000 → 10⁷ from
    the view's default): set as computed, 4 s · 0.3642 in the formula read
    "ω_i = 123798.7947^(−2i/16)", wrapped it onto one more line and dropped the plots
    below by a line. The sweep sets the value to 4 significant digits: the field, the
    formula and the plots read 123800; the ends stay exact."""
    window.set_view("sinusoidal")
    sweep = window.lecture.sweep
    sweep.configure(param="base")
    sweep.configure(start=10000.0, end=1e7, duration=4.0, ease="geometric", mode="once")
    u = math.log(12.37987947) / math.log(1000.0)  # value_at: 123798.7947
    assert value_at(10000.0, 1e7, u, "geometric") == pytest.approx(123798.7947)
    seen = play_at(sweep, [4.0 * u, 4.0 * 0.5, 4.0])
    assert seen == [10000.0, 123800.0, 316200.0, 1e7]  # 10^5.5 = 316227.77
    assert window.wait_idle()
    assert window.states["sinusoidal"].values["base"] == 1e7
    play_at(sweep, [4.0 * u])
    sweep.stop()
    assert window.wait_idle()
    formula = window.views["sinusoidal"].formula.markup()
    assert "123800^" in formula and "123798" not in formula, formula


def test_an_animation_left_as_offered_starts_at_the_value_shown(window):
    """The lecture's scene 5 ("Press Space to sweep the base upwards") shows Sinusoidal
    at base 100 after scene 3 showed it at 10000: Space swept 10000 → 10⁷, the range
    offered when the view was first animated, so the base jumped from 100 to 10000. An
    animation whose range nobody set starts at the value shown (not while it plays,
    which sets that value itself); a range set by hand stays."""
    window.set_view("sinusoidal")
    sweep = window.lecture.sweep
    state = window.states["sinusoidal"]
    assert state.set_values({**state.values, "base": 10000.0})
    assert (sweep.setup().start, sweep.setup().end) == (10000.0, 1e7)
    assert state.set_values({**state.values, "base": 100.0})  # the next scene
    assert (sweep.setup().start, sweep.setup().end, sweep.setup().ease) == (
        100.0,
        100000.0,
        "geometric",
    )
    assert (sweep.start_spin.value(), sweep.end_spin.value()) == (100.0, 100000.0)
    sweep.configure(duration=2.0, mode="once")  # not the range: it still follows
    seen = play_at(sweep, [1.0])
    assert seen == [100.0, 3162.0]  # 100 · 1000^0.5 to 4 digits
    assert (sweep.setup().start, sweep.setup().end) == (100.0, 100000.0)  # while playing
    sweep.stop()
    assert window.wait_idle()
    assert state.values["base"] == 3162.0
    assert sweep.setup().start == 100.0  # paused: Space plays the same sweep again
    assert state.set_param("base", 50.0)  # the lecturer's slider
    assert (sweep.setup().start, sweep.setup().end) == (50.0, 50000.0)
    sweep.configure(start=200.0, end=5000.0)
    assert state.set_param("base", 300.0)
    assert (sweep.setup().start, sweep.setup().end) == (200.0, 5000.0)
    assert sweep.setup().duration == 2.0


def test_formula_and_field_show_the_value_drawn_on_every_frame(window):
    """A sweep of Sinusoidal's base (10000 → 10⁷ in 4 s): on each frame drawn the
    formula writes the base the plots were drawn with and the field shows, frame after
    frame, and while the next base is computed the field still shows the drawn one.
    The formula was held to a refresh every 100 ms (a drag's), and on stage read
    294500 beside a field at 319500; the field ran a computation ahead of the plots
    (931.8 over plots and formula at 842.3). Stopped, the field shows the value set."""
    window.set_view("sinusoidal")
    widget = window.views["sinusoidal"]
    field = window.panels["sinusoidal"].rows["base"].editor
    state = window.states["sinusoidal"]
    sweep = window.lecture.sweep
    sweep.configure(param="base")
    sweep.configure(start=10000.0, end=1e7, duration=4.0, ease="geometric", mode="once")
    now = fake_clock(sweep)
    drawn: list[tuple[float, float, str]] = []

    def frame() -> None:  # what a frame painted now shows (after the sweep's own slot)
        drawn.append((widget.data.params["base"], field.value(), widget.formula.markup()))

    sweep.play()
    widget.rendered.connect(frame)
    try:
        for i in range(1, 9):
            assert window.wait_idle()
            now[0] = 0.1 * i
            sweep._tick()  # a new base set, being computed: the field shows the drawn one
            assert field.value() == widget.data.params["base"] != state.values["base"]
        assert window.wait_idle()
    finally:
        widget.rendered.disconnect(frame)
        sweep.stop()
    assert field.value() == state.values["base"] and not state.pinned
    assert len(drawn) >= 8
    assert len({base for base, _, _ in drawn}) >= 8  # a new base on each frame
    for base, shown, formula in drawn:
        assert shown == base
        assert f"{round(base)}^" in formula, (base, formula)


def test_esc_stops_a_sweep_first_one_step_per_esc(window, qtbot):
    """Esc stops a playing sweep before it does anything else: in the window, and on
    stage with the parameter strip shown, where the next Esc hides the strip and the
    one after leaves presentation mode (Esc hid the strip and the sweep ran on)."""
    from PySide6 import QtCore

    esc = QtCore.Qt.Key.Key_Escape
    window.set_view("rope")
    sweep, lecture = window.lecture.sweep, window.lecture
    fake_clock(sweep)
    sweep.play()
    assert sweep.playing
    qtbot.keyClick(window, esc)
    assert not sweep.playing
    assert window.statusBar().currentMessage().startswith("Sweep stopped")
    lecture.display.enter_presentation(fullscreen=False)
    try:
        lecture.stage.show_strip()
        sweep.play()
        assert sweep.playing and lecture.stage.visible
        qtbot.keyClick(window, esc)
        assert not sweep.playing
        assert lecture.stage.visible and lecture.display.presenting
        qtbot.keyClick(window, esc)
        assert not lecture.stage.visible and lecture.display.presenting
        qtbot.keyClick(window, esc)
        assert not lecture.display.presenting
    finally:
        lecture.display.leave_presentation()


@pytest.mark.parametrize(
    ("view_id", "param", "values"),
    [
        ("sinusoidal", "base", {"base": 123.4567}),  # geometric, rounded between its ends
        ("sinusoidal", "base", {"base": 1e7}),  # at the maximum: from the minimum
        ("sinusoidal", "emb_std", {"emb_std": 0.37}),  # linear float
        ("sinusoidal", "seq_len", {"seq_len": 65530}),  # int, cut at the maximum
        ("alibi", "query", {"seq_len": 16, "query": 3}),  # int up to its limit
        ("alibi", "query", {"seq_len": 16, "query": 15}),  # at its limit: from 0
        ("rope", "m", {"m": 7}),
    ],
)
def test_sweep_ends_are_the_first_and_last_sweep_value(view_id, param, values):
    """The sweep a view offers follows each change of its parameters by its ends alone
    (:func:`sweep_ends`): they are exactly :func:`sweep_values`' first and last, of the
    same type, whatever lies between."""
    from core.views import get_view
    from gui.lecture.sweep import default_setup, sweep_ends, sweep_values

    model = get_view(view_id).model
    shown = model.validate({**model.defaults(), **values})
    whole = sweep_values(model[param], shown)
    ends = sweep_ends(model[param], shown)
    assert ends == (whole[0], whole[-1])
    assert [type(v) for v in ends] == [type(whole[0]), type(whole[-1])]
    assert len(whole) > 2  # (steps between the ends, left out)
    setup = default_setup(model[param], shown, view_id)
    assert (setup.start, setup.end) == (float(whole[0]), float(whole[-1]))
