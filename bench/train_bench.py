"""Training-lab benchmark: the default lab once per positional method, as measured.

What it measures
----------------
For each method (default: all of :data:`core.training.model.PE_METHODS`) one run of the
default lab — :class:`core.training.lab.TrainConfig` defaults: copy-k-back ("shift",
k = 3), training length 32, d 64, 2 layers, 4 heads, batch 64, 1500 AdamW steps, seed 0,
one CPU thread (or CUDA when present) — in this process, after a 2-step warm-up run
that pays torch's one-time start-up costs (reported separately as ``warmup_s``).

* ``steps_per_s``: training steps per second of training time;
* ``wall_s``: the whole run (model build, training, evaluation at six lengths);
* ``acc_train_len``: evaluation accuracy at the training length after training;
* ``to95_s`` / ``to95_step``: first step at which the mean training-batch accuracy of
  the last 20 steps reaches 95 % (time since the run started), or ``None``. Every batch
  is freshly drawn and scored *before* the model learns from it, so this is accuracy at
  the training length on unseen data; ``to95_cpu_s``: the process CPU time used by then
  (what the run needs of one core, whatever the machine's load);
* the extrapolation table: accuracy at 0.5×…4× the training length ("no row" where a
  learned table has no row);
* the machine's load: 1-minute load average before and after each run, and
  ``cpu_share`` = process CPU time / wall time of the run (1.0 = one core all the time;
  less means the run waited for a CPU, e.g. on a shared machine).

Target (printed as PASS/MISS, never asserted): ≥ 95 % at the training length within
60 s of wall time for every method that can represent the task (PASS: ``to95_s`` ≤ 60 s
and the final evaluation accuracy at the training length ≥ 95 %), and the whole
comparison within 5 minutes.

``--gui-stall STEPS`` instead measures the longest GUI-thread stall (1 ms heartbeat
``QTimer``) while the training lab window (offscreen) trains its default methods
(target ≤ 50 ms), and separately the longest stall before the first step (the worker
thread imports torch, whose C start-up holds the GIL).

Usage
-----
``python bench/train_bench.py [--methods rope,alibi] [--steps N] [--json PATH] [--quick]``,
``python bench/train_bench.py --gui-stall 300``.
``--quick`` is a smoke run (20 steps, d 32, one layer). Exits 0 unless it crashes.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.training.cli import format_table
from core.training.lab import Progress, TrainConfig, TrainResult, train
from core.training.model import PE_METHODS

TARGET_ACC = 0.95
TARGET_WALL_S = 60.0
TARGET_TOTAL_S = 300.0
WINDOW = 20


def _cpu_s() -> float:
    use = resource.getrusage(resource.RUSAGE_SELF)
    return use.ru_utime + use.ru_stime


def run_method(cfg: TrainConfig) -> tuple[TrainResult, dict[str, Any]]:
    """Train one method; return the result and its benchmark record."""
    accs: list[float] = []
    hit: list[Progress] = []

    hit_cpu: list[float] = []

    def progress(p: Progress) -> None:
        accs.append(p.accuracy)
        window = accs[-WINDOW:]
        if not hit and len(window) == WINDOW and sum(window) / WINDOW >= TARGET_ACC:
            hit.append(p)
            hit_cpu.append(_cpu_s() - cpu0)

    load0, cpu0 = os.getloadavg()[0], _cpu_s()
    res = train(cfg, progress=progress)
    cpu = _cpu_s() - cpu0
    acc = res.accuracy_at(cfg.train_len)
    record = {
        "pe": cfg.pe,
        "device": res.device,
        "steps": res.steps_done,
        "steps_per_s": round(res.steps_per_s, 2),
        "wall_s": round(res.wall_time_s, 2),
        "train_s": round(res.train_time_s, 2),
        "acc_train_len": acc,
        "to95_step": hit[0].step if hit else None,
        "to95_s": round(hit[0].elapsed_s, 2) if hit else None,
        "to95_cpu_s": round(hit_cpu[0], 2) if hit_cpu else None,
        "final_loss": res.loss_history[-1],
        "accuracy_by_length": {str(p.length): p.accuracy for p in res.evaluation},
        "load_before": round(load0, 2),
        "load_after": round(os.getloadavg()[0], 2),
        "cpu_share": round(cpu / res.wall_time_s, 2) if res.wall_time_s > 0 else None,
        "target_met": bool(acc is not None and acc >= TARGET_ACC)
        and bool(hit)
        and hit[0].elapsed_s <= TARGET_WALL_S,
    }
    return res, record


def gui_stall(steps: int) -> dict[str, Any]:
    """Longest GUI-thread stall while the training lab window trains (1 ms heartbeat).

    The window (offscreen Qt) trains its default methods (learned, RoPE, ALiBi) for
    ``steps`` steps each; a 1 ms ``QTimer`` records the longest gap between its ticks,
    i.e. the longest time the GUI thread could not react.
    """
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6 import QtCore

    from gui.qt_app import ensure_app
    from gui.widgets.train_page import TrainPage

    app = ensure_app()
    page = TrainPage()
    page.steps.setValue(steps)
    page.show()
    gaps: list[float] = []  # before the first progress: torch's import and start-up
    steady: list[float] = []  # while steps run
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        (steady if page.curves else gaps).append(now - last[0])
        last[0] = now

    timer = QtCore.QTimer()
    timer.setInterval(1)
    timer.timeout.connect(tick)
    t0 = time.perf_counter()
    page.start()
    timer.start()
    while page.running:
        app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 50)
    timer.stop()
    wall = time.perf_counter() - t0
    page.close()
    steady.sort()
    return {
        "steps_per_method": steps,
        "wall_s": round(wall, 2),
        "startup_max_stall_ms": round(1000 * max(gaps), 1) if gaps else None,
        "max_stall_ms": round(1000 * steady[-1], 1) if steady else None,
        "p99_gap_ms": round(1000 * steady[int(0.99 * (len(steady) - 1))], 1) if steady else None,
        "ticks": len(steady),
        "status": page.status.text(),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print the figures (and write JSON with ``--json``)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--methods", default=",".join(PE_METHODS))
    ap.add_argument("--steps", type=int, default=None)
    ap.add_argument("--device", default="auto", choices=("auto", "cpu", "cuda"))
    ap.add_argument("--json", metavar="PATH")
    ap.add_argument("--quick", action="store_true", help="smoke run (tiny model, 20 steps)")
    ap.add_argument(
        "--gui-stall",
        type=int,
        metavar="STEPS",
        help="instead: longest GUI stall while the lab window trains STEPS steps per method",
    )
    ns = ap.parse_args(argv)
    if ns.gui_stall:
        stall = gui_stall(ns.gui_stall)
        print(
            f"GUI while training: max stall {stall['max_stall_ms']} ms, p99 gap "
            f"{stall['p99_gap_ms']} ms over {stall['ticks']} heartbeats, {stall['wall_s']} s; "
            f"before the first step (torch import, start-up): {stall['startup_max_stall_ms']} ms; "
            f"load {os.getloadavg()}  "
            f"{'PASS' if (stall['max_stall_ms'] or 0) <= 50 else 'MISS'} ≤ 50 ms"
        )
        if ns.json:
            Path(ns.json).write_text(json.dumps(stall, indent=1) + "\n", encoding="utf-8")
        return 0
    base: dict[str, Any] = {"device": ns.device}
    if ns.quick:
        base.update(steps=20, d_model=32, n_layers=1, n_heads=2, eval_batch=32)
    if ns.steps:
        base["steps"] = ns.steps
    methods = [m.strip() for m in ns.methods.split(",") if m.strip()]
    t_warm = time.perf_counter()
    train(TrainConfig(**{**base, "steps": 2, "eval_lens": (16,)}))
    warmup = time.perf_counter() - t_warm
    print(
        f"# training lab benchmark: {os.cpu_count()} CPUs, load {os.getloadavg()}, "
        f"warm-up {warmup:.1f} s",
        flush=True,
    )
    records, results = [], []
    t0 = time.perf_counter()
    for pe in methods:
        res, rec = run_method(TrainConfig(**{**base, "pe": pe}))
        results.append(res)
        records.append(rec)
        to95 = (
            f"{rec['to95_s']:.1f} s (step {rec['to95_step']}, {rec['to95_cpu_s']:.1f} s CPU)"
            if rec["to95_s"]
            else "never"
        )
        acc = rec["acc_train_len"]
        print(
            f"{pe:<11} {rec['device']}  {rec['steps_per_s']:6.1f} steps/s  wall {rec['wall_s']:5.1f} s  "
            f"acc@{res.config.train_len} {acc if acc is None else f'{acc:.3f}'}  to 95 %: {to95}  "
            f"load {rec['load_before']}->{rec['load_after']}  cpu share {rec['cpu_share']}  "
            f"{'PASS' if rec['target_met'] else 'MISS'}",
            flush=True,
        )
    total = time.perf_counter() - t0
    print(
        "\nextrapolation (accuracy by evaluation length; training length "
        f"{results[0].config.train_len if results else '-'}):"
    )
    print(format_table(results))
    print(
        f"\ncomparison of {len(methods)} methods: {total:.1f} s "
        f"({'PASS' if total <= TARGET_TOTAL_S else 'MISS'} ≤ {TARGET_TOTAL_S:.0f} s)"
    )
    if ns.json:
        doc = {
            "config": results[0].config.as_dict() if results else {},
            "cpus": os.cpu_count(),
            "warmup_s": round(warmup, 2),
            "total_s": round(total, 2),
            "runs": records,
        }
        Path(ns.json).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
