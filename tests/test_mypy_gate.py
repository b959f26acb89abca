"""The type gate (.ci/mypy_gate.py): baseline keyed without line numbers, only shrinks."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("mypy_gate", REPO / ".ci" / "mypy_gate.py")
assert _spec is not None and _spec.loader is not None
gate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gate)

OUTPUT = """\
gui/a.py:10: error: Missing type arguments for generic type "tuple"  [type-arg]
gui/a.py:99: error: Missing type arguments for generic type "tuple"  [type-arg]
gui/b.py:5:7: error: Name "x" already defined on line 3  [no-redef]
gui/b.py:6: note: See https://mypy.readthedocs.io
pyproject.toml: note: unused section(s): module = ['x']
"""


def test_parse_drops_line_numbers_and_counts() -> None:
    assert gate.parse(OUTPUT) == Counter(
        {
            ("gui/a.py", "type-arg", 'Missing type arguments for generic type "tuple"'): 2,
            ("gui/b.py", "no-redef", 'Name "x" already defined on line N'): 1,
        }
    )


def test_baseline_round_trip(tmp_path: Path) -> None:
    found = gate.parse(OUTPUT)
    path = tmp_path / "baseline.txt"
    path.write_text(gate.format_entries(found), encoding="utf-8")
    assert gate.read_baseline(path) == found
    assert gate.compare(found, gate.read_baseline(path)) == ([], [])


def test_new_errors_and_more_of_one_kind_fail() -> None:
    found = gate.parse(OUTPUT)
    baseline = found.copy()
    key = ("gui/a.py", "type-arg", 'Missing type arguments for generic type "tuple"')
    baseline[key] = 1  # the baseline allows one, mypy reports two
    new, gone = gate.compare(found, baseline)
    assert new == ['1 x gui/a.py [type-arg] Missing type arguments for generic type "tuple"']
    assert gone == []


def test_fixed_errors_must_leave_the_baseline() -> None:
    found = gate.parse(OUTPUT)
    baseline = found.copy()
    stale = ("gui/c.py", "attr-defined", '"QWidget" has no attribute "spec"')
    baseline[stale] = 3
    new, gone = gate.compare(found, baseline)
    assert new == []
    assert gone == ['3 x gui/c.py [attr-defined] "QWidget" has no attribute "spec"']


def test_core_errors_fail_even_when_listed() -> None:
    key = ("core/x.py", "no-any-return", "Returning Any")
    new, gone = gate.compare(Counter({key: 1}), Counter({key: 1}))
    assert new == ["1 x core/x.py [no-any-return] Returning Any"]
    assert gone == []


def test_shipped_baseline_has_no_core_entries_and_parses() -> None:
    entries = gate.read_baseline(REPO / ".ci" / "mypy-baseline.txt")
    assert entries, "baseline missing or empty"
    assert not [k for k in entries if k[0].startswith("core/")]
