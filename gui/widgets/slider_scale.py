"""Slider positions for integer parameters: every step small, every value in reach.

A plain slider maps a wide integer range linearly onto its positions, so one step (or one
pixel of a drag) jumps by thousands at every value: RoPE's query position 0..1 000 000
moved from 40 to 70 000 in a 6-px drag. :class:`IntScale` instead lists the values a
slider can stop at: every value while the range is short, otherwise every value up to a
knee and then steps of :data:`RELATIVE_STEP` of the value (a log-like scale that stays
fine where values are small). superqt's sliders (``QLabeledSlider``) are linear, so the
mapping lives here; the spin box next to the slider still types any value.

One step from any value ``v`` changes it by at most ``max(step, 2 % of v)``, even when ``v``
lies between two positions (typed in, or restored): positions are 1 % apart, and a value
between two of them shows at the lower one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from core.params import Param

DIRECT_LIMIT = 1000  # ranges with at most this many values get one position per value
RELATIVE_STEP = 0.01  # beyond the knee, positions are 1 % apart (two steps ≤ 2 %)
PAGE_POSITIONS = 10  # Page Up/Down and clicks on the groove: ten positions (≈ 10 %)


class IntScale:
    """Values an integer slider stops at, and the position of any value.

    Parameters
    ----------
    minimum, maximum
        Inclusive range of the parameter.
    step
        Smallest change of the parameter (e.g. 2 for an even head size).

    Attributes
    ----------
    values
        Strictly increasing int64 array: ``values[pos]`` is the value at slider position
        ``pos``; it starts at ``minimum`` and ends at ``maximum``.
    """

    def __init__(self, minimum: int, maximum: int, step: int = 1) -> None:
        if maximum < minimum or step < 1:
            raise ValueError(f"bad integer range {minimum}..{maximum} (step {step})")
        self.minimum, self.maximum, self.step = int(minimum), int(maximum), int(step)
        if (maximum - minimum) // step <= DIRECT_LIMIT:
            values = list(range(self.minimum, self.maximum + 1, self.step))
        else:
            values, v = [], self.minimum
            while v < self.maximum:
                values.append(v)
                # the largest multiple of step within RELATIVE_STEP of v (at least step)
                v += max(self.step, int(abs(v) * RELATIVE_STEP) // self.step * self.step)
        if not values or values[-1] != self.maximum:
            values.append(self.maximum)
        self.values = np.asarray(values, dtype=np.int64)

    @property
    def last(self) -> int:
        """The highest slider position (the slider's range is ``0..last``)."""
        return len(self.values) - 1

    def value(self, position: int) -> int:
        """The value at slider ``position`` (clamped to the slider's range)."""
        return int(self.values[min(max(int(position), 0), self.last)])

    def position(self, value: float) -> int:
        """The slider position showing ``value``: the highest whose value is ≤ ``value``."""
        pos = int(np.searchsorted(self.values, value, side="right")) - 1
        return min(max(pos, 0), self.last)


SLIDER_STEPS = 1000  # positions of a float slider (integer sliders use an IntScale)


class FloatScale:
    """Values a float slider stops at: :data:`SLIDER_STEPS` positions spread linearly
    (or logarithmically, for ``log`` parameters such as RoPE's base) over the range.

    Parameters
    ----------
    minimum, maximum
        Inclusive range of the parameter.
    log
        Positions are equally spaced in ``log(value)``.
    decimals
        Linear values are rounded to this many decimals, log values to this many
        significant digits (what the spin box shows).
    """

    def __init__(self, minimum: float, maximum: float, log: bool = False, decimals: int = 4):
        self.minimum, self.maximum = float(minimum), float(maximum)
        self.log = bool(log) and self.minimum > 0
        self.decimals = int(decimals)

    @property
    def last(self) -> int:
        """The highest slider position."""
        return SLIDER_STEPS

    def value(self, position: int) -> float:
        """The value at slider ``position`` (clamped to ``0..last``)."""
        t = min(max(int(position), 0), SLIDER_STEPS) / SLIDER_STEPS
        lo, hi = self.minimum, self.maximum
        if self.log:
            v = math.exp(math.log(lo) + t * (math.log(hi) - math.log(lo)))
            v = float(f"{v:.{self.decimals}g}")
        else:
            v = round(lo + t * (hi - lo), self.decimals)
        return min(max(v, lo), hi)

    def position(self, value: float) -> int:
        """The slider position nearest to ``value``."""
        lo, hi = self.minimum, self.maximum
        if self.log:
            t = (math.log(max(value, lo)) - math.log(lo)) / (math.log(hi) - math.log(lo))
        else:
            t = (value - lo) / (hi - lo) if hi > lo else 0.0
        return int(round(min(max(t, 0.0), 1.0) * SLIDER_STEPS))


def _coarser_than_field_step(param: Param, scale: FloatScale) -> float | None:
    """``param``'s field step where one slider position of a linear float is coarser
    than it, else ``None``: the clock's m, n and s (0..100000, step 0.1) have positions
    100 apart, and a nudge of one position turned the hands ~100 rad a key press."""
    step = float(param.step or 0.0)
    if scale.log or step <= 0:
        return None
    position = (scale.maximum - scale.minimum) / SLIDER_STEPS
    return step if position > step else None


def step_drawn(
    param: Param, values: Mapping[str, Any], direction: int, *, page: bool = False
) -> tuple[Any, int | float]:
    """``(the value drawn, that value moved one step)``: a nudge of ``param`` in
    ``values`` steps from :meth:`~core.params.Param.effective` (a value beyond the
    parameter's limit is drawn at the limit) within :meth:`~core.params.Param.limited`
    (the slider's range), as :func:`step_value` steps."""
    old = param.effective(values)
    return old, step_value(param.limited(values), old, direction, page=page)


def step_value(param: Param, value: float, direction: int, *, page: bool = False) -> int | float:
    """``value`` of a number parameter moved one step in ``direction`` (±1), as its slider
    moves it, clamped to the parameter's range.

    A small step is what the slider's arrow keys do: one ``param.step`` for an integer,
    one slider position for a float (1/1000 of the range, of its logarithm for a log
    parameter), but no more than one ``param.step`` of a linear float (the field's own
    arrow step). A ``page`` step is what Page Up/Down do on the slider:
    :data:`PAGE_POSITIONS` positions of the slider's scale (for a wide integer range
    about 10 % of the value, see :class:`IntScale`), or as many field steps.
    """
    lo, hi = param.minimum, param.maximum
    if lo is None or hi is None or param.kind not in ("int", "float"):
        raise ValueError(f"{param.name} is not a number parameter with a range")
    direction = 1 if direction > 0 else -1
    if param.kind == "int":
        if not page:
            new: float = int(value) + direction * int(param.step or 1)
        else:
            scale = IntScale(int(lo), int(hi), int(param.step or 1))
            pos = scale.position(value)
            if direction < 0 and scale.value(pos) < value:
                pos += 1  # between two positions: count from the one above
            new = scale.value(pos + direction * PAGE_POSITIONS)
        return int(min(max(new, lo), hi))
    fscale = FloatScale(lo, hi, param.log_scale, param.decimals)
    n = PAGE_POSITIONS if page else 1
    coarse = _coarser_than_field_step(param, fscale)
    if coarse is not None:
        return float(min(max(round(value + direction * n * coarse, param.decimals), lo), hi))
    pos = fscale.position(value)
    new = fscale.value(pos + direction * n)
    while (new - value) * direction <= 0 and 0 <= pos + direction * n <= SLIDER_STEPS:
        pos += direction  # rounding kept the value: one position further
        new = fscale.value(pos + direction * n)
    return float(min(max(new, lo), hi))
