"""Run training in a separate process, reporting through a queue (no Qt, no torch here).

The training lab window runs :func:`child_main` in a ``spawn`` subprocess: training then
never shares the GUI's interpreter lock (a thread would — and on a busy machine a
descheduled training thread holding it stalled the GUI for hundreds of ms), and torch's
import happens there too. Messages put on the queue, in order:

* ``("device", label)`` once;
* ``("progress", pe, steps, losses, accuracies)`` — lists, batched (at most every
  :data:`EMIT_EVERY_S`, and the last step);
* ``("method", summary)`` after each method (see :func:`summary`: it also carries the
  attention maps of one evaluation sample and, for RoPE, the frequencies ``θ_i``);
* ``("finished", cancelled)`` or ``("failed", one_line_message)`` last.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core.training.lab import Progress, TrainConfig, TrainControl, TrainResult

EMIT_EVERY_S = 0.1

Send = Callable[[tuple[Any, ...]], None]


def summary(res: TrainResult) -> dict[str, Any]:
    """What the window needs of a finished method (plain, picklable values)."""
    return {
        "pe": res.config.pe,
        "cancelled": res.cancelled,
        "lengths": [p.length for p in res.evaluation],
        "accuracy": [p.accuracy for p in res.evaluation],
        "reasons": [p.reason for p in res.evaluation],
        "table": res.learned_table(),
        "steps_per_s": res.steps_per_s,
        "wall_s": res.wall_time_s,
        "device": res.device,
        "attention": sample_attention(res),
        "rope_freq": _rope_freq(res),
    }


def sample_attention(res: TrainResult) -> np.ndarray | None:
    """Attention maps ``(layers, heads, L, L)`` of one evaluation sequence at the training
    length (``None`` without a model or for a cancelled run). One forward pass: cheap."""
    if res.model is None or res.cancelled:
        return None
    from core.training.lab import attention_maps

    cfg = res.config
    rng = np.random.default_rng([cfg.seed, 3])
    tokens, _ = cfg.make_task().batch(rng, cfg.train_len, 1)
    return attention_maps(res.model, tokens[0])


def _rope_freq(res: TrainResult) -> np.ndarray | None:
    if res.config.pe != "rope":
        return None
    from core.training.model import rope_frequencies

    return np.asarray(rope_frequencies(res.config.model_config()), dtype=np.float64)


def run_configs(configs: Sequence[TrainConfig], send: Send, control: TrainControl) -> None:
    """Train ``configs`` one after another, sending the messages listed above."""
    from core.errors import user_message

    try:
        from core.training.lab import resolve_device, train

        send(("device", resolve_device(configs[0].device)[1]))
        for cfg in configs:
            if control.cancelled:
                break
            batcher = _Batcher(cfg.pe, send)
            res = train(cfg, progress=batcher, control=control)
            batcher.flush()
            send(("method", summary(res)))
        send(("finished", control.cancelled))
    except Exception as exc:  # reported in the window, one line
        send(("failed", user_message(exc)))


class _Batcher:
    """Progress callback that sends steps in batches."""

    def __init__(self, pe: str, send: Send) -> None:
        self.pe, self.send = pe, send
        self.steps: list[int] = []
        self.losses: list[float] = []
        self.accs: list[float] = []
        self.last = time.perf_counter()

    def __call__(self, p: Progress) -> None:
        self.steps.append(p.step)
        self.losses.append(p.loss)
        self.accs.append(p.accuracy)
        if p.step == p.steps or time.perf_counter() - self.last >= EMIT_EVERY_S:
            self.flush()

    def flush(self) -> None:
        """Send the steps not sent yet."""
        if self.steps:
            self.send(("progress", self.pe, self.steps, self.losses, self.accs))
            self.steps, self.losses, self.accs = [], [], []
        self.last = time.perf_counter()


def exit_with_parent() -> threading.Thread | None:
    """End this process as soon as the process that started it ends (``None`` when
    it was not started by ``multiprocessing``).

    The lab's subprocess is a daemon, which ``multiprocessing`` ends only when its parent
    exits normally: after the app was killed or crashed, a run of 1500 steps × 3 methods
    went on training alone, a core at 60 % for minutes, with no window to stop it. A
    thread waits on the parent's sentinel (ready when the parent ends, on every
    platform) and then leaves at once (nothing reads the queue any more).
    """
    parent = multiprocessing.parent_process()
    if parent is None:
        return None
    sentinel = parent.sentinel

    def watch() -> None:
        from multiprocessing.connection import wait

        wait([sentinel])
        os._exit(0)

    thread = threading.Thread(target=watch, name="exit-with-parent", daemon=True)
    thread.start()
    return thread


def child_main(configs: Sequence[TrainConfig], queue: Any, cancel: Any, running: Any) -> None:
    """Entry point of the training subprocess (``multiprocessing`` target); it ends
    with the process that started it (:func:`exit_with_parent`)."""
    exit_with_parent()
    run_configs(configs, queue.put, TrainControl(cancel, running))
