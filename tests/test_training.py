"""Training lab (core.training): tasks, the model's position tensors, training, CLI.

torch tests ask for the ``torch`` fixture (skipped without torch); the task and CLI-input
tests run everywhere. Runs are tiny (d 32, one layer, a few steps): well under a second.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import numpy as np
import pytest
from tiers import FULL

from core.alibi import alibi_bias
from core.relative import t5_relative_bucket
from core.rope import rope_inv_freq
from core.sinusoidal import sinusoidal
from core.training.lab import TrainConfig, TrainControl, default_eval_lengths
from core.training.model import PE_LABELS, ModelConfig, position_tables
from core.training.tasks import IGNORE, Task
from gui.cli import main as cli_main

ROOT = Path(__file__).resolve().parent.parent

SMALL = {
    "d_model": 32,
    "n_layers": 1,
    "n_heads": 2,
    "train_len": 8,
    "batch_size": 16,
    "eval_batch": 32,
    "device": "cpu",
    "lr": 1e-2,
}


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


def small(**changes) -> TrainConfig:
    return TrainConfig(**{**SMALL, **changes})


# ------------------------------------------------------------------ tasks and tensors
def test_shift_task_targets_are_the_token_k_back():
    x, y = Task("shift", 16, 3).batch(np.random.default_rng(0), 10, 4)
    assert x.shape == y.shape == (4, 10)
    assert np.all(y[:, :3] == IGNORE)
    np.testing.assert_array_equal(y[:, 3:], x[:, :7])


def test_reverse_task_reads_then_writes_backwards():
    task = Task("reverse", 16)
    x, y = task.batch(np.random.default_rng(0), 5, 3)
    assert x.shape == y.shape == (3, task.seq_len(5)) == (3, 10)
    content = x[:, :5]
    assert np.all(x[:, 5] == 16)  # separator
    assert np.all(y[:, :5] == IGNORE)
    np.testing.assert_array_equal(y[:, 5:], content[:, ::-1])
    np.testing.assert_array_equal(x[:, 6:], content[:, ::-1][:, :-1])  # teacher forcing


def test_position_tensors_are_the_core_formulas():
    """The lab adds/biases with exactly what the views draw."""
    n = 12
    sin = position_tables(ModelConfig("sinusoidal", d_model=32), n)
    np.testing.assert_array_equal(sin["sinusoidal"], sinusoidal(n, 32))
    alibi = position_tables(ModelConfig("alibi", d_model=32, n_heads=4), n)
    np.testing.assert_array_equal(alibi["alibi"], alibi_bias(n, 4, causal=True))
    rope = position_tables(ModelConfig("rope", d_model=32, n_heads=2), n)
    inv = rope_inv_freq(16)[0]
    np.testing.assert_allclose(rope["cos"], np.cos(np.arange(n)[:, None] * inv), atol=1e-15)
    t5 = position_tables(ModelConfig("t5", d_model=32), n)
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    expected = t5_relative_bucket(j - i, bidirectional=False, num_buckets=32, max_distance=128)
    np.testing.assert_array_equal(t5["t5_bucket"], expected)
    assert np.all(np.isneginf(sin["mask"][np.triu_indices(n, 1)]))
    assert np.all(sin["mask"][np.tril_indices(n)] == 0)


@pytest.mark.parametrize(
    ("changes", "match"),
    [
        ({"pe": "xpos"}, "positional method"),
        ({"pe": "rope", "d_model": 36, "n_heads": 4}, "must be even"),
        ({"d_model": 64, "n_heads": 3}, "divide"),
        ({"task": "sort"}, "task"),
        ({"train_len": 3}, "train_len"),
        ({"eval_lens": (2,)}, "evaluation length"),
        ({"steps": 0}, "steps"),
        ({"device": "tpu"}, "device"),
    ],
)
def test_bad_configs_are_one_line_value_errors(changes, match):
    with pytest.raises(ValueError, match=match) as info:
        TrainConfig(**{**SMALL, **changes})
    assert "\n" not in str(info.value)


def test_default_evaluation_lengths_span_half_to_four_times():
    assert default_eval_lengths(32) == (16, 32, 48, 64, 96, 128)
    assert TrainConfig().lengths() == (16, 32, 48, 64, 96, 128)


# ------------------------------------------------------------------ training (torch)
def test_short_run_lowers_the_loss_and_is_bit_identical(torch):
    from core.training.lab import train

    cfg = small(pe="rope", steps=40, seed=3)
    a, b = train(cfg), train(cfg)
    assert a.steps_done == 40 and not a.cancelled
    assert np.mean(a.loss_history[-5:]) < np.mean(a.loss_history[:5]) - 0.3
    assert a.loss_history == b.loss_history
    assert a.accuracy_history == b.accuracy_history
    sa, sb = a.model.state_dict(), b.model.state_dict()
    assert all(torch.equal(sa[k], sb[k]) for k in sa)
    assert [p.accuracy for p in a.evaluation] == [p.accuracy for p in b.evaluation]
    # The seed matters (so the checks above can fail): the first loss is taken before
    # any update, from the seed's weights and first batch only, so one step shows it.
    other = train(small(pe="rope", steps=1, seed=4))
    assert other.loss_history[0] != a.loss_history[0]
    assert a.device == "cpu"


def test_run_restores_global_torch_settings(torch):
    from core.training.lab import train

    threads = torch.get_num_threads()
    train(small(pe="none", steps=2, threads=1))
    assert torch.get_num_threads() == threads
    assert not torch.are_deterministic_algorithms_enabled()


def test_learned_table_reports_no_row_past_its_rows(torch):
    from core.training.lab import train

    res = train(small(pe="learned", steps=3, eval_lens=(4, 8, 16)))
    by_len = {p.length: p for p in res.evaluation}
    assert isinstance(by_len[4].accuracy, float) and isinstance(by_len[8].accuracy, float)
    assert by_len[16].accuracy is None and by_len[16].loss is None
    assert "no row" in by_len[16].reason and "8 rows" in by_len[16].reason
    assert res.as_dict()["accuracy_by_length"]["16"] is None
    assert res.learned_table().shape == (8, 32)
    rope = train(small(pe="rope", steps=3, eval_lens=(16,)))
    assert isinstance(rope.accuracy_at(16), float)  # relative methods read any length


def test_every_method_trains_a_step(torch):
    from core.training.lab import train
    from core.training.model import PE_METHODS

    for pe in PE_METHODS:
        res = train(small(pe=pe, steps=2, eval_lens=(8,)))
        assert res.steps_done == 2 and np.isfinite(res.loss_history).all(), pe
        assert 0.0 <= res.accuracy_at(8) <= 1.0


def test_cancel_stops_within_one_step(torch):
    from core.training.lab import train

    control = TrainControl()
    seen = []

    def progress(p):
        seen.append(p.step)
        if p.step == 3:
            control.cancel()

    res = train(small(steps=50), progress=progress, control=control)
    assert seen == [1, 2, 3]
    assert res.steps_done == 3 and res.cancelled
    assert len(res.loss_history) == 3
    assert res.evaluation == []


def test_pause_holds_the_run_until_resumed(torch):
    from core.training.lab import train

    control = TrainControl()
    seen = []
    at_pause = []

    def resume_when_paused():
        while not control.paused:
            threading.Event().wait(0.01)
        at_pause.append(list(seen))  # the run is blocked: nothing more happens
        threading.Event().wait(0.05)
        at_pause.append(list(seen))
        control.resume()

    def progress(p):
        seen.append(p.step)
        if p.step == 2:
            control.pause()
            threading.Thread(target=resume_when_paused).start()

    res = train(small(steps=5, eval_lens=(8,)), progress=progress, control=control)
    assert at_pause == [[1, 2], [1, 2]]
    assert seen == [1, 2, 3, 4, 5] and res.steps_done == 5 and not res.cancelled


def test_attention_maps_are_causal_distributions(torch):
    from core.training.lab import attention_maps, train

    res = train(small(pe="alibi", steps=2, eval_lens=(8,)))
    maps = attention_maps(res.model, np.arange(8) % 16)
    assert maps.shape == (1, 2, 8, 8)
    np.testing.assert_allclose(maps.sum(-1), 1.0, atol=1e-6)
    assert np.all(maps[..., np.triu_indices(8, 1)[0], np.triu_indices(8, 1)[1]] == 0)


# ------------------------------------------------------------------ command line
def run_cli(capsys, *args):
    code = cli_main(["train", *args], 0.0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_json_has_the_documented_fields(torch, tmp_path, capsys):
    out_json, table = tmp_path / "out.json", tmp_path / "table.npy"
    code, out, err = run_cli(
        capsys,
        "--pe",
        "rope,learned",
        "--train-len",
        "8",
        "--eval-lens",
        "16,4,8",
        "--steps",
        "5",
        "--d-model",
        "32",
        "--layers",
        "1",
        "--heads",
        "2",
        "--batch",
        "8",
        "--device",
        "cpu",
        "--json",
        str(out_json),
        "--save",
        str(table),
    )
    assert code == 0, err
    assert "step 5/5" in err  # the progress line
    assert "no row" in out  # the table printed on stdout
    doc = json.loads(out_json.read_text())
    assert doc["version"] == 1 and doc["command"] == "train"
    assert doc["device"] == "cpu" and doc["torch_version"]
    assert doc["wall_time_s"] > 0
    params = doc["parameters"]
    assert params["pe"] == ["rope", "learned"]
    assert params["eval_lens"] == [4, 8, 16]
    assert (params["train_len"], params["steps"], params["seed"], params["task"]) == (
        8,
        5,
        0,
        "shift",
    )
    assert [r["pe"] for r in doc["runs"]] == ["rope", "learned"]
    for run in doc["runs"]:
        assert len(run["loss_history"]) == len(run["accuracy_history"]) == 5
        assert set(run["accuracy_by_length"]) == {"4", "8", "16"}
        assert run["device"] == "cpu" and run["wall_time_s"] > 0 and run["steps_per_s"] > 0
        assert {"length", "seq_len", "accuracy", "loss", "reason"} <= set(run["evaluation"][0])
    assert doc["runs"][1]["accuracy_by_length"]["16"] is None
    assert isinstance(doc["runs"][0]["accuracy_by_length"]["16"], float)
    saved = np.load(table)
    assert saved.shape == (8, 32)
    # the saved table feeds the learned view
    from core.viewdata import ComputeContext
    from core.views import VIEWS

    spec = VIEWS["learned"]
    data = spec.compute(
        spec.model.validate({"table_file": str(table), "seq_len": 8}, partial=True),
        ComputeContext(),
    )
    np.testing.assert_allclose(data.panel("table").image, saved)


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["--pe", "foo"], "positional method 'foo'"),
        (["--pe", "rope,rope"], "listed twice"),
        (["--eval-lens", "16,x"], "comma-separated"),
        (["--eval-lens", "16,,32"], "empty item 2 in '16,,32'"),  # (was 16,32)
        (["--pe", "rope,,alibi"], "empty item 2 in 'rope,,alibi'"),
        (["--train-len", "0"], "--train-len"),
        (["--task", "sort"], "--task"),
        (["--heads", "3"], "divide"),
        (["--pe", "rope", "--save", "t.npy"], "add learned"),
        (["--pe", "learned", "--save", "t.txt"], ".npy"),
        (["--json", "/nonexistent-folder/x.json"], "does not exist"),
        (["--learned-init-std", "0"], "--learned-init-std"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(capsys, args, match):
    code, out, err = run_cli(capsys, *args, "--steps", "1")
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and match in lines[0], err
    assert "Traceback" not in err


@pytest.mark.parametrize("flag", ["--json", "--save"])
def test_cli_refuses_an_unwritable_output_before_training(torch, capsys, unwritable_folder, flag):
    # /proc as root: os.access says writable, so this failed only after training
    # (exit 1, the results table already printed)
    target = unwritable_folder / ("runs.json" if flag == "--json" else "table.npy")
    code, out, err = run_cli(capsys, "--pe", "learned", "--steps", "2", flag, str(target))
    assert code == 2
    lines = err.strip().splitlines()
    assert lines == [
        f"error: {flag} '{target}': cannot write it: no file can be created in folder "
        f"'{unwritable_folder}' ({lines[0].rsplit('(', 1)[-1]}"
    ], err
    assert out == ""  # no table: nothing was trained
    assert not target.exists()


@pytest.mark.parametrize("how", ["same", "dot", "symlink", "hardlink"])
def test_cli_refuses_json_and_save_to_one_file_before_training(capsys, tmp_path, how):
    """``--json`` and ``--save`` naming one file (the same path, ``./`` in one, a
    symbolic or a hard link): one line on stderr, exit 2, nothing trained or written.
    Before, both were written after training, the table over the results."""
    target = tmp_path / "run.npy"
    other = {"same": target, "dot": tmp_path / "." / "run.npy"}.get(how, tmp_path / "ln.npy")
    if how in ("symlink", "hardlink"):
        target.write_bytes(b"kept")
        (os.symlink if how == "symlink" else os.link)(target, other)
    code, out, err = run_cli(
        capsys, "--pe", "learned", "--steps", "2", "--json", str(other), "--save", str(target)
    )
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        f"error: --json '{other}' and --save '{target}' are the same file: give each its own path"
    ], err
    if how in ("symlink", "hardlink"):
        assert sorted(p.name for p in tmp_path.iterdir()) == ["ln.npy", "run.npy"]
        assert target.read_bytes() == b"kept"
    else:
        assert list(tmp_path.iterdir()) == []


def test_cli_refuses_a_folder_as_json_output_before_training(torch, capsys, tmp_path):
    code, out, err = run_cli(capsys, "--pe", "rope", "--steps", "2", "--json", str(tmp_path))
    assert code == 2
    assert err.strip() == f"error: --json '{tmp_path}': cannot write it: it is a folder"
    assert out == "" and list(tmp_path.iterdir()) == []


BLOCK_TORCH = textwrap.dedent("""
    import importlib.abc, sys
    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] == "torch":
                raise ImportError("no torch here")
            return None
    sys.meta_path.insert(0, Block())
    sys.argv = ["main.py", "train", "--steps", "1"]
    import main
    sys.exit(main.main())
