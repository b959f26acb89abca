"""CPU time of F5 in and out (presentation mode at a scale and back) per view (issue 14).

F5 re-styles the view on screen for the stage's UI scale and back (the other views
when they are next shown). This script shows each view in a 1920 x 1080 window, then
enters and leaves presentation mode at each scale, each time until the view is drawn
and painted, and prints per view and scale the smallest CPU time (``process_time``,
this process: robust to a loaded machine) of entering and of leaving over the repeats,
with the plots built anew (new ``PanelPlot`` objects) and rebuilt (``_rebuild``) per
round trip. Never asserted; exits 0 unless it crashes. Headless.

Usage::

    python bench/restyle_cost.py                     # every view, 150 % and 200 %
    python bench/restyle_cost.py --views clock,relative --scales 2.0 --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PE_STUDIO_NO_SETTINGS", "1")

RESULT_PREFIX = "BENCH-RESULT "


def main() -> int:
    from core.views import VIEW_IDS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", default=",".join(VIEW_IDS))
    parser.add_argument("--scales", default="1.5,2.0")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--size", default="1920x1080")
    args = parser.parse_args()

    from PySide6 import QtWidgets

    from gui.app import build_window
    from gui.plotting import panel_plot

    counts = {"new": 0, "rebuilt": 0}
    init, rebuild = panel_plot.PanelPlot.__init__, panel_plot.PanelPlot._rebuild

    def counted_init(self, *a, **k):  # type: ignore[no-untyped-def]
        counts["new"] += 1
        init(self, *a, **k)

    def counted_rebuild(self, *a, **k):  # type: ignore[no-untyped-def]
        counts["rebuilt"] += 1
        rebuild(self, *a, **k)

    panel_plot.PanelPlot.__init__ = counted_init  # type: ignore[method-assign]
    panel_plot.PanelPlot._rebuild = counted_rebuild  # type: ignore[method-assign]

    width, height = (int(v) for v in args.size.split("x"))
    win = build_window(persist=False)
    app = QtWidgets.QApplication.instance()
    win.resize(width, height)
    win.show()
    assert win.wait_idle(60)
    display = win.lecture.display

    def settle(widget) -> None:  # type: ignore[no-untyped-def]
        for _ in range(3):
            assert win.wait_idle(60)
            app.processEvents()
        widget.canvas.grab()  # painted
        app.processEvents()

    results = {}
    for view_id in args.views.split(","):
        win.set_view(view_id)
        widget = win.views[view_id]
        settle(widget)
        for scale in (float(s) for s in args.scales.split(",")):
            display.present_scale = scale
            ins, outs = [], []
            before = dict(counts)
            for _ in range(args.repeat):
                start = time.process_time()
                display.enter_presentation(fullscreen=False)
                settle(widget)
                ins.append(time.process_time() - start)
                start = time.process_time()
                display.leave_presentation()
                settle(widget)
                outs.append(time.process_time() - start)
            new = (counts["new"] - before["new"]) / args.repeat
            rebuilt = (counts["rebuilt"] - before["rebuilt"]) / args.repeat
            key = f"{view_id}@{round(scale * 100)}"
            results[key] = {
                "in_ms": round(min(ins) * 1000),
                "out_ms": round(min(outs) * 1000),
                "new_plots": new,
                "rebuilt_plots": rebuilt,
            }
            print(
                f"{view_id:12s} {round(scale * 100):3d} %  in {min(ins) * 1000:6.0f} ms  "
                f"out {min(outs) * 1000:6.0f} ms  plots new/rebuilt per round trip "
                f"{new:g}/{rebuilt:g}",
                flush=True,
            )
    total_in = sum(r["in_ms"] for r in results.values())
    total_out = sum(r["out_ms"] for r in results.values())
    print(f"total in {total_in} ms, out {total_out} ms")
    print(RESULT_PREFIX + json.dumps({"size": args.size, "results": results}))
    win.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
