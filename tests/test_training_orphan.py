"""The training lab's subprocess ends with the app: killed or crashed, the app left it
training alone (a core at ~60 % for minutes, seen after the app was killed under Xvfb
during a 1500-step run). A parent process starts a long run the way the lab does
(``spawn``, ``core.training.runner.child_main``) and is killed; its child must go."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
]

ROOT = Path(__file__).resolve().parent.parent
PARENT = textwrap.dedent(
    """
    import multiprocessing, sys, time
    sys.path.insert(0, {root!r})
    from core.training.lab import TrainConfig
    from core.training.runner import child_main

    if __name__ == "__main__":
        context = multiprocessing.get_context("spawn")
        queue = context.Queue()
        cancel, running = context.Event(), context.Event()
        running.set()
        config = TrainConfig(d_model=32, n_layers=1, n_heads=2, train_len=8, steps=100_000,
                             batch_size=16, eval_batch=32, device="cpu")
        proc = context.Process(target=child_main, args=([config], queue, cancel, running),
                               daemon=True)
        proc.start()
        print(proc.pid, flush=True)
        first = queue.get(timeout=120)  # the child runs (torch imported, training)
        print(first[0], flush=True)
        time.sleep(600)
    """
)


def _gone(pid: int) -> bool:
    """Whether ``pid`` has ended (no such process, or a zombie left to be reaped)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return True
    return state in ("Z", "X")


def test_the_training_process_ends_when_the_app_is_killed(tmp_path):
    pytest.importorskip("torch")
    script = tmp_path / "parent.py"
    script.write_text(PARENT.format(root=str(ROOT)))
    parent = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, text=True, cwd=tmp_path
    )
    child = 0
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert parent.stdout.readline().strip() == "device"  # it is training
        assert not _gone(child)
        os.kill(parent.pid, signal.SIGKILL)  # the app killed (or crashed)
        parent.wait(60)
        deadline = time.monotonic() + 60  # a ceiling, not a speed requirement
        while not _gone(child) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _gone(child), "the training process went on after the app was killed"
    finally:
        if parent.poll() is None:
            parent.kill()
        if child and not _gone(child):
            os.kill(child, signal.SIGKILL)
