"""File ▸ Export deck…: the deck shown, as slides (PNG / SVG in a folder) or one PDF.

The deck as edited now (its unsaved changes too) is written to a temporary deck file,
and an injected writer exports that file: the composition root installs one calling
:func:`gui.export.deck.export_deck` / :func:`gui.export.deck.export_deck_pdf`, the code
path of ``main.py export --deck``. Progress and *Cancel* work as for the animation
export: the writer calls ``checkpoint()`` after each slide (PDF page), which shows the
count and raises :class:`ExportCancelled` once *Cancel* was pressed; the writer leaves
nothing behind then.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from PySide6 import QtCore, QtWidgets

from core.scenes import Deck, SceneError, save_deck
from gui.lecture.deck import DeckController, deck_title
from gui.widgets.progress import ExportCancelled, modal_progress, show_step
from gui.window.protocol import StudioWindow

DeckWriter = Callable[..., object]
"""``writer(deck_path, output, *, fmt, checkpoint)``: writes the deck file's slides into
the folder ``output`` (``fmt`` ``"png"`` or ``"svg"``) or, for ``fmt`` ``"pdf"``, the PDF
``output``; ``checkpoint()`` is called after each slide or page and stops the export by
raising."""
KINDS = (
    ("PDF, one page per slide (*.pdf)", "pdf"),
    ("Folder of PNG slides", "png"),
    ("Folder of SVG slides", "svg"),
)


class DeckExport(QtCore.QObject):
    """The window's deck export: a file or folder asked for, then progress with Cancel.

    Signals
    -------
    slide_done(int)
        Slides (PDF pages) done so far while an export runs.
    """

    slide_done = QtCore.Signal(int)

    def __init__(
        self, window: StudioWindow, deck: DeckController, writer: DeckWriter | None = None
    ) -> None:
        super().__init__(window.qt)
        self.window, self.deck, self.writer = window, deck, writer
        self.progress: QtWidgets.QProgressDialog | None = None

    def current_deck(self) -> Deck | None:
        """The deck shown, as edited now, under its shown title (``None``: no scenes)."""
        if not self.deck.scenes:
            return None
        return Deck(deck_title(self.deck.title), tuple(self.deck.scenes))

    def export(self, output: str | os.PathLike[str], fmt: str) -> bool:
        """Export the deck shown to ``output`` (a ``.pdf`` for ``fmt`` ``"pdf"``, else a
        folder of ``fmt`` slides). ``False`` when Cancel was pressed (nothing written).

        Raises
        ------
        ValueError
            No deck, an unknown ``fmt``, or what the writer refuses (one line).
        OSError
            The output cannot be written.
        RuntimeError
            No writer is installed, or an export is already running.
        """
        if self.writer is None:
            raise RuntimeError("deck export is not installed in this window")
        if self.progress is not None:
            raise RuntimeError("a deck export is already running")
        if fmt not in {kind for _, kind in KINDS}:
            raise ValueError(f"deck export writes pdf, png or svg, not {fmt!r}")
        deck = self.current_deck()
        if deck is None:
            raise ValueError("no deck to export: open a deck or add scenes to one first")
        count = len(deck.scenes)
        what = "pages" if fmt == "pdf" else f"{fmt.upper()} slides"
        dialog = modal_progress(
            self.window.qt,
            "Export deck",
            f"Drawing the {what} of \u201c{deck.title}\u201d ({count} scenes)…",
            count,
        )
        self.progress = dialog
        done = 0

        def checkpoint() -> None:
            nonlocal done
            done += 1
            # (a PDF has a page per reveal step: more than the scenes)
            show_step(dialog, done, max(count, done), lambda: self.slide_done.emit(done))

        with tempfile.TemporaryDirectory(prefix="pe-studio-deck-") as folder:
            deck_path = Path(folder) / "deck.pe-deck.json"
            try:
                save_deck(deck, deck_path)
                self.writer(deck_path, output, fmt=fmt, checkpoint=checkpoint)
            except ExportCancelled:
                self.window.show_status("Deck export cancelled: nothing written", 5000)
                return False
            except SceneError as exc:
                raise ValueError(str(exc)) from None
            finally:
                dialog.close()
                dialog.deleteLater()
                self.progress = None
        self.window.show_status(f"Exported the deck ({count} scenes) to {output}", 8000)
        return True

    def ask(self) -> tuple[str, str] | None:
        """Ask for a PDF file or a slide folder; ``(output, fmt)`` or ``None``."""
        start = self.deck.suggested_path().removesuffix(".pe-deck.json")
        path, chosen = QtWidgets.QFileDialog.getSaveFileName(
            self.window.qt,
            "Export deck",
            f"{start}.pdf",
            ";;".join(label for label, _ in KINDS),
        )
        if not path:
            return None
        fmt = next((kind for label, kind in KINDS if label == chosen), "pdf")
        if fmt == "pdf" and Path(path).suffix.lower() != ".pdf":
            path = f"{path}.pdf"
        elif fmt != "pdf" and Path(path).suffix.lower() in {".pdf", ".png", ".svg"}:
            path = str(Path(path).with_suffix(""))  # a folder named like the deck
        return path, fmt

    def open_dialog(self) -> None:
        """File ▸ Export deck…: ask, export; problems as one line in the status bar."""
        if self.current_deck() is None:
            self.window.show_status(
                "No deck to export — File ▸ Scenes and decks ▸ Open deck…, or add scenes", 6000
            )
            return
        asked = self.ask()
        if asked is None:
            return
        try:
            self.export(*asked)
        except (ValueError, OSError, RuntimeError) as exc:
            self.window.show_status(str(exc), 10000)