""")


def test_cli_without_torch_says_how_to_get_it():
    result = subprocess.run(
        [sys.executable, "-c", BLOCK_TORCH],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install torch" in lines[0], result.stderr


# ------------------------------------------------------------------ training lab window
def tiny_page(qtbot, steps=5):
    from gui.widgets.train_page import TrainPage

    page = TrainPage()
    qtbot.addWidget(page)
    page.steps.setValue(steps)
    page.train_len.setValue(8)
    page.d_model.setCurrentText("32")
    page.layers.setValue(1)
    page.heads.setCurrentText("2")
    return page


@FULL
def test_train_page_cancel_stops_the_run(qtbot, torch):
    page = tiny_page(qtbot, steps=100_000)
    page.start()
    qtbot.waitUntil(lambda: bool(page.curves), timeout=120_000)
    page.cancel()
    qtbot.waitUntil(lambda: not page.running, timeout=60_000)
    assert page.status.text().startswith("cancelled")
    done = page.curves["learned"]["steps"]
    assert done[-1] < 100_000 and "rope" not in page.curves
    assert page.start_button.isEnabled() and not page.cancel_button.isEnabled()


def test_pausing_shows_in_the_status_line_at_once(qtbot):
    """Pause showed only on its button (Resume): the status line kept "learned on cpu:
    step 20 …" as if the run went on (no progress arrives while paused). It now reads
    "(paused)" from the click on, and loses it on Resume."""
    page = tiny_page(qtbot)
    page.control = TrainControl()  # (a run's control; no process: the status alone)
    page._on_device("cpu")
    page._on_progress("learned", [19, 20], [2.61, 2.58], [0.1, 0.12])
    running = page.status.text()
    assert running.startswith("learned on cpu: step 20") and "paused" not in running
    page.toggle_pause()
    assert page.control.paused and page.pause_button.text() == "&Resume"
    assert page.status.text() == running + "  (paused)"
    page.toggle_pause()
    assert page.status.text() == running and page.pause_button.text() == "&Pause"
    page.toggle_pause()
    page._on_progress("learned", [21], [2.55], [0.13])  # (a batch sent before the pause)
    assert page.status.text().startswith("learned on cpu: step 21")
    assert page.status.text().endswith("(paused)")
    page.cancel()
    page.toggle_pause()  # (cancelling: the status says so)
    assert page.status.text() == "cancelling…"


def test_settings_are_locked_while_a_run_trains(qtbot, torch):
    """The seed changed from 0 to 7 mid-run showed 7 beside results trained with seed
    0: a change was silently kept for the next run. The settings' fields are locked
    (greyed, a tooltip says why) from Start until the run's thread has ended."""
    page = tiny_page(qtbot, steps=100_000)
    fields = [page.methods, page.task, page.steps, page.train_len, page.seed]
    fields += [page.d_model, page.layers, page.heads]
    task_tip = page.task.toolTip()
    assert all(f.isEnabled() for f in fields)
    page.start()
    assert page.running
    assert not any(f.isEnabled() for f in fields)
    assert "locked" in page.seed.toolTip() and "locked" in page.task.toolTip()
    assert page.attn_method.isEnabled()  # (what a result shows is not a setting)
    page.cancel()
    qtbot.waitUntil(lambda: not page.running, timeout=60_000)
    assert all(f.isEnabled() for f in fields)
    assert page.task.toolTip() == task_tip and page.seed.toolTip() == ""


