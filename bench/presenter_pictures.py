"""How long the presenter view's picture of the next scene holds up the stage (issue 14).

The presenter view draws the next scene's picture part by part, one part per pass of the
event loop (:func:`gui.export.deck.scene_image_steps` through ``Presenter._advance_job``),
so the stage keeps drawing between parts. This script times every part the way the
presenter runs them (with a :class:`gui.export.deck.SceneWidgets` cache), for the first
picture of each view (its widget is built) and a second one (the kept widget is drawn
again), and prints per view: the number of parts, the longest part (the longest the
stage waits for a pass of the event loop), and the total. Target: no part over 100 ms
on the 2-core machine. Never asserted; exits 0 unless it crashes. Headless.

Usage::

    python bench/presenter_pictures.py            # every view, 640 x 360 (the presenter's)
    python bench/presenter_pictures.py --views permutation,rope --repeat 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PE_STUDIO_NO_SETTINGS", "1")

TARGET_MS = 100.0


def parts_ms(scene, size: tuple[int, int], widgets, app) -> list[float]:
    """Milliseconds of each part of one picture (events processed between parts)."""
    from gui.export.deck import scene_image_steps

    steps = scene_image_steps(scene, *size, widgets=widgets)
    out = []
    while True:
        start = time.perf_counter()
        try:
            next(steps)
        except StopIteration:
            break
        out.append((time.perf_counter() - start) * 1000)
        app.processEvents()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--views", default="all", help="view ids or 'all'")
    parser.add_argument("--size", default="640x360", help="picture layout size WxH")
    parser.add_argument("--repeat", type=int, default=1, help="runs (fresh cache each)")
    args = parser.parse_args(argv)
    from core.scenes import Scene
    from core.views import VIEW_IDS
    from gui.export.deck import SceneWidgets
    from gui.qt_app import ensure_app

    app = ensure_app()
    views = list(VIEW_IDS) if args.views == "all" else args.views.split(",")
    size = tuple(int(v) for v in args.size.split("x"))
    # warm up imports and fonts (the first picture of a session pays them once)
    parts_ms(Scene(view_id=views[0]), size, SceneWidgets(), app)
    print(f"{'view':12s} {'picture':7s} {'parts':>5s} {'longest':>9s} {'median':>8s} {'total':>8s}")
    worst = 0.0
    for _ in range(args.repeat):
        widgets = SceneWidgets()
        for view_id in views:
            for picture in ("first", "again"):
                ms = parts_ms(Scene(view_id=view_id), size, widgets, app)
                longest = max(ms)
                worst = max(worst, longest)
                print(
                    f"{view_id:12s} {picture:7s} {len(ms):5d} {longest:7.1f}ms "
                    f"{statistics.median(ms):6.1f}ms {sum(ms):6.0f}ms",
                    flush=True,
                )
        widgets.clear()
    verdict = "PASS" if worst <= TARGET_MS else "MISS"
    print(f"longest part {worst:.1f} ms (target <= {TARGET_MS:.0f} ms): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
