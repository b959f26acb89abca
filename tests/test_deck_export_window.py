"""File ▸ Export deck…: the deck shown, as a PDF or a folder of slides, by the command
line's code path, with progress and Cancel."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6 import QtGui
from window_reuse import reused_window, reused_window_holder  # noqa: F401  (fixtures)

from core.scenes import Deck, Scene, save_deck
from core.views import VIEWS
from gui import cli
from gui.widgets.progress import ExportCancelled


def _scene(view_id: str, title: str, **params) -> Scene:  # type: ignore[no-untyped-def]
    return Scene(view_id, VIEWS[view_id].model.validate(params, partial=True), title, "a note")


def _deck() -> Deck:
    return Deck("Two scenes", (_scene("rope", "Rotation", m=5), _scene("alibi", "Bias")))


def _pixels(path: Path) -> bytes:
    image = QtGui.QImage(str(path)).convertToFormat(QtGui.QImage.Format.Format_RGB32)
    assert not image.isNull(), path
    return bytes(image.constBits())


def test_the_file_menu_exports_the_deck_after_the_views(window):
    names = [a.objectName() for a in window.file_menu.actions()]
    at = names.index("action-export-deck")
    assert names[at - 1] == "action-export-all" and names[-1] == "action-quit"


def test_the_window_writes_the_slides_the_command_line_writes(window, tmp_path, monkeypatch):
    """An edited deck (not saved) exported from the window: the same files, pixel for
    pixel, as ``main.py export --deck`` of the deck saved; and a PDF of its pages."""
    deck = window.lecture.deck
    deck.set_deck(_deck())
    try:
        deck.add_current()  # an unsaved change: the window exports the deck as edited
        edited = deck.deck()
        assert window.lecture.deck_export.export(tmp_path / "window", "png")
        assert window.lecture.deck_export.export(tmp_path / "deck.pdf", "pdf")
    finally:
        deck.close_deck()
    saved = tmp_path / "edited.pe-deck.json"
    save_deck(edited, saved)
    monkeypatch.setattr(cli, "_use_offscreen_platform", lambda: None)  # (this app's platform)
    assert cli.main(["export", "--deck", str(saved), "-o", str(tmp_path / "cli")], 0.0) == 0
    mine = sorted(p.name for p in (tmp_path / "window").iterdir() if not p.name.startswith("."))
    theirs = sorted(p.name for p in (tmp_path / "cli").iterdir() if not p.name.startswith("."))
    assert mine == theirs and len(mine) == 3
    for name in mine:
        assert _pixels(tmp_path / "window" / name) == _pixels(tmp_path / "cli" / name), name
    assert (tmp_path / "deck.pdf").read_bytes().startswith(b"%PDF")


def test_cancel_stops_the_deck_export(window, tmp_path):
    """Cancel in the progress dialog raises in the writer's next checkpoint: the export
    stops there and reports that nothing was written."""
    export = window.lecture.deck_export
    calls: list[int] = []

    def press_cancel(done: int) -> None:
        if done == 1:
            export.progress.cancel()

    export.slide_done.connect(press_cancel)

    def writer(deck_path, output, *, fmt, checkpoint):  # type: ignore[no-untyped-def]
        assert Path(deck_path).is_file() and fmt == "svg"
        for slide in range(3):
            calls.append(slide)
            checkpoint()

    deck = window.lecture.deck
    deck.set_deck(_deck())
    real, export.writer = export.writer, writer
    try:
        assert export.export(tmp_path / "slides", "svg") is False
        assert "cancelled" in window.statusBar().currentMessage()
    finally:
        export.slide_done.disconnect(press_cancel)
        export.writer = real
        deck.close_deck()
    assert calls == [0] and export.progress is None
    assert not (tmp_path / "slides").exists()
    assert issubclass(ExportCancelled, Exception)


def test_without_a_deck_there_is_nothing_to_export(window, tmp_path):
    export = window.lecture.deck_export
    with pytest.raises(ValueError, match="no deck to export"):
        export.export(tmp_path / "x.pdf", "pdf")
    export.open_dialog()  # no file dialog: one line in the status bar
    assert window.statusBar().currentMessage().startswith("No deck to export")
    assert not (tmp_path / "x.pdf").exists()


def _interruptible() -> bool:
    import inspect

    from gui.export.deck import export_deck

    return "checkpoint" in inspect.signature(export_deck).parameters


@pytest.mark.skipif(not _interruptible(), reason="export_deck takes no checkpoint yet")
@pytest.mark.parametrize(("name", "fmt"), [("slides", "png"), ("deck.pdf", "pdf")])
def test_cancel_stops_the_real_deck_export_with_nothing_written(window, tmp_path, name, fmt):
    export = window.lecture.deck_export
    seen: list[int] = []

    def press_cancel(done: int) -> None:
        seen.append(done)
        if done == 1:
            export.progress.cancel()

    deck = window.lecture.deck
    deck.set_deck(_deck())
    export.slide_done.connect(press_cancel)
    try:
        assert export.export(tmp_path / name, fmt) is False
    finally:
        export.slide_done.disconnect(press_cancel)
        deck.close_deck()
    assert seen == [1]
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []
