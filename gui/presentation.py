"""``python main.py present DECK``: open the window with a deck in presentation mode."""

from __future__ import annotations

import sys
from pathlib import Path

from core.scenes import SceneError, load_deck


def run_present(deck_path: str, t0: float) -> int:
    """Open the app with ``deck_path`` loaded, first scene shown, in presentation mode.

    Parameters
    ----------
    deck_path
        A ``pe-studio-deck`` JSON file.
    t0
        ``time.perf_counter()`` at program start (for the self-test timing line).

    Returns
    -------
    int
        The event loop's exit code; 2 (after one line on stderr, no window) when the deck
        cannot be used. With ``PE_STUDIO_SELFTEST=1`` the window quits right after its
        first frame (exit 0) and prints ``first-frame-ms: <ms>``.
    """
    try:
        deck = load_deck(deck_path)
    except SceneError as exc:
        print(f"error: {deck_path}: {exc}", file=sys.stderr)
        return 2
    from gui.app import ensure_app, exec_window
    from gui.main_window import MainWindow

    app = ensure_app()
    window = MainWindow()
    lecture = window.lecture
    lecture.restore()
    lecture.deck.set_deck(deck, Path(deck_path))
    lecture.display.enter_presentation(fullscreen=True)
    return exec_window(app, window, t0, window.showFullScreen)
