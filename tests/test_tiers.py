"""The two tiers of the suite (tests/tiers.py): the gate deselects what is marked
``full``, keeps ids unchanged, and refuses a parametrized test left with no gate case."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from tiers import FULL, gate_cover, gate_items


@dataclass
class _Item:
    nodeid: str
    full: bool = False
    function: Any = field(default=None)

    def get_closest_marker(self, name: str) -> object | None:
        return FULL.mark if name == "full" and self.full else None


def _marked_function() -> None:
    """A test function marked @FULL as a whole."""


_marked_function.pytestmark = [FULL.mark]  # type: ignore[attr-defined]


def test_gate_cover_marks_only_the_values_not_kept():
    values = gate_cover(["alibi", "rope", "clock"], keep=("rope",))
    assert [getattr(v, "values", (v,)) for v in values] == [("alibi",), ("rope",), ("clock",)]
    assert [isinstance(v, str) for v in values] == [False, True, False]
    assert [m.name for m in values[0].marks] == ["full"]
    pairs = gate_cover([(1, 2), (3, 4)], keep=[(3, 4)], unpack=True)
    assert pairs[0].values == (1, 2) and pairs[1] == (3, 4)


def test_the_gate_keeps_unmarked_items_in_order_and_sets_the_rest_apart():
    items = [
        _Item("t.py::a[x]"),
        _Item("t.py::a[y]", full=True),
        _Item("t.py::b"),
        _Item("t.py::c", full=True, function=_marked_function),
    ]
    gate, full = gate_items(items)
    assert [i.nodeid for i in gate] == ["t.py::a[x]", "t.py::b"]
    assert [i.nodeid for i in full] == ["t.py::a[y]", "t.py::c"]


def test_a_parametrized_test_with_no_case_left_in_the_gate_is_an_error():
    items = [_Item("t.py::a[x]", full=True), _Item("t.py::a[y]", full=True)]
    with pytest.raises(pytest.UsageError, match=r"t\.py::a"):
        gate_items(items)
