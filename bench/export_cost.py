"""Export cost at maximum parameters: seconds per PNG (and SVG) export, headless.

What it measures
----------------
For sinusoidal, rope, alibi and compare at their largest sizes (sequence length, model
width, heads, head dimension at each parameter's maximum), ``main.py export``'s code
path (:func:`gui.export.headless.export_view`: compute, lay out, paint, encode, write)
at 4096 x 4096 and 1920 x 1080 pixels, each case in a fresh subprocess. ``--before``
strokes every curve point as before the export envelope (``snapshot.reduce_curves =
False``) for comparison; ``--timeout`` stops a case that runs longer (printed as
``> N s``).

Usage
-----
``python bench/export_cost.py [--before] [--sizes 4096x4096,1920x1080] [--views ...]
[--svg] [--timeout 900]``. The target (every max-parameter 4096² PNG under 30 s on a
2-core machine) is printed as PASS/MISS, never asserted.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The largest parameters of each view (defaults for the rest).
MAX_PARAMS: dict[str, dict[str, object]] = {
    "sinusoidal": {"seq_len": 65536, "d_model": 16384},
    "rope": {"seq_len": 65536, "head_dim": 1024},
    "alibi": {"seq_len": 65536, "heads": 64},
    "compare": {"seq_len": 65536, "d_model": 4096, "heads": 64, "train_len": 65536},
}
TARGET_S = 30.0

_CHILD = """
import sys, time
sys.path.insert(0, {root!r})
from gui.render import snapshot
snapshot.reduce_curves = {reduce!r}
from gui.export.headless import export_view
start = time.perf_counter()
export_view({view!r}, {params!r}, {path!r}, width={w}, height={h})
print(time.perf_counter() - start)
"""


def run_case(
    view: str, size: tuple[int, int], fmt: str, before: bool, timeout: float
) -> float | None:
    """Seconds of one export in a fresh interpreter, ``None`` past ``timeout``."""
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / f"{view}.{fmt}")
        code = _CHILD.format(
            root=str(ROOT),
            reduce=not before,
            view=view,
            params=MAX_PARAMS[view],
            path=path,
            w=size[0],
            h=size[1],
        )
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        try:
            done = subprocess.run(
                [sys.executable, "-c", code],
                capture_output=True,
                text=True,
                timeout=timeout,
                env=env,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return None
        if done.returncode != 0:
            raise RuntimeError(f"{view} {size}: {done.stderr.strip().splitlines()[-1:]}")
        return float(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", action="store_true", help="stroke every curve point")
    parser.add_argument("--sizes", default="4096x4096,1920x1080")
    parser.add_argument("--views", default=",".join(MAX_PARAMS))
    parser.add_argument("--svg", action="store_true", help="also SVG (at the same size)")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per case")
    args = parser.parse_args(argv)
    sizes = [tuple(int(v) for v in s.split("x")) for s in args.sizes.split(",") if s]
    views = [v for v in args.views.split(",") if v]
    formats = ["png", "svg"] if args.svg else ["png"]
    mode = "before (every point stroked)" if args.before else "after (envelope)"
    print(f"export cost, {mode}, {os.cpu_count()} CPUs")
    print(f"{'view':<11} {'size':>10} {'fmt':>4} {'seconds':>9}  target")
    for size in sizes:
        for view in views:
            for fmt in formats:
                started = time.perf_counter()
                seconds = run_case(view, size, fmt, args.before, args.timeout)  # type: ignore[arg-type]
                shown = f"> {args.timeout:.0f}" if seconds is None else f"{seconds:.1f}"
                verdict = ""
                if size == (4096, 4096) and fmt == "png":
                    ok = seconds is not None and seconds < TARGET_S
                    verdict = f"{'PASS' if ok else 'MISS'} (< {TARGET_S:.0f} s)"
                wall = time.perf_counter() - started
                print(
                    f"{view:<11} {size[0]:>5}x{size[1]:<5}{fmt:>4} {shown:>9}  {verdict}"
                    f"  [process {wall:.1f} s]",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
