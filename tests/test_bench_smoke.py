"""Smoke test of ``bench/frame_latency.py --smoke`` (the ``--quick`` cases with the fewest
frames and views that still give every figure and draw every kind of panel) so the
benchmark never rots.

Checks the JSON structure and that every measured number is positive and finite; no
timing targets are asserted (they are reported by the benchmark itself).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tiers import FULL

ROOT = Path(__file__).resolve().parent.parent


def _bench() -> Any:
    """``bench/frame_latency.py`` as a module."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import frame_latency
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return frame_latency


REQUIRED = (
    "kind",
    "view",
    "size",
    "median_ms",
    "p95_ms",
    "max_stall_ms",
    "peak_rss_mb",
    "matplotlib_median_ms",
)
NUMBERS = (
    "median_ms",
    "p95_ms",
    "max_stall_ms",
    "peak_rss_mb",
    "matplotlib_median_ms",
    "last_frame_ms",
    "compute_ms",
    "draw_ms",
    "paint_ms",
    "wall_ms",
    "probe_ms",
    "probe_after_ms",
    "gui_cpu_ms",
)


@FULL
@pytest.mark.slow
def test_quick_benchmark_writes_valid_json(tmp_path):
    out = tmp_path / "bench.json"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    res = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "frame_latency.py"), "--smoke", "--json", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    assert "Targets" in res.stdout
    records = json.loads(out.read_text())
    assert isinstance(records, list) and records
    assert not [r for r in records if r.get("error")], records
    for r in records:
        for key in REQUIRED:
            assert key in r, (key, r)
        for key in NUMBERS:
            value = r.get(key)
            if value is not None:
                assert isinstance(value, (int, float)) and math.isfinite(value) and value > 0, (
                    key,
                    r,
                )
    kinds = {r["kind"] for r in records}
    assert {"frame", "scaling", "cold_start"} <= kinds
    frames = [r for r in records if r["kind"] == "frame"]
    assert {r["view"] for r in frames if r["size"] == "lecture"} == set(
        _bench().SMOKE_LECTURE_VIEWS
    )
    assert any(r["size"] == "large" for r in frames)
    for r in frames:
        assert r["median_ms"] is not None and r["peak_rss_mb"] is not None
        assert r["probe_ms"] > 0 and r["probe_after_ms"] > 0  # (the machine's speed then)
        assert r["matplotlib_median_ms"] is not None
        assert set(r["targets"].values()) <= {"PASS", "MISS"}
    stage = [r for r in records if r["kind"] == "presentation"]  # same run: the stage
    assert {r["scale"] for r in stage} == set(_bench().SMOKE_STAGE_SCALES)
    for r in stage:
        assert r["median_ms"] is not None and r["p95_ms"] is not None and r["probe_ms"] > 0
        assert r["probe_after_ms"] > 0 and r["gui_cpu_ms"] > 0
        assert r["matplotlib_median_ms"] > 0 and r["matplotlib_ratio"] > 0  # the reference
        assert set(r["targets"].values()) <= {"PASS", "MISS"}
    cold = next(r for r in records if r["kind"] == "cold_start")
    assert isinstance(cold["torch_on_startup"], bool)


def test_smoke_views_draw_every_kind_of_panel():
    """``--smoke`` runs the lecture size for a few views only: those and the large case's
    view still draw every kind of panel that some view has, so the matplotlib reference
    redraws each kind (nothing is timed here)."""
    from core.viewdata import ComputeContext
    from core.views import VIEW_IDS, compute_view

    bench = _bench()

    def kinds(view_id: str) -> set[str]:
        params, _ = bench.size_params(view_id, bench.SIZES["lecture"])
        return {p.kind for p in compute_view(view_id, params, ComputeContext()).panels}

    smoke_views = {*bench.SMOKE_LECTURE_VIEWS, *bench.QUICK_LARGE_VIEWS}
    assert set(bench.SMOKE_LECTURE_VIEWS) < set(VIEW_IDS)
    every = set().union(*(kinds(v) for v in VIEW_IDS))
    assert set().union(*(kinds(v) for v in smoke_views)) == every, every
    assert "sinusoidal" in bench.SMOKE_LECTURE_VIEWS  # the course figure, stage and sweep


@pytest.mark.slow
def test_frame_pacing_quick_runs(tmp_path):
    """``bench/frame_pacing.py --quick --seconds 0.3`` plays the clock (after its half
    second of warm-up) and reports positive figures (no timing target is asserted: the
    benchmark prints PASS/MISS)."""
    out = tmp_path / "pacing.json"
    res = subprocess.run(
        [
            *(sys.executable, str(ROOT / "bench" / "frame_pacing.py")),
            *("--quick", "--seconds", "0.3", "--json", str(out)),
        ],
        cwd=ROOT,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    assert "Targets" in res.stdout
    (rec,) = json.loads(out.read_text())
    assert rec["view"] == "clock" and rec["frames"] > 1 and rec["computed"] > 1
    for key in ("fps", "max_gap_ms", "max_stall_ms"):
        assert isinstance(rec[key], (int, float)) and math.isfinite(rec[key]) and rec[key] > 0
    assert set(rec["targets"].values()) <= {"PASS", "MISS"}


def test_report_ends_with_one_pass_or_miss_line_per_lecture_case():
    """Windowed and stage cases of one run are summarised together, each against both
    targets (made-up figures: nothing is timed here)."""
    bench = _bench()

    def rec(kind: str, view: str, median: float, p95: float, **extra: object) -> dict:
        return {"kind": kind, "view": view, "size": "lecture", "median_ms": median,
                "p95_ms": p95, "matplotlib_ratio": 20.0, **extra}  # fmt: skip

    records = [
        rec("frame", "rope", 6.0, 9.0),
        rec("presentation", "rope", 7.9, 17.0, scale=1.5),
        rec("presentation", "rope", 8.1, 12.0, scale=2.0),
        rec("presentation", "alibi", 5.0, 6.0, scale=2.0, probe_ms=2.25, probe_after_ms=3.94),
        {"kind": "frame", "view": "rope", "size": "large", "error": "timed out"},
    ]
    bench.evaluate(records)
    lines = bench.summary_lines(records)
    assert [line.split()[:4] for line in lines] == [
        ["PASS", "rope", "windowed", "median"],
        ["MISS", "rope", "stage", "150"],  # p95 over 16.7 ms
        ["MISS", "rope", "stage", "200"],  # median over 8 ms
        ["PASS", "alibi", "stage", "200"],
    ]
    assert "probe" not in lines[0] and lines[3].endswith("(probe 2.2 / 3.9 ms)")  # where measured
