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


LAB = textwrap.dedent(
    """
    import multiprocessing, sys
    sys.path.insert(0, {root!r})
    from PySide6 import QtCore
    from gui.qt_app import ensure_app

    if __name__ == "__main__":
        app = ensure_app(headless=True)
        from gui.widgets.train_page import TrainPage

        page = TrainPage()
        page.steps.setValue(100_000)
        page.train_len.setValue(8)
        page.d_model.setCurrentText("32")
        page.layers.setValue(1)
        page.heads.setCurrentText("2")
        page.show()
        page.start()

        def close_when_training():
            if not page.curves:
                QtCore.QTimer.singleShot(50, close_when_training)
                return
            print(*[p.pid for p in multiprocessing.active_children()], flush=True)
            page.close()  # the lab closed mid-run, then the app quits at once
            print("running" if page.running else "ended", flush=True)
            page.deleteLater()
            QtCore.QTimer.singleShot(0, app.quit)

        close_when_training()
        app.exec()
        print("quit", flush=True)
    """
)


def test_quitting_right_after_closing_a_training_lab_ends_its_run(tmp_path):
    """Closing the lab mid-run no longer waits for the run (the GUI froze 1.8–3 s): the
    run ends in the background. An app that quits before it has ended exits cleanly
    (a QThread destroyed while it runs aborts the process) and leaves no training
    process behind."""
    pytest.importorskip("torch")
    script = tmp_path / "lab.py"
    script.write_text(LAB.format(root=str(ROOT)))
    app = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=300
    )
    lines = app.stdout.split("\n")
    assert app.returncode == 0, app.stderr[-2000:]
    children = [int(pid) for pid in lines[0].split()]
    assert len(children) == 1 and lines[1:3] == ["running", "quit"], app.stdout
    assert "QThread: Destroyed" not in app.stderr
    deadline = time.monotonic() + 60  # a ceiling, not a speed requirement
    while not _gone(children[0]) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _gone(children[0]), "the training process outlived the app"
