"""Parameter schedules for animations: one value per frame, linear or geometric.

Pure computation (no Qt). :func:`frame_count` turns a duration and frame rate into a
number of frames, :func:`schedule` gives the parameter value of every frame, and
:func:`frame_durations_ms` splits the duration into per-frame display times in the
10 ms steps a GIF can store, so that the total is the requested duration (to 10 ms).
"""

from __future__ import annotations

import math

EASES: tuple[str, ...] = ("linear", "geometric")
MODES: tuple[str, ...] = ("once", "loop", "ping-pong")
MAX_FRAMES = 100_000


def frame_count(duration: float, fps: int) -> int:
    """Frames of an animation lasting ``duration`` seconds at ``fps`` frames/s.

    ``round(duration * fps)``, at least 1.

    Raises
    ------
    ValueError
        Non-positive or non-finite duration, frame rate below 1, or more than
        :data:`MAX_FRAMES` frames.
    """
    if not (isinstance(duration, (int, float)) and math.isfinite(duration) and duration > 0):
        raise ValueError(f"duration must be a positive number of seconds, got {duration}")
    if isinstance(fps, bool) or int(fps) != fps or fps < 1:
        raise ValueError(f"frame rate must be a whole number of frames/s >= 1, got {fps}")
    n = max(1, round(duration * fps))
    if n > MAX_FRAMES:
        raise ValueError(f"{n} frames is too many (at most {MAX_FRAMES}); shorten the duration")
    return int(n)


def schedule(start: float, end: float, frames: int, ease: str = "linear") -> list[float]:
    """The parameter value of each of ``frames`` frames, from ``start`` to ``end``.

    Parameters
    ----------
    start, end
        First and last value (both included exactly; one frame shows ``start``).
    frames
        Number of frames, at least 1.
    ease
        ``"linear"``: equal steps, ``start + (end - start) * i / (frames - 1)``.
        ``"geometric"``: equal ratios, ``start * (end / start) ** (i / (frames - 1))``
        (both values non-zero and of the same sign), e.g. RoPE's base 100 → 1 000 000.

    Raises
    ------
    ValueError
        Unknown ``ease``, fewer than one frame, non-finite values, or a geometric
        schedule through or from zero.
    """
    if ease not in EASES:
        raise ValueError(f"unknown easing {ease!r}; use {' or '.join(EASES)}")
    if isinstance(frames, bool) or int(frames) != frames or frames < 1:
        raise ValueError(f"an animation needs at least 1 frame, got {frames}")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise ValueError(f"start and end must be finite numbers, got {start} and {end}")
    start, end = float(start), float(end)
    if ease == "geometric" and (start == 0 or end == 0 or (start < 0) != (end < 0)):
        raise ValueError(
            f"a geometric schedule needs start and end of the same sign and not 0, "
            f"got {start:g} and {end:g}; use --ease linear"
        )
    if frames == 1:
        return [start]
    last = frames - 1
    values = [value_at(start, end, i / last, ease) for i in range(frames)]
    values[0], values[-1] = start, end
    return values


def check_sweep(start: float, end: float, ease: str) -> None:
    """Raise ``ValueError`` (one line) unless ``start → end`` can be eased with ``ease``."""
    schedule(start, end, 2, ease)


def value_at(start: float, end: float, u: float, ease: str = "linear") -> float:
    """The value a fraction ``u`` (0..1) of the way from ``start`` to ``end``.

    ``linear``: ``start + (end − start)·u``; ``geometric``: ``start·(end/start)^u``.
    :func:`schedule`'s frame ``i`` of ``n`` is ``value_at(start, end, i / (n − 1))``, so
    an animation played live and the same animation exported visit the same values.
    """
    if u <= 0.0:
        return float(start)
    if u >= 1.0:
        return float(end)
    if ease == "linear":
        return start + (end - start) * u
    return float(start * (end / start) ** u)


def progress_at(elapsed: float, duration: float, mode: str = "once") -> tuple[float, bool]:
    """Where an animation of ``duration`` seconds is after ``elapsed`` seconds.

    Returns
    -------
    (u, finished)
        ``u`` in 0..1 is the fraction of the way from start to end. ``once`` stops at
        the end (``finished`` from then on); ``loop`` starts over at the start;
        ``ping-pong`` runs back to the start and then forth again. Only ``once`` finishes.
    """
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; use {', '.join(MODES)}")
    if not (math.isfinite(duration) and duration > 0):
        raise ValueError(f"duration must be a positive number of seconds, got {duration}")
    t = max(0.0, float(elapsed)) / duration
    if mode == "once":
        return min(t, 1.0), t >= 1.0
    if mode == "loop":
        return t - math.floor(t), False
    phase = t % 2.0
    return (phase if phase <= 1.0 else 2.0 - phase), False


def round_half_up(values: list[float]) -> list[int]:
    """``values`` rounded to integers, halves away from zero (``2.5 → 3``, ``-2.5 → -3``)."""
    return [int(math.copysign(math.floor(abs(v) + 0.5), v)) for v in values]


SWEEP_DIGITS = 4
"""Significant digits of a swept float (see :func:`swept`)."""


def swept(values: list[float], start: float, end: float, ease: str, decimals: int) -> list[float]:
    """Float ``values`` of a sweep from ``start`` to ``end`` rounded as the sweep sets
    them: a geometric sweep's to :data:`SWEEP_DIGITS` significant digits, a linear one's
    to as many digits of its range (steps of a thousandth of the range or finer), never
    finer than the parameter's ``decimals``; ``start`` and ``end`` stay exact.

    Set as computed, Sinusoidal's base swept from 100 read "ω_i = 123798.7947^(−2i/16)"
    in the lecture's scene 5: the formula wrapped onto another line as the sweep began
    and the plots below dropped by a line. Rounded, it reads "123800", no longer than the
    end value, and each frame of a sweep still moves the value (a geometric sweep's
    frames 1000× in 4 s differ by ~3 %, a linear one's by ~1/240 of its range).

    Examples
    --------
    >>> swept([100.0, 123798.79471, 1e7], 100.0, 1e7, "geometric", 4)
    [100.0, 123800.0, 10000000.0]
    >>> swept([12345.6, 60010.123], 0.0, 100000.0, "linear", 4)
    [12300.0, 60000.0]
    >>> swept([0.123456], 0.0, 2.0, "linear", 2)
    [0.12]
    """
    out = []
    for value in values:
        if value in (start, end) or value == 0 or not math.isfinite(value):
            out.append(float(value))
            continue
        scale = abs(value) if ease == "geometric" else abs(end - start)
        digits = SWEEP_DIGITS - 1 - math.floor(math.log10(scale)) if scale > 0 else decimals
        out.append(float(round(value, min(digits, decimals))))
    return out


def frame_durations_ms(frames: int, fps: int, step_ms: int = 10) -> list[int]:
    """Display time of each frame in whole ``step_ms`` steps (GIF stores 10 ms steps).

    Frame ``i`` lasts ``T(i + 1) - T(i)`` where ``T(k)`` is ``k / fps`` seconds rounded to
    ``step_ms``; the total is ``frames / fps`` seconds rounded to ``step_ms``, with no drift
    (25 fps: 40 ms each; 30 fps: 30, 40, 30, ... ms).
    """
    if frames < 1 or fps < 1 or step_ms < 1:
        raise ValueError("frames, fps and step_ms must be at least 1")

    def at(k: int) -> int:
        return step_ms * ((2 * 1000 * k + step_ms * fps) // (2 * step_ms * fps))

    return [at(i + 1) - at(i) for i in range(frames)]
