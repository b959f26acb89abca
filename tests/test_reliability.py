"""No hang, no crash, no surprise on files and settings a lecturer (or a shared deck) gives.

Issue 18: FIFOs and devices are refused before they are opened, files are size-limited,
parsers raise only their field-named error, the memory guard cannot be bypassed or
broken by the environment, and the table loader says what a wrong file really is.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from tiers import FULL

import core.memory
from core.learned import load_table_npy
from core.memory import MemoryBudgetError, memory_budget, set_memory_budget
from core.scenes import SceneError, load_deck, load_scene
from core.views import VIEWS
from gui.cli import main

ROOT = Path(__file__).resolve().parents[1]
DECK = ROOT / "resources" / "decks" / "quick-tour.json"


@contextlib.contextmanager
def no_hang(seconds: int = 20):
    """Fail (instead of hanging the suite) if the body blocks in a system call."""

    def expire(signum, frame):
        raise TimeoutError(f"blocked for {seconds} s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def cli(capsys, *args: str) -> tuple[int, str]:
    with no_hang():
        code = main(list(args), 0.0)
    err = capsys.readouterr().err
    return code, err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def scene_text(**changes) -> str:
    data = {"format": "pe-studio-scene", "version": 1, "view": "rope", "params": {}}
    data.update(changes)
    return json.dumps(data)


@pytest.fixture
def budget():
    """Restore the memory budget (and its lazily read state) after the test."""
    saved = core.memory._budget
    yield
    core.memory._budget = saved


# ------------------------------------------------------------------ 1. no hang
def test_fifo_table_file_does_not_hang_export(tmp_path, capsys):
    fifo = tmp_path / "t.npy"
    os.mkfifo(fifo)
    out = tmp_path / "o.npy"
    code, err = cli(
        capsys,
        "export",
        "learned",
        "-o",
        str(out),
        "--param",
        f"table_file={fifo}",
        "--param",
        "seq_len=1",
    )
    assert code == 2
    assert "pipe" in one_line(err) and str(fifo) in err
    assert not out.exists()


@pytest.mark.parametrize("path", ["/dev/stdin", "/dev/zero"])
def test_device_table_file_is_refused_in_the_view(path):
    with no_hang(), pytest.raises(ValueError, match="not a regular table file"):
        VIEWS["learned"].compute(
            VIEWS["learned"].model.validate({"table_file": path}, partial=True),
            __import__("core.viewdata", fromlist=["ComputeContext"]).ComputeContext(),
        )


def test_present_dev_zero_is_one_line_exit_2(capsys):
    code, err = cli(capsys, "present", "/dev/zero")
    assert code == 2
    assert "not a regular deck file" in one_line(err)


def test_fifo_deck_and_scene_are_refused(tmp_path):
    fifo = tmp_path / "deck.json"
    os.mkfifo(fifo)
    with no_hang(), pytest.raises(SceneError, match="pipe"):
        load_deck(fifo)
    with no_hang(), pytest.raises(SceneError, match="pipe"):
        load_scene(fifo)


_SETTINGS_PROBE = """
import os, sys
sys.path.insert(0, {root!r})
from PySide6 import QtCore
from gui.lecture.settings import open_store
store = open_store()
print(type(store).__name__, getattr(store, "problem", ""), flush=True)
"""


def test_settings_file_that_is_a_fifo_does_not_hang_start_up(tmp_path):
    folder = tmp_path / "config" / "PE Studio"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "Positional Encoding Studio.conf")
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), QT_QPA_PLATFORM="offscreen")
    env.pop("PE_STUDIO_NO_SETTINGS", None)
    proc = subprocess.run(
        [sys.executable, "-c", _SETTINGS_PROBE.format(root=str(ROOT))],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("MemoryStore settings file")
    assert "not a regular file" in proc.stdout


# ------------------------------------------------------------------ 2. bounded files
def test_oversized_deck_is_refused_by_size_without_reading(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:
        handle.truncate(64 * 2**20)  # sparse: 64 MiB of zeros
    with pytest.raises(SceneError, match=r"larger than the 4\.0 MiB limit"):
        load_deck(big)


def test_long_note_is_refused_with_the_limit(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(scene_text(note="x" * (64 * 1024 + 1)))
    with pytest.raises(SceneError, match=r"^note: 65537 characters, over the limit of 65536"):
        load_scene(path)
    path.write_text(scene_text(note="x" * (64 * 1024)))
    assert len(load_scene(path).note) == 64 * 1024


# ------------------------------------------------------------------ 3. escaping exceptions
@pytest.mark.parametrize(
    ("text", "field"),
    [
        ('{"format": {}, "version": 1, "view": "rope", "params": {}}', "format"),
        ('{"format": [], "version": 1, "view": "rope", "params": {}}', "format"),
        (scene_text(params={"base": "PLACEHOLDER"}).replace('"PLACEHOLDER"', "1e400"), "base"),
        (scene_text(params={"base": 0}).replace(": 0}", ": 1" + "0" * 400 + "}"), "base"),
        (scene_text(params={"m": 0}).replace(": 0}", ": " + "7" * 4400 + "}"), "params.m"),
        (scene_text(params={"m": 0}).replace(": 0}", ": " + "[" * 900 + "]" * 900 + "}"), "m"),
        (scene_text(params={"dims": 0}), "params"),
        ("[" * 1000 + "]" * 1000, "nested too deeply"),
    ],
)
def test_malformed_values_give_field_named_scene_error(tmp_path, capsys, text, field):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(SceneError) as info:
        load_scene(path)
    assert field in str(info.value)
    assert "\n" not in str(info.value) and len(str(info.value)) < 400
    code, err = cli(capsys, "export", "--scene", str(path), "-o", str(tmp_path / "x.npy"))
    assert code == 2
    assert field in one_line(err)


def test_numbers_are_ascii_digits_only():
    model = VIEWS["rope"].model
    for text in ("1_0", "١٢", "１２", "7" * 5000):
        with pytest.raises(ValueError, match="expected an integer"):
            model["m"].parse(text)
    for text in ("1_000.5", "٣.٥", "1e3_0"):
        with pytest.raises(ValueError, match="expected a number"):
            model["base"].parse(text)
    assert model["m"].parse(" +12 ") == 12
    assert model["base"].parse("1e3") == 1000.0


def test_lone_surrogate_is_refused_at_load_so_every_deck_can_be_saved(tmp_path):
    deck = json.loads(DECK.read_text(encoding="utf-8"))
    deck["scenes"][0]["note"] = "a \ud800 b"
    path = tmp_path / "d.json"
    path.write_text(json.dumps(deck))  # ensure_ascii: the file itself is valid UTF-8
    with pytest.raises(SceneError, match=r"^scenes\[0\]\.note: contains an unpaired surrogate"):
        load_deck(path)


def test_utf8_bom_deck_is_accepted(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + DECK.read_bytes())
    assert load_deck(path) == load_deck(DECK)


def test_settings_restore_skips_bad_entries_and_restores_the_rest(window):
    from gui.lecture.settings import MemoryStore, restore_settings

    store = MemoryStore()
    store.put("params/rope", "[" * 1000 + "]" * 1000)
    store.put("params/alibi", '{"heads": ' + "9" * 5000 + "}")
    store.put("params/sinusoidal", '{"base": 1e400}')
    store.put("params/relative", '{"format": {}}')
    store.put("params/learned", '{"seq_len": 12}')
    store.put("views/last", "learned")
    ignored = restore_settings(window, store)
    assert {line.split(":")[0] for line in ignored} == {
        "params/rope",
        "params/alibi",
        "params/sinusoidal",
        "params/relative",
    }
    assert all("\n" not in line and "internal error" not in line for line in ignored)
    assert window.states["learned"].values["seq_len"] == 12
    assert window.current_view == "learned"
    # an unusable settings file is reported once, also through present's read-only store
    from gui.window.store import ReadOnlyStore

    problem = "settings file x.conf is not a regular file; settings are not used this session"
    assert restore_settings(window, ReadOnlyStore(MemoryStore(problem))) == [problem]


# ------------------------------------------------------------------ 4. memory guard
@pytest.mark.parametrize("value", ["abc", "1e3", "0.5", "", "0", "-5"])
def test_malformed_budget_env_is_one_line_exit_2(tmp_path, value):
    env = dict(os.environ, PE_STUDIO_MEMORY_BUDGET_MB=value, QT_QPA_PLATFORM="offscreen")
    imported = subprocess.run(
        [sys.executable, "-c", "import core.memory, gui.cli"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert imported.returncode == 0, imported.stderr  # never at import
    proc = subprocess.run(
        [sys.executable, "main.py", "export", "alibi", "-o", str(tmp_path / "a.npy")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert "PE_STUDIO_MEMORY_BUDGET_MB" in one_line(proc.stderr)


def test_budget_env_parsing(budget, monkeypatch):
    from core.memory import BudgetSettingError, budget_from_env, use_env_budget

    assert budget_from_env({}) == 1024 * 2**20
    assert budget_from_env({"PE_STUDIO_MEMORY_BUDGET_MB": " 2048 "}) == 2048 * 2**20
    for bad in ("abc", "1e3", "0.5", "", "0", "-5"):
        with pytest.raises(BudgetSettingError, match="PE_STUDIO_MEMORY_BUDGET_MB"):
            budget_from_env({"PE_STUDIO_MEMORY_BUDGET_MB": bad})
    monkeypatch.setenv("PE_STUDIO_MEMORY_BUDGET_MB", "abc")
    core.memory._budget = None
    message = use_env_budget()  # the window: a message and the default budget
    assert message is not None and "using the default of 1024 MiB" in message
    assert memory_budget() == 1024 * 2**20


def test_int8_table_is_checked_by_the_guard_before_widening(tmp_path, budget):
    path = tmp_path / "i8.npy"
    np.save(path, np.ones((512, 512), dtype=np.int8))  # 256 KiB on disk, 2 MiB as float64
    set_memory_budget(2**20)
    with pytest.raises(MemoryBudgetError, match="memory budget"):
        load_table_npy(path)
    set_memory_budget(2**24)
    assert load_table_npy(path).dtype == np.float64


@FULL
def test_csv_export_streams_rows(tmp_path):
    from gui.export.headless import write_array

    # 5e5 values (4 MB) in 8 blocks of 262 rows: streamed, the peak is one block's (4.2 MB)
    array = np.random.default_rng(0).standard_normal((2000, 250))
    path = tmp_path / "big.csv"
    tracemalloc.start()
    try:
        write_array(path, array, ("row", "column"))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * 2**20  # tolist() of the whole matrix: 15.4 MB of Python floats
    with open(path) as handle:
        lines = handle.read().splitlines()
    assert len(lines) == 2001
    last = lines[-1].split(",")
    assert last[0] == "1999"
    np.testing.assert_array_equal(np.array(last[1:], dtype=float), array[-1])


# ------------------------------------------------------------------ 5. smaller
@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("notes.npy", b"hello, this is text\n", "a text file"),
        ("w.safetensors", b"\x10\0\0\0\0\0\0\0" + b'{"w":{"dtype":"F32"}}', "safetensors"),
        ("empty.npy", b"", "the file is empty"),
        ("z.npy", b"PK\x03\x04" + b"\0" * 40, ".npz (zip) archive"),
    ],
)
def test_non_npy_files_say_what_they_are(tmp_path, name, content, expected):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(ValueError) as info:
        load_table_npy(path)
    assert expected in str(info.value)
    assert "pickle" not in str(info.value)


def test_real_npz_is_named_and_forged_shape_is_too_large(tmp_path):
    npz = tmp_path / "t.npz"
    np.savez(npz, table=np.ones((4, 4)))
    with pytest.raises(ValueError, match=r"\.npz \(zip\) archive"):
        load_table_npy(npz)
    forged = tmp_path / "forged.npy"
    with open(forged, "wb") as handle:
        header = {"descr": "<f8", "fortran_order": False, "shape": (10**9, 10**6)}
        np.lib.format.write_array_header_1_0(handle, header)
        handle.write(b"\0" * 64)
    with pytest.raises(ValueError, match="the header's shape 1000000000×1000000 is too large"):
        load_table_npy(forged)


def test_note_html_is_shown_as_plain_text(window, tmp_path):
    from PySide6 import QtCore

    deck = json.loads(DECK.read_text(encoding="utf-8"))
    deck["scenes"][0]["note"] = "<b>bold</b> &amp; <img src='x'>"
    path = tmp_path / "html.json"
    path.write_text(json.dumps(deck))
    lecture = window.lecture
    assert lecture.deck.open_deck(path)
    lecture.deck.go(0)
    lecture.presenter.toggle_note()
    overlay = lecture.presenter.note_dock.label
    assert overlay.textFormat() == QtCore.Qt.TextFormat.PlainText
    assert overlay.text() == "<b>bold</b> &amp; <img src='x'>"
    tip = window.view_widget(deck["scenes"][0]["view"]).title.toolTip()
    assert "&lt;b&gt;bold&lt;/b&gt; &amp;amp;" in tip


def test_exported_scene_title_and_note_are_plain_text(qapp):
    from PySide6 import QtCore

    from core.viewdata import ComputeContext
    from gui.export.headless import build_widget

    spec = VIEWS["alibi"]
    view = spec.compute(spec.model.defaults(), ComputeContext())
    widget = build_widget(spec, view, None, "<b>Title</b>", "<i>note</i>")
    plain = QtCore.Qt.TextFormat.PlainText
    assert widget.title.textFormat() == plain and widget.title.text() == "<b>Title</b>"
    assert widget.status.textFormat() == plain and "<i>note</i>" in widget.status.text()
    widget.deleteLater()


@pytest.mark.parametrize(
    ("view", "params", "message"),
    [
        ("permutation", {"sentence": "the dog", "permuted": "a cat"}, "same words"),
        ("permutation", {"sentence": " "}, "no words"),
        ("relative", {"num_buckets": 32, "max_distance": 8}, "max_distance"),
    ],
)
def test_deck_with_impossible_parameter_combination_is_refused_at_load(
    tmp_path, view, params, message
):
    deck = json.loads(DECK.read_text(encoding="utf-8"))
    deck["scenes"].append({"view": view, "params": params})
    path = tmp_path / "d.json"
    path.write_text(json.dumps(deck))
    index = len(deck["scenes"]) - 1
    with pytest.raises(SceneError, match=rf"^scenes\[{index}\]\.params: .*{message}"):
        load_deck(path)