def test_closing_the_lab_mid_run_does_not_wait_for_the_run(qtbot, torch):
    """Closing the lab while it trained froze the GUI 1.8–3 s: ``shutdown`` waited for
    the run's thread (``wait(3000)``) on the GUI thread. The lab now closes at once;
    the run is cancelled and ends in the background, its process with it."""
    import multiprocessing

    page = tiny_page(qtbot, steps=100_000)
    page.show()
    page.start()
    qtbot.waitUntil(lambda: bool(page.curves), timeout=120_000)
    thread = page.thread_
    training = multiprocessing.active_children()  # (its process, started by the worker)
    assert thread is not None and training
    page.close()
    assert not page.isVisible() and thread.isRunning()  # closed without waiting
    assert page.control is not None and page.control.cancelled
    qtbot.waitUntil(lambda: not page.running, timeout=60_000)
    assert thread.isFinished() and page.status.text().startswith("cancelled")
    assert page.start_button.isEnabled() and page.steps.isEnabled()
    qtbot.waitUntil(lambda: not any(p.is_alive() for p in training), timeout=60_000)


def test_view_menu_opens_the_training_lab(window):
    from PySide6 import QtGui

    action = window.findChild(QtGui.QAction, "action-train-lab")
    assert action is not None and action in window.menu("view").actions()
    action.trigger()
    assert window.train_page.isVisible()
    action.trigger()  # a second trigger raises the same page
    assert window.findChildren(type(window.train_page)) == [window.train_page]


