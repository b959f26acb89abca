"""CI, README and pre-commit stay in step: the same test command, the same checks."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _bash_blocks(markdown: str, heading: str) -> list[str]:
    section = markdown.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```bash\n(.*?)\n```", section, flags=re.DOTALL)


def test_readme_quick_start_has_two_venv_commands_and_ci_runs_the_test_one() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    commands = _bash_blocks(readme, "Quick start")
    assert len(commands) == 2, commands  # exactly two commands: launch the app, run the tests
    app, tests = commands
    for command in commands:
        assert command.startswith("python3 -m venv .venv && .venv/bin/pip install ")
    assert app.endswith(".venv/bin/python main.py")
    assert "pytest" in tests
    ci_lines = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert tests in ci_lines  # the identical line, not a variant of it


def test_readme_names_the_xcb_packages_main_checks() -> None:
    from core.platform_check import XCB_LIBRARIES

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start\n", 1)[1].split("\n## ", 1)[0]
    apt = re.search(r"`sudo apt install ([^`]*)`", section)
    assert apt is not None, "the Quick start names the apt packages inline"
    listed = set(apt.group(1).split())
    assert "python3-venv" in listed
    assert {"libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1", "libxkbcommon-x11-0"} <= listed
    assert listed - {"python3-venv"} <= set(XCB_LIBRARIES.values())


def test_ci_runs_the_gates_in_order() -> None:
    script = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    lines = [line for line in script.splitlines() if not line.lstrip().startswith("#")]

    def first_line(command: str) -> int:
        return next(n for n, line in enumerate(lines) if command in line)

    # the tests (the README's command) start in the background right after the install,
    # then the bundle build; the gates run in order while both run
    order = [
        ".venv/bin/pip install -q --no-compile",
        ".venv/bin/python -m pytest",
        "bash .ci/build_bundle.sh",
        "ruff check .",
        "ruff format --check .",
        "python .ci/mypy_gate.py",
        "lint-imports",
        'wait "$bundle_pid"',
        'wait "$test_pid"',
        'cat "$test_log"',
    ]
    positions = [first_line(step) for step in order]
    assert positions == sorted(positions)
    readme_line = lines[first_line(".venv/bin/python -m pytest")]
    assert readme_line.startswith("python3 -m venv .venv && ")  # as in the README, unchanged
    assert lines[first_line(".venv/bin/python -m pytest") + 1].startswith('} >"$test_log" 2>&1')
    # the last step prints the tests' output, so that the run ends with pytest's summary,
    # and exits with pytest's status
    last_step = script.rsplit('step "', 1)[1]
    assert last_step.startswith("tests")
    after_output = last_step.split('cat "$test_log"', 1)[1]
    assert "echo" not in after_output.replace('echo "error:', "")
    assert 'exit "$rc"' in after_output


def test_pre_commit_runs_the_same_checks() -> None:
    config = (REPO / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    for entry in (
        "entry: ruff check",
        "entry: ruff format --check",
        "entry: python .ci/mypy_gate.py",
        "entry: lint-imports",
    ):
        assert entry in config


def test_the_gate_leaves_the_bundle_to_the_full_run_and_the_release_workflow() -> None:
    """.ci/run builds the bundle only in the full run (.ci/full sets the switch); the
    release workflow builds it for every pull request that changes the app."""
    import yaml

    script = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    build = script.index("bash .ci/build_bundle.sh")
    guard = script.rindex("\nif [[ ", 0, build)
    assert "PE_STUDIO_FULL_TESTS" in script[guard:build]
    full = (REPO / ".ci" / "full").read_text(encoding="utf-8")
    assert "export PE_STUDIO_FULL_TESTS=1" in full and '/run"' in full.splitlines()[-1]
    release = yaml.safe_load((REPO / ".github" / "workflows" / "release.yml").read_text())
    paths = set(release[True]["pull_request"]["paths"])  # YAML 1.1 reads `on:` as True
    assert {"main.py", "core/**", "gui/**", "resources/**", "build.spec"} <= paths
    nightly = yaml.safe_load((REPO / ".github" / "workflows" / "full-tests.yml").read_text())
    assert "schedule" in nightly[True]
    assert any(step.get("run") == "bash .ci/full" for step in nightly["jobs"]["full"]["steps"])
