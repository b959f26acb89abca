"""Soak test: drive the window through a long lecture and watch memory and live objects.

Repeatable (a seeded sequence of actions): parameter changes, view switches, theme,
colormap, presentation and zoom toggles, and deck opens (then stepping through the deck).
Every ``--every`` actions it prints one line: the action count, seconds, resident memory
(RSS), live GC-tracked Python objects, Python wrappers of Qt objects, and live widgets.
At the end it prints the growth since the warm-up; with ``--check`` it exits 1 when RSS
grew by ``--max-rss-mb`` or more, or objects by ``--max-object-pct`` % or more.

Runs headless by default and never reads or writes the user's settings::

    python3 bench/soak.py --actions 400 --every 50
    python3 bench/soak.py --seconds 600 --only toggles --check
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["PE_STUDIO_NO_SETTINGS"] = "1"  # never the user's settings
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6 import QtCore, QtWidgets
from shiboken6 import Shiboken

from core.params import Param
from core.views import VIEWS
from gui.app import StudioMainWindow, build_window
from gui.lecture.deck import shipped_decks

KINDS = ("params", "views", "toggles", "decks")


def rss_mb() -> float:
    """Resident memory of this process now, in MiB (Linux; peak RSS elsewhere)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            pages = int(f.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def census() -> dict[str, float]:
    """RSS and live-object counts after deleting what Qt and Python can free."""
    QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.Type.DeferredDelete)
    QtWidgets.QApplication.processEvents()
    gc.collect()
    objects = gc.get_objects()
    return {
        "rss_mb": rss_mb(),
        "objects": len(objects),
        "qt_wrappers": sum(isinstance(o, Shiboken.Object) for o in objects),
        "widgets": len(QtWidgets.QApplication.allWidgets()),
    }


def random_value(param: Param, rng: random.Random) -> Any:
    """A valid, affordable value of ``param`` (long axes stay near their default)."""
    lo = float(param.minimum if param.minimum is not None else 0)
    hi = float(param.maximum if param.maximum is not None else max(lo, 1.0) * 4)
    if param.kind == "int":
        top = min(int(hi), max(int(lo) + 8, int(param.default) * 4))
        return rng.randint(int(lo), top)
    if param.kind == "float":
        if param.log_scale and lo > 0:
            return float(f"{math.exp(rng.uniform(math.log(lo), math.log(hi))):.4g}")
        return round(rng.uniform(lo, hi), param.decimals)
    choices = getattr(param, "choices", None)
    if choices:
        return rng.choice(list(choices))
    if param.kind == "bool":
        return rng.random() < 0.5
    return param.default


class Soak:
    """The actions, each followed by waiting until the window has drawn everything."""

    def __init__(self, window: StudioMainWindow, rng: random.Random, kinds: tuple[str, ...]):
        self.window, self.rng = window, rng
        lecture = window.lecture
        d = lecture.display
        self.decks = shipped_decks()
        actions: dict[str, list[tuple[str, Callable[[], object]]]] = {
            "params": [("param", self.change_param), ("reset", self.reset_params)],
            "views": [("view", self.switch_view)],
            "toggles": [
                ("theme", d.toggle_theme),
                ("sequential", d.cycle_sequential),
                ("diverging", d.cycle_diverging),
                ("presentation", self.toggle_presentation),
                ("zoom in", d.zoom_in),
                ("zoom out", d.zoom_out),
            ],
            "decks": [("deck", self.open_deck), ("step", lambda: lecture.deck.step(1))],
        }
        self.actions = [a for kind in kinds for a in actions[kind]]

    def change_param(self) -> None:
        state = self.window.current_state
        params = [p for p in state.model.params if p.kind in ("int", "float", "bool", "choice")]
        if params:
            param = self.rng.choice(params)
            state.set_param(param.name, random_value(param, self.rng))

    def reset_params(self) -> None:
        self.window.current_state.reset()

    def switch_view(self) -> None:
        self.window.set_view(self.rng.choice(list(VIEWS)))

    def toggle_presentation(self) -> None:
        display = self.window.lecture.display
        if display.presenting:
            display.leave_presentation()
        else:
            display.enter_presentation(fullscreen=False)

    def open_deck(self) -> None:
        if self.decks:
            self.window.lecture.deck.open_deck(self.rng.choice(self.decks))

    def step(self) -> str:
        name, action = self.rng.choice(self.actions)
        action()
        if not self.window.wait_idle(60.0):
            print(f"warning: '{name}' did not settle within 60 s", file=sys.stderr)
        return name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--actions", type=int, default=300, help="actions to run (300)")
    limit.add_argument("--seconds", type=float, help="run for this long instead")
    parser.add_argument("--warmup", type=int, default=80, help="actions before the baseline")
    parser.add_argument("--every", type=int, default=25, help="print a line every N actions")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--only", choices=KINDS, action="append", help="action kinds (repeatable; default all)"
    )
    parser.add_argument("--check", action="store_true", help="exit 1 past the limits below")
    parser.add_argument("--max-rss-mb", type=float, default=20.0)
    parser.add_argument("--max-object-pct", type=float, default=1.0)
    args = parser.parse_args(argv)

    window = build_window()
    window.resize(1600, 1000)
    window.show()
    if not window.wait_idle(60.0):
        print("error: the window did not draw its first view", file=sys.stderr)
        return 2
    soak = Soak(window, random.Random(args.seed), tuple(args.only or KINDS))
    for view_id in VIEWS:  # every view exists before the baseline (created on first use)
        window.set_view(view_id)
        window.wait_idle(60.0)
    for _ in range(args.warmup):
        soak.step()
    base = census()
    t0 = time.perf_counter()
    print(
        f"{'actions':>8} {'seconds':>8} {'RSS MiB':>8} {'objects':>9} {'Qt wrap':>8} {'widgets':>8}"
    )

    def line(n: int, c: dict[str, float]) -> None:
        print(
            f"{n:>8} {time.perf_counter() - t0:>8.1f} {c['rss_mb']:>8.1f} {c['objects']:>9.0f} "
            f"{c['qt_wrappers']:>8.0f} {c['widgets']:>8.0f}",
            flush=True,
        )

    line(0, base)
    done, counts = 0, dict[str, int]()
    while done < args.actions if args.seconds is None else time.perf_counter() - t0 < args.seconds:
        name = soak.step()
        counts[name] = counts.get(name, 0) + 1
        done += 1
        if done % args.every == 0:
            line(done, census())
    end = census()
    if done % args.every:
        line(done, end)
    window.close()
    rss_growth = end["rss_mb"] - base["rss_mb"]
    obj_growth = 100.0 * (end["objects"] - base["objects"]) / base["objects"]
    print("actions: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print(
        f"growth after warm-up: RSS {rss_growth:+.1f} MiB, objects {obj_growth:+.2f} %, "
        f"Qt wrappers {end['qt_wrappers'] - base['qt_wrappers']:+.0f}, "
        f"widgets {end['widgets'] - base['widgets']:+.0f}"
    )
    if args.check and (rss_growth >= args.max_rss_mb or obj_growth >= args.max_object_pct):
        print(
            f"soak: over the limits (RSS < {args.max_rss_mb} MiB, objects < "
            f"{args.max_object_pct} %)",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
