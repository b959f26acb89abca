#!/usr/bin/env python3
"""Type gate: mypy must report nothing in core/, and nothing new elsewhere.

Runs mypy with the configuration in pyproject.toml (strict on ``core``, the default rules
on ``gui`` and ``main.py``) and compares its errors with ``.ci/mypy-baseline.txt``:

* any error in ``core/`` fails (core has no baseline);
* an error that is not in the baseline, or more of one kind than the baseline holds, fails;
* a baseline entry that no longer occurs fails too, so the baseline only shrinks: remove
  it with ``--update`` once the error is fixed.

Entries are keyed by file, error code and message, without line numbers (so moving code
does not touch the baseline), with a count. ``--update`` rewrites the baseline from the
current errors (refusing errors in ``core/``).

Usage::

    python3 .ci/mypy_gate.py            # check (exit 0 pass, 1 fail, 2 mypy did not run)
    python3 .ci/mypy_gate.py --update   # rewrite .ci/mypy-baseline.txt
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / ".ci" / "mypy-baseline.txt"
STRICT_PREFIXES = ("core/",)  # no baseline: every error here fails

# path:line[:col]: error: message  [code]
ERROR = re.compile(
    r"^(?P<path>[^:\n]+):\d+(?::\d+)?: error: (?P<msg>.*?)(?:  \[(?P<code>[\w-]+)\])?$"
)
LINE_REF = re.compile(r"\bline \d+\b")

HEADER = """\
# mypy errors accepted for now in gui/ and main.py (core/ has none: it is checked strictly).
# Written by `python3 .ci/mypy_gate.py --update`; the gate fails on any error not listed
# here and on any entry that no longer occurs, so this list only shrinks.
# Format: count<TAB>file<TAB>[code]<TAB>message (no line numbers).
"""


def run_mypy(extra: list[str]) -> tuple[int, str]:
    """Run mypy from the repository root; return its exit status and output."""
    cmd = [
        sys.executable,
        "-m",
        "mypy",
        "--no-error-summary",
        "--no-pretty",
        "--show-error-codes",
        "--hide-error-context",
        "--no-color-output",
        *extra,
    ]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    return proc.returncode, proc.stdout + proc.stderr


Key = tuple[str, str, str]  # (file, code, message)


def parse(output: str) -> Counter[Key]:
    """Count mypy's errors by (file, code, message); line numbers dropped."""
    found: Counter[Key] = Counter()
    for line in output.splitlines():
        match = ERROR.match(line.strip())
        if match is None:
            continue
        path = match["path"].replace("\\", "/")
        message = LINE_REF.sub("line N", match["msg"].strip())
        found[(path, match["code"] or "misc", message)] += 1
    return found


def read_baseline(path: Path = BASELINE) -> Counter[Key]:
    """The baseline's entries (empty if the file does not exist)."""
    entries: Counter[Key] = Counter()
    if not path.exists():
        return entries
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 4 or not parts[0].isdigit():
            raise SystemExit(
                f"{path.name}:{number}: expected count<TAB>file<TAB>[code]<TAB>message"
            )
        count, file, code, message = parts
        entries[(file, code.strip("[]"), message)] += int(count)
    return entries


def format_entries(entries: Counter[Key]) -> str:
    """The baseline file's text for ``entries``."""
    lines = [f"{n}\t{f}\t[{c}]\t{m}" for (f, c, m), n in sorted(entries.items())]
    return HEADER + "".join(line + "\n" for line in lines)


def describe(key: Key, count: int) -> str:
    file, code, message = key
    return f"{count} x {file} [{code}] {message}"


def compare(current: Counter[Key], baseline: Counter[Key]) -> tuple[list[str], list[str]]:
    """``(new, gone)``: lines for errors beyond the baseline and for stale entries.

    Errors in ``core/`` are always new (core has no baseline).
    """
    allowed = Counter({k: n for k, n in baseline.items() if not k[0].startswith(STRICT_PREFIXES)})
    new = [describe(k, n) for k, n in sorted((current - allowed).items())]
    gone = [describe(k, n) for k, n in sorted((allowed - current).items())]
    return new, gone


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--update", action="store_true", help="rewrite the baseline")
    parser.add_argument("mypy_args", nargs="*", help="extra arguments for mypy")
    ns = parser.parse_args(argv)
    status, output = run_mypy(ns.mypy_args)
    if status not in (0, 1) or (status == 1 and not parse(output)):
        sys.stdout.write(output)
        print(f"mypy gate: mypy did not run cleanly (exit {status})", file=sys.stderr)
        return 2
    current = parse(output)
    strict = Counter({k: n for k, n in current.items() if k[0].startswith(STRICT_PREFIXES)})
    if ns.update:
        if strict:
            for line in (ln for ln in output.splitlines() if ln.startswith(STRICT_PREFIXES)):
                print(line)
            print("mypy gate: core/ must have no errors; fix them (no baseline for core)")
            return 1
        BASELINE.write_text(format_entries(current), encoding="utf-8")
        print(f"mypy gate: wrote {BASELINE.relative_to(ROOT)} ({current.total()} errors)")
        return 0
    new, gone = compare(current, read_baseline())
    if strict:  # show core's errors with their line numbers
        for line in (ln for ln in output.splitlines() if ln.startswith(STRICT_PREFIXES)):
            print(line)
    for line in new:
        print(f"+ {line}   (new: fix it)")
    for line in gone:
        print(f"- {line}   (fixed: run `python3 .ci/mypy_gate.py --update`)")
    if new or gone:
        print(
            f"mypy gate: FAILED ({len(new)} new, {len(gone)} fixed but still in the baseline; "
            f"core/: {strict.total()} errors)"
        )
        return 1
    print(f"mypy gate: OK (core/ clean; {current.total()} known errors in the baseline)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
