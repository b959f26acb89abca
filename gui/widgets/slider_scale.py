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

import numpy as np

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