def test_quitting_ends_a_lab_run_only_once_the_window_really_closes(qapp, open_window, monkeypatch):
    """Ctrl+Q with an unsaved deck asks Save / Discard / Cancel. The lab ended its run and
    closed itself before that question (its filter saw the Close first): Cancel kept the
    window, with the lab gone and its training killed. Now Cancel keeps both; Discard
    (the window closes) ends the run and closes the lab."""
    from PySide6 import QtGui

    import gui.lecture.deck as deck_module

    answers = ["cancel", "discard"]
    monkeypatch.setattr(deck_module, "ask_unsaved", lambda parent, text: answers.pop(0))
    with open_window(1280, 800) as win:
        win.findChild(QtGui.QAction, "action-train-lab").trigger()
        page = win.train_page
        ended: list[bool] = []
        monkeypatch.setattr(page, "shutdown", lambda: ended.append(True))
        win.findChild(QtGui.QAction, "action-add-scene").trigger()
        assert win.lecture.deck.modified
        win.close()  # (Ctrl+Q) -> Cancel
        assert answers == ["discard"]  # asked once
        assert win.isVisible() and page.isVisible() and ended == []
        win.close()  # -> Discard
        assert answers == [] and not win.isVisible()
        assert not page.isVisible() and ended  # the run is ended with the window


