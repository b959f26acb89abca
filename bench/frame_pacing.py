"""Frame pacing of a playing animation at lecture size (issue 15).

Opens the real window (``gui.app.build_window``) at 1600 x 1000, shows a view, and plays
its smooth sweep (the Animation box, Space) on the wall clock for a few seconds. It
counts the frames the plot canvas actually paints and reports:

* ``fps`` — painted frames per second over the measured interval (target >= 55);
* ``max_gap_ms`` — the longest time between two painted frames (target <= 50);
* ``max_stall_ms`` — the longest the GUI thread did not run a 1 ms heartbeat timer;
* ``values`` — distinct parameter values the sweep set, and ``computed`` — how many the
  update engine computed (fewer than set: the engine dropped superseded ones).

Cases: the RoPE clock (``shift`` over 40 positions: every hand and trail moves), RoPE
(``m``) and sinusoidal (``base``, geometric) at lecture size (seq_len 512, d_model 512,
head_dim 64). Headless by default (``QT_QPA_PLATFORM=offscreen``); run under Xvfb with
``--platform xcb`` to include the X11 flush. Prints the numbers and PASS/MISS per case;
exits 0 unless it crashes (timings depend on the machine and its load).

    python bench/frame_pacing.py            # 5 s per case
    python bench/frame_pacing.py --quick    # 1 s, the clock only (smoke test)
    python bench/frame_pacing.py --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_FPS, TARGET_GAP_MS = 55.0, 50.0
WARMUP_S = 0.5
#: a measured interval ends once it holds this many painted frames (on a starved machine
#: it runs on until then, at most :data:`MAX_WAIT_S` from the start)
MIN_FRAMES, MAX_WAIT_S = 2, 60.0
CASES: dict[str, dict[str, Any]] = {
    "clock": {
        "param": "shift",
        "start": 0.0,
        "end": 40.0,
        "ease": "linear",
        "params": {"head_dim": 64, "hands": 4, "trail": 2.0},
    },
    "rope": {
        "param": "m",
        "start": 0.0,
        "end": 511.0,
        "ease": "linear",
        "params": {"head_dim": 64, "seq_len": 512},
    },
    "sinusoidal": {
        "param": "base",
        "start": 100.0,
        "end": 100000.0,
        "ease": "geometric",
        "params": {"seq_len": 512, "d_model": 512},
    },
}


def measure(window: Any, view_id: str, seconds: float) -> dict[str, Any]:
    """Play ``view_id``'s case for ``WARMUP_S + seconds`` and return its figures."""
    from PySide6 import QtCore, QtWidgets

    case = CASES[view_id]
    window.set_view(view_id)
    state = window.states[view_id]
    state.set_values({**state.values, **case["params"]})
    assert window.wait_idle(30.0)
    sweep = window.lecture.sweep
    sweep.configure(param=case["param"])
    sweep.configure(
        start=case["start"],
        end=case["end"],
        ease=case["ease"],
        duration=max(seconds + WARMUP_S, 1.0),
        mode="ping-pong",
    )
    canvas = window.views[view_id].canvas.viewport()
    paints: list[float] = []
    beats: list[float] = []

    class PaintCounter(QtCore.QObject):
        def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
            if event.type() == QtCore.QEvent.Type.Paint:
                paints.append(time.perf_counter())
            return False

    counter = PaintCounter()
    canvas.installEventFilter(counter)
    heartbeat = QtCore.QTimer()
    heartbeat.setTimerType(QtCore.Qt.TimerType.PreciseTimer)
    heartbeat.timeout.connect(lambda: beats.append(time.perf_counter()))
    values: set[Any] = set()
    sweep.value_set.connect(values.add)
    computed0 = window.engine.computed_count
    heartbeat.start(1)
    sweep.play()
    app = QtWidgets.QApplication.instance()
    t0 = time.perf_counter()
    start = t0 + WARMUP_S
    # the measured interval, and on a starved machine (a loaded CI worker) on until
    # MIN_FRAMES are painted in it, at most MAX_WAIT_S: figures from 0 or 1 frames say
    # nothing (the smoke test ran 0.3 s under load and counted no frame)
    while (now := time.perf_counter()) - t0 < WARMUP_S + seconds or (
        sum(t >= start for t in paints) < MIN_FRAMES and now - t0 < MAX_WAIT_S
    ):
        app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 5)
    sweep.stop()
    heartbeat.stop()
    canvas.removeEventFilter(counter)
    sweep.value_set.disconnect(values.add)
    shown = [t for t in paints if t >= start]
    ticks = [t for t in beats if t >= start]
    gaps = [b - a for a, b in zip(shown, shown[1:], strict=False)]
    stalls = [b - a for a, b in zip(ticks, ticks[1:], strict=False)]
    span = (shown[-1] - shown[0]) if len(shown) > 1 else seconds
    fps = (len(shown) - 1) / span if len(shown) > 1 else 0.0
    rec = {
        "view": view_id,
        "param": case["param"],
        "seconds": seconds,
        "frames": len(shown),
        "fps": round(fps, 1),
        "max_gap_ms": round(max(gaps, default=seconds) * 1000, 1),
        "max_stall_ms": round(max(stalls, default=seconds) * 1000, 1),
        "values": len(values),
        "computed": window.engine.computed_count - computed0,
    }
    rec["targets"] = {
        f"fps >= {TARGET_FPS:g}": "PASS" if rec["fps"] >= TARGET_FPS else "MISS",
        f"max gap <= {TARGET_GAP_MS:g} ms": "PASS"
        if rec["max_gap_ms"] <= TARGET_GAP_MS
        else "MISS",
    }
    return rec


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the clock only, 1 s")
    parser.add_argument(
        "--seconds", type=float, help="measured seconds per case (default 5, --quick: 1)"
    )
    parser.add_argument("--views", default=",".join(CASES), help="comma-separated cases")
    parser.add_argument("--platform", default="offscreen", help="Qt platform (xcb for Xvfb)")
    parser.add_argument("--json", help="also write the records to this file")
    args = parser.parse_args(argv)
    os.environ["QT_QPA_PLATFORM"] = args.platform
    os.environ.setdefault("PE_STUDIO_NO_SETTINGS", "1")
    views = ["clock"] if args.quick else [v.strip() for v in args.views.split(",") if v.strip()]
    seconds = args.seconds if args.seconds is not None else 1.0 if args.quick else 5.0
    from gui.app import build_window

    window = build_window(persist=False)
    window.resize(1600, 1000)
    window.show()
    window.wait_idle(30.0)
    records = []
    print(f"Frame pacing: {args.platform}, window 1600x1000, {os.cpu_count()} CPUs")
    print("| view | param | fps | max gap ms | max GUI stall ms | values set | computed |")
    print("|---|---|---|---|---|---|---|")
    for view_id in views:
        rec = measure(window, view_id, seconds)
        records.append(rec)
        print(
            f"| {view_id} | {rec['param']} | {rec['fps']} | {rec['max_gap_ms']} | "
            f"{rec['max_stall_ms']} | {rec['values']} | {rec['computed']} |"
        )
    print("Targets")
    for rec in records:
        for name, verdict in rec["targets"].items():
            print(f"  {rec['view']}: {name}: {verdict}")
    if args.json:
        Path(args.json).write_text(json.dumps(records, indent=1))
    window.close()
    window.engine.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
