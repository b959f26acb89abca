"""The two tiers of the test suite (see the README's Quick start).

The gating suite, the README's test command that CI runs on every change, keeps every
test's behaviour with at least one case. Tests and cases marked ``full`` repeat a
behaviour the gate already checks over more views, window sizes, UI scales or themes
(the exhaustive sweeps); they run with ``pytest --full`` (``.ci/full``: nightly and
before a release); otherwise they are deselected (``pytest --collect-only -q`` counts
them; with ``-n`` the workers deselect them and the summary does not).
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from typing import Any

import pytest

FULL = pytest.mark.full
_full_run = False  # set by tests/conftest.py from --full before the modules are collected


def set_full_run(full: bool) -> None:
    """Record whether this run is the full suite (``--full``)."""
    global _full_run
    _full_run = full


def examples(full: int) -> int:
    """A property test's example budget: ``full`` in the full suite, a quarter of it
    (at least 5) in the gate. With ``derandomize=True`` both are fixed example sets."""
    return full if _full_run else max(full // 4, 5)


def gate_cover(values: Iterable[Any], keep: Container[Any], *, unpack: bool = False) -> list[Any]:
    """Parametrize over ``values``; those not in ``keep`` run only in the full suite.

    Parameters
    ----------
    values
        The parameter values of a sweep (views, sizes, scales...).
    keep
        The values the gating suite runs: the hardest or most telling cases.
    unpack
        True when the test parametrizes several names: each value is a tuple of them.

    Returns
    -------
    list
        ``values``, each one outside ``keep`` wrapped in ``pytest.param(...,
        marks=FULL)``; test ids stay as they were.
    """
    return [v if v in keep else pytest.param(*(v if unpack else (v,)), marks=FULL) for v in values]


def gate_items(items: list[Any]) -> tuple[list[Any], list[Any]]:
    """Split collected test items into the gating suite's and the full suite's.

    Parameters
    ----------
    items
        pytest's collected items (anything with ``nodeid`` and ``get_closest_marker``).

    Returns
    -------
    tuple of list
        The items the gate runs, in their order, and those marked ``full``.

    Raises
    ------
    pytest.UsageError
        When a parametrized test keeps no case in the gate although the test itself is
        not marked ``full``: every behaviour the gate checks keeps at least one case.
    """
    gate = [item for item in items if not item.get_closest_marker("full")]
    full = [item for item in items if item.get_closest_marker("full")]
    kept = {_function(item) for item in gate}
    lost = sorted(
        {
            _function(item)
            for item in full
            if _function(item) not in kept and not _function_marked(item)
        }
    )
    if lost:
        raise pytest.UsageError(
            "these tests keep no case in the gating suite (keep one with gate_cover, or "
            "mark the test itself @FULL): " + ", ".join(lost)
        )
    return gate, full


def _function(item: Any) -> str:
    return str(item.nodeid).split("[", 1)[0]


def _function_marked(item: Any) -> bool:
    function = getattr(item, "function", None)
    marks = getattr(function, "pytestmark", [])
    return any(mark.name == "full" for mark in marks)