@FULL
def test_train_bench_quick_run_writes_its_figures(torch, tmp_path, capsys):
    """bench/train_bench.py --quick (smoke: the benchmark never rots; no timing asserted)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("train_bench", ROOT / "bench/train_bench.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    out = tmp_path / "bench.json"
    assert bench.main(["--quick", "--methods", "rope,learned", "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert [r["pe"] for r in doc["runs"]] == ["rope", "learned"]
    for run in doc["runs"]:
        assert run["steps"] == 20 and run["steps_per_s"] > 0 and run["wall_s"] > 0
        assert set(run["accuracy_by_length"]) == {"16", "32", "48", "64", "96", "128"}
        assert {"to95_s", "to95_cpu_s", "load_before", "cpu_share", "target_met"} <= set(run)
    assert doc["runs"][1]["accuracy_by_length"]["64"] is None
    printed = capsys.readouterr().out
    assert "no row" in printed and "extrapolation" in printed


def test_runner_messages_in_order(torch):
    """core.training.runner (what the lab window's subprocess runs), here in-process."""
    from core.training.runner import run_configs

    sent = []
    run_configs(
        [small(pe="rope", steps=4), small(pe="learned", steps=4)], sent.append, TrainControl()
    )
    kinds = [m[0] for m in sent]
    assert kinds[0] == "device" and kinds[-1] == "finished" and sent[-1][1] is False
    assert kinds.count("method") == 2
    steps = [s for m in sent if m[0] == "progress" and m[1] == "rope" for s in m[2]]
    assert steps == [1, 2, 3, 4]
    learned = [m[1] for m in sent if m[0] == "method"][1]
    assert learned["table"].shape == (8, 32) and None in learned["accuracy"]
    if not torch.cuda.is_available():
        failed = []
        run_configs([small(device="cuda")], failed.append, TrainControl())
        assert failed == [("failed", "device cuda: torch finds no usable CUDA GPU")]


def test_learned_init_std_scales_the_core_table(torch):
    from core.learned import init_learned_table
    from core.training.model import build_model

    for std in (1.0, 0.02):
        model = build_model(ModelConfig("learned", max_positions=8, seed=5, learned_init_std=std))
        expected = init_learned_table(8, 64, 5) * std
        np.testing.assert_allclose(model.wpe.detach().double().numpy(), expected, rtol=1e-6)
    with pytest.raises(ValueError, match="learned_init_std"):
        ModelConfig("learned", learned_init_std=0.0)


def check_only(page, *methods):
    from PySide6 import QtCore

    for i in range(page.methods.count()):
        item = page.methods.item(i)
        on = item.data(QtCore.Qt.ItemDataRole.UserRole) in methods
        item.setCheckState(QtCore.Qt.CheckState.Checked if on else QtCore.Qt.CheckState.Unchecked)


def test_train_page_trains_off_the_gui_thread_draws_and_feeds_the_learned_view(
    window, qtbot, torch, tmp_path
):
    """One run of the lab window (each run spawns a process that imports torch: the
    checks of three runs share one). Training runs off the GUI thread and draws loss,
    extrapolation and similarity; each method's attention map is a causal distribution
    and RoPE's frequency plot is the model's; "Use in Learned view" saves the trained
    table and the Learned view loads it (no row past the table)."""
    from PySide6 import QtCore, QtGui

    from core.training.model import rope_frequencies

    window.findChild(QtGui.QAction, "action-train-lab").trigger()
    page = window.train_page
    page.steps.setValue(5)
    page.train_len.setValue(8)
    page.d_model.setCurrentText("32")
    page.layers.setValue(1)
    page.heads.setCurrentText("2")
    page.table_folder = tmp_path
    assert page.selected_methods() == ["learned", "rope", "alibi"]
    assert page.attention_map is None and page.panel_plots["rope"].plotted_arrays() == {}
    assert not page.use_button.isEnabled()
    page.start()
    assert page.running  # start() returned while training runs on the worker thread
    qtbot.waitUntil(lambda: not page.running, timeout=120_000)
    assert page.status.text().startswith("done on cpu"), page.status.text()
    assert set(page.results) == {"learned", "rope", "alibi"}
    for pe in ("learned", "rope", "alibi"):
        assert page.curves[pe]["steps"] == [1, 2, 3, 4, 5]
    loss = page.panel_plots["loss"].plotted_arrays()  # the arrays the curves hold
    for i in range(3):
        assert len(loss[f"curve{i}.x"]) == 5 and np.all(loss[f"curve{i}.y"] > 0)
    names = [s.name for s in page.panels["extrapolation"].series]
    drawn = page.panel_plots["extrapolation"].plotted_arrays()
    extrapolation = {name: drawn[f"curve{i}.x"] for i, name in enumerate(names)}
    assert set(extrapolation) == {"learned (no row past 8)", "RoPE", "ALiBi"}
    np.testing.assert_array_equal(extrapolation["RoPE"], [4, 8, 12, 16, 24, 32])
    np.testing.assert_array_equal(extrapolation["learned (no row past 8)"], [4, 8])
    similarity = page.panel_plots["similarity"].plotted_arrays()["image"]
    assert similarity.shape == (8, 8)
    np.testing.assert_allclose(np.diag(similarity), 1.0, atol=1e-6)  # (drawn as float32)
    assert "no row" in page.summary.text()
    # the attention plot shows the latest method; the chooser shows any finished one
    assert [page.attn_method.itemData(i) for i in range(3)] == ["learned", "rope", "alibi"]
    np.testing.assert_array_equal(page.attention_map, page.results["alibi"]["attention"][0, 0])
    for index, pe in enumerate(("learned", "rope", "alibi")):
        page.attn_method.setCurrentIndex(index)
        attn = page.attention_map
        np.testing.assert_array_equal(attn, page.results[pe]["attention"][0, 0])
        assert attn.shape == (8, 8)  # shift task, training length 8: one sample, query × key
        assert np.all(np.triu(attn, k=1) == 0.0), pe  # causal: no key after the query
        np.testing.assert_allclose(attn.sum(axis=1), 1.0, atol=1e-6)
        assert np.all(np.diag(attn) > 0), pe
        # drawn as the views draw a heatmap: rows are queries (top to bottom)
        shown = page.panel_plots["attention"].plotted_arrays()["image"]
        np.testing.assert_allclose(shown, attn, atol=1e-6)  # (drawn as float32)
        assert PE_LABELS[pe] in page.panels["attention"].title
    (rope,) = [c for c in page.configs() if c.pe == "rope"]
    theta = page.panel_plots["rope"].plotted_arrays()["curve0.y"]
    np.testing.assert_array_equal(theta, rope_frequencies(rope.model_config()))
    np.testing.assert_array_equal(theta, rope_inv_freq(16, 10000.0)[0])
    # the trained table, into the Learned view
    assert page.use_button.isEnabled()
    qtbot.mouseClick(page.use_button, QtCore.Qt.MouseButton.LeftButton)
    path = window.states["learned"].values["table_file"]
    assert Path(path).parent == tmp_path and path.endswith(".npy")
    np.testing.assert_array_equal(np.load(path), page.learned_table)
    assert window.current_view == "learned"
    assert window.wait_idle(60)
    assert window.view_error("learned") == ""
    shown = window.views["learned"].data.panel("table").image
    np.testing.assert_allclose(shown[:8], page.learned_table)  # the trained rows
    assert np.isnan(shown[8:]).all()  # the view's longer sequence: no row past the table


def test_a_run_without_learned_leaves_use_in_learned_view_off(qtbot, torch):
    """A finished run with no learned method has no table to use: the button stays off
    (the messages of a real run, relayed in-process as the lab's worker relays them)."""
    from core.training.runner import run_configs
    from gui.widgets.train_page import TrainWorker

    page = tiny_page(qtbot, steps=3)
    check_only(page, "rope")
    sent: list = []
    run_configs(page.configs(), sent.append, TrainControl())
    worker = TrainWorker(page.configs(), TrainControl(), None)
    worker.progress.connect(page._on_progress)
    worker.method_done.connect(page._on_method_done)
    worker.finished.connect(page._on_finished)
    assert [worker._relay(m) for m in sent][-1] is True  # "finished" ends the relay
    assert page.status.text().startswith("done"), page.status.text()
    assert page.attention_map is not None
    assert len(page.panel_plots["rope"].plotted_arrays()["curve0.y"]) > 0
    assert not page.use_button.isEnabled()  # no learned table in this run


def test_lab_panels_are_empty_until_their_data_and_name_a_table_without_rows():
    """core.training.panels: a plot without data is an empty panel whose note says what
    comes; a cancelled method draws nothing; a learned table's curve stops at its rows."""
    from core.training.panels import KEYS, empty_panel, extrapolation_panel, is_empty

    for key in KEYS:
        panel = empty_panel(key)
        assert is_empty(panel) and "appear" in panel.note
        assert not panel.x_axis and not panel.y_axis
    done = {"pe": "learned", "cancelled": False, "lengths": [4, 8, 16]}
    results = [
        {**done, "accuracy": [1.0, 0.9, None]},
        {**done, "pe": "rope", "cancelled": True, "accuracy": [1.0, 1.0, 1.0]},
    ]
    panel = extrapolation_panel(results)
    assert [s.name for s in panel.series] == ["learned (no row past 8)"]
    np.testing.assert_array_equal(panel.series[0].x, [4, 8])
    assert is_empty(extrapolation_panel(results[1:]))
