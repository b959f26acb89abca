"""``main.py train``: train positional methods on a toy task from the command line (no Qt).

Example::

    python3 main.py train --pe alibi,rope,learned --task shift --train-len 32 \\
        --eval-lens 16,32,64,128 --steps 1500 --seed 0 --json out.json --save table.npy

A progress line goes to stderr, the per-length accuracy table to stdout, and ``--json``
writes parameters, device, wall time, loss/accuracy histories and per-length accuracy.
Bad input raises ``ValueError`` (one line, exit 2 in :mod:`gui.cli`), and so does a
missing torch (the message says how to get it).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import IO, Any

import numpy as np

from core.atomicio import atomic_open, atomic_write_text, check_can_write
from core.training.lab import (
    DEVICE_CHOICES,
    Progress,
    TrainConfig,
    TrainResult,
    check_methods,
    require_torch,
    resolve_device,
    train,
)
from core.training.model import PE_METHODS
from core.training.tasks import TASKS

JSON_VERSION = 1


def _int_in(lo: int, hi: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"must be in {lo}..{hi}, got {value}")
        return value

    return parse


def _refuse_empty_item(text: str, expected: str) -> None:
    """An empty item of a comma-separated list (``16,,32``): an argparse error naming it
    (it was dropped: the list read was not the one meant). A wholly empty text is left
    to the caller ("no lengths")."""
    items = text.split(",")
    empty = [k for k, t in enumerate(items, start=1) if not t.strip()]
    if empty and len(items) > 1:
        raise argparse.ArgumentTypeError(
            f"empty item {empty[0]} in {text!r}; expected comma-separated {expected}"
        )


def _int_list(text: str) -> tuple[int, ...]:
    _refuse_empty_item(text, "whole numbers, e.g. 16,32,64")
    items = text.split(",")
    try:
        values = tuple(int(t) for t in items if t.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated whole numbers, e.g. 16,32,64, got {text!r}"
        ) from None
    if not values:
        raise argparse.ArgumentTypeError("expected at least one length")
    return tuple(sorted(set(values)))


def _methods(text: str) -> tuple[str, ...]:
    if text.strip().lower() == "all":
        return PE_METHODS
    _refuse_empty_item(text, f"methods, e.g. rope,alibi ({', '.join(PE_METHODS)})")
    try:
        return check_methods(text.split(","))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _lr(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be in (0, 1), got {text}")
    return value


def _lr_like(hi: float) -> Any:
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not 0 < value <= hi:
            raise argparse.ArgumentTypeError(f"must be in (0, {hi:g}], got {text}")
        return value

    return parse


def add_train_command(sub: Any) -> argparse.ArgumentParser:
    """Add the ``train`` sub-command to an ``add_subparsers`` object; return its parser."""
    p: argparse.ArgumentParser = sub.add_parser(
        "train",
        help="train a tiny transformer with each positional method (needs torch)",
        description="Train a tiny causal transformer on a toy task where order matters, "
        "once per positional method (same data and seed), and measure its accuracy at "
        "several lengths: the extrapolation curve. Runs on CUDA when present, else the CPU.",
        epilog="example: main.py train --pe alibi,rope,learned --task shift --train-len 32 "
        "--eval-lens 16,32,64,128 --steps 1500 --json out.json --save table.npy",
    )
    d = TrainConfig()
    p.add_argument(
        "--pe",
        type=_methods,
        default=(d.pe,),
        metavar="LIST",
        help=f"positional method(s), comma-separated: {', '.join(PE_METHODS)} (none = NoPE), "
        f"or all (default {d.pe})",
    )
    p.add_argument("--task", choices=TASKS, default=d.task, help=f"toy task (default {d.task})")
    p.add_argument(
        "--k",
        type=_int_in(1, 64),
        default=d.k,
        help=f"shift task: copy the token k positions back (default {d.k})",
    )
    p.add_argument(
        "--train-len",
        type=_int_in(1, 1024),
        default=d.train_len,
        metavar="N",
        help=f"training length (content tokens, default {d.train_len})",
    )
    p.add_argument(
        "--eval-lens",
        type=_int_list,
        default=(),
        metavar="LIST",
        help="evaluation lengths, e.g. 16,32,64,128 (default 0.5x..4x the training length)",
    )
    p.add_argument("--steps", type=_int_in(1, 1_000_000), default=d.steps, help="training steps")
    p.add_argument("--seed", type=_int_in(0, 2**31 - 1), default=d.seed, help="random seed")
    p.add_argument("--d-model", type=_int_in(8, 512), default=d.d_model, help="model width")
    p.add_argument("--layers", type=_int_in(1, 8), default=d.n_layers, help="transformer blocks")
    p.add_argument("--heads", type=_int_in(1, 16), default=d.n_heads, help="attention heads")
    p.add_argument("--batch", type=_int_in(1, 4096), default=d.batch_size, help="batch size")
    p.add_argument("--lr", type=_lr, default=d.lr, help=f"peak learning rate (default {d.lr})")
    p.add_argument("--device", choices=DEVICE_CHOICES, default=d.device, help="torch device")
    p.add_argument(
        "--threads", type=_int_in(1, 256), default=d.threads, help="CPU threads (default 1)"
    )
    p.add_argument(
        "--learned-init-std",
        type=_lr_like(10.0),
        default=d.learned_init_std,
        metavar="S",
        help="scale of the learned table's N(0, 1) start (default 1; GPT-2 uses 0.02: "
        "slower, but a smooth diagonal band forms in its similarity)",
    )
    p.add_argument("--json", metavar="PATH", help="write the results as JSON")
    p.add_argument(
        "--save",
        metavar="PATH",
        help="save the trained learned position table as .npy (needs learned in --pe); "
        "load it in the learned view's table_file",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress line")
    p.set_defaults(func=run_train)
    return p


def configs_from_args(ns: argparse.Namespace) -> list[TrainConfig]:
    """One validated :class:`TrainConfig` per method (``ValueError`` on bad input)."""
    return [
        TrainConfig(
            pe=pe,
            task=ns.task,
            k=ns.k,
            train_len=ns.train_len,
            eval_lens=tuple(ns.eval_lens),
            steps=ns.steps,
            batch_size=ns.batch,
            lr=ns.lr,
            d_model=ns.d_model,
            n_layers=ns.layers,
            n_heads=ns.heads,
            seed=ns.seed,
            device=ns.device,
            threads=ns.threads,
            learned_init_std=ns.learned_init_std,
        )
        for pe in ns.pe
    ]


def _check_output(path: str | None, ext: str | None, flag: str) -> None:
    """Refuse (``ValueError``) an output ``path`` that cannot be written, before training:
    a file is created in its folder and removed (:func:`core.atomicio.check_can_write`),
    so a folder nobody can write in (``/proc``, a read-only mount; ``os.access`` says
    yes to root) fails now, not after minutes of training."""
    if path is None:
        return
    if ext and not path.lower().endswith(ext):
        raise ValueError(f"{flag} {path!r}: expected a {ext} file")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ValueError(f"{flag} {path!r}: folder {folder!r} does not exist")
    try:
        check_can_write(path)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if os.path.isdir(path):
            reason = "it is a folder"
        elif not os.path.exists(path):
            reason = f"no file can be created in folder {folder!r} ({reason})"
        raise ValueError(f"{flag} {path!r}: cannot write it: {reason}") from None


def _same_file(a: str, b: str) -> bool:
    """Whether paths ``a`` and ``b`` name one file: the same path once links and
    ``..`` are resolved (``out.npy``, ``./out.npy``, a link to it), or one existing file
    under two names (a hard link)."""
    if os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b)):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:  # (one of them does not exist yet: two names, two files)
        return False


class ProgressLine:
    """One progress line on ``stream``: rewritten in place on a terminal, else every 10 %."""

    def __init__(self, stream: IO[str], index: int, total: int) -> None:
        self.stream, self.index, self.total = stream, index, total
        self.tty = stream.isatty()
        self._last = -1.0

    def __call__(self, p: Progress) -> None:
        every = max(1, p.steps // 10)
        now = time.perf_counter()
        if self.tty:
            if p.step != p.steps and now - self._last < 0.2:
                return
        elif p.step % every and p.step != p.steps:
            return
        self._last = now
        text = (
            f"train [{self.index}/{self.total}] {p.pe}: step {p.step}/{p.steps}  "
            f"loss {p.loss:.4f}  acc {p.accuracy:.3f}  {p.elapsed_s:.1f} s"
        )
        end = "\n" if not self.tty or p.step == p.steps else ""
        self.stream.write(("\r\x1b[K" if self.tty else "") + text + end)
        self.stream.flush()


def format_table(results: list[TrainResult]) -> str:
    """The extrapolation table: one row per method, one column per length."""
    lengths = sorted({p.length for r in results for p in r.evaluation})
    head = f"{'method':<11}" + "".join(f"{n:>8}" for n in lengths) + f"{'steps/s':>10}{'wall s':>9}"
    rows = [head]
    for r in results:
        cells = []
        for n in lengths:
            acc = r.accuracy_at(n)
            cells.append(f"{'no row' if acc is None else f'{acc:.3f}':>8}")
        rows.append(
            f"{r.config.pe:<11}" + "".join(cells) + f"{r.steps_per_s:>10.1f}{r.wall_time_s:>9.1f}"
        )
    return "\n".join(rows)


def results_json(results: list[TrainResult], wall_time_s: float) -> dict[str, Any]:
    """The ``--json`` document (see the module docstring)."""
    torch = require_torch()
    params = results[0].config.as_dict() if results else {}
    params["pe"] = [r.config.pe for r in results]
    return {
        "version": JSON_VERSION,
        "command": "train",
        "parameters": params,
        "device": results[0].device if results else "",
        "torch_version": str(torch.__version__),
        "wall_time_s": round(wall_time_s, 4),
        "runs": [r.as_dict() for r in results],
    }


def run_train(ns: argparse.Namespace) -> int:
    """Run ``main.py train``; return the exit code (``ValueError`` for bad input)."""
    t0 = time.perf_counter()
    configs = configs_from_args(ns)
    _check_output(ns.json, None, "--json")
    _check_output(ns.save, ".npy", "--save")
    if ns.json and ns.save and _same_file(ns.json, ns.save):
        # (the table was written over the results after minutes of training)
        raise ValueError(
            f"--json {ns.json!r} and --save {ns.save!r} are the same file: give each its own path"
        )
    if ns.save and "learned" not in ns.pe:
        raise ValueError("--save writes the learned position table: add learned to --pe")
    require_torch()
    _, device = resolve_device(ns.device)
    if not ns.quiet:
        print(f"training on {device}: {', '.join(ns.pe)}", file=sys.stderr)
    results = []
    for i, cfg in enumerate(configs, 1):
        line = None if ns.quiet else ProgressLine(sys.stderr, i, len(configs))
        results.append(train(cfg, progress=line))
    print(format_table(results))
    wall = time.perf_counter() - t0
    if ns.json:
        atomic_write_text(ns.json, json.dumps(results_json(results, wall), indent=1) + "\n")
    if ns.save:
        table = next(r for r in results if r.config.pe == "learned").learned_table()
        with atomic_open(ns.save, "wb") as handle:
            np.save(handle, np.asarray(table, dtype=np.float32), allow_pickle=False)
    return 0
