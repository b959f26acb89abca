"""Atomic writes behave like ordinary writes: modes, read-only files, symlinks, temp files."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

import core.atomicio
from core.atomicio import atomic_open, atomic_path, atomic_write_text

STALE_SECONDS = getattr(core.atomicio, "STALE_SECONDS", 3600.0)

ROOT = Path(__file__).resolve().parents[1]


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def _parts(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


@pytest.mark.parametrize("umask", [0o022, 0o027, 0o002])
def test_new_file_gets_0666_minus_umask(tmp_path, umask):
    old = os.umask(umask)
    try:
        atomic_write_text(tmp_path / "a.txt", "x")
    finally:
        os.umask(old)
    assert _mode(tmp_path / "a.txt") == 0o666 & ~umask


def test_overwritten_file_keeps_its_mode(tmp_path):
    target = tmp_path / "shared.csv"
    target.write_text("old")
    os.chmod(target, 0o644)
    atomic_write_text(target, "new")
    assert target.read_text() == "new"
    assert _mode(target) == 0o644
    os.chmod(target, 0o640)
    atomic_write_text(target, "newer")
    assert _mode(target) == 0o640


def test_read_only_destination_is_refused_and_untouched(tmp_path):
    target = tmp_path / "final.png"
    target.write_text("keep me")
    os.chmod(target, 0o444)
    with pytest.raises(PermissionError) as info:
        atomic_write_text(target, "replaced")
    assert info.value.filename == str(target)
    assert "read-only" in str(info.value)
    assert target.read_text() == "keep me"
    assert _parts(tmp_path) == []


def test_cli_refuses_read_only_output_with_exit_1(tmp_path):
    from gui.cli import main

    target = tmp_path / "bias.npy"
    target.write_bytes(b"")
    os.chmod(target, 0o444)
    code = main(["export", "alibi", "-o", str(target), "--param", "seq_len=4"], 0.0)
    assert code == 1
    assert target.read_bytes() == b""


def test_symlinked_destination_is_written_through(tmp_path):
    real = tmp_path / "data" / "figure.svg"
    real.parent.mkdir()
    real.write_text("old")
    os.chmod(real, 0o604)
    link = tmp_path / "figure.svg"
    link.symlink_to(real)
    atomic_write_text(link, "new")
    assert link.is_symlink()
    assert real.read_text() == "new"
    assert _mode(real) == 0o604
    assert _parts(tmp_path) == [] and _parts(real.parent) == []


def test_errors_name_the_destination_not_the_temp_file(tmp_path):
    target = tmp_path / "out.csv"
    with pytest.raises(OSError) as info, atomic_path(target) as tmp:
        tmp.unlink()
        os.mkdir(tmp)  # the final rename fails: a folder cannot replace a file here
        (tmp / "x").write_text("")
        target.write_text("")
    assert info.value.filename == str(target)
    assert ".part" not in str(info.value)
    folder = tmp_path / "folder.csv"
    folder.mkdir()
    with pytest.raises(IsADirectoryError) as info:
        atomic_write_text(folder, "x")
    assert info.value.filename == str(folder)


def test_write_error_in_body_names_destination(tmp_path):
    target = tmp_path / "full.csv"
    with pytest.raises(OSError) as info, atomic_open(target) as handle:
        handle.write("a")
        raise OSError(28, "No space left on device")
    assert info.value.filename == str(target)
    assert not target.exists()
    assert _parts(tmp_path) == []


def test_stale_parts_from_killed_runs_are_removed(tmp_path):
    old = tmp_path / ".figure.png.abcd1234.part"
    old_other = tmp_path / ".deck.json.k2_9zq7x.part"
    fresh = tmp_path / ".figure.png.ffff0000.part"
    unrelated = tmp_path / "notes.part"
    for p in (old, old_other, fresh, unrelated):
        p.write_text("x")
    past = time.time() - STALE_SECONDS - 60
    for p in (old, old_other, unrelated):
        os.utime(p, (past, past))
    atomic_write_text(tmp_path / "figure.png", "new")
    names = {p.name for p in tmp_path.iterdir()}
    assert old.name not in names and old_other.name not in names
    assert fresh.name in names  # maybe another process writing right now
    assert unrelated.name in names  # not our naming pattern


_KILL_SCRIPT = """
import sys, time
sys.path.insert(0, {root!r})
from core.atomicio import atomic_open
with atomic_open({target!r}) as handle:
    handle.write("partial")
    handle.flush()
    open({marker!r}, "w").close()
    time.sleep(60)
"""


def test_sigterm_during_write_leaves_no_temp_file(tmp_path):
    target = tmp_path / "slow.csv"
    marker = tmp_path / "started"
    script = _KILL_SCRIPT.format(root=str(ROOT), target=str(target), marker=str(marker))
    proc = subprocess.Popen([sys.executable, "-c", script])
    try:
        for _ in range(600):
            if marker.exists() or proc.poll() is not None:
                break
            time.sleep(0.05)
        assert marker.exists(), "the writer never started"
        assert len(_parts(tmp_path)) == 1
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == -signal.SIGTERM
    finally:
        if proc.poll() is None:
            proc.kill()
    assert _parts(tmp_path) == []
    assert not target.exists()


def test_sigterm_handler_is_set_only_during_a_write(tmp_path):
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    with atomic_open(tmp_path / "x.txt") as handle:
        handle.write("x")
        assert signal.getsignal(signal.SIGTERM) != signal.SIG_DFL  # cleans up if killed now
    # an idle program (a Qt event loop runs no Python) must still end at once on SIGTERM
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL


def test_check_can_write_leaves_nothing_and_names_the_destination(tmp_path, unwritable_folder):
    from core.atomicio import check_can_write

    check_can_write(tmp_path / "new.png")  # a new file in a writable folder: fine
    assert list(tmp_path.iterdir()) == []  # its probe file is gone
    target = unwritable_folder / "x.json"
    with pytest.raises(OSError) as info:
        check_can_write(target)
    assert info.value.filename == str(target) and info.value.strerror
    with pytest.raises(IsADirectoryError):
        check_can_write(tmp_path)
